//! Drawing figures with plotters, once for any backend: SVG for documents and browsers, PNG for everything
//! else. Text uses an embedded DejaVu Sans through plotters' `ab_glyph` feature, so no system font library
//! is needed at build or run time.
//!
//! Everything is laid out in pixels from sizes in typographic points ([`Canvas::px_per_pt`]), so a chart
//! made for a page keeps 9-point text when it is printed 6.5 inches wide (docs/scenarios.md "Charts"). The
//! axes, ticks, legend and caption are drawn here rather than by plotters' mesh: ticks fall on round values
//! (on a log axis, on powers of ten), category labels wrap, and nothing is placed by guesswork.

use std::sync::OnceLock;

use image::ImageEncoder;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontStyle, FontTransform};

use crate::export::chart::figure::{
    Canvas, Cell, Figure, HeatmapFigure, HistogramFigure, LineFigure, Plot,
};

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
/// A legend beside the plot may take at most this share of the width; a wider one goes below.
const LEGEND_SHARE: f64 = 0.26;

/// Series are told apart by colour, and again by marker and dash, so a chart printed in grey still reads.
const MARKERS: [Marker; 8] = [
    Marker::Circle,
    Marker::Square,
    Marker::TriangleUp,
    Marker::Diamond,
    Marker::TriangleDown,
    Marker::Pentagon,
    Marker::Star,
    Marker::Hexagon,
];

/// Dash patterns in points (on, off, ...); empty is solid.
const DASHES: [&[f64]; 4] = [&[], &[6.0, 3.0], &[1.5, 2.5], &[7.0, 2.5, 1.5, 2.5]];

/// A marker's shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marker {
    Circle,
    Square,
    TriangleUp,
    Diamond,
    TriangleDown,
    Pentagon,
    Star,
    Hexagon,
}

/// How series `i` is drawn.
#[derive(Debug, Clone, Copy)]
struct Look {
    color: RGBColor,
    marker: Marker,
    dash: &'static [f64],
}

fn look(i: usize) -> Look {
    Look {
        color: PALETTE[i % PALETTE.len()],
        marker: MARKERS[i % MARKERS.len()],
        dash: DASHES[i % DASHES.len()],
    }
}

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

/// What a legend entry shows of its series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Swatch {
    /// A stretch of line with its dash and marker.
    Line,
    /// A marker with a whisker (a text axis).
    Dot,
    /// A filled box.
    Bar,
}

/// Where the legend goes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Placement {
    /// One series: its name is the axis' or the caption's, and a legend would only repeat it.
    None,
    /// A column this wide at the right.
    Right(i32),
    /// Rows of entries (by index) below the plot, each row this tall.
    Below(Vec<Vec<usize>>, i32),
}

/// Beside the plot when the widest entry fits in [`LEGEND_SHARE`] of the width, else below, in as many
/// equal columns as the widest entry allows, row by row.
fn placement(widths: &[i32], width: i32, sample: i32, gap: i32, line: i32) -> Placement {
    if widths.len() < 2 {
        return Placement::None;
    }
    let widest = widths.iter().map(|w| sample + gap + w).max().unwrap_or(0);
    if f64::from(widest + 2 * gap) <= f64::from(width) * LEGEND_SHARE {
        return Placement::Right(widest + 2 * gap);
    }
    let column = widest + 3 * gap;
    let columns = (width / column.max(1)).clamp(1, widths.len() as i32) as usize;
    let rows = (0..widths.len())
        .collect::<Vec<_>>()
        .chunks(columns)
        .map(<[usize]>::to_vec)
        .collect();
    Placement::Below(rows, line)
}

/// Draws the legend of `names` and returns the area left for the plot.
fn with_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    names: &[&str],
    swatch: Swatch,
    pen: Pen,
) -> DrawResult<DrawingArea<DB, Shift>> {
    let style = pen.font(TEXT_PT);
    let widths: Vec<i32> = names.iter().map(|n| text_width(area, n, &style)).collect();
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let sample = pen.px(24.0);
    let gap = pen.px(GAP_PT);
    let line = pen.line(TEXT_PT).max(pen.px(2.6 * MARKER_PT));
    let one_line = |i: usize| vec![names[i].to_string()];
    let mut chosen = placement(&widths, w, sample, gap, line);
    let mut lines: Vec<Vec<String>> = (0..names.len()).map(one_line).collect();
    if let Placement::Below(..) = chosen {
        // A column at the right with the names wrapped, when it is tall enough, leaves the plot its width
        // and the legend its reading order.
        let column = (f64::from(w) * LEGEND_SHARE) as i32;
        let wrapped: Vec<Vec<String>> = names
            .iter()
            .map(|n| {
                wrap(n, column - sample - 3 * gap, |t| {
                    text_width(area, t, &style)
                })
            })
            .collect();
        let tall: i32 = wrapped
            .iter()
            .map(|l| line + (l.len() as i32 - 1) * pen.line(TEXT_PT))
            .sum();
        if wrapped.iter().all(|l| l.len() <= 3) && f64::from(tall) <= f64::from(h) * 0.8 {
            chosen = Placement::Right(column);
            lines = wrapped;
        }
    }
    match chosen {
        Placement::None => Ok(area.clone()),
        Placement::Right(column) => {
            let (plot, legend) = area.split_horizontally(w - column);
            let mut y = pen.px(AXIS_PT) + line / 2;
            for (i, text) in lines.iter().enumerate() {
                entry(&legend, (2 * gap, y), text, i, swatch, pen)?;
                y += line + (text.len() as i32 - 1) * pen.line(TEXT_PT);
            }
            Ok(plot)
        }
        Placement::Below(rows, line) => {
            let height = rows.len() as i32 * line + 2 * gap;
            let (plot, legend) = area.split_vertically(h - height);
            let column = widths.iter().map(|w| sample + gap + w).max().unwrap_or(0) + 3 * gap;
            for (r, row) in rows.iter().enumerate() {
                let y = gap + line * r as i32 + line / 2;
                for (c, &i) in row.iter().enumerate() {
                    let x = pen.px(MARGIN_PT) + column * c as i32;
                    entry(&legend, (x, y), &lines[i], i, swatch, pen)?;
                }
            }
            Ok(plot)
        }
    }
}

