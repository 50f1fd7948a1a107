//! `subdual explain` through the binary: a shipped study's trial told under two variants, the formats, and
//! bad choices refused with what the scenario has.

use crate::common::{repo, stderr, stdout, subdual};

fn explain(args: &[&str]) -> std::process::Output {
    let study = repo().join("scenarios/mugging-level-gap.toml");
    let mut all = vec!["explain".to_string(), study.display().to_string()];
    all.extend(args.iter().map(|a| a.to_string()));
    subdual(all)
}

#[test]
fn a_trial_is_told_under_two_rules_where_they_part() {
    // Find a trial that the helmet rule changes at level 3: a miss against the ogre's armor that hits a
    // bare head.
    let changed = (0..200u64)
        .map(|t| {
            let out = explain(&[
                "--point",
                "attacker.level=3",
                "--trial",
                &t.to_string(),
                "--compare",
                "helmet rule",
            ]);
            assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
            stdout(&out)
        })
        .find(|text| text.contains("p_hit                no           yes  <- changed"))
        .expect("the helmet rule turns some miss into a hit among 200 trials");
    // The first step already differs: the armor class struck.
    assert!(changed.contains(">> They part at step 1."), "{changed}");
    assert!(
        changed.contains("at armor class 10 (a bare head under the helmet rule)"),
        "{changed}"
    );
    assert!(changed.contains("Under \"as written\":"), "{changed}");
    assert!(changed.contains("Under \"helmet rule\":"), "{changed}");
    assert!(changed.contains("(§1 Core procedures)"), "{changed}");
}

#[test]
fn every_format_tells_the_same_trial() {
    let text = stdout(&explain(&["--trial", "5"]));
    let markdown = stdout(&explain(&["--trial", "5", "--format", "markdown"]));
    let json = stdout(&explain(&["--trial", "5", "--format", "json"]));
    let json: serde_json::Value = serde_json::from_str(&json).expect("explain's JSON parses");
    assert_eq!(json["trial"], 5);
    assert_eq!(json["variant"], "as written");
    let steps: Vec<&str> = json["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["event"] == "step")
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert!(!steps.is_empty());
    for step in steps {
        assert!(text.contains(step), "text lacks {step}");
        assert!(markdown.contains(step), "markdown lacks {step}");
    }
}

#[test]
fn a_choice_the_scenario_lacks_is_bad_input() {
    for (args, says) in [
        (
            &["--trial", "1", "--variant", "helmet rules"][..],
            "did you mean `helmet rule`?",
        ),
        (
            &["--trial", "1", "--point", "attacker.levl=3"][..],
            "did you mean `attacker.level`?",
        ),
        (
            &["--trial", "1", "--point", "attacker.level=99"][..],
            "is not a value of `attacker.level`",
        ),
        (
            &["--trial", "1", "--point", "attacker.level"][..],
            "is not PATH=VALUE",
        ),
    ] {
        let out = explain(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
}
