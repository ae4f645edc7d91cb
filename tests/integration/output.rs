//! How results are shown when piped: byte-exact names, "./" before a leading '-',
//! `--format`, `--path-separator`, `--color=always` with LS_COLORS or fd's theme,
//! `--hyperlink`, `-l`, `--json`, and escaped names in messages. Terminal behaviour is in
//! `terminal.rs`. Every check that walks runs under every method at `-j 1` and `-j 8`.
//!
//! On Windows: the `./` guard, `--path-separator`, LS_COLORS, JSON's escapes and messages;
//! what needs names that are not UTF-8, links, mode bits, `ls`, or Unix metadata stays Unix's
//! (`windows.rs` has the separators of Windows).

#[cfg(unix)]
use std::collections::BTreeMap;
#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;
#[cfg(unix)]
use std::os::unix::fs::MetadataExt;
#[cfg(unix)]
use std::process::Command;

use crate::fd_parity::methods_agree;
#[cfg(unix)]
use crate::fixture::clean_env;
use crate::fixture::{native, Run, Spawn, Tree};

/// The run of `args` (every method agreeing), its sorted lines (split on `sep`) as bytes.
fn lines_by(t: &Tree, args: &[&str], sep: u8) -> Vec<Vec<u8>> {
    let run = methods_agree(t, args).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(run.code, 0, "{args:?}: stderr {}", run.stderr);
    run.sorted_by(sep)
}

fn lines(t: &Tree, args: &[&str]) -> Vec<Vec<u8>> {
    lines_by(t, args, b'\n')
}

fn sorted(items: &[&[u8]]) -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = items.iter().map(|i| i.to_vec()).collect();
    v.sort();
    v
}

/// [`sorted`] of paths written with `/` (see [`native`]).
fn sorted_paths(paths: &[&str]) -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = paths.iter().map(|p| native(p).into_bytes()).collect();
    v.sort();
    v
}

#[cfg(unix)]
fn hostile() -> Tree {
    let t = Tree::new();
    t.raw_file(".", b"esc\x1b[31mred")
        .raw_file(".", b"cr\rline")
        .raw_file(".", b"bel\x07")
        .raw_file(".", b"del\x7f")
        .raw_file(".", "c1\u{9b}x".as_bytes())
        .raw_file(".", b"bad\xff")
        .files(&["plain.txt"]);
    t
}

#[cfg(unix)]
#[test]
fn piped_names_are_byte_exact() {
    let t = hostile();
    let want = sorted(&[
        b"esc\x1b[31mred",
        b"cr\rline",
        b"bel\x07",
        b"del\x7f",
        "c1\u{9b}x".as_bytes(),
        b"bad\xff",
        b"plain.txt",
    ]);
    assert_eq!(lines_by(&t, &["-0"], 0).len(), 7);
    let zero: Vec<Vec<u8>> = lines_by(&t, &["-0", "--strip-cwd-prefix"], 0);
    assert_eq!(zero, want);
    // Even with an output style that is not the plain path, piped names stay raw.
    assert_eq!(lines(&t, &["--format", "{}"]), want);
    assert_eq!(lines(&t, &["--color=never", "--path-separator", "/"]), want);
}

#[test]
fn results_starting_with_a_dash_get_dot_slash() {
    let t = Tree::new();
    t.files(&["-rf", "-d/x", "sub/-x", "ok"]);
    let want = sorted_paths(&["./-rf", "./-d/", "./-d/x", "sub/", "sub/-x", "ok"]);
    assert_eq!(lines(&t, &[]), want);
    assert_eq!(
        lines(&t, &["--color=always", "-e", "zzz"]),
        Vec::<Vec<u8>>::new()
    );
    // The guard is part of the path: templates and JSON see it.
    let (dx, sx) = (native("./-d/x"), native("sub/-x"));
    assert_eq!(
        lines(&t, &["--format", "<{}> {//}", "x$"]),
        sorted(&[
            format!("<{dx}> ./-d").as_bytes(),
            format!("<{sx}> sub").as_bytes()
        ])
    );
    assert_eq!(lines(&t, &["--format", "{/}", "rf"]), sorted(&[b"-rf"]));
    // A search path that begins with '-' is guarded too (fd 10.5 guards only "-").
    assert_eq!(
        lines(&t, &[".", "--", "-d"]),
        sorted_paths(&["./-d/x"]),
        "explicit search path"
    );
    assert_eq!(lines(&t, &["rf", "."]), sorted(&[b"./-rf"]));
    assert_eq!(lines_by(&t, &["-0", "rf"], 0), sorted(&[b"./-rf"]));
}

