//! What the judge counts against abuse: failed sign-ons (password
//! guessing) and replies to addresses that never signed on (a forged From
//! makes the judge mail a third party).

use rusqlite::{params, Connection, OptionalExtension};

use super::Result;

/// Failed sign-ons from one address to one target, within
/// [`THROTTLE_WINDOW`], after which that address's tries for that target
/// are refused unchecked.
pub const SIGN_ON_FAILURES_TO_LOCK: i64 = 5;
/// The window failures are counted in, and how long a lock lasts.
pub const THROTTLE_WINDOW: i64 = 3600;
/// A day: an owner is told of guessing, and a locked-out guesser is
/// answered, at most once in it.
pub const ONCE_A_DAY: i64 = 24 * 3600;
/// Replies within [`THROTTLE_WINDOW`] to an address that never signed on.
pub const STRANGER_REPLIES_PER_HOUR: i64 = 5;

/// A lock on one sender's tries for one target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignOnLock {
    pub locked_until: i64,
    /// Whether the sender was already told of this lock within a day: then
    /// a further try gets no reply at all.
    pub told_today: bool,
}

/// The lock on `sender`'s sign-ons to `target`, if there is one now. A
/// lock is per sender: a guesser never locks out the owner, nor anyone
/// else.
pub fn sign_on_lock(
    conn: &Connection,
    target: &str,
    sender: &str,
    now: i64,
) -> Result<Option<SignOnLock>> {
    Ok(conn
        .query_row(
            "SELECT locked_until, told_at FROM sign_on_locks \
             WHERE target = ?1 AND sender = ?2 AND locked_until > ?3",
            params![target, sender, now],
            |r| {
                let told: Option<i64> = r.get(1)?;
                Ok(SignOnLock {
                    locked_until: r.get(0)?,
                    told_today: told.is_some_and(|t| t > now - ONCE_A_DAY),
                })
            },
        )
        .optional()?)
}

/// Records that `sender` was told its tries for `target` are locked.
pub fn sign_on_lock_told(conn: &Connection, target: &str, sender: &str, now: i64) -> Result<()> {
    conn.execute(
        "UPDATE sign_on_locks SET told_at = ?3 WHERE target = ?1 AND sender = ?2",
        params![target, sender, now],
    )?;
    Ok(())
}

/// What a failed sign-on led to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SignOnFailure {
    /// This failure locked the sender's tries for the target.
    pub locked: bool,
    /// The target's owner is to be told (the first lock on it in a day).
    pub tell_owner: bool,
}

/// Records a failed sign-on from `sender` to `target`: whether it locks
/// that sender's tries (for [`THROTTLE_WINDOW`]) and whether the owner is
/// to hear of it.
pub fn record_sign_on_failure(
    conn: &Connection,
    target: &str,
    sender: &str,
    now: i64,
) -> Result<SignOnFailure> {
    conn.execute(
        "DELETE FROM sign_on_failures WHERE failed_at <= ?1",
        [now - THROTTLE_WINDOW],
    )?;
    // Kept a day after they end: a locked sender is answered once a day.
    conn.execute(
        "DELETE FROM sign_on_locks WHERE locked_until <= ?1",
        [now - ONCE_A_DAY],
    )?;
    conn.execute(
        "INSERT INTO sign_on_failures (target, sender, failed_at) VALUES (?1, ?2, ?3)",
        params![target, sender, now],
    )?;
    let failures: i64 = conn.query_row(
        "SELECT count(*) FROM sign_on_failures \
         WHERE target = ?1 AND sender = ?2 AND failed_at > ?3",
        params![target, sender, now - THROTTLE_WINDOW],
        |r| r.get(0),
    )?;
    if failures < SIGN_ON_FAILURES_TO_LOCK {
        return Ok(SignOnFailure::default());
    }
    // The failures that made this lock must not make another once it ends.
    conn.execute(
        "DELETE FROM sign_on_failures WHERE target = ?1 AND sender = ?2",
        params![target, sender],
    )?;
    conn.execute(
        "INSERT INTO sign_on_locks (target, sender, locked_until) VALUES (?1, ?2, ?3) \
         ON CONFLICT (target, sender) DO UPDATE SET locked_until = excluded.locked_until",
        params![target, sender, now + THROTTLE_WINDOW],
    )?;
    let told: Option<i64> = conn
        .query_row(
            "SELECT notified_at FROM sign_on_notices WHERE target = ?1",
            [target],
            |r| r.get(0),
        )
        .optional()?;
    let tell_owner = told.is_none_or(|t| t <= now - ONCE_A_DAY);
    if tell_owner {
        conn.execute(
            "INSERT INTO sign_on_notices (target, notified_at) VALUES (?1, ?2) \
             ON CONFLICT (target) DO UPDATE SET notified_at = excluded.notified_at",
            params![target, now],
        )?;
    }
    Ok(SignOnFailure {
        locked: true,
        tell_owner,
    })
}

/// Whether `address` ever signed on with a password: it holds a seat, an
/// observer's place or a game's Master's address, or plays in a team.
pub fn is_known_address(conn: &Connection, address: &str) -> Result<bool> {
    Ok(conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM seats WHERE address = ?1 COLLATE NOCASE) \
             OR EXISTS (SELECT 1 FROM seat_addresses \
                        WHERE address = ?1 AND confirmed_at IS NOT NULL) \
             OR EXISTS (SELECT 1 FROM observers WHERE address = ?1) \
             OR EXISTS (SELECT 1 FROM games WHERE master_address = ?1 COLLATE NOCASE)",
        )?
        .query_row([address], |r| r.get(0))?)
}

