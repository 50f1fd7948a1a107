//! The fighting styles through the binary: martial arts for the trained (the untrained told why not), and
//! the disarm with its `then`.

use crate::common;

use common::*;

/// The `p_attacker_wins` estimates of a study's summary, in row order.
fn attacker_wins(scratch: &Scratch, stem: &str) -> Vec<f64> {
    let csv = Csv::read(&scratch.out().join(stem).join("summary.csv"));
    let (m, e) = (csv.col("metric"), csv.col("estimate"));
    csv.rows
        .iter()
        .filter(|r| r[m] == "p_attacker_wins")
        .map(|r| r[e].parse().unwrap())
        .collect()
}

#[test]
fn a_martial_artist_brawls_and_the_untrained_are_told_why_not() {
    let scratch = Scratch::new("martial_arts_brawl");
    let text = "action = \"brawl\"\ntrials = 20000\nseed = 3\n[attacker]\nclass = \"fighter\"\nlevel = 5\n\
                martial_arts = \"specialized\"\n[victim]\nclass = \"fighter\"\nlevel = 5\n\
                [sweep]\n\"action_options.style\" = [\"punch\", \"martial_arts\"]\n";
    let file = scratch.write("ma.toml", text);
    let o = run_quiet(&file, &scratch.out(), &["--no-charts"]);
    assert_success(&o);
    let wins = attacker_wins(&scratch, "ma");
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

#[test]
fn a_disarm_with_then_runs_through_the_binary_and_an_unarmed_victim_is_refused() {
    let scratch = Scratch::new("disarm_brawl");
    let text = "action = \"subdue\"\ntrials = 20000\nseed = 5\n[attacker]\nclass = \"fighter\"\nlevel = 4\n\
                strength = 17\n[victim]\nclass = \"fighter\"\nlevel = 2\nweapon = \"long sword\"\n\
                [action_options]\nstyle = \"disarm\"\n\
                [sweep]\n\"action_options.then\" = [\"punch\", \"weapon\"]\n";
    let file = scratch.write("disarm.toml", text);
    let o = run_quiet(&file, &scratch.out(), &["--no-charts"]);
    assert_success(&o);
    let wins = attacker_wins(&scratch, "disarm");
    assert_eq!(wins.len(), 2);
    assert!(wins.iter().all(|&w| w > 0.0 && w < 1.0), "{wins:?}");
    let unarmed = scratch.write(
        "unarmed.toml",
        text.replace("weapon = \"long sword\"\n", ""),
    );
    let o = run_quiet(&unarmed, &scratch.out(), &["--no-charts"]);
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
    assert!(stderr(&o).contains("holds no weapon"), "{}", describe(&o));
}
