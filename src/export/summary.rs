//! One summary per point: the metrics of its action with their intervals, or its ineligibility. CSV files,
//! the terminal table and the charts all read these rows, so they cannot disagree.

use crate::rules::action::Action;
use crate::scenario::Scenario;
use crate::scenario::sweep::SweepValue;
use crate::stats::Tally;
use crate::stats::interval::Estimate;
use crate::stats::metrics::{self, MetricValue};

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

/// Summarizes every point of a scenario from its tallies (`None` for ineligible points).
pub fn summarize<'a>(scenario: &'a Scenario, tallies: &[Option<Tally>]) -> Vec<PointSummary<'a>> {
    scenario
        .points
        .iter()
        .zip(tallies)
        .map(|(point, tally)| PointSummary {
            variant: &scenario.variants[point.variant],
            values: &point.values,
            level_gap: point.level_gap,
            action: point.action,
            result: match (&point.prepared, tally) {
                (Ok(p), Some(t)) => Ok(metrics::summarize(p, point.action, t, scenario.confidence)),
                (Err(reason), _) => Err(reason.to_string()),
                (Ok(_), None) => Err("not run".to_string()),
            },
        })
        .collect()
}
