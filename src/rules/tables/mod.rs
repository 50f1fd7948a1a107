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

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Groups and THAC0
// ---------------------------------------------------------------------------------------------

/// The four class groups of the PHB; THAC0 and saving throws depend on the group, not the class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Group {
    /// Fighter, paladin, ranger.
    Warrior,
    /// Cleric, druid.
    Priest,
    /// Thief, bard.
    Rogue,
    /// Mage, illusionist and other specialists.
    Wizard,
}

impl Group {
    /// All groups, in the order of the tables below.
    pub const ALL: [Group; 4] = [Group::Warrior, Group::Priest, Group::Rogue, Group::Wizard];
}

/// The highest character level the THAC0 table lists; higher levels use its value.
const THAC0_TOP_LEVEL: u32 = 20;

/// THAC0 of a level-0 character (a recruit or commoner) of any group.
const LEVEL_0_THAC0: i32 = 20;

/// PHB Table 53 (docs/rules.md §1): THAC0 at levels 1..=20, one row per group, in `Group::ALL` order.
#[rustfmt::skip]
const CHARACTER_THAC0: [(Group, [i32; 20]); 4] = [
    //                1   2   3   4   5   6   7   8   9  10  11  12  13  14  15  16  17  18  19  20
    (Group::Warrior, [20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10,  9,  8,  7,  6,  5,  4,  3,  2,  1]),
    (Group::Priest,  [20, 20, 20, 18, 18, 18, 16, 16, 16, 14, 14, 14, 12, 12, 12, 10, 10, 10,  8,  8]),
    (Group::Rogue,   [20, 20, 19, 19, 18, 18, 17, 17, 16, 16, 15, 15, 14, 14, 13, 13, 12, 12, 11, 11]),
    (Group::Wizard,  [20, 20, 20, 19, 19, 19, 18, 18, 18, 17, 17, 17, 16, 16, 16, 15, 15, 15, 14, 14]),
];

/// Character THAC0 by group and level (docs/rules.md §1). Level 0 → 20; levels above 20 use the
/// level-20 value.
pub fn character_thac0(group: Group, level: u32) -> i32 {
    if level == 0 {
        return LEVEL_0_THAC0;
    }
    let level = level.min(THAC0_TOP_LEVEL);
    let (_, row) = &CHARACTER_THAC0[group as usize];
    // level is 1..=20 here, so the index is 0..=19.
    row[(level - 1) as usize]
}

// ---------------------------------------------------------------------------------------------
// Hit Dice and monster THAC0
// ---------------------------------------------------------------------------------------------

/// Hit Dice as monsters write them: "4+1", "1-1", "1/2", "12+2", "4".
///
/// `"1/2"` is `whole = 0, modifier = 0, half = true`; when `half` is set the other fields are
/// ignored by every method. Parsing accepts 1 to 100 whole dice and a modifier of at most ±100;
/// `"0"`, negative dice and fractions other than `"1/2"` are rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HitDice {
    /// Whole Hit Dice (4 for "4+1"); 0 for "1/2".
    pub whole: u32,
    /// Bonus (or malus) hit points (+1 for "4+1", −1 for "1-1").
    pub modifier: i32,
    /// The creature has half a Hit Die ("1/2").
    pub half: bool,
}

/// Largest number of whole Hit Dice (and largest absolute modifier) that parsing accepts.
const HIT_DICE_LIMIT: u32 = 100;

/// Bonus hit points from which the bonus counts as one more die for THAC0 (DMG: "+3 or more").
const THAC0_NEXT_DIE_BONUS: i32 = 3;

/// Bonus hit points that make one more save level, "or fraction thereof" (DMG).
const SAVE_LEVEL_HIT_POINTS: u32 = 4;

const HIT_DICE_EXPECTED: &str =
    "Hit Dice such as 4, 4+1, 1-1 or 1/2 (1 to 100 dice, a modifier of at most 100)";

impl HitDice {
    /// Half a Hit Die, written "1/2".
    pub const HALF: HitDice = HitDice {
        whole: 0,
        modifier: 0,
        half: true,
    };

    /// Less than one full Hit Die: 1/2, or 1 with a negative modifier (1-1). A hand-built value
    /// with `whole = 0` (which parsing never produces) counts as below one too.
    pub fn below_one(&self) -> bool {
        self.half || self.whole == 0 || (self.whole == 1 && self.modifier < 0)
    }

    /// The monster's "level" where a rule needs one (the mugging difference, `level_gap`): whole
    /// dice without modifier; 1/2 → 0, 1-1 → 1.
    pub fn level(&self) -> u32 {
        if self.half { 0 } else { self.whole }
    }

    /// Dice for THAC0: +3 or more bonus hit points count as the next die (ogre 4+1 → 4,
    /// nightmare 6+6 → 7). 1/2 → 0.
    pub fn thac0_dice(&self) -> u32 {
        if self.half {
            0
        } else if self.modifier >= THAC0_NEXT_DIE_BONUS {
            self.whole.saturating_add(1)
        } else {
            self.whole
        }
    }

    /// Save level: whole + ceil(positive modifier / 4) (4+1 → 5, 5+6 → 7); 0 when
    /// [`below_one`](Self::below_one). A negative modifier does not lower it (2-1 → 2).
    pub fn save_level(&self) -> u32 {
        if self.below_one() {
            return 0;
        }
        let bonus = self.modifier.max(0).unsigned_abs();
        self.whole
            .saturating_add(bonus.div_ceil(SAVE_LEVEL_HIT_POINTS))
    }
}

impl FromStr for HitDice {
    type Err = ValueError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ValueError::new("hit dice", s, HIT_DICE_EXPECTED);
        let text = s.trim();
        if text == "1/2" || text == "½" {
            return Ok(HitDice::HALF);
        }
        let (whole_text, modifier) = match text.find(['+', '-']) {
            Some(at) => {
                let (whole_text, signed) = text.split_at(at);
                // The sign is one ASCII byte, so slicing after it stays on a char boundary.
                let magnitude = parse_small_number(&signed[1..]).ok_or_else(err)?;
                if magnitude > HIT_DICE_LIMIT {
                    return Err(err());
                }
                let magnitude = i32::try_from(magnitude).map_err(|_| err())?;
                let modifier = if signed.starts_with('-') {
                    -magnitude
                } else {
                    magnitude
                };
                (whole_text, modifier)
            }
            None => (text, 0),
        };
        let whole = parse_small_number(whole_text).ok_or_else(err)?;
        if whole == 0 || whole > HIT_DICE_LIMIT {
            return Err(err());
        }
        Ok(HitDice {
            whole,
            modifier,
            half: false,
        })
    }
}

impl fmt::Display for HitDice {
    /// Writes the monster notation: "4+1", "1-1", "1/2", "4".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.half {
            f.write_str("1/2")
        } else if self.modifier > 0 {
            write!(f, "{}+{}", self.whole, self.modifier)
        } else if self.modifier < 0 {
            write!(f, "{}-{}", self.whole, self.modifier.unsigned_abs())
        } else {
            write!(f, "{}", self.whole)
        }
    }
}

impl Serialize for HitDice {
    /// Serialized as its notation, e.g. `"4+1"`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for HitDice {
    /// Read from its notation (`"4+1"`) or from a whole number (`4`).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(TextOrNumber(PhantomData, HIT_DICE_EXPECTED))
    }
}

/// DMG Table 39 (docs/rules.md §1): monster THAC0 by the first [`HitDice::thac0_dice`] of each band.
/// The 0 row ("1/2 or less", "1-1") is reached through [`HitDice::below_one`].
#[rustfmt::skip]
const MONSTER_THAC0: [(u32, i32); 9] = [
    // dice  THAC0
    ( 0,     20),   // below one Hit Die: 1-1, 1/2
    ( 1,     19),   // 1-2
    ( 3,     17),   // 3-4
    ( 5,     15),   // 5-6
    ( 7,     13),   // 7-8
    ( 9,     11),   // 9-10
    (11,      9),   // 11-12
    (13,      7),   // 13-14
    (15,      5),   // 15 and up
];

/// Monster THAC0 (DMG Table 39 via docs/rules.md §1): below one HD (1-1, 1/2): 20; 1-2: 19; 3-4: 17;
/// 5-6: 15; 7-8: 13; 9-10: 11; 11-12: 9; 13-14: 7; 15+: 5 — applied to
/// [`HitDice::thac0_dice`].
pub fn monster_thac0(hd: HitDice) -> i32 {
    let dice = if hd.below_one() { 0 } else { hd.thac0_dice() };
    *band(&MONSTER_THAC0, dice)
}

// ---------------------------------------------------------------------------------------------
// Saving throws
// ---------------------------------------------------------------------------------------------

/// The five saving-throw categories, in the tables' column order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SaveCategory {
    /// Paralyzation, poison or death magic.
    Ppd,
    /// Rod, staff or wand.
    Rsw,
    /// Petrification or polymorph (the save against a mugging).
    Pp,
    /// Breath weapon.
    Bw,
    /// Spell.
    Spell,
}

const SAVE_CATEGORY_EXPECTED: &str = "one of ppd, rsw, pp, bw, sp";

