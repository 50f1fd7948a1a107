//! Exact values within their bound, through the real binary: a point whose dice have too many paths or
//! outcomes (hit points or damage of 100d1000, damage of 6d20) is refused by `subdual exact` with exit code 2
//! and a message naming the file, the variant and the reason, before anything is computed; `run --exact`
//! runs it all the same, leaves its `exact` cells empty and says so on stderr (docs/scenarios.md, `exact`).

use crate::common;

use common::*;

/// A held-back strike; the second variant's maul rolls `damage`, its victim `hp` hit points.
fn strike(damage: &str, hp: &str) -> String {
    format!(
        r#"action = "strike"
trials = 2000
seed = 1

[attacker]
class = "fighter"
level = 5
weapon = "long sword"

[victim]
class = "fighter"
level = 2

[[variant]]
name = "sword"

[[variant]]
name = "maul"
attacker = {{ weapon = {{ name = "maul", damage = "{damage}", controllable = true }} }}
victim = {{ hp = "{hp}" }}
"#
    )
}

/// A sap against a sentry of `hp` hit points, one variant.
fn sap(hp: &str) -> String {
    format!(
        "action = \"sap\"\ntrials = 2000\nseed = 1\n\n[attacker]\nclass = \"fighter\"\nweapon = \"club\"\n\n\
         [victim]\nclass = \"fighter\"\nhp = \"{hp}\"\n"
    )
}

/// `subdual exact FILES --out OUT`.
fn exact(files: &[&std::path::Path], out: &std::path::Path) -> std::process::Output {
    let mut args: Vec<std::ffi::OsString> = vec!["exact".into()];
    args.extend(files.iter().map(|f| f.as_os_str().to_owned()));
    args.extend(["--out".into(), out.as_os_str().to_owned()]);
    subdual(args)
}

/// Asserts a refusal by `exact`: exit code 2 (not a panic's 101), one message naming the file and the
/// variant with every word of `reason`, nothing on stdout.
fn assert_refused(
    o: &std::process::Output,
    file: &std::path::Path,
    variant: &str,
    reason: &[&str],
) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{}", describe(o));
    assert!(!err.contains("panicked"), "{}", describe(o));
    assert!(o.stdout.is_empty(), "nothing is computed: {}", describe(o));
    let name = file.display().to_string();
    assert!(err.starts_with(&format!("error: {name}: ")), "{err}");
    assert!(err.contains(&format!("variant `{variant}`")), "{err}");
    assert!(err.contains("no exact value"), "{err}");
    for word in reason {
        assert!(err.contains(word), "`{word}` in {err}");
    }
    assert!(err.contains("run it without `exact`"), "{err}");
}

#[test]
fn exact_refuses_huge_dice_with_exit_code_2_and_the_reason() {
    let scratch = Scratch::new("exact_refuses_huge_dice");
    let out = scratch.out();
    let cases = [
        (
            "hp.toml",
            sap("100d1000"),
            "base",
            &["more outcomes", "100d1000"][..],
        ),
        (
            "damage.toml",
            strike("100d1000", "2d10"),
            "maul",
            &["more outcomes"][..],
        ),
        (
            "paths.toml",
            strike("6d20", "2d10"),
            "maul",
            &["ways, more than the 2097152 paths"][..],
        ),
    ];
    for (name, text, variant, reason) in cases {
        let file = scratch.write(name, text);
        let o = exact(&[&file], &out);
        assert_refused(&o, &file, variant, reason);
    }
    assert!(!out.exists(), "no output folder is written");
}

#[test]
fn exact_refuses_before_it_computes_any_file() {
    // A good file first, the refused one second: the first is not computed nor written either.
    let scratch = Scratch::new("exact_refuses_before");
    let out = scratch.out();
    let good = repo().join("scenarios/mugging-level-gap.toml");
    let bad = scratch.write("late.toml", strike("100d1000", "100d1000"));
    let o = exact(&[&good, &bad], &out);
    assert_refused(&o, &bad, "maul", &["more outcomes"]);
    assert!(!out.exists(), "nothing is written: {}", describe(&o));
    // The same file without the huge dice is computed.
    let fine = scratch.write("fine.toml", strike("2d6", "2d10"));
    let o = exact(&[&fine], &out);
    assert_success(&o);
    assert!(out.join("fine").join("exact.csv").exists());
}

#[test]
fn run_exact_leaves_the_exact_column_empty_and_warns() {
    let scratch = Scratch::new("run_exact_leaves_empty");
    let out = scratch.out();
    let file = scratch.write("huge.toml", strike("6d20", "100d1000"));
    let o = run_quiet(&file, &out, &["--exact"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    assert!(!err.contains("panicked"), "{}", describe(&o));
    let warnings: Vec<&str> = err.lines().collect();
    assert_eq!(warnings.len(), 1, "one warning, for the one point: {err}");
    let name = file.display().to_string();
    assert!(
        warnings[0].starts_with(&format!(
            "warning: {name}: variant `maul` at []: no exact value: "
        )),
        "{err}"
    );
    assert!(warnings[0].contains("exact` column stays empty"), "{err}");

    let summary = Csv::read(&out.join("huge").join("summary.csv"));
    let (variant, metric, exact) = (
        summary.col("variant"),
        summary.col("metric"),
        summary.col("exact"),
    );
    assert_eq!(
        exact,
        summary.header.len() - 1,
        "`exact` is the last column"
    );
    let mut filled = 0;
    for row in &summary.rows {
        match row[variant].as_str() {
            "maul" => assert_eq!(row[exact], "", "maul {}: no exact value", row[metric]),
            "sword" => {
                if row[metric] == "p_hit" {
                    assert_round_trip(&row[exact], "sword p_hit");
                }
                filled += usize::from(!row[exact].is_empty());
            }
            other => panic!("a variant `{other}`"),
        }
    }
    assert_eq!(
        filled,
        summary_metrics("strike").len(),
        "every sword metric is exact"
    );
    // The differences of the maul against the sword have no exact value either.
    let differences = Csv::read(&out.join("huge").join("differences.csv"));
    let exact = differences.col("exact");
    assert!(!differences.rows.is_empty());
    assert!(differences.rows.iter().all(|r| r[exact].is_empty()));

    // Without `--exact` nothing is said.
    let o = run_quiet(&file, &out, &[]);
    assert_success(&o);
}
