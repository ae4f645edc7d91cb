#!/usr/bin/env bash
# CI's --mpi part (.ci/run calls it after the default suite, which stays free of MPI;
# docs/SCALE.md): ffind built with `--features mpi` against Open MPI and against MPICH, each
# suite (tests/mpi) run under that library's own launcher and under Slurm's srun on a one-node
# cluster (.ci/slurm-up.sh).
#
# Both libraries install side by side on Debian: /usr/bin/mpicc, mpirun and pkg-config's
# `mpi` are alternatives (Open MPI's win, priority 50 against 40), while mpicc.openmpi and
# mpicc.mpich stay reachable by name. rsmpi's build (mpi-sys, through build-probe-mpi) takes
# the library from $MPI_PKG_CONFIG if set, else from `$MPICC -show` (default `mpicc`), else
# from pkg-config's mpich or ompi. So each build names its wrapper in MPICC (MPI_PKG_CONFIG
# unset). Both share one target directory, but mpi-sys's build script does not rerun when
# MPICC changes (it watches only its own C files), so a directory keeps the first library it
# was built against: before each library's debug builds, `cargo clean -p mpi-sys` removes that
# one package, and cargo builds it, rsmpi and ffind again against the library MPICC names,
# every other crate as it was. `links` checks each binary. No update-alternatives is needed.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${CARGO_TARGET_DIR:-$PWD/target}
unset MPI_PKG_CONFIG

echo "== mpi: packages"
# Open MPI, MPICH, libclang (rsmpi's bindgen), Slurm (what slurm-wlm depends on) and
# munge: about a minute on a fresh machine.
need=()
for pkg in openmpi-bin libopenmpi-dev mpich libmpich-dev libclang-dev \
  slurmctld slurmd slurm-client munge; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep 'ok installed' >/dev/null || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
mpirun.openmpi --version 2>&1 | sed -n 1p
mpichversion | sed -n 1p

# Fails unless `binary` links `library` (mpi-sys built against the other MPI, and kept).
# ldd's output is taken whole before it is searched: `ldd | grep -q` under pipefail fails
# whenever grep's early exit kills ldd with SIGPIPE, though the library is there.
links() {
  local deps
  deps=$(ldd "$1")
  if [[ $deps != *"$2"* ]]; then
    echo "$1 does not link $2: mpi-sys was built against another MPI: cargo clean -p mpi-sys (--release for a release build), then build again" >&2
    grep -i mpi <<<"$deps" >&2 || true
    exit 1
  fi
}

# Slurm: started here, stopped when this script ends, however it ends.
slurm_dir=$(mktemp -d /tmp/ffind-slurm.XXXXXX)
trap 'bash .ci/slurm-up.sh --stop "$slurm_dir" && rm -rf "$slurm_dir"' EXIT
# The debug builds from here on link the library of `mpicc` (only they ever see MPICH; the
# release build is Open MPI's alone).
against() {
  export MPICC=$1
  cargo clean -p mpi-sys
}

# One run of the suite: `launcher` (and srun's PMI plug-in), built against the library of the
# last `against`.
suite() {
  local launcher=$1 pmi=$2
  echo "== mpi: test under $launcher${pmi:+ --mpi=$pmi} ($MPICC)"
  local start=$SECONDS
  FFIND_MPI_LAUNCHER=$launcher FFIND_SRUN_MPI=$pmi cargo test --features mpi --locked --test mpi
  echo "($((SECONDS - start)) s)"
}

echo "== mpi: Open MPI: clippy"
against mpicc.openmpi
cargo clippy --all-targets --features mpi --locked -- -D warnings
echo "== mpi: Open MPI: release build"
cargo build --release --features mpi --locked
links "$target/release/ffind" libmpi.so
suite mpirun ""
links "$target/debug/ffind" libmpi.so

echo "== mpi: Slurm"
SLURM_CONF=$(bash .ci/slurm-up.sh "$slurm_dir")
export SLURM_CONF
srun --version
srun --mpi=list 2>&1 | tr '\n' ' '
echo
# pmix: Debian's Open MPI is built with PMIx (ext3x, against libpmix2), as is Slurm's
# mpi_pmix_v4; under pmi2 Open MPI's MPI_Init fails ("OMPI was not built with SLURM's PMI
# support"). MPICH's built-in PMI client speaks pmi2, and under pmix each task would be a
# job of its own.
suite srun pmix

echo "== mpi: MPICH"
against mpicc.mpich
suite mpiexec.mpich ""
links "$target/debug/ffind" libmpich.so
suite srun pmi2
