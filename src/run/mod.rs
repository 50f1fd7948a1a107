//! A study driven to its files: the trials (doubled under `--target-error` until the headline intervals
//! are narrow enough), exact values, differences, tunes, and every file of the study folder; shards and
//! their merge; the `exact` command. `run` and `merge` end in one function (`finish`), so a merge of
//! shards writes what one run writes through the same code.
//!
//! The run layer sits between the command line and the exporters: it takes plain option structs (never
//! the parser's types), shows progress and warnings through [`Watch`], and returns what the terminal
//! prints, so that `cli.rs` keeps only arguments, printing and progress bars.

pub mod exact;
pub mod shards;

use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

use crate::engine;
use crate::export::chart::{self, Drawn};
use crate::export::manifest::{RunInfo, rfc3339};
use crate::export::size;
use crate::export::write::{Foreign, WriteError, check_writable, foreign, write_study};
use crate::export::{self, EXPORTERS, ExportError, StudyResults};
use crate::scenario::locate::ScenarioError;
use crate::scenario::tune::Target;
use crate::scenario::{Point, Scenario};
use crate::stats::metrics;
use crate::study::summary::summary_of;
use crate::study::{self, PointSummary, Rows, TuneLine, tune_lines, tuning};

/// Why a command failed; [`RunError::exit_code`] says how the program ends.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A scenario file that does not validate (bad input).
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// Arguments or files that do not make sense together (bad input).
    #[error("{0}")]
    Arguments(String),
    /// `merge --check` found shards missing.
    #[error("{0}")]
    Incomplete(String),
    /// The worker threads did not start.
    #[error("cannot start the worker threads")]
    Threads(#[source] Option<rayon::ThreadPoolBuildError>),
    /// A study's files could not be made.
    #[error(transparent)]
    Export(#[from] ExportError),
    /// A chart could not be drawn.
    #[error("{0}")]
    Chart(String),
    /// A study folder could not be written.
    #[error("cannot write the results to {}", .dir.display())]
    Write {
        /// The study folder.
        dir: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A shard's part file could not be written.
    #[error("cannot write the part {}", .path.display())]
    WritePart {
        /// The part file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A study folder holds what subdual did not write (bad input: move it).
    #[error(transparent)]
    Foreign(#[from] Foreign),
    /// A folder of part files could not be read.
    #[error("cannot read {}", .path.display())]
    Read {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

impl RunError {
    /// The exit code: 2 for bad input, 3 for shards missing, 1 for anything else.
    pub fn exit_code(&self) -> u8 {
        match self {
            RunError::Scenario(_) | RunError::Arguments(_) | RunError::Foreign(_) => 2,
            RunError::Incomplete(_) => 3,
            RunError::Threads(_)
            | RunError::Export(_)
            | RunError::Chart(_)
            | RunError::Write { .. }
            | RunError::WritePart { .. }
            | RunError::Read { .. } => 1,
        }
    }
}

/// What a run shows whoever waits for it: progress and warnings. The command line draws bars and prints
/// to standard error; a caller that wants neither passes [`Silent`].
pub trait Watch: Sync {
    /// A count of `total` trials (0 when not known ahead) under `label`; it ends when dropped.
    fn progress(&self, total: u64, label: &str) -> Box<dyn Progress + '_>;
    /// A count of `total` points (each a step of [`Progress::add`]) under `label`, such as the exact values
    /// of a study's points; by default a count as [`Watch::progress`]'s.
    fn points(&self, total: u64, label: &str) -> Box<dyn Progress + '_> {
        self.progress(total, label)
    }
    /// A warning, said at once (the message alone: the watcher marks it as a warning).
    fn warn(&self, message: &str);
}

/// A count of trials run, as the engine reports them.
pub trait Progress: Sync {
    /// `trials` more have run.
    fn add(&self, trials: u64);
}

/// Shows nothing.
pub struct Silent;

impl Watch for Silent {
    fn progress(&self, _: u64, _: &str) -> Box<dyn Progress + '_> {
        Box::new(Silent)
    }

    fn warn(&self, _: &str) {}
}

impl Progress for Silent {
    fn add(&self, _: u64) {}
}

/// Which of the optional outputs a study writes: the options `run` and `merge` share, so that a merge
/// writes what a run with the same options writes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outputs {
    /// Draw the charts.
    pub charts: bool,
    /// Compute exact values (single actions) and give them their own columns.
    pub exact: bool,
}

/// How `run` runs its studies.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOptions {
    /// The output folder; each study writes `DIR/<stem>/`.
    pub out: PathBuf,
    /// Worker threads.
    pub threads: usize,
    /// The command line, for run.json.
    pub command: String,
    /// Double the trials until every headline interval's half-width is at most this.
    pub target_error: Option<f64>,
    /// With `target_error`: the most trials a point may reach (default [`DEFAULT_MAX_TRIALS`]).
    pub max_trials: Option<u64>,
    /// The most output a scenario may project, in MiB (default [`size::DEFAULT_MAX_OUTPUT_BYTES`]).
    pub max_output_mib: Option<u64>,
    /// The most memory a scenario may project, in MiB (default [`memory_limit`]'s quarter of the machine).
    pub max_memory_mib: Option<u64>,
    /// The optional outputs.
    pub outputs: Outputs,
}

/// The most trials `--target-error` may reach per point, unless `--max-trials` says otherwise: about a
/// billion, minutes a point for a single action, so that a target too fine is stopped, not run for hours.
pub const DEFAULT_MAX_TRIALS: u64 = 1 << 30;

/// A study written: what the terminal shows of it.
#[derive(Debug, Clone)]
pub struct Finished<'s> {
    /// The study folder.
    pub dir: PathBuf,
    /// One summary per point and the differences from the baseline, made as they are read.
    pub rows: Rows<'s>,
    /// Every tune's answer at every point, as tune.csv.
    pub tunes: Vec<TuneLine<'s>>,
    /// Trials every point ran.
    pub trials: u64,
    /// Seconds from the start to the end of the simulation (and the tunes).
    pub elapsed: f64,
    /// Seconds the charts took, when they were drawn.
    pub chart_seconds: Option<f64>,
}

/// When a command started: the wall clock for run.json, and a monotonic clock for its seconds.
#[derive(Debug, Clone, Copy)]
pub struct Started {
    at: SystemTime,
    clock: Instant,
}

impl Started {
    /// Now.
    pub fn now() -> Started {
        Started {
            at: SystemTime::now(),
            clock: Instant::now(),
        }
    }

    /// Seconds since.
    pub fn seconds(&self) -> f64 {
        self.clock.elapsed().as_secs_f64()
    }

    /// As RFC 3339.
    pub fn rfc3339(&self) -> String {
        rfc3339(self.at)
    }
}

/// Loads and validates every file before anything runs: one bad file, nothing runs.
pub fn load_all(paths: &[PathBuf]) -> Result<Vec<Scenario>, RunError> {
    let mut scenarios: Vec<Scenario> = Vec::new();
    for path in paths {
        let scenario = Scenario::load(path)?;
        if let Some(other) = scenarios.iter().find(|s| s.stem == scenario.stem) {
            return Err(RunError::Arguments(format!(
                "{} and {} have the same stem `{}`: their outputs would overwrite each other",
                other.file, scenario.file, scenario.stem
            )));
        }
        scenarios.push(scenario);
    }
    Ok(scenarios)
}

/// Everything that can refuse a run before it starts: a `--target-error` no run can reach, files that
/// would outgrow `--max-output`, an output folder that cannot be written.
pub fn check(scenarios: &[Scenario], options: &RunOptions) -> Result<(), RunError> {
    if let Some(target) = options.target_error {
        check_target_error(scenarios, target, options.max_trials)?;
    }
    check_output_size(scenarios, options)?;
    check_memory(scenarios, options.threads, options.max_memory_mib)?;
    for scenario in scenarios {
        check_writable(&options.out, &scenario.stem).map_err(|e| {
            RunError::Arguments(format!(
                "cannot write in the output folder {}: {e}",
                options.out.display()
            ))
        })?;
    }
    check_ours(scenarios, &options.out)
}

/// The memory a run may take: `--max-memory` MiB, else a quarter of this machine's (4 GiB where the
/// machine does not say).
pub fn memory_limit(max_memory_mib: Option<u64>) -> u64 {
    if let Some(mib) = max_memory_mib {
        return mib << 20;
    }
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf reads two constants of the system and has no other effect.
        let (pages, size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        if pages > 0 && size > 0 {
            return (pages as u64).saturating_mul(size as u64) / 4;
        }
    }
    4 << 30
}

/// Refuses a scenario projected to take more memory than [`memory_limit`] ([`size::projected_memory`]
/// on `threads` workers: what it holds does not grow with its trials), before anything runs.
pub fn check_memory(
    scenarios: &[Scenario],
    threads: usize,
    max_memory_mib: Option<u64>,
) -> Result<(), RunError> {
    let limit = memory_limit(max_memory_mib);
    for s in scenarios {
        let projected = size::projected_memory(s, threads);
        if projected > limit {
            return Err(RunError::Arguments(format!(
                "{}: its {} points (and {} tune candidates) are projected to take up to {} of memory on {threads} threads, more than the {} allowed (--max-memory, default a quarter of this machine's); sweep fewer values, split the sweep into several scenarios, use fewer --threads, or raise --max-memory",
                s.file,
                s.points.len(),
                s.tunes
                    .iter()
                    .map(|t| t.rows.iter().map(|r| r.candidates.len()).sum::<usize>())
                    .sum::<usize>(),
                size::human(projected),
                size::human(limit)
            )));
        }
    }
    Ok(())
}

/// Refuses a study whose folder in `out` holds anything subdual did not write ([`foreign`]), before
/// anything runs: writing the study would replace it.
pub fn check_ours(scenarios: &[Scenario], out: &Path) -> Result<(), RunError> {
    for scenario in scenarios {
        let found = foreign(out, &scenario.stem).map_err(|e| {
            RunError::Arguments(format!(
                "cannot write in the output folder {}: {e}",
                out.display()
            ))
        })?;
        if let Some(foreign) = found {
            return Err(RunError::Foreign(foreign));
        }
    }
    Ok(())
}

/// A study folder that was not written, as a run's error.
pub(crate) fn not_written(out: &Path, scenario: &Scenario, e: WriteError) -> RunError {
    match e {
        WriteError::Foreign(foreign) => RunError::Foreign(foreign),
        WriteError::Io(source) => RunError::Write {
            dir: out.join(&scenario.stem),
            source,
        },
        WriteError::Export(e) => RunError::Export(e),
    }
}

/// Refuses a scenario whose files would outgrow `--max-output` (their projection at the trials the run may
/// reach), before any simulation.
fn check_output_size(scenarios: &[Scenario], options: &RunOptions) -> Result<(), RunError> {
    let most = options
        .max_output_mib
        .map_or(size::DEFAULT_MAX_OUTPUT_BYTES, |mib| mib << 20);
    for s in scenarios {
        let trials = match options.target_error {
            Some(_) => options.max_trials.unwrap_or(DEFAULT_MAX_TRIALS),
            None => s.trials,
        };
        let projected = size::projected_bytes(s, trials);
        if projected > most {
            return Err(RunError::Arguments(format!(
                "{}: its {} points would write up to {} of files, more than --max-output {} MiB; \
                 sweep fewer values (or split the sweep into several scenarios), or raise --max-output",
                s.file,
                s.points.len(),
                size::human(projected),
                most >> 20
            )));
        }
    }
    Ok(())
}

/// Refuses a `--target-error` that is not a positive finite number, or that no run within
/// `--max-trials` can reach: even a probability of 0 has a Wilson half-width near z²/(2n), so a
/// probability headline needs at least z²/(2E) trials.
fn check_target_error(
    scenarios: &[Scenario],
    target: f64,
    max_trials: Option<u64>,
) -> Result<(), RunError> {
    if !(target.is_finite() && target > 0.0) {
        return Err(RunError::Arguments(format!(
            "--target-error {target}: expected a positive number, such as 0.001"
        )));
    }
    let most = max_trials.unwrap_or(DEFAULT_MAX_TRIALS);
    for s in scenarios {
        let z = crate::stats::interval::z_for(s.confidence);
        // The metric `within` waits on: the file's action's headline.
        let probability = metrics::headline_kind(s.action) == metrics::Kind::Probability;
        let least = z * z / (2.0 * target);
        if probability && least > most as f64 {
            return Err(RunError::Arguments(format!(
                "{}: --target-error {target} needs at least {least:.3e} trials a point, more than --max-trials {most}: ask for a larger error, or raise --max-trials",
                s.file
            )));
        }
    }
    Ok(())
}

/// Where a point is, for a message: its file, variant and sweep values.
fn point_label(scenario: &Scenario, point: &Point) -> String {
    format!(
        "{}: variant `{}` at {:?}",
        scenario.file,
        scenario.variants[point.variant],
        point
            .values
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
    )
}

/// Why single-action points and tune candidates of `scenario` have no exact value, one message each (the
/// points first, then one per tune with candidates left out), from the count of their dice alone
/// ([`crate::stats::exact::check`]): known before anything is walked or run. Fights and ineligible points
/// are not asked.
pub fn without_exact(scenario: &Scenario) -> (Vec<String>, Vec<String>) {
    use crate::stats::exact::check;
    let points = scenario
        .points
        .iter()
        .filter_map(|point| {
            let why = check(&*point.prepare().ok()?).err()?;
            Some(format!(
                "{}: no exact value: {why}",
                point_label(scenario, point)
            ))
        })
        .collect();
    let tunes = scenario
        .tunes
        .iter()
        .filter_map(|tune| {
            let refused: Vec<_> = tune
                .rows
                .iter()
                .flat_map(|row| &row.candidates)
                .filter_map(|c| check(&c.as_ref().ok()?.prepare().ok()?).err())
                .collect();
            let why = refused.first()?;
            Some(format!(
                "{}: tune `{}`: {} candidate value(s) have no exact value (the first: {why}) and are left out",
                scenario.file,
                tune.name,
                refused.len()
            ))
        })
        .collect();
    (points, tunes)
}

/// Says, before a study runs, every combatant field its file sets and its action does not read
/// ([`Scenario::warnings`]).
pub fn warn_unread(scenario: &Scenario, watch: &dyn Watch) {
    for warning in &scenario.warnings {
        watch.warn(&warning.to_string());
    }
}

/// Runs one study and writes its folder: at the scenario's trials, or, with a target error, from one block
/// doubling until every headline interval is narrow enough (or the most trials are reached, which `watch`
/// is warned of).
pub fn run<'s>(
    scenario: &'s Scenario,
    options: &RunOptions,
    watch: &dyn Watch,
) -> Result<Finished<'s>, RunError> {
    let started = Started::now();
    warn_unread(scenario, watch);
    let threads = options.threads;
    let mut trials = match options.target_error {
        Some(_) => engine::BLOCK_SIZE,
        None => scenario.trials,
    };
    let results = loop {
        let total = scenario.eligible_points() as u64 * trials;
        let results = {
            let bar = watch.progress(total, &scenario.stem);
            engine::with_threads(threads, || study::run(scenario, trials, &|n| bar.add(n)))
                .map_err(|e| RunError::Threads(Some(e)))?
        };
        match options.target_error {
            Some(target) if !within(scenario, &results, target) => {
                let most = options.max_trials.unwrap_or(DEFAULT_MAX_TRIALS);
                if trials >= most {
                    watch.warn(&format!(
                        "{}: stopped at {trials} trials a point (--max-trials {most}) before every headline interval reached ±{target}",
                        scenario.file
                    ));
                    break results;
                }
                trials = (trials * 2).min(most)
            }
            _ => break results,
        }
    };
    let simulate = |_: &[tuning::Candidate], groups: &[engine::Group<'_>]| {
        let bar = watch.progress(0, &format!("{} tunes", scenario.stem));
        engine::with_threads(threads, || {
            engine::run_groups(groups, trials, scenario.seed, &|n| bar.add(n))
        })
    };
    let run = RunInfo {
        threads,
        started: started.rfc3339(),
        elapsed_s: 0.0,
        command: options.command.clone(),
        shards: Vec::new(),
    };
    let ran = Ran {
        scenario,
        results,
        trials,
    };
    finish(
        ran,
        &options.out,
        options.outputs,
        &simulate,
        watch,
        run,
        started,
    )
}

