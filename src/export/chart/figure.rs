//! What a chart shows, as plain data: built from a scenario's results by `data`, drawn by `draw`. Tests
//! render figures built by hand, so drawing is tested without running anything.

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

/// One line of a line chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Its legend entry.
    pub name: String,
    /// Its points, by increasing x.
    pub points: Vec<LinePoint>,
    /// The exact values, when known (drawn dashed).
    pub exact: Vec<(f64, f64)>,
}

/// A metric against one sweep path, one line per series, confidence bands around them.
#[derive(Debug, Clone, PartialEq)]
pub struct LineFigure {
    /// Title.
    pub title: String,
    /// Horizontal axis label, with units.
    pub x_label: String,
    /// Vertical axis label, with units.
    pub y_label: String,
    /// A probability, drawn on a 0-100 % axis (values already in percent).
    pub probability: bool,
    /// Labels of a text axis (monsters, weapons), by position.
    pub x_categories: Option<Vec<String>>,
    /// The lines.
    pub series: Vec<Series>,
    /// Horizontal reference lines (a zero line, a target), drawn dashed.
    pub horizontal: Vec<f64>,
    /// Points singled out (a tune's chosen values), drawn as rings.
    pub marked: Vec<(f64, f64)>,
}

/// A metric over two sweep paths: one grid of cells per series.
#[derive(Debug, Clone, PartialEq)]
pub struct HeatmapFigure {
    /// Title.
    pub title: String,
    /// Horizontal axis label.
    pub x_label: String,
    /// Vertical axis label.
    pub y_label: String,
    /// The colour scale's label.
    pub metric_label: String,
    /// A probability (values in 0..=1, shown as percent).
    pub probability: bool,
    /// Column labels.
    pub x_labels: Vec<String>,
    /// Row labels, bottom first.
    pub y_labels: Vec<String>,
    /// (series name, cells[row][column]); `None` for a point without a value.
    pub panels: Vec<(String, Vec<Vec<Option<f64>>>)>,
}

/// One distribution per series.
#[derive(Debug, Clone, PartialEq)]
pub struct HistogramFigure {
    /// Title.
    pub title: String,
    /// Horizontal axis label (the quantity and its unit).
    pub x_label: String,
    /// (series name, [(value, probability)]).
    pub series: Vec<(String, Vec<(i64, f64)>)>,
}

/// Any figure.
#[derive(Debug, Clone, PartialEq)]
pub enum Figure {
    /// Lines with bands.
    Line(LineFigure),
    /// A heatmap.
    Heatmap(HeatmapFigure),
    /// Histograms.
    Histogram(HistogramFigure),
}

impl Figure {
    /// The figure's title.
    pub fn title(&self) -> &str {
        match self {
            Figure::Line(f) => &f.title,
            Figure::Heatmap(f) => &f.title,
            Figure::Histogram(f) => &f.title,
        }
    }
}

/// A metric's axis label with its unit, from the metrics' table of names.
pub fn metric_label(metric: &str) -> String {
    crate::stats::metrics::label(metric)
}

/// A sweep path's axis label with its unit, from the tables of names beside the keys.
pub fn path_label(path: &str) -> String {
    crate::scenario::sweep::path_label(path)
}
