//! Every switch of docs/rules.md §8 in one struct, with the defaults the contract fixes.
//!
//! The switches are where designers disagree with the text (or with each other), so they are plain data a
//! scenario's `[rules]` table deserializes into. Unknown switches are rejected by serde
//! (`deny_unknown_fields`); values outside their range by [`RuleOptions::validate`], once per point.

use serde::{Deserialize, Serialize};

use crate::dice::Dice;
use crate::rules::{Key, Unit, keys};

/// How a fraction of a hit point is rounded when damage is split (docs/rules.md §1 "Fractions").
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    /// .5 or less rounds down, more than .5 up (the CFH's reading; the default).
    #[default]
    HalfDown,
    /// Always down.
    Down,
    /// Always up.
    Up,
}

impl Rounding {
    /// `numerator / denominator` rounded by this rule, for a non-negative numerator and a positive
    /// denominator (damage is never negative).
    #[inline]
    pub fn divide(self, numerator: i32, denominator: i32) -> i32 {
        let quotient = numerator.div_euclid(denominator);
        let remainder = numerator.rem_euclid(denominator);
        match self {
            Rounding::HalfDown => quotient + i32::from(2 * remainder > denominator),
            Rounding::Down => quotient,
            Rounding::Up => quotient + i32::from(remainder > 0),
        }
    }
}

/// Which level the mugging save difference uses for a monster (docs/rules.md §2, §7.1).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum MugLevelDiff {
    /// The monster's whole Hit Dice (4 for an ogre of 4+1): reproduces the text's 17.
    #[default]
    HitDice,
    /// The level the monster saves at (5 for 4+1): gives 16 in the text's example.
    SaveLevel,
}

/// How the Strength contest of a grab is judged (docs/rules.md §5, §7.3).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum GrabContest {
    /// The larger margin (Strength minus roll) wins; negative margins compare too.
    #[default]
    Margin,
    /// The higher roll that is still under its score wins; both failing is a tie.
    HighestSuccess,
}

/// How the halved grab size modifier (+1.5 against a smaller PC-race creature) is rounded (docs/rules.md §5).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum SizeRounding {
    /// +1.5 → +2, −3 → −3.
    #[default]
    HalfAway,
    /// Toward minus infinity: +1.5 → +1.
    Down,
    /// Toward plus infinity: +1.5 → +2.
    Up,
    /// +1.5 → +1.
    TowardZero,
}

impl SizeRounding {
    /// Half of `value`, rounded by this rule.
    pub fn half(self, value: i32) -> i32 {
        let floor = value.div_euclid(2);
        let odd = value.rem_euclid(2) == 1;
        match self {
            SizeRounding::Down => floor,
            SizeRounding::Up => floor + i32::from(odd),
            SizeRounding::HalfAway if value >= 0 => floor + i32::from(odd),
            SizeRounding::HalfAway => floor,
            SizeRounding::TowardZero if value >= 0 => floor,
            SizeRounding::TowardZero => floor + i32::from(odd),
        }
    }
}

/// Which share of a held-back blow takes the odd point when its total is odd (docs/rules.md §3).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum OddPoint {
    /// Real damage is half the total rounded down, the odd point temporary: the blow is held back so as
    /// not to cause serious damage, so the odd point goes the gentle way (the default).
    #[default]
    Temporary,
    /// Temporary damage is half the total rounded down, the odd point real (the reading before 2026-12).
    Real,
}

impl OddPoint {
    /// The temporary share of a held-back `total`.
    #[inline]
    pub fn temporary(self, total: u32) -> u32 {
        match self {
            OddPoint::Temporary => total - total / 2,
            OddPoint::Real => total / 2,
        }
    }

    /// 1 when the odd point is temporary, else 0: `(total + odd) >> 1` is then the temporary share, with
    /// no branch (the fights' folded split).
    #[inline]
    pub fn odd(self) -> i32 {
        match self {
            OddPoint::Temporary => 1,
            OddPoint::Real => 0,
        }
    }
}

/// Which roll reads the martial arts column (docs/rules.md §6 "Martial arts").
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum MartialArtsRow {
    /// The modified attack roll, as the punching column is read (the default).
    #[default]
    Modified,
    /// The natural d20, as one copy of the rules has it.
    Unmodified,
}

