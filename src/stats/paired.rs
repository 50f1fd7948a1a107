//! Paired differences between a variant and the baseline, run on the same dice trial by trial
//! (docs/scenarios.md "differences.csv").
//!
//! Because trial t of every variant rolls the same stream, the two variants' outcomes on one trial are a
//! pair, and the error of their difference comes from the pairs: for a probability from the discordant
//! pairs, for a mean over the trials where it exists from the delta method on joint sums. Both variants
//! usually agree on most trials (the same d20 hits both), so the paired error is far smaller than the two
//! intervals of summary.csv suggest. Every sum is an integer, so joint tallies merge exactly, like
//! [`Tally`].

use std::ops::AddAssign;

use statrs::distribution::{ContinuousCDF, Normal};

use crate::rules::action::{Action, Prepared};
pub use crate::stats::metrics::Kind;
use crate::stats::metrics::{OnOutcome, Record, Sink, Source, split, summary_table};
use crate::stats::tally::{HISTOGRAMS, Moments, Tally};

/// What one trial produced: its counters as bits and the quantities it observed. A variant's trials are
/// kept in this form only while its pairs are summed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TrialValues {
    counts: u8,
    seen: u8,
    /// Every quantity of the rules is far inside `i32` (dice are bounded, fights last at most 10,000
    /// rounds), and a small entry keeps a block's log in cache.
    values: [i32; HISTOGRAMS],
}

impl Sink for TrialValues {
    #[inline]
    fn count(&mut self, slot: usize, yes: bool) {
        self.counts |= u8::from(yes) << slot;
    }

    #[inline]
    fn observe(&mut self, hist: usize, value: i64) {
        self.seen |= 1 << hist;
        self.values[hist] =
            i32::try_from(value).unwrap_or(if value < 0 { i32::MIN } else { i32::MAX });
    }
}

/// Records every outcome into a tally and keeps its [`TrialValues`].
pub struct Logged<'a> {
    /// The variant's tally, filled as usual.
    pub tally: &'a mut Tally,
    /// One entry per trial, in trial order.
    pub log: &'a mut Vec<TrialValues>,
}

impl OnOutcome for Logged<'_> {
    #[inline]
    fn on<O: Record>(&mut self, outcome: &O) {
        outcome.record(self.tally);
        let mut values = TrialValues::default();
        outcome.record(&mut values);
        self.log.push(values);
    }
}

/// One metric of a variant compared with one metric of the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Comparison {
    /// The variant's metric (the row's `metric`).
    pub metric: &'static str,
    /// The baseline's metric it is compared with: the same name, or the variant's `baseline_metric`.
    pub baseline_metric: &'static str,
    /// How both are estimated.
    pub kind: Kind,
    a: Source,
    b: Source,
}

/// The metrics a variant of `action` and a baseline of `baseline` are compared on, in the variant's metric
/// order: every metric both report under the same name and of the same kind, and the variant's headline
/// against `baseline_metric` when it is given.
pub fn comparisons(
    action: Action,
    baseline: Action,
    baseline_metric: Option<&str>,
) -> Vec<Comparison> {
    summary_table(action)
        .iter()
        .enumerate()
        .filter_map(|(i, &(metric, _))| {
            let wanted = match baseline_metric {
                Some(name) if i == 0 => name,
                _ => metric,
            };
            comparison(action, metric, baseline, wanted).ok()
        })
        .collect()
}

