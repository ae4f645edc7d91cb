"""The suites: what is compared with what, on which tree. Each is a function of the Bench (see
harness.py, which times and writes) and, for the per-tree ones, a tree's label and directory.
benches/README.md has the table of what each measures. The MPI suite is in suites_mpi.py.
"""
import os
import shlex
import subprocess
import tempfile
from pathlib import Path

import report
import stream
from harness import die, env_int, loadavg, say

READER_SLEEP = env_int("BENCH_READER_SLEEP", 5, minimum=0)
SWEEP = os.environ.get("BENCH_SWEEP") or "1,2,4,8,16,32,64,128,256,512,1024"
CRATES_J = os.environ.get("BENCH_CRATES_J") or "2,8,64"
COLD_RUNS = env_int("BENCH_COLD_RUNS", 5)
COLD_SWEEP = os.environ.get("BENCH_COLD_SWEEP") or "1,2,4,8,16,32,64,128,256"
LOWFD = env_int("BENCH_LOWFD", 64)
SLOW_TREE = os.environ.get("BENCH_SLOW_TREE") or "linux"
SLOW_DELAY = os.environ.get("BENCH_SLOW_DELAY_US") or "1000"
SLOW_RUNS = env_int("BENCH_SLOW_RUNS", 3)
SLOW_WARMUP = env_int("BENCH_SLOW_WARMUP", 0, minimum=0)
SLOW_SWEEP = os.environ.get("BENCH_SLOW_SWEEP", "2,4,8,16,32,64,128,256,512,1024")


q = shlex.quote


def bfs(b, d):
    """Debian's bfs on `d`, and bfs 4 with io_uring where it was built (`peers.py bfs4`)."""
    return [f"bfs {d}"] + ([f"{q(b.bfs4)} {d}"] if b.bfs4 else [])


def methods(b, without=None):
    """The methods, from ffind's own table (`ffind --list-methods`, src/walk/methods.rs): all,
    or those without a capability (`own-reader`: the walker-crate methods)."""
    out = subprocess.run([b.ffind, "--list-methods"], capture_output=True, text=True, check=True).stdout
    rows = [line.split("\t") for line in out.splitlines() if not line.startswith("auto\t")]
    return [r[0] for r in rows if without is None or without not in r[1:]]


def warm(path):
    subprocess.run(["find", str(path)], stdout=subprocess.DEVNULL)


# --- every entry, per tree ------------------------------------------------------------------
def side(b, label, tree):
    d = q(str(tree))
    cmds = [f"{b.ffind} -u . {d}"] + [f"{b.ffind} -u --method {m} . {d}" for m in methods(b)]
    cmds += [f"{b.fd} -u . {d}", *bfs(b, d), f"find {d}", f"{b.floor} -p -j2 {d}"]
    b.group("null", label, tree, f"floor -p -j2 {label}", ["-N"], cmds)
    b.group("pipe", label, tree, f"floor -p -j2 {label}", ["-N", "--output=pipe"], cmds)


def j1(b, label, tree):
    d = q(str(tree))
    b.group("j1", label, tree, f"floor -p -j1 {label}", ["-N"], [
        f"{b.ffind} -j1 -u . {d}", f"{b.ffind} -u --method serial . {d}", f"{b.fd} -j1 -u . {d}",
        f"find {d}", f"{b.floor} -p -j1 {d}"])


def first(b, label, tree):
    d = q(str(tree))
    # A pipeline needs a shell: hyperfine measures bash's own start-up and subtracts it.
    note = ("Time until `head -1` has its line and every process in the pipeline has exited (the lister "
            "exits on the broken pipe at its next write). hyperfine subtracts bash's start-up, which it "
            "cannot calibrate below ~5 ms: read small numbers as \"a few ms\". floor writes through "
            "stdio's 4 KiB buffer, so it is a reference here, not a bound")
    cmds = [f"{b.ffind} -u . {d}", f"{b.fd} -u . {d}", *bfs(b, d), f"find {d}", f"{b.floor} -p -j2 {d}"]
    b.group("first", label, tree, f"floor -p -j2 {label} | head -1", ["--shell=bash"],
            [f"{c} | head -1" for c in cmds], note=note)


