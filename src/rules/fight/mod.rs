//! Fights round by round (docs/rules.md §3, §6 "The round of a fight"): `brawl`, an unarmed attacker against a
//! usually armed defender, and `subdue`, an attacker holding his blade back round after round.
//!
//! [`FightPlan::prepare`] folds both sides into numbers once per point; [`FightPlan::resolve`] fights one
//! fight with all its state on the stack. The order of dice is fixed, so a seed replays a fight exactly and
//! scripted dice drive every branch in the tests. Every round begins with both initiatives, the attacker's d10
//! first. The files follow the round:
//! - `decide.rs`: the decisions of the round, each a named function or constant beside its rule (what each
//!   side strikes with, the armed defender, attacks per round, situational modifiers, who acts first, the
//!   weapon after a bout's first round);
//! - `fold.rs`: the per-point folding of each side's blows into attack rolls and d20 faces;
//! - `fighter.rs`: a fighter's state during a fight, with its invariants;
//! - `round.rs`: the general round; `plain.rs`: the branch-free round of weapons and natural attacks;
//! - `tell.rs`: the words of a narrated fight (`subdual explain`), told by the round itself as it goes;
//! - `tests.rs`: scripted fights, and the exact proofs that hold the folds and the plain round to the rules.

mod after;
mod chain;
pub use chain::{
    ExactFight, MAX_LEADS as MAX_EXACT_LEADS, MAX_PATHS as MAX_EXACT_PATHS,
    MAX_STATES as MAX_EXACT_STATES, NEGLIGIBLE, NoExactFight,
};
mod decide;
mod fighter;
mod fold;
pub mod gang;
mod plain;
mod round;
mod tell;

use serde::Deserialize;

use crate::dice::{Paths, Roller, narrate, narrate_state};
use crate::rules::catalog::Weapon;
use crate::rules::maneuver::{
    Counter, Distributions, Hist, Maneuver, Metrics, Record, Sink, Source,
};
use crate::rules::section::Section;
use crate::rules::{Ineligible, Matchup, RuleOptions, StateName};
use decide::{armed_against, attacker_blow, victim_blow};
use fighter::{Clock, Fighter, PINNED};
use fold::{PlainSide, Side, arm, side};
use tell::cap;

#[cfg(test)]
use crate::rules::attack::ContestScore;
#[cfg(test)]
use crate::rules::brawl::{punch, wrestle};
#[cfg(test)]
use crate::rules::options::{FinishDowned, HeldBackRounding, MartialArtsRow, OddPoint, Rounding};
#[cfg(test)]
use crate::rules::tables::Size;
#[cfg(test)]
use decide::{
    ARMED_BONUS, Armament, BlowKind, HELD, SITUATIONS, TARGET_PRONE, TARGET_STUNNED,
    called_shot_initiative, situational_modifier,
};
#[cfg(test)]
use fighter::{NO_BOUT, Slot};
#[cfg(test)]
use fold::Split;
#[cfg(test)]
use round::Pass;

/// The attacker's side index.
pub const ATTACKER: usize = 0;
/// The victim's side index.
pub const VICTIM: usize = 1;

/// What an unarmed fighter does every round (docs/rules.md §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Style {
    /// Punching (the default).
    #[default]
    Punch,
    /// Wrestling.
    Wrestle,
    /// Overbearing.
    Overbear,
    /// Martial arts (the CFH column), for a fighter trained in them.
    MartialArts,
    /// Every attack a sap (docs/rules.md §4): a called shot, +1 to the attacker's initiative each round.
    Sap,
    /// A grab of the victim's weapon (docs/rules.md §5) each round until the attacker controls it, then
    /// the action option `then`.
    Disarm,
}

/// What a disarmer fights with once he holds the victim's weapon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Then {
    /// Punching (the default).
    #[default]
    Punch,
    /// Wrestling.
    Wrestle,
    /// Overbearing.
    Overbear,
    /// Martial arts, for the trained.
    MartialArts,
    /// The weapon he took: at full force in a brawl, held back in a subdual fight.
    Weapon,
}

