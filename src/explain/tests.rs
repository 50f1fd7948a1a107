use super::*;
use crate::dice::Scripted;
use crate::scenario::Scenario;
use std::borrow::Cow;

/// The text's worked example: a 9th-level thief mugs an unaware ogre, who needs 17 on his save.
const WORKED: &str = r#"
title = "the worked example"
action = "mug"
seed = 1

[attacker]
class = "thief"
level = 9
weapon = "club"
position = "behind"

[victim]
monster = "ogre"
aware = false

[sweep]
"attacker.level" = [5, 9]

[[variant]]
name = "as written"

[[variant]]
name = "helmet rule"
rules = { helmets = true }
"#;

fn scenario(text: &str) -> Scenario {
    match Scenario::parse("worked.toml", "worked", text.as_bytes()) {
        Ok(s) => s,
        Err(e) => panic!("the test scenario should load: {e}"),
    }
}

fn story_on(s: &Scenario, index: usize, faces: &[u32]) -> Story {
    let point = &s.points[index];
    let prepared = &point.prepare().expect("eligible");
    let (events, tally) = tell_on(prepared, Scripted::new(faces.iter().copied()));
    Story {
        scenario: s.file.clone(),
        variant: s.variants[point.variant].clone(),
        point: vec![Pair {
            name: "attacker.level".into(),
            value: point.values[0].to_string(),
        }],
        action: point.action.name().into(),
        seed: 1,
        trial: 0,
        events,
        outcome: outcome_words(point.action, prepared, &tally),
    }
}

#[test]
fn a_scripted_mugging_is_told_line_by_line() {
    let s = scenario(WORKED);
    // Level 9, as written: THAC0 16 against the ogre's armor class 5 is 11 to reach, +4 for the mugging,
    // so 7 on the die; the save needs 12 (a 5th-level fighter's petrification) + 9 - 4 = 17.
    let index = select(&s, None, &["attacker.level=9".into()]).unwrap();
    let story = story_on(&s, index, &[7, 16, 3, 4]);
    let expected = "\
Trial 0 of worked.toml (seed 1), variant \"as written\", at attacker.level = 9: mug

  1. The thief strikes from behind with a blunt instrument at armor class 5 (no shield, no Dexterity); to hit: +4 mugging.  (§2 Mugging)
  2. Attack roll: a d20 +4 must reach 11 (THAC0 minus armor class), so 7 or more on the die.  (§1 Core procedures)
       d20: 7
  3. 7 +4 = 11: a hit.  (§1 Core procedures)
  4. The victim saves vs petrification or is knocked out; his number is 17 (+12 petrification save, +9 the mugger's level, -4 the victim's level).  (§2 Mugging)
  5. Saving throw: a d20 of 17 or more saves.  (§1 Core procedures)
       d20: 16
  6. The save fails.  (§1 Core procedures)
  7. Knocked out for 2d8 rounds (at least one).  (§2 Mugging)
       d8: 3
       d8: 4
  8. He lies senseless for 7 rounds.  (§2 Mugging)

Outcome:
  p_knockout           yes
  p_hit                yes
  p_woke_before_bound  no
  ko_rounds            7
  save_needed          17
  roll_needed          7
";
    let told = render(&story, None, Format::Text);
    for (n, (got, want)) in told.lines().zip(expected.lines()).enumerate() {
        assert_eq!(got, want, "line {}", n + 1);
    }
    assert_eq!(told.lines().count(), expected.lines().count());
}

