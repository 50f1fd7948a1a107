//! The pure rules core: no files, no threads, no clocks.
//!
//! Every maneuver of the text has its own module, named after the text's heading. Each follows one shape:
//! `prepare` takes the resolved [`Matchup`] and the [`RuleOptions`], checks eligibility once and folds every
//! table look-up into a few integers; `resolve` then runs one trial from those integers and a
//! [`Roller`](crate::dice::Roller). The per-trial path therefore never looks anything up and never fails.

#![deny(clippy::wildcard_enum_match_arm)]

pub mod action;
pub mod armed_defender;
pub mod attack;
pub mod brawl;
pub mod catalog;
pub mod combatant;
pub mod fight;
pub mod grab;
pub mod maneuver;
pub mod mugging;
pub mod options;
pub mod reads;
pub mod rear;
pub mod sap;
pub mod section;
pub mod strike;
pub mod tables;

use std::fmt;

pub use combatant::Combatant;
pub use options::RuleOptions;

use crate::dice::narrate;
use crate::rules::combatant::State;
use crate::rules::section::Section;
use crate::rules::tables::Size;

/// A key of a scenario file with the name a reader knows it by. Charts and tables print the name, never
/// the key (docs/scenarios.md "Charts"); each section's keys are one table of these, beside the type that
/// reads them, so a new key cannot come without its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    /// The key as a scenario writes it (`sap_helpless_ko_cap`).
    pub key: &'static str,
    /// What a reader calls it (`sap cap on a helpless victim`).
    pub name: &'static str,
    /// The unit of its values.
    pub unit: Unit,
}

impl Key {
    /// A key, its name and unit.
    pub const fn new(key: &'static str, name: &'static str, unit: Unit) -> Key {
        Key { key, name, unit }
    }
}

/// The keys of a table of [`Key`]s, in its order: the lists that serve suggestions and checks.
pub const fn keys<const N: usize>(table: &[Key; N]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = table[i].key;
        i += 1;
    }
    out
}

/// The unit a key's values or a metric is in, as an axis label and a legend write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A name, a switch, a count without a unit.
    None,
    /// Percent.
    Percent,
    /// Feet.
    Feet,
    /// An ability score (`18/50`).
    Score,
    /// Armor class.
    ArmorClass,
    /// Hit points.
    HitPoints,
    /// Combat rounds.
    Rounds,
    /// A multiple (of the mugger's height).
    Times,
    /// A face of the d20.
    D20,
    /// Pairs of d20 rolled in a Strength contest.
    DicePairs,
}

impl Unit {
    /// The unit as an axis label ends: ` (feet)`; empty without a unit.
    pub fn axis(self) -> &'static str {
        match self {
            Unit::None => "",
            Unit::Percent => " (%)",
            Unit::Feet => " (feet)",
            Unit::Score => " (score)",
            Unit::ArmorClass => " (AC)",
            Unit::HitPoints => " (hit points)",
            Unit::Rounds => " (rounds)",
            Unit::Times => " (times)",
            Unit::D20 => " (d20)",
            Unit::DicePairs => " (pairs of d20)",
        }
    }

    /// A value with its unit, as a legend or a caption writes it: `3 ft`, `60%`; a score, an armor class or a
    /// name bare.
    pub fn value(self, value: &str) -> String {
        match self {
            Unit::Percent => format!("{value}%"),
            Unit::Feet => format!("{value} ft"),
            Unit::HitPoints => format!("{value} hp"),
            Unit::Rounds => format!("{value} rounds"),
            Unit::Times => format!("{value}×"),
            Unit::None | Unit::Score | Unit::ArmorClass | Unit::D20 | Unit::DicePairs => {
                value.to_string()
            }
        }
    }
}

/// The two sides of one single action, resolved once per sweep point.
#[derive(Debug, Clone, PartialEq)]
pub struct Matchup {
    /// Who acts.
    pub attacker: Combatant,
    /// Who is acted upon.
    pub victim: Combatant,
}

impl Matchup {
    /// Attacker level minus victim level, a monster's level being its whole Hit Dice (docs/scenarios.md
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
    /// The part that heals (docs/rules.md §6).
    pub temporary: u32,
}

impl Damage {
    /// 25% real (rounded by `rounding`), the rest temporary: punching, wrestling and saps (docs/rules.md §4, §6).
    pub fn quarter_real(total: u32, rounding: options::Rounding) -> Damage {
        let real = rounding.divide(total as i32, 4) as u32;
        Damage {
            total,
            real,
            temporary: total - real,
        }
    }
}

