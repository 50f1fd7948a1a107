//! Armor types, their names as scenarios write them, and the wrestling penalty of each (PHB Table 58's
//! notes), one row per armor.

use super::*;

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
pub(super) struct ArmorRow {
    pub(super) armor: ArmorType,
    pub(super) name: &'static str,
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
pub(super) const ARMOR_TABLE: [ArmorRow; 14] = [
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
