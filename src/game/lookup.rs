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
