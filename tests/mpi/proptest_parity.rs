//! The property test's random trees and command lines (`random_tree.rs`: ignore files of
//! every kind, repositories, links and loops, unreadable directories, hostile names), under
//! the launcher: what the reference walk prints, the same exit status. PROPTEST_CASES (default 24)
//! cases, each run by 2 and 4 processes handing over every directory they can, and by 4
//! sharing as ffind does.

use proptest::prelude::*;
use proptest::test_runner::Config;

use crate::random_tree::{cmd, nodes, run_under, Case, Node};
use crate::reference::Cmd;

fn check(nodes: &[Node], cmd: Cmd) -> Result<(), TestCaseError> {
    let case = Case::build(nodes, cmd);
    for (n, share_all) in [(2, true), (4, true), (4, false)] {
        let mpirun = crate::mpirun(n, share_all);
        let mut args: Vec<String> = ["--mpi", "-0"].map(String::from).to_vec();
        args.extend(case.args.iter().cloned());
        let r = run_under(&case.tree, &mpirun, &args);
        case.verify(
            &format!("{} ffind {}", mpirun.join(" "), args.join(" ")),
            &r,
        )?;
    }
    Ok(())
}

fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(24);
    Config {
        cases,
        // Shrunk failures are kept apart from the one-process test's.
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Every launch prints what the reference walk prints.
    #[test]
    fn mpi_proptest_parity(nodes in nodes(), cmd in cmd()) {
        if crate::skip() {
            return Ok(());
        }
        check(&nodes, cmd)?;
    }
}
