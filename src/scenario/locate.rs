//! Where things are in a scenario file, and errors that point at them.
//!
//! Every complaint about a scenario names the file, the line and the column, shows the line with a caret,
//! and, where a misspelling is likely, suggests the closest valid word. The span tree is read once from
//! toml's spanned parser so that errors found after merging variants and sweeps can still point at the text
//! that caused them.

use std::fmt;
use std::ops::Range;

use toml::de::{DeTable, DeValue};

use crate::suggest;

/// A problem with a scenario file: bad input, reported with exit code 2.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ScenarioError {
    /// The file as named on the command line.
    pub file: String,
    /// 1-based line, when the problem has a place.
    pub line: Option<usize>,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong and what was expected.
    pub message: String,
    /// The offending line of the file.
    pub source_line: Option<String>,
    /// A suggestion.
    pub help: Option<String>,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Every piece may quote the file, so control characters are shown escaped: a message must never
        // drive the terminal of whoever reads it (an `ESC[2J` in a name would clear the screen).
        let (file, message) = (visible(&self.file), visible(&self.message));
        match self.line {
            Some(line) => write!(f, "{file}:{line}:{}: {message}", self.column)?,
            None => write!(f, "{file}: {message}")?,
        }
        if let (Some(line), Some(text)) = (self.line, &self.source_line) {
            let number = line.to_string();
            let pad = " ".repeat(number.len());
            write!(
                f,
                "\n{pad} |\n{number} | {}\n{pad} | {}^",
                visible(text),
                " ".repeat(self.column.saturating_sub(1))
            )?;
        }
        if let Some(help) = &self.help {
            write!(f, "\n  = help: {}", visible(help))?;
        }
        Ok(())
    }
}

