//! The rest of fd's command line: --strip-cwd-prefix's "=", the last of two opposing flags
//! winning (-u included), a deleted working directory, fd's global ignore file, --show-errors,
//! --ignore-contain, --relative-path, -C and the find-style depth aliases. Walks run under
//! every method ([`assert_everywhere`]). On Windows too, but for a deleted working directory
//! (Windows does not delete a directory in use) and links.

use std::fs;

use crate::fd_parity::assert_everywhere;
#[cfg(unix)]
use crate::fd_parity::methods_agree;
use crate::fixture::{canonical, native, Tree};

#[test]
fn strip_cwd_prefix_takes_a_value_only_after_equals() {
    let t = Tree::new();
    t.files(&["never", "x"]);
    // As in fd: the word after a bare --strip-cwd-prefix is the pattern.
    assert_everywhere(&t, &["--strip-cwd-prefix", "never"], &["never"]);
    assert_everywhere(&t, &["--strip-cwd-prefix=never", "x"], &["./x"]);
    assert_eq!(t.run(&["-0", "x"]).stdout, b"./x\0");
    assert_eq!(t.run(&["-0", "--strip-cwd-prefix", "x"]).stdout, b"x\0");
    let run = t.run(&["--strip-cwd-prefix=sometimes"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

/// A tree with a hidden directory and an entry named in `.ignore`.
fn hidden_and_ignored() -> Tree {
    let t = Tree::new();
    t.write(".ignore", "ign\n").files(&["a", "ign/f", ".hid/f"]);
    t
}

#[test]
fn the_last_of_opposing_flags_wins_unrestricted_included() {
    let t = hidden_and_ignored();
    let all = &[".hid", ".hid/f", ".ignore", "a", "ign", "ign/f"];
    // -u is -H and -I at its place on the command line.
    assert_everywhere(&t, &["-u", "--no-hidden"], &["a", "ign", "ign/f"]);
    assert_everywhere(&t, &["-u", "--ignore"], &[".hid", ".hid/f", ".ignore", "a"]);
    assert_everywhere(&t, &["-u", "--no-hidden", "--ignore"], &["a"]);
    assert_everywhere(&t, &["--no-hidden", "-u"], all);
    assert_everywhere(&t, &["--ignore", "--no-hidden", "-uu"], all);
    assert_everywhere(&t, &["-H", "--no-hidden"], &["a"]);
    assert_everywhere(
        &t,
        &["--no-hidden", "-H"],
        &[".hid", ".hid/f", ".ignore", "a"],
    );
    assert_everywhere(&t, &["-I", "--ignore"], &["a"]);
    assert_everywhere(&t, &["-u", "-I", "--no-hidden"], &["a", "ign", "ign/f"]);
}

#[test]
fn the_last_of_max_results_and_one_wins() {
    let t = Tree::new();
    t.files(&["a", "b", "c"]);
    for (args, n) in [
        (&["--max-results", "3", "-1"][..], 1),
        (&["-1", "--max-results", "2"][..], 2),
    ] {
        let run = t.run(args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        assert_eq!(run.sorted().len(), n, "{args:?}");
    }
}

#[test]
fn relative_path_overrides_absolute_path_and_the_other_way_round() {
    let t = Tree::new();
    t.files(&["d/f"]);
    let abs = t.root().join("d/f");
    let abs = abs.to_str().unwrap();
    assert_everywhere(&t, &["-a", "--relative-path", "f"], &["d/f"]);
    assert_everywhere(&t, &["--relative-path", "-a", "f"], &[abs]);
}

#[test]
fn short_c_is_base_directory_and_find_style_depth_aliases_work() {
    let t = Tree::new();
    t.files(&["top/1/2/3"]);
    assert_everywhere(&t, &["-C", "top"], &["1", "1/2", "1/2/3"]);
    assert_everywhere(&t, &["--mindepth", "3"], &["top/1/2", "top/1/2/3"]);
    assert_everywhere(&t, &["--maxdepth", "2"], &["top", "top/1"]);
}

#[test]
fn show_errors_is_accepted_and_errors_are_shown_anyway() {
    let t = Tree::new();
    t.files(&["d/f"]);
    assert_everywhere(&t, &["--show-errors"], &["d", "d/f"]);
    for args in [
        &["--show-errors", ".", "d", "nope"][..],
        &[".", "d", "nope"],
    ] {
        let run = t.run(args);
        // A missing search path among valid ones: said, and exit 1, as find does.
        assert_eq!(run.code, 1, "{args:?}");
        let not_found = crate::fixture::not_found();
        assert_eq!(run.stderr, format!("ffind: nope: {not_found}\n"));
        assert_eq!(run.sorted(), [native("d/f")]);
    }
}

#[test]
fn fd_global_ignore_file_applies_when_ffind_has_none() {
    let t = Tree::new();
    t.files(&["keep", "secret", "private"]);
    let fd_dir = t.home().join(".config/fd");
    fs::create_dir_all(&fd_dir).unwrap();
    fs::write(fd_dir.join("ignore"), "secret\n").unwrap();
    assert_everywhere(&t, &[], &["keep", "private"]);
    assert_everywhere(
        &t,
        &["--no-global-ignore-file"],
        &["keep", "private", "secret"],
    );
    assert_everywhere(&t, &["-I"], &["keep", "private", "secret"]);
    // ffind's own file, when there is one, is the only global ignore file read.
    let ffind_dir = t.home().join(".config/ffind");
    fs::create_dir_all(&ffind_dir).unwrap();
    fs::write(ffind_dir.join("ignore"), "private\n").unwrap();
    assert_everywhere(&t, &[], &["keep", "secret"]);
}

#[cfg(unix)]
#[test]
fn a_deleted_working_directory_is_no_error_with_absolute_search_paths() {
    let t = Tree::new();
    t.files(&["d/f"]);
    let root = t.root();
    let d = root.join("d");
    let d = d.to_str().unwrap();
    for method in crate::methods::methods() {
        for (args, want) in [
            (format!(". {d}"), format!("{d}/f\n")),
            (format!("-a . {d}"), format!("{d}/f\n")),
            (format!("-p '/d/f$' {d}"), format!("{d}/f\n")),
            (format!("--search-path {d} f"), format!("{d}/f\n")),
        ] {
            let script = format!(
                "mkdir gone && cd gone && rmdir ../gone && exec \"$FFIND\" --method {method} {args}"
            );
            let run = t.run_script(&script);
            assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{method} {args}");
            assert_eq!(
                String::from_utf8_lossy(&run.stdout),
                want,
                "{method} {args}"
            );
        }
    }
    // Where the working directory is needed, it is an error that says so.
    for args in ["", ". d", "-a . d"] {
        let script = format!("mkdir gone && cd gone && rmdir ../gone && exec \"$FFIND\" {args}");
        let run = t.run_script(&script);
        assert_eq!(run.code, 2, "{args}: {}", run.stderr);
        assert_eq!(
            run.stderr, "ffind: cannot read the current directory: No such file or directory\n",
            "{args}"
        );
    }
}

#[cfg(unix)]
#[test]
fn ignore_contain_skips_marked_directories_under_every_method() {
    let t = Tree::new();
    t.files(&[
        "cache/CACHEDIR.TAG",
        "cache/sub/x",
        "keep/y",
        "deep/.h/CACHEDIR.TAG",
        "other/.nobackup",
        "other/z",
        "file",
    ])
    .dirs(&["marker-dir/CACHEDIR.TAG"])
    .link("nowhere", "dangling/CACHEDIR.TAG")
    .link("../cache", "via/link");
    let plain = &["deep", "file", "keep", "keep/y", "via", "via/link"];
    let mut with_dangling = plain.to_vec();
    with_dangling.extend(["dangling", "dangling/CACHEDIR.TAG"]);
    with_dangling.sort();
    // The directory is not printed; an entry of any kind counts, a dangling link does not
    // (fd's Path::exists), and a marker deeper down does not mark the directories above.
    assert_everywhere(
        &t,
        &[
            "--ignore-contain",
            "CACHEDIR.TAG",
            "--ignore-contain",
            ".nobackup",
        ],
        &with_dangling,
    );
    // Followed links are directories like any other.
    let run = methods_agree(
        &t,
        &[
            "-L",
            "--ignore-contain",
            "CACHEDIR.TAG",
            "--ignore-contain",
            ".nobackup",
        ],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let got = crate::fd_parity::listing(&run);
    assert!(
        got.contains(&"via".to_string()) && !got.iter().any(|p| p.starts_with("via/link")),
        "a followed link to a marked directory is skipped: {got:?}"
    );
    // A search path holding the marker is skipped whole, as in fd 10.5; one below it is not
    // (the directories above a search path are not checked).
    assert_everywhere(&t, &["--ignore-contain", "CACHEDIR.TAG", ".", "cache"], &[]);
    assert_everywhere(
        &t,
        &["--ignore-contain", "CACHEDIR.TAG", ".", "cache/sub"],
        &["cache/sub/x"],
    );
    let run = t.run(&["--ignore-contain", "a/b"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[test]
fn ignore_contain_agrees_with_fd() {
    let Some(fd) = crate::fd_parity::fd() else {
        eprintln!("skipped: no fd");
        return;
    };
    let t = Tree::new();
    t.files(&["c/CACHEDIR.TAG", "c/s/x", "k/y", "n/.h/CACHEDIR.TAG"]);
    #[cfg(unix)]
    t.link("nowhere", "dl/CACHEDIR.TAG");
    for args in [
        &["--ignore-contain", "CACHEDIR.TAG"][..],
        &["-u", "--ignore-contain", "CACHEDIR.TAG"],
        &["--ignore-contain", "s"],
        &["--ignore-contain", "CACHEDIR.TAG", ".", "c"],
        &["--ignore-contain", "CACHEDIR.TAG", ".", "c/s", "k"],
    ] {
        let ours = t.run(args);
        let theirs = crate::fd_parity::run_fd(&fd, &t, args);
        assert_eq!(ours.sorted(), theirs.sorted(), "{args:?}");
    }
}

#[test]
fn exact_matches_the_whole_name_literally() {
    let t = Tree::new();
    // "A.foo" in a directory of its own: beside "a.foo", Windows' file systems would make them
    // one file.
    t.files(&[
        "a.foo",
        "up/A.foo",
        "aa.foo",
        "a.food",
        "sub/a.foo",
        "axfoo",
    ]);
    // Literal (the '.' is no wildcard), whole name, smart case.
    assert_everywhere(
        &t,
        &["--exact", "a.foo"],
        &["up/A.foo", "a.foo", "sub/a.foo"],
    );
    assert_everywhere(&t, &["--exact", "A.foo"], &["up/A.foo"]);
    // An empty pattern matches no name; --and patterns are exact too.
    assert_everywhere(&t, &["--exact", ""], &[]);
    assert_everywhere(&t, &["--exact", "a.foo", "--and", "a"], &[]);
    // With --full-path, the whole path.
    let root = canonical(&t.root());
    let full = root.join("sub").join("a.foo");
    assert_everywhere(
        &t,
        &["-p", "--exact", full.to_str().unwrap()],
        &["sub/a.foo"],
    );
    for conflict in [&["--exact", "-g", "a"][..], &["--exact", "-F", "a"]] {
        assert_eq!(t.run(conflict).code, 2, "{conflict:?}");
    }
    // fd 10.5 has --exact.
    if let Some(fd) = crate::fd_parity::fd_since((10, 5)) {
        for args in [
            &["--exact", "a.foo"][..],
            &["--exact", "a.foo", "--and", "a"],
        ] {
            let ours = t.run(args);
            let theirs = crate::fd_parity::run_fd(&fd, &t, args);
            assert_eq!(ours.sorted(), theirs.sorted(), "{args:?}");
        }
    }
}

#[test]
fn a_search_path_that_begins_with_a_dash_prints_as_dot_slash() {
    let t = Tree::new();
    t.files(&["-/foo", "-d/x"]);
    // fd 10.5 prints "./-/foo"; ffind also guards "-d" (fd prints "-d/x").
    assert_everywhere(&t, &[".", "-"], &["./-/foo"]);
    assert_everywhere(&t, &[".", "--", "-d"], &["./-d/x"]);
    if let Some(fd) = crate::fd_parity::fd_since((10, 5)) {
        let ours = t.run(&[".", "-"]);
        let theirs = crate::fd_parity::run_fd(&fd, &t, &[".", "-"]);
        assert_eq!(ours.sorted(), theirs.sorted());
    }
}

/// fd's alias of --hyperlink, --hyper, with and without a value.
#[test]
fn hyper_is_an_alias_of_hyperlink() {
    let t = Tree::new();
    t.files(&["a"]);
    let plain = t.run(&["--hyperlink=always"]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    assert!(plain.stdout.starts_with(b"\x1b]8;;file://"));
    assert_eq!(t.run(&["--hyper=always"]).stdout, plain.stdout);
    // Given without a value it is "auto": no links when piped.
    assert_eq!(t.run(&["--hyper"]).stdout, b"a\n");
}

/// -q prints nothing, so -l has nothing to show: refused, as fd refuses it.
#[test]
fn quiet_and_list_details_conflict() {
    let t = Tree::new();
    t.files(&["a"]);
    for args in [
        &["-q", "-l"][..],
        &["-l", "-q"],
        &["--list-details", "--quiet"],
    ] {
        let run = t.run(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}");
        assert!(run.stderr.contains("cannot be used with"), "{}", run.stderr);
    }
    assert_eq!(t.run(&["-q"]).code, 0);
}

/// `-h` fits on a screen, as fd's (39 lines) does, with the everyday options; `--help` has
/// every option.
#[test]
fn short_help_is_one_screen_and_long_help_has_everything() {
    let t = Tree::new();
    let help = |flag: &str| {
        let run = t.run(&[flag]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        String::from_utf8(run.stdout).unwrap()
    };
    let (short, long) = (help("-h"), help("--help"));
    assert!(short.lines().count() <= 40, "{short}");
    for everyday in [
        "--hidden",
        "--no-ignore",
        "--extension",
        "--type",
        "--exec",
        "--exclude",
        // What a newcomer from fd comes for.
        "--sort",
        "--order",
        "--cache",
    ] {
        assert!(short.contains(everyday), "-h shows {everyday}");
    }
    for rare in [
        "--mpi",
        "--method",
        "--concurrency",
        "--json-fields",
        "--batch-size",
    ] {
        assert!(!short.contains(rare), "-h leaves out {rare}");
        assert!(long.contains(rare), "--help shows {rare}");
    }
    assert!(long.contains("Exit status"), "{long}");
}

/// `--json`'s "path" is the plain listing's without a directory's trailing '/', and `--help`
/// says so (it said they were the same).
#[test]
fn json_paths_lack_the_trailing_slash_and_the_help_says_so() {
    let t = Tree::new();
    t.files(&["dir/a"]);
    let plain = t.run(&["-t", "d"]);
    assert_eq!(
        String::from_utf8_lossy(&plain.stdout),
        native("dir/") + "\n"
    );
    let json = t.run(&["-t", "d", "--json"]);
    assert_eq!(json.stdout, b"{\"path\":\"dir\",\"type\":\"directory\"}\n");
    let help = String::from_utf8(t.run(&["--help"]).stdout).unwrap();
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains(
            "\"path\" is the path the plain listing prints without a directory's trailing '/'"
        ),
        "{help}"
    );
}
