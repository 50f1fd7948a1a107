//! The `NdS+B` expression of the rules: bounds checked where it is built, parsed from what people type
//! with errors that say what was expected, printed back canonically, and carried through serde as that
//! same string.

use std::fmt;
use std::str::FromStr;

use super::Roller;

/// The most dice one [`Dice`] may roll. Bounded so that sums, ranges and exact distributions stay
/// small and cheap; no rule of the game needs more.
pub const MAX_COUNT: u32 = 100;

/// The most sides one die may have. Bounded for the same reason as [`MAX_COUNT`]; "d1000" already
/// covers every table of the rules.
pub const MAX_SIDES: u32 = 1000;

/// The largest bonus (or, negated, penalty) a [`Dice`] may carry. Bounded so that every value a
/// [`Dice`] can produce fits an `i32` with a wide margin.
pub const MAX_BONUS: i32 = 10_000;

/// The text every notation error ends with, so that a user always sees what was expected.
const EXPECTED: &str = "expected NdS with an optional +B or -B, such as \"1d8\" or \"2d4+2\"";

/// A validated dice expression `NdS+B`: `count` dice of `sides` sides each, summed, plus `bonus`.
///
/// The fields are private so that every `Dice` in the program is known to be within bounds
/// (1 to [`MAX_COUNT`] dice, 1 to [`MAX_SIDES`] sides, a bonus within ±[`MAX_BONUS`]); code that
/// rolls or analyses dice therefore never has to re-check them and can never overflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dice {
    count: u32,
    sides: u32,
    bonus: i32,
}

impl Dice {
    /// Builds a dice expression, refusing anything out of bounds so that a bad value is caught
    /// where it is written (a data file, a command line) rather than deep inside a simulation.
    ///
    /// Bounds: 1 to 100 dice, 1 to 1000 sides, a bonus from -10000 to +10000.
    pub fn new(count: u32, sides: u32, bonus: i32) -> Result<Dice, DiceError> {
        let notation = || notation(count, sides, i64::from(bonus));
        if !(1..=MAX_COUNT).contains(&count) {
            return Err(DiceError::CountOutOfRange(notation()));
        }
        if !(1..=MAX_SIDES).contains(&sides) {
            return Err(DiceError::SidesOutOfRange(notation()));
        }
        if !(-MAX_BONUS..=MAX_BONUS).contains(&bonus) {
            return Err(DiceError::BonusOutOfRange(notation()));
        }
        Ok(Dice {
            count,
            sides,
            bonus,
        })
    }

    /// Dice written into the crate's own tables (the catalog, the defaults). Bounds are checked at compile
    /// time when used in a `const`; the crate calls it only with literal, in-bounds numbers, and user input
    /// always goes through [`Dice::new`] or parsing instead.
    pub(crate) const fn of(count: u32, sides: u32, bonus: i32) -> Dice {
        assert!(count >= 1 && count <= MAX_COUNT, "dice count out of bounds");
        assert!(sides >= 1 && sides <= MAX_SIDES, "dice sides out of bounds");
        assert!(
            bonus >= -MAX_BONUS && bonus <= MAX_BONUS,
            "dice bonus out of bounds"
        );
        Dice {
            count,
            sides,
            bonus,
        }
    }

    /// How many dice are rolled (the `N` of `NdS+B`); exposed for display and analysis.
    #[inline]
    pub const fn count(&self) -> u32 {
        self.count
    }

    /// How many sides each die has (the `S` of `NdS+B`); exposed for display and analysis.
    #[inline]
    pub const fn sides(&self) -> u32 {
        self.sides
    }

    /// The fixed amount added to the sum of the dice (the `B` of `NdS+B`, negative for a penalty).
    #[inline]
    pub const fn bonus(&self) -> i32 {
        self.bonus
    }

    /// Rolls the expression: the sum of `count` dice plus the bonus.
    ///
    /// The dice are rolled in order with exactly one `die(sides)` call each, so that a scripted
    /// test can predict which face goes where and an enumerator sees one branch per die.
    /// Allocation-free and inlined, since it sits on the simulator's hot path.
    #[inline]
    pub fn roll<R: Roller + ?Sized>(&self, rng: &mut R) -> i32 {
        let mut sum = self.bonus;
        for _ in 0..self.count {
            let face = rng.die(self.sides);
            debug_assert!(
                (1..=self.sides).contains(&face),
                "a Roller returned face {face} for a d{}",
                self.sides
            );
            // Bounded by construction: at most 100 dice of at most 1000 sides plus 10000.
            sum += face as i32;
        }
        sum
    }

