//! Shell completions (`ffind --gen-completions SHELL`, committed under `completions/`), written
//! by clap_complete from the same definitions as `--help`.
//!
//! clap_complete knows one command per script, and `ffind --bench` is not a subcommand clap
//! can parse (a word `bench` must stay a search pattern, as in fd). So each script is two of
//! clap_complete's: the search's, and the benchmark's, whose command holds bench's own options
//! and the search options it passes on to every run ([`bench_command`]); the first is taught
//! to hand a command line that starts with `--bench` to the second. Besides that seam, zsh's
//! `-x`/`-X` get fd's completion of the command's own arguments, which clap cannot describe.

use std::io::{self, Write};

use clap::{Arg, Command, CommandFactory};
use clap_complete::Shell;

use crate::bench;
use crate::cli::Cli;

/// The search options `ffind --bench` cannot pass on: they are refused (-x, -X), or are not
/// options of a search.
const NOT_UNDER_BENCH: &[&str] = &["exec", "exec_batch", "bench", "gen_completions", "gen_man"];

/// Writes the completion script for `shell`.
pub fn write(shell: Shell, out: &mut dyn Write) -> io::Result<()> {
    let search = generate(shell, Cli::command(), "ffind");
    let bench = generate(shell, bench_command(), BENCH_NAME);
    let script = match shell {
        Shell::Bash => bash(&search, &bench),
        Shell::Zsh => zsh(&search, &bench),
        Shell::Fish => fish(&search, &bench),
        Shell::Elvish => elvish(&search, &bench),
        Shell::PowerShell => powershell(&search, &bench),
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
        // clap takes a 'static name; this runs once, as the process ends.
        let long: &'static str = Box::leak(long.to_owned().into_boxed_str());
        copy = copy.long(long);
    }
    if let Some(help) = arg.get_help() {
        copy = copy.help(help.clone());
    }
    copy.require_equals(arg.is_require_equals_set())
        .allow_hyphen_values(arg.is_allow_hyphen_values_set())
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

/// bash: `_ffind` hands a line that starts with `ffind --bench` to `_ffind_bench`, and the
/// word after `-x` or `-X` completes as a command (clap's script offers files there).
fn bash(search: &str, bench: &str) -> String {
    let handoff =
        "\n    if [[ ${COMP_CWORD} -gt 1 && ${COMP_WORDS[1]} == --bench ]]; then\n        \
                   _ffind_bench \"$@\"\n        return\n    fi";
    let mut search = insert_after(search, "_ffind() {", handoff);
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
/// benchmark's after it.
fn fish(search: &str, bench: &str) -> String {
    let mut out = String::from(
        "# ffind --bench [OPTIONS] [PATH]...: the benchmark's options after --bench\n\
         function __ffind_bench\n    \
         set -l words (commandline -opc)\n    \
         test (count $words) -ge 2; and test \"$words[2]\" = --bench\n\
         end\n\n",
    );
    for line in search.lines() {
        out.push_str(&condition(line, "ffind", "not __ffind_bench"));
        out.push('\n');
    }
    for line in bench.lines() {
        out.push_str(&condition(line, BENCH_NAME, "__ffind_bench"));
        out.push('\n');
    }
    out
}

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

/// PowerShell: as elvish, under the command `ffind;--bench`.
fn powershell(search: &str, bench: &str) -> String {
    let entry = between(
        bench,
        &format!("'{BENCH_NAME}' {{"),
        "\n            break\n        }",
    );
    let search = insert_after(
        search,
        "            $element = $commandElements[$i]",
        "\n            if ($i -eq 1 -and $element.Value -eq '--bench' -and \
         $element.Value -ne $wordToComplete) {\n                '--bench'\n                \
         break\n            }",
    );
    let search = insert_after(
        &search,
        "    $completions = @(switch ($command) {",
        &format!("\n        'ffind;--bench' {{{entry}\n            break\n        }}"),
    );
    search
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
            write(shell, &mut out).unwrap();
            let script = String::from_utf8(out).unwrap();
            for option in ["export-markdown", "warmup", "ignore-contain", "bench"] {
                assert!(script.contains(option), "{shell}: {option}");
            }
        }
    }
}
