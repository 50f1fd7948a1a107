//! Every switch of docs/rules.md §8 in one struct, with the defaults the contract fixes.
//!
//! The switches are where designers disagree with the text (or with each other), so they are plain data a
//! scenario's `[rules]` table deserializes into. Unknown switches are rejected by serde
//! (`deny_unknown_fields`); values outside their range by [`RuleOptions::validate`], once per point. Each
//! switch is one row of `switches!`: everything the struct, the schema, the lists and the checks say of
//! it comes from that row.

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

/// Which side the armed-defender rule favours (docs/rules.md §6 "The armed defender, both ways").
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ArmedDefenderSides {
    /// Whoever holds a melee weapon against a foe who punches, wrestles, overbears or uses martial arts at
    /// him, attacker or victim (the default).
    #[default]
    Both,
    /// Only the victim, as the single actions once read the rule.
    Victim,
}

/// Whether a lethal fighter finishes a foe who is down but alive (docs/rules.md §6 "No blows on the
/// fallen").
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum FinishDowned {
    /// A victim fighting to kill spends his remaining attacks, and the rounds after, on the downed foe,
    /// hitting automatically (the default).
    #[default]
    Lethal,
    /// Nobody strikes a foe who is down.
    Never,
}

/// When a fighter's second attack of a round comes (docs/rules.md §6 "Staggered multiple attacks").
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum MultipleAttacks {
    /// After every fighter's first attack, in initiative order again (the PHB; the default). A monster's
    /// different attack forms all come at its initiative.
    #[default]
    Staggered,
    /// All of a side's attacks at its initiative.
    Together,
}

/// How initiative is rolled in a fight of several a side (docs/rules.md §6 "Several combatants a side").
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Initiative {
    /// A d10 a side, every member acting on his side's roll (the PHB; the default).
    #[default]
    Side,
    /// A d10 for every fighter.
    Individual,
}

/// How several overbearing one foe are resolved (docs/rules.md §6 "Several combatants a side", piles).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Pile {
    /// One attack roll at the weakest member's to-hit, the largest member's size modifier, +1 per member
    /// beyond the first (the PHB; the default).
    #[default]
    Phb,
    /// The best member's THAC0 against AC 10 adjusted by Dexterity and magic only, then an opposed
    /// Strength roll, the defender taking a free attack at each member as the pile forms (Combat & Tactics).
    CombatAndTactics,
}

/// How a held-back blow's damage is rounded (docs/rules.md §6 "Rounding of held-back damage").
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum HeldBackRounding {
    /// Each blow's total and its real part rounded as docs/rules.md §3 says (the default).
    #[default]
    PerBlow,
    /// Damage kept in quarter points: a held-back blow is exactly half its roll, a quarter real.
    Exact,
}

