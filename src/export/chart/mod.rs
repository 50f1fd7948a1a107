//! Charts for rule documents: every `[[chart]]` of a scenario as SVG and PNG.
//!
//! `data` turns results into plain [`figure::Figure`] values and `draw` renders them; the two meet only in
//! [`render`], so drawing is tested on hand-made figures and data on real scenarios.

pub mod data;
pub mod draw;
pub mod figure;
pub mod glyphs;

use crate::scenario::Scenario;
use crate::scenario::chart::ChartSize;
use crate::study::summary::PointSummary;
use crate::study::tuning::TunePoint;
use crate::study::{DifferenceRow, Rows};
use figure::{Canvas, Figure};

/// One chart as drawn: its file stem, its caption in words, and its two images.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawn {
    /// The file name without extension (`<file>.svg`, `<file>.png`).
    pub file: String,
    /// What the image says around its plot, as one paragraph: title, subtitle and notes.
    pub caption: String,
    /// The SVG text.
    pub svg: String,
    /// The PNG bytes.
    pub png: Vec<u8>,
}

impl Drawn {
    /// Its two files as `(file name, bytes)`.
    pub fn files(&self) -> [(String, Vec<u8>); 2] {
        [
            (format!("{}.svg", self.file), self.svg.clone().into_bytes()),
            (format!("{}.png", self.file), self.png.clone()),
        ]
    }
}

