#!/usr/bin/env bash
# The Debian package, built and checked as a user would install it:
#   cargo deb (cargo-deb, installed at a pinned version when missing), dpkg -i, then
#   ffind --version, man -w ffind (man-db installed when missing), and bash completion of
#   `ffind --ty<TAB>` through the installed completion script; dpkg -r at the end.
# Needs root (dpkg -i). `.ci/run` runs it; by hand: `bash .ci/package-check.sh`.
# FFIND_DEB=path checks an already built package instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."

# 3.8.0 builds with Rust 1.85 and later (tried with 1.95).
cargo_deb_version=3.8.0

fail() {
  echo "package-check: $*" >&2
  exit 1
}

if [ -n "${FFIND_DEB:-}" ]; then
  deb=$FFIND_DEB
else
  if ! cargo deb --version 2>/dev/null | grep "$cargo_deb_version" >/dev/null; then
    echo "== package: cargo install cargo-deb $cargo_deb_version"
    cargo install cargo-deb --version "$cargo_deb_version" --locked --quiet
  fi
  echo "== package: cargo deb"
  # --locked as the rest of CI; cargo deb prints the path of the package it wrote.
  deb=$(cargo deb --locked | tail -n 1)
fi
[ -f "$deb" ] || fail "no package at '$deb'"
dpkg-deb --info "$deb" | sed -n 's/^ \(Package\|Version\|Architecture\|Depends\):/  \1:/p'

# What the package holds, where the shells and man look.
contents=$(dpkg-deb --contents "$deb")
for path in ./usr/bin/ffind ./usr/share/man/man1/ffind.1.gz \
  ./usr/share/bash-completion/completions/ffind ./usr/share/zsh/vendor-completions/_ffind \
  ./usr/share/fish/vendor_completions.d/ffind.fish ./usr/share/doc/ffind/README.md \
  ./usr/share/doc/ffind/CACHE.md ./usr/share/doc/ffind/USAGE.md \
  ./usr/share/doc/ffind/SECURITY.md ./usr/share/doc/ffind/copyright; do
  grep -q " $path\$" <<<"$contents" || fail "the package has no $path"
done

command -v man >/dev/null || { apt-get update -qq && apt-get install -y -qq man-db >/dev/null; }
# Containers often drop manual pages at install time (dpkg's path-exclude): let ffind's in.
excludes=$(grep -ls 'path-exclude.*/usr/share/man' /etc/dpkg/dpkg.cfg.d/* 2>/dev/null || true)
for f in $excludes; do mv "$f" "$f.ffind-off"; done
restore() {
  for f in $excludes; do mv "$f.ffind-off" "$f"; done
}
trap restore EXIT

echo "== package: dpkg -i"
dpkg -i "$deb" >/dev/null
trap 'dpkg -r ffind >/dev/null || true; restore' EXIT

echo "== package: checks"
[ "$(command -v ffind)" = /usr/bin/ffind ] || fail "ffind on PATH is $(command -v ffind), not /usr/bin/ffind"
version=$(/usr/bin/ffind --version)
want=$(sed -n '/^version = "/{s/^version = "\(.*\)"/\1/p;q}' Cargo.toml)
[ "$version" = "ffind $want" ] || fail "ffind --version says '$version', not 'ffind $want'"
echo "  ffind --version: $version"

page=$(man -w ffind) || fail "man -w ffind finds no page"
[ "$page" = /usr/share/man/man1/ffind.1.gz ] || fail "man -w ffind gives $page"
man ffind 2>/dev/null | grep -- '--type' >/dev/null || fail "man ffind does not show the --type option"
echo "  man -w ffind: $page"

# A scripted <TAB>: load the completion the way bash-completion does, set the words of the
# command line and call the function `complete -p ffind` names.
completed=$(bash --norc --noprofile -c '
  source /usr/share/bash-completion/completions/ffind
  fn=$(complete -p ffind | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
  [ -n "$fn" ] || { echo "no completion function for ffind" >&2; exit 1; }
  COMP_WORDS=(ffind --ty)
  COMP_CWORD=1
  COMP_LINE="ffind --ty"
  COMP_POINT=${#COMP_LINE}
  "$fn" ffind --ty ffind
  printf "%s\n" "${COMPREPLY[@]}"
') || fail "the bash completion failed"
grep -qx -- '--type' <<<"$completed" || fail "ffind --ty<TAB> completes to '$completed', not --type"
echo "  ffind --ty<TAB>: $(tr '\n' ' ' <<<"$completed")"

echo "== package: dpkg -r"
dpkg -r ffind >/dev/null
trap restore EXIT
! command -v ffind >/dev/null || [ "$(command -v ffind)" != /usr/bin/ffind ] || fail "dpkg -r left /usr/bin/ffind"
echo "package-check: ok ($deb)"
