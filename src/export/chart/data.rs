//! From a scenario's results to the figures its `[[chart]]` requests describe.
//!
//! Sweep axes a chart does not name (as x, y, series, or fixed with `at`) split its lines further: one line
//! per combination, named after the values that tell them apart. Everything a reader of a pasted chart
//! needs is decided here (docs/scenarios.md "Charts"): the caption (what was simulated, trials, seed, what
//! the bands are), the vertical axis (a rare event's cut-down range, said in a note), and where the points
//! the rules forbid would be, with their reasons.

use crate::export::chart::figure::{
    Cell, Figure, HeatmapFigure, HistogramFigure, LineFigure, LinePoint, Plot, Series,
};
use crate::export::words::{confidence, thousands, trim};
use crate::scenario::Scenario;
use crate::scenario::chart::{Chart, ChartKind, YScale};
use crate::scenario::sweep::{SweepValue, path_label, path_name, path_value};
use crate::scenario::tune::{Target, Tune};
use crate::stats::Tally;
use crate::stats::interval::{self, Estimate, z_for};
use crate::stats::metrics::{self, MetricValue};
use crate::study::DifferenceRow;
use crate::study::summary::PointSummary;
use crate::study::tuning::TunePoint;

/// Below this top value (in percent), a probability's axis is cut down to the data: a rare event on a
/// 0-100% axis is a flat line.
pub const RARE_EVENT_PERCENT: f64 = 10.0;

/// Ineligible reasons a chart's notes list one by one; more are counted (summary.csv has them all).
const MAX_REASONS: usize = 3;

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
    let free = chart.free_axes(&scenario.axes);
    // A file without variants has one, "base": it names a series only when nothing else does.
    let mut cols = if chart.series == "variant" && scenario.variants.len() == 1 && !free.is_empty()
    {
        Vec::new()
    } else {
        vec![column(scenario, &chart.series)]
    };
    cols.extend(free.into_iter().map(Column::Axis));
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

