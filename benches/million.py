#!/usr/bin/env python3
"""One directory of a million entries, for the `huge` and `order` suites (benches/trees.py
million builds it).

    benches/million.py DIR [COUNT]

Makes DIR (a git repository) holding DIR/wide with COUNT (default 1,000,000) hard links to empty
files (a new one every 60,000 links: ext4 allows 65,000 per inode), named entry-0000000 ..., and its own .gitignore (`*7`, a tenth of the entries), so
that the default filtering must read that ignore file before it prints any entry of the listing.
"""
import os
import subprocess
import sys


def build(root, count=1_000_000):
    wide = os.path.join(root, "wide")
    os.makedirs(wide)
    target = os.path.join(root, "target")
    fd = os.open(wide, os.O_RDONLY | os.O_DIRECTORY)
    for i in range(count):
        if i % 60_000 == 0:
            if os.path.exists(target):
                os.unlink(target)
            open(target, "wb").close()
        os.link(target, f"entry-{i:07d}", dst_dir_fd=fd)
    os.close(fd)
    with open(os.path.join(wide, ".gitignore"), "w") as f:
        f.write("*7\n")
    os.unlink(target)
    subprocess.run(["git", "init", "-q", root], check=True)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000)


if __name__ == "__main__":
    main()
