//! HTML and XML text: the escaping every value printed into a page gets
//! (the templates' auto-escape), and the dates pages show. Pure.

/// Writes `text`, escaped, to `out`, safe inside an element or a quoted
/// attribute, in HTML and XML: what runs between the characters
/// that need it are written whole.
pub fn write_escaped(out: &mut impl std::fmt::Write, text: &str) -> std::fmt::Result {
    let mut plain = 0;
    for (i, c) in text.char_indices() {
        let escaped = match c {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '"' => "&quot;",
            '\'' => "&#39;",
            // Control characters other than tab and newlines are not
            // allowed in XML 1.0 at all, escaped or not.
            c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => "\u{FFFD}",
            // Bidi embeddings, overrides and isolates would reorder what
            // follows them on the page (a player's press turning the
            // judge's own words around): shown as a replacement mark.
            '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => "\u{FFFD}",
            _ => continue,
        };
        out.write_str(&text[plain..i])?;
        out.write_str(escaped)?;
        plain = i + c.len_utf8();
    }
    out.write_str(&text[plain..])
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

#[cfg(test)]
mod tests {
    use super::*;

    fn escape(text: &str) -> String {
        let mut out = String::new();
        write_escaped(&mut out, text).unwrap();
        out
    }

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
