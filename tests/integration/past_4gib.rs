//! What counts past 4 GiB stays right where `usize` has 32 bits (i686, armv7: `just release`
//! runs this suite against those archives' binaries, the armv7 one under qemu-user): sizes
//! (`-S`, `--json-fields size`, `-l`), `--cache-limit`, `--max-results`, and a memo file larger
//! than a 32-bit address space can map. Files of 5 GiB are sparse: nothing is written.

use crate::cache::memo_files;
use crate::fixture::{bin_is_32_bit, Tree};
use std::fs;

const FIVE_GIB: u64 = 5 << 30;

/// A tree with `big` (5 GiB, sparse) and `small` (3 bytes) in `d/`.
fn sized() -> Tree {
    let t = Tree::new();
    t.write("d/small", "abc");
    let big = fs::File::create(t.root().join("d/big")).unwrap();
    big.set_len(FIVE_GIB).unwrap();
    t
}

#[test]
fn sizes_past_4_gib_are_counted_in_64_bits() {
    let t = sized();
    // 5 GiB read through 32 bits would be 1 GiB: below +4gi and -4gi's side of it.
    t.run(&["-t", "f", "-S", "+4gi"]).assert_paths(&["d/big"]);
    t.run(&["-t", "f", "-S", "-4gi"]).assert_paths(&["d/small"]);
    t.run(&["-t", "f", "-S", "+5gi"]).assert_paths(&["d/big"]);
    t.run(&["-t", "f", "-S", "+5368709121b"]).assert_paths(&[]);
    t.run(&["-t", "f", "-S", "-1gi"]).assert_paths(&["d/small"]);

    let json = t.run(&["-t", "f", "--json", "--json-fields", "size", "big"]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    assert_eq!(
        String::from_utf8_lossy(&json.stdout),
        "{\"path\":\"d/big\",\"type\":\"file\",\"size\":5368709120}\n"
    );

    let listed = t.run(&["-t", "f", "-l", "big"]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let line = String::from_utf8_lossy(&listed.stdout).into_owned();
    assert!(
        line.contains(" 5.0G ") && line.trim_end().ends_with("d/big"),
        "{line}"
    );
}

#[test]
fn the_cache_limit_counts_memo_files_past_4_gib() {
    let t = Tree::new();
    t.files(&["a/b"]);
    let memo = t.home().join("memo");
    let m = memo.to_str().unwrap();
    // Another tree's memo file of 5 GiB, the least recently used, another reader's.
    let reader = memo.join("reader-0123456789abcdef");
    fs::create_dir_all(&reader).unwrap();
    let other = reader.join("tree-0123456789abcdef.ffc");
    fs::File::create(&other).unwrap().set_len(FIVE_GIB).unwrap();
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    fs::File::options()
        .write(true)
        .open(&other)
        .unwrap()
        .set_modified(past)
        .unwrap();
    // 6000 MiB holds both files; 5120 MiB (exactly 5 GiB) does not hold them together.
    let r = t.run(&["--cache", "--cache-dir", m, "--cache-limit", "6000", "-u"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.assert_listing(&["a/", "a/b"]);
    assert_eq!(
        memo_files(&memo).len(),
        2,
        "6000 MiB holds 5 GiB and a small file"
    );
    let r = t.run(&["--cache", "--cache-dir", m, "--cache-limit", "5120", "-u"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.assert_listing(&["a/", "a/b"]);
    let left = memo_files(&memo);
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(
        !other.exists(),
        "the 5 GiB file, used longest ago, goes first"
    );
}

#[test]
fn max_results_past_4_billion_is_a_limit_like_any_other() {
    let t = Tree::new();
    t.files(&["a", "b", "c"]);
    for n in ["4294967296", "5000000000", "18446744073709551615"] {
        t.run(&["--max-results", n]).assert_paths(&["a", "b", "c"]);
        let sorted = t.run(&["--max-results", n, "--sort", "path"]);
        assert_eq!(sorted.code, 0, "{}", sorted.stderr);
        assert_eq!(String::from_utf8_lossy(&sorted.stdout), "a\nb\nc\n");
    }
    let r = t.run(&["--max-results", "18446744073709551616"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("18446744073709551616"), "{}", r.stderr);
    let two = t.run(&["--max-results", "2", "--sort", "path"]);
    assert_eq!(String::from_utf8_lossy(&two.stdout), "a\nb\n");
}

#[test]
fn a_memo_file_larger_than_the_address_space_is_refused_with_a_message() {
    let t = Tree::new();
    t.files(&["a/b", "c"]);
    let memo = t.home().join("memo");
    let m = memo.to_str().unwrap();
    let first = t.run(&["--cache", "--cache-dir", m, "-u"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let files = memo_files(&memo);
    assert_eq!(files.len(), 1);
    let size = fs::metadata(&files[0]).unwrap().len();
    // Zeros after its last whole part: a search's append cut short, as far as 64 bits can
    // tell; more than a 32-bit process can map.
    fs::File::options()
        .write(true)
        .open(&files[0])
        .unwrap()
        .set_len(FIVE_GIB)
        .unwrap();
    for round in 0..2 {
        let r = t.run(&["--cache", "--cache-dir", m, "-u"]);
        assert_eq!(r.code, 0, "round {round}: {}", r.stderr);
        r.assert_listing(&["a/", "a/b", "c"]);
        if bin_is_32_bit() && round == 0 {
            assert!(
                r.stderr.contains(&files[0].display().to_string())
                    && r.stderr.contains("too large")
                    && r.stderr.contains("written again"),
                "a 32-bit ffind says it cannot map the file: {}",
                r.stderr
            );
        } else {
            assert!(r.stderr.is_empty(), "round {round}: {}", r.stderr);
        }
    }
    if bin_is_32_bit() {
        let now = fs::metadata(&files[0]).unwrap().len();
        assert!(
            now < 1 << 20,
            "written again small: {now} bytes (was {size})"
        );
    }
}
