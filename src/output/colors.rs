//! `--color`: results painted from `LS_COLORS` (or fd's default theme), as fd paints them: the
//! directory part in the directory color, the file name in the color of its type or name, and
//! a directory's trailing separator in the directory color.

use lscolors::{Indicator, LsColors};
use nu_ansi_term::Style as Paint;

use crate::filter::Meta;
use crate::fs::Kind;

/// fd 10's built-in theme, used when `LS_COLORS` is not set (vivid's "molokai", 8-bit).
const FD_DEFAULT_LS_COLORS: &str = include_str!("fd_ls_colors.txt");

/// The colors in force.
#[derive(Debug)]
pub struct Colors {
    ls: LsColors,
    directory: Paint,
    /// The indicators that depend on the mode or the target, and have a color of their own:
    /// looked up once, not for every entry.
    explicit: Vec<Indicator>,
}

/// The indicators [`Colors::for_entry`] needs metadata (or a look at a link's target) for.
const MODE_INDICATORS: [Indicator; 8] = [
    Indicator::Setuid,
    Indicator::Setgid,
    Indicator::ExecutableFile,
    Indicator::MultipleHardLinks,
    Indicator::StickyAndOtherWritable,
    Indicator::OtherWritable,
    Indicator::Sticky,
    Indicator::OrphanedSymbolicLink,
];

impl Colors {
    /// Colors from the value of `LS_COLORS`, or fd's default theme when it is unset.
    pub fn new(ls_colors: Option<&str>) -> Colors {
        let ls = LsColors::from_string(ls_colors.unwrap_or(FD_DEFAULT_LS_COLORS));
        let directory = paint(ls.style_for_indicator(Indicator::Directory));
        let explicit = MODE_INDICATORS
            .into_iter()
            .filter(|&i| ls.has_explicit_style_for(i))
            .collect();
        Colors {
            ls,
            directory,
            explicit,
        }
    }

    /// The color of directories (the parent part of each path, and trailing separators).
    pub fn directory(&self) -> Paint {
        self.directory
    }

    /// The color of an entry's file name. `path` is the path as shown (to see whether a link
    /// points anywhere); `meta` is asked only when a color depends on the mode.
    pub fn for_entry(&self, path: &[u8], name: &[u8], kind: Kind, meta: &mut dyn Meta) -> Paint {
        let has = |i| self.explicit.contains(&i);
        let indicator = match kind {
            Kind::File => {
                let mut indicator = Indicator::RegularFile;
                let needs_mode = has(Indicator::Setuid)
                    || has(Indicator::Setgid)
                    || has(Indicator::ExecutableFile)
                    || has(Indicator::MultipleHardLinks);
                if needs_mode {
                    if let Some(st) = meta.stat() {
                        if has(Indicator::Setuid) && st.mode & 0o4000 != 0 {
                            indicator = Indicator::Setuid;
                        } else if has(Indicator::Setgid) && st.mode & 0o2000 != 0 {
                            indicator = Indicator::Setgid;
                        } else if has(Indicator::ExecutableFile) && st.mode & 0o111 != 0 {
                            indicator = Indicator::ExecutableFile;
                        } else if has(Indicator::MultipleHardLinks) && st.nlink > 1 {
                            indicator = Indicator::MultipleHardLinks;
                        }
                    }
                }
                indicator
            }
            Kind::Dir => {
                let mut indicator = Indicator::Directory;
                let needs_mode = has(Indicator::StickyAndOtherWritable)
                    || has(Indicator::OtherWritable)
                    || has(Indicator::Sticky);
                if needs_mode {
                    if let Some(st) = meta.stat() {
                        if has(Indicator::StickyAndOtherWritable) && st.mode & 0o1002 == 0o1002 {
                            indicator = Indicator::StickyAndOtherWritable;
                        } else if has(Indicator::OtherWritable) && st.mode & 0o002 != 0 {
                            indicator = Indicator::OtherWritable;
                        } else if has(Indicator::Sticky) && st.mode & 0o1000 != 0 {
                            indicator = Indicator::Sticky;
                        }
                    }
                }
                indicator
            }
            Kind::Symlink => {
                if has(Indicator::OrphanedSymbolicLink) && !points_somewhere(path) {
                    Indicator::OrphanedSymbolicLink
                } else {
                    Indicator::SymbolicLink
                }
            }
            Kind::Fifo => Indicator::FIFO,
            Kind::Socket => Indicator::Socket,
            Kind::BlockDevice => Indicator::BlockDevice,
            Kind::CharDevice => Indicator::CharacterDevice,
            Kind::Unknown => Indicator::MissingFile,
        };
        if indicator == Indicator::RegularFile {
            // Name patterns ("*.rs") apply to plain files only, and to UTF-8 names (lscolors).
            if let Some(style) = std::str::from_utf8(name)
                .ok()
                .and_then(|n| self.ls.style_for_str(n))
            {
                return paint(Some(style));
            }
        }
        paint(self.ls.style_for_indicator(indicator))
    }
}

fn paint(style: Option<&lscolors::Style>) -> Paint {
    style
        .map(lscolors::Style::to_nu_ansi_term_style)
        .unwrap_or_default()
}

/// Whether a symbolic link's target exists.
fn points_somewhere(path: &[u8]) -> bool {
    let path = if path.is_empty() { &b"."[..] } else { path };
    crate::fs::os_path(path).exists()
}

/// Appends `text` painted in `style` (nothing added for the default style).
pub fn painted(out: &mut Vec<u8>, style: Paint, text: impl FnOnce(&mut Vec<u8>)) {
    use std::io::Write as _;
    let plain = style == Paint::default();
    if !plain {
        let _ = write!(out, "{}", style.prefix());
    }
    text(out);
    if !plain {
        let _ = write!(out, "{}", style.suffix());
    }
}
