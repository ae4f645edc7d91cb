//! `-l/--list-details`: the columns of `ls -l -h` (what fd runs for `-l`), written by ffind
//! itself: mode, links, owner, group, size in 1024-based units, modification time. The path and
//! a symbolic link's target follow, written by the caller.
//!
//! `ls` aligns links, owner, group and size over its whole list; fd runs it on what it held
//! (a small search) or on each batch. Here results are written by the workers as they are
//! found, each column padded to the widest value written so far, and at least to [`LEAST`]
//! (links 2, owner and group 8, as `ls -l` long padded them, size 4, the width of an `ls -h`
//! size), so that a streamed listing's columns stay put and widen only for a value wider
//! than all before. What the printer held and writes sorted (a small search, `--sort`) is
//! aligned again ([`Widths::realign`]) to the widest value in it, without the least widths:
//! byte for byte what `ls -l -h` prints for the same paths.

use std::io::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};

use jiff::tz::TimeZone;

use crate::fs::{device_numbers, Kind, Stat};
use crate::output::owners::Owners;

/// ls shows the time of day for files changed in the last six months (half a mean Gregorian
/// year), the year for older ones and for times in the future.
const SIX_MONTHS: i64 = 31_556_952 / 2;

/// The padded columns: links, owner, group, size.
const PADDED: usize = 4;

/// The least width of each padded column on a streamed listing: links 2, owner and group 8,
/// size 4.
pub const LEAST: [usize; PADDED] = [2, 8, 8, 4];

/// The widest value of each padded column over a list of records, whoever formatted them
/// (this process, or another under `--mpi`): what [`Widths::realign`] pads them to.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Widths([usize; PADDED]);

impl Widths {
    /// Widens each column to `record`'s value in it, if `record` reads as
    /// [`Details::write_columns`] writes.
    pub fn include(&mut self, record: &[u8]) {
        if let Some((_, values, _)) = columns(record) {
            for (widest, value) in self.0.iter_mut().zip(&values) {
                *widest = (*widest).max(value.chars().count());
            }
        }
    }

    /// Appends `record` (one written by [`Details::write_columns`], then the path) with its
    /// links, owner, group and size padded to these widths, the widest values of the list it is
    /// written in (without the least widths): for what was held and is written all at once,
    /// aligned as `ls -l` aligns its list. A record that does not read as written (an owner's
    /// name with a space) is appended as it is.
    pub fn realign(self, record: &[u8], out: &mut Vec<u8>) {
        let Some((head, values, rest)) = columns(record) else {
            out.extend_from_slice(record);
            return;
        };
        out.extend_from_slice(head);
        push_padded(out, &values, self.0);
        out.extend_from_slice(rest);
    }
}

/// What the columns need, resolved once.
#[derive(Debug)]
pub struct Details {
    /// The widest value written so far in each padded column (links, owner, group, size), in
    /// characters.
    widest: [AtomicUsize; PADDED],
    /// The local time zone, for modification times.
    tz: TimeZone,
    /// Now, in seconds since the epoch.
    now: i64,
    /// Links are followed (`-L`): the walk's metadata is the target's, but `ls -l` (what fd
    /// runs) shows the link itself, so it is asked by path.
    follow: bool,
}

impl Details {
    /// Columns in time zone `tz`, relative to `now` (seconds since the epoch); `follow` when
    /// the walk follows links.
    pub fn new(tz: TimeZone, now: i64, follow: bool) -> Details {
        Details {
            widest: Default::default(),
            tz,
            now,
            follow,
        }
    }

    /// The metadata shown for `path`: the walk's (`walked`), or the link's own under `-L`.
    pub fn stat(&self, path: &[u8], walked: impl FnOnce() -> Option<Stat>) -> Option<Stat> {
        if !self.follow {
            return walked();
        }
        own_stat(path).or_else(walked)
    }

    /// Appends the columns before the path `path`, and a space.
    pub fn write_columns(
        &self,
        out: &mut Vec<u8>,
        path: &[u8],
        stat: Option<&Stat>,
        owners: &Owners,
    ) {
        let Some(st) = stat else {
            // The entry vanished (or cannot be read): ls prints question marks.
            out.extend_from_slice(b"??????????");
            self.push_values(out, ["?", "?", "?", "?"].map(str::to_owned));
            out.extend_from_slice(b"           ? ");
            return;
        };
        push_mode(out, st.mode);
        // Where files have no owners (Windows), "-" stands in their columns.
        let (user, group) = if crate::fs::HAS_OWNERS {
            let user = owners.user(st.uid).unwrap_or_else(|| st.uid.to_string());
            let group = owners.group(st.gid).unwrap_or_else(|| st.gid.to_string());
            (user, group)
        } else {
            ("-".to_owned(), "-".to_owned())
        };
        let size = match st.kind() {
            Kind::BlockDevice | Kind::CharDevice => {
                // Asked by path here rather than kept in every `Stat`: devices are rare, and
                // the walk moves `Stat`s around for every entry.
                let (major, minor) = device_numbers(crate::fs::device_of(path));
                format!("{major}, {minor}")
            }
            _ => human_size(st.size),
        };
        self.push_values(out, [st.nlink.to_string(), user, group, size]);
        self.push_time(out, st.mtime);
        out.push(b' ');
    }

