//! The traversal methods, and each capability's subset, as ffind's own method table
//! (`src/walk/methods.rs`) declares them: read once from `ffind --list-methods`. Every test that
//! runs across methods takes them from here, so that a method added to the table is covered by
//! all of them at once.

use std::process::Command;
use std::sync::OnceLock;

/// Each method's name and capabilities, in the table's order.
fn table() -> &'static [(&'static str, Vec<&'static str>)] {
    static TABLE: OnceLock<Vec<(&'static str, Vec<&'static str>)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let out = Command::new(crate::fixture::bin())
            .args(["--no-config", "--list-methods"])
            .output()
            .expect("ffind --list-methods");
        assert!(out.status.success(), "ffind --list-methods: {out:?}");
        let text: &'static str = String::from_utf8(out.stdout).unwrap().leak();
        let rows: Vec<_> = text
            .lines()
            .filter(|l| !l.starts_with("auto\t"))
            .map(|l| {
                let mut words = l.split('\t');
                (words.next().unwrap(), words.collect())
            })
            .collect();
        assert!(rows.len() >= 2, "ffind --list-methods: {text}");
        rows
    })
}

/// Every method `--method` takes (besides `auto`).
pub fn methods() -> Vec<&'static str> {
    table().iter().map(|(name, _)| *name).collect()
}

/// The methods with `capability` (`parallel`, `breadth`, `own-reader`: takes `--cache`,
/// `stealing`).
pub fn methods_with(capability: &str) -> Vec<&'static str> {
    check(capability);
    table()
        .iter()
        .filter(|(_, can)| can.contains(&capability))
        .map(|(name, _)| *name)
        .collect()
}

/// The methods without `capability`.
pub fn methods_without(capability: &str) -> Vec<&'static str> {
    check(capability);
    table()
        .iter()
        .filter(|(_, can)| !can.contains(&capability))
        .map(|(name, _)| *name)
        .collect()
}

/// The `--method` values `--order breadth` takes: `auto` and the methods with `breadth`.
pub fn breadth_methods() -> Vec<&'static str> {
    std::iter::once("auto")
        .chain(methods_with("breadth"))
        .collect()
}

/// A capability's name must be one ffind declares, lest a misspelt one select nothing.
fn check(capability: &str) {
    assert!(
        ["parallel", "breadth", "own-reader", "stealing"].contains(&capability),
        "no capability {capability}"
    );
}

#[test]
fn the_table_lists_the_methods_and_their_capabilities() {
    let all = methods();
    assert!(all.contains(&"serial") && all.contains(&"queue"), "{all:?}");
    for capability in ["parallel", "breadth", "own-reader", "stealing"] {
        let (with, without) = (methods_with(capability), methods_without(capability));
        assert_eq!(with.len() + without.len(), all.len());
        assert!(!with.is_empty(), "{capability}");
    }
}
