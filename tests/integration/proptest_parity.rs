//! Property test: random trees and random command lines (`random_tree.rs`); every method at
//! concurrency 1, 3 and 16 must print exactly what the reference walk (reference.rs) prints,
//! with the same exit code; and so must every method that takes `--order breadth`, in an order
//! whose depths never decrease. Fast by default (PROPTEST_CASES, default 32); `just
//! fuzz-parity` runs thousands.

use proptest::prelude::*;

use crate::methods::{methods, methods_with};
use crate::order::depths;
use crate::random_tree::{cases, cmd, nodes, run, Case, Node};
use crate::reference::Cmd;

const CONCURRENCY: [&str; 3] = ["1", "3", "16"];

/// Builds the tree, runs every method at every concurrency, compares with the reference; and
/// under `--order breadth`, checks that depths never decrease.
fn check(nodes: &[Node], cmd: Cmd) -> Result<(), TestCaseError> {
    let case = Case::build(nodes, cmd);
    let orders = [None, Some("breadth")];
    // `--order breadth` only where the table says the method takes it (the others refuse it:
    // tests/integration/order.rs).
    let breadth = methods_with("breadth");
    let runs = methods()
        .into_iter()
        .flat_map(|m| orders.iter().map(move |o| (m, *o)));
    for (m, order) in runs.filter(|(m, o)| o.is_none() || breadth.contains(m)) {
        for j in CONCURRENCY {
            let mut full: Vec<String> = ["--method", m, "-j", j, "-0"].map(String::from).to_vec();
            if let Some(order) = order {
                full.extend(["--order".to_string(), order.to_string()]);
            }
            full.extend(case.args.iter().cloned());
            let r = run(&case.tree, &full);
            let what = format!("ffind {}", full.join(" "));
            if order.is_some() {
                let depths = depths(&r.stdout, &case.shown_root);
                prop_assert!(
                    depths.is_sorted(),
                    "{}: depths decrease: {:?}\n{}",
                    what,
                    depths,
                    r.stdout.escape_ascii()
                );
            }
            case.verify(&what, &r)?;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(cases(32))]

    /// Every method, at every concurrency, prints what the reference walk prints; breadth
    /// first too, nearest first.
    #[test]
    fn proptest_parity(nodes in nodes(), cmd in cmd()) {
        check(&nodes, cmd)?;
    }
}
