//! Mail through the store, for the front end: an inbound mail stored,
//! claimed, redacted and marked; the mails it causes queued; and the
//! bookkeeping that keeps anyone from making the judge mail a stranger
//! or send a flood (replies to addresses that never signed on, mails
//! caused per sender). The front end decides; these keep it.

use rusqlite::Connection;

use crate::store::{self, mailbox::InboundStatus, StoreError};

/// The judge's database, as the front end is lent it.
pub use crate::store::Store;

/// One mail's write transaction. The front end holds it as an opaque
/// handle: it passes it to the game's functions (which take it as a
/// connection) and commits it, and names no database type itself.
pub type Tx<'a> = rusqlite::Transaction<'a>;

/// Stores a raw inbound mail (`message_id`, from `sender`); None when the
/// same mail was stored before. Run it in a write transaction of its own,
/// so that two processes storing the same mail cannot both store it.
pub fn store_inbound(
    conn: &Connection,
    message_id: &str,
    raw: &[u8],
    sender: Option<&str>,
    now: i64,
) -> Result<Option<i64>, StoreError> {
    store::mailbox::insert_inbound(conn, message_id, raw, sender, now)
}

/// The oldest stored mail not yet handled with an id of at most `up_to`.
pub fn oldest_unhandled(conn: &Connection, up_to: i64) -> Result<Option<i64>, StoreError> {
    store::mailbox::oldest_unhandled(conn, up_to)
}

/// Claims a stored mail for handling: false if another process has.
pub fn claim(conn: &Connection, id: i64, now: i64) -> Result<bool, StoreError> {
    store::mailbox::claim_inbound(conn, id, now)
}

/// The stored mail `id` as it came (or as redacted).
pub fn raw_inbound(conn: &Connection, id: i64) -> Result<Vec<u8>, StoreError> {
    Ok(store::mailbox::inbound_by_id(conn, id)?
        .ok_or_else(|| StoreError::NotFound(format!("inbound mail #{id}")))?
        .raw)
}

/// Replaces the stored copy of mail `id` (its passwords overwritten).
pub fn keep_redacted(conn: &Connection, id: i64, raw: &[u8]) -> Result<(), StoreError> {
    store::mailbox::set_inbound_raw(conn, id, raw)
}

/// Marks mail `id` dropped (never answered), and why.
pub fn mark_dropped(conn: &Connection, id: i64, why: &str, now: i64) -> Result<(), StoreError> {
    store::mailbox::mark_inbound(conn, id, InboundStatus::Dropped, Some(why), now)
}

/// Marks mail `id` failed, and why: false if it was not still claimed.
pub fn mark_failed(conn: &Connection, id: i64, why: &str, now: i64) -> Result<bool, StoreError> {
    store::mailbox::fail_inbound(conn, id, why, now)
}

/// A rendered mail to one recipient, to queue.
pub struct Queued<'a> {
    pub message_id: &'a str,
    pub game_id: Option<i64>,
    pub recipient: &'a str,
    pub subject: &'a str,
    /// The complete RFC 5322 message.
    pub raw: &'a [u8],
}

/// Queues a rendered mail to be sent.
pub fn queue(conn: &Connection, mail: &Queued<'_>, now: i64) -> Result<(), StoreError> {
    store::mailbox::queue_mail(
        conn,
        &store::mailbox::NewMail {
            message_id: mail.message_id,
            game_id: mail.game_id,
            recipients: &[mail.recipient],
            subject: mail.subject,
            raw: mail.raw,
        },
        now,
    )
    .map(|_| ())
}

/// Replies an hour at most to an address that never signed on.
pub const STRANGER_REPLIES_PER_HOUR: i64 = store::throttle::STRANGER_REPLIES_PER_HOUR;

/// Whether a reply may go to `address`: always to one that has signed on
/// with a password; to any other, [`STRANGER_REPLIES_PER_HOUR`] (this one
/// counted if it may).
pub fn may_reply_to(conn: &Connection, address: &str, now: i64) -> Result<bool, StoreError> {
    Ok(store::throttle::is_known_address(conn, address)?
        || store::throttle::take_stranger_reply(conn, address, now)?)
}

/// How many mails `sender`'s mails caused in the hour up to `now`.
pub fn mails_caused_in_the_hour(
    conn: &Connection,
    sender: &str,
    now: i64,
) -> Result<i64, StoreError> {
    store::throttle::mails_caused_since(conn, sender, now - store::throttle::THROTTLE_WINDOW)
}

/// Records that a mail of `sender` caused `mails` mails.
pub fn record_mails_caused(
    conn: &Connection,
    sender: &str,
    mails: i64,
    now: i64,
) -> Result<(), StoreError> {
    store::throttle::record_mails_caused(conn, sender, mails, now)
}

/// The savepoint one command of a mail runs under.
const COMMAND: &str = "command";

/// Begins a command: what it writes can be undone alone.
pub fn begin_command(conn: &Connection) -> Result<(), StoreError> {
    store::savepoint(conn, COMMAND)
}

/// Keeps what the command wrote.
pub fn keep_command(conn: &Connection) -> Result<(), StoreError> {
    store::release_savepoint(conn, COMMAND)
}

/// Undoes everything the command wrote.
pub fn undo_command(conn: &Connection) -> Result<(), StoreError> {
    store::undo_savepoint(conn, COMMAND)
}
