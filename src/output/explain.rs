//! How `--explain` says what a command line does with a path: the verdict first (printed or
//! not), then one line per decision, each naming the entry it is about (the path itself, or
//! the directory above it that the search does not enter) and its source, as
//! `git check-ignore -v` names a rule (`.gitignore:12: target/`). With `--json`, one object
//! per path. What decided is the walk's business (`walk/explain.rs`); this is only the saying.

use std::io::{self, Write};

use serde::Serialize;

use crate::filter::Refusal;
use crate::fs::escape::escaped;

/// What the command line does with one path, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explained {
    /// The path as given to `--explain`.
    pub given: Vec<u8>,
    /// Whether the search prints it.
    pub printed: bool,
    /// The decisions, in the order the search takes them.
    pub steps: Vec<Step>,
}

/// One decision, about the entry shown as `path` (as the search would print it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub path: Vec<u8>,
    pub what: What,
}

/// A decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum What {
    /// Outside every search path.
    Outside,
    /// A search path itself: searched, never listed.
    SearchPath,
    /// The search path cannot be searched (said on stderr), or holds an `--ignore-contain`
    /// name.
    RootSkipped,
    /// It cannot be looked at (not there, no permission): the reason.
    Unseen(String),
    /// A symbolic link to one of its own ancestors, under `-L`.
    Loop,
    /// The system marks it hidden.
    MarkedHidden,
    /// A leading `.`, and no rule brings it back.
    DotName,
    /// An ignore rule: `negation` brings the entry back, else it hides it.
    Rule {
        file: Vec<u8>,
        line: u32,
        pattern: String,
        negation: bool,
    },
    /// An `-E` glob, as given.
    Excluded(String),
    /// A directory holding this `--ignore-contain` name.
    Contains(Vec<u8>),
    BelowMinDepth {
        depth: usize,
        min: usize,
    },
    PastMaxDepth {
        depth: usize,
        max: usize,
    },
    /// A filter turned it away; `full_path`: the pattern is matched against the whole path.
    Refused {
        filter: Refusal,
        full_path: bool,
    },
    /// It passes the pattern and every filter.
    Passed,
    /// Not entered: `--max-depth`.
    DepthLimit {
        max: usize,
    },
    /// Not entered: printed, and `--prune`.
    Pruned,
    /// Not entered: another file system (`--one-file-system`).
    OtherFileSystem,
    /// Not entered: a symbolic link, which the search follows only under `-L`.
    Link,
    /// Below this directory, which the search does not enter (the steps before say why).
    Below(Vec<u8>),
}

impl Refusal {
    /// The filter's name, as the JSON gives it.
    fn name(self) -> &'static str {
        match self {
            Refusal::Pattern => "pattern",
            Refusal::Extension => "extension",
            Refusal::Type => "type",
            Refusal::NoMetadata => "metadata",
            Refusal::Owner => "owner",
            Refusal::Size => "size",
            Refusal::Time => "time",
        }
    }

    /// What a line says of it.
    fn said(self, full_path: bool) -> &'static str {
        match self {
            Refusal::Pattern if full_path => "the pattern does not match its path (--full-path)",
            Refusal::Pattern => "the pattern does not match its name",
            Refusal::Extension => "not one of the extensions -e asks for",
            Refusal::Type => "not of the types -t asks for",
            Refusal::NoMetadata => "its metadata, which -S, --changed-* or -o need, cannot be read",
            Refusal::Owner => "not of the owner -o asks for",
            Refusal::Size => "not of the size -S asks for (only files have one)",
            Refusal::Time => "not changed within the time --changed-* asks for",
        }
    }
}

impl What {
    /// The line's text after "PATH: ", paths shown through `show`.
    fn text(&self, show: &dyn Fn(&[u8]) -> String) -> String {
        match self {
            What::Outside => "outside every search path".into(),
            What::SearchPath => "a search path: searched, never printed itself".into(),
            What::RootSkipped => "its search path is not searched (it cannot be, or it holds an \
                 --ignore-contain name)"
                .into(),
            What::Unseen(why) => format!("cannot be looked at: {why}"),
            What::Loop => "a link to one of its own ancestors (-L): not listed".into(),
            What::MarkedHidden => "hidden: the system marks it so (-H shows it)".into(),
            What::DotName => "hidden: its name starts with '.' (-H shows it)".into(),
            What::Rule {
                file,
                line,
                pattern,
                negation,
            } => {
                let rule = format!("{}:{line}: {}", show(file), show(pattern.as_bytes()));
                if *negation {
                    format!("not ignored: {rule} (a negation brings it back)")
                } else {
                    format!("ignored: {rule} (-I shows it)")
                }
            }
            What::Excluded(glob) => format!("excluded by -E {}", show(glob.as_bytes())),
            What::Contains(name) => {
                format!("skipped: it holds {} (--ignore-contain)", show(name))
            }
            What::BelowMinDepth { depth, min } => {
                format!("at depth {depth}, above --min-depth {min}")
            }
            What::PastMaxDepth { depth, max } => {
                format!("at depth {depth}, past --max-depth {max}")
            }
            What::Refused { filter, full_path } => filter.said(*full_path).into(),
            What::Passed => "matches the pattern and every filter".into(),
            What::DepthLimit { max } => format!("not entered: --max-depth {max}"),
            What::Pruned => "not entered: printed, and --prune".into(),
            What::OtherFileSystem => "not entered: another file system (--one-file-system)".into(),
            What::Link => "not entered: a symbolic link (-L follows links)".into(),
            What::Below(dir) => format!("below {}, which the search does not enter", show(dir)),
        }
    }
}

