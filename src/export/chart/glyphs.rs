//! SVG text as glyph outlines (`svg_text = "paths"`, docs/scenarios.md "Charts"): every `<text>` element
//! the SVG backend wrote becomes one `<path>` of the embedded DejaVu Sans' outlines, laid out as a browser
//! would lay the text out (the same size, anchor, baseline, kerning and rotation). The chart then looks the
//! same in every viewer and in every document, with no font installed; its text can no longer be searched.
//!
//! Plotters' SVG backend has no such mode, so its output is rewritten: it writes each text as
//! `<text x=".." y=".." dy=".." text-anchor=".." font-family=".." font-size=".." opacity=".." fill=".."
//! [transform=".."]>\ntext\n</text>\n`, escaping the five XML characters, and nothing else in it is text.

use ab_glyph::{Font, FontRef, GlyphId, OutlineCurve, Point};

use crate::export::chart::draw::FONT;

/// The SVG with every text element replaced by the outline of its glyphs.
pub fn text_to_paths(svg: &str) -> Result<String, String> {
    let font = FontRef::try_from_slice(FONT)
        .map_err(|_| "the embedded chart font could not be read".to_string())?;
    let broken = || "cannot outline the chart's text: an unexpected SVG text element".to_string();
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(start) = rest.find("<text ") {
        out.push_str(&rest[..start]);
        let element = &rest[start..];
        let open = element.find('>').ok_or_else(broken)?;
        let close = element.find("</text>").ok_or_else(broken)?;
        let attributes = attributes(&element["<text ".len()..open]);
        let text = unescape(element[open + 1..close].trim_matches('\n'));
        out.push_str(&outline(&font, &attributes, &text));
        rest = element[close + "</text>".len()..]
            .strip_prefix('\n')
            .unwrap_or(&element[close + "</text>".len()..]);
    }
    out.push_str(rest);
    Ok(out)
}

/// `key="value"` pairs, in order.
fn attributes(text: &str) -> Vec<(&str, String)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(eq) = rest.find("=\"") {
        let key = rest[..eq].trim();
        let after = &rest[eq + 2..];
        let Some(end) = after.find('"') else { break };
        out.push((key, unescape(&after[..end])));
        rest = &after[end + 1..];
    }
    out
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// The glyphs of `text`, each with its left edge in font units from the start of the line.
fn layout(font: &FontRef<'_>, text: &str) -> (Vec<(GlyphId, f32)>, f32) {
    let mut glyphs = Vec::new();
    let mut pen = 0.0f32;
    let mut previous: Option<GlyphId> = None;
    for c in text.chars() {
        let id = font.glyph_id(c);
        if let Some(p) = previous {
            pen += font.kern_unscaled(p, id);
        }
        glyphs.push((id, pen));
        pen += font.h_advance_unscaled(id);
        previous = Some(id);
    }
    (glyphs, pen)
}

/// One text element as a path element: its anchor, baseline, size, colour and rotation kept.
fn outline(font: &FontRef<'_>, attributes: &[(&str, String)], text: &str) -> String {
    let get = |key: &str| {
        attributes
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
    };
    let number = |key: &str| get(key).and_then(|v| v.parse::<f32>().ok()).unwrap_or(0.0);
    let size = number("font-size");
    let units = font.units_per_em().unwrap_or(2048.0);
    let scale = size / units;
    let x_height = font
        .outline(font.glyph_id('x'))
        .map_or(units * 0.55, |o| o.bounds.max.y);
    let (glyphs, advance) = layout(font, text);
    let x = number("x")
        - match get("text-anchor") {
            Some("middle") => advance * scale / 2.0,
            Some("end") => advance * scale,
            _ => 0.0,
        };
    // The backend's baselines: the top of the text (0.76 em below), its middle (half an x-height below)
    // or its foot (half an x-height above).
    let baseline = number("y")
        + match get("dy") {
            Some("0.76em") => 0.76 * size,
            Some("0.5ex") => 0.5 * x_height * scale,
            Some("-0.5ex") => -0.5 * x_height * scale,
            _ => 0.0,
        };
    let at = |left: f32, p: Point| (x + (left + p.x) * scale, baseline - p.y * scale);
    let mut d = String::new();
    for (id, left) in glyphs {
        let Some(o) = font.outline(id) else { continue };
        let mut last: Option<Point> = None;
        for curve in &o.curves {
            let (from, to) = match curve {
                OutlineCurve::Line(a, b)
                | OutlineCurve::Quad(a, _, b)
                | OutlineCurve::Cubic(a, _, _, b) => (*a, *b),
            };
            if last != Some(from) {
                let (px, py) = at(left, from);
                d.push_str(&format!("M{px:.2} {py:.2}"));
            }
            let to_text = |p: Point| {
                let (px, py) = at(left, p);
                format!("{px:.2} {py:.2}")
            };
            let step = match curve {
                OutlineCurve::Line(_, b) => format!("L{}", to_text(*b)),
                OutlineCurve::Quad(_, c, b) => format!("Q{} {}", to_text(*c), to_text(*b)),
                OutlineCurve::Cubic(_, c1, c2, b) => {
                    format!("C{} {} {}", to_text(*c1), to_text(*c2), to_text(*b))
                }
            };
            d.push_str(&step);
            last = Some(to);
        }
    }
    if d.is_empty() {
        return String::new();
    }
    let mut element = format!("<path d=\"{d}\"");
    for key in ["fill", "opacity", "transform"] {
        if let Some(v) = get(key) {
            element.push_str(&format!(" {key}=\"{v}\""));
        }
    }
    element.push_str("/>\n");
    element
}

