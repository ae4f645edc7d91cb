//! The chart: mean time against concurrency, one line per method, with ±σ error bars.
//!
//! Concurrency is on a log2 axis, since levels are usually powers of two; time starts at zero,
//! so heights compare honestly. A one-thread method (not `Parallel`) is timed at concurrency 1
//! only and drawn as a dashed line across the chart: the bar to beat.
//!
//! Written by hand (a few dozen SVG elements) rather than with a plotting crate. plotters 0.3
//! with only its SVG backend was tried on this chart: it would cost little (five
//! more crates, about 9 CPU-seconds of build, 59 KB of stripped binary) but draws no better:
//! its ticks are its own (2, 4, 8 where 3, 6, 12 were measured), a point cannot carry its
//! `<title>`, every dash is an element of its own (the file 2.7 times as large), the legend
//! beside the plot and the round time axis stay by hand, and its escaping lets control
//! characters through, which XML forbids.

use std::fmt::Write;

use crate::bench::export::Caption;
use crate::bench::format::Unit;
use crate::bench::result::BenchmarkResult;
use crate::bench::shown;
use crate::walk::methods::Method;

const WIDTH: f64 = 860.0;
const HEIGHT: f64 = 520.0;
const LEFT: f64 = 84.0;
const RIGHT: f64 = WIDTH - 190.0;
const TOP: f64 = 78.0;
const BOTTOM: f64 = HEIGHT - 64.0;

/// One colour per method, the same in every chart (matplotlib's "tab10").
const COLOURS: [&str; 6] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
];

fn colour(method: Method) -> &'static str {
    let i = method as usize;
    COLOURS[i % COLOURS.len()]
}

/// Where values land on the canvas.
#[derive(Debug, Clone, Copy)]
struct Scale {
    /// log2 of the concurrency at the left and right edges.
    x_lo: f64,
    x_hi: f64,
    /// The top of the time axis, in `unit`.
    y_max: f64,
    unit: Unit,
}

impl Scale {
    fn of(results: &[BenchmarkResult]) -> Scale {
        let levels = || results.iter().map(|r| f64::from(r.concurrency).log2());
        let (lo, hi) = (
            levels().fold(f64::INFINITY, f64::min),
            levels().fold(f64::NEG_INFINITY, f64::max),
        );
        let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 0.0) };
        // Half a step of room on either side keeps the end points off the frame.
        let pad = if hi > lo { 0.35 } else { 1.0 };
        let top = results
            .iter()
            .map(|r| r.mean + r.stddev.unwrap_or(0.0))
            .fold(0.0, f64::max);
        let unit = Unit::for_seconds(top);
        let y_max = (top * unit.per_second() * 1.05).max(f64::MIN_POSITIVE);
        Scale {
            x_lo: lo - pad,
            x_hi: hi + pad,
            y_max: nice_ceiling(y_max),
            unit,
        }
    }

    fn x(&self, concurrency: u32) -> f64 {
        LEFT + (f64::from(concurrency).log2() - self.x_lo) / (self.x_hi - self.x_lo)
            * (RIGHT - LEFT)
    }

    fn y(&self, seconds: f64) -> f64 {
        BOTTOM - seconds * self.unit.per_second() / self.y_max * (BOTTOM - TOP)
    }
}

/// A round step for about five grid lines below `max`: 1, 2, 2.5 or 5 times a power of ten.
fn tick_step(max: f64) -> f64 {
    let raw = max / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * magnitude)
}

fn nice_ceiling(max: f64) -> f64 {
    let step = tick_step(max);
    (max / step).ceil() * step
}

/// The SVG document.
pub fn render(results: &[BenchmarkResult], caption: &Caption) -> String {
    let scale = Scale::of(results);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    let _ = writeln!(
        svg,
        "<text x=\"{LEFT}\" y=\"32\" font-size=\"17\" font-weight=\"bold\">{}</text>",
        escape(&caption.title)
    );
    let _ = writeln!(
        svg,
        "<text x=\"{LEFT}\" y=\"54\" font-size=\"12\" fill=\"#555\">{}</text>",
        escape(&caption.subtitle)
    );
    axes(&mut svg, results, &scale);
    let mut methods: Vec<Method> = Vec::new();
    for r in results {
        if !methods.contains(&r.method) {
            methods.push(r.method);
        }
    }
    for (i, &method) in methods.iter().enumerate() {
        let mut points: Vec<&BenchmarkResult> =
            results.iter().filter(|r| r.method == method).collect();
        points.sort_by_key(|r| r.concurrency);
        let reference = !method.is_parallel() && points.len() == 1;
        series(&mut svg, method, &points, reference, &scale);
        legend(&mut svg, i, method, reference);
    }
    svg.push_str("</svg>\n");
    svg
}

