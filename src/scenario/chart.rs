//! `[[chart]]` requests: parsed with the scenario and checked against its metrics and sweep paths before
//! anything runs, so a typo in a chart never costs a long run.

use serde::Deserialize;

use crate::rules::Unit;
use crate::rules::action::Action;
use crate::scenario::Axis;
use crate::scenario::sweep::{SweepValue, path_name, path_value};
use crate::stats::metrics;

/// The kinds of chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChartKind {
    /// A metric against a sweep path or `level_gap`, with its confidence band.
    #[default]
    Line,
    /// A metric over two sweep paths.
    Heatmap,
    /// One distribution per series.
    Histogram,
    /// A metric's paired difference against the baseline, with its band and a zero line: one line per
    /// other variant.
    Difference,
    /// A distribution measured in rounds as the share still going after N rounds, P(X > N), with its
    /// band: one curve per series.
    Survival,
}

/// How large a chart is drawn, and how large its text is: each size is a canvas in pixels and a text size
/// in points at the width the canvas is meant to be shown at (docs/scenarios.md "Charts").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChartSize {
    /// 1950×1300 px: 6.5 by 4.33 inches at 300 dpi, a text column's width; the text is 9 to 13 points printed
    /// at that width (the default: charts are pasted into documents).
    #[default]
    Page,
    /// 1920×1080 px, 16:9, with text large enough to read across a room.
    Slide,
    /// 1200×800 px, for a browser or a chat window.
    Screen,
}

impl ChartSize {
    /// The canvas, in pixels.
    pub fn pixels(self) -> (u32, u32) {
        match self {
            ChartSize::Page => (1950, 1300),
            ChartSize::Slide => (1920, 1080),
            ChartSize::Screen => (1200, 800),
        }
    }

    /// Pixels per typographic point of text: 300 dpi on a page; a slide's text as large as a page's on a
    /// sheet 6.7 inches wide; a screen's at a comfortable 115 dpi.
    pub fn px_per_pt(self) -> f64 {
        match self {
            ChartSize::Page => 300.0 / 72.0,
            ChartSize::Slide => 4.0,
            ChartSize::Screen => 1.6,
        }
    }

    /// Its name in a scenario.
    pub fn name(self) -> &'static str {
        match self {
            ChartSize::Page => "page",
            ChartSize::Slide => "slide",
            ChartSize::Screen => "screen",
        }
    }
}

/// The smallest canvas a chart's text fits, in points of its size's text: narrower, the labels would
/// cover the plot.
pub const MIN_CANVAS_PT: (f64, f64) = (260.0, 180.0);

/// The largest `width` or `height`, in pixels: a PNG of 6000×6000 is 108 MB before compression.
pub const MAX_CANVAS_PX: u32 = 6000;

/// The vertical scale of a line chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum YScale {
    /// Even steps (the default).
    #[default]
    Linear,
    /// Powers of ten, for rare events: a chance of 0.1% and one of 5% both show their shape.
    Log,
}

/// How an SVG chart carries its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SvgText {
    /// Text elements naming DejaVu Sans, then Verdana, Arial and any sans-serif: small, searchable,
    /// editable (the default).
    #[default]
    Text,
    /// Every glyph as a path outline of the embedded DejaVu Sans: the SVG looks the same everywhere, with
    /// no font installed, but its text can no longer be searched or edited.
    Paths,
}

/// A `[[chart]]` table as written.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChartSpec {
    /// Output name without extension (default: the metric's name).
    pub file: Option<String>,
    /// line (default): a metric with its confidence band; heatmap: a metric over two sweep paths;
    /// histogram: one distribution per series; difference: a metric's difference against the baseline;
    /// survival: a distribution in rounds as the share still going after N rounds, one curve per series.
    pub kind: Option<ChartKind>,
    /// The horizontal axis: a sweep path or `level_gap` (default: the first sweep axis; none for a
    /// histogram or a survival chart).
    pub x: Option<String>,
    /// The metric drawn (line; default the headline), the distribution (histogram; survival, one measured
    /// in rounds), or the vertical sweep path (heatmap).
    pub y: Option<String>,
    /// The heatmap's metric (default: the headline metric).
    pub metric: Option<String>,
    /// What separates the lines: `variant` (default) or a sweep path.
    pub series: Option<String>,
    /// A title above the chart (default: the scenario's title; with several charts in the file, the
    /// scenario's title and what this chart shows, so no two share one).
    pub title: Option<String>,
    /// Your own words under the title, before the caption the chart writes itself (what was simulated,
    /// trials, bands, seed), which stays.
    pub caption: Option<String>,
    /// Sweep values held fixed for this chart: `at = { "attacker.level" = 9 }`. The caption says them.
    #[serde(default)]
    #[schemars(schema_with = "crate::scenario::schema::at_table")]
    pub at: Option<toml::Table>,
    /// The vertical axis of a line, difference or survival chart, `[low, high]`, in the axis' units: percent
    /// for a probability or a survival (`[0, 5]`), percentage points for a difference (default: 0-100% for
    /// a probability or a survival, cut to the data when every value is below 10%; the data's range
    /// otherwise).
    #[serde(default)]
    #[schemars(schema_with = "crate::scenario::schema::number_pair")]
    pub y_range: Option<[f64; 2]>,
    /// `linear` (default) or `log`, for rare events on a line chart: zeros and bands reaching 0 are drawn at
    /// the axis' floor.
    pub y_scale: Option<YScale>,
    /// A heatmap's colour scale, `[low, high]`, in the metric's units (percent for a probability); default:
    /// the data's range, which the colour bar says.
    #[serde(default)]
    #[schemars(schema_with = "crate::scenario::schema::number_pair")]
    pub color_range: Option<[f64; 2]>,
    /// `page` (default: 1950×1300, 6.5 inches at 300 dpi), `slide` (1920×1080) or `screen` (1200×800): the
    /// canvas and the size of its text.
    pub size: Option<ChartSize>,
    /// The canvas' width in pixels, instead of the size's (the text keeps the size's scale; the height
    /// follows the size's proportions unless given).
    #[schemars(range(min = 1, max = 6000))]
    pub width: Option<u32>,
    /// The canvas' height in pixels, instead of the size's.
    #[schemars(range(min = 1, max = 6000))]
    pub height: Option<u32>,
    /// `text` (default): SVG text naming DejaVu Sans with fallbacks; `paths`: every glyph drawn as an
    /// outline, the same everywhere but no longer text.
    pub svg_text: Option<SvgText>,
}

