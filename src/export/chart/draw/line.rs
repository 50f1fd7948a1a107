//! Line figures: series of estimates with their bands or whiskers, exact answers dashed over them,
//! reference lines, ineligible points and the chosen values of a tune, on a number or a text axis.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axes::{AxisText, Scale, across, frame, padded, tick_count, ticks};
use super::marks::{cross, look, marker, stroke};
use super::{DrawResult, LINE_PT, MARKER_PT, Pen, fail};
use crate::export::chart::figure::LineFigure;

pub(super) fn draw_lines<DB: DrawingBackend>(
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
#[cfg(test)]
mod tests {
    use super::*;

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
}
