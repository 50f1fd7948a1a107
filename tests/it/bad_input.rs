//! Bad scenario files, run through the real binary: exit code 2, a message `FILE:LINE:COL: message` that
//! points at the faulty text and says what is wrong (with a suggestion for a misspelt name), no panic, and
//! no output folder, with `run` and with `check` alike.

use crate::common;

use common::{MUG_BASE, Scratch, describe, stderr, stdout, subdual};

/// Where the error must point: a text that occurs once in the file, on the faulty line, and the expected
/// column (1-based, in characters) on that line.
pub(crate) struct At<'a>(pub(crate) &'a str, pub(crate) usize);

/// The line (1-based) of the first occurrence of `needle`.
fn line_of(text: &[u8], needle: &str) -> usize {
    let text = String::from_utf8_lossy(text);
    let pos = text
        .find(needle)
        .unwrap_or_else(|| panic!("the fixture does not contain `{needle}`"));
    assert_eq!(
        text.matches(needle).count(),
        1,
        "`{needle}` must occur once in the fixture"
    );
    text[..pos].matches('\n').count() + 1
}

/// Reads `LINE:COL` right after the first `FILE:` in stderr, checking the `FILE:LINE:COL: message` shape.
fn location(stderr: &str, file: &str) -> (usize, usize) {
    let prefix = format!("{file}:");
    let start = stderr
        .find(&prefix)
        .unwrap_or_else(|| panic!("stderr does not name the file `{file}`:\n{stderr}"))
        + prefix.len();
    let rest = &stderr[start..];
    let mut parts = rest.splitn(3, ':');
    let line = parts.next().and_then(|s| s.parse::<usize>().ok());
    let column = parts.next().and_then(|s| s.parse::<usize>().ok());
    let message = parts.next().unwrap_or("");
    match (line, column) {
        (Some(l), Some(c)) if message.starts_with(' ') && message.trim().len() > 3 => (l, c),
        _ => panic!("expected `{file}:LINE:COL: message` in stderr:\n{stderr}"),
    }
}

/// Writes `contents` to `<test>.toml`, then runs `run` and `check` on it and checks that both reject it
/// with exit code 2, a located message containing every word of `words`, no panic and no output.
pub(crate) fn assert_rejected(test: &str, contents: &[u8], at: At<'_>, words: &[&str]) {
    let scratch = Scratch::new(test);
    let file = scratch.write(&format!("{test}.toml"), contents);
    let name = file.display().to_string();
    let out = scratch.out();
    let runs = [
        subdual([
            "run",
            &name,
            "--out",
            &out.display().to_string(),
            "--trials",
            "2000",
        ]),
        subdual(["check", &name]),
    ];
    for (command, o) in ["run", "check"].iter().zip(&runs) {
        let err = stderr(o);
        let ctx = format!("`{command}` on {test}\n{}", describe(o));
        assert_eq!(o.status.code(), Some(2), "exit code 2 for bad input: {ctx}");
        assert!(!err.contains("panicked"), "a panic: {ctx}");
        assert!(
            o.stdout.is_empty(),
            "nothing runs, nothing is printed: {ctx}"
        );
        let (line, column) = location(&err, &name);
        let want = if at.0.is_empty() {
            1
        } else {
            line_of(contents, at.0)
        };
        assert_eq!(
            (line, column),
            (want, at.1),
            "the message must point at line {want}, column {}: {ctx}",
            at.1
        );
        for w in words {
            assert!(err.contains(w), "the message must mention `{w}`: {ctx}");
        }
        assert!(!out.exists(), "no output folder for a bad file: {ctx}");
    }
}

#[test]
fn toml_syntax_error_is_located() {
    let text = MUG_BASE.replace("position = \"behind\"", "position = \"behind");
    assert_rejected(
        "toml_syntax_error_is_located",
        text.as_bytes(),
        At("position = \"behind\n", 19),
        &["string"],
    );
}

