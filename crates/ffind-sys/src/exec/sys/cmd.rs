//! cmd.exe, which reads the rest of its command line as a command: which programs run
//! through it, and how the values of results are written on its command line so that it reads
//! them as text ([`ResultArgs`]).

use std::ffi::{OsStr, OsString};
use std::os::windows::ffi::{OsStrExt, OsStringExt};
use std::os::windows::process::CommandExt;
use std::process::Command;
use std::sync::OnceLock;

use windows_sys::Win32::Foundation::{ERROR_FILE_NOT_FOUND, ERROR_PATH_NOT_FOUND, ERROR_SUCCESS};
use windows_sys::Win32::System::Registry::{
    RegGetValueW, HKEY_CURRENT_USER, HKEY_LOCAL_MACHINE, RRF_RT_REG_DWORD,
};

use crate::exec::sys::argument::Argument;

/// Whether `program` names a `.bat` or `.cmd` file (std runs it through cmd.exe with its own
/// quoting), and whether it is cmd.exe itself or such a file: judged by the name of the file
/// Windows will run ([`run_name`]), so that `cmd.exe.` and `C:\Windows\System32\cmd.exe\.`
/// are cmd.exe, and `run.bat.` a batch file (as std, since Rust 1.81, judges the path it runs).
pub(super) fn runs_through_cmd(program: &OsStr) -> (bool, bool) {
    let name = run_name(program);
    let batch_file = name.ends_with(".bat") || name.ends_with(".cmd");
    (batch_file, batch_file || name == "cmd" || name == "cmd.exe")
}

/// The name of the file Windows runs for `program`, in ASCII lower case, as far as the text
/// tells it: its path's last name after Windows' own reading of a path, which drops a `.`
/// component and takes the name before a `..` away, and strips the dots and spaces that end
/// a name (`cmd.exe.`, `"cmd.exe "` and `cmd.exe..` open cmd.exe: the spelling of
/// CVE-2024-43402); a drive before it (`C:cmd.exe`), a stream's name after it
/// (`cmd.exe::$DATA`, the file's unnamed stream) and quotes, which no name holds, are left
/// out. Where Windows would not strip (a `\\?\` path, a named stream) this strips all the
/// same: a name taken for cmd's when it is not costs escapes, never a command run.
fn run_name(program: &OsStr) -> String {
    let path = program
        .to_string_lossy()
        .to_ascii_lowercase()
        .replace('"', "");
    let mut names: Vec<&str> = Vec::new();
    for part in path.split(['\\', '/']) {
        if part == ".." {
            names.pop();
        } else if !part.trim_end_matches(['.', ' ']).is_empty() {
            names.push(part);
        }
    }
    let mut name = names.last().copied().unwrap_or_default();
    if let [drive, b':', ..] = name.as_bytes() {
        if drive.is_ascii_alphabetic() {
            name = &name[2..];
        }
    }
    let file = name.split(':').next().unwrap_or_default();
    file.trim_end_matches(['.', ' ']).to_owned()
}

/// What cmd.exe parses on the command line it runs (after `/c` or `/k`) and a `^` escapes
/// outside its quotes: & | < > ^ ( ).
pub(super) const CMD_SPECIAL: &[u16] = &[0x26, 0x7C, 0x3C, 0x3E, 0x5E, 0x28, 0x29];

