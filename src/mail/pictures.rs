//! Pictures attached to a mail after its text, made when the mail is sent.
//!
//! A results mail is queued inside the transaction that processed the
//! phase; drawing its map there would hold the store's write lock for
//! every game of a deadline. So the queued mail carries, after its complete
//! text part, an empty part naming the picture it is to hold
//! (`X-Judge-Picture: <reference>`); the sender fills it in just before
//! handing the mail over ([`fill_pictures`]), outside any transaction,
//! from bodies made once per picture ([`picture_body`]): a game's mails
//! all carry the same one.
//! The text part stays first and complete, for plain-text readers.

use lettre::message::header::{
    ContentDisposition, ContentTransferEncoding, ContentType, Header, HeaderName, HeaderValue,
};
use lettre::message::{Body, SinglePart};

/// One picture part to attach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PicturePart {
    /// What the sender draws: its own reference, on one line.
    pub reference: String,
    /// `image/png`, `image/svg+xml`.
    pub content_type: &'static str,
    pub filename: String,
    /// What it shows, for the mail's text: "the orders and results".
    pub shows: String,
}

/// The lines that name each picture attached and say what it shows, for
/// the end of the mail's text (none without pictures).
pub fn pictures_note(parts: &[PicturePart]) -> String {
    let mut note = String::new();
    if parts.is_empty() {
        return note;
    }
    note.push_str(if parts.len() == 1 {
        "Attached:
"
    } else {
        "Attached pictures:
"
    });
    for part in parts {
        note.push_str(&format!("  {}: {}\n", part.filename, part.shows));
    }
    note
}

/// `body` with the note naming `parts` added at the end of its text,
/// before its signature (a `-- ` line) if it has one.
pub fn with_pictures_note(body: &str, parts: &[PicturePart]) -> String {
    let note = pictures_note(parts);
    if note.is_empty() {
        return body.to_string();
    }
    let (text, signature) = match body.rfind("\n-- \n") {
        Some(at) => body.split_at(at + 1),
        None => (body, ""),
    };
    let mut out = String::with_capacity(body.len() + note.len() + 2);
    out.push_str(text);
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    if !out.is_empty() && !out.ends_with("\n\n") {
        out.push('\n');
    }
    out.push_str(&note);
    if !signature.is_empty() {
        out.push('\n');
        out.push_str(signature);
    }
    out
}

/// The header that marks a part still to be filled.
const MARK_NAME: &str = "X-Judge-Picture";
const MARK: &str = "X-Judge-Picture: ";

/// The empty part that stands for `part` in a queued mail: its headers,
/// the mark first (the filler replaces what follows it), and no body.
pub(super) fn placeholder_part(part: &PicturePart) -> SinglePart {
    let name = part.filename.replace(['"', '\\', '\r', '\n'], "");
    // The name parameter is for old readers; a name the MIME parser will
    // not take is left out (Content-Disposition carries it too).
    let content_type = ContentType::parse(&format!("{}; name=\"{name}\"", part.content_type))
        .or_else(|_| ContentType::parse(part.content_type))
        .expect("our picture types are valid MIME types");
    let empty = Body::new_with_encoding(Vec::new(), ContentTransferEncoding::Base64)
        .expect("base64 carries anything");
    SinglePart::builder()
        .header(PictureMark(part.reference.replace(['\r', '\n'], " ")))
        .header(content_type)
        .header(ContentDisposition::attachment(&name))
        .body(empty)
}

/// `X-Judge-Picture: <reference>`.
#[derive(Clone)]
struct PictureMark(String);

impl Header for PictureMark {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str(MARK_NAME)
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(PictureMark(s.to_string()))
    }

    /// Written as it is, never folded: the filler reads the reference back
    /// from this one line (references are ours: short, one line).
    fn display(&self) -> HeaderValue {
        HeaderValue::dangerous_new_pre_encoded(Self::name(), self.0.clone(), self.0.clone())
    }
}

/// Where `needle` first starts in `hay`. Every due mail is searched for
/// its pictures' marks, and a mail with pictures is hundreds of KB:
/// memchr's search skips ahead where comparing at each byte did not
/// (a tenth of a deadline pass's instructions, maps off).
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(hay, needle)
}

