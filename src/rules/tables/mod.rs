//! The numeric tables of AD&D 2nd Edition that the non-lethal combat rules read: THAC0, saving throws,
//! Strength and Dexterity adjustments, the punching/wrestling column, wrestling armor penalties and
//! creature sizes (docs/rules.md §1 and §6).
//!
//! # Why the tables are data
//!
//! Every table here is a `const` array of rows written in the same order and shape as the printed
//! table in docs/rules.md (and behind it the PHB and DMG), with one small lookup function per table. That
//! keeps three things easy that a chain of `match` arms full of numbers makes hard:
//!
//! - **Review.** A row can be compared with the book at a glance; a typo is a wrong cell, not a wrong
//!   branch hidden among hundreds.
//! - **Testing.** Tests walk the rows (every band edge, every cell) and check structural facts about
//!   the data itself, such as "bands are sorted" or "holds fall on exactly these rolls".
//! - **Change.** A house rule that changes one number changes one cell; the lookup logic (a level
//!   band, a clamp at the ends) is written once and does not move.
//!
//! Bands are stored by their first entry (a level, a number of Hit Dice, a Strength) and a lookup
//! takes the last row whose first entry is not above the key, so "17+" or "21+" rows naturally cover
//! everything beyond them.
//!
//! Parsing of the game's notations (`"4+1"` Hit Dice, `"18/76"` Strength, armor names, size codes)
//! lives here too, since those values are the keys of the tables. Parsing is checked: bad input is a
//! [`ValueError`], never a panic.
//!
//! One file per table (`thac0`, `saves`, `strength`, `dexterity`, `brawl`, `martial_arts`,
//! `armor`, `size`) and one for `hit_dice`, the key of the monster rows; what they share (the
//! [`ValueError`] of a bad value, the band lookup, the parsing helpers) is here, and everything is
//! re-exported, so the crate names `crate::rules::tables::X` whatever file `X` lives in.

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

mod armor;
mod brawl;
mod dexterity;
mod hit_dice;
mod martial_arts;
mod saves;
mod size;
mod strength;
mod thac0;

pub use armor::*;
pub use brawl::*;
pub use dexterity::*;
pub use hit_dice::*;
pub use martial_arts::*;
pub use saves::*;
pub use size::*;
pub use strength::*;
pub use thac0::*;

/// A value written in a scenario (Hit Dice, Strength, armor, size ...) that does not parse or is
/// outside the range the tables cover.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{input}` is not a valid {what}: expected {expected}")]
pub struct ValueError {
    /// What was being read, e.g. `"strength"`.
    pub what: &'static str,
    /// The text (or number) as given.
    pub input: String,
    /// A short description of the accepted forms.
    pub expected: &'static str,
}

impl ValueError {
    fn new(what: &'static str, input: impl Into<String>, expected: &'static str) -> Self {
        ValueError {
            what,
            input: input.into(),
            expected,
        }
    }
}

