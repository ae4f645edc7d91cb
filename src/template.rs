//! fd's placeholders, shared by `--format` (what is printed) and `-x`/`-X` (the arguments a
//! command gets): `{}` the path, `{/}` its file name, `{//}` its parent, `{.}` the path without
//! its extension, `{/.}` the file name without its extension. `{{` and `}}` stand for literal
//! braces; any other brace is literal too. Everything works on raw bytes, so names that are not
//! UTF-8 come through intact.

use std::ops::Range;

use crate::fs::is_separator;

/// One piece of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    /// Bytes copied as they are.
    Text(Vec<u8>),
    /// `{}`: the whole path.
    Path,
    /// `{/}`: the last component.
    Basename,
    /// `{//}`: everything before the last component ("." when there is none).
    Parent,
    /// `{.}`: the path without the file name's extension.
    NoExt,
    /// `{/.}`: the file name without its extension.
    BasenameNoExt,
}

/// A parsed template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    tokens: Vec<Token>,
}

impl Template {
    /// Parses a template; never fails (an unknown `{...}` is literal text, as in fd).
    pub fn parse(text: &[u8]) -> Template {
        const PLACEHOLDERS: [(&[u8], Token); 5] = [
            (b"{}", Token::Path),
            (b"{/}", Token::Basename),
            (b"{//}", Token::Parent),
            (b"{.}", Token::NoExt),
            (b"{/.}", Token::BasenameNoExt),
        ];
        let mut tokens = Vec::new();
        let mut text_run = Vec::new();
        let mut rest = text;
        'outer: while let Some(&c) = rest.first() {
            if rest.starts_with(b"{{") || rest.starts_with(b"}}") {
                text_run.push(c);
                rest = &rest[2..];
                continue;
            }
            if c == b'{' {
                for (spelling, token) in &PLACEHOLDERS {
                    if rest.starts_with(spelling) {
                        if !text_run.is_empty() {
                            tokens.push(Token::Text(std::mem::take(&mut text_run)));
                        }
                        tokens.push(token.clone());
                        rest = &rest[spelling.len()..];
                        continue 'outer;
                    }
                }
            }
            text_run.push(c);
            rest = &rest[1..];
        }
        if !text_run.is_empty() {
            tokens.push(Token::Text(text_run));
        }
        Template { tokens }
    }

    /// Whether any placeholder appears (fd appends `{}` to a command that has none).
    pub fn has_placeholder(&self) -> bool {
        self.tokens.iter().any(|t| !matches!(t, Token::Text(_)))
    }

    /// Appends the template expanded for `path` to `out`.
    pub fn expand_into(&self, path: &[u8], out: &mut Vec<u8>) {
        self.expand_into_with(path, out, |value, out| out.extend_from_slice(value));
    }

    /// Appends the template expanded for `path` to `out`, each placeholder's value written by
    /// `value` (which may escape it or change its separators); text is copied as it is.
    pub fn expand_into_with(
        &self,
        path: &[u8],
        out: &mut Vec<u8>,
        mut value: impl FnMut(&[u8], &mut Vec<u8>),
    ) {
        for token in &self.tokens {
            match token {
                Token::Text(t) => out.extend_from_slice(t),
                Token::Path => value(path, out),
                Token::Basename => value(basename(path), out),
                Token::Parent => value(parent(path), out),
                Token::NoExt => {
                    let name = basename(path);
                    let cut = path.len() - name.len() + without_extension(name).len();
                    value(&path[..cut], out);
                }
                Token::BasenameNoExt => value(without_extension(basename(path)), out),
            }
        }
    }

    /// The template expanded for `path` as one argument of a command: a placeholder's value
    /// that would begin the argument with '-' gets "./" in front, so that no file name reads as
    /// an option (text of the template's own is the command's, and kept as it is); each `/` in
    /// a value is written as `separator` when one is given (`--path-separator`).
    pub fn expand_argument(&self, path: &[u8], separator: Option<&[u8]>) -> Vec<u8> {
        self.expand_argument_marked(path, separator).0
    }

    /// [`Template::expand_argument`], with where each placeholder's value lies in it (what
    /// came from the result, not from the command line).
    pub fn expand_argument_marked(
        &self,
        path: &[u8],
        separator: Option<&[u8]>,
    ) -> (Vec<u8>, Vec<Range<usize>>) {
        let mut out = Vec::new();
        let mut values = Vec::new();
        self.expand_into_with(path, &mut out, |value, out| {
            let start = out.len();
            let guarded;
            let value = if out.is_empty() && reads_as_option(value) {
                guarded = [crate::fs::CURRENT_DIR, value].concat();
                &guarded[..]
            } else {
                value
            };
            match separator {
                Some(sep) => {
                    push_separated(out, value, sep, |out, piece| out.extend_from_slice(piece))
                }
                None => out.extend_from_slice(value),
            }
            values.push(start..out.len());
        });
        (out, values)
    }

    /// The template expanded for `path`.
    pub fn expand(&self, path: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        self.expand_into(path, &mut out);
        out
    }
}

