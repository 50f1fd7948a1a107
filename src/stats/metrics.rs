//! Which counter and histogram of a [`Tally`] each action fills, and which metrics of docs/scenarios.md are
//! read from them. This is the one place that knows both sides, so a metric's definition cannot drift
//! between the trial loop and the summary.

use crate::dice::Roller;
use crate::rules::action::{Action, Fixed, Prepared};
use crate::rules::fight::{Ending, FightOutcome};
use crate::rules::grab::{GrabObjectOutcome, HoldOutcome};
use crate::rules::mugging::MugOutcome;
use crate::rules::sap::SapOutcome;
use crate::rules::sap::sap_damage;
use crate::rules::strike::StrikeOutcome;
use crate::rules::strike::split_total;
use crate::rules::{Damage, Unit, Wound};
use crate::stats::interval::{self, Estimate};
use crate::stats::tally::{Histogram, Tally};

// Counter slots.
const HIT: usize = 0;
const SUCCESS: usize = 1; // knockout, control, hold
const EXTRA: usize = 2; // wake, hold kept
const DOWN: usize = 3; // sap, strike: the blow left the victim at 0 hit points or less
const STRUCK: usize = 3; // grabs: the armed victim's first strike hit
const KILLED: usize = 4; // sap, strike: the real damage alone reached death_at
const OUT: usize = 5; // sap: knocked out or down
// Counter slots of fights.
const ATTACKER_WINS: usize = 0;
const VICTIM_WINS: usize = 1;
const BOTH_DOWN: usize = 2;
const TIMEOUT: usize = 3;
const VICTIM_KILLED: usize = 4;
const ATTACKER_KILLED: usize = 5;
const WON_BY_OPENING: usize = 6;
// Histogram slots.
const FIRST: usize = 0;
const SECOND: usize = 1;

/// Where a summary metric comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// A counter over all trials.
    Count(usize),
    /// The mean of a histogram.
    Mean(usize),
    /// The mean of a histogram of contest rolls (exactly, a geometric series).
    ContestRolls(usize),
    /// The mean of the real part of a damage histogram.
    RealPart(usize),
    /// The mean of the temporary part of a damage histogram.
    TemporaryPart(usize),
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

use Source::*;

/// How a summary metric is estimated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A probability over all trials.
    Probability,
    /// A mean over the trials where the quantity exists.
    Mean,
    /// A number fixed by the matchup.
    Fixed,
}

impl Source {
    /// How the metric read from here is estimated.
    pub(crate) fn kind(self) -> Kind {
        match self {
            Count(_) => Kind::Probability,
            Mean(_) | ContestRolls(_) | RealPart(_) | TemporaryPart(_) => Kind::Mean,
            SaveNeeded | MonsterStrength | GrabberStrength | VictimStrength | RollNeeded => {
                Kind::Fixed
            }
        }
    }

    /// The value of a fixed metric at a point whose fixed numbers are `f` (`None` for the others, or where
    /// the point has no such number).
    pub(crate) fn fixed(self, f: &Fixed) -> Option<i32> {
        match self {
            SaveNeeded => f.save_needed,
            MonsterStrength => f.monster_strength,
            GrabberStrength => f.grabber_strength,
            VictimStrength => f.victim_strength,
            RollNeeded => f.roll_needed,
            Count(_) | Mean(_) | ContestRolls(_) | RealPart(_) | TemporaryPart(_) => None,
        }
    }
}