/// Every chart of a scenario, in order: each `[[chart]]`, then one per tune. `trials` is what every point
/// ran, which the captions say.
pub fn render(
    scenario: &Scenario,
    rows: &Rows<'_>,
    tunes: &[Vec<TunePoint>],
    trials: u64,
) -> Result<Vec<Drawn>, String> {
    let mut figures: Vec<(String, Figure, Canvas)> = Vec::new();
    // A chart groups and orders points as it likes, so it reads rows held; only while charts are made,
    // and the differences only for a chart of them.
    let summaries: Vec<PointSummary<'_>> = if scenario.charts.is_empty() {
        Vec::new()
    } else {
        rows.summaries().collect()
    };
    let differences: Vec<DifferenceRow<'_>> = if scenario
        .charts
        .iter()
        .any(|c| c.kind == crate::scenario::chart::ChartKind::Difference)
    {
        // Sized up front: a vector grown by doubling may hold twice its rows.
        let mut held = Vec::with_capacity(rows.difference_count());
        held.extend(rows.differences());
        held
    } else {
        Vec::new()
    };
    let (summaries, differences, tallies) = (&summaries[..], &differences[..], rows.tallies());
    for chart in &scenario.charts {
        let figure = data::figure(scenario, chart, summaries, tallies, differences, trials);
        figures.push((chart.file.clone(), figure, Canvas::of(chart)));
    }
    for (tune, points) in scenario.tunes.iter().zip(tunes) {
        figures.push((
            format!("tune-{}", tune.name),
            data::tune_figure(scenario, tune, points, trials),
            Canvas::of_size(ChartSize::default()),
        ));
    }
    figures
        .into_iter()
        .map(|(file, figure, canvas)| {
            Ok(Drawn {
                caption: figure.caption(),
                svg: draw::svg(&figure, &canvas)?,
                png: draw::png(&figure, &canvas)?,
                file,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::figure::*;
    use super::*;
    use crate::scenario::chart::ChartSize;
    use crate::scenario::sweep::path_label;
    use crate::stats::metrics::label as metric_label;

    /// The SVG is well formed, with nothing after its root.
    fn well_formed(svg: &str) -> Result<(), String> {
        match crate::export::markup::well_formed(svg, &[])?.trim() {
            "" => Ok(()),
            rest => Err(format!("text after </svg>: {rest:?}")),
        }
    }

    fn framed(title: &str, plot: Plot) -> Figure {
        Figure {
            title: title.into(),
            subtitle: vec!["thief (human, club, behind) against ogre (unaware)".into()],
            notes: vec![
                "200,000 trials a point, seed 7; bands: 95% Wilson score intervals.".into(),
            ],
            plot,
        }
    }

    fn series(name: &str, offset: f64) -> Series {
        Series {
            name: name.into(),
            points: (1..=5)
                .map(|x| {
                    let y = 10.0 * x as f64 + offset;
                    LinePoint {
                        x: x as f64,
                        y,
                        low: Some(y - 2.0),
                        high: Some(y + 2.0),
                    }
                })
                .collect(),
            exact: Vec::new(),
            ineligible: Vec::new(),
        }
    }

    fn lines(series: Vec<Series>) -> LineFigure {
        LineFigure {
            x_label: path_label("level_gap"),
            y_label: metric_label("p_knockout"),
            percent: true,
            x_categories: None,
            y_range: Some((0.0, 100.0)),
            y_log: false,
            series,
            horizontal: vec![50.0],
            marked: vec![(2.0, 20.0)],
        }
    }

    fn line_figure() -> Figure {
        let mut first = series("as written", 0.0);
        first.exact = (1..=5).map(|x| (x as f64, 10.0 * x as f64)).collect();
        framed(
            "Knockout odds by level gap",
            Plot::Line(lines(vec![first, series("helmet rule", 15.0)])),
        )
    }

    fn heatmap_figure() -> Figure {
        framed(
            "Knockout odds, level against monster",
            Plot::Heatmap(HeatmapFigure {
                x_label: path_label("attacker.level"),
                y_label: path_label("victim.monster"),
                metric_label: metric_label("p_knockout"),
                percent: true,
                color_range: (10.0, 90.0),
                color_note: "scale: the data's range".into(),
                x_labels: vec!["1".into(), "2".into(), "3".into()],
                y_labels: vec!["orc".into(), "ogre".into()],
                panels: vec![
                    (
                        "as written".into(),
                        vec![
                            vec![Cell::Value(10.0), Cell::Value(20.0), Cell::Ineligible],
                            vec![Cell::Value(50.0), Cell::Value(70.0), Cell::Value(90.0)],
                        ],
                    ),
                    (
                        "helmet rule".into(),
                        vec![
                            vec![Cell::Value(15.0), Cell::Empty, Cell::Value(30.0)],
                            vec![Cell::Value(55.0), Cell::Value(75.0), Cell::Value(85.0)],
                        ],
                    ),
                ],
            }),
        )
    }

    fn histogram_figure() -> Figure {
        framed(
            "Knockout length",
            Plot::Histogram(HistogramFigure {
                x_label: metric_label("ko_rounds"),
                series: vec![
                    ("as written".into(), vec![(2, 25.0), (3, 50.0), (4, 25.0)]),
                    ("sap cap 60%".into(), vec![(2, 50.0), (4, 50.0)]),
                ],
            }),
        )
    }

    /// Renders both formats on `canvas`, checks them, and returns the SVG.
    fn render_on(figure: &Figure, canvas: &Canvas) -> String {
        let svg = draw::svg(figure, canvas).unwrap();
        well_formed(&svg).unwrap();
        let png = draw::png(figure, canvas).unwrap();
        let decoded = image::load_from_memory(&png).unwrap();
        assert_eq!((decoded.width(), decoded.height()), canvas.pixels());
        svg
    }

    fn check(figure: &Figure, must_contain: &[&str]) -> String {
        let svg = render_on(figure, &Canvas::of_size(ChartSize::Screen));
        for text in must_contain {
            assert!(svg.contains(text), "the SVG lacks {text:?}");
        }
        svg
    }

    #[test]
    fn a_line_chart_renders_with_title_caption_labels_and_series() {
        check(
            &line_figure(),
            &[
                "Knockout odds by level gap",
                "thief (human, club, behind) against ogre (unaware)",
                "200,000 trials a point, seed 7; bands: 95% Wilson score intervals.",
                "level gap",
                "knockout chance (%)",
                "as written",
                "helmet rule",
            ],
        );
    }

    #[test]
    fn a_heatmap_renders_with_its_scale_and_where_it_comes_from() {
        let svg = check(
            &heatmap_figure(),
            &[
                "Knockout odds, level against monster",
                "attacker level",
                "victim monster",
                "knockout chance (%)",
                "ogre",
                "as written",
                "helmet rule",
                "the data&apos;s range",
                ">\n10%\n<",
                ">\n90%\n<",
            ],
        );
        // The colour bar runs over the data's range, not 0-100%.
        assert!(!svg.contains(">\n100%\n<"), "{svg}");
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

    /// The legend's entries are text elements drawn in the legend's font at its place; a series' name is
    /// nowhere else, so its presence tells whether there is a legend.
    #[test]
    fn a_single_series_has_no_legend() {
        let one = framed(
            "One line",
            Plot::Line(lines(vec![series("the only series", 0.0)])),
        );
        let svg = check(&one, &["One line"]);
        assert!(!svg.contains("the only series"), "a legend for one series");
        let two = check(&line_figure(), &["as written"]);
        assert!(two.contains("helmet rule"));
    }

    #[test]
    fn the_svg_names_the_embedded_font_with_fallbacks() {
        let svg = check(&line_figure(), &[]);
        assert!(
            svg.contains("font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\""),
            "{}",
            &svg[..2000.min(svg.len())]
        );
        assert!(!svg.contains("font-family=\"sans-serif\""));
    }

    #[test]
    fn a_page_chart_is_1950_pixels_wide_with_print_sized_text() {
        let canvas = Canvas::of_size(ChartSize::Page);
        let svg = render_on(&line_figure(), &canvas);
        assert!(
            svg.contains("width=\"1950\" height=\"1300\""),
            "{}",
            &svg[..300]
        );
        // 9 points at 300 dpi is 37.5 pixels: no text is smaller.
        let sizes: Vec<f64> = svg
            .split("font-size=\"")
            .skip(1)
            .map(|s| s[..s.find('"').unwrap()].parse().unwrap())
            .collect();
        assert!(!sizes.is_empty());
        for size in sizes {
            assert!(size >= 37.5 - 0.01, "a text of {size} px");
        }
        let slide = Canvas::of_size(ChartSize::Slide);
        assert!(render_on(&line_figure(), &slide).contains("width=\"1920\" height=\"1080\""));
        let custom = Canvas {
            width: 900,
            height: 500,
            ..Canvas::of_size(ChartSize::Screen)
        };
        assert!(render_on(&line_figure(), &custom).contains("width=\"900\" height=\"500\""));
    }

    #[test]
    fn a_log_axis_is_ticked_in_powers_of_ten() {
        let mut rare = series("victim killed", 0.0);
        rare.points = [0.0, 0.05, 0.4, 2.0, 7.0]
            .iter()
            .enumerate()
            .map(|(i, y)| LinePoint {
                x: i as f64 + 1.0,
                y: *y,
                low: Some(y * 0.5),
                high: Some(y * 1.5 + 0.01),
            })
            .collect();
        let mut figure = lines(vec![rare]);
        figure.y_range = Some((0.01, 20.0));
        figure.y_log = true;
        figure.horizontal.clear();
        figure.marked.clear();
        let svg = check(&framed("Rare", Plot::Line(figure)), &[]);
        for tick in ["0.01%", "0.1%", ">\n1%\n<", ">\n10%\n<"] {
            assert!(svg.contains(tick), "no tick {tick}");
        }
        assert!(!svg.contains(">\n50%\n<"));
    }

    #[test]
    fn a_text_axis_draws_dots_and_whiskers_and_crosses_where_points_are_missing() {
        let mut halfling = series("halfling thief", 0.0);
        halfling.points.truncate(3);
        for (i, p) in halfling.points.iter_mut().enumerate() {
            p.x = i as f64;
        }
        halfling.ineligible = vec![3.0, 4.0];
        let mut human = series("human thief", 0.0);
        for (i, p) in human.points.iter_mut().enumerate() {
            p.x = i as f64;
        }
        let mut figure = lines(vec![halfling, human]);
        figure.x_categories = Some(
            ["kobold", "goblin", "orc", "gnoll", "ogre"]
                .map(String::from)
                .to_vec(),
        );
        figure.horizontal.clear();
        figure.marked.clear();
        let svg = check(&framed("Reach", Plot::Line(figure.clone())), &["gnoll"]);
        // No line joins the dots: every polyline is a stroke of two points (a whisker, a cap, a cross arm,
        // a tick, a grid line) but the axes' corner.
        let points = |svg: &str| -> Vec<usize> {
            svg.split("<polyline ")
                .skip(1)
                .map(|p| {
                    let at = p.find("points=\"").unwrap() + "points=\"".len();
                    p[at..at + p[at..].find('"').unwrap()]
                        .split_whitespace()
                        .count()
                })
                .collect()
        };
        let long = |svg: &str| points(svg).into_iter().filter(|n| *n >= 3).count();
        assert_eq!(long(&svg), 1, "a polyline joins a series' dots");
        assert!(svg.contains(">\nogre\n<"));
        // The same figure on a numeric axis is joined: the halfling's solid line is one polyline.
        figure.x_categories = None;
        let numeric = check(&framed("Reach", Plot::Line(figure)), &[]);
        assert!(long(&numeric) >= 2);
    }

    /// Each text element of an SVG as `(x, y, text)`.
    fn texts(svg: &str) -> Vec<(f64, f64, String)> {
        svg.split("<text ")
            .skip(1)
            .map(|t| {
                let number = |name: &str| -> f64 {
                    let at = t.find(&format!(" {name}=\"")).map(|i| i + name.len() + 3);
                    let at = at.or_else(|| {
                        t.starts_with(&format!("{name}=\""))
                            .then_some(name.len() + 2)
                    });
                    let at = at.unwrap();
                    t[at..at + t[at..].find('"').unwrap()].parse().unwrap()
                };
                let body = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
                (number("x"), number("y"), body.trim().to_string())
            })
            .collect()
    }

    #[test]
    fn crowded_names_on_a_text_axis_all_show_on_two_rows_and_crowded_numbers_are_thinned() {
        let names = [
            "kobold",
            "goblin",
            "hobgoblin",
            "gnoll",
            "bugbear",
            "nightmare",
            "troll",
            "werewolf",
            "minotaur",
            "wyvern",
            "basilisk",
            "ettin",
            "manticore",
            "chimera",
            "gorgon",
            "hippogriff",
            "owlbear",
            "ghoul",
            "salamander",
            "doppelganger",
        ];
        let one = |x: f64| {
            let mut s = series("a", 0.0);
            s.points = (0..names.len())
                .map(|i| LinePoint {
                    x: i as f64,
                    y: x,
                    low: None,
                    high: None,
                })
                .collect();
            s
        };
        let mut figure = lines(vec![one(30.0)]);
        figure.x_categories = Some(names.map(String::from).to_vec());
        figure.horizontal.clear();
        figure.marked.clear();
        let svg = check(&framed("Crowded", Plot::Line(figure)), &[]);
        let written = texts(&svg);
        let rows: Vec<f64> = names
            .iter()
            .map(|n| {
                let found: Vec<_> = written.iter().filter(|t| t.2 == *n).collect();
                assert_eq!(found.len(), 1, "{n} is written once");
                found[0].1
            })
            .collect();
        assert!(rows[0] < rows[1], "every other name drops a row: {rows:?}");
        for (i, y) in rows.iter().enumerate() {
            assert_eq!(*y, rows[i % 2], "{rows:?}");
        }
        // Numbers under narrow cells: some are left out (the label arithmetic is tested in `draw`), never
        // the first.
        let Plot::Heatmap(mut heat) = heatmap_figure().plot else {
            unreachable!()
        };
        heat.x_labels = (1..=40).map(|l| l.to_string()).collect();
        for panel in &mut heat.panels {
            for row in &mut panel.1 {
                *row = vec![Cell::Value(50.0); 40];
            }
        }
        let svg = check(&framed("Narrow", Plot::Heatmap(heat)), &[]);
        let written: Vec<u32> = texts(&svg)
            .iter()
            .filter_map(|t| t.2.parse().ok())
            .filter(|l| (1..=40).contains(l))
            .collect();
        assert!(written.contains(&1), "{written:?}");
        assert!(written.len() < 2 * 40, "{written:?}");
    }

    #[test]
    fn text_as_paths_leaves_no_text_element() {
        let canvas = Canvas {
            text_as_paths: true,
            ..Canvas::of_size(ChartSize::Screen)
        };
        let svg = render_on(&line_figure(), &canvas);
        assert!(!svg.contains("<text"));
        assert!(svg.matches("<path d=\"M").count() > 20);
    }

    #[test]
    fn the_well_formedness_check_can_fail() {
        assert!(well_formed("<svg><g></svg>").is_err());
        assert!(well_formed("<svg><text a=\"1>x</text></svg>").is_err());
        assert!(well_formed("<svg><g/><text>x</text></svg>").is_ok());
    }
}