#[cfg(unix)]
#[test]
fn format_placeholders_and_braces() {
    let t = Tree::new();
    t.files(&["a/b/c.tar.gz", "top.rs"])
        .raw_file("a", b"x\xff\n.y");
    assert_eq!(
        lines_by(
            &t,
            &["-0", "--format", "{}|{/}|{//}|{.}|{/.}|{{}}", "-tf"],
            0
        ),
        sorted(&[
            b"./a/b/c.tar.gz|c.tar.gz|./a/b|./a/b/c.tar|c.tar|{}",
            b"./top.rs|top.rs|.|./top|top|{}",
            b"./a/x\xff\n.y|x\xff\n.y|./a|./a/x\xff\n|x\xff\n|{}",
        ])
    );
    // Unknown placeholders are text; directories get no trailing slash.
    assert_eq!(
        lines(&t, &["--format", "{x} {}", "-td"]),
        sorted(&[b"{x} a", b"{x} a/b"])
    );
    let r = t.run(&["--format", "{}", "-l"]);
    assert_eq!(r.code, 2, "--format with -l is a usage error");
}

/// `--path-separator` replaces every separator the system writes (`\` on Windows, where, as in
/// fd, it must be one byte: "In some shells on Windows, '/' is automatically expanded").
#[test]
fn path_separator_replaces_every_slash() {
    let t = Tree::new();
    t.files(&["a/b/c"]);
    if cfg!(windows) {
        let run = t.run(&["--path-separator", "::"]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains("exactly one byte"), "{}", run.stderr);
        assert_eq!(
            lines(&t, &["--path-separator", ":"]),
            sorted(&[b"a:", b"a:b:", b"a:b:c"])
        );
    } else {
        assert_eq!(
            lines(&t, &["--path-separator", "::"]),
            sorted(&[b"a::", b"a::b::", b"a::b::c"])
        );
    }
    // The "./" before a name that begins with '-' is a path's too (on Unix, where a separator
    // of two bytes is taken).
    #[cfg(unix)]
    {
        t.files(&["-x"]);
        assert_eq!(
            lines(&t, &["--path-separator", "::"]),
            sorted(&[b"a::", b"a::b::", b"a::b::c", b".::-x"])
        );
    }
    assert_eq!(
        lines(&t, &["--path-separator", "\\", "--format", "{//} {/}", "c"]),
        sorted(&[b"a\\b c"])
    );
}

/// fd's default theme (LS_COLORS unset): directories 38;5;81, executables bold 38;5;203,
/// links 38;5;203, dangling links 16 on 203, "*.rs" 38;5;48; the directory part and trailing
/// slash painted separately.
#[cfg(unix)]
#[test]
fn color_always_with_fds_default_theme() {
    let t = Tree::new();
    t.files(&["dir/plain", "dir/main.rs"])
        .write("dir/run", "")
        .chmod("dir/run", 0o755)
        .link("plain", "dir/link")
        .link("nowhere", "dir/dangling");
    let dir = "\x1b[38;5;81m";
    let end = "\x1b[0m";
    let want = [
        format!("{dir}dir{end}{dir}/{end}"),
        format!("{dir}dir/{end}plain"),
        format!("{dir}dir/{end}\x1b[38;5;48mmain.rs{end}"),
        format!("{dir}dir/{end}\x1b[1;38;5;203mrun{end}"),
        format!("{dir}dir/{end}\x1b[38;5;203mlink{end}"),
        format!("{dir}dir/{end}\x1b[48;5;203;38;5;16mdangling{end}"),
    ];
    let want = sorted(&want.iter().map(|s| s.as_bytes()).collect::<Vec<_>>());
    assert_eq!(lines(&t, &["--color=always"]), want);
    assert_eq!(lines(&t, &["-c", "always"]), want);
    // NO_COLOR only turns off automatic color.
    let mut c = t.cmd(&["--color=always"]);
    c.env("NO_COLOR", "1");
    assert_eq!(Run::from(c.output_ok()).sorted_by(b'\n'), want);
}

