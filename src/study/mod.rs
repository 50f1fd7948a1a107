//! A scenario's run as one piece: every variant at each sweep point in one engine group (so the variants'
//! trials pair up), then the per-point tallies and the paired differences against the baseline.

pub mod exemplars;
pub mod flips;
pub mod replay;
pub mod rows;
pub mod shard;
pub mod summary;
pub mod tuning;

pub use rows::Rows;
pub use summary::{PointSummary, TuneLine, summarize, tune_lines};

use crate::engine::{self, Group};
use crate::scenario::Scenario;
use crate::scenario::sweep::SweepValue;
use crate::stats::Tally;
use crate::stats::interval;
use crate::stats::metrics::PointFacts;
use crate::stats::paired::{self, Difference, Joint};

/// The tallies of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Results {
    /// One per point, in the scenario's order (`None` for an ineligible point).
    pub tallies: Vec<Option<Tally>>,
    /// `[pairing][grid point]`: the joint tally of the pairing's variant and the baseline.
    pub joints: Vec<Vec<Option<Joint>>>,
}

/// Runs every point of `scenario` for `trials` trials.
pub fn run(scenario: &Scenario, trials: u64, progress: &(dyn Fn(u64) + Sync)) -> Results {
    let results = engine::run_groups(&groups(scenario), trials, scenario.seed, progress);
    results_of(scenario, results)
}

/// The engine groups of a run, one per sweep point: every variant at that point, paired as the scenario's
/// pairings say. A shard runs its share of these (src/study/shard.rs), so they are defined once, here.
pub fn groups(scenario: &Scenario) -> Vec<Group<'_>> {
    let grid = scenario.grid();
    let variants = scenario.variants.len();
    // A point goes as its kept action, or as its recipe for the work items to prepare (`Point::kept`).
    let point = |i: usize| scenario.points[i].runnable();
    (0..grid)
        .map(|g| Group {
            points: (0..variants).map(|v| point(v * grid + g)).collect(),
            pairs: scenario
                .pairings
                .iter()
                .map(|p| (p.variant, scenario.baseline, p.comparisons.as_slice()))
                .collect(),
        })
        .collect()
}

/// The results of [`groups`], one per sweep point in order, as the run's tallies and joint tallies.
pub fn results_of(scenario: &Scenario, results: Vec<engine::GroupResult>) -> Results {
    let grid = scenario.grid();
    let mut tallies = vec![None; scenario.points.len()];
    let mut joints = vec![vec![None; grid]; scenario.pairings.len()];
    for (g, result) in results.into_iter().enumerate() {
        for (v, tally) in result.tallies.into_iter().enumerate() {
            tallies[v * grid + g] = tally;
        }
        for (k, joint) in result.joints.into_iter().enumerate() {
            joints[k][g] = joint;
        }
    }
    Results { tallies, joints }
}

/// One row of differences.csv.
#[derive(Debug, Clone, PartialEq)]
pub struct DifferenceRow<'a> {
    /// The variant compared.
    pub variant: &'a str,
    /// The baseline.
    pub baseline: &'a str,
    /// The sweep values.
    pub values: &'a [SweepValue],
    /// The variant's level gap at this point.
    pub level_gap: i32,
    /// The variant's metric (`ineligible` when either side did not run).
    pub metric: &'static str,
    /// The baseline's metric it is compared with.
    pub baseline_metric: &'static str,
    /// The difference, or why there is none.
    pub result: Result<Difference, String>,
    /// Holm's adjustment of the p-value over the file.
    pub p_adjusted: Option<f64>,
    /// The Holm-adjusted (simultaneous) interval: (low, high), empty without a difference's error.
    pub ci_adjusted: (Option<f64>, Option<f64>),
    /// higher | lower | no clear difference (empty without a difference), from `ci_adjusted`.
    pub verdict: &'static str,
    /// The exact difference, when it was computed (`run --exact`, `exact`).
    pub exact: Option<f64>,
    /// The indices of the variant's point and the baseline's in the scenario.
    pub points: (usize, usize),
}

/// One headline verdict followed along a sweep axis: a variant against the baseline at the values of the other
/// axes, with its verdict at every value of this one. Why: a designer reading "the Combat & Tactics pile is
/// worse for the thugs" needs to know whether that holds however the guard picks whom he strikes, or only
/// for some way of picking (docs/scenarios.md "Several combatants a side").
#[derive(Debug, Clone, PartialEq)]
pub struct AlongAxis<'a> {
    /// The variant compared.
    pub variant: &'a str,
    /// The values of the other axes, in axis order.
    pub others: Vec<&'a SweepValue>,
    /// Each value of the axis with the verdict there.
    pub verdicts: Vec<(&'a SweepValue, &'static str)>,
}

