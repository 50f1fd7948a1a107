//! What rolls: one trait, [`Maneuver`], for every prepared action, on the pattern of rand's
//! `Distribution::sample`. Each maneuver's file implements it beside its rule, so what a maneuver rolls
//! (`resolve`), how many paths its dice can take (`paths`, the exact bound), the numbers fixed by its matchup
//! (`fixed`), what it counts (its outcome's [`Record`], with counters named in its own file) and the metrics
//! read from them (its metric table) all live in one place.
//!
//! The engine, the exact walk and the summaries never match on the kind of action: they go through the one
//! dispatch, `with_maneuver!` (a crate-private macro in this file), which hands each variant of
//! [`Prepared`](crate::rules::action::Prepared) to code generic over `M: Maneuver`. Each arm is
//! monomorphised, so the per-trial loop is specialised to one action with no dynamic call in it.
//!
//! Counting is described here without the tallies themselves (the statistics layer owns them, and depends
//! on the rules, not the other way round): an outcome records into any [`Sink`], by [`Counter`] and
//! [`Hist`] slots that each maneuver names for itself.

use crate::dice::{Paths, Roller};
use crate::rules::Damage;
use crate::rules::action::Fixed;

/// A counter of a tally: a slot each maneuver names in its own file (a mugging's `HIT` and a fight's
/// `ATTACKER_WINS` may share a number; they never share a name, and never meet in one tally).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counter(pub usize);

/// A histogram of a tally, named by each maneuver as its [`Counter`]s are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hist(pub usize);

/// Where outcomes are counted: the integer tally of a simulation, a paired log, or the weighted sums of an
/// exact enumeration. One [`Record`] per outcome type serves them all, so they cannot count differently.
pub trait Sink {
    /// Counts an event (when `yes`).
    fn count(&mut self, counter: Counter, yes: bool);
    /// Observes a whole-number quantity.
    fn observe(&mut self, hist: Hist, value: i64);
}

/// How one outcome is counted: which counters and histograms of its maneuver it fills.
pub trait Record {
    /// Counts this outcome.
    fn record<S: Sink>(&self, sink: &mut S);
}

/// How a summary metric is estimated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A probability over all trials.
    Probability,
    /// A mean over the trials where the quantity exists.
    Mean,
    /// A number fixed by the matchup.
    Fixed,
    /// A probability among the trials where a condition held (a hold kept, given a hold): a share, read
    /// as a probability with its own Wilson interval over those trials, and compared between variants as
    /// a mean over different trials is.
    Ratio,
}

/// Where a summary metric comes from (a row of a maneuver's metric table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A counter over all trials.
    Count(Counter),
    /// The share of the trials counted by `among` that `count` counts too (`count` implies `among`).
    Given {
        /// The event.
        count: Counter,
        /// The condition.
        among: Counter,
    },
    /// The mean of a histogram.
    Mean(Hist),
    /// The mean of a histogram of contest rolls (exactly, a geometric series).
    ContestRolls(Hist),
    /// The mean of the real part of a damage histogram.
    RealPart(Hist),
    /// The mean of the temporary part of a damage histogram.
    TemporaryPart(Hist),
    /// The mugging save number.
    SaveNeeded,
    /// The grabbed monster's Strength.
    MonsterStrength,
    /// The grabber's Strength.
    GrabberStrength,
    /// The victim's Strength in a grab.
    VictimStrength,
    /// The d20 the attack needs.
    RollNeeded,
}

impl Source {
    /// How the metric read from here is estimated.
    pub fn kind(self) -> Kind {
        match self {
            Source::Count(_) => Kind::Probability,
            Source::Given { .. } => Kind::Ratio,
            Source::Mean(_)
            | Source::ContestRolls(_)
            | Source::RealPart(_)
            | Source::TemporaryPart(_) => Kind::Mean,
            Source::SaveNeeded
            | Source::MonsterStrength
            | Source::GrabberStrength
            | Source::VictimStrength
            | Source::RollNeeded => Kind::Fixed,
        }
    }

