//! A told trial in words: plain text for a terminal, Markdown for a rules document, JSON for a script,
//! and the same numbered steps in each. Two stories of one trial (`--compare`) are told once up to the
//! step where they part, then each on its own, then their outcomes side by side, the changed ones marked.

use std::fmt::Write;

use serde::Serialize;

use crate::dice::{Event, Who};
use crate::explain::{Pair, Story, parting};

/// How a story is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Numbered lines for a terminal.
    Text,
    /// A Markdown list, to paste into a rules document.
    Markdown,
    /// One JSON object.
    Json,
}

/// `story` in `format`, beside `other` (the same trial under a second variant) when given.
pub fn render(story: &Story, other: Option<&Story>, format: Format) -> String {
    match format {
        Format::Json => json(story, other),
        Format::Text | Format::Markdown => words(story, other, format == Format::Markdown),
    }
}

#[derive(Serialize)]
struct Compared<'a> {
    stories: [&'a Story; 2],
    /// The index into `events` of the first event where they part; `None`: the same throughout.
    parted_at: Option<usize>,
}

fn json(story: &Story, other: Option<&Story>) -> String {
    let text = match other {
        None => serde_json::to_string_pretty(story),
        Some(o) => serde_json::to_string_pretty(&Compared {
            stories: [story, o],
            parted_at: parting(&story.events, &o.events),
        }),
    };
    // A story holds strings, numbers and lists only, which always serialize.
    text.unwrap_or_default() + "\n"
}

/// Who rolled a die in a fight of several a side.
pub fn who_words((side, index): Who) -> String {
    let side = if side == 0 { "attacker" } else { "victim" };
    format!("{side} {}", index + 1)
}

/// The lines of `events`, steps numbered from `first`; returns the next number.
fn events(out: &mut String, events: &[Event], first: usize, markdown: bool) -> usize {
    let mut n = first;
    for event in events {
        match event {
            Event::Step { rule, text } => {
                if markdown {
                    let _ = writeln!(out, "{n}. {text} *({rule})*");
                } else {
                    let _ = writeln!(out, "{n:>3}. {text}  ({rule})");
                }
                n += 1;
            }
            Event::Die { sides, face, who } => {
                let by = who.map_or_else(String::new, |w| format!(" ({})", who_words(w)));
                if markdown {
                    let _ = writeln!(out, "   - d{sides}: **{face}**{by}");
                } else {
                    let _ = writeln!(out, "       d{sides}: {face}{by}");
                }
            }
            Event::State { text } => {
                if markdown {
                    let _ = writeln!(out, "   - *{text}*");
                } else {
                    let _ = writeln!(out, "       = {text}");
                }
            }
        }
    }
    n
}

fn steps_in(events: &[Event]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, Event::Step { .. }))
        .count()
}

fn header(out: &mut String, story: &Story, markdown: bool) {
    let point = if story.point.is_empty() {
        String::new()
    } else {
        let values: Vec<String> = story
            .point
            .iter()
            .map(|p| format!("{} = {}", p.name, p.value))
            .collect();
        format!(", at {}", values.join(", "))
    };
    let line = format!(
        "Trial {} of {} (seed {}), variant \"{}\"{point}: {}",
        story.trial, story.scenario, story.seed, story.variant, story.action
    );
    if markdown {
        let _ = writeln!(out, "### {line}\n");
    } else {
        let _ = writeln!(out, "{line}\n");
    }
}

fn words(story: &Story, other: Option<&Story>, markdown: bool) -> String {
    let mut out = String::new();
    let Some(other) = other else {
        header(&mut out, story, markdown);
        events(&mut out, &story.events, 1, markdown);
        outcome(&mut out, &[story], markdown);
        return out;
    };
    header(&mut out, story, markdown);
    header(&mut out, other, markdown);
    let (a, b) = (&story.variant, &other.variant);
    match parting(&story.events, &other.events) {
        None => {
            let _ = writeln!(
                out,
                "The trial goes the same way under \"{a}\" and \"{b}\":\n"
            );
            events(&mut out, &story.events, 1, markdown);
        }
        Some(at) => {
            let common = &story.events[..at];
            let next = steps_in(common) + 1;
            if at > 0 {
                let _ = writeln!(out, "The same under \"{a}\" and \"{b}\":\n");
                events(&mut out, common, 1, markdown);
                out.push('\n');
            }
            let mark = if markdown { "**" } else { ">> " };
            let end = if markdown { "**" } else { "" };
            let _ = writeln!(out, "{mark}They part at step {next}.{end}\n");
            for s in [story, other] {
                let _ = writeln!(out, "Under \"{}\":\n", s.variant);
                events(&mut out, &s.events[at..], next, markdown);
                out.push('\n');
            }
        }
    }
    outcome(&mut out, &[story, other], markdown);
    out
}

/// The outcome of one trial under each of `stories`, metric by metric in the first story's order: the
/// metric, its value in each story (`-` where one lacks it), and whether the values differ.
pub fn outcome_rows<'s>(stories: &[&'s Story]) -> Vec<(&'s Pair, Vec<&'s str>, bool)> {
    let Some(first) = stories.first() else {
        return Vec::new();
    };
    first
        .outcome
        .iter()
        .map(|pair| {
            let values: Vec<&str> = stories
                .iter()
                .map(|s| {
                    s.outcome
                        .iter()
                        .find(|p| p.name == pair.name)
                        .map_or("-", |p| p.value.as_str())
                })
                .collect();
            let changed = values.windows(2).any(|w| w[0] != w[1]);
            (pair, values, changed)
        })
        .collect()
}

fn outcome(out: &mut String, stories: &[&Story], markdown: bool) {
    let rows = outcome_rows(stories);
    if markdown {
        let _ = writeln!(out, "\n**Outcome**\n");
        let names: Vec<&str> = stories.iter().map(|s| s.variant.as_str()).collect();
        let _ = writeln!(out, "| metric | {} |", names.join(" | "));
        let _ = writeln!(out, "|---|{}", "---|".repeat(stories.len()));
        for (pair, values, changed) in &rows {
            let mark = if *changed { " ◀" } else { "" };
            let _ = writeln!(out, "| `{}` | {}{mark} |", pair.name, values.join(" | "));
        }
        return;
    }
    let _ = writeln!(out, "\nOutcome:");
    let width = rows.iter().map(|(p, _, _)| p.name.len()).max().unwrap_or(0);
    if stories.len() > 1 {
        let names: Vec<String> = stories
            .iter()
            .map(|s| format!("{:<12}", s.variant))
            .collect();
        let _ = writeln!(out, "  {:width$}  {}", "", names.join(" ").trim_end());
    }
    for (pair, values, changed) in &rows {
        let cells: Vec<String> = values.iter().map(|v| format!("{v:<12}")).collect();
        let mark = if stories.len() > 1 && *changed {
            "  <- changed"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  {:width$}  {}{mark}",
            pair.name,
            cells.join(" ").trim_end()
        );
    }
}
