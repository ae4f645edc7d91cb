//! The allocator of the static 64-bit Linux builds (musl): mimalloc, chosen by `cfg` here so
//! that nothing above the ground floor names it. musl's own allocator serializes the threads
//! of a parallel walk on one lock (docs/PERFORMANCE.md has the figures). Every other build
//! allocates with its system's allocator.

#[cfg(all(target_env = "musl", target_pointer_width = "64"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