#[test]
fn two_rules_part_where_their_stories_first_differ() {
    let s = scenario(WORKED);
    let a = select(&s, None, &["attacker.level=9".into()]).unwrap();
    let b = select(&s, Some("helmet rule"), &["attacker.level=9".into()]).unwrap();
    // A natural 5 misses the ogre's armor class 5 (7 needed) but hits a bare head (AC 10: 2 needed).
    let (x, y) = (story_on(&s, a, &[5]), story_on(&s, b, &[5, 20]));
    assert_eq!(parting(&x.events, &y.events), Some(0));
    let told = render(&x, Some(&y), Format::Text);
    assert!(told.contains(">> They part at step 1."), "{told}");
    assert!(
        told.contains("p_hit                no           yes  <- changed"),
        "{told}"
    );
    // The same story does not part.
    assert_eq!(parting(&x.events, &x.events), None);
    // One story the other's beginning parts where the shorter ends.
    assert_eq!(parting(&x.events[..2], &x.events), Some(2));
    let json: serde_json::Value =
        serde_json::from_str(&render(&x, Some(&y), Format::Json)).unwrap();
    assert_eq!(json["parted_at"], 0);
    assert_eq!(json["stories"][1]["outcome"][1]["value"], "yes");
    let markdown = render(&x, Some(&y), Format::Markdown);
    assert!(markdown.contains("| `p_hit` | no | yes ◀ |"), "{markdown}");
}

#[test]
fn a_point_is_chosen_by_its_sweep_values_and_variant() {
    let s = scenario(WORKED);
    for variant in [None, Some("as written"), Some("helmet rule")] {
        for level in ["5", "9"] {
            let i = select(&s, variant, &[format!("attacker.level = {level}")]).unwrap();
            let point = &s.points[i];
            assert_eq!(point.values[0].to_string(), level);
            assert_eq!(
                s.variants[point.variant],
                variant.unwrap_or("as written"),
                "{variant:?}"
            );
        }
    }
    // An axis left out takes its first value.
    assert_eq!(
        s.points[select(&s, None, &[]).unwrap()].values[0].to_string(),
        "5"
    );
}

#[test]
fn a_wrong_choice_says_what_there_is() {
    let s = scenario(WORKED);
    let err = |variant: Option<&str>, point: &str| {
        select(&s, variant, &[point.to_string()])
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        err(Some("helmet rules"), "attacker.level=5"),
        "`helmet rules` is not a variant of worked.toml: it has as written, helmet rule (did you mean `helmet rule`?)"
    );
    assert_eq!(
        err(None, "attacker.levl=5"),
        "`attacker.levl` is not a sweep path of worked.toml: it sweeps attacker.level (did you mean `attacker.level`?)"
    );
    assert_eq!(
        err(None, "attacker.level=6"),
        "`6` is not a value of `attacker.level`: it takes 5, 9 (did you mean `5`?)"
    );
    assert_eq!(
        err(None, "attacker.level"),
        "`--point attacker.level` is not PATH=VALUE, such as `--point attacker.level=5`"
    );
    assert!(matches!(
        tell(&s, 0, engine::MAX_TRIALS),
        Err(ExplainError::TrialOutOfRange { .. })
    ));
}

/// A small deterministic generator of indices for the identity test.
fn scatter(i: u64) -> u64 {
    let mut z = i.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The told trial is the engine's trial: over 10,000 trials of every shipped study, at points and trial
/// indices scattered over the study, the told outcome equals the engine's field by field.
#[test]
fn every_told_trial_ends_as_the_engines() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut studies = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let s = Scenario::load(&path).unwrap();
        let eligible: Vec<Cow<Prepared>> =
            s.points.iter().filter_map(|p| p.prepare().ok()).collect();
        let mut told_steps = 0;
        for i in 0..10_000u64 {
            let r = scatter(i ^ (studies << 40));
            let p = &eligible[(r % eligible.len() as u64) as usize];
            let trial = (r >> 20) % s.trials;
            let (events, told) = tell_prepared(p, s.seed, trial);
            assert_eq!(
                told,
                engine_outcome(p, s.seed, trial),
                "{}: trial {trial}",
                path.display()
            );
            told_steps += events.len();
            let unseen = events.iter().find(|e| match e {
                Event::Die { sides, .. } => *sides > 100,
                Event::Step { .. } | Event::State { .. } => false,
            });
            assert!(
                unseen.is_none(),
                "{}: trial {trial} tells a die no table rolls: {unseen:?}",
                path.display()
            );
        }
        assert!(told_steps > 0, "{}: nothing was told", path.display());
        studies += 1;
    }
    assert!(studies >= 10, "the shipped studies were not found");
}
