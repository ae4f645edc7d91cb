#!/usr/bin/env python3
"""Release archives for every target ffind ships, each checked before it counts.

    python3 .ci/release.py [TARGET ...] [--no-suite]      (`just release`)

builds into target/dist/ ($CARGO_TARGET_DIR/dist/ when that is set), named as fd names its own:

    ffind-VERSION-TARGET.tar.gz   Linux (static, musl), macOS, FreeBSD
    ffind-VERSION-TARGET.zip      Windows
    ffind_VERSION_ARCH.deb        Debian packages of the static Linux builds (cargo-deb)
    SHA256SUMS                    over all of them (`sha256sum -c SHA256SUMS`)

Each archive holds one folder, ffind-VERSION-TARGET/, with the binary, README.md, LICENSE-MIT,
LICENSE-APACHE, CHANGELOG.md, the manual page (ffind.1) and autocomplete/ (bash, zsh, fish,
elvish, PowerShell), as fd's do. The manual and the completions are the texts the archive's own
binary writes (`ffind --gen-man`, `ffind --gen-completions SHELL`), which name its own system's
places and programs: written by that binary (natively, under qemu-user, under Wine) where it runs
here; for Windows on ARM by the x86_64 Windows build under Wine (the texts differ by
`cfg(windows)` only, never by architecture); for macOS and FreeBSD by this machine's own build
told the system (`--gen-system macos`), since among Unix systems they differ only in whether
`--mpi` (Linux's alone) is offered. The committed completions/ and docs/ffind.1 are Linux's. With TARGET names (or FFIND_RELEASE_TARGETS="T1 T2"), only
those are built: `just release aarch64-unknown-linux-musl`.

No archive counts until it is checked (a failed check stops the command, exit 1):
  - every archive: its members, and the binary's format and architecture (`file`); its manual
    and completions are what the unpacked binary itself writes, where it runs here (Linux, and
    Windows x86_64 under Wine);
  - Linux: the binary is static (no interpreter; `ldd` says so), runs in an empty root (chroot
    into a folder holding only it and a small tree, as root), and passes the integration suite
    (tests/integration, through FFIND_TEST_BIN): natively for x86_64 and i686, under qemu-user
    for aarch64 and armv7, which the kernel starts through binfmt_misc (set up here when
    qemu-user-static is installed), and i686 a second time under qemu-i386 (a copy marked for
    an entry of its own: see QEMU_MARK), with fewer rounds of repeated runs and property cases
    under qemu (FFIND_TEST_ROUNDS=25, PROPTEST_CASES=8). The 32-bit targets also run the
    crate's own unit tests built for them (cargo's runner: qemu-arm for armv7; i686 runs
    natively);
  - Windows x86_64: the Windows suite under Wine against the zip's ffind.exe (.ci/windows.sh);
    Windows aarch64: built and `file`-checked only (nothing here runs it);
  - macOS and FreeBSD: built and type-checked (clippy for that target, at this very commit,
    before the build); nothing here runs them. Their `file` format and architecture are checked.
`--no-suite` skips the test suites (the layout, `file`, static and chroot checks still run).

Tools: rustup, cargo-zigbuild and zig (`pip install ziglang cargo-zigbuild`), cargo-deb, and
for the checks qemu-user-static (and binfmt-support), wine64 and mingw-w64 (.ci/windows.sh
installs those), `file`. Missing Debian packages and Python packages are installed when the
command runs as root; otherwise it says what is missing.
"""

import gzip
import hashlib
import io
import os
import platform
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# cargo's target directory: CARGO_TARGET_DIR when set (relative to the clone, from which cargo
# runs), as cargo itself takes it; without this a set CARGO_TARGET_DIR found no binary.
TARGET_DIR = ROOT / os.environ.get("CARGO_TARGET_DIR", "target")
DIST = TARGET_DIR / "dist"

