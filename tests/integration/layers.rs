//! The floors of the house: each part of `src/` uses only its own floor and those
//! below, so that the file system is a ground floor everything stands on, the filters and the
//! output never reach up into the walk or the configuration, and the configuration never into
//! the walk. The first test finds an import that points up a floor; the second finds a circle
//! of imports between the files of `src/` (the project's own check, where CI once ran
//! a script from outside the repository).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// From the top floor down: a part may use its own floor's parts and those of lower floors.
const FLOORS: &[&[&str]] = &[
    &["main"],
    &["completions", "manual"],
    &["bench"],
    &["walk"],
    // walk/methods.rs, the method table, is data the command line parses into (no walk code):
    // it stands on the configuration's floor, below the methods and the dispatch it lists.
    &["config", "cli", "memo", "walk::methods"],
    &["exec", "output"],
    &["filter", "template"],
    &["fs", "report", "exit"],
];

fn floor_of(part: &str) -> Option<usize> {
    FLOORS.iter().position(|f| f.contains(&part))
}

/// The part of `src/` a file belongs to: a file FLOORS names itself (`walk::methods`), else its
/// first directory, or its own name.
fn part_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let module = rel
        .with_extension("")
        .to_str()
        .unwrap()
        .replace(['/', '\\'], "::");
    if floor_of(&module).is_some() {
        return module;
    }
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

/// The code of a file without comments and without its test module (tests may reach anywhere):
/// everything from a `#[cfg(test)]` followed by `mod tests` (`pub mod tests` too) on.
fn code(text: &str) -> String {
    let mut end = text.len();
    let mut from = 0;
    while let Some(i) = text[from..].find("#[cfg(test)]") {
        let at = from + i;
        let next = text[at + "#[cfg(test)]".len()..].trim_start();
        let next = next
            .strip_prefix("pub(crate) ")
            .or_else(|| next.strip_prefix("pub "))
            .unwrap_or(next);
        if next.starts_with("mod tests") {
            end = at;
            break;
        }
        from = at + 1;
    }
    text[..end]
        .lines()
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
        // A file FLOORS names itself (`crate::walk::methods::..`) is its own part.
        let file: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        let own = FLOORS
            .iter()
            .flat_map(|f| f.iter())
            .find(|p| p.contains("::") && (file == **p || file.starts_with(&format!("{p}::"))));
        used.push(own.map_or(name, |p| (*p).to_owned()));
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
    // The method table is its own part, on the configuration's floor, below the walk.
    let text = "use crate::walk::methods::Method;\nfn f() { crate::walk::visit::g(); }\n";
    assert_eq!(parts_used(&code(text)), ["walk::methods", "walk"]);
    assert!(floor_of("walk::methods").unwrap() > floor_of("walk").unwrap());
}

// ---- Import circles between files -------------------------------------------------------------
//
// An edge A -> B for each path in file A that names file B's module or something in it: `use`
// trees (`use crate::..`, `use super::..`, `use self::..`, `use child::..` for a `mod child;`
// of A), and the same paths written in code. A path through a `pub use` of a module is followed
// to the file it re-exports from, so that `use super::Kind`, re-exported by fs/mod.rs from
// fs/kind.rs, points at kind.rs. Comments and test modules (`#[cfg(test)] mod tests`, files named
// tests.rs) are left out: tests may reach anywhere. It reads text, not the compiler's resolution
// (no macros, no glob imports followed).

/// Circles that exist today and are to be removed: the check fails on any other circle, and on
/// one of these once it is gone or has changed (then update its line here).
const KNOWN_CIRCLES: &[&[&str]] = &[
    // (fs/dir.rs with fs/listing.rs, and walk/mod.rs with its methods, were untied by
    // fs/dirent.rs, walk/contract.rs and walk/prepare.rs.) Not untied yet: walk/mod.rs's
    // old shape, a mod.rs that both holds what its children use and calls them. The script this
    // test replaces missed these two: from a file that is not a mod.rs it took `super::` one level too high, and it did
    // not follow `child::` paths written in a mod.rs. bench/mod.rs holds `shown`, which
    // export/ and report.rs use, and calls them; export/mod.rs holds Caption, which svg.rs
    // uses, and calls svg.rs's render.
    &[
        "bench/args.rs",
        "bench/export/markdown.rs",
        "bench/export/mod.rs",
        "bench/export/svg.rs",
        "bench/mod.rs",
        "bench/report.rs",
    ],
    // exec/mod.rs holds Runner, ExecSpec and CommandTemplate, which batch.rs and per_result.rs
    // use, and calls their Batcher and Pool.
    &["exec/batch.rs", "exec/mod.rs", "exec/per_result.rs"],
];

