//! Press: messages between powers, from the master or observers, grey
//! (anonymous to the recipients) or not, broadcast or to some powers.

use rusqlite::{params, Connection};

use super::Result;

/// A press message to store.
#[derive(Clone, Debug)]
pub struct NewPress<'a> {
    pub game_id: i64,
    /// The phase it was sent in; None before the game has one.
    pub phase: Option<&'a str>,
    /// A power, `M` (the master) or `O` (an observer).
    pub from: &'a str,
    /// The recipients' powers; empty for a broadcast.
    pub to: &'a [&'a str],
    pub grey: bool,
    pub broadcast: bool,
    pub subject: Option<&'a str>,
    pub body: &'a str,
    pub inbound_id: Option<i64>,
}

/// Stores a press message sent at `now`; its id.
pub fn insert_press(conn: &Connection, press: &NewPress<'_>, now: i64) -> Result<i64> {
    let to = serde_json::to_string(press.to)?;
    conn.prepare_cached(
        "INSERT INTO press (game_id, phase, from_power, to_powers, grey, broadcast, subject, \
                            body, sent_at, inbound_id) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute(params![
        press.game_id,
        press.phase,
        press.from,
        to,
        press.grey,
        press.broadcast,
        press.subject,
        press.body,
        now,
        press.inbound_id
    ])?;
    Ok(conn.last_insert_rowid())
}
