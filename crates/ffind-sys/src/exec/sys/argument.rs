//! One argument of a command as made for a result, for the systems' command builders.

use std::ffi::OsString;
use std::ops::Range;

/// One argument of a command, as made for a result: its text, and where the values the
/// result gave the placeholders lie in it (ranges of its encoded bytes).
#[derive(Debug, Clone, Default)]
pub struct Argument {
    pub text: OsString,
    pub values: Vec<Range<usize>>,
}

impl Argument {
    /// An argument of the command's own, with no value in it.
    pub fn fixed(text: OsString) -> Argument {
        Argument {
            text,
            values: Vec::new(),
        }
    }

    /// The values in it, as encoded bytes.
    #[cfg_attr(unix, allow(dead_code))]
    pub fn values(&self) -> impl Iterator<Item = &[u8]> {
        let bytes = self.text.as_encoded_bytes();
        self.values.iter().map(move |r| &bytes[r.clone()])
    }
}
