//! `summary.csv`, `distributions.csv`, `differences.csv`, `flips.csv`, `exemplars.csv` and `tune.csv` (and
//! `subdual exact`'s `exact-distributions.csv`) as
//! docs/scenarios.md fixes them: a header row, RFC 4180 quoting,
//! floats in Rust's shortest round-trip form, counts as integers, empty cells for missing numbers.

use std::io::Write;

use crate::export::{ExportError, Exporter, StudyResults, Written};
use crate::scenario::Scenario;
use crate::stats::Tally;
use crate::stats::exact::ExactDistribution;
use crate::stats::metrics;
use crate::study::exemplars::Exemplar;
use crate::study::flips::FlipRow;
use crate::study::{DifferenceRow, PointSummary, TuneLine};

fn number(x: Option<f64>) -> String {
    x.map(|v| v.to_string()).unwrap_or_default()
}

/// A writer into `out` that holds every row to the header's width (the `csv` crate's default, named
/// here because the files depend on it).
fn writer(out: &mut dyn Write) -> ::csv::Writer<&mut dyn Write> {
    ::csv::WriterBuilder::new().flexible(false).from_writer(out)
}

/// Passes on the rows still buffered. The writer is strict: a row of another width than the header is an
/// error, and a study folder with a file that failed is not written, so no file has shifted columns under
/// the wrong names.
fn finish(mut writer: ::csv::Writer<&mut dyn Write>) -> Result<(), ExportError> {
    Ok(writer.flush()?)
}

fn header(scenario: &Scenario, tail: &[&str]) -> Vec<String> {
    let mut h = vec!["variant".to_string()];
    h.extend(scenario.paths());
    h.push("level_gap".to_string());
    h.extend(tail.iter().map(|s| s.to_string()));
    h
}

/// The header of a file of pairs (differences.csv, flips.csv): `variant`, `baseline`, the sweep paths, then
/// `tail`.
fn pair_header(scenario: &Scenario, tail: &[&str]) -> Vec<String> {
    let mut h = vec!["variant".to_string(), "baseline".to_string()];
    h.extend(scenario.paths());
    h.extend(tail.iter().map(|s| s.to_string()));
    h
}

/// The lead cells of a row of pairs: variant, baseline, sweep values, level gap and metric.
fn pair_lead(
    (variant, baseline): (&str, &str),
    values: &[crate::scenario::sweep::SweepValue],
    level_gap: i32,
    metric: &str,
) -> Vec<String> {
    let mut row = vec![variant.to_string(), baseline.to_string()];
    row.extend(values.iter().map(|v| v.to_string()));
    row.push(level_gap.to_string());
    row.push(metric.to_string());
    row
}

fn lead(p: &PointSummary<'_>) -> Vec<String> {
    lead_of(p.variant, p.values, p.level_gap)
}

/// The lead cells of a row of one point: variant, sweep values and level gap.
fn lead_of(
    variant: &str,
    values: &[crate::scenario::sweep::SweepValue],
    level_gap: i32,
) -> Vec<String> {
    let mut row = vec![variant.to_string()];
    row.extend(values.iter().map(|v| v.to_string()));
    row.push(level_gap.to_string());
    row
}

/// The lead cells of a row of point `point` of `scenario`.
fn point_lead(scenario: &Scenario, point: &crate::scenario::Point) -> Vec<String> {
    lead_of(
        &scenario.variants[point.variant],
        &point.values,
        point.level_gap,
    )
}

