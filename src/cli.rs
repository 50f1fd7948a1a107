//! The command line: the only place that knows about arguments, terminals, progress bars and where files go.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::engine;
use crate::export::size;
use crate::export::words::thousands;
use crate::run::shards::{Parts, ShardRun};
use crate::run::{self, Outputs, RunError, RunOptions, Started, Watch};
use crate::scenario::Scenario;
use crate::scenario::locate::visible;
use crate::stats::metrics;
use crate::study::shard;
use crate::study::{DifferenceRow, Rows};

/// subdual: Monte Carlo balance simulator for non-lethal combat house rules (AD&D 2e).
#[derive(Debug, Parser)]
#[command(name = "subdual", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run scenarios and write summary.csv, distributions.csv, manifest.json and report.html under
    /// DIR/<stem>/.
    Run(RunArgs),
    /// Validate scenarios; print their variants, points and trials; run nothing.
    Check {
        /// Scenario files.
        #[arg(required = true)]
        scenarios: Vec<PathBuf>,
        /// Also say what exact values would take: the paths of dice of a single action, the states of a
        /// fight (found by carrying its rounds, so this takes as long as `exact`), or why there are none.
        #[arg(long)]
        exact: bool,
        /// The most memory a run may project, in MiB (default: a quarter of this machine's): a scenario
        /// projected beyond it is refused, as `run` refuses it.
        #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
        max_memory: Option<u64>,
        /// Worker threads the projection counts (default: all cores, as `run`).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
        threads: Option<u64>,
    },
    /// Compute the exact value of every summary metric and distribution of single actions and one-on-one
    /// fights: DIR/<stem>/exact.csv and exact-distributions.csv.
    Exact {
        /// Scenario files.
        #[arg(required = true)]
        scenarios: Vec<PathBuf>,
        /// Output folder.
        #[arg(long, default_value = "output")]
        out: PathBuf,
    },
    /// Merge the part files of a study's shards into exactly what one `run` writes.
    Merge(MergeArgs),
    /// Tell one trial die by die, re-rolled from its own stream, with the rule behind each step; beside a
    /// second variant with `--compare` (docs/scenarios.md "Explain").
    Explain(ExplainArgs),
    /// Print the catalog: weapons, monsters, races or classes (all when none is named).
    Catalog {
        /// Which part.
        what: Option<CatalogPart>,
    },
    /// Print the JSON Schema (draft 2020-12) of a scenario file, for editors (docs/scenarios.md).
    Schema,
    /// Print a part of the reference generated from the code's own tables (the lists in docs/); without
    /// a name, list the parts.
    Reference {
        /// Which part.
        part: Option<String>,
    },
}

#[derive(Debug, clap::Args)]
struct RunArgs {
    /// Scenario files.
    #[arg(required = true)]
    scenarios: Vec<PathBuf>,
    /// Trials per variant and sweep point (overrides the file).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=engine::MAX_TRIALS))]
    trials: Option<u64>,
    /// Seed (overrides the file).
    #[arg(long)]
    seed: Option<u64>,
    /// Output folder.
    #[arg(long, default_value = "output")]
    out: PathBuf,
    /// Worker threads (default: all cores). Results never depend on it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    #[command(flatten)]
    shown: Shown,
    /// Instead of a fixed trial count, double the trials (from one block) until every headline metric's
    /// interval half-width is at most E, such as 0.001.
    #[arg(long, value_name = "E", conflicts_with = "trials")]
    target_error: Option<f64>,
    /// With `--target-error`: the most trials a point may reach before the run stops and reports what it
    /// reached (default 2^30).
    #[arg(long, value_name = "N", requires = "target_error",
          value_parser = clap::value_parser!(u64).range(engine::BLOCK_SIZE..=engine::MAX_TRIALS))]
    max_trials: Option<u64>,
    /// The most output a scenario may project, in MiB (default 1024): a sweep whose files would be larger is
    /// refused before it runs.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
    max_output: Option<u64>,
    /// The most memory a scenario may project, in MiB (default: a quarter of this machine's): a study
    /// projected to need more is refused before it runs.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
    max_memory: Option<u64>,
    /// Run only shard I (0-based) of N and write its part file, DIR/<stem>/parts/part-I-of-N.json, for
    /// `merge`; `auto/N` takes I from the scheduler (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX,
    /// SGE_TASK_ID - 1).
    #[arg(long, value_name = "I/N", conflicts_with = "target_error")]
    shard: Option<String>,
}

