//! Writing one outbound mail: a [`Letter`] in, RFC 5322 bytes out, built
//! with lettre's message builder (header encoding and folding, MIME parts,
//! quoted-printable and base64 are lettre's).

use std::time::SystemTime;

use lettre::address::Envelope;
use lettre::message::header::{
    self, ContentDisposition, ContentTransferEncoding, ContentType, Header, HeaderName, HeaderValue,
};
use lettre::message::{Body, Mailbox, Mailboxes, MultiPart, SinglePart};
use lettre::Message;

use super::address::Address;
use super::pictures::{placeholder_part, with_pictures_note, PicturePart};

/// One mail to send: to its recipients, with its text and its pictures,
/// ready to be written out. (The frontend's `Outgoing` is the mail before
/// it is addressed to each recipient.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Letter {
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
    /// The Date header's time, given by the caller: this module has no
    /// clock.
    pub date: SystemTime,
    /// Pictures attached after the text, left empty here and drawn when the
    /// mail is sent (see [`super::pictures`]); none gives a plain text mail.
    pub pictures: Vec<PicturePart>,
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
/// The text goes as `7bit` when it is ASCII with short lines, else as
/// `quoted-printable` (which every relay carries, 8BITMIME or not, and
/// which keeps the text readable in the raw mail). With pictures, the mail
/// is `multipart/mixed`: the text first and whole, then one empty part per
/// picture. Dot-stuffing is the SMTP layer's job.
pub fn render(letter: &Letter) -> Vec<u8> {
    Renderer::default().render(letter)
}

/// Renders letters one after another, keeping the From header and the
/// encoded text of the last one: the copies of one mail to each of its
/// recipients (a game's results to seven players and the Master) differ
/// in their To and Message-ID only, mostly, and encoding the same text
/// and reading back the same From for each was most of the rendering.
#[derive(Default)]
pub struct Renderer {
    /// The sender as written (name and address exactly: [`Address`]'s
    /// equality overlooks both), and its header.
    from: Option<(Mailbox, HeaderValue)>,
    text: Option<(String, Body)>,
}

impl Renderer {
    /// As [`render`].
    pub fn render(&mut self, letter: &Letter) -> Vec<u8> {
        let builder = self.headers(letter);
        let message = if letter.pictures.is_empty() {
            let body = self.text_body(&letter.body);
            builder.singlepart(
                SinglePart::builder()
                    .header(ContentType::TEXT_PLAIN)
                    .body(body),
            )
        } else {
            // The text names each picture and says what it shows.
            let body = self.text_body(&with_pictures_note(&letter.body, &letter.pictures));
            let text = SinglePart::builder()
                .header(ContentType::TEXT_PLAIN)
                .header(ContentDisposition::inline())
                .body(body);
            let parts = letter.pictures.iter().map(placeholder_part);
            builder
                .multipart(parts.fold(MultiPart::mixed().singlepart(text), |m, p| m.singlepart(p)))
        };
        message
            .expect("a From, a To or an envelope, and a Date are always set")
            .formatted()
    }

    /// [`headers`], the From header read from the last letter when it
    /// has the same sender.
    fn headers(&mut self, letter: &Letter) -> lettre::message::MessageBuilder {
        let sender = letter.from.mailbox();
        let from = match &self.from {
            Some((last, header)) if *last == sender => header.clone(),
            _ => {
                let header = mailboxes::<header::From>(vec![sender.clone()]);
                self.from = Some((sender, header.clone()));
                header
            }
        };
        headers(letter, from)
    }

    /// [`text_body`], kept for the next letter with the same text.
    fn text_body(&mut self, text: &str) -> Body {
        match &self.text {
            Some((last, body)) if last == text => body.clone(),
            _ => {
                let body = text_body(text);
                self.text = Some((text.to_string(), body.clone()));
                body
            }
        }
    }
}

/// Every header but the content's, in the order they are written; the
/// From header as [`mailboxes`] writes `letter.from`.
fn headers(letter: &Letter, from_header: HeaderValue) -> lettre::message::MessageBuilder {
    let from = letter.from.mailbox();
    let to: Vec<Mailbox> = letter.to.iter().map(Address::mailbox).collect();
    // The SMTP envelope is the sender's business, not this mail's; without
    // a To, lettre wants one all the same.
    let recipients = match to.is_empty() {
        true => vec![from.email.clone()],
        false => to.iter().map(|m| m.email.clone()).collect(),
    };
    let envelope =
        Envelope::new(Some(from.email.clone()), recipients).expect("at least one recipient");
    let mut builder = Message::builder()
        .envelope(envelope)
        .date(letter.date)
        .raw_header(from_header);
    builder = match to.is_empty() {
        true => builder.raw_header(raw("To", "undisclosed-recipients:;")),
        false => builder.raw_header(mailboxes::<header::To>(to)),
    };
    builder = builder
        .raw_header(subject(&one_line(&letter.subject)))
        .message_id(Some(msg_id(&letter.message_id)));
    if let Some(id) = &letter.in_reply_to {
        builder = builder.in_reply_to(msg_id(id));
    }
    if !letter.references.is_empty() {
        let ids: Vec<String> = letter.references.iter().map(|r| msg_id(r)).collect();
        builder = builder.references(ids.join(" "));
    }
    if letter.auto_replied {
        builder = builder.raw_header(raw("Auto-Submitted", "auto-replied"));
    }
    builder
}

