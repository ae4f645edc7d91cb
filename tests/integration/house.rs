//! The house kept small: no source file of the project grows past [`MOST_LINES`] lines
//! (CONTRIBUTING.md), so that a file can still be read whole. A file that has grown past it is
//! split, or named in [`GROWN`] with its length at most, to shrink from there. And `unsafe`
//! stays on the ground floor, the crate `crates/ffind-sys` (which the crates above it forbid:
//! `#![forbid(unsafe_code)]`), but for the files named in [`UNSAFE_ABOVE`], a list that only
//! shrinks.

use std::fs;
use std::path::{Path, PathBuf};

/// The most lines a source file has.
const MOST_LINES: usize = 900;

/// Files allowed past [`MOST_LINES`] for now, with the most lines each may have: a list that
/// only shrinks (none today).
const GROWN: &[(&str, usize)] = &[];

/// Where `unsafe` may be written: the ground floor, where what differs between systems lives.
const GROUND_FLOOR: &[&str] = &["crates/ffind-sys/src/"];

/// Files above the ground floor that still hold `unsafe`, and why: a list that only shrinks
/// (none today).
const UNSAFE_ABOVE: &[(&str, &str)] = &[];

/// The project's source files (Rust, Python, C and shell), with paths relative to its root.
fn sources(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut todo: Vec<PathBuf> = ["src", "crates", "tests", "benches", ".ci"]
        .iter()
        .map(|d| root.join(d))
        .collect();
    while let Some(dir) = todo.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                // Results a benchmark wrote are data, not source.
                if entry.file_name() != "results" && entry.file_name() != "__pycache__" {
                    todo.push(path);
                }
            } else if path
                .extension()
                .is_some_and(|e| ["rs", "py", "c", "h", "sh"].iter().any(|x| e == *x))
            {
                found.push(path.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    found.sort();
    found
}

#[test]
fn no_source_file_grows_past_the_limit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = sources(root);
    assert!(
        files.iter().any(|f| f.ends_with("src/main.rs")),
        "no sources found under {}",
        root.display()
    );
    let mut over = Vec::new();
    for file in &files {
        let lines = fs::read_to_string(root.join(file))
            .map(|t| t.lines().count())
            .unwrap_or(0);
        let name = file.to_string_lossy().replace('\\', "/");
        let most = GROWN
            .iter()
            .find(|(grown, _)| *grown == name)
            .map_or(MOST_LINES, |&(_, most)| most);
        if lines > most {
            over.push(format!("{name}: {lines} lines (at most {most})"));
        }
    }
    assert!(over.is_empty(), "split these, or shrink them: {over:#?}");
    // A named file that has shrunk below the limit leaves the list.
    for (grown, _) in GROWN {
        let lines = fs::read_to_string(root.join(grown))
            .map(|t| t.lines().count())
            .unwrap_or(0);
        assert!(
            lines > MOST_LINES,
            "{grown} is short enough now: take it off GROWN"
        );
    }
}

/// Whether a line of Rust has the keyword `unsafe` in its code (before any `//` comment; a
/// lint's name such as `unsafe_code` is another word).
fn has_unsafe(line: &str) -> bool {
    let code = line.split("//").next().unwrap_or("");
    code.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|word| word == "unsafe")
}

#[test]
fn unsafe_is_written_on_the_ground_floor_only() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut above = Vec::new();
    let mut ground = 0;
    for file in sources(root) {
        let name = file.to_string_lossy().replace('\\', "/");
        if !(name.starts_with("src/") || name.starts_with("crates/")) || !name.ends_with(".rs") {
            continue;
        }
        let text = fs::read_to_string(root.join(&file)).unwrap();
        let lines = text.lines().filter(|l| has_unsafe(l)).count();
        if lines == 0 {
            continue;
        }
        if GROUND_FLOOR.iter().any(|g| name.starts_with(g)) {
            ground += lines;
        } else if !UNSAFE_ABOVE.iter().any(|(f, _)| *f == name) {
            above.push(format!("{name}: {lines} lines"));
        }
    }
    assert!(
        ground > 0,
        "no unsafe found on the ground floor: is this the project?"
    );
    assert!(
        above.is_empty(),
        "unsafe above the ground floor (move it into crates/ffind-sys behind a safe interface): \
         {above:#?}"
    );
    for (file, _) in UNSAFE_ABOVE {
        let text = fs::read_to_string(root.join(file)).unwrap_or_default();
        assert!(
            text.lines().any(has_unsafe),
            "{file} holds no unsafe now: take it off UNSAFE_ABOVE"
        );
    }
}
