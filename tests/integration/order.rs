//! `--order breadth`: every method that takes it prints each level before the next (depth
//! counted below each result's own search path), the same entries as the default order, the
//! nearest N under `--max-results N`, and hands commands their results in that order; the
//! walker-crate methods refuse it. The random trees of proptest_parity.rs check the same
//! order against the reference walk. On Windows too, but for links and `printf` as a command.

use crate::fixture::{Run, Tree};
use crate::methods::{breadth_methods, methods_without};

const JOBS: [&str; 3] = ["1", "3", "16"];

/// The depth of each record (as printed with `-0`) below the search root shown as `root`
/// ("." or an absolute path), in the order printed: its components past the root's (parted by
/// `/`, and by `\` on Windows).
pub fn depths(stdout: &[u8], root: &[u8]) -> Vec<usize> {
    let separator = |c: &u8| *c == b'/' || *c == std::path::MAIN_SEPARATOR as u8;
    let slashes = |p: &[u8]| p.iter().filter(|c| separator(c)).count();
    let base = slashes(root);
    stdout
        .split(|&c| c == 0)
        .filter(|r| !r.is_empty())
        .map(|r| {
            let r = match r.last() {
                Some(c) if separator(c) => &r[..r.len() - 1],
                _ => r,
            };
            slashes(r).saturating_sub(base)
        })
        .collect()
}

/// Three directories d1..d3, each four levels deep: "dN/{f1,f2,f3,sub/}", "dN/sub/{g1,g2,g3,
/// sub2/}", "dN/sub/sub2/{h1,h2}". Depth first, a walk prints some depth 3 before all of
/// depth 2. d1 has an .ignore ("*.log") for d1/sub/sub2/x.log; d3/sub/x.log stays.
fn levels() -> Tree {
    let t = Tree::new();
    t.files(&["top"]);
    for d in ["d1", "d2", "d3"] {
        for f in ["f1", "f2", "f3", "sub/g1", "sub/g2", "sub/g3"] {
            t.files(&[&format!("{d}/{f}")]);
        }
        t.files(&[&format!("{d}/sub/sub2/h1"), &format!("{d}/sub/sub2/h2")]);
    }
    t.write("d1/.ignore", "*.log\n");
    t.files(&["d1/sub/sub2/x.log", "d3/sub/x.log"]);
    t
}

/// Runs ffind with `-0` and `args` under every method that takes `--order breadth`, at every
/// concurrency, and gives each run to `check` with its description.
fn each_breadth_run(t: &Tree, args: &[&str], check: &mut dyn FnMut(&str, &Run)) {
    for m in breadth_methods() {
        for j in JOBS {
            let mut full = vec!["--order", "breadth", "--method", m, "-j", j, "-0"];
            full.extend_from_slice(args);
            let run = t.run(&full);
            check(&format!("ffind {}", full.join(" ")), &run);
        }
    }
}

fn assert_nondecreasing(what: &str, run: &Run, root: &[u8]) {
    let depths = depths(&run.stdout, root);
    assert!(
        depths.is_sorted(),
        "{what}: depths decrease: {depths:?}\n{}",
        run.stdout.escape_ascii()
    );
}

#[test]
fn breadth_prints_each_level_before_the_next_and_the_same_entries_as_depth_first() {
    let t = levels();
    #[cfg(unix)]
    t.link("..", "d2/sub/loop");
    let cases: [&[&str]; 9] = [
        &[],
        &["-u"],
        &["-d", "2"],
        &["--min-depth", "2", "-H"],
        &["--prune", "sub"],
        &["-E", "sub2"],
        &["-t", "f", "-e", "log"],
        &["-L"],
        &["-L", "-t", "d"],
    ];
    for args in cases {
        let mut depth_first = vec!["--method", "serial", "-0"];
        depth_first.extend_from_slice(args);
        let want = t.run(&depth_first);
        assert!(!want.stdout.is_empty(), "{args:?}");
        each_breadth_run(&t, args, &mut |what, run| {
            assert_nondecreasing(what, run, b".");
            assert_eq!(run.sorted_by(0), want.sorted_by(0), "{what}");
            assert_eq!(run.code, want.code, "{what}: {}", run.stderr);
        });
    }
    // The ignore rules of d1 went down with its jobs, two levels.
    let run = t.run(&["--order", "breadth", "-j", "3", "-e", "log"]);
    run.assert_paths(&["d3/sub/x.log"]);
}

