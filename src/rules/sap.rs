//! SAP: a called shot at −8 meant to knock out rather than wound; 5% knockout per point of damage up to 40%,
//! or against a sleeping or held victim an automatic hit with 10% per point up to 80% and a chance to wake
//! him (RULES.md §4).

use crate::dice::{Dice, Roller};
use crate::rules::attack::AttackRoll;
use crate::rules::options::{Rounding, RuleOptions};
use crate::rules::tables::Size;
use crate::rules::{Damage, Ineligible, Matchup};

/// How the knockout d100 is read for one kind of victim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnockoutChance {
    /// Percent per point of damage.
    pub per_point: u32,
    /// Largest chance, percent.
    pub cap: u32,
    /// A d100 at or above this wakes the victim (101: never).
    pub wake_at: u32,
}

impl KnockoutChance {
    /// The chance, in percent, for a blow of `damage` points.
    #[inline]
    pub fn percent(&self, damage: u32) -> u32 {
        self.per_point.saturating_mul(damage).min(self.cap)
    }
}

/// A sap prepared for one matchup.
#[derive(Debug, Clone, PartialEq)]
pub struct Sap {
    /// The −8 called shot, or an automatic hit on a sleeping or held victim.
    pub attack: AttackRoll,
    /// The weapon's dice against the victim's size.
    pub damage: Dice,
    /// Strength's damage adjustment (the weapon's magic does not count).
    pub damage_bonus: i32,
    /// The knockout and wake thresholds.
    pub chance: KnockoutChance,
    /// How long a knockout lasts.
    pub ko_rounds: Dice,
    /// How the 25% real share is rounded.
    pub rounding: Rounding,
}

/// One sap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SapOutcome {
    /// The blow landed.
    pub hit: bool,
    /// Its damage (zero on a miss).
    pub damage: Damage,
    /// Knocked out, for this many rounds.
    pub ko_rounds: Option<u32>,
    /// A sleeping or held victim woke instead.
    pub woke: bool,
}

/// Whether a sap is allowed: victims of size T, S or M only, and never with a missile weapon.
pub fn eligibility(m: &Matchup) -> Result<(), Ineligible> {
    if m.victim.size > Size::M {
        return Err(Ineligible::TooLarge(m.victim.size));
    }
    if m.attacker.weapon.missile {
        return Err(Ineligible::Missile(m.attacker.weapon.name.clone()));
    }
    Ok(())
}

/// The sap's damage split: 25% real, the rest temporary, as for punching ([`Damage::quarter_real`]).
pub fn sap_damage(total: u32, rounding: Rounding) -> Damage {
    Damage::quarter_real(total, rounding)
}

impl Sap {
    /// Checks eligibility and folds the tables into the attack and the knockout thresholds.
    pub fn prepare(m: &Matchup, options: &RuleOptions) -> Result<Sap, Ineligible> {
        eligibility(m)?;
        let (attacker, victim) = (&m.attacker, &m.victim);
        let modifier = options.sap_penalty + attacker.hit_adjustment();
        let (attack, chance) = if victim.state.is_helpless() {
            (
                AttackRoll::automatic(modifier),
                KnockoutChance {
                    per_point: options.sap_helpless_ko_per_point,
                    cap: options.sap_helpless_ko_cap,
                    wake_at: options.sap_wake_at,
                },
            )
        } else {
            (
                AttackRoll::new(attacker.thac0, victim.ac.normal(), modifier, options),
                KnockoutChance {
                    per_point: options.sap_ko_per_point,
                    cap: options.sap_ko_cap,
                    wake_at: 101,
                },
            )
        };
        Ok(Sap {
            attack,
            damage: attacker.weapon.damage_against(victim.size),
            damage_bonus: attacker.damage_adjustment(),
            chance,
            ko_rounds: options.sap_ko_rounds,
            rounding: options.rounding,
        })
    }

