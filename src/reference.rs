//! The reference lists of `docs/` (switches, fields, action options, metrics, catalog, the core tables),
//! produced from the code's own tables so that a document cannot disagree with the program: a test compares
//! every generated block of `docs/*.md` with `subdual reference NAME`.
//!
//! The field, option and switch lists are read off the scenario's JSON Schema ([`crate::scenario::schema`]),
//! itself generated from the types a scenario deserializes into, so a field's doc comment is its one
//! description everywhere: in the editor, in the schema and in the documents.

use serde_json::{Map, Value};

use crate::rules::action::Action;
use crate::rules::catalog;
use crate::rules::tables::{self, Group, HitDice, SaveCategory, Strength};
use crate::stats::metrics;

/// The parts `subdual reference` prints, with what each holds.
pub const PARTS: [(&str, &str); 21] = [
    ("scenario-keys", "the top-level keys of a scenario file"),
    ("combatant-fields", "the fields of [attacker] and [victim]"),
    ("weapon-fields", "the fields of an inline weapon"),
    ("saves-fields", "the fields of a save override"),
    (
        "action-options",
        "[action_options], with the actions that read each",
    ),
    (
        "switches",
        "the [rules] switches with their defaults and values",
    ),
    ("variant-keys", "the keys of a [[variant]]"),
    ("chart-keys", "the keys of a [[chart]]"),
    ("tune-keys", "the keys of a [[tune]]"),
    (
        "metrics",
        "the summary metrics and distributions of each action",
    ),
    ("metric-definitions", "what every metric means"),
    ("catalog-weapons", "the weapons of the catalog"),
    ("catalog-monsters", "the monsters of the catalog"),
    ("catalog-races", "the races of the catalog"),
    ("catalog-classes", "the classes and their groups"),
    ("thac0", "THAC0 by group and level, and by monster Hit Dice"),
    ("saves", "saving throws by group and level"),
    ("strength", "Strength's hit and damage adjustments"),
    ("dexterity", "Dexterity's defensive adjustment"),
    (
        "brawl-column",
        "the punching and wrestling column, and the wrestler's armor penalties",
    ),
    ("martial-arts-column", "the martial arts column"),
];

/// The JSON Schema of a scenario file, pretty-printed (`subdual schema`, `docs/scenario.schema.json`).
pub fn schema_text() -> String {
    serde_json::to_string_pretty(&crate::scenario::schema::scenario_schema()).unwrap_or_default()
}

/// One part by name, as Markdown.
pub fn part(name: &str) -> Option<String> {
    let schema = crate::scenario::schema::scenario_schema();
    let defs = schema
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let fields = |def: &str| properties(defs.get(def).unwrap_or(&Value::Null), &defs);
    Some(match name {
        "scenario-keys" => markdown(&["key", "value", "what it is"], properties(&schema, &defs)),
        "combatant-fields" => markdown(&["field", "value", "what it is"], fields("CombatantSpec")),
        "weapon-fields" => markdown(&["field", "value", "what it is"], fields("InlineWeapon")),
        "saves-fields" => markdown(&["field", "value", "what it is"], fields("SavesSpec")),
        "variant-keys" => markdown(&["key", "value", "what it is"], fields("RawVariant")),
        "chart-keys" => markdown(&["key", "value", "what it is"], fields("ChartSpec")),
        "tune-keys" => markdown(&["key", "value", "what it is"], fields("TuneSpec")),
        "action-options" => action_options(&defs),
        "switches" => switches(&defs),
        "metrics" => metrics_part(),
        "metric-definitions" => definitions(),
        "catalog-weapons" => markdown_rows(Catalog::Weapons.rows()),
        "catalog-monsters" => markdown_rows(Catalog::Monsters.rows()),
        "catalog-races" => markdown_rows(Catalog::Races.rows()),
        "catalog-classes" => markdown_rows(Catalog::Classes.rows()),
        "thac0" => thac0(),
        "saves" => saves(),
        "strength" => strength(),
        "dexterity" => dexterity(),
        "brawl-column" => brawl_column(),
        "martial-arts-column" => martial_arts_column(),
        _ => return None,
    })
}