    /// The histogram the metric read from here reads, if any.
    pub fn hist(self) -> Option<Hist> {
        match self {
            Source::Mean(h)
            | Source::ContestRolls(h)
            | Source::RealPart(h)
            | Source::TemporaryPart(h) => Some(h),
            Source::Count(_)
            | Source::Given { .. }
            | Source::SaveNeeded
            | Source::MonsterStrength
            | Source::GrabberStrength
            | Source::VictimStrength
            | Source::RollNeeded => None,
        }
    }

    /// The value of a fixed metric at a point whose fixed numbers are `f` (`None` for the others, or where
    /// the point has no such number).
    pub fn fixed(self, f: &Fixed) -> Option<i32> {
        match self {
            Source::SaveNeeded => f.save_needed,
            Source::MonsterStrength => f.monster_strength,
            Source::GrabberStrength => f.grabber_strength,
            Source::VictimStrength => f.victim_strength,
            Source::RollNeeded => f.roll_needed,
            Source::Count(_)
            | Source::Given { .. }
            | Source::Mean(_)
            | Source::ContestRolls(_)
            | Source::RealPart(_)
            | Source::TemporaryPart(_) => None,
        }
    }
}

/// A maneuver's summary metrics, headline first (docs/scenarios.md "Metrics").
pub type Metrics = &'static [(&'static str, Source)];

/// A maneuver's distributions: (metric, histogram).
pub type Distributions = &'static [(&'static str, Hist)];

/// An action prepared for one matchup, that rolls one trial at a time.
pub trait Maneuver {
    /// One trial's outcome.
    type Outcome: Record;

    /// One trial, on `rng`.
    fn resolve<R: Roller + ?Sized>(&self, rng: &mut R) -> Self::Outcome;

    /// At most how many paths of dice the exact enumerator walks, with a multiple of their denominators,
    /// counted beside the resolver from the same rolls and predicates; `None` when there is no exact
    /// answer (a fight).
    fn paths(&self) -> Option<Paths>;

    /// The numbers fixed by the matchup, reported as metrics with no interval.
    fn fixed(&self) -> Fixed {
        Fixed::default()
    }

    /// The values histogram `hist` can take, `(min, max)`, so a tally is sized once (`None`: unused, or
    /// sized as values come).
    fn range(&self, hist: Hist) -> Option<(i64, i64)>;

    /// The (real, temporary) split of a damage total (all real for a maneuver that reports no split).
    fn split(&self, total: u32) -> Damage {
        Damage {
            total,
            real: total,
            temporary: 0,
        }
    }

    /// The tied pairs of d20s of the maneuver's Strength contest, `None` without one.
    fn contest_ties(&self) -> Option<u32> {
        None
    }

    /// Whether an outcome went past the contest (its weight then carries the contest's geometric factor).
    fn past_contest(_outcome: &Self::Outcome) -> bool {
        false
    }
}

/// The one dispatch over [`Prepared`](crate::rules::action::Prepared): evaluates `$body` with `$m` bound to
/// the prepared maneuver of whichever variant `$p` is, each arm compiled for its own type.
///
/// ```text
/// let paths = with_maneuver!(p, m => m.paths());
/// ```
macro_rules! with_maneuver {
    ($p:expr, $m:ident => $body:expr) => {
        match $p {
            $crate::rules::action::Prepared::Mug($m) => $body,
            $crate::rules::action::Prepared::Sap($m) => $body,
            $crate::rules::action::Prepared::Strike($m) => $body,
            $crate::rules::action::Prepared::GrabObject($m) => $body,
            $crate::rules::action::Prepared::GrabPerson($m)
            | $crate::rules::action::Prepared::GrabMonster($m) => $body,
            $crate::rules::action::Prepared::Fight($m) => {
                let $m: &$crate::rules::fight::FightPlan = $m;
                $body
            }
            $crate::rules::action::Prepared::Gang($m) => {
                let $m: &$crate::rules::fight::gang::GangPlan = $m;
                $body
            }
        }
    };
}
pub(crate) use with_maneuver;
