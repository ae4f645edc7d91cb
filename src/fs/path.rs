//! Paths as bytes, the way every floor builds them: a directory's path and an entry's name
//! joined with one `/` (none after an empty path or one that ends with `/`), and where the
//! names of a directory's entries start in their paths.

/// Where children's names start in their display paths: after "dir/" ("" for an empty root).
pub fn base_len(dir_path: &[u8]) -> usize {
    if dir_path.is_empty() || dir_path.ends_with(b"/") {
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
        buf.push(b'/');
    }
    buf.extend_from_slice(name);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
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
}
