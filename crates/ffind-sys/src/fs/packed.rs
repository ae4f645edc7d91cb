//! Names packed one after another, as the directory memo keeps a listing (`memo/format.rs`):
//! for each, a one-byte tag (its kind's `d_type`), the name's length (1 to 255), the name's
//! bytes and a NUL. Checked whole once, then handed out as C strings without looking for
//! their NULs again: the one `unsafe` that needs lives here, on the ground floor, behind a
//! check no caller can skip ([`Packed::check`], [`PackedBuf::check`]).

use std::ffi::CStr;

/// The longest name a packed listing holds (Linux's `NAME_MAX`), the most its one-byte length
/// says.
pub const MAX_NAME: usize = u8::MAX as usize;

/// Appends `name` with `tag` to `out`; false (nothing appended) when it is longer than
/// [`MAX_NAME`] bytes.
pub fn push(out: &mut Vec<u8>, tag: u8, name: &CStr) -> bool {
    let name = name.to_bytes_with_nul();
    let len = name.len() - 1;
    if len > MAX_NAME {
        return false;
    }
    out.push(tag);
    out.push(len as u8);
    out.extend_from_slice(name);
    true
}

/// `count` packed names, checked whole: the only NULs among them end names.
#[derive(Debug, Clone, Copy)]
pub struct Packed<'a> {
    bytes: &'a [u8],
    count: u32,
}

impl<'a> Packed<'a> {
    /// The `count` names at the start of `bytes`, if they are whole: each a tag, a length
    /// (not 0), that many bytes of name and a NUL, all within `bytes`, and no other NUL in any
    /// name. Bytes after the last name are not looked at.
    pub fn check(bytes: &'a [u8], count: u32) -> Option<Packed<'a>> {
        let end = whole(bytes, count)?;
        Some(Packed {
            bytes: &bytes[..end],
            count,
        })
    }

    /// How many names there are.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// Each name, with its tag, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&'a CStr, u8)> + 'a {
        let mut rest = self.bytes;
        (0..self.count).map_while(move |_| {
            let (&tag, tail) = rest.split_first()?;
            let (&len, tail) = tail.split_first()?;
            let len = usize::from(len);
            let with_nul = tail.get(..=len)?;
            // SAFETY: `with_nul` ends with a NUL and holds no other: `check` (the only way to
            // make a `Packed`) found every name whole, a NUL after each, and counted the NULs
            // of all of them (`whole`), and this walks the names as it did.
            let name = unsafe { CStr::from_bytes_with_nul_unchecked(with_nul) };
            rest = &tail[len + 1..];
            Some((name, tag))
        })
    }
}

/// [`Packed`] names in a buffer of their own (which may hold other bytes before them): for
/// a buffer reused from one lookup to the next.
#[derive(Debug)]
pub struct PackedBuf {
    bytes: Vec<u8>,
    start: usize,
    end: usize,
    count: u32,
}

impl PackedBuf {
    /// The `count` names from `start` on in `bytes`, checked as [`Packed::check`] checks
    /// them; the buffer back when they are not whole.
    pub fn check(bytes: Vec<u8>, start: usize, count: u32) -> Result<PackedBuf, Vec<u8>> {
        match bytes.get(start..).and_then(|b| whole(b, count)) {
            Some(len) => Ok(PackedBuf {
                end: start + len,
                bytes,
                start,
                count,
            }),
            None => Err(bytes),
        }
    }

    /// The names.
    pub fn packed(&self) -> Packed<'_> {
        Packed {
            bytes: &self.bytes[self.start..self.end],
            count: self.count,
        }
    }

    /// The bytes after the names (a memo record's remembered rules).
    pub fn after(&self) -> &[u8] {
        &self.bytes[self.end..]
    }

    /// The bytes up to the end of the names (what was before them included), and their
    /// length.
    pub fn with_prefix(&self) -> (&[u8], usize) {
        (&self.bytes[..self.end], self.end)
    }

    /// The buffer, for the next lookup.
    pub fn into_vec(self) -> Vec<u8> {
        self.bytes
    }
}

