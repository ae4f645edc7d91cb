//! The test fixture: temporary trees, the real binary run in them, sorted output, diffs.
//!
//! Every run gets a clean environment: HOME and XDG_CONFIG_HOME point into the temporary
//! directory (no global ignore files of the developer's leak in), and on Windows APPDATA,
//! LOCALAPPDATA and USERPROFILE too (where ffind looks there); LS_COLORS and NO_COLOR are
//! unset, and the output is compared as a sorted set since threads finish in any order.
//!
//! The expected paths are written with `/`; on Windows, where ffind prints paths as fd does
//! there (`\` between names), the comparisons read them through [`native`].

#[cfg(unix)]
use std::ffi::OsStr;
use std::fs;
#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;
#[cfg(unix)]
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The ffind binary under test: the one cargo built for these tests, or the one named by
/// `FFIND_TEST_BIN` (a release archive's own binary, which `just release` checks with this
/// suite; for another architecture, run by the kernel through qemu-user's binfmt entry).
pub fn bin() -> PathBuf {
    match std::env::var_os("FFIND_TEST_BIN") {
        Some(path) if !path.is_empty() => host_path(path),
        _ => host_path(env!("CARGO_BIN_EXE_ffind")),
    }
}

/// How many rounds a test makes of runs it repeats to catch what happens only sometimes (a
/// race with a thread that renames or removes, an order that could vary): `n`, or
/// `FFIND_TEST_ROUNDS` percent of it when that is set, rounded up and never below 2 (a repeat
/// is what such a test checks). `.ci/release.py` sets 25 for the binaries it runs under
/// qemu-user, where every start of ffind costs a tenth of a second of translation; the native
/// runs keep every round.
#[cfg(unix)]
pub fn rounds(n: usize) -> usize {
    static PERCENT: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let percent = *PERCENT.get_or_init(|| match std::env::var("FFIND_TEST_ROUNDS") {
        Ok(v) if !v.is_empty() => v
            .parse()
            .ok()
            .filter(|p| (1..=100).contains(p))
            .unwrap_or_else(|| panic!("FFIND_TEST_ROUNDS={v}: a percentage from 1 to 100")),
        _ => 100,
    });
    share_of(n, percent)
}

/// `percent` of `n` rounds, rounded up, at least 2 (or `n`, when that is fewer).
#[cfg(unix)]
fn share_of(n: usize, percent: usize) -> usize {
    (n * percent).div_ceil(100).max(n.min(2))
}

#[cfg(unix)]
#[test]
fn a_share_of_rounds_is_rounded_up_and_keeps_a_repeat() {
    assert_eq!(share_of(80, 100), 80);
    assert_eq!(share_of(80, 25), 20);
    assert_eq!(share_of(10, 25), 3);
    assert_eq!(share_of(10, 1), 2);
    assert_eq!(share_of(1, 1), 1);
    assert_eq!(share_of(0, 50), 0);
}

/// The first bytes of the binary under test (its ELF header), read once: the tests ask its
/// architecture on every run of a command.
#[cfg(unix)]
fn bin_head() -> &'static [u8] {
    static HEAD: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    HEAD.get_or_init(|| {
        use std::io::Read;
        let mut head = Vec::new();
        if let Ok(f) = fs::File::open(bin()) {
            let _ = f.take(64).read_to_end(&mut head);
        }
        head
    })
}

/// The architecture of the binary under test, from its ELF header (`e_machine`), when it is
/// one: "x86_64", "x86", "aarch64", "arm", or the number of another machine.
#[cfg(unix)]
pub fn bin_machine() -> Option<String> {
    let head = bin_head();
    if head.get(..4) != Some(b"\x7fELF") || head.len() < 20 {
        return None;
    }
    let machine = u16::from_le_bytes([head[18], head[19]]);
    Some(match machine {
        62 => "x86_64".into(),
        3 => "x86".into(),
        183 => "aarch64".into(),
        40 => "arm".into(),
        other => other.to_string(),
    })
}

/// Whether the binary under test has a 32-bit address space (ELF class 1: i686, armv7).
#[cfg(unix)]
pub fn bin_is_32_bit() -> bool {
    bin_head().get(4) == Some(&1)
}

