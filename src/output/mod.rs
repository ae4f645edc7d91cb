//! Output: the one writer ([`printer`]), the styles results can be shown in ([`style`]:
//! escaped, colored, hyperlinked, through a template, as `-l` details or JSON), one small
//! module each, and `--sort`'s gathering of results ([`sort`]).

pub mod colors;
pub mod details;
pub mod hyperlink;
pub mod json;
pub mod owners;
pub mod printer;
pub mod sort;
pub mod style;