#[test]
fn toml_duplicate_key_is_located() {
    let text = format!("{MUG_BASE}aware = true\n");
    assert_rejected(
        "toml_duplicate_key_is_located",
        text.as_bytes(),
        At("aware = true", 1),
        &["duplicate key"],
    );
}

#[test]
fn unknown_top_level_key_suggests_the_right_one() {
    let text = MUG_BASE.replace("seed = 1", "seed = 1\ntitel = \"x\"");
    assert_rejected(
        "unknown_top_level_key_suggests_the_right_one",
        text.as_bytes(),
        At("titel", 1),
        &["titel", "did you mean `title`"],
    );
}

#[test]
fn unknown_combatant_key_suggests_the_right_one() {
    let text = MUG_BASE.replace("level = 9", "level = 9\nstrenght = \"12\"");
    assert_rejected(
        "unknown_combatant_key_suggests_the_right_one",
        text.as_bytes(),
        At("strenght", 1),
        &["strenght", "did you mean `strength`"],
    );
}

#[test]
fn unknown_rules_key_suggests_the_right_one() {
    let text = format!("{MUG_BASE}\n[rules]\nhelmet = true\n");
    assert_rejected(
        "unknown_rules_key_suggests_the_right_one",
        text.as_bytes(),
        At("helmet = true", 1),
        &["helmet", "did you mean `helmets`"],
    );
}

#[test]
fn unknown_action_suggests_the_right_one() {
    let text = MUG_BASE.replace("\"mug\"", "\"mugg\"");
    assert_rejected(
        "unknown_action_suggests_the_right_one",
        text.as_bytes(),
        At("action = ", 10),
        &["mugg", "did you mean `mug`"],
    );
}

#[test]
fn wrong_type_is_located() {
    let text = MUG_BASE.replace("level = 9", "level = \"nine\"");
    assert_rejected(
        "wrong_type_is_located",
        text.as_bytes(),
        At("level = \"nine\"", 9),
        &["level", "nine", "expected"],
    );
}

#[test]
fn level_out_of_range_is_located() {
    let text = MUG_BASE.replace("level = 9", "level = 25");
    assert_rejected(
        "level_out_of_range_is_located",
        text.as_bytes(),
        At("level = 25", 9),
        &["level", "25", "out of range"],
    );
}

#[test]
fn dexterity_out_of_range_is_located() {
    let text = MUG_BASE.replace("level = 9", "level = 9\ndexterity = 30");
    assert_rejected(
        "dexterity_out_of_range_is_located",
        text.as_bytes(),
        At("dexterity = 30", 13),
        &["dexterity", "30", "out of range"],
    );
}

#[test]
fn exceptional_strength_for_a_thief_is_rejected() {
    let text = MUG_BASE.replace("level = 9", "level = 9\nstrength = \"18/50\"");
    assert_rejected(
        "exceptional_strength_for_a_thief_is_rejected",
        text.as_bytes(),
        At("strength = ", 12),
        &["strength", "18/50"],
    );
}

#[test]
fn confidence_out_of_range_is_located() {
    let text = MUG_BASE.replace("seed = 1", "seed = 1\nconfidence = 1.5");
    assert_rejected(
        "confidence_out_of_range_is_located",
        text.as_bytes(),
        At("confidence = 1.5", 14),
        &["confidence", "1.5"],
    );
}

#[test]
fn confidence_zero_is_rejected() {
    let text = MUG_BASE.replace("seed = 1", "seed = 1\nconfidence = 0.0");
    assert_rejected(
        "confidence_zero_is_rejected",
        text.as_bytes(),
        At("confidence = 0.0", 14),
        &["confidence"],
    );
}

#[test]
fn zero_trials_in_the_file_is_located() {
    let text = MUG_BASE.replace("trials = 1000", "trials = 0");
    assert_rejected(
        "zero_trials_in_the_file_is_located",
        text.as_bytes(),
        At("trials = 0", 10),
        &["trials"],
    );
}

