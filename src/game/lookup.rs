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

/// An observer of a game, as stored.
pub use crate::store::seats::Observer;

/// The seat of `power` (upper case, `FRANCE`) in the game, if any.
pub fn seat_by_power(
    conn: &Connection,
    game_id: i64,
    power: &str,
) -> Result<Option<super::Seat>, StoreError> {
    store::seats::seat_by_power(conn, game_id, power)
}

/// The seats of a game, every status.
pub fn seats_of_game(conn: &Connection, game_id: i64) -> Result<Vec<super::Seat>, StoreError> {
    store::seats::seats_of_game(conn, game_id)
}

/// The observer `address` (any case) of a game, if it observes it.
pub fn observer_by_address(
    conn: &Connection,
    game_id: i64,
    address: &str,
) -> Result<Option<Observer>, StoreError> {
    store::seats::observer_by_address(conn, game_id, address)
}

/// The addresses (lower case) that SET MAPS OFF in a game: its results
/// mail goes to them without the map.
pub fn maps_opted_out(conn: &Connection, game_id: i64) -> Result<Vec<String>, StoreError> {
    store::map_opt_outs::opted_out(conn, game_id)
}
