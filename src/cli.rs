//! The command line: the only place that knows about arguments, terminals, progress bars and where files go.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::engine;
use crate::export::chart;
use crate::export::csv::{differences_csv, distributions_csv, summary_csv, tune_csv};
use crate::export::manifest::{Manifest, RunInfo, ShardInfo, pretty_json, rfc3339, written_files};
use crate::export::report::{Report, report_html};
use crate::export::size;
use crate::export::summary::{PointSummary, summarize, tune_lines};
use crate::export::write::{check_writable, write_part, write_study};
use crate::scenario::Scenario;
use crate::scenario::locate::ScenarioError;
use crate::shard;
use crate::stats::metrics;
use crate::study::{self, tuning};

/// Bad input: exit code 2. Everything else that fails is exit code 1.
#[derive(Debug, thiserror::Error)]
pub enum BadInput {
    /// A scenario file that does not validate.
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// Arguments that clap accepts but that do not make sense together.
    #[error("{0}")]
    Arguments(String),
}

/// `merge --check` found shards missing: exit code 3, so a script resubmits only those.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Incomplete(pub String);

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
    },
    /// Compute the exact value of every summary metric of single-action scenarios: DIR/<stem>/exact.csv.
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
    #[command(flatten)]
    shown: Shown,
}

/// What a study's files and terminal show: the options `run` and `merge` share, so that a merge can write
/// what a run with the same options writes.
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

#[derive(Debug, Clone, Copy, ValueEnum)]
enum CatalogPart {
    Weapons,
    Monsters,
    Races,
    Classes,
}

/// Runs the command line.
pub fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Run(args) => run(&args),
        Command::Check { scenarios } => check(&scenarios),
        Command::Exact { scenarios, out } => exact(&scenarios, &out),
        Command::Merge(args) => merge(&args),
        Command::Catalog { what } => {
            print!("{}", catalog_text(what));
            Ok(())
        }
        Command::Schema => {
            println!("{}", crate::reference::schema_text());
            Ok(())
        }
        Command::Reference { part } => match part {
            None => {
                for (name, about) in crate::reference::PARTS {
                    println!("{name:<20} {about}");
                }
                Ok(())
            }
            Some(name) => match crate::reference::part(&name) {
                Some(text) => {
                    print!("{text}");
                    Ok(())
                }
                None => Err(BadInput::Arguments(format!(
                    "no reference part `{name}`: expected one of {}",
                    crate::reference::PARTS.map(|(n, _)| n).join(", ")
                ))
                .into()),
            },
        },
    }
}

/// Loads and validates every file before anything runs: one bad file, nothing runs.
fn load_all(paths: &[PathBuf]) -> Result<Vec<Scenario>> {
    let mut scenarios: Vec<Scenario> = Vec::new();
    for path in paths {
        let scenario = Scenario::load(path).map_err(BadInput::from)?;
        if let Some(other) = scenarios.iter().find(|s| s.stem == scenario.stem) {
            return Err(BadInput::Arguments(format!(
                "{} and {} have the same stem `{}`: their outputs would overwrite each other",
                other.file, scenario.file, scenario.stem
            ))
            .into());
        }
        scenarios.push(scenario);
    }
    Ok(scenarios)
}

fn check(paths: &[PathBuf]) -> Result<()> {
    let scenarios = load_all(paths)?;
    let mut out = std::io::stdout().lock();
    for s in &scenarios {
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
        let work = shard::work(s, s.trials);
        writeln!(
            out,
            "  items:    {} ({} groups × {} blocks; --shard I/N splits them)",
            work.items(),
            work.groups.len(),
            work.blocks
        )?;
    }
    Ok(())
}

