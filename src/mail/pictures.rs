//! Pictures attached to a mail after its text, made when the mail is sent.
//!
//! A results mail is queued inside the transaction that processed the
//! phase; drawing its map there would hold the store's write lock for
//! every game of a deadline. So the queued mail carries, after its complete
//! text part, an empty part naming the picture it is to hold
//! (`X-Judge-Picture: <reference>`); the sender fills it in just before
//! handing the mail over ([`fill_pictures`]), outside any transaction.
//! The text part stays first and complete, for plain-text readers.

use super::render::base64;

/// One picture part to attach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PicturePart {
    /// What the sender draws: its own reference, on one line.
    pub reference: String,
    /// `image/png`, `image/svg+xml`.
    pub content_type: &'static str,
    pub filename: String,
}

/// The header line that marks a part still to be filled.
const MARK: &str = "X-Judge-Picture: ";

/// A boundary that the text does not contain.
fn boundary_for(raw: &[u8]) -> String {
    let mut n = 0u32;
    loop {
        let b = format!("=_judge_map_{n}");
        if !raw.windows(b.len()).any(|w| w == b.as_bytes()) {
            return b;
        }
        n += 1;
    }
}

/// `raw` (a single-part text mail as `render` writes it) with `parts`
/// after its text: a `multipart/mixed` mail whose first part is the text.
pub fn with_pictures(raw: &[u8], parts: &[PicturePart]) -> Vec<u8> {
    if parts.is_empty() {
        return raw.to_vec();
    }
    let Some(split) = find(raw, b"\r\n\r\n") else {
        return raw.to_vec();
    };
    let (head, body) = (&raw[..split + 2], &raw[split + 4..]);
    let boundary = boundary_for(raw);
    let mut out = Vec::with_capacity(raw.len() + 512);
    let mut content = Vec::new();
    for line in head.split_inclusive(|&b| b == b'\n') {
        let lower = line.to_ascii_lowercase();
        if lower.starts_with(b"content-type:") || lower.starts_with(b"content-transfer-encoding:") {
            content.extend_from_slice(line);
        } else {
            out.extend_from_slice(line);
        }
    }
    out.extend_from_slice(
        format!("Content-Type: multipart/mixed; boundary=\"{boundary}\"\r\n\r\n").as_bytes(),
    );
    out.extend_from_slice(b"This is a message in several parts: the text, then the map.\r\n");
    out.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
    out.extend_from_slice(&content);
    out.extend_from_slice(b"Content-Disposition: inline\r\n\r\n");
    out.extend_from_slice(body);
    for part in parts {
        let name = part.filename.replace(['"', '\r', '\n', '\\'], "");
        let reference = part.reference.replace(['\r', '\n'], " ");
        out.extend_from_slice(
            format!(
                "\r\n--{boundary}\r\n{MARK}{reference}\r\nContent-Type: {}; name=\"{name}\"\r\n\
                 Content-Disposition: attachment; filename=\"{name}\"\r\n\
                 Content-Transfer-Encoding: base64\r\n\r\n",
                part.content_type
            )
            .as_bytes(),
        );
    }
    out.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Whether `raw` has parts still to fill.
pub fn has_pictures(raw: &[u8]) -> bool {
    find(raw, format!("\r\n{MARK}").as_bytes()).is_some()
}

/// `raw` with every picture part filled by `make(reference)`; a picture
/// that cannot be made becomes a line of text saying so.
pub fn fill_pictures(raw: &[u8], mut make: impl FnMut(&str) -> Option<Vec<u8>>) -> Vec<u8> {
    let mark = format!("\r\n{MARK}");
    let mut out = Vec::with_capacity(raw.len() + 256 * 1024);
    let mut rest = raw;
    while let Some(at) = find(rest, mark.as_bytes()) {
        let line_start = at + 2;
        let Some(line_len) = find(&rest[line_start..], b"\r\n") else {
            break;
        };
        let reference =
            String::from_utf8_lossy(&rest[line_start + MARK.len()..line_start + line_len]);
        let headers_start = line_start + line_len + 2;
        let Some(headers_len) = find(&rest[headers_start..], b"\r\n\r\n") else {
            break;
        };
        let body_start = headers_start + headers_len + 4;
        out.extend_from_slice(&rest[..line_start]);
        match make(&reference) {
            Some(bytes) => {
                out.extend_from_slice(&rest[headers_start..body_start]);
                let text = base64(&bytes);
                for chunk in text.as_bytes().chunks(76) {
                    out.extend_from_slice(chunk);
                    out.extend_from_slice(b"\r\n");
                }
            }
            None => out.extend_from_slice(
                b"Content-Type: text/plain; charset=utf-8\r\n\r\nThe map could not be drawn.\r\n",
            ),
        }
        rest = &rest[body_start..];
    }
    out.extend_from_slice(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::{render, Address, Outgoing};
    use mail_parser::MimeHeaders;

    fn text_mail(body: &str) -> Vec<u8> {
        render(&Outgoing {
            from: Address::parse("judge@example.org").unwrap(),
            to: vec![Address::parse("player@example.net").unwrap()],
            subject: "JDG:demo - S1901M Results".into(),
            body: body.into(),
            in_reply_to: None,
            references: Vec::new(),
            auto_replied: false,
            message_id: "<1@example.org>".into(),
            date: "Mon, 2 Nov 2026 20:00:00 +0000".into(),
        })
    }

    #[test]
    fn the_text_comes_first_and_whole_then_the_picture() {
        let raw =
            text_mail("Movement results for Spring of 1901.\nAustria: Army Budapest -> Serbia.\n");
        let queued = with_pictures(
            &raw,
            &[PicturePart {
                reference: "results 7 S1901M".into(),
                content_type: "image/png",
                filename: "demo-S1901M.png".into(),
            }],
        );
        assert!(has_pictures(&queued));
        let png: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        let mut asked = Vec::new();
        let sent = fill_pictures(&queued, |r| {
            asked.push(r.to_string());
            Some(png.clone())
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
            "Movement results for Spring of 1901.\nAustria: Army Budapest -> Serbia."
        );
        let attachment = message.attachment(0).expect("the picture");
        assert_eq!(attachment.attachment_name(), Some("demo-S1901M.png"));
        assert_eq!(attachment.contents(), &png[..]);
        // A picture that cannot be made: a note instead, the text intact.
        let sent = fill_pictures(&queued, |_| None);
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
    fn no_parts_leaves_the_mail_alone() {
        let raw = text_mail("Hello.\n");
        assert_eq!(with_pictures(&raw, &[]), raw);
        assert!(!has_pictures(&raw));
        assert_eq!(fill_pictures(&raw, |_| panic!("nothing to fill")), raw);
    }
}