/// Whether every headline metric's interval half-width is at most `target` (points without a value, such
/// as a mean over no trial, do not hold the run back).
fn within(scenario: &Scenario, results: &study::Results, target: f64) -> bool {
    let headline = metrics::headline(scenario.action);
    (0..scenario.points.len()).all(|i| {
        match summary_of(scenario, i, results.tallies[i].as_ref()).metric(headline) {
            Some(e) => match (e.ci_low, e.ci_high) {
                (Some(low), Some(high)) => (high - low) / 2.0 <= target,
                _ => true,
            },
            None => true,
        }
    })
}

/// What a study's points gave: simulated by `run`, or added up from the shards by `merge`.
struct Ran<'s> {
    scenario: &'s Scenario,
    results: study::Results,
    trials: u64,
}

/// The results of a tune's candidates, from the engine (`run`) or from the shards' tallies (`merge`).
type Candidates<'e> = dyn Fn(
        &[tuning::Candidate],
        &[engine::Group<'_>],
    ) -> Result<Vec<engine::GroupResult>, rayon::ThreadPoolBuildError>
    + 'e;

/// Everything after the points ran, shared by `run` and `merge` so that a merge of shards writes what one
/// run writes, through the same code: exact values, differences, tunes (their candidates' results from
/// `candidates`), the charts and every file ([`EXPORTERS`]). `run` is run.json but its seconds, which are
/// counted from `started` to the end of the tunes.
fn finish<'s>(
    ran: Ran<'s>,
    out: &Path,
    outputs: Outputs,
    candidates: &Candidates<'_>,
    watch: &dyn Watch,
    mut run: RunInfo,
    started: Started,
) -> Result<Finished<'s>, RunError> {
    let Ran {
        scenario,
        results,
        trials,
    } = ran;
    let exact = if outputs.exact {
        exact_values(scenario, &results.tallies, run.threads, watch)?
    } else {
        Vec::new()
    };
    // Before the flips and exemplars, which then take the room it works in.
    let judgement = study::rows::Judgement::of(scenario, &results);
    // The trials flips.csv and exemplars.csv name, replayed after the points ran.
    let (flips, exemplars) = engine::with_threads(run.threads, || {
        (
            study::flips::flips(scenario, &results),
            study::exemplars::exemplars(scenario, &results.tallies),
        )
    })
    .map_err(|e| RunError::Threads(Some(e)))?;
    let rows = Rows::judged(scenario, results, exact, judgement);
    let tuned = if scenario.tunes.is_empty() {
        Vec::new()
    } else {
        // The search asks round by round; a failure to start the workers ends it with no answer. It reads
        // the summaries at every point, so they are held while it runs.
        let summaries: Vec<PointSummary<'_>> = rows.summaries().collect();
        let failed = std::cell::Cell::new(false);
        let solved = tuning::solve_with(scenario, &summaries, outputs.exact, &|asked, groups| {
            candidates(asked, groups).unwrap_or_else(|_| {
                failed.set(true);
                vec![engine::GroupResult::default(); groups.len()]
            })
        });
        if failed.get() {
            return Err(RunError::Threads(None));
        }
        solved
    };
    let lines = tune_lines(scenario, &tuned);
    let elapsed = started.seconds();
    run.elapsed_s = elapsed;
    let mut chart_seconds = None;
    let mut charts: Option<Vec<Drawn>> = None;
    if outputs.charts {
        let clock = Instant::now();
        let drawn = chart::render(scenario, &rows, &tuned, trials).map_err(RunError::Chart)?;
        charts = Some(drawn);
        chart_seconds = Some(clock.elapsed().as_secs_f64());
    }
    let study = StudyResults {
        scenario,
        trials,
        rows: &rows,
        flips: &flips,
        exemplars: &exemplars,
        tuned: &tuned,
        tunes: &lines,
        charts: charts.as_deref(),
        run: &run,
        exact: outputs.exact,
        // A run writes no exact-distributions.csv.
        exact_distributions: &[],
    };
    let dir = write_study(out, &scenario.stem, false, &mut |destination| {
        export::make(&study, &EXPORTERS, destination)
    })
    .map_err(|e| not_written(out, scenario, e))?;
    Ok(Finished {
        dir,
        rows,
        tunes: lines,
        trials,
        elapsed,
        chart_seconds,
    })
}

