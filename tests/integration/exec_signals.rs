//! `-x`/`-X` and signals: an interrupting signal reaches every command and what the
//! command started, a second one ends them all at once, and ffind never waits on a pipe that a
//! process left behind by a command holds open.
//!
//! These are hang guards, not timings: the commands sleep for a minute, and ffind must be gone
//! well before (bounds of 20 s, where it takes a fraction of a second). Each command writes its
//! pid and the pid of the `sleep` it started to a file, so that the test knows when they run
//! and can check that none of them is left.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::fixture::{bin, clean_env, have, Tree};
use crate::methods::methods;

/// How long ffind may take to end once it should (it takes milliseconds): far below the
/// minute the commands sleep.
const BOUND: Duration = Duration::from_secs(20);

/// The ways commands run: once per result one at a time (with ffind's stdin and stdout), four
/// at a time (output captured through pipes), and once for all results; with how many of the
/// three results' commands run at once.
const MODES: [(&str, &str, usize); 3] = [("-x", "1", 1), ("-x", "4", 3), ("-X", "4", 1)];

/// A tree of three files, and the file where commands note their pids.
fn three_files() -> (Tree, PathBuf) {
    let t = Tree::new();
    t.files(&["a", "b", "c"]);
    let pids = t.home().join("pids");
    (t, pids)
}

