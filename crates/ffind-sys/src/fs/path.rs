//! Paths as bytes, the way every floor builds them: a directory's path and an entry's name
//! joined with one separator (`/`; `\` on Windows, as fd and std join there; none after an
//! empty path or one that ends with a separator), where the names of a directory's entries
//! start in their paths, and a resolved path as a user writes it.

use super::host::{is_separator, SEPARATOR};

/// Where children's names start in their display paths: after "dir/" ("" for an empty root;
/// right after a Windows drive's "C:", the drive's current directory, which takes no
/// separator: "C:src").
pub fn base_len(dir_path: &[u8]) -> usize {
    let drive_relative = SEPARATOR == b'\\' && dir_path.len() == 2 && dir_path[1] == b':';
    if drive_relative || dir_path.last().is_none_or(|&b| is_separator(b)) {
        dir_path.len()
    } else {
        dir_path.len() + 1
    }
}

/// Appends "/name" (or "name" after an empty or "/"-ended path) to a directory's path.
pub fn join_into(buf: &mut Vec<u8>, dir_path: &[u8], name: &[u8]) {
    buf.clear();
    buf.extend_from_slice(dir_path);
    if base_len(dir_path) != dir_path.len() {
        buf.push(SEPARATOR);
    }
    buf.extend_from_slice(name);
}

/// A resolved path (`std::fs::canonicalize`'s) as fd shows it and git reads it: on Windows
/// without the `\\?\` that starts every canonical path there (`\\?\C:\x` is `C:\x`,
/// `\\?\UNC\host\share` is `\\host\share`); any other path as it is.
pub fn without_verbatim(path: Vec<u8>) -> Vec<u8> {
    match path.strip_prefix(br"\\?\") {
        Some(unc) if unc.starts_with(br"UNC\") => [&br"\\"[..], &unc[4..]].concat(),
        Some(rest) if rest.get(1) == Some(&b':') => rest.to_vec(),
        _ => path,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(unix)]
    fn one_slash_between_a_directory_and_a_name() {
        let mut buf = b"stale".to_vec();
        for (dir, name, want, base) in [
            (&b""[..], &b"a"[..], &b"a"[..], 0),
            (b"d", b"a", b"d/a", 2),
            (b"/", b"a", b"/a", 1),
            (b"d/", b"a", b"d/a", 2),
            (b"./d", b"", b"./d/", 4),
        ] {
            join_into(&mut buf, dir, name);
            assert_eq!(buf, want, "{dir:?} + {name:?}");
            assert_eq!(base_len(dir), base, "{dir:?}");
        }
    }

    #[test]
    fn canonical_paths_lose_the_verbatim_prefix() {
        let plain = |p: &[u8]| without_verbatim(p.to_vec());
        assert_eq!(plain(br"\\?\C:\Users\u"), br"C:\Users\u");
        assert_eq!(plain(br"\\?\UNC\host\share\x"), br"\\host\share\x");
        // A device or volume path has no shorter form; a Unix path is never verbatim.
        assert_eq!(plain(br"\\?\Volume{1}\x"), br"\\?\Volume{1}\x");
        assert_eq!(plain(b"/home/u"), b"/home/u");
    }

    #[test]
    #[cfg(windows)]
    fn one_backslash_between_a_directory_and_a_name() {
        let mut buf = Vec::new();
        for (dir, name, want) in [
            (&b""[..], &b"a"[..], &b"a"[..]),
            (b"d", b"a", b"d\\a"),
            (b"C:\\", b"a", b"C:\\a"),
            (b"d/", b"a", b"d/a"),
            (b"C:", b"a", b"C:a"),
        ] {
            join_into(&mut buf, dir, name);
            assert_eq!(buf, want, "{dir:?} + {name:?}");
        }
    }
}
