//! The committed shell completions are what the current command line generates: this fails
//! when an option changes and `completions/` was not regenerated (`just completions`).

use crate::fixture::Tree;

#[test]
fn committed_completions_match_the_command_line() {
    let t = Tree::new();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("completions");
    for (shell, file) in [
        ("bash", "ffind.bash"),
        ("zsh", "_ffind"),
        ("fish", "ffind.fish"),
    ] {
        let run = t.run(&["--gen-completions", shell]);
        assert_eq!(run.code, 0, "{shell}: {}", run.stderr);
        let generated = String::from_utf8(run.stdout).unwrap();
        assert!(
            generated.contains("--concurrency"),
            "{shell} completions name the options"
        );
        let committed = std::fs::read_to_string(dir.join(file)).unwrap_or_default();
        assert!(
            committed == generated,
            "completions/{file} is stale: run `just completions` (or `ffind --gen-completions {shell} > completions/{file}`)"
        );
    }
}
