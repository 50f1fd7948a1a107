//! Sweep axes: a path into the scenario and the values it takes, ranges included.

use std::fmt;

use toml::Value;

use crate::rules::options::RuleOptions;
use crate::rules::{Key, Unit, keys};
use crate::scenario::{ActionOptionsSpec, CombatantSpec};

/// The most points one file may ask for (variants × sweep points): beyond it a typo is more likely than
/// a study.
pub const MAX_POINTS: usize = 100_000;

/// One value of a sweep axis, printed in outputs as written.
#[derive(Debug, Clone, PartialEq)]
pub enum SweepValue {
    /// An integer.
    Int(i64),
    /// A number with a fraction.
    Float(f64),
    /// A string (a monster, a weapon, a strength such as "18/50").
    Text(String),
    /// A boolean.
    Bool(bool),
}

impl SweepValue {
    /// Reads a TOML value; tables, arrays and dates cannot be swept.
    pub fn from_toml(value: &Value) -> Option<SweepValue> {
        match value {
            Value::Integer(i) => Some(SweepValue::Int(*i)),
            Value::Float(f) => Some(SweepValue::Float(*f)),
            Value::String(s) => Some(SweepValue::Text(s.clone())),
            Value::Boolean(b) => Some(SweepValue::Bool(*b)),
            _ => None,
        }
    }

    /// Back to TOML, to be merged into the scenario.
    pub fn to_toml(&self) -> Value {
        match self {
            SweepValue::Int(i) => Value::Integer(*i),
            SweepValue::Float(f) => Value::Float(*f),
            SweepValue::Text(s) => Value::String(s.clone()),
            SweepValue::Bool(b) => Value::Boolean(*b),
        }
    }

    /// The value as a number, for chart axes.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            SweepValue::Int(i) => Some(*i as f64),
            SweepValue::Float(f) => Some(*f),
            _ => None,
        }
    }
}

impl fmt::Display for SweepValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SweepValue::Int(i) => write!(f, "{i}"),
            SweepValue::Float(x) => write!(f, "{x}"),
            SweepValue::Text(s) => f.write_str(s),
            SweepValue::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// The sections a sweep path may start with besides a side written as entries ([`SIDES`]).
pub const SECTIONS: [&str; 4] = ["attacker", "victim", "action_options", "rules"];

/// Each side as one combatant (`[attacker]`) and as entries (`[[attackers]]`), attackers first
/// (docs/scenarios.md "Several combatants a side").
pub const SIDES: [(&str, &str); 2] = [("attacker", "attackers"), ("victim", "victims")];

/// The keys of an entry beyond a combatant's: how many members, and how each picks his foe.
pub const ENTRY_KEYS: [Key; 2] = [
    Key::new("count", "count", Unit::None),
    Key::new("target", "target", Unit::None),
];
/// [`ENTRY_KEYS`]' keys.
pub const ENTRY_FIELDS: [&str; 2] = keys(&ENTRY_KEYS);

/// Where a sweep path into a side lands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SidePath<'p> {
    /// 0 the attackers, 1 the victims.
    pub side: usize,
    /// Written with the side's plural (`attackers.level`), which reaches every entry or one.
    pub plural: bool,
    /// The entry it sets, from 0; `None` for every entry (`attackers.level`). `attacker.level` sets the first.
    pub entry: Option<usize>,
    /// The field, and a sub-field below it (`weapon`, `magic`).
    pub rest: Vec<&'p str>,
}

/// The side a path sets (`attacker.level`, `attackers.level`, `attackers.2.level`), or `None` for a path
/// into another section. The path is not checked here ([`check_path`] does).
pub fn side_path(path: &str) -> Option<SidePath<'_>> {
    let mut segments = path.split('.');
    let section = segments.next()?;
    let (side, plural) = SIDES.iter().enumerate().find_map(|(s, (one, several))| {
        (section == *one)
            .then_some((s, false))
            .or((section == *several).then_some((s, true)))
    })?;
    let mut rest: Vec<&str> = segments.collect();
    let entry = match rest.first().map(|n| n.parse::<usize>()) {
        Some(Ok(n)) if plural => {
            rest.remove(0);
            Some(n.saturating_sub(1))
        }
        _ if plural => None,
        _ => Some(0),
    };
    Some(SidePath {
        side,
        plural,
        entry,
        rest,
    })
}

