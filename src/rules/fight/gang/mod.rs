//! SEVERAL COMBATANTS A SIDE (docs/rules.md §6 "Several combatants a side"): three thugs on a guard, a party
//! subduing an ogre. The round of a one-on-one fight, generalised: side or individual initiative, every
//! member's first attacks in initiative order and the staggered second attacks after them, the armed man's
//! first strikes shared among the unarmed foes closing on him, each member's choice of foe by his `target`
//! policy, piles, rear and flank, and the downed who wake and rejoin.
//!
//! Why a module of its own rather than the one-on-one round with a count: that round keeps both fighters in
//! registers and is the speed of every fight study; a gang's round walks lists of members and their foes.
//! Each single attack still resolves through the one-on-one code of its pair of combatants
//! (`FightPlan::attack` on a prepared [`crate::rules::fight::FightPlan`] per pair of entries), so a blow means the same in both.
//!
//! Files: `plan.rs` prepares the pairs; `round.rs` fights; `target.rs` picks foes; `pile.rs` rolls
//! piles; `streams.rs` gives every member his own dice (recorded, member by member, in a narrated trial);
//! `words.rs` says the state of every member and the ending of a narrated fight.

mod pile;
mod plan;
mod round;
mod streams;
mod target;
#[cfg(test)]
mod tests;
mod words;

use std::sync::Arc;

use serde::Deserialize;

use crate::rules::Matchup;
use crate::rules::combatant::Combatant;
use crate::rules::maneuver::{Counter, Distributions, Hist, Metrics, Record, Sink, Source};

pub use plan::GangPlan;
pub use streams::{MemberDice, MemberStreams, RecordedStreams};

/// Adds a step to the story of a fight of several when its dice narrate ([`MemberDice::narrator`]), and
/// costs nothing otherwise: `narrate!` for the members' dice rather than one roller.
macro_rules! tell {
    ($dice:expr, $section:expr, $($words:tt)+) => {
        if let Some(narrator) = $crate::rules::fight::gang::MemberDice::narrator(&*$dice) {
            narrator.step($section.cite(), format!($($words)+));
        }
    };
}
pub(crate) use tell;

/// Adds a state line to the story of a fight of several when its dice narrate.
macro_rules! tell_state {
    ($dice:expr, $($words:tt)+) => {
        if let Some(narrator) = $crate::rules::fight::gang::MemberDice::narrator(&*$dice) {
            narrator.state(format!($($words)+));
        }
    };
}
pub(crate) use tell_state;

/// How a member picks the foe he attacks (docs/rules.md §6 "Several combatants a side"). He keeps his foe
/// until that foe is down, then picks again among those standing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// The side's first foe standing (the default: the table's "everyone on him").
    #[default]
    Focus,
    /// The foe with the fewest hit points left (ties to the first).
    Weakest,
    /// The foe with the most hit points left (ties to the first).
    Strongest,
    /// A foe at random among those standing, by the member's own die.
    Random,
    /// The foe with the fewest attackers on him (ties to the first).
    Spread,
}

impl Target {
    /// Every policy, in docs/rules.md order.
    pub const ALL: [Target; 5] = [
        Target::Weakest,
        Target::Strongest,
        Target::Random,
        Target::Spread,
        Target::Focus,
    ];

    /// The name a scenario uses.
    pub fn name(self) -> &'static str {
        match self {
            Target::Focus => "focus",
            Target::Weakest => "weakest",
            Target::Strongest => "strongest",
            Target::Random => "random",
            Target::Spread => "spread",
        }
    }
}

/// `count` identical members of a side: one `[[attackers]]` or `[[victims]]` table.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Who they are (named "name 1", "name 2"... in outputs when `count` is above 1).
    pub combatant: Combatant,
    /// How many.
    pub count: u32,
    /// How each picks his foe.
    pub target: Target,
}

/// The most members a side may have (docs/scenarios.md "Several combatants a side"): far beyond what one
/// foe can have on him, and what keeps a trial's state small.
pub const MAX_MEMBERS: u32 = 64;

/// Both sides of a fight of several, in the order written: `sides[0]` the attackers, `sides[1]` the victims.
/// Member `i` of a side is the `i`-th in that order, counting each entry's `count` members in turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Sides {
    /// The attackers' entries, then the victims'. Shared: a sweep's points often set one side alike (the
    /// attacker, while the victim's fields are swept), and a study of 100,000 points would otherwise hold
    /// 100,000 copies of it (some 400 bytes each, with its names).
    pub sides: [Arc<[Entry]>; 2],
}

