#!/usr/bin/env bash
# ffind's benchmark harness: ffind side by side with fd, bfs, GNU find and the syscall floor,
# as BENCH.md (../shared/BENCH.md) asks. Also `just bench [ARGS]`.
#
#   benches/run.sh [TREE...] [SECTION...]
#
# TREE     linux big flat                     (default: all three)
# SECTION  side    every method, fd -u, bfs, find, floor -p -j2; to /dev/null and piped
#          git     default filtering inside a git repository: linux-git (linux + git init) and
#                  monorepo (benches/monorepo.py: 800 packages, 1,001 .gitignore files)
#          huge    one directory of 1,000,000 entries (benches/million.py) under the default
#                  filtering: time to the first result and peak memory, against -u and fd
#          cold    cold cache: caches dropped before every run (needs root); never by default
#          j1      one thread: ffind -j1 / serial, fd -j1, find, floor -p -j1
#          memory  max RSS (/usr/bin/time), to /dev/null and with a slow reader
#          first   time to the first result (| head -1)
#          sweep   --concurrency 1..1024 for --method queue and rayon
#          crates  the walker-crate methods (walkdir, jwalk, ignore) at -j 2, 8, 64: time and
#                  max RSS (their beneath check once listed a directory once per thread)
#          sort    the cost of --sort path and --sort depth against the plain listing, and their memory
#          order   --order breadth against the default order (depth), bfs (breadth first) and
#                  fd: time to the 1st, 50th and 1,000th line and to the end (benches/stream.py,
#                  interleaved), and max RSS, also with a reader that sleeps; on each tree with
#                  -u, and on monorepo and million under the default filtering
#          slow    on a FUSE mount that sleeps per operation (benches/slowfs.sh); never by default
#          deep-lowfd  the 3,000-level `deep` corpus under `ulimit -n 64` (and 16): every method
#                  against the unlimited run, fd and bfs (parents cannot all stay open there)
#          mpi     one search over 1, 2 and 4 processes (`mpirun ... ffind --mpi`) against one
#                  process at the same total threads, and mpifileutils' dfind if built; on big
#                  (BENCH_MPI_TREE); needs Open MPI and builds ffind --features mpi; never by default
#          (default: all but slow, cold and mpi)
#
# Environment: BENCH_RUNS (20), BENCH_WARMUP (3), BENCH_SWEEP (1,2,4,...,1024),
# BENCH_CRATES_J (2,8,64),
# BENCH_SLOW_TREE (linux), BENCH_SLOW_DELAY_US (1000), BENCH_SLOW_RUNS (3),
# BENCH_SLOW_WARMUP (0), BENCH_SLOW_SWEEP (2,4,...,1024), BENCH_READER_SLEEP (5),
# BENCH_COLD_RUNS (5), BENCH_COLD_SWEEP (1,2,4,...,256), BENCH_MILLION (1000000 entries),
# BENCH_LOWFD (64: the descriptor limit of deep-lowfd),
# BENCH_MPI_TREE (big; empty: only slowfs), BENCH_MPI_THREADS (2: total threads per configuration),
# BENCH_MPI_ROUNDS (10), BENCH_MPI_WARMUP (1), BENCH_MPI_DFIND_N (1,2,4: dfind's process
# counts, empty for none), BENCH_MPI_DFIND_ROUNDS (3), BENCH_MPI_SLOW (0; 1: also on slowfs,
# BENCH_MPI_SLOW_THREADS (16) in total), FFIND_MPI (a prebuilt --features mpi binary),
# DFIND (~/.cache/ffind-peers/mpi/bin/dfind),
# BENCH_RESULTS (benches/results), FFIND (a prebuilt binary: skips cargo build),
# FFIND_SHARED (../shared), FFIND_CORPORA, FFIND_PEERS.
#
# Writes benches/results/<date>-<tree>-<what>.{json,md} (hyperfine's exports; every .md opens
# with the conditions) and <date>-summary.md, the medians and ratios to the floor, printed last.
set -euo pipefail

repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
here=$repo/benches
shared=${FFIND_SHARED:-$repo/../shared}
corpora=${FFIND_CORPORA:-$HOME/.cache/ffind-corpora}
out=${BENCH_RESULTS:-$here/results}
stamp=${BENCH_STAMP:-$(date +%F-%H%M)}
runs=${BENCH_RUNS:-20}
warmup=${BENCH_WARMUP:-3}
sweep=${BENCH_SWEEP:-1,2,4,8,16,32,64,128,256,512,1024}
crates_j=${BENCH_CRATES_J:-2,8,64}
slow_tree=${BENCH_SLOW_TREE:-linux}
slow_delay=${BENCH_SLOW_DELAY_US:-1000}
slow_runs=${BENCH_SLOW_RUNS:-3}
slow_warmup=${BENCH_SLOW_WARMUP:-0}
slow_sweep=${BENCH_SLOW_SWEEP:-2,4,8,16,32,64,128,256,512,1024}
reader_sleep=${BENCH_READER_SLEEP:-5}
cold_runs=${BENCH_COLD_RUNS:-5}
million=${BENCH_MILLION:-1000000}
cold_sweep=${BENCH_COLD_SWEEP:-1,2,4,8,16,32,64,128,256}
lowfd=${BENCH_LOWFD:-64}
mpi_tree=${BENCH_MPI_TREE-big}
mpi_threads=${BENCH_MPI_THREADS:-2}
mpi_rounds=${BENCH_MPI_ROUNDS:-10}
mpi_warmup=${BENCH_MPI_WARMUP:-1}
dfind_n=${BENCH_MPI_DFIND_N-1,2,4}
dfind_rounds=${BENCH_MPI_DFIND_ROUNDS:-3}
mpi_slow=${BENCH_MPI_SLOW:-0}
mpi_slow_threads=${BENCH_MPI_SLOW_THREADS:-16}
dfind=${DFIND:-$HOME/.cache/ffind-peers/mpi/bin/dfind}
methods=(serial walkdir queue rayon jwalk ignore)

say() { printf '\n\033[1m== %s\033[0m\n' "$*" >&2; }
die() {
  echo "benches/run.sh: $*" >&2
  exit 1
}
usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit "${1:-2}"
}

# --- arguments ----------------------------------------------------------------------------
trees=()
sections=()
for arg in "$@"; do
  case "$arg" in
    linux | big | flat) trees+=("$arg") ;;
    side | git | j1 | memory | first | sweep | crates | sort | order | slow | huge | cold | deep-lowfd | mpi) sections+=("$arg") ;;
    -h | --help) usage 0 ;;
    *) echo "benches/run.sh: unknown tree or section '$arg'" >&2 && usage ;;
  esac