# (target, system, Debian architecture of its .deb or None, what `file` must say)
TARGETS = [
    ("x86_64-unknown-linux-musl", "linux", "amd64", r"ELF 64-bit LSB .*x86-64"),
    ("aarch64-unknown-linux-musl", "linux", "arm64", r"ELF 64-bit LSB .*ARM aarch64"),
    ("armv7-unknown-linux-musleabihf", "linux", "armhf", r"ELF 32-bit LSB .*ARM, EABI5"),
    ("i686-unknown-linux-musl", "linux", "i386", r"ELF 32-bit LSB .*Intel 80386"),
    ("x86_64-pc-windows-gnu", "windows", None, r"PE32\+ executable .*x86-64"),
    ("aarch64-pc-windows-gnullvm", "windows", None, r"PE32\+ executable .*Aarch64"),
    ("x86_64-apple-darwin", "macos", None, r"Mach-O 64-bit .*x86_64"),
    ("aarch64-apple-darwin", "macos", None, r"Mach-O 64-bit .*arm64"),
    ("x86_64-unknown-freebsd", "freebsd", None, r"ELF 64-bit LSB .*x86-64.*FreeBSD"),
]

# The qemu-user emulator of each foreign Linux architecture (its binfmt_misc entry's name).
QEMU = {"aarch64": "qemu-aarch64", "armv7": "qemu-arm"}

COMPLETIONS = ["ffind.bash", "_ffind", "ffind.fish", "ffind.elv", "_ffind.ps1"]
DOCS = ["README.md", "LICENSE-MIT", "LICENSE-APACHE", "CHANGELOG.md"]

CARGO_DEB_VERSION = "3.8.0"


def say(*parts):
    print(*parts, flush=True)


def run(cmd, env=None, cwd=ROOT, capture=False, check=True):
    say("$", " ".join(str(c) for c in cmd))
    full_env = dict(os.environ, **(env or {}))
    r = subprocess.run(
        [str(c) for c in cmd],
        cwd=cwd,
        env=full_env,
        text=True,
        stdout=subprocess.PIPE if capture else None,
    )
    if check and r.returncode != 0:
        raise SystemExit(f"release: failed ({r.returncode}): {' '.join(str(c) for c in cmd)}")
    return r.stdout if capture else r.returncode


def fail(message):
    raise SystemExit(f"release: {message}")


def version():
    text = (ROOT / "Cargo.toml").read_text()
    return re.search(r'^version = "([^"]+)"', text, re.M).group(1)


def msrv():
    text = (ROOT / "Cargo.toml").read_text()
    return re.search(r'^rust-version = "([^"]+)"', text, re.M).group(1)


def is_root():
    return hasattr(os, "geteuid") and os.geteuid() == 0


def apt_install(*packages):
    if not is_root():
        fail(f"missing Debian packages {' '.join(packages)}: install them (as root) and run again")
    run(["apt-get", "update", "-qq"])
    run(["apt-get", "install", "-y", "-qq", *packages], env={"DEBIAN_FRONTEND": "noninteractive"})


def ensure_tools(targets, suites):
    if not shutil.which("file"):
        apt_install("file")
    # Wine runs the Windows build for its archive's texts (and its suite): .ci/windows.sh's tools.
    if any(t[1] == "windows" for t in targets) and not (Path("/usr/lib/wine/wine64").exists() or shutil.which("wine64")):
        apt_install("wine", "wine64")
    if any(t[0] != "x86_64-pc-windows-gnu" for t in targets) and not shutil.which("cargo-zigbuild"):
        run([sys.executable, "-m", "pip", "install", "-q", "ziglang", "cargo-zigbuild"])
        # pip puts commands beside this Python's own (or in ~/.local/bin for a user install).
        for scripts in (sysconfig.get_path("scripts"), sysconfig.get_path("scripts", f"{os.name}_user")):
            if scripts and scripts not in os.environ["PATH"].split(os.pathsep):
                os.environ["PATH"] += os.pathsep + scripts
        if not shutil.which("cargo-zigbuild"):
            fail("cargo-zigbuild is not on PATH after `pip install ziglang cargo-zigbuild`")
    if any(t[2] for t in targets):
        out = subprocess.run(["cargo", "deb", "--version"], capture_output=True, text=True)
        if CARGO_DEB_VERSION not in out.stdout:
            run(["cargo", "install", "cargo-deb", "--version", CARGO_DEB_VERSION, "--locked", "--quiet"])
    if any(t[0].startswith("x86_64-pc-windows") for t in targets) and not shutil.which("x86_64-w64-mingw32-gcc"):
        apt_install("gcc-mingw-w64-x86-64")
    foreign = [t for t in targets if t[1] == "linux" and arch_of(t[0]) in QEMU]
    i386 = suites and any(arch_of(t[0]) == "i686" for t in targets)
    if foreign or i386:
        if not shutil.which("qemu-aarch64-static"):
            apt_install("qemu-user-static", "binfmt-support")
        binfmt(sorted({QEMU[arch_of(t[0])] for t in foreign}))


