//! What a plain listing costs in system calls, counted with strace: no `stat` per entry
//! (types come from `d_type`), two `getdents64` per directory, output in a few large writes,
//! and a deep tree opened in a number of calls linear in its directories under a low
//! descriptor limit. Skipped where strace is not installed (CI installs it).

use std::collections::HashMap;
use std::ffi::CString;
use std::os::unix::process::CommandExt;
use std::process::Command;

use crate::fixture::{bin, clean_env, need, Spawn, Tree};
use crate::methods::{breadth_methods, methods_with};

/// Runs ffind under `strace -f -c` in the tree; returns calls per syscall name.
pub fn count_syscalls(t: &Tree, args: &[&str]) -> HashMap<String, u64> {
    count_syscalls_limited(t, args, None)
}

/// [`count_syscalls`] with the open-file limit (soft and hard, as `ulimit -n` sets them) of
/// strace and ffind lowered to `nofile`.
fn count_syscalls_limited(t: &Tree, args: &[&str], nofile: Option<u64>) -> HashMap<String, u64> {
    let out = t.root().parent().unwrap().join("strace.txt");
    let mut c = Command::new("strace");
    if let Some(n) = nofile {
        let lim = libc::rlimit {
            rlim_cur: n,
            rlim_max: n,
        };
        // SAFETY: setrlimit is async-signal-safe and only reads `lim`, a copy owned by the
        // closure.
        unsafe {
            c.pre_exec(move || {
                if libc::setrlimit(libc::RLIMIT_NOFILE, &lim) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
    }
    c.args(["-f", "-c", "-o"])
        .arg(&out)
        .arg(bin())
        .args(args)
        .current_dir(t.root());
    clean_env(&mut c, &t.home());
    // cargo test sets LD_LIBRARY_PATH; the loader's search through it would be counted too.
    c.env_remove("LD_LIBRARY_PATH");
    let status = c.stdout(std::process::Stdio::null()).status().unwrap();
    assert!(status.success(), "ffind under strace failed: {status}");
    let text = std::fs::read_to_string(&out).unwrap();
    let mut calls = HashMap::new();
    for line in text.lines() {
        let cols: Vec<&str> = line.split_whitespace().collect();
        // "% time seconds usecs/call calls [errors] syscall"
        if cols.len() >= 5 && cols[0].parse::<f64>().is_ok() {
            if let Ok(n) = cols[3].parse::<u64>() {
                calls.insert(cols[cols.len() - 1].to_string(), n);
            }
        }
    }
    calls
}

fn stats(calls: &HashMap<String, u64>) -> u64 {
    ["stat", "lstat", "fstat", "newfstatat", "statx", "fstatat64"]
        .iter()
        .map(|s| calls.get(*s).copied().unwrap_or(0))
        .sum()
}

fn tree() -> Tree {
    let t = Tree::new();
    for d in 0..20 {
        for f in 0..50 {
            t.files(&[&format!("d{d}/file{f}")]);
        }
    }
    t
}

/// Whether the file system under `dir` marks a directory's end in `getdents64`'s last record
/// (ext4, XFS, btrfs, recent tmpfs): there ffind spares the call that would return 0.
fn marks_the_end(dir: &std::path::Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).unwrap();
    // SAFETY: a NUL-terminated path; the descriptor is closed below.
    let fd = unsafe { libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY) };
    assert!(fd >= 0);
    let mut buf = vec![0u64; 8192];
    // SAFETY: 64 KiB of writable, aligned memory.
    let n = unsafe { libc::syscall(libc::SYS_getdents64, fd, buf.as_mut_ptr(), 65536) };
    // SAFETY: our descriptor.
    unsafe { libc::close(fd) };
    let bytes = unsafe { std::slice::from_raw_parts(buf.as_ptr().cast::<u8>(), n.max(0) as usize) };
    let (mut at, mut last) = (0, 0i64);
    while at + 19 <= bytes.len() {
        last = i64::from_ne_bytes(bytes[at + 8..at + 16].try_into().unwrap());
        at += usize::from(u16::from_ne_bytes([bytes[at + 16], bytes[at + 17]]));
    }
    last == i64::MAX || last == i64::from(i32::MAX)
}

#[test]
fn a_directory_costs_one_getdents64_where_the_file_system_marks_its_end() {
    if !need("strace") {
        return;
    }
    let t = tree();
    if !marks_the_end(&t.root().join("d0")) {
        eprintln!("this file system does not mark a directory's end: not checked");
        return;
    }
    // 21 directories, each read in one call: the end marker says no more follows.
    for args in [
        &["-u", "-j", "2"][..],
        &["-j", "2"],
        &["-u", "--method", "serial"],
    ] {
        let calls = count_syscalls(&t, args);
        let getdents = calls.get("getdents64").copied().unwrap_or(0);
        // The POSIX reader (`--features portable`) reads through glibc's readdir, which
        // knows nothing of end markers: it reads on to the call that returns 0.
        let most = if cfg!(feature = "portable") {
            2 * 21
        } else {
            21
        } + 2;
        assert!(
            getdents <= most,
            "{args:?}: {getdents} getdents64 calls for 21 directories"
        );
    }
}

#[test]
fn a_plain_listing_stats_nothing_per_entry() {
    if !need("strace") {
        return;
    }
    let t = tree();
    for m in methods_with("own-reader") {
        let calls = count_syscalls(&t, &["-u", "--method", m, "-j", "2"]);
        // Start-up (the binary, the working directory, the search path) needs a handful;
        // 1,020 entries must add none.
        assert!(
            stats(&calls) < 40,
            "{m}: {} stat calls for 1,020 entries: {calls:?}",
            stats(&calls)
        );
        let getdents = calls.get("getdents64").copied().unwrap_or(0);
        assert!(
            getdents <= 2 * 21 + 2,
            "{m}: {getdents} getdents64 calls for 21 directories"
        );
        let writes = calls.get("write").copied().unwrap_or(0);
        assert!(
            writes <= 10,
            "{m}: {writes} writes for 1,020 results: output is not batched"
        );
    }
}

/// The reader built is the one asked for. The Linux reader calls `getdents64` itself, 64 KiB
/// at a time. The POSIX reader (`--features portable`, what macOS and the BSDs run) never
/// does: it reads each directory through a duplicate of its descriptor (`F_DUPFD_CLOEXEC`)
/// with glibc's `fdopendir`, which takes an `fstat` of it, and `readdir`, whose `getdents64`
/// calls are glibc's own (a 32 KiB buffer here).
#[test]
fn the_reader_built_is_the_one_asked_for() {
    if !need("strace") {
        return;
    }
    let t = tree();
    let mut c = Command::new("strace");
    c.args([
        "-f",
        "-qq",
        "-e",
        "trace=getdents64,fcntl,fstat,newfstatat,statx",
        "--",
    ])
    .arg(bin())
    // One thread reads (no call of one cut in two by another's in the trace).
    .args(["-u", "--method", "serial"])
    .current_dir(t.root());
    clean_env(&mut c, &t.home());
    let out = c.output_ok();
    assert!(out.status.success());
    let trace = String::from_utf8_lossy(&out.stderr).into_owned();
    let count = |what: &dyn Fn(&str) -> bool| trace.lines().filter(|l| what(l)).count();
    // ffind's own calls offer its whole buffer, 64 KiB or more.
    let raw = count(&|l| {
        l.contains("getdents64(")
            && l.rsplit_once(", ")
                .and_then(|(_, n)| n.split(')').next()?.parse::<u64>().ok())
                .is_some_and(|n| n >= 65536)
    });
    let duplicated = count(&|l| l.contains("F_DUPFD_CLOEXEC, 0)"));
    // fdopendir's look at the descriptor: fstat, or newfstatat/statx of "" with
    // AT_EMPTY_PATH, as glibc's version makes it.
    let looked_at =
        count(&|l| l.contains("fstat(") || (l.contains("\"\"") && l.contains("AT_EMPTY_PATH")));
    if cfg!(feature = "portable") {
        assert_eq!(raw, 0, "a raw getdents64 call:\n{trace}");
        assert!(
            duplicated >= 21,
            "{duplicated} duplicates for 21 directories:\n{trace}"
        );
        assert!(
            looked_at >= 21,
            "{looked_at} fstat calls for 21 directories:\n{trace}"
        );
    } else {
        assert!(
            raw >= 21,
            "{raw} raw getdents64 calls for 21 directories:\n{trace}"
        );
        assert_eq!(duplicated, 0, "{trace}");
        assert!(
            looked_at < 21,
            "{looked_at} fstat calls for 21 directories:\n{trace}"
        );
    }
}

#[test]
fn metadata_filters_stat_only_when_asked() {
    if !need("strace") {
        return;
    }
    let t = tree();
    let plain = stats(&count_syscalls(&t, &["-u"]));
    let sized = stats(&count_syscalls(&t, &["-u", "-S", "-1k"]));
    assert!(
        sized >= plain + 1000,
        "-S must stat each entry: {sized} vs {plain} without"
    );
}

/// Makes a chain of `depth` directories with long names below `top` (paths far past
/// PATH_MAX: std's path-based calls cannot make it), each level holding a file and a leaf
/// directory beside the next level. Returns the number of directories, `top` included.
fn deep_chain(top: &std::path::Path, depth: usize) -> usize {
    use std::os::unix::ffi::OsStrExt;
    std::fs::create_dir(top).unwrap();
    let path = CString::new(top.as_os_str().as_bytes()).unwrap();
    // SAFETY: a NUL-terminated path; every descriptor opened here is closed below.
    let mut fd = unsafe { libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY) };
    assert!(fd >= 0);
    for level in 0..depth {
        let next = CString::new(format!("level-with-a-longer-name-{level:04}")).unwrap();
        // SAFETY: a valid directory descriptor and NUL-terminated names.
        unsafe {
            assert_eq!(libc::mkdirat(fd, next.as_ptr(), 0o755), 0);
            assert_eq!(libc::mkdirat(fd, c"side".as_ptr(), 0o755), 0);
            let file = libc::openat(fd, c"f".as_ptr(), libc::O_CREAT | libc::O_WRONLY, 0o644);
            assert!(file >= 0);
            libc::close(file);
            let below = libc::openat(fd, next.as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY);
            assert!(below >= 0);
            libc::close(fd);
            fd = below;
        }
    }
    // SAFETY: our descriptor.
    unsafe { libc::close(fd) };
    1 + 2 * depth
}