/// How the victim of a fight answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Intent {
    /// At full force (the default).
    #[default]
    Lethal,
    /// Holding back too.
    Subdue,
}

/// What a fight is: a brawl, the attacker unarmed with his style every round, or a subdual fight, the
/// attacker holding his blow back (and with bare hands using the style, since fists are not held back).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FightKind {
    /// `brawl`.
    Brawl(Style),
    /// `subdue`; the style serves a bare-handed subduer.
    Subdue(Style),
}

/// A fight prepared for one matchup.
#[derive(Debug, Clone, PartialEq)]
pub struct FightPlan {
    sides: [Side; 2],
    options: RuleOptions,
    max_rounds: u32,
    /// Who strikes first as the armed man, by the slots in hand (`[attacker's][victim's]`): 0 nobody, else
    /// the side's index + 1 (`decide::armed_against`, folded once per point so that a round reads one
    /// byte).
    armed_first: [[u8; fighter::SLOTS]; fighter::SLOTS],
    /// Some pair of slots has an armed man: the rule may apply in this fight.
    armed_defender: bool,
    /// The unit damage and hit points are kept in: 1, or 4 for quarter points (`held_back_rounding`).
    unit: i32,
    /// `death_at` in that unit.
    death_at: i32,
    /// Some fighter makes attacks after the first pass of a round (docs/rules.md §6 "Staggered multiple
    /// attacks"): the round has a second pass.
    staggers: bool,
    /// `Some` only when both sides fight with weapons and natural attacks: nobody can be stunned, knocked
    /// down, pinned or held, and there is no armed defender. Such a fight runs `FightPlan::plain_rounds`,
    /// where only damage happens, with each side's attacks folded further into `PlainSide`s.
    plain: Option<[PlainSide; 2]>,
    /// What the attacker does before round 1, if anything.
    opening: Option<OpeningPlan>,
    /// Rounds the winner needs to tie up a downed victim (docs/rules.md §6 "After the blow").
    bind_rounds: u32,
    /// Where each side stands against the other: in front one on one; behind or at the flank for a member of
    /// a side of several (`gang`), whose pair plans are folded for each place.
    stand: decide::Stand,
    /// What a narrated fight calls each side ("the brawler", "thug 2"): read only when narrating.
    names: [String; 2],
}

/// How a fight ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    /// Only the victim is down.
    AttackerWins,
    /// Only the attacker is down.
    VictimWins,
    /// Both fell in the same round.
    BothDown,
    /// Neither fell within `max_rounds`.
    Timeout,
}

/// One fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FightOutcome {
    /// How it ended.
    pub ending: Ending,
    /// Rounds fought, to the end: the round the winner stopped striking, or his foe died.
    pub rounds: u32,
    /// Dead at the end, attacker and victim.
    pub killed: [bool; 2],
    /// The opening took the victim out: before round 1 (`rounds` is then 0), or a sleeper sapped again
    /// round after round.
    pub won_by_opening: bool,
    /// Rounds the loser stays down after the last round (`None`: no loser, or no clock runs for him; see
    /// `FightPlan::rounds_out`).
    pub rounds_out: Option<u32>,
    /// The attacker won over a living victim who woke before he was tied (`bind_rounds`).
    pub woke_before_bound: bool,
}

/// What the attacker does before round 1, while the victim is still unaware, asleep or held (docs/rules.md
/// §6 "The text's maneuvers inside a fight", "Openings").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Opening {
    /// A mugging (docs/rules.md §2): a knockout ends the fight.
    Mug,
    /// A sap (docs/rules.md §4): a knockout, or damage that drops the victim, ends the fight; its damage
    /// stays for the fight.
    Sap,
}

