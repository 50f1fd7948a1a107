//! Snapshots of the CSV format: a small fixed scenario run through the real binary, its summary.csv and
//! distributions.csv compared byte for byte with the files committed under tests/snapshots/.
//!
//! To accept a deliberate change of the format or of the results: `UPDATE_SNAPSHOTS=1 cargo test --release
//! --test it snapshots::`, then read the diff of tests/snapshots/ before committing it.

use crate::common;

use std::path::PathBuf;

use common::{
    Csv, Scratch, assert_success, check_distributions, check_summary, read_bytes, run_quiet,
};

/// Two variants (one with a comma in its name, to exercise CSV quoting) × a 2-value sweep, 1000 trials,
/// seed 1. The halfling (3 ft) cannot mug the 9-ft ogre: more than twice his height, one ineligible point.
const SNAPSHOT_SCENARIO: &str = r#"title = "Snapshot: mugging an orc or an ogre"
action = "mug"
trials = 1000
seed = 1

[attacker]
class = "thief"
level = 5
weapon = "club"
position = "behind"

[victim]
monster = "orc"
aware = false

[sweep]
"victim.monster" = ["orc", "ogre"]

[[variant]]
name = "as written"

[[variant]]
name = "halfling, helmet rule"
attacker = { race = "halfling" }
rules = { helmets = true }
"#;

fn snapshot_path(name: &str) -> PathBuf {
    common::repo().join("tests/snapshots").join(name)
}

/// Compares `actual` with the committed snapshot `name`, or writes it when `UPDATE_SNAPSHOTS=1`.
fn assert_snapshot(name: &str, actual: &[u8]) {
    let path = snapshot_path(name);
    if std::env::var("UPDATE_SNAPSHOTS").is_ok_and(|v| v == "1") {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("cannot create tests/snapshots");
        }
        std::fs::write(&path, actual).expect("cannot write the snapshot");
        eprintln!("updated snapshot {}", path.display());
        return;
    }
    let expected = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read the snapshot {}: {e}\n(run with UPDATE_SNAPSHOTS=1 to create it)",
            path.display()
        )
    });
    if expected != actual {
        panic!(
            "{} differs from its snapshot {}:\n{}\n(if the change is intended, run with \
             UPDATE_SNAPSHOTS=1 and review the diff)",
            name,
            path.display(),
            line_diff(&expected, actual)
        );
    }
}

/// A diff-like report: every line that differs, as `-expected` / `+actual`, with line numbers.
fn line_diff(expected: &[u8], actual: &[u8]) -> String {
    let (e, a) = (
        String::from_utf8_lossy(expected),
        String::from_utf8_lossy(actual),
    );
    let (e, a): (Vec<&str>, Vec<&str>) = (e.split('\n').collect(), a.split('\n').collect());
    let mut out = String::new();
    let mut shown = 0;
    for i in 0..e.len().max(a.len()) {
        let (x, y) = (e.get(i), a.get(i));
        if x != y {
            shown += 1;
            if shown > 40 {
                out.push_str("... (more differences)\n");
                break;
            }
            if let Some(x) = x {
                out.push_str(&format!("-{:>4} | {x}\n", i + 1));
            }
            if let Some(y) = y {
                out.push_str(&format!("+{:>4} | {y}\n", i + 1));
            }
        }
    }
    out
}

fn run_snapshot_scenario(scratch: &Scratch) -> PathBuf {
    let file = scratch.write("mug-snapshot.toml", SNAPSHOT_SCENARIO);
    let out = scratch.out();
    assert_success(&run_quiet(&file, &out, &[]));
    out.join("mug-snapshot")
}

#[test]
fn summary_csv_matches_its_snapshot() {
    let scratch = Scratch::new("summary_csv_matches_its_snapshot");
    let dir = run_snapshot_scenario(&scratch);
    assert_snapshot(
        "mug-snapshot.summary.csv",
        &read_bytes(&dir.join("summary.csv")),
    );
}

#[test]
fn distributions_csv_matches_its_snapshot() {
    let scratch = Scratch::new("distributions_csv_matches_its_snapshot");
    let dir = run_snapshot_scenario(&scratch);
    assert_snapshot(
        "mug-snapshot.distributions.csv",
        &read_bytes(&dir.join("distributions.csv")),
    );
}