/// How the values a result gives a command's placeholders reach the program. Any program but
/// cmd.exe gets its arguments as std quotes them; a `.bat` or `.cmd` file runs through cmd.exe with
/// std's own guard (Rust 1.77.2 on). cmd.exe itself (`-x cmd /c echo {}`) reads the rest of its
/// command line as a command, where a file name's `&` would start another: there, each value is
/// written so that cmd reads it as text. The command line is built as std builds it (the command's
/// own text untouched: `cmd /c "type {} | more"` still pipes), and cmd's reading of it followed
/// (its quotes, which it strips from a command that begins with one, and the command's own `^`). A
/// value that is a whole argument (`{}`, `{/}`), but for the command's first word, is put in quotes
/// as std quotes a script's argument (when it holds anything but letters, digits and
/// `#$*+-./:?@\_`), and those quotes go on with it wherever cmd's command hands it: to `call`, to
/// another cmd, into a script's `%1`, each of which reads it again. A value's `& | < > ^ ( )` that
/// are outside quotes all the same (in an argument with text of the command's own, or where cmd
/// strips the quote) get a `^`, which holds for one reading; each `%` is written `%%cd:~,%` (what
/// std writes for a batch file's `%`: cmd's expansion gives a `%` it does not expand again), which
/// holds for one reading too. What no escape makes exact is refused, with why: a `!` where cmd
/// expands it, with delayed expansion on (`/v:on` before its `/c`, or without a `/v` there the
/// registry's `DelayedExpansion`: [`delayed_by_registry`]), or where the command starts another cmd
/// whose delayed expansion may be on (a `/v:on` in the command's text, or the registry); a `"` (no
/// Windows file name has one), which would move cmd's quotes for the command's own text; a line
/// break, where cmd ends the command. Where the command's own text reads its line again
/// ([`Rereading`]: `call`, `for`, `start`, another cmd), also a `%`, a `^` under `call` (which
/// doubles it, quoted or not), and a `& | < > ( )` that no quotes of a whole argument hold.
#[derive(Debug, Clone, Copy)]
pub struct ResultArgs {
    /// The program is cmd.exe.
    cmd: bool,
    /// Why cmd expands `!`, if it does: its `/v:on` (before `/c`), or the registry.
    delayed: Option<&'static str>,
    /// The registry turns delayed expansion on for a cmd not told otherwise.
    registry: bool,
    /// What of the command's own text reads the line again.
    again: Rereading,
    /// A whole argument's quotes may not hold: cmd strips the quote that begins a command, or
    /// the command's own quotes are uneven before it.
    may_strip: bool,
}

/// What in a command's own text makes cmd's line read again: `call` (which expands `%` again
/// and doubles every `^`), and what starts another cmd on it (a `cmd`, under any name Windows
/// runs it by; `for`, whose `('command')` runs in one; `start`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Rereading {
    call: bool,
    another_cmd: bool,
    /// A `/v:on` (or `/v`) in it, which would turn another cmd's delayed expansion on.
    delayed_on: bool,
}

impl Rereading {
    /// What the words of `text` say.
    fn of(text: &str) -> Rereading {
        let mut again = Rereading::default();
        let delimiters = [
            ' ', '\t', ',', ';', '=', '&', '|', '<', '>', '(', ')', '"', '@', '^', '\'', '`',
        ];
        for word in text.split(delimiters).filter(|w| !w.is_empty()) {
            let word = word.to_ascii_lowercase();
            // cmd also reads a command's name up to a `/` (`cmd/c`, `call/?`).
            let name = word.split('/').next().unwrap_or_default();
            let is_cmd = |w: &str| runs_through_cmd(OsStr::new(w)) == (false, true);
            let switches = word.split('/').skip(1);
            again.delayed_on |= switches
                .into_iter()
                .any(|s| s == "v" || (s.starts_with("v:") && s != "v:off"));
            match name {
                "call" => again.call = true,
                "for" | "start" => again.another_cmd = true,
                _ if is_cmd(&word) || is_cmd(name) => again.another_cmd = true,
                _ => {}
            }
        }
        again
    }

    fn or(self, other: Rereading) -> Rereading {
        Rereading {
            call: self.call || other.call,
            another_cmd: self.another_cmd || other.another_cmd,
            delayed_on: self.delayed_on || other.delayed_on,
        }
    }

    fn any(self) -> bool {
        self.call || self.another_cmd
    }
}

/// Whether `text` ends with the switch after which cmd reads its command: `/c`, `/k`, or `/r`
/// (an old spelling of `/c`), alone or after other switches written together (`/d/c`).
fn is_command_switch(text: &str) -> bool {
    let text = text.to_ascii_lowercase();
    text.starts_with('/')
        && text
            .rsplit('/')
            .next()
            .is_some_and(|s| ["c", "k", "r"].contains(&s))
}

