//! fd's search language, one option at a time: entry types (`-t`) and extensions
//! (`-e`). Every check runs under every method at `-j 1` and `-j 8` ([`assert_everywhere`]).
//! On Windows: extensions and empty entries; links, mode bits, FIFOs, sockets and devices are
//! Unix's (`windows.rs` has Windows' links).

use crate::fd_parity::assert_everywhere;
#[cfg(unix)]
use crate::filters_common::c_path;
#[cfg(unix)]
use crate::fixture::is_root;
use crate::fixture::Tree;

// Types.

#[cfg(unix)]
#[test]
fn types_files_dirs_links_and_repeats() {
    let t = Tree::new();
    t.files(&["file", "dir/inner"])
        .link("file", "link-to-file")
        .link("dir", "link-to-dir")
        .link("nowhere", "dangling");
    assert_everywhere(&t, &["-t", "f"], &["file", "dir/inner"]);
    assert_everywhere(&t, &["--type", "file"], &["file", "dir/inner"]);
    assert_everywhere(&t, &["-t", "d"], &["dir"]);
    assert_everywhere(&t, &["-t", "directory"], &["dir"]);
    assert_everywhere(
        &t,
        &["-t", "l"],
        &["link-to-file", "link-to-dir", "dangling"],
    );
    assert_everywhere(
        &t,
        &["-t", "f", "-t", "symlink"],
        &[
            "file",
            "dir/inner",
            "link-to-file",
            "link-to-dir",
            "dangling",
        ],
    );
    assert_everywhere(&t, &["-tf", "-td"], &["file", "dir", "dir/inner"]);
    // Following links, they take their target's type; only the dangling one stays a link.
    assert_everywhere(&t, &["-L", "-t", "l"], &["dangling"]);
    assert_everywhere(
        &t,
        &["-L", "-t", "f"],
        &["file", "dir/inner", "link-to-file", "link-to-dir/inner"],
    );
}

#[cfg(unix)]
#[test]
fn types_executable_and_empty() {
    let t = Tree::new();
    t.write("run.sh", "#!/bin/sh\n")
        .write("data", "x")
        .files(&["empty-file", "full/x"])
        .dirs(&["empty-dir", "exec-dir"])
        .chmod("run.sh", 0o755)
        .chmod("exec-dir", 0o755)
        .write("sub/tool", "x")
        .chmod("sub/tool", 0o700);
    // x implies files: a searchable directory is not an executable.
    assert_everywhere(&t, &["-t", "x"], &["run.sh", "sub/tool"]);
    assert_everywhere(&t, &["--type", "executable"], &["run.sh", "sub/tool"]);
    assert_everywhere(
        &t,
        &["-t", "e"],
        &["empty-file", "empty-dir", "exec-dir", "full/x"],
    );
    assert_everywhere(&t, &["-t", "empty", "-t", "f"], &["empty-file", "full/x"]);
    assert_everywhere(&t, &["-te", "-td"], &["empty-dir", "exec-dir"]);
    assert_everywhere(&t, &["-tx", "-te"], &[]);
}

#[cfg(unix)]
#[test]
fn types_sockets_and_pipes() {
    let t = Tree::new();
    t.files(&["plain"]).dirs(&["d"]);
    let fifo = c_path(&t.root().join("d/fifo"));
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    drop(std::os::unix::net::UnixListener::bind(t.root().join("sock")).unwrap());
    assert_everywhere(&t, &["-t", "p"], &["d/fifo"]);
    assert_everywhere(&t, &["--type", "pipe"], &["d/fifo"]);
    assert_everywhere(&t, &["-t", "s"], &["sock"]);
    assert_everywhere(&t, &["-t", "socket", "-t", "p"], &["sock", "d/fifo"]);
    assert_everywhere(&t, &["-t", "f"], &["plain"]);
}

#[cfg(unix)]
#[test]
fn types_block_and_char_devices() {
    if !is_root() {
        eprintln!("not root: cannot mknod, skipping");
        return;
    }
    let t = Tree::new();
    t.files(&["plain"]).dirs(&["dev"]);
    let char_dev = c_path(&t.root().join("dev/null-like"));
    let block_dev = c_path(&t.root().join("dev/loop-like"));
    // SAFETY: valid NUL-terminated paths; creating device nodes needs root, which we are.
    unsafe {
        assert_eq!(
            libc::mknod(
                char_dev.as_ptr(),
                libc::S_IFCHR | 0o600,
                libc::makedev(1, 3)
            ),
            0
        );
        assert_eq!(
            libc::mknod(
                block_dev.as_ptr(),
                libc::S_IFBLK | 0o600,
                libc::makedev(7, 0)
            ),
            0
        );
    }
    assert_everywhere(&t, &["-t", "c"], &["dev/null-like"]);
    assert_everywhere(&t, &["--type", "char-device"], &["dev/null-like"]);
    assert_everywhere(&t, &["-t", "b"], &["dev/loop-like"]);
    assert_everywhere(
        &t,
        &["-t", "block-device", "-t", "c"],
        &["dev/loop-like", "dev/null-like"],
    );
    assert_everywhere(&t, &["-t", "f"], &["plain"]);
}

/// Files, directories and empty ones, and repeated types, wherever they run (Windows too).
#[test]
fn types_files_dirs_and_empty() {
    let t = Tree::new();
    t.write("data", "x")
        .files(&["empty-file", "full/x"])
        .dirs(&["empty-dir"]);
    assert_everywhere(&t, &["-t", "f"], &["data", "empty-file", "full/x"]);
    assert_everywhere(&t, &["--type", "directory"], &["empty-dir", "full"]);
    assert_everywhere(&t, &["-t", "e"], &["empty-file", "empty-dir", "full/x"]);
    assert_everywhere(&t, &["-t", "empty", "-t", "f"], &["empty-file", "full/x"]);
    assert_everywhere(&t, &["-te", "-td"], &["empty-dir"]);
    assert_everywhere(
        &t,
        &["-tf", "-td"],
        &["data", "empty-file", "empty-dir", "full", "full/x"],
    );
}

// Extensions.

#[test]
fn extensions_repeat_ignore_case_and_have_several_parts() {
    let t = Tree::new();
    t.files(&[
        "main.rs",
        "LIB.RS",
        "notes.md",
        "a.tar.gz",
        "b.gz",
        "tar.gz",
        "c.targz",
        "rs",
        "dir.rs/inner",
    ]);
    assert_everywhere(&t, &["-e", "rs"], &["main.rs", "LIB.RS", "dir.rs"]);
    assert_everywhere(
        &t,
        &["-e", "RS", "--extension", "md"],
        &["main.rs", "LIB.RS", "notes.md", "dir.rs"],
    );
    // "tar.gz" alone is a name with the extension "gz", not a "tar.gz" file.
    assert_everywhere(&t, &["-e", "tar.gz"], &["a.tar.gz"]);
    assert_everywhere(&t, &["-e", ".gz"], &["a.tar.gz", "b.gz", "tar.gz"]);
    assert_everywhere(&t, &["-e", "rs", "-t", "f"], &["main.rs", "LIB.RS"]);
    assert_everywhere(&t, &["-e", "rs", "main"], &["main.rs"]);
}

#[test]
fn a_dot_file_has_no_extension() {
    let t = Tree::new();
    t.files(&[".rs", "x.rs", ".config.rs"]);
    // As in fd: the extension must follow some name.
    assert_everywhere(&t, &["-H", "-e", "rs"], &["x.rs", ".config.rs"]);
}
