//! Mails over the size limit, kept bounded: read only up to the limit plus
//! a margin, the rest counted and dropped, and stored cut short with a
//! note saying so (the note carries the real size, for the refusal).

use std::borrow::Cow;
use std::io::{self, Read};

/// Bytes kept beyond the size limit: enough that a mail just over it is
/// kept whole, little enough that a huge one costs nothing.
pub const MARGIN: usize = 64 * 1024;

const NOTE_START: &str = "\r\n\r\n[The judge kept only the first ";
const NOTE_MIDDLE: &str = " bytes of this mail of ";
const NOTE_END: &str = " bytes.]\r\n";

/// How many bytes of a mail are kept at most.
pub fn kept_bytes(max_bytes: usize) -> usize {
    max_bytes.saturating_add(MARGIN)
}

/// Reads a whole mail from `reader`, keeping at most the limit plus the
/// margin in memory: the bytes kept (cut short with a note when there
/// were more) and the mail's full size. The rest is read and dropped, so
/// that the writer (a mail system's pipe) sees the mail taken.
pub fn read_bounded(reader: impl Read, max_bytes: usize) -> io::Result<(Vec<u8>, u64)> {
    let keep = kept_bytes(max_bytes);
    let mut reader = reader;
    let mut raw = Vec::new();
    (&mut reader).take(keep as u64 + 1).read_to_end(&mut raw)?;
    let mut size = raw.len() as u64;
    if raw.len() > keep {
        size += io::copy(&mut reader, &mut io::sink())?;
    }
    Ok((cut_with_note(raw, size, max_bytes), size))
}

/// `raw` as stored: whole when it is at most the limit plus the margin,
/// else its first bytes followed by a note of what was cut. `size` is the
/// mail's full size (more than `raw.len()` when it was read cut short).
pub fn cut_with_note(mut raw: Vec<u8>, size: u64, max_bytes: usize) -> Vec<u8> {
    let keep = kept_bytes(max_bytes);
    if size <= keep as u64 {
        return raw;
    }
    raw.truncate(keep);
    raw.extend_from_slice(format!("{NOTE_START}{keep}{NOTE_MIDDLE}{size}{NOTE_END}").as_bytes());
    raw
}

/// `raw` as it may be stored: as it is when within the limit and the
/// margin or already cut short with a note, else cut short now.
pub fn bounded(raw: &[u8], max_bytes: usize) -> Cow<'_, [u8]> {
    let keep = kept_bytes(max_bytes);
    let already_cut = || raw.len() <= keep + NOTE_ROOM && noted_size(raw).is_some();
    if raw.len() <= keep || already_cut() {
        Cow::Borrowed(raw)
    } else {
        Cow::Owned(cut_with_note(
            raw[..keep].to_vec(),
            raw.len() as u64,
            max_bytes,
        ))
    }
}

/// Room enough for any note.
const NOTE_ROOM: usize = 200;

/// The full size a note at the end of `raw` gives, when it has one.
pub fn noted_size(raw: &[u8]) -> Option<u64> {
    let tail_from = raw.len().saturating_sub(NOTE_ROOM);
    let tail = std::str::from_utf8(&raw[tail_from..]).ok().or_else(|| {
        // The cut may have split a character just before the note.
        (tail_from..raw.len()).find_map(|i| std::str::from_utf8(&raw[i..]).ok())
    })?;
    let note = &tail[tail.rfind(NOTE_START)? + NOTE_START.len()..];
    let note = note.strip_suffix(NOTE_END)?;
    let (_, size) = note.split_once(NOTE_MIDDLE)?;
    size.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_mail_is_cut_with_its_size_noted() {
        let big = vec![b'x'; 100_000];
        let (raw, size) = read_bounded(&big[..], 1000).unwrap();
        assert_eq!(size, 100_000);
        assert!(raw.len() < 1000 + MARGIN + 100);
        assert_eq!(noted_size(&raw), Some(100_000));
        assert_eq!(bounded(&raw, 1000), raw, "cut once only");
        assert_eq!(noted_size(&bounded(&big, 1000)), Some(100_000));
        let (raw, size) = read_bounded(&big[..2000], 1000).unwrap();
        assert_eq!((raw.len(), size), (2000, 2000));
        assert_eq!(noted_size(&raw), None);
    }
}
