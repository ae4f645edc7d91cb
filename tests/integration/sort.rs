//! `--sort path|depth|none`: the same bytes in the same order under every method and
//! concurrency; --max-results and -1 take the first results of the sorted order. On Windows
//! too (names sort by component there as well: `a\b` before `a-b`).

#[cfg(unix)]
use crate::fixture::Spawn;
use crate::fixture::{native, Run, Tree};
use crate::methods::methods;

/// Runs `args` under every method at `-j 1`, `-j 3` and `-j 8` and asserts each printed
/// exactly `want` (in that order, byte for byte; its paths written with `/`, see [`native`]),
/// with exit code 0 and nothing on stderr.
fn assert_ordered(t: &Tree, args: &[&str], want: &[u8]) {
    let want = String::from_utf8(want.to_vec()).unwrap();
    let mut records = String::new();
    for record in want.split_inclusive(['\n', '\0']) {
        let end = record.len() - 1;
        records.push_str(&native(&record[..end]));
        records.push_str(&record[end..]);
    }
    let want = records.as_bytes();
    for method in methods() {
        for j in ["1", "3", "8"] {
            let mut full = vec!["--method", method, "-j", j];
            full.extend_from_slice(args);
            let run: Run = t.run(&full);
            assert!(
                run.code == 0 && run.stderr.is_empty(),
                "{full:?}: exit code {}, stderr {}",
                run.code,
                run.stderr
            );
            assert!(
                run.stdout == want,
                "{full:?}: printed\n{}\nexpected\n{}",
                String::from_utf8_lossy(&run.stdout),
                String::from_utf8_lossy(want)
            );
        }
    }
}

/// Names that tell component order from byte order ("a/b" before "a-b"), and case.
pub fn tree() -> Tree {
    let t = Tree::new();
    t.files(&[
        "a/b",
        "a/c/d",
        "a-b",
        "a.txt",
        "B",
        "z/y/x/w",
        "m/n",
        ".hidden/h",
    ]);
    t
}

#[test]
fn sort_path_orders_component_by_component() {
    let t = tree();
    let want = "B\na/\na/b\na/c/\na/c/d\na-b\na.txt\nm/\nm/n\nz/\nz/y/\nz/y/x/\nz/y/x/w\n";
    assert_ordered(&t, &["--sort", "path"], want.as_bytes());
    // With -0 the "./" stays, as in fd.
    let nul: String = want.lines().map(|l| format!("./{l}\0")).collect();
    assert_ordered(&t, &["--sort=path", "-0"], nul.as_bytes());
}

#[test]
fn sort_depth_puts_shallower_entries_first() {
    let t = tree();
    let want = "B\na/\na-b\na.txt\nm/\nz/\na/b\na/c/\nm/n\nz/y/\na/c/d\nz/y/x/\nz/y/x/w\n";
    assert_ordered(&t, &["--sort", "depth"], want.as_bytes());
}

#[test]
fn limits_apply_after_sorting() {
    let t = tree();
    assert_ordered(
        &t,
        &["--sort", "path", "--max-results", "3"],
        b"B\na/\na/b\n",
    );
    assert_ordered(&t, &["--sort", "depth", "-1"], b"B\n");
    assert_ordered(&t, &["--sort", "path", "-t", "f", "-1"], b"B\n");
    assert_ordered(
        &t,
        &["--sort", "path", "--max-results", "2", "-H", "h"],
        b".hidden/\n.hidden/h\n",
    );
}

#[test]
fn sort_covers_several_search_paths_and_filters() {
    let t = tree();
    assert_ordered(
        &t,
        &["--sort", "path", "-t", "f", ".", "z", "m"],
        b"m/n\nz/y/x/w\n",
    );
    assert_ordered(
        &t,
        &["--sort", "path", "", ".", "a"],
        b"./B\n./a/\n./a/b\n./a/c/\n./a/c/d\n./a-b\n./a.txt\n./m/\n./m/n\n./z/\n./z/y/\n\
          ./z/y/x/\n./z/y/x/w\na/b\na/c/\na/c/d\n",
    );
}

#[test]
fn sort_none_is_the_unsorted_listing() {
    let t = tree();
    let sorted = t.run(&["--sort", "path"]);
    let none = t.run(&["--sort", "none"]);
    assert_eq!(none.code, 0, "{}", none.stderr);
    assert_eq!(none.sorted(), sorted.sorted());
}

#[test]
fn quiet_with_sort_prints_nothing_and_says_whether_anything_matched() {
    let t = tree();
    let run = t.run(&["-q", "--sort", "path", "n"]);
    assert_eq!((run.code, run.stdout.len()), (0, 0), "{}", run.stderr);
    let run = t.run(&["-q", "--sort", "path", "nothing-like-this"]);
    assert_eq!((run.code, run.stdout.len()), (1, 0), "{}", run.stderr);
}

#[test]
fn many_batches_come_out_in_one_order() {
    // More than a 64 KiB batch of output, spread over directories that different workers
    // read: the order must not depend on which batch reached the printer first.
    let t = Tree::new();
    let mut names = Vec::new();
    for d in 0..20 {
        for f in 0..150 {
            names.push(format!("dir{d:02}/file-with-a-longish-name-{f:03}"));
        }
    }
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    t.files(&refs);
    let mut want = String::new();
    for d in 0..20 {
        want.push_str(&format!("dir{d:02}/\n"));
        for f in 0..150 {
            want.push_str(&format!("dir{d:02}/file-with-a-longish-name-{f:03}\n"));
        }
    }
    assert!(want.len() > 64 * 1024);
    assert_ordered(&t, &["--sort", "path"], want.as_bytes());
}

#[cfg(unix)]
#[test]
fn sorted_output_reports_a_full_disk_and_stops_quietly_on_a_closed_pipe() {
    let t = tree();
    if std::path::Path::new("/dev/full").exists() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = t.cmd(&["--sort", "path"]).stdout(full).output_ok();
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "ffind: cannot write to standard output: No space left on device\n"
        );
    }
    // The reader takes one line and leaves: the rest is not written, and nothing is said.
    // More output than a pipe holds (64 KiB), so that ffind does meet the closed pipe.
    let names: Vec<String> = (0..2000)
        .map(|i| format!("many/a-file-name-long-enough-to-fill-the-pipe-{i:04}"))
        .collect();
    t.files(&names.iter().map(String::as_str).collect::<Vec<_>>());
    let run =
        t.run_script(r#""$FFIND" --sort path -u | head -1; echo "status ${PIPESTATUS[0]}" >&2"#);
    assert_eq!(String::from_utf8_lossy(&run.stdout), ".hidden/\n");
    assert_eq!(run.stderr, "status 0\n");
}