/// `summary.csv`: one row per variant, point and metric. With `with_exact`, a last column `exact` holds the
/// exact value where it is known (single actions), empty elsewhere.
pub fn summary_csv<'a>(
    out: &mut dyn Write,
    scenario: &Scenario,
    summaries: impl IntoIterator<Item = PointSummary<'a>>,
    with_exact: bool,
) -> Result<(), ExportError> {
    let mut w = writer(out);
    let mut columns = vec![
        "metric",
        "estimate",
        "ci_low",
        "ci_high",
        "std_error",
        "trials",
        "status",
    ];
    if with_exact {
        columns.push("exact");
    }
    let head = header(scenario, &columns);
    w.write_record(&head)?;
    for p in summaries {
        match &p.result {
            Ok(metrics) => {
                for m in metrics {
                    let mut row = lead(&p);
                    let v = m.value;
                    row.extend([
                        m.metric.to_string(),
                        number(v.estimate),
                        number(v.ci_low),
                        number(v.ci_high),
                        number(v.std_error),
                        v.trials.to_string(),
                        "ok".to_string(),
                    ]);
                    if with_exact {
                        row.push(number(m.exact));
                    }
                    w.write_record(&row)?;
                }
            }
            Err(reason) => {
                let mut row = lead(&p);
                row.extend([
                    "ineligible".to_string(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                ]);
                row.extend(["0".to_string(), format!("ineligible: {reason}")]);
                if with_exact {
                    row.push(String::new());
                }
                w.write_record(&row)?;
            }
        }
    }
    finish(w)
}

/// `distributions.csv`: every value observed of each integer outcome, ascending, with its count and its
/// probability among the trials where the outcome exists; ineligible points are left out.
pub fn distributions_csv(
    out: &mut dyn Write,
    scenario: &Scenario,
    tallies: &[Option<Tally>],
) -> Result<(), ExportError> {
    let mut w = writer(out);
    w.write_record(header(
        scenario,
        &["metric", "value", "count", "probability"],
    ))?;
    for (p, tally) in scenario.points.iter().zip(tallies) {
        let Some(tally) = tally else { continue };
        for (metric, hist) in metrics::distributions(p.action, tally) {
            let total = hist.total();
            for (value, count) in hist.iter() {
                let mut row = point_lead(scenario, p);
                row.extend([
                    metric.to_string(),
                    value.to_string(),
                    count.to_string(),
                    (count as f64 / total as f64).to_string(),
                ]);
                w.write_record(&row)?;
            }
        }
    }
    finish(w)
}

/// `exact-distributions.csv`: as `distributions.csv`, every value a distribution can take with its exact
/// probability, and no count (nothing was counted).
pub fn exact_distributions_csv(
    out: &mut dyn Write,
    scenario: &Scenario,
    distributions: &[Option<Vec<ExactDistribution>>],
) -> Result<(), ExportError> {
    let mut w = writer(out);
    w.write_record(header(scenario, &["metric", "value", "probability"]))?;
    for (p, exact) in scenario.points.iter().zip(distributions) {
        for d in exact.iter().flatten() {
            for (value, probability) in &d.values {
                let mut row = point_lead(scenario, p);
                row.extend([
                    d.metric.to_string(),
                    value.to_string(),
                    probability.to_string(),
                ]);
                w.write_record(&row)?;
            }
        }
    }
    finish(w)
}

/// `differences.csv`: every other variant against the baseline, at every point and metric
/// (docs/scenarios.md), each with its plain interval and its Holm-adjusted (simultaneous) one, which its
/// verdict follows. `baseline_metric` is appended (the baseline's metric compared, which differs from
/// `metric` only across actions), and with `with_exact` a last column `exact`.
pub fn differences_csv<'a>(
    out: &mut dyn Write,
    scenario: &Scenario,
    rows: impl IntoIterator<Item = DifferenceRow<'a>>,
    with_exact: bool,
) -> Result<(), ExportError> {
    let mut w = writer(out);
    let mut head = pair_header(
        scenario,
        &[
            "level_gap",
            "metric",
            "difference",
            "ci_low",
            "ci_high",
            "ci_low_adjusted",
            "ci_high_adjusted",
            "std_error",
            "trials",
            "p_value",
            "p_adjusted",
            "verdict",
            "status",
            "baseline_metric",
        ],
    );
    if with_exact {
        head.push("exact".to_string());
    }
    w.write_record(&head)?;
    for r in rows {
        let mut row = pair_lead((r.variant, r.baseline), r.values, r.level_gap, r.metric);
        match &r.result {
            Ok(d) => {
                row.extend([
                    number(d.difference),
                    number(d.ci_low),
                    number(d.ci_high),
                    number(r.ci_adjusted.0),
                    number(r.ci_adjusted.1),
                    number(d.std_error),
                    d.trials.to_string(),
                    number(d.p_value),
                    number(r.p_adjusted),
                    r.verdict.to_string(),
                    "ok".to_string(),
                ]);
            }
            Err(reason) => {
                row.extend(std::iter::repeat_n(String::new(), 6));
                row.push("0".to_string());
                row.extend([String::new(), String::new(), String::new(), reason.clone()]);
            }
        }
        row.push(r.baseline_metric.to_string());
        if with_exact {
            row.push(number(r.exact));
        }
        w.write_record(&row)?;
    }
    finish(w)
}