def binfmt(emulators):
    """The kernel starts foreign binaries through qemu-user (binfmt_misc), so that the suite's
    tests, which spawn the binary themselves, need no wrapper, as `cross` arranges."""
    entries = Path("/proc/sys/fs/binfmt_misc")
    if not (entries / "status").exists():
        if not is_root():
            fail("binfmt_misc is not mounted: `mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc` as root")
        run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(entries)])
    for name in emulators:
        if not (entries / name).exists():
            if not is_root():
                fail(f"no binfmt_misc entry {name}: `update-binfmts --enable {name}` as root")
            run(["update-binfmts", "--enable", name])
        if "enabled" not in (entries / name).read_text():
            fail(f"the binfmt_misc entry {name} is disabled")


# The i686 archive's suite runs a second time under qemu-i386, as people run an i386 binary
# where the kernel has no 32-bit x86 support: qemu-user gives such a guest system calls of its
# own (getdents64's records padded to 4 bytes, not 8, once lost the last entry of every
# directory). This kernel runs an i386 binary itself, and an entry for every i386 binary would
# take the machine's own too, so the entry registered here matches only a copy of the archive's
# binary marked in the padding of its ELF identification (e_ident[9:13], which the kernel and
# qemu ignore); the suite's fixture (fixture::emulated) reads the same mark.
QEMU_MARK = b"qemu"
I386_ENTRY = "ffind-qemu-i386"


def marked_for_qemu(binary, into):
    """A copy of the i386 BINARY in INTO, named as it is, carrying QEMU_MARK."""
    data = bytearray(Path(binary).read_bytes())
    if data[:5] != b"\x7fELF\x01" or data[18:20] != b"\x03\x00" or any(data[8:16]):
        fail(f"{binary} is not a 32-bit x86 ELF binary with a blank identification padding")
    data[9 : 9 + len(QEMU_MARK)] = QEMU_MARK
    copy = Path(into) / Path(binary).name
    copy.write_bytes(bytes(data))
    copy.chmod(0o755)
    return copy


def register_i386_entry():
    """The binfmt_misc entry that starts QEMU_MARK's i386 binaries with qemu-i386-static (F: the
    interpreter opened now, as the distribution's entries are)."""
    entries = Path("/proc/sys/fs/binfmt_misc")
    if (entries / I386_ENTRY).exists():
        if "enabled" not in (entries / I386_ENTRY).read_text():
            fail(f"the binfmt_misc entry {I386_ENTRY} is disabled")
        return
    if not is_root():
        fail(f"registering the binfmt_misc entry {I386_ENTRY} needs root")
    qemu = shutil.which("qemu-i386-static")
    if not qemu:
        apt_install("qemu-user-static")
        qemu = shutil.which("qemu-i386-static") or fail("no qemu-i386-static after installing qemu-user-static")
    # ELF, 32-bit, little-endian, version 1, any OS ABI, ABI version 0, the mark, zeros, an
    # executable or a position-independent one (2 or 3), Intel 80386.
    magic = b"\x7fELF\x01\x01\x01\x00\x00" + QEMU_MARK + b"\x00" * (7 - len(QEMU_MARK)) + b"\x02\x00\x03\x00"
    mask = b"\xff" * 7 + b"\x00" + b"\xff" * 8 + b"\xfe\xff\xff\xff"
    hexed = lambda bs: "".join(f"\\x{b:02x}" for b in bs)
    say(f"$ register binfmt_misc entry {I386_ENTRY}: marked i386 binaries through {qemu}")
    (entries / "register").write_text(f":{I386_ENTRY}:M::{hexed(magic)}:{hexed(mask)}:{qemu}:F")


