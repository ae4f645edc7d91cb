#!/usr/bin/env python3
"""The tools ffind is measured against, and the floor: installs what is missing, prints where.

    python3 benches/peers.py [PEER...]     (default: fd floor hyperfine bfs find time)

PEER is one of
  fd         the latest fd-find, built from crates.io: `cargo install --locked fd-find --root
             $FFIND_PEERS` (a few minutes the first time), into $FFIND_PEERS/bin/fd
  fd-windows fd's own Windows build, the reference ffind.exe is compared with under Wine
             (.ci/windows.sh): fd-find 10.4.2 (the newest 10.4) cross-compiled with
             `cargo install --locked fd-find --version 10.4.2 --target x86_64-pc-windows-gnu
             --root $FFIND_PEERS/windows` into $FFIND_PEERS/windows/bin/fd.exe; adds the rustup
             target and Debian's mingw-w64 linker (gcc-mingw-w64-x86-64) when missing. Never
             installed by default; run it with .ci/wine/runner (after .ci/wine/setup.sh)
  floor      benches/floor/floor.c compiled with `cc -O2 -pthread` into $FFIND_PEERS/bin/floor
             (again whenever floor.c is newer)
  hyperfine  Debian's hyperfine;  bfs: Debian's bfs (2.x);  find: GNU findutils;
  time       GNU time (/usr/bin/time, for max RSS), all through apt-get (as root)
  dfind      mpifileutils' dfind, for `bench.py mpi`: never installed by default. Debian has no
             package of it; it is looked for at $DFIND, $FFIND_PEERS/mpi/bin/dfind and on PATH,
             and built from source when $MPIFILEUTILS_SRC names a directory holding checkouts
             of libcircle, lwgrp, dtcmp and mpifileutils (Open MPI from Debian)
  bfs4       bfs 4 with io_uring, beside Debian's 2.x: never installed by default (bench.py
             adds it to the side, first and order suites when it is there). Looked for at $BFS4
             and $FFIND_PEERS/bin/bfs4, and built from source when $BFS_SRC names a checkout of
             bfs (tag 4.x) and $LIBURING_SRC one of liburing (2.4 or later: Debian bookworm's
             2.3 lacks io_uring_enable_rings): liburing into $FFIND_PEERS/uring (its
             liburing.pc too), bfs's `./configure --enable-release` against it through
             pkg-config, bin/bfs copied to $FFIND_PEERS/bin/bfs4. A bfs4 that links no liburing
             (`ldd`, `bfs --version`'s LDLIBS) is refused, found or built

$FFIND_PEERS defaults to ~/.cache/ffind-peers. Prints that directory on stdout (its bin/ holds
fd and floor, its windows/bin/ fd.exe); progress goes to stderr. Exits 1 naming what could not
be installed.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FLOOR_SRC = HERE / "floor" / "floor.c"
DEFAULT = ("fd", "floor", "hyperfine", "bfs", "find", "time")
APT = {"hyperfine": "hyperfine", "bfs": "bfs", "find": "findutils", "time": "time"}


def root():
    return Path(os.environ.get("FFIND_PEERS") or Path.home() / ".cache" / "ffind-peers")


def say(msg):
    print(f"peers: {msg}", file=sys.stderr, flush=True)


def apt_install(packages):
    """apt-get install, with one `apt-get update` first if the lists do not know a package."""
    cmd = ["apt-get", "install", "-y", "-qq", *packages]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    if subprocess.run(cmd, **quiet).returncode == 0:
        return True
    subprocess.run(["apt-get", "update", "-qq"], **quiet)
    return subprocess.run(cmd, **quiet).returncode == 0


def on_path(name):
    """Where a Debian peer lives: GNU time is /usr/bin/time, not the shell's keyword."""
    if name == "time":
        return "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
    return shutil.which(name)


def debian_peer(name):
    if on_path(name):
        return on_path(name)
    say(f"apt-get install {APT[name]}")
    apt_install([APT[name]])
    return on_path(name)


def fd():
    dest = root()
    binary = dest / "bin" / "fd"
    if not os.access(binary, os.X_OK):
        say(f"cargo install --locked fd-find --root {dest} (minutes the first time)")
        subprocess.run(
            ["cargo", "install", "--quiet", "--locked", "fd-find", "--root", str(dest)],
            stdout=subprocess.DEVNULL,
            check=False,
        )
    return str(binary) if os.access(binary, os.X_OK) else None


