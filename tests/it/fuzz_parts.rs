//! Fuzz-style tests of `merge`'s reading of part files (docs/scenarios.md "Shards"): a part is input from
//! outside, and its checksum is a plain SHA-256 that anyone editing the part computes again. Every case
//! below edits one part of a valid three-shard study and seals it again, then reads the parts as `merge`
//! and `merge --check` do (`Parts::read`), adds them up (`shard::merge`) and summarizes them.
//!
//! The classes replayed: every number of the part's tallies set to the edges of its type and past them
//! (0, 1, the block size, 2^20 and 2^20 + 1 bins, 2^63, u64::MAX, i64::MIN, i128's edges, 10^40); groups,
//! blocks and items out of range; partials dropped, repeated and swapped; tallies dropped, added, emptied
//! and swapped for an ineligible point's; joint tallies with comparisons missing or added; histograms grown
//! past their bound. Links, devices, FIFOs and sizes are the binary's (`shards::merge_reads_only_...`).
//!
//! Whatever the edit: no panic; a refused part is named; an accepted set of parts adds up to tallies of
//! exactly the study's trials a point, every counter and histogram within them, and summarizes.

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use subdual::run::shards::Parts;
use subdual::scenario::Scenario;
use subdual::study::shard::{self, Part, RunFacts};
use subdual::study::{self, summarize};

use crate::common::{Scratch, repo, resealed};

/// Trials a point: two blocks, so that the second shard's first group is shared with the first shard's.
const TRIALS: u64 = 70_000;

/// The edges a number of a part is set to.
const EDGES: [&str; 18] = [
    "0",
    "1",
    "2",
    "65535",
    "65536",
    "70000",
    "1048576",
    "1048577",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "-1",
    "-9223372036854775808",
    "170141183460469231731687303715884105727",
    "-170141183460469231731687303715884105728",
    "10000000000000000000000000000000000000000",
];

struct Study {
    scenario: Scenario,
    /// The parts' files, by shard.
    bytes: Vec<Vec<u8>>,
    /// The decoded parts, by shard.
    parts: Vec<Part>,
}

fn study() -> Study {
    let mut scenario =
        Scenario::load(&repo().join("scenarios/mugging-level-gap.toml")).expect("shipped");
    scenario.trials = TRIALS;
    let work = shard::work(&scenario, TRIALS);
    let parts: Vec<Part> = (0..3)
        .map(|i| {
            let facts = RunFacts {
                threads: 1,
                started: "2026-12-01T00:00:00Z".into(),
                elapsed_ms: 0,
                command: "subdual run".into(),
            };
            shard::run_shard(&scenario, &work, i, 3, facts, &|_| {})
        })
        .collect();
    let bytes = parts.iter().map(|p| shard::encode(p).unwrap()).collect();
    Study {
        scenario,
        bytes,
        parts,
    }
}

/// Where each number of the part's tallies starts and ends in its body (`partials` on: the header's and
/// the run's numbers are sealed by the study id and do not reach the tallies).
fn numbers(body: &str) -> Vec<(usize, usize)> {
    let from = body.find("\"partials\":").unwrap();
    let b = body.as_bytes();
    let mut found = Vec::new();
    let mut i = from;
    while i < b.len() {
        if b[i].is_ascii_digit() || (b[i] == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let start = i;
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            found.push((start, i));
        } else {
            i += 1;
        }
    }
    found
}

/// What reading and merging a set of part files did: refused (with the message), or accepted.
fn outcome(s: &Study, dir: &Path) -> Result<(), String> {
    let parts = Parts::read(&[dir.to_path_buf()]).map_err(|e| e.to_string())?;
    let work = shard::work(&parts.scenario, parts.scenario.trials);
    let merged = shard::merge(&work, &parts.checked).map_err(|e| e.to_string())?;
    let results = study::results_of(&s.scenario, merged[..work.points].to_vec());
    for tally in results.tallies.iter().flatten() {
        assert_eq!(tally.trials, TRIALS, "accepted parts add up to the trials");
        assert!(tally.counts.iter().all(|&c| c <= TRIALS));
        assert!(tally.hists.iter().all(|h| h.total() <= TRIALS));
    }
    let summaries = summarize(&s.scenario, &results.tallies);
    assert_eq!(summaries.len(), s.scenario.points.len());
    Ok(())
}

/// Runs every case: the second part replaced by each edited version, the others as they are. Returns the
/// cases refused and accepted; a panic fails the test with the case named.
fn replay(s: &Study, scratch: &Scratch, cases: Vec<(String, Vec<u8>)>) -> (usize, usize) {
    let dir: PathBuf = scratch.path.join("parts");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("part-0-of-3.json"), &s.bytes[0]).unwrap();
    std::fs::write(dir.join("part-2-of-3.json"), &s.bytes[2]).unwrap();
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let (mut refused, mut accepted) = (0, 0);
    let mut failures = Vec::new();
    for (what, bytes) in &cases {
        std::fs::write(dir.join("part-1-of-3.json"), bytes).unwrap();
        match panic::catch_unwind(AssertUnwindSafe(|| outcome(s, &dir))) {
            Ok(Err(message)) => {
                refused += 1;
                if !message.contains("part-") && !message.contains("shards") {
                    failures.push(format!("{what}: a refusal that names no part: {message}"));
                }
            }
            Ok(Ok(())) => accepted += 1,
            Err(payload) => {
                let why = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                failures.push(format!("{what}: panicked: {why}"));
            }
        }
    }
    panic::set_hook(hook);
    eprintln!(
        "{refused} refused, {accepted} accepted of {} cases",
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases failed, the first ones:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    (refused, accepted)
}

