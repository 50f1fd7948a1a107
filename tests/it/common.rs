//! Helpers shared by the integration tests: run the real `subdual` binary, give every test its own
//! scratch folder, read the CSV files back (RFC 4180) and check JSON without any extra crate.
//!
//! Each test module uses only some of these helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The binary under test, built by Cargo for the integration tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_subdual");

/// The repository root (where `scenarios/` lives).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch folder unique to one test and this process, removed when dropped (also when the test
/// fails, since the guard is dropped while unwinding).
pub struct Scratch {
    pub path: PathBuf,
}

impl Scratch {
    pub fn new(test: &str) -> Scratch {
        let path = std::env::temp_dir().join(format!("subdual-it-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("cannot create the scratch folder");
        Scratch { path }
    }

    /// The `--out` folder of this test (not created: the binary creates it).
    pub fn out(&self) -> PathBuf {
        self.path.join("out")
    }

    /// Writes `bytes` to `name` inside the scratch folder (creating sub-folders) and returns its path.
    pub fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let file = self.path.join(name);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent).expect("cannot create a fixture folder");
        }
        std::fs::write(&file, bytes).expect("cannot write a fixture");
        file
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Runs the binary with these arguments; stdin is closed and stdout/stderr are captured (so neither is a
/// terminal).
pub fn subdual<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    Command::new(BIN)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("cannot start the subdual binary")
}

/// `subdual run FILE --out OUT --quiet` plus extra arguments.
pub fn run_quiet(file: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<std::ffi::OsString> = vec![
        "run".into(),
        file.into(),
        "--out".into(),
        out.into(),
        "--quiet".into(),
    ];
    args.extend(extra.iter().map(std::ffi::OsString::from));
    subdual(args)
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Exit code, stdout and stderr, for assertion messages.
pub fn describe(o: &Output) -> String {
    format!(
        "exit code {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
        o.status.code(),
        stdout(o),
        stderr(o)
    )
}

/// Asserts a successful run with nothing on stderr.
pub fn assert_success(o: &Output) {
    assert_eq!(o.status.code(), Some(0), "{}", describe(o));
    assert!(
        o.stderr.is_empty(),
        "stderr must be empty on success\n{}",
        describe(o)
    );
}

/// Reads a file as text, with the path in the panic message.
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Reads a file's bytes, with the path in the panic message.
pub fn read_bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// A small scenario used by many tests: a level-9 thief mugging an unaware ogre (13 lines).
pub const MUG_BASE: &str = r#"action = "mug"
trials = 1000
seed = 1

[attacker]
class = "thief"
level = 9
weapon = "club"
position = "behind"

[victim]
monster = "ogre"
aware = false
"#;

// ---------------------------------------------------------------------------------------------------
// CSV (RFC 4180) reading
// ---------------------------------------------------------------------------------------------------

/// Parses RFC 4180 CSV: fields separated by commas, records by LF or CRLF, fields optionally quoted with
/// `""` for a quote inside. Panics on malformed quoting.
pub fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    let mut field_started = false;
    while let Some(c) = chars.next() {
        if quoted {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    chars.next();
                    field.push('"');
                } else {
                    quoted = false;
                    assert!(
                        matches!(chars.peek(), None | Some(',' | '\n' | '\r')),
                        "text after a closing quote in CSV:\n{text}"
                    );
                }
            } else {
                field.push(c);
            }
            continue;
        }
        match c {
            '"' => {
                assert!(
                    !field_started,
                    "a quote inside an unquoted CSV field:\n{text}"
                );
                quoted = true;
                field_started = true;
            }
            ',' => {
                row.push(std::mem::take(&mut field));
                field_started = false;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
                field_started = false;
            }
            _ => {
                field.push(c);
                field_started = true;
            }
        }
    }
    assert!(!quoted, "an unterminated quoted CSV field:\n{text}");
    if field_started || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