def arch_of(target):
    return target.split("-")[0]


def toolchain_for(target):
    """The toolchain whose standard library for TARGET rustup can fetch: the default one, or the
    minimum supported Rust (Cargo.toml's rust-version, which CI builds everything with) when the
    default's is not to be had (some mirrors lack a tier-2 library of a given release)."""
    if run(["rustup", "target", "add", target], check=False) == 0:
        return None
    fallback = msrv()
    say(f"release: the default toolchain's standard library for {target} is not available; building it with rust {fallback} (rust-version)")
    run(["rustup", "toolchain", "install", fallback, "--profile", "minimal"])
    run(["rustup", "target", "add", "--toolchain", fallback, target])
    return fallback


# The 32-bit Linux targets link Rust's own musl (the target's self-contained libc.a) with
# rust-lld, not zig's: the libc crate calls musl's 32-bit-time entry points (`wait4`, `stat`,
# ...), which Rust's musl keeps under those names for old binaries, while zig's musl gives them
# its 64-bit-time layouts, so that a child's resource usage read back as zeros (`--bench`'s
# user and system times and peak memory).
LLD_LINKED = ("i686-unknown-linux-musl", "armv7-unknown-linux-musleabihf")


def lld_env(target, env=None):
    var = "CARGO_TARGET_" + target.upper().replace("-", "_") + "_LINKER"
    return dict(env or {}, **{var: "rust-lld"})


def cargo(toolchain, *args):
    return ["cargo", *([f"+{toolchain}"] if toolchain else []), *args]


def build(target, system, toolchain):
    if system != "linux" and system != "windows":
        # macOS and FreeBSD are not run here: what is built is what clippy checked, at this
        # commit, for that very target.
        run(cargo(toolchain, "clippy", "--all-targets", "--locked", "--target", target, "--", "-D", "warnings"))
    if target == "x86_64-pc-windows-gnu":
        run(cargo(toolchain, "build", "--release", "--locked", "--target", target))
    elif target in LLD_LINKED:
        run(cargo(toolchain, "build", "--release", "--locked", "--target", target), env=lld_env(target))
    else:
        # zig links every other target: musl's static libc for 64-bit Linux, and macOS,
        # FreeBSD and Windows on ARM without their SDKs.
        run(cargo(toolchain, "zigbuild", "--release", "--locked", "--target", target))
    exe = "ffind.exe" if system == "windows" else "ffind"
    binary = TARGET_DIR / target / "release" / exe
    if not binary.is_file():
        fail(f"no binary at {binary}")
    return binary


def sources(system, binary, texts=None):
    """The archive's members: (name in the archive, file, mode). TEXTS is the folder holding the
    manual and the completions its binary writes (`texts`); None lists the names only."""
    exe = "ffind.exe" if system == "windows" else "ffind"
    texts = Path(texts) if texts else Path("/nonexistent")
    pairs = [(exe, binary, 0o755)]
    pairs += [(d, ROOT / d, 0o644) for d in DOCS]
    pairs.append(("ffind.1", texts / "ffind.1", 0o644))
    pairs += [(f"autocomplete/{c}", texts / c, 0o644) for c in COMPLETIONS]
    return pairs


# The shell each completion script is written for (`ffind --gen-completions SHELL`).
SHELLS = dict(zip(COMPLETIONS, ["bash", "zsh", "fish", "elvish", "powershell"]))


