//! Survival charts through the real binary: a mugging's knockout length drawn as the share still out after
//! N rounds, written as SVG and PNG, the same from a merge of shards as from one run; the curve against the
//! exact tail of 2d8; and the files that ask for one over the wrong distribution, refused where they ask.

use crate::common;

use std::path::Path;

use common::*;
use subdual::export::chart::data::survival;
use subdual::stats::interval::z_for;

/// A mugging of an ogre sentry by a 9th-level thief (the ogre saves on 17), as written and with the
/// helmet rule, and its knockouts' survival chart.
fn mugging(trials: u64) -> String {
    format!(
        "title = \"Out cold\"\n{}[[variant]]\nname = \"as written\"\n[[variant]]\nname = \"helmet rule\"\nrules = {{ helmets = true }}\n[[chart]]\nfile = \"out-cold\"\nkind = \"survival\"\ny = \"ko_rounds\"\n",
        MUG_BASE.replace("trials = 1000", &format!("trials = {trials}"))
    )
}

/// The counts of `metric` in a study's distributions.csv for one variant, `(value, count)` ascending.
fn counts(dir: &Path, variant: &str, metric: &str) -> Vec<(i64, u64)> {
    let csv = Csv::read(&dir.join("distributions.csv"));
    let (v, m, value, count) = (
        csv.col("variant"),
        csv.col("metric"),
        csv.col("value"),
        csv.col("count"),
    );
    csv.rows
        .iter()
        .filter(|r| r[v] == variant && r[m] == metric)
        .map(|r| (r[value].parse().unwrap(), r[count].parse().unwrap()))
        .collect()
}

