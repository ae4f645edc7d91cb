//! The manual page, `docs/ffind.1` (`ffind --gen-man`): NAME, SYNOPSIS, DESCRIPTION and
//! OPTIONS are clap_mangen's, from the same definition as `--help`; the benchmark's section
//! from `ffind --bench`'s own definition; EXAMPLES, ENVIRONMENT, FILES, EXIT STATUS and SEE
//! ALSO, which clap does not know, from the tables here and the system's (`fs::help`). A test holds the committed page to
//! what this writes, and another holds ENVIRONMENT to the variables the source reads.

use std::io::{self, Write};

use clap::CommandFactory;
use clap_mangen::Man;
use roff::{bold, italic, roman, Inline, Roff};

use crate::bench;
use crate::cli::Cli;
// EXAMPLES, ENVIRONMENT, FILES and SEE ALSO name the system's places and programs.
use crate::fs::help::{ENVIRONMENT, EXAMPLES, FILES, INSTALLED_DOCS, SEE_ALSO};

/// The SYNOPSIS: the search, and the benchmark (whose word must come first).
const SYNOPSIS: &str = "ffind [OPTIONS] [PATTERN] [PATH]...\n\
                        ffind --bench [BENCHMARK OPTIONS] [OPTIONS] [PATH]...";

/// EXIT STATUS: each code, and when ffind exits with it.
const EXIT_STATUS: &[(u8, &str)] = &[
    (0, "Success: the search ran and every path could be read."),
    (
        1,
        "A path could not be read (each is reported on stderr, and the search goes on), the \
         output could not be written, a command of -x or -X failed, or -q found nothing.",
    ),
    (2, "A usage error: nothing was searched."),
    (
        130,
        "Ctrl-C stopped ffind, after the commands of -x or -X had ended.",
    ),
];

/// Writes the manual page (roff).
pub fn render(out: &mut dyn Write) -> io::Result<()> {
    let search = Man::new(Cli::command().override_usage(SYNOPSIS).mut_args(with_text));
    let bench = Man::new(
        bench::command()
            .disable_help_flag(true)
            .disable_version_flag(true)
            .mut_args(|a| with_text(a.help_heading("Benchmark options"))),
    );
    let mut page = Vec::new();
    search.render_title(&mut page)?;
    let mut sections = Sections {
        page,
        preamble: Roff::new().render(),
    };
    sections.add(|w| search.render_name_section(w))?;
    sections.add(|w| search.render_synopsis_section(w))?;
    sections.add(|w| search.render_description_section(w))?;
    sections.add(|w| search.render_options_section(w))?;
    sections.add(|w| benchmark(&bench::command()).to_writer(w))?;
    sections.add(|w| bench.render_options_section(w))?;
    sections.add(|w| tail().to_writer(w))?;
    out.write_all(&sections.page)
}

/// `arg` with its help as its long help where it has only the one: clap_mangen gives an
/// option kept out of `-h` (`hide_short_help`) its long help alone, and `-0`, `-j`, `--regex`
/// and the like, whose doc comment is one paragraph, had no text in the page.
fn with_text(arg: clap::Arg) -> clap::Arg {
    match (arg.get_long_help(), arg.get_help().cloned()) {
        (None, Some(help)) => arg.long_help(help),
        _ => arg,
    }
}

/// Sections rendered one by one, each with roff's preamble, which the page needs once.
struct Sections {
    page: Vec<u8>,
    preamble: String,
}

impl Sections {
    fn add(&mut self, render: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
        let mut section = Vec::new();
        render(&mut section)?;
        let body = section
            .strip_prefix(self.preamble.as_bytes())
            .unwrap_or(&section);
        self.page.extend_from_slice(&bold_quoted(body));
        Ok(())
    }
}

/// The help's `quoted` commands (`ffind --bench --help`) in bold, as a manual writes a command
/// to type: roff shows a backtick as it is. Pairs on one line; a lone backtick stays.
fn bold_quoted(roff: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(roff.len());
    for line in roff.split_inclusive(|&b| b == b'\n') {
        let quotes = line.iter().filter(|&&b| b == b'`').count();
        let mut seen = 0;
        for &b in line {
            if b == b'`' && seen < quotes - quotes % 2 {
                out.extend_from_slice(if seen % 2 == 0 { b"\\fB" } else { b"\\fR" });
                seen += 1;
            } else {
                out.push(b);
            }
        }
    }
    out
}

/// BENCHMARK: what `ffind --bench` does, from its own `--help` text.
fn benchmark(cmd: &clap::Command) -> Roff {
    let mut roff = Roff::new();
    roff.control("SH", ["BENCHMARK"]);
    roff.text([
        bold("ffind --bench"),
        roman(" [BENCHMARK OPTIONS] [OPTIONS] [PATH]..."),
    ]);
    let about = cmd.get_long_about().or(cmd.get_about());
    let after = cmd.get_after_long_help().or(cmd.get_after_help());
    for text in [about, after].into_iter().flatten() {
        for paragraph in text.to_string().split("\n\n") {
            roff.control("PP", []);
            roff.text([roman(paragraph.replace('\n', " "))]);
        }
    }
    roff
}