#[test]
fn unknown_weapon_suggests_the_right_one() {
    let text = MUG_BASE.replace("\"club\"", "\"lnog sword\"");
    assert_rejected(
        "unknown_weapon_suggests_the_right_one",
        text.as_bytes(),
        At("weapon = ", 10),
        &["lnog sword", "did you mean `long sword`"],
    );
}

#[test]
fn unknown_monster_suggests_the_right_one() {
    let text = MUG_BASE.replace("\"ogre\"", "\"orge\"");
    assert_rejected(
        "unknown_monster_suggests_the_right_one",
        text.as_bytes(),
        At("monster = ", 11),
        &["orge", "did you mean `ogre`"],
    );
}

#[test]
fn unknown_monster_in_a_variant_points_at_the_variant() {
    let text =
        format!("{MUG_BASE}\n[[variant]]\nname = \"a\"\nvictim = {{ monster = \"orge\" }}\n");
    assert_rejected(
        "unknown_monster_in_a_variant_points_at_the_variant",
        text.as_bytes(),
        At("victim = {", 22),
        &["orge", "did you mean `ogre`"],
    );
}

#[test]
fn unknown_sweep_path_suggests_the_right_one() {
    let text = format!("{MUG_BASE}\n[sweep]\n\"attacker.levle\" = [1, 2]\n");
    assert_rejected(
        "unknown_sweep_path_suggests_the_right_one",
        text.as_bytes(),
        At("\"attacker.levle\"", 1),
        &["attacker.levle", "did you mean `level`"],
    );
}

#[test]
fn sweep_value_out_of_range_is_an_error_not_an_ineligible_point() {
    let text = format!("{MUG_BASE}\n[sweep]\n\"attacker.level\" = [9, 25]\n");
    assert_rejected(
        "sweep_value_out_of_range_is_an_error_not_an_ineligible_point",
        text.as_bytes(),
        At("\"attacker.level\" = [9, 25]", 24),
        &["level", "25", "out of range"],
    );
}

#[test]
fn unknown_weapon_in_a_sweep_points_at_the_value() {
    let text = format!("{MUG_BASE}\n[sweep]\n\"attacker.weapon\" = [\"club\", \"lnog sword\"]\n");
    assert_rejected(
        "unknown_weapon_in_a_sweep_points_at_the_value",
        text.as_bytes(),
        At("\"attacker.weapon\" = [", 30),
        &["lnog sword", "did you mean `long sword`"],
    );
}

#[test]
fn chart_naming_an_unknown_metric_suggests_the_right_one() {
    let text = format!(
        "{MUG_BASE}\n[sweep]\n\"attacker.level\" = [5, 9]\n\n[[chart]]\ny = \"p_knokout\"\n"
    );
    assert_rejected(
        "chart_naming_an_unknown_metric_suggests_the_right_one",
        text.as_bytes(),
        At("y = \"p_knokout\"", 5),
        &["p_knokout", "did you mean `p_knockout`"],
    );
}

#[test]
fn heatmap_with_one_sweep_axis_is_rejected() {
    let text = format!(
        "{MUG_BASE}\n[sweep]\n\"attacker.level\" = [5, 9]\n\n[[chart]]\nkind = \"heatmap\"\n"
    );
    assert_rejected(
        "heatmap_with_one_sweep_axis_is_rejected",
        text.as_bytes(),
        At("kind = \"heatmap\"", 8),
        &["heatmap", "two sweep axes"],
    );
}

#[test]
fn unknown_key_of_an_inline_weapon_suggests_the_right_one() {
    let text = MUG_BASE.replace(
        "weapon = \"club\"",
        "weapon = { name = \"sap\", sise = \"S\" }",
    );
    assert_rejected(
        "unknown_key_of_an_inline_weapon_suggests_the_right_one",
        text.as_bytes(),
        At("weapon = {", 26),
        &["sise", "did you mean `size`"],
    );
}

