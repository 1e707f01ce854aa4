//! Pre-orders (njudge's `PHASE`): the lines a player wrote for a later
//! phase of a game, kept as written until that phase begins. A new block
//! for a phase adds to the power's earlier ones (njudge); `CLEAR` in it
//! replaces them.

use rusqlite::{params, Connection, Row};

use super::Result;

/// One stored line of pre-orders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreOrder {
    pub game_id: i64,
    /// Upper-case power name: the power signed on when it was given.
    pub power: String,
    /// The phase it is for (`F1901R`).
    pub phase: String,
    /// The line's position (from 1) among the lines stored from its
    /// `PHASE` block, not its number in the mail.
    pub line_no: i64,
    pub text: String,
    pub created_at: i64,
}

const COLUMNS: &str = "game_id, power, phase, line_no, text, created_at";

fn from_row(r: &Row<'_>) -> rusqlite::Result<PreOrder> {
    Ok(PreOrder {
        game_id: r.get(0)?,
        power: r.get(1)?,
        phase: r.get(2)?,
        line_no: r.get(3)?,
        text: r.get(4)?,
        created_at: r.get(5)?,
    })
}

/// Replaces `power`'s pre-orders for `phase` with `lines` (line number,
/// text); no lines clears them. Returns how many were there before.
pub fn replace_preorders(
    conn: &Connection,
    game_id: i64,
    power: &str,
    phase: &str,
    lines: &[(usize, String)],
    now: i64,
) -> Result<usize> {
    let before = delete_preorders(conn, game_id, power, phase)?;
    let mut insert = conn.prepare_cached(
        "INSERT INTO preorders (game_id, power, phase, line_no, text, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for (line_no, text) in lines {
        insert.execute(params![game_id, power, phase, *line_no as i64, text, now])?;
    }
    Ok(before)
}

/// Adds `lines` (texts) after `power`'s pre-orders for `phase`. Returns
/// how many were there before.
pub fn add_preorders(
    conn: &Connection,
    game_id: i64,
    power: &str,
    phase: &str,
    lines: &[String],
    now: i64,
) -> Result<usize> {
    let before: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM preorders WHERE game_id = ?1 AND power = ?2 AND phase = ?3",
        )?
        .query_row(params![game_id, power, phase], |r| r.get(0))?;
    let last: i64 = conn
        .prepare_cached(
            "SELECT coalesce(max(line_no), 0) FROM preorders \
         WHERE game_id = ?1 AND power = ?2 AND phase = ?3",
        )?
        .query_row(params![game_id, power, phase], |r| r.get(0))?;
    let mut insert = conn.prepare_cached(
        "INSERT INTO preorders (game_id, power, phase, line_no, text, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for (k, text) in lines.iter().enumerate() {
        let line_no = last + 1 + k as i64;
        insert.execute(params![game_id, power, phase, line_no, text, now])?;
    }
    Ok(usize::try_from(before).unwrap_or(0))
}

/// Every pre-order of a game, by phase, power and the order written.
pub fn preorders_of_game(conn: &Connection, game_id: i64) -> Result<Vec<PreOrder>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM preorders WHERE game_id = ?1 ORDER BY phase, power, id"
    ))?;
    let rows = stmt.query_map([game_id], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Deletes one power's pre-orders for one phase (entered or dropped).
pub fn delete_preorders(
    conn: &Connection,
    game_id: i64,
    power: &str,
    phase: &str,
) -> Result<usize> {
    Ok(conn
        .prepare_cached("DELETE FROM preorders WHERE game_id = ?1 AND power = ?2 AND phase = ?3")?
        .execute(params![game_id, power, phase])?)
}

/// Deletes every pre-order of a game; returns how many there were.
pub fn delete_preorders_of_game(conn: &Connection, game_id: i64) -> Result<usize> {
    Ok(conn
        .prepare_cached("DELETE FROM preorders WHERE game_id = ?1")?
        .execute([game_id])?)
}

/// Deletes one power's pre-orders, for every phase; returns how many
/// there were.
pub fn delete_preorders_of_power(conn: &Connection, game_id: i64, power: &str) -> Result<usize> {
    Ok(conn
        .prepare_cached("DELETE FROM preorders WHERE game_id = ?1 AND power = ?2")?
        .execute(params![game_id, power])?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn a_block_replaces_the_earlier_one_for_its_phase_only() {
        let store = Store::open_in_memory().unwrap();
        let conn = store.conn();
        conn.execute(
            "INSERT INTO games (id, name, state, created_at) VALUES (1, 'g', 'active', 0)",
            [],
        )
        .unwrap();
        let lines = |t: &[&str]| -> Vec<(usize, String)> {
            t.iter()
                .enumerate()
                .map(|(i, s)| (i + 2, s.to_string()))
                .collect()
        };
        replace_preorders(conn, 1, "FRANCE", "F1901R", &lines(&["A Par - Bur"]), 5).unwrap();
        replace_preorders(conn, 1, "FRANCE", "W1901A", &lines(&["Build A Par"]), 5).unwrap();
        let before =
            replace_preorders(conn, 1, "FRANCE", "F1901R", &lines(&["A Par - Gas"]), 6).unwrap();
        assert_eq!(before, 1);
        let texts: Vec<String> = preorders_of_game(conn, 1)
            .unwrap()
            .into_iter()
            .map(|p| format!("{} {}", p.phase, p.text))
            .collect();
        assert_eq!(texts, ["F1901R A Par - Gas", "W1901A Build A Par"]);
        assert_eq!(delete_preorders_of_power(conn, 1, "FRANCE").unwrap(), 2);
        assert!(preorders_of_game(conn, 1).unwrap().is_empty());
    }
}
