//! git's configuration grammar, as git reads its files: sections (`[core]`, `[includeIf
//! "gitdir:~/w/"]`, the old `[a.B]`), keys and their values (quoted parts, backslash escapes
//! and line continuations, `#` and `;` comments, a byte order mark), called back entry by
//! entry. What the entries mean (which key, which include) is `mod.rs`'s business.

/// One `key = value` of a configuration file, names lowercased (the subsection keeps its
/// case, as in git).
pub struct Entry<'a> {
    pub section: &'a [u8],
    pub subsection: Option<&'a [u8]>,
    pub key: &'a [u8],
    /// `None` for a key without `=`.
    pub value: Option<&'a [u8]>,
}

/// Calls `on` with each entry of a configuration file, in order, by git's grammar; stops at
/// the first line git would refuse.
pub fn parse(data: &[u8], on: &mut dyn FnMut(Entry<'_>)) {
    let mut p = Parser {
        data: data.strip_prefix(b"\xef\xbb\xbf").unwrap_or(data),
        i: 0,
    };
    let mut section = Vec::new();
    let mut subsection: Option<Vec<u8>> = None;
    let (mut key, mut value) = (Vec::new(), Vec::new());
    loop {
        let Some(c) = p.next() else { return };
        match c {
            c if is_space(c) => {}
            b'#' | b';' => p.skip_line(),
            b'[' => match p.section_header() {
                Some((s, sub)) => {
                    section = s;
                    subsection = sub;
                }
                None => return,
            },
            c if c.is_ascii_alphabetic() => {
                key.clear();
                key.push(c.to_ascii_lowercase());
                if !p.entry(&mut key, &mut value) {
                    return;
                }
                let has_value = key.last() == Some(&b'=');
                if has_value {
                    key.pop();
                }
                on(Entry {
                    section: &section,
                    subsection: subsection.as_deref(),
                    key: &key,
                    value: has_value.then_some(&value[..]),
                });
            }
            _ => return,
        }
    }
}

/// git's `isspace`: no vertical tab or form feed.
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// A cursor over a configuration file's bytes, with git's line ends: CRLF reads as LF.
struct Parser<'a> {
    data: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn next(&mut self) -> Option<u8> {
        let c = *self.data.get(self.i)?;
        self.i += 1;
        if c == b'\r' && self.data.get(self.i) == Some(&b'\n') {
            self.i += 1;
            return Some(b'\n');
        }
        Some(c)
    }

    /// The next byte, or the line end git reads at the end of the file.
    fn next_or_end(&mut self) -> (u8, bool) {
        match self.next() {
            Some(c) => (c, false),
            None => (b'\n', true),
        }
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.next() {
            if c == b'\n' {
                return;
            }
        }
    }

    /// After `[`: `[name]`, `[name "sub"]` or `[name.sub]`; `None` where git refuses it.
    fn section_header(&mut self) -> Option<(Vec<u8>, Option<Vec<u8>>)> {
        let mut name = Vec::new();
        loop {
            let (c, end) = self.next_or_end();
            if end {
                return None;
            }
            match c {
                b']' => break,
                b'\n' => return None,
                c if is_space(c) => {
                    return Some((name, Some(self.quoted_subsection()?)));
                }
                c if c.is_ascii_alphanumeric() || c == b'-' || c == b'.' => {
                    name.push(c.to_ascii_lowercase())
                }
                _ => return None,
            }
        }
        // The old `[section.sub]` form: the subsection lowercased with the rest.
        match name.iter().position(|&b| b == b'.') {
            Some(dot) => {
                let sub = name[dot + 1..].to_vec();
                name.truncate(dot);
                Some((name, Some(sub)))
            }
            None => Some((name, None)),
        }
    }

    /// After `[name` and a space: ` "sub"]`, `\` escaping the next byte.
    fn quoted_subsection(&mut self) -> Option<Vec<u8>> {
        let mut c;
        loop {
            c = self.next_or_end().0;
            if !is_space(c) || c == b'\n' {
                break;
            }
        }
        if c != b'"' {
            return None;
        }
        let mut sub = Vec::new();
        loop {
            let (c, end) = self.next_or_end();
            match c {
                _ if end => return None,
                b'\n' => return None,
                b'"' => break,
                b'\\' => match self.next_or_end() {
                    (_, true) | (b'\n', _) => return None,
                    (c, _) => sub.push(c),
                },
                c => sub.push(c),
            }
        }
        (self.next_or_end().0 == b']').then_some(sub)
    }

    /// The rest of an entry whose key starts `key`: the key's name, then, after `=`, the
    /// value into `value` with `=` pushed on `key` to say there is one. `false` where git
    /// refuses the line.
    fn entry(&mut self, key: &mut Vec<u8>, value: &mut Vec<u8>) -> bool {
        let mut c;
        loop {
            c = self.next_or_end().0;
            if !(c.is_ascii_alphanumeric() || c == b'-') {
                break;
            }
            key.push(c.to_ascii_lowercase());
        }
        while c == b' ' || c == b'\t' {
            c = self.next_or_end().0;
        }
        match c {
            b'\n' => true,
            b'=' => {
                key.push(b'=');
                self.value(value)
            }
            _ => false,
        }
    }

    /// A value up to its line's end: spaces around it dropped, inner ones kept, `"` quoting,
    /// escapes `\\ \" \n \t \b`, `\` before the line end continuing it, `#` and `;` starting a
    /// comment outside quotes. `false` for an unknown escape or an open quote.
    fn value(&mut self, value: &mut Vec<u8>) -> bool {
        value.clear();
        let (mut quoted, mut comment) = (false, false);
        // Where trailing unquoted spaces began.
        let mut trim: Option<usize> = None;
        loop {
            let (c, _) = self.next_or_end();
            if c == b'\n' {
                if quoted {
                    return false;
                }
                if let Some(t) = trim {
                    value.truncate(t);
                }
                // A NUL ends the value git sees.
                if let Some(nul) = value.iter().position(|&b| b == 0) {
                    value.truncate(nul);
                }
                return true;
            }
            if comment {
                continue;
            }
            if is_space(c) && !quoted {
                trim.get_or_insert(value.len());
                if !value.is_empty() {
                    value.push(c);
                }
                continue;
            }
            if !quoted && (c == b'#' || c == b';') {
                comment = true;
                continue;
            }
            trim = None;
            match c {
                b'\\' => match self.next_or_end().0 {
                    b'\n' => {}
                    b't' => value.push(b'\t'),
                    b'b' => value.push(b'\x08'),
                    b'n' => value.push(b'\n'),
                    c @ (b'\\' | b'"') => value.push(c),
                    _ => return false,
                },
                b'"' => quoted = !quoted,
                c => value.push(c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every entry of `text`, as `section[.sub].key=value` (`value` absent: no `=`).
    fn entries(text: &[u8]) -> Vec<String> {
        let mut out = Vec::new();
        parse(text, &mut |e| {
            let mut s = String::from_utf8_lossy(e.section).into_owned();
            if let Some(sub) = e.subsection {
                s += ".";
                s += &String::from_utf8_lossy(sub);
            }
            s += ".";
            s += &String::from_utf8_lossy(e.key);
            if let Some(v) = e.value {
                s += "=";
                s += &String::from_utf8_lossy(v);
            }
            out.push(s);
        });
        out
    }

    #[test]
    fn reads_gits_grammar() {
        let text = b"\xef\xbb\xbf# c\n[Core]\n\texcludesFile = \"~/a b\" ; c\r\n\
            [includeIf \"gitdir:~/W\\\"x/\"]\n path=x\\\ny\n[a.B] k\n[s] v = 1 \\t \" 2 \" # c\n\
            [t] w = \"open\n[u] never = 1\n";
        assert_eq!(
            entries(text),
            [
                "core.excludesfile=~/a b",
                "includeif.gitdir:~/W\"x/.path=xy",
                "a.b.k",
                "s.v=1 \t  2 ",
            ]
        );
    }
}