/// The exact value of every metric of every point that ran and has one, per point in its summary table's
/// order, the points side by side on `threads` workers (a fight's chain can take seconds), counted on
/// `watch`. The points refused by their shape were named before the run (`without_exact`); a fight whose
/// chain passes its bounds is named now, in a warning. Their `exact` cells stay empty.
fn exact_values(
    scenario: &Scenario,
    tallies: &[Option<crate::stats::Tally>],
    threads: usize,
    watch: &dyn Watch,
) -> Result<Vec<Option<Vec<Option<f64>>>>, RunError> {
    let ran: Vec<bool> = scenario
        .points
        .iter()
        .zip(tallies)
        .map(|(p, t)| p.recipe.is_ok() && t.is_some())
        .collect();
    let exact = {
        let bar = watch.points(ran.len() as u64, &format!("{} exact", scenario.stem));
        engine::with_threads(threads, || {
            exact_points(scenario, &ran, false, &|| bar.add(1))
        })
        .map_err(|e| RunError::Threads(Some(e)))?
    };
    let mut values = Vec::with_capacity(exact.len());
    for ((point, ran), exact) in scenario.points.iter().zip(ran).zip(exact) {
        let exact = match exact {
            Some(Ok(exact)) if ran => exact.metrics,
            Some(Err(why)) if ran => {
                if point
                    .prepare()
                    .is_ok_and(|p| crate::stats::exact::check(&p).is_ok())
                {
                    watch.warn(&format!(
                        "{}: no exact value: {why}; its exact cells stay empty",
                        point_label(scenario, point)
                    ));
                }
                values.push(None);
                continue;
            }
            _ => {
                values.push(None);
                continue;
            }
        };
        values.push(Some(study::rows::in_table_order(point.action, &exact)));
    }
    Ok(values)
}

