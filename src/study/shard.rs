//! A study split into shards: each runs a contiguous range of the study's work items and writes its exact
//! integer tallies to a part file; a merge adds the parts up into exactly the tallies of one run
//! (docs/scenarios.md "Shards").
//!
//! Why it is exact: a trial's dice depend on (seed, trial) alone, and tallies are integers that add, so a
//! block of trials gives the same tally wherever it runs and the sum does not depend on the order.
//!
//! The work items are every engine group of the study (one per sweep point, [`study::groups`], then one
//! per candidate value of every tune, [`tuning::candidate_group`]) times its blocks of trials, in that
//! order. A run's tune search evaluates only the candidates it asks for; shards cannot know in advance
//! which those are, so they run every candidate, and the merge replays the same search on their tallies.
//! The search is a function of what it evaluated, so it asks for the same candidates and answers the same.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::engine::{self, BLOCK_SIZE, Group, GroupResult};
use crate::scenario::Scenario;
use crate::study;
use crate::study::tuning::{self, Candidate};

/// The format's name and version, first in every part file.
pub const FORMAT: &str = "subdual-part/1";

/// Every engine group of a study, in work order, and how many of them are sweep points (the rest are
/// tune candidates, in [`tuning::candidates`] order).
pub struct Work<'a> {
    /// The groups.
    pub groups: Vec<Group<'a>>,
    /// How many of the first groups are the run's own ([`study::groups`]).
    pub points: usize,
    /// The tune candidates of the other groups, in order.
    pub candidates: Vec<Candidate>,
    /// Blocks of trials per group.
    pub blocks: u64,
}

impl Work<'_> {
    /// Work items in all: groups × blocks.
    pub fn items(&self) -> u64 {
        self.groups.len() as u64 * self.blocks
    }

    /// The items of shard `index` of `shards`: the `index`-th of `shards` contiguous, nearly equal ranges.
    pub fn shard_items(&self, index: u64, shards: u64) -> Range<u64> {
        let items = u128::from(self.items());
        let at = |i: u64| (u128::from(i) * items / u128::from(shards)) as u64;
        at(index)..at(index + 1)
    }

    /// The `(group, blocks)` ranges that make up a range of items.
    pub fn ranges(&self, items: Range<u64>) -> Vec<(usize, Range<u64>)> {
        let mut ranges = Vec::new();
        let mut at = items.start;
        while at < items.end {
            let group = at / self.blocks;
            let end = items.end.min((group + 1) * self.blocks);
            ranges.push((
                group as usize,
                at % self.blocks..at % self.blocks + (end - at),
            ));
            at = end;
        }
        ranges
    }

    /// The trials a range of items runs at `trials` a point, over its groups' eligible points: what a
    /// shard's progress counts to.
    pub fn trials_to_run(&self, items: Range<u64>, trials: u64) -> u64 {
        self.ranges(items)
            .iter()
            .map(|(group, blocks)| {
                let points = self.groups[*group].points.iter().flatten().count() as u64;
                points * block_trials(blocks.clone(), trials)
            })
            .sum()
    }
}

/// The trials a range of blocks holds at `trials` trials a point (the last block may be short).
fn block_trials(blocks: Range<u64>, trials: u64) -> u64 {
    let ran = |block: u64| block.saturating_mul(BLOCK_SIZE).min(trials);
    ran(blocks.end) - ran(blocks.start)
}

/// The work of a study at `trials` trials a point.
pub fn work(scenario: &Scenario, trials: u64) -> Work<'_> {
    let mut groups = study::groups(scenario);
    let points = groups.len();
    let candidates = tuning::candidates(scenario);
    groups.extend(
        candidates
            .iter()
            .map(|&c| tuning::candidate_group(scenario, c)),
    );
    Work {
        groups,
        points,
        candidates,
        // At least one block, so that a group without trials still has an item (and a result).
        blocks: trials.div_ceil(BLOCK_SIZE).max(1),
    }
}

