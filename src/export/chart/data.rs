//! From a scenario's results to the figures its `[[chart]]` requests describe.
//!
//! Sweep axes a chart does not name (as x, y, series, or fixed with `at`) split its lines further: one line
//! per combination, named after the values that tell them apart.

use crate::export::chart::figure::{
    Figure, HeatmapFigure, HistogramFigure, LineFigure, LinePoint, Series, metric_label, path_label,
};
use crate::export::summary::PointSummary;
use crate::scenario::Scenario;
use crate::scenario::chart::{Chart, ChartKind};
use crate::scenario::sweep::{SweepValue, path_value};
use crate::scenario::tune::{Target, Tune};
use crate::stats::Tally;
use crate::stats::interval::Estimate;
use crate::stats::metrics::{self, MetricValue};
use crate::study::DifferenceRow;
use crate::tuning::TunePoint;

/// Where an axis of a chart reads its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Variant,
    LevelGap,
    Axis(usize),
}

fn column(scenario: &Scenario, name: &str) -> Column {
    match name {
        "variant" => Column::Variant,
        "level_gap" => Column::LevelGap,
        path => scenario
            .axes
            .iter()
            .position(|a| a.path == path)
            .map_or(Column::Variant, Column::Axis),
    }
}

/// Whether a point passes the chart's `at` filter.
fn selected(scenario: &Scenario, chart: &Chart, p: &PointSummary<'_>) -> bool {
    chart.at.iter().all(|(path, value)| {
        scenario
            .axes
            .iter()
            .position(|a| a.path == *path)
            .is_some_and(|i| p.values[i] == *value)
    })
}

/// The columns that split series: the series column first, then the free axes, then the variant when the
/// series is a sweep path and there are several variants.
fn series_columns(scenario: &Scenario, chart: &Chart) -> Vec<Column> {
    let mut cols = vec![column(scenario, &chart.series)];
    cols.extend(
        chart
            .free_axes(&scenario.axes)
            .into_iter()
            .map(Column::Axis),
    );
    if chart.series != "variant" && scenario.variants.len() > 1 {
        cols.push(Column::Variant);
    }
    cols
}