#[test]
fn color_from_ls_colors() {
    let t = Tree::new();
    t.files(&["d/x.rs", "d/y.txt"]);
    let run = |ls_colors: &str| {
        let mut c = t.cmd(&["--color=always", "-tf"]);
        c.env("LS_COLORS", ls_colors);
        Run::from(c.output_ok()).sorted_by(b'\n')
    };
    let d = native("d/");
    assert_eq!(
        run("di=01;34:*.rs=32"),
        sorted(&[
            format!("\x1b[1;34m{d}\x1b[0m\x1b[32mx.rs\x1b[0m").as_bytes(),
            format!("\x1b[1;34m{d}\x1b[0my.txt").as_bytes()
        ])
    );
    // Set but empty: the classic dircolors defaults (as lscolors and fd have them).
    assert_eq!(
        run(""),
        sorted(&[
            format!("\x1b[1;34m{d}\x1b[0mx.rs").as_bytes(),
            format!("\x1b[1;34m{d}\x1b[0my.txt").as_bytes()
        ])
    );
}

#[cfg(unix)]
#[test]
fn hyperlinks_point_at_absolute_percent_encoded_urls() {
    let t = Tree::new();
    t.raw_file("sub", b"sp ace\x1b");
    let root = t.root();
    let root = root.as_os_str().to_str().unwrap();
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_owned())
        .unwrap_or_default();
    let want = sorted(&[
        format!("\x1b]8;;file://{host}{root}/sub\x1b\\sub/\x1b]8;;\x1b\\").as_bytes(),
        format!("\x1b]8;;file://{host}{root}/sub/sp%20ace%1B\x1b\\sub/sp ace\x1b\x1b]8;;\x1b\\")
            .as_bytes(),
    ]);
    assert_eq!(lines(&t, &["--hyperlink=always"]), want);
    // "auto" links when colors are on; piped, they are off.
    assert_eq!(
        lines(&t, &["--hyperlink"]),
        sorted(&[b"sub/", b"sub/sp ace\x1b"])
    );
    // A search path with "./" and ".." is made absolute without resolving "..".
    let r = lines(&t, &["--hyperlink=always", ".", "./sub/../sub", "-tf"]);
    let want = format!("\x1b]8;;file://{host}{root}/sub/../sub/sp%20ace%1B\x1b\\");
    assert!(
        r[0].starts_with(want.as_bytes()),
        "{:?}",
        String::from_utf8_lossy(&r[0])
    );
}

/// Each `-l` line is what `ls -l -h -d` prints for the same path (in the C locale and UTC),
/// for a tree of one owner with fewer than ten links per entry.
#[cfg(unix)]
#[test]
fn list_details_reads_as_ls_l() {
    let t = Tree::new();
    t.write("small", "hello")
        .write("run.sh", "#!/bin/sh\n")
        .chmod("run.sh", 0o4755)
        .files(&["sub/inner", "-dash"])
        .link("small", "link")
        .link("nowhere", "dangling");
    std::fs::write(t.root().join("big"), vec![0u8; 1_500_000]).unwrap();
    // An old file shows its year instead of the time of day.
    let old = std::fs::File::options()
        .write(true)
        .open(t.root().join("small"))
        .unwrap();
    old.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_500_000_000))
        .unwrap();
    for follow in [false, true] {
        // With -L too, each link is shown as `ls -l` shows it: itself, and where it points.
        let args: &[&str] = if follow { &["-l", "-L"] } else { &["-l"] };
        compare_with_ls(&t, args);
    }
    // Every method lists the same lines.
    methods_agree(&t, &["-l"]).unwrap_or_else(|e| panic!("{e}"));
}

#[cfg(unix)]
fn compare_with_ls(t: &Tree, args: &[&str]) {
    let out = {
        let mut c = t.cmd(args);
        c.env("TZ", "UTC");
        Run::from(c.output_ok())
    };
    assert_eq!(out.code, 0, "{}", out.stderr);
    let ours = out.sorted();
    let paths: Vec<&str> = ours
        .iter()
        .map(|l| l.split_once(" ./").unwrap().1)
        .collect();
    let paths: Vec<String> = paths
        .iter()
        .map(|p| format!("./{}", p.split(" -> ").next().unwrap()))
        .collect();
    let mut ls = Command::new("ls");
    ls.args(["-l", "-h", "-d", "--"])
        .args(&paths)
        .current_dir(t.root())
        .env("LC_ALL", "C")
        .env("TZ", "UTC");
    clean_env(&mut ls, &t.home());
    let theirs = Run::from(ls.output_ok());
    let mut theirs = theirs.sorted();
    // ls aligns columns over its whole list; compare with single spaces.
    let squeeze = |l: &String| l.split_whitespace().collect::<Vec<_>>().join(" ");
    theirs = theirs.iter().map(squeeze).collect();
    theirs.sort();
    let mut ours: Vec<String> = ours.iter().map(squeeze).collect();
    ours.sort();
    assert_eq!(ours, theirs);
    assert_eq!(ours.len(), 8);
    assert!(ours.iter().any(|l| l.contains(" 1.5M ")), "{ours:?}");
    assert!(ours.iter().any(|l| l.contains(" 2017 ./small")), "{ours:?}");
    assert!(ours.iter().any(|l| l.starts_with("-rwsr-xr-x")), "{ours:?}");
    assert!(
        ours.iter()
            .any(|l| l.starts_with("lrwxrwxrwx") && l.ends_with("./link -> small")),
        "{args:?}: {ours:?}"
    );
}