def runs_here(target):
    """Whether this machine runs TARGET's binary: Linux natively or under qemu-user (binfmt_misc),
    x86_64 Windows under Wine."""
    return target.endswith("-linux-musl") or target.endswith("-linux-musleabihf") or target == "x86_64-pc-windows-gnu"


def command_of(target, binary):
    """How BINARY, built for TARGET, is started here."""
    if target == "x86_64-pc-windows-gnu":
        return [str(ROOT / ".ci" / "wine" / "runner"), str(binary)]
    return [str(binary)]


def written_texts(cmd, system=None):
    """The manual and the completion scripts that the ffind started by CMD writes (for SYSTEM,
    `--gen-system`, when given), by member name."""
    texts = {}
    told = ["--gen-system", system] if system else []
    for member, args in [("ffind.1", ["--gen-man"])] + [(c, ["--gen-completions", sh, *told]) for c, sh in SHELLS.items()]:
        r = subprocess.run([*cmd, *args], cwd=ROOT, capture_output=True)
        if r.returncode != 0 or not r.stdout or r.stderr:
            fail(f"{' '.join(cmd + args)}: exit {r.returncode}, said {r.stderr.decode(errors='replace')!r}")
        texts[member] = r.stdout
    return texts


def texts_for(target, system, binary, toolchain):
    """The manual and completions of TARGET's archive: written by its binary where it runs here;
    Windows on ARM's by the x86_64 Windows build under Wine (the texts depend on cfg(windows),
    not on the architecture); macOS's and FreeBSD's by this machine's build told the system
    (`--gen-system`: among Unix systems the texts differ only in whether --mpi is offered)."""
    if runs_here(target):
        say(f"texts: written by the {target} binary itself")
        return written_texts(command_of(target, binary))
    if system == "windows":
        x86 = "x86_64-pc-windows-gnu"
        run(cargo(toolchain, "build", "--release", "--locked", "--target", x86))
        say(f"texts: written by the {x86} build under Wine (the same cfg(windows) texts)")
        return written_texts(command_of(x86, TARGET_DIR / x86 / "release" / "ffind.exe"))
    run(["cargo", "build", "--locked"])
    say(f"texts: written by this machine's build for {system} (--gen-system {system})")
    return written_texts([str(TARGET_DIR / "debug" / "ffind")], system)


def write_texts(texts, into):
    for member, data in texts.items():
        (Path(into) / member).write_bytes(data)


def check_texts(unpacked, target):
    """The archive's manual and completions are what its own binary writes (for a target that
    runs here): a Windows archive must not carry Linux's texts."""
    if not runs_here(target):
        say(f"not run here: {target}'s texts are not checked against its binary")
        return
    folder = Path(unpacked).parent
    for member, data in written_texts(command_of(target, unpacked)).items():
        path = folder / ("ffind.1" if member == "ffind.1" else f"autocomplete/{member}")
        if path.read_bytes() != data:
            fail(f"{path.relative_to(folder.parent)} is not what {Path(unpacked).name} writes ({' '.join(['--gen-man'] if member == 'ffind.1' else ['--gen-completions', SHELLS[member]])})")
    say(f"ok: ffind.1 and autocomplete/ are what the archive's {Path(unpacked).name} writes")


def source_date():
    """The commit's time, for every member's time: the same commit gives the same archive."""
    out = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=ROOT, capture_output=True, text=True)
    return int(out.stdout.strip() or "0")


