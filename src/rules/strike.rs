//! WEAPONS IN ATTACK: an armed blow held back so that it does not kill. Only weapons whose damage can be
//! controlled; −4 to hit; half damage, half of that temporary (RULES.md §3). Subdual damage is the same
//! mechanism, so fights that subdue use [`held_back`] too.

use crate::dice::{Dice, Roller};
use crate::rules::attack::AttackRoll;
use crate::rules::options::{Rounding, RuleOptions};
use crate::rules::{Damage, Ineligible, Matchup};

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
}

/// One held-back strike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StrikeOutcome {
    /// The blow landed.
    pub hit: bool,
    /// The damage applied (zero on a miss).
    pub damage: Damage,
}

/// Whether the weapon's damage can be held back at all.
pub fn eligibility(m: &Matchup) -> Result<(), Ineligible> {
    let weapon = &m.attacker.weapon;
    if weapon.controllable && !weapon.missile {
        Ok(())
    } else {
        Err(Ineligible::NotControllable(weapon.name.clone()))
    }
}

/// The held-back split of `rolled` damage (with every bonus, at least 1): the total is half (rounded by
/// `rounding`, at least 1), the temporary part half of the total rounded down, the real part the rest.
pub fn held_back(rolled: i32, rounding: Rounding) -> Damage {
    split_total(rounding.divide(rolled.max(1), 2).max(1) as u32)
}

/// The split of a held-back total: half of it (rounded down) temporary, the rest real.
pub fn split_total(total: u32) -> Damage {
    let temporary = total / 2;
    Damage {
        total,
        real: total - temporary,
        temporary,
    }
}

impl Strike {
    /// Checks the weapon and folds the tables into the attack.
    pub fn prepare(m: &Matchup, options: &RuleOptions) -> Result<Strike, Ineligible> {
        eligibility(m)?;
        let (attacker, victim) = (&m.attacker, &m.victim);
        let weapon = &attacker.weapon;
        let modifier = HELD_BACK_PENALTY + attacker.hit_adjustment() + weapon.magic;
        let attack = if victim.state.is_helpless() {
            AttackRoll::automatic(modifier)
        } else {
            AttackRoll::new(attacker.thac0, victim.ac.normal(), modifier, options)
        };
        Ok(Strike {
            attack,
            damage: weapon.damage_against(victim.size),
            damage_bonus: attacker.damage_adjustment() + weapon.magic,
            rounding: options.rounding,
        })
    }

    /// One strike: the attack, then the damage rolled and held back.
    #[inline]
    pub fn resolve<R: Roller + ?Sized>(&self, rng: &mut R) -> StrikeOutcome {
        if !self.attack.roll(rng).hit {
            return StrikeOutcome {
                hit: false,
                damage: Damage::default(),
            };
        }
        let rolled = self.damage.roll(rng) + self.damage_bonus;
        StrikeOutcome {
            hit: true,
            damage: held_back(rolled, self.rounding),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;
    use crate::rules::matchup;

    const SWORDSMAN: &str = "class = \"fighter\"\nlevel = 3\nstrength = 17\nweapon = { name = \"long sword\", magic = 1 }";

    #[test]
    fn held_back_damage_for_every_roll_from_1_to_20() {
        // rolled → (total, real, temporary) with the default half-down rounding.
        let expected = [
            (1, 1, 0),
            (1, 1, 0),
            (1, 1, 0),
            (2, 1, 1),
            (2, 1, 1),
            (3, 2, 1),
            (3, 2, 1),
            (4, 2, 2),
            (4, 2, 2),
            (5, 3, 2),
            (5, 3, 2),
            (6, 3, 3),
            (6, 3, 3),
            (7, 4, 3),
            (7, 4, 3),
            (8, 4, 4),
            (8, 4, 4),
            (9, 5, 4),
            (9, 5, 4),
            (10, 5, 5),
        ];
        for (rolled, (total, real, temporary)) in (1..=20).zip(expected) {
            let d = held_back(rolled, Rounding::HalfDown);
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
            let up = held_back(rolled, Rounding::Up);
            let down = held_back(rolled, Rounding::Down);
            assert_eq!(up.total as i32, ((rolled + 1) / 2).max(1));
            assert_eq!(down.total as i32, (rolled / 2).max(1));
            assert_eq!(up.temporary, up.total / 2);
        }
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
            "sling",
            "short bow",
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
            "fist",
        ] {
            let attacker = format!("class = \"fighter\"\nweapon = \"{weapon}\"");
            assert!(
                Strike::prepare(&matchup(&attacker, "monster = \"orc\""), &o).is_ok(),
                "{weapon}"
            );
        }
    }

    #[test]
    fn a_hit_halves_the_roll_and_splits_it() {
        let s = Strike::prepare(
            &matchup(SWORDSMAN, "monster = \"orc\""),
            &RuleOptions::default(),
        )
        .unwrap();
        // Needs 18 - 6 - (-2) = 14. Sword 7 + 2 = 9 → total 4: 2 real, 2 temporary.
        let mut dice = Scripted::new([14, 7]);
        let out = s.resolve(&mut dice);
        assert_eq!(
            out,
            StrikeOutcome {
                hit: true,
                damage: Damage {
                    total: 4,
                    real: 2,
                    temporary: 2
                }
            }
        );
        assert_eq!(dice.requests(), &[20, 8]);
        let mut miss = Scripted::new([13]);
        assert!(!s.resolve(&mut miss).hit);
    }
}