/// What a fighter held in a wrestling hold does with his first attack (docs/rules.md §6 "Holds in a fight").
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum HeldResponse {
    /// He spends it on the Strength contest to break free (the default).
    #[default]
    BreakFree,
    /// He attacks the holder (at −4 unless he wrestles) and never tries the contest.
    Attack,
}

/// The rule switches of docs/rules.md §8. `Default` gives the contract's defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RuleOptions {
    /// A natural 20 always hits.
    pub natural_20_hits: bool,
    /// A natural 1 always misses.
    pub natural_1_misses: bool,
    /// A natural 20 always saves (off: 2e has no automatic saves).
    pub natural_20_saves: bool,
    /// A natural 1 always fails a save.
    pub natural_1_fails_saves: bool,
    /// Rounding of fractional hit points.
    pub rounding: Rounding,
    /// The mugging helmet rule: a victim without a helmet is AC 10.
    pub helmets: bool,
    /// A mugger may not knock out a victim taller than this many times his own height.
    #[schemars(extend("exclusiveMinimum" = 0))]
    pub mug_max_height_ratio: f64,
    /// How long a mugging knockout lasts, in rounds.
    pub mug_ko_rounds: Dice,
    /// How long a sap knockout lasts, in rounds.
    pub sap_ko_rounds: Dice,
    /// Which monster level the mugging save difference uses.
    pub mug_level_diff: MugLevelDiff,
    /// To-hit and damage bonus of an armed defender against an unarmed attacker.
    #[schemars(range(min = -20, max = 20))]
    pub armed_defender_bonus: i32,
    /// The armed defender's strike is an extra attack rather than his normal one moved first.
    pub armed_defender_extra_attack: bool,
    /// Total to-hit penalty of a sap.
    #[schemars(range(min = -20, max = 20))]
    pub sap_penalty: i32,
    /// Knockout chance per point of sap damage, percent.
    #[schemars(range(max = 100))]
    pub sap_ko_per_point: u32,
    /// Largest sap knockout chance, percent.
    #[schemars(range(max = 100))]
    pub sap_ko_cap: u32,
    /// Knockout chance per point against a sleeping or held victim, percent.
    #[schemars(range(max = 100))]
    pub sap_helpless_ko_per_point: u32,
    /// Largest knockout chance against a sleeping or held victim, percent.
    #[schemars(range(max = 100))]
    pub sap_helpless_ko_cap: u32,
    /// A knockout d100 at or above this wakes a sleeping or held victim (101: never).
    #[schemars(range(min = 1, max = 101))]
    pub sap_wake_at: u32,
    /// How the grab contest is judged.
    pub grab_contest: GrabContest,
    /// Rounding of the halved grab size modifier.
    pub grab_size_rounding: SizeRounding,
    /// Real damage that leaves this many hit points or fewer kills (0, or −10).
    #[schemars(extend("enum" = [0, -10]))]
    pub death_at: i32,
    /// Temporary damage heals one point at the end of every this-many rounds.
    #[schemars(range(min = 1))]
    pub temp_heal_rounds: u32,
    /// Which share of a held-back blow takes its odd point.
    pub held_back_odd_point: OddPoint,
    /// Bare hands count as a blunt instrument for a mugging.
    pub mug_bare_hands: bool,
    /// Only victims of humanoid anatomy can be mugged (a backstab needs one).
    pub mug_humanoid_only: bool,
    /// An armed victim strikes first, at +4, at a grabber as at any unarmed attacker.
    pub armed_defender_vs_grabs: bool,
    /// A grab of a person of another size uses the halved size modifier.
    pub grab_person_size: bool,
    /// Which roll reads the martial arts column.
    pub martial_arts_row: MartialArtsRow,
    /// What a held fighter does with his first attack.
    pub held_response: HeldResponse,
}

