//! What encoding a text file ffind reads (the config file, ignore files) was written in, where
//! it is not the UTF-8 they must be: UTF-16, what Windows PowerShell 5.1's `>` and `Out-File`
//! write, and Notepad's "Unicode". Read as UTF-8, such a file is a NUL between every two
//! characters: no line means what it says, and what the user needs to hear is the encoding.

/// What is said of a file written in UTF-16, after its path.
pub const UTF16: &str = "written in UTF-16 (as Windows PowerShell 5.1's '>' writes), not UTF-8";

/// How to mend it, said after what was not done with it.
pub const SAVE_AS_UTF8: &str =
    "save it as UTF-8 (Set-Content -Encoding utf8, or Notepad's Save as, Encoding UTF-8)";

/// How many bytes at the start of a file without a byte-order mark are looked at.
const SNIFF: usize = 64;

/// Whether `bytes` are UTF-16 text: they begin with its byte-order mark (FF FE, or FE FF), or,
/// without one, their start is ASCII with a NUL in every other byte (little- or big-endian).
/// A UTF-8 file never holds a NUL.
pub fn is_utf16(bytes: &[u8]) -> bool {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return true;
    }
    let head = &bytes[..bytes.len().min(SNIFF) & !1];
    let interleaved = |nul: usize| {
        head.chunks_exact(2)
            .all(|pair| pair[nul] == 0 && pair[1 - nul] != 0 && pair[1 - nul].is_ascii())
    };
    !head.is_empty() && (interleaved(1) || interleaved(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_is_told_from_utf8() {
        let text = "--hidden\r\n*.log\r\n";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        for bytes in [&le, &be] {
            assert!(is_utf16(bytes));
        }
        // Non-ASCII text is told by its mark.
        assert!(is_utf16(&[0xFF, 0xFE, 0xE5, 0x65]));
        assert!(is_utf16(&[0xFE, 0xFF, 0x65, 0xE5]));
        for utf8 in [
            "--hidden\n",
            "*.log\n",
            "\u{feff}--hidden\n",
            "日本\n",
            "",
            "a",
        ] {
            assert!(!is_utf16(utf8.as_bytes()), "{utf8:?}");
        }
        assert!(!is_utf16(b"a\0\0b"));
    }
}