/// A CSV file as a header and rows, each row checked to have as many cells as the header.
pub struct Csv {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Csv {
    pub fn read(path: &Path) -> Csv {
        let text = read(path);
        assert!(
            text.ends_with('\n'),
            "{} must end with a line break",
            path.display()
        );
        let mut all = parse_csv(&text);
        assert!(!all.is_empty(), "{} has no header", path.display());
        let header = all.remove(0);
        for (i, r) in all.iter().enumerate() {
            assert_eq!(
                r.len(),
                header.len(),
                "{} row {} has {} cells, the header {}: {r:?}",
                path.display(),
                i + 2,
                r.len(),
                header.len()
            );
        }
        Csv { header, rows: all }
    }

    /// The index of a column, panicking with the header when it is missing.
    pub fn col(&self, name: &str) -> usize {
        self.header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column `{name}` in {:?}", self.header))
    }
}

/// The summary metrics of each action, headline first (docs/scenarios.md, "Metrics").
pub fn summary_metrics(action: &str) -> &'static [&'static str] {
    match action {
        "mug" => &[
            "p_knockout",
            "p_hit",
            "p_woke_before_bound",
            "ko_rounds",
            "save_needed",
            "roll_needed",
        ],
        "sap" => &[
            "p_out",
            "p_knockout",
            "p_hit",
            "p_wake",
            "p_sleeps_on",
            "p_silent",
            "p_down",
            "p_killed",
            "p_woke_before_bound",
            "damage",
            "damage_real",
            "damage_temporary",
            "ko_rounds",
            "roll_needed",
        ],
        "strike" => &[
            "damage",
            "p_hit",
            "p_down",
            "p_killed",
            "damage_real",
            "damage_temporary",
            "roll_needed",
        ],
        "grab_object" => &[
            "p_control",
            "p_hit",
            "p_struck_first",
            "struck_damage",
            "p_grabber_down",
            "p_grabber_killed",
            "contest_rolls",
            "grabber_strength",
            "victim_strength",
            "roll_needed",
        ],
        "grab_person" => &[
            "p_hold_kept",
            "p_hold",
            "p_kept_given_hold",
            "p_hit",
            "p_struck_first",
            "struck_damage",
            "p_grabber_down",
            "p_grabber_killed",
            "contest_rolls",
            "grabber_strength",
            "victim_strength",
            "roll_needed",
        ],
        "grab_monster" => &[
            "p_hold_kept",
            "p_hold",
            "p_kept_given_hold",
            "p_hit",
            "p_struck_first",
            "struck_damage",
            "p_grabber_down",
            "p_grabber_killed",
            "contest_rolls",
            "monster_strength",
            "grabber_strength",
            "victim_strength",
            "roll_needed",
        ],
        "brawl" | "subdue" => &[
            "p_attacker_wins",
            "p_taken_alive",
            "p_victim_wins",
            "p_both_down",
            "p_timeout",
            "p_victim_killed",
            "p_attacker_killed",
            "p_won_by_opening",
            "p_woke_before_bound",
            "rounds",
            "rounds_out",
        ],
        // A brawl or subdual fight whose file has a side of several.
        "sides" => &[
            "p_attackers_win",
            "p_victims_win",
            "p_taken_alive",
            "p_timeout",
            "attackers_down",
            "attackers_killed",
            "victims_killed",
            "rounds",
            "p_both_down",
        ],
        other => panic!("unknown action `{other}`"),
    }
}

/// The distributions of each action (docs/scenarios.md, "Metrics").
pub fn distribution_metrics(action: &str) -> &'static [&'static str] {
    match action {
        "mug" => &["ko_rounds"],
        "sap" => &["damage", "ko_rounds"],
        "strike" => &["damage"],
        "grab_object" => &["contest_rolls"],
        "grab_person" | "grab_monster" => &[],
        "brawl" | "subdue" => &["rounds", "rounds_out"],
        "sides" => &["rounds", "attackers_down"],
        other => panic!("unknown action `{other}`"),
    }
}

/// Probabilities among the trials where a condition held: empty, like a mean, where it never did.
pub const RATIO_METRICS: [&str; 1] = ["p_kept_given_hold"];

/// Fixed quantities: printed as integers.
pub const FIXED_METRICS: [&str; 5] = [
    "save_needed",
    "monster_strength",
    "grabber_strength",
    "victim_strength",
    "roll_needed",
];

