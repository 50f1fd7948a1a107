//! The metrics of docs/scenarios.md read from a [`Tally`]: what each metric means, and its value at a point.
//! Which counters and histograms an action fills, and which metrics read them, is each maneuver's own table
//! beside its rule ([`crate::rules::maneuver`]); the trial loop and the summary both go through it, so a
//! metric's definition cannot drift between them.

use crate::dice::Roller;
use crate::rules::action::{Action, Fixed, Prepared};
use crate::rules::maneuver::{Distributions, Hist, Maneuver, Metrics, with_maneuver};
use crate::rules::{Damage, Unit, fight, grab, mugging, sap, strike};
use crate::stats::interval::{self, Estimate};
use crate::stats::tally::{Histogram, Tally};

pub(crate) use crate::rules::maneuver::Source;
pub use crate::rules::maneuver::{Kind, Record, Sink};

use Source::*;

/// The summary metrics of an action, headline first (docs/scenarios.md "Metrics"): each maneuver's own
/// table, beside the counters it names.
pub(crate) fn summary_table(action: Action) -> Metrics {
    match action {
        Action::Mug => mugging::METRICS,
        Action::Sap => sap::METRICS,
        Action::Strike => strike::METRICS,
        Action::GrabObject => grab::OBJECT_METRICS,
        Action::GrabPerson => grab::PERSON_METRICS,
        Action::GrabMonster => grab::MONSTER_METRICS,
        Action::Brawl | Action::Subdue => fight::METRICS,
        Action::GangBrawl | Action::GangSubdue => fight::gang::METRICS,
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
        meaning: "hit, not knocked out, the knockout d100 reached `sap_wake_at`, and the blow left him standing: the sleeping or held victim woke and can raise the alarm",
    },
    Definition {
        metric: "p_sleeps_on",
        name: "sleeps on",
        unit: Unit::Percent,
        meaning: "a sleeping or held victim hit, neither knocked out, nor woken, nor dropped: he sleeps on (0 against an awake victim)",
    },
    Definition {
        metric: "p_silent",
        name: "no alarm",
        unit: Unit::Percent,
        meaning: "out (`p_out`), or still asleep or held (`p_sleeps_on`): the victim raises no alarm",
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
        meaning: "hit, and the grabber won the Strength contest for the object (a grabber the holder's first strike drops grabs nothing: no hit, no control)",
    },
    Definition {
        metric: "p_hold",
        name: "hold won",
        unit: Unit::Percent,
        meaning: "hit, and the row of the modified roll on the wrestling column is a hold (the same whatever the sizes: the size rule acts on the contest that keeps it)",
    },
    Definition {
        metric: "p_hold_kept",
        name: "hold kept past the first break",
        unit: Unit::Percent,
        meaning: "a hold, and the victim's first attempt to break it by the Strength contest fails: the headline of the grabs of persons and monsters, where the size rule shows",
    },
    Definition {
        metric: "p_kept_given_hold",
        name: "hold kept, given a hold",
        unit: Unit::Percent,
        meaning: "among the trials with a hold, the share where the victim's first attempt to break it fails: the contest alone, with its Wilson interval over those trials (`trials` counts them)",
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
        metric: "p_grabber_down",
        name: "grabber dropped",
        unit: Unit::Percent,
        meaning: "the armed victim's first strike leaves the grabber at 0 hit points or less (his `hp`, or his hit dice rolled per trial): he grabs nothing",
    },
    Definition {
        metric: "p_grabber_killed",
        name: "grabber killed",
        unit: Unit::Percent,
        meaning: "the first strike's damage (all real: the victim strikes at full force) leaves the grabber at `death_at` hit points or less",
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
        meaning: "the fight ended with the attacker standing and the victim down (unconscious, dead or pinned); dead victims count too: see `p_taken_alive`",
    },
    Definition {
        metric: "p_taken_alive",
        name: "taken alive",
        unit: Unit::Percent,
        meaning: "the attacker won and the victim is alive at the end (with several a side: the attackers won and every victim is alive); with held-back blows it depends on `held_back_rounding`",
    },
    Definition {
        metric: "p_attackers_win",
        name: "attackers win",
        unit: Unit::Percent,
        meaning: "with several a side: every victim is down at the end and some attacker stands",
    },
    Definition {
        metric: "p_victims_win",
        name: "victims win",
        unit: Unit::Percent,
        meaning: "with several a side: every attacker is down at the end and some victim stands",
    },
    Definition {
        metric: "attackers_down",
        name: "attackers down",
        unit: Unit::None,
        meaning: "with several a side: attackers down at the end (unconscious, pinned or dead), a mean over trials",
    },
    Definition {
        metric: "attackers_killed",
        name: "attackers killed",
        unit: Unit::None,
        meaning: "with several a side: attackers dead at the end, a mean over trials",
    },
    Definition {
        metric: "victims_killed",
        name: "victims killed",
        unit: Unit::None,
        meaning: "with several a side: victims dead at the end, a mean over trials",
    },
    Definition {
        metric: "p_victim_wins",
        name: "victim wins",
        unit: Unit::Percent,
        meaning: "the fight ended with the victim standing and the attacker down (a lethal victim finishes him first: see `finish_downed`)",
    },
    Definition {
        metric: "p_both_down",
        name: "both down",
        unit: Unit::Percent,
        meaning: "both sides fell in the same round (with several a side: the last standing of both)",
    },
    Definition {
        metric: "p_timeout",
        name: "timeout",
        unit: Unit::Percent,
        meaning: "nobody fell within `max_rounds`, or with several a side both sides still stood (the four endings add up to 1)",
    },
    Definition {
        metric: "p_victim_killed",
        name: "victim killed",
        unit: Unit::Percent,
        meaning: "the victim is dead when the fight ends; with held-back blows it depends several times over on `held_back_rounding`",
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
        meaning: "the opening took the victim out: a mugging or a sap before round 1 (the attacker won in round 0), or a sleeper sapped again round after round until knocked out or dropped (0 without an opening)",
    },
    Definition {
        metric: "rounds",
        name: "fight length",
        unit: Unit::Rounds,
        meaning: "rounds fought, to the end: the round the winner stopped striking or his foe died (`max_rounds` for a timeout, 0 when the opening won before round 1)",
    },
    Definition {
        metric: "p_woke_before_bound",
        name: "woke before he was tied",
        unit: Unit::Percent,
        meaning: "out and alive, and awake again before the `bind_rounds` it takes to tie him are over (0 with `bind_rounds = 0`). A fight: the attacker won and the victim's clock ran out first (`rounds_out` < `bind_rounds`); `p_taken_alive` leaves these out. A mugging or a sap: the knockout lasted fewer rounds than the binding, and a victim the sap's damage dropped was healed to 1 hit point before it ended (a heal every `temp_heal_rounds`)",
    },
    Definition {
        metric: "rounds_out",
        name: "rounds down after the fight",
        unit: Unit::Rounds,
        meaning: "rounds the loser stays down after the fight's last round, over the fights with a living loser whose clock runs: a mugging's or sap's knockout (`mug_ko_rounds`, `sap_ko_rounds`), or unconsciousness by temporary damage until healing lifts him to 1 hit point, the longer of the two; a pin without either, and real damage that healing cannot lift, run no clock and are left out",
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

/// How a summary metric of `action` is estimated: "probability", "ratio" (a probability among the trials
/// where its condition held), "mean" or "fixed".
pub fn kind_of(action: Action, metric: &str) -> Option<&'static str> {
    summary_table(action)
        .iter()
        .find(|(m, _)| *m == metric)
        .map(|(_, source)| match source.kind() {
            Kind::Probability => "probability",
            Kind::Mean => "mean",
            Kind::Fixed => "fixed",
            Kind::Ratio => "ratio",
        })
}

/// The distributions of an action, by histogram.
pub(crate) fn distribution_table(action: Action) -> Distributions {
    match action {
        Action::Mug => mugging::DISTRIBUTIONS,
        Action::Sap => sap::DISTRIBUTIONS,
        Action::Strike => strike::DISTRIBUTIONS,
        Action::GrabObject => grab::OBJECT_DISTRIBUTIONS,
        Action::Brawl | Action::Subdue => fight::DISTRIBUTIONS,
        Action::GangBrawl | Action::GangSubdue => fight::gang::DISTRIBUTIONS,
        Action::GrabPerson | Action::GrabMonster => grab::HOLD_DISTRIBUTIONS,
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

/// An empty tally with histograms sized for the values the point can produce ([`Maneuver::range`]).
pub fn empty_tally(p: &Prepared) -> Tally {
    with_maneuver!(p, m => sized_tally(m))
}

fn sized_tally<M: Maneuver>(m: &M) -> Tally {
    let mut t = Tally::default();
    for (h, hist) in t.hists.iter_mut().enumerate() {
        if let Some((min, max)) = m.range(Hist(h)) {
            *hist = Histogram::with_range(min, max);
        }
    }
    t
}

impl Sink for Tally {
    #[inline]
    fn count(&mut self, counter: crate::rules::maneuver::Counter, yes: bool) {
        self.counts[counter.0] += u64::from(yes);
    }

    #[inline]
    fn observe(&mut self, hist: Hist, value: i64) {
        self.hists[hist.0].add(value);
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
/// dispatch is outside the loop, so each loop is specialised to one action.
#[inline]
pub fn each_trial<D: TrialDice, S: OnOutcome>(p: &Prepared, n: u64, dice: &mut D, sink: &mut S) {
    with_maneuver!(p, m => (0..n).for_each(|_| sink.on(&m.resolve(dice.next_trial()))))
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
pub fn summarize(
    p: &(impl Facts + ?Sized),
    action: Action,
    tally: &Tally,
    confidence: f64,
) -> Vec<MetricValue> {
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
                Count(counter) => interval::proportion(tally.counts[counter.0], tally.trials, z),
                Given { count, among } => {
                    interval::proportion(tally.counts[count.0], tally.counts[among.0], z)
                }
                Mean(h) | ContestRolls(h) => interval::mean(tally.hists[h.0].moments(), z),
                RealPart(h) => interval::mean(tally.hists[h.0].map(real).moments(), z),
                TemporaryPart(h) => interval::mean(tally.hists[h.0].map(temporary).moments(), z),
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

/// The (real, temporary) parts of a damage total, by the action's own split ([`Maneuver::split`]; only
/// saps and strikes report one).
pub(crate) fn split(p: &(impl Facts + ?Sized), total: i64) -> (u32, u32) {
    let total = u32::try_from(total).unwrap_or(0);
    let d = p.split(total);
    (d.real, d.temporary)
}

/// What a point's metrics read of its action besides its tally: the quantities its matchup fixes, and how
/// it splits a damage total into real and temporary.
pub trait Facts {
    /// The numbers fixed by the matchup ([`Maneuver::fixed`]).
    fn fixed(&self) -> Fixed;
    /// The (real, temporary) split of a damage total ([`Maneuver::split`]).
    fn split(&self, total: u32) -> Damage;
}

impl Facts for Prepared {
    fn fixed(&self) -> Fixed {
        Prepared::fixed(self)
    }

    fn split(&self, total: u32) -> Damage {
        with_maneuver!(self, m => m.split(total))
    }
}

/// A point's facts as its summary and its differences read them. Why not always the prepared action: a
/// fight's metrics read no fact, and preparing its plans (some 18 KB of face tables a point) for nothing
/// would cost a study of 100,000 fights seconds on every pass over its rows.
#[derive(Debug, Clone)]
pub enum PointFacts<'a> {
    /// The action's metrics read no fact ([`reads_facts`] is false): nothing was prepared, and nothing
    /// is asked of it.
    Unread,
    /// The action prepared.
    Prepared(std::borrow::Cow<'a, Prepared>),
}

impl Facts for PointFacts<'_> {
    fn fixed(&self) -> Fixed {
        match self {
            PointFacts::Unread => Fixed::default(),
            PointFacts::Prepared(p) => Facts::fixed(&**p),
        }
    }

    fn split(&self, total: u32) -> Damage {
        match self {
            PointFacts::Unread => Damage {
                total,
                real: total,
                temporary: 0,
            },
            PointFacts::Prepared(p) => Facts::split(&**p, total),
        }
    }
}

/// Whether a metric of `action` reads a fact of its prepared action ([`Facts`]): a fixed quantity, or the
/// real or temporary part of damage. Comparisons pair these same metrics, so this holds for differences too.
pub fn reads_facts(action: Action) -> bool {
    summary_table(action)
        .iter()
        .any(|&(_, source)| match source {
            SaveNeeded | MonsterStrength | GrabberStrength | VictimStrength | RollNeeded => true,
            RealPart(_) | TemporaryPart(_) => true,
            Count(_) | Given { .. } | Mean(_) | ContestRolls(_) => false,
        })
}

/// Whether a metric of `action`, a summary or a distribution, reads histogram `hist`: one no metric reads
/// and no range sizes is never filled, and takes no memory.
pub fn reads(action: Action, hist: Hist) -> bool {
    distribution_table(action).iter().any(|&(_, h)| h == hist)
        || summary_table(action)
            .iter()
            .any(|&(_, source)| source.hist() == Some(hist))
}

/// The distributions of a point: (metric, histogram).
pub fn distributions(
    action: Action,
    tally: &Tally,
) -> impl Iterator<Item = (&'static str, &Histogram)> {
    distribution_table(action)
        .iter()
        .map(move |&(name, h)| (name, &tally.hists[h.0]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleOptions;
    use crate::rules::action::ActionOptions;
    use crate::rules::matchup;

    /// The counter a probability metric of `action` reads.
    fn counter(action: Action, metric: &str) -> usize {
        match summary_table(action).iter().find(|(m, _)| *m == metric) {
            Some((_, Count(c))) => c.0,
            other => panic!("{metric}: {other:?}"),
        }
    }

    /// The histogram a mean metric of `action` reads.
    fn hist(action: Action, metric: &str) -> usize {
        match summary_table(action).iter().find(|(m, _)| *m == metric) {
            Some((_, Mean(h))) => h.0,
            other => panic!("{metric}: {other:?}"),
        }
    }

    #[test]
    fn every_action_lists_the_metrics_of_scenarios_md() {
        let names = |a| summary_metrics(a).collect::<Vec<_>>();
        assert_eq!(
            names(Action::Mug),
            [
                "p_knockout",
                "p_hit",
                "p_woke_before_bound",
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
                "p_sleeps_on",
                "p_silent",
                "p_down",
                "p_killed",
                "p_woke_before_bound",
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
            "p_grabber_down",
            "p_grabber_killed",
            "contest_rolls",
            "grabber_strength",
            "victim_strength",
            "roll_needed",
        ];
        assert_eq!(names(Action::GrabObject)[..2], ["p_control", "p_hit"]);
        assert_eq!(names(Action::GrabObject)[2..], grab);
        assert_eq!(
            names(Action::GrabPerson)[..4],
            ["p_hold_kept", "p_hold", "p_kept_given_hold", "p_hit"]
        );
        assert_eq!(names(Action::GrabPerson)[4..], grab);
        assert_eq!(
            names(Action::GrabMonster),
            [
                "p_hold_kept",
                "p_hold",
                "p_kept_given_hold",
                "p_hit",
                "p_struck_first",
                "struck_damage",
                "p_grabber_down",
                "p_grabber_killed",
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
        for action in Action::EVERY {
            for metric in summary_metrics(action).chain(distribution_metrics(action)) {
                assert!(definition(metric).is_some(), "{action}: {metric}");
            }
        }
        let used: Vec<&str> = Action::EVERY
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
    fn a_point_unprepared_for_its_facts_reads_what_its_prepared_action_gives() {
        let (mut unread, mut prepared) = (0, 0);
        for (name, text) in crate::study::rows::tests::SHIPPED {
            let s =
                crate::scenario::Scenario::parse("s.toml", name, text.as_bytes()).expect("valid");
            for point in &s.points {
                let (Ok(facts), Ok(p)) = (point.facts(), point.prepare()) else {
                    assert!(point.facts().is_err() && point.prepare().is_err());
                    continue;
                };
                match &facts {
                    PointFacts::Unread => unread += 1,
                    PointFacts::Prepared(_) => prepared += 1,
                }
                assert_eq!(
                    matches!(facts, PointFacts::Unread),
                    !reads_facts(point.action)
                );
                // The plain rule: the prepared action's own facts.
                assert_eq!(Facts::fixed(&facts), Facts::fixed(&*p), "{name}");
                for total in 0..80 {
                    assert_eq!(split(&facts, total), split(&*p, total), "{name} {total}");
                }
            }
        }
        assert!(unread > 0 && prepared > 0, "{unread} {prepared}");
        for action in Action::EVERY {
            let fight = action.is_fight();
            assert_eq!(reads_facts(action), !fight, "{action}");
        }
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
        let (hit, knockout) = (
            counter(Action::Mug, "p_hit"),
            counter(Action::Mug, "p_knockout"),
        );
        assert_eq!((t.trials, t.counts[hit], t.counts[knockout]), (3, 2, 1));
        let ko_rounds = hist(Action::Mug, "ko_rounds");
        assert_eq!(t.hists[ko_rounds].iter().collect::<Vec<_>>(), [(7, 1)]);
        let s = summarize(&p, Action::Mug, &t, 0.95);
        assert_eq!(s[0].metric, "p_knockout");
        assert_eq!(s[0].value.estimate, Some(1.0 / 3.0));
        assert_eq!(s[2].value.estimate, Some(0.0));
        assert_eq!(s[3].value.estimate, Some(7.0));
        assert_eq!(s[4].value.estimate, Some(17.0));
        // THAC0 16 against the ogre's AC 5, +4: needs 7.
        assert_eq!(
            (s[5].metric, s[5].value.estimate),
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
        t.counts[counter(Action::Strike, "p_hit")] = 2;
        let damage = hist(Action::Strike, "damage");
        t.hists[damage].add(4); // 2 real, 2 temporary
        t.hists[damage].add(3); // 1 real, 2 temporary: the odd point is temporary
        let s = summarize(&p, Action::Strike, &t, 0.95);
        let value = |name: &str| s.iter().find(|m| m.metric == name).unwrap().value.estimate;
        assert_eq!(value("damage"), Some(3.5));
        assert_eq!(value("damage_real"), Some(1.5));
        assert_eq!(value("damage_temporary"), Some(2.0));
    }
}
