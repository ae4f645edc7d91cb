//! The clock the directory memo's racy rule reads (docs/CACHE.md, "How a directory is
//! validated"), with what tells whether it was set back since a reading.
//!
//! A memo compares the realtime clock at a listing with the file system's stamps, which the
//! kernel takes from the same clock; a clock set back (`date -s`, NTP stepping a fast clock, a
//! virtual machine restored or migrated) stamps later changes with times the listing seems
//! to follow. On Linux each reading keeps the boot it was taken in (`boot_id`) and how far
//! realtime stood from the time since boot (`CLOCK_REALTIME − CLOCK_BOOTTIME`): within one
//! boot that offset changes only when the clock is set, never when NTP slews it or the
//! machine sleeps, so a later reading tells exactly how far the clock was set back since
//! ([`ClockReading::as_of`]). Elsewhere (the portable fallback) a reading is the realtime
//! clock alone, and a step back is seen only when the clock reads earlier than the reading.

/// Where a reading stood against the time since boot (Linux).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BootClock {
    /// The boot it was read in: a hash of `/proc/sys/kernel/random/boot_id`, never 0.
    pub boot: u64,
    /// Realtime minus the time since boot (the host's, a time namespace's offset taken
    /// away), in nanoseconds.
    pub offset: i64,
}

/// The realtime clock as read once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockReading {
    /// Seconds and nanoseconds since the epoch.
    pub real: (i64, u32),
    /// Where it stood against the time since boot: `None` where that cannot be read (other
    /// systems, no `/proc`).
    pub boot: Option<BootClock>,
}

impl ClockReading {
    /// The realtime clock now.
    pub fn now() -> ClockReading {
        let real = realtime();
        ClockReading {
            real: (
                real.div_euclid(1_000_000_000) as i64,
                real.rem_euclid(1_000_000_000) as u32,
            ),
            boot: boot_clock(real),
        }
    }

    /// When this reading was taken, on the clock as it reads at `now` (a later reading): its
    /// realtime moved back by as far as the clock was set back in between, so that a time
    /// stamped since by the clock set back compares with it as the kernel's stamps do.
    /// `None` when that cannot be told: `now` is of another boot (the clock may have been set
    /// anywhere meanwhile), or, without the boot's clock on either side, `now` reads earlier
    /// than this reading (set back, by an amount unknown).
    pub fn as_of(&self, now: &ClockReading) -> Option<(i64, u32)> {
        match (self.boot, now.boot) {
            (Some(then), Some(now_boot)) if then.boot != now_boot.boot => None,
            (Some(then), Some(now_boot)) => {
                let back = i128::from(then.offset) - i128::from(now_boot.offset);
                if back <= 0 {
                    return Some(self.real);
                }
                let at = nanos(self.real) - back;
                Some((
                    i64::try_from(at.div_euclid(1_000_000_000)).ok()?,
                    at.rem_euclid(1_000_000_000) as u32,
                ))
            }
            _ if now.real < self.real => None,
            _ => Some(self.real),
        }
    }
}

fn nanos((secs, ns): (i64, u32)) -> i128 {
    i128::from(secs) * 1_000_000_000 + i128::from(ns)
}

/// The realtime clock in nanoseconds since the epoch (before it: negative).
fn realtime() -> i128 {
    let now = std::time::SystemTime::now();
    match now.duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => d.as_nanos() as i128,
        Err(e) => -(e.duration().as_nanos() as i128),
    }
}

/// Where `real` (just read) stands against the time since boot, read right after it.
#[cfg(target_os = "linux")]
fn boot_clock(real: i128) -> Option<BootClock> {
    let (boot, namespace_offset) = (*boot_and_namespace())?;
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write to; CLOCK_BOOTTIME exists since Linux 2.6.39.
    if unsafe { libc::clock_gettime(libc::CLOCK_BOOTTIME, &mut ts) } != 0 {
        return None;
    }
    let since_boot =
        i128::from(ts.tv_sec) * 1_000_000_000 + i128::from(ts.tv_nsec) - namespace_offset;
    Some(BootClock {
        boot,
        offset: i64::try_from(real - since_boot).ok()?,
    })
}

/// Other systems: the realtime clock alone (docs/CACHE.md says what that leaves unseen).
#[cfg(not(target_os = "linux"))]
fn boot_clock(_real: i128) -> Option<BootClock> {
    None
}

