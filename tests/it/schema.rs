//! The scenario schema (`docs/scenario.schema.json`, what `subdual schema` prints) as an editor uses it:
//! every shipped scenario and every example of the documents passes it; a misspelt key, a wrong type and an
//! unknown monster fail it; and it never rejects a file that `subdual check` accepts, over a corpus of
//! accepted files built from every catalog name, spelling, switch value and field.

use crate::common;

use common::*;
use serde_json::Value;
use subdual::rules::RuleOptions;
use subdual::rules::action::Action;
use subdual::rules::catalog;
use subdual::scenario::Scenario;

fn validator() -> jsonschema::Validator {
    let text = read(&repo().join("docs").join("scenario.schema.json"));
    let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::draft202012::new(&schema).expect("the schema is a valid draft 2020-12 schema")
}

/// A TOML document as the JSON an editor checks against the schema.
fn as_json(text: &str) -> Value {
    let table: toml::Table = toml::from_str(text).expect("TOML");
    serde_json::to_value(table).expect("JSON")
}

/// What `subdual check` says of a file: accepted or not.
fn accepted(text: &str) -> bool {
    Scenario::parse("corpus.toml", "corpus", text.as_bytes()).is_ok()
}

fn errors(v: &jsonschema::Validator, text: &str) -> Vec<String> {
    v.iter_errors(&as_json(text))
        .map(|e| e.to_string())
        .collect()
}

