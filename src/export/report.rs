//! `report.html`: a study on one page, for people (docs/scenarios.md "Outputs"). What the CSV files hold for
//! programs, the report shows for reading: the question (the scenario's title and opening comments), every
//! chart, the headline metric of every point with its interval, the differences with their verdicts, the
//! tunes' answers, the points that did not run and why, the facts to reproduce the run, and the scenario as
//! written.
//!
//! The page is self-contained, so that it can be mailed, archived or opened years later without the folder
//! beside it: the charts are inlined as SVG, the style sheet is inlined, and there is no script, font,
//! image or link outside the page. Every text a scenario sets (title, names, comments) is untrusted
//! (docs/scenarios.md "Limits") and is escaped wherever it lands. Tables scroll sideways in their own frame
//! on a phone, and print without cutting a chart or a row.
//!
//! Large studies: a table shows its first [`OPEN_ROWS`] rows; the rest, up to [`MAX_ROWS`], are in a closed
//! `<details>` under it; beyond that the page says how many rows it leaves out and which CSV file has them
//! all. So a sweep of thousands of points gives a page a browser opens at once, while the CSV files stay
//! the complete record.
//!
//! The run's own facts (command line, threads, start time, elapsed seconds) sit between
//! [`RUN_BEGIN`] and [`RUN_END`]; everything else is a function of the scenario, seed and trials alone, as
//! the CSV files are (tests/it/determinism.rs compares the rest across thread counts).

use crate::export::chart::Drawn;
use crate::export::manifest::{Manifest, RunInfo};
use crate::export::words::{confidence, thousands};
use crate::export::{ExportError, Exporter, StudyResults, Written};
use crate::rules::action::Action;
use crate::scenario::Scenario;
use crate::scenario::sweep::SweepValue;
use crate::stats::interval::Estimate;
use crate::stats::metrics;
use crate::study::exemplars::Exemplar;
use crate::study::flips::FlipRow;
use crate::study::tuning::Status;
use crate::study::{DifferenceRow, Rows};
use crate::study::{PointSummary, TuneLine};

/// Appends formatted text to a `String`: the page is built in memory, where appending cannot fail, so
/// there is no result to discard.
macro_rules! put {
    ($page:expr, $($text:tt)*) => {
        $page.push_str(&format!($($text)*))
    };
}

/// [`put!`] and a newline.
macro_rules! putln {
    ($page:expr, $($text:tt)*) => {{
        $page.push_str(&format!($($text)*));
        $page.push('\n');
    }};
}

mod told;
pub use told::{TOLD_EVENTS, told_stories};

/// Rows a table shows open; more are folded into a `<details>` under it.
pub const OPEN_ROWS: usize = 100;
/// Rows a table holds at most; beyond them the page names the CSV file that has every row.
pub const MAX_ROWS: usize = 2_000;
/// Marks the start of the facts that differ from run to run.
pub const RUN_BEGIN: &str = "<!-- run-dependent -->";
/// Marks their end.
pub const RUN_END: &str = "<!-- /run-dependent -->";

/// What a report is made of: the results of one run, and its charts as `chart::render` drew them.
#[derive(Debug, Clone, Copy)]
pub struct Report<'a> {
    /// The scenario run.
    pub scenario: &'a Scenario,
    /// What was run, as manifest.json has it.
    pub manifest: &'a Manifest,
    /// How the run went, as run.json has it.
    pub run: &'a RunInfo,
    /// One summary per point, and the differences from the baseline as differences.csv has them.
    pub rows: &'a Rows<'a>,
    /// The tunes' answers, as tune.csv.
    pub tunes: &'a [TuneLine<'a>],
    /// The variants' flips against the baseline, as flips.csv.
    pub flips: &'a [FlipRow<'a>],
    /// The fights worth reading, as exemplars.csv.
    pub exemplars: &'a [Exemplar],
    /// The charts (their SVG is inlined with their caption); `None` when charts were not drawn.
    pub charts: Option<&'a [Drawn]>,
    /// Whether exact values were computed (`run --exact`): they get their own columns.
    pub exact: bool,
}

/// `report.html`: always written, for without charts it still holds every table.
pub struct ReportHtml;

impl Exporter for ReportHtml {
    fn export(
        &self,
        study: &StudyResults<'_>,
        written: &mut Written<'_>,
    ) -> Result<(), ExportError> {
        let bytes = report_html(&Report {
            scenario: study.scenario,
            manifest: written.manifest(study),
            run: study.run,
            rows: study.rows,
            tunes: study.tunes,
            flips: study.flips,
            exemplars: study.exemplars,
            charts: study.charts,
            exact: study.exact,
        });
        written.bytes("report.html", &bytes)
    }
}

