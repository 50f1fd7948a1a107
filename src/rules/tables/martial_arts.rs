//! The martial arts column (CFH; docs/rules.md §6 "Martial arts"): one row per roll, as printed.

use super::brawl::BRAWL_TOP_ROLL;

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
