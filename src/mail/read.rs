//! Reading one inbound mail: bytes in, an [`Incoming`] out.

use std::fmt;

use mail_parser::{HeaderValue, MessageParser, PartType};

use super::address::{is_daemon_local, Address};
use super::body::command_lines;
use super::html::html_to_text;

/// The most of a mail's header block that is read (the rest of an
/// over-long header block is ignored).
const HEADER_CAP: usize = 1 << 20;

/// How much of the body goes into a synthetic Message-ID's hash.
const HASH_BODY_CAP: usize = 1 << 20;

/// One inbound mail, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incoming {
    /// The Message-ID, with its angle brackets (`<id@host>`). A mail without
    /// one gets `<hex@judge.invalid>`, a hash of its origin headers (Date,
    /// From, To, Subject …) and body: the same mail delivered twice, even
    /// by different routes, gets the same id.
    pub message_id: String,
    /// True when `message_id` was made up here.
    pub synthetic_id: bool,
    /// The (first) From address, if it is a valid one.
    pub from: Option<Address>,
    /// The (first) Reply-To address, if it is a valid one.
    pub reply_to: Option<Address>,
    /// The Return-Path as written (`<>` for a bounce), white space unfolded.
    pub return_path: Option<String>,
    /// The subject, RFC 2047 words decoded, control characters blanked.
    pub subject: String,
    /// The Date header as unix seconds (UTC), when it could be read.
    pub date: Option<i64>,
    /// The ids of References then In-Reply-To, each once, with brackets.
    pub references: Vec<String>,
    /// The command text: see [`command_lines`](super::command_lines).
    pub lines: Vec<String>,
    /// Why this mail must never be answered; `None` when a person wrote it.
    /// Check this before anything else (an oversized bounce is still a
    /// bounce).
    pub auto: Option<AutoReason>,
    /// The mail was bigger than the size cap: only its headers were read
    /// and `lines` is empty. Answer it (a short refusal) only if `auto` is
    /// `None`.
    pub oversized: bool,
    /// The raw size in bytes.
    pub size: usize,
}

impl Incoming {
    /// Where an answer goes: Reply-To, else From.
    pub fn reply_address(&self) -> Option<&Address> {
        self.reply_to.as_ref().or(self.from.as_ref())
    }
}

/// Why a mail was made by a machine and must never be answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AutoReason {
    /// `Content-Type: multipart/report`: a delivery status notification
    /// (bounce) or another machine report.
    DeliveryReport,
    /// `Return-Path: <>`: the null sender, used only by bounces and
    /// auto-replies.
    NullReturnPath,
    /// From or Return-Path is `MAILER-DAEMON@…` or `postmaster@…`; the
    /// address as written.
    DaemonSender(String),
    /// `Auto-Submitted:` with a value other than `no` (the value, lower
    /// case).
    AutoSubmitted(String),
    /// `X-Autoreply`, `X-Autorespond` or a kin: a vacation program (the
    /// header's name).
    AutoReplyHeader(String),
    /// `Precedence: bulk`, `junk`, `list` or `auto_reply` (the value, lower
    /// case).
    Precedence(String),
    /// `List-Id` or `List-Unsubscribe`: sent through a mailing list (the
    /// header's name).
    MailingList(String),
}

impl fmt::Display for AutoReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AutoReason::DeliveryReport => write!(f, "delivery report (multipart/report)"),
            AutoReason::NullReturnPath => write!(f, "null Return-Path <>"),
            AutoReason::DaemonSender(a) => write!(f, "sent by a mail daemon ({a})"),
            AutoReason::AutoSubmitted(v) => write!(f, "Auto-Submitted: {v}"),
            AutoReason::AutoReplyHeader(h) => write!(f, "auto-reply header {h}"),
            AutoReason::Precedence(v) => write!(f, "Precedence: {v}"),
            AutoReason::MailingList(h) => write!(f, "mailing list header {h}"),
        }
    }
}