/// What identifies a study: everything its results depend on. Two parts belong together only if their
/// headers are equal; `study_id` hashes the rest, so a glance tells them apart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// [`FORMAT`].
    pub format: String,
    /// The version of subdual that ran it.
    pub version: String,
    /// The scenario file as named.
    pub scenario: String,
    /// Its stem (the study folder's name).
    pub stem: String,
    /// SHA-256 of its bytes.
    pub scenario_sha256: String,
    /// The file as written.
    pub scenario_text: String,
    /// The seed.
    pub seed: u64,
    /// Trials per point.
    pub trials: u64,
    /// Trials per block.
    pub block_size: u64,
    /// Points (variants × sweep points).
    pub points: u64,
    /// Work items in all.
    pub items: u64,
    /// How many shards the study is split into.
    pub shards: u64,
    /// SHA-256 of all the above.
    pub study_id: String,
}

impl Header {
    /// The header of a study split into `shards` shards.
    pub fn new(scenario: &Scenario, work: &Work<'_>, shards: u64) -> Header {
        let mut h = Header {
            format: FORMAT.to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            scenario: scenario.file.clone(),
            stem: scenario.stem.clone(),
            scenario_sha256: scenario.sha256.clone(),
            scenario_text: scenario.text.clone(),
            seed: scenario.seed,
            trials: scenario.trials,
            block_size: BLOCK_SIZE,
            points: scenario.points.len() as u64,
            items: work.items(),
            shards,
            study_id: String::new(),
        };
        h.study_id = h.identity();
        h
    }

    /// The study id this header's other fields hash to.
    pub fn identity(&self) -> String {
        let mut h = self.clone();
        h.study_id = String::new();
        crate::digest::sha256_hex(&serde_json::to_vec(&h).unwrap_or_default())
    }
}

/// How one shard's run went (kept in the part and listed by the merge's `run.json`; not part of the
/// results).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunFacts {
    /// Worker threads.
    pub threads: usize,
    /// When it started (RFC 3339).
    pub started: String,
    /// Milliseconds it took (an integer, so that the part's checksum survives reading and writing).
    pub elapsed_ms: u64,
    /// Its command line.
    pub command: String,
}

/// One group's tallies over the shard's blocks of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Partial {
    /// The group's index in [`Work::groups`].
    pub group: u64,
    /// Its blocks this shard ran.
    pub blocks: [u64; 2],
    /// Their tallies.
    pub result: GroupResult,
}

/// A part file's content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Part {
    /// The study.
    pub header: Header,
    /// Which shard (0-based).
    pub shard: u64,
    /// Its items (start inclusive, end exclusive).
    pub items: [u64; 2],
    /// How its run went.
    pub run: RunFacts,
    /// Its tallies, by group.
    pub partials: Vec<Partial>,
}

/// The file name of shard `index` of `shards`.
pub fn part_name(index: u64, shards: u64) -> String {
    format!("part-{index}-of-{shards}.json")
}

/// Runs shard `index` of `shards` of `scenario` (its `trials` and `seed` as given); `work` is its
/// [`work`] at those trials.
pub fn run_shard(
    scenario: &Scenario,
    work: &Work<'_>,
    index: u64,
    shards: u64,
    run: RunFacts,
    progress: &(dyn Fn(u64) + Sync),
) -> Part {
    let items = work.shard_items(index, shards);
    let ranges = work.ranges(items.clone());
    let results = engine::run_ranges(
        &work.groups,
        &ranges,
        scenario.trials,
        scenario.seed,
        progress,
    );
    Part {
        header: Header::new(scenario, work, shards),
        shard: index,
        items: [items.start, items.end],
        run,
        partials: ranges
            .into_iter()
            .zip(results)
            .map(|((group, blocks), result)| Partial {
                group: group as u64,
                blocks: [blocks.start, blocks.end],
                result,
            })
            .collect(),
    }
}

/// A part file: the part, and `checksum`, the SHA-256 of the part's compact JSON. Read straight into
/// these types (never through a generic JSON value, which would round the 128-bit sums).
#[derive(Serialize, Deserialize)]
struct Sealed {
    part: Part,
    checksum: String,
}