/// Whether `raw` has parts still to fill.
pub fn has_pictures(raw: &[u8]) -> bool {
    find(raw, format!("\r\n{MARK}").as_bytes()).is_some()
}

/// One part still to fill in a queued mail: where its mark line starts,
/// its reference, and where its headers and its (empty) body start.
struct Placeholder<'a> {
    line_start: usize,
    reference: std::borrow::Cow<'a, str>,
    headers_start: usize,
    body_start: usize,
}

/// The first part still to fill in `raw`, if any.
fn next_placeholder(raw: &[u8]) -> Option<Placeholder<'_>> {
    let at = find(raw, format!("\r\n{MARK}").as_bytes())?;
    let line_start = at + 2;
    let line_len = find(&raw[line_start..], b"\r\n")?;
    let reference = String::from_utf8_lossy(&raw[line_start + MARK.len()..line_start + line_len]);
    let headers_start = line_start + line_len + 2;
    let headers_len = find(&raw[headers_start..], b"\r\n\r\n")?;
    Some(Placeholder {
        line_start,
        reference,
        headers_start,
        body_start: headers_start + headers_len + 4,
    })
}

/// The references of the parts still to fill in `raw`, in order.
pub fn picture_references(raw: &[u8]) -> Vec<String> {
    let mut references = Vec::new();
    let mut rest = raw;
    while let Some(part) = next_placeholder(rest) {
        references.push(part.reference.into_owned());
        rest = &rest[part.body_start..];
    }
    references
}

/// A picture's bytes as a filled part carries them: base64, in lines.
/// Made once per picture and copied into each mail that carries it.
pub fn picture_body(bytes: Vec<u8>) -> Vec<u8> {
    Body::new_with_encoding(bytes, ContentTransferEncoding::Base64)
        .expect("base64 carries anything")
        .into_vec()
}

/// What a picture's part says when the picture could not be made.
pub const NOT_DRAWN: &str = "The map could not be drawn.";

/// `raw` with every picture part filled by `make(reference)`, the body as
/// [`picture_body`] makes it; a picture that cannot be made becomes a
/// line of text saying so.
pub fn fill_pictures<B: AsRef<[u8]>>(
    raw: &[u8],
    mut make: impl FnMut(&str) -> Option<B>,
) -> Vec<u8> {
    fill_pictures_instead(raw, |reference| make(reference).ok_or(NOT_DRAWN))
}

