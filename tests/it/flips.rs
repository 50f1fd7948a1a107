//! flips.csv and exemplars.csv end to end through the binary (docs/scenarios.md "flips.csv",
//! "exemplars.csv"): the flips each way add up to differences.csv's headline difference, row for row; a
//! fight study has four exemplary trials a point, their lengths the nearest-rank percentiles of
//! distributions.csv; and a merge of shards names the very same trials as one run.

use crate::common;

use std::path::{Path, PathBuf};

use common::*;

fn num(cell: &str) -> f64 {
    cell.parse()
        .unwrap_or_else(|_| panic!("`{cell}` is not a number"))
}

/// Runs a shipped study at `trials` trials without charts into `out`; its folder.
fn shipped(name: &str, out: &Path, trials: &str, extra: &[&str]) -> PathBuf {
    let file = repo().join("scenarios").join(format!("{name}.toml"));
    let mut args = vec!["--trials", trials, "--no-charts"];
    args.extend_from_slice(extra);
    assert_success(&run_quiet(&file, out, &args));
    out.join(name)
}

/// The sweep paths of a file: its columns between `first` and `level_gap`.
fn paths<'a>(csv: &'a Csv, first: &str) -> &'a [String] {
    &csv.header[csv.col(first) + 1..csv.col("level_gap")]
}

#[test]
fn the_flips_each_way_add_up_to_the_headline_difference() {
    let scratch = Scratch::new("flips_add_up");
    let dir = shipped("sap-or-mug-the-sentry", &scratch.out(), "20000", &[]);
    let f = Csv::read(&dir.join("flips.csv"));
    let d = Csv::read(&dir.join("differences.csv"));
    let sweep = paths(&d, "baseline").to_vec();
    let mut expected = vec!["variant".to_string(), "baseline".to_string()];
    expected.extend(sweep.iter().cloned());
    expected.extend(
        [
            "level_gap",
            "metric",
            "p_flip_to",
            "ci_low_to",
            "ci_high_to",
            "p_flip_from",
            "ci_low_from",
            "ci_high_from",
            "trials",
            "example_to",
            "example_from",
        ]
        .map(str::to_string),
    );
    assert_eq!(f.header, expected);
    // One row per variant and point: the first row of each in differences.csv is its headline's.
    let key = |csv: &Csv, row: &[String]| -> Vec<String> {
        let mut k = vec![row[csv.col("variant")].clone()];
        k.extend(sweep.iter().map(|p| row[csv.col(p)].clone()));
        k
    };
    let mut headlines: Vec<&Vec<String>> = Vec::new();
    for row in &d.rows {
        if headlines.last().is_none_or(|h| key(&d, h) != key(&d, row)) {
            headlines.push(row);
        }
    }
    assert_eq!(
        f.rows.len(),
        headlines.len(),
        "one flips row per difference pair"
    );
    let (mut added, mut empty) = (0, 0);
    for (row, headline) in f.rows.iter().zip(&headlines) {
        assert_eq!(
            key(&f, row),
            key(&d, headline),
            "the order of differences.csv"
        );
        let metric = &row[f.col("metric")];
        assert_eq!(metric, &headline[d.col("metric")], "{row:?}");
        assert_eq!(row[f.col("trials")], headline[d.col("trials")], "{row:?}");
        let to = &row[f.col("p_flip_to")];
        if to.is_empty() {
            // A headline that is not a probability (the strike's damage): nothing to flip.
            assert!(!metric.starts_with("p_"), "{row:?}");
            for c in ["p_flip_from", "example_to", "example_from"] {
                assert!(row[f.col(c)].is_empty(), "{row:?}");
            }
            empty += 1;
            continue;
        }
        let (to, from) = (num(to), num(&row[f.col("p_flip_from")]));
        let difference = num(&headline[d.col("difference")]);
        assert!(
            (to - from - difference).abs() < 1e-12,
            "{to} − {from} ≠ {difference}: {row:?}"
        );
        for (p, low, high, example) in [
            (to, "ci_low_to", "ci_high_to", "example_to"),
            (from, "ci_low_from", "ci_high_from", "example_from"),
        ] {
            let (low, high) = (num(&row[f.col(low)]), num(&row[f.col(high)]));
            assert!(
                low <= p && p <= high && low >= 0.0 && high <= 1.0,
                "{row:?}"
            );
            // A trial is named exactly when the flip happened.
            assert_eq!(row[f.col(example)].is_empty(), p == 0.0, "{row:?}");
            if p > 0.0 {
                assert_integer(&row[f.col(example)], example);
                assert!(num(&row[f.col(example)]) < num(&row[f.col("trials")]));
            }
        }
        added += 1;
    }
    assert!(
        added > 0 && empty > 0,
        "{added} rows with flips, {empty} without"
    );
}