#[test]
fn missing_action_says_what_to_add() {
    let text = MUG_BASE.replace("action = \"mug\"\n", "");
    assert_rejected(
        "missing_action_says_what_to_add",
        text.as_bytes(),
        At("", 1),
        &["action", "mug"],
    );
}

#[test]
fn empty_sweep_list_is_rejected() {
    let text = format!("{MUG_BASE}\n[sweep]\n\"attacker.level\" = []\n");
    assert_rejected(
        "empty_sweep_list_is_rejected",
        text.as_bytes(),
        At("\"attacker.level\" = []", 20),
        &["attacker.level", "no values"],
    );
}

#[test]
fn sweep_range_with_step_zero_is_rejected() {
    let text =
        format!("{MUG_BASE}\n[sweep]\n\"attacker.level\" = {{ from = 1, to = 20, step = 0 }}\n");
    assert_rejected(
        "sweep_range_with_step_zero_is_rejected",
        text.as_bytes(),
        At("\"attacker.level\" = {", 20),
        &["step"],
    );
}

#[test]
fn sweep_of_too_many_points_is_rejected_before_running() {
    let text = format!(
        "{MUG_BASE}\n[sweep]\n\"attacker.level\" = {{ from = 1, to = 20 }}\n\"victim.hp\" = {{ from = 1, to = 10000 }}\n"
    );
    assert_rejected(
        "sweep_of_too_many_points_is_rejected_before_running",
        text.as_bytes(),
        At("[sweep]", 1),
        &["200000 points", "100000"],
    );
}

#[test]
fn two_variants_with_the_same_name_are_rejected() {
    let text = format!(
        "{MUG_BASE}\n[[variant]]\nname = \"twin\"\n\n[[variant]]\nname = \"twin\" # again\n"
    );
    assert_rejected(
        "two_variants_with_the_same_name_are_rejected",
        text.as_bytes(),
        At("name = \"twin\" # again", 8),
        &["twin", "names must differ"],
    );
}

#[test]
fn chart_file_with_a_folder_is_rejected() {
    let text = format!(
        "{MUG_BASE}\n[sweep]\n\"attacker.level\" = [5, 9]\n\n[[chart]]\nfile = \"../evil\"\n"
    );
    assert_rejected(
        "chart_file_with_a_folder_is_rejected",
        text.as_bytes(),
        At("file = \"../evil\"", 8),
        &["../evil", "plain name"],
    );
}

#[test]
fn empty_file_is_rejected() {
    assert_rejected("empty_file_is_rejected", b"", At("", 1), &["empty"]);
}

#[test]
fn file_of_comments_only_is_rejected() {
    assert_rejected(
        "file_of_comments_only_is_rejected",
        b"# a scenario, some day\n\n",
        At("", 1),
        &["empty"],
    );
}

#[test]
fn binary_file_is_rejected() {
    let bytes = b"action = \"mug\"\n\x00\xff\xfe\x01\x02\x03\n";
    assert_rejected(
        "binary_file_is_rejected",
        bytes,
        At("\u{0}", 1),
        &["binary"],
    );
}

#[test]
fn file_with_a_nul_byte_is_rejected() {
    let bytes = b"action = \"mug\"\ntrials = 10\n\x00\x01\n";
    assert_rejected(
        "file_with_a_nul_byte_is_rejected",
        bytes,
        At("\u{0}", 1),
        &["NUL"],
    );
}

#[test]
fn file_where_every_point_is_ineligible_is_rejected() {
    let text = MUG_BASE.replace("class = \"thief\"", "class = \"fighter\"");
    assert_rejected(
        "file_where_every_point_is_ineligible_is_rejected",
        text.as_bytes(),
        At("action = ", 10),
        &["ineligible", "thief", "fighter"],
    );
}

