//! A small HTML-to-text converter for HTML-only mail.
//!
//! Enough for what mail clients send: tags are dropped, entities decoded,
//! white space collapsed, `<br>` and block elements (`<p>`, `<div>`, `<li>`,
//! `<tr>`, headings …) end lines, `<blockquote>` content comes out as `> `
//! lines (so the quote stripping that follows removes it), and `<head>`,
//! `<style>`, `<script>`, `<title>` and comments vanish.

/// Deeper nesting still quotes, with no more `>` than this (a hostile
/// mail must not multiply its size).
const MAX_QUOTE_MARKS: usize = 8;

/// Elements whose content is not text the reader sees.
const HIDDEN: &[&str] = &["head", "style", "script", "title", "template", "xml"];

/// Elements that begin and end a line.
const BLOCKS: &[&str] = &[
    "p", "div", "tr", "li", "ul", "ol", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6",
    "table", "thead", "tbody", "tfoot", "pre", "hr", "center", "section", "article", "header",
    "footer", "address", "form", "body", "html", "caption", "figure", "nav", "main", "aside",
];

/// Converts HTML to plain text, lines separated by `\n`.
pub fn html_to_text(html: &str) -> String {
    let mut out = Out::default();
    let bytes = html.as_bytes();
    let mut i = 0;
    let mut text_start = 0;
    while i < bytes.len() {
        if bytes[i] != b'<' {
            i += 1;
            continue;
        }
        out.text(&html[text_start..i]);
        i = tag(html, i, &mut out);
        text_start = i;
    }
    out.text(&html[text_start..]);
    out.finish()
}

/// Handles the tag (or comment, or declaration) that starts at `start`
/// (a `<`) and returns the index just after it.
fn tag(html: &str, start: usize, out: &mut Out) -> usize {
    let bytes = html.as_bytes();
    let rest = &html[start + 1..];
    if let Some(comment) = rest.strip_prefix("!--") {
        return match comment.find("-->") {
            Some(end) => start + 1 + 3 + end + 3,
            None => html.len(),
        };
    }
    let mut i = start + 1;
    let closing = bytes.get(i) == Some(&b'/');
    if closing {
        i += 1;
    }
    let name_start = i;
    while i < bytes.len()
        && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b':' || bytes[i] == b'-')
    {
        i += 1;
    }
    if i == name_start && !matches!(bytes.get(i), Some(b'!' | b'?')) {
        // Not a tag at all ("a < b"): the `<` is text.
        out.text("<");
        return start + 1;
    }
    let name = html[name_start..i].to_ascii_lowercase();
    // Skip the attributes, minding quoted values that may hold `>`.
    let mut quote: Option<u8> = None;
    while i < bytes.len() {
        let b = bytes[i];
        i += 1;
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'>' => break,
            None => {}
        }
    }
    if closing {
        if name == "blockquote" {
            out.newline_soft();
            out.quote_depth = out.quote_depth.saturating_sub(1);
        } else if name == "pre" {
            out.pre = false;
            out.newline_soft();
        } else if BLOCKS.contains(&name.as_str()) {
            out.newline_soft();
        } else if name == "td" || name == "th" {
            out.pending_space = true;
        }
        return i;
    }
    if HIDDEN.contains(&name.as_str()) {
        // Skip to the matching end tag (or to the end). The search resumes
        // where the last one stopped, so the whole pass stays linear.
        let close = format!("</{name}");
        return match find_ignore_case(&bytes[i..], close.as_bytes()) {
            Some(pos) => {
                let after = i + pos;
                match html[after..].find('>') {
                    Some(gt) => after + gt + 1,
                    None => html.len(),
                }
            }
            None => html.len(),
        };
    }
    match name.as_str() {
        "br" => out.newline_hard(),
        "blockquote" => {
            out.newline_soft();
            out.quote_depth += 1;
        }
        "pre" => {
            out.newline_soft();
            out.pre = true;
        }
        "td" | "th" => out.pending_space = true,
        "img" => {}
        n if BLOCKS.contains(&n) => out.newline_soft(),
        _ => {}
    }
    i
}