/// `flips.csv`: every other variant against the baseline at every sweep point, on the variant's headline:
/// the shares of the paired trials where only the variant's event happened (`_to`) and only the
/// baseline's (`_from`), each with its Wilson interval, the paired trials, and the first trial of each
/// (docs/scenarios.md). Empty cells where the headline is not a probability compared with the baseline's
/// (or a side did not run), and for an example that never happened.
pub fn flips_csv(
    out: &mut dyn Write,
    scenario: &Scenario,
    rows: &[FlipRow<'_>],
) -> Result<(), ExportError> {
    let mut w = writer(out);
    w.write_record(pair_header(
        scenario,
        &[
            "level_gap",
            "metric",
            "p_flip_to",
            "ci_low_to",
            "ci_high_to",
            "p_flip_from",
            "ci_low_from",
            "ci_high_from",
            "trials",
            "example_to",
            "example_from",
        ],
    ))?;
    let example = |t: Option<u64>| t.map(|t| t.to_string()).unwrap_or_default();
    for r in rows {
        let mut row = pair_lead((r.variant, r.baseline), r.values, r.level_gap, r.metric);
        match &r.flips {
            Some(flips) => {
                for f in flips {
                    let s = f.share;
                    row.extend([number(s.estimate), number(s.ci_low), number(s.ci_high)]);
                }
                row.push(r.trials.to_string());
                row.extend(flips.iter().map(|f| example(f.example)));
            }
            None => {
                row.extend(std::iter::repeat_n(String::new(), 6));
                row.push(r.trials.to_string());
                row.extend([String::new(), String::new()]);
            }
        }
        w.write_record(&row)?;
    }
    finish(w)
}

/// `exemplars.csv`: four trials of every fight point that ran, in point order: the first whose rounds are
/// the 5th, 50th and 95th percentile of the point's rounds, and the first with a death (docs/scenarios.md);
/// empty `trial` and `rounds` for a death no trial had.
pub fn exemplars_csv(
    out: &mut dyn Write,
    scenario: &Scenario,
    rows: &[Exemplar],
) -> Result<(), ExportError> {
    let mut w = writer(out);
    w.write_record(header(scenario, &["kind", "trial", "rounds"]))?;
    for e in rows {
        let mut row = point_lead(scenario, &scenario.points[e.point]);
        row.push(e.kind.to_string());
        match e.found {
            Some((trial, rounds)) => row.extend([trial.to_string(), rounds.to_string()]),
            None => row.extend([String::new(), String::new()]),
        }
        w.write_record(&row)?;
    }
    finish(w)
}

/// `tune.csv`: per tune and point of the sweep, the value closest to the target, the values whose interval
/// holds it (`;`-separated), the metric there, whether the evaluated values were monotone, how many
/// were evaluated, and whether the target was reached (`reached`, `not_reached_below`, `not_reached_above`,
/// `not_reached_between`, or why there is no best value). With `with_exact`, `exact_best_value` and
/// `exact` (the exact metric there) are appended.
pub fn tune_csv(
    out: &mut dyn Write,
    scenario: &Scenario,
    lines: &[TuneLine<'_>],
    with_exact: bool,
) -> Result<(), ExportError> {
    let mut w = writer(out);
    let mut head = vec!["tune".to_string()];
    head.extend(scenario.paths());
    head.extend(
        [
            "parameter",
            "metric",
            "target",
            "best_value",
            "values_consistent",
            "estimate",
            "ci_low",
            "ci_high",
            "monotone",
            "evaluations",
            "status",
        ]
        .map(str::to_string),
    );
    if with_exact {
        head.extend(["exact_best_value".to_string(), "exact".to_string()]);
    }
    w.write_record(&head)?;
    for line in lines {
        let mut row = vec![line.tune.name.clone()];
        row.extend(line.values.iter().map(|v| v.to_string()));
        row.extend([line.tune.parameter.clone(), line.tune.metric.to_string()]);
        row.push(number(line.target));
        match line.best {
            Some((value, e)) => {
                row.push(value.to_string());
                row.push(
                    line.consistent
                        .iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(";"),
                );
                row.extend([number(e.estimate), number(e.ci_low), number(e.ci_high)]);
            }
            None => row.extend(std::iter::repeat_n(String::new(), 5)),
        }
        row.push(line.monotone.to_string());
        row.push(line.evaluations.to_string());
        row.push(line.status_name().to_string());
        if with_exact {
            match line.exact {
                Some((value, v)) => row.extend([value.to_string(), v.to_string()]),
                None => row.extend([String::new(), String::new()]),
            }
        }
        w.write_record(&row)?;
    }
    finish(w)
}

/// `summary.csv`, under the name given (`exact.csv` for `subdual exact`).
pub struct SummaryCsv(pub &'static str);

impl Exporter for SummaryCsv {
    fn export(
        &self,
        study: &StudyResults<'_>,
        written: &mut Written<'_>,
    ) -> Result<(), ExportError> {
        written.file(self.0, |w| {
            summary_csv(w, study.scenario, study.rows.summaries(), study.exact)
        })
    }
}

/// `distributions.csv`.
pub struct DistributionsCsv;

impl Exporter for DistributionsCsv {
    fn export(
        &self,
        study: &StudyResults<'_>,
        written: &mut Written<'_>,
    ) -> Result<(), ExportError> {
        written.file("distributions.csv", |w| {
            distributions_csv(w, study.scenario, study.rows.tallies())
        })
    }
}

/// `exact-distributions.csv` (`subdual exact`).
pub struct ExactDistributionsCsv;

impl Exporter for ExactDistributionsCsv {
    fn export(
        &self,
        study: &StudyResults<'_>,
        written: &mut Written<'_>,
    ) -> Result<(), ExportError> {
        written.file(super::EXACT_FILES[1], |w| {
            exact_distributions_csv(w, study.scenario, study.exact_distributions)
        })
    }
}

/// `differences.csv`, under the name given, when the study has several variants.
pub struct DifferencesCsv(pub &'static str);

impl Exporter for DifferencesCsv {
    fn export(
        &self,
        study: &StudyResults<'_>,
        written: &mut Written<'_>,
    ) -> Result<(), ExportError> {
        if study.scenario.variants.len() < 2 {
            return Ok(());
        }
        written.file(self.0, |w| {
            differences_csv(w, study.scenario, study.rows.differences(), study.exact)
        })
    }
}

/// `flips.csv`, when the study has several variants.
pub struct FlipsCsv;

impl Exporter for FlipsCsv {
    fn export(
        &self,
        study: &StudyResults<'_>,
        written: &mut Written<'_>,
    ) -> Result<(), ExportError> {
        if study.scenario.variants.len() < 2 {
            return Ok(());
        }
        written.file("flips.csv", |w| flips_csv(w, study.scenario, study.flips))
    }
}

/// `exemplars.csv`, when the study has fights (one on one or sides).
pub struct ExemplarsCsv;

impl Exporter for ExemplarsCsv {
    fn export(
        &self,
        study: &StudyResults<'_>,
        written: &mut Written<'_>,
    ) -> Result<(), ExportError> {
        if !study.scenario.points.iter().any(|p| p.action.is_fight()) {
            return Ok(());
        }
        written.file("exemplars.csv", |w| {
            exemplars_csv(w, study.scenario, study.exemplars)
        })
    }
}

/// `tune.csv`, under the name given, when the study has tunes.
pub struct TuneCsv(pub &'static str);

impl Exporter for TuneCsv {
    fn export(
        &self,
        study: &StudyResults<'_>,
        written: &mut Written<'_>,
    ) -> Result<(), ExportError> {
        if study.scenario.tunes.is_empty() {
            return Ok(());
        }
        written.file(self.0, |w| {
            tune_csv(w, study.scenario, study.tunes, study.exact)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_of_the_wrong_width_is_an_error_not_a_shifted_file() {
        let write = |row: &[&str]| -> Result<Vec<u8>, ExportError> {
            let mut bytes = Vec::new();
            let mut w = writer(&mut bytes);
            w.write_record(["variant", "metric", "estimate"])?;
            w.write_record(row)?;
            finish(w)?;
            Ok(bytes)
        };
        assert_eq!(
            write(&["base", "ko", "0.5"]).unwrap(),
            b"variant,metric,estimate\nbase,ko,0.5\n"
        );
        for wrong in [&["base", "ko"][..], &["base", "ko", "0.5", "extra"]] {
            assert!(
                matches!(write(wrong), Err(ExportError::Csv(_))),
                "{wrong:?} was written"
            );
        }
    }
}