/// One source file as the circle check sees it.
struct Source {
    /// `src/`-relative path, `/`-separated: the name circles are reported by.
    file: String,
    /// Module path from the crate root: `walk/dir.rs` -> ["walk", "dir"], `walk/mod.rs` -> ["walk"].
    module: Vec<String>,
    code: String,
}

impl Source {
    fn new(file: &str, text: &str) -> Source {
        let mut module: Vec<String> = file
            .trim_end_matches(".rs")
            .split('/')
            .map(String::from)
            .collect();
        if matches!(
            module.last().map(String::as_str),
            Some("mod" | "main" | "lib")
        ) {
            module.pop();
        }
        Source {
            file: file.to_owned(),
            module,
            code: code(text),
        }
    }

    /// The module `self::` stands for in this file (itself) and the child modules it declares.
    fn children(&self) -> Vec<String> {
        let mut out = Vec::new();
        for line in self.code.lines() {
            let line = line.trim();
            let line = line
                .strip_prefix("pub(crate) ")
                .or_else(|| line.strip_prefix("pub(super) "))
                .or_else(|| line.strip_prefix("pub "))
                .unwrap_or(line);
            if let Some(name) = line.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) {
                out.push(name.trim().to_owned());
            }
        }
        out
    }
}

/// `a::{b, c::{d, e as f}, self}` -> ["a::b", "a::c::d", "a::c::e", "a"].
fn expand_use_tree(tree: &str) -> Vec<String> {
    // `x as y` keeps x: mark the keyword before the spaces around it go.
    let words: Vec<&str> = tree.split_whitespace().collect();
    let tree = words.join(" ").replace(" as ", "@").replace(' ', "");
    let mut out = Vec::new();
    expand_into("", &tree, &mut out);
    out
}

fn expand_into(prefix: &str, tree: &str, out: &mut Vec<String>) {
    for item in split_top_level(tree) {
        match item.find('{') {
            Some(open) if item.ends_with('}') => {
                let head = format!("{prefix}{}", &item[..open]);
                expand_into(&head, &item[open + 1..item.len() - 1], out);
            }
            _ => {
                let item = item.split('@').next().unwrap_or(item);
                let full = format!("{prefix}{item}");
                out.push(full.strip_suffix("::self").unwrap_or(&full).to_owned());
            }
        }
    }
}

/// Splits `a, b::{c, d}, e` at the commas outside braces.
fn split_top_level(s: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts.into_iter().filter(|p| !p.is_empty()).collect()
}

/// Every path a file's code names that starts at `crate`, `super`, `self` or one of `roots`.
fn paths_named(code: &str, roots: &[String]) -> Vec<String> {
    let mut paths = Vec::new();
    let mut outside_use = String::new();
    let mut rest = code;
    while let Some(i) = find_word(rest, "use ") {
        outside_use.push_str(&rest[..i]);
        let after = &rest[i + 4..];
        let end = after.find(';').unwrap_or(after.len());
        paths.extend(expand_use_tree(&after[..end]));
        rest = &after[end..];
    }
    outside_use.push_str(rest);
    let code = outside_use.as_str();
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    for start in ["crate::", "super::", "self::"]
        .iter()
        .map(|s| s.to_string())
        .chain(roots.iter().map(|r| format!("{r}::")))
    {
        let mut rest = code;
        while let Some(i) = find_word(rest, &start) {
            if rest[..i].ends_with("::") {
                rest = &rest[i + start.len()..];
                continue;
            }
            let path: String = rest[i..]
                .chars()
                .take_while(|&c| is_ident(c) || c == ':')
                .collect();
            paths.push(path.trim_end_matches(':').to_owned());
            rest = &rest[i + start.len()..];
        }
    }
    paths
}