/// `text` with every control character but the line break written as an escape (`\u{1b}`).
pub fn visible(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() && c != '\n' {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// One step of a path into the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seg<'a> {
    /// A table key.
    Key(&'a str),
    /// An array element.
    Index(usize),
}

#[derive(Debug, Clone)]
enum Node {
    Table(Vec<(String, Range<usize>, Range<usize>, Node)>),
    Array(Vec<(Range<usize>, Node)>),
    Leaf,
}

fn node_of(value: &DeValue<'_>) -> Node {
    match value {
        DeValue::Table(t) => table_node(t),
        DeValue::Array(a) => {
            Node::Array(a.iter().map(|v| (v.span(), node_of(v.get_ref()))).collect())
        }
        _ => Node::Leaf,
    }
}

fn table_node(t: &DeTable<'_>) -> Node {
    Node::Table(
        t.iter()
            .map(|(k, v)| {
                (
                    k.get_ref().to_string(),
                    k.span(),
                    v.span(),
                    node_of(v.get_ref()),
                )
            })
            .collect(),
    )
}

/// The text of a scenario file with the spans of all its keys and values.
#[derive(Debug, Clone)]
pub struct Source {
    file: String,
    text: String,
    root: Node,
}

impl Source {
    /// Reads the spans of `text`, which must already parse as TOML.
    pub fn new(file: &str, text: &str) -> Source {
        match DeTable::parse(text) {
            Ok(document) => Source::of(file, text, document.get_ref()),
            Err(_) => Source::spanless(file, text),
        }
    }

    /// The spans of `document`, the parsed `text`.
    pub fn of(file: &str, text: &str, document: &DeTable<'_>) -> Source {
        Source {
            file: file.to_string(),
            text: text.to_string(),
            root: table_node(document),
        }
    }

    /// `text` without spans (it does not parse): errors can still point at a byte offset.
    pub fn spanless(file: &str, text: &str) -> Source {
        Source {
            file: file.to_string(),
            text: text.to_string(),
            root: Node::Leaf,
        }
    }

    /// The file's name as given.
    pub fn file(&self) -> &str {
        &self.file
    }

    fn find(&self, path: &[Seg<'_>]) -> Option<(Range<usize>, Range<usize>)> {
        let mut node = &self.root;
        let mut found = None;
        for seg in path {
            let (key, value, child) = match (node, seg) {
                (Node::Table(entries), Seg::Key(k)) => entries
                    .iter()
                    .find(|(name, ..)| name == k)
                    .map(|(_, key, value, child)| (key.clone(), value.clone(), child))?,
                (Node::Array(items), Seg::Index(i)) => items
                    .get(*i)
                    .map(|(span, child)| (span.clone(), span.clone(), child))?,
                _ => return None,
            };
            found = Some((key, value));
            node = child;
        }
        found
    }

    /// The span of the key at `path` (of the element, for an array index).
    pub fn key_span(&self, path: &[Seg<'_>]) -> Option<Range<usize>> {
        self.find(path).map(|(key, _)| key)
    }

    /// The span of the value at `path`.
    pub fn value_span(&self, path: &[Seg<'_>]) -> Option<Range<usize>> {
        self.find(path).map(|(_, value)| value)
    }

    /// The deepest existing prefix of `path`, for errors about something missing inside a table.
    pub fn nearest_span(&self, path: &[Seg<'_>]) -> Option<Range<usize>> {
        (1..=path.len())
            .rev()
            .find_map(|n| self.key_span(&path[..n]))
    }

    /// An error at a byte span (or at the start of the file).
    pub fn error_at(
        &self,
        span: Option<Range<usize>>,
        message: impl Into<String>,
        help: Option<String>,
    ) -> ScenarioError {
        let offset = span.map_or(0, |s| s.start.min(self.text.len()));
        let before = &self.text[..floor_boundary(&self.text, offset)];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        let source_line = self.text[line_start..]
            .lines()
            .next()
            .unwrap_or("")
            .to_string();
        ScenarioError {
            file: self.file.clone(),
            line: Some(line),
            column,
            message: message.into(),
            source_line: Some(source_line),
            help,
        }
    }

    /// An error about the value at `path`, or the nearest thing to it that exists.
    pub fn error_at_path(
        &self,
        path: &[Seg<'_>],
        message: impl Into<String>,
        help: Option<String>,
    ) -> ScenarioError {
        let span = self.value_span(path).or_else(|| self.nearest_span(path));
        self.error_at(span, message, help)
    }

    /// Turns toml's own error (syntax, unknown key, wrong type) into ours, adding a suggestion for an
    /// unknown key or variant from the list toml gives.
    pub fn from_toml(&self, error: &toml::de::Error) -> ScenarioError {
        let message = plain_types(error.message().trim());
        let help = suggestion_from_message(&message);
        self.error_at(error.span(), message, help)
    }
}

/// serde speaks of Rust types ("expected u32"); designers read "a whole number".
pub fn plain_types(message: &str) -> String {
    let mut text = message.to_string();
    for (rust, plain) in [
        ("expected u64", "expected a whole number, 0 or more"),
        ("expected u32", "expected a whole number, 0 or more"),
        ("expected u8", "expected a whole number, 0 or more"),
        ("expected i32", "expected a whole number"),
        ("expected i64", "expected a whole number"),
        ("expected f64", "expected a number"),
        ("expected a boolean", "expected true or false"),
    ] {
        text = text.replace(rust, plain);
    }
    text
}

fn floor_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// "unknown field `strenght`, expected one of `name`, `class`, ..." → "did you mean `strength`?".
pub fn suggestion_from_message(message: &str) -> Option<String> {
    let kind = ["unknown field `", "unknown variant `"]
        .into_iter()
        .find(|k| message.contains(k))?;
    let rest = &message[message.find(kind)? + kind.len()..];
    let word = &rest[..rest.find('`')?];
    let expected = &rest[rest.find("expected")?..];
    let candidates: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    suggest::closest(word, candidates.iter().copied()).map(|best| format!("did you mean `{best}`?"))
}

/// A suggestion for `word` among `candidates`, as help text.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    suggest::closest(word, candidates).map(|best| format!("did you mean `{best}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "action = \"mug\"\n\n[attacker]\nclass = \"thief\"\nlevel = 9\n\n[[variant]]\nname = \"a\"\n[[variant]]\nname = \"b\"\nrules = { helmets = true }\n";

    #[test]
    fn spans_lead_to_lines_and_columns() {
        let s = Source::new("x.toml", TEXT);
        let e = s.error_at_path(
            &[Seg::Key("attacker"), Seg::Key("level")],
            "bad level",
            None,
        );
        assert_eq!((e.line, e.column), (Some(5), 9));
        assert_eq!(e.source_line.as_deref(), Some("level = 9"));
        let e = s.error_at_path(
            &[
                Seg::Key("variant"),
                Seg::Index(1),
                Seg::Key("rules"),
                Seg::Key("helmets"),
            ],
            "x",
            None,
        );
        assert_eq!((e.line, e.column), (Some(11), 21));
        // A missing key points at the nearest table that exists.
        let e = s.error_at_path(&[Seg::Key("attacker"), Seg::Key("weapon")], "x", None);
        assert_eq!(e.line, Some(3));
    }

    #[test]
    fn the_message_shows_the_line_and_a_caret() {
        let s = Source::new("x.toml", TEXT);
        let e = s.error_at_path(
            &[Seg::Key("attacker"), Seg::Key("level")],
            "bad level",
            Some("try 5".into()),
        );
        assert_eq!(
            e.to_string(),
            "x.toml:5:9: bad level\n  |\n5 | level = 9\n  |         ^\n  = help: try 5"
        );
    }

    #[test]
    fn unknown_keys_get_a_suggestion_from_the_expected_list() {
        let m = "unknown field `strenght`, expected one of `name`, `strength`, `level`";
        assert_eq!(
            suggestion_from_message(m).as_deref(),
            Some("did you mean `strength`?")
        );
        let m = "unknown variant `half_dwn`, expected one of `half_down`, `down`, `up`";
        assert_eq!(
            suggestion_from_message(m).as_deref(),
            Some("did you mean `half_down`?")
        );
        assert_eq!(suggestion_from_message("invalid type: string"), None);
    }
}
