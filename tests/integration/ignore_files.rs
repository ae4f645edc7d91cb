//! Hidden entries and ignore files: `-H`, `-I`, `-u`, `--no-ignore-vcs`,
//! `--no-ignore-parent`, `--no-require-git`, `--ignore-file`; `.gitignore` inside and outside a
//! repository, `.git/info/exclude`, the global git excludes, `.ignore`, `.fdignore`,
//! `.ffindignore`, ffind's global ignore file; rules from above the search path; negation,
//! anchoring, `**`, directory-only patterns and the precedence between files. Every check runs
//! under every method at `-j 1` and `-j 8`. On Windows too (the repositories' `.git` made by
//! hand, see [`Tree::git_init`]), but for git's own worktrees and `$XDG_CONFIG_HOME`.

use std::fs;

use crate::fd_parity::{assert_everywhere, assert_listing};
use crate::fixture::{typed, utf16, Spawn, Tree, SAVE_AS_UTF8, UTF16};

/// Writes a file below the fake home directory (the tests' `$HOME`; `$XDG_CONFIG_HOME` is its
/// `.config`).
fn home_file(t: &Tree, rel: &str, contents: &str) {
    let p = t.home().join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, contents).unwrap();
}

/// A path as a git config file holds it: with `/` (on Windows too, where git reads a `\` in a
/// value as an escape).
fn git_path(p: &std::path::Path) -> String {
    p.to_str().unwrap().replace('\\', "/")
}

fn git_init(t: &Tree, rel: &str) {
    assert!(
        t.git_init(rel),
        "git init {rel} failed (these tests need git)"
    );
}

#[test]
fn hidden_entries_need_hidden() {
    let t = Tree::new();
    t.files(&["visible", ".dotfile", ".dotdir/inner", "dir/.nested"]);
    assert_everywhere(&t, &[], &["visible", "dir"]);
    assert_everywhere(
        &t,
        &["-H"],
        &[
            "visible",
            ".dotfile",
            ".dotdir",
            ".dotdir/inner",
            "dir",
            "dir/.nested",
        ],
    );
    assert_everywhere(&t, &["--hidden", "inner"], &[".dotdir/inner"]);
    assert_everywhere(&t, &["-H", "--no-hidden"], &["visible", "dir"]);
    // A hidden search path is searched; only what is below it counts as hidden or not.
    assert_everywhere(&t, &[".", ".dotdir"], &[".dotdir/inner"]);
}

#[test]
fn a_whitelisted_hidden_entry_is_shown_as_in_fd() {
    let t = Tree::new();
    t.files(&[".env", ".other", "x"])
        .write(".ignore", "!.env\n");
    assert_everywhere(&t, &[], &[".env", "x"]);
}

#[test]
fn no_ignore_and_unrestricted() {
    let t = Tree::new();
    git_init(&t, "");
    t.files(&["kept", "ignored.o", ".hidden", "build/out"])
        .write(".gitignore", "*.o\nbuild/\n");
    assert_everywhere(&t, &[], &["kept"]);
    assert_everywhere(&t, &["-I"], &["kept", "ignored.o", "build", "build/out"]);
    assert_everywhere(&t, &["--no-ignore", "--ignore"], &["kept"]);
    assert_everywhere(
        &t,
        &["-H", "-E", ".git"],
        &["kept", ".hidden", ".gitignore"],
    );
    for u in ["-u", "-uu", "--unrestricted"] {
        let run = crate::fd_parity::methods_agree(&t, &[u, "-E", ".git"])
            .unwrap_or_else(|e| panic!("{e}"));
        assert_listing(
            &run,
            &[u],
            &[
                "kept",
                "ignored.o",
                ".hidden",
                ".gitignore",
                "build",
                "build/out",
            ],
        );
    }
}

