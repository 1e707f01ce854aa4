//! The per-game history: everything sent to the whole game (results,
//! broadcasts, notices, summaries; never partial press), for HISTORY.

use rusqlite::{params, Connection, Row};

use super::{text_enum, Result};

text_enum! {
    /// What kind of mail to the whole game.
    HistoryKind {
        Results = "results",
        Broadcast = "broadcast",
        Notice = "notice",
        Summary = "summary",
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryEntry {
    pub id: i64,
    pub game_id: i64,
    pub phase: Option<String>,
    pub kind: HistoryKind,
    pub subject: String,
    pub body: String,
    pub created_at: i64,
}

const COLUMNS: &str = "id, game_id, phase, kind, subject, body, created_at";

fn from_row(r: &Row<'_>) -> rusqlite::Result<HistoryEntry> {
    Ok(HistoryEntry {
        id: r.get(0)?,
        game_id: r.get(1)?,
        phase: r.get(2)?,
        kind: r.get(3)?,
        subject: r.get(4)?,
        body: r.get(5)?,
        created_at: r.get(6)?,
    })
}

/// Adds a mail sent to the whole game at `now`; its id.
pub fn append_history(
    conn: &Connection,
    game_id: i64,
    phase: Option<&str>,
    kind: HistoryKind,
    subject: &str,
    body: &str,
    now: i64,
) -> Result<i64> {
    conn.execute(
        "INSERT INTO archive (game_id, phase, kind, subject, body, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![game_id, phase, kind, subject, body, now],
    )?;
    Ok(conn.last_insert_rowid())
}

/// The game's archive from `from` (inclusive) to `to` (exclusive), oldest
/// first.
pub fn history_between(
    conn: &Connection,
    game_id: i64,
    from: i64,
    to: i64,
) -> Result<Vec<HistoryEntry>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM archive \
         WHERE game_id = ?1 AND created_at >= ?2 AND created_at < ?3 \
         ORDER BY created_at, id"
    ))?;
    let rows = stmt.query_map(params![game_id, from, to], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The results mail of `phase` as the whole game got it (the latest, if
/// the phase was played again after a rollback).
pub fn results_mail_of_phase(
    conn: &Connection,
    game_id: i64,
    phase: &str,
) -> Result<Option<HistoryEntry>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM archive WHERE game_id = ?1 AND phase = ?2 AND kind = ?3 \
         ORDER BY id DESC LIMIT 1"
    ))?;
    let mut rows = stmt.query_map(params![game_id, phase, HistoryKind::Results], from_row)?;
    Ok(rows.next().transpose()?)
}

/// The game's whole archive, oldest first.
pub fn history_of_game(conn: &Connection, game_id: i64) -> Result<Vec<HistoryEntry>> {
    history_between(conn, game_id, i64::MIN, i64::MAX)
}

/// When the game's archive last grew (None: it is empty).
pub fn last_history_at(conn: &Connection, game_id: i64) -> Result<Option<i64>> {
    Ok(conn
        .prepare_cached("SELECT max(created_at) FROM archive WHERE game_id = ?1")?
        .query_row([game_id], |r| r.get(0))?)
}
