"""What every suite measures with: the settings, the tools, the results files and the ways to
time a set of commands (hyperfine, interleaved rounds, max RSS). benches/suites.py says what to
measure; this says how, and writes it down.

Commands are shell strings, as a reader would type them (paths quoted with shlex.quote); each
runs once through bash first, to count its lines (like must list like), then under hyperfine
(`-N`: split by hyperfine, no shell) or `--shell=bash` where it is a pipeline.
"""
import os
import platform
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import chart
import interleave
import report

# Ratios to the floor within this band are close enough to the goal (1.15x) that back-to-back
# hyperfine runs, which drift on a VM by 0.9x-1.4x, cannot be trusted: such groups are also
# timed interleaved (BENCH_INTERLEAVE=0 turns that off, =1 interleaves every group).
NEAR_GOAL = (0.8, 1.3)
GOAL = 1.15


def env_int(name, default, minimum=1):
    raw = os.environ.get(name) or str(default)
    if not re.fullmatch(r"[0-9]+", raw) or int(raw) < minimum:
        sys.exit(f"benches/bench.py: {name} must be a number >= {minimum}, not '{raw}'")
    return int(raw)


def say(msg):
    print(f"\n\033[1m== {msg}\033[0m", file=sys.stderr, flush=True)


def die(msg):
    sys.exit(f"benches/bench.py: {msg}")


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def first_line(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True).stdout + "\n"
    return out.splitlines()[0] if out.strip() else "?"


