//! Sides of several (docs/scenarios.md "Several combatants a side"), through the real binary: a side of one
//! written as entries runs as `[attacker]` does, byte for byte; more thugs win more often; a sweep of one
//! entry sets that entry alone; and every misuse of the form is refused with its line and column.

use crate::bad_input::{At, assert_rejected};
use crate::common;

use common::{Csv, Scratch, assert_success, read_bytes, run_quiet};

/// A guard with a long sword, written as one combatant.
const GUARD: &str = r#"[victim]
name = "guard"
class = "fighter"
level = 3
weapon = "long sword"
ac = 5
"#;

/// The same guard, as a side of entries.
fn guards() -> String {
    GUARD.replacen("[victim]", "[[victims]]", 1)
}

/// Runs `text` as `name.toml` in `scratch` and reads its summary.
fn summary(scratch: &Scratch, name: &str, text: &str) -> Csv {
    let file = scratch.write(&format!("{name}.toml"), text);
    let out = scratch.path.join(format!("out-{name}"));
    assert_success(&run_quiet(&file, &out, &[]));
    Csv::read(&out.join(name).join("summary.csv"))
}

/// The estimate of `metric` at every row that reports it, in order.
fn estimates(csv: &Csv, metric: &str) -> Vec<f64> {
    let m = csv.header.iter().position(|h| h == "metric").unwrap();
    let e = csv.header.iter().position(|h| h == "estimate").unwrap();
    csv.rows
        .iter()
        .filter(|r| r[m] == metric)
        .map(|r| r[e].parse().unwrap())
        .collect()
}

#[test]
fn a_side_of_one_written_as_entries_runs_as_one_combatant() {
    let scratch = Scratch::new("sides_of_one");
    let head = "action = \"brawl\"\ntrials = 3000\nseed = 11\n";
    let guards = guards();
    let one = format!(
        "{head}[attacker]\nname = \"brawler\"\nclass = \"fighter\"\nstrength = \"17\"\n{GUARD}[sweep]\n\"attacker.level\" = [1, 4]\n"
    );
    let entries = format!(
        "{head}[[attackers]]\nname = \"brawler\"\nclass = \"fighter\"\nstrength = \"17\"\ncount = 1\n{guards}[sweep]\n\"attackers.level\" = [1, 4]\n"
    );
    let mut outputs = Vec::new();
    for (name, text) in [("one", &one), ("entries", &entries)] {
        let file = scratch.write(&format!("{name}.toml"), text);
        let out = scratch.path.join(format!("out-{name}"));
        assert_success(&run_quiet(&file, &out, &[]));
        outputs.push(out.join(name));
    }
    for csv in ["summary.csv", "distributions.csv"] {
        let [one, entries] = [&outputs[0], &outputs[1]].map(|o| read_bytes(&o.join(csv)));
        // Only the sweep's column head differs: `attacker.level` against `attackers.level`.
        let entries =
            String::from_utf8(entries)
                .unwrap()
                .replacen("attackers.level", "attacker.level", 1);
        assert_eq!(
            String::from_utf8(one).unwrap(),
            entries,
            "{csv} of a side of one"
        );
    }
}

#[test]
fn more_thugs_on_an_armed_guard_win_more_often() {
    let scratch = Scratch::new("sides_thugs");
    let guards = guards();
    let text = format!(
        "action = \"brawl\"\ntrials = 20000\nseed = 7\n[[attackers]]\nname = \"thug\"\nclass = \"fighter\"\nlevel = 2\nstrength = \"16\"\n{guards}[sweep]\n\"attackers.count\" = [1, 2, 3]\n"
    );
    let csv = summary(&scratch, "thugs", &text);
    let win = estimates(&csv, "p_attackers_win");
    assert_eq!(win.len(), 3, "p_attackers_win at every count: {win:?}");
    assert!(
        win[0] + 0.02 < win[1] && win[1] + 0.05 < win[2],
        "each thug more wins clearly more often: {win:?}"
    );
    // One-on-one metrics are not reported by a fight of sides, even at count 1.
    assert!(estimates(&csv, "p_attacker_wins").is_empty());
}

#[test]
fn a_sweep_of_one_entry_sets_that_entry_alone() {
    let scratch = Scratch::new("sides_one_entry");
    let guards = guards();
    let side = |first: u32, second: u32| {
        format!(
            "action = \"brawl\"\ntrials = 3000\nseed = 5\n[[attackers]]\nname = \"thug\"\nclass = \"fighter\"\nlevel = {first}\n[[attackers]]\nname = \"veteran\"\nclass = \"fighter\"\nlevel = {second}\n{guards}"
        )
    };
    let swept = summary(
        &scratch,
        "swept",
        &format!("{}[sweep]\n\"attackers.2.level\" = [6]\n", side(1, 1)),
    );
    let written = summary(&scratch, "written", &side(1, 6));
    let other = summary(&scratch, "other", &side(6, 1));
    let win = |csv: &Csv| estimates(csv, "p_attackers_win");
    assert_eq!(
        win(&swept),
        win(&written),
        "the sweep set the veteran's level"
    );
    assert_ne!(win(&swept), win(&other), "and not the thug's");
}

