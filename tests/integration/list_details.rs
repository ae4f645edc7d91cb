//! `-l`'s columns: a small search, held and sorted, is aligned as `ls -l -h` aligns
//! the same paths, byte for byte; a streamed one keeps its columns put (padded to the widest
//! so far, at least `ls`'s old widths); the path is colored as `ls` colors it, the `./` of a
//! file not as a directory; `-0 -l` is refused, as in fd.

use std::process::Command;

use crate::fixture::{clean_env, is_root, Run, Spawn, Tree};

/// A tree whose columns differ in width: a directory of 12 links, sizes of 1 to 4
/// characters, and (as root) a file of another owner and group.
fn tree() -> Tree {
    let t = Tree::new();
    for i in 0..10 {
        t.files(&[&format!("many/{i}/x")]);
    }
    t.write("small", "hi\n").write("medium", &"a".repeat(900));
    std::fs::write(t.root().join("big"), vec![0u8; 20_000]).unwrap();
    if is_root() {
        std::os::unix::fs::chown(t.root().join("small"), Some(65534), Some(65534)).unwrap();
    }
    t
}

/// ffind's run of `args` in `t`, in UTC, which must succeed.
fn ours(t: &Tree, args: &[&str]) -> Run {
    let mut c = t.cmd(&[crate::fixture::held_whole(), args].concat());
    c.env("TZ", "UTC");
    let run = Run::from(c.output_ok());
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    run
}

#[test]
fn a_small_search_is_aligned_as_ls_aligns_it() {
    let t = tree();
    for method in crate::methods::methods() {
        for extra in [&[][..], &["--sort", "path"]] {
            let args = [&["-l", "-d", "1", "--method", method][..], extra].concat();
            let run = ours(&t, &args);
            let lines: Vec<&str> = std::str::from_utf8(&run.stdout).unwrap().lines().collect();
            let paths: Vec<&str> = lines
                .iter()
                .map(|l| l.split_once(" ./").unwrap().1)
                .collect();
            let mut ls = Command::new("ls");
            ls.args(["-l", "-h", "-d", "--"])
                .args(paths.iter().map(|p| format!("./{p}")))
                .current_dir(t.root())
                .env("LC_ALL", "C")
                .env("TZ", "UTC");
            clean_env(&mut ls, &t.home());
            let theirs = Run::from(ls.output_ok());
            let mut theirs: Vec<&str> = std::str::from_utf8(&theirs.stdout)
                .unwrap()
                .lines()
                .collect();
            let mut lines = lines.clone();
            lines.sort();
            theirs.sort();
            assert_eq!(lines, theirs, "{args:?}");
            assert!(
                lines.iter().any(|l| l.starts_with("drwxr-xr-x 12 ")),
                "{lines:?}"
            );
        }
    }
}

#[test]
fn a_streamed_search_keeps_its_columns_put() {
    let t = tree();
    // A zero window streams from the first result.
    let run = ours(&t, &["-l", "--max-buffer-time", "0", "-j", "1", "-d", "1"]);
    let text = String::from_utf8(run.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    // Every line's time begins at the same column: links 2, owner and group 8, size 4.
    // The time is the 12 characters before " ./".
    let starts: Vec<usize> = lines.iter().map(|l| l.find(" ./").unwrap() - 12).collect();
    assert!(starts.windows(2).all(|w| w[0] == w[1]), "{text}");
    let user = if is_root() { "root    " } else { "" };
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("drwxr-xr-x 12 ") && l.contains(user)),
        "{text}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("-rw-r--r--  1 ")),
        "{text}"
    );
}

#[test]
fn the_path_is_colored_as_ls_colors_it() {
    let t = tree();
    let run = ours(&t, &["-l", "-c", "always", "-d", "1"]);
    let text = String::from_utf8(run.stdout).unwrap();
    // A file: no color at all, its "./" not in the directory's.
    let small = text.lines().find(|l| l.contains("small")).unwrap();
    assert!(small.ends_with(" ./small"), "{small:?}");
    // A directory: all of its path in the directory's color, "./" too.
    let many = text.lines().find(|l| l.contains("many")).unwrap();
    assert!(many.contains("m./many\x1b[0m"), "{many:?}");
    assert!(!many.contains("./\x1b"), "{many:?}");
}

#[test]
fn a_long_listing_separated_by_nul_is_refused_as_in_fd() {
    let t = tree();
    for args in [&["-0", "-l"][..], &["-l", "--print0"]] {
        let run = t.run(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty());
        assert!(
            run.stderr.contains("cannot be used with"),
            "{args:?}: {}",
            run.stderr
        );
    }
}