/// ffind started in the background with `args` (stdin and stderr /dev/null, stdout `out`).
fn start(t: &Tree, args: &[&str], out: Stdio) -> Child {
    t.cmd(args)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Waits until `file` has `lines` lines (written by the commands as they start), and returns
/// them; fails if ffind ends first.
fn wait_for_lines(file: &Path, lines: usize, child: &mut Child) -> Vec<String> {
    let start = Instant::now();
    loop {
        let text = fs::read_to_string(file).unwrap_or_default();
        let got: Vec<String> = text.lines().map(String::from).collect();
        if got.len() >= lines {
            return got;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("ffind ended before its commands started: {status}");
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "commands never started"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The pids written to `file` by the commands, `count` of them.
fn wait_for_pids(file: &Path, count: usize, child: &mut Child) -> Vec<i32> {
    wait_for_lines(file, count, child)
        .iter()
        .map(|l| l.parse().unwrap())
        .collect()
}

/// Waits for `child` to end, for at most [`BOUND`] (its commands sleep for a minute).
fn wait_bounded(child: &mut Child, what: &str) -> ExitStatus {
    crate::fixture::wait_or_hang(child, BOUND, &format!("{what}: ffind"))
}

/// Sends `sig` to ffind alone (not to its commands: they are not in the test's group).
fn signal(child: &Child, sig: i32) {
    // SAFETY: kill has no memory preconditions; the pid is our own unreaped child's.
    assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
}

/// Whether `pid` is a process that has not ended (a zombie has).
fn alive(pid: i32) -> bool {
    fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| s.rsplit(')').next().map(|r| r.trim_start().to_owned()))
        .is_some_and(|rest| !rest.starts_with('Z'))
}

/// The processes of `pids` still alive after a while (a killed process may take a moment to
/// go). Those that are `sleep`s are killed: a failed test leaves no sleeper behind.
fn left_alive(pids: &[i32]) -> Vec<i32> {
    let start = Instant::now();
    while pids.iter().any(|&p| alive(p)) && start.elapsed() < BOUND {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left: Vec<i32> = pids.iter().copied().filter(|&p| alive(p)).collect();
    for &pid in &left {
        if fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == "sleep") {
            // SAFETY: as in `signal`; the pid was checked to be a sleep a moment ago.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }
    left
}

#[test]
fn sigint_stops_the_commands_and_exits_130() {
    if crate::fixture::interrupts_skipped_under_qemu_i386() {
        return;
    }
    let t = Tree::new();
    t.files(&["a", "b", "c"]);
    let pids = t.home().join("pids");
    // Each command notes its pid, then sleeps as that same process.
    let script = format!("echo $$ >> '{}'; exec sleep 1000", pids.display());
    for method in methods() {
        for (mode, j, started) in MODES {
            let _ = fs::remove_file(&pids);
            let args = ["--method", method, "-j", j, mode, "sh", "-c", &script, "sh"];
            let mut child = start(&t, &args, Stdio::null());
            let sleeping = wait_for_lines(&pids, started, &mut child);
            signal(&child, libc::SIGINT);
            let name = format!("{method} -j {j} {mode}");
            let status = wait_bounded(&mut child, &name);
            assert_eq!(status.code(), Some(130), "{name}: {status}");
            for pid in sleeping {
                // Reaped by ffind before it exited: the pid is gone, not even a zombie.
                assert!(
                    !Path::new(&format!("/proc/{pid}")).exists(),
                    "{name}: command {pid} still there"
                );
            }
        }
    }
}

#[test]
fn a_signal_to_ffind_alone_reaches_what_the_commands_started() {
    if crate::fixture::interrupts_skipped_under_qemu_i386() {
        return;
    }
    // `kill -TERM` on ffind (not a Ctrl-C, which the terminal sends to the whole group): each
    // command is a shell waiting for a sleep of its own. Before, only the shell got the signal,
    // and under -j4 the sleep kept the output pipe open: ffind waited a minute for it.
    let (t, pids) = three_files();
    let script = format!(
        "sleep 60 & echo $$ >> '{0}'; echo $! >> '{0}'; wait",
        pids.display()
    );
    // One method a mode, named (sigint_stops_the_commands_and_exits_130 runs every method at
    // every mode).
    for ((mode, j, started), method) in MODES.into_iter().zip(["serial", "walkdir", "queue"]) {
        let _ = fs::remove_file(&pids);
        let args = ["--method", method, "-j", j, mode, "sh", "-c", &script, "sh"];
        let mut child = start(&t, &args, Stdio::null());
        let running = wait_for_pids(&pids, 2 * started, &mut child);
        signal(&child, libc::SIGTERM);
        let name = format!("{method} -j {j} {mode}");
        let status = wait_bounded(&mut child, &name);
        // ffind ends by the same signal.
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(libc::SIGTERM), "{name}: {status}");
        assert_eq!(
            left_alive(&running),
            Vec::<i32>::new(),
            "{name}: of {running:?}"
        );
    }
}

#[test]
fn a_second_interrupt_kills_every_command_and_what_it_started_at_once() {
    if crate::fixture::interrupts_skipped_under_qemu_i386() {
        return;
    }
    // The commands ignore SIGINT (a shell with a trap, and a sleep it put in the background,
    // which a shell starts with SIGINT ignored): the first Ctrl-C cannot end them, the second
    // must, sleep and all, and ffind must not wait for the pipe the sleep held open.
    let (t, pids) = three_files();
    let marks = t.home().join("marks");
    let script = format!(
        "trap 'echo int >> \"{1}\"' INT; sleep 60 & echo $$ >> '{0}'; echo $! >> '{0}'; \
         while kill -0 $! 2>/dev/null; do wait $!; done",
        pids.display(),
        marks.display()
    );
    // One method a mode, named (sigint_stops_the_commands_and_exits_130 runs every method at
    // every mode).
    for ((mode, j, started), method) in MODES.into_iter().zip(["rayon", "jwalk", "ignore"]) {
        let _ = fs::remove_file(&pids);
        let _ = fs::remove_file(&marks);
        let args = ["--method", method, "-j", j, mode, "sh", "-c", &script, "sh"];
        let mut child = start(&t, &args, Stdio::null());
        let running = wait_for_pids(&pids, 2 * started, &mut child);
        let name = format!("{method} -j {j} {mode}");
        signal(&child, libc::SIGINT);
        // Every command got the first signal (and lives on): then the second.
        wait_for_lines(&marks, started, &mut child);
        assert!(child.try_wait().unwrap().is_none(), "{name}: ended early");
        signal(&child, libc::SIGINT);
        let status = wait_bounded(&mut child, &name);
        assert_eq!(status.code(), Some(130), "{name}: {status}");
        assert_eq!(
            left_alive(&running),
            Vec::<i32>::new(),
            "{name}: of {running:?}"
        );
    }
}

#[test]
fn a_stopped_command_ends_on_the_first_signal() {
    if crate::fixture::interrupts_skipped_under_qemu_i386() {
        return;
    }
    // A command in a group of its own that is stopped (as by SIGTTIN, reading the terminal)
    // takes no signal but SIGKILL until it is continued: ffind continues it.
    let (t, pids) = three_files();
    let script = format!("echo $$ >> '{}'; kill -STOP $$", pids.display());
    let args = ["-j", "4", "-x", "sh", "-c", &script, "sh"];
    let mut child = start(&t, &args, Stdio::null());
    let stopped = wait_for_pids(&pids, 3, &mut child);
    let state = |pid: i32| {
        fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| s.rsplit(") ").next().and_then(|r| r.chars().next()))
    };
    let start = Instant::now();
    while !stopped.iter().all(|&p| state(p) == Some('T')) {
        assert!(start.elapsed() < BOUND, "the commands never stopped");
        std::thread::sleep(Duration::from_millis(10));
    }
    signal(&child, libc::SIGTERM);
    let status = wait_bounded(&mut child, "-j4 -x");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status}");
    assert_eq!(left_alive(&stopped), Vec::<i32>::new());
}

#[test]
fn a_process_a_command_leaves_running_does_not_keep_ffind_waiting() {
    // Each command puts a sleep in the background and ends; the sleep keeps the command's
    // stdout, a pipe to ffind under -j4. ffind reads what the command wrote and goes on (fd
    // waits for the pipe to close: a minute here).
    let (t, pids) = three_files();
    let script = format!(
        "sleep 60 & echo $! >> '{}'; echo \"done $1\"",
        pids.display()
    );
    let out = t.home().join("out");
    let args = ["-j", "4", "-x", "sh", "-c", &script, "sh"];
    let mut child = start(&t, &args, fs::File::create(&out).unwrap().into());
    let status = wait_bounded(&mut child, "-j4 -x");
    let sleeping: Vec<i32> = fs::read_to_string(&pids)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(status.code(), Some(0), "{status}");
    let mut lines: Vec<String> = fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    lines.sort();
    assert_eq!(lines, ["done ./a", "done ./b", "done ./c"]);
    // They are no longer ffind's: left running, then cleaned up here.
    for pid in sleeping {
        if alive(pid) {
            // SAFETY: as in `signal`; a sleep this test started, alive a moment ago.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }
}

#[test]
fn commands_sharing_a_terminal_stay_in_its_foreground() {
    // With -j1 and -X, commands get ffind's terminal: they stay in ffind's process group, the
    // terminal's foreground, so that they may use it (an editor, `rm -i`, `stty`). In a group
    // of their own, `stty` would be stopped by SIGTTOU, and ffind would wait for it forever.
    if !have("script") {
        eprintln!("skipped: util-linux script is not installed");
        return;
    }
    let t = Tree::new();
    t.files(&["a"]);
    // Also when the command reaches the terminal by /dev/tty, ffind's stdin being elsewhere.
    for (mode, tty, stdin) in [
        ("-j 1 -x", "", ""),
        ("-j 4 -X", "", ""),
        ("-j 1 -x", "< /dev/tty", "< /dev/null"),
    ] {
        let line = format!(
            "'{}' {mode} sh -c 'stty sane {tty} && echo \"ok $1\"' sh {stdin}",
            bin().display(),
        );
        let mut c = Command::new("script");
        c.args(["-qec", &line, "/dev/null"])
            .current_dir(t.root())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        clean_env(&mut c, &t.home());
        let mut child = c.spawn().unwrap();
        let status = wait_bounded(&mut child, &line);
        let mut out = String::new();
        std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
        assert!(status.success(), "{line}: {status}: {out:?}");
        assert_eq!(out.replace("\r\n", "\n"), "ok ./a\n", "{line}");
    }
}

/// The state letter of `pid` in /proc (`T` stopped), if it is there.
fn state(pid: i32) -> Option<char> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit(')').next()?.trim_start().chars().next()
}

/// Waits until every process of `pids` is (`stopped`) or is not in state `T`.
fn wait_for_state(pids: &[i32], stopped: bool, what: &str) {
    let start = Instant::now();
    while pids.iter().any(|&p| (state(p) == Some('T')) != stopped) {
        assert!(
            start.elapsed() < BOUND,
            "{what}: {:?} not {}",
            pids.iter().map(|&p| (p, state(p))).collect::<Vec<_>>(),
            if stopped { "stopped" } else { "running" }
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_stop_reaches_the_commands_in_groups_of_their_own_and_a_continue_too() {
    // Ctrl-Z at a terminal sends SIGTSTP to its foreground group, ffind's; commands in groups
    // of their own (-j 4, or no terminal) are not in it. ffind passes the stop on before it
    // stops, and the continue (fg, bg) after: a stopped job holds no command running behind
    // it. Here ffind alone gets both, as from `kill -TSTP` and `kill -CONT`.
    let (t, pids) = three_files();
    let script = format!("echo $$ >> '{}'; exec sleep 60", pids.display());
    // One method a mode, named (sigint_stops_the_commands_and_exits_130 runs every method at
    // every mode).
    for ((mode, j, started), method) in MODES.into_iter().zip(["serial", "walkdir", "queue"]) {
        let _ = fs::remove_file(&pids);
        let args = ["--method", method, "-j", j, mode, "sh", "-c", &script, "sh"];
        let mut child = start(&t, &args, Stdio::null());
        let running = wait_for_pids(&pids, started, &mut child);
        let name = format!("{method} -j {j} {mode}");
        let ffind = child.id() as i32;
        signal(&child, libc::SIGTSTP);
        wait_for_state(&[ffind], true, &format!("{name}: ffind"));
        wait_for_state(&running, true, &format!("{name}: the commands"));
        signal(&child, libc::SIGCONT);
        wait_for_state(&[ffind], false, &format!("{name}: ffind"));
        wait_for_state(&running, false, &format!("{name}: the commands"));
        signal(&child, libc::SIGTERM);
        wait_bounded(&mut child, &name);
        assert_eq!(left_alive(&running), Vec::<i32>::new(), "{name}");
    }
}

#[test]
fn started_with_stops_ignored_ffind_and_its_commands_are_not_stopped() {
    // A supervisor that wants no stop starts ffind with SIGTSTP ignored: ffind leaves it so,
    // as a shell leaves a signal ignored on entry, and its commands inherit it (a handler of
    // ffind's would have made the stop stop them all).
    let (t, pids) = three_files();
    let script = format!("echo $$ >> '{}'; exec sleep 60", pids.display());
    let args = ["-j", "4", "-x", "sh", "-c", &script, "sh"];
    let mut cmd = t.cmd(&args);
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: signal() is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut cmd, || {
            libc::signal(libc::SIGTSTP, libc::SIG_IGN);
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    let running = wait_for_pids(&pids, 3, &mut child);
    signal(&child, libc::SIGTSTP);
    // Given time to stop, as a stop takes milliseconds; then continued either way.
    std::thread::sleep(Duration::from_millis(500));
    let ffind = child.id() as i32;
    let stopped: Vec<i32> = [ffind]
        .iter()
        .chain(&running)
        .copied()
        .filter(|&p| state(p) == Some('T'))
        .collect();
    signal(&child, libc::SIGCONT);
    signal(&child, libc::SIGTERM);
    wait_bounded(&mut child, "stops ignored");
    assert_eq!(left_alive(&running), Vec::<i32>::new());
    assert_eq!(stopped, Vec::<i32>::new(), "stopped (ffind is {ffind})");
}