/// Declares the switches, one row each: its doc comment (the schema's description), field and type, default,
/// name on charts and unit, and, for a switch with a range, the range as the schema states it and the
/// message that names it. From these rows come the struct, its `Default`, [`RuleOptions::KEYS`],
/// [`RuleOptions::SWITCHES`] and [`RuleOptions::validate`], so a new switch is one row (ripgrep declares each
/// flag so). The rows are in docs/rules.md §8 order, which is the order of the schema, the reference list,
/// and of `validate`'s checks.
macro_rules! switches {
    ($(
        $(#[$meta:meta])*
        $field:ident: $ty:ty = $default:expr, $name:literal, $unit:ident
        $(, $kind:ident($($range:tt)*) else $expected:literal)?;
    )*) => {
        /// The rule switches of docs/rules.md §8. `Default` gives the contract's defaults.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
        #[serde(default, deny_unknown_fields)]
        pub struct RuleOptions {
            $(
                $(#[$meta])*
                $(#[schemars($kind($($range)*))])?
                pub $field: $ty,
            )*
        }

        impl Default for RuleOptions {
            fn default() -> Self {
                RuleOptions {
                    $($field: $default,)*
                }
            }
        }

        impl RuleOptions {
            /// Every switch with its name on charts, in docs/rules.md §8 order.
            pub const KEYS: [Key; SWITCH_COUNT] = [$(Key::new(stringify!($field), $name, Unit::$unit),)*];

            /// Checks every range docs/rules.md §8 states; the first violation (in §8 order) is returned.
            pub fn validate(&self) -> Result<(), OptionError> {
                $($(
                    if !accepts!(self.$field, $kind($($range)*)) {
                        return Err(OptionError {
                            switch: stringify!($field),
                            expected: $expected,
                        });
                    }
                )?)*
                Ok(())
            }
        }

        /// How many switches there are.
        const SWITCH_COUNT: usize = [$(stringify!($field)),*].len();
    };
}

/// Whether `value` is inside a range written as the schema writes it (`range(min = 1, max = 101)`,
/// `extend("enum" = [0, -10])`), so the schema and [`RuleOptions::validate`] read the same words. A range
/// test, never `abs()`: `i32::MIN.abs()` overflows (to itself, below 20, in a release build).
macro_rules! accepts {
    ($value:expr, range(min = $min:literal, max = $max:literal)) => {
        ($min..=$max).contains(&$value)
    };
    ($value:expr, range(min = $min:literal)) => {
        $value >= $min
    };
    ($value:expr, range(max = $max:literal)) => {
        $value <= $max
    };
    ($value:expr, extend("exclusiveMinimum" = 0)) => {
        $value.is_finite() && $value > 0.0
    };
    ($value:expr, extend("enum" = [$($allowed:literal),*])) => {
        [$($allowed),*].contains(&$value)
    };
}

switches! {
    /// A natural 20 always hits.
    natural_20_hits: bool = true, "a natural 20 always hits", None;
    /// A natural 1 always misses.
    natural_1_misses: bool = true, "a natural 1 always misses", None;
    /// A natural 20 always saves (off: 2e has no automatic saves).
    natural_20_saves: bool = false, "a natural 20 always saves", None;
    /// A natural 1 always fails a save.
    natural_1_fails_saves: bool = false, "a natural 1 always fails a save", None;
    /// Rounding of fractional hit points.
    rounding: Rounding = Rounding::HalfDown, "rounding of fractions", None;
    /// The mugging helmet rule: a victim without a helmet is AC 10.
    helmets: bool = false, "helmet rule", None;
    /// A mugger may not knock out a victim taller than this many times his own height.
    mug_max_height_ratio: f64 = 2.0, "tallest victim a mugger reaches, in his heights", Times,
        extend("exclusiveMinimum" = 0) else "a number greater than 0, such as 2";
    /// How long a mugging knockout lasts, in rounds.
    mug_ko_rounds: Dice = Dice::of(2, 8, 0), "mugging knockout length", Rounds;
    /// How long a sap knockout lasts, in rounds.
    sap_ko_rounds: Dice = Dice::of(2, 8, 0), "sap knockout length", Rounds;
    /// Which monster level the mugging save difference uses.
    mug_level_diff: MugLevelDiff = MugLevelDiff::HitDice, "a monster's level in the mugging save", None;
    /// To-hit and damage bonus of an armed defender against an unarmed attacker.
    armed_defender_bonus: i32 = 4, "armed defender's bonus", None,
        range(min = -20, max = 20) else "a modifier from -20 to 20";
    /// The armed defender's strike is an extra attack rather than his normal one moved first.
    armed_defender_extra_attack: bool = false, "armed defender's strike is an extra attack", None;
    /// Total to-hit penalty of a sap.
    sap_penalty: i32 = -8, "sap to-hit penalty", None,
        range(min = -20, max = 20) else "a modifier from -20 to 20";
    /// Knockout chance per point of sap damage, percent.
    sap_ko_per_point: u32 = 5, "sap knockout chance per point", Percent,
        range(max = 100) else "a percentage from 0 to 100";
    /// Largest sap knockout chance, percent.
    sap_ko_cap: u32 = 40, "sap knockout cap", Percent,
        range(max = 100) else "a percentage from 0 to 100";
    /// Knockout chance per point against a sleeping or held victim, percent.
    sap_helpless_ko_per_point: u32 = 10, "sap knockout chance per point on a helpless victim", Percent,
        range(max = 100) else "a percentage from 0 to 100";
    /// Largest knockout chance against a sleeping or held victim, percent.
    sap_helpless_ko_cap: u32 = 80, "sap cap on a helpless victim", Percent,
        range(max = 100) else "a percentage from 0 to 100";
    /// A knockout d100 at or above this wakes a sleeping or held victim (101: never).
    sap_wake_at: u32 = 81, "d100 that wakes a sapped sleeper", None,
        range(min = 1, max = 101) else "a d100 roll from 1 to 101 (101: a sleeper never wakes)";
    /// How the grab contest is judged.
    grab_contest: GrabContest = GrabContest::Margin, "grab contest", None;
    /// Rounding of the halved grab size modifier.
    grab_size_rounding: SizeRounding = SizeRounding::HalfAway, "rounding of the halved size modifier", None;
    /// Real damage that leaves this many hit points or fewer kills (0, or −10).
    death_at: i32 = 0, "death at", HitPoints,
        extend("enum" = [0, -10]) else "0 or -10";
    /// Temporary damage heals one point at the end of every this-many rounds.
    temp_heal_rounds: u32 = 5, "temporary damage heals a point every", Rounds,
        range(min = 1) else "a whole number of rounds, at least 1";
    /// Which share of a held-back blow takes its odd point.
    held_back_odd_point: OddPoint = OddPoint::Temporary, "odd point of a held-back blow", None;
    /// Bare hands count as a blunt instrument for a mugging.
    mug_bare_hands: bool = false, "bare hands can mug", None;
    /// Only victims of humanoid anatomy can be mugged (a backstab needs one).
    mug_humanoid_only: bool = true, "only humanoids can be mugged", None;
    /// An armed victim strikes first, at +4, at a grabber as at any unarmed attacker.
    armed_defender_vs_grabs: bool = true, "an armed victim strikes a grabber first", None;
    /// A grab of a person of another size uses the halved size modifier.
    grab_person_size: bool = true, "size modifier in a grab of a person", None;
    /// Which roll reads the martial arts column.
    martial_arts_row: MartialArtsRow = MartialArtsRow::Modified, "roll that reads martial arts", None;
    /// What a held fighter does with his first attack.
    held_response: HeldResponse = HeldResponse::BreakFree, "what a held fighter does", None;
    /// Which side the armed-defender rule favours.
    armed_defender_sides: ArmedDefenderSides = ArmedDefenderSides::Both, "armed defender's sides", None;
    /// Whether a lethal victim finishes a downed foe.
    finish_downed: FinishDowned = FinishDowned::Lethal, "a lethal victim finishes the downed", None;
    /// When second attacks come.
    multiple_attacks: MultipleAttacks = MultipleAttacks::Staggered, "second attacks", None;
    /// How a held-back blow's damage is rounded.
    held_back_rounding: HeldBackRounding = HeldBackRounding::PerBlow, "rounding of held-back damage", None;
    /// To-hit bonus from behind, the victim's shield and Dexterity bonus stripped (0: no rear attack rule).
    rear_attack_bonus: i32 = 2, "rear attack bonus", None,
        range(min = -20, max = 20) else "a modifier from -20 to 20";
    /// Initiative in a fight of several a side: a d10 a side, or one per fighter.
    initiative: Initiative = Initiative::Side, "initiative", None;
    /// How several overbearing one foe roll.
    pile: Pile = Pile::Phb, "piles", None;
    /// With two or more on one foe, one stands behind him (+2, no shield or Dexterity) and one at his flank (+1).
    flanking: bool = true, "rear and flank attacks in a crowd", None;
    /// At most 8 Small, 6 Medium or 4 Large attackers on one Medium foe, scaled by size.
    max_on_one: bool = true, "a limit to attackers on one foe", None;
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
    /// The names of every switch, in docs/rules.md §8 order (for suggestions on a misspelt switch).
    pub const SWITCHES: [&'static str; SWITCH_COUNT] = keys(&RuleOptions::KEYS);
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
        assert_eq!(o.armed_defender_sides, ArmedDefenderSides::Both);
        assert_eq!(o.finish_downed, FinishDowned::Lethal);
        assert_eq!(o.multiple_attacks, MultipleAttacks::Staggered);
        assert_eq!(o.held_back_rounding, HeldBackRounding::PerBlow);
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
    fn the_schema_and_validate_draw_every_range_at_the_same_place() {
        // Each switch's row states its range once: the schema and `validate` must both take each end and
        // both refuse the value just beyond it.
        let schema = schemars::schema_for!(RuleOptions).to_value();
        let properties = schema["properties"].as_object().unwrap();
        let accepted = |switch: &str, value: serde_json::Value| {
            let options: RuleOptions =
                serde_json::from_value(serde_json::json!({ switch: value })).unwrap();
            options.validate().is_ok()
        };
        let mut ranged = 0;
        for switch in RuleOptions::SWITCHES {
            let property = &properties[switch];
            let number = |key: &str| property.get(key).and_then(serde_json::Value::as_f64);
            let float = property["type"] == "number";
            let step = if float { 1e-9 } else { 1.0 };
            let value = |x: f64| {
                if float {
                    serde_json::json!(x)
                } else {
                    serde_json::json!(x as i64)
                }
            };
            // An unsigned switch's `minimum: 0` is its type's, which serde enforces; not a range.
            let unsigned = property["format"]
                .as_str()
                .is_some_and(|f| f.starts_with("uint"));
            if let Some(min) = number("minimum").filter(|m| !(unsigned && *m == 0.0)) {
                assert!(accepted(switch, value(min)), "{switch} = {min}");
                assert!(!accepted(switch, value(min - step)), "{switch} below {min}");
                ranged += 1;
            }
            if let Some(max) = number("maximum") {
                assert!(accepted(switch, value(max)), "{switch} = {max}");
                assert!(!accepted(switch, value(max + step)), "{switch} above {max}");
                ranged += 1;
            }
            if let Some(min) = number("exclusiveMinimum") {
                assert!(!accepted(switch, value(min)), "{switch} = {min}");
                assert!(accepted(switch, value(min + step)), "{switch} above {min}");
                ranged += 1;
            }
            if let Some(allowed) = property.get("enum").and_then(|e| e.as_array()) {
                for v in allowed {
                    assert!(accepted(switch, v.clone()), "{switch} = {v}");
                }
                let between = allowed.iter().filter_map(|v| v.as_f64()).sum::<f64>() / 2.0;
                assert!(!accepted(switch, value(between)), "{switch} = {between}");
                ranged += 1;
            }
        }
        // Eleven switches have a range; the three modifiers and sap_wake_at have two ends each.
        assert_eq!(ranged, 15);
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
