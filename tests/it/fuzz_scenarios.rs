//! Fuzz-style property tests of the scenario parser and validator (`Scenario::parse`, what `subdual check`
//! runs): every shipped `scenarios/*.toml` is mutated at random (extreme numbers, deleted, duplicated and
//! swapped lines, catalog names, garbage and control characters in strings, truncation, random bytes, huge,
//! inverted and overflowing ranges, extra sweep axes and keys) and validated again.
//!
//! Whatever the text, validation must not panic; a rejected file names `file:line:column` inside the file
//! and a non-empty message; an accepted file has a sweep grid whose size is the true product of its axes
//! (no overflow, within `MAX_POINTS`), every axis and tune has values, every integer range has the values
//! it asks for, and no documented range (`ac` −20 to 20, `level` 0 to 20, `rules.sap_penalty` −20 to 20, ...)
//! lets an out-of-range value through.
//!
//! A release build wraps an arithmetic overflow silently, so the properties of accepted and rejected files
//! are what catch it there (a grid of 2^64 points passing as 0); a debug build panics at the overflow.
//!
//! The normal run is deterministic: a fixed proptest seed (no environment, no persisted failures), 30,000
//! cases (3,000 in a debug build), and every distinct failure shrunk (by proptest, then by deleting lines)
//! to a small repro printed in the test's message. `reported_repros_validate_cleanly` replays the repros
//! found so far. The long run is `#[ignore]`d: `FUZZ_CASES` (default 100000), `FUZZ_SEED` (any integer) and
//! `FUZZ_REPRO_DIR` (where to write each repro and its note) tune it:
//!
//! ```text
//! FUZZ_CASES=50000 FUZZ_REPRO_DIR=/tmp/fuzz-repros cargo test --release --test it fuzz_scenarios:: -- --ignored
//! ```

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::Range;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{Once, mpsc};
use std::time::{Duration, Instant};

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::{Index, select, subsequence};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use subdual::rules::RuleOptions;
use subdual::rules::action::Action;
use subdual::rules::catalog;
use subdual::scenario::Scenario;
use subdual::scenario::sweep::{MAX_POINTS, SweepValue};
use toml::{Table, Value};

/// Cases of the normal run: a few seconds on two cores with `cargo test --release`; a tenth of them in a
/// debug build, which is some ten times slower (and turns every arithmetic overflow into a panic).
const NORMAL_CASES: u32 = if cfg!(debug_assertions) {
    3_000
} else {
    30_000
};
/// Cases of the ignored long run unless `FUZZ_CASES` says.
const LONG_CASES: u32 = 100_000;
/// The seed of the normal run, and of the long run unless `FUZZ_SEED` says.
const NORMAL_SEED: u64 = 0x5ab_d0a1;
const LONG_SEED: u64 = 0x0de_fa17;
/// The name every mutated file is validated under.
const FILE: &str = "fuzz.toml";

// ---------------------------------------------------------------------------------------------------------
// Pools of values the mutations draw from.

/// Numbers as a file could write them: boundaries of every documented range, of i32, u32, i64 and u64,
/// beyond u64 (2^64 + 230), huge and tiny floats, and NaN-like text (valid TOML or not).
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "2",
    "3",
    "20",
    "21",
    "-20",
    "-21",
    "25",
    "26",
    "40",
    "41",
    "100",
    "101",
    "102",
    "255",
    "256",
    "10000",
    "10001",
    "65535",
    "65536",
    "100000",
    "100001",
    "2147483647",
    "-2147483648",
    "2147483648",
    "-2147483649",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551846",
    "1099511627776",
    "1099511627777",
    "1e308",
    "-1e308",
    "1e309",
    "5e-324",
    "1e-320",
    "0.5",
    "-0.5",
    "0.0",
    "-0.0",
    "nan",
    "+nan",
    "-nan",
    "inf",
    "-inf",
    "NaN",
    "Infinity",
    "0x7fffffffffffffff",
    "0xffffffffffffffff",
    "0b1",
    "0o777",
    "1_000_000",
    "007",
    "1.",
    "1e",
    "--1",
];

/// The numbers most likely to break a check, drawn more often than the rest.
const EXTREMES: &[&str] = &[
    "0",
    "-1",
    "-2147483648",
    "2147483647",
    "4294967295",
    "-9223372036854775808",
    "9223372036854775807",
    "18446744073709551615",
    "18446744073709551846",
    "1e308",
    "nan",
    "-inf",
];

/// Values of any type, for keys whose type is not a number.
const RAW_VALUES: &[&str] = &[
    "true",
    "false",
    "[]",
    "{}",
    "[1, 2]",
    "[[]]",
    "[{}]",
    "\"\"",
    "\"x\"",
    "1979-05-27",
    "07:32:00",
    "1979-05-27T07:32:00Z",
    "{ from = 1, to = 2 }",
    "{ name = \"club\" }",
    "[\"ogre\", 1]",
    "[\"1d4\", \"2d8\"]",
    "'literal'",
    "\"\"\"multi\nline\"\"\"",
    "-2147483648",
    "9223372036854775807",
    "nan",
];

/// Texts for strings: every catalog name and keyword, near misses, garbage, control characters (raw, which
/// TOML forbids, and escaped, which it allows), odd Unicode, dice and Hit Dice at and beyond their bounds.
fn texts() -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    out.extend(catalog::monsters().iter().map(|m| m.name.to_string()));
    out.extend(catalog::weapon_names().map(str::to_string));
    out.extend(catalog::races().iter().map(|r| r.name.to_string()));
    out.extend(catalog::classes().iter().map(|c| c.name.to_string()));
    out.extend(Action::ALL.iter().map(|a| a.name().to_string()));
    out.extend(RuleOptions::SWITCHES.iter().take(8).map(|s| s.to_string()));
    for word in [
        "punch",
        "wrestle",
        "overbear",
        "martial_arts",
        "disarm",
        "lethal",
        "weapon",
        "half_down",
        "down",
        "up",
        "highest_success",
        "margin",
        "save_level",
        "hit_dice",
        "front",
        "behind",
        "asleep",
        "held",
        "awake",
        "none",
        "proficient",
        "specialized",
        "T",
        "S",
        "M",
        "L",
        "H",
        "G",
        "huge",
        "plate",
        "full_plate",
        "p_knockout",
        "p_out",
        "rounds",
        "p_attacker_wins",
        "level_gap",
        "damage",
        "line",
        "histogram",
        "survival",
        "rounds_out",
        "bind_rounds",
        "difference",
        "attacker.level",
        "victim.monster",
        "victim.level",
        "attacker.strength",
        "action_options.hands",
        "action_options.style",
        "rules.sap_ko_cap",
        "rules.sap_penalty",
        "attacker.weapon.magic",
        "victim.saves.pp",
        "attacker",
        "attacker.level.x",
        "atacker.level",
        "1d4",
        "0d0",
        "1d0",
        "101d6",
        "100d1000",
        "1d1000+10000",
        "1d1000+10001",
        "1d4-10001",
        "d",
        "1d",
        "2d4+",
        "4+1",
        "100+100",
        "101",
        "1/2",
        "1/3",
        "0",
        "-1",
        "18/00",
        "18/100",
        "18/0",
        "18/",
        "3",
        "25",
        "26",
        "2",
        "18/50",
        "",
        " ",
        "ogr",
        "  ogre  ",
        "OGRE",
        "Hill_Giant",
        "hill-giant",
        "ö",
        "Ωgre",
        "o\u{301}gre",
        "\u{202e}ogre",
        "\u{feff}ogre",
        "🐉",
        "ogre\u{0}",
        "\u{1}",
        "\u{7}\u{8}",
        "\t",
        "\r",
        "\r\n",
        "\u{7f}",
        "\u{1b}[31m",
        "\\u0000",
        "\\u0007",
        "\\n",
        "\\",
        "\\\"",
        "\\x41",
        "\\uD800",
        "\\U0010FFFF",
        "\\U00110000",
        "a\"b",
        "../etc",
        "a/b",
        "%s%n",
        "nan",
        "1e308",
        "-2147483648",
        "18446744073709551846",
    ] {
        out.push(word.to_string());
    }
    out.push("x".repeat(300));
    out.push("ö".repeat(200));
    out
}