/// A brawl of two thugs (`count`) on a guard, the base of the refused files below.
fn thugs(extra_attacker: &str, rest: &str) -> String {
    let guards = guards();
    format!(
        "action = \"brawl\"\n[[attackers]]\nclass = \"fighter\"\ncount = 2\n{extra_attacker}{guards}{rest}"
    )
}

#[test]
fn both_forms_of_a_side_are_refused() {
    let text = thugs("", "[attacker]\nlevel = 2\n");
    assert_rejected(
        "sides_both_forms",
        text.as_bytes(),
        At("[attacker]", 1),
        &["one form", "[[attackers]]"],
    );
}

#[test]
fn a_count_of_zero_is_refused() {
    let text = thugs("", "").replace("count = 2", "count = 0");
    assert_rejected(
        "sides_count_zero",
        text.as_bytes(),
        At("count = 0", 9),
        &["from 1 to 64"],
    );
}

#[test]
fn more_than_64_members_a_side_are_refused() {
    let text = thugs("", "[[attackers]]\nmonster = \"orc\"\ncount = 63\n");
    assert_rejected(
        "sides_too_many",
        text.as_bytes(),
        At("count = 63", 9),
        &["65 members", "at most 64"],
    );
}

#[test]
fn a_sweep_of_the_one_combatant_form_on_entries_is_refused() {
    let text = thugs("", "[sweep]\n\"attacker.level\" = [1, 2]\n");
    assert_rejected(
        "sides_singular_sweep",
        text.as_bytes(),
        At("\"attacker.level\"", 1),
        &["attackers.level"],
    );
}

#[test]
fn a_sweep_of_an_entry_beyond_the_last_is_refused() {
    let text = thugs(
        "",
        "[[attackers]]\nmonster = \"orc\"\n[sweep]\n\"attackers.3.level\" = [1, 2]\n",
    );
    assert_rejected(
        "sides_entry_beyond",
        text.as_bytes(),
        At("\"attackers.3.level\"", 1),
        &["2 entries", "attackers.2.level"],
    );
}

#[test]
fn a_single_action_with_a_side_of_several_is_refused() {
    let text = thugs("", "").replace("action = \"brawl\"", "action = \"strike\"");
    assert_rejected(
        "sides_single_action",
        text.as_bytes(),
        At("count = 2", 9),
        &["`strike`", "brawl", "subdue"],
    );
}

#[test]
fn an_unknown_target_policy_is_refused() {
    let text = thugs("target = \"weakst\"\n", "");
    assert_rejected(
        "sides_unknown_target",
        text.as_bytes(),
        At("target = \"weakst\"", 10),
        &["`weakst`", "weakest"],
    );
}

#[test]
fn a_variant_of_the_one_combatant_form_on_entries_is_refused() {
    let text = thugs(
        "",
        "[[variant]]\nname = \"tough\"\nattacker = { level = 5 }\n",
    );
    assert_rejected(
        "sides_singular_variant",
        text.as_bytes(),
        At("attacker = { level = 5 }", 12),
        &["[variant.attackers]"],
    );
}

#[test]
fn a_misspelt_field_of_an_entry_is_located() {
    let text = thugs("levle = 2\n", "");
    assert_rejected(
        "sides_misspelt_field",
        text.as_bytes(),
        At("levle = 2", 1),
        &["levle", "level"],
    );
}

/// The shipped thugs study at few trials: more thugs take the armed guard alive more often, the Combat &
/// Tactics pile is never better for them, and the report follows each verdict along the guard's targeting
/// policy.
#[test]
fn the_shipped_thugs_study_answers_how_many_it_takes_under_every_policy() {
    let scratch = Scratch::new("sides_shipped");
    let file = common::repo()
        .join("scenarios")
        .join("thugs-on-a-guard.toml");
    let out = scratch.out();
    assert_success(&run_quiet(&file, &out, &["--trials", "4000"]));
    let study = out.join("thugs-on-a-guard");
    let csv = Csv::read(&study.join("summary.csv"));
    let col = |name: &str| csv.header.iter().position(|h| h == name).unwrap();
    let (variant, count, weapon, target, metric, estimate) = (
        col("variant"),
        col("attackers.count"),
        col("victims.weapon"),
        col("victims.target"),
        col("metric"),
        col("estimate"),
    );
    let alive: Vec<f64> = csv
        .rows
        .iter()
        .filter(|r| {
            r[variant] == "phb-pile"
                && r[weapon] == "long sword"
                && r[target] == "focus"
                && r[metric] == "p_taken_alive"
        })
        .map(|r| r[estimate].parse().unwrap())
        .collect();
    assert_eq!(alive.len(), 6, "one row a gang size");
    assert!(alive[0] < 0.1 && alive[5] > 0.7, "{alive:?}");
    assert!(alive.windows(2).all(|w| w[1] > w[0]), "{alive:?}");
    let counts: Vec<&str> = csv.rows.iter().map(|r| r[count].as_str()).collect();
    assert!(counts.contains(&"6"));
    let report = String::from_utf8(read_bytes(&study.join("report.html"))).unwrap();
    assert!(report.contains("Under every targeting policy (<code>victims.target</code>)"));
    assert!(report.contains("headline verdicts hold under every policy"));
    assert!(
        report
            .contains("attackers.count = 6, victims.weapon = long sword: lower under every policy")
    );
}
