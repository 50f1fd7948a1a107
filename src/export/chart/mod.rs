//! Charts for rule documents: every `[[chart]]` of a scenario as SVG and PNG.
//!
//! `data` turns results into plain [`figure::Figure`] values and `draw` renders them; the two meet only in
//! [`render`], so drawing is tested on hand-made figures and data on real scenarios.

pub mod data;
pub mod draw;
pub mod figure;

use crate::export::summary::PointSummary;
use crate::scenario::Scenario;
use crate::stats::Tally;
use crate::study::DifferenceRow;
use crate::tuning::TunePoint;
use figure::Figure;

/// The size of every chart: readable at print size and on screen.
pub const SIZE: (u32, u32) = (1200, 800);

/// Every chart of a scenario as `(file name, bytes)`: `<file>.svg` and `<file>.png` for each.
pub fn render(
    scenario: &Scenario,
    summaries: &[PointSummary<'_>],
    tallies: &[Option<Tally>],
    differences: &[DifferenceRow<'_>],
    tunes: &[Vec<TunePoint>],
) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut figures = Vec::new();
    for chart in &scenario.charts {
        let figure = data::figure(scenario, chart, summaries, tallies, differences);
        figures.push((chart.file.clone(), figure));
    }
    for (tune, points) in scenario.tunes.iter().zip(tunes) {
        figures.push((
            format!("tune-{}", tune.name),
            Figure::Line(data::tune_figure(scenario, tune, points)),
        ));
    }
    let mut files = Vec::new();
    for (file, figure) in figures {
        files.push((
            format!("{file}.svg"),
            draw::svg(&figure, SIZE)?.into_bytes(),
        ));
        files.push((format!("{file}.png"), draw::png(&figure, SIZE)?));
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::figure::*;
    use super::*;

    /// A strict enough XML check for SVG: every tag closes in order, attributes are quoted, no stray `<`.
    fn well_formed(svg: &str) -> Result<(), String> {
        let mut stack: Vec<String> = Vec::new();
        let mut rest = svg;
        while let Some(start) = rest.find('<') {
            let after = &rest[start + 1..];
            let end = after.find('>').ok_or("a tag is never closed")?;
            let tag = &after[..end];
            rest = &after[end + 1..];
            if tag.starts_with('?') || tag.starts_with('!') {
                continue;
            }
            if !tag.matches('"').count().is_multiple_of(2) {
                return Err(format!("unbalanced quotes in <{tag}>"));
            }
            if let Some(name) = tag.strip_prefix('/') {
                let open = stack.pop().ok_or(format!("</{name}> closes nothing"))?;
                if open != name.trim() {
                    return Err(format!("</{name}> closes <{open}>"));
                }
            } else if !tag.ends_with('/') {
                let name = tag.split_whitespace().next().unwrap_or("").to_string();
                stack.push(name);
            }
        }
        if stack.is_empty() {
            Ok(())
        } else {
            Err(format!("unclosed: {stack:?}"))
        }
    }

    fn line_figure() -> Figure {
        let points = |offset: f64| {
            (1..=5)
                .map(|x| {
                    let y = 10.0 * x as f64 + offset;
                    LinePoint {
                        x: x as f64,
                        y,
                        low: Some(y - 2.0),
                        high: Some(y + 2.0),
                    }
                })
                .collect()
        };
        Figure::Line(LineFigure {
            title: "Knockout odds by level gap".into(),
            x_label: path_label("level_gap"),
            y_label: metric_label("p_knockout"),
            probability: true,
            x_categories: None,
            horizontal: vec![50.0],
            marked: vec![(2.0, 20.0)],
            series: vec![
                Series {
                    name: "as written".into(),
                    points: points(0.0),
                    exact: (1..=5).map(|x| (x as f64, 10.0 * x as f64)).collect(),
                },
                Series {
                    name: "helmet rule".into(),
                    points: points(15.0),
                    exact: Vec::new(),
                },
            ],
        })
    }

    fn heatmap_figure() -> Figure {
        Figure::Heatmap(HeatmapFigure {
            title: "Knockout odds, level against monster".into(),
            x_label: path_label("attacker.level"),
            y_label: path_label("victim.monster"),
            metric_label: metric_label("p_knockout"),
            probability: true,
            x_labels: vec!["1".into(), "2".into(), "3".into()],
            y_labels: vec!["orc".into(), "ogre".into()],
            panels: vec![(
                "base".into(),
                vec![
                    vec![Some(0.1), Some(0.2), None],
                    vec![Some(0.5), Some(0.7), Some(0.9)],
                ],
            )],
        })
    }

    fn histogram_figure() -> Figure {
        Figure::Histogram(HistogramFigure {
            title: "Knockout length".into(),
            x_label: metric_label("ko_rounds"),
            series: vec![
                ("as written".into(), vec![(2, 0.25), (3, 0.5), (4, 0.25)]),
                ("sap cap 60%".into(), vec![(2, 0.5), (4, 0.5)]),
            ],
        })
    }

    fn check(figure: &Figure, must_contain: &[&str]) {
        let dir = std::env::temp_dir().join(format!(
            "subdual-chart-{}-{}",
            std::process::id(),
            must_contain[0].len()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let svg = draw::svg(figure, SIZE).unwrap();
        let png = draw::png(figure, SIZE).unwrap();
        std::fs::write(dir.join("c.svg"), &svg).unwrap();
        std::fs::write(dir.join("c.png"), &png).unwrap();
        well_formed(&svg).unwrap();
        for text in must_contain {
            assert!(svg.contains(text), "the SVG lacks {text:?}");
        }
        let decoded = image::load_from_memory(&std::fs::read(dir.join("c.png")).unwrap()).unwrap();
        assert_eq!((decoded.width(), decoded.height()), SIZE);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_line_chart_renders_with_title_labels_and_series() {
        check(
            &line_figure(),
            &[
                "Knockout odds by level gap",
                "level gap",
                "knockout chance (%)",
                "as written",
                "helmet rule",
                "exact value",
            ],
        );
    }

    #[test]
    fn a_heatmap_renders_with_its_scale() {
        check(
            &heatmap_figure(),
            &[
                "Knockout odds, level against monster",
                "attacker level",
                "victim monster",
                "knockout chance (%)",
                "ogre",
                "base",
            ],
        );
    }

    #[test]
    fn a_histogram_renders_every_series() {
        check(
            &histogram_figure(),
            &[
                "Knockout length",
                "knockout length (rounds)",
                "as written",
                "sap cap 60%",
            ],
        );
    }

    #[test]
    fn the_well_formedness_check_can_fail() {
        assert!(well_formed("<svg><g></svg>").is_err());
        assert!(well_formed("<svg><text a=\"1>x</text></svg>").is_err());
        assert!(well_formed("<svg><g/><text>x</text></svg>").is_ok());
    }
}
