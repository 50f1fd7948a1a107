//! `subdual exact`: the exact value of every summary metric and distribution of single-action and one-on-one
//! fight studies, added to their folders as exact.csv and exact-distributions.csv (and exact-differences.csv,
//! exact-tune.csv). A run's report.html is kept as it was: it
//! shows one run's tallies and differences, which this command does not have; `run --exact` writes a
//! report with exact values (docs/scenarios.md "Outputs").

use std::path::{Path, PathBuf};

use crate::export::manifest::RunInfo;
use crate::export::write::write_study;
use crate::export::{self, EXACT_EXPORTERS, StudyResults};
use crate::scenario::{Point, Scenario};
use crate::study::{self, PointSummary, tune_lines, tuning};

use super::{RunError, Started, point_label, without_exact};

/// Refuses fights and points without an exact value, in every file before any is computed (one refused
/// point, nothing is computed); returns the warnings of tunes whose candidates are left out.
pub fn check(scenarios: &[Scenario]) -> Result<Vec<String>, RunError> {
    let mut tune_warnings = Vec::new();
    for scenario in scenarios {
        let (points, tunes) = without_exact(scenario);
        if let Some(refused) = points.first() {
            return Err(RunError::Arguments(format!(
                "{refused}; run it without `exact`"
            )));
        }
        tune_warnings.extend(tunes);
    }
    Ok(tune_warnings)
}

/// What `exact` wrote of one study.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactWritten {
    /// Its exact.csv.
    pub path: PathBuf,
    /// Seconds it took.
    pub seconds: f64,
}

/// Computes the exact values of one study ([`check`]ed) and adds their files to its folder in `out`.
pub fn exact(scenario: &Scenario, out: &Path) -> Result<ExactWritten, RunError> {
    let started = Started::now();
    // A point after a refused one is skipped: the refused point named is the first in order.
    let eligible: Vec<bool> = scenario.points.iter().map(Point::eligible).collect();
    let exact = super::exact_points(scenario, &eligible, true, &|| {});
    let mut summaries: Vec<PointSummary<'_>> = Vec::with_capacity(scenario.points.len());
    let mut distributions = Vec::with_capacity(scenario.points.len());
    for (point, exact) in scenario.points.iter().zip(exact) {
        let result = match (&point.recipe, exact) {
            (Err(reason), _) => {
                distributions.push(None);
                Err(reason.to_string())
            }
            // Skipped only after a refused point, which returned below.
            (Ok(_), None) => continue,
            (Ok(_), Some(Err(why))) => {
                return Err(RunError::Arguments(format!(
                    "{}: no exact value: {why}; run it without `exact`",
                    point_label(scenario, point)
                )));
            }
            (Ok(_), Some(Ok(exact))) => {
                distributions.push(Some(exact.distributions));
                Ok(exact.metrics)
            }
        };
        summaries.push(PointSummary {
            variant: &scenario.variants[point.variant],
            values: &point.values,
            level_gap: point.level_gap,
            action: point.action,
            result,
        });
    }
    let differences = if scenario.variants.len() > 1 {
        study::exact_differences(scenario, &summaries)
    } else {
        Vec::new()
    };
    let solved = if scenario.tunes.is_empty() {
        Vec::new()
    } else {
        tuning::solve_exact(scenario)
    };
    let lines = tune_lines(scenario, &solved);
    let rows = study::Rows::held(scenario, summaries, differences);
    let study = StudyResults {
        scenario,
        trials: scenario.trials,
        rows: &rows,
        // Nothing was run: no trial to name.
        flips: &[],
        exemplars: &[],
        tuned: &solved,
        tunes: &lines,
        charts: None,
        run: &RunInfo::default(),
        // The exact values are the estimates here: no column of their own.
        exact: false,
        exact_distributions: &distributions,
    };
    let dir = write_study(out, &scenario.stem, true, &mut |destination| {
        export::make(&study, &EXACT_EXPORTERS, destination)
    })
    .map_err(|e| super::not_written(out, scenario, e))?;
    Ok(ExactWritten {
        path: dir.join("exact.csv"),
        seconds: started.seconds(),
    })
}

/// What the exact values of one study would take (`check --exact`): the most paths of dice a single-action
/// point walks and the most states a fight's chain meets, or the first point that has none and why.
pub fn needs(scenario: &Scenario) -> String {
    let started = Started::now();
    let (mut paths, mut states, mut points) = (0u128, 0usize, 0usize);
    for point in &scenario.points {
        let Ok(p) = &point.prepare() else { continue };
        let why = match &**p {
            crate::rules::action::Prepared::Fight(plan) => {
                crate::stats::exact::exact_fight(plan, point.action).map(|(_, size)| {
                    states = states.max(size.states);
                })
            }
            _ => crate::stats::exact::check(p).map(|counted| {
                paths = paths.max(counted.count);
            }),
        };
        if let Err(why) = why {
            return format!("none: {}: {why}", point_label(scenario, point));
        }
        points += 1;
    }
    let mut parts = vec![format!("{points} points")];
    if paths > 0 {
        parts.push(format!("at most {paths} paths of dice a point"));
    }
    if states > 0 {
        parts.push(format!(
            "at most {states} fight states a point (the bound is {})",
            crate::rules::fight::MAX_EXACT_STATES
        ));
    }
    parts.push(format!("{:.1} s to find", started.seconds()));
    parts.join(", ")
}
