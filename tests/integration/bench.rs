//! `ffind --bench`: a small end-to-end run on a fixture tree, the exports checked against what
//! hyperfine writes (by hyperfine itself when it is installed) and against what hyperfine's
//! scripts read.

use std::fs;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::fixture::{have, Run, Spawn, Tree};

fn tree() -> Tree {
    let t = Tree::new();
    t.files(&[
        "a.rs",
        "b.txt",
        "src/c.rs",
        "src/deep/d.rs",
        "docs/e.md",
        ".hidden/f.rs",
    ]);
    t
}

/// Runs `ffind --bench ARGS`, asserting success.
fn bench(t: &Tree, args: &[&str]) -> Run {
    let mut all = vec!["--bench"];
    all.extend_from_slice(args);
    let run = t.run(&all);
    assert_eq!(
        run.code, 0,
        "exit code {}; stderr:\n{}",
        run.code, run.stderr
    );
    run
}

fn read_json(path: &Path) -> Vec<Value> {
    let json: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(
        json.as_object().unwrap().len(),
        1,
        "only \"results\" at the top: {json}"
    );
    json["results"].as_array().unwrap().clone()
}

/// The number `bench` says every benchmark listed.
fn entries(run: &Run) -> usize {
    let text = String::from_utf8_lossy(&run.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("Every benchmark listed"))
        .expect("the entry count line");
    line.split_whitespace().nth(3).unwrap().parse().unwrap()
}

#[test]
fn end_to_end_with_every_export() {
    let t = tree();
    let out = t.home();
    let (json, md, csv, svg) = (
        out.join("b.json"),
        out.join("b.md"),
        out.join("b.csv"),
        out.join("b.svg"),
    );
    let run = bench(
        &t,
        &[
            "--methods",
            "serial,queue",
            "--concurrency",
            "1,2",
            "--runs",
            "2",
            "--warmup",
            "0",
            "--export-json",
            json.to_str().unwrap(),
            "--export-markdown",
            md.to_str().unwrap(),
            "--export-csv",
            csv.to_str().unwrap(),
            "--export-svg",
            svg.to_str().unwrap(),
            ".",
        ],
    );
    let stdout = String::from_utf8(run.stdout.clone()).unwrap();
    assert_eq!(
        stdout.matches("Benchmark ").count(),
        3,
        "serial once, queue at 1 and 2:\n{stdout}"
    );
    assert_eq!(stdout.matches("  Time (mean ± σ): ").count(), 3, "{stdout}");
    assert!(
        stdout.contains("Summary\n") && stdout.contains(" times faster than '"),
        "{stdout}"
    );
    // The default search: hidden entries skipped, as plain `ffind` lists them.
    let listed = t.run(&[]).sorted().len();
    assert_eq!(entries(&run), listed);

    let results = read_json(&json);
    let got: Vec<(String, String)> = results
        .iter()
        .map(|r| {
            (
                r["parameters"]["method"].as_str().unwrap().into(),
                r["parameters"]["concurrency"].as_str().unwrap().into(),
            )
        })
        .collect();
    let want = [("serial", "1"), ("queue", "1"), ("queue", "2")]
        .map(|(m, c)| (m.to_owned(), c.to_owned()));
    assert_eq!(got, want);
    for r in &results {
        assert_eq!(r["times"].as_array().unwrap().len(), 2);
        assert_eq!(r["exit_codes"], serde_json::json!([0, 0]));
        assert!(r["memory_usage_byte"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m.as_u64().unwrap() > 1024));
        let (min, mean, max) = (
            r["min"].as_f64().unwrap(),
            r["mean"].as_f64().unwrap(),
            r["max"].as_f64().unwrap(),
        );
        assert!(0.0 < min && min <= mean && mean <= max, "{r}");
        // The command reproduces the benchmark on its own, through a shell as hyperfine runs it.
        let command = r["command"].as_str().unwrap();
        assert!(command.contains(&format!(
            "--method {}",
            r["parameters"]["method"].as_str().unwrap()
        )));
        let alone = Run::from(t_shell(&t, command));
        assert_eq!(alone.code, 0, "{command}: {}", alone.stderr);
        assert_eq!(alone.sorted(), t.run(&[".", "."]).sorted(), "{command}");
    }

    let table = fs::read_to_string(&md).unwrap();
    let lines: Vec<&str> = table.lines().collect();
    // hyperfine's unit for the first benchmark's mean: a release build lists this small tree
    // in under a millisecond on a fast machine.
    let first_mean = results[0]["mean"].as_f64().unwrap();
    let unit = match first_mean {
        m if m < 0.001 => "µs",
        m if m < 1.0 => "ms",
        _ => "s",
    };
    assert_eq!(
        lines[0],
        format!("| Command | Mean [{unit}] | Min [{unit}] | Max [{unit}] | Relative |")
    );
    assert_eq!(lines[1], "|:---|---:|---:|---:|---:|");
    assert_eq!(lines.len(), 5);
    for (line, r) in lines[2..].iter().zip(&results) {
        assert!(
            line.starts_with(&format!("| `{}` | ", r["command"].as_str().unwrap())),
            "{line}"
        );
    }
    assert_eq!(
        lines[2..]
            .iter()
            .filter(|l| l.ends_with(" | 1.00 |"))
            .count(),
        1,
        "one fastest:\n{table}"
    );

    let csv = fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(
        rows[0],
        "command,mean,stddev,median,user,system,min,max,parameter_concurrency,parameter_method"
    );
    assert_eq!(rows.len(), 4);
    assert!(rows[3].ends_with(",2,queue"), "{}", rows[3]);

    let svg = fs::read_to_string(&svg).unwrap();
    assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(
        svg.matches("<polyline").count(),
        1,
        "a line for queue; serial is a dashed reference"
    );
    assert!(svg.contains(">serial (1 thread)</text>") && svg.contains(">queue</text>"));
}