/// A float cell must read back exactly: parse, print with `{}`, get the same text.
pub fn assert_round_trip(cell: &str, what: &str) {
    let x: f64 = cell
        .parse()
        .unwrap_or_else(|e| panic!("{what}: `{cell}` is not a number: {e}"));
    assert!(x.is_finite(), "{what}: `{cell}` is not finite");
    assert_eq!(
        format!("{x}"),
        cell,
        "{what}: `{cell}` is not in Rust's shortest round-trip form"
    );
}

/// An integer cell: digits only, with an optional leading minus.
pub fn assert_integer(cell: &str, what: &str) {
    let digits = cell.strip_prefix('-').unwrap_or(cell);
    assert!(
        !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()),
        "{what}: `{cell}` must be an integer"
    );
}

/// Checks summary.csv against the contract: the column order, the metrics of `action` in order for every
/// eligible point, one `ineligible` row per ineligible point, number formats. `paths` are the sweep
/// paths when known (else only the ends of the header are checked). Returns the number of points.
pub fn check_summary(csv: &Csv, action: &str, paths: Option<&[&str]>, what: &str) -> usize {
    let tail = [
        "level_gap",
        "metric",
        "estimate",
        "ci_low",
        "ci_high",
        "std_error",
        "trials",
        "status",
    ];
    assert_eq!(csv.header[0], "variant", "{what}: {:?}", csv.header);
    assert!(csv.header.len() > tail.len(), "{what}: {:?}", csv.header);
    assert_eq!(
        &csv.header[csv.header.len() - tail.len()..],
        &tail[..],
        "{what}: the header must end with level_gap..status"
    );
    if let Some(paths) = paths {
        assert_eq!(
            &csv.header[1..csv.header.len() - tail.len()],
            paths,
            "{what}: one column per sweep path, in file order"
        );
    }
    let lead = csv.header.len() - tail.len(); // variant + sweep paths
    let [gap, metric, est, lo, hi, se, trials, status] = std::array::from_fn(|i| lead + i);
    // `action` may list several (`check` prints every action of a file's variants, the file's first):
    // each point's rows are the metrics of one of them.
    let actions: Vec<&str> = action.split(", ").collect();
    let expected = summary_metrics(actions[0]);
    // Group rows by point: consecutive rows with the same variant and sweep values.
    let mut points = 0;
    let mut i = 0;
    while i < csv.rows.len() {
        points += 1;
        let key = &csv.rows[i][..lead];
        let mut j = i;
        while j < csv.rows.len() && &csv.rows[j][..lead] == key {
            j += 1;
        }
        let group = &csv.rows[i..j];
        let here = format!("{what}, point {key:?}");
        for r in group {
            assert_integer(&r[gap], &format!("{here}: level_gap"));
            assert_eq!(r[gap], group[0][gap], "{here}: one level_gap per point");
            assert_integer(&r[trials], &format!("{here}: trials"));
        }
        if group[0][metric] == "ineligible" {
            assert_eq!(group.len(), 1, "{here}: an ineligible point has one row");
            let r = &group[0];
            for c in [est, lo, hi, se] {
                assert_eq!(r[c], "", "{here}: an ineligible point has empty numbers");
            }
            assert_eq!(r[trials], "0", "{here}: an ineligible point has trials 0");
            assert!(
                r[status].starts_with("ineligible: ") && r[status].len() > "ineligible: ".len(),
                "{here}: status `{}` must be `ineligible: <reason>`",
                r[status]
            );
        } else {
            let metrics: Vec<&str> = group.iter().map(|r| r[metric].as_str()).collect();
            // A fight's file with a side of several reports the metrics of sides.
            let sides = actions
                .iter()
                .any(|a| matches!(*a, "brawl" | "subdue"))
                .then_some("sides");
            let expected = actions
                .iter()
                .copied()
                .chain(sides)
                .map(summary_metrics)
                .find(|m| *m == metrics.as_slice())
                .unwrap_or(expected);
            assert_eq!(
                metrics, expected,
                "{here}: the metrics of `{action}`, in order"
            );
            for r in group {
                let m = &r[metric];
                let here = format!("{here}, metric {m}");
                assert_eq!(r[status], "ok", "{here}: status");
                let numbers = [&r[est], &r[lo], &r[hi], &r[se]];
                if numbers.iter().all(|c| c.is_empty()) {
                    assert!(
                        !m.starts_with("p_") || RATIO_METRICS.contains(&m.as_str()),
                        "{here}: a probability over all trials always has numbers"
                    );
                    assert_eq!(r[trials], "0", "{here}: empty numbers go with trials 0");
                    continue;
                }
                for c in numbers {
                    assert_round_trip(c, &here);
                }
                let [e, l, h, s] = numbers.map(|c| c.parse::<f64>().unwrap_or(f64::NAN));
                assert!(l <= e && e <= h, "{here}: {l} <= {e} <= {h}");
                assert!(s >= 0.0, "{here}: std_error {s}");
                if m.starts_with("p_") {
                    assert!(
                        (0.0..=1.0).contains(&l) && (0.0..=1.0).contains(&h),
                        "{here}"
                    );
                    assert_ne!(r[trials], "0", "{here}: a probability over no trials");
                }
                if FIXED_METRICS.contains(&m.as_str()) {
                    for c in numbers {
                        assert_integer(c, &format!("{here}: a fixed metric"));
                    }
                    assert_eq!(
                        (r[est].as_str(), r[lo].as_str()),
                        (r[hi].as_str(), r[est].as_str())
                    );
                    assert_eq!(r[se], "0", "{here}: a fixed metric has std_error 0");
                }
            }
        }
        i = j;
    }
    points
}

