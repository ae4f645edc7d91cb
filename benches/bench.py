#!/usr/bin/env python3
"""ffind's benchmarks: ffind side by side with fd, bfs, GNU find and the syscall floor, as ratios
measured in one run. Also `just bench [ARGS]`; benches/README.md explains every suite.

    python3 benches/bench.py setup [TREE...]    install the peers, build the trees (once)
    python3 benches/bench.py [TREE...] [SUITE...]

TREE   linux big flat                 (default: all three; setup: every tree, see trees.py)
SUITE  side    every method, fd -u, bfs, find, floor -p -j2; to /dev/null and piped
       git     default filtering in git repositories: linux-git and monorepo, also interleaved
       huge    one directory of 1,000,000 entries: first result and peak memory
       cold    cold cache: caches dropped before every run (needs root); never by default
       j1      one thread: ffind -j1 / serial, fd -j1, find, floor -p -j1
       memory  max RSS (/usr/bin/time), to /dev/null and with a slow reader
       first   time to the first result (| head -1)
       sweep   --concurrency 1..1024 for --method queue and rayon
       crates  the walker-crate methods (walkdir, jwalk, ignore) at -j 2, 8, 64: time and RSS
       sort    the cost of --sort path and --sort depth against the plain listing
       order   --order breadth against depth, bfs and fd: time to the 1st, 50th, 1,000th line
       slow    on a FUSE mount that sleeps per operation (benches/slowfs.sh); never by default
       deep-lowfd  the 3,000-level `deep` tree under `ulimit -n 64` (and 16)
       mpi     one search over 1, 2 and 4 processes (mpirun ... ffind --mpi) against threads,
               and mpifileutils' dfind if built; needs Open MPI; never by default
       (default: all but slow, cold and mpi)

Environment: BENCH_RUNS (20), BENCH_WARMUP (3), BENCH_INTERLEAVE (near: groups whose ffind
ratios lie near the goal are also timed interleaved; 1: every group; 0: only git's), and the
suites' own (benches/README.md); FFIND (a prebuilt binary: skips cargo build), FFIND_MPI,
FFIND_CORPORA (~/.cache/ffind-corpora), FFIND_PEERS (~/.cache/ffind-peers), BENCH_RESULTS
(benches/results), BENCH_STAMP (the date and time).

Writes BENCH_RESULTS/<stamp>-<tree>-<what>.{json,md,svg} (hyperfine's exports; every .md opens
with the conditions; the .svg charts the ratios to the floor) and <stamp>-summary.{md,svg}, the
medians and ratios of every comparison, printed last. Exits 3 if the slow suite could not run.
"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import chart
import peers
import suites
import suites_mpi
import trees
from harness import Bench, die, loadavg, say

PER_TREE_TREES = ("linux", "big", "flat")


def trees_needed(sections, chosen):
    """The trees the chosen suites list, in the order they are built."""
    need = []
    if any(s in suites.PER_TREE for s in sections):
        need += chosen
    if "git" in sections or "cold" in sections:
        need += ["linux", "linux-git"]
    if "git" in sections or "order" in sections:
        need.append("monorepo")
    if "huge" in sections or "order" in sections:
        need.append("million")
    if "deep-lowfd" in sections:
        need.append("deep")
    if "slow" in sections or ("mpi" in sections and suites_mpi.MPI_SLOW):
        need.append(suites.SLOW_TREE)
    if "mpi" in sections and suites_mpi.MPI_TREE:
        need.append(suites_mpi.MPI_TREE)
    return list(dict.fromkeys(need))


def build_ffind(repo, features=None, target_dir=None):
    cmd = ["cargo", "build", "--release"] + (["--features", features] if features else [])
    if target_dir:
        cmd += ["--target-dir", str(target_dir)]
    say(" ".join(cmd))
    if subprocess.run(cmd, cwd=repo).returncode:
        die(f"{' '.join(cmd)} failed")
    target = Path(target_dir or os.environ.get("CARGO_TARGET_DIR") or repo / "target")
    return str((repo / target if not target.is_absolute() else target) / "release" / "ffind")


def prebuilt(var):
    path = os.environ.get(var)
    if path and not os.access(path, os.X_OK):
        die(f"{var}={path} is not an executable")
    return os.path.realpath(path) if path else None


def summary_header(b):
    s = b.sections
    what = f"- Sections: {' '.join(s)}"
    if any(x in suites.PER_TREE for x in s):
        what += f"; trees: {' '.join(b.trees)}"
    if "git" in s:
        what += "; linux-git, monorepo"
    if "order" in s and "git" not in s:
        what += "; monorepo"
    if "huge" in s or "order" in s:
        what += "; million"
    if "deep-lowfd" in s:
        what += f"; deep (ulimit -n {suites.LOWFD})"
    if "slow" in s:
        what += f"; slowfs-{suites.SLOW_TREE} ({suites.SLOW_DELAY} µs per operation)"
    if "mpi" in s:
        what += f"; mpi on {suites_mpi.MPI_TREE or 'slowfs only'}"
    lines = [f"# ffind benchmark summary, {b.stamp}", "", what,
             f"- Machine: {os.cpu_count()} cores (`nproc`), kernel {os.uname().release}, load average at start {loadavg()}",
             *b.versions()]
    if any(x in suites.PER_TREE for x in s) or "git" in s or "deep-lowfd" in s:
        lines.append(f"- Warm cache; hyperfine `--warmup {b.warmup} --runs {b.runs}`")
    if "slow" in s:
        lines.append(f"- Slow file system: hyperfine `--warmup {suites.SLOW_WARMUP} --runs {suites.SLOW_RUNS}`")
    lines.append('- Medians; "vs" = median / median of the floor named in the column')
    lines.append(f"- Chart of every ratio to a floor: {b.stamp}-summary.svg")
    return "\n".join(lines) + "\n\n"


def setup(names):
    """Installs every peer (dfind only if asked) and builds the trees: once, before `just bench`."""
    wanted = [n for n in names if n != "dfind"] or trees.NAMES
    found = peers.ensure(peers.DEFAULT + (("dfind",) if "dfind" in names else ()))
    missing = [n for n, p in found.items() if not p]
    for name in wanted:
        if name != "all" and name not in trees.BUILDERS:
            die(f"setup: unknown tree '{name}' (one of: {', '.join(trees.NAMES)})")
    for name in trees.NAMES if "all" in wanted else wanted:
        print(trees.ensure(name))
    print(f"peers: {peers.root()}")
    if missing:
        die(f"setup: could not install {', '.join(missing)}")


def main(argv):
    repo = Path(__file__).resolve().parent.parent
    if argv[:1] == ["setup"]:
        return setup(argv[1:])
    chosen, sections = [], []
    for arg in argv:
        if arg in ("-h", "--help"):
            print(__doc__)
            return 0
        if arg in PER_TREE_TREES:
            chosen.append(arg)
        elif arg in suites.SECTIONS:
            sections.append(arg)
        else:
            print(f"benches/bench.py: unknown tree or suite '{arg}'\n\n{__doc__}", file=sys.stderr)
            return 2
    b = Bench(repo, sections or suites.DEFAULT_SECTIONS, chosen or list(PER_TREE_TREES))

    b.ffind = prebuilt("FFIND") or build_ffind(repo)
    if "mpi" in b.sections:
        b.mpirun = shutil.which("mpirun") or die("mpi: mpirun is missing (apt-get install openmpi-bin libopenmpi-dev libclang-dev)")
        # A target directory of its own: the default build above stays as it is.
        b.ffind_mpi = prebuilt("FFIND_MPI") or build_ffind(repo, "mpi", repo / "target" / "mpi")

    say(f"peers: benches/peers.py (the first time builds fd from crates.io: minutes) into {peers.root()}")
    found = peers.ensure(peers.DEFAULT + (("dfind",) if "mpi" in b.sections and suites_mpi.DFIND_N else ()))
    missing = [n for n in peers.DEFAULT if not found[n]]
    if missing:
        die(f"could not install {', '.join(missing)} (benches/peers.py)")
    b.peers, b.fd, b.floor, b.dfind = peers.root(), found["fd"], found["floor"], found.get("dfind")
    # bfs 4 with io_uring, where it was built (`peers.py bfs4`): never built here.
    b.bfs4 = peers.found_bfs4()

    need = trees_needed(b.sections, b.trees)
    say(f"trees: {' '.join(need)} (benches/trees.py; big, flat and million take minutes the first time)")
    for name in need:
        trees.ensure(name)
    b.name_paths()

    b.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ffind-bench.") as tmp:
        b.tmp = Path(tmp)
        b.summary.write_text(summary_header(b))
        try:
            suites.run(b, mpi=suites_mpi.mpi)
        finally:
            suites.unmount_slowfs(b)
    for suite, why in b.unavailable.items():
        if suite == "slow":
            why = f"FUSE is not usable on this machine, so the slow file system section did not run: {why}"
        b.section_summary(f"{suite}: NOT MEASURED", why)
    if b.panels:
        (b.out / f"{b.stamp}-summary.svg").write_text(chart.svg(b.panels, ref_label="the floor its panel names"))
    say(f"summary ({b.summary})")
    print(b.summary.read_text())
    print(f"results: {b.out}/{b.stamp}-*", file=sys.stderr)
    if "slow" in b.unavailable:
        print(f"benches/bench.py: the slow section did not run: {b.unavailable['slow']}", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