/// The fields of a save override a path may reach (`attacker.saves.pp`), with their names.
const SAVE_KEYS: [Key; 5] = [
    Key::new("ppd", "save vs paralyzation, poison, death", Unit::D20),
    Key::new("rsw", "save vs rod, staff, wand", Unit::D20),
    Key::new("pp", "save vs petrification, polymorph", Unit::D20),
    Key::new("bw", "save vs breath weapon", Unit::D20),
    Key::new("sp", "save vs spell", Unit::D20),
];
const SAVE_FIELDS: [&str; 5] = keys(&SAVE_KEYS);

/// The fields of an inline weapon a path may reach (`attacker.weapon.magic`), with their names.
const WEAPON_KEYS: [Key; 9] = [
    Key::new("name", "weapon", Unit::None),
    Key::new("size", "weapon size", Unit::None),
    Key::new("type", "weapon type", Unit::None),
    Key::new("damage", "weapon damage", Unit::HitPoints),
    Key::new("damage_large", "weapon damage against L", Unit::HitPoints),
    Key::new("controllable", "weapon held back", Unit::None),
    Key::new("missile", "missile weapon", Unit::None),
    Key::new("hands", "weapon hands", Unit::None),
    Key::new("magic", "weapon's magic bonus", Unit::None),
];
const WEAPON_FIELDS: [&str; 9] = keys(&WEAPON_KEYS);

/// Fields below a combatant field that a path may reach (`attacker.saves.pp`, `attacker.weapon.magic`):
/// their names and their table.
fn sub_fields(field: &str) -> (&'static [&'static str], &'static [Key]) {
    match field {
        "saves" => (&SAVE_FIELDS, &SAVE_KEYS),
        "weapon" | "backup_weapon" | "opening_weapon" => (&WEAPON_FIELDS, &WEAPON_KEYS),
        _ => (&[], &[]),
    }
}

/// The table entry of a path's last field, with the words that go before its name (`attacker`, or
/// `attacker backup` for a backup weapon's field), or `None` for a path that is not a sweep path.
fn path_key(path: &str) -> Option<(String, Key)> {
    let side = side_path(path);
    let mut segments = path.split('.');
    let section = segments.next()?;
    let (table, mut before): (&[Key], String) = match (&side, section) {
        // One entry of a side written as entries: `attacker 2 level`.
        (Some(side), _) if side.plural && side.entry.is_some() => {
            segments.next();
            let entry = side.entry.unwrap_or_default() + 1;
            (
                &CombatantSpec::KEYS,
                format!("{} {entry}", SIDES[side.side].0),
            )
        }
        (Some(_), _) => (&CombatantSpec::KEYS, section.to_string()),
        (None, "action_options") => (&ActionOptionsSpec::KEYS, String::new()),
        (None, "rules") => (&RuleOptions::KEYS, String::new()),
        (None, _) => return None,
    };
    let field = segments.next()?;
    let entry_keys: &[Key] = if side.as_ref().is_some_and(|s| s.plural) {
        &ENTRY_KEYS
    } else {
        &[]
    };
    let mut key = *table.iter().chain(entry_keys).find(|k| k.key == field)?;
    if let Some(sub) = segments.next() {
        key = *sub_fields(field).1.iter().find(|k| k.key == sub)?;
        match field {
            "backup_weapon" => before.push_str(" backup"),
            "opening_weapon" => before.push_str(" opening"),
            _ => {}
        }
    }
    segments.next().is_none().then_some((before, key))
}

