//! A study split into shards and merged, through the real binary: the merge writes exactly what one run
//! writes, whatever the split, the shards' thread counts and the order of the parts; every part that does
//! not belong is refused, naming its file (docs/scenarios.md "Shards").

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{
    Scratch, assert_success, describe, repo, resealed, run_quiet, stderr, stdout, subdual,
};

/// The files of a study folder but `run.json` and `report.html` (which describe the run), by name.
fn results(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.is_file())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&p).unwrap();
            (name, bytes)
        })
        .filter(|(n, _)| n != "run.json" && n != "report.html")
        .collect();
    files.sort();
    files
}

fn assert_same_study(single: &Path, merged: &Path, what: &str) {
    let (a, b) = (results(single), results(merged));
    let names = |f: &[(String, Vec<u8>)]| f.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&a), names(&b), "{what}: the same files");
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        assert!(x == y, "{what}: {name} differs from the single run's");
    }
    assert!(a.iter().any(|(n, _)| n == "summary.csv"));
    // The report too, but for its block of run-dependent facts (command, threads, times, shards).
    let report = |dir: &Path| {
        let text = std::fs::read_to_string(dir.join("report.html")).expect("a report");
        let begin = subdual::export::report::RUN_BEGIN;
        let end = subdual::export::report::RUN_END;
        let (head, rest) = text.split_once(begin).expect("a run block");
        let (_, tail) = rest.split_once(end).expect("its end");
        format!("{head}{tail}")
    };
    assert!(
        report(single) == report(merged),
        "{what}: report.html differs beyond the run's facts"
    );
}

/// A deterministic shuffle (no dependency on a random crate): the order of `0..n` under a stride.
fn shuffled(n: u64, salt: u64) -> Vec<u64> {
    let mut v: Vec<u64> = (0..n).collect();
    v.sort_by_key(|i| (i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ salt).rotate_left(17));
    v
}

fn shard(file: &Path, out: &Path, i: u64, n: u64, extra: &[&str]) -> Output {
    let spec = format!("{i}/{n}");
    let mut args = vec!["--shard", spec.as_str()];
    args.extend_from_slice(extra);
    run_quiet(file, out, &args)
}

fn merge(args: &[&Path]) -> Output {
    let mut all: Vec<&Path> = vec![Path::new("merge"), Path::new("--quiet")];
    all.extend_from_slice(args);
    subdual(all)
}

fn items(file: &Path, out: &Path, trials: &str) -> u64 {
    // Shard 0 of 1 reports its items.
    let o = subdual([
        Path::new("run"),
        file,
        Path::new("--out"),
        out,
        Path::new("--trials"),
        Path::new(trials),
        Path::new("--shard"),
        Path::new("0/1"),
    ]);
    assert_success(&o);
    let text = stdout(&o);
    let of = text
        .split(" of ")
        .nth(2)
        .unwrap_or_else(|| panic!("{text}"));
    of.split(')').next().unwrap().trim().parse().unwrap()
}

fn splits_merge_into_the_single_run(name: &str, trials: &str, extra_splits: &[u64]) {
    let scratch = Scratch::new(&format!("shards_{name}"));
    let file = repo().join("scenarios").join(format!("{name}.toml"));
    let single = scratch.path.join("single");
    assert_success(&run_quiet(&file, &single, &["--trials", trials]));
    let items = items(&file, &scratch.path.join("count"), trials);
    let mut splits = vec![1, 2, 3, 7];
    splits.extend(extra_splits.iter().map(|k| match k {
        0 => items,
        k => items + k,
    }));
    for n in splits {
        let out = scratch.path.join(format!("n{n}"));
        for (k, i) in shuffled(n, n).into_iter().enumerate() {
            let threads = (1 + k % 3).to_string();
            let o = shard(
                &file,
                &out,
                i,
                n,
                &["--trials", trials, "--threads", &threads],
            );
            assert_success(&o);
        }
        let parts = out.join(name).join("parts");
        let mut listed: Vec<PathBuf> = std::fs::read_dir(&parts)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(listed.len() as u64, n, "one part per shard");
        // Parts named one by one, in another order than the shards ran.
        listed.sort_by_key(|p| std::cmp::Reverse(p.clone()));
        let mut args: Vec<&Path> = listed.iter().map(PathBuf::as_path).collect();
        let out_flag = out.join("listed");
        args.extend([Path::new("--out"), out_flag.as_path()]);
        assert_success(&merge(&args));
        assert_same_study(
            &single.join(name),
            &out_flag.join(name),
            &format!("{n} shards, listed"),
        );
        // The folder of parts, written beside them, keeps the parts.
        assert_success(&merge(&[&parts]));
        assert_same_study(&single.join(name), &out.join(name), &format!("{n} shards"));
        assert_eq!(std::fs::read_dir(&parts).unwrap().count() as u64, n);
    }
}

