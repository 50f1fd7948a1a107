//! How many bytes a run would write, known before it runs, and how much memory it would take. A sweep
//! whose files would fill the disk, or whose rows would not fit in memory, is refused up front rather than
//! after hours of simulation (docs/scenarios.md, "Limits"); the files themselves go to disk as they are made
//! (see [`super::write`]).
//!
//! The projection counts rows exactly where the scenario fixes them (summary, differences, flips,
//! exemplars, tune) and bounds
//! the rest: a distribution has at most one row per value its histogram can hold, and never more than the
//! trials run; a cell holding a float is counted at the longest shortest-round-trip form (24 bytes). The
//! report's tables stop at a fixed number of rows, so it grows with the charts and the scenario's text.

use crate::export::report;
use std::borrow::Cow;

use crate::rules::Ineligible;
use crate::rules::action::{Action, Prepared, Recipe};
use crate::scenario::Scenario;
use crate::stats::Tally;
use crate::stats::metrics;

/// The default largest projected output of one scenario: 1 GiB.
pub const DEFAULT_MAX_OUTPUT_BYTES: u64 = 1 << 30;

/// The widest float cell (`-1.2345678901234567e-100` is 24 bytes).
const FLOAT: u64 = 24;
/// The widest count cell (`u64::MAX` has 20 digits).
const COUNT: u64 = 20;
/// A chart's SVG frame, axes, caption and legend, and what each point adds to them; its PNG is counted by
/// its pixels ([`chart_bytes`]).
const CHART_FRAME: u64 = 128 * 1024;
const CHART_POINT: u64 = 256;

/// A chart of `pixels`: its frame, and its PNG at a third of a byte a pixel (anti-aliased line drawings
/// and text compress to under a fifth at the page size).
fn chart_bytes((width, height): (u32, u32)) -> u64 {
    CHART_FRAME + u64::from(width) * u64::from(height) / 3
}
/// The manifest without its scenario-sized fields.
const MANIFEST: u64 = 4 * 1024;
/// The report's style sheet, headings, sentences and facts, without what the scenario sizes.
const REPORT_FRAME: u64 = 32 * 1024;
/// A report row's tags, numbers and reason, besides its lead cells.
const REPORT_ROW: u64 = 2 * 1024;
/// A told event in the report: its words (names a scenario sets among them, escaped) and its tags.
const REPORT_EVENT: u64 = 2 * 1024;
/// A chart's caption in the report (a title of up to 1,000 bytes, escaped, twice).
const REPORT_CAPTION: u64 = 16 * 1024;

/// The bytes of the lead cells (variant, sweep values, level gap) of one point's rows, with separators and
/// room for quoting.
fn lead(scenario: &Scenario, point: usize) -> u64 {
    let p = &scenario.points[point];
    let text = scenario.variants[p.variant].len() as u64
        + p.values
            .iter()
            .map(|v| v.to_string().len() as u64)
            .sum::<u64>()
        + p.level_gap.to_string().len() as u64;
    // Each cell may gain two quotes and a separator.
    text + 3 * (p.values.len() as u64 + 2)
}

/// What sizing needs of a prepared action: the values each of its distributions can hold, and the bytes
/// of its tally and of itself.
struct Footprint {
    distributions: Vec<u64>,
    tally: u64,
    prepared: u64,
}

/// The footprint of each point or candidate (`None` for an ineligible one), each prepared and dropped in
/// turn, on the calling thread (a projection runs before the workers, whose count `--threads` sets).
fn footprints<'a>(
    prepared: impl Iterator<Item = (Action, Option<Cow<'a, Prepared>>)>,
) -> Vec<Option<Footprint>> {
    prepared
        .map(|(action, prepared)| {
            let prepared = prepared?;
            let tally = metrics::empty_tally(&prepared);
            Some(Footprint {
                distributions: metrics::distributions(action, &tally)
                    .map(|(_, hist)| hist.bins() as u64)
                    .collect(),
                tally: tally_bytes(action, &tally),
                prepared: prepared_bytes(&prepared),
            })
        })
        .collect()
}

/// The footprints of the scenario's points, in order.
fn point_footprints(scenario: &Scenario) -> Vec<Option<Footprint>> {
    footprints(scenario.points.iter().map(|p| (p.action, p.prepare().ok())))
}

