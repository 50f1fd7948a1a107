//! Solving a `[[tune]]`: at each sweep point, the value of the parameter whose metric comes closest to the
//! target, and every value whose interval holds the target (the answer's uncertainty).
//!
//! Candidates run on the scenario's seed and trial count, so trial t of every candidate (and of the matched
//! variant) rolls the same dice: a rule that is monotone in its number then gives estimates that are
//! monotone too, not just on average, and bisection is safe. The search evaluates both ends and the
//! middle, bisects the
//! crossing of the target while the evaluated values stay monotone, then walks outwards from the best value
//! while the intervals still hold the target. When the evaluated values are not monotone it evaluates every
//! value instead. No value is evaluated twice, so a tune never costs more evaluations than its range has
//! values. The search is a pure function of what has been evaluated ([`plan`]), run in rounds: every
//! point's requests of one round run together on all workers.
//!
//! Every answer says whether it reached its target ([`Status`], decided by [`status`] alone): the closest
//! value is not an answer when the metric never comes near the target, and a reader of tune.csv must not
//! have to compare columns to learn that.

use std::collections::BTreeMap;

use crate::engine::{self, Group, Runnable};
use crate::scenario::Scenario;
use crate::scenario::tune::{Target, Tune};
use crate::stats::exact;
use crate::stats::interval::{self, Estimate};
use crate::stats::metrics;
use crate::stats::paired::{self, Comparison};
use crate::study::summary::PointSummary;

/// One evaluated candidate value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Eval {
    /// The candidate's metric with its interval (empty when ineligible or without trials).
    pub value: Estimate,
    /// Signed distance from the target: the estimate minus the target, or the paired difference from
    /// the matched variant. `None` when there is no estimate.
    pub gap: Option<f64>,
    /// The gap's interval: the value's interval minus the target, or the paired difference's interval.
    /// `None` when there is no interval.
    pub gap_interval: Option<(f64, f64)>,
    /// The target here (the matched variant's estimate, for a match).
    pub target: Option<f64>,
}

impl Eval {
    /// Whether the interval holds the target (for a match: the paired difference's interval holds 0).
    pub fn consistent(&self) -> bool {
        self.gap_interval
            .is_some_and(|(lo, hi)| lo <= 0.0 && 0.0 <= hi)
    }
}

/// Whether a tune's answer reached its target, in the gap's space (the target is a gap of 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The best value's interval holds the target.
    Reached,
    /// The target lies below every value the metric reaches over the range (below the lowest interval).
    NotReachedBelow,
    /// The target lies above every value the metric reaches over the range (above the highest interval).
    NotReachedAbove,
    /// The target lies inside the range, but no interval near it holds it: the metric steps over the
    /// target between two neighbouring values (the range is too coarse, or the rule jumps there).
    NotReachedBetween,
}

impl Status {
    /// Its word in tune.csv.
    pub fn name(self) -> &'static str {
        match self {
            Status::Reached => "reached",
            Status::NotReachedBelow => "not_reached_below",
            Status::NotReachedAbove => "not_reached_above",
            Status::NotReachedBetween => "not_reached_between",
        }
    }

    /// What it means, for people: the terminal and the report.
    pub fn words(self) -> &'static str {
        match self {
            Status::Reached => "reached",
            Status::NotReachedBelow => {
                "not reached: the target is below every value the metric reaches over the range"
            }
            Status::NotReachedAbove => {
                "not reached: the target is above every value the metric reaches over the range"
            }
            Status::NotReachedBetween => {
                "not reached: the metric steps over the target between two neighbouring values"
            }
        }
    }

    /// Where the target lies, said short (a chart's note): `None` when reached.
    pub fn miss(self) -> Option<&'static str> {
        match self {
            Status::Reached => None,
            Status::NotReachedBelow => Some("below every value"),
            Status::NotReachedAbove => Some("above every value"),
            Status::NotReachedBetween => Some("stepped over between two values"),
        }
    }
}

