//! WEAPONS IN ATTACK: an armed blow held back so that it does not kill. Only weapons whose damage can be
//! controlled; −4 to hit; half damage, half of that temporary, the odd point gentle (docs/rules.md §3).
//! Subdual damage is the same mechanism, so fights that subdue use [`held_back`] too. The blow then meets
//! the victim's hit points: does it drop him, does it kill him?

use crate::dice::{Dice, Paths, Roller, narrate};
use crate::rules::action::Fixed;
use crate::rules::attack::AttackRoll;
use crate::rules::catalog::Weapon;
use crate::rules::maneuver::{
    Counter, Distributions, Hist, Maneuver, Metrics, Record, Sink, Source,
};
use crate::rules::options::{OddPoint, Rounding, RuleOptions};
use crate::rules::section::{Section, Terms};
use crate::rules::{Damage, Ineligible, Matchup, Vitals, Wound};

/// The to-hit penalty for using a weapon the way it was not meant to be used.
pub const HELD_BACK_PENALTY: i32 = -4;

/// A held-back strike prepared for one matchup.
#[derive(Debug, Clone, PartialEq)]
pub struct Strike {
    /// The −4 attack (automatic on a sleeping or held victim).
    pub attack: AttackRoll,
    /// The weapon's dice against the victim's size.
    pub damage: Dice,
    /// Strength and magic added to the damage rolled.
    pub damage_bonus: i32,
    /// How the halves are rounded.
    pub rounding: Rounding,
    /// Which share takes an odd point.
    pub odd_point: OddPoint,
    /// The victim's hit points.
    pub vitals: Vitals,
    /// The terms of the attack's modifier, named for a narration.
    pub to_hit: Terms,
}

/// One held-back strike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StrikeOutcome {
    /// The blow landed.
    pub hit: bool,
    /// The damage applied (zero on a miss).
    pub damage: Damage,
    /// What it did to the victim's hit points (nothing on a miss).
    pub wound: Wound,
}

impl StrikeOutcome {
    /// The strike's result in words, the last step of a narrated strike.
    pub fn words(&self) -> String {
        if !self.hit {
            "The blow misses: the victim is untouched.".to_string()
        } else if self.wound.killed {
            format!(
                "The victim is killed by {} points, {} of them real.",
                self.damage.total, self.damage.real
            )
        } else if self.wound.down {
            format!(
                "The victim is down, {} points the worse.",
                self.damage.total
            )
        } else {
            format!("The victim stands, {} points the worse.", self.damage.total)
        }
    }
}

/// Whether `weapon` can be held back at all: a melee weapon whose damage can be controlled. Bare hands
/// are never held back (they punch, wrestle or overbear), and a missile weapon does not strike in melee.
pub fn can_hold_back(weapon: &Weapon) -> Result<(), Ineligible> {
    if weapon.is_fist() {
        Err(Ineligible::BareHandsStrike)
    } else if weapon.missile {
        Err(Ineligible::MissileInMelee(weapon.name.clone()))
    } else if weapon.controllable {
        Ok(())
    } else {
        Err(Ineligible::NotControllable(weapon.name.clone()))
    }
}

/// The weapon the attacker holds back: the one he strikes with in melee (a bowman draws his melee backup,
/// docs/rules.md §1), if it can be held back.
pub fn eligibility(m: &Matchup) -> Result<&Weapon, Ineligible> {
    let attacker = &m.attacker;
    match attacker.in_melee().0 {
        Some(weapon) => can_hold_back(weapon).map(|()| weapon),
        // A missile weapon and no melee backup: the missile weapon is the reason.
        None => can_hold_back(&attacker.weapon).map(|()| &attacker.weapon),
    }
}

/// The held-back split of `rolled` damage (with every bonus, at least 1): the total is half (rounded by
/// `rounding`, at least 1), split by [`split_total`].
pub fn held_back(rolled: i32, rounding: Rounding, odd_point: OddPoint) -> Damage {
    split_total(rounding.divide(rolled.max(1), 2).max(1) as u32, odd_point)
}

/// The split of a held-back total: half of it temporary, half real, the odd point going to the share
/// `odd_point` names (temporary by default: the blow is held back, so the odd point is gentle).
pub fn split_total(total: u32, odd_point: OddPoint) -> Damage {
    let temporary = odd_point.temporary(total);
    Damage {
        total,
        real: total - temporary,
        temporary,
    }
}