impl Default for RuleOptions {
    fn default() -> Self {
        let two_d8 = Dice::of(2, 8, 0);
        RuleOptions {
            natural_20_hits: true,
            natural_1_misses: true,
            natural_20_saves: false,
            natural_1_fails_saves: false,
            rounding: Rounding::HalfDown,
            helmets: false,
            mug_max_height_ratio: 2.0,
            mug_ko_rounds: two_d8,
            sap_ko_rounds: two_d8,
            mug_level_diff: MugLevelDiff::HitDice,
            armed_defender_bonus: 4,
            armed_defender_extra_attack: false,
            sap_penalty: -8,
            sap_ko_per_point: 5,
            sap_ko_cap: 40,
            sap_helpless_ko_per_point: 10,
            sap_helpless_ko_cap: 80,
            sap_wake_at: 81,
            grab_contest: GrabContest::Margin,
            grab_size_rounding: SizeRounding::HalfAway,
            death_at: 0,
            temp_heal_rounds: 5,
            held_back_odd_point: OddPoint::Temporary,
            mug_bare_hands: false,
            mug_humanoid_only: true,
            armed_defender_vs_grabs: true,
            grab_person_size: true,
            martial_arts_row: MartialArtsRow::Modified,
            held_response: HeldResponse::BreakFree,
        }
    }
}

/// A switch whose value is outside its range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("rules.{switch}: {expected}")]
pub struct OptionError {
    /// The switch, by its name in docs/rules.md §8.
    pub switch: &'static str,
    /// What the switch accepts.
    pub expected: &'static str,
}

impl RuleOptions {
    /// Every switch with its name on charts, in docs/rules.md §8 order.
    pub const KEYS: [Key; 29] = [
        Key::new("natural_20_hits", "a natural 20 always hits", Unit::None),
        Key::new("natural_1_misses", "a natural 1 always misses", Unit::None),
        Key::new("natural_20_saves", "a natural 20 always saves", Unit::None),
        Key::new(
            "natural_1_fails_saves",
            "a natural 1 always fails a save",
            Unit::None,
        ),
        Key::new("rounding", "rounding of fractions", Unit::None),
        Key::new("helmets", "helmet rule", Unit::None),
        Key::new(
            "mug_max_height_ratio",
            "tallest victim a mugger reaches, in his heights",
            Unit::Times,
        ),
        Key::new("mug_ko_rounds", "mugging knockout length", Unit::Rounds),
        Key::new("sap_ko_rounds", "sap knockout length", Unit::Rounds),
        Key::new(
            "mug_level_diff",
            "a monster's level in the mugging save",
            Unit::None,
        ),
        Key::new("armed_defender_bonus", "armed defender's bonus", Unit::None),
        Key::new(
            "armed_defender_extra_attack",
            "armed defender's strike is an extra attack",
            Unit::None,
        ),
        Key::new("sap_penalty", "sap to-hit penalty", Unit::None),
        Key::new(
            "sap_ko_per_point",
            "sap knockout chance per point",
            Unit::Percent,
        ),
        Key::new("sap_ko_cap", "sap knockout cap", Unit::Percent),
        Key::new(
            "sap_helpless_ko_per_point",
            "sap knockout chance per point on a helpless victim",
            Unit::Percent,
        ),
        Key::new(
            "sap_helpless_ko_cap",
            "sap cap on a helpless victim",
            Unit::Percent,
        ),
        Key::new(
            "sap_wake_at",
            "d100 that wakes a sapped sleeper",
            Unit::None,
        ),
        Key::new("grab_contest", "grab contest", Unit::None),
        Key::new(
            "grab_size_rounding",
            "rounding of the halved size modifier",
            Unit::None,
        ),
        Key::new("death_at", "death at", Unit::HitPoints),
        Key::new(
            "temp_heal_rounds",
            "temporary damage heals a point every",
            Unit::Rounds,
        ),
        Key::new(
            "held_back_odd_point",
            "odd point of a held-back blow",
            Unit::None,
        ),
        Key::new("mug_bare_hands", "bare hands can mug", Unit::None),
        Key::new(
            "mug_humanoid_only",
            "only humanoids can be mugged",
            Unit::None,
        ),
        Key::new(
            "armed_defender_vs_grabs",
            "an armed victim strikes a grabber first",
            Unit::None,
        ),
        Key::new(
            "grab_person_size",
            "size modifier in a grab of a person",
            Unit::None,
        ),
        Key::new(
            "martial_arts_row",
            "roll that reads martial arts",
            Unit::None,
        ),
        Key::new("held_response", "what a held fighter does", Unit::None),
    ];

