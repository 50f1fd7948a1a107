//! Scenario files: TOML → raw structs (serde, `deny_unknown_fields`) → a validated [`Scenario`] whose points
//! (variants × sweep grid) are each resolved once into a prepared action, or an ineligibility reason.
//!
//! Validation is in two stages, as ripgrep configures itself: toml and serde check the syntax, the keys and
//! the types of the file as written (with spans); then every point is merged (base, variant, sweep values),
//! resolved against the rules, and any error is traced back to the text that set the faulty field.

pub mod action_options;
pub mod chart;
pub mod combatant;
pub mod describe;
pub mod locate;
pub mod schema;
pub(crate) mod sides;
pub mod sweep;
pub mod tune;

use std::borrow::Cow;
use std::io::Read;
use std::path::Path;

use serde::Deserialize;
use toml::de::{DeTable, Deserializer};
use toml::{Table, Value};

use crate::engine::Runnable;
use crate::rules::action::{Action, Prepared, Recipe};
use crate::rules::fight::gang::{self, Entry, Sides, Target};
use crate::rules::options::RuleOptions;
use crate::rules::reads::{self, Role};
use crate::rules::{Ineligible, Matchup};
use crate::stats::metrics;
use crate::stats::paired::{self, Comparison};
pub use action_options::ActionOptionsSpec;
use chart::{Chart, ChartSpec};
pub use combatant::{CombatantSpec, SpecError};
use locate::{ScenarioError, Seg, Source, did_you_mean};
use sweep::{SIDES, SweepValue};

/// Trials per point when neither the file nor `--trials` says.
pub const DEFAULT_TRIALS: u64 = 100_000;

/// The file as written, checked for syntax, keys and types. Its doc comments are the scenario schema's
/// descriptions ([`schema`]), so they speak to the person writing the file.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "subdual scenario")]
pub(crate) struct RawScenario {
    /// Shown on charts and tables (default: the file's stem).
    title: Option<String>,
    /// What is studied: one single action, or a fight round by round.
    action: Action,
    /// Trials per variant and sweep point; `--trials` overrides (default 100000).
    #[schemars(range(min = 1))]
    trials: Option<u64>,
    /// The seed of every trial's dice; `--seed` overrides (default 0, never the clock).
    seed: Option<u64>,
    /// The confidence of every interval (default 0.95).
    #[schemars(extend("exclusiveMinimum" = 0, "exclusiveMaximum" = 1))]
    confidence: Option<f64>,
    /// The variant every other one is compared with in differences.csv (default: the first).
    baseline: Option<String>,
    /// Who acts: a character (class, level, race) or a monster of the catalog.
    #[serde(default)]
    #[allow(dead_code)] // read again from the merged tables; kept here for the type check
    attacker: CombatantSpec,
    /// Who is acted upon.
    #[serde(default)]
    #[allow(dead_code)]
    victim: CombatantSpec,
    /// A side of several, in place of `[attacker]`: one table per kind of member, each a combatant with
    /// `count` and `target`.
    #[serde(default)]
    #[allow(dead_code)]
    attackers: Vec<sides::EntrySpec>,
    /// The victims as a side of several, in place of `[victim]`.
    #[serde(default)]
    #[allow(dead_code)]
    victims: Vec<sides::EntrySpec>,
    /// Options of the action; an option the action does not use is an error.
    #[serde(default)]
    #[allow(dead_code)]
    action_options: ActionOptionsSpec,
    /// Rule switches: where designers read the text differently.
    #[serde(default)]
    #[allow(dead_code)]
    rules: RuleOptions,
    /// Parameters to sweep: a cartesian product, the first axis slowest.
    #[serde(default)]
    #[schemars(schema_with = "crate::scenario::schema::sweep_table")]
    sweep: Table,
    /// Rule variants to compare; without any, one variant named "base".
    #[serde(default)]
    variant: Vec<RawVariant>,
    /// Charts to draw; without any, the headline metric over the first sweep axis.
    #[serde(default)]
    chart: Vec<ChartSpec>,
    /// Numbers to solve for: the value of a parameter that brings a metric to a target.
    #[serde(default)]
    tune: Vec<tune::TuneSpec>,
}

/// A variant: its name, and the tables it overrides, merged key by key over the base.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // the type check is the point; values are merged from the TOML tables
pub(crate) struct RawVariant {
    /// The variant's name, unique in the file.
    name: String,
    /// Its own action (default: the file's). Such a variant does not inherit the file's
    /// `[action_options]`, which belong to the file's action.
    action: Option<Action>,
    /// The baseline's metric that this variant's headline is compared with in differences.csv, when the
    /// baseline's action names it differently (`p_knockout` for a sap's `p_out`).
    baseline_metric: Option<String>,
    /// Overrides of the attacker.
    attacker: Option<CombatantSpec>,
    /// Overrides of the victim.
    victim: Option<CombatantSpec>,
    /// Overrides of every entry of `[[attackers]]` (a table: its keys, `count` and `target` too, are set on
    /// each entry).
    attackers: Option<sides::EntrySpec>,
    /// Overrides of every entry of `[[victims]]`.
    victims: Option<sides::EntrySpec>,
    /// Overrides of the action options.
    action_options: Option<ActionOptionsSpec>,
    /// Overrides of the rule switches.
    rules: Option<RuleOptions>,
}

/// One sweep axis.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// The path, as written (`attacker.level`).
    pub path: String,
    /// Its values, in order.
    pub values: Vec<SweepValue>,
}

/// One variant at one sweep point, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// Index into [`Scenario::variants`].
    pub variant: usize,
    /// The value of every axis at this point.
    pub values: Vec<SweepValue>,
    /// Attacker level minus victim level.
    pub level_gap: i32,
    /// The variant's action.
    pub action: Action,
    /// The action as this point sets it, prepared when it runs ([`Point::prepare`]), or why the rules
    /// forbid it here (found when the scenario is read, by preparing it once).
    pub recipe: Result<Recipe, Ineligible>,
    /// The action prepared, kept from the reading in a study of at most [`KEPT_POINTS`] points, so that
    /// it is prepared once; `None` in a larger study, whose points are prepared where they are used.
    pub kept: Option<Box<Prepared>>,
}

/// The most points a study keeps prepared from its reading ([`Point::kept`]): some 18 MB of fights at most
/// (a prepared fight holds both sides' face tables, some 18 KB), while a study of 100,000 points would hold
/// 1.8 GB. A study of more prepares each point where it is used (each work item, and the summaries one
/// point at a time): its memory grows with its workers, not its points, for a few preparations more.
pub const KEPT_POINTS: usize = 1024;

impl Point {
    /// The action ready to run (the one kept, else prepared anew from its recipe), or why the rules forbid
    /// it here.
    pub fn prepare(&self) -> Result<Cow<'_, Prepared>, Ineligible> {
        match (&self.recipe, &self.kept) {
            (Err(why), _) => Err(why.clone()),
            (Ok(_), Some(kept)) => Ok(Cow::Borrowed(kept)),
            (Ok(recipe), None) => recipe.prepare().map(Cow::Owned),
        }
    }

    /// What the point's metrics read of its action besides its tallies: its prepared action when its
    /// metrics read a fact of it, else nothing prepared ([`metrics::reads_facts`]); or why the rules forbid
    /// it here.
    pub fn facts(&self) -> Result<metrics::PointFacts<'_>, Ineligible> {
        match &self.recipe {
            Err(why) => Err(why.clone()),
            Ok(_) if !metrics::reads_facts(self.action) => Ok(metrics::PointFacts::Unread),
            Ok(_) => self.prepare().map(metrics::PointFacts::Prepared),
        }
    }

    /// The point as an engine group runs it: its kept action, else its recipe (`None` when ineligible).
    pub fn runnable(&self) -> Option<Runnable<'_>> {
        match (&self.recipe, &self.kept) {
            (Err(_), _) => None,
            (Ok(_), Some(kept)) => Some(Runnable::Prepared(kept)),
            (Ok(recipe), None) => Some(Runnable::Recipe(recipe)),
        }
    }

    /// The rules allow the action here.
    pub fn eligible(&self) -> bool {
        self.recipe.is_ok()
    }
}

