//! Phases: one row per phase of a game, with the position at its start
//! (`interchange::PositionJson` as JSON), its deadline and grace, and once
//! processed, when and with what results.

use rusqlite::{params, Connection, OptionalExtension, Row};
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::{expect_one, unique_as_duplicate, Result};

#[derive(Clone, Debug, PartialEq)]
pub struct PhaseRecord {
    pub id: i64,
    pub game_id: i64,
    /// `S1901M` ...
    pub phase: String,
    /// 1 for the game's first phase, then up by one.
    pub seq: i64,
    /// JSON text of the position at the start of the phase.
    pub position: String,
    pub deadline: Option<i64>,
    pub grace_until: Option<i64>,
    pub started_at: i64,
    pub processed_at: Option<i64>,
    /// JSON text of the adjudication's results, once processed.
    pub results: Option<String>,
    /// When the reminder before the deadline went out.
    pub reminded_at: Option<i64>,
    /// When the last late notice went out.
    pub late_notice_at: Option<i64>,
}

impl PhaseRecord {
    /// The position parsed into the caller's type (`PositionJson`).
    pub fn position_as<T: DeserializeOwned>(&self) -> Result<T> {
        Ok(serde_json::from_str(&self.position)?)
    }

    /// The results parsed into the caller's type.
    pub fn results_as<T: DeserializeOwned>(&self) -> Result<Option<T>> {
        match &self.results {
            Some(text) => Ok(Some(serde_json::from_str(text)?)),
            None => Ok(None),
        }
    }

    pub fn is_processed(&self) -> bool {
        self.processed_at.is_some()
    }

    /// The end of grace, when it is worth saying: later than the deadline
    /// (no grace, GRACE 0, ends with it).
    pub fn grace_beyond_deadline(&self) -> Option<i64> {
        self.grace_until
            .filter(|&g| self.deadline.is_none_or(|d| g > d))
    }
}

const COLUMNS: &str = "id, game_id, phase, seq, position, deadline, grace_until, started_at, \
                       processed_at, results, reminded_at, late_notice_at";

fn from_row(r: &Row<'_>) -> rusqlite::Result<PhaseRecord> {
    Ok(PhaseRecord {
        id: r.get(0)?,
        game_id: r.get(1)?,
        phase: r.get(2)?,
        seq: r.get(3)?,
        position: r.get(4)?,
        deadline: r.get(5)?,
        grace_until: r.get(6)?,
        started_at: r.get(7)?,
        processed_at: r.get(8)?,
        results: r.get(9)?,
        reminded_at: r.get(10)?,
        late_notice_at: r.get(11)?,
    })
}

/// Starts `phase` of the game with `position` (serialised to JSON: pass a
/// `PositionJson`), after every phase already stored; its id.
/// [`StoreError::Duplicate`] if the game already has that phase.
///
/// [`StoreError::Duplicate`]: super::StoreError::Duplicate
pub fn insert_phase<P: Serialize + ?Sized>(
    conn: &Connection,
    game_id: i64,
    phase: &str,
    position: &P,
    deadline: Option<i64>,
    grace_until: Option<i64>,
    now: i64,
) -> Result<i64> {
    let position = serde_json::to_string(position)?;
    conn.prepare_cached(
        "INSERT INTO phases (game_id, phase, seq, position, deadline, grace_until, started_at) \
         VALUES (?1, ?2, \
                 (SELECT coalesce(max(seq), 0) + 1 FROM phases WHERE game_id = ?1), \
                 ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        game_id,
        phase,
        position,
        deadline,
        grace_until,
        now
    ])
    .map_err(|e| unique_as_duplicate(e, || format!("phase {phase:?} of game #{game_id}")))?;
    Ok(conn.last_insert_rowid())
}

/// The game's latest phase (processed or not), if it has one.
pub fn current_phase(conn: &Connection, game_id: i64) -> Result<Option<PhaseRecord>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM phases WHERE game_id = ?1 ORDER BY seq DESC LIMIT 1"
        ))?
        .query_row([game_id], from_row)
        .optional()?)
}

