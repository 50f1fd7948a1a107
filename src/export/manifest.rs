//! `manifest.json`: what was run, with what, and when, so a result can be traced and reproduced.

use serde::Serialize;

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
    /// Worker threads.
    pub threads: usize,
    /// Variant names.
    pub variants: Vec<String>,
    /// Points in all (variants × sweep points).
    pub points: usize,
    /// Every other file the run wrote, by name, with its SHA-256.
    pub files: Vec<WrittenFile>,
    /// When the run started (RFC 3339, UTC).
    pub started: String,
    /// Seconds the run took.
    pub elapsed_s: f64,
    /// The command line.
    pub command: String,
}

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

/// The manifest's list of `files`, by name.
pub fn written_files(files: &[(String, Vec<u8>)]) -> Vec<WrittenFile> {
    let mut listed: Vec<WrittenFile> = files
        .iter()
        .map(|(name, bytes)| WrittenFile {
            name: name.clone(),
            bytes: bytes.len() as u64,
            sha256: crate::digest::sha256_hex(bytes),
        })
        .collect();
    listed.sort_by(|a, b| a.name.cmp(&b.name));
    listed
}

/// The manifest as pretty JSON with a final newline.
pub fn manifest_json(m: &Manifest) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(m).unwrap_or_default();
    bytes.push(b'\n');
    bytes
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
    fn the_manifest_has_every_key_in_order() {
        let m = Manifest {
            tool: "subdual".into(),
            version: "0.1.0".into(),
            scenario: "s.toml".into(),
            scenario_sha256: "ab".into(),
            seed: 1,
            trials: 2,
            block_size: 65536,
            threads: 2,
            variants: vec!["base".into()],
            points: 3,
            files: written_files(&[
                ("summary.csv".into(), b"abc".to_vec()),
                ("a.svg".into(), Vec::new()),
            ]),
            started: "2026-11-29T16:32:10Z".into(),
            elapsed_s: 0.5,
            command: "subdual run s.toml".into(),
        };
        let text = String::from_utf8(manifest_json(&m)).unwrap();
        let keys = [
            "tool",
            "version",
            "scenario",
            "scenario_sha256",
            "seed",
            "trials",
            "block_size",
            "threads",
            "variants",
            "points",
            "files",
            "started",
            "elapsed_s",
            "command",
        ];
        let positions: Vec<usize> = keys
            .iter()
            .map(|k| text.find(&format!("\"{k}\"")).unwrap())
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
        // Files by name, each with its size and digest.
        let a = text.find("\"a.svg\"").unwrap();
        let s = text.find("\"summary.csv\"").unwrap();
        assert!(a < s, "{text}");
        assert!(text.contains(
            "\"bytes\": 3,\n      \"sha256\": \"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\""
        ), "{text}");
    }
}
