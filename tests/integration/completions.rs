//! The committed shell completions and manual page are what the current command line
//! generates: this fails when an option changes and `completions/` or `docs/ffind.1` was not
//! regenerated (`just completions`). And the bash completion really completes.

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
        "Exit status",
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
}