/// An opening, prepared against the victim as he stands before the fight.
#[derive(Debug, Clone, PartialEq)]
enum OpeningPlan {
    Mug(crate::rules::mugging::Mugging),
    /// `asleep`: the victim sleeps or is held, and sleeps on after a sap that neither knocks him out, nor
    /// wakes him, nor drops him.
    Sap {
        sap: crate::rules::sap::Sap,
        asleep: bool,
    },
}

/// What one sap of an opening did ([`FightPlan::sap_once`]).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Sapped {
    /// The fight is over before it began: a knockout, a victim the sap dropped, or a timeout.
    Over(FightOutcome),
    /// The victim is awake and standing: the fight begins in the clock's round.
    Begins(Clock),
    /// A sleeper sleeps on, to be sapped again the next round.
    SleepsOn,
}

impl FightPlan {
    /// Prepares a brawl or a subdual fight. Both sides must be awake; a subduer's weapon, and a victim's
    /// told to hold back, must be one whose damage can be held back; a bare-handed subduer fights as a
    /// brawler does, with his style (docs/rules.md §6 "Who does what").
    pub fn prepare(
        m: &Matchup,
        options: &RuleOptions,
        kind: FightKind,
        intent: Intent,
        max_rounds: u32,
    ) -> Result<FightPlan, Ineligible> {
        FightPlan::prepare_at(m, options, kind, intent, max_rounds, decide::Stand::Front)
    }

    /// [`FightPlan::prepare`] with each side standing at `stand` against the other (both ways: a pair plan
    /// of a fight of several reads only the striker's side of it).
    fn prepare_at(
        m: &Matchup,
        options: &RuleOptions,
        kind: FightKind,
        intent: Intent,
        max_rounds: u32,
        stand: decide::Stand,
    ) -> Result<FightPlan, Ineligible> {
        if m.attacker.state.is_helpless() {
            return Err(Ineligible::AttackerHelpless(StateName(m.attacker.state)));
        }
        if m.victim.state.is_helpless() {
            return Err(Ineligible::VictimHelpless(StateName(m.victim.state)));
        }
        let (a, v) = (&m.attacker, &m.victim);
        let attacker_kind = attacker_blow(kind, m)?;
        let victim_kind = victim_blow(v, intent, attacker_kind)?;
        // What each side holds in melee: a missile weapon gives way to a melee backup, else to the fists.
        let (attacker_main, attacker_backup) = a.in_melee();
        let (victim_main, victim_backup) = v.in_melee();
        // A brawler is unarmed whatever he carries.
        let (weapon, backup) = if attacker_kind.empty_handed() {
            (None, None)
        } else {
            (
                Some(arm(attacker_main.unwrap_or(&a.weapon), v.size)),
                attacker_backup.map(|b| arm(b, v.size)),
            )
        };
        let fist = Weapon::fist();
        // The attacker means to take his victim, never to kill him: only a victim fighting to kill finishes
        // a downed foe (docs/rules.md §6 "No blows on the fallen").
        let finishes = intent == Intent::Lethal
            && options.finish_downed == crate::rules::options::FinishDowned::Lethal;
        let attacker = side(a, v, attacker_kind, weapon, backup, false, options, stand);
        let victim = side(
            v,
            a,
            victim_kind,
            Some(arm(victim_main.unwrap_or(&fist), a.size)),
            victim_backup.map(|b| arm(b, a.size)),
            finishes,
            options,
            stand,
        );
        let armed_first = armed_first(&attacker, &victim, options);
        // Slots change only in a wrestling bout or a disarm, neither of which a plain fight has, so the
        // blows in hand at the start are the only ones.
        let plain = attacker.plain().zip(victim.plain()).map(|(a, v)| [a, v]);
        let unit = fold::unit(options.held_back_rounding);
        let staggers = [&attacker, &victim]
            .iter()
            .any(|side| side.first_pass != side.attacks);
        Ok(FightPlan {
            sides: [attacker, victim],
            options: options.clone(),
            max_rounds,
            armed_first,
            armed_defender: armed_first.iter().flatten().any(|&x| x != 0),
            unit,
            death_at: options.death_at * unit,
            staggers,
            plain,
            opening: None,
            bind_rounds: 0,
            stand,
            names: [&m.attacker.name, &m.victim.name].map(|n| format!("the {n}")),
        })
    }

