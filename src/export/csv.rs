//! `summary.csv` and `distributions.csv` as docs/scenarios.md fixes them: a header row, RFC 4180 quoting,
//! floats in Rust's shortest round-trip form, counts as integers, empty cells for missing numbers.

use crate::export::summary::PointSummary;
use crate::scenario::Scenario;
use crate::stats::Tally;
use crate::stats::metrics;

fn number(x: Option<f64>) -> String {
    x.map(|v| v.to_string()).unwrap_or_default()
}

fn finish(writer: ::csv::Writer<Vec<u8>>) -> Vec<u8> {
    // Writing to memory cannot fail; an empty buffer would only hide a bug, never lose a file.
    writer.into_inner().unwrap_or_default()
}

fn header(scenario: &Scenario, tail: &[&str]) -> Vec<String> {
    let mut h = vec!["variant".to_string()];
    h.extend(scenario.paths());
    h.push("level_gap".to_string());
    h.extend(tail.iter().map(|s| s.to_string()));
    h
}

fn lead(p: &PointSummary<'_>) -> Vec<String> {
    let mut row = vec![p.variant.to_string()];
    row.extend(p.values.iter().map(|v| v.to_string()));
    row.push(p.level_gap.to_string());
    row
}

/// `summary.csv`: one row per variant, point and metric. With `with_exact`, a last column `exact` holds the
/// exact value where it is known (single actions), empty elsewhere.
pub fn summary_csv(
    scenario: &Scenario,
    summaries: &[PointSummary<'_>],
    with_exact: bool,
) -> Vec<u8> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
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
    let _ = w.write_record(&head);
    for p in summaries {
        match &p.result {
            Ok(metrics) => {
                for m in metrics {
                    let mut row = lead(p);
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
                    let _ = w.write_record(&row);
                }
            }
            Err(reason) => {
                let mut row = lead(p);
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
                let _ = w.write_record(&row);
            }
        }
    }
    finish(w)
}

/// `distributions.csv`: every value observed of each integer outcome, ascending, with its count and its
/// probability among the trials where the outcome exists; ineligible points are left out.
pub fn distributions_csv(
    scenario: &Scenario,
    summaries: &[PointSummary<'_>],
    tallies: &[Option<Tally>],
) -> Vec<u8> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(header(
        scenario,
        &["metric", "value", "count", "probability"],
    ));
    for (p, tally) in summaries.iter().zip(tallies) {
        let Some(tally) = tally else { continue };
        for (metric, hist) in metrics::distributions(scenario.action, tally) {
            let total = hist.total();
            for (value, count) in hist.iter() {
                let mut row = lead(p);
                row.extend([
                    metric.to_string(),
                    value.to_string(),
                    count.to_string(),
                    (count as f64 / total as f64).to_string(),
                ]);
                let _ = w.write_record(&row);
            }
        }
    }
    finish(w)
}