#[test]
fn max_results_gives_the_nearest_entries() {
    let t = levels();
    // Every depth in the tree, nearest first.
    let all = t.run(&["--sort", "depth", "-0"]);
    let mut nearest = depths(&all.stdout, b".");
    nearest.truncate(15);
    each_breadth_run(&t, &["--max-results", "15"], &mut |what, run| {
        assert_eq!(depths(&run.stdout, b"."), nearest, "{what}");
        assert_eq!(run.code, 0, "{what}");
    });
    each_breadth_run(&t, &["-1"], &mut |what, run| {
        assert_eq!(depths(&run.stdout, b"."), [1], "{what}");
    });
}

#[cfg(unix)]
#[test]
fn commands_get_their_results_in_breadth_order() {
    let t = levels();
    let root = b".";
    let as_nul = |run: &Run| -> Run {
        Run {
            stdout: run
                .stdout
                .iter()
                .map(|&c| if c == b'\n' { 0 } else { c })
                .collect(),
            stderr: run.stderr.clone(),
            code: run.code,
        }
    };
    // -X: one batch, its arguments in the order the walk handed them over.
    each_breadth_run(&t, &["-X", "printf", "%s\\n"], &mut |what, run| {
        assert_eq!(run.code, 0, "{what}: {}", run.stderr);
        assert_eq!(run.stdout.iter().filter(|&&c| c == b'\n').count(), 35);
        assert_nondecreasing(what, &as_nul(run), root);
    });
    // -x one at a time (-j 1): each command ends before the next starts.
    for m in breadth_methods() {
        let run = t.run(&[
            "--order", "breadth", "--method", m, "-j", "1", "-x", "printf", "%s\\n",
        ]);
        assert_eq!(run.code, 0, "{m}: {}", run.stderr);
        assert_nondecreasing(m, &as_nul(&run), root);
    }
}

#[test]
fn with_several_search_paths_depth_counts_below_each_ones_own() {
    let t = levels();
    // "d1" holds three levels, "d2/sub" two: one after the other, depth would fall back to 1.
    each_breadth_run(&t, &["", "d1", "d2/sub"], &mut |what, run| {
        let mut below = Vec::new();
        for record in run.stdout.split(|&c| c == 0).filter(|r| !r.is_empty()) {
            let root: &[u8] = if record.starts_with(b"d2/sub") || record.starts_with(b"d2\\sub") {
                b"d2/sub"
            } else {
                b"d1"
            };
            below.extend(depths(&[record, b"\0"].concat(), root));
        }
        assert!(below.is_sorted(), "{what}: {below:?}");
        assert_eq!(below.len(), 10 + 6, "{what}");
    });
}

#[test]
fn the_walker_crate_methods_refuse_breadth_unless_sorting_decides() {
    let t = levels();
    for m in methods_without("breadth") {
        let run = t.run(&["--order", "breadth", "--method", m]);
        assert_eq!(run.code, 2, "{m}");
        assert!(run.stdout.is_empty(), "{m}");
        assert!(
            run.stderr.contains("--order breadth") && run.stderr.contains(m),
            "{m}: {}",
            run.stderr
        );
        // --sort decides the order: --order is moot, and accepted.
        let sorted = t.run(&["--order", "breadth", "--method", m, "--sort", "path"]);
        assert_eq!(sorted.code, 0, "{m}: {}", sorted.stderr);
        assert_eq!(sorted.stdout, t.run(&["--sort", "path"]).stdout, "{m}");
        // The default order is taken by every method.
        assert_eq!(t.run(&["--order", "depth", "--method", m]).code, 0, "{m}");
    }
    // From the config file too; the command line's --order depth wins over it.
    let config = t.home().join(".config/ffind");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(config.join("config"), "--order\nbreadth\n").unwrap();
    let run = t.run(&["--method", "jwalk"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(t.run(&["--method", "jwalk", "--order", "depth"]).code, 0);
    let run = t.run(&["-0"]);
    assert_nondecreasing("config file --order breadth", &run, b".");
}