/// A series' legend entry: the variant's name, and each sweep value by its human name
/// (`attacker Strength 18/00`).
fn series_name(scenario: &Scenario, p: &PointSummary<'_>, cols: &[Column]) -> String {
    cols.iter()
        .map(|c| match c {
            Column::Variant => p.variant.to_string(),
            Column::Axis(a) => path_value(&scenario.axes[*a].path, &p.values[*a]),
            Column::LevelGap => format!("level gap {}", p.level_gap),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Groups the selected points by series, keeping first-seen order.
fn group<'s, 'p>(
    scenario: &Scenario,
    chart: &Chart,
    summaries: &'s [PointSummary<'p>],
) -> Vec<(String, Vec<(usize, &'s PointSummary<'p>)>)> {
    let cols = series_columns(scenario, chart);
    let mut groups: Vec<(String, Vec<(usize, &PointSummary<'_>)>)> = Vec::new();
    for (index, p) in summaries.iter().enumerate() {
        if !selected(scenario, chart, p) {
            continue;
        }
        let name = series_name(scenario, p, &cols);
        match groups.iter_mut().find(|(n, _)| *n == name) {
            Some((_, members)) => members.push((index, p)),
            None => groups.push((name, vec![(index, p)])),
        }
    }
    groups
}

/// Builds the figure of one chart.
pub fn figure(
    scenario: &Scenario,
    chart: &Chart,
    summaries: &[PointSummary<'_>],
    tallies: &[Option<Tally>],
    differences: &[DifferenceRow<'_>],
) -> Figure {
    match chart.kind {
        ChartKind::Line => Figure::Line(line(scenario, chart, summaries)),
        ChartKind::Difference => Figure::Line(difference(scenario, chart, differences)),
        ChartKind::Heatmap => Figure::Heatmap(heatmap(scenario, chart, summaries)),
        ChartKind::Histogram => Figure::Histogram(histogram(scenario, chart, summaries, tallies)),
    }
}

fn line(scenario: &Scenario, chart: &Chart, summaries: &[PointSummary<'_>]) -> LineFigure {
    let probability = metrics::is_probability(&chart.metric);
    let scale = if probability { 100.0 } else { 1.0 };
    let x_col = column(scenario, &chart.x);
    let categories: Option<Vec<String>> = match x_col {
        Column::Axis(i) if scenario.axes[i].values.iter().any(|v| v.as_f64().is_none()) => Some(
            scenario.axes[i]
                .values
                .iter()
                .map(SweepValue::to_string)
                .collect(),
        ),
        _ => None,
    };
    let x_of = |p: &PointSummary<'_>| -> Option<f64> {
        match x_col {
            Column::LevelGap => Some(f64::from(p.level_gap)),
            Column::Axis(i) => match &categories {
                Some(_) => scenario.axes[i]
                    .values
                    .iter()
                    .position(|v| *v == p.values[i])
                    .map(|k| k as f64),
                None => p.values[i].as_f64(),
            },
            Column::Variant => None,
        }
    };
    let series = group(scenario, chart, summaries)
        .into_iter()
        .map(|(name, members)| {
            let mut points: Vec<LinePoint> = members
                .iter()
                .filter_map(|(_, p)| {
                    let e = p.metric(&chart.metric)?;
                    Some(LinePoint {
                        x: x_of(p)?,
                        y: e.estimate? * scale,
                        low: e.ci_low.map(|v| v * scale),
                        high: e.ci_high.map(|v| v * scale),
                    })
                })
                .collect();
            points.sort_by(|a, b| a.x.total_cmp(&b.x));
            let mut exact: Vec<(f64, f64)> = members
                .iter()
                .filter_map(|(_, p)| {
                    let m = p
                        .result
                        .as_ref()
                        .ok()?
                        .iter()
                        .find(|m| m.metric == chart.metric)?;
                    Some((x_of(p)?, m.exact? * scale))
                })
                .collect();
            exact.sort_by(|a, b| a.0.total_cmp(&b.0));
            Series {
                name,
                points,
                exact,
            }
        })
        .filter(|s| !s.points.is_empty())
        .collect();
    LineFigure {
        title: chart.title.clone(),
        x_label: path_label(&chart.x),
        y_label: metric_label(&chart.metric),
        probability,
        x_categories: categories,
        series,
        horizontal: Vec::new(),
        marked: Vec::new(),
    }
}

/// The rows of `differences` for the chart's metric as summaries whose metric is the difference, so a
/// difference chart is drawn exactly as a line chart is.
fn as_summaries<'a>(
    scenario: &Scenario,
    chart: &Chart,
    differences: &[DifferenceRow<'a>],
) -> Vec<PointSummary<'a>> {
    differences
        .iter()
        .filter(|d| d.metric == chart.metric || d.result.is_err())
        .map(|d| PointSummary {
            variant: d.variant,
            values: d.values,
            level_gap: d.level_gap,
            action: scenario.points[d.points.0].action,
            result: match &d.result {
                Ok(diff) => Ok(vec![MetricValue {
                    metric: d.metric,
                    value: Estimate {
                        estimate: diff.difference,
                        ci_low: diff.ci_low,
                        ci_high: diff.ci_high,
                        std_error: diff.std_error,
                        trials: diff.trials,
                    },
                    exact: d.exact,
                }]),
                Err(reason) => Err(reason.clone()),
            },
        })
        .collect()
}

/// A metric's difference against the baseline: one line per other variant, its band, a zero line.
fn difference(scenario: &Scenario, chart: &Chart, differences: &[DifferenceRow<'_>]) -> LineFigure {
    let rows = as_summaries(scenario, chart, differences);
    let mut figure = line(scenario, chart, &rows);
    // Differences of probabilities are in percentage points, and may be negative: a free axis.
    figure.probability = false;
    figure.y_label = format!(
        "difference from {}: {}",
        scenario.variants[scenario.baseline],
        difference_label(&chart.metric)
    );
    figure.horizontal = vec![0.0];
    figure
}

/// A metric's label for a difference: percentage points for a probability.
fn difference_label(metric: &str) -> String {
    let label = metric_label(metric);
    match label.strip_suffix(" (%)") {
        Some(stem) => format!("{stem} (percentage points)"),
        None => label,
    }
}

/// A tune's chart: the metric (or, for a match, its paired difference from the matched variant) against
/// the parameter, one line per sweep point, the target dashed, the chosen values ringed.
pub fn tune_figure(scenario: &Scenario, tune: &Tune, points: &[TunePoint]) -> LineFigure {
    let probability = metrics::is_probability(tune.metric);
    let scale = if probability { 100.0 } else { 1.0 };
    let matched = match &tune.target {
        Target::Value(_) => None,
        Target::Variant {
            variant,
            comparison,
        } => Some((*variant, comparison.baseline_metric)),
    };
    let mut series = Vec::new();
    let mut marked = Vec::new();
    for point in points {
        let row = &tune.rows[point.row];
        let name = scenario
            .axes
            .iter()
            .zip(scenario.grid_values(row.grid_point))
            .map(|(a, v)| path_value(&a.path, v))
            .collect::<Vec<_>>()
            .join(", ");
        let mut line = Vec::new();
        for (k, e) in &point.evaluated {
            let Some(x) = tune.values[*k].as_f64() else {
                continue;
            };
            let (y, low, high) = match matched {
                None => (e.value.estimate, e.value.ci_low, e.value.ci_high),
                // For a match, the paired difference from the matched variant: its target is 0.
                Some(_) => (e.gap, None, None),
            };
            let Some(y) = y else { continue };
            line.push(LinePoint {
                x,
                y: y * scale,
                low: low.map(|v| v * scale),
                high: high.map(|v| v * scale),
            });
            if point.answer.best == Some(*k) {
                marked.push((x, y * scale));
            }
        }
        series.push(Series {
            name: if name.is_empty() {
                tune.name.clone()
            } else {
                name
            },
            points: line,
            exact: Vec::new(),
        });
    }
    let (y_label, horizontal) = match (&tune.target, matched) {
        (Target::Value(t), _) => (metric_label(tune.metric), vec![t * scale]),
        (Target::Variant { .. }, Some((variant, theirs))) => (
            format!(
                "{} minus {} of {}{}",
                metrics::name(tune.metric),
                metrics::name(theirs),
                scenario.variants[variant],
                if probability {
                    " (percentage points)"
                } else {
                    ""
                }
            ),
            vec![0.0],
        ),
        (Target::Variant { .. }, None) => (metric_label(tune.metric), vec![0.0]),
    };
    LineFigure {
        title: format!("{}: tuning {}", scenario.title, tune.parameter),
        x_label: path_label(&tune.parameter),
        y_label,
        probability: probability && matched.is_none(),
        x_categories: None,
        series,
        horizontal,
        marked,
    }
}

fn heatmap(scenario: &Scenario, chart: &Chart, summaries: &[PointSummary<'_>]) -> HeatmapFigure {
    let y_path = chart.y_path.clone().unwrap_or_default();
    let (xi, yi) = (
        scenario
            .axes
            .iter()
            .position(|a| a.path == chart.x)
            .unwrap_or(0),
        scenario
            .axes
            .iter()
            .position(|a| a.path == y_path)
            .unwrap_or(0),
    );
    let labels = |i: usize| {
        scenario.axes[i]
            .values
            .iter()
            .map(SweepValue::to_string)
            .collect::<Vec<_>>()
    };
    let (x_labels, y_labels) = (labels(xi), labels(yi));
    let panels = group(scenario, chart, summaries)
        .into_iter()
        .map(|(name, members)| {
            let mut cells = vec![vec![None; x_labels.len()]; y_labels.len()];
            for (_, p) in members {
                let col = scenario.axes[xi]
                    .values
                    .iter()
                    .position(|v| *v == p.values[xi]);
                let row = scenario.axes[yi]
                    .values
                    .iter()
                    .position(|v| *v == p.values[yi]);
                if let (Some(c), Some(r)) = (col, row) {
                    cells[r][c] = p.metric(&chart.metric).and_then(|e| e.estimate);
                }
            }
            (name, cells)
        })
        .collect();
    HeatmapFigure {
        title: chart.title.clone(),
        x_label: path_label(&chart.x),
        y_label: path_label(&y_path),
        metric_label: metric_label(&chart.metric),
        probability: metrics::is_probability(&chart.metric),
        x_labels,
        y_labels,
        panels,
    }
}

fn histogram(
    scenario: &Scenario,
    chart: &Chart,
    summaries: &[PointSummary<'_>],
    tallies: &[Option<Tally>],
) -> HistogramFigure {
    let series = group(scenario, chart, summaries)
        .into_iter()
        .filter_map(|(name, members)| {
            // Points of one series are merged: the series is the variable that matters.
            let mut bars: Vec<(i64, u64)> = Vec::new();
            for (index, p) in members {
                let Some(Some(tally)) = tallies.get(index) else {
                    continue;
                };
                for (metric, hist) in metrics::distributions(p.action, tally) {
                    if metric != chart.metric {
                        continue;
                    }
                    for (value, count) in hist.iter() {
                        match bars.iter_mut().find(|(v, _)| *v == value) {
                            Some((_, c)) => *c += count,
                            None => bars.push((value, count)),
                        }
                    }
                }
            }
            let total: u64 = bars.iter().map(|(_, c)| c).sum();
            if total == 0 {
                return None;
            }
            bars.sort_unstable();
            Some((
                name,
                bars.into_iter()
                    .map(|(v, c)| (v, c as f64 / total as f64))
                    .collect(),
            ))
        })
        .collect();
    HistogramFigure {
        title: chart.title.clone(),
        x_label: metric_label(&chart.metric),
        series,
    }
}
