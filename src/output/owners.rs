//! User and group names by id, for `-l` and `--json-fields owner`: looked up once per id
//! (the password and group databases are slow to ask per entry) and shared by the workers.

use std::collections::HashMap;
use std::sync::Mutex;

/// Names found so far.
#[derive(Debug, Default)]
pub struct Owners {
    users: Mutex<HashMap<u32, Option<String>>>,
    groups: Mutex<HashMap<u32, Option<String>>>,
}

impl Owners {
    /// The name of user `uid`, if it has one.
    pub fn user(&self, uid: u32) -> Option<String> {
        let mut users = self.users.lock().unwrap_or_else(|e| e.into_inner());
        users
            .entry(uid)
            .or_insert_with(|| crate::fs::user_name(uid))
            .clone()
    }

    /// The name of group `gid`, if it has one.
    pub fn group(&self, gid: u32) -> Option<String> {
        let mut groups = self.groups.lock().unwrap_or_else(|e| e.into_inner());
        groups
            .entry(gid)
            .or_insert_with(|| crate::fs::group_name(gid))
            .clone()
    }
}
