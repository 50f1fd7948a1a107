//! What a scenario holds fixed, in a few words: the attacker and the victim as the file writes them, less
//! whatever a sweep or a variant changes. A chart prints it under its title, so a chart pasted alone still
//! says what was simulated (docs/scenarios.md "Charts").

use toml::{Table, Value};

use crate::scenario::Axis;
use crate::scenario::sweep::{ENTRY_FIELDS, SIDES, SweepValue, path_value, side_path};

/// `thief (human, Strength 12, club, behind) against ogre (unaware)`, then the action options and rule
/// switches the file sets for every variant. A side of several names each entry, its count before it when
/// no sweep or variant changes it: `3 × thug (fighter) against guard (long sword)`.
pub fn setting(table: &Table, axes: &[Axis]) -> String {
    let overridden = |section: &str, field: &str| -> bool {
        let swept = axes.iter().any(|a| {
            let mut parts = a.path.split('.');
            parts.next() == Some(section) && parts.next() == Some(field)
        });
        swept || varied(table, section, field)
    };
    // A field of entry `e` of side `s`: a sweep of the side, of every entry or of this one, or a variant.
    let entry_overridden = |s: usize, e: usize, field: &str| -> bool {
        let swept = axes.iter().any(|a| {
            side_path(&a.path).is_some_and(|p| {
                p.side == s && p.entry.is_none_or(|n| n == e) && p.rest.first() == Some(&field)
            })
        });
        let (one, several) = SIDES[s];
        swept || varied(table, one, field) || varied(table, several, field)
    };
    let side = |s: usize| -> String {
        let (one, several) = SIDES[s];
        let kept = |e: usize, fields: Option<&Table>| -> Vec<(String, Value)> {
            fields
                .into_iter()
                .flatten()
                .filter(|(field, _)| !ENTRY_FIELDS.contains(&field.as_str()))
                .filter(|(field, _)| !entry_overridden(s, e, field))
                .map(|(field, value)| (field.clone(), value.clone()))
                .collect()
        };
        match table.get(several) {
            Some(Value::Array(entries)) => entries
                .iter()
                .enumerate()
                .map(|(e, entry)| {
                    let fields = entry.as_table();
                    let who = person(one, &kept(e, fields));
                    match fields
                        .and_then(|f| f.get("count"))
                        .and_then(Value::as_integer)
                    {
                        Some(n) if n > 1 && !entry_overridden(s, e, "count") => {
                            format!("{n} × {who}")
                        }
                        _ => who,
                    }
                })
                .collect::<Vec<_>>()
                .join(" and "),
            _ => person(one, &kept(0, table.get(one).and_then(Value::as_table))),
        }
    };
    let mut text = format!("{} against {}", side(0), side(1));
    for section in ["action_options", "rules"] {
        let set: Vec<String> = table
            .get(section)
            .and_then(Value::as_table)
            .into_iter()
            .flatten()
            .filter(|(key, _)| !overridden(section, key))
            .filter_map(|(key, value)| detail(section, key, value))
            .collect();
        if !set.is_empty() {
            text.push_str("; ");
            text.push_str(&set.join(", "));
        }
    }
    text
}

/// Set in some variant's table `section`.
fn varied(table: &Table, section: &str, field: &str) -> bool {
    match table.get("variant") {
        Some(Value::Array(variants)) => variants.iter().any(|v| {
            v.get(section)
                .and_then(Value::as_table)
                .is_some_and(|t| t.contains_key(field))
        }),
        _ => false,
    }
}

/// A combatant in a few words from the fields the setting keeps: his name (or class, or monster), then
/// the rest in parentheses.
fn person(section: &str, kept: &[(String, Value)]) -> String {
    let text = |field: &str| -> Option<String> {
        kept.iter()
            .find(|(f, _)| f == field)
            .and_then(|(_, v)| v.as_str())
            .map(str::to_string)
    };
    let name = text("name");
    let kind = text("class").or_else(|| text("monster"));
    // Without a name, and with the class or monster swept, the chart shows who he is.
    let noun = name
        .clone()
        .or(kind.clone())
        .unwrap_or(format!("the {section} shown"));
    let details: Vec<String> = kept
        .iter()
        .filter(|(field, _)| field.as_str() != "name")
        // The class or monster is the noun when no name stands for it.
        .filter(|(field, _)| {
            name.is_some() && kind.as_deref() != name.as_deref()
                || !matches!(field.as_str(), "class" | "monster")
        })
        .filter_map(|(field, value)| detail(section, field, value))
        .collect();
    if details.is_empty() {
        noun
    } else {
        format!("{noun} ({})", details.join(", "))
    }
}