/// One legend entry: its swatch from `at` (the swatch's left, the first line's middle), then its name in
/// one or more lines.
fn entry<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    lines: &[String],
    i: usize,
    swatch: Swatch,
    pen: Pen,
) -> DrawResult<()> {
    let l = look(i);
    let sample = pen.px(24.0);
    let mid = (f64::from(x + sample / 2), f64::from(y));
    match swatch {
        Swatch::Line => {
            let run = [
                (f64::from(x), f64::from(y)),
                (f64::from(x + sample), f64::from(y)),
            ];
            stroke(area, &run, l.color.into(), pen.width(LINE_PT), l.dash, pen)?;
            marker(area, mid, l.marker, l.color, true, pen)?;
        }
        Swatch::Dot => {
            let r = pen.pxf(2.0 * MARKER_PT);
            let whisker = [(mid.0, mid.1 - r), (mid.0, mid.1 + r)];
            stroke(
                area,
                &whisker,
                l.color.into(),
                pen.width(LINE_PT * 0.8),
                &[],
                pen,
            )?;
            marker(area, mid, l.marker, l.color, true, pen)?;
        }
        Swatch::Bar => {
            let half = pen.px(MARKER_PT * 1.4);
            area.draw(&Rectangle::new(
                [
                    (x + sample / 2 - half, y - half),
                    (x + sample / 2 + half, y + half),
                ],
                l.color.mix(0.85).filled(),
            ))
            .map_err(fail)?;
        }
    }
    let style = pen.font(TEXT_PT).pos(Pos::new(HPos::Left, VPos::Center));
    for (k, line) in lines.iter().enumerate() {
        let at = (
            x + sample + pen.px(GAP_PT),
            y + k as i32 * pen.line(TEXT_PT),
        );
        area.draw(&Text::new(line.clone(), at, style.clone()))
            .map_err(fail)?;
    }
    Ok(())
}

/// A polyline in pixels, solid or dashed by `pattern` (in points).
fn stroke<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    points: &[(f64, f64)],
    color: RGBAColor,
    width: u32,
    pattern: &[f64],
    pen: Pen,
) -> DrawResult<()> {
    let pattern: Vec<f64> = pattern.iter().map(|p| pen.pxf(*p)).collect();
    for run in dashes(points, &pattern) {
        let run: Vec<(i32, i32)> = run
            .iter()
            .map(|(x, y)| (x.round() as i32, y.round() as i32))
            .collect();
        area.draw(&PathElement::new(run, color.stroke_width(width)))
            .map_err(fail)?;
    }
    Ok(())
}

/// A polyline cut into the runs a dash pattern draws (lengths alternately on and off); an empty pattern
/// is one run.
fn dashes(points: &[(f64, f64)], pattern: &[f64]) -> Vec<Vec<(f64, f64)>> {
    if pattern.is_empty() || pattern.iter().sum::<f64>() <= 0.0 {
        return vec![points.to_vec()];
    }
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    let (mut k, mut left, mut on) = (0, pattern[0], true);
    let mut current: Vec<(f64, f64)> = points.first().map(|p| vec![*p]).unwrap_or_default();
    for pair in points.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let length = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
        let mut done = 0.0;
        while length - done > left {
            done += left;
            let t = done / length;
            let p = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            if on {
                current.push(p);
                runs.push(std::mem::take(&mut current));
            } else {
                current = vec![p];
            }
            on = !on;
            k = (k + 1) % pattern.len();
            left = pattern[k];
        }
        left -= length - done;
        if on {
            current.push(b);
        }
    }
    if on && current.len() >= 2 {
        runs.push(current);
    }
    runs
}

/// The vertices of a marker's outline around (0, 0) for radius 1, or `None` for a circle.
fn outline(marker: Marker) -> Option<Vec<(f64, f64)>> {
    let around = |n: usize, turn: f64, radii: &[f64]| -> Vec<(f64, f64)> {
        (0..n)
            .map(|i| {
                let a = turn + std::f64::consts::TAU * i as f64 / n as f64;
                let r = radii[i % radii.len()];
                (r * a.cos(), -r * a.sin())
            })
            .collect()
    };
    let up = std::f64::consts::FRAC_PI_2;
    match marker {
        Marker::Circle => None,
        Marker::Square => Some(around(4, std::f64::consts::FRAC_PI_4, &[1.15])),
        Marker::TriangleUp => Some(around(3, up, &[1.3])),
        Marker::TriangleDown => Some(around(3, -up, &[1.3])),
        Marker::Diamond => Some(around(4, up, &[1.3])),
        Marker::Pentagon => Some(around(5, up, &[1.15])),
        Marker::Hexagon => Some(around(6, 0.0, &[1.1])),
        Marker::Star => Some(around(10, up, &[1.45, 0.6])),
    }
}

