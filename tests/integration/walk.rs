//! The traversal core: listing, depth, types, hidden entries, methods.

use crate::fixture::Tree;

#[test]
fn lists_everything_not_hidden_without_dot_slash() {
    let t = Tree::new();
    t.files(&["a.txt", "dir/b.rs", ".hidden", "dir/.h2"]).dirs(&["empty"]);
    t.run(&[]).assert_paths(&["a.txt", "dir", "dir/b.rs", "empty"]);
    t.run(&["."]).assert_paths(&["a.txt", "dir", "dir/b.rs", "empty"]);
}