/// Lines `key = @` to set in a section (`section|template`), `@` standing for a number.
const NUMBER_FIELDS: &[&str] = &[
    "attacker|level = @",
    "victim|level = @",
    "attacker|dexterity = @",
    "victim|dexterity = @",
    "attacker|ac = @",
    "victim|ac = @",
    "attacker|shield = @",
    "victim|magic_ac = @",
    "attacker|thac0 = @",
    "victim|thac0 = @",
    "attacker|legs = @",
    "victim|legs = @",
    "attacker|hands_free = @",
    "victim|hp = @",
    "attacker|hp = @",
    "victim|height_ft = @",
    "attacker|height_ft = @",
    "attacker|strength = @",
    "victim|strength = @",
    "victim|saves = { pp = @ }",
    "attacker|saves = { ppd = @, sp = 1 }",
    "attacker|weapon = { name = \"club\", magic = @ }",
    "victim|weapon = { name = \"long sword\", hands = @ }",
    "attacker|backup_weapon = { name = \"club\", magic = @ }",
    "victim|attacks = [\"1d@\"]",
    "victim|hp = \"@d8\"",
    "attacker|hit_dice = \"@+1\"",
    "rules|armed_defender_bonus = @",
    "rules|sap_penalty = @",
    "rules|sap_ko_per_point = @",
    "rules|sap_ko_cap = @",
    "rules|sap_helpless_ko_per_point = @",
    "rules|sap_helpless_ko_cap = @",
    "rules|sap_wake_at = @",
    "rules|death_at = @",
    "rules|temp_heal_rounds = @",
    "rules|mug_max_height_ratio = @",
    "rules|mug_ko_rounds = \"@d8\"",
    "action_options|hands = @",
    "action_options|max_rounds = @",
    "top|trials = @",
    "top|seed = @",
    "top|confidence = @",
    "variant|rules = { armed_defender_bonus = @ }",
    "variant|rules = { sap_penalty = @ }",
    "variant|action_options = { hands = @ }",
    "variant|action_options = { max_rounds = @ }",
    "variant|attacker = { level = @ }",
    "variant|victim = { ac = @ }",
];

/// Lines to set in a section, `@` standing for a text (inside quotes).
const TEXT_FIELDS: &[&str] = &[
    "attacker|class = \"@\"",
    "victim|class = \"@\"",
    "attacker|race = \"@\"",
    "victim|monster = \"@\"",
    "attacker|monster = \"@\"",
    "attacker|weapon = \"@\"",
    "victim|backup_weapon = \"@\"",
    "victim|size = \"@\"",
    "victim|state = \"@\"",
    "attacker|position = \"@\"",
    "attacker|martial_arts = \"@\"",
    "victim|armor_type = \"@\"",
    "attacker|name = \"@\"",
    "victim|hit_dice = \"@\"",
    "attacker|strength = \"@\"",
    "victim|hp = \"@\"",
    "victim|attacks = [\"@\"]",
    "rules|rounding = \"@\"",
    "rules|grab_contest = \"@\"",
    "rules|mug_level_diff = \"@\"",
    "rules|grab_size_rounding = \"@\"",
    "rules|held_back_odd_point = \"@\"",
    "rules|held_response = \"@\"",
    "rules|sap_ko_rounds = \"@\"",
    "action_options|style = \"@\"",
    "action_options|victim_intent = \"@\"",
    "action_options|opening = \"@\"",
    "action_options|then = \"@\"",
    "top|action = \"@\"",
    "top|title = \"@\"",
    "top|baseline = \"@\"",
    "variant|name = \"@\"",
    "variant|action = \"@\"",
    "variant|baseline_metric = \"@\"",
];

/// Lines to set in a section, `@` standing for a value of any type (unknown keys included).
const ANY_FIELDS: &[&str] = &[
    "attacker|helmet = @",
    "victim|aware = @",
    "victim|intelligent = @",
    "victim|carrier = @",
    "victim|has_back = @",
    "victim|humanoid = @",
    "attacker|saves = @",
    "attacker|weapon = @",
    "victim|levle = @",
    "rules|helmets = @",
    "rules|natural_20_hits = @",
    "rules|rule = @",
    "action_options|hands = @",
    "top|sweep = @",
    "top|variant = @",
    "top|chart = @",
    "top|tune = @",
    "top|attacker = @",
    "top|trails = @",
    "variant|rules = @",
    "variant|name = @",
];

/// Sweep paths for a new axis: valid ones into every section, and malformed ones.
const AXIS_PATHS: &[&str] = &[
    "attacker.level",
    "victim.level",
    "attacker.ac",
    "victim.ac",
    "attacker.strength",
    "attacker.dexterity",
    "attacker.hp",
    "victim.hp",
    "attacker.thac0",
    "victim.saves.pp",
    "attacker.weapon.magic",
    "attacker.weapon.hands",
    "attacker.weapon",
    "victim.monster",
    "attacker.class",
    "attacker.race",
    "attacker.legs",
    "attacker.hands_free",
    "victim.height_ft",
    "rules.armed_defender_bonus",
    "rules.sap_penalty",
    "rules.sap_ko_cap",
    "rules.sap_wake_at",
    "rules.death_at",
    "rules.temp_heal_rounds",
    "rules.mug_max_height_ratio",
    "rules.rounding",
    "rules.helmets",
    "action_options.hands",
    "action_options.style",
    "action_options.max_rounds",
    "attacker",
    "attacker.levle",
    "atacker.level",
    "attacker.level.x",
    "attacker.saves.ppp",
    "",
    ".",
    "attacker..level",
    "rules.",
    "victim.weapon.magic.x",
    "level_gap",
    "trials",
];

/// Paths into `[action_options]`, drawn more often: most actions read none of them.
const OPTION_PATHS: &[&str] = &[
    "action_options.hands",
    "action_options.style",
    "action_options.max_rounds",
    "action_options.victim_intent",
    "action_options.opening",
    "action_options.then",
];

/// Paths for the axes of a large grid (distinct, numeric or not: no point is resolved when the grid is
/// too large).
const GRID_PATHS: &[&str] = &[
    "attacker.ac",
    "victim.ac",
    "attacker.thac0",
    "victim.thac0",
    "attacker.dexterity",
    "victim.dexterity",
    "attacker.legs",
    "victim.legs",
    "rules.sap_ko_cap",
    "rules.sap_ko_per_point",
    "rules.sap_wake_at",
    "rules.temp_heal_rounds",
];

/// Bounds of integer ranges: near the ends of i64, where `to - from` overflows.
const RANGE_BOUNDS: &[&str] = &[
    "-9223372036854775808",
    "-9223372036854775807",
    "-4611686018427387904",
    "-2147483648",
    "-1",
    "0",
    "1",
    "20",
    "2147483647",
    "4611686018427387904",
    "9223372036854775806",
    "9223372036854775807",
];

const RANGE_STEPS: &[&str] = &[
    "1",
    "2",
    "3",
    "0",
    "-1",
    "4611686018427387904",
    "9223372036854775807",
    "-9223372036854775808",
];

/// Lengths of a range from 1 near and beyond the limit of one axis.
const RANGE_ENDS: &[&str] = &[
    "65535",
    "65536",
    "99999",
    "100000",
    "100001",
    "1000000",
    "4294967296",
    "9223372036854775807",
];

const FLOAT_BOUNDS: &[&str] = &[
    "0.0",
    "1.5",
    "-1e308",
    "1e308",
    "1.7976931348623157e308",
    "-1.7976931348623157e308",
    "inf",
    "nan",
    "0.1",
    "1e-300",
    "5e-324",
    "100000.0",
];