/// A sweep path (or `level_gap`, `variant`) as a reader says it: `attacker Strength`, `sap cap on a
/// helpless victim`. Charts print this, never the path.
pub fn path_name(path: &str) -> String {
    match (path, path_key(path)) {
        ("level_gap", _) => "level gap".to_string(),
        (_, Some((before, key))) if before.is_empty() => key.name.to_string(),
        (_, Some((before, key))) => format!("{before} {}", key.name),
        (other, None) => other.replace(['.', '_'], " "),
    }
}

/// A sweep path's axis label, with its unit: `attacker Strength (score)`.
pub fn path_label(path: &str) -> String {
    match (path, path_key(path)) {
        ("level_gap", _) => "level gap (attacker level − victim level or Hit Dice)".to_string(),
        (_, Some((_, key))) => format!("{}{}", path_name(path), key.unit.axis()),
        (_, None) => path_name(path),
    }
}

/// One value of a sweep path as a legend or a caption says it: `attacker Strength 18/00`, `sap knockout cap
/// 60%`, `helmet rule: yes`.
pub fn path_value(path: &str, value: &SweepValue) -> String {
    let name = path_name(path);
    let unit = path_key(path).map_or(Unit::None, |(_, key)| key.unit);
    match value {
        SweepValue::Bool(b) => format!("{name}: {}", if *b { "yes" } else { "no" }),
        other => format!("{name} {}", unit.value(&other.to_string())),
    }
}

/// Why a sweep path is not one: the message and the candidates for a suggestion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathError {
    /// What is wrong.
    pub message: String,
    /// The misspelt segment.
    pub word: String,
    /// What it could have been.
    pub candidates: Vec<&'static str>,
}

/// Splits and checks a sweep path such as `attacker.level` or `rules.sap_ko_cap`.
pub fn check_path(path: &str) -> Result<Vec<String>, PathError> {
    let segments: Vec<String> = path.split('.').map(str::to_string).collect();
    let fail = |message: String, word: &str, candidates: &[&'static str]| PathError {
        message,
        word: word.to_string(),
        candidates: candidates.to_vec(),
    };
    let section = segments[0].clone();
    let section = section.as_str();
    let entry_fields: Vec<&'static str> = CombatantSpec::FIELDS
        .iter()
        .chain(&ENTRY_FIELDS)
        .copied()
        .collect();
    let fields: &[&'static str] = match section {
        "attacker" | "victim" => &CombatantSpec::FIELDS,
        "attackers" | "victims" => &entry_fields,
        "action_options" => &ActionOptionsSpec::FIELDS,
        "rules" => &RuleOptions::SWITCHES,
        other => {
            return Err(fail(
                format!(
                    "sweep path `{path}` is not in a section: expected a path starting with attacker., victim., attackers., victims., action_options. or rules. (such as \"attacker.level\")"
                ),
                other,
                &[SECTIONS.as_slice(), &["attackers", "victims"]].concat(),
            ));
        }
    };
    // `attackers.2.level`: entry 2 of the side, counted from 1; the field follows.
    let mut segments = segments;
    if matches!(section, "attackers" | "victims")
        && let Some(n) = segments.get(1).map(|n| n.parse::<usize>())
        && let Ok(n) = n
    {
        if n == 0 {
            return Err(fail(
                format!("sweep path `{path}`: entries count from 1 (`{section}.1.` is the first)"),
                "",
                &[],
            ));
        }
        segments.remove(1);
    }
    let Some(field) = segments.get(1) else {
        return Err(fail(
            format!(
                "sweep path `{path}` names a section, not a field (such as `{section}.{}`)",
                fields[0]
            ),
            "",
            fields,
        ));
    };
    if !fields.contains(&field.as_str()) {
        return Err(fail(
            format!("sweep path `{path}`: `{section}` has no field `{field}`"),
            field,
            fields,
        ));
    }
    let deeper = if matches!(section, "attacker" | "victim" | "attackers" | "victims") {
        sub_fields(field).0
    } else {
        &[]
    };
    match segments.get(2) {
        None => {}
        Some(sub) if deeper.contains(&sub.as_str()) && segments.len() == 3 => {}
        Some(sub) if !deeper.is_empty() && segments.len() == 3 => {
            return Err(fail(
                format!("sweep path `{path}`: `{field}` has no field `{sub}`"),
                sub,
                deeper,
            ));
        }
        Some(_) => {
            return Err(fail(
                format!("sweep path `{path}` goes deeper than `{section}.{field}` allows"),
                "",
                &[],
            ));
        }
    }
    Ok(segments)
}

