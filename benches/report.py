#!/usr/bin/env python3
"""Markdown tables from hyperfine's JSON exports, for benches/run.sh.

  report.py table RESULT.json [--ref NAME] [--ref-json FILE] [--lines FILE]
      medians, ratio to the reference command (the floor) and lines printed per command
  report.py pivot RESULT.json [--ref NAME] [--ref-json FILE]
      a parameter sweep (hyperfine -L A ... -L B ...): one row per value of A, one column
      per value of B, median and ratio to the reference in each cell
  report.py memory TSV JSON
      the memory section's "name<TAB>lines<TAB>kib..." rows: writes JSON, prints a table
  report.py escape TABLE.md
      hyperfine's markdown export with the | inside command names escaped for GFM tables

Medians, not means: on a shared, noisy machine a few slow runs drag the mean, the median is
what BENCH.md asks to quote.
"""
import argparse
import json
import re
import statistics
import sys

# A | that does not split a table cell yet (hyperfine's own export already writes \|).
UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def load(path):
    with open(path) as f:
        return json.load(f)["results"]


def reference(args, results):
    """The median (s) of the reference command, from this file or --ref-json, or None."""
    if not args.ref:
        return None
    pool = load(args.ref_json) if args.ref_json else results
    for r in pool:
        if r["command"] == args.ref:
            return r["median"]
    return None


def code(text):
    """A markdown code span that survives inside a table cell (GFM splits cells on any |)."""
    return "`" + UNESCAPED_PIPE.sub(r"\\|", text) + "`"


def ms(seconds):
    return f"{seconds * 1000:.1f}"


def ratio(value, ref):
    return f"{value / ref:.2f}" if ref else "–"


def table(args):
    results = load(args.json)
    ref = reference(args, results)
    lines = {}
    if args.lines:
        with open(args.lines) as f:
            for row in f:
                name, _, count = row.rstrip("\n").rpartition("\t")
                lines[name] = count
    ref_label = f"vs {code(args.ref)}" if args.ref else "vs floor"
    print(f"| Command | Median [ms] | Mean ± σ [ms] | Min [ms] | Max [ms] | {ref_label} | Lines |")
    print("|:---|---:|---:|---:|---:|---:|---:|")
    for r in results:
        print(
            f"| {code(r['command'])} | {ms(r['median'])} | {ms(r['mean'])} ± {ms(r['stddev'] or 0)} "
            f"| {ms(r['min'])} | {ms(r['max'])} | {ratio(r['median'], ref)} "
            f"| {lines.get(r['command'], '')} |"
        )


def pivot(args):
    results = load(args.json)
    ref = reference(args, results)
    names = list(results[0].get("parameters") or {})
    if len(names) != 2:
        sys.exit("report.py pivot: expects a scan over exactly two parameters")
    rows, cols = names
    row_values = list(dict.fromkeys(r["parameters"][rows] for r in results))
    col_values = list(dict.fromkeys(r["parameters"][cols] for r in results))
    cell = {(r["parameters"][rows], r["parameters"][cols]): r["median"] for r in results}
    suffix = f" (median ms, × {code(args.ref)})" if ref else " (median ms)"
    print(f"| {rows} | " + " | ".join(f"{cols}={c}{suffix}" for c in col_values) + " |")
    print("|---:|" + "---:|" * len(col_values))
    for rv in row_values:
        cells = []
        for cv in col_values:
            m = cell.get((rv, cv))
            if m is None:
                cells.append("")
            elif ref:
                cells.append(f"{ms(m)} ({ratio(m, ref)})")
            else:
                cells.append(ms(m))
        print(f"| {rv} | " + " | ".join(cells) + " |")


def memory(args):
    rows = []
    with open(args.tsv) as f:
        for line in f:
            name, lines, *kib = line.rstrip("\n").split("\t")
            kib = [int(k) for k in kib]
            rows.append({"command": name, "lines": int(lines), "max_rss_kib": kib})
    with open(args.json, "w") as f:
        json.dump({"results": rows}, f, indent=2)
    print("| Command | Max RSS, median [MiB] | Max RSS, worst [MiB] | Runs | Lines |")
    print("|:---|---:|---:|---:|---:|")
    for r in rows:
        kib = r["max_rss_kib"]
        print(
            f"| {code(r['command'])} | {statistics.median(kib) / 1024:.1f} | {max(kib) / 1024:.1f} "
            f"| {len(kib)} | {r['lines']} |"
        )


def escape(args):
    """hyperfine's markdown export, with any | left unescaped inside its code spans escaped."""
    with open(args.md) as f:
        for line in f:
            parts = line.rstrip("\n").split("`")
            print("`".join(UNESCAPED_PIPE.sub(r"\\|", p) if i % 2 else p for i, p in enumerate(parts)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    for name in ("table", "pivot"):
        p = sub.add_parser(name)
        p.add_argument("json")
        p.add_argument("--ref", help="name of the reference command (the floor)")
        p.add_argument("--ref-json", help="take the reference from this export instead")
        if name == "table":
            p.add_argument("--lines", help="TSV: command name, lines it printed")
    p = sub.add_parser("memory")
    p.add_argument("tsv")
    p.add_argument("json")
    p = sub.add_parser("escape")
    p.add_argument("md")
    args = parser.parse_args()
    {"table": table, "pivot": pivot, "memory": memory, "escape": escape}[args.what](args)


if __name__ == "__main__":
    main()