/// Parses one to three ASCII digits (no sign, no spaces); anything else is `None`.
fn parse_small_number(text: &str) -> Option<u32> {
    if text.is_empty() || text.len() > 3 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Lowercases a name and drops spaces, `_` and `-`, so that `"Studded leather"`,
/// `"studded_leather"` and `"STUDDED-LEATHER"` compare equal.
fn normalize_name(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-') && !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The row of a banded table that covers `key`: the last row whose first entry is not above `key`
/// (the first row if `key` is below every band). Tables are sorted by their first entry and never
/// empty (both checked by tests).
fn band<K: PartialOrd + Copy, T>(rows: &'static [(K, T)], key: K) -> &'static T {
    let covering = rows.partition_point(|(from, _)| *from <= key);
    &rows[covering.saturating_sub(1)].1
}

/// Deserializes a value written either as text (`"18/76"`, `"4+1"`) or as a bare number (`16`, `4`),
/// through the type's `FromStr`.
struct TextOrNumber<T>(PhantomData<T>, &'static str);

impl<'de, T: FromStr<Err = ValueError>> Visitor<'de> for TextOrNumber<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.1)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        v.parse().map_err(E::custom)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        self.visit_str(&v.to_string())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        self.visit_str(&v.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::IntoDeserializer;
    use serde::de::value::{Error as DeError, I64Deserializer, StrDeserializer, U64Deserializer};

    pub(super) fn hd(text: &str) -> HitDice {
        text.parse()
            .unwrap_or_else(|e| panic!("{text} should parse: {e}"))
    }

    pub(super) fn strength(text: &str) -> Strength {
        text.parse()
            .unwrap_or_else(|e| panic!("{text} should parse: {e}"))
    }

    pub(super) fn from_str_value<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, DeError> {
        let d: StrDeserializer<'_, DeError> = text.into_deserializer();
        T::deserialize(d)
    }

    pub(super) fn from_u64_value<T: for<'de> Deserialize<'de>>(n: u64) -> Result<T, DeError> {
        let d: U64Deserializer<DeError> = n.into_deserializer();
        T::deserialize(d)
    }

    pub(super) fn from_i64_value<T: for<'de> Deserialize<'de>>(n: i64) -> Result<T, DeError> {
        let d: I64Deserializer<DeError> = n.into_deserializer();
        T::deserialize(d)
    }

    // --- table structure -------------------------------------------------------------------

    fn assert_sorted<K: PartialOrd + fmt::Debug, T>(name: &str, rows: &[(K, T)]) {
        assert!(!rows.is_empty(), "{name} is empty");
        for pair in rows.windows(2) {
            assert!(
                pair[0].0 < pair[1].0,
                "{name} not sorted at {:?}",
                pair[1].0
            );
        }
    }

    #[test]
    fn banded_tables_are_sorted_and_not_empty() {
        assert_sorted("MONSTER_THAC0", &MONSTER_THAC0);
        for (group, table) in SAVE_TABLES {
            assert_sorted(&format!("{group:?} saves"), table);
        }
        assert_sorted("STRENGTH_TABLE", &STRENGTH_TABLE);
        assert_sorted("ONE_HAND_EIGHTEENS", &ONE_HAND_EIGHTEENS);
    }

    #[test]
    fn group_tables_are_in_group_order() {
        for (i, group) in Group::ALL.into_iter().enumerate() {
            assert_eq!(group as usize, i);
            assert_eq!(CHARACTER_THAC0[i].0, group);
            assert_eq!(SAVE_TABLES[i].0, group);
        }
    }

    #[test]
    fn enum_tables_are_in_declaration_order() {
        for (i, row) in ARMOR_TABLE.iter().enumerate() {
            assert_eq!(row.armor as usize, i, "{}", row.name);
        }
        for (i, row) in SIZE_TABLE.iter().enumerate() {
            assert_eq!(row.size as usize, i, "{}", row.letter);
            assert_eq!(Size::ALL[i], row.size);
        }
        for (i, c) in SaveCategory::ALL.into_iter().enumerate() {
            assert_eq!(c as usize, i);
        }
    }

    // --- serde ----------------------------------------------------------------------------

    #[test]
    fn strength_deserializes_from_text_or_a_bare_number() {
        assert_eq!(from_str_value::<Strength>("18/76"), Ok(strength("18/76")));
        assert_eq!(from_u64_value::<Strength>(16), Ok(strength("16")));
        assert_eq!(from_i64_value::<Strength>(16), Ok(strength("16")));
        assert!(from_str_value::<Strength>("18/101").is_err());
        assert!(from_u64_value::<Strength>(26).is_err());
        assert!(from_i64_value::<Strength>(-3).is_err());
        assert!(from_u64_value::<Strength>(u64::MAX).is_err());
    }

    #[test]
    fn hit_dice_deserialize_from_text_or_a_bare_number() {
        assert_eq!(from_str_value::<HitDice>("4+1"), Ok(hd("4+1")));
        assert_eq!(from_u64_value::<HitDice>(4), Ok(hd("4")));
        assert!(from_u64_value::<HitDice>(0).is_err());
        assert!(from_i64_value::<HitDice>(-1).is_err());
    }

    #[test]
    fn names_deserialize_through_from_str() {
        assert_eq!(
            from_str_value::<ArmorType>("studded leather"),
            Ok(ArmorType::StuddedLeather)
        );
        assert_eq!(
            from_str_value::<ArmorType>("full_plate"),
            Ok(ArmorType::FullPlate)
        );
        assert!(from_str_value::<ArmorType>("mithril").is_err());
        assert_eq!(from_str_value::<Size>("M"), Ok(Size::M));
        assert_eq!(from_str_value::<Size>("huge"), Ok(Size::H));
        assert_eq!(from_str_value::<Group>("warrior"), Ok(Group::Warrior));
        assert_eq!(from_str_value::<Group>("wizard"), Ok(Group::Wizard));
        assert!(from_str_value::<Group>("Fighter").is_err());
    }

    #[test]
    fn deserialize_errors_carry_the_value_error_message() {
        let e = from_str_value::<Strength>("17/50").expect_err("17/50 is invalid");
        assert!(
            e.to_string().contains("`17/50` is not a valid strength"),
            "{e}"
        );
    }

    // --- robustness -----------------------------------------------------------------------

    /// Every string of up to four characters over an alphabet of digits, signs, slashes, spaces,
    /// letters and multi-byte characters, plus a list of odd inputs.
    fn odd_inputs() -> Vec<String> {
        const ALPHABET: [char; 12] = ['0', '1', '2', '8', '/', '+', '-', ' ', 'a', '½', '.', 'é'];
        let mut out = vec![String::new()];
        let mut frontier = vec![String::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for prefix in &frontier {
                for c in ALPHABET {
                    let mut s = prefix.clone();
                    s.push(c);
                    next.push(s);
                }
            }
            out.extend(next.iter().cloned());
            frontier = next;
        }
        for s in [
            "99999999999999999999",
            "18/99999999999999999999",
            "4+99999999999999999999",
            "-2147483648",
            "4-2147483648",
            "\0",
            "\u{feff}4+1",
            "1/2\n",
            "\t18/00\t",
            "18/٠٠",
            "１８/００",
            "🐉",
            "18/🐉",
            "4+🐉",
            "man-sized-",
            "--",
            "__",
            "/",
            "//",
            "+/-",
        ] {
            out.push(s.to_string());
        }
        out.push("9".repeat(10_000));
        out.push("18/".to_string() + &"0".repeat(10_000));
        out
    }

    fn assert_parse_is_total<T>(inputs: &[String])
    where
        T: FromStr<Err = ValueError> + fmt::Display + PartialEq + fmt::Debug,
    {
        for input in inputs {
            match input.parse::<T>() {
                Ok(value) => {
                    assert_eq!(
                        value.to_string().parse::<T>().as_ref(),
                        Ok(&value),
                        "{input:?}"
                    );
                }
                Err(e) => assert_eq!(&e.input, input),
            }
        }
    }

    #[test]
    fn parsing_never_panics_on_odd_input() {
        let inputs = odd_inputs();
        assert!(inputs.len() > 20_000);
        assert_parse_is_total::<HitDice>(&inputs);
        assert_parse_is_total::<Strength>(&inputs);
        assert_parse_is_total::<Size>(&inputs);
        assert_parse_is_total::<ArmorType>(&inputs);
        assert_parse_is_total::<SaveCategory>(&inputs);
    }
}
