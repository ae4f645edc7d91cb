//! Shell completions (`ffind --gen-completions SHELL`, committed under `completions/`), written
//! by clap_complete from the same definitions as `--help`.
//!
//! clap_complete knows one command per script, and `ffind --bench` is not a subcommand clap
//! can parse (a word `bench` must stay a search pattern, as in fd). So each script is two of
//! clap_complete's: the search's, and the benchmark's, whose command holds bench's own options
//! and the search options it passes on to every run ([`bench_command`]); the first is taught
//! to hand a command line that starts with `--bench` to the second. Besides that seam, the
//! words after `-x CMD`/`-X CMD` complete as CMD's own arguments (as fd's zsh completion does),
//! which clap cannot describe, and the options `--help` hides, or the system refuses, are not
//! offered. PowerShell's script is ffind's own, from the same definition ([`powershell`]).

use std::io::{self, Write};

use clap::{Arg, Command, CommandFactory};
use clap_complete::Shell;

use crate::bench;
use crate::cli::Cli;

mod powershell;

/// The search options `ffind --bench` cannot pass on: they are refused (-x, -X), or are not
/// options of a search.
const NOT_UNDER_BENCH: &[&str] = &["exec", "exec_batch", "bench", "gen_completions", "gen_man"];

/// Writes the completion script for `shell`, for `system` (`--gen-system`; None: this one).
pub fn write(shell: Shell, system: Option<&str>, out: &mut dyn Write) -> io::Result<()> {
    let mpi = crate::fs::help::offers_mpi(system);
    let shown = |cmd| shown(cmd, mpi);
    if shell == Shell::PowerShell {
        let tables = [shown(Cli::command()), shown(bench_command())].map(|mut cmd| {
            cmd.build();
            powershell::table(&cmd)
        });
        return out.write_all(powershell::script(&tables[0], &tables[1]).as_bytes());
    }
    let search = generate(shell, shown(Cli::command()), "ffind");
    let bench = generate(shell, shown(bench_command()), BENCH_NAME);
    let script = match shell {
        Shell::Bash => bash(&search, &bench),
        Shell::Zsh => zsh(&search, &bench),
        Shell::Fish => fish(&search, &bench),
        Shell::Elvish => elvish(&search, &bench),
        _ => search,
    };
    out.write_all(script.as_bytes())
}

/// The name the benchmark's script is generated under, then spliced into the search's.
const BENCH_NAME: &str = "ffind_bench";

fn generate(shell: Shell, mut cmd: Command, name: &str) -> String {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, name, &mut out);
    String::from_utf8(out).expect("clap_complete writes UTF-8")
}

/// What `ffind --bench` takes, as one command: its own options, then every search option
/// whose name bench does not take itself (as bench's parser splits them: `split.rs`). The
/// search options are copied without their relations to others (conflicts, overrides), which
/// name arguments this command does not have.
pub fn bench_command() -> Command {
    let mut own = bench::command();
    own.build();
    let mut search = Cli::command();
    search.build();
    let taken = |arg: &Arg| {
        let longs: Vec<&str> = arg.get_long_and_visible_aliases().unwrap_or_default();
        let clash = own.get_arguments().any(|b| {
            let b_longs = b.get_long_and_visible_aliases().unwrap_or_default();
            let b_all = b.get_all_aliases().unwrap_or_default();
            longs
                .iter()
                .any(|l| b_longs.contains(l) || b_all.contains(l))
                || arg.get_short().is_some() && arg.get_short() == b.get_short()
        });
        clash || NOT_UNDER_BENCH.contains(&arg.get_id().as_str())
    };
    let passed: Vec<Arg> = search
        .get_arguments()
        .filter(|a| !a.is_positional() && !a.is_hide_set() && !taken(a))
        .map(copy)
        .collect();
    let mut cmd = bench::command();
    for arg in passed {
        cmd = cmd.arg(arg);
    }
    cmd
}