/// A checked chart request.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// Output name without extension.
    pub file: String,
    /// The kind.
    pub kind: ChartKind,
    /// Horizontal axis: a sweep path or `level_gap` (empty for histograms and survival charts).
    pub x: String,
    /// Vertical sweep path of a heatmap.
    pub y_path: Option<String>,
    /// The metric (or distribution) drawn.
    pub metric: String,
    /// `variant` or a sweep path.
    pub series: String,
    /// Title.
    pub title: String,
    /// The author's words under the title.
    pub caption: Option<String>,
    /// Sweep values held fixed: only the points with these values are drawn.
    pub at: Vec<(String, SweepValue)>,
    /// The vertical axis as asked, in the axis' units.
    pub y_range: Option<(f64, f64)>,
    /// Linear or log.
    pub y_scale: YScale,
    /// A heatmap's colour scale as asked, in the metric's units.
    pub color_range: Option<(f64, f64)>,
    /// Its size: the scale of its text.
    pub size: ChartSize,
    /// The canvas in pixels.
    pub pixels: (u32, u32),
    /// How the SVG carries its text.
    pub svg_text: SvgText,
}

/// The most lines (or bars per value, or heatmap panels) a chart draws before it stops being readable.
pub const MAX_SERIES: [(ChartKind, usize); 5] = [
    (ChartKind::Line, 8),
    (ChartKind::Difference, 8),
    (ChartKind::Survival, 8),
    (ChartKind::Histogram, 6),
    (ChartKind::Heatmap, 6),
];

