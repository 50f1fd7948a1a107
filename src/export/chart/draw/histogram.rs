//! Histograms: the share of the trials at each whole value, one bar per series side by side.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axes::{AxisText, Scale, across, frame, tick_count, ticks};
use super::marks::look;
use super::{DrawResult, Pen, fail};
use crate::export::chart::figure::HistogramFigure;

pub(super) fn draw_bars<DB: DrawingBackend>(
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