/// Whether the registry turns delayed expansion on for a cmd that no `/v` tells otherwise:
/// `DelayedExpansion` under `HKEY_CURRENT_USER`, else `HKEY_LOCAL_MACHINE`,
/// `Software\Microsoft\Command Processor`, a DWORD not 0 (`cmd /?`: the user's value comes
/// first). One that cannot be read as a DWORD is taken as on. Read once.
fn delayed_by_registry() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        let key: Vec<u16> = "Software\\Microsoft\\Command Processor\0"
            .encode_utf16()
            .collect();
        let value: Vec<u16> = "DelayedExpansion\0".encode_utf16().collect();
        for root in [HKEY_CURRENT_USER, HKEY_LOCAL_MACHINE] {
            let mut data = 0u32;
            let mut size = std::mem::size_of::<u32>() as u32;
            // SAFETY: the key and value names are NUL-terminated UTF-16; `data` is a DWORD of
            // the size `size` says, which RRF_RT_REG_DWORD asks for.
            let read = unsafe {
                RegGetValueW(
                    root,
                    key.as_ptr(),
                    value.as_ptr(),
                    RRF_RT_REG_DWORD,
                    std::ptr::null_mut(),
                    (&raw mut data).cast(),
                    &mut size,
                )
            };
            match read {
                ERROR_SUCCESS => return data != 0,
                ERROR_FILE_NOT_FOUND | ERROR_PATH_NOT_FOUND => {}
                _ => return true,
            }
        }
        false
    })
}

impl ResultArgs {
    /// For a command that starts `program` with `args`, in order: each argument's text with
    /// its placeholders expanded for an empty path, and whether it has none (the command's
    /// own, the same for every result).
    pub fn for_command<'a>(
        program: &OsStr,
        args: impl IntoIterator<Item = (&'a OsStr, bool)>,
    ) -> ResultArgs {
        let (_, cmd) = runs_through_cmd(program);
        let registry = cmd && delayed_by_registry();
        ResultArgs::for_command_with(program, args, registry)
    }