/// The summary metrics of an action, headline first (docs/scenarios.md "Metrics").
pub(crate) fn summary_table(action: Action) -> &'static [(&'static str, Source)] {
    match action {
        Action::Mug => &[
            ("p_knockout", Count(SUCCESS)),
            ("p_hit", Count(HIT)),
            ("ko_rounds", Mean(FIRST)),
            ("save_needed", SaveNeeded),
            ("roll_needed", RollNeeded),
        ],
        Action::Sap => &[
            ("p_out", Count(OUT)),
            ("p_knockout", Count(SUCCESS)),
            ("p_hit", Count(HIT)),
            ("p_wake", Count(EXTRA)),
            ("p_down", Count(DOWN)),
            ("p_killed", Count(KILLED)),
            ("damage", Mean(FIRST)),
            ("damage_real", RealPart(FIRST)),
            ("damage_temporary", TemporaryPart(FIRST)),
            ("ko_rounds", Mean(SECOND)),
            ("roll_needed", RollNeeded),
        ],
        Action::Strike => &[
            ("damage", Mean(FIRST)),
            ("p_hit", Count(HIT)),
            ("p_down", Count(DOWN)),
            ("p_killed", Count(KILLED)),
            ("damage_real", RealPart(FIRST)),
            ("damage_temporary", TemporaryPart(FIRST)),
            ("roll_needed", RollNeeded),
        ],
        Action::GrabObject => &[
            ("p_control", Count(SUCCESS)),
            ("p_hit", Count(HIT)),
            ("p_struck_first", Count(STRUCK)),
            ("struck_damage", Mean(SECOND)),
            ("contest_rolls", ContestRolls(FIRST)),
            ("grabber_strength", GrabberStrength),
            ("victim_strength", VictimStrength),
            ("roll_needed", RollNeeded),
        ],
        Action::GrabPerson => &[
            ("p_hold", Count(SUCCESS)),
            ("p_hit", Count(HIT)),
            ("p_hold_kept", Count(EXTRA)),
            ("p_struck_first", Count(STRUCK)),
            ("struck_damage", Mean(SECOND)),
            ("contest_rolls", ContestRolls(FIRST)),
            ("grabber_strength", GrabberStrength),
            ("victim_strength", VictimStrength),
            ("roll_needed", RollNeeded),
        ],
        Action::GrabMonster => &[
            ("p_hold", Count(SUCCESS)),
            ("p_hit", Count(HIT)),
            ("p_hold_kept", Count(EXTRA)),
            ("p_struck_first", Count(STRUCK)),
            ("struck_damage", Mean(SECOND)),
            ("contest_rolls", ContestRolls(FIRST)),
            ("monster_strength", MonsterStrength),
            ("grabber_strength", GrabberStrength),
            ("victim_strength", VictimStrength),
            ("roll_needed", RollNeeded),
        ],
        Action::Brawl | Action::Subdue => &[
            ("p_attacker_wins", Count(ATTACKER_WINS)),
            ("p_victim_wins", Count(VICTIM_WINS)),
            ("p_both_down", Count(BOTH_DOWN)),
            ("p_timeout", Count(TIMEOUT)),
            ("p_victim_killed", Count(VICTIM_KILLED)),
            ("p_attacker_killed", Count(ATTACKER_KILLED)),
            ("p_won_by_opening", Count(WON_BY_OPENING)),
            ("rounds", Mean(FIRST)),
        ],
    }
}

/// One metric: its name in the files, its name on charts with its unit, and what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Definition {
    /// As summary.csv writes it.
    pub metric: &'static str,
    /// As a chart's axis, title and caption say it.
    pub name: &'static str,
    /// The unit of its values on a chart (percent for a probability).
    pub unit: Unit,
    /// Exactly what it counts.
    pub meaning: &'static str,
}