#[test]
fn gitignore_applies_inside_a_repository_only() {
    let t = Tree::new();
    git_init(&t, "repo");
    t.files(&["repo/a.o", "repo/a.c", "plain/b.o", "plain/b.c"])
        .write("repo/.gitignore", "*.o\n")
        .write("plain/.gitignore", "*.o\n");
    assert_everywhere(&t, &["-t", "f"], &["repo/a.c", "plain/b.o", "plain/b.c"]);
    assert_everywhere(
        &t,
        &["--no-require-git", "-t", "f"],
        &["repo/a.c", "plain/b.c"],
    );
    assert_everywhere(
        &t,
        &["--no-require-git", "--require-git", "-t", "f"],
        &["repo/a.c", "plain/b.o", "plain/b.c"],
    );
    assert_everywhere(
        &t,
        &["--no-ignore-vcs", "-t", "f"],
        &["repo/a.o", "repo/a.c", "plain/b.o", "plain/b.c"],
    );
    // A ".git" file (a worktree or submodule) marks a repository too.
    t.write("plain/.git", "gitdir: /nonexistent\n");
    assert_everywhere(&t, &["-t", "f"], &["repo/a.c", "plain/b.c"]);
}

#[test]
fn git_info_exclude_and_global_git_excludes() {
    let t = Tree::new();
    git_init(&t, "repo");
    t.files(&[
        "repo/secret",
        "repo/x.bak",
        "repo/x.swp",
        "repo/keep",
        "plain/y.bak",
    ])
    .write("repo/.git/info/exclude", "secret\n");
    home_file(&t, ".config/git/ignore", "*.bak\n");
    // Inside the repository only, as for .gitignore.
    assert_everywhere(
        &t,
        &["-t", "f"],
        &["repo/x.swp", "repo/keep", "plain/y.bak"],
    );
    assert_everywhere(
        &t,
        &["--no-ignore-vcs", "-t", "f"],
        &[
            "repo/secret",
            "repo/x.bak",
            "repo/x.swp",
            "repo/keep",
            "plain/y.bak",
        ],
    );
    assert_everywhere(
        &t,
        &["--no-require-git", "-t", "f"],
        &["repo/x.swp", "repo/keep"],
    );
    // core.excludesFile names another global file.
    home_file(&t, "my-excludes", "*.swp\n");
    let excludes = t.home().join("my-excludes");
    home_file(
        &t,
        ".gitconfig",
        &format!("[core]\n\texcludesFile = {}\n", git_path(&excludes)),
    );
    assert_everywhere(
        &t,
        &["-t", "f"],
        &["repo/x.bak", "repo/keep", "plain/y.bak"],
    );
}

#[test]
fn the_global_excludes_file_is_found_through_includes_as_git_finds_it() {
    // git follows `[include]` and `[includeIf]` when it looks for core.excludesFile (fd does
    // not): a relative path from the including file, `~/` from home; the last setting wins.
    let t = Tree::new();
    git_init(&t, ".");
    t.files(&["x.swp", "x.bak", "x.tmp", "keep"]);
    home_file(&t, "swp", "*.swp\n");
    home_file(&t, "bak", "*.bak\n");
    home_file(&t, ".gitconfig", "[include]\n\tpath = conf/one\n");
    home_file(&t, "conf/one", "[include]\n\tpath = ~/conf/two\n");
    home_file(&t, "conf/two", "[core]\n\texcludesFile = ~/swp\n");
    assert_everywhere(&t, &["-t", "f"], &["x.bak", "x.tmp", "keep"]);
    // A condition on the repository of the search path: here, and not elsewhere.
    home_file(
        &t,
        ".config/git/config",
        &format!(
            "[includeIf \"gitdir:{}/\"]\n\tpath = ~/conf/bak\n",
            git_path(&t.root())
        ),
    );
    home_file(&t, "conf/bak", "[core]\n\texcludesFile = ~/bak\n");
    fs::write(t.home().join(".gitconfig"), "[user]\n\tname = x\n").unwrap();
    assert_everywhere(&t, &["-t", "f"], &["x.swp", "x.tmp", "keep"]);
    home_file(
        &t,
        ".config/git/config",
        "[includeIf \"onbranch:no-such-branch\"]\n\tpath = ~/conf/bak\n",
    );
    assert_everywhere(&t, &["-t", "f"], &["x.swp", "x.bak", "x.tmp", "keep"]);
}

