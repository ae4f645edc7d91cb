#!/usr/bin/env bash
# Windows: the x86_64-pc-windows-gnu build, clippy for it, and its test suite run under
# Wine (Debian 12's wine 8.0) through .ci/wine/runner, in the prefix .ci/wine/setup.sh makes
# (target/wine/prefix, with the ProcessPrng shim Rust programs need there). fd's own Windows
# build (benches/peers.py fd-windows) is the reference the tests compare with: FFIND_FD_WINDOWS.
# Called by .ci/run; `just windows` runs it alone. Each step prints its time.
# FFIND_WINDOWS_SUITE_ONLY=1 with FFIND_TEST_BIN=path/ffind.exe runs only the integration suite
# against that binary (a release zip's, .ci/release.py): no build, clippy or msrv check.
set -euo pipefail
cd "$(dirname "$0")/.."
target=x86_64-pc-windows-gnu
start=$SECONDS
step=$SECONDS
took() { echo "-- $1: $((SECONDS - step))s"; }
trap 'echo "-- failed after $((SECONDS - step))s (windows: $((SECONDS - start))s in all)"' ERR

echo "== windows: tools (wine, mingw-w64, the rustup target)"
step=$SECONDS
# Debian 12: wine64 is the 64-bit loader (/usr/lib/wine/wine64), wine the commands around it
# (wineboot, wineserver); gcc-mingw-w64-x86-64 links the Windows programs and builds the shim.
if ! { [ -x /usr/lib/wine/wine64 ] || command -v wine64 >/dev/null; } \
  || ! command -v wineboot >/dev/null || ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wine wine64 gcc-mingw-w64-x86-64 >/dev/null
fi
rustup target add "$target"
took tools

echo "== windows: the wine prefix (.ci/wine/setup.sh)"
step=$SECONDS
bash .ci/wine/setup.sh
took "wine prefix"

suite_only=${FFIND_WINDOWS_SUITE_ONLY:-}
if [ -z "$suite_only" ]; then
  echo "== windows: build"
  step=$SECONDS
  cargo build --locked --target "$target"
  took build

  echo "== windows: clippy"
  step=$SECONDS
  cargo clippy --all-targets --locked --target "$target" -- -D warnings
  took clippy

  # The minimum Rust version (Cargo.toml's rust-version) checks the Windows code too.
  msrv=$(sed -n 's/^rust-version = "\(.*\)"$/\1/p' Cargo.toml)
  echo "== windows: msrv: rust $msrv"
  step=$SECONDS
  rustup toolchain install "$msrv" --profile minimal >/dev/null
  rustup target add --toolchain "$msrv" "$target" >/dev/null
  cargo +"$msrv" check --all-targets --locked --target "$target" --target-dir target/msrv
  took msrv
fi

# fd's own Windows build, for the comparisons (the suite skips only them without it).
if [ -z "${FFIND_FD_WINDOWS:-}" ]; then
  echo "== windows: peers (fd's Windows build)"
  step=$SECONDS
  if peers=$(python3 benches/peers.py fd-windows); then
    export FFIND_FD_WINDOWS="$peers/windows/bin/fd.exe"
    echo "fd-windows: $FFIND_FD_WINDOWS"
  else
    echo "benches/peers.py fd-windows failed: the comparisons with fd's Windows build will be skipped"
  fi
  took "fd-windows"
fi

# Unix symbolic links, which Wine cannot make itself and shows as what they lead to (a link to
# a directory as a reparse point with tag 0), for tests/integration/windows.rs.
links=$PWD/target/wine/links
rm -rf "$links"
mkdir -p "$links/real/in"
: > "$links/real/in/f"
ln -s real "$links/link"
ln -s real/in/f "$links/flink"
export FFIND_WINE_LINKS=$links

# One test at a time: Wine 8 fails a process start now and then (`wine client error: sendmsg`,
# os error 1359 or STATUS_DLL_INIT_FAILED) when the suite starts programs from two threads at
# once, about ten times a run; one at a time, never in our runs (docs/WINDOWS.md). It costs
# about 3 minutes.
echo "== windows: test (under wine)"
step=$SECONDS
if [ -n "$suite_only" ]; then
  [ -n "${FFIND_TEST_BIN:-}" ] || { echo "FFIND_WINDOWS_SUITE_ONLY needs FFIND_TEST_BIN" >&2; exit 2; }
  what=(--test integration)
else
  what=(--all-targets)
fi
CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER="$PWD/.ci/wine/runner" \
  cargo test "${what[@]}" --locked --target "$target" -- --test-threads=1
took test

# Ctrl-C on a terminal, which the suite cannot give a program under Wine (no console there).
echo "== windows: Ctrl-C under every method (.ci/wine/ctrl_c.py)"
step=$SECONDS
python3 .ci/wine/ctrl_c.py "${FFIND_TEST_BIN:-target/$target/debug/ffind.exe}" 10
took "ctrl-c"
echo "== windows: done in $((SECONDS - start))s"
