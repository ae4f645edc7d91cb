//! The committed shell completions and manual page are what the current command line
//! generates: this fails when an option changes and `completions/` or `docs/ffind.1` was not
//! regenerated (`just completions`). And the completions really complete: bash and fish
//! (when installed) are asked as they would be on Tab, zsh's script is read.

use crate::fixture::{have, Tree};

/// Each shell clap_complete knows, and the file its script is committed as.
const SHELLS: [(&str, &str); 5] = [
    ("bash", "ffind.bash"),
    ("zsh", "_ffind"),
    ("fish", "ffind.fish"),
    ("elvish", "ffind.elv"),
    ("powershell", "_ffind.ps1"),
];

fn repo_file(rel: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

#[test]
fn committed_completions_match_the_command_line() {
    let t = Tree::new();
    for (shell, file) in SHELLS {
        let run = t.run(&["--gen-completions", shell]);
        assert_eq!(run.code, 0, "{shell}: {}", run.stderr);
        let generated = String::from_utf8(run.stdout).unwrap();
        for option in ["concurrency", "sort", "ignore-contain"] {
            assert!(
                generated.contains(option),
                "{shell} completions name {option}"
            );
        }
        let committed =
            std::fs::read_to_string(repo_file(&format!("completions/{file}"))).unwrap_or_default();
        assert!(
            committed == generated,
            "completions/{file} is stale: run `just completions` (or `ffind --gen-completions {shell} > completions/{file}`)"
        );
    }
}

#[test]
fn committed_manual_matches_the_command_line() {
    let run = Tree::new().run(&["--gen-man"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let generated = String::from_utf8(run.stdout).unwrap();
    for text in [
        ".TH ffind 1",
        "\\-\\-sort",
        "\\-\\-ignore\\-contain",
        ".SH \"EXIT STATUS\"",
        ".SH EXAMPLES",
        ".SH ENVIRONMENT",
        ".SH FILES",
        ".SH \"SEE ALSO\"",
        ".SH BENCHMARK",
        "\\-\\-export\\-markdown",
    ] {
        assert!(generated.contains(text), "the manual has {text:?}");
    }
    let committed = std::fs::read_to_string(repo_file("docs/ffind.1")).unwrap_or_default();
    assert!(
        committed == generated,
        "docs/ffind.1 is stale: run `just completions` (or `ffind --gen-man > docs/ffind.1`)"
    );
}

/// Loads the committed bash completion into bash and completes words as bash would on Tab:
/// `complete -p ffind` names the function, called with COMP_WORDS/COMP_CWORD set; its
/// COMPREPLY is printed one per line.
/// What bench's `--methods` completes to: every method, and "all", sorted.
fn bench_methods() -> Vec<&'static str> {
    let mut all = crate::methods::methods();
    all.push("all");
    all.sort();
    all
}

fn bash_complete(t: &Tree, words: &[&str]) -> Vec<String> {
    let script = format!(
        r#"source {file}
spec=$(complete -p ffind) || exit 3
fn=$(sed -E 's/.* -F ([^ ]+) .*/\1/' <<<"$spec")
COMP_WORDS=({words})
COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
COMP_LINE="${{COMP_WORDS[*]}}"
COMP_POINT=${{#COMP_LINE}}
"$fn" ffind "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
printf '%s\n' "${{COMPREPLY[@]}}""#,
        file = repo_file("completions/ffind.bash").display(),
        words = words
            .iter()
            .map(|w| format!("'{w}'"))
            .collect::<Vec<_>>()
            .join(" "),
    );
    let run = t.run_script(&script);
    assert_eq!(run.code, 0, "bash: {}", run.stderr);
    let mut got: Vec<String> = run.sorted().into_iter().filter(|l| !l.is_empty()).collect();
    got.sort();
    got
}

#[test]
fn bash_completes_options_and_their_values() {
    if !have("bash") {
        eprintln!("skipped: no bash");
        return;
    }
    let t = Tree::new();
    assert_eq!(bash_complete(&t, &["ffind", "--meth"]), ["--method"]);
    assert_eq!(bash_complete(&t, &["ffind", "--so"]), ["--sort"]);
    assert_eq!(
        bash_complete(&t, &["ffind", "--sort", ""]),
        ["depth", "none", "path"]
    );
    assert_eq!(bash_complete(&t, &["ffind", "--method", "jw"]), ["jwalk"]);
    // A command after -x and -X, not a file (the tree holds one named "echo-file").
    t.files(&["echo-file"]);
    for exec in ["-x", "--exec", "-X", "--exec-batch"] {
        let got = bash_complete(&t, &["ffind", exec, "ech"]);
        assert!(got.contains(&"echo".to_owned()), "{exec}: {got:?}");
        assert!(!got.contains(&"echo-file".to_owned()), "{exec}: {got:?}");
    }
}

#[test]
fn bash_completes_the_benchmarks_options_after_bench() {
    if !have("bash") {
        eprintln!("skipped: no bash");
        return;
    }
    let t = Tree::new();
    assert_eq!(bash_complete(&t, &["ffind", "--be"]), ["--bench"]);
    assert_eq!(
        bash_complete(&t, &["ffind", "--bench", "--meth"]),
        ["--methods"]
    );
    // bench's --methods, not the search's --method (no "auto").
    assert_eq!(
        bash_complete(&t, &["ffind", "--bench", "--methods", ""]),
        bench_methods()
    );
    assert_eq!(bash_complete(&t, &["ffind", "--bench", "--ru"]), ["--runs"]);
    assert_eq!(
        bash_complete(&t, &["ffind", "--bench", "-H", "--export-"]),
        [
            "--export-csv",
            "--export-json",
            "--export-markdown",
            "--export-svg"
        ]
    );
    // The filters bench passes on to every run complete too; -x, which bench refuses, not.
    assert_eq!(bash_complete(&t, &["ffind", "--bench", "--ty"]), ["--type"]);
    assert!(bash_complete(&t, &["ffind", "--bench", "--exe"]).is_empty());
    // Without --bench first, the search's options only.
    assert!(bash_complete(&t, &["ffind", "--ru"]).is_empty());
    assert!(bash_complete(&t, &["ffind", "-H", "--ru"]).is_empty());
}

fn committed(file: &str) -> String {
    std::fs::read_to_string(repo_file(&format!("completions/{file}"))).unwrap()
}

#[test]
fn zsh_completes_commands_after_exec_and_describes_types() {
    let zsh = committed("_ffind");
    for option in ["-x+", "--exec=", "-X+", "--exec-batch="] {
        let spec = zsh
            .lines()
            .find(|l| l.contains(&format!(")*{option}[")))
            .unwrap_or_else(|| panic!("{option} in _ffind"));
        // As fd's: a command name, then that command's own arguments up to ';'.
        assert!(
            spec.ends_with(":CMD:_command_names -e:*\\;::program arguments: _normal' \\"),
            "{spec}"
        );
    }
    let types = zsh
        .lines()
        .find(|l| l.starts_with("'*--type=["))
        .expect("--type in _ffind");
    assert!(types.contains(r#":TYPE:((f\:"regular files""#), "{types}");
    for described in [r#"d\:"directories""#, r#"symlink\:"symbolic links""#] {
        assert!(zsh.contains(described), "{described}");
    }
    // A line that starts with `ffind --bench` goes to the benchmark's function, which knows
    // bench's options.
    assert!(zsh.contains("[[ $words[2] == --bench ]]"));
    let bench = &zsh[zsh.find("\n_ffind_bench() {").expect("_ffind_bench")..];
    for option in ["--methods=", "--runs=", "--export-json=", "--warmup="] {
        assert!(bench.contains(option), "{option}");
    }
    if have("zsh") {
        let t = Tree::new();
        let run = t.run_script(&format!(
            "zsh -n {}",
            repo_file("completions/_ffind").display()
        ));
        assert_eq!(run.code, 0, "zsh -n: {}", run.stderr);
    }
}

/// fish's own completion engine (`complete -C`) on the committed script.
#[test]
fn fish_completes_the_benchmark_and_commands() {
    if !have("fish") {
        eprintln!("skipped: no fish");
        return;
    }
    let t = Tree::new();
    let complete = |line: &str| -> Vec<String> {
        let run = t.run_script(&format!(
            "fish -c 'source {}; complete -C \"{line}\"'",
            repo_file("completions/ffind.fish").display()
        ));
        assert_eq!(run.code, 0, "fish: {}", run.stderr);
        let mut got: Vec<String> = run
            .sorted()
            .into_iter()
            .map(|l| l.split('\t').next().unwrap_or("").to_owned())
            .filter(|l| !l.is_empty())
            .collect();
        got.sort();
        got
    };
    assert_eq!(complete("ffind --bench --ru"), ["--runs"]);
    assert!(complete("ffind --ru").is_empty());
    assert!(complete("ffind --bench --methods ").contains(&"all".to_owned()));
    assert!(!complete("ffind --bench --methods ").contains(&"auto".to_owned()));
    assert!(complete("ffind -t ").contains(&"symlink".to_owned()));
    assert!(complete("ffind -x ls").contains(&"ls".to_owned()));
}

#[test]
fn no_script_names_the_manual_wrongly() {
    for (_, file) in SHELLS {
        let script = committed(file);
        assert!(!script.contains("doc/ffind.1"), "{file}");
        // --gen-man, whose help names docs/ffind.1, is hidden as --help hides it.
        assert!(!script.contains("docs/ffind.1"), "{file}");
    }
}

/// Every environment variable the source reads is in the manual's ENVIRONMENT section.
#[test]
fn the_manual_names_every_variable_the_source_reads() {
    let manual = std::fs::read_to_string(repo_file("docs/ffind.1")).unwrap();
    let environment = &manual[manual.find(".SH ENVIRONMENT").expect("ENVIRONMENT")..];
    let environment = &environment[..environment.find(".SH FILES").expect("FILES")];
    let mut files = Vec::new();
    let mut dirs = vec![repo_file("src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    let mut names = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        // env::var("X"), env::var_os("X"), and the launcher's has("X")/num("X") look-ups.
        for call in ["var(\"", "var_os(\"", "has(\"", "num(\""] {
            for (at, _) in text.match_indices(call) {
                let rest = &text[at + call.len()..];
                let name = &rest[..rest.find('"').unwrap()];
                if name.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
                    names.push(name.to_owned());
                }
            }
        }
    }
    assert!(names.contains(&"LS_COLORS".to_owned()), "{names:?}");
    assert!(
        names.contains(&"OMPI_COMM_WORLD_SIZE".to_owned()),
        "{names:?}"
    );
    // Read through constants or helpers.
    names.extend(["FFIND_CONFIG_PATH", "XDG_CONFIG_HOME", "HOME"].map(String::from));
    for name in names {
        assert!(
            environment.contains(&name),
            "docs/ffind.1's ENVIRONMENT does not name {name}"
        );
    }
}

/// zsh's set-up for [`zsh_complete`]: the committed `_ffind` on `fpath`, and a `compadd` that
/// prints each candidate (`HIT:word`) instead of showing it; Tab completes, then zsh exits.
const ZSHRC: &str = r#"PROMPT=
fpath=("$ZC/fn" $fpath)
autoload -U compinit; compinit -u -D
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
compadd () {
    if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
        builtin compadd "$@"
        return $?
    fi
    typeset -a __hits
    builtin compadd -A __hits "$@"
    [[ -n $__hits ]] || return
    for i in {1..$#__hits}; do
        echo -E - "HIT:$__hits[$i]"
    done
}
bindkey '^I' complete-word
null-line () { echo -E - $'\0' }
compprefuncs=( null-line )
comppostfuncs=( null-line exit )
"#;

/// Types `line` and Tab into an interactive zsh (through zsh's zpty) and gives the candidates,
/// sorted and each once.
fn zsh_complete(t: &Tree, line: &str) -> Vec<String> {
    let dir = t.home().join("zsh");
    std::fs::create_dir_all(dir.join("fn")).unwrap();
    std::fs::copy(repo_file("completions/_ffind"), dir.join("fn/_ffind")).unwrap();
    std::fs::write(dir.join("zshrc"), ZSHRC).unwrap();
    std::fs::write(
        dir.join("capture.zsh"),
        "zmodload zsh/zpty\nzpty z zsh -f -i\nzpty -w z \"source $ZC/zshrc\"\n\
         zpty -w z \"$*\"$'\\t'\nwhile zpty -r z; do :; done | while IFS= read -r line; do\n  \
         [[ $line == *HIT:* ]] && print -r -- \"${${line#*HIT:}%$'\\r'}\"\ndone\ntrue\n",
    )
    .unwrap();
    let run = t.run_script(&format!(
        "export ZC='{}'; timeout 60 zsh \"$ZC/capture.zsh\" '{line}'",
        dir.display()
    ));
    assert_eq!(run.code, 0, "zsh: {}", run.stderr);
    let mut got: Vec<String> = run.sorted().into_iter().filter(|l| !l.is_empty()).collect();
    got.sort();
    got.dedup();
    got
}

#[test]
fn zsh_completes_in_zsh() {
    if !have("zsh") {
        eprintln!("skipped: no zsh");
        return;
    }
    let t = Tree::new();
    t.files(&["somefile.txt"]);
    assert_eq!(zsh_complete(&t, "ffind --bench --ru"), ["--runs"]);
    assert!(zsh_complete(&t, "ffind --ru").is_empty());
    assert_eq!(
        zsh_complete(&t, "ffind --bench --methods "),
        bench_methods()
    );
    assert_eq!(zsh_complete(&t, "ffind --bench -e rs --ty"), ["--type"]);
    // -x: a command, then that command's own arguments (files for cat).
    assert!(zsh_complete(&t, "ffind -x ech").contains(&"echo".to_owned()));
    assert_eq!(zsh_complete(&t, "ffind -x cat some"), ["somefile.txt"]);
    assert!(zsh_complete(&t, "ffind --type ").contains(&"symlink".to_owned()));
}