/// The projected size in bytes of every file a run of `scenario` at `trials` trials a point writes.
/// Saturates rather than wraps.
pub fn projected_bytes(scenario: &Scenario, trials: u64) -> u64 {
    bytes_with(scenario, trials, &point_footprints(scenario))
}

/// [`projected_bytes`] from the points' footprints.
fn bytes_with(scenario: &Scenario, trials: u64, footprints: &[Option<Footprint>]) -> u64 {
    let mut total = MANIFEST + scenario.file.len() as u64 * 4;
    let grid = scenario.grid() as u64;
    for (i, (p, footprint)) in scenario.points.iter().zip(footprints).enumerate() {
        let lead = lead(scenario, i);
        let summary_rows = metrics::summary_metrics(p.action).count() as u64;
        // metric, estimate, ci_low, ci_high, std_error, trials, status, exact.
        let summary_row = lead + 32 + 5 * FLOAT + COUNT + 64;
        total = total.saturating_add(summary_rows.saturating_mul(summary_row));
        if let Some(footprint) = footprint {
            // metric, value, count, probability.
            let row = lead + 32 + 2 * COUNT + FLOAT + 8;
            for &bins in &footprint.distributions {
                let rows = bins.min(trials);
                total = total.saturating_add(rows.saturating_mul(row));
            }
        }
    }
    for pairing in &scenario.pairings {
        let variant = scenario.variants[pairing.variant].len() as u64;
        // baseline, metric, 7 numbers, verdict, status, baseline_metric, exact: a status may hold a reason.
        let row = 2 * variant + 64 + 8 * FLOAT + COUNT + 256 + lead(scenario, 0);
        let rows = grid.saturating_mul(pairing.comparisons.len() as u64);
        total = total.saturating_add(rows.saturating_mul(row));
        // flips.csv: baseline, metric, 6 numbers, trials and two trial indices, one row a sweep point.
        let flips_row = 2 * variant + 64 + 6 * FLOAT + 3 * COUNT + lead(scenario, 0);
        total = total.saturating_add(grid.saturating_mul(flips_row));
    }
    // exemplars.csv: kind, trial, rounds, four rows a fight point.
    for (i, p) in scenario.points.iter().enumerate() {
        if p.action.is_fight() {
            total = total.saturating_add(4 * (lead(scenario, i) + 16 + 2 * COUNT));
        }
    }
    // tune, sweep values, best value, the values that hold it, metric, monotone, evaluated, exact ones.
    let tune_row = 512 + lead(scenario, 0);
    total = total.saturating_add((scenario.tunes.len() as u64 * grid).saturating_mul(tune_row));
    total.saturating_add(pages_bytes(scenario))
}

/// The charts' files (the scenario's charts, its default one included, and one per tune) and the report,
/// which inlines every chart's SVG: what a run makes in memory.
fn pages_bytes(scenario: &Scenario) -> u64 {
    let chart_points = scenario.points.len() as u64 * CHART_POINT;
    let tune_pixels = crate::scenario::chart::ChartSize::default().pixels();
    let pixels: Vec<(u32, u32)> = scenario
        .charts
        .iter()
        .map(|c| c.pixels)
        .chain(scenario.tunes.iter().map(|_| tune_pixels))
        .collect();
    let charts = pixels
        .iter()
        .map(|&p| chart_bytes(p).saturating_add(chart_points))
        .fold(0u64, u64::saturating_add);
    // The report inlines every chart's SVG, not its PNG.
    let svgs = (pixels.len() as u64).saturating_mul(CHART_FRAME.saturating_add(chart_points));
    charts.saturating_add(report_bytes(scenario, svgs))
}

/// What a run holds besides the scenario's own data: the program, its allocator's arenas and the workers'
/// stacks (measured at 15-17 MiB for the shipped studies at 20,000 trials; counted generously).
const MEMORY_BASE: u64 = 24 << 20;
/// Each worker thread's stack and scratch.
const MEMORY_THREAD: u64 = 8 << 20;
/// A prepared action beyond its own struct: a fight's plan holds face tables of both sides (some 18 KiB;
/// counted at twice that), a single action a few small tables.
const PREPARED_FIGHT: u64 = 36 << 10;
const PREPARED_SINGLE: u64 = 2 << 10;
/// What the allocator adds to each block it hands out, counted generously.
const ALLOCATION: u64 = 32;
/// A histogram sized as values come (no range known in advance) is counted at this many values.
const UNSIZED_BINS: u64 = 1024;