#[cfg(unix)]
#[derive(Debug, PartialEq)]
struct Expected {
    kind: &'static str,
    size: u64,
    nlink: u64,
    inode: u64,
    mode: String,
}

#[cfg(unix)]
#[test]
fn json_lines_parse_back_to_the_tree() {
    let t = Tree::new();
    t.write("a/file.txt", "12345")
        .files(&["-dash"])
        .link("a/file.txt", "link")
        .raw_file("a", b"bad\xff\n");
    let mut want: BTreeMap<Vec<u8>, Expected> = BTreeMap::new();
    for path in every_entry(&t.root()) {
        let rel = path.strip_prefix(t.root()).unwrap().as_os_str().as_bytes();
        let shown = if rel.starts_with(b"-") {
            [b"./", rel].concat()
        } else {
            rel.to_vec()
        };
        let md = path.symlink_metadata().unwrap();
        let kind = if md.is_dir() {
            "directory"
        } else if md.is_symlink() {
            "symlink"
        } else {
            "file"
        };
        want.insert(
            shown,
            Expected {
                kind,
                size: md.size(),
                nlink: md.nlink(),
                inode: md.ino(),
                mode: format!("{:04o}", md.mode() & 0o7777),
            },
        );
    }
    for args in [
        &["--json"][..],
        &[
            "--json",
            "--json-fields",
            "size,mode,nlink,inode,mtime,owner",
        ],
    ] {
        let with_fields = args.len() > 1;
        let mut got: BTreeMap<Vec<u8>, Expected> = BTreeMap::new();
        for line in lines(&t, args) {
            let v: serde_json::Value = serde_json::from_slice(&line)
                .unwrap_or_else(|e| panic!("not JSON: {e}: {:?}", String::from_utf8_lossy(&line)));
            let obj = v.as_object().unwrap();
            let path = match (obj.get("path"), obj.get("path_bytes")) {
                (Some(p), None) => p.as_str().unwrap().as_bytes().to_vec(),
                (None, Some(b)) => b
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|n| n.as_u64().unwrap() as u8)
                    .collect(),
                _ => panic!("exactly one of path and path_bytes: {obj:?}"),
            };
            let kind = match obj["type"].as_str().unwrap() {
                "file" => "file",
                "directory" => "directory",
                "symlink" => "symlink",
                other => panic!("type {other}"),
            };
            if !with_fields {
                assert_eq!(obj.len(), 2, "{obj:?}");
                let w = &want[&path];
                assert_eq!(w.kind, kind, "{path:?}");
                got.insert(
                    path,
                    Expected {
                        kind,
                        size: w.size,
                        nlink: w.nlink,
                        inode: w.inode,
                        mode: w.mode.clone(),
                    },
                );
                continue;
            }
            let mtime = obj["mtime"].as_str().unwrap();
            assert!(mtime.ends_with('Z') && mtime.contains('T'), "{mtime}");
            assert_eq!(obj["uid"].as_u64(), Some(unsafe_uid() as u64));
            assert!(obj.contains_key("user") && obj.contains_key("group"));
            got.insert(
                path,
                Expected {
                    kind,
                    size: obj["size"].as_u64().unwrap(),
                    nlink: obj["nlink"].as_u64().unwrap(),
                    inode: obj["inode"].as_u64().unwrap(),
                    mode: obj["mode"].as_str().unwrap().to_owned(),
                },
            );
        }
        assert_eq!(got, want, "{args:?}");
    }
    assert_eq!(t.run(&["--json-fields", "size"]).code, 2, "needs --json");
}