def archive(target, system, binary, stamp, texts):
    name = f"ffind-{version()}-{target}"
    pairs = sources(system, binary, texts)
    for _, path, _ in pairs:
        if not path.is_file():
            fail(f"{path} is missing")
    if system == "windows":
        out = DIST / f"{name}.zip"
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            for member, path, mode in pairs:
                info = zipfile.ZipInfo(f"{name}/{member}", time.gmtime(max(stamp, 315532800))[:6])
                info.external_attr = (0o100000 | mode) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, path.read_bytes())
        return out
    out = DIST / f"{name}.tar.gz"
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        dirs = sorted({f"{name}"} | {f"{name}/{m.rsplit('/', 1)[0]}" for m, _, _ in pairs if "/" in m})
        for d in dirs:
            info = tarfile.TarInfo(d)
            info.type, info.mode, info.mtime = tarfile.DIRTYPE, 0o755, stamp
            tar.addfile(info)
        for member, path, mode in pairs:
            data = path.read_bytes()
            info = tarfile.TarInfo(f"{name}/{member}")
            info.size, info.mode, info.mtime = len(data), mode, stamp
            tar.addfile(info, io.BytesIO(data))
    with open(out, "wb") as f, gzip.GzipFile(fileobj=f, mode="wb", mtime=stamp, filename="") as gz:
        gz.write(raw.getvalue())
    return out


def deb(target, arch, stamp):
    out = DIST / f"ffind_{version()}_{arch}.deb"
    # Built already (zigbuild); cargo-deb reads target/TARGET/release/ffind for the asset
    # written target/release/ffind, and names the architecture from the target.
    run(
        ["cargo", "deb", "--locked", "--no-build", "--no-strip", "--target", target, "--output", out],
        env={"SOURCE_DATE_EPOCH": str(stamp)},
    )
    info = run(["dpkg-deb", "--field", out, "Architecture", "Depends"], capture=True)
    if f"Architecture: {arch}" not in info:
        fail(f"{out.name}: the architecture is not {arch}:\n{info}")
    if "Depends:" in info and re.search(r"Depends: \S", info):
        fail(f"{out.name} depends on packages, but its binary is static:\n{info}")
    return out


def check_layout(path, target, system):
    name = f"ffind-{version()}-{target}"
    want = sorted(f"{name}/{m}" for m, _, _ in sources(system, None))
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as z:
            got = sorted(n for n in z.namelist() if not n.endswith("/"))
            modes = {n: (z.getinfo(n).external_attr >> 16) & 0o777 for n in got}
    else:
        with tarfile.open(path) as t:
            got = sorted(m.name for m in t.getmembers() if m.isfile())
            modes = {m.name: m.mode for m in t.getmembers() if m.isfile()}
    if got != want:
        fail(f"{path.name} holds {got}, not {want}")
    exe = f"{name}/ffind.exe" if system == "windows" else f"{name}/ffind"
    if modes[exe] & 0o111 != 0o111:
        fail(f"{path.name}: {exe} is not executable ({oct(modes[exe])})")
    say(f"ok: {path.name} holds the binary, {', '.join(DOCS)}, ffind.1 and autocomplete/ ({len(COMPLETIONS)} shells)")


def extract(path, into):
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as z:
            z.extractall(into)
        exe = next(into.glob("*/ffind.exe"))
        exe.chmod(0o755)
        return exe
    with tarfile.open(path) as t:
        t.extractall(into, filter="data") if hasattr(tarfile, "data_filter") else t.extractall(into)
    return next(into.glob("*/ffind"))


def check_file(binary, pattern, system):
    kind = subprocess.run(["file", "-b", binary], capture_output=True, text=True).stdout.strip()
    if not re.search(pattern, kind):
        fail(f"{binary}: `file` says {kind!r}, not /{pattern}/")
    say(f"ok: file: {kind}")
    if system == "linux":
        if "statically linked" not in kind and "static-pie linked" not in kind:
            fail(f"{binary} is not static: {kind}")
        ldd = subprocess.run(["ldd", binary], capture_output=True, text=True)
        said = (ldd.stdout + ldd.stderr).strip()
        if "not a dynamic executable" not in said and "statically linked" not in said:
            fail(f"ldd {binary}: {said}")
        say(f"ok: ldd: {said}")


