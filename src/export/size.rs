//! How many bytes a run would write, known before it runs. A study's files are built in memory and then
//! written whole (see [`super::write`]), so a sweep whose CSVs would not fit is refused up front rather than
//! after hours of simulation (docs/scenarios.md, "Limits").
//!
//! The projection counts rows exactly where the scenario fixes them (summary, differences, flips,
//! exemplars, tune) and bounds
//! the rest: a distribution has at most one row per value its histogram can hold, and never more than the
//! trials run; a cell holding a float is counted at the longest shortest-round-trip form (24 bytes). The
//! report's tables stop at a fixed number of rows, so it grows with the charts and the scenario's text.

use crate::export::report;
use crate::scenario::Scenario;
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

/// The projected size in bytes of every file a run of `scenario` at `trials` trials a point writes.
/// Saturates rather than wraps.
pub fn projected_bytes(scenario: &Scenario, trials: u64) -> u64 {
    let mut total = MANIFEST + scenario.file.len() as u64 * 4;
    let grid = scenario.grid() as u64;
    for (i, p) in scenario.points.iter().enumerate() {
        let lead = lead(scenario, i);
        let summary_rows = metrics::summary_metrics(p.action).count() as u64;
        // metric, estimate, ci_low, ci_high, std_error, trials, status, exact.
        let summary_row = lead + 32 + 5 * FLOAT + COUNT + 64;
        total = total.saturating_add(summary_rows.saturating_mul(summary_row));
        if let Ok(prepared) = &p.prepared {
            let tally = metrics::empty_tally(prepared);
            // metric, value, count, probability.
            let row = lead + 32 + 2 * COUNT + FLOAT + 8;
            for (_, hist) in metrics::distributions(p.action, &tally) {
                let rows = (hist.bins() as u64).min(trials);
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
    // The scenario's charts (its default one included) and one per tune.
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
    total = total.saturating_add(charts);
    total.saturating_add(report_bytes(scenario, svgs))
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

    #[test]
    fn the_projection_bounds_what_a_run_writes() {
        let mut s = shipped(
            "sap-sentry",
            include_str!("../../scenarios/sap-sentry.toml"),
        );
        s.trials = 3000;
        let results = study::run(&s, s.trials, &|_| {});
        let summaries = summarize(&s, &results.tallies);
        let written = summary_csv(&s, &summaries, true).unwrap().len()
            + distributions_csv(&s, &summaries, &results.tallies)
                .unwrap()
                .len();
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
    fn sizes_read_as_a_person_would_write_them() {
        assert_eq!(human(512), "512 bytes");
        assert_eq!(human(1536), "1.5 KiB");
        assert_eq!(human(3 << 30), "3.0 GiB");
    }
}