#[test]
fn action_option_the_action_does_not_use_is_rejected() {
    let text = format!("{MUG_BASE}\n[action_options]\nhands = 1\n");
    assert_rejected(
        "action_option_the_action_does_not_use_is_rejected",
        text.as_bytes(),
        At("hands = 1", 9),
        &["hands", "mug"],
    );
}

#[test]
fn action_option_the_action_does_not_use_in_a_variant_is_rejected() {
    let text = format!(
        "{MUG_BASE}\n[[variant]]\nname = \"x\"\naction_options = {{ style = \"wrestle\" }}\n"
    );
    assert_rejected(
        "action_option_the_action_does_not_use_in_a_variant_is_rejected",
        text.as_bytes(),
        At("action_options = {", 28),
        &["style", "mug"],
    );
}

// An action option given by a sweep path is held to the same rule as `[action_options]`: docs/scenarios.md says
// "an option it does not use is an error", wherever it is written.
#[test]
fn action_option_the_action_does_not_use_in_a_sweep_is_rejected() {
    let text = format!("{MUG_BASE}\n[sweep]\n\"action_options.hands\" = [1, 2]\n");
    assert_rejected(
        "action_option_the_action_does_not_use_in_a_sweep_is_rejected",
        text.as_bytes(),
        At("\"action_options.hands\"", 1),
        &["hands", "mug"],
    );
}

// Regression: every scenario error was printed twice on stderr (anyhow's `{:#}` appended the
// `#[from]` source of `BadInput::Scenario` after `: `).
#[test]
fn bad_input_message_is_printed_once() {
    let scratch = Scratch::new("bad_input_message_is_printed_once");
    let text = MUG_BASE.replace("level = 9", "level = 9\nstrenght = \"12\"");
    let file = scratch.write("typo.toml", text);
    let name = file.display().to_string();
    let o = subdual(["check", &name]);
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
    let err = stderr(&o);
    let located = format!("{name}:8:1: ");
    assert_eq!(
        err.matches(&located).count(),
        1,
        "the message must appear once:\n{err}"
    );
    assert_eq!(
        err.matches("did you mean").count(),
        1,
        "the help must appear once:\n{err}"
    );
}

