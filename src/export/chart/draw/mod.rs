//! Drawing figures with plotters, once for any backend: SVG for documents and browsers, PNG for everything
//! else. Text uses an embedded DejaVu Sans through plotters' `ab_glyph` feature, so no system font library
//! is needed at build or run time.
//!
//! Everything is laid out in pixels from sizes in typographic points ([`Canvas::px_per_pt`]), so a chart
//! made for a page keeps 9-point text when it is printed 6.5 inches wide (docs/scenarios.md "Charts"). The
//! axes, ticks, legend and caption are drawn here rather than by plotters' mesh: ticks fall on round values
//! (on a log axis, on powers of ten), category labels wrap, and nothing is placed by guesswork.
//!
//! This file holds what every figure shares: the font, the palette, the sizes, the `Pen` that turns
//! points into pixels, the two outputs and the page around the plot (title, subtitle, notes). The rest is
//! split by concern, as a reader looks for it: `marks` (lines, dashes, markers), `legend`, `axes` (scales,
//! ticks, the frame and its labels), then one file per kind of figure (`line`, `histogram`, `heatmap`),
//! each of which only lays its own data out in a frame.

mod axes;
mod heatmap;
mod histogram;
mod legend;
mod line;
mod marks;

use std::sync::OnceLock;

use image::ImageEncoder;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::export::chart::figure::{Canvas, Figure, Plot};
use heatmap::draw_heatmaps;
use histogram::draw_bars;
use legend::{Swatch, with_legend};
use line::draw_lines;

/// DejaVu Sans (Bitstream Vera licence, shipped beside it in `assets/fonts/`).
pub static FONT: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSans.ttf");

/// The family every text is set in. Plotters looks the embedded font up by this name, and the SVG backend
/// writes it as each text's `font-family`: a viewer without DejaVu Sans falls back to Verdana or Arial,
/// which are as wide, rather than to a narrow default.
pub const FAMILY: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

/// Registers the embedded font once under [`FAMILY`].
fn register_font() -> Result<(), String> {
    static REGISTERED: OnceLock<Result<(), String>> = OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            plotters::style::register_font(FAMILY, FontStyle::Normal, FONT)
                .map_err(|_| "the embedded chart font could not be read".to_string())
        })
        .clone()
}

/// The Okabe–Ito palette: distinguishable with every common form of colour blindness. Yellow is last
/// because it is faint on white.
pub const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
    RGBColor(240, 228, 66),
];

/// Viridis, sampled: a perceptually uniform, colour-blind-safe scale for heatmaps.
const VIRIDIS: [(f64, (u8, u8, u8)); 5] = [
    (0.0, (68, 1, 84)),
    (0.25, (59, 82, 139)),
    (0.5, (33, 145, 140)),
    (0.75, (94, 201, 98)),
    (1.0, (253, 231, 37)),
];

/// The scale's colour at `t` in 0..=1.
pub fn viridis(t: f64) -> RGBColor {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let i = VIRIDIS
        .iter()
        .position(|(s, _)| *s >= t)
        .unwrap_or(VIRIDIS.len() - 1)
        .max(1);
    let ((s0, c0), (s1, c1)) = (VIRIDIS[i - 1], VIRIDIS[i]);
    let f = if s1 > s0 { (t - s0) / (s1 - s0) } else { 0.0 };
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
    RGBColor(mix(c0.0, c1.0), mix(c0.1, c1.1), mix(c0.2, c1.2))
}

// Sizes, in points.
/// The title.
pub const TITLE_PT: f64 = 13.0;
/// Axis titles.
pub const AXIS_PT: f64 = 10.0;
/// Every other text: captions, ticks, legends, cell values. Nine points is the least a printed figure
/// should carry.
pub const TEXT_PT: f64 = 9.0;
/// Every series' line: one width, so no line looks more important than another.
const LINE_PT: f64 = 1.5;
/// A marker's radius.
const MARKER_PT: f64 = 3.2;
/// Around the whole chart.
const MARGIN_PT: f64 = 12.0;
/// Between a label and what it labels.
const GAP_PT: f64 = 4.0;

type DrawResult<T> = Result<T, String>;

fn fail<E: std::fmt::Debug>(e: E) -> String {
    format!("cannot draw the chart: {e:?}")
}

/// Renders a figure as SVG text: text elements in [`FAMILY`], or glyph outlines when the canvas asks.
pub fn svg(figure: &Figure, canvas: &Canvas) -> DrawResult<String> {
    register_font()?;
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, canvas.pixels()).into_drawing_area();
        draw(&root, figure, canvas)?;
        root.present().map_err(fail)?;
    }
    if canvas.text_as_paths {
        text = crate::export::chart::glyphs::text_to_paths(&text)?;
    }
    Ok(text)
}

