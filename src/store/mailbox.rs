//! Mail: every inbound mail stored raw before anything is done with it (the
//! same mail twice is stored, and handled, once), claimed by the
//! transaction that handles it, and the outbound queue of rendered mails
//! with their attempts, last error and backoff.

use blake2::{Blake2s256, Digest};
use rusqlite::{params, Connection, OptionalExtension, Row};

use super::{expect_one, text_enum, unique_as_duplicate, Result};

text_enum! {
    /// What became of an inbound mail.
    InboundStatus {
        /// Stored, not yet acted on.
        New = "new",
        /// Acted on (and answered, if it called for an answer).
        Handled = "handled",
        /// Deliberately ignored: a bounce, a vacation reply, a loop.
        Dropped = "dropped",
        /// Handling it went wrong (a panic, a lasting error) and was rolled
        /// back; the note says why. Never retried by itself.
        Failed = "failed",
    }
}

/// The Message-ID as stored: surrounding white space and one pair of angle
/// brackets removed, so `<a@b>` and `a@b` are the same mail. Otherwise
/// verbatim (Message-IDs are case-sensitive).
pub fn normalize_message_id(message_id: &str) -> &str {
    let t = message_id.trim();
    t.strip_prefix('<')
        .and_then(|s| s.strip_suffix('>'))
        .unwrap_or(t)
}

/// The digest that tells two mails with the same Message-ID and sender
/// apart: BLAKE2s of the body (everything after the first empty line),
/// hex. Headers are left out because a mail system adds its own
/// (`Received:`, `Delivered-To:`) to each delivery of the same mail.
pub fn body_digest(raw: &[u8]) -> String {
    let body = [&b"\r\n\r\n"[..], b"\n\n"]
        .iter()
        .filter_map(|sep| {
            raw.windows(sep.len())
                .position(|w| w == *sep)
                .map(|at| at + sep.len())
        })
        .min()
        .map_or(raw, |start| &raw[start..]);
    Blake2s256::digest(body)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inbound {
    /// The internal key: two mails with one Message-ID are two rows.
    pub id: i64,
    pub message_id: String,
    /// See [`body_digest`]; None for mail stored before schema version 4.
    pub body_digest: Option<String>,
    pub received_at: i64,
    /// The mail exactly as received.
    pub raw: Vec<u8>,
    pub sender: Option<String>,
    pub status: InboundStatus,
    pub note: Option<String>,
    pub handled_at: Option<i64>,
}

const INBOUND_COLUMNS: &str =
    "id, message_id, body_digest, received_at, raw, sender, status, note, handled_at";

fn inbound_from_row(r: &Row<'_>) -> rusqlite::Result<Inbound> {
    Ok(Inbound {
        id: r.get(0)?,
        message_id: r.get(1)?,
        body_digest: r.get(2)?,
        received_at: r.get(3)?,
        raw: r.get(4)?,
        sender: r.get(5)?,
        status: r.get(6)?,
        note: r.get(7)?,
        handled_at: r.get(8)?,
    })
}

/// Stores a received mail as `new`; its id, or None when the same mail is
/// already stored: the same Message-ID (see [`normalize_message_id`]) from
/// the same sender with the same body ([`body_digest`]) — a second
/// delivery, to be ignored. The same Message-ID with another sender or
/// body is a mail of its own. A mail without a Message-ID needs one made
/// up by the caller (from a digest of `raw`, so a re-delivery still
/// matches).
///
/// The check and the insert are two statements: run them in one write
/// transaction ([`Store::transaction`]) so that two processes storing the
/// same mail at once cannot both store it.
///
/// [`Store::transaction`]: super::Store::transaction
pub fn insert_inbound(
    conn: &Connection,
    message_id: &str,
    raw: &[u8],
    sender: Option<&str>,
    now: i64,
) -> Result<Option<i64>> {
    let message_id = normalize_message_id(message_id);
    let digest = body_digest(raw);
    {
        let mut stmt = conn.prepare_cached(
            "SELECT sender, body_digest, CASE WHEN body_digest IS NULL THEN raw END \
             FROM inbound WHERE message_id = ?1",
        )?;
        let mut rows = stmt.query([message_id])?;
        while let Some(row) = rows.next()? {
            let stored_sender: Option<String> = row.get(0)?;
            if stored_sender.as_deref() != sender {
                continue;
            }
            let stored_digest = match row.get::<_, Option<String>>(1)? {
                Some(d) => d,
                None => body_digest(&row.get::<_, Vec<u8>>(2)?),
            };
            if stored_digest == digest {
                return Ok(None);
            }
        }
    }
    conn.prepare_cached(
        "INSERT INTO inbound (message_id, body_digest, received_at, raw, sender, status) \
         VALUES (?1, ?2, ?3, ?4, ?5, 'new')",
    )?
    .execute(params![message_id, digest, now, raw, sender])?;
    Ok(Some(conn.last_insert_rowid()))
}

/// The oldest mail not yet acted on with an id of at most `up_to`: the
/// next to handle. Mail is handled strictly in the order it was stored,
/// whichever process handles it, so a player's later mail never acts
/// before an earlier one.
pub fn oldest_unhandled(conn: &Connection, up_to: i64) -> Result<Option<i64>> {
    Ok(conn
        .prepare_cached(
            "SELECT id FROM inbound WHERE status = 'new' AND id <= ?1 ORDER BY id LIMIT 1",
        )?
        .query_row([up_to], |r| r.get(0))
        .optional()?)
}

/// Claims a stored mail for the transaction that handles it: true when it
/// was still `new` (and is now `handled`, to be corrected by
/// [`mark_inbound`] before the commit if it was dropped), false when
/// another process has handled it meanwhile. Only meaningful inside a
/// write transaction, which holds the claim until its commit or rollback.
pub fn claim_inbound(conn: &Connection, id: i64, now: i64) -> Result<bool> {
    let n = conn
        .prepare_cached(
            "UPDATE inbound SET status = 'handled', handled_at = ?2 \
             WHERE id = ?1 AND status = 'new'",
        )?
        .execute(params![id, now])?;
    Ok(n == 1)
}

/// Replaces a stored mail's raw bytes (its passwords redacted once it is
/// handled).
pub fn set_inbound_raw(conn: &Connection, id: i64, raw: &[u8]) -> Result<()> {
    let n = conn
        .prepare_cached("UPDATE inbound SET raw = ?2 WHERE id = ?1")?
        .execute(params![id, raw])?;
    expect_one(n, || format!("inbound mail #{id}"))
}

/// Marks a mail that is still `new` as failed, with why; false when it is
/// not `new` any more (another process finished it).
pub fn fail_inbound(conn: &Connection, id: i64, why: &str, now: i64) -> Result<bool> {
    let n = conn
        .prepare_cached(
            "UPDATE inbound SET status = 'failed', note = ?2, handled_at = ?3 \
         WHERE id = ?1 AND status = 'new'",
        )?
        .execute(params![id, why, now])?;
    Ok(n == 1)
}

/// Records what became of the mail, with an optional note (why dropped).
pub fn mark_inbound(
    conn: &Connection,
    id: i64,
    status: InboundStatus,
    note: Option<&str>,
    now: i64,
) -> Result<()> {
    let n = conn
        .prepare_cached(
            "UPDATE inbound SET status = ?2, note = ?3, \
                 handled_at = CASE WHEN ?2 = 'new' THEN NULL ELSE ?4 END \
             WHERE id = ?1",
        )?
        .execute(params![id, status, note, now])?;
    expect_one(n, || format!("inbound mail #{id}"))
}

pub fn inbound_by_id(conn: &Connection, id: i64) -> Result<Option<Inbound>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {INBOUND_COLUMNS} FROM inbound WHERE id = ?1"
        ))?
        .query_row([id], inbound_from_row)
        .optional()?)
}