#[test]
fn a_deep_tree_under_a_low_descriptor_limit_opens_each_directory_a_few_times() {
    if !need("strace") {
        return;
    }
    let t = Tree::new();
    // 300 levels of 30-byte names: 9,000-byte paths at the bottom. Under `ulimit -n 64` the
    // parents cannot all stay open; reopening each directory from the search root would cost
    // one openat per component past PATH_MAX, tens of thousands in all.
    let dirs = deep_chain(&t.root().join("deep"), 300);
    let runs = ["depth", "breadth"]
        .iter()
        .flat_map(|o| breadth_methods().into_iter().map(move |m| (m, *o)));
    for (m, order) in runs {
        let args = ["-u", "--method", m, "--order", order, ".", "deep"];
        let calls = count_syscalls_limited(&t, &args, Some(64));
        let opens = ["openat", "openat2"]
            .iter()
            .map(|s| calls.get(*s).copied().unwrap_or(0))
            .sum::<u64>();
        // Each directory once, some reopened or restored once more, and start-up's few dozen.
        assert!(
            opens <= 3 * dirs as u64 + 60,
            "{m} {order}: {opens} openat/openat2 calls for {dirs} directories under ulimit -n 64"
        );
        // Nothing lost, nothing twice.
        let normal = t.run(&args);
        assert_eq!(normal.sorted().len(), 3 * 300, "{m}");
        for limit in [64, 16] {
            let run = t.run_script(&format!(
                "ulimit -n {limit} && exec \"$FFIND\" -u --method {m} --order {order} . deep"
            ));
            assert_eq!(run.code, 0, "{m} ulimit -n {limit}: {}", run.stderr);
            assert_eq!(
                run.stdout.len(),
                normal.stdout.len(),
                "{m} ulimit -n {limit}"
            );
            assert_eq!(run.sorted(), normal.sorted(), "{m} ulimit -n {limit}");
        }
    }
}

