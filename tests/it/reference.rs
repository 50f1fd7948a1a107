//! The documents in `docs/` agree with the program: every generated block of `docs/*.md` is exactly what
//! `subdual reference NAME` prints, `docs/scenario.schema.json` is what `subdual schema` prints, and the code
//! cites only documents of the repository.
//!
//! After a deliberate change of a list: `UPDATE_REFERENCE=1 cargo test --release --test it reference::`, then
//! review the diff of `docs/`.

use crate::common;

use common::*;

const BEGIN: &str = "<!-- reference: ";
const END: &str = "<!-- end reference -->";

/// Every generated block of a document: (name, text between the markers).
fn blocks(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(BEGIN) {
        let after = &rest[at + BEGIN.len()..];
        let name_end = after.find(" -->").expect("a block's name ends with -->");
        let name = after[..name_end].to_string();
        let body_start = name_end + " -->\n".len();
        let body_end = after.find(END).expect("every block has its end marker");
        out.push((name, after[body_start..body_end].to_string()));
        rest = &after[body_end + END.len()..];
    }
    out
}

/// The document with every block's text replaced by `fill(name)`.
fn filled(text: &str, fill: impl Fn(&str) -> String) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(BEGIN) {
        let after = &rest[at + BEGIN.len()..];
        let name_end = after.find(" -->").unwrap();
        let name = &after[..name_end];
        let body_end = after.find(END).unwrap();
        out.push_str(&rest[..at + BEGIN.len() + name_end + " -->\n".len()]);
        out.push_str(&fill(name));
        out.push_str(END);
        rest = &after[body_end + END.len()..];
    }
    out.push_str(rest);
    out
}

fn reference(name: &str) -> String {
    let o = subdual(["reference", name]);
    assert_success(&o);
    stdout(&o)
}

#[test]
fn every_generated_list_in_docs_is_what_the_program_prints() {
    let update = std::env::var("UPDATE_REFERENCE").is_ok_and(|v| v == "1");
    let mut seen = Vec::new();
    for doc in ["rules.md", "scenarios.md"] {
        let path = repo().join("docs").join(doc);
        let text = read(&path);
        if update {
            std::fs::write(&path, filled(&text, reference)).unwrap();
            continue;
        }
        let found = blocks(&text);
        assert!(!found.is_empty(), "{doc} has no generated block");
        for (name, body) in found {
            assert_eq!(
                body,
                reference(&name),
                "docs/{doc}, block `{name}` differs from `subdual reference {name}` \
                 (run UPDATE_REFERENCE=1 cargo test --release --test it reference:: and review the diff)"
            );
            seen.push(name);
        }
    }
    if update {
        return;
    }
    // Every part the program can print is in a document.
    let listed = stdout(&subdual(["reference"]));
    for line in listed.lines() {
        let name = line.split_whitespace().next().unwrap();
        assert!(seen.iter().any(|s| s == name), "no document shows `{name}`");
    }
}

#[test]
fn the_shipped_schema_is_what_the_program_prints() {
    let path = repo().join("docs").join("scenario.schema.json");
    let o = subdual(["schema"]);
    assert_success(&o);
    if std::env::var("UPDATE_REFERENCE").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &o.stdout).unwrap();
    }
    // A plain comparison: the schema is long, and its diff is for git to show.
    assert!(
        read(&path) == stdout(&o),
        "docs/scenario.schema.json differs from `subdual schema` \
         (run UPDATE_REFERENCE=1 cargo test --release --test it reference:: and review the diff)"
    );
}

#[test]
fn an_unknown_part_is_bad_input() {
    let o = subdual(["reference", "nothing"]);
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
    assert!(stderr(&o).contains("switches"), "{}", describe(&o));
}

/// Every file with one of `extensions` under the repository's folders `roots`.
fn files_under(roots: &[&str], extensions: &[&str]) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut stack: Vec<_> = roots.iter().map(|root| repo().join(root)).collect();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .is_some_and(|e| extensions.contains(&e.to_str().unwrap_or("")))
            {
                files.push(path);
            }
        }
    }
    files
}

#[test]
fn the_code_and_the_documents_cite_only_the_repository() {
    let mut files = files_under(
        &["src", "tests", "benches", "docs", "scenarios"],
        &["rs", "md", "toml", "sh"],
    );
    files.push(repo().join("README.md"));
    // Spelled in pieces, so that this file does not name them itself.
    let outside = [
        ["RULES", ".md"].concat(),
        ["SCENARIOS", ".md"].concat(),
        ["../", "shared"].concat(),
    ];
    for path in files {
        let text = read(&path);
        for name in &outside {
            assert!(
                !text.contains(name.as_str()),
                "{} cites {name}, which is not in the repository: cite docs/ instead",
                path.display()
            );
        }
    }
}

#[test]
fn every_source_file_the_documents_name_exists() {
    // A moved file leaves its old path in prose that no compiler reads: README's layout, docs/rules.md's
    // "Code:" lines, a comment that says where a rule lives. CHANGELOG.md keeps old paths as history.
    let mut files = files_under(&["src", "docs", "benches"], &["rs", "md"]);
    files.extend([repo().join("README.md"), repo().join("CONTRIBUTING.md")]);
    let mut checked = 0;
    for path in files {
        let text = read(&path);
        for (at, _) in text.match_indices(".rs") {
            let start = text[..at]
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '/'))
                .map_or(0, |i| i + 1);
            let cited = &text[start..at + 3];
            if ["src/", "tests/", "benches/"]
                .iter()
                .any(|root| cited.starts_with(root))
            {
                checked += 1;
                assert!(
                    repo().join(cited).is_file(),
                    "{} names {cited}, which does not exist",
                    path.display()
                );
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} paths were found: the scan is broken"
    );
}
