//! Every example of the README, docs/WINDOWS.md and docs/INSTALL.md runs, so that a false one
//! fails: each `ffind` command line of their code blocks (a line that starts with `ffind`) and
//! of their inline code (`` `ffind ...` ``) is read as the shell of the example would split it,
//! and run against a fixture tree that holds what the examples name (`src/main.rs`, a
//! `Makefile`, `benches/`, `node_modules/`, `.log` and `.jpg` files, `~/src` in the test's
//! home, `/usr` as a directory of the tree). It must end as the docs say: exit 0, or where the
//! docs state what it prints or says, that. On Windows (under Wine in CI) the same examples run
//! with ffind.exe, and WINDOWS.md's statements of what ffind.exe prints are checked too.
//!
//! Only ffind's part of a pipeline runs (`ffind . | wc -l` runs `ffind .`). A command of `-x` or
//! `-X` that is not installed here (`wc` on Windows), or not the system's own (ImageMagick's
//! `convert`), is not run: the example then runs without its `-x`/`-X` and must still find what
//! the command would be given.

use std::path::PathBuf;

use crate::fixture::{self, Tree};

/// The documents whose examples run, and whether they are Windows' alone (WINDOWS.md's run
/// on Windows only: `-a -e rs . SRC` needs a file system that ignores case).
const DOCS: [(&str, bool); 3] = [
    ("README.md", false),
    ("docs/WINDOWS.md", true),
    ("docs/INSTALL.md", false),
];

/// Lines of the docs' code blocks that start with `ffind` but are not commands: the synopsis.
const NOT_COMMANDS: [&str; 1] = ["ffind [OPTIONS] [PATTERN] [PATH...]"];

/// Programs of `-x`/`-X` examples that are not the system's own (ImageMagick's): what a
/// machine has under that name is not known, so their examples run without their `-x`/`-X`.
const THIRD_PARTY: [&str; 2] = ["convert", "magick"];

/// Placeholders of the docs' prose, and what stands for them here.
const PLACEHOLDERS: [(&str, &str); 1] = [("SHELL", "bash")];

/// What the docs state an example prints (on stdout: lines it holds, written with `/`, which
/// is `\` on Windows) or says (on stderr: text it holds), on every system.
const STATED: &[(&str, Stated)] = &[
    // README: "`ffind -e '*.rs'` suggests `-e rs`".
    ("ffind -e '*.rs'", Stated::Says("-e rs")),
    // README: "streamed nearest first: the shallowest Makefile".
    (
        "ffind --order breadth -1 Makefile",
        Stated::Prints(&["Makefile"]),
    ),
    // README: "file names without extension: main, lib, ...".
    (
        "ffind -e rs --format '{/.}'",
        Stated::Prints(&["main", "lib"]),
    ),
    // README: "`ffind bench` searches for "bench"".
    ("ffind bench", Stated::Prints(&["benches/"])),
];