#[test]
fn a_wide_level_under_a_low_descriptor_limit_reopens_each_parent_in_one_call() {
    if let Some(emulated) = crate::fixture::emulated() {
        eprintln!("{emulated}: strace sees its system calls");
        return;
    }
    if !need("strace") {
        return;
    }
    // 80 chains 10 levels deep: breadth first, a level's 80 parents wait for their children
    // at once, more than `ulimit -n 64` leaves descriptors for. A parent that could not stay
    // open is reopened from the search root: one openat2 for its whole path, not one openat
    // per level above it (about 4,000 in all here).
    let t = Tree::new();
    let mut files = Vec::new();
    for chain in 0..80 {
        let mut dir = format!("c{chain:02}");
        for level in 0..10 {
            dir.push_str(&format!("/l{level}"));
        }
        files.push(format!("{dir}/f"));
    }
    t.files(&files.iter().map(String::as_str).collect::<Vec<_>>());
    let dirs = 1 + 80 * 11;
    let normal = t.run(&["-u"]);
    for m in breadth_methods() {
        let args = ["-u", "--method", m, "--order", "breadth"];
        let calls = count_syscalls_limited(&t, &args, Some(64));
        let opens = ["openat", "openat2"]
            .iter()
            .map(|s| calls.get(*s).copied().unwrap_or(0))
            .sum::<u64>();
        if cfg!(feature = "portable") {
            // The POSIX reader has no openat2: one openat per component on the way, at most
            // the 11 levels of a chain for each directory.
            assert_eq!(calls.get("openat2"), None, "{m}: {calls:?}");
            assert!(
                opens <= 11 * dirs as u64 + 60,
                "{m}: {opens} openat calls for {dirs} directories under ulimit -n 64"
            );
        } else {
            assert!(
                opens <= 3 * dirs as u64 + 60,
                "{m}: {opens} openat/openat2 calls for {dirs} directories under ulimit -n 64"
            );
        }
        let run = t.run_script(&format!(
            "ulimit -n 64 && exec \"$FFIND\" -u --method {m} --order breadth"
        ));
        assert_eq!(run.code, 0, "{m}: {}", run.stderr);
        assert_eq!(run.sorted(), normal.sorted(), "{m}");
    }
}