/// Just the format, read first so that another version is named rather than misread.
#[derive(Deserialize)]
struct Probe {
    part: ProbePart,
}

#[derive(Deserialize)]
struct ProbePart {
    header: ProbeHeader,
}

#[derive(Deserialize)]
struct ProbeHeader {
    format: String,
}

/// A part's bytes: JSON with a checksum, and a final newline. An error is returned, never an empty body
/// whose checksum would seal nothing.
pub fn encode(part: &Part) -> Result<Vec<u8>, serde_json::Error> {
    let body = serde_json::to_vec(part)?;
    let sealed = Sealed {
        part: part.clone(),
        checksum: crate::digest::sha256_hex(&body),
    };
    let mut bytes = serde_json::to_vec(&sealed)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// Why a part file cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PartError {
    /// Not a part file at all, or cut short.
    #[error("not a subdual part file ({0}); was it cut short? run its shard again")]
    Unreadable(String),
    /// Its checksum does not match.
    #[error("its checksum does not match its content: the file is corrupt; run its shard again")]
    Corrupt,
    /// Another format version.
    #[error("it is in format `{0}`, this subdual reads `{FORMAT}`")]
    Format(String),
    /// Its header does not hash to its study id, or its ranges do not fit it.
    #[error("its header or ranges are inconsistent ({0}): the file was edited or is corrupt")]
    Inconsistent(String),
}

/// Reads a part's bytes, checking its checksum and that its ranges fit its header.
pub fn decode(bytes: &[u8]) -> Result<Part, PartError> {
    let unreadable = |e: serde_json::Error| PartError::Unreadable(e.to_string());
    let probe: Probe = serde_json::from_slice(bytes).map_err(unreadable)?;
    if probe.part.header.format != FORMAT {
        return Err(PartError::Format(probe.part.header.format));
    }
    let sealed: Sealed = serde_json::from_slice(bytes).map_err(unreadable)?;
    let body = serde_json::to_vec(&sealed.part).map_err(unreadable)?;
    if crate::digest::sha256_hex(&body) != sealed.checksum {
        return Err(PartError::Corrupt);
    }
    let part = sealed.part;
    let h = &part.header;
    if h.identity() != h.study_id {
        return Err(PartError::Inconsistent("study id".into()));
    }
    if h.shards == 0 || part.shard >= h.shards {
        return Err(PartError::Inconsistent(format!(
            "shard {} of {}",
            part.shard, h.shards
        )));
    }
    if part.items[0] > part.items[1] || part.items[1] > h.items {
        return Err(PartError::Inconsistent("item range".into()));
    }
    Ok(part)
}

/// Checks a part against the study it belongs to, `work` being that study's [`work`] rebuilt from the
/// scenario its header carries. A part is input from outside (a checksum anyone can recompute seals it
/// against accidents only), so every number is held to what the header implies: the shard's items are
/// exactly the range [`Work::shard_items`] gives it, its partials exactly that range's groups and blocks,
/// each with a tally for every point that runs and none for one that does not, every count within the
/// trials of its blocks and every histogram within its bounds ([`GroupResult::check`]). A study split into
/// more shards than it has work items is refused too, as `run` refuses to split it so.
pub fn verify(work: &Work<'_>, part: &Part) -> Result<(), PartError> {
    let bad = |what: String| Err(PartError::Inconsistent(what));
    let (shards, trials) = (part.header.shards, part.header.trials);
    if shards > work.items() {
        return bad(format!(
            "{shards} shards of a study of {} work items",
            work.items()
        ));
    }
    let items = work.shard_items(part.shard, shards);
    if part.items != [items.start, items.end] {
        return bad(format!(
            "items {}..{} where shard {} holds {}..{}",
            part.items[0], part.items[1], part.shard, items.start, items.end
        ));
    }
    let ranges = work.ranges(items);
    if part.partials.len() != ranges.len() {
        return bad(format!(
            "{} groups of tallies where its items hold {}",
            part.partials.len(),
            ranges.len()
        ));
    }
    for (partial, (group, blocks)) in part.partials.iter().zip(ranges) {
        if partial.group != group as u64 || partial.blocks != [blocks.start, blocks.end] {
            return bad(format!(
                "group {} blocks {}..{} where its items hold group {group} blocks {}..{}",
                partial.group, partial.blocks[0], partial.blocks[1], blocks.start, blocks.end
            ));
        }
        partial
            .result
            .check(&work.groups[group], block_trials(blocks, trials))
            .or_else(|e| bad(format!("group {group}: {e}")))?;
    }
    Ok(())
}