/// Runs a shell command line in the tree, with the fixture's clean environment.
fn t_shell(t: &Tree, command: &str) -> std::process::Output {
    let mut c = Command::new("sh");
    c.args(["-c", command]).current_dir(t.root());
    crate::fixture::clean_env(&mut c, &t.home());
    c.output_ok()
}

#[test]
fn a_one_method_sweep_is_what_plot_parametrized_reads() {
    let t = tree();
    let json = t.home().join("sweep.json");
    bench(
        &t,
        &[
            "--methods",
            "queue",
            "-j",
            "4,1,2",
            "-r",
            "2",
            "-w",
            "0",
            "--export-json",
            json.to_str().unwrap(),
        ],
    );
    let results = read_json(&json);
    // plot_parametrized.py: exactly one parameter per result, the same name throughout, its
    // value a number as a string; then mean and stddev. plot_whisker.py: command and times.
    let mut levels = Vec::new();
    for r in &results {
        let parameters = r["parameters"].as_object().unwrap();
        assert_eq!(parameters.keys().collect::<Vec<_>>(), ["concurrency"]);
        levels.push(
            parameters["concurrency"]
                .as_str()
                .unwrap()
                .parse::<f64>()
                .unwrap(),
        );
        assert!(r["mean"].is_f64() && r["stddev"].is_f64());
        assert!(
            r["command"].is_string() && r["times"].as_array().unwrap().iter().all(Value::is_f64)
        );
    }
    assert_eq!(levels, [1.0, 2.0, 4.0]);
}