FD_WINDOWS_VERSION = "10.4.2"
WINDOWS_TARGET = "x86_64-pc-windows-gnu"


def fd_windows():
    dest = root() / "windows"
    binary = dest / "bin" / "fd.exe"
    record = dest / ".crates.toml"

    def installed():
        """fd.exe there, of this version by cargo install's record (another is installed over)."""
        wanted = f'"fd-find {FD_WINDOWS_VERSION} '
        return binary.is_file() and record.is_file() and wanted in record.read_text()

    if installed():
        return str(binary)
    if not shutil.which("x86_64-w64-mingw32-gcc"):
        say("apt-get install gcc-mingw-w64-x86-64 (the linker of the Windows target)")
        apt_install(["gcc-mingw-w64-x86-64"])
    if shutil.which("rustup"):
        say(f"rustup target add {WINDOWS_TARGET}")
        subprocess.run(["rustup", "target", "add", WINDOWS_TARGET], stdout=subprocess.DEVNULL)
    say(f"cargo install --locked fd-find --version {FD_WINDOWS_VERSION} --target {WINDOWS_TARGET} "
        f"--root {dest} (minutes the first time)")
    subprocess.run(
        ["cargo", "install", "--quiet", "--locked", "fd-find", "--version", FD_WINDOWS_VERSION,
         "--target", WINDOWS_TARGET, "--root", str(dest)],
        stdout=subprocess.DEVNULL,
        check=False,
    )
    return str(binary) if installed() else None


def floor():
    binary = root() / "bin" / "floor"
    fresh = binary.exists() and binary.stat().st_mtime >= FLOOR_SRC.stat().st_mtime
    if not fresh:
        binary.parent.mkdir(parents=True, exist_ok=True)
        say(f"cc -O2 -pthread {FLOOR_SRC} -o {binary}")
        tmp = binary.with_suffix(".tmp")
        if subprocess.run(["cc", "-O2", "-pthread", "-o", str(tmp), str(FLOOR_SRC)]).returncode:
            return None
        tmp.replace(binary)
    return str(binary)


def dfind():
    for candidate in (os.environ.get("DFIND"), root() / "mpi" / "bin" / "dfind", shutil.which("dfind")):
        if candidate and os.access(candidate, os.X_OK):
            return str(candidate)
    src = os.environ.get("MPIFILEUTILS_SRC")
    if not src:
        say("dfind: not found; set DFIND to a built dfind, or MPIFILEUTILS_SRC to build one")
        return None
    return build_dfind(Path(src), root() / "mpi")


def build_dfind(src, prefix):
    """mpifileutils from checkouts under SRC (libcircle, lwgrp, dtcmp, mpifileutils), each
    installed into PREFIX, against Debian's Open MPI (openmpi-bin libopenmpi-dev), with
    autotools, cmake and libarchive/libattr/libbz2 from Debian."""
    if not apt_install(["openmpi-bin", "libopenmpi-dev", "autoconf", "automake", "libtool",
                        "pkg-config", "cmake", "libarchive-dev", "libattr1-dev", "libbz2-dev",
                        "libssl-dev"]):
        say("dfind: could not install the build dependencies")
        return None
    env = dict(os.environ, CC="mpicc", PKG_CONFIG_PATH=str(prefix / "lib" / "pkgconfig"))

    def sh(cmd, cwd):
        say(f"dfind: {cmd} (in {cwd})")
        return subprocess.run(cmd, shell=True, cwd=cwd, env=env).returncode == 0

    p = str(prefix)
    steps = [
        ("libcircle", f"sh autogen.sh && ./configure --prefix={p} && make -j2 install"),
        ("lwgrp", f"sh autogen.sh; ./configure --prefix={p} && make -j2 install"),
        ("dtcmp", f"sh autogen.sh; ./configure --prefix={p} --with-lwgrp={p} && make -j2 install"),
        ("mpifileutils", f"mkdir -p build && cd build && cmake .. -DCMAKE_INSTALL_PREFIX={p} "
         f"-DWITH_DTCMP_PREFIX={p} -DWITH_LibCircle_PREFIX={p} -DENABLE_XATTRS=OFF "
         "&& make -j2 install"),
    ]
    for name, cmd in steps:
        if not sh(cmd, src / name):
            say(f"dfind: building {name} failed")
            return None
    binary = prefix / "bin" / "dfind"
    return str(binary) if os.access(binary, os.X_OK) else None