/// A variant compared with the baseline in differences.csv.
#[derive(Debug, Clone, PartialEq)]
pub struct Pairing {
    /// Index into [`Scenario::variants`].
    pub variant: usize,
    /// The metrics compared.
    pub comparisons: Vec<Comparison>,
}

/// A validated scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// The file as named on the command line.
    pub file: String,
    /// The file's stem: the output folder's name.
    pub stem: String,
    /// SHA-256 of the file's bytes, for the manifest.
    pub sha256: String,
    /// The file's text as written: the report shows it, its leading comments describe the study
    /// ([`Scenario::description`]), and a shard's part carries it, so a merge rebuilds the very same study.
    pub text: String,
    /// Title for charts and tables.
    pub title: String,
    /// What every point holds fixed, in a few words: the attacker and the victim less what a sweep or a
    /// variant changes (charts print it under their title).
    pub setting: String,
    /// The file's action (a variant may set its own: [`Point::action`], [`Scenario::actions`]).
    pub action: Action,
    /// Each variant's action.
    pub actions: Vec<Action>,
    /// The variant the others are compared with.
    pub baseline: usize,
    /// Every other variant against the baseline (empty with one variant).
    pub pairings: Vec<Pairing>,
    /// Trials per point.
    pub trials: u64,
    /// The seed.
    pub seed: u64,
    /// Confidence level of every interval.
    pub confidence: f64,
    /// Sweep axes in file order, the first slowest.
    pub axes: Vec<Axis>,
    /// Variant names in file order ("base" when there are none).
    pub variants: Vec<String>,
    /// Points: variants as listed, then the sweep grid with the last axis fastest.
    pub points: Vec<Point>,
    /// Charts to draw.
    pub charts: Vec<Chart>,
    /// Tunes to solve.
    pub tunes: Vec<tune::Tune>,
    /// What the file sets and no point reads: each place that sets a combatant field which no point it
    /// reaches reads (docs/scenarios.md "Fields an action does not read"). Located as errors are; `check`
    /// and `run` print them as warnings, and the report shows them.
    pub warnings: Vec<ScenarioError>,
}

impl Scenario {
    /// Reads and validates a scenario file.
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        let file = path.display().to_string();
        let unreadable = |message: String| ScenarioError {
            file: file.clone(),
            line: None,
            column: 0,
            message,
            source_line: None,
            help: None,
        };
        // At most one byte past the cap is read, so an endless file or a pipe cannot exhaust memory.
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
            .map_err(|e| unreadable(format!("cannot read the scenario: {e}")))?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(unreadable(format!(
                "the file is larger than {} KiB: a scenario is a few lines of text (is this the right file?)",
                MAX_FILE_BYTES / 1024
            )));
        }
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "scenario".to_string());
        Scenario::parse(&file, &stem, &bytes)
    }

    /// Validates a scenario from its bytes; `file` names it in messages, `stem` names its output folder.
    pub fn parse(file: &str, stem: &str, bytes: &[u8]) -> Result<Scenario, ScenarioError> {
        if let Some(problem) = stem_problem(stem) {
            return Err(ScenarioError {
                file: file.to_string(),
                line: None,
                column: 0,
                message: format!("the file's name cannot name its output folder: {problem}"),
                source_line: None,
                help: Some("rename the file to a plain name such as `my-study.toml`".to_string()),
            });
        }
        let text = std::str::from_utf8(bytes).map_err(|e| {
            let valid = &bytes[..e.valid_up_to()];
            let line = valid.iter().filter(|b| **b == b'\n').count() + 1;
            ScenarioError {
                file: file.to_string(),
                line: Some(line),
                column: 1,
                message:
                    "the file is not UTF-8 text: expected a TOML scenario (is it a binary file?)"
                        .to_string(),
                source_line: None,
                help: None,
            }
        })?;
        if text.contains('\0') {
            let line = text[..text.find('\0').unwrap_or(0)].matches('\n').count() + 1;
            return Err(ScenarioError {
                file: file.to_string(),
                line: Some(line),
                column: 1,
                message:
                    "the file holds a NUL byte: expected a TOML scenario (is it a binary file?)"
                        .to_string(),
                source_line: None,
                help: None,
            });
        }
        // The text is parsed once: the spans errors point with, the plain tables that variants and sweeps
        // merge, and the typed file are all read from this one document.
        let document =
            DeTable::parse(text).map_err(|e| Source::spanless(file, text).from_toml(&e))?;
        let table = Table::deserialize(Deserializer::from(document.clone()))
            .map_err(|e| Source::spanless(file, text).from_toml(&e))?;
        if table.is_empty() {
            // Shown with the file's own first line (a comment, or nothing), which the message names.
            return Err(Source::spanless(file, text).error_at(
                None,
                "the scenario is empty: expected at least `action` and the `[attacker]` and `[victim]` tables",
                Some("start from a file in scenarios/, such as scenarios/mugging-level-gap.toml".to_string()),
            ));
        }
        let source = Source::of(file, text, document.get_ref());
        sides::check_entries(&document, &source)?;
        let raw = RawScenario::deserialize(Deserializer::from(document)).map_err(|e| {
            let mut err = source.from_toml(&e);
            if err.message.contains("missing field `action`") {
                err.help = Some(format!(
                    "add a line such as `action = \"mug\"` (one of: {})",
                    Action::ALL.map(|a| a.name()).join(", ")
                ));
            }
            err
        })?;
        Builder {
            source: &source,
            table: &table,
            plural: SIDES.map(|(_, plural)| table.contains_key(plural)),
            raw,
        }
        .build(stem, bytes, text)
    }

    /// The sweep paths, in order.
    pub fn paths(&self) -> Vec<String> {
        self.axes.iter().map(|a| a.path.clone()).collect()
    }

    /// Points that will run.
    pub fn eligible_points(&self) -> usize {
        self.points.iter().filter(|p| p.eligible()).count()
    }

    /// Points per variant (the sweep grid).
    pub fn grid(&self) -> usize {
        self.points.len() / self.variants.len().max(1)
    }

    /// The value of every sweep axis at grid point `g` (the last axis fastest).
    pub fn grid_values(&self, g: usize) -> Vec<&SweepValue> {
        picks_of(&self.axes, g)
            .into_iter()
            .zip(&self.axes)
            .map(|(k, a)| &a.values[k])
            .collect()
    }

    /// The point of variant `variant` whose axis `a` takes its value number `picks[a]`: the inverse of
    /// [`Scenario::grid_values`], in the same layout (variants outermost, the last axis fastest).
    pub fn point_index(&self, variant: usize, picks: &[usize]) -> usize {
        let g = picks
            .iter()
            .zip(&self.axes)
            .fold(0, |g, (&k, axis)| g * axis.values.len() + k);
        variant * self.grid() + g
    }

    /// The distinct actions of the variants, the file's first.
    pub fn distinct_actions(&self) -> Vec<Action> {
        distinct(self.action, &self.actions)
    }

    /// The comment block the file opens with, as paragraphs: the shipped scenarios state their question
    /// there, so the report shows it under the title (docs/scenarios.md "Outputs"). Blank lines
    /// before it are skipped; a line of `#` alone separates paragraphs; the first line that is not a
    /// comment ends it. Empty when the file does not open with a comment.
    pub fn description(&self) -> Vec<String> {
        let mut paragraphs = vec![String::new()];
        for line in self
            .text
            .lines()
            .map(str::trim)
            .skip_while(|l| l.is_empty())
        {
            let Some(comment) = line.strip_prefix('#') else {
                break;
            };
            let words = comment.trim();
            let last = paragraphs.last_mut().expect("never empty");
            if words.is_empty() {
                if !last.is_empty() {
                    paragraphs.push(String::new());
                }
            } else {
                if !last.is_empty() {
                    last.push(' ');
                }
                last.push_str(words);
            }
        }
        paragraphs.retain(|p| !p.is_empty());
        paragraphs
    }
}