/// Metric `metric` of `action` against metric `other` of `other_action`: the comparison, or why they
/// cannot be compared (not a metric there, or not the same kind of number).
pub fn comparison(
    action: Action,
    metric: &str,
    other_action: Action,
    other: &str,
) -> Result<Comparison, String> {
    let find = |a: Action, name: &str| summary_table(a).iter().find(|(m, _)| *m == name).copied();
    let Some((metric, a)) = find(action, metric) else {
        return Err(format!("`{metric}` is not a metric of action `{action}`"));
    };
    let Some((other, b)) = find(other_action, other) else {
        return Err(format!(
            "`{other}` is not a metric of action `{other_action}` (it reports: {})",
            summary_table(other_action)
                .iter()
                .map(|(m, _)| *m)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    };
    if a.kind() != b.kind() {
        return Err(format!(
            "`{metric}` and `{other}` are not the same kind of number: one is a probability, the other a mean or a fixed value"
        ));
    }
    Ok(Comparison {
        metric,
        baseline_metric: other,
        kind: a.kind(),
        a,
        b,
    })
}

/// Why `baseline_metric` cannot serve for a variant of `action` against a baseline of `baseline`: not a
/// metric of the baseline, or not of the kind of the variant's headline.
pub fn baseline_metric_problem(action: Action, baseline: Action, name: &str) -> Option<String> {
    comparison(action, summary_table(action)[0].0, baseline, name).err()
}

/// Joint sums of one comparison over the trials where both quantities exist. For two counters only `both`
/// and `product` (the trials where both happened) are kept: each side's own count is in its tally.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cross {
    both: u64,
    a_where_b: i128,
    b_where_a: i128,
    product: i128,
}

impl AddAssign<&Cross> for Cross {
    fn add_assign(&mut self, o: &Cross) {
        self.both += o.both;
        self.a_where_b += o.a_where_b;
        self.b_where_a += o.b_where_a;
        self.product += o.product;
    }
}

/// The joint tally of a variant and the baseline at one sweep point: one [`Cross`] per comparison.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Joint {
    /// Paired trials.
    pub trials: u64,
    /// One per comparison of the pair, in order (a fixed comparison's stays zero).
    pub cross: Vec<Cross>,
}

impl Joint {
    /// An empty joint tally for `comparisons` comparisons.
    pub fn new(comparisons: usize) -> Joint {
        Joint {
            trials: 0,
            cross: vec![Cross::default(); comparisons],
        }
    }
}

impl AddAssign<&Joint> for Joint {
    fn add_assign(&mut self, o: &Joint) {
        self.trials += o.trials;
        for (a, b) in self.cross.iter_mut().zip(&o.cross) {
            *a += b;
        }
    }
}

/// A metric's value on one trial, when it exists there.
#[inline(always)]
fn read(source: Source, p: &Prepared, t: &TrialValues) -> Option<i64> {
    let seen = |h: usize| (t.seen >> h) & 1 == 1;
    match source {
        Source::Count(slot) => Some(i64::from((t.counts >> slot) & 1)),
        Source::Mean(h) | Source::ContestRolls(h) => seen(h).then_some(i64::from(t.values[h])),
        Source::RealPart(h) => seen(h).then(|| i64::from(split(p, i64::from(t.values[h])).0)),
        Source::TemporaryPart(h) => seen(h).then(|| i64::from(split(p, i64::from(t.values[h])).1)),
        Source::SaveNeeded
        | Source::MonsterStrength
        | Source::GrabberStrength
        | Source::VictimStrength
        | Source::RollNeeded => None,
    }
}

