"""The suites: what is compared with what, on which tree. Each is a function of the Bench (see
harness.py, which times and writes) and, for the per-tree ones, a tree's label and directory.
benches/README.md has the table of what each measures.
"""
import os
import shlex
import statistics
import subprocess
import tempfile
from pathlib import Path

import interleave
import report
import stream
from harness import die, env_int, loadavg, say

METHODS = ("serial", "walkdir", "queue", "rayon", "jwalk", "ignore")
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
MPI_TREE = os.environ.get("BENCH_MPI_TREE", "big")
MPI_THREADS = env_int("BENCH_MPI_THREADS", 2)
MPI_ROUNDS = env_int("BENCH_MPI_ROUNDS", 10)
MPI_WARMUP = env_int("BENCH_MPI_WARMUP", 1, minimum=0)
DFIND_N = os.environ.get("BENCH_MPI_DFIND_N", "1,2,4")
DFIND_ROUNDS = env_int("BENCH_MPI_DFIND_ROUNDS", 3)
MPI_SLOW = os.environ.get("BENCH_MPI_SLOW") == "1"
MPI_SLOW_THREADS = env_int("BENCH_MPI_SLOW_THREADS", 16)

q = shlex.quote


def bfs(b, d):
    """Debian's bfs on `d`, and bfs 4 with io_uring where it was built (`peers.py bfs4`)."""
    return [f"bfs {d}"] + ([f"{q(b.bfs4)} {d}"] if b.bfs4 else [])


def warm(path):
    subprocess.run(["find", str(path)], stdout=subprocess.DEVNULL)


# --- every entry, per tree ------------------------------------------------------------------
def side(b, label, tree):
    d = q(str(tree))
    cmds = [f"{b.ffind} -u . {d}"] + [f"{b.ffind} -u --method {m} . {d}" for m in METHODS]
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
    cmds = [f"{b.ffind} -u . {d}"] + [f"{b.ffind} -u --method {m} . {d}" for m in METHODS]
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
    thread: issue 18)."""
    d = q(str(tree))
    ref_json = floor_ref(b, label, tree)
    base = b.base(label, "crates")
    say(f"{label}: crates (--concurrency {CRATES_J}, walkdir, jwalk and ignore, {b.runs} runs each)")
    b.load = loadavg()
    table_md = b.tmp / "table.md"
    b.hyperfine(["-N", "--warmup", str(b.warmup), "--runs", str(b.runs), "-L", "j", CRATES_J,
                 "-L", "method", "walkdir,jwalk,ignore", "--export-json", f"{base}.json",
                 "--export-markdown", str(table_md), "-n", f"ffind -u --method {{method}} -j {{j}} . {label}",
                 f"{b.ffind} -u --method {{method}} -j {{j}} . {d}"], f"{label} crates")
    cmds = [f"{b.ffind} -u --method {m} -j {j} . {d}" for m in ("walkdir", "jwalk", "ignore")
            for j in CRATES_J.split(",")]
    ref = f"floor -p -j2 {label}"
    pivot = report.pivot(f"{base}.json", ref=ref, ref_json=ref_json)
    table = report.memory(b.rss_rows(cmds), f"{base}-memory.json")
    b.write(base, b.conditions(f"walker-crate methods: {label}", label, tree,
                               f"hyperfine `-N --warmup {b.warmup} --runs {b.runs} -L j {CRATES_J} -L method "
                               f"walkdir,jwalk,ignore`; ratios against `{ref}` from {ref_json.name}; max RSS by "
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
    above it (issue 18). `ulimit -n` sets the soft and the hard limit, in a subshell."""
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


# --- MPI ------------------------------------------------------------------------------------
# One search spread over the processes of an MPI job (`--mpi`, docs/SCALE.md). On one machine
# processes cannot beat threads, so this measures what distribution costs: `mpirun -n 1, 2, 4`
# (threads per process so that the totals match) against one plain process at the same total
# threads, interleaved, with wall and CPU time (mpirun's whole job); each launch's fixed cost
# alone (the same job on an empty directory); mpifileutils' dfind where it is built. Results go
# to a file through --output (process 0 writes it), as mpirun's forwarding of stdout through a
# pty is mpirun's cost, not ffind's. Every configuration's output, sorted, must be the plain
# process's.
def mpi_job(b, n):
    """The words that start a job of N processes, one node, unbound."""
    root = " --allow-run-as-root" if os.getuid() == 0 else ""
    return f"{b.mpirun} --bind-to none --oversubscribe -q{root} -n {n}"