#[test]
fn json_keys_and_types_match_what_hyperfine_writes() {
    let t = tree();
    let ours = t.home().join("ours.json");
    bench(
        &t,
        &[
            "--methods",
            "queue",
            "-j",
            "1,2",
            "-r",
            "2",
            "-w",
            "0",
            "--export-json",
            ours.to_str().unwrap(),
        ],
    );
    let ours = read_json(&ours);
    if !have("hyperfine") {
        eprintln!("hyperfine is not installed: the schema is checked by the unit tests only");
        return;
    }
    let theirs = t.home().join("theirs.json");
    let status = Command::new("hyperfine")
        .args([
            "-N",
            "--runs",
            "2",
            "-P",
            "concurrency",
            "1",
            "2",
            "true {concurrency}",
            "--export-json",
        ])
        .arg(&theirs)
        .output_ok();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let theirs = read_json(&theirs);
    let kind = |v: &Value| match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "string",
        Value::Array(a) => match a.first() {
            Some(Value::Number(n)) if n.is_f64() => "array of floats",
            Some(Value::Number(_)) => "array of ints",
            _ => "array",
        },
        Value::Object(_) => "object",
    };
    let (ours, theirs) = (ours[0].as_object().unwrap(), theirs[0].as_object().unwrap());
    for (key, value) in theirs {
        let mine = ours
            .get(key)
            .unwrap_or_else(|| panic!("hyperfine writes {key}, we do not"));
        // A float that happens to be whole is still a number; everything else must agree.
        let (a, b) = (kind(mine), kind(value));
        assert!(
            a == b
                || (a.contains("float") && b.contains("int"))
                || (b.contains("float") && a.contains("int")),
            "{key}: ours {a}, hyperfine's {b}"
        );
    }
    assert_eq!(ours["parameters"], serde_json::json!({"concurrency": "1"}));
    assert_eq!(
        theirs["parameters"],
        serde_json::json!({"concurrency": "1"})
    );
    for key in ours.keys() {
        // Older hyperfine releases do not record memory; newer ones write memory_usage_byte.
        assert!(
            theirs.contains_key(key) || key == "memory_usage_byte",
            "we write {key}, hyperfine does not"
        );
    }
}

#[test]
fn filters_pass_through_to_every_run() {
    let t = tree();
    let json = t.home().join("rs.json");
    let run = bench(
        &t,
        &[
            "-e",
            "rs",
            "-H",
            "--methods",
            "serial,rayon",
            "-j",
            "2",
            "-r",
            "1",
            "-w",
            "0",
            "--export-json",
            json.to_str().unwrap(),
        ],
    );
    assert_eq!(entries(&run), t.run(&["-e", "rs", "-H"]).sorted().len());
    assert_eq!(entries(&run), 4);
    let results = read_json(&json);
    assert!(results[1]["command"]
        .as_str()
        .unwrap()
        .ends_with("--method rayon --concurrency 2 -e rs -H"));
    assert!(
        results[0]["stddev"].is_null(),
        "a single run has no sample deviation"
    );
    assert_eq!(
        results[0]["parameters"],
        serde_json::json!({"concurrency": "1", "method": "serial"})
    );
}

