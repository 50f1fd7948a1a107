//! What an unlucky user or a hostile file must never achieve, through the real binary: a panic, an
//! overflow that runs the wrong study, a write outside the study folder, a study folder that is neither
//! the old one nor the new one, text that drives the terminal (docs/scenarios.md "Outputs",
//! "Limits").

use crate::common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{MUG_BASE, Scratch, assert_success, describe, read, repo, run_quiet, stderr, subdual};

/// The base mugging at two blocks of trials: two work items, so that it splits into two shards.
fn two_items() -> String {
    MUG_BASE.replace("trials = 1000", "trials = 70000")
}

/// `run` and `check` both refuse the file with exit code 2, a message naming the file and every word of
/// `words`, no panic, no raw escape character, and no output.
fn assert_refused(test: &str, name: &str, contents: &[u8], words: &[&str]) {
    let scratch = Scratch::new(test);
    let file = scratch.write(name, contents);
    let out = scratch.out();
    for o in [
        run_quiet(&file, &out, &["--trials", "1000"]),
        subdual([Path::new("check"), file.as_path()]),
    ] {
        let err = stderr(&o);
        assert_bad_input(&o, words);
        assert!(!err.contains("panicked"), "{}", describe(&o));
        assert!(
            !err.contains('\u{1b}'),
            "a raw escape reached the terminal: {err:?}"
        );
        assert!(o.stdout.is_empty(), "{}", describe(&o));
        assert!(
            !out.exists(),
            "no output for a refused file: {}",
            describe(&o)
        );
    }
}

#[test]
fn stems_that_would_leave_the_output_folder_are_refused() {
    // `...toml` has the stem `..` (the parent of --out), `..toml` the stem `.` (--out itself).
    for (i, name) in ["...toml", "..toml", ".hidden.toml"].iter().enumerate() {
        assert_refused(
            &format!("stems_{i}"),
            name,
            MUG_BASE.as_bytes(),
            &["output folder"],
        );
    }
}

#[test]
fn control_characters_are_refused_and_shown_escaped() {
    // Raw, TOML refuses it; the message quotes the line, escaped.
    let text = format!("title = \"clear \u{1b}[2J\"\n{MUG_BASE}");
    assert_refused("control_raw", "t.toml", text.as_bytes(), &["\\u{1b}"]);
    // Written as a TOML escape, it is valid TOML but not a scenario's text.
    let text = format!("title = \"clear \\u001b[2J\"\n{MUG_BASE}");
    assert_refused(
        "control_title",
        "t.toml",
        text.as_bytes(),
        &["control character", "\\u{1b}"],
    );
    // In a key, where the message quotes the key back (an unknown key, shown escaped).
    let text = MUG_BASE.replace("level = 9", "\"lev\\u001bel\" = 9");
    assert_refused("control_key", "t.toml", text.as_bytes(), &["lev\\u{1b}el"]);
    // In a sweep path, a key that is read as text.
    let text = format!("{MUG_BASE}\n[sweep]\n\"attacker.\\u0007level\" = [1, 2]\n");
    assert_refused(
        "control_sweep",
        "t.toml",
        text.as_bytes(),
        &["control character"],
    );
}

#[test]
fn names_a_spreadsheet_would_run_are_refused() {
    for (i, name) in ["=HYPERLINK(\\\"http://x\\\")", "+1", "-2", "@SUM(A1)"]
        .iter()
        .enumerate()
    {
        let text = format!("{MUG_BASE}\n[[variant]]\nname = \"{name}\"\n");
        assert_refused(
            &format!("formula_{i}"),
            "f.toml",
            text.as_bytes(),
            &["formula"],
        );
    }
    let text = MUG_BASE.replace("[victim]", "[victim]\nname = \"=cmd\"");
    assert_refused("formula_victim", "f.toml", text.as_bytes(), &["formula"]);
    // A tune's name starts its rows of tune.csv.
    let text = "action = \"sap\"\ntrials = 200\nseed = 11\n\
        [attacker]\nclass = \"fighter\"\nlevel = 3\nstrength = \"17\"\nweapon = \"club\"\n\
        [victim]\nclass = \"fighter\"\nlevel = 1\nhp = 100\nstate = \"asleep\"\n\
        [[tune]]\nname = \"-A1\"\nparameter = \"rules.sap_helpless_ko_cap\"\n\
        range = { from = 20, to = 60, step = 10 }\nmetric = \"p_knockout\"\ntarget = 0.5\n";
    assert_refused(
        "formula_tune",
        "f.toml",
        text.as_bytes(),
        &["tune name `-A1`", "formula"],
    );
    let long = "x".repeat(101);
    let text = format!("{MUG_BASE}\n[[variant]]\nname = \"{long}\"\n");
    assert_refused("long_name", "f.toml", text.as_bytes(), &["longer than 100"]);
}