impl SaveCategory {
    /// All categories in table column order (PPD, RSW, PP, BW, SP).
    pub const ALL: [SaveCategory; 5] = [
        SaveCategory::Ppd,
        SaveCategory::Rsw,
        SaveCategory::Pp,
        SaveCategory::Bw,
        SaveCategory::Spell,
    ];

    /// The short name used in scenarios (`saves = { pp = 12 }`): "ppd", "rsw", "pp", "bw", "sp".
    pub fn key(&self) -> &'static str {
        SAVE_CATEGORY_KEYS[*self as usize]
    }
}

/// Scenario keys of the categories, in `SaveCategory::ALL` order.
const SAVE_CATEGORY_KEYS: [&str; 5] = ["ppd", "rsw", "pp", "bw", "sp"];

impl FromStr for SaveCategory {
    type Err = ValueError;

    /// Reads a category key ([`SaveCategory::key`]), ignoring case; "spell" also means `Spell`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let key = normalize_name(s);
        if key == "spell" {
            return Ok(SaveCategory::Spell);
        }
        SaveCategory::ALL
            .into_iter()
            .find(|c| c.key() == key)
            .ok_or_else(|| ValueError::new("save category", s, SAVE_CATEGORY_EXPECTED))
    }
}

impl fmt::Display for SaveCategory {
    /// Writes the category's key ("pp").
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// The five save numbers, indexed by category (a d20 roll of the number or more saves).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SaveNumbers(pub [i32; 5]);

impl SaveNumbers {
    /// The number needed in category `c`.
    pub fn get(&self, c: SaveCategory) -> i32 {
        self.0[c as usize]
    }

    /// Replaces the number of category `c` (a scenario's `saves` override).
    pub fn set(&mut self, c: SaveCategory, v: i32) {
        self.0[c as usize] = v;
    }
}

/// PHB Table 60 (docs/rules.md §1), warriors; also the table of level-0 characters and of monsters.
#[rustfmt::skip]
const WARRIOR_SAVES: [(u32, SaveNumbers); 10] = [
    // level              PPD RSW  PP  BW  SP
    ( 0, SaveNumbers([16, 18, 17, 20, 19])),
    ( 1, SaveNumbers([14, 16, 15, 17, 17])),   // 1-2
    ( 3, SaveNumbers([13, 15, 14, 16, 16])),   // 3-4
    ( 5, SaveNumbers([11, 13, 12, 13, 14])),   // 5-6
    ( 7, SaveNumbers([10, 12, 11, 12, 13])),   // 7-8
    ( 9, SaveNumbers([ 8, 10,  9,  9, 11])),   // 9-10
    (11, SaveNumbers([ 7,  9,  8,  8, 10])),   // 11-12
    (13, SaveNumbers([ 5,  7,  6,  5,  8])),   // 13-14
    (15, SaveNumbers([ 4,  6,  5,  4,  7])),   // 15-16
    (17, SaveNumbers([ 3,  5,  4,  4,  6])),   // 17+
];

/// PHB Table 60 (docs/rules.md §1), priests.
#[rustfmt::skip]
const PRIEST_SAVES: [(u32, SaveNumbers); 7] = [
    // level              PPD RSW  PP  BW  SP
    ( 1, SaveNumbers([10, 14, 13, 16, 15])),   // 1-3
    ( 4, SaveNumbers([ 9, 13, 12, 15, 14])),   // 4-6
    ( 7, SaveNumbers([ 7, 11, 10, 13, 12])),   // 7-9
    (10, SaveNumbers([ 6, 10,  9, 12, 11])),   // 10-12
    (13, SaveNumbers([ 5,  9,  8, 11, 10])),   // 13-15
    (16, SaveNumbers([ 4,  8,  7, 10,  9])),   // 16-18
    (19, SaveNumbers([ 2,  6,  5,  8,  7])),   // 19+
];

/// PHB Table 60 (docs/rules.md §1), rogues. The 21+ row is the PHB's 8/4/7/11/5 (the revised DMG
/// misprints it with RSW and PP swapped).
#[rustfmt::skip]
const ROGUE_SAVES: [(u32, SaveNumbers); 6] = [
    // level              PPD RSW  PP  BW  SP
    ( 1, SaveNumbers([13, 14, 12, 16, 15])),   // 1-4
    ( 5, SaveNumbers([12, 12, 11, 15, 13])),   // 5-8
    ( 9, SaveNumbers([11, 10, 10, 14, 11])),   // 9-12
    (13, SaveNumbers([10,  8,  9, 13,  9])),   // 13-16
    (17, SaveNumbers([ 9,  6,  8, 12,  7])),   // 17-20
    (21, SaveNumbers([ 8,  4,  7, 11,  5])),   // 21+
];

/// PHB Table 60 (docs/rules.md §1), wizards.
#[rustfmt::skip]
const WIZARD_SAVES: [(u32, SaveNumbers); 5] = [
    // level              PPD RSW  PP  BW  SP
    ( 1, SaveNumbers([14, 11, 13, 15, 12])),   // 1-5
    ( 6, SaveNumbers([13,  9, 11, 13, 10])),   // 6-10
    (11, SaveNumbers([11,  7,  9, 11,  8])),   // 11-15
    (16, SaveNumbers([10,  5,  7,  9,  6])),   // 16-20
    (21, SaveNumbers([ 8,  3,  5,  7,  4])),   // 21+
];

/// The save table of each group, in `Group::ALL` order.
const SAVE_TABLES: [(Group, &[(u32, SaveNumbers)]); 4] = [
    (Group::Warrior, &WARRIOR_SAVES),
    (Group::Priest, &PRIEST_SAVES),
    (Group::Rogue, &ROGUE_SAVES),
    (Group::Wizard, &WIZARD_SAVES),
];

/// Character saves by group and level; level 0 of ANY group → the warrior level-0 row; levels
/// beyond a table's last band use the last band ("17+", "19+", "21+").
pub fn character_saves(group: Group, level: u32) -> SaveNumbers {
    let table = if level == 0 {
        &WARRIOR_SAVES[..]
    } else {
        SAVE_TABLES[group as usize].1
    };
    *band(table, level)
}

/// The level a monster saves at in one category: [`HitDice::save_level`]; an unintelligent
/// creature halves it (rounded up) for every category except `Ppd`; a creature below one HD uses
/// level 0.
pub fn monster_save_level(hd: HitDice, intelligent: bool, category: SaveCategory) -> u32 {
    let level = hd.save_level();
    if intelligent || category == SaveCategory::Ppd {
        level
    } else {
        level.div_ceil(2)
    }
}

/// Monster saves: the warrior row for [`monster_save_level`] per category (level 0 → the warrior
/// level-0 row).
pub fn monster_saves(hd: HitDice, intelligent: bool) -> SaveNumbers {
    let mut saves = SaveNumbers([0; 5]);
    for category in SaveCategory::ALL {
        let level = monster_save_level(hd, intelligent, category);
        saves.set(category, band(&WARRIOR_SAVES, level).get(category));
    }
    saves
}

// ---------------------------------------------------------------------------------------------
// Strength
// ---------------------------------------------------------------------------------------------

/// A Strength score 1-25 with the exceptional percentile of an 18 (1..=100 where 100 is written
/// "00"; 0 = none).
///
/// Ordering: 17 < 18 < 18/01 < ... < 18/99 < 18/00 < 19. Written `"16"`, `"18/76"`, `"18/00"`;
/// serialized as that text and read from it (or from a bare number such as `16`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Strength {
    score: u8,
    exceptional: u8,
}

/// Lowest and highest Strength score of PHB Table 1.
const STRENGTH_MIN: u8 = 1;
const STRENGTH_MAX: u8 = 25;
/// The only score that has an exceptional percentile.
const EXCEPTIONAL_SCORE: u8 = 18;
/// The percentile written "00", the top of 18.
const PERCENTILE_00: u8 = 100;
/// How much a one-handed grab lowers a score other than 18 (the text: "15 becomes 12").
const ONE_HAND_DROP: i32 = 3;

const STRENGTH_EXPECTED: &str = "a score 1-25, or 18/01 to 18/00 for exceptional strength";

/// Builds a table key; only for the tables below (no range check).
const fn st(score: u8, exceptional: u8) -> Strength {
    Strength { score, exceptional }
}

/// PHB Table 1 (docs/rules.md §1; 1 and 2 from the reference): (first Strength of the band, hit
/// adjustment, damage adjustment).
#[rustfmt::skip]
const STRENGTH_TABLE: [(Strength, (i32, i32)); 21] = [
    // from          hit  dmg
    (st( 1,   0), (-5, -4)),
    (st( 2,   0), (-3, -2)),
    (st( 3,   0), (-3, -1)),
    (st( 4,   0), (-2, -1)),   // 4-5
    (st( 6,   0), (-1,  0)),   // 6-7
    (st( 8,   0), ( 0,  0)),   // 8-15
    (st(16,   0), ( 0,  1)),
    (st(17,   0), ( 1,  1)),
    (st(18,   0), ( 1,  2)),
    (st(18,   1), ( 1,  3)),   // 18/01-50
    (st(18,  51), ( 2,  3)),   // 18/51-75
    (st(18,  76), ( 2,  4)),   // 18/76-90
    (st(18,  91), ( 2,  5)),   // 18/91-99
    (st(18, 100), ( 3,  6)),   // 18/00
    (st(19,   0), ( 3,  7)),
    (st(20,   0), ( 3,  8)),
    (st(21,   0), ( 4,  9)),
    (st(22,   0), ( 4, 10)),
    (st(23,   0), ( 5, 11)),
    (st(24,   0), ( 6, 12)),
    (st(25,   0), ( 7, 14)),
];