#[test]
fn a_breadth_first_walk_grows_its_descriptor_table_before_any_thread_starts() {
    if let Some(emulated) = crate::fixture::emulated() {
        eprintln!("{emulated}: strace sees its system calls");
        return;
    }
    if !need("strace") {
        return;
    }
    let t = tree();
    // Held (the hold's thread), and with colors (the signals' thread) too.
    for args in [
        &["--order", "breadth", "-j", "2"][..],
        &["--order", "breadth", "-j", "2", "--color=always"],
    ] {
        let mut c = Command::new("strace");
        // fcntl64: a 32-bit build's (i686, run natively).
        c.args(["-f", "-qq", "-e", "trace=fcntl,fcntl64,clone,clone3", "--"])
            .arg(bin())
            .args(args)
            .current_dir(t.root());
        clean_env(&mut c, &t.home());
        let out = c.output_ok();
        assert!(out.status.success(), "{args:?}");
        let calls = String::from_utf8_lossy(&out.stderr).into_owned();
        let lines: Vec<&str> = calls.lines().collect();
        // The table grown: a descriptor duplicated to the highest it will hold (4,095, or
        // the open-file limit less one).
        let grown = lines.iter().position(|l| {
            l.split_once("F_DUPFD_CLOEXEC, ")
                .and_then(|(_, n)| n.split(')').next()?.parse::<u32>().ok())
                .is_some_and(|n| n >= 63)
        });
        let thread = lines.iter().position(|l| l.contains("clone"));
        // A grown table while threads share it waits for an RCU grace period (17 ms seen).
        assert!(
            grown.is_some() && thread.is_some() && grown < thread,
            "{args:?}: the table grew after a thread started:\n{calls}"
        );
    }
}