/// A marker at a pixel position, filled or as an outline.
fn marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x, y): (f64, f64),
    shape: Marker,
    color: RGBColor,
    filled: bool,
    pen: Pen,
) -> DrawResult<()> {
    let r = pen.pxf(MARKER_PT);
    let style = if filled {
        color.filled()
    } else {
        color.stroke_width(pen.width(LINE_PT * 0.8))
    };
    match outline(shape) {
        None => area
            .draw(&Circle::new(
                (x.round() as i32, y.round() as i32),
                r.round() as i32,
                style,
            ))
            .map_err(fail),
        Some(vertices) => {
            let points: Vec<(i32, i32)> = vertices
                .iter()
                .map(|(dx, dy)| ((x + dx * r).round() as i32, (y + dy * r).round() as i32))
                .collect();
            if filled {
                area.draw(&Polygon::new(points, style)).map_err(fail)
            } else {
                let mut closed = points.clone();
                closed.extend(points.first());
                area.draw(&PathElement::new(closed, style)).map_err(fail)
            }
        }
    }
}

/// A cross (an ineligible point), in a series' colour.
fn cross<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x, y): (f64, f64),
    color: RGBColor,
    pen: Pen,
) -> DrawResult<()> {
    let r = pen.pxf(MARKER_PT * 1.1);
    for (dx, dy) in [(r, r), (r, -r)] {
        let run = [(x - dx, y - dy), (x + dx, y + dy)];
        stroke(area, &run, color.into(), pen.width(LINE_PT), &[], pen)?;
    }
    Ok(())
}

/// One axis of a plot: its range, its scale, and where its ticks fall.
#[derive(Debug, Clone, PartialEq)]
struct Scale {
    lo: f64,
    hi: f64,
    log: bool,
}

impl Scale {
    /// Where `v` falls, 0 at `lo` and 1 at `hi` (a log axis' floor takes whatever is below it).
    fn t(&self, v: f64) -> f64 {
        if self.log {
            let v = v.max(self.lo);
            (v.log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        }
    }
}

/// Round tick values between `lo` and `hi`: steps of 1, 2, 2.5 or 5 × 10^k, about `count` of them;
/// whole steps when `integer`.
fn linear_ticks(lo: f64, hi: f64, count: usize, integer: bool) -> (Vec<f64>, f64) {
    let raw = (hi - lo) / count.max(1) as f64;
    if !(raw.is_finite() && raw > 0.0) {
        return (vec![lo], 1.0);
    }
    let decade = 10f64.powf(raw.log10().floor());
    let mut step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * decade)
        .find(|s| *s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * decade);
    if integer {
        step = step.max(1.0).round();
    }
    let first = (lo / step - 1e-9).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    let ticks = (first..=last).map(|i| i as f64 * step).collect();
    (ticks, step)
}

/// Ticks of a log axis: every power of ten in range, and 2 and 5 times them when there are few.
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let multiples: &[f64] = if b - a <= 2 { &[1.0, 2.0, 5.0] } else { &[1.0] };
    let mut ticks = Vec::new();
    for e in a..=b {
        for m in multiples {
            let v = m * 10f64.powi(e);
            if v >= lo * (1.0 - 1e-9) && v <= hi * (1.0 + 1e-9) {
                ticks.push(v);
            }
        }
    }
    ticks
}

/// A tick's label: as many decimals as the step needs, `%` for a percentage.
fn tick_label(v: f64, step: f64, percent: bool) -> String {
    // The fewest decimals that write the step exactly: 0 for 20, 1 for 2.5, 2 for 0.05.
    let decimals = (0..=4usize)
        .find(|d| {
            let scaled = step * 10f64.powi(*d as i32);
            (scaled - scaled.round()).abs() < 1e-6
        })
        .unwrap_or(4);
    let text = if decimals == 0 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.decimals$}");
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    let text = if text == "-0" { "0".to_string() } else { text };
    if percent { format!("{text}%") } else { text }
}

/// The ticks of a scale, with their labels.
fn ticks(scale: &Scale, count: usize, integer: bool, percent: bool) -> Vec<(f64, String)> {
    if scale.log {
        return log_ticks(scale.lo, scale.hi)
            .into_iter()
            .map(|v| {
                let step = 10f64.powf(v.log10().floor());
                (v, tick_label(v, step, percent))
            })
            .collect();
    }
    let (values, step) = linear_ticks(scale.lo, scale.hi, count, integer);
    values
        .into_iter()
        .map(|v| (v, tick_label(v, step, percent)))
        .collect()
}

/// A padded range of some values; a flat range is widened so it can be drawn.
fn padded(lo: f64, hi: f64) -> (f64, f64) {
    if !(lo.is_finite() && hi.is_finite()) {
        return (0.0, 1.0);
    }
    let span = hi - lo;
    if span <= f64::EPSILON {
        (lo - 1.0, hi + 1.0)
    } else {
        (lo - span * 0.04, hi + span * 0.04)
    }
}

/// A plot's frame: the rectangle data is drawn in (pixels of its area) and its two scales.
#[derive(Debug, Clone)]
struct Frame {
    left: i32,
    top: i32,
    right: i32,
    bottom: i32,
    x: Scale,
    y: Scale,
}

impl Frame {
    fn at(&self, x: f64, y: f64) -> (f64, f64) {
        (
            f64::from(self.left) + self.x.t(x) * f64::from(self.right - self.left),
            f64::from(self.bottom) - self.y.t(y) * f64::from(self.bottom - self.top),
        )
    }

    fn x_px(&self, x: f64) -> f64 {
        self.at(x, self.y.lo).0
    }

    fn y_px(&self, y: f64) -> f64 {
        self.at(self.x.lo, y).1
    }

    /// Whether a pixel row is inside the plot.
    fn holds_y(&self, y: f64) -> bool {
        y >= f64::from(self.top) - 0.5 && y <= f64::from(self.bottom) + 0.5
    }
}

/// What an axis is labelled with.
struct AxisText<'a> {
    title: &'a str,
    ticks: Vec<(f64, String)>,
    /// Category labels, wrapped, drawn at each tick (a text axis).
    wrapped: bool,
}