def memory(b, label, tree):
    d = q(str(tree))
    cmds = [f"{b.ffind} -u . {d}"] + [f"{b.ffind} -u --method {m} . {d}" for m in methods(b)]
    cmds += [f"{b.fd} -u . {d}", *bfs(b, d), f"{b.floor} -p -j2 {d}"]
    b.load = loadavg()
    say(f"{label}: memory (max RSS, 3 runs to /dev/null, 1 with a reader that sleeps {READER_SLEEP}s)")
    rows = b.rss_rows(cmds) + b.rss_sleeping_rows(cmds, READER_SLEEP)
    base = b.base(label, "memory")
    table = report.memory(rows, f"{base}.json")
    b.write(base, b.conditions(f"ffind vs peers: {label}, memory", label, tree,
                               "GNU time `/usr/bin/time -f %M` (maximum resident set size of the listed command "
                               f"only); output to /dev/null (3 runs), then into a pipe whose reader sleeps "
                               f"{READER_SLEEP}s before reading (1 run): memory must stay bounded when stdout is slow")
            + table + "\n")
    b.section_summary(f"{label}: memory", table)


def floor_ref(b, label, tree):
    """A hyperfine export holding `floor -p -j2 LABEL`: this run's side export if there is one,
    else a short run of its own."""
    side_json = Path(f"{b.base(label, 'null')}.json")
    if side_json.exists():
        return side_json
    own = Path(f"{b.base(label, 'floor')}.json")
    if not own.exists():
        b.hyperfine(["-N", "--warmup", str(b.warmup), "--runs", str(b.runs), "--export-json", str(own),
                     "-n", f"floor -p -j2 {label}", f"{b.floor} -p -j2 {q(str(tree))}"], f"{label} floor")
    return own


def run_sweep(b, label, tree, levels, ref, ref_json, title):
    """One --concurrency sweep of queue and rayon, with its table of medians against REF."""
    d = q(str(tree))
    base = b.base(label, "sweep")
    say(f"{label}: sweep (--concurrency {levels}, queue and rayon, {b.runs} runs each)")
    b.load = loadavg()
    table_md = b.tmp / "table.md"
    b.hyperfine(["-N", "--warmup", str(b.warmup), "--runs", str(b.runs), "-L", "j", levels,
                 "-L", "method", "queue,rayon", "--export-json", f"{base}.json", "--export-markdown", str(table_md),
                 "-n", f"ffind -u --method {{method}} -j {{j}} . {label}",
                 f"{b.ffind} -u --method {{method}} -j {{j}} . {d}"], f"{label} sweep")
    pivot = report.pivot(f"{base}.json", ref=ref, ref_json=ref_json)
    b.write(base, b.conditions(title, label, tree,
                               f"hyperfine `-N --warmup {b.warmup} --runs {b.runs} -L j {levels} -L method queue,rayon`; "
                               f"ratios against `{ref}` from {Path(ref_json).name}")
            + f"## Medians (ms) and ratio to `{ref}`\n\n{pivot}\n\n## hyperfine\n\n"
            + report.escape(table_md.read_text()) + "\n")
    b.section_summary(f"{label}: concurrency sweep", pivot)


def sweep(b, label, tree):
    run_sweep(b, label, tree, SWEEP, f"floor -p -j2 {label}", floor_ref(b, label, tree),
              f"ffind concurrency sweep: {label}")


