#!/usr/bin/env bash
# The Wine prefix the Windows build's tests run in (.ci/windows.sh, .ci/wine/runner).
# Idempotent and quick once done: builds the ProcessPrng shim (bcryptprimitives.c, test tooling
# only, never shipped) with mingw-w64 into target/wine/, creates the prefix target/wine/prefix
# (wineboot -i, no display, no Mono or Gecko) and copies the shim into its system32.
# Needs wine64 (Debian 12's wine 8.0) and gcc-mingw-w64-x86-64: .ci/windows.sh installs them.
# FFIND_WINE_DIR moves target/wine (absolute, or relative to the repository's root).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo"
dir=${FFIND_WINE_DIR:-target/wine}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
prefix=$dir/prefix

# The shim, rebuilt when its source is newer.
dll=$dir/bcryptprimitives.dll
if [ ! -f "$dll" ] || [ "$here/bcryptprimitives.c" -nt "$dll" ] || [ "$here/bcryptprimitives.def" -nt "$dll" ]; then
  echo "wine setup: building $dll" >&2
  x86_64-w64-mingw32-gcc -O2 -shared -s -o "$dll.tmp" \
    "$here/bcryptprimitives.c" "$here/bcryptprimitives.def" -ladvapi32
  mv "$dll.tmp" "$dll"
fi

# The prefix: wineboot once (about half a minute); .ffind-ready marks a finished one, so a
# prefix left half-made by an interrupted run is made again.
export WINEPREFIX=$prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" DISPLAY=
if [ ! -f "$prefix/.ffind-ready" ]; then
  echo "wine setup: creating the prefix $prefix (wineboot -i)" >&2
  rm -rf "$prefix"
  start=$SECONDS
  wineboot -i >/dev/null 2>&1
  wineserver -w
  touch "$prefix/.ffind-ready"
  echo "wine setup: prefix ready in $((SECONDS - start))s" >&2
fi

# The shim in system32 (64-bit prefix: system32 holds the 64-bit DLLs).
installed=$prefix/drive_c/windows/system32/bcryptprimitives.dll
cmp -s "$dll" "$installed" || cp "$dll" "$installed"
echo "$prefix"