/// How many bytes `count` whole names take at the start of `bytes` (see [`Packed::check`]).
/// The NULs are counted in one pass over all the names (what a byte counted must be: each
/// name's last byte, and its tag where that is 0), not looked for name by name: a search
/// serving the Linux tree spent a sixth of its own time on that.
fn whole(bytes: &[u8], count: u32) -> Option<usize> {
    let mut at = 0usize;
    let mut nuls = 0usize;
    for _ in 0..count {
        let (Some(&tag), Some(&len)) = (bytes.get(at), bytes.get(at + 1)) else {
            return None;
        };
        let end = at + 2 + usize::from(len);
        if len == 0 || bytes.get(end) != Some(&0) {
            return None;
        }
        nuls += 1 + usize::from(tag == 0);
        at = end + 1;
    }
    (zeros(&bytes[..at]) == nuls).then_some(at)
}

/// How many bytes of `bytes` are 0, counted in runs of 255 into bytes (which the compiler
/// turns into vector instructions; counted one by one into a `usize`, the benchmarks'
/// million-entry directory took 5 ms more to serve than searching for each name's NUL).
fn zeros(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|run| {
            let in_run = run
                .iter()
                .fold(0u8, |n, &b| n.wrapping_add(u8::from(b == 0)));
            usize::from(in_run)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packed(names: &[(&[u8], u8)]) -> Vec<u8> {
        let mut out = Vec::new();
        for (name, tag) in names {
            let name = std::ffi::CString::new(*name).unwrap();
            assert!(push(&mut out, *tag, &name));
        }
        out
    }

    #[test]
    fn names_come_back_as_pushed_tags_of_0_included() {
        let names: [(&[u8], u8); 3] = [(b"a", 4), (b"b\xffc", 0), (&[b'n'; MAX_NAME], 8)];
        let bytes = packed(&names);
        let got: Vec<(Vec<u8>, u8)> = Packed::check(&bytes, 3)
            .unwrap()
            .iter()
            .map(|(n, t)| (n.to_bytes().to_vec(), t))
            .collect();
        let want: Vec<(Vec<u8>, u8)> = names.iter().map(|(n, t)| (n.to_vec(), *t)).collect();
        assert_eq!(got, want);
        let mut buf = vec![7, 7];
        buf.extend_from_slice(&bytes);
        buf.extend_from_slice(b"after");
        let owned = PackedBuf::check(buf, 2, 3).unwrap();
        assert_eq!(owned.packed().iter().count(), 3);
        assert_eq!(owned.packed().bytes, &bytes[..]);
    }

    #[test]
    fn a_longer_name_is_not_pushed() {
        let long = std::ffi::CString::new(vec![b'n'; MAX_NAME + 1]).unwrap();
        let mut out = Vec::new();
        assert!(!push(&mut out, 8, &long));
        assert!(out.is_empty());
    }

    /// Every NUL put into a name, every byte cut off the end, every length byte set to 0 or
    /// past the end, and a count of one more: refused, never handed out.
    #[test]
    fn names_that_are_not_whole_are_refused() {
        let good = packed(&[(b"first", 8), (b"second", 4)]);
        assert!(Packed::check(&good, 2).is_some());
        assert!(Packed::check(&good, 3).is_none());
        for cut in 0..good.len() {
            assert!(Packed::check(&good[..cut], 2).is_none(), "cut at {cut}");
        }
        // "first" takes bytes 0 to 7 (tag, length, 5 bytes, NUL); "second" starts at 8.
        for at in 0..good.len() {
            let mut bad = good.clone();
            if bad[at] == 0 {
                continue;
            }
            bad[at] = 0;
            let tag = at == 0 || at == 8;
            assert_eq!(Packed::check(&bad, 2).is_some(), tag, "a 0 at {at}");
            assert_eq!(PackedBuf::check(bad, 0, 2).is_ok(), tag, "a 0 at {at}");
        }
    }
}
