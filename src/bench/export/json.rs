//! hyperfine's JSON: `{"results": [...]}`, one object per benchmark with the fields of
//! [`BenchmarkResult`], pretty-printed as hyperfine prints it.

use serde::Serialize;

use crate::bench::result::BenchmarkResult;

#[derive(Serialize)]
struct Export<'a> {
    results: &'a [BenchmarkResult],
}

/// The JSON text.
pub fn render(results: &[BenchmarkResult]) -> String {
    let mut text =
        serde_json::to_string_pretty(&Export { results }).expect("plain data serializes");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::result::{set_parameters, tests::sample};
    use crate::walk::methods::Method;
    use serde_json::Value;

    /// The fields of a result in hyperfine's schema (src/benchmark/benchmark_result.rs, with
    /// `memory_usage_byte` from the releases that record memory) and their JSON types.
    const SCHEMA: [(&str, &str); 12] = [
        ("command", "string"),
        ("mean", "number"),
        ("stddev", "number or null"),
        ("median", "number"),
        ("user", "number"),
        ("system", "number"),
        ("min", "number"),
        ("max", "number"),
        ("times", "array of numbers"),
        ("memory_usage_byte", "array of integers"),
        ("exit_codes", "array of integers or nulls"),
        ("parameters", "object of strings"),
    ];

    fn type_ok(kind: &str, v: &Value) -> bool {
        match kind {
            "string" => v.is_string(),
            "number" => v.is_f64() || v.is_u64(),
            "number or null" => v.is_number() || v.is_null(),
            "array of numbers" => v.as_array().is_some_and(|a| a.iter().all(Value::is_number)),
            "array of integers" => v.as_array().is_some_and(|a| a.iter().all(Value::is_u64)),
            "array of integers or nulls" => v
                .as_array()
                .is_some_and(|a| a.iter().all(|x| x.is_i64() || x.is_null())),
            "object of strings" => v
                .as_object()
                .is_some_and(|o| o.values().all(Value::is_string)),
            _ => unreachable!("{kind}"),
        }
    }

    #[test]
    fn matches_hyperfines_schema_field_for_field() {
        let mut results = vec![
            sample(Method::Queue, 1, &[0.5, 0.25]),
            sample(Method::Queue, 8, &[0.125]),
        ];
        set_parameters(&mut results);
        let text = render(&results);
        let json: Value = serde_json::from_str(&text).unwrap();
        let object = json.as_object().unwrap();
        assert_eq!(object.keys().collect::<Vec<_>>(), ["results"]);
        let list = json["results"].as_array().unwrap();
        assert_eq!(list.len(), 2);
        for r in list {
            let mut keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
            let mut want: Vec<&str> = SCHEMA.iter().map(|(k, _)| *k).collect();
            keys.sort_unstable();
            want.sort_unstable();
            assert_eq!(keys, want);
            for (key, kind) in SCHEMA {
                assert!(type_ok(kind, &r[key]), "{key} should be {kind}: {}", r[key]);
            }
        }
        let first = &text[..text.find('}').unwrap()];
        let at: Vec<usize> = SCHEMA[..11]
            .iter()
            .map(|(k, _)| first.find(&format!("\"{k}\":")).unwrap())
            .collect();
        assert!(
            at.windows(2).all(|w| w[0] < w[1]),
            "fields in hyperfine's order: {at:?}"
        );
        assert_eq!(list[0]["times"], serde_json::json!([0.5, 0.25]));
        assert!((list[0]["stddev"].as_f64().unwrap() - 0.25 / 2f64.sqrt()).abs() < 1e-12);
        assert!(
            list[1]["stddev"].is_null(),
            "one run has no sample deviation"
        );
        assert_eq!(
            list[1]["parameters"],
            serde_json::json!({"concurrency": "8"})
        );
        assert_eq!(list[0]["exit_codes"], serde_json::json!([0, 0]));
    }

    #[test]
    fn parameters_are_left_out_when_nothing_varies() {
        let results = [sample(Method::Serial, 1, &[0.5])];
        let json: Value = serde_json::from_str(&render(&results)).unwrap();
        assert!(json["results"][0].get("parameters").is_none());
    }
}
