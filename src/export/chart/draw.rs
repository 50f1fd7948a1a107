//! Drawing figures with plotters, once for any backend: SVG for documents and browsers, PNG for everything
//! else. Text uses an embedded DejaVu Sans through plotters' `ab_glyph` feature, so no system font library
//! is needed at build or run time.

use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::export::chart::figure::{Figure, HeatmapFigure, HistogramFigure, LineFigure};

/// DejaVu Sans (Bitstream Vera licence, shipped beside it in `assets/fonts/`).
static FONT: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");

/// Registers the embedded font once; plotters looks fonts up by family name.
fn register_font() -> Result<(), String> {
    static REGISTERED: OnceLock<Result<(), String>> = OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
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

type DrawResult<T> = Result<T, String>;

fn fail<E: std::fmt::Debug>(e: E) -> String {
    format!("cannot draw the chart: {e:?}")
}

/// Renders a figure as SVG text.
pub fn svg(figure: &Figure, size: (u32, u32)) -> DrawResult<String> {
    register_font()?;
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        draw(&root, figure)?;
        root.present().map_err(fail)?;
    }
    Ok(text)
}

/// Renders a figure as PNG bytes.
pub fn png(figure: &Figure, size: (u32, u32)) -> DrawResult<Vec<u8>> {
    register_font()?;
    let mut pixels = vec![0u8; size.0 as usize * size.1 as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
        draw(&root, figure)?;
        root.present().map_err(fail)?;
    }
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes)
        .write_image(&pixels, size.0, size.1, image::ColorType::Rgb8)
        .map_err(fail)?;
    Ok(bytes)
}

use image::ImageEncoder;

const LEGEND_WIDTH: u32 = 280;

fn font(size: u32) -> TextStyle<'static> {
    ("sans-serif", size).into_font().color(&BLACK)
}

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, figure: &Figure) -> DrawResult<()> {
    root.fill(&WHITE).map_err(fail)?;
    let titled = root.titled(figure.title(), font(30)).map_err(fail)?;
    let (width, _) = titled.dim_in_pixel();
    let (plot, legend) = titled.split_horizontally(width.saturating_sub(LEGEND_WIDTH));
    match figure {
        Figure::Line(chart) => {
            draw_lines(&plot, chart)?;
            let y = draw_legend(&legend, chart.series.iter().map(|s| s.name.as_str()), false)?;
            if chart.series.iter().any(|s| s.exact.len() >= 2) {
                let dashes = (0..3).map(|k| {
                    PathElement::new(
                        vec![(10 + 13 * k, y), (18 + 13 * k, y)],
                        BLACK.stroke_width(2),
                    )
                });
                for dash in dashes {
                    legend.draw(&dash).map_err(fail)?;
                }
                let style = font(18).pos(Pos::new(HPos::Left, VPos::Center));
                legend
                    .draw(&Text::new("exact value", (56, y), style))
                    .map_err(fail)?;
            }
            Ok(())
        }
        Figure::Heatmap(chart) => draw_heatmaps(&plot, &legend, chart),
        Figure::Histogram(chart) => {
            draw_bars(&plot, chart)?;
            draw_legend(&legend, chart.series.iter().map(|s| s.0.as_str()), true).map(|_| ())
        }
    }
}

/// A legend in its own column, beside the plot, so it never covers data: a line with a point for line
/// charts, a box for bars.
fn draw_legend<'a, DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    names: impl Iterator<Item = &'a str>,
    boxes: bool,
) -> DrawResult<i32> {
    let mut y = 70;
    for (i, name) in names.enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        if boxes {
            area.draw(&Rectangle::new(
                [(14, y - 9), (42, y + 9)],
                color.mix(0.85).filled(),
            ))
            .map_err(fail)?;
        } else {
            area.draw(&PathElement::new(
                vec![(10, y), (46, y)],
                color.stroke_width(4),
            ))
            .map_err(fail)?;
            area.draw(&Circle::new((28, y), 5, color.filled()))
                .map_err(fail)?;
        }
        let lines = wrap(name, 22);
        for (k, line) in lines.iter().enumerate() {
            let at = (56, y + 22 * k as i32);
            let style = font(18).pos(Pos::new(HPos::Left, VPos::Center));
            area.draw(&Text::new(line.clone(), at, style))
                .map_err(fail)?;
        }
        y += 22 * lines.len().saturating_sub(1) as i32 + 32;
    }
    Ok(y)
}

