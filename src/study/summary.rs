//! One summary per point: the metrics of its action with their intervals, or its ineligibility; and one
//! line per tune and point. CSV files, the terminal table, the charts and the report all read these rows,
//! so they cannot disagree.

use crate::rules::action::Action;
use crate::scenario::Scenario;
use crate::scenario::sweep::SweepValue;
use crate::scenario::tune::Tune;
use crate::stats::Tally;
use crate::stats::interval::Estimate;
use crate::stats::metrics::{self, MetricValue};
use crate::study::tuning::{Status, TunePoint};

/// The summary of one point.
#[derive(Debug, Clone, PartialEq)]
pub struct PointSummary<'a> {
    /// The variant's name.
    pub variant: &'a str,
    /// The sweep values.
    pub values: &'a [SweepValue],
    /// Attacker level minus victim level.
    pub level_gap: i32,
    /// The variant's action.
    pub action: Action,
    /// The metrics, or the reason the point did not run.
    pub result: Result<Vec<MetricValue>, String>,
}

impl PointSummary<'_> {
    /// The estimate of one metric, if the point ran.
    pub fn metric(&self, name: &str) -> Option<Estimate> {
        self.result
            .as_ref()
            .ok()?
            .iter()
            .find(|m| m.metric == name)
            .map(|m| m.value)
    }
}

/// Summarizes every point of a scenario from its tallies (`None` for ineligible points), in order.
pub fn summarize<'a>(scenario: &'a Scenario, tallies: &[Option<Tally>]) -> Vec<PointSummary<'a>> {
    (0..scenario.points.len())
        .map(|i| summary_of(scenario, i, tallies[i].as_ref()))
        .collect()
}

/// The summary of point `index` from its tally (`None` when it did not run). A point whose metrics read a
/// fact of its action is prepared again for it, and dropped ([`Point::facts`](crate::scenario::Point::facts)).
pub fn summary_of<'a>(
    scenario: &'a Scenario,
    index: usize,
    tally: Option<&Tally>,
) -> PointSummary<'a> {
    let point = &scenario.points[index];
    PointSummary {
        variant: &scenario.variants[point.variant],
        values: &point.values,
        level_gap: point.level_gap,
        action: point.action,
        result: match (point.facts(), tally) {
            (Ok(p), Some(t)) => Ok(metrics::summarize(&p, point.action, t, scenario.confidence)),
            (Err(reason), _) => Err(reason.to_string()),
            (Ok(_), None) => Err("not run".to_string()),
        },
    }
}

/// A tune's answer at one sweep point, as tune.csv and the report give it.
#[derive(Debug, Clone, PartialEq)]
pub struct TuneLine<'a> {
    /// The tune.
    pub tune: &'a Tune,
    /// The sweep values of the point.
    pub values: Vec<&'a SweepValue>,
    /// The target there (the matched variant's estimate, for a match).
    pub target: Option<f64>,
    /// The value closest to the target and the metric there, if any candidate has a value.
    pub best: Option<(&'a SweepValue, Estimate)>,
    /// The values whose interval holds the target, ascending.
    pub consistent: Vec<&'a SweepValue>,
    /// Whether the evaluated estimates were monotone in the parameter.
    pub monotone: bool,
    /// How many values were evaluated.
    pub evaluations: usize,
    /// Whether the best value reached the target, or why there is no best value (`ineligible: ...`).
    pub status: Result<Status, String>,
    /// The exact best value and the exact metric there (`--exact`, single actions).
    pub exact: Option<(&'a SweepValue, f64)>,
}

/// Every tune's line at every point, tunes in file order.
pub fn tune_lines<'a>(scenario: &'a Scenario, solved: &[Vec<TunePoint>]) -> Vec<TuneLine<'a>> {
    let mut lines = Vec::new();
    for (tune, points) in scenario.tunes.iter().zip(solved) {
        for point in points {
            let row = &tune.rows[point.row];
            let best = point
                .answer
                .best
                .and_then(|k| point.evaluated.get(&k).map(|e| (k, e)));
            let status = match (best, point.answer.status) {
                (Some(_), Some(status)) => Ok(status),
                (Some(_), None) => Err("no interval at the best value".to_string()),
                (None, _) => Err(row
                    .candidates
                    .iter()
                    .find_map(|c| c.as_ref().err())
                    .map_or("no candidate has a value".to_string(), |r| {
                        format!("ineligible: {r}")
                    })),
            };
            lines.push(TuneLine {
                tune,
                values: scenario.grid_values(row.grid_point),
                target: best
                    .and_then(|(_, e)| e.target)
                    .or_else(|| point.evaluated.values().find_map(|e| e.target)),
                best: best.map(|(k, e)| (&tune.values[k], e.value)),
                consistent: match best {
                    Some(_) => point
                        .answer
                        .consistent
                        .iter()
                        .map(|k| &tune.values[*k])
                        .collect(),
                    None => Vec::new(),
                },
                monotone: point.answer.monotone,
                evaluations: point.answer.evaluations,
                status,
                exact: point.exact.map(|(k, v)| (&tune.values[k], v)),
            });
        }
    }
    lines
}

impl TuneLine<'_> {
    /// The status as tune.csv writes it: the status's name, or the reason there is no best value.
    pub fn status_name(&self) -> &str {
        match &self.status {
            Ok(status) => status.name(),
            Err(reason) => reason,
        }
    }

    /// The status for people: the status in words, or the reason there is no best value.
    pub fn status_words(&self) -> &str {
        match &self.status {
            Ok(status) => status.words(),
            Err(reason) => reason,
        }
    }
}
