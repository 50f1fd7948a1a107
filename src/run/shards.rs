//! A study split into shards: one shard run to its part file, and the parts merged into what one run
//! writes (through `finish`, the code `run` ends in).

use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::engine;
use crate::export::manifest::{RunInfo, ShardInfo};
use crate::export::write::write_part;
use crate::scenario::Scenario;
use crate::study::shard::{self, Checked, Header};
use crate::study::{self, tuning};

use super::{Finished, Outputs, Ran, RunError, RunOptions, Started, Watch, finish};

/// What running a shard did.
#[derive(Debug, Clone, PartialEq)]
pub enum ShardRun {
    /// An identical part was already there, and was left as it is.
    AlreadyDone {
        /// The part file.
        path: PathBuf,
    },
    /// The shard ran and its part was written.
    Ran {
        /// The work items it ran.
        items: Range<u64>,
        /// The study's work items in all.
        of: u64,
        /// Seconds it took.
        seconds: f64,
        /// The part file.
        path: PathBuf,
    },
}

/// Runs shard `index` of `shards` of a study and writes its part, `DIR/<stem>/parts/part-I-of-N.json`; an
/// identical part already there is left as it is.
pub fn run_shard(
    scenario: &Scenario,
    index: u64,
    shards: u64,
    options: &RunOptions,
    watch: &dyn Watch,
) -> Result<ShardRun, RunError> {
    let name = shard::part_name(index, shards);
    let parts = options.out.join(&scenario.stem).join("parts");
    let path = parts.join(&name);
    let work = shard::work(scenario, scenario.trials);
    if shards > work.items() {
        return Err(RunError::Arguments(format!(
            "{}: --shard {index}/{shards}: the study has {} work items (`check` counts them), so it splits into at most {} shards, each running at least one",
            scenario.file,
            work.items(),
            work.items()
        )));
    }
    if let Ok(bytes) = read_part(&path)
        && let Ok(part) = shard::decode(&bytes)
        && part.header == Header::new(scenario, &work, shards)
        && part.shard == index
    {
        return Ok(ShardRun::AlreadyDone { path });
    }
    super::warn_unread(scenario, watch);
    let started = Started::now();
    let items = work.shard_items(index, shards);
    let mut part = {
        let bar = watch.progress(
            work.trials_to_run(items.clone(), scenario.trials),
            &format!("{} shard {index}", scenario.stem),
        );
        engine::with_threads(options.threads, || {
            shard::run_shard(
                scenario,
                &work,
                index,
                shards,
                shard::RunFacts {
                    threads: options.threads,
                    started: started.rfc3339(),
                    elapsed_ms: 0,
                    command: options.command.clone(),
                },
                &|n| bar.add(n),
            )
        })
        .map_err(|e| RunError::Threads(Some(e)))?
    };
    part.run.elapsed_ms = started.clock.elapsed().as_millis() as u64;
    let bytes = shard::encode(&part).map_err(|e| RunError::WritePart {
        path: path.clone(),
        source: e.into(),
    })?;
    let path =
        write_part(&parts, &name, &bytes).map_err(|source| RunError::WritePart { path, source })?;
    Ok(ShardRun::Ran {
        items,
        of: work.items(),
        seconds: started.seconds(),
        path,
    })
}

/// The part files of a study, read and checked to belong together.
pub struct Parts {
    /// The files, as found.
    pub files: Vec<PathBuf>,
    /// The parts, checked: their common header, and the shards missing.
    pub checked: Checked,
    /// The study as the shards ran it: rebuilt from the text they carry, checked against its hash.
    pub scenario: Scenario,
}

/// The largest part file `merge` reads: 1 GiB. One byte past it is all that is read, so a device or an
/// endless file is refused rather than read without end (docs/scenarios.md "Shards").
pub const MAX_PART_BYTES: u64 = 1 << 30;

impl Parts {
    /// Reads the part files named (files as given, folders by their `part-*.json` files) and checks that
    /// they belong to one study made by this version of subdual, and that each holds exactly what its
    /// header implies ([`shard::verify`]): a part is input from outside, whose checksum anyone can recompute.
    pub fn read(paths: &[PathBuf]) -> Result<Parts, RunError> {
        let files = part_files(paths)?;
        let mut parts = Vec::new();
        for file in &files {
            let bytes = read_part(file)
                .map_err(|e| RunError::Arguments(format!("{}: {e}", file.display())))?;
            let part = shard::decode(&bytes)
                .map_err(|e| RunError::Arguments(format!("{}: {e}", file.display())))?;
            parts.push((file.display().to_string(), part));
        }
        let checked = shard::check(parts).map_err(|e| RunError::Arguments(e.to_string()))?;
        let header = &checked.header;
        if header.version != env!("CARGO_PKG_VERSION") {
            return Err(RunError::Arguments(format!(
                "{}: the parts were made by subdual {}, this is {}: merge them with that version",
                checked.parts[0].0,
                header.version,
                env!("CARGO_PKG_VERSION")
            )));
        }
        let scenario = rebuild(&checked)?;
        Ok(Parts {
            files,
            checked,
            scenario,
        })
    }

