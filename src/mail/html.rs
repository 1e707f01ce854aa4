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
    if let Some(comment) = html[start + 1..].strip_prefix("!--") {
        return match comment.find("-->") {
            Some(end) => start + 1 + 3 + end + 3,
            None => html.len(),
        };
    }
    let bytes = html.as_bytes();
    let closing = bytes.get(start + 1) == Some(&b'/');
    let name_start = start + 1 + usize::from(closing);
    let name_end = tag_name_end(bytes, name_start);
    if name_end == name_start && !matches!(bytes.get(name_end), Some(b'!' | b'?')) {
        // Not a tag at all ("a < b"): the `<` is text.
        out.text("<");
        return start + 1;
    }
    let name = html[name_start..name_end].to_ascii_lowercase();
    let after = after_attributes(bytes, name_end);
    if closing {
        out.close(&name);
        after
    } else if HIDDEN.contains(&name.as_str()) {
        skip_hidden(html, after, &name)
    } else {
        out.open(&name);
        after
    }
}

/// Where the tag name starting at `i` ends.
fn tag_name_end(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len()
        && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b':' || bytes[i] == b'-')
    {
        i += 1;
    }
    i
}

/// Skips the attributes from `i`, minding quoted values that may hold
/// `>`: the index just after the tag's `>` (or the end).
fn after_attributes(bytes: &[u8], mut i: usize) -> usize {
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
    i
}

/// The index just after the end tag of the hidden element `name` whose
/// content starts at `i` (or the end). The search resumes where the last
/// one stopped, so the whole pass stays linear.
fn skip_hidden(html: &str, i: usize, name: &str) -> usize {
    let close = format!("</{name}");
    match find_ignore_case(&html.as_bytes()[i..], close.as_bytes()) {
        Some(pos) => {
            let after = i + pos;
            match html[after..].find('>') {
                Some(gt) => after + gt + 1,
                None => html.len(),
            }
        }
        None => html.len(),
    }
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
    /// What the start tag `name` (not a hidden element) does to the text.
    fn open(&mut self, name: &str) {
        match name {
            "br" => self.newline_hard(),
            "blockquote" => {
                self.newline_soft();
                self.quote_depth += 1;
            }
            "pre" => {
                self.newline_soft();
                self.pre = true;
            }
            "td" | "th" => self.pending_space = true,
            n if BLOCKS.contains(&n) => self.newline_soft(),
            _ => {}
        }
    }

    /// What the end tag `name` does to the text.
    fn close(&mut self, name: &str) {
        match name {
            "blockquote" => {
                self.newline_soft();
                self.quote_depth = self.quote_depth.saturating_sub(1);
            }
            "pre" => {
                self.pre = false;
                self.newline_soft();
            }
            "td" | "th" => self.pending_space = true,
            n if BLOCKS.contains(&n) => self.newline_soft(),
            _ => {}
        }
    }

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
