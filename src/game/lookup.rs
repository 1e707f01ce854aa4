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

/// The seat with this id, as stored now.
pub fn seat_by_id(conn: &Connection, seat_id: i64) -> Result<Option<super::Seat>, StoreError> {
    store::seats::seat_by_id(conn, seat_id)
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

/// Every game on the judge.
pub fn all_games(conn: &Connection) -> Result<Vec<Game>, StoreError> {
    store::games::list_games(conn)
}

/// The powers (upper case, as stored) with orders stored for `phase`.
pub fn powers_ordered(
    conn: &Connection,
    game_id: i64,
    phase: &str,
) -> Result<Vec<String>, StoreError> {
    let mut powers: Vec<String> = store::orders::orders_of_phase(conn, game_id, phase)?
        .into_iter()
        .map(|o| o.power)
        .collect();
    powers.dedup();
    Ok(powers)
}

/// What was sent to the whole game between `from` and `to`.
pub fn history_between(
    conn: &Connection,
    game_id: i64,
    from: i64,
    to: i64,
) -> Result<Vec<store::history::HistoryEntry>, StoreError> {
    store::history::history_between(conn, game_id, from, to)
}

/// The name of the game's phase `phase` (any case), or of its current
/// phase; None if it has no such phase (or has not started).
pub fn phase_named(
    conn: &Connection,
    game_id: i64,
    phase: Option<&str>,
) -> Result<Option<String>, StoreError> {
    let record = match phase {
        Some(p) => store::phases::phase_by_name(conn, game_id, &p.to_ascii_uppercase())?,
        None => store::phases::current_phase(conn, game_id)?,
    };
    Ok(record.map(|r| r.phase))
}