/// What the snapshot files must show whatever the numbers: checked on the committed files themselves,
/// so an accepted update cannot silently break the format.
#[test]
fn snapshot_files_follow_the_csv_contract() {
    let summary_path = snapshot_path("mug-snapshot.summary.csv");
    if !summary_path.exists() && std::env::var("UPDATE_SNAPSHOTS").is_ok_and(|v| v == "1") {
        return; // being created by the tests above
    }
    let summary = Csv::read(&summary_path);
    assert_eq!(
        summary.header,
        [
            "variant",
            "victim.monster",
            "level_gap",
            "metric",
            "estimate",
            "ci_low",
            "ci_high",
            "std_error",
            "trials",
            "status"
        ]
    );
    let points = check_summary(&summary, "mug", Some(&["victim.monster"]), "snapshot");
    assert_eq!(points, 4);
    // Three eligible points × 6 metrics + one ineligible row.
    assert_eq!(summary.rows.len(), 3 * 6 + 1);

    let ineligible: Vec<&Vec<String>> = summary
        .rows
        .iter()
        .filter(|r| r[3] == "ineligible")
        .collect();
    assert_eq!(ineligible.len(), 1);
    let r = ineligible[0];
    assert_eq!(
        r.iter().map(String::as_str).collect::<Vec<_>>(),
        [
            "halfling, helmet rule",
            "ogre",
            "1",
            "ineligible",
            "",
            "",
            "",
            "",
            "0",
            "ineligible: the victim (9 ft) is more than 2 times as tall as the mugger (3 ft)"
        ]
    );
    // The variant with a comma is quoted (RFC 4180) in the raw text.
    let raw = String::from_utf8_lossy(&read_bytes(&summary_path)).into_owned();
    assert!(raw.contains("\n\"halfling, helmet rule\",ogre,1,ineligible,,,,,0,"));
    // Fixed metrics and counts are integers; floats read back exactly (checked in check_summary too).
    for r in &summary.rows {
        if r[3] == "save_needed" || r[3] == "roll_needed" {
            for c in &r[4..8] {
                assert!(c.chars().all(|c| c.is_ascii_digit()), "{r:?}");
            }
        }
        assert!(r[8].chars().all(|c| c.is_ascii_digit()), "{r:?}");
        if r[3] != "ineligible" && r[3] != "save_needed" && r[3] != "roll_needed" {
            for c in &r[4..8] {
                let x: f64 = c.parse().unwrap_or(f64::NAN);
                assert_eq!(format!("{x}"), *c, "{r:?}");
            }
        }
    }
    // Order: variants as listed, then the sweep values as listed.
    let order: Vec<(&str, &str)> = summary
        .rows
        .iter()
        .map(|r| (r[0].as_str(), r[1].as_str()))
        .fold(Vec::new(), |mut v, k| {
            if v.last() != Some(&k) {
                v.push(k);
            }
            v
        });
    assert_eq!(
        order,
        [
            ("as written", "orc"),
            ("as written", "ogre"),
            ("halfling, helmet rule", "orc"),
            ("halfling, helmet rule", "ogre")
        ]
    );

    let distributions = Csv::read(&snapshot_path("mug-snapshot.distributions.csv"));
    assert_eq!(
        distributions.header,
        [
            "variant",
            "victim.monster",
            "level_gap",
            "metric",
            "value",
            "count",
            "probability"
        ]
    );
    check_distributions(&distributions, "mug", Some(&["victim.monster"]), "snapshot");
    assert!(
        distributions
            .rows
            .iter()
            .all(|r| r[1] != "ogre" || r[0] != "halfling, helmet rule"),
        "the ineligible point has no distribution"
    );
    // Each eligible point's ko_rounds counts add up to its knockouts (ko_rounds' `trials`).
    for (variant, monster) in &order[..3] {
        let knockouts: u64 = summary
            .rows
            .iter()
            .find(|r| r[0] == *variant && r[1] == *monster && r[3] == "ko_rounds")
            .map(|r| r[8].parse().unwrap_or(0))
            .unwrap_or(0);
        let counted: u64 = distributions
            .rows
            .iter()
            .filter(|r| r[0] == *variant && r[1] == *monster && r[3] == "ko_rounds")
            .map(|r| r[5].parse::<u64>().unwrap_or(0))
            .sum();
        assert!(knockouts > 0);
        assert_eq!(counted, knockouts, "{variant} / {monster}");
        // ...and p_knockout is knockouts / trials.
        let p: f64 = summary
            .rows
            .iter()
            .find(|r| r[0] == *variant && r[1] == *monster && r[3] == "p_knockout")
            .map(|r| r[4].parse().unwrap_or(f64::NAN))
            .unwrap_or(f64::NAN);
        assert_eq!(p, knockouts as f64 / 1000.0, "{variant} / {monster}");
    }
}