    /// Rolls the expression as [`Dice::roll`] does, die for die, when only `read(sum)` of the sum is
    /// used: the last die is asked for through [`Roller::die_grouped`], so that an exact walk sees one
    /// branch for each value of `read` rather than one per face (a held-back blow halves its damage, so
    /// faces a point apart often deal the same). A roller that rolls dice rolls the same faces as `roll`.
    #[inline]
    pub fn roll_read_as<R: Roller + ?Sized>(&self, rng: &mut R, read: &dyn Fn(i32) -> u32) -> i32 {
        let mut sum = self.bonus;
        for _ in 1..self.count {
            sum += rng.die(self.sides) as i32;
        }
        let last = rng.die_grouped(self.sides, &|face| read(sum + face as i32));
        sum + last as i32
    }

    /// The smallest possible result (every die shows 1); used to size tables and check rolls.
    #[inline]
    pub const fn min(&self) -> i32 {
        self.count as i32 + self.bonus
    }

    /// The largest possible result (every die shows its top face); used to size tables and check rolls.
    #[inline]
    pub const fn max(&self) -> i32 {
        (self.count * self.sides) as i32 + self.bonus
    }

    /// The expected result, `count * (sides + 1) / 2 + bonus`; a quick exact check for simulations.
    #[inline]
    pub fn mean(&self) -> f64 {
        f64::from(self.count) * (f64::from(self.sides) + 1.0) / 2.0 + f64::from(self.bonus)
    }
}

/// Renders a would-be notation for an error message, even when its parts are out of bounds.
fn notation(count: u32, sides: u32, bonus: i64) -> String {
    match bonus {
        0 => format!("{count}d{sides}"),
        b if b > 0 => format!("{count}d{sides}+{b}"),
        b => format!("{count}d{sides}{b}"),
    }
}

/// Why a dice expression was refused. Each variant carries the offending input (the trimmed text,
/// or for [`Dice::new`] the would-be notation) and its message says what was expected with an
/// example, because these messages reach the person who typed the dice.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    /// Nothing but whitespace was given where dice were expected.
    #[error("no dice given: expected NdS with an optional +B or -B, such as \"1d8\" or \"2d4+2\"")]
    Empty,
    /// The text is not in `NdS+B` form (for example `1-1`, a hit-dice notation, or a bare `3`).
    #[error(
        "`{0}` is not dice: expected NdS with an optional +B or -B, such as \"1d8\" or \"2d4+2\""
    )]
    NotDice(String),
    /// The number of dice is outside 1 to 100 (including negative or huge numbers).
    #[error("`{0}`: the number of dice must be 1 to 100, such as \"3d6\"")]
    CountOutOfRange(String),
    /// The number of sides is outside 1 to 1000 (including huge numbers).
    #[error("`{0}`: a die must have 1 to 1000 sides, such as \"1d20\"")]
    SidesOutOfRange(String),
    /// The bonus is outside -10000 to +10000 (including huge numbers).
    #[error("`{0}`: the bonus must be -10000 to +10000, such as \"1d6+2\" or \"1d6-1\"")]
    BonusOutOfRange(String),
}

/// Splits `text` into its leading ASCII digits and the rest. Byte-based, so the split always falls
/// on a character boundary whatever Unicode follows.
fn split_digits(text: &str) -> (&str, &str) {
    let len = text.bytes().take_while(u8::is_ascii_digit).count();
    text.split_at(len)
}

/// Parses dice notation, because dice are written by people (in data files and on the command line)
/// and must be checked before a simulation starts.
///
/// Grammar: surrounding whitespace is ignored; then an optional count of dice (`d6` means `1d6`),
/// `d` or `D`, the number of sides, and an optional `+B` or `-B` (spaces around the sign are
/// tolerated, spaces elsewhere are not). All numbers are unsigned decimal; a huge number is an
/// error, never a panic. A bare number (`3`) or a hit-dice range (`1-1`) is not dice.
impl FromStr for Dice {
    type Err = DiceError;