def io_uring_linked(binary):
    """Whether the bfs at `binary` was built with io_uring: `ldd` lists liburing (a shared
    link), or `bfs --version`'s LDLIBS names -luring (a static one)."""
    ldd = subprocess.run(["ldd", str(binary)], capture_output=True, text=True)
    if "liburing" in ldd.stdout:
        return True
    version = subprocess.run([str(binary), "--version"], capture_output=True, text=True)
    return any(line.startswith("LDLIBS") and "-luring" in line for line in version.stdout.splitlines())


def found_bfs4():
    """A bfs 4 built with io_uring at $BFS4 or $FFIND_PEERS/bin/bfs4, or None. One without
    io_uring is refused (named on stderr): it is not the peer the tables call bfs 4 (io_uring)."""
    for candidate in (os.environ.get("BFS4"), root() / "bin" / "bfs4"):
        if not (candidate and os.access(candidate, os.X_OK)):
            continue
        if io_uring_linked(candidate):
            return str(candidate)
        say(f"bfs4: {candidate} does not link liburing (ldd, --version): not bfs 4 with io_uring")
    return None


def bfs4():
    if found := found_bfs4():
        return found
    bfs_src, uring_src = os.environ.get("BFS_SRC"), os.environ.get("LIBURING_SRC")
    if not (bfs_src and uring_src):
        say("bfs4: not found; set BFS4 to a built bfs 4, or BFS_SRC and LIBURING_SRC to build one")
        return None
    if not apt_install(["libacl1-dev", "libcap-dev", "libonig-dev", "pkg-config"]):
        say("bfs4: could not install the build dependencies")
        return None
    uring = root() / "uring"

    def sh(cmd, cwd):
        say(f"bfs4: {cmd} (in {cwd})")
        return subprocess.run(cmd, shell=True, cwd=cwd).returncode == 0

    # liburing's top-level `make install` writes lib/pkgconfig/liburing.pc (`make -C src
    # install` does not), and bfs's configure finds liburing only through pkg-config: without
    # it, bfs builds without io_uring and says nothing.
    pc = uring / "lib" / "pkgconfig"
    rpath = f'LDFLAGS="-Wl,-rpath,{uring}/lib"'
    steps = [
        (uring_src, f"./configure --prefix={uring} && make -j2 -C src && make install"),
        (bfs_src, f"make distclean >/dev/null 2>&1; PKG_CONFIG_PATH={pc} ./configure --enable-release {rpath} && make -j2"),
    ]
    for cwd, cmd in steps:
        if not sh(cmd, cwd):
            say(f"bfs4: building in {cwd} failed")
            return None
    built = Path(bfs_src) / "bin" / "bfs"
    if not io_uring_linked(built):
        say(f"bfs4: {built} was built without liburing (gen/config.h: BFS_WITH_LIBURING false)")
        return None
    binary = root() / "bin" / "bfs4"
    binary.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(built, binary)
    return str(binary)


INSTALLERS = {"fd": fd, "fd-windows": fd_windows, "floor": floor, "dfind": dfind, "bfs4": bfs4}


def ensure(names=DEFAULT):
    """Installs the named peers; returns {name: path or None}."""
    found = {}
    for name in names:
        found[name] = INSTALLERS[name]() if name in INSTALLERS else debian_peer(name)
    return found


def main(argv):
    names = argv or list(DEFAULT)
    unknown = [n for n in names if n not in INSTALLERS and n not in APT and not n.startswith("-")]
    if "-h" in names or "--help" in names:
        print(__doc__)
        return
    if unknown:
        sys.exit(f"peers.py: unknown peer {unknown[0]!r}\n\n{__doc__}")
    found = ensure(names)
    missing = [n for n, p in found.items() if not p]
    for name, path in found.items():
        say(f"{name}: {path or 'MISSING'}")
    print(root())
    if missing:
        sys.exit(f"peers.py: could not install {', '.join(missing)}")


if __name__ == "__main__":
    main(sys.argv[1:])
