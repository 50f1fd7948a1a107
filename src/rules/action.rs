//! The actions a scenario can study, and one prepared action per sweep point.
//!
//! [`Prepared`] is the hand-off between the scenario layer (which resolves a point once) and the engine
//! (which runs it millions of times): everything in it is plain numbers.

use std::fmt;

use serde::Deserialize;

use crate::rules::combatant::State;
use crate::rules::fight::gang::{GangPlan, Sides};
use crate::rules::fight::{FightKind, FightPlan, Intent, Opening, Style, Then};
use crate::rules::grab::{GrabHold, GrabObject, Hands};
use crate::rules::maneuver::{Maneuver, with_maneuver};
use crate::rules::mugging::Mugging;
use crate::rules::sap::Sap;
use crate::rules::strike::Strike;
use crate::rules::{Ineligible, Matchup, RuleOptions};

/// An action a scenario studies (docs/scenarios.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A thief's knockout blow from behind.
    Mug,
    /// A called shot to knock out.
    Sap,
    /// An armed blow held back.
    Strike,
    /// Grabbing the weapon out of a hand.
    GrabObject,
    /// Grabbing a person.
    GrabPerson,
    /// Grabbing a monster.
    GrabMonster,
    /// An unarmed fight against a (usually armed) defender.
    Brawl,
    /// A fight to bring the victim down alive.
    Subdue,
    /// A brawl with several combatants on a side (written `brawl`; docs/rules.md §6 "Several combatants a
    /// side"). Chosen by the scenario when some point has a side of several, so that every point of the study
    /// fights by the same round and reports the same metrics.
    #[serde(skip)]
    #[schemars(skip)]
    GangBrawl,
    /// A subdual fight with several combatants on a side (written `subdue`).
    #[serde(skip)]
    #[schemars(skip)]
    GangSubdue,
}

impl Action {
    /// Every action, in docs/scenarios.md order.
    pub const ALL: [Action; 8] = [
        Action::Mug,
        Action::Sap,
        Action::Strike,
        Action::GrabObject,
        Action::GrabPerson,
        Action::GrabMonster,
        Action::Brawl,
        Action::Subdue,
    ];

    /// Every action the engine runs: those a file names, and the fights of sides of several they become.
    pub const EVERY: [Action; 10] = {
        // [`Action::ALL`] then the two fights of sides, so a new action named by files is listed once.
        let mut every = [Action::GangSubdue; 10];
        every[8] = Action::GangBrawl;
        let mut i = 0;
        while i < Action::ALL.len() {
            every[i] = Action::ALL[i];
            i += 1;
        }
        every
    };