/// `full` with only the arguments its `--help` shows, each with its conflicts among them (the
/// one relation clap_complete reads: zsh's exclusions). clap_complete offers hidden options
/// too, and clap cannot take an argument out of a command, so the command is built anew.
/// `mpi`: whether the system the script is for runs --mpi.
fn shown(mut full: Command, mpi: bool) -> Command {
    full.build();
    let mut cmd = Command::new(leak(full.get_name()))
        .disable_help_flag(true)
        .disable_version_flag(true);
    if let Some(about) = full.get_about() {
        cmd = cmd.about(about.clone());
    }
    if let Some(version) = full.get_version() {
        cmd = cmd.version(leak(version));
    }
    // What the system refuses is not offered (--owner on Windows, --mpi but on Linux).
    let refused = |a: &Arg| match a.get_id().as_str() {
        "owner" => !crate::fs::HAS_OWNERS,
        "mpi" => !mpi,
        _ => false,
    };
    for arg in full
        .get_arguments()
        .filter(|a| !a.is_hide_set() && !refused(a))
    {
        let mut shown = copy(arg);
        for other in full.get_arg_conflicts_with(arg) {
            if !other.is_hide_set() {
                shown = shown.conflicts_with(other.get_id().clone());
            }
        }
        cmd = cmd.arg(shown);
    }
    cmd
}

/// An argument with its names, help, values and action, but no relation to other arguments.
fn copy(arg: &Arg) -> Arg {
    let mut copy = Arg::new(arg.get_id().clone())
        .action(arg.get_action().clone())
        .value_parser(arg.get_value_parser().clone())
        .value_hint(arg.get_value_hint());
    if let Some(range) = arg.get_num_args() {
        copy = copy.num_args(range);
    }
    if let Some(names) = arg.get_value_names() {
        copy = copy.value_names(names.to_vec());
    }
    if let Some(short) = arg.get_short() {
        copy = copy.short(short);
    }
    if let Some(long) = arg.get_long() {
        copy = copy.long(leak(long));
    }
    if let Some(help) = arg.get_help() {
        copy = copy.help(help.clone());
    }
    if let Some(terminator) = arg.get_value_terminator() {
        copy = copy.value_terminator(leak(terminator.as_str()));
    }
    if let Some(delimiter) = arg.get_value_delimiter() {
        copy = copy.value_delimiter(delimiter);
    }
    copy = copy
        .visible_aliases(
            arg.get_visible_aliases()
                .unwrap_or_default()
                .into_iter()
                .map(leak),
        )
        .visible_short_aliases(arg.get_visible_short_aliases().unwrap_or_default());
    copy.require_equals(arg.is_require_equals_set())
        .allow_hyphen_values(arg.is_allow_hyphen_values_set())
        .required(arg.is_required_set())
        .last(arg.is_last_set())
        .global(arg.is_global_set())
}

/// `text` for the rest of the process: clap takes 'static names, and this runs once, as the
/// process ends.
fn leak(text: &str) -> &'static str {
    Box::leak(text.to_owned().into_boxed_str())
}

/// The function of `script` named `name`, from its first line to the `}` that closes it.
fn function<'a>(script: &'a str, header: &str) -> &'a str {
    let start = script
        .find(header)
        .unwrap_or_else(|| panic!("clap_complete's script has {header}"));
    let end = script[start..]
        .find("\n}\n")
        .map_or(script.len(), |e| start + e + 3);
    &script[start..end]
}

/// Inserts `text` after the first occurrence of `after` in `script`.
fn insert_after(script: &str, after: &str, text: &str) -> String {
    let at = script
        .find(after)
        .unwrap_or_else(|| panic!("clap_complete's script has {after:?}"))
        + after.len();
    format!("{}{text}{}", &script[..at], &script[at..])
}