/// What every metric means, exactly (docs/scenarios.md "Metrics"), and what charts call it. Each summary
/// metric of every action has one entry here (a test checks it), so neither the reference nor a chart can
/// leave one out.
pub const DEFINITIONS: &[Definition] = &[
    Definition {
        metric: "p_knockout",
        name: "knockout chance",
        unit: Unit::Percent,
        meaning: "hit and knocked out: the mugged victim failed his save, or the sap's knockout d100 fell within its chance",
    },
    Definition {
        metric: "p_hit",
        name: "hit chance",
        unit: Unit::Percent,
        meaning: "the attack hit (an automatic hit on a sleeping or held victim counts)",
    },
    Definition {
        metric: "ko_rounds",
        name: "knockout length",
        unit: Unit::Rounds,
        meaning: "rounds a knockout lasts, over the knockouts",
    },
    Definition {
        metric: "save_needed",
        name: "save needed",
        unit: Unit::D20,
        meaning: "the d20 the mugged victim needs to save: his petrification number plus the mugger's level minus his own, unclamped",
    },
    Definition {
        metric: "roll_needed",
        name: "d20 roll needed",
        unit: Unit::None,
        meaning: "the d20 face the attack needs before the natural-1 and natural-20 rules: THAC0 minus armor class minus every modifier (it may be below 1 or above 20; 1 for an automatic hit)",
    },
    Definition {
        metric: "p_out",
        name: "victim out: knocked out or down",
        unit: Unit::Percent,
        meaning: "hit, and out by either way: knocked out by the rule, or down by the damage",
    },
    Definition {
        metric: "p_wake",
        name: "victim woken",
        unit: Unit::Percent,
        meaning: "hit, not knocked out, and the knockout d100 reached `sap_wake_at`: the sleeping or held victim woke",
    },
    Definition {
        metric: "p_down",
        name: "victim dropped by the blow",
        unit: Unit::Percent,
        meaning: "hit, and the blow's real and temporary damage leave the victim at 0 hit points or less (unconscious or dead)",
    },
    Definition {
        metric: "p_killed",
        name: "victim killed by the blow",
        unit: Unit::Percent,
        meaning: "hit, and the blow's real damage alone leaves the victim at `death_at` hit points or less",
    },
    Definition {
        metric: "damage",
        name: "damage per hit",
        unit: Unit::HitPoints,
        meaning: "damage applied (real and temporary), over hits",
    },
    Definition {
        metric: "damage_real",
        name: "real damage per hit",
        unit: Unit::HitPoints,
        meaning: "the real part of the damage, over hits",
    },
    Definition {
        metric: "damage_temporary",
        name: "temporary damage per hit",
        unit: Unit::HitPoints,
        meaning: "the temporary part of the damage, over hits",
    },
    Definition {
        metric: "p_control",
        name: "control won",
        unit: Unit::Percent,
        meaning: "hit, and the grabber won the Strength contest for the object",
    },
    Definition {
        metric: "p_hold",
        name: "hold won",
        unit: Unit::Percent,
        meaning: "hit, and the row of the modified roll on the wrestling column is a hold",
    },
    Definition {
        metric: "p_hold_kept",
        name: "hold kept past the first break",
        unit: Unit::Percent,
        meaning: "a hold, and the victim's first attempt to break it by the Strength contest fails",
    },
    Definition {
        metric: "p_struck_first",
        name: "grabber struck first",
        unit: Unit::Percent,
        meaning: "the armed victim's attacks of a first round, made before the grab at +4, hit the grabber at least once (0 when he holds no melee weapon, or with `armed_defender_vs_grabs = false`)",
    },
    Definition {
        metric: "struck_damage",
        name: "first-strike damage",
        unit: Unit::HitPoints,
        meaning: "the total damage of those attacks (+4 and Strength included), over the trials where one hit",
    },
    Definition {
        metric: "contest_rolls",
        name: "contest rolls",
        unit: Unit::DicePairs,
        meaning: "pairs of contest dice rolled, ties included: over hits (grab_object) or over holds (grabs of persons and monsters)",
    },
    Definition {
        metric: "grabber_strength",
        name: "grabber Strength",
        unit: Unit::Score,
        meaning: "the score the grabber rolls against in the contest, after every modifier (one hand, size; an 18/xx counted as 18)",
    },
    Definition {
        metric: "victim_strength",
        name: "victim Strength",
        unit: Unit::Score,
        meaning: "the score the victim rolls against in the contest (an 18/xx counted as 18)",
    },
    Definition {
        metric: "monster_strength",
        name: "monster Strength",
        unit: Unit::Score,
        meaning: "the grabbed monster's Strength: as given, or its rough score from its attacks (monster victims only)",
    },
    Definition {
        metric: "p_attacker_wins",
        name: "attacker wins",
        unit: Unit::Percent,
        meaning: "the fight ended with only the victim down (unconscious, dead or pinned)",
    },
    Definition {
        metric: "p_victim_wins",
        name: "victim wins",
        unit: Unit::Percent,
        meaning: "the fight ended with only the attacker down",
    },
    Definition {
        metric: "p_both_down",
        name: "both down",
        unit: Unit::Percent,
        meaning: "both sides fell in the same round",
    },
    Definition {
        metric: "p_timeout",
        name: "timeout",
        unit: Unit::Percent,
        meaning: "neither side fell within `max_rounds` (the four endings add up to 1)",
    },
    Definition {
        metric: "p_victim_killed",
        name: "victim killed",
        unit: Unit::Percent,
        meaning: "the victim is dead when the fight ends",
    },
    Definition {
        metric: "p_attacker_killed",
        name: "attacker killed",
        unit: Unit::Percent,
        meaning: "the attacker is dead when the fight ends",
    },
    Definition {
        metric: "p_won_by_opening",
        name: "won by the opening",
        unit: Unit::Percent,
        meaning: "the opening (a mugging or a sap before round 1) took the victim out: the attacker won in round 0 (0 without an opening)",
    },
    Definition {
        metric: "rounds",
        name: "fight length",
        unit: Unit::Rounds,
        meaning: "rounds fought (`max_rounds` for a timeout, 0 when the opening won)",
    },
];

