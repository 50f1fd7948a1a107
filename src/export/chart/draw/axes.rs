//! Axes shared by every kind of figure: scales (linear or log), ticks on round values and their labels,
//! and the [`Frame`] that lays a plot out around its tick labels and titles, thinning or staggering x
//! labels that would touch and wrapping the labels of a text axis. A figure asks for a frame and draws
//! its data in it, never placing an axis itself.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontTransform;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{AXIS_PT, DrawResult, GAP_PT, MARGIN_PT, Pen, TEXT_PT, fail, text_width, wrap};

/// One axis of a plot: its range, its scale, and where its ticks fall.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Scale {
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) log: bool,
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
pub(super) fn tick_label(v: f64, step: f64, percent: bool) -> String {
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
pub(super) fn ticks(
    scale: &Scale,
    count: usize,
    integer: bool,
    percent: bool,
) -> Vec<(f64, String)> {
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
pub(super) fn padded(lo: f64, hi: f64) -> (f64, f64) {
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
pub(super) struct Frame {
    pub(super) left: i32,
    pub(super) top: i32,
    pub(super) right: i32,
    pub(super) bottom: i32,
    x: Scale,
    y: Scale,
}

impl Frame {
    pub(super) fn at(&self, x: f64, y: f64) -> (f64, f64) {
        (
            f64::from(self.left) + self.x.t(x) * f64::from(self.right - self.left),
            f64::from(self.bottom) - self.y.t(y) * f64::from(self.bottom - self.top),
        )
    }

    pub(super) fn x_px(&self, x: f64) -> f64 {
        self.at(x, self.y.lo).0
    }

    pub(super) fn y_px(&self, y: f64) -> f64 {
        self.at(self.x.lo, y).1
    }

    /// Whether a pixel row is inside the plot.
    pub(super) fn holds_y(&self, y: f64) -> bool {
        y >= f64::from(self.top) - 0.5 && y <= f64::from(self.bottom) + 0.5
    }
}

/// What an axis is labelled with.
pub(super) struct AxisText<'a> {
    title: &'a str,
    ticks: Vec<(f64, String)>,
    /// Category labels, wrapped, drawn at each tick (a text axis).
    wrapped: bool,
}

impl<'a> AxisText<'a> {
    pub(super) fn new(title: &'a str, ticks: Vec<(f64, String)>, wrapped: bool) -> AxisText<'a> {
        AxisText {
            title,
            ticks,
            wrapped,
        }
    }
}

/// Lays a frame out in `area` for these tick labels and axis titles, then draws the grid, the axes, the
/// ticks and the titles. Returns the frame to draw data in.
pub(super) fn frame<DB: DrawingBackend>(
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
pub(super) fn across(width: i32, pen: Pen) -> usize {
    ((f64::from(width) / pen.pxf(50.0)).round() as usize).clamp(2, 12)
}

/// How many ticks a vertical axis of `height` pixels carries: about one per 32 points.
pub(super) fn tick_count(height: i32, pen: Pen) -> usize {
    ((f64::from(height) / pen.pxf(32.0)).round() as usize).clamp(3, 10)
}
#[cfg(test)]
mod tests {
    use super::*;

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
}
