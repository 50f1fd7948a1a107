//! Saving throws: the PHB's tables by class group and level, and the level a monster saves as (docs/rules.md
//! §1), with the five categories in the tables' column order.

use super::*;

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
pub(super) const SAVE_TABLES: [(Group, &[(u32, SaveNumbers)]); 4] = [
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tables::tests::hd;

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
}
