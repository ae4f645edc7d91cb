//! What to run: one [`Benchmark`] per (method, concurrency) pair, each with the ffind command
//! line that reproduces it on its own (the `command` of the exports, runnable under hyperfine).

use std::ffi::OsString;

use crate::walk::methods::Method;

/// The search every benchmark times, as the user gave it.
#[derive(Debug, Clone)]
pub struct Search {
    /// The program as the user invoked it (`argv[0]`), shown in the commands.
    pub program: OsString,
    /// The pass-through options (filters), as typed.
    pub options: Vec<OsString>,
    /// The directories to search; empty for the current directory.
    pub paths: Vec<OsString>,
    /// A pattern that matches every name in the pattern syntax the options select, put before
    /// the paths (ffind takes `PATTERN PATH...`).
    pub match_all: &'static str,
    /// `--cache` was given on bench's command line: the methods that cannot take it are
    /// skipped.
    pub cache: bool,
}

/// One benchmark: a method at a concurrency level.
#[derive(Debug, Clone)]
pub struct Benchmark {
    /// The traversal method.
    pub method: Method,
    /// The `--concurrency` given (1 for the one-thread methods).
    pub concurrency: u32,
    /// The arguments after the program name.
    pub args: Vec<OsString>,
    /// The whole command line, shell-quoted.
    pub command: String,
}

/// Every benchmark: each method in the order given, at each level; the one-thread methods only
/// at concurrency 1, since more threads would time the same thing again.
pub fn benchmarks(methods: &[Method], levels: &[u32], search: &Search) -> Vec<Benchmark> {
    let mut out = Vec::new();
    for &method in methods {
        let levels: &[u32] = if method.is_parallel() { levels } else { &[1] };
        for &concurrency in levels {
            let args = arguments(method, concurrency, search);
            let command = std::iter::once(search.program.as_os_str())
                .chain(args.iter().map(OsString::as_os_str))
                .map(shell_quote)
                .collect::<Vec<_>>()
                .join(" ");
            out.push(Benchmark {
                method,
                concurrency,
                args,
                command,
            });
        }
    }
    out
}

fn arguments(method: Method, concurrency: u32, search: &Search) -> Vec<OsString> {
    let mut args: Vec<OsString> = vec![
        "--method".into(),
        method.name().into(),
        "--concurrency".into(),
        concurrency.to_string().into(),
    ];
    args.extend(search.options.iter().cloned());
    if !search.paths.is_empty() {
        if search
            .paths
            .iter()
            .any(|p| p.to_string_lossy().starts_with('-'))
        {
            args.push("--".into());
        }
        args.push(search.match_all.into());
        args.extend(search.paths.iter().cloned());
    }
    args
}

pub use crate::fs::escape::shell_quote;

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    fn search(options: &[&str], paths: &[&str]) -> Search {
        Search {
            program: "ffind".into(),
            options: options.iter().map(OsString::from).collect(),
            paths: paths.iter().map(OsString::from).collect(),
            match_all: ".",
            cache: false,
        }
    }

    #[test]
    fn one_thread_methods_run_once_at_concurrency_one() {
        let b = benchmarks(
            &[Method::Serial, Method::Queue, Method::Walkdir],
            &[2, 8],
            &search(&[], &["/t"]),
        );
        let got: Vec<(&str, u32)> = b.iter().map(|b| (b.method.name(), b.concurrency)).collect();
        assert_eq!(
            got,
            [("serial", 1), ("queue", 2), ("queue", 8), ("walkdir", 1)]
        );
    }

    #[test]
    fn commands_reproduce_the_search() {
        let b = benchmarks(
            &[Method::Queue],
            &[8],
            &search(&["-e", "rs", "-H"], &["/home/me/my src"]),
        );
        // The path quoted for the system's shell (fs::escape tests the quoting).
        assert_eq!(
            b[0].command,
            format!(
                "ffind --method queue --concurrency 8 -e rs -H . {}",
                shell_quote(OsStr::new("/home/me/my src"))
            )
        );
        let args: Vec<&str> = b[0].args.iter().map(|a| a.to_str().unwrap()).collect();
        assert_eq!(
            args,
            [
                "--method",
                "queue",
                "--concurrency",
                "8",
                "-e",
                "rs",
                "-H",
                ".",
                "/home/me/my src"
            ]
        );
    }

    #[test]
    fn no_path_needs_no_pattern_and_odd_paths_get_double_dash() {
        let b = benchmarks(&[Method::Serial], &[1], &search(&["-u"], &[]));
        assert_eq!(b[0].command, "ffind --method serial --concurrency 1 -u");
        let b = benchmarks(&[Method::Serial], &[1], &search(&[], &["-dir"]));
        assert_eq!(
            b[0].command,
            "ffind --method serial --concurrency 1 -- . -dir"
        );
    }
}