/// A Markdown table with `header` and `rows`, cells with `|` escaped.
fn markdown(header: &[&str], rows: Vec<Vec<String>>) -> String {
    let mut all = vec![header.iter().map(|h| h.to_string()).collect::<Vec<_>>()];
    all.extend(rows);
    markdown_rows(all)
}

/// A Markdown table whose first row is the header.
fn markdown_rows(rows: Vec<Vec<String>>) -> String {
    let line = |cells: &[String]| {
        let cells: Vec<String> = cells.iter().map(|c| c.replace('|', "\\|")).collect();
        format!("| {} |\n", cells.join(" | "))
    };
    let mut text = String::new();
    for (i, row) in rows.iter().enumerate() {
        text.push_str(&line(row));
        if i == 0 {
            text.push_str(&line(&vec!["---".to_string(); row.len()]));
        }
    }
    text
}

/// The properties of an object schema, in declaration order: name, what it accepts, its description.
fn properties(object: &Value, defs: &Map<String, Value>) -> Vec<Vec<String>> {
    object
        .get("properties")
        .and_then(Value::as_object)
        .map(|props| {
            props
                .iter()
                .map(|(name, schema)| {
                    vec![
                        format!("`{name}`"),
                        accepts(schema, defs),
                        description(schema, defs),
                    ]
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A schema's description, or its referenced definition's.
fn description(schema: &Value, defs: &Map<String, Value>) -> String {
    let text = schema
        .get("description")
        .and_then(Value::as_str)
        .or_else(|| referenced(schema, defs).and_then(|d| d.get("description")?.as_str()))
        .unwrap_or("");
    text.replace('\n', " ")
}

/// The definition a `$ref` points to.
fn referenced<'a>(schema: &Value, defs: &'a Map<String, Value>) -> Option<&'a Value> {
    let name = schema.get("$ref")?.as_str()?.strip_prefix("#/$defs/")?;
    defs.get(name)
}

/// The `const`s of a `oneOf`, the values of an `enum`, or the canonical names of a name schema.
fn choices(schema: &Value) -> Option<Vec<String>> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return Some(values.iter().map(plain).collect());
    }
    if let Some(options) = schema.get("oneOf").and_then(Value::as_array) {
        let consts: Option<Vec<String>> =
            options.iter().map(|o| o.get("const").map(plain)).collect();
        if consts.is_some() {
            return consts;
        }
    }
    let any = schema.get("anyOf")?.as_array()?;
    any.iter()
        .find_map(|a| a.get("enum"))
        .and_then(Value::as_array)
        .map(|values| values.iter().map(plain).collect())
}

/// A JSON value as TOML would write it.
fn plain(value: &Value) -> String {
    match value {
        Value::String(s) => format!("\"{s}\""),
        other => other.to_string(),
    }
}

/// "`a`, `b` or `c`".
fn one_of(values: &[String]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// What a field accepts, in a few words.
fn accepts(schema: &Value, defs: &Map<String, Value>) -> String {
    // An optional field's schema allows null beside its own: TOML has no null, so only the other counts.
    if let Some(any) = schema.get("anyOf").and_then(Value::as_array) {
        let real: Vec<&Value> = any
            .iter()
            .filter(|a| a.get("type") != Some(&Value::from("null")))
            .collect();
        if real.len() == 1 && real.len() < any.len() {
            return accepts(real[0], defs);
        }
    }
    if let Some(name) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"))
    {
        let def = defs.get(name).unwrap_or(&Value::Null);
        return match name {
            "Dice" => "dice, such as `\"2d4+2\"`".to_string(),
            "HitDice" => "Hit Dice, such as `\"4+1\"`, `\"1-1\"`, `\"1/2\"`".to_string(),
            "Strength" => "3 to 25, or `\"18/01\"` to `\"18/00\"`".to_string(),
            "HitPoints" => "a number, or dice rolled per trial".to_string(),
            "Size" => "`\"T\"`, `\"S\"`, `\"M\"`, `\"L\"`, `\"H\"` or `\"G\"` (or the size's name)"
                .to_string(),
            "Weapon" => "a catalog weapon's name, or an inline weapon".to_string(),
            "CombatantSpec" => "a combatant".to_string(),
            "SavesSpec" => "a table of save numbers".to_string(),
            "RuleOptions" => "a table of switches".to_string(),
            "ActionOptionsSpec" => "a table of action options".to_string(),
            "RawVariant" => "`[[variant]]` tables".to_string(),
            "ChartSpec" => "`[[chart]]` tables".to_string(),
            "TuneSpec" => "`[[tune]]` tables".to_string(),
            _ => match choices(def) {
                Some(values) => one_of(&values),
                None => accepts(def, defs),
            },
        };
    }
    if let Some(values) = choices(schema) {
        return one_of(&values);
    }
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| *t != "null")
            .collect(),
        _ => Vec::new(),
    };
    let number = |what: &str| {
        let bound = |inclusive: &str, exclusive: &str| {
            (schema.get(inclusive).map(|v| (v.to_string(), false)))
                .or_else(|| schema.get(exclusive).map(|v| (v.to_string(), true)))
        };
        match (
            bound("minimum", "exclusiveMinimum"),
            bound("maximum", "exclusiveMaximum"),
        ) {
            (Some((lo, false)), Some((hi, false))) => format!("{what} from {lo} to {hi}"),
            (Some((lo, true)), Some((hi, false))) => format!("{what} above {lo}, up to {hi}"),
            (Some((lo, _)), Some((hi, _))) => format!("{what} between {lo} and {hi}"),
            (Some((lo, true)), None) => format!("{what} above {lo}"),
            (Some((lo, false)), None) if lo != "0" => format!("{what}, at least {lo}"),
            (None, Some((hi, _))) => format!("{what} up to {hi}"),
            _ => what.to_string(),
        }
    };
    match types.first().copied() {
        Some("integer") => number("a whole number"),
        Some("number") => number("a number"),
        Some("boolean") => "`true` or `false`".to_string(),
        Some("string") => "text".to_string(),
        Some("array") => match schema.get("items") {
            Some(items)
                if items.get("$ref").is_some_and(|r| {
                    r.as_str().is_some_and(|r| {
                        r.ends_with("RawVariant")
                            || r.ends_with("ChartSpec")
                            || r.ends_with("TuneSpec")
                    })
                }) =>
            {
                accepts(items, defs)
            }
            Some(_)
                if schema.get("minItems") == Some(&Value::from(2))
                    && schema.get("maxItems") == Some(&Value::from(2)) =>
            {
                "two numbers, `[low, high]`".to_string()
            }
            Some(items) => format!("a list of {}", accepts(items, defs)),
            None => "a list".to_string(),
        },
        Some("object") => "a table".to_string(),
        _ => "see below".to_string(),
    }
}