    fn from_str(input: &str) -> Result<Dice, DiceError> {
        let text = input.trim();
        if text.is_empty() {
            return Err(DiceError::Empty);
        }
        let not_dice = || DiceError::NotDice(text.to_owned());

        // First the shape; a number that is syntactically fine but does not fit a `u32` is kept as
        // `None` so that the range checks below report it, in the order count, sides, bonus.
        let Some(d_at) = text.find(['d', 'D']) else {
            return Err(not_dice());
        };
        let count_text = &text[..d_at];
        let after_d = &text[d_at + 1..];

        let (count_negative, count) = if count_text.is_empty() {
            (false, Some(1))
        } else {
            // A minus sign before the count is a negative number of dice: a range error.
            let (negative, unsigned) = match count_text.strip_prefix('-') {
                Some(tail) => (true, tail),
                None => (false, count_text),
            };
            let (digits, rest) = split_digits(unsigned);
            if digits.is_empty() || !rest.is_empty() {
                return Err(not_dice());
            }
            // Only ASCII digits remain, so a parse failure can only be overflow.
            (negative, digits.parse::<u32>().ok())
        };

        let (sides_digits, rest) = split_digits(after_d);
        if sides_digits.is_empty() {
            return Err(not_dice());
        }
        let sides = sides_digits.parse::<u32>().ok();

        let rest = rest.trim_start();
        let (bonus_negative, bonus_magnitude) = if rest.is_empty() {
            (false, Some(0))
        } else {
            let (negative, magnitude_text) = if let Some(tail) = rest.strip_prefix('+') {
                (false, tail.trim_start())
            } else if let Some(tail) = rest.strip_prefix('-') {
                (true, tail.trim_start())
            } else {
                return Err(not_dice());
            };
            let (digits, tail) = split_digits(magnitude_text);
            if digits.is_empty() || !tail.is_empty() {
                return Err(not_dice());
            }
            (negative, digits.parse::<u32>().ok())
        };

        // Then the ranges, reported with the text the user typed rather than a re-rendering of it.
        let count = count
            .filter(|c| !count_negative && (1..=MAX_COUNT).contains(c))
            .ok_or_else(|| DiceError::CountOutOfRange(text.to_owned()))?;
        let sides = sides
            .filter(|s| (1..=MAX_SIDES).contains(s))
            .ok_or_else(|| DiceError::SidesOutOfRange(text.to_owned()))?;
        let magnitude = bonus_magnitude
            .and_then(|m| i32::try_from(m).ok())
            .filter(|m| *m <= MAX_BONUS)
            .ok_or_else(|| DiceError::BonusOutOfRange(text.to_owned()))?;
        let bonus = if bonus_negative {
            -magnitude
        } else {
            magnitude
        };
        Ok(Dice {
            count,
            sides,
            bonus,
        })
    }
}

/// Prints the canonical notation ("1d8", "2d4+2", "1d6-1", a zero bonus omitted), so that reports
/// read like the rulebook and every printed value parses back to the same dice.
impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)?;
        match self.bonus {
            0 => Ok(()),
            b if b > 0 => write!(f, "+{b}"),
            b => write!(f, "{b}"),
        }
    }
}

/// Serializes as the canonical notation string, so configuration files say "2d4+2" as a person would.
impl serde::Serialize for Dice {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Deserializes from a notation string through [`FromStr`], so a bad value in a configuration file
/// is reported with the same helpful message as on the command line.
impl<'de> serde::Deserialize<'de> for Dice {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Dice, D::Error> {
        struct NotationVisitor;

        impl serde::de::Visitor<'_> for NotationVisitor {
            type Value = Dice;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a dice string: {EXPECTED}")
            }

            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Dice, E> {
                text.parse().map_err(E::custom)
            }
        }

