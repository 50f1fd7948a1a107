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
use crate::rules::maneuver::{Counter, Hist};
pub use crate::stats::metrics::Kind;
use crate::stats::metrics::{Facts, OnOutcome, Record, Sink, Source, split, summary_table};
use crate::stats::tally::{COUNTERS, HISTOGRAMS, Moments, Tally};

/// The most trials a [`Log`] holds: a chunk of paired trials, run before their pairs are summed.
pub const LOG_TRIALS: usize = 1024;
const WORDS: usize = LOG_TRIALS / 64;

/// A chunk of one point's trials, kept column by column while its pairs are summed: for every counter and
/// for every quantity's presence one bit per trial, and every quantity's values.
///
/// In columns a paired point's trials are recorded once: the chunk's tally is a popcount per counter
/// ([`Log::add_to`]), and the trials where two counters both happened are a popcount of their AND
/// ([`add_pairs`]). A log is about 18 KB, so the two logs of a pair stay in cache while they are summed.
#[derive(Clone)]
pub struct Log {
    len: usize,
    counts: [[u64; WORDS]; COUNTERS],
    seen: [[u64; WORDS]; HISTOGRAMS],
    values: [[i64; LOG_TRIALS]; HISTOGRAMS],
}

impl Log {
    /// An empty log (boxed: it is too large for the stack of a worker to move around freely).
    pub fn new() -> Box<Log> {
        Box::new(Log {
            len: 0,
            counts: [[0; WORDS]; COUNTERS],
            seen: [[0; WORDS]; HISTOGRAMS],
            values: [[0; LOG_TRIALS]; HISTOGRAMS],
        })
    }

    /// Empties the log for the next chunk (a value is read only where its presence bit is set, so the
    /// values need no clearing).
    pub fn clear(&mut self) {
        self.len = 0;
        self.counts = [[0; WORDS]; COUNTERS];
        self.seen = [[0; WORDS]; HISTOGRAMS];
    }

    /// Adds the logged trials to a tally: the same tally as recording each outcome into it.
    pub fn add_to(&self, tally: &mut Tally) {
        tally.trials += self.len as u64;
        for (count, bits) in tally.counts.iter_mut().zip(&self.counts) {
            *count += bits.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
        }
        for (hist, (seen, values)) in tally
            .hists
            .iter_mut()
            .zip(self.seen.iter().zip(&self.values))
        {
            for (w, &bits) in seen.iter().enumerate() {
                each_trial_of(bits, w, |t| hist.add(values[t]));
            }
        }
    }
}

/// The part of a histogram's value that a metric reads: the real or the temporary part of a damage total,
/// or the value itself.
#[inline(always)]
fn part(source: Source, p: &(impl Facts + ?Sized), value: i64) -> i64 {
    match source {
        Source::RealPart(_) => i64::from(split(p, value).0),
        Source::TemporaryPart(_) => i64::from(split(p, value).1),
        Source::Count(_)
        | Source::Given { .. }
        | Source::Mean(_)
        | Source::ContestRolls(_)
        | Source::SaveNeeded
        | Source::MonsterStrength
        | Source::GrabberStrength
        | Source::VictimStrength
        | Source::RollNeeded => value,
    }
}