    /// [`ResultArgs::for_command`], with what the registry says of delayed expansion.
    fn for_command_with<'a>(
        program: &OsStr,
        args: impl IntoIterator<Item = (&'a OsStr, bool)>,
        registry: bool,
    ) -> ResultArgs {
        let (batch_file, cmd) = runs_through_cmd(program);
        if !cmd || batch_file {
            // std's to quote: nothing of cmd's to follow.
            return ResultArgs {
                cmd: false,
                delayed: None,
                registry: false,
                again: Rereading::default(),
                may_strip: false,
            };
        }
        let args: Vec<(String, bool)> = args
            .into_iter()
            .map(|(text, fixed)| (text.to_string_lossy().into_owned(), fixed))
            .collect();
        let switch = args
            .iter()
            .position(|(text, fixed)| *fixed && is_command_switch(text));
        // The last `/v` before the switch decides, the registry without one (`cmd /?`). cmd
        // takes switches written together too (`/d/v:on/c`), and any `/v` but `/v:off` is
        // taken as on.
        let by_registry = "not passed to cmd, which expands '!' with delayed expansion on, as \
                           the registry's DelayedExpansion says (cmd /v:off /c ... passes it)";
        let mut delayed = registry.then_some(by_registry);
        'switches: for (text, fixed) in &args {
            for piece in text.to_ascii_lowercase().split('/').skip(1) {
                match piece {
                    "v:off" => delayed = None,
                    _ if piece.starts_with('v') => {
                        delayed = Some(
                            "not passed to cmd, which expands '!' with delayed expansion on \
                             (/v:on)",
                        )
                    }
                    _ if piece.starts_with(['c', 'k', 'r']) => break 'switches,
                    _ => {}
                }
            }
            if !fixed {
                break;
            }
        }
        let command = &args[switch.map_or(0, |i| i + 1)..];
        let again = command
            .iter()
            .fold(Rereading::default(), |again, (text, _)| {
                again.or(Rereading::of(text))
            });
        // Whether a whole argument's quotes hold: the line is written with a value `a&b` for
        // each, and they hold where cmd reads it inside quotes (no `^` was needed), following
        // cmd's stripping of the quote that begins its command and the command's own quotes.
        let sample: Vec<Argument> = args
            .iter()
            .map(|(text, fixed)| match (fixed, text.is_empty()) {
                (false, true) => Argument {
                    text: "a&b".into(),
                    values: std::iter::once(0..3).collect(),
                },
                _ => Argument::fixed(text.into()),
            })
            .collect();
        let outside = cmd_line(&sample)
            .iter()
            .zip(&sample)
            .any(|(written, arg)| !arg.values.is_empty() && written.contains(&0x5E));
        // Another cmd in the command strips the quote that begins its own command in turn.
        let begins_quoted = |(text, fixed): &(String, bool)| {
            !fixed || text.is_empty() || text.contains([' ', '\t', '"'])
        };
        let may_strip = outside
            || command
                .windows(2)
                .any(|pair| pair[0].1 && is_command_switch(&pair[0].0) && begins_quoted(&pair[1]));
        ResultArgs {
            cmd: true,
            delayed,
            registry,
            again,
            may_strip,
        }
    }

    /// Why `arg`'s values cannot be passed to the program, if they cannot.
    pub fn check(&self, arg: &Argument) -> Result<(), &'static str> {
        if !self.cmd {
            return Ok(());
        }
        let own: String = own_text(arg);
        let again = self.again.or(Rereading::of(&own));
        let whole = own.is_empty() && !arg.text.is_empty();
        for value in arg.values() {
            if value.iter().any(|&b| b == b'\n' || b == b'\r') {
                return Err("not passed to cmd, which would end the command at its line break");
            }
            if value.contains(&b'"') {
                return Err("not passed to cmd, where its '\"' would move the command's quotes");
            }
            if value.contains(&b'!') {
                if let Some(why) = self.delayed {
                    return Err(why);
                }
                if again.another_cmd && (self.registry || again.delayed_on) {
                    return Err(
                        "not passed to cmd, whose command starts another cmd, which \
                                expands '!' with delayed expansion on (its /v:on, or the \
                                registry's DelayedExpansion)",
                    );
                }
            }
            if !again.any() {
                continue;
            }
            if value.contains(&b'%') {
                return Err(
                    "not passed to cmd, whose command reads it again (call, for, start \
                            or another cmd), where no escape keeps a '%' from being expanded",
                );
            }
            if again.call && value.contains(&b'^') {
                return Err(
                    "not passed to cmd, whose command reads it again with call, which \
                            doubles its '^'",
                );
            }
            let special = value.iter().any(|&b| CMD_SPECIAL.contains(&u16::from(b)));
            if special && (!whole || self.may_strip) {
                return Err(
                    "not passed to cmd, whose command reads it again (call, for, start \
                            or another cmd), where only quotes around a whole argument keep \
                            '& | < > ^ ( )' as text",
                );
            }
        }
        Ok(())
    }

    /// The command: `program` with `args` (which [`ResultArgs::check`] let pass).
    pub fn command(&self, program: &OsStr, args: &[Argument]) -> Command {
        let mut cmd = Command::new(program);
        if self.cmd {
            for arg in cmd_line(args) {
                cmd.raw_arg(OsString::from_wide(&arg));
            }
        } else {
            cmd.args(args.iter().map(|a| &a.text));
        }
        cmd
    }
}

/// The text of `arg` that is the command's own: what is not a value, a space between pieces.
fn own_text(arg: &Argument) -> String {
    let bytes = arg.text.as_encoded_bytes();
    let mut own = String::new();
    let mut at = 0;
    for range in arg
        .values
        .iter()
        .chain(std::iter::once(&(bytes.len()..bytes.len())))
    {
        if range.start > at {
            own.push_str(&String::from_utf8_lossy(&bytes[at..range.start]));
            own.push(' ');
        }
        at = range.end;
    }
    own.trim_end().to_owned()
}

