//! The marks a series is drawn with: its colour, marker and dash ([`look`]), and the strokes, markers and
//! crosses every kind of figure and the legend draw them with. They live apart so a legend swatch and the
//! line it stands for are drawn by the same code.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{DrawResult, LINE_PT, MARKER_PT, PALETTE, Pen, fail};

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
pub(super) enum Marker {
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
pub(super) struct Look {
    pub(super) color: RGBColor,
    pub(super) marker: Marker,
    pub(super) dash: &'static [f64],
}

pub(super) fn look(i: usize) -> Look {
    Look {
        color: PALETTE[i % PALETTE.len()],
        marker: MARKERS[i % MARKERS.len()],
        dash: DASHES[i % DASHES.len()],
    }
}

/// A polyline in pixels, solid or dashed by `pattern` (in points).
pub(super) fn stroke<DB: DrawingBackend>(
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
pub(super) fn marker<DB: DrawingBackend>(
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
pub(super) fn cross<DB: DrawingBackend>(
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
#[cfg(test)]
mod tests {
    use super::*;

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