#[test]
fn include_if_is_evaluated_in_each_repository() {
    // git evaluates `includeIf` in the repository that holds each path: a nested repository
    // on another branch, or under another git directory, may get another excludes file.
    let t = Tree::new();
    git_init(&t, ".");
    git_init(&t, "nested");
    let head = t.root().join("nested/.git/HEAD");
    fs::write(&head, "ref: refs/heads/dev\n").unwrap();
    t.files(&["x.bak", "x.swp", "nested/x.bak", "nested/x.swp"]);
    home_file(&t, "bak", "*.bak\n");
    home_file(&t, "swp", "*.swp\n");
    home_file(&t, "conf/bak", "[core]\n\texcludesFile = ~/bak\n");
    home_file(&t, "conf/swp", "[core]\n\texcludesFile = ~/swp\n");
    home_file(
        &t,
        ".gitconfig",
        "[includeIf \"onbranch:dev\"]\n\tpath = conf/bak\n",
    );
    assert_everywhere(&t, &["-t", "f"], &["x.bak", "x.swp", "nested/x.swp"]);
    assert_everywhere(&t, &["-t", "f", ".", "nested"], &["nested/x.swp"]);
    home_file(
        &t,
        ".gitconfig",
        "[include]\n\tpath = conf/swp\n[includeIf \"gitdir:nested/.git\"]\n\tpath = conf/bak\n",
    );
    assert_everywhere(&t, &["-t", "f"], &["x.bak", "nested/x.swp"]);
}

#[test]
fn global_excludes_are_anchored_at_the_repositorys_root() {
    // git matches core.excludesFile's rules relative to the root of the repository holding
    // the path, like .git/info/exclude: not relative to the search path.
    let t = Tree::new();
    git_init(&t, ".");
    git_init(&t, "nested");
    t.files(&["sub/x", "sub/y", "nested/sub/x", "nested/sub/y"]);
    home_file(&t, ".config/git/ignore", "/sub/x\n");
    assert_everywhere(&t, &["-t", "f"], &["sub/y", "nested/sub/y"]);
    assert_everywhere(&t, &["-t", "f", ".", "sub"], &["sub/y"]);
    assert_everywhere(
        &t,
        &["-t", "f", ".", &typed("nested/sub")],
        &["nested/sub/y"],
    );
}

#[test]
fn dot_ignore_fdignore_and_ffindignore_need_no_repository() {
    let t = Tree::new();
    t.files(&["a.tmp", "b.fd", "c.ffind", "sub/d.tmp", "sub/e.fd", "keep"])
        .write(".ignore", "*.tmp\n")
        .write(".fdignore", "*.fd\n")
        .write("sub/.ffindignore", "*.ffind\ne.fd\n")
        .files(&["sub/f.ffind"]);
    assert_everywhere(&t, &["-t", "f"], &["c.ffind", "keep"]);
    // Not version control: --no-ignore-vcs keeps them; -I drops them.
    assert_everywhere(&t, &["--no-ignore-vcs", "-t", "f"], &["c.ffind", "keep"]);
    assert_everywhere(
        &t,
        &["-I", "-t", "f"],
        &[
            "a.tmp",
            "b.fd",
            "c.ffind",
            "sub/d.tmp",
            "sub/e.fd",
            "sub/f.ffind",
            "keep",
        ],
    );
}

