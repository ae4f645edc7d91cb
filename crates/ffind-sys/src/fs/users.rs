//! Who owns files, and who ffind runs as: user and group names and ids (`-o`, `-l`,
//! `--json-fields owner`), the effective user (the memo is kept only in that user's own
//! directories), and the host of `--hyperlink`'s URLs.
//!
//! On Unix, the password and group databases (nix). Windows has no user and group ids on
//! files (an owner there is a security identifier, read from each file's security descriptor,
//! which fd does not show either: its `--owner` does not exist there): [`HAS_OWNERS`] is false,
//! every file reads as owned by id 0, no name is found, and `-o` is refused before a search.

/// Whether files have user and group ids that `-o`, `-l` and `--json` can show and filter on.
pub const HAS_OWNERS: bool = cfg!(unix);

/// The name of user `uid`, if it has one.
pub fn user_name(uid: u32) -> Option<String> {
    #[cfg(unix)]
    {
        use nix::unistd::{Uid, User};
        User::from_uid(Uid::from_raw(uid))
            .ok()
            .flatten()
            .map(|u| u.name)
    }
    #[cfg(windows)]
    {
        let _ = uid;
        None
    }
}

/// The name of group `gid`, if it has one.
pub fn group_name(gid: u32) -> Option<String> {
    #[cfg(unix)]
    {
        use nix::unistd::{Gid, Group};
        Group::from_gid(Gid::from_raw(gid))
            .ok()
            .flatten()
            .map(|g| g.name)
    }
    #[cfg(windows)]
    {
        let _ = gid;
        None
    }
}

/// The id of the user called `name` (`None` too when the database cannot be asked).
pub fn user_id(name: &str) -> Option<u32> {
    #[cfg(unix)]
    {
        use nix::unistd::User;
        User::from_name(name).ok().flatten().map(|u| u.uid.as_raw())
    }
    #[cfg(windows)]
    {
        let _ = name;
        None
    }
}

/// The id of the group called `name` (`None` too when the database cannot be asked).
pub fn group_id(name: &str) -> Option<u32> {
    #[cfg(unix)]
    {
        use nix::unistd::Group;
        Group::from_name(name)
            .ok()
            .flatten()
            .map(|g| g.gid.as_raw())
    }
    #[cfg(windows)]
    {
        let _ = name;
        None
    }
}

/// The effective user's id (0 on Windows, the id every file there reads as owned by).
pub fn effective_uid() -> u32 {
    #[cfg(unix)]
    {
        nix::unistd::geteuid().as_raw()
    }
    #[cfg(windows)]
    {
        0
    }
}

/// The host of a result's `file://` URL (`--hyperlink`), as fd writes it: the host name on
/// Unix; on Windows "/", so that `C:\x` is `file:///C:/x`.
pub fn link_host() -> String {
    #[cfg(unix)]
    {
        nix::unistd::gethostname()
            .ok()
            .and_then(|h| h.into_string().ok())
            .unwrap_or_default()
    }
    #[cfg(windows)]
    {
        "/".to_owned()
    }
}