/// Writes the lines of `e`: "PATH: printed" or "PATH: not printed", then "  ENTRY: WHY" for
/// each decision. `escape`: paths and rules shown as on a terminal.
pub fn write_text(out: &mut dyn Write, e: &Explained, escape: bool) -> io::Result<()> {
    let show = |bytes: &[u8]| {
        if escape {
            escaped(bytes)
        } else {
            String::from_utf8_lossy(bytes).into_owned()
        }
    };
    let verdict = if e.printed { "printed" } else { "not printed" };
    let mut text = format!("{}: {verdict}\n", show(&e.given));
    for step in &e.steps {
        let path = if step.path.is_empty() {
            ".".to_owned()
        } else {
            show(&step.path)
        };
        text.push_str(&format!("  {path}: {}\n", step.what.text(&show)));
    }
    out.write_all(text.as_bytes())
}

/// A path in JSON: a string, or its bytes when it is not UTF-8 (as `--json` does).
#[derive(Serialize)]
struct JsonPath<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    path_bytes: Option<&'a [u8]>,
}

impl<'a> JsonPath<'a> {
    fn of(bytes: &'a [u8]) -> JsonPath<'a> {
        let text = std::str::from_utf8(bytes).ok();
        JsonPath {
            path: text,
            path_bytes: text.is_none().then_some(bytes),
        }
    }
}

#[derive(Serialize)]
struct JsonExplained<'a> {
    #[serde(flatten)]
    path: JsonPath<'a>,
    printed: bool,
    steps: Vec<JsonStep<'a>>,
}

#[derive(Serialize, Default)]
struct JsonStep<'a> {
    #[serde(flatten)]
    path: Option<JsonPath<'a>>,
    decision: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    file_bytes: Option<&'a [u8]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pattern: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    negation: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    glob: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    filter: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    directory: Option<String>,
}

impl What {
    /// The decision's name in JSON.
    fn keyword(&self) -> &'static str {
        match self {
            What::Outside => "outside",
            What::SearchPath => "search-path",
            What::RootSkipped => "search-path-skipped",
            What::Unseen(_) => "unseen",
            What::Loop => "loop",
            What::MarkedHidden => "marked-hidden",
            What::DotName => "hidden",
            What::Rule { negation: true, .. } => "not-ignored",
            What::Rule { .. } => "ignored",
            What::Excluded(_) => "excluded",
            What::Contains(_) => "ignore-contain",
            What::BelowMinDepth { .. } => "min-depth",
            What::PastMaxDepth { .. } => "max-depth",
            What::Refused { .. } => "refused",
            What::Passed => "matched",
            What::DepthLimit { .. } => "not-entered-max-depth",
            What::Pruned => "not-entered-prune",
            What::OtherFileSystem => "not-entered-other-file-system",
            What::Link => "not-entered-link",
            What::Below(_) => "below",
        }
    }
}

impl<'a> JsonStep<'a> {
    fn of(step: &'a Step) -> JsonStep<'a> {
        let mut s = JsonStep {
            path: Some(JsonPath::of(&step.path)),
            decision: step.what.keyword(),
            ..JsonStep::default()
        };
        let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        match &step.what {
            What::Unseen(why) => s.message = Some(why),
            What::Rule {
                file,
                line,
                pattern,
                negation,
            } => {
                let text = std::str::from_utf8(file).ok();
                s.file = text;
                s.file_bytes = text.is_none().then_some(&file[..]);
                s.line = Some(*line);
                s.pattern = Some(pattern);
                s.negation = Some(*negation);
            }
            What::Excluded(glob) => s.glob = Some(glob),
            What::Contains(name) => s.name = Some(lossy(name)),
            What::BelowMinDepth { depth, min: limit }
            | What::PastMaxDepth { depth, max: limit } => {
                s.depth = Some(*depth);
                s.limit = Some(*limit);
            }
            What::Refused { filter, .. } => s.filter = Some(filter.name()),
            What::DepthLimit { max } => s.limit = Some(*max),
            What::Below(dir) => s.directory = Some(lossy(dir)),
            _ => {}
        }
        s
    }
}

/// Writes `e` as one JSON object and a line end: `{"path": ..., "printed": ..., "steps":
/// [{"path": ..., "decision": ..., ...}]}`, strings escaped as `--json` escapes them.
pub fn write_json(out: &mut dyn Write, e: &Explained) -> io::Result<()> {
    let record = JsonExplained {
        path: JsonPath::of(&e.given),
        printed: e.printed,
        steps: e.steps.iter().map(JsonStep::of).collect(),
    };
    let mut bytes = Vec::new();
    crate::output::json::write_inert(&mut bytes, &record);
    bytes.push(b'\n');
    out.write_all(&bytes)
}