/// The first place `word` starts in `s` not in the middle of an identifier.
fn find_word(s: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = s[from..].find(word) {
        let at = from + i;
        let before = s[..at].chars().next_back();
        if !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// A path as written in `src` -> segments from the crate root, or None for outside the crate.
fn absolute(src: &Source, path: &str, children: &[String]) -> Option<Vec<String>> {
    let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let (mut base, mut rest) = match segs.first().copied() {
        Some("crate") => (Vec::new(), &segs[1..]),
        Some("self") => (src.module.clone(), &segs[1..]),
        Some("super") => (src.module.clone(), &segs[..]),
        Some(first) if children.iter().any(|c| c == first) => (src.module.clone(), &segs[..]),
        _ => return None,
    };
    while rest.first() == Some(&"super") {
        base.pop()?;
        rest = &rest[1..];
    }
    base.extend(rest.iter().map(|s| s.to_string()));
    Some(base)
}

/// The ground floor's crate (crates/ffind-sys), named in `src/` by the names its modules had
/// there (`main.rs` and `exec/mod.rs` bring them in): no file of `src/`, and cargo holds that
/// it imports nothing of them.
const GROUND_CRATE: &[&[&str]] = &[&["fs"], &["report"], &["exit"], &["exec", "sys"]];

/// The graph: file -> file it imports from -> the names it takes.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

fn import_graph(sources: &[Source]) -> Graph {
    let by_module: BTreeMap<Vec<String>, usize> = sources
        .iter()
        .enumerate()
        .map(|(i, s)| (s.module.clone(), i))
        .collect();
    // Each module's `pub use` re-exports: name -> the absolute path it stands for.
    let mut reexports: BTreeMap<usize, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for (i, s) in sources.iter().enumerate() {
        let children = s.children();
        for line in s.code.split(';') {
            let line = line.trim();
            let Some(tree) = ["pub use ", "pub(crate) use ", "pub(super) use "]
                .iter()
                .find_map(|p| line.strip_prefix(p))
            else {
                continue;
            };
            for path in expand_use_tree(tree) {
                if let Some(abs) = absolute(s, &path, &children) {
                    let name = abs.last().cloned().unwrap_or_default();
                    reexports.entry(i).or_default().insert(name, abs);
                }
            }
        }
    }
    let resolve = |mut segs: Vec<String>| -> Option<(usize, String)> {
        for _ in 0..8 {
            if GROUND_CRATE
                .iter()
                .any(|g| segs.len() >= g.len() && segs[..g.len()] == **g)
            {
                return None;
            }
            let (k, file) = (0..=segs.len())
                .rev()
                .find_map(|k| by_module.get(&segs[..k]).map(|&f| (k, f)))?;
            let name = segs.get(k).cloned();
            match name.as_ref().and_then(|n| reexports.get(&file)?.get(n)) {
                Some(target) if *target != segs[..=k] => {
                    let mut next = target.clone();
                    next.extend(segs[k + 1..].iter().cloned());
                    segs = next;
                }
                _ => {
                    return Some((
                        file,
                        name.unwrap_or_else(|| segs.last().cloned().unwrap_or_default()),
                    ))
                }
            }
        }
        None
    };
    let mut graph = Graph::new();
    for (i, s) in sources.iter().enumerate() {
        let children = s.children();
        for path in paths_named(&s.code, &children) {
            let Some((to, name)) = absolute(s, &path, &children).and_then(resolve) else {
                continue;
            };
            if to != i {
                graph
                    .entry(s.file.clone())
                    .or_default()
                    .entry(sources[to].file.clone())
                    .or_default()
                    .insert(name);
            }
        }
    }
    graph
}

/// The circles of a graph (its strongly connected components of more than one file), each
/// sorted, by Tarjan's algorithm.
fn circles(graph: &Graph) -> Vec<Vec<String>> {
    struct Tarjan<'a> {
        graph: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            for w in self.graph.get(v).into_iter().flat_map(|m| m.keys()) {
                if !self.index.contains_key(w.as_str()) {
                    self.visit(w);
                    let lw = self.low[w.as_str()];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.stack.contains(&w.as_str()) {
                    let iw = self.index[w.as_str()];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    comp.push(w.to_owned());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    self.found.push(comp);
                }
            }
        }
    }
    let mut t = Tarjan {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.found.sort();
    t.found
}

/// A circle as a reader needs it: its files, and what each takes from the next.
fn describe(circle: &[String], graph: &Graph) -> String {
    let mut text = format!("circle of {} files: {}\n", circle.len(), circle.join(", "));
    for a in circle {
        for (b, names) in graph.get(a).into_iter().flatten() {
            if circle.contains(b) {
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                text += &format!("  {a} -> {b}: {}\n", names.join(", "));
            }
        }
    }
    text
}

/// The circles found in `sources` that `known` does not list, and the known ones not found.
fn unexpected_circles(sources: &[Source], known: &[&[&str]]) -> (Vec<String>, Vec<String>) {
    let graph = import_graph(sources);
    let found = circles(&graph);
    let is_known = |c: &Vec<String>| {
        known
            .iter()
            .any(|k| k.len() == c.len() && k.iter().all(|f| c.contains(&f.to_string())))
    };
    let new = found
        .iter()
        .filter(|c| !is_known(c))
        .map(|c| describe(c, &graph))
        .collect();
    let gone = known
        .iter()
        .filter(|k| {
            !found
                .iter()
                .any(|c| k.len() == c.len() && k.iter().all(|f| c.contains(&f.to_string())))
        })
        .map(|k| k.join(", "))
        .collect();
    (new, gone)
}

fn crate_sources() -> Vec<Source> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    files
        .iter()
        .filter(|f| f.file_name().is_some_and(|n| n != "tests.rs"))
        .map(|f| {
            let rel = f
                .strip_prefix(&src)
                .unwrap()
                .to_str()
                .unwrap()
                .replace('\\', "/");
            Source::new(&rel, &std::fs::read_to_string(f).unwrap())
        })
        .collect()
}

#[test]
fn no_import_circle_between_the_files_of_src() {
    let (new, gone) = unexpected_circles(&crate_sources(), KNOWN_CIRCLES);
    assert!(
        new.is_empty(),
        "import circles in src/:\n{}",
        new.join("\n")
    );
    assert!(
        gone.is_empty(),
        "no longer a circle, delete it from KNOWN_CIRCLES in {}: {}",
        file!(),
        gone.join("; ")
    );
}

#[test]
fn the_circle_check_finds_a_new_circle_and_says_what_closes_it() {
    let tree = |files: &[(&str, &str)]| -> Vec<Source> {
        files.iter().map(|(f, t)| Source::new(f, t)).collect()
    };
    // One way down: main -> walk -> base/mod.rs -> base/dir.rs -> base/kind.rs (through a re-export).
    let clean = [
        (
            "main.rs",
            "mod base;\nmod walk;\nfn main() { walk::run(); }\n",
        ),
        (
            "walk/mod.rs",
            "use crate::base::{Dir, Kind};\npub fn run() {}\n",
        ),
        (
            "base/mod.rs",
            "mod dir;\nmod kind;\npub use dir::Dir;\npub use kind::Kind;\n",
        ),
        (
            "base/dir.rs",
            "use super::Kind;\n// use crate::walk; in a comment\npub struct Dir;\n#[cfg(test)]\npub mod tests {\n    use crate::walk::run;\n}\n",
        ),
        (
            "base/kind.rs",
            "pub enum Kind {}\n#[cfg(test)]\nmod tests { use crate::walk::run; }\n",
        ),
    ];
    let (new, gone) = unexpected_circles(&tree(&clean), &[]);
    assert_eq!((new.len(), gone.len()), (0, 0), "{new:?}");
    let graph = import_graph(&tree(&clean));
    assert!(
        graph["base/dir.rs"].contains_key("base/kind.rs"),
        "{graph:?}"
    );
    assert!(
        !graph["base/dir.rs"].contains_key("base/mod.rs"),
        "{graph:?}"
    );
    assert!(graph["main.rs"].contains_key("walk/mod.rs"), "{graph:?}");

    // The ground floor reaching back up, through each kind of path.
    for back in [
        "use crate::walk::run;",
        "use crate::{walk::{self, run}};",
        "fn f() { crate::walk::run() }",
        "use super::super::walk::run;",
    ] {
        let mut files = clean.to_vec();
        let kind = format!("{back}\npub enum Kind {{}}\n");
        files[4] = ("base/kind.rs", &kind);
        let (new, _) = unexpected_circles(&tree(&files), &[]);
        assert_eq!(new.len(), 1, "{back}: {new:?}");
        assert!(
            new[0].starts_with("circle of 3 files: base/dir.rs, base/kind.rs, walk/mod.rs\n"),
            "{}",
            new[0]
        );
        assert!(
            new[0].contains("base/kind.rs -> walk/mod.rs: run"),
            "{}",
            new[0]
        );
        assert!(
            new[0].contains("walk/mod.rs -> base/kind.rs: Kind"),
            "{}",
            new[0]
        );
        // Listing it as known lets it pass, and a known circle that is gone is reported.
        let known: &[&[&str]] = &[&["base/dir.rs", "base/kind.rs", "walk/mod.rs"]];
        assert_eq!(unexpected_circles(&tree(&files), known), (vec![], vec![]));
        assert_eq!(unexpected_circles(&tree(&clean), known).1.len(), 1);
    }

    // Two siblings of one directory, as base/dir.rs and base/listing.rs are today.
    let mut files = clean.to_vec();
    files.push(("base/listing.rs", "use super::dir::Dir;\n"));
    files[3] = (
        "base/dir.rs",
        "use super::listing::getdents;\npub struct Dir;\n",
    );
    let (new, _) = unexpected_circles(&tree(&files), &[]);
    assert_eq!(new.len(), 1, "{new:?}");
    assert!(
        new[0].contains("base/dir.rs -> base/listing.rs: getdents"),
        "{}",
        new[0]
    );
    assert!(
        new[0].contains("base/listing.rs -> base/dir.rs: Dir"),
        "{}",
        new[0]
    );
}

#[test]
fn use_trees_expand_to_every_path() {
    assert_eq!(
        expand_use_tree("crate::fs::{self, dir::{Dir, open as o}, Kind}"),
        [
            "crate::fs",
            "crate::fs::dir::Dir",
            "crate::fs::dir::open",
            "crate::fs::Kind"
        ]
    );
}