/// `[action_options]`: every option, the actions that read it, what it accepts.
fn action_options(defs: &Map<String, Value>) -> String {
    let rows = properties(defs.get("ActionOptionsSpec").unwrap_or(&Value::Null), defs)
        .into_iter()
        .map(|mut row| {
            let key = row[0].trim_matches('`').to_string();
            let actions: Vec<String> = Action::ALL
                .iter()
                .filter(|a| a.options_used().contains(&key.as_str()))
                .map(|a| a.name().to_string())
                .collect();
            row.insert(1, one_of(&actions));
            row
        })
        .collect();
    markdown(&["option", "read by", "value", "what it is"], rows)
}

/// `[rules]`: every switch with its default.
fn switches(defs: &Map<String, Value>) -> String {
    let defaults = serde_json::to_value(crate::rules::RuleOptions::default()).unwrap_or_default();
    let rows = properties(defs.get("RuleOptions").unwrap_or(&Value::Null), defs)
        .into_iter()
        .map(|mut row| {
            let key = row[0].trim_matches('`').to_string();
            let default = defaults.get(&key).map(plain).unwrap_or_default();
            row.insert(1, format!("`{default}`"));
            row
        })
        .collect();
    markdown(&["switch", "default", "values", "what it does"], rows)
}

/// Every action's summary metrics (headline first) and distributions.
fn metrics_part() -> String {
    // The fights of sides report the same metrics, brawl or subdue: one row for both.
    let rows = Action::ALL
        .iter()
        .chain([Action::GangBrawl].iter())
        .map(|&action| {
            let quoted = |it: &mut dyn Iterator<Item = &str>| {
                it.map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ")
            };
            let name = if action.is_sides() {
                "`brawl`, `subdue` with a side of several".to_string()
            } else {
                format!("`{action}`")
            };
            vec![
                name,
                quoted(&mut metrics::summary_metrics(action)),
                quoted(&mut metrics::distribution_metrics(action)),
            ]
        })
        .collect();
    markdown(
        &[
            "action",
            "summary metrics (headline first)",
            "distributions",
        ],
        rows,
    )
}

