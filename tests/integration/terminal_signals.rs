//! Ctrl-C, SIGTERM and SIGPIPE while colored results flow to a terminal: the
//! terminal is left in its normal state, with a reset after the last color (and hyperlink).
//!
//! ffind runs on a pseudo-terminal of the test's own, as the session leader with it as its
//! controlling terminal, so that a Ctrl-C typed into it (0x03 written to the master side) is
//! turned into SIGINT by the kernel, which also drops the output not yet read, as at a real
//! terminal. To interrupt it mid-output, the test reads the first 64 KiB, then stops reading
//! until ffind is blocked in a write (the terminal is full), then sends the signal and reads
//! everything that follows. (`terminal.rs` runs ffind under `script`, which cannot be told to
//! send a Ctrl-C in the middle of the output.)

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::fixture::Tree;

/// A new pseudo-terminal: its master side, and the path of its slave side.
fn open_pty() -> (File, PathBuf) {
    // SAFETY: plain calls on a descriptor this function owns; ptsname_r writes at most
    // `buf.len()` bytes, NUL included.
    unsafe {
        let fd = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC);
        assert!(fd >= 0, "posix_openpt: {}", std::io::Error::last_os_error());
        let master = File::from(OwnedFd::from_raw_fd(fd));
        assert_eq!(libc::grantpt(fd), 0);
        assert_eq!(libc::unlockpt(fd), 0);
        let mut buf = [0 as libc::c_char; 128];
        assert_eq!(libc::ptsname_r(fd, buf.as_mut_ptr(), buf.len()), 0);
        let name = std::ffi::CStr::from_ptr(buf.as_ptr());
        (master, PathBuf::from(name.to_str().unwrap()))
    }
}