/// Checks distributions.csv: the column order, integer values ascending per (point, metric), counts as
/// integers, probabilities that read back exactly and add up to 1.
pub fn check_distributions(csv: &Csv, action: &str, paths: Option<&[&str]>, what: &str) {
    let tail = ["level_gap", "metric", "value", "count", "probability"];
    assert_eq!(csv.header[0], "variant", "{what}: {:?}", csv.header);
    assert_eq!(
        &csv.header[csv.header.len() - tail.len()..],
        &tail[..],
        "{what}: the header must end with level_gap,metric,value,count,probability"
    );
    if let Some(paths) = paths {
        assert_eq!(
            &csv.header[1..csv.header.len() - tail.len()],
            paths,
            "{what}"
        );
    }
    let lead = csv.header.len() - tail.len();
    let [_gap, metric, value, count, prob] = std::array::from_fn(|i| lead + i);
    // A fight's file may have a side of several, whose distributions are those of sides.
    let allowed: Vec<&str> = action
        .split(", ")
        .flat_map(|a| match a {
            "brawl" | "subdue" => [a, "sides"].to_vec(),
            other => vec![other],
        })
        .flat_map(|a| distribution_metrics(a).iter().copied())
        .collect();
    let mut i = 0;
    while i < csv.rows.len() {
        let key = &csv.rows[i][..=metric];
        let mut j = i;
        while j < csv.rows.len() && &csv.rows[j][..=metric] == key {
            j += 1;
        }
        let here = format!("{what}, {key:?}");
        assert!(
            allowed.contains(&key[metric].as_str()),
            "{here}: `{}` is not a distribution of `{action}`",
            key[metric]
        );
        let mut previous: Option<i64> = None;
        let mut total = 0.0;
        for r in &csv.rows[i..j] {
            assert_integer(&r[value], &here);
            assert_integer(&r[count], &here);
            assert_round_trip(&r[prob], &here);
            let v: i64 = r[value].parse().unwrap_or(0);
            if let Some(p) = previous {
                assert!(v > p, "{here}: values must ascend ({p} then {v})");
            }
            previous = Some(v);
            assert_ne!(r[count], "0", "{here}: only values observed");
            total += r[prob].parse::<f64>().unwrap_or(0.0);
        }
        assert!(
            (total - 1.0).abs() < 1e-9,
            "{here}: probabilities add up to {total}"
        );
        i = j;
    }
}

// ---------------------------------------------------------------------------------------------------
// A minimal JSON reader, enough to prove manifest.json parses and to read its values
// ---------------------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// The number as written.
    Number(String),
    Str(String),
    Array(Vec<Json>),
    /// Keys in document order.
    Object(Vec<(String, Json)>),
}

