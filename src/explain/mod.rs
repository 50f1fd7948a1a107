//! `subdual explain`: one trial of a study, re-rolled from its own stream and told die by die
//! (docs/scenarios.md "Explain").
//!
//! A designer trusts a number he can follow. Every variant and sweep point rolls the dice of trial t from
//! the same stream, so one trial can be replayed anywhere in the study, and under two rules side by side
//! to see where they part. The story is not a second implementation of the rules: the trial runs through
//! the engine's own trial loop ([`metrics::each_trial`]) and the resolvers a run uses, on a
//! [`Recording`] of the engine's stream for that trial. The rules add their words only when the roller
//! narrates, so the story is the trial, and a test holds the told outcome to the engine's field by field.

pub mod render;

use crate::dice::{Event, Narrator, Recording, Roller};
use crate::engine::{self, TrialStreams};
use crate::rules::action::{Action, Prepared};
use crate::rules::maneuver::Source;
use crate::scenario::{Point, Scenario};
use crate::stats::Tally;
use crate::stats::metrics::{self, TrialDice, summary_table};
use crate::suggest;

pub use render::{Format, render};

/// Why a trial cannot be told: each names what was asked and what the scenario offers.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExplainError {
    /// No variant of that name.
    #[error("`{name}` is not a variant of {file}: it has {}{}", .variants.join(", "), hint(.suggestion))]
    UnknownVariant {
        /// The scenario file.
        file: String,
        /// The name asked for.
        name: String,
        /// The variants the file has.
        variants: Vec<String>,
        /// The closest name, if one is close.
        suggestion: Option<String>,
    },
    /// `--point` named no sweep axis.
    #[error("`{path}` is not a sweep path of {file}: {}{}", axes_words(.axes), hint(.suggestion))]
    UnknownAxis {
        /// The scenario file.
        file: String,
        /// The path asked for.
        path: String,
        /// The file's sweep paths.
        axes: Vec<String>,
        /// The closest path, if one is close.
        suggestion: Option<String>,
    },
    /// `--point` gave a value the axis does not take.
    #[error("`{value}` is not a value of `{path}`: it takes {}{}", .values.join(", "), hint(.suggestion))]
    UnknownValue {
        /// The path.
        path: String,
        /// The value asked for.
        value: String,
        /// The values the axis takes.
        values: Vec<String>,
        /// The closest value, if one is close.
        suggestion: Option<String>,
    },
    /// `--point` not written `PATH=VALUE`.
    #[error("`--point {0}` is not PATH=VALUE, such as `--point attacker.level=5`")]
    PointSyntax(String),
    /// The rules forbid the action at that point.
    #[error("the point is ineligible, so it has no trial to tell: {0}")]
    Ineligible(String),
    /// A trial index beyond the streams.
    #[error("trial {trial} is beyond the last trial a point may run ({})", engine::MAX_TRIALS - 1)]
    TrialOutOfRange {
        /// The index asked for.
        trial: u64,
    },
}

fn hint(suggestion: &Option<String>) -> String {
    suggestion
        .as_ref()
        .map_or_else(String::new, |s| format!(" (did you mean `{s}`?)"))
}

fn axes_words(axes: &[String]) -> String {
    if axes.is_empty() {
        "the file sweeps nothing, so leave `--point` out".to_string()
    } else {
        format!("it sweeps {}", axes.join(", "))
    }
}

/// One trial of one point, told.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Story {
    /// The scenario file.
    pub scenario: String,
    /// The variant's name.
    pub variant: String,
    /// The point's value of every sweep axis.
    pub point: Vec<Pair>,
    /// The action.
    pub action: String,
    /// The seed.
    pub seed: u64,
    /// The trial's index.
    pub trial: u64,
    /// What happened, in order.
    pub events: Vec<Event>,
    /// The outcome in the metrics' own words, in the action's metric order.
    pub outcome: Vec<Pair>,
}

/// A name and its value in words: a sweep path and its value, a metric and what the trial gave it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Pair {
    /// The name.
    pub name: String,
    /// The value.
    pub value: String,
}

/// The index into [`Scenario::points`] of variant `variant` (the baseline when `None`) at the sweep values
/// `point` gives (`PATH=VALUE` each; an axis not given takes its first value).
pub fn select(
    scenario: &Scenario,
    variant: Option<&str>,
    point: &[String],
) -> Result<usize, ExplainError> {
    let v = match variant {
        None => scenario.baseline,
        Some(name) => scenario
            .variants
            .iter()
            .position(|v| v == name)
            .ok_or_else(|| ExplainError::UnknownVariant {
                file: scenario.file.clone(),
                name: name.to_string(),
                variants: scenario.variants.clone(),
                suggestion: suggest::closest(name, scenario.variants.iter().map(String::as_str))
                    .map(str::to_string),
            })?,
    };
    let mut chosen = vec![0usize; scenario.axes.len()];
    for given in point {
        let (path, value) = given
            .split_once('=')
            .map(|(p, v)| (p.trim(), v.trim()))
            .ok_or_else(|| ExplainError::PointSyntax(given.clone()))?;
        let paths: Vec<String> = scenario.axes.iter().map(|a| a.path.clone()).collect();
        let a = scenario
            .axes
            .iter()
            .position(|axis| axis.path == path)
            .ok_or_else(|| ExplainError::UnknownAxis {
                file: scenario.file.clone(),
                path: path.to_string(),
                suggestion: suggest::closest(path, paths.iter().map(String::as_str))
                    .map(str::to_string),
                axes: paths.clone(),
            })?;
        let values: Vec<String> = scenario.axes[a]
            .values
            .iter()
            .map(ToString::to_string)
            .collect();
        chosen[a] =
            values
                .iter()
                .position(|v| v == value)
                .ok_or_else(|| ExplainError::UnknownValue {
                    path: path.to_string(),
                    value: value.to_string(),
                    suggestion: suggest::closest(value, values.iter().map(String::as_str))
                        .map(str::to_string),
                    values: values.clone(),
                })?;
    }
    Ok(scenario.point_index(v, &chosen))
}