/// JSON strings escape, besides what JSON must (C0, quotes, backslashes), every character the
/// terminal listing escapes (DEL, C1, invisible and direction-changing ones), piped too: the
/// decoded path is the same, and no line of NDJSON can act on a terminal it is shown on.
#[test]
fn json_escapes_what_could_act_on_a_terminal_and_decodes_to_the_name() {
    let t = Tree::new();
    let names = [
        "del\u{7f}",
        "c1\u{85}\u{9b}x",
        "rlo\u{202e}txt",
        "zw\u{200b}\u{feff}",
        "ok\u{e9}",
    ];
    for name in names {
        t.files(&[name]);
    }
    let got = lines(&t, &["--json"]);
    let want = sorted(&[
        br#"{"path":"c1\u0085\u009bx","type":"file"}"#,
        br#"{"path":"del\u007f","type":"file"}"#,
        "{\"path\":\"ok\u{e9}\",\"type\":\"file\"}".as_bytes(),
        br#"{"path":"rlo\u202etxt","type":"file"}"#,
        br#"{"path":"zw\u200b\ufeff","type":"file"}"#,
    ]);
    assert_eq!(
        got,
        want,
        "{:?}",
        got.iter()
            .map(|l| String::from_utf8_lossy(l))
            .collect::<Vec<_>>()
    );
    let mut decoded: Vec<String> = got
        .iter()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_slice(l).unwrap();
            v["path"].as_str().unwrap().to_owned()
        })
        .collect();
    decoded.sort();
    let mut names = names.map(String::from).to_vec();
    names.sort();
    assert_eq!(decoded, names);
}

/// Under `-L`, a link that cannot be followed (dangling) is listed as a link, and both `-l`
/// and `--json-fields` describe it by its own metadata, as `ls -l` does; a link that can be
/// followed has its target's metadata in JSON (its `type` is the target's too).
#[cfg(unix)]
#[test]
fn a_dangling_link_under_follow_is_described_by_its_own_metadata() {
    let t = Tree::new();
    t.write("target", "12345")
        .link("nowhere-at-all", "dangling")
        .link("target", "good");
    let own = std::fs::symlink_metadata(t.root().join("dangling")).unwrap();
    let target = std::fs::metadata(t.root().join("target")).unwrap();
    let fields = "size,mode,nlink,inode,mtime,owner";
    let got = lines(&t, &["-L", "--json", "--json-fields", fields]);
    let by_path: BTreeMap<String, serde_json::Value> = got
        .iter()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_slice(l).unwrap();
            (v["path"].as_str().unwrap().to_owned(), v)
        })
        .collect();
    let dangling = &by_path["dangling"];
    assert_eq!(dangling["type"], "symlink", "{dangling}");
    assert_eq!(dangling["size"], own.size(), "{dangling}");
    assert_eq!(dangling["inode"], own.ino(), "{dangling}");
    assert_eq!(dangling["mode"], "0777", "{dangling}");
    assert_eq!(dangling["nlink"], 1, "{dangling}");
    assert_eq!(dangling["uid"], own.uid(), "{dangling}");
    assert!(dangling["mtime"].is_string(), "{dangling}");
    let good = &by_path["good"];
    assert_eq!(good["type"], "file", "{good}");
    assert_eq!(
        (good["size"].as_u64(), good["inode"].as_u64()),
        (Some(5), Some(target.ino()))
    );
    // -l -L shows the same link as itself.
    let listed = lines(&t, &["-L", "-l"]);
    let line = listed
        .iter()
        .map(|l| String::from_utf8_lossy(l).into_owned())
        .find(|l| l.ends_with("./dangling -> nowhere-at-all"))
        .unwrap();
    assert!(line.starts_with("lrwxrwxrwx 1 "), "{line}");
    assert!(line.contains(&format!(" {} ", own.size())), "{line}");
}

/// Every entry below `dir`, links not followed.
#[cfg(unix)]
fn every_entry(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.symlink_metadata().unwrap().is_dir() {
            out.extend(every_entry(&path));
        }
        out.push(path);
    }
    out
}

#[cfg(unix)]
fn unsafe_uid() -> u32 {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() }
}

#[test]
fn messages_escape_names_so_one_error_is_one_line() {
    let t = Tree::new();
    let name = "no\x1b[2Jsuch\ndir";
    let r = t.run(&[".", name]);
    assert_eq!(r.code, 1);
    let why = crate::fixture::error_text(&std::fs::metadata(t.root().join(name)).unwrap_err());
    assert_eq!(r.stderr, format!("ffind: no\\x1B[2Jsuch\\x0Adir: {why}\n"));
}
