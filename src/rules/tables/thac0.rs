//! THAC0: the PHB's table of characters by class group and level, and DMG Table 39 of monsters by Hit
//! Dice (docs/rules.md §1). Rows in the books' order, so each can be checked against the page.

use super::*;

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
pub(super) const CHARACTER_THAC0: [(Group, [i32; 20]); 4] = [
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

/// DMG Table 39 (docs/rules.md §1): monster THAC0 by the first [`HitDice::thac0_dice`] of each band.
/// The 0 row ("1/2 or less", "1-1") is reached through [`HitDice::below_one`].
#[rustfmt::skip]
pub(super) const MONSTER_THAC0: [(u32, i32); 9] = [
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tables::tests::hd;

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
}