impl AlongAxis<'_> {
    /// The verdict is the same at every value of the axis.
    pub fn holds(&self) -> bool {
        self.verdicts.windows(2).all(|w| w[0].1 == w[1].1)
    }
}

/// The headline verdicts of `rows` followed along axis `axis` (an index into the scenario's axes), in the
/// order the rows come; rows without a difference are left out.
pub fn verdicts_along<'a>(
    scenario: &Scenario,
    rows: impl IntoIterator<Item = DifferenceRow<'a>>,
    axis: usize,
) -> Vec<AlongAxis<'a>> {
    let mut out: Vec<AlongAxis<'a>> = Vec::new();
    for d in rows {
        let headline = crate::stats::metrics::headline(scenario.points[d.points.0].action);
        if d.result.is_err() || d.metric != headline || axis >= d.values.len() {
            continue;
        }
        let others: Vec<&SweepValue> = d
            .values
            .iter()
            .enumerate()
            .filter(|(k, _)| *k != axis)
            .map(|(_, v)| v)
            .collect();
        let at = (&d.values[axis], d.verdict);
        match out
            .iter_mut()
            .find(|a| a.variant == d.variant && a.others == others)
        {
            Some(a) => a.verdicts.push(at),
            None => out.push(AlongAxis {
                variant: d.variant,
                others,
                verdicts: vec![at],
            }),
        }
    }
    out
}

/// Every difference of a run, held: variants in order, sweep points in order, the variant's metrics in
/// order; Holm's adjustment over all of them, and each verdict at the scenario's confidence. A study's files
/// read them made as they go ([`Rows`]); this is the same rows at once.
pub fn differences<'a>(scenario: &'a Scenario, results: &Results) -> Vec<DifferenceRow<'a>> {
    let mut rows: Vec<DifferenceRow<'a>> = Vec::with_capacity(most_rows(scenario));
    rows.extend(differences_of(scenario, results));
    judge(&mut rows, scenario.confidence);
    rows
}

/// The most rows of differences a run of `scenario` has: each pairing's comparisons at every sweep point.
fn most_rows(scenario: &Scenario) -> usize {
    scenario
        .pairings
        .iter()
        .map(|p| scenario.grid() * p.comparisons.len().max(1))
        .sum()
}

/// The rows of [`differences`] before Holm's adjustment, made one pairing and sweep point at a time.
fn differences_of<'a, 'r>(
    scenario: &'a Scenario,
    results: &'r Results,
) -> impl Iterator<Item = DifferenceRow<'a>> + 'r
where
    'a: 'r,
{
    let z = interval::z_for(scenario.confidence);
    rows(scenario, move |k, g, (a, pa), (b, pb)| {
        let (Some(ta), Some(tb), Some(joint)) = (
            &results.tallies[a],
            &results.tallies[b],
            &results.joints[k][g],
        ) else {
            return Err("not run".to_string());
        };
        Ok(scenario.pairings[k]
            .comparisons
            .iter()
            .zip(&joint.cross)
            .map(|(c, cross)| {
                Ok(paired::difference(
                    c,
                    (pa, ta),
                    (pb, tb),
                    cross,
                    joint.trials,
                    z,
                ))
            })
            .collect())
    })
}