/// The exact values of the points of `scenario` that `wanted` names (and that have a prepared point), side
/// by side on the current thread pool (a fight's chain can take seconds), `step` called once a point; `None`
/// for the others. With `stop_at_refusal`, a point after a refused one is skipped (`None`) and every point
/// before it is computed, so the first refused point in order is the one a caller names, as it would be one
/// point at a time.
pub(crate) fn exact_points(
    scenario: &Scenario,
    wanted: &[bool],
    stop_at_refusal: bool,
    step: &(dyn Fn() + Sync),
) -> Vec<Option<Result<crate::stats::exact::ExactPoint, crate::stats::exact::NoExact>>> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let first_refused = AtomicUsize::new(usize::MAX);
    scenario
        .points
        .par_iter()
        .zip(wanted)
        .enumerate()
        .map(|(k, (point, &wanted))| {
            let wanted = wanted && k <= first_refused.load(Ordering::Relaxed);
            let exact = match point.prepare().ok().filter(|_| wanted) {
                Some(p) => {
                    let exact = crate::stats::exact::exact_point(&p, point.action);
                    if stop_at_refusal && exact.is_err() {
                        first_refused.fetch_min(k, Ordering::Relaxed);
                    }
                    Some(exact)
                }
                None => None,
            };
            step();
            exact
        })
        .collect()
}