/// `args` as std would write them on a command line ([`std_quoted`]), each value in them
/// escaped for cmd.exe as [`ResultArgs`] says; one text for each argument.
fn cmd_line(args: &[Argument]) -> Vec<Vec<u16>> {
    // Each argument's units, each with whether it came from a value.
    let marked: Vec<Vec<(u16, bool)>> = args.iter().map(marked_units).collect();
    // cmd runs what follows the first `/c` or `/k` (all of it, when there is none). When that
    // begins with a quote, cmd strips it and the line's last one (`cmd /?`): those two do not
    // change what is quoted.
    let switch = args
        .iter()
        .position(|a| a.values.is_empty() && is_command_switch(&a.text.to_string_lossy()));
    let start = switch.map_or(0, |i| i + 1);
    // A value that is a whole argument is quoted as std quotes a script's argument; but not
    // the command's first word, whose quote cmd would strip, with the line's last one.
    let quoted: Vec<Vec<(u16, bool)>> = marked
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let whole = i != start && !m.is_empty() && m.iter().all(|&(_, value)| value);
            std_quoted_marked(m, whole && quoted_as_script_argument(m))
        })
        .collect();
    let mut stripped: Vec<(usize, usize)> = Vec::new();
    let command: Vec<(usize, usize, u16)> = (start..quoted.len())
        .flat_map(|i| quoted[i].iter().enumerate().map(move |(j, u)| (i, j, u.0)))
        .collect();
    let first = command.iter().find(|&&(_, _, u)| u != 0x20 && u != 0x09);
    if let Some(&(i, j, 0x22)) = first {
        stripped.push((i, j));
        if let Some(&(i, j, _)) = command.iter().rev().find(|&&(_, _, u)| u == 0x22) {
            stripped.push((i, j));
        }
    }
    let mut in_quotes = false;
    let mut line = Vec::with_capacity(quoted.len());
    for (i, arg) in quoted.iter().enumerate() {
        // The space before an argument ends what a `^` escaped.
        let mut escaped = false;
        let mut out = Vec::with_capacity(arg.len() * 2);
        for (j, &(u, value)) in arg.iter().enumerate() {
            if value && u == 0x25 {
                out.extend("%%cd:~,".encode_utf16());
            } else if value && !in_quotes && !escaped && CMD_SPECIAL.contains(&u) {
                out.push(0x5E);
            }
            out.push(u);
            if escaped {
                escaped = false;
            } else if u == 0x22 && !stripped.contains(&(i, j)) {
                in_quotes = !in_quotes;
            } else if u == 0x5E && !in_quotes && !value {
                escaped = true;
            }
        }
        line.push(out);
    }
    line
}

/// An argument's UTF-16 units, each with whether it came from a value.
fn marked_units(arg: &Argument) -> Vec<(u16, bool)> {
    let bytes = arg.text.as_encoded_bytes();
    let mut units = Vec::with_capacity(bytes.len());
    let mut at = 0;
    let piece = |range: std::ops::Range<usize>, value: bool, units: &mut Vec<(u16, bool)>| {
        let text = crate::fs::os_string(bytes[range].to_vec());
        units.extend(text.encode_wide().map(|u| (u, value)));
    };
    for range in &arg.values {
        piece(at..range.start, false, &mut units);
        piece(range.clone(), true, &mut units);
        at = range.end;
    }
    piece(at..bytes.len(), false, &mut units);
    units
}

/// Whether `arg` holds what std quotes in an argument of a script: an ASCII character other
/// than a letter, a digit and `#$*+-./:?@\_`, or a control character. (std also quotes one
/// that ends with `\`, for a script's `"%~1"`; cmd reads `C:\` as text without quotes.)
fn quoted_as_script_argument(arg: &[(u16, bool)]) -> bool {
    let plain = |c: u8| c.is_ascii_alphanumeric() || b"#$*+-./:?@\\_".contains(&c);
    arg.iter().any(|&(u, _)| match u {
        0..=0x7F => !plain(u as u8),
        0x80..=0x9F => true,
        _ => false,
    })
}

