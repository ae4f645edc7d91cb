//! The memo's own tests: the racy rule, the clock's steps, and the lookups.

use super::*;

pub(super) fn stamp(changed: i64) -> Stamp {
    Stamp {
        dev: 1,
        ino: 2,
        mtime: (changed, 5),
        ctime: (changed - 1, 0),
        size: 4096,
        mode: 0o40755,
        nlink: 2,
        uid: 0,
        gid: 0,
    }
}

/// A reading of the clock at `real`, in the boot 7, realtime `offset` seconds ahead of
/// the time since boot.
fn reading(real: (i64, u32), offset: i64) -> ClockReading {
    ClockReading {
        real,
        boot: Some(crate::fs::BootClock {
            boot: 7,
            offset: offset * 1_000_000_000,
        }),
    }
}

#[test]
fn a_listing_is_trusted_only_well_after_the_last_change() {
    let st = stamp(100);
    let now = reading((1000, 0), 50);
    let settled = |st: &Stamp, listed| settled_as_of(st, reading(listed, 50), &now);
    assert!(settled(&st, (100 + MARGIN_SECS, 6)));
    assert!(!settled(&st, (100 + MARGIN_SECS, 5)));
    assert!(!settled(&st, (100 + MARGIN_SECS - 1, 999_999_999)));
    // The later of mtime and ctime counts.
    let mut later_ctime = st;
    later_ctime.ctime = (200, 0);
    assert!(!settled(&later_ctime, (150, 0)));
}

#[test]
fn a_listing_is_judged_on_the_clock_set_back_since() {
    // Listed 10 s after the change, by a clock 10 s ahead (its offset from the time since
    // boot 60 s, now 50 s): taken back to the change itself.
    let st = stamp(100);
    let listed = reading((110, 0), 60);
    assert!(!settled_as_of(&st, listed, &reading((101, 0), 50)));
    // The same clock, or one set forward since: trusted.
    assert!(settled_as_of(&st, listed, &reading((200, 0), 60)));
    assert!(settled_as_of(&st, listed, &reading((200, 0), 70)));
    // Set back by less than the listing's lead over the margin: still trusted.
    assert!(settled_as_of(&st, listed, &reading((200, 0), 54)));
    assert!(!settled_as_of(&st, listed, &reading((200, 0), 53)));
    // Another boot: never.
    let mut rebooted = reading((10_000, 0), 60);
    rebooted.boot = rebooted.boot.map(|b| crate::fs::BootClock { boot: 8, ..b });
    assert!(!settled_as_of(&st, listed, &rebooted));
}