impl<'a> AxisText<'a> {
    fn new(title: &'a str, ticks: Vec<(f64, String)>, wrapped: bool) -> AxisText<'a> {
        AxisText {
            title,
            ticks,
            wrapped,
        }
    }
}

/// Lays a frame out in `area` for these tick labels and axis titles, then draws the grid, the axes, the
/// ticks and the titles. Returns the frame to draw data in.
fn frame<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x, y): (Scale, Scale),
    (x_text, y_text): (AxisText<'_>, AxisText<'_>),
    pen: Pen,
) -> DrawResult<Frame> {
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let tick_font = pen.font(TEXT_PT);
    let axis_font = pen.font(AXIS_PT);
    let gap = pen.px(GAP_PT);
    let widest_y = y_text
        .ticks
        .iter()
        .map(|(_, l)| text_width(area, l, &tick_font))
        .max()
        .unwrap_or(0);
    let top = pen.px(AXIS_PT) / 2;
    // The vertical title wraps to the plot's height (less the rows below it, as x labels take at least
    // one).
    let tall = h - top - (gap + pen.line(TEXT_PT) + gap + pen.line(AXIS_PT));
    let y_title = wrap(y_text.title, tall.max(1), |t| {
        text_width(area, t, &axis_font)
    });
    let left = y_title.len().max(1) as i32 * pen.line(AXIS_PT) + gap + widest_y + gap;
    let right = w - pen.px(MARGIN_PT);
    // Category labels wrap to their share of the width, in as many lines as the longest needs.
    let cell = if x_text.ticks.is_empty() {
        w
    } else {
        ((right - left) / x_text.ticks.len() as i32 - gap).max(1)
    };
    let x_lines: Vec<Vec<String>> = x_text
        .ticks
        .iter()
        .map(|(_, l)| {
            if x_text.wrapped {
                wrap(l, cell, |t| text_width(area, t, &tick_font))
            } else {
                vec![l.clone()]
            }
        })
        .collect();
    let lines = x_lines.iter().map(Vec::len).max().unwrap_or(1).max(1) as i32;
    // Labels wider than their share even when wrapped must not touch: numbers (`10`, `11`, `12` under
    // narrow cells) are thinned to every `step`-th, since the rest can be read between them, and every tick
    // mark stays; names (`nightmare` between `ogre` and `horse`) are all needed, so every other one drops a
    // row.
    let widest_x = x_lines
        .iter()
        .flatten()
        .map(|l| text_width(area, l, &tick_font))
        .max()
        .unwrap_or(0);
    let numbers = x_text.ticks.iter().all(|(_, l)| l.parse::<f64>().is_ok());
    let (step, staggered) = match label_step(widest_x, cell, gap) {
        1 => (1, false),
        step if numbers => (step, false),
        _ => (1, true),
    };
    let rows = if staggered { 2 * lines } else { lines };
    let bottom = h - (gap + rows * pen.line(TEXT_PT) + gap + pen.line(AXIS_PT));
    let f = Frame {
        left,
        top,
        right: right.max(left + 1),
        bottom: bottom.max(top + 1),
        x,
        y,
    };
    let grid = RGBColor(225, 225, 225);
    let axis = RGBColor(90, 90, 90);
    for (v, label) in &y_text.ticks {
        let py = f.y_px(*v).round() as i32;
        area.draw(&PathElement::new(
            vec![(f.left, py), (f.right, py)],
            grid.stroke_width(pen.width(0.5)),
        ))
        .map_err(fail)?;
        area.draw(&Text::new(
            label.clone(),
            (f.left - gap, py),
            tick_font.pos(Pos::new(HPos::Right, VPos::Center)),
        ))
        .map_err(fail)?;
    }
    for (i, ((v, _), label)) in x_text.ticks.iter().zip(&x_lines).enumerate() {
        let px = f.x_px(*v).round() as i32;
        area.draw(&PathElement::new(
            vec![(px, f.bottom), (px, f.bottom + gap)],
            axis.stroke_width(pen.width(0.6)),
        ))
        .map_err(fail)?;
        if i % step != 0 {
            continue;
        }
        let drop = if staggered && i % 2 == 1 { lines } else { 0 };
        for (k, line) in label.iter().enumerate() {
            area.draw(&Text::new(
                line.clone(),
                (px, f.bottom + gap + (drop + k as i32) * pen.line(TEXT_PT)),
                tick_font.pos(Pos::new(HPos::Center, VPos::Top)),
            ))
            .map_err(fail)?;
        }
    }
    area.draw(&PathElement::new(
        vec![(f.left, f.top), (f.left, f.bottom), (f.right, f.bottom)],
        axis.stroke_width(pen.width(0.8)),
    ))
    .map_err(fail)?;
    area.draw(&Text::new(
        x_text.title.to_string(),
        ((f.left + f.right) / 2, h - pen.line(AXIS_PT)),
        axis_font.pos(Pos::new(HPos::Center, VPos::Top)),
    ))
    .map_err(fail)?;
    for (k, line) in y_title.iter().enumerate() {
        area.draw(&Text::new(
            line.clone(),
            (k as i32 * pen.line(AXIS_PT), (f.top + f.bottom) / 2),
            axis_font
                .pos(Pos::new(HPos::Center, VPos::Top))
                .transform(FontTransform::Rotate270),
        ))
        .map_err(fail)?;
    }
    Ok(f)
}