class Bench:
    """One run of the harness: its settings, tools, trees and results files."""

    def __init__(self, repo, sections, trees):
        self.repo = Path(repo)
        self.here = self.repo / "benches"
        self.sections, self.trees = sections, trees
        self.corpora = Path(os.environ.get("FFIND_CORPORA") or Path.home() / ".cache" / "ffind-corpora")
        self.out = Path(os.environ.get("BENCH_RESULTS") or self.here / "results")
        self.stamp = os.environ.get("BENCH_STAMP") or time.strftime("%Y-%m-%d-%H%M")
        self.runs = env_int("BENCH_RUNS", 20)
        self.warmup = env_int("BENCH_WARMUP", 3, minimum=0)
        self.interleave = os.environ.get("BENCH_INTERLEAVE", "near")
        self.summary = self.out / f"{self.stamp}-summary.md"
        self.panels = []  # (title, [(command, ratio, interleaved ratio or None)]) for the chart
        self.entries = {}
        self.load = loadavg()
        self.tmp = None
        self.mnt = None
        self.names = {}  # path -> the short name tables show
        # Conditions that a suite may change for the files it writes.
        self.cache = None
        self.note = None
        self.ffind = self.ffind_mpi = self.mpirun = self.fd = self.floor = self.dfind = self.bfs4 = None
        self.peers = None
        self.mnt_tree = None
        self.unavailable = {}  # suite -> why it could not run here (cold, slow)

    # --- commands ---------------------------------------------------------------------------
    def short(self, text):
        """A command as tables show it: tool names instead of paths, tree names instead of the
        corpora's paths."""
        for path, name in self.names.items():
            text = text.replace(path, name)
        return text

    def name_paths(self):
        """The replacements short() makes, longest first so that ffind-mpi wins over ffind."""
        pairs = [
            (self.ffind_mpi, "ffind-mpi"),
            (self.mpirun, "mpirun"),
            (self.dfind, "dfind"),
            (self.ffind, "ffind"),
            (f"{self.peers}/bin/" if self.peers else None, ""),
            (f"{self.corpora}/", ""),
        ]
        if self.mnt:
            pairs.append((str(self.mnt), f"slowfs-{self.mnt_tree}"))
        self.names = {p: n for p, n in pairs if p}

    def shell(self, cmd, **kw):
        return subprocess.run(["bash", "-c", cmd], **kw)

    def lines_of(self, cmd):
        """Lines the command prints (exit 0 or 1 accepted, as ffind's 1 is "a path could not
        be read")."""
        p = self.shell(cmd, stdout=subprocess.PIPE)
        if p.returncode not in (0, 1):
            die(f"failed: {self.short(cmd)}")
        return p.stdout.count(b"\n")

    def count_entries(self, path):
        """The tree's entries, as `find TREE -mindepth 1` counts them."""
        key = str(path)
        if key not in self.entries:
            p = subprocess.run(["find", key, "-mindepth", "1"], stdout=subprocess.PIPE)
            self.entries[key] = p.stdout.count(b"\n")
        return self.entries[key]

    # --- results files ----------------------------------------------------------------------
    def base(self, label, what):
        return self.out / f"{self.stamp}-{label}-{what}"

    def versions(self):
        rev = first_line(["git", "-C", str(self.repo), "describe", "--always", "--dirty", "--abbrev=10"])
        shown = self.ffind.replace(f"{self.repo}/", "")
        return [
            f"- ffind: `{shown}` (git {rev}; `-dirty` = built from a working tree with uncommitted changes)",
            f"- fd: {first_line([self.fd, '--version'])}; bfs: {first_line(['bfs', '--version'])}"
            + (f" and {first_line([self.bfs4, '--version'])} with io_uring" if self.bfs4 else "") + "; "
            f"{first_line(['find', '.', '-maxdepth', '0', '--version'])}; {first_line(['hyperfine', '--version'])}; "
            "floor: `benches/floor/floor.c` (`-p` prints every path, `-j N` threads)",
        ]

    def machine(self, load_label="load average before the runs", load=None):
        cpu = "?"
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
        return f"{os.cpu_count()} cores (`nproc`), {cpu}, kernel {platform.release()}, {load_label} {load or self.load}"

    def conditions(self, title, label, tree_dir, settings):
        cache = self.cache or "warm cache (listed just before; hyperfine warm-up runs)"
        return report.conditions(
            title, label, self.count_entries(tree_dir), cache, self.machine(), self.versions(),
            settings, self.note, time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        )

    def write(self, base, markdown):
        Path(f"{base}.md").write_text(markdown)

    def section_summary(self, title, body):
        with open(self.summary, "a") as f:
            f.write(f"### {title}\n\n{body}\n\n")

    # --- timing -------------------------------------------------------------------------------
    def hyperfine(self, args, what):
        say_args = [self.short(a) for a in args]
        if subprocess.run(["hyperfine", *args]).returncode:
            die(f"hyperfine failed for {what}: {' '.join(say_args)}")

    def group(self, what, label, tree_dir, ref, opts, cmds, interleave_mode=None, note=None):
        """One hyperfine comparison, written to <stamp>-LABEL-WHAT.{json,md}: hyperfine's
        table, then medians with the ratio to REF (a short command name: the floor) and each
        command's line count; an SVG of the ratios beside it. Interleaved as well when a ratio
        is near the goal (NEAR_GOAL) and the commands need no shell."""
        base = self.base(label, what)
        table_md = self.tmp / "table.md"
        args = ["--warmup", str(self.warmup), "--runs", str(self.runs), *opts,
                "--export-json", f"{base}.json", "--export-markdown", str(table_md)]
        say(f"{label}: {what} ({len(cmds)} commands, {self.runs} runs each)")
        self.load = loadavg()
        outer_note = self.note
        if note:  # for this group's file only
            self.note = f"{outer_note}; {note}" if outer_note else note
        lines = {}
        for c in cmds:
            name = self.short(c)
            args += ["-n", name, c]
            if "|" not in c:
                lines[name] = self.lines_of(c)
        self.hyperfine(args, f"{label} {what}")
        settings = f"hyperfine `{' '.join(opts)} --warmup {self.warmup} --runs {self.runs}`"
        ratios = report.table(f"{base}.json", ref=ref or None, lines=lines)
        md = self.conditions(f"ffind vs peers: {label}, {what}", label, tree_dir, settings)
        self.note = outer_note
        md += "## hyperfine\n\n" + report.escape(table_md.read_text()) + "\n\n"
        md += "## Medians and ratios to the floor\n\n"
        if ref.startswith("floor"):
            md += f"![ratios to `{ref}`]({base.name}.svg)\n\n"
        base.with_suffix(".md").write_text(md + ratios + "\n")
        self.section_summary(f"{label}: {what}", ratios)
        if ref.startswith("floor"):
            self.chart_group(what, label, tree_dir, ref, opts, cmds, interleave_mode)

    def chart_group(self, what, label, tree_dir, ref, opts, cmds, interleave_mode):
        """The group's ratios to REF as an SVG beside its markdown (and a panel of the summary's
        chart), after interleaved rounds when a ratio is near the goal."""
        base = self.base(label, what)
        ref_median = report.median_of(f"{base}.json", ref)
        if not ref_median:
            return
        rows = [(r["command"], r["median"] / ref_median) for r in report.load(f"{base}.json")]
        interleaved = {}
        shell_free = "--shell=bash" not in opts and not any("|" in c or "(" in c for c in cmds)
        near = ref.startswith("floor") and any(
            NEAR_GOAL[0] <= x <= NEAR_GOAL[1] for c, x in rows if c.startswith("ffind"))
        mode = interleave_mode or self.interleave
        if shell_free and (mode == "1" or (mode == "near" and near)):
            order = [c for c in cmds if self.short(c) != ref] + [c for c in cmds if self.short(c) == ref]
            pipe = "--output=pipe" in opts
            text = self.interleaved(f"{what}-interleaved", label, tree_dir, order, pipe=pipe,
                                    why=f"ratios near the goal ({GOAL}x the floor) in hyperfine's runs")
            interleaved = report.interleaved_ratios(text)
        panel = (f"{label}: {what}", [(c, x, interleaved.get(c)) for c, x in rows])
        self.panels.append(panel)
        (base.parent / f"{base.name}.svg").write_text(chart.svg([panel], ref_label=ref, goal=GOAL))

    def interleaved(self, what, label, tree_dir, cmds, pipe=False, why=None):
        """The commands interleaved (interleave.py), the last one the reference; written to
        <stamp>-LABEL-WHAT.md and printed. Returns interleave.py's text (short names)."""
        base = self.base(label, what)
        say(f"{label}: {what} ({len(cmds)} commands, {self.runs} rounds)")
        self.load = loadavg()
        try:
            times = interleave.measure(cmds, self.runs, self.warmup, pipe=pipe)
        except RuntimeError as e:
            die(f"interleave failed for {label}: {self.short(str(e))}")
        text = interleave.text(cmds, times, names=[self.short(c) for c in cmds])
        settings = (f"benches/interleave.py{' --pipe' if pipe else ''}: {self.runs} rounds after {self.warmup}, "
                    "each running every command once in a new random order; ratios to the floor (last)")
        if why:
            settings += f"; interleaved because of {why}"
        md = self.conditions(f"ffind vs peers: {label}, {what.replace('-', ' ')}", label, tree_dir, settings)
        md += "```\n" + text + "\n```\n"
        base.with_suffix(".md").write_text(md)
        print(md)
        return text

    def rss(self, cmd):
        """Max RSS (KiB) of one run, output to /dev/null, by GNU time."""
        out = self.tmp / "rss"
        p = self.shell(f"/usr/bin/time -f %M -o {shlex.quote(str(out))} {cmd}", stdout=subprocess.DEVNULL)
        if p.returncode not in (0, 1):
            die(f"failed: {self.short(cmd)}")
        return int(out.read_text().split()[-1])

    def rss_rows(self, cmds):
        """A row per command: its name, line count and max RSS in three runs to /dev/null."""
        rows = []
        for c in cmds:
            kib = [self.rss(c) for _ in range(3)]
            rows.append((f"{self.short(c)} > /dev/null", self.lines_of(c), kib))
        return rows

    def rss_sleeping_rows(self, cmds, sleep):
        """A max-RSS row per command into a reader that sleeps first: memory must stay bounded
        when stdout is slow."""
        rows = []
        out = self.tmp / "rss"
        for c in cmds:
            name = self.short(c)
            print(f"  {name} | (sleep {sleep}; wc -l)", file=sys.stderr)
            p = self.shell(f"/usr/bin/time -f %M -o {shlex.quote(str(out))} {c} | (sleep {sleep} && wc -l)",
                           stdout=subprocess.PIPE, text=True)
            if p.returncode:
                die(f"failed: {name}")
            rows.append((f"{name} | (sleep {sleep}; wc -l)", int(p.stdout.split()[0]),
                         [int(out.read_text().split()[-1])]))
        return rows