/// Adds the pairs of trials `a[i]`, `b[i]` (the variant's and the baseline's) to `joint`.
pub fn add_pairs(
    comparisons: &[Comparison],
    (pa, a): (&Prepared, &[TrialValues]),
    (pb, b): (&Prepared, &[TrialValues]),
    joint: &mut Joint,
) {
    joint.trials += a.len() as u64;
    for (c, cross) in comparisons.iter().zip(joint.cross.iter_mut()) {
        // A block's sums fit 64 bits (2^16 trials of values far below 2^20); they are widened once.
        let (mut both, mut a_where_b, mut b_where_a, mut product) = (0u64, 0i64, 0i64, 0i64);
        match (c.kind, c.a, c.b) {
            (Kind::Fixed, _, _) => continue,
            // Two counters: every trial has both, and each side's count is in its tally, so only the
            // trials where both happened are counted here (`a_where_b` and `b_where_a` stay 0).
            (Kind::Probability, Source::Count(sa), Source::Count(sb)) => {
                let ab: u32 = a
                    .iter()
                    .zip(b)
                    .map(|(ta, tb)| u32::from((ta.counts >> sa) & (tb.counts >> sb) & 1))
                    .sum();
                both = a.len() as u64;
                product = i64::from(ab);
            }
            // Two plain quantities: read straight from the logs.
            (
                Kind::Mean,
                Source::Mean(ha) | Source::ContestRolls(ha),
                Source::Mean(hb) | Source::ContestRolls(hb),
            ) => {
                for (ta, tb) in a.iter().zip(b) {
                    if (ta.seen >> ha) & (tb.seen >> hb) & 1 == 1 {
                        let (x, y) = (i64::from(ta.values[ha]), i64::from(tb.values[hb]));
                        both += 1;
                        a_where_b += x;
                        b_where_a += y;
                        product += x * y;
                    }
                }
            }
            _ => {
                for (ta, tb) in a.iter().zip(b) {
                    if let (Some(x), Some(y)) = (read(c.a, pa, ta), read(c.b, pb, tb)) {
                        both += 1;
                        a_where_b += x;
                        b_where_a += y;
                        product += x * y;
                    }
                }
            }
        }
        *cross += &Cross {
            both,
            a_where_b: i128::from(a_where_b),
            b_where_a: i128::from(b_where_a),
            product: i128::from(product),
        };
    }
}

/// The marginal sums of a metric over a point's trials: (trials where it exists, Σx, Σx²).
fn marginal(source: Source, p: &Prepared, tally: &Tally) -> Moments {
    match source {
        Source::Count(slot) => Moments {
            n: tally.trials,
            sum: i128::from(tally.counts[slot]),
            sum_squares: u128::from(tally.counts[slot]),
        },
        Source::Mean(h) | Source::ContestRolls(h) => tally.hists[h].moments(),
        Source::RealPart(h) => tally.hists[h].map(|v| i64::from(split(p, v).0)).moments(),
        Source::TemporaryPart(h) => tally.hists[h].map(|v| i64::from(split(p, v).1)).moments(),
        Source::SaveNeeded
        | Source::MonsterStrength
        | Source::GrabberStrength
        | Source::VictimStrength
        | Source::RollNeeded => Moments::default(),
    }
}

/// One paired difference, variant minus baseline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Difference {
    /// The difference of the estimates; `None` when either side has no value (a mean over no trial).
    pub difference: Option<f64>,
    /// Lower end of the interval `difference ± z·std_error`.
    pub ci_low: Option<f64>,
    /// Upper end.
    pub ci_high: Option<f64>,
    /// The paired standard error.
    pub std_error: Option<f64>,
    /// Paired trials.
    pub trials: u64,
    /// Two-sided p-value of "no difference" (normal approximation); `None` for a fixed metric, whose
    /// difference is known exactly, and where there is no error to test with.
    pub p_value: Option<f64>,
}

impl Difference {
    fn empty(trials: u64) -> Difference {
        Difference {
            difference: None,
            ci_low: None,
            ci_high: None,
            std_error: None,
            trials,
            p_value: None,
        }
    }

    fn with_error(difference: f64, std_error: f64, trials: u64, z: f64) -> Difference {
        let p_value = if std_error > 0.0 {
            2.0 * Normal::standard().sf(difference.abs() / std_error)
        } else if difference == 0.0 {
            1.0
        } else {
            0.0
        };
        Difference {
            difference: Some(difference),
            ci_low: Some(difference - z * std_error),
            ci_high: Some(difference + z * std_error),
            std_error: Some(std_error),
            trials,
            p_value: Some(p_value),
        }
    }

    /// A difference known exactly (a fixed metric, or an exact computation): zero width, no test.
    pub fn exact(difference: f64, trials: u64) -> Difference {
        Difference {
            difference: Some(difference),
            ci_low: Some(difference),
            ci_high: Some(difference),
            std_error: Some(0.0),
            trials,
            p_value: None,
        }
    }
}