    /// Appends the padded columns, each as wide as the widest value written so far (this one
    /// too), and at least [`LEAST`].
    fn push_values(&self, out: &mut Vec<u8>, values: [String; PADDED]) {
        let mut widths = [0; PADDED];
        for (i, value) in values.iter().enumerate() {
            let len = value.chars().count();
            let widest = self.widest[i].fetch_max(len, Ordering::Relaxed).max(len);
            widths[i] = widest.max(LEAST[i]);
        }
        push_padded(out, &values.each_ref().map(String::as_str), widths);
    }

    fn push_time(&self, out: &mut Vec<u8>, mtime: i64) {
        let shown = jiff::Timestamp::from_second(mtime)
            .ok()
            .map(|t| t.to_zoned(self.tz.clone()));
        let Some(zoned) = shown else {
            out.extend_from_slice(b"           ?");
            return;
        };
        let recent = mtime > self.now - SIX_MONTHS && mtime <= self.now;
        let format = if recent { "%b %e %H:%M" } else { "%b %e  %Y" };
        let _ = write!(out, "{}", zoned.strftime(format));
    }
}

/// Appends " LINKS OWNER GROUP SIZE " after the mode: numbers to the right, names to the
/// left, as `ls -l` pads them.
fn push_padded(out: &mut Vec<u8>, values: &[&str; PADDED], widths: [usize; PADDED]) {
    let [links, user, group, size] = values;
    let [w_links, w_user, w_group, w_size] = widths;
    let _ = write!(
        out,
        " {links:>w_links$} {user:<w_user$} {group:<w_group$} {size:>w_size$} "
    );
}

/// A record of [`Details::write_columns`] taken apart: what comes up to the mode's end (a
/// hyperlink's start, the mode), the four padded values, and the rest from the time on.
fn columns(record: &[u8]) -> Option<(&[u8], [&str; PADDED], &[u8])> {
    // A hyperlink opens before the columns: ESC ] 8 ; ; URL ESC \.
    let start = match record.strip_prefix(b"\x1b]8;") {
        Some(link) => 4 + link.windows(2).position(|w| w == b"\x1b\\")? + 2,
        None => 0,
    };
    let mode_end = start + 10;
    let mut at = mode_end;
    let text = |from: usize, to: usize| std::str::from_utf8(record.get(from..to)?).ok();
    let spaces = |at: &mut usize| {
        while record.get(*at) == Some(&b' ') {
            *at += 1;
        }
    };
    let word = |at: &mut usize| {
        let from = *at;
        while record.get(*at).is_some_and(|&b| b != b' ') {
            *at += 1;
        }
        (*at > from).then(|| text(from, *at)).flatten()
    };
    spaces(&mut at);
    let links = word(&mut at)?;
    spaces(&mut at);
    let user = word(&mut at)?;
    spaces(&mut at);
    let group = word(&mut at)?;
    spaces(&mut at);
    let from = at;
    word(&mut at)?;
    // A device's "major, minor".
    if record.get(at - 1) == Some(&b',') {
        spaces(&mut at);
        word(&mut at)?;
    }
    let size = text(from, at)?;
    let sized = |s: &str| {
        s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b", .?".contains(&b))
    };
    if record.get(at) != Some(&b' ')
        || !(links == "?" || links.bytes().all(|b| b.is_ascii_digit()))
        || !sized(size)
    {
        return None;
    }
    Some((
        &record[..mode_end],
        [links, user, group, size],
        &record[at + 1..],
    ))
}

/// `drwxr-xr-x`: the type and permission bits, with setuid, setgid and sticky as ls shows them.
fn push_mode(out: &mut Vec<u8>, mode: u32) {
    out.push(match Kind::from_mode(mode) {
        Kind::Dir => b'd',
        Kind::Symlink => b'l',
        Kind::Fifo => b'p',
        Kind::Socket => b's',
        Kind::BlockDevice => b'b',
        Kind::CharDevice => b'c',
        Kind::File => b'-',
        Kind::Unknown => b'?',
    });
    let special = [(0o4000, b's'), (0o2000, b's'), (0o1000, b't')];
    for (who, (bit, mark)) in special.into_iter().enumerate() {
        let shift = 6 - 3 * who as u32;
        let rwx = (mode >> shift) & 7;
        out.push(if rwx & 4 != 0 { b'r' } else { b'-' });
        out.push(if rwx & 2 != 0 { b'w' } else { b'-' });
        let exec = rwx & 1 != 0;
        out.push(match (mode & bit != 0, exec) {
            (true, true) => mark,
            (true, false) => mark.to_ascii_uppercase(),
            (false, true) => b'x',
            (false, false) => b'-',
        });
    }
}