#[test]
fn counts_that_overflow_64_bits_are_refused_not_wrapped() {
    let wide = format!(
        "{MUG_BASE}\n[sweep]\n\"attacker.level\" = {{ from = {}, to = {} }}\n",
        i64::MIN,
        i64::MAX
    );
    assert_refused("wide_range", "w.toml", wide.as_bytes(), &["at most 100000"]);
    // Four axes of 60,000 values: 1.3e19 points, near 2^64.
    let mut grid = format!("{MUG_BASE}\n[sweep]\n");
    for path in [
        "attacker.level",
        "victim.ac",
        "attacker.dexterity",
        "victim.level",
    ] {
        grid.push_str(&format!("\"{path}\" = {{ from = 1, to = 60000 }}\n"));
    }
    let scratch = Scratch::new("grid_product");
    let file = scratch.write("g.toml", &grid);
    let o = subdual([Path::new("check"), file.as_path()]);
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", describe(&o));
    // The i32 ends pass no range check by overflowing `abs()`.
    let text = format!("{MUG_BASE}\n[rules]\nsap_penalty = {}\n", i32::MIN);
    assert_refused(
        "i32_min",
        "m.toml",
        text.as_bytes(),
        &["sap_penalty", "-20 to 20"],
    );
}

#[test]
fn files_too_large_or_endless_are_refused() {
    let mut big = MUG_BASE.to_string();
    big.push_str(&format!("# {}\n", "x".repeat(2 << 20)));
    assert_refused(
        "big_file",
        "big.toml",
        big.as_bytes(),
        &["larger than 1024 KiB"],
    );
    #[cfg(target_os = "linux")]
    {
        let o = subdual(["check", "/dev/zero"]);
        assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
        assert!(stderr(&o).contains("larger than"), "{}", describe(&o));
    }
}

#[test]
fn chart_files_too_long_for_a_file_system_are_refused_by_check() {
    let name = "c".repeat(300);
    let text = format!(
        "{MUG_BASE}\n[[chart]]\nfile = \"{name}\"\nx = \"level_gap\"\ny = \"p_knockout\"\n"
    );
    assert_refused("long_chart", "c.toml", text.as_bytes(), &["chart file"]);
}

