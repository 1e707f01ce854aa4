//! CLEAR: a player's orders for the current phase are taken back, in
//! every country they play; their pre-orders for later phases stay.

use rusqlite::Connection;

use super::order_entry::power_orders;
use super::{Current, Game, StoreError};
use crate::engine::map::{Map, Power};
use crate::store;

/// What CLEAR took back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cleared {
    /// The orders cleared, in full words.
    pub orders: Vec<String>,
    /// Whether pre-orders for later phases wait for these countries.
    pub preorders_stay: bool,
}

/// Clears the orders of `powers` for the current phase `cur`.
pub fn clear(
    conn: &Connection,
    game: &Game,
    cur: &Current,
    powers: &[Power],
) -> Result<Cleared, StoreError> {
    let phase = &cur.record.phase;
    let map = Map::standard();
    let mut orders = Vec::new();
    for &p in powers {
        let given = power_orders(conn, game.id, phase, &cur.position, p)?;
        orders.extend(given.iter().map(|o| o.long(map)));
        store::orders::clear_orders(conn, game.id, phase, p.upper())?;
    }
    let preorders_stay = store::preorders::preorders_of_game(conn, game.id)?
        .iter()
        .any(|pre| powers.iter().any(|q| q.upper() == pre.power));
    Ok(Cleared {
        orders,
        preorders_stay,
    })
}