#[test]
fn a_pattern_where_a_path_belongs_is_a_usage_error() {
    let t = tree();
    let run = t.run(&["--bench", "--runs", "1", "\\.rs$"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--and PATTERN"), "{}", run.stderr);
    let run = t.run(&["--bench", "--no-such-option"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "nothing was timed");
}

/// A directory name holding what a terminal, a Markdown table and XML each choke on: an
/// escape sequence, BEL, a newline, `<&>`, quotes, `|`, a backtick and a byte that is not UTF-8.
const HOSTILE: &[u8] = b"d\x1b]0;pwn\x07 nl\n<&>\"q'|`\xff";

/// How bench shows the quoted HOSTILE in its report: shell-quoted (a name that is not UTF-8 is
/// shown lossily, as in the exports), then escaped as ffind escapes names on a terminal.
const HOSTILE_SHOWN: &str = "'d\\x1B]0;pwn\\x07 nl\\x0A<&>\"q'\\''|`\u{FFFD}'";

/// Splits CSV text (RFC 4180) into records of fields.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let (mut records, mut record, mut field) = (Vec::new(), Vec::new(), String::new());
    let (mut quoted, mut chars) = (false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (false, c) => field.push(c),
        }
    }
    assert!(!quoted && field.is_empty() && record.is_empty(), "{text:?}");
    records
}

#[test]
fn hostile_paths_are_escaped_on_screen_and_every_export_stays_well_formed() {
    use std::os::unix::ffi::OsStrExt;
    let t = tree();
    let dir = t.root().join(std::ffi::OsStr::from_bytes(HOSTILE));
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("f.rs"), "").unwrap();
    let out = t.home();
    let files = ["b.json", "b.md", "b.csv", "b.svg"].map(|f| out.join(f));
    let mut c = t.cmd(&[
        "--bench",
        "--methods",
        "serial,queue",
        "-j",
        "2",
        "-r",
        "1",
        "-w",
        "0",
    ]);
    for (option, file) in [
        "--export-json",
        "--export-markdown",
        "--export-csv",
        "--export-svg",
    ]
    .iter()
    .zip(&files)
    {
        c.arg(option).arg(file);
    }
    c.arg(std::ffi::OsStr::from_bytes(HOSTILE));
    let run = Run::from(c.stdin(std::process::Stdio::null()).output_ok());
    assert_eq!(run.code, 0, "{}", run.stderr);

    // The report: nothing that acts on a terminal, one line per benchmark.
    let report = String::from_utf8(run.stdout.clone()).unwrap();
    assert!(
        !report.contains(|c: char| c.is_control() && c != '\n'),
        "{report:?}"
    );
    let headers: Vec<&str> = report
        .lines()
        .filter(|l| l.starts_with("Benchmark "))
        .collect();
    assert_eq!(headers.len(), 2, "{report}");
    for header in headers {
        assert!(header.ends_with(&format!(" . {HOSTILE_SHOWN}")), "{header}");
    }
    assert_eq!(
        report.matches(&format!(" . {HOSTILE_SHOWN}'")).count(),
        2,
        "the summary names both: {report}"
    );

    // JSON and CSV hold the command itself (the name lossily), each quoted its own way.
    let results = read_json(&files[0]);
    let commands: Vec<&str> = results
        .iter()
        .map(|r| r["command"].as_str().unwrap())
        .collect();
    let quoted = "'d\x1b]0;pwn\x07 nl\n<&>\"q'\\''|`\u{FFFD}'";
    assert!(
        commands
            .iter()
            .all(|c| c.ends_with(&format!(" . {quoted}"))),
        "{commands:?}"
    );
    let records = parse_csv(&fs::read_to_string(&files[2]).unwrap());
    assert_eq!(records.len(), 3, "{records:?}");
    assert!(records.iter().all(|r| r.len() == 10), "{records:?}");
    let csv_commands: Vec<&str> = records[1..].iter().map(|r| r[0].as_str()).collect();
    assert_eq!(csv_commands, commands);

    // Markdown: one row per benchmark, the command escaped for people to read, its `|`
    // escaped for the table and its backtick inside a longer code span.
    let table = fs::read_to_string(&files[1]).unwrap();
    let rows: Vec<&str> = table.lines().collect();
    assert_eq!(rows.len(), 4, "{table}");
    assert!(
        !table.contains(|c: char| c.is_control() && c != '\n'),
        "{table:?}"
    );
    let in_table = HOSTILE_SHOWN.replace('|', "\\|");
    for row in &rows[2..] {
        assert!(
            row.starts_with("| `` ffind") || row.starts_with("| `` /"),
            "{row}"
        );
        assert!(row.contains(&format!(" . {in_table} `` | ")), "{row}");
    }

    // SVG: well-formed XML, whose title reads as the report shows the path.
    let svg = fs::read_to_string(&files[3]).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{e}:\n{svg}"));
    let title = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .find_map(|n| n.text().filter(|t| t.starts_with("ffind --bench ")))
        .unwrap();
    assert_eq!(title, format!("ffind --bench {HOSTILE_SHOWN}"));
}