/// Calls `f` with every trial whose bit is set in word `w` of a column, ascending.
#[inline(always)]
fn each_trial_of(mut bits: u64, w: usize, mut f: impl FnMut(usize)) {
    while bits != 0 {
        f(w * 64 + bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

impl Sink for Log {
    #[inline]
    fn count(&mut self, counter: Counter, yes: bool) {
        // The masks keep every index in bounds without a check: `len` stays below LOG_TRIALS.
        let t = self.len;
        self.counts[counter.0][(t / 64) & (WORDS - 1)] |= u64::from(yes) << (t % 64);
    }

    #[inline]
    fn observe(&mut self, hist: Hist, value: i64) {
        let t = self.len;
        self.seen[hist.0][(t / 64) & (WORDS - 1)] |= 1 << (t % 64);
        self.values[hist.0][t & (LOG_TRIALS - 1)] = value;
    }
}

impl OnOutcome for Log {
    #[inline]
    fn on<O: Record>(&mut self, outcome: &O) {
        debug_assert!(self.len < LOG_TRIALS, "a log holds {LOG_TRIALS} trials");
        outcome.record(self);
        self.len += 1;
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

impl Comparison {
    /// Where the variant's and the baseline's metrics come from.
    pub(crate) fn sources(&self) -> (Source, Source) {
        (self.a, self.b)
    }

    /// The events a probability comparison counts, the variant's and the baseline's, as their counters
    /// (`None` for another kind): what a trial is read for when its pair is looked for again.
    pub fn events(&self) -> Option<(Counter, Counter)> {
        match (self.kind, self.a, self.b) {
            (Kind::Probability, Source::Count(a), Source::Count(b)) => Some((a, b)),
            _ => None,
        }
    }
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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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

impl Joint {
    /// Why this joint tally, read from outside, cannot be one that `trials` paired trials of a pair with
    /// `comparisons` comparisons made: another number of trials or comparisons, or more trials with both
    /// quantities than there were.
    pub fn check(&self, trials: u64, comparisons: usize) -> Result<(), String> {
        if self.trials != trials || self.cross.len() != comparisons {
            return Err(format!(
                "a joint tally of {} trials and {} comparisons where {trials} and {comparisons} belong",
                self.trials,
                self.cross.len()
            ));
        }
        match self.cross.iter().find(|c| c.both > trials) {
            Some(c) => Err(format!(
                "{} trials with both quantities in {trials}",
                c.both
            )),
            None => Ok(()),
        }
    }

    /// Adds `other` as `+=` does, unless a sum would overflow (then an error; the merge that calls it stops).
    pub fn try_add(&mut self, o: &Joint) -> Result<(), String> {
        let overflow = || "a joint tally's sums pass the largest number".to_string();
        self.trials = self.trials.checked_add(o.trials).ok_or_else(overflow)?;
        for (a, b) in self.cross.iter_mut().zip(&o.cross) {
            let sum = || {
                Some(Cross {
                    both: a.both.checked_add(b.both)?,
                    a_where_b: a.a_where_b.checked_add(b.a_where_b)?,
                    b_where_a: a.b_where_a.checked_add(b.b_where_a)?,
                    product: a.product.checked_add(b.product)?,
                })
            };
            *a = sum().ok_or_else(overflow)?;
        }
        Ok(())
    }
}

impl Joint {
    /// Adds sums made elsewhere to comparison `k`: the trials with both quantities, the variant's sum and
    /// the baseline's over them, and the sum of their products (for two counters, `both` is the trials and
    /// `product` those where both happened), as [`add_pairs`] makes them.
    pub(crate) fn add_sums(
        &mut self,
        k: usize,
        both: u64,
        a_where_b: u64,
        b_where_a: u64,
        product: u64,
    ) {
        let cross = &mut self.cross[k];
        cross.both += both;
        cross.a_where_b += i128::from(a_where_b);
        cross.b_where_a += i128::from(b_where_a);
        cross.product += i128::from(product);
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

/// Adds the pairs of trials of two logs of the same trials (the variant's and the baseline's) to `joint`.
pub fn add_pairs(
    comparisons: &[Comparison],
    (pa, a): (&Prepared, &Log),
    (pb, b): (&Prepared, &Log),
    joint: &mut Joint,
) {
    debug_assert_eq!(a.len, b.len, "two logs of the same trials");
    joint.trials += a.len as u64;
    for (c, cross) in comparisons.iter().zip(joint.cross.iter_mut()) {
        let mut sums = Cross::default();
        match (c.kind, c.a, c.b) {
            (Kind::Fixed, _, _) => continue,
            // Two counters: every trial has both, and each side's count is in its tally, so only the
            // trials where both happened are counted here (`a_where_b` and `b_where_a` stay 0).
            (Kind::Probability, Source::Count(sa), Source::Count(sb)) => {
                sums.both = a.len as u64;
                sums.product = a.counts[sa.0]
                    .iter()
                    .zip(&b.counts[sb.0])
                    .map(|(x, y)| i128::from((x & y).count_ones()))
                    .sum();
            }
            // Two shares: the trials where both conditions held, and on those each side's event.
            (
                Kind::Ratio,
                Source::Given {
                    count: ca,
                    among: wa,
                },
                Source::Given {
                    count: cb,
                    among: wb,
                },
            ) => {
                let ones = |x: &[u64], y: &[u64]| -> u64 {
                    x.iter()
                        .zip(y)
                        .map(|(x, y)| u64::from((x & y).count_ones()))
                        .sum()
                };
                let (ca, wa, cb, wb) = (
                    &a.counts[ca.0],
                    &a.counts[wa.0],
                    &b.counts[cb.0],
                    &b.counts[wb.0],
                );
                sums.both = ones(wa, wb);
                sums.a_where_b = i128::from(ones(ca, wb));
                sums.b_where_a = i128::from(ones(cb, wa));
                sums.product = i128::from(ones(ca, cb));
            }
            // Two quantities (a comparison is of one kind, so never a counter against a quantity).
            _ => {
                let (Some(Hist(ha)), Some(Hist(hb))) = (c.a.hist(), c.b.hist()) else {
                    continue;
                };
                for w in 0..WORDS {
                    each_trial_of(a.seen[ha][w] & b.seen[hb][w], w, |t| {
                        let x = part(c.a, pa, a.values[ha][t]);
                        let y = part(c.b, pb, b.values[hb][t]);
                        sums.both += 1;
                        sums.a_where_b += i128::from(x);
                        sums.b_where_a += i128::from(y);
                        sums.product += i128::from(x) * i128::from(y);
                    });
                }
            }
        }
        *cross += &sums;
    }
}

/// The marginal sums of a metric over a point's trials: (trials where it exists, Σx, Σx²).
fn marginal(source: Source, p: &(impl Facts + ?Sized), tally: &Tally) -> Moments {
    match source {
        Source::Count(c) => Moments {
            n: tally.trials,
            sum: i128::from(tally.counts[c.0]),
            sum_squares: u128::from(tally.counts[c.0]),
        },
        // A share is a mean of 0 and 1 over the trials where its condition held.
        Source::Given { count, among } => Moments {
            n: tally.counts[among.0],
            sum: i128::from(tally.counts[count.0]),
            sum_squares: u128::from(tally.counts[count.0]),
        },
        Source::Mean(h) | Source::ContestRolls(h) => tally.hists[h.0].moments(),
        Source::RealPart(h) | Source::TemporaryPart(h) => {
            tally.hists[h.0].map(|v| part(source, p, v)).moments()
        }
        Source::SaveNeeded
        | Source::MonsterStrength
        | Source::GrabberStrength
        | Source::VictimStrength
        | Source::RollNeeded => Moments::default(),
    }
}

/// The discordant pairs of a probability comparison: the trials where the variant's event happened and the
/// baseline's did not, and the reverse (`None` for another kind). Each side's count is in its tally and the
/// trials where both happened in the joint sums, so the pairs are never counted again: the paired
/// difference and flips.csv (src/study/flips.rs) read them here, and variant minus baseline is their
/// difference over the trials, exactly.
pub fn discordant(c: &Comparison, ta: &Tally, tb: &Tally, cross: &Cross) -> Option<(u64, u64)> {
    let (a, b) = c.events()?;
    let both = u64::try_from(cross.product).ok()?;
    Some((
        ta.counts[a.0].checked_sub(both)?,
        tb.counts[b.0].checked_sub(both)?,
    ))
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
    (pa, ta): (&(impl Facts + ?Sized), &Tally),
    (pb, tb): (&(impl Facts + ?Sized), &Tally),
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
            if trials == 0 {
                return Difference::empty(0);
            }
            let Some((a_only, b_only)) = discordant(c, ta, tb, cross) else {
                return Difference::empty(trials);
            };
            let (a_only, b_only) = (i128::from(a_only), i128::from(b_only));
            let n = i128::from(trials);
            let d = (a_only - b_only) as f64 / n as f64;
            let spread = (n * (a_only + b_only) - (a_only - b_only).pow(2)).max(0) as f64;
            let variance = spread / (n as f64).powi(3);
            Difference::with_error(d, variance.sqrt(), trials, z)
        }
        Kind::Mean | Kind::Ratio => {
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

/// The indices of the p-values given, smallest p-value first (ties by index): the order Holm's step-down
/// walks. Indices alone, sized up front: a study may have a million p-values, ranked while the run's
/// tallies are held.
fn ranked(p: &[Option<f64>]) -> Vec<usize> {
    let value = |i: usize| p[i].unwrap_or(f64::NAN);
    let mut order: Vec<usize> = Vec::with_capacity(p.len());
    order.extend((0..p.len()).filter(|&i| p[i].is_some()));
    order.sort_by(|&x, &y| value(x).total_cmp(&value(y)).then(x.cmp(&y)));
    order
}

/// Holm's step-down over every p-value given, once for both of its answers: `each(index, adjusted p-value,
/// level)` for each p-value in rank order, as [`holm`] and [`holm_levels`] give them.
pub fn holm_walk(p: &[Option<f64>], alpha: f64, mut each: impl FnMut(usize, f64, f64)) {
    let order = ranked(p);
    let m = order.len();
    let mut running: f64 = 0.0;
    let mut stopped: Option<f64> = None;
    for (k, i) in order.into_iter().enumerate() {
        let Some(p) = p[i] else { continue };
        let level = alpha / (m - k) as f64;
        running = running.max(((m - k) as f64 * p).min(1.0));
        if stopped.is_none() && running >= alpha {
            stopped = Some(level);
        }
        each(i, running, stopped.unwrap_or(level));
    }
}

/// Holm's step-down adjustment of every p-value given (`None` stays `None`): the k-th smallest of m is
/// multiplied by m − k + 1, and the adjusted values are made non-decreasing in that order.
pub fn holm(p: &[Option<f64>]) -> Vec<Option<f64>> {
    let mut out = vec![None; p.len()];
    holm_walk(p, 0.05, |i, adjusted, _| out[i] = Some(adjusted));
    out
}

/// The per-comparison error level of Holm's simultaneous intervals at family error `alpha`, for every
/// p-value given (`None` stays `None`).
///
/// Holm's step-down tests the comparison ranked k-th smallest of m at α/(m − k + 1) and stops at the first
/// it does not reject. The comparisons before the stop get their own step's level; the one where it stops
/// and every one after it get the stopping step's level, the widest the step-down reached. So the interval
/// at that level excludes 0 exactly when [`holm`]'s adjusted p-value is below α: a rejected comparison's p
/// is below its level, and an unrejected one's is at or above the stopping level (its p is no smaller than
/// the stopping comparison's). The stop is read from the same running maximum [`holm`] computes, so the
/// two never disagree on where it is.
pub fn holm_levels(p: &[Option<f64>], alpha: f64) -> Vec<Option<f64>> {
    let mut out = vec![None; p.len()];
    holm_walk(p, alpha, |i, _, level| out[i] = Some(level));
    out
}

impl Difference {
    /// The interval at per-comparison error `level` (from [`holm_levels`]), by the same normal
    /// approximation as the plain one: difference ± z·std_error with z the two-sided quantile at
    /// 1 − `level`. A difference without a test (known exactly, or with no error) keeps its plain interval.
    pub fn interval_at(&self, level: Option<f64>) -> (Option<f64>, Option<f64>) {
        match (self.difference, self.std_error, level, self.p_value) {
            (Some(d), Some(se), Some(level), Some(_)) => {
                let z = crate::stats::interval::z_for(1.0 - level);
                (Some(d - z * se), Some(d + z * se))
            }
            _ => (self.ci_low, self.ci_high),
        }
    }
}

/// The verdict of a difference from the interval it is judged by (the Holm-adjusted one): `higher` when
/// the interval lies above 0, `lower` when below, else `no clear difference` (also with no interval). Empty
/// when there is no difference to judge.
pub fn verdict(d: &Difference, (low, high): (Option<f64>, Option<f64>)) -> &'static str {
    if d.difference.is_none() {
        return "";
    }
    match (low, high) {
        (Some(low), _) if low > 0.0 => "higher",
        (_, Some(high)) if high < 0.0 => "lower",
        _ => "no clear difference",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::metrics;

    #[test]
    fn a_joint_tally_from_outside_is_held_to_its_trials_and_never_wraps() {
        let mut j = Joint::new(2);
        j.trials = 5;
        j.cross[1].both = 5;
        assert_eq!(j.check(5, 2), Ok(()));
        assert!(j.check(5, 3).is_err() && j.check(4, 2).is_err());
        j.cross[1].both = 6;
        assert!(j.check(5, 2).is_err(), "more trials with both than trials");
        let mut big = Joint::new(2);
        big.cross[0].product = i128::MAX;
        let mut sum = big.clone();
        assert!(sum.try_add(&big).is_err(), "a product past i128");
        big.cross[0].product = 1;
        let mut small = Joint::new(2);
        assert!(small.try_add(&big).is_ok());
        assert_eq!(small.cross[0].product, 1);
    }

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

    /// One trial as the plain rule records it: each counter, and each quantity when it exists.
    #[derive(Default)]
    struct Plain {
        counts: [bool; COUNTERS],
        values: [Option<i64>; HISTOGRAMS],
    }

    impl Sink for Plain {
        fn count(&mut self, counter: Counter, yes: bool) {
            self.counts[counter.0] |= yes;
        }
        fn observe(&mut self, hist: Hist, value: i64) {
            self.values[hist.0] = Some(value);
        }
    }

    impl Plain {
        fn read(&self, source: Source, p: &Prepared) -> Option<i64> {
            match source {
                Source::Count(c) => Some(i64::from(self.counts[c.0])),
                Source::Given { count, among } => {
                    self.counts[among.0].then_some(i64::from(self.counts[count.0]))
                }
                Source::Mean(h) | Source::ContestRolls(h) => self.values[h.0],
                Source::RealPart(h) => self.values[h.0].map(|v| i64::from(split(p, v).0)),
                Source::TemporaryPart(h) => self.values[h.0].map(|v| i64::from(split(p, v).1)),
                Source::SaveNeeded
                | Source::MonsterStrength
                | Source::GrabberStrength
                | Source::VictimStrength
                | Source::RollNeeded => None,
            }
        }
    }

    /// Runs `n` trials of a point into a tally (outcome by outcome), its plain records and a log.
    fn logged_trials(p: &Prepared, n: u64) -> (Tally, Vec<Plain>, Box<Log>) {
        struct Both<'a>(&'a mut Tally, &'a mut Vec<Plain>, &'a mut Log);
        impl OnOutcome for Both<'_> {
            fn on<O: Record>(&mut self, outcome: &O) {
                outcome.record(self.0);
                let mut plain = Plain::default();
                outcome.record(&mut plain);
                self.1.push(plain);
                self.2.on(outcome);
            }
        }
        let (mut tally, mut plain, mut log) = (metrics::empty_tally(p), Vec::new(), Log::new());
        tally.trials = n;
        let mut dice = crate::engine::TrialStreams::new(5, 1000);
        metrics::each_trial(p, n, &mut dice, &mut Both(&mut tally, &mut plain, &mut log));
        (tally, plain, log)
    }

    fn prepared(action: Action, attacker: &str, victim: &str, rules: &str) -> Prepared {
        let rules: crate::rules::RuleOptions = toml::from_str(rules).unwrap();
        let m = crate::rules::matchup(attacker, victim);
        Prepared::new(
            action,
            &m,
            &rules,
            &crate::rules::action::ActionOptions::default(),
        )
        .unwrap()
    }

    #[test]
    fn a_log_gives_the_tally_and_joint_sums_of_the_plain_rule() {
        let thief = "class = \"thief\"\nlevel = 7\nweapon = \"club\"\nposition = \"behind\"";
        let sleeper = "class = \"fighter\"\nlevel = 4\nstate = \"asleep\"\naware = false";
        let ogre = "monster = \"ogre\"\naware = false";
        let sap = prepared(Action::Sap, thief, sleeper, "");
        let capped = prepared(Action::Sap, thief, sleeper, "sap_helpless_ko_cap = 50");
        let mug = prepared(Action::Mug, thief, sleeper, "");
        let swordsman = "class = \"fighter\"\nlevel = 3\nweapon = \"short sword\"";
        let strike = prepared(Action::Strike, swordsman, ogre, "");
        let held_back = prepared(Action::Strike, swordsman, ogre, "death_at = -3");
        // A full log, one short of a word, and one trial; every kind of comparison.
        for n in [LOG_TRIALS as u64, 63, 1] {
            for ((action_a, a), (action_b, b), baseline_metric) in [
                ((Action::Sap, &sap), (Action::Sap, &capped), None),
                ((Action::Sap, &sap), (Action::Mug, &mug), Some("p_knockout")),
                (
                    (Action::Strike, &strike),
                    (Action::Strike, &held_back),
                    None,
                ),
            ] {
                let (ta, pa, la) = logged_trials(a, n);
                let (_, pb, lb) = logged_trials(b, n);
                let mut from_log = metrics::empty_tally(a);
                la.add_to(&mut from_log);
                assert_eq!(from_log, ta, "{action_a} over {n} trials");
                let cs = comparisons(action_a, action_b, baseline_metric);
                let mut joint = Joint::new(cs.len());
                add_pairs(&cs, (a, &la), (b, &lb), &mut joint);
                assert_eq!(joint.trials, n);
                for (c, cross) in cs.iter().zip(&joint.cross) {
                    let mut plain = Cross::default();
                    for (x, y) in pa.iter().zip(&pb) {
                        let (Some(x), Some(y)) = (x.read(c.a, a), y.read(c.b, b)) else {
                            continue;
                        };
                        plain.both += 1;
                        plain.product += i128::from(x * y);
                        if matches!(c.kind, Kind::Mean | Kind::Ratio) {
                            plain.a_where_b += i128::from(x);
                            plain.b_where_a += i128::from(y);
                        }
                    }
                    assert_eq!(*cross, plain, "{} over {n} trials", c.metric);
                }
            }
        }
    }

    #[test]
    fn verdicts_follow_the_interval_they_are_judged_by() {
        let d = Difference::with_error(0.1, 0.01, 100, 1.96);
        assert_eq!(verdict(&d, (Some(0.05), Some(0.15))), "higher");
        assert_eq!(
            verdict(&d, (Some(-0.01), Some(0.21))),
            "no clear difference"
        );
        assert_eq!(verdict(&d, (Some(0.0), Some(0.2))), "no clear difference");
        let d = Difference::with_error(-0.1, 0.01, 100, 1.96);
        assert_eq!(verdict(&d, (Some(-0.15), Some(-0.05))), "lower");
        let exact = Difference::exact(2.0, 5);
        assert_eq!(verdict(&exact, exact.interval_at(None)), "higher");
        let zero = Difference::exact(0.0, 5);
        assert_eq!(
            verdict(&zero, zero.interval_at(None)),
            "no clear difference"
        );
        let lone = Difference {
            difference: Some(1.0),
            ..Difference::empty(5)
        };
        assert_eq!(
            verdict(&lone, lone.interval_at(Some(0.05))),
            "no clear difference"
        );
        assert_eq!(verdict(&Difference::empty(5), (None, None)), "");
    }

    #[test]
    fn holm_levels_step_down_and_stop_at_the_first_kept() {
        // Sorted: 0.001 (level α/4), 0.01 (α/3: 0.03 < 0.05, rejected), 0.03 (α/2: 0.06, kept: the stop),
        // 0.2 after the stop keeps the stopping level α/2; a missing p has no level.
        let levels = holm_levels(
            &[Some(0.03), Some(0.001), None, Some(0.2), Some(0.01)],
            0.05,
        );
        let round = |x: Option<f64>| x.map(|v| (v * 1e12).round() / 1e12);
        assert_eq!(
            levels.into_iter().map(round).collect::<Vec<_>>(),
            [
                Some(0.025),
                Some(0.0125),
                None,
                Some(0.025),
                Some(0.05 / 3.0)
            ]
            .map(round)
        );
        // The interval at a level is difference ± z·se with z the two-sided quantile there.
        let d = Difference::with_error(0.1, 0.01, 100, 1.96);
        let (low, high) = d.interval_at(Some(0.05));
        assert!((low.unwrap() - (0.1 - 1.959963984540054 * 0.01)).abs() < 1e-12);
        assert!((high.unwrap() - (0.1 + 1.959963984540054 * 0.01)).abs() < 1e-12);
    }

    /// Many synthetic families: each adjusted interval excludes 0 exactly when the adjusted p-value is
    /// below α, so the verdict (read from the interval) and `p_adjusted` agree on every row; and the
    /// adjusted interval always holds the plain one.
    #[test]
    fn adjusted_intervals_exclude_zero_exactly_when_holm_rejects() {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let (mut clear, mut unclear) = (0, 0);
        for family in 0..400 {
            let m = 1 + family % 30;
            let alpha = [0.05, 0.01, 0.1][family % 3];
            let z = crate::stats::interval::z_for(1.0 - alpha);
            let rows: Vec<Difference> = (0..m)
                .map(|_| {
                    let se = 0.001 + 0.02 * next();
                    let d = (next() - 0.5) * 8.0 * se;
                    Difference::with_error(d, se, 1000, z)
                })
                .collect();
            let p: Vec<Option<f64>> = rows.iter().map(|d| d.p_value).collect();
            let adjusted = holm(&p);
            let levels = holm_levels(&p, alpha);
            for ((d, adjusted), level) in rows.iter().zip(adjusted).zip(levels) {
                let ci = d.interval_at(level);
                let v = verdict(d, ci);
                let rejected = adjusted.unwrap() < alpha;
                assert_eq!(
                    v != "no clear difference",
                    rejected,
                    "{d:?} adjusted {adjusted:?} at {level:?}: {ci:?}"
                );
                assert!(ci.0.unwrap() <= d.ci_low.unwrap() + 1e-15);
                assert!(ci.1.unwrap() >= d.ci_high.unwrap() - 1e-15);
                if rejected { clear += 1 } else { unclear += 1 }
            }
        }
        assert!(clear > 100 && unclear > 100, "{clear} clear, {unclear} not");
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
                ("p_woke_before_bound", "p_woke_before_bound"),
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