const FLOAT_STEPS: &[&str] = &[
    "0.1", "1e-300", "5e-324", "1e-320", "0.0", "-0.5", "inf", "nan", "1e308", "1.0",
];

const TRIALS: &[&str] = &[
    "0",
    "1",
    "-1",
    "1099511627776",
    "1099511627777",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551846",
    "1e3",
    "1.5",
    "nan",
    "\"100\"",
    "true",
    "1_000",
    "[]",
];

// ---------------------------------------------------------------------------------------------------------
// Mutations.

/// A range `{ from, to, step }` as written.
#[derive(Debug, Clone)]
struct RangeText {
    from: String,
    to: String,
    step: Option<String>,
}

impl RangeText {
    fn text(&self) -> String {
        match &self.step {
            Some(s) => format!("{{ from = {}, to = {}, step = {s} }}", self.from, self.to),
            None => format!("{{ from = {}, to = {} }}", self.from, self.to),
        }
    }
}

/// The values of a new sweep axis.
#[derive(Debug, Clone)]
enum AxisValues {
    List(Vec<String>),
    Range(RangeText),
}

impl AxisValues {
    fn text(&self) -> String {
        match self {
            AxisValues::List(items) => format!("[{}]", items.join(", ")),
            AxisValues::Range(r) => r.text(),
        }
    }
}

/// One change to a scenario's text. Targets are [`Index`]es into what the text holds when the mutation is
/// applied (its numbers, strings, lines, ranges), so that proptest can shrink them.
#[derive(Debug, Clone)]
enum Mutation {
    /// Replace a number (a TOML number, or digits inside a string such as "1d4" or "18/50").
    Number { at: Index, value: &'static str },
    /// Delete a line that is neither blank nor a comment.
    DeleteLine { at: Index },
    /// Write a line twice.
    DuplicateLine { at: Index },
    /// Swap the values of two `key = value` lines.
    SwapValues { a: Index, b: Index },
    /// Replace the contents of a string.
    Text { at: Index, value: String },
    /// Cut the file at a byte (possibly inside a UTF-8 character).
    Truncate { at: Index },
    /// Insert bytes anywhere (possibly invalid UTF-8 or NUL).
    InsertBytes { at: Index, bytes: Vec<u8> },
    /// Replace a `{ from, to, step }` range of the file (sweep or tune).
    Range { at: Index, range: RangeText },
    /// Set `trials`.
    Trials { value: &'static str },
    /// Add a sweep axis.
    Axis {
        path: &'static str,
        values: AxisValues,
    },
    /// Add several range axes of 2^k values each (a grid whose size overflows 64 bits).
    Grid {
        paths: Vec<&'static str>,
        exponents: Vec<u32>,
    },
    /// Set a key of a section (`section|template`, `@` replaced by `value`).
    Field {
        template: &'static str,
        value: String,
    },
}

fn number() -> impl Strategy<Value = &'static str> {
    prop_oneof![1 => select(EXTREMES), 2 => select(NUMBERS)]
}

fn range_text() -> impl Strategy<Value = RangeText> {
    let int = |x: i64| x.to_string();
    prop_oneof![
        1 => (-30i64..130, -30i64..130, option::of(-3i64..10)).prop_map(move |(f, t, s)| RangeText {
            from: int(f),
            to: int(t),
            step: s.map(int),
        }),
        3 => (select(RANGE_BOUNDS), select(RANGE_BOUNDS), option::of(select(RANGE_STEPS))).prop_map(
            |(f, t, s)| RangeText {
                from: f.to_string(),
                to: t.to_string(),
                step: s.map(str::to_string),
            }
        ),
        1 => (select(["1", "0", "-1"].as_slice()), select(RANGE_ENDS)).prop_map(|(f, t)| RangeText {
            from: f.to_string(),
            to: t.to_string(),
            step: None,
        }),
        2 => (select(FLOAT_BOUNDS), select(FLOAT_BOUNDS), option::of(select(FLOAT_STEPS))).prop_map(
            |(f, t, s)| RangeText {
                from: f.to_string(),
                to: t.to_string(),
                step: s.map(str::to_string),
            }
        ),
    ]
}

fn list_value(texts: Vec<String>) -> impl Strategy<Value = String> {
    prop_oneof![
        number().prop_map(str::to_string),
        select(RAW_VALUES).prop_map(str::to_string),
        select(texts).prop_map(|t| format!("\"{t}\"")),
    ]
}

fn axis_values(texts: Vec<String>) -> impl Strategy<Value = AxisValues> {
    prop_oneof![
        1 => vec(list_value(texts), 0..4).prop_map(AxisValues::List),
        2 => range_text().prop_map(AxisValues::Range),
    ]
}

fn mutation(texts: Vec<String>) -> impl Strategy<Value = Mutation> {
    let field = prop_oneof![
        3 => (select(NUMBER_FIELDS), number().prop_map(str::to_string)),
        2 => (select(TEXT_FIELDS), select(texts.clone())),
        1 => (select(ANY_FIELDS), prop_oneof![select(RAW_VALUES), number()].prop_map(str::to_string)),
    ];
    let byte = prop_oneof![any::<u8>(), select(b"[]{}=\"'#\n\\,.0-\0".as_slice())];
    prop_oneof![
        3 => (any::<Index>(), number()).prop_map(|(at, value)| Mutation::Number { at, value }),
        1 => any::<Index>().prop_map(|at| Mutation::DeleteLine { at }),
        1 => any::<Index>().prop_map(|at| Mutation::DuplicateLine { at }),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::SwapValues { a, b }),
        2 => (any::<Index>(), select(texts.clone())).prop_map(|(at, value)| Mutation::Text { at, value }),
        1 => any::<Index>().prop_map(|at| Mutation::Truncate { at }),
        1 => (any::<Index>(), vec(byte, 1..8)).prop_map(|(at, bytes)| Mutation::InsertBytes { at, bytes }),
        2 => (any::<Index>(), range_text()).prop_map(|(at, range)| Mutation::Range { at, range }),
        1 => select(TRIALS).prop_map(|value| Mutation::Trials { value }),
        3 => (
            prop_oneof![2 => select(AXIS_PATHS), 1 => select(OPTION_PATHS)],
            axis_values(texts)
        )
            .prop_map(|(path, values)| Mutation::Axis { path, values }),
        1 => (subsequence(GRID_PATHS, 3..=6), vec(10u32..=16, 6)).prop_map(|(paths, exponents)| {
            Mutation::Grid { paths, exponents }
        }),
        4 => field.prop_map(|(template, value)| Mutation::Field { template, value }),
    ]
}

/// A case: which shipped file, and the mutations applied to it in order.
fn case(files: usize) -> impl Strategy<Value = (usize, Vec<Mutation>)> {
    (0..files, vec(mutation(texts()), 1..=4))
}

/// What the mutations look for in a text: spans of numbers, of string contents, and of inline tables.
struct Lexed {
    numbers: Vec<Range<usize>>,
    strings: Vec<Range<usize>>,
    tables: Vec<Range<usize>>,
}