    /// The name a scenario uses.
    pub fn name(self) -> &'static str {
        match self {
            Action::Mug => "mug",
            Action::Sap => "sap",
            Action::Strike => "strike",
            Action::GrabObject => "grab_object",
            Action::GrabPerson => "grab_person",
            Action::GrabMonster => "grab_monster",
            Action::Brawl | Action::GangBrawl => "brawl",
            Action::Subdue | Action::GangSubdue => "subdue",
        }
    }

    /// The same action fought by sides of several (a single action has no such form and stays itself).
    pub fn of_sides(self) -> Action {
        match self {
            Action::Brawl => Action::GangBrawl,
            Action::Subdue => Action::GangSubdue,
            Action::Mug
            | Action::Sap
            | Action::Strike
            | Action::GrabObject
            | Action::GrabPerson
            | Action::GrabMonster
            | Action::GangBrawl
            | Action::GangSubdue => self,
        }
    }

    /// The action as a file writes it: a fight of sides is the brawl or subdual fight it generalises.
    pub fn written(self) -> Action {
        match self {
            Action::GangBrawl => Action::Brawl,
            Action::GangSubdue => Action::Subdue,
            Action::Mug
            | Action::Sap
            | Action::Strike
            | Action::GrabObject
            | Action::GrabPerson
            | Action::GrabMonster
            | Action::Brawl
            | Action::Subdue => self,
        }
    }

    /// Fought by sides of several.
    pub fn is_sides(self) -> bool {
        matches!(self, Action::GangBrawl | Action::GangSubdue)
    }

    /// A fight, round by round, rather than a single action.
    pub fn is_fight(self) -> bool {
        matches!(
            self,
            Action::Brawl | Action::Subdue | Action::GangBrawl | Action::GangSubdue
        )
    }

    /// The `[action_options]` keys this action reads; any other is an error.
    pub fn options_used(self) -> &'static [&'static str] {
        match self {
            // A knockout's length against the rounds it takes to tie him (docs/rules.md §6 "After the
            // blow").
            Action::Mug | Action::Sap => &["bind_rounds"],
            Action::Strike | Action::GrabObject => &[],
            Action::GrabPerson | Action::GrabMonster => &["hands"],
            // A bare-handed subduer fights with a style, since fists are not held back.
            Action::Brawl | Action::Subdue | Action::GangBrawl | Action::GangSubdue => &[
                "style",
                "max_rounds",
                "victim_intent",
                "opening",
                "then",
                "bind_rounds",
            ],
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `[action_options]` checked and with their defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActionOptions {
    /// Hands on the victim (grabs of persons and monsters).
    pub hands: Hands,
    /// The brawler's style.
    pub style: Style,
    /// Rounds before a fight is a timeout.
    pub max_rounds: u32,
    /// How the victim of a fight answers.
    pub victim_intent: Intent,
    /// A mugging or a sap before round 1.
    pub opening: Option<Opening>,
    /// A disarmer's blow once he holds the weapon.
    pub then: Then,
    /// Rounds the winner of a fight needs to tie up his downed victim (docs/rules.md §6 "After the blow").
    pub bind_rounds: u32,
}

impl Default for ActionOptions {
    fn default() -> Self {
        ActionOptions {
            hands: Hands::Two,
            style: Style::Punch,
            max_rounds: 100,
            victim_intent: Intent::Lethal,
            opening: None,
            then: Then::Punch,
            bind_rounds: 0,
        }
    }
}

/// An action with its matchup folded into numbers, ready to run per trial.
#[derive(Debug, Clone, PartialEq)]
pub enum Prepared {
    /// A mugging.
    Mug(Mugging),
    /// A sap.
    Sap(Sap),
    /// A held-back strike.
    Strike(Strike),
    /// Grabbing an object.
    GrabObject(GrabObject),
    /// Grabbing a person.
    GrabPerson(GrabHold),
    /// Grabbing a monster.
    GrabMonster(GrabHold),
    /// A fight, brawl or subdue (boxed: it holds both sides' plans, far larger than the single actions).
    Fight(Box<FightPlan>),
    /// A fight of several a side (boxed: it holds the plan of every pair of entries).
    Gang(Box<GangPlan>),
}

/// An action as a sweep point sets it: its sides and options, kept until a work item prepares them
/// ([`Recipe::prepare`]). A study of many points holds these, a few hundred bytes each, rather than its
/// prepared actions (a fight's face tables of both sides are some 18 KB), so that its memory grows with its
/// worker threads, not with its points (docs/scenarios.md "Limits"). Preparing is a pure function of the
/// recipe, so a point prepared twice is the same point.
#[derive(Debug, Clone, PartialEq)]
pub struct Recipe {
    /// The action.
    pub action: Action,
    /// Who fights whom (a single action takes the first member of each side).
    pub sides: Sides,
    /// The rule switches.
    pub options: RuleOptions,
    /// The action's own options.
    pub action_options: ActionOptions,
}

impl Recipe {
    /// The action ready to run, or why the rules forbid it ([`Prepared::sides`]).
    pub fn prepare(&self) -> Result<Prepared, Ineligible> {
        Prepared::sides(
            self.action,
            &self.sides,
            &self.options,
            &self.action_options,
        )
    }
}

/// Quantities fixed by the matchup, reported as metrics with no interval: the numbers behind a result that
/// a designer would otherwise have to work out from the tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Fixed {
    /// The mugging victim's save number.
    pub save_needed: Option<i32>,
    /// The grabbed monster's contest score (monster victims only).
    pub monster_strength: Option<i32>,
    /// The grabber's contest score, after every modifier (an 18/xx counted as 18).
    pub grabber_strength: Option<i32>,
    /// The victim's contest score, after every modifier.
    pub victim_strength: Option<i32>,
    /// The d20 face the action's attack needs, before the natural-1 and natural-20 rules.
    pub roll_needed: Option<i32>,
}

impl Prepared {
    /// Prepares `action` for one matchup, or says why the rules forbid it.
    pub fn new(
        action: Action,
        m: &Matchup,
        options: &RuleOptions,
        action_options: &ActionOptions,
    ) -> Result<Prepared, Ineligible> {
        let hands = action_options.hands;
        Ok(match action {
            Action::Mug => Prepared::Mug(
                Mugging::prepare(m, options)?.with_bind_rounds(action_options.bind_rounds),
            ),
            Action::Sap => Prepared::Sap(
                Sap::prepare(m, options)?.with_bind_rounds(action_options.bind_rounds),
            ),
            Action::Strike => Prepared::Strike(Strike::prepare(m, options)?),
            Action::GrabObject => Prepared::GrabObject(GrabObject::prepare(m, options)?),
            Action::GrabPerson => Prepared::GrabPerson(GrabHold::person(m, options, hands)?),
            Action::GrabMonster => Prepared::GrabMonster(GrabHold::monster(m, options, hands)?),
            Action::Brawl => fight(
                m,
                options,
                FightKind::Brawl(action_options.style),
                action_options,
            )?,
            Action::Subdue => fight(
                m,
                options,
                FightKind::Subdue(action_options.style),
                action_options,
            )?,
            // One member a side, fought by the round of sides.
            Action::GangBrawl | Action::GangSubdue => {
                return Prepared::sides(action, &Sides::one_on_one(m), options, action_options);
            }
        })
    }

    /// Prepares a fight of sides (`GangBrawl`, `GangSubdue`) between `sides`, or says why the rules forbid
    /// it. A single action, or a fight written one on one, takes the first member of each side.
    pub fn sides(
        action: Action,
        sides: &Sides,
        options: &RuleOptions,
        action_options: &ActionOptions,
    ) -> Result<Prepared, Ineligible> {
        let kind = match action {
            Action::GangBrawl => FightKind::Brawl(action_options.style),
            Action::GangSubdue => FightKind::Subdue(action_options.style),
            Action::Mug
            | Action::Sap
            | Action::Strike
            | Action::GrabObject
            | Action::GrabPerson
            | Action::GrabMonster
            | Action::Brawl
            | Action::Subdue => {
                let m = sides.first().ok_or(Ineligible::EmptySide)?;
                return Prepared::new(action, &m, options, action_options);
            }
        };
        // An opening and the binding after the fight are one-on-one rules (docs/rules.md §6 "Several
        // combatants a side" says what sides of several leave out).
        if action_options.opening.is_some() {
            return Err(Ineligible::SidesOpening);
        }
        if action_options.bind_rounds > 0 {
            return Err(Ineligible::SidesBinding);
        }
        Ok(Prepared::Gang(Box::new(GangPlan::prepare(
            sides,
            options,
            kind,
            action_options.victim_intent,
            action_options.max_rounds,
            action_options.then,
        )?)))
    }

    /// At most how many paths of dice the exact enumerator walks for this action, and a multiple of their
    /// denominators, so that an exact answer too long to walk is refused before the walk (docs/scenarios.md,
    /// `exact`); `None` for a fight, which has no exact answer. Each action counts beside its resolver
    /// ([`Maneuver::paths`]), from the same rolls and predicates, so that the count follows the rules it bounds.
    pub fn paths(&self) -> Option<crate::dice::Paths> {
        with_maneuver!(self, m => Maneuver::paths(m))
    }

    /// The fixed metrics of this point ([`Maneuver::fixed`]).
    pub fn fixed(&self) -> Fixed {
        with_maneuver!(self, m => Maneuver::fixed(m))
    }
}

/// A fight, with its opening if it has one: the opening meets the victim as he stands (unaware, perhaps
/// asleep), struck with the attacker's `opening_weapon` if he has one, and the fight that follows meets him
/// awake and aware, the attacker holding his `weapon` (docs/rules.md §6 "The text's maneuvers
/// inside a fight").
fn fight(
    m: &Matchup,
    options: &RuleOptions,
    kind: FightKind,
    action_options: &ActionOptions,
) -> Result<Prepared, Ineligible> {
    let (intent, max_rounds) = (action_options.victim_intent, action_options.max_rounds);
    let then = action_options.then;
    let plan = match action_options.opening {
        None => FightPlan::prepare(m, options, kind, intent, max_rounds)?
            .with_then(m, options, kind, then)?,
        Some(opening) => {
            let mut awake = m.clone();
            awake.victim.state = State::Awake;
            awake.victim.aware = true;
            // The opening is struck with the opening weapon, if he has one (a club for the mugging).
            let mut opener = m.clone();
            if let Some(weapon) = &m.attacker.opening_weapon {
                opener.attacker.weapon = weapon.clone();
            }
            FightPlan::prepare(&awake, options, kind, intent, max_rounds)?
                .with_then(&awake, options, kind, then)?
                .with_opening(&opener, options, opening)?
        }
    };
    Ok(Prepared::Fight(Box::new(
        plan.with_bind_rounds(action_options.bind_rounds),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_is_listed_once_and_only_the_named_ones_in_all() {
        let mut seen = std::collections::HashSet::new();
        for action in Action::EVERY {
            assert!(seen.insert(action), "{action:?} twice");
            // A file names the actions it writes as themselves ([`Action::written`] has no wildcard).
            let named = action.written() == action;
            assert_eq!(Action::ALL.contains(&action), named, "{action:?}");
        }
        assert_eq!(Action::EVERY[..Action::ALL.len()], Action::ALL);
    }
}