    /// Rounds before a timeout.
    pub fn max_rounds(&self) -> u32 {
        self.max_rounds
    }

    /// Attacks a side makes in `round`.
    fn attacks(&self, s: usize, round: u32) -> u32 {
        self.sides[s].attacks[(round % 2) as usize]
    }

    /// Both fighters as a fight starts: hit points rolled (attacker first), in the fight's unit, main
    /// weapons in hand.
    fn start<R: Roller + ?Sized>(&self, rng: &mut R) -> [Fighter; 2] {
        narrate!(
            rng,
            Section::Core,
            "The fight begins: hit points of {}, then of {}.",
            self.name(ATTACKER),
            self.name(VICTIM)
        );
        let f = self.fresh([ATTACKER, VICTIM].map(|s| self.sides[s].hp.roll(rng)));
        narrate_state!(rng, "{}", self.tell_state(&f, 0));
        f
    }

    /// Both fighters as a fight starts with `hp` hit points (attacker, victim), in the fight's unit, main
    /// weapons in hand.
    #[inline(always)]
    fn fresh(&self, hp: [i32; 2]) -> [Fighter; 2] {
        [ATTACKER, VICTIM].map(|s| Fighter::fresh(hp[s] * self.unit, self.sides[s].first_slot))
    }

    /// One fight, and whether its loser woke before he was tied.
    pub fn resolve<R: Roller + ?Sized>(&self, rng: &mut R) -> FightOutcome {
        let mut f = self.start(rng);
        let clock = match &self.opening {
            None => self.clock(),
            Some(opening) => match self.open(opening, &mut f, rng) {
                Ok(over) => return self.bound(over, rng),
                Err(clock) => clock,
            },
        };
        let over = self.fight(&mut f, clock, rng);
        self.ended(over, &f, rng)
    }

    /// A fight over after its rounds, `f` as they left the fighters: the length of a knockout in its last
    /// round rolled, then the binding judged.
    #[inline(always)]
    fn ended<R: Roller + ?Sized>(
        &self,
        over: FightOutcome,
        f: &[Fighter; 2],
        rng: &mut R,
    ) -> FightOutcome {
        let over = self.knockout_rolled(over, f, rng);
        self.bound(over, rng)
    }

    /// The outcome with the binding judged (docs/rules.md §6 "After the blow"), told when narrating.
    #[inline(always)]
    fn bound<R: Roller + ?Sized>(&self, over: FightOutcome, rng: &mut R) -> FightOutcome {
        let over = FightOutcome {
            woke_before_bound: over.woke_before_bound_within(self.bind_rounds),
            ..over
        };
        narrate!(rng, Section::Fights, "{}", self.ending_words(&over));
        over
    }

    /// This fight with an opening, made against `m` as it stands (the victim unaware, asleep or held; this
    /// plan was prepared with him awake): the single action exactly as it resolves alone, so an opening it
    /// forbids (a mugging from the front, a sap on a Large victim) makes the point ineligible, as does a
    /// victim who is aware of the attacker.
    pub fn with_opening(
        mut self,
        m: &Matchup,
        options: &RuleOptions,
        opening: Opening,
    ) -> Result<FightPlan, Ineligible> {
        let asleep = m.victim.state.is_helpless();
        if m.victim.aware && !asleep {
            return Err(Ineligible::OpeningOnAware);
        }
        self.opening = Some(match opening {
            Opening::Mug => OpeningPlan::Mug(crate::rules::mugging::Mugging::prepare(m, options)?),
            Opening::Sap => OpeningPlan::Sap {
                sap: crate::rules::sap::Sap::prepare(m, options)?,
                asleep,
            },
        });
        Ok(self)
    }