/// Where `needle` (ASCII) first occurs in `hay`, ignoring ASCII case.
fn find_ignore_case(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

#[derive(Default)]
struct Out {
    lines: Vec<String>,
    line: String,
    quote_depth: usize,
    pre: bool,
    pending_space: bool,
}

impl Out {
    fn text(&mut self, raw: &str) {
        if raw.is_empty() {
            return;
        }
        let decoded = decode_entities(raw);
        for c in decoded.chars() {
            if self.pre {
                if c == '\n' {
                    self.newline_hard();
                } else if c != '\r' {
                    self.push(c);
                }
                continue;
            }
            if matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c') {
                self.pending_space = true;
            } else {
                if self.pending_space && !self.line_is_empty() {
                    self.push(' ');
                }
                self.pending_space = false;
                self.push(c);
            }
        }
    }

    /// True while nothing but the quote marker is on the current line.
    fn line_is_empty(&self) -> bool {
        self.line.is_empty()
            || (self.quote_depth > 0 && self.line.trim_start_matches('>').trim().is_empty())
    }

    fn push(&mut self, c: char) {
        if self.line.is_empty() && self.quote_depth > 0 {
            self.line
                .push_str(&">".repeat(self.quote_depth.min(MAX_QUOTE_MARKS)));
            self.line.push(' ');
        }
        // A no-break space is text (it survives collapsing) but reads as a space.
        self.line.push(if c == '\u{a0}' { ' ' } else { c });
    }

    /// Ends the current line if anything is on it.
    fn newline_soft(&mut self) {
        self.pending_space = false;
        if !self.line.is_empty() {
            self.end_line();
        }
    }

    /// Ends the current line, even an empty one (a `<br>`).
    fn newline_hard(&mut self) {
        self.pending_space = false;
        if self.line.is_empty() && self.quote_depth > 0 {
            self.line
                .push_str(&">".repeat(self.quote_depth.min(MAX_QUOTE_MARKS)));
        }
        self.end_line();
    }

    fn end_line(&mut self) {
        let line = std::mem::take(&mut self.line);
        self.lines.push(line.trim_end().to_string());
    }

    fn finish(mut self) -> String {
        if !self.line.is_empty() {
            self.end_line();
        }
        self.lines.join("\n")
    }
}

/// Decodes `&name;`, `&#NN;` and `&#xHH;` (the full HTML5 named table, via
/// mail-parser). Unknown or unterminated entities stay as written.
fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp..];
        // An entity is short and has no spaces.
        let end = after
            .char_indices()
            .skip(1)
            .take(40)
            .find(|&(_, c)| c == ';' || !(c.is_ascii_alphanumeric() || c == '#'))
            .filter(|&(_, c)| c == ';')
            .map(|(i, _)| i);
        match end {
            Some(end) if end > 1 => {
                let token = &after[..=end];
                let mut decoded = String::new();
                mail_parser::decoders::html::add_html_token(&mut decoded, token.as_bytes(), false);
                out.push_str(&decoded);
                rest = &after[end + 1..];
            }
            _ => {
                out.push('&');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::html_to_text;

    #[test]
    fn basics() {
        let html = "<html><head><title>x</title><style>p{}</style></head><body>\
            <div>A Par - Bur</div><div>F Bre&nbsp;-&gt; MAO<br></div><div><br></div>\
            <p>Tom &amp; Jerry &eacute;&#233;&#xE9; &unknown; a < b</p>\
            <!-- hidden --><blockquote><div>old</div>text</blockquote>\
            <table><tr><td>a</td><td>b</td></tr></table></body></html>";
        assert_eq!(
            html_to_text(html),
            "A Par - Bur\nF Bre -> MAO\n\nTom & Jerry ééé &unknown; a < b\n> old\n> text\na b"
        );
    }

    #[test]
    fn pre_keeps_spaces() {
        assert_eq!(html_to_text("<pre>a  b\n  c</pre>d"), "a  b\n  c\nd");
    }
}