#[test]
fn messages_escape_the_paths_and_values_they_name() {
    let t = tree();
    let run = t.run(&["--bench", "-r", "1", "no\x1b[2Jsuch\ndir"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("ffind --bench: no\\x1B[2Jsuch\\x0Adir: No such file or directory\n"),
        "{}",
        run.stderr
    );
    let run = t.run(&["--bench", "-r", "1", "--export-svg", "x\x1b[2J/b.svg"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "ffind --bench: --export-svg x\\x1B[2J/b.svg: cannot write this file: No such file or \
         directory\n"
    );
    // Values clap names in its own messages, bench's options and the filters alike.
    for option in ["--runs", "--type"] {
        let run = t.run(&["--bench", option, "\x1b]0;pwn\x07"]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(!run.stderr.contains(['\x1b', '\x07']), "{:?}", run.stderr);
        assert!(run.stderr.contains("\\x1B]0;pwn\\x07"), "{}", run.stderr);
    }
}

/// `-x`/`-X` under bench would time the commands, not the search, and a path after them
/// would go into the command: refused before anything runs.
#[test]
fn commands_to_run_are_refused_and_never_swallow_a_path() {
    let t = tree();
    for args in [
        &["--bench", "-x", "echo", "src"][..],
        &["--bench", "src", "-X", "ls"],
        &["--bench", "--exec=echo", "src"],
        &["--bench", "-r", "1", "--exec-batch", "echo", ";", "src"],
    ] {
        let run = t.run(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}: nothing is timed");
        assert_eq!(
            run.stderr,
            "ffind --bench: -x/--exec and -X/--exec-batch cannot be benchmarked: bench times the \
             search itself, with its output sent to /dev/null\n",
            "{args:?}"
        );
    }
}

/// clap's usage line after an error names `ffind --bench`, not the search command bench passes
/// the options to.
#[test]
fn usage_errors_show_benchs_own_usage() {
    let t = tree();
    for args in [
        &["--bench", "--json", "-l"][..],
        &["--bench", "--frobnicate"],
        &["--bench", "-e", "rs", "--no-such", "src"],
    ] {
        let run = t.run(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}");
        let usage: Vec<&str> = run
            .stderr
            .lines()
            .filter(|l| l.starts_with("Usage:"))
            .collect();
        assert_eq!(
            usage,
            ["Usage: ffind --bench [OPTIONS] [PATH]..."],
            "{args:?}: {}",
            run.stderr
        );
    }
}

/// `ffind bench` searches for "bench", as `fd bench` does: the benchmark is `ffind --bench`,
/// which no search can be mistaken for.
#[test]
fn the_word_bench_is_a_search() {
    let t = Tree::new();
    t.files(&["benches/run.sh", "src/bench_walk.rs", "src/main.rs"]);
    t.run(&["bench"])
        .assert_paths(&["benches/", "src/bench_walk.rs"]);
}

/// `--bench` starts the benchmark only as the first argument; elsewhere it is a usage error
/// that says so, also when options of the benchmark follow it.
#[test]
fn bench_must_come_first() {
    let t = tree();
    for args in [
        &["-H", "--bench"][..],
        &["-u", "--bench", "--runs", "1"],
        &["src", "--bench"],
    ] {
        let run = t.run(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}: nothing searched or timed");
        assert!(
            run.stderr
                .contains("--bench starts the benchmark and must come first"),
            "{args:?}: {}",
            run.stderr
        );
    }
}

/// A usage error about `--bench` itself (a value, or not first) shows the benchmark's usage
/// line, not the search's.
#[test]
fn a_mistaken_bench_shows_the_benchmarks_usage() {
    let t = tree();
    for (args, first) in [
        (&["--bench=x"][..], "error: --bench takes no value"),
        (&["--bench=", "src"], "error: --bench takes no value"),
        (
            &["-H", "--bench"],
            "error: --bench starts the benchmark and must come first",
        ),
    ] {
        let run = t.run(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}");
        assert!(run.stderr.starts_with(first), "{args:?}: {}", run.stderr);
        let usage: Vec<&str> = run
            .stderr
            .lines()
            .filter(|l| l.starts_with("Usage:"))
            .collect();
        assert_eq!(
            usage,
            ["Usage: ffind --bench [OPTIONS] [PATH]..."],
            "{args:?}"
        );
    }
}

/// The help names the benchmark's spelling and suggests no pattern for "bench" (one such as
/// '^bench' would match benches/ too).
#[test]
fn help_points_to_bench_without_a_pattern_hint() {
    let t = Tree::new();
    for flag in ["-h", "--help"] {
        let run = t.run(&[flag]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let help = String::from_utf8(run.stdout).unwrap();
        assert!(help.contains("--bench"), "{flag}: {help}");
        assert!(!help.contains("ffind bench"), "{flag}: {help}");
        assert!(!help.contains("^bench"), "{flag}: {help}");
    }
    let run = t.run(&["--bench", "--help"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let help = String::from_utf8(run.stdout).unwrap();
    assert!(
        help.contains("Usage: ffind --bench [OPTIONS] [PATH]..."),
        "{help}"
    );
}

/// The commands of the results in the JSON export `path`.
fn commands(path: &Path) -> Vec<String> {
    read_json(path)
        .iter()
        .map(|r| r["command"].as_str().unwrap().to_string())
        .collect()
}

/// `ffind --bench` of `methods` at concurrency 2, two runs each, exported as JSON into
/// `json`, with `extra` options.
fn quick(t: &Tree, methods: &str, json: &Path, extra: &[&str]) -> Run {
    let mut args = vec![
        "--bench",
        "--methods",
        methods,
        "--concurrency",
        "2",
        "--runs",
        "2",
        "--warmup",
        "0",
        "--export-json",
        json.to_str().unwrap(),
    ];
    args.extend(extra);
    t.run(&args)
}

#[test]
fn a_cache_from_the_config_file_does_not_apply_to_the_runs() {
    let t = tree();
    t.write("../home/.config/ffind/config", "--cache\n");
    let json = t.home().join("b.json");
    let run = quick(&t, "serial,walkdir", &json, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(out.contains("not its --cache"), "{out}");
    let commands = commands(&json);
    assert_eq!(commands.len(), 2, "{commands:?}");
    assert!(
        commands.iter().all(|c| c.contains("--no-cache")),
        "{commands:?}"
    );
}

#[test]
fn cache_on_the_benchs_command_line_skips_the_methods_that_cannot_take_it() {
    let t = tree();
    let json = t.home().join("b.json");
    let memo = t.home().join("memo");
    let memo = ["--cache", "--cache-dir", memo.to_str().unwrap()];
    let run = quick(&t, "serial,walkdir,queue", &json, &memo);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(out.contains("Skipped: --method walkdir"), "{out}");
    let commands = commands(&json);
    assert_eq!(commands.len(), 2, "{commands:?}");
    assert!(
        commands.iter().all(|c| c.contains("--cache")),
        "{commands:?}"
    );
}

#[test]
fn a_run_that_fails_keeps_what_was_measured() {
    let t = tree();
    let json = t.home().join("b.json");
    // --order breadth needs a method that schedules directories itself: walkdir's runs fail.
    let run = quick(&t, "serial,walkdir,queue", &json, &["--order", "breadth"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("walkdir") && run.stderr.contains("exited with 2"),
        "{}",
        run.stderr
    );
    let commands = commands(&json);
    assert_eq!(commands.len(), 2, "serial and queue exported: {commands:?}");
}