/// The definition of `metric`, if it is one.
pub fn definition(metric: &str) -> Option<&'static str> {
    find(metric).map(|d| d.meaning)
}

fn find(metric: &str) -> Option<&'static Definition> {
    DEFINITIONS.iter().find(|d| d.metric == metric)
}

/// A metric's name on a chart, without its unit (the key itself for an unknown one).
pub fn name(metric: &str) -> String {
    find(metric).map_or_else(|| metric.replace('_', " "), |d| d.name.to_string())
}

/// A metric's axis label: its name and unit, `knockout chance (%)`.
pub fn label(metric: &str) -> String {
    let unit = find(metric).map_or(Unit::None, |d| d.unit);
    format!("{}{}", name(metric), unit.axis())
}

/// How a summary metric of `action` is estimated: "probability", "mean" or "fixed".
pub fn kind_of(action: Action, metric: &str) -> Option<&'static str> {
    summary_table(action)
        .iter()
        .find(|(m, _)| *m == metric)
        .map(|(_, source)| match source.kind() {
            Kind::Probability => "probability",
            Kind::Mean => "mean",
            Kind::Fixed => "fixed",
        })
}

/// The distributions of an action, by histogram slot.
fn distribution_table(action: Action) -> &'static [(&'static str, usize)] {
    match action {
        Action::Mug => &[("ko_rounds", FIRST)],
        Action::Sap => &[("damage", FIRST), ("ko_rounds", SECOND)],
        Action::Strike => &[("damage", FIRST)],
        Action::GrabObject => &[("contest_rolls", FIRST)],
        Action::Brawl | Action::Subdue => &[("rounds", FIRST)],
        Action::GrabPerson | Action::GrabMonster => &[],
    }
}

/// The summary metric names of an action, headline first.
pub fn summary_metrics(action: Action) -> impl Iterator<Item = &'static str> {
    summary_table(action).iter().map(|(name, _)| *name)
}

/// The headline metric of an action.
pub fn headline(action: Action) -> &'static str {
    summary_metrics(action).next().unwrap_or("p_attacker_wins")
}

/// How an action's headline metric is estimated.
pub fn headline_kind(action: Action) -> Kind {
    summary_table(action)
        .first()
        .map_or(Kind::Probability, |(_, source)| source.kind())
}

/// The distribution names of an action.
pub fn distribution_metrics(action: Action) -> impl Iterator<Item = &'static str> {
    distribution_table(action).iter().map(|(name, _)| *name)
}

/// Whether a metric is a probability (drawn on a 0-100 % axis).
pub fn is_probability(metric: &str) -> bool {
    metric.starts_with("p_")
}