/// The sections after the options.
fn tail() -> Roff {
    let mut roff = Roff::new();
    roff.control("SH", ["EXAMPLES"]);
    terms(&mut roff, EXAMPLES);
    roff.control("SH", ["ENVIRONMENT"]);
    terms(&mut roff, ENVIRONMENT);
    roff.control("SH", ["FILES"]);
    terms(&mut roff, FILES);
    roff.control("SH", ["EXIT STATUS"]);
    for (code, when) in EXIT_STATUS {
        roff.control("TP", [])
            .text([bold(code.to_string())])
            .text([roman(*when)]);
    }
    roff.control("SH", ["SEE ALSO"]);
    let mut refs: Vec<Inline> = Vec::new();
    for (i, page) in SEE_ALSO.iter().enumerate() {
        let (name, section) = page.split_once('(').unwrap_or((page, ""));
        if i > 0 {
            refs.push(roman(", "));
        }
        refs.push(bold(name));
        refs.push(roman(format!("({section}")));
    }
    roff.text(refs);
    roff.control("PP", []);
    let mut more = vec![
        roman("The README and "),
        italic("USAGE.md"),
        roman(", "),
        italic("CACHE.md"),
        roman(", "),
        italic("SECURITY.md"),
        roman(", "),
        italic("DIFFERENCES.md"),
        roman(" and "),
        italic("SCALE.md"),
        roman(" say more: in "),
    ];
    if let Some(installed) = INSTALLED_DOCS {
        more.extend([
            italic(installed),
            roman(" where ffind was installed by its package, else in "),
        ]);
    }
    more.extend([italic("docs/"), roman(" of ffind's source.")]);
    roff.text(more);
    roff
}

/// A list of terms (variables, files), each with its description.
fn terms(roff: &mut Roff, list: &[(&str, &str)]) {
    for (term, what) in list {
        roff.control("TP", [])
            .text([bold(*term)])
            .text([roman(*what)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exit::Outcome;

    #[test]
    fn quoted_commands_are_bold() {
        let roff = b"see `ffind \\-\\-bench \\-\\-help` or `x`.\nA lone ` stays\n";
        assert_eq!(
            String::from_utf8(bold_quoted(roff)).unwrap(),
            "see \\fBffind \\-\\-bench \\-\\-help\\fR or \\fBx\\fR.\nA lone ` stays\n"
        );
        assert!(!page().contains('`'), "no backtick is left in the page");
    }

    fn page() -> String {
        let mut out = Vec::new();
        render(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_option_has_its_text() {
        // Each option of OPTIONS and BENCHMARK OPTIONS is a `.TP`, its line, then its text.
        let page = page();
        let options = page.split(".SH OPTIONS").nth(1).unwrap();
        let options = options.split(".SH EXAMPLES").next().unwrap();
        let mut bare = Vec::new();
        for item in options.split(".TP").skip(1) {
            let mut lines = item.trim().lines();
            let head = lines.next().unwrap_or_default();
            if !lines.any(|l| !l.trim().is_empty() && !l.starts_with('.')) {
                bare.push(head.to_owned());
            }
        }
        assert!(options.matches(".TP").count() > 60, "{options}");
        assert_eq!(
            bare,
            Vec::<String>::new(),
            "options with no text in the manual"
        );
    }

    #[test]
    fn every_section_once_in_order() {
        let page = page();
        let sections: Vec<&str> = page
            .lines()
            .filter_map(|l| l.strip_prefix(".SH "))
            .collect();
        assert_eq!(
            sections,
            [
                "NAME",
                "SYNOPSIS",
                "DESCRIPTION",
                "OPTIONS",
                "BENCHMARK",
                "\"BENCHMARK OPTIONS\"",
                "EXAMPLES",
                "ENVIRONMENT",
                "FILES",
                "\"EXIT STATUS\"",
                "\"SEE ALSO\""
            ]
        );
        assert_eq!(page.matches(".ds Aq").count(), 2, "one preamble");
        assert!(!page.contains("[\\fB\\-1 "), "clap's synopsis of -1");
    }

    #[test]
    fn exit_status_names_every_outcome() {
        let codes: Vec<u8> = EXIT_STATUS.iter().map(|(c, _)| *c).collect();
        for outcome in [
            Outcome::Success,
            Outcome::NoMatch,
            Outcome::Errors,
            Outcome::Usage,
            Outcome::Interrupted,
        ] {
            assert!(codes.contains(&outcome.code()), "{outcome:?}");
        }
    }

    #[test]
    fn benchmark_options_are_in_the_page() {
        let page = page();
        for option in [
            "\\-\\-methods",
            "\\-\\-runs",
            "\\-\\-export\\-json",
            "\\-\\-warmup",
        ] {
            assert!(page.contains(option), "{option}");
        }
    }
}
