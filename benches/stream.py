#!/usr/bin/env python3
"""Times how results stream to a reader: for each command, how long until its 1st, 50th (a
screenful of fzf) and 1,000th line reach a reader that reads as fast as it can, and how long
until its output ends (the whole walk, piped). Interleaved as interleave.py is: every round runs
each command once, in a new random order. Prints the median of each column and the line count.
(Not the peak memory: a child of posix_spawn starts with this process's high-water mark; the
order suite measures it with GNU time.) benches/suites.py imports it (`table`).

Usage: benches/stream.py ROUNDS WARMUP CMD...
Each CMD is one string, split like a shell would (no pipes). Times start just before
posix_spawn, so each includes about 1 ms of process start, as hyperfine -N's do. A line is what
ends with a newline: a command run with -0 counts no lines."""
import os
import random
import shlex
import statistics
import sys
import time

MARKS = (1, 50, 1000)


def run(argv):
    """One run: seconds to each mark (None when the output is shorter) and to the end, and the
    line count."""
    r, w = os.pipe()
    actions = [(os.POSIX_SPAWN_DUP2, w, 1), (os.POSIX_SPAWN_CLOSE, r)]
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions)
    os.close(w)
    lines, at, marks = 0, {}, list(MARKS)
    while True:
        chunk = os.read(r, 1 << 16)
        if not chunk:
            break
        now = time.perf_counter()
        lines += chunk.count(b"\n")
        while marks and lines >= marks[0]:
            at[marks.pop(0)] = now - start
    end = time.perf_counter() - start
    os.close(r)
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise RuntimeError(f"failed: {shlex.join(argv)}")
    return [at.get(m) for m in MARKS] + [end], lines


def table(cmds, rounds, warmup):
    """The markdown table: each command's line count and median time to each mark and to the
    end, interleaved over ROUNDS rounds after WARMUP."""
    argvs = [shlex.split(c) for c in cmds]
    times = [[] for _ in cmds]
    lines = [0 for _ in cmds]
    for r in range(warmup + rounds):
        order = list(range(len(cmds)))
        random.shuffle(order)
        for i in order:
            t, n = run(argvs[i])
            lines[i] = n
            if r >= warmup:
                times[i].append(t)

    def ms(column):
        got = [x for x in column if x is not None]
        return f"{statistics.median(got) * 1000:.1f}" if got else "-"

    head = ["Command", "Lines", "1st [ms]", "50th [ms]", "1,000th [ms]", "All [ms]"]
    out = ["| " + " | ".join(head) + " |", "|:---|" + "---:|" * (len(head) - 1)]
    for c, t, n in zip(cmds, times, lines):
        cols = [ms([x[i] for x in t]) for i in range(len(MARKS) + 1)]
        out.append(f"| `{c}` | {n} | " + " | ".join(cols) + " |")
    return "\n".join(out)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    try:
        print(table(sys.argv[3:], int(sys.argv[1]), int(sys.argv[2])))
    except RuntimeError as e:
        sys.exit(str(e))


if __name__ == "__main__":
    main()
