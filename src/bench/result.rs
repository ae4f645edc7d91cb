//! One benchmark's outcome, shaped field for field like hyperfine's `BenchmarkResult` (which is
//! what `--export-json` writes), and the relative speeds the summary and the table show.

use std::collections::BTreeMap;

use serde::Serialize;

use super::plan::Benchmark;
use super::stats;
use crate::walk::methods::Method;

/// What one timed run of ffind cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Run {
    /// Wall-clock seconds from spawning to reaping the process.
    pub wall: f64,
    /// Seconds of CPU time in user mode.
    pub user: f64,
    /// Seconds of CPU time in the kernel.
    pub system: f64,
    /// Peak resident memory in bytes; `None` where the system cannot tell.
    pub max_rss: Option<u64>,
    /// The exit code; `None` when a signal ended the process.
    pub exit_code: Option<i32>,
}

/// A benchmark's results. The serialized fields, their order and types are hyperfine's.
#[derive(Debug, Clone, Serialize)]
pub struct BenchmarkResult {
    /// The ffind command line that reproduces this benchmark.
    pub command: String,
    /// Mean wall-clock time, in seconds.
    pub mean: f64,
    /// Sample standard deviation of the wall-clock times; `null` after a single run.
    pub stddev: Option<f64>,
    /// Median wall-clock time.
    pub median: f64,
    /// Mean user time.
    pub user: f64,
    /// Mean system time.
    pub system: f64,
    /// Shortest wall-clock time.
    pub min: f64,
    /// Longest wall-clock time.
    pub max: f64,
    /// Every run's wall-clock time, in run order.
    pub times: Vec<f64>,
    /// Every run's peak resident memory, in bytes (0 where the system cannot tell, as
    /// hyperfine writes it on Windows).
    pub memory_usage_byte: Vec<u64>,
    /// Every run's exit code (`null` for a signal).
    pub exit_codes: Vec<Option<i32>>,
    /// The parameters that vary across this set of benchmarks (`method`, `concurrency`), as
    /// strings; omitted when none varies.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub parameters: BTreeMap<String, String>,
    /// The traversal method.
    #[serde(skip)]
    pub method: Method,
    /// The concurrency level.
    #[serde(skip)]
    pub concurrency: u32,
    /// How many entries the search listed.
    #[serde(skip)]
    pub entries: u64,
}

impl BenchmarkResult {
    /// Summarizes the timed runs of a benchmark (at least one).
    pub fn new(benchmark: &Benchmark, entries: u64, runs: &[Run]) -> BenchmarkResult {
        let times: Vec<f64> = runs.iter().map(|r| r.wall).collect();
        let users: Vec<f64> = runs.iter().map(|r| r.user).collect();
        let systems: Vec<f64> = runs.iter().map(|r| r.system).collect();
        BenchmarkResult {
            command: benchmark.command.clone(),
            mean: stats::mean(&times),
            stddev: stats::stddev(&times),
            median: stats::median(&times),
            user: stats::mean(&users),
            system: stats::mean(&systems),
            min: stats::min(&times),
            max: stats::max(&times),
            memory_usage_byte: runs.iter().map(|r| r.max_rss.unwrap_or(0)).collect(),
            exit_codes: runs.iter().map(|r| r.exit_code).collect(),
            times,
            parameters: BTreeMap::new(),
            method: benchmark.method,
            concurrency: benchmark.concurrency,
            entries,
        }
    }
}

/// Fills in `parameters` as hyperfine would for a parameter scan: with each parameter whose
/// value is not the same in every benchmark. So a sweep of one method carries `concurrency`
/// alone (what hyperfine's plot_parametrized.py needs), a comparison at one level `method`.
pub fn set_parameters(results: &mut [BenchmarkResult]) {
    let varies = |value: fn(&BenchmarkResult) -> String| -> bool {
        results
            .first()
            .is_some_and(|first| results.iter().any(|r| value(r) != value(first)))
    };
    let method = varies(|r| r.method.name().to_owned());
    let concurrency = varies(|r| r.concurrency.to_string());
    for r in results.iter_mut() {
        r.parameters.clear();
        if method {
            r.parameters.insert("method".into(), r.method.name().into());
        }
        if concurrency {
            r.parameters
                .insert("concurrency".into(), r.concurrency.to_string());
        }
    }
}

/// A result beside the fastest one.
#[derive(Debug, Clone, Copy)]
pub struct Relative<'a> {
    /// The result.
    pub result: &'a BenchmarkResult,
    /// Its mean over the fastest mean (1 for the fastest).
    pub ratio: f64,
    /// The standard deviation of that ratio, when both have one.
    pub stddev: Option<f64>,
    /// Whether this is the fastest.
    pub is_fastest: bool,
}