/// What the terminal shows of the tunes after a run: per tune, what it solves for, then one line per point
/// with the point's sweep values, the best value, the metric there with its interval, the target, and
/// whether it was reached in words. A miss is said where it is read, not left to a column of tune.csv.
pub fn tunes_text(scenario: &Scenario, lines: &[TuneLine<'_>]) -> String {
    let f = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.4}"));
    let mut text = String::new();
    for (i, line) in lines.iter().enumerate() {
        let tune = line.tune;
        if i == 0 || !std::ptr::eq(lines[i - 1].tune, tune) {
            let to = match &tune.target {
                Target::Value(t) => t.to_string(),
                Target::Variant {
                    variant,
                    comparison,
                } => format!(
                    "{}'s {}",
                    scenario.variants[*variant], comparison.baseline_metric
                ),
            };
            text.push_str(&format!(
                "tune {}: {} of {} bringing {} to {to}\n",
                tune.name, tune.parameter, scenario.variants[tune.variant], tune.metric
            ));
        }
        let at: Vec<String> = scenario
            .paths()
            .iter()
            .zip(&line.values)
            .map(|(path, v)| format!("{path}={v}"))
            .collect();
        let at = if at.is_empty() {
            String::new()
        } else {
            format!("{}: ", at.join(", "))
        };
        let answer = match line.best {
            Some((value, e)) => format!(
                "best {value}, {} {} [{}, {}], target {}: ",
                tune.metric,
                f(e.estimate),
                f(e.ci_low),
                f(e.ci_high),
                f(line.target)
            ),
            None => String::new(),
        };
        text.push_str(&format!("  {at}{answer}{}\n", line.status_words()));
    }
    text
}