/// The text's one-handed grab table for 18s: (first Strength of the band, what it drops to).
#[rustfmt::skip]
const ONE_HAND_EIGHTEENS: [(Strength, Strength); 6] = [
    (st(18,   0), st(15,  0)),   // 18        → 15
    (st(18,   1), st(16,  0)),   // 18/01-50  → 16
    (st(18,  51), st(17,  0)),   // 18/51-75  → 17
    (st(18,  76), st(18,  0)),   // 18/76-90  → 18
    (st(18,  91), st(18,  1)),   // 18/91-99  → 18/01
    (st(18, 100), st(18, 51)),   // 18/00     → 18/51
];

impl Strength {
    /// A plain score 1..=25 (scenario validation narrows characters to 3-25; the table covers
    /// 1-25 as PHB Table 1 does).
    pub fn new(score: u8) -> Result<Strength, ValueError> {
        if (STRENGTH_MIN..=STRENGTH_MAX).contains(&score) {
            Ok(st(score, 0))
        } else {
            Err(ValueError::new(
                "strength",
                score.to_string(),
                STRENGTH_EXPECTED,
            ))
        }
    }

    /// An exceptional 18/pp, `percentile` 1..=100 (100 is "18/00").
    pub fn exceptional(percentile: u8) -> Result<Strength, ValueError> {
        if (1..=PERCENTILE_00).contains(&percentile) {
            Ok(st(EXCEPTIONAL_SCORE, percentile))
        } else {
            Err(ValueError::new(
                "strength",
                format!("18/{percentile:02}"),
                STRENGTH_EXPECTED,
            ))
        }
    }

    /// The score, 1..=25 (18 for any 18/xx).
    pub fn score(&self) -> u8 {
        self.score
    }

    /// The exceptional percentile 1..=100 (100 = "00"), or 0 if there is none.
    pub fn percentile(&self) -> u8 {
        self.exceptional
    }

    /// Whether this is an 18/xx.
    pub fn is_exceptional(&self) -> bool {
        self.exceptional != 0
    }

    fn adjustments(&self) -> (i32, i32) {
        *band(&STRENGTH_TABLE, *self)
    }

    /// Strength hit adjustment (docs/rules.md §1 Strength table, every 18/xx band).
    pub fn hit_adjustment(&self) -> i32 {
        self.adjustments().0
    }

    /// Strength damage adjustment (docs/rules.md §1 Strength table, every 18/xx band).
    pub fn damage_adjustment(&self) -> i32 {
        self.adjustments().1
    }

    /// Strength for one-handed grabbing of a person (the text's table): 18/00 → 18/51,
    /// 18/91-99 → 18/01, 18/76-90 → 18, 18/51-75 → 17, 18/01-50 → 16, 18 → 15; any other score −3,
    /// never below 1.
    pub fn one_hand(&self) -> Strength {
        if self.score == EXCEPTIONAL_SCORE {
            *band(&ONE_HAND_EIGHTEENS, *self)
        } else {
            self.modified(-ONE_HAND_DROP)
        }
    }

    /// This score plus a whole modifier (grab size modifiers): an 18/xx loses its percentile
    /// ("becomes 18 + modifier"); clamped to 1..=25. A zero modifier returns `self` unchanged
    /// (keeps the percentile).
    pub fn modified(&self, by: i32) -> Strength {
        if by == 0 {
            return *self;
        }
        let score = i32::from(self.score)
            .saturating_add(by)
            .clamp(i32::from(STRENGTH_MIN), i32::from(STRENGTH_MAX));
        // Clamped to 1..=25 just above, so the conversion cannot fail.
        st(u8::try_from(score).unwrap_or(STRENGTH_MAX), 0)
    }
}

impl FromStr for Strength {
    type Err = ValueError;

    /// Reads "16", "18/76", "18/00" (surrounding spaces allowed). The percentile is exactly two
    /// digits, 01 to 99 or 00, and only after 18.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ValueError::new("strength", s, STRENGTH_EXPECTED);
        let text = s.trim();
        let (score_text, percentile_text) = match text.split_once('/') {
            Some((score, percentile)) => (score, Some(percentile)),
            None => (text, None),
        };
        let score = parse_small_number(score_text)
            .and_then(|n| u8::try_from(n).ok())
            .ok_or_else(err)?;
        match percentile_text {
            None => Strength::new(score).map_err(|_| err()),
            Some(p) => {
                if score != EXCEPTIONAL_SCORE || p.len() != 2 {
                    return Err(err());
                }
                let percentile = parse_small_number(p).ok_or_else(err)?;
                let percentile = if percentile == 0 {
                    PERCENTILE_00
                } else {
                    u8::try_from(percentile).map_err(|_| err())? // two digits: at most 99
                };
                Strength::exceptional(percentile).map_err(|_| err())
            }
        }
    }
}

impl fmt::Display for Strength {
    /// Writes "16", "18/05", "18/00".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.exceptional {
            0 => write!(f, "{}", self.score),
            PERCENTILE_00 => write!(f, "{}/00", self.score),
            p => write!(f, "{}/{:02}", self.score, p),
        }
    }
}

impl Serialize for Strength {
    /// Serialized as its text, e.g. `"18/76"`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Strength {
    /// Read from its text (`"18/76"`) or from a bare score (`16`).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(TextOrNumber(PhantomData, STRENGTH_EXPECTED))
    }
}

// ---------------------------------------------------------------------------------------------
// Dexterity
// ---------------------------------------------------------------------------------------------

/// PHB Table 2, defensive adjustment for Dexterity 1..=25 (index 0 is Dexterity 1). docs/rules.md §1
/// gives 3-18; 1-2 and 19-25 come from the reference.
#[rustfmt::skip]
const DEXTERITY_DEFENSE: [i32; 25] = [
    // 1   2   3   4   5   6   7   8   9  10  11  12  13
       5,  5,  4,  3,  2,  1,  0,  0,  0,  0,  0,  0,  0,
    //14  15  16  17  18  19  20  21  22  23  24  25
       0, -1, -2, -3, -4, -4, -4, -5, -5, -5, -6, -6,
];

/// Dexterity defensive adjustment (added to AC): PHB Table 2 for 1-25 (3: +4, 4: +3, 5: +2, 6: +1,
/// 7-14: 0, 15: −1, 16: −2, 17: −3, 18: −4; 1-2: +5, 19-20: −4, 21-23: −5, 24-25: −6). Out of
/// range clamps to the nearest row.
pub fn dexterity_defense(dex: u8) -> i32 {
    let index = usize::from(dex.clamp(1, 25)) - 1;
    DEXTERITY_DEFENSE[index]
}

// ---------------------------------------------------------------------------------------------
// Punching and wrestling
// ---------------------------------------------------------------------------------------------

/// One row of the punching/wrestling column (PHB Table 58), chosen by the MODIFIED attack roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BrawlRow {
    /// The punch's name ("Haymaker").
    pub punch: &'static str,
    /// Punch damage before the Strength damage adjustment (0, 1 or 2).
    pub punch_damage: i32,
    /// Chance in percent that the punch knocks out (stuns 1d10 rounds).
    pub ko_percent: u32,
    /// The wrestling move's name ("Bear hug").
    pub wrestle: &'static str,
    /// The wrestling move is a hold (marked * in the table).
    pub hold: bool,
}

const fn row(
    punch: &'static str,
    punch_damage: i32,
    ko_percent: u32,
    wrestle: &'static str,
    hold: bool,
) -> BrawlRow {
    BrawlRow {
        punch,
        punch_damage,
        ko_percent,
        wrestle,
        hold,
    }
}

/// Highest row of the column ("20+").
const BRAWL_TOP_ROLL: i32 = 20;
/// Lowest row of the column ("<1"), stored as roll 0.
const BRAWL_BOTTOM_ROLL: i32 = 0;
const HOLD: bool = true;
const MOVE: bool = false;