/// Builds the figure of one chart; `trials` is what every point ran.
pub fn figure(
    scenario: &Scenario,
    chart: &Chart,
    summaries: &[PointSummary<'_>],
    tallies: &[Option<Tally>],
    differences: &[DifferenceRow<'_>],
    trials: u64,
) -> Figure {
    let mut notes = vec![method(scenario, chart, trials)];
    let plot = match chart.kind {
        ChartKind::Line => Plot::Line(line(scenario, chart, summaries, &mut notes)),
        ChartKind::Difference => Plot::Line(difference(scenario, chart, differences, &mut notes)),
        ChartKind::Heatmap => Plot::Heatmap(heatmap(scenario, chart, summaries, &mut notes)),
        ChartKind::Histogram => {
            Plot::Histogram(histogram(scenario, chart, summaries, tallies, &mut notes))
        }
        ChartKind::Survival => Plot::Line(survival_lines(
            scenario, chart, summaries, tallies, &mut notes,
        )),
    };
    let mut figure = Figure {
        title: chart.title.clone(),
        subtitle: subtitle(scenario, chart),
        notes,
        plot,
    };
    // One series has no legend; a name other than the default variant's is said in the notes.
    if let [only] = figure.series_names().as_slice()
        && *only != "base"
        && chart.kind != ChartKind::Difference
    {
        let only = only.to_string();
        figure.notes.push(format!("Drawn: {only}."));
    }
    figure
}

/// The author's caption, then what every point holds fixed and the chart's `at` values.
fn subtitle(scenario: &Scenario, chart: &Chart) -> Vec<String> {
    let mut lines: Vec<String> = chart.caption.iter().cloned().collect();
    let mut setting = scenario.setting.clone();
    if !chart.at.is_empty() {
        let at: Vec<String> = chart.at.iter().map(|(p, v)| path_value(p, v)).collect();
        setting.push_str(&format!("; shown at {} only", at.join(" and ")));
    }
    lines.push(setting);
    lines
}

/// What the bands (or whiskers) of a metric are: the interval summary.csv gives it
/// (docs/scenarios.md "summary.csv", "differences.csv").
fn bands(scenario: &Scenario, metric: &str, difference: bool) -> String {
    let level = confidence(scenario.confidence);
    let kind = scenario
        .distinct_actions()
        .into_iter()
        .find_map(|a| metrics::kind_of(a, metric))
        .unwrap_or("mean");
    let z = trim((z_for(scenario.confidence) * 100.0).round() / 100.0);
    match (kind, difference) {
        ("fixed", _) => "no band: the value is fixed by the matchup".to_string(),
        ("probability", false) => format!("{level} Wilson score intervals"),
        ("probability", true) => {
            format!("paired {level} intervals (normal, from the trials where the two differ)")
        }
        ("ratio", false) => {
            format!("{level} Wilson score intervals over the trials where its condition held")
        }
        (_, false) => format!("{level} intervals, the mean ± {z} standard errors"),
        (_, true) => {
            format!("paired {level} intervals, the difference ± {z} paired standard errors")
        }
    }
}

/// Trials, seed, and what the bands, whiskers, cells or bars are.
fn method(scenario: &Scenario, chart: &Chart, trials: u64) -> String {
    let run = format!(
        "{} trials a point, seed {}",
        thousands(trials),
        scenario.seed
    );
    let drawn = match chart.kind {
        ChartKind::Line | ChartKind::Difference => {
            let what = if text_axis(scenario, &chart.x) {
                "whiskers"
            } else {
                "bands"
            };
            format!(
                "{what}: {}",
                bands(scenario, &chart.metric, chart.kind == ChartKind::Difference)
            )
        }
        ChartKind::Heatmap => format!(
            "cells: estimates (their {} intervals are in summary.csv)",
            confidence(scenario.confidence)
        ),
        ChartKind::Histogram => "bars: each value's share of the series' trials".to_string(),
        ChartKind::Survival => format!(
            "curves: at each N, the share of the trials with a {name} (those where it exists) in which it is above N rounds; bands: {} Wilson score intervals of that share",
            confidence(scenario.confidence),
            name = metrics::name(&chart.metric)
        ),
    };
    format!("{run}; {drawn}.")
}

/// Whether a sweep path takes text values (monsters, weapons, `"18/50"`): drawn as categories.
fn text_axis(scenario: &Scenario, path: &str) -> bool {
    scenario
        .axes
        .iter()
        .find(|a| a.path == path)
        .is_some_and(|a| a.values.iter().any(|v| v.as_f64().is_none()))
}

/// One point the chart cannot draw: its series, where it would be, and why.
struct Missing {
    series: String,
    at: String,
    reason: String,
}

/// A reason with its numbers blanked: reasons that differ only in numbers (heights, sizes) are one rule.
fn shape(reason: &str) -> String {
    let mut out = String::new();
    let mut in_number = false;
    for c in reason.chars() {
        let digit = c.is_ascii_digit() || (in_number && c == '.');
        if digit && !in_number {
            out.push('#');
        } else if !digit {
            out.push(c);
        }
        in_number = digit;
    }
    out
}

/// Reasons of one shape as one sentence: the parenthesized numbers that differ between them are dropped
/// (`the victim is more than 2 times as tall as the mugger`), any other word that differs becomes `…`.
fn merged(reasons: &[&str]) -> String {
    let first: Vec<&str> = reasons[0].split(' ').collect();
    let words: Vec<Vec<&str>> = reasons.iter().map(|r| r.split(' ').collect()).collect();
    if words.iter().any(|w| w.len() != first.len()) {
        return reasons[0].to_string();
    }
    let differs = |k: usize| words.iter().any(|w| w[k] != first[k]);
    let mut out: Vec<&str> = Vec::new();
    let mut k = 0;
    while k < first.len() {
        if first[k].starts_with('(') {
            let end = (k..first.len())
                .find(|&j| first[j].ends_with(')') || first[j].ends_with("),"))
                .unwrap_or(k);
            if (k..=end).any(differs) {
                k = end + 1;
                continue;
            }
        }
        out.push(if differs(k) { "…" } else { first[k] });
        k += 1;
    }
    out.join(" ")
}

/// The notes on points the rules forbid: one per rule, naming the series and where (`× not eligible
/// (halfling thief at gnoll, ogre; dwarf thief at ogre): the victim is more than 2 times as tall as the
/// mugger`).
fn missing_notes(missing: &[Missing], everywhere: &[(String, bool)], mark: &str) -> Vec<String> {
    let mut shapes: Vec<(String, Vec<&str>)> = Vec::new();
    for m in missing {
        let key = shape(&m.reason);
        match shapes.iter_mut().find(|(k, _)| *k == key) {
            Some((_, reasons)) if !reasons.contains(&m.reason.as_str()) => reasons.push(&m.reason),
            Some(_) => {}
            None => shapes.push((key, vec![&m.reason])),
        }
    }
    let one_series = everywhere.len() <= 1;
    let mut notes: Vec<String> = shapes
        .iter()
        .take(MAX_REASONS)
        .map(|(key, reasons)| {
            let mut whom: Vec<String> = Vec::new();
            for (series, all) in everywhere {
                let at: Vec<&str> = missing
                    .iter()
                    .filter(|m| m.series == *series && shape(&m.reason) == *key)
                    .map(|m| m.at.as_str())
                    .collect();
                if at.is_empty() {
                    continue;
                }
                let place = if *all {
                    "everywhere".to_string()
                } else if at.len() > 6 {
                    format!("at {} points", at.len())
                } else {
                    format!("at {}", at.join(", "))
                };
                whom.push(if one_series {
                    place
                } else {
                    format!("{series} {place}")
                });
            }
            let reason = if reasons.len() == 1 {
                reasons[0].to_string()
            } else {
                format!("{} (summary.csv gives each point's)", merged(reasons))
            };
            format!("{mark} not eligible ({}): {reason}.", whom.join("; "))
        })
        .collect();
    match shapes.len().saturating_sub(MAX_REASONS) {
        0 => {}
        1 => notes.push(format!(
            "{mark} One more reason: summary.csv gives each point's."
        )),
        more => notes.push(format!(
            "{mark} {more} more reasons: summary.csv gives each point's."
        )),
    }
    notes
}

/// The largest of `1, 2, 2.5, 5 × 10^k` at or below `v` (`v` > 0).
fn nice_floor(v: f64) -> f64 {
    let decade = 10f64.powf(v.log10().floor());
    [5.0, 2.5, 2.0, 1.0]
        .iter()
        .map(|m| m * decade)
        .find(|n| *n <= v * (1.0 + 1e-9))
        .unwrap_or(decade)
}

/// The smallest of `1, 2, 2.5, 5 × 10^k` at or above `v` (`v` > 0).
fn nice_ceiling(v: f64) -> f64 {
    let decade = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * decade)
        .find(|n| *n >= v * (1.0 - 1e-9))
        .unwrap_or(10.0 * decade)
}

/// The vertical axis of a line chart, and the note that says so when it is not what a reader expects.
/// `percent` is a probability's 0-100% axis; a chart's `y_range` wins; a log axis spans the positive data
/// in whole steps; a probability whose every value and band stays below [`RARE_EVENT_PERCENT`] gets an
/// axis cut to its data.
fn y_axis(chart: &Chart, series: &[Series], percent: bool) -> (Option<(f64, f64)>, Vec<String>) {
    let values: Vec<f64> = series
        .iter()
        .flat_map(|s| {
            s.points
                .iter()
                .flat_map(|p| [Some(p.y), p.low, p.high])
                .flatten()
                .chain(s.exact.iter().map(|e| e.1))
        })
        .collect();
    let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let cut = |lo: f64, hi: f64| {
        format!(
            "The vertical axis runs from {}% to {}%, not 0-100%.",
            trim(lo),
            trim(hi)
        )
    };
    if chart.y_scale == YScale::Log {
        let positive = values.iter().copied().filter(|v| *v > 0.0);
        let least = positive.clone().fold(f64::INFINITY, f64::min);
        let (lo, hi) = match chart.y_range {
            Some(range) => range,
            None if least.is_finite() => {
                let hi = nice_ceiling(top);
                let hi = if percent { hi.min(100.0) } else { hi };
                // At least one decade, so the scale reads as a log scale.
                (nice_floor(least).min(hi / 10.0), hi)
            }
            None => (0.01, 1.0),
        };
        let mut notes = vec![format!(
            "Log scale from {}{pc} to {}{pc}.",
            trim_small(lo),
            trim_small(hi),
            pc = if percent { "%" } else { "" }
        )];
        let floored = series.iter().flat_map(|s| &s.points).any(|p| {
            p.y <= lo || p.low.is_some_and(|l| l <= lo) || p.high.is_some_and(|h| h <= lo)
        });
        if floored {
            notes.push(format!(
                "Zeros, and bands reaching below {}{}, are drawn at the foot of the axis (hollow: an estimate there).",
                trim_small(lo),
                if percent { "%" } else { "" }
            ));
        }
        return (Some((lo, hi)), notes);
    }
    match chart.y_range {
        Some((lo, hi)) if percent && (lo, hi) != (0.0, 100.0) => {
            (Some((lo, hi)), vec![cut(lo, hi)])
        }
        Some(range) => (Some(range), Vec::new()),
        None if percent && top.is_finite() && top < RARE_EVENT_PERCENT => {
            let hi = nice_ceiling(top.max(0.01) * 1.05);
            (Some((0.0, hi)), vec![cut(0.0, hi)])
        }
        None if percent => (Some((0.0, 100.0)), Vec::new()),
        None => (None, Vec::new()),
    }
}

/// A small number with the decimals it needs: `0.001`, `0.05`, `2`.
fn trim_small(v: f64) -> String {
    if v >= 0.001 {
        trim(v)
    } else {
        format!("{v:e}")
    }
}

fn line(
    scenario: &Scenario,
    chart: &Chart,
    summaries: &[PointSummary<'_>],
    notes: &mut Vec<String>,
) -> LineFigure {
    let probability = metrics::is_probability(&chart.metric);
    let mut figure = plain_line(scenario, chart, summaries, probability, notes);
    let (range, axis_notes) = y_axis(chart, &figure.series, probability);
    figure.y_range = range;
    figure.y_log = chart.y_scale == YScale::Log;
    notes.splice(1..1, axis_notes);
    figure
}

/// The lines of a line chart, its points in the chart's units; ineligible points marked and noted.
fn plain_line(
    scenario: &Scenario,
    chart: &Chart,
    summaries: &[PointSummary<'_>],
    probability: bool,
    notes: &mut Vec<String>,
) -> LineFigure {
    let scale = if probability { 100.0 } else { 1.0 };
    let x_col = column(scenario, &chart.x);
    let categories: Option<Vec<String>> = match x_col {
        Column::Axis(i) if text_axis(scenario, &chart.x) => Some(
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
    let x_text = |p: &PointSummary<'_>| -> String {
        match x_col {
            Column::LevelGap => format!("level gap {}", p.level_gap),
            Column::Axis(i) => p.values[i].to_string(),
            Column::Variant => p.variant.to_string(),
        }
    };
    let groups = group(scenario, chart, summaries);
    unreported(&groups, &chart.metric, notes, |p| {
        p.metric(&chart.metric).is_some()
    });
    let mut missing: Vec<Missing> = Vec::new();
    let mut everywhere: Vec<(String, bool)> = Vec::new();
    let series = groups
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
            let mut ineligible = Vec::new();
            for (_, p) in &members {
                if let (Err(reason), Some(x)) = (&p.result, x_of(p))
                    && !ineligible.contains(&x)
                {
                    ineligible.push(x);
                    missing.push(Missing {
                        series: name.clone(),
                        at: x_text(p),
                        reason: reason.clone(),
                    });
                }
            }
            ineligible.sort_by(f64::total_cmp);
            everywhere.push((name.clone(), points.is_empty() && !ineligible.is_empty()));
            Series {
                name,
                points,
                exact,
                ineligible,
            }
        })
        .filter(|s| !s.points.is_empty() || !s.ineligible.is_empty())
        .collect::<Vec<_>>();
    everywhere.retain(|(name, _)| series.iter().any(|s: &Series| s.name == *name));
    if series.iter().any(|s| s.exact.len() >= 2) {
        notes.push("Black dashes: the exact values.".to_string());
    }
    notes.extend(missing_notes(&missing, &everywhere, "×"));
    LineFigure {
        x_label: path_label(&chart.x),
        y_label: metrics::label(&chart.metric),
        percent: probability,
        x_categories: categories,
        y_range: None,
        y_log: false,
        series,
        horizontal: Vec::new(),
        marked: Vec::new(),
    }
}

/// Says which series are not drawn because their action does not report the metric at all (a strike has
/// no knockout), rather than dropping them in silence; `reports` tells whether an eligible point does.
/// Group names are distinct, so each is said once.
fn unreported(
    groups: &[(String, Vec<(usize, &PointSummary<'_>)>)],
    metric: &str,
    notes: &mut Vec<String>,
    reports: impl Fn(&PointSummary<'_>) -> bool,
) {
    for (name, members) in groups {
        if !members.iter().any(|(_, p)| p.result.is_err() || reports(p)) {
            let action = members.first().map(|(_, p)| p.action.name()).unwrap_or("");
            notes.push(format!(
                "Not drawn: {name}, whose action ({action}) reports no {}.",
                metrics::name(metric)
            ));
        }
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
fn difference(
    scenario: &Scenario,
    chart: &Chart,
    differences: &[DifferenceRow<'_>],
    notes: &mut Vec<String>,
) -> LineFigure {
    let rows = as_summaries(scenario, chart, differences);
    // Differences of probabilities are in percentage points, and may be negative: a free axis.
    let probability = metrics::is_probability(&chart.metric);
    let mut figure = plain_line(scenario, chart, &rows, probability, notes);
    figure.percent = false;
    figure.y_range = chart.y_range;
    let baseline = &scenario.variants[scenario.baseline];
    figure.y_label = match figure.series.as_slice() {
        // One line and no legend: the label says whose it is.
        [only] => format!(
            "{} minus {baseline}: {}",
            only.name,
            difference_label(&chart.metric)
        ),
        _ => format!(
            "difference from {baseline}: {}",
            difference_label(&chart.metric)
        ),
    };
    figure.horizontal = vec![0.0];
    notes.push("Dashed line: no difference.".to_string());
    figure
}

/// A metric's label for a difference: percentage points for a probability.
fn difference_label(metric: &str) -> String {
    let label = metrics::label(metric);
    match label.strip_suffix(" (%)") {
        Some(stem) => format!("{stem} (percentage points)"),
        None => label,
    }
}

/// A tune's chart: the metric (or, for a match, its paired difference from the matched variant) against
/// the parameter, one line per sweep point, the target dashed, the chosen values ringed.
pub fn tune_figure(scenario: &Scenario, tune: &Tune, points: &[TunePoint], trials: u64) -> Figure {
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
    // The points whose best value missed the target, by where the target lies: the ring is then only the
    // closest value, and the figure says so.
    let mut misses: Vec<(&str, Vec<String>)> = Vec::new();
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
        if let Some(miss) = point.answer.status.and_then(|s| s.miss()) {
            match misses.iter_mut().find(|(m, _)| *m == miss) {
                Some((_, at)) => at.push(name.clone()),
                None => misses.push((miss, vec![name.clone()])),
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
            ineligible: Vec::new(),
        });
    }
    let (y_label, horizontal, drawn) = match (&tune.target, matched) {
        (Target::Value(t), _) => (
            metrics::label(tune.metric),
            vec![t * scale],
            format!("bands: {}", bands(scenario, tune.metric, false)),
        ),
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
            format!(
                "points: the paired gap to {} on the same dice",
                scenario.variants[variant]
            ),
        ),
        (Target::Variant { .. }, None) => (metrics::label(tune.metric), vec![0.0], String::new()),
    };
    let percent = probability && matched.is_none();
    let mut notes = vec![
        format!(
            "{} trials a point, seed {}; {drawn}.",
            thousands(trials),
            scenario.seed
        ),
        "Dashed line: the target; rings: the values chosen.".to_string(),
    ];
    // One axis: its name once (`at attacker level 7, 10, 13`).
    let axis = match scenario.axes.as_slice() {
        [one] => Some(format!("{} ", path_name(&one.path))),
        _ => None,
    };
    notes.extend(misses.iter().map(|(miss, at)| {
        let place = match at.as_slice() {
            [only] if only.is_empty() => String::new(),
            many if many.len() > 6 => format!(" at {} points", many.len()),
            many => match &axis {
                Some(name) if many.iter().all(|m| m.starts_with(name.as_str())) => format!(
                    " at {name}{}",
                    many.iter()
                        .map(|m| &m[name.len()..])
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                _ => format!(" at {}", many.join("; ")),
            },
        };
        format!("Target not reached{place}: {miss} (tune.csv gives each point's status).")
    }));
    Figure {
        title: format!("{}: tuning {}", scenario.title, path_name(&tune.parameter)),
        subtitle: vec![scenario.setting.clone()],
        notes,
        plot: Plot::Line(LineFigure {
            x_label: path_label(&tune.parameter),
            y_label,
            percent,
            x_categories: None,
            y_range: percent.then_some((0.0, 100.0)),
            y_log: false,
            series,
            horizontal,
            marked,
        }),
    }
}

fn heatmap(
    scenario: &Scenario,
    chart: &Chart,
    summaries: &[PointSummary<'_>],
    notes: &mut Vec<String>,
) -> HeatmapFigure {
    let probability = metrics::is_probability(&chart.metric);
    let scale = if probability { 100.0 } else { 1.0 };
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
    let mut missing: Vec<Missing> = Vec::new();
    let mut everywhere: Vec<(String, bool)> = Vec::new();
    let panels: Vec<(String, Vec<Vec<Cell>>)> = group(scenario, chart, summaries)
        .into_iter()
        .map(|(name, members)| {
            let mut cells = vec![vec![Cell::Empty; x_labels.len()]; y_labels.len()];
            let mut any = false;
            for (_, p) in &members {
                let col = scenario.axes[xi]
                    .values
                    .iter()
                    .position(|v| *v == p.values[xi]);
                let row = scenario.axes[yi]
                    .values
                    .iter()
                    .position(|v| *v == p.values[yi]);
                let (Some(c), Some(r)) = (col, row) else {
                    continue;
                };
                cells[r][c] = match &p.result {
                    Err(reason) => {
                        missing.push(Missing {
                            series: name.clone(),
                            at: format!("{} and {}", p.values[xi], p.values[yi]),
                            reason: reason.clone(),
                        });
                        Cell::Ineligible
                    }
                    Ok(_) => match p.metric(&chart.metric).and_then(|e| e.estimate) {
                        Some(v) => {
                            any = true;
                            Cell::Value(v * scale)
                        }
                        None => Cell::Empty,
                    },
                };
            }
            everywhere.push((name.clone(), !any));
            (name, cells)
        })
        .collect();
    notes.extend(missing_notes(&missing, &everywhere, "×"));
    let values = panels.iter().flat_map(|(_, rows)| {
        rows.iter().flatten().filter_map(|c| match c {
            Cell::Value(v) => Some(*v),
            Cell::Empty | Cell::Ineligible => None,
        })
    });
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let (color_range, color_note) = match chart.color_range {
        Some(range) => (range, "scale: set by the chart".to_string()),
        None if lo.is_finite() && hi > lo => ((lo, hi), "scale: the data's range".to_string()),
        None if lo.is_finite() => (
            (lo - 0.5, lo + 0.5),
            "every cell has this value".to_string(),
        ),
        None => ((0.0, scale), "no values".to_string()),
    };
    HeatmapFigure {
        x_label: path_label(&chart.x),
        y_label: path_label(&y_path),
        metric_label: metrics::label(&chart.metric),
        percent: probability,
        color_range,
        color_note,
        x_labels,
        y_labels,
        panels,
    }
}

/// The counts of the chart's distribution, `(value, count)` ascending, merged over the points of each
/// series (the series is the variable that matters); series with no value are left out, and the points
/// the rules forbid are said in the notes.
fn series_counts(
    scenario: &Scenario,
    chart: &Chart,
    groups: Vec<(String, Vec<(usize, &PointSummary<'_>)>)>,
    tallies: &[Option<Tally>],
    notes: &mut Vec<String>,
) -> Vec<(String, Vec<(i64, u64)>)> {
    let mut missing: Vec<Missing> = Vec::new();
    let mut everywhere: Vec<(String, bool)> = Vec::new();
    let series = groups
        .into_iter()
        .filter_map(|(name, members)| {
            let mut bars: Vec<(i64, u64)> = Vec::new();
            for (index, p) in &members {
                if let Err(reason) = &p.result {
                    missing.push(Missing {
                        series: name.clone(),
                        at: p
                            .values
                            .iter()
                            .zip(&scenario.axes)
                            .map(|(v, a)| path_value(&a.path, v))
                            .collect::<Vec<_>>()
                            .join(" and "),
                        reason: reason.clone(),
                    });
                }
                let Some(Some(tally)) = tallies.get(*index) else {
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
            everywhere.push((name.clone(), total == 0));
            if total == 0 {
                return None;
            }
            bars.sort_unstable();
            Some((name, bars))
        })
        .collect();
    notes.extend(missing_notes(&missing, &everywhere, "Not drawn:"));
    series
}

fn histogram(
    scenario: &Scenario,
    chart: &Chart,
    summaries: &[PointSummary<'_>],
    tallies: &[Option<Tally>],
    notes: &mut Vec<String>,
) -> HistogramFigure {
    let groups = group(scenario, chart, summaries);
    let series = series_counts(scenario, chart, groups, tallies, notes)
        .into_iter()
        .map(|(name, bars)| {
            let total: u64 = bars.iter().map(|(_, c)| c).sum();
            let shares = bars
                .into_iter()
                .map(|(v, c)| (v, 100.0 * c as f64 / total as f64))
                .collect();
            (name, shares)
        })
        .collect();
    HistogramFigure {
        x_label: metrics::label(&chart.metric),
        series,
    }
}

/// The survival of a whole-number quantity from its counts `(value, count)`: for N = 0, 1, 2, ... up to
/// the largest value counted, the share of the values above N, S(N) = P(X > N), as a probability with its
/// Wilson score interval at `z` (k the values above N, n all the values counted). No value, no point.
pub fn survival(counts: &[(i64, u64)], z: f64) -> Vec<(i64, Estimate)> {
    let n: u64 = counts.iter().map(|(_, c)| c).sum();
    let Some(largest) = counts.iter().filter(|(_, c)| *c > 0).map(|(v, _)| *v).max() else {
        return Vec::new();
    };
    (0..=largest.max(0))
        .map(|at| {
            let above: u64 = counts.iter().filter(|(v, _)| *v > at).map(|(_, c)| c).sum();
            (at, interval::proportion(above, n, z))
        })
        .collect()
}

/// A survival chart: for each series, the share of its trials with the quantity still above N rounds, in
/// percent, with its band; the axis and notes as a line chart of a probability has them, and the trials
/// each curve rests on.
fn survival_lines(
    scenario: &Scenario,
    chart: &Chart,
    summaries: &[PointSummary<'_>],
    tallies: &[Option<Tally>],
    notes: &mut Vec<String>,
) -> LineFigure {
    let name = metrics::name(&chart.metric);
    let groups = group(scenario, chart, summaries);
    let mut unsaid = Vec::new();
    unreported(&groups, &chart.metric, &mut unsaid, |p| {
        metrics::distribution_metrics(p.action).any(|m| m == chart.metric)
    });
    // Series whose action reports the quantity, and which ran, yet never saw it (no knockout at all).
    let unseen: Vec<String> = groups
        .iter()
        .filter(|(_, members)| {
            members.iter().any(|(_, p)| {
                p.result.is_ok()
                    && metrics::distribution_metrics(p.action).any(|m| m == chart.metric)
            })
        })
        .map(|(series, _)| series.clone())
        .collect();
    let counted = series_counts(scenario, chart, groups, tallies, notes);
    for series in unseen {
        if !counted.iter().any(|(s, _)| *s == series) {
            unsaid.push(format!("Not drawn: {series}, whose trials have no {name}."));
        }
    }
    let z = z_for(scenario.confidence);
    let rested: Vec<String> = counted
        .iter()
        .map(|(series, counts)| {
            let n = thousands(counts.iter().map(|(_, c)| c).sum());
            match counted.len() {
                1 => n,
                _ => format!("{series} {n}"),
            }
        })
        .collect();
    let series: Vec<Series> = counted
        .into_iter()
        .map(|(series, counts)| Series {
            name: series,
            points: survival(&counts, z)
                .into_iter()
                .filter_map(|(at, e)| {
                    Some(LinePoint {
                        x: at as f64,
                        y: e.estimate? * 100.0,
                        low: e.ci_low.map(|v| v * 100.0),
                        high: e.ci_high.map(|v| v * 100.0),
                    })
                })
                .collect(),
            exact: Vec::new(),
            ineligible: Vec::new(),
        })
        .collect();
    let (y_range, axis_notes) = y_axis(chart, &series, true);
    notes.splice(1..1, axis_notes);
    if !rested.is_empty() {
        notes.push(format!("Trials with a {name}: {}.", rested.join("; ")));
    }
    notes.extend(unsaid);
    LineFigure {
        x_label: "N (rounds)".to_string(),
        y_label: format!("{name} above N (%)"),
        percent: true,
        x_categories: None,
        y_range,
        y_log: false,
        series,
        horizontal: Vec::new(),
        marked: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study;
    use crate::study::summary::summarize;

    fn shipped(name: &str) -> Scenario {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(format!("{name}.toml"));
        Scenario::load(&path).unwrap()
    }

    /// Every chart of a shipped scenario, from a short run.
    fn figures(scenario: &Scenario, trials: u64) -> Vec<(String, Figure)> {
        let results = study::run(scenario, trials, &|_| {});
        let summaries = summarize(scenario, &results.tallies);
        let differences = study::differences(scenario, &results);
        scenario
            .charts
            .iter()
            .map(|c| {
                let f = figure(
                    scenario,
                    c,
                    &summaries,
                    &results.tallies,
                    &differences,
                    trials,
                );
                (c.file.clone(), f)
            })
            .collect()
    }

    fn chart<'f>(figures: &'f [(String, Figure)], file: &str) -> &'f Figure {
        &figures.iter().find(|(f, _)| f == file).unwrap().1
    }

    fn lines(figure: &Figure) -> &LineFigure {
        match &figure.plot {
            Plot::Line(l) => l,
            other => panic!("not a line chart: {other:?}"),
        }
    }

    #[test]
    fn every_caption_says_what_was_simulated_how_often_and_what_the_band_is() {
        let s = shipped("mugging-level-gap");
        let f = figures(&s, 500);
        let ko = chart(&f, "ko-by-level-gap");
        assert_eq!(
            ko.title,
            "Mugging an ogre sentry: knockout odds by level gap"
        );
        assert_eq!(
            ko.subtitle,
            ["thief (human, Strength 12, club, behind) against ogre (unaware)"]
        );
        assert_eq!(
            ko.notes[0],
            "500 trials a point, seed 7376; bands: 95% Wilson score intervals."
        );
        let brawl = figures(&shipped("subdue-ogre"), 300);
        let rounds = chart(&brawl, "rounds");
        assert!(
            rounds.notes[0].ends_with("bands: 95% intervals, the mean ± 1.96 standard errors."),
            "{:?}",
            rounds.notes
        );
    }

    #[test]
    fn a_chart_fixed_with_at_says_so() {
        let s = shipped("brawl-vs-armed-guard");
        let f = figures(&s, 200);
        let length = chart(&f, "fight-length");
        assert!(
            length.subtitle[0].ends_with("; shown at attacker level 5 only"),
            "{:?}",
            length.subtitle
        );
        assert!(
            length
                .title
                .ends_with("distribution of fight length, attacker level 5")
        );
        assert_ne!(length.title, chart(&f, "survival-by-level").title);
        let mut with_caption = s.charts[1].clone();
        with_caption.caption = Some("Level 5 only, as in the text.".into());
        assert_eq!(
            subtitle(&s, &with_caption)[0],
            "Level 5 only, as in the text."
        );
        assert_eq!(subtitle(&s, &with_caption).len(), 2);
    }

    #[test]
    fn ineligible_points_are_marked_where_they_would_be_with_their_reason() {
        let s = shipped("mugging-halfling-reach");
        let f = figures(&s, 200);
        let reach = chart(&f, "p_knockout");
        let l = lines(reach);
        // A text axis: the monsters, in the sweep's order.
        assert_eq!(
            l.x_categories.as_deref().unwrap(),
            ["kobold", "goblin", "orc", "gnoll", "ogre"]
        );
        let halfling = &l.series[0];
        assert_eq!(halfling.name, "halfling thief");
        assert_eq!(halfling.ineligible, [3.0, 4.0]);
        assert_eq!(halfling.points.len(), 3);
        assert!(l.series[3].ineligible.is_empty());
        let note = reach.notes.iter().find(|n| n.starts_with('×')).unwrap();
        assert_eq!(
            note,
            "× not eligible (halfling thief at gnoll, ogre; gnome thief at gnoll, ogre; dwarf thief at ogre): \
             the victim is more than 2 times as tall as the mugger (summary.csv gives each point's)."
        );
        // A series the rules forbid everywhere stays in the legend, its crosses along the axis.
        let alive = figures(&shipped("take-the-sentry-alive"), 100);
        let ogre = lines(chart(&alive, "alive-ogre"));
        let sap = ogre
            .series
            .iter()
            .find(|s| s.name == "sap, then wrestle")
            .unwrap();
        assert!(sap.points.is_empty());
        assert_eq!(sap.ineligible.len(), 12);
        assert!(
            chart(&alive, "alive-ogre")
                .notes
                .iter()
                .any(|n| n.contains("sap, then wrestle everywhere")
                    && n.contains("a sap works only on creatures of size T, S or M"))
        );
    }

    #[test]
    fn reasons_that_differ_only_in_numbers_are_one_rule() {
        let a = "the victim (7.5 ft) is more than 2 times as tall as the mugger (3 ft)";
        let b = "the victim (9 ft) is more than 2 times as tall as the mugger (3.5 ft)";
        assert_eq!(shape(a), shape(b));
        assert_eq!(
            merged(&[a, b]),
            "the victim is more than 2 times as tall as the mugger"
        );
        assert_ne!(shape(a), shape("a mugging strikes from behind"));
    }

    #[test]
    fn a_rare_event_gets_an_axis_cut_to_its_data_and_a_note() {
        let s = shipped("subdue-ogre");
        let f = figures(&s, 2000);
        let deaths = chart(&f, "accidental-deaths");
        let (lo, hi) = lines(deaths).y_range.unwrap();
        assert_eq!(lo, 0.0);
        assert!(hi < RARE_EVENT_PERCENT, "{hi}");
        let top = lines(deaths)
            .series
            .iter()
            .flat_map(|s| &s.points)
            .map(|p| p.high.unwrap())
            .fold(0.0, f64::max);
        assert!(top <= hi, "{top} above the axis' {hi}");
        assert_eq!(
            deaths.notes[1],
            format!(
                "The vertical axis runs from 0% to {}%, not 0-100%.",
                trim(hi)
            )
        );
        // A common event keeps the whole 0-100% axis, and no note.
        let wins = chart(&f, "subdue-by-level");
        assert_eq!(lines(wins).y_range, Some((0.0, 100.0)));
        assert!(!wins.notes.iter().any(|n| n.contains("vertical axis")));
        assert_eq!(
            (nice_ceiling(0.13), nice_ceiling(4.2), nice_ceiling(5.0)),
            (0.2, 5.0, 5.0)
        );
        assert_eq!((nice_floor(0.013), nice_floor(3.0)), (0.01, 2.5));
    }

    #[test]
    fn a_log_axis_spans_the_data_and_says_where_zeros_go() {
        let mut s = shipped("subdue-ogre");
        s.charts[1].y_scale = YScale::Log;
        let f = figures(&s, 2000);
        let deaths = chart(&f, "accidental-deaths");
        let l = lines(deaths);
        assert!(l.y_log);
        let (lo, hi) = l.y_range.unwrap();
        assert!(lo > 0.0 && hi / lo >= 10.0, "{lo} {hi}");
        assert!(deaths.notes.iter().any(|n| n.starts_with("Log scale from")));
        // The low levels kill no ogre in 2000 trials: a zero, drawn at the floor.
        assert!(l.series[0].points.iter().any(|p| p.y == 0.0));
        assert!(
            deaths
                .notes
                .iter()
                .any(|n| n.starts_with("Zeros, and bands"))
        );
        // A chart's own range wins, and is said.
        s.charts[1].y_scale = YScale::Linear;
        s.charts[1].y_range = Some((0.0, 1.0));
        let f = figures(&s, 200);
        let fixed = chart(&f, "accidental-deaths");
        assert_eq!(lines(fixed).y_range, Some((0.0, 1.0)));
        assert!(fixed.notes[1].contains("from 0% to 1%"));
    }

    #[test]
    fn legends_read_human_names() {
        let s = shipped("sap-sentry");
        let f = figures(&s, 100);
        let names: Vec<&str> = chart(&f, "ko-by-level").series_names();
        assert_eq!(names[0], "awake guard, attacker Strength 16");
        assert_eq!(names[1], "awake guard, attacker Strength 18/00");
        assert_eq!(lines(chart(&f, "ko-by-level")).x_label, "attacker level");
        assert_eq!(
            lines(chart(&f, "ko-by-level")).y_label,
            "knockout chance (%)"
        );
    }

    #[test]
    fn a_heatmap_scale_runs_over_its_data_unless_the_chart_sets_it() {
        let text = "title = \"Sap grid\"\naction = \"sap\"\ntrials = 300\n[attacker]\nclass = \"fighter\"\nweapon = \"club\"\n[victim]\nclass = \"fighter\"\n[sweep]\n\"attacker.level\" = [1, 5, 9]\n\"victim.state\" = [\"awake\", \"asleep\"]\n[[chart]]\nkind = \"heatmap\"\nx = \"attacker.level\"\ny = \"victim.state\"\nmetric = \"p_knockout\"\n";
        let mut s = Scenario::parse("grid.toml", "grid", text.as_bytes()).unwrap();
        let f = figures(&s, 300);
        let Plot::Heatmap(h) = &f[0].1.plot else {
            panic!()
        };
        let values: Vec<f64> = h.panels[0]
            .1
            .iter()
            .flatten()
            .filter_map(|c| match c {
                Cell::Value(v) => Some(*v),
                Cell::Empty | Cell::Ineligible => None,
            })
            .collect();
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(0.0, f64::max);
        assert_eq!(h.color_range, (lo, hi));
        assert!(hi < 100.0 && lo > 0.0, "{lo} {hi}");
        assert_eq!(h.color_note, "scale: the data's range");
        s.charts[0].color_range = Some((0.0, 100.0));
        let f = figures(&s, 300);
        let Plot::Heatmap(h) = &f[0].1.plot else {
            panic!()
        };
        assert_eq!(
            (h.color_range, h.color_note.as_str()),
            ((0.0, 100.0), "scale: set by the chart")
        );
    }

    #[test]
    fn a_variant_whose_action_lacks_the_metric_is_said() {
        let f = figures(&shipped("sap-or-mug-the-sentry"), 100);
        let ko = chart(&f, "knockout-by-level");
        assert!(
            ko.notes.iter().any(
                |n| n == "Not drawn: strike, whose action (strike) reports no knockout chance."
            ),
            "{:?}",
            ko.notes
        );
        let diff = lines(chart(&f, "mugging-minus-sap"));
        assert_eq!(
            diff.y_label,
            "mugging minus sap: knockout chance (percentage points)"
        );
    }

    #[test]
    fn survival_counts_the_values_above_each_n_with_a_wilson_band() {
        let z = z_for(0.95);
        // Four values: 2, 3, 3, 5.
        let s = survival(&[(2, 1), (3, 2), (5, 1)], z);
        let at: Vec<i64> = s.iter().map(|(n, _)| *n).collect();
        assert_eq!(at, [0, 1, 2, 3, 4, 5]);
        let shares: Vec<f64> = s.iter().map(|(_, e)| e.estimate.unwrap()).collect();
        assert_eq!(shares, [1.0, 1.0, 0.75, 0.25, 0.25, 0.0]);
        assert!(s.iter().all(|(_, e)| e.trials == 4));
        // 3 of 4 at 95%: the Wilson score interval (0.3006, 0.9544), not the normal one (0.33, 1.17).
        let three = s[2].1;
        assert!((three.ci_low.unwrap() - 0.30064).abs() < 1e-4, "{three:?}");
        assert!((three.ci_high.unwrap() - 0.95442).abs() < 1e-4, "{three:?}");
        // All or none: the band reaches the end it sits on.
        assert_eq!((s[0].1.ci_high, s[5].1.ci_low), (Some(1.0), Some(0.0)));
        assert!(s[0].1.ci_low.unwrap() < 1.0 && s[5].1.ci_high.unwrap() > 0.0);
        // A wider confidence, a wider band.
        let wide = survival(&[(2, 1), (3, 2), (5, 1)], z_for(0.99));
        assert!(wide[2].1.ci_low.unwrap() < three.ci_low.unwrap());
        // Values in any order, a value of 0, and zero counts, which are no values.
        let s = survival(&[(1, 3), (0, 1), (4, 0)], z);
        let shares: Vec<(i64, f64)> = s.iter().map(|(n, e)| (*n, e.estimate.unwrap())).collect();
        assert_eq!(shares, [(0, 0.75), (1, 0.0)]);
    }

    #[test]
    fn an_empty_series_has_no_survival() {
        let z = z_for(0.95);
        assert!(survival(&[], z).is_empty());
        assert!(survival(&[(3, 0)], z).is_empty());
    }

    const SURVIVAL: &str = "title = \"Out cold\"\naction = \"mug\"\ntrials = 3000\nseed = 11\n[attacker]\nclass = \"thief\"\nlevel = 9\nweapon = \"club\"\nposition = \"behind\"\n[victim]\nmonster = \"ogre\"\naware = false\n[[variant]]\nname = \"mugging\"\n[[variant]]\nname = \"strike\"\naction = \"strike\"\nattacker = { weapon = \"dagger\" }\n[[chart]]\nkind = \"survival\"\n";

    #[test]
    fn a_survival_chart_draws_one_curve_per_series_from_the_distribution() {
        let s = Scenario::parse("out.toml", "out", SURVIVAL.as_bytes()).unwrap();
        let f = figures(&s, 3000);
        let out = chart(&f, "ko_rounds");
        let l = lines(out);
        assert_eq!(
            (l.x_label.as_str(), l.y_label.as_str()),
            ("N (rounds)", "knockout length above N (%)")
        );
        assert_eq!(
            (l.y_range, l.percent, l.y_log),
            (Some((0.0, 100.0)), true, false)
        );
        // The strike has no knockout: said, not drawn.
        assert_eq!(out.series_names(), ["mugging"]);
        assert!(
            out.notes.contains(
                &"Not drawn: strike, whose action (strike) reports no knockout length.".to_string()
            ),
            "{:?}",
            out.notes
        );
        assert!(
            out.notes[0].contains("bands: 95% Wilson score intervals of that share"),
            "{}",
            out.notes[0]
        );
        assert!(out.notes[0].contains("above N rounds"), "{}", out.notes[0]);
        // 2d8: never below 2, never above 16; the curve falls from 100% to 0%.
        let curve = &l.series[0].points;
        assert_eq!((curve[0].x, curve[0].y, curve[1].y), (0.0, 100.0, 100.0));
        assert_eq!(curve.last().unwrap().y, 0.0);
        assert!(curve.len() <= 17);
        assert!(
            curve
                .windows(2)
                .all(|w| w[1].y <= w[0].y && w[1].x == w[0].x + 1.0)
        );
        assert!(
            curve
                .iter()
                .all(|p| p.low.unwrap() <= p.y && p.y <= p.high.unwrap())
        );
        // The curve is the histogram's counts read another way: the trials it rests on are the knockouts.
        let results = study::run(&s, 3000, &|_| {});
        let counts: Vec<(i64, u64)> =
            metrics::distributions(s.points[0].action, results.tallies[0].as_ref().unwrap())
                .find(|(m, _)| *m == "ko_rounds")
                .unwrap()
                .1
                .iter()
                .collect();
        let knockouts: u64 = counts.iter().map(|(_, c)| c).sum();
        assert!(
            out.notes.contains(&format!(
                "Trials with a knockout length: {}.",
                thousands(knockouts)
            )),
            "{:?}",
            out.notes
        );
        assert_eq!(
            curve[5].y,
            100.0 * survival(&counts, z_for(0.95))[5].1.estimate.unwrap()
        );
    }

    #[test]
    fn a_series_that_never_sees_the_quantity_is_said() {
        // Armor class -20 and no natural 20: the mugging never hits, so no knockout ever lasts.
        let text = SURVIVAL.replace("trials = 3000", "trials = 50").replace(
            "monster = \"ogre\"\naware = false",
            "class = \"fighter\"\nac = -10\nmagic_ac = 10\naware = false",
        ) + "[rules]\nnatural_20_hits = false\n";
        let s = Scenario::parse("none.toml", "none", text.as_bytes()).unwrap();
        let f = figures(&s, 50);
        let none = chart(&f, "ko_rounds");
        assert!(lines(none).series.is_empty());
        assert!(
            none.notes
                .contains(&"Not drawn: mugging, whose trials have no knockout length.".to_string()),
            "{:?}",
            none.notes
        );
    }

    #[test]
    fn a_tune_chart_notes_the_points_that_miss_and_only_those() {
        let s = shipped("sap-or-mug-the-sentry");
        let results = study::run(&s, 4000, &|_| {});
        let summaries = summarize(&s, &results.tallies);
        let mut points = crate::study::tuning::solve(&s, &summaries, 4000, false, &|_| {});
        let tune = &s.tunes[0];
        let f = tune_figure(&s, tune, &points[0], 4000);
        // From level 7 the mugging outdoes the sap at any cap (the scenario's comment says why).
        let missed = "Target not reached at attacker level 7, 10, 13, 16, 19: above every value";
        assert!(
            f.notes.iter().any(|n| n.starts_with(missed)),
            "{:?}",
            f.notes
        );
        assert_eq!(f.notes.len(), 3, "{:?}", f.notes);
        // Every point reached: the two notes of every tune chart, nothing more.
        for point in &mut points[0] {
            point.answer.status = Some(crate::study::tuning::Status::Reached);
        }
        let f = tune_figure(&s, tune, &points[0], 4000);
        assert_eq!(f.notes.len(), 2, "{:?}", f.notes);
        assert!(!f.caption().contains("not reached"));
    }
}
