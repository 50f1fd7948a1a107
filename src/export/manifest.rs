//! `manifest.json`: what was run and what it produced, identical for identical inputs (so a merge of shards
//! reproduces it byte for byte); `run.json`: how this particular run went (threads, times, command, shards),
//! which differs from run to run (docs/scenarios.md "Outputs").

use serde::Serialize;

use crate::export::{ExportError, Exporter, StudyResults, Written};

/// The manifest's keys, in docs/scenarios.md order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Manifest {
    /// "subdual".
    pub tool: String,
    /// The crate version.
    pub version: String,
    /// The scenario file as named.
    pub scenario: String,
    /// SHA-256 of its bytes.
    pub scenario_sha256: String,
    /// The seed.
    pub seed: u64,
    /// Trials per point.
    pub trials: u64,
    /// Trials per block (part of the reproducibility contract).
    pub block_size: u64,
    /// Variant names.
    pub variants: Vec<String>,
    /// Points in all (variants × sweep points).
    pub points: usize,
    /// Every file the run wrote but this one and the two that describe the run itself (`run.json`,
    /// `report.html`), by name, with its SHA-256.
    pub files: Vec<WrittenFile>,
}

impl Manifest {
    /// The manifest of `study`, listing the files made (but [`RUN_FILES`]).
    pub fn of(study: &StudyResults<'_>, made: &[WrittenFile]) -> Manifest {
        let scenario = study.scenario;
        Manifest {
            tool: "subdual".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            scenario: scenario.file.clone(),
            scenario_sha256: scenario.sha256.clone(),
            seed: scenario.seed,
            trials: study.trials,
            block_size: crate::engine::BLOCK_SIZE,
            variants: scenario.variants.clone(),
            points: scenario.points.len(),
            files: listed(made),
        }
    }
}

/// `manifest.json`.
pub struct ManifestJson;

impl Exporter for ManifestJson {
    fn export(
        &self,
        study: &StudyResults<'_>,
        written: &mut Written<'_>,
    ) -> Result<(), ExportError> {
        let bytes = pretty_json(written.manifest(study))?;
        written.bytes("manifest.json", &bytes)
    }
}

/// `run.json`.
pub struct RunJson;

impl Exporter for RunJson {
    fn export(
        &self,
        study: &StudyResults<'_>,
        written: &mut Written<'_>,
    ) -> Result<(), ExportError> {
        written.bytes("run.json", &pretty_json(study.run)?)
    }
}

/// `run.json`'s keys, in docs/scenarios.md order.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RunInfo {
    /// Worker threads (of this command; each shard's are in `shards`).
    pub threads: usize,
    /// When the command started (RFC 3339, UTC).
    pub started: String,
    /// Seconds it took.
    pub elapsed_s: f64,
    /// The command line.
    pub command: String,
    /// The shards merged, in order (empty for a single run).
    pub shards: Vec<ShardInfo>,
}

/// One merged shard, as `run.json` lists it.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct ShardInfo {
    /// The part file's name.
    pub file: String,
    /// Its shard index (0-based) and count.
    pub shard: u64,
    /// How many shards the study was split into.
    pub of: u64,
    /// The work items it ran (start inclusive, end exclusive).
    pub items: [u64; 2],
    /// Its worker threads.
    pub threads: usize,
    /// When it started.
    pub started: String,
    /// Seconds it took.
    pub elapsed_s: f64,
    /// Its command line.
    pub command: String,
}

/// The files that describe one run rather than its results: left out of the manifest's `files`.
pub const RUN_FILES: [&str; 2] = ["run.json", "report.html"];

/// A file of the study folder, as the manifest lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WrittenFile {
    /// Its name in the study folder.
    pub name: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// SHA-256 of its bytes.
    pub sha256: String,
}

/// The manifest's list of the files `made`, by name (without [`RUN_FILES`]).
pub fn listed(made: &[WrittenFile]) -> Vec<WrittenFile> {
    let mut listed: Vec<WrittenFile> = made
        .iter()
        .filter(|f| !RUN_FILES.contains(&f.name.as_str()))
        .cloned()
        .collect();
    listed.sort_by(|a, b| a.name.cmp(&b.name));
    listed
}

/// A value as pretty JSON with a final newline (`manifest.json`, `run.json`).
pub fn pretty_json(value: &impl Serialize) -> Result<Vec<u8>, serde_json::Error> {
    let mut bytes = serde_json::to_vec_pretty(value)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// A time as RFC 3339 in UTC, to the second: "2026-11-29T16:32:10Z".
pub fn rfc3339(time: std::time::SystemTime) -> String {
    let secs = time
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn rfc3339_dates_are_civil_utc() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(951_782_400)),
            "2000-02-29T00:00:00Z"
        );
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(1_795_969_930)),
            "2026-11-29T16:32:10Z"
        );
    }

    #[test]
    fn the_manifest_has_every_key_in_order_and_nothing_of_the_run() {
        let m = Manifest {
            tool: "subdual".into(),
            version: "0.1.0".into(),
            scenario: "s.toml".into(),
            scenario_sha256: "ab".into(),
            seed: 1,
            trials: 2,
            block_size: 65536,
            variants: vec!["base".into()],
            points: 3,
            files: listed(
                &[
                    ("summary.csv", &b"abc"[..]),
                    ("a.svg", b""),
                    ("run.json", b"{}"),
                    ("report.html", b"<html>"),
                ]
                .map(|(name, bytes)| WrittenFile {
                    name: name.to_string(),
                    bytes: bytes.len() as u64,
                    sha256: crate::digest::sha256_hex(bytes),
                }),
            ),
        };
        let text = String::from_utf8(pretty_json(&m).unwrap()).unwrap();
        let keys = [
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
        let positions: Vec<usize> = keys
            .iter()
            .map(|k| text.find(&format!("\"{k}\"")).unwrap())
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
        // Files by name, each with its size and digest; the run's own files are not among them.
        let a = text.find("\"a.svg\"").unwrap();
        let s = text.find("\"summary.csv\"").unwrap();
        assert!(a < s, "{text}");
        assert!(text.contains(
            "\"bytes\": 3,\n      \"sha256\": \"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\""
        ), "{text}");
        for run in [
            "run.json",
            "report.html",
            "started",
            "threads",
            "elapsed_s",
            "command",
        ] {
            assert!(!text.contains(run), "{run} in {text}");
        }
    }

    #[test]
    fn run_json_has_every_key_in_order() {
        let r = RunInfo {
            threads: 2,
            started: "2026-11-29T16:32:10Z".into(),
            elapsed_s: 0.5,
            command: "subdual run s.toml".into(),
            shards: Vec::new(),
        };
        let text = String::from_utf8(pretty_json(&r).unwrap()).unwrap();
        let keys = ["threads", "started", "elapsed_s", "command", "shards"];
        let positions: Vec<usize> = keys
            .iter()
            .map(|k| text.find(&format!("\"{k}\"")).unwrap())
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
    }
}
