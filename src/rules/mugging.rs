//! MUGGING: a thief's blow from behind with a blunt instrument; the victim saves vs petrification or is
//! knocked out (docs/rules.md §2).

use crate::dice::{Dice, Paths, Roller, narrate};
use crate::rules::action::Fixed;
use crate::rules::attack::{AttackRoll, SavingThrow};
use crate::rules::combatant::{Combatant, Position};
use crate::rules::maneuver::{
    Counter, Distributions, Hist, Maneuver, Metrics, Record, Sink, Source,
};
use crate::rules::options::{MugLevelDiff, RuleOptions};
use crate::rules::section::{Section, Terms};
use crate::rules::tables::SaveCategory;
use crate::rules::{Ineligible, Matchup};

/// The backstab bonus a mugging keeps.
pub const MUG_TO_HIT_BONUS: i32 = 4;

/// A mugging prepared for one matchup: the attack, the save and the knockout dice.
#[derive(Debug, Clone, PartialEq)]
pub struct Mugging {
    /// The +4 attack against the stripped armor class (automatic on a sleeping or held victim).
    pub attack: AttackRoll,
    /// The victim's save vs petrification, moved by the level difference.
    pub save: SavingThrow,
    /// How long a knockout lasts.
    pub ko_rounds: Dice,
    /// Rounds the thief needs to tie his victim up (`bind_rounds`; 0: at once).
    pub bind_rounds: u32,
    /// The terms of the attack's modifier, named for a narration.
    pub to_hit: Terms,
    /// The terms of the save's number, named for a narration.
    pub save_terms: Terms,
    /// The armor class struck, for a narration.
    pub armor_class: i32,
    /// Whether that is a bare head's under the helmet rule, for a narration.
    pub bare_head: bool,
}

/// One mugging attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MugOutcome {
    /// The blow landed.
    pub hit: bool,
    /// Knocked out, for this many rounds.
    pub ko_rounds: Option<u32>,
    /// Knocked out, and awake again before the thief had him tied: the knockout lasted fewer rounds than
    /// `bind_rounds` (docs/rules.md §6 "After the blow").
    pub woke_before_bound: bool,
}

/// Whether the thief may mug this victim at all: eligible for a backstab (a thief, behind an unaware victim
/// of humanoid anatomy who has a back), a blunt instrument (not bare hands, unless `mug_bare_hands`), and a
/// victim at most `mug_max_height_ratio` times his height (docs/rules.md §2 "Who and whom").
pub fn eligibility(m: &Matchup, options: &RuleOptions) -> Result<(), Ineligible> {
    let (thief, victim) = (&m.attacker, &m.victim);
    match thief.class() {
        Some(class) if class.backstabs() => {}
        Some(class) => return Err(Ineligible::NotAThief(class.to_string())),
        None => return Err(Ineligible::NotAThief(thief.name.clone())),
    }
    if thief.position != Position::Behind {
        return Err(Ineligible::NotBehind);
    }
    if victim.aware {
        return Err(Ineligible::VictimAware);
    }
    if !victim.has_back {
        return Err(Ineligible::NoBack);
    }
    if options.mug_humanoid_only && !victim.humanoid {
        return Err(Ineligible::NotHumanoid(victim.name.clone()));
    }
    if victim.height_ft > options.mug_max_height_ratio * thief.height_ft {
        return Err(Ineligible::TooTall {
            victim: victim.height_ft,
            mugger: thief.height_ft,
            ratio: options.mug_max_height_ratio,
        });
    }
    if thief.weapon.is_fist() && !options.mug_bare_hands {
        return Err(Ineligible::BareHandsMug);
    }
    if !thief.weapon.is_blunt() {
        return Err(Ineligible::NotBlunt(thief.weapon.name.clone()));
    }
    Ok(())
}

/// The armor class a mugging strikes: no shield and no Dexterity bonus (a penalty stays). With the helmet
/// rule a bare head is AC 10, magical protection still counting, but the rule never helps the victim: he
/// keeps the worse (larger) of that and his stripped armor class. A creature armored by its own hide has a
/// protected head, so the helmet rule passes it by (docs/rules.md §2 "To hit").
pub fn mugged_armor_class(victim: &Combatant, helmets: bool) -> i32 {
    let stripped = crate::rules::rear::rear_armor_class(&victim.ac);
    if helmets && !victim.helmet && !victim.natural_armor {
        stripped.max(10 - victim.ac.magic)
    } else {
        stripped
    }
}

