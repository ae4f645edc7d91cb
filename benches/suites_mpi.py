"""The MPI suite (`bench.py mpi`, never by default): one search spread over the processes of an
MPI job (`--mpi`, docs/SCALE.md). On one machine processes cannot beat threads, so this measures
what distribution costs: `mpirun -n 1, 2, 4` (threads per process so that the totals match)
against one plain process at the same total threads, interleaved, with wall and CPU time
(mpirun's whole job); each launch's fixed cost alone (the same job on an empty directory);
mpifileutils' dfind where it is built. Results go to a file through --output (process 0 writes
it), as mpirun's forwarding of stdout through a pty is mpirun's cost, not ffind's. Every
configuration's output, sorted, must be the plain process's. suites.py holds the others (and
the slow file system this one can run on).
"""
import os
import shlex
import statistics
import subprocess
from pathlib import Path

import interleave
import suites
from harness import die, env_int, loadavg, say

MPI_TREE = os.environ.get("BENCH_MPI_TREE", "big")
MPI_THREADS = env_int("BENCH_MPI_THREADS", 2)
MPI_ROUNDS = env_int("BENCH_MPI_ROUNDS", 10)
MPI_WARMUP = env_int("BENCH_MPI_WARMUP", 1, minimum=0)
DFIND_N = os.environ.get("BENCH_MPI_DFIND_N", "1,2,4")
DFIND_ROUNDS = env_int("BENCH_MPI_DFIND_ROUNDS", 3)
MPI_SLOW = os.environ.get("BENCH_MPI_SLOW") == "1"
MPI_SLOW_THREADS = env_int("BENCH_MPI_SLOW_THREADS", 16)

q = shlex.quote


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
        suites.warm(b.corpora / MPI_TREE)
        mpi_run(b, MPI_TREE, b.corpora / MPI_TREE, MPI_THREADS)
    if MPI_SLOW:
        mnt = suites.mount_slowfs(b)
        if not mnt:
            b.section_summary("mpi on slowfs: NOT MEASURED", b.unavailable.pop("slow"))
            return
        global DFIND_N
        dfind_n, DFIND_N = DFIND_N, ""
        b.cache = "source tree in the page cache, nothing cached by the FUSE layer"
        b.note = f"Slow file system: slowfs, a FUSE passthrough of `{suites.SLOW_TREE}` that sleeps {suites.SLOW_DELAY} µs before answering each request"
        mpi_run(b, f"slowfs-{suites.SLOW_TREE}", mnt, MPI_SLOW_THREADS)
        DFIND_N, b.cache, b.note = dfind_n, None, None
        suites.unmount_slowfs(b)
