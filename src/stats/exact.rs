//! Exact answers for the single actions: every path of dice the resolvers can take, walked by the
//! [`Enumerator`] through the very code the simulation runs, each path weighted by its probability.
//!
//! The one endless branch, a contest tied and rolled again, is summed as a geometric series: a tie of
//! probability `t` per round scales every outcome past the contest by 1/(1 − t), and the mean number of
//! rolls is 1/(1 − t). No path is truncated.

use std::collections::BTreeMap;

use crate::dice::{Enumerator, Paths};
use crate::rules::action::{Action, Prepared};
use crate::rules::fight::{FightPlan, NoExactFight};
use crate::rules::maneuver::{Counter, Hist, Maneuver, with_maneuver};
use crate::stats::interval::Estimate;
use crate::stats::metrics::{
    MetricValue, Record, Sink, Source, distribution_table, split, summary_table,
};
use crate::stats::tally::{COUNTERS, HISTOGRAMS};

/// The most paths of dice an exact answer walks: 2^21, about two million.
///
/// Why this many: a walk runs the trial once per path, about half a microsecond a path for a strike's damage
/// and hit points on an ordinary core (less for a mugging or a grab), so the longest walk accepted takes about
/// a second, and its sums, kept per value rather than per path, take no memory to speak of. The shipped
/// studies ask for at most about half a million paths a point (a grab after the holder's first strike); a
/// strike's damage of 3d20 on rolled hit points is about 460 thousand, 4d20 nine million (some five seconds),
/// 6d20 3.6 thousand million (half an hour): the bound keeps every answer worth waiting for and refuses the
/// others before any walk.
pub const MAX_PATHS: u128 = 1 << 21;

/// The pairs of d20s a contest round can show: the contest's geometric factor is 400/(400 − ties).
const PAIRS: u128 = 400;

/// Why a point has no exact value. Each is known before any path is walked ([`check`]), so a refused point
/// costs nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NoExact {
    /// A fight of several a side: its states are too many to carry round by round.
    #[error(
        "a fight of several a side has no exact value; one-on-one fights and the single actions do"
    )]
    Several,
    /// A one-on-one fight the chain of rounds does not follow, or whose states are too many.
    #[error("{0}")]
    Fight(#[from] NoExactFight),
    /// Some probability of a path, or the denominator of the sums, does not fit a 128-bit integer.
    #[error(
        "its dice have more outcomes than can be counted exactly (such as hit points of 100d1000)"
    )]
    TooManyOutcomes,
    /// More paths than [`MAX_PATHS`].
    #[error(
        "its dice can fall {} ways, more than the {MAX_PATHS} paths an exact value walks (such as damage of 6d20)",
        count_text(*.paths)
    )]
    TooManyPaths {
        /// The paths counted (saturated at `u128::MAX`).
        paths: u128,
    },
    /// A contest whose every pair of dice ties would be rolled again for ever (the rules never make one).
    #[error("its contest ties on every pair of dice, so it never ends")]
    EndlessContest,
}

/// A count of paths as a person reads it; the saturated count says only how large it is.
fn count_text(count: u128) -> String {
    if count == u128::MAX {
        "more than 10^38".to_string()
    } else {
        count.to_string()
    }
}

/// Exact probabilities of each counter and weighted values of each histogram, as integer numerators over
/// one common denominator: sums of path probabilities are then exact, and only the final division rounds.
/// A histogram keeps one sum per value, so its memory is the values it can take, not the paths walked.
#[derive(Debug, Clone)]
struct Weights {
    denominator: u128,
    weight: u128,
    counts: [u128; COUNTERS],
    hists: [BTreeMap<i64, u128>; HISTOGRAMS],
    /// A probability did not fit the common denominator: nothing here is exact.
    overflow: bool,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            denominator: 1,
            weight: 0,
            counts: [0; COUNTERS],
            hists: Default::default(),
            overflow: false,
        }
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Weights {
    /// Sets the weight of the next leaf to `numerator / denominator`, widening the common denominator
    /// (and every sum so far) when this one does not divide it.
    ///
    /// Every sum is at most the common denominator (the leaves' probabilities add up to 1), and [`check`]
    /// has made sure a multiple of every denominator fits, so nothing here should overflow; every step is
    /// checked all the same, and an overflow sets `overflow`: then the walk has no exact answer.
    fn set_leaf(&mut self, numerator: Option<u128>, denominator: Option<u128>) {
        let (Some(numerator), Some(denominator)) = (numerator, denominator) else {
            self.overflow = true;
            return;
        };
        let g = gcd(numerator, denominator);
        let (Some(numerator), Some(denominator)) =
            (numerator.checked_div(g), denominator.checked_div(g))
        else {
            self.overflow = true;
            return;
        };
        if denominator == 0 {
            self.overflow = true;
            return;
        }
        if !self.denominator.is_multiple_of(denominator) {
            let factor = denominator / gcd(self.denominator, denominator);
            let Some(widened) = self.denominator.checked_mul(factor) else {
                self.overflow = true;
                return;
            };
            self.denominator = widened;
            let sums = self
                .counts
                .iter_mut()
                .chain(self.hists.iter_mut().flat_map(|h| h.values_mut()));
            for sum in sums {
                match sum.checked_mul(factor) {
                    Some(widened) => *sum = widened,
                    None => self.overflow = true,
                }
            }
        }
        match numerator.checked_mul(self.denominator / denominator) {
            Some(weight) => self.weight = weight,
            None => self.overflow = true,
        }
    }

    fn probability(&self, count: u128) -> f64 {
        count as f64 / self.denominator as f64
    }
}

