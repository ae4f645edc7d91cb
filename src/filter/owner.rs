//! `-o/--owner`: `user`, `user:group`, `:group`, names or ids, `!` to negate a part.

use anyhow::{anyhow, bail, Result};

/// A check on one id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Check {
    Any,
    Is(u32),
    IsNot(u32),
}

impl Check {
    /// One side of `spec` (`user` or `group`, named `what`): empty, `[!]ID` or `[!]NAME`.
    fn parse(
        spec: &str,
        part: Option<&str>,
        what: &str,
        lookup: impl Fn(&str) -> Option<u32>,
    ) -> Result<Check> {
        let Some(part) = part.filter(|p| !p.is_empty()) else {
            return Ok(Check::Any);
        };
        let (negate, name) = match part.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, part),
        };
        if name.is_empty() {
            bail!("'{spec}' is not a valid owner: '!' must be followed by a {what} name or id");
        }
        let id = match name.parse::<u32>() {
            Ok(id) => id,
            Err(_) => lookup(name).ok_or_else(|| {
                anyhow!("'{spec}' is not a valid owner: no {what} is named '{name}'")
            })?,
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
            bail!("'{s}' is not a valid owner: use user, user:group or :group (one ':' at most)");
        }
        // A name the user database cannot look up (an error, not just absent) is no user.
        let uid = Check::parse(s, user, "user", crate::fs::user_id)?;
        let gid = Check::parse(s, group, "group", crate::fs::group_id)?;
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
    fn ids_and_negation() {
        let not_root_group = OwnerFilter::parse(":!0").unwrap().unwrap();
        assert!(not_root_group.matches(0, 1));
        assert!(!not_root_group.matches(5, 0));
        let both = OwnerFilter::parse("1000:0").unwrap().unwrap();
        assert!(both.matches(1000, 0));
        assert!(!both.matches(1000, 1));
        assert_eq!(OwnerFilter::parse(":").unwrap(), None);
        assert!(OwnerFilter::parse("a:b:c").is_err());
        assert!(OwnerFilter::parse("no-such-user-hopefully").is_err());
    }

    // Names come from Unix's user and group databases; where there are none (Windows, where
    // -o is refused before a search, in config.rs), no name is found.
    #[test]
    fn names_are_looked_up() {
        if !crate::fs::HAS_OWNERS {
            assert!(OwnerFilter::parse("root").is_err());
            assert!(OwnerFilter::parse("1000:root").is_err());
            return;
        }
        let root = OwnerFilter::parse("root").unwrap().unwrap();
        assert!(root.matches(0, 5));
        assert!(!root.matches(1, 0));
        let both = OwnerFilter::parse("1000:root").unwrap().unwrap();
        assert!(both.matches(1000, 0));
        assert!(!both.matches(1000, 1));
    }

    #[test]
    fn a_lone_bang_is_named() {
        let e = OwnerFilter::parse("!").unwrap_err();
        assert_eq!(
            e.to_string(),
            "'!' is not a valid owner: '!' must be followed by a user name or id"
        );
        let e = OwnerFilter::parse("0:!").unwrap_err();
        assert_eq!(
            e.to_string(),
            "'0:!' is not a valid owner: '!' must be followed by a group name or id"
        );
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_read_or_refused_by_name(s in "[!:a-z0-9_\\PC]{0,20}") {
            let quoted = format!("'{}'", s);
            if let Err(e) = OwnerFilter::parse(&s) {
                proptest::prop_assert!(e.to_string().starts_with(&quoted));
            }
        }

        #[test]
        fn numeric_ids_round_trip(uid in proptest::num::u32::ANY, gid in proptest::num::u32::ANY,
                                  not_uid in proptest::bool::ANY, not_gid in proptest::bool::ANY) {
            let bang = |b: bool| if b { "!" } else { "" };
            let f = OwnerFilter::parse(&format!("{}{uid}:{}{gid}", bang(not_uid), bang(not_gid)))
                .unwrap()
                .unwrap();
            proptest::prop_assert_eq!(f.matches(uid, gid), !not_uid && !not_gid);
            proptest::prop_assert_eq!(
                f.matches(uid.wrapping_add(1), gid.wrapping_add(1)),
                not_uid && not_gid
            );
        }
    }
}