/// Σ (x − Rx·ex)(y − Ry·ey) from the joint sums. One expression serves the variances and the covariance,
/// so two identical variants give a variance of exactly 0.
fn centered(product: f64, x_where_y: f64, y_where_x: f64, both: f64, rx: f64, ry: f64) -> f64 {
    product - ry * x_where_y - rx * y_where_x + rx * ry * both
}

/// The paired difference of comparison `c` at one point: the variant's `(prepared, tally)`, the
/// baseline's, and their joint cross sums.
pub fn difference(
    c: &Comparison,
    (pa, ta): (&Prepared, &Tally),
    (pb, tb): (&Prepared, &Tally),
    cross: &Cross,
    trials: u64,
    z: f64,
) -> Difference {
    match c.kind {
        Kind::Fixed => match (c.a.fixed(&pa.fixed()), c.b.fixed(&pb.fixed())) {
            (Some(x), Some(y)) => Difference::exact(f64::from(x) - f64::from(y), trials),
            _ => Difference::empty(trials),
        },
        Kind::Probability => {
            let (a, b) = (marginal(c.a, pa, ta), marginal(c.b, pb, tb));
            if trials == 0 {
                return Difference::empty(0);
            }
            // Discordant pairs: the variant's event without the baseline's, and the reverse.
            let (a_only, b_only) = (a.sum - cross.product, b.sum - cross.product);
            let n = i128::from(trials);
            let d = (a_only - b_only) as f64 / n as f64;
            let spread = (n * (a_only + b_only) - (a_only - b_only).pow(2)).max(0) as f64;
            let variance = spread / (n as f64).powi(3);
            Difference::with_error(d, variance.sqrt(), trials, z)
        }
        Kind::Mean => {
            let (a, b) = (marginal(c.a, pa, ta), marginal(c.b, pb, tb));
            if a.n == 0 || b.n == 0 {
                return Difference::empty(trials);
            }
            let (na, nb) = (a.n as f64, b.n as f64);
            let (ra, rb) = (a.sum as f64 / na, b.sum as f64 / nb);
            let d = ra - rb;
            if a.n < 2 || b.n < 2 {
                return Difference {
                    difference: Some(d),
                    ..Difference::empty(trials)
                };
            }
            let (sa, sb) = (a.sum as f64, b.sum as f64);
            let aa = centered(a.sum_squares as f64, sa, sa, na, ra, ra);
            let bb = centered(b.sum_squares as f64, sb, sb, nb, rb, rb);
            let ab = centered(
                cross.product as f64,
                cross.a_where_b as f64,
                cross.b_where_a as f64,
                cross.both as f64,
                ra,
                rb,
            );
            let variance = (aa / (na * na) + bb / (nb * nb) - 2.0 * (ab / (na * nb))).max(0.0);
            Difference::with_error(d, variance.sqrt(), trials, z)
        }
    }
}

/// Holm's step-down adjustment of every p-value given (`None` stays `None`): the k-th smallest of m is
/// multiplied by m − k + 1, and the adjusted values are made non-decreasing in that order.
pub fn holm(p: &[Option<f64>]) -> Vec<Option<f64>> {
    let mut order: Vec<(usize, f64)> = p
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.map(|p| (i, p)))
        .collect();
    order.sort_by(|x, y| x.1.total_cmp(&y.1).then(x.0.cmp(&y.0)));
    let m = order.len();
    let mut out = vec![None; p.len()];
    let mut running: f64 = 0.0;
    for (k, (i, p)) in order.into_iter().enumerate() {
        running = running.max(((m - k) as f64 * p).min(1.0));
        out[i] = Some(running);
    }
    out
}