/// A size as `ls -h` shows it: bytes below 1024, else 1024-based units rounded up, with one
/// decimal below 10 ("1.5M", "4.0K", "12G").
pub fn human_size(size: u64) -> String {
    const UNITS: [char; 6] = ['K', 'M', 'G', 'T', 'P', 'E'];
    if size < 1024 {
        return size.to_string();
    }
    let mut value = size as f64 / 1024.0;
    let mut unit = 0;
    loop {
        if value < 10.0 {
            let tenths = (value * 10.0).ceil() / 10.0;
            if tenths < 10.0 {
                return format!("{tenths:.1}{}", UNITS[unit]);
            }
            return format!("10{}", UNITS[unit]);
        }
        let whole = value.ceil();
        if whole < 1024.0 || unit == UNITS.len() - 1 {
            return format!("{whole}{}", UNITS[unit]);
        }
        value /= 1024.0;
        unit += 1;
    }
}

/// The metadata of `path` itself, not following a link (`lstat`): what `-l` shows under `-L`,
/// and what `--json` describes a link by when it cannot be followed.
pub fn own_stat(path: &[u8]) -> Option<Stat> {
    crate::fs::own_stat(path)
}

/// Where the symbolic link `path` points, for " -> target".
pub fn link_target(path: &[u8]) -> Option<Vec<u8>> {
    std::fs::read_link(crate::fs::os_path(path))
        .ok()
        .map(|t| t.into_os_string().into_encoded_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_as_ls_h_shows_them() {
        assert_eq!(human_size(0), "0");
        assert_eq!(human_size(1023), "1023");
        assert_eq!(human_size(1024), "1.0K");
        assert_eq!(human_size(4096), "4.0K");
        assert_eq!(human_size(1_500_000), "1.5M");
        assert_eq!(human_size(10 * 1024 - 1), "10K");
        assert_eq!(human_size(10 * 1024 + 1), "11K");
        assert_eq!(human_size(1024 * 1024 - 1), "1.0M");
    }

    #[test]
    fn modes_as_ls_shows_them() {
        let mode = |m: u32| {
            let mut out = Vec::new();
            push_mode(&mut out, m);
            String::from_utf8(out).unwrap()
        };
        // S_IFREG, S_IFDIR and S_IFLNK are 0o100000, 0o040000 and 0o120000 on every system.
        assert_eq!(mode(0o100_644), "-rw-r--r--");
        assert_eq!(mode(0o041_777), "drwxrwxrwt");
        assert_eq!(mode(0o104_755), "-rwsr-xr-x");
        assert_eq!(mode(0o102_644), "-rw-r-Sr--");
        assert_eq!(mode(0o120_777), "lrwxrwxrwx");
    }

    #[test]
    fn held_records_are_aligned_to_the_widest() {
        let details = Details::new(TimeZone::UTC, 0, false);
        let row = |values: [&str; 4]| {
            let mut out = b"-rw-r--r--".to_vec();
            details.push_values(&mut out, values.map(str::to_owned));
            out.extend_from_slice(b"Jan  1  1970 ./x\n");
            out
        };
        // Written streamed: at least the least widths.
        let a = row(["1", "root", "root", "3"]);
        assert_eq!(
            a,
            b"-rw-r--r--  1 root     root        3 Jan  1  1970 ./x\n"
        );
        let b = row(["12", "nobody", "nogroup", "1, 3"]);
        let link = [&b"\x1b]8;;file:///x\x1b\\"[..], &a].concat();
        let vanished = row(["?", "?", "?", "?"]);
        // Aligned over the list held, whoever formatted its records: the widths come from
        // the records, not from what this process wrote (`--mpi`'s process 0 formats few).
        let mut widths = Widths::default();
        for record in [&a, &b, &link, &vanished] {
            widths.include(record);
        }
        let realigned = |record: &[u8]| {
            let mut out = Vec::new();
            widths.realign(record, &mut out);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(
            realigned(&a),
            "-rw-r--r--  1 root   root       3 Jan  1  1970 ./x\n"
        );
        assert_eq!(
            realigned(&b),
            "-rw-r--r-- 12 nobody nogroup 1, 3 Jan  1  1970 ./x\n"
        );
        assert_eq!(
            realigned(&link),
            "\x1b]8;;file:///x\x1b\\-rw-r--r--  1 root   root       3 Jan  1  1970 ./x\n"
        );
        assert_eq!(
            realigned(&vanished),
            "-rw-r--r--  ? ?      ?          ? Jan  1  1970 ./x\n"
        );
        // What does not read as written stays as it is.
        assert_eq!(realigned(b"-rw-r--r-- x"), "-rw-r--r-- x");
        // A list without the wide record is aligned to its own values, however wide the
        // values this Details wrote were.
        let mut narrow = Widths::default();
        narrow.include(&a);
        let mut out = Vec::new();
        narrow.realign(&a, &mut out);
        assert_eq!(out, b"-rw-r--r-- 1 root root 3 Jan  1  1970 ./x\n");
    }
}
