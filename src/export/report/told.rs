//! The report's stories (docs/scenarios.md "Explain"): "Why the variants differ", the flip shares of the
//! headline with one flipped trial told under both variants side by side, and "Fights worth reading", the
//! median fight and the first death of each variant, told and folded.
//!
//! A share says how often two rules part; a story shows why. The trials told are the ones flips.csv and
//! exemplars.csv name, told by the same code as `subdual explain` ([`explain::tell`]), so a reader can
//! replay any of them with the command printed above it. A story is cut at [`TOLD_EVENTS`] events and
//! the fights at [`TOLD_VARIANTS`] variants, which keeps the page's size bounded whatever the study.

use crate::dice::Event;
use crate::explain::{self, Pair, Story, parting};
use crate::scenario::Scenario;
use crate::study::exemplars::Exemplar;
use crate::study::flips::FlipRow;

use super::{Kind, Report, Row, escape, head, interval, point_head, table, value};

/// Events a story shows at most; the rest is left to `subdual explain`.
pub const TOLD_EVENTS: usize = 1_000;
/// Variants whose fights are told at most.
pub const TOLD_VARIANTS: usize = 4;

/// Stories the page of `scenario` tells at most: the flipped trial under two variants when there are two,
/// and two fights a variant (up to four) when the study has fights.
pub fn told_stories(scenario: &Scenario) -> usize {
    let variants = scenario.variants.len();
    let flipped = if variants > 1 { 2 } else { 0 };
    let fights = if scenario.points.iter().any(|p| p.action.is_fight()) {
        2 * variants.min(TOLD_VARIANTS)
    } else {
        0
    };
    flipped + fights
}

/// "Why the variants differ": the flips of every headline, then the trial of the row with the most flips.
pub(super) fn why(page: &mut String, r: &Report<'_>) {
    let s = r.scenario;
    if s.variants.len() < 2 {
        page.push_str("<p>One variant: nothing is compared.</p>\n");
        return;
    }
    putln!(
        page,
        "<p>Every variant rolls the same dice as the baseline <b>{}</b>, trial by trial, so a difference is \
         made of the trials where the two part: those where the headline event happened under the variant \
         only (<i>to the variant</i>) and those where it happened under the baseline only (<i>from it</i>). \
         The first share minus the second is the difference above. The first trial of each way is named so \
         that it can be replayed with <code>subdual explain</code>. A headline that is a mean has no event \
         to flip.</p>",
        escape(&s.variants[s.baseline])
    );
    let mut cells = vec![("variant".to_string(), false)];
    cells.extend(point_head(s));
    cells.extend([
        ("metric".to_string(), false),
        ("trials".to_string(), true),
        ("to the variant".to_string(), true),
        ("interval".to_string(), true),
        ("from it".to_string(), true),
        ("interval".to_string(), true),
        ("first trial to".to_string(), true),
        ("first trial from".to_string(), true),
    ]);
    // Rows are made for the lines shown only: a sweep of 50,000 points makes 2,000, not 50,000.
    table(page, "flips", &head(&cells), r.flips, flip_row, "flips.csv");
    let Some((row, trial)) = most_flipped(r.flips) else {
        if r.flips.iter().any(|f| f.flips.is_some()) {
            page.push_str("<p>No trial flipped: there is no trial to tell.</p>\n");
        } else {
            page.push_str(
                "<p>No headline here is an event compared with the baseline's: there is no flipped trial \
                 to tell.</p>\n",
            );
        }
        return;
    };
    let told = (
        explain::tell(s, row.points.0, trial),
        explain::tell(s, row.points.1, trial),
    );
    let (Ok(a), Ok(b)) = told else {
        return;
    };
    putln!(
        page,
        "<h3>One flipped trial, told under both</h3>\n<p>Trial {trial} of the point where <b>{}</b> and \
         the baseline part most often ({} of {} trials).</p>",
        escape(row.variant),
        row.flips.map_or(0, |[to, from]| to.count + from.count),
        row.trials
    );
    compared(page, &a, &b);
}