done
[ ${#trees[@]} -gt 0 ] || trees=(linux big flat)
[ ${#sections[@]} -gt 0 ] || sections=(side git j1 memory first sweep crates sort order huge deep-lowfd)
wants() { [[ " ${sections[*]} " == *" $1 "* ]]; }
per_tree=0
for s in side j1 memory first sweep crates sort order; do
  if wants "$s"; then per_tree=1; fi
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "BENCH_RUNS must be a positive number, not '$runs'"
[[ $warmup =~ ^[0-9]+$ ]] || die "BENCH_WARMUP must be a number, not '$warmup'"
[[ $lowfd =~ ^[1-9][0-9]*$ ]] || die "BENCH_LOWFD must be a positive number, not '$lowfd'"
for v in mpi_threads mpi_rounds mpi_slow_threads dfind_rounds; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v (BENCH_${v^^}) must be a positive number, not '${!v}'"
done

# --- tools --------------------------------------------------------------------------------
if [ ! -f "$shared/bench/peers.sh" ] || [ ! -f "$shared/bench/corpus.sh" ]; then
  die "no $shared/bench/{peers,corpus}.sh: set FFIND_SHARED to the directory that holds bench/"
fi

if [ -n "${FFIND:-}" ]; then
  [ -x "$FFIND" ] || die "FFIND=$FFIND is not an executable"
  ffind=$(realpath "$FFIND")
else
  say "build: cargo build --release"
  (cd "$repo" && cargo build --release) || die "cargo build --release failed"
  ffind=${CARGO_TARGET_DIR:-$repo/target}/release/ffind
fi
rev=$(git -C "$repo" describe --always --dirty --abbrev=10)

if wants mpi; then
  command -v mpirun >/dev/null || die "mpi: mpirun is missing (apt-get install openmpi-bin libopenmpi-dev libclang-dev)"
  mpirun=$(command -v mpirun)
  if [ -n "${FFIND_MPI:-}" ]; then
    [ -x "$FFIND_MPI" ] || die "FFIND_MPI=$FFIND_MPI is not an executable"
    ffind_mpi=$(realpath "$FFIND_MPI")
  else
    # A target directory of its own: the default build above stays as it is.
    say "build: cargo build --release --features mpi (target/mpi)"
    (cd "$repo" && cargo build --release --features mpi --target-dir "$repo/target/mpi") ||
      die "cargo build --release --features mpi failed"
    ffind_mpi=$repo/target/mpi/release/ffind
  fi
fi

say "peers: $shared/bench/peers.sh (the first time builds fd from crates.io: minutes)"
peers=$(bash "$shared/bench/peers.sh") || die "peers.sh failed"
fd=$peers/bin/fd
floor=$peers/bin/floor
for tool in "$fd" "$floor"; do [ -x "$tool" ] || die "peers.sh did not provide $tool"; done
for tool in hyperfine bfs find python3; do
  command -v "$tool" >/dev/null || die "$tool is missing (hyperfine and bfs: apt-get install hyperfine bfs)"
done
if { wants memory || wants crates || wants sort || wants order; } && [ ! -x /usr/bin/time ]; then
  say "installing GNU time (/usr/bin/time) for max RSS"
  { apt-get install -y -qq time >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }; } ||
    die "/usr/bin/time is missing and could not be installed: apt-get install time"
fi

# --- corpora ------------------------------------------------------------------------------
needed=()
if [ $per_tree = 1 ]; then needed+=("${trees[@]}"); fi
if wants git || wants cold; then needed+=(linux); fi
if wants slow; then needed+=("$slow_tree"); fi
if wants deep-lowfd; then needed+=(deep); fi
if wants mpi && [ -n "$mpi_tree" ]; then needed+=("$mpi_tree"); fi
if wants mpi && [ "$mpi_slow" = 1 ]; then needed+=("$slow_tree"); fi
if [ ${#needed[@]} -gt 0 ]; then
  say "corpora: corpus.sh ${needed[*]} (big and flat take a minute or two the first time)"
  mapfile -t needed < <(printf '%s\n' "${needed[@]}" | sort -u)
  FFIND_CORPORA=$corpora bash "$shared/bench/corpus.sh" "${needed[@]}" >/dev/null || die "corpus.sh failed"
fi
if { wants git || wants cold; } && [ ! -d "$corpora/linux-git" ]; then
  # A hard-linked copy with only `git init`: the issue's "the Linux tree after git init", so
  # .gitignore files apply, without adding .git to the linux tree the other sections list.
  say "corpora: linux-git (cp -al linux + git init)"
  rm -rf "$corpora/linux-git.tmp"
  cp -al "$corpora/linux" "$corpora/linux-git.tmp"
  git -C "$corpora/linux-git.tmp" init -q
  # Debian's linux-source adds "/*" and "!/debian/" to the top .gitignore ("ignore everything at
  # the top level"): inside a repository that hides the whole tree from fd and ffind alike.
  # Drop those two lines, in a new file (the old one is a hard link into the linux corpus).
  gi=$corpora/linux-git.tmp/.gitignore
  grep -v -x -e '/\*' -e '!/debian/' "$gi" > "$gi.new" || true
  rm -f "$gi" && mv "$gi.new" "$gi"
  mv "$corpora/linux-git.tmp" "$corpora/linux-git"
fi

if { wants git || wants order; } && [ ! -d "$corpora/monorepo" ]; then
  say "corpora: monorepo (benches/monorepo.py: many .gitignore files)"
  rm -rf "$corpora/monorepo.tmp"
  python3 "$here/monorepo.py" "$corpora/monorepo.tmp" && mv "$corpora/monorepo.tmp" "$corpora/monorepo"
fi
if { wants huge || wants order; } && [ ! -d "$corpora/million" ]; then
  say "corpora: million (benches/million.py: one directory of $million entries; a minute or two)"
  rm -rf "$corpora/million.tmp"
  python3 "$here/million.py" "$corpora/million.tmp" "$million" && mv "$corpora/million.tmp" "$corpora/million"
fi

mkdir -p "$out"
summary=$out/$stamp-summary.md
tmp=$(mktemp -d)
mnt=
cleanup() {
  if [ -n "$mnt" ] && mountpoint -q "$mnt"; then bash "$here/slowfs.sh" umount "$mnt" || true; fi
  [ -z "$mnt" ] || rmdir "$mnt" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- reporting ----------------------------------------------------------------------------
q() { printf '%q' "$1"; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
load=$(loadavg) # before the measurement a markdown file reports; set again before each

# A command as shown in tables: tool names instead of paths, tree names instead of corpora.
short() {
  local s=$1
  [ -z "${ffind_mpi:-}" ] || s=${s//"$ffind_mpi"/ffind-mpi}
  [ -z "${mpirun:-}" ] || s=${s//"$mpirun"/mpirun}
  s=${s//"$dfind"/dfind}
  s=${s//"$ffind"/ffind}
  s=${s//"$peers/bin/"/}
  s=${s//"$corpora/"/}
  [ -z "$mnt" ] || s=${s//"$mnt"/slowfs-$slow_tree}
  printf '%s' "$s"
}

# One row per command into $tmp/mem.tsv: the command, its line count, and its max RSS (KiB)
# in three runs with output to /dev/null.
rss_rows() {
  local c name lines
  : >"$tmp/mem.tsv"
  for c in "$@"; do
    name=$(short "$c")
    local -a rss=()
    for _ in 1 2 3; do
      eval "/usr/bin/time -f %M -o $tmp/rss $c" >/dev/null || die "failed: $name"
      rss+=("$(tail -1 "$tmp/rss")")
    done
    lines=$(eval "$c" | wc -l) || die "failed: $name"
    printf '%s\t%s\t%s\n' "$name > /dev/null" "$lines" "$(IFS=$'\t' && echo "${rss[*]}")" >>"$tmp/mem.tsv"
  done
}

# One max-RSS row per command into a reader that sleeps $reader_sleep s first, appended to
# $tmp/mem.tsv after rss_rows' (memory must stay bounded when stdout is slow).
rss_sleeping_rows() {
  local c name lines kib
  for c in "$@"; do
    name=$(short "$c")
    echo "  $name | (sleep $reader_sleep; wc -l)" >&2
    lines=$(eval "/usr/bin/time -f %M -o $tmp/rss $c" | (sleep "$reader_sleep" && wc -l)) || die "failed: $name"
    kib=$(tail -1 "$tmp/rss")
    printf '%s\t%s\t%s\n' "$name | (sleep $reader_sleep; wc -l)" "$lines" "$kib" >>"$tmp/mem.tsv"
  done
}

declare -A entries
count_entries() { # the tree's entries, as `find TREE -mindepth 1` counts them
  [ -n "${entries[$1]:-}" ] || entries[$1]=$(find "$1" -mindepth 1 | wc -l)
  printf '%s' "${entries[$1]}"
}

versions() {
  printf -- '- ffind: `%s` (git %s; `-dirty` = built from a working tree with uncommitted changes)\n' "${ffind#"$repo/"}" "$rev"
  printf -- '- fd: %s; bfs: %s; %s; %s; floor: `../shared/bench/floor.c` (`-p` prints every path, `-j N` threads)\n' \
    "$("$fd" --version)" "$(bfs --version | head -1)" "$(find . -maxdepth 0 --version | head -1)" "$(hyperfine --version)"
}

# conditions TITLE TREE_LABEL TREE_DIR SETTINGS: the header of every markdown output.
conditions() {
  local title=$1 label=$2 dir=$3 settings=$4
  printf '# %s\n\n' "$title"
  printf -- '- Tree: `%s` (%s entries below the root), %s\n' "$label" "$(count_entries "$dir")" \
    "${cache:-warm cache (listed just before; hyperfine warm-up runs)}"
  printf -- '- Machine: %s cores (`nproc`), %s, kernel %s, load average before the runs %s\n' \
    "$(nproc)" "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)" "$(uname -r)" \
    "$load"
  versions
  printf -- '- %s\n' "$settings"
  [ -z "${note:-}" ] || printf -- '- %s\n' "$note"
  printf -- '- Date: %s. The machine is shared (other builds may run at the same time): compare ratios within one table, not absolute times across tables.\n\n' \
    "$(date -u '+%F %H:%M UTC')"
}

# group WHAT LABEL DIR REF HYPERFINE_OPTS... -- COMMAND...
# Runs one hyperfine comparison; writes $out/$stamp-LABEL-WHAT.{json,md}; REF (a short
# command name, or "") is the floor the ratios are taken against. Each command first runs
# once to count its output lines: a sanity check that the peers list the same thing.
group() {
  local what=$1 label=$2 dir=$3 ref=$4
  shift 4
  local -a opts=()
  while [ "$1" != -- ]; do opts+=("$1") && shift; done
  shift
  local base=$out/$stamp-$label-$what
  local -a hf=(hyperfine --warmup "$warmup" --runs "$runs" "${opts[@]}"
    --export-json "$base.json" --export-markdown "$tmp/table.md")
  : >"$tmp/lines.tsv"
  local c name lines
  say "$label: $what (${#@} commands, $runs runs each)"
  load=$(loadavg)
  for c in "$@"; do
    name=$(short "$c")
    hf+=(-n "$name" "$c")
    if [[ $c != *'|'* ]]; then
      lines=$(eval "$c" | wc -l) || die "failed: $name"
      printf '%s\t%s\n' "$name" "$lines" >>"$tmp/lines.tsv"
    fi
  done
  "${hf[@]}" || die "hyperfine failed for $label $what"
  local settings="hyperfine \`${opts[*]} --warmup $warmup --runs $runs\`"
  {
    conditions "ffind vs peers: $label, $what" "$label" "$dir" "$settings"
    echo "## hyperfine"
    echo
    python3 "$here/report.py" escape "$tmp/table.md"
    echo
    echo "## Medians and ratios to the floor"
    echo
    python3 "$here/report.py" table "$base.json" ${ref:+--ref "$ref"} --lines "$tmp/lines.tsv"
  } >"$base.md"
  section_summary "$label: $what" \
    "$(python3 "$here/report.py" table "$base.json" ${ref:+--ref "$ref"} --lines "$tmp/lines.tsv")"
}

section_summary() {
  printf '### %s\n\n%s\n\n' "$1" "$2" >>"$summary"
}

# floor_ref LABEL DIR: a hyperfine export holding `floor -p -j2 LABEL` (this run's `side`
# export if there is one, else a short run of its own).
floor_ref() {
  local label=$1 dir=$2
  local side=$out/$stamp-$label-null.json
  if [ -f "$side" ]; then
    printf '%s' "$side"
    return
  fi
  local base=$out/$stamp-$label-floor
  [ -f "$base.json" ] || hyperfine -N --warmup "$warmup" --runs "$runs" --export-json "$base.json" \
    -n "floor -p -j2 $label" "$floor -p -j2 $(q "$dir")" >&2
  printf '%s' "$base.json"
}

# --- sections -----------------------------------------------------------------------------
side() {
  local label=$1 dir=$2 d
  d=$(q "$dir")
  local -a cmds=("$ffind -u . $d")
  local m
  for m in "${methods[@]}"; do cmds+=("$ffind -u --method $m . $d"); done
  cmds+=("$fd -u . $d" "bfs $d" "find $d" "$floor -p -j2 $d")
  group null "$label" "$dir" "floor -p -j2 $label" -N -- "${cmds[@]}"
  group pipe "$label" "$dir" "floor -p -j2 $label" -N --output=pipe -- "${cmds[@]}"
}

git_default() {
  # linux-git: the Linux tree's 358 .gitignore files; monorepo: 1,001 small ones, a deeper chain.
  local label dir d pat
  for label in linux-git monorepo; do
    dir=$corpora/$label
    d=$(q "$dir")
    if [ "$label" = linux-git ]; then pat='\.c$'; else pat='\.tsx?$'; fi
    find "$dir" >/dev/null # warm the cache
    local -a cmds=("$ffind . $d" "$fd . $d" "$ffind '$pat' $d" "$fd '$pat' $d" "$ffind -u . $d"
      "$floor -p -j2 $d")
    group default-null "$label" "$dir" "floor -p -j2 $label" -N -- "${cmds[@]}"
    group default-pipe "$label" "$dir" "floor -p -j2 $label" -N --output=pipe -- "${cmds[@]}"
    # The same commands interleaved (docs/PERFORMANCE.md's table): on a VM whose speed drifts, the
    # ratios hyperfine's back-to-back runs give move by more than the gaps they measure.
    local base=$out/$stamp-$label-default-interleaved
    say "$label: default-interleaved (${#cmds[@]} commands, $runs rounds)"
    load=$(loadavg)
    local table
    table=$(python3 "$here/interleave.py" "$runs" "$warmup" "${cmds[@]}") || die "interleave.py failed for $label"
    {
      conditions "ffind vs peers: $label, default filtering, interleaved" "$label" "$dir" \
        "benches/interleave.py: $runs rounds after $warmup, each running every command once in a new random order; ratios to the floor (last)"
      echo '```'
      echo "$table"
      echo '```'
    } >"$base.md"
    cat "$base.md"
  done
}

# One directory of a million entries, with its own .gitignore, under the default filtering:
# the first line must not wait for the whole listing, and memory must not hold it.
huge() {
  local label=million dir=$corpora/million d
  d=$(q "$dir")
  find "$dir" >/dev/null
  local note="One directory (wide/) of $(count_entries "$dir/wide") entries and its own .gitignore (\`*7\`), in a git repository. Time until \`head -1\` has its line and the pipeline has exited; hyperfine subtracts bash's start-up"
  group first "$label" "$dir" "ffind -u . $label | head -1" --shell=bash -- \
    "$ffind . $d | head -1" "$ffind -u . $d | head -1" "$fd . $d | head -1" "$fd -u . $d | head -1" \
    "bfs $d | head -1"
  note=
  local base=$out/$stamp-$label-memory c name kib lines
  load=$(loadavg)
  say "$label: memory (max RSS, to /dev/null)"
  rss_rows "$ffind . $d" "$ffind -u . $d" "$fd . $d" "$fd -u . $d" "bfs $d"
  local table
  table=$(python3 "$here/report.py" memory "$tmp/mem.tsv" "$base.json")
  {
    conditions "ffind vs peers: $label, memory" "$label" "$dir" \
      "GNU time \`/usr/bin/time -f %M\` (maximum resident set size), output to /dev/null, 3 runs"
    echo "$table"
  } >"$base.md"
  section_summary "$label: memory" "$table"
}

# Cold cache: every run starts after `echo 3 > /proc/sys/vm/drop_caches`. Says so and skips
# where that is not allowed.
cold_unavailable=
cold() {
  local drop='sync; echo 3 > /proc/sys/vm/drop_caches'
  if ! (sync && echo 3 >/proc/sys/vm/drop_caches) 2>/dev/null; then
    cold_unavailable="cannot write /proc/sys/vm/drop_caches here (needs root outside a container)"
    say "cold: skipped: $cold_unavailable"
    return
  fi
  local runs=$cold_runs warmup=0 label dir d
  local cache="cold cache: \`$drop\` before every run (hyperfine --prepare)"
  for label in linux linux-git; do
    dir=$corpora/$label
    d=$(q "$dir")
    local -a cmds=()
    if [ "$label" = linux ]; then
      cmds=("$ffind -u . $d" "$ffind -u -j8 . $d" "$ffind -u -j64 . $d" "$fd -u . $d" "$fd -u -j64 . $d"
        "bfs $d" "$floor -p -j2 $d" "$floor -p -j64 $d")
    else
      cmds=("$ffind . $d" "$ffind -j8 . $d" "$ffind -j64 . $d" "$fd . $d" "$floor -p -j2 $d")
    fi
    # -N runs --prepare without a shell too.
    group cold "$label" "$dir" "floor -p -j2 $label" -N --prepare "bash -c '$drop'" -- "${cmds[@]}"
  done
  # The sweep behind `auto`'s growth when reads block.
  label=linux dir=$corpora/linux
  d=$(q "$dir")
  local base=$out/$stamp-$label-cold-sweep
  say "$label: cold sweep (--concurrency ${cold_sweep}, $runs runs each)"
  load=$(loadavg)
  hyperfine -N --runs "$runs" --prepare "bash -c '$drop'" -L j "$cold_sweep" \
    --export-json "$base.json" --export-markdown "$tmp/table.md" \
    -n "ffind -u -j {j} . $label" "$ffind -u -j {j} . $d" || die "hyperfine failed for the cold sweep"
  {
    conditions "ffind concurrency sweep, cold cache: $label" "$label" "$dir" \
      "hyperfine \`-N --runs $runs --prepare '$drop' -L j $cold_sweep\`"
    python3 "$here/report.py" escape "$tmp/table.md"
  } >"$base.md"
  section_summary "$label: cold sweep" "$(python3 "$here/report.py" escape "$tmp/table.md")"
}

j1() {
  local label=$1 dir=$2 d
  d=$(q "$dir")
  group j1 "$label" "$dir" "floor -p -j1 $label" -N -- \
    "$ffind -j1 -u . $d" "$ffind -u --method serial . $d" "$fd -j1 -u . $d" "find $d" "$floor -p -j1 $d"
}

first() {
  local label=$1 dir=$2 d
  d=$(q "$dir")
  # A pipeline needs a shell: hyperfine measures bash's own start-up and subtracts it.
  local note="Time until \`head -1\` has its line and every process in the pipeline has exited (the lister exits on the broken pipe at its next write). hyperfine subtracts bash's start-up, which it cannot calibrate below ~5 ms: read small numbers as \"a few ms\". floor writes through stdio's 4 KiB buffer, so it is a reference here, not a bound"
  group first "$label" "$dir" "floor -p -j2 $label | head -1" --shell=bash -- \
    "$ffind -u . $d | head -1" "$fd -u . $d | head -1" "bfs $d | head -1" "find $d | head -1" \
    "$floor -p -j2 $d | head -1"
}

memory() {
  local label=$1 dir=$2 d
  d=$(q "$dir")
  local base=$out/$stamp-$label-memory
  local -a cmds=("$ffind -u . $d")
  local m
  for m in "${methods[@]}"; do cmds+=("$ffind -u --method $m . $d"); done
  cmds+=("$fd -u . $d" "bfs $d" "$floor -p -j2 $d")
  load=$(loadavg)
  say "$label: memory (max RSS, 3 runs to /dev/null, 1 with a reader that sleeps ${reader_sleep}s)"
  rss_rows "${cmds[@]}"
  rss_sleeping_rows "${cmds[@]}"
  local table
  table=$(python3 "$here/report.py" memory "$tmp/mem.tsv" "$base.json")
  {
    conditions "ffind vs peers: $label, memory" "$label" "$dir" \
      "GNU time \`/usr/bin/time -f %M\` (maximum resident set size of the listed command only); output to /dev/null (3 runs), then into a pipe whose reader sleeps ${reader_sleep}s before reading (1 run): memory must stay bounded when stdout is slow"
    echo "$table"
  } >"$base.md"
  section_summary "$label: memory" "$table"
}

# One --concurrency sweep (LEVELS) of queue and rayon on DIR, with its pivot table of medians
# against the floor REF (a command title, timed in REF_JSON), written to
# $out/$stamp-LABEL-sweep.{json,md} and the summary under TITLE.
run_sweep() {
  local label=$1 dir=$2 levels=$3 ref=$4 ref_json=$5 title=$6 d
  d=$(q "$dir")
  local base=$out/$stamp-$label-sweep
  say "$label: sweep (--concurrency $levels, queue and rayon, $runs runs each)"
  load=$(loadavg)
  hyperfine -N --warmup "$warmup" --runs "$runs" -L j "$levels" -L method queue,rayon \
    --export-json "$base.json" --export-markdown "$tmp/table.md" \
    -n "ffind -u --method {method} -j {j} . $label" "$ffind -u --method {method} -j {j} . $d" ||
    die "hyperfine failed for $label sweep"
  local pivot
  pivot=$(python3 "$here/report.py" pivot "$base.json" --ref "$ref" --ref-json "$ref_json")
  {
    conditions "$title" "$label" "$dir" \
      "hyperfine \`-N --warmup $warmup --runs $runs -L j $levels -L method queue,rayon\`; ratios against \`$ref\` from $(basename "$ref_json")"
    echo "## Medians (ms) and ratio to \`$ref\`"
    echo
    echo "$pivot"
    echo
    echo "## hyperfine"
    echo
    python3 "$here/report.py" escape "$tmp/table.md"
  } >"$base.md"
  section_summary "$label: concurrency sweep" "$pivot"
}

# The walker-crate methods at each of $crates_j: medians against the floor, and max RSS. Their
# check that what a crate lists is beneath the root listed a directory once per thread that saw
# its entries (issue 18: ignore on flat took 1.4 GB at -j 64, against 103 MB at -j 2).
crates() {
  local label=$1 dir=$2 d ref_json m j
  d=$(q "$dir")
  ref_json=$(floor_ref "$label" "$dir")
  local base=$out/$stamp-$label-crates
  say "$label: crates (--concurrency $crates_j, walkdir, jwalk and ignore, $runs runs each)"
  load=$(loadavg)
  hyperfine -N --warmup "$warmup" --runs "$runs" -L j "$crates_j" -L method walkdir,jwalk,ignore \
    --export-json "$base.json" --export-markdown "$tmp/table.md" \
    -n "ffind -u --method {method} -j {j} . $label" "$ffind -u --method {method} -j {j} . $d" ||
    die "hyperfine failed for $label crates"
  local -a cmds=()
  for m in walkdir jwalk ignore; do
    for j in ${crates_j//,/ }; do cmds+=("$ffind -u --method $m -j $j . $d"); done
  done
  rss_rows "${cmds[@]}"
  local pivot table
  pivot=$(python3 "$here/report.py" pivot "$base.json" --ref "floor -p -j2 $label" --ref-json "$ref_json")
  table=$(python3 "$here/report.py" memory "$tmp/mem.tsv" "$base-memory.json")
  {
    conditions "walker-crate methods: $label" "$label" "$dir" \
      "hyperfine \`-N --warmup $warmup --runs $runs -L j $crates_j -L method walkdir,jwalk,ignore\`; ratios against \`floor -p -j2 $label\` from $(basename "$ref_json"); max RSS by GNU time \`/usr/bin/time -f %M\`, 3 runs to /dev/null"
    echo "## Medians (ms) and ratio to \`floor -p -j2 $label\`"
    echo
    echo "$pivot"
    echo
    echo "## Max RSS"
    echo
    echo "$table"
    echo
    echo "## hyperfine"
    echo
    python3 "$here/report.py" escape "$tmp/table.md"
  } >"$base.md"
  section_summary "$label: walker-crate methods" "$pivot

$table"
}

# --sort holds every result until the walk ends and sorts them: its time and memory against
# the streaming listing (the ratio column is to plain `ffind -u`).
sort_cost() {
  local label=$1 dir=$2 d c
  d=$(q "$dir")
  local -a cmds=("$ffind -u . $d" "$ffind -u --sort path . $d" "$ffind -u --sort depth . $d")
  group sort "$label" "$dir" "ffind -u . $label" -N -- "${cmds[@]}"
  : >"$tmp/sort-mem.tsv"
  for c in "${cmds[@]}"; do
    eval "/usr/bin/time -f %M -o $tmp/rss $c" >/dev/null || die "failed: $(short "$c")"
    printf -- '- `%s`: max RSS %s KiB\n' "$(short "$c")" "$(tail -1 "$tmp/rss")" >>"$tmp/sort-mem.tsv"
  done
  cat "$tmp/sort-mem.tsv" >>"$out/$stamp-$label-sort.md"
  section_summary "$label: --sort memory" "$(cat "$tmp/sort-mem.tsv")"
}

# --order breadth (nearest first, streaming) against the default order, bfs's (breadth first)
# and fd: how soon the 1st, 50th (fzf's first screenful) and 1,000th lines reach a reader and
# when the output ends (stream.py, interleaved), then max RSS to /dev/null and into a reader that
# sleeps: breadth first holds a level's directories, never the results.
order_cost() {
  local label=$1 dir=$2
  shift 2
  local base=$out/$stamp-$label-order table
  find "$dir" >/dev/null
  say "$label: order (stream.py, $runs rounds after $warmup; then max RSS)"
  load=$(loadavg)
  table=$(python3 "$here/stream.py" "$runs" "$warmup" "$@") || die "stream.py failed for $label"
  table=$(short "$table")
  rss_rows "$@"
  rss_sleeping_rows "$@"
  local memory
  memory=$(python3 "$here/report.py" memory "$tmp/mem.tsv" "$base-memory.json")
  {
    conditions "--order breadth against depth, bfs and fd: $label" "$label" "$dir" \
      "benches/stream.py: $runs rounds after $warmup, every command once per round in a new random order, its output read as fast as it comes; medians of the time until the 1st, 50th and 1,000th line reached the reader and until the output ended (each includes ~1 ms of process start). Max RSS: GNU time \`/usr/bin/time -f %M\`, 3 runs to /dev/null, then 1 into a reader that sleeps ${reader_sleep}s"
    echo "## Time to the Nth result"
    echo
    echo "$table"
    echo
    echo "## Max RSS"
    echo
    echo "$memory"
  } >"$base.md"
  section_summary "$label: --order breadth" "$table

$memory"
}

order_trees() {
  local label=$1 dir=$2 d
  d=$(q "$dir")
  order_cost "$label" "$dir" "$ffind -u . $d" "$ffind -u --order breadth . $d" \
    "$ffind -u --order breadth --method serial . $d" "$ffind -u --order breadth --method rayon . $d" \
    "bfs $d" "$fd -u . $d"
}

# The default filtering, where fzf users search: the monorepo's .gitignore files, and the
# million entries of one directory (its own .gitignore read first).
order_filtered() {
  local label dir d
  for label in monorepo million; do
    dir=$corpora/$label
    d=$(q "$dir")
    order_cost "$label" "$dir" "$ffind . $d" "$ffind --order breadth . $d" \
      "$ffind -u . $d" "$ffind -u --order breadth . $d" "bfs $d" "$fd . $d"
  done
}

sweep() {
  local label=$1 dir=$2 ref_json
  ref_json=$(floor_ref "$label" "$dir")
  run_sweep "$label" "$dir" "$sweep" "floor -p -j2 $label" "$ref_json" "ffind concurrency sweep: $label"
}

# The 3,000-level tree (paths far past PATH_MAX) under a low descriptor limit, where not
# every parent can stay open: each directory must still cost a few opens, not one per level
# above it (issue 18). `ulimit -n` sets the soft and the hard limit, in a subshell of its own.
deep_lowfd() {
  local label=deep dir=$corpora/deep d
  d=$(q "$dir")
  find "$dir" >/dev/null
  local limited="(ulimit -n $lowfd && exec"
  local note="\`ulimit -n $lowfd\` (soft and hard) in a subshell for the commands that say so, ulimit -n 16 for one; fd stops at PATH_MAX (its line count); hyperfine subtracts bash's start-up"
  group lowfd "$label" "$dir" "ffind -u . deep" --shell=bash -- \
    "$ffind -u . $d" "$limited $ffind -u . $d)" "$limited $ffind -u --method serial . $d)" \
    "$limited $ffind -u --method queue . $d)" "$limited $ffind -u --method rayon . $d)" \
    "(ulimit -n 16 && exec $ffind -u . $d)" "$fd -u . $d" "$limited $fd -u . $d)" "bfs $d" \
    "$limited bfs $d)"
  note=
}

slow_unavailable=
slow() {
  local src=$corpora/$slow_tree label=slowfs-$slow_tree
  local problem
  if ! problem=$(bash "$here/slowfs.sh" check 2>&1); then
    slow_unavailable=$problem
    return
  fi
  mnt=$(mktemp -d /tmp/ffind-slowfs.XXXXXX)
  say "slow: mounting $slow_tree through slowfs, ${slow_delay} µs per operation, at $mnt"
  if ! problem=$(bash "$here/slowfs.sh" mount "$src" "$mnt" "$slow_delay" 2>&1); then
    slow_unavailable=$problem
    return
  fi
  entries[$mnt]=$(count_entries "$src")
  local d
  d=$(q "$mnt")
  local runs=$slow_runs warmup=$slow_warmup
  local cache="source tree in the page cache, nothing cached by the FUSE layer"
  local note="Slow file system: slowfs (benches/slowfs.sh), a FUSE passthrough of \`$slow_tree\` that sleeps ${slow_delay} µs before answering each request, kernel caching off, so every run pays the delay whatever the cache state; the reference is \`floor -p -j64\`, the syscall floor with 64 reads in flight"
  group slow "$label" "$mnt" "floor -p -j64 $label" -N -- \
    "$ffind --method=queue --concurrency=64 -u . $d" "$ffind --method=queue --concurrency=2 -u . $d" \
    "$ffind -u . $d" "$fd -u . $d" "$ffind . $d" "$fd . $d" "$floor -p -j2 $d" "$floor -p -j64 $d"
  if [ -n "$slow_sweep" ]; then
    run_sweep "$label" "$mnt" "$slow_sweep" "floor -p -j64 $label" "$out/$stamp-$label-slow.json" \
      "ffind concurrency sweep on a slow file system: $label"
  fi
  bash "$here/slowfs.sh" umount "$mnt"
  rmdir "$mnt"
  mnt=
}

# One search spread over the processes of an MPI job (`--mpi`, issue 16; docs/SCALE.md). On one
# machine processes cannot beat threads, so this measures what distribution costs: `mpirun -n
# 1, 2, 4` (threads per process so that the totals match) against one plain process at the same
# total threads, interleaved, with wall and CPU time (mpirun's whole job); each launch's fixed
# cost alone (the same job on an empty directory); mpifileutils' dfind where it is built. Results
# go to a file through --output (process 0 writes it), as mpirun's forwarding of stdout through
# a pty (12-25 MB/s) is mpirun's cost, not ffind's. Every configuration's output, sorted, must be
# the plain process's.
mpi_job() { # mpi_job N: the words that start a job of N processes, one node, unbound
  printf '%s --bind-to none --oversubscribe -q' "$mpirun"
  [ "$(id -u)" != 0 ] || printf ' --allow-run-as-root'
  printf ' -n %s' "$1"
}

# mpi_run LABEL DIR TOTAL_THREADS: the interleaved comparison on DIR.
mpi_run() {
  local label=$1 dir=$2 total=$3 d n j
  d=$(q "$dir")
  local base=$out/$stamp-$label-mpi
  local empty=$tmp/mpi-empty
  mkdir -p "$empty"
  # name, command (OUT stands for the output file), the row it is compared with
  local -a names=() cmds=() refs=()
  local -A plain=()
  for n in 1 2 4; do
    j=$((total / n))
    [ "$j" -ge 1 ] || j=1
    local t=$((n * j))
    if [ -z "${plain[$t]:-}" ]; then
      plain[$t]=${#names[@]}
      names+=("ffind -u -j$t (one process)")
      cmds+=("$ffind -u -j$t --output OUT . $d")
      refs+=("${plain[$t]}")
    fi
    names+=("mpirun -n $n ffind --mpi -u -j$j")
    cmds+=("$(mpi_job "$n") $ffind_mpi --mpi -u -j$j --output OUT . $d")
    refs+=("${plain[$t]}")
  done
  for n in 1 2 4; do
    names+=("mpirun -n $n ffind --mpi (empty directory: launch and MPI_Init only)")
    cmds+=("$(mpi_job "$n") $ffind_mpi --mpi -u -j1 --output /dev/null . $empty")
    refs+=("")
  done
  # Like lists like: each command once into a file, sorted, against its plain process.
  : >"$tmp/mpi-check.tsv"
  local i c want
  for i in "${!cmds[@]}"; do
    [ -n "${refs[$i]}" ] || continue
    c=${cmds[$i]//OUT/$tmp/mpi-out}
    eval "$c" || [ $? = 1 ] || die "failed: $(short "$c")"
    LC_ALL=C sort "$tmp/mpi-out" >"$tmp/mpi-sorted-$i"
    want=$tmp/mpi-sorted-${refs[$i]}
    printf '%s\t%s\t%s\n' "${names[$i]}" "$(wc -l <"$tmp/mpi-out")" \
      "$(cmp -s "$want" "$tmp/mpi-sorted-$i" && echo yes || echo NO)" >>"$tmp/mpi-check.tsv"
  done
  rm -f "$tmp"/mpi-out "$tmp"/mpi-sorted-*
  local -a timed=()
  for c in "${cmds[@]}"; do timed+=("${c//OUT//dev/null}"); done
  say "$label: mpi ($mpi_rounds rounds after $mpi_warmup, ${#timed[@]} commands interleaved)"
  load=$(loadavg)
  python3 "$here/interleave.py" --cpu "$mpi_rounds" "$mpi_warmup" "${timed[@]}" >"$tmp/mpi-times.txt" ||
    die "interleave.py failed for $label mpi"
  local table
  table=$(python3 - "$tmp/mpi-times.txt" "$tmp/mpi-check.tsv" "${names[@]}" -- "${refs[@]}" <<'PY'
import re, sys
times, check = sys.argv[1], sys.argv[2]
rest = sys.argv[3:]
cut = rest.index("--")
names, refs = rest[:cut], rest[cut + 1:]
rows = []
for line in open(times):
    m = re.match(r"\s*([\d.]+) ms \([\d.]+\)\s+min\s+([\d.]+) \([\d.]+\)\s+cpu\s+([\d.]+) ms", line)
    if m:
        rows.append(tuple(float(x) for x in m.groups()))
ok = {n: (l, same) for n, l, same in (l.rstrip("\n").split("\t") for l in open(check))}
print("| configuration | wall median (s) | wall min (s) | CPU median (s) | wall vs one process | CPU vs one process | lines | same lines (sorted) |")
print("|---|---|---|---|---|---|---|---|")
for name, ref, (med, mn, cpu) in zip(names, refs, rows):
    if ref:
        r = rows[int(ref)]
        vs = f"{med / r[0]:.2f} | {cpu / r[2]:.2f}"
    else:
        vs = "- | -"
    lines, same = ok.get(name, ("-", "-"))
    print(f"| `{name}` | {med / 1000:.3f} | {mn / 1000:.3f} | {cpu / 1000:.3f} | {vs} | {lines} | {same} |")
PY
) || die "the mpi table failed"
  local note="${note:+$note; }MPI: $("$mpirun" --version 2>&1 | sed -n 1p), one node, \`--bind-to none --oversubscribe\`, OMPI_MCA_pml=$OMPI_MCA_pml OMPI_MCA_btl=$OMPI_MCA_btl; ffind-mpi: the same revision built with \`--features mpi\`; the empty-directory rows are each launch's fixed cost (mpirun, MPI_Init, agreeing, finalizing)"
  {
    conditions "ffind --mpi: $label, processes against threads" "$label" "$dir" \
      "benches/interleave.py --cpu: $mpi_rounds rounds after $mpi_warmup, every command once per round in a new random order; wall = median of the whole job (mpirun's launch included), CPU = user + system of mpirun and every process of the job; results written by process 0 with \`--output /dev/null\`"
    echo "$table"
    echo
    echo "Raw (interleave.py, ratio to the last command):"
    echo
    echo '```'
    short "$(cat "$tmp/mpi-times.txt")"
    echo
    echo '```'
  } >"$base.md"
  section_summary "$label: mpi" "$table"
  if [ -n "$dfind_n" ] && [ -x "$dfind" ]; then
    mpi_dfind "$label" "$dir"
  elif [ -n "$dfind_n" ]; then
    section_summary "$label: mpi, dfind: NOT MEASURED" "no dfind at $dfind (mpifileutils; set DFIND)"
  fi
}

# mpifileutils' dfind listing every entry (`--print`; -q must come last), as mpirun's stdout
# (dfind has no file output of the same kind): its ranks print their own parts through mpirun,
# whose lines interleave mid-line from 2 processes on, so the check counts lines that do not
# start with the tree's path.
mpi_dfind() {
  local label=$1 dir=$2 real n
  real=$(realpath "$dir")
  local base=$out/$stamp-$label-mpi-dfind
  local -a cmds=()
  : >"$tmp/dfind-check.md"
  for n in ${dfind_n//,/ }; do
    local c="$(mpi_job "$n") $dfind --print -q $(q "$real")"
    cmds+=("$c")
    local lines broken
    eval "$c" >"$tmp/dfind-out" || die "failed: $(short "$c")"
    lines=$(wc -l <"$tmp/dfind-out")
    broken=$(grep -c -v -F "$real" "$tmp/dfind-out" || true)
    printf -- '- `%s`: %s lines (the tree has %s entries + its root), %s not starting with the tree'"'"'s path\n' \
      "$(short "$c")" "$lines" "$(count_entries "$dir")" "$broken" >>"$tmp/dfind-check.md"
  done
  rm -f "$tmp/dfind-out"
  say "$label: mpi dfind ($dfind_rounds rounds, ${#cmds[@]} commands interleaved)"
  load=$(loadavg)
  local table
  table=$(python3 "$here/interleave.py" --cpu "$dfind_rounds" 0 "${cmds[@]}") ||
    die "interleave.py failed for dfind"
  {
    conditions "mpifileutils dfind: $label" "$label" "$dir" \
      "benches/interleave.py --cpu: $dfind_rounds rounds, no warm-up; output: mpirun's stdout to /dev/null (through mpirun's pty forwarding)"
    echo '```'
    short "$table"
    echo
    echo '```'
    echo
    cat "$tmp/dfind-check.md"
  } >"$base.md"
  section_summary "$label: mpi, dfind" "$(printf '```\n%s\n```\n\n%s' "$(short "$table")" "$(cat "$tmp/dfind-check.md")")"
}

mpi() {
  # One node: shared memory between processes, without probing for network transports.
  export OMPI_MCA_pml=${OMPI_MCA_pml:-ob1} OMPI_MCA_btl=${OMPI_MCA_btl:-self,vader}
  if [ -n "$mpi_tree" ]; then
    find "$corpora/$mpi_tree" >/dev/null
    mpi_run "$mpi_tree" "$corpora/$mpi_tree" "$mpi_threads"
  fi
  if [ "$mpi_slow" = 1 ]; then
    local problem
    if ! problem=$(bash "$here/slowfs.sh" check 2>&1); then
      section_summary "mpi on slowfs: NOT MEASURED" "$problem"
      return
    fi
    mnt=$(mktemp -d /tmp/ffind-slowfs.XXXXXX)
    bash "$here/slowfs.sh" mount "$corpora/$slow_tree" "$mnt" "$slow_delay" >&2 ||
      die "could not mount slowfs at $mnt"
    entries[$mnt]=$(count_entries "$corpora/$slow_tree")
    local dfind_n= cache="source tree in the page cache, nothing cached by the FUSE layer"
    local note="Slow file system: slowfs, a FUSE passthrough of \`$slow_tree\` that sleeps ${slow_delay} µs before answering each request"
    mpi_run "slowfs-$slow_tree" "$mnt" "$mpi_slow_threads"
    note=
    bash "$here/slowfs.sh" umount "$mnt"
    rmdir "$mnt"
    mnt=
  fi
}

# --- run ----------------------------------------------------------------------------------
{
  printf '# ffind benchmark summary, %s\n\n' "$stamp"
  printf -- '- Sections: %s' "${sections[*]}"
  if [ $per_tree = 1 ]; then printf '; trees: %s' "${trees[*]}"; fi
  if wants git; then printf '; linux-git, monorepo'; fi
  if wants order && ! wants git; then printf '; monorepo'; fi
  if wants huge || wants order; then printf '; million'; fi
  if wants deep-lowfd; then printf '; deep (ulimit -n %s)' "$lowfd"; fi
  if wants slow; then printf '; slowfs-%s (%s µs per operation)' "$slow_tree" "$slow_delay"; fi
  if wants mpi; then printf '; mpi on %s' "${mpi_tree:-slowfs only}"; fi
  printf '\n'
  printf -- '- Machine: %s cores (`nproc`), kernel %s, load average at start %s\n' "$(nproc)" "$(uname -r)" "$(loadavg)"
  versions
  if [ $per_tree = 1 ] || wants git || wants deep-lowfd; then printf -- '- Warm cache; hyperfine `--warmup %s --runs %s`\n' "$warmup" "$runs"; fi
  if wants slow; then printf -- '- Slow file system: hyperfine `--warmup %s --runs %s`\n' "$slow_warmup" "$slow_runs"; fi
  printf -- '- Medians; "vs" = median / median of the floor named in the column\n\n'
} >"$summary"

if [ $per_tree = 1 ]; then
  for tree in "${trees[@]}"; do
    dir=$corpora/$tree
    find "$dir" >/dev/null # warm the cache before the first timed command
    if wants side; then side "$tree" "$dir"; fi
    if wants j1; then j1 "$tree" "$dir"; fi
    if wants first; then first "$tree" "$dir"; fi
    if wants memory; then memory "$tree" "$dir"; fi
    if wants sweep; then sweep "$tree" "$dir"; fi
    if wants crates; then crates "$tree" "$dir"; fi
    if wants sort; then sort_cost "$tree" "$dir"; fi
    if wants order; then order_trees "$tree" "$dir"; fi
  done
fi
if wants order; then order_filtered; fi
if wants git; then git_default; fi
if wants huge; then huge; fi
if wants cold; then cold; fi
if wants deep-lowfd; then deep_lowfd; fi
if wants slow; then slow; fi
if wants mpi; then mpi; fi

if [ -n "$cold_unavailable" ]; then
  section_summary "cold: NOT MEASURED" "$cold_unavailable"
fi
if [ -n "$slow_unavailable" ]; then
  section_summary "slow: NOT MEASURED" "FUSE is not usable on this machine, so the slow file system section did not run: $slow_unavailable"
fi
say "summary ($summary)"
cat "$summary"
echo "results: $out/$stamp-*" >&2
if [ -n "$slow_unavailable" ]; then
  echo "benches/run.sh: the slow section did not run: $slow_unavailable" >&2
  exit 3
fi
