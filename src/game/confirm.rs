//! Addresses named by someone else (SET ADDRESS, a takeover's approval):
//! asked to confirm, at most once a day, before the judge mails them
//! anything else; CONFIRM <token> answers, and the address joins the
//! teams that listed it (`teams`).

use rusqlite::Connection;

use super::teams::Joined;
use super::{power_of, Seat};
use crate::store::{self, StoreError};

/// Whether `address` has said it wants the judge's mail (signed on from
/// it, or confirmed it).
pub fn address_confirmed(conn: &Connection, address: &str) -> Result<bool, StoreError> {
    store::throttle::address_confirmed(conn, address)
}

/// The token to send, and whether to mail it now (not if one went today).
pub use crate::store::throttle::ConfirmationRequest as Request;

/// `named_by` names `address` (for `seat_id`, whose address it becomes on
/// confirmation); `fresh_token` is used unless one was sent today.
pub fn request(
    conn: &Connection,
    address: &str,
    named_by: &str,
    seat_id: Option<i64>,
    fresh_token: &str,
    now: i64,
) -> Result<Request, StoreError> {
    store::throttle::request_confirmation(conn, address, named_by, seat_id, fresh_token, now)
}

/// What a CONFIRM did.
#[derive(Debug)]
pub enum Confirmed {
    /// No confirmation waits for the token.
    Unknown,
    /// The address gets the judge's mail from now on.
    Address { address: String },
    /// ... and plays with the teams that listed it (SET ADDRESS a, b, c).
    Teams {
        address: String,
        joined: Vec<Joined>,
    },
    /// ... and is now the address of record of a seat, which had
    /// `old`; the seat's power and game, named.
    Seat {
        address: String,
        old: String,
        power: String,
        game: String,
    },
}

/// CONFIRM <token>: the address the token went to is confirmed, and
/// joins every team that lists it. (A request from before teams makes it
/// the address of the seat it was named for, while the seat is still
/// held by the player who named it and has no list; the time zone, SET
/// ZONE, goes with it.)
pub fn confirm(conn: &Connection, token: &str, now: i64) -> Result<Confirmed, StoreError> {
    let Some(confirmed) = store::throttle::confirm_token(conn, token, now)? else {
        return Ok(Confirmed::Unknown);
    };
    let address = confirmed.address;
    let joined = super::teams::member_confirmed(conn, &address, now)?;
    if !joined.is_empty() {
        return Ok(Confirmed::Teams { address, joined });
    }
    // A request made before teams (no list for the seat): the address
    // replaces the one of record.
    let seat = match confirmed.seat_id {
        Some(id) => store::seats::seat_by_id(conn, id)?,
        None => None,
    };
    let named_by = confirmed.named_by;
    let still_theirs =
        |seat: &Seat| seat.power.is_some() && seat.address.eq_ignore_ascii_case(&named_by);
    let Some(seat) = seat.filter(still_theirs) else {
        return Ok(Confirmed::Address { address });
    };
    if !store::teams::members(conn, seat.id)?.is_empty() {
        return Ok(Confirmed::Address { address });
    }
    store::seats::set_player_address(conn, seat.id, &address)?;
    store::zones::carry_zone(conn, &seat.address, &address)?;
    let game = store::games::game_by_id(conn, seat.game_id)?;
    Ok(Confirmed::Seat {
        power: power_of(&seat).map_or("", |p| p.name()).to_string(),
        game: game.map(|g| g.name).unwrap_or_default(),
        old: seat.address,
        address,
    })
}