impl Sink for Weights {
    fn count(&mut self, counter: Counter, yes: bool) {
        if yes {
            match self.counts[counter.0].checked_add(self.weight) {
                Some(sum) => self.counts[counter.0] = sum,
                None => self.overflow = true,
            }
        }
    }

    fn observe(&mut self, hist: Hist, value: i64) {
        let sum = self.hists[hist.0].entry(value).or_insert(0);
        match sum.checked_add(self.weight) {
            Some(added) => *sum = added,
            None => self.overflow = true,
        }
    }
}

/// Counts the paths of one prepared action and a bound of its denominators, and refuses it when either is
/// too large: [`exact`] walks only what this accepts, so a point is refused before any walk, cheaply (a few
/// multiplications per branch point of the action).
///
/// The denominator checked is a multiple of every path's (from [`Prepared::paths`]) times the 400 pairs of a
/// contest round (a grab's outcomes past its contest weigh 400/(400 − ties) of their first round): every
/// numerator, denominator and sum of the walk is at most it.
///
/// A one-on-one fight is checked for what its chain of rounds cannot follow ([`FightPlan::exact_check`]);
/// its states are counted as the chain meets them, and it stops at their bound.
pub fn check(p: &Prepared) -> Result<Paths, NoExact> {
    match p {
        Prepared::Fight(plan) => {
            plan.exact_check()?;
            Ok(Paths::END)
        }
        Prepared::Mug(_)
        | Prepared::Sap(_)
        | Prepared::Strike(_)
        | Prepared::GrabObject(_)
        | Prepared::GrabPerson(_)
        | Prepared::GrabMonster(_)
        | Prepared::Gang(_) => with_maneuver!(p, m => check_maneuver(m)),
    }
}

fn check_maneuver<M: Maneuver>(m: &M) -> Result<Paths, NoExact> {
    let paths = m.paths().ok_or(NoExact::Several)?;
    if ties(m) >= PAIRS {
        return Err(NoExact::EndlessContest);
    }
    let contest = m.contest_ties().map_or(1, |_| PAIRS);
    if paths
        .denominator
        .and_then(|d| d.checked_mul(contest))
        .is_none()
    {
        return Err(NoExact::TooManyOutcomes);
    }
    if paths.count > MAX_PATHS {
        return Err(NoExact::TooManyPaths { paths: paths.count });
    }
    Ok(paths)
}

/// The tied pairs of d20s of a grab's contest (0 without one).
fn ties<M: Maneuver>(m: &M) -> u128 {
    m.contest_ties().map_or(0, u128::from)
}

/// Walks every path of one prepared action into weights, with the contest's geometric factor applied to
/// every path that reached a contest ([`Maneuver::past_contest`]): with `t` tied pairs out of 400, outcomes
/// past it weigh 400/(400 − t) times their first-round probability. Returns the weights and the tie chance
/// per round.
fn walk(p: &Prepared) -> Result<(Weights, f64), NoExact> {
    with_maneuver!(p, m => walk_maneuver(m))
}

fn walk_maneuver<M: Maneuver>(m: &M) -> Result<(Weights, f64), NoExact> {
    check_maneuver(m)?;
    let mut w = Weights::default();
    let ties = ties(m);
    // `check` refused 400 ties or more.
    let rounds = PAIRS - ties;
    // `check` refused more paths than this, so the limit is only met if a count fell short.
    let limit = u64::try_from(MAX_PATHS).unwrap_or(u64::MAX);
    let walked = Enumerator::walk_at_most(
        limit,
        |e| m.resolve(e),
        |o, numerator, denominator| {
            if M::past_contest(&o) {
                w.set_leaf(
                    numerator.checked_mul(PAIRS),
                    denominator.checked_mul(rounds),
                );
            } else {
                w.set_leaf(Some(numerator), Some(denominator));
            }
            if !w.overflow {
                o.record(&mut w);
            }
        },
    );
    if walked.stopped {
        return Err(NoExact::TooManyPaths {
            paths: u128::from(walked.leaves + walked.cut),
        });
    }
    if walked.inexact || w.overflow {
        // Dice with more outcomes than can be counted exactly: no exact answer, rather than a wrong one.
        return Err(NoExact::TooManyOutcomes);
    }
    Ok((w, ties as f64 / PAIRS as f64))
}

fn exactly(value: Option<f64>) -> Estimate {
    Estimate {
        estimate: value,
        ci_low: value,
        ci_high: value,
        std_error: value.map(|_| 0.0),
        trials: 0,
    }
}

/// Σ w·f(v) / Σ w in exact integers, one division at the end; `None` without any weight, or when the
/// sums outgrow an `i128`.
fn weighted_mean(values: &BTreeMap<i64, u128>, f: impl Fn(i64) -> i64) -> Option<f64> {
    let mass = values
        .values()
        .try_fold(0u128, |sum, &w| sum.checked_add(w))?;
    let total = values.iter().try_fold(0i128, |sum, (&v, &w)| {
        sum.checked_add(i128::from(f(v)).checked_mul(i128::try_from(w).ok()?)?)
    })?;
    (mass > 0).then(|| total as f64 / mass as f64)
}

