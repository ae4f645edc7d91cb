//! `--explain PATH...`: the rule it names is the one `git check-ignore -v` names (file, line,
//! pattern) for every path of a tree of layered ignore files, negations, `info/exclude` and a
//! global excludes file; its verdict is whether the search prints the path, for every path,
//! under every method and many command lines; and the hint after a search that printed
//! nothing because the hiding rules skipped every match, said on a terminal only.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::fixture::{bin, clean_env, have, Spawn, Tree};
use crate::methods::{methods, methods_with};

/// Every path below `root` but `.git`'s and those below a nested repository (git
/// check-ignore speaks of the outer repository's paths only), relative to it, sorted.
pub fn every_path(root: &Path) -> Vec<String> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            if name == ".git" {
                continue;
            }
            let path = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            let nested = entry.path().join(".git").symlink_metadata().is_ok();
            if entry.file_type().unwrap().is_dir() && !nested {
                walk(&entry.path(), &path, out);
            }
            out.push(path);
        }
    }
    let mut out = Vec::new();
    walk(root, "", &mut out);
    out.sort();
    out
}

/// The rule a `--json` explanation names last (the one that decided: the entry's own, or
/// that of the directory the search does not enter): its file, line and pattern.
fn last_rule(object: &serde_json::Value) -> Option<(String, u64, String)> {
    object["steps"]
        .as_array()
        .unwrap()
        .iter()
        .rfind(|s| s.get("line").is_some())
        .map(|s| {
            (
                s["file"].as_str().unwrap().to_owned(),
                s["line"].as_u64().unwrap(),
                s["pattern"].as_str().unwrap().to_owned(),
            )
        })
}

/// `--explain` of every path in `paths`, with `args` before it: the objects, by path.
pub fn explained(
    root: &Path,
    home: &Path,
    args: &[&str],
    paths: &[String],
) -> BTreeMap<String, serde_json::Value> {
    let mut c = Command::new(bin());
    c.args(args)
        .arg("--json")
        .arg("--explain")
        .args(paths)
        .current_dir(root)
        .stdin(Stdio::null());
    clean_env(&mut c, home);
    let out = c.output_ok();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stderr.is_empty(),
        "{args:?}: {out:?}"
    );
    let objects: BTreeMap<String, serde_json::Value> = out
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice::<serde_json::Value>(l).unwrap())
        .map(|o| (o["path"].as_str().unwrap().to_owned(), o))
        .collect();
    assert_eq!(objects.len(), paths.len(), "one object a path");
    objects
}

/// `git check-ignore -v -n` of every path: the source (made absolute), line and pattern of
/// the rule git names, if it names one.
pub fn check_ignore(
    root: &Path,
    home: &Path,
    paths: &[String],
) -> BTreeMap<String, Option<(PathBuf, u64, String)>> {
    let mut c = Command::new("git");
    c.args(["check-ignore", "-v", "-n", "-z", "--stdin"])
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    clean_env(&mut c, home);
    let mut child = c.spawn().unwrap();
    let input: Vec<u8> = paths
        .iter()
        .flat_map(|p| [p.as_bytes(), b"\0"])
        .flatten()
        .copied()
        .collect();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), &input).unwrap();
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    let fields: Vec<String> = out
        .stdout
        .split(|&b| b == 0)
        .map(|f| String::from_utf8(f.to_vec()).unwrap())
        .collect();
    fields
        .chunks_exact(4)
        .map(|f| {
            let rule = (!f[0].is_empty())
                .then(|| (absolute(root, &f[0]), f[1].parse().unwrap(), f[2].clone()));
            (f[3].clone(), rule)
        })
        .collect()
}

/// `file` as a path from `root` (where ffind and git ran), resolved.
pub fn absolute(root: &Path, file: &str) -> PathBuf {
    let p = root.join(file);
    std::fs::canonicalize(&p).unwrap_or(p)
}

/// Compares, for every path, the rule `--explain` names with the one git names.
pub fn assert_same_rules(root: &Path, home: &Path, paths: &[String]) -> Result<(), String> {
    let git = check_ignore(root, home, paths);
    let ours = explained(root, home, &["-H"], paths);
    for path in paths {
        let want = git
            .get(path)
            .unwrap_or_else(|| panic!("git said nothing of {path}"));
        let got = last_rule(&ours[path]).map(|(f, l, p)| (absolute(root, &f), l, p));
        if &got != want {
            return Err(format!(
                "{path}: git names {want:?}, --explain {got:?}\n{}",
                ours[path]
            ));
        }
    }
    Ok(())
}