fn run(args: &RunArgs) -> Result<()> {
    let mut scenarios = load_all(&args.scenarios)?;
    for s in &mut scenarios {
        if let Some(t) = args.trials {
            s.trials = t;
        }
        if let Some(seed) = args.seed {
            s.seed = seed;
        }
    }
    let threads = args
        .threads
        .map(|t| t as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // `args_os`: an argument that is not UTF-8 (a file name in another encoding) is shown, not a panic.
    let command = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ");
    if let Some(target) = args.target_error {
        check_target_error(&scenarios, target, args.max_trials)?;
    }
    check_output_size(&scenarios, args)?;
    for scenario in &scenarios {
        check_writable(&args.out, &scenario.stem).map_err(|e| {
            BadInput::Arguments(format!(
                "cannot write in the output folder {}: {e}",
                args.out.display()
            ))
        })?;
    }
    if let Some(spec) = &args.shard {
        let (index, shards) = parse_shard(spec)?;
        for scenario in &scenarios {
            run_shard(scenario, index, shards, args, threads, &command)?;
        }
        return Ok(());
    }
    if args.shown.exact {
        // Said before anything runs: a missing exact value is known from the dice alone.
        for scenario in &scenarios {
            let (points, tunes) = without_exact(scenario);
            for warning in points {
                eprintln!("warning: {warning}; its `exact` column stays empty");
            }
            for warning in tunes {
                eprintln!("warning: {warning}; tune.csv has no exact best value where they are");
            }
        }
    }
    for scenario in &scenarios {
        run_one(scenario, args, threads, &command)?;
    }
    Ok(())
}

/// Where a point is, for a message: its file, variant and sweep values.
fn point_label(scenario: &Scenario, point: &crate::scenario::Point) -> String {
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
fn without_exact(scenario: &Scenario) -> (Vec<String>, Vec<String>) {
    use crate::stats::exact::check;
    let points = scenario
        .points
        .iter()
        .filter(|point| !point.action.is_fight())
        .filter_map(|point| {
            let why = check(point.prepared.as_ref().ok()?).err()?;
            Some(format!(
                "{}: no exact value: {why}",
                point_label(scenario, point)
            ))
        })
        .collect();
    let tunes = scenario
        .tunes
        .iter()
        .filter(|tune| !tune.action.is_fight())
        .filter_map(|tune| {
            let refused: Vec<_> = tune
                .rows
                .iter()
                .flat_map(|row| &row.candidates)
                .filter_map(|c| check(c.as_ref().ok()?).err())
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

fn progress_bar(total: u64, quiet: bool, label: &str) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{prefix} [{bar:40}] {percent:>3}% {human_pos}/{human_len} trials, {per_sec}, eta {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(label.to_string());
    bar
}

fn run_one(scenario: &Scenario, args: &RunArgs, threads: usize, command: &str) -> Result<()> {
    let started = SystemTime::now();
    let clock = Instant::now();
    let mut trials = match args.target_error {
        Some(_) => engine::BLOCK_SIZE,
        None => scenario.trials,
    };
    let (results, summaries) = loop {
        let total = scenario.eligible_points() as u64 * trials;
        let bar = progress_bar(total, args.shown.quiet, &scenario.stem);
        let results =
            engine::with_threads(threads, || study::run(scenario, trials, &|n| bar.inc(n)))
                .context("cannot start the worker threads")?;
        bar.finish_and_clear();
        let summaries = summarize(scenario, &results.tallies);
        match args.target_error {
            Some(target) if !within(scenario, &summaries, target) => {
                let most = args.max_trials.unwrap_or(DEFAULT_MAX_TRIALS);
                if trials >= most {
                    eprintln!(
                        "{}: stopped at {trials} trials a point (--max-trials {most}) before every headline interval reached ±{target}",
                        scenario.file
                    );
                    break (results, summaries);
                }
                trials = (trials * 2).min(most)
            }
            _ => break (results, summaries),
        }
    };
    let simulate = |_: &[tuning::Candidate], groups: &[engine::Group<'_>]| {
        let bar = progress_bar(0, args.shown.quiet, &format!("{} tunes", scenario.stem));
        let solved = engine::with_threads(threads, || {
            engine::run_groups(groups, trials, scenario.seed, &|n| bar.inc(n))
        });
        bar.finish_and_clear();
        solved
    };
    let run = |elapsed_s: f64| RunInfo {
        threads,
        started: rfc3339(started),
        elapsed_s,
        command: command.to_string(),
        shards: Vec::new(),
    };
    finish(
        scenario, &results, summaries, trials, &args.out, args.shown, &simulate, &run, clock,
    )
}

/// The results of a tune's candidates, from the engine (`run`) or from the shards' tallies (`merge`).
type Candidates<'e> = dyn Fn(
        &[tuning::Candidate],
        &[engine::Group<'_>],
    ) -> Result<Vec<engine::GroupResult>, rayon::ThreadPoolBuildError>
    + 'e;

/// Everything after the simulation, shared by `run` and `merge` so that a merge of shards writes what one
/// run writes, through the same code: exact values, differences, tunes (their candidates' results from
/// `candidates`), every file, the headline table. `run` builds run.json from the elapsed seconds.
#[allow(clippy::too_many_arguments)]
fn finish(
    scenario: &Scenario,
    results: &study::Results,
    mut summaries: Vec<PointSummary<'_>>,
    trials: u64,
    out: &Path,
    opts: Shown,
    candidates: &Candidates<'_>,
    run: &dyn Fn(f64) -> RunInfo,
    clock: Instant,
) -> Result<()> {
    let tallies = &results.tallies;
    if opts.exact {
        add_exact(scenario, &mut summaries);
    }
    let mut differences = study::differences(scenario, results);
    if opts.exact {
        study::add_exact(&mut differences, &summaries);
    }
    let tuned = if scenario.tunes.is_empty() {
        Vec::new()
    } else {
        // The search asks round by round; a failure to start the workers ends it with no answer.
        let failed = std::cell::Cell::new(false);
        let solved = tuning::solve_with(scenario, &summaries, opts.exact, &|asked, groups| {
            candidates(asked, groups).unwrap_or_else(|_| {
                failed.set(true);
                vec![engine::GroupResult::default(); groups.len()]
            })
        });
        if failed.get() {
            anyhow::bail!("cannot start the worker threads");
        }
        solved
    };
    // The tunes' answers, as tune.csv and the report both show them.
    let lines = tune_lines(scenario, &tuned);
    let elapsed = clock.elapsed().as_secs_f64();
    let mut chart_seconds = 0.0;
    let mut files = vec![
        (
            "summary.csv".to_string(),
            summary_csv(scenario, &summaries, opts.exact),
        ),
        (
            "distributions.csv".to_string(),
            distributions_csv(scenario, &summaries, tallies),
        ),
    ];
    if scenario.variants.len() > 1 {
        files.push((
            "differences.csv".to_string(),
            differences_csv(scenario, &differences, opts.exact),
        ));
    }
    if !scenario.tunes.is_empty() {
        files.push((
            "tune.csv".to_string(),
            tune_csv(scenario, &lines, opts.exact),
        ));
    }
    let mut charts = None;
    if !opts.no_charts {
        let started = Instant::now();
        let drawn = chart::render(scenario, &summaries, tallies, &differences, &tuned, trials)
            .map_err(anyhow::Error::msg)?;
        files.extend(drawn.iter().flat_map(chart::Drawn::files));
        charts = Some(drawn);
        chart_seconds = started.elapsed().as_secs_f64();
    }
    let manifest = Manifest {
        tool: "subdual".to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        scenario: scenario.file.clone(),
        scenario_sha256: scenario.sha256.clone(),
        seed: scenario.seed,
        trials,
        block_size: engine::BLOCK_SIZE,
        variants: scenario.variants.clone(),
        points: scenario.points.len(),
        files: written_files(&files),
    };
    let run = run(elapsed);
    // Always written: without charts it still holds every table.
    let report = report_html(&Report {
        scenario,
        manifest: &manifest,
        run: &run,
        summaries: &summaries,
        differences: &differences,
        tunes: &lines,
        charts: charts.as_deref(),
        exact: opts.exact,
    });
    files.push(("report.html".to_string(), report));
    files.push(("manifest.json".to_string(), pretty_json(&manifest)));
    files.push(("run.json".to_string(), pretty_json(&run)));
    let dir = write_study(out, &scenario.stem, &files, false).with_context(|| {
        format!(
            "cannot write the results to {}",
            out.join(&scenario.stem).display()
        )
    })?;
    if !opts.quiet {
        print!(
            "{}",
            headline_table(scenario, &summaries, &differences, trials, elapsed, &dir)
        );
        if !scenario.charts.is_empty() && !opts.no_charts {
            println!(
                "{} chart(s) drawn in {chart_seconds:.2} s",
                scenario.charts.len()
            );
        }
    }
    Ok(())
}

/// `--shard I/N` or `--shard auto/N` as (I, N).
fn parse_shard(spec: &str) -> Result<(u64, u64)> {
    let bad = |why: &str| -> anyhow::Error {
        BadInput::Arguments(format!(
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
            shard::shard_from_env(|k| std::env::var(k).ok()).map_err(BadInput::Arguments)?;
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

/// Runs one shard of a study and writes its part; an identical part already there is left as it is.
fn run_shard(
    scenario: &Scenario,
    index: u64,
    shards: u64,
    args: &RunArgs,
    threads: usize,
    command: &str,
) -> Result<()> {
    let name = shard::part_name(index, shards);
    let parts = args.out.join(&scenario.stem).join("parts");
    let path = parts.join(&name);
    let work = shard::work(scenario, scenario.trials);
    if let Ok(bytes) = std::fs::read(&path)
        && let Ok(part) = shard::decode(&bytes)
        && part.header == shard::Header::new(scenario, &work, shards)
        && part.shard == index
    {
        if !args.shown.quiet {
            println!(
                "{}: shard {index} of {shards} is already done: {}",
                scenario.file,
                path.display()
            );
        }
        return Ok(());
    }
    let started = SystemTime::now();
    let clock = Instant::now();
    let items = work.shard_items(index, shards);
    let bar = progress_bar(
        work.trials_to_run(items.clone(), scenario.trials),
        args.shown.quiet,
        &format!("{} shard {index}", scenario.stem),
    );
    let mut part = engine::with_threads(threads, || {
        shard::run_shard(
            scenario,
            &work,
            index,
            shards,
            shard::RunFacts {
                threads,
                started: rfc3339(started),
                elapsed_ms: 0,
                command: command.to_string(),
            },
            &|n| bar.inc(n),
        )
    })
    .context("cannot start the worker threads")?;
    bar.finish_and_clear();
    part.run.elapsed_ms = clock.elapsed().as_millis() as u64;
    let written = write_part(&parts, &name, &shard::encode(&part))
        .with_context(|| format!("cannot write the part {}", path.display()))?;
    if !args.shown.quiet {
        println!(
            "{}: shard {index} of {shards} (items {}..{} of {}) in {:.2} s → {}",
            scenario.file,
            items.start,
            items.end,
            work.items(),
            clock.elapsed().as_secs_f64(),
            written.display()
        );
    }
    Ok(())
}

/// The part files named on the command line: files as given, folders by their `part-*.json` files.
fn part_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("cannot read {}", path.display()))?
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
                return Err(BadInput::Arguments(format!(
                    "{}: no part files (part-I-of-N.json) in this folder",
                    path.display()
                ))
                .into());
            }
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// `merge`: checks every part, then writes what one run writes (or, with `--check`, lists what is missing).
fn merge(args: &MergeArgs) -> Result<()> {
    let started = SystemTime::now();
    let clock = Instant::now();
    let command = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ");
    let files = part_files(&args.parts)?;
    let mut parts = Vec::new();
    for file in &files {
        let bytes = std::fs::read(file).map_err(|e| {
            BadInput::Arguments(format!("{}: cannot read the part: {e}", file.display()))
        })?;
        let part = shard::decode(&bytes)
            .map_err(|e| BadInput::Arguments(format!("{}: {e}", file.display())))?;
        parts.push((file.display().to_string(), part));
    }
    let checked = shard::check(parts).map_err(|e| BadInput::Arguments(e.to_string()))?;
    let header = checked.header.clone();
    if header.version != env!("CARGO_PKG_VERSION") {
        return Err(BadInput::Arguments(format!(
            "{}: the parts were made by subdual {}, this is {}: merge them with that version",
            checked.parts[0].0,
            header.version,
            env!("CARGO_PKG_VERSION")
        ))
        .into());
    }
    if args.check {
        if checked.missing.is_empty() {
            println!(
                "{}: all {} shards are there ({} part files)",
                header.scenario,
                header.shards,
                checked.parts.len()
            );
            return Ok(());
        }
        println!("{}", shard::array_spec(&checked.missing));
        return Err(Incomplete(format!(
            "{}: {} of {} shards missing: {}",
            header.scenario,
            checked.missing.len(),
            header.shards,
            shard::array_spec(&checked.missing)
        ))
        .into());
    }
    // The study as the shards ran it: rebuilt from the text they carry, checked against its hash.
    let mut scenario = Scenario::parse(
        &header.scenario,
        &header.stem,
        header.scenario_text.as_bytes(),
    )
    .map_err(BadInput::from)?;
    scenario.seed = header.seed;
    scenario.trials = header.trials;
    let work = shard::work(&scenario, scenario.trials);
    if scenario.sha256 != header.scenario_sha256
        || shard::Header::new(&scenario, &work, header.shards) != header
    {
        return Err(BadInput::Arguments(format!(
            "{}: the scenario the parts carry does not rebuild the study they describe",
            checked.parts[0].0
        ))
        .into());
    }
    let merged = shard::merge(&work, &checked).map_err(|e| BadInput::Arguments(e.to_string()))?;
    let (main, candidates) = merged.split_at(work.points);
    let results = study::results_of(&scenario, main.to_vec());
    let summaries = summarize(&scenario, &results.tallies);
    let lookup = |asked: &[tuning::Candidate], _: &[engine::Group<'_>]| {
        Ok(asked
            .iter()
            .map(|c| {
                let k = work.candidates.iter().position(|x| x == c);
                k.map(|k| candidates[k].clone()).unwrap_or_default()
            })
            .collect())
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_merge_out(&files, &header.stem));
    let shards: Vec<ShardInfo> = checked
        .parts
        .iter()
        .map(|(file, p)| ShardInfo {
            file: file.clone(),
            shard: p.shard,
            of: header.shards,
            items: p.items,
            threads: p.run.threads,
            started: p.run.started.clone(),
            elapsed_s: p.run.elapsed_ms as f64 / 1000.0,
            command: p.run.command.clone(),
        })
        .collect();
    let run = |elapsed_s: f64| RunInfo {
        threads: 1,
        started: rfc3339(started),
        elapsed_s,
        command: command.clone(),
        shards: shards.clone(),
    };
    finish(
        &scenario,
        &results,
        summaries,
        scenario.trials,
        &out,
        args.shown,
        &lookup,
        &run,
        clock,
    )
}

/// Where a merge writes when `--out` is not given: DIR for parts in DIR/<stem>/parts, else `output`.
fn default_merge_out(files: &[PathBuf], stem: &str) -> PathBuf {
    files
        .first()
        .and_then(|f| f.parent())
        .filter(|parts| parts.file_name().is_some_and(|n| n == "parts"))
        .and_then(|parts| parts.parent())
        .filter(|study| {
            study
                .file_name()
                .is_some_and(|n| n.to_string_lossy() == stem)
        })
        .and_then(|study| study.parent())
        .map_or_else(|| PathBuf::from("output"), Path::to_path_buf)
}

/// The most trials `--target-error` may reach per point, unless `--max-trials` says otherwise: about a
/// billion, minutes a point for a single action, so that a target too fine is stopped, not run for hours.
const DEFAULT_MAX_TRIALS: u64 = 1 << 30;

/// Refuses a scenario whose files would outgrow `--max-output` (their projection at the trials the run may
/// reach), before any simulation.
fn check_output_size(scenarios: &[Scenario], args: &RunArgs) -> Result<()> {
    let most = args
        .max_output
        .map_or(size::DEFAULT_MAX_OUTPUT_BYTES, |mib| mib << 20);
    for s in scenarios {
        let trials = match args.target_error {
            Some(_) => args.max_trials.unwrap_or(DEFAULT_MAX_TRIALS),
            None => s.trials,
        };
        let projected = size::projected_bytes(s, trials);
        if projected > most {
            return Err(BadInput::Arguments(format!(
                "{}: its {} points would write up to {} of files, more than --max-output {} MiB; \
                 sweep fewer values (or split the sweep into several scenarios), or raise --max-output",
                s.file,
                s.points.len(),
                size::human(projected),
                most >> 20
            ))
            .into());
        }
    }
    Ok(())
}

/// Refuses a `--target-error` that is not a positive finite number, or that no run within
/// `--max-trials` can reach: even a probability of 0 has a Wilson half-width near z²/(2n), so a
/// probability headline needs at least z²/(2E) trials.
fn check_target_error(scenarios: &[Scenario], target: f64, max_trials: Option<u64>) -> Result<()> {
    if !(target.is_finite() && target > 0.0) {
        return Err(BadInput::Arguments(format!(
            "--target-error {target}: expected a positive number, such as 0.001"
        ))
        .into());
    }
    let most = max_trials.unwrap_or(DEFAULT_MAX_TRIALS);
    for s in scenarios {
        let z = crate::stats::interval::z_for(s.confidence);
        // The metric `within` waits on: the file's action's headline.
        let probability = metrics::headline_kind(s.action) == metrics::Kind::Probability;
        let least = z * z / (2.0 * target);
        if probability && least > most as f64 {
            return Err(BadInput::Arguments(format!(
                "{}: --target-error {target} needs at least {least:.3e} trials a point, more than --max-trials {most}: ask for a larger error, or raise --max-trials",
                s.file
            ))
            .into());
        }
    }
    Ok(())
}

/// Whether every headline metric's interval half-width is at most `target` (points without a value, such
/// as a mean over no trial, do not hold the run back).
fn within(scenario: &Scenario, summaries: &[PointSummary<'_>], target: f64) -> bool {
    let headline = metrics::headline(scenario.action);
    summaries.iter().all(|p| match p.metric(headline) {
        Some(e) => match (e.ci_low, e.ci_high) {
            (Some(low), Some(high)) => (high - low) / 2.0 <= target,
            _ => true,
        },
        None => true,
    })
}

/// Fills in the exact value of every metric of every single-action point.
fn add_exact(scenario: &Scenario, summaries: &mut [PointSummary<'_>]) {
    for (point, summary) in scenario.points.iter().zip(summaries.iter_mut()) {
        let (Ok(prepared), Ok(metrics)) = (&point.prepared, &mut summary.result) else {
            continue;
        };
        // A point without one was named before the run (`without_exact`).
        let Ok(exact) = crate::stats::exact::exact(prepared, point.action) else {
            continue;
        };
        for m in metrics.iter_mut() {
            m.exact = exact
                .iter()
                .find(|e| e.metric == m.metric)
                .and_then(|e| e.exact);
        }
    }
}

/// `subdual exact`: exact.csv for every file, fights refused before anything is computed. The run's
/// report.html is kept as it was: it shows one run's tallies and differences, which this command does not
/// have; `run --exact` writes a report with exact values (docs/scenarios.md "Outputs").
fn exact(paths: &[PathBuf], out: &Path) -> Result<()> {
    let scenarios = load_all(paths)?;
    for s in &scenarios {
        if let Some(fight) = s.actions.iter().find(|a| a.is_fight()) {
            return Err(BadInput::Arguments(format!(
                "{}: action `{fight}` is a fight; exact values exist only for the single actions (mug, sap, strike, grab_object, grab_person, grab_monster)",
                s.file
            ))
            .into());
        }
    }
    // Every point of every file is counted before any is walked: one refused point, nothing is computed.
    let mut tune_warnings = Vec::new();
    for scenario in &scenarios {
        let (points, tunes) = without_exact(scenario);
        if let Some(refused) = points.first() {
            return Err(BadInput::Arguments(format!("{refused}; run it without `exact`")).into());
        }
        tune_warnings.extend(tunes);
    }
    for warning in &tune_warnings {
        eprintln!("warning: {warning}");
    }
    for scenario in &scenarios {
        let clock = Instant::now();
        let mut summaries: Vec<PointSummary<'_>> = Vec::with_capacity(scenario.points.len());
        for point in &scenario.points {
            let result = match &point.prepared {
                Ok(p) => Ok(crate::stats::exact::exact(p, point.action).map_err(|why| {
                    BadInput::Arguments(format!(
                        "{}: no exact value: {why}; run it without `exact`",
                        point_label(scenario, point)
                    ))
                })?),
                Err(reason) => Err(reason.to_string()),
            };
            summaries.push(PointSummary {
                variant: &scenario.variants[point.variant],
                values: &point.values,
                level_gap: point.level_gap,
                action: point.action,
                result,
            });
        }
        let dir = out.join(&scenario.stem);
        let mut files = vec![(
            "exact.csv".to_string(),
            summary_csv(scenario, &summaries, false),
        )];
        if scenario.variants.len() > 1 {
            let rows = study::exact_differences(scenario, &summaries);
            files.push((
                "exact-differences.csv".to_string(),
                differences_csv(scenario, &rows, false),
            ));
        }
        if !scenario.tunes.is_empty() {
            let solved = tuning::solve_exact(scenario);
            files.push((
                "exact-tune.csv".to_string(),
                tune_csv(scenario, &tune_lines(scenario, &solved), false),
            ));
        }
        write_study(out, &scenario.stem, &files, true)
            .with_context(|| format!("cannot write the results to {}", dir.display()))?;
        println!(
            "{}: exact values of {} points in {:.3} s → {}",
            scenario.file,
            scenario.points.len(),
            clock.elapsed().as_secs_f64(),
            dir.join("exact.csv").display()
        );
    }
    Ok(())
}

/// The compact table printed after a run: the headline metric of every point.
///
/// With several variants, a last column gives each other variant's paired difference from the baseline on
/// its headline metric, with its interval and verdict.
pub fn headline_table(
    scenario: &Scenario,
    summaries: &[PointSummary<'_>],
    differences: &[study::DifferenceRow<'_>],
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
    let mut headline_difference: Vec<Option<&study::DifferenceRow<'_>>> =
        vec![None; summaries.len()];
    for d in differences {
        let action = scenario.points[d.points.0].action;
        if d.metric == metrics::headline(action) && d.result.is_ok() {
            headline_difference[d.points.0] = Some(d);
        }
    }
    let mut rows = vec![header];
    for (i, p) in summaries.iter().enumerate() {
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
                if let Some(Ok(d)) = headline_difference[i].map(|d| &d.result) {
                    let g = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:+.4}"));
                    row.push(format!(
                        "{} [{}, {}] {}",
                        g(d.difference),
                        g(d.ci_low),
                        g(d.ci_high),
                        headline_difference[i].map_or("", |d| d.verdict)
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
    text
}

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