impl Strike {
    /// Checks the weapon and folds the tables into the attack.
    pub fn prepare(m: &Matchup, options: &RuleOptions) -> Result<Strike, Ineligible> {
        let weapon = eligibility(m)?;
        let (attacker, victim) = (&m.attacker, &m.victim);
        let to_hit = Terms::new()
            .with("held back", HELD_BACK_PENALTY)
            .with("Strength", attacker.hit_adjustment())
            .with("magic", weapon.magic);
        let (attack, to_hit) = if victim.state.is_helpless() {
            (AttackRoll::automatic(to_hit.total()), to_hit)
        } else {
            crate::rules::rear::attack_roll(attacker, victim, to_hit, options)
        };
        Ok(Strike {
            attack,
            damage: weapon.damage_against(victim.size),
            damage_bonus: attacker.damage_adjustment() + weapon.magic,
            rounding: options.rounding,
            odd_point: options.held_back_odd_point,
            vitals: Vitals::of(m, options),
            to_hit,
        })
    }

    /// The paths of [`Strike::resolve`] for the exact count.
    pub fn paths(&self) -> Paths {
        self.attack.paths(|swing| {
            if swing.hit {
                Paths::roll(&self.damage).then(self.vitals.paths())
            } else {
                Paths::END
            }
        })
    }

    /// One strike: the attack, then the damage rolled and held back, then the victim's hit points.
    #[inline]
    pub fn resolve<R: Roller + ?Sized>(&self, rng: &mut R) -> StrikeOutcome {
        narrate!(
            rng,
            Section::HoldingBack,
            "The attacker strikes with his weapon held back so as not to kill; to hit: {}.",
            self.to_hit.words()
        );
        if !self.attack.roll(rng).hit {
            let out = StrikeOutcome {
                hit: false,
                damage: Damage::default(),
                wound: Wound::default(),
            };
            narrate!(rng, Section::HoldingBack, "{}", out.words());
            return out;
        }
        narrate!(
            rng,
            Section::HoldingBack,
            "Damage: {}{}, held back to half (at least 1), half of that temporary.",
            self.damage,
            crate::rules::added(self.damage_bonus, "Strength and magic")
        );
        let rolled = self.damage.roll(rng) + self.damage_bonus;
        let damage = held_back(rolled, self.rounding, self.odd_point);
        narrate!(
            rng,
            Section::HoldingBack,
            "{rolled} rolled, held back to {}: {} real, {} temporary.",
            damage.total,
            damage.real,
            damage.temporary
        );
        let out = StrikeOutcome {
            hit: true,
            damage,
            wound: self.vitals.wound(damage, rng),
        };
        narrate!(rng, Section::HoldingBack, "{}", out.words());
        out
    }
}

// The tally of a blow that meets hit points: a strike's, and a sap's (which counts more besides).
pub(crate) const HIT: Counter = Counter(0);
pub(crate) const DOWN: Counter = Counter(3);
pub(crate) const KILLED: Counter = Counter(4);
pub(crate) const DAMAGE: Hist = Hist(0);

/// A blow that landed: its damage, and what it did to the victim's hit points (strike, sap).
#[inline]
pub(crate) fn record_blow<S: Sink>(damage: Damage, wound: Wound, s: &mut S) {
    s.count(HIT, true);
    s.observe(DAMAGE, i64::from(damage.total));
    s.count(DOWN, wound.down);
    s.count(KILLED, wound.killed);
}

/// A strike's summary metrics, headline first (docs/scenarios.md "Metrics").
pub const METRICS: Metrics = &[
    ("damage", Source::Mean(DAMAGE)),
    ("p_hit", Source::Count(HIT)),
    ("p_down", Source::Count(DOWN)),
    ("p_killed", Source::Count(KILLED)),
    ("damage_real", Source::RealPart(DAMAGE)),
    ("damage_temporary", Source::TemporaryPart(DAMAGE)),
    ("roll_needed", Source::RollNeeded),
];

/// A strike's distributions.
pub const DISTRIBUTIONS: Distributions = &[("damage", DAMAGE)];

impl Record for StrikeOutcome {
    #[inline]
    fn record<S: Sink>(&self, s: &mut S) {
        if self.hit {
            record_blow(self.damage, self.wound, s);
        }
    }
}

impl Maneuver for Strike {
    type Outcome = StrikeOutcome;

