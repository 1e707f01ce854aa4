//! Teams: a power played from several addresses (a class's team of
//! students), up to [`MOST_ADDRESSES`]. `SET ADDRESS a, b, c` gives the
//! list; an address new to the judge gets one request to confirm and
//! nothing else until it answers (CONFIRM, or a sign-on from it), then
//! joins the team. Everything the power gets goes to every address of
//! the team ([`addresses`]); any of them signs on with the power's
//! password. The seat's address of record is one of them: the one named
//! in the seat's history, and the one kept while nobody listed has
//! confirmed yet.

use std::collections::HashMap;

use rusqlite::Connection;

use super::{bloc_powers, Seat};
use crate::engine::map::Power;
use crate::store::teams::Member;
use crate::store::{self, StoreError};

/// At most this many addresses play one power.
pub const MOST_ADDRESSES: usize = 10;

/// Every address the power of `seat` is played from, the address of
/// record first: where everything the power gets goes. None for a seat
/// nobody holds.
pub fn addresses(conn: &Connection, seat: &Seat) -> Result<Vec<String>, StoreError> {
    if seat.address == store::seats::VACANT {
        return Ok(Vec::new());
    }
    let mut team = vec![seat.address.clone()];
    for m in store::teams::members(conn, seat.id)? {
        if m.confirmed && !team.iter().any(|a| a.eq_ignore_ascii_case(&m.address)) {
            team.push(m.address);
        }
    }
    Ok(team)
}

/// Whether `address` plays the power of `seat` (confirmed).
pub fn plays(conn: &Connection, seat: &Seat, address: &str) -> Result<bool, StoreError> {
    Ok(addresses(conn, seat)?
        .iter()
        .any(|a| a.eq_ignore_ascii_case(address)))
}

/// The game's seat that `address` plays or is listed for (a forming
/// game's team member joining on its own).
pub fn seat_listing(
    conn: &Connection,
    game_id: i64,
    address: &str,
) -> Result<Option<Seat>, StoreError> {
    match store::teams::seats_listing(conn, game_id, address)?.first() {
        Some(&id) => store::seats::seat_by_id(conn, id),
        None => Ok(None),
    }
}

/// What SET ADDRESS made of a team.
#[derive(Debug)]
pub struct Listed {
    /// The addresses that play the power now, the address of record
    /// first.
    pub team: Vec<String>,
    /// The addresses listed that wait for their CONFIRM.
    pub waiting: Vec<String>,
    /// The addresses that played it before.
    pub before: Vec<String>,
}

/// SET ADDRESS a, b, c for the power of `seat` (and every country of its
/// player): the list replaces the team's. `known` says whether an
/// address may be mailed on the word of whoever gave the list (it
/// confirmed, or sent the list); the others wait for their CONFIRM. The
/// address of record stays if it is listed, else the first known address
/// listed takes its place; with none known, it stays until one listed
/// confirms (the player is never left without mail).
pub fn set_addresses(
    conn: &Connection,
    seat: &Seat,
    listed: &[String],
    known: impl Fn(&str) -> Result<bool, StoreError>,
    now: i64,
) -> Result<Listed, StoreError> {
    let before = addresses(conn, seat)?;
    let mut members = Vec::new();
    for address in listed {
        let confirmed = before.iter().any(|a| a.eq_ignore_ascii_case(address)) || known(address)?;
        members.push(Member {
            address: address.clone(),
            confirmed,
        });
    }
    let stays = |m: &&Member| m.confirmed && m.address.eq_ignore_ascii_case(&seat.address);
    let record = match members
        .iter()
        .find(stays)
        .or(members.iter().find(|m| m.confirmed))
    {
        Some(m) => m.address.clone(),
        None => seat.address.clone(),
    };
    let seats = store::seats::player_seat_ids(conn, seat.id)?;
    store::teams::set_members(conn, &seats, &members, now)?;
    let seat = new_record(conn, seat, &record)?;
    Ok(Listed {
        team: addresses(conn, &seat)?,
        waiting: members
            .into_iter()
            .filter(|m| !m.confirmed)
            .map(|m| m.address)
            .collect(),
        before,
    })
}

/// The seat with `record` as the address of record of every country of
/// its player; the new one takes the old one's time zone (SET ZONE)
/// unless it has its own.
fn new_record(conn: &Connection, seat: &Seat, record: &str) -> Result<Seat, StoreError> {
    if !record.eq_ignore_ascii_case(&seat.address) {
        store::seats::set_player_address(conn, seat.id, record)?;
        store::zones::carry_zone(conn, &seat.address, record)?;
    }
    store::seats::seat_by_id(conn, seat.id)?
        .ok_or_else(|| StoreError::NotFound(format!("seat #{}", seat.id)))
}

/// A team an address joined on confirming.
#[derive(Debug)]
pub struct Joined {
    pub game_id: i64,
    /// The countries the team plays (none before the start).
    pub powers: Vec<Power>,
    /// The team now, the address of record first.
    pub team: Vec<String>,
    /// The address of record this one replaced (none of the team's
    /// list had confirmed before), if it did.
    pub replaced: Option<String>,
}

/// `address` said it wants the judge's mail (CONFIRM, or a sign-on from
/// it): it joins every team that listed it. A team whose address of
/// record is no longer listed (all it listed were new) takes this one as
/// its address of record. The teams it joined.
pub fn member_confirmed(
    conn: &Connection,
    address: &str,
    now: i64,
) -> Result<Vec<Joined>, StoreError> {
    let mut joined: Vec<Joined> = Vec::new();
    let mut blocs_seen = Vec::new();
    for seat_id in store::teams::confirm_member(conn, address, now)? {
        let Some(seat) = store::seats::seat_by_id(conn, seat_id)? else {
            continue;
        };
        let bloc = seat.bloc.unwrap_or(seat.id);
        if seat.address == store::seats::VACANT || blocs_seen.contains(&bloc) {
            continue;
        }
        blocs_seen.push(bloc);
        let listed = store::teams::members(conn, seat.id)?;
        let record_listed = listed
            .iter()
            .any(|m| m.address.eq_ignore_ascii_case(&seat.address));
        let replaced = (!record_listed).then(|| seat.address.clone());
        let seat = if record_listed {
            seat
        } else {
            new_record(conn, &seat, address)?
        };
        joined.push(Joined {
            game_id: seat.game_id,
            powers: bloc_powers(conn, &seat)?,
            team: addresses(conn, &seat)?,
            replaced,
        });
    }
    Ok(joined)
}

/// How many mails a mail to `to` counts for against a sender's budget:
/// one per address, but one per team for a team's addresses (a press to
/// everyone in a class game of seven teams of three is 7 copies and the
/// Master's, not 22). Only a confirmed member counts with its team: an
/// address named by a stranger counts alone.
pub fn copies(conn: &Connection, game_id: Option<i64>, to: &[String]) -> Result<i64, StoreError> {
    let teams: HashMap<String, i64> = match game_id {
        Some(id) => store::teams::teams_of_game(conn, id)?
            .into_iter()
            .map(|(team, address)| (address.to_ascii_lowercase(), team))
            .collect(),
        None => HashMap::new(),
    };
    let mut counted: Vec<String> = Vec::new();
    for address in to {
        let address = address.to_ascii_lowercase();
        let key = match teams.get(&address) {
            Some(team) => format!("team {team}"),
            None => address,
        };
        if !counted.contains(&key) {
            counted.push(key);
        }
    }
    Ok(counted.len() as i64)
}