/// Every result against the fastest, in the given order. As hyperfine computes it: the
/// uncertainty of the ratio propagated from both means, taken as independent.
pub fn relative_speeds(results: &[BenchmarkResult]) -> Vec<Relative<'_>> {
    let Some(fastest) = results.iter().min_by(|a, b| a.mean.total_cmp(&b.mean)) else {
        return Vec::new();
    };
    results
        .iter()
        .map(|result| {
            let is_fastest = std::ptr::eq(result, fastest);
            if fastest.mean == 0.0 {
                let ratio = if is_fastest { 1.0 } else { f64::INFINITY };
                return Relative {
                    result,
                    ratio,
                    stddev: None,
                    is_fastest,
                };
            }
            let ratio = result.mean / fastest.mean;
            let stddev = match (result.stddev, fastest.stddev) {
                (Some(s), Some(f)) => {
                    Some(ratio * ((s / result.mean).powi(2) + (f / fastest.mean).powi(2)).sqrt())
                }
                _ => None,
            };
            Relative {
                result,
                ratio,
                stddev,
                is_fastest,
            }
        })
        .collect()
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// A result with these wall-clock times, for the tests of the formats.
    pub fn sample(method: Method, concurrency: u32, times: &[f64]) -> BenchmarkResult {
        let benchmark = Benchmark {
            method,
            concurrency,
            args: Vec::new(),
            command: format!(
                "ffind --method {} --concurrency {concurrency} . /t",
                method.name()
            ),
        };
        let runs: Vec<Run> = times
            .iter()
            .map(|&wall| Run {
                wall,
                user: wall / 4.0,
                system: wall / 2.0,
                max_rss: Some(4096),
                exit_code: Some(0),
            })
            .collect();
        BenchmarkResult::new(&benchmark, 7, &runs)
    }

    #[test]
    fn summarizes_runs() {
        let r = sample(Method::Queue, 4, &[0.3, 0.1, 0.2]);
        assert!((r.mean - 0.2).abs() < 1e-12);
        assert_eq!((r.min, r.max, r.median), (0.1, 0.3, 0.2));
        assert!((r.user - 0.05).abs() < 1e-12 && (r.system - 0.1).abs() < 1e-12);
        assert_eq!(r.times, [0.3, 0.1, 0.2]);
        assert_eq!(r.memory_usage_byte, [4096; 3]);
    }

    #[test]
    fn parameters_are_the_varying_ones() {
        let mut sweep = vec![
            sample(Method::Queue, 1, &[1.0]),
            sample(Method::Queue, 2, &[1.0]),
        ];
        set_parameters(&mut sweep);
        assert_eq!(
            sweep[1].parameters,
            BTreeMap::from([("concurrency".into(), "2".into())])
        );

        let mut both = vec![
            sample(Method::Serial, 1, &[1.0]),
            sample(Method::Queue, 2, &[1.0]),
        ];
        set_parameters(&mut both);
        assert_eq!(
            both[0].parameters.keys().collect::<Vec<_>>(),
            ["concurrency", "method"]
        );

        let mut methods = vec![
            sample(Method::Serial, 1, &[1.0]),
            sample(Method::Queue, 1, &[1.0]),
        ];
        set_parameters(&mut methods);
        assert_eq!(
            methods[1].parameters,
            BTreeMap::from([("method".into(), "queue".into())])
        );

        let mut one = vec![sample(Method::Serial, 1, &[1.0])];
        set_parameters(&mut one);
        assert!(one[0].parameters.is_empty());
    }

    #[test]
    fn relative_speed_with_propagated_uncertainty() {
        // hyperfine's markdown test: 105.7 ± 1.6 ms against 2005.0 ± 2.0 ms is 18.97 ± 0.29.
        let mut fast = sample(Method::Queue, 1, &[1.0]);
        (fast.mean, fast.stddev) = (0.1057, Some(0.0016));
        let mut slow = sample(Method::Serial, 1, &[1.0]);
        (slow.mean, slow.stddev) = (2.0050, Some(0.0020));
        let results = [slow, fast];
        let rel = relative_speeds(&results);
        assert!(rel[1].is_fastest && !rel[0].is_fastest);
        assert_eq!(rel[1].ratio, 1.0);
        assert_eq!(
            format!("{:.2} ± {:.2}", rel[0].ratio, rel[0].stddev.unwrap()),
            "18.97 ± 0.29"
        );
    }
}
