//! Output: the one writer ([`printer`]), and `--sort`'s gathering of results ([`sort`]).

pub mod printer;
pub mod sort;
