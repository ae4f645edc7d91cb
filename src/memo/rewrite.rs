//! A memo file written whole: which records it keeps ([`merged`]): those a search read, and
//! the old file's records of directories still there.

use std::collections::{HashMap, HashSet};

use super::format::Record;

/// The records of the new file: those read now, and the old file's (`old`: its live
/// records, the newest of each path) not read again whose directory is still there: a parent
/// read now still lists it, or, where its parent was not read (outside this search, excluded,
/// past `--max-depth`), `still_there` says the very directory is still at its path; and its
/// own parent is kept. So the memo follows the tree that exists, not the history of searches
/// of its subdirectories.
pub fn merged<'a>(
    old: Vec<Record<'a>>,
    fresh: &'a [Vec<u8>],
    still_there: impl Fn(&Record<'a>) -> bool,
) -> Vec<&'a [u8]> {
    let mut now: HashMap<&'a [u8], Record<'a>> = HashMap::with_capacity(fresh.len());
    for bytes in fresh {
        let r = Record::built(bytes);
        now.insert(r.rel(), r);
    }
    let mut out: Vec<&[u8]> = now.values().map(|r| r.bytes()).collect();
    // The old records not read again, parents before children.
    let mut before: Vec<(usize, Record<'a>)> = old
        .into_iter()
        .filter(|r| !now.contains_key(r.rel()))
        .map(|r| {
            (
                r.rel().iter().filter(|&&b| b == b'/').count() + usize::from(!r.rel().is_empty()),
                r,
            )
        })
        .collect();
    before.sort_unstable_by_key(|(depth, _)| *depth);
    let mut kept: HashSet<&[u8]> = now.keys().copied().collect();
    let mut listed: HashMap<&[u8], HashSet<&[u8]>> = HashMap::new();
    for (_, r) in before {
        let rel = r.rel();
        let keep = match rel.iter().rposition(|&b| b == b'/') {
            _ if rel.is_empty() => still_there(&r),
            split => {
                let (parent, name) = match split {
                    Some(i) => (&rel[..i], &rel[i + 1..]),
                    None => (&b""[..], rel),
                };
                kept.contains(parent)
                    && match now.get(parent) {
                        Some(p) => listed
                            .entry(parent)
                            .or_insert_with(|| {
                                p.entries()
                                    .into_iter()
                                    .flatten()
                                    .map(|(n, _)| n.to_bytes())
                                    .collect()
                            })
                            .contains(name),
                        None => still_there(&r),
                    }
            }
        };
        if keep {
            kept.insert(rel);
            out.push(r.bytes());
        }
    }
    // In path order: a subtree's records lie together in the file, so a search of a
    // subdirectory of a large tree touches the pages of its own records only (in the order of
    // a hash map, the records of `/usr` in the memo of `/` were spread over every page: 100 MB
    // of a 115 MB file mapped in for a search of /usr).
    out.sort_unstable_by(|a, b| Record::built(a).rel().cmp(Record::built(b).rel()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::Kind;
    use crate::memo::format::{self, Header, NewRecord};
    use crate::memo::tests::stamp;

    fn record(rel: &[u8], names: &[(&std::ffi::CStr, Kind)]) -> Vec<u8> {
        let mut r = NewRecord::new(
            rel,
            &stamp(1),
            crate::fs::ClockReading {
                real: (10, 0),
                boot: None,
            },
        );
        for (n, k) in names {
            r.push(n, *k);
        }
        r.finish(&[]).unwrap()
    }

    #[test]
    fn a_rewrite_keeps_what_was_not_read_and_still_is_there() {
        let old_records = [
            record(
                b"",
                &[
                    (c"a", Kind::Dir),
                    (c"gone", Kind::Dir),
                    (c"skipped", Kind::Dir),
                ],
            ),
            record(b"a", &[(c"b", Kind::Dir)]),
            record(b"a/b", &[]),
            record(b"gone", &[(c"under", Kind::Dir)]),
            record(b"gone/under", &[]),
            record(b"skipped", &[]),
            record(b"orphan/x", &[]),
        ];
        // This search read the root again ("gone" was removed) and "a".
        let fresh = [
            record(b"", &[(c"a", Kind::Dir), (c"skipped", Kind::Dir)]),
            record(b"a", &[(c"b", Kind::Dir), (c"new", Kind::File)]),
        ];
        let merged = rewritten(&old_records, &fresh, |_| true);
        let rels: Vec<&[u8]> = merged.iter().map(|r| Record::built(r).rel()).collect();
        assert_eq!(rels, [&b""[..], b"a", b"a/b", b"skipped"]);
        let a = Record::built(&merged[1]);
        assert_eq!(a.entries().unwrap().count(), 2, "the fresh record wins");
    }

    /// The records (in path order) of the file that `old_records` were rewritten into after a
    /// search that read `fresh`, `there` saying which directories not read are still there.
    fn rewritten(
        old_records: &[Vec<u8>],
        fresh: &[Vec<u8>],
        there: impl Fn(&Record<'_>) -> bool,
    ) -> Vec<Vec<u8>> {
        let refs: Vec<&[u8]> = old_records.iter().map(Vec::as_slice).collect();
        let mut file = Vec::new();
        format::write_file(&mut file, b"/r", 0, &refs).unwrap();
        let header = Header::parse(&file).unwrap();
        let indexes = format::newest_first(&file, header.index_at, header.base_end, &[]);
        merged(format::live_records(&file, indexes), fresh, there)
            .into_iter()
            .map(<[u8]>::to_vec)
            .collect()
    }

    #[test]
    fn a_rewrite_drops_what_is_gone_outside_the_search() {
        let old_records = [
            record(b"", &[(c"build1", Kind::Dir), (c"src", Kind::Dir)]),
            record(b"build1", &[(c"obj", Kind::Dir)]),
            record(b"build1/obj", &[]),
            record(b"src", &[]),
        ];
        // This search read only build2, a new directory; build1 was removed since.
        let fresh = [record(b"build2", &[])];
        let merged = rewritten(&old_records, &fresh, |r| r.rel() != b"build1");
        let rels: Vec<&[u8]> = merged.iter().map(|r| Record::built(r).rel()).collect();
        assert_eq!(
            rels,
            [&b""[..], b"build2", b"src"],
            "build1 and below dropped"
        );
    }
}