/// Breaks a label into lines of at most `width` characters at spaces (a longer word stands alone), so
/// legends keep their whole text in their narrow column.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// Padded range of some values; a flat range is widened so it can be drawn.
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

fn draw_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &LineFigure,
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
    let (x_lo, x_hi) = match &chart.x_categories {
        Some(c) => (-0.5, c.len() as f64 - 0.5),
        None => padded(x_lo, x_hi),
    };
    for &h in &chart.horizontal {
        y_lo = y_lo.min(h);
        y_hi = y_hi.max(h);
    }
    let (y_lo, y_hi) = if chart.probability {
        (0.0, 100.0)
    } else if chart.horizontal.is_empty() {
        padded(y_lo.min(0.0), y_hi)
    } else {
        // A difference or a tune: the axis follows the data and its reference lines, below 0 too.
        padded(y_lo, y_hi)
    };
    let mut cc = ChartBuilder::on(area)
        .margin(24)
        .x_label_area_size(70)
        .y_label_area_size(90)
        .build_cartesian_2d(x_lo..x_hi, y_lo..y_hi)
        .map_err(fail)?;
    let categories = chart.x_categories.clone();
    let x_format = move |v: &f64| match &categories {
        Some(c) => {
            let i = v.round();
            if (v - i).abs() < 1e-6 && i >= 0.0 {
                c.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        }
        None => trim_number(*v),
    };
    let probability = chart.probability;
    let y_format = move |v: &f64| {
        if probability {
            format!("{v:.0}%")
        } else {
            trim_number(*v)
        }
    };
    let x_labels = chart.x_categories.as_ref().map_or(12, |c| c.len().max(2));
    cc.configure_mesh()
        .x_desc(chart.x_label.as_str())
        .y_desc(chart.y_label.as_str())
        .x_labels(x_labels)
        .y_labels(11)
        .x_label_formatter(&x_format)
        .y_label_formatter(&y_format)
        .house_style()
        .draw()
        .map_err(fail)?;
    for &h in &chart.horizontal {
        // A reference line (zero, a target) across the whole chart, dashed so it never reads as data.
        cc.draw_series(DashedLineSeries::new(
            [(x_lo, h), (x_hi, h)],
            14,
            8,
            BLACK.stroke_width(3),
        ))
        .map_err(fail)?;
    }
    let n = chart.series.len();
    for (i, series) in chart.series.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        // Earlier series are drawn wider, so a line that coincides with a later one still shows as a rim.
        let wider = (n - 1 - i).min(5);
        let width = 3 + 2 * wider as u32;
        let radius = 5 + 2 * wider as i32;
        let band: Vec<(f64, f64)> = series
            .points
            .iter()
            .filter_map(|p| p.high.map(|h| (p.x, h)))
            .chain(
                series
                    .points
                    .iter()
                    .rev()
                    .filter_map(|p| p.low.map(|l| (p.x, l))),
            )
            .collect();
        if band.len() >= 3 {
            cc.draw_series(std::iter::once(Polygon::new(
                band,
                color.mix(0.22).filled(),
            )))
            .map_err(fail)?;
        }
        let line: Vec<(f64, f64)> = series.points.iter().map(|p| (p.x, p.y)).collect();
        cc.draw_series(std::iter::once(PathElement::new(
            line.clone(),
            color.stroke_width(width),
        )))
        .map_err(fail)?;
        cc.draw_series(
            line.into_iter()
                .map(|xy| Circle::new(xy, radius, color.filled())),
        )
        .map_err(fail)?;
        if series.exact.len() >= 2 {
            // The exact answer, dashed in black over the estimate, so agreement shows at a glance.
            cc.draw_series(DashedLineSeries::new(
                series.exact.clone(),
                9,
                6,
                BLACK.stroke_width(2),
            ))
            .map_err(fail)?;
        }
    }
    // The chosen values of a tune, ringed in black over every line.
    cc.draw_series(
        chart
            .marked
            .iter()
            .map(|&xy| Circle::new(xy, 16, BLACK.stroke_width(4))),
    )
    .map_err(fail)?;
    Ok(())
}