/// Whether the target (a gap of 0) is reached, from the best value's gap interval and the gap intervals of
/// every evaluated value: the range the metric reaches runs from the lowest interval's low end to the
/// highest's high end. `None` without a best interval.
pub fn status(
    best: Option<(f64, f64)>,
    evaluated: impl IntoIterator<Item = (f64, f64)>,
) -> Option<Status> {
    let (low, high) = best?;
    let (lowest, highest) = evaluated
        .into_iter()
        .fold((low, high), |(a, b), (lo, hi)| (a.min(lo), b.max(hi)));
    Some(if low <= 0.0 && 0.0 <= high {
        Status::Reached
    } else if 0.0 < lowest {
        Status::NotReachedBelow
    } else if highest < 0.0 {
        Status::NotReachedAbove
    } else {
        Status::NotReachedBetween
    })
}

/// The answer at one point.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// Index of the value closest to the target.
    pub best: Option<usize>,
    /// Indices of the values whose interval holds the target, ascending.
    pub consistent: Vec<usize>,
    /// Whether the evaluated estimates are monotone in the parameter.
    pub monotone: bool,
    /// How many values were evaluated.
    pub evaluations: usize,
    /// Whether the best value reached the target (`None` without a best value with an interval).
    pub status: Option<Status>,
}

/// What the search needs next at one point, from what it has evaluated: more values, or the answer.
pub fn plan(n: usize, evaluated: &BTreeMap<usize, Eval>) -> Result<Answer, Vec<usize>> {
    let missing = |wanted: Vec<usize>| -> Vec<usize> {
        let mut m: Vec<usize> = wanted
            .into_iter()
            .filter(|k| *k < n && !evaluated.contains_key(k))
            .collect();
        m.dedup();
        m
    };
    // Both ends and the middle first: a curve that turns back shows itself early.
    let ends = missing(vec![0, n / 2, n - 1]);
    if !ends.is_empty() {
        return Err(ends);
    }
    let gaps: Vec<(usize, f64)> = evaluated
        .iter()
        .filter_map(|(k, e)| e.gap.map(|g| (*k, g)))
        .collect();
    let monotone = gaps.len() == evaluated.len() && is_monotone(evaluated);
    if !monotone {
        let rest = missing((0..n).collect());
        if !rest.is_empty() {
            return Err(rest);
        }
        return Ok(answer(evaluated, monotone));
    }
    // Bisect the crossing: two evaluated neighbours on opposite sides of the target with a gap between.
    for pair in gaps.windows(2) {
        let ((i, gi), (j, gj)) = (pair[0], pair[1]);
        if gi != 0.0 && gj != 0.0 && (gi > 0.0) != (gj > 0.0) && j - i > 1 {
            return Err(vec![(i + j) / 2]);
        }
    }
    let Some(best) = closest(evaluated) else {
        return Ok(answer(evaluated, monotone));
    };
    // Walk outwards while the intervals hold the target; the best value's neighbours are always looked at.
    for step in [-1isize, 1] {
        let mut k = best as isize;
        loop {
            k += step;
            if k < 0 || k as usize >= n {
                break;
            }
            match evaluated.get(&(k as usize)) {
                None => return Err(vec![k as usize]),
                Some(e) if e.consistent() => continue,
                Some(_) => break,
            }
        }
    }
    Ok(answer(evaluated, monotone))
}

fn is_monotone(evaluated: &BTreeMap<usize, Eval>) -> bool {
    let values: Vec<f64> = evaluated.values().filter_map(|e| e.gap).collect();
    values.windows(2).all(|w| w[0] <= w[1]) || values.windows(2).all(|w| w[0] >= w[1])
}

fn closest(evaluated: &BTreeMap<usize, Eval>) -> Option<usize> {
    evaluated
        .iter()
        .filter_map(|(k, e)| e.gap.map(|g| (*k, g.abs())))
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
        .map(|(k, _)| k)
}

