//! The legend: beside the plot when it is narrow, below it (or wrapped beside it) when not, and one entry
//! per series whose swatch is drawn by the same marks as the series itself. Line and histogram figures
//! carry one; a heatmap's colour bar is its own.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::marks::{look, marker, stroke};
use super::{
    AXIS_PT, DrawResult, GAP_PT, LINE_PT, MARGIN_PT, MARKER_PT, Pen, TEXT_PT, fail, text_width,
    wrap,
};

/// A legend beside the plot may take at most this share of the width; a wider one goes below.
const LEGEND_SHARE: f64 = 0.26;

/// What a legend entry shows of its series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Swatch {
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
pub(super) fn with_legend<DB: DrawingBackend>(
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
#[cfg(test)]
mod tests {
    use super::*;

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
}