fn lex(t: &[u8]) -> Lexed {
    let mut lexed = Lexed {
        numbers: Vec::new(),
        strings: Vec::new(),
        tables: Vec::new(),
    };
    let mut open: Vec<usize> = Vec::new();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'.';
    let mut i = 0;
    while i < t.len() {
        match t[i] {
            b'#' => {
                while i < t.len() && t[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            quote @ (b'"' | b'\'') => {
                let start = i + 1;
                i += 1;
                while i < t.len() && t[i] != quote && t[i] != b'\n' {
                    if quote == b'"' && t[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                let end = i.min(t.len());
                lexed.strings.push(start..end);
                // Digits inside a string: dice, Hit Dice, Strength.
                let mut j = start;
                while j < end {
                    if t[j].is_ascii_digit() {
                        let s = j;
                        while j < end && t[j].is_ascii_digit() {
                            j += 1;
                        }
                        lexed.numbers.push(s..j);
                    } else {
                        j += 1;
                    }
                }
            }
            b'{' => open.push(i),
            b'}' => {
                if let Some(s) = open.pop() {
                    lexed.tables.push(s..i + 1);
                }
            }
            c if (c.is_ascii_digit()
                || ((c == b'-' || c == b'+') && t.get(i + 1).is_some_and(u8::is_ascii_digit)))
                && (i == 0 || !word(t[i - 1])) =>
            {
                let s = i;
                i += 1;
                while i < t.len()
                    && (word(t[i])
                        || ((t[i] == b'-' || t[i] == b'+') && matches!(t[i - 1], b'e' | b'E')))
                {
                    i += 1;
                }
                lexed.numbers.push(s..i);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    lexed.tables.sort_by_key(|r| r.start);
    lexed
}

/// Line spans (without the newline).
fn lines(t: &[u8]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, b) in t.iter().enumerate() {
        if *b == b'\n' {
            out.push(start..i);
            start = i + 1;
        }
    }
    if start < t.len() {
        out.push(start..t.len());
    }
    out
}

fn trimmed(t: &[u8], r: &Range<usize>) -> String {
    String::from_utf8_lossy(&t[r.clone()]).trim().to_string()
}

/// The span of the value of a `key = value` line (up to a comment), and the key.
fn assignment(t: &[u8], line: &Range<usize>) -> Option<(String, Range<usize>)> {
    let bytes = &t[line.clone()];
    let first = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    if matches!(bytes[first], b'#' | b'[') {
        return None;
    }
    let mut quote = None;
    let mut eq = None;
    let mut end = bytes.len();
    for (i, b) in bytes.iter().enumerate() {
        match (quote, *b) {
            (None, b'"' | b'\'') => quote = Some(*b),
            (Some(q), c) if c == q => quote = None,
            (None, b'=') if eq.is_none() => eq = Some(i),
            (None, b'#') if eq.is_some() => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    let eq = eq?;
    let mut start = eq + 1;
    while start < end && bytes[start] == b' ' {
        start += 1;
    }
    while end > start && bytes[end - 1].is_ascii_whitespace() {
        end -= 1;
    }
    let key = String::from_utf8_lossy(&bytes[..eq]).trim().to_string();
    Some((key, line.start + start..line.start + end))
}

fn splice(t: &mut Vec<u8>, at: Range<usize>, with: &[u8]) {
    t.splice(at, with.iter().copied());
}

/// Inserts `line` into `section` (`top`, `variant` for the first `[[variant]]`, or a table), creating the
/// table at the end of the file when it has none.
fn insert_in_section(t: &mut Vec<u8>, section: &str, line: &str) {
    if section == "top" {
        splice(t, 0..0, format!("{line}\n").as_bytes());
        return;
    }
    let header = if section == "variant" {
        "[[variant]]".to_string()
    } else {
        format!("[{section}]")
    };
    let found = lines(t).into_iter().find(|l| trimmed(t, l) == header);
    match found {
        Some(l) => {
            let at = (l.end + 1).min(t.len());
            let text = if l.end >= t.len() {
                format!("\n{line}\n")
            } else {
                format!("{line}\n")
            };
            splice(t, at..at, text.as_bytes());
        }
        None => {
            let extra = if section == "variant" {
                format!("\n{header}\nname = \"fuzzed\"\n{line}\n")
            } else {
                format!("\n{header}\n{line}\n")
            };
            t.extend_from_slice(extra.as_bytes());
        }
    }
}

fn apply(t: &mut Vec<u8>, m: &Mutation) {
    match m {
        Mutation::Number { at, value } => {
            let lexed = lex(t);
            if !lexed.numbers.is_empty() {
                let r = lexed.numbers[at.index(lexed.numbers.len())].clone();
                splice(t, r, value.as_bytes());
            }
        }
        Mutation::DeleteLine { at } | Mutation::DuplicateLine { at } => {
            let all = lines(t);
            let content: Vec<&Range<usize>> = all
                .iter()
                .filter(|l| {
                    let s = trimmed(t, l);
                    !s.is_empty() && !s.starts_with('#')
                })
                .collect();
            if content.is_empty() {
                return;
            }
            let l = content[at.index(content.len())].clone();
            let end = (l.end + 1).min(t.len());
            if matches!(m, Mutation::DeleteLine { .. }) {
                splice(t, l.start..end, b"");
            } else {
                let mut copy = t[l.clone()].to_vec();
                copy.push(b'\n');
                splice(t, l.start..l.start, &copy);
            }
        }
        Mutation::SwapValues { a, b } => {
            let values: Vec<Range<usize>> = lines(t)
                .iter()
                .filter_map(|l| assignment(t, l).map(|(_, v)| v))
                .collect();
            if values.len() < 2 {
                return;
            }
            let (i, j) = (a.index(values.len()), b.index(values.len()));
            let (first, second) = if i < j {
                (values[i].clone(), values[j].clone())
            } else if j < i {
                (values[j].clone(), values[i].clone())
            } else {
                return;
            };
            let one = t[first.clone()].to_vec();
            let two = t[second.clone()].to_vec();
            splice(t, second, &one);
            splice(t, first, &two);
        }
        Mutation::Text { at, value } => {
            let lexed = lex(t);
            if !lexed.strings.is_empty() {
                let r = lexed.strings[at.index(lexed.strings.len())].clone();
                splice(t, r, value.as_bytes());
            }
        }
        Mutation::Truncate { at } => {
            let n = at.index(t.len() + 1);
            t.truncate(n);
        }
        Mutation::InsertBytes { at, bytes } => {
            let n = at.index(t.len() + 1);
            splice(t, n..n, bytes);
        }
        Mutation::Range { at, range } => {
            let lexed = lex(t);
            let ranges: Vec<Range<usize>> = lexed
                .tables
                .into_iter()
                .filter(|r| t[r.clone()].windows(4).any(|w| w == b"from"))
                .collect();
            if !ranges.is_empty() {
                let r = ranges[at.index(ranges.len())].clone();
                splice(t, r, range.text().as_bytes());
            }
        }
        Mutation::Trials { value } => {
            let found = lines(t)
                .iter()
                .find_map(|l| assignment(t, l).filter(|(k, _)| k == "trials"));
            match found {
                Some((_, v)) => splice(t, v, value.as_bytes()),
                None => insert_in_section(t, "top", &format!("trials = {value}")),
            }
        }
        Mutation::Axis { path, values } => {
            insert_in_section(t, "sweep", &format!("\"{path}\" = {}", values.text()));
        }
        Mutation::Grid { paths, exponents } => {
            for (path, k) in paths.iter().zip(exponents) {
                if String::from_utf8_lossy(t).contains(&format!("\"{path}\"")) {
                    continue;
                }
                let line = format!("\"{path}\" = {{ from = 1, to = {} }}", 1u64 << k);
                insert_in_section(t, "sweep", &line);
            }
        }
        Mutation::Field { template, value } => {
            let (section, line) = template.split_once('|').unwrap_or(("top", template));
            insert_in_section(t, section, &line.replace('@', value));
        }
    }
}

fn mutated(base: &str, mutations: &[Mutation]) -> Vec<u8> {
    let mut t = base.as_bytes().to_vec();
    for m in mutations {
        apply(&mut t, m);
    }
    t
}

// ---------------------------------------------------------------------------------------------------------
// The properties.

/// A property that does not hold: `class` groups failures with the same cause, `detail` tells this one.
#[derive(Debug, Clone)]
struct Finding {
    class: String,
    detail: String,
}

fn finding(class: impl Into<String>, detail: impl Into<String>) -> Finding {
    Finding {
        class: class.into(),
        detail: detail.into(),
    }
}

thread_local! {
    static FUZZING: Cell<bool> = const { Cell::new(false) };
    static PANIC: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
}

/// While a thread fuzzes, a panic records its message and place instead of printing them.
fn install_panic_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if FUZZING.with(Cell::get) {
                let payload = info.payload();
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "(a panic without a message)".to_string());
                let mut place = info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
                    .unwrap_or_default();
                // A panic inside the standard library (an overflow in `abs` or `product`) is placed at
                // the crate's own frame that called it.
                if !place.starts_with("src/") {
                    let trace = std::backtrace::Backtrace::force_capture().to_string();
                    let ours = format!("{}/src/", env!("CARGO_MANIFEST_DIR"));
                    if let Some(frame) = trace
                        .lines()
                        .filter_map(|l| l.trim().strip_prefix("at "))
                        .find_map(|l| l.strip_prefix(&ours).or_else(|| l.strip_prefix("./src/")))
                    {
                        place = format!("src/{frame} (in {place})");
                    }
                }
                PANIC.with(|p| *p.borrow_mut() = Some((message, place)));
            } else {
                default(info);
            }
        }));
    });
}

/// Digits replaced by `N`, so that one cause with different numbers is one class.
fn shape(text: &str) -> String {
    let mut out = String::new();
    let mut digits = false;
    for c in text.chars() {
        if c.is_ascii_digit() {
            if !digits {
                out.push('N');
            }
            digits = true;
        } else {
            out.push(c);
            digits = false;
        }
    }
    out
}

/// The true number of values of a range as written, `None` when the range is malformed (the validator
/// must reject it then). Integer ranges are counted without overflow; float ones as the validator counts.
fn true_range_count(range: &Table) -> Option<f64> {
    let from = range.get("from")?;
    let to = range.get("to")?;
    let step = range.get("step").cloned().unwrap_or(Value::Integer(1));
    match (from, to, &step) {
        (Value::Integer(a), Value::Integer(b), Value::Integer(s)) => {
            let (a, b, s) = (i128::from(*a), i128::from(*b), i128::from(*s));
            (s > 0 && b >= a).then(|| ((b - a) / s + 1) as f64)
        }
        _ => {
            let f = |v: &Value| v.as_float().or(v.as_integer().map(|i| i as f64));
            let (a, b, s) = (f(from)?, f(to)?, f(&step)?);
            let ok = s > 0.0 && s.is_finite() && a.is_finite() && b.is_finite() && b >= a;
            ok.then(|| ((b - a) / s + 1e-9).floor() + 1.0)
        }
    }
}

/// Variants × sweep values as the file asks for them, in f64 (exact below 2^53, saturating to infinity).
fn true_total(doc: &Table) -> Option<f64> {
    let variants = match doc.get("variant") {
        Some(Value::Array(items)) => items.iter().filter(|v| v.is_table()).count().max(1),
        _ => 1,
    };
    let mut total = variants as f64;
    if let Some(Value::Table(sweep)) = doc.get("sweep") {
        for value in sweep.values() {
            total *= match value {
                Value::Array(items) => items.len() as f64,
                Value::Table(range) => true_range_count(range)?,
                _ => return None,
            };
        }
    }
    Some(total)
}

/// Documented integer ranges of combatant fields (a path below `attacker` or `victim`).
const COMBATANT_RANGES: &[(&str, i64, i64)] = &[
    ("level", 0, 20),
    ("dexterity", 1, 25),
    ("ac", -20, 20),
    ("shield", -20, 20),
    ("magic_ac", -20, 20),
    ("thac0", -20, 40),
    ("legs", 0, 100),
    ("hands_free", 0, 2),
    ("saves.ppd", -20, 40),
    ("saves.rsw", -20, 40),
    ("saves.pp", -20, 40),
    ("saves.bw", -20, 40),
    ("saves.sp", -20, 40),
    ("weapon.magic", -10, 10),
    ("weapon.hands", 0, 2),
    ("backup_weapon.magic", -10, 10),
    ("backup_weapon.hands", 0, 2),
];

/// Documented integer ranges of rule switches and action options.
const SECTION_RANGES: &[(&str, &str, i64, i64)] = &[
    ("rules", "armed_defender_bonus", -20, 20),
    ("rules", "sap_penalty", -20, 20),
    ("rules", "sap_ko_per_point", 0, 100),
    ("rules", "sap_ko_cap", 0, 100),
    ("rules", "sap_helpless_ko_per_point", 0, 100),
    ("rules", "sap_helpless_ko_cap", 0, 100),
    ("rules", "sap_wake_at", 1, 101),
    ("rules", "death_at", -10, 0),
    ("rules", "temp_heal_rounds", 1, u32::MAX as i64),
    ("action_options", "hands", 1, 2),
    ("action_options", "max_rounds", 1, 10_000),
];

fn lookup<'v>(section: Option<&'v Value>, path: &[&str]) -> Option<&'v Value> {
    let mut value = section?;
    for seg in path {
        value = value.as_table()?.get(*seg)?;
    }
    Some(value)
}

