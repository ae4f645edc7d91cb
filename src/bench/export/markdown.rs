//! hyperfine's Markdown table: `| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |`, in
//! the unit hyperfine picks for the first benchmark's mean, one row per benchmark in run order.
//! The table is for people: a command is shown as on the terminal (a newline in a path as
//! `\x0A`, which also keeps the row one line), in a code span that its backticks cannot close.

use std::fmt::Write;

use crate::bench::format::Unit;
use crate::bench::result::{relative_speeds, BenchmarkResult};
use crate::bench::shown;

/// The table.
pub fn render(results: &[BenchmarkResult]) -> String {
    let unit = results
        .first()
        .map_or(Unit::Second, |r| Unit::for_seconds(r.mean));
    let u = unit.short_name();
    let mut out = format!(
        "| Command | Mean [{u}] | Min [{u}] | Max [{u}] | Relative |\n|:---|---:|---:|---:|---:|\n"
    );
    for rel in relative_speeds(results) {
        let r = rel.result;
        let spread = r
            .stddev
            .map(|s| format!(" ± {}", unit.value(s)))
            .unwrap_or_default();
        let rel_spread = match rel.stddev {
            Some(s) if !rel.is_fastest => format!(" ± {s:.2}"),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "| {} | {}{spread} | {} | {} | {:.2}{rel_spread} |",
            code_span(&shown(&r.command).replace('|', "\\|")),
            unit.value(r.mean),
            unit.value(r.min),
            unit.value(r.max),
            rel.ratio,
        );
    }
    out
}

/// `text` as inline code: fenced by one backtick more than its longest run of them, and padded
/// with a space inside a longer fence (CommonMark strips one on each side).
fn code_span(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if longest > 0 { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::result::tests::sample;
    use crate::walk::methods::Method;

    fn result(
        command: &str,
        mean: f64,
        stddev: Option<f64>,
        min: f64,
        max: f64,
    ) -> BenchmarkResult {
        let mut r = sample(Method::Queue, 1, &[mean]);
        (r.command, r.mean, r.stddev, r.min, r.max) = (command.into(), mean, stddev, min, max);
        r
    }

    #[test]
    fn table_in_the_first_results_unit() {
        // hyperfine's test_markdown_format_ms, with its numbers.
        let results = [
            result("sleep 0.1", 0.1057, Some(0.0016), 0.1023, 0.1080),
            result("sleep 2", 2.0050, Some(0.0020), 2.0020, 2.0080),
        ];
        assert_eq!(
            render(&results),
            "| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |\n\
             |:---|---:|---:|---:|---:|\n\
             | `sleep 0.1` | 105.7 ± 1.6 | 102.3 | 108.0 | 1.00 |\n\
             | `sleep 2` | 2005.0 ± 2.0 | 2002.0 | 2008.0 | 18.97 ± 0.29 |\n"
        );
        // And test_markdown_format_s: the first result in seconds sets seconds for all.
        let reversed = [results[1].clone(), results[0].clone()];
        assert!(render(&reversed)
            .contains("| `sleep 2` | 2.005 ± 0.002 | 2.002 | 2.008 | 18.97 ± 0.29 |\n"));
        assert!(render(&reversed).starts_with("| Command | Mean [s] |"));
    }

    #[test]
    fn single_runs_and_pipes() {
        let results = [
            result("a | b", 0.002, None, 0.002, 0.002),
            result("c", 0.004, None, 0.004, 0.004),
        ];
        let table = render(&results);
        assert!(
            table.contains("| `a \\| b` | 2.0 | 2.0 | 2.0 | 1.00 |\n"),
            "{table}"
        );
        assert!(
            table.contains("| `c` | 4.0 | 4.0 | 4.0 | 2.00 |\n"),
            "{table}"
        );
    }

    #[test]
    fn backticks_and_newlines_stay_inside_one_row() {
        let results = [result("echo `a``b`\nx", 0.002, None, 0.002, 0.002)];
        assert_eq!(
            render(&results).lines().nth(2),
            Some("| ``` echo `a``b`\\x0Ax ``` | 2.0 | 2.0 | 2.0 | 1.00 |")
        );
        assert_eq!(code_span("plain"), "`plain`");
    }
}
