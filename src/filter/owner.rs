//! `-o/--owner`: `user`, `user:group`, `:group`, names or ids, `!` to negate a part.

use anyhow::{anyhow, bail, Result};
use nix::unistd::{Group, User};

/// A check on one id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Check {
    Any,
    Is(u32),
    IsNot(u32),
}

impl Check {
    fn parse(part: Option<&str>, lookup: impl Fn(&str) -> Result<u32>) -> Result<Check> {
        let Some(part) = part.filter(|p| !p.is_empty()) else {
            return Ok(Check::Any);
        };
        let (negate, name) = match part.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, part),
        };
        let id = match name.parse::<u32>() {
            Ok(id) => id,
            Err(_) => lookup(name)?,
        };
        Ok(if negate {
            Check::IsNot(id)
        } else {
            Check::Is(id)
        })
    }

    fn check(self, id: u32) -> bool {
        match self {
            Check::Any => true,
            Check::Is(x) => id == x,
            Check::IsNot(x) => id != x,
        }
    }
}

/// An owner constraint; `None` from [`OwnerFilter::parse`] when it constrains nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OwnerFilter {
    uid: Check,
    gid: Check,
}

impl OwnerFilter {
    /// Parses `[!]user[:[!]group]`, resolving names with the system's user database.
    pub fn parse(s: &str) -> Result<Option<OwnerFilter>> {
        let mut parts = s.split(':');
        let (user, group) = (parts.next(), parts.next());
        if parts.next().is_some() {
            bail!("'{s}' has more than one ':': use user, user:group or :group");
        }
        let uid = Check::parse(user, |n| {
            User::from_name(n)?
                .map(|u| u.uid.as_raw())
                .ok_or_else(|| anyhow!("'{n}' is not a known user"))
        })?;
        let gid = Check::parse(group, |n| {
            Group::from_name(n)?
                .map(|g| g.gid.as_raw())
                .ok_or_else(|| anyhow!("'{n}' is not a known group"))
        })?;
        let f = OwnerFilter { uid, gid };
        Ok((f.uid != Check::Any || f.gid != Check::Any).then_some(f))
    }

    /// Whether an entry owned by `uid:gid` passes.
    pub fn matches(&self, uid: u32, gid: u32) -> bool {
        self.uid.check(uid) && self.gid.check(gid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_ids_and_negation() {
        let root = OwnerFilter::parse("root").unwrap().unwrap();
        assert!(root.matches(0, 5));
        assert!(!root.matches(1, 0));
        let not_root_group = OwnerFilter::parse(":!0").unwrap().unwrap();
        assert!(not_root_group.matches(0, 1));
        assert!(!not_root_group.matches(5, 0));
        let both = OwnerFilter::parse("1000:root").unwrap().unwrap();
        assert!(both.matches(1000, 0));
        assert!(!both.matches(1000, 1));
        assert_eq!(OwnerFilter::parse(":").unwrap(), None);
        assert!(OwnerFilter::parse("a:b:c").is_err());
        assert!(OwnerFilter::parse("no-such-user-hopefully").is_err());
    }
}