/// The exact value of every summary metric of a single action or one-on-one fight at one point, or why there
/// is none (a fight of several a side, more paths or outcomes than [`check`] accepts, refused before any
/// walk, or a fight's chain past its bounds). Interval columns equal the value; `trials` is 0.
pub fn exact(p: &Prepared, action: Action) -> Result<Vec<MetricValue>, NoExact> {
    exact_point(p, action).map(|x| x.metrics)
}

/// A point's exact values: every summary metric and every distribution.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactPoint {
    /// The summary metrics, as [`exact`] gives them.
    pub metrics: Vec<MetricValue>,
    /// The distributions, as distributions.csv names them.
    pub distributions: Vec<ExactDistribution>,
}

/// One distribution of a point, exactly: every value it can take with its probability among the trials
/// where it exists (as distributions.csv's `probability`), ascending.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactDistribution {
    /// Its name (`rounds`, `damage`, ...).
    pub metric: &'static str,
    /// Every value with its probability; empty when the outcome never exists.
    pub values: Vec<(i64, f64)>,
}

/// The distributions of `action` from histograms of weights (ways of dice, or probabilities), each value's
/// weight made a share of its histogram's.
fn distributions<W: Copy>(
    action: Action,
    hists: &[BTreeMap<i64, W>; HISTOGRAMS],
    weight: impl Fn(W) -> f64,
) -> Vec<ExactDistribution> {
    distribution_table(action)
        .iter()
        .map(|&(metric, h)| {
            let total: f64 = hists[h.0].values().map(|&w| weight(w)).sum();
            ExactDistribution {
                metric,
                values: hists[h.0]
                    .iter()
                    .map(|(&v, &w)| (v, weight(w) / total))
                    .collect(),
            }
        })
        .collect()
}

/// [`exact`] with the point's distributions.
pub fn exact_point(p: &Prepared, action: Action) -> Result<ExactPoint, NoExact> {
    if let Prepared::Fight(plan) = p {
        return exact_fight(plan, action).map(|(x, _)| x);
    }
    let (w, tie) = walk(p)?;
    let fixed = p.fixed();
    let metrics = summary_table(action)
        .iter()
        .map(|&(metric, source)| {
            let value = match source {
                Source::Count(c) => Some(w.probability(w.counts[c.0])),
                Source::Given { count, among } => (w.counts[among.0] > 0)
                    .then(|| w.counts[count.0] as f64 / w.counts[among.0] as f64),
                // Contest rolls are geometric: 1/(1 − t) on average wherever a contest happened.
                Source::ContestRolls(h) => {
                    weighted_mean(&w.hists[h.0], |v| v).map(|_| 1.0 / (1.0 - tie))
                }
                Source::Mean(h) => weighted_mean(&w.hists[h.0], |v| v),
                Source::RealPart(h) => weighted_mean(&w.hists[h.0], |v| i64::from(split(p, v).0)),
                Source::TemporaryPart(h) => {
                    weighted_mean(&w.hists[h.0], |v| i64::from(split(p, v).1))
                }
                Source::SaveNeeded
                | Source::MonsterStrength
                | Source::GrabberStrength
                | Source::VictimStrength
                | Source::RollNeeded => source.fixed(&fixed).map(f64::from),
            };
            MetricValue {
                metric,
                value: exactly(value),
                exact: value,
            }
        })
        .collect();
    let distributions = distributions(action, &w.hists, |ways| ways as f64);
    Ok(ExactPoint {
        metrics,
        distributions,
    })
}

/// Probabilities of each counter and weighted values of each histogram of a fight's outcomes, in `f64`:
/// a fight's chain of rounds multiplies its exact fractions as doubles (see `rules::fight::chain`).
#[derive(Debug, Clone, Default)]
struct Mass {
    weight: f64,
    counts: [f64; COUNTERS],
    hists: [BTreeMap<i64, f64>; HISTOGRAMS],
}

impl Sink for Mass {
    fn count(&mut self, counter: Counter, yes: bool) {
        if yes {
            self.counts[counter.0] += self.weight;
        }
    }

    fn observe(&mut self, hist: Hist, value: i64) {
        *self.hists[hist.0].entry(value).or_insert(0.0) += self.weight;
    }
}

/// What an exact fight took: states met, rounds walked, paths of dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FightSize {
    /// Distinct states met over all rounds.
    pub states: usize,
    /// Rounds walked (a state and a parity), or landings of a plain round's dice on a state.
    pub transitions: u64,
    /// Leads kept: results of the states' rounds, kept so that each is walked once.
    pub leads: usize,
    /// Paths of dice walked.
    pub paths: u64,
}