def crates(b, label, tree):
    """The walker-crate methods at each of CRATES_J: medians against the floor, and max RSS
    (their check that what a crate lists is beneath the root once listed a directory once per
    thread)."""
    d = q(str(tree))
    ref_json = floor_ref(b, label, tree)
    base = b.base(label, "crates")
    crate_methods = ",".join(methods(b, without="own-reader"))
    say(f"{label}: crates (--concurrency {CRATES_J}, {crate_methods}, {b.runs} runs each)")
    b.load = loadavg()
    table_md = b.tmp / "table.md"
    b.hyperfine(["-N", "--warmup", str(b.warmup), "--runs", str(b.runs), "-L", "j", CRATES_J,
                 "-L", "method", crate_methods, "--export-json", f"{base}.json",
                 "--export-markdown", str(table_md), "-n", f"ffind -u --method {{method}} -j {{j}} . {label}",
                 f"{b.ffind} -u --method {{method}} -j {{j}} . {d}"], f"{label} crates")
    cmds = [f"{b.ffind} -u --method {m} -j {j} . {d}" for m in crate_methods.split(",")
            for j in CRATES_J.split(",")]
    ref = f"floor -p -j2 {label}"
    pivot = report.pivot(f"{base}.json", ref=ref, ref_json=ref_json)
    table = report.memory(b.rss_rows(cmds), f"{base}-memory.json")
    b.write(base, b.conditions(f"walker-crate methods: {label}", label, tree,
                               f"hyperfine `-N --warmup {b.warmup} --runs {b.runs} -L j {CRATES_J} -L method "
                               f"{crate_methods}`; ratios against `{ref}` from {ref_json.name}; max RSS by "
                               "GNU time `/usr/bin/time -f %M`, 3 runs to /dev/null")
            + f"## Medians (ms) and ratio to `{ref}`\n\n{pivot}\n\n## Max RSS\n\n{table}\n\n## hyperfine\n\n"
            + report.escape(table_md.read_text()) + "\n")
    b.section_summary(f"{label}: walker-crate methods", f"{pivot}\n\n{table}")


def sort_cost(b, label, tree):
    """--sort holds every result until the walk ends: its time and memory against the
    streaming listing (the ratio column is to plain `ffind -u`)."""
    d = q(str(tree))
    cmds = [f"{b.ffind} -u . {d}", f"{b.ffind} -u --sort path . {d}", f"{b.ffind} -u --sort depth . {d}"]
    b.group("sort", label, tree, f"ffind -u . {label}", ["-N"], cmds)
    rows = "".join(f"- `{b.short(c)}`: max RSS {b.rss(c)} KiB\n" for c in cmds)
    with open(f"{b.base(label, 'sort')}.md", "a") as f:
        f.write(rows)
    b.section_summary(f"{label}: --sort memory", rows.rstrip("\n"))


def order_cost(b, label, tree, cmds):
    """--order breadth against the default order, bfs (breadth first) and fd: how soon the 1st,
    50th (fzf's first screenful) and 1,000th lines reach a reader and when the output ends
    (stream.py, interleaved), then max RSS to /dev/null and into a reader that sleeps."""
    base = b.base(label, "order")
    warm(tree)
    say(f"{label}: order (stream.py, {b.runs} rounds after {b.warmup}; then max RSS)")
    b.load = loadavg()
    try:
        table = b.short(stream.table(cmds, b.runs, b.warmup))
    except RuntimeError as e:
        die(f"stream.py failed for {label}: {b.short(str(e))}")
    mem = report.memory(b.rss_rows(cmds) + b.rss_sleeping_rows(cmds, READER_SLEEP), f"{base}-memory.json")
    b.write(base, b.conditions(f"--order breadth against depth, bfs and fd: {label}", label, tree,
                               f"benches/stream.py: {b.runs} rounds after {b.warmup}, every command once per round in a "
                               "new random order, its output read as fast as it comes; medians of the time until the "
                               "1st, 50th and 1,000th line reached the reader and until the output ended (each "
                               "includes ~1 ms of process start). Max RSS: GNU time `/usr/bin/time -f %M`, 3 runs to "
                               f"/dev/null, then 1 into a reader that sleeps {READER_SLEEP}s")
            + f"## Time to the Nth result\n\n{table}\n\n## Max RSS\n\n{mem}\n")
    b.section_summary(f"{label}: --order breadth", f"{table}\n\n{mem}")