/// The victim's hit points as a single blow meets them (docs/rules.md §3, §4): rolled per trial, or fixed
/// by `hp`, and the line `death_at` below which real damage kills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Vitals {
    /// The victim's hit points.
    pub hp: combatant::HitPoints,
    /// Real damage that leaves this many hit points or fewer kills (0 or −10).
    pub death_at: i32,
}

/// What one blow's damage did to the victim's hit points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Wound {
    /// Real and temporary damage together leave him at 0 hit points or less: unconscious, or dead.
    pub down: bool,
    /// The real part alone leaves him at `death_at` or less.
    pub killed: bool,
}

impl Vitals {
    /// The victim of `m` under `options`.
    pub fn of(m: &Matchup, options: &RuleOptions) -> Vitals {
        Vitals {
            hp: m.victim.hp,
            death_at: options.death_at,
        }
    }

    /// Rolls the victim's hit points (when they are dice) and judges the blow: killed when
    /// `hp − real ≤ death_at`, down when `hp − total ≤ 0`. Only these two comparisons are asked, so the
    /// exact enumerator walks three branches, not every hit point total.
    #[inline]
    pub fn wound<R: crate::dice::Roller + ?Sized>(&self, damage: Damage, rng: &mut R) -> Wound {
        // real + death_at ≤ total, since death_at ≤ 0 and real ≤ total: the cuts are ascending.
        let killed_at = damage.real as i32 + self.death_at;
        self.tell_blow(damage, rng);
        let region = self.hp.region([killed_at, damage.total as i32], rng);
        let wound = Wound {
            killed: region == 0,
            down: region <= 1,
        };
        Vitals::tell_wound(wound, false, rng);
        wound
    }

    /// Says what a blow's damage is about to meet (a narrated trial; nothing otherwise).
    #[inline(always)]
    fn tell_blow<R: crate::dice::Roller + ?Sized>(&self, damage: Damage, rng: &mut R) {
        narrate!(
            rng,
            Section::Core,
            "{} points of damage ({} real, {} temporary) meet his {}: he drops if they leave him at 0 or below, and dies if the real part alone leaves him at {} or below.",
            damage.total,
            damage.real,
            damage.temporary,
            self.hp,
            self.death_at
        );
    }

    /// Says what a blow did to the hit points (a narrated trial; nothing otherwise).
    #[inline(always)]
    fn tell_wound<R: crate::dice::Roller + ?Sized>(wound: Wound, wakes: bool, rng: &mut R) {
        narrate!(
            rng,
            Section::Core,
            "{}",
            if wound.killed {
                "Killed: the real damage alone takes him past the point of death."
            } else if wakes {
                "Down and unconscious, but enough temporary damage heals for him to wake before he is tied."
            } else if wound.down {
                "Down: he falls unconscious, alive."
            } else {
                "He stays on his feet."
            }
        );
    }

    /// The paths of [`Vitals::wound`] for the exact count.
    pub fn paths(&self) -> crate::dice::Paths {
        self.hp.paths()
    }

    /// [`Vitals::wound`], and whether a victim the blow dropped is lifted back to 1 hit point by `heals`
    /// heals of his temporary damage (docs/rules.md §6 "After the blow"): a third cut between the two, so
    /// the exact count walks four branches. He wakes within them when `hp > total − heals`, and never while
    /// real damage alone keeps him down (`hp ≤ real`).
    #[inline]
    pub fn wound_healed<R: crate::dice::Roller + ?Sized>(
        &self,
        damage: Damage,
        heals: u32,
        rng: &mut R,
    ) -> (Wound, bool) {
        let killed_at = damage.real as i32 + self.death_at;
        let total = damage.total as i32;
        let wakes_above = (total - heals as i32).max(damage.real as i32);
        self.tell_blow(damage, rng);
        narrate!(
            rng,
            Section::Fights,
            "Before he is tied, {heals} points of his temporary damage heal: down, he wakes if that lifts him to 1 hit point."
        );
        let region = self.hp.region([killed_at, wakes_above, total], rng);
        let wound = Wound {
            killed: region == 0,
            down: region <= 2,
        };
        Vitals::tell_wound(wound, region == 2, rng);
        (wound, region == 2)
    }