/// The number the victim needs on his save: his petrification number plus the mugger's level minus his own,
/// signed and unclamped. A monster's own level is its whole Hit Dice, or its save level with
/// `mug_level_diff = "save_level"`.
pub fn save_needed(m: &Matchup, options: &RuleOptions) -> i32 {
    save_terms(m, options).total()
}

/// The terms of [`save_needed`], named.
pub fn save_terms(m: &Matchup, options: &RuleOptions) -> Terms {
    let victim = &m.victim;
    let victim_level = match options.mug_level_diff {
        MugLevelDiff::HitDice => victim.level(),
        MugLevelDiff::SaveLevel => victim.save_level(SaveCategory::Pp),
    };
    Terms::new()
        .with("petrification save", victim.saves.get(SaveCategory::Pp))
        .with("the mugger's level", m.attacker.level() as i32)
        .with("the victim's level", -(victim_level as i32))
}

impl Mugging {
    /// Checks eligibility and folds the tables into the attack and the save.
    pub fn prepare(m: &Matchup, options: &RuleOptions) -> Result<Mugging, Ineligible> {
        eligibility(m, options)?;
        let thief = &m.attacker;
        let to_hit = Terms::new()
            .with("mugging", MUG_TO_HIT_BONUS)
            .with("Strength", thief.hit_adjustment())
            .with("magic", thief.weapon.magic);
        let modifier = to_hit.total();
        let armor_class = mugged_armor_class(&m.victim, options.helmets);
        let attack = if m.victim.state.is_helpless() {
            AttackRoll::automatic(modifier)
        } else {
            AttackRoll::new(thief.thac0, armor_class, modifier, options)
        };
        let save_terms = save_terms(m, options);
        Ok(Mugging {
            attack,
            save: SavingThrow::new(save_terms.total(), options),
            ko_rounds: options.mug_ko_rounds,
            bind_rounds: 0,
            to_hit,
            save_terms,
            armor_class,
            bare_head: armor_class != mugged_armor_class(&m.victim, false),
        })
    }

    /// The mugging with the rounds the thief needs to tie up his knocked-out victim.
    pub fn with_bind_rounds(self, bind_rounds: u32) -> Mugging {
        Mugging {
            bind_rounds,
            ..self
        }
    }

    /// The paths of [`Mugging::resolve`] for the exact count.
    pub fn paths(&self) -> Paths {
        self.attack.paths(|swing| {
            if !swing.hit {
                return Paths::END;
            }
            self.save.paths(|saved| {
                if saved {
                    Paths::END
                } else {
                    Paths::roll(&self.ko_rounds)
                }
            })
        })
    }

    /// One attempt: the attack roll, then the save, then the knockout's length (at least one round).
    #[inline]
    pub fn resolve<R: Roller + ?Sized>(&self, rng: &mut R) -> MugOutcome {
        narrate!(
            rng,
            Section::Mugging,
            "The thief strikes from behind with a blunt instrument at armor class {}{}; to hit: {}.",
            self.armor_class,
            if self.bare_head {
                " (a bare head under the helmet rule)"
            } else {
                " (no shield, no Dexterity)"
            },
            self.to_hit.words()
        );
        if !self.attack.roll(rng).hit {
            return MugOutcome {
                hit: false,
                ko_rounds: None,
                woke_before_bound: false,
            };
        }
        narrate!(
            rng,
            Section::Mugging,
            "The victim saves vs petrification or is knocked out; his number is {} ({}).",
            self.save.needed,
            self.save_terms.words()
        );
        let ko_rounds = if self.save.roll(rng) {
            None
        } else {
            narrate!(
                rng,
                Section::Mugging,
                "Knocked out for {} rounds (at least one).",
                self.ko_rounds
            );
            let rounds = self.ko_rounds.roll(rng).max(1) as u32;
            narrate!(
                rng,
                Section::Mugging,
                "He lies senseless for {rounds} rounds."
            );
            Some(rounds)
        };
        MugOutcome {
            hit: true,
            ko_rounds,
            woke_before_bound: ko_rounds.is_some_and(|k| k < self.bind_rounds),
        }
    }
}

// The tally of a mugging (the engine's fast path, `engine::mugging`, fills the same slots).
pub(crate) const HIT: Counter = Counter(0);
pub(crate) const KNOCKOUT: Counter = Counter(1);
pub(crate) const WOKE_BEFORE_BOUND: Counter = Counter(2);
pub(crate) const KO_ROUNDS: Hist = Hist(0);