fn axes(svg: &mut String, results: &[BenchmarkResult], scale: &Scale) {
    let step = tick_step(scale.y_max);
    let mut tick = 0.0;
    while tick <= scale.y_max + step / 1000.0 {
        let y = scale.y(tick / scale.unit.per_second());
        let _ = writeln!(
            svg,
            "<line x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{RIGHT}\" y2=\"{y:.1}\" stroke=\"#e5e5e5\"/>"
        );
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"end\">{}</text>",
            LEFT - 8.0,
            y + 4.0,
            trim_number(tick)
        );
        tick += step;
    }
    let mut levels: Vec<u32> = results.iter().map(|r| r.concurrency).collect();
    levels.sort_unstable();
    levels.dedup();
    for level in levels {
        let x = scale.x(level);
        let _ = writeln!(
            svg,
            "<line x1=\"{x:.1}\" y1=\"{TOP}\" x2=\"{x:.1}\" y2=\"{BOTTOM}\" stroke=\"#f0f0f0\"/>"
        );
        let _ = writeln!(
            svg,
            "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"middle\">{level}</text>",
            BOTTOM + 18.0
        );
    }
    let _ = writeln!(
        svg,
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#888\"/>",
        RIGHT - LEFT,
        BOTTOM - TOP
    );
    let _ = writeln!(
        svg,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"13\" text-anchor=\"middle\">\
         concurrency (threads, log scale)</text>",
        (LEFT + RIGHT) / 2.0,
        BOTTOM + 44.0
    );
    let (cx, cy) = (24.0, (TOP + BOTTOM) / 2.0);
    let _ = writeln!(
        svg,
        "<text x=\"{cx}\" y=\"{cy:.1}\" font-size=\"13\" text-anchor=\"middle\" \
         transform=\"rotate(-90 {cx} {cy:.1})\">mean time [{}], bars: ± σ</text>",
        scale.unit.short_name()
    );
}

fn series(
    svg: &mut String,
    method: Method,
    points: &[&BenchmarkResult],
    reference: bool,
    scale: &Scale,
) {
    let colour = colour(method);
    if reference {
        let y = scale.y(points[0].mean);
        let _ = writeln!(
            svg,
            "<line x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{RIGHT}\" y2=\"{y:.1}\" stroke=\"{colour}\" \
             stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>"
        );
    } else if points.len() > 1 {
        let coordinates: Vec<String> = points
            .iter()
            .map(|r| format!("{:.1},{:.1}", scale.x(r.concurrency), scale.y(r.mean)))
            .collect();
        let _ = writeln!(
            svg,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"/>",
            coordinates.join(" ")
        );
    }
    for r in points {
        let (x, y) = (scale.x(r.concurrency), scale.y(r.mean));
        if let Some(s) = r.stddev {
            let (y1, y2) = (scale.y(r.mean - s), scale.y(r.mean + s));
            let _ = writeln!(
                svg,
                "<path d=\"M{x:.1},{y1:.1}V{y2:.1}M{:.1},{y1:.1}h8M{:.1},{y2:.1}h8\" stroke=\"{colour}\" \
                 stroke-width=\"1.2\" fill=\"none\"/>",
                x - 4.0,
                x - 4.0
            );
        }
        let spread = r
            .stddev
            .map(|s| format!(" ± {}", scale.unit.format(s)))
            .unwrap_or_default();
        let _ = writeln!(
            svg,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"3.5\" fill=\"{colour}\">\
             <title>{}, concurrency {}: {}{spread}</title></circle>",
            method.name(),
            r.concurrency,
            scale.unit.format(r.mean)
        );
    }
}