    /// One sap: the attack, the damage (at least 1), the knockout d100, then the knockout's length.
    #[inline]
    pub fn resolve<R: Roller + ?Sized>(&self, rng: &mut R) -> SapOutcome {
        if !self.attack.roll(rng).hit {
            return SapOutcome {
                hit: false,
                damage: Damage::default(),
                ko_rounds: None,
                woke: false,
            };
        }
        let total = (self.damage.roll(rng) + self.damage_bonus).max(1) as u32;
        let d100 = rng.die(100);
        let knocked_out = d100 <= self.chance.percent(total);
        let ko_rounds = knocked_out.then(|| self.ko_rounds.roll(rng).max(1) as u32);
        SapOutcome {
            hit: true,
            damage: sap_damage(total, self.rounding),
            ko_rounds,
            woke: !knocked_out && d100 >= self.chance.wake_at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;
    use crate::rules::matchup;

    const FIGHTER: &str =
        "class = \"fighter\"\nlevel = 5\nweapon = { name = \"club\", magic = 2 }\nstrength = 17";
    const GUARD: &str = "class = \"fighter\"\nlevel = 1\nac = 6";
    const SLEEPER: &str = "class = \"fighter\"\nlevel = 1\nac = 6\nstate = \"asleep\"";

    fn sap(victim: &str, options: &RuleOptions) -> Sap {
        Sap::prepare(&matchup(FIGHTER, victim), options).unwrap()
    }

    #[test]
    fn a_sap_is_at_minus_8_with_strength_but_without_magic() {
        let s = sap(GUARD, &RuleOptions::default());
        assert_eq!(s.attack.modifier, -8 + 1);
        assert_eq!(s.attack.target, 16 - 6);
        assert_eq!(s.damage_bonus, 1);
        let o = RuleOptions {
            sap_penalty: -6,
            ..RuleOptions::default()
        };
        assert_eq!(sap(GUARD, &o).attack.modifier, -6 + 1);
    }

    #[test]
    fn five_percent_a_point_capped_at_40() {
        let s = sap(GUARD, &RuleOptions::default());
        let chances: Vec<u32> = (0..=10).map(|d| s.chance.percent(d)).collect();
        assert_eq!(chances, [0, 5, 10, 15, 20, 25, 30, 35, 40, 40, 40]);
        assert_eq!(s.chance.wake_at, 101);
    }

    #[test]
    fn ten_percent_a_point_capped_at_80_against_sleepers() {
        let s = sap(SLEEPER, &RuleOptions::default());
        let chances: Vec<u32> = (0..=10).map(|d| s.chance.percent(d)).collect();
        assert_eq!(chances, [0, 10, 20, 30, 40, 50, 60, 70, 80, 80, 80]);
        assert!(s.attack.is_automatic());
        assert_eq!(s.chance.wake_at, 81);
    }

    #[test]
    fn a_quarter_of_the_damage_is_real() {
        let split = |d| {
            let x = sap_damage(d, Rounding::HalfDown);
            (x.real, x.temporary)
        };
        assert_eq!(split(1), (0, 1));
        assert_eq!(split(2), (0, 2));
        assert_eq!(split(3), (1, 2));
        assert_eq!(split(4), (1, 3));
        assert_eq!(split(6), (1, 5));
        assert_eq!(split(7), (2, 5));
        assert_eq!(split(14), (3, 11));
        assert_eq!(sap_damage(2, Rounding::Up).real, 1);
        assert_eq!(sap_damage(7, Rounding::Down).real, 1);
    }

    #[test]
    fn only_t_s_and_m_victims_and_never_missiles() {
        let o = RuleOptions::default();
        assert_eq!(
            Sap::prepare(&matchup(FIGHTER, "monster = \"ogre\""), &o),
            Err(Ineligible::TooLarge(Size::L))
        );
        assert!(Sap::prepare(&matchup(FIGHTER, "monster = \"kobold\""), &o).is_ok());
        assert!(Sap::prepare(&matchup(FIGHTER, "monster = \"orc\""), &o).is_ok());
        assert!(Sap::prepare(&matchup(FIGHTER, "class = \"thief\"\nsize = \"T\""), &o).is_ok());
        assert!(matches!(
            Sap::prepare(
                &matchup("class = \"fighter\"\nweapon = \"sling\"", GUARD),
                &o
            ),
            Err(Ineligible::Missile(_))
        ));
        assert!(Sap::prepare(&matchup("class = \"fighter\"", GUARD), &o).is_ok());
    }

    #[test]
    fn a_miss_does_nothing() {
        // Needs 10 + 7 = 17.
        let mut dice = Scripted::new([16]);
        let out = sap(GUARD, &RuleOptions::default()).resolve(&mut dice);
        assert!(!out.hit && out.ko_rounds.is_none() && out.damage == Damage::default());
    }

    #[test]
    fn a_hit_under_the_chance_knocks_out() {
        // Hit on 17, club 5 + 1 = 6 damage: 30%; d100 = 30 knocks out for 2d8 = 2 + 7.
        let mut dice = Scripted::new([17, 5, 30, 2, 7]);
        let out = sap(GUARD, &RuleOptions::default()).resolve(&mut dice);
        assert_eq!(
            out,
            SapOutcome {
                hit: true,
                damage: Damage {
                    total: 6,
                    real: 1,
                    temporary: 5
                },
                ko_rounds: Some(9),
                woke: false
            }
        );
        assert_eq!(dice.requests(), &[20, 6, 100, 8, 8]);
    }

    #[test]
    fn a_hit_over_the_chance_only_hurts() {
        let mut dice = Scripted::new([20, 5, 31]);
        let out = sap(GUARD, &RuleOptions::default()).resolve(&mut dice);
        assert!(out.hit && out.ko_rounds.is_none() && !out.woke);
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn a_sleeper_is_hit_automatically_and_may_sleep_on_or_wake() {
        let s = sap(SLEEPER, &RuleOptions::default());
        // 3 + 1 = 4 damage: 40%.
        let mut ko = Scripted::new([3, 40, 8, 8]);
        assert_eq!(s.resolve(&mut ko).ko_rounds, Some(16));
        assert_eq!(ko.requests(), &[6, 100, 8, 8]);
        let mut nothing = Scripted::new([3, 80]);
        let out = s.resolve(&mut nothing);
        assert!(out.hit && out.ko_rounds.is_none() && !out.woke);
        let mut wakes = Scripted::new([3, 81]);
        assert!(s.resolve(&mut wakes).woke);
        // Past 8 points the chance stays at 80: 81 still wakes him.
        let mut strong = Scripted::new([6, 81]);
        let big = Sap::prepare(
            &matchup(
                "class = \"fighter\"\nweapon = \"club\"\nstrength = \"18/00\"",
                SLEEPER,
            ),
            &RuleOptions::default(),
        )
        .unwrap();
        let out = big.resolve(&mut strong);
        assert_eq!(out.damage.total, 12);
        assert!(out.woke && out.ko_rounds.is_none());
    }

    #[test]
    fn sap_wake_at_101_never_wakes() {
        let o = RuleOptions {
            sap_wake_at: 101,
            ..RuleOptions::default()
        };
        let mut dice = Scripted::new([3, 100]);
        assert!(!sap(SLEEPER, &o).resolve(&mut dice).woke);
    }

    #[test]
    fn bare_hands_sap_for_1d2_plus_strength_at_least_1() {
        let s = Sap::prepare(
            &matchup("class = \"fighter\"\nstrength = 3", GUARD),
            &RuleOptions::default(),
        )
        .unwrap();
        assert_eq!((s.damage.to_string(), s.damage_bonus), ("1d2".into(), -1));
        let mut dice = Scripted::new([20, 1, 100]);
        assert_eq!(s.resolve(&mut dice).damage.total, 1);
    }
}
