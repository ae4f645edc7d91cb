#!/usr/bin/env python3
"""--cache: a repeated search served by the directory memo, timed interleaved (every
round runs each command once, in a new random order) against the same search without it, fd,
bfs and the floor (`floor -p -j2`, last: the ratios are to it).

Usage: benches/cache.py FFIND FLOOR [TREE...]
TREE is a name in ~/.cache/ffind-corpora (default: linux linux-git big flat million). Env:
BENCH_RUNS (rounds, default 20), BENCH_WARMUP (default 2), FD, BFS (peers; skipped if absent),
BENCH_BASE (a second ffind binary, timed without --cache: the default search before and after),
BENCH_BEFORE (a second ffind binary timed with --cache, its own memo settled likewise: the
repeated search before and after a change, side by side in one interleaved run).

For each tree, four tables (five on linux):
- repeated: the memo settled (written, then left 3 s so that every listing is trusted);
- changed: before each timed --cache run, 1% of the directories get a file created (or the
  one created last time removed): those directories are read again, the rest served;
- first: the memo removed before each --cache run (an empty memo), against --no-cache;
- cold (linux only, where the page cache can be dropped: root): the page cache dropped before
  every run, the memo settled: --cache against --no-cache and floor -p -j64;
- size: the memo file's bytes against the bytes of the names it holds.
-u on every tree but linux-git, which gets the default filtering (its .gitignore files).
Output to /dev/null. Each figure includes about 1 ms of process start."""
import os, random, shutil, statistics, subprocess, sys, time

ffind, floor = sys.argv[1], sys.argv[2]
trees = sys.argv[3:] or ["linux", "linux-git", "big", "flat", "million"]
rounds = int(os.environ.get("BENCH_RUNS", "20"))
warmup = int(os.environ.get("BENCH_WARMUP", "2"))
corpora = os.path.expanduser("~/.cache/ffind-corpora")
memo = os.path.join(os.environ.get("TMPDIR", "/tmp"), "ffind-bench-memo")
null = os.open(os.devnull, os.O_WRONLY)
peers = {k: shutil.which(os.environ.get(k.upper(), k)) for k in ("fd", "bfs")}
base = os.environ.get("BENCH_BASE")
before = os.environ.get("BENCH_BEFORE")
memo_before = memo + "-before"


def memo_bytes(d):
    """The bytes of the memo files below `d` (each reader's directory, or d itself)."""
    return sum(os.path.getsize(os.path.join(p, f)) for p, _, fs in os.walk(d)
               for f in fs if f.endswith(".ffc"))


def run(argv):
    t = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, null, 1)])
    _, status, _ = os.wait4(pid, 0)
    dt = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit(f"failed: {argv}")
    return dt


def interleave(rows):
    """rows: (label, argv, setup or None); the last row is the reference."""
    times = [[] for _ in rows]
    for r in range(warmup + rounds):
        order = list(range(len(rows)))
        random.shuffle(order)
        for i in order:
            _, argv, setup = rows[i]
            if setup:
                setup()
            dt = run(argv)
            if r >= warmup:
                times[i].append(dt)
    ref = statistics.median(times[-1])
    for (label, _, _), t in zip(rows, times):
        med = statistics.median(t)
        print(f"  {med*1000:9.1f} ms ({med/ref:5.2f})  min {min(t)*1000:8.1f}  {label}")


def drop_caches():
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def cold_allowed():
    """Whether the page cache can be dropped here (root, and a kernel that lets us)."""
    try:
        drop_caches()
        return True
    except OSError as e:
        print(f" cold page cache: skipped ({e.strerror})")
        return False


def dirs_of(root, limit):
    out = []
    for d, subdirs, _ in os.walk(root):
        out.append(d)
        if len(out) >= limit:
            break
    return out


for tree in trees:
    root = os.path.join(corpora, tree)
    if not os.path.isdir(root):
        print(f"{tree}: not in {corpora}, skipped")
        continue
    filt = [] if tree == "linux-git" else ["-u"]
    args = filt + ["."]
    cached = [ffind, "--cache", "--cache-dir", memo] + args + [root]
    plain = [ffind, "--no-cache"] + args + [root]
    flo = [floor, "-p", "-j2", root]
    cached_before = before and [before, "--cache", "--cache-dir", memo_before] + args + [root]
    shutil.rmtree(memo, ignore_errors=True)
    shutil.rmtree(memo_before, ignore_errors=True)
    for c in [cached] + ([cached_before] if before else []):
        subprocess.run(c, stdout=null, check=False)
    time.sleep(3.2)
    for c in [cached] + ([cached_before] if before else []):
        subprocess.run(c, stdout=null, check=False)
    lines = subprocess.run(cached, capture_output=True).stdout.count(b"\n")
    want = subprocess.run(plain, capture_output=True).stdout.count(b"\n")
    print(f"\n{tree} ({' '.join(filt) or 'default filtering'}, {lines} lines; --no-cache {want})"
          f", {rounds} rounds, load {open('/proc/loadavg').read().split()[:3]}")
    print(" repeated, memo settled:")
    rows = [("ffind --cache", cached, None), ("ffind --no-cache", plain, None)]
    if before:
        rows.insert(1, ("ffind --cache (before)", cached_before, None))
    if base:
        rows.append(("ffind (base, no --cache)", [base] + args + [root], None))
    if peers["fd"]:
        rows.append(("fd", [peers["fd"]] + args + [root], None))
    if peers["bfs"] and filt:
        rows.append(("bfs", [peers["bfs"], root], None))
    rows.append(("floor -p -j2", flo, None))
    interleave(rows)

    # 1% of the directories changed before each cached run.
    all_dirs = [d for d, _, _ in os.walk(root)]
    picked = random.Random(1).sample(all_dirs, max(1, len(all_dirs) // 100))
    state = {"made": False}

    def churn():
        for d in picked:
            p = os.path.join(d, ".ffind-bench-churn")
            if state["made"]:
                os.unlink(p)
            else:
                open(p, "w").close()
        state["made"] = not state["made"]

    print(f" 1% changed ({len(picked)} of {len(all_dirs)} directories) before each --cache run:")
    interleave([("ffind --cache", cached, churn), ("ffind --no-cache", plain, None),
                ("floor -p -j2", flo, None)])
    if state["made"]:
        churn()

    print(" first search, empty memo:")
    interleave([("ffind --cache (memo removed before)", cached,
                 lambda: shutil.rmtree(memo, ignore_errors=True)),
                ("ffind --no-cache", plain, None)])

    if tree == "linux" and cold_allowed():
        # The page cache dropped before every run (the memo file's pages too): what --cache
        # saves when the directories must come from the disk.
        subprocess.run(cached, stdout=null, check=False)
        time.sleep(3.2)
        subprocess.run(cached, stdout=null, check=False)
        print(" cold page cache (echo 3 > /proc/sys/vm/drop_caches before every run):")
        interleave([("ffind --cache", cached, drop_caches),
                    ("ffind --no-cache", plain, drop_caches),
                    ("floor -p -j64", [floor, "-p", "-j64", root], drop_caches)])

    subprocess.run(cached, stdout=null, check=False)
    names = 0
    for d, subdirs, files in os.walk(root):
        names += sum(len(os.fsencode(n)) for n in subdirs + files)
    size = memo_bytes(memo)
    print(f" memo: {size:,} bytes for {names:,} bytes of names ({size/names:.2f}x), "
          f"{len(all_dirs):,} directories")
shutil.rmtree(memo, ignore_errors=True)
shutil.rmtree(memo_before, ignore_errors=True)
