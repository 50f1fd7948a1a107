//! Combatant fields an action does not read (docs/scenarios.md "Fields an action does not read"), driven
//! through the real binary: `check` and `run` warn on standard error, naming the field, the action and the
//! place in the file, the exit code unchanged; report.html shows them; a file that sets only what its action
//! reads, and every shipped scenario, gets no such warning.

use crate::common;

use std::process::Output;

use common::{Scratch, assert_success, describe, read, run_quiet, stderr, subdual};

/// A brawl whose attacker, a monster with its own Strength, lists natural attacks a brawler never strikes
/// with (line 9), and a sweep of the victim's awareness (line 16), which a brawl without an opening does not read.
const BRAWLING_OGRE: &str = "\
title = \"A brawling ogre\"
action = \"brawl\"
trials = 200
seed = 3

[attacker]
monster = \"ogre\"
strength = 18
attacks = [\"2d6\"]

[victim]
class = \"fighter\"
weapon = \"long sword\"

[sweep]
\"victim.aware\" = [true, false]
";

const ATTACKS: &str = "unread.toml:9:11: `attacker.attacks` is set, but action `brawl` does not read it \
    here: it counts only toward a monster's rough Strength, which a given `strength`, or a character's, replaces";
const AWARE: &str = "`victim.aware` is set, but action `brawl` reads it only in an opening (`action_options.opening`)";

/// A strike on a victim marked unaware, in a variant (line 13), and the same file with the field gone.
const STRIKE: &str = "\
action = \"strike\"
trials = 200

[attacker]
class = \"fighter\"
weapon = \"long sword\"

[victim]
monster = \"orc\"

[[variant]]
name = \"unaware\"
victim = { aware = false }
";

/// A success that may warn: exit code 0, whatever standard error says.
fn assert_warned_success(o: &Output) {
    assert_eq!(o.status.code(), Some(0), "{}", describe(o));
}

/// Every warning line of standard error about an unread field.
fn unread_warnings(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.starts_with("warning:") && l.contains("is set, but action"))
        .collect()
}

#[test]
fn check_names_each_unread_field_where_the_file_sets_it_and_still_succeeds() {
    let scratch = Scratch::new("unread_check");
    let file = scratch.write("unread.toml", BRAWLING_OGRE);
    let o = subdual(["check".as_ref(), file.as_os_str()]);
    assert_warned_success(&o);
    let err = stderr(&o);
    let warnings = unread_warnings(&err);
    // Once each, though two points set them.
    assert_eq!(warnings.len(), 2, "{err}");
    assert!(warnings[0].ends_with(ATTACKS), "{err}");
    assert!(err.contains("a brawler fights with his `style`"), "{err}");
    assert!(warnings[1].contains(AWARE), "{err}");
    // The sweep sets it: the warning points at the sweep's values.
    assert!(warnings[1].contains("unread.toml:16:18:"), "{err}");
}

#[test]
fn a_variant_sets_the_field_and_the_warning_suggests_what_reads_it() {
    let scratch = Scratch::new("unread_variant");
    let file = scratch.write("strike.toml", STRIKE);
    let o = subdual(["check".as_ref(), file.as_os_str()]);
    assert_warned_success(&o);
    let err = stderr(&o);
    let warnings = unread_warnings(&err);
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(
        warnings[0].contains("strike.toml:13:")
            && warnings[0].contains("`victim.aware` is set, but action `strike` does not read it"),
        "{err}"
    );
    assert!(
        err.contains("only a mugging, and a fight's opening, need the victim unaware"),
        "{err}"
    );
    // Without the field, nothing to say.
    let clean = scratch.write(
        "clean.toml",
        STRIKE.replace("victim = { aware = false }", ""),
    );
    let o = subdual(["check".as_ref(), clean.as_os_str()]);
    assert_success(&o);
    assert!(o.stderr.is_empty(), "{}", describe(&o));
}

#[test]
fn run_warns_even_when_quiet_and_the_report_shows_the_warnings() {
    let scratch = Scratch::new("unread_run");
    let file = scratch.write("unread.toml", BRAWLING_OGRE);
    let o = run_quiet(&file, &scratch.out(), &["--no-charts"]);
    assert_warned_success(&o);
    let err = stderr(&o);
    let warnings = unread_warnings(&err);
    assert_eq!(warnings.len(), 2, "{err}");
    assert!(warnings[0].ends_with(ATTACKS), "{err}");
    let html = read(&scratch.out().join("unread/report.html"));
    let block = html
        .split("<aside class=\"warnings\"")
        .nth(1)
        .unwrap_or_else(|| panic!("no warnings block in report.html"))
        .split("</aside>")
        .next()
        .unwrap_or_default();
    assert!(block.contains("<h2>Warnings</h2>"), "{block}");
    assert!(
        block.contains("`attacker.attacks` is set, but action `brawl` does not read it here"),
        "{block}"
    );
    assert!(block.contains("unread.toml:9:11"), "{block}");
    assert!(block.contains("`victim.aware` is set"), "{block}");
}

#[test]
fn a_file_that_sets_only_what_its_action_reads_has_no_warnings() {
    let scratch = Scratch::new("unread_none");
    let file = scratch.write(
        "clean.toml",
        BRAWLING_OGRE.replace("attacks = [\"2d6\"]\n", "").replace(
            "\"victim.aware\" = [true, false]",
            "\"victim.strength\" = [10, 16]",
        ),
    );
    let o = run_quiet(&file, &scratch.out(), &["--no-charts"]);
    assert_success(&o);
    assert!(o.stderr.is_empty(), "{}", describe(&o));
    let html = read(&scratch.out().join("clean/report.html"));
    assert!(!html.contains("<aside class=\"warnings\""));
}

#[test]
fn no_shipped_scenario_sets_a_field_its_action_does_not_read() {
    let dir = common::repo().join("scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("cannot read a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for file in files {
        let o = subdual(["check".as_ref(), file.as_os_str()]);
        assert_success(&o);
        let err = stderr(&o);
        assert!(
            unread_warnings(&err).is_empty(),
            "{}:\n{err}",
            file.display()
        );
    }
}
