//! One wide directory under the walker-crate methods: the check that what a crate
//! lists is beneath the root reads and holds the directory's listing once, whatever `-j`. (It
//! was once per thread: on 200,000 files, `--method ignore -j 64` took 1.4 GB and 14.6 s
//! against 103 MB and 1.1 s at `-j 2`.)

use crate::fixture::{need, Tree};
use crate::methods::{methods_with, methods_without};
use crate::syscalls::count_syscalls;

/// 10,000 names in one directory (links to one file: creating files is ten times slower):
/// about seven 64 KiB `getdents64` chunks, and a listing of about 1.3 MB once held.
fn wide() -> Tree {
    let t = Tree::new();
    let dir = t.root().join("wide");
    std::fs::create_dir(&dir).unwrap();
    let file = dir.join("file-number-0");
    std::fs::write(&file, "").unwrap();
    for i in 1..10_000 {
        std::fs::hard_link(&file, dir.join(format!("file-number-{i}"))).unwrap();
    }
    t
}

/// The peak resident memory (bytes) of one run of `--method method -j j` in the tree, as
/// `ffind --bench` measures it. (Not measured here: a child spawned by this large, multi-threaded
/// test process is charged that process's peak, since `ru_maxrss` survives `execve`; bench's
/// children start from the small bench process.)
fn peak(t: &Tree, method: &str, j: &str) -> u64 {
    let json = t.root().parent().unwrap().join("bench.json");
    let json_arg = json.to_str().unwrap();
    let run = t.run(&[
        "--bench",
        "--methods",
        method,
        "-j",
        j,
        "-r",
        "1",
        "-w",
        "0",
        "-u",
        "--export-json",
        json_arg,
        "wide",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    json["results"][0]["memory_usage_byte"][0].as_u64().unwrap()
}

#[test]
fn a_wide_directory_is_listed_and_held_once_at_any_concurrency() {
    if let Some(emulated) = crate::fixture::emulated() {
        eprintln!("{emulated}: its translation buffers grow with the threads, and take the memory measured");
        return;
    }
    let t = wide();
    // The parallel walker crates: a one-thread method, or ffind's own reader, cannot
    // multiply the work.
    let methods: Vec<&str> = methods_with("parallel")
        .into_iter()
        .filter(|m| methods_without("own-reader").contains(m))
        .collect();
    for &m in &methods {
        let (two, many) = (peak(&t, m, "2"), peak(&t, m, "64"));
        // 62 more threads cost their stacks' touched pages and their output batches (about
        // 2 MiB in all); a copy of the listing per thread would cost over 1 MiB each.
        assert!(
            many <= two + (16 << 20),
            "{m}: {many} bytes at -j 64 against {two} at -j 2"
        );
    }
    if !need("strace") {
        return;
    }
    for m in methods {
        let calls = |j| {
            let c = count_syscalls(&t, &["-u", "--method", m, "-j", j]);
            c.get("getdents64").copied().unwrap_or(0)
        };
        let (two, many) = (calls("2"), calls("64"));
        // One listing is about seven calls: two threads may each read one chunk more or less.
        assert!(
            many <= two + 4,
            "{m}: {many} getdents64 calls at -j 64 against {two} at -j 2"
        );
    }
}