/// A section of the page: its id, its heading, and what writes its body.
type Section = (&'static str, &'static str, fn(&mut String, &Report<'_>));

/// The page as UTF-8 bytes.
pub fn report_html(r: &Report<'_>) -> Vec<u8> {
    let s = r.scenario;
    let mut page = String::with_capacity(64 * 1024);
    page.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    page.push_str(
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"subdual\">\n",
    );
    putln!(page, "<title>{}</title>", escape(&s.title));
    putln!(page, "<style>{STYLE}</style>\n</head>\n<body>");
    header(&mut page, r);
    warnings(&mut page, r);
    let fights: Option<Section> = s.points.iter().any(|p| p.action.is_fight()).then_some((
        "fights",
        "Fights worth reading",
        told::fights,
    ));
    let sections: Vec<Section> = [
        Some(("charts", "Charts", charts as fn(&mut String, &Report<'_>))),
        Some(("headline", "Headline", headline)),
        Some(("differences", "Differences from the baseline", differences)),
        Some(("why", "Why the variants differ", told::why)),
        fights,
        Some(("tunes", "Tunes", tunes)),
        Some(("ineligible", "Points that did not run", ineligible)),
        Some(("run", "The run", run)),
        Some(("scenario", "The scenario as written", scenario_text)),
    ]
    .into_iter()
    .flatten()
    .collect();
    page.push_str("<nav aria-label=\"Contents\"><ul>");
    for (id, name, _) in &sections {
        put!(page, "<li><a href=\"#{id}\">{name}</a></li>");
    }
    page.push_str("</ul></nav>\n<main>\n");
    for (id, name, body) in sections {
        putln!(page, "<section id=\"{id}\">\n<h2>{name}</h2>");
        body(&mut page, r);
        page.push_str("</section>\n");
    }
    putln!(
        page,
        "</main>\n<footer><p>Written by subdual {} from {}. Every number here is in the CSV files beside \
         this page, at full precision.</p></footer>\n</body>\n</html>",
        escape(&r.manifest.version),
        escape(&s.file)
    );
    page.into_bytes()
}

/// The style sheet: readable on a phone (the body at most a line's width, tables scrolling in their own
/// frame), and printable (no chart, row or heading cut from what follows it).
const STYLE: &str = "\
:root{color-scheme:light}\
*{box-sizing:border-box}\
body{margin:0 auto;max-width:72rem;padding:1rem;font:16px/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,\
Helvetica,Arial,sans-serif;color:#1b1b1b;background:#fff}\
h1{font-size:1.6rem;line-height:1.25;margin:.5rem 0}\
h2{font-size:1.25rem;margin:2.5rem 0 .75rem;padding-bottom:.25rem;border-bottom:1px solid #d0d0d0}\
h3{font-size:1.05rem;margin:1.5rem 0 .5rem}\
p,li{max-width:48rem}\
.lead{color:#333}\
.facts-line{color:#555;font-size:.9rem}\
nav ul{list-style:none;padding:0;margin:1rem 0;display:flex;flex-wrap:wrap;gap:.25rem 1.25rem}\
a{color:#1f4e99}\
figure{margin:1.5rem 0;break-inside:avoid;page-break-inside:avoid}\
figure svg{display:block;width:100%;height:auto;max-width:100%;border:1px solid #e4e4e4}\
figcaption{font-size:.9rem;color:#444;margin-top:.35rem}\
.scroll{overflow-x:auto;max-width:100%;margin:.5rem 0;-webkit-overflow-scrolling:touch}\
table{border-collapse:collapse;font-size:.875rem;font-variant-numeric:tabular-nums}\
th,td{padding:.3rem .6rem;border-bottom:1px solid #e6e6e6;text-align:left;vertical-align:top;white-space:nowrap}\
th{background:#f3f3f3;font-weight:600}\
td.n,th.n{text-align:right}\
td.reason{white-space:normal;min-width:14rem;max-width:32rem}\
td.ineligible{color:#8a4b00}\
td.higher,td.lower{font-weight:600}\
td.higher{color:#0b6b2f}\
td.lower{color:#a1261b}\
td.miss{color:#a1261b;font-weight:600}\
details{margin:.5rem 0}\
summary{cursor:pointer;color:#1f4e99}\
.note{color:#555;font-size:.9rem}\
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}\
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f6;border:1px solid #e4e4e4;\
padding:.75rem;font:.8rem/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}\
dl.facts{display:grid;grid-template-columns:11rem 1fr;gap:.2rem 1.25rem;margin:.5rem 0}\
dl.facts dt{font-weight:600}\
dl.facts dd{margin:0;overflow-wrap:anywhere}\
dl.glossary dt{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}\
dl.glossary dd{margin:0 0 .4rem 1.25rem}\
.warnings{border-left:4px solid #c77c00;background:#fff8e6;padding:.25rem 1rem;margin:1rem 0}\
.warnings h2{margin:.5rem 0;border:none}\
ol.steps{padding-left:2.25rem}\
ol.steps li{margin:.2rem 0;overflow-wrap:anywhere}\
ol.steps li.pre{list-style:none}\
.rule{color:#666;font-size:.8rem;white-space:nowrap}\
.die{font:.8rem/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:#444}\
.state{color:#555;font-style:italic;font-size:.9rem}\
.pair{display:grid;grid-template-columns:1fr 1fr;gap:0 1.5rem}\
.pair h4{margin:.5rem 0 0}\
td.changed{font-weight:600;color:#1f4e99}\
@media (max-width:40rem){body{padding:.75rem;font-size:15px}dl.facts{grid-template-columns:1fr}\
dl.facts dd{margin-left:1rem}.pair{grid-template-columns:1fr}ol.steps{padding-left:1.75rem}}\
@media print{body{max-width:none;padding:0;font-size:10pt}nav{display:none}.scroll{overflow:visible}\
table{font-size:8pt}th,td{white-space:normal}tr,figure,dl.facts{break-inside:avoid;page-break-inside:avoid}\
h2,h3{break-after:avoid;page-break-after:avoid}figure svg{border:none}a{color:inherit;text-decoration:none}}\
@page{margin:14mm}";

/// HTML-escapes text for element content and quoted attributes alike.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn header(page: &mut String, r: &Report<'_>) {
    let s = r.scenario;
    putln!(page, "<header>\n<h1>{}</h1>", escape(&s.title));
    for paragraph in s.description() {
        putln!(page, "<p class=\"lead\">{}</p>", escape(&paragraph));
    }
    let actions: Vec<String> = s
        .distinct_actions()
        .iter()
        .map(|a| format!("<code>{a}</code>"))
        .collect();
    let variants: Vec<String> = s.variants.iter().map(|v| escape(v)).collect();
    putln!(
        page,
        "<p class=\"facts-line\">Action {} · variants {} · {} points ({} eligible) × {} trials · {} \
         intervals · seed {}</p>\n</header>",
        actions.join(", "),
        variants.join(", "),
        thousands(s.points.len() as u64),
        thousands(s.eligible_points() as u64),
        thousands(r.manifest.trials),
        confidence(s.confidence),
        r.manifest.seed
    );
}

/// The scenario's warnings, when it has any, where nobody can miss them: fields the file sets that the
/// action does not read, each with its place in the file and a suggestion.
fn warnings(page: &mut String, r: &Report<'_>) {
    let warnings = &r.scenario.warnings;
    if warnings.is_empty() {
        return;
    }
    page.push_str(
        "<aside class=\"warnings\" id=\"warnings\" role=\"note\">\n<h2>Warnings</h2>\n<p>The file sets \
         these fields, but the action does not read them: every number here is what it would be without \
         them.</p>\n<ul>\n",
    );
    for w in warnings {
        let place = match w.line {
            Some(line) => format!("{}:{line}:{}", w.file, w.column),
            None => w.file.clone(),
        };
        put!(
            page,
            "<li><code>{}</code> {}",
            escape(&place),
            escape(&w.message)
        );
        if let Some(help) = &w.help {
            put!(page, "<br><span class=\"note\">{}</span>", escape(help));
        }
        page.push_str("</li>\n");
    }
    page.push_str("</ul>\n</aside>\n");
}

// ---------------------------------------------------------------------------------------------------
// Numbers for people
// ---------------------------------------------------------------------------------------------------

/// How a metric reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A percentage.
    Probability,
    /// A number with two decimals.
    Mean,
    /// A whole number.
    Fixed,
}

fn kind(action: Action, metric: &str) -> Kind {
    match metrics::kind_of(action, metric) {
        Some("fixed") => Kind::Fixed,
        Some("probability" | "ratio") => Kind::Probability,
        Some(_) => Kind::Mean,
        None if metrics::is_probability(metric) => Kind::Probability,
        None => Kind::Mean,
    }
}

/// A value: a probability as a percentage (two decimals below 10 %, where a rare outcome such as a death
/// lives, else one), a mean with two decimals, a fixed quantity whole; a dash when there is none.
fn value(kind: Kind, x: Option<f64>) -> String {
    let Some(x) = x else {
        return "–".to_string();
    };
    match kind {
        Kind::Probability => format!("{}%", percent(x * 100.0)),
        Kind::Mean => format!("{x:.2}"),
        Kind::Fixed => format!("{x:.0}"),
    }
}

/// A difference: signed, a probability's in percentage points.
fn signed(kind: Kind, x: Option<f64>) -> String {
    let Some(x) = x else {
        return "–".to_string();
    };
    let sign = if x > 0.0 { "+" } else { "" };
    match kind {
        Kind::Probability => format!("{sign}{} pp", percent(x * 100.0)),
        Kind::Mean => format!("{x:+.2}"),
        Kind::Fixed => format!("{x:+.0}"),
    }
}

fn percent(p: f64) -> String {
    if p != 0.0 && p.abs() < 10.0 {
        format!("{p:.2}")
    } else {
        format!("{p:.1}")
    }
}

/// An interval as `low – high`.
fn interval(kind: Kind, e: &Estimate, differences: bool) -> String {
    let f = |x| {
        if differences {
            signed(kind, x)
        } else {
            value(kind, x)
        }
    };
    match (e.ci_low, e.ci_high) {
        (None, None) => "–".to_string(),
        (low, high) => format!("{} – {}", f(low), f(high)),
    }
}

fn p_value(p: Option<f64>) -> String {
    match p {
        None => "–".to_string(),
        Some(p) if p < 0.001 => "< 0.001".to_string(),
        Some(p) => format!("{p:.3}"),
    }
}

// ---------------------------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------------------------

/// One table row under construction.
#[derive(Default)]
struct Row(String);

impl Row {
    /// A text cell.
    fn text(mut self, text: &str) -> Row {
        put!(self.0, "<td>{}</td>", escape(text));
        self
    }

    /// A number, right-aligned; `raw` (the CSV's value) rides along as `data-value` for programs.
    fn number(mut self, shown: &str, raw: Option<f64>) -> Row {
        match raw {
            Some(x) => {
                put!(
                    self.0,
                    "<td class=\"n\" data-value=\"{x}\">{}</td>",
                    escape(shown)
                );
            }
            None => {
                put!(self.0, "<td class=\"n\">{}</td>", escape(shown));
            }
        }
        self
    }

    /// A cell with a class.
    fn class(mut self, class: &str, text: &str) -> Row {
        put!(self.0, "<td class=\"{class}\">{}</td>", escape(text));
        self
    }

    /// The lead cells every table starts a point with: the sweep values and the level gap.
    fn point(self, values: &[&SweepValue], level_gap: i32) -> Row {
        let mut row = self;
        for v in values {
            row = row.text(&v.to_string());
        }
        row.number(&level_gap.to_string(), None)
    }
}

/// A header cell list: `(name, numeric)`.
fn head(cells: &[(String, bool)]) -> String {
    let mut out = String::from("<thead><tr>");
    for (name, numeric) in cells {
        let class = if *numeric { " class=\"n\"" } else { "" };
        put!(out, "<th scope=\"col\"{class}>{}</th>", escape(name));
    }
    out.push_str("</tr></thead>");
    out
}

/// The header cells of the sweep values: the names charts print (`attacker Strength`), not the keys the
/// CSV files head their columns with.
fn path_head(s: &Scenario) -> Vec<(String, bool)> {
    s.paths()
        .iter()
        .map(|p| (crate::scenario::sweep::path_name(p), false))
        .collect()
}

/// The sweep paths and `level gap` header cells.
fn point_head(s: &Scenario) -> Vec<(String, bool)> {
    let mut cells = path_head(s);
    cells.push(("level gap".to_string(), true));
    cells
}

/// Writes a table of `items`, each made a row by `row`, under `head`, folding and capping long ones
/// ([`OPEN_ROWS`], [`MAX_ROWS`]); `csv` names the file that has every row. Only the rows shown are made
/// (a study of 100,000 points has a million differences, of which the page shows 2,000).
fn table<T>(
    page: &mut String,
    class: &str,
    head: &str,
    items: impl IntoIterator<Item = T>,
    row: impl FnMut(T) -> Row,
    csv: &str,
) {
    let mut items = items.into_iter();
    let rows: Vec<Row> = items.by_ref().take(MAX_ROWS).map(row).collect();
    let total = rows.len() + items.count();
    let open = rows.len().min(OPEN_ROWS);
    let held = rows.len();
    let write = |page: &mut String, rows: &[Row]| {
        put!(
            page,
            "<div class=\"scroll\"><table class=\"{class}\">{head}<tbody>"
        );
        for row in rows {
            put!(page, "<tr>{}</tr>", row.0);
        }
        page.push_str("</tbody></table></div>\n");
    };
    write(page, &rows[..open]);
    if held > open {
        putln!(
            page,
            "<details><summary>{} more rows</summary>",
            thousands((held - open) as u64)
        );
        write(page, &rows[open..held]);
        page.push_str("</details>\n");
    }
    if total > held {
        putln!(
            page,
            "<p class=\"note\">This page shows the first {} of {} rows; every row is in <code>{}</code>.</p>",
            thousands(held as u64),
            thousands(total as u64),
            escape(csv)
        );
    }
}

// ---------------------------------------------------------------------------------------------------
// Sections
// ---------------------------------------------------------------------------------------------------

fn charts(page: &mut String, r: &Report<'_>) {
    let Some(drawn) = r.charts else {
        page.push_str("<p>Charts were not drawn for this run (<code>--no-charts</code>).</p>\n");
        return;
    };
    let mut shown = 0;
    for chart in drawn {
        let name = format!("{}.svg", chart.file);
        // The file's name last, so the caption names the image beside the report.
        let caption = format!("{} ({name})", chart.caption);
        let Some(svg) = inline_svg(&chart.svg, &caption) else {
            putln!(
                page,
                "<p class=\"note\">{} could not be shown here.</p>",
                escape(&name)
            );
            continue;
        };
        shown += 1;
        putln!(
            page,
            "<figure>\n{svg}\n<figcaption>{}</figcaption>\n</figure>",
            escape(&caption)
        );
    }
    if shown == 0 {
        page.push_str("<p>This study has no chart.</p>\n");
    }
}

/// A chart's SVG ready to sit in the page: anything before the `<svg>` element (an XML prolog, a
/// DOCTYPE, comments) is dropped, since HTML does not take them; the root gains a `viewBox` if it has none
/// (so the style sheet's `width:100%;height:auto` scales it), `role="img"` and the caption as its label.
/// `None` when the bytes hold no SVG element.
fn inline_svg(text: &str, label: &str) -> Option<String> {
    let start = text.find("<svg")?;
    let end = text.rfind("</svg>")? + "</svg>".len();
    if end <= start {
        return None;
    }
    let svg = &text[start..end];
    let tag_end = svg.find('>')?;
    let (tag, rest) = svg.split_at(tag_end);
    let attribute = |name: &str| -> Option<&str> {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        tag[at..].split('"').next()
    };
    let mut root = tag.trim_end_matches('/').to_string();
    if attribute("viewBox").is_none() {
        let number =
            |name| attribute(name).and_then(|v| v.trim_end_matches("px").parse::<f64>().ok());
        let (w, h) = (number("width")?, number("height")?);
        put!(root, " viewBox=\"0 0 {w} {h}\"");
    }
    put!(root, " role=\"img\" aria-label=\"{}\"", escape(label));
    Some(format!("{root}{rest}"))
}

fn headline(page: &mut String, r: &Report<'_>) {
    let s = r.scenario;
    let file_metric = metrics::headline(s.action);
    let several = s
        .points
        .iter()
        .any(|p| metrics::headline(p.action) != file_metric);
    let mut cells = vec![("variant".to_string(), false)];
    cells.extend(point_head(s));
    if several {
        cells.push(("metric".to_string(), false));
    }
    cells.push((
        if several {
            "estimate".to_string()
        } else {
            file_metric.to_string()
        },
        true,
    ));
    cells.push((format!("{} interval", confidence(s.confidence)), true));
    if r.exact {
        cells.push(("exact".to_string(), true));
    }
    cells.push(("trials".to_string(), true));
    // The metrics of the points that ran, in order, for the glossary under the table.
    let mut used: Vec<&str> = Vec::new();
    for p in r.rows.summaries() {
        let metric = metrics::headline(p.action);
        if p.result.is_ok() && !used.contains(&metric) {
            used.push(metric);
        }
    }
    let row = |p: &PointSummary<'_>| {
        let metric = metrics::headline(p.action);
        let values: Vec<&SweepValue> = p.values.iter().collect();
        let mut row = Row::default().text(p.variant).point(&values, p.level_gap);
        if several {
            row = row.text(metric);
        }
        match &p.result {
            Ok(all) => {
                let m = all.iter().find(|m| m.metric == metric);
                let e = m.map_or(Estimate::empty(), |m| m.value);
                let k = kind(p.action, metric);
                row = row
                    .number(&value(k, e.estimate), e.estimate)
                    .number(&interval(k, &e, false), None);
                if r.exact {
                    let x = m.and_then(|m| m.exact);
                    row = row.number(&value(k, x), x);
                }
                row = row.number(&thousands(e.trials), None);
            }
            Err(reason) => {
                row = row
                    .class("ineligible", "ineligible")
                    .class("reason", reason);
                if r.exact {
                    row = row.text("");
                }
                row = row.text("");
            }
        }
        row
    };
    putln!(
        page,
        "<p>The headline metric of every point, with its {} interval{}. Every metric of every point is in \
         <code>summary.csv</code>.</p>",
        confidence(s.confidence),
        if r.exact { " and its exact value" } else { "" }
    );
    table(
        page,
        "headline",
        &head(&cells),
        r.rows.summaries(),
        |p| row(&p),
        "summary.csv",
    );
    if !used.is_empty() {
        page.push_str("<dl class=\"glossary\">");
        for metric in used {
            put!(
                page,
                "<dt>{}</dt><dd>{}</dd>",
                escape(metric),
                escape(metrics::definition(metric).unwrap_or(""))
            );
        }
        page.push_str("</dl>\n");
    }
}

fn differences(page: &mut String, r: &Report<'_>) {
    let s = r.scenario;
    if s.variants.len() < 2 {
        page.push_str("<p>One variant: nothing is compared.</p>\n");
        return;
    }
    putln!(
        page,
        "<p>Each variant against the baseline <b>{}</b> on the same dice, trial by trial: the difference \
         (variant minus baseline; probabilities in percentage points), its own {} interval, its \
         simultaneous interval (Holm-adjusted over the whole file, so that all of them hold together at that \
         confidence), the p-value adjusted by Holm's method, and the verdict, which follows the simultaneous \
         interval: higher or lower when it lies wholly above or below 0. The first table gives each variant's \
         headline metric; every metric follows below it, as <code>differences.csv</code> has them.</p>",
        escape(&s.variants[s.baseline]),
        confidence(s.confidence)
    );
    let mut cells = vec![("variant".to_string(), false)];
    cells.extend(point_head(s));
    cells.extend([
        ("metric".to_string(), false),
        ("difference".to_string(), true),
        (format!("{} interval", confidence(s.confidence)), true),
        ("simultaneous interval (Holm)".to_string(), true),
        ("p adjusted".to_string(), true),
        ("verdict".to_string(), false),
    ]);
    if r.exact {
        cells.push(("exact".to_string(), true));
    }
    let head = head(&cells);
    let row = |d: &DifferenceRow<'_>| {
        let values: Vec<&SweepValue> = d.values.iter().collect();
        let metric = if d.metric == d.baseline_metric {
            d.metric.to_string()
        } else {
            format!("{} vs {}", d.metric, d.baseline_metric)
        };
        let mut row = Row::default()
            .text(d.variant)
            .point(&values, d.level_gap)
            .text(&metric);
        let k = kind(s.points[d.points.0].action, d.metric);
        match &d.result {
            Ok(diff) => {
                let e = Estimate {
                    estimate: diff.difference,
                    ci_low: diff.ci_low,
                    ci_high: diff.ci_high,
                    std_error: diff.std_error,
                    trials: diff.trials,
                };
                let adjusted = Estimate {
                    ci_low: d.ci_adjusted.0,
                    ci_high: d.ci_adjusted.1,
                    ..e
                };
                let verdict = match d.verdict {
                    "higher" => "higher",
                    "lower" => "lower",
                    _ => "same",
                };
                row = row
                    .number(&signed(k, diff.difference), diff.difference)
                    .number(&interval(k, &e, true), None)
                    .number(&interval(k, &adjusted, true), None)
                    .number(&p_value(d.p_adjusted), None)
                    .class(verdict, d.verdict);
            }
            Err(reason) => {
                row = row
                    .class("ineligible", "–")
                    .class("reason", reason)
                    .text("")
                    .text("")
                    .text("");
            }
        }
        if r.exact {
            row = row.number(&signed(k, d.exact), d.exact);
        }
        row
    };
    let headline = r.rows.differences().filter(|d| {
        d.result.is_err() || d.metric == metrics::headline(s.points[d.points.0].action)
    });
    table(
        page,
        "differences",
        &head,
        headline,
        |d| row(&d),
        "differences.csv",
    );
    policies(page, r);
    putln!(
        page,
        "<details><summary>Every metric ({} rows)</summary>",
        thousands(r.rows.difference_count() as u64)
    );
    table(
        page,
        "differences-all",
        &head,
        r.rows.differences(),
        |d| row(&d),
        "differences.csv",
    );
    page.push_str("</details>\n");
}

/// For each swept targeting policy (`attackers.target`, `victims.target`), whether every headline verdict
/// holds under every policy, and where it does not, under which it changes.
fn policies(page: &mut String, r: &Report<'_>) {
    let s = r.scenario;
    for (axis, a) in s.axes.iter().enumerate() {
        if !a.path.ends_with(".target") {
            continue;
        }
        let along = crate::study::verdicts_along(s, r.rows.differences(), axis);
        if along.is_empty() {
            continue;
        }
        let holding = along.iter().filter(|x| x.holds()).count();
        let others: Vec<&str> = s
            .axes
            .iter()
            .enumerate()
            .filter(|(k, _)| *k != axis)
            .map(|(_, x)| x.path.as_str())
            .collect();
        putln!(
            page,
            "<h3>Under every targeting policy (<code>{}</code>)</h3>\n<p>{} of {} headline verdicts hold under \
             every policy.</p>\n<ul class=\"policies\">",
            escape(&a.path),
            thousands(holding as u64),
            thousands(along.len() as u64)
        );
        for x in &along {
            let at: Vec<String> = others
                .iter()
                .zip(&x.others)
                .map(|(p, v)| format!("{} = {}", p, v))
                .collect();
            let said = if x.holds() {
                format!(
                    "{} under every policy",
                    x.verdicts.first().map_or("", |v| v.1)
                )
            } else {
                let parts: Vec<String> = x
                    .verdicts
                    .iter()
                    .map(|(v, verdict)| format!("{verdict} under {v}"))
                    .collect();
                format!("depends on the policy: {}", parts.join("; "))
            };
            putln!(
                page,
                "<li><b>{}</b>, {}: {}</li>",
                escape(x.variant),
                escape(&at.join(", ")),
                escape(&said)
            );
        }
        page.push_str("</ul>\n");
    }
}

fn tunes(page: &mut String, r: &Report<'_>) {
    let s = r.scenario;
    if s.tunes.is_empty() {
        page.push_str("<p>This study has no <code>[[tune]]</code>.</p>\n");
        return;
    }
    page.push_str(
        "<p>At each point, the value of the parameter whose metric comes closest to the target, the metric \
         there, every value whose interval holds the target, and whether the target was reached; as \
         <code>tune.csv</code>.</p>\n",
    );
    let mut cells = vec![("tune".to_string(), false)];
    cells.extend(path_head(s));
    cells.extend([
        ("parameter".to_string(), false),
        ("metric".to_string(), false),
        ("target".to_string(), true),
        ("best value".to_string(), true),
        ("values consistent".to_string(), false),
        ("estimate".to_string(), true),
        (format!("{} interval", confidence(s.confidence)), true),
        ("monotone".to_string(), false),
        ("evaluations".to_string(), true),
        ("status".to_string(), false),
    ]);
    if r.exact {
        cells.extend([
            ("exact best value".to_string(), true),
            ("exact".to_string(), true),
        ]);
    }
    let mut rows = Vec::new();
    for line in r.tunes {
        let t = line.tune;
        let k = kind(t.action, t.metric);
        let mut row = Row::default().text(&t.name);
        for v in &line.values {
            row = row.text(&v.to_string());
        }
        row = row
            .text(&t.parameter)
            .text(t.metric)
            .number(&value(k, line.target), line.target);
        match &line.best {
            Some((best, e)) => {
                let consistent: Vec<String> =
                    line.consistent.iter().map(|v| v.to_string()).collect();
                row = row
                    .number(&best.to_string(), None)
                    .text(&consistent.join(", "))
                    .number(&value(k, e.estimate), e.estimate)
                    .number(&interval(k, e, false), None);
            }
            None => {
                row = row.text("–").text("").text("–").text("");
            }
        }
        row = row
            .text(if line.monotone { "yes" } else { "no" })
            .number(&line.evaluations.to_string(), None);
        // A miss stands out: the closest value is then no answer.
        row = match &line.status {
            Ok(Status::Reached) => row.text(line.status_words()),
            Ok(_) => row.class("reason miss", line.status_words()),
            Err(reason) => row.class("reason", reason),
        };
        if r.exact {
            match line.exact {
                Some((best, x)) => {
                    row = row
                        .number(&best.to_string(), None)
                        .number(&value(k, Some(x)), Some(x))
                }
                None => row = row.text("–").text("–"),
            }
        }
        rows.push(row);
    }
    table(
        page,
        "tunes",
        &head(&cells),
        rows,
        std::convert::identity,
        "tune.csv",
    );
}

fn ineligible(page: &mut String, r: &Report<'_>) {
    let s = r.scenario;
    // Counted, then made a row at a time: the table shows the first of them.
    let count = r.rows.summaries().filter(|p| p.result.is_err()).count();
    let rows = r.rows.summaries().filter_map(|p| {
        let Err(reason) = &p.result else {
            return None;
        };
        let values: Vec<&SweepValue> = p.values.iter().collect();
        Some(
            Row::default()
                .text(p.variant)
                .point(&values, p.level_gap)
                .class("reason", reason),
        )
    });
    if count == 0 {
        page.push_str("<p>Every point ran.</p>\n");
        return;
    }
    putln!(
        page,
        "<p>{} of {} points did not run: the rules forbid the action there. <code>summary.csv</code> \
         gives each one row with metric <code>ineligible</code> and the reason.</p>",
        thousands(count as u64),
        thousands(s.points.len() as u64)
    );
    let mut cells = vec![("variant".to_string(), false)];
    cells.extend(point_head(s));
    cells.push(("reason".to_string(), false));
    table(
        page,
        "ineligible",
        &head(&cells),
        rows,
        std::convert::identity,
        "summary.csv",
    );
}

fn run(page: &mut String, r: &Report<'_>) {
    let m = r.manifest;
    let how = r.run;
    let s = r.scenario;
    page.push_str(
        "<p>What reproduces every number here: the same scenario (its SHA-256 below), seed and trials give \
         the same results on any number of threads.</p>\n<dl class=\"facts\">",
    );
    let fact = |page: &mut String, name: &str, value: &str| {
        put!(page, "<dt>{name}</dt><dd>{value}</dd>");
    };
    fact(page, "tool", &escape(&format!("{} {}", m.tool, m.version)));
    fact(
        page,
        "scenario",
        &format!("<code>{}</code>", escape(&m.scenario)),
    );
    fact(
        page,
        "scenario SHA-256",
        &format!("<code>{}</code>", escape(&m.scenario_sha256)),
    );
    fact(page, "seed", &m.seed.to_string());
    fact(page, "trials a point", &thousands(m.trials));
    fact(page, "block size", &thousands(m.block_size));
    fact(page, "points", &thousands(m.points as u64));
    fact(page, "confidence", &confidence(s.confidence));
    page.push_str("</dl>\n");
    put!(page, "{RUN_BEGIN}\n<dl class=\"facts\">");
    fact(
        page,
        "command",
        &format!("<code>{}</code>", escape(&how.command)),
    );
    fact(page, "threads", &how.threads.to_string());
    fact(page, "started", &escape(&how.started));
    fact(page, "elapsed", &format!("{:.2} s", how.elapsed_s));
    if !how.shards.is_empty() {
        fact(page, "shards merged", &thousands(how.shards.len() as u64));
    }
    putln!(page, "</dl>\n{RUN_END}");
}

fn scenario_text(page: &mut String, r: &Report<'_>) {
    putln!(
        page,
        "<p><code>{}</code>, byte for byte:</p>\n<pre>{}</pre>",
        escape(&r.scenario.file),
        escape(&r.scenario.text)
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::chart;
    use crate::study;
    use crate::study::tune_lines;
    use crate::study::tuning;

    /// Builds the report of `text` run at a few trials, as `run` does.
    pub(super) fn report_of(text: &str, exact: bool, draw: bool) -> String {
        let mut s = Scenario::parse("study.toml", "study", text.as_bytes()).expect("valid");
        s.trials = 400;
        let results = study::run(&s, s.trials, &|_| {});
        // Each point's exact value of every metric, in its table's order, as `run --exact` keeps them.
        let exact_values = if exact {
            s.points
                .iter()
                .zip(&results.tallies)
                .map(|(point, tally)| {
                    let (Ok(p), Some(_)) = (&point.prepare(), tally) else {
                        return None;
                    };
                    let values = crate::stats::exact::exact(p, point.action).expect("exact");
                    Some(study::rows::in_table_order(point.action, &values))
                })
                .collect()
        } else {
            Vec::new()
        };
        let flips = study::flips::flips(&s, &results);
        let exemplars = study::exemplars::exemplars(&s, &results.tallies);
        let rows = Rows::tallied(&s, results, exact_values);
        let summaries: Vec<_> = rows.summaries().collect();
        let solved = tuning::solve(&s, &summaries, s.trials, exact, &|_| {});
        let lines = tune_lines(&s, &solved);
        let files = chart::render(&s, &rows, &solved, s.trials).expect("charts");
        let manifest = Manifest {
            tool: "subdual".into(),
            version: "0.1.0".into(),
            scenario: s.file.clone(),
            scenario_sha256: s.sha256.clone(),
            seed: s.seed,
            trials: s.trials,
            block_size: crate::engine::BLOCK_SIZE,
            variants: s.variants.clone(),
            points: s.points.len(),
            files: Vec::new(),
        };
        let run = RunInfo {
            threads: 2,
            started: "2026-12-01T10:00:00Z".into(),
            elapsed_s: 1.25,
            command: "subdual run study.toml".into(),
            shards: Vec::new(),
        };
        let bytes = report_html(&Report {
            scenario: &s,
            manifest: &manifest,
            run: &run,
            rows: &rows,
            tunes: &lines,
            flips: &flips,
            exemplars: &exemplars,
            charts: draw.then_some(files.as_slice()),
            exact,
        });
        String::from_utf8(bytes).expect("UTF-8")
    }

    pub(super) const HOSTILE: &str = r#"# <script>alert("comment")</script> & more
title = "<script>alert('title')</script>"
action = "mug"
seed = 3

[attacker]
class = "thief"
level = 9
weapon = "club"
position = "behind"

[victim]
monster = "ogre"
aware = false

[sweep]
"victim.monster" = ["ogre", "orc"]

[[variant]]
name = "<img src=x onerror=alert(1)>"

[[variant]]
name = "</td></tr></table><script>x</script>"
rules = { helmets = true }
"#;

    /// The sweep of mugging-halfling-reach: a halfling cannot mug an ogre.
    const WITH_INELIGIBLE: &str = r#"title = "Reach"
action = "mug"
seed = 5

[attacker]
class = "thief"
race = "halfling"
level = 5
weapon = "club"
position = "behind"

[victim]
monster = "orc"
aware = false

[sweep]
"victim.monster" = ["orc", "ogre"]
"#;

    /// Elements HTML writes without an end tag.
    const VOID: [&str; 4] = ["meta", "br", "hr", "img"];

    /// A well-formedness check strict enough for this page: the doctype first, every element closed in
    /// order (void ones excepted, SVG's self-closed ones allowed), attributes quoted, no stray `<` or `>`
    /// in text.
    pub(super) fn structure(html: &str) -> Result<(), String> {
        let rest = html
            .strip_prefix("<!DOCTYPE html>\n")
            .ok_or("no doctype first")?;
        let rest = crate::export::markup::well_formed(rest, &VOID)?;
        if rest.trim() != "" {
            return Err(format!("text after </html>: {rest:?}"));
        }
        Ok(())
    }

    #[test]
    fn hostile_names_and_titles_are_escaped() {
        let html = report_of(HOSTILE, false, true);
        structure(&html).unwrap();
        assert!(!html.contains("<script"), "no script element at all");
        assert!(!html.contains("<img"), "no image element at all");
        assert!(!html.contains("</td></tr></table><script>"));
        for escaped in [
            "&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;",
            "&lt;img src=x onerror=alert(1)&gt;",
            "&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;script&gt;x&lt;/script&gt;",
            "&lt;script&gt;alert(&quot;comment&quot;)&lt;/script&gt; &amp; more",
        ] {
            assert!(html.contains(escaped), "missing {escaped}");
        }
    }

    #[test]
    fn every_section_is_there_with_or_without_its_content() {
        for (text, draw) in [(HOSTILE, true), (WITH_INELIGIBLE, false)] {
            let html = report_of(text, false, draw);
            structure(&html).unwrap();
            assert_eq!(html.matches("<h1>").count(), 1);
            for id in [
                "charts",
                "headline",
                "differences",
                "why",
                "tunes",
                "ineligible",
                "run",
                "scenario",
            ] {
                assert_eq!(
                    html.matches(&format!("<section id=\"{id}\">")).count(),
                    1,
                    "{id}"
                );
                assert!(html.contains(&format!("<a href=\"#{id}\">")), "{id}");
            }
            for fact in [
                "subdual 0.1.0",
                "scenario SHA-256",
                "trials a point",
                "block size",
                "threads",
                "started",
                "2026-12-01T10:00:00Z",
                "1.25 s",
                "subdual run study.toml",
            ] {
                assert!(html.contains(fact), "missing {fact}");
            }
            assert!(html.contains("<meta name=\"viewport\""));
        }
        let one = report_of(WITH_INELIGIBLE, false, false);
        assert!(one.contains("(<code>--no-charts</code>)"));
        assert!(one.contains("One variant: nothing is compared."));
        assert!(one.contains("no <code>[[tune]]</code>"));
        assert!(!one.contains("<svg"));
        let two = report_of(HOSTILE, false, true);
        assert_eq!(two.matches("<figure>").count(), 1);
        assert_eq!(two.matches("<figcaption>").count(), 1);
        assert!(two.contains("Every point ran."));
        assert!(two.contains("<table class=\"differences\">"));
    }

    #[test]
    fn the_description_and_the_scenario_as_written_are_shown() {
        let html = report_of(HOSTILE, false, false);
        assert!(html.contains("<p class=\"lead\">&lt;script&gt;"));
        let pre = html
            .split("<pre>")
            .nth(1)
            .unwrap()
            .split("</pre>")
            .next()
            .unwrap();
        assert_eq!(pre, escape(HOSTILE));
    }

    #[test]
    fn ineligible_points_show_their_reasons() {
        let html = report_of(WITH_INELIGIBLE, false, true);
        let section = html.split("<section id=\"ineligible\">").nth(1).unwrap();
        let section = section.split("</section>").next().unwrap();
        assert!(section.contains("1 of 2 points did not run"), "{section}");
        assert!(
            section.contains("more than 2 times as tall as the mugger"),
            "{section}"
        );
        let headline = html.split("<table class=\"headline\">").nth(1).unwrap();
        assert!(headline.contains("<td class=\"ineligible\">ineligible</td>"));
    }

    #[test]
    fn the_exact_column_is_there_only_with_exact_values() {
        let plain = report_of(HOSTILE, false, true);
        let exact = report_of(HOSTILE, true, true);
        let header = |html: &str, table: &str| {
            html.split(&format!("<table class=\"{table}\">"))
                .nth(1)
                .unwrap()
                .split("</thead>")
                .next()
                .unwrap()
                .to_string()
        };
        for table in ["headline", "differences"] {
            assert!(!header(&plain, table).contains(">exact<"), "{table}");
            assert!(header(&exact, table).contains(">exact<"), "{table}");
        }
        assert!(exact.contains("and its exact value"));
    }

    #[test]
    fn the_page_references_nothing_outside_itself() {
        // Shipped studies (the hostile one's names hold `src=` as text, escaped).
        for html in [
            report_of(
                include_str!("../../scenarios/sap-or-mug-the-sentry.toml"),
                true,
                true,
            ),
            report_of(
                include_str!("../../scenarios/mugging-halfling-reach.toml"),
                false,
                true,
            ),
        ] {
            let lower = html.to_lowercase();
            // The SVG namespace is a name, not a fetch: it is the only URL allowed.
            let lower = lower.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
            for banned in [
                "http://",
                "https://",
                "src=",
                "url(",
                "@import",
                "<link",
                "<script",
                "<img",
                "<iframe",
                "<object",
                "<embed",
                "href=\"//",
                "xlink:href",
            ] {
                assert!(!lower.contains(banned), "`{banned}` in the page");
            }
            // Links only within the page.
            for link in lower.split("href=\"").skip(1) {
                assert!(
                    link.starts_with('#'),
                    "a link out: {}",
                    &link[..20.min(link.len())]
                );
            }
        }
    }

    #[test]
    fn charts_are_inlined_scalable_and_labelled() {
        let html = report_of(WITH_INELIGIBLE, false, true);
        let svg = html.split("<figure>\n").nth(1).unwrap();
        assert!(svg.starts_with("<svg "), "{}", &svg[..80]);
        let root = svg.split('>').next().unwrap();
        assert!(root.contains("viewBox=\"0 0 1950 1300\""), "{root}");
        // The label and the caption are the chart's own words: its title, setting, trials and seed, its
        // whiskers, the point it could not draw and why, and the file.
        let label = "Reach. thief (halfling, level 5, club, behind) against the victim shown (unaware). \
                     400 trials a point, seed 5; whiskers: 95% Wilson score intervals. × not eligible (at \
                     ogre): the victim (9 ft) is more than 2 times as tall as the mugger (3 ft). \
                     (p_knockout.svg)";
        assert!(
            root.contains(&format!("role=\"img\" aria-label=\"{label}\"")),
            "{root}"
        );
        assert!(html.contains(&format!("<figcaption>{label}</figcaption>")));
        // Tables head a swept path with the name the chart prints, not its key.
        let headline = html.split("<table class=\"headline\">").nth(1).unwrap();
        let head = headline.split("</thead>").next().unwrap();
        assert!(head.contains(">victim monster<"), "{head}");
        assert!(!head.contains("victim.monster"), "{head}");
        // A prolog and a DOCTYPE are dropped, and a root without a viewBox gains one.
        let bare = "<?xml version=\"1.0\"?>\n<!DOCTYPE svg>\n<svg width=\"30\" height=\"20\" \
                    xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>\n";
        let inlined = inline_svg(bare, "a <b>").unwrap();
        assert_eq!(
            inlined,
            "<svg width=\"30\" height=\"20\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 30 20\" \
             role=\"img\" aria-label=\"a &lt;b&gt;\"><rect/></svg>"
        );
        assert_eq!(inline_svg("not a chart", "x"), None);
    }

    /// The report of the shipped sap-or-mug-the-sentry (400 trials, no charts).
    fn sentry_report() -> String {
        let path = format!(
            "{}/scenarios/sap-or-mug-the-sentry.toml",
            env!("CARGO_MANIFEST_DIR")
        );
        report_of(&std::fs::read_to_string(path).unwrap(), false, false)
    }

    #[test]
    fn every_table_heads_a_swept_path_with_its_name() {
        let html = sentry_report();
        for table in ["headline", "differences", "tunes", "ineligible"] {
            let Some(at) = html.find(&format!("<table class=\"{table}\">")) else {
                continue;
            };
            let head = html[at..].split("</thead>").next().unwrap();
            assert!(head.contains(">attacker level<"), "{table}: {head}");
            assert!(!head.contains("attacker.level"), "{table}: {head}");
        }
        assert!(html.contains("<table class=\"tunes\">"));
    }

    #[test]
    fn a_tune_that_misses_its_target_says_so_in_its_row() {
        let html = sentry_report();
        let table = html.split("<table class=\"tunes\">").nth(1).unwrap();
        let table = table.split("</table>").next().unwrap();
        // From level 7 no cap lets the sap match the mugging; from level 10 by far more than 400 trials'
        // intervals.
        let above = "<td class=\"reason miss\">not reached: the target is above every value the metric \
                     reaches over the range</td>";
        let misses = table.matches(above).count();
        assert!((4..=5).contains(&misses), "{misses}: {table}");
        assert!(!table.contains("<td>ok</td>"), "{table}");
    }

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(value(Kind::Probability, Some(0.41234)), "41.2%");
        assert_eq!(value(Kind::Probability, Some(0.0035)), "0.35%");
        assert_eq!(value(Kind::Probability, Some(0.0)), "0.0%");
        assert_eq!(value(Kind::Probability, Some(1.0)), "100.0%");
        assert_eq!(value(Kind::Mean, Some(3.256)), "3.26");
        assert_eq!(value(Kind::Fixed, Some(17.0)), "17");
        assert_eq!(value(Kind::Mean, None), "–");
        assert_eq!(signed(Kind::Probability, Some(0.0321)), "+3.21 pp");
        assert_eq!(signed(Kind::Probability, Some(-0.125)), "-12.5 pp");
        assert_eq!(signed(Kind::Mean, Some(-0.5)), "-0.50");
        assert_eq!(p_value(Some(0.0004)), "< 0.001");
        assert_eq!(p_value(Some(0.04213)), "0.042");
    }

    #[test]
    fn long_tables_fold_and_stop_at_the_cap() {
        let rows = |n: usize| -> Vec<Row> {
            (0..n)
                .map(|i| Row::default().text(&i.to_string()))
                .collect()
        };
        let mut page = String::new();
        table(
            &mut page,
            "t",
            "<thead></thead>",
            rows(OPEN_ROWS),
            std::convert::identity,
            "summary.csv",
        );
        assert!(!page.contains("<details>"));
        let mut page = String::new();
        table(
            &mut page,
            "t",
            "<thead></thead>",
            rows(MAX_ROWS + 7),
            std::convert::identity,
            "summary.csv",
        );
        assert_eq!(page.matches("<tr>").count(), MAX_ROWS);
        assert!(page.contains(&format!(
            "<summary>{} more rows</summary>",
            thousands((MAX_ROWS - OPEN_ROWS) as u64)
        )));
        assert!(
            page.contains(
                "the first 2,000 of 2,007 rows; every row is in <code>summary.csv</code>"
            )
        );
        structure(&format!("<!DOCTYPE html>\n{page}")).unwrap();
        // Rows are made for the lines shown only, however many items the table counts.
        let made = std::cell::Cell::new(0);
        let mut page = String::new();
        table(
            &mut page,
            "t",
            "<thead></thead>",
            0..100_000,
            |i: i32| {
                made.set(made.get() + 1);
                Row::default().text(&i.to_string())
            },
            "summary.csv",
        );
        assert_eq!(made.get(), MAX_ROWS);
        assert!(page.contains("the first 2,000 of 100,000 rows"));
    }
}