/// Every how many x labels one is written: 1 when the widest fits its `cell` (a label's share of the
/// width, less a `gap`), else the fewest that leaves a gap between labels.
fn label_step(widest: i32, cell: i32, gap: i32) -> usize {
    if widest <= cell {
        return 1;
    }
    // Labels `step` ticks apart have centres `step * (cell + gap)` pixels apart: room for one label and a gap.
    let pitch = (cell + gap).max(1);
    (widest + gap)
        .max(1)
        .unsigned_abs()
        .div_ceil(pitch.unsigned_abs()) as usize
}

/// How many ticks a horizontal axis of `width` pixels carries: about one per 50 points, so labels of a
/// few digits never touch.
fn across(width: i32, pen: Pen) -> usize {
    ((f64::from(width) / pen.pxf(50.0)).round() as usize).clamp(2, 12)
}

/// How many ticks a vertical axis of `height` pixels carries: about one per 32 points.
fn tick_count(height: i32, pen: Pen) -> usize {
    ((f64::from(height) / pen.pxf(32.0)).round() as usize).clamp(3, 10)
}

fn draw_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &LineFigure,
    pen: Pen,
) -> DrawResult<()> {
    let points = chart.series.iter().flat_map(|s| s.points.iter());
    let (mut x_lo, mut x_hi, mut y_lo, mut y_hi) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for p in points {
        x_lo = x_lo.min(p.x);
        x_hi = x_hi.max(p.x);
        y_lo = y_lo.min(p.low.unwrap_or(p.y)).min(p.y);
        y_hi = y_hi.max(p.high.unwrap_or(p.y)).max(p.y);
    }
    for s in &chart.series {
        for &x in &s.ineligible {
            x_lo = x_lo.min(x);
            x_hi = x_hi.max(x);
        }
    }
    let categories = chart.x_categories.as_ref();
    let (x_lo, x_hi) = match categories {
        Some(c) => (-0.5, c.len() as f64 - 0.5),
        None => padded(x_lo, x_hi),
    };
    for &h in &chart.horizontal {
        y_lo = y_lo.min(h);
        y_hi = y_hi.max(h);
    }
    let (y_lo, y_hi) = match chart.y_range {
        Some(range) => range,
        None if chart.horizontal.is_empty() => padded(y_lo.min(0.0), y_hi),
        // A difference or a tune: the axis follows the data and its reference lines, below 0 too.
        None => padded(y_lo, y_hi),
    };
    let x = Scale {
        lo: x_lo,
        hi: x_hi,
        log: false,
    };
    let y = Scale {
        lo: y_lo,
        hi: y_hi,
        log: chart.y_log,
    };
    let (w, h) = area.dim_in_pixel();
    let mut xs: Vec<f64> = chart
        .series
        .iter()
        .flat_map(|s| {
            s.points
                .iter()
                .map(|p| p.x)
                .chain(s.ineligible.iter().copied())
        })
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let integer_x = xs.iter().all(|v| v.fract() == 0.0);
    let x_ticks = match categories {
        Some(c) => c
            .iter()
            .enumerate()
            .map(|(i, l)| (i as f64, l.clone()))
            .collect(),
        None => ticks(&x, across(w as i32, pen), integer_x, false)
            .into_iter()
            .filter(|(v, _)| *v >= x_lo && *v <= x_hi)
            .collect(),
    };
    let f = frame(
        area,
        (x, y.clone()),
        (
            AxisText::new(&chart.x_label, x_ticks, categories.is_some()),
            AxisText::new(
                &chart.y_label,
                ticks(&y, tick_count(h as i32, pen), false, chart.percent),
                false,
            ),
        ),
        pen,
    )?;
    for &level in &chart.horizontal {
        // A reference line (zero, a target) across the whole chart, dashed so it never reads as data.
        let py = f.y_px(level);
        let run = [(f64::from(f.left), py), (f64::from(f.right), py)];
        stroke(
            area,
            &run,
            RGBColor(60, 60, 60).into(),
            pen.width(1.0),
            &[5.0, 3.0],
            pen,
        )?;
    }
    let n = chart.series.len();
    // On a text axis the series stand side by side within their category, so equal values never hide
    // each other.
    let dodge = |i: usize| -> f64 {
        match categories {
            Some(_) if n > 1 => {
                let step = (0.6 / n as f64).min(0.2);
                (i as f64 - (n as f64 - 1.0) / 2.0) * step
            }
            _ => 0.0,
        }
    };
    let clamp_y = |v: f64| v.clamp(y.lo, y.hi);
    for (i, series) in chart.series.iter().enumerate() {
        let l = look(i);
        let dx = dodge(i);
        if categories.is_none() {
            let band: Vec<(f64, f64)> = series
                .points
                .iter()
                .filter_map(|p| p.high.map(|h| f.at(p.x, clamp_y(h))))
                .chain(
                    series
                        .points
                        .iter()
                        .rev()
                        .filter_map(|p| p.low.map(|l| f.at(p.x, clamp_y(l)))),
                )
                .collect();
            if band.len() >= 3 {
                let band: Vec<(i32, i32)> = band
                    .iter()
                    .map(|(x, y)| (x.round() as i32, y.round() as i32))
                    .collect();
                area.draw(&Polygon::new(band, l.color.mix(0.18).filled()))
                    .map_err(fail)?;
            }
            let line: Vec<(f64, f64)> = series.points.iter().map(|p| f.at(p.x, p.y)).collect();
            for run in clip_rows(&line, f64::from(f.top), f64::from(f.bottom)) {
                stroke(area, &run, l.color.into(), pen.width(LINE_PT), l.dash, pen)?;
            }
        }
        for p in &series.points {
            let (px, py) = f.at(p.x + dx, p.y);
            let single = series.points.len() == 1;
            if (categories.is_some() || single)
                && let (Some(low), Some(high)) = (p.low, p.high)
            {
                let (_, top) = f.at(p.x, clamp_y(high));
                let (_, foot) = f.at(p.x, clamp_y(low));
                let cap = pen.pxf(MARKER_PT);
                let width = pen.width(LINE_PT * 0.8);
                stroke(
                    area,
                    &[(px, top), (px, foot)],
                    l.color.into(),
                    width,
                    &[],
                    pen,
                )?;
                for end in [top, foot] {
                    stroke(
                        area,
                        &[(px - cap, end), (px + cap, end)],
                        l.color.into(),
                        width,
                        &[],
                        pen,
                    )?;
                }
            }
            if f.holds_y(py) {
                // On a log axis an estimate at or below the floor is drawn there, hollow.
                let floored = chart.y_log && p.y <= y.lo;
                marker(area, (px, py), l.marker, l.color, !floored, pen)?;
            }
        }
        if series.exact.len() >= 2 {
            // The exact answer, dashed in black over the estimate, so agreement shows at a glance.
            let exact: Vec<(f64, f64)> = series.exact.iter().map(|(x, y)| f.at(*x, *y)).collect();
            for run in clip_rows(&exact, f64::from(f.top), f64::from(f.bottom)) {
                stroke(area, &run, BLACK.into(), pen.width(1.0), &[3.0, 2.0], pen)?;
            }
        }
        for &x in &series.ineligible {
            let foot = f64::from(f.bottom) - pen.pxf(MARKER_PT * 2.0);
            cross(area, (f.x_px(x + dx), foot), l.color, pen)?;
        }
    }
    for &(x, y) in &chart.marked {
        // The chosen values of a tune, ringed in black over every line.
        let (px, py) = f.at(x, y);
        area.draw(&Circle::new(
            (px.round() as i32, py.round() as i32),
            pen.px(MARKER_PT * 2.2),
            BLACK.stroke_width(pen.width(1.2)),
        ))
        .map_err(fail)?;
    }
    Ok(())
}