#[test]
fn bad_target_errors_are_refused() {
    let scratch = Scratch::new("bad_target_errors");
    let file = scratch.write("t.toml", MUG_BASE);
    let out = scratch.out();
    for e in ["0", "-0.01", "NaN", "inf", "1e-12"] {
        let o = run_quiet(&file, &out, &[&format!("--target-error={e}")]);
        assert_eq!(
            o.status.code(),
            Some(2),
            "--target-error {e}: {}",
            describe(&o)
        );
        assert!(!out.exists(), "{}", describe(&o));
    }
    // A target no run within --max-trials can reach is refused (a probability needs at least z²/2E
    // trials); one that it could reach but does not is run and reported.
    let o = run_quiet(
        &file,
        &out,
        &["--target-error", "1e-6", "--max-trials", "65536"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
    assert!(stderr(&o).contains("--max-trials"), "{}", describe(&o));
    let o = run_quiet(
        &file,
        &out,
        &["--target-error", "0.02", "--max-trials", "65536"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    assert!(!stderr(&o).contains("stopped"), "{}", describe(&o));
    let o = run_quiet(
        &file,
        &out,
        &["--target-error", "0.001", "--max-trials", "131072"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    assert!(
        stderr(&o).contains("stopped at 131072 trials"),
        "{}",
        describe(&o)
    );
}

/// The bytes of every file in a folder.
fn folder_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .expect("the study folder")
        .map(|e| e.expect("an entry").metadata().expect("its metadata").len())
        .sum()
}

#[test]
fn output_beyond_its_cap_is_refused_before_the_run() {
    let scratch = Scratch::new("output_cap");
    let text = format!(
        "title = \"t\"\n{MUG_BASE}\n[sweep]\n\"attacker.level\" = {{ from = 1, to = 20 }}\n\
         \"victim.hit_dice\" = {{ from = 1, to = 20 }}\n"
    );
    let file = scratch.write("cap.toml", &text);
    let out = scratch.out();
    // `check` tells the projection; a run writes no more than it.
    let o = subdual([Path::new("check"), file.as_path()]);
    assert_success(&o);
    let said = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(said.contains("output:   at most"), "{said}");
    let o = run_quiet(&file, &out, &[]);
    assert_success(&o);
    let written = folder_bytes(&out.join("cap"));
    let o = run_quiet(&file, &out, &["--max-output", "1"]);
    assert!(written < 1 << 20, "the sweep writes {written} bytes");
    // Under a MiB written, but projected above it: the cap is a projection, made before anything runs.
    assert_bad_input(
        &o,
        &[
            "cap.toml",
            "400 points",
            "--max-output 1 MiB",
            "sweep fewer values",
        ],
    );
    assert_eq!(
        folder_bytes(&out.join("cap")),
        written,
        "the old folder stays"
    );
    let o = run_quiet(&file, &out, &["--max-output", "64"]);
    assert_success(&o);
}

/// The memory `check` projects for `file` on `threads` threads, in bytes (as it prints it, rounded up).
fn projected_memory(file: &Path, threads: &str) -> u64 {
    let o = subdual([
        OsStr::new("check"),
        file.as_os_str(),
        OsStr::new("--threads"),
        OsStr::new(threads),
        OsStr::new("--max-memory"),
        OsStr::new("1000000"),
    ]);
    assert_success(&o);
    let text = common::stdout(&o);
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("memory:"))
        .unwrap_or_else(|| panic!("no memory line: {text}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let number: f64 = words[3].parse().unwrap();
    let unit = match words[4] {
        "bytes" => 1.0,
        "KiB" => 1024.0,
        "MiB" => 1024.0 * 1024.0,
        "GiB" => 1024.0 * 1024.0 * 1024.0,
        other => panic!("unit {other}"),
    };
    ((number + 0.05) * unit) as u64
}

/// Runs subdual with `args` and returns its peak resident memory in bytes: the kernel's high-water mark of
/// its memory (`VmHWM`), read every millisecond while it runs. (`wait4`'s `ru_maxrss` would count the
/// test process's own memory, which a spawned child inherits as its starting mark.)
#[cfg(target_os = "linux")]
fn peak_memory(args: &[&OsStr]) -> u64 {
    let mut child = Command::new(common::BIN)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0u64;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_file)
            && let Some(line) = text.lines().find(|l| l.starts_with("VmHWM:"))
        {
            let kib = line.split_whitespace().nth(1).and_then(|n| n.parse().ok());
            peak_kib = peak_kib.max(kib.unwrap_or(0));
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    };
    assert!(status.success(), "{args:?} failed");
    peak_kib * 1024
}

/// The peak memory of a quiet run of `file` into `out` on `threads` threads, with `more` arguments.
#[cfg(target_os = "linux")]
fn peak_of_run(file: &Path, out: &Path, threads: &str, more: &[&str]) -> u64 {
    let mut args = vec![
        OsStr::new("run"),
        file.as_os_str(),
        OsStr::new("--out"),
        out.as_os_str(),
        OsStr::new("--quiet"),
        OsStr::new("--threads"),
        OsStr::new(threads),
    ];
    args.extend(more.iter().map(OsStr::new));
    peak_memory(&args)
}

#[cfg(target_os = "linux")]
#[test]
fn what_check_accepts_runs_within_the_memory_it_projects() {
    // Before the projection, a sweep of big dice took gigabytes nothing had announced.
    let scratch = Scratch::new("memory_within");
    let big_dice = scratch.write(
        "big-dice.toml",
        "action = \"sap\"\ntrials = 2000\nseed = 1\n[attacker]\nclass = \"fighter\"\n\
         weapon = { name = \"maul\", damage = \"100d1000\", damage_large = \"100d1000\" }\n\
         [victim]\nclass = \"fighter\"\nlevel = 1\nhp = \"100d1000\"\n\
         [sweep]\n\"attacker.level\" = { from = 0, to = 20 }\n\"victim.ac\" = { from = -20, to = 20 }\n",
    );
    // A fight of two on two over more points than a study keeps prepared: each holds a fight's plan for
    // every pair of entries, prepared by the work items.
    let gang = scratch.write(
        "gang.toml",
        "action = \"brawl\"\ntrials = 20\nseed = 1\n\
         [[attackers]]\nname = \"a\"\nclass = \"fighter\"\nstrength = \"16\"\n\
         [[attackers]]\nname = \"b\"\nclass = \"fighter\"\nlevel = 3\n\
         [[victims]]\nname = \"c\"\nclass = \"fighter\"\nweapon = \"long sword\"\n\
         [[victims]]\nname = \"d\"\nclass = \"fighter\"\nlevel = 2\n\
         [action_options]\nmax_rounds = 10\n\
         [sweep]\n\"victims.ac\" = { from = -10, to = 17 }\n\"victims.dexterity\" = { from = 1, to = 20 }\n\
         [[variant]]\nname = \"a\"\n[[variant]]\nname = \"b\"\nrules = { pile = \"phb\" }\n",
    );
    // Its own 2,000 trials (at 20,000 its files would pass --max-output); the others at 20,000.
    let mut files = vec![(big_dice, "2000"), (gang, "20")];
    for name in [
        "mugging-level-gap",
        "sap-sentry",
        "thugs-on-a-guard",
        "take-the-sentry-alive",
    ] {
        files.push((
            repo().join("scenarios").join(format!("{name}.toml")),
            "20000",
        ));
    }
    let out = scratch.out();
    for (file, trials) in &files {
        for threads in ["1", "2"] {
            let projected = projected_memory(file, threads);
            let peak = peak_of_run(file, &out, threads, &["--trials", trials]);
            assert!(
                peak <= projected,
                "{}: {peak} bytes at its peak on {threads} threads, projected {projected}",
                file.display()
            );
        }
    }
}

/// A brawl against an armed guard over a sweep of `dexterities` × 20 × 20 points, two variants.
fn brawl_sweep(dexterities: u32) -> String {
    format!(
        "action = \"brawl\"\ntrials = 20\nseed = 5\n\
         [attacker]\nclass = \"fighter\"\nstrength = \"17\"\nac = 7\n\
         [victim]\nclass = \"fighter\"\nstrength = \"15\"\nweapon = \"long sword\"\nac = 5\n\
         [sweep]\n\"attacker.level\" = {{ from = 1, to = 20 }}\n\"victim.level\" = {{ from = 1, to = 20 }}\n\
         \"victim.dexterity\" = {{ from = 1, to = {dexterities} }}\n\
         [[variant]]\nname = \"punch\"\naction_options = {{ style = \"punch\" }}\n\
         [[variant]]\nname = \"wrestle\"\naction_options = {{ style = \"wrestle\" }}\n"
    )
}

#[cfg(target_os = "linux")]
#[test]
fn a_point_of_a_fight_study_holds_less_than_its_prepared_fight() {
    // A prepared fight holds both sides' face tables, some 18 KB; a study held every point prepared, so a
    // study of 100,000 fight points took 1.8 GB before its first trial. Points now wait as recipes, and
    // each work item prepares its own: what a point adds to the peak is its recipe, its tallies and rows.
    let scratch = Scratch::new("memory_per_point");
    let small = scratch.write("small.toml", brawl_sweep(3));
    let big = scratch.write("big.toml", brawl_sweep(15));
    let added = (2 * 20 * 20 * (15 - 3)) as u64;
    for threads in ["1", "2"] {
        let peak = |file: &Path, out: &str| {
            peak_of_run(file, &scratch.out().join(out), threads, &["--no-charts"])
        };
        let (small, big) = (peak(&small, "a"), peak(&big, "b"));
        let per_point = big.saturating_sub(small) / added;
        assert!(
            per_point < 18 << 10,
            "{per_point} bytes a point on {threads} threads ({small} for 2,400 points, {big} for 12,000)"
        );
    }
}

#[test]
fn memory_projected_beyond_max_memory_is_refused_before_the_run() {
    let scratch = Scratch::new("memory_cap");
    let file = repo().join("scenarios/mugging-level-gap.toml");
    let out = scratch.out();
    let projected = projected_memory(&file, "2");
    let below = ((projected >> 20) - 1).to_string();
    for command in ["check", "run"] {
        let o = subdual(
            [
                OsStr::new(command),
                file.as_os_str(),
                OsStr::new("--out"),
                out.as_os_str(),
                OsStr::new("--threads"),
                OsStr::new("2"),
                OsStr::new("--max-memory"),
                OsStr::new(&below),
            ]
            .into_iter()
            .filter(|a| command == "run" || (*a != "--out" && *a != out.as_os_str())),
        );
        assert_bad_input(
            &o,
            &[
                "mugging-level-gap.toml",
                "of memory on 2 threads",
                "--max-memory",
            ],
        );
    }
    assert!(!out.join("mugging-level-gap").exists(), "nothing written");
    let above = ((projected >> 20) + 1).to_string();
    let o = run_quiet(&file, &out, &["--threads", "2", "--max-memory", &above]);
    assert_success(&o);
    // A merge holds what a run holds: refused alike.
    assert_success(&run_quiet(&file, &out, &["--shard", "0/1"]));
    let parts = out.join("mugging-level-gap/parts");
    let o = subdual([
        OsStr::new("merge"),
        parts.as_os_str(),
        OsStr::new("--max-memory"),
        OsStr::new("1"),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
    assert!(stderr(&o).contains("--max-memory"), "{}", describe(&o));
    assert_success(&subdual([OsStr::new("merge"), parts.as_os_str()]));
}

#[test]
fn many_tunes_cannot_multiply_the_candidate_bound() {
    // 300 tunes of 100 values over 20 sweep points would resolve 600,000 candidate points; the bound is over
    // all the tunes together, and the file is refused at once, naming the tune where it is reached.
    let scratch = Scratch::new("many_tunes");
    let mut text = String::from(
        "action = \"sap\"\ntrials = 1000\n[attacker]\nclass = \"fighter\"\nweapon = \"club\"\n\
         [victim]\nclass = \"fighter\"\n[sweep]\n\"attacker.level\" = { from = 1, to = 20 }\n",
    );
    for i in 0..300 {
        text.push_str(&format!(
            "[[tune]]\nname = \"t{i}\"\nparameter = \"rules.sap_ko_cap\"\nrange = {{ from = 1, to = 100 }}\nmetric = \"p_knockout\"\ntarget = 0.5\n"
        ));
    }
    let file = scratch.write("tunes.toml", text);
    let o = subdual([Path::new("check"), file.as_path()]);
    assert_bad_input(
        &o,
        &[
            "tunes.toml:313:9",
            "more than 100000 candidate points",
            "over every tune",
        ],
    );
}

#[test]
fn shipped_studies_write_no_more_than_check_projects() {
    let scratch = Scratch::new("projections");
    let out = scratch.out();
    for name in ["take-the-sentry-alive", "subdue-ogre", "sap-sentry"] {
        let file = repo().join("scenarios").join(format!("{name}.toml"));
        let o = subdual([Path::new("check"), file.as_path()]);
        assert_success(&o);
        let said = String::from_utf8_lossy(&o.stdout).into_owned();
        let projected = said
            .lines()
            .find_map(|l| l.trim().strip_prefix("output:   at most "))
            .and_then(|l| l.strip_suffix(" projected"))
            .unwrap_or_else(|| panic!("no projection in {said}"));
        let (number, unit) = projected.split_once(' ').expect("a number and a unit");
        let scale = match unit {
            "KiB" => 1024.0,
            "MiB" => 1024.0 * 1024.0,
            other => panic!("unexpected unit {other}"),
        };
        let projected = number.parse::<f64>().expect("a number") * scale;
        // The trials only shrink the distributions, so a short run is bounded by the file's projection.
        assert_success(&run_quiet(&file, &out, &["--trials", "5000"]));
        let written = folder_bytes(&out.join(name)) as f64;
        assert!(
            written <= projected,
            "{name}: {written} written > {projected} projected"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_path_that_is_not_utf8_is_an_error_not_a_panic() {
    use std::os::unix::ffi::OsStrExt;
    let name = OsStr::from_bytes(b"/nonexistent/\xff\xfe.toml");
    let o = subdual([OsStr::new("run"), name]);
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", describe(&o));
}

/// The files of a study folder, sorted, with no hidden temporary.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_run_writes_the_folder_afresh() {
    let scratch = Scratch::new("afresh");
    let text = format!("{MUG_BASE}\n[sweep]\n\"attacker.level\" = [3, 9]\n");
    let file = scratch.write("mugging.toml", text);
    let out = scratch.out();
    assert_success(&run_quiet(&file, &out, &[]));
    let dir = out.join("mugging");
    assert!(listing(&dir).iter().any(|n| n.ends_with(".png")));
    // Charts of an earlier run do not stay behind `--no-charts`.
    assert_success(&run_quiet(&file, &out, &["--no-charts"]));
    assert_eq!(
        listing(&dir),
        [
            "distributions.csv",
            "manifest.json",
            "report.html",
            "run.json",
            "summary.csv"
        ]
    );
    // `exact` adds its file to the run's, and leaves the run's report as it was.
    let report = read(&dir.join("report.html"));
    let o = subdual([
        Path::new("exact"),
        file.as_path(),
        Path::new("--out"),
        out.as_path(),
    ]);
    assert_success(&o);
    assert_eq!(
        listing(&dir),
        [
            "distributions.csv",
            "exact-distributions.csv",
            "exact.csv",
            "manifest.json",
            "report.html",
            "run.json",
            "summary.csv"
        ]
    );
    assert_eq!(read(&dir.join("report.html")), report);
    assert_eq!(listing(&out), ["mugging"], "no temporary remains");
}

/// `o` is a refusal of bad input (exit code 2) whose message names every word of `words`.
fn assert_bad_input(o: &std::process::Output, words: &[&str]) {
    assert_eq!(o.status.code(), Some(2), "{}", describe(o));
    for w in words {
        assert!(
            stderr(o).contains(w),
            "the message must mention `{w}`: {}",
            describe(o)
        );
    }
}

/// `args` on `study` in `out` is refused with exit code 2 before anything runs, naming every word of
/// `words`, and leaves `out` as it was.
fn assert_left_alone(args: &[&OsStr], out: &Path, words: &[&str]) {
    let before = tree(out);
    let o = subdual(args);
    assert_bad_input(&o, words);
    assert!(o.stdout.is_empty(), "{}", describe(&o));
    assert_eq!(
        tree(out),
        before,
        "the output folder must be left as it was"
    );
}

/// Every path under `dir` with its bytes (a link as its target), sorted.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(at) = todo.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let bytes = if meta.is_symlink() {
                std::fs::read_link(&path)
                    .unwrap()
                    .into_os_string()
                    .into_encoded_bytes()
            } else if meta.is_dir() {
                todo.push(path.clone());
                Vec::new()
            } else {
                std::fs::read(&path).unwrap()
            };
            found.push((path, bytes));
        }
    }
    found.sort();
    found
}

#[test]
fn a_study_folder_holding_what_subdual_did_not_write_is_refused_before_the_run() {
    let scratch = Scratch::new("foreign");
    let file = scratch.write("mugging.toml", two_items());
    let out = scratch.out();
    let dir = out.join("mugging");
    let (f, o) = (file.as_os_str(), out.as_os_str());
    let run: Vec<&OsStr> = vec!["run".as_ref(), f, "--out".as_ref(), o, "--quiet".as_ref()];
    let exact: Vec<&OsStr> = vec!["exact".as_ref(), f, "--out".as_ref(), o];
    // subdual's own folder is replaced: a run, `exact` added to it, a run again.
    assert_success(&subdual(&run));
    assert_success(&subdual(&exact));
    assert_success(&subdual(&run));
    // A designer's notes in the study folder: every command that writes the folder refuses, names the
    // folder and the file, and says to move it.
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let named = [dir.to_str().unwrap(), "notes.txt", "move"];
    assert_left_alone(&run, &out, &named);
    assert_left_alone(&exact, &out, &named);
    std::fs::remove_file(dir.join("notes.txt")).unwrap();
    // A folder of his own inside it.
    std::fs::create_dir(dir.join("drafts")).unwrap();
    assert_left_alone(&run, &out, &["drafts", "move"]);
    std::fs::remove_dir(dir.join("drafts")).unwrap();
    // A file subdual wrote, edited by hand since (manifest.json lists it with other bytes).
    let summary = dir.join("summary.csv");
    let mut edited = std::fs::read(&summary).unwrap();
    edited.extend_from_slice(b"# checked by hand\n");
    std::fs::write(&summary, &edited).unwrap();
    assert_left_alone(&run, &out, &["summary.csv", "changed", "move"]);
    assert_left_alone(&exact, &out, &["summary.csv", "changed"]);
    // A file subdual wrote and the designer deleted loses nothing: the run goes on.
    std::fs::remove_file(&summary).unwrap();
    assert_success(&subdual(&run));
    // A manifest that is not subdual's does not vouch for anything.
    std::fs::write(
        dir.join("manifest.json"),
        "{\"tool\": \"other\", \"files\": []}",
    )
    .unwrap();
    assert_left_alone(&run, &out, &["manifest.json"]);
    std::fs::remove_dir_all(&dir).unwrap();
    // A regular file named like the study: refused before the run, by a shard too.
    std::fs::write(&dir, "a file of the same name").unwrap();
    assert_left_alone(&run, &out, &[dir.to_str().unwrap(), "is a file"]);
    let mut shard = run.clone();
    shard.extend([OsStr::new("--shard"), OsStr::new("0/2")]);
    assert_left_alone(&shard, &out, &["is a file"]);
    std::fs::remove_file(&dir).unwrap();
    // Shards and their merge: the parts are subdual's; a stranger's file stops the merge, not the parts.
    let mut other = run.clone();
    other.extend([OsStr::new("--shard"), OsStr::new("1/2")]);
    assert_success(&subdual(&shard));
    assert_success(&subdual(&other));
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let parts = dir.join("parts");
    let merge: Vec<&OsStr> = vec!["merge".as_ref(), parts.as_os_str(), "--quiet".as_ref()];
    assert_left_alone(&merge, &out, &["notes.txt", "move"]);
    std::fs::remove_file(dir.join("notes.txt")).unwrap();
    assert_success(&subdual(&merge));
    assert!(dir.join("summary.csv").exists() && parts.join("part-0-of-2.json").exists());
}

#[cfg(unix)]
#[test]
fn planted_links_are_refused_not_followed() {
    let scratch = Scratch::new("links");
    let file = scratch.write("mugging.toml", two_items());
    let out = scratch.out();
    std::fs::create_dir_all(&out).unwrap();
    let precious = scratch.write("precious.txt", "keep");
    // The study folder is a link to a folder elsewhere holding a link to a file: the run refuses it.
    let elsewhere = scratch.path.join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&precious, elsewhere.join("summary.csv")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, out.join("mugging")).unwrap();
    let run = [
        file.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        "--no-charts".as_ref(),
    ];
    let mut args: Vec<&OsStr> = vec!["run".as_ref()];
    args.extend(run);
    assert_left_alone(&args, &out, &["symbolic link", "move"]);
    assert_eq!(read(&precious), "keep");
    assert!(
        std::fs::symlink_metadata(elsewhere.join("summary.csv"))
            .unwrap()
            .is_symlink()
    );
    // Inside a real study folder, a link is not subdual's either.
    std::fs::remove_file(out.join("mugging")).unwrap();
    assert_success(&run_quiet(&file, &out, &["--no-charts"]));
    std::os::unix::fs::symlink(&precious, out.join("mugging").join("extra.csv")).unwrap();
    assert_left_alone(&args, &out, &["extra.csv"]);
    assert_eq!(read(&precious), "keep");
    std::fs::remove_file(out.join("mugging").join("extra.csv")).unwrap();
    // A shard whose parts/ is a link to a folder elsewhere writes nothing there.
    std::os::unix::fs::symlink(&elsewhere, out.join("mugging").join("parts")).unwrap();
    let mut shard = args.clone();
    shard.extend([OsStr::new("--shard"), OsStr::new("0/2")]);
    assert_left_alone(&shard, &out, &["parts", "move"]);
    assert_eq!(listing(&elsewhere), ["summary.csv"]);
    std::fs::remove_file(out.join("mugging").join("parts")).unwrap();
    // `exact` keeps the mode of the run's files it carries over.
    use std::os::unix::fs::PermissionsExt;
    let summary = out.join("mugging").join("summary.csv");
    std::fs::set_permissions(&summary, std::fs::Permissions::from_mode(0o600)).unwrap();
    let o = subdual([
        OsStr::new("exact"),
        file.as_os_str(),
        OsStr::new("--out"),
        out.as_os_str(),
    ]);
    assert_success(&o);
    let mode = std::fs::metadata(&summary).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "exact must keep a file's mode");
}

/// A study long enough to be killed part-way: the shipped sap study at many trials.
fn slow_study(scratch: &Scratch) -> PathBuf {
    let text = std::fs::read_to_string(repo().join("scenarios/sap-sentry.toml")).unwrap();
    scratch.write("sap-sentry.toml", text)
}

/// The seed a study folder's manifest names.
fn manifest_seed(dir: &Path) -> String {
    let manifest = read(&dir.join("manifest.json"));
    let at = manifest.find("\"seed\": ").expect("a seed in the manifest") + 8;
    manifest[at..].split(',').next().unwrap().trim().to_string()
}

#[test]
fn a_killed_run_leaves_the_old_folder_or_the_new_one() {
    let scratch = Scratch::new("killed");
    let file = slow_study(&scratch);
    let out = scratch.out();
    let args = |seed: &str| {
        vec![
            "run".to_string(),
            file.display().to_string(),
            "--out".into(),
            out.display().to_string(),
            "--quiet".into(),
            "--trials".into(),
            "50000".into(),
            "--seed".into(),
            seed.into(),
        ]
    };
    assert_success(&subdual(args("1")));
    let dir = out.join("sap-sentry");
    let whole = listing(&dir);
    let first = read(&dir.join("summary.csv"));
    let reference = Scratch::new("killed_reference");
    assert_success(&subdual({
        let mut a = args("2");
        a[3] = reference.out().display().to_string();
        a
    }));
    let second = read(&reference.out().join("sap-sentry/summary.csv"));
    // Kill runs of seed 2 at moments spread over their life (which writing spans is up to the machine).
    for kill in 0..12 {
        let delay_ms = kill * 50;
        let mut child = Command::new(common::BIN)
            .args(args("2"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        // Whole: the files of a run, and the summary of the run its manifest names.
        assert_eq!(listing(&dir), whole, "after a kill at {delay_ms} ms");
        let summary = read(&dir.join("summary.csv"));
        match manifest_seed(&dir).as_str() {
            "1" => assert_eq!(summary, first, "after a kill at {delay_ms} ms"),
            "2" => assert_eq!(summary, second, "after a kill at {delay_ms} ms"),
            other => panic!("seed {other} after a kill at {delay_ms} ms"),
        }
    }
    // The next whole run removes what killed runs left behind.
    assert_success(&subdual(args("1")));
    assert_eq!(listing(&out), ["sap-sentry"], "stale temporaries removed");
    assert_eq!(read(&dir.join("summary.csv")), first);
}

#[test]
fn concurrent_runs_of_one_study_never_mix() {
    let scratch = Scratch::new("concurrent");
    let file = slow_study(&scratch);
    let out = scratch.out();
    let spawn = |seed: &str| {
        Command::new(common::BIN)
            .args([
                "run",
                &file.display().to_string(),
                "--out",
                &out.display().to_string(),
            ])
            .args([
                "--quiet",
                "--trials",
                "20000",
                "--threads",
                "1",
                "--seed",
                seed,
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    for _ in 0..3 {
        let runs = [spawn("1"), spawn("2"), spawn("3")];
        for run in runs {
            let o = run.wait_with_output().unwrap();
            assert_success(&o);
        }
        let dir = out.join("sap-sentry");
        let seed = manifest_seed(&dir);
        let seed = seed.as_str();
        // The summary is the one of the manifest's seed: a lone run of that seed writes the same bytes.
        let lone = Scratch::new(&format!("concurrent_lone_{seed}"));
        let o = Command::new(common::BIN)
            .args([
                "run",
                &file.display().to_string(),
                "--out",
                &lone.out().display().to_string(),
            ])
            .args(["--quiet", "--trials", "20000", "--seed", seed])
            .output()
            .unwrap();
        assert_success(&o);
        for f in ["summary.csv", "distributions.csv"] {
            assert_eq!(
                read(&dir.join(f)),
                read(&lone.out().join("sap-sentry").join(f)),
                "{f} of seed {seed}"
            );
        }
        assert_eq!(listing(&out), ["sap-sentry"]);
    }
}

/// Asserts that `dir` holds one whole run, of seed `seed`: every file its manifest lists, with the bytes
/// it lists, its run.json naming the same seed, and nothing else but what `exact` adds (`with_exact`
/// says whether its files must be there).
fn assert_one_whole_run(dir: &Path, seed: u64, with_exact: Option<bool>, what: &str) {
    let manifest: serde_json::Value =
        serde_json::from_str(&read(&dir.join("manifest.json"))).expect("a manifest");
    assert_eq!(manifest["seed"], seed, "{what}: the newest run's seed");
    let mut expected = vec![
        "manifest.json".to_string(),
        "run.json".into(),
        "report.html".into(),
    ];
    for file in manifest["files"].as_array().expect("listed files") {
        let name = file["name"].as_str().unwrap();
        let bytes = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{what}: {name}: {e}"));
        assert_eq!(
            subdual::digest::sha256_hex(&bytes),
            file["sha256"].as_str().unwrap(),
            "{what}: {name} is the manifest's"
        );
        expected.push(name.to_string());
    }
    let run: serde_json::Value = serde_json::from_str(&read(&dir.join("run.json"))).unwrap();
    let command = run["command"].as_str().unwrap();
    assert!(
        command.ends_with(&format!("--seed {seed}")),
        "{what}: run.json of another run: {command}"
    );
    let exact: Vec<String> = subdual::export::EXACT_FILES
        .iter()
        .map(|f| f.to_string())
        .filter(|f| dir.join(f).exists())
        .collect();
    match with_exact {
        Some(true) => assert!(!exact.is_empty(), "{what}: exact's files"),
        Some(false) => assert!(exact.is_empty(), "{what}: no exact files"),
        None => {}
    }
    expected.extend(exact);
    expected.sort();
    assert_eq!(listing(dir), expected, "{what}: nothing else");
}

#[test]
fn sixty_concurrent_pairs_leave_one_whole_run_the_newest() {
    // run against run, and run against exact, on one study, 60 pairs each. Before exact copied the files
    // it keeps under the lock, it could put an older run's files back over a newer run's (seen here in
    // 10 of 30 pairs: the folder kept the seed of a run two pairs earlier).
    let scratch = Scratch::new("concurrent_pairs");
    let file = scratch.write(
        "mugging.toml",
        MUG_BASE.replace("trials = 1000", "trials = 20000"),
    );
    let out = scratch.out();
    let dir = out.join("mugging");
    let command = |verb: &str, seed: Option<u64>| {
        let mut c = Command::new(common::BIN);
        c.args([
            OsStr::new(verb),
            file.as_os_str(),
            OsStr::new("--out"),
            out.as_os_str(),
        ]);
        if let Some(seed) = seed {
            c.args(["--quiet", "--no-charts", "--threads", "1", "--seed"]);
            c.arg(seed.to_string());
        }
        c.stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let finish = |child: std::process::Child| assert_success(&child.wait_with_output().unwrap());
    for pair in 0..60u64 {
        let (a, b) = (2 * pair + 1, 2 * pair + 2);
        if pair % 2 == 0 {
            // Half the pairs race to create the output folder and the study folder from nothing.
            let _ = std::fs::remove_dir_all(&out);
        }
        let (first, second) = (command("run", Some(a)), command("run", Some(b)));
        finish(first);
        finish(second);
        let seed = if read(&dir.join("run.json")).contains(&format!("--seed {a}\"")) {
            a
        } else {
            b
        };
        assert_one_whole_run(&dir, seed, Some(false), &format!("run/run pair {pair}"));
        assert_eq!(listing(&out), ["mugging"], "no temporaries left");
    }
    for pair in 0..60u64 {
        let seed = 1000 + pair;
        let (run, exact) = (command("run", Some(seed)), command("exact", None));
        finish(run);
        finish(exact);
        // Whichever finished last, the run is this pair's: exact adds to the newest run, never an older.
        assert_one_whole_run(&dir, seed, None, &format!("run/exact pair {pair}"));
        assert_eq!(listing(&out), ["mugging"], "no temporaries left");
    }
}

#[cfg(unix)]
#[test]
fn names_from_folders_and_parts_reach_the_terminal_escaped() {
    // A folder whose name holds an escape (ESC [31m) and a C1 control (CSI, U+009B): the scenario's path,
    // the output folder, the parts and the part's scenario name all carry it to what the commands print.
    let scratch = Scratch::new("escapes");
    let odd = "a\u{1b}[31mb\u{9b}c";
    let file = scratch.write(&format!("{odd}/mugging.toml"), two_items());
    let out = scratch.path.join(format!("out-{odd}"));
    let parts = out.join("mugging").join("parts");
    let (f, o, p) = (file.as_os_str(), out.as_os_str(), parts.as_os_str());
    let s = OsStr::new;
    let commands: [(Vec<&OsStr>, Option<i32>); 8] = [
        (vec![s("check"), f], Some(0)),
        (
            vec![s("run"), f, s("--out"), o, s("--shard"), s("0/2")],
            Some(0),
        ),
        (vec![s("merge"), s("--check"), p], Some(3)),
        (
            vec![s("run"), f, s("--out"), o, s("--shard"), s("1/2")],
            Some(0),
        ),
        (vec![s("merge"), s("--check"), p], Some(0)),
        (vec![s("merge"), p], Some(0)),
        (vec![s("exact"), f, s("--out"), o], Some(0)),
        (vec![s("run"), f, s("--out"), o, s("--no-charts")], Some(0)),
    ];
    let raw = |text: &str| text.contains('\u{1b}') || text.contains('\u{9b}');
    let mut shown = String::new();
    for (args, code) in &commands {
        let run = subdual(args);
        assert_eq!(run.status.code(), *code, "{}", describe(&run));
        let (printed, said) = (common::stdout(&run), stderr(&run));
        assert!(
            !raw(&printed) && !raw(&said),
            "a raw control reached the terminal: {}",
            describe(&run)
        );
        shown.push_str(&printed);
        shown.push_str(&said);
    }
    assert!(
        shown.contains("a\\u{1b}[31mb\\u{9b}c"),
        "the names are shown escaped: {shown}"
    );
    // An error naming the folder: a stranger's file in the study folder.
    std::fs::write(out.join("mugging").join("notes.txt"), "mine").unwrap();
    let refused = subdual([s("run"), f, s("--out"), o]);
    assert_eq!(refused.status.code(), Some(2), "{}", describe(&refused));
    assert!(!raw(&stderr(&refused)), "{}", describe(&refused));
    assert!(
        stderr(&refused).contains("out-a\\u{1b}[31mb\\u{9b}c"),
        "{}",
        describe(&refused)
    );
}
