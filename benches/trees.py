#!/usr/bin/env python3
"""The trees ffind is benchmarked on: builds the missing ones, prints where they are.

    python3 benches/trees.py [TREE...]      (default: linux)

Trees land in $FFIND_CORPORA (default ~/.cache/ffind-corpora), one directory each, built once
(into NAME.tmp, renamed when complete) and reused:
  linux      the Linux 6.12 source from Debian's linux-source-6.12 package (~92k entries): the
             tree bfs and fd publish their figures on
  big        ten hard-linked copies of linux (~925k entries): the scale test
  flat       one directory of 200,000 empty files
  deep       3,000 nested directories, each with a file: paths about 33,000 bytes long, far past
             PATH_MAX (4,096)
  weird      hostile names (newlines, tabs, leading dashes, glob and regex characters, invalid
             UTF-8, escape sequences) and symlinks (dangling, to a directory, a loop)
  linux-git  a hard-linked copy of linux after `git init`, so that its .gitignore files apply
  monorepo   benches/monorepo.py: 800 packages, 1,001 .gitignore files, a git repository
  million    benches/million.py: one directory of $BENCH_MILLION (1,000,000) entries with its
             own .gitignore, a git repository
  all        every one of them
"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import million as million_tree
import monorepo as monorepo_tree

LINUX_PACKAGE = "linux-source-6.12"
BIG_COPIES = 10
FLAT_FILES = 200_000
DEEP_LEVELS = 3_000


def corpora():
    return Path(os.environ.get("FFIND_CORPORA") or Path.home() / ".cache" / "ffind-corpora")


def say(msg):
    print(f"trees: {msg}", file=sys.stderr, flush=True)


def build_linux(tmp):
    with tempfile.TemporaryDirectory(dir=corpora()) as work:
        get = ["apt-get", "download", LINUX_PACKAGE]
        if subprocess.run(get, cwd=work, stdout=subprocess.DEVNULL).returncode:
            subprocess.run(["apt-get", "update", "-qq"], check=True)
            subprocess.run(get, cwd=work, stdout=subprocess.DEVNULL, check=True)
        deb = next(Path(work).glob(f"{LINUX_PACKAGE}_*.deb"))
        subprocess.run(["dpkg-deb", "-x", str(deb), f"{work}/x"], check=True)
        tarball = Path(work, "x", "usr", "src", f"{LINUX_PACKAGE}.tar.xz")
        subprocess.run(["tar", "-xJf", str(tarball), "-C", work], check=True)
        Path(work, LINUX_PACKAGE).rename(tmp)


def build_big(tmp):
    linux = ensure("linux")
    tmp.mkdir()
    for i in range(BIG_COPIES):
        subprocess.run(["cp", "-al", str(linux), str(tmp / f"linux{i}")], check=True)


def build_flat(tmp):
    tmp.mkdir()
    fd = os.open(tmp, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for i in range(FLAT_FILES):
            os.close(os.open(f"f{i:06d}.txt", os.O_CREAT | os.O_WRONLY, 0o644, dir_fd=fd))
    finally:
        os.close(fd)


def build_deep(tmp):
    # Descends by descriptor: no path this long can be named whole.
    tmp.mkdir()
    fd = os.open(tmp, os.O_RDONLY | os.O_DIRECTORY)
    for level in range(DEEP_LEVELS):
        name = f"level{level:05d}"
        os.mkdir(name, dir_fd=fd)
        os.close(os.open("f.txt", os.O_CREAT | os.O_WRONLY, 0o644, dir_fd=fd))
        below = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = below
    os.close(fd)


WEIRD_NAMES = [
    b"new\nline", b"tab\there", b"-rf", b"--help", b" leading space", b"trailing space ",
    b"star*", b"question?", b"[brackets]", b"back\\slash", b"dollar$HOME", b"quote'single",
    b'quote"double', b"caf\xc3\xa9", b"\xff\xfe-not-utf8", b"\x1b[31mred", b".hidden", b"..dots",
    b"UPPER.TXT", b"mixed.Case.Rs", b"no_ext", b"a.b.c.tar.gz", "日本".encode(),
]


def build_weird(tmp):
    top = os.fsencode(tmp)
    os.mkdir(top)
    for dirname in WEIRD_NAMES:
        d = os.path.join(top, b"dir-" + dirname)
        os.mkdir(d)
        for name in WEIRD_NAMES:
            open(os.path.join(d, name), "wb").close()
    os.symlink(b"does-not-exist", os.path.join(top, b"dangling"))
    os.symlink(b"dir-no_ext", os.path.join(top, b"link-to-dir"))
    os.symlink(b".", os.path.join(top, b"dir-no_ext", b"loop"))


def build_linux_git(tmp):
    # Debian's linux-source adds "/*" and "!/debian/" to the top .gitignore, which inside a
    # repository hides the whole tree from fd and ffind alike: those two lines go, in a new file
    # (the old one is a hard link into the linux tree).
    linux = ensure("linux")
    subprocess.run(["cp", "-al", str(linux), str(tmp)], check=True)
    subprocess.run(["git", "-C", str(tmp), "init", "-q"], check=True)
    gitignore = tmp / ".gitignore"
    kept = [l for l in gitignore.read_text().splitlines(keepends=True) if l.rstrip("\n") not in ("/*", "!/debian/")]
    gitignore.unlink()
    gitignore.write_text("".join(kept))


def build_monorepo(tmp):
    monorepo_tree.build(str(tmp), 800)


def build_million(tmp):
    million_tree.build(str(tmp), int(os.environ.get("BENCH_MILLION") or 1_000_000))


BUILDERS = {
    "linux": build_linux,
    "big": build_big,
    "flat": build_flat,
    "deep": build_deep,
    "weird": build_weird,
    "linux-git": build_linux_git,
    "monorepo": build_monorepo,
    "million": build_million,
}
NAMES = list(BUILDERS)


def ensure(name):
    """The tree's directory, built first if it is missing."""
    path = corpora() / name
    if path.is_dir():
        return path
    corpora().mkdir(parents=True, exist_ok=True)
    tmp = corpora() / f"{name}.tmp"
    if tmp.exists():
        shutil.rmtree(tmp)
    say(f"building {name} in {path}")
    BUILDERS[name](tmp)
    tmp.rename(path)
    return path


def main(argv):
    names = argv or ["linux"]
    if any(n in ("-h", "--help") for n in names):
        print(__doc__)
        return
    if "all" in names:
        names = NAMES
    for name in names:
        if name not in BUILDERS:
            sys.exit(f"trees.py: unknown tree {name!r} (one of: {', '.join(NAMES)}, all)")
    for name in names:
        print(ensure(name))


if __name__ == "__main__":
    main(sys.argv[1:])