/// A place in the file that sets a combatant field, and what the points it reaches make of it.
struct FieldUse<'p> {
    role: Role,
    field: &'static str,
    /// Where the file sets it: the base's key, a variant's, or a sweep's.
    path: Vec<Seg<'p>>,
    /// Some point reads it.
    read: bool,
    /// The actions that leave it unread, each once, with the part of it that would read it (if any).
    unread: Vec<(Action, Option<reads::Read>)>,
}

struct Builder<'a> {
    source: &'a Source,
    table: &'a Table,
    /// Each side is written as entries (`[[attackers]]`) rather than as one combatant (`[attacker]`).
    plural: [bool; 2],
    raw: RawScenario,
}

/// A variant's tables, base and variant merged: each side as its entries' tables (one for a side written
/// `[attacker]`), then `[action_options]` and `[rules]`.
#[derive(Clone)]
struct Sections {
    sides: [Vec<Table>; 2],
    action_options: Table,
    rules: Table,
}

/// An entry at one point: its combatant's fields, its count, its target policy.
struct EntryAt {
    fields: Table,
    count: u32,
    target: Target,
}

impl Builder<'_> {
    fn error(
        &self,
        path: &[Seg<'_>],
        message: impl Into<String>,
        help: Option<String>,
    ) -> ScenarioError {
        self.source.error_at_path(path, message, help)
    }

    fn build(self, stem: &str, bytes: &[u8], text: &str) -> Result<Scenario, ScenarioError> {
        if let Some((path, message)) = text_problem(self.table, &mut Vec::new()) {
            return Err(self.error(&path, message, None));
        }
        self.check_names()?;
        self.check_forms()?;
        let raw = &self.raw;
        let action = raw.action;
        let trials = raw.trials.unwrap_or(DEFAULT_TRIALS);
        if trials == 0 {
            return Err(self.error(&[Seg::Key("trials")], "trials must be at least 1", None));
        }
        if trials > crate::engine::MAX_TRIALS {
            return Err(self.error(
                &[Seg::Key("trials")],
                format!(
                    "trials = {trials} is too many: at most 2^40 = {} a point (each trial owns its own stream of dice)",
                    crate::engine::MAX_TRIALS
                ),
                None,
            ));
        }
        let confidence = raw.confidence.unwrap_or(0.95);
        if !(confidence > 0.0 && confidence < 1.0) {
            return Err(self.error(
                &[Seg::Key("confidence")],
                format!("confidence {confidence} is out of range: expected a number between 0 and 1, such as 0.95"),
                None,
            ));
        }
        let mut variants = self.variants()?;
        let actions: Vec<Action> = variants.iter().map(|(_, _, a)| *a).collect();
        let baseline = self.baseline(&variants)?;
        self.check_action_options(action, &actions)?;
        let axes = self.axes(action)?;
        // Checked: four axes of 100,000 values make 10^20 points, which wraps a 64-bit product.
        let total = axes
            .iter()
            .try_fold(variants.len(), |n, a| n.checked_mul(a.values.len()));
        if total.is_none_or(|total| total > sweep::MAX_POINTS) {
            let total = axes
                .iter()
                .fold(variants.len() as f64, |n, a| n * a.values.len() as f64);
            return Err(self.error(
                &[Seg::Key("sweep")],
                format!(
                    "{total} points (variants × sweep values): at most {}",
                    sweep::MAX_POINTS
                ),
                None,
            ));
        }
        // Decided once for the study: when some point has a side of several, every fight of the study is
        // fought by the round of sides, so that its points report the same metrics.
        let several = self.several(&variants, &axes)?;
        let action = if several { action.of_sides() } else { action };
        for (_, _, a) in &mut variants {
            if several {
                *a = a.of_sides();
            }
        }
        let actions: Vec<Action> = variants.iter().map(|(_, _, a)| *a).collect();
        let pairings = self.pairings(&variants, baseline)?;
        let title = raw.title.clone().unwrap_or_else(|| stem.to_string());
        let distinct_actions = distinct(action, &actions);
        let charts = self.charts(
            &distinct_actions,
            &axes,
            variants.len(),
            &title,
            &variants[baseline].0,
        )?;
        let (points, warnings) = self.points(&variants, &axes, several)?;
        let tunes = self.tunes(&variants, baseline, &axes, several)?;
        if let Some(first) = points.first()
            && !points.iter().any(Point::eligible)
        {
            let reason = first
                .recipe
                .as_ref()
                .err()
                .map(|r| r.to_string())
                .unwrap_or_default();
            return Err(self.error(
                &[Seg::Key("action")],
                format!("every point is ineligible for action `{action}`: {reason}"),
                None,
            ));
        }
        Ok(Scenario {
            file: self.source.file().to_string(),
            stem: stem.to_string(),
            sha256: crate::digest::sha256_hex(bytes),
            text: text.to_string(),
            title,
            setting: describe::setting(self.table, &axes),
            action,
            actions,
            baseline,
            pairings,
            trials,
            seed: raw.seed.unwrap_or(0),
            confidence,
            axes,
            variants: variants.iter().map(|(name, _, _)| name.clone()).collect(),
            points,
            charts,
            tunes,
            warnings,
        })
    }

    /// Names that land in CSV cells besides the variants' ([`name_problem`]): the combatants', in the base
    /// and in every variant, and every text a sweep sets (a sweep column).
    fn check_names(&self) -> Result<(), ScenarioError> {
        let mut places: Vec<(Vec<Seg<'_>>, &Value)> = Vec::new();
        for side in ["attacker", "victim"] {
            if let Some(name) = self.table.get(side).and_then(|t| t.get("name")) {
                places.push((vec![Seg::Key(side), Seg::Key("name")], name));
            }
        }
        for (_, side) in SIDES {
            if let Some(Value::Array(entries)) = self.table.get(side) {
                for (i, entry) in entries.iter().enumerate() {
                    if let Some(name) = entry.get("name") {
                        places.push((vec![Seg::Key(side), Seg::Index(i), Seg::Key("name")], name));
                    }
                }
            }
        }
        if let Some(Value::Array(variants)) = self.table.get("variant") {
            for (i, variant) in variants.iter().enumerate() {
                for side in ["attacker", "victim", "attackers", "victims"] {
                    if let Some(name) = variant.get(side).and_then(|t| t.get("name")) {
                        let path = vec![
                            Seg::Key("variant"),
                            Seg::Index(i),
                            Seg::Key(side),
                            Seg::Key("name"),
                        ];
                        places.push((path, name));
                    }
                }
            }
        }
        if let Some(Value::Table(sweep)) = self.table.get("sweep") {
            for (path, axis) in sweep {
                if let Value::Array(items) = axis {
                    for (i, item) in items.iter().enumerate() {
                        places.push((vec![Seg::Key("sweep"), Seg::Key(path), Seg::Index(i)], item));
                    }
                }
            }
        }
        for (path, value) in places {
            if let Some(problem) = value.as_str().and_then(name_problem) {
                return Err(self.error(
                    &path,
                    format!("`{}` {problem}", value.as_str().unwrap_or_default()),
                    None,
                ));
            }
        }
        Ok(())
    }

    /// One form a side: `[attacker]` or `[[attackers]]`, with at least one entry; a variant sets a side
    /// written as entries with `[variant.attackers]`, a table whose keys go to every entry.
    fn check_forms(&self) -> Result<(), ScenarioError> {
        for (s, (one, several)) in SIDES.into_iter().enumerate() {
            if !self.plural[s] {
                continue;
            }
            if self.table.contains_key(one) {
                return Err(self.error(
                    &[Seg::Key(one)],
                    format!("the {several} are written twice, as `[{one}]` and as `[[{several}]]`: a side takes one form"),
                    Some(format!("keep `[[{several}]]` (an entry with `count = 1` is `[{one}]`), or `[{one}]` alone")),
                ));
            }
            if let Some(Value::Array(entries)) = self.table.get(several)
                && entries.is_empty()
            {
                return Err(self.error(
                    &[Seg::Key(several)],
                    format!("`{several}` has no entries: a side has at least one member"),
                    Some(format!("write a `[[{several}]]` table per kind of member")),
                ));
            }
            if let Some(Value::Array(variants)) = self.table.get("variant") {
                for (i, variant) in variants.iter().enumerate() {
                    if variant.get(one).is_some() {
                        return Err(self.error(
                            &[Seg::Key("variant"), Seg::Index(i), Seg::Key(one)],
                            format!("the file writes its {several} as `[[{several}]]`: a variant sets them with `[variant.{several}]`"),
                            Some(format!("rename `[variant.{one}]` to `[variant.{several}]` (its keys are set on every entry)")),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// Variant names with their override tables and actions (one "base" variant when the file has none).
    fn variants(&self) -> Result<Vec<(String, Table, Action)>, ScenarioError> {
        let tables: Vec<Table> = match self.table.get("variant") {
            Some(Value::Array(items)) => {
                items.iter().filter_map(|v| v.as_table().cloned()).collect()
            }
            _ => Vec::new(),
        };
        if tables.is_empty() {
            return Ok(vec![("base".to_string(), Table::new(), self.raw.action)]);
        }
        let mut out: Vec<(String, Table, Action)> = Vec::new();
        for (i, (raw, table)) in self.raw.variant.iter().zip(tables).enumerate() {
            let name = raw.name.trim().to_string();
            let path = [Seg::Key("variant"), Seg::Index(i), Seg::Key("name")];
            if name.is_empty() {
                return Err(self.error(&path, "a variant needs a non-empty name", None));
            }
            if let Some(problem) = name_problem(&name) {
                return Err(self.error(&path, format!("variant name `{name}` {problem}"), None));
            }
            if out.iter().any(|(n, _, _)| *n == name) {
                return Err(self.error(
                    &path,
                    format!("two variants are named `{name}`: names must differ"),
                    None,
                ));
            }
            out.push((name, table, raw.action.unwrap_or(self.raw.action)));
        }
        Ok(out)
    }

    /// The index of `baseline` (default: the first variant).
    fn baseline(&self, variants: &[(String, Table, Action)]) -> Result<usize, ScenarioError> {
        let Some(name) = &self.raw.baseline else {
            return Ok(0);
        };
        variants
            .iter()
            .position(|(n, _, _)| n == name.trim())
            .ok_or_else(|| {
                let names: Vec<&str> = variants.iter().map(|(n, _, _)| n.as_str()).collect();
                self.error(
                    &[Seg::Key("baseline")],
                    format!(
                        "baseline `{name}` is not a variant (the variants are: {})",
                        names.join(", ")
                    ),
                    did_you_mean(name, names.iter().copied()),
                )
            })
    }

    /// Every other variant against the baseline, on the metrics both report (and `baseline_metric`).
    fn pairings(
        &self,
        variants: &[(String, Table, Action)],
        baseline: usize,
    ) -> Result<Vec<Pairing>, ScenarioError> {
        let base_action = variants[baseline].2;
        let mut out = Vec::new();
        for (i, (_, _, action)) in variants.iter().enumerate() {
            let named = self
                .raw
                .variant
                .get(i)
                .and_then(|v| v.baseline_metric.as_deref());
            if i == baseline {
                if named.is_some() {
                    return Err(self.error(
                        &[Seg::Key("variant"), Seg::Index(i), Seg::Key("baseline_metric")],
                        "the baseline is not compared with itself: `baseline_metric` belongs on another variant",
                        None,
                    ));
                }
                continue;
            }
            if let Some(name) = named
                && let Some(problem) = paired::baseline_metric_problem(*action, base_action, name)
            {
                return Err(self.error(
                    &[
                        Seg::Key("variant"),
                        Seg::Index(i),
                        Seg::Key("baseline_metric"),
                    ],
                    problem,
                    did_you_mean(name, metrics::summary_metrics(base_action)),
                ));
            }
            out.push(Pairing {
                variant: i,
                comparisons: paired::comparisons(*action, base_action, named),
            });
        }
        Ok(out)
    }

    /// `[action_options]` (base and variants) may set only what the action reads, within range: the file's
    /// against the file's action, a variant's against its own.
    fn check_action_options(
        &self,
        action: Action,
        actions: &[Action],
    ) -> Result<(), ScenarioError> {
        let mut places: Vec<(Vec<Seg<'_>>, &Table, Action)> = Vec::new();
        if let Some(Value::Table(t)) = self.table.get("action_options") {
            places.push((vec![Seg::Key("action_options")], t, action));
        }
        if let Some(Value::Array(items)) = self.table.get("variant") {
            for (i, item) in items.iter().enumerate() {
                if let Some(Value::Table(t)) = item.get("action_options") {
                    places.push((
                        vec![
                            Seg::Key("variant"),
                            Seg::Index(i),
                            Seg::Key("action_options"),
                        ],
                        t,
                        actions.get(i).copied().unwrap_or(action),
                    ));
                }
            }
        }
        for (prefix, table, action) in places {
            for (key, value) in table {
                let mut path = prefix.clone();
                path.push(Seg::Key(key));
                self.check_action_option(action, key, value, &path)?;
            }
        }
        Ok(())
    }

    /// Whether `[action_options]` may hold `key = value` for `action`: the message and a suggestion when
    /// not. The caller decides where the error points.
    fn action_option_problem(
        action: Action,
        key: &str,
        value: &Value,
    ) -> Option<(String, Option<String>)> {
        let used = action.options_used();
        if !used.contains(&key) {
            let reads = if used.is_empty() {
                "none".to_string()
            } else {
                used.join(", ")
            };
            return Some((
                format!(
                    "action option `{key}` is not used by action `{action}` (it reads: {reads})"
                ),
                Some("remove it, or change `action`".to_string()),
            ));
        }
        match key {
            "hands" if !matches!(value.as_integer(), Some(1 | 2)) => Some((
                format!("hands = {value} is out of range: expected 1 or 2"),
                None,
            )),
            "max_rounds" if !matches!(value.as_integer(), Some(1..=10_000)) => Some((
                format!("max_rounds = {value} is out of range: expected 1 to 10000"),
                None,
            )),
            "bind_rounds" if !matches!(value.as_integer(), Some(0..=10_000)) => Some((
                format!("bind_rounds = {value} is out of range: expected 0 to 10000"),
                None,
            )),
            _ => None,
        }
    }

    fn check_action_option(
        &self,
        action: Action,
        key: &str,
        value: &Value,
        path: &[Seg<'_>],
    ) -> Result<(), ScenarioError> {
        match Self::action_option_problem(action, key, value) {
            Some((message, help)) => Err(self.error(path, message, help)),
            None => Ok(()),
        }
    }

    /// Why a path into a side does not fit how the file writes it: `attacker.level` when the side is
    /// `[[attackers]]`, or an entry beyond the last.
    fn side_path_problem(&self, path: &str) -> Option<(String, Option<String>)> {
        let side = sweep::side_path(path)?;
        let (one, several) = SIDES[side.side];
        let rest = side.rest.join(".");
        if !side.plural && self.plural[side.side] {
            return Some((
                format!("`{path}`: the file writes its {several} as `[[{several}]]`"),
                Some(format!(
                    "write `{several}.{rest}` (every entry) or `{several}.1.{rest}` (the first)"
                )),
            ));
        }
        let entries = match self.table.get(several) {
            Some(Value::Array(items)) => items.len(),
            _ => 1,
        };
        match side.entry {
            Some(n) if side.plural && n >= entries => Some((
                format!(
                    "`{path}`: the {several} have {entries} {} (`{one}` counts as one)",
                    if entries == 1 { "entry" } else { "entries" }
                ),
                Some(format!(
                    "entries are numbered from 1 in file order: `{several}.1.{rest}` to `{several}.{entries}.{rest}`, or `{several}.{rest}` for every one"
                )),
            )),
            Some(_) | None => None,
        }
    }

    fn axes(&self, action: Action) -> Result<Vec<Axis>, ScenarioError> {
        let mut axes = Vec::new();
        for (path, value) in &self.raw.sweep {
            let key_path = [Seg::Key("sweep"), Seg::Key(path)];
            let key_error = |message: String, help: Option<String>| {
                self.source
                    .error_at(self.source.key_span(&key_path), message, help)
            };
            if let Err(e) = sweep::check_path(path) {
                return Err(key_error(
                    e.message,
                    did_you_mean(&e.word, e.candidates.iter().copied()),
                ));
            }
            if let Some((message, help)) = self.side_path_problem(path) {
                return Err(key_error(message, help));
            }
            let values = match value {
                Value::Array(items) => {
                    if items.is_empty() {
                        return Err(self.error(
                            &key_path,
                            format!("sweep `{path}` has no values"),
                            None,
                        ));
                    }
                    let mut values = Vec::new();
                    for (i, item) in items.iter().enumerate() {
                        let v = SweepValue::from_toml(item).ok_or_else(|| {
                            self.error(
                                &[Seg::Key("sweep"), Seg::Key(path), Seg::Index(i)],
                                format!(
                                    "a sweep value must be a number, a string or a boolean, not {}",
                                    item.type_str()
                                ),
                                None,
                            )
                        })?;
                        values.push(v);
                    }
                    values
                }
                Value::Table(range) => {
                    sweep::range_values(range).map_err(|m| self.error(&key_path, m, None))?
                }
                other => {
                    return Err(self.error(
                        &key_path,
                        format!(
                            "sweep `{path}` must be a list of values or a range such as {{ from = 1, to = 20 }}, not {}",
                            other.type_str()
                        ),
                        None,
                    ));
                }
            };
            if let Some(option) = path.strip_prefix("action_options.") {
                if !action.options_used().contains(&option) {
                    // The whole axis is at fault, not one of its values: point at its key.
                    if let Some((message, help)) =
                        Self::action_option_problem(action, option, &values[0].to_toml())
                    {
                        return Err(key_error(message, help));
                    }
                }
                for (i, value) in values.iter().enumerate() {
                    let value_path = [Seg::Key("sweep"), Seg::Key(path), Seg::Index(i)];
                    let at = if self.source.value_span(&value_path).is_some() {
                        &value_path[..]
                    } else {
                        &key_path[..]
                    };
                    self.check_action_option(action, option, &value.to_toml(), at)?;
                }
            }
            axes.push(Axis {
                path: path.clone(),
                values,
            });
        }
        Ok(axes)
    }

    fn charts(
        &self,
        actions: &[Action],
        axes: &[Axis],
        variants: usize,
        title: &str,
        baseline: &str,
    ) -> Result<Vec<Chart>, ScenarioError> {
        let mut charts = Vec::new();
        for (i, spec) in self.raw.chart.iter().enumerate() {
            let chart = spec.check(actions, axes, variants, title).map_err(|e| {
                let help = e
                    .help
                    .clone()
                    .or_else(|| did_you_mean(&e.word, e.candidates.iter().map(String::as_str)));
                self.error(
                    &[Seg::Key("chart"), Seg::Index(i), Seg::Key(e.field)],
                    e.message,
                    help,
                )
            })?;
            if !valid_file_name(&chart.file) {
                return Err(self.error(
                    &[Seg::Key("chart"), Seg::Index(i), Seg::Key("file")],
                    format!("chart file `{}` must be a plain name (letters, digits, `-`, `_`, `.`), no folders", chart.file),
                    None,
                ));
            }
            if charts.iter().any(|c: &Chart| c.file == chart.file) {
                return Err(self.error(
                    &[Seg::Key("chart"), Seg::Index(i)],
                    format!(
                        "two charts write `{}`: give one a different `file`",
                        chart.file
                    ),
                    None,
                ));
            }
            charts.push(chart);
        }
        if charts.is_empty() {
            charts.extend(chart::default_chart(actions, axes, variants, title));
        }
        let written: Vec<bool> = self.raw.chart.iter().map(|c| c.title.is_some()).collect();
        chart::default_titles(&mut charts, &written, title, baseline);
        Ok(charts)
    }

    /// Every point, and the warnings of the combatant fields that the file sets and no point reads: a field
    /// set once for several variants, and read by one of them, is not ignored.
    fn points(
        &self,
        variants: &[(String, Table, Action)],
        axes: &[Axis],
        several: bool,
    ) -> Result<(Vec<Point>, Vec<ScenarioError>), ScenarioError> {
        let grid: usize = axes.iter().map(|a| a.values.len()).product();
        let mut points = Vec::with_capacity(variants.len() * grid);
        // Decided before the first point, so that a large study never holds its points prepared.
        let keep = variants.len() * grid <= KEPT_POINTS;
        let mut uses = Vec::new();
        for (v, (_, overrides, action)) in variants.iter().enumerate() {
            let sections = self.sections(*action, overrides);
            for flat in 0..grid {
                let picks = picks_of(axes, flat);
                let mut point =
                    self.point(*action, v, &sections, axes, &picks, several, &mut uses)?;
                // Past the bound no point is kept, each dropped as soon as it is made: the study prepares
                // them where it uses them.
                if !keep {
                    point.kept = None;
                }
                if let (Ok(recipe), Some(Ok(last))) =
                    (&mut point.recipe, points.last().map(|p: &Point| &p.recipe))
                {
                    for (side, before) in recipe.sides.sides.iter_mut().zip(&last.sides.sides) {
                        if side == before {
                            *side = std::sync::Arc::clone(before);
                        }
                    }
                }
                points.push(point);
            }
        }
        let warnings = uses
            .iter()
            .filter(|u| !u.read)
            .map(|u| {
                let (message, help) = combatant::unread_warning(u.role, u.field, &u.unread);
                self.error(&u.path, message, help)
            })
            .collect();
        Ok((points, warnings))
    }

    /// Every `[[tune]]`, its candidates resolved at every sweep point it covers.
    fn tunes(
        &self,
        variants: &[(String, Table, Action)],
        baseline: usize,
        axes: &[Axis],
        several: bool,
    ) -> Result<Vec<tune::Tune>, ScenarioError> {
        let mut tunes: Vec<tune::Tune> = Vec::new();
        let names: Vec<&str> = variants.iter().map(|(n, _, _)| n.as_str()).collect();
        let find_variant = |name: &str, field: &'static str, i: usize| {
            names.iter().position(|n| *n == name.trim()).ok_or_else(|| {
                self.error(
                    &[Seg::Key("tune"), Seg::Index(i), Seg::Key(field)],
                    format!(
                        "`{name}` is not a variant (the variants are: {})",
                        names.join(", ")
                    ),
                    did_you_mean(name, names.iter().copied()),
                )
            })
        };
        // Candidate points resolved by the tunes before this one.
        let mut resolved = 0;
        for (i, spec) in self.raw.tune.iter().enumerate() {
            let at_field =
                |field: &'static str| vec![Seg::Key("tune"), Seg::Index(i), Seg::Key(field)];
            let fail = |field: &'static str, message: String, help: Option<String>| {
                self.error(&at_field(field), message, help)
            };
            let parameter = spec.parameter.trim().to_string();
            if let Err(e) = sweep::check_path(&parameter) {
                return Err(fail(
                    "parameter",
                    e.message,
                    did_you_mean(&e.word, e.candidates.iter().copied()),
                ));
            }
            if let Some((message, help)) = self.side_path_problem(&parameter) {
                return Err(fail("parameter", message, help));
            }
            if axes.iter().any(|a| a.path == parameter) {
                return Err(fail(
                    "parameter",
                    format!(
                        "`{parameter}` is both swept and tuned: remove it from [sweep], the tune tries every value of its range"
                    ),
                    None,
                ));
            }
            let values = sweep::range_values(&spec.range).map_err(|m| fail("range", m, None))?;
            let matched = spec
                .match_variant
                .as_deref()
                .map(|name| find_variant(name, "match", i))
                .transpose()?;
            let variant = match &spec.variant {
                Some(name) => find_variant(name, "variant", i)?,
                None if matched == Some(baseline) => (0..variants.len())
                    .find(|v| *v != baseline)
                    .unwrap_or(baseline),
                None => baseline,
            };
            let action = variants[variant].2;
            if let Some(option) = parameter.strip_prefix("action_options.")
                && !action.options_used().contains(&option)
            {
                return Err(fail(
                    "parameter",
                    format!(
                        "action `{action}` does not read `{option}` (it reads: {})",
                        action.options_used().join(", ")
                    ),
                    None,
                ));
            }
            let Some(metric) = metrics::summary_metrics(action).find(|m| *m == spec.metric.trim())
            else {
                return Err(fail(
                    "metric",
                    format!(
                        "`{}` is not a metric of action `{action}` (it reports: {})",
                        spec.metric,
                        metrics::summary_metrics(action)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    did_you_mean(&spec.metric, metrics::summary_metrics(action)),
                ));
            };
            let target = match (spec.target, matched) {
                (Some(_), Some(_)) | (None, None) => {
                    return Err(fail(
                        "metric",
                        "a tune needs exactly one of `target` (a number) and `match` (a variant)"
                            .to_string(),
                        None,
                    ));
                }
                (Some(t), None) => {
                    if !t.is_finite()
                        || (metrics::is_probability(metric) && !(0.0..=1.0).contains(&t))
                    {
                        return Err(fail(
                            "target",
                            format!(
                                "target {t} is out of range: `{metric}` is a probability, from 0 to 1"
                            ),
                            None,
                        ));
                    }
                    tune::Target::Value(t)
                }
                (None, Some(m)) => {
                    if m == variant {
                        return Err(fail(
                            "match",
                            "a tune cannot match the variant it tunes: name another variant, or `variant`".to_string(),
                            None,
                        ));
                    }
                    let theirs = spec.match_metric.as_deref().unwrap_or(metric);
                    let comparison = paired::comparison(action, metric, variants[m].2, theirs)
                        .map_err(|message| {
                            let field = if spec.match_metric.is_some() {
                                "match_metric"
                            } else {
                                "match"
                            };
                            fail(
                                field,
                                message,
                                did_you_mean(theirs, metrics::summary_metrics(variants[m].2)),
                            )
                        })?;
                    tune::Target::Variant {
                        variant: m,
                        comparison,
                    }
                }
            };
            let at = chart::at_values(spec.at.as_ref(), axes).map_err(|e| {
                fail(
                    "at",
                    e.message,
                    did_you_mean(&e.word, e.candidates.iter().map(String::as_str)),
                )
            })?;
            let name = spec
                .name
                .clone()
                .unwrap_or_else(|| parameter.rsplit('.').next().unwrap_or("tune").to_string());
            if !valid_file_name(&name) {
                return Err(fail(
                    "name",
                    format!(
                        "tune name `{name}` must be a plain name (letters, digits, `-`, `_`, `.`): it names the tune's chart"
                    ),
                    None,
                ));
            }
            // A tune's name lands in tune.csv's cells, as a variant's does.
            if let Some(problem) = name_problem(&name) {
                return Err(fail("name", format!("tune name `{name}` {problem}"), None));
            }
            if tunes.iter().any(|t| t.name == name) {
                return Err(fail(
                    "name",
                    format!("two tunes are named `{name}`: give one a `name`"),
                    None,
                ));
            }
            let mut tuned_axes = axes.to_vec();
            tuned_axes.push(Axis {
                path: parameter.clone(),
                values: values.clone(),
            });
            let grid: usize = axes.iter().map(|a| a.values.len()).product();
            let sections = self.sections(action, &variants[variant].1);
            let mut rows = Vec::new();
            for g in 0..grid {
                let picks = picks_of(axes, g);
                if at.iter().any(|(path, value)| {
                    axes.iter()
                        .position(|a| a.path == *path)
                        .is_some_and(|a| axes[a].values[picks[a]] != *value)
                }) {
                    continue;
                }
                let mut candidates = Vec::with_capacity(values.len());
                for (k, value) in values.iter().enumerate() {
                    let mut picks = picks.clone();
                    picks.push(k);
                    // A candidate sets its grid point's fields, whose warnings that point gives.
                    let point = self
                        .point(
                            action,
                            variant,
                            &sections,
                            &tuned_axes,
                            &picks,
                            several,
                            &mut Vec::new(),
                        )
                        .map_err(|e| {
                            fail(
                                "range",
                                format!("at {parameter} = {value}: {}", e.message),
                                e.help.clone(),
                            )
                        })?;
                    candidates.push(point.recipe);
                }
                rows.push(tune::TuneRow {
                    grid_point: g,
                    candidates,
                });
                // Bounded over all the tunes together, so that many tunes cannot multiply the bound.
                if resolved + rows.len() * values.len() > sweep::MAX_POINTS {
                    return Err(fail(
                        "range",
                        format!(
                            "the tunes would resolve more than {} candidate points (values × sweep points, over every tune): narrow this tune's range, fix sweep values with `at`, or tune fewer parameters",
                            sweep::MAX_POINTS
                        ),
                        None,
                    ));
                }
            }
            resolved += rows.len() * values.len();
            tunes.push(tune::Tune {
                name,
                parameter,
                values,
                metric,
                variant,
                action,
                target,
                rows,
            });
        }
        Ok(tunes)
    }

    /// Where a field of `[action_options]` or `[rules]` was set at this point: the sweep value, else the
    /// variant's key, else the base key.
    fn origin<'p>(
        &self,
        variant: usize,
        axes: &'p [Axis],
        picks: &[usize],
        section: &'p str,
        field: &'p str,
    ) -> Vec<Seg<'p>> {
        for (a, axis) in axes.iter().enumerate() {
            let mut segs = axis.path.split('.');
            if segs.next() == Some(section) && segs.next() == Some(field) {
                return self.sweep_origin(axis, picks[a]);
            }
        }
        self.variant_origin(variant, section, field)
            .unwrap_or_else(|| vec![Seg::Key(section), Seg::Key(field)])
    }

    /// The variant's key `section.field`, when the variant sets it.
    fn variant_origin<'p>(
        &self,
        variant: usize,
        section: &'p str,
        field: &'p str,
    ) -> Option<Vec<Seg<'p>>> {
        let in_variant = vec![
            Seg::Key("variant"),
            Seg::Index(variant),
            Seg::Key(section),
            Seg::Key(field),
        ];
        self.source
            .value_span(&in_variant)
            .is_some()
            .then_some(in_variant)
    }

    /// Where a field of entry `entry` of side `s` was set at this point: the last sweep that sets it (they
    /// are set in order), else the variant's key, else the base key.
    fn entry_origin<'p>(
        &self,
        variant: usize,
        axes: &'p [Axis],
        picks: &[usize],
        (s, entry): (usize, usize),
        field: &'p str,
    ) -> Vec<Seg<'p>> {
        for (a, axis) in axes.iter().enumerate().rev() {
            if let Some(side) = sweep::side_path(&axis.path)
                && side.side == s
                && side.entry.is_none_or(|n| n == entry)
                && side.rest.first() == Some(&field)
            {
                return self.sweep_origin(axis, picks[a]);
            }
        }
        let (one, several) = SIDES[s];
        if let Some(path) = [one, several]
            .into_iter()
            .find_map(|name| self.variant_origin(variant, name, field))
        {
            return path;
        }
        if self.plural[s] {
            vec![Seg::Key(several), Seg::Index(entry), Seg::Key(field)]
        } else {
            vec![Seg::Key(one), Seg::Key(field)]
        }
    }

    /// A sweep's value at `pick`, or its key when the values are a range.
    fn sweep_origin<'p>(&self, axis: &'p Axis, pick: usize) -> Vec<Seg<'p>> {
        let value_path = vec![
            Seg::Key("sweep"),
            Seg::Key(axis.path.as_str()),
            Seg::Index(pick),
        ];
        if self.source.value_span(&value_path).is_some() {
            value_path
        } else {
            vec![Seg::Key("sweep"), Seg::Key(axis.path.as_str())]
        }
    }

    /// A variant's [`Sections`]: the base's tables, then the variant's key by key (`[variant.attackers]`
    /// on every entry of the side). Merged once per variant; each point adds its sweep values to a copy.
    fn sections(&self, action: Action, overrides: &Table) -> Sections {
        let base = |name: &str| match self.table.get(name) {
            Some(Value::Table(t)) => t.clone(),
            _ => Table::new(),
        };
        let merge = |table: &mut Table, name: &str| {
            if let Some(Value::Table(t)) = overrides.get(name) {
                table.extend(t.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
        };
        let sides = SIDES.map(|(one, several)| {
            let mut entries: Vec<Table> = match self.table.get(several) {
                Some(Value::Array(items)) => {
                    items.iter().filter_map(|v| v.as_table().cloned()).collect()
                }
                _ => vec![base(one)],
            };
            for entry in &mut entries {
                merge(entry, one);
                merge(entry, several);
            }
            entries
        });
        // A variant with its own action does not inherit the options of the file's action.
        let mut action_options = if action.written() != self.raw.action {
            Table::new()
        } else {
            base("action_options")
        };
        merge(&mut action_options, "action_options");
        let mut rules = base("rules");
        merge(&mut rules, "rules");
        Sections {
            sides,
            action_options,
            rules,
        }
    }

    /// The variant's `sections` with this point's sweep values set, and those values. An option sweep
    /// applies to the variants whose action reads the option.
    fn at_point(
        &self,
        action: Action,
        sections: &Sections,
        axes: &[Axis],
        picks: &[usize],
    ) -> (Sections, Vec<SweepValue>) {
        let mut sections = sections.clone();
        let mut values = Vec::with_capacity(axes.len());
        for (axis, pick) in axes.iter().zip(picks) {
            let value = axis.values[*pick].clone();
            let segments: Vec<&str> = axis.path.split('.').collect();
            if let Some(side) = sweep::side_path(&axis.path) {
                for (e, entry) in sections.sides[side.side].iter_mut().enumerate() {
                    if side.entry.is_none_or(|n| n == e) {
                        set_path(entry, &side.rest, value.to_toml());
                    }
                }
            } else if segments[0] == "rules" {
                set_path(&mut sections.rules, &segments[1..], value.to_toml());
            } else if segments[0] == "action_options"
                && action
                    .options_used()
                    .contains(&segments[1..].join(".").as_str())
            {
                set_path(
                    &mut sections.action_options,
                    &segments[1..],
                    value.to_toml(),
                );
            }
            values.push(value);
        }
        (sections, values)
    }

    /// The entries of side `s` at a point, with their `count` (1 to [`gang::MAX_MEMBERS`], and as many in
    /// all) and `target` checked and taken out of their tables.
    fn entries(
        &self,
        variant: usize,
        s: usize,
        tables: &[Table],
        axes: &[Axis],
        picks: &[usize],
    ) -> Result<Vec<EntryAt>, ScenarioError> {
        let several = SIDES[s].1;
        let mut out = Vec::with_capacity(tables.len());
        let mut total = 0;
        for (e, table) in tables.iter().enumerate() {
            let at = |field| self.entry_origin(variant, axes, picks, (s, e), field);
            let mut fields = table.clone();
            let count = match fields.remove("count") {
                None => 1,
                Some(Value::Integer(n)) if (1..=i64::from(gang::MAX_MEMBERS)).contains(&n) => {
                    n as u32
                }
                Some(other) => {
                    return Err(self.error(
                        &at("count"),
                        format!(
                            "{several}.count = {other}: expected a whole number from 1 to {} (the members of this entry)",
                            gang::MAX_MEMBERS
                        ),
                        None,
                    ));
                }
            };
            let target = match fields.remove("target") {
                None => Target::default(),
                Some(value) => {
                    let name = value.as_str().unwrap_or_default();
                    let names = Target::ALL.map(Target::name);
                    Target::ALL
                        .into_iter()
                        .find(|t| t.name() == name)
                        .ok_or_else(|| {
                            self.error(
                                &at("target"),
                                format!(
                                    "{several}.target = {value} is not a target policy: expected one of {}",
                                    names.join(", ")
                                ),
                                did_you_mean(name, names),
                            )
                        })?
                }
            };
            total += count;
            if total > gang::MAX_MEMBERS {
                return Err(self.error(
                    &at("count"),
                    format!(
                        "the {several} have {total} members here: a side has at most {}",
                        gang::MAX_MEMBERS
                    ),
                    Some("lower a `count`".to_string()),
                ));
            }
            out.push(EntryAt {
                fields,
                count,
                target,
            });
        }
        Ok(out)
    }

    /// Whether some point of some variant has a side of several members. A single action is one against
    /// one, so such a side is an error there.
    fn several(
        &self,
        variants: &[(String, Table, Action)],
        axes: &[Axis],
    ) -> Result<bool, ScenarioError> {
        let grid: usize = axes.iter().map(|a| a.values.len()).product();
        let mut several = false;
        for (v, (_, overrides, action)) in variants.iter().enumerate() {
            let sections = self.sections(*action, overrides);
            for flat in 0..grid {
                let picks = picks_of(axes, flat);
                let (at, _) = self.at_point(*action, &sections, axes, &picks);
                for (s, tables) in at.sides.iter().enumerate() {
                    let entries = self.entries(v, s, tables, axes, &picks)?;
                    let members: u32 = entries.iter().map(|e| e.count).sum();
                    if members < 2 {
                        continue;
                    }
                    if !action.is_fight() {
                        let several = SIDES[s].1;
                        let path = match entries.iter().position(|e| e.count > 1) {
                            Some(e) => self.entry_origin(v, axes, &picks, (s, e), "count"),
                            None => vec![Seg::Key(several), Seg::Index(1)],
                        };
                        return Err(self.error(
                            &path,
                            format!(
                                "action `{action}` is one against one, and the {several} are {members} here: sides of several fight"
                            ),
                            Some("use action `brawl` or `subdue`, or one member a side".to_string()),
                        ));
                    }
                    several = true;
                }
            }
        }
        Ok(several)
    }

    /// One point: the variant's `sections` with this point's sweep values, resolved; each combatant field
    /// it sets is noted in `uses`, where the file sets it, as read or not by this point. The fields read
    /// are judged by the first entry of each side, as for a side of one.
    #[allow(clippy::too_many_arguments)]
    fn point<'p>(
        &self,
        action: Action,
        variant: usize,
        sections: &Sections,
        axes: &'p [Axis],
        picks: &[usize],
        several: bool,
        uses: &mut Vec<FieldUse<'p>>,
    ) -> Result<Point, ScenarioError> {
        let (at, values) = self.at_point(action, sections, axes, picks);
        let mut sides: [Vec<Entry>; 2] = Default::default();
        let mut set_fields: [Vec<&'static str>; 2] = Default::default();
        for (s, tables) in at.sides.iter().enumerate() {
            let section = if self.plural[s] {
                SIDES[s].1
            } else {
                SIDES[s].0
            };
            for (e, entry) in self
                .entries(variant, s, tables, axes, picks)?
                .into_iter()
                .enumerate()
            {
                if e == 0 {
                    set_fields[s] = CombatantSpec::FIELDS
                        .into_iter()
                        .filter(|field| entry.fields.contains_key(*field))
                        .collect();
                }
                let spec: CombatantSpec = self.typed(section, entry.fields, axes, picks)?;
                let combatant = spec.resolve().map_err(|SpecError { field, message }| {
                    let path = self.entry_origin(variant, axes, picks, (s, e), field);
                    self.error(&path, format!("{section}.{field}: {message}"), None)
                })?;
                sides[s].push(Entry {
                    combatant,
                    count: entry.count,
                    target: entry.target,
                });
            }
        }
        // A point keeps its sides until it runs, shared with the point before where they are the same
        // ([`Builder::points`]), with no spare room (a Vec grown by pushes holds four entries).
        let sides = Sides {
            sides: sides.map(std::sync::Arc::from),
        };
        if !several && let Some(s) = (0..2).find(|s| sides.members(*s) > 1) {
            // Only a tune's candidate can get here: the study's own points were weighed by `several`.
            return Err(self.error(
                &self.entry_origin(variant, axes, picks, (s, 0), "count"),
                format!(
                    "this makes the {} a side of several, and no point of the study has one: a study is fought one on one or by sides throughout",
                    SIDES[s].1
                ),
                Some("sweep the count as well, so that some point of the study has a side of several".to_string()),
            ));
        }
        let matchup: Matchup = sides.first().expect("a side has at least one entry");
        let options: RuleOptions = self.typed("rules", at.rules, axes, picks)?;
        options.validate().map_err(|e| {
            let path = self.origin(variant, axes, picks, "rules", e.switch);
            self.error(&path, e.to_string(), None)
        })?;
        // Ranges and the options each action reads were checked where they are written (file and sweeps).
        let action_options = self
            .typed::<ActionOptionsSpec>("action_options", at.action_options, axes, picks)?
            .resolve();
        for (s, (role, set)) in Role::ALL.into_iter().zip(&set_fields).enumerate() {
            let unread = reads::unread(action.written(), &action_options, role, set);
            for &field in set {
                let mut path = self.entry_origin(variant, axes, picks, (s, 0), field);
                // A sweep sets the field by its list of values, as a whole.
                if path.first() == Some(&Seg::Key("sweep")) {
                    path.truncate(2);
                }
                let at = match uses
                    .iter()
                    .position(|u| u.role == role && u.field == field && u.path == path)
                {
                    Some(at) => at,
                    None => {
                        uses.push(FieldUse {
                            role,
                            field,
                            path,
                            read: false,
                            unread: Vec::new(),
                        });
                        uses.len() - 1
                    }
                };
                let using = &mut uses[at];
                let action = action.written();
                match unread.iter().find(|u| u.field == field) {
                    Some(u) if !using.unread.contains(&(action, u.only)) => {
                        using.unread.push((action, u.only))
                    }
                    Some(_) => {}
                    None => using.read = true,
                }
            }
        }
        // A fight of sides fights by the round of sides; any other action takes the first of each side.
        // Prepared once here to learn whether the rules allow it, then dropped: it is prepared again when
        // it runs.
        let recipe = Recipe {
            action,
            sides,
            options,
            action_options,
        };
        let (recipe, kept) = match recipe.prepare() {
            Ok(prepared) => (Ok(recipe), Some(Box::new(prepared))),
            Err(why) => (Err(why), None),
        };
        Ok(Point {
            variant,
            values,
            level_gap: matchup.level_gap(),
            action,
            recipe,
            kept,
        })
    }

    /// A merged section as its typed struct. The file itself was type-checked when it was read, so an error
    /// here comes from a sweep value.
    fn typed<T: serde::de::DeserializeOwned>(
        &self,
        section: &str,
        table: Table,
        axes: &[Axis],
        picks: &[usize],
    ) -> Result<T, ScenarioError> {
        Value::Table(table)
            .try_into()
            .map_err(|e: toml::de::Error| self.sweep_type_error(section, axes, picks, &e))
    }

    /// A sweep value of the wrong type: point at the value of the first axis into this section.
    fn sweep_type_error(
        &self,
        section: &str,
        axes: &[Axis],
        picks: &[usize],
        e: &toml::de::Error,
    ) -> ScenarioError {
        let axis = axes
            .iter()
            .enumerate()
            .find(|(_, a)| a.path.split('.').next() == Some(section));
        let message = format!("{section}: {}", locate::plain_types(e.message().trim()));
        match axis {
            Some((a, axis)) => {
                let path = [
                    Seg::Key("sweep"),
                    Seg::Key(axis.path.as_str()),
                    Seg::Index(picks[a]),
                ];
                let span = self
                    .source
                    .value_span(&path)
                    .or_else(|| self.source.key_span(&path[..2]));
                self.source
                    .error_at(span, message, locate::suggestion_from_message(e.message()))
            }
            None => self.error(&[Seg::Key(section)], message, None),
        }
    }
}

/// Sets a nested key, creating tables on the way (a string weapon becomes an inline table when a deeper
/// path sets one of its fields).
fn set_path(table: &mut Table, path: &[&str], value: Value) {
    match path {
        [] => {}
        [last] => {
            table.insert(last.to_string(), value);
        }
        [first, rest @ ..] => {
            let entry = table
                .entry(first.to_string())
                .or_insert_with(|| Value::Table(Table::new()));
            if let Value::String(name) = entry {
                let mut inline = Table::new();
                inline.insert("name".to_string(), Value::String(name.clone()));
                *entry = Value::Table(inline);
            }
            if let Value::Table(inner) = entry {
                set_path(inner, rest, value);
            }
        }
    }
}

/// The value index of every axis at flat grid index `flat` (the last axis fastest).
fn picks_of(axes: &[Axis], flat: usize) -> Vec<usize> {
    let mut rest = flat;
    let mut picks = vec![0; axes.len()];
    for (a, axis) in axes.iter().enumerate().rev() {
        picks[a] = rest % axis.values.len();
        rest /= axis.values.len();
    }
    picks
}

/// `first`, then every other action of `actions` once, in order.
fn distinct(first: Action, actions: &[Action]) -> Vec<Action> {
    let mut out = vec![first];
    for a in actions {
        if !out.contains(a) {
            out.push(*a);
        }
    }
    out
}

fn valid_file_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// The largest scenario file read: scenarios are a few KiB, so anything this large is the wrong file.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// The longest name (a variant, a combatant, a chart or tune file, the file's stem), in bytes: names head
/// table columns and name files, which file systems cap at 255 bytes.
pub const MAX_NAME: usize = 100;

/// The longest text of any kind in a scenario, in bytes (a title, a name before its own check).
pub const MAX_TEXT: usize = 1000;

/// Why a file's stem cannot name its output folder: `...toml` has the stem `..` and `..toml` the stem
/// `.`, which would write into the parent of `--out` or into `--out` itself; a leading dot would hide it
/// among the run's temporary folders.
fn stem_problem(stem: &str) -> Option<String> {
    if stem.is_empty() || stem.starts_with('.') {
        Some(format!("`{stem}` is empty or starts with a dot"))
    } else if stem.len() > MAX_NAME {
        Some(format!("it is longer than {MAX_NAME} bytes"))
    } else if stem
        .chars()
        .any(|c| c.is_control() || c == '/' || c == '\\')
    {
        Some("it holds a control character or a path separator".to_string())
    } else {
        None
    }
}

/// Why a name that lands in CSV cells is refused: too long, or starting with a character a spreadsheet
/// reads as the start of a formula (`=`, `+`, `-`, `@`), which opening the CSV would run.
fn name_problem(name: &str) -> Option<String> {
    if name.len() > MAX_NAME {
        Some(format!("is longer than {MAX_NAME} bytes"))
    } else if name.starts_with(['=', '+', '-', '@']) {
        Some(
            "starts with `=`, `+`, `-` or `@`, which a spreadsheet opening the CSV would run as a formula: start it with a letter or a digit"
                .to_string(),
        )
    } else {
        None
    }
}

/// The first key or string of the document holding a control character (they corrupt SVG text and
/// drive terminals) or longer than [`MAX_TEXT`], with the reason.
fn text_problem<'t>(table: &'t Table, path: &mut Vec<Seg<'t>>) -> Option<(Vec<Seg<'t>>, String)> {
    fn value_problem<'t>(
        value: &'t Value,
        path: &mut Vec<Seg<'t>>,
    ) -> Option<(Vec<Seg<'t>>, String)> {
        match value {
            Value::String(text) => string_problem(text).map(|m| (path.clone(), m)),
            Value::Table(table) => text_problem(table, path),
            Value::Array(items) => items.iter().enumerate().find_map(|(i, item)| {
                path.push(Seg::Index(i));
                let found = value_problem(item, path);
                path.pop();
                found
            }),
            Value::Integer(_) | Value::Float(_) | Value::Boolean(_) | Value::Datetime(_) => None,
        }
    }
    fn string_problem(text: &str) -> Option<String> {
        if let Some(c) = text.chars().find(|c| c.is_control()) {
            Some(format!(
                "the text holds the control character {}: scenario text is printable characters only",
                c.escape_unicode()
            ))
        } else if text.len() > MAX_TEXT {
            Some(format!("the text is longer than {MAX_TEXT} bytes"))
        } else {
            None
        }
    }
    table.iter().find_map(|(key, value)| {
        path.push(Seg::Key(key));
        let found = string_problem(key)
            .map(|m| (path.clone(), format!("a key: {m}")))
            .or_else(|| value_problem(value, path));
        path.pop();
        found
    })
}

#[cfg(test)]
mod tests;