/// A value of an accepted file outside its documented range, where some point reads it.
fn out_of_range(doc: &Table, s: &Scenario) -> Option<Finding> {
    let variants: Vec<&Table> = match doc.get("variant") {
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_table).collect(),
        _ => Vec::new(),
    };
    let mut checks: Vec<(String, String, i64, i64)> = Vec::new();
    for side in ["attacker", "victim"] {
        for (field, lo, hi) in COMBATANT_RANGES {
            checks.push((side.to_string(), field.to_string(), *lo, *hi));
        }
    }
    for (section, field, lo, hi) in SECTION_RANGES {
        checks.push((section.to_string(), field.to_string(), *lo, *hi));
    }
    let bad = |v: &Value, lo: i64, hi: i64| {
        v.as_integer()
            .filter(|i| !(lo..=hi).contains(i) || (hi == 0 && lo == -10 && *i != 0 && *i != -10))
    };
    for (section, field, lo, hi) in checks {
        let segs: Vec<&str> = field.split('.').collect();
        let full = format!("{section}.{field}");
        let whole = format!("{section}.{}", segs[0]);
        let swept = s.axes.iter().any(|a| a.path == full || a.path == whole);
        let report = |where_: &str, value: i64| {
            Some(finding(
                format!("out-of-range value accepted: {full}"),
                format!("{where_}{full} = {value} was accepted (documented range {lo} to {hi})"),
            ))
        };
        if let Some(v) = lookup(doc.get(&section), &segs).and_then(|v| bad(v, lo, hi)) {
            let overridden = !variants.is_empty()
                && variants.iter().all(|t| {
                    t.get(&section)
                        .and_then(Value::as_table)
                        .is_some_and(|t| t.contains_key(segs[0]))
                });
            if !swept && !overridden {
                return report("", v);
            }
        }
        for (i, t) in variants.iter().enumerate() {
            if let Some(v) = lookup(t.get(&section), &segs).and_then(|v| bad(v, lo, hi))
                && !swept
            {
                return report(&format!("variant {i}: "), v);
            }
        }
        for axis in s.axes.iter().filter(|a| a.path == full) {
            for value in &axis.values {
                if let SweepValue::Int(i) = value
                    && bad(&Value::Integer(*i), lo, hi).is_some()
                {
                    return report("a sweep value: ", *i);
                }
            }
        }
    }
    None
}