// The outbound queue ----------------------------------------------------

/// The first retry waits this long (seconds)...
pub const RETRY_FIRST: i64 = 60;
/// ...doubling each time up to this.
pub const RETRY_MAX: i64 = 3600;

/// Seconds to wait after the `attempts`-th failed attempt: 1 min, 2, 4,
/// ... doubling, at most 1 h.
pub fn retry_delay(attempts: i64) -> i64 {
    let doublings = attempts.clamp(1, 63) - 1;
    RETRY_FIRST
        .checked_shl(doublings as u32)
        .filter(|d| *d > 0)
        .map_or(RETRY_MAX, |d| d.min(RETRY_MAX))
}

/// A rendered mail to queue.
#[derive(Clone, Debug)]
pub struct NewMail<'a> {
    /// The Message-ID it carries (unique).
    pub message_id: &'a str,
    /// The game it is about, if any.
    pub game_id: Option<i64>,
    /// Envelope recipients.
    pub recipients: &'a [&'a str],
    pub subject: &'a str,
    /// The complete RFC 5322 message.
    pub raw: &'a [u8],
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outbound {
    pub id: i64,
    pub message_id: String,
    pub game_id: Option<i64>,
    pub recipients: Vec<String>,
    pub subject: String,
    pub raw: Vec<u8>,
    pub created_at: i64,
    pub attempts: i64,
    pub last_error: Option<String>,
    pub next_attempt_at: i64,
    pub sent_at: Option<i64>,
    pub abandoned_at: Option<i64>,
}

const OUTBOUND_COLUMNS: &str = "id, message_id, game_id, recipients, subject, raw, created_at, \
                                attempts, last_error, next_attempt_at, sent_at, abandoned_at";

