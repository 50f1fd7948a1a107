//! The readings corrected after designers' use (docs/rules.md §7 item 9), end to end through the binary:
//! bare hands are not held back, the odd point of a held-back blow is temporary, missiles do not strike in
//! melee, saps and strikes meet hit points, grabs meet an armed victim, fists do not mug and only humanoids
//! are mugged, and a victim holds back only a controllable weapon.

use crate::common;

use common::*;

/// The rows of `metric` in a summary, as (first sweep value, estimate, status).
fn rows_of(csv: &Csv, metric: &str) -> Vec<(String, String, String)> {
    let (m, e, s) = (csv.col("metric"), csv.col("estimate"), csv.col("status"));
    csv.rows
        .iter()
        .filter(|r| r[m] == metric)
        .map(|r| (r[1].clone(), r[e].clone(), r[s].clone()))
        .collect()
}

fn run_text(scratch: &Scratch, name: &str, text: &str) -> Csv {
    let file = scratch.write(&format!("{name}.toml"), text);
    let o = run_quiet(&file, &scratch.out(), &["--no-charts"]);
    assert_success(&o);
    Csv::read(&scratch.out().join(name).join("summary.csv"))
}

#[test]
fn a_bare_handed_subduer_fights_exactly_as_a_brawler_with_his_style() {
    let scratch = Scratch::new("bare_handed_subduer");
    let fight = |action: &str| {
        format!(
            "action = \"{action}\"\ntrials = 3000\nseed = 5\n[attacker]\nclass = \"fighter\"\nlevel = 3\n\
             [victim]\nclass = \"fighter\"\nlevel = 2\nweapon = \"long sword\"\n\
             [action_options]\nstyle = \"wrestle\"\n[sweep]\n\"attacker.strength\" = [\"12\", \"17\"]\n"
        )
    };
    let subdue = run_text(&scratch, "subdue", &fight("subdue"));
    let brawl = run_text(&scratch, "brawl", &fight("brawl"));
    assert_eq!(
        subdue.rows, brawl.rows,
        "the same fight, the same dice, the same numbers"
    );
    // A bare-handed strike is refused with the way out in the message.
    let file = scratch.write(
        "strike.toml",
        "action = \"strike\"\n[attacker]\nclass = \"fighter\"\n[victim]\nmonster = \"orc\"\n",
    );
    let o = run_quiet(&file, &scratch.out(), &["--no-charts"]);
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
    assert!(stderr(&o).contains("brawl"), "{}", describe(&o));
}

#[test]
fn a_sap_reports_who_is_out_down_or_killed_and_a_strike_who_drops() {
    let scratch = Scratch::new("sap_hit_points");
    let sap = run_text(
        &scratch,
        "sap",
        "action = \"sap\"\ntrials = 20000\nseed = 9\n[attacker]\nclass = \"fighter\"\nlevel = 5\n\
         weapon = \"club\"\n[victim]\nclass = \"fighter\"\nstate = \"asleep\"\n\
         [sweep]\n\"attacker.strength\" = [\"16\", \"18/00\"]\n",
    );
    let m = sap.col("metric");
    assert_eq!(sap.rows[0][m], "p_out", "p_out is the sap's headline");
    let value = |metric: &str, strength: &str| -> f64 {
        rows_of(&sap, metric)
            .into_iter()
            .find(|(s, _, _)| s == strength)
            .map(|(_, e, _)| e.parse().unwrap())
            .unwrap()
    };
    for strength in ["16", "18/00"] {
        let (out, ko, down) = (
            value("p_out", strength),
            value("p_knockout", strength),
            value("p_down", strength),
        );
        assert!(
            out >= ko && out >= down,
            "{strength}: out {out}, ko {ko}, down {down}"
        );
        assert!(value("p_killed", strength) <= down);
    }
    // The 18/00 club kills about 23 % of sleeping level-1 sentries outright (exactly 7/30).
    let killed = value("p_killed", "18/00");
    assert!((killed - 7.0 / 30.0).abs() < 0.02, "{killed}");
    let strike = run_text(
        &scratch,
        "strike",
        "action = \"strike\"\ntrials = 5000\n[attacker]\nclass = \"fighter\"\nweapon = \"long sword\"\n\
         [victim]\nmonster = \"kobold\"\n",
    );
    assert!(!rows_of(&strike, "p_down").is_empty() && !rows_of(&strike, "p_killed").is_empty());
}