/// What the docs state ffind.exe prints (stdout lines it holds, as written; `C:\...` an
/// absolute path) or says, checked on Windows: the README's hint, and WINDOWS.md's paths.
#[cfg(windows)]
const STATED_HERE: &[(&str, Stated)] = &[
    // README: "`ffind -g main` suggests ... (Windows: `-g "*main*"`...".
    ("ffind -g main", Stated::Says(r#"-g "*main*""#)),
    ("ffind -e rs . src/", Stated::Prints(&["src/main.rs"])),
    ("ffind -e rs . src", Stated::Prints(&[r"src\main.rs"])),
    // "the first word is the pattern, so `ffind -e rs src/` would search for `src/`".
    ("ffind -e rs src/", Stated::Prints(&[])),
    (
        "ffind -a -e rs . SRC",
        Stated::Prints(&[r"C:\...\src\main.rs"]),
    ),
];
/// The same on Unix: the README's "`ffind -g main` suggests `-g '*main*'`".
#[cfg(not(windows))]
const STATED_HERE: &[(&str, Stated)] = &[("ffind -g main", Stated::Says("-g '*main*'"))];

#[derive(Clone, Copy, Debug)]
enum Stated {
    /// Lines stdout holds (none: it prints nothing).
    Prints(&'static [&'static str]),
    /// Text stderr holds.
    Says(&'static str),
}

/// One example: where it is, as written, and its words as its shell splits them.
#[derive(Debug)]
struct Example {
    place: String,
    line: String,
    words: Vec<String>,
}

fn repo_file(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The words of a command line as sh (and PowerShell, for these lines) splits them: quotes
/// removed, up to a pipe, a redirection or a comment.
fn split(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                let w = word.get_or_insert_with(String::new);
                for q in chars.by_ref() {
                    if q == c {
                        break;
                    }
                    w.push(q);
                }
            }
            c if c.is_whitespace() => words.extend(word.take()),
            '|' | '>' => break,
            '#' if word.is_none() => break,
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// Every `ffind` command line of the docs: the lines of code blocks that start with `ffind`,
/// and the inline code of their paragraphs (which may run over a line's end).
fn examples() -> Vec<Example> {
    let mut found = Vec::new();
    let mut add = |place: String, line: String| {
        if !NOT_COMMANDS.contains(&line.as_str()) {
            let words = split(&line);
            found.push(Example { place, line, words });
        }
    };
    for (doc, windows_only) in DOCS {
        if windows_only && !cfg!(windows) {
            continue;
        }
        let text = std::fs::read_to_string(repo_file(doc)).unwrap();
        let mut in_block = false;
        // The paragraph read so far, and the line it starts on.
        let mut paragraph: Option<(usize, String)> = None;
        for (n, line) in text.lines().chain([""]).enumerate() {
            let fence = line.trim_start().starts_with("```");
            if in_block || fence || line.trim().is_empty() {
                if let Some((first, text)) = paragraph.take() {
                    // Inline code; `\|` is a table's escaped pipe.
                    for (i, span) in text.split('`').enumerate() {
                        if i % 2 == 1 && (span.starts_with("ffind ") || span == "ffind") {
                            add(format!("{doc}:{first}"), span.replace(r"\|", "|"));
                        }
                    }
                }
            } else {
                let (_, text) = paragraph.get_or_insert((n + 1, String::new()));
                if !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(line.trim());
                continue;
            }
            if fence {
                in_block = !in_block;
            } else if in_block && (line.trim().starts_with("ffind ") || line.trim() == "ffind") {
                add(format!("{doc}:{}", n + 1), line.trim().to_owned());
            }
        }
    }
    found
}

/// The fixture: what the examples name.
fn tree() -> Tree {
    let t = Tree::new();
    t.files(&[
        "src/main.rs",
        "src/lib.rs",
        "Makefile",
        "benches/bench.py",
        "tests/test_a.py",
        "node_modules/dep/index.js",
        "app.js",
        "app.min.js",
        "notes.md",
        "a.log",
        "old.tmp",
        "usr/bin/tool",
        "usr/.hidden",
    ]);
    t.write("big.bin", &"x".repeat(2048));
    // An image that ImageMagick's convert reads (it goes by the content, a one-pixel PPM).
    t.write("photo.jpg", "P3\n1 1\n255\n0 0 0\n");
    std::fs::create_dir_all(t.home().join("src/deep")).unwrap();
    std::fs::write(t.home().join("src/deep/Makefile"), "").unwrap();
    t
}

/// Whether `program` is installed: on PATH (with one of Windows' extensions there).
fn installed(program: &str) -> bool {
    let exts: &[&str] = if cfg!(windows) {
        &[".exe", ".com", ".cmd", ".bat"]
    } else {
        &[""]
    };
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|dir| {
        exts.iter()
            .any(|ext| dir.join(format!("{program}{ext}")).is_file())
    })
}

/// The words ffind is given for `example` here: `~` is the test's home, `/usr` the tree's `usr`,
/// a placeholder its stand-in; a `-x`/`-X` whose command is not installed is left out (with the
/// words after it); a benchmark makes one run of each pair.
fn words_here(t: &Tree, example: &Example) -> (Vec<String>, Option<String>) {
    let home = t.home().to_str().unwrap().to_owned();
    let mut words: Vec<String> = example.words[1..]
        .iter()
        .map(|w| match w.strip_prefix("~/") {
            Some(rest) => format!("{home}/{rest}"),
            None if w == "/usr" => "usr".to_owned(),
            None => PLACEHOLDERS
                .iter()
                .find(|(p, _)| p == w)
                .map_or(w.clone(), |(_, here)| here.to_string()),
        })
        .collect();
    let mut missing = None;
    if let Some(at) = words.iter().position(|w| w == "-x" || w == "-X") {
        let program = words[at + 1].clone();
        if THIRD_PARTY.contains(&program.as_str()) || !installed(&program) {
            words.truncate(at);
            missing = Some(program);
        }
    }
    if words.first().is_some_and(|w| w == "--bench") {
        words.extend(["--runs", "1", "--warmup", "0"].map(String::from));
    }
    (words, missing)
}

/// Runs `example`, which must do what `stated` says (exit 0 when nothing is stated); `native`:
/// the stated lines are written with `/` for the system's separator.
fn check(t: &Tree, example: &Example, stated: Option<Stated>, native: bool) {
    let (words, missing) = words_here(t, example);
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    let run = t.run(&args);
    let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
    let what = format!(
        "{} `{}` (run as {args:?}): exit {}\nstdout:\n{stdout}\nstderr:\n{}",
        example.place, example.line, run.code, run.stderr
    );
    if let Some(program) = missing {
        eprintln!(
            "{}: {program} not run here: ran without its -x/-X",
            example.place
        );
        assert!(!stdout.is_empty(), "found nothing for {program}: {what}");
    }
    match stated {
        Some(Stated::Says(text)) => assert!(run.stderr.contains(text), "{what}"),
        Some(Stated::Prints(lines)) => {
            assert_eq!(run.code, 0, "{what}");
            if lines.is_empty() {
                assert!(stdout.is_empty(), "prints something: {what}");
            }
            for want in lines {
                let want = if native {
                    fixture::native(want)
                } else {
                    want.to_string()
                };
                let found = stdout.lines().any(|l| match want.strip_prefix(r"C:\...") {
                    Some(tail) => l.ends_with(tail) && l.as_bytes().get(1..3) == Some(&b":\\"[..]),
                    None => l == want,
                });
                assert!(found, "does not print {want:?}: {what}");
            }
        }
        None => assert_eq!(run.code, 0, "{what}"),
    }
}

/// Every example runs and does what its doc says; each stated output belongs to an example the
/// docs still hold.
#[test]
fn every_example_of_the_docs_runs() {
    let examples = examples();
    // The README's block of examples alone holds 16; a parser that found few is broken.
    assert!(
        examples.len() >= 35,
        "{} examples: {examples:#?}",
        examples.len()
    );
    let stated: Vec<(&str, Stated, bool)> = STATED
        .iter()
        .map(|&(l, s)| (l, s, true))
        .chain(STATED_HERE.iter().map(|&(l, s)| (l, s, false)))
        .collect();
    for (line, _, _) in &stated {
        assert!(
            examples.iter().any(|e| e.words == split(line)),
            "the docs no longer hold `{line}`"
        );
    }
    let t = tree();
    for example in &examples {
        let said = stated
            .iter()
            .find(|(line, _, _)| split(line) == example.words);
        check(&t, example, said.map(|s| s.1), said.is_none_or(|s| s.2));
    }
}

/// The splitting itself: quotes, pipes, comments, a table's escaped pipe.
#[test]
fn example_lines_split_as_their_shell_splits_them() {
    assert_eq!(
        split("ffind '^Makefile$' ~/src               # by regular expression"),
        ["ffind", "^Makefile$", "~/src"]
    );
    assert_eq!(
        split(r#"ffind --json -t f | jq -r 'select(.size > 1e6) | .path'"#),
        ["ffind", "--json", "-t", "f"]
    );
    assert_eq!(
        split("ffind -E node_modules -E '*.min.js'"),
        ["ffind", "-E", "node_modules", "-E", "*.min.js"]
    );
    assert_eq!(
        split(r#"ffind -g "test_*.py" -X code"#),
        ["ffind", "-g", "test_*.py", "-X", "code"]
    );
    assert_eq!(split("ffind -e log >> out"), ["ffind", "-e", "log"]);
}