def order_trees(b, label, tree):
    d = q(str(tree))
    order_cost(b, label, tree, [
        f"{b.ffind} -u . {d}", f"{b.ffind} -u --order breadth . {d}",
        f"{b.ffind} -u --order breadth --method serial . {d}", f"{b.ffind} -u --order breadth --method rayon . {d}",
        *bfs(b, d), f"{b.fd} -u . {d}"])


PER_TREE = {"side": side, "j1": j1, "first": first, "memory": memory, "sweep": sweep, "crates": crates,
            "sort": sort_cost, "order": order_trees}


# --- trees of their own ---------------------------------------------------------------------
def order_filtered(b):
    """The default filtering, where fzf users search: the monorepo's .gitignore files, and the
    million entries of one directory (its own .gitignore read first)."""
    for label in ("monorepo", "million"):
        tree = b.corpora / label
        d = q(str(tree))
        order_cost(b, label, tree, [
            f"{b.ffind} . {d}", f"{b.ffind} --order breadth . {d}", f"{b.ffind} -u . {d}",
            f"{b.ffind} -u --order breadth . {d}", *bfs(b, d), f"{b.fd} . {d}"])


def git_default(b):
    """Default filtering in git repositories: linux-git's 358 .gitignore files, the monorepo's
    1,001 small ones in a deeper chain. hyperfine, then the same commands interleaved (the table
    in docs/PERFORMANCE.md): the ratios back-to-back runs give move by more than the gaps."""
    for label, pat in (("linux-git", r"'\.c$'"), ("monorepo", r"'\.tsx?$'")):
        tree = b.corpora / label
        d = q(str(tree))
        warm(tree)
        cmds = [f"{b.ffind} . {d}", f"{b.fd} . {d}", f"{b.ffind} {pat} {d}", f"{b.fd} {pat} {d}",
                f"{b.ffind} -u . {d}", f"{b.floor} -p -j2 {d}"]
        ref = f"floor -p -j2 {label}"
        b.group("default-null", label, tree, ref, ["-N"], cmds, interleave_mode="0")
        b.group("default-pipe", label, tree, ref, ["-N", "--output=pipe"], cmds, interleave_mode="0")
        b.interleaved("default-interleaved", label, tree, cmds)


def huge(b):
    """One directory of a million entries, with its own .gitignore, under the default
    filtering: the first line must not wait for the whole listing, nor memory hold it."""
    label, tree = "million", b.corpora / "million"
    d = q(str(tree))
    warm(tree)
    note = (f"One directory (wide/) of {b.count_entries(tree / 'wide')} entries and its own .gitignore (`*7`), "
            "in a git repository. Time until `head -1` has its line and the pipeline has exited; hyperfine "
            "subtracts bash's start-up")
    listers = [f"{b.ffind} . {d}", f"{b.ffind} -u . {d}", f"{b.fd} . {d}", f"{b.fd} -u . {d}", f"bfs {d}"]
    b.group("first", label, tree, f"ffind -u . {label} | head -1", ["--shell=bash"],
            [f"{c} | head -1" for c in listers], note=note)
    base = b.base(label, "memory")
    b.load = loadavg()
    say(f"{label}: memory (max RSS, to /dev/null)")
    table = report.memory(b.rss_rows(listers), f"{base}.json")
    b.write(base, b.conditions(f"ffind vs peers: {label}, memory", label, tree,
                               "GNU time `/usr/bin/time -f %M` (maximum resident set size), output to /dev/null, 3 runs")
            + table + "\n")
    b.section_summary(f"{label}: memory", table)


