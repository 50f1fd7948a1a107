//! Creature sizes: letters and names as scenarios write them, and the heights each stands for, one row
//! per size.

use super::*;

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
pub(super) struct SizeRow {
    pub(super) size: Size,
    pub(super) letter: &'static str,
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
pub(super) const SIZE_TABLE: [SizeRow; 6] = [
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