    /// The paths of [`Vitals::wound_healed`] for the exact count.
    pub fn paths_healed(&self) -> crate::dice::Paths {
        self.hp.paths_cut(3)
    }

    /// The paths of [`Vitals::wound`] followed by `standing` where the blow leaves him on his feet (the
    /// region above both cuts). Fixed hit points are no branch: `standing` is counted, at most what is
    /// walked.
    pub fn paths_standing(&self, standing: crate::dice::Paths) -> crate::dice::Paths {
        match self.hp {
            combatant::HitPoints::Fixed(_) => standing,
            combatant::HitPoints::Rolled(dice) => crate::dice::Paths::region(&dice, 3, |region| {
                if region == 2 {
                    standing
                } else {
                    crate::dice::Paths::END
                }
            }),
        }
    }
}

/// A number added to dice as a narration writes it: " +1 Strength", nothing for 0.
pub(crate) fn added(value: i32, name: &str) -> String {
    if value == 0 {
        String::new()
    } else {
        format!(" {value:+} {name}")
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
    /// Bare hands are not a blunt instrument (unless `mug_bare_hands`).
    #[error(
        "a mugging needs a blunt instrument, not bare hands (give the thief a club or a sap, or set rules.mug_bare_hands = true)"
    )]
    BareHandsMug,
    /// A backstab, and so a mugging, needs a victim of humanoid anatomy.
    #[error(
        "a mugging needs a victim of humanoid anatomy, and a {0} is not (rules.mug_humanoid_only = false allows it)"
    )]
    NotHumanoid(String),
    /// Saps work on T, S and M creatures only.
    #[error("a sap works only on creatures of size T, S or M (the victim is {0})")]
    TooLarge(Size),
    /// Saps are melee or bare-handed.
    #[error(
        "a sap needs a melee weapon or bare hands, not a {0} (give the attacker a melee backup_weapon)"
    )]
    Missile(String),
    /// Holding a blow back needs a weapon whose damage can be controlled.
    #[error("a {0} cannot be held back: only controllable weapons (swords, axes, daggers)")]
    NotControllable(String),
    /// Bare hands are never held back: they punch, wrestle or overbear.
    #[error(
        "bare hands are not held back: a fist subdues by punching, wrestling or overbearing (use action = \"brawl\", or \"subdue\" with a `style`)"
    )]
    BareHandsStrike,
    /// A missile weapon does not strike in melee.
    #[error("a {0} is a missile weapon and does not strike in melee")]
    MissileInMelee(String),
    /// The victim told to hold back needs a weapon whose damage can be controlled, as the attacker does.
    #[error(
        "the victim's {0} cannot be held back (victim_intent = \"subdue\" needs a sword, an axe or a dagger)"
    )]
    VictimNotControllable(String),
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
    /// Martial arts need training.
    #[error(
        "martial arts need training: the {0} has none (set martial_arts = \"proficient\" or \"specialized\")"
    )]
    NoMartialArts(String),
    /// Grabbing an object needs something held.
    #[error("the victim holds no weapon to grab")]
    NothingToGrab,
    /// An opening is made before the victim knows of the fight.
    #[error(
        "an opening needs a victim who is unaware, asleep or held (set victim.aware = false, or victim.state)"
    )]
    OpeningOnAware,
    /// A fight of sides needs somebody on each.
    #[error("a side has no member (every `count` is 0)")]
    EmptySide,
    /// Openings are one-on-one.
    #[error(
        "an opening (mug or sap before round 1) is a one-on-one rule: a fight of several a side starts at round 1 (remove action_options.opening)"
    )]
    SidesOpening,
    /// Binding after the fight is one-on-one.
    #[error(
        "bind_rounds is a one-on-one rule: tying several downed victims is not modelled (set action_options.bind_rounds = 0)"
    )]
    SidesBinding,
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

/// A ready-made matchup for the tests of the maneuvers, read from two combatants as a scenario writes them
/// (test code only: the rules themselves never read a file).
#[cfg(test)]
pub(crate) fn matchup(attacker: &str, victim: &str) -> Matchup {
    let resolve = |text: &str| {
        let spec: crate::scenario::CombatantSpec = toml::from_str(text).unwrap();
        spec.resolve().unwrap()
    };
    Matchup {
        attacker: resolve(attacker),
        victim: resolve(victim),
    }
}

