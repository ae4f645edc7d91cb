//! cmd.exe under `-x` and `-X`, run under Wine's cmd in CI: it reads what follows its `/c` as
//! a command, so ffind writes each value a result gives it as text (docs/SECURITY.md), under
//! every name Windows runs cmd.exe by, and where the command reads its line again (`call`, a
//! second cmd, a script's `%1`).

use std::fs;
use std::process::Command;

use crate::fixture::Tree;
use crate::windows::{run_with_path, succeeds_quietly};

/// Cmd.exe runs what follows its `/c` as a command, so `-x cmd /c echo {}`
/// would run the `echo.PWNED` of a file named `a&echo.PWNED` (fd.exe does). ffind escapes the
/// values it gives cmd (quotes around a whole argument, `^` where no quotes hold, and `%` as
/// `%%cd:~,%`), so that each name reaches echo as text,
/// `-x` and `-X` alike, and also where the command's own text is quoted or piped; a `!` is
/// passed where cmd does not expand it (delayed expansion off, as it is unless `/v:on` or the
/// registry turns it on), and refused with the name and why where it does, exit code 1, the
/// others still run. (`| < > "` cannot be in a Windows file name; the unit tests of
/// exec/sys/cmd.rs give them as values.)
#[test]
fn cmd_gets_a_result_as_text_never_as_a_command() {
    let t = Tree::new();
    let names = [
        "a&echo.PWNED",
        "b^c",
        "c%PATH%d",
        "d(e)f",
        "e&&echo PWNED & (x)",
        "f'g%",
        "g 100% & (more)",
        "h)&echo.PWNED&(",
    ];
    t.files(&names);
    // Each is a whole argument, which goes in quotes as std quotes a script's argument.
    let echoed = |name: &str| format!("\"./{name}\"");
    let mut want: Vec<String> = names.iter().map(|n| echoed(n)).collect();
    want.sort();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let run_cmd = |args: &[&str]| run_with_path(&t, &path, args);
    for args in [
        &["-j", "1", "-x", "cmd", "/c", "echo", "{}"][..],
        &["-j", "4", "-x", "cmd", "/c", "echo", "{}"],
        &["--batch-size", "1", "-X", "cmd", "/c", "echo"],
        &[
            "-x",
            "C:\\windows\\system32\\CMD.EXE",
            "/d",
            "/c",
            "echo",
            "{}",
        ],
    ] {
        let run = run_cmd(args);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{args:?}");
        assert_eq!(run.sorted(), want, "{args:?}");
    }
    // The command's own syntax stays cmd's: a pipe and a `^` of its own, and quotes that cmd
    // strips from a command beginning with one.
    let run = run_cmd(&["-x", "cmd", "/c", "echo [{/}]| more"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut piped: Vec<String> = names.iter().map(|n| format!("[{n}]")).collect();
    piped.sort();
    assert_eq!(run.sorted(), piped);
    let run = run_cmd(&["--batch-size", "1", "-X", "cmd", "/c", "echo ^{/}"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut bare: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    bare.sort();
    assert_eq!(run.sorted(), bare);
    // '!': refused where delayed expansion is on; the rest still run.
    t.files(&["i!PATH!j"]);
    for args in [
        &["-x", "cmd", "/v:on", "/c", "echo", "{}"][..],
        &["-X", "cmd", "/d", "/v:off", "/v:on", "/c", "echo"],
    ] {
        let run = run_cmd(args);
        assert_eq!(run.code, 1, "{args:?}");
        assert_eq!(
            run.stderr,
            "ffind: ./i!PATH!j: not passed to cmd, which expands '!' with delayed expansion on \
             (/v:on)\n",
            "{args:?}"
        );
        let out = String::from_utf8_lossy(&run.stdout);
        assert!(
            !out.contains("i!") && !out.contains("\nPWNED"),
            "{args:?}: {out}"
        );
    }
    // Passed, as it is, where delayed expansion is off: by default (the registry says
    // nothing in the tests' Wine prefix), and with /v:off.
    let mut with_bang = want.clone();
    with_bang.push("\"./i!PATH!j\"".into());
    with_bang.sort();
    for args in [
        &["-j", "1", "-x", "cmd", "/c", "echo", "{}"][..],
        &[
            "-j", "1", "-x", "cmd", "/v:on", "/v:off", "/c", "echo", "{}",
        ],
        &["--batch-size", "1", "-X", "cmd", "/c", "echo"],
    ] {
        let run = run_cmd(args);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{args:?}");
        assert_eq!(run.sorted(), with_bang, "{args:?}");
    }
}

/// Names that cmd would read as commands or expand, were they not escaped for it: `&` runs
/// `mkdir` (which takes `;` as a space) or `echo.`, `%OS%` and `!OS!` expand to `Windows_NT`.
const HOSTILE: [&str; 5] = [
    "x&mkdir;PWNED_DIR",
    "a&echo.PWNED",
    "p%OS%q",
    "d^e(f)",
    "b!OS!c",
];

/// The message for a name with `!` given to cmd with delayed expansion on (`/v:on`).
const BANG_REFUSED: &str =
    "ffind: ./b!OS!c: not passed to cmd, which expands '!' with delayed expansion on (/v:on)\n";

/// Runs `args` on a tree of the [`HOSTILE`] names, and checks that cmd read each as text: it
/// echoed every name as it is (cmd's quotes aside), but the one with `!` where `delayed` (the
/// command's `/v:on`) turns delayed expansion on (refused, with why, exit code 1), made no
/// directory and printed no `PWNED`; `words` splits -X's one line.
fn assert_cmd_read_text(t: &Tree, args: &[&str], words: bool, delayed: bool) {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let run = run_with_path(t, &path, args);
    let out = String::from_utf8_lossy(&run.stdout).replace('"', "");
    let mut echoed: Vec<&str> = if words {
        out.split_whitespace().collect()
    } else {
        out.lines().collect()
    };
    echoed.sort_unstable();
    let passed = if delayed { &HOSTILE[..4] } else { &HOSTILE[..] };
    let mut want: Vec<String> = passed.iter().map(|n| format!("./{n}")).collect();
    want.sort();
    assert_eq!(echoed, want, "{args:?}: {}", run.stderr);
    let refused = if delayed { (1, BANG_REFUSED) } else { (0, "") };
    assert_eq!((run.code, run.stderr.as_str()), refused, "{args:?}");
    assert!(
        !t.root().join("PWNED_DIR").exists(),
        "{args:?} made PWNED_DIR"
    );
}

/// Windows strips the dots and spaces that end a file name (the spelling behind
/// CVE-2024-43402): `cmd.exe.`, `"cmd.exe "`, `cmd.exe..` and `C:\windows\system32\cmd.exe\.`
/// all run cmd.exe, and ffind knows it for cmd by the name Windows runs, `-x` and `-X` alike,
/// with delayed expansion on and off.
#[test]
fn cmd_is_known_under_every_spelling_that_runs_it() {
    let t = Tree::new();
    t.files(&HOSTILE);
    for cmd in [
        "cmd.exe.",
        "cmd.exe..",
        "cmd.exe ",
        "cmd.exe. .",
        "CMD.EXE.",
        r"C:\windows\system32\cmd.exe.",
        r"C:\windows\system32\cmd.exe\.",
        r"C:\windows\system32\cmd.exe ",
        r"C:\windows\system32\.\cmd.exe..",
    ] {
        assert_cmd_read_text(
            &t,
            &["-j", "1", "-x", cmd, "/c", "echo", "{}"],
            false,
            false,
        );
        assert_cmd_read_text(&t, &["-X", cmd, "/v:on", "/c", "echo"], true, true);
    }
}

/// cmd's escapes hold for one reading of its line, and some commands read a value again:
/// `call` (which expands `%` once more and doubles `^`), another cmd, a script that uses its
/// `%1` unquoted. A value that is a whole argument goes in quotes, as std quotes a script's
/// argument, and those quotes go on with it: `&`, `(`, `)` stay text in every reading, `-x`
/// and `-X` alike. What no quotes keep (a `%` read again, a `^` under `call`) is refused,
/// named with why, exit 1, and the rest still run.
#[test]
fn cmd_keeps_a_whole_argument_text_when_its_line_is_read_again() {
    let t = Tree::new();
    let names = ["x&mkdir;PWNED_DIR", "a&echo.PWNED", "d(e)f", "g h&(i)"];
    t.files(&names);
    let tools = t.home().join("tools");
    fs::create_dir_all(&tools).unwrap();
    fs::write(tools.join("s.bat"), "@echo %*\r\n").unwrap();
    let mut path = std::ffi::OsString::from(tools.as_os_str());
    path.push(";");
    path.push(std::env::var_os("PATH").unwrap_or_default());
    let quoted: Vec<String> = names.iter().map(|n| format!("\"./{n}\"")).collect();
    let mut want = quoted.clone();
    want.sort();
    for command in [
        &["cmd", "/c", "call", "echo"][..],
        &["cmd", "/c", "cmd", "/c", "echo"],
        &[
            "cmd.exe.", "/d", "/c", "cmd.exe", "/d", "/c", "call", "echo",
        ],
        &["cmd", "/c", "s.bat"],
    ] {
        let per_result: Vec<&str> = ["-j", "1", "-x"].iter().chain(command).copied().collect();
        let run = run_with_path(&t, &path, &per_result);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{command:?}");
        assert_eq!(run.sorted(), want, "-x {command:?}");
        let batch: Vec<&str> = ["-X"].iter().chain(command).copied().collect();
        let run = run_with_path(&t, &path, &batch);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{command:?}");
        assert_eq!(run.sorted(), [want.join(" ")], "-X {command:?}");
        assert!(
            !t.root().join("PWNED_DIR").exists(),
            "{command:?} made PWNED_DIR"
        );
    }
    // What the second reading would change is refused; the rest still run.
    t.files(&["p%OS%q", "k^l"]);
    for (command, refused) in [
        (
            &["cmd", "/c", "call", "echo", "{}"][..],
            &["./k^l", "./p%OS%q"][..],
        ),
        (&["cmd", "/c", "cmd", "/c", "echo", "{}"], &["./p%OS%q"]),
    ] {
        let args: Vec<&str> = ["-j", "1", "-x"].iter().chain(command).copied().collect();
        let run = run_with_path(&t, &path, &args);
        assert_eq!(run.code, 1, "{command:?}");
        let mut got: Vec<&str> = run.stderr.lines().collect();
        got.sort_unstable();
        assert_eq!(got.len(), refused.len(), "{command:?}: {}", run.stderr);
        for (line, name) in got.iter().zip(refused) {
            assert!(
                line.starts_with(&format!(
                    "ffind: {name}: not passed to cmd, whose command reads it again"
                )),
                "{command:?}: {line}"
            );
        }
        let mut passed = want.clone();
        for name in ["./k^l", "./p%OS%q"] {
            if !refused.contains(&name) {
                passed.push(format!("\"{name}\""));
            }
        }
        passed.sort();
        assert_eq!(run.sorted(), passed, "{command:?}");
    }
}

/// A `DelayedExpansion` value in the registry (`reg add`, as a user sets it) under `root`
/// (`HKCU` or `HKLM`), deleted again when dropped. It is the prefix's, seen by every program:
/// the suite runs one test at a time under Wine (.ci/windows.sh).
struct DelayedExpansion(String);

impl DelayedExpansion {
    fn set(root: &str, on: bool) -> DelayedExpansion {
        let key = format!(r"{root}\Software\Microsoft\Command Processor");
        let data = if on { "1" } else { "0" };
        let set = [
            "add",
            &key,
            "/v",
            "DelayedExpansion",
            "/t",
            "REG_DWORD",
            "/d",
            data,
            "/f",
        ];
        assert!(reg(&set), "reg {set:?}");
        DelayedExpansion(key)
    }
}

impl Drop for DelayedExpansion {
    fn drop(&mut self) {
        reg(&["delete", &self.0, "/v", "DelayedExpansion", "/f"]);
    }
}

/// Runs Wine's (or Windows') `reg` quietly: whether it succeeded.
fn reg(args: &[&str]) -> bool {
    succeeds_quietly(Command::new("reg").args(args))
}

/// cmd expands `!` only with delayed expansion on, which is off unless `/v:on` or the
/// registry turns it on for every cmd (`DelayedExpansion` under `HKCU`, else `HKLM`,
/// `Software\Microsoft\Command Processor`; the user's value comes first). ffind reads the
/// registry as cmd does: it passes a name with `!` where the expansion is off, refuses it
/// where the registry turns it on (for the cmd it starts, or for another that cmd starts),
/// and `/v:off` passes it whatever the registry says. Wine 8's cmd does not read the value
/// itself, so what this shows is ffind's judgement.
#[test]
fn a_bang_passes_unless_the_registry_turns_delayed_expansion_on() {
    let t = Tree::new();
    t.files(&["b!OS!c", "plain"]);
    let path = std::env::var_os("PATH").unwrap_or_default();
    let run = |args: &[&str]| run_with_path(&t, &path, args);
    let echo = ["-j", "1", "-x", "cmd", "/c", "echo", "{}"];
    let passed = |args: &[&str]| {
        let run = run(args);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{args:?}");
        assert_eq!(run.sorted(), ["\"./b!OS!c\"", "./plain"], "{args:?}");
    };
    let refused = |args: &[&str], why: &str| {
        let run = run(args);
        let message = format!("ffind: ./b!OS!c: not passed to cmd, {why}\n");
        assert_eq!((run.code, &run.stderr), (1, &message), "{args:?}");
        assert_eq!(run.sorted(), ["./plain"], "{args:?}");
    };
    let by_registry = "which expands '!' with delayed expansion on, as the registry's \
                       DelayedExpansion says (cmd /v:off /c ... passes it)";
    passed(&echo);
    {
        let _machine = DelayedExpansion::set("HKLM", true);
        refused(&echo, by_registry);
        let _user = DelayedExpansion::set("HKCU", false);
        passed(&echo);
    }
    {
        let _user = DelayedExpansion::set("HKCU", true);
        refused(&echo, by_registry);
        passed(&["-j", "1", "-x", "cmd", "/v:off", "/c", "echo", "{}"]);
        refused(
            &[
                "-j", "1", "-x", "cmd", "/v:off", "/c", "cmd", "/c", "echo", "{}",
            ],
            "whose command starts another cmd, which expands '!' with delayed expansion on \
             (its /v:on, or the registry's DelayedExpansion)",
        );
    }
    passed(&echo);
    passed(&[
        "-j", "1", "-x", "cmd", "/v:off", "/c", "cmd", "/c", "echo", "{}",
    ]);
}
