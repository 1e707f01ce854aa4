//! Writing one outbound mail: an [`Outgoing`] in, RFC 5322 bytes out.

use super::address::Address;

/// The longest header line we write when we can help it (RFC 5322's
/// "SHOULD" limit).
const FOLD_AT: usize = 78;

/// The longest body line sent as is (RFC 5322's hard limit is 998).
const MAX_LINE: usize = 998;

/// One mail to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outgoing {
    pub from: Address,
    /// Recipients; empty gives `To: undisclosed-recipients:;`.
    pub to: Vec<Address>,
    pub subject: String,
    /// The text, lines ending in `\n` or `\r\n` (made CRLF here).
    pub body: String,
    /// The Message-ID answered, with brackets (`<id@host>`).
    pub in_reply_to: Option<String>,
    /// The thread's Message-IDs, oldest first.
    pub references: Vec<String>,
    /// Adds `Auto-Submitted: auto-replied` (RFC 3834): set it on every mail
    /// that answers a mail (acknowledgements, errors), so that the other
    /// side's robots do not answer back.
    pub auto_replied: bool,
    /// See [`new_message_id`].
    pub message_id: String,
    /// The Date header's value, RFC 2822 form (`Mon, 3 Nov 2026 20:00:00
    /// +0000`), given by the caller: this module has no clock.
    pub date: String,
}

/// `<{unique}@{domain}>` (white space and angle brackets dropped from both).
pub fn new_message_id(unique: &str, domain: &str) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace() && !c.is_control() && *c != '<' && *c != '>')
            .collect()
    };
    format!("<{}@{}>", clean(unique), clean(domain))
}

/// The complete message: headers, a blank line, the body; CRLF line endings.
///
/// The body goes as `7bit` when it is ASCII with short lines, else as
/// `quoted-printable` (which every relay carries, 8BITMIME or not). A
/// non-ASCII subject or display name is RFC 2047-encoded; long headers are
/// folded. Dot-stuffing is the SMTP layer's job.
pub fn render(out: &Outgoing) -> Vec<u8> {
    let mut h = String::new();
    header(&mut h, "Date", &[one_line(&out.date)], " ");
    header(&mut h, "From", &[mailbox(&out.from)], " ");
    if out.to.is_empty() {
        header(&mut h, "To", &["undisclosed-recipients:;".to_string()], " ");
    } else {
        let mut list: Vec<String> = out.to.iter().map(mailbox).collect();
        let last = list.len() - 1;
        for item in &mut list[..last] {
            item.push(',');
        }
        header(&mut h, "To", &list, " ");
    }
    subject(&mut h, &one_line(&out.subject));
    header(&mut h, "Message-ID", &[msg_id(&out.message_id)], " ");
    if let Some(id) = &out.in_reply_to {
        header(&mut h, "In-Reply-To", &[msg_id(id)], " ");
    }
    if !out.references.is_empty() {
        let ids: Vec<String> = out.references.iter().map(|r| msg_id(r)).collect();
        header(&mut h, "References", &ids, " ");
    }
    if out.auto_replied {
        h.push_str("Auto-Submitted: auto-replied\r\n");
    }
    h.push_str("MIME-Version: 1.0\r\n");
    h.push_str("Content-Type: text/plain; charset=utf-8\r\n");

    let lines: Vec<&str> = body_lines(&out.body);
    let plain = lines
        .iter()
        .all(|l| l.is_ascii() && l.len() <= MAX_LINE && !l.contains('\0'));
    let mut bytes = h.into_bytes();
    if plain {
        bytes.extend_from_slice(b"Content-Transfer-Encoding: 7bit\r\n\r\n");
        for line in &lines {
            bytes.extend_from_slice(line.as_bytes());
            bytes.extend_from_slice(b"\r\n");
        }
    } else {
        bytes.extend_from_slice(b"Content-Transfer-Encoding: quoted-printable\r\n\r\n");
        for line in &lines {
            quoted_printable_line(&mut bytes, line.as_bytes());
        }
    }
    bytes
}

/// The body's lines (any line ending), the last one always terminated.
fn body_lines(body: &str) -> Vec<&str> {
    if body.is_empty() {
        return Vec::new();
    }
    let body = body.strip_suffix('\n').unwrap_or(body);
    body.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect()
}

/// No CR or LF may reach a header.
fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c == '\r' || c == '\n' || c == '\0' {
                ' '
            } else {
                c
            }
        })
        .collect()
}

fn msg_id(id: &str) -> String {
    let id: String = id
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .collect();
    let id = id.trim_start_matches('<').trim_end_matches('>');
    format!("<{id}>")
}

/// Writes `Name: tok tok …`, folding between tokens (joined by `sep`,
/// which folding replaces by CRLF + space) to keep lines under 78.
fn header(h: &mut String, name: &str, tokens: &[String], sep: &str) {
    let mut line_len = name.len() + 1;
    h.push_str(name);
    h.push(':');
    for (i, tok) in tokens.iter().enumerate() {
        let sep_here = if i == 0 { " " } else { sep };
        let width = tok.chars().count();
        if i > 0 && line_len + sep_here.len() + width > FOLD_AT {
            h.push_str("\r\n ");
            line_len = 1;
        } else {
            h.push_str(sep_here);
            line_len += sep_here.len();
        }
        h.push_str(tok);
        line_len += width;
    }
    h.push_str("\r\n");
}