/// Whether a command given `arg` would take it for an option: it begins with '-'. One test
/// for the `./` guard of results (the printer) and of commands' arguments (`-x`, `-X`).
pub fn reads_as_option(arg: &[u8]) -> bool {
    arg.first() == Some(&b'-')
}

/// `path` without trailing separators ("/" stays "/").
fn trim_slashes(path: &[u8]) -> &[u8] {
    let end = path.len() - path.iter().rev().take_while(|&&b| is_separator(b)).count();
    if end == 0 && !path.is_empty() {
        &path[..1]
    } else {
        &path[..end]
    }
}

/// The last component of `path`.
pub fn basename(path: &[u8]) -> &[u8] {
    let path = trim_slashes(path);
    if path == b"/" {
        return path;
    }
    match path.iter().rposition(|&b| is_separator(b)) {
        Some(i) => &path[i + 1..],
        None => path,
    }
}

/// Everything before the last component: "." for a bare name, "/" for a child of "/".
pub fn parent(path: &[u8]) -> &[u8] {
    let path = trim_slashes(path);
    match path.iter().rposition(|&b| is_separator(b)) {
        Some(0) => b"/",
        Some(i) => trim_slashes(&path[..i]),
        None => b".",
    }
}

/// A file name without its extension: up to the last dot, unless that dot starts the name
/// (".bashrc" has no extension) or the name is "." or "..".
pub fn without_extension(name: &[u8]) -> &[u8] {
    match name.iter().rposition(|&b| b == b'.') {
        Some(0) | None => name,
        Some(_) if name == b".." => name,
        Some(i) => &name[..i],
    }
}

