//! Reproducibility through the real binary: the same scenario, seed and trial count give byte-identical
//! summary.csv and distributions.csv on any number of threads; the seed, and only the seed, changes them.
//! report.html agrees too, once the facts of the run itself (command line, threads, start, elapsed time),
//! which it keeps between two markers, are cut out.

use crate::common;

use std::path::Path;

use common::{Scratch, assert_success, describe, read_bytes, run_quiet};

/// summary.csv, distributions.csv and report.html without the run's own facts, as bytes.
type Outputs = (Vec<u8>, Vec<u8>, Vec<u8>);

/// Where report.html keeps the facts of the run itself (src/export/report.rs).
const RUN_BEGIN: &str = "<!-- run-dependent -->";
const RUN_END: &str = "<!-- /run-dependent -->";

/// report.html with the run's own facts cut out; they are there, once.
fn report_without_run(html: &str) -> Vec<u8> {
    assert_eq!(
        html.matches(RUN_BEGIN).count(),
        1,
        "one run-dependent block"
    );
    let (before, rest) = html.split_once(RUN_BEGIN).unwrap();
    let (run, after) = rest.split_once(RUN_END).expect("the block ends");
    assert!(run.contains("threads") && run.contains("elapsed"), "{run}");
    format!("{before}{after}").into_bytes()
}

/// Runs `file` into `out` with extra arguments and returns its summary.csv, distributions.csv and
/// report.html (without the run's facts).
fn outputs(file: &Path, out: &Path, extra: &[&str]) -> Outputs {
    let o = run_quiet(file, out, extra);
    assert_success(&o);
    let stem = file.file_stem().unwrap_or_default();
    let dir = out.join(stem);
    (
        read_bytes(&dir.join("summary.csv")),
        read_bytes(&dir.join("distributions.csv")),
        report_without_run(&common::read(&dir.join("report.html"))),
    )
}

/// The first differing line of two files, for a readable failure.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}:\n  {x}\n  {y}", i + 1);
        }
    }
    format!(
        "one file is a prefix of the other ({} and {} lines)",
        a.lines().count(),
        b.lines().count()
    )
}

fn assert_same_on_threads(test: &str, file: &Path, trials: &str) {
    let scratch = Scratch::new(test);
    let runs: Vec<(&str, Outputs)> = ["1", "2", "7"]
        .into_iter()
        .map(|t| {
            let out = scratch.path.join(format!("threads-{t}"));
            (
                t,
                outputs(file, &out, &["--trials", trials, "--threads", t]),
            )
        })
        .collect();
    let (_, (summary, distributions, report)) = &runs[0];
    assert!(summary.len() > 100 && distributions.len() > 100);
    for (threads, (s, d, r)) in &runs[1..] {
        assert!(
            s == summary,
            "summary.csv differs between --threads 1 and --threads {threads}: {}",
            first_difference(summary, s)
        );
        assert!(
            d == distributions,
            "distributions.csv differs between --threads 1 and --threads {threads}: {}",
            first_difference(distributions, d)
        );
        assert!(
            r == report,
            "report.html differs outside its run facts between --threads 1 and --threads {threads}: {}",
            first_difference(report, r)
        );
    }
}

#[test]
fn shipped_mugging_is_identical_on_1_2_and_7_threads() {
    // 150 000 trials: three blocks of 65 536 (the last one short), for each of 40 points.
    let file = common::repo().join("scenarios/mugging-level-gap.toml");
    assert_same_on_threads("shipped_mugging_identical", &file, "150000");
}

/// Saps over two axes and two variants; the ogre (Large) cannot be sapped: 4 of 12 points are ineligible.
const SAP_WITH_INELIGIBLE: &str = r#"title = "Sapping, with a Large victim that cannot be sapped"
action = "sap"
trials = 5000
seed = 99

[attacker]
class = "fighter"
level = 5
strength = "18/50"
weapon = "club"

[victim]
monster = "orc"

[sweep]
"victim.monster" = ["kobold", "ogre", "orc"]
"attacker.level" = [1, 6]

[[variant]]
name = "as written"

[[variant]]
name = "sap cap 60%"
rules = { sap_ko_cap = 60 }
"#;

#[test]
fn scenario_with_ineligible_points_is_identical_on_1_2_and_7_threads() {
    let scratch = Scratch::new("ineligible_identical_fixture");
    let file = scratch.write("sap-ineligible.toml", SAP_WITH_INELIGIBLE);
    assert_same_on_threads("ineligible_identical", &file, "140000");
    // The fixture really has ineligible points.
    let out = scratch.out();
    let (summary, _, _) = outputs(&file, &out, &["--trials", "2000"]);
    let text = String::from_utf8_lossy(&summary);
    assert_eq!(text.matches(",ineligible,").count(), 4, "{text}");
}

#[test]
fn a_different_seed_changes_the_summary() {
    let scratch = Scratch::new("a_different_seed_changes_the_summary");
    let file = common::repo().join("scenarios/mugging-level-gap.toml");
    let (a, _, _) = outputs(&file, &scratch.path.join("a"), &["--trials", "5000"]);
    let (b, _, _) = outputs(
        &file,
        &scratch.path.join("b"),
        &["--trials", "5000", "--seed", "7377"],
    );
    assert_ne!(a, b, "--seed 7377 must change summary.csv");
    // Same seed again: same bytes (nothing depends on the clock or the run).
    let (c, _, _) = outputs(&file, &scratch.path.join("c"), &["--trials", "5000"]);
    assert!(a == c, "a second run differs: {}", first_difference(&a, &c));
}

#[test]
fn explicit_seed_equal_to_the_files_gives_identical_bytes() {
    let scratch = Scratch::new("explicit_seed_equal");
    // scenarios/mugging-level-gap.toml says `seed = 7376`.
    let file = common::repo().join("scenarios/mugging-level-gap.toml");
    let text = String::from_utf8_lossy(&read_bytes(&file)).into_owned();
    assert!(
        text.lines().any(|l| l.trim() == "seed = 7376"),
        "the shipped file's seed changed; update this test"
    );
    let implicit = outputs(&file, &scratch.path.join("implicit"), &["--trials", "5000"]);
    let explicit = outputs(
        &file,
        &scratch.path.join("explicit"),
        &["--trials", "5000", "--seed", "7376"],
    );
    assert!(
        implicit.0 == explicit.0,
        "{}",
        first_difference(&implicit.0, &explicit.0)
    );
    assert!(
        implicit.1 == explicit.1,
        "{}",
        first_difference(&implicit.1, &explicit.1)
    );
    assert!(
        implicit.2 == explicit.2,
        "{}",
        first_difference(&implicit.2, &explicit.2)
    );
}

#[test]
fn seed_zero_by_default_never_the_clock() {
    // Without `seed`, the seed is 0: two runs agree, and agree with `--seed 0`.
    let scratch = Scratch::new("seed_zero_by_default");
    let text = common::MUG_BASE.replace("seed = 1\n", "");
    let file = scratch.write("noseed.toml", text);
    let a = outputs(&file, &scratch.path.join("a"), &[]);
    let b = outputs(&file, &scratch.path.join("b"), &[]);
    let c = outputs(&file, &scratch.path.join("c"), &["--seed", "0"]);
    assert!(a == b, "{}", first_difference(&a.0, &b.0));
    assert!(a == c, "{}", first_difference(&a.0, &c.0));
    let o = common::subdual(["check".as_ref(), file.as_os_str()]);
    assert!(common::stdout(&o).contains("seed 0"), "{}", describe(&o));
}
