//! The pure rules core: no files, no threads, no clocks.
//!
//! Every maneuver of the text has its own module, named after the text's heading. Each follows one shape:
//! `prepare` takes the resolved [`Matchup`] and the [`RuleOptions`], checks eligibility once and folds every
//! table look-up into a few integers; `resolve` then runs one trial from those integers and a
//! [`Roller`](crate::dice::Roller). The per-trial path therefore never looks anything up and never fails.

pub mod action;
pub mod attack;
pub mod brawl;
pub mod catalog;
pub mod combatant;
pub mod fight;
pub mod grab;
pub mod mugging;
pub mod options;
pub mod sap;
pub mod strike;
pub mod tables;

use std::fmt;

pub use combatant::{Combatant, CombatantSpec};
pub use options::RuleOptions;

use crate::rules::combatant::State;
use crate::rules::tables::Size;

/// The two sides of one single action, resolved once per sweep point.
#[derive(Debug, Clone, PartialEq)]
pub struct Matchup {
    /// Who acts.
    pub attacker: Combatant,
    /// Who is acted upon.
    pub victim: Combatant,
}

impl Matchup {
    /// Attacker level minus victim level, a monster's level being its whole Hit Dice (SCENARIOS.md
    /// "Derived columns").
    pub fn level_gap(&self) -> i32 {
        self.attacker.level() as i32 - self.victim.level() as i32
    }
}

/// Damage one blow did, split into real and temporary hit points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Damage {
    /// Everything applied.
    pub total: u32,
    /// The part that is lasting.
    pub real: u32,
    /// The part that heals (RULES.md §6).
    pub temporary: u32,
}

impl Damage {
    /// 25% real (rounded by `rounding`), the rest temporary: punching, wrestling and saps (RULES.md §4, §6).
    pub fn quarter_real(total: u32, rounding: options::Rounding) -> Damage {
        let real = rounding.divide(total as i32, 4) as u32;
        Damage {
            total,
            real,
            temporary: total - real,
        }
    }
}

/// Why the rules forbid an action at a point. Not an error: the point appears in the outputs with this
/// reason as its status.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Ineligible {
    /// Only thieves backstab, so only thieves mug.
    #[error("only a thief can mug (the attacker is a {0})")]
    NotAThief(String),
    /// A mugging strikes from behind.
    #[error("a mugging strikes from behind (set attacker.position = \"behind\")")]
    NotBehind,
    /// A backstab needs a victim unaware of the thief.
    #[error("the victim is aware of the mugger (set victim.aware = false)")]
    VictimAware,
    /// No back, no backstab.
    #[error("the victim has no back to strike")]
    NoBack,
    /// The text's height limit for a mugging.
    #[error(
        "the victim ({victim} ft) is more than {ratio} times as tall as the mugger ({mugger} ft)"
    )]
    TooTall {
        /// The victim's height.
        victim: f64,
        /// The mugger's height.
        mugger: f64,
        /// The largest ratio allowed.
        ratio: f64,
    },
    /// A mugging needs a blunt instrument.
    #[error("a mugging needs a blunt instrument, not a {0}")]
    NotBlunt(String),
    /// Saps work on T, S and M creatures only.
    #[error("a sap works only on creatures of size T, S or M (the victim is {0})")]
    TooLarge(Size),
    /// Saps are melee or bare-handed.
    #[error("a sap needs a melee weapon or bare hands, not a {0}")]
    Missile(String),
    /// Holding a blow back needs a weapon whose damage can be controlled.
    #[error("a {0} cannot be held back: only controllable weapons (swords, axes, daggers, fists)")]
    NotControllable(String),
    /// Grabs need free hands.
    #[error("the grab needs {needed} free hand(s) and the attacker has {free}")]
    HandsNotFree {
        /// Hands the grab needs.
        needed: u32,
        /// Hands the attacker has free.
        free: u32,
    },
    /// A contest, and a fight, need an awake opponent.
    #[error("this action needs an awake victim (the victim is {0})")]
    VictimHelpless(StateName),
    /// A fight needs an attacker who can fight.
    #[error("a fight needs an awake attacker (the attacker is {0})")]
    AttackerHelpless(StateName),
    /// Grabbing an object needs something held.
    #[error("the victim holds no weapon to grab")]
    NothingToGrab,
}

/// A state's name for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateName(pub State);

impl fmt::Display for StateName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            State::Awake => "awake",
            State::Asleep => "asleep",
            State::Held => "held",
        })
    }
}

/// A ready-made matchup for the tests of the maneuvers: the scenario layer builds real ones.
#[cfg(test)]
pub(crate) fn matchup(attacker: &str, victim: &str) -> Matchup {
    let resolve = |text: &str| {
        let spec: CombatantSpec = toml::from_str(text).unwrap();
        Combatant::resolve(&spec).unwrap()
    };
    Matchup {
        attacker: resolve(attacker),
        victim: resolve(victim),
    }
}