/// One field as the setting writes it: names bare (`human`, `club`), states in a word (`unaware`,
/// `behind`), numbers with their field's name (`level 3`, `Strength 18/50`).
fn detail(section: &str, field: &str, value: &Value) -> Option<String> {
    let words = |v: &Value| -> Option<String> {
        match v {
            Value::String(s) => Some(s.replace('_', " ")),
            Value::Table(t) => t.get("name").and_then(Value::as_str).map(str::to_string),
            Value::Integer(_) | Value::Float(_) | Value::Boolean(_) => {
                SweepValue::from_toml(v).map(|v| v.to_string())
            }
            Value::Array(items) => Some(
                items
                    .iter()
                    .filter_map(|i| i.as_str().map(str::to_string))
                    .collect::<Vec<_>>()
                    .join("/"),
            ),
            Value::Datetime(_) => None,
        }
    };
    let text = match (field, value) {
        ("class" | "race" | "monster" | "weapon" | "state" | "position", v) => words(v)?,
        ("backup_weapon", v) => format!("backup {}", words(v)?),
        ("opening_weapon", v) => format!("opening with {}", words(v)?),
        ("aware", Value::Boolean(false)) => "unaware".to_string(),
        ("aware", Value::Boolean(true)) => "aware".to_string(),
        ("helmet", Value::Boolean(b)) => if *b { "helmet" } else { "no helmet" }.to_string(),
        ("saves", _) => "saves set".to_string(),
        ("armor_type", v) => format!("{} armor", words(v)?),
        ("hands_free", Value::Integer(1)) => "1 hand free".to_string(),
        ("hands_free", Value::Integer(n)) => format!("{n} hands free"),
        (_, Value::Table(_) | Value::Array(_)) => {
            format!("{} {}", path_key_name(section, field), words(value)?)
        }
        (_, v) => {
            let path = format!("{section}.{field}");
            let shown = path_value(&path, &SweepValue::from_toml(v)?);
            // The side is said once, before the parentheses.
            shown
                .strip_prefix(&format!("{section} "))
                .map_or(shown.clone(), str::to_string)
        }
    };
    Some(text)
}

/// A field's name without its side.
fn path_key_name(section: &str, field: &str) -> String {
    let name = crate::scenario::sweep::path_name(&format!("{section}.{field}"));
    name.strip_prefix(&format!("{section} "))
        .map_or(name.clone(), str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setting_of(text: &str, axes: &[&str]) -> String {
        let table: Table = toml::from_str(text).unwrap();
        let axes: Vec<Axis> = axes
            .iter()
            .map(|p| Axis {
                path: p.to_string(),
                values: Vec::new(),
            })
            .collect();
        setting(&table, &axes)
    }

    #[test]
    fn the_setting_names_both_sides_in_a_few_words() {
        let text = r#"
[attacker]
class = "thief"
race = "human"
strength = "12"
weapon = "club"
position = "behind"
[victim]
monster = "ogre"
aware = false
"#;
        assert_eq!(
            setting_of(text, &[]),
            "thief (human, Strength 12, club, behind) against ogre (unaware)"
        );
    }

    #[test]
    fn what_a_sweep_or_a_variant_changes_is_left_to_the_axes_and_the_legend() {
        let text = r#"
[attacker]
name = "sapper"
class = "fighter"
level = 3
strength = "16"
[victim]
monster = "orc"
ac = 5
[rules]
helmets = true
sap_ko_cap = 60
[[variant]]
name = "asleep"
victim = { state = "asleep", ac = 7 }
rules = { sap_ko_cap = 40 }
"#;
        assert_eq!(
            setting_of(text, &["attacker.level", "victim.monster"]),
            "sapper (fighter, Strength 16) against the victim shown; helmet rule: yes"
        );
    }

    #[test]
    fn a_side_of_several_names_each_entry_with_its_count() {
        let text = r#"
[[attackers]]
name = "thug"
class = "fighter"
count = 3
[[attackers]]
name = "boss"
level = 4
[[victims]]
name = "guard"
weapon = "long sword"
"#;
        assert_eq!(
            setting_of(text, &[]),
            "3 × thug (fighter) and boss (level 4) against guard (long sword)"
        );
        // A swept count is the chart's to show; a sweep of entry 2 leaves entry 1's field in the setting.
        let text = text.replace("level = 4", "level = 4\nclass = \"thief\"");
        assert_eq!(
            setting_of(&text, &["attackers.count", "attackers.2.level"]),
            "thug (fighter) and boss (thief) against guard (long sword)"
        );
    }
}