/// `arg` as std quotes it on a command line: quotes around it when it is empty or holds a
/// space or a tab (or when `always`); `2n + 1` backslashes before a `"` inside, `2n` before
/// the closing one. Each unit keeps its mark; what std adds is the command's own.
pub(super) fn std_quoted_marked(arg: &[(u16, bool)], always: bool) -> Vec<(u16, bool)> {
    let quote = always || arg.is_empty() || arg.iter().any(|&(u, _)| u == 0x20 || u == 0x09);
    let mut quoted = Vec::with_capacity(arg.len() + 2);
    if quote {
        quoted.push((0x22, false));
    }
    let mut backslashes = 0;
    for &(u, value) in arg {
        if u == 0x5C {
            backslashes += 1;
        } else {
            if u == 0x22 {
                quoted.extend(std::iter::repeat_n((0x5C, value), backslashes + 1));
            }
            backslashes = 0;
        }
        quoted.push((u, value));
    }
    if quote {
        quoted.extend(std::iter::repeat_n((0x5C, false), backslashes));
        quoted.push((0x22, false));
    }
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An argument all of the command's own (`false`) or all a value (`true`).
    fn arg(text: &str, value: bool) -> Argument {
        Argument {
            text: text.into(),
            values: if value {
                std::iter::once(0..text.len()).collect()
            } else {
                Vec::new()
            },
        }
    }

    /// The command line cmd gets after its name, for `args`.
    fn cmd_text(args: &[Argument]) -> String {
        let line: Vec<String> = cmd_line(args)
            .iter()
            .map(|a| String::from_utf16(a).unwrap())
            .collect();
        line.join(" ")
    }
    /// How `cmd` runs `words` (an argument with `{}` has a placeholder, which is left out).
    fn for_cmd(program: &str, words: &[&str]) -> ResultArgs {
        for_cmd_registry(program, words, false)
    }

    /// [`for_cmd`] where the registry turns delayed expansion on (`registry`) or not.
    fn for_cmd_registry(program: &str, words: &[&str], registry: bool) -> ResultArgs {
        let own: Vec<(OsString, bool)> = words
            .iter()
            .map(|w| (OsString::from(w.replace("{}", "")), !w.contains("{}")))
            .collect();
        ResultArgs::for_command_with(
            OsStr::new(program),
            own.iter().map(|(t, f)| (t.as_os_str(), *f)),
            registry,
        )
    }

    #[test]
    fn cmd_reads_a_value_as_text_and_its_own_text_as_it_was() {
        let c = |a| arg(a, false);
        let v = |a| arg(a, true);
        // A whole argument is quoted as std quotes a script's argument; inside the quotes cmd
        // reads & | < > ^ ( ) as text, in every reading.
        assert_eq!(
            cmd_text(&[c("/c"), c("echo"), v("a|b<c>d&e^f(g)")]),
            "/c echo \"a|b<c>d&e^f(g)\""
        );
        assert_eq!(
            cmd_text(&[c("/c"), c("echo"), v("5%x%")]),
            "/c echo \"5%%cd:~,%x%%cd:~,%\""
        );
        assert_eq!(
            cmd_text(&[c("/c"), c("echo"), v("./a-b/c_d.txt"), v(r"C:\x y\")]),
            "/c echo ./a-b/c_d.txt \"C:\\x y\\\\\""
        );
        assert_eq!(cmd_text(&[c("/c"), c("dir"), v("C:\\")]), "/c dir C:\\");
        // Where no quotes hold it, a ^ before each: with text of the command's own...
        let mixed = Argument {
            text: "[a&b]".into(),
            values: std::iter::once(1..4).collect(),
        };
        assert_eq!(cmd_text(&[c("/c"), c("echo"), mixed]), "/c echo [a^&b]");
        // Switches written together end with the one before the command.
        assert_eq!(
            cmd_text(&[c("/D/C"), v("a&b"), c("x y")]),
            "/D/C a^&b \"x y\""
        );
        // ... and where a command beginning with a quote loses it and the line's last one.
        assert_eq!(cmd_text(&[c("/c"), v("a b&c")]), "/c \"a b^&c\"");
        // The command's first word is not quoted for it (cmd would strip that quote and the
        // last one, the command's own).
        assert_eq!(cmd_text(&[c("/c"), v("a&b"), c("x y")]), "/c a^&b \"x y\"");
        assert_eq!(
            cmd_text(&[c("/c"), c("type x | more"), v("a&b")]),
            "/c \"type x | more\" \"a^&b\""
        );
        // The command's own ^ escapes the value's first character; the rest is escaped.
        let mixed = Argument {
            text: "^a&b|".into(),
            values: std::iter::once(1..5).collect(),
        };
        assert_eq!(cmd_text(&[c("/c"), c("echo"), mixed]), "/c echo ^a^&b^|");
        // Any other program gets what std writes.
        let other = for_cmd("findstr.exe", &[]);
        let cmd = other.command(OsStr::new("findstr.exe"), &[v("a&b")]);
        assert_eq!(cmd.get_args().collect::<Vec<_>>(), ["a&b"]);
    }

    #[test]
    fn cmd_is_known_by_the_name_windows_runs() {
        for program in [
            "cmd",
            "CMD.EXE",
            "cmd.exe.",
            "cmd.exe..",
            "cmd.exe ",
            "cmd.exe. .",
            "\"cmd.exe\"",
            r"C:\Windows\System32\cmd.exe.",
            r"C:\Windows\System32\cmd.exe\.",
            r"C:\Windows\System32\cmd.exe\ . ",
            r"C:\Windows\System32\cmd.exe\x\..",
            r"C:/Windows/System32/./cmd",
            r"\\?\C:\Windows\System32\cmd.exe",
            "C:cmd.exe",
            "cmd.exe::$DATA",
            "X:cmd.exe",
            "cmd.exe. :$data",
            "cmd.exe:stream",
        ] {
            assert_eq!(
                runs_through_cmd(OsStr::new(program)),
                (false, true),
                "{program:?}"
            );
        }
        for script in ["run.bat", "RUN.CMD.", r"tools\run.bat \.", "run.cmd::$data"] {
            assert_eq!(
                runs_through_cmd(OsStr::new(script)),
                (true, true),
                "{script:?}"
            );
        }
        for other in [
            "cmdx",
            "cmd.exe.x",
            r"C:\Windows\System32\cmd.exe\..",
            r"cmd\x.exe",
            "xcmd.exe",
            "cmdx:cmd.exe",
            "run.bat.x",
        ] {
            assert_eq!(
                runs_through_cmd(OsStr::new(other)),
                (false, false),
                "{other:?}"
            );
        }
    }

    #[test]
    fn cmd_is_refused_what_no_escape_makes_exact() {
        let v = |a| arg(a, true);
        // '!' is expanded where delayed expansion is on: by the last /v before /c, else by
        // the registry.
        for registry in [false, true] {
            let cmd = |words: &[&str]| for_cmd_registry("cmd", words, registry);
            let plain = cmd(&["/c", "echo", "{}"]);
            let late = cmd(&["/c", "echo", "/v:off", "{}"]);
            assert_eq!(plain.check(&v("a!b")).is_err(), registry);
            assert_eq!(late.check(&v("a!b")).is_err(), registry);
            let off = cmd(&["/d", "/V:OFF", "/c", "echo", "{}"]);
            let on = cmd(&["/v:off", "/v:on", "/c", "echo", "{}"]);
            assert!(off.check(&v("a!b")).is_ok());
            assert!(on.check(&v("a!b")).is_err());
            for together in [
                &["/d/v:on/c", "echo", "{}"][..],
                &["/V:1", "/c", "echo", "{}"],
            ] {
                assert!(cmd(together).check(&v("a!b")).is_err(), "{together:?}");
            }
            assert!(cmd(&["/v:on/v:off/c", "echo", "{}"])
                .check(&v("a!b"))
                .is_ok());
            // Another cmd has its own: the registry's, or the command's /v:on.
            let nested = cmd(&["/v:off", "/c", "cmd", "/c", "echo", "{}"]);
            assert_eq!(nested.check(&v("a!b")).is_err(), registry);
            let nested_on = cmd(&["/v:off", "/c", "cmd/v:on", "/c", "echo", "{}"]);
            assert!(nested_on.check(&v("a!b")).is_err());
            let nested_off = cmd(&["/c", "cmd", "/v:off", "/c", "echo", "{}"]);
            assert_eq!(nested_off.check(&v("a!b")).is_err(), registry);
        }
        let off = for_cmd("CMD.EXE", &["/V:OFF", "/c", "echo", "{}"]);
        let plain = for_cmd_registry("cmd", &["/c", "echo", "{}"], true);
        for bad in ["a\nb", "a\rb", "a\"b"] {
            assert!(off.check(&v(bad)).is_err(), "{bad:?}");
        }
        // The command's own '!' is its own; a .bat file is std's to guard.
        assert!(plain.check(&arg("!x!", false)).is_ok());
        let script = for_cmd("run.bat", &["{}"]);
        assert!(script.check(&v("a!b")).is_ok());
    }

    #[test]
    fn a_command_that_reads_its_line_again_gets_a_whole_argument_in_quotes_or_nothing() {
        let v = |a| arg(a, true);
        // Read once (a script's %1 is not expanded again): everything passes.
        for once in [
            for_cmd("cmd", &["/c", "echo", "{}"]),
            for_cmd("cmd", &["/c", "s.bat", "{}"]),
        ] {
            for name in ["x&y", "p%OS%q", "d^e(f)", "a b"] {
                assert!(once.check(&v(name)).is_ok(), "{once:?} {name}");
            }
        }
        let call = for_cmd("cmd", &["/c", "call", "echo", "{}"]);
        let nested = for_cmd(
            "cmd",
            &["/v:off", "/c", "cmd.exe.", "/d", "/c", "echo", "{}"],
        );
        let for_f = for_cmd(
            "cmd",
            &[
                "/c", "for", "/f", "%i", "in", "('echo", "{}", "')", "do", "@echo", "%i",
            ],
        );
        for again in [call, nested, for_f] {
            // A whole argument's quotes keep & ( ) text in every reading...
            for name in ["x&mkdir;P", "a b(1)", "c|d<e>f"] {
                assert!(again.check(&v(name)).is_ok(), "{again:?} {name}");
            }
            // ... but no escape keeps % from the second expansion.
            assert!(again.check(&v("p%OS%q")).is_err(), "{again:?}");
            // Nor does a ^ escape a value's & in an argument with text of its own.
            let mixed = Argument {
                text: "[a&b]".into(),
                values: std::iter::once(1..4).collect(),
            };
            assert!(again.check(&mixed).is_err(), "{again:?}");
        }
        // call doubles a ^, quoted or not; another cmd may have delayed expansion on.
        assert!(call.check(&v("d^e")).is_err());
        assert!(nested.check(&v("d^e")).is_ok());
        assert!(nested.check(&v("b!OS!c")).is_ok());
        // The command's own quotes, even, leave a whole argument's quotes holding.
        let start = for_cmd("cmd", &["/c", "start", "\"\"", "{}"]);
        assert!(start.check(&v("a b(1)&c.pdf")).is_ok());
        assert!(start.check(&v("p%OS%q.pdf")).is_err());
        // Where cmd strips the quote that would begin a command, or the command's own quotes
        // are uneven, they do not hold.
        for stripped in [
            for_cmd("cmd", &["/c", "call echo", "{}"]),
            for_cmd("cmd", &["/c", "cmd", "/c", "{}"]),
            for_cmd("cmd", &["/c", "call", "echo", "\"x", "{}"]),
        ] {
            assert!(stripped.check(&v("x&y")).is_err(), "{stripped:?}");
            assert!(stripped.check(&v("x.txt")).is_ok(), "{stripped:?}");
        }
    }
}