/// The exact value of every summary metric of a one-on-one fight, carried round by round
/// ([`FightPlan::exact`]), and what it took. Interval columns equal the value; `trials` is 0.
pub fn exact_fight(plan: &FightPlan, action: Action) -> Result<(ExactPoint, FightSize), NoExact> {
    let fight = plan.exact()?;
    let mut mass = Mass::default();
    for (outcome, p) in &fight.outcomes {
        mass.weight = *p;
        outcome.record(&mut mass);
    }
    let mean = |h: Hist| {
        let total: f64 = mass.hists[h.0].values().sum();
        (total > 0.0).then(|| {
            mass.hists[h.0]
                .iter()
                .map(|(&v, &w)| v as f64 * w)
                .sum::<f64>()
                / total
        })
    };
    let metrics = summary_table(action)
        .iter()
        .map(|&(metric, source)| {
            let value = match source {
                Source::Count(c) => Some(mass.counts[c.0]),
                Source::Given { count, among } => (mass.counts[among.0] > 0.0)
                    .then(|| mass.counts[count.0] / mass.counts[among.0]),
                Source::Mean(h) => mean(h),
                // A fight reports none of these.
                Source::ContestRolls(_)
                | Source::RealPart(_)
                | Source::TemporaryPart(_)
                | Source::SaveNeeded
                | Source::MonsterStrength
                | Source::GrabberStrength
                | Source::VictimStrength
                | Source::RollNeeded => None,
            };
            MetricValue {
                metric,
                value: exactly(value),
                exact: value,
            }
        })
        .collect();
    let distributions = distributions(action, &mass.hists, |p| p);
    Ok((
        ExactPoint {
            metrics,
            distributions,
        },
        FightSize {
            states: fight.states,
            transitions: fight.transitions,
            leads: fight.leads,
            paths: fight.paths,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;
    use crate::rules::RuleOptions;
    use crate::rules::action::ActionOptions;
    use crate::rules::matchup;

    fn value(metrics: &[MetricValue], name: &str) -> f64 {
        metrics
            .iter()
            .find(|m| m.metric == name)
            .and_then(|m| m.value.estimate)
            .unwrap()
    }

    fn prepared(action: Action, attacker: &str, victim: &str, options: &RuleOptions) -> Prepared {
        Prepared::new(
            action,
            &matchup(attacker, victim),
            options,
            &ActionOptions::default(),
        )
        .unwrap()
    }

    /// The text's worked example at every level of the mugging study, against P(hit) × P(fail the save)
    /// computed by hand from the tables.
    #[test]
    fn thief_vs_ogre_knockout_odds_are_exact_at_every_level_gap() {
        let rogue_thac0 = [
            20, 20, 19, 19, 18, 18, 17, 17, 16, 16, 15, 15, 14, 14, 13, 13, 12, 12, 11, 11,
        ];
        for helmets in [false, true] {
            let options = RuleOptions {
                helmets,
                ..RuleOptions::default()
            };
            for level in 1..=20 {
                let thief = format!(
                    "class = \"thief\"\nlevel = {level}\nstrength = 12\nweapon = \"club\"\nposition = \"behind\""
                );
                let p = prepared(
                    Action::Mug,
                    &thief,
                    "monster = \"ogre\"\naware = false",
                    &options,
                );
                let m = exact(&p, Action::Mug).unwrap();
                let ac = if helmets { 10 } else { 5 };
                let need = (rogue_thac0[level - 1] - ac - 4).clamp(2, 20);
                let p_hit = f64::from(21 - need) / 20.0;
                let save = 12 + level as i32 - 4;
                let p_fail = f64::from((save - 1).clamp(0, 20)) / 20.0;
                let expected = p_hit * p_fail;
                assert!(
                    (value(&m, "p_knockout") - expected).abs() < 1e-12,
                    "level {level}, helmets {helmets}"
                );
                assert!((value(&m, "p_hit") - p_hit).abs() < 1e-12);
                if p_fail > 0.0 {
                    assert!(
                        (value(&m, "ko_rounds") - 9.0).abs() < 1e-9,
                        "2d8 averages 9, not {}",
                        value(&m, "ko_rounds")
                    );
                }
                assert_eq!(value(&m, "save_needed"), f64::from(save));
            }
        }
        // The level-9 thief: hits on 7 (14 faces), the ogre needs 17 (fails on 16 faces): 0.56.
        let p = prepared(
            Action::Mug,
            "class = \"thief\"\nlevel = 9\nweapon = \"club\"\nposition = \"behind\"",
            "monster = \"ogre\"\naware = false",
            &RuleOptions::default(),
        );
        assert!((value(&exact(&p, Action::Mug).unwrap(), "p_knockout") - 0.56).abs() < 1e-12);
    }

    #[test]
    fn contest_ties_are_summed_as_a_geometric_series() {
        // Equal strengths: every 400 pairs, 20 tie under the margin reading; control is then a coin flip
        // after a hit, and the mean number of rolls is 1/(1 − 1/20).
        let p = prepared(
            Action::GrabObject,
            "class = \"fighter\"\nstrength = 15",
            "class = \"fighter\"\nstrength = 15\nweapon = \"long sword\"",
            &RuleOptions::default(),
        );
        let m = exact(&p, Action::GrabObject).unwrap();
        let p_hit = value(&m, "p_hit");
        assert!((value(&m, "p_control") - p_hit / 2.0).abs() < 1e-12);
        assert!((value(&m, "contest_rolls") - 20.0 / 19.0).abs() < 1e-12);
    }

    #[test]
    fn exact_damage_means_match_the_dice() {
        // A held-back long sword (1d8, Strength 10) against an orc: totals 1,1,1,2,2,3,3,4 → mean 17/8.
        let p = prepared(
            Action::Strike,
            "class = \"fighter\"\nweapon = \"long sword\"",
            "monster = \"orc\"",
            &RuleOptions::default(),
        );
        let m = exact(&p, Action::Strike).unwrap();
        assert!((value(&m, "damage") - 17.0 / 8.0).abs() < 1e-12);
        assert!(
            (value(&m, "damage_real") + value(&m, "damage_temporary") - 17.0 / 8.0).abs() < 1e-12
        );
    }

    /// P(A) over every face of every die, counted by hand: `f` takes the faces and says whether A holds.
    fn by_hand(sides: &[u32], f: impl Fn(&[u32]) -> Option<bool>) -> f64 {
        let total: u64 = sides.iter().map(|&s| u64::from(s)).product();
        let mut faces = vec![1u32; sides.len()];
        let (mut yes, mut counted) = (0u64, 0u64);
        loop {
            if let Some(a) = f(&faces) {
                counted += 1;
                yes += u64::from(a);
            }
            let mut i = sides.len();
            loop {
                if i == 0 {
                    assert_eq!(counted, total);
                    return yes as f64 / total as f64;
                }
                i -= 1;
                if faces[i] < sides[i] {
                    faces[i] += 1;
                    break;
                }
                faces[i] = 1;
            }
        }
    }

    #[test]
    fn a_saps_down_killed_and_out_odds_are_exact_against_rolled_hit_points() {
        // The 18/00 sapper (THAC0 16 at level 5, +3 to hit, −8) with a club (1d6 + 6) against a sentry of
        // AC 5 with a fighter's 2d10 hit points (level 2). Counted here face by face: d20, d6, d100, 2d10.
        let p = prepared(
            Action::Sap,
            "class = \"fighter\"\nlevel = 5\nstrength = \"18/00\"\nweapon = \"club\"",
            "class = \"fighter\"\nlevel = 2\nac = 5",
            &RuleOptions::default(),
        );
        let m = exact(&p, Action::Sap).unwrap();
        let sides = [20, 6, 100, 10, 10];
        let judge = |f: &[u32]| {
            let hit = f[0] != 1 && (f[0] == 20 || f[0] as i32 + 3 - 8 >= 16 - 5);
            let total = f[1] as i32 + 6;
            let real = (total + 1) / 4; // a quarter, .5 or less down: 7..12 → 2, 2, 2, 2, 3, 3
            let hp = (f[3] + f[4]) as i32;
            let ko = f[2] as i32 <= (5 * total).min(40);
            (hit, ko, hp - total <= 0, hp - real <= 0)
        };
        // (hit, knocked out, down, killed) of one path.
        type Judged = (bool, bool, bool, bool);
        type Pick = fn(Judged) -> bool;
        let expect = |pick: Pick| by_hand(&sides, |f| Some(pick(judge(f))));
        let cases: [(&str, Pick); 4] = [
            ("p_down", |(hit, _, down, _)| hit && down),
            ("p_killed", |(hit, _, _, killed)| hit && killed),
            ("p_out", |(hit, ko, down, _)| hit && (ko || down)),
            ("p_knockout", |(hit, ko, _, _)| hit && ko),
        ];
        for (metric, pick) in cases {
            let want = expect(pick);
            assert!(want > 0.0, "{metric} is a case worth testing");
            assert!(
                (value(&m, metric) - want).abs() < 1e-12,
                "{metric}: {} vs {want}",
                value(&m, metric)
            );
        }
        assert_eq!(value(&m, "roll_needed"), 16.0);
    }

    #[test]
    fn a_strikes_down_and_killed_odds_are_exact_and_many_hit_dice_stay_cheap() {
        // An 18/00 warrior of level 12 holds back a long sword against a level-1 fighter (1d10 hit points).
        let p = prepared(
            Action::Strike,
            "class = \"fighter\"\nlevel = 12\nstrength = \"18/00\"\nweapon = \"long sword\"",
            "class = \"fighter\"\nlevel = 1\nac = 10",
            &RuleOptions::default(),
        );
        let m = exact(&p, Action::Strike).unwrap();
        // Needs 9 − 10 − (−4 + 3) = 0: every face but the natural 1. Damage 1d8 + 6 = 7..14 held back to
        // half, .5 down (3, 4, 4, 5, 5, 6, 6, 7), of which half rounded down is real.
        let sides = [20, 8, 10];
        let total = |f: &[u32]| (f[1] as i32 + 6) / 2;
        let down = by_hand(&sides, |f| Some(f[0] != 1 && f[2] as i32 <= total(f)));
        let killed = by_hand(&sides, |f| Some(f[0] != 1 && f[2] as i32 <= total(f) / 2));
        assert!((value(&m, "p_down") - down).abs() < 1e-12);
        assert!((value(&m, "p_killed") - killed).abs() < 1e-12);
        // Against hit points of many dice the enumerator walks two comparisons, not every total: a blow of
        // a custom maul (4d10 + 100) held back, against 20d6 hit points, counted here by convolving the two
        // distributions, where a walk die by die would take 10^4 × 6^20 paths.
        let maul = "class = \"fighter\"\nlevel = 12\nweapon = { name = \"maul\", damage = \"4d10+100\", controllable = true }";
        let victim = "class = \"fighter\"\nlevel = 9\nhp = \"20d6\"";
        let big = prepared(Action::Strike, maul, victim, &RuleOptions::default());
        let m = exact(&big, Action::Strike).unwrap();
        let blow = Dice::of(4, 10, 100).counts().unwrap();
        let hp = Dice::of(20, 6, 0).counts().unwrap();
        let (blows, hps) = (10u128.pow(4) as f64, 6u128.pow(20) as f64);
        let at_most = |x: i32| {
            hp.iter()
                .filter(|(v, _)| *v <= x)
                .map(|(_, n)| *n as f64)
                .sum::<f64>()
                / hps
        };
        let (mut down, mut killed) = (0.0, 0.0);
        for &(rolled, n) in &blow {
            let total = rolled / 2; // .5 rounds down
            down += n as f64 / blows * at_most(total);
            killed += n as f64 / blows * at_most(total / 2);
        }
        // THAC0 9 against AC 10 at −4 needs 3: 18 faces of 20.
        let p_hit = 18.0 / 20.0;
        assert!((value(&m, "p_hit") - p_hit).abs() < 1e-12);
        assert!((value(&m, "p_down") - p_hit * down).abs() < 1e-12);
        assert!((value(&m, "p_killed") - p_hit * killed).abs() < 1e-12);
        assert!(
            down > 0.01 && killed > 0.0,
            "a case worth testing: {down}, {killed}"
        );
    }

    #[test]
    fn dice_too_many_to_count_exactly_give_no_exact_answer_rather_than_a_wrong_one() {
        // Hit points of 40d8 against a blow that can reach them: 8^40 outcomes fit a u128, but not times
        // the sap's other dice.
        let p = prepared(
            Action::Sap,
            "class = \"fighter\"\nweapon = { name = \"ram\", damage = \"1d6+300\" }",
            "class = \"fighter\"\nhp = \"40d8\"",
            &RuleOptions::default(),
        );
        assert_eq!(exact(&p, Action::Sap).err(), Some(NoExact::TooManyOutcomes));
        // Smaller hit point dice still have their answer.
        let p = prepared(
            Action::Sap,
            "class = \"fighter\"\nweapon = { name = \"ram\", damage = \"1d6+30\" }",
            "class = \"fighter\"\nhp = \"9d8\"",
            &RuleOptions::default(),
        );
        let m = exact(&p, Action::Sap).unwrap();
        assert!(value(&m, "p_hit") <= 1.0 && value(&m, "p_out") <= value(&m, "p_hit"));
        assert!(value(&m, "p_down") > 0.0);
    }

    /// A mugging's knockout against a binding of 6 rounds: awake first when 2d8 < 6, 10 of the 64
    /// outcomes, so `p_woke_before_bound` is exactly `p_knockout` × 10/64. A sap's binding walks its
    /// hit points in four regions, every one counted.
    #[test]
    fn waking_before_the_binding_is_exact() {
        let bound = |action, attacker: &str, victim: &str, bind_rounds| {
            let options = ActionOptions {
                bind_rounds,
                ..ActionOptions::default()
            };
            let m = matchup(attacker, victim);
            Prepared::new(action, &m, &RuleOptions::default(), &options).unwrap()
        };
        let mug = bound(
            Action::Mug,
            "class = \"thief\"\nlevel = 9\nweapon = \"club\"\nposition = \"behind\"",
            "monster = \"ogre\"\naware = false",
            6,
        );
        let m = exact(&mug, Action::Mug).unwrap();
        let ko = value(&m, "p_knockout");
        assert!(ko > 0.1);
        assert!((value(&m, "p_woke_before_bound") - ko * 10.0 / 64.0).abs() < 1e-12);
        let sap = bound(
            Action::Sap,
            "class = \"fighter\"\nlevel = 5\nstrength = 18\nweapon = \"club\"",
            "class = \"fighter\"\nlevel = 1\nhp = \"1d8\"",
            11,
        );
        let m = exact(&sap, Action::Sap).unwrap();
        let woke = value(&m, "p_woke_before_bound");
        assert!(woke > 0.0 && woke < value(&m, "p_out"));
        // Regions a cut leaves empty (two cuts at one value) are counted, not walked.
        assert!(walked(&sap).0 <= check(&sap).unwrap().count);
        // And the simulation of the same sap agrees, within 4.5 standard errors at 200,000 trials.
        use rand_xoshiro::Xoshiro256PlusPlus;
        use rand_xoshiro::rand_core::SeedableRng;
        let n = 200_000;
        let mut t = crate::stats::metrics::empty_tally(&sap);
        crate::stats::metrics::run_trials(
            &sap,
            &mut Xoshiro256PlusPlus::seed_from_u64(31),
            n,
            &mut t,
        );
        let simulated = crate::stats::metrics::summarize(&sap, Action::Sap, &t, 0.95);
        let estimate = value(&simulated, "p_woke_before_bound");
        let se = (woke * (1.0 - woke) / n as f64).sqrt();
        assert!(
            (estimate - woke).abs() <= 4.5 * se,
            "{estimate} vs exactly {woke}"
        );
    }

    #[test]
    fn an_armed_victims_first_strike_is_exact() {
        // The holder (THAC0 20, +4) against AC 10 needs 6: 15 faces of 20; 1d8 + 4 averages 8.5.
        let p = prepared(
            Action::GrabObject,
            "class = \"fighter\"\nstrength = 15",
            "class = \"fighter\"\nstrength = 15\nweapon = \"long sword\"",
            &RuleOptions::default(),
        );
        let m = exact(&p, Action::GrabObject).unwrap();
        assert!((value(&m, "p_struck_first") - 0.75).abs() < 1e-12);
        assert!((value(&m, "struck_damage") - 8.5).abs() < 1e-12);
        // The contest's geometric factor touches the grab, not the strike before it.
        assert!((value(&m, "contest_rolls") - 20.0 / 19.0).abs() < 1e-12);
        assert_eq!(value(&m, "victim_strength"), 15.0);
    }

    /// The paths the enumerator walks for `p` (tie-cut ones included) and every path's denominator.
    fn walked(p: &Prepared) -> (u128, Vec<u128>) {
        assert!(p.paths().is_some(), "a fight is not walked");
        let mut denominators = Vec::new();
        let walk = with_maneuver!(p, m => Enumerator::walk(|e| m.resolve(e), |_, _, d| denominators.push(d)));
        assert!(!walk.inexact && !walk.stopped);
        (u128::from(walk.leaves + walk.cut), denominators)
    }

    #[test]
    fn the_count_is_the_paths_walked_when_every_branch_is_reached() {
        // A mugging has no region: 20 attack faces, the hits (13 of them at level 9 against the ogre) each
        // 20 save faces, the failed saves (16) each 8 × 8 faces of knockout rounds.
        let mug = prepared(
            Action::Mug,
            "class = \"thief\"\nlevel = 9\nweapon = \"club\"\nposition = \"behind\"",
            "monster = \"ogre\"\naware = false",
            &RuleOptions::default(),
        );
        let count = check(&mug).unwrap().count;
        assert_eq!(count, walked(&mug).0);
        assert_eq!(count, 6 + 14 * (4 + 16 * 64), "the hand count of the paths");
        // A grab of an object held in a bow hand: no first strike, every contest pair a path, ties included.
        let grab = prepared(
            Action::GrabObject,
            "class = \"fighter\"\nstrength = 15",
            "class = \"fighter\"\nstrength = 15\nweapon = \"long sword\"",
            &RuleOptions {
                armed_defender_vs_grabs: false,
                ..RuleOptions::default()
            },
        );
        assert_eq!(check(&grab).unwrap().count, walked(&grab).0);
        // A strike on fixed hit points, and a grab after an armed holder's first strike.
        let strike = prepared(
            Action::Strike,
            "class = \"fighter\"\nweapon = { name = \"maul\", damage = \"2d10\", controllable = true }",
            "monster = \"orc\"\nhp = 7",
            &RuleOptions::default(),
        );
        assert_eq!(check(&strike).unwrap().count, walked(&strike).0);
        // The strike's 13-16 points meet the grabber's 2d10 in all three regions (dead at −10 or less,
        // down, standing), and only the standing one grabs.
        let struck = prepared(
            Action::GrabObject,
            "class = \"fighter\"\nstrength = 15\nhp = \"2d10\"",
            "class = \"fighter\"\nstrength = 15\nweapon = { name = \"club\", damage = \"1d4+8\" }",
            &RuleOptions {
                death_at: -10,
                ..RuleOptions::default()
            },
        );
        assert_eq!(check(&struck).unwrap().count, walked(&struck).0);
    }

    #[test]
    fn every_shipped_point_walks_at_most_its_count_within_its_denominator() {
        // Regions of hit points and of the knockout d100 are counted whole whether or not a value reaches
        // them, so the count bounds the walk; every path's denominator divides the counted one.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        let mut points = 0;
        for file in files {
            let scenario = crate::scenario::Scenario::load(&file).unwrap();
            for point in &scenario.points {
                let Ok(p) = &point.prepare() else { continue };
                if point.action.is_fight() {
                    // Fights are counted by their chain of rounds, not by paths.
                    continue;
                }
                let counted = check(p).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                let (paths, denominators) = walked(p);
                let multiple = counted.denominator.unwrap();
                assert!(
                    paths <= counted.count,
                    "{}: {paths} > {counted:?}",
                    file.display()
                );
                assert!(
                    denominators.iter().all(|d| multiple.is_multiple_of(*d)),
                    "{}: a denominator does not divide {multiple}",
                    file.display()
                );
                points += 1;
            }
        }
        assert!(points > 100, "{points} points checked");
    }

    #[test]
    fn huge_dice_are_refused_by_their_count_before_any_walk() {
        // 100d1000 hit points: 1000^100 outcomes. 100d1000 of damage: as many paths. `check` only counts, so
        // `exact` refusing the same way has walked nothing (a walk of 1000^100 paths would never return).
        let victim = |hp: &str| format!("class = \"fighter\"\nlevel = 9\nhp = \"{hp}\"");
        let weapon = |dice: &str| {
            format!(
                "class = \"fighter\"\nweapon = {{ name = \"maul\", damage = \"{dice}\", controllable = true }}"
            )
        };
        let hp = prepared(
            Action::Strike,
            &weapon("1d8"),
            &victim("100d1000"),
            &RuleOptions::default(),
        );
        assert_eq!(check(&hp).err(), Some(NoExact::TooManyOutcomes));
        assert_eq!(
            exact(&hp, Action::Strike).err(),
            Some(NoExact::TooManyOutcomes)
        );
        let damage = prepared(
            Action::Strike,
            &weapon("100d1000"),
            &victim("1d8"),
            &RuleOptions::default(),
        );
        assert_eq!(check(&damage).err(), Some(NoExact::TooManyOutcomes));
        assert_eq!(
            exact(&damage, Action::Strike).err(),
            Some(NoExact::TooManyOutcomes)
        );
        // Damage of 6d20 against fixed hit points fits a u128 but is 1 + 19 × 20^6 paths.
        let many = prepared(
            Action::Strike,
            &format!("{}\nlevel = 12\nstrength = \"18/00\"", weapon("6d20")),
            "class = \"fighter\"\nac = 10\nhp = 30",
            &RuleOptions::default(),
        );
        let refused = NoExact::TooManyPaths {
            paths: 1 + 19 * 20u128.pow(6),
        };
        assert_eq!(check(&many).err(), Some(refused));
        assert_eq!(exact(&many, Action::Strike).err(), Some(refused));
        assert!(refused.to_string().contains("1216000001 ways"), "{refused}");
    }

    #[test]
    fn a_point_of_exactly_the_most_paths_is_walked_and_one_more_die_is_refused() {
        // A strike on a sleeping victim hits without a roll: 7d8 of damage on fixed hit points is
        // 8^7 = 2^21 paths, all walked; rolled hit points make them three times as many.
        assert_eq!(8u128.pow(7), MAX_PATHS);
        let maul = "class = \"fighter\"\nweapon = { name = \"maul\", damage = \"7d8\", controllable = true }";
        let sleeper = |hp: &str| format!("class = \"fighter\"\nstate = \"asleep\"\nhp = {hp}");
        let p = prepared(
            Action::Strike,
            maul,
            &sleeper("40"),
            &RuleOptions::default(),
        );
        assert_eq!(check(&p).unwrap().count, MAX_PATHS);
        let m = exact(&p, Action::Strike).unwrap();
        assert_eq!(value(&m, "p_hit"), 1.0);
        // Held back: half of 7d8 (31.5 on average, .5 down), real half of that; the sleeper's 40 hit points
        // are never reached.
        assert!(value(&m, "damage") > 15.0 && value(&m, "damage") < 16.0);
        assert_eq!(value(&m, "p_down"), 0.0);
        let rolled = prepared(
            Action::Strike,
            maul,
            &sleeper("\"9d10\""),
            &RuleOptions::default(),
        );
        assert_eq!(
            exact(&rolled, Action::Strike).err(),
            Some(NoExact::TooManyPaths {
                paths: 3 * MAX_PATHS
            })
        );
    }

    #[test]
    fn a_fight_s_outcomes_add_up_to_one_and_its_metrics_to_their_parts() {
        let fight = prepared(
            Action::Brawl,
            "class = \"fighter\"\nhp = 6",
            "class = \"fighter\"\nhp = 5",
            &RuleOptions::default(),
        );
        let m = exact(&fight, Action::Brawl).unwrap();
        let endings = [
            "p_attacker_wins",
            "p_victim_wins",
            "p_both_down",
            "p_timeout",
        ]
        .map(|name| value(&m, name))
        .iter()
        .sum::<f64>();
        assert!((endings - 1.0).abs() < 1e-9, "{endings}");
        assert!(value(&m, "p_taken_alive") <= value(&m, "p_attacker_wins") + 1e-12);
        assert!(value(&m, "rounds") >= 1.0);
    }

    #[test]
    fn a_points_exact_distributions_add_to_one_and_their_means_are_its_metrics() {
        // A fight's `rounds` and a mugging's `ko_rounds`: each distribution's probabilities add to 1, and
        // its mean is the summary metric of the same name.
        let fight = prepared(
            Action::Brawl,
            "class = \"fighter\"\nhp = 6",
            "class = \"fighter\"\nhp = 5",
            &RuleOptions::default(),
        );
        let mug = prepared(
            Action::Mug,
            "class = \"thief\"\nlevel = 9\nweapon = \"club\"\nposition = \"behind\"",
            "monster = \"ogre\"\naware = false",
            &RuleOptions::default(),
        );
        for (p, action, name) in [
            (&fight, Action::Brawl, "rounds"),
            (&mug, Action::Mug, "ko_rounds"),
        ] {
            let x = exact_point(p, action).unwrap();
            let d = x
                .distributions
                .iter()
                .find(|d| d.metric == name)
                .unwrap_or_else(|| panic!("{name}"));
            let total: f64 = d.values.iter().map(|v| v.1).sum();
            let mean: f64 = d.values.iter().map(|&(v, q)| v as f64 * q).sum();
            assert!((total - 1.0).abs() < 1e-12, "{name}: {total}");
            let want = value(&x.metrics, name);
            assert!(
                (mean - want).abs() < 1e-9 * want,
                "{name}: {mean} against {want}"
            );
            assert!(
                d.values.windows(2).all(|w| w[0].0 < w[1].0),
                "{name} ascending"
            );
        }
    }
}
