//! The floors of the house (issue 15): each part of `src/` uses only its own floor and those
//! below, so that the file system is a ground floor everything stands on, the filters and the
//! output never reach up into the walk or the configuration, and the configuration never into
//! the walk. `python3 ../shared/tools/modcycles.py src` (run by `.ci/run`) finds circles
//! between files; this test finds an import that points up a floor.

use std::path::{Path, PathBuf};

/// From the top floor down: a part may use its own floor's parts and those of lower floors.
const FLOORS: &[&[&str]] = &[
    &["main"],
    &["completions", "manual"],
    &["bench"],
    &["walk"],
    &["config", "cli"],
    &["exec", "output"],
    &["filter", "template"],
    &["fs", "report", "exit"],
];

fn floor_of(part: &str) -> Option<usize> {
    FLOORS.iter().position(|f| f.contains(&part))
}

/// The part of `src/` a file belongs to: its first directory, or its own name.
fn part_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_str()
        .unwrap();
    first.trim_end_matches(".rs").to_owned()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without comments and without its test module (tests may reach anywhere).
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every part named as `crate::PART` in `code`.
fn parts_used(code: &str) -> Vec<String> {
    let mut used = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        used.push(name);
    }
    used
}

#[test]
fn every_import_points_down_a_floor_or_stays_on_its_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut upward = Vec::new();
    for file in &files {
        let part = part_of(&src, file);
        let Some(here) = floor_of(&part) else {
            upward.push(format!(
                "{}: '{part}' is on no floor of FLOORS",
                file.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for used in parts_used(&code(&text)) {
            match floor_of(&used) {
                Some(there) if there < here => upward.push(format!(
                    "{}: {part} (floor {here}) uses crate::{used} (floor {there}, above it)",
                    file.strip_prefix(&src).unwrap().display()
                )),
                Some(_) => {}
                None => upward.push(format!(
                    "{}: crate::{used} is on no floor of FLOORS",
                    file.strip_prefix(&src).unwrap().display()
                )),
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports up a floor:\n{}",
        upward.join("\n")
    );
}

#[test]
fn the_check_sees_an_import_that_points_up() {
    // The parser on a made-up file: a filter that reaches into the walk is caught.
    let text = "use crate::fs::Kind;\n// crate::walk in a comment does not count\nfn f() { crate::walk::run(); }\n#[cfg(test)]\nmod tests { use crate::bench; }\n";
    assert_eq!(parts_used(&code(text)), ["fs", "walk"]);
    assert!(floor_of("walk").unwrap() < floor_of("filter").unwrap());
}