/// Every metric: how it is estimated and what it means.
fn definitions() -> String {
    let rows = metrics::DEFINITIONS
        .iter()
        .map(|d| {
            let kind = Action::EVERY
                .iter()
                .find_map(|&a| metrics::kind_of(a, d.metric))
                .unwrap_or("");
            vec![
                format!("`{}`", d.metric),
                kind.to_string(),
                metrics::label(d.metric),
                d.meaning.to_string(),
            ]
        })
        .collect();
    markdown(&["metric", "kind", "on charts", "definition"], rows)
}

/// The four tables of the catalog, as rows with a header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Catalog {
    /// Weapons.
    Weapons,
    /// Monsters.
    Monsters,
    /// Races.
    Races,
    /// Classes.
    Classes,
}

impl Catalog {
    /// Every table, in this order.
    pub const ALL: [Catalog; 4] = [
        Catalog::Weapons,
        Catalog::Monsters,
        Catalog::Races,
        Catalog::Classes,
    ];

    /// The header and one row per entry, as `subdual catalog` prints them.
    pub fn rows(self) -> Vec<Vec<String>> {
        let yes = |b: bool| if b { "yes" } else { "no" }.to_string();
        let header = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        let mut rows = Vec::new();
        match self {
            Catalog::Weapons => {
                rows.push(header(&[
                    "weapon",
                    "size",
                    "type",
                    "damage S/M",
                    "damage L",
                    "controllable",
                    "missile",
                    "hands",
                ]));
                for w in catalog::weapons() {
                    rows.push(vec![
                        w.name.clone(),
                        w.size.to_string(),
                        format!("{:?}", w.kind),
                        w.damage.to_string(),
                        w.damage_large.to_string(),
                        yes(w.controllable),
                        yes(w.missile),
                        w.hands.to_string(),
                    ]);
                }
            }
            Catalog::Monsters => {
                rows.push(header(&[
                    "monster",
                    "hit dice",
                    "AC",
                    "size",
                    "height ft",
                    "attacks",
                    "weapon",
                    "legs",
                    "carrier",
                    "humanoid",
                    "natural armor",
                ]));
                for m in catalog::monsters() {
                    rows.push(vec![
                        m.name.to_string(),
                        m.hit_dice.to_string(),
                        m.ac.to_string(),
                        m.size.to_string(),
                        m.height_ft.to_string(),
                        m.attacks
                            .iter()
                            .map(|d| d.to_string())
                            .collect::<Vec<_>>()
                            .join("/"),
                        m.weapon.unwrap_or("").to_string(),
                        m.legs.to_string(),
                        yes(m.carrier),
                        yes(m.humanoid),
                        yes(m.natural_armor),
                    ]);
                }
            }
            Catalog::Races => {
                rows.push(header(&["race", "size", "height ft"]));
                for r in catalog::races() {
                    rows.push(vec![
                        r.name.to_string(),
                        r.size.to_string(),
                        r.height_ft.to_string(),
                    ]);
                }
            }
            Catalog::Classes => {
                rows.push(header(&["class", "group"]));
                for c in catalog::classes() {
                    rows.push(vec![c.name.to_string(), group_name(c.group).to_string()]);
                }
            }
        }
        rows
    }
}

fn group_name(group: Group) -> &'static str {
    match group {
        Group::Warrior => "warrior",
        Group::Priest => "priest",
        Group::Rogue => "rogue",
        Group::Wizard => "wizard",
    }
}

/// How [`bands`] writes a band of keys.
#[derive(Clone, Copy)]
struct Banding {
    /// Between the first and the last key: "-" for levels, " to " for Hit Dice (which hold dashes).
    joiner: &'static str,
    /// The last band goes on beyond the last key listed ("17+").
    open: bool,
}

/// Bands of levels or scores that end where the table ends.
const CLOSED: Banding = Banding {
    joiner: "-",
    open: false,
};