/// A row of the flips table.
fn flip_row(f: &FlipRow<'_>) -> Row {
    let values: Vec<_> = f.values.iter().collect();
    let row = Row::default()
        .text(f.variant)
        .point(&values, f.level_gap)
        .text(f.metric)
        .number(&f.trials.to_string(), None);
    let Some(flips) = f.flips else {
        return (0..6).fold(row, |row, _| row.text(""));
    };
    let row = flips.iter().fold(row, |row, flip| {
        row.number(
            &value(Kind::Probability, flip.share.estimate),
            flip.share.estimate,
        )
        .number(&interval(Kind::Probability, &flip.share, false), None)
    });
    flips.iter().fold(row, |row, flip| {
        row.number(&flip.example.map_or("–".into(), |t| t.to_string()), None)
    })
}

/// The row whose variant and baseline part most often (the first on a tie), with its first trial of the
/// commoner way.
fn most_flipped<'r, 'a>(rows: &'r [FlipRow<'a>]) -> Option<(&'r FlipRow<'a>, u64)> {
    let mut best: Option<(&FlipRow<'a>, u64, u64)> = None;
    for row in rows {
        let Some([to, from]) = row.flips else {
            continue;
        };
        let trial = if to.count >= from.count {
            to.example
        } else {
            from.example
        };
        let (Some(trial), n) = (trial, to.count + from.count) else {
            continue;
        };
        if best.is_none_or(|(_, _, most)| n > most) {
            best = Some((row, trial, n));
        }
    }
    best.map(|(row, trial, _)| (row, trial))
}

/// "Fights worth reading": for each variant (up to [`TOLD_VARIANTS`]), the median fight and the first
/// death at the first point where it has them.
pub(super) fn fights(page: &mut String, r: &Report<'_>) {
    let s = r.scenario;
    putln!(
        page,
        "<p>A mean of rounds says little of what one fight looks like. Here, for each variant at its first \
         point that ran, are the fight of median length and the first fight in which someone died, told \
         die by die; exemplars.csv names these trials and the shortest and longest ones for every point.</p>"
    );
    let mut told = 0;
    for (v, variant) in s.variants.iter().enumerate().take(TOLD_VARIANTS) {
        let mine: Vec<&Exemplar> = r
            .exemplars
            .iter()
            .filter(|e| s.points[e.point].variant == v)
            .collect();
        let Some(first) = mine.first().map(|e| e.point) else {
            continue;
        };
        putln!(page, "<h3>{}</h3>", escape(variant));
        for e in mine.iter().filter(|e| e.point == first) {
            let what = match e.kind {
                "median" => "The median fight",
                "first_death" => "The first death",
                _ => continue,
            };
            let Some((trial, rounds)) = e.found else {
                putln!(page, "<p>{what}: none in the trials run.</p>");
                continue;
            };
            let Ok(story) = explain::tell(s, e.point, trial) else {
                continue;
            };
            told += 1;
            putln!(
                page,
                "<details class=\"story\"><summary>{what}: trial {trial}, {rounds} round{}</summary>",
                if rounds == 1 { "" } else { "s" }
            );
            replay(page, &story, None);
            steps(page, &story.events, 1);
            outcome(page, &[&story]);
            page.push_str("</details>\n");
        }
    }
    if told == 0 {
        page.push_str("<p>No fight ran: there is none to tell.</p>\n");
    }
}

/// Two stories of one trial: the steps they share (folded), where they part, each one's rest side by side,
/// and their outcomes with the changed ones marked.
fn compared(page: &mut String, a: &Story, b: &Story) {
    replay(page, a, Some(b));
    let Some(at) = parting(&a.events, &b.events) else {
        page.push_str("<p>The trial goes the same way under both.</p>\n");
        steps(page, &a.events, 1);
        outcome(page, &[a, b]);
        return;
    };
    let common = &a.events[..at];
    let next = common
        .iter()
        .filter(|e| matches!(e, Event::Step { .. }))
        .count()
        + 1;
    if at > 0 {
        putln!(
            page,
            "<details class=\"story\"><summary>Steps 1 to {}, the same under both</summary>",
            next - 1
        );
        steps(page, common, 1);
        page.push_str("</details>\n");
    }
    putln!(
        page,
        "<p><b>They part at step {next}.</b></p>\n<div class=\"pair\">"
    );
    for story in [a, b] {
        putln!(page, "<div><h4>Under “{}”</h4>", escape(&story.variant));
        steps(page, &story.events[at..], next);
        page.push_str("</div>\n");
    }
    page.push_str("</div>\n");
    outcome(page, &[a, b]);
}

/// The command that tells `story` again (beside `other`).
fn replay(page: &mut String, story: &Story, other: Option<&Story>) {
    let quote = |text: &str| {
        if text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-=/".contains(c))
        {
            text.to_string()
        } else {
            format!("'{}'", text.replace('\'', r"'\''"))
        }
    };
    let mut command = format!(
        "subdual explain {} --variant {}",
        quote(&story.scenario),
        quote(&story.variant)
    );
    for Pair { name, value } in &story.point {
        command.push_str(&format!(" --point {}", quote(&format!("{name}={value}"))));
    }
    command.push_str(&format!(" --trial {}", story.trial));
    if let Some(other) = other {
        command.push_str(&format!(" --compare {}", quote(&other.variant)));
    }
    putln!(
        page,
        "<p class=\"note\">Told again by <code>{}</code></p>",
        escape(&command)
    );
}

/// `events` as a numbered list from step `first`: each step with its section of the rules, the dice and
/// the states that follow it inside it. Cut at [`TOLD_EVENTS`].
fn steps(page: &mut String, events: &[Event], first: usize) {
    putln!(page, "<ol class=\"steps\" start=\"{first}\">");
    let mut open = false;
    for event in events.iter().take(TOLD_EVENTS) {
        match event {
            Event::Step { rule, text } => {
                if open {
                    page.push_str("</li>\n");
                }
                put!(
                    page,
                    "<li>{} <span class=\"rule\">{}</span>",
                    escape(text),
                    escape(rule)
                );
                open = true;
            }
            Event::Die { sides, face, who } => {
                if !open {
                    page.push_str("<li class=\"pre\">");
                    open = true;
                }
                let by = who.map_or_else(String::new, |w| {
                    format!(" ({})", explain::render::who_words(w))
                });
                put!(
                    page,
                    "<div class=\"die\">d{sides}: <b>{face}</b>{}</div>",
                    escape(&by)
                );
            }
            Event::State { text } => {
                if !open {
                    page.push_str("<li class=\"pre\">");
                    open = true;
                }
                put!(page, "<div class=\"state\">{}</div>", escape(text));
            }
        }
    }
    if open {
        page.push_str("</li>\n");
    }
    page.push_str("</ol>\n");
    if events.len() > TOLD_EVENTS {
        putln!(
            page,
            "<p class=\"note\">The story goes on for {} more events; <code>subdual explain</code> tells it \
             whole.</p>",
            events.len() - TOLD_EVENTS
        );
    }
}

/// The outcomes of `stories` (one trial under one or two variants) in the metrics' words, a changed one
/// marked.
fn outcome(page: &mut String, stories: &[&Story]) {
    let mut cells = vec![("metric".to_string(), false)];
    cells.extend(stories.iter().map(|s| (s.variant.clone(), false)));
    let rows: Vec<Row> = explain::render::outcome_rows(stories)
        .into_iter()
        .map(|(pair, values, changed)| {
            let row = Row::default().text(&pair.name);
            values.iter().fold(row, |row, v| {
                if changed {
                    row.class("changed", v)
                } else {
                    row.text(v)
                }
            })
        })
        .collect();
    table(
        page,
        "outcome",
        &head(&cells),
        rows,
        std::convert::identity,
        "summary.csv",
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::report::tests::{HOSTILE, report_of, structure};
    use crate::scenario::Scenario;
    use crate::stats::interval::Estimate;

    /// Two ways to take a sentry, which part on many trials.
    const SAP_OR_MUG: &str = r#"title = "Sap or mug"
action = "sap"
seed = 11

[attacker]
class = "thief"
level = 5
weapon = "club"
position = "behind"

[victim]
class = "fighter"
level = 3
aware = false

[sweep]
"attacker.level" = [3, 7]

[[variant]]
name = "sap"

[[variant]]
name = "mug"
action = "mug"
baseline_metric = "p_out"
"#;

    /// A brawler against an armed guard, two styles.
    const BRAWL: &str = r#"title = "Brawl"
action = "brawl"
seed = 2207

[attacker]
name = "brawler"
class = "fighter"
strength = "17"

[victim]
name = "guard <b>"
class = "fighter"
level = 3
weapon = "long sword"

[sweep]
"attacker.level" = [1, 5]

[[variant]]
name = "punch"
action_options = { style = "punch" }

[[variant]]
name = "overbear"
action_options = { style = "overbear" }
"#;

    /// The text of the section `id` of `html`.
    fn section<'h>(html: &'h str, id: &str) -> &'h str {
        let start = html
            .find(&format!("<section id=\"{id}\">"))
            .unwrap_or_else(|| panic!("no section {id}"));
        let end = start + html[start..].find("</section>").unwrap();
        &html[start..end]
    }

    /// The steps' texts of `events`, as the page escapes them.
    fn step_texts(events: &[Event]) -> Vec<String> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Step { text, .. } => Some(escape(text)),
                Event::Die { .. } | Event::State { .. } => None,
            })
            .collect()
    }

    /// `parts` appear in `text` in order.
    fn in_order(text: &str, parts: &[String]) {
        let mut at = 0;
        for part in parts {
            let found = text[at..]
                .find(part.as_str())
                .unwrap_or_else(|| panic!("missing, or out of order: {part}"));
            at += found + part.len();
        }
    }

    #[test]
    fn the_trial_told_under_both_is_the_explained_one_parting_where_explain_parts() {
        let html = report_of(SAP_OR_MUG, false, false);
        structure(&html).unwrap();
        let why = section(&html, "why");
        assert!(why.contains("<table class=\"flips\">"));
        // The command printed above the stories, run here through the library.
        let replay = why
            .split("Told again by <code>")
            .nth(1)
            .and_then(|rest| rest.split("</code>").next())
            .expect("a replay command");
        let words: Vec<&str> = replay.split(' ').collect();
        let arg = |flag: &str| {
            let at = words.iter().position(|w| *w == flag).expect(flag);
            words[at + 1]
        };
        let mut s = Scenario::parse("study.toml", "study", SAP_OR_MUG.as_bytes()).unwrap();
        s.trials = 400;
        let point = arg("--point");
        let a = crate::explain::select(&s, Some(arg("--variant")), &[point.to_string()]).unwrap();
        let b = crate::explain::select(&s, Some(arg("--compare")), &[point.to_string()]).unwrap();
        let trial: u64 = arg("--trial").parse().unwrap();
        let (a, b) = (
            explain::tell(&s, a, trial).unwrap(),
            explain::tell(&s, b, trial).unwrap(),
        );
        let at = parting(&a.events, &b.events).expect("a flipped trial parts");
        let next = step_texts(&a.events[..at]).len() + 1;
        assert!(why.contains(&format!("They part at step {next}.")));
        let mut parts = step_texts(&a.events[..at]);
        parts.push(format!("Under “{}”", escape(&a.variant)));
        parts.extend(step_texts(&a.events[at..]));
        parts.push(format!("Under “{}”", escape(&b.variant)));
        parts.extend(step_texts(&b.events[at..]));
        in_order(why, &parts);
        // The outcome marks what the rule changed, and the headline is among it.
        assert!(why.contains("<td class=\"changed\">"));
    }

    #[test]
    fn fights_worth_reading_are_folded_and_told_only_for_fights() {
        let html = report_of(BRAWL, false, false);
        structure(&html).unwrap();
        let fights = section(&html, "fights");
        assert!(html.contains("<a href=\"#fights\">"));
        for variant in ["punch", "overbear"] {
            assert!(fights.contains(&format!("<h3>{variant}</h3>")), "{variant}");
        }
        assert_eq!(
            fights
                .matches("<details class=\"story\"><summary>The median fight: trial ")
                .count(),
            2
        );
        assert!(fights.contains("<summary>The first death: trial "));
        assert!(!fights.contains("<details class=\"story\" open"));
        // A name the scenario sets is escaped in the story as everywhere.
        assert!(fights.contains("guard &lt;b&gt;"));
        assert!(!fights.contains("guard <b>"));
        let single = report_of(SAP_OR_MUG, false, false);
        assert!(!single.contains("<section id=\"fights\">"));
        assert!(!single.contains("#fights"));
    }

    #[test]
    fn hostile_variant_names_are_escaped_in_the_told_trial() {
        let html = report_of(HOSTILE, false, false);
        let why = section(&html, "why");
        assert!(!why.contains("<img src=x"));
        assert!(!why.contains("<script>"));
        structure(&html).unwrap();
    }

    /// A flip row with `to` and `from` flips first met on trials 10 and 20.
    fn row(to: u64, from: u64) -> FlipRow<'static> {
        let flip = |count, example| crate::study::flips::Flip {
            count,
            share: Estimate::empty(),
            example: (count > 0).then_some(example),
        };
        FlipRow {
            variant: "v",
            baseline: "b",
            points: (1, 0),
            values: &[],
            level_gap: 0,
            metric: "p_knockout",
            trials: 100,
            flips: Some([flip(to, 10), flip(from, 20)]),
        }
    }

    #[test]
    fn the_trial_told_is_the_first_of_the_commoner_way_where_the_rules_part_most() {
        let none = FlipRow {
            flips: None,
            ..row(0, 0)
        };
        let rows = [none.clone(), row(3, 4), row(5, 2), row(4, 3)];
        let (best, trial) = most_flipped(&rows).unwrap();
        assert_eq!((best.flips.unwrap()[0].count, trial), (3, 20));
        let rows = [row(1, 1), row(6, 2)];
        assert_eq!(most_flipped(&rows).map(|(_, t)| t), Some(10));
        assert!(most_flipped(&[none, row(0, 0)]).is_none());
    }

    #[test]
    fn the_stories_a_page_tells_are_counted_before_it_runs() {
        let parse = |text: &str| Scenario::parse("study.toml", "study", text.as_bytes()).unwrap();
        assert_eq!(told_stories(&parse(SAP_OR_MUG)), 2);
        assert_eq!(told_stories(&parse(BRAWL)), 2 + 2 * 2);
        let one = SAP_OR_MUG.split("[[variant]]").next().unwrap();
        assert_eq!(told_stories(&parse(one)), 0);
    }

    #[test]
    fn a_long_story_is_cut_and_says_so() {
        let events: Vec<Event> = (0..TOLD_EVENTS + 5)
            .map(|i| Event::Step {
                rule: "§1 Core procedures",
                text: format!("step {i}"),
            })
            .collect();
        let mut page = String::new();
        steps(&mut page, &events, 1);
        assert_eq!(page.matches("<li>").count(), TOLD_EVENTS);
        assert!(page.contains("5 more events"));
        let mut short = String::new();
        steps(&mut short, &events[..3], 4);
        assert!(short.starts_with("<ol class=\"steps\" start=\"4\">"));
        assert!(!short.contains("more events"));
    }
}