/// The values of a range axis `{ from, to, step }`: `to` included; integers unless a bound or the step is
/// a float. Returns a message when the range is malformed or empty.
pub fn range_values(table: &toml::Table) -> Result<Vec<SweepValue>, String> {
    for key in table.keys() {
        if !["from", "to", "step"].contains(&key.as_str()) {
            return Err(format!(
                "a range has `from`, `to` and an optional `step`, not `{key}`"
            ));
        }
    }
    let number = |key: &str| -> Result<Option<Value>, String> {
        match table.get(key) {
            None => Ok(None),
            Some(v @ (Value::Integer(_) | Value::Float(_))) => Ok(Some(v.clone())),
            Some(other) => Err(format!(
                "`{key}` of a range must be a number, not {}",
                other.type_str()
            )),
        }
    };
    let (Some(from), Some(to)) = (number("from")?, number("to")?) else {
        return Err("a range needs `from` and `to`, such as { from = 1, to = 20 }".to_string());
    };
    let step = number("step")?.unwrap_or(Value::Integer(1));
    let values = match (&from, &to, &step) {
        (Value::Integer(a), Value::Integer(b), Value::Integer(s)) => {
            if *s <= 0 {
                return Err(format!("`step` must be above 0, not {s}"));
            }
            if b < a {
                return Err(format!(
                    "the range is empty: `to` ({b}) is below `from` ({a})"
                ));
            }
            // In 128 bits: `to - from` of two 64-bit integers can overflow 64 (and a wrapped count of 0
            // would make an empty axis).
            let count = (i128::from(*b) - i128::from(*a)) / i128::from(*s) + 1;
            if count > MAX_POINTS as i128 {
                return Err(format!(
                    "the range has {count} values; at most {MAX_POINTS}"
                ));
            }
            // Every value lies between `from` and `to`, so none overflows; `i * s` alone may (the step can be
            // above 2^62), so each is reckoned in 128 bits.
            (0..count)
                .map(|i| SweepValue::Int((i128::from(*a) + i * i128::from(*s)) as i64))
                .collect()
        }
        _ => {
            let as_f = |v: &Value| {
                v.as_float()
                    .or(v.as_integer().map(|i| i as f64))
                    .unwrap_or(f64::NAN)
            };
            let (a, b, s) = (as_f(&from), as_f(&to), as_f(&step));
            if !(s > 0.0 && s.is_finite() && a.is_finite() && b.is_finite()) {
                return Err(
                    "`from`, `to` and `step` must be finite, with `step` above 0".to_string(),
                );
            }
            if b < a {
                return Err(format!(
                    "the range is empty: `to` ({b}) is below `from` ({a})"
                ));
            }
            // A small tolerance so that 0.1-steps reach `to` despite binary fractions. The count is
            // compared as a float: `(b - a) / s` may be infinite (never NaN: all three are finite, `s` above 0).
            let steps = ((b - a) / s + 1e-9).floor();
            if steps >= MAX_POINTS as f64 {
                return Err(format!(
                    "the range has {} values; at most {MAX_POINTS}",
                    steps + 1.0
                ));
            }
            let count = steps as usize + 1;
            if count > MAX_POINTS {
                return Err(format!(
                    "the range has {count} values; at most {MAX_POINTS}"
                ));
            }
            // Values as a person writes them: 1.7, not 1.7000000000000002. The decimals are those of
            // `from` and `step` as written (shortest round-trip form).
            let decimals = |x: f64| x.to_string().split('.').nth(1).map_or(0, str::len);
            let places = decimals(a).max(decimals(s)).min(15);
            let tidy = |x: f64| format!("{x:.places$}").parse::<f64>().unwrap_or(x);
            (0..count)
                .map(|i| SweepValue::Float(tidy(a + i as f64 * s)))
                .collect()
        }
    };
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(text: &str) -> Result<Vec<SweepValue>, String> {
        let table: toml::Table = toml::from_str(&format!("r = {text}")).unwrap();
        range_values(table["r"].as_table().unwrap())
    }

    #[test]
    fn paths_read_as_their_human_names() {
        assert_eq!(path_name("attacker.strength"), "attacker Strength");
        assert_eq!(path_label("attacker.strength"), "attacker Strength (score)");
        assert_eq!(path_label("victim.height_ft"), "victim height (feet)");
        assert_eq!(
            path_name("rules.sap_helpless_ko_cap"),
            "sap cap on a helpless victim"
        );
        assert_eq!(path_name("action_options.hands"), "hands on the victim");
        assert_eq!(
            path_name("attacker.saves.pp"),
            "attacker save vs petrification, polymorph"
        );
        assert_eq!(
            path_name("victim.backup_weapon.damage"),
            "victim backup weapon damage"
        );
        assert_eq!(
            path_name("attacker.opening_weapon.magic"),
            "attacker opening weapon's magic bonus"
        );
        assert_eq!(path_name("level_gap"), "level gap");
        assert_eq!(path_name("variant"), "variant");
        assert_eq!(
            path_value("attacker.strength", &SweepValue::Text("18/00".into())),
            "attacker Strength 18/00"
        );
        assert_eq!(
            path_value("rules.sap_ko_cap", &SweepValue::Int(60)),
            "sap knockout cap 60%"
        );
        assert_eq!(
            path_value("rules.helmets", &SweepValue::Bool(true)),
            "helmet rule: yes"
        );
    }

    #[test]
    fn every_sweep_path_has_a_name_of_its_own() {
        // Every field of every section (and every sub-field) has a name, and no two paths share one.
        let mut paths: Vec<String> = Vec::new();
        for section in SECTIONS {
            let fields: &[&str] = match section {
                "attacker" | "victim" => &CombatantSpec::FIELDS,
                "action_options" => &ActionOptionsSpec::FIELDS,
                _ => &RuleOptions::SWITCHES,
            };
            for field in fields {
                paths.push(format!("{section}.{field}"));
                // A weapon's `name` is the weapon itself, and is named so.
                for sub in sub_fields(field).0.iter().filter(|s| **s != "name") {
                    paths.push(format!("{section}.{field}.{sub}"));
                }
            }
        }
        let names: Vec<String> = paths.iter().map(|p| path_name(p)).collect();
        for (path, name) in paths.iter().zip(&names) {
            assert!(check_path(path).is_ok(), "{path}");
            assert!(path_key(path).is_some(), "{path} has no entry");
            assert_eq!(
                names.iter().filter(|n| *n == name).count(),
                1,
                "{path}: `{name}` names two paths"
            );
        }
    }

    #[test]
    fn integer_ranges_include_to() {
        assert_eq!(
            range("{ from = 1, to = 4 }").unwrap(),
            (1..=4).map(SweepValue::Int).collect::<Vec<_>>()
        );
        assert_eq!(
            range("{ from = 1, to = 6, step = 2 }").unwrap(),
            [1, 3, 5].map(SweepValue::Int)
        );
    }

    #[test]
    fn float_ranges_reach_to_despite_binary_fractions() {
        let v = range("{ from = 0.0, to = 0.3, step = 0.1 }").unwrap();
        assert_eq!(v.len(), 4);
        let v = range("{ from = 1.0, to = 2.0, step = 0.1 }").unwrap();
        assert_eq!(v[7], SweepValue::Float(1.7));
        assert_eq!(v[10], SweepValue::Float(2.0));
        let v = range("{ from = 0.25, to = 1, step = 0.25 }").unwrap();
        assert_eq!(v, [0.25, 0.5, 0.75, 1.0].map(SweepValue::Float));
    }

    #[test]
    fn ranges_too_wide_for_64_bits_are_refused_not_wrapped() {
        // `to - from` is 2^64 - 1 here: in 64 bits it wraps to a count of 0, an empty axis.
        let e = range(&format!("{{ from = {}, to = {} }}", i64::MIN, i64::MAX)).unwrap_err();
        assert!(e.contains("at most 100000"), "{e}");
        let e = range("{ from = -1e308, to = 1e308, step = 1e-300 }").unwrap_err();
        assert!(e.contains("at most 100000"), "{e}");
        assert_eq!(
            range(&format!(
                "{{ from = {}, to = {}, step = {} }}",
                i64::MIN,
                i64::MAX,
                u64::MAX / 4
            ))
            .unwrap()
            .len(),
            5
        );
    }

    #[test]
    fn bad_ranges_say_why() {
        assert!(range("{ from = 5, to = 1 }").unwrap_err().contains("empty"));
        assert!(
            range("{ from = 1, to = 5, step = 0 }")
                .unwrap_err()
                .contains("step")
        );
        assert!(range("{ from = 1 }").unwrap_err().contains("needs"));
        assert!(
            range("{ from = 1, to = 2, stp = 1 }")
                .unwrap_err()
                .contains("stp")
        );
        assert!(
            range("{ from = \"a\", to = 2 }")
                .unwrap_err()
                .contains("number")
        );
        assert!(
            range("{ from = 1, to = 10000000 }")
                .unwrap_err()
                .contains("at most")
        );
    }

    #[test]
    fn side_paths_reach_every_entry_or_one() {
        let every = side_path("attackers.weapon.magic").unwrap();
        assert_eq!((every.side, every.plural, every.entry), (0, true, None));
        assert_eq!(every.rest, ["weapon", "magic"]);
        let second = side_path("victims.2.level").unwrap();
        assert_eq!(
            (second.side, second.plural, second.entry),
            (1, true, Some(1))
        );
        assert_eq!(second.rest, ["level"]);
        let one = side_path("attacker.level").unwrap();
        assert_eq!((one.plural, one.entry), (false, Some(0)));
        assert!(side_path("rules.helmets").is_none());
        assert!(check_path("attackers.count").is_ok());
        assert!(check_path("victims.1.target").is_ok());
        assert!(check_path("attackers.2.weapon.magic").is_ok());
        assert!(check_path("attackers.0.level").is_err());
        assert!(check_path("attacker.count").is_err());
        assert_eq!(check_path("attackers.2.levle").unwrap_err().word, "levle");
        assert_eq!(path_name("attackers.level"), "attackers level");
        assert_eq!(path_name("attackers.2.level"), "attacker 2 level");
        assert_eq!(path_name("victims.count"), "victims count");
    }

    #[test]
    fn paths_must_name_a_field() {
        assert!(check_path("attacker.level").is_ok());
        assert!(check_path("rules.sap_ko_cap").is_ok());
        assert!(check_path("attacker.saves.pp").is_ok());
        assert!(check_path("victim.weapon.magic").is_ok());
        assert_eq!(check_path("atacker.level").unwrap_err().word, "atacker");
        assert_eq!(check_path("attacker.levle").unwrap_err().word, "levle");
        assert!(check_path("attacker").is_err());
        assert!(check_path("attacker.level.x").is_err());
        assert_eq!(check_path("attacker.saves.ppp").unwrap_err().word, "ppp");
        assert!(check_path("rules.foo").is_err());
    }
}