/// A From or To header. lettre's typed header puts every name holding a
/// space in quotes and writes one holding a comma as an encoded word; a
/// name in plain ASCII goes as RFC 5322 writes it (`Diplomacy Judge
/// <judge@host>`, `"Smith, John" <john@host>`; lettre's `Display`), what
/// the judge has always sent. Other names go as lettre's typed header.
/// lettre reads the From back when it builds the mail and refuses one it
/// cannot read: a name it would write so goes, the bare addresses instead.
/// (Bare addresses are what it wrote already: not read back.)
fn mailboxes<H>(list: Vec<Mailbox>) -> HeaderValue
where
    H: Header + From<Mailboxes>,
{
    let named = list.iter().any(|m| m.name.is_some());
    let list = Mailboxes::from(list);
    let written = list.to_string();
    if named && written.parse::<Mailboxes>().is_err() {
        let bare: Vec<Mailbox> = list.into_iter().map(|m| m.email.into()).collect();
        return HeaderValue::new(H::name(), Mailboxes::from(bare).to_string());
    }
    let ascii = list
        .iter()
        .all(|m| m.name.as_deref().is_none_or(|n| n.is_ascii()));
    match ascii {
        true => HeaderValue::new(H::name(), written),
        false => H::from(list).display(),
    }
}

fn raw(name: &'static str, value: &str) -> HeaderValue {
    HeaderValue::new(HeaderName::new_from_ascii_str(name), value.to_string())
}

/// The Subject header. lettre writes an ASCII word as it is, so a subject
/// holding `=?` would be read back as an encoded word: that one is
/// encoded whole (with the encoder lettre uses), the rest left to lettre.
fn subject(subject: &str) -> HeaderValue {
    let name = HeaderName::new_from_ascii_str("Subject");
    if !subject.contains("=?") {
        return HeaderValue::new(name, subject.to_string());
    }
    let mut encoded = String::new();
    {
        let mut writer = email_encoding::headers::writer::EmailWriter::new(
            &mut encoded,
            "Subject: ".len(),
            0,
            false,
        );
        email_encoding::headers::rfc2047::encode(subject, &mut writer)
            .expect("writing to a String does not fail");
    }
    HeaderValue::dangerous_new_pre_encoded(name, subject.to_string(), encoded)
}

/// The longest body line sent as it is (RFC 5322's limit is 998).
const MAX_LINE: usize = 998;

/// The text, 7bit when it is ASCII with lines of at most 998 characters,
/// else quoted-printable.
///
/// The 7bit case is ours, not lettre's: lettre sends 7bit only lines of
/// fewer than 76 characters and would quote-print every longer one (the
/// judge's rule lines, long order and press lines), so the raw text of
/// most replies would change. Otherwise lettre's choice would be base64
/// for text mostly not ASCII, unreadable raw: quoted-printable is asked.
fn text_body(body: &str) -> Body {
    let lines = body_lines(body);
    let plain = lines
        .iter()
        .all(|l| l.is_ascii() && l.len() <= MAX_LINE && !l.contains('\0'));
    if plain {
        return Body::dangerous_pre_encoded(
            lines.join("\r\n").into_bytes(),
            ContentTransferEncoding::SevenBit,
        );
    }
    Body::new_with_encoding(lines.join("\n"), ContentTransferEncoding::QuotedPrintable)
        .expect("quoted-printable carries any text")
}

/// The body's lines (any line ending), without the last line's ending:
/// lettre ends the body with one.
fn body_lines(body: &str) -> Vec<&str> {
    let body = body.strip_suffix('\n').unwrap_or(body);
    body.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect()
}

/// No CR or LF may reach a header: lettre would encode them, and a
/// reader would decode them back into the subject.
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

/// `<id>` with no white space or control characters: ids come from
/// other people's mail.
fn msg_id(id: &str) -> String {
    let kept: String;
    let id = match id.bytes().all(|b| b.is_ascii_graphic()) {
        // The judge's own ids, and most others: nothing to drop.
        true => id,
        false => {
            kept = id
                .chars()
                .filter(|c| !c.is_whitespace() && !c.is_control())
                .collect();
            &kept
        }
    };
    let id = id.trim_start_matches('<').trim_end_matches('>');
    format!("<{id}>")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letter(from: Address) -> Letter {
        Letter {
            from,
            to: Vec::new(),
            subject: "s".into(),
            body: "b\n".into(),
            in_reply_to: None,
            references: Vec::new(),
            auto_replied: false,
            message_id: "<1@example.org>".into(),
            date: std::time::UNIX_EPOCH,
            pictures: Vec::new(),
        }
    }

    #[test]
    fn any_name_renders_and_reads_back_its_address() {
        let judge = Address::parse("judge@example.org").unwrap();
        for name in [
            "Diplomacy Judge",
            "Smith, John",
            "Le Juge « EX »",
            "a\"b\\c",
            "<x@y.example>",
            "=?utf-8?q?x?=",
            "(comment",
            "9 lives",
        ] {
            let raw = render(&letter(judge.clone().with_name(name)));
            let text = String::from_utf8(raw.clone()).unwrap();
            assert!(text.contains("To: undisclosed-recipients:;\r\n"), "{text}");
            let back = crate::mail::read_mail(&raw, 1 << 20).unwrap();
            let from = back.from.expect("a From");
            assert_eq!(from.addr_spec(), "judge@example.org", "{name}: {text}");
        }
    }
}