/// The properties of an accepted file.
fn check_accepted(text: &str, s: &Scenario) -> Option<Finding> {
    let doc: Table = match toml::from_str(text) {
        Ok(doc) => doc,
        Err(e) => {
            return Some(finding(
                "accepted a file that is not TOML",
                e.message().to_string(),
            ));
        }
    };
    let sweep = doc.get("sweep").and_then(Value::as_table);
    for axis in &s.axes {
        if axis.values.is_empty() {
            let kind = match sweep
                .and_then(|t| t.get(&axis.path))
                .and_then(Value::as_table)
            {
                Some(r) if r.values().all(Value::is_integer) => "an integer range",
                Some(_) => "a float range",
                None => "a list",
            };
            return Some(finding(
                format!("sweep axis without values accepted ({kind})"),
                format!(
                    "axis `{}` has no values, and the file validates with {} points",
                    axis.path,
                    s.points.len()
                ),
            ));
        }
    }
    let grid = s
        .axes
        .iter()
        .try_fold(1u128, |p, a| p.checked_mul(a.values.len() as u128));
    let total = grid.and_then(|g| g.checked_mul(s.variants.len() as u128));
    match total {
        Some(t) if t == s.points.len() as u128 && t <= MAX_POINTS as u128 => {}
        _ => {
            let sizes: Vec<String> = s.axes.iter().map(|a| a.values.len().to_string()).collect();
            let truth = total.map_or_else(|| "more than 2^128".to_string(), |t| t.to_string());
            return Some(finding(
                "sweep grid size overflows: accepted with a wrong point count",
                format!(
                    "{} variants × sweep axes of {} values = {truth} points, yet `check` reports {} points (at most {MAX_POINTS} are allowed)",
                    s.variants.len(),
                    sizes.join(" × "),
                    s.points.len()
                ),
            ));
        }
    }
    if s.grid() * s.variants.len() != s.points.len() {
        return Some(finding(
            "points are not variants × grid",
            format!(
                "{} points, {} variants, grid {}",
                s.points.len(),
                s.variants.len(),
                s.grid()
            ),
        ));
    }
    if !(1..=1u64 << 40).contains(&s.trials) {
        return Some(finding(
            "trials out of range accepted",
            format!("trials = {}", s.trials),
        ));
    }
    if !(s.confidence > 0.0 && s.confidence < 1.0) {
        return Some(finding(
            "confidence out of range accepted",
            format!("confidence = {}", s.confidence),
        ));
    }
    for tune in &s.tunes {
        if tune.values.is_empty()
            || tune
                .rows
                .iter()
                .any(|r| r.candidates.len() != tune.values.len())
        {
            return Some(finding(
                "tune without values accepted",
                format!(
                    "tune `{}` has {} values and {} rows",
                    tune.name,
                    tune.values.len(),
                    tune.rows.len()
                ),
            ));
        }
    }
    if let Some(sweep) = sweep {
        for axis in &s.axes {
            if let Some(Value::Table(range)) = sweep.get(&axis.path) {
                let truth = true_range_count(range);
                if truth != Some(axis.values.len() as f64) {
                    return Some(finding(
                        "range overflows: accepted with the wrong values",
                        format!(
                            "sweep `{}` = {} has {} values, yet {} were made ({:?}...)",
                            axis.path,
                            Value::Table(range.clone()),
                            truth.map_or_else(|| "no".to_string(), |t| format!("{t:e}")),
                            axis.values.len(),
                            axis.values.first()
                        ),
                    ));
                }
            }
        }
    }
    out_of_range(&doc, s)
}

/// The properties of a rejected file: a message, and a place inside the file that exists.
fn check_rejected(bytes: &[u8], e: &subdual::scenario::locate::ScenarioError) -> Option<Finding> {
    let shown = e.to_string();
    if e.message.trim().is_empty() || shown.trim().is_empty() {
        return Some(finding("error without a message", format!("{e:?}")));
    }
    let Some(line) = e.line else {
        return Some(finding("error without a line:column", shown));
    };
    let text = String::from_utf8_lossy(bytes);
    let file_lines: Vec<&str> = text.split('\n').collect();
    if line == 0 || line > file_lines.len() || e.column == 0 {
        return Some(finding(
            "error points outside the file",
            format!(
                "line {line} column {} of a {}-line file: {shown}",
                e.column,
                file_lines.len()
            ),
        ));
    }
    // The column may point at the end of the line, past a CR of a CRLF line ending.
    let raw = file_lines[line - 1];
    let actual = raw.trim_end_matches('\r');
    if e.column > raw.chars().count() + 1 {
        return Some(finding(
            "error column beyond its line",
            format!(
                "column {} of a {}-character line: {shown}",
                e.column,
                actual.chars().count()
            ),
        ));
    }
    if !shown.starts_with(&format!("{FILE}:{line}:{}: ", e.column)) {
        return Some(finding("error does not start with file:line:column", shown));
    }
    if let Some(source) = &e.source_line
        && std::str::from_utf8(bytes).is_ok()
        && source.trim_end_matches('\r') != actual
    {
        return Some(finding(
            "error shows another line than it names",
            format!("line {line} is `{actual}`, the message shows `{source}`: {shown}"),
        ));
    }
    // A count in a message must be the file's: an overflow shows as a negative or wrapped count.
    if e.message.contains("has -") && e.message.contains("values") {
        return Some(finding(
            "range error states a negative number of values (overflow)",
            shown,
        ));
    }
    let phrase = " points (variants × sweep values)";
    if let Some((n, _)) = e.message.split_once(phrase)
        && let Ok(n) = n.trim().parse::<f64>()
        && let Ok(doc) = toml::from_str::<Table>(&text)
        && let Some(truth) = true_total(&doc)
        && (truth - n).abs() > truth * 1e-12
    {
        return Some(finding(
            "sweep grid size overflows: the error states a wrong point count",
            format!("the file asks for {truth:e} points: {shown}"),
        ));
    }
    None
}

/// Validates `bytes` as a scenario and checks every property: `None` when all hold.
fn verdict(bytes: &[u8]) -> Option<Finding> {
    judge(bytes).0
}

/// How long one validation may take before it counts as a hang (the largest valid file, 100,000 points,
/// takes some seconds in a release build and a minute in a debug build).
const HANG_SECONDS: u64 = if cfg!(debug_assertions) { 300 } else { 60 };

/// The class of a validation that did not end within [`HANG_SECONDS`].
const HANG: &str = "validation does not end (hang)";

/// A thread that validates, so that a validation that never ends is a finding, not a stuck test.
struct Worker {
    cases: mpsc::Sender<Vec<u8>>,
    verdicts: mpsc::Receiver<(Option<Finding>, bool)>,
}

impl Worker {
    fn spawn() -> Worker {
        let (cases, inbox) = mpsc::channel::<Vec<u8>>();
        let (outbox, verdicts) = mpsc::channel();
        std::thread::spawn(move || {
            for bytes in inbox {
                if outbox.send(judge_here(&bytes)).is_err() {
                    break;
                }
            }
        });
        Worker { cases, verdicts }
    }
}

thread_local! {
    static WORKER: RefCell<Option<Worker>> = const { RefCell::new(None) };
    /// Validations of this thread that hung (each leaves its worker running until the process ends).
    static HANGS: Cell<u32> = const { Cell::new(0) };
    /// This thread's limit of one validation, in seconds.
    static LIMIT: Cell<u64> = const { Cell::new(HANG_SECONDS) };
}

/// [`verdict`], and whether the file was accepted; validated by this thread's worker, within
/// [`HANG_SECONDS`].
fn judge(bytes: &[u8]) -> (Option<Finding>, bool) {
    let worker = WORKER
        .with(|w| w.borrow_mut().take())
        .unwrap_or_else(Worker::spawn);
    worker
        .cases
        .send(bytes.to_vec())
        .expect("the worker takes cases");
    match worker
        .verdicts
        .recv_timeout(Duration::from_secs(LIMIT.with(Cell::get)))
    {
        Ok(verdict) => {
            WORKER.with(|w| *w.borrow_mut() = Some(worker));
            verdict
        }
        Err(_) => {
            // The stuck worker is left behind; the next case gets a new one.
            HANGS.with(|h| h.set(h.get() + 1));
            let f = finding(
                HANG,
                format!(
                    "no verdict after {} s: the validator is still running",
                    LIMIT.with(Cell::get)
                ),
            );
            (Some(f), false)
        }
    }
}