#[test]
fn a_mugging_draws_its_knockouts_survival_as_svg_and_png() {
    let scratch = Scratch::new("survival_svg");
    let file = scratch.write("out.toml", mugging(2000));
    assert_success(&run_quiet(&file, &scratch.out(), &[]));
    let dir = scratch.out().join("out");
    let svg = read(&dir.join("out-cold.svg"));
    for text in [
        "Out cold",
        "N (rounds)",
        "knockout length above N (%)",
        "Wilson score intervals",
        "Trials with a knockout length: as written",
        "as written",
        "helmet rule",
    ] {
        assert!(svg.contains(text), "the SVG lacks {text:?}");
    }
    let png = read_bytes(&dir.join("out-cold.png"));
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn a_merge_of_shards_draws_the_survival_chart_of_one_run() {
    let scratch = Scratch::new("survival_merge");
    // Two blocks of trials: two work items, one a shard.
    let file = scratch.write("out.toml", mugging(70_000));
    let single = scratch.path.join("single");
    assert_success(&run_quiet(&file, &single, &[]));
    let split = scratch.path.join("split");
    for shard in ["0/2", "1/2"] {
        assert_success(&run_quiet(&file, &split, &["--shard", shard]));
    }
    let parts = split.join("out").join("parts");
    assert_success(&subdual([
        Path::new("merge"),
        Path::new("--quiet"),
        parts.as_path(),
    ]));
    assert_eq!(
        read(&single.join("out").join("out-cold.svg")),
        read(&split.join("out").join("out-cold.svg"))
    );
}

/// P(2d8 > n), from the 64 equally likely rolls.
fn exact_2d8_above(n: i64) -> f64 {
    let above = (1..=8)
        .flat_map(|a| (1..=8).map(move |b| a + b))
        .filter(|sum| *sum > n)
        .count();
    above as f64 / 64.0
}

#[test]
fn a_mugging_knockout_survives_as_the_exact_tail_of_2d8() {
    assert_eq!(
        (exact_2d8_above(1), exact_2d8_above(2), exact_2d8_above(15)),
        (1.0, 63.0 / 64.0, 1.0 / 64.0)
    );
    let scratch = Scratch::new("survival_2d8");
    let file = scratch.write("out.toml", mugging(200_000));
    assert_success(&run_quiet(&file, &scratch.out(), &[]));
    let knockouts = counts(&scratch.out().join("out"), "as written", "ko_rounds");
    let n: u64 = knockouts.iter().map(|(_, c)| c).sum();
    assert!(n > 50_000, "{n} knockouts");
    let curve = survival(&knockouts, z_for(0.95));
    // Every sum of 2d8 shows up in so many knockouts: N runs from 0 to 16.
    assert_eq!(
        curve.iter().map(|(at, _)| *at).collect::<Vec<_>>(),
        (0..=16).collect::<Vec<_>>()
    );
    let mut uncovered = Vec::new();
    for (at, e) in &curve {
        let p = exact_2d8_above(*at);
        let estimate = e.estimate.unwrap();
        assert_eq!(e.trials, n);
        if p == 0.0 || p == 1.0 {
            // No spread: exactly.
            assert_eq!(estimate, p, "S({at})");
        } else {
            let se = (p * (1.0 - p) / n as f64).sqrt();
            assert!(
                (estimate - p).abs() <= 4.5 * se,
                "S({at}) = {estimate} against the exact {p}: {:.1} standard errors",
                (estimate - p) / se
            );
        }
        if !(e.ci_low.unwrap() <= p && p <= e.ci_high.unwrap()) {
            uncovered.push(*at);
        }
    }
    // 95% bands over the 14 values of N with a spread: missing more than 3 has a chance below 1%.
    assert!(
        uncovered.len() <= 3,
        "bands missing the exact value at N = {uncovered:?}"
    );
}

/// `check` on the file refuses it with exit code 2 and a message `FILE:LINE:COL: message` at `at` (a text
/// found once, and its column), mentioning every word of `words`.
fn assert_refused(test: &str, contents: &str, at: (&str, usize), words: &[&str]) {
    let scratch = Scratch::new(test);
    let file = scratch.write(&format!("{test}.toml"), contents);
    let name = file.display().to_string();
    let o = subdual(["check", name.as_str()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
    assert_eq!(
        contents.matches(at.0).count(),
        1,
        "`{}` is not found once",
        at.0
    );
    let line = contents[..contents.find(at.0).unwrap()]
        .matches('\n')
        .count()
        + 1;
    let place = format!("{name}:{line}:{}: ", at.1);
    assert!(err.contains(&place), "expected `{place}` in:\n{err}");
    for w in words {
        assert!(err.contains(w), "the message must mention `{w}`:\n{err}");
    }
}

#[test]
fn a_survival_chart_over_a_distribution_not_in_rounds_is_refused() {
    let sap = MUG_BASE.replace("action = \"mug\"", "action = \"sap\"");
    assert_refused(
        "survival_over_damage",
        &format!("{sap}[[chart]]\nkind = \"survival\"\ny = \"damage\"\n"),
        ("y = \"damage\"", 5),
        &[
            "`damage` is not a distribution measured in rounds of action sap",
            "expected one of: ko_rounds",
            "kind = \"histogram\" draws it",
        ],
    );
    // A misspelt name gets the nearest one.
    assert_refused(
        "survival_misspelt",
        &format!(
            "{}[[chart]]\nkind = \"survival\"\ny = \"ko_round\"\n",
            mugging(10)
        ),
        ("y = \"ko_round\"", 5),
        &["did you mean `ko_rounds`"],
    );
}

#[test]
fn a_survival_chart_over_an_action_without_rounds_is_refused() {
    let strike = MUG_BASE
        .replace("action = \"mug\"", "action = \"strike\"")
        .replace("weapon = \"club\"", "weapon = \"dagger\"");
    assert_refused(
        "survival_of_a_strike",
        &format!("{strike}[[chart]]\nkind = \"survival\"\n"),
        ("kind = \"survival\"", 8),
        &[
            "a survival chart draws a distribution measured in rounds; action strike has none (only damage)",
            "ko_rounds (mug, sap); rounds (brawl, subdue)",
        ],
    );
}
