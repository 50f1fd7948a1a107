//! `[[tune]]`: solve for the value of one parameter (a rule switch or a combatant field) that brings a metric
//! to a target, or to another variant's value of it, at every point of the sweep.
//!
//! Every candidate value is resolved and validated with the scenario, before anything runs, exactly as a
//! sweep value would be; the search itself lives with the study (`study::tuning`).

use serde::Deserialize;

use crate::rules::Ineligible;
use crate::rules::action::{Action, Recipe};
use crate::scenario::sweep::SweepValue;
use crate::stats::paired::Comparison;

/// A `[[tune]]` table as written.
#[derive(Debug, Clone, PartialEq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TuneSpec {
    /// The tune's name in tune.csv and its chart's file (default: the parameter's last part).
    pub name: Option<String>,
    /// The number solved for: a `rules.*` switch or a numeric combatant field, such as
    /// `rules.sap_helpless_ko_cap` or `attacker.level`. It must not also be a sweep path.
    pub parameter: String,
    /// The candidate values: `{ from, to, step }`, `to` included.
    #[schemars(schema_with = "crate::scenario::schema::range_table")]
    pub range: toml::Table,
    /// The metric brought to the target.
    pub metric: String,
    /// The value the metric should reach (a probability as a fraction, such as 0.5).
    pub target: Option<f64>,
    /// Or: the variant whose value of the metric (at the same point, on the same dice) it should reach.
    #[serde(rename = "match")]
    pub match_variant: Option<String>,
    /// The matched variant's metric, when its action names it differently (default: `metric`).
    pub match_metric: Option<String>,
    /// The variant whose parameter is tuned (default: the baseline, or the first other variant when the
    /// baseline is the one matched).
    pub variant: Option<String>,
    /// Sweep values held fixed for this tune: `at = { "attacker.level" = 9 }`.
    #[serde(default)]
    #[schemars(schema_with = "crate::scenario::schema::at_table")]
    pub at: Option<toml::Table>,
}

/// What the metric is brought to.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// A fixed number.
    Value(f64),
    /// Another variant's value at the same point: the candidate's paired difference with it is brought
    /// to 0.
    Variant {
        /// Index into the scenario's variants.
        variant: usize,
        /// The candidate's metric against the matched variant's.
        comparison: Comparison,
    },
}

/// One point of the other sweep axes: every candidate value resolved there.
#[derive(Debug, Clone, PartialEq)]
pub struct TuneRow {
    /// The sweep point's index in the variant's grid.
    pub grid_point: usize,
    /// The candidates, one per value of the range.
    pub candidates: Vec<Result<Recipe, Ineligible>>,
}

/// A checked tune.
#[derive(Debug, Clone, PartialEq)]
pub struct Tune {
    /// Its name (the `tune` column).
    pub name: String,
    /// The parameter's path.
    pub parameter: String,
    /// The candidate values, ascending as written.
    pub values: Vec<SweepValue>,
    /// The metric.
    pub metric: &'static str,
    /// The tuned variant.
    pub variant: usize,
    /// Its action.
    pub action: Action,
    /// What the metric is brought to.
    pub target: Target,
    /// One row per sweep point (after `at`).
    pub rows: Vec<TuneRow>,
}
