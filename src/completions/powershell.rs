//! PowerShell's script, ffind's own: clap_complete's completes option names only, where the
//! bash and fish scripts complete values and commands too. It is written from the same
//! definition clap_complete writes those from (the search's command and the benchmark's, as
//! [`super::shown`] makes them), read into one table ([`table`]): for each option its names,
//! its help, whether it takes a value, the values clap lists for it (`-t`, `--color`,
//! `--sort`, `--hyperlink`, `--json-fields`, ...), and whether a command follows it (`-x`,
//! `-X`). The script completes, as the bash and fish ones do: an option's name after `-`; a
//! listed value after its option, or after `--option=`; after `-x`/`-X`, a command, then its
//! own arguments (PowerShell's completion of that command line, `TabExpansion2`) up to `;`;
//! anything else as PowerShell completes paths. PowerShell cannot be installed where the tests
//! run: the table is what they test, and the script's text.

use clap::{Arg, ArgAction, Command, ValueHint};

/// One option, as the script offers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// Its names: `-t`, `--type`, and its visible aliases.
    pub names: Vec<String>,
    /// What `-h` says of it.
    pub help: String,
    /// It takes a value: the next word, or what follows `=` after a long name.
    pub takes_value: bool,
    /// The values listed for it, each with its help; none: any value (a path, a number).
    pub values: Vec<(String, String)>,
    /// A command follows it (`-x`, `-X`), then that command's arguments, up to `;`.
    pub command: bool,
    /// Its value follows `=` only (`--hyperlink=always`): the next word is never its value.
    pub equals_only: bool,
    /// Its value is a list split at this character (`--json-fields size,mtime`): each part
    /// is completed as one value.
    pub delimiter: Option<char>,
}

/// The options of `cmd` (built) that a completion offers, in its order.
pub fn table(cmd: &Command) -> Vec<Choice> {
    cmd.get_arguments()
        .filter(|a| !a.is_positional() && !a.is_hide_set())
        .map(choice)
        .collect()
}

fn choice(arg: &Arg) -> Choice {
    let shorts = arg.get_short_and_visible_aliases().unwrap_or_default();
    let longs = arg.get_long_and_visible_aliases().unwrap_or_default();
    let names = (shorts.iter().map(|s| format!("-{s}")))
        .chain(longs.iter().map(|l| format!("--{l}")))
        .collect();
    let values = arg
        .get_possible_values()
        .into_iter()
        .filter(|v| !v.is_hide_set())
        .flat_map(|v| {
            let help = v.get_help().map(ToString::to_string).unwrap_or_default();
            v.get_name_and_aliases()
                .map(|n| (n.to_owned(), help.clone()))
                .collect::<Vec<_>>()
        })
        .collect();
    Choice {
        names,
        help: arg.get_help().map(ToString::to_string).unwrap_or_default(),
        takes_value: !matches!(
            arg.get_action(),
            ArgAction::SetTrue
                | ArgAction::SetFalse
                | ArgAction::Count
                | ArgAction::Help
                | ArgAction::Version
        ),
        values,
        command: arg.get_value_hint() == ValueHint::CommandName,
        equals_only: arg.is_require_equals_set(),
        delimiter: arg.get_value_delimiter(),
    }
}

/// `text` as a PowerShell string in single quotes.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// `table` as a PowerShell array of hashtables, indented for the script (a value is a
/// hashtable too: an array holding one array would be flattened).
fn data(table: &[Choice]) -> String {
    let mut out = String::from("@(\n");
    for c in table {
        let names: Vec<String> = c.names.iter().map(|n| quoted(n)).collect();
        let values: Vec<String> = c
            .values
            .iter()
            .map(|(v, h)| {
                let help = if h.is_empty() { v } else { h };
                format!("@{{ Name = {}; Help = {} }}", quoted(v), quoted(help))
            })
            .collect();
        let help = if c.help.is_empty() {
            &c.names[0]
        } else {
            &c.help
        };
        let delimiter = c.delimiter.map(|d| d.to_string()).unwrap_or_default();
        out.push_str(&format!(
            "        @{{ Names = @({}); Help = {}; TakesValue = ${}; Command = ${}; EqualsOnly = ${}; \
             Delimiter = {}; Values = @({}) }}\n",
            names.join(", "),
            quoted(help),
            c.takes_value,
            c.command,
            c.equals_only,
            quoted(&delimiter),
            values.join(", ")
        ));
    }
    out.push_str("    )");
    out
}

/// The script, for the search's table and the benchmark's (after a first word `--bench`).
pub fn script(search: &[Choice], bench: &[Choice]) -> String {
    SCRIPT
        .replace("@SEARCH@", &data(search))
        .replace("@BENCH@", &data(bench))
}