/// The tests' view of a narrated trial: the steps a rule told, and a check that telling changes nothing.
#[cfg(test)]
pub(crate) mod told {
    use std::fmt::Debug;

    use crate::dice::{Event, Narrator, Pooled, Recording, Scripted};
    use crate::engine::trial_dice;
    use rand_xoshiro::SplitMix64;

    /// Runs `resolve` narrated on scripted `faces`: its outcome and the text of every step, in order.
    pub(crate) fn steps<T>(
        faces: impl IntoIterator<Item = u32>,
        resolve: impl FnOnce(&mut Recording<Scripted>) -> T,
    ) -> (T, Vec<String>) {
        let narrator = Narrator::new();
        let out = resolve(&mut Recording::new(Scripted::new(faces), narrator.clone()));
        let texts = narrator
            .events()
            .into_iter()
            .filter_map(|e| match e {
                Event::Step { text, .. } => Some(text),
                Event::Die { .. } | Event::State { .. } => None,
            })
            .collect();
        (out, texts)
    }

    /// Checks over 400 seeded trials that a narrated trial comes out as the plain one, and that the
    /// narration told something each time; returns the outcomes, so a caller can see they vary.
    pub(crate) fn same_as_plain<T: PartialEq + Debug>(
        plain: impl Fn(&mut Pooled<SplitMix64>) -> T,
        narrated: impl Fn(&mut Recording<Pooled<SplitMix64>>) -> T,
    ) -> Vec<T> {
        (0..400)
            .map(|t| {
                let expected = plain(&mut trial_dice(7, t));
                let narrator = Narrator::new();
                let got = narrated(&mut Recording::new(trial_dice(7, t), narrator.clone()));
                assert_eq!(got, expected, "trial {t}");
                assert!(
                    narrator
                        .events()
                        .iter()
                        .any(|e| matches!(e, Event::Step { .. })),
                    "trial {t} told nothing"
                );
                got
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;

    /// Hit points rolled on `count`d4, and a blow of `total` points, `real` of them real.
    fn rolled_d4(count: u32, total: u32, real: u32) -> (Vitals, Damage) {
        let vitals = Vitals {
            hp: combatant::HitPoints::Rolled(Dice::of(count, 4, 0)),
            death_at: 0,
        };
        let blow = Damage {
            total,
            real,
            temporary: total - real,
        };
        (vitals, blow)
    }

    #[test]
    fn a_narrated_wound_tells_the_hit_points_it_meets_and_what_they_say() {
        let (vitals, blow) = rolled_d4(1, 3, 1);
        let meet = "3 points of damage (1 real, 2 temporary) meet his hit points rolled on 1d4: he drops if they leave him at 0 or below, and dies if the real part alone leaves him at 0 or below.";
        for (face, killed, down, last) in [
            (
                1,
                true,
                true,
                "Killed: the real damage alone takes him past the point of death.",
            ),
            (3, false, true, "Down: he falls unconscious, alive."),
            (4, false, false, "He stays on his feet."),
        ] {
            let (wound, steps) = told::steps([face], |d| vitals.wound(blow, d));
            assert_eq!((wound.killed, wound.down), (killed, down), "{face}");
            assert_eq!(steps, [meet, last], "{face}");
        }
        // Two points heal before he is tied: 2 hit points take 3 and wake at 1 again.
        let (wound, steps) = told::steps([2], |d| vitals.wound_healed(blow, 2, d));
        assert_eq!(
            wound,
            (
                Wound {
                    down: true,
                    killed: false
                },
                true
            )
        );
        assert_eq!(
            steps[2],
            "Down and unconscious, but enough temporary damage heals for him to wake before he is tied."
        );
    }

    #[test]
    fn a_number_added_to_dice_is_named_with_its_sign_and_left_out_at_0() {
        assert_eq!(added(2, "Strength and magic"), " +2 Strength and magic");
        assert_eq!(added(-1, "Strength"), " -1 Strength");
        assert_eq!(added(0, "Strength"), "");
    }

    #[test]
    fn a_narrated_wound_comes_out_as_a_plain_one() {
        let (vitals, blow) = rolled_d4(2, 5, 2);
        let outs = told::same_as_plain(|d| vitals.wound(blow, d), |d| vitals.wound(blow, d));
        assert!(outs.iter().any(|w| w.killed) && outs.iter().any(|w| !w.down));
    }
}