/// The look shared by every cartesian chart: large axis titles, light grid lines.
trait HouseStyle {
    fn house_style(&mut self) -> &mut Self;
}

impl<X, Y, DB> HouseStyle for plotters::chart::MeshStyle<'_, '_, X, Y, DB>
where
    X: plotters::coord::ranged1d::Ranged<ValueType = f64>,
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
    DB: DrawingBackend,
{
    fn house_style(&mut self) -> &mut Self {
        self.axis_desc_style(font(22))
            .label_style(font(17))
            .light_line_style(RGBColor(235, 235, 235))
            .bold_line_style(RGBColor(205, 205, 205))
    }
}

/// A number without a needless fraction: 3 rather than 3.000.
fn trim_number(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

fn draw_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &HistogramFigure,
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
    let mut cc = ChartBuilder::on(area)
        .margin(24)
        .x_label_area_size(70)
        .y_label_area_size(90)
        .build_cartesian_2d(
            lo as f64 - 0.6..hi as f64 + 0.6,
            0.0..(top * 100.0 * 1.08).max(1.0),
        )
        .map_err(fail)?;
    cc.configure_mesh()
        .x_desc(chart.x_label.as_str())
        .y_desc("share of the trials where it occurs (%)")
        .x_labels(((hi - lo + 1) as usize).clamp(2, 25))
        .x_label_formatter(&|v| trim_number(*v))
        .y_label_formatter(&|v| format!("{v:.0}%"))
        .house_style()
        .draw()
        .map_err(fail)?;
    let k = chart.series.len().max(1) as f64;
    let width = 0.8 / k;
    for (i, (_, bars)) in chart.series.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        let offset = -0.4 + width * i as f64;
        cc.draw_series(bars.iter().map(|(v, p)| {
            let x0 = *v as f64 + offset;
            Rectangle::new(
                [(x0, 0.0), (x0 + width, p * 100.0)],
                color.mix(0.85).filled(),
            )
        }))
        .map_err(fail)?;
    }
    Ok(())
}

