//! Output: the one writer ([`printer`]), the styles results can be shown in ([`style`]:
//! escaped, colored, hyperlinked, through a template, as `-l` details or JSON), one small
//! module each, `--sort`'s gathering of results ([`sort`]) and the results held at the start
//! of a search ([`hold`]), and the end of a colored output that a signal interrupts
//! ([`interrupted`]).

pub mod colors;
pub mod details;
pub mod explain;
pub mod hold;
pub mod hyperlink;
pub mod interrupted;
pub mod json;
pub mod owners;
pub mod printer;
pub mod sort;
pub mod style;