/// Every ```toml block of a Markdown file.
fn toml_blocks(markdown: &str) -> Vec<String> {
    markdown
        .split("```toml\n")
        .skip(1)
        .map(|rest| rest.split("```").next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn every_shipped_scenario_and_every_documented_example_passes_the_schema() {
    let v = validator();
    let mut files: Vec<_> = std::fs::read_dir(repo().join("scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 9);
    for file in files {
        let text = read(&file);
        assert!(accepted(&text), "{}", file.display());
        assert_eq!(
            errors(&v, &text),
            Vec::<String>::new(),
            "{}",
            file.display()
        );
    }
    let docs = read(&repo().join("docs").join("scenarios.md"));
    let examples = toml_blocks(&docs);
    assert!(examples.len() >= 9, "a first scenario and one per action");
    let readme = read(&repo().join("README.md"));
    for example in examples.iter().chain(&toml_blocks(&readme)) {
        assert!(
            Scenario::parse("example.toml", "example", example.as_bytes()).is_ok(),
            "a documented example does not pass check:\n{example}\n{:?}",
            Scenario::parse("example.toml", "example", example.as_bytes()).err()
        );
        assert_eq!(errors(&v, example), Vec::<String>::new(), "{example}");
    }
    // Each action has its example.
    for action in Action::ALL {
        assert!(
            examples
                .iter()
                .any(|e| e.contains(&format!("action = \"{action}\""))),
            "no example of {action}"
        );
    }
}

const BASE: &str = "action = \"mug\"\n[attacker]\nclass = \"thief\"\nlevel = 5\nweapon = \"club\"\nposition = \"behind\"\n[victim]\nmonster = \"ogre\"\naware = false\n";

#[test]
fn a_misspelt_key_a_wrong_type_and_an_unknown_monster_fail_the_schema() {
    let v = validator();
    assert!(errors(&v, BASE).is_empty());
    let bad = [
        BASE.replace("level = 5", "levle = 5"),
        BASE.replace("level = 5", "level = \"five\""),
        BASE.replace("monster = \"ogre\"", "monster = \"orge\""),
        BASE.replace("action = \"mug\"", "action = \"mugging\""),
        format!("{BASE}[rules]\nsap_ko_cap = 140\n"),
        format!("{BASE}[rules]\nhelmet = true\n"),
        format!("{BASE}[action_options]\nhands = 1\n"),
        format!("{BASE}[[chart]]\nfile = \"a\"\nkind = \"pie\"\n"),
        format!("{BASE}[sweep]\n\"atacker.level\" = [1, 2]\n"),
    ];
    for text in &bad {
        assert!(!accepted(text), "check accepts it:\n{text}");
        assert!(!errors(&v, text).is_empty(), "the schema accepts:\n{text}");
    }
}

/// A brawl: eligible whatever the combatants' names and most of their fields are.
const BRAWL: &str = "action = \"brawl\"\n[attacker]\nclass = \"fighter\"\nlevel = 5\nweapon = \"club\"\n[victim]\nmonster = \"ogre\"\n";

/// The brawl with `line` added to a section.
fn with(section: &str, line: &str) -> String {
    let (head, tail) = BRAWL.split_once(&format!("[{section}]\n")).unwrap();
    format!("{head}[{section}]\n{line}\n{tail}")
}

#[test]
fn the_schema_never_rejects_a_file_that_check_accepts() {
    let v = validator();
    let mut corpus: Vec<String> = Vec::new();
    // Every catalog name, in the spellings the look-ups accept.
    let spell = |name: &str| {
        vec![
            name.to_string(),
            name.to_uppercase(),
            name.replace(' ', "_"),
            name.replace(' ', "-"),
            format!(" {name} "),
        ]
    };
    for m in catalog::monsters() {
        for s in spell(m.name) {
            corpus.push(BRAWL.replace("monster = \"ogre\"", &format!("monster = \"{s}\"")));
        }
    }
    for w in catalog::weapon_names() {
        for s in spell(w) {
            corpus.push(BRAWL.replace("weapon = \"club\"", &format!("weapon = \"{s}\"")));
        }
    }
    for r in catalog::races() {
        for s in spell(r.name) {
            corpus.push(with("attacker", &format!("race = \"{s}\"")));
        }
    }
    for c in catalog::classes() {
        for s in spell(c.name) {
            corpus.push(BRAWL.replace("class = \"fighter\"", &format!("class = \"{s}\"")));
        }
    }
    // Combatant fields at their edges and in their other spellings.
    let fields = [
        "size = \"medium\"",
        "size = \"man-sized\"",
        "size = \"t\"",
        "armor_type = \"studded leather\"",
        "armor_type = \"PLATE MAIL\"",
        "armor_type = \"full-plate\"",
        "strength = 3",
        "strength = \"18\"",
        "strength = \" 16 \"",
        "level = 0",
        "level = 20",
        "hp = 1",
        "hp = \"12\"",
        "hp = \"4d8+1\"",
        "hp = \"d6\"",
        "dexterity = 1",
        "dexterity = 25",
        "ac = -20",
        "ac = 20",
        "height_ft = 0.5",
        "height_ft = 1000",
        "hands_free = 0",
        "legs = 100",
        "thac0 = -20",
        "saves = { pp = -20, sp = 40 }",
        "weapon = { name = \"sap\", size = \"S\", type = \"B\", damage = \"1d4\", damage_large = \"1d3\", controllable = true }",
        "weapon = { name = \"club\", magic = -10 }",
        "backup_weapon = \"dagger\"",
        "state = \"held\"",
        "aware = true",
        "has_back = false",
        "helmet = true",
        "magic_ac = 3",
        "shield = 1",
    ];
    for field in fields {
        corpus.push(with("attacker", field));
        corpus.push(with("victim", field));
    }
    let monsters = [
        "hit_dice = \"4+1\"",
        "hit_dice = \"1/2\"",
        "hit_dice = \"1-1\"",
        "hit_dice = 3",
        "attacks = [\"1d6\", \"2d4+2\"]",
        "intelligent = false",
        "carrier = true",
        "humanoid = false",
        "natural_armor = true",
        "strength = 25",
    ];
    for field in monsters {
        corpus.push(with("victim", field));
    }
    // Every switch at its edges, through `[rules]` and through a sweep.
    let switches = [
        "natural_20_hits = false",
        "rounding = \"up\"",
        "mug_max_height_ratio = 0.1",
        "mug_max_height_ratio = 3",
        "mug_ko_rounds = \"1d4\"",
        "mug_level_diff = \"save_level\"",
        "armed_defender_bonus = -20",
        "armed_defender_bonus = 20",
        "sap_penalty = -20",
        "sap_ko_cap = 0",
        "sap_ko_cap = 100",
        "sap_wake_at = 1",
        "sap_wake_at = 101",
        "grab_contest = \"highest_success\"",
        "grab_size_rounding = \"toward_zero\"",
        "death_at = -10",
        "temp_heal_rounds = 1",
        "held_back_odd_point = \"real\"",
        "mug_bare_hands = true",
        "mug_humanoid_only = false",
        "armed_defender_vs_grabs = false",
        "grab_person_size = false",
    ];
    for switch in switches {
        corpus.push(format!("{BASE}[rules]\n{switch}\n"));
    }
    // Every action with every option it reads.
    let options = [
        ("grab_person", "hands = 1"),
        ("grab_monster", "hands = 2"),
        ("brawl", "style = \"overbear\""),
        ("brawl", "max_rounds = 10000"),
        ("subdue", "victim_intent = \"subdue\""),
        ("subdue", "style = \"wrestle\""),
    ];
    for (action, option) in options {
        let text = BASE
            .replace("action = \"mug\"", &format!("action = \"{action}\""))
            .replace("weapon = \"club\"", "weapon = \"long sword\"")
            .replace("class = \"thief\"", "class = \"fighter\"")
            .replace("aware = false", "");
        corpus.push(format!("{text}[action_options]\n{option}\n"));
    }
    // Sweeps, variants and charts of every shape.
    corpus.push(format!(
        "{BASE}[sweep]\n\"attacker.level\" = {{ from = 1, to = 20, step = 2 }}\n\"rules.mug_max_height_ratio\" = {{ from = 1.0, to = 2.0, step = 0.5 }}\n\"attacker.weapon.magic\" = [0, 1]\n\"victim.saves.pp\" = [10, 12]\n"
    ));
    corpus.push(format!(
        "title = \"t\"\ntrials = 1\nseed = 18446744073709551615\nconfidence = 0.999\n{BASE}[[variant]]\nname = \"a\"\n[[variant]]\nname = \"b\"\nrules = {{ helmets = true }}\nattacker = {{ level = 7 }}\nvictim = {{ helmet = true }}\n"
    ));
    corpus.push(format!(
        "{BASE}[sweep]\n\"attacker.level\" = [1, 2]\n\"victim.monster\" = [\"orc\", \"ogre\"]\n[[chart]]\nfile = \"h\"\nkind = \"heatmap\"\nx = \"attacker.level\"\ny = \"victim.monster\"\nmetric = \"p_hit\"\ntitle = \"T\"\n[[chart]]\nkind = \"histogram\"\ny = \"ko_rounds\"\nat = {{ \"attacker.level\" = 2 }}\nseries = \"victim.monster\"\n"
    ));
    let mut checked = 0;
    for text in &corpus {
        if accepted(text) {
            checked += 1;
            assert_eq!(
                errors(&v, text),
                Vec::<String>::new(),
                "check accepts, the schema rejects:\n{text}"
            );
        }
    }
    assert!(
        checked * 10 >= corpus.len() * 9,
        "most of the corpus is valid: {checked} of {}",
        corpus.len()
    );
}

#[test]
fn the_schemas_switch_ranges_are_the_ones_check_enforces() {
    let v = validator();
    // Just outside each range: check and the schema both refuse.
    let outside = [
        "sap_ko_cap = 101",
        "sap_ko_per_point = 101",
        "sap_wake_at = 0",
        "sap_wake_at = 102",
        "death_at = -5",
        "temp_heal_rounds = 0",
        "armed_defender_bonus = 21",
        "sap_penalty = -21",
        "mug_max_height_ratio = 0",
        "rounding = \"nearest\"",
        "held_back_odd_point = \"half\"",
    ];
    for switch in outside {
        let text = format!("{BASE}[rules]\n{switch}\n");
        assert!(!accepted(&text), "check accepts {switch}");
        assert!(!errors(&v, &text).is_empty(), "the schema accepts {switch}");
    }
    // And every switch is in the schema, with the default the program uses.
    let schema: Value =
        serde_json::from_str(&read(&repo().join("docs").join("scenario.schema.json"))).unwrap();
    let props = &schema["$defs"]["RuleOptions"]["properties"];
    let defaults = serde_json::to_value(RuleOptions::default()).unwrap();
    for switch in RuleOptions::SWITCHES {
        assert_eq!(props[switch]["default"], defaults[switch], "{switch}");
    }
}