/// PHB Table 58 = DMG Table 43 (docs/rules.md §6), from "20+" down to "<1": index = 20 − roll.
#[rustfmt::skip]
const BRAWL_COLUMN: [BrawlRow; 21] = [
    //    punch            dmg  %KO  wrestle        hold?       roll
    row("Haymaker",         2,  10, "Bear hug",     HOLD),   // 20+
    row("Wild swing",       0,   1, "Arm twist",    MOVE),   // 19
    row("Rabbit punch",     1,   3, "Kick",         MOVE),   // 18
    row("Kidney punch",     1,   5, "Trip",         MOVE),   // 17
    row("Glancing blow",    1,   2, "Elbow smash",  MOVE),   // 16
    row("Jab",              2,   6, "Arm lock",     HOLD),   // 15
    row("Uppercut",         1,   8, "Leg twist",    MOVE),   // 14
    row("Hook",             2,   9, "Leg lock",     MOVE),   // 13 (no asterisk in the PHB)
    row("Kidney punch",     1,   5, "Throw",        MOVE),   // 12
    row("Hook",             2,  10, "Gouge",        MOVE),   // 11
    row("Glancing blow",    1,   3, "Elbow smash",  MOVE),   // 10
    row("Combination",      1,  10, "Leg lock",     HOLD),   // 9
    row("Uppercut",         1,   9, "Headlock",     HOLD),   // 8
    row("Combination",      2,  10, "Throw",        MOVE),   // 7
    row("Jab",              2,   8, "Gouge",        MOVE),   // 6
    row("Glancing blow",    1,   3, "Kick",         MOVE),   // 5
    row("Rabbit punch",     2,   5, "Arm lock",     HOLD),   // 4
    row("Hook",             2,  12, "Gouge",        MOVE),   // 3
    row("Uppercut",         2,  15, "Headlock",     HOLD),   // 2
    row("Wild swing",       0,   2, "Leg twist",    MOVE),   // 1
    row("Haymaker",         2,  25, "Bear hug",     HOLD),   // <1
];

/// The punching/wrestling row for a modified attack roll: 20 and above → the "20+" row; below 1 →
/// the "<1" row. Holds (*) are on 20+, 15, 9, 8, 4, 2 and <1 (13 Leg lock is NOT a hold).
pub fn brawl_row(modified_roll: i32) -> &'static BrawlRow {
    let roll = modified_roll.clamp(BRAWL_BOTTOM_ROLL, BRAWL_TOP_ROLL);
    // roll is 0..=20, so the index is 0..=20.
    &BRAWL_COLUMN[(BRAWL_TOP_ROLL - roll) as usize]
}

/// One row of the martial arts column (CFH; docs/rules.md §6 "Martial arts").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MartialArtsRow {
    /// The maneuver ("Head punch").
    pub maneuver: &'static str,
    /// Damage before the Strength damage adjustment.
    pub damage: i32,
    /// Chance in percent that it knocks out (stuns 1d10 rounds, as a punch's).
    pub ko_percent: u32,
}

const fn ma(maneuver: &'static str, damage: i32, ko_percent: u32) -> MartialArtsRow {
    MartialArtsRow {
        maneuver,
        damage,
        ko_percent,
    }
}

/// Lowest row of the martial arts column ("1 or less").
const MARTIAL_ARTS_BOTTOM_ROLL: i32 = 1;

/// The Complete Fighter's Handbook's martial arts column (docs/rules.md §6), from "20+" down to "1 or
/// less": index = 20 − roll.
#[rustfmt::skip]
const MARTIAL_ARTS_COLUMN: [MartialArtsRow; 20] = [
    //  maneuver        dmg %KO      roll
    ma("Head punch",    3,  15),  // 20+
    ma("High kick",     2,  10),  // 19
    ma("Vitals kick",   2,   8),  // 18
    ma("Vitals punch",  2,   5),  // 17
    ma("Head bash",     2,   5),  // 16
    ma("Side kick",     1,   3),  // 15
    ma("Elbow shot",    1,   1),  // 14
    ma("Body punch",    1,   2),  // 13
    ma("Low kick",      1,   1),  // 12
    ma("Graze",         0,   1),  // 11
    ma("Body punch",    1,   2),  // 10
    ma("Low kick",      1,   1),  // 9
    ma("Body punch",    1,   2),  // 8
    ma("Knee shot",     1,   3),  // 7
    ma("Side kick",     1,   5),  // 6
    ma("Head bash",     2,  10),  // 5
    ma("Vitals punch",  2,  10),  // 4
    ma("Vitals kick",   2,  15),  // 3
    ma("High kick",     2,  20),  // 2
    ma("Head punch",    3,  30),  // 1 or less
];

/// The martial arts row for a roll: 20 and above → "20+"; 1 and below → "1 or less".
pub fn martial_arts_row(roll: i32) -> &'static MartialArtsRow {
    let roll = roll.clamp(MARTIAL_ARTS_BOTTOM_ROLL, BRAWL_TOP_ROLL);
    &MARTIAL_ARTS_COLUMN[(BRAWL_TOP_ROLL - roll) as usize]
}

// ---------------------------------------------------------------------------------------------
// Armor
// ---------------------------------------------------------------------------------------------

/// The armor a combatant wears (`armor_type`), for the wrestling penalty of PHB Table 57.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum ArmorType {
    /// No armor.
    None,
    /// Padded armor.
    Padded,
    /// Leather armor.
    Leather,
    /// Hide armor.
    Hide,
    /// Studded leather.
    StuddedLeather,
    /// Ring mail.
    Ring,
    /// Scale mail.
    Scale,
    /// Chain mail.
    Chain,
    /// Brigandine.
    Brigandine,
    /// Banded mail.
    Banded,
    /// Splint mail.
    Splint,
    /// Plate mail.
    Plate,
    /// Field plate.
    FieldPlate,
    /// Full plate.
    FullPlate,
}

/// One row of the armor table: the armor, its canonical (serde) name, other accepted names, and the
/// wrestling penalty of PHB Table 57 (docs/rules.md §6).
struct ArmorRow {
    armor: ArmorType,
    name: &'static str,
    aliases: &'static [&'static str],
    wrestling_penalty: i32,
}

const fn armor(
    armor: ArmorType,
    name: &'static str,
    aliases: &'static [&'static str],
    wrestling_penalty: i32,
) -> ArmorRow {
    ArmorRow {
        armor,
        name,
        aliases,
        wrestling_penalty,
    }
}

/// Every armor type in declaration order. Brigandine is not listed in Table 57: no penalty.
#[rustfmt::skip]
const ARMOR_TABLE: [ArmorRow; 14] = [
    //     armor                      name               aliases            wrestling penalty
    armor(ArmorType::None,           "none",            &[],                  0),
    armor(ArmorType::Padded,         "padded",          &[],                  0),
    armor(ArmorType::Leather,        "leather",         &[],                  0),
    armor(ArmorType::Hide,           "hide",            &[],                  0),
    armor(ArmorType::StuddedLeather, "studded_leather", &[],                 -1),
    armor(ArmorType::Ring,           "ring",            &["ring mail"],      -2),
    armor(ArmorType::Scale,          "scale",           &["scale mail"],     -2),
    armor(ArmorType::Chain,          "chain",           &["chain mail"],     -2),
    armor(ArmorType::Brigandine,     "brigandine",      &[],                  0),
    armor(ArmorType::Banded,         "banded",          &["banded mail"],    -5),
    armor(ArmorType::Splint,         "splint",          &["splint mail"],    -5),
    armor(ArmorType::Plate,          "plate",           &["plate mail"],     -5),
    armor(ArmorType::FieldPlate,     "field_plate",     &[],                 -8),
    armor(ArmorType::FullPlate,      "full_plate",      &[],                -10),
];

const ARMOR_EXPECTED: &str = "one of none, padded, leather, hide, studded leather, ring (mail), \
     scale (mail), chain (mail), brigandine, banded (mail), splint (mail), plate (mail), \
     field plate, full plate";

impl ArmorType {
    /// The canonical names, in table order.
    pub fn names() -> impl Iterator<Item = &'static str> {
        ARMOR_TABLE.iter().map(|r| r.name)
    }

    /// Every name an armor is read from: canonical names and their aliases, in table order.
    pub fn spellings() -> impl Iterator<Item = &'static str> + Clone {
        ARMOR_TABLE
            .iter()
            .flat_map(|r| std::iter::once(r.name).chain(r.aliases.iter().copied()))
    }

    fn row(&self) -> &'static ArmorRow {
        &ARMOR_TABLE[*self as usize]
    }

    /// The canonical name, as serialized: "studded_leather".
    pub fn name(&self) -> &'static str {
        self.row().name
    }
}

impl FromStr for ArmorType {
    type Err = ValueError;

    /// Reads an armor name, ignoring case, spaces, `_` and `-` alike ("studded leather",
    /// "field_plate", "FULL-PLATE"); "plate mail", "chain mail", "ring mail", "scale mail",
    /// "banded mail" and "splint mail" are accepted too.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = normalize_name(s);
        ARMOR_TABLE
            .iter()
            .find(|r| {
                normalize_name(r.name) == wanted
                    || r.aliases.iter().any(|a| normalize_name(a) == wanted)
            })
            .map(|r| r.armor)
            .ok_or_else(|| ValueError::new("armor type", s, ARMOR_EXPECTED))
    }
}

impl TryFrom<String> for ArmorType {
    type Error = ValueError;

    /// Same as [`FromStr`]; lets serde read any accepted spelling.
    fn try_from(value: String) -> Result<Self, Self::Error> {
        value.parse()
    }
}

impl fmt::Display for ArmorType {
    /// Writes the canonical name ("studded_leather").
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every armor with its wrestler's penalty, in table order (the reference's list).
pub fn armor_penalties() -> impl Iterator<Item = (&'static str, i32)> {
    ARMOR_TABLE.iter().map(|r| (r.name, r.wrestling_penalty))
}

