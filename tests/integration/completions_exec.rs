//! The committed bash and fish completions after `-x CMD` and `-X CMD`: the words
//! after the command complete as that command's own (its options, git's subcommands, files),
//! never as ffind's options, up to a `;`. Each shell runs interactively on a pseudo-terminal
//! and is sent the keys a user types: the line, then Tab; a key bound to print the edited line
//! shows what Tab inserted.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use crate::fixture::{clean_env, have, Tree};

fn repo_file(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// bash-completion's loader, which brings `_command_offset` and the commands' completions.
const BASH_COMPLETION: &str = "/usr/share/bash-completion/bash_completion";

/// A shell on a pseudo-terminal: what is typed goes to it, what it writes is read back.
struct Pty {
    child: Child,
    master: File,
    out: Receiver<Vec<u8>>,
    seen: String,
}

impl Pty {
    /// `argv` in the tree's root with the clean environment, on a new pseudo-terminal that is
    /// its controlling terminal.
    fn spawn(t: &Tree, argv: &[&str]) -> Pty {
        let (mut master, mut slave) = (0, 0);
        let size = libc::winsize {
            ws_row: 50,
            ws_col: 250,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: openpty writes two descriptors, which are owned from here on.
        let rc = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                &size,
            )
        };
        assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
        // SAFETY: both descriptors are new and owned by nothing else.
        let (master, slave) = unsafe { (File::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
        let mut c = Command::new(argv[0]);
        c.args(&argv[1..]).current_dir(t.root());
        clean_env(&mut c, &t.home());
        c.env("TERM", "dumb")
            .stdin(Stdio::from(slave.try_clone().unwrap()))
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave));
        // SAFETY: setsid and ioctl are async-signal-safe.
        unsafe {
            c.pre_exec(|| {
                if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = c.spawn().unwrap();
        drop(c);
        let (send, out) = channel();
        let mut reader = master.try_clone().unwrap();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            // Ends with EIO once the shell and every holder of the terminal are gone.
            while let Ok(n @ 1..) = reader.read(&mut buf) {
                if send.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Pty {
            child,
            master,
            out,
            seen: String::new(),
        }
    }

    fn type_keys(&mut self, keys: &str) {
        self.master.write_all(keys.as_bytes()).unwrap();
    }

    /// What the shell wrote up to and including the first `marker` not yet consumed (all
    /// before it is consumed with it). Fails after a minute without it.
    fn until(&mut self, marker: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(at) = self.seen.find(marker) {
                let got = self.seen[..at + marker.len()].to_owned();
                self.seen.drain(..at + marker.len());
                return got;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.out.recv_timeout(left) {
                Ok(chunk) => self.seen.push_str(&String::from_utf8_lossy(&chunk)),
                Err(_) => panic!("no {marker:?} from the shell; it wrote:\n{}", self.seen),
            }
        }
    }

    /// The text after the next `LINE:` up to the end of its line.
    fn line(&mut self) -> String {
        self.until("LINE:");
        let rest = self.until("\n");
        rest.trim_end_matches(['\r', '\n']).to_owned()
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// bash's start-up file: bash-completion, the committed completion of ffind, whose function
/// is wrapped to print its candidates (`HIT:word`, then `HITS.`), and Ctrl-T bound to print the
/// line being edited (`LINE:text`).
fn bashrc(t: &Tree) -> std::path::PathBuf {
    let rc = t.home().join("bashrc");
    std::fs::write(
        &rc,
        format!(
            r#"PS1='$ '
source {BASH_COMPLETION}
source {script}
__capture() {{
    _ffind "$@"
    local status=$?
    printf '\nHIT:%s' "${{COMPREPLY[@]}}"
    printf '\nHITS.\n'
    return $status
}}
eval "$(complete -p ffind | sed 's/ -F _ffind / -F __capture /')"
bind -x '"\C-t": printf "\nLINE:%s\n" "$READLINE_LINE"'
bind 'set bell-style none'
printf 'READY\n'
"#,
            script = repo_file("completions/ffind.bash").display(),
        ),
    )
    .unwrap();
    rc
}

/// Types `line` and Tab into an interactive bash: ffind's candidates (sorted) and the line
/// as Tab left it.
fn bash_tab(t: &Tree, line: &str) -> (Vec<String>, String) {
    let rc = bashrc(t);
    let mut bash = Pty::spawn(
        t,
        &[
            "bash",
            "--noprofile",
            "--rcfile",
            rc.to_str().unwrap(),
            "-i",
        ],
    );
    bash.until("READY");
    bash.type_keys(&format!("{line}\t"));
    let hits = bash.until("HITS.");
    let mut got: Vec<String> = hits
        .lines()
        .filter_map(|l| l.trim_end_matches('\r').strip_prefix("HIT:"))
        .filter(|w| !w.is_empty())
        .map(String::from)
        .collect();
    got.sort();
    got.dedup();
    bash.type_keys("\x14");
    (got, bash.line())
}

fn bash_ready() -> bool {
    if !have("bash") || !Path::new(BASH_COMPLETION).exists() {
        eprintln!("skipped: no bash or no bash-completion ({BASH_COMPLETION})");
        return false;
    }
    true
}

#[test]
fn bash_completes_the_arguments_of_the_command_after_exec() {
    if !bash_ready() {
        return;
    }
    let t = Tree::new();
    t.files(&["notes.txt"]);
    // A file for cp's argument, not ffind's options (whose common prefix is "-").
    let (got, line) = bash_tab(&t, "ffind -e rs -x cp {} ");
    assert!(!got.iter().any(|w| w.starts_with('-')), "{got:?}");
    assert_eq!(line, "ffind -e rs -x cp {} notes.txt ");
    // wc's own options, none of ffind's.
    let (got, _) = bash_tab(&t, "ffind -x wc -");
    assert!(got.contains(&"--lines".to_owned()), "{got:?}");
    for ours in ["--hidden", "--exec", "--type"] {
        assert!(!got.contains(&ours.to_owned()), "{ours} in {got:?}");
    }
    let (got, _) = bash_tab(&t, "ffind -X wc --by");
    assert_eq!(got, ["--bytes"]);
    // After the ';' that ends the command, ffind's options again. (bash takes the word right
    // after a `;`, even `\;`, for a command name and asks no completion function: -H first.)
    let (got, _) = bash_tab(&t, "ffind -x wc {} \\; -H --hid");
    assert_eq!(got, ["--hidden"]);
    // git's subcommands, where git's completion is installed.
    if Path::new("/usr/share/bash-completion/completions/git").exists() {
        let (_, line) = bash_tab(&t, "ffind -x git chec");
        assert_eq!(line, "ffind -x git checkout ");
    }
}

#[test]
fn bash_offers_only_the_options_help_shows() {
    if !bash_ready() {
        return;
    }
    let t = Tree::new();
    let (got, _) = bash_tab(&t, "ffind --");
    assert!(got.contains(&"--hidden".to_owned()), "{got:?}");
    for hidden in [
        "--gen-completions",
        "--gen-man",
        "--max-buffer-time",
        "--no-hidden",
        "--no-follow",
    ] {
        assert!(!got.contains(&hidden.to_owned()), "{hidden} in {got:?}");
    }
}

/// Types `line` and Tab into an interactive fish with the committed completion: the line as
/// Tab left it, and fish's candidates for `line` asked in that same session (the pager's
/// listing is not parsed).
fn fish_tab(t: &Tree, line: &str) -> (Vec<String>, String) {
    let init = format!(
        "source {}; function __line; printf '\\nLINE:%s\\n' (commandline); end; \
         function __hits; printf '\\nHIT:%s' (complete -C (commandline -c) | string replace -r '\\t.*' ''); \
         printf '\\nHITS.\\n'; end; bind \\ct __line; bind \\cg __hits; printf 'READY\\n'",
        repo_file("completions/ffind.fish").display()
    );
    // Not --no-config, which leaves fish without its own completions (wc's, git's): the
    // configuration read is the system's and the test home's (empty).
    let mut fish = Pty::spawn(t, &["fish", "-i", "-C", &init]);
    fish.until("READY");
    fish.type_keys(&format!("{line}\x07"));
    let hits = fish.until("HITS.");
    let mut got: Vec<String> = hits
        .lines()
        .filter_map(|l| l.trim_end_matches('\r').strip_prefix("HIT:"))
        .filter(|w| !w.is_empty())
        .map(String::from)
        .collect();
    got.sort();
    got.dedup();
    fish.type_keys("\t\x14");
    (got, fish.line())
}

#[test]
fn fish_completes_the_arguments_of_the_command_after_exec() {
    if !have("fish") {
        eprintln!("skipped: no fish");
        return;
    }
    let t = Tree::new();
    t.files(&["notes.txt"]);
    let (got, line) = fish_tab(&t, "ffind -e rs -x cp {} ");
    assert_eq!(got, ["notes.txt"]);
    assert_eq!(line, "ffind -e rs -x cp {} notes.txt ");
    let (got, _) = fish_tab(&t, "ffind -x wc -");
    assert!(got.contains(&"--lines".to_owned()), "{got:?}");
    for ours in ["--hidden", "--exec", "--type"] {
        assert!(!got.contains(&ours.to_owned()), "{ours} in {got:?}");
    }
    let (got, _) = fish_tab(&t, "ffind -x wc {} \\; --hid");
    assert_eq!(got, ["--hidden"]);
    if have("git") {
        let (_, line) = fish_tab(&t, "ffind -x git chec");
        assert_eq!(line, "ffind -x git checkout ");
    }
    let (got, _) = fish_tab(&t, "ffind --");
    assert!(got.contains(&"--hidden".to_owned()), "{got:?}");
    for hidden in ["--gen-completions", "--gen-man", "--max-buffer-time"] {
        assert!(!got.contains(&hidden.to_owned()), "{hidden} in {got:?}");
    }
}
