//! hyperfine's CSV: `command,mean,stddev,median,user,system,min,max`, then a `parameter_NAME`
//! column per parameter; times in seconds at full precision; fields quoted only when needed
//! (RFC 4180).

use crate::bench::result::BenchmarkResult;

/// The CSV text.
pub fn render(results: &[BenchmarkResult]) -> String {
    let mut header: Vec<String> = [
        "command", "mean", "stddev", "median", "user", "system", "min", "max",
    ]
    .map(String::from)
    .into();
    if let Some(first) = results.first() {
        header.extend(
            first
                .parameters
                .keys()
                .map(|name| format!("parameter_{name}")),
        );
    }
    let mut out = record(&header);
    for r in results {
        // A single run has no deviation; hyperfine's CSV writes 0 for it.
        let numbers = [
            r.mean,
            r.stddev.unwrap_or(0.0),
            r.median,
            r.user,
            r.system,
            r.min,
            r.max,
        ];
        let mut fields = vec![r.command.clone()];
        fields.extend(numbers.iter().map(f64::to_string));
        fields.extend(r.parameters.values().cloned());
        out.push_str(&record(&fields));
    }
    out
}

fn record(fields: &[String]) -> String {
    let quoted: Vec<String> = fields
        .iter()
        .map(|f| {
            if f.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", f.replace('"', "\"\""))
            } else {
                f.clone()
            }
        })
        .collect();
    quoted.join(",") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::result::{set_parameters, tests::sample};
    use crate::walk::methods::Method;

    #[test]
    fn header_rows_and_parameter_columns() {
        let mut results = vec![
            sample(Method::Serial, 1, &[0.5, 0.25]),
            sample(Method::Queue, 4, &[0.125]),
        ];
        set_parameters(&mut results);
        let text = render(&results);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "command,mean,stddev,median,user,system,min,max,parameter_concurrency,parameter_method"
        );
        assert_eq!(
            lines[1],
            "ffind --method serial --concurrency 1 . /t,0.375,0.1767766952966369,0.375,0.09375,0.1875,0.25,0.5,1,serial"
        );
        assert_eq!(lines[2], "ffind --method queue --concurrency 4 . /t,0.125,0,0.125,0.03125,0.0625,0.125,0.125,4,queue");
        assert_eq!(lines.len(), 3);
    }

    #[test]
    fn quotes_only_what_needs_it() {
        assert_eq!(
            record(&["a b".into(), "x,y".into(), "say \"hi\"".into()]),
            "a b,\"x,y\",\"say \"\"hi\"\"\"\n"
        );
    }
}