#[test]
fn missing_file_is_named() {
    let scratch = Scratch::new("missing_file_is_named");
    let missing = scratch.path.join("no-such-scenario.toml");
    let name = missing.display().to_string();
    let out = scratch.out();
    for o in [
        subdual(["run", &name, "--out", &out.display().to_string()]),
        subdual(["check", &name]),
    ] {
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
        assert!(err.contains(&name), "the message names the file: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(o.stdout.is_empty(), "{}", describe(&o));
    }
    assert!(!out.exists());
}

#[test]
fn one_bad_file_among_several_runs_nothing() {
    let scratch = Scratch::new("one_bad_file_among_several_runs_nothing");
    let good = scratch.write("good.toml", MUG_BASE);
    let bad = scratch.write(
        "bad.toml",
        MUG_BASE.replace("level = 9", "level = 9\nstrenght = \"12\""),
    );
    let out = scratch.out();
    // The bad file last (the good one would run first if files were not all validated first) and first.
    for files in [[&good, &bad], [&bad, &good]] {
        let o = subdual([
            "run".as_ref(),
            files[0].as_os_str(),
            files[1].as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
            "--quiet".as_ref(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
        assert!(
            stderr(&o).contains(&format!("{}:8:1: ", bad.display())),
            "{}",
            describe(&o)
        );
        assert!(
            !out.exists(),
            "nothing runs, not even the good file: {}",
            describe(&o)
        );
    }
}

#[test]
fn two_files_with_the_same_stem_are_rejected() {
    let scratch = Scratch::new("two_files_with_the_same_stem_are_rejected");
    let a = scratch.write("a/study.toml", MUG_BASE);
    let b = scratch.write("b/study.toml", MUG_BASE);
    let c = scratch.write("c/study.scenario", MUG_BASE);
    let out = scratch.out();
    for second in [&b, &c] {
        let o = subdual([
            "run".as_ref(),
            a.as_os_str(),
            second.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
        ]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
        assert!(err.contains("same stem"), "{err}");
        assert!(err.contains(&a.display().to_string()), "{err}");
        assert!(err.contains(&second.display().to_string()), "{err}");
        assert!(stdout(&o).is_empty());
        assert!(!out.exists(), "nothing runs: {}", describe(&o));
    }
    let o = subdual(["check".as_ref(), a.as_os_str(), b.as_os_str()]);
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
}

/// Two variants for the difference and tune checks below.
fn two_variants(extra: &str) -> String {
    format!(
        "{}{extra}\n[[variant]]\nname = \"as written\"\n\n[[variant]]\nname = \"helmet rule\"\nrules = {{ helmets = true }}\n",
        MUG_BASE.replace("seed = 1", "seed = 1\nbaseline = \"as writen\"")
    )
}

#[test]
fn an_unknown_baseline_suggests_a_variant() {
    let text = two_variants("");
    assert_rejected(
        "an_unknown_baseline_suggests_a_variant",
        text.as_bytes(),
        At("baseline = \"as writen\"", 12),
        &["as writen", "not a variant", "did you mean `as written`"],
    );
}

#[test]
fn a_baseline_metric_of_the_wrong_kind_is_refused() {
    let text = two_variants("")
        .replace("baseline = \"as writen\"\n", "")
        .replace(
            "name = \"helmet rule\"",
            "name = \"helmet rule\"\naction = \"sap\"\nbaseline_metric = \"ko_rounds\"",
        );
    assert_rejected(
        "a_baseline_metric_of_the_wrong_kind_is_refused",
        text.as_bytes(),
        At("baseline_metric = \"ko_rounds\"", 19),
        &["ko_rounds", "same kind", "p_out"],
    );
}

#[test]
fn a_difference_chart_needs_two_variants() {
    let text = format!(
        "{MUG_BASE}\n[sweep]\n\"attacker.level\" = [1, 2]\n\n[[chart]]\nkind = \"difference\"\n"
    );
    assert_rejected(
        "a_difference_chart_needs_two_variants",
        text.as_bytes(),
        At("kind = \"difference\"", 8),
        &["two or more variants"],
    );
}

#[test]
fn a_tune_needs_exactly_one_target_and_an_unswept_parameter() {
    let both = two_variants(
        "\n[[tune]]\nparameter = \"attacker.level\"\nrange = { from = 1, to = 9 }\nmetric = \"p_knockout\"\ntarget = 0.5\nmatch = \"helmet rule\"\n",
    )
    .replace("baseline = \"as writen\"\n", "");
    assert_rejected(
        "a_tune_needs_exactly_one_target",
        both.as_bytes(),
        At("metric = \"p_knockout\"", 10),
        &["exactly one of `target`"],
    );
    let swept = format!(
        "{MUG_BASE}\n[sweep]\n\"attacker.level\" = [1, 2]\n\n[[tune]]\nparameter = \"attacker.level\"\nrange = {{ from = 1, to = 9 }}\nmetric = \"p_knockout\"\ntarget = 0.5\n"
    );
    assert_rejected(
        "a_tune_parameter_must_not_be_swept",
        swept.as_bytes(),
        At("parameter = \"attacker.level\"", 13),
        &["both swept and tuned"],
    );
    let misspelt = format!(
        "{MUG_BASE}\n[[tune]]\nparameter = \"rules.sap_helpless_ko_cap\"\nrange = {{ from = 1, to = 9 }}\nmetric = \"p_knokout\"\ntarget = 0.5\n"
    );
    assert_rejected(
        "a_tune_metric_is_checked",
        misspelt.as_bytes(),
        At("metric = \"p_knokout\"", 10),
        &["p_knokout", "did you mean `p_knockout`"],
    );
}