/// bash: `_ffind` hands a line that starts with `ffind --bench` to `_ffind_bench`; the word
/// after `-x` or `-X` completes as a command (clap's script offers files there), and the words
/// after that command up to `;` as its own arguments, through bash-completion's
/// `_command_offset` where it is loaded (files where it is not).
fn bash(search: &str, bench: &str) -> String {
    let handoff =
        "\n    if [[ ${COMP_CWORD} -gt 1 && ${COMP_WORDS[1]} == --bench ]]; then\n        \
                   _ffind_bench \"$@\"\n        return\n    fi";
    let mut search = insert_after(search, "_ffind() {", &format!("{handoff}{BASH_EXEC}"));
    for option in ["--exec", "-x", "--exec-batch", "-X"] {
        let case = format!("\n                {option})\n                    COMPREPLY=($(compgen");
        let files = format!("{case} -f");
        assert!(
            search.contains(&files),
            "clap_complete's bash script has {option}"
        );
        search = search.replace(&files, &format!("{case} -c"));
    }
    insert_before_tail(&search, function(bench, "_ffind_bench() {"), "\nif [[ ")
}

/// bash, first in `_ffind`: the word after `-x CMD` or `-X CMD` (`--exec=CMD` is three words
/// to bash) up to a `;` completes as CMD's own arguments would.
const BASH_EXEC: &str = r#"
    local __at=0 __i
    for (( __i = 1; __i < COMP_CWORD; __i++ )); do
        if (( __at == 0 )); then
            case ${COMP_WORDS[__i]} in
                -x|-X|--exec|--exec-batch) __at=$(( __i + 1 )) ;;
            esac
        else
            case ${COMP_WORDS[__i]} in
                =) (( __i == __at )) && __at=$(( __i + 1 )) ;;
                ';'|'\;'|"';'"|'";"') __at=0 ;;
            esac
        fi
    done
    if (( __at > 0 && COMP_CWORD > __at )); then
        if declare -F _command_offset >/dev/null; then
            _command_offset "$__at"
        else
            COMPREPLY=($(compgen -f -- "${COMP_WORDS[COMP_CWORD]}"))
        fi
        return
    fi"#;

/// zsh: `_ffind` hands a line that starts with `ffind --bench` to `_ffind_bench`, without
/// the `--bench` word; `-x` and `-X` complete a command, then that command's own arguments up
/// to `;`, as fd's completion does.
fn zsh(search: &str, bench: &str) -> String {
    let handoff = "\n    if (( CURRENT > 2 )) && [[ $words[2] == --bench ]]; then\n        \
                   shift words\n        (( CURRENT-- ))\n        _ffind_bench \"$@\"\n        \
                   return\n    fi";
    let search = insert_after(search, "_ffind() {", handoff);
    let search = search.replace(
        ":CMD:_command_names -e' \\",
        ":CMD:_command_names -e:*\\;::program arguments: _normal' \\",
    );
    insert_before_tail(
        &search,
        function(bench, "_ffind_bench() {"),
        "\n(( $+functions",
    )
}

/// fish: the search's completions apply until `--bench` is the first argument, the
/// benchmark's after it; after `-x CMD` or `-X CMD`, up to a `;`, CMD's own
/// ([`FISH_EXEC`]).
fn fish(search: &str, bench: &str) -> String {
    let mut out = String::from(
        "# ffind --bench [OPTIONS] [PATH]...: the benchmark's options after --bench\n\
         function __ffind_bench\n    \
         set -l words (commandline -opc)\n    \
         test (count $words) -ge 2; and test \"$words[2]\" = --bench\n\
         end\n\n",
    );
    out.push_str(FISH_EXEC);
    for line in search.lines() {
        out.push_str(&condition(
            line,
            "ffind",
            "not __ffind_bench; and not __ffind_exec",
        ));
        out.push('\n');
    }
    for line in bench.lines() {
        out.push_str(&condition(line, BENCH_NAME, "__ffind_bench"));
        out.push('\n');
    }
    out
}

/// fish: the words of `-x CMD ARGS...` or `-X CMD ARGS...` before the cursor (none once a `;`
/// ends them, or while CMD itself is typed), and CMD's own completion of the word at the
/// cursor, as fish's `__fish_complete_subcommand` gives it.
const FISH_EXEC: &str = r#"# ffind -x CMD [ARGS]...: CMD's own completions after CMD
function __ffind_exec_words
    set -l words (commandline -opc)
    set -l at 0
    for i in (seq 2 (count $words))
        if test $at -eq 0
            contains -- $words[$i] -x -X --exec --exec-batch; and set at (math $i + 1)
        else if test "$words[$i]" = ';'
            set at 0
        end
    end
    test $at -gt 0; and test $at -le (count $words); and printf '%s\n' $words[$at..-1]