/// Counts a reply to an address that never signed on, if the hour's limit
/// allows it: whether it may be sent.
pub fn take_stranger_reply(conn: &Connection, address: &str, now: i64) -> Result<bool> {
    conn.prepare_cached("DELETE FROM stranger_replies WHERE sent_at <= ?1")?
        .execute([now - THROTTLE_WINDOW])?;
    let sent: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM stranger_replies WHERE address = ?1 AND sent_at > ?2",
        )?
        .query_row(params![address, now - THROTTLE_WINDOW], |r| r.get(0))?;
    if sent >= STRANGER_REPLIES_PER_HOUR {
        return Ok(false);
    }
    conn.prepare_cached("INSERT INTO stranger_replies (address, sent_at) VALUES (?1, ?2)")?
        .execute(params![address, now])?;
    Ok(true)
}

/// Mails one address's mails caused in the window before `now` (results
/// of a phase are not counted: they are the game's, not the sender's).
pub fn mails_caused_since(conn: &Connection, sender: &str, since: i64) -> Result<i64> {
    Ok(conn
        .prepare_cached(
            "SELECT coalesce(sum(mails), 0) FROM mails_caused WHERE sender = ?1 AND caused_at > ?2",
        )?
        .query_row(params![sender, since], |r| r.get(0))?)
}

/// Counts the mails one of `sender`'s mails caused (kept an hour).
pub fn record_mails_caused(conn: &Connection, sender: &str, mails: i64, now: i64) -> Result<()> {
    conn.prepare_cached("DELETE FROM mails_caused WHERE caused_at <= ?1")?
        .execute([now - THROTTLE_WINDOW])?;
    if mails > 0 {
        conn.prepare_cached(
            "INSERT INTO mails_caused (sender, caused_at, mails) VALUES (?1, ?2, ?3)",
        )?
        .execute(params![sender, now, mails])?;
    }
    Ok(())
}

/// Whether mail may go to `address` on someone else's word: it signed on
/// with a password (a seat, an observer's place, a game's Master) or
/// confirmed it wants the judge's mail.
pub fn address_confirmed(conn: &Connection, address: &str) -> Result<bool> {
    let confirmed: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM address_confirmations \
                        WHERE address = ?1 AND confirmed_at IS NOT NULL)",
        [address],
        |r| r.get(0),
    )?;
    Ok(confirmed || is_known_address(conn, address)?)
}

/// Records that `address` wants the judge's mail (it signed on from
/// itself, or sent its CONFIRM).
pub fn mark_address_confirmed(conn: &Connection, address: &str, now: i64) -> Result<()> {
    conn.execute(
        "UPDATE address_confirmations SET confirmed_at = ?2 \
         WHERE address = ?1 AND confirmed_at IS NULL",
        params![address, now],
    )?;
    Ok(())
}

/// A request to confirm `address`, named by `named_by` (for `seat_id`'s
/// address, if any): its token, and whether to mail it now (at most once
/// a day to one address; a later request in the day takes the same token
/// and replaces what it was for).
pub struct ConfirmationRequest {
    pub token: String,
    pub mail_now: bool,
}

pub fn request_confirmation(
    conn: &Connection,
    address: &str,
    named_by: &str,
    seat_id: Option<i64>,
    fresh_token: &str,
    now: i64,
) -> Result<ConfirmationRequest> {
    let asked: Option<(String, i64)> = conn
        .query_row(
            "SELECT token, requested_at FROM address_confirmations WHERE address = ?1",
            [address],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    if let Some((token, _)) = asked.filter(|(_, at)| *at > now - ONCE_A_DAY) {
        conn.execute(
            "UPDATE address_confirmations SET named_by = ?2, seat_id = ?3 WHERE address = ?1",
            params![address, named_by, seat_id],
        )?;
        return Ok(ConfirmationRequest {
            token,
            mail_now: false,
        });
    }
    conn.execute(
        "INSERT INTO address_confirmations (address, token, named_by, seat_id, requested_at) \
         VALUES (?1, ?2, ?3, ?4, ?5) \
         ON CONFLICT (address) DO UPDATE SET token = excluded.token, \
             named_by = excluded.named_by, seat_id = excluded.seat_id, \
             requested_at = excluded.requested_at",
        params![address, fresh_token, named_by, seat_id, now],
    )?;
    Ok(ConfirmationRequest {
        token: fresh_token.to_string(),
        mail_now: true,
    })
}

/// What a CONFIRM answered: the address, and the seat it was named for.
pub struct Confirmed {
    pub address: String,
    pub seat_id: Option<i64>,
    pub named_by: String,
}

/// Confirms the address `token` was sent to, if any (the seat it was
/// named for is forgotten: a token works once).
pub fn confirm_token(conn: &Connection, token: &str, now: i64) -> Result<Option<Confirmed>> {
    let found: Option<(String, Option<i64>, String)> = conn
        .query_row(
            "SELECT address, seat_id, named_by FROM address_confirmations WHERE token = ?1",
            [token],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    let Some((address, seat_id, named_by)) = found else {
        return Ok(None);
    };
    conn.execute(
        "UPDATE address_confirmations SET confirmed_at = coalesce(confirmed_at, ?2), \
             seat_id = NULL WHERE token = ?1",
        params![token, now],
    )?;
    Ok(Some(Confirmed {
        address,
        seat_id,
        named_by,
    }))
}