/// Why the bytes could not be read as a mail at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MailError {
    /// No bytes.
    Empty,
    /// Not a single `Name: value` header line.
    NoHeaders,
}

impl fmt::Display for MailError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MailError::Empty => "empty mail",
            MailError::NoHeaders => "no mail headers found",
        })
    }
}

impl std::error::Error for MailError {}

/// Reads one raw mail (as an SMTP server or IMAP `BODY[]` hands it over).
///
/// A mail bigger than `size_cap` bytes has only its headers read (see
/// [`Incoming::oversized`]). Never panics, whatever the bytes.
pub fn read_mail(raw: &[u8], size_cap: usize) -> Result<Incoming, MailError> {
    if raw.is_empty() {
        return Err(MailError::Empty);
    }
    let block = HeaderBlock::scan(raw);
    if block.fields.is_empty() {
        return Err(MailError::NoHeaders);
    }
    let oversized = raw.len() > size_cap;

    // Everything that needs mail-parser, kept apart so that a panic in it
    // (it promises none) costs this mail, not the process.
    let parsed = std::panic::catch_unwind(|| {
        let parser = MessageParser::default();
        if oversized {
            // The header block alone, with the blank line that ends it.
            let end = block.body_offset.min(raw.len());
            parser
                .parse_headers(&raw[..end])
                .map(|m| Parsed::from_message(&m, false))
        } else {
            parser.parse(raw).map(|m| Parsed::from_message(&m, true))
        }
    })
    .ok()
    .flatten()
    .unwrap_or_default();

    let return_path = block.get("return-path").map(|v| v.to_string());
    let auto = auto_reason(&block, parsed.from_raw.as_deref(), return_path.as_deref());

    let (message_id, synthetic_id) = match parsed.message_id {
        Some(id) => (id, false),
        None => (synthetic_id(raw, &block), true),
    };

    Ok(Incoming {
        message_id,
        synthetic_id,
        from: parsed.from,
        reply_to: parsed.reply_to,
        return_path,
        subject: parsed.subject,
        date: parsed.date,
        references: parsed.references,
        lines: if oversized {
            Vec::new()
        } else {
            command_lines(&parsed.body)
        },
        auto,
        oversized,
        // A mail read cut short says how big it was in a note at its end.
        size: match oversized {
            true => super::limit::noted_size(raw)
                .and_then(|n| usize::try_from(n).ok())
                .unwrap_or(raw.len()),
            false => raw.len(),
        },
    })
}

/// What is taken from mail-parser's reading.
#[derive(Default)]
struct Parsed {
    message_id: Option<String>,
    from: Option<Address>,
    /// From's address as written, valid or not (for the daemon test).
    from_raw: Option<String>,
    reply_to: Option<Address>,
    subject: String,
    date: Option<i64>,
    references: Vec<String>,
    body: String,
}

impl Parsed {
    fn from_message(m: &mail_parser::Message<'_>, with_body: bool) -> Parsed {
        let first_addr = |a: Option<&mail_parser::Address<'_>>| {
            a.and_then(|a| a.first()).and_then(|a| {
                let addr = Address::new(a.address.as_deref()?).ok()?;
                Some(match a.name.as_deref() {
                    Some(name) => addr.with_name(name),
                    None => addr,
                })
            })
        };
        let message_id = m
            .message_id()
            .map(str::trim)
            .filter(|id| !id.is_empty() && !id.contains(char::is_whitespace))
            .map(bracket);
        let mut references: Vec<String> = Vec::new();
        for value in [m.references(), m.in_reply_to()] {
            for id in ids(value) {
                let id = bracket(id);
                if !references.contains(&id) {
                    references.push(id);
                }
            }
        }
        let subject = m
            .subject()
            .unwrap_or("")
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect::<String>()
            .trim()
            .to_string();
        let date = m.date().filter(|d| d.is_valid()).map(|d| d.to_timestamp());
        let body = if with_body {
            body_text(m)
        } else {
            String::new()
        };
        Parsed {
            message_id,
            from: first_addr(m.from()),
            from_raw: m
                .from()
                .and_then(|a| a.first())
                .and_then(|a| a.address.as_deref())
                .map(str::to_string),
            reply_to: first_addr(m.reply_to()),
            subject,
            date,
            references,
            body,
        }
    }
}