/// A repository with layered ignore files, negations, `info/exclude`, a global excludes file
/// (git's `core.excludesFile`), trailing spaces and CRLF line ends.
fn layered() -> Option<Tree> {
    if !have("git") {
        eprintln!("skipped: git is missing");
        return None;
    }
    let t = Tree::new();
    assert!(t.git_init(""));
    t.write(
        ".gitignore",
        "# built\n*.log\n!keep.log\nbuild/\n/top-only\ndocs/**/*.tmp\nspaced.txt   \r\n",
    )
    .write("sub/.gitignore", "!important.log\ngen/\n*.o\n!/x.o\n")
    .write("sub/deep/.gitignore", "!*.o\nkeep.log\n")
    .write(".git/info/exclude", "*.swp\nsecret\n")
    .write(
        "../home/.gitconfig",
        "[core]\n\texcludesFile = ~/excludes\n",
    )
    .write("../home/excludes", "*.bak\n!keep.bak\nsub/deep/**\n")
    .files(&[
        "a.log",
        "keep.log",
        "important.log",
        "build/out",
        "build/keep.log",
        "top-only",
        "sub/top-only",
        "docs/a/b/c.tmp",
        "docs/c.tmp",
        "spaced.txt",
        "sub/a.log",
        "sub/important.log",
        "sub/gen/x.c",
        "sub/y.o",
        "sub/x.o",
        "sub/deep/z.o",
        "sub/deep/keep.log",
        "sub/deep/plain",
        "notes.swp",
        "sub/secret",
        "a.bak",
        "keep.bak",
        "plain.txt",
    ]);
    Some(t)
}

#[test]
fn explain_names_the_rule_git_check_ignore_names_for_every_path() {
    let Some(t) = layered() else { return };
    let paths = every_path(&t.root());
    let git = check_ignore(&t.root(), &t.home(), &paths);
    // The tree holds what it is meant to: rules of every source decide some paths.
    let sources: std::collections::BTreeSet<String> = git
        .values()
        .flatten()
        .map(|(f, _, _)| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        sources,
        [".gitignore", "exclude", "excludes"]
            .map(String::from)
            .into(),
        "{git:?}"
    );
    assert!(git.values().flatten().any(|(_, _, p)| p.starts_with('!')));
    assert_same_rules(&t.root(), &t.home(), &paths).unwrap();
}

/// The results of a search, as `--json` gives their paths.
fn printed(t: &Tree, args: &[&str]) -> std::collections::BTreeSet<String> {
    let run = t.run(&[args, &["--json"]].concat());
    assert!(run.code == 0 && run.stderr.is_empty(), "{args:?}: {run:?}");
    run.stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| {
            let o: serde_json::Value = serde_json::from_slice(l).unwrap();
            o["path"].as_str().unwrap().to_owned()
        })
        .collect()
}

