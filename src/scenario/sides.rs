//! Sides of several (docs/scenarios.md "Several combatants a side"): `[[attackers]]` and `[[victims]]`, each
//! table a combatant with `count` identical members and the `target` policy by which each picks his foe.
//!
//! Why the entries are type-checked here rather than by serde alone: an entry is a combatant plus two keys,
//! and serde cannot both flatten the combatant into the entry and refuse unknown keys. So the combatant part
//! of every entry is checked on its own, against the very `CombatantSpec`, from the spanned document, before
//! the file as a whole is read: a misspelt field or a wrong type points at its line as in `[attacker]`.

use serde::Deserialize;
use toml::Spanned;
use toml::de::{DeTable, DeValue, Deserializer};

use crate::rules::fight::gang::Target;
use crate::scenario::CombatantSpec;
use crate::scenario::locate::{ScenarioError, Source};
use crate::scenario::sweep::{ENTRY_FIELDS, SIDES};

/// One `[[attackers]]` or `[[victims]]` table as written: a combatant, how many of him, and how each picks
/// his foe. A variant's `[variant.attackers]` is one such table, whose keys it sets on every entry.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[allow(dead_code)] // read again from the merged tables; kept here for the type check and the schema
pub(crate) struct EntrySpec {
    /// Who the members are: every field of `[attacker]`.
    #[serde(flatten)]
    combatant: CombatantSpec,
    /// How many identical members (default 1); a side has at most 64 in all.
    #[schemars(range(min = 1, max = 64))]
    count: Option<u32>,
    /// How each member picks his foe: `focus` (default: the first foe standing), `weakest`, `strongest`,
    /// `random` or `spread`.
    target: Option<Target>,
}

/// Type-checks the combatant part of every entry of the document, in the base (`[[attackers]]`) and in
/// the variants (`[variant.attackers]`), with the spans of the file.
pub(crate) fn check_entries(
    document: &Spanned<DeTable<'_>>,
    source: &Source,
) -> Result<(), ScenarioError> {
    let mut tables: Vec<&Spanned<DeValue<'_>>> = Vec::new();
    for (_, plural) in SIDES {
        if let Some(entries) = document.get_ref().get(plural) {
            match entries.get_ref() {
                DeValue::Array(items) => tables.extend(items.iter()),
                _ => tables.push(entries),
            }
        }
    }
    if let Some(variants) = document.get_ref().get("variant")
        && let DeValue::Array(items) = variants.get_ref()
    {
        for variant in items.iter() {
            if let DeValue::Table(t) = variant.get_ref() {
                tables.extend(SIDES.iter().filter_map(|(_, plural)| t.get(*plural)));
            }
        }
    }
    for value in tables {
        // Anything other than a table is the whole file's type error, reported when it is read.
        let DeValue::Table(table) = value.get_ref() else {
            continue;
        };
        let mut combatant = DeTable::new();
        for (key, value) in table.iter() {
            if !ENTRY_FIELDS.contains(&key.get_ref().as_ref()) {
                combatant.insert(key.clone(), value.clone());
            }
        }
        let sub = Spanned::new(value.span(), combatant);
        CombatantSpec::deserialize(Deserializer::from(sub)).map_err(|e| source.from_toml(&e))?;
    }
    Ok(())
}