fn draw_heatmaps<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    legend: &DrawingArea<DB, Shift>,
    chart: &HeatmapFigure,
) -> DrawResult<()> {
    let values = chart
        .panels
        .iter()
        .flat_map(|(_, cells)| cells.iter().flatten().flatten());
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values {
        lo = lo.min(*v);
        hi = hi.max(*v);
    }
    if chart.probability || !(lo.is_finite() && hi.is_finite()) {
        lo = 0.0;
        hi = 1.0;
    } else if hi - lo <= f64::EPSILON {
        hi = lo + 1.0;
    }
    let scale = |v: f64| (v - lo) / (hi - lo);
    let n = chart.panels.len().max(1);
    let cols = (n as f64).sqrt().ceil() as usize;
    let rows = n.div_ceil(cols);
    let panels = area.split_evenly((rows, cols));
    let (nx, ny) = (chart.x_labels.len(), chart.y_labels.len());
    // Values go in the cells only when a cell is wide and tall enough to hold one legibly.
    let (panel_w, panel_h) = panels.first().map_or((0, 0), |p| p.dim_in_pixel());
    let cell_w = f64::from(panel_w.saturating_sub(150)) / nx.max(1) as f64;
    let cell_h = f64::from(panel_h.saturating_sub(110)) / ny.max(1) as f64;
    let show_values = cell_w >= 48.0 && cell_h >= 22.0;
    for ((name, cells), panel) in chart.panels.iter().zip(&panels) {
        let mut cc = ChartBuilder::on(panel)
            .margin(16)
            .caption(name.as_str(), font(20))
            .x_label_area_size(64)
            .y_label_area_size(110)
            .build_cartesian_2d(0.0..nx as f64, 0.0..ny as f64)
            .map_err(fail)?;
        let xl = chart.x_labels.clone();
        let yl = chart.y_labels.clone();
        let category = |labels: &Vec<String>, v: f64| {
            let i = (v - 0.5).round();
            if (v - 0.5 - i).abs() < 1e-6 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        };
        cc.configure_mesh()
            .disable_mesh()
            .x_desc(chart.x_label.as_str())
            .y_desc(chart.y_label.as_str())
            .x_labels(nx * 2 + 1)
            .y_labels(ny * 2 + 1)
            .x_label_formatter(&|v| category(&xl, *v))
            .y_label_formatter(&|v| category(&yl, *v))
            .axis_desc_style(font(20))
            .label_style(font(15))
            .draw()
            .map_err(fail)?;
        for (yi, row) in cells.iter().enumerate() {
            for (xi, cell) in row.iter().enumerate() {
                let (x, y) = (xi as f64, yi as f64);
                let color = cell.map_or(RGBColor(220, 220, 220), |v| viridis(scale(v)));
                cc.draw_series(std::iter::once(Rectangle::new(
                    [(x, y), (x + 1.0, y + 1.0)],
                    color.filled(),
                )))
                .map_err(fail)?;
                if show_values && let Some(v) = cell {
                    let text_color = if scale(*v) > 0.6 { BLACK } else { WHITE };
                    let label = if chart.probability {
                        format!("{:.0}%", v * 100.0)
                    } else {
                        trim_number((v * 100.0).round() / 100.0)
                    };
                    let style = ("sans-serif", 15)
                        .into_font()
                        .color(&text_color)
                        .pos(Pos::new(HPos::Center, VPos::Center));
                    cc.draw_series(std::iter::once(Text::new(label, (x + 0.5, y + 0.5), style)))
                        .map_err(fail)?;
                }
            }
        }
    }
    // The colour scale, in the legend column.
    let (_, h) = legend.dim_in_pixel();
    let (top, bottom) = (80i32, (h as i32 - 80).max(120));
    let title = wrap(&chart.metric_label, 24);
    for (k, line) in title.iter().enumerate() {
        let at = (10, top - 14 - 22 * (title.len() - k) as i32);
        legend
            .draw(&Text::new(line.clone(), at, font(18)))
            .map_err(fail)?;
    }
    let steps = 100;
    for s in 0..steps {
        let t = 1.0 - s as f64 / steps as f64;
        let y0 = top + (bottom - top) * s / steps;
        let y1 = top + (bottom - top) * (s + 1) / steps;
        legend
            .draw(&Rectangle::new(
                [(20, y0), (60, y1 + 1)],
                viridis(t).filled(),
            ))
            .map_err(fail)?;
    }
    let label = |v: f64| {
        if chart.probability {
            format!("{:.0}%", v * 100.0)
        } else {
            trim_number(v)
        }
    };
    for (t, y) in [(1.0, top), (0.5, (top + bottom) / 2), (0.0, bottom)] {
        let v = lo + (hi - lo) * t;
        legend
            .draw(&Text::new(
                label(v),
                (70, y),
                font(16).pos(Pos::new(HPos::Left, VPos::Center)),
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
    fn long_labels_wrap_at_spaces() {
        assert_eq!(
            wrap("damage per hit (hit points)", 22),
            ["damage per hit (hit", "points)"]
        );
        assert_eq!(wrap("as written", 22), ["as written"]);
        assert_eq!(wrap("", 22), Vec::<String>::new());
    }

    #[test]
    fn numbers_lose_needless_fractions() {
        assert_eq!(trim_number(3.0), "3");
        assert_eq!(trim_number(-2.0), "-2");
        assert_eq!(trim_number(2.5), "2.5");
        assert_eq!(trim_number(0.125), "0.125");
    }
}