    /// The names of every switch, in docs/rules.md §8 order (for suggestions on a misspelt switch).
    pub const SWITCHES: [&'static str; 29] = keys(&RuleOptions::KEYS);

    /// Checks every range docs/rules.md §8 states; the first violation is returned.
    pub fn validate(&self) -> Result<(), OptionError> {
        let ratio = self.mug_max_height_ratio;
        if !(ratio.is_finite() && ratio > 0.0) {
            return Err(OptionError {
                switch: "mug_max_height_ratio",
                expected: "a number greater than 0, such as 2",
            });
        }
        let percents = [
            ("sap_ko_per_point", self.sap_ko_per_point),
            ("sap_ko_cap", self.sap_ko_cap),
            ("sap_helpless_ko_per_point", self.sap_helpless_ko_per_point),
            ("sap_helpless_ko_cap", self.sap_helpless_ko_cap),
        ];
        for (switch, value) in percents {
            if value > 100 {
                return Err(OptionError {
                    switch,
                    expected: "a percentage from 0 to 100",
                });
            }
        }
        if !(1..=101).contains(&self.sap_wake_at) {
            return Err(OptionError {
                switch: "sap_wake_at",
                expected: "a d100 roll from 1 to 101 (101: a sleeper never wakes)",
            });
        }
        if self.death_at != 0 && self.death_at != -10 {
            return Err(OptionError {
                switch: "death_at",
                expected: "0 or -10",
            });
        }
        if self.temp_heal_rounds == 0 {
            return Err(OptionError {
                switch: "temp_heal_rounds",
                expected: "a whole number of rounds, at least 1",
            });
        }
        // A range test, not `abs()`: `i32::MIN.abs()` overflows (to itself, below 20, in a release build).
        for (switch, value) in [
            ("armed_defender_bonus", self.armed_defender_bonus),
            ("sap_penalty", self.sap_penalty),
        ] {
            if !(-20..=20).contains(&value) {
                return Err(OptionError {
                    switch,
                    expected: "a modifier from -20 to 20",
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_those_of_rules_md() {
        let o = RuleOptions::default();
        assert!(o.natural_20_hits && o.natural_1_misses);
        assert!(!o.natural_20_saves && !o.natural_1_fails_saves);
        assert_eq!(o.rounding, Rounding::HalfDown);
        assert!(!o.helmets);
        assert_eq!(o.mug_max_height_ratio, 2.0);
        assert_eq!(o.mug_ko_rounds.to_string(), "2d8");
        assert_eq!(o.sap_ko_rounds.to_string(), "2d8");
        assert_eq!(o.mug_level_diff, MugLevelDiff::HitDice);
        assert_eq!(o.armed_defender_bonus, 4);
        assert!(!o.armed_defender_extra_attack);
        assert_eq!(o.sap_penalty, -8);
        assert_eq!((o.sap_ko_per_point, o.sap_ko_cap), (5, 40));
        assert_eq!(
            (o.sap_helpless_ko_per_point, o.sap_helpless_ko_cap),
            (10, 80)
        );
        assert_eq!(o.sap_wake_at, 81);
        assert_eq!(o.grab_contest, GrabContest::Margin);
        assert_eq!(o.grab_size_rounding, SizeRounding::HalfAway);
        assert_eq!(o.death_at, 0);
        assert_eq!(o.temp_heal_rounds, 5);
        assert_eq!(o.validate(), Ok(()));
    }

    #[test]
    fn modifiers_out_of_range_are_refused_even_at_the_ends_of_i32() {
        for (switch, value) in [
            ("armed_defender_bonus", i32::MIN),
            ("sap_penalty", i32::MIN),
            ("sap_penalty", i32::MAX),
            ("armed_defender_bonus", 21),
        ] {
            let o: RuleOptions = toml::from_str(&format!("{switch} = {value}")).unwrap();
            assert_eq!(o.validate().map_err(|e| e.switch), Err(switch), "{value}");
        }
        let o: RuleOptions = toml::from_str("sap_penalty = -20").unwrap();
        assert_eq!(o.validate(), Ok(()));
    }

    #[test]
    fn the_corrected_readings_are_the_defaults() {
        let o = RuleOptions::default();
        assert_eq!(o.held_back_odd_point, OddPoint::Temporary);
        assert!(!o.mug_bare_hands);
        assert!(o.mug_humanoid_only);
        assert!(o.armed_defender_vs_grabs);
        assert!(o.grab_person_size);
        assert_eq!(o.martial_arts_row, MartialArtsRow::Modified);
        assert_eq!(o.held_response, HeldResponse::BreakFree);
        let parsed: RuleOptions = toml::from_str("held_back_odd_point = \"real\"").unwrap();
        assert_eq!(parsed.held_back_odd_point, OddPoint::Real);
        assert!(toml::from_str::<RuleOptions>("held_back_odd_point = \"half\"").is_err());
    }

    #[test]
    fn the_odd_point_of_a_held_back_blow_is_temporary_by_default() {
        // Totals 1..=5: temporary 1, 1, 2, 2, 3 (the odd point gentle); the old reading 0, 1, 1, 2, 2.
        let gentle: Vec<u32> = (1..=5).map(|t| OddPoint::Temporary.temporary(t)).collect();
        assert_eq!(gentle, [1, 1, 2, 2, 3]);
        let old: Vec<u32> = (1..=5).map(|t| OddPoint::Real.temporary(t)).collect();
        assert_eq!(old, [0, 1, 1, 2, 2]);
        for odd in [OddPoint::Temporary, OddPoint::Real] {
            for t in 0..40 {
                assert_eq!(((t as i32 + odd.odd()) >> 1) as u32, odd.temporary(t));
            }
        }
    }

    #[test]
    fn every_switch_is_listed_and_serialized_under_its_name() {
        let value = serde_json::to_value(RuleOptions::default()).unwrap();
        let keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        let mut listed = RuleOptions::SWITCHES.to_vec();
        let mut keys_sorted = keys.clone();
        listed.sort_unstable();
        keys_sorted.sort_unstable();
        assert_eq!(listed, keys_sorted);
    }

    #[test]
    fn half_down_rounds_a_half_down_and_three_quarters_up() {
        let r = Rounding::HalfDown;
        assert_eq!(r.divide(1, 4), 0); // .25
        assert_eq!(r.divide(2, 4), 0); // .5
        assert_eq!(r.divide(3, 4), 1); // .75
        assert_eq!(r.divide(5, 2), 2); // 2.5
        assert_eq!(r.divide(14, 4), 3); // 3.5: the CFH's 14 → 3 normal
        assert_eq!(r.divide(8, 4), 2);
        assert_eq!(Rounding::Down.divide(7, 2), 3);
        assert_eq!(Rounding::Up.divide(7, 2), 4);
        assert_eq!(Rounding::Up.divide(8, 2), 4);
    }

    #[test]
    fn size_rounding_halves_three_and_minus_six() {
        assert_eq!(SizeRounding::HalfAway.half(3), 2);
        assert_eq!(SizeRounding::HalfAway.half(-6), -3);
        assert_eq!(SizeRounding::HalfAway.half(-3), -2);
        assert_eq!(SizeRounding::Down.half(3), 1);
        assert_eq!(SizeRounding::Down.half(-3), -2);
        assert_eq!(SizeRounding::Up.half(3), 2);
        assert_eq!(SizeRounding::Up.half(-3), -1);
        assert_eq!(SizeRounding::TowardZero.half(3), 1);
        assert_eq!(SizeRounding::TowardZero.half(-3), -1);
        assert_eq!(SizeRounding::TowardZero.half(-6), -3);
    }

    #[test]
    fn out_of_range_switches_are_named() {
        let bad = |f: fn(&mut RuleOptions)| {
            let mut o = RuleOptions::default();
            f(&mut o);
            o.validate().unwrap_err().switch
        };
        assert_eq!(
            bad(|o| o.mug_max_height_ratio = 0.0),
            "mug_max_height_ratio"
        );
        assert_eq!(
            bad(|o| o.mug_max_height_ratio = f64::NAN),
            "mug_max_height_ratio"
        );
        assert_eq!(bad(|o| o.sap_ko_cap = 101), "sap_ko_cap");
        assert_eq!(bad(|o| o.sap_wake_at = 0), "sap_wake_at");
        assert_eq!(bad(|o| o.sap_wake_at = 102), "sap_wake_at");
        assert_eq!(bad(|o| o.death_at = -5), "death_at");
        assert_eq!(bad(|o| o.temp_heal_rounds = 0), "temp_heal_rounds");
        assert_eq!(bad(|o| o.armed_defender_bonus = 99), "armed_defender_bonus");
        let ok = RuleOptions {
            sap_wake_at: 101,
            death_at: -10,
            ..RuleOptions::default()
        };
        assert_eq!(ok.validate(), Ok(()));
    }
}