#[test]
fn every_number_of_a_part_at_its_edges_is_refused_or_adds_up() {
    let s = study();
    let scratch = Scratch::new("fuzz_parts_numbers");
    let mut body = String::new();
    resealed(&s.bytes[1], |b| {
        body = b.to_string();
        body.clone()
    });
    let spots = numbers(&body);
    assert!(spots.len() > 300, "{} numbers", spots.len());
    // Every number, each at a fifth of the edges (a different fifth for neighbours): about 2,000 cases.
    let mut cases = Vec::new();
    for (k, &(start, end)) in spots.iter().enumerate() {
        for (e, edge) in EDGES.iter().enumerate() {
            if (k + e) % 5 != 0 {
                continue;
            }
            let what = format!("number {k} ({}) set to {edge}", &body[start..end]);
            let bytes = resealed(&s.bytes[1], |b| {
                format!("{}{edge}{}", &b[..start], &b[end..])
            });
            cases.push((what, bytes));
        }
    }
    let (refused, accepted) = replay(&s, &scratch, cases);
    // Most edges break a bound; a count lowered within its bound (0, 1, 2) is a plausible part.
    assert!(refused > accepted, "{refused} refused, {accepted} accepted");
}

#[test]
fn every_structural_edit_of_a_part_is_refused() {
    let s = study();
    let scratch = Scratch::new("fuzz_parts_structure");
    let part = &s.parts[1];
    let n = part.partials.len();
    assert!(n >= 3);
    let mut edits: Vec<(String, Part)> = Vec::new();
    let mut edit = |what: String, f: &dyn Fn(&mut Part)| {
        let mut p = part.clone();
        f(&mut p);
        edits.push((what, p));
    };
    for i in 0..n {
        edit(format!("partial {i} dropped"), &|p| {
            p.partials.remove(i);
        });
        edit(format!("partial {i} repeated"), &|p| {
            let again = p.partials[i].clone();
            p.partials.insert(i, again);
        });
        edit(format!("partials {i} and next swapped"), &|p| {
            p.partials.swap(i, (i + 1) % n)
        });
        edit(format!("partial {i}'s tallies emptied"), &|p| {
            p.partials[i].result.tallies.clear()
        });
        edit(format!("partial {i}'s first tally made ineligible"), &|p| {
            p.partials[i].result.tallies[0] = None
        });
        edit(format!("partial {i} gains a tally"), &|p| {
            let extra = p.partials[i].result.tallies[0].clone();
            p.partials[i].result.tallies.push(extra);
        });
        edit(format!("partial {i}'s joints emptied"), &|p| {
            p.partials[i].result.joints.clear()
        });
        edit(format!("partial {i}'s joint loses a comparison"), &|p| {
            if let Some(Some(j)) = p.partials[i].result.joints.first_mut() {
                j.cross.pop();
            } else {
                p.partials[i].result.joints.push(None);
            }
        });
        edit(format!("partial {i}'s joint gains a comparison"), &|p| {
            if let Some(Some(j)) = p.partials[i].result.joints.first_mut() {
                j.cross.push(Default::default());
            } else {
                p.partials[i].result.joints.push(None);
            }
        });
        edit(format!("partial {i} on another group"), &|p| {
            p.partials[i].group = (p.partials[i].group + 1) % 20
        });
        edit(format!("partial {i} on the next block"), &|p| {
            p.partials[i].blocks = [1, 2]
        });
        edit(
            format!("partial {i} with its first tally's trials doubled"),
            &|p| {
                if let Some(t) = p.partials[i].result.tallies[0].as_mut() {
                    t.trials *= 2;
                }
            },
        );
    }
    edit("no partials".into(), &|p| p.partials.clear());
    edit("the items of another shard".into(), &|p| p.items = [0, 13]);
    edit("an empty item range".into(), &|p| p.items = [13, 13]);
    let mut cases: Vec<(String, Vec<u8>)> = edits
        .into_iter()
        .filter(|(_, p)| p != part)
        .map(|(what, p)| (what, shard::encode(&p).unwrap()))
        .collect();
    // A histogram grown past its bound (2^20 + 1 bins, about 2 MB of text), and an empty body.
    cases.push((
        "a histogram of 2^20 + 1 bins".into(),
        resealed(&s.bytes[1], |b| {
            let at = b.find("\"hists\":[{\"min\":").unwrap();
            let counts = at + b[at..].find("\"counts\":[").unwrap() + "\"counts\":[".len();
            format!("{}{}{}", &b[..counts], "0,".repeat(1 << 20), &b[counts..])
        }),
    ));
    cases.push((
        "an empty part".into(),
        resealed(&s.bytes[1], |_| "{}".into()),
    ));
    let total = cases.len();
    let (refused, accepted) = replay(&s, &scratch, cases);
    assert_eq!(
        (refused, accepted),
        (total, 0),
        "every structural edit refused"
    );
}
