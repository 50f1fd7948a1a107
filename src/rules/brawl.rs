//! Punching, wrestling and overbearing (PHB ch. 9, docs/rules.md §6): one unarmed attack at a time. The round
//! loop of `fight` decides who attacks when; this module decides what one attack does.

use crate::dice::{Roller, narrate};
use crate::rules::Damage;
use crate::rules::options::Rounding;
use crate::rules::section::Section;
use crate::rules::tables::{Size, brawl_row, martial_arts_row};

/// What one unarmed attack that landed does, read from the punching and wrestling column. Whether it lands
/// is the attack roll's business (the fight rolls it once for every kind of blow). Why no dice here: the
/// row is a pure function of the modified roll, so a fight folds it for every d20 face once per point and
/// rolls only the knockout ([`knockout`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Blow {
    /// Damage done (25% real, 75% temporary for punches and wrestling).
    pub damage: Damage,
    /// A punch's knockout chance in percent (0 for wrestling).
    pub ko_percent: u32,
    /// A wrestling hit on a hold row.
    pub hold: bool,
}

/// A punch that hit with the modified roll `modified`: the row gives the damage (plus Strength, never below
/// 0) and the knockout chance.
pub fn punch(modified: i32, damage_adjustment: i32, rounding: Rounding) -> Blow {
    let row = brawl_row(modified);
    let total = (row.punch_damage + damage_adjustment).max(0) as u32;
    Blow {
        damage: Damage::quarter_real(total, rounding),
        ko_percent: row.ko_percent,
        hold: false,
    }
}

/// A martial arts maneuver that hit, its row read from `row_roll` (docs/rules.md §6 "Martial arts"): the
/// row's damage plus Strength (plus 1 for a specialist), never below 0, 25% real, and the row's knockout
/// chance, rolled as a punch's.
pub fn martial_arts(row_roll: i32, damage_bonus: i32, rounding: Rounding) -> Blow {
    let row = martial_arts_row(row_roll);
    let total = (row.damage + damage_bonus).max(0) as u32;
    Blow {
        damage: Damage::quarter_real(total, rounding),
        ko_percent: row.ko_percent,
        hold: false,
    }
}

/// A punch's knockout roll: d100 ≤ %KO knocks the target out, stunned for 1d10 rounds. Every punch that
/// hits rolls the d100, whatever its chance; it is asked as a region of the d100 (one `die(100)` all the
/// same), so that an exact walk of a round sees two branches rather than a hundred.
#[inline(always)]
pub fn knockout<R: Roller + ?Sized>(ko_percent: u32, rng: &mut R) -> Option<u32> {
    narrate!(
        rng,
        Section::Fights,
        "Knockout roll: a d100 of {ko_percent} or less knocks out, stunned for 1d10 rounds."
    );
    if !d100_within(ko_percent, rng) {
        narrate!(rng, Section::Fights, "No knockout.");
        return None;
    }
    narrate!(
        rng,
        Section::Fights,
        "Knocked out: the d10 says for how long."
    );
    let rounds = rng.die(10);
    narrate!(rng, Section::Fights, "Stunned for {rounds} rounds.");
    Some(rounds)
}

/// A d100 at or under `percent`: one `die(100)`, asked as a region.
#[inline(always)]
pub fn d100_within<R: Roller + ?Sized>(percent: u32, rng: &mut R) -> bool {
    rng.region(&D100, &[percent as i32]) == 0
}

/// The knockout roll.
const D100: crate::dice::Dice = crate::dice::Dice::of(1, 100, 0);

/// Damage of a wrestling move, or of a hold kept for its `k`-th round: k + Strength's damage adjustment
/// (1 for a new move), never below 0, 25% real.
pub fn wrestling_damage(k: u32, damage_adjustment: i32, rounding: Rounding) -> Damage {
    Damage::quarter_real((k as i32 + damage_adjustment).max(0) as u32, rounding)
}

/// A wrestling move that hit with the modified roll `modified`: the row says whether it is a hold; every
/// move does 1 + Strength's damage adjustment.
pub fn wrestle(modified: i32, damage_adjustment: i32, rounding: Rounding) -> Blow {
    Blow {
        damage: wrestling_damage(1, damage_adjustment, rounding),
        ko_percent: 0,
        hold: brawl_row(modified).hold,
    }
}

