//! The terminal report, laid out as hyperfine lays out its own: per benchmark the mean ± σ with
//! user and system time, the range and the number of runs; then a summary naming the fastest
//! and how many times faster it ran than each of the others. Commands are [`shown`] escaped.

use std::fmt::Write;

use super::format::Unit;
use super::result::{relative_speeds, BenchmarkResult};
use super::shown;

/// The header printed before a benchmark runs ("Benchmark 1: ffind ...").
pub fn header(number: usize, command: &str) -> String {
    format!("Benchmark {number}: {}\n", shown(command))
}

/// The lines printed once a benchmark has run.
pub fn benchmark(result: &BenchmarkResult) -> String {
    let unit = Unit::for_seconds(result.mean);
    let mut out = String::new();
    let cpu = format!(
        "[User: {}, System: {}]",
        unit.format(result.user),
        unit.format(result.system)
    );
    match result.stddev {
        Some(stddev) => {
            let _ = writeln!(
                out,
                "  Time (mean ± σ):     {:>8} ± {:>8}    {cpu}",
                unit.format(result.mean),
                unit.format(stddev)
            );
            let _ = writeln!(
                out,
                "  Range (min … max):   {:>8} … {:>8}    {} runs",
                unit.format(result.min),
                unit.format(result.max),
                result.times.len()
            );
        }
        None => {
            let _ = writeln!(
                out,
                "  Time (abs ≡):        {:>8}               {cpu}",
                unit.format(result.mean)
            );
        }
    }
    out.push('\n');
    out
}

/// The summary: how many entries every benchmark listed, then (with more than one benchmark)
/// the fastest, and the others from the fastest to the slowest.
pub fn summary(results: &[BenchmarkResult]) -> String {
    let mut out = String::new();
    let Some(first) = results.first() else {
        return out;
    };
    let _ = writeln!(out, "Every benchmark listed {} entries.", first.entries);
    let mut relative = relative_speeds(results);
    let Some(fastest) = relative.iter().find(|r| r.is_fastest).copied() else {
        return out;
    };
    if results.len() < 2 {
        return out;
    }
    relative.sort_by(|a, b| a.ratio.total_cmp(&b.ratio));
    let _ = writeln!(out, "\nSummary\n  '{}' ran", shown(&fastest.result.command));
    for r in relative.iter().filter(|r| !r.is_fastest) {
        let spread = r.stddev.map(|s| format!(" ± {s:.2}")).unwrap_or_default();
        let _ = writeln!(
            out,
            "    {:.2}{spread} times faster than '{}'",
            r.ratio,
            shown(&r.result.command)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::result::tests::sample;
    use crate::walk::methods::Method;

    #[test]
    fn benchmark_lines_like_hyperfine() {
        let r = sample(Method::Queue, 2, &[0.0107, 0.0108, 0.0109]);
        assert_eq!(
            benchmark(&r),
            "  Time (mean ± σ):      10.8 ms ±   0.1 ms    [User: 2.7 ms, System: 5.4 ms]\n\
             \x20 Range (min … max):    10.7 ms …  10.9 ms    3 runs\n\n"
        );
    }

    #[test]
    fn a_single_run_has_no_spread() {
        let r = sample(Method::Queue, 2, &[1.5]);
        assert_eq!(
            benchmark(&r),
            "  Time (abs ≡):         1.500 s               [User: 0.375 s, System: 0.750 s]\n\n"
        );
    }

    #[test]
    fn summary_names_the_fastest_then_the_others_by_speed() {
        let results = [
            sample(Method::Serial, 1, &[0.30, 0.30]),
            sample(Method::Queue, 1, &[0.10, 0.10]),
            sample(Method::Queue, 2, &[0.20, 0.20]),
        ];
        let text = summary(&results);
        assert_eq!(
            text,
            "Every benchmark listed 7 entries.\n\nSummary\n  'ffind --method queue --concurrency 1 . /t' ran\n    \
             2.00 ± 0.00 times faster than 'ffind --method queue --concurrency 2 . /t'\n    \
             3.00 ± 0.00 times faster than 'ffind --method serial --concurrency 1 . /t'\n"
        );
        assert!(!summary(&results[..1]).contains("Summary"));
    }
}
