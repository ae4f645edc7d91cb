#!/usr/bin/env python3
"""Times commands interleaved: every round runs each command once, in a new random order, so
that a machine whose speed drifts (a shared VM, a neighbour's build) slows every command alike
instead of whichever hyperfine happened to be timing. Prints the median and the minimum of each,
with its ratio to the last command (put the floor last).

Usage: benches/interleave.py [--cpu] [--pipe] ROUNDS WARMUP CMD...
Each CMD is one string, split like a shell would (no pipes); its stdout goes to /dev/null (with
--pipe: into a pipe this script reads to the end, as hyperfine's --output=pipe), and exit status
0 or 1 (ffind's "some path could not be read") counts as success. Timing is wall-clock around
posix_spawn and waitpid, so each figure includes about 1 ms of process start, as hyperfine -N's
does. With --cpu, each line also gives the median CPU time (user + system) of the command and
of every descendant it waited for (wait4's: an mpirun job's processes).

benches/bench.py imports it (`measure`, `text`) for the suites' interleaved rounds."""
import os
import random
import shlex
import statistics
import sys
import time


def run_once(argv, pipe):
    """Wall-clock and CPU seconds of one run of argv."""
    if pipe:
        r, w = os.pipe()
        fa = [(os.POSIX_SPAWN_DUP2, w, 1), (os.POSIX_SPAWN_CLOSE, r)]
    else:
        null = os.open(os.devnull, os.O_WRONLY)
        fa = [(os.POSIX_SPAWN_DUP2, null, 1)]
    t = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=fa)
    if pipe:
        os.close(w)
        while os.read(r, 1 << 16):
            pass
        os.close(r)
    _, status, usage = os.wait4(pid, 0)
    dt = time.perf_counter() - t
    if not pipe:
        os.close(null)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise RuntimeError(f"failed: {shlex.join(argv)}")
    return dt, usage.ru_utime + usage.ru_stime


def measure(cmds, rounds, warmup, pipe=False):
    """[(wall seconds per round, CPU seconds per round)] for each command, interleaved."""
    argvs = [shlex.split(c) for c in cmds]
    times = [([], []) for _ in cmds]
    for r in range(warmup + rounds):
        order = list(range(len(cmds)))
        random.shuffle(order)
        for i in order:
            dt, used = run_once(argvs[i], pipe)
            if r >= warmup:
                times[i][0].append(dt)
                times[i][1].append(used)
    return times


def text(cmds, times, cpu=False, names=None):
    """interleave.py's lines: median (ratio to the last), minimum (ratio), [CPU], command."""
    ref_med = statistics.median(times[-1][0])
    ref_min = min(times[-1][0])
    out = []
    for c, (t, u) in zip(names or cmds, times):
        med, mn = statistics.median(t), min(t)
        line = f"{med*1000:8.1f} ms ({med/ref_med:.2f})  min {mn*1000:7.1f} ({mn/ref_min:.2f})"
        if cpu:
            line += f"  cpu {statistics.median(u)*1000:8.1f} ms"
        out.append(f"{line}  {c}")
    with open("/proc/loadavg") as f:
        out.append(f"load {f.read().split()[:3]}")
    return "\n".join(out)


def main(argv):
    cpu = pipe = False
    while argv and argv[0] in ("--cpu", "--pipe"):
        cpu |= argv[0] == "--cpu"
        pipe |= argv[0] == "--pipe"
        argv = argv[1:]
    if len(argv) < 3:
        sys.exit(__doc__)
    rounds, warmup, cmds = int(argv[0]), int(argv[1]), argv[2:]
    try:
        times = measure(cmds, rounds, warmup, pipe)
    except RuntimeError as e:
        sys.exit(str(e))
    print(text(cmds, times, cpu))


if __name__ == "__main__":
    main(sys.argv[1:])