#[test]
fn the_verdict_is_whether_the_search_prints_it_under_every_method() {
    let Some(t) = layered() else { return };
    t.write(".ignore", "plain.txt\n")
        .write("sub/.fdignore", "y.o\n")
        .write("sub/.ffindignore", "!y.o\n")
        .files(&[".hidden/a.c", "sub/.dot.c", "sub/deep/d.c", "x.c"])
        .write("big.c", &"x".repeat(5000))
        .link("sub", "lnk");
    let mut paths = every_path(&t.root());
    // Below a link: entered under -L only.
    paths.extend(["lnk/a.log", "lnk/x.o", "lnk/deep/z.o"].map(String::from));
    // The pattern and -e with the ignore files in play too: the walk asks them first of a
    // file, --explain in order (visit.rs), and the verdicts must still agree.
    let lines: [&[&str]; 16] = [
        &["c$"],
        &["-e", "o"],
        &["-L"],
        &["-L", "-H", "o$"],
        &[],
        &["-H"],
        &["-I"],
        &["-u"],
        &["-E", "*.c", "-E", "sub/deep"],
        &["-d", "2"],
        &["--min-depth", "3", "-H"],
        &["-t", "f", "o"],
        &["-e", "c", "-H"],
        &["--prune", "sub"],
        &["-S", "+1k"],
        &["-p", "sub/.*log", "-H", "--no-ignore-vcs"],
    ];
    // Every method on every line; and the memo's (--cache: its methods, on a search served
    // from the memo the search before wrote).
    let runs = lines
        .iter()
        .flat_map(|args| methods().into_iter().map(move |m| (args.to_vec(), m)))
        .chain(
            [&["--cache"][..], &["--cache", "-H", "-E", "deep"]]
                .into_iter()
                .flat_map(|args| {
                    methods_with("own-reader")
                        .into_iter()
                        .map(move |m| (args.to_vec(), m))
                }),
        );
    let mut seen = [0usize; 2];
    for (args, m) in runs {
        let with_method = [&args[..], &["--method", m]].concat();
        let want = printed(&t, &with_method);
        if args.contains(&"--cache") {
            assert_eq!(printed(&t, &with_method), want, "served from the memo");
        }
        let explained = explained(&t.root(), &t.home(), &with_method, &paths);
        for path in &paths {
            let printed = explained[path]["printed"].as_bool().unwrap();
            seen[printed as usize] += 1;
            assert_eq!(
                printed,
                want.contains(path),
                "ffind {}: {path}: --explain says printed: {printed}\n{}",
                with_method.join(" "),
                explained[path]
            );
        }
    }
    // Both verdicts, many times each: the tree and the command lines decide something.
    assert!(seen[0] > 500 && seen[1] > 500, "{seen:?}");
}