/// [`fill_pictures`], a picture not made replaced by the text `make`
/// gives instead (a part of plain text in its place).
pub fn fill_pictures_instead<B: AsRef<[u8]>, T: AsRef<str>>(
    raw: &[u8],
    mut make: impl FnMut(&str) -> Result<B, T>,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len() + 256 * 1024);
    let mut rest = raw;
    while let Some(part) = next_placeholder(rest) {
        out.extend_from_slice(&rest[..part.line_start]);
        match make(&part.reference) {
            Ok(body) => {
                out.extend_from_slice(&rest[part.headers_start..part.body_start]);
                out.extend_from_slice(body.as_ref());
            }
            Err(text) => {
                out.extend_from_slice(b"Content-Type: text/plain; charset=utf-8\r\n\r\n");
                for line in text.as_ref().lines() {
                    out.extend_from_slice(line.as_bytes());
                    out.extend_from_slice(b"\r\n");
                }
            }
        }
        rest = &rest[part.body_start..];
    }
    out.extend_from_slice(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::{render, Address, Letter};
    use mail_parser::MimeHeaders;

    fn text_mail(body: &str, pictures: Vec<PicturePart>) -> Vec<u8> {
        render(&Letter {
            from: Address::parse("judge@example.org").unwrap(),
            to: vec![Address::parse("player@example.net").unwrap()],
            subject: "JDG:demo - S1901M Results".into(),
            body: body.into(),
            in_reply_to: None,
            references: Vec::new(),
            auto_replied: false,
            message_id: "<1@example.org>".into(),
            date: std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_793_736_000),
            pictures,
        })
    }

    #[test]
    fn the_text_comes_first_and_whole_then_the_picture() {
        let queued = text_mail(
            "Movement results for Spring of 1901.\nAustria: Army Budapest -> Serbia.\n",
            vec![PicturePart {
                reference: "results 7 S1901M".into(),
                content_type: "image/png",
                filename: "demo-S1901M.png".into(),
                shows: "the orders and results".into(),
            }],
        );
        assert!(has_pictures(&queued));
        let png: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        let mut asked = Vec::new();
        assert_eq!(picture_references(&queued), ["results 7 S1901M"]);
        let sent = fill_pictures(&queued, |r| {
            asked.push(r.to_string());
            Some(picture_body(png.clone()))
        });
        assert_eq!(asked, ["results 7 S1901M"]);
        assert!(!has_pictures(&sent));
        let message = mail_parser::MessageParser::default().parse(&sent).unwrap();
        assert_eq!(message.subject(), Some("JDG:demo - S1901M Results"));
        assert_eq!(
            message
                .body_text(0)
                .unwrap()
                .replace("\r\n", "\n")
                .trim_end(),
            "Movement results for Spring of 1901.\nAustria: Army Budapest -> Serbia.\n\n\
             Attached:\n  demo-S1901M.png: the orders and results"
        );
        let attachment = message.attachment(0).expect("the picture");
        assert_eq!(attachment.attachment_name(), Some("demo-S1901M.png"));
        assert_eq!(attachment.contents(), &png[..]);
        // A picture that cannot be made: a note instead, the text intact.
        let sent = fill_pictures(&queued, |_| None::<Vec<u8>>);
        let message = mail_parser::MessageParser::default().parse(&sent).unwrap();
        assert!(message
            .body_text(0)
            .unwrap()
            .starts_with("Movement results"));
        assert_eq!(
            message.body_text(1).unwrap().trim(),
            "The map could not be drawn."
        );
    }

    #[test]
    fn a_picture_not_mailed_is_replaced_by_the_text_saying_why() {
        let queued = text_mail(
            "The game is over.\n",
            vec![PicturePart {
                reference: "summary 7 S1906M png".into(),
                content_type: "image/png",
                filename: "demo-summary.png".into(),
                shows: "the whole game".into(),
            }],
        );
        let sent = fill_pictures_instead(&queued, |_| {
            Err::<Vec<u8>, _>("Too large to mail; it is at https://example.org/demo/summary.png.")
        });
        assert!(!has_pictures(&sent));
        let message = mail_parser::MessageParser::default().parse(&sent).unwrap();
        assert!(message.attachment(0).is_none(), "the picture is attached");
        assert_eq!(
            message.body_text(1).unwrap().trim(),
            "Too large to mail; it is at https://example.org/demo/summary.png."
        );
    }

    #[test]
    fn the_note_names_every_picture_before_the_signature() {
        let parts = [
            PicturePart {
                reference: "results 7 F1901M png".into(),
                content_type: "image/png",
                filename: "demo-F1901M.png".into(),
                shows: "the orders and results".into(),
            },
            PicturePart {
                reference: "position 7 F1901R png".into(),
                content_type: "image/png",
                filename: "demo-F1901R.png".into(),
                shows: "the position for the retreat orders due".into(),
            },
        ];
        assert_eq!(
            with_pictures_note("Done.\n-- \nThe judge.\n", &parts),
            "Done.\n\nAttached pictures:\n  demo-F1901M.png: the orders and results\n  \
             demo-F1901R.png: the position for the retreat orders due\n\n-- \nThe judge.\n"
        );
        assert_eq!(with_pictures_note("Done.\n", &[]), "Done.\n");
    }

    #[test]
    fn no_parts_leaves_the_mail_alone() {
        let raw = text_mail("Hello.\n", Vec::new());
        assert!(!has_pictures(&raw));
        assert!(picture_references(&raw).is_empty());
        assert_eq!(
            fill_pictures(&raw, |_| -> Option<Vec<u8>> { panic!("nothing to fill") }),
            raw
        );
    }
}