/// The dice of one trial, recorded: each face of the roller written down.
struct Told<R>(Recording<R>);

impl<R: Roller> TrialDice for Told<R> {
    type Roller = Recording<R>;
    fn next_trial(&mut self) -> &mut Recording<R> {
        &mut self.0
    }
}

/// The outcome of trial `trial` as the engine counts it: its own trial loop on its own streams.
pub fn engine_outcome(p: &Prepared, seed: u64, trial: u64) -> Tally {
    let mut tally = metrics::empty_tally(p);
    tally.trials = 1;
    metrics::each_trial(p, 1, &mut TrialStreams::new(seed, trial), &mut tally);
    tally
}

/// Trial `trial` of a prepared point, told: its events, and its outcome counted as the engine counts it.
pub fn tell_prepared(p: &Prepared, seed: u64, trial: u64) -> (Vec<Event>, Tally) {
    tell_on(p, engine::trial_dice(seed, trial))
}

/// One trial of a prepared point on `dice`, told (a test scripts the faces).
pub(crate) fn tell_on<R: Roller>(p: &Prepared, dice: R) -> (Vec<Event>, Tally) {
    let narrator = Narrator::new();
    let mut dice = Told(Recording::new(dice, narrator.clone()));
    let mut tally = metrics::empty_tally(p);
    tally.trials = 1;
    metrics::each_trial(p, 1, &mut dice, &mut tally);
    (narrator.events(), tally)
}

/// Trial `trial` of point `index` of `scenario`, told.
pub fn tell(scenario: &Scenario, index: usize, trial: u64) -> Result<Story, ExplainError> {
    if trial >= engine::MAX_TRIALS {
        return Err(ExplainError::TrialOutOfRange { trial });
    }
    let point: &Point = &scenario.points[index];
    let prepared = point
        .prepare()
        .map_err(|why| ExplainError::Ineligible(why.to_string()))?;
    let (events, tally) = tell_prepared(&prepared, scenario.seed, trial);
    Ok(Story {
        scenario: scenario.file.clone(),
        variant: scenario.variants[point.variant].clone(),
        point: scenario
            .axes
            .iter()
            .zip(&point.values)
            .map(|(axis, value)| Pair {
                name: axis.path.clone(),
                value: value.to_string(),
            })
            .collect(),
        action: point.action.name().to_string(),
        seed: scenario.seed,
        trial,
        events,
        outcome: outcome_words(point.action, &prepared, &tally),
    })
}

/// One trial's outcome in the metrics' own words: a probability's event `yes` or `no`, a share's `yes`,
/// `no` or `-` when its condition did not hold, a mean's value or `-` when the quantity did not exist,
/// a fixed number's value.
pub fn outcome_words(action: Action, p: &Prepared, tally: &Tally) -> Vec<Pair> {
    let yes = |c: usize| if tally.counts[c] > 0 { "yes" } else { "no" }.to_string();
    let value = |h: usize| tally.hists[h].iter().find(|&(_, n)| n > 0).map(|(v, _)| v);
    let none = || "-".to_string();
    summary_table(action)
        .iter()
        .map(|&(metric, source)| {
            let words = match source {
                Source::Count(c) => yes(c.0),
                Source::Given { count, among } => {
                    if tally.counts[among.0] > 0 {
                        yes(count.0)
                    } else {
                        none()
                    }
                }
                Source::Mean(h) | Source::ContestRolls(h) => {
                    value(h.0).map_or_else(none, |v| v.to_string())
                }
                Source::RealPart(h) => {
                    value(h.0).map_or_else(none, |v| metrics::split(p, v).0.to_string())
                }
                Source::TemporaryPart(h) => {
                    value(h.0).map_or_else(none, |v| metrics::split(p, v).1.to_string())
                }
                Source::SaveNeeded
                | Source::MonsterStrength
                | Source::GrabberStrength
                | Source::VictimStrength
                | Source::RollNeeded => source
                    .fixed(&p.fixed())
                    .map_or_else(none, |v| v.to_string()),
            };
            Pair {
                name: metric.to_string(),
                value: words,
            }
        })
        .collect()
}

/// The first event where two stories of the same trial part (the shorter's length when one is the
/// other's beginning; `None` when they are the same throughout).
pub fn parting(a: &[Event], b: &[Event]) -> Option<usize> {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => Some(i),
        None if a.len() == b.len() => None,
        None => Some(a.len().min(b.len())),
    }
}

#[cfg(test)]
mod tests;