/// Penalty to a wrestler's attack for wearing this armor: studded leather −1; chain, ring, scale
/// −2; banded, splint, plate −5; field plate −8; full plate −10; everything else 0. (Brigandine is
/// 0: not listed.)
pub fn wrestling_armor_penalty(armor: ArmorType) -> i32 {
    armor.row().wrestling_penalty
}

// ---------------------------------------------------------------------------------------------
// Sizes
// ---------------------------------------------------------------------------------------------

/// Creature size categories, ordered smallest first. Written as the letter ("M"); also read from
/// the full names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String")]
pub enum Size {
    /// Tiny: up to 2 ft.
    T,
    /// Small: over 2 ft to 4 ft.
    S,
    /// Man-sized: over 4 ft to 7 ft.
    M,
    /// Large: over 7 ft to 12 ft.
    L,
    /// Huge: over 12 ft to 25 ft.
    H,
    /// Gargantuan: over 25 ft.
    G,
}

/// One size band (docs/rules.md §1 Sizes): letter, full names, the middle height used when a
/// combatant has none, and the band's top height.
struct SizeRow {
    size: Size,
    letter: &'static str,
    names: &'static [&'static str],
    middle_ft: f64,
    max_ft: f64,
}

const fn size(
    size: Size,
    letter: &'static str,
    names: &'static [&'static str],
    middle_ft: f64,
    max_ft: f64,
) -> SizeRow {
    SizeRow {
        size,
        letter,
        names,
        middle_ft,
        max_ft,
    }
}

/// The size bands, smallest first, in declaration order.
#[rustfmt::skip]
const SIZE_TABLE: [SizeRow; 6] = [
    //    size      letter  names                        middle ft  up to ft
    size(Size::T,  "T",    &["tiny"],                    1.0,       2.0),
    size(Size::S,  "S",    &["small"],                   3.0,       4.0),
    size(Size::M,  "M",    &["medium", "man-sized"],     5.5,       7.0),
    size(Size::L,  "L",    &["large"],                   9.5,      12.0),
    size(Size::H,  "H",    &["huge"],                   18.5,      25.0),
    size(Size::G,  "G",    &["gargantuan"],             30.0, f64::INFINITY),
];

const SIZE_EXPECTED: &str =
    "one of T, S, M, L, H, G (or tiny, small, medium/man-sized, large, huge, gargantuan)";

impl Size {
    /// The letter: "M".
    pub fn letter(self) -> &'static str {
        self.row().letter
    }

    /// Every name a size is read from: the letters, then the full names.
    pub fn spellings() -> impl Iterator<Item = &'static str> + Clone {
        SIZE_TABLE
            .iter()
            .map(|r| r.letter)
            .chain(SIZE_TABLE.iter().flat_map(|r| r.names.iter().copied()))
    }

    /// All sizes, smallest first.
    pub const ALL: [Size; 6] = [Size::T, Size::S, Size::M, Size::L, Size::H, Size::G];

    fn row(&self) -> &'static SizeRow {
        &SIZE_TABLE[*self as usize]
    }

    /// The middle of the size band, the default height: T 1.0, S 3.0, M 5.5, L 9.5, H 18.5,
    /// G 30.0 ft.
    pub fn middle_height_ft(&self) -> f64 {
        self.row().middle_ft
    }

    /// The size band of a height in feet: T ≤ 2, S ≤ 4, M ≤ 7, L ≤ 12, H ≤ 25, G above. A negative
    /// height is T; NaN falls through to G (heights are validated elsewhere).
    pub fn from_height_ft(h: f64) -> Size {
        SIZE_TABLE
            .iter()
            .find(|r| h <= r.max_ft)
            .map_or(Size::G, |r| r.size)
    }
}

impl FromStr for Size {
    type Err = ValueError;

    /// Reads a letter T, S, M, L, H, G or a full name (tiny, small, medium, man-sized, large, huge,
    /// gargantuan), ignoring case, spaces, `_` and `-`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = normalize_name(s);
        SIZE_TABLE
            .iter()
            .find(|r| {
                normalize_name(r.letter) == wanted
                    || r.names.iter().any(|n| normalize_name(n) == wanted)
            })
            .map(|r| r.size)
            .ok_or_else(|| ValueError::new("size", s, SIZE_EXPECTED))
    }
}

impl TryFrom<String> for Size {
    type Error = ValueError;

    /// Same as [`FromStr`]; lets serde read letters and full names.
    fn try_from(value: String) -> Result<Self, Self::Error> {
        value.parse()
    }
}

