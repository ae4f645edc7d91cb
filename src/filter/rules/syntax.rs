//! git's rule syntax, line by line, as the `ignore` crate's `GitignoreBuilder::add_line` reads
//! it (comments, trailing spaces, `!`, `\!`, `\#`, a leading `/`, a trailing `/` for
//! directories only, a `**/` prefix for patterns without a slash), and a glob's tokens when it
//! uses only what the fast classes handle.

use super::keys::{has_byte, set_byte};

/// One token of a wildcard pattern, on bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Tok {
    Byte(u8),
    /// `?`: any one byte (no `/` ever reaches a component).
    Any,
    /// `[...]`: one byte of the set (a 256-bit set: 32 bytes, where a `[bool; 256]` took 256
    /// for each class of a rule).
    Class(Box<[u64; 4]>),
    /// `*`: any run of bytes.
    Star,
    /// `**` as a whole path component: any number of components.
    Deep,
}

impl Tok {
    #[inline]
    pub(super) fn fits(&self, b: u8) -> bool {
        match self {
            Tok::Byte(c) => *c == b,
            Tok::Any => true,
            Tok::Class(set) => has_byte(set, b),
            Tok::Star | Tok::Deep => unreachable!("stars split segments"),
        }
    }
}

/// One parsed line, as `GitignoreBuilder::add_line` parses it.
pub(super) struct Line<'a> {
    pub(super) whitelist: bool,
    pub(super) dir_only: bool,
    /// The pattern, a `/**` end made `/**/*` as the crate makes it.
    pub(super) glob: std::borrow::Cow<'a, str>,
    /// The crate puts `**/` before it (a pattern without a slash matches at any depth):
    /// the fast classes take it as a rule on the name instead of building that string.
    pub(super) any_depth: bool,
}

impl Line<'_> {
    /// The glob as the crate builds it.
    pub(super) fn actual(&self) -> std::borrow::Cow<'_, str> {
        if self.any_depth {
            format!("**/{}", self.glob).into()
        } else {
            std::borrow::Cow::Borrowed(&self.glob)
        }
    }
}

/// `GitignoreBuilder::add_line`'s parsing, without building the glob. `None` for no rule.
pub(super) fn parse_line(line: &str) -> Option<Line<'_>> {
    if line.starts_with('#') {
        return None;
    }
    let mut line = trim_trailing_unescaped_spaces(line);
    if line.is_empty() {
        return None;
    }
    let mut whitelist = false;
    let mut absolute = false;
    if line.starts_with("\\!") || line.starts_with("\\#") {
        line = &line[1..];
        absolute = line.starts_with('/');
    } else {
        if let Some(l) = line.strip_prefix('!') {
            whitelist = true;
            line = l;
        }
        if let Some(l) = line.strip_prefix('/') {
            line = l;
            absolute = true;
        }
    }
    if line.is_empty() {
        return None;
    }
    let mut dir_only = false;
    if let Some(l) = line.strip_suffix('/') {
        dir_only = true;
        line = l.strip_suffix('\\').unwrap_or(l);
    }
    let doublestar_prefix = line.starts_with("**/") || line == "**";
    let any_depth = !absolute && !line.contains('/') && !doublestar_prefix;
    // Only a pattern with a slash can end with "/**" (and then gets no "**/" before it).
    let glob = if line.ends_with("/**") {
        format!("{line}/*").into()
    } else {
        std::borrow::Cow::Borrowed(line)
    };
    Some(Line {
        whitelist,
        dir_only,
        glob,
        any_depth,
    })
}

/// The `ignore` crate's `trim_trailing_unescaped_spaces`.
pub(super) fn trim_trailing_unescaped_spaces(line: &str) -> &str {
    let bytes = line.as_bytes();
    let mut last_space = None;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                if i + 1 >= bytes.len() {
                    return line;
                }
                i += 2;
                last_space = None;
            }
            b' ' => {
                if last_space.is_none() {
                    last_space = Some(i);
                }
                i += 1;
            }
            _ => {
                last_space = None;
                i += 1;
            }
        }
    }
    &line[..last_space.unwrap_or(line.len())]
}

/// Tokens of a glob, when it only uses what the fast classes handle: literal bytes (escaped
/// or not), single `*`, `?`, and classes of ASCII letters, digits, `.` and `_` (with ranges
/// between letters or digits). `/` comes out as `Byte(b'/')`. `None` otherwise.
pub(super) fn tokens(glob: &str) -> Option<Vec<Tok>> {
    let b = glob.as_bytes();
    // Looked for once, at the first `**`: at each in turn, a line of them took time quadratic
    // in its length.
    let mut escapes = None;
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => {
                let c = *b.get(i + 1)?;
                out.push(Tok::Byte(c));
                i += 2;
            }
            b'*' if b.get(i + 1) == Some(&b'*') => {
                // Only `**` as a whole component, in a glob without escapes (where `\/` could
                // stand before it): anything else is left to globset.
                let whole =
                    (i == 0 || b[i - 1] == b'/') && matches!(b.get(i + 2), None | Some(b'/'));
                if !whole || *escapes.get_or_insert_with(|| b.contains(&b'\\')) {
                    return None;
                }
                out.push(Tok::Deep);
                i += 2;
            }
            b'*' => {
                out.push(Tok::Star);
                i += 1;
            }
            b'?' => {
                out.push(Tok::Any);
                i += 1;
            }
            b'[' => {
                let mut set = Box::new([0u64; 4]);
                let plain = |c: u8| c.is_ascii_alphanumeric() || c == b'.' || c == b'_';
                let mut j = i + 1;
                let mut members = 0;
                loop {
                    let c = *b.get(j)?;
                    if c == b']' && members > 0 {
                        break;
                    }
                    if !plain(c) {
                        return None;
                    }
                    if b.get(j + 1) == Some(&b'-') {
                        let end = *b.get(j + 2)?;
                        let same_kind = (c.is_ascii_digit() && end.is_ascii_digit())
                            || (c.is_ascii_lowercase() && end.is_ascii_lowercase())
                            || (c.is_ascii_uppercase() && end.is_ascii_uppercase());
                        if !same_kind || end < c {
                            return None;
                        }
                        for x in c..=end {
                            set_byte(&mut set, x);
                        }
                        j += 3;
                    } else {
                        set_byte(&mut set, c);
                        j += 1;
                    }
                    members += 1;
                }
                out.push(Tok::Class(set));
                i = j + 1;
            }
            b'{' | b'}' | b']' => return None,
            c => {
                out.push(Tok::Byte(c));
                i += 1;
            }
        }
    }
    Some(out)
}

pub(super) fn literal(toks: &[Tok]) -> Option<Vec<u8>> {
    toks.iter()
        .map(|t| match t {
            Tok::Byte(c) => Some(*c),
            _ => None,
        })
        .collect()
}