def cold(b):
    """Cold cache: every run after `echo 3 > /proc/sys/vm/drop_caches`; says so and skips where
    that is not allowed."""
    drop = "sync; echo 3 > /proc/sys/vm/drop_caches"
    if subprocess.run(["bash", "-c", "sync && echo 3 >/proc/sys/vm/drop_caches"], stderr=subprocess.DEVNULL).returncode:
        b.unavailable["cold"] = "cannot write /proc/sys/vm/drop_caches here (needs root outside a container)"
        say(f"cold: skipped: {b.unavailable['cold']}")
        return
    runs, warmup = b.runs, b.warmup
    b.runs, b.warmup = COLD_RUNS, 0
    b.cache = f"cold cache: `{drop}` before every run (hyperfine --prepare)"
    for label in ("linux", "linux-git"):
        tree = b.corpora / label
        d = q(str(tree))
        if label == "linux":
            cmds = [f"{b.ffind} -u . {d}", f"{b.ffind} -u -j8 . {d}", f"{b.ffind} -u -j64 . {d}", f"{b.fd} -u . {d}",
                    f"{b.fd} -u -j64 . {d}", f"bfs {d}", f"{b.floor} -p -j2 {d}", f"{b.floor} -p -j64 {d}"]
        else:
            cmds = [f"{b.ffind} . {d}", f"{b.ffind} -j8 . {d}", f"{b.ffind} -j64 . {d}", f"{b.fd} . {d}",
                    f"{b.floor} -p -j2 {d}"]
        # -N runs --prepare without a shell too.
        b.group("cold", label, tree, f"floor -p -j2 {label}", ["-N", "--prepare", f"bash -c '{drop}'"], cmds,
                interleave_mode="0")
    # The sweep behind `auto`'s growth when reads block.
    label, tree = "linux", b.corpora / "linux"
    base = b.base(label, "cold-sweep")
    say(f"{label}: cold sweep (--concurrency {COLD_SWEEP}, {b.runs} runs each)")
    b.load = loadavg()
    table_md = b.tmp / "table.md"
    b.hyperfine(["-N", "--runs", str(b.runs), "--prepare", f"bash -c '{drop}'", "-L", "j", COLD_SWEEP,
                 "--export-json", f"{base}.json", "--export-markdown", str(table_md),
                 "-n", f"ffind -u -j {{j}} . {label}", f"{b.ffind} -u -j {{j}} . {q(str(tree))}"], "the cold sweep")
    table = report.escape(table_md.read_text())
    b.write(base, b.conditions(f"ffind concurrency sweep, cold cache: {label}", label, tree,
                               f"hyperfine `-N --runs {b.runs} --prepare '{drop}' -L j {COLD_SWEEP}`") + table + "\n")
    b.section_summary(f"{label}: cold sweep", table)
    b.runs, b.warmup, b.cache = runs, warmup, None


def deep_lowfd(b):
    """The 3,000-level tree (paths far past PATH_MAX) under a low descriptor limit, where not
    every parent can stay open: each directory must still cost a few opens, not one per level
    above it. `ulimit -n` sets the soft and the hard limit, in a subshell."""
    label, tree = "deep", b.corpora / "deep"
    d = q(str(tree))
    warm(tree)
    lim = f"(ulimit -n {LOWFD} && exec"
    note = (f"`ulimit -n {LOWFD}` (soft and hard) in a subshell for the commands that say so, ulimit -n 16 for "
            "one; fd stops at PATH_MAX (its line count); hyperfine subtracts bash's start-up")
    b.group("lowfd", label, tree, "ffind -u . deep", ["--shell=bash"], [
        f"{b.ffind} -u . {d}", f"{lim} {b.ffind} -u . {d})", f"{lim} {b.ffind} -u --method serial . {d})",
        f"{lim} {b.ffind} -u --method queue . {d})", f"{lim} {b.ffind} -u --method rayon . {d})",
        f"(ulimit -n 16 && exec {b.ffind} -u . {d})", f"{b.fd} -u . {d}", f"{lim} {b.fd} -u . {d})",
        f"bfs {d}", f"{lim} bfs {d})"], note=note)


# --- a slow file system ---------------------------------------------------------------------
def slowfs(b, what, *args):
    return subprocess.run(["bash", str(b.here / "slowfs.sh"), what, *map(str, args)], capture_output=True, text=True)