/// The script around the two tables.
const SCRIPT: &str = r#"using namespace System.Management.Automation
using namespace System.Management.Automation.Language

# ffind's completion (ffind --gen-completions powershell): options, their listed values, and
# after -x/-X a command and its own arguments; paths as PowerShell completes them. Names are
# compared case-sensitively (-ceq, -ccontains, -clike), as ffind reads them: -C is not -c.
Register-ArgumentCompleter -Native -CommandName 'ffind', 'ffind.exe' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $search = @SEARCH@
    $bench = @BENCH@

    # The words before the one completed, after ffind's own name, and where each begins.
    $elements = @(foreach ($e in ($commandAst.CommandElements | Select-Object -Skip 1)) {
        if ($e.Extent.EndOffset -lt $cursorPosition -or
            ($e.Extent.EndOffset -eq $cursorPosition -and $wordToComplete -eq '')) {
            $e
        }
    })
    $words = @(foreach ($e in $elements) {
        if ($e -is [StringConstantExpressionAst]) { $e.Value } else { $e.Extent.Text }
    })
    $table = $search
    if ($words.Count -gt 0 -and $words[0] -ceq '--bench') {
        $table = $bench
    }

    # After -x CMD or -X CMD, up to a ';': the command, then its own arguments.
    $at = -1
    for ($i = 0; $i -lt $words.Count; $i++) {
        if ($at -lt 0) {
            $option = $table | Where-Object { $_.Command -and $_.Names -ccontains $words[$i] }
            if ($option) { $at = $i + 1 }
        } elseif ($words[$i] -ceq ';') {
            $at = -1
        }
    }
    if ($at -ge 0) {
        if ($words.Count -eq $at) {
            Get-Command -CommandType Application, ExternalScript -Name "$wordToComplete*" -ErrorAction SilentlyContinue |
                Sort-Object Name -Unique | ForEach-Object {
                    [CompletionResult]::new($_.Name, $_.Name, [CompletionResultType]::Command, $_.Name)
                }
        } else {
            # The command's line as typed, quotes and all, up to the cursor: its words joined
            # again would split a quoted 'C:\Program Files\...'.
            $from = $elements[$at].Extent.StartOffset - $commandAst.Extent.StartOffset
            $to = $cursorPosition - $commandAst.Extent.StartOffset
            $line = $commandAst.Extent.Text.Substring($from, [Math]::Min($to, $commandAst.Extent.Text.Length) - $from)
            (TabExpansion2 -inputScript $line -cursorColumn $line.Length).CompletionMatches
        }
        return
    }

    # A listed value: after its option (never for one whose value follows '=' only), or after
    # --option=; in a list (--json-fields size,m), the part after the last separator.
    $prefix = ''
    $typed = $wordToComplete
    $option = $null
    if ($wordToComplete -match '^(--[^=]+)=(.*)$') {
        $prefix = $Matches[1] + '='
        $typed = $Matches[2]
        $name = $Matches[1]
        $option = $table | Where-Object { $_.Names -ccontains $name } | Select-Object -First 1
    } elseif ($words.Count -gt 0) {
        $last = $words[-1]
        $option = $table | Where-Object { $_.TakesValue -and -not $_.EqualsOnly -and $_.Names -ccontains $last } |
            Select-Object -First 1
    }
    if ($option -and $option.TakesValue) {
        if ($option.Delimiter -ne '') {
            $cut = $typed.LastIndexOf($option.Delimiter)
            if ($cut -ge 0) {
                $prefix = $prefix + $typed.Substring(0, $cut + 1)
                $typed = $typed.Substring($cut + 1)
            }
        }
        foreach ($value in $option.Values) {
            if ($value.Name -clike "$typed*") {
                [CompletionResult]::new($prefix + $value.Name, $value.Name, [CompletionResultType]::ParameterValue, $value.Help)
            }
        }
        return
    }

    # An option's name.
    if ($wordToComplete.StartsWith('-')) {
        foreach ($option in $table) {
            foreach ($name in $option.Names) {
                if ($name -clike "$wordToComplete*") {
                    [CompletionResult]::new($name, $name, [CompletionResultType]::ParameterName, $option.Help)
                }
            }
        }
    }
}
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Cli;
    use clap::CommandFactory;

    /// The search's table, as the script is written from it.
    fn search() -> Vec<Choice> {
        let mut cmd = super::super::shown(Cli::command(), crate::fs::HAS_MPI);
        cmd.build();
        table(&cmd)
    }

    fn find<'a>(table: &'a [Choice], name: &str) -> Option<&'a Choice> {
        table.iter().find(|c| c.names.iter().any(|n| n == name))
    }

    #[test]
    fn the_table_lists_values_and_commands_as_bash_and_fish_complete_them() {
        let search = search();
        for (option, values) in [
            ("-t", &["f", "file", "d", "x", "executable"][..]),
            ("--color", &["auto", "always", "never"]),
            ("--sort", &["path"]),
            ("--hyperlink", &["auto", "always", "never"]),
            ("--json-fields", &["size", "mtime", "inode"]),
        ] {
            let c = find(&search, option).unwrap_or_else(|| panic!("{option}"));
            assert!(c.takes_value && !c.command, "{option}");
            for v in values {
                assert!(c.values.iter().any(|(name, _)| name == v), "{option} {v}");
            }
        }
        for option in ["-x", "--exec", "-X", "--exec-batch"] {
            let c = find(&search, option).unwrap_or_else(|| panic!("{option}"));
            assert!(c.command && c.takes_value, "{option}");
        }
        // owner only where files have owners (it is refused on Windows).
        let fields = find(&search, "--json-fields").unwrap();
        let owner = fields.values.iter().any(|(name, _)| name == "owner");
        assert_eq!(owner, crate::fs::HAS_OWNERS);
        for flag in ["-H", "--hidden", "-u", "--follow"] {
            let c = find(&search, flag).unwrap_or_else(|| panic!("{flag}"));
            assert!(!c.takes_value && c.values.is_empty(), "{flag}");
        }
        // What --help hides is not offered; what the system refuses neither.
        assert!(find(&search, "--no-ignore-parent").is_some());
        assert!(find(&search, "--ignore").is_none());
        assert_eq!(find(&search, "--owner").is_some(), crate::fs::HAS_OWNERS);
        assert_eq!(find(&search, "--mpi").is_some(), crate::fs::HAS_MPI);
    }

    /// The five ways the script went wrong (issue 50): `-C` took `-c`'s values and `-h`
    /// offered `-H` (PowerShell's `-contains` and `-like` ignore case); a value that follows
    /// `=` only was offered as the next word (which ffind takes as the pattern); a list's
    /// second value was not offered; a quoted command word after `-x` was split; `ffind.exe`
    /// had no completion.
    #[test]
    fn the_script_compares_names_as_ffind_reads_them_and_completes_what_it_takes() {
        let search = search();
        for option in ["--hyperlink", "--strip-cwd-prefix"] {
            let c = find(&search, option).unwrap_or_else(|| panic!("{option}"));
            assert!(c.equals_only && c.takes_value, "{option}");
        }
        for option in ["--color", "-t", "--sort", "--json-fields"] {
            let c = find(&search, option).unwrap_or_else(|| panic!("{option}"));
            assert!(!c.equals_only, "{option}");
        }
        assert_eq!(find(&search, "--json-fields").unwrap().delimiter, Some(','));
        assert_eq!(find(&search, "--color").unwrap().delimiter, None);
        // -C and -c are two options, told apart only case-sensitively.
        let c_upper = find(&search, "-C").expect("-C");
        let c_lower = find(&search, "-c").expect("-c");
        assert_ne!(c_upper.names, c_lower.names);
        let text = script(&search, &[]);
        for want in [
            "-CommandName 'ffind', 'ffind.exe'",
            "$_.Names -ccontains $words[$i]",
            "$_.Names -ccontains $name",
            "-not $_.EqualsOnly -and $_.Names -ccontains $last",
            "$value.Name -clike \"$typed*\"",
            "$name -clike \"$wordToComplete*\"",
            "$words[0] -ceq '--bench'",
            "$typed.LastIndexOf($option.Delimiter)",
            "$commandAst.Extent.Text.Substring($from,",
            "Names = @('--hyperlink'); Help = ",
            "EqualsOnly = $false; Delimiter = ','; Values = @(@{ Name = 'size'",
        ] {
            assert!(text.contains(want), "{want}");
        }
        assert!(text.contains("EqualsOnly = $true; Delimiter = ''; Values = @(@{ Name = 'auto'"));
        // No case-insensitive comparison is left, and the command's words are not joined
        // again.
        for gone in [" -contains ", " -like ", " -eq '-", " -eq ';'", "-join ' '"] {
            assert!(!text.contains(gone), "{gone}");
        }
    }

    #[test]
    fn the_script_holds_the_tables() {
        let search = search();
        let mut bench = super::super::shown(super::super::bench_command(), crate::fs::HAS_MPI);
        bench.build();
        let text = script(&search, &table(&bench));
        for want in [
            "Names = @('-t', '--type')",
            "@{ Name = 'executable'; Help = ",
            "Names = @('-x', '--exec'); Help = ",
            "Command = $true",
            "'--methods'",
            "TabExpansion2",
        ] {
            assert!(text.contains(want), "{want}");
        }
        assert!(!text.contains("@SEARCH@") && !text.contains("@BENCH@"));
        // A quote in a help is doubled, as PowerShell reads it.
        assert_eq!(quoted("fd's"), "'fd''s'");
    }
}