/// The text of the body parts a person reads: every inline text part (the
/// text/plain one of an alternative), HTML turned into text.
fn body_text(m: &mail_parser::Message<'_>) -> String {
    let mut texts: Vec<String> = Vec::new();
    for part in m.text_bodies() {
        match &part.body {
            PartType::Text(t) => texts.push(t.to_string()),
            PartType::Html(h) => texts.push(html_to_text(h)),
            _ => {}
        }
    }
    if texts.is_empty() {
        for part in m.html_bodies() {
            if let PartType::Html(h) = &part.body {
                texts.push(html_to_text(h));
            }
        }
    }
    texts.join("\n")
}

fn ids<'a>(value: &'a HeaderValue<'_>) -> Vec<&'a str> {
    let list: Vec<&str> = match value {
        HeaderValue::Text(t) => vec![t.as_ref()],
        HeaderValue::TextList(l) => l.iter().map(|t| t.as_ref()).collect(),
        _ => Vec::new(),
    };
    list.into_iter()
        .map(str::trim)
        .filter(|id| !id.is_empty() && !id.contains(char::is_whitespace))
        .collect()
}

fn bracket(id: &str) -> String {
    let id = id.trim_start_matches('<').trim_end_matches('>');
    format!("<{id}>")
}

/// The first reason found, most specific first.
fn auto_reason(
    block: &HeaderBlock,
    from_raw: Option<&str>,
    return_path: Option<&str>,
) -> Option<AutoReason> {
    let content_type = block.get("content-type").unwrap_or("").to_ascii_lowercase();
    if content_type.trim_start().starts_with("multipart/report") {
        return Some(AutoReason::DeliveryReport);
    }
    let return_inner = return_path.map(|rp| {
        let rp: String = rp.chars().filter(|c| !c.is_whitespace()).collect();
        rp.trim_start_matches('<').trim_end_matches('>').to_string()
    });
    if return_inner.as_deref() == Some("") {
        return Some(AutoReason::NullReturnPath);
    }
    // From as mail-parser read it; failing that, the raw header's text.
    let from_text = from_raw
        .map(str::to_string)
        .or_else(|| block.get("from").map(|f| f.to_string()));
    for sender in [from_text, return_inner].into_iter().flatten() {
        let addr = sender
            .rsplit('<')
            .next()
            .unwrap_or("")
            .trim_end_matches('>')
            .trim();
        let local = addr.rsplit_once('@').map_or(addr, |(l, _)| l);
        if is_daemon_local(local) {
            return Some(AutoReason::DaemonSender(addr.to_string()));
        }
    }
    if let Some(v) = block.get("auto-submitted") {
        let v = first_word(v);
        if v != "no" {
            return Some(AutoReason::AutoSubmitted(v));
        }
    }
    for name in [
        "X-Autoreply",
        "X-Autorespond",
        "X-Autoreply-From",
        "X-Mail-Autoreply",
        "X-Autogenerated",
    ] {
        if let Some(v) = block.get(&name.to_ascii_lowercase()) {
            if first_word(v) != "no" {
                return Some(AutoReason::AutoReplyHeader(name.to_string()));
            }
        }
    }
    if let Some(v) = block.get("precedence") {
        let v = first_word(v);
        if matches!(v.as_str(), "bulk" | "junk" | "list" | "auto_reply") {
            return Some(AutoReason::Precedence(v));
        }
    }
    for name in ["List-Id", "List-Unsubscribe"] {
        if block.get(&name.to_ascii_lowercase()).is_some() {
            return Some(AutoReason::MailingList(name.to_string()));
        }
    }
    None
}