/// The rows of differences.csv, one pairing and sweep point at a time, before Holm's adjustment: an
/// ineligible side gives one row with its reason, else `compare(pairing, grid point, (variant's index,
/// facts), (baseline's index, facts))` gives one result per comparison of the pairing (or why there is
/// none).
fn rows<'a, 'f>(
    scenario: &'a Scenario,
    mut compare: impl FnMut(
        usize,
        usize,
        (usize, &PointFacts<'_>),
        (usize, &PointFacts<'_>),
    ) -> Result<Vec<Result<Difference, String>>, String>
    + 'f,
) -> impl Iterator<Item = DifferenceRow<'a>> + 'f
where
    'a: 'f,
{
    let grid = scenario.grid();
    let slots = scenario
        .pairings
        .iter()
        .enumerate()
        .flat_map(move |(k, pairing)| (0..grid).map(move |g| (k, pairing, g)));
    slots.flat_map(move |(k, pairing, g)| {
        let (a, b) = (pairing.variant * grid + g, scenario.baseline * grid + g);
        let point = &scenario.points[a];
        let row = |metric, baseline_metric, result| DifferenceRow {
            variant: &scenario.variants[pairing.variant],
            baseline: &scenario.variants[scenario.baseline],
            values: &point.values,
            level_gap: point.level_gap,
            metric,
            baseline_metric,
            result,
            p_adjusted: None,
            ci_adjusted: (None, None),
            verdict: "",
            exact: None,
            points: (a, b),
        };
        let ineligible = |reason: String| vec![row("ineligible", "ineligible", Err(reason))];
        match (scenario.points[a].facts(), scenario.points[b].facts()) {
            (Ok(pa), Ok(pb)) => match compare(k, g, (a, &pa), (b, &pb)) {
                Ok(results) => pairing
                    .comparisons
                    .iter()
                    .zip(results)
                    .map(|(c, result)| row(c.metric, c.baseline_metric, result))
                    .collect(),
                Err(reason) => ineligible(reason),
            },
            (Err(reason), _) => ineligible(format!("ineligible: {reason}")),
            (_, Err(reason)) => ineligible(format!("ineligible: the baseline: {reason}")),
        }
    })
}

/// The exact value of `metric` at point `index` of `summaries`, when it was computed.
fn exact_of(summaries: &[PointSummary<'_>], index: usize, metric: &str) -> Option<f64> {
    summaries[index]
        .result
        .as_ref()
        .ok()?
        .iter()
        .find(|m| m.metric == metric)?
        .exact
}

/// Fills in the exact difference of every row whose two sides have exact values in `summaries` (as
/// `run --exact` and `exact` compute them).
pub fn add_exact(rows: &mut [DifferenceRow<'_>], summaries: &[PointSummary<'_>]) {
    for row in rows {
        row.exact = exact_difference(row, |index, metric| exact_of(summaries, index, metric));
    }
}

/// The exact difference of a row: the exact value of its variant's metric less the baseline's, where both
/// are known (`exact_of(point index, metric)`).
fn exact_difference(
    row: &DifferenceRow<'_>,
    exact_of: impl Fn(usize, &str) -> Option<f64>,
) -> Option<f64> {
    let (a, b) = row.points;
    Some(exact_of(a, row.metric)? - exact_of(b, row.baseline_metric)?)
}

/// The exact differences of a single-action scenario from its exact summaries: each row's difference is
/// the exact one, with an interval of zero width and no test.
pub fn exact_differences<'a>(
    scenario: &'a Scenario,
    summaries: &[PointSummary<'_>],
) -> Vec<DifferenceRow<'a>> {
    let mut rows: Vec<DifferenceRow<'a>> = rows(scenario, |k, _, (a, _), (b, _)| {
        Ok(scenario.pairings[k]
            .comparisons
            .iter()
            .map(|c| {
                match (
                    exact_of(summaries, a, c.metric),
                    exact_of(summaries, b, c.baseline_metric),
                ) {
                    (Some(x), Some(y)) => Ok(Difference::exact(x - y, 0)),
                    _ => Err("no exact value".to_string()),
                }
            })
            .collect())
    })
    .collect();
    judge(&mut rows, scenario.confidence);
    add_exact(&mut rows, summaries);
    rows
}

