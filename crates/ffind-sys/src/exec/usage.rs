//! What a finished child cost, as `ffind --bench` records it for each timed run
//! ([`crate::exec::wait_with_usage`] measures it, on each system its own way).

/// What one child process cost, measured when it was reaped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Usage {
    /// The exit code; `None` when a signal ended the process (Unix).
    pub exit_code: Option<i32>,
    /// Seconds of CPU time in user mode.
    pub user: f64,
    /// Seconds of CPU time in the kernel.
    pub system: f64,
    /// Peak resident memory (the peak working set on Windows) in bytes; `None` where the
    /// system cannot tell.
    pub max_rss: Option<u64>,
}