    /// Where a merge writes when no folder is given: DIR for parts in `DIR/<stem>/parts`, else `output`.
    pub fn default_out(&self) -> PathBuf {
        let stem = &self.checked.header.stem;
        self.files
            .first()
            .and_then(|f| f.parent())
            .filter(|parts| parts.file_name().is_some_and(|n| n == "parts"))
            .and_then(|parts| parts.parent())
            .filter(|study| {
                study
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy() == *stem)
            })
            .and_then(|study| study.parent())
            .map_or_else(|| PathBuf::from("output"), Path::to_path_buf)
    }
}

/// The study the parts describe, rebuilt from the scenario text they carry and checked against their
/// header; every part is then held to what that study implies ([`shard::verify`]).
fn rebuild(checked: &Checked) -> Result<Scenario, RunError> {
    let header = &checked.header;
    let mut scenario = Scenario::parse(
        &header.scenario,
        &header.stem,
        header.scenario_text.as_bytes(),
    )?;
    scenario.seed = header.seed;
    scenario.trials = header.trials;
    let work = shard::work(&scenario, scenario.trials);
    if scenario.sha256 != header.scenario_sha256
        || Header::new(&scenario, &work, header.shards) != *header
    {
        return Err(RunError::Arguments(format!(
            "{}: the scenario the parts carry does not rebuild the study they describe",
            checked.parts[0].0
        )));
    }
    for (file, part) in &checked.parts {
        shard::verify(&work, part).map_err(|e| RunError::Arguments(format!("{file}: {e}")))?;
    }
    Ok(scenario)
}

/// A part file's bytes, if it is a regular file of at most [`MAX_PART_BYTES`]. It is opened without
/// waiting (a FIFO would block for a writer) and its kind is asked of the open file, not of the name.
fn read_part(file: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let opened = options
        .open(file)
        .map_err(|e| format!("cannot read the part: {e}"))?;
    let kind = opened
        .metadata()
        .map_err(|e| format!("cannot read the part: {e}"))?;
    if !kind.is_file() {
        return Err("not a regular file: a part is a file that `run --shard` wrote".into());
    }
    let too_big = || {
        format!(
            "the file is larger than {} MiB, which no part is: is this the right file?",
            MAX_PART_BYTES >> 20
        )
    };
    if kind.len() > MAX_PART_BYTES {
        return Err(too_big());
    }
    // The size asked first spares reading a big file; the cap holds if the file grows meanwhile.
    let mut bytes = Vec::new();
    opened
        .take(MAX_PART_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read the part: {e}"))?;
    if bytes.len() as u64 > MAX_PART_BYTES {
        return Err(too_big());
    }
    Ok(bytes)
}

/// The part files named: files as given, folders by their `part-*.json` files.
fn part_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, RunError> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|source| RunError::Read {
                    path: path.clone(),
                    source,
                })?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.file_name().is_some_and(|n| {
                        let n = n.to_string_lossy();
                        n.starts_with("part-") && n.ends_with(".json")
                    })
                })
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(RunError::Arguments(format!(
                    "{}: no part files (part-I-of-N.json) in this folder",
                    path.display()
                )));
            }
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// Merges every shard of `parts` (which must all be there) into exactly what one run of `scenario`
/// ([`Parts::scenario`]) writes, in `out`; `command` and `started` are the merge's, for run.json.
pub fn merge<'s>(
    scenario: &'s Scenario,
    parts: &Parts,
    out: &Path,
    outputs: Outputs,
    command: String,
    started: Started,
    watch: &dyn Watch,
) -> Result<Finished<'s>, RunError> {
    super::check_ours(std::slice::from_ref(scenario), out)?;
    let checked = &parts.checked;
    let work = shard::work(scenario, scenario.trials);
    let mut merged =
        shard::merge(&work, checked).map_err(|e| RunError::Arguments(e.to_string()))?;
    // Moved, not copied: with the parts read, a merge holds two copies of its tallies, as projected.
    let candidates = merged.split_off(work.points);
    let results = study::results_of(scenario, merged);
    let lookup = |asked: &[tuning::Candidate], _: &[engine::Group<'_>]| {
        Ok(asked
            .iter()
            .map(|c| {
                let k = work.candidates.iter().position(|x| x == c);
                k.map(|k| candidates[k].clone()).unwrap_or_default()
            })
            .collect())
    };
    let shards: Vec<ShardInfo> = checked
        .parts
        .iter()
        .map(|(file, p)| shard_info(file, p, checked.header.shards))
        .collect();
    let run = RunInfo {
        threads: 1,
        started: started.rfc3339(),
        elapsed_s: 0.0,
        command,
        shards,
    };
    let ran = Ran {
        scenario,
        results,
        trials: scenario.trials,
    };
    finish(ran, out, outputs, &lookup, watch, run, started)
}

/// A merged shard as run.json lists it.
fn shard_info(file: &str, part: &study::shard::Part, of: u64) -> ShardInfo {
    ShardInfo {
        file: file.to_string(),
        shard: part.shard,
        of,
        items: part.items,
        threads: part.run.threads,
        started: part.run.started.clone(),
        elapsed_s: part.run.elapsed_ms as f64 / 1000.0,
        command: part.run.command.clone(),
    }
}