/// A mugging's summary metrics, headline first (docs/scenarios.md "Metrics").
pub const METRICS: Metrics = &[
    ("p_knockout", Source::Count(KNOCKOUT)),
    ("p_hit", Source::Count(HIT)),
    ("p_woke_before_bound", Source::Count(WOKE_BEFORE_BOUND)),
    ("ko_rounds", Source::Mean(KO_ROUNDS)),
    ("save_needed", Source::SaveNeeded),
    ("roll_needed", Source::RollNeeded),
];

/// A mugging's distributions.
pub const DISTRIBUTIONS: Distributions = &[("ko_rounds", KO_ROUNDS)];

impl Record for MugOutcome {
    #[inline]
    fn record<S: Sink>(&self, s: &mut S) {
        s.count(HIT, self.hit);
        s.count(WOKE_BEFORE_BOUND, self.woke_before_bound);
        if let Some(rounds) = self.ko_rounds {
            s.count(KNOCKOUT, true);
            s.observe(KO_ROUNDS, i64::from(rounds));
        }
    }
}

impl Maneuver for Mugging {
    type Outcome = MugOutcome;

    #[inline]
    fn resolve<R: Roller + ?Sized>(&self, rng: &mut R) -> MugOutcome {
        Mugging::resolve(self, rng)
    }

    fn paths(&self) -> Option<Paths> {
        Some(Mugging::paths(self))
    }

    fn fixed(&self) -> Fixed {
        Fixed {
            save_needed: Some(self.save.needed),
            roll_needed: Some(self.attack.needed()),
            ..Fixed::default()
        }
    }