/// Fills in Holm's adjusted p-values and simultaneous intervals over all rows, and every verdict from its
/// row's adjusted interval, so that a verdict never reads against the interval printed beside it.
fn judge(rows: &mut [DifferenceRow<'_>], confidence: f64) {
    let p: Vec<Option<f64>> = rows
        .iter()
        .map(|r| r.result.as_ref().ok().and_then(|d| d.p_value))
        .collect();
    // One walk of Holm's step-down; rows without a p-value keep no adjustment.
    let mut judged = vec![(None, None); rows.len()];
    paired::holm_walk(&p, 1.0 - confidence, |i, adjusted, level| {
        judged[i] = (Some(adjusted), Some(level));
    });
    for (row, (adjusted, level)) in rows.iter_mut().zip(judged) {
        judge_row(row, adjusted, level);
    }
}

/// Gives one row Holm's adjusted p-value, its simultaneous interval at error level `level`, and the verdict
/// that interval gives.
fn judge_row(row: &mut DifferenceRow<'_>, adjusted: Option<f64>, level: Option<f64>) {
    row.p_adjusted = adjusted;
    (row.ci_adjusted, row.verdict) = match &row.result {
        Ok(d) => {
            let ci = d.interval_at(level);
            (ci, paired::verdict(d, ci))
        }
        Err(_) => ((None, None), ""),
    };
}

#[cfg(test)]
mod along_tests {
    use super::*;

    #[test]
    fn a_verdict_holds_along_an_axis_only_when_it_is_the_same_at_every_value() {
        let (a, b) = (
            SweepValue::Text("focus".into()),
            SweepValue::Text("spread".into()),
        );
        let along = |v: [&'static str; 2]| AlongAxis {
            variant: "x",
            others: Vec::new(),
            verdicts: vec![(&a, v[0]), (&b, v[1])],
        };
        assert!(along(["lower", "lower"]).holds());
        assert!(!along(["lower", "no clear difference"]).holds());
    }
}

#[cfg(test)]
mod kept_tests {
    use super::*;
    use crate::scenario::KEPT_POINTS;

    fn shipped(name: &str, text: &str) -> Scenario {
        Scenario::parse(&format!("{name}.toml"), name, text.as_bytes()).expect("valid")
    }

    #[test]
    fn a_study_keeps_its_points_prepared_up_to_the_bound_and_none_past_it() {
        let text = include_str!("../../scenarios/mugging-level-gap.toml");
        let small = shipped("small", text);
        assert!(small.points.iter().all(|p| p.kept.is_some()));
        // 2 variants × 20 attacker levels × 26 armor classes: past the bound.
        let big = shipped(
            "big",
            // Without its chart, which would draw a series per armor class.
            &text.split("[[chart]]").next().unwrap_or(text).replacen(
                "[sweep]\n",
                "[sweep]\n\"victim.ac\" = { from = -10, to = 15 }\n",
                1,
            ),
        );
        assert!(big.points.len() > KEPT_POINTS, "{}", big.points.len());
        assert!(big.points.iter().all(|p| p.kept.is_none()));
    }

    #[test]
    fn the_bound_keeps_exactly_its_own_number_of_points() {
        // 2 variants × 16 levels × 32 armor classes is the bound itself; one more armor class passes it.
        let text = include_str!("../../scenarios/mugging-level-gap.toml");
        let swept = |to: i32| {
            let text = text.split("[[chart]]").next().unwrap_or(text).replacen(
                "\"attacker.level\" = { from = 1, to = 20 }\n",
                &format!(
                    "\"attacker.level\" = {{ from = 1, to = 16 }}\n\"victim.ac\" = {{ from = -16, to = {to} }}\n"
                ),
                1,
            );
            shipped("bound", &text)
        };
        let at = swept(15);
        assert_eq!(at.points.len(), KEPT_POINTS);
        assert!(at.points.iter().all(|p| p.kept.is_some()));
        let past = swept(16);
        assert_eq!(past.points.len(), KEPT_POINTS + 32);
        assert!(past.points.iter().all(|p| p.kept.is_none()));
    }

    #[test]
    fn a_study_prepared_where_it_is_used_gives_what_it_gives_kept() {
        for text in [
            include_str!("../../scenarios/brawl-vs-armed-guard.toml"),
            include_str!("../../scenarios/sap-or-mug-the-sentry.toml"),
            include_str!("../../scenarios/thugs-on-a-guard.toml"),
        ] {
            let kept = shipped("study", text);
            assert!(kept.points.iter().any(|p| p.kept.is_some()));
            let mut recipes = kept.clone();
            recipes.points.iter_mut().for_each(|p| p.kept = None);
            let (a, b) = (run(&kept, 300, &|_| {}), run(&recipes, 300, &|_| {}));
            assert_eq!(a, b);
            assert_eq!(
                summarize(&kept, &a.tallies),
                summarize(&recipes, &b.tallies)
            );
            assert_eq!(differences(&kept, &a), differences(&recipes, &b));
            assert_eq!(
                flips::flips(&kept, &a),
                flips::flips(&recipes, &b),
                "the example trials"
            );
            let exemplars = exemplars::exemplars(&kept, &a.tallies);
            assert_eq!(
                exemplars,
                exemplars::exemplars(&recipes, &b.tallies),
                "the retold trials"
            );
            assert_eq!(
                exemplars.is_empty(),
                !kept.points.iter().any(|p| p.action.is_fight())
            );
        }
    }
}