#[test]
fn any_split_of_a_sweep_merges_into_the_single_run() {
    // Two blocks a point, 20 points: items = 40. Splits 1, 2, 3, 7 and items (one item a shard).
    splits_merge_into_the_single_run("mugging-level-gap", "70000", &[0]);
}

#[test]
fn a_split_into_more_shards_than_work_items_is_refused_before_it_runs() {
    let scratch = Scratch::new("shards_beyond");
    let file = repo().join("scenarios/mugging-level-gap.toml");
    // 40 work items at 70,000 trials: 40 shards run, 41 are refused (a shard would run nothing).
    assert_success(&shard(
        &file,
        &scratch.out(),
        39,
        40,
        &["--trials", "70000"],
    ));
    let o = shard(&file, &scratch.out(), 0, 41, &["--trials", "70000"]);
    assert_refused(&o, &["--shard 0/41", "40 work items", "at most 40 shards"]);
    let parts = scratch.out().join("mugging-level-gap/parts");
    assert!(!parts.join("part-0-of-41.json").exists(), "nothing written");
}

/// `text` with the number that follows the first `key` (a JSON key with its colon, or a longer prefix)
/// replaced by `value`.
fn with_number(text: &str, key: &str, value: &str) -> String {
    let at = text
        .find(key)
        .unwrap_or_else(|| panic!("{key} in the part"))
        + key.len();
    let end = at
        + text[at..]
            .find(|c: char| !(c.is_ascii_digit() || c == '-'))
            .unwrap();
    format!("{}{value}{}", &text[..at], &text[end..])
}

#[test]
fn parts_edited_and_sealed_again_are_refused_naming_what_is_wrong() {
    // Each edit panicked merge, asked for petabytes, or was merged with exit 0 before parts were checked
    // against what their header implies.
    let scratch = Scratch::new("shards_tampered");
    let file = repo().join("scenarios/mugging-level-gap.toml");
    // Three shards of 40 items: the second part's first group (6) is shared with the first part.
    for i in 0..3 {
        assert_success(&shard(&file, &scratch.out(), i, 3, &["--trials", "70000"]));
    }
    let parts = scratch.out().join("mugging-level-gap/parts");
    let first = parts.join("part-0-of-3.json");
    let second = std::fs::read(parts.join("part-1-of-3.json")).unwrap();
    let third = parts.join("part-2-of-3.json");
    let after = |t: &str, key: &str| t.find(key).unwrap() + key.len();
    type Edit = Box<dyn Fn(&str) -> String>;
    let cases: Vec<(&str, Edit, &str)> = vec![
        (
            "a group beyond the study's",
            Box::new(|t| with_number(t, "\"partials\":[{\"group\":", "99999999")),
            "where its items hold group",
        ),
        (
            "a counter above the trials (a probability of 10)",
            Box::new(|t| with_number(t, "\"counts\":[", "30000")),
            "a counter of 30000",
        ),
        (
            "a counter at the edge of u64",
            Box::new(|t| with_number(t, "\"counts\":[", "18446744073709551615")),
            "a counter of 18446744073709551615",
        ),
        (
            "a histogram far from the other part's",
            Box::new(|t| with_number(t, "\"hists\":[{\"min\":", "-4611686018427387904")),
            "together span more than",
        ),
        (
            "a histogram at the end of i64",
            Box::new(|t| with_number(t, "\"hists\":[{\"min\":", "9223372036854775800")),
            "pass the largest whole number",
        ),
        (
            "a shard with no tallies",
            Box::new(move |t| format!("{}[]}}", &t[..after(t, "\"partials\":")])),
            "groups of tallies where its items hold",
        ),
        (
            "more trials than its blocks hold",
            Box::new(|t| with_number(t, "\"tallies\":[{\"trials\":", "5000")),
            "a tally of 5000 trials",
        ),
    ];
    for (what, edit, words) in cases {
        let edited = scratch.write("edited/part-1-of-3.json", resealed(&second, edit));
        let o = merge(&[
            &first,
            &edited,
            &third,
            Path::new("--out"),
            &scratch.path.join("m"),
        ]);
        assert_refused(&o, &["edited/part-1-of-3.json", words]);
        assert!(
            !scratch.path.join("m/mugging-level-gap").exists(),
            "{what}: nothing written"
        );
        // `--check` reads parts the same way and, with every shard there, adds them up: it does not call
        // parts that will not merge complete.
        let o = subdual([
            Path::new("merge"),
            Path::new("--check"),
            &first,
            &edited,
            &third,
        ]);
        assert_refused(&o, &["edited/part-1-of-3.json"]);
    }
    // Joint sums at the edge of i128 in two parts of one group: their sum would wrap.
    let edge = |t: &str| {
        let mut t = t.to_string();
        let mut from = 0;
        while let Some(at) = t[from..].find("\"product\":") {
            let head = from + at;
            t = format!(
                "{}{}",
                &t[..head],
                with_number(
                    &t[head..],
                    "\"product\":",
                    "170141183460469231731687303715884105727"
                )
            );
            from = head + 1;
        }
        t
    };
    let a = scratch.write(
        "both/part-0-of-3.json",
        resealed(&std::fs::read(&first).unwrap(), edge),
    );
    let b = scratch.write("both/part-1-of-3.json", resealed(&second, edge));
    assert_refused(&merge(&[&a, &b, &third]), &["pass the largest number"]);
}