/// The bytes of one point's tally (`tally` empty) for `action`: its counters, and its histograms at the
/// values they can hold (one sized as values come at [`UNSIZED_BINS`] when a metric reads it; one neither
/// sized nor read is never filled).
fn tally_bytes(action: Action, tally: &Tally) -> u64 {
    let bins: u64 = tally
        .hists
        .iter()
        .enumerate()
        .map(|(h, hist)| match hist.bins() {
            0 if metrics::reads(action, crate::rules::maneuver::Hist(h)) => UNSIZED_BINS,
            n => n as u64,
        })
        .sum();
    std::mem::size_of::<crate::stats::Tally>() as u64 + 8 * bins
}

/// The bytes of a prepared action, its struct and its tables (a fight of several holds a fight's plan for
/// every pair of entries, at every stand).
fn prepared_bytes(prepared: &Prepared) -> u64 {
    let plan = match prepared {
        Prepared::Fight(_) => PREPARED_FIGHT,
        Prepared::Gang(g) => PREPARED_FIGHT.saturating_mul(g.fight_plans().max(1) as u64),
        Prepared::Mug(_)
        | Prepared::Sap(_)
        | Prepared::Strike(_)
        | Prepared::GrabObject(_)
        | Prepared::GrabPerson(_)
        | Prepared::GrabMonster(_) => PREPARED_SINGLE,
    };
    plan + std::mem::size_of::<Prepared>() as u64
}

/// The heap a recipe holds besides its struct: each side's entries, their names and attacks.
fn recipe_heap(recipe: &Recipe) -> u64 {
    recipe
        .sides
        .sides
        .iter()
        .map(|side| {
            ALLOCATION
                + side
                    .iter()
                    .map(|e| {
                        let c = &e.combatant;
                        std::mem::size_of_val(e) as u64
                            + c.name.len() as u64
                            + ALLOCATION
                            + (c.attacks.len() * std::mem::size_of::<crate::dice::Dice>()) as u64
                            + ALLOCATION
                            + [
                                Some(&c.weapon),
                                c.backup_weapon.as_ref(),
                                c.opening_weapon.as_ref(),
                            ]
                            .into_iter()
                            .flatten()
                            .map(|w| w.name.len() as u64 + ALLOCATION)
                            .sum::<u64>()
                    })
                    .sum::<u64>()
        })
        .sum()
}

/// The most memory a run of `scenario` on `threads` workers (at any trials a point) is projected to
/// take, in bytes, known before it runs (docs/scenarios.md "Limits"). An upper bound, counted from what a
/// run holds at once: every point (and tune candidate) as its recipe (and prepared, in a study that keeps
/// its points so, `crate::scenario::KEPT_POINTS`), and its tally twice (the results,
/// and a merge's copy of them), each histogram at every value its range can hold; then, while the trials
/// run, each worker's group prepared (a work item prepares its points and drops them when it ends) and
/// the partial results of the work items in flight, or after them the rows the files are made of
/// (`rows_bytes`) and the report and charts, made in memory (the CSV files go to disk as they are made,
/// their summaries and differences made as they are read).
/// A histogram's pages that no value reaches are never touched, so a sweep of wide-ranging damage may take
/// a fraction of its projection. Each point is prepared here to size its tally, one at a time. Saturates
/// rather than wraps.
pub fn projected_memory(scenario: &Scenario, threads: usize) -> u64 {
    let point = std::mem::size_of::<crate::scenario::Point>() as u64;
    let mut held = (scenario.points.len() as u64)
        .saturating_mul(point)
        .saturating_add(joints_bytes(scenario));
    let (mut widest, mut largest) = (0u64, 0u64);
    let points = point_footprints(scenario);
    let candidates: Vec<(Action, &Result<Recipe, Ineligible>)> = scenario
        .tunes
        .iter()
        .flat_map(|t| {
            t.rows
                .iter()
                .flat_map(|r| r.candidates.iter().map(|c| (t.action, c)))
        })
        .collect();
    let candidate_footprints = footprints(candidates.iter().map(|&(action, c)| {
        let prepared = c.as_ref().ok().and_then(|c| c.prepare().ok());
        (action, prepared.map(Cow::Owned))
    }));
    let recipes = scenario
        .points
        .iter()
        .map(|p| &p.recipe)
        .chain(candidates.iter().map(|&(_, c)| c));
    let kept = scenario
        .points
        .iter()
        .map(|p| p.kept.is_some())
        .chain(candidates.iter().map(|_| false));
    for ((recipe, footprint), kept) in recipes
        .zip(points.iter().chain(&candidate_footprints))
        .zip(kept)
    {
        held = held.saturating_add(std::mem::size_of_val(recipe) as u64);
        let (Ok(recipe), Some(footprint)) = (recipe, footprint) else {
            continue;
        };
        // A study of few points keeps them prepared as well (`Point::kept`).
        let prepared = if kept { footprint.prepared } else { 0 };
        held = held
            .saturating_add(recipe_heap(recipe))
            .saturating_add(prepared)
            .saturating_add(2 * footprint.tally);
        widest = widest.max(footprint.tally);
        largest = largest.max(footprint.prepared);
    }
    // A work item's group is every variant of a point, or a candidate and its match: prepared while it runs
    // (one group a worker), its partial results kept until the merge.
    let members = scenario.variants.len().max(2) as u64;
    let prepared = largest
        .saturating_mul(members)
        .saturating_mul(threads.max(1) as u64);
    let partials = widest
        .saturating_mul(members)
        .saturating_mul(2 * 16 * threads.max(1) as u64);
    MEMORY_BASE
        .saturating_add(MEMORY_THREAD.saturating_mul(threads as u64))
        .saturating_add(held)
        .saturating_add(prepared)
        .saturating_add(
            partials.max(rows_bytes(scenario, &points).saturating_add(pages_bytes(scenario))),
        )
}

