//! The JSON Schema (draft 2020-12) of a scenario file, for editors that complete and check TOML as it is
//! typed (taplo, Even Better TOML). It is generated from the very types the file is deserialized into
//! (`RawScenario`, `CombatantSpec`, `RuleOptions`, ...), their doc comments becoming the descriptions, so it
//! cannot drift from what `subdual check` reads.
//!
//! The schema may accept more than `check` does (a level of 20 for a monster, dice of 0 sides, a point the
//! rules forbid), never less: catalog names match as the catalog matches them (any case, with spaces, `_` and
//! `-` alike), and every value the deserializers take is in its type's schema. A test holds it to that.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde_json::{Value, json};

use crate::dice::Dice;
use crate::rules::action::Action;
use crate::rules::catalog;
use crate::rules::combatant::HitPoints;
use crate::rules::tables::{ArmorType, HitDice, Size, Strength};
use crate::scenario::RawScenario;
use crate::scenario::combatant::{InlineWeapon, WeaponSpec};
use crate::scenario::sweep::{SECTIONS, SIDES};

/// The schema of a scenario file, as `subdual schema` prints it.
pub fn scenario_schema() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let mut root = generator.into_root_schema_for::<RawScenario>().to_value();
    // What `[action_options]` may hold depends on the action: one rule per action, for the base table and
    // every variant's.
    let per_action: Vec<Value> = Action::ALL
        .iter()
        .map(|action| {
            let used = action.options_used();
            let options = if used.is_empty() {
                json!({ "maxProperties": 0 })
            } else {
                json!({ "propertyNames": { "enum": used } })
            };
            json!({
                "if": { "properties": { "action": { "const": action.name() } }, "required": ["action"] },
                "then": {
                    "properties": {
                        "action_options": options,
                        "variant": { "items": { "properties": { "action_options": options } } }
                    }
                }
            })
        })
        .collect();
    if let Some(object) = root.as_object_mut() {
        object.insert("allOf".to_string(), Value::Array(per_action));
    }
    root
}

/// Every spelling a name-matching look-up accepts: any case, and spaces, `_` and `-` anywhere between the
/// letters (a superset of both the catalog's and the tables' matching), with white space around.
fn loose_pattern<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let alternatives: Vec<String> = names
        .into_iter()
        .map(|name| {
            name.chars()
                .filter(|c| c.is_alphanumeric())
                .map(|c| {
                    let (lower, upper) = (c.to_ascii_lowercase(), c.to_ascii_uppercase());
                    if lower == upper {
                        format!("{c}[\\s_-]*")
                    } else {
                        format!("[{lower}{upper}][\\s_-]*")
                    }
                })
                .collect()
        })
        .collect();
    format!("^[\\s_-]*(?:{})$", alternatives.join("|"))
}

/// A name from a list: the canonical names for completion, or any spelling the look-up accepts.
fn names<'a>(names: impl IntoIterator<Item = &'a str> + Clone) -> Schema {
    spelled(names.clone(), names)
}

/// A name: `canonical` for completion, or any spelling of `spellings` (names and aliases).
fn spelled<'a>(
    canonical: impl IntoIterator<Item = &'a str>,
    spellings: impl IntoIterator<Item = &'a str>,
) -> Schema {
    let canonical: Vec<&str> = canonical.into_iter().collect();
    json_schema!({
        "anyOf": [
            { "enum": canonical },
            { "type": "string", "pattern": loose_pattern(spellings) }
        ]
    })
}

/// A character class of the catalog.
pub(crate) fn class_name(_: &mut SchemaGenerator) -> Schema {
    names(catalog::classes().iter().map(|c| c.name))
}

/// A PC race of the catalog.
pub(crate) fn race_name(_: &mut SchemaGenerator) -> Schema {
    names(catalog::races().iter().map(|r| r.name))
}

/// A monster of the catalog.
pub(crate) fn monster_name(_: &mut SchemaGenerator) -> Schema {
    names(catalog::monsters().iter().map(|m| m.name))
}

/// `[sweep]`: each key a path into a section, each value a list of values or a range.
pub(crate) fn sweep_table(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "object",
        "propertyNames": { "pattern": format!("^(({})\\.[A-Za-z0-9_]+(\\.[A-Za-z0-9_]+)?|({})\\.([1-9][0-9]*\\.)?[A-Za-z0-9_]+(\\.[A-Za-z0-9_]+)?)$", SECTIONS.join("|"), SIDES.map(|(_, several)| several).join("|")) },
        "additionalProperties": {
            "anyOf": [
                { "type": "array", "description": "The values, in order." },
                range_object("A range: `to` included; `step` 1 unless given.")
            ]
        }
    })
}