#[cfg(unix)]
#[test]
fn merge_reads_only_regular_files_of_bounded_size() {
    use std::time::{Duration, Instant};
    // Each of these read 4 GiB, blocked for ever, or was followed to a device.
    let scratch = Scratch::new("shards_unreadable");
    let fifo = scratch.path.join("fifo/part-0-of-1.json");
    std::fs::create_dir_all(fifo.parent().unwrap()).unwrap();
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let link = scratch.path.join("link/part-0-of-1.json");
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    // A sparse file one byte past the cap: refused by its size, not read.
    let big = scratch.path.join("big/part-0-of-1.json");
    std::fs::create_dir_all(big.parent().unwrap()).unwrap();
    std::fs::File::create(&big)
        .unwrap()
        .set_len(subdual::run::shards::MAX_PART_BYTES + 1)
        .unwrap();
    for (path, words) in [
        (Path::new("/dev/zero"), "not a regular file"),
        (fifo.parent().unwrap(), "not a regular file"),
        (link.as_path(), "not a regular file"),
        (big.as_path(), "larger than 1024 MiB"),
    ] {
        let started = Instant::now();
        let mut child = Command::new(common::BIN)
            .args([Path::new("merge"), Path::new("--check"), path])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > Duration::from_secs(60) {
                child.kill().unwrap();
                panic!("{}: merge --check did not return", path.display());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let o = child.wait_with_output().unwrap();
        assert_refused(&o, &[words]);
    }
}

#[test]
fn a_study_with_tunes_and_differences_merges_into_the_single_run() {
    // Three variants (differences), a tune matched to a variant (its candidates paired), three charts.
    splits_merge_into_the_single_run("sap-or-mug-the-sentry", "140000", &[]);
}

/// Runs shards `which` of `n` of the mugging study into `out`; the parts folder.
fn some_shards(file: &Path, out: &Path, which: &[u64], n: u64, extra: &[&str]) -> PathBuf {
    for &i in which {
        let mut args = vec!["--trials", "3000"];
        args.extend_from_slice(extra);
        assert_success(&shard(file, out, i, n, &args));
    }
    out.join("mugging-level-gap").join("parts")
}

fn assert_refused(o: &Output, words: &[&str]) {
    assert_eq!(o.status.code(), Some(2), "{}", describe(o));
    assert!(!stderr(o).contains("panicked"), "{}", describe(o));
    for w in words {
        assert!(stderr(o).contains(w), "missing `{w}`: {}", describe(o));
    }
}

#[test]
fn merge_check_names_the_missing_shards_as_an_array() {
    let scratch = Scratch::new("shards_missing");
    let file = repo().join("scenarios/mugging-level-gap.toml");
    let parts = some_shards(&file, &scratch.out(), &[0, 2, 3, 6], 8, &[]);
    let o = subdual([Path::new("merge"), Path::new("--check"), parts.as_path()]);
    assert_eq!(o.status.code(), Some(3), "{}", describe(&o));
    assert_eq!(stdout(&o).trim(), "1,4-5,7");
    // Without --check the gap is refused, and nothing is written.
    let o = merge(&[&parts]);
    assert_refused(&o, &["1,4-5,7", "missing"]);
    assert!(!scratch.out().join("mugging-level-gap/summary.csv").exists());
    // Filled, the check passes.
    some_shards(&file, &scratch.out(), &[1, 4, 5, 7], 8, &[]);
    let o = subdual([Path::new("merge"), Path::new("--check"), parts.as_path()]);
    assert_success(&o);
}

#[test]
fn parts_that_do_not_belong_are_refused_naming_the_file() {
    let scratch = Scratch::new("shards_refused");
    let file = repo().join("scenarios/mugging-level-gap.toml");
    let a = some_shards(&file, &scratch.path.join("a"), &[0, 1], 2, &[]);
    let part = |dir: &Path, i: u64, n: u64| dir.join(format!("part-{i}-of-{n}.json"));
    // Another seed: another study.
    let b = some_shards(&file, &scratch.path.join("b"), &[1], 2, &["--seed", "9"]);
    assert_refused(
        &merge(&[&part(&a, 0, 2), &part(&b, 1, 2)]),
        &["part-1-of-2.json", "the seed"],
    );
    // Another number of shards.
    let c = some_shards(&file, &scratch.path.join("c"), &[1], 3, &[]);
    assert_refused(
        &merge(&[&part(&a, 0, 2), &part(&c, 1, 3)]),
        &["part-1-of-3.json", "the number of shards"],
    );
    // The same shard twice: accepted when identical, refused when not.
    let copy = scratch.write(
        "copy/part-0-of-2.json",
        std::fs::read(part(&a, 0, 2)).unwrap(),
    );
    assert_success(&merge(&[
        &part(&a, 0, 2),
        &copy,
        &part(&a, 1, 2),
        Path::new("--out"),
        &scratch.path.join("m"),
    ]));
    let again = some_shards(&file, &scratch.path.join("d"), &[0], 2, &["--threads", "2"]);
    assert_refused(
        &merge(&[&part(&a, 0, 2), &part(&again, 0, 2), &part(&a, 1, 2)]),
        &["part-0-of-2.json", "overlaps"],
    );
    // A flipped digit.
    let text = std::fs::read_to_string(part(&a, 1, 2)).unwrap();
    let at = text.find("\"counts\":[").unwrap() + 10;
    let mut bytes = text.into_bytes();
    bytes[at] = if bytes[at] == b'1' { b'2' } else { b'1' };
    let corrupt = scratch.write("corrupt/part-1-of-2.json", bytes);
    assert_refused(
        &merge(&[&part(&a, 0, 2), &corrupt]),
        &["corrupt/part-1-of-2.json", "checksum"],
    );
    // Cut short.
    let bytes = std::fs::read(part(&a, 1, 2)).unwrap();
    let cut = scratch.write("cut/part-1-of-2.json", &bytes[..bytes.len() / 3]);
    assert_refused(&merge(&[&part(&a, 0, 2), &cut]), &["cut/part-1-of-2.json"]);
    // Another version of subdual (sealed as that version would seal it).
    let mut other = subdual::study::shard::decode(&std::fs::read(part(&a, 1, 2)).unwrap()).unwrap();
    other.header.version = "0.0.1".into();
    other.header.study_id = other.header.identity();
    let old = scratch.write(
        "old/part-1-of-2.json",
        subdual::study::shard::encode(&other).unwrap(),
    );
    assert_refused(
        &merge(&[&part(&a, 0, 2), &old]),
        &["old/part-1-of-2.json", "the version"],
    );
    let mut first = subdual::study::shard::decode(&std::fs::read(part(&a, 0, 2)).unwrap()).unwrap();
    first.header.version = "0.0.1".into();
    first.header.study_id = first.header.identity();
    let old0 = scratch.write(
        "old/part-0-of-2.json",
        subdual::study::shard::encode(&first).unwrap(),
    );
    assert_refused(&merge(&[&old0, &old]), &["subdual 0.0.1"]);
    // Not a part at all; a folder without parts.
    let junk = scratch.write("junk/part-0-of-2.json", "hello");
    assert_refused(
        &merge(&[&junk]),
        &["junk/part-0-of-2.json", "not a subdual part"],
    );
    let empty = scratch.path.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    assert_refused(&merge(&[&empty]), &["no part files"]);
}

#[test]
fn a_finished_shard_is_not_run_again_and_bad_specs_are_refused() {
    let scratch = Scratch::new("shards_again");
    let file = repo().join("scenarios/mugging-level-gap.toml");
    let parts = some_shards(&file, &scratch.out(), &[1], 4, &[]);
    let path = parts.join("part-1-of-4.json");
    let before = std::fs::read(&path).unwrap();
    let o = subdual([
        Path::new("run"),
        file.as_path(),
        Path::new("--out"),
        scratch.out().as_path(),
        Path::new("--trials"),
        Path::new("3000"),
        Path::new("--shard"),
        Path::new("1/4"),
    ]);
    assert_success(&o);
    assert!(stdout(&o).contains("already done"), "{}", describe(&o));
    assert_eq!(std::fs::read(&path).unwrap(), before, "left as it was");
    // Another trial count is another study: run, not skipped.
    let o = shard(&file, &scratch.out(), 1, 4, &["--trials", "4000"]);
    assert_success(&o);
    assert_ne!(std::fs::read(&path).unwrap(), before);
    for spec in ["4/4", "1/0", "x/4", "1", "1/4/5", "auto/x"] {
        let o = run_quiet(&file, &scratch.out(), &["--shard", spec]);
        assert_refused(&o, &["--shard"]);
    }
    let o = run_quiet(
        &file,
        &scratch.out(),
        &["--shard", "0/2", "--target-error", "0.01"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
}

#[test]
fn auto_takes_the_shard_from_the_scheduler() {
    let scratch = Scratch::new("shards_auto");
    let file = repo().join("scenarios/mugging-level-gap.toml");
    let out = scratch.out();
    let run = |var: &str, value: &str| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_subdual"));
        c.args([
            "run", "--quiet", "--trials", "3000", "--shard", "auto/3", "--out",
        ])
        .arg(&out)
        .arg(&file);
        for v in ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "SGE_TASK_ID"] {
            c.env_remove(v);
        }
        if !var.is_empty() {
            c.env(var, value);
        }
        c.output().expect("subdual runs")
    };
    assert_success(&run("SLURM_ARRAY_TASK_ID", "0"));
    assert_success(&run("JOB_COMPLETION_INDEX", "1"));
    assert_success(&run("SGE_TASK_ID", "3"));
    let parts = out.join("mugging-level-gap/parts");
    let mut names: Vec<String> = std::fs::read_dir(&parts)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["part-0-of-3.json", "part-1-of-3.json", "part-2-of-3.json"]
    );
    assert_refused(&run("", ""), &["SLURM_ARRAY_TASK_ID"]);
    assert_refused(&run("SLURM_ARRAY_TASK_ID", "3"), &["beyond the last"]);
}