/// An ignore file in UTF-16 (Windows PowerShell 5.1's `>`) is named with its
/// encoding and how to mend it, exit 1, its rules not applied (they were read as garbage, and
/// a global file skipped without a word): in the tree, given by `--ignore-file`, ffind's
/// global file, and git's global excludes.
#[test]
fn a_utf16_ignore_file_is_named_with_its_encoding() {
    let t = Tree::new();
    t.files(&["a.log", "b.txt"]);
    let rules = utf16("*.log\r\n", false, true);
    let all = ["a.log", "b.txt"];
    let says = |file: &str| {
        format!("ffind: {file}: {UTF16}: its rules were not applied; {SAVE_AS_UTF8}\n")
    };
    let check = |args: &[&str], shown: &str| {
        let run = t.run(args);
        assert_eq!(run.code, 1, "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr, says(shown), "{args:?}");
        run.assert_listing(&all);
    };
    fs::write(t.root().join(".ignore"), &rules).unwrap();
    check(&["-t", "f"], ".ignore");
    fs::remove_file(t.root().join(".ignore")).unwrap();
    let outside = t.home().join("ign.txt");
    fs::write(&outside, &rules).unwrap();
    check(
        &["-t", "f", "--ignore-file", outside.to_str().unwrap()],
        outside.to_str().unwrap(),
    );
    for (dir, args) in [
        ("ffind", &["-t", "f"][..]),
        ("git", &["-t", "f", "--no-require-git"]),
    ] {
        let file = t.home().join(".config").join(dir).join("ignore");
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        fs::write(&file, &rules).unwrap();
        check(args, file.to_str().unwrap());
        fs::remove_file(&file).unwrap();
    }
}

#[test]
fn precedence_between_ignore_files() {
    let t = Tree::new();
    git_init(&t, "");
    t.files(&[
        "a.log", "b.log", "c.log", "d.log", "x.txt", "y.txt", "one.md", "keep.md",
    ])
    .write(".gitignore", "*.log\n!x.txt\n!keep.md\n")
    .write(".ignore", "!b.log\n!c.log\n!d.log\n")
    .write(".fdignore", "c.log\nd.log\n")
    .write(".ffindignore", "!d.log\n")
    .write(".git/info/exclude", "x.txt\ny.txt\n!z.txt\n")
    .write("extra-ignore", "*.md\n");
    home_file(&t, ".config/git/ignore", "y.txt\nz.txt\n");
    t.files(&["z.txt"]);
    // .ffindignore over .fdignore over .ignore over .gitignore over .git/info/exclude over the
    // global excludes over --ignore-file.
    assert_everywhere(
        &t,
        &["--ignore-file", "extra-ignore", "-t", "f"],
        &[
            "b.log",
            "d.log",
            "x.txt",
            "z.txt",
            "keep.md",
            "extra-ignore",
        ],
    );
}

#[test]
fn nested_gitignores_deeper_rules_win() {
    let t = Tree::new();
    git_init(&t, "");
    t.files(&[
        "x.tmp",
        "sub/x.tmp",
        "sub/deeper/x.tmp",
        "sub/deeper/y.tmp",
        "build/keep",
        "build/other",
    ])
    .write(".gitignore", "*.tmp\nbuild/\n!build/keep\n")
    .write("sub/.gitignore", "!*.tmp\n")
    .write("sub/deeper/.gitignore", "x.tmp\n");
    // A file cannot be brought back from inside an ignored directory (as in git).
    assert_everywhere(&t, &["-t", "f"], &["sub/x.tmp", "sub/deeper/y.tmp"]);
}

#[test]
fn gitignore_pattern_syntax() {
    let t = Tree::new();
    git_init(&t, "");
    t.write(
        ".gitignore",
        "# a comment, not a pattern\n\
         /root-only\n\
         docs/*.md\n\
         **/gen\n\
         a/**/z\n\
         cache/\n\
         *.o\n\
         !keep.o\n\
         \\!bang\n\
         \\#hash\n\
         spaces\\ \n",
    )
    .files(&[
        "# a comment, not a pattern",
        "root-only",
        "sub/root-only",
        "docs/a.md",
        "docs/deep/b.md",
        "sub/docs/c.md",
        "gen/g1",
        "sub/gen/g2",
        "a/z",
        "a/b/z",
        "a/b/c/z",
        "a/zz",
        "cache/c1",
        "sub/cache",
        "x.o",
        "keep.o",
        "!bang",
        "#hash",
        "spaces ",
        "spaces",
    ]);
    assert_everywhere(
        &t,
        &["-t", "f"],
        &[
            "# a comment, not a pattern",
            "sub/root-only",
            "docs/deep/b.md",
            "sub/docs/c.md",
            "a/zz",
            "sub/cache",
            "keep.o",
            "spaces",
        ],
    );
}

#[test]
fn rules_above_the_search_path_apply() {
    let t = Tree::new();
    git_init(&t, "repo");
    t.write("repo/.gitignore", "*.log\n/sub/top-anchored\n")
        .write("repo/sub/.gitignore", "*.tmp\n")
        .write("repo/.ignore", "*.bak\n")
        .files(&[
            "repo/sub/x.log",
            "repo/sub/x.tmp",
            "repo/sub/x.bak",
            "repo/sub/top-anchored",
            "repo/sub/deeper/top-anchored",
            "repo/sub/keep",
        ]);
    let all = [
        "repo/sub/deeper",
        "repo/sub/deeper/top-anchored",
        "repo/sub/keep",
    ];
    assert_everywhere(&t, &[".", &typed("repo/sub")], &all);
    assert_everywhere(&t, &[".", &typed("repo/sub/")], &all);
    // From inside the repository, results relative to it.
    assert_everywhere(
        &t,
        &["--base-directory", "repo/sub"],
        &["deeper", "deeper/top-anchored", "keep"],
    );
    let abs = t.root().join("repo").join("sub");
    let abs = abs.to_str().unwrap();
    let with_abs: Vec<String> = ["deeper", "deeper/top-anchored", "keep"]
        .iter()
        .map(|p| format!("{abs}/{p}"))
        .collect();
    let with_abs: Vec<&str> = with_abs.iter().map(String::as_str).collect();
    assert_everywhere(&t, &[".", abs], &with_abs);
    // --no-ignore-parent drops the rules above, but the search path is still in a
    // repository: its own .gitignore applies.
    assert_everywhere(
        &t,
        &["--no-ignore-parent", ".", &typed("repo/sub")],
        &[
            "repo/sub/x.log",
            "repo/sub/x.bak",
            "repo/sub/top-anchored",
            "repo/sub/deeper",
            "repo/sub/deeper/top-anchored",
            "repo/sub/keep",
        ],
    );
}

#[test]
fn dot_ignore_above_the_search_path_applies_outside_repositories() {
    let t = Tree::new();
    t.write(".ignore", "*.tmp\n")
        .write(".gitignore", "*.o\n")
        .files(&["sub/a.tmp", "sub/b.o", "sub/c"]);
    assert_everywhere(&t, &[".", "sub"], &["sub/b.o", "sub/c"]);
    assert_everywhere(&t, &["--no-require-git", ".", "sub"], &["sub/c"]);
    assert_everywhere(
        &t,
        &["--no-ignore-parent", ".", "sub"],
        &["sub/a.tmp", "sub/b.o", "sub/c"],
    );
}

#[test]
fn gitignore_rules_stop_at_a_repository_root() {
    let t = Tree::new();
    git_init(&t, "outer");
    git_init(&t, "outer/inner");
    t.write(".gitignore", "*.c\n")
        .write("outer/.gitignore", "*.tmp\n")
        .files(&[
            "outer/a.tmp",
            "outer/a.c",
            "outer/inner/b.tmp",
            "outer/inner/b.c",
        ]);
    // Neither the .gitignore above the outer repository nor the outer one reach into the
    // inner repository.
    assert_everywhere(
        &t,
        &["-t", "f"],
        &["outer/a.c", "outer/inner/b.tmp", "outer/inner/b.c"],
    );
    // The same with --no-require-git, where fd lets the outer rules in (the ignore crate only
    // looks for repositories when it requires one).
    assert_everywhere(
        &t,
        &["--no-require-git", "-t", "f"],
        &["outer/a.c", "outer/inner/b.tmp", "outer/inner/b.c"],
    );
}

#[test]
fn ignored_directories_are_not_entered() {
    let t = Tree::new();
    t.write(".ignore", "node_modules/\n")
        .write("node_modules/.ignore", "!*\n")
        .files(&["node_modules/pkg/index.js", "src/index.js"]);
    assert_everywhere(&t, &["index"], &["src/index.js"]);
    assert_everywhere(
        &t,
        &["-I", "index"],
        &["node_modules/pkg/index.js", "src/index.js"],
    );
}

#[test]
fn ignore_file_option() {
    let t = Tree::new();
    t.files(&["a.txt", "b.txt", "c.md", "sub/a.txt"])
        .write("ignore-a", "a.txt\n")
        .write("unignore-a", "!a.txt\n")
        .write("ignore-md", "*.md\n");
    assert_everywhere(&t, &["--ignore-file", "ignore-a", "-e", "txt"], &["b.txt"]);
    assert_everywhere(
        &t,
        &[
            "--ignore-file",
            "ignore-a",
            "--ignore-file",
            "ignore-md",
            "-t",
            "f",
            "-E",
            "*ignore*",
        ],
        &["b.txt"],
    );
    // The last one given wins.
    assert_everywhere(
        &t,
        &[
            "--ignore-file",
            "ignore-a",
            "--ignore-file",
            "unignore-a",
            "-e",
            "txt",
        ],
        &["a.txt", "b.txt", "sub/a.txt"],
    );
    assert_everywhere(
        &t,
        &[
            "--ignore-file",
            "unignore-a",
            "--ignore-file",
            "ignore-a",
            "-e",
            "txt",
        ],
        &["b.txt"],
    );
    // As in fd, an explicit ignore file applies even with -I and -u.
    assert_everywhere(&t, &["-u", "--ignore-file", "ignore-md", "-e", "md"], &[]);
    // Lowest precedence: any ignore file in the tree overrides it.
    t.write(".ignore", "!c.md\n");
    assert_everywhere(&t, &["--ignore-file", "ignore-md", "-e", "md"], &["c.md"]);
    let run = t.run(&["--ignore-file", "no-such-file"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("no-such-file"), "{}", run.stderr);
}

#[test]
fn ffind_global_ignore_file() {
    let t = Tree::new();
    t.files(&["a.log", "b.txt", "sub/c.log"]);
    home_file(&t, ".config/ffind/ignore", "*.log\n");
    assert_everywhere(&t, &["-t", "f"], &["b.txt"]);
    assert_everywhere(&t, &["-I", "-t", "f"], &["a.log", "b.txt", "sub/c.log"]);
    assert_everywhere(&t, &["--no-ignore-vcs", "-t", "f"], &["b.txt"]);
    // The last applies: .ignore files override it.
    t.write("sub/.ignore", "!c.log\n");
    assert_everywhere(&t, &["-t", "f"], &["b.txt", "sub/c.log"]);
    // $HOME/.config when XDG_CONFIG_HOME is not set (on Unix: on Windows the file is in
    // %APPDATA%, windows.rs).
    if cfg!(windows) {
        return;
    }
    let mut c = t.cmd(&["-t", "f"]);
    c.env_remove("XDG_CONFIG_HOME");
    let run = crate::fixture::Run::from(c.output_ok());
    assert_listing(&run, &["-t", "f"], &["b.txt", "sub/c.log"]);
    // Elsewhere when XDG_CONFIG_HOME says so.
    let mut c = t.cmd(&["-t", "f"]);
    c.env("XDG_CONFIG_HOME", t.root().join("sub"));
    let run = crate::fixture::Run::from(c.output_ok());
    assert_listing(&run, &["-t", "f"], &["a.log", "b.txt", "sub/c.log"]);
}

#[cfg(unix)]
#[test]
fn a_relative_xdg_config_home_is_ignored() {
    // The XDG spec: a relative path there is invalid and ignored (fd ignores it too), so a
    // tree's own `.conf/ffind/ignore` cannot hide its files from a search run in it.
    let t = Tree::new();
    t.files(&["a.log", "b.txt"]);
    t.write(".conf/ffind/ignore", "*.log\n");
    home_file(&t, ".config/ffind/ignore", "*.txt\n");
    for xdg in [".conf", "./.conf"] {
        let mut c = t.cmd(&["-t", "f"]);
        c.env("XDG_CONFIG_HOME", xdg);
        let run = crate::fixture::Run::from(c.output_ok());
        assert_listing(&run, &["-t", "f", "with XDG_CONFIG_HOME", xdg], &["a.log"]);
    }
}

#[test]
fn overriding_flags_take_back_the_defaults() {
    let t = Tree::new();
    git_init(&t, "repo");
    t.write("repo/.gitignore", "*.o\n")
        .write(".ignore", "*.tmp\n")
        .files(&["repo/a.o", "repo/b.tmp", "repo/c"]);
    home_file(&t, ".config/ffind/ignore", "c\n");
    assert_everywhere(&t, &["-t", "f"], &[]);
    assert_everywhere(&t, &["--no-global-ignore-file", "-t", "f"], &["repo/c"]);
    assert_everywhere(&t, &["--no-ignore-vcs", "-t", "f"], &["repo/a.o"]);
    assert_everywhere(&t, &["--no-ignore-vcs", "--ignore-vcs", "-t", "f"], &[]);
    assert_everywhere(
        &t,
        &["--no-ignore-parent", "-t", "f", ".", "repo"],
        &["repo/b.tmp"],
    );
    assert_everywhere(
        &t,
        &[
            "--no-ignore-parent",
            "--ignore-parent",
            "-t",
            "f",
            ".",
            "repo",
        ],
        &[],
    );
}

#[cfg(unix)]
#[test]
fn a_worktrees_git_file_leads_to_the_repositorys_exclude_file() {
    let t = Tree::new();
    if !t.git_init("main") {
        return;
    }
    let git = |args: &[&str], dir: &str| {
        let mut c = std::process::Command::new("git");
        c.args(["-c", "user.name=ffind", "-c", "user.email=ffind@localhost"])
            .args(args);
        c.current_dir(t.root().join(dir)).env("HOME", t.home());
        assert!(c.output_ok().status.success(), "git {args:?}");
    };
    git(&["commit", "-q", "--allow-empty", "-m", "start"], "main");
    git(&["worktree", "add", "-q", "../wt"], "main");
    t.write("main/.git/info/exclude", "*.tmp\n")
        .files(&["wt/a.tmp", "wt/b.rs"]);
    for m in crate::methods::methods() {
        t.run(&["--method", m, ".", "wt"])
            .assert_paths(&["wt/b.rs"]);
    }
}

/// `count` files of long names in `dir` (a repository) with a `.gitignore` and a second
/// ignore file `other` beside them; the paths a search of `.` must print (`dir` too).
fn wide_repository(t: &Tree, dir: &str, count: usize, other: &str) -> Vec<String> {
    let names: Vec<String> = (0..count)
        .map(|i| format!("{dir}/a-rather-long-file-name-to-fill-the-listing-{i:05}"))
        .collect();
    let rels: Vec<&str> = names.iter().map(String::as_str).collect();
    t.files(&rels);
    git_init(t, dir);
    t.write(format!("{dir}/.gitignore"), "*-0000?\n!*-00003\n")
        .write(format!("{dir}/{other}"), "*-01*\n");
    let mut expected: Vec<String> = names
        .into_iter()
        .filter(|n| {
            let num = &n[n.len() - 5..];
            let by_gitignore = num.starts_with("0000") && num != "00003";
            let by_other = num.starts_with("01");
            !by_gitignore && !by_other
        })
        .collect();
    expected.push(dir.to_string());
    expected
}

/// A directory too large for two reads (more than two 64 KiB `getdents64` chunks) is streamed:
/// its own ignore files, `.git` included, are found by name before its entries are judged.
#[test]
fn a_huge_directory_applies_its_own_ignore_files() {
    let t = Tree::new();
    let expected = wide_repository(&t, "huge", 6000, ".ignore");
    t.files(&["huge/.hidden"]);
    let expected: Vec<&str> = expected.iter().map(String::as_str).collect();
    assert_eq!(expected.len(), 6000 - 9 - 1000 + 1);
    assert_everywhere(&t, &[], &expected);
    // The .git found by name makes huge/ a repository root: the rules above it stop there.
    t.write(".gitignore", "*-0500?\n");
    git_init(&t, ".");
    assert_everywhere(&t, &[], &expected);
}

/// A directory that does not end within a first 64 KiB chunk more than half full, though two
/// chunks would hold it, is streamed from that chunk on: its ignore files are found by name,
/// as a huge one's are, and judge every entry, the first chunk's too.
#[test]
fn a_directory_of_one_to_two_chunks_applies_its_own_ignore_files() {
    let t = Tree::new();
    // About 72 bytes a record: 1,500 of them fill a first chunk and spill into a second.
    let expected = wide_repository(&t, "mid", 1500, ".fdignore");
    let expected: Vec<&str> = expected.iter().map(String::as_str).collect();
    assert_eq!(expected.len(), 1500 - 9 - 500 + 1);
    assert_everywhere(&t, &[], &expected);
}

/// The path rules of an outside ignore file (`--ignore-file`, the global ignore file) are
/// anchored at each search path, not at the current directory as fd anchors them (fd#374): a
/// rule `src/exec` hides nothing below the search path `src` (it would name `src/src/exec`),
/// where fd hides `src/exec`; from `cwd`, it hides `../win/src/exec` below the search path
/// `../win`, which fd shows. Under every method, and fd the other way round where it is
/// installed (docs/DIFFERENCES.md).
#[cfg(unix)]
#[test]
fn an_outside_ignore_files_path_rules_are_anchored_at_each_search_path() {
    let t = Tree::new();
    t.files(&[
        "src/exec/x",
        "src/main.rs",
        "win/src/exec/y",
        "win/src/lib.rs",
        "cwd/keep",
    ]);
    t.write("outside.ignore", "src/exec\n");
    let outside = t.root().join("outside.ignore");
    let outside = outside.to_str().unwrap();
    // From the tree's root, the search path `src`: the rule would name src/src/exec.
    let at_src = ["--ignore-file", outside, "-t", "f", ".", "src"];
    assert_everywhere(&t, &at_src, &["src/exec/x", "src/main.rs"]);
    // From `cwd`, the search path `../win`: the rule names ../win/src/exec.
    let at_win = ["--ignore-file", outside, "-t", "f", ".", "../win"];
    let from_cwd = |program: &std::path::Path, extra: &[&str]| {
        let mut c = std::process::Command::new(program);
        c.args(extra)
            .args(at_win)
            .current_dir(t.root().join("cwd"))
            .stdin(std::process::Stdio::null());
        crate::fixture::clean_env(&mut c, &t.home());
        let out = c.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect();
        lines.sort();
        lines
    };
    for m in crate::methods::methods() {
        assert_eq!(
            from_cwd(&crate::fixture::bin(), &["--method", m]),
            ["../win/src/lib.rs"],
            "{m}"
        );
    }
    // fd anchors the same rule at the current directory: the other way round in both.
    if let Some(fd) = crate::fd_parity::fd() {
        let fd_src = crate::fd_parity::run_fd(&fd, &t, &at_src);
        assert_eq!(fd_src.sorted(), ["src/main.rs"], "fd: {}", fd_src.stderr);
        assert_eq!(
            from_cwd(&fd, &[]),
            ["../win/src/exec/y", "../win/src/lib.rs"],
            "fd"
        );
    }
}
