//! The export formats, one file each (as in hyperfine's `export/`): a [`Format`] turns the
//! results into the bytes of one file. JSON, Markdown and CSV are hyperfine's own formats, so
//! hyperfine's scripts and habits work on them; SVG is a chart of time against concurrency.

mod csv;
mod json;
mod markdown;
mod svg;

use std::fs;
use std::io;
use std::path::Path;

use anyhow::{Context, Result};

use super::result::BenchmarkResult;

/// What a chart says about the run besides the numbers.
#[derive(Debug, Clone, Default)]
pub struct Caption {
    /// The headline: what was searched.
    pub title: String,
    /// The conditions: runs, warm-up, entries.
    pub subtitle: String,
}

/// An export format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// hyperfine's JSON (`{"results": [...]}`).
    Json,
    /// hyperfine's Markdown table.
    Markdown,
    /// hyperfine's CSV.
    Csv,
    /// An SVG chart.
    Svg,
}

impl Format {
    /// The file's contents.
    pub fn render(self, results: &[BenchmarkResult], caption: &Caption) -> Vec<u8> {
        match self {
            Format::Json => json::render(results).into_bytes(),
            Format::Markdown => markdown::render(results).into_bytes(),
            Format::Csv => csv::render(results).into_bytes(),
            Format::Svg => svg::render(results, caption).into_bytes(),
        }
    }

    /// Renders and writes the file.
    pub fn write(self, path: &Path, results: &[BenchmarkResult], caption: &Caption) -> Result<()> {
        fs::write(path, self.render(results, caption)).with_context(|| {
            format!(
                "cannot write {}",
                super::shown(path.as_os_str().as_encoded_bytes())
            )
        })
    }
}

/// Checks, before anything is timed, that the export file `path` can be written: a typo or a
/// read-only directory fails at once rather than after minutes of runs. An existing file is
/// opened for writing without being changed; a missing one is created and removed again.
/// A FIFO without a reader fails instead of waiting ([`crate::fs::open_without_waiting`]).
pub fn check_writable(path: &Path) -> io::Result<()> {
    let open = |create: bool| crate::fs::open_without_waiting(path, create);
    match open(false) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            open(true)?;
            fs::remove_file(path)
        }
        Err(e) => Err(e),
    }
}