        deserializer.deserialize_str(NotationVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::tests::dice;

    fn rejection(text: &str) -> DiceError {
        match text.parse::<Dice>() {
            Ok(dice) => panic!("{text:?} should be rejected, parsed as {dice}"),
            Err(error) => error,
        }
    }

    fn parts(d: Dice) -> (u32, u32, i32) {
        (d.count(), d.sides(), d.bonus())
    }

    // ---- parsing -------------------------------------------------------------------------------

    #[test]
    fn parses_one_d_eight() {
        assert_eq!(parts(dice("1d8")), (1, 8, 0));
    }

    #[test]
    fn parses_two_d_four_plus_two() {
        assert_eq!(parts(dice("2d4+2")), (2, 4, 2));
    }

    #[test]
    fn parses_one_d_six_plus_one() {
        assert_eq!(parts(dice("1d6+1")), (1, 6, 1));
    }

    #[test]
    fn parses_d_six_as_one_d_six() {
        assert_eq!(dice("d6"), dice("1d6"));
        assert_eq!(parts(dice("d6")), (1, 6, 0));
    }

    #[test]
    fn parses_capital_d() {
        assert_eq!(parts(dice("1D4")), (1, 4, 0));
    }

    #[test]
    fn parses_surrounding_whitespace_and_spaces_around_the_sign() {
        assert_eq!(parts(dice(" 3d6 - 1 ")), (3, 6, -1));
        assert_eq!(parts(dice("\t2d4 +2\n")), (2, 4, 2));
        assert_eq!(parts(dice("2d4+ 2")), (2, 4, 2));
    }

    #[test]
    fn parses_a_zero_bonus_and_drops_it_in_display() {
        assert_eq!(parts(dice("1d6+0")), (1, 6, 0));
        assert_eq!(dice("1d6-0").to_string(), "1d6");
    }

    #[test]
    fn parses_the_bounds() {
        assert_eq!(parts(dice("100d1000+10000")), (100, 1000, 10_000));
        assert_eq!(parts(dice("1d1-10000")), (1, 1, -10_000));
        assert_eq!(parts(dice("001d020+0003")), (1, 20, 3));
    }

    #[test]
    fn rejects_empty_input() {
        for text in ["", "   ", "\t\n"] {
            let error = rejection(text);
            assert_eq!(error, DiceError::Empty);
            assert!(error.to_string().contains("expected NdS"), "{error}");
            assert!(error.to_string().contains("\"1d8\""), "{error}");
        }
    }

    #[test]
    fn one_minus_one_is_not_dice() {
        let error = rejection("1-1");
        assert_eq!(error, DiceError::NotDice("1-1".into()));
        assert_eq!(
            error.to_string(),
            "`1-1` is not dice: expected NdS with an optional +B or -B, such as \"1d8\" or \"2d4+2\""
        );
    }

    #[test]
    fn missing_sides_is_not_dice() {
        for text in ["2d", "d", "D", "1d+2", "dd6"] {
            assert_eq!(rejection(text), DiceError::NotDice(text.into()), "{text}");
        }
        assert!(
            rejection("2d")
                .to_string()
                .starts_with("`2d` is not dice: expected NdS")
        );
    }

    #[test]
    fn a_dangling_sign_is_not_dice() {
        for text in ["1d6+", "1d6-", "1d6 + "] {
            let error = rejection(text);
            assert_eq!(error, DiceError::NotDice(text.trim().into()), "{text}");
            assert!(error.to_string().contains("optional +B or -B"), "{error}");
        }
    }

    #[test]
    fn a_doubled_sign_is_not_dice() {
        for text in ["1d6++2", "1d6+-2", "1d6--2", "1d6 + + 2"] {
            assert_eq!(rejection(text), DiceError::NotDice(text.into()), "{text}");
        }
        assert!(rejection("1d6++2").to_string().contains("\"2d4+2\""));
    }

    #[test]
    fn a_bare_number_is_not_dice() {
        for text in ["3", "-3", "+3", "18"] {
            let error = rejection(text);
            assert_eq!(error, DiceError::NotDice(text.into()), "{text}");
            assert!(error.to_string().contains("is not dice"), "{error}");
        }
    }

    #[test]
    fn spaces_inside_the_dice_are_not_dice() {
        for text in ["1 d6", "1d 6", "1 d 6", "1d6 2", "1d6+2 3"] {
            assert_eq!(rejection(text), DiceError::NotDice(text.into()), "{text}");
        }
    }

    #[test]
    fn trailing_or_leading_junk_is_not_dice() {
        for text in [
            "1d6x", "x1d6", "+1d6", "1d6+2d4", "1d6d6", "1.5d6", "1d6.5", "1d6+1.5",
        ] {
            assert_eq!(rejection(text), DiceError::NotDice(text.into()), "{text}");
        }
    }

    #[test]
    fn a_negative_count_is_out_of_range() {
        let error = rejection("-1d6");
        assert_eq!(error, DiceError::CountOutOfRange("-1d6".into()));
        assert_eq!(
            error.to_string(),
            "`-1d6`: the number of dice must be 1 to 100, such as \"3d6\""
        );
        assert_eq!(rejection("--1d6"), DiceError::NotDice("--1d6".into()));
    }

    #[test]
    fn zero_or_too_many_dice_is_out_of_range() {
        for text in ["0d6", "101d6", "000d6"] {
            let error = rejection(text);
            assert_eq!(error, DiceError::CountOutOfRange(text.into()));
            assert!(
                error
                    .to_string()
                    .starts_with(&format!("`{text}`: the number of dice must be 1 to 100")),
                "{error}"
            );
        }
    }

    #[test]
    fn zero_or_too_many_sides_is_out_of_range() {
        for text in ["1d0", "1d1001", "d0"] {
            let error = rejection(text);
            assert_eq!(error, DiceError::SidesOutOfRange(text.into()));
            assert!(
                error
                    .to_string()
                    .starts_with(&format!("`{text}`: a die must have 1 to 1000 sides")),
                "{error}"
            );
        }
    }

    #[test]
    fn a_bonus_beyond_ten_thousand_is_out_of_range() {
        for text in [
            "1d6+10001",
            "1d6-10001",
            "1d6 - 4294967295",
            "1d6+2147483648",
        ] {
            let error = rejection(text);
            assert_eq!(error, DiceError::BonusOutOfRange(text.into()), "{text}");
            assert!(
                error
                    .to_string()
                    .contains("the bonus must be -10000 to +10000"),
                "{error}"
            );
        }
    }

    #[test]
    fn huge_numbers_are_range_errors_not_panics() {
        let huge = "9".repeat(400);
        let count = format!("{huge}d6");
        assert_eq!(rejection(&count), DiceError::CountOutOfRange(count.clone()));
        let negative_count = format!("-{huge}d6");
        assert_eq!(
            rejection(&negative_count),
            DiceError::CountOutOfRange(negative_count.clone())
        );
        let sides = format!("1d{huge}");
        assert_eq!(rejection(&sides), DiceError::SidesOutOfRange(sides.clone()));
        let bonus = format!("1d6+{huge}");
        assert_eq!(rejection(&bonus), DiceError::BonusOutOfRange(bonus.clone()));
        assert_eq!(
            rejection("4294967296d6"),
            DiceError::CountOutOfRange("4294967296d6".into())
        );
    }

    #[test]
    fn the_first_problem_is_reported() {
        assert!(matches!(
            rejection("0d0+99999"),
            DiceError::CountOutOfRange(_)
        ));
        assert!(matches!(
            rejection("1d0+99999"),
            DiceError::SidesOutOfRange(_)
        ));
        assert!(matches!(rejection("-5d0"), DiceError::CountOutOfRange(_)));
        assert!(matches!(
            rejection("1d99999999999-99999999999"),
            DiceError::SidesOutOfRange(_)
        ));
        // The shape is checked before any range: a malformed tail makes it not dice at all.
        assert!(matches!(rejection("0d6+"), DiceError::NotDice(_)));
    }

    #[test]
    fn no_string_makes_the_parser_panic() {
        let long_digits = "1234567890".repeat(1000);
        let mut inputs: Vec<String> = [
            "",
            " ",
            "d",
            "D",
            "dD",
            "1d",
            "1dd",
            "d+",
            "+",
            "-",
            "+-",
            "1-1",
            "1d6+",
            "1d6++2",
            "1d6 -",
            "-d6",
            "-0d6",
            "0-1d6",
            "１d６",
            "١d٦",
            "1d６",
            "🎲",
            "1d🎲",
            "🎲d6",
            "1d6🎲",
            "1d6+🎲",
            "é",
            "1dé6",
            "1d6\u{301}",
            "\u{feff}1d6",
            "1d6\u{0}",
            "\u{0}",
            "1\u{2009}d6",
            "\u{2003}1d6\u{2003}",
            "1d6 +\u{3000}2",
            "ß",
            "Ⅾ6",
            "1ᴅ6",
            "1d6+١",
            "1d6+2+3",
            "1d6-+2",
            "1d-6",
            "1d+6",
            "d-1",
            "1d6e3",
            "0x1d6",
            "1_000d6",
            "1d1_000",
            "NaN",
            "inf",
            "dddddddd",
            "1d6 \n+ 2",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        inputs.push(long_digits.clone());
        inputs.push(format!("{long_digits}d{long_digits}+{long_digits}"));
        inputs.push(format!("d{long_digits}"));
        inputs.push(format!("1d6-{long_digits}"));
        inputs.push(format!("-{long_digits}"));
        inputs.push("d".repeat(10_000));
        inputs.push("🎲".repeat(1000));
        // Every string of up to four characters over an alphabet of the grammar's own pieces.
        let alphabet = ['1', '0', '9', 'd', 'D', '+', '-', ' ', 'x', 'é'];
        let mut frontier = vec![String::new()];
        for _ in 0..4 {
            frontier = frontier
                .iter()
                .flat_map(|prefix| {
                    alphabet.iter().map(move |c| {
                        let mut s = prefix.clone();
                        s.push(*c);
                        s
                    })
                })
                .collect();
            inputs.extend(frontier.iter().cloned());
        }
        assert!(inputs.len() > 11_000);
        for input in &inputs {
            if let Ok(parsed) = input.parse::<Dice>() {
                // Anything accepted is in bounds and prints back to itself.
                assert_eq!(
                    Dice::new(parsed.count(), parsed.sides(), parsed.bonus()),
                    Ok(parsed)
                );
                assert_eq!(parsed.to_string().parse::<Dice>(), Ok(parsed), "{input:?}");
            } else if let Err(error) = input.parse::<Dice>() {
                assert!(!error.to_string().is_empty());
            }
        }
    }

    // ---- construction and display ----------------------------------------------------------------

    #[test]
    fn new_accepts_the_bounds_and_rejects_beyond_them() {
        assert!(Dice::new(1, 1, 0).is_ok());
        assert!(Dice::new(100, 1000, 10_000).is_ok());
        assert!(Dice::new(100, 1000, -10_000).is_ok());
        assert!(matches!(
            Dice::new(0, 6, 0),
            Err(DiceError::CountOutOfRange(_))
        ));
        assert!(matches!(
            Dice::new(101, 6, 0),
            Err(DiceError::CountOutOfRange(_))
        ));
        assert!(matches!(
            Dice::new(1, 0, 0),
            Err(DiceError::SidesOutOfRange(_))
        ));
        assert!(matches!(
            Dice::new(1, 1001, 0),
            Err(DiceError::SidesOutOfRange(_))
        ));
        assert!(matches!(
            Dice::new(1, 6, 10_001),
            Err(DiceError::BonusOutOfRange(_))
        ));
        assert!(matches!(
            Dice::new(1, 6, i32::MIN),
            Err(DiceError::BonusOutOfRange(_))
        ));
    }

    #[test]
    fn new_errors_name_the_would_be_notation() {
        assert_eq!(
            Dice::new(0, 6, 0),
            Err(DiceError::CountOutOfRange("0d6".into()))
        );
        assert_eq!(
            Dice::new(0, 6, 0).map_err(|e| e.to_string()),
            Err("`0d6`: the number of dice must be 1 to 100, such as \"3d6\"".into())
        );
        assert_eq!(
            Dice::new(1, 0, 0).map_err(|e| e.to_string()),
            Err("`1d0`: a die must have 1 to 1000 sides, such as \"1d20\"".into())
        );
        assert_eq!(
            Dice::new(1, 6, i32::MIN),
            Err(DiceError::BonusOutOfRange("1d6-2147483648".into()))
        );
        assert_eq!(
            Dice::new(1, 6, 20_000),
            Err(DiceError::BonusOutOfRange("1d6+20000".into()))
        );
    }

    #[test]
    fn display_is_canonical() {
        assert_eq!(dice("1d8").to_string(), "1d8");
        assert_eq!(dice("2d4+2").to_string(), "2d4+2");
        assert_eq!(dice("1d6-1").to_string(), "1d6-1");
        assert_eq!(dice(" D6 ").to_string(), "1d6");
        assert_eq!(dice(" 3D6 - 1 ").to_string(), "3d6-1");
        assert_eq!(dice("02d04+02").to_string(), "2d4+2");
    }

    #[test]
    fn display_round_trips_through_parse() {
        let mut checked = 0;
        for count in [1, 2, 3, 7, 10, 99, 100] {
            for sides in [1, 2, 3, 4, 6, 8, 10, 12, 20, 100, 999, 1000] {
                for bonus in [-10_000, -999, -10, -1, 0, 1, 2, 17, 10_000] {
                    let original = Dice::new(count, sides, bonus).expect("in bounds");
                    let text = original.to_string();
                    assert_eq!(text.parse::<Dice>(), Ok(original), "{text}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 7 * 12 * 9);
    }

    // ---- serde ----------------------------------------------------------------------------------

    #[test]
    fn serde_deserializes_from_a_json_string() {
        let parsed: Dice = serde_json::from_str("\"2d4+2\"").expect("valid dice");
        assert_eq!(parts(parsed), (2, 4, 2));
        let spaced: Dice = serde_json::from_str("\" 3d6 - 1 \"").expect("valid dice");
        assert_eq!(parts(spaced), (3, 6, -1));
    }

    #[test]
    fn serde_serializes_as_the_display_string() {
        assert_eq!(
            serde_json::to_string(&dice("2D4 + 2")).ok(),
            Some("\"2d4+2\"".into())
        );
        for text in ["1d8", "1d6-1", "100d1000+10000"] {
            let json = serde_json::to_string(&dice(text)).expect("serializes");
            assert_eq!(json, format!("\"{text}\""));
            assert_eq!(serde_json::from_str::<Dice>(&json).ok(), Some(dice(text)));
        }
    }

    #[test]
    fn serde_rejects_a_bad_string_with_the_expected_format() {
        let error = serde_json::from_str::<Dice>("\"1-1\"").expect_err("not dice");
        let message = error.to_string();
        assert!(message.contains("`1-1` is not dice"), "{message}");
        assert!(
            message
                .contains("expected NdS with an optional +B or -B, such as \"1d8\" or \"2d4+2\""),
            "{message}"
        );
        let error = serde_json::from_str::<Dice>("\"0d6\"").expect_err("no dice");
        assert!(
            error
                .to_string()
                .contains("the number of dice must be 1 to 100")
        );
    }

    #[test]
    fn serde_rejects_a_non_string() {
        let error = serde_json::from_str::<Dice>("3").expect_err("a number is not dice");
        assert!(error.to_string().contains("a dice string"), "{error}");
    }

    // ---- rolling through what is read ------------------------------------------------------------

    #[test]
    fn a_roll_read_as_a_value_takes_the_same_faces_as_a_plain_roll() {
        for text in ["1d12+3", "3d6", "2d4-1"] {
            let d = dice(text);
            let faces: Vec<u32> = (0..d.count()).map(|k| d.sides() - k % d.sides()).collect();
            let plain = d.roll(&mut crate::dice::Scripted::new(faces.clone()));
            let read = d.roll_read_as(&mut crate::dice::Scripted::new(faces), &|sum| {
                (sum / 2) as u32
            });
            assert_eq!(read, plain, "{text}");
        }
    }

    #[test]
    fn an_exact_walk_of_a_roll_read_as_a_value_sees_each_value_once_with_its_odds() {
        // 2d6+1 read as its half: the walk of `roll_read_as` gives every half with the probability the
        // walk of `roll` gives it, in fewer leaves.
        let d = dice("2d6+1");
        let half = |sum: i32| (sum / 2) as u32;
        let odds = |grouped: bool| {
            let mut by_half = std::collections::BTreeMap::<u32, f64>::new();
            let walk = crate::dice::Enumerator::walk(
                |e| match grouped {
                    true => d.roll_read_as(e, &half),
                    false => d.roll(e),
                },
                |sum, n, den| *by_half.entry(half(sum)).or_default() += n as f64 / den as f64,
            );
            (by_half, walk.leaves)
        };
        let (plain, plain_leaves) = odds(false);
        let (read, read_leaves) = odds(true);
        assert_eq!(
            plain.keys().collect::<Vec<_>>(),
            read.keys().collect::<Vec<_>>()
        );
        for (k, p) in &plain {
            assert!(
                (p - read[k]).abs() < 1e-15,
                "half {k}: {p} against {}",
                read[k]
            );
        }
        assert_eq!(plain_leaves, 36);
        assert!(read_leaves < plain_leaves, "{read_leaves} leaves");
    }
}
