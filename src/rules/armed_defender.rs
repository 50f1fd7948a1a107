//! WEAPONS IN DEFENSE: "an armed defender is automatically allowed to strike first, regardless of
//! initiative" against a man who punches, wrestles, overbears or grabs him, "and gains a +4 to his attack
//! and damage rolls" (docs/rules.md §3 "Armed defender against an unarmed attacker").
//!
//! Who counts as armed is decided here for every action: a melee weapon in hand (not the fist, not a missile
//! weapon; natural attacks do not count). Fights apply the rule round by round; the single-action grabs
//! meet it as [`FirstStrike`]: the defender's attacks of a first round, made before the grab, at the
//! grabber's hit points. A grabber they drop grabs nothing, so a grab's odds are those of a grabber still
//! standing, not of one who never met the sword.

use crate::dice::{Dice, Paths, Roller, narrate};
use crate::rules::attack::AttackRoll;
use crate::rules::catalog::Weapon;
use crate::rules::maneuver::{Counter, Hist, Sink};
use crate::rules::section::Section;
use crate::rules::{Combatant, Damage, RuleOptions, Vitals, Wound};

/// The weapon that makes `defender` an armed defender, if any: the melee weapon he fights with
/// ([`Combatant::melee_weapon`]), so a bowman with a dagger at his belt is armed with the dagger.
pub fn armed_with(defender: &Combatant) -> Option<&Weapon> {
    defender.melee_weapon()
}

/// The armed defender's bonus to his attack and damage rolls (`armed_defender_bonus`, +4 by the text): the
/// one place a grab's first strike and a fight's armed defender read it.
pub fn armed_bonus(options: &RuleOptions) -> i32 {
    options.armed_defender_bonus
}

/// The armed defender's strike at a grabber, prepared once per point: every attack he makes in a first
/// round, each at +4 to hit and damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FirstStrike {
    /// Attacks in the first round (two for a warrior of level 13 and up, one for anyone else).
    pub attacks: u32,
    /// Each attack's roll: Strength, magic and the bonus.
    pub roll: AttackRoll,
    /// The weapon's dice against the grabber's size.
    pub dice: Dice,
    /// Added to the dice: Strength, magic and the bonus.
    pub add: i32,
    /// The grabber's hit points, rolled per trial (or his `hp`), and where real damage kills.
    pub grabber: Vitals,
}

/// What the first strike did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Struck {
    /// At least one attack hit the grabber.
    pub hit: bool,
    /// The damage of the attacks that hit, each at least 1.
    pub damage: u32,
    /// What that damage did to the grabber: down (he grabs nothing), or dead.
    pub wound: Wound,
}

impl FirstStrike {
    /// The strike `defender` makes with `weapon` at `grabber`, or `None` when the rule is switched off for
    /// grabs (`armed_defender_vs_grabs = false`).
    pub fn prepare(
        defender: &Combatant,
        weapon: &Weapon,
        grabber: &Combatant,
        options: &RuleOptions,
    ) -> Option<FirstStrike> {
        if !options.armed_defender_vs_grabs {
            return None;
        }
        let bonus = armed_bonus(options);
        // With `armed_defender_extra_attack` he makes one extra attack before the round and his normal
        // attacks follow initiative, after the grab: one strike first. Otherwise all his attacks of a
        // first round, which is odd: a warrior of 7-12 makes his second attack only in even rounds.
        let attacks = if options.armed_defender_extra_attack {
            1
        } else {
            defender.weapon_attacks()[1]
        };
        Some(FirstStrike {
            attacks,
            roll: AttackRoll::new(
                defender.thac0,
                grabber.ac.normal(),
                defender.hit_adjustment() + weapon.magic + bonus,
                options,
            ),
            dice: weapon.damage_against(grabber.size),
            add: defender.damage_adjustment() + weapon.magic + bonus,
            grabber: Vitals {
                hp: grabber.hp,
                death_at: options.death_at,
            },
        })
    }