/// Why a set of parts does not make a study.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// No part given.
    #[error("no part files to merge")]
    Empty,
    /// A part of another study, version or split.
    #[error(
        "{file}: {what} differs from {first}'s ({theirs} here, {ours} there): parts of one study only"
    )]
    Mismatch {
        /// The part.
        file: String,
        /// The first part.
        first: String,
        /// What differs.
        what: &'static str,
        /// Its value in `file`.
        theirs: String,
        /// Its value in `first`.
        ours: String,
    },
    /// Two different parts of one shard, or overlapping items.
    #[error("{file} overlaps {other} (items {a} and {b}): keep one of them")]
    Overlap {
        /// The part.
        file: String,
        /// The part it overlaps.
        other: String,
        /// Its items.
        a: String,
        /// The other's.
        b: String,
    },
    /// A part that does not hold what its header implies ([`verify`]).
    #[error("{file}: {error}")]
    Part {
        /// The part.
        file: String,
        /// What is wrong with it.
        error: PartError,
    },
    /// Shards are missing.
    #[error(
        "shards {missing} of {shards} are missing (run them, e.g. `sbatch --array={missing}`, or list them with `merge --check`)"
    )]
    Missing {
        /// The missing shards, as `--array=` takes them.
        missing: String,
        /// How many shards in all.
        shards: u64,
    },
}

/// Parts that make one study, checked: one header, no overlap (a duplicate only if identical), and
/// `missing` the shards not there.
pub struct Checked {
    /// The study.
    pub header: Header,
    /// The parts, by shard, without duplicates.
    pub parts: Vec<(String, Part)>,
    /// Shards not among them, as ascending ranges: a study may name far more shards than memory holds one
    /// by one (a part of `--shard 0/1000000000000` is valid), and its gaps are as few as its parts.
    pub missing: Vec<Range<u64>>,
}

/// Checks that `parts` (file name, part) belong to one study and do not overlap.
pub fn check(mut parts: Vec<(String, Part)>) -> Result<Checked, MergeError> {
    let Some((first, head)) = parts.first().map(|(f, p)| (f.clone(), p.header.clone())) else {
        return Err(MergeError::Empty);
    };
    for (file, p) in &parts {
        let h = &p.header;
        let differs = [
            ("the version", &h.version, &head.version),
            (
                "the scenario's SHA-256",
                &h.scenario_sha256,
                &head.scenario_sha256,
            ),
            ("the scenario's file name", &h.scenario, &head.scenario),
        ]
        .into_iter()
        .map(|(w, a, b)| (w, a.clone(), b.clone()))
        .chain([
            ("the seed", h.seed.to_string(), head.seed.to_string()),
            ("the trials", h.trials.to_string(), head.trials.to_string()),
            (
                "the number of shards",
                h.shards.to_string(),
                head.shards.to_string(),
            ),
            ("the study id", h.study_id.clone(), head.study_id.clone()),
        ])
        .find(|(_, a, b)| a != b);
        if let Some((what, theirs, ours)) = differs {
            return Err(MergeError::Mismatch {
                file: file.clone(),
                first,
                what,
                theirs,
                ours,
            });
        }
    }
    parts.sort_by_key(|(f, p)| (p.items[0], p.shard, f.clone()));
    let mut kept: Vec<(String, Part)> = Vec::new();
    for (file, part) in parts {
        if let Some((other, prev)) = kept.last() {
            if prev.shard == part.shard && *prev == part {
                continue; // the same part twice (a copy, or a shard run again): merged once
            }
            if part.items[0] < prev.items[1] || prev.shard == part.shard {
                return Err(MergeError::Overlap {
                    file,
                    other: other.clone(),
                    a: format!("{}..{}", part.items[0], part.items[1]),
                    b: format!("{}..{}", prev.items[0], prev.items[1]),
                });
            }
        }
        kept.push((file, part));
    }
    // The gaps between the shards present.
    let mut present: Vec<u64> = kept.iter().map(|(_, p)| p.shard.min(head.shards)).collect();
    present.sort_unstable();
    let mut missing = Vec::new();
    let mut next = 0;
    for shard in present {
        if shard > next {
            missing.push(next..shard);
        }
        next = next.max(shard.saturating_add(1));
    }
    if next < head.shards {
        missing.push(next..head.shards);
    }
    Ok(Checked {
        header: head,
        parts: kept,
        missing,
    })
}

