//! Orders: per game, phase, power and unit, the order as the player wrote it
//! and as the judge understood it. A later order for the same unit replaces
//! the earlier one.

use rusqlite::{params, Connection, Row};

use super::Result;

/// An order to store.
#[derive(Clone, Debug)]
pub struct NewOrder<'a> {
    pub game_id: i64,
    pub phase: &'a str,
    /// Upper-case power name.
    pub power: &'a str,
    /// The unit's key: its location (`PAR`, `STP`), or an adjustment slot
    /// (`BUILD:1`, `REMOVE:1`, `WAIVE:2`).
    pub unit: &'a str,
    /// As written by the player.
    pub written: &'a str,
    /// As understood (the short form, `A PAR - BUR`).
    pub understood: &'a str,
    /// The mail it came in, if any.
    pub inbound_id: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderRecord {
    pub id: i64,
    pub game_id: i64,
    pub phase: String,
    pub power: String,
    pub unit: String,
    pub written: String,
    pub understood: String,
    pub received_at: i64,
    pub inbound_id: Option<i64>,
}

const COLUMNS: &str =
    "id, game_id, phase, power, unit, written, understood, received_at, inbound_id";

fn from_row(r: &Row<'_>) -> rusqlite::Result<OrderRecord> {
    Ok(OrderRecord {
        id: r.get(0)?,
        game_id: r.get(1)?,
        phase: r.get(2)?,
        power: r.get(3)?,
        unit: r.get(4)?,
        written: r.get(5)?,
        understood: r.get(6)?,
        received_at: r.get(7)?,
        inbound_id: r.get(8)?,
    })
}

/// Stores the order, replacing any earlier order for the same unit. The
/// phase must exist (foreign key).
pub fn set_order(conn: &Connection, order: &NewOrder<'_>, now: i64) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO orders (game_id, phase, power, unit, written, understood, received_at, inbound_id) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) \
         ON CONFLICT (game_id, phase, power, unit) DO UPDATE SET \
             written = excluded.written, understood = excluded.understood, \
             received_at = excluded.received_at, inbound_id = excluded.inbound_id",
    )?
    .execute(params![
            order.game_id,
            order.phase,
            order.power,
            order.unit,
            order.written,
            order.understood,
            now,
            order.inbound_id
        ],
    )?;
    Ok(())
}

/// The power's orders in the phase, by unit.
pub fn orders_of_power(
    conn: &Connection,
    game_id: i64,
    phase: &str,
    power: &str,
) -> Result<Vec<OrderRecord>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM orders WHERE game_id = ?1 AND phase = ?2 AND power = ?3 \
         ORDER BY unit"
    ))?;
    let rows = stmt.query_map(params![game_id, phase, power], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Every order of the phase, by power and unit: what adjudication takes.
pub fn orders_of_phase(conn: &Connection, game_id: i64, phase: &str) -> Result<Vec<OrderRecord>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM orders WHERE game_id = ?1 AND phase = ?2 ORDER BY power, unit"
    ))?;
    let rows = stmt.query_map(params![game_id, phase], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Removes all the power's orders in the phase; how many there were.
pub fn clear_orders(conn: &Connection, game_id: i64, phase: &str, power: &str) -> Result<usize> {
    Ok(conn.execute(
        "DELETE FROM orders WHERE game_id = ?1 AND phase = ?2 AND power = ?3",
        params![game_id, phase, power],
    )?)
}
