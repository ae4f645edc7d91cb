//! Property test: random trees and random command lines (`random_tree.rs`); every method at
//! concurrency 1, 3 and 16 must print exactly what the reference walk (reference.rs) prints,
//! with the same exit code. Fast by default (PROPTEST_CASES, default 32); `just fuzz-parity`
//! runs thousands.

use proptest::prelude::*;
use proptest::test_runner::Config;

use crate::random_tree::{cmd, nodes, run, Case, Node};
use crate::reference::Cmd;

const METHODS: [&str; 6] = ["serial", "walkdir", "queue", "rayon", "jwalk", "ignore"];
const CONCURRENCY: [&str; 3] = ["1", "3", "16"];

/// Builds the tree, runs every method at every concurrency, compares with the reference.
fn check(nodes: &[Node], cmd: Cmd) -> Result<(), TestCaseError> {
    let case = Case::build(nodes, cmd);
    for m in METHODS {
        for j in CONCURRENCY {
            let mut full: Vec<String> = ["--method", m, "-j", j, "-0"].map(String::from).to_vec();
            full.extend(case.args.iter().cloned());
            let r = run(&case.tree, &full);
            case.verify(&format!("ffind {}", full.join(" ")), &r)?;
        }
    }
    Ok(())
}

fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(32);
    // Failures found are kept (shrunk) in tests/proptest-regressions/, proptest's default,
    // and replayed first on every run.
    Config {
        cases,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Every method, at every concurrency, prints what the reference walk prints.
    #[test]
    fn proptest_parity(nodes in nodes(), cmd in cmd()) {
        check(&nodes, cmd)?;
    }
}
