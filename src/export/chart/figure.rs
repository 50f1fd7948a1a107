//! What a chart shows, as plain data: built from a scenario's results by `data`, drawn by `draw`. Tests
//! render figures built by hand, so drawing is tested without running anything.
//!
//! Every number is in the units the chart prints (percent for a probability), and every decision about
//! what the reader must be told (the caption, the axis' range, a missing point's reason) is made in `data`;
//! `draw` only lays it out.

use crate::scenario::chart::{Chart, ChartSize, SvgText};

/// The canvas a figure is drawn on: its pixels and the scale of its text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Canvas {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Pixels per typographic point: every text size, line width and gap is set in points.
    pub px_per_pt: f64,
    /// SVG text as glyph outlines rather than text elements.
    pub text_as_paths: bool,
}

impl Canvas {
    /// A size's own canvas.
    pub fn of_size(size: ChartSize) -> Canvas {
        let (width, height) = size.pixels();
        Canvas {
            width,
            height,
            px_per_pt: size.px_per_pt(),
            text_as_paths: false,
        }
    }

    /// The canvas a chart asks for.
    pub fn of(chart: &Chart) -> Canvas {
        Canvas {
            width: chart.pixels.0,
            height: chart.pixels.1,
            px_per_pt: chart.size.px_per_pt(),
            text_as_paths: chart.svg_text == SvgText::Paths,
        }
    }

    /// The size in pixels.
    pub fn pixels(&self) -> (u32, u32) {
        (self.width, self.height)
    }
}

/// One point of a line, with its confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinePoint {
    /// Horizontal position (a category's index for a text axis).
    pub x: f64,
    /// The estimate (in percent for probabilities).
    pub y: f64,
    /// Lower end of the interval.
    pub low: Option<f64>,
    /// Upper end of the interval.
    pub high: Option<f64>,
}

/// One line (or, on a text axis, one row of dots) of a line chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Its legend entry.
    pub name: String,
    /// Its points, by increasing x.
    pub points: Vec<LinePoint>,
    /// The exact values, when known (drawn dashed).
    pub exact: Vec<(f64, f64)>,
    /// Where its ineligible points would be: marked at the foot of the axis, their reasons in the notes.
    pub ineligible: Vec<f64>,
}

/// A metric against one sweep path, one line per series, confidence bands around them. On a text axis
/// (monsters, weapons, Strength scores) the points are dots with whiskers, never joined: the order of the
/// categories means nothing between them.
#[derive(Debug, Clone, PartialEq)]
pub struct LineFigure {
    /// Horizontal axis label, with units.
    pub x_label: String,
    /// Vertical axis label, with units.
    pub y_label: String,
    /// The values are percentages: ticks end in `%`.
    pub percent: bool,
    /// Labels of a text axis, by position.
    pub x_categories: Option<Vec<String>>,
    /// The vertical axis, when fixed (a probability's, a chart's `y_range`, a log axis'); otherwise it
    /// follows the data and 0.
    pub y_range: Option<(f64, f64)>,
    /// A log scale: values at or below the axis' floor are drawn at the floor.
    pub y_log: bool,
    /// The lines.
    pub series: Vec<Series>,
    /// Horizontal reference lines (a zero line, a target), drawn dashed.
    pub horizontal: Vec<f64>,
    /// Points singled out (a tune's chosen values), drawn as rings.
    pub marked: Vec<(f64, f64)>,
}

/// One cell of a heatmap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cell {
    /// A value, in the chart's units.
    Value(f64),
    /// A point that ran but has no value (a mean over no trial).
    Empty,
    /// A point the rules forbid: marked with a cross, its reason in the notes.
    Ineligible,
}

/// A metric over two sweep paths: one grid of cells per series.
#[derive(Debug, Clone, PartialEq)]
pub struct HeatmapFigure {
    /// Horizontal axis label.
    pub x_label: String,
    /// Vertical axis label.
    pub y_label: String,
    /// The colour scale's label.
    pub metric_label: String,
    /// The values are percentages.
    pub percent: bool,
    /// The values the colour scale runs between, lowest first.
    pub color_range: (f64, f64),
    /// Where that range comes from, for the colour bar (`scale: the data's range`).
    pub color_note: String,
    /// Column labels.
    pub x_labels: Vec<String>,
    /// Row labels, bottom first.
    pub y_labels: Vec<String>,
    /// (series name, cells[row][column]).
    pub panels: Vec<(String, Vec<Vec<Cell>>)>,
}

/// One distribution per series.
#[derive(Debug, Clone, PartialEq)]
pub struct HistogramFigure {
    /// Horizontal axis label (the quantity and its unit).
    pub x_label: String,
    /// (series name, [(value, share of the trials in percent)]).
    pub series: Vec<(String, Vec<(i64, f64)>)>,
}

/// What is drawn inside the frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Plot {
    /// Lines with bands, or dots with whiskers.
    Line(LineFigure),
    /// A heatmap.
    Heatmap(HeatmapFigure),
    /// Histograms.
    Histogram(HistogramFigure),
}

/// A chart: its title and caption around a plot, so that pasted alone it still says what it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// The title.
    pub title: String,
    /// Paragraphs under the title: the author's caption, then what every point holds fixed.
    pub subtitle: Vec<String>,
    /// Paragraphs under the plot: trials, seed and bands, then notes on the axis and on missing points.
    pub notes: Vec<String>,
    /// The plot.
    pub plot: Plot,
}

impl Figure {
    /// Its words as one paragraph, in the order the image shows them: the title, the lines under it and
    /// the notes under the plot. A report puts it beside the image for readers who cannot see it.
    pub fn caption(&self) -> String {
        let mut words = self.title.clone();
        for line in self.subtitle.iter().chain(&self.notes) {
            let end = words.trim_end();
            if !end.ends_with(['.', '!', '?', ':']) {
                words.push('.');
            }
            words.push(' ');
            words.push_str(line);
        }
        words
    }

    /// The names of its series, in order: what a legend lists.
    pub fn series_names(&self) -> Vec<&str> {
        match &self.plot {
            Plot::Line(f) => f.series.iter().map(|s| s.name.as_str()).collect(),
            Plot::Heatmap(_) => Vec::new(),
            Plot::Histogram(f) => f.series.iter().map(|s| s.0.as_str()).collect(),
        }
    }
}