/// Validates `bytes` on this thread and checks every property.
fn judge_here(bytes: &[u8]) -> (Option<Finding>, bool) {
    install_panic_hook();
    FUZZING.with(|f| f.set(true));
    PANIC.with(|p| p.borrow_mut().take());
    let result = panic::catch_unwind(AssertUnwindSafe(|| Scenario::parse(FILE, "fuzz", bytes)));
    FUZZING.with(|f| f.set(false));
    match result {
        Err(_) => {
            let (message, place) = PANIC
                .with(|p| p.borrow_mut().take())
                .unwrap_or_else(|| ("(unknown)".to_string(), String::new()));
            let ours = place.split(" (in ").next().unwrap_or(&place);
            let f = finding(
                format!("panic at {ours}: {}", shape(&message)),
                format!("panicked at {place}: {message}"),
            );
            (Some(f), false)
        }
        Ok(Err(e)) => (check_rejected(bytes, &e), false),
        Ok(Ok(s)) => (check_accepted(&String::from_utf8_lossy(bytes), &s), true),
    }
}

// ---------------------------------------------------------------------------------------------------------
// The campaign: generate, check, shrink, minimize, report.

struct Shipped {
    name: String,
    text: String,
}

fn shipped() -> Vec<Shipped> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("scenarios/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no scenarios/*.toml");
    files
        .into_iter()
        .map(|p| Shipped {
            name: p.file_name().unwrap().to_string_lossy().into_owned(),
            text: std::fs::read_to_string(&p).expect("a shipped scenario is UTF-8"),
        })
        .collect()
}

/// Deletes lines (and comments) while the failure keeps its class: a small repro.
fn minimize(bytes: &[u8], class: &str) -> Vec<u8> {
    let hangs = HANGS.with(Cell::get);
    // After a hang, every other candidate is kept out: each hang leaves a thread running.
    let same =
        |b: &[u8]| HANGS.with(Cell::get) == hangs && verdict(b).is_some_and(|f| f.class == class);
    let split =
        |b: &[u8]| -> Vec<Vec<u8>> { b.split(|c| *c == b'\n').map(<[u8]>::to_vec).collect() };
    let join = |ls: &[Vec<u8>]| ls.join(&b'\n');
    let mut current = split(bytes);
    // Chunks of lines first, then single lines, until nothing more can go.
    let mut chunk = current.len().div_ceil(2).max(1);
    loop {
        let mut removed = false;
        let mut i = 0;
        while i < current.len() {
            let end = (i + chunk).min(current.len());
            let mut candidate = current.clone();
            candidate.drain(i..end);
            if same(&join(&candidate)) {
                current = candidate;
                removed = true;
            } else {
                i += chunk;
            }
        }
        if chunk == 1 && !removed {
            break;
        }
        if !removed {
            chunk = (chunk / 2).max(1);
        }
    }
    // Runs of two and three lines anywhere (a table header with its only key).
    for width in [3, 2] {
        let mut i = 0;
        while i + width <= current.len() {
            let mut candidate = current.clone();
            candidate.drain(i..i + width);
            if same(&join(&candidate)) {
                current = candidate;
            } else {
                i += 1;
            }
        }
    }
    // Trailing comments and blank lines.
    for i in 0..current.len() {
        if let Some(h) = current[i].iter().position(|c| *c == b'#') {
            let mut candidate = current.clone();
            let kept = candidate[i][..h].trim_ascii_end().to_vec();
            candidate[i] = kept;
            if same(&join(&candidate)) {
                current = candidate;
            }
        }
    }
    let mut candidate: Vec<Vec<u8>> = current.iter().filter(|l| !l.is_empty()).cloned().collect();
    if candidate.last().is_some() {
        candidate.push(Vec::new());
    }
    if same(&join(&candidate)) {
        current = candidate;
    }
    join(&current)
}

/// One distinct failure of a campaign.
struct Distinct {
    class: String,
    detail: String,
    count: u32,
    first_case: u32,
    file: String,
    mutations: Vec<Mutation>,
    repro: Vec<u8>,
}

struct Campaign {
    cases: u32,
    seconds: f64,
    accepted: u32,
    found: BTreeMap<String, Distinct>,
}

fn seed_bytes(seed: u64) -> [u8; 32] {
    let mut out = [0u8; 32];
    let mut x = seed;
    for chunk in out.chunks_mut(8) {
        // SplitMix64, to spread a small seed over the 32 bytes of ChaCha's.
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        chunk.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out
}

fn campaign(cases: u32, seed: u64) -> Campaign {
    let files = shipped();
    let config = Config {
        cases,
        rng_algorithm: RngAlgorithm::ChaCha,
        failure_persistence: None,
        max_shrink_iters: 2_000,
        ..Config::default()
    };
    let mut runner = TestRunner::new_with_rng(
        config,
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes(seed)),
    );
    let strategy = case(files.len());
    let started = Instant::now();
    let mut accepted = 0;
    let mut found: BTreeMap<String, Distinct> = BTreeMap::new();
    let mut ran = 0;
    for n in 0..cases {
        ran = n + 1;
        if HANGS.with(Cell::get) > 0 {
            // A hang while shrinking: its worker still runs, so the campaign ends here.
            break;
        }
        let mut tree = strategy.new_tree(&mut runner).expect("a case");
        let (file, mutations) = tree.current();
        let bytes = mutated(&files[file].text, &mutations);
        let (failure, ok) = judge(&bytes);
        accepted += u32::from(ok);
        let Some(failure) = failure else {
            continue;
        };
        if let Some(d) = found.get_mut(&failure.class) {
            d.count += 1;
            continue;
        }
        if failure.class == HANG {
            // Not shrunk (every step could hang too), and the last case: each hang leaves a thread running.
            found.insert(
                HANG.to_string(),
                Distinct {
                    class: HANG.to_string(),
                    detail: failure.detail,
                    count: 1,
                    first_case: n,
                    file: files[file].name.clone(),
                    mutations,
                    repro: bytes,
                },
            );
            break;
        }
        let hangs = HANGS.with(Cell::get);
        // Shrink the mutations (fewer, simpler) while the class stays, as proptest does.
        let class = failure.class.clone();
        let mut best = (file, mutations, bytes, failure);
        let mut steps = 0;
        if tree.simplify() {
            loop {
                steps += 1;
                let (f, ms) = tree.current();
                let b = mutated(&files[f].text, &ms);
                let still = verdict(&b).filter(|x| x.class == class);
                let more = match still {
                    Some(x) => {
                        best = (f, ms, b, x);
                        tree.simplify()
                    }
                    None => tree.complicate(),
                };
                if !more || steps > 2_000 || HANGS.with(Cell::get) > hangs {
                    break;
                }
            }
        }
        let (file, mutations, bytes, failure) = best;
        let repro = minimize(&bytes, &class);
        let detail = if HANGS.with(Cell::get) > hangs {
            failure.detail
        } else {
            verdict(&repro).map_or(failure.detail, |f| f.detail)
        };
        found.insert(
            class.clone(),
            Distinct {
                class,
                detail,
                count: 1,
                first_case: n,
                file: files[file].name.clone(),
                mutations,
                repro,
            },
        );
    }
    Campaign {
        cases: ran,
        seconds: started.elapsed().as_secs_f64(),
        accepted,
        found,
    }
}

fn slug(class: &str) -> String {
    let mut out = String::new();
    for c in class.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').chars().take(80).collect()
}

fn report(c: &Campaign, seed: u64) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} cases (seed {seed:#x}) in {:.1} s, {} accepted, {} distinct failures",
        c.cases,
        c.seconds,
        c.accepted,
        c.found.len()
    );
    for (i, d) in c.found.values().enumerate() {
        let _ = writeln!(
            out,
            "\n[{}] {}\n    seen {} times, first at case {} from scenarios/{}\n    {}\n    mutations: {:?}\n    minimal repro:\n----8<----\n{}\n---->8----",
            i + 1,
            d.class,
            d.count,
            d.first_case,
            d.file,
            d.detail,
            d.mutations,
            String::from_utf8_lossy(&d.repro)
        );
    }
    out
}