/// An empty tally with histograms sized for the values the point can produce.
pub fn empty_tally(p: &Prepared) -> Tally {
    let mut t = Tally::default();
    match p {
        Prepared::Mug(m) => t.hists[FIRST] = Histogram::with_range(1, i64::from(m.ko_rounds.max())),
        Prepared::Sap(s) => {
            t.hists[FIRST] = Histogram::with_range(1, i64::from(s.damage.max() + s.damage_bonus));
            t.hists[SECOND] = Histogram::with_range(1, i64::from(s.ko_rounds.max()));
        }
        Prepared::Strike(s) => {
            t.hists[FIRST] = Histogram::with_range(1, i64::from(s.damage.max() + s.damage_bonus))
        }
        // Round 0: an opening won before the fight began.
        Prepared::Fight(f) => t.hists[FIRST] = Histogram::with_range(0, i64::from(f.max_rounds())),
        Prepared::GrabObject(g) => grab_tally(&mut t, &g.first_strike),
        Prepared::GrabPerson(g) | Prepared::GrabMonster(g) => grab_tally(&mut t, &g.first_strike),
    }
    t
}

/// A grab's histograms: contest rolls (rarely more than a few), and the first strike's damage.
fn grab_tally(t: &mut Tally, first_strike: &Option<crate::rules::armed_defender::FirstStrike>) {
    t.hists[FIRST] = Histogram::with_range(1, 8);
    if let Some(s) = first_strike {
        let most = i64::from(s.attacks) * i64::from((s.dice.max() + s.add).max(1));
        t.hists[SECOND] = Histogram::with_range(1, most);
    }
}

/// Where outcomes are counted: the integer [`Tally`] of a simulation, or the weighted sums of an exact
/// enumeration. One [`Record`] per outcome type serves both, so the two cannot count differently.
pub trait Sink {
    /// Counts an event in a counter slot (when `yes`).
    fn count(&mut self, slot: usize, yes: bool);
    /// Observes a whole-number quantity in a histogram slot.
    fn observe(&mut self, hist: usize, value: i64);
}

impl Sink for Tally {
    #[inline]
    fn count(&mut self, slot: usize, yes: bool) {
        self.counts[slot] += u64::from(yes);
    }

    #[inline]
    fn observe(&mut self, hist: usize, value: i64) {
        self.hists[hist].add(value);
    }
}

/// How one outcome is counted: which counters and histograms of its action it fills.
pub trait Record {
    /// Counts this outcome.
    fn record<S: Sink>(&self, sink: &mut S);
}

impl Record for MugOutcome {
    #[inline]
    fn record<S: Sink>(&self, s: &mut S) {
        s.count(HIT, self.hit);
        if let Some(rounds) = self.ko_rounds {
            s.count(SUCCESS, true);
            s.observe(FIRST, i64::from(rounds));
        }
    }
}

/// A blow that landed: its damage, and what it did to the victim's hit points (sap, strike).
#[inline]
fn record_blow<S: Sink>(damage: Damage, wound: Wound, s: &mut S) {
    s.count(HIT, true);
    s.observe(FIRST, i64::from(damage.total));
    s.count(DOWN, wound.down);
    s.count(KILLED, wound.killed);
}

/// An armed victim's first strike at a grabber (every grab).
#[inline]
fn record_struck<S: Sink>(struck: crate::rules::armed_defender::Struck, s: &mut S) {
    if struck.hit {
        s.count(STRUCK, true);
        s.observe(SECOND, i64::from(struck.damage));
    }
}

impl Record for SapOutcome {
    #[inline]
    fn record<S: Sink>(&self, s: &mut S) {
        if self.hit {
            record_blow(self.damage, self.wound, s);
        }
        s.count(EXTRA, self.woke);
        s.count(OUT, self.out());
        if let Some(rounds) = self.ko_rounds {
            s.count(SUCCESS, true);
            s.observe(SECOND, i64::from(rounds));
        }
    }
}

impl Record for StrikeOutcome {
    #[inline]
    fn record<S: Sink>(&self, s: &mut S) {
        if self.hit {
            record_blow(self.damage, self.wound, s);
        }
    }
}

