//! A study's rows as its files read them: one summary per point, and the differences from the baseline,
//! made from the run's tallies each time they are walked rather than held. Why: a study of 100,000 points
//! has 100,000 summaries and some 850,000 differences, some 270 MB of rows, while the tallies they are made
//! from are held anyway (docs/scenarios.md "Limits"). Each file, the report and the terminal walk them once
//! or twice, which costs a fraction of the trials. Holm's adjustment needs every p-value before its first
//! row, so it is worked out once and two numbers a row are kept.

use crate::rules::action::Action;
use crate::scenario::Scenario;
use crate::stats::Tally;
use crate::stats::metrics::{self, MetricValue};
use crate::stats::paired;

use super::{DifferenceRow, PointSummary, Results};

/// The rows of one study.
#[derive(Debug, Clone)]
pub struct Rows<'s> {
    scenario: &'s Scenario,
    made: Made<'s>,
}

#[derive(Debug, Clone)]
enum Made<'s> {
    /// From a run's tallies (`run`, `merge`).
    Tallied {
        results: Results,
        /// Per point, the exact value of each summary metric in its table's order (`run --exact`); empty
        /// when none was computed.
        exact: Vec<Option<Vec<Option<f64>>>>,
        /// Per row of differences, in order: Holm's adjustment.
        judged: Vec<Judged>,
    },
    /// Held as made elsewhere (`exact`, which has no tallies).
    Held {
        summaries: Vec<PointSummary<'s>>,
        differences: Vec<DifferenceRow<'s>>,
    },
}

/// The exact values of `exact` (a point's metrics as the exact engine gives them) in the order of
/// `action`'s summary table, as [`Rows::tallied`] takes them; `None` for a metric without one.
pub fn in_table_order(action: Action, exact: &[MetricValue]) -> Vec<Option<f64>> {
    metrics::summary_table(action)
        .iter()
        .map(|&(metric, _)| {
            exact
                .iter()
                .find(|e| e.metric == metric)
                .and_then(|e| e.exact)
        })
        .collect()
}

/// Holm's adjustment of every row of differences of a run, as [`Rows`] keeps it.
#[derive(Debug, Clone)]
pub struct Judgement(Vec<Judged>);

impl Judgement {
    /// Holm's adjustment of the differences of `results`. Why apart from [`Rows::tallied`]: working it
    /// out takes some 40 bytes a row for a moment (the p-values and their ranks), and a run does it before
    /// it makes its flips and exemplars, so that they take the room it gives back.
    pub fn of(scenario: &Scenario, results: &Results) -> Judgement {
        let mut p: Vec<Option<f64>> = Vec::with_capacity(super::most_rows(scenario));
        p.extend(
            super::differences_of(scenario, results)
                .map(|r| r.result.as_ref().ok().and_then(|d| d.p_value)),
        );
        let none = Judged {
            p_adjusted: f64::NAN,
            level: f64::NAN,
        };
        let mut judged = vec![none; p.len()];
        paired::holm_walk(&p, 1.0 - scenario.confidence, |i, p_adjusted, level| {
            judged[i] = Judged { p_adjusted, level };
        });
        Judgement(judged)
    }
}

/// A row's adjusted p-value and the error level of its simultaneous interval, NaN for none: neither is
/// ever NaN itself (Holm's adjusted p-values are capped at 1 and its levels are α over a count), and two
/// `f64`s are half the room of two `Option<f64>`s.
#[derive(Debug, Clone, Copy)]
struct Judged {
    p_adjusted: f64,
    level: f64,
}

fn some(x: f64) -> Option<f64> {
    (!x.is_nan()).then_some(x)
}

