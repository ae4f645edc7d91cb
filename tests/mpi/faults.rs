//! Faults of a job: a reader that stops reading holds every process (memory stays bounded), a
//! process that dies takes the job down with the launcher's message and a failing status
//! rather than a partial result that looks complete, Ctrl-C (SIGINT to the launcher) ends every
//! process, and under Slurm a job step cancelled by `scancel` fails with Slurm's message. Each
//! stalls the job on purpose: results go to a FIFO this test reads when it chooses.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::fixture::Tree;
use crate::Kind;

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

/// How many bytes one process (no launcher) writes of `args` on `t`: what a whole job writes.
fn one_process_writes(t: &Tree, args: &[String]) -> usize {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    t.run(&words).stdout.len()
}

/// A job of 4 processes writing to a FIFO that nobody reads yet: the launcher, the FIFO opened
/// to read (see [`open_output`]) and the job's mark (in every process's environment, to find
/// them by).
fn stalled_job(t: &Tree, args: &[String], loud: bool, more: &[&str]) -> (Child, File, String) {
    let fifo = t.home().join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let mut words: Vec<&str> = args.iter().map(String::as_str).collect();
    words.extend(["--output", fifo.to_str().unwrap(), "-j", "2"]);
    // Loud: the launcher's own messages (a process that died) are what the test wants to see.
    let mut launch = crate::launch_words(4, false, loud);
    launch.extend(more.iter().map(|w| w.to_string()));
    let mark = format!("{}-{}", std::process::id(), fifo.display());
    let mut child = crate::command_from(t, &launch, &words)
        .env("FFIND_TEST_JOB", &mark)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let reader = open_output(&mut child, &fifo);
    (child, reader, mark)
}

/// Opens the job's FIFO to read once a process has opened it to write. A launcher that ends
/// first (as Open MPI's did when its start failed) fails the test with what it said, where an
/// open alone would wait for ever.
fn open_output(launcher: &mut Child, fifo: &Path) -> File {
    let path = fifo.to_owned();
    let (opened, open) = std::sync::mpsc::channel();
    std::thread::spawn(move || opened.send(File::open(path)));
    loop {
        if let Ok(file) = open.recv_timeout(Duration::from_millis(50)) {
            return file.unwrap();
        }
        if let Some(status) = launcher.try_wait().unwrap() {
            // The opening thread waits for a writer: one, so that it ends.
            let _ = OpenOptions::new()
                .write(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(fifo);
            let mut said = String::new();
            if let Some(mut err) = launcher.stderr.take() {
                let _ = err.read_to_string(&mut said);
            }
            panic!("the launcher ended ({status}) before the job opened its output: {said}");
        }
    }
}

/// The job's processes, by rank: those running ffind with the job's mark in their
/// environment (children of mpirun, of Hydra's proxy or of slurmstepd).
fn ranks(mark: &str) -> Vec<(u32, u32)> {
    let mark = format!("FFIND_TEST_JOB={mark}");
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
        if comm.trim_end() != "ffind" {
            continue;
        }
        let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        let vars: Vec<&[u8]> = env.split(|&b| b == 0).collect();
        if !vars.contains(&mark.as_bytes()) {
            continue;
        }
        let rank = [
            "OMPI_COMM_WORLD_RANK=",
            "PMI_RANK=",
            "PMIX_RANK=",
            "SLURM_PROCID=",
        ]
        .iter()
        .find_map(|name| vars.iter().find_map(|v| v.strip_prefix(name.as_bytes())))
        .and_then(|r| std::str::from_utf8(r).ok()?.parse().ok());
        if let Some(rank) = rank {
            out.push((rank, pid));
        }
    }
    out.sort();
    out
}