impl Record for GrabObjectOutcome {
    #[inline]
    fn record<S: Sink>(&self, s: &mut S) {
        record_struck(self.struck, s);
        if self.hit {
            s.count(HIT, true);
            s.count(SUCCESS, self.control);
            s.observe(FIRST, i64::from(self.contest_rolls));
        }
    }
}

impl Record for HoldOutcome {
    #[inline]
    fn record<S: Sink>(&self, s: &mut S) {
        record_struck(self.struck, s);
        s.count(HIT, self.hit);
        if self.hold {
            s.count(SUCCESS, true);
            s.count(EXTRA, self.kept);
            s.observe(FIRST, i64::from(self.contest_rolls));
        }
    }
}

impl Record for FightOutcome {
    #[inline]
    fn record<S: Sink>(&self, s: &mut S) {
        let slot = match self.ending {
            Ending::AttackerWins => ATTACKER_WINS,
            Ending::VictimWins => VICTIM_WINS,
            Ending::BothDown => BOTH_DOWN,
            Ending::Timeout => TIMEOUT,
        };
        s.count(slot, true);
        s.count(ATTACKER_KILLED, self.killed[0]);
        s.count(VICTIM_KILLED, self.killed[1]);
        s.count(WON_BY_OPENING, self.won_by_opening);
        s.observe(FIRST, i64::from(self.rounds));
    }
}

/// Where each trial's dice come from: one roller for all of them (a scripted test), or a fresh stream per
/// trial (a real run, `engine::TrialStreams`).
pub trait TrialDice {
    /// The roller.
    type Roller: Roller;
    /// The dice of the next trial.
    fn next_trial(&mut self) -> &mut Self::Roller;
}

/// Every trial on the same roller, one after the other.
pub struct SharedDice<'a, R: ?Sized>(pub &'a mut R);

impl<R: Roller> TrialDice for SharedDice<'_, R> {
    type Roller = R;
    #[inline]
    fn next_trial(&mut self) -> &mut R {
        self.0
    }
}

/// What is done with each trial's outcome.
pub trait OnOutcome {
    /// One trial's outcome.
    fn on<O: Record>(&mut self, outcome: &O);
}

impl OnOutcome for Tally {
    #[inline]
    fn on<O: Record>(&mut self, outcome: &O) {
        outcome.record(self);
    }
}

/// Runs `n` trials of a prepared action, each on `dice.next_trial()`, handing every outcome to `sink`. The
/// match is outside the loop, so each loop is specialised to one action.
#[inline]
pub fn each_trial<D: TrialDice, S: OnOutcome>(p: &Prepared, n: u64, dice: &mut D, sink: &mut S) {
    match p {
        Prepared::Mug(m) => (0..n).for_each(|_| sink.on(&m.resolve(dice.next_trial()))),
        Prepared::Sap(s) => (0..n).for_each(|_| sink.on(&s.resolve(dice.next_trial()))),
        Prepared::Strike(s) => (0..n).for_each(|_| sink.on(&s.resolve(dice.next_trial()))),
        Prepared::GrabObject(g) => (0..n).for_each(|_| sink.on(&g.resolve(dice.next_trial()))),
        Prepared::GrabPerson(g) | Prepared::GrabMonster(g) => {
            (0..n).for_each(|_| sink.on(&g.resolve(dice.next_trial())))
        }
        Prepared::Fight(f) => (0..n).for_each(|_| sink.on(&f.resolve(dice.next_trial()))),
    }
}

/// Runs `n` trials of a prepared action on one roller and adds their outcomes to `tally` (scripted tests;
/// a real run gives every trial its own dice, `engine::TrialStreams`).
pub fn run_trials<R: Roller>(p: &Prepared, rng: &mut R, n: u64, tally: &mut Tally) {
    tally.trials += n;
    each_trial(p, n, &mut SharedDice(rng), tally);
}

/// One summary metric of one point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MetricValue {
    /// The metric's name.
    pub metric: &'static str,
    /// Its value.
    pub value: Estimate,
    /// The exact value, when it was computed (`run --exact`).
    pub exact: Option<f64>,
}

