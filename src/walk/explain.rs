//! `--explain PATH...`: what this very command line does with each path, and why. The path
//! is followed down from the search path that holds it, one component at a time, through
//! the steps the walk takes for every entry (the ones the walker-crate methods take,
//! `by_path.rs`): the search path set up and its ignore files read as the walk reads them
//! ([`Walk::root_entered_by_path`]), a link followed under `-L`, the shared judge, the loop
//! check, each directory entered with its ignore files ([`Walk::enter_by_path`]). The judge
//! is the walk's own ([`Walk::judge_traced`]), which says each step it takes to a [`Trace`]:
//! so `--explain` cannot disagree with the search. Said by `output/explain.rs`.

use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};

use crate::config::{Config, Root};
use crate::filter::Meta;
use crate::fs::path::base_len;
use crate::fs::{os_path, stat_path};
use crate::output::explain::{Explained, Step, What};
use crate::walk::contract::Walk;
use crate::walk::visit::{display_path, Action, MetaPath};
use crate::walk::why::{Trace, Why};

/// What the judge said of one entry, kept.
struct Kept<'c> {
    config: &'c Config,
    /// The entry's path below its search path ('/'-separated as `-E` globs see it).
    below_root: &'c Path,
    is_dir: bool,
    steps: Vec<What>,
}

impl Trace for Kept<'_> {
    fn note(&mut self, why: Why<'_>) {
        let what = match why {
            Why::MarkedHidden => What::MarkedHidden,
            Why::Rule(rule) => What::Rule {
                file: rule.file.to_vec(),
                line: rule.line,
                pattern: rule.pattern.to_owned(),
                negation: rule.negation,
            },
            Why::DotName => What::DotName,
            Why::Excluded => What::Excluded(self.exclude_glob()),
            Why::Contains(name) => What::Contains(name.to_vec()),
            Why::BelowMinDepth { depth, min } => What::BelowMinDepth { depth, min },
            Why::PastMaxDepth { depth, max } => What::PastMaxDepth { depth, max },
            Why::Refused(filter) => What::Refused {
                filter,
                full_path: self.config.filters.full_path_base.is_some(),
            },
            Why::Passed => What::Passed,
            Why::DepthLimit { max } => What::DepthLimit { max },
            Why::Pruned => What::Pruned,
            Why::OtherFileSystem => What::OtherFileSystem,
        };
        self.steps.push(what);
    }
}

impl Kept<'_> {
    /// The first `-E` glob that excludes the entry (the walk asks all of them at once).
    fn exclude_glob(&self) -> String {
        self.config
            .exclude_globs
            .iter()
            .find(|glob| {
                crate::config::exclude_override(std::slice::from_ref(glob))
                    .is_ok_and(|one| one.matched(self.below_root, self.is_dir).is_ignore())
            })
            .cloned()
            .unwrap_or_default()
    }
}

/// What the command line of `walk` does with `given` (a path as typed, relative to the
/// working directory `cwd`): under the first search path that holds it.
pub fn explain(walk: &Walk<'_>, cwd: &Path, given: &Path) -> Explained {
    let absolute = crate::config::absolute(cwd, given);
    let given_bytes = given.as_os_str().as_encoded_bytes().to_vec();
    for root in &walk.config.roots {
        if let Ok(rel) = absolute.strip_prefix(&root.absolute) {
            if rel.components().all(|c| matches!(c, Component::Normal(_))) {
                let (printed, steps) = below_root(walk, root, rel);
                return Explained {
                    given: given_bytes,
                    printed,
                    steps,
                };
            }
        }
    }
    Explained {
        printed: false,
        steps: vec![Step {
            path: given_bytes.clone(),
            what: What::Outside,
        }],
        given: given_bytes,
    }
}

