//! `ffind --bench`'s own options, as clap sees them. The doc comments are `ffind --bench --help`.
//!
//! The search options passed through to every run (the filters) are not declared here: they
//! are ffind's own, and [`super::split`] tells them apart from these.

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::Parser;

use crate::bench::export::Format;
use crate::walk::methods::{names_where, Capability, Method};

/// Times ffind's traversal methods at several concurrency levels, like hyperfine.
///
/// Every (method, concurrency) pair is one benchmark: one untimed run that counts the entries
/// listed (every benchmark must list as many as the first, or bench fails), --warmup untimed
/// runs, then --runs timed runs of the whole search with its output sent to /dev/null (every
/// entry is still produced and written, as when printing). Each run is a fresh ffind process;
/// bench records its wall-clock, user and system time and its peak memory.
#[derive(Debug, Parser)]
#[command(
    name = "ffind --bench",
    version,
    max_term_width = 100,
    after_help = "Every other option is passed to each run as given: the filters of `ffind --help` \
                  (-e, -t, -H, -I, -u, -E, -d, -S, ...), so `ffind --bench -e rs -H ~/src` times \
                  `ffind -e rs -H . ~/src`. With no filter, bench times ffind's default search \
                  (hidden and ignored entries skipped), like `ffind . PATH`; add -u to time a \
                  listing of everything. To time a pattern search, give the pattern with \
                  --and PATTERN.\n\n\
                  Example: ffind --bench --methods all --concurrency 1,2,4,8,64 --runs 5 ~/src \
                  --export-json b.json --export-markdown b.md --export-svg b.svg"
)]
pub struct BenchArgs {
    /// The directories to search (default: the current directory).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// The methods to compare, comma-separated, or "all" ([`methods_help`]).
    #[arg(help = methods_help())]
    #[arg(long = "methods", alias = "method", value_name = "METHODS", value_delimiter = ',',
          default_value = "all", value_parser = method_choices())]
    pub methods: Vec<MethodChoice>,

    /// The concurrency levels (threads) to time each parallel method at, comma-separated.
    /// Default: the powers of two up to twice the number of CPUs.
    #[arg(short = 'j', long = "concurrency", alias = "threads", value_name = "N,...",
          value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub concurrency: Vec<u32>,

    /// Timed runs per benchmark.
    #[arg(short = 'r', long, value_name = "N", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,

    /// Untimed runs per benchmark before the timed ones, to warm the caches.
    #[arg(short = 'w', long, value_name = "N", default_value_t = 1)]
    pub warmup: u32,

    /// Write the results as JSON, in hyperfine's schema (for its scripts: plot_whisker.py,
    /// plot_parametrized.py for a one-method sweep, advanced_statistics.py).
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,

    /// Write the results as a Markdown table, as hyperfine does.
    #[arg(long, value_name = "FILE")]
    pub export_markdown: Option<PathBuf>,

    /// Write the results as CSV, as hyperfine does.
    #[arg(long, value_name = "FILE")]
    pub export_csv: Option<PathBuf>,

    /// Draw the mean time against concurrency, one line per method, as an SVG chart.
    #[arg(long, value_name = "FILE")]
    pub export_svg: Option<PathBuf>,
}

/// One item of `--methods`: a method, or all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MethodChoice {
    /// Every method, in the table's order.
    All,
    /// One method.
    One(Method),
}

/// `--methods`' help, which names the methods from the table.
fn methods_help() -> String {
    let names: Vec<&str> = Method::all().map(Method::name).collect();
    format!(
        "The methods to compare, comma-separated ({}), or \"all\". {} use one thread whatever \
         the concurrency: they run once, at concurrency 1, not once per level",
        names.join(", "),
        names_where(Capability::Parallel, false, "and")
    )
}

/// The `--methods` values: each method's name, or "all" (shell completions offer them).
fn method_choices() -> impl TypedValueParser<Value = MethodChoice> {
    let names = Method::all().map(Method::name);
    PossibleValuesParser::new(names.chain(["all"]))
        .map(|name| Method::named(&name).map_or(MethodChoice::All, MethodChoice::One))
}

impl BenchArgs {
    /// The export files asked for: each with its format and the option that named it.
    pub fn exports(&self) -> impl Iterator<Item = (Format, &'static str, &PathBuf)> {
        [
            (Format::Json, "--export-json", &self.export_json),
            (Format::Markdown, "--export-markdown", &self.export_markdown),
            (Format::Csv, "--export-csv", &self.export_csv),
            (Format::Svg, "--export-svg", &self.export_svg),
        ]
        .into_iter()
        .filter_map(|(format, option, path)| Some((format, option, path.as_ref()?)))
    }

    /// The methods to time, in the order given, each once.
    pub fn methods(&self) -> Vec<Method> {
        let all: Vec<Method> = Method::all().collect();
        let mut methods = Vec::new();
        for choice in &self.methods {
            let add: &[Method] = match choice {
                MethodChoice::All => &all,
                MethodChoice::One(m) => std::slice::from_ref(m),
            };
            for &m in add {
                if !methods.contains(&m) {
                    methods.push(m);
                }
            }
        }
        methods
    }

    /// The concurrency levels, ascending, each once (the default when none were given).
    pub fn levels(&self, cpus: usize) -> Vec<u32> {
        let mut levels = if self.concurrency.is_empty() {
            default_levels(cpus)
        } else {
            self.concurrency.clone()
        };
        levels.sort_unstable();
        levels.dedup();
        levels
    }
}

/// The powers of two up to twice the CPU count: directory reads block, so a walk usually gains
/// from somewhat more threads than CPUs; the sweep shows where it stops gaining.
fn default_levels(cpus: usize) -> Vec<u32> {
    let limit = (2 * cpus.max(1)).min(4096) as u32;
    std::iter::successors(Some(1u32), |n| n.checked_mul(2))
        .take_while(|&n| n <= limit)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn parse(args: &[&str]) -> BenchArgs {
        BenchArgs::try_parse_from(std::iter::once("ffind --bench").chain(args.iter().copied()))
            .unwrap()
    }

    #[test]
    fn clap_definition_is_consistent() {
        BenchArgs::command().debug_assert();
    }

    #[test]
    fn all_expands_in_method_order_without_repeats() {
        let a = parse(&["--methods", "queue,all"]);
        let names: Vec<&str> = a.methods().iter().map(|m| m.name()).collect();
        let rest = Method::all().map(Method::name).filter(|n| *n != "queue");
        let want: Vec<&str> = std::iter::once("queue").chain(rest).collect();
        assert_eq!(names, want);
        assert_eq!(parse(&[]).methods(), Method::all().collect::<Vec<_>>());
        assert!(BenchArgs::try_parse_from(["ffind --bench", "--methods", "fast"]).is_err());
    }

    #[test]
    fn concurrency_list_is_sorted_and_deduplicated() {
        let a = parse(&["-j", "8,1,2,8"]);
        assert_eq!(a.levels(2), [1, 2, 8]);
        assert!(BenchArgs::try_parse_from(["ffind --bench", "-j", "0"]).is_err());
    }

    #[test]
    fn default_levels_reach_twice_the_cpus() {
        assert_eq!(default_levels(2), [1, 2, 4]);
        assert_eq!(default_levels(3), [1, 2, 4]);
        assert_eq!(default_levels(1), [1, 2]);
        assert_eq!(parse(&[]).levels(4), [1, 2, 4, 8]);
    }
}
