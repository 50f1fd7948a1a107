//! `[[chart]]` requests: parsed with the scenario and checked against its metrics and sweep paths before
//! anything runs, so a typo in a chart never costs a long run.

use serde::Deserialize;

use crate::rules::action::Action;
use crate::scenario::Axis;
use crate::scenario::sweep::SweepValue;
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
}

/// A `[[chart]]` table as written.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChartSpec {
    /// Output name without extension (default: the metric's name).
    pub file: Option<String>,
    /// line (default): a metric with its confidence band; heatmap: a metric over two sweep paths;
    /// histogram: one distribution per series; difference: a metric's difference against the baseline.
    pub kind: Option<ChartKind>,
    /// The horizontal axis: a sweep path or `level_gap` (default: the first sweep axis; none for a
    /// histogram).
    pub x: Option<String>,
    /// The metric drawn (line; default the headline), the distribution (histogram), or the vertical sweep
    /// path (heatmap).
    pub y: Option<String>,
    /// The heatmap's metric (default: the headline metric).
    pub metric: Option<String>,
    /// What separates the lines: `variant` (default) or a sweep path.
    pub series: Option<String>,
    /// A title above the chart (default: the scenario's title).
    pub title: Option<String>,
    /// Sweep values held fixed for this chart: `at = { "attacker.level" = 9 }`.
    #[serde(default)]
    #[schemars(schema_with = "crate::scenario::schema::at_table")]
    pub at: Option<toml::Table>,
}

/// A checked chart request.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// Output name without extension.
    pub file: String,
    /// The kind.
    pub kind: ChartKind,
    /// Horizontal axis: a sweep path or `level_gap` (empty for histograms).
    pub x: String,
    /// Vertical sweep path of a heatmap.
    pub y_path: Option<String>,
    /// The metric (or distribution) drawn.
    pub metric: String,
    /// `variant` or a sweep path.
    pub series: String,
    /// Title.
    pub title: String,
    /// Sweep values held fixed: only the points with these values are drawn.
    pub at: Vec<(String, SweepValue)>,
}

/// The most lines (or bars per value, or heatmap panels) a chart draws before it stops being readable.
pub const MAX_SERIES: [(ChartKind, usize); 4] = [
    (ChartKind::Line, 8),
    (ChartKind::Difference, 8),
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
            ChartKind::Line | ChartKind::Heatmap | ChartKind::Histogram => variants,
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
        let chart = Chart {
            file: self.file.clone().unwrap_or_else(|| metric.clone()),
            kind,
            x,
            y_path,
            metric,
            series,
            title: self.title.clone().unwrap_or_else(|| title.to_string()),
            at,
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
    fn without_a_sweep_there_is_no_default_line_chart() {
        assert!(default_chart(&[Action::Mug], &[], 1, "T").is_none());
        assert!(default_chart(&[Action::Mug], &paths(&["attacker.level"]), 1, "T").is_some());
    }
}
