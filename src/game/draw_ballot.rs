//! SET DRAW and SET NODRAW: a player's vote for a draw, stored for the
//! phase it is given in (`game::draw_votes` says what votes mean).

use rusqlite::Connection;

use super::draw_votes::{encode, Vote};
use super::{Seat, StoreError};
use crate::store;

/// Records `vote` for the seat's player, or withdraws it (`None`).
pub fn cast(conn: &Connection, seat: &Seat, vote: Option<&Vote>) -> Result<(), StoreError> {
    let encoded = vote.map(encode);
    store::seats::set_seat_draw(conn, seat.id, encoded.as_deref())
}
