//! Passwords out of a stored mail once it is handled: every word where a
//! password may stand (the words an echo masks) is overwritten in the raw
//! bytes wherever it stands alone, and a body that holds one only in an
//! encoding (base64, quoted-printable) is replaced by its masked commands.

use super::script::{mask_passwords, password_words};
use crate::mail::Incoming;
use crate::say;

/// The copy of a handled mail to keep (in the store, in the mailbox):
/// `raw` with its password words overwritten; None when nothing needs to
/// change. An over-size mail was never read, so where its passwords
/// stand is unknown: only its header block is kept, with a note.
pub fn kept_copy(raw: &[u8], mail: &Incoming) -> Option<Vec<u8>> {
    if mail.oversized {
        let mut out = raw[..body_start(raw)].to_vec();
        out.extend_from_slice(say!("redact.oversized", bytes => mail.size).as_bytes());
        out.extend_from_slice(b"\r\n");
        return Some(out);
    }
    redact_passwords(raw, &mail.lines)
}

/// `raw` with the password words of `lines` (the mail's command lines)
/// redacted; None when there was none.
pub fn redact_passwords(raw: &[u8], lines: &[String]) -> Option<Vec<u8>> {
    let mut words: Vec<&str> = lines.iter().flat_map(|l| password_words(l)).collect();
    if words.is_empty() {
        return None;
    }
    // Longest first: a password that is part of another is not left half.
    words.sort_by_key(|w| std::cmp::Reverse(w.len()));
    words.dedup();
    let mut out = raw.to_vec();
    let mut hidden_in_encoding = false;
    for word in &words {
        if !overwrite_standalone(&mut out, word.as_bytes()) {
            hidden_in_encoding = true;
        }
    }
    if hidden_in_encoding {
        out.truncate(body_start(&out));
        out.extend_from_slice(say!("redact.passwords_encoded").as_bytes());
        out.extend_from_slice(b"\r\n");
        for line in lines {
            out.extend_from_slice(mask_passwords(line).as_bytes());
            out.extend_from_slice(b"\r\n");
        }
    }
    Some(out)
}

/// Overwrites with `*` every occurrence of `word` in `bytes` that neither
/// follows nor is followed by a letter or digit: whether there was one.
fn overwrite_standalone(bytes: &mut [u8], word: &[u8]) -> bool {
    if word.is_empty() || word.len() > bytes.len() {
        return false;
    }
    let bounded = |b: Option<&u8>| b.is_none_or(|b| !b.is_ascii_alphanumeric());
    let mut found = false;
    let mut i = 0;
    while i + word.len() <= bytes.len() {
        let end = i + word.len();
        if &bytes[i..end] == word
            && bounded(i.checked_sub(1).and_then(|p| bytes.get(p)))
            && bounded(bytes.get(end))
        {
            bytes[i..end].fill(b'*');
            found = true;
            i = end;
        } else {
            i += 1;
        }
    }
    found
}

/// Where the body begins: after the blank line that ends the header.
fn body_start(raw: &[u8]) -> usize {
    let crlf = raw.windows(4).position(|w| w == b"\r\n\r\n").map(|p| p + 4);
    let lf = raw.windows(2).position(|w| w == b"\n\n").map(|p| p + 2);
    match (crlf, lf) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b).unwrap_or(raw.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn password_words_are_overwritten_where_they_stand_alone() {
        let raw = b"Subject: x\r\n\r\nSIGNON Fg1 my secret phrase\r\nsecretive\r\n> my secret\r\n";
        let lines = vec!["SIGNON Fg1 my secret phrase".to_string()];
        let out = String::from_utf8(redact_passwords(raw, &lines).unwrap()).unwrap();
        assert_eq!(
            out,
            "Subject: x\r\n\r\nSIGNON Fg1 ** ****** ******\r\nsecretive\r\n> ** ******\r\n"
        );
        assert_eq!(redact_passwords(raw, &["HELP".to_string()]), None);
    }

    #[test]
    fn an_encoded_body_holding_a_password_is_replaced() {
        // "SIGNON Fg1 secret" in base64.
        let raw = b"Content-Transfer-Encoding: base64\r\n\r\nU0lHTk9OIEZnMSBzZWNyZXQ=\r\n";
        let lines = vec!["SIGNON Fg1 secret".to_string()];
        let out = String::from_utf8(redact_passwords(raw, &lines).unwrap()).unwrap();
        assert!(!out.contains("U0lHTk9OIEZnMSBzZWNyZXQ"), "{out}");
        assert!(out.contains("SIGNON Fg1 ****"), "{out}");
    }
}