impl Sides {
    /// One member a side.
    pub fn one_on_one(m: &Matchup) -> Sides {
        let one = |c: &Combatant| {
            Arc::from([Entry {
                combatant: c.clone(),
                count: 1,
                target: Target::default(),
            }])
        };
        Sides {
            sides: [one(&m.attacker), one(&m.victim)],
        }
    }

    /// The first member of each side, as a one-on-one matchup (what a level gap and the fields read are
    /// judged by).
    pub fn first(&self) -> Option<Matchup> {
        Some(Matchup {
            attacker: self.sides[0].first()?.combatant.clone(),
            victim: self.sides[1].first()?.combatant.clone(),
        })
    }

    /// Members on side `s`.
    pub fn members(&self, s: usize) -> u32 {
        self.sides[s].iter().map(|e| e.count).sum()
    }
}

/// How a fight of several ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GangEnding {
    /// Every victim is down, some attacker stands.
    AttackersWin,
    /// Every attacker is down, some victim stands.
    VictimsWin,
    /// Both sides were down at the end of the same round.
    BothDown,
    /// Both sides still stood after `max_rounds`.
    Timeout,
}

/// One fight of several.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GangOutcome {
    /// How it ended.
    pub ending: GangEnding,
    /// Rounds fought.
    pub rounds: u32,
    /// Attackers down at the end (unconscious, pinned or dead).
    pub attackers_down: u32,
    /// Attackers dead at the end.
    pub attackers_killed: u32,
    /// Victims dead at the end.
    pub victims_killed: u32,
}

impl GangOutcome {
    /// The attackers won and every victim is alive (the `p_taken_alive` metric).
    pub fn taken_alive(&self) -> bool {
        self.ending == GangEnding::AttackersWin && self.victims_killed == 0
    }
}

const ATTACKERS_WIN: Counter = Counter(0);
const VICTIMS_WIN: Counter = Counter(1);
const BOTH_DOWN: Counter = Counter(2);
const TIMEOUT: Counter = Counter(3);
const TAKEN_ALIVE: Counter = Counter(4);
const ROUNDS: Hist = Hist(0);
const ATTACKERS_DOWN: Hist = Hist(1);
const ATTACKERS_KILLED: Hist = Hist(2);
const VICTIMS_KILLED: Hist = Hist(3);

/// The summary metrics of a fight of several, headline first (docs/scenarios.md "Metrics").
pub const METRICS: Metrics = &[
    ("p_attackers_win", Source::Count(ATTACKERS_WIN)),
    ("p_victims_win", Source::Count(VICTIMS_WIN)),
    ("p_taken_alive", Source::Count(TAKEN_ALIVE)),
    ("p_timeout", Source::Count(TIMEOUT)),
    ("attackers_down", Source::Mean(ATTACKERS_DOWN)),
    ("attackers_killed", Source::Mean(ATTACKERS_KILLED)),
    ("victims_killed", Source::Mean(VICTIMS_KILLED)),
    ("rounds", Source::Mean(ROUNDS)),
    ("p_both_down", Source::Count(BOTH_DOWN)),
];

/// A fight of several's distributions.
pub const DISTRIBUTIONS: Distributions = &[("rounds", ROUNDS), ("attackers_down", ATTACKERS_DOWN)];

/// The histogram of the rounds a fight of several lasted, and the histograms whose value above 0 means
/// someone died in it (an attacker, a victim): what exemplars.csv finds a fight's typical and first
/// deadly trials by (src/study/exemplars.rs).
pub const ROUNDS_FOUGHT: Hist = ROUNDS;
/// See [`ROUNDS_FOUGHT`].
pub const DEATHS: [Hist; 2] = [ATTACKERS_KILLED, VICTIMS_KILLED];

impl Record for GangOutcome {
    #[inline]
    fn record<S: Sink>(&self, s: &mut S) {
        let ending = match self.ending {
            GangEnding::AttackersWin => ATTACKERS_WIN,
            GangEnding::VictimsWin => VICTIMS_WIN,
            GangEnding::BothDown => BOTH_DOWN,
            GangEnding::Timeout => TIMEOUT,
        };
        s.count(ending, true);
        s.count(TAKEN_ALIVE, self.taken_alive());
        s.observe(ROUNDS, i64::from(self.rounds));
        s.observe(ATTACKERS_DOWN, i64::from(self.attackers_down));
        s.observe(ATTACKERS_KILLED, i64::from(self.attackers_killed));
        s.observe(VICTIMS_KILLED, i64::from(self.victims_killed));
    }
}
