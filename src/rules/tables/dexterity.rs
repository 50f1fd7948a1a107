//! Dexterity's defensive adjustment (PHB Table 2), one cell per score.

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