impl Chart {
    /// Sweep axes (by index) that split this chart's series further: named neither as x, y nor series,
    /// nor fixed by `at`. A level axis moves along a `level_gap` x axis rather than splitting it.
    pub fn free_axes(&self, axes: &[Axis]) -> Vec<usize> {
        let gap_axis =
            |path: &str| self.x == "level_gap" && matches!(path, "attacker.level" | "victim.level");
        axes.iter()
            .enumerate()
            .filter(|(_, a)| {
                !gap_axis(&a.path)
                    && a.path != self.x
                    && Some(&a.path) != self.y_path.as_ref()
                    && a.path != self.series
                    && !self.at.iter().any(|(p, _)| *p == a.path)
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// How many series (lines, bar groups, heatmap panels) this chart draws.
    pub fn series_count(&self, axes: &[Axis], variants: usize) -> usize {
        // A difference chart draws every variant but the baseline.
        let variants = match self.kind {
            ChartKind::Difference => variants.saturating_sub(1),
            ChartKind::Line | ChartKind::Heatmap | ChartKind::Histogram | ChartKind::Survival => {
                variants
            }
        };
        let first = match axes.iter().find(|a| a.path == self.series) {
            Some(a) => a.values.len() * if variants > 1 { variants } else { 1 },
            None => variants,
        };
        first
            * self
                .free_axes(axes)
                .iter()
                .map(|&i| axes[i].values.len())
                .product::<usize>()
    }
}

/// A chart request that cannot be drawn: which field, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChartError {
    /// The field at fault.
    pub field: &'static str,
    /// What is wrong.
    pub message: String,
    /// The word that did not match.
    pub word: String,
    /// What it could have been.
    pub candidates: Vec<String>,
    /// Advice when no single word is at fault.
    pub help: Option<String>,
}

fn fail(field: &'static str, message: String, word: &str, candidates: Vec<String>) -> ChartError {
    ChartError {
        field,
        message,
        word: word.to_string(),
        candidates,
        help: None,
    }
}

impl ChartError {
    fn with_help(mut self, help: &str) -> ChartError {
        self.help = Some(help.to_string());
        self
    }
}

/// An `at` table (of a chart or a tune) checked against the sweep: each path swept, each value one the sweep
/// takes.
pub fn at_values(
    table: Option<&toml::Table>,
    axes: &[Axis],
) -> Result<Vec<(String, SweepValue)>, ChartError> {
    let paths: Vec<String> = axes.iter().map(|a| a.path.clone()).collect();
    let mut at = Vec::new();
    for (path, value) in table.into_iter().flatten() {
        let Some(axis) = axes.iter().find(|a| a.path == *path) else {
            return Err(fail(
                "at",
                format!("`at` names `{path}`, which is not a sweep path"),
                path,
                paths,
            ));
        };
        let wanted = SweepValue::from_toml(value);
        let Some(v) = axis.values.iter().find(|v| Some(*v) == wanted.as_ref()) else {
            let listed: Vec<String> = axis.values.iter().map(|v| v.to_string()).collect();
            return Err(fail(
                "at",
                format!(
                    "`at` sets {path} = {value}, which the sweep never takes (it takes: {})",
                    listed.join(", ")
                ),
                "",
                Vec::new(),
            ));
        };
        at.push((path.clone(), v.clone()));
    }
    Ok(at)
}

impl ChartSpec {
    /// Checks the request against the metrics of the variants' actions (the file's first) and the sweep
    /// paths.
    pub fn check(
        &self,
        actions: &[Action],
        axes: &[Axis],
        variants: usize,
        title: &str,
    ) -> Result<Chart, ChartError> {
        let paths: Vec<String> = axes.iter().map(|a| a.path.clone()).collect();
        let paths = paths.as_slice();
        let kind = self.kind.unwrap_or_default();
        let at = at_values(self.at.as_ref(), axes)?;
        let mut x_choices: Vec<String> = paths.to_vec();
        x_choices.push("level_gap".to_string());
        let mut series_choices = vec!["variant".to_string()];
        series_choices.extend(paths.iter().cloned());
        let mut summary: Vec<String> = Vec::new();
        let mut distributions: Vec<String> = Vec::new();
        for &a in actions {
            for m in metrics::summary_metrics(a) {
                if !summary.iter().any(|s| s == m) {
                    summary.push(m.to_string());
                }
            }
            for m in metrics::distribution_metrics(a) {
                if !distributions.iter().any(|s| s == m) {
                    distributions.push(m.to_string());
                }
            }
        }
        let action = actions
            .iter()
            .map(|a| a.name())
            .collect::<Vec<_>>()
            .join(" or ");
        let pick = |field: &'static str,
                    value: &Option<String>,
                    default: Option<&String>,
                    choices: &[String],
                    what: &str| {
            let chosen = value.clone().or_else(|| default.cloned()).ok_or_else(|| {
                fail(
                    field,
                    format!(
                        "this chart needs `{field}`: {what} ({})",
                        choices.join(", ")
                    ),
                    "",
                    choices.to_vec(),
                )
            })?;
            if choices.contains(&chosen) {
                Ok(chosen)
            } else {
                Err(fail(
                    field,
                    format!(
                        "`{chosen}` is not {what} of action {action} (expected one of: {})",
                        choices.join(", ")
                    ),
                    &chosen,
                    choices.to_vec(),
                ))
            }
        };
        let series = pick(
            "series",
            &self.series,
            series_choices.first(),
            &series_choices,
            "a series (variant or a sweep path)",
        )?;
        let (x, y_path, metric) = match kind {
            ChartKind::Difference if variants < 2 => {
                return Err(fail(
                    "kind",
                    "a difference chart needs two or more variants: one baseline and one to compare"
                        .to_string(),
                    "",
                    Vec::new(),
                ));
            }
            ChartKind::Line | ChartKind::Difference => {
                if self.metric.is_some() {
                    return Err(fail(
                        "metric",
                        "a line chart names its metric in `y`".to_string(),
                        "",
                        Vec::new(),
                    ));
                }
                let x = pick(
                    "x",
                    &self.x,
                    paths.first(),
                    &x_choices,
                    "a sweep path or level_gap",
                )?;
                let y = pick("y", &self.y, summary.first(), &summary, "a summary metric")?;
                (x, None, y)
            }
            ChartKind::Heatmap => {
                if paths.len() < 2 {
                    return Err(fail(
                        "kind",
                        format!(
                            "a heatmap needs two sweep axes; this scenario sweeps {}",
                            paths.len()
                        ),
                        "",
                        Vec::new(),
                    ));
                }
                let x = pick("x", &self.x, paths.first(), paths, "a sweep path")?;
                let second = paths.iter().find(|p| **p != x);
                let y = pick("y", &self.y, second, paths, "a sweep path")?;
                if x == y {
                    return Err(fail(
                        "y",
                        format!("a heatmap needs two different sweep paths, not `{x}` twice"),
                        "",
                        Vec::new(),
                    ));
                }
                let metric = pick(
                    "metric",
                    &self.metric,
                    summary.first(),
                    &summary,
                    "a summary metric",
                )?;
                (x, Some(y), metric)
            }
            ChartKind::Histogram => {
                if self.x.is_some() {
                    return Err(fail(
                        "x",
                        "a histogram's horizontal axis is the distribution's value; drop `x`"
                            .to_string(),
                        "",
                        Vec::new(),
                    ));
                }
                let chosen = self.y.clone().or_else(|| self.metric.clone());
                let field = if self.y.is_some() { "y" } else { "metric" };
                let metric = pick(
                    field,
                    &chosen,
                    distributions.first(),
                    &distributions,
                    "a distribution",
                )?;
                (String::new(), None, metric)
            }
            ChartKind::Survival => {
                let metric = self.survival_metric(actions, &distributions, &summary, &action)?;
                (String::new(), None, metric)
            }
        };
        if at
            .iter()
            .any(|(p, _)| *p == x || Some(p) == y_path.as_ref() || *p == series)
        {
            return Err(fail(
                "at",
                "`at` cannot fix a path the chart draws (x, y or series)".to_string(),
                "",
                Vec::new(),
            ));
        }
        let look = self.look(kind, &metric)?;
        let chart = Chart {
            file: self.file.clone().unwrap_or_else(|| metric.clone()),
            kind,
            x,
            y_path,
            metric,
            series,
            title: self.title.clone().unwrap_or_else(|| title.to_string()),
            caption: self.caption.clone(),
            at,
            y_range: look.y_range,
            y_scale: look.y_scale,
            color_range: look.color_range,
            size: look.size,
            pixels: look.pixels,
            svg_text: self.svg_text.unwrap_or_default(),
        };
        let limit = MAX_SERIES
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or(12, |(_, n)| *n);
        let count = chart.series_count(axes, variants);
        if count > limit {
            return Err(fail(
                "series",
                format!("this chart would draw {count} series (at most {limit} stay readable)"),
                "",
                Vec::new(),
            )
            .with_help(
                "fix the other sweep paths with `at = { \"path\" = value }`, or choose `series`",
            ));
        }
        Ok(chart)
    }
}

/// Whether a metric is measured in rounds (its definition's unit, docs/scenarios.md "Metrics"): what a
/// survival chart can draw, whichever distribution it is.
pub fn in_rounds(metric: &str) -> bool {
    metrics::DEFINITIONS
        .iter()
        .any(|d| d.metric == metric && d.unit == Unit::Rounds)
}

/// The actions that have a distribution in rounds, with those distributions, as advice reads them:
/// `ko_rounds (mug, sap); rounds (brawl, subdue)`.
fn rounds_distributions_elsewhere() -> String {
    let mut found: Vec<(&str, Vec<&str>)> = Vec::new();
    for a in Action::ALL {
        for m in metrics::distribution_metrics(a).filter(|m| in_rounds(m)) {
            match found.iter_mut().find(|(f, _)| *f == m) {
                Some((_, actions)) => actions.push(a.name()),
                None => found.push((m, vec![a.name()])),
            }
        }
    }
    found
        .iter()
        .map(|(m, actions)| format!("{m} ({})", actions.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

impl ChartSpec {
    /// The distribution a survival chart draws: `y` (or `metric`), by default the first in rounds of the
    /// variants' actions. A distribution in another unit, or an action with none in rounds, is refused
    /// with what would do.
    fn survival_metric(
        &self,
        actions: &[Action],
        distributions: &[String],
        summary: &[String],
        action: &str,
    ) -> Result<String, ChartError> {
        if self.x.is_some() {
            return Err(fail(
                "x",
                "a survival chart's horizontal axis is the rounds N; drop `x`".to_string(),
                "",
                Vec::new(),
            ));
        }
        let rounds: Vec<String> = distributions
            .iter()
            .filter(|m| in_rounds(m))
            .cloned()
            .collect();
        let chosen = self.y.clone().or_else(|| self.metric.clone());
        let field = if self.y.is_some() { "y" } else { "metric" };
        if rounds.is_empty() {
            let has = if distributions.is_empty() {
                "no distribution at all".to_string()
            } else {
                format!("only {}", distributions.join(", "))
            };
            let field = if chosen.is_some() { field } else { "kind" };
            let verb = if actions.len() > 1 { "have" } else { "has" };
            return Err(fail(
                field,
                format!(
                    "a survival chart draws a distribution measured in rounds; action {action} {verb} none ({has})"
                ),
                "",
                Vec::new(),
            )
            .with_help(&format!(
                "the distributions in rounds are {}; for another distribution use kind = \"histogram\"",
                rounds_distributions_elsewhere()
            )));
        }
        let metric = chosen.unwrap_or_else(|| rounds[0].clone());
        if rounds.contains(&metric) {
            return Ok(metric);
        }
        let error = fail(
            field,
            format!(
                "`{metric}` is not a distribution measured in rounds of action {action} (expected one of: {})",
                rounds.join(", ")
            ),
            &metric,
            rounds.clone(),
        );
        // A real metric of another kind is no typo: say what it is and what would draw it.
        let other = if distributions.contains(&metric) {
            Some("a distribution in another unit: kind = \"histogram\" draws it")
        } else if summary.contains(&metric) {
            Some("a summary metric: kind = \"line\" draws it")
        } else {
            None
        };
        Err(match other {
            Some(what) => error.with_help(&format!(
                "`{metric}` is {what}; a survival chart takes {}",
                rounds.join(", ")
            )),
            None => error,
        })
    }
}

/// How a chart is drawn, checked: its axes and its canvas.
struct Look {
    y_range: Option<(f64, f64)>,
    y_scale: YScale,
    color_range: Option<(f64, f64)>,
    size: ChartSize,
    pixels: (u32, u32),
}

impl ChartKind {
    /// Its name in a scenario.
    pub fn name(self) -> &'static str {
        match self {
            ChartKind::Line => "line",
            ChartKind::Heatmap => "heatmap",
            ChartKind::Histogram => "histogram",
            ChartKind::Difference => "difference",
            ChartKind::Survival => "survival",
        }
    }
}

/// A `[low, high]` pair checked: finite, in order, within `0..=100` for a percentage, above 0 on a log
/// scale.
fn pair(
    field: &'static str,
    [lo, hi]: [f64; 2],
    percent: bool,
    log: bool,
) -> Result<(f64, f64), ChartError> {
    let written = format!("`{field} = [{lo}, {hi}]`");
    let problem = if !(lo.is_finite() && hi.is_finite()) {
        Some(format!(
            "{written}: both ends must be numbers, such as [0, 10]"
        ))
    } else if lo >= hi {
        Some(format!(
            "{written}: the low end must be below the high end, such as [{}, {}]",
            hi.min(lo),
            hi.max(lo).max(hi.min(lo) + 1.0)
        ))
    } else if percent && (lo < 0.0 || hi > 100.0) {
        Some(format!(
            "{written}: a probability is drawn in percent, so both ends are within 0 to 100 (such as [0, 5] for 0-5%)"
        ))
    } else if log && lo <= 0.0 {
        Some(format!(
            "{written}: a log scale starts above 0, such as [{}, {hi}]",
            (hi / 1000.0).min(0.01)
        ))
    } else {
        None
    };
    match problem {
        Some(message) => Err(fail(field, message, "", Vec::new())),
        None => Ok((lo, hi)),
    }
}

impl ChartSpec {
    /// The axes and the canvas, checked against the chart's kind and metric.
    fn look(&self, kind: ChartKind, metric: &str) -> Result<Look, ChartError> {
        let refuse =
            |field: &'static str, message: String| Err(fail(field, message, "", Vec::new()));
        let percent = metrics::is_probability(metric);
        let y_scale = self.y_scale.unwrap_or_default();
        if y_scale == YScale::Log && kind != ChartKind::Line {
            return refuse(
                "y_scale",
                format!(
                    "`y_scale = \"log\"` is for a line chart; a {} chart has none (drop it, or set kind = \"line\")",
                    kind.name()
                ),
            );
        }
        let y_range = match (self.y_range, kind) {
            (None, _) => None,
            (Some(range), ChartKind::Line) => {
                Some(pair("y_range", range, percent, y_scale == YScale::Log)?)
            }
            // A difference is free to go below 0, in percentage points for a probability.
            (Some(range), ChartKind::Difference) => Some(pair("y_range", range, false, false)?),
            // A survival is a share, in percent, whatever the unit of its distribution.
            (Some(range), ChartKind::Survival) => Some(pair("y_range", range, true, false)?),
            (Some(_), ChartKind::Heatmap) => {
                return refuse(
                    "y_range",
                    "a heatmap's vertical axis is a sweep path: its colours are set by `color_range`"
                        .to_string(),
                );
            }
            (Some(_), ChartKind::Histogram) => {
                return refuse(
                    "y_range",
                    "`y_range` is for line, difference and survival charts; a histogram's bars are scaled to the tallest"
                        .to_string(),
                );
            }
        };
        let color_range = match (self.color_range, kind) {
            (None, _) => None,
            (Some(range), ChartKind::Heatmap) => Some(pair("color_range", range, percent, false)?),
            (Some(_), other) => {
                return refuse(
                    "color_range",
                    format!(
                        "`color_range` sets a heatmap's colours; a {} chart has none (its axis is set by `y_range`)",
                        other.name()
                    ),
                );
            }
        };
        let size = self.size.unwrap_or_default();
        let (w, h) = size.pixels();
        let pixels = match (self.width, self.height) {
            (None, None) => (w, h),
            (Some(width), None) => (
                width,
                (u64::from(width) * u64::from(h) / u64::from(w)) as u32,
            ),
            (None, Some(height)) => (
                (u64::from(height) * u64::from(w) / u64::from(h)) as u32,
                height,
            ),
            (Some(width), Some(height)) => (width, height),
        };
        let field = if self.width.is_some() || self.height.is_none() {
            "width"
        } else {
            "height"
        };
        if pixels.0 > MAX_CANVAS_PX || pixels.1 > MAX_CANVAS_PX {
            return refuse(
                field,
                format!(
                    "the canvas would be {}×{} px: at most {MAX_CANVAS_PX} px a side",
                    pixels.0, pixels.1
                ),
            );
        }
        let least = (
            (MIN_CANVAS_PT.0 * size.px_per_pt()).ceil() as u32,
            (MIN_CANVAS_PT.1 * size.px_per_pt()).ceil() as u32,
        );
        if pixels.0 < least.0 || pixels.1 < least.1 {
            return refuse(
                field,
                format!(
                    "the canvas would be {}×{} px, too small for the text of size = \"{}\": at least {}×{} px (a smaller size, such as \"screen\", has smaller text)",
                    pixels.0,
                    pixels.1,
                    size.name(),
                    least.0,
                    least.1
                ),
            );
        }
        Ok(Look {
            y_range,
            y_scale,
            color_range,
            size,
            pixels,
        })
    }
}

/// Titles for the charts the file leaves untitled (`written` tells which it titles): the scenario's title
/// alone for a file's only chart; with several, the scenario's title and what this chart shows (its metric,
/// its kind, its `at` values, and its x axis where that is what tells two apart), so no two charts of a
/// file share a title.
pub fn default_titles(charts: &mut [Chart], written: &[bool], title: &str, baseline: &str) {
    if charts.len() < 2 {
        return;
    }
    let what = |c: &Chart| -> String {
        let name = metrics::name(&c.metric);
        let mut text = match c.kind {
            ChartKind::Line => name,
            ChartKind::Difference => format!("{name}, difference from {baseline}"),
            ChartKind::Heatmap => format!(
                "{name} by {} and {}",
                path_name(&c.x),
                path_name(c.y_path.as_deref().unwrap_or_default())
            ),
            ChartKind::Histogram => format!("distribution of {name}"),
            ChartKind::Survival => format!("{name} above N rounds"),
        };
        for (path, value) in &c.at {
            text.push_str(", ");
            text.push_str(&path_value(path, value));
        }
        text
    };
    let mut titles: Vec<String> = charts.iter().map(what).collect();
    let shared =
        |titles: &[String], i: usize| titles.iter().filter(|t| **t == titles[i]).count() > 1;
    let by_x: Vec<bool> = (0..charts.len())
        .map(|i| shared(&titles, i) && !charts[i].x.is_empty())
        .collect();
    for (i, t) in titles.iter_mut().enumerate() {
        if by_x[i] {
            t.push_str(&format!(" by {}", path_name(&charts[i].x)));
        }
    }
    let last: Vec<bool> = (0..charts.len()).map(|i| shared(&titles, i)).collect();
    for (i, chart) in charts.iter_mut().enumerate() {
        if written.get(i).copied().unwrap_or(false) {
            continue;
        }
        let mut t = format!("{title} — {}", titles[i]);
        if last[i] {
            // Nothing drawn tells them apart (only their series): the file name does.
            t.push_str(&format!(" ({})", chart.file));
        }
        chart.title = t;
    }
}

/// The chart drawn when a scenario asks for none: the headline metric over the first sweep axis.
pub fn default_chart(
    actions: &[Action],
    axes: &[Axis],
    variants: usize,
    title: &str,
) -> Option<Chart> {
    ChartSpec::default()
        .check(actions, axes, variants, title)
        .ok()
        .filter(|c| !c.x.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(p: &[&str]) -> Vec<Axis> {
        p.iter()
            .map(|s| Axis {
                path: s.to_string(),
                values: vec![SweepValue::Int(1), SweepValue::Int(2)],
            })
            .collect()
    }

    #[test]
    fn a_line_chart_defaults_to_the_headline_over_the_first_axis() {
        let c = ChartSpec::default()
            .check(&[Action::Mug], &paths(&["attacker.level"]), 1, "T")
            .unwrap();
        assert_eq!(
            (c.kind, c.x.as_str(), c.metric.as_str(), c.series.as_str()),
            (ChartKind::Line, "attacker.level", "p_knockout", "variant")
        );
        assert_eq!(c.file, "p_knockout");
    }

    #[test]
    fn unknown_metrics_and_paths_are_errors() {
        let spec = ChartSpec {
            y: Some("p_knokout".into()),
            ..ChartSpec::default()
        };
        let e = spec
            .check(&[Action::Mug], &paths(&["attacker.level"]), 1, "T")
            .unwrap_err();
        assert_eq!((e.field, e.word.as_str()), ("y", "p_knokout"));
        let spec = ChartSpec {
            x: Some("attacker.hp".into()),
            ..ChartSpec::default()
        };
        assert_eq!(
            spec.check(&[Action::Mug], &paths(&["attacker.level"]), 1, "T")
                .unwrap_err()
                .field,
            "x"
        );
    }

    #[test]
    fn a_heatmap_needs_two_sweep_axes() {
        let spec = ChartSpec {
            kind: Some(ChartKind::Heatmap),
            ..ChartSpec::default()
        };
        assert_eq!(
            spec.check(&[Action::Mug], &paths(&["attacker.level"]), 1, "T")
                .unwrap_err()
                .field,
            "kind"
        );
        let c = spec
            .check(
                &[Action::Mug],
                &paths(&["attacker.level", "victim.monster"]),
                1,
                "T",
            )
            .unwrap();
        assert_eq!(c.y_path.as_deref(), Some("victim.monster"));
    }

    #[test]
    fn a_histogram_draws_a_distribution() {
        let spec = ChartSpec {
            kind: Some(ChartKind::Histogram),
            ..ChartSpec::default()
        };
        let c = spec.check(&[Action::Sap], &[], 1, "T").unwrap();
        assert_eq!(c.metric, "damage");
        let bad = ChartSpec {
            kind: Some(ChartKind::Histogram),
            y: Some("p_hit".into()),
            ..ChartSpec::default()
        };
        assert!(bad.check(&[Action::Sap], &[], 1, "T").is_err());
        assert!(spec.check(&[Action::GrabPerson], &[], 1, "T").is_err());
    }

    #[test]
    fn a_survival_chart_takes_a_distribution_measured_in_rounds() {
        assert!(in_rounds("ko_rounds") && in_rounds("rounds"));
        assert!(!in_rounds("damage") && !in_rounds("contest_rolls") && !in_rounds("p_knockout"));
        let spec = ChartSpec {
            kind: Some(ChartKind::Survival),
            ..ChartSpec::default()
        };
        // By default the action's first distribution in rounds: after the sap's damage, its knockouts.
        let sap = spec.check(&[Action::Sap], &[], 1, "T").unwrap();
        assert_eq!((sap.metric.as_str(), sap.x.as_str()), ("ko_rounds", ""));
        assert_eq!(sap.file, "ko_rounds");
        let fight = spec.check(&[Action::Brawl], &[], 1, "T").unwrap();
        assert_eq!(fight.metric, "rounds");
        // Actions of several variants: the distribution of one is enough.
        let mixed = spec
            .check(&[Action::Strike, Action::Mug], &[], 2, "T")
            .unwrap();
        assert_eq!(mixed.metric, "ko_rounds");
        // Beside another chart of the file, its title says what it draws.
        let mut two = [sap, fight];
        default_titles(&mut two, &[false, false], "T", "base");
        assert_eq!(
            [two[0].title.as_str(), two[1].title.as_str()],
            [
                "T — knockout length above N rounds",
                "T — fight length above N rounds"
            ]
        );
        let axes = paths(&["attacker.level"]);
        assert_eq!(
            spec.check(&[Action::Mug], &axes, 2, "T")
                .unwrap()
                .series_count(&axes, 2),
            4
        );
    }

    #[test]
    fn a_survival_chart_over_another_unit_or_without_rounds_is_refused_with_advice() {
        let survival = |y: Option<&str>| ChartSpec {
            kind: Some(ChartKind::Survival),
            y: y.map(String::from),
            ..ChartSpec::default()
        };
        // A distribution in hit points: named as such, with the kind that draws it.
        let e = survival(Some("damage"))
            .check(&[Action::Sap], &[], 1, "T")
            .unwrap_err();
        assert_eq!((e.field, e.word.as_str()), ("y", "damage"));
        assert!(
            e.message.contains("not a distribution measured in rounds"),
            "{}",
            e.message
        );
        assert!(
            e.message.contains("expected one of: ko_rounds"),
            "{}",
            e.message
        );
        let help = e.help.unwrap();
        assert!(help.contains("kind = \"histogram\""), "{help}");
        // A summary metric: the line chart draws it.
        let e = survival(Some("p_knockout"))
            .check(&[Action::Mug], &[], 1, "T")
            .unwrap_err();
        assert!(e.help.unwrap().contains("kind = \"line\""));
        // A typo has no advice here: the file's error suggests the nearest name.
        let e = survival(Some("ko_round"))
            .check(&[Action::Mug], &[], 1, "T")
            .unwrap_err();
        assert_eq!(
            (e.word.as_str(), e.candidates.as_slice()),
            ("ko_round", &["ko_rounds".to_string()][..])
        );
        assert!(e.help.is_none());
        // An action with no distribution in rounds: the kind is at fault, and the advice lists who has one.
        for action in [Action::Strike, Action::GrabPerson] {
            let e = survival(None).check(&[action], &[], 1, "T").unwrap_err();
            assert_eq!(e.field, "kind");
            assert!(e.message.contains("has none"), "{}", e.message);
            let help = e.help.unwrap();
            assert!(
                help.contains("ko_rounds (mug, sap)") && help.contains("rounds (brawl, subdue)"),
                "{help}"
            );
        }
        let e = survival(Some("damage"))
            .check(&[Action::Strike], &[], 1, "T")
            .unwrap_err();
        assert_eq!(e.field, "y");
        assert!(e.message.contains("(only damage)"), "{}", e.message);
        // Its horizontal axis is N: no `x`, no log scale; its vertical axis is a share in percent.
        let with_x = ChartSpec {
            x: Some("attacker.level".into()),
            ..survival(None)
        };
        assert_eq!(
            with_x
                .check(&[Action::Mug], &paths(&["attacker.level"]), 1, "T")
                .unwrap_err()
                .field,
            "x"
        );
        let log = ChartSpec {
            y_scale: Some(YScale::Log),
            ..survival(None)
        };
        assert_eq!(
            log.check(&[Action::Mug], &[], 1, "T").unwrap_err().field,
            "y_scale"
        );
        let cut = |range: [f64; 2]| {
            ChartSpec {
                y_range: Some(range),
                ..survival(None)
            }
            .check(&[Action::Mug], &[], 1, "T")
        };
        assert_eq!(cut([0.0, 50.0]).unwrap().y_range, Some((0.0, 50.0)));
        assert!(
            cut([0.0, 200.0])
                .unwrap_err()
                .message
                .contains("within 0 to 100")
        );
    }

    #[test]
    fn too_many_series_ask_for_at() {
        let axes = vec![
            Axis {
                path: "attacker.level".into(),
                values: (1..=20).map(SweepValue::Int).collect(),
            },
            Axis {
                path: "victim.ac".into(),
                values: (0..=10).map(SweepValue::Int).collect(),
            },
        ];
        let spec = ChartSpec::default();
        let e = spec.check(&[Action::Mug], &axes, 2, "T").unwrap_err();
        assert_eq!(e.field, "series");
        assert!(e.help.is_some());
        let mut at = toml::Table::new();
        at.insert("victim.ac".into(), toml::Value::Integer(5));
        let fixed = ChartSpec {
            at: Some(at),
            ..ChartSpec::default()
        };
        let c = fixed.check(&[Action::Mug], &axes, 2, "T").unwrap();
        assert_eq!(c.series_count(&axes, 2), 2);
        let mut bad = toml::Table::new();
        bad.insert("victim.ac".into(), toml::Value::Integer(50));
        assert_eq!(
            ChartSpec {
                at: Some(bad),
                ..ChartSpec::default()
            }
            .check(&[Action::Mug], &axes, 2, "T")
            .unwrap_err()
            .field,
            "at"
        );
    }

    #[test]
    fn axes_and_canvases_are_checked_against_the_kind_and_the_metric() {
        let axes = paths(&["attacker.level", "victim.monster"]);
        let check = |spec: ChartSpec| spec.check(&[Action::Mug], &axes, 1, "T");
        let c = check(ChartSpec {
            y_range: Some([0.0, 5.0]),
            y_scale: Some(YScale::Log),
            ..ChartSpec::default()
        });
        // A log axis starts above 0.
        assert_eq!(c.unwrap_err().field, "y_range");
        let c = check(ChartSpec {
            y_range: Some([0.1, 5.0]),
            y_scale: Some(YScale::Log),
            ..ChartSpec::default()
        })
        .unwrap();
        assert_eq!((c.y_range, c.y_scale), (Some((0.1, 5.0)), YScale::Log));
        for (spec, field, words) in [
            (
                ChartSpec {
                    y_range: Some([5.0, 1.0]),
                    ..ChartSpec::default()
                },
                "y_range",
                "such as [1, 5]",
            ),
            (
                ChartSpec {
                    y_range: Some([0.0, 200.0]),
                    ..ChartSpec::default()
                },
                "y_range",
                "within 0 to 100",
            ),
            (
                ChartSpec {
                    y_range: Some([0.0, f64::NAN]),
                    ..ChartSpec::default()
                },
                "y_range",
                "both ends must be numbers",
            ),
            (
                ChartSpec {
                    kind: Some(ChartKind::Heatmap),
                    y_range: Some([0.0, 5.0]),
                    ..ChartSpec::default()
                },
                "y_range",
                "color_range",
            ),
            (
                ChartSpec {
                    kind: Some(ChartKind::Heatmap),
                    y_scale: Some(YScale::Log),
                    ..ChartSpec::default()
                },
                "y_scale",
                "a heatmap chart has none",
            ),
            (
                ChartSpec {
                    color_range: Some([0.0, 5.0]),
                    ..ChartSpec::default()
                },
                "color_range",
                "a line chart has none",
            ),
            (
                ChartSpec {
                    width: Some(600),
                    ..ChartSpec::default()
                },
                "width",
                "too small for the text of size = \"page\"",
            ),
            (
                ChartSpec {
                    height: Some(5000),
                    ..ChartSpec::default()
                },
                "height",
                "at most 6000 px a side",
            ),
        ] {
            let e = check(spec).unwrap_err();
            assert_eq!(e.field, field, "{}", e.message);
            assert!(e.message.contains(words), "{}", e.message);
        }
        // A difference's axis may go below 0; a heatmap's colours may be set.
        let spec = ChartSpec {
            kind: Some(ChartKind::Heatmap),
            color_range: Some([0.0, 50.0]),
            ..ChartSpec::default()
        };
        assert_eq!(check(spec).unwrap().color_range, Some((0.0, 50.0)));
    }

    #[test]
    fn a_canvas_is_its_size_unless_width_or_height_say_otherwise() {
        let axes = paths(&["attacker.level"]);
        let canvas = |spec: ChartSpec| {
            let c = spec.check(&[Action::Mug], &axes, 1, "T").unwrap();
            (c.size, c.pixels)
        };
        assert_eq!(
            canvas(ChartSpec::default()),
            (ChartSize::Page, (1950, 1300))
        );
        let screen = ChartSpec {
            size: Some(ChartSize::Screen),
            ..ChartSpec::default()
        };
        assert_eq!(canvas(screen.clone()), (ChartSize::Screen, (1200, 800)));
        let slide = ChartSpec {
            size: Some(ChartSize::Slide),
            ..ChartSpec::default()
        };
        assert_eq!(canvas(slide).1, (1920, 1080));
        // A width alone keeps the size's proportions; both are taken as given.
        let wide = ChartSpec {
            width: Some(900),
            ..screen.clone()
        };
        assert_eq!(canvas(wide).1, (900, 600));
        let both = ChartSpec {
            width: Some(900),
            height: Some(900),
            ..screen
        };
        assert_eq!(canvas(both).1, (900, 900));
        // Page text is 9 points at 300 dpi: 37.5 pixels.
        assert!((ChartSize::Page.px_per_pt() * 9.0 - 37.5).abs() < 1e-9);
    }

    #[test]
    fn without_a_sweep_there_is_no_default_line_chart() {
        assert!(default_chart(&[Action::Mug], &[], 1, "T").is_none());
        assert!(default_chart(&[Action::Mug], &paths(&["attacker.level"]), 1, "T").is_some());
    }
}