#[test]
fn grabs_report_the_armed_victims_first_strike_and_the_contest_scores() {
    let scratch = Scratch::new("grab_first_strike");
    let text = "action = \"grab_object\"\ntrials = 4000\n[attacker]\nclass = \"fighter\"\nstrength = 17\n\
                [victim]\nclass = \"fighter\"\nstrength = 15\nweapon = \"long sword\"\n\
                [sweep]\n\"rules.armed_defender_vs_grabs\" = [true, false]\n";
    let grab = run_text(&scratch, "grab", text);
    let struck = rows_of(&grab, "p_struck_first");
    // The swordsman needs 6 at +4 against AC 10: 75 %; switched off, never.
    let on: f64 = struck[0].1.parse().unwrap();
    assert!((on - 0.75).abs() < 0.03, "{on}");
    assert_eq!(struck[1].1, "0");
    assert_eq!(rows_of(&grab, "grabber_strength")[0].1, "17");
    assert_eq!(rows_of(&grab, "victim_strength")[0].1, "15");
    assert_eq!(rows_of(&grab, "roll_needed")[0].1, "13");
}

#[test]
fn fists_do_not_mug_and_horses_are_not_mugged() {
    let scratch = Scratch::new("mugging_readings");
    let text = "action = \"mug\"\ntrials = 2000\n[attacker]\nclass = \"thief\"\nlevel = 5\nposition = \"behind\"\n\
                [victim]\naware = false\n[sweep]\n\"attacker.weapon\" = [\"club\", \"fist\"]\n\
                \"victim.monster\" = [\"orc\", \"horse\"]\n";
    let mug = run_text(&scratch, "mug", text);
    let status: Vec<String> = mug
        .rows
        .iter()
        .filter(|r| r[mug.col("metric")] == "ineligible" || r[mug.col("metric")] == "p_knockout")
        .map(|r| r[mug.col("status")].clone())
        .collect();
    assert_eq!(status.len(), 4);
    assert_eq!(status[0], "ok", "a club on an orc");
    assert!(status[1].contains("humanoid"), "{}", status[1]);
    assert!(status[2].contains("bare hands"), "{}", status[2]);
    // Switched on, fists mug.
    let fists = text.replace("[sweep]", "[rules]\nmug_bare_hands = true\n[sweep]");
    let mug = run_text(&scratch, "fists", &fists);
    assert_eq!(rows_of(&mug, "p_knockout").len(), 2);
}

#[test]
fn the_new_switches_and_fields_are_checked_like_the_others() {
    let scratch = Scratch::new("new_switches");
    let base =
        "action = \"strike\"\n[attacker]\nclass = \"fighter\"\nweapon = \"long sword\"\n[victim]\n";
    let bad = [
        (
            format!("{base}class = \"fighter\"\n[rules]\nheld_back_odd_point = \"half\"\n"),
            "held_back_odd_point",
        ),
        (
            format!("{base}class = \"fighter\"\nhumanoid = false\n"),
            "humanoid",
        ),
        (
            format!("{base}class = \"fighter\"\nweapon = {{ name = \"club\", hands = 3 }}\n"),
            "hands",
        ),
    ];
    for (i, (text, word)) in bad.iter().enumerate() {
        let file = scratch.write(&format!("bad{i}.toml"), text);
        let o = subdual(["check".as_ref(), file.as_os_str()]);
        assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
        assert!(stderr(&o).contains(word), "{word}: {}", describe(&o));
    }
    // The old reading of the odd point is a switch away: the same blows, one point more real.
    let csv = run_text(
        &scratch,
        "old",
        &format!(
            "trials = 2000\n{base}monster = \"orc\"\n\
             [sweep]\n\"rules.held_back_odd_point\" = [\"temporary\", \"real\"]\n"
        ),
    );
    let real = rows_of(&csv, "damage_real");
    let (gentle, old): (f64, f64) = (real[0].1.parse().unwrap(), real[1].1.parse().unwrap());
    assert!(old > gentle, "real damage {gentle} → {old}");
}