/// The joint tallies of a run, held from its trials to its files: one a pairing and sweep point, with one
/// sum a comparison; counted twice, as the tallies are (a merge holds the parts it read and their sum).
fn joints_bytes(scenario: &Scenario) -> u64 {
    use std::mem::size_of;
    let joint = size_of::<Option<crate::stats::paired::Joint>>() as u64 + ALLOCATION;
    scenario
        .pairings
        .iter()
        .map(|p| {
            let sums = (p.comparisons.len() * size_of::<crate::stats::paired::Cross>()) as u64;
            (scenario.grid() as u64).saturating_mul(2 * (joint + sums))
        })
        .fold(0u64, u64::saturating_add)
}

/// A value a tune evaluated, as its answer holds it: the value's index and its estimates, in a tree's node
/// (counted generously).
const EVALUATION: u64 = 512;

/// A reason a point did not run, held in its summary and its rows of differences: the words of an
/// ineligibility (counted generously) and their block.
const REASON: u64 = 512 + ALLOCATION;

/// What a row of differences takes while Holm's adjustment is worked out over all of them: its p-value (an
/// `Option<f64>`), its index in the ranking, and the two `f64`s kept of it ([`crate::study::Rows`]).
const JUDGING: u64 = 16 + 8 + 16;

/// The rows a run holds after its trials until its files are made, at their structs' sizes (each vector is
/// sized up front), with room for a reason in each when a point of the study may be ineligible: every
/// tune's answer at each sweep point with the values it evaluated, every row of flips, the four exemplars
/// of each fight point, and Holm's adjustment of every row of differences. The summaries and differences
/// themselves are made as they are read ([`crate::study::Rows`]), but held while charts are drawn (the
/// differences only for a chart of them) and the summaries while tunes are solved.
fn rows_bytes(scenario: &Scenario, footprints: &[Option<Footprint>]) -> u64 {
    use std::mem::size_of;
    let size = |bytes: usize| bytes as u64;
    let reason = if footprints.iter().any(Option::is_none) {
        REASON
    } else {
        0
    };
    let held = !scenario.charts.is_empty() || !scenario.tunes.is_empty();
    let summaries = scenario
        .points
        .iter()
        .filter(|_| held)
        .map(|p| {
            let metrics = metrics::summary_metrics(p.action).count();
            size(size_of::<crate::study::PointSummary<'_>>())
                + size(metrics * size_of::<metrics::MetricValue>())
                + ALLOCATION
                + reason
        })
        .fold(0u64, u64::saturating_add);
    let grid = scenario.grid() as u64;
    let charted = scenario
        .charts
        .iter()
        .any(|c| c.kind == crate::scenario::chart::ChartKind::Difference);
    let row = if charted {
        size(size_of::<crate::study::DifferenceRow<'_>>()) + reason
    } else {
        0
    };
    let differences = scenario
        .pairings
        .iter()
        .map(|p| {
            let rows = grid.saturating_mul(p.comparisons.len().max(1) as u64);
            rows.saturating_mul(JUDGING + row)
        })
        .fold(0u64, u64::saturating_add);
    let flips = grid
        .saturating_mul(scenario.pairings.len() as u64)
        .saturating_mul(2 * size(size_of::<crate::study::flips::FlipRow<'_>>()));
    // A tune's answer at each sweep point, with every value it evaluated (at most each candidate).
    let tunes = scenario
        .tunes
        .iter()
        .flat_map(|t| &t.rows)
        .map(|r| {
            size(size_of::<crate::study::TuneLine<'_>>())
                + size(size_of::<crate::study::tuning::TunePoint>())
                + (r.candidates.len() as u64).saturating_mul(EVALUATION)
                + reason
        })
        .fold(0u64, u64::saturating_add);
    let fights = scenario
        .points
        .iter()
        .filter(|p| p.action.is_fight())
        .count() as u64;
    let exemplars = fights.saturating_mul(4 * size(size_of::<crate::study::exemplars::Exemplar>()));
    summaries
        .saturating_add(tunes)
        .saturating_add(differences)
        .saturating_add(flips)
        .saturating_add(exemplars)
}

/// report.html: its frame, the scenario's text (shown whole, and its title and opening comments again),
/// every chart's SVG and caption, its stories ([`report::told_stories`] of at most
/// [`report::TOLD_EVENTS`] events), and its six tables (headline, differences twice, flips, tunes,
/// ineligible points) at most [`report::MAX_ROWS`] rows each. Any text may grow six times when escaped (`"` is
/// `&quot;`).
fn report_bytes(scenario: &Scenario, charts: u64) -> u64 {
    let text = 4 * 6 * scenario.text.len() as u64;
    let widest = (0..scenario.points.len())
        .map(|i| lead(scenario, i))
        .max()
        .unwrap_or(0);
    let rows = [
        scenario.points.len() as u64,
        scenario.grid() as u64 * scenario.pairings.len() as u64,
        scenario.grid() as u64 * scenario.pairings.len() as u64,
        scenario.grid() as u64
            * scenario
                .pairings
                .iter()
                .map(|p| p.comparisons.len() as u64)
                .sum::<u64>(),
        scenario.tunes.len() as u64 * scenario.grid() as u64,
        scenario.points.len() as u64,
    ]
    .iter()
    .map(|n| (*n).min(report::MAX_ROWS as u64))
    .sum::<u64>();
    let captions = (scenario.charts.len() + scenario.tunes.len()) as u64 * REPORT_CAPTION;
    let told = report::told_stories(scenario) as u64 * report::TOLD_EVENTS as u64 * REPORT_EVENT;
    REPORT_FRAME
        .saturating_add(text)
        .saturating_add(charts)
        .saturating_add(captions)
        .saturating_add(told)
        .saturating_add(rows.saturating_mul(REPORT_ROW + 6 * widest))
}

/// A size for a message: bytes, KiB, MiB or GiB.
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["bytes", "KiB", "MiB", "GiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::csv::{distributions_csv, summary_csv};
    use crate::study;
    use crate::study::summarize;

    fn shipped(name: &str, text: &str) -> Scenario {
        Scenario::parse(name, name, text.as_bytes()).expect("a shipped scenario is valid")
    }

    /// Every shipped scenario, by name and text.
    const SHIPPED: [(&str, &str); 12] = [
        (
            "brawl-vs-armed-guard",
            include_str!("../../scenarios/brawl-vs-armed-guard.toml"),
        ),
        (
            "grab-monster-size",
            include_str!("../../scenarios/grab-monster-size.toml"),
        ),
        (
            "grab-person-hands",
            include_str!("../../scenarios/grab-person-hands.toml"),
        ),
        (
            "grab-the-sword",
            include_str!("../../scenarios/grab-the-sword.toml"),
        ),
        (
            "mugging-halfling-reach",
            include_str!("../../scenarios/mugging-halfling-reach.toml"),
        ),
        (
            "mugging-level-gap",
            include_str!("../../scenarios/mugging-level-gap.toml"),
        ),
        (
            "sap-or-mug-the-sentry",
            include_str!("../../scenarios/sap-or-mug-the-sentry.toml"),
        ),
        (
            "sap-sentry",
            include_str!("../../scenarios/sap-sentry.toml"),
        ),
        (
            "strike-flat-of-the-blade",
            include_str!("../../scenarios/strike-flat-of-the-blade.toml"),
        ),
        (
            "subdue-ogre",
            include_str!("../../scenarios/subdue-ogre.toml"),
        ),
        (
            "take-the-sentry-alive",
            include_str!("../../scenarios/take-the-sentry-alive.toml"),
        ),
        (
            "thugs-on-a-guard",
            include_str!("../../scenarios/thugs-on-a-guard.toml"),
        ),
    ];

    #[test]
    fn a_histogram_neither_sized_nor_read_is_never_filled() {
        // The projection counts such a histogram at nothing; a maneuver that filled one would outgrow it.
        let mut unread = 0;
        for (name, text) in SHIPPED {
            let mut s = shipped(name, text);
            s.trials = 200;
            let results = study::run(&s, s.trials, &|_| {});
            for (point, tally) in s.points.iter().zip(&results.tallies) {
                let Some(tally) = tally else { continue };
                let empty = metrics::empty_tally(&point.prepare().unwrap());
                for (h, (after, before)) in tally.hists.iter().zip(&empty.hists).enumerate() {
                    if before.bins() == 0
                        && !metrics::reads(point.action, crate::rules::maneuver::Hist(h))
                    {
                        unread += 1;
                        assert_eq!(
                            after.bins(),
                            0,
                            "{name}: histogram {h} of {:?}",
                            point.action
                        );
                    }
                }
            }
        }
        assert!(unread > 0);
    }

    #[test]
    fn the_projection_bounds_what_a_run_writes() {
        let mut s = shipped(
            "sap-sentry",
            include_str!("../../scenarios/sap-sentry.toml"),
        );
        s.trials = 3000;
        let results = study::run(&s, s.trials, &|_| {});
        let summaries = summarize(&s, &results.tallies);
        let mut bytes = Vec::new();
        summary_csv(&mut bytes, &s, summaries, true).unwrap();
        distributions_csv(&mut bytes, &s, &results.tallies).unwrap();
        let written = bytes.len();
        let projected = projected_bytes(&s, s.trials) as usize;
        assert!(projected >= written, "{projected} < {written}");
        // A bound, not a guess a hundred times too big.
        assert!(projected < 100 * written, "{projected} vs {written}");
    }

    #[test]
    fn more_points_project_more_bytes_and_a_huge_trial_count_does_not_wrap() {
        let text = include_str!("../../scenarios/mugging-level-gap.toml");
        let small = shipped("small", &text.replace("to = 20", "to = 2"));
        let big = shipped("big", text);
        // Each point adds its rows (five metrics of at least 150 bytes each), whatever the charts take.
        let added = (big.points.len() - small.points.len()) as u64;
        assert!(projected_bytes(&big, 1000) > projected_bytes(&small, 1000) + added * 750);
        assert!(projected_bytes(&big, u64::MAX) < u64::MAX);
        assert!(projected_bytes(&big, u64::MAX) >= projected_bytes(&big, 1000));
    }

    #[test]
    fn memory_grows_with_points_histograms_and_threads_and_does_not_wrap() {
        let text = include_str!("../../scenarios/mugging-level-gap.toml");
        let small = shipped("small", &text.replace("to = 20", "to = 2"));
        let big = shipped("big", text);
        assert!(projected_memory(&big, 1) > projected_memory(&small, 1));
        assert!(projected_memory(&big, 8) > projected_memory(&big, 1));
        // Big dice widen a sap's damage histogram: each tally is counted at every value it can hold.
        let sap = include_str!("../../scenarios/sap-sentry.toml");
        let club = shipped("club", sap);
        let wide = shipped(
            "wide",
            &sap.replace(
                "weapon = \"club\"",
                "weapon = { name = \"maul\", damage = \"100d1000\", damage_large = \"100d1000\" }",
            ),
        );
        let points = club.points.len() as u64;
        assert!(projected_memory(&wide, 1) > projected_memory(&club, 1) + points * 100_000);
        assert!(projected_memory(&big, 4096) < u64::MAX);
    }

    #[test]
    fn sizes_read_as_a_person_would_write_them() {
        assert_eq!(human(512), "512 bytes");
        assert_eq!(human(1536), "1.5 KiB");
        assert_eq!(human(3 << 30), "3.0 GiB");
    }
}