/// Follows `rel` down from `root`: whether the search prints it, and the decisions.
fn below_root(walk: &Walk<'_>, root: &Root, rel: &Path) -> (bool, Vec<Step>) {
    let config = walk.config;
    let names: Vec<&OsStr> = rel.iter().collect();
    let mut shown = Vec::new();
    let mut steps = Vec::new();
    let step = |path: &[u8], what| Step {
        path: path.to_vec(),
        what,
    };
    let Some(last) = names.len().checked_sub(1) else {
        return (false, vec![step(&root.display, What::SearchPath)]);
    };
    let Some(mut state) = walk.root_entered_by_path(root) else {
        return (false, vec![step(&root.display, What::RootSkipped)]);
    };
    let mut path = os_path(root.open_path()).into_owned();
    for (i, name) in names.into_iter().enumerate() {
        path.push(name);
        display_path(&mut shown, root, &path);
        let name = name.as_encoded_bytes();
        let mut kind = match stat_path(path.as_os_str().as_encoded_bytes(), false) {
            Ok(st) => st.kind(),
            Err(e) => {
                steps.push(step(&shown, What::Unseen(crate::report::describe(&e))));
                return (false, steps);
            }
        };
        let mut meta = MetaPath {
            path: &path,
            follow: config.follow,
            stat: None,
            hidden: None,
        };
        if walk
            .follow_by_path(&state, &shown, name, &mut kind, &mut meta)
            .is_none()
        {
            steps.push(step(
                &shown,
                What::Unseen("its link cannot be followed".into()),
            ));
            return (false, steps);
        }
        let below = &shown[base_len(&root.display).min(shown.len())..];
        let below = os_path(below);
        let mut kept = Kept {
            config,
            below_root: &below,
            is_dir: kind == crate::fs::Kind::Dir,
            steps: Vec::new(),
        };
        let action = walk.judge_traced(&state, &shown, name, kind, &mut meta, &mut kept);
        let looped = action != Action::Skip && walk.closes_loop(&state, &shown, kind, &mut meta);
        steps.extend(kept.steps.into_iter().map(|what| step(&shown, what)));
        if looped {
            steps.push(step(&shown, What::Loop));
        }
        let (print, descend) = match action {
            Action::Visit { print, descend } if !looped => (print, descend),
            _ => (false, false),
        };
        if i == last {
            return (print, steps);
        }
        if !descend {
            // Of a directory the search does not enter, only why: not whether the pattern
            // matches it (unless --prune, where that is why).
            let pruned = steps.iter().any(|s| s.what == What::Pruned);
            steps.retain(|s| match s.what {
                What::Refused { .. } | What::BelowMinDepth { .. } | What::PastMaxDepth { .. } => {
                    false
                }
                What::Passed => pruned,
                _ => true,
            });
            if action != Action::Skip && !looped && kind == crate::fs::Kind::Symlink {
                steps.push(step(&shown, What::Link));
            }
            let dir = shown.clone();
            let mut target = Vec::new();
            display_path(&mut target, root, &root_join(root, rel));
            steps.push(step(&target, What::Below(dir)));
            return (false, steps);
        }
        // Only what kept the search out of a directory is said of it.
        steps.clear();
        let stat = if config.follow { meta.stat() } else { None };
        state = walk.enter_by_path(state.below(), root, &path, stat.as_ref());
    }
    unreachable!("the last name returns")
}

/// The path of `rel` below `root`, as the walk opens it.
fn root_join(root: &Root, rel: &Path) -> PathBuf {
    Path::new(&*os_path(root.open_path())).join(rel)
}

/// Says, on `out`, what the command line of `config` does with each of `--explain`'s paths:
/// lines, or with `--json` one object a path; paths escaped as the listing escapes them
/// (stdout a terminal). Nothing is searched but the way to each path.
pub fn run(
    config: &Config,
    report: &crate::report::Reporter,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    use crate::output::explain::{write_json, write_text};
    use crate::output::printer::Printer;
    use crate::output::style::Record;
    let printer = Printer::new(Box::new(std::io::sink()), b'\n', false, None, false);
    let walk = crate::walk::prepare::prepare(config, &printer, report);
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let style = config.style.as_ref();
    let json = style.is_some_and(|s| matches!(s.record, Record::Json(_)));
    let escape = style.is_some_and(|s| s.escape);
    for given in &config.explain {
        let explained = explain(&walk, &cwd, given);
        if json {
            write_json(out, &explained)?;
        } else {
            write_text(out, &explained, escape)?;
        }
    }
    out.flush()
}
