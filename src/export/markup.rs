//! A test-only check that generated markup (the report's HTML, the charts' SVG) is well formed: a
//! generator that forgets to escape or to close a tag fails its own tests, not a reader's browser.

/// Checks `text` tag by tag: every tag closes in the order it opened (but the `void` ones, which never
/// close), attribute quotes pair up, no `<` inside a tag and no `>` outside one; comments, the XML prolog
/// and declarations are skipped. Returns the text after the last tag.
pub(crate) fn well_formed<'t>(text: &'t str, void: &[&str]) -> Result<&'t str, String> {
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        if rest[..start].contains('>') {
            return Err(format!(
                "a stray `>` before {:?}",
                &rest[start..start.saturating_add(40).min(rest.len())]
            ));
        }
        let after = &rest[start + 1..];
        if let Some(comment) = after.strip_prefix("!--") {
            let end = comment.find("-->").ok_or("an unclosed comment")?;
            rest = &comment[end + 3..];
            continue;
        }
        let end = after.find('>').ok_or("a tag is never closed")?;
        let tag = &after[..end];
        rest = &after[end + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        if tag.contains('<') {
            return Err(format!("a stray `<` in <{tag}>"));
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
            let name = tag.split_whitespace().next().unwrap_or("");
            if !void.contains(&name) {
                stack.push(name);
            }
        }
    }
    if stack.is_empty() {
        Ok(rest)
    } else {
        Err(format!("unclosed: {stack:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::well_formed;

    #[test]
    fn every_fault_it_checks_for_is_caught() {
        assert_eq!(
            well_formed(
                "<?xml?><!-- a <b> --><svg a=\"1\"><g/><br></svg> end",
                &["br"]
            ),
            Ok(" end")
        );
        for (bad, why) in [
            ("<a><b></a></b>", "closes <b>"),
            ("<a>", "unclosed"),
            ("</a>", "closes nothing"),
            ("<a x=\"1></a>", "unbalanced quotes"),
            ("<a>1 > 0</a>", "stray `>`"),
            ("<a <b>", "stray `<`"),
            ("<a", "never closed"),
            ("<!-- open", "unclosed comment"),
            ("<br>", "unclosed"),
        ] {
            let e = well_formed(bad, &[]).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