    fn range(&self, hist: Hist) -> Option<(i64, i64)> {
        (hist == KO_ROUNDS).then(|| (1, i64::from(self.ko_rounds.max())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;
    use crate::rules::matchup;

    const THIEF_9: &str = "class = \"thief\"\nlevel = 9\nweapon = \"club\"\nposition = \"behind\"";
    const OGRE: &str = "monster = \"ogre\"\naware = false";

    fn ogre_mugging(options: &RuleOptions) -> Mugging {
        Mugging::prepare(&matchup(THIEF_9, OGRE), options).unwrap()
    }

    #[test]
    fn thief_9_vs_ogre_needs_17() {
        assert_eq!(ogre_mugging(&RuleOptions::default()).save.needed, 17);
    }

    #[test]
    fn thief_9_vs_ogre_needs_16_by_save_level() {
        let o = RuleOptions {
            mug_level_diff: MugLevelDiff::SaveLevel,
            ..RuleOptions::default()
        };
        assert_eq!(ogre_mugging(&o).save.needed, 16);
    }

    #[test]
    fn a_higher_level_victim_saves_more_easily_and_nothing_is_clamped() {
        let m = matchup(
            "class = \"thief\"\nlevel = 1\nweapon = \"club\"\nposition = \"behind\"",
            "class = \"fighter\"\nlevel = 17\naware = false",
        );
        // Warrior 17+ petrification 4, plus 1 - 17.
        assert_eq!(save_needed(&m, &RuleOptions::default()), 4 - 16);
        let m = matchup(
            "class = \"thief\"\nlevel = 20\nweapon = \"club\"\nposition = \"behind\"",
            "monster = \"kobold\"\naware = false",
        );
        // Level-0 row, petrification 17, plus 20 - 0.
        assert_eq!(save_needed(&m, &RuleOptions::default()), 37);
    }

    #[test]
    fn the_mugging_adds_4_and_strips_shield_and_dexterity_bonus() {
        let m = matchup(
            "class = \"thief\"\nlevel = 9\nweapon = \"club\"\nposition = \"behind\"\nstrength = 17",
            "class = \"fighter\"\nac = 4\nshield = 1\ndexterity = 17\nmagic_ac = 1\naware = false",
        );
        let mug = Mugging::prepare(&m, &RuleOptions::default()).unwrap();
        assert_eq!(mug.attack.modifier, 4 + 1);
        // AC 4 without the shield and the −3 Dexterity bonus, magic still counting: 3. THAC0 16.
        assert_eq!(mug.attack.target, 16 - 3);
    }

    #[test]
    fn the_mugging_keeps_its_own_4_and_takes_no_rear_attack_bonus() {
        let m = matchup(
            "class = \"thief\"\nlevel = 9\nweapon = \"club\"\nposition = \"behind\"\nstrength = 17",
            "class = \"fighter\"\nac = 4\nshield = 1\ndexterity = 17\nmagic_ac = 1\naware = false",
        );
        // THAC0 16 against the stripped AC 3, +4 + 1: 8, whatever the rear attack bonus.
        for bonus in [0, 2, 5] {
            let options = RuleOptions {
                rear_attack_bonus: bonus,
                ..RuleOptions::default()
            };
            let mug = Mugging::prepare(&m, &options).unwrap();
            assert_eq!(mug.attack.needed(), 8, "{bonus}");
        }
    }

    #[test]
    fn a_dexterity_penalty_stays() {
        let m = matchup(
            "class = \"fighter\"\nac = 6\ndexterity = 4",
            "class = \"fighter\"",
        );
        assert_eq!(mugged_armor_class(&m.attacker, false), 6 + 3);
    }

    #[test]
    fn with_helmets_a_bare_head_is_ac_10_but_magic_counts() {
        let bare = matchup(
            "class = \"fighter\"\nac = 3\nmagic_ac = 2",
            "class = \"fighter\"",
        )
        .attacker;
        assert_eq!(mugged_armor_class(&bare, true), 8);
        assert_eq!(mugged_armor_class(&bare, false), 1);
        let helmed = matchup(
            "class = \"fighter\"\nac = 3\nhelmet = true",
            "class = \"fighter\"",
        )
        .attacker;
        assert_eq!(mugged_armor_class(&helmed, true), 3);
    }

    #[test]
    fn helmet_rule_makes_the_ogre_easier_to_hit() {
        let plain = ogre_mugging(&RuleOptions::default());
        let helmets = ogre_mugging(&RuleOptions {
            helmets: true,
            ..RuleOptions::default()
        });
        assert_eq!(plain.attack.target, 16 - 5);
        assert_eq!(helmets.attack.target, 16 - 10);
    }

    #[test]
    fn only_a_thief_behind_an_unaware_victim_with_a_back_may_mug() {
        let o = RuleOptions::default();
        let err = |a: &str, v: &str| Mugging::prepare(&matchup(a, v), &o).unwrap_err();
        assert!(matches!(
            err(
                "class = \"fighter\"\nweapon = \"club\"\nposition = \"behind\"",
                OGRE
            ),
            Ineligible::NotAThief(_)
        ));
        assert!(matches!(
            err("monster = \"orc\"\nposition = \"behind\"", OGRE),
            Ineligible::NotAThief(_)
        ));
        assert_eq!(
            err("class = \"thief\"\nweapon = \"club\"", OGRE),
            Ineligible::NotBehind
        );
        assert_eq!(err(THIEF_9, "monster = \"ogre\""), Ineligible::VictimAware);
        assert_eq!(
            err(
                THIEF_9,
                "monster = \"ogre\"\naware = false\nhas_back = false"
            ),
            Ineligible::NoBack
        );
        assert!(matches!(
            err(
                "class = \"thief\"\nweapon = \"dagger\"\nposition = \"behind\"",
                OGRE
            ),
            Ineligible::NotBlunt(_)
        ));
        assert!(matches!(
            err(
                "class = \"thief\"\nweapon = \"sling\"\nposition = \"behind\"",
                OGRE
            ),
            Ineligible::NotBlunt(_)
        ));
        // A sleeping victim is unaware whatever `aware` says.
        assert!(
            Mugging::prepare(
                &matchup(
                    "class = \"thief\"\nweapon = \"club\"\nposition = \"behind\"",
                    "monster = \"ogre\"\nstate = \"asleep\""
                ),
                &o
            )
            .is_ok()
        );
    }

    #[test]
    fn a_mugging_needs_a_blunt_instrument_not_bare_hands() {
        let bare = "class = \"thief\"\nposition = \"behind\"";
        let o = RuleOptions::default();
        assert_eq!(
            Mugging::prepare(&matchup(bare, OGRE), &o),
            Err(Ineligible::BareHandsMug)
        );
        let fists_count = RuleOptions {
            mug_bare_hands: true,
            ..RuleOptions::default()
        };
        assert!(Mugging::prepare(&matchup(bare, OGRE), &fists_count).is_ok());
    }

    #[test]
    fn only_humanoid_victims_are_mugged() {
        let o = RuleOptions::default();
        for beast in ["horse", "nightmare"] {
            let victim = format!("monster = \"{beast}\"\naware = false");
            assert_eq!(
                Mugging::prepare(&matchup(THIEF_9, &victim), &o),
                Err(Ineligible::NotHumanoid(beast.into()))
            );
        }
        let any = RuleOptions {
            mug_humanoid_only: false,
            ..RuleOptions::default()
        };
        assert!(
            Mugging::prepare(
                &matchup(THIEF_9, "monster = \"horse\"\naware = false"),
                &any
            )
            .is_ok()
        );
        // A scenario's own monster is humanoid unless told otherwise.
        let custom = "hit_dice = \"2\"\naware = false";
        assert!(Mugging::prepare(&matchup(THIEF_9, custom), &o).is_ok());
        let ooze = "hit_dice = \"2\"\naware = false\nhumanoid = false";
        assert!(Mugging::prepare(&matchup(THIEF_9, ooze), &o).is_err());
    }

    #[test]
    fn the_helmet_rule_never_improves_the_victims_armor_class() {
        // AC 10 with Dexterity 4 (a +3 penalty): 13 stripped; a bare head would be 10, better for him.
        let clumsy = matchup("class = \"fighter\"\ndexterity = 4", "class = \"fighter\"").attacker;
        assert_eq!(mugged_armor_class(&clumsy, true), 13);
        assert_eq!(mugged_armor_class(&clumsy, false), 13);
    }

    #[test]
    fn the_helmet_rule_spares_natural_armor() {
        let o = RuleOptions {
            helmets: true,
            mug_humanoid_only: false,
            ..RuleOptions::default()
        };
        let horse =
            Mugging::prepare(&matchup(THIEF_9, "monster = \"horse\"\naware = false"), &o).unwrap();
        // THAC0 16 against the horse's own AC 7, not 10.
        assert_eq!(horse.attack.target, 16 - 7);
    }

    #[test]
    fn no_victim_more_than_twice_as_tall_as_the_thief() {
        let o = RuleOptions::default();
        let halfling =
            "class = \"thief\"\nrace = \"halfling\"\nweapon = \"club\"\nposition = \"behind\"";
        // 3 ft halfling: a 6 ft victim is exactly twice as tall (allowed), 6.5 ft is not.
        assert!(
            Mugging::prepare(&matchup(halfling, "class = \"fighter\"\naware = false"), &o).is_ok()
        );
        let e = Mugging::prepare(
            &matchup(
                halfling,
                "class = \"fighter\"\nheight_ft = 6.5\naware = false",
            ),
            &o,
        );
        assert!(matches!(e, Err(Ineligible::TooTall { .. })));
        // A human thief (6 ft) may mug a 9 ft ogre.
        assert!(Mugging::prepare(&matchup(THIEF_9, OGRE), &o).is_ok());
        let strict = RuleOptions {
            mug_max_height_ratio: 1.4,
            ..RuleOptions::default()
        };
        assert!(Mugging::prepare(&matchup(THIEF_9, OGRE), &strict).is_err());
    }

    #[test]
    fn a_miss_rolls_only_the_attack() {
        let mug = ogre_mugging(&RuleOptions::default());
        // Needs 11 - 4 = 7 on the d20.
        let mut dice = Scripted::new([6]);
        assert_eq!(
            mug.resolve(&mut dice),
            MugOutcome {
                hit: false,
                ko_rounds: None,
                woke_before_bound: false
            }
        );
        assert_eq!(dice.requests(), &[20]);
    }

    #[test]
    fn a_hit_and_a_made_save_is_no_knockout() {
        let mut dice = Scripted::new([7, 17]);
        let out = ogre_mugging(&RuleOptions::default()).resolve(&mut dice);
        assert_eq!(
            out,
            MugOutcome {
                hit: true,
                ko_rounds: None,
                woke_before_bound: false
            }
        );
    }

    #[test]
    fn a_failed_save_knocks_out_for_2d8_rounds() {
        let mut dice = Scripted::new([7, 16, 3, 8]);
        let out = ogre_mugging(&RuleOptions::default()).resolve(&mut dice);
        assert_eq!(
            out,
            MugOutcome {
                hit: true,
                ko_rounds: Some(11),
                woke_before_bound: false
            }
        );
        assert_eq!(dice.requests(), &[20, 20, 8, 8]);
    }

    #[test]
    fn a_sleeping_victim_is_hit_without_a_roll() {
        let m = matchup(THIEF_9, "monster = \"ogre\"\nstate = \"asleep\"");
        let mug = Mugging::prepare(&m, &RuleOptions::default()).unwrap();
        let mut dice = Scripted::new([1, 4, 4]);
        assert_eq!(mug.resolve(&mut dice).ko_rounds, Some(8));
        // Knocked out for 8 rounds: awake before a binding of 9 rounds, not before one of 8 (docs/rules.md
        // §6 "After the blow").
        for (bind, woke) in [(0, false), (8, false), (9, true)] {
            let out = mug
                .clone()
                .with_bind_rounds(bind)
                .resolve(&mut Scripted::new([1, 4, 4]));
            assert_eq!(out.woke_before_bound, woke, "bind {bind}");
        }
        assert_eq!(dice.requests(), &[20, 8, 8]);
    }
}
