//! What the front end reads of games and seats to parse and authorise a
//! mail (who is this sender, which game is named, what seat is theirs):
//! reads only; every change is an operation of its own module in `game/`.

use rusqlite::Connection;

use super::Game;
use crate::store::{self, StoreError};

/// The game named `name` (case as stored), if any.
pub fn game_by_name(conn: &Connection, name: &str) -> Result<Option<Game>, StoreError> {
    store::games::game_by_name(conn, name)
}

/// The seat of `power` in game `game_id`, if anyone has it.
pub fn seat_by_power(
    conn: &Connection,
    game_id: i64,
    power: crate::engine::map::Power,
) -> Result<Option<super::Seat>, StoreError> {
    store::seats::seat_by_power(conn, game_id, power.upper())
}

/// The seats of game `game_id`.
pub fn seats_of_game(conn: &Connection, game_id: i64) -> Result<Vec<super::Seat>, StoreError> {
    store::seats::seats_of_game(conn, game_id)
}

/// Whether `address` has said it wants the judge's mail (CONFIRM).
pub fn address_confirmed(conn: &Connection, address: &str) -> Result<bool, StoreError> {
    store::throttle::address_confirmed(conn, address)
}
