//! The punching and wrestling column (PHB Table 58): one row per modified roll, printed top to bottom as
//! the book prints it, with its holds marked.

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
pub(super) const BRAWL_TOP_ROLL: i32 = 20;
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