/// Appends `path` to `out` with `separator` for each separator (`/`, and on Windows `\`) in
/// it (`--path-separator`), each piece between them written by `piece` (which may escape it).
pub fn push_separated(
    out: &mut Vec<u8>,
    path: &[u8],
    separator: &[u8],
    mut piece: impl FnMut(&mut Vec<u8>, &[u8]),
) {
    for (i, p) in path.split(|&b| is_separator(b)).enumerate() {
        if i > 0 {
            out.extend_from_slice(separator);
        }
        piece(out, p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand(template: &str, path: &str) -> String {
        String::from_utf8(Template::parse(template.as_bytes()).expand(path.as_bytes())).unwrap()
    }

    #[test]
    fn a_separator_replaces_slashes_in_values_only() {
        let t = Template::parse(b"a/{}:{//}:{/}:{.}");
        assert_eq!(
            t.expand_argument(b"./d/e.x", Some(b"\\")),
            b"a/.\\d\\e.x:.\\d:e.x:.\\d\\e".to_vec()
        );
        assert_eq!(t.expand_argument(b"d/e", None), t.expand(b"d/e"));
    }

    #[test]
    fn marked_values_are_what_the_result_gave() {
        let (text, values) =
            Template::parse(b"x{/}-{//}").expand_argument_marked(b"-d/-f", Some(b"#"));
        assert_eq!(text, b"x-f--d");
        assert_eq!(values, [1..3, 4..6]);
        let (text, values) = Template::parse(b"{/}").expand_argument_marked(b"d/-f", None);
        assert_eq!((&text[values[0].clone()], values.len()), (&b"./-f"[..], 1));
    }

    #[test]
    fn an_argument_never_begins_with_a_values_dash() {
        let arg = |t: &str, path: &[u8]| Template::parse(t.as_bytes()).expand_argument(path, None);
        for (t, want) in [
            ("{}", "./-a/-b.c"),
            ("{/}", "./-b.c"),
            ("{//}", "./-a"),
            ("{.}", "./-a/-b"),
            ("{/.}", "./-b"),
            ("{/}.bak", "./-b.c.bak"),
            ("{/.}{/}", "./-b-b.c"),
            // The command's own text is the command's: "-" and "--name=" stay.
            ("--name={/}", "--name=-b.c"),
            ("-{/}", "--b.c"),
            ("x{/}", "x-b.c"),
        ] {
            assert_eq!(arg(t, b"-a/-b.c"), want.as_bytes(), "{t}");
        }
        assert_eq!(arg("{/}", b"./-x"), b"./-x");
        assert_eq!(arg("{/}", b"x/y"), b"y");
        assert_eq!(
            Template::parse(b"{}").expand_argument(b"-d/f", Some(b"#")),
            b".#-d#f"
        );
    }

    #[test]
    fn every_placeholder() {
        assert_eq!(expand("{}", "a/b/c.tar.gz"), "a/b/c.tar.gz");
        assert_eq!(expand("{/}", "a/b/c.tar.gz"), "c.tar.gz");
        assert_eq!(expand("{//}", "a/b/c.tar.gz"), "a/b");
        assert_eq!(expand("{.}", "a/b/c.tar.gz"), "a/b/c.tar");
        assert_eq!(expand("{/.}", "a/b/c.tar.gz"), "c.tar");
        assert_eq!(expand("mv {} {.}.bak", "x.txt"), "mv x.txt x.bak");
    }

    #[test]
    fn edges_of_names() {
        assert_eq!(expand("{//}", "file"), ".");
        assert_eq!(expand("{//}", "/file"), "/");
        assert_eq!(expand("{/}", "/"), "/");
        assert_eq!(expand("{.}", ".bashrc"), ".bashrc");
        assert_eq!(expand("{.}", "dir.d/.bashrc"), "dir.d/.bashrc");
        assert_eq!(expand("{.}", "dir.d/noext"), "dir.d/noext");
        assert_eq!(expand("{/.}", "../x.y"), "x");
        assert_eq!(expand("{//}", "a/b/"), "a");
    }

    #[test]
    fn braces_escape_and_unknown_placeholders_are_text() {
        assert_eq!(expand("{{}}", "x"), "{}");
        assert_eq!(expand("{{{}}}", "x"), "{x}");
        assert_eq!(expand("{x}", "p"), "{x}");
        assert_eq!(expand("{", "p"), "{");
        assert!(!Template::parse(b"echo").has_placeholder());
        assert!(Template::parse(b"{/.}").has_placeholder());
    }

    mod properties {
        use super::super::*;
        use proptest::prelude::*;

        /// `text` with every brace doubled: a template that prints `text` as it is.
        fn escape_braces(text: &[u8]) -> Vec<u8> {
            let mut out = Vec::new();
            for &b in text {
                out.push(b);
                if b == b'{' || b == b'}' {
                    out.push(b);
                }
            }
            out
        }

        proptest! {
            #[test]
            fn any_template_parses_and_expands(
                template in proptest::collection::vec(any::<u8>(), 0..64),
                path in proptest::collection::vec(any::<u8>(), 0..64),
            ) {
                let t = Template::parse(&template);
                let _ = t.expand(&path);
            }

            #[test]
            fn doubled_braces_round_trip(text in proptest::collection::vec(any::<u8>(), 0..64)) {
                let t = Template::parse(&escape_braces(&text));
                prop_assert!(!t.has_placeholder());
                prop_assert_eq!(t.expand(b"unused"), text);
            }

            #[test]
            fn any_path_bytes_survive(
                path in proptest::collection::vec(any::<u8>(), 1..64),
                before in "[a-z {}]{0,8}",
            ) {
                let prefix = escape_braces(before.as_bytes());
                let t = Template::parse(&[&prefix[..], b"{}"].concat());
                prop_assert_eq!(t.expand(&path), [before.as_bytes(), &path].concat());
                // The name and its parent put back together give the path (without trailing
                // separators), whenever the path has a parent part. A separator is the
                // system's: '/', and on Windows '\' too.
                let split = Template::parse(b"{//}/{/}").expand(&path);
                let trimmed = trim_slashes(&path);
                if trimmed.iter().skip(1).any(|&b| is_separator(b)) && !trimmed.contains(&0) {
                    let cut = trimmed.iter().rposition(|&b| is_separator(b)).unwrap();
                    let squeezed_parent = trim_slashes(&trimmed[..cut]);
                    if !squeezed_parent.is_empty() && squeezed_parent != b"/" {
                        prop_assert_eq!(
                            split,
                            [squeezed_parent, b"/", &trimmed[cut + 1..]].concat()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn bytes_pass_through() {
        let t = Template::parse(b"<{/}>");
        assert_eq!(t.expand(b"d/\xff\n.x"), b"<\xff\n.x>");
    }
}