/// ffind started in the tree with `args`, its stdin, stdout and stderr the terminal `slave`,
/// which is its controlling terminal (a session of its own: Ctrl-C reaches it).
fn start_on(t: &Tree, slave: &PathBuf, args: &[&str]) -> Child {
    let tty = || {
        Stdio::from(
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(slave)
                .unwrap(),
        )
    };
    let mut c = t.cmd(args);
    c.stdin(tty()).stdout(tty()).stderr(tty());
    // SAFETY: setsid and ioctl are async-signal-safe; stdin is already the terminal here.
    unsafe {
        c.pre_exec(|| {
            if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    c.spawn().unwrap()
}

/// Reads the master side until at least `n` bytes have come (or it ends).
fn read_at_least(master: &mut File, out: &mut Vec<u8>, n: usize) {
    let mut buf = [0u8; 4096];
    while out.len() < n {
        match master.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(k) => out.extend_from_slice(&buf[..k]),
        }
    }
}

/// Directories of long names: about a megabyte of colored output, far more than a terminal
/// holds unread.
fn many_colored_results() -> Tree {
    let t = Tree::new();
    let long = "a-rather-long-name-so-that-each-colored-record-takes-a-good-part-of-a-line";
    let mut names = Vec::new();
    for d in 0..40 {
        for f in 0..150 {
            names.push(format!("dir-{d:02}-{long}/file-{f:03}-{long}.rs"));
        }
    }
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    t.files(&names);
    t
}

/// How a run at the terminal is interrupted.
#[derive(Debug, Clone, Copy)]
enum Interrupt {
    /// Ctrl-C typed at the terminal.
    CtrlC,
    /// `kill -s` this signal.
    Kill(i32),
}

/// Runs ffind with `args` on a terminal, interrupts it mid-output, and returns everything the
/// terminal showed and how ffind ended.
fn interrupted(t: &Tree, args: &[&str], how: Interrupt) -> (Vec<u8>, std::process::ExitStatus) {
    let (mut master, slave) = open_pty();
    let mut child = start_on(t, &slave, args);
    let mut shown = Vec::new();
    read_at_least(&mut master, &mut shown, 64 * 1024);
    // Not a timing: a pause in which ffind fills the terminal and blocks in a write.
    std::thread::sleep(Duration::from_millis(300));
    match how {
        Interrupt::CtrlC => master.write_all(b"\x03").unwrap(),
        // SAFETY: a signal to the child this test started and has not reaped.
        Interrupt::Kill(sig) => assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0),
    }
    // The rest, until ffind and its terminal are gone (EIO once no one has the slave open).
    let reader = std::thread::spawn(move || {
        read_at_least(&mut master, &mut shown, usize::MAX);
        shown
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("{args:?} {how:?}: ffind did not end");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    (reader.join().unwrap(), status)
}

/// Asserts that the last escape sequence the terminal got is a color reset, and that the
/// last hyperlink opened was closed.
fn assert_left_normal(what: &str, shown: &[u8]) {
    let tail = |from: usize| shown[from..].escape_ascii().to_string();
    let last_esc = shown.iter().rposition(|&b| b == 0x1b);
    let last_esc = last_esc.unwrap_or_else(|| panic!("{what}: no escape sequence at all"));
    assert!(
        shown[last_esc..].starts_with(b"\x1b[0m"),
        "{what}: the terminal was left colored; its last bytes:\n{}",
        tail(shown.len().saturating_sub(300))
    );
    let opened = shown.windows(5).rposition(|w| w == b"\x1b]8;;");
    if let Some(at) = opened {
        assert!(
            shown[at..].starts_with(b"\x1b]8;;\x1b\\"),
            "{what}: a hyperlink was left open:\n{}",
            tail(at)
        );
    }
}

#[test]
fn a_signal_mid_output_leaves_the_terminal_normal() {
    if crate::fixture::interrupts_skipped_under_qemu_i386() {
        return;
    }
    let t = many_colored_results();
    let cases: [(&[&str], Interrupt, Option<i32>); 5] = [
        (&[], Interrupt::CtrlC, Some(libc::SIGINT)),
        (&["-j1"], Interrupt::CtrlC, Some(libc::SIGINT)),
        (&[], Interrupt::Kill(libc::SIGTERM), Some(libc::SIGTERM)),
        (&["--hyperlink"], Interrupt::CtrlC, Some(libc::SIGINT)),
        // Ignored (Rust's runtime does): the walk ends as usual.
        (&[], Interrupt::Kill(libc::SIGPIPE), None),
    ];
    for (args, how, dies_of) in cases {
        let what = format!("{args:?} {how:?}");
        let (shown, status) = interrupted(&t, args, how);
        assert_eq!(status.signal(), dies_of, "{what}: {status:?}");
        if dies_of.is_none() {
            assert_eq!(status.code(), Some(0), "{what}");
        }
        assert!(shown.len() > 64 * 1024, "{what}: {} bytes", shown.len());
        assert_left_normal(&what, &shown);
    }
    // Under every method, its threads many: the walk stopped, ffind dies of the Ctrl-C.
    for m in crate::methods::methods() {
        let args = ["--method", m, "-j", "8"];
        let (shown, status) = interrupted(&t, &args, Interrupt::CtrlC);
        assert_eq!(status.signal(), Some(libc::SIGINT), "{m}: {status:?}");
        assert_left_normal(m, &shown);
    }
}

#[test]
fn the_test_sees_a_terminal_left_colored() {
    // The check above can fail: output cut inside a record, as a signal's default action
    // left it, and a link left open.
    let cut = b"\x1b[38;5;81mdir/\x1b[0m\x1b[38;5;48mfi\x1b[0m\n\x1b[38;5;81mdi".to_vec();
    let r = std::panic::catch_unwind(|| assert_left_normal("cut", &cut));
    assert!(r.is_err());
    let open = b"\x1b]8;;file:///x\x1b\\x\x1b[0m".to_vec();
    let r = std::panic::catch_unwind(|| assert_left_normal("open", &open));
    assert!(r.is_err());
    assert_left_normal("whole", b"\x1b[38;5;81mdir\x1b[0m\n^C");
}