#[test]
fn a_fight_study_names_four_trials_a_point_at_its_percentiles() {
    let scratch = Scratch::new("exemplars");
    for name in ["brawl-vs-armed-guard", "thugs-on-a-guard"] {
        let dir = shipped(name, &scratch.out(), "2000", &[]);
        let e = Csv::read(&dir.join("exemplars.csv"));
        let s = Csv::read(&dir.join("summary.csv"));
        let dist = Csv::read(&dir.join("distributions.csv"));
        let sweep = paths(&s, "variant").to_vec();
        let mut expected = vec!["variant".to_string()];
        expected.extend(sweep.iter().cloned());
        expected.extend(["level_gap", "kind", "trial", "rounds"].map(str::to_string));
        assert_eq!(e.header, expected, "{name}");
        let point = |csv: &Csv, row: &[String]| -> Vec<String> {
            let mut k = vec![row[csv.col("variant")].clone()];
            k.extend(sweep.iter().map(|p| row[csv.col(p)].clone()));
            k
        };
        let mut points: Vec<Vec<String>> = Vec::new();
        for row in s.rows.iter().filter(|r| r[s.col("metric")] != "ineligible") {
            if points.last() != Some(&point(&s, row)) {
                points.push(point(&s, row));
            }
        }
        assert_eq!(e.rows.len(), 4 * points.len(), "{name}: four rows a point");
        for (rows, at) in e.rows.chunks(4).zip(&points) {
            let kinds: Vec<&str> = rows.iter().map(|r| r[e.col("kind")].as_str()).collect();
            assert_eq!(kinds, ["p5", "median", "p95", "first_death"], "{name}");
            // The point's rounds from distributions.csv, ascending: the nearest-rank percentiles.
            let rounds: Vec<(i64, u64)> = dist
                .rows
                .iter()
                .filter(|r| point(&dist, r) == *at && r[dist.col("metric")] == "rounds")
                .map(|r| {
                    (
                        r[dist.col("value")].parse().unwrap(),
                        r[dist.col("count")].parse().unwrap(),
                    )
                })
                .collect();
            let n: u64 = rounds.iter().map(|(_, c)| c).sum();
            assert_eq!(n, 2000, "{name} {at:?}");
            for (row, percent) in rows.iter().zip([5, 50, 95]) {
                assert_eq!(point(&e, row), *at, "{name}: point order");
                let rank = (percent * n).div_ceil(100);
                let mut seen = 0;
                let v = rounds
                    .iter()
                    .find(|(_, c)| {
                        seen += c;
                        seen >= rank
                    })
                    .unwrap()
                    .0;
                assert_eq!(row[e.col("rounds")], v.to_string(), "{name} {row:?}");
                assert_integer(&row[e.col("trial")], "trial");
            }
            let death = &rows[3];
            assert_eq!(
                death[e.col("trial")].is_empty(),
                death[e.col("rounds")].is_empty(),
                "{name} {death:?}"
            );
        }
    }
}

#[test]
fn a_merge_of_shards_names_the_trials_one_run_names() {
    let scratch = Scratch::new("flips_shards");
    let name = "brawl-vs-armed-guard";
    let file = repo().join("scenarios").join(format!("{name}.toml"));
    let single = shipped(name, &scratch.path.join("single"), "3000", &[]);
    let out = scratch.path.join("sharded");
    for i in [2, 0, 1] {
        let spec = format!("{i}/3");
        let threads = (1 + i).to_string();
        assert_success(&run_quiet(
            &file,
            &out,
            &[
                "--trials",
                "3000",
                "--no-charts",
                "--shard",
                &spec,
                "--threads",
                &threads,
            ],
        ));
    }
    let parts = out.join(name).join("parts");
    assert_success(&subdual([
        Path::new("merge"),
        Path::new("--quiet"),
        Path::new("--no-charts"),
        &parts,
    ]));
    for file in ["flips.csv", "exemplars.csv"] {
        let (one, merged) = (
            read_bytes(&single.join(file)),
            read_bytes(&out.join(name).join(file)),
        );
        assert!(one.len() > 100, "{file} has rows");
        assert!(
            one == merged,
            "{file}: the merge differs from the single run"
        );
    }
}