fn outbound_from_row(r: &Row<'_>) -> rusqlite::Result<Outbound> {
    let recipients: String = r.get(3)?;
    let recipients = serde_json::from_str(&recipients).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(3, rusqlite::types::Type::Text, Box::new(e))
    })?;
    Ok(Outbound {
        id: r.get(0)?,
        message_id: r.get(1)?,
        game_id: r.get(2)?,
        recipients,
        subject: r.get(4)?,
        raw: r.get(5)?,
        created_at: r.get(6)?,
        attempts: r.get(7)?,
        last_error: r.get(8)?,
        next_attempt_at: r.get(9)?,
        sent_at: r.get(10)?,
        abandoned_at: r.get(11)?,
    })
}

/// Queues a mail, due at once; its id. [`StoreError::Duplicate`] if that
/// Message-ID is already queued.
///
/// [`StoreError::Duplicate`]: super::StoreError::Duplicate
pub fn queue_mail(conn: &Connection, mail: &NewMail<'_>, now: i64) -> Result<i64> {
    let recipients = serde_json::to_string(mail.recipients)?;
    conn.prepare_cached(
        "INSERT INTO outbound (message_id, game_id, recipients, subject, raw, created_at, \
                               next_attempt_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)",
    )?
    .execute(params![
        mail.message_id,
        mail.game_id,
        recipients,
        mail.subject,
        mail.raw,
        now
    ])
    .map_err(|e| unique_as_duplicate(e, || format!("outbound mail {:?}", mail.message_id)))?;
    Ok(conn.last_insert_rowid())
}

/// A place in the queue's order (time of the next attempt, then id): a
/// sender that reads the next batch before the last is marked sent reads
/// on from the last mail it read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueuePlace {
    pub next_attempt_at: i64,
    pub id: i64,
}

impl Outbound {
    /// This mail's place in the queue's order.
    pub fn place(&self) -> QueuePlace {
        QueuePlace {
            next_attempt_at: self.next_attempt_at,
            id: self.id,
        }
    }
}

/// Up to `limit` unsent mails whose next attempt is due at `now`, the
/// longest-waiting first; with `after`, only those after it in that order.
pub fn due_mail(
    conn: &Connection,
    now: i64,
    after: Option<QueuePlace>,
    limit: usize,
) -> Result<Vec<Outbound>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {OUTBOUND_COLUMNS} FROM outbound \
         WHERE sent_at IS NULL AND abandoned_at IS NULL AND next_attempt_at <= ?1 \
           AND (next_attempt_at, id) > (?3, ?4) \
         ORDER BY next_attempt_at, id LIMIT ?2"
    ))?;
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let (at, id) = after.map_or((i64::MIN, i64::MIN), |p| (p.next_attempt_at, p.id));
    let rows = stmt.query_map(params![now, limit, at, id], outbound_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The mail went out at `now`.
pub fn mark_sent(conn: &Connection, id: i64, now: i64) -> Result<()> {
    let n = conn
        .prepare_cached(
            "UPDATE outbound SET sent_at = ?2, attempts = attempts + 1 \
         WHERE id = ?1 AND sent_at IS NULL",
        )?
        .execute(params![id, now])?;
    expect_one(n, || format!("unsent outbound mail #{id}"))
}

/// An attempt at `now` failed with `error`: counts the attempt and
/// schedules the next after [`retry_delay`]; the time of the next attempt.
pub fn mark_failed(conn: &Connection, id: i64, error: &str, now: i64) -> Result<i64> {
    let attempts: Option<i64> = conn
        .prepare_cached(
            "UPDATE outbound SET attempts = attempts + 1, last_error = ?2 \
             WHERE id = ?1 AND sent_at IS NULL RETURNING attempts",
        )?
        .query_row(params![id, error], |r| r.get(0))
        .optional()?;
    let Some(attempts) = attempts else {
        return Err(super::StoreError::NotFound(format!(
            "unsent outbound mail #{id}"
        )));
    };
    let next = now.saturating_add(retry_delay(attempts));
    conn.prepare_cached("UPDATE outbound SET next_attempt_at = ?2 WHERE id = ?1")?
        .execute(params![id, next])?;
    Ok(next)
}

/// An attempt at `now` was refused for good with `error`: counts the
/// attempt and gives the mail up (it is never tried again).
pub fn abandon_mail(conn: &Connection, id: i64, error: &str, now: i64) -> Result<()> {
    let n = conn
        .prepare_cached(
            "UPDATE outbound SET abandoned_at = ?3, last_error = ?2, attempts = attempts + 1 \
         WHERE id = ?1 AND sent_at IS NULL",
        )?
        .execute(params![id, error, now])?;
    expect_one(n, || format!("unsent outbound mail #{id}"))
}