    /// What a disarmer fights with once he holds the victim's weapon (`then`, docs/rules.md §6 "The text's
    /// maneuvers inside a fight"): no change to a plan whose attacker does not disarm.
    pub fn with_then(
        mut self,
        m: &Matchup,
        options: &RuleOptions,
        kind: FightKind,
        then: Then,
    ) -> Result<FightPlan, Ineligible> {
        let me = &self.sides[ATTACKER];
        if me.blows[me.first_slot as usize].kind != decide::BlowKind::Disarm {
            return Ok(self);
        }
        let then_kind = decide::then_blow(then, m, matches!(kind, FightKind::Subdue(_)))?;
        let taken =
            crate::rules::armed_defender::armed_with(&m.victim).map(|w| arm(w, m.victim.size));
        self.sides[ATTACKER].blows[fighter::Slot::Backup as usize] = fold::blow_in(
            &m.attacker,
            &m.victim,
            then_kind,
            taken.as_ref(),
            options,
            self.stand,
        );
        self.sides[ATTACKER].terms[fighter::Slot::Backup as usize] =
            fold::own_terms(&m.attacker, &m.victim, then_kind, taken.as_ref(), options);
        self.armed_first = armed_first(&self.sides[ATTACKER], &self.sides[VICTIM], options);
        self.armed_defender = self.armed_first.iter().flatten().any(|&x| x != 0);
        Ok(self)
    }

    /// The opening, after the hit points are rolled: `Ok` with the outcome if it ends the fight (a
    /// knockout, or a sap whose damage drops the victim), else `Err` with the round the fight starts in, the
    /// saps' damage staying on him. A sleeper whom a sap neither knocks out, nor wakes, nor drops sleeps on,
    /// and the attacker saps him again the next round, hitting automatically (docs/rules.md §6 "Openings").
    fn open<R: Roller + ?Sized>(
        &self,
        opening: &OpeningPlan,
        f: &mut [Fighter; 2],
        rng: &mut R,
    ) -> Result<FightOutcome, Clock> {
        match opening {
            OpeningPlan::Mug(mug) => {
                narrate!(
                    rng,
                    Section::Fights,
                    "Before the first round, {} mugs {}, who has not seen him.",
                    self.name(ATTACKER),
                    self.name(VICTIM)
                );
                match mug.resolve(rng).ko_rounds {
                    Some(k) => Ok(self.won_by_opening(0, f, Some(k))),
                    None => {
                        narrate!(
                            rng,
                            Section::Fights,
                            "The mugging does not knock him out: the fight begins."
                        );
                        Err(self.clock())
                    }
                }
            }
            OpeningPlan::Sap { sap, asleep } => {
                let mut round = 0;
                loop {
                    match self.sap_once(sap, *asleep, f, round, rng) {
                        Sapped::Over(over) => return Ok(over),
                        Sapped::Begins(clock) => return Err(clock),
                        Sapped::SleepsOn => round += 1,
                    }
                }
            }
        }
    }