/// Consecutive keys whose values are equal, merged into bands: ("1-2", value).
fn bands<K: std::fmt::Display, V: PartialEq>(rows: Vec<(K, V)>, how: Banding) -> Vec<(String, V)> {
    let mut out: Vec<(String, String, V)> = Vec::new();
    for (key, value) in rows {
        match out.last_mut() {
            Some((_, last, v)) if *v == value => *last = key.to_string(),
            _ => out.push((key.to_string(), key.to_string(), value)),
        }
    }
    let count = out.len();
    out.into_iter()
        .enumerate()
        .map(|(i, (first, last, v))| {
            let label = if how.open && i + 1 == count {
                format!("{first}+")
            } else if first == last {
                first
            } else {
                format!("{first}{}{last}", how.joiner)
            };
            (label, v)
        })
        .collect()
}

/// THAC0 of characters by group and level, and of monsters by Hit Dice.
fn thac0() -> String {
    let mut header = vec!["group".to_string()];
    header.extend((1..=20).map(|l| l.to_string()));
    let mut rows = vec![header];
    for group in Group::ALL {
        let mut row = vec![group_name(group).to_string()];
        row.extend((1..=20).map(|level| tables::character_thac0(group, level).to_string()));
        rows.push(row);
    }
    let mut text = markdown_rows(rows);
    let hit_dice: Vec<HitDice> = ["1/2", "1-1", "1", "1+2", "1+3"]
        .iter()
        .map(|t| t.to_string())
        .chain((2..=16).map(|n| n.to_string()))
        .filter_map(|t| t.parse().ok())
        .collect();
    let monster: Vec<(String, i32)> = hit_dice
        .iter()
        .map(|hd| (hd.to_string(), tables::monster_thac0(*hd)))
        .collect();
    let monster_rows = bands(
        monster,
        Banding {
            joiner: " to ",
            open: true,
        },
    )
    .into_iter()
    .map(|(hd, t)| vec![hd, t.to_string()])
    .collect();
    text.push('\n');
    text.push_str(&markdown(&["monster Hit Dice", "THAC0"], monster_rows));
    text
}

/// Saving throws by group, in level bands.
fn saves() -> String {
    let mut rows = vec![
        ["group", "levels", "PPD", "RSW", "PP", "BW", "SP"]
            .map(String::from)
            .to_vec(),
    ];
    for group in Group::ALL {
        let by_level: Vec<(u32, Vec<i32>)> = (0..=21)
            .map(|level| {
                let s = tables::character_saves(group, level);
                (level, SaveCategory::ALL.iter().map(|&c| s.get(c)).collect())
            })
            .collect();
        for (levels, numbers) in bands(
            by_level,
            Banding {
                joiner: "-",
                open: true,
            },
        ) {
            let mut row = vec![group_name(group).to_string(), levels];
            row.extend(numbers.iter().map(i32::to_string));
            rows.push(row);
        }
    }
    markdown_rows(rows)
}

/// Strength's adjustments to hit and to damage.
fn strength() -> String {
    let scores: Vec<String> = (3..=18)
        .map(|s| s.to_string())
        .chain(["18/01", "18/51", "18/76", "18/91", "18/00"].map(String::from))
        .chain((19..=25).map(|s| s.to_string()))
        .collect();
    let adjustments: Vec<(String, (i32, i32))> = scores
        .iter()
        .filter_map(|t| {
            t.parse::<Strength>()
                .ok()
                .map(|s| (t.clone(), (s.hit_adjustment(), s.damage_adjustment())))
        })
        .collect();
    let rows = bands(adjustments, CLOSED)
        .into_iter()
        .map(|(score, (hit, damage))| vec![score, signed(hit), signed(damage)])
        .collect();
    markdown(&["Strength", "to hit", "damage"], rows)
}

/// Dexterity's defensive adjustment, added to armor class.
fn dexterity() -> String {
    let rows = bands(
        (3..=18u8)
            .map(|d| (d, tables::dexterity_defense(d)))
            .collect(),
        CLOSED,
    )
    .into_iter()
    .map(|(dex, adj)| vec![dex, signed(adj)])
    .collect();
    markdown(&["Dexterity", "armor class"], rows)
}