pub fn phase_by_name(conn: &Connection, game_id: i64, phase: &str) -> Result<Option<PhaseRecord>> {
    Ok(conn
        .query_row(
            &format!("SELECT {COLUMNS} FROM phases WHERE game_id = ?1 AND phase = ?2"),
            params![game_id, phase],
            from_row,
        )
        .optional()?)
}

/// Every phase of the game, first to last.
pub fn phases_of_game(conn: &Connection, game_id: i64) -> Result<Vec<PhaseRecord>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM phases WHERE game_id = ?1 ORDER BY seq"
    ))?;
    let rows = stmt.query_map([game_id], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Sets the deadline and end of grace of an unprocessed phase.
pub fn set_deadline(
    conn: &Connection,
    game_id: i64,
    phase: &str,
    deadline: Option<i64>,
    grace_until: Option<i64>,
) -> Result<()> {
    // A deadline that moves later earns a new reminder and new late
    // notices; one that stays or moves earlier keeps the record.
    let n = conn.execute(
        "UPDATE phases SET \
             reminded_at = CASE WHEN ?3 > deadline THEN NULL ELSE reminded_at END, \
             late_notice_at = CASE WHEN ?3 > deadline THEN NULL ELSE late_notice_at END, \
             deadline = ?3, grace_until = ?4 \
         WHERE game_id = ?1 AND phase = ?2 AND processed_at IS NULL",
        params![game_id, phase, deadline, grace_until],
    )?;
    expect_one(n, || {
        format!("unprocessed phase {phase:?} of game #{game_id}")
    })
}

/// Records that the phase was adjudicated at `now` with `results`
/// (serialised to JSON). Fails if it is unknown or already processed.
pub fn mark_processed<R: Serialize + ?Sized>(
    conn: &Connection,
    game_id: i64,
    phase: &str,
    results: &R,
    now: i64,
) -> Result<()> {
    let results = serde_json::to_string(results)?;
    let n = conn
        .prepare_cached(
            "UPDATE phases SET processed_at = ?3, results = ?4 \
         WHERE game_id = ?1 AND phase = ?2 AND processed_at IS NULL",
        )?
        .execute(params![game_id, phase, now, results])?;
    expect_one(n, || {
        format!("unprocessed phase {phase:?} of game #{game_id}")
    })
}

/// A fingerprint per active game (by id) of everything the clock reads:
/// the game's row, its current phase's row, its seats, and the orders of
/// its unprocessed phase. Equal fingerprints at two moments mean that none
/// of it changed in between, so the clock may trust what it concluded at
/// the first (`game::tick::TickCache`). Every column takes part, so a
/// column added later is covered without changing this.
pub fn clock_fingerprints(conn: &Connection) -> Result<std::collections::HashMap<i64, u64>> {
    use std::collections::hash_map::DefaultHasher;
    use std::collections::HashMap;
    use std::hash::{Hash, Hasher};

    use rusqlite::types::ValueRef;

    // The first column is the game's id; the first query names the games.
    // Rows come in the order of an index (no sorting): a stable order.
    const QUERIES: [&str; 4] = [
        "SELECT g.id, g.* FROM games g WHERE g.state = 'active'",
        "SELECT p.game_id, p.* FROM phases p JOIN games g ON g.id = p.game_id \
         WHERE g.state = 'active' \
           AND p.seq = (SELECT max(q.seq) FROM phases q WHERE q.game_id = p.game_id)",
        "SELECT s.game_id, s.* FROM seats s JOIN games g ON g.id = s.game_id \
         WHERE g.state = 'active' ORDER BY s.game_id, s.power, s.id",
        "SELECT o.game_id, o.* FROM orders o \
         JOIN phases p ON p.game_id = o.game_id AND p.phase = o.phase \
         JOIN games g ON g.id = o.game_id \
         WHERE g.state = 'active' AND p.processed_at IS NULL \
         ORDER BY o.game_id, o.phase, o.power, o.unit",
    ];
    let mut hashers: HashMap<i64, DefaultHasher> = HashMap::new();
    for (table, sql) in QUERIES.iter().enumerate() {
        let mut stmt = conn.prepare_cached(sql)?;
        let columns = stmt.column_count();
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            let id: i64 = row.get(0)?;
            let h = if table == 0 {
                hashers.entry(id).or_default()
            } else {
                match hashers.get_mut(&id) {
                    Some(h) => h,
                    None => continue,
                }
            };
            table.hash(h);
            for c in 1..columns {
                match row.get_ref(c)? {
                    ValueRef::Null => 0u8.hash(h),
                    ValueRef::Integer(v) => (1u8, v).hash(h),
                    ValueRef::Real(v) => (2u8, v.to_bits()).hash(h),
                    ValueRef::Text(v) => (3u8, v).hash(h),
                    ValueRef::Blob(v) => (4u8, v).hash(h),
                }
            }
        }
    }
    Ok(hashers
        .into_iter()
        .map(|(id, h)| (id, h.finish()))
        .collect())
}