fn subject(h: &mut String, subject: &str) {
    let needs_encoding = !subject.is_ascii()
        || subject.contains("=?")
        || subject.chars().any(|c| c.is_ascii_control())
        || subject.split(' ').any(|w| w.len() > 900);
    if !needs_encoding {
        // Folding happens only at existing spaces, so unfolding gives back
        // exactly the subject.
        let mut words: Vec<String> = subject.split(' ').map(str::to_string).collect();
        // Only split at a space that has a word on both sides: a fold must
        // not leave a line of white space alone.
        merge_empty(&mut words);
        header(h, "Subject", &words, " ");
        return;
    }
    let words = encoded_words(subject, "Subject: ".len());
    header(h, "Subject", &words, " ");
}

/// Joins empty tokens (from runs of spaces) to their neighbour, so that a
/// fold never lands inside a run of spaces.
fn merge_empty(words: &mut Vec<String>) {
    let mut merged: Vec<String> = Vec::new();
    let mut carry = String::new();
    for w in words.drain(..) {
        if w.is_empty() {
            carry.push(' ');
            continue;
        }
        if !carry.is_empty() {
            match merged.last_mut() {
                Some(last) => last.push_str(&carry),
                None => {
                    let mut lead = carry.clone();
                    lead.push_str(&w);
                    merged.push(lead);
                    carry.clear();
                    continue;
                }
            }
            carry.clear();
        }
        merged.push(w);
    }
    if !carry.is_empty() {
        match merged.last_mut() {
            Some(last) => last.push_str(&carry),
            None => merged.push(carry.split_at(carry.len() - 1).0.to_string()),
        }
    }
    *words = merged;
}

/// `=?utf-8?b?…?=` words of at most 75 characters, split at character
/// boundaries; adjacent encoded words are joined by readers without space.
fn encoded_words(text: &str, first_offset: usize) -> Vec<String> {
    let mut words = Vec::new();
    // 45 bytes make 60 base64 characters: 10 + 60 + 2 = 72 ≤ 75. The first
    // word is shorter so that it fits after the header name.
    let first_budget = ((FOLD_AT.saturating_sub(first_offset + 12)) / 4 * 3).max(3);
    let mut budget = first_budget.min(45);
    let mut chunk = String::new();
    for c in text.chars() {
        if chunk.len() + c.len_utf8() > budget && !chunk.is_empty() {
            words.push(format!("=?utf-8?b?{}?=", base64(chunk.as_bytes())));
            chunk.clear();
            budget = 45;
        }
        chunk.push(c);
    }
    if !chunk.is_empty() || words.is_empty() {
        words.push(format!("=?utf-8?b?{}?=", base64(chunk.as_bytes())));
    }
    words
}

/// `Name <local@domain>`, the name quoted or encoded as needed.
fn mailbox(a: &Address) -> String {
    let Some(name) = a.name() else {
        return a.addr_spec();
    };
    let name = one_line(name);
    let atext = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~ ".contains(c);
    let shown = if name.chars().all(atext) {
        name
    } else if name.is_ascii() && !name.contains("=?") {
        format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        encoded_words(&name, 0).join(" ")
    };
    format!("{shown} <{}>", a.addr_spec())
}

pub(crate) fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> shift) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// One body line as quoted-printable (RFC 2045 6.7), soft-broken at 76.
fn quoted_printable_line(out: &mut Vec<u8>, line: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut col = 0;
    for (i, &b) in line.iter().enumerate() {
        let last = i + 1 == line.len();
        let literal = match b {
            b'=' => false,
            // White space at the end of a line would be lost on the way.
            b' ' | b'\t' => !last,
            // "From " at the start of a line is mangled by mbox files.
            b'F' if col == 0 && line[i..].starts_with(b"From ") => false,
            33..=126 => true,
            _ => false,
        };
        let width = if literal { 1 } else { 3 };
        // Leave room for the soft break's `=` unless this is the end.
        let room = if last { 76 } else { 75 };
        if col + width > room {
            out.extend_from_slice(b"=\r\n");
            col = 0;
        }
        if literal {
            out.push(b);
        } else {
            out.extend_from_slice(&[b'=', HEX[(b >> 4) as usize], HEX[(b & 15) as usize]]);
        }
        col += width;
    }
    out.extend_from_slice(b"\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_known() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn qp() {
        let mut v = Vec::new();
        quoted_printable_line(&mut v, "a=b café ".as_bytes());
        assert_eq!(v, b"a=3Db caf=C3=A9=20\r\n");
        let mut v = Vec::new();
        quoted_printable_line(&mut v, "x".repeat(100).as_bytes());
        let s = String::from_utf8(v).unwrap();
        assert!(s.lines().all(|l| l.len() <= 76), "{s}");
    }

    #[test]
    fn folding_keeps_lines_short() {
        let mut h = String::new();
        let ids: Vec<String> = (0..10)
            .map(|i| format!("<{i}-aaaaaaaaaaaa@judge.example.org>"))
            .collect();
        header(&mut h, "References", &ids, " ");
        assert!(h.split("\r\n").all(|l| l.len() <= FOLD_AT), "{h}");
        let mut words = vec!["a".to_string(), String::new(), "b".into(), String::new()];
        merge_empty(&mut words);
        assert_eq!(words, ["a ", "b "]);
    }
}