    #[inline]
    fn resolve<R: Roller + ?Sized>(&self, rng: &mut R) -> StrikeOutcome {
        Strike::resolve(self, rng)
    }

    fn paths(&self) -> Option<Paths> {
        Some(Strike::paths(self))
    }

    fn fixed(&self) -> Fixed {
        Fixed {
            roll_needed: Some(self.attack.needed()),
            ..Fixed::default()
        }
    }

    fn range(&self, hist: Hist) -> Option<(i64, i64)> {
        (hist == DAMAGE).then(|| (1, i64::from(self.damage.max() + self.damage_bonus)))
    }

    fn split(&self, total: u32) -> Damage {
        split_total(total, self.odd_point)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;
    use crate::rules::matchup;

    const SWORDSMAN: &str = "class = \"fighter\"\nlevel = 3\nstrength = 17\nweapon = { name = \"long sword\", magic = 1 }";

    /// `roll_needed` of a strike by [`SWORDSMAN`] in front and from behind, with `options`.
    fn front_and_rear(victim: &str, options: &RuleOptions) -> (i32, i32) {
        let needed = |attacker: &str| {
            Strike::prepare(&matchup(attacker, victim), options)
                .unwrap()
                .attack
                .needed()
        };
        let behind = format!("{SWORDSMAN}\nposition = \"behind\"");
        (needed(SWORDSMAN), needed(&behind))
    }

    #[test]
    fn a_strike_from_behind_needs_2_less_and_ignores_the_shield_and_dexterity_bonus() {
        // THAC0 18, −4 + 1 + 1 to hit: 18 − 6 + 2 = 14 against AC 6 in front, 2 less behind.
        let plain = "class = \"fighter\"\nac = 6\nhp = 20";
        let shielded = "class = \"fighter\"\nac = 6\nshield = 1\ndexterity = 16\nhp = 20";
        let o = RuleOptions::default();
        assert_eq!(front_and_rear(plain, &o), (14, 12));
        // AC 3 in front (17); AC 6 and +2 behind (12).
        assert_eq!(front_and_rear(shielded, &o), (17, 12));
        let off = RuleOptions {
            rear_attack_bonus: 0,
            ..RuleOptions::default()
        };
        assert_eq!(front_and_rear(plain, &off), (14, 14));
        assert_eq!(front_and_rear(shielded, &off), (17, 17));
    }

    #[test]
    fn held_back_damage_for_every_roll_from_1_to_20() {
        // rolled → (total, real, temporary) with the default half-down rounding: real is half the total
        // rounded down, the odd point temporary.
        let expected = [
            (1, 0, 1),
            (1, 0, 1),
            (1, 0, 1),
            (2, 1, 1),
            (2, 1, 1),
            (3, 1, 2),
            (3, 1, 2),
            (4, 2, 2),
            (4, 2, 2),
            (5, 2, 3),
            (5, 2, 3),
            (6, 3, 3),
            (6, 3, 3),
            (7, 3, 4),
            (7, 3, 4),
            (8, 4, 4),
            (8, 4, 4),
            (9, 4, 5),
            (9, 4, 5),
            (10, 5, 5),
        ];
        for (rolled, (total, real, temporary)) in (1..=20).zip(expected) {
            let d = held_back(rolled, Rounding::HalfDown, OddPoint::Temporary);
            assert_eq!(
                (d.total, d.real, d.temporary),
                (total, real, temporary),
                "rolled {rolled}"
            );
            assert_eq!(d.real + d.temporary, d.total);
        }
    }

    #[test]
    fn rounding_up_and_down_changes_odd_rolls_only() {
        for rolled in 1..=20 {
            let up = held_back(rolled, Rounding::Up, OddPoint::Temporary);
            let down = held_back(rolled, Rounding::Down, OddPoint::Temporary);
            assert_eq!(up.total as i32, ((rolled + 1) / 2).max(1));
            assert_eq!(down.total as i32, (rolled / 2).max(1));
            assert_eq!(up.real, up.total / 2);
        }
    }

    #[test]
    fn the_odd_point_of_a_held_back_blow_is_temporary() {
        // A knife (1d3) held back always does 1 point: the text says half of it is temporary, so the
        // single point is temporary, not real.
        for rolled in 1..=3 {
            let d = held_back(rolled, Rounding::HalfDown, OddPoint::Temporary);
            assert_eq!((d.total, d.real, d.temporary), (1, 0, 1), "rolled {rolled}");
        }
        // Over a long sword's 1d8 the temporary share is half of the damage or more, never less.
        let (mut real, mut temporary) = (0, 0);
        for rolled in 1..=8 {
            let d = held_back(rolled, Rounding::HalfDown, OddPoint::Temporary);
            real += d.real;
            temporary += d.temporary;
        }
        assert!(temporary >= real, "{temporary} temporary, {real} real");
        // The old reading keeps the odd point real.
        let old = held_back(5, Rounding::HalfDown, OddPoint::Real);
        assert_eq!((old.total, old.real, old.temporary), (2, 1, 1));
        let old = held_back(7, Rounding::HalfDown, OddPoint::Real);
        assert_eq!((old.total, old.real, old.temporary), (3, 2, 1));
    }

    #[test]
    fn a_held_back_strike_is_at_minus_4_with_strength_and_magic() {
        let s = Strike::prepare(
            &matchup(SWORDSMAN, "monster = \"ogre\""),
            &RuleOptions::default(),
        )
        .unwrap();
        assert_eq!(s.attack.modifier, -4 + 1 + 1);
        assert_eq!(s.attack.target, 18 - 5);
        // Against a Large ogre the long sword does 1d12.
        assert_eq!((s.damage.to_string(), s.damage_bonus), ("1d12".into(), 2));
    }

    #[test]
    fn uncontrollable_weapons_cannot_be_held_back() {
        let o = RuleOptions::default();
        for weapon in [
            "club",
            "mace",
            "war hammer",
            "morning star",
            "flail",
            "quarterstaff",
            "spear",
        ] {
            let attacker = format!("class = \"fighter\"\nweapon = \"{weapon}\"");
            assert_eq!(
                Strike::prepare(&matchup(&attacker, "monster = \"orc\""), &o),
                Err(Ineligible::NotControllable(weapon.into())),
            );
        }
        for weapon in [
            "dagger",
            "knife",
            "short sword",
            "long sword",
            "broad sword",
            "bastard sword",
            "two-handed sword",
            "hand axe",
            "battle axe",
        ] {
            let attacker = format!("class = \"fighter\"\nweapon = \"{weapon}\"");
            assert!(
                Strike::prepare(&matchup(&attacker, "monster = \"orc\""), &o).is_ok(),
                "{weapon}"
            );
        }
    }

    #[test]
    fn bare_hands_are_never_held_back_and_missiles_never_strike_in_melee() {
        let o = RuleOptions::default();
        assert_eq!(
            Strike::prepare(&matchup("class = \"fighter\"", "monster = \"orc\""), &o),
            Err(Ineligible::BareHandsStrike)
        );
        assert!(
            Ineligible::BareHandsStrike.to_string().contains("brawl"),
            "the reason says what to use instead"
        );
        for weapon in ["sling", "short bow"] {
            let attacker = format!("class = \"fighter\"\nweapon = \"{weapon}\"");
            assert_eq!(
                Strike::prepare(&matchup(&attacker, "monster = \"orc\""), &o),
                Err(Ineligible::MissileInMelee(weapon.into()))
            );
        }
    }

    #[test]
    fn a_bowman_holds_back_his_melee_backup() {
        let o = RuleOptions::default();
        let archer = "class = \"fighter\"\nweapon = \"short bow\"\nbackup_weapon = \"dagger\"";
        let s = Strike::prepare(&matchup(archer, "monster = \"orc\""), &o).unwrap();
        assert_eq!(s.damage.to_string(), "1d4");
        let clubbed = "class = \"fighter\"\nweapon = \"sling\"\nbackup_weapon = { name = \"cudgel\", size = \"S\", damage = \"1d4\" }";
        assert_eq!(
            Strike::prepare(&matchup(clubbed, "monster = \"orc\""), &o),
            Err(Ineligible::NotControllable("cudgel".into()))
        );
    }

    #[test]
    fn a_strike_meets_the_victims_hit_points() {
        let o = RuleOptions::default();
        // Long sword 1d8 + 2 (Str 17, magic +1): a roll of 8 gives 10, held back 5: 2 real, 3 temporary.
        let s = |hp: u32| {
            Strike::prepare(
                &matchup(SWORDSMAN, &format!("monster = \"orc\"\nhp = {hp}")),
                &o,
            )
            .unwrap()
        };
        let wound = |hp| s(hp).resolve(&mut Scripted::new([20, 8])).wound;
        assert_eq!(
            wound(5),
            Wound {
                down: true,
                killed: false
            }
        );
        assert_eq!(
            wound(2),
            Wound {
                down: true,
                killed: true
            }
        );
        assert_eq!(
            wound(6),
            Wound {
                down: false,
                killed: false
            }
        );
        // Rolled hit points come last, only on a hit: an orc's 1d8, here 4.
        let rolled = Strike::prepare(&matchup(SWORDSMAN, "monster = \"orc\""), &o).unwrap();
        let mut dice = Scripted::new([20, 8, 4]);
        assert_eq!(
            rolled.resolve(&mut dice).wound,
            Wound {
                down: true,
                killed: false
            }
        );
        assert_eq!(dice.requests(), &[20, 8, 8]);
        let mut miss = Scripted::new([1]);
        assert_eq!(rolled.resolve(&mut miss).wound, Wound::default());
        // death_at −10: real damage leaving 0 to −9 does not kill.
        let deep = RuleOptions {
            death_at: -10,
            ..RuleOptions::default()
        };
        let s = Strike::prepare(&matchup(SWORDSMAN, "monster = \"orc\"\nhp = 2"), &deep).unwrap();
        assert_eq!(
            s.resolve(&mut Scripted::new([20, 8])).wound,
            Wound {
                down: true,
                killed: false
            }
        );
    }

    #[test]
    fn a_hit_halves_the_roll_and_splits_it() {
        let s = Strike::prepare(
            &matchup(SWORDSMAN, "monster = \"orc\""),
            &RuleOptions::default(),
        )
        .unwrap();
        // Needs 18 - 6 - (-2) = 14. Sword 7 + 2 = 9 → total 4: 2 real, 2 temporary; the orc's 1d8 hit
        // points roll 5: still up.
        let mut dice = Scripted::new([14, 7, 5]);
        let out = s.resolve(&mut dice);
        assert_eq!(
            out,
            StrikeOutcome {
                hit: true,
                damage: Damage {
                    total: 4,
                    real: 2,
                    temporary: 2
                },
                wound: Wound::default(),
            }
        );
        assert_eq!(dice.requests(), &[20, 8, 8]);
        let mut miss = Scripted::new([13]);
        assert!(!s.resolve(&mut miss).hit);
    }

    const GUARD: &str = "class = \"fighter\"\nac = 6\nhp = 20";

    fn guard_strike() -> Strike {
        Strike::prepare(&matchup(SWORDSMAN, GUARD), &RuleOptions::default()).unwrap()
    }

    #[test]
    fn a_narrated_strike_tells_the_blow_held_back_and_what_it_did() {
        // Needs 14; long sword 5 + 2 = 7, held back to 3: 1 real, 2 temporary.
        let (out, steps) = crate::rules::told::steps([15, 5], |d| guard_strike().resolve(d));
        assert!(out.hit && !out.wound.down);
        assert_eq!(
            steps,
            [
                "The attacker strikes with his weapon held back so as not to kill; to hit: -4 held back, +1 Strength, +1 magic.",
                "Attack roll: a d20 -2 must reach 12 (THAC0 minus armor class), so 14 or more on the die.",
                "15 -2 = 13: a hit.",
                "Damage: 1d8 +2 Strength and magic, held back to half (at least 1), half of that temporary.",
                "7 rolled, held back to 3: 1 real, 2 temporary.",
                "3 points of damage (1 real, 2 temporary) meet his 20 hit points: he drops if they leave him at 0 or below, and dies if the real part alone leaves him at 0 or below.",
                "He stays on his feet.",
                "The victim stands, 3 points the worse.",
            ]
        );
    }

    #[test]
    fn a_narrated_miss_ends_with_the_victim_untouched() {
        let (_, steps) = crate::rules::told::steps([13], |d| guard_strike().resolve(d));
        assert_eq!(
            steps.last().unwrap(),
            "The blow misses: the victim is untouched."
        );
        assert_eq!(steps.len(), 4);
    }

    #[test]
    fn a_narrated_strike_comes_out_as_a_plain_one() {
        let m = matchup(SWORDSMAN, "class = \"fighter\"\nac = 6");
        let strike = Strike::prepare(&m, &RuleOptions::default()).unwrap();
        let outs = crate::rules::told::same_as_plain(|d| strike.resolve(d), |d| strike.resolve(d));
        assert!(outs.iter().any(|o| !o.hit) && outs.iter().any(|o| o.wound.down));
    }
}