/// Every summary metric of a point from its merged tally.
pub fn summarize(p: &Prepared, action: Action, tally: &Tally, confidence: f64) -> Vec<MetricValue> {
    let z = interval::z_for(confidence);
    let fixed: Fixed = p.fixed();
    let real = |total: i64| i64::from(split(p, total).0);
    let temporary = |total: i64| i64::from(split(p, total).1);
    let fixed_value =
        |v: Option<i32>| v.map_or(Estimate::empty(), |v| interval::fixed(v, tally.trials));
    summary_table(action)
        .iter()
        .map(|&(metric, source)| {
            let value = match source {
                Count(slot) => interval::proportion(tally.counts[slot], tally.trials, z),
                Mean(slot) | ContestRolls(slot) => interval::mean(tally.hists[slot].moments(), z),
                RealPart(slot) => interval::mean(tally.hists[slot].map(real).moments(), z),
                TemporaryPart(slot) => {
                    interval::mean(tally.hists[slot].map(temporary).moments(), z)
                }
                SaveNeeded | MonsterStrength | GrabberStrength | VictimStrength | RollNeeded => {
                    fixed_value(source.fixed(&fixed))
                }
            };
            MetricValue {
                metric,
                value,
                exact: None,
            }
        })
        .collect()
}

/// The (real, temporary) parts of a damage total, by the action's own split.
pub(crate) fn split(p: &Prepared, total: i64) -> (u32, u32) {
    let total = u32::try_from(total).unwrap_or(0);
    let d = match p {
        Prepared::Sap(s) => sap_damage(total, s.rounding),
        Prepared::Strike(s) => split_total(total, s.odd_point),
        // Only saps and strikes report a damage split.
        Prepared::Mug(_)
        | Prepared::GrabObject(_)
        | Prepared::GrabPerson(_)
        | Prepared::GrabMonster(_)
        | Prepared::Fight(_) => Damage {
            total,
            real: total,
            temporary: 0,
        },
    };
    (d.real, d.temporary)
}

