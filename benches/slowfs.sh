#!/usr/bin/env bash
# A slow file system for the "every operation is slow" benchmark: mounts TREE read-only at
# MOUNTPOINT through benches/slowfs/slowfs.c, a FUSE passthrough that sleeps DELAY_US
# (default 1000) before answering each request, with kernel caching off.
#
#   benches/slowfs.sh mount TREE MOUNTPOINT [DELAY_US]
#   benches/slowfs.sh umount MOUNTPOINT
#   benches/slowfs.sh check      # can this machine mount FUSE? (exit 0 if so, the reason if not)
#   benches/slowfs.sh build      # just compile (into target/slowfs/)
#
# Needs /dev/fuse, the right to mount (root, or fusermount3's setuid helper), and Debian's
# fuse3 + libfuse3-dev + pkg-config + a C compiler; as root they are installed when missing.
# SLOWFS_THREADS (default 1024) caps the daemon's request threads.
set -euo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
src=$repo/benches/slowfs/slowfs.c
bin=${CARGO_TARGET_DIR:-$repo/target}/slowfs/slowfs

die() {
  echo "slowfs: $*" >&2
  exit 1
}

usage() {
  sed -n '6,9p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

deps() {
  command -v fusermount3 >/dev/null && command -v cc >/dev/null &&
    command -v pkg-config >/dev/null && pkg-config --exists fuse3 && return
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "slowfs: installing fuse3 libfuse3-dev pkg-config gcc (Debian)" >&2
    apt-get install -y -qq fuse3 libfuse3-dev pkg-config gcc >/dev/null 2>&1 ||
      { apt-get update -qq >/dev/null && apt-get install -y -qq fuse3 libfuse3-dev pkg-config gcc >/dev/null; } ||
      die "could not install fuse3 libfuse3-dev pkg-config gcc"
  else
    die "needs fusermount3, libfuse3 headers, pkg-config and cc: apt-get install fuse3 libfuse3-dev pkg-config gcc"
  fi
}

build() {
  deps
  if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
    mkdir -p "$(dirname "$bin")"
    # shellcheck disable=SC2046 # pkg-config output is a list of flags
    cc -O2 -Wall -Wextra $(pkg-config --cflags fuse3) -o "$bin.tmp" "$src" $(pkg-config --libs fuse3)
    mv "$bin.tmp" "$bin"
  fi
}

# Why FUSE cannot work here, or nothing.
fuse_problem() {
  [ -e /dev/fuse ] || {
    echo "/dev/fuse does not exist (a container needs --device /dev/fuse and CAP_SYS_ADMIN)"
    return
  }
  grep -qw fuse /proc/filesystems || modprobe fuse 2>/dev/null || {
    echo "the kernel has no fuse file system (/proc/filesystems)"
    return
  }
  [ -r /dev/fuse ] && [ -w /dev/fuse ] || echo "/dev/fuse is not readable and writable by $(id -un)"
}

mount_tree() {
  if [ $# -lt 2 ] || [ $# -gt 3 ]; then usage; fi
  local tree=$1 mnt=$2 delay=${3:-1000} err
  [ -d "$tree" ] || die "$tree: not a directory"
  [[ $delay =~ ^[0-9]+$ ]] || die "DELAY_US must be a number of microseconds, not '$delay'"
  local problem
  problem=$(fuse_problem)
  [ -z "$problem" ] || die "FUSE is not available on this machine: $problem"
  build
  mkdir -p "$mnt"
  ! mountpoint -q "$mnt" || die "$mnt is already a mount point (benches/slowfs.sh umount $mnt)"
  tree=$(cd "$tree" && pwd)
  local threads=${SLOWFS_THREADS:-1024}
  err=$(mktemp)
  # Without -f, fuse_main mounts, then daemonizes: this returns once the mount is live.
  if ! "$bin" "$tree" "$mnt" -o "ro,fsname=slowfs,subtype=slowfs,delay_us=$delay,max_threads=$threads,max_idle_threads=$threads" 2>"$err"; then
    local msg
    msg=$(cat "$err")
    rm -f "$err"
    die "mounting FUSE failed here (${msg:-no message}): FUSE mounts are not possible on this machine"
  fi
  rm -f "$err"
  mountpoint -q "$mnt" || die "slowfs exited without mounting $mnt"
}

umount_tree() {
  [ $# -eq 1 ] || usage
  mountpoint -q "$1" || die "$1 is not mounted"
  fusermount3 -u "$1" 2>/dev/null || umount "$1"
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case "$cmd" in
  mount) mount_tree "$@" ;;
  umount | unmount) umount_tree "$@" ;;
  build) build && echo "$bin" ;;
  check)
    problem=$(fuse_problem)
    [ -z "$problem" ] || die "FUSE is not available on this machine: $problem"
    echo "slowfs: /dev/fuse is usable (a real mount is the final test)"
    ;;
  *) usage ;;
esac