def check_signature(binary):
    """macOS on Apple silicon starts no unsigned program: the linker's ad-hoc signature
    (LC_CODE_SIGNATURE, load command 0x1d) must be there."""
    data = Path(binary).read_bytes()
    if data[:4] != bytes.fromhex("cffaedfe"):
        fail(f"{binary} is not a 64-bit little-endian Mach-O")
    ncmds = int.from_bytes(data[16:20], "little")
    at = 32
    for _ in range(ncmds):
        cmd, size = int.from_bytes(data[at : at + 4], "little"), int.from_bytes(data[at + 4 : at + 8], "little")
        if cmd == 0x1D:
            say("ok: the Mach-O binary carries a code signature (LC_CODE_SIGNATURE), as Apple silicon requires")
            return
        at += size
    fail(f"{binary} has no code signature: macOS on Apple silicon would kill it at start")


def check_chroot(binary):
    """In an empty root: only the binary and a small tree; no libc, no /proc, no /dev."""
    if not is_root():
        say("skipped: the empty-root run needs root (chroot)")
        return
    chroot = shutil.which("chroot") or "/usr/sbin/chroot"
    with tempfile.TemporaryDirectory(prefix="ffind-chroot-") as d:
        root = Path(d)
        shutil.copy2(binary, root / "ffind")
        for rel in ["tree/a.txt", "tree/sub/b.rs", "tree/sub/deeper/c.rs"]:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text("x\n")
        got = subprocess.run(
            [chroot, root, "/ffind", "-u", ".", "/tree"], capture_output=True, text=True, env={"PATH": "/"}
        )
        want = ["/tree/a.txt", "/tree/sub/", "/tree/sub/b.rs", "/tree/sub/deeper/", "/tree/sub/deeper/c.rs"]
        lines = sorted(got.stdout.split("\n")[:-1])
        if got.returncode != 0 or lines != want:
            fail(f"in an empty root: exit {got.returncode}, printed {lines}, said {got.stderr!r}; wanted {want}")
        ext = subprocess.run(
            [chroot, root, "/ffind", "-e", "rs", "--format", "{/}", ".", "/tree"],
            capture_output=True,
            text=True,
            env={"PATH": "/"},
        )
        if ext.returncode != 0 or sorted(ext.stdout.split()) != ["b.rs", "c.rs"]:
            fail(f"in an empty root, -e rs: exit {ext.returncode}, printed {ext.stdout!r}, said {ext.stderr!r}")
    say("ok: runs in an empty root (chroot: the binary and a tree, nothing else)")


# Under qemu-user every start of ffind costs a tenth of a second of translation, and the suite
# starts it about 11,000 times: there the tests that repeat a run to catch a race make a quarter
# of their rounds (fixture::rounds), and the property tests 8 cases each, unless the caller's
# environment says otherwise (FFIND_TEST_ROUNDS=100 for all). The native runs keep every round
# and their default cases.
EMULATED_SUITE = {"FFIND_TEST_ROUNDS": "25", "PROPTEST_CASES": "8"}


def integration(binary, emulated):
    env = {"FFIND_TEST_BIN": str(binary)}
    if emulated:
        env.update({k: os.environ.get(k) or v for k, v in EMULATED_SUITE.items()})
        say("under qemu: " + " ".join(f"{k}={env[k]}" for k in EMULATED_SUITE))
    t0 = time.monotonic()
    run(["cargo", "test", "--locked", "--test", "integration"], env=env)
    say(f"ok: the integration suite{' under qemu' if emulated else ''}: {time.monotonic() - t0:.0f} s")


def suite(target, binary, toolchain):
    arch = arch_of(target)
    integration(binary, arch in QEMU)
    if arch == "i686":
        register_i386_entry()
        with tempfile.TemporaryDirectory(prefix="ffind-qemu-i386-") as d:
            integration(marked_for_qemu(binary, d), True)
    if arch in ("i686", "armv7"):
        # The crate's own unit tests built for the 32-bit target, as `cross` runs them: the
        # memo's offsets and sizes past 4 GiB with a 32-bit usize. qemu-arm runs armv7 (its
        # binfmt entry); i686 runs on this x86_64 kernel as it is.
        var = "CARGO_TARGET_" + target.upper().replace("-", "_") + "_RUNNER"
        runner = {var: "qemu-arm-static"} if arch == "armv7" else {}
        skip = []
        if arch == "armv7":
            # qemu-arm (7.2) reports the SIGBUS of a read past the end of a file cut short
            # while mapped with the next page's address (a C program shows it; aarch64 and
            # x86 give the page read), so no handler can tell the fault is its own.
            say("skipped under qemu-arm: fs::mapped's file cut short while mapped (its SIGBUS names the wrong page)")
            skip = ["--", "--skip", "fs::mapped::tests::a_file_cut_short_while_mapped_reads_as_zeros"]
        run(cargo(toolchain, "test", "--locked", "--bins", "--target", target, *skip), env=lld_env(target, runner))