    /// The defender's attacks, in order: each its d20 and, on a hit, its damage dice; then, if any hit,
    /// the grabber's hit points meet the damage. The defender strikes at full force (a grab has no
    /// `victim_intent`): all of it is real.
    #[inline]
    pub fn roll<R: Roller + ?Sized>(&self, rng: &mut R) -> Struck {
        narrate!(
            rng,
            Section::ArmedDefender,
            "The armed defender strikes first, whatever the initiative: {} {} at full force, his bonus as an armed defender counted in to hit and damage.",
            self.attacks,
            if self.attacks == 1 {
                "attack"
            } else {
                "attacks"
            }
        );
        let mut struck = Struck::default();
        for _ in 0..self.attacks {
            if self.roll.roll(rng).hit {
                struck.hit = true;
                narrate!(
                    rng,
                    Section::ArmedDefender,
                    "Damage: {}{:+} (at least 1), all of it real.",
                    self.dice,
                    self.add
                );
                let damage = (self.dice.roll(rng) + self.add).max(1) as u32;
                narrate!(rng, Section::ArmedDefender, "{damage} points.");
                struck.damage += damage;
            }
        }
        if !struck.hit {
            narrate!(
                rng,
                Section::ArmedDefender,
                "The armed defender's blows all miss."
            );
        }
        if struck.hit {
            struck.wound = self.grabber.wound(
                Damage {
                    total: struck.damage,
                    real: struck.damage,
                    temporary: 0,
                },
                rng,
            );
        }
        struck
    }
}

/// The paths of [`strike_first`] followed by `standing` (what the grab asks for next) wherever the grabber
/// is still on his feet: each attack's d20 and, on a hit, its damage dice; after a hit, the grabber's hit
/// point regions, the grab following only the region where he stands.
pub fn strike_first_paths(strike: &Option<FirstStrike>, standing: Paths) -> Paths {
    match strike {
        Some(s) => s.paths(s.attacks, false, standing),
        None => standing,
    }
}

impl FirstStrike {
    /// The paths of the `left` attacks still to come, `hit` telling whether one before them hit.
    fn paths(&self, left: u32, hit: bool, standing: Paths) -> Paths {
        if left == 0 {
            return if hit {
                self.grabber.paths_standing(standing)
            } else {
                standing
            };
        }
        self.roll.paths(|swing| {
            if swing.hit {
                Paths::roll(&self.dice).then(self.paths(left - 1, true, standing))
            } else {
                self.paths(left - 1, hit, standing)
            }
        })
    }
}

/// The first strike of an optional [`FirstStrike`]: nothing when there is none.
#[inline]
pub fn strike_first<R: Roller + ?Sized>(strike: &Option<FirstStrike>, rng: &mut R) -> Struck {
    match strike {
        Some(s) => s.roll(rng),
        None => Struck::default(),
    }
}

// The tally of a first strike, in every grab's tally.
pub(crate) const STRUCK: Counter = Counter(3);
pub(crate) const GRABBER_DOWN: Counter = Counter(4);
pub(crate) const GRABBER_KILLED: Counter = Counter(5);
pub(crate) const STRUCK_DAMAGE: Hist = Hist(1);

impl Struck {
    /// Counts the first strike in a grab's tally: whether it hit, its damage when it did, and whether it
    /// dropped or killed the grabber.
    #[inline]
    pub(crate) fn record<S: Sink>(self, s: &mut S) {
        if self.hit {
            s.count(STRUCK, true);
            s.observe(STRUCK_DAMAGE, i64::from(self.damage));
            s.count(GRABBER_DOWN, self.wound.down);
            s.count(GRABBER_KILLED, self.wound.killed);
        }
    }
}