/// The runs of a polyline (in pixels) that lie between two rows, cut where it crosses them: a line whose
/// values leave a fixed axis stops at its edge.
fn clip_rows(points: &[(f64, f64)], top: f64, bottom: f64) -> Vec<Vec<(f64, f64)>> {
    let inside = |p: (f64, f64)| p.1 >= top - 1e-9 && p.1 <= bottom + 1e-9;
    let cut = |a: (f64, f64), b: (f64, f64), row: f64| {
        let t = (row - a.1) / (b.1 - a.1);
        (a.0 + (b.0 - a.0) * t, row)
    };
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut current: Vec<(f64, f64)> = Vec::new();
    for (k, &p) in points.iter().enumerate() {
        if k > 0 {
            let a = points[k - 1];
            for row in [top, bottom] {
                let crosses = (a.1 - row) * (p.1 - row) < 0.0;
                if crosses {
                    let c = cut(a, p, row);
                    if inside(a) {
                        current.push(c);
                        runs.push(std::mem::take(&mut current));
                    } else if inside(p) {
                        current = vec![c];
                    }
                }
            }
            // A segment that crosses both rows passes through the whole plot.
            if !inside(a)
                && !inside(p)
                && (a.1 - top) * (p.1 - top) < 0.0
                && (a.1 - bottom) * (p.1 - bottom) < 0.0
            {
                let (c1, c2) = (cut(a, p, top), cut(a, p, bottom));
                let mut pass = vec![c1, c2];
                pass.sort_by(|u, v| (u.0 - a.0).abs().total_cmp(&(v.0 - a.0).abs()));
                runs.push(pass);
                current.clear();
            }
        }
        if inside(p) {
            current.push(p);
        }
    }
    if current.len() >= 2 {
        runs.push(current);
    }
    runs.retain(|r| r.len() >= 2);
    runs
}

fn draw_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &HistogramFigure,
    pen: Pen,
) -> DrawResult<()> {
    let values = chart.series.iter().flat_map(|(_, bars)| bars.iter());
    let (mut lo, mut hi, mut top) = (i64::MAX, i64::MIN, 0.0f64);
    for (v, p) in values {
        lo = lo.min(*v);
        hi = hi.max(*v);
        top = top.max(*p);
    }
    if lo > hi {
        lo = 0;
        hi = 1;
    }
    let x = Scale {
        lo: lo as f64 - 0.6,
        hi: hi as f64 + 0.6,
        log: false,
    };
    let y = Scale {
        lo: 0.0,
        hi: (top * 1.08).max(1.0),
        log: false,
    };
    let (w, h) = area.dim_in_pixel();
    let count = across(w as i32, pen).min((hi - lo + 1) as usize).max(2);
    let x_ticks = ticks(&x, count, true, false)
        .into_iter()
        .filter(|(v, _)| *v >= lo as f64 && *v <= hi as f64)
        .collect();
    let f = frame(
        area,
        (x, y.clone()),
        (
            AxisText::new(&chart.x_label, x_ticks, false),
            AxisText::new(
                "share of the trials (%)",
                ticks(&y, tick_count(h as i32, pen), false, true),
                false,
            ),
        ),
        pen,
    )?;
    let k = chart.series.len().max(1) as f64;
    let width = 0.8 / k;
    for (i, (_, bars)) in chart.series.iter().enumerate() {
        let color = look(i).color;
        let offset = -0.4 + width * i as f64;
        for (v, p) in bars {
            let x0 = *v as f64 + offset;
            let (a, b) = (f.at(x0, 0.0), f.at(x0 + width, *p));
            area.draw(&Rectangle::new(
                [
                    (a.0.round() as i32, b.1.round() as i32),
                    (b.0.round() as i32, a.1.round() as i32),
                ],
                color.mix(0.85).filled(),
            ))
            .map_err(fail)?;
        }
    }
    Ok(())
}

