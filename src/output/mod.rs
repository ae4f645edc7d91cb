//! Output: the one writer ([`printer`]).

pub mod printer;
