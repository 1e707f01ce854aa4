//! HTML and XML text: escaping, the frame every page shares, the style
//! sheet. Pure.

use std::fmt::Write;

/// `text` safe inside an element or a quoted attribute, in HTML and XML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    push_escaped(&mut out, text);
    out
}

/// Appends `text`, escaped, to `out`.
pub fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters other than tab and newlines are not
            // allowed in XML 1.0 at all, escaped or not.
            c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            // Bidi embeddings, overrides and isolates would reorder what
            // follows them on the page (a player's press turning the
            // judge's own words around): shown as a replacement mark.
            '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
}

/// A whole page: `title` (plain text), `css` the relative path of the
/// style sheet, `body` HTML already escaped; `head` extra lines for the
/// head (links to neighbours), `script` a few lines run at the end.
pub fn page(title: &str, css: &str, head: &str, body: &str, script: &str) -> String {
    let mut out = String::with_capacity(body.len() + 1024);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    let _ = writeln!(out, "<link rel=\"stylesheet\" href=\"{}\">", escape(css));
    out.push_str(head);
    out.push_str("</head>\n<body>\n");
    out.push_str(body);
    if !script.is_empty() {
        let _ = writeln!(out, "<script>\n{script}\n</script>");
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// Unix seconds as `2026-11-26 20:00 UTC`.
pub fn date(at: i64) -> String {
    chrono::DateTime::from_timestamp(at, 0)
        .map(|d| d.format("%Y-%m-%d %H:%M UTC").to_string())
        .unwrap_or_else(|| at.to_string())
}

/// Unix seconds as RFC 3339 (`2026-11-26T20:00:00Z`), for the feed.
pub fn rfc3339(at: i64) -> String {
    chrono::DateTime::from_timestamp(at, 0)
        .map(|d| d.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        .unwrap_or_else(|| "1970-01-01T00:00:00Z".to_string())
}

/// The one style sheet, `style.css` at the top of the folder: readable on
/// a phone (tables scroll inside their box), printed without navigation.
pub const STYLE: &str = "\
:root { color-scheme: light; --ink: #222; --muted: #666; --line: #ccc; }
body { font-family: system-ui, -apple-system, \"Segoe UI\", sans-serif; color: var(--ink);
       max-width: 60rem; margin: 0 auto; padding: 0.5rem 1rem 2rem; line-height: 1.45; }
h1 { font-size: 1.5rem; margin: 0.5rem 0; }
h2 { font-size: 1.2rem; margin-top: 1.5rem; border-bottom: 1px solid var(--line); }
a { color: #0050a0; }
nav { display: flex; gap: 1rem; flex-wrap: wrap; margin: 0.5rem 0; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.5rem 0; }
th, td { border: 1px solid var(--line); padding: 0.2rem 0.5rem; text-align: left; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
#map { width: 100%; height: auto; border: 1px solid var(--line); }
.orders h3 { font-size: 1rem; margin: 0.8rem 0 0.2rem; }
.orders ul, ul.plain { list-style: none; padding-left: 0; margin: 0; }
.tags { color: #a03000; }
.muted { color: var(--muted); }
pre { white-space: pre-wrap; word-wrap: break-word; background: #f6f6f6; padding: 0.5rem; }
svg.chart { max-width: 100%; height: auto; }
@media print {
  nav, script { display: none; }
  body { max-width: none; padding: 0; }
  a { color: inherit; text-decoration: none; }
  pre { background: none; }
}
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn bidi_controls_cannot_reorder_a_page() {
        assert_eq!(
            escape("a\u{202E}gnp.exe\u{2066}b\u{2069}"),
            "a\u{FFFD}gnp.exe\u{FFFD}b\u{FFFD}"
        );
    }

    #[test]
    fn control_characters_cannot_break_xml() {
        assert_eq!(escape("a\u{0}b\u{1b}c\td"), "a\u{FFFD}b\u{FFFD}c\td");
    }
}
