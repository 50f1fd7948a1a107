//! Whether a tune reached its target, end to end through the binary (docs/scenarios.md "tune.csv"): a
//! target the metric never comes near is `not_reached_above` or `not_reached_below` with the nearest end of
//! the range as its best value, a target inside the range is `reached`, and the terminal, the tune's chart
//! and report.html say a miss in words.
//!
//! The sap on a sleeper is hit automatically and knocks out with 10 % a point of a 1d6+1 blow, capped by
//! `sap_helpless_ko_cap`: the knockout chance is the mean of min(10·d, cap) over d = 2..7, 20 % at a cap of
//! 20 and 43.3 % at 60. The targets lie far from both ends, so the statuses do not hang on the dice.

use crate::common;

use common::*;

/// The sleeper, with three tunes of the cap from 20 to 60: a target of 90 % above the range, 5 % below it
/// (steps of 10, so the ends differ by far more than their intervals), and 40 %, inside it near the top
/// (steps of 1, finer than the intervals, so the closest value's interval holds the target).
const SLEEPER: &str = "action = \"sap\"\ntrials = 2000\nseed = 11\n\
    [attacker]\nclass = \"fighter\"\nlevel = 3\nstrength = \"17\"\nweapon = \"club\"\n\
    [victim]\nclass = \"fighter\"\nlevel = 1\nhp = 100\nstate = \"asleep\"\n\
    [[tune]]\nname = \"above\"\nparameter = \"rules.sap_helpless_ko_cap\"\n\
    range = { from = 20, to = 60, step = 10 }\nmetric = \"p_knockout\"\ntarget = 0.9\n\
    [[tune]]\nname = \"below\"\nparameter = \"rules.sap_helpless_ko_cap\"\n\
    range = { from = 20, to = 60, step = 10 }\nmetric = \"p_knockout\"\ntarget = 0.05\n\
    [[tune]]\nname = \"inside\"\nparameter = \"rules.sap_helpless_ko_cap\"\n\
    range = { from = 20, to = 60, step = 1 }\nmetric = \"p_knockout\"\ntarget = 0.4\n";

/// Runs `text` as `name.toml` (with the terminal's lines), returning its folder and standard output.
fn run(scratch: &Scratch, name: &str, text: &str, extra: &[&str]) -> (std::path::PathBuf, String) {
    let file = scratch.write(&format!("{name}.toml"), text);
    let out = scratch.out();
    let mut args = vec![
        "run".as_ref(),
        file.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ];
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    let o = subdual(args);
    assert_success(&o);
    (out.join(name), stdout(&o))
}

/// `(tune, best_value, status)` of every row of tune.csv.
fn statuses(dir: &std::path::Path) -> Vec<(String, String, String)> {
    let t = Csv::read(&dir.join("tune.csv"));
    t.rows
        .iter()
        .map(|r| {
            (
                r[t.col("tune")].clone(),
                r[t.col("best_value")].clone(),
                r[t.col("status")].clone(),
            )
        })
        .collect()
}

#[test]
fn a_target_out_of_reach_is_not_reached_and_one_inside_is_reached() {
    let scratch = Scratch::new("tune_status");
    let (dir, terminal) = run(&scratch, "sleeper", SLEEPER, &[]);
    let rows = statuses(&dir);
    assert_eq!(
        rows[..2],
        [
            ("above".into(), "60".into(), "not_reached_above".into()),
            ("below".into(), "20".into(), "not_reached_below".into()),
        ],
        "{rows:?}"
    );
    let (tune, best, status) = &rows[2];
    assert_eq!((tune.as_str(), status.as_str()), ("inside", "reached"));
    let best: u32 = best.parse().unwrap();
    assert!((45..=58).contains(&best), "best cap {best} for 40 %");
    // The terminal says each answer in words, one line a point.
    for said in [
        "not reached: the target is above every value the metric reaches over the range",
        "not reached: the target is below every value the metric reaches over the range",
    ] {
        assert_eq!(terminal.matches(said).count(), 1, "{said}:\n{terminal}");
    }
    assert!(
        terminal.contains(&format!("best {best}, p_knockout ")) && terminal.contains(": reached\n"),
        "{terminal}"
    );
    // The charts of the misses note them; the one reached notes nothing.
    let svg = |tune: &str| read(&dir.join(format!("tune-{tune}.svg")));
    assert!(svg("above").contains("Target not reached: above every value"));
    assert!(svg("below").contains("Target not reached: below every value"));
    assert!(!svg("inside").contains("not reached"));
    // The report marks the misses.
    let html = read(&dir.join("report.html"));
    let table = html.split("<table class=\"tunes\">").nth(1).unwrap();
    let table = table.split("</table>").next().unwrap();
    assert_eq!(
        table.matches("<td class=\"reason miss\">").count(),
        2,
        "{table}"
    );
    assert!(table.contains("<td>reached</td>"), "{table}");
    assert!(!table.contains(">ok<"), "{table}");
}

#[test]
fn a_match_no_cap_can_reach_is_above_every_value() {
    // The shipped sentry: from level 7 the mugging knocks out more often than the sap takes him out at
    // any cap (its 3-8 point club gives at most 80 %, a p_out near 55 %). Caps from 80 up give the same
    // dice, so the best of those tied is the lowest, 80.
    let scratch = Scratch::new("tune_status_match");
    let text = read(&repo().join("scenarios/sap-or-mug-the-sentry.toml"));
    let (dir, _) = run(
        &scratch,
        "sap-or-mug-the-sentry",
        &text,
        &["--trials", "20000", "--no-charts"],
    );
    let t = Csv::read(&dir.join("tune.csv"));
    let level = t.col("attacker.level");
    let mut misses = 0;
    for r in &t.rows {
        if r[level].parse::<u32>().unwrap() >= 7 {
            assert_eq!(
                (r[t.col("best_value")].as_str(), r[t.col("status")].as_str()),
                ("80", "not_reached_above"),
                "{r:?}"
            );
            misses += 1;
        }
    }
    assert_eq!(misses, 5);
}
