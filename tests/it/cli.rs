//! The command line, driven through the real binary: every shipped scenario, argument errors, what `run`
//! prints, the manifest, `check` and `catalog`.

use crate::common;

use std::path::{Path, PathBuf};

use common::{
    Csv, Json, MUG_BASE, Scratch, assert_success, check_distributions, check_summary, describe,
    parse_json, read, read_bytes, run_quiet, stderr, stdout, subdual,
};

/// What `check` says about one file.
struct Checked {
    action: String,
    paths: Vec<String>,
    points: usize,
    eligible: usize,
}

/// Runs `check FILE` (must succeed) and reads the action, the sweep paths and the points it prints.
fn check_file(file: &Path) -> Checked {
    let o = subdual(["check".as_ref(), file.as_os_str()]);
    assert_success(&o);
    let text = stdout(&o);
    let field = |name: &str| -> Option<String> {
        text.lines()
            .find_map(|l| l.trim_start().strip_prefix(&format!("{name}:")))
            .map(|v| v.trim().to_string())
    };
    let action = field("action").unwrap_or_else(|| panic!("no action in `check`:\n{text}"));
    let paths = field("sweep")
        .map(|s| {
            s.split(" × ")
                .map(|axis| axis.split(" (").next().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default();
    let points_line = field("points").unwrap_or_else(|| panic!("no points in `check`:\n{text}"));
    // "40 (38 eligible)"
    let mut numbers = points_line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<usize>().unwrap_or(0));
    let points = numbers.next().unwrap_or(0);
    let eligible = numbers.next().unwrap_or(0);
    Checked {
        action,
        paths,
        points,
        eligible,
    }
}

/// The *.toml files of scenarios/, found when the test runs (others may be added at any time).
fn shipped_scenarios() -> Vec<PathBuf> {
    let dir = common::repo().join("scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("cannot read a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
        .collect();
    files.sort();
    files
}

fn json_number(manifest: &Json, key: &str) -> String {
    match manifest.get(key) {
        Some(Json::Number(n)) => n.clone(),
        other => panic!("manifest `{key}` must be a number, not {other:?}"),
    }
}

fn json_string(manifest: &Json, key: &str) -> String {
    match manifest.get(key) {
        Some(Json::Str(s)) => s.clone(),
        other => panic!("manifest `{key}` must be a string, not {other:?}"),
    }
}

/// The manifest keys of docs/scenarios.md, in order.
const MANIFEST_KEYS: [&str; 10] = [
    "tool",
    "version",
    "scenario",
    "scenario_sha256",
    "seed",
    "trials",
    "block_size",
    "variants",
    "points",
    "files",
];

/// The run.json keys of docs/scenarios.md, in order.
const RUN_KEYS: [&str; 5] = ["threads", "started", "elapsed_s", "command", "shards"];

/// Parses manifest.json and checks that it has exactly the keys of docs/scenarios.md, in order.
fn read_manifest(path: &Path) -> Json {
    read_keys(path, &MANIFEST_KEYS)
}

/// Parses run.json and checks that it has exactly the keys of docs/scenarios.md, in order.
fn read_run(path: &Path) -> Json {
    read_keys(path, &RUN_KEYS)
}

fn read_keys(path: &Path, expected: &[&str]) -> Json {
    let text = read(path);
    let json =
        parse_json(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}\n{text}", path.display()));
    let Json::Object(entries) = &json else {
        panic!("{} must be a JSON object:\n{text}", path.display());
    };
    let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, expected, "{}", path.display());
    json
}

#[test]
fn every_shipped_scenario_runs_and_writes_valid_outputs() {
    let scratch = Scratch::new("every_shipped_scenario");
    let files = shipped_scenarios();
    assert!(!files.is_empty(), "no scenario in scenarios/");
    for file in &files {
        let stem = file.file_stem().unwrap_or_default().to_string_lossy();
        let what = file.display().to_string();
        let checked = check_file(file);
        assert!(checked.points >= 1 && checked.eligible >= 1, "{what}");
        let out = scratch.path.join(format!("out-{stem}"));
        let o = run_quiet(file, &out, &["--trials", "3000"]);
        assert_success(&o);
        assert!(
            o.stdout.is_empty(),
            "--quiet prints nothing: {}",
            describe(&o)
        );
        let dir = out.join(&*stem);
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{what}: no output folder {}: {e}", dir.display()))
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        for name in [
            "distributions.csv",
            "manifest.json",
            "report.html",
            "run.json",
            "summary.csv",
        ] {
            assert!(
                names.iter().any(|n| n == name),
                "{what}: no {name} in {names:?}"
            );
        }
        assert!(
            names.iter().all(|n| !n.ends_with(".tmp")),
            "{what}: a temporary file remains: {names:?}"
        );

        let summary_text = read(&dir.join("summary.csv"));
        let header = summary_text.lines().next().unwrap_or("");
        assert!(header.starts_with("variant,"), "{what}: {header}");
        assert!(
            header.ends_with(",metric,estimate,ci_low,ci_high,std_error,trials,status"),
            "{what}: {header}"
        );
        let summary = Csv::read(&dir.join("summary.csv"));
        let paths: Vec<&str> = checked.paths.iter().map(String::as_str).collect();
        let points = check_summary(&summary, &checked.action, Some(&paths), &what);
        assert_eq!(
            points, checked.points,
            "{what}: one block of rows per point"
        );
        let status = summary.col("status");
        for r in &summary.rows {
            assert!(
                r[status] == "ok" || r[status].starts_with("ineligible: "),
                "{what}: status `{}`",
                r[status]
            );
        }
        let ineligible = summary
            .rows
            .iter()
            .filter(|r| r[status].starts_with("ineligible: "))
            .count();
        assert_eq!(ineligible, checked.points - checked.eligible, "{what}");
        // Probabilities are over every trial of the point (a ratio over the trials of its condition).
        let (metric, trials) = (summary.col("metric"), summary.col("trials"));
        for r in &summary.rows {
            if r[metric].starts_with("p_")
                && !crate::common::RATIO_METRICS.contains(&r[metric].as_str())
            {
                assert_eq!(r[trials], "3000", "{what}: {r:?}");
            }
        }

        let distributions = Csv::read(&dir.join("distributions.csv"));
        check_distributions(&distributions, &checked.action, Some(&paths), &what);

        let manifest = read_manifest(&dir.join("manifest.json"));
        assert_eq!(json_number(&manifest, "trials"), "3000", "{what}");
        assert_eq!(json_number(&manifest, "points"), checked.points.to_string());

        // The report inlines every chart and holds one headline row per point.
        let report = read(&dir.join("report.html"));
        let svgs = names.iter().filter(|n| n.ends_with(".svg")).count();
        assert_eq!(report.matches("<figure>").count(), svgs, "{what}");
        // Past 100 rows the table goes on folded in a second one under it, with its own header.
        let headline: Vec<&str> = report
            .split("<table class=\"headline\">")
            .skip(1)
            .filter_map(|t| t.split("</table>").next())
            .collect();
        assert!(!headline.is_empty(), "{what}: no headline table");
        let rows: usize = headline.iter().map(|t| t.matches("<tr>").count() - 1).sum();
        assert_eq!(
            rows, checked.points,
            "{what}: one row per point under each header"
        );
        assert_eq!(report.matches("<h1>").count(), 1, "{what}: one title");
    }
}

#[test]
fn several_files_run_in_order_each_to_its_own_folder() {
    let scratch = Scratch::new("several_files_run_in_order");
    let a = scratch.write("first.toml", MUG_BASE);
    let b = scratch.write(
        "second.toml",
        MUG_BASE
            .replace("\"ogre\"", "\"orc\"")
            .replace("seed = 1", "seed = 2"),
    );
    let out = scratch.out();
    let o = subdual([
        "run".as_ref(),
        a.as_os_str(),
        b.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        "--trials".as_ref(),
        "2000".as_ref(),
    ]);
    assert_success(&o);
    let text = stdout(&o);
    let first = text.find("first").unwrap_or_else(|| panic!("{text}"));
    let second = text.find("second").unwrap_or_else(|| panic!("{text}"));
    assert!(first < second, "files run in the order given:\n{text}");
    for stem in ["first", "second"] {
        for name in [
            "summary.csv",
            "distributions.csv",
            "manifest.json",
            "report.html",
        ] {
            assert!(out.join(stem).join(name).is_file(), "{stem}/{name}");
        }
    }
}

#[test]
fn summary_rows_are_variants_then_sweep_points_last_axis_fastest() {
    let scratch = Scratch::new("summary_rows_order");
    let text = format!(
        "{MUG_BASE}\n[sweep]\n\"attacker.level\" = [3, 7]\n\"victim.monster\" = [\"orc\", \"gnoll\", \"ogre\"]\n\n\
         [[variant]]\nname = \"zeta\"\n\n[[variant]]\nname = \"alpha\"\nrules = {{ helmets = true }}\n"
    );
    let file = scratch.write("order.toml", text);
    let out = scratch.out();
    assert_success(&run_quiet(&file, &out, &["--trials", "2000"]));
    let summary = Csv::read(&out.join("order/summary.csv"));
    check_summary(
        &summary,
        "mug",
        Some(&["attacker.level", "victim.monster"]),
        "order",
    );
    let mut keys: Vec<(String, String, String, String)> = Vec::new();
    for r in &summary.rows {
        let key = (r[0].clone(), r[1].clone(), r[2].clone(), r[3].clone());
        if keys.last() != Some(&key) {
            keys.push(key);
        }
    }
    // level_gap = attacker level - the monster's whole Hit Dice (orc 1, gnoll 2, ogre 4+1).
    let mut expected = Vec::new();
    for variant in ["zeta", "alpha"] {
        for level in [3, 7] {
            for (monster, hd) in [("orc", 1), ("gnoll", 2), ("ogre", 4)] {
                expected.push((
                    variant.to_string(),
                    level.to_string(),
                    monster.to_string(),
                    (level - hd).to_string(),
                ));
            }
        }
    }
    assert_eq!(keys, expected);
}

#[test]
fn trials_option_overrides_the_file() {
    let scratch = Scratch::new("trials_option_overrides_the_file");
    let file = scratch.write("t.toml", MUG_BASE);
    for (extra, want) in [(&[][..], "1000"), (&["--trials", "2500"][..], "2500")] {
        let out = scratch.path.join(format!("out-{want}"));
        assert_success(&run_quiet(&file, &out, extra));
        let summary = Csv::read(&out.join("t/summary.csv"));
        let (metric, trials) = (summary.col("metric"), summary.col("trials"));
        let p_hit = summary
            .rows
            .iter()
            .find(|r| r[metric] == "p_hit")
            .expect("a p_hit row");
        assert_eq!(p_hit[trials], want, "{extra:?}");
        assert_eq!(
            json_number(&read_manifest(&out.join("t/manifest.json")), "trials"),
            want
        );
    }
}

#[test]
fn zero_trials_argument_is_rejected() {
    let scratch = Scratch::new("zero_trials_argument_is_rejected");
    let file = scratch.write("z.toml", MUG_BASE);
    let o = run_quiet(&file, &scratch.out(), &["--trials", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
    assert!(stderr(&o).contains("--trials"), "{}", describe(&o));
    assert!(!scratch.out().exists());
}

#[test]
fn zero_threads_argument_is_rejected() {
    let scratch = Scratch::new("zero_threads_argument_is_rejected");
    let file = scratch.write("z.toml", MUG_BASE);
    let o = run_quiet(&file, &scratch.out(), &["--threads", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
    assert!(stderr(&o).contains("--threads"), "{}", describe(&o));
    assert!(!scratch.out().exists());
}

#[test]
fn non_numeric_arguments_are_rejected() {
    let scratch = Scratch::new("non_numeric_arguments_are_rejected");
    let file = scratch.write("z.toml", MUG_BASE);
    for extra in [["--trials", "many"], ["--seed", "-1"], ["--threads", "two"]] {
        let o = run_quiet(&file, &scratch.out(), &extra);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", describe(&o));
        assert!(!stderr(&o).contains("panicked"), "{}", describe(&o));
    }
    assert!(!scratch.out().exists());
}

#[test]
fn run_without_a_scenario_is_rejected() {
    for args in [
        &["run"][..],
        &["run", "--quiet"][..],
        &["check"][..],
        &[][..],
    ] {
        let o = subdual(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", describe(&o));
    }
}

#[test]
fn unknown_subcommand_is_rejected() {
    let o = subdual(["simulate", "x.toml"]);
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
}

#[test]
fn help_exits_zero() {
    let o = subdual(["--help"]);
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    let text = stdout(&o);
    for word in ["run", "check", "catalog"] {
        assert!(text.contains(word), "--help lists `{word}`:\n{text}");
    }
    let o = subdual(["run", "--help"]);
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    let text = stdout(&o);
    for option in [
        "--trials",
        "--seed",
        "--out",
        "--threads",
        "--quiet",
        "--no-charts",
    ] {
        assert!(text.contains(option), "run --help lists {option}:\n{text}");
    }
    let o = subdual(["--version"]);
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    assert!(
        stdout(&o).contains(env!("CARGO_PKG_VERSION")),
        "{}",
        describe(&o)
    );
}

/// Two variants × three monsters; the halfling cannot mug the 9-ft ogre (more than twice his height).
const THREE_MONSTERS: &str = r#"title = "Three monsters"
action = "mug"
trials = 2000
seed = 5

[attacker]
class = "thief"
level = 5
weapon = "club"
position = "behind"

[victim]
aware = false

[sweep]
"victim.monster" = ["kobold", "orc", "ogre"]

[[variant]]
name = "human"

[[variant]]
name = "halfling"
attacker = { race = "halfling" }
"#;

#[test]
fn run_prints_the_headline_metric_once_per_point() {
    let scratch = Scratch::new("run_prints_the_headline_metric");
    let file = scratch.write("three.toml", THREE_MONSTERS);
    let out = scratch.out();
    let o = subdual([
        "run".as_ref(),
        file.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert_success(&o);
    let text = stdout(&o);
    assert!(text.contains("p_knockout"), "the headline metric:\n{text}");
    assert!(!text.contains("p_hit"), "only the headline metric:\n{text}");
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let point_lines: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("human ") || l.starts_with("halfling "))
        .collect();
    assert_eq!(point_lines.len(), 6, "one line per point:\n{text}");
    let ineligible: Vec<_> = point_lines
        .iter()
        .filter(|l| l.contains("ineligible"))
        .collect();
    assert_eq!(ineligible.len(), 1, "the halfling and the ogre:\n{text}");
    assert!(ineligible[0].contains("ogre"), "{text}");
    // Besides the points: a line naming the run, a header, and a line on the charts drawn.
    assert_eq!(lines.len(), 6 + 3, "{text}");
    assert!(text.contains("chart(s) drawn"), "{text}");
    assert!(text.contains("Three monsters"), "the title:\n{text}");
}

#[test]
fn quiet_run_prints_nothing() {
    let scratch = Scratch::new("quiet_run_prints_nothing");
    let file = scratch.write("three.toml", THREE_MONSTERS);
    let o = run_quiet(&file, &scratch.out(), &[]);
    assert_success(&o);
    assert!(o.stdout.is_empty(), "{}", describe(&o));
    assert!(scratch.out().join("three/summary.csv").is_file());
}

#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    // Captured stderr is a pipe, not a terminal: no progress bar, so nothing at all on success, even with
    // enough trials for many progress updates.
    let scratch = Scratch::new("no_progress_bar");
    let file = scratch.write("three.toml", THREE_MONSTERS);
    let o = subdual([
        "run".as_ref(),
        file.as_os_str(),
        "--out".as_ref(),
        scratch.out().as_os_str(),
        "--trials".as_ref(),
        "140000".as_ref(),
        "--threads".as_ref(),
        "2".as_ref(),
    ]);
    assert_success(&o);
}

#[test]
fn manifest_records_the_run() {
    let scratch = Scratch::new("manifest_records_the_run");
    let file = scratch.write("three.toml", THREE_MONSTERS);
    let out = scratch.out();
    let o = run_quiet(
        &file,
        &out,
        &["--trials", "2345", "--threads", "3", "--seed", "42"],
    );
    assert_success(&o);
    let text = read(&out.join("three/manifest.json"));
    let m = read_manifest(&out.join("three/manifest.json"));
    for key in MANIFEST_KEYS {
        assert!(text.contains(&format!("\"{key}\": ")), "`{key}` in\n{text}");
    }
    assert_eq!(json_string(&m, "tool"), "subdual");
    assert_eq!(json_string(&m, "version"), env!("CARGO_PKG_VERSION"));
    assert_eq!(json_string(&m, "scenario"), file.display().to_string());
    let sha = json_string(&m, "scenario_sha256");
    assert!(
        sha.len() == 64 && sha.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f')),
        "scenario_sha256 `{sha}`"
    );
    assert_eq!(json_number(&m, "seed"), "42");
    assert_eq!(json_number(&m, "trials"), "2345");
    assert_eq!(json_number(&m, "block_size"), "65536");
    let run = read_run(&out.join("three/run.json"));
    assert_eq!(json_number(&run, "threads"), "3");
    assert_eq!(run.get("shards"), Some(&Json::Array(Vec::new())));
    assert_eq!(
        m.get("variants"),
        Some(&Json::Array(vec![
            Json::Str("human".into()),
            Json::Str("halfling".into())
        ]))
    );
    assert_eq!(json_number(&m, "points"), "6");
    // Every other file of the folder, by name, with its size and digest; nothing else.
    let Some(Json::Array(listed)) = m.get("files") else {
        panic!("`files` must be an array:\n{text}");
    };
    let mut on_disk: Vec<String> = std::fs::read_dir(out.join("three"))
        .expect("the study folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| !["manifest.json", "run.json", "report.html"].contains(&n.as_str()))
        .collect();
    on_disk.sort();
    let names: Vec<String> = listed.iter().map(|f| json_string(f, "name")).collect();
    assert_eq!(names, on_disk, "{text}");
    for f in listed {
        let bytes =
            std::fs::read(out.join("three").join(json_string(f, "name"))).expect("a listed file");
        assert_eq!(json_number(f, "bytes"), bytes.len().to_string());
        assert_eq!(
            json_string(f, "sha256"),
            subdual::digest::sha256_hex(&bytes)
        );
    }
    let started = json_string(&run, "started");
    let b = started.as_bytes();
    assert!(
        b.len() == 20
            && b[4] == b'-'
            && b[7] == b'-'
            && b[10] == b'T'
            && b[13] == b':'
            && b[16] == b':'
            && b[19] == b'Z'
            && started[..4].parse::<u32>().is_ok_and(|y| y >= 2024),
        "started `{started}` must be RFC 3339 UTC"
    );
    let elapsed: f64 = json_number(&run, "elapsed_s").parse().unwrap_or(-1.0);
    assert!((0.0..600.0).contains(&elapsed), "elapsed_s {elapsed}");
    let command = json_string(&run, "command");
    for part in ["run", "--trials 2345", "--threads 3", "--seed 42"] {
        assert!(command.contains(part), "command `{command}` lacks `{part}`");
    }
    // The same bytes give the same hash; another file another.
    let copy = scratch.write("copy/three.toml", THREE_MONSTERS);
    let other = scratch.write(
        "other/three.toml",
        THREE_MONSTERS.replace("seed = 5", "seed = 6"),
    );
    let hash = |f: &Path, dir: &str| {
        let out = scratch.path.join(dir);
        assert_success(&run_quiet(f, &out, &["--trials", "1000"]));
        json_string(
            &read_manifest(&out.join("three/manifest.json")),
            "scenario_sha256",
        )
    };
    assert_eq!(hash(&copy, "out-copy"), sha);
    assert_ne!(hash(&other, "out-other"), sha);
}

#[test]
fn manifest_threads_default_to_all_cores() {
    let scratch = Scratch::new("manifest_threads_default");
    let file = scratch.write("three.toml", THREE_MONSTERS);
    let out = scratch.out();
    assert_success(&run_quiet(&file, &out, &[]));
    let m = read_manifest(&out.join("three/manifest.json"));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let run = read_run(&out.join("three/run.json"));
    assert_eq!(json_number(&run, "threads"), cores.to_string());
    assert_eq!(json_number(&m, "seed"), "5", "the file's seed");
    assert_eq!(json_number(&m, "trials"), "2000", "the file's trials");
}

#[test]
fn unwritable_output_folder_is_refused_before_the_run() {
    let scratch = Scratch::new("unwritable_output_folder_is_refused");
    let file = scratch.write("three.toml", THREE_MONSTERS);
    let blocker = scratch.write("not-a-folder", "x");
    // A billion trials a point would take minutes: the folder is checked before anything runs.
    let o = run_quiet(&file, &blocker, &["--trials", "1000000000"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "an output folder that cannot be written is bad input: {}",
        describe(&o)
    );
    assert!(
        stderr(&o).contains("cannot write in the output folder"),
        "{}",
        describe(&o)
    );
    assert!(stderr(&o).contains("not-a-folder"), "{}", describe(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", describe(&o));
    assert_eq!(
        read_bytes(&blocker),
        b"x",
        "the file in the way is untouched"
    );
}

#[test]
fn check_prints_title_action_variants_points_and_trials() {
    let scratch = Scratch::new("check_prints");
    let file = scratch.write("three.toml", THREE_MONSTERS);
    let o = subdual(["check".as_ref(), file.as_os_str()]);
    assert_success(&o);
    let text = stdout(&o);
    for part in [
        "Three monsters",
        "mug",
        "human, halfling",
        "victim.monster (3 values)",
        "6 (5 eligible)",
        "2000",
        "seed 5",
    ] {
        assert!(text.contains(part), "`check` prints `{part}`:\n{text}");
    }
    let checked = check_file(&file);
    assert_eq!(
        (checked.action.as_str(), checked.points, checked.eligible),
        ("mug", 6, 5)
    );
}

#[test]
fn catalog_lists_weapons_monsters_races_and_classes() {
    let o = subdual(["catalog"]);
    assert_success(&o);
    let all = stdout(&o);
    for word in [
        "long sword",
        "club",
        "ogre",
        "nightmare",
        "halfling",
        "thief",
    ] {
        assert!(all.contains(word), "`catalog` lists `{word}`:\n{all}");
    }
    let o = subdual(["catalog", "weapons"]);
    assert_success(&o);
    let weapons = stdout(&o);
    assert!(
        weapons.contains("long sword") && weapons.contains("club"),
        "{weapons}"
    );
    assert!(!weapons.contains("nightmare"), "only weapons:\n{weapons}");
    let o = subdual(["catalog", "monsters"]);
    assert_success(&o);
    let monsters = stdout(&o);
    assert!(
        monsters.contains("ogre") && monsters.contains("nightmare"),
        "{monsters}"
    );
    assert!(
        !monsters.contains("two-handed sword"),
        "only monsters:\n{monsters}"
    );
    for part in ["races", "classes"] {
        let o = subdual(["catalog", part]);
        assert_success(&o);
        assert!(!o.stdout.is_empty());
    }
}

#[test]
fn catalog_of_an_unknown_part_is_rejected() {
    let o = subdual(["catalog", "nonsense"]);
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
    assert!(o.stdout.is_empty(), "{}", describe(&o));
    assert!(stderr(&o).contains("nonsense"), "{}", describe(&o));
}

// A float sweep range prints its values as a person writes them (1.7, not 1.7000000000000002), in the CSV
// files and in the terminal table.
#[test]
fn float_sweep_range_values_print_as_written() {
    let scratch = Scratch::new("float_sweep_range_values");
    let text = format!(
        "{MUG_BASE}\n[sweep]\n\"rules.mug_max_height_ratio\" = {{ from = 1.0, to = 2.0, step = 0.1 }}\n"
    );
    let file = scratch.write("ratio.toml", text);
    let out = scratch.out();
    assert_success(&run_quiet(&file, &out, &["--trials", "1000"]));
    let summary = Csv::read(&out.join("ratio/summary.csv"));
    let col = summary.col("rules.mug_max_height_ratio");
    let mut values: Vec<&str> = summary.rows.iter().map(|r| r[col].as_str()).collect();
    values.dedup();
    assert_eq!(
        values,
        [
            "1", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "2"
        ]
    );
}

#[test]
fn a_reader_that_stops_reading_ends_the_program_quietly_with_success() {
    // `subdual schema | head -1`: standard output is a pipe whose reader is gone. The read end is closed
    // before the program starts, so its first write fails, wherever that write is.
    let bin = env!("CARGO_BIN_EXE_subdual");
    let closed = |args: &[&str]| {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let o = std::process::Command::new(bin)
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .output()
            .expect("the binary runs");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            o.status.success() && stderr.is_empty(),
            "{args:?} with a closed standard output: {:?}\n{stderr}",
            o.status
        );
    };
    let listed = std::process::Command::new(bin)
        .arg("reference")
        .output()
        .expect("the binary runs");
    let parts = String::from_utf8_lossy(&listed.stdout).into_owned();
    let part = parts
        .split_whitespace()
        .next()
        .expect("`reference` lists its parts");
    for args in [
        &["schema"][..],
        &["catalog"],
        &["catalog", "weapons"],
        &["reference"],
        &["reference", part],
        &["check", "scenarios/mugging-level-gap.toml"],
    ] {
        closed(args);
    }
}
