//! Faults of a job: a reader that stops reading holds every process (memory stays bounded), a
//! process that dies takes the job down with mpirun's message and a failing status rather
//! than a partial result that looks complete, and Ctrl-C (SIGINT to mpirun) ends every
//! process. Each stalls the job on purpose: results go to a FIFO this test reads when it
//! chooses.

use std::fs::File;
use std::io::Read;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::fixture::Tree;

/// 3,000 files, each printed as a 32 KB record: 96 MB of output, far more than the pipe, the
/// channels and the credits of four processes hold (and than the bound on their memory).
fn tree_with_big_records() -> (Tree, Vec<String>) {
    let t = Tree::new();
    for d in 0..30 {
        for f in 0..100 {
            t.files(&[&format!("d{d:02}/f{f:03}")]);
        }
    }
    let format = "{}".repeat(4000);
    let args = vec!["-u".into(), "--format".into(), format];
    (t, args)
}

/// A job of 4 processes writing to a FIFO that nobody reads yet; the FIFO's path.
fn stalled_job(t: &Tree, args: &[String], quiet: bool) -> (Child, std::path::PathBuf) {
    let fifo = t.home().join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let mut words: Vec<&str> = args.iter().map(String::as_str).collect();
    words.extend(["--output", fifo.to_str().unwrap(), "-j", "2"]);
    let mut cmd = crate::command(t, 4, false, &words);
    if !quiet {
        // mpirun's own messages (a process that died) are what the test wants to see.
        let mut loud = std::process::Command::new("mpirun");
        let w = crate::mpirun(4, false);
        loud.args(w[1..].iter().filter(|w| *w != "-q"))
            .arg(crate::fixture::bin())
            .arg("--mpi")
            .args(&words)
            .current_dir(t.root());
        crate::fixture::clean_env(&mut loud, &t.home());
        cmd = loud;
    }
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    (child, fifo)
}

/// The job's processes: the children of mpirun that run ffind, by rank.
fn ranks(mpirun: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // pid (comm) state ppid ...
        let after = &stat[stat.rfind(')').unwrap_or(0) + 2..];
        let ppid: u32 = after
            .split(' ')
            .nth(1)
            .and_then(|p| p.parse().ok())
            .unwrap_or(0);
        if ppid != mpirun {
            continue;
        }
        let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        let rank = env
            .split(|&b| b == 0)
            .find_map(|v| v.strip_prefix(b"OMPI_COMM_WORLD_RANK="))
            .and_then(|r| std::str::from_utf8(r).ok()?.parse().ok());
        if let Some(rank) = rank {
            out.push((rank, pid));
        }
    }
    out.sort();
    out
}

/// Waits for the job's four processes to be up (at most a minute: a hang is a failure).
fn wait_for_ranks(mpirun: u32) -> Vec<(u32, u32)> {
    let start = Instant::now();
    loop {
        let r = ranks(mpirun);
        if r.len() == 4 {
            return r;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the job did not start: {r:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits for mpirun to end (at most two minutes: a hang is a failure).
fn wait_end(child: &mut Child) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the job did not end"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat[stat.rfind(')').unwrap_or(0)..].starts_with(") Z"),
    }
}

#[test]
fn a_reader_that_stops_holds_every_process_in_bounded_memory() {
    let (t, args) = tree_with_big_records();
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let whole: usize = t.run(&words).stdout.len();
    assert!(whole > 90 << 20, "{whole} bytes");
    let (mut child, fifo) = stalled_job(&t, &args, true);
    let mut reader = File::open(&fifo).unwrap();
    let mut first = vec![0; 1 << 20];
    reader.read_exact(&mut first).unwrap();
    let ranks = wait_for_ranks(child.id());
    // Give the walk time to go as far as it can; however far, it cannot end.
    std::thread::sleep(Duration::from_secs(2));
    assert!(
        child.try_wait().unwrap().is_none(),
        "ended with 95 MB unread"
    );
    for (rank, pid) in &ranks {
        let rss = rss_kib(*pid);
        // About 21 MB each here (Open MPI's share included), the output held 0.5 MB of it.
        assert!(
            rss < 40 * 1024,
            "process {rank} holds {rss} KiB while stdout is stalled"
        );
    }
    let mut rest = Vec::new();
    reader.read_to_end(&mut rest).unwrap();
    let status = wait_end(&mut child);
    assert!(status.success(), "{:?}", child.wait_with_output());
    assert_eq!(first.len() + rest.len(), whole);
}

#[test]
fn a_process_that_dies_takes_the_job_down_with_a_message() {
    let (t, args) = tree_with_big_records();
    let (mut child, fifo) = stalled_job(&t, &args, false);
    let mut reader = File::open(&fifo).unwrap();
    let mut some = vec![0; 64 << 10];
    reader.read_exact(&mut some).unwrap();
    let ranks = wait_for_ranks(child.id());
    let (_, victim) = ranks[2];
    // SAFETY: kill has no preconditions; the pid is a child of our mpirun.
    unsafe { libc::kill(victim as i32, libc::SIGKILL) };
    // Keep reading, so that process 0 never waits on us.
    let drain = std::thread::spawn(move || {
        let mut rest = Vec::new();
        let _ = reader.read_to_end(&mut rest);
    });
    let status = wait_end(&mut child);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!status.success(), "a job missing a process must fail");
    assert!(
        stderr.contains("signal 9"),
        "mpirun says which process died: {stderr}"
    );
    drain.join().unwrap();
    for (_, pid) in ranks {
        assert!(gone(pid), "process {pid} outlived the job");
    }
}

#[test]
fn ctrl_c_to_mpirun_stops_every_process() {
    let (t, args) = tree_with_big_records();
    let (mut child, fifo) = stalled_job(&t, &args, true);
    let mut reader = File::open(&fifo).unwrap();
    let mut some = vec![0; 64 << 10];
    reader.read_exact(&mut some).unwrap();
    let ranks = wait_for_ranks(child.id());
    // SAFETY: kill has no preconditions; the pid is our own child, mpirun.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let drain = std::thread::spawn(move || {
        let mut rest = Vec::new();
        let _ = reader.read_to_end(&mut rest);
    });
    let status = wait_end(&mut child);
    assert!(!status.success(), "an interrupted job does not succeed");
    drain.join().unwrap();
    for (rank, pid) in ranks {
        let start = Instant::now();
        while !gone(pid) {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "process {rank} still runs"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}