/// The overbearing modifier: ±4 per size category (attacker larger: +), −2 per defender leg beyond two.
pub fn overbear_modifier(attacker: Size, defender: Size, defender_legs: u32) -> i32 {
    let steps = attacker as i32 - defender as i32;
    4 * steps - 2 * defender_legs.saturating_sub(2) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;

    #[test]
    fn a_punch_reads_its_row_from_the_modified_roll() {
        // 13 + 2 = 15: jab, 2 points (+1 Strength), 6% knockout.
        let b = punch(13 + 2, 1, Rounding::HalfDown);
        assert_eq!(b.damage.total, 3);
        assert_eq!((b.damage.real, b.damage.temporary), (1, 2));
        assert_eq!(b.ko_percent, 6);
        assert!(!b.hold);
    }

    #[test]
    fn a_knockout_needs_the_d100_at_or_under_the_chance_and_stuns_1d10_rounds() {
        // d100 = 7 against 6%: no knockout, and no d10.
        let mut dice = Scripted::new([7]);
        assert_eq!(knockout(6, &mut dice), None);
        assert_eq!(dice.requests(), &[100]);
        // d100 = 6: knockout, stunned 1d10 = 4 rounds.
        let mut dice = Scripted::new([6, 4]);
        assert_eq!(knockout(6, &mut dice), Some(4));
        assert_eq!(dice.requests(), &[100, 10]);
        // A 0% row still rolls its d100.
        let mut dice = Scripted::new([1]);
        assert_eq!(knockout(0, &mut dice), None);
        assert_eq!(dice.requests(), &[100]);
    }

    #[test]
    fn a_wild_swing_with_a_strength_penalty_does_no_damage_not_negative() {
        // 19: wild swing, 0 points; Strength −1 would make it −1: it stays 0.
        let b = punch(19, -1, Rounding::HalfDown);
        assert_eq!(b.damage, Damage::default());
    }

    #[test]
    fn wrestling_holds_come_from_the_hold_rows() {
        for (modified, hold) in [
            (15, true),
            (14, false),
            (13, false),
            (20, true),
            (10, false),
        ] {
            let b = wrestle(modified, 0, Rounding::HalfDown);
            assert_eq!(b.hold, hold, "roll {modified}");
            assert_eq!(b.damage.total, 1);
        }
    }

    #[test]
    fn kept_holds_do_one_more_point_each_round() {
        let totals: Vec<u32> = (1..=4)
            .map(|k| wrestling_damage(k, 0, Rounding::HalfDown).total)
            .collect();
        assert_eq!(totals, [1, 2, 3, 4]);
        assert_eq!(wrestling_damage(3, 2, Rounding::HalfDown).total, 5);
        assert_eq!(wrestling_damage(1, -3, Rounding::HalfDown).total, 0);
    }

    #[test]
    fn overbearing_counts_sizes_and_legs() {
        assert_eq!(overbear_modifier(Size::M, Size::M, 2), 0);
        assert_eq!(overbear_modifier(Size::L, Size::M, 2), 4);
        assert_eq!(overbear_modifier(Size::H, Size::M, 2), 8);
        // The PHB's lone orc against a horse: −4 for size, −4 for two extra legs.
        assert_eq!(overbear_modifier(Size::M, Size::L, 4), -8);
        assert_eq!(overbear_modifier(Size::M, Size::M, 0), 0);
    }

    #[test]
    fn a_narrated_knockout_tells_the_chance_and_the_stun() {
        let (k, steps) = crate::rules::told::steps([6, 4], |d| knockout(6, d));
        assert_eq!(k, Some(4));
        assert_eq!(
            steps,
            [
                "Knockout roll: a d100 of 6 or less knocks out, stunned for 1d10 rounds.",
                "Knocked out: the d10 says for how long.",
                "Stunned for 4 rounds.",
            ]
        );
        let (k, steps) = crate::rules::told::steps([7], |d| knockout(6, d));
        assert_eq!(k, None);
        assert_eq!(steps.last().unwrap(), "No knockout.");
    }
}
