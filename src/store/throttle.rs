//! What the judge counts against abuse: failed sign-ons (password
//! guessing) and replies to addresses that never signed on (a forged From
//! makes the judge mail a third party).

use rusqlite::{params, Connection, OptionalExtension};

use super::Result;

/// Failed sign-ons within [`THROTTLE_WINDOW`] that lock a target.
pub const SIGN_ON_FAILURES_TO_LOCK: i64 = 5;
/// The window failures are counted in, and how long a lock lasts.
pub const THROTTLE_WINDOW: i64 = 3600;
/// Replies within [`THROTTLE_WINDOW`] to an address that never signed on.
pub const STRANGER_REPLIES_PER_HOUR: i64 = 5;

/// Until when sign-ons to `target` are refused, if they are now.
pub fn sign_on_locked_until(conn: &Connection, target: &str, now: i64) -> Result<Option<i64>> {
    Ok(conn
        .query_row(
            "SELECT locked_until FROM sign_on_locks WHERE target = ?1 AND locked_until > ?2",
            params![target, now],
            |r| r.get(0),
        )
        .optional()?)
}

/// Records a failed sign-on to `target`; true when it is the one that
/// locks it (then the lock is recorded, until `now` + [`THROTTLE_WINDOW`]).
pub fn record_sign_on_failure(conn: &Connection, target: &str, now: i64) -> Result<bool> {
    conn.execute(
        "DELETE FROM sign_on_failures WHERE failed_at <= ?1",
        [now - THROTTLE_WINDOW],
    )?;
    conn.execute("DELETE FROM sign_on_locks WHERE locked_until <= ?1", [now])?;
    conn.execute(
        "INSERT INTO sign_on_failures (target, failed_at) VALUES (?1, ?2)",
        params![target, now],
    )?;
    let failures: i64 = conn.query_row(
        "SELECT count(*) FROM sign_on_failures WHERE target = ?1 AND failed_at > ?2",
        params![target, now - THROTTLE_WINDOW],
        |r| r.get(0),
    )?;
    if failures < SIGN_ON_FAILURES_TO_LOCK {
        return Ok(false);
    }
    // The failures that made this lock must not make another once it ends.
    conn.execute("DELETE FROM sign_on_failures WHERE target = ?1", [target])?;
    conn.execute(
        "INSERT INTO sign_on_locks (target, locked_until) VALUES (?1, ?2) \
         ON CONFLICT (target) DO UPDATE SET locked_until = excluded.locked_until",
        params![target, now + THROTTLE_WINDOW],
    )?;
    Ok(true)
}

/// Whether `address` ever signed on with a password: it holds a seat, an
/// observer's place or a game's Master's address.
pub fn is_known_address(conn: &Connection, address: &str) -> Result<bool> {
    Ok(conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM seats WHERE address = ?1 COLLATE NOCASE) \
             OR EXISTS (SELECT 1 FROM observers WHERE address = ?1) \
             OR EXISTS (SELECT 1 FROM games WHERE master_address = ?1 COLLATE NOCASE)",
        [address],
        |r| r.get(0),
    )?)
}

/// Counts a reply to an address that never signed on, if the hour's limit
/// allows it: whether it may be sent.
pub fn take_stranger_reply(conn: &Connection, address: &str, now: i64) -> Result<bool> {
    conn.execute(
        "DELETE FROM stranger_replies WHERE sent_at <= ?1",
        [now - THROTTLE_WINDOW],
    )?;
    let sent: i64 = conn.query_row(
        "SELECT count(*) FROM stranger_replies WHERE address = ?1 AND sent_at > ?2",
        params![address, now - THROTTLE_WINDOW],
        |r| r.get(0),
    )?;
    if sent >= STRANGER_REPLIES_PER_HOUR {
        return Ok(false);
    }
    conn.execute(
        "INSERT INTO stranger_replies (address, sent_at) VALUES (?1, ?2)",
        params![address, now],
    )?;
    Ok(true)
}