/// Waits for the job's four processes to be up (at most a minute: a hang is a failure).
fn wait_for_ranks(mark: &str) -> Vec<(u32, u32)> {
    let start = Instant::now();
    loop {
        let r = ranks(mark);
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
    if crate::skip() {
        return;
    }
    let (t, args) = tree_with_big_records();
    let whole = one_process_writes(&t, &args);
    assert!(whole > 90 << 20, "{whole} bytes");
    let (mut child, mut reader, mark) = stalled_job(&t, &args, false, &[]);
    let mut first = vec![0; 1 << 20];
    reader.read_exact(&mut first).unwrap();
    let ranks = wait_for_ranks(&mark);
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

/// How a faulted job ended: the launcher's status, what it wrote (stderr, then stdout, where
/// Hydra writes its reports: the results go to the FIFO), and how many bytes of results came.
struct Ended {
    status: std::process::ExitStatus,
    said: String,
    read: usize,
}

/// Starts a stalled job on `t` with `args`, the launcher's words and `more`, reads a little
/// of it, does `fault` to it (given the launcher's pid and the job's processes by rank) while
/// the rest is read, and says how it ended once every process is gone (a hang, or a process
/// left running, fails).
fn fault(
    t: &Tree,
    args: &[String],
    loud: bool,
    more: &[&str],
    fault: impl FnOnce(u32, &[(u32, u32)]),
) -> Ended {
    let (mut child, mut reader, mark) = stalled_job(t, args, loud, more);
    let mut some = vec![0; 64 << 10];
    reader.read_exact(&mut some).unwrap();
    let ranks = wait_for_ranks(&mark);
    fault(child.id(), &ranks);
    // Keep reading, so that process 0 never waits on us for long, but at a pace (64 KiB a
    // millisecond at most: the whole takes 1.5 s) that no launcher's fault outruns: a job
    // drained at full speed can write its last byte in the milliseconds its launcher takes to
    // pass a signal on, and then what was stopped and what ended look alike.
    let drain = std::thread::spawn(move || {
        let mut chunk = vec![0; 64 << 10];
        let mut read = 0;
        while let Ok(n @ 1..) = reader.read(&mut chunk) {
            read += n;
            std::thread::sleep(Duration::from_millis(1));
        }
        read
    });
    let status = wait_end(&mut child);
    let out = child.wait_with_output().unwrap();
    let read = some.len() + drain.join().unwrap();
    for (rank, pid) in ranks {
        let start = Instant::now();
        while !gone(pid) {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "process {rank} outlived the job"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let said = [out.stderr, out.stdout].concat();
    Ended {
        status,
        said: String::from_utf8_lossy(&said).into_owned(),
        read,
    }
}

#[test]
fn a_process_that_dies_takes_the_job_down_with_a_message() {
    if crate::skip() {
        return;
    }
    let (t, args) = tree_with_big_records();
    let ended = fault(&t, &args, true, &[], |_, ranks| {
        // SAFETY: kill has no preconditions; the pid is one of the job's processes.
        unsafe { libc::kill(ranks[2].1 as i32, libc::SIGKILL) };
    });
    let stderr = &ended.said;
    assert!(!ended.status.success(), "a job missing a process must fail");
    // What each launcher says of it.
    let says = match crate::kind() {
        Kind::OpenMpi => "signal 9",
        Kind::Hydra => "Killed (signal 9)",
        Kind::Srun => "task 2: Killed",
    };
    assert!(
        stderr.contains(says),
        "the launcher says which process died: {stderr}"
    );
}

#[test]
fn ctrl_c_to_the_launcher_stops_every_process() {
    if crate::skip() {
        return;
    }
    // srun takes one Ctrl-C for a request of the step's status, ending it only at a second
    // within a second; --quit-on-interrupt ends it at the first.
    let more: &[&str] = match crate::kind() {
        Kind::Srun => &["--quit-on-interrupt"],
        _ => &[],
    };
    let (t, args) = tree_with_big_records();
    let ended = fault(&t, &args, false, more, |launcher, _| {
        // SAFETY: kill has no preconditions; the pid is our own child, the launcher.
        unsafe { libc::kill(launcher as i32, libc::SIGINT) };
    });
    // Every process is gone (`fault` waited for that) before the whole was written: each was
    // stopped, none finished.
    let whole = one_process_writes(&t, &args);
    assert!(
        ended.read < whole,
        "an interrupted job wrote all {whole} bytes: {}",
        ended.said
    );
    // Hydra (MPICH 4.0.2's mpiexec) forwards the SIGINT to every process, and each dies of it,
    // but now and then its mpiexec exits 0 all the same, without its "BAD TERMINATION" report
    // (2 jobs in 80 here; strace shows every process "killed by SIGINT", then the proxy and
    // mpiexec "exited with 0"). That status is Hydra's race, not ffind's: the check above is
    // what holds there. The other launchers report the interruption every time.
    if crate::kind() != Kind::Hydra || ended.said.contains("BAD TERMINATION") {
        assert!(
            !ended.status.success(),
            "an interrupted job succeeded: {}",
            ended.said
        );
    }
}

#[test]
fn a_job_step_cancelled_by_slurm_fails_with_a_message() {
    if crate::skip() {
        return;
    }
    if crate::kind() != Kind::Srun {
        eprintln!("skipped: Slurm's own test (FFIND_MPI_LAUNCHER=srun)");
        return;
    }
    let name = format!("ffind-test-{}", std::process::id());
    let (t, args) = tree_with_big_records();
    let ended = fault(&t, &args, true, &[&format!("--job-name={name}")], |_, _| {
        let cancel = std::process::Command::new("scancel")
            .args(["--name", &name])
            .status()
            .unwrap();
        assert!(cancel.success(), "scancel");
    });
    let stderr = &ended.said;
    assert!(
        !ended.status.success(),
        "a cancelled job step succeeded: {stderr}"
    );
    assert!(
        stderr.contains("CANCELLED"),
        "Slurm says the step was cancelled: {stderr}"
    );
}
