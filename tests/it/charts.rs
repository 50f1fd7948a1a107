//! Charts through the real binary: every `[[chart]]` lands as SVG and PNG beside the CSV files, the
//! default chart appears when none is asked for, and `--no-charts` skips them all.

use crate::common;

use std::path::Path;

use common::*;

/// Width and height from a PNG's IHDR chunk (bytes 16..24), checking the signature first.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    assert_eq!(&bytes[12..16], b"IHDR");
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (be(&bytes[16..20]), be(&bytes[20..24]))
}

fn chart_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".svg") || n.ends_with(".png"))
        .collect();
    names.sort();
    names
}

#[test]
fn the_mugging_study_draws_its_knockout_chart_as_svg_and_png() {
    let scratch = Scratch::new("the_mugging_study_draws");
    let file = repo().join("scenarios/mugging-level-gap.toml");
    let o = run_quiet(&file, &scratch.out(), &["--trials", "2000"]);
    assert_success(&o);
    let dir = scratch.out().join("mugging-level-gap");
    assert_eq!(
        chart_files(&dir),
        ["ko-by-level-gap.png", "ko-by-level-gap.svg"]
    );
    let svg = read(&dir.join("ko-by-level-gap.svg"));
    for text in [
        "Mugging an ogre sentry",
        "level gap",
        "knockout chance (%)",
        "as written",
        "helmet rule",
        "thief (human, Strength 12, club, behind) against ogre (unaware)",
        "2,000 trials a point, seed 7376; bands: 95% Wilson score intervals.",
        "font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\"",
        "width=\"1950\" height=\"1300\"",
    ] {
        assert!(svg.contains(text), "the SVG lacks {text:?}");
    }
    // A page: 6.5 inches at 300 dpi.
    assert_eq!(
        png_size(&read_bytes(&dir.join("ko-by-level-gap.png"))),
        (1950, 1300)
    );
}

#[test]
fn no_charts_skips_every_chart() {
    let scratch = Scratch::new("no_charts_skips");
    let file = repo().join("scenarios/mugging-level-gap.toml");
    let o = run_quiet(&file, &scratch.out(), &["--trials", "2000", "--no-charts"]);
    assert_success(&o);
    let dir = scratch.out().join("mugging-level-gap");
    assert!(chart_files(&dir).is_empty());
    assert!(dir.join("summary.csv").exists());
}

const EVERY_KIND: &str = r#"title = "Three kinds of chart"
action = "sap"
trials = 2000
[attacker]
class = "fighter"
weapon = "club"
[victim]
class = "fighter"
[sweep]
"attacker.level" = [1, 5, 9]
"victim.state" = ["awake", "asleep"]
[[chart]]
file = "lines"
x = "attacker.level"
y = "p_knockout"
series = "victim.state"
[[chart]]
file = "grid"
kind = "heatmap"
x = "attacker.level"
y = "victim.state"
metric = "damage"
[[chart]]
file = "bars"
kind = "histogram"
y = "damage"
series = "victim.state"
at = { "attacker.level" = 9 }
size = "screen"
svg_text = "paths"
"#;

#[test]
fn lines_heatmaps_and_histograms_all_render() {
    let scratch = Scratch::new("lines_heatmaps_and_histograms");
    let file = scratch.write("kinds.toml", EVERY_KIND);
    let o = run_quiet(&file, &scratch.out(), &[]);
    assert_success(&o);
    let dir = scratch.out().join("kinds");
    assert_eq!(
        chart_files(&dir),
        [
            "bars.png",
            "bars.svg",
            "grid.png",
            "grid.svg",
            "lines.png",
            "lines.svg"
        ]
    );
    let lines = read(&dir.join("lines.svg"));
    assert!(
        lines.contains("awake") && lines.contains("asleep") && lines.contains("attacker level")
    );
    let grid = read(&dir.join("grid.svg"));
    assert!(grid.contains("victim state") && grid.contains("damage per hit"));
    // The bars' text is outlines: nothing to read, everything drawn.
    let bars = read(&dir.join("bars.svg"));
    assert!(!bars.contains("<text") && bars.contains("<path d=\"M"));
    for (name, size) in [
        ("bars.png", (1200, 800)),
        ("grid.png", (1950, 1300)),
        ("lines.png", (1950, 1300)),
    ] {
        assert_eq!(png_size(&read_bytes(&dir.join(name))), size, "{name}");
    }
}

#[test]
fn a_study_without_charts_gets_its_headline_over_the_first_axis() {
    let scratch = Scratch::new("a_study_without_charts");
    let file = scratch.write("plain.toml", EVERY_KIND.split("[[chart]]").next().unwrap());
    let o = run_quiet(&file, &scratch.out(), &[]);
    assert_success(&o);
    assert_eq!(
        // The sap's headline: out of the fight by either way.
        chart_files(&scratch.out().join("plain")),
        ["p_out.png", "p_out.svg"]
    );
}
