//! Strength, exceptional percentiles included ("18/76"): PHB Table 1's hit and damage adjustments and the
//! one-handed drop of an 18, by band as printed.

use super::*;

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
pub(super) const STRENGTH_TABLE: [(Strength, (i32, i32)); 21] = [
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
pub(super) const ONE_HAND_EIGHTEENS: [(Strength, Strength); 6] = [
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tables::tests::strength;

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
}