end

function __ffind_exec
    __ffind_exec_words >/dev/null
end

complete -c ffind -n __ffind_exec -f -a '(__fish_complete_subcommand --commandline (__ffind_exec_words) (commandline -ct | string collect -a))'

"#;

/// A fish `complete -c NAME ...` line for ffind under `condition`.
fn condition(line: &str, name: &str, condition: &str) -> String {
    match line.strip_prefix(&format!("complete -c {name} ")) {
        Some(rest) => format!("complete -c ffind -n '{condition}' {rest}"),
        None => line.to_owned(),
    }
}

/// elvish: the benchmark's candidates under the command `ffind;--bench`, which a first
/// argument `--bench` selects.
fn elvish(search: &str, bench: &str) -> String {
    let entry = between(bench, &format!("&'{BENCH_NAME}'= {{"), "\n    }");
    let search = insert_after(
        search,
        "    for word $words[1..-1] {",
        "\n        if (eq $word --bench) {\n            set command = $command';--bench'\n            \
         break\n        }",
    );
    insert_after(
        &search,
        "    var completions = [",
        &format!("\n        &'ffind;--bench'= {{{entry}\n        }}"),
    )
}

/// The text of `script` between `start` and the next `end`.
fn between<'a>(script: &'a str, start: &str, end: &str) -> &'a str {
    let from = script
        .find(start)
        .unwrap_or_else(|| panic!("clap_complete's script has {start:?}"))
        + start.len();
    let to = script[from..].find(end).map_or(script.len(), |e| from + e);
    &script[from..to]
}

/// `script` with `function` inserted before the first `tail` (where the script registers
/// itself).
fn insert_before_tail(script: &str, function: &str, tail: &str) -> String {
    let at = script
        .find(tail)
        .unwrap_or_else(|| panic!("clap_complete's script has {tail:?}"));
    format!("{}\n{function}{}", &script[..at], &script[at..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_command_is_consistent() {
        bench_command().debug_assert();
    }

    #[test]
    fn bench_takes_its_own_concurrency_and_the_search_filters() {
        let mut cmd = bench_command();
        cmd.build();
        let longs: Vec<&str> = cmd.get_arguments().filter_map(|a| a.get_long()).collect();
        for long in [
            "methods",
            "runs",
            "export-json",
            "extension",
            "hidden",
            "type",
        ] {
            assert!(longs.contains(&long), "{long}");
        }
        for long in ["method", "exec", "exec-batch", "bench"] {
            assert!(!longs.contains(&long), "{long}");
        }
        assert_eq!(longs.iter().filter(|l| **l == "concurrency").count(), 1);
    }

    #[test]
    fn every_shell_has_both_commands() {
        for shell in [
            Shell::Bash,
            Shell::Zsh,
            Shell::Fish,
            Shell::Elvish,
            Shell::PowerShell,
        ] {
            let mut out = Vec::new();
            write(shell, None, &mut out).unwrap();
            let script = String::from_utf8(out).unwrap();
            for option in ["export-markdown", "warmup", "ignore-contain", "bench"] {
                assert!(script.contains(option), "{shell}: {option}");
            }
        }
    }
    /// The scripts of a release archive for another Unix (`--gen-system`): the same as
    /// Linux's but for --mpi, which only Linux's offer.
    #[test]
    fn another_systems_scripts_offer_mpi_on_linux_only() {
        for shell in [Shell::Bash, Shell::Zsh, Shell::Fish, Shell::PowerShell] {
            let script = |system| {
                let mut out = Vec::new();
                write(shell, Some(system), &mut out).unwrap();
                String::from_utf8(out).unwrap()
            };
            let (linux, macos) = (script("linux"), script("macos"));
            assert!(linux.contains("--mpi"), "{shell}");
            assert!(!macos.contains("--mpi"), "{shell}");
            assert_eq!(script("freebsd"), macos, "{shell}");
        }
    }
}
