//! How a result is shown when it is more than its raw path: escaped on a terminal, colored,
//! hyperlinked, with another path separator, through a `--format` template, as `-l` details
//! or as JSON. Resolved once in `config.rs`; the printer's plain path never comes here, and the
//! workers format their own results (in parallel) into their own batches.

use crate::filter::Meta;
use crate::fs::escape::push_escaped;
use crate::fs::{is_separator, Kind, SEPARATOR};
use crate::output::colors::{painted, Colors};
use crate::output::details::{link_target, Details};
use crate::output::hyperlink::Hyperlink;
use crate::output::json::{self, JsonFields};
use crate::output::owners::Owners;
use crate::template::{push_separated, Template};

/// What each result becomes.
#[derive(Debug)]
pub enum Record {
    /// The path (directories with a trailing separator).
    Path,
    /// `--format`: the template expanded for the path.
    Format(Template),
    /// `-l`: ls-style columns, then the path.
    Details(Details),
    /// `--json`: one object per line.
    Json(JsonFields),
}

/// An output style other than the raw path.
#[derive(Debug)]
pub struct Style {
    /// What each result becomes.
    pub record: Record,
    /// Names are shown escaped (stdout is a terminal).
    pub escape: bool,
    /// Colors, when on.
    pub colors: Option<Colors>,
    /// Hyperlinks, when on.
    pub hyperlink: Option<Hyperlink>,
    /// `--path-separator`, when given.
    pub separator: Option<Vec<u8>>,
    /// User and group names seen so far (for `-l` and `--json-fields owner`).
    pub owners: Owners,
}

impl Style {
    /// Appends one result (`path` is what the plain listing would print, without a trailing
    /// slash) to `out`, without its terminator.
    pub fn write(&self, out: &mut Vec<u8>, path: &[u8], kind: Kind, meta: &mut dyn Meta) {
        if let Record::Json(fields) = &self.record {
            // No links inside JSON, and its own escapes (`\u001b`, `\u202e`): see json.rs.
            json::write(out, path, kind, meta, *fields, &self.owners);
            return;
        }
        if let Some(link) = &self.hyperlink {
            link.open(out, path);
        }
        match &self.record {
            Record::Path => self.write_path(out, path, kind, meta, true),
            Record::Format(template) => {
                template.expand_into_with(path, out, |value, out| self.text(out, value))
            }
            Record::Details(details) => {
                let st = details.stat(path, || meta.stat());
                details.write_columns(out, path, st.as_ref(), &self.owners);
                self.write_path_as_ls(out, path, kind, meta);
                if st.is_some_and(|st| st.kind() == Kind::Symlink) {
                    if let Some(target) = link_target(path) {
                        out.extend_from_slice(b" -> ");
                        self.text(out, &target);
                    }
                }
            }
            Record::Json(_) => unreachable!("handled above"),
        }
        if self.hyperlink.is_some() {
            Hyperlink::close(out);
        }
    }

    /// What puts a terminal back to normal after any part of a record (a hyperlink closed, the
    /// colors reset: each begins with ESC, which also ends a sequence left unfinished);
    /// `None` when records hold no escape sequence.
    pub fn reset(&self) -> Option<Vec<u8>> {
        if matches!(self.record, Record::Json(_)) {
            return None;
        }
        let mut out = Vec::new();
        if self.hyperlink.is_some() {
            Hyperlink::close(&mut out);
        }
        if self.colors.is_some() {
            out.extend_from_slice(b"\x1b[0m");
        }
        (!out.is_empty()).then_some(out)
    }

    /// The path, colored as fd colors it: the directory part in the directory color, the name
    /// in its own, a directory's trailing separator (when `slash`) in the directory color.
    fn write_path(
        &self,
        out: &mut Vec<u8>,
        path: &[u8],
        kind: Kind,
        meta: &mut dyn Meta,
        slash: bool,
    ) {
        let slash = slash && kind == Kind::Dir;
        let Some(colors) = &self.colors else {
            self.text(out, path);
            if slash {
                self.separator(out);
            }
            return;
        };
        let split = path
            .iter()
            .rposition(|&b| is_separator(b))
            .map_or(0, |i| i + 1);
        let (dir, name) = path.split_at(split);
        if !dir.is_empty() {
            painted(out, colors.directory(), |out| self.text(out, dir));
        }
        let paint = colors.for_entry(path, name, kind, meta);
        painted(out, paint, |out| self.text(out, name));
        if slash {
            painted(out, colors.directory(), |out| self.separator(out));
        }
    }

    /// The path of an `-l` line, colored as `ls -l` (what fd runs) colors the path it is
    /// given: all of it in the entry's color, without a trailing separator. The directory
    /// part of a file (`./`) is not in the directory color.
    fn write_path_as_ls(&self, out: &mut Vec<u8>, path: &[u8], kind: Kind, meta: &mut dyn Meta) {
        let Some(colors) = &self.colors else {
            return self.text(out, path);
        };
        let split = path
            .iter()
            .rposition(|&b| is_separator(b))
            .map_or(0, |i| i + 1);
        let paint = colors.for_entry(path, &path[split..], kind, meta);
        painted(out, paint, |out| self.text(out, path));
    }

    fn separator(&self, out: &mut Vec<u8>) {
        match &self.separator {
            Some(sep) => out.extend_from_slice(sep),
            None => out.push(SEPARATOR),
        }
    }

    /// Part of a path: escaped on a terminal, with the separator replaced when asked.
    fn text(&self, out: &mut Vec<u8>, bytes: &[u8]) {
        match (&self.separator, self.escape) {
            (None, false) => out.extend_from_slice(bytes),
            (None, true) => push_escaped(out, bytes),
            (Some(sep), escape) => push_separated(out, bytes, sep, |out, piece| {
                if escape {
                    push_escaped(out, piece);
                } else {
                    out.extend_from_slice(piece);
                }
            }),
        }
    }
}