impl<'s> Rows<'s> {
    /// The rows of a run's `results`, with the exact values of its points when they were computed (per
    /// point, in its summary table's order; empty for none).
    pub fn tallied(
        scenario: &'s Scenario,
        results: Results,
        exact: Vec<Option<Vec<Option<f64>>>>,
    ) -> Rows<'s> {
        let judgement = Judgement::of(scenario, &results);
        Rows::judged(scenario, results, exact, judgement)
    }

    /// As [`Rows::tallied`], with Holm's adjustment of `results` worked out before
    /// ([`Judgement::of`]).
    pub fn judged(
        scenario: &'s Scenario,
        results: Results,
        exact: Vec<Option<Vec<Option<f64>>>>,
        judgement: Judgement,
    ) -> Rows<'s> {
        debug_assert_eq!(
            judgement.0.len(),
            super::differences_of(scenario, &results).count(),
            "one judgement a row"
        );
        Rows {
            scenario,
            made: Made::Tallied {
                results,
                exact,
                judged: judgement.0,
            },
        }
    }

    /// Rows made elsewhere, held as given.
    pub fn held(
        scenario: &'s Scenario,
        summaries: Vec<PointSummary<'s>>,
        differences: Vec<DifferenceRow<'s>>,
    ) -> Rows<'s> {
        Rows {
            scenario,
            made: Made::Held {
                summaries,
                differences,
            },
        }
    }

    /// The tallies, one per point (`None` for an ineligible point); none for rows held.
    pub fn tallies(&self) -> &[Option<Tally>] {
        match &self.made {
            Made::Tallied { results, .. } => &results.tallies,
            Made::Held { .. } => &[],
        }
    }

    /// The number of summaries: one per point.
    pub fn points(&self) -> usize {
        match &self.made {
            Made::Tallied { .. } => self.scenario.points.len(),
            Made::Held { summaries, .. } => summaries.len(),
        }
    }

    /// The summary of point `index`.
    pub fn summary(&self, index: usize) -> PointSummary<'s> {
        match &self.made {
            Made::Tallied { results, exact, .. } => {
                let mut summary = super::summary::summary_of(
                    self.scenario,
                    index,
                    results.tallies[index].as_ref(),
                );
                if let (Ok(metrics), Some(Some(exact))) = (&mut summary.result, exact.get(index)) {
                    for (m, x) in metrics.iter_mut().zip(exact) {
                        m.exact = *x;
                    }
                }
                summary
            }
            Made::Held { summaries, .. } => summaries[index].clone(),
        }
    }

    /// Every summary, in the scenario's order.
    pub fn summaries(&self) -> impl Iterator<Item = PointSummary<'s>> + '_ {
        (0..self.points()).map(|i| self.summary(i))
    }

    /// The number of rows of differences.
    pub fn difference_count(&self) -> usize {
        match &self.made {
            Made::Tallied { judged, .. } => judged.len(),
            Made::Held { differences, .. } => differences.len(),
        }
    }

    /// Every row of differences, in differences.csv's order, judged over all of them.
    pub fn differences(&self) -> Box<dyn Iterator<Item = DifferenceRow<'s>> + '_> {
        match &self.made {
            Made::Tallied {
                results,
                exact,
                judged,
            } => Box::new(
                super::differences_of(self.scenario, results)
                    .zip(judged)
                    .map(move |(mut row, j)| {
                        super::judge_row(&mut row, some(j.p_adjusted), some(j.level));
                        if !exact.is_empty() {
                            row.exact = super::exact_difference(&row, |index, metric| {
                                self.exact_of(exact, index, metric)
                            });
                        }
                        row
                    }),
            ),
            Made::Held { differences, .. } => Box::new(differences.iter().cloned()),
        }
    }

    /// The exact value of `metric` at point `index`, when it was computed.
    fn exact_of(
        &self,
        exact: &[Option<Vec<Option<f64>>>],
        index: usize,
        metric: &str,
    ) -> Option<f64> {
        let table = metrics::summary_table(self.scenario.points[index].action);
        let at = table.iter().position(|&(m, _)| m == metric)?;
        *exact.get(index)?.as_ref()?.get(at)?
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::study::{self, summarize};

    /// Every shipped study.
    pub(crate) const SHIPPED: [(&str, &str); 12] = [
        (
            "a",
            include_str!("../../scenarios/brawl-vs-armed-guard.toml"),
        ),
        ("b", include_str!("../../scenarios/grab-monster-size.toml")),
        ("c", include_str!("../../scenarios/grab-person-hands.toml")),
        ("d", include_str!("../../scenarios/grab-the-sword.toml")),
        (
            "e",
            include_str!("../../scenarios/mugging-halfling-reach.toml"),
        ),
        ("f", include_str!("../../scenarios/mugging-level-gap.toml")),
        (
            "g",
            include_str!("../../scenarios/sap-or-mug-the-sentry.toml"),
        ),
        ("h", include_str!("../../scenarios/sap-sentry.toml")),
        (
            "i",
            include_str!("../../scenarios/strike-flat-of-the-blade.toml"),
        ),
        ("j", include_str!("../../scenarios/subdue-ogre.toml")),
        (
            "k",
            include_str!("../../scenarios/take-the-sentry-alive.toml"),
        ),
        ("l", include_str!("../../scenarios/thugs-on-a-guard.toml")),
    ];

    fn parsed(name: &str, text: &str) -> Scenario {
        Scenario::parse(&format!("{name}.toml"), name, text.as_bytes()).expect("valid")
    }

    #[test]
    fn rows_made_as_they_are_read_are_the_rows_made_at_once() {
        let (mut compared, mut adjusted) = (0, 0);
        for (name, text) in SHIPPED {
            let s = parsed(name, text);
            let results = study::run(&s, 200, &|_| {});
            let summaries = summarize(&s, &results.tallies);
            let differences = study::differences(&s, &results);
            let rows = Rows::tallied(&s, results.clone(), Vec::new());
            assert_eq!(rows.points(), s.points.len(), "{name}");
            assert_eq!(rows.summaries().collect::<Vec<_>>(), summaries, "{name}");
            assert_eq!(rows.difference_count(), differences.len(), "{name}");
            assert_eq!(
                rows.differences().collect::<Vec<_>>(),
                differences,
                "{name}"
            );
            assert_eq!(rows.tallies(), &results.tallies[..], "{name}");
            compared += differences.len();
            adjusted += differences
                .iter()
                .filter(|d| d.p_adjusted.is_some())
                .count();
            // Held rows read back as given.
            let held = Rows::held(&s, summaries.clone(), differences.clone());
            assert_eq!(held.summaries().collect::<Vec<_>>(), summaries, "{name}");
            assert_eq!(
                held.differences().collect::<Vec<_>>(),
                differences,
                "{name}"
            );
            assert!(held.tallies().is_empty());
        }
        // Differences with and without a p-value, so both ends of the NaN encoding are read back.
        assert!(compared > 1000, "{compared}");
        assert!(
            adjusted > 0 && adjusted < compared,
            "{adjusted} of {compared}"
        );
    }

    #[test]
    fn exact_values_given_by_point_land_in_their_metrics_and_differences() {
        // Sap against mugging (SHIPPED[6]) pairs metrics of two actions.
        for (name, text) in [SHIPPED[5], SHIPPED[6], SHIPPED[7], SHIPPED[8]] {
            let s = parsed(name, text);
            let results = study::run(&s, 200, &|_| {});
            // As `run --exact` kept them before rows were made as read: in every metric, found by name.
            let mut summaries = summarize(&s, &results.tallies);
            let mut exact = Vec::new();
            for (point, summary) in s.points.iter().zip(summaries.iter_mut()) {
                let (Ok(p), Ok(metrics)) = (point.prepare(), &mut summary.result) else {
                    exact.push(None);
                    continue;
                };
                let values = crate::stats::exact::exact(&p, point.action).expect("exact");
                for m in metrics.iter_mut() {
                    m.exact = values
                        .iter()
                        .find(|e| e.metric == m.metric)
                        .and_then(|e| e.exact);
                }
                exact.push(Some(in_table_order(point.action, &values)));
            }
            let mut differences = study::differences(&s, &results);
            study::add_exact(&mut differences, &summaries);
            assert!(differences.iter().any(|d| d.exact.is_some()), "{name}");
            let rows = Rows::tallied(&s, results, exact);
            assert_eq!(rows.summaries().collect::<Vec<_>>(), summaries, "{name}");
            assert_eq!(
                rows.differences().collect::<Vec<_>>(),
                differences,
                "{name}"
            );
        }
    }
}