/// The mark `.ci/release.py` writes into the padding of an i686 binary's ELF identification
/// (bytes 9 to 12, which the kernel and qemu ignore) for its binfmt_misc entry to start that
/// copy under qemu-i386: this kernel would run it itself.
#[cfg(unix)]
const QEMU_MARK: &[u8] = b"qemu";

/// Why a test that watches the binary from outside (strace's calls, its memory and threads)
/// cannot here: the binary is of another architecture, or marked to be run by qemu-user
/// ([`QEMU_MARK`]), which is what those see instead. `None` when it runs natively (i686 does
/// on x86_64).
#[cfg(unix)]
pub fn emulated() -> Option<String> {
    let machine = bin_machine()?;
    let marked = bin_head().get(9..9 + QEMU_MARK.len()) == Some(QEMU_MARK);
    let native = !marked
        && match (std::env::consts::ARCH, machine.as_str()) {
            (host, bin) if host == bin => true,
            ("x86_64", "x86") => true,
            ("aarch64", "arm") => true,
            _ => false,
        };
    (!native).then(|| format!("skipped: the binary under test is {machine}, run by qemu-user"))
}

/// Whether the binary under test is an i686 one run by qemu-i386 (marked so by
/// `.ci/release.py`: [`QEMU_MARK`]), for the tests that skip what that emulator gets wrong.
#[cfg(unix)]
pub fn under_qemu_i386() -> bool {
    emulated().is_some() && bin_machine().as_deref() == Some("x86")
}

/// Whether to skip a test that interrupts ffind (saying so): under qemu-i386 (7.2) ffind is
/// killed by a SIGSEGV now and then after its handler of SIGINT or SIGTERM ran, in qemu's
/// `rt_sigreturn`, reading a frame beside the alternate signal stack that a thread had just
/// unmapped as it ended (as QEMU_STRACE=1 shows; the build before 2026-12-07 too). Natively,
/// and the armv7 build under qemu-arm, every round passes.
#[cfg(unix)]
pub fn interrupts_skipped_under_qemu_i386() -> bool {
    let skip = under_qemu_i386();
    if skip {
        eprintln!("skipped under qemu-i386: its rt_sigreturn faults after a thread ended");
    }
    skip
}

/// What a test that compares the bytes and order of what was held at the start of a search
/// (`-l`'s columns, `--order breadth`'s nearest first) puts first on its command lines: under
/// qemu-user a small tree's walk can outlast the 100 ms that results are held (fd's window),
/// after which they stream, so there they are held for the whole walk. Nothing natively.
pub fn held_whole() -> &'static [&'static str] {
    #[cfg(unix)]
    if emulated().is_some() {
        return &["--max-buffer-time=600000"];
    }
    &[]
}

/// A path handed to the tests from outside (by cargo, or the environment) as this process can
/// use it whatever its working directory: unchanged on Unix; on Windows made absolute, since a
/// cross build run under Wine is given Linux paths (`/work/...`), which Windows reads as
/// relative to the current drive (`Z:`, where Wine shows `/`, for the tests' own process; `C:`
/// for a child run in a temporary directory).
pub fn host_path(p: impl Into<PathBuf>) -> PathBuf {
    let p = p.into();
    #[cfg(windows)]
    let p = std::path::absolute(&p).unwrap_or(p);
    p
}

/// A path of the tests' expectations, written with `/`, as ffind prints it here: unchanged on
/// Unix; on Windows as fd prints it there, every `/` a `\` but for a leading `./` (fd prints a
/// search path as it was typed, and `.`, the default, as `./`, then joins the names below it
/// with `\`: `./src\main.rs`).
pub fn native(expected: &str) -> String {
    if std::path::MAIN_SEPARATOR == '/' {
        return expected.to_owned();
    }
    let sep = std::path::MAIN_SEPARATOR_STR;
    match expected.strip_prefix("./") {
        Some(rest) => format!("./{}", rest.replace('/', sep)),
        None => expected.replace('/', sep),
    }
}

/// A relative search path written with `/` as a user of this system types it: with `\` on
/// Windows, as its shells complete it (fd prints a search path as typed: `repo\sub\x` there;
/// one typed with `/` is `fd_windows.rs`'s and `windows.rs`'s).
pub fn typed(path: &str) -> String {
    path.replace('/', std::path::MAIN_SEPARATOR_STR)
}

/// [`native`] for a list of paths.
pub fn native_all(expected: &[&str]) -> Vec<String> {
    expected.iter().map(|p| native(p)).collect()
}