impl fmt::Display for Size {
    /// Writes the letter ("M").
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.row().letter)
    }
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::IntoDeserializer;
    use serde::de::value::{Error as DeError, I64Deserializer, StrDeserializer, U64Deserializer};

    fn hd(text: &str) -> HitDice {
        text.parse()
            .unwrap_or_else(|e| panic!("{text} should parse: {e}"))
    }

    fn strength(text: &str) -> Strength {
        text.parse()
            .unwrap_or_else(|e| panic!("{text} should parse: {e}"))
    }

    fn from_str_value<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, DeError> {
        let d: StrDeserializer<'_, DeError> = text.into_deserializer();
        T::deserialize(d)
    }

    fn from_u64_value<T: for<'de> Deserialize<'de>>(n: u64) -> Result<T, DeError> {
        let d: U64Deserializer<DeError> = n.into_deserializer();
        T::deserialize(d)
    }

    fn from_i64_value<T: for<'de> Deserialize<'de>>(n: i64) -> Result<T, DeError> {
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

    // --- character THAC0 -------------------------------------------------------------------

    const THAC0_EDGE_LEVELS: [u32; 14] = [0, 1, 2, 3, 4, 6, 7, 9, 10, 12, 13, 19, 20, 21];

    fn assert_thac0_edges(group: Group, expected: [i32; 14]) {
        for (level, want) in THAC0_EDGE_LEVELS.into_iter().zip(expected) {
            assert_eq!(
                character_thac0(group, level),
                want,
                "{group:?} level {level}"
            );
        }
    }

    #[test]
    fn warrior_thac0_at_every_band_edge() {
        assert_thac0_edges(
            Group::Warrior,
            [20, 20, 19, 18, 17, 15, 14, 12, 11, 9, 8, 2, 1, 1],
        );
    }

    #[test]
    fn priest_thac0_at_every_band_edge() {
        assert_thac0_edges(
            Group::Priest,
            [20, 20, 20, 20, 18, 18, 16, 16, 14, 14, 12, 8, 8, 8],
        );
    }

    #[test]
    fn rogue_thac0_at_every_band_edge() {
        assert_thac0_edges(
            Group::Rogue,
            [20, 20, 20, 19, 19, 18, 17, 16, 16, 15, 14, 11, 11, 11],
        );
    }

    #[test]
    fn wizard_thac0_at_every_band_edge() {
        assert_thac0_edges(
            Group::Wizard,
            [20, 20, 20, 20, 19, 19, 18, 18, 17, 17, 16, 14, 14, 14],
        );
    }

    #[test]
    fn thac0_table_follows_the_phb_improvement_rates_at_every_level() {
        // PHB Table 54: warrior 1 per level, priest 2 per 3, rogue 1 per 2, wizard 1 per 3.
        for level in 1..=20_i32 {
            let l = level as u32;
            assert_eq!(character_thac0(Group::Warrior, l), 21 - level);
            assert_eq!(
                character_thac0(Group::Priest, l),
                20 - 2 * ((level - 1) / 3)
            );
            assert_eq!(character_thac0(Group::Rogue, l), 20 - (level - 1) / 2);
            assert_eq!(character_thac0(Group::Wizard, l), 20 - (level - 1) / 3);
        }
    }

    #[test]
    fn level_0_of_every_group_has_thac0_20() {
        for group in Group::ALL {
            assert_eq!(character_thac0(group, 0), 20);
        }
    }

    #[test]
    fn levels_above_20_use_the_level_20_thac0() {
        for group in Group::ALL {
            let top = character_thac0(group, 20);
            for level in [21, 30, 100, u32::MAX] {
                assert_eq!(character_thac0(group, level), top);
            }
        }
    }

    // --- Hit Dice -------------------------------------------------------------------------

    #[test]
    fn hit_dice_parse_into_their_parts() {
        assert_eq!(
            hd("4+1"),
            HitDice {
                whole: 4,
                modifier: 1,
                half: false
            }
        );
        assert_eq!(
            hd("1-1"),
            HitDice {
                whole: 1,
                modifier: -1,
                half: false
            }
        );
        assert_eq!(
            hd("1/2"),
            HitDice {
                whole: 0,
                modifier: 0,
                half: true
            }
        );
        assert_eq!(
            hd("12+2"),
            HitDice {
                whole: 12,
                modifier: 2,
                half: false
            }
        );
        assert_eq!(
            hd("4"),
            HitDice {
                whole: 4,
                modifier: 0,
                half: false
            }
        );
        assert_eq!(hd(" 6+6 "), hd("6+6"));
        assert_eq!(hd("½"), HitDice::HALF);
        assert_eq!(hd("100+100").modifier, 100);
        assert_eq!(hd("100-100").modifier, -100);
    }

    #[test]
    fn hit_dice_display_round_trips() {
        for text in ["4+1", "1-1", "1/2", "4", "12+2", "6+6", "100-100", "1"] {
            assert_eq!(hd(text).to_string(), text);
        }
        assert_eq!(hd("4+0").to_string(), "4");
    }

    #[test]
    fn hit_dice_reject_zero_negative_fractions_and_out_of_range() {
        for text in [
            "", " ", "0", "-1", "-1+1", "0+1", "0-1", "1/3", "2/2", "1/2+1", "1/", "/2", "101",
            "4+101", "4-101", "1000", "4+", "4-", "+", "-", "+4", "4++1", "4+-1", "4-+1", "4+1+1",
            "4 + 1", "4.5", "a", "4a", "four", "1d8", "٤", "４",
        ] {
            let result: Result<HitDice, _> = text.parse();
            let e = result.expect_err(text);
            assert_eq!(e.what, "hit dice");
            assert_eq!(e.input, text);
        }
    }

    #[test]
    fn below_one_is_half_or_one_with_a_malus() {
        assert!(hd("1/2").below_one());
        assert!(hd("1-1").below_one());
        assert!(!hd("1").below_one());
        assert!(!hd("1+1").below_one());
        assert!(!hd("2-1").below_one());
    }

    #[test]
    fn monster_level_is_whole_dice_without_modifier() {
        assert_eq!(hd("4+1").level(), 4);
        assert_eq!(hd("1-1").level(), 1);
        assert_eq!(hd("1/2").level(), 0);
        assert_eq!(hd("12+2").level(), 12);
    }

    #[test]
    fn bonus_of_3_or_more_counts_as_the_next_die_for_thac0() {
        assert_eq!(hd("4+1").thac0_dice(), 4);
        assert_eq!(hd("6+6").thac0_dice(), 7);
        assert_eq!(hd("2+2").thac0_dice(), 2);
        assert_eq!(hd("2+3").thac0_dice(), 3);
        assert_eq!(hd("1-1").thac0_dice(), 1);
        assert_eq!(hd("1/2").thac0_dice(), 0);
    }

    #[test]
    fn save_level_adds_one_per_4_bonus_points_or_fraction() {
        assert_eq!(hd("4+1").save_level(), 5);
        assert_eq!(hd("5+6").save_level(), 7);
        assert_eq!(hd("4+4").save_level(), 5);
        assert_eq!(hd("4+5").save_level(), 6);
        assert_eq!(hd("6+6").save_level(), 8);
        assert_eq!(hd("4").save_level(), 4);
        assert_eq!(hd("2-1").save_level(), 2);
        assert_eq!(hd("1-1").save_level(), 0);
        assert_eq!(hd("1/2").save_level(), 0);
    }

    // --- monster THAC0 --------------------------------------------------------------------

    #[test]
    fn ogre_4_plus_1_has_thac0_17() {
        assert_eq!(monster_thac0(hd("4+1")), 17);
    }

    #[test]
    fn nightmare_6_plus_6_has_thac0_13() {
        assert_eq!(monster_thac0(hd("6+6")), 13);
    }

    #[test]
    fn hill_giant_12_plus_2_has_thac0_9() {
        assert_eq!(monster_thac0(hd("12+2")), 9);
    }

    #[test]
    fn below_one_hit_die_has_thac0_20() {
        assert_eq!(monster_thac0(hd("1-1")), 20);
        assert_eq!(monster_thac0(hd("1/2")), 20);
    }

    #[test]
    fn monster_thac0_at_every_band_edge() {
        for (text, want) in [
            ("1", 19),
            ("1+2", 19),
            ("1+3", 19),
            ("2", 19),
            ("2+2", 19),
            ("2+3", 17),
            ("3", 17),
            ("4", 17),
            ("5", 15),
            ("6", 15),
            ("7", 13),
            ("8", 13),
            ("9", 11),
            ("10", 11),
            ("11", 9),
            ("12", 9),
            ("13", 7),
            ("14", 7),
            ("14+3", 5),
            ("15", 5),
            ("20", 5),
            ("100+100", 5),
        ] {
            assert_eq!(monster_thac0(hd(text)), want, "{text}");
        }
    }

    // --- saving throws --------------------------------------------------------------------

    /// Checks every level of the inclusive band `from..=to` against a full row.
    fn assert_save_bands(group: Group, bands: &[(u32, u32, [i32; 5])]) {
        for &(from, to, want) in bands {
            for level in from..=to {
                assert_eq!(
                    character_saves(group, level),
                    SaveNumbers(want),
                    "{group:?} level {level}"
                );
            }
        }
    }

    #[test]
    fn warrior_saves_match_rules_table_at_every_level() {
        assert_save_bands(
            Group::Warrior,
            &[
                (0, 0, [16, 18, 17, 20, 19]),
                (1, 2, [14, 16, 15, 17, 17]),
                (3, 4, [13, 15, 14, 16, 16]),
                (5, 6, [11, 13, 12, 13, 14]),
                (7, 8, [10, 12, 11, 12, 13]),
                (9, 10, [8, 10, 9, 9, 11]),
                (11, 12, [7, 9, 8, 8, 10]),
                (13, 14, [5, 7, 6, 5, 8]),
                (15, 16, [4, 6, 5, 4, 7]),
                (17, 30, [3, 5, 4, 4, 6]),
            ],
        );
    }

    #[test]
    fn priest_saves_match_rules_table_at_every_level() {
        assert_save_bands(
            Group::Priest,
            &[
                (1, 3, [10, 14, 13, 16, 15]),
                (4, 6, [9, 13, 12, 15, 14]),
                (7, 9, [7, 11, 10, 13, 12]),
                (10, 12, [6, 10, 9, 12, 11]),
                (13, 15, [5, 9, 8, 11, 10]),
                (16, 18, [4, 8, 7, 10, 9]),
                (19, 30, [2, 6, 5, 8, 7]),
            ],
        );
    }

    #[test]
    fn rogue_saves_match_rules_table_at_every_level() {
        assert_save_bands(
            Group::Rogue,
            &[
                (1, 4, [13, 14, 12, 16, 15]),
                (5, 8, [12, 12, 11, 15, 13]),
                (9, 12, [11, 10, 10, 14, 11]),
                (13, 16, [10, 8, 9, 13, 9]),
                (17, 20, [9, 6, 8, 12, 7]),
                (21, 30, [8, 4, 7, 11, 5]),
            ],
        );
    }

    #[test]
    fn wizard_saves_match_rules_table_at_every_level() {
        assert_save_bands(
            Group::Wizard,
            &[
                (1, 5, [14, 11, 13, 15, 12]),
                (6, 10, [13, 9, 11, 13, 10]),
                (11, 15, [11, 7, 9, 11, 8]),
                (16, 20, [10, 5, 7, 9, 6]),
                (21, 30, [8, 3, 5, 7, 4]),
            ],
        );
    }

    #[test]
    fn rogue_21_plus_row_is_8_4_7_11_5() {
        assert_eq!(
            character_saves(Group::Rogue, 21),
            SaveNumbers([8, 4, 7, 11, 5])
        );
    }

    #[test]
    fn level_0_of_every_group_saves_on_the_warrior_0_row() {
        for group in Group::ALL {
            assert_eq!(
                character_saves(group, 0),
                SaveNumbers([16, 18, 17, 20, 19]),
                "{group:?}"
            );
        }
    }

    #[test]
    fn levels_beyond_the_last_band_use_the_last_band() {
        for level in [100, u32::MAX] {
            assert_eq!(
                character_saves(Group::Warrior, level),
                character_saves(Group::Warrior, 17)
            );
            assert_eq!(
                character_saves(Group::Priest, level),
                character_saves(Group::Priest, 19)
            );
            assert_eq!(
                character_saves(Group::Rogue, level),
                character_saves(Group::Rogue, 21)
            );
            assert_eq!(
                character_saves(Group::Wizard, level),
                character_saves(Group::Wizard, 21)
            );
        }
    }

    #[test]
    fn save_numbers_get_and_set_by_category() {
        let mut saves = character_saves(Group::Warrior, 5);
        assert_eq!(saves.get(SaveCategory::Ppd), 11);
        assert_eq!(saves.get(SaveCategory::Rsw), 13);
        assert_eq!(saves.get(SaveCategory::Pp), 12);
        assert_eq!(saves.get(SaveCategory::Bw), 13);
        assert_eq!(saves.get(SaveCategory::Spell), 14);
        saves.set(SaveCategory::Pp, 3);
        assert_eq!(saves, SaveNumbers([11, 13, 3, 13, 14]));
    }

    #[test]
    fn save_category_keys_parse_and_display() {
        for c in SaveCategory::ALL {
            assert_eq!(c.key().parse::<SaveCategory>(), Ok(c));
            assert_eq!(c.to_string(), c.key());
        }
        assert_eq!("PP".parse::<SaveCategory>(), Ok(SaveCategory::Pp));
        assert_eq!("spell".parse::<SaveCategory>(), Ok(SaveCategory::Spell));
        assert!("petrify".parse::<SaveCategory>().is_err());
    }

    #[test]
    fn ogre_saves_at_level_5_needing_12_vs_petrification() {
        let ogre = hd("4+1");
        assert_eq!(monster_save_level(ogre, true, SaveCategory::Pp), 5);
        assert_eq!(monster_saves(ogre, true).get(SaveCategory::Pp), 12);
        assert_eq!(monster_saves(ogre, true), SaveNumbers([11, 13, 12, 13, 14]));
    }

    #[test]
    fn intelligent_5_plus_6_saves_at_level_7_in_every_category() {
        for c in SaveCategory::ALL {
            assert_eq!(monster_save_level(hd("5+6"), true, c), 7, "{c:?}");
        }
        assert_eq!(
            monster_saves(hd("5+6"), true),
            SaveNumbers([10, 12, 11, 12, 13])
        );
    }

    #[test]
    fn unintelligent_5_plus_6_saves_at_level_4_except_7_vs_poison_and_death() {
        for c in SaveCategory::ALL {
            let want = if c == SaveCategory::Ppd { 7 } else { 4 };
            assert_eq!(monster_save_level(hd("5+6"), false, c), want, "{c:?}");
        }
        // PPD from the 7-8 row, the rest from the 3-4 row.
        assert_eq!(
            monster_saves(hd("5+6"), false),
            SaveNumbers([10, 15, 14, 16, 16])
        );
    }

    #[test]
    fn below_one_hit_die_saves_on_the_level_0_row() {
        for text in ["1-1", "1/2"] {
            for intelligent in [true, false] {
                for c in SaveCategory::ALL {
                    assert_eq!(monster_save_level(hd(text), intelligent, c), 0);
                }
                assert_eq!(
                    monster_saves(hd(text), intelligent),
                    SaveNumbers([16, 18, 17, 20, 19]),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn unintelligent_1_hit_die_saves_at_level_1() {
        for c in SaveCategory::ALL {
            assert_eq!(monster_save_level(hd("1"), false, c), 1, "{c:?}");
        }
        assert_eq!(
            monster_saves(hd("1"), false),
            SaveNumbers([14, 16, 15, 17, 17])
        );
    }

    #[test]
    fn hill_giant_12_plus_2_saves_at_level_13() {
        assert_eq!(monster_save_level(hd("12+2"), true, SaveCategory::Pp), 13);
        assert_eq!(
            monster_saves(hd("12+2"), true),
            SaveNumbers([5, 7, 6, 5, 8])
        );
    }

    #[test]
    fn huge_monsters_save_on_the_warrior_17_plus_row() {
        assert_eq!(
            monster_saves(hd("100+100"), true),
            SaveNumbers([3, 5, 4, 4, 6])
        );
    }

    // --- Strength -------------------------------------------------------------------------

    #[test]
    fn strength_parses_plain_and_exceptional_scores() {
        let s = strength("16");
        assert_eq!(
            (s.score(), s.percentile(), s.is_exceptional()),
            (16, 0, false)
        );
        let s = strength("18/76");
        assert_eq!(
            (s.score(), s.percentile(), s.is_exceptional()),
            (18, 76, true)
        );
        let s = strength("18/00");
        assert_eq!((s.score(), s.percentile()), (18, 100));
        let s = strength("18/01");
        assert_eq!((s.score(), s.percentile()), (18, 1));
        let s = strength(" 18 ");
        assert_eq!((s.score(), s.percentile()), (18, 0));
        assert_eq!(strength("1").score(), 1);
        assert_eq!(strength("25").score(), 25);
    }

    #[test]
    fn strength_rejects_malformed_and_out_of_range_text() {
        for text in [
            "18/0", "18/101", "18/100", "17/50", "19/50", "26", "0", "abc", "18/", "/50", "", " ",
            "-3", "+3", "18/-1", "18/+1", "18/5", "18/ 50", "18 /50", "18/50/1", "1 8", "255",
            "256", "18.5", "１８",
        ] {
            let e = text.parse::<Strength>().expect_err(text);
            assert_eq!(e.what, "strength");
            assert_eq!(e.input, text);
            assert_eq!(e.expected, STRENGTH_EXPECTED);
        }
    }

    #[test]
    fn strength_constructors_check_their_range() {
        assert!(Strength::new(0).is_err());
        assert!(Strength::new(26).is_err());
        assert_eq!(Strength::new(17), Ok(strength("17")));
        assert!(Strength::exceptional(0).is_err());
        assert!(Strength::exceptional(101).is_err());
        assert_eq!(Strength::exceptional(100), Ok(strength("18/00")));
        assert_eq!(Strength::exceptional(5), Ok(strength("18/05")));
    }

    #[test]
    fn strength_display_round_trips_every_value() {
        for score in 1..=25 {
            let s = Strength::new(score).expect("valid score");
            assert_eq!(s.to_string().parse::<Strength>(), Ok(s));
        }
        for p in 1..=100 {
            let s = Strength::exceptional(p).expect("valid percentile");
            assert_eq!(s.to_string().parse::<Strength>(), Ok(s));
        }
        assert_eq!(strength("18/05").to_string(), "18/05");
        assert_eq!(strength("18/00").to_string(), "18/00");
        assert_eq!(strength("18/50").to_string(), "18/50");
        assert_eq!(strength(" 9 ").to_string(), "9");
    }

    #[test]
    fn strength_orders_18_below_18_01_below_18_99_below_18_00_below_19() {
        let order = ["17", "18", "18/01", "18/50", "18/99", "18/00", "19"].map(strength);
        for pair in order.windows(2) {
            assert!(pair[0] < pair[1], "{} < {}", pair[0], pair[1]);
        }
    }

    #[test]
    fn strength_hit_and_damage_at_every_band_edge() {
        for (text, hit, dmg) in [
            ("1", -5, -4),
            ("2", -3, -2),
            ("3", -3, -1),
            ("4", -2, -1),
            ("5", -2, -1),
            ("6", -1, 0),
            ("7", -1, 0),
            ("8", 0, 0),
            ("15", 0, 0),
            ("16", 0, 1),
            ("17", 1, 1),
            ("18", 1, 2),
            ("18/01", 1, 3),
            ("18/50", 1, 3),
            ("18/51", 2, 3),
            ("18/75", 2, 3),
            ("18/76", 2, 4),
            ("18/90", 2, 4),
            ("18/91", 2, 5),
            ("18/99", 2, 5),
            ("18/00", 3, 6),
            ("19", 3, 7),
            ("20", 3, 8),
            ("21", 4, 9),
            ("22", 4, 10),
            ("23", 5, 11),
            ("24", 6, 12),
            ("25", 7, 14),
        ] {
            let s = strength(text);
            assert_eq!(
                (s.hit_adjustment(), s.damage_adjustment()),
                (hit, dmg),
                "{text}"
            );
        }
    }

    #[test]
    fn one_hand_grab_drops_strength_by_the_texts_table() {
        for (from, to) in [
            ("18/00", "18/51"),
            ("18/91", "18/01"),
            ("18/99", "18/01"),
            ("18/76", "18"),
            ("18/90", "18"),
            ("18/51", "17"),
            ("18/75", "17"),
            ("18/01", "16"),
            ("18/50", "16"),
            ("18", "15"),
            ("17", "14"),
            ("15", "12"),
            ("19", "16"),
            ("25", "22"),
            ("4", "1"),
            ("3", "1"),
            ("1", "1"),
        ] {
            assert_eq!(strength(from).one_hand(), strength(to), "{from}");
        }
    }

    #[test]
    fn modified_strength_loses_the_percentile_and_clamps() {
        assert_eq!(strength("18/76").modified(2), strength("20"));
        assert!(!strength("18/76").modified(2).is_exceptional());
        assert_eq!(strength("18/00").modified(-6), strength("12"));
        assert_eq!(strength("18/76").modified(0), strength("18/76"));
        assert_eq!(strength("18/76").modified(-2), strength("16"));
        assert_eq!(strength("17").modified(1), strength("18"));
        assert_eq!(strength("24").modified(3), strength("25"));
        assert_eq!(strength("3").modified(-6), strength("1"));
        assert_eq!(strength("10").modified(i32::MAX), strength("25"));
        assert_eq!(strength("10").modified(i32::MIN), strength("1"));
    }

    // --- Dexterity ------------------------------------------------------------------------

    #[test]
    fn dexterity_defense_for_every_score_3_to_18() {
        let want = [4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, -1, -2, -3, -4];
        for (dex, want) in (3..=18).zip(want) {
            assert_eq!(dexterity_defense(dex), want, "dex {dex}");
        }
    }

    #[test]
    fn dexterity_defense_beyond_3_to_18_and_clamping() {
        for (dex, want) in [
            (0, 5),
            (1, 5),
            (2, 5),
            (19, -4),
            (20, -4),
            (21, -5),
            (22, -5),
            (23, -5),
            (24, -6),
            (25, -6),
            (26, -6),
            (255, -6),
        ] {
            assert_eq!(dexterity_defense(dex), want, "dex {dex}");
        }
    }

    // --- punching and wrestling -----------------------------------------------------------

    #[test]
    fn brawl_column_matches_rules_table_row_by_row() {
        #[rustfmt::skip]
        let want: [(i32, &str, i32, u32, &str, bool); 21] = [
            (20, "Haymaker", 2, 10, "Bear hug", true),
            (19, "Wild swing", 0, 1, "Arm twist", false),
            (18, "Rabbit punch", 1, 3, "Kick", false),
            (17, "Kidney punch", 1, 5, "Trip", false),
            (16, "Glancing blow", 1, 2, "Elbow smash", false),
            (15, "Jab", 2, 6, "Arm lock", true),
            (14, "Uppercut", 1, 8, "Leg twist", false),
            (13, "Hook", 2, 9, "Leg lock", false),
            (12, "Kidney punch", 1, 5, "Throw", false),
            (11, "Hook", 2, 10, "Gouge", false),
            (10, "Glancing blow", 1, 3, "Elbow smash", false),
            (9, "Combination", 1, 10, "Leg lock", true),
            (8, "Uppercut", 1, 9, "Headlock", true),
            (7, "Combination", 2, 10, "Throw", false),
            (6, "Jab", 2, 8, "Gouge", false),
            (5, "Glancing blow", 1, 3, "Kick", false),
            (4, "Rabbit punch", 2, 5, "Arm lock", true),
            (3, "Hook", 2, 12, "Gouge", false),
            (2, "Uppercut", 2, 15, "Headlock", true),
            (1, "Wild swing", 0, 2, "Leg twist", false),
            (0, "Haymaker", 2, 25, "Bear hug", true),
        ];
        for (roll, punch, punch_damage, ko_percent, wrestle, hold) in want {
            assert_eq!(
                *brawl_row(roll),
                BrawlRow {
                    punch,
                    punch_damage,
                    ko_percent,
                    wrestle,
                    hold
                },
                "roll {roll}"
            );
        }
    }

    #[test]
    fn martial_arts_column_matches_the_cfh_row_by_row() {
        let expected: [(i32, &str, i32, u32); 20] = [
            (20, "Head punch", 3, 15),
            (19, "High kick", 2, 10),
            (18, "Vitals kick", 2, 8),
            (17, "Vitals punch", 2, 5),
            (16, "Head bash", 2, 5),
            (15, "Side kick", 1, 3),
            (14, "Elbow shot", 1, 1),
            (13, "Body punch", 1, 2),
            (12, "Low kick", 1, 1),
            (11, "Graze", 0, 1),
            (10, "Body punch", 1, 2),
            (9, "Low kick", 1, 1),
            (8, "Body punch", 1, 2),
            (7, "Knee shot", 1, 3),
            (6, "Side kick", 1, 5),
            (5, "Head bash", 2, 10),
            (4, "Vitals punch", 2, 10),
            (3, "Vitals kick", 2, 15),
            (2, "High kick", 2, 20),
            (1, "Head punch", 3, 30),
        ];
        for (roll, maneuver, damage, ko) in expected {
            assert_eq!(
                *martial_arts_row(roll),
                MartialArtsRow {
                    maneuver,
                    damage,
                    ko_percent: ko
                },
                "roll {roll}"
            );
        }
        assert_eq!(martial_arts_row(27), martial_arts_row(20));
        assert_eq!(martial_arts_row(-4), martial_arts_row(1));
    }

    #[test]
    fn roll_25_uses_the_20_plus_row() {
        assert_eq!(brawl_row(25), brawl_row(20));
        assert_eq!(brawl_row(i32::MAX), brawl_row(20));
        assert_eq!(brawl_row(25).ko_percent, 10);
    }

    #[test]
    fn roll_minus_3_uses_the_below_1_row() {
        assert_eq!(brawl_row(-3), brawl_row(0));
        assert_eq!(brawl_row(i32::MIN), brawl_row(0));
        assert_eq!(brawl_row(-3).ko_percent, 25);
        assert_eq!(brawl_row(-3).wrestle, "Bear hug");
    }

    #[test]
    fn holds_are_exactly_20_15_9_8_4_2_and_below_1() {
        let holds: Vec<i32> = (0..=20).rev().filter(|&r| brawl_row(r).hold).collect();
        assert_eq!(holds, vec![20, 15, 9, 8, 4, 2, 0]);
    }

    #[test]
    fn leg_lock_at_13_is_not_a_hold_but_at_9_it_is() {
        assert_eq!(brawl_row(13).wrestle, "Leg lock");
        assert!(!brawl_row(13).hold);
        assert_eq!(brawl_row(9).wrestle, "Leg lock");
        assert!(brawl_row(9).hold);
    }

    // --- armor ----------------------------------------------------------------------------

    #[test]
    fn wrestling_armor_penalties_follow_phb_table_57() {
        use ArmorType::*;
        for (armor, want) in [
            (None, 0),
            (Padded, 0),
            (Leather, 0),
            (Hide, 0),
            (StuddedLeather, -1),
            (Ring, -2),
            (Scale, -2),
            (Chain, -2),
            (Brigandine, 0),
            (Banded, -5),
            (Splint, -5),
            (Plate, -5),
            (FieldPlate, -8),
            (FullPlate, -10),
        ] {
            assert_eq!(wrestling_armor_penalty(armor), want, "{armor:?}");
        }
    }

    #[test]
    fn armor_names_match_ignoring_case_spaces_underscores_and_dashes() {
        use ArmorType::*;
        for (text, want) in [
            ("studded leather", StuddedLeather),
            ("Studded_Leather", StuddedLeather),
            ("field_plate", FieldPlate),
            ("FULL-PLATE", FullPlate),
            ("full plate", FullPlate),
            ("plate mail", Plate),
            ("plate", Plate),
            ("chain mail", Chain),
            ("chainmail", Chain),
            ("Chain-Mail", Chain),
            ("ring mail", Ring),
            ("scale mail", Scale),
            ("banded mail", Banded),
            ("splint mail", Splint),
            ("none", None),
            (" NONE ", None),
            ("brigandine", Brigandine),
            ("hide", Hide),
            ("padded", Padded),
            ("leather", Leather),
        ] {
            assert_eq!(text.parse::<ArmorType>(), Ok(want), "{text}");
        }
    }

    #[test]
    fn every_armor_round_trips_through_its_name() {
        for row in &ARMOR_TABLE {
            assert_eq!(row.armor.to_string(), row.name);
            assert_eq!(row.name.parse::<ArmorType>(), Ok(row.armor));
        }
    }

    #[test]
    fn unknown_armor_lists_the_valid_names() {
        let e = "mithril".parse::<ArmorType>().expect_err("unknown armor");
        assert_eq!(e.what, "armor type");
        assert_eq!(e.input, "mithril");
        for row in &ARMOR_TABLE {
            assert!(
                e.expected.contains(&row.name.replace('_', " ")),
                "{} missing from {}",
                row.name,
                e.expected
            );
        }
        assert!(
            e.to_string()
                .contains("`mithril` is not a valid armor type")
        );
    }

    // --- sizes ----------------------------------------------------------------------------

    #[test]
    fn sizes_parse_from_letters_and_names_and_display_as_letters() {
        for (text, want) in [
            ("T", Size::T),
            ("s", Size::S),
            ("M", Size::M),
            ("l", Size::L),
            ("H", Size::H),
            ("g", Size::G),
            ("tiny", Size::T),
            ("Small", Size::S),
            ("medium", Size::M),
            ("man-sized", Size::M),
            ("Man Sized", Size::M),
            ("LARGE", Size::L),
            ("huge", Size::H),
            ("gargantuan", Size::G),
        ] {
            assert_eq!(text.parse::<Size>(), Ok(want), "{text}");
        }
        let letters: Vec<String> = Size::ALL.iter().map(Size::to_string).collect();
        assert_eq!(letters, ["T", "S", "M", "L", "H", "G"]);
        let e = "X".parse::<Size>().expect_err("unknown size");
        assert_eq!(e.what, "size");
    }

    #[test]
    fn sizes_are_ordered_smallest_first() {
        for pair in Size::ALL.windows(2) {
            assert!(pair[0] < pair[1]);
        }
    }

    #[test]
    fn middle_heights_lie_in_their_own_band() {
        let middles: Vec<f64> = Size::ALL.iter().map(Size::middle_height_ft).collect();
        assert_eq!(middles, [1.0, 3.0, 5.5, 9.5, 18.5, 30.0]);
        for s in Size::ALL {
            assert_eq!(Size::from_height_ft(s.middle_height_ft()), s);
        }
    }

    #[test]
    fn heights_fall_into_size_bands_at_their_edges() {
        for (h, want) in [
            (-1.0, Size::T),
            (0.0, Size::T),
            (2.0, Size::T),
            (2.01, Size::S),
            (4.0, Size::S),
            (4.01, Size::M),
            (7.0, Size::M),
            (7.5, Size::L),
            (9.0, Size::L),
            (12.0, Size::L),
            (16.0, Size::H),
            (25.0, Size::H),
            (25.01, Size::G),
            (f64::INFINITY, Size::G),
            (f64::NAN, Size::G),
        ] {
            assert_eq!(Size::from_height_ft(h), want, "{h}");
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