#[cfg(test)]
mod tests {
    use super::*;

    const SVG: &str = "<svg width=\"200\" height=\"100\">\n<text x=\"100\" y=\"50\" dy=\"0.5ex\" text-anchor=\"middle\" font-family=\"DejaVu Sans\" font-size=\"20\" opacity=\"1\" fill=\"#000000\">\nA &amp; B\n</text>\n<text x=\"10\" y=\"90\" dy=\"0.76em\" text-anchor=\"start\" font-family=\"DejaVu Sans\" font-size=\"10\" opacity=\"1\" fill=\"#123456\" transform=\"rotate(270, 10, 90)\">\nup\n</text>\n<rect x=\"0\" y=\"0\"/>\n</svg>\n";

    #[test]
    fn every_text_becomes_a_path_of_its_glyphs() {
        let out = text_to_paths(SVG).unwrap();
        assert!(!out.contains("<text"), "{out}");
        assert_eq!(out.matches("<path d=\"M").count(), 2, "{out}");
        assert!(out.contains("fill=\"#123456\" opacity=\"1\" transform=\"rotate(270, 10, 90)\""));
        assert!(out.contains("<rect x=\"0\" y=\"0\"/>") && out.ends_with("</svg>\n"));
    }

    #[test]
    fn a_centred_text_is_centred_on_its_anchor() {
        let out = text_to_paths(SVG).unwrap();
        let first = out.split("<path d=\"").nth(1).unwrap();
        let d = &first[..first.find('"').unwrap()];
        let xs: Vec<f32> = d
            .split(|c: char| c.is_ascii_alphabetic())
            .filter(|s| !s.is_empty())
            .flat_map(|s| {
                let v: Vec<f32> = s.split(' ').filter_map(|n| n.parse().ok()).collect();
                v.chunks(2).map(|p| p[0]).collect::<Vec<_>>()
            })
            .collect();
        let (lo, hi) = xs
            .iter()
            .fold((f32::MAX, f32::MIN), |(a, b), x| (a.min(*x), b.max(*x)));
        // "A & B" at 20 px is about 55 px wide, centred on x = 100.
        assert!(
            (lo + hi) / 2.0 - 100.0 < 2.0 && (lo + hi) / 2.0 - 100.0 > -2.0,
            "{lo} {hi}"
        );
        assert!(hi - lo > 40.0 && hi - lo < 80.0, "{lo} {hi}");
    }

    #[test]
    fn escaped_characters_are_read_back() {
        assert_eq!(
            unescape("a &lt;b&gt; &amp;amp; &quot;c&apos;"),
            "a <b> &amp; \"c'"
        );
        let attrs = attributes(" x=\"1\" font-family=\"DejaVu Sans, Arial\"");
        assert_eq!(
            attrs,
            [
                ("x", "1".to_string()),
                ("font-family", "DejaVu Sans, Arial".to_string())
            ]
        );
    }
}