/// This boot (a hash of its id) and the offset of this process's time namespace's boot
/// clock (`/proc/self/timens_offsets`; 0 outside one, or before Linux 5.6 which has none),
/// read once: `None` when either cannot be read.
#[cfg(target_os = "linux")]
fn boot_and_namespace() -> &'static Option<(u64, i128)> {
    static READ: std::sync::OnceLock<Option<(u64, i128)>> = std::sync::OnceLock::new();
    READ.get_or_init(|| {
        let id = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").ok()?;
        let boot = boot_hash(id.trim())?;
        let offset = match std::fs::read_to_string("/proc/self/timens_offsets") {
            Ok(text) => boottime_offset(&text)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
            Err(_) => return None,
        };
        Some((boot, offset))
    })
}

/// A boot id (`xxxxxxxx-xxxx-…`, 32 hex digits) as 64 bits, never 0: `None` if it is not one.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn boot_hash(id: &str) -> Option<u64> {
    let digits: String = id.chars().filter(|&c| c != '-').collect();
    if digits.len() != 32 {
        return None;
    }
    let whole = u128::from_str_radix(&digits, 16).ok()?;
    Some(((whole >> 64) as u64 ^ whole as u64).max(1))
}

/// The boot clock's offset in a time namespace's offsets (lines `boottime SECS NANOS`), in
/// nanoseconds: `None` when the text says none.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn boottime_offset(text: &str) -> Option<i128> {
    text.lines().find_map(|line| {
        let mut words = line.split_whitespace();
        let clock = words.next()?;
        // Named by newer kernels, numbered (CLOCK_BOOTTIME is 7) by the first.
        if clock != "boottime" && clock != "7" {
            return None;
        }
        let secs: i128 = words.next()?.parse().ok()?;
        let ns: i128 = words.next()?.parse().ok()?;
        Some(secs * 1_000_000_000 + ns)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(real: (i64, u32), boot: u64, offset: i64) -> ClockReading {
        ClockReading {
            real,
            boot: Some(BootClock { boot, offset }),
        }
    }

    #[test]
    fn a_step_back_moves_a_reading_back_by_as_much() {
        let then = at((1000, 500), 7, 50_000_000_000);
        // The clock ran on: nothing to take back.
        assert_eq!(
            then.as_of(&at((1300, 0), 7, 50_000_000_000)),
            Some((1000, 500))
        );
        // Set forward: a reading is never moved later.
        assert_eq!(
            then.as_of(&at((1300, 0), 7, 60_000_000_000)),
            Some((1000, 500))
        );
        // Set back 10.25 s.
        assert_eq!(
            then.as_of(&at((1300, 0), 7, 39_750_000_000)),
            Some((989, 750_000_500))
        );
        // Another boot: not told.
        assert_eq!(then.as_of(&at((1300, 0), 8, 50_000_000_000)), None);
    }

    #[test]
    fn without_the_boot_clock_only_a_clock_behind_the_reading_is_seen() {
        let alone = |real| ClockReading { real, boot: None };
        let then = alone((1000, 500));
        assert_eq!(then.as_of(&alone((1000, 501))), Some((1000, 500)));
        assert_eq!(then.as_of(&alone((1000, 499))), None);
        // One side without it is read as both.
        assert_eq!(then.as_of(&at((999, 0), 7, 0)), None);
        assert_eq!(
            at((1000, 0), 7, 0).as_of(&alone((1001, 0))),
            Some((1000, 0))
        );
    }

    #[test]
    fn boot_ids_and_namespace_offsets_are_read() {
        assert!(boot_hash("580e21bd-82e3-4795-bf74-e3645700dbe8").is_some());
        assert_eq!(boot_hash("580e21bd"), None);
        assert_eq!(boot_hash("zz0e21bd-82e3-4795-bf74-e3645700dbe8"), None);
        let text = "monotonic           0         0\nboottime          -12       500\n";
        assert_eq!(boottime_offset(text), Some(-11_999_999_500));
        assert_eq!(boottime_offset("7 3 0\n"), Some(3_000_000_000));
        assert_eq!(boottime_offset("monotonic 1 0\n"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn on_linux_a_reading_knows_its_boot_and_two_readings_agree() {
        let (a, b) = (ClockReading::now(), ClockReading::now());
        let (Some(x), Some(y)) = (a.boot, b.boot) else {
            panic!("no boot clock: {a:?}");
        };
        assert_eq!(x.boot, y.boot);
        // Read a few nanoseconds apart: the offset hardly moves.
        assert!((x.offset - y.offset).abs() < 1_000_000_000, "{x:?} {y:?}");
        assert!(a.as_of(&b).is_some());
    }
}