def sorted_lines(path):
    return sorted(Path(path).read_bytes().splitlines())


def mpi_run(b, label, tree, total):
    d = q(str(tree))
    empty = b.tmp / "mpi-empty"
    empty.mkdir(exist_ok=True)
    names, cmds, refs, plain = [], [], [], {}  # refs: index of the row compared with, or None
    for n in (1, 2, 4):
        j = max(total // n, 1)
        t = n * j
        if t not in plain:
            plain[t] = len(names)
            names.append(f"ffind -u -j{t} (one process)")
            cmds.append(f"{b.ffind} -u -j{t} --output OUT . {d}")
            refs.append(plain[t])
        names.append(f"mpirun -n {n} ffind --mpi -u -j{j}")
        cmds.append(f"{mpi_job(b, n)} {b.ffind_mpi} --mpi -u -j{j} --output OUT . {d}")
        refs.append(plain[t])
    for n in (1, 2, 4):
        names.append(f"mpirun -n {n} ffind --mpi (empty directory: launch and MPI_Init only)")
        cmds.append(f"{mpi_job(b, n)} {b.ffind_mpi} --mpi -u -j1 --output /dev/null . {q(str(empty))}")
        refs.append(None)
    # Like lists like: each command once into a file, sorted, against its plain process.
    out, got, check = b.tmp / "mpi-out", {}, {}
    for i, c in enumerate(cmds):
        if refs[i] is None:
            continue
        c = c.replace("OUT", str(out))
        if b.shell(c).returncode not in (0, 1):
            die(f"failed: {b.short(c)}")
        got[i] = sorted_lines(out)
        check[names[i]] = (len(got[i]), "yes" if got[i] == got[refs[i]] else "NO")
    out.unlink(missing_ok=True)
    timed = [c.replace("OUT", "/dev/null") for c in cmds]
    say(f"{label}: mpi ({MPI_ROUNDS} rounds after {MPI_WARMUP}, {len(timed)} commands interleaved)")
    b.load = loadavg()
    try:
        times = interleave.measure(timed, MPI_ROUNDS, MPI_WARMUP)
    except RuntimeError as e:
        die(f"interleave failed for {label} mpi: {b.short(str(e))}")
    med = [(statistics.median(t), min(t), statistics.median(u)) for t, u in times]
    rows = ["| configuration | wall median (s) | wall min (s) | CPU median (s) | wall vs one process "
            "| CPU vs one process | lines | same lines (sorted) |", "|---|---|---|---|---|---|---|---|"]
    for i, name in enumerate(names):
        wall, low, cpu = med[i]
        vs = "- | -" if refs[i] is None else f"{wall / med[refs[i]][0]:.2f} | {cpu / med[refs[i]][2]:.2f}"
        lines, same = check.get(name, ("-", "-"))
        rows.append(f"| `{name}` | {wall:.3f} | {low:.3f} | {cpu:.3f} | {vs} | {lines} | {same} |")
    table = "\n".join(rows)
    version = subprocess.run([b.mpirun, "--version"], capture_output=True, text=True).stdout.splitlines()[:1]
    note = (f"MPI: {version[0] if version else '?'}, one node, `--bind-to none --oversubscribe`, "
            f"OMPI_MCA_pml={os.environ['OMPI_MCA_pml']} OMPI_MCA_btl={os.environ['OMPI_MCA_btl']}; ffind-mpi: the same "
            "revision built with `--features mpi`; the empty-directory rows are each launch's fixed cost (mpirun, "
            "MPI_Init, agreeing, finalizing)")
    outer_note = b.note
    b.note = f"{b.note}; {note}" if b.note else note
    raw = b.short(interleave.text(timed, times, cpu=True))
    b.write(b.base(label, "mpi"), b.conditions(
        f"ffind --mpi: {label}, processes against threads", label, tree,
        f"benches/interleave.py --cpu: {MPI_ROUNDS} rounds after {MPI_WARMUP}, every command once per round in a new "
        "random order; wall = median of the whole job (mpirun's launch included), CPU = user + system of mpirun "
        "and every process of the job; results written by process 0 with `--output /dev/null`")
        + f"{table}\n\nRaw (interleave.py, ratio to the last command):\n\n```\n{raw}\n\n```\n")
    b.section_summary(f"{label}: mpi", table)
    if DFIND_N and b.dfind:
        mpi_dfind(b, label, tree)
    elif DFIND_N:
        b.section_summary(f"{label}: mpi, dfind: NOT MEASURED",
                          "no dfind (mpifileutils; set DFIND, or build one: benches/peers.py dfind)")
    b.note = outer_note


def mpi_dfind(b, label, tree):
    """mpifileutils' dfind listing every entry (`--print`; -q must come last), as mpirun's
    stdout: its ranks print their own parts through mpirun, whose lines interleave mid-line from
    2 processes on, so the check counts lines that do not start with the tree's path."""
    real = os.path.realpath(tree)
    cmds, checks = [], []
    for n in DFIND_N.split(","):
        c = f"{mpi_job(b, n)} {b.dfind} --print -q {q(real)}"
        cmds.append(c)
        p = b.shell(c, stdout=subprocess.PIPE)
        if p.returncode:
            die(f"failed: {b.short(c)}")
        lines = p.stdout.splitlines()
        broken = sum(1 for line in lines if os.fsencode(real) not in line)
        checks.append(f"- `{b.short(c)}`: {len(lines)} lines (the tree has {b.count_entries(tree)} entries + its root), "
                      f"{broken} not starting with the tree's path")
    say(f"{label}: mpi dfind ({DFIND_ROUNDS} rounds, {len(cmds)} commands interleaved)")
    b.load = loadavg()
    text = b.short(interleave.text(cmds, interleave.measure(cmds, DFIND_ROUNDS, 0), cpu=True))
    check = "\n".join(checks)
    b.write(b.base(label, "mpi-dfind"), b.conditions(
        f"mpifileutils dfind: {label}", label, tree,
        f"benches/interleave.py --cpu: {DFIND_ROUNDS} rounds, no warm-up; output: mpirun's stdout to /dev/null "
        "(through mpirun's pty forwarding)") + f"```\n{text}\n\n```\n\n{check}\n")
    b.section_summary(f"{label}: mpi, dfind", f"```\n{text}\n```\n\n{check}")


def mpi(b):
    # One node: shared memory between processes, without probing for network transports.
    os.environ.setdefault("OMPI_MCA_pml", "ob1")
    os.environ.setdefault("OMPI_MCA_btl", "self,vader")
    if MPI_TREE:
        warm(b.corpora / MPI_TREE)
        mpi_run(b, MPI_TREE, b.corpora / MPI_TREE, MPI_THREADS)
    if MPI_SLOW:
        mnt = mount_slowfs(b)
        if not mnt:
            b.section_summary("mpi on slowfs: NOT MEASURED", b.unavailable.pop("slow"))
            return
        global DFIND_N
        dfind_n, DFIND_N = DFIND_N, ""
        b.cache = "source tree in the page cache, nothing cached by the FUSE layer"
        b.note = f"Slow file system: slowfs, a FUSE passthrough of `{SLOW_TREE}` that sleeps {SLOW_DELAY} µs before answering each request"
        mpi_run(b, f"slowfs-{SLOW_TREE}", mnt, MPI_SLOW_THREADS)
        DFIND_N, b.cache, b.note = dfind_n, None, None
        unmount_slowfs(b)


SECTIONS = ["side", "git", "huge", "cold", "j1", "memory", "first", "sweep", "crates", "sort", "order", "slow",
            "deep-lowfd", "mpi"]
DEFAULT_SECTIONS = ["side", "git", "j1", "memory", "first", "sweep", "crates", "sort", "order", "huge", "deep-lowfd"]


def run(b):
    """Every chosen suite, in the order run.sh had: per tree, then the trees of their own."""
    per_tree = [s for s in b.sections if s in PER_TREE]
    for label in (b.trees if per_tree else []):
        tree = b.corpora / label
        warm(tree)  # warm the cache before the first timed command
        for s in ("side", "j1", "first", "memory", "sweep", "crates", "sort", "order"):
            if s in b.sections:
                PER_TREE[s](b, label, tree)
    for s, suite in (("order", order_filtered), ("git", git_default), ("huge", huge), ("cold", cold),
                     ("deep-lowfd", deep_lowfd), ("slow", slow), ("mpi", mpi)):
        if s in b.sections:
            suite(b)