fn legend(svg: &mut String, index: usize, method: Method, reference: bool) {
    let colour = colour(method);
    let y = TOP + 12.0 + 24.0 * index as f64;
    let x = RIGHT + 20.0;
    let dash = if reference {
        " stroke-dasharray=\"6 4\""
    } else {
        ""
    };
    let _ = writeln!(
        svg,
        "<line x1=\"{x}\" y1=\"{y}\" x2=\"{:.1}\" y2=\"{y}\" stroke=\"{colour}\" \
         stroke-width=\"2\"{dash}/>",
        x + 28.0
    );
    let _ = writeln!(
        svg,
        "<circle cx=\"{:.1}\" cy=\"{y}\" r=\"3.5\" fill=\"{colour}\"/>",
        x + 14.0
    );
    let note = if reference { " (1 thread)" } else { "" };
    let _ = writeln!(
        svg,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"13\">{}{note}</text>",
        x + 36.0,
        y + 4.5,
        method.name()
    );
}

/// A tick label without needless decimals ("2.5", "20", "0").
fn trim_number(v: f64) -> String {
    let text = format!("{v:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// `text` as XML character data, shown as on the terminal: control characters (most of which
/// XML 1.0 forbids even as references) and invisible ones as `\x1B`, `\u{202E}`, then XML's
/// five entities. U+FFFE and U+FFFF, the other characters XML forbids, are shown as `\u{FFFE}`.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in shown(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\u{FFFE}' | '\u{FFFF}' => {
                let _ = write!(out, "\\u{{{:04X}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::result::tests::sample;

    fn results() -> Vec<BenchmarkResult> {
        vec![
            sample(Method::Serial, 1, &[0.30, 0.32]),
            sample(Method::Queue, 1, &[0.30, 0.31]),
            sample(Method::Queue, 2, &[0.16, 0.17]),
            sample(Method::Queue, 4, &[0.09, 0.10]),
        ]
    }

    #[test]
    fn concurrency_is_on_a_log2_axis() {
        let scale = Scale::of(&results());
        let (x1, x2, x4) = (scale.x(1), scale.x(2), scale.x(4));
        assert!(((x2 - x1) - (x4 - x2)).abs() < 1e-9, "{x1} {x2} {x4}");
        assert!(x1 > LEFT && x4 < RIGHT);
    }

    #[test]
    fn time_axis_starts_at_zero_and_holds_every_error_bar() {
        let scale = Scale::of(&results());
        assert_eq!(scale.unit, Unit::MilliSecond);
        assert_eq!(scale.y(0.0), BOTTOM);
        let highest = 0.31 + (0.0002f64).sqrt();
        assert!(scale.y(highest) >= TOP, "{}", scale.y_max);
        assert_eq!(scale.y_max, 400.0);
    }

    #[test]
    fn round_ticks() {
        assert_eq!(tick_step(400.0), 100.0);
        assert_eq!(tick_step(12.0), 2.5);
        assert_eq!(nice_ceiling(341.0), 400.0);
        assert_eq!(trim_number(2.5), "2.5");
        assert_eq!(trim_number(20.0), "20");
    }

    #[test]
    fn a_line_per_parallel_method_and_a_dashed_reference_for_serial() {
        let caption = Caption {
            title: "ffind --bench <linux> & co".into(),
            subtitle: "10 runs".into(),
        };
        let svg = render(&results(), &caption);
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<polyline").count(), 1, "queue only");
        assert_eq!(
            svg.matches("stroke-dasharray").count(),
            2,
            "serial's line and legend"
        );
        assert_eq!(
            svg.matches("<circle").count(),
            4 + 2,
            "a marker per result and legend entry"
        );
        assert_eq!(svg.matches("<path").count(), 4, "an error bar per result");
        assert!(svg.contains("ffind --bench &lt;linux&gt; &amp; co"));
        assert!(svg.contains(">serial (1 thread)</text>") && svg.contains(">queue</text>"));
        assert_eq!(svg.matches('<').count(), svg.matches('>').count());
    }

    #[test]
    fn text_is_valid_xml_for_any_characters() {
        assert_eq!(
            escape("a\u{1b}[2J\n<b>&\"c'\u{7f}\u{9b}\u{202e}\u{fffe}\u{fffd}\t"),
            "a\\x1B[2J\\x0A&lt;b&gt;&amp;&quot;c&apos;\\x7F\\x9B\\u{202E}\\u{FFFE}\u{fffd}\t"
        );
    }

    #[test]
    fn one_level_does_not_collapse_the_axis() {
        let scale = Scale::of(&[sample(Method::Queue, 8, &[0.1])]);
        assert!((scale.x(8) - (LEFT + RIGHT) / 2.0).abs() < 1e-9);
    }
}