#[derive(Debug, clap::Args)]
struct MergeArgs {
    /// Part files, or folders of them (DIR/<stem>/parts).
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    /// Only check: list missing shards as Slurm's --array= takes them (exit code 3 when any is missing).
    #[arg(long)]
    check: bool,
    /// Output folder (default: the one the parts are in, DIR of DIR/<stem>/parts, else `output`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The most memory the merged study may project, in MiB (default: a quarter of this machine's), as for
    /// `run`: a merge holds what one run holds.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
    max_memory: Option<u64>,
    #[command(flatten)]
    shown: Shown,
}

#[derive(Debug, clap::Args)]
struct ExplainArgs {
    /// The scenario file.
    scenario: PathBuf,
    /// The variant (default: the baseline).
    #[arg(long, value_name = "NAME")]
    variant: Option<String>,
    /// A sweep value, PATH=VALUE, once per axis (an axis left out takes its first value).
    #[arg(long, value_name = "PATH=VALUE")]
    point: Vec<String>,
    /// The trial's index (0-based), as flips.csv and exemplars.csv give it.
    #[arg(long, value_name = "T")]
    trial: u64,
    /// Tell the same trial under this variant too, and mark where the two part.
    #[arg(long, value_name = "NAME")]
    compare: Option<String>,
    /// How to write it.
    #[arg(long, value_enum, default_value = "text")]
    format: crate::explain::Format,
}

/// What a study's files and terminal show: the options `run` and `merge` share, so that a merge can write
/// what a run with the same options writes ([`Outputs`], and the terminal's `quiet`).
#[derive(Debug, Clone, Copy, clap::Args)]
struct Shown {
    /// Print nothing but errors and warnings.
    #[arg(long)]
    quiet: bool,
    /// Skip the charts.
    #[arg(long)]
    no_charts: bool,
    /// Add an `exact` column to summary.csv (single actions), drawn as a dashed line on line charts.
    #[arg(long)]
    exact: bool,
}