#[cfg(unix)]
#[test]
fn a_check_of_a_trillion_shards_lists_them_as_ranges_in_bounded_memory() {
    // One valid part of a study split into 10^12 shards: `merge --check` names the other 999,999,999,999 as
    // one range, in a process held to 1 GiB of address space (one shard at a time would need terabytes).
    // The study has that many work items: 59,901 points of 2^24 blocks each (2^40 trials a point); the
    // shard runs one block.
    let scratch = Scratch::new("trillion_shards");
    let text = format!(
        "{}\n[sweep]\n\"victim.height_ft\" = {{ from = 1, to = 600, step = 0.01 }}\n",
        common::MUG_BASE.replace("trials = 1000", "trials = 1099511627776")
    );
    let file = scratch.write("mugging.toml", text);
    let out = scratch.out();
    assert_success(&run_quiet(&file, &out, &["--shard", "0/1000000000000"]));
    let parts = out.join("mugging").join("parts");
    let o = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1048576 && exec \"$0\" \"$@\"")
        .arg(common::BIN)
        .args([Path::new("merge"), Path::new("--check"), parts.as_path()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", describe(&o));
    assert_eq!(stdout(&o), "1-999999999999\n", "{}", describe(&o));
    assert!(
        stderr(&o).contains("999999999999 of 1000000000000 shards missing"),
        "{}",
        describe(&o)
    );
}