    /// The sap of an opening in `round` (0 for the first): the fight over (a knockout, a victim the sap
    /// drops, or a timeout), the fight begun, or a sleeper who sleeps on, to be sapped again the next round.
    /// One step, so that an exact fight can carry a sleeper round by round as the simulation does.
    fn sap_once<R: Roller + ?Sized>(
        &self,
        sap: &crate::rules::sap::Sap,
        asleep: bool,
        f: &mut [Fighter; 2],
        round: u32,
        rng: &mut R,
    ) -> Sapped {
        narrate!(
            rng,
            Section::Fights,
            "{} saps {}, who is {}.",
            cap(self.name(ATTACKER)),
            self.name(VICTIM),
            if asleep { "asleep or held" } else { "unaware" }
        );
        let blow = sap.blow(rng);
        f[VICTIM].take(blow.damage, self.unit);
        narrate_state!(rng, "{}", self.tell_state(f, round));
        if blow.ko_rounds.is_some() || f[VICTIM].down() {
            return Sapped::Over(self.won_by_opening(round, f, blow.ko_rounds));
        }
        if !asleep || blow.woke {
            narrate!(
                rng,
                Section::Fights,
                "{} is awake and standing: the fight begins.",
                cap(self.name(VICTIM))
            );
            return Sapped::Begins(Clock {
                round: round + 1,
                heal_in: self.options.temp_heal_rounds,
            });
        }
        if round == self.max_rounds {
            return Sapped::Over(self.timeout());
        }
        narrate!(
            rng,
            Section::Fights,
            "{} sleeps on: the next round's sap hits without a roll.",
            cap(self.name(VICTIM))
        );
        Sapped::SleepsOn
    }

    /// An opening that won the fight in `round`, knocking the victim out for `knockout` rounds when it did.
    /// The knockout lasts its rolled rounds from the round it lands in; the clock of healing has not
    /// started (the fight has not).
    fn won_by_opening(
        &self,
        round: u32,
        f: &mut [Fighter; 2],
        knockout: Option<u32>,
    ) -> FightOutcome {
        if let Some(k) = knockout {
            f[VICTIM].down_at = PINNED;
            f[VICTIM].out_through = round + k;
        }
        FightOutcome {
            ending: Ending::AttackerWins,
            rounds: round,
            killed: [false, f[VICTIM].dead(self.death_at)],
            won_by_opening: true,
            rounds_out: self.rounds_out(&f[VICTIM], round, self.options.temp_heal_rounds),
            woke_before_bound: false,
        }
    }

    // Inlined into `resolve`, with the rounds, so that both fighters live in registers rather than behind
    // a pointer (a build that left it out of line ran a plain fight about 10 % slower).
    #[inline(always)]
    fn fight<R: Roller + ?Sized>(
        &self,
        f: &mut [Fighter; 2],
        clock: Clock,
        rng: &mut R,
    ) -> FightOutcome {
        let clock = match &self.plain {
            Some(plain) => match self.plain_rounds(plain, f, clock, rng) {
                Ok(outcome) => return outcome,
                Err(finish) => finish,
            },
            None => clock,
        };
        self.rounds(f, clock, rng)
    }

    /// Where every fight starts: round 1, temporary damage healing after `temp_heal_rounds` rounds.
    fn clock(&self) -> Clock {
        Clock {
            round: 1,
            heal_in: self.options.temp_heal_rounds,
        }
    }
}

/// Who strikes first as the armed man for every pair of slots in hand (see [`FightPlan::armed_first`]):
/// the victim when he is armed against an unarmed attacker, else the attacker when he is armed against an
/// unarmed victim and the rule counts him.
fn armed_first(
    attacker: &Side,
    victim: &Side,
    options: &RuleOptions,
) -> [[u8; fighter::SLOTS]; fighter::SLOTS] {
    let sides = options.armed_defender_sides;
    std::array::from_fn(|a| {
        std::array::from_fn(|v| {
            let (x, y) = (attacker.blows[a].armament, victim.blows[v].armament);
            if armed_against(y, x, true, sides) {
                VICTIM as u8 + 1
            } else if armed_against(x, y, false, sides) {
                ATTACKER as u8 + 1
            } else {
                0
            }
        })
    })
}

// The tally of a fight: one counter per ending, deaths and the opening's win, and the rounds fought.
const ATTACKER_WINS: Counter = Counter(0);
const VICTIM_WINS: Counter = Counter(1);
const BOTH_DOWN: Counter = Counter(2);
const TIMEOUT: Counter = Counter(3);
const VICTIM_KILLED: Counter = Counter(4);
const ATTACKER_KILLED: Counter = Counter(5);
const WON_BY_OPENING: Counter = Counter(6);
const TAKEN_ALIVE: Counter = Counter(7);
const WOKE_BEFORE_BOUND: Counter = Counter(8);
const ROUNDS: Hist = Hist(0);
const ROUNDS_OUT: Hist = Hist(1);

