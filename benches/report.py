"""Markdown from measurements: hyperfine's JSON exports as tables, max-RSS rows, the conditions
every results file opens with. Pure formatting: nothing here runs a command.

Medians, not means: on a shared, noisy machine a few slow runs drag the mean, the median is what
benches/README.md asks to quote.
"""
import json
import re
import statistics

# A | that does not split a table cell yet (hyperfine's own export already writes \|).
UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def load(path):
    with open(path) as f:
        return json.load(f)["results"]


def median_of(path, command):
    """The median (s) of `command` in a hyperfine export, or None."""
    for r in load(path):
        if r["command"] == command:
            return r["median"]
    return None


def code(text):
    """A markdown code span that survives inside a table cell (GFM splits cells on any |)."""
    return "`" + UNESCAPED_PIPE.sub(r"\\|", text) + "`"


def ms(seconds):
    return f"{seconds * 1000:.1f}"


def ratio(value, ref):
    return f"{value / ref:.2f}" if ref else "–"


def table(json_path, ref=None, ref_json=None, lines=None):
    """Medians, the ratio to the reference command `ref` (from this export or `ref_json`) and
    the lines each command printed."""
    results = load(json_path)
    ref_median = median_of(ref_json or json_path, ref) if ref else None
    lines = lines or {}
    ref_label = f"vs {code(ref)}" if ref else "vs floor"
    out = [
        f"| Command | Median [ms] | Mean ± σ [ms] | Min [ms] | Max [ms] | {ref_label} | Lines |",
        "|:---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        out.append(
            f"| {code(r['command'])} | {ms(r['median'])} | {ms(r['mean'])} ± {ms(r['stddev'] or 0)} "
            f"| {ms(r['min'])} | {ms(r['max'])} | {ratio(r['median'], ref_median)} "
            f"| {lines.get(r['command'], '')} |"
        )
    return "\n".join(out)


def pivot(json_path, ref=None, ref_json=None):
    """A sweep over two parameters (hyperfine -L A ... -L B ...): a row per value of A, a column
    per value of B, each cell the median and its ratio to the reference."""
    results = load(json_path)
    ref_median = median_of(ref_json or json_path, ref) if ref else None
    names = list(results[0].get("parameters") or {})
    if len(names) != 2:
        raise ValueError("pivot: expects a scan over exactly two parameters")
    rows, cols = names
    row_values = list(dict.fromkeys(r["parameters"][rows] for r in results))
    col_values = list(dict.fromkeys(r["parameters"][cols] for r in results))
    cell = {(r["parameters"][rows], r["parameters"][cols]): r["median"] for r in results}
    suffix = f" (median ms, × {code(ref)})" if ref_median else " (median ms)"
    out = [
        f"| {rows} | " + " | ".join(f"{cols}={c}{suffix}" for c in col_values) + " |",
        "|---:|" + "---:|" * len(col_values),
    ]
    for rv in row_values:
        cells = []
        for cv in col_values:
            m = cell.get((rv, cv))
            if m is None:
                cells.append("")
            elif ref_median:
                cells.append(f"{ms(m)} ({ratio(m, ref_median)})")
            else:
                cells.append(ms(m))
        out.append(f"| {rv} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def memory(rows, json_path):
    """Max-RSS rows [(command, lines, [KiB, ...])]: writes them as JSON, returns the table."""
    results = [{"command": c, "lines": int(n), "max_rss_kib": [int(k) for k in kib]} for c, n, kib in rows]
    with open(json_path, "w") as f:
        json.dump({"results": results}, f, indent=2)
    out = [
        "| Command | Max RSS, median [MiB] | Max RSS, worst [MiB] | Runs | Lines |",
        "|:---|---:|---:|---:|---:|",
    ]
    for r in results:
        kib = r["max_rss_kib"]
        out.append(
            f"| {code(r['command'])} | {statistics.median(kib) / 1024:.1f} | {max(kib) / 1024:.1f} "
            f"| {len(kib)} | {r['lines']} |"
        )
    return "\n".join(out)


def escape(markdown):
    """hyperfine's markdown export, with any | left unescaped inside its code spans escaped."""
    out = []
    for line in markdown.splitlines():
        parts = line.split("`")
        out.append("`".join(UNESCAPED_PIPE.sub(r"\\|", p) if i % 2 else p for i, p in enumerate(parts)))
    return "\n".join(out)


def conditions(title, tree, entries, cache, machine, versions, settings, note, date):
    """The header of every results file: what was measured, where, with what."""
    out = [
        f"# {title}",
        "",
        f"- Tree: `{tree}` ({entries} entries below the root), {cache}",
        f"- Machine: {machine}",
        *versions,
        f"- {settings}",
    ]
    if note:
        out.append(f"- {note}")
    out.append(
        f"- Date: {date}. The machine is shared (other builds may run at the same time): compare "
        "ratios within one table, not absolute times across tables."
    )
    return "\n".join(out) + "\n\n"


def interleaved_ratios(text):
    """{command: ratio to the last command} from interleave.py's lines."""
    got = {}
    for line in text.splitlines():
        m = re.match(r"\s*[\d.]+ ms \(([\d.]+)\)\s+min\s+[\d.]+ \([\d.]+\)(?:\s+cpu\s+[\d.]+ ms)?  (.*)$", line)
        if m:
            got[m.group(2)] = float(m.group(1))
    return got
