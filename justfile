# ffind's everyday commands. Shorthands only: the README's commands work without just.

set shell := ["bash", "-euo", "pipefail", "-c"]

# List the recipes
default:
    @just --list

# Build the release binary (target/release/ffind)
build:
    cargo build --release

# The README's test command: the whole suite
test:
    cargo test --all-targets

# The --mpi suite (tests/mpi/, docs/SCALE.md) under LAUNCHER: mpirun (Open MPI: openmpi-bin
# libopenmpi-dev libclang-dev), mpiexec.mpich (a build with MPICC=mpicc.mpich) or srun (a cluster:
# .ci/slurm-up.sh). `bash .ci/mpi.sh` runs every combination, as CI does
test-mpi LAUNCHER="mpirun":
    FFIND_MPI_LAUNCHER={{ LAUNCHER }} cargo test --features mpi --test mpi

# Clippy with warnings as errors, rustfmt's check and the import circles (as CI runs them;
# the circles are a test: tests/integration/layers.rs)
lint:
    cargo clippy --all-targets -- -D warnings
    cargo fmt --all -- --check
    cargo test --test integration layers

# Install the benchmarks' peers (fd, bfs, hyperfine, the floor) and build their trees, once
# before `just bench` (benches/README.md): `just bench-setup`, or `just bench-setup linux`
bench-setup *TREES:
    python3 benches/bench.py setup {{ TREES }}

# Benchmarks against fd, bfs, find and the syscall floor: `just bench linux`, `just bench slow` (benches/README.md)
bench *ARGS:
    python3 benches/bench.py {{ ARGS }}

# Release archives as fd ships them, into target/dist/ with SHA256SUMS: Linux (static musl:
# x86_64, aarch64, armv7, i686, and their .deb), Windows (x86_64, aarch64), macOS (x86_64,
# aarch64), FreeBSD (x86_64), each checked before it counts (.ci/release.py --help;
# docs/INSTALL.md). One target: `just release aarch64-unknown-linux-musl`; `--no-suite` skips
# the test suites
release *ARGS:
    python3 .ci/release.py {{ ARGS }}

# The crate as crates.io would take it: `cargo publish --dry-run` (packaged, then built from the
# package alone), then installed from that package into target/publish-check
publish-check:
    cargo publish --dry-run --locked --allow-dirty
    cargo install --locked --path "target/package/ffind-cli-$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)" --root target/publish-check
    target/publish-check/bin/ffind --version

# Build the Debian package (target/debian/ffind_*.deb) with cargo-deb (`cargo install cargo-deb`)
deb:
    cargo deb

# Exactly what CI runs
ci:
    bash .ci/run

# Regenerate the committed shell completions (completions/) and manual (docs/ffind.1) from the clap definition
completions:
    cargo build
    for pair in bash:ffind.bash zsh:_ffind fish:ffind.fish elvish:ffind.elv powershell:_ffind.ps1; do \
      target/debug/ffind --gen-completions "${pair%%:*}" > "completions/${pair#*:}.tmp"; \
      mv "completions/${pair#*:}.tmp" "completions/${pair#*:}"; \
    done
    target/debug/ffind --gen-man > docs/ffind.1.tmp
    mv docs/ffind.1.tmp docs/ffind.1

# The property test with many more cases (tests/integration/proptest_parity.rs): every method
# against the reference walk on random trees and command lines. `just fuzz-parity 5000 --release`
fuzz-parity CASES="2000" *ARGS:
    PROPTEST_CASES={{ CASES }} cargo test {{ ARGS }} --test integration proptest_parity

# The git-referee property test with many more cases (tests/integration/git_referee.rs): every
# method against git ls-files on random trees in real repositories. `just fuzz-git 5000`
fuzz-git CASES="2000" *ARGS:
    GIT_REFEREE_CASES={{ CASES }} cargo test {{ ARGS }} --test integration git_referee

# The suite with the POSIX reader of macOS and the BSDs built on Linux instead of the getdents64 one
test-portable:
    cargo test --all-targets --features portable

# Clippy for macOS and FreeBSD, type-checked but not run (as CI runs it)
lint-targets:
    rustup target add x86_64-apple-darwin aarch64-apple-darwin x86_64-unknown-freebsd
    for t in x86_64-apple-darwin aarch64-apple-darwin x86_64-unknown-freebsd; do cargo clippy --all-targets --locked --target "$t" -- -D warnings; done

# The Windows build (x86_64-pc-windows-gnu): clippy, and the suite under Wine with fd's own Windows
# build to compare (as CI runs it; installs wine64 and mingw-w64 if missing; .ci/wine/runner runs
# one .exe by hand)
windows:
    bash .ci/windows.sh
