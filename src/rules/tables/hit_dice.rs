//! Hit Dice as monsters write them ("4+1", "1-1", "1/2"): parsed once, checked, and read by the THAC0 and
//! saving-throw tables, which band monsters by them.

use super::*;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tables::tests::hd;

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
}