fn answer(evaluated: &BTreeMap<usize, Eval>, monotone: bool) -> Answer {
    let best = closest(evaluated);
    Answer {
        best,
        consistent: evaluated
            .iter()
            .filter(|(_, e)| e.consistent())
            .map(|(k, _)| *k)
            .collect(),
        monotone,
        evaluations: evaluated.len(),
        status: status(
            best.and_then(|k| evaluated.get(&k)?.gap_interval),
            evaluated.values().filter_map(|e| e.gap_interval),
        ),
    }
}

/// One point of a solved tune.
#[derive(Debug, Clone, PartialEq)]
pub struct TunePoint {
    /// Index of the row in [`Tune::rows`].
    pub row: usize,
    /// Every value evaluated.
    pub evaluated: BTreeMap<usize, Eval>,
    /// The answer.
    pub answer: Answer,
    /// The exact best value's index and the exact metric there (`--exact`).
    pub exact: Option<(usize, f64)>,
}

/// The summary of a candidate, and the matched variant's summary and the paired difference.
fn evaluate(
    tune: &Tune,
    comparison: Option<&Comparison>,
    summaries: (&[PointSummary<'_>], usize),
    result: &engine::GroupResult,
    candidate: Option<&crate::rules::action::Prepared>,
    matched: Option<&crate::rules::action::Prepared>,
    confidence: f64,
) -> Eval {
    let z = interval::z_for(confidence);
    let empty = Eval {
        value: Estimate::empty(),
        gap: None,
        gap_interval: None,
        target: None,
    };
    let (Some(p), Some(Some(tally))) = (candidate, result.tallies.first()) else {
        return empty;
    };
    let value = metrics::summarize(p, tune.action, tally, confidence)
        .into_iter()
        .find(|m| m.metric == tune.metric)
        .map_or(Estimate::empty(), |m| m.value);
    match &tune.target {
        Target::Value(t) => Eval {
            value,
            gap: value.estimate.map(|e| e - t),
            gap_interval: value
                .ci_low
                .zip(value.ci_high)
                .map(|(lo, hi)| (lo - t, hi - t)),
            target: Some(*t),
        },
        Target::Variant { .. } => {
            let (all, index) = summaries;
            let target = comparison
                .and_then(|c| all[index].metric(c.baseline_metric))
                .and_then(|e| e.estimate);
            let (Some(c), Some(m), Some(Some(tm)), Some(Some(joint))) = (
                comparison,
                matched,
                result.tallies.get(1),
                result.joints.first(),
            ) else {
                return Eval {
                    value,
                    target,
                    ..empty
                };
            };
            let d = paired::difference(c, (p, tally), (m, tm), &joint.cross[0], joint.trials, z);
            Eval {
                value,
                gap: d.difference,
                gap_interval: d.ci_low.zip(d.ci_high),
                target,
            }
        }
    }
}

/// One candidate of one tune: `(tune, row, value)` indices.
pub type Candidate = (usize, usize, usize);

/// What gives the search its evaluations: the candidates asked for, with their engine groups
/// ([`candidate_group`]), in, one result per candidate out. A run runs the groups; a merge of shards looks
/// the candidates up in the shards' tallies (every candidate was run there, src/study/shard.rs).
pub type Evaluate<'e> = dyn Fn(&[Candidate], &[Group<'_>]) -> Vec<engine::GroupResult> + 'e;