#[test]
fn each_decision_on_its_line_with_its_source() {
    let Some(t) = layered() else { return };
    t.files(&[".hidden/x", "sub/deep/d.c"]);
    let run = t.run(&[
        "o$",
        "-E",
        "*.c",
        "--explain",
        "build/out",
        "sub/x.o",
        "sub/deep/z.o",
        ".hidden/x",
        "sub/deep/d.c",
        "../elsewhere",
        ".",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let home = t.home();
    let excludes = home.join("excludes");
    let excludes = excludes.display();
    assert_eq!(
        String::from_utf8(run.stdout).unwrap(),
        format!(
            "build/out: not printed
  build: ignored: .gitignore:4: build/ (-I shows it)
  build/out: below build, which the search does not enter
sub/x.o: printed
  sub/x.o: not ignored: sub/.gitignore:4: !/x.o (a negation brings it back)
  sub/x.o: matches the pattern and every filter
sub/deep/z.o: printed
  sub/deep/z.o: not ignored: sub/deep/.gitignore:1: !*.o (a negation brings it back)
  sub/deep/z.o: matches the pattern and every filter
.hidden/x: not printed
  .hidden: hidden: its name starts with '.' (-H shows it)
  .hidden/x: below .hidden, which the search does not enter
sub/deep/d.c: not printed
  sub/deep/d.c: ignored: {excludes}:3: sub/deep/** (-I shows it)
../elsewhere: not printed
  ../elsewhere: outside every search path
.: not printed
  .: a search path: searched, never printed itself
"
        )
    );
    let run = t.run(&[
        "-E",
        "sub/deep",
        "-E",
        "*.c",
        "--explain",
        "sub/deep/d.c",
        "x.c",
    ]);
    assert_eq!(
        String::from_utf8(run.stdout).unwrap(),
        "sub/deep/d.c: not printed
  sub/deep: excluded by -E sub/deep
  sub/deep/d.c: below sub/deep, which the search does not enter
x.c: not printed
  x.c: cannot be looked at: No such file or directory
"
    );
    t.link("sub", "lnk");
    let run = t.run(&["--explain", "lnk/x.o"]);
    assert_eq!(
        String::from_utf8(run.stdout).unwrap(),
        "lnk/x.o: not printed
  lnk: not entered: a symbolic link (-L follows links)
  lnk/x.o: below lnk, which the search does not enter
"
    );
    let run = t.run(&["-t", "d", "-d", "1", "--explain", "sub/y.o", "sub", "a.bak"]);
    assert_eq!(
        String::from_utf8(run.stdout).unwrap(),
        format!(
            "sub/y.o: not printed
  sub: not entered: --max-depth 1
  sub/y.o: below sub, which the search does not enter
sub: printed
  sub: matches the pattern and every filter
  sub: not entered: --max-depth 1
a.bak: not printed
  a.bak: ignored: {excludes}:1: *.bak (-I shows it)
"
        )
    );
}

#[test]
fn json_gives_the_same_as_objects() {
    let Some(t) = layered() else { return };
    let o = explained(&t.root(), &t.home(), &[], &["sub/gen/x.c".into()]);
    let want = serde_json::json!({
        "path": "sub/gen/x.c",
        "printed": false,
        "steps": [
            {"path": "sub/gen", "decision": "ignored", "file": "sub/.gitignore", "line": 2,
             "pattern": "gen/", "negation": false},
            {"path": "sub/gen/x.c", "decision": "below", "directory": "sub/gen"},
        ],
    });
    assert_eq!(o["sub/gen/x.c"], want);
}

/// `args` run on a pseudo-terminal (util-linux `script`) in the tree: what it wrote, "\r\n"
/// made "\n". `None` without `script`.
fn on_terminal(t: &Tree, args: &[&str], env: &[(&str, &str)]) -> Option<String> {
    if !have("script") {
        eprintln!("skipped: util-linux script is not installed");
        return None;
    }
    let quote = |w: &str| format!("'{}'", w.replace('\'', "'\\''"));
    let mut line = vec![quote(bin().to_str().unwrap())];
    line.extend(args.iter().map(|a| quote(a)));
    let mut c = Command::new("script");
    c.args(["-qec", &line.join(" "), "/dev/null"])
        .current_dir(t.root())
        .stdin(Stdio::null());
    clean_env(&mut c, &t.home());
    c.envs(env.iter().copied());
    let out = c.output_ok();
    // -q that finds nothing exits with 1; nothing else here fails.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{args:?}: {out:?}"
    );
    Some(String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n"))
}

#[test]
fn the_hint_says_what_hid_every_match_on_a_terminal_only() {
    let Some(t) = layered() else { return };
    t.files(&[".found.log", "sub/.found.c", ".cache/found.too"]);
    for m in methods() {
        let Some(said) = on_terminal(&t, &["found", "--method", m], &[]) else {
            return;
        };
        // Which of the two is named depends on which the walk met first.
        let (hint, example) = said
            .trim_end()
            .split_once("; add --explain ")
            .unwrap_or_else(|| panic!("--method {m}: {said:?}"));
        assert_eq!(
            hint,
            "ffind: hint: nothing printed, but 2 entries that match were skipped: 1 ignored and \
             hidden (-u shows them), 1 hidden (-H shows them); 4 hidden or ignored directories \
             not searched (-u searches everything)",
            "--method {m}"
        );
        assert!(
            [".found.log to say why", "sub/.found.c to say why"].contains(&example),
            "--method {m}: {example}"
        );
    }
    let Some(said) = on_terminal(&t, &["log$", "-H", "-E", "keep*", "-E", "important*"], &[])
    else {
        return;
    };
    assert!(
        said.starts_with("ffind: hint: nothing printed, but ")
            && said.contains(" ignored by ignore files (-I shows them)")
            && said.contains(" excluded by -E")
            && said.contains("directories not searched"),
        "{said}"
    );
    // What the hint says to add explains it.
    let example = said.trim_end().rsplit("--explain ").next().unwrap();
    let example = example.trim_end_matches(" to say why").trim_matches('\'');
    let run = t.run(&[
        "log$",
        "-H",
        "-E",
        "keep*",
        "-E",
        "important*",
        "--explain",
        example,
    ]);
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(
        text.starts_with(&format!("{example}: not printed\n")),
        "{text}"
    );
    // A match inside an ignored directory is not known (the directory is not searched): the
    // hint names the directories ignore files kept the search out of.
    for m in methods() {
        let said = on_terminal(&t, &["^out$", "--method", m], &[]).unwrap();
        let (head, tail) = said
            .split_once(", such as ")
            .unwrap_or_else(|| panic!("{said}"));
        assert_eq!(
            head,
            "ffind: hint: nothing printed; ignore files kept the search out of 2 directories"
        );
        assert!(
            ["build (", "sub/gen ("].iter().any(|d| tail.starts_with(d))
                && tail.ends_with(
                    " (-u searches everything; add --explain PATH to say why a path is not \
                     printed)\n"
                ),
            "--method {m}: {said}"
        );
    }
    // The option it names finds it.
    let said = on_terminal(&t, &["^out$", "-u"], &[("NO_COLOR", "1")]).unwrap();
    assert_eq!(said, "build/out\n");
    // Never when something was printed, under -q, with --no-hints or its config line.
    let said = on_terminal(&t, &["log"], &[("NO_COLOR", "1")]).unwrap();
    assert_eq!(said, "keep.log\nsub/important.log\n");
    assert_eq!(on_terminal(&t, &["-q", "found"], &[]).unwrap(), "");
    assert_eq!(on_terminal(&t, &["--no-hints", "found"], &[]).unwrap(), "");
    t.write("../home/.config/ffind/config", "--no-hints\n");
    assert_eq!(on_terminal(&t, &["found"], &[]).unwrap(), "");
}

#[test]
fn the_hint_is_never_said_in_a_pipe() {
    let Some(t) = layered() else { return };
    t.files(&[".found.log", ".cache/found.too"]);
    for m in methods() {
        let run = t.run(&["found", "--method", m]);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "--method {m}");
        assert!(run.stdout.is_empty());
    }
}

#[test]
fn every_source_of_rules_is_named() {
    let t = Tree::new();
    t.write("../home/.config/ffind/ignore", "# mine\n*.global\n")
        .write("../extra", "\n*.extra\n")
        .write(".ignore", "*.dot\n")
        .write(".fdignore", "*.fd\n")
        .write("sub/.ffindignore", "\n\n*.ffind\n!keep.fd\n");
    let paths = [
        "a.global",
        "a.extra",
        "a.dot",
        "a.fd",
        "sub/a.ffind",
        "sub/keep.fd",
    ];
    t.files(&paths);
    let home = t.home();
    let global = home.join(".config/ffind/ignore");
    let run = t.run(&[&["--ignore-file", "../extra", "--explain"], &paths[..]].concat());
    assert_eq!(run.stderr, "");
    assert_eq!(
        String::from_utf8(run.stdout).unwrap(),
        format!(
            "a.global: not printed
  a.global: ignored: {}:2: *.global (-I shows it)
a.extra: not printed
  a.extra: ignored: ../extra:2: *.extra (-I shows it)
a.dot: not printed
  a.dot: ignored: .ignore:1: *.dot (-I shows it)
a.fd: not printed
  a.fd: ignored: .fdignore:1: *.fd (-I shows it)
sub/a.ffind: not printed
  sub/a.ffind: ignored: sub/.ffindignore:3: *.ffind (-I shows it)
sub/keep.fd: printed
  sub/keep.fd: not ignored: sub/.ffindignore:4: !keep.fd (a negation brings it back)
  sub/keep.fd: matches the pattern and every filter
",
            global.display()
        )
    );
}

#[test]
fn paths_are_escaped_on_a_terminal_as_results_are() {
    let t = Tree::new();
    t.write(".gitignore", "esc*\n").files(&["esc\x1b[31mred"]);
    assert!(t.git_init(""));
    let Some(said) = on_terminal(&t, &["--explain", "esc\x1b[31mred"], &[]) else {
        return;
    };
    assert_eq!(
        said,
        "esc\\x1B[31mred: not printed\n  esc\\x1B[31mred: ignored: .gitignore:1: esc* (-I shows it)\n"
    );
    // In a pipe, byte for byte, as results are.
    let run = t.run(&["--explain", "esc\x1b[31mred"]);
    assert!(
        run.stdout.starts_with(b"esc\x1b[31mred: not printed\n"),
        "{run:?}"
    );
}

#[test]
fn explain_is_refused_with_what_it_cannot_say() {
    let t = Tree::new();
    t.files(&["a"]);
    for args in [&["--mpi"][..], &["-q"], &["-x", "echo"], &["--bench"]] {
        let run = t.run(&[&["--explain", "a"], args].concat());
        assert_eq!(run.code, 2, "{args:?}: {run:?}");
        assert!(run.stdout.is_empty(), "{args:?}: {run:?}");
    }
}