/// Shard ranges in the form of Slurm's `--array=`: ascending, a range of one as `a`, longer ones as `a-b`
/// (`5,17,40-41`).
pub fn array_spec(ranges: &[Range<u64>]) -> String {
    ranges
        .iter()
        .map(|r| match r.end - r.start {
            1 => r.start.to_string(),
            _ => format!("{}-{}", r.start, r.end - 1),
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// How many shards `ranges` hold.
pub fn count(ranges: &[Range<u64>]) -> u64 {
    ranges.iter().map(|r| r.end - r.start).sum()
}

/// The merged tallies of a complete, checked set of parts: one result per group of [`work`].
pub fn merge(work: &Work<'_>, checked: &Checked) -> Result<Vec<GroupResult>, MergeError> {
    if !checked.missing.is_empty() {
        return Err(MergeError::Missing {
            missing: array_spec(&checked.missing),
            shards: checked.header.shards,
        });
    }
    let mut results: Vec<Option<GroupResult>> = vec![None; work.groups.len()];
    for (file, part) in &checked.parts {
        verify(work, part).map_err(|e| MergeError::Part {
            file: file.clone(),
            error: e,
        })?;
        for partial in &part.partials {
            let slot = &mut results[partial.group as usize];
            match slot {
                Some(r) => r.try_add(&partial.result).map_err(|e| MergeError::Part {
                    file: file.clone(),
                    error: PartError::Inconsistent(format!("group {}: {e}", partial.group)),
                })?,
                None => *slot = Some(partial.result.clone()),
            }
        }
    }
    Ok(results.into_iter().map(Option::unwrap_or_default).collect())
}

/// Which scheduler variable names a shard when the command says `--shard auto/N`: Slurm array tasks,
/// Kubernetes Indexed Jobs (both 0-based), then Grid Engine tasks (1-based).
pub fn shard_from_env(var: impl Fn(&str) -> Option<String>) -> Result<(u64, &'static str), String> {
    for (name, offset) in [
        ("SLURM_ARRAY_TASK_ID", 0),
        ("JOB_COMPLETION_INDEX", 0),
        ("SGE_TASK_ID", 1),
    ] {
        if let Some(value) = var(name) {
            let n: u64 = value
                .trim()
                .parse()
                .map_err(|_| format!("{name}={value:?} is not a whole number"))?;
            return n
                .checked_sub(offset)
                .map(|i| (i, name))
                .ok_or_else(|| format!("{name}={value} counts from 1"));
        }
    }
    Err("--shard auto/N needs SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or SGE_TASK_ID in the environment (or give the shard, as --shard 3/8)".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped(name: &str) -> Scenario {
        let path = format!("{}/scenarios/{name}.toml", env!("CARGO_MANIFEST_DIR"));
        let mut s = Scenario::load(std::path::Path::new(&path)).expect("a shipped scenario");
        s.trials = 3 * BLOCK_SIZE + 100;
        s
    }

    fn facts() -> RunFacts {
        RunFacts {
            threads: 1,
            started: "2026-12-01T00:00:00Z".into(),
            elapsed_ms: 0,
            command: "subdual run".into(),
        }
    }

    #[test]
    fn shards_tile_the_items_without_gap_or_overlap() {
        let s = shipped("sap-or-mug-the-sentry");
        let w = work(&s, s.trials);
        assert!(!w.candidates.is_empty() && w.points > 0);
        // Every eligible point of every group runs every trial, once over the shards.
        let eligible: u64 = w
            .groups
            .iter()
            .map(|g| g.points.iter().flatten().count() as u64)
            .sum();
        for n in [1, 2, 3, 7, w.items(), w.items() + 5] {
            let trials: u64 = (0..n)
                .map(|i| w.trials_to_run(w.shard_items(i, n), s.trials))
                .sum();
            assert_eq!(trials, eligible * s.trials, "{n} shards");
            let mut next = 0;
            for i in 0..n {
                let r = w.shard_items(i, n);
                assert_eq!(r.start, next, "shard {i} of {n}");
                next = r.end;
                // The ranges of a shard cover exactly its items.
                let covered: u64 = w
                    .ranges(r.clone())
                    .iter()
                    .map(|(_, b)| b.end - b.start)
                    .sum();
                assert_eq!(covered, r.end - r.start);
            }
            assert_eq!(next, w.items());
        }
        assert_eq!(w.ranges(0..w.items()).len(), w.groups.len());
    }

    #[test]
    fn merged_shards_give_the_tallies_of_one_run() {
        let s = shipped("sap-or-mug-the-sentry");
        let w = work(&s, s.trials);
        let whole = engine::run_groups(&w.groups, s.trials, s.seed, &|_| {});
        for n in [1, 3, 7] {
            let parts: Vec<(String, Part)> = (0..n)
                .rev()
                .map(|i| {
                    let part = run_shard(&s, &w, i, n, facts(), &|_| {});
                    // Through the file format: the 128-bit joint sums must survive it.
                    (
                        part_name(i, n),
                        decode(&encode(&part).unwrap()).expect("a valid part"),
                    )
                })
                .collect();
            let checked = check(parts).expect("one study");
            assert!(checked.missing.is_empty());
            assert_eq!(merge(&w, &checked).expect("complete"), whole, "{n} shards");
        }
    }

    #[test]
    fn a_part_round_trips_and_a_flipped_byte_is_caught() {
        let s = shipped("mugging-level-gap");
        let part = run_shard(&s, &work(&s, s.trials), 1, 4, facts(), &|_| {});
        let bytes = encode(&part).unwrap();
        assert_eq!(decode(&bytes), Ok(part.clone()));
        let text = String::from_utf8(bytes.clone()).unwrap();
        let edited = text.replacen("\"trials\":", "\"trials\": ", 1);
        // Whitespace alone is not a change of content.
        assert_eq!(decode(edited.as_bytes()), Ok(part.clone()));
        let at = text.find("\"counts\":[").unwrap() + 10;
        let mut corrupt = bytes.clone();
        corrupt[at] = if corrupt[at] == b'1' { b'2' } else { b'1' };
        assert_eq!(decode(&corrupt), Err(PartError::Corrupt));
        assert!(matches!(
            decode(&bytes[..bytes.len() / 2]),
            Err(PartError::Unreadable(_))
        ));
        let mut other = part.clone();
        other.header.seed += 1;
        assert_eq!(
            decode(&encode(&other).unwrap()),
            Err(PartError::Inconsistent("study id".into()))
        );
    }

    #[test]
    fn check_refuses_strangers_overlaps_and_names_the_missing() {
        let s = shipped("mugging-level-gap");
        let part = |i, n| {
            (
                part_name(i, n),
                run_shard(&s, &work(&s, s.trials), i, n, facts(), &|_| {}),
            )
        };
        let checked = check(vec![part(0, 4), part(2, 4), part(0, 4)]).expect("one study");
        assert_eq!(
            checked.parts.len(),
            2,
            "an identical duplicate is merged once"
        );
        assert_eq!(checked.missing, [1..2, 3..4]);
        let mut again = part(2, 4);
        again.1.run.threads = 8;
        assert!(matches!(
            check(vec![part(2, 4), again]),
            Err(MergeError::Overlap { .. })
        ));
        assert!(matches!(
            check(vec![part(0, 4), part(1, 3)]),
            Err(MergeError::Mismatch {
                what: "the number of shards",
                ..
            })
        ));
        let mut seeded = s.clone();
        seeded.seed += 1;
        let stranger = (
            "x.json".to_string(),
            run_shard(
                &seeded,
                &work(&seeded, seeded.trials),
                1,
                4,
                facts(),
                &|_| {},
            ),
        );
        assert!(matches!(
            check(vec![part(0, 4), stranger]),
            Err(MergeError::Mismatch {
                what: "the seed",
                ..
            })
        ));
        assert_eq!(check(Vec::new()).err(), Some(MergeError::Empty));
    }

    #[test]
    fn a_part_is_held_to_what_its_header_implies() {
        let s = shipped("mugging-level-gap");
        let w = work(&s, s.trials);
        let part = run_shard(&s, &w, 1, 3, facts(), &|_| {});
        assert_eq!(verify(&w, &part), Ok(()));
        let refused = |edit: &dyn Fn(&mut Part), words: &str| {
            let mut p = part.clone();
            edit(&mut p);
            match verify(&w, &p) {
                Err(PartError::Inconsistent(why)) => assert!(why.contains(words), "{why}"),
                other => panic!("{words}: {other:?}"),
            }
        };
        refused(
            &|p| p.partials[0].group = 1 << 40,
            "where its items hold group",
        );
        refused(
            &|p| p.partials[0].blocks[1] += 1,
            "where its items hold group",
        );
        refused(&|p| p.partials.clear(), "groups of tallies where");
        refused(&|p| p.items[1] += 1, "where shard 1 holds");
        refused(
            &|p| {
                p.items = [0, 0];
                p.partials.clear();
                p.header.shards = w.items() + 1;
            },
            "shards of a study of",
        );
        fn tally(p: &mut Part) -> &mut crate::stats::Tally {
            p.partials[0].result.tallies[0].as_mut().expect("eligible")
        }
        refused(&|p| tally(p).trials += 1, "a tally of");
        refused(
            &|p| tally(p).counts[0] = tally(p).trials + 1,
            "a counter of",
        );
        refused(&|p| tally(p).counts[3] = u64::MAX, "a counter of");
        refused(&|p| p.partials[0].result.tallies[0] = None, "ineligible");
        refused(
            &|p| p.partials[0].result.tallies.pop().map(drop).unwrap_or(()),
            "tallies and",
        );
        refused(
            &|p| {
                let joint = p.partials[0].result.joints[0].as_mut().expect("paired");
                joint.cross.push(Default::default());
            },
            "comparisons where",
        );
        refused(
            &|p| {
                p.partials[0].result.joints[0]
                    .as_mut()
                    .expect("paired")
                    .trials += 1
            },
            "a joint tally of",
        );
    }

    #[test]
    fn missing_shards_read_as_slurm_arrays() {
        assert_eq!(array_spec(&[5..6, 17..18, 40..42]), "5,17,40-41");
        assert_eq!(array_spec(std::slice::from_ref(&(0..4))), "0-3");
        assert_eq!(array_spec(&[]), "");
        assert_eq!(array_spec(std::slice::from_ref(&(9..10))), "9");
        assert_eq!(count(&[5..6, 17..18, 40..42]), 4);
    }

    #[test]
    fn schedulers_name_the_shard() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(
            shard_from_env(env(&[("SLURM_ARRAY_TASK_ID", "3")])),
            Ok((3, "SLURM_ARRAY_TASK_ID"))
        );
        assert_eq!(
            shard_from_env(env(&[("JOB_COMPLETION_INDEX", "0")])),
            Ok((0, "JOB_COMPLETION_INDEX"))
        );
        assert_eq!(
            shard_from_env(env(&[("SGE_TASK_ID", "1")])),
            Ok((0, "SGE_TASK_ID"))
        );
        assert!(shard_from_env(env(&[("SGE_TASK_ID", "0")])).is_err());
        assert!(shard_from_env(env(&[("SLURM_ARRAY_TASK_ID", "x")])).is_err());
        assert!(shard_from_env(env(&[])).is_err());
    }
}