def windows_suite(exe):
    # .ci/windows.sh: the wine prefix, fd's Windows build to compare with, the links the
    # suite needs, and the suite, one test at a time, against this exe.
    run(["bash", ".ci/windows.sh"], env={"FFIND_TEST_BIN": str(exe), "FFIND_WINDOWS_SUITE_ONLY": "1"})


def chosen(args):
    names = [a for a in args if not a.startswith("-")] or os.environ.get("FFIND_RELEASE_TARGETS", "").split()
    known = {t[0]: t for t in TARGETS}
    for n in names:
        if n not in known:
            fail(f"unknown target {n}; the targets are: {', '.join(known)}")
    return [known[n] for n in names] if names else TARGETS


def main(args):
    if "-h" in args or "--help" in args:
        print(__doc__)
        return 0
    unknown = [a for a in args if a.startswith("-") and a != "--no-suite"]
    if unknown:
        fail(f"unknown option {unknown[0]} (see --help)")
    suites = "--no-suite" not in args
    targets = chosen(args)
    if platform.system() != "Linux" or platform.machine() != "x86_64":
        fail("releases are built on Linux x86_64")
    started = time.monotonic()
    ensure_tools(targets, suites)
    stamp = source_date()
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    DIST.mkdir(parents=True, exist_ok=True)
    rows = []
    for target, system, arch, pattern in targets:
        t0 = time.monotonic()
        say(f"\n== {target}")
        toolchain = toolchain_for(target)
        binary = build(target, system, toolchain)
        check_file(binary, pattern, system)
        with tempfile.TemporaryDirectory(prefix="ffind-texts-") as texts:
            write_texts(texts_for(target, system, binary, toolchain), texts)
            out = archive(target, system, binary, stamp, texts)
        check_layout(out, target, system)
        made = [out]
        with tempfile.TemporaryDirectory(prefix="ffind-release-") as d:
            unpacked = extract(out, Path(d))
            check_file(unpacked, pattern, system)
            check_texts(unpacked, target)
            if system == "linux":
                check_chroot(unpacked)
                if suites:
                    suite(target, unpacked, toolchain)
            elif target == "x86_64-pc-windows-gnu" and suites:
                windows_suite(unpacked)
            else:
                if target == "aarch64-apple-darwin":
                    check_signature(unpacked)
                say(f"not run here: {target} is built and type-checked only")
        if arch:
            made.append(deb(target, arch, stamp))
        rows.append((target, made, time.monotonic() - t0))
    sums = []
    for f in sorted(DIST.iterdir()):
        if f.name != "SHA256SUMS" and f.is_file() and (f.suffix in (".gz", ".zip", ".deb")):
            sums.append(f"{hashlib.sha256(f.read_bytes()).hexdigest()}  {f.name}\n")
    (DIST / "SHA256SUMS").write_text("".join(sums))
    say(f"\n== {DIST.relative_to(ROOT) if DIST.is_relative_to(ROOT) else DIST} (commit {commit[:12]}{', with uncommitted changes' if dirty else ''})")
    for target, made, took in rows:
        for f in made:
            say(f"{f.stat().st_size / 1e6:8.2f} MB  {f.name}")
        say(f"{'':13}{target}: {took:.0f} s")
    say(f"SHA256SUMS: {len(sums)} files; in all {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
