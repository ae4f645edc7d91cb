#!/usr/bin/env python3
"""Ctrl-C under Wine: ffind.exe, started on a terminal (a pseudo-terminal, which Wine gives the
program as its console) and walking a tree, is sent a Ctrl-C once its first results are shown;
it must end within 20 s, under every method, however its threads stood (a process that ended
under jwalk's workers hung in Wine's exit, docs/WINDOWS.md). The Windows suite cannot make this
check itself: a program Wine starts without a terminal has no console (AllocConsole and
GenerateConsoleCtrlEvent fail there).

Usage: .ci/wine/ctrl_c.py FFIND_EXE [ROUNDS]  (ROUNDS for jwalk and rayon, default 10; 2 for
the others). Exits 1 on a hang, after killing it."""
import os, pty, select, shutil, signal, subprocess, sys, tempfile, time

exe = os.path.abspath(sys.argv[1])
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
runner = os.path.join(os.path.dirname(os.path.abspath(__file__)), "runner")
methods = subprocess.run([runner, exe, "--list-methods"], capture_output=True, text=True,
                         check=True).stdout.split("\n")
methods = [line.split("\t")[0] for line in methods if line and not line.startswith("auto")]
assert "jwalk" in methods, methods

tree = tempfile.mkdtemp(prefix="ffind-ctrl-c-")
for d in range(100):
    os.makedirs(os.path.join(tree, f"d{d}", "sub"))
    for f in range(50):
        open(os.path.join(tree, f"d{d}", "sub" if f % 2 else "", f"file-{f}"), "w").close()


def once(method, color):
    """Runs one walk, sends ^C after the first 4 KiB shown: the seconds it took to end then,
    or None for a hang."""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(tree)
        os.execv(runner, [runner, exe, "--method", method, "-j", "8", "-u", "--color=" + color])
    shown, sent, started = 0, None, time.time()
    while True:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                shown += len(os.read(fd, 65536))
            except OSError:  # the terminal is gone: every process that held it ended
                pass
        if sent is None and shown >= 4096:
            os.write(fd, b"\x03")
            sent = time.time()
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            # Ended by the Ctrl-C: fd's status for it, 130 (128 + SIGINT), as on Unix.
            if sent is not None and os.waitstatus_to_exitcode(status) != 130:
                print(f"{method}: exit status {os.waitstatus_to_exitcode(status)} after Ctrl-C",
                      file=sys.stderr)
                bad.append(method)
            os.close(fd)
            if sent is None:
                print(f"{method}: ended before a Ctrl-C, after {shown} bytes shown", file=sys.stderr)
            return time.time() - sent if sent else 0.0
        if sent is not None and time.time() - sent > 20 or time.time() > started + 120:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(fd)
            return None


hung, bad = [], []
for method in methods:
    for color in ("never", "always"):
        n = rounds if method in ("jwalk", "rayon") else 2
        took = []
        for _ in range(n):
            t = once(method, color)
            if t is None:
                hung.append(method)
            else:
                took.append(t)
        print(f"{method} --color={color}: {len(took)} of {n} ended after Ctrl-C" +
              (f" (at most {max(took):.2f} s)" if took else ""))
shutil.rmtree(tree)
if hung or bad:
    print(f"HUNG after Ctrl-C: {hung}; another exit status: {bad}", file=sys.stderr)
    sys.exit(1)
