//! A player's own settings of their seat: SET WAIT, PASSWORD, CONCEDE,
//! MAPS (SET ADDRESS is `teams`). The front end reads and answers them;
//! these store them.

use rusqlite::Connection;

use super::{Game, Seat, StoreError};
use crate::engine::map::Power;
use crate::store;

/// SET MAPS ON|OFF: whether the results mails to `address` (a player's,
/// or one of a team's) carry the map.
pub fn set_wants_maps(
    conn: &Connection,
    game: &Game,
    address: &str,
    on: bool,
) -> Result<(), StoreError> {
    store::map_opt_outs::set_wants_maps(conn, game.id, address, on)
}

/// SET WAIT / NOWAIT: whether the phase waits for the deadline.
pub fn set_wait(conn: &Connection, seat: &Seat, wait: bool) -> Result<(), StoreError> {
    store::seats::set_seat_wait(conn, seat.id, wait)
}

/// SET PASSWORD: the seat's new password (stored hashed).
pub fn set_password(conn: &Connection, seat: &Seat, new: &str) -> Result<(), StoreError> {
    let hash = store::password::hash_password(new)?;
    store::seats::set_player_password(conn, seat.id, &hash)
}

/// SET CONCEDE <power> (`Some`), or NOCONCEDE.
pub fn concede(conn: &Connection, seat: &Seat, to: Option<Power>) -> Result<(), StoreError> {
    store::seats::set_seat_concession(conn, seat.id, to.map(|p| p.upper()))
}