/// A path resolved (`..`, links) as ffind's `-a` shows it: [`fs::canonicalize`], without the
/// `\\?\` that Windows puts before a canonical drive path (fd's `-a` prints `C:\...`).
pub fn canonical(p: &Path) -> PathBuf {
    let p = p.canonicalize().unwrap();
    let drive = p
        .to_str()
        .and_then(|s| s.strip_prefix(r"\\?\"))
        .filter(|s| cfg!(windows) && s.as_bytes().get(1) == Some(&b':'))
        .map(PathBuf::from);
    drive.unwrap_or(p)
}

/// A temporary directory tree; `root()` is where ffind runs unless told otherwise.
pub struct Tree {
    tmp: tempfile::TempDir,
}

impl Tree {
    /// An empty tree (with a `home/` beside `root/` for HOME and XDG_CONFIG_HOME).
    pub fn new() -> Tree {
        let tmp = tempfile::Builder::new()
            .prefix("ffind-test")
            .tempdir()
            .unwrap();
        fs::create_dir(tmp.path().join("root")).unwrap();
        fs::create_dir_all(tmp.path().join("home/.config")).unwrap();
        Tree { tmp }
    }

    /// The directory searched.
    pub fn root(&self) -> PathBuf {
        self.tmp.path().join("root")
    }

    /// The fake home directory.
    pub fn home(&self) -> PathBuf {
        self.tmp.path().join("home")
    }

    fn at(&self, rel: impl AsRef<Path>) -> PathBuf {
        self.root().join(rel)
    }

    /// Creates empty files (and their parent directories).
    pub fn files(&self, rels: &[&str]) -> &Tree {
        for rel in rels {
            self.write(rel, "");
        }
        self
    }

    /// Creates a file with contents.
    pub fn write(&self, rel: impl AsRef<Path>, contents: &str) -> &Tree {
        let p = self.at(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, contents).unwrap();
        self
    }

    /// Creates directories.
    pub fn dirs(&self, rels: &[&str]) -> &Tree {
        for rel in rels {
            fs::create_dir_all(self.at(rel)).unwrap();
        }
        self
    }

    /// Creates a file whose name is raw bytes (not UTF-8, newlines...) in directory `dir`. Unix
    /// only: names on Windows are UTF-16, and Windows refuses control characters in them.
    #[cfg(unix)]
    pub fn raw_file(&self, dir: &str, name: &[u8]) -> &Tree {
        let d = self.at(dir);
        fs::create_dir_all(&d).unwrap();
        fs::write(d.join(OsStr::from_bytes(name)), "").unwrap();
        self
    }

    /// Creates a symlink at `rel` pointing to `target` (as written). Unix only: a link on
    /// Windows needs a privilege or developer mode, and Wine 8 makes none (windows.rs tries).
    #[cfg(unix)]
    pub fn link(&self, target: &str, rel: &str) -> &Tree {
        let p = self.at(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        symlink(target, p).unwrap();
        self
    }

    /// Sets the permission bits of an entry.
    #[cfg(unix)]
    pub fn chmod(&self, rel: &str, mode: u32) -> &Tree {
        fs::set_permissions(self.at(rel), fs::Permissions::from_mode(mode)).unwrap();
        self
    }

    /// Runs `git init` in `rel` (the tests that need git skip when it is missing). On Windows,
    /// where the tests run under Wine without git, makes what `git init` makes by hand: ffind
    /// knows a repository by its `.git` (as fd does), and reads `.git/info/exclude` and `HEAD`
    /// itself; the tests that run git itself are Unix-only.
    pub fn git_init(&self, rel: &str) -> bool {
        fs::create_dir_all(self.at(rel)).unwrap();
        if cfg!(windows) {
            let git = self.at(rel).join(".git");
            for dir in [
                "objects/info",
                "objects/pack",
                "refs/heads",
                "refs/tags",
                "info",
            ] {
                fs::create_dir_all(git.join(dir)).unwrap();
            }
            fs::write(git.join("HEAD"), "ref: refs/heads/master\n").unwrap();
            fs::write(
                git.join("config"),
                "[core]\n\trepositoryformatversion = 0\n\tfilemode = false\n\tbare = false\n",
            )
            .unwrap();
            fs::write(
                git.join("info/exclude"),
                "# git ls-files --others --exclude-from=.git/info/exclude\n",
            )
            .unwrap();
            return true;
        }
        Command::new("git")
            .args(["init", "-q"])
            .current_dir(self.at(rel))
            .env("HOME", self.home())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    /// A command running ffind in the tree's root with a clean environment.
    pub fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::new(bin());
        c.args(args).current_dir(self.root());
        clean_env(&mut c, &self.home());
        c
    }

    /// Runs ffind in the tree's root.
    pub fn run(&self, args: &[&str]) -> Run {
        let mut c = self.cmd(args);
        c.stdin(Stdio::null());
        #[cfg(target_os = "linux")]
        if emulated().is_some() {
            let shown = format!("{c:?}");
            return Run::from(qemu::output_watched(&mut c, &shown));
        }
        Run::from(c.output_ok())
    }
}

/// Points HOME and XDG_CONFIG_HOME at `home` and removes what could change output. On Windows
/// also the folders ffind (and fd) read there: APPDATA is `home/.config` (so that the config
/// file and global ignore file the tests write to `home/.config/ffind/` are found there too,
/// as `%APPDATA%\ffind\`), LOCALAPPDATA `home/.cache`, USERPROFILE (the home directory of
/// Windows programs, git's too) `home`.
pub fn clean_env(c: &mut Command, home: &Path) {
    if cfg!(windows) {
        c.env("APPDATA", home.join(".config"))
            .env("LOCALAPPDATA", home.join(".cache"))
            .env("USERPROFILE", home)
            .env_remove("MSYSTEM");
    }
    // git's configuration from the test's home only: not the machine's /etc/gitconfig (which
    // fd reads for core.excludesFile whatever GIT_CONFIG_NOSYSTEM says), nor a
    // $GIT_CONFIG_GLOBAL of the environment the tests run in.
    c.env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_SYSTEM", "/dev/null")
        .env_remove("GIT_CONFIG_GLOBAL")
        .env_remove("LS_COLORS")
        .env_remove("NO_COLOR")
        .env_remove("GIT_DIR")
        // The config file of default options: only the test's own (a home/.config/ffind/config).
        .env_remove("FFIND_CONFIG_PATH");
}

/// The outcome of one run.
#[derive(Debug)]
pub struct Run {
    /// Raw stdout.
    pub stdout: Vec<u8>,
    /// stderr, lossily decoded.
    pub stderr: String,
    /// The exit code (-1 when killed by a signal).
    pub code: i32,
}

impl From<Output> for Run {
    fn from(o: Output) -> Run {
        Run {
            stdout: o.stdout,
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
            code: o.status.code().unwrap_or(-1),
        }
    }
}

impl Run {
    /// The results, split on `sep`, sorted, as raw bytes.
    pub fn sorted_by(&self, sep: u8) -> Vec<Vec<u8>> {
        let mut v: Vec<Vec<u8>> = self
            .stdout
            .split(|&b| b == sep)
            .map(<[u8]>::to_vec)
            .collect();
        if v.last().is_some_and(Vec::is_empty) {
            v.pop();
        }
        v.sort();
        v
    }

    /// The results (newline-separated), sorted, as strings.
    pub fn sorted(&self) -> Vec<String> {
        self.sorted_by(b'\n')
            .into_iter()
            .map(|l| String::from_utf8_lossy(&l).into_owned())
            .collect()
    }

    /// Asserts exit code 0, no stderr, and exactly these results (any order).
    pub fn assert_paths(&self, expected: &[&str]) {
        assert_eq!(
            self.code, 0,
            "exit code {}; stderr:\n{}",
            self.code, self.stderr
        );
        assert!(
            self.stderr.is_empty(),
            "unexpected stderr:\n{}",
            self.stderr
        );
        self.assert_listing(expected);
    }

    /// Asserts exactly these results (any order), whatever the exit code.
    /// The expected paths are written with `/` ([`native`]).
    pub fn assert_listing(&self, expected: &[&str]) {
        let mut want: Vec<String> = native_all(expected);
        want.sort();
        let got = self.sorted();
        if got != want {
            panic!(
                "output differs\n{}\nstderr:\n{}",
                diff(&want, &got),
                self.stderr
            );
        }
    }
}

/// A line diff of two sorted lists: "-" expected but missing, "+" present but unexpected.
pub fn diff(want: &[String], got: &[String]) -> String {
    let mut out = String::new();
    for w in want {
        if !got.contains(w) {
            out.push_str(&format!("- {w:?}\n"));
        }
    }
    for g in got {
        if !want.contains(g) {
            out.push_str(&format!("+ {g:?}\n"));
        }
    }
    if out.is_empty() {
        out = format!(
            "(same entries, different counts: want {}, got {})\n",
            want.len(),
            got.len()
        );
    }
    out
}

/// Runs `c` to its end; again (up to 20 times, 50 ms apart) while it exits with 126 saying
/// "Text file busy": a binary just copied for another user to run may still be open for
/// writing, for an instant, in a child that another test's thread forked while the copy was
/// written (`ETXTBSY` until that child execs and its copy of the descriptor closes).
#[cfg(unix)]
pub fn output_of(c: &mut Command) -> Output {
    for _ in 0..20 {
        let out = c.output_ok();
        let busy = out.status.code() == Some(126)
            && String::from_utf8_lossy(&out.stderr).contains("Text file busy");
        if !busy {
            return out;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    c.output_ok()
}

/// `Command::output`, unwrapped: a run of a program the test needs, its start tried again
/// when Wine failed it ([`started_anew`]).
pub trait Spawn {
    /// The finished program's output.
    fn output_ok(&mut self) -> Output;
    /// The started program.
    fn spawn_ok(&mut self) -> std::process::Child;
}

impl Spawn for Command {
    fn spawn_ok(&mut self) -> std::process::Child {
        let shown = format!("{self:?}");
        started_anew(&shown, || self.spawn(), |_| false)
    }

    fn output_ok(&mut self) -> Output {
        let shown = format!("{self:?}");
        started_anew(
            &shown,
            || self.output(),
            |out| never_started(out.status.code(), &out.stdout, &out.stderr),
        )
    }
}

// qemu-user's fork that never reaches its exec, told apart from a hang (`qemu.rs`).
#[cfg(target_os = "linux")]
#[path = "qemu.rs"]
mod qemu;

/// Runs `run` (a program's start and its end), unwrapped. Under Wine a process now and then
/// fails to start when many start at once (seen in one full Windows run in three, each time
/// in a different test): the start fails with ERROR_INTERNAL_ERROR (1359), or the process ends
/// before its `main` (`never_ran`, see [`never_started`]). Such a run is tried again, a few
/// times, saying so on stderr; any other failure to start panics as before.
pub fn started_anew<T>(
    shown: &str,
    mut run: impl FnMut() -> std::io::Result<T>,
    never_ran: impl Fn(&T) -> bool,
) -> T {
    const WINE_INTERNAL_ERROR: i32 = 1359;
    for _ in 0..5 {
        match run() {
            Err(e) if cfg!(windows) && e.raw_os_error() == Some(WINE_INTERNAL_ERROR) => {
                eprintln!("{shown} did not start ({e}): trying again");
            }
            Ok(done) if never_ran(&done) => {
                eprintln!("{shown} ended before its main: trying again");
            }
            result => return result.unwrap(),
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    run().unwrap()
}

/// Whether a Windows process that ended so, with no output, never reached its `main`: Wine
/// ends one so, now and then, when many start at once (STATUS_DLL_INIT_FAILED, 0xC0000142, from
/// the loader). ffind itself never exits with that code; never on Unix.
pub fn never_started(code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> bool {
    const STATUS_DLL_INIT_FAILED: i32 = 0xC000_0142_u32 as i32;
    cfg!(windows) && code == Some(STATUS_DLL_INIT_FAILED) && stdout.is_empty() && stderr.is_empty()
}

/// The system's words for a path that does not exist, as ffind's messages end with them
/// (without Rust's " (os error 2)"): "No such file or directory" on Unix, Windows' own text for
/// ERROR_FILE_NOT_FOUND there.
pub fn not_found() -> String {
    error_text(&std::io::Error::from_raw_os_error(2))
}

/// An error's text as ffind's messages end with it: the system's words, without Rust's
/// " (os error N)" and without the full stop Windows ends them with.
pub fn error_text(e: &std::io::Error) -> String {
    #[cfg(unix)]
    if let Some(text) = e.raw_os_error().and_then(musl_text) {
        return text.to_owned();
    }
    let text = e.to_string();
    match text.rfind(" (os error") {
        Some(end) => {
            let said = &text[..end];
            said.strip_suffix('.').unwrap_or(said).to_owned()
        }
        None => text,
    }
}

/// Whether we run as root (then permission tests drop privileges with setpriv).
#[cfg(unix)]
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Whether a test that runs `program` can: it is on PATH. When not, says so on stderr (the
/// test is skipped; CI installs what the tests run).
#[cfg(unix)]
pub fn need(program: &str) -> bool {
    let there = have(program);
    if !there {
        eprintln!("skipped: no {program}");
    }
    there
}

/// Whether an external program is on PATH (Unix: the tests that run other programs are).
#[cfg(unix)]
pub fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[cfg(unix)]
impl Tree {
    /// Runs a `bash -c` script in the tree's root with the clean environment, `$FFIND` naming
    /// the binary (for `ulimit` set-ups: `ulimit -n 16 && exec "$FFIND" ...`).
    pub fn run_script(&self, script: &str) -> Run {
        let mut c = Command::new("bash");
        c.args(["-c", script]).current_dir(self.root());
        clean_env(&mut c, &self.home());
        c.env("FFIND", bin());
        Run::from(c.stdin(Stdio::null()).output_ok())
    }

    /// A command run as user and group 65534 (nobody) through `setpriv`, with `$FFIND` naming a
    /// copy of the binary inside the tree's temporary directory (the build directory may not
    /// be reachable by nobody). `None` when not root or setpriv is missing: the caller skips.
    fn unprivileged(&self) -> Option<(Command, PathBuf)> {
        self.unprivileged_as(65534)
    }

    /// [`Tree::unprivileged`] as user and group `id`, which need not exist in /etc/passwd.
    fn unprivileged_as(&self, id: u32) -> Option<(Command, PathBuf)> {
        if !is_root() || !have("setpriv") {
            return None;
        }
        let copy = self.tmp.path().join("ffind-copy");
        if !copy.exists() {
            fs::copy(bin(), &copy).unwrap();
        }
        fs::set_permissions(self.tmp.path(), fs::Permissions::from_mode(0o755)).unwrap();
        let mut c = Command::new("setpriv");
        c.args([
            &format!("--reuid={id}"),
            &format!("--regid={id}"),
            "--clear-groups",
        ])
        .current_dir(self.root());
        clean_env(&mut c, &self.home());
        c.env("FFIND", &copy).stdin(Stdio::null());
        Some((c, copy))
    }

    /// Runs ffind as nobody (see [`Tree::unprivileged`]).
    pub fn run_unprivileged(&self, args: &[&str]) -> Option<Run> {
        let (mut c, copy) = self.unprivileged()?;
        Some(Run::from(output_of(c.arg(copy).args(args))))
    }

    /// Runs a `bash -c` script as nobody, `$FFIND` naming the binary's copy.
    pub fn run_unprivileged_script(&self, script: &str) -> Option<Run> {
        self.run_script_as(65534, script)
    }

    /// Runs a `bash -c` script as user and group `id` (see [`Tree::unprivileged_as`]): a user
    /// no other test runs as, where a per-user limit (`ulimit -u`) must count this run alone.
    pub fn run_script_as(&self, id: u32, script: &str) -> Option<Run> {
        let (mut c, _) = self.unprivileged_as(id)?;
        Some(Run::from(output_of(c.args(["bash", "-c", script]))))
    }
}

/// The filter families every method (and `--mpi`) must agree on over [`hostile_tree`].
#[cfg(unix)]
pub const HOSTILE_FILTER_FAMILIES: [&[&str]; 9] = [
    &[],
    &["-u"],
    &["-H"],
    &["-L"],
    &["-u", "-L"],
    &["-d", "2"],
    &["--min-depth", "3"],
    &["-t", "l"],
    &["-t", "d", "-H"],
];

/// The parity tests' hostile tree: hidden files, links of every kind (one a loop), empty and
/// unreadable directories, hostile names, a wide directory.
#[cfg(unix)]
pub fn hostile_tree() -> Tree {
    let t = Tree::new();
    t.files(&[
        "a/b/c/deep.txt",
        "a/b/file.rs",
        "a/.hidden/inside",
        ".top-hidden",
        "UPPER.TXT",
        "x.tar.gz",
    ]);
    t.files(&[
        "-rf",
        "--help",
        " leading space",
        "trailing space ",
        "star*",
        "question?",
        "[brackets]",
    ]);
    t.files(&[
        "back\\slash",
        "dollar$HOME",
        "quote'single",
        "quote\"double",
        "café",
        "日本",
    ]);
    t.dirs(&["empty", "a/empty-too", "locked"]);
    t.files(&["locked/inside-locked"]);
    for name in [
        &b"new\nline"[..],
        b"tab\there",
        b"\xff\xfe-not-utf8",
        b"\x1b[31mred",
        b"\xc3",
    ] {
        t.raw_file("raw", name);
    }
    t.link("does-not-exist", "dangling")
        .link("a/b", "to-dir")
        .link(".", "a/loop")
        .link("UPPER.TXT", "to-file");
    for i in 0..30 {
        t.files(&[&format!("wide/f{i:03}")]);
        t.dirs(&[&format!("wide/d{i:03}/sub")]);
    }
    t
}

/// `text` in UTF-16, little-endian with its byte-order mark, as Windows PowerShell 5.1's `>`
/// writes a file (`big`: big-endian; `mark`: with the mark).
pub fn utf16(text: &str, big: bool, mark: bool) -> Vec<u8> {
    let text = if mark {
        format!("\u{feff}{text}")
    } else {
        text.to_owned()
    };
    text.encode_utf16()
        .flat_map(|u| {
            if big {
                u.to_be_bytes()
            } else {
                u.to_le_bytes()
            }
        })
        .collect()
}

/// What ffind says of a file written in UTF-16, after its path.
pub const UTF16: &str = "written in UTF-16 (as Windows PowerShell 5.1's '>' writes), not UTF-8";

/// How ffind says to mend it.
pub const SAVE_AS_UTF8: &str =
    "save it as UTF-8 (Set-Content -Encoding utf8, or Notepad's Save as, Encoding UTF-8)";

/// The text the binary under test prints for the system error `errno` (its C library's): what
/// [`error_text`] gives for it.
#[cfg(unix)]
pub fn os_text(errno: i32) -> String {
    error_text(&std::io::Error::from_raw_os_error(errno))
}

/// musl's texts where they differ from glibc's (musl's `src/errno/__strerror.h`), when the
/// binary under test is linked with musl (the release's static Linux builds): the tests run
/// with glibc's.
#[cfg(unix)]
fn musl_text(errno: i32) -> Option<&'static str> {
    const TEXTS: [(i32, &str); 8] = [
        (libc::ELOOP, "Symbolic link loop"),
        (libc::ENAMETOOLONG, "Filename too long"),
        (libc::EIO, "I/O error"),
        (libc::EMFILE, "No file descriptors available"),
        (libc::ENOMEM, "Out of memory"),
        (libc::EBUSY, "Resource busy"),
        (libc::EXDEV, "Cross-device link"),
        (libc::ENOTSUP, "Not supported"),
    ];
    static MUSL: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    // musl's table of texts is in every binary linked with it, and in no other.
    let musl = *MUSL
        .get_or_init(|| fs::read(bin()).is_ok_and(|b| memchr_find(&b, b"Symbolic link loop\0")));
    musl.then(|| TEXTS.iter().find(|(e, _)| *e == errno).map(|(_, t)| *t))
        .flatten()
}

#[cfg(unix)]
fn memchr_find(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Waits for `child` to end, for `bound` at the most: a bound that only a hang passes, never a
/// measure of speed (speed belongs in benches/). A child still running then is killed, and
/// the test fails naming `what`.
pub fn wait_or_hang(
    child: &mut std::process::Child,
    bound: std::time::Duration,
    what: &str,
) -> std::process::ExitStatus {
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > bound {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} still running after {bound:?}: it hangs");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Builds the C program (or library) `source`, a path below tests/integration/, into `out`
/// with the system's C compiler and `flags` before the output's name and `libs` after the
/// source; a failure to build fails the test with the compiler's words. (Its users, the
/// sandbox and the preloaded clock, are Linux's.)
#[cfg(target_os = "linux")]
pub fn build_c(source: &str, out: &Path, flags: &[&str], libs: &[&str]) {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/integration")
        .join(source);
    let built = Command::new("cc")
        .args(flags)
        .args(["-O2", "-Wall", "-o"])
        .arg(out)
        .arg(&source)
        .args(libs)
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "cc {}: {}",
        source.display(),
        String::from_utf8_lossy(&built.stderr)
    );
}
