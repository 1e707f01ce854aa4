//! A game at a glance, for a Master who runs several (LIST MINE): its
//! phase, deadline, the centres each power holds, and the powers whose
//! orders the phase still waits for.

use rusqlite::Connection;

use super::order_entry::power_orders;
use super::orders::{completeness, Completeness};
use super::{current, power_of, Game, SeatStatus, StoreError};
use crate::engine::map::{Map, Power};
use crate::store;

/// A started game's current phase at a glance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overview {
    pub phase: String,
    pub deadline: Option<i64>,
    /// The powers that hold centres, with how many, in the map's order.
    pub centres: Vec<(Power, usize)>,
    /// The powers played and not in civil disorder whose orders are not
    /// complete (what the clock would call late at the deadline).
    pub owing: Vec<Power>,
}

/// The game's overview; None before it starts.
pub fn overview(conn: &Connection, game: &Game) -> Result<Option<Overview>, StoreError> {
    let Some(cur) = current(conn, game.id)? else {
        return Ok(None);
    };
    let map = Map::standard();
    let position = &cur.position;
    let centres = Power::ALL
        .into_iter()
        .map(|power| {
            let held = map
                .supply_centres()
                .filter(|&p| position.owner(p) == Some(power))
                .count();
            (power, held)
        })
        .filter(|&(_, held)| held > 0)
        .collect();
    let mut owing = Vec::new();
    for seat in store::seats::seats_of_game(conn, game.id)? {
        let waited_for = matches!(seat.status, SeatStatus::Active | SeatStatus::Late);
        let Some(power) = power_of(&seat).filter(|_| waited_for) else {
            continue;
        };
        let orders = power_orders(conn, game.id, &cur.record.phase, position, power)?;
        if let Completeness::Missing(_) = completeness(map, position, power, &orders) {
            owing.push(power);
        }
    }
    owing.sort_by_key(|p| Power::ALL.iter().position(|q| q == p));
    Ok(Some(Overview {
        phase: cur.record.phase,
        deadline: cur.record.deadline,
        centres,
        owing,
    }))
}