/// A fight's summary metrics, brawl and subdue alike (docs/scenarios.md "Metrics").
pub const METRICS: Metrics = &[
    ("p_attacker_wins", Source::Count(ATTACKER_WINS)),
    ("p_taken_alive", Source::Count(TAKEN_ALIVE)),
    ("p_victim_wins", Source::Count(VICTIM_WINS)),
    ("p_both_down", Source::Count(BOTH_DOWN)),
    ("p_timeout", Source::Count(TIMEOUT)),
    ("p_victim_killed", Source::Count(VICTIM_KILLED)),
    ("p_attacker_killed", Source::Count(ATTACKER_KILLED)),
    ("p_won_by_opening", Source::Count(WON_BY_OPENING)),
    ("p_woke_before_bound", Source::Count(WOKE_BEFORE_BOUND)),
    ("rounds", Source::Mean(ROUNDS)),
    ("rounds_out", Source::Mean(ROUNDS_OUT)),
];

/// A fight's distributions.
pub const DISTRIBUTIONS: Distributions = &[("rounds", ROUNDS), ("rounds_out", ROUNDS_OUT)];

/// The histogram of the rounds a fight lasted, and the counters that mean someone died in it: what
/// exemplars.csv finds a fight's typical and first deadly trials by (src/study/exemplars.rs).
pub const ROUNDS_FOUGHT: Hist = ROUNDS;
/// See [`ROUNDS_FOUGHT`].
pub const DEATHS: [Counter; 2] = [VICTIM_KILLED, ATTACKER_KILLED];

impl FightOutcome {
    /// The attacker won and the victim is alive at the end (the `p_taken_alive` metric).
    pub fn taken_alive(&self) -> bool {
        self.ending == Ending::AttackerWins && !self.killed[VICTIM] && !self.woke_before_bound
    }
}

impl Record for FightOutcome {
    #[inline]
    fn record<S: Sink>(&self, s: &mut S) {
        let ending = match self.ending {
            Ending::AttackerWins => ATTACKER_WINS,
            Ending::VictimWins => VICTIM_WINS,
            Ending::BothDown => BOTH_DOWN,
            Ending::Timeout => TIMEOUT,
        };
        s.count(ending, true);
        s.count(TAKEN_ALIVE, self.taken_alive());
        s.count(ATTACKER_KILLED, self.killed[ATTACKER]);
        s.count(VICTIM_KILLED, self.killed[VICTIM]);
        s.count(WON_BY_OPENING, self.won_by_opening);
        s.count(WOKE_BEFORE_BOUND, self.woke_before_bound);
        s.observe(ROUNDS, i64::from(self.rounds));
        if let Some(n) = self.rounds_out {
            s.observe(ROUNDS_OUT, i64::from(n));
        }
    }
}

impl Maneuver for FightPlan {
    type Outcome = FightOutcome;

    #[inline]
    fn resolve<R: Roller + ?Sized>(&self, rng: &mut R) -> FightOutcome {
        FightPlan::resolve(self, rng)
    }

    /// A fight is walked round by round with no bound on the rounds: no exact answer.
    fn paths(&self) -> Option<Paths> {
        None
    }

    fn range(&self, hist: Hist) -> Option<(i64, i64)> {
        // Round 0: an opening won before the fight began. A loser's clock rarely runs past a few dozen
        // rounds; the histogram grows if it does.
        if hist == ROUNDS {
            Some((0, i64::from(self.max_rounds)))
        } else {
            (hist == ROUNDS_OUT).then_some((0, 64))
        }
    }
}

#[cfg(test)]
mod tests;