/// A value that changes whenever anything is written to the database:
/// `PRAGMA data_version` (moves when another connection commits) with this
/// connection's own count of changed rows. Equal values at two moments on
/// the same connection mean that nothing was written in between.
pub fn change_counter(conn: &Connection) -> Result<(i64, u64)> {
    let version: i64 = conn.pragma_query_value(None, "data_version", |r| r.get(0))?;
    Ok((version, conn.total_changes()))
}

/// Rolls a game back to the start of `phase`: later phases and their
/// orders go, the phase is unprocessed again and its orders cleared, and
/// seat history opened after it is undone. How many phases were removed.
pub fn rollback_to(conn: &Connection, game_id: i64, phase: &str) -> Result<usize> {
    let seq: i64 = conn
        .query_row(
            "SELECT seq FROM phases WHERE game_id = ?1 AND phase = ?2",
            params![game_id, phase],
            |r| r.get(0),
        )
        .optional()?
        .ok_or_else(|| super::StoreError::NotFound(format!("phase {phase}")))?;
    conn.execute(
        "DELETE FROM orders WHERE game_id = ?1 AND phase IN \
         (SELECT phase FROM phases WHERE game_id = ?1 AND seq >= ?2)",
        params![game_id, seq],
    )?;
    let removed = conn.execute(
        "DELETE FROM phases WHERE game_id = ?1 AND seq > ?2",
        params![game_id, seq],
    )?;
    conn.execute(
        "UPDATE phases SET processed_at = NULL, results = NULL, reminded_at = NULL, \
         late_notice_at = NULL WHERE game_id = ?1 AND seq = ?2",
        params![game_id, seq],
    )?;
    Ok(removed)
}

/// Records that the phase's reminder went out.
pub fn set_reminded(conn: &Connection, phase_id: i64, now: i64) -> Result<()> {
    let n = conn.execute(
        "UPDATE phases SET reminded_at = ?2 WHERE id = ?1",
        params![phase_id, now],
    )?;
    expect_one(n, || format!("phase {phase_id}"))
}

/// Records that late notices went out for the phase.
pub fn set_late_notice(conn: &Connection, phase_id: i64, now: i64) -> Result<()> {
    let n = conn.execute(
        "UPDATE phases SET late_notice_at = ?2 WHERE id = ?1",
        params![phase_id, now],
    )?;
    expect_one(n, || format!("phase {phase_id}"))
}

/// When the last order of a phase came in (None: no orders).
pub fn last_order_at(conn: &Connection, game_id: i64, phase: &str) -> Result<Option<i64>> {
    Ok(conn
        .prepare_cached("SELECT max(received_at) FROM orders WHERE game_id = ?1 AND phase = ?2")?
        .query_row(params![game_id, phase], |r| r.get(0))?)
}

/// A value of the judge's own bookkeeping.
pub fn meta_get(conn: &Connection, key: &str) -> Result<Option<String>> {
    Ok(conn
        .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
        .optional()?)
}

pub fn meta_set(conn: &Connection, key: &str, value: &str) -> Result<()> {
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?1, ?2) \
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        params![key, value],
    )?;
    Ok(())
}