/// The value's first word, lower case (`auto-replied (vacation)` →
/// `auto-replied`; `no; foo` → `no`).
fn first_word(v: &str) -> String {
    v.split(|c: char| c.is_whitespace() || c == ';' || c == '(')
        .find(|w| !w.is_empty())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// The top-level header fields, as written, read without mail-parser (so
/// that trace headers and unknown ones are seen exactly).
struct HeaderBlock {
    /// (lower-case name, unfolded value) in order.
    fields: Vec<(String, String)>,
    /// Where the body starts (just after the blank line), or the end.
    body_offset: usize,
}

impl HeaderBlock {
    fn scan(raw: &[u8]) -> HeaderBlock {
        let limit = raw.len().min(HEADER_CAP);
        let mut fields: Vec<(String, String)> = Vec::new();
        let mut pos = 0;
        let mut body_offset = limit;
        while pos < limit {
            let end = raw[pos..limit]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(limit, |e| pos + e);
            let line = &raw[pos..end];
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let next = (end + 1).min(raw.len());
            if line.is_empty() {
                body_offset = next;
                break;
            }
            if line[0] == b' ' || line[0] == b'\t' {
                if let Some((_, value)) = fields.last_mut() {
                    value.push(' ');
                    value.push_str(String::from_utf8_lossy(line).trim());
                }
            } else if let Some(colon) = line.iter().position(|&b| b == b':') {
                let name = &line[..colon];
                if !name.is_empty() && name.iter().all(|&b| b.is_ascii_graphic()) {
                    let name = String::from_utf8_lossy(name).to_ascii_lowercase();
                    let value = String::from_utf8_lossy(&line[colon + 1..])
                        .trim()
                        .to_string();
                    fields.push((name, value));
                }
            } else if pos > 0 && !line.starts_with(b"From ") {
                // Not a header line and not an mbox "From " line: the
                // headers ended without a blank line.
                body_offset = pos;
                break;
            }
            pos = next;
            if end >= limit {
                break;
            }
        }
        HeaderBlock {
            fields,
            body_offset,
        }
    }

    /// The first field of that (lower-case) name.
    fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// `<32 hex digits@judge.invalid>`: FNV-1a (128 bit) over the headers that
/// the sender wrote (not the ones added on the way) and the body.
fn synthetic_id(raw: &[u8], block: &HeaderBlock) -> String {
    const ORIGIN: &[&str] = &[
        "date",
        "from",
        "sender",
        "to",
        "cc",
        "subject",
        "in-reply-to",
        "references",
    ];
    let mut h = Fnv128::new();
    let mut any = false;
    for (name, value) in &block.fields {
        if ORIGIN.contains(&name.as_str()) {
            any = true;
            h.write(name.as_bytes());
            h.write(b":");
            // White space normalised: refolding on the way changes nothing.
            for word in value.split_whitespace() {
                h.write(word.as_bytes());
                h.write(b" ");
            }
            h.write(b"\n");
        }
    }
    let body = &raw[block.body_offset.min(raw.len())..];
    if !any && body.is_empty() {
        h.write(raw);
    }
    // CR and trailing white space are what transports change in a body.
    let body_prefix = &body[..body.len().min(HASH_BODY_CAP)];
    for line in body_prefix.split(|&b| b == b'\n') {
        let mut line = line;
        while let [rest @ .., last] = line {
            if last.is_ascii_whitespace() {
                line = rest;
            } else {
                break;
            }
        }
        h.write(line);
        h.write(b"\n");
    }
    format!("<{:032x}@judge.invalid>", h.0)
}

struct Fnv128(u128);

impl Fnv128 {
    fn new() -> Fnv128 {
        Fnv128(0x6c62272e07bb014262b821756295c58d)
    }

    fn write(&mut self, bytes: &[u8]) {
        const PRIME: u128 = 0x0000000001000000000000000000013B;
        for &b in bytes {
            self.0 ^= u128::from(b);
            self.0 = self.0.wrapping_mul(PRIME);
        }
    }
}
