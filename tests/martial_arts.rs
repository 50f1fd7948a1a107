//! Martial arts through the binary: a trained brawler fights with the column, an untrained one is refused with
//! the reason.

mod common;

use common::*;

#[test]
fn a_martial_artist_brawls_and_the_untrained_are_told_why_not() {
    let scratch = Scratch::new("martial_arts_brawl");
    let text = "action = \"brawl\"\ntrials = 20000\nseed = 3\n[attacker]\nclass = \"fighter\"\nlevel = 5\n\
                martial_arts = \"specialized\"\n[victim]\nclass = \"fighter\"\nlevel = 5\n\
                [sweep]\n\"action_options.style\" = [\"punch\", \"martial_arts\"]\n";
    let file = scratch.write("ma.toml", text);
    let o = run_quiet(&file, &scratch.out(), &["--no-charts"]);
    assert_success(&o);
    let csv = Csv::read(&scratch.out().join("ma").join("summary.csv"));
    let (m, e) = (csv.col("metric"), csv.col("estimate"));
    let wins: Vec<f64> = csv
        .rows
        .iter()
        .filter(|r| r[m] == "p_attacker_wins")
        .map(|r| r[e].parse().unwrap())
        .collect();
    // A specialist's extra attack and better column beat his own punching.
    assert!(wins[1] > wins[0] + 0.05, "{wins:?}");
    let untrained = scratch.write(
        "plain.toml",
        text.replace("martial_arts = \"specialized\"\n", ""),
    );
    let o = run_quiet(&untrained, &scratch.out(), &["--no-charts"]);
    assert_success(&o);
    let csv = Csv::read(&scratch.out().join("plain").join("summary.csv"));
    let status = csv.col("status");
    assert!(
        csv.rows
            .iter()
            .any(|r| r[status].contains("martial arts need training")),
        "the untrained point is ineligible with its reason"
    );
}