/// A value of a heatmap or its colour bar: as many decimals as the range needs.
fn scale_label(v: f64, span: f64, percent: bool) -> String {
    let step = if span > 0.0 { span / 20.0 } else { 1.0 };
    tick_label(v, step.min(1.0), percent)
}

fn draw_heatmaps<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &HeatmapFigure,
    pen: Pen,
) -> DrawResult<()> {
    let (lo, hi) = chart.color_range;
    let span = hi - lo;
    let scale = |v: f64| if span > 0.0 { (v - lo) / span } else { 0.5 };
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let text_font = pen.font(TEXT_PT);
    let column = (f64::from(w) * 0.17).max(pen.pxf(80.0)) as i32;
    let (plots, bar) = area.split_horizontally(w - column);
    let n = chart.panels.len().max(1);
    let cols = (n as f64).sqrt().ceil() as usize;
    let rows = n.div_ceil(cols);
    let panels = plots.split_evenly((rows, cols));
    let (nx, ny) = (chart.x_labels.len(), chart.y_labels.len());
    let category = |labels: &[String]| -> Vec<(f64, String)> {
        labels
            .iter()
            .enumerate()
            .map(|(i, l)| (i as f64 + 0.5, l.clone()))
            .collect()
    };
    for ((name, cells), panel) in chart.panels.iter().zip(&panels) {
        let panel = if n > 1 {
            panel
                .draw(&Text::new(
                    name.clone(),
                    (pen.px(GAP_PT), 0),
                    text_font.pos(Pos::new(HPos::Left, VPos::Top)),
                ))
                .map_err(fail)?;
            let (_, ph) = panel.dim_in_pixel();
            panel.clone().shrink(
                (0, pen.line(TEXT_PT)),
                (panel.dim_in_pixel().0, ph as i32 - pen.line(TEXT_PT)),
            )
        } else {
            panel.clone()
        };
        let f = frame(
            &panel,
            (
                Scale {
                    lo: 0.0,
                    hi: nx as f64,
                    log: false,
                },
                Scale {
                    lo: 0.0,
                    hi: ny as f64,
                    log: false,
                },
            ),
            (
                AxisText::new(&chart.x_label, category(&chart.x_labels), true),
                AxisText::new(&chart.y_label, category(&chart.y_labels), false),
            ),
            pen,
        )?;
        let cell_w = f64::from(f.right - f.left) / nx.max(1) as f64;
        let cell_h = f64::from(f.bottom - f.top) / ny.max(1) as f64;
        for (yi, row) in cells.iter().enumerate() {
            for (xi, cell) in row.iter().enumerate() {
                let (x0, y0) = f.at(xi as f64, yi as f64 + 1.0);
                let (x1, y1) = f.at(xi as f64 + 1.0, yi as f64);
                let color = match cell {
                    Cell::Value(v) => viridis(scale(*v)),
                    Cell::Empty | Cell::Ineligible => RGBColor(225, 225, 225),
                };
                panel
                    .draw(&Rectangle::new(
                        [
                            (x0.round() as i32, y0.round() as i32),
                            (x1.round() as i32, y1.round() as i32),
                        ],
                        color.filled(),
                    ))
                    .map_err(fail)?;
                let middle = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
                match cell {
                    Cell::Value(v) => {
                        let label = scale_label(*v, span, chart.percent);
                        let fits = f64::from(text_width(&panel, &label, &text_font))
                            <= cell_w - pen.pxf(GAP_PT)
                            && f64::from(pen.line(TEXT_PT)) <= cell_h;
                        if fits {
                            let ink = if scale(*v) > 0.6 { BLACK } else { WHITE };
                            let style = text_font
                                .color(&ink)
                                .pos(Pos::new(HPos::Center, VPos::Center));
                            let at = (middle.0.round() as i32, middle.1.round() as i32);
                            panel.draw(&Text::new(label, at, style)).map_err(fail)?;
                        }
                    }
                    Cell::Ineligible => cross(&panel, middle, RGBColor(90, 90, 90), pen)?,
                    Cell::Empty => {}
                }
            }
        }
    }
    // The colour bar: its title, its range's ends and middle, and where the range comes from.
    let gap = pen.px(GAP_PT);
    let title: Vec<String> = wrap(&chart.metric_label, column - 2 * gap, |t| {
        text_width(&bar, t, &text_font)
    });
    let note: Vec<String> = wrap(&chart.color_note, column - 2 * gap, |t| {
        text_width(&bar, t, &text_font)
    });
    let top = gap + title.len() as i32 * pen.line(TEXT_PT) + gap + pen.line(TEXT_PT) / 2;
    let bottom = (h - note.len() as i32 * pen.line(TEXT_PT) - pen.line(TEXT_PT)).max(top + 10);
    for (k, line) in title.iter().enumerate() {
        bar.draw(&Text::new(
            line.clone(),
            (2 * gap, gap + k as i32 * pen.line(TEXT_PT)),
            text_font.pos(Pos::new(HPos::Left, VPos::Top)),
        ))
        .map_err(fail)?;
    }
    for (k, line) in note.iter().enumerate() {
        bar.draw(&Text::new(
            line.clone(),
            (
                2 * gap,
                bottom + pen.line(TEXT_PT) / 2 + gap + k as i32 * pen.line(TEXT_PT),
            ),
            text_font.pos(Pos::new(HPos::Left, VPos::Top)),
        ))
        .map_err(fail)?;
    }
    let (x0, x1) = (2 * gap, 2 * gap + pen.px(12.0));
    let steps = 100;
    for s in 0..steps {
        let t = 1.0 - f64::from(s) / f64::from(steps);
        let y0 = top + (bottom - top) * s / steps;
        let y1 = top + (bottom - top) * (s + 1) / steps;
        bar.draw(&Rectangle::new(
            [(x0, y0), (x1, y1 + 1)],
            viridis(t).filled(),
        ))
        .map_err(fail)?;
    }
    for (t, y) in [(1.0, top), (0.5, (top + bottom) / 2), (0.0, bottom)] {
        bar.draw(&Text::new(
            scale_label(lo + span * t, span, chart.percent),
            (x1 + gap, y),
            text_font.pos(Pos::new(HPos::Left, VPos::Center)),
        ))
        .map_err(fail)?;
    }
    Ok(())
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
    fn x_labels_too_wide_for_their_share_are_thinned_until_none_touch() {
        assert_eq!(label_step(40, 40, 5), 1);
        assert_eq!(label_step(41, 40, 5), 2);
        // Two labels `step` apart: centres `step * 45` pixels apart, each label 100 wide, a gap between.
        for widest in [41, 80, 100, 179, 500] {
            let step = label_step(widest, 40, 5) as i32;
            assert!(step * 45 >= widest + 5, "{widest}: {step}");
            assert!(
                (step - 1) * 45 < widest + 5 || step == 1,
                "{widest}: {step} is more than needed"
            );
        }
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

    #[test]
    fn ticks_fall_on_round_values() {
        let (t, step) = linear_ticks(0.0, 100.0, 5, false);
        assert_eq!((t, step), (vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0], 20.0));
        let (t, _) = linear_ticks(0.0, 6.0, 6, false);
        assert_eq!(t, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let (t, step) = linear_ticks(0.0, 0.5, 5, false);
        assert_eq!(step, 0.1);
        assert_eq!(t.len(), 6);
        // Levels are whole: never a tick at 2.5.
        let (t, _) = linear_ticks(1.0, 4.0, 10, true);
        assert_eq!(t, [1.0, 2.0, 3.0, 4.0]);
        assert_eq!(tick_label(0.25, 0.05, true), "0.25%");
        assert_eq!(tick_label(2.5, 2.5, false), "2.5");
        assert_eq!(tick_label(40.0, 20.0, true), "40%");
        assert_eq!(tick_label(-0.0, 1.0, false), "0");
    }

    #[test]
    fn a_log_axis_ticks_powers_of_ten() {
        assert_eq!(log_ticks(0.01, 100.0), [0.01, 0.1, 1.0, 10.0, 100.0]);
        assert_eq!(log_ticks(0.5, 10.0), [0.5, 1.0, 2.0, 5.0, 10.0]);
        let s = Scale {
            lo: 0.1,
            hi: 10.0,
            log: true,
        };
        assert!((s.t(1.0) - 0.5).abs() < 1e-12);
        // A zero sits on the floor.
        assert_eq!(s.t(0.0), 0.0);
        let labels: Vec<String> = ticks(&s, 5, false, true).into_iter().map(|t| t.1).collect();
        assert_eq!(labels, ["0.1%", "0.2%", "0.5%", "1%", "2%", "5%", "10%"]);
    }

    #[test]
    fn dashes_alternate_and_keep_their_length() {
        let line = [(0.0, 0.0), (10.0, 0.0)];
        assert_eq!(dashes(&line, &[]), vec![line.to_vec()]);
        let runs = dashes(&line, &[3.0, 1.0]);
        assert_eq!(runs.len(), 3);
        assert_eq!(runs[0], [(0.0, 0.0), (3.0, 0.0)]);
        assert_eq!(runs[1], [(4.0, 0.0), (7.0, 0.0)]);
        assert_eq!(runs[2], [(8.0, 0.0), (10.0, 0.0)]);
        // A dash goes round a corner.
        let corner = dashes(&[(0.0, 0.0), (2.0, 0.0), (2.0, 2.0)], &[3.0, 1.0]);
        assert_eq!(corner[0], [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0)]);
    }

    #[test]
    fn lines_that_leave_a_fixed_axis_stop_at_its_edge() {
        // Rows 0 (top) to 10 (bottom); y grows downwards.
        let runs = clip_rows(&[(0.0, 5.0), (10.0, -5.0), (20.0, 5.0)], 0.0, 10.0);
        assert_eq!(
            runs,
            [vec![(0.0, 5.0), (5.0, 0.0)], vec![(15.0, 0.0), (20.0, 5.0)]]
        );
        let through = clip_rows(&[(0.0, -10.0), (10.0, 20.0)], 0.0, 10.0);
        assert_eq!(through.len(), 1);
        assert_eq!(through[0].len(), 2);
        assert_eq!(clip_rows(&[(0.0, 1.0), (1.0, 2.0)], 0.0, 10.0).len(), 1);
    }

    #[test]
    fn the_legend_goes_below_when_it_would_take_too_much_width() {
        assert_eq!(placement(&[100], 1000, 20, 4, 10), Placement::None);
        assert_eq!(
            placement(&[100, 150], 1000, 20, 4, 10),
            Placement::Right(182)
        );
        match placement(&[400, 300, 400], 1000, 20, 4, 10) {
            Placement::Below(rows, _) => assert_eq!(rows, [vec![0, 1], vec![2]]),
            other => panic!("{other:?}"),
        }
        match placement(&[600, 300, 400], 1000, 20, 4, 10) {
            Placement::Below(rows, _) => assert_eq!(rows, [vec![0], vec![1], vec![2]]),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_series_has_its_own_colour_marker_and_dash() {
        for i in 0..4 {
            for j in 0..i {
                let (a, b) = (look(i), look(j));
                assert!(a.color != b.color && a.marker != b.marker && a.dash != b.dash);
            }
        }
        assert!(outline(Marker::Circle).is_none());
        assert_eq!(outline(Marker::Star).unwrap().len(), 10);
    }
}
