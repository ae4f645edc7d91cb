#!/usr/bin/env python3
"""Times commands interleaved: every round runs each command once, in a new random order, so
that a machine whose speed drifts (a shared VM, a neighbour's build) slows every command alike
instead of whichever hyperfine happened to be timing. Prints the median and the minimum of each,
with its ratio to the last command (put the floor last).

Usage: benches/interleave.py [--cpu] ROUNDS WARMUP CMD...
Each CMD is one string, split like a shell would (no pipes); its stdout goes to /dev/null, and
exit status 0 or 1 (ffind's "some path could not be read") counts as success. Timing is
wall-clock around posix_spawn and waitpid, so each figure includes about 1 ms of process start,
as hyperfine -N's does. With --cpu, each line also gives the median CPU time (user + system)
of the command and of every descendant it waited for (wait4's: an mpirun job's processes)."""
import os, random, shlex, statistics, sys, time

cpu = sys.argv[1] == "--cpu"
args = sys.argv[2:] if cpu else sys.argv[1:]
rounds, warmup, cmds = int(args[0]), int(args[1]), args[2:]
argvs = [shlex.split(c) for c in cmds]
null = os.open(os.devnull, os.O_WRONLY)
times = [[] for _ in cmds]
cpus = [[] for _ in cmds]

def run(argv):
    """Wall-clock and CPU seconds of one run of argv."""
    fa = [(os.POSIX_SPAWN_DUP2, null, 1)]
    t = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=fa)
    _, status, usage = os.wait4(pid, 0)
    dt = time.perf_counter() - t
    if status != 0 and os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit(f"failed: {argv}")
    return dt, usage.ru_utime + usage.ru_stime

for r in range(warmup + rounds):
    order = list(range(len(cmds)))
    random.shuffle(order)
    for i in order:
        dt, used = run(argvs[i])
        if r >= warmup:
            times[i].append(dt)
            cpus[i].append(used)

ref_med = statistics.median(times[-1])
ref_min = min(times[-1])
for c, t, u in zip(cmds, times, cpus):
    med, mn = statistics.median(t), min(t)
    line = f"{med*1000:8.1f} ms ({med/ref_med:.2f})  min {mn*1000:7.1f} ({mn/ref_min:.2f})"
    if cpu:
        line += f"  cpu {statistics.median(u)*1000:8.1f} ms"
    print(f"{line}  {c}")
print("load", open("/proc/loadavg").read().split()[:3])