/// The punching and wrestling column, from the modified roll, and the armor penalties of a wrestler.
fn brawl_column() -> String {
    let label = |roll: i32| match roll {
        20 => "20+".to_string(),
        0 => "below 1".to_string(),
        r => r.to_string(),
    };
    let rows = (0..=20)
        .rev()
        .map(|roll| {
            let r = tables::brawl_row(roll);
            vec![
                label(roll),
                r.punch.to_string(),
                r.punch_damage.to_string(),
                r.ko_percent.to_string(),
                format!("{}{}", r.wrestle, if r.hold { " (hold)" } else { "" }),
            ]
        })
        .collect();
    let mut text = markdown(
        &[
            "modified roll",
            "punch",
            "damage",
            "% knockout",
            "wrestling",
        ],
        rows,
    );
    text.push('\n');
    let armor = tables::armor_penalties()
        .map(|(name, penalty)| vec![format!("`{name}`"), signed(penalty)])
        .collect();
    text.push_str(&markdown(&["armor_type", "wrestler's attack"], armor));
    text
}

/// The martial arts column, from the roll that reads it.
fn martial_arts_column() -> String {
    let label = |roll: i32| match roll {
        20 => "20+".to_string(),
        1 => "1 or less".to_string(),
        r => r.to_string(),
    };
    let rows = (1..=20)
        .rev()
        .map(|roll| {
            let r = tables::martial_arts_row(roll);
            vec![
                label(roll),
                r.maneuver.to_string(),
                r.damage.to_string(),
                r.ko_percent.to_string(),
            ]
        })
        .collect();
    markdown(&["roll", "maneuver", "damage", "% knockout"], rows)
}

fn signed(n: i32) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_is_there_and_a_table() {
        for (name, _) in PARTS {
            let text = part(name).unwrap_or_else(|| panic!("no part {name}"));
            assert!(text.starts_with("| "), "{name}");
            assert!(text.lines().count() > 2, "{name}");
        }
        assert!(part("nothing").is_none());
    }

    #[test]
    fn the_switch_list_is_every_switch_with_its_default() {
        let text = part("switches").unwrap();
        for switch in crate::rules::RuleOptions::SWITCHES {
            assert!(text.contains(&format!("| `{switch}` |")), "{switch}");
        }
        assert!(text.contains("| `sap_ko_cap` | `40` |"), "{text}");
        assert!(
            text.contains(
                "| `held_back_odd_point` | `\"temporary\"` | `\"temporary\"` or `\"real\"` |"
            ),
            "{text}"
        );
        assert!(
            text.contains("| `death_at` | `0` | `0` or `-10` |"),
            "{text}"
        );
    }

    #[test]
    fn the_field_list_is_every_combatant_field() {
        let text = part("combatant-fields").unwrap();
        for field in crate::scenario::CombatantSpec::FIELDS {
            assert!(text.contains(&format!("| `{field}` |")), "{field}");
        }
        assert!(
            text.contains("| `level` | a whole number from 0 to 20 |"),
            "{text}"
        );
        let options = part("action-options").unwrap();
        assert!(
            options.contains(
                "| `hands` | `grab_person` or `grab_monster` | a whole number from 1 to 2 |"
            ),
            "{options}"
        );
    }

    #[test]
    fn the_core_tables_read_like_the_book() {
        let thac0 = part("thac0").unwrap();
        assert!(thac0.contains("| warrior | 20 | 19 | 18 |"), "{thac0}");
        assert!(thac0.contains("| 3 to 4 | 17 |"), "{thac0}");
        assert!(thac0.contains("| 15+ | 5 |"), "{thac0}");
        let strength = part("strength").unwrap();
        assert!(strength.contains("| 8-15 | 0 | 0 |"), "{strength}");
        assert!(strength.contains("| 18/00 | +3 | +6 |"), "{strength}");
        let saves = part("saves").unwrap();
        assert!(
            saves.contains("| warrior | 1-2 | 14 | 16 | 15 | 17 | 17 |"),
            "{saves}"
        );
        let column = part("brawl-column").unwrap();
        assert!(
            column.contains("| 20+ | Haymaker | 2 | 10 | Bear hug (hold) |"),
            "{column}"
        );
    }
}