/// Solves every tune of a scenario on its seed and `trials`; `summaries` are the run's (the matched
/// variant's targets come from them). `progress` counts trials as the engine does.
pub fn solve(
    scenario: &Scenario,
    summaries: &[PointSummary<'_>],
    trials: u64,
    with_exact: bool,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<Vec<TunePoint>> {
    solve_with(scenario, summaries, with_exact, &|_, groups| {
        engine::run_groups(groups, trials, scenario.seed, progress)
    })
}

/// [`solve`] with the candidates' results from `results_of`.
pub fn solve_with(
    scenario: &Scenario,
    summaries: &[PointSummary<'_>],
    with_exact: bool,
    results_of: &Evaluate<'_>,
) -> Vec<Vec<TunePoint>> {
    (0..scenario.tunes.len())
        .map(|t| solve_one(scenario, t, summaries, with_exact, results_of))
        .collect()
}

/// Every candidate of every tune, in order: what a study split into shards runs besides its points.
pub fn candidates(scenario: &Scenario) -> Vec<Candidate> {
    let mut all = Vec::new();
    for (t, tune) in scenario.tunes.iter().enumerate() {
        for (row, r) in tune.rows.iter().enumerate() {
            all.extend((0..r.candidates.len()).map(|k| (t, row, k)));
        }
    }
    all
}

/// The engine group of a candidate: the candidate's point, and for a tune matched to a variant the
/// matched point too, paired on the tune's comparison.
pub fn candidate_group(scenario: &Scenario, (t, row, k): Candidate) -> Group<'_> {
    let tune = &scenario.tunes[t];
    let mut points = vec![
        tune.rows[row].candidates[k]
            .as_ref()
            .ok()
            .map(Runnable::Recipe),
    ];
    let mut pairs = Vec::new();
    if let Target::Variant {
        variant,
        comparison,
    } = &tune.target
    {
        let matched = variant * scenario.grid() + tune.rows[row].grid_point;
        points.push(scenario.points[matched].runnable());
        pairs.push((0, 1, std::slice::from_ref(comparison)));
    }
    Group { points, pairs }
}

fn solve_one(
    scenario: &Scenario,
    t: usize,
    summaries: &[PointSummary<'_>],
    with_exact: bool,
    results_of: &Evaluate<'_>,
) -> Vec<TunePoint> {
    let tune = &scenario.tunes[t];
    let grid = scenario.grid();
    let n = tune.values.len();
    let (comparison, matched_variant) = match &tune.target {
        Target::Value(_) => (None, None),
        Target::Variant {
            variant,
            comparison,
        } => (Some(*comparison), Some(*variant)),
    };
    let matched_index = |row: usize| matched_variant.map(|v| v * grid + tune.rows[row].grid_point);
    let matched_point =
        |row: usize| matched_index(row).and_then(|i| scenario.points[i].prepare().ok());
    let mut evaluated: Vec<BTreeMap<usize, Eval>> = vec![BTreeMap::new(); tune.rows.len()];
    let mut answers: Vec<Option<Answer>> = vec![None; tune.rows.len()];
    loop {
        let mut requests: Vec<(usize, usize)> = Vec::new();
        for (row, done) in answers.iter_mut().enumerate() {
            if done.is_some() {
                continue;
            }
            match plan(n, &evaluated[row]) {
                Ok(a) => *done = Some(a),
                Err(ks) => requests.extend(ks.into_iter().map(|k| (row, k))),
            }
        }
        if requests.is_empty() {
            break;
        }
        let asked: Vec<Candidate> = requests.iter().map(|&(row, k)| (t, row, k)).collect();
        let groups: Vec<Group<'_>> = asked
            .iter()
            .map(|&c| candidate_group(scenario, c))
            .collect();
        let results = results_of(&asked, &groups);
        for (&(row, k), result) in requests.iter().zip(&results) {
            let summary_index = matched_index(row).unwrap_or(0);
            let e = evaluate(
                tune,
                comparison.as_ref(),
                (summaries, summary_index),
                result,
                tune.rows[row].candidates[k]
                    .as_ref()
                    .ok()
                    .and_then(|c| c.prepare().ok())
                    .as_ref(),
                matched_point(row).as_deref(),
                scenario.confidence,
            );
            evaluated[row].insert(k, e);
        }
    }
    answers
        .into_iter()
        .enumerate()
        .map(|(row, answer)| TunePoint {
            row,
            exact: if with_exact {
                exact_best(scenario, tune, row)
            } else {
                None
            },
            evaluated: std::mem::take(&mut evaluated[row]),
            answer: answer.unwrap_or(Answer {
                best: None,
                consistent: Vec::new(),
                monotone: false,
                evaluations: 0,
                status: None,
            }),
        })
        .collect()
}

/// The exact answer at one row of a tune: the value closest to the exact target and the exact metric there.
/// `None` where the target or a candidate has no exact value (a fight of several a side, dice too many to
/// count, a fight's chain past its bounds).
pub fn exact_best(scenario: &Scenario, tune: &Tune, row: usize) -> Option<(usize, f64)> {
    let point = exact_point(scenario, tune, row);
    let eligible = tune.rows[row]
        .candidates
        .iter()
        .filter(|c| c.is_ok())
        .count();
    if point.evaluated.len() != eligible {
        return None;
    }
    let best = point.answer.best?;
    Some((best, point.evaluated.get(&best)?.value.estimate?))
}

/// Every tune of a scenario solved exactly (`exact_point` at every row).
pub fn solve_exact(scenario: &Scenario) -> Vec<Vec<TunePoint>> {
    scenario
        .tunes
        .iter()
        .map(|tune| {
            (0..tune.rows.len())
                .map(|row| exact_point(scenario, tune, row))
                .collect()
        })
        .collect()
}

/// One row of a tune solved exactly: every candidate's exact metric, the one closest to the exact target,
/// and the values that reach it exactly. A candidate whose dice cannot be counted is left out; a row whose
/// target cannot be counted has no answer.
fn exact_point(scenario: &Scenario, tune: &Tune, row: usize) -> TunePoint {
    let metric_of = |p: &crate::rules::action::Prepared, action, name: &str| {
        exact::exact(p, action)
            .ok()?
            .into_iter()
            .find(|m| m.metric == name)?
            .exact
    };
    let target = match &tune.target {
        Target::Value(t) => Some(*t),
        Target::Variant {
            variant,
            comparison,
        } => {
            let point = &scenario.points[variant * scenario.grid() + tune.rows[row].grid_point];
            point
                .prepare()
                .ok()
                .and_then(|p| metric_of(&p, point.action, comparison.baseline_metric))
        }
    };
    let mut evaluated = BTreeMap::new();
    for (k, candidate) in tune.rows[row].candidates.iter().enumerate() {
        let value = candidate
            .as_ref()
            .ok()
            .and_then(|c| c.prepare().ok())
            .and_then(|p| metric_of(&p, tune.action, tune.metric));
        let Some(v) = value else { continue };
        let gap = target.map(|t| v - t);
        evaluated.insert(
            k,
            Eval {
                value: Estimate {
                    estimate: Some(v),
                    ci_low: Some(v),
                    ci_high: Some(v),
                    std_error: Some(0.0),
                    trials: 0,
                },
                gap,
                // Exact: the gap's interval is the gap itself.
                gap_interval: gap.map(|g| (g, g)),
                target,
            },
        );
    }
    let monotone = evaluated.values().all(|e| e.gap.is_some()) && is_monotone(&evaluated);
    TunePoint {
        row,
        answer: answer(&evaluated, monotone),
        evaluated,
        exact: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An evaluation whose estimate is `v` with interval ±`half`, against target `t`.
    fn eval(v: f64, half: f64, t: f64) -> Eval {
        Eval {
            value: Estimate {
                estimate: Some(v),
                ci_low: Some(v - half),
                ci_high: Some(v + half),
                std_error: Some(half / 2.0),
                trials: 100,
            },
            gap: Some(v - t),
            gap_interval: Some((v - half - t, v + half - t)),
            target: Some(t),
        }
    }

    /// Runs the search on a known curve, counting evaluations.
    fn search(n: usize, curve: impl Fn(usize) -> Eval) -> (Answer, Vec<usize>) {
        let mut evaluated = BTreeMap::new();
        let mut order = Vec::new();
        loop {
            match plan(n, &evaluated) {
                Ok(a) => return (a, order),
                Err(ks) => {
                    for k in ks {
                        assert!(!evaluated.contains_key(&k), "{k} evaluated twice");
                        order.push(k);
                        evaluated.insert(k, curve(k));
                    }
                }
            }
        }
    }

    #[test]
    fn a_monotone_curve_is_bisected() {
        // 101 values, metric k/100, target 0.373, intervals ±0.015: 0.36 to 0.38 hold it.
        let (a, order) = search(101, |k| eval(k as f64 / 100.0, 0.015, 0.373));
        assert_eq!(a.best, Some(37));
        assert_eq!(a.consistent, [36, 37, 38]);
        assert!(a.monotone);
        assert!(order.len() <= 14, "{} evaluations: {order:?}", order.len());
    }

    #[test]
    fn a_target_beyond_the_range_picks_the_nearest_end() {
        let (a, order) = search(11, |k| eval(k as f64 / 100.0, 0.001, 0.9));
        assert_eq!((a.best, a.consistent.len()), (Some(10), 0));
        assert_eq!(a.status, Some(Status::NotReachedAbove));
        assert!(order.len() <= 4);
        let (a, _) = search(11, |k| eval(0.5 + k as f64 / 100.0, 0.001, 0.2));
        assert_eq!((a.best, a.status), (Some(0), Some(Status::NotReachedBelow)));
    }

    #[test]
    fn a_target_whose_interval_holds_it_is_reached() {
        let (a, _) = search(101, |k| eval(k as f64 / 100.0, 0.015, 0.373));
        assert_eq!(a.status, Some(Status::Reached));
    }

    #[test]
    fn a_metric_that_steps_over_the_target_misses_it_between() {
        // Values 0.10 and 0.20 with tight intervals, target 0.15.
        let (a, _) = search(2, |k| eval(0.1 + k as f64 / 10.0, 0.001, 0.15));
        assert_eq!(a.status, Some(Status::NotReachedBetween));
        assert!(a.consistent.is_empty());
    }

    #[test]
    fn the_best_interval_holding_the_target_is_reached() {
        assert_eq!(
            status(
                Some((-0.01, 0.02)),
                [(-0.3, -0.2), (-0.01, 0.02), (0.2, 0.3)]
            ),
            Some(Status::Reached)
        );
        // At an end of the range, the interval holding the target still reaches it.
        assert_eq!(
            status(Some((0.0, 0.02)), [(0.0, 0.02), (0.2, 0.3)]),
            Some(Status::Reached)
        );
    }

    #[test]
    fn a_target_below_every_interval_is_not_reached_below() {
        // Gaps all positive: every value is above the target.
        assert_eq!(
            status(Some((0.01, 0.02)), [(0.01, 0.02), (0.2, 0.3)]),
            Some(Status::NotReachedBelow)
        );
    }

    #[test]
    fn a_target_above_every_interval_is_not_reached_above() {
        assert_eq!(
            status(Some((-0.02, -0.01)), [(-0.3, -0.2), (-0.02, -0.01)]),
            Some(Status::NotReachedAbove)
        );
    }

    #[test]
    fn a_target_inside_the_range_no_interval_holds_is_between() {
        assert_eq!(
            status(Some((-0.051, -0.049)), [(-0.051, -0.049), (0.049, 0.051)]),
            Some(Status::NotReachedBetween)
        );
        // A wide interval elsewhere makes the range, even if the best's does not hold the target.
        assert_eq!(
            status(Some((0.01, 0.02)), [(-0.5, 0.5), (0.01, 0.02)]),
            Some(Status::NotReachedBetween)
        );
    }

    #[test]
    fn no_best_interval_has_no_status() {
        assert_eq!(status(None, [(-0.1, 0.1)]), None);
        assert_eq!(status(None, []), None);
    }

    #[test]
    fn a_curve_that_turns_back_is_evaluated_everywhere() {
        // A peak in the middle: 0, 1, 2, 3, 2, 1, 0 against target 2.5.
        let curve = [0.0, 1.0, 2.0, 3.0, 2.0, 1.0, 0.0];
        let (a, order) = search(7, |k| eval(curve[k], 0.1, 2.5));
        assert!(!a.monotone);
        assert_eq!(order.len(), 7);
        assert_eq!(a.best, Some(2));
    }
}