/// Renders a figure as PNG bytes.
pub fn png(figure: &Figure, canvas: &Canvas) -> DrawResult<Vec<u8>> {
    register_font()?;
    let (w, h) = canvas.pixels();
    let mut pixels = vec![0u8; w as usize * h as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, (w, h)).into_drawing_area();
        draw(&root, figure, canvas)?;
        root.present().map_err(fail)?;
    }
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes)
        .write_image(&pixels, w, h, image::ColorType::Rgb8)
        .map_err(fail)?;
    Ok(bytes)
}

/// Sizes in points turned into pixels, and the text styles that go with them.
#[derive(Debug, Clone, Copy)]
struct Pen {
    k: f64,
}

impl Pen {
    fn px(self, pt: f64) -> i32 {
        (pt * self.k).round() as i32
    }

    fn pxf(self, pt: f64) -> f64 {
        pt * self.k
    }

    fn width(self, pt: f64) -> u32 {
        (pt * self.k).round().max(1.0) as u32
    }

    /// A text style whose em is `pt` points (plotters' SVG writes a font size of size / 1.24).
    fn font(self, pt: f64) -> TextStyle<'static> {
        (FAMILY, pt * self.k * 1.24).into_font().color(&BLACK)
    }

    /// One line of text of `pt` points: its advance down the page.
    fn line(self, pt: f64) -> i32 {
        self.px(pt * 1.35)
    }
}

/// Text measured on the canvas it is drawn on.
fn text_width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle,
) -> i32 {
    area.estimate_text_size(text, style)
        .map(|(w, _)| w as i32)
        .unwrap_or_else(|_| (text.chars().count() as f64 * style.font.get_size() * 0.5) as i32)
}

/// Breaks a text into lines no wider than `max` (by `measure`) at spaces; a longer word stands alone.
fn wrap(text: &str, max: i32, measure: impl Fn(&str) -> i32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if measure(&format!("{line} {word}")) <= max => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    figure: &Figure,
    canvas: &Canvas,
) -> DrawResult<()> {
    let pen = Pen {
        k: canvas.px_per_pt,
    };
    root.fill(&WHITE).map_err(fail)?;
    let (w, h) = root.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let margin = pen.px(MARGIN_PT);
    let inner = (w - 2 * margin).max(1);
    let title_font = pen.font(TITLE_PT);
    let text_font = pen.font(TEXT_PT).color(&RGBColor(40, 40, 40));
    let mut y = margin;
    let write = |lines: Vec<String>, style: &TextStyle, step: i32, y: &mut i32| {
        for line in lines {
            root.draw(&Text::new(
                line,
                (margin, *y),
                style.pos(Pos::new(HPos::Left, VPos::Top)),
            ))
            .map_err(fail)?;
            *y += step;
        }
        Ok::<(), String>(())
    };
    let title = wrap(&figure.title, inner, |t| text_width(root, t, &title_font));
    write(title, &title_font, pen.line(TITLE_PT), &mut y)?;
    let subtitle: Vec<String> = figure
        .subtitle
        .iter()
        .flat_map(|p| wrap(p, inner, |t| text_width(root, t, &text_font)))
        .collect();
    write(subtitle, &text_font, pen.line(TEXT_PT), &mut y)?;
    y += pen.px(GAP_PT);
    let notes: Vec<String> = figure
        .notes
        .iter()
        .flat_map(|p| wrap(p, inner, |t| text_width(root, t, &text_font)))
        .collect();
    let mut bottom = h - margin - notes.len() as i32 * pen.line(TEXT_PT);
    let mut notes_y = bottom;
    write(notes, &text_font, pen.line(TEXT_PT), &mut notes_y)?;
    bottom -= pen.px(GAP_PT);
    let middle = root
        .clone()
        .shrink((margin, y), (inner, (bottom - y).max(1)));
    match &figure.plot {
        Plot::Line(chart) => {
            let swatch = if chart.x_categories.is_some() {
                Swatch::Dot
            } else {
                Swatch::Line
            };
            let plot = with_legend(&middle, &figure.series_names(), swatch, pen)?;
            draw_lines(&plot, chart, pen)
        }
        Plot::Histogram(chart) => {
            let plot = with_legend(&middle, &figure.series_names(), Swatch::Bar, pen)?;
            draw_bars(&plot, chart, pen)
        }
        Plot::Heatmap(chart) => draw_heatmaps(&middle, chart, pen),
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn viridis_runs_from_purple_to_yellow() {
        assert_eq!(viridis(0.0), RGBColor(68, 1, 84));
        assert_eq!(viridis(1.0), RGBColor(253, 231, 37));
        assert_eq!(viridis(f64::NAN), RGBColor(68, 1, 84));
        assert_eq!(viridis(0.5), RGBColor(33, 145, 140));
    }

    #[test]
    fn long_labels_wrap_at_spaces() {
        let chars = |t: &str| t.chars().count() as i32;
        assert_eq!(
            wrap("damage per hit (hit points)", 22, chars),
            ["damage per hit (hit", "points)"]
        );
        assert_eq!(wrap("as written", 22, chars), ["as written"]);
        assert_eq!(wrap("", 22, chars), Vec::<String>::new());
    }
}