impl Shown {
    fn outputs(self) -> Outputs {
        Outputs {
            charts: !self.no_charts,
            exact: self.exact,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum CatalogPart {
    Weapons,
    Monsters,
    Races,
    Classes,
}

/// A warning on standard error, its control characters shown as escapes.
fn warn(message: &str) {
    eprintln!("warning: {}", visible(message));
}

/// What the terminal shows of a failed command: its message, control characters shown as escapes (a name
/// from a file, a folder or a part may hold them, and none may drive the terminal).
pub fn error_text(error: &anyhow::Error) -> String {
    visible(&format!("error: {error:#}"))
}

/// Standard output with every control character but the line break and the tab written as an escape
/// (`\u{1b}`), as [`visible`] writes them: what the commands print names files, folders and parts, and
/// none may drive the terminal. Bytes, not characters, so a character split across two writes passes
/// whole; only the two-byte C1 controls (U+0080 to U+009F) need the byte after a 0xC2, held until it comes.
pub struct Visible<W: Write> {
    inner: W,
    held: bool,
}

impl<W: Write> Visible<W> {
    /// Escapes what is written to `inner`.
    pub fn new(inner: W) -> Visible<W> {
        Visible { inner, held: false }
    }
}

impl<W: Write> Write for Visible<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut shown = Vec::with_capacity(buf.len());
        for &b in buf {
            if std::mem::take(&mut self.held) {
                if (0x80..=0x9f).contains(&b) {
                    shown.extend(format!("\\u{{{b:x}}}").bytes());
                    continue;
                }
                shown.push(0xc2);
            }
            match b {
                0xc2 => self.held = true,
                b'\n' | b'\t' => shown.push(b),
                0x00..=0x1f | 0x7f => shown.extend(format!("\\u{{{b:x}}}").bytes()),
                _ => shown.push(b),
            }
        }
        self.inner.write_all(&shown)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if std::mem::take(&mut self.held) {
            self.inner.write_all(&[0xc2])?;
        }
        self.inner.flush()
    }
}

impl<W: Write> Drop for Visible<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

/// Runs the command line.
pub fn main() -> Result<()> {
    let cli = Cli::parse();
    let mut out = Visible::new(io::stdout().lock());
    match cli.command {
        Command::Run(args) => run(&args, &mut out),
        Command::Check {
            scenarios,
            exact,
            max_memory,
            threads,
        } => check(&scenarios, exact, max_memory, threads, &mut out),
        Command::Exact {
            scenarios,
            out: dir,
        } => exact(&scenarios, &dir, &mut out),
        Command::Merge(args) => merge(&args, &mut out),
        Command::Explain(args) => explain(&args, &mut out),
        Command::Catalog { what } => Ok(write!(out, "{}", catalog_text(what))?),
        Command::Schema => Ok(writeln!(out, "{}", crate::reference::schema_text())?),
        Command::Reference { part } => match part {
            None => {
                for (name, about) in crate::reference::PARTS {
                    writeln!(out, "{name:<20} {about}")?;
                }
                Ok(())
            }
            Some(name) => match crate::reference::part(&name) {
                Some(text) => Ok(write!(out, "{text}")?),
                None => Err(RunError::Arguments(format!(
                    "no reference part `{name}`: expected one of {}",
                    crate::reference::PARTS.map(|(n, _)| n).join(", ")
                ))
                .into()),
            },
        },
    }
}

/// The exit code of a failed command: 2 for bad input, 3 for a `merge --check` that found shards missing,
/// else 1.
pub fn exit_code(error: &anyhow::Error) -> u8 {
    error
        .downcast_ref::<RunError>()
        .map_or(1, RunError::exit_code)
}

/// Whether the command failed only because whoever read its standard output stopped reading
/// (`subdual schema | head -1`): it got what it wanted, so the program ends quietly and successfully.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .downcast_ref::<io::Error>()
        .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

/// The command line as typed, for run.json; `args_os`, so that an argument that is not UTF-8 (a file name
/// in another encoding) is shown, not a panic.
fn command_line() -> String {
    std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

fn explain(args: &ExplainArgs, out: &mut impl Write) -> Result<()> {
    use crate::explain::{self, ExplainError};
    let scenario = Scenario::load(&args.scenario).map_err(RunError::from)?;
    let bad = |e: ExplainError| RunError::Arguments(e.to_string());
    let tell = |variant: Option<&str>| -> Result<explain::Story, RunError> {
        let index = explain::select(&scenario, variant, &args.point).map_err(bad)?;
        explain::tell(&scenario, index, args.trial).map_err(bad)
    };
    let story = tell(args.variant.as_deref())?;
    let other = args
        .compare
        .as_deref()
        .map(|name| tell(Some(name)))
        .transpose()?;
    write!(
        out,
        "{}",
        explain::render(&story, other.as_ref(), args.format)
    )?;
    Ok(())
}

fn check(
    paths: &[PathBuf],
    exact: bool,
    max_memory: Option<u64>,
    threads: Option<u64>,
    out: &mut impl Write,
) -> Result<()> {
    let scenarios = run::load_all(paths)?;
    let threads = threads_or_all(threads);
    for s in &scenarios {
        for warning in &s.warnings {
            warn(&warning.to_string());
        }
        writeln!(out, "{}: {}", s.file, s.title)?;
        let actions: Vec<&str> = s.distinct_actions().iter().map(|a| a.name()).collect();
        writeln!(out, "  action:   {}", actions.join(", "))?;
        writeln!(out, "  variants: {}", s.variants.join(", "))?;
        let axes: Vec<String> = s
            .axes
            .iter()
            .map(|a| format!("{} ({} values)", a.path, a.values.len()))
            .collect();
        if !axes.is_empty() {
            writeln!(out, "  sweep:    {}", axes.join(" × "))?;
        }
        writeln!(
            out,
            "  points:   {} ({} eligible)",
            s.points.len(),
            s.eligible_points()
        )?;
        writeln!(out, "  trials:   {} per point, seed {}", s.trials, s.seed)?;
        writeln!(
            out,
            "  output:   at most {} projected",
            size::human(size::projected_bytes(s, s.trials))
        )?;
        writeln!(
            out,
            "  memory:   at most {} projected on {threads} threads (limit {})",
            size::human(size::projected_memory(s, threads)),
            size::human(run::memory_limit(max_memory))
        )?;
        let work = shard::work(s, s.trials);
        writeln!(
            out,
            "  items:    {} ({} groups × {} blocks; --shard I/N splits them)",
            work.items(),
            work.groups.len(),
            work.blocks
        )?;
        if exact {
            writeln!(out, "  exact:    {}", run::exact::needs(s))?;
        }
    }
    run::check_memory(&scenarios, threads, max_memory)?;
    Ok(())
}

/// The worker threads asked for, or one per core.
fn threads_or_all(threads: Option<u64>) -> usize {
    threads
        .map(|t| t as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn run(args: &RunArgs, out: &mut impl Write) -> Result<()> {
    let mut scenarios = run::load_all(&args.scenarios)?;
    for s in &mut scenarios {
        if let Some(t) = args.trials {
            s.trials = t;
        }
        if let Some(seed) = args.seed {
            s.seed = seed;
        }
    }
    let options = RunOptions {
        out: args.out.clone(),
        threads: threads_or_all(args.threads),
        command: command_line(),
        target_error: args.target_error,
        max_trials: args.max_trials,
        max_output_mib: args.max_output,
        max_memory_mib: args.max_memory,
        outputs: args.shown.outputs(),
    };
    run::check(&scenarios, &options)?;
    let watch = Terminal(args.shown.quiet);
    if let Some(spec) = &args.shard {
        let (index, shards) = parse_shard(spec)?;
        for scenario in &scenarios {
            let done = run::shards::run_shard(scenario, index, shards, &options, &watch)?;
            if !args.shown.quiet {
                shard_done(out, scenario, index, shards, &done)?;
            }
        }
        return Ok(());
    }
    if args.shown.exact {
        // Said before anything runs: a missing exact value is known from the dice alone.
        for scenario in &scenarios {
            let (points, tunes) = run::without_exact(scenario);
            for warning in points {
                warn(&format!("{warning}; its `exact` column stays empty"));
            }
            for warning in tunes {
                warn(&format!(
                    "{warning}; tune.csv has no exact best value where they are"
                ));
            }
        }
    }
    for scenario in &scenarios {
        let written = run::run(scenario, &options, &watch)?;
        if !args.shown.quiet {
            study_done(out, scenario, &written)?;
        }
    }
    Ok(())
}

/// What the terminal shows of a study written: its headline table, and how long the charts took.
fn study_done(out: &mut impl Write, scenario: &Scenario, w: &run::Finished<'_>) -> Result<()> {
    let table = headline_table(scenario, &w.rows, w.trials, w.elapsed, &w.dir);
    write!(out, "{table}")?;
    write!(out, "{}", run::tunes_text(scenario, &w.tunes))?;
    if let Some(seconds) = w.chart_seconds
        && !scenario.charts.is_empty()
    {
        writeln!(
            out,
            "{} chart(s) drawn in {seconds:.2} s",
            scenario.charts.len()
        )?;
    }
    Ok(())
}

/// What the terminal shows of a shard run.
fn shard_done(
    out: &mut impl Write,
    scenario: &Scenario,
    index: u64,
    shards: u64,
    done: &ShardRun,
) -> Result<()> {
    match done {
        ShardRun::AlreadyDone { path } => writeln!(
            out,
            "{}: shard {index} of {shards} is already done: {}",
            scenario.file,
            path.display()
        )?,
        ShardRun::Ran {
            items,
            of,
            seconds,
            path,
        } => writeln!(
            out,
            "{}: shard {index} of {shards} (items {}..{} of {of}) in {seconds:.2} s → {}",
            scenario.file,
            items.start,
            items.end,
            path.display()
        )?,
    }
    Ok(())
}

/// Progress bars on standard error when it is a terminal and the run is not quiet; warnings always.
struct Terminal(bool);

/// A progress bar, cleared when the count ends.
struct Bar(ProgressBar);

impl run::Progress for Bar {
    fn add(&self, trials: u64) {
        self.0.inc(trials);
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

impl Terminal {
    /// A bar of `total` steps counted in `unit`, hidden when quiet or when standard error is not a terminal.
    fn bar(&self, total: u64, label: &str, unit: &str) -> Box<dyn run::Progress + '_> {
        let quiet = self.0;
        if quiet || !io::stderr().is_terminal() {
            return Box::new(Bar(ProgressBar::hidden()));
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(&format!(
            "{{prefix}} [{{bar:40}}] {{percent:>3}}% {{human_pos}}/{{human_len}} {unit}, {{per_sec}}, eta {{eta}}"
        )) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_prefix(label.to_string());
        Box::new(Bar(bar))
    }
}

impl Watch for Terminal {
    fn progress(&self, total: u64, label: &str) -> Box<dyn run::Progress + '_> {
        self.bar(total, label, "trials")
    }

    fn points(&self, total: u64, label: &str) -> Box<dyn run::Progress + '_> {
        self.bar(total, label, "points")
    }

    fn warn(&self, message: &str) {
        warn(message);
    }
}

/// `--shard I/N` or `--shard auto/N` as (I, N).
fn parse_shard(spec: &str) -> Result<(u64, u64)> {
    let bad = |why: &str| -> anyhow::Error {
        RunError::Arguments(format!(
            "--shard {spec}: {why}; expected I/N with 0 <= I < N, such as 3/8, or auto/N"
        ))
        .into()
    };
    let (i, n) = spec.split_once('/').ok_or_else(|| bad("no `/`"))?;
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| bad("N is not a whole number"))?;
    if n == 0 {
        return Err(bad("N is 0"));
    }
    let i = if i.trim() == "auto" {
        let (i, var) =
            shard::shard_from_env(|k| std::env::var(k).ok()).map_err(RunError::Arguments)?;
        if i >= n {
            return Err(bad(&format!(
                "{var} gives shard {i}, beyond the last, {}",
                n - 1
            )));
        }
        i
    } else {
        i.trim()
            .parse()
            .map_err(|_| bad("I is not a whole number"))?
    };
    if i >= n {
        return Err(bad("I is not below N"));
    }
    Ok((i, n))
}

/// `merge`: checks every part, then writes what one run writes (or, with `--check`, lists what is missing).
fn merge(args: &MergeArgs, out: &mut impl Write) -> Result<()> {
    let started = Started::now();
    let command = command_line();
    let parts = Parts::read(&args.parts)?;
    let (header, checked) = (&parts.checked.header, &parts.checked);
    if args.check {
        if checked.missing.is_empty() {
            // Every shard is there: they are added up, so that parts that would not merge are named now.
            let work = shard::work(&parts.scenario, parts.scenario.trials);
            shard::merge(&work, checked).map_err(|e| RunError::Arguments(e.to_string()))?;
            writeln!(
                out,
                "{}: all {} shards are there ({} part files)",
                header.scenario,
                header.shards,
                checked.parts.len()
            )?;
            return Ok(());
        }
        writeln!(out, "{}", shard::array_spec(&checked.missing))?;
        return Err(RunError::Incomplete(format!(
            "{}: {} of {} shards missing: {}",
            header.scenario,
            shard::count(&checked.missing),
            header.shards,
            shard::array_spec(&checked.missing)
        ))
        .into());
    }
    let scenario = &parts.scenario;
    run::check_memory(std::slice::from_ref(scenario), 1, args.max_memory)?;
    let dir = args.out.clone().unwrap_or_else(|| parts.default_out());
    let written = run::shards::merge(
        scenario,
        &parts,
        &dir,
        args.shown.outputs(),
        command,
        started,
        &Terminal(args.shown.quiet),
    )?;
    if !args.shown.quiet {
        study_done(out, scenario, &written)?;
    }
    Ok(())
}

/// `subdual exact`: exact.csv for every file, fights and points without an exact value refused before
/// anything is computed.
fn exact(paths: &[PathBuf], dir: &Path, out: &mut impl Write) -> Result<()> {
    let scenarios = run::load_all(paths)?;
    for warning in run::exact::check(&scenarios)? {
        warn(&warning);
    }
    run::check_ours(&scenarios, dir)?;
    for scenario in &scenarios {
        let written = run::exact::exact(scenario, dir)?;
        writeln!(
            out,
            "{}: exact values of {} points in {:.3} s → {}",
            scenario.file,
            scenario.points.len(),
            written.seconds,
            written.path.display()
        )?;
    }
    Ok(())
}

/// The compact table printed after a run: the headline metric of every point.
///
/// With several variants, a last column gives each other variant's paired difference from the baseline on
/// its headline metric, with the interval its verdict follows (the Holm-adjusted one) and the verdict.
pub fn headline_table(
    scenario: &Scenario,
    study: &Rows<'_>,
    trials: u64,
    elapsed: f64,
    dir: &Path,
) -> String {
    let base_metric = metrics::headline(scenario.action);
    let pct = (scenario.confidence * 100.0).to_string();
    let mut header = vec!["variant".to_string()];
    header.extend(scenario.paths());
    header.extend([
        "level_gap".to_string(),
        base_metric.to_string(),
        format!("{pct}% interval"),
    ]);
    let compared = scenario.variants.len() > 1;
    if compared {
        header.push(format!(
            "difference from {}",
            scenario.variants[scenario.baseline]
        ));
    }
    let shown = study.points().min(SHOWN_POINTS);
    let mut headline_difference: Vec<Option<DifferenceRow<'_>>> = vec![None; shown];
    // Walked only when a point shown has a difference: a variant's points are its sweep in order.
    let grid = scenario.grid();
    if compared && scenario.pairings.iter().any(|p| p.variant * grid < shown) {
        for d in study.differences() {
            let action = scenario.points[d.points.0].action;
            if d.points.0 < shown && d.metric == metrics::headline(action) && d.result.is_ok() {
                let at = d.points.0;
                headline_difference[at] = Some(d);
            }
        }
    }
    let mut rows = vec![header];
    for (i, p) in study.summaries().take(shown).enumerate() {
        let mut row = vec![p.variant.to_string()];
        row.extend(p.values.iter().map(|v| v.to_string()));
        row.push(p.level_gap.to_string());
        let metric = metrics::headline(p.action);
        let named = if metric == base_metric {
            String::new()
        } else {
            format!(" ({metric})")
        };
        match (&p.result, p.metric(metric)) {
            (Ok(_), Some(e)) => {
                let f = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.4}"));
                row.push(format!("{}{named}", f(e.estimate)));
                row.push(format!("[{}, {}]", f(e.ci_low), f(e.ci_high)));
                if let Some(r) = &headline_difference[i]
                    && let Ok(d) = &r.result
                {
                    let g = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:+.4}"));
                    row.push(format!(
                        "{} [{}, {}] {}",
                        g(d.difference),
                        g(r.ci_adjusted.0),
                        g(r.ci_adjusted.1),
                        r.verdict
                    ));
                }
            }
            (Err(reason), _) => {
                row.push("ineligible".to_string());
                row.push(reason.clone());
            }
            _ => row.extend(["-".to_string(), String::new()]),
        }
        rows.push(row);
    }
    let mut text = format!(
        "{} ({}): {} points × {} trials in {:.2} s → {}\n",
        scenario.title,
        scenario.action,
        scenario.points.len(),
        trials,
        elapsed,
        dir.display()
    );
    text.push_str(&table(&rows));
    if study.points() > shown {
        text.push_str(&format!(
            "… the first {} of {} points; every point is in summary.csv\n",
            thousands(shown as u64),
            thousands(study.points() as u64)
        ));
    }
    text
}

/// The most points the terminal's headline table lists: a study of 100,000 points is read in its files,
/// and its table would be 100,000 lines.
pub const SHOWN_POINTS: usize = 1_000;

fn catalog_text(what: Option<CatalogPart>) -> String {
    use crate::reference::Catalog;
    let parts = match what {
        Some(CatalogPart::Weapons) => vec![Catalog::Weapons],
        Some(CatalogPart::Monsters) => vec![Catalog::Monsters],
        Some(CatalogPart::Races) => vec![Catalog::Races],
        Some(CatalogPart::Classes) => vec![Catalog::Classes],
        None => Catalog::ALL.to_vec(),
    };
    let mut text = String::new();
    for part in parts {
        text.push_str(&table(&part.rows()));
        text.push('\n');
    }
    text
}

/// Left-aligned columns separated by two spaces.
fn table(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .map(|r| r.get(c).map_or(0, |s| s.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut text = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}", w = *w))
            .collect();
        text.push_str(cells.join("  ").trim_end());
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod visible_tests {
    use super::*;

    #[test]
    fn visible_output_escapes_controls_even_split_across_writes() {
        let mut bytes = Vec::new();
        {
            let mut v = Visible::new(&mut bytes);
            v.write_all(b"a\x1b[2Jb\tc\n").unwrap();
            // U+009B (CSI) split across two writes, then a © and an é that pass whole, then a carriage return.
            v.write_all(&[b'x', 0xc2]).unwrap();
            v.write_all(&[0x9b, b'y', 0xc2]).unwrap();
            v.write_all(&[0xa9]).unwrap();
            v.write_all("é\r".as_bytes()).unwrap();
            // A 0xC2 last of all is written when the writer goes.
            v.write_all(&[0xc2]).unwrap();
        }
        assert_eq!(
            bytes,
            ["a\\u{1b}[2Jb\tc\nx\\u{9b}y©é\\u{d}".as_bytes(), &[0xc2]].concat()
        );
    }
}

#[cfg(test)]
mod headline_tests {
    use super::*;
    use crate::study::{self, Rows};

    fn table_of(text: &str) -> (usize, String) {
        let s = Scenario::parse("s.toml", "s", text.as_bytes()).expect("valid");
        let results = study::run(&s, 20, &|_| {});
        let rows = Rows::tallied(&s, results, Vec::new());
        (
            s.points.len(),
            headline_table(&s, &rows, 20, 0.5, Path::new("out/s")),
        )
    }

    #[test]
    fn the_headline_table_lists_the_first_points_and_says_where_the_rest_are() {
        let text = include_str!("../scenarios/mugging-level-gap.toml");
        let (points, small) = table_of(text);
        // The line of the study, the header, and every point.
        assert_eq!(small.lines().count(), 2 + points, "{small}");
        assert!(!small.contains("the first"));
        // 2 variants × 20 levels × 33 armor classes.
        let big = text.split("[[chart]]").next().unwrap_or(text).replacen(
            "[sweep]\n",
            "[sweep]\n\"victim.ac\" = { from = -16, to = 16 }\n",
            1,
        );
        let (points, big) = table_of(&big);
        assert_eq!(points, 1320);
        assert_eq!(big.lines().count(), 2 + SHOWN_POINTS + 1, "{big}");
        assert!(
            big.ends_with("… the first 1,000 of 1,320 points; every point is in summary.csv\n"),
            "{}",
            big.lines().last().unwrap_or("")
        );
        // The other variant's rows show their difference from the baseline.
        let last = big.lines().nth(1 + SHOWN_POINTS).unwrap_or("");
        assert!(
            last.contains('[') && last.matches('[').count() == 2,
            "{last}"
        );
    }
}