/// The values the first strike's damage can take, `(1, most)` (`None` without a first strike).
pub(crate) fn struck_range(strike: &Option<FirstStrike>) -> Option<(i64, i64)> {
    strike.map(|s| {
        (
            1,
            i64::from(s.attacks) * i64::from((s.dice.max() + s.add).max(1)),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;
    use crate::rules::matchup;

    #[test]
    fn only_a_melee_weapon_in_hand_arms_a_defender() {
        let armed = |victim: &str| {
            armed_with(&matchup("class = \"fighter\"", victim).victim).map(|w| w.name.clone())
        };
        assert_eq!(
            armed("class = \"fighter\"\nweapon = \"club\""),
            Some("club".into())
        );
        assert_eq!(armed("class = \"fighter\""), None);
        assert_eq!(
            armed("monster = \"ogre\""),
            None,
            "natural attacks do not count"
        );
        assert_eq!(armed("monster = \"orc\""), Some("long sword".into()));
        assert_eq!(armed("class = \"fighter\"\nweapon = \"short bow\""), None);
        assert_eq!(
            armed("class = \"fighter\"\nweapon = \"short bow\"\nbackup_weapon = \"dagger\""),
            Some("dagger".into())
        );
    }

    #[test]
    fn the_first_strike_is_at_plus_4_to_hit_and_damage() {
        let m = matchup(
            "class = \"fighter\"\nac = 6\nhp = 20",
            "class = \"fighter\"\nlevel = 5\nstrength = 17\nweapon = { name = \"long sword\", magic = 1 }",
        );
        let weapon = armed_with(&m.victim).unwrap();
        let s =
            FirstStrike::prepare(&m.victim, weapon, &m.attacker, &RuleOptions::default()).unwrap();
        assert_eq!(s.attacks, 1);
        assert_eq!(s.roll.modifier, 1 + 1 + 4);
        assert_eq!(s.roll.needed(), 16 - 6 - 6);
        assert_eq!((s.dice.to_string(), s.add), ("1d8".into(), 1 + 1 + 4));
        // Hit on 4, 1d8 = 3: 3 + 6.
        let mut dice = Scripted::new([4, 3]);
        assert_eq!(
            s.roll(&mut dice),
            Struck {
                hit: true,
                damage: 9,
                wound: Wound::default(),
            }
        );
        let mut miss = Scripted::new([3]);
        assert_eq!(s.roll(&mut miss), Struck::default());
        let off = RuleOptions {
            armed_defender_vs_grabs: false,
            ..RuleOptions::default()
        };
        assert_eq!(
            FirstStrike::prepare(&m.victim, weapon, &m.attacker, &off),
            None
        );
    }

    #[test]
    fn a_warrior_of_13_strikes_twice_in_a_first_round_one_of_7_to_12_once() {
        let strikes = |level: u32| {
            let m = matchup(
                "class = \"fighter\"",
                &format!("class = \"fighter\"\nlevel = {level}\nweapon = \"dagger\""),
            );
            FirstStrike::prepare(
                &m.victim,
                &m.victim.weapon,
                &m.attacker,
                &RuleOptions::default(),
            )
            .unwrap()
            .attacks
        };
        assert_eq!(strikes(6), 1);
        assert_eq!(strikes(7), 1);
        assert_eq!(strikes(12), 1);
        assert_eq!(strikes(13), 2);
        // As one extra attack before the round, it is one strike whatever his level.
        let extra = RuleOptions {
            armed_defender_extra_attack: true,
            ..RuleOptions::default()
        };
        let m = matchup(
            "class = \"fighter\"",
            "class = \"fighter\"\nlevel = 13\nweapon = \"dagger\"",
        );
        let s = FirstStrike::prepare(&m.victim, &m.victim.weapon, &m.attacker, &extra).unwrap();
        assert_eq!(s.attacks, 1);
        let thief = matchup(
            "class = \"fighter\"",
            "class = \"thief\"\nlevel = 15\nweapon = \"dagger\"",
        );
        let s = FirstStrike::prepare(
            &thief.victim,
            &thief.victim.weapon,
            &thief.attacker,
            &RuleOptions::default(),
        );
        assert_eq!(s.unwrap().attacks, 1);
        // Two attacks: each rolls its d20, a hit its damage (at least 1 each).
        let m = matchup(
            "class = \"fighter\"\nhp = 20",
            "class = \"fighter\"\nlevel = 13\nstrength = 3\nweapon = \"dagger\"",
        );
        let s = FirstStrike::prepare(
            &m.victim,
            &m.victim.weapon,
            &m.attacker,
            &RuleOptions::default(),
        )
        .unwrap();
        // Strength 3: −1 damage; +4: a 1 on the d4 does 4.
        let mut dice = Scripted::new([20, 1, 20, 2]);
        assert_eq!(
            s.roll(&mut dice),
            Struck {
                hit: true,
                damage: 4 + 5,
                wound: Wound::default(),
            }
        );
    }

    #[test]
    fn the_count_of_two_first_strikes_is_the_paths_walked() {
        // Each attack's d20, each hit's d4: (misses + hits × 4)² paths, every one walked.
        // The grabber's hit points are fixed here, so they add no branch.
        let m = matchup(
            "class = \"fighter\"\nac = 2\nhp = 20",
            "class = \"fighter\"\nlevel = 13\nweapon = \"dagger\"",
        );
        let s = FirstStrike::prepare(
            &m.victim,
            &m.victim.weapon,
            &m.attacker,
            &RuleOptions::default(),
        );
        assert_eq!(s.map(|s| s.attacks), Some(2));
        let hits = (1..=20).filter(|&f| s.unwrap().roll.hits(f)).count() as u128;
        assert!(hits > 0 && hits < 20, "a case worth testing: {hits} hits");
        let counted = strike_first_paths(&s, Paths::END);
        let mut denominators = Vec::new();
        let walk =
            crate::dice::Enumerator::walk(|e| strike_first(&s, e), |_, _, d| denominators.push(d));
        assert_eq!(counted.count, ((20 - hits) + hits * 4).pow(2));
        assert_eq!(u128::from(walk.leaves), counted.count);
        assert_eq!(counted.denominator, Some(80 * 80));
        assert!(denominators.iter().all(|d| (80 * 80) % d == 0));
        assert_eq!(strike_first_paths(&None, Paths::END), Paths::END);
    }

    #[test]
    fn a_narrated_first_strike_tells_each_blow_and_what_it_did() {
        let m = matchup(
            "class = \"fighter\"\nac = 6\nhp = 2",
            "class = \"fighter\"\nlevel = 5\nstrength = 17\nweapon = { name = \"long sword\", magic = 1 }",
        );
        let weapon = armed_with(&m.victim).unwrap();
        let s =
            FirstStrike::prepare(&m.victim, weapon, &m.attacker, &RuleOptions::default()).unwrap();
        let (struck, steps) = crate::rules::told::steps([4, 3], |d| s.roll(d));
        assert!(struck.wound.killed);
        assert_eq!(
            steps,
            [
                "The armed defender strikes first, whatever the initiative: 1 attack at full force, his bonus as an armed defender counted in to hit and damage.",
                "Attack roll: a d20 +6 must reach 10 (THAC0 minus armor class), so 4 or more on the die.",
                "4 +6 = 10: a hit.",
                "Damage: 1d8+6 (at least 1), all of it real.",
                "9 points.",
                "9 points of damage (9 real, 0 temporary) meet his 2 hit points: he drops if they leave him at 0 or below, and dies if the real part alone leaves him at 0 or below.",
                "Killed: the real damage alone takes him past the point of death.",
            ]
        );
        let (_, steps) = crate::rules::told::steps([3], |d| s.roll(d));
        assert_eq!(
            steps.last().unwrap(),
            "The armed defender's blows all miss."
        );
    }
}