impl Json {
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// Parses a whole JSON document (RFC 8259), or says where it is not JSON.
pub fn parse_json(text: &str) -> Result<Json, String> {
    let mut p = JsonParser {
        s: text.as_bytes(),
        i: 0,
    };
    let v = p.value()?;
    p.ws();
    if p.i != p.s.len() {
        return Err(format!("trailing text at byte {}", p.i));
    }
    Ok(v)
}

struct JsonParser<'a> {
    s: &'a [u8],
    i: usize,
}

impl JsonParser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn eat(&mut self, b: u8) -> Result<(), String> {
        self.ws();
        if self.s.get(self.i) == Some(&b) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("expected `{}` at byte {}", b as char, self.i))
        }
    }

    fn literal(&mut self, word: &str, v: Json) -> Result<Json, String> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(format!("bad literal at byte {}", self.i))
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        match self.s.get(self.i) {
            Some(b'{') => {
                self.i += 1;
                let mut entries = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Json::Object(entries));
                }
                loop {
                    self.ws();
                    let k = self.string()?;
                    self.eat(b':')?;
                    let v = self.value()?;
                    if entries.iter().any(|(e, _)| *e == k) {
                        return Err(format!("duplicate key `{k}`"));
                    }
                    entries.push((k, v));
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Json::Object(entries));
                        }
                        _ => return Err(format!("expected `,` or `}}` at byte {}", self.i)),
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Json::Array(items));
                }
                loop {
                    items.push(self.value()?);
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Json::Array(items));
                        }
                        _ => return Err(format!("expected `,` or `]` at byte {}", self.i)),
                    }
                }
            }
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'n') => self.literal("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => {
                let start = self.i;
                while self.i < self.s.len()
                    && matches!(
                        self.s[self.i],
                        b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
                    )
                {
                    self.i += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
                text.parse::<f64>()
                    .map_err(|_| format!("bad number `{text}` at byte {start}"))?;
                Ok(Json::Number(text.to_string()))
            }
            _ => Err(format!("expected a value at byte {}", self.i)),
        }
    }

    fn string(&mut self) -> Result<String, String> {
        if self.s.get(self.i) != Some(&b'"') {
            return Err(format!("expected a string at byte {}", self.i));
        }
        self.i += 1;
        let mut out = Vec::new();
        loop {
            match self.s.get(self.i) {
                None => return Err("unterminated string".to_string()),
                Some(b'"') => {
                    self.i += 1;
                    return String::from_utf8(out).map_err(|e| e.to_string());
                }
                Some(b'\\') => {
                    let e = *self.s.get(self.i + 1).ok_or("bad escape")?;
                    self.i += 2;
                    match e {
                        b'"' | b'\\' | b'/' => out.push(e),
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'u' => {
                            let hex = self.s.get(self.i..self.i + 4).ok_or("bad \\u")?;
                            let code =
                                u32::from_str_radix(std::str::from_utf8(hex).unwrap_or(""), 16)
                                    .map_err(|e| e.to_string())?;
                            self.i += 4;
                            let c = char::from_u32(code).unwrap_or('\u{fffd}');
                            out.extend(c.to_string().bytes());
                        }
                        _ => return Err(format!("bad escape at byte {}", self.i)),
                    }
                }
                Some(c) if *c < 0x20 => return Err("a control character in a string".to_string()),
                Some(c) => {
                    out.push(*c);
                    self.i += 1;
                }
            }
        }
    }
}

/// A part file (`run --shard`'s) with its body edited by `edit` and sealed again, as anyone editing a part
/// can: the checksum is the SHA-256 of the body, the compact JSON between `{"part":` and `,"checksum":`.
pub fn resealed(bytes: &[u8], edit: impl FnOnce(&str) -> String) -> Vec<u8> {
    let text = std::str::from_utf8(bytes).expect("a part is text");
    let body = text
        .strip_prefix("{\"part\":")
        .and_then(|t| t.rsplit_once(",\"checksum\":"))
        .expect("a sealed part")
        .0;
    let body = edit(body);
    let sum = subdual::digest::sha256_hex(body.as_bytes());
    format!("{{\"part\":{body},\"checksum\":\"{sum}\"}}\n").into_bytes()
}
