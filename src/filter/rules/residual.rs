//! The rules no fast class handles (`{a,b}`, negated or non-ASCII classes, `**` inside a
//! component, ...), left to `globset` exactly as the `ignore` crate builds them, in sets of
//! bounded size and number (a planted file cannot make them take gigabytes).

use globset::{Candidate, Glob, GlobSet};

/// Rules left to globset, in sets of at most [`ResidualBuilder::SET_RULES`], lowest rules
/// first.
///
/// One set of all of them took about 6 KiB per rule to build, and past some 20,000 rules it
/// did not build at all (globset's regex size limit), which dropped every one of them. A set
/// of 256 builds; it keeps about 1.6 KiB per rule, and its regex's caches a few KiB more for
/// each thread that matches with it.
#[derive(Debug)]
pub(super) struct Residual {
    pub(super) sets: Vec<ResidualSet>,
}

/// One set of [`Residual`], with the indices and directory-only flags of its rules.
#[derive(Debug)]
pub(super) struct ResidualSet {
    pub(super) set: GlobSet,
    pub(super) rules: Vec<(i32, bool)>,
}

/// [`Residual`] as [`Rules::parse`](super::Rules::parse) fills it.
#[derive(Default)]
pub(super) struct ResidualBuilder {
    pub(super) sets: Vec<ResidualSet>,
    /// The set being filled, its rules and the length of their globs.
    pub(super) pending: Vec<Glob>,
    pub(super) rules: Vec<(i32, bool)>,
    pub(super) bytes: usize,
    /// Rules taken so far.
    pub(super) taken: usize,
}

impl ResidualBuilder {
    /// Rules per set.
    pub(super) const SET_RULES: usize = 256;
    /// Bytes of globs per set: well under what globset's regex size limit lets through.
    pub(super) const SET_BYTES: usize = 64 << 10;
    /// Rules per ignore file (some 30 MiB with the caches of a few threads). Real files have
    /// a few such rules, if any (none in the Linux tree); the rest of a file with more is
    /// skipped, so that a planted one (millions fit in 16 MiB) cannot make ffind take
    /// gigabytes.
    pub(super) const MAX_RULES: usize = 1 << 12;

    pub(super) fn full(&self) -> bool {
        self.taken >= Self::MAX_RULES
    }

    pub(super) fn add(&mut self, glob: Glob, len: usize, index: i32, dir_only: bool) {
        if self.rules.len() >= Self::SET_RULES || self.bytes + len > Self::SET_BYTES {
            self.build();
        }
        self.pending.push(glob);
        self.rules.push((index, dir_only));
        self.bytes += len;
        self.taken += 1;
    }

    /// Builds the pending set. One that does not build drops its rules, as a `Gitignore` that
    /// does not build drops the file's.
    pub(super) fn build(&mut self) {
        let rules = std::mem::take(&mut self.rules);
        let pending = std::mem::take(&mut self.pending);
        self.bytes = 0;
        if rules.is_empty() {
            return;
        }
        if let Ok(set) = GlobSet::new(&pending) {
            self.sets.push(ResidualSet { set, rules });
        }
    }

    pub(super) fn finish(mut self) -> Option<Residual> {
        self.build();
        (!self.sets.is_empty()).then_some(Residual { sets: self.sets })
    }
}

impl Residual {
    pub(super) fn matched(&self, rel: &[u8], is_dir: bool) -> i32 {
        let path = crate::fs::os_path(rel);
        let candidate = Candidate::new(&path);
        let mut hits = Vec::new();
        for s in self.sets.iter().rev() {
            s.set.matches_candidate_into(&candidate, &mut hits);
            let best = hits
                .iter()
                .rev()
                .map(|&i| s.rules[i])
                .find(|&(_, dir_only)| is_dir || !dir_only);
            if let Some((index, _)) = best {
                return index;
            }
        }
        -1
    }
}
