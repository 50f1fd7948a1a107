//! After the blow, end to end through the binary (docs/rules.md §6 "After the blow"): `bind_rounds = 0`
//! (the default) leaves a fight's numbers as they were before the loser had a clock, and a longer binding
//! takes from `p_taken_alive` exactly the victims it counts in `p_woke_before_bound`, on the same dice.

use crate::common;

use common::*;

/// A thief against a sleeping-then-awake guard: a mugging opening then wrestling, a sap every round, and
/// punches; two levels.
const FIGHTS: &str = "title = \"pin\"\naction = \"subdue\"\ntrials = 3000\nseed = 31\n\
    [attacker]\nclass = \"thief\"\nlevel = 4\nstrength = \"16\"\nweapon = \"club\"\nposition = \"behind\"\n\
    [victim]\nclass = \"fighter\"\nlevel = 2\naware = false\nweapon = \"long sword\"\n\
    [sweep]\n\"attacker.level\" = [2, 6]\n\
    [[variant]]\nname = \"mug\"\naction = \"brawl\"\naction_options = { opening = \"mug\", style = \"wrestle\"BIND }\n\
    [[variant]]\nname = \"sap style\"\naction = \"brawl\"\naction_options = { style = \"sap\"BIND }\n\
    [[variant]]\nname = \"punch\"\naction = \"brawl\"\naction_options = { style = \"punch\"BIND }\n";

/// Runs `text` as `name.toml` through the binary (no charts) and reads its summary.csv.
fn summary_of(scratch: &Scratch, name: &str, text: &str) -> Csv {
    let file = scratch.write(&format!("{name}.toml"), text);
    let out = scratch.out();
    assert_success(&run_quiet(&file, &out, &["--no-charts"]));
    Csv::read(&out.join(name).join("summary.csv"))
}

/// `(variant, level, metric) → estimate` of the study with `bind` (e.g. `, bind_rounds = 6`).
fn estimates(
    scratch: &Scratch,
    bind: &str,
) -> std::collections::BTreeMap<(String, String, String), f64> {
    let name = format!("bind{}", bind.len());
    let s = summary_of(scratch, &name, &FIGHTS.replace("BIND", bind));
    let (v, l, m, e) = (
        s.col("variant"),
        s.col("attacker.level"),
        s.col("metric"),
        s.col("estimate"),
    );
    s.rows
        .iter()
        .filter(|r| !r[e].is_empty())
        .map(|r| {
            (
                (r[v].clone(), r[l].clone(), r[m].clone()),
                r[e].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn binding_at_once_leaves_the_fights_as_they_were_and_a_longer_one_loses_the_woken() {
    let scratch = Scratch::new("after_the_blow");
    let at_once = estimates(&scratch, "");
    // The numbers of these fights before the loser had a clock (the same seed and trials).
    let before = [
        ("mug", "2", 0.6306666666666667, 0.6306666666666667, 1.655),
        ("mug", "6", 0.983, 0.983, 1.7733333333333334),
        (
            "sap style",
            "2",
            0.129,
            0.12866666666666668,
            3.187666666666667,
        ),
        ("sap style", "6", 0.512, 0.5106666666666667, 6.001),
        (
            "punch",
            "2",
            0.017666666666666667,
            0.017666666666666667,
            1.6256666666666666,
        ),
        (
            "punch",
            "6",
            0.14933333333333335,
            0.14933333333333335,
            3.715,
        ),
    ];
    let get =
        |m: &std::collections::BTreeMap<(String, String, String), f64>,
         v: &str,
         l: &str,
         metric: &str| { m[&(v.to_string(), l.to_string(), metric.to_string())] };
    for (v, l, wins, alive, rounds) in before {
        assert_eq!(get(&at_once, v, l, "p_attacker_wins"), wins, "{v} {l}");
        assert_eq!(get(&at_once, v, l, "p_taken_alive"), alive, "{v} {l}");
        assert_eq!(get(&at_once, v, l, "rounds"), rounds, "{v} {l}");
        assert_eq!(get(&at_once, v, l, "p_woke_before_bound"), 0.0, "{v} {l}");
        assert!(get(&at_once, v, l, "rounds_out") > 0.0, "{v} {l}");
    }
    // Six rounds to tie him: the same fights, some victims awake before the rope is done. Counted in
    // trials, p_taken_alive loses exactly those.
    let slow = estimates(&scratch, ", bind_rounds = 6");
    let mut woke = 0.0;
    for (v, l, ..) in before {
        let n = 3000.0;
        let lost = (get(&at_once, v, l, "p_taken_alive") - get(&slow, v, l, "p_taken_alive")) * n;
        let counted = get(&slow, v, l, "p_woke_before_bound") * n;
        assert!(
            (lost - counted).abs() < 1e-6,
            "{v} {l}: {lost} vs {counted}"
        );
        assert_eq!(
            get(&slow, v, l, "p_attacker_wins"),
            get(&at_once, v, l, "p_attacker_wins")
        );
        woke += counted;
    }
    assert!(
        woke > 100.0,
        "a binding of 6 rounds loses some victims: {woke}"
    );
}

/// The single knockouts read `bind_rounds` through the command line: a sap that drops or knocks out a
/// fighter of 1d8 hit points, tied in 11 rounds, counts some victims awake first; a strike, which knocks
/// nobody out, refuses the option with exit code 2 and the place it was written.
#[test]
fn a_sap_reads_the_binding_and_a_strike_refuses_it() {
    let scratch = Scratch::new("after_the_blow_single");
    let text = "action = \"sap\"\ntrials = 20000\nseed = 5\n\
        [attacker]\nclass = \"fighter\"\nlevel = 5\nstrength = \"18\"\nweapon = \"club\"\n\
        [victim]\nclass = \"fighter\"\nhp = \"1d8\"\n\
        [action_options]\nbind_rounds = 11\n";
    let s = summary_of(&scratch, "sap", text);
    let row = s
        .rows
        .iter()
        .find(|r| r[s.col("metric")] == "p_woke_before_bound")
        .expect("the sap reports p_woke_before_bound");
    let woke: f64 = row[s.col("estimate")].parse().unwrap();
    assert!(woke > 0.01, "{woke}");
    let strike = scratch.write("strike.toml", text.replace("\"sap\"", "\"strike\""));
    let o = subdual(["check".as_ref(), strike.as_os_str()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("strike.toml:13:") && err.contains("bind_rounds"),
        "{err}"
    );
}
