//! Heatmaps: one panel of coloured cells per grid, values written where they fit, and a viridis colour
//! bar with its range beside them.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axes::{AxisText, Scale, frame, tick_label};
use super::marks::cross;
use super::{DrawResult, GAP_PT, Pen, TEXT_PT, fail, text_width, viridis, wrap};
use crate::export::chart::figure::{Cell, HeatmapFigure};

/// A value of a heatmap or its colour bar: as many decimals as the range needs.
fn scale_label(v: f64, span: f64, percent: bool) -> String {
    let step = if span > 0.0 { span / 20.0 } else { 1.0 };
    tick_label(v, step.min(1.0), percent)
}

pub(super) fn draw_heatmaps<DB: DrawingBackend>(
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