/// The distributions of a point: (metric, histogram).
pub fn distributions(
    action: Action,
    tally: &Tally,
) -> impl Iterator<Item = (&'static str, &Histogram)> {
    distribution_table(action)
        .iter()
        .map(move |&(name, slot)| (name, &tally.hists[slot]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleOptions;
    use crate::rules::action::ActionOptions;
    use crate::rules::matchup;

    #[test]
    fn every_action_lists_the_metrics_of_scenarios_md() {
        let names = |a| summary_metrics(a).collect::<Vec<_>>();
        assert_eq!(
            names(Action::Mug),
            [
                "p_knockout",
                "p_hit",
                "ko_rounds",
                "save_needed",
                "roll_needed"
            ]
        );
        assert_eq!(
            names(Action::Sap),
            [
                "p_out",
                "p_knockout",
                "p_hit",
                "p_wake",
                "p_down",
                "p_killed",
                "damage",
                "damage_real",
                "damage_temporary",
                "ko_rounds",
                "roll_needed"
            ]
        );
        assert_eq!(
            names(Action::Strike),
            [
                "damage",
                "p_hit",
                "p_down",
                "p_killed",
                "damage_real",
                "damage_temporary",
                "roll_needed"
            ]
        );
        let grab = [
            "p_struck_first",
            "struck_damage",
            "contest_rolls",
            "grabber_strength",
            "victim_strength",
            "roll_needed",
        ];
        assert_eq!(names(Action::GrabObject)[..2], ["p_control", "p_hit"]);
        assert_eq!(names(Action::GrabObject)[2..], grab);
        assert_eq!(
            names(Action::GrabPerson)[..3],
            ["p_hold", "p_hit", "p_hold_kept"]
        );
        assert_eq!(names(Action::GrabPerson)[3..], grab);
        assert_eq!(
            names(Action::GrabMonster),
            [
                "p_hold",
                "p_hit",
                "p_hold_kept",
                "p_struck_first",
                "struck_damage",
                "contest_rolls",
                "monster_strength",
                "grabber_strength",
                "victim_strength",
                "roll_needed"
            ]
        );
        let dists = |a| distribution_metrics(a).collect::<Vec<_>>();
        assert_eq!(dists(Action::Mug), ["ko_rounds"]);
        assert_eq!(dists(Action::Sap), ["damage", "ko_rounds"]);
        assert_eq!(dists(Action::Strike), ["damage"]);
        assert_eq!(dists(Action::GrabObject), ["contest_rolls"]);
        assert!(dists(Action::GrabPerson).is_empty());
    }

    #[test]
    fn every_metric_of_every_action_has_a_definition() {
        for action in Action::ALL {
            for metric in summary_metrics(action).chain(distribution_metrics(action)) {
                assert!(definition(metric).is_some(), "{action}: {metric}");
            }
        }
        let used: Vec<&str> = Action::ALL
            .iter()
            .flat_map(|&a| summary_metrics(a).collect::<Vec<_>>())
            .collect();
        for Definition { metric, unit, .. } in DEFINITIONS {
            assert!(
                used.contains(metric),
                "{metric} is defined but no action reports it"
            );
            // A chart prints a probability in percent: its unit says so, and only its unit.
            assert_eq!(is_probability(metric), *unit == Unit::Percent, "{metric}");
        }
        assert_eq!(label("p_knockout"), "knockout chance (%)");
        assert_eq!(label("rounds"), "fight length (rounds)");
        assert_eq!(name("no_such_metric"), "no such metric");
    }

    #[test]
    fn a_mugging_tally_counts_hits_knockouts_and_rounds() {
        let m = matchup(
            "class = \"thief\"\nlevel = 9\nweapon = \"club\"\nposition = \"behind\"",
            "monster = \"ogre\"\naware = false",
        );
        let p = Prepared::new(
            Action::Mug,
            &m,
            &RuleOptions::default(),
            &ActionOptions::default(),
        )
        .unwrap();
        // Miss; hit and save; hit, fail, 2d8 = 3 + 4.
        let mut dice = crate::dice::Scripted::new([6, 7, 17, 7, 16, 3, 4]);
        let mut t = empty_tally(&p);
        run_trials(&p, &mut dice, 3, &mut t);
        assert_eq!((t.trials, t.counts[HIT], t.counts[SUCCESS]), (3, 2, 1));
        assert_eq!(t.hists[FIRST].iter().collect::<Vec<_>>(), [(7, 1)]);
        let s = summarize(&p, Action::Mug, &t, 0.95);
        assert_eq!(s[0].metric, "p_knockout");
        assert_eq!(s[0].value.estimate, Some(1.0 / 3.0));
        assert_eq!(s[2].value.estimate, Some(7.0));
        assert_eq!(s[3].value.estimate, Some(17.0));
        // THAC0 16 against the ogre's AC 5, +4: needs 7.
        assert_eq!(
            (s[4].metric, s[4].value.estimate),
            ("roll_needed", Some(7.0))
        );
    }

    #[test]
    fn real_and_temporary_means_come_from_the_damage_histogram() {
        let m = matchup(
            "class = \"fighter\"\nweapon = \"long sword\"",
            "monster = \"orc\"",
        );
        let p = Prepared::new(
            Action::Strike,
            &m,
            &RuleOptions::default(),
            &ActionOptions::default(),
        )
        .unwrap();
        let mut t = empty_tally(&p);
        t.trials = 2;
        t.counts[HIT] = 2;
        t.hists[FIRST].add(4); // 2 real, 2 temporary
        t.hists[FIRST].add(3); // 1 real, 2 temporary: the odd point is temporary
        let s = summarize(&p, Action::Strike, &t, 0.95);
        let value = |name: &str| s.iter().find(|m| m.metric == name).unwrap().value.estimate;
        assert_eq!(value("damage"), Some(3.5));
        assert_eq!(value("damage_real"), Some(1.5));
        assert_eq!(value("damage_temporary"), Some(2.0));
    }
}