/// The verdict of a difference at `confidence`: `higher` or `lower` when its (Holm-adjusted) p-value is
/// below 1 − confidence, or for a fixed difference when it is not 0; else `no clear difference`. Empty
/// when there is no difference to judge.
pub fn verdict(d: &Difference, p_adjusted: Option<f64>, confidence: f64) -> &'static str {
    let Some(value) = d.difference else {
        return "";
    };
    let clear = match p_adjusted {
        Some(p) => p < 1.0 - confidence,
        None => d.std_error == Some(0.0) && value != 0.0,
    };
    match (clear, value > 0.0) {
        (true, true) => "higher",
        (true, false) => "lower",
        (false, _) => "no clear difference",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holm_multiplies_by_the_remaining_count_and_keeps_order() {
        let adjusted = holm(&[Some(0.01), None, Some(0.04), Some(0.03)]);
        // Sorted: 0.01 ×3 = 0.03, 0.03 ×2 = 0.06, 0.04 ×1 = 0.04 → raised to 0.06.
        let round = |x: Option<f64>| x.map(|v| (v * 1e9).round() / 1e9);
        assert_eq!(
            adjusted.into_iter().map(round).collect::<Vec<_>>(),
            [Some(0.03), None, Some(0.06), Some(0.06)]
        );
        assert_eq!(holm(&[Some(0.9), Some(0.8)]), [Some(1.0), Some(1.0)]);
    }

    #[test]
    fn the_discordant_pairs_give_the_paired_error() {
        // 1000 pairs: 100 where only the variant succeeds, 40 where only the baseline does, 300 both.
        let m = crate::rules::matchup(
            "class = \"thief\"\nlevel = 9\nweapon = \"club\"\nposition = \"behind\"",
            "monster = \"ogre\"\naware = false",
        );
        let p = Prepared::new(
            Action::Mug,
            &m,
            &crate::rules::RuleOptions::default(),
            &crate::rules::action::ActionOptions::default(),
        )
        .unwrap();
        let mut ta = Tally {
            trials: 1000,
            ..Tally::default()
        };
        let mut tb = ta.clone();
        ta.counts[1] = 400;
        tb.counts[1] = 340;
        let c = comparisons(Action::Mug, Action::Mug, None)[0];
        assert_eq!(c.metric, "p_knockout");
        let cross = Cross {
            both: 1000,
            a_where_b: 400,
            b_where_a: 340,
            product: 300,
        };
        let d = difference(&c, (&p, &ta), (&p, &tb), &cross, 1000, 2.0);
        assert_eq!(d.difference, Some(0.06));
        let se = ((0.14 - 0.06f64 * 0.06) / 1000.0).sqrt();
        assert!((d.std_error.unwrap() - se).abs() < 1e-15);
        assert!((d.ci_low.unwrap() - (0.06 - 2.0 * se)).abs() < 1e-15);
    }

    #[test]
    fn verdicts_follow_the_adjusted_p_value() {
        let d = Difference::with_error(0.1, 0.01, 100, 1.96);
        assert_eq!(verdict(&d, Some(0.001), 0.95), "higher");
        assert_eq!(verdict(&d, Some(0.2), 0.95), "no clear difference");
        let d = Difference::with_error(-0.1, 0.01, 100, 1.96);
        assert_eq!(verdict(&d, Some(0.01), 0.95), "lower");
        assert_eq!(verdict(&Difference::exact(2.0, 5), None, 0.95), "higher");
        assert_eq!(
            verdict(&Difference::exact(0.0, 5), None, 0.95),
            "no clear difference"
        );
        assert_eq!(verdict(&Difference::empty(5), None, 0.95), "");
    }

    #[test]
    fn comparisons_pair_names_and_the_named_baseline_metric() {
        let sap_vs_mug = comparisons(Action::Sap, Action::Mug, Some("p_knockout"));
        let pairs: Vec<_> = sap_vs_mug
            .iter()
            .map(|c| (c.metric, c.baseline_metric))
            .collect();
        assert_eq!(
            pairs,
            [
                ("p_out", "p_knockout"),
                ("p_knockout", "p_knockout"),
                ("p_hit", "p_hit"),
                ("ko_rounds", "ko_rounds"),
                ("roll_needed", "roll_needed")
            ]
        );
        assert!(baseline_metric_problem(Action::Sap, Action::Mug, "ko_rounds").is_some());
        assert!(baseline_metric_problem(Action::Sap, Action::Mug, "p_nothing").is_some());
        assert_eq!(
            baseline_metric_problem(Action::Sap, Action::Mug, "p_knockout"),
            None
        );
    }
}
