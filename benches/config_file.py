#!/usr/bin/env python3
"""How long a config file at the size limit (1 MiB) takes to judge.

    benches/config_file.py [FFIND] [RUNS]

Times FFIND (default target/release/ffind) on an empty directory with FFIND_CONFIG_PATH naming
a 1 MiB file of each kind below, RUNS times each (default 10), and prints a markdown table of
the medians. Refusing such a file once took hours (every prefix of the file was parsed again);
the goal is well under a second for every row:

- refused at the end: 349,000 lines of `-H`, then a pattern;
- refused at the start: `--bogus`, then 349,000 lines of `-H`;
- accepted: 349,000 lines of `-H`;
- accepted: 55,000 lines of `--exclude=abcdefgh`.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

LIMIT = 1 << 20


def files():
    """(name, text, expected exit code) of each config file, each just under the limit."""
    h = "-H\n" * 349_000
    return [
        ("refused: 349,000 lines of -H, then a pattern", h + "pattern\n", 2),
        ("refused: --bogus, then 349,000 lines of -H", "--bogus\n" + h, 2),
        ("accepted: 349,000 lines of -H", h, 0),
        ("accepted: 55,000 lines of --exclude=abcdefgh", "--exclude=abcdefgh\n" * 55_000, 0),
    ]


def main():
    ffind = sys.argv[1] if len(sys.argv) > 1 else "target/release/ffind"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        empty = os.path.join(tmp, "empty")
        os.mkdir(empty)
        for name, text, code in files():
            assert len(text) <= LIMIT, name
            path = os.path.join(tmp, "config")
            with open(path, "w") as f:
                f.write(text)
            env = dict(os.environ, FFIND_CONFIG_PATH=path)
            times = []
            for _ in range(runs):
                start = time.perf_counter()
                done = subprocess.run(
                    [ffind, ".", empty], env=env, capture_output=True, check=False
                )
                times.append(time.perf_counter() - start)
                if done.returncode != code:
                    sys.exit(f"{name}: exit {done.returncode}, expected {code}: {done.stderr!r}")
            rows.append((name, len(text), statistics.median(times), max(times)))
    print("| config file (1 MiB limit) | bytes | median | slowest |")
    print("|---|---|---|---|")
    for name, size, median, slowest in rows:
        print(f"| {name} | {size:,} | {median * 1000:.0f} ms | {slowest * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