/// A range `{ from, to, step }`, as a sweep axis or a tune's candidates write it.
fn range_object(description: &str) -> Value {
    json!({
        "type": "object",
        "description": description,
        "properties": {
            "from": { "type": "number" },
            "to": { "type": "number" },
            "step": { "type": "number", "exclusiveMinimum": 0 }
        },
        "required": ["from", "to"],
        "additionalProperties": false
    })
}

/// A tune's `range`: `{ from, to, step }`.
pub(crate) fn range_table(_: &mut SchemaGenerator) -> Schema {
    Schema::try_from(range_object(
        "The candidate values: `to` included; `step` 1 unless given.",
    ))
    .unwrap_or_default()
}

/// A chart's `at`: sweep paths held at one value each.
pub(crate) fn at_table(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "object",
        "propertyNames": { "pattern": format!("^({}|{})\\.", SECTIONS.join("|"), SIDES.map(|(_, several)| several).join("|")) },
        "additionalProperties": { "type": ["string", "number", "boolean"] }
    })
}

/// A chart's `[low, high]`: two numbers.
pub(crate) fn number_pair(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "array",
        "items": { "type": "number" },
        "minItems": 2,
        "maxItems": 2
    })
}

impl JsonSchema for Dice {
    fn schema_name() -> Cow<'static, str> {
        "Dice".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "description": "Dice NdS+B: 1 to 100 dice of 1 to 1000 sides, an optional bonus, such as \"2d4+2\".",
            "pattern": "^\\s*[0-9]*[dD][0-9]+\\s*([+-]\\s*[0-9]+)?\\s*$",
            "examples": ["1d6", "2d8", "2d4+2"]
        })
    }
}

impl JsonSchema for HitDice {
    fn schema_name() -> Cow<'static, str> {
        "HitDice".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Hit Dice as the Monstrous Manual writes them: \"4+1\", \"1-1\", \"1/2\", or a whole number.",
            "anyOf": [
                { "type": "integer", "minimum": 1 },
                { "type": "string", "pattern": "^\\s*([0-9]+\\s*([+-]\\s*[0-9]+)?|1/2|½)\\s*$" }
            ],
            "examples": ["4+1", "1-1", "1/2", "3"]
        })
    }
}

impl JsonSchema for Strength {
    fn schema_name() -> Cow<'static, str> {
        "Strength".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A Strength score, 3 to 25, or exceptional Strength \"18/01\" to \"18/00\" (warriors who are not halflings).",
            "anyOf": [
                { "type": "integer", "minimum": 1, "maximum": 25 },
                { "type": "string", "pattern": "^\\s*([0-9]+|18/[0-9]{2})\\s*$" }
            ],
            "examples": ["16", "18/76", "18/00"]
        })
    }
}

impl JsonSchema for HitPoints {
    fn schema_name() -> Cow<'static, str> {
        "HitPoints".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Hit points: a fixed number, or dice rolled per trial such as \"4d8+1\".",
            "anyOf": [
                { "type": "integer", "minimum": 1 },
                { "type": "string", "pattern": "^\\s*[0-9]+\\s*$" },
                generator.subschema_for::<Dice>()
            ]
        })
    }
}

impl JsonSchema for Size {
    fn schema_name() -> Cow<'static, str> {
        "Size".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let mut schema = spelled(Size::ALL.map(Size::letter), Size::spellings());
        schema.insert(
            "description".to_string(),
            "A size category: T (up to 2 ft), S (2-4 ft), M (4-7 ft), L (7-12 ft), H (12-25 ft), G (over 25 ft), or its name.".into(),
        );
        schema
    }
}

impl JsonSchema for ArmorType {
    fn schema_name() -> Cow<'static, str> {
        "ArmorType".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let mut schema = spelled(ArmorType::names(), ArmorType::spellings());
        schema.insert(
            "description".to_string(),
            "The armor worn, for a wrestler's penalty.".into(),
        );
        schema
    }
}

impl JsonSchema for WeaponSpec {
    fn schema_name() -> Cow<'static, str> {
        "Weapon".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let named = names(catalog::weapon_names().collect::<Vec<_>>());
        json_schema!({
            "description": "A weapon of the catalog by name, or an inline weapon (named after a catalog weapon, it starts from its numbers).",
            "anyOf": [named, generator.subschema_for::<InlineWeapon>()]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loose_pattern_takes_every_spelling_a_look_up_takes() {
        let schema = json!({ "type": "string", "pattern": loose_pattern(["long sword", "hill giant", "half-elf"]) });
        let validator = jsonschema::validator_for(&schema).unwrap();
        for yes in [
            "long sword",
            "Long-Sword",
            "LONG_SWORD",
            " long sword ",
            "hill_giant",
            "Half Elf",
        ] {
            assert!(validator.is_valid(&json!(yes)), "{yes}");
        }
        for no in ["long swords", "sword", "ogre", ""] {
            assert!(!validator.is_valid(&json!(no)), "{no}");
        }
    }
}