def mount_slowfs(b):
    """Mounts SLOW_TREE through slowfs; returns the mount point, or None with the reason in
    b.unavailable['slow']."""
    check = slowfs(b, "check")
    if check.returncode:
        b.unavailable["slow"] = (check.stdout + check.stderr).strip()
        return None
    mnt = Path(tempfile.mkdtemp(prefix="ffind-slowfs.", dir="/tmp"))
    say(f"slow: mounting {SLOW_TREE} through slowfs, {SLOW_DELAY} µs per operation, at {mnt}")
    mount = slowfs(b, "mount", b.corpora / SLOW_TREE, mnt, SLOW_DELAY)
    if mount.returncode:
        b.unavailable["slow"] = (mount.stdout + mount.stderr).strip()
        mnt.rmdir()
        return None
    b.mnt, b.mnt_tree = mnt, SLOW_TREE
    b.name_paths()
    b.entries[str(mnt)] = b.count_entries(b.corpora / SLOW_TREE)
    return mnt


def unmount_slowfs(b):
    if b.mnt:
        slowfs(b, "umount", b.mnt)
        b.mnt.rmdir()
        b.mnt = None
        b.name_paths()


def slow(b):
    mnt = mount_slowfs(b)
    if not mnt:
        return
    label, d = f"slowfs-{SLOW_TREE}", q(str(mnt))
    runs, warmup = b.runs, b.warmup
    b.runs, b.warmup = SLOW_RUNS, SLOW_WARMUP
    b.cache = "source tree in the page cache, nothing cached by the FUSE layer"
    b.note = (f"Slow file system: slowfs (benches/slowfs.sh), a FUSE passthrough of `{SLOW_TREE}` that sleeps "
              f"{SLOW_DELAY} µs before answering each request, kernel caching off, so every run pays the delay "
              "whatever the cache state; the reference is `floor -p -j64`, the syscall floor with 64 reads in flight")
    b.group("slow", label, mnt, f"floor -p -j64 {label}", ["-N"], [
        f"{b.ffind} --method=queue --concurrency=64 -u . {d}", f"{b.ffind} --method=queue --concurrency=2 -u . {d}",
        f"{b.ffind} -u . {d}", f"{b.fd} -u . {d}", f"{b.ffind} . {d}", f"{b.fd} . {d}", f"{b.floor} -p -j2 {d}",
        f"{b.floor} -p -j64 {d}"], interleave_mode="0")
    if SLOW_SWEEP:
        run_sweep(b, label, mnt, SLOW_SWEEP, f"floor -p -j64 {label}", Path(f"{b.base(label, 'slow')}.json"),
                  f"ffind concurrency sweep on a slow file system: {label}")
    b.runs, b.warmup, b.cache, b.note = runs, warmup, None, None
    unmount_slowfs(b)


SECTIONS = ["side", "git", "huge", "cold", "j1", "memory", "first", "sweep", "crates", "sort", "order", "slow",
            "deep-lowfd", "mpi"]
DEFAULT_SECTIONS = ["side", "git", "j1", "memory", "first", "sweep", "crates", "sort", "order", "huge", "deep-lowfd"]


def run(b, mpi=None):
    """Every chosen suite, in the order run.sh had: per tree, then the trees of their own.
    `mpi` is suites_mpi.mpi, handed in by bench.py: suites_mpi.py uses this file's helpers, so
    the dependency runs one way (bench -> suites_mpi -> suites)."""
    per_tree = [s for s in b.sections if s in PER_TREE]
    for label in (b.trees if per_tree else []):
        tree = b.corpora / label
        warm(tree)  # warm the cache before the first timed command
        for s in ("side", "j1", "first", "memory", "sweep", "crates", "sort", "order"):
            if s in b.sections:
                PER_TREE[s](b, label, tree)
    for s, suite in (("order", order_filtered), ("git", git_default), ("huge", huge), ("cold", cold),
                     ("deep-lowfd", deep_lowfd), ("slow", slow), ("mpi", mpi)):
        if s in b.sections and suite is not None:
            suite(b)
