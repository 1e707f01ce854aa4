//! Press: messages between powers, from the master or observers, grey
//! (anonymous to the recipients) or not, broadcast or to some powers.

use rusqlite::{params, Connection, Row};

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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PressRecord {
    pub id: i64,
    pub game_id: i64,
    pub phase: Option<String>,
    pub from: String,
    pub to: Vec<String>,
    pub grey: bool,
    pub broadcast: bool,
    pub subject: Option<String>,
    pub body: String,
    pub sent_at: i64,
    pub inbound_id: Option<i64>,
}

const COLUMNS: &str =
    "id, game_id, phase, from_power, to_powers, grey, broadcast, subject, body, sent_at, inbound_id";

fn from_row(r: &Row<'_>) -> rusqlite::Result<PressRecord> {
    let to: String = r.get(4)?;
    let to = serde_json::from_str(&to).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(4, rusqlite::types::Type::Text, Box::new(e))
    })?;
    Ok(PressRecord {
        id: r.get(0)?,
        game_id: r.get(1)?,
        phase: r.get(2)?,
        from: r.get(3)?,
        to,
        grey: r.get(5)?,
        broadcast: r.get(6)?,
        subject: r.get(7)?,
        body: r.get(8)?,
        sent_at: r.get(9)?,
        inbound_id: r.get(10)?,
    })
}

/// Stores a press message sent at `now`; its id.
pub fn insert_press(conn: &Connection, press: &NewPress<'_>, now: i64) -> Result<i64> {
    let to = serde_json::to_string(press.to)?;
    conn.execute(
        "INSERT INTO press (game_id, phase, from_power, to_powers, grey, broadcast, subject, \
                            body, sent_at, inbound_id) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
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
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

/// The game's press, oldest first.
pub fn press_of_game(conn: &Connection, game_id: i64) -> Result<Vec<PressRecord>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM press WHERE game_id = ?1 ORDER BY sent_at, id"
    ))?;
    let rows = stmt.query_map([game_id], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