fn write_repros(c: &Campaign) {
    let Some(dir) = std::env::var_os("FUZZ_REPRO_DIR") else {
        return;
    };
    let dir = PathBuf::from(dir);
    std::fs::create_dir_all(&dir).expect("FUZZ_REPRO_DIR can be created");
    for d in c.found.values() {
        let path = dir.join(format!("{}.toml", slug(&d.class)));
        std::fs::write(&path, &d.repro).expect("a repro can be written");
        let note = format!("{}\n{}\n", d.class, d.detail);
        std::fs::write(path.with_extension("txt"), note).expect("a note can be written");
    }
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|v| {
        let v = v.trim();
        v.strip_prefix("0x")
            .map_or_else(|| v.parse(), |h| u64::from_str_radix(h, 16))
            .unwrap_or_else(|_| panic!("{name} must be a number, not `{v}`"))
    })
}

#[test]
fn mutated_shipped_scenarios_validate_without_panics_or_overflow() {
    let c = campaign(NORMAL_CASES, NORMAL_SEED);
    write_repros(&c);
    let text = report(&c, NORMAL_SEED);
    eprintln!("{text}");
    assert!(c.found.is_empty(), "{text}");
}

#[test]
#[ignore = "long fuzz run (minutes): FUZZ_CASES, FUZZ_SEED, FUZZ_REPRO_DIR"]
fn mutated_shipped_scenarios_long_run() {
    let cases = env_number("FUZZ_CASES").map_or(LONG_CASES, |n| n as u32);
    let seed = env_number("FUZZ_SEED").unwrap_or(LONG_SEED);
    let c = campaign(cases, seed);
    write_repros(&c);
    let text = report(&c, seed);
    eprintln!("{text}");
    assert!(c.found.is_empty(), "{text}");
}

/// The shipped files themselves hold every property (the oracle accepts what the validator accepts).
#[test]
fn shipped_scenarios_hold_every_property() {
    for file in shipped() {
        assert!(
            verdict(file.text.as_bytes()).is_none(),
            "scenarios/{}: {:?}",
            file.name,
            verdict(file.text.as_bytes())
        );
    }
}

/// The mutations change the files, and each kind finds something to change in every shipped file.
#[test]
fn every_mutation_changes_every_shipped_file() {
    let mut runner = TestRunner::new_with_rng(
        Config {
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes(1)),
    );
    let strategy = mutation(texts());
    for file in shipped() {
        let mut kinds: BTreeMap<String, bool> = BTreeMap::new();
        for _ in 0..400 {
            let m = strategy
                .new_tree(&mut runner)
                .expect("a mutation")
                .current();
            let kind = format!("{m:?}")
                .split([' ', '{'])
                .next()
                .unwrap()
                .to_string();
            let changed = mutated(&file.text, std::slice::from_ref(&m)) != file.text.as_bytes();
            *kinds.entry(kind).or_default() |= changed;
        }
        assert_eq!(kinds.len(), 12, "{}: kinds drawn {kinds:?}", file.name);
        let unchanged: Vec<&String> = kinds.iter().filter(|(_, c)| !**c).map(|(k, _)| k).collect();
        assert!(
            unchanged.is_empty() || unchanged == ["Range"],
            "{}: {unchanged:?} never change it",
            file.name
        );
    }
}

/// The minimal repros of the failures this fuzzer found (and testers reported), each of which must
/// validate cleanly (a located error, or an accepted file that holds every property) once fixed.
const REPORTED: &[(&str, &str)] = &[
    (
        "an overflowing float range on an action option the action does not use: index out of bounds",
        "action = \"grab_monster\"\n[sweep]\n\"action_options.style\" = { from = 0.0, to = 1.5, step = 1e-300 }\n",
    ),
    (
        "an overflowing integer range on an action option the action does not use: index out of bounds",
        "action = \"mug\"\n[sweep]\n\"action_options.hands\" = { from = -9223372036854775808, to = 9223372036854775807 }\n",
    ),
    (
        "an integer range whose length overflows: no values, 0 points",
        "action = \"mug\"\n[sweep]\n\"attacker.level\" = { from = -9223372036854775808, to = 9223372036854775807 }\n",
    ),
    (
        "a float range whose length overflows: no values, 0 points",
        "action = \"mug\"\n[sweep]\n\"attacker.level\" = { from = 0.1, to = 1e308 }\n",
    ),
    (
        "an integer range whose length overflows: a negative count in the message",
        "action = \"mug\"\n[sweep]\n\"attacker.level\" = { from = -9223372036854775808, to = 0 }\n",
    ),
    (
        "a sweep grid of 2^64 points: accepted as 0 points",
        "action = \"sap\"\n[sweep]\n\"attacker.ac\" = { from = 1, to = 65536 }\n\"victim.ac\" = { from = 1, to = 65536 }\n\"attacker.thac0\" = { from = 1, to = 65536 }\n\"victim.thac0\" = { from = 1, to = 65536 }\n",
    ),
    (
        "a sweep grid of 5 × 2^63 points: rejected with a wrong count",
        "action = \"sap\"\n[sweep]\n\"victim.monster\" = [\"kobold\", \"goblin\", \"orc\", \"gnoll\", \"ogre\"]\n\"attacker.ac\" = { from = 1, to = 65536 }\n\"victim.ac\" = { from = 1, to = 65536 }\n\"attacker.thac0\" = { from = 1, to = 65536 }\n\"victim.thac0\" = { from = 1, to = 32768 }\n",
    ),
    (
        "variants × a sweep grid of 2^63 points = 2^64: accepted as 0 points, then 2^63 points are resolved (a hang)",
        "action = \"sap\"\n[attacker]\nclass = \"fighter\"\n[victim]\nclass = \"fighter\"\n[sweep]\n\"attacker.hp\" = { from = 1, to = 65536 }\n\"victim.hp\" = { from = 1, to = 65536 }\n\"rules.temp_heal_rounds\" = { from = 1, to = 65536 }\n\"victim.height_ft\" = { from = 0.01, to = 327.68, step = 0.01 }\n[[variant]]\nname = \"a\"\n[[variant]]\nname = \"b\"\n",
    ),
    (
        "an integer range of i64::MAX + 1 values: a negative count in the message",
        "action = \"mug\"\n[sweep]\n\"attacker.level\" = { from = -1, to = 9223372036854775806 }\n",
    ),
    (
        "a tune range whose length overflows: a tune without values",
        "action = \"sap\"\n[attacker]\nclass = \"thief\"\n[victim]\nclass = \"fighter\"\n[[variant]]\nname = \"sap\"\n[[variant]]\nname = \"mugging\"\n[[tune]]\nparameter = \"rules.sap_helpless_ko_cap\"\nrange = { from = 40, to = 100, step = 5e-324 }\nmetric = \"p_out\"\nmatch = \"mugging\"\n",
    ),
    (
        "i32::MIN passes the -20 to 20 check of rules.armed_defender_bonus",
        "action = \"brawl\"\n[attacker]\nclass = \"fighter\"\n[victim]\nclass = \"fighter\"\n[rules]\narmed_defender_bonus = -2147483648\n",
    ),
    (
        "i32::MIN passes the -20 to 20 check of rules.sap_penalty",
        "action = \"sap\"\n[attacker]\nclass = \"fighter\"\n[victim]\nclass = \"fighter\"\n[rules]\nsap_penalty = -2147483648\n",
    ),
    (
        "a file of comments only: the error shows an empty line 1 instead of the file's",
        "# nothing but a comment\n",
    ),
];

#[test]
fn reported_repros_validate_cleanly() {
    // Each repro is small: once fixed, every one is judged in milliseconds.
    LIMIT.with(|l| l.set(10));
    let failures: Vec<String> = REPORTED
        .iter()
        .filter_map(|(what, text)| {
            verdict(text.as_bytes()).map(|f| format!("{what}:\n    {}\n    {}", f.class, f.detail))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} reported repros still fail:\n{}",
        failures.len(),
        REPORTED.len(),
        failures.join("\n")
    );
}
