//! Who follows a game without playing it: observers who joined with
//! OBSERVE and a password, and addresses the Master named (SET OBSERVER
//! <address>, such as a class's list), which have no password and get
//! nothing until they confirm they want the judge's mail. Both get what
//! goes to the whole game (the start, results, press to everyone, notices,
//! the end), never press to some powers nor orders before they are
//! processed.

use rusqlite::Connection;

use super::{Game, StoreError};
use crate::store;

/// The observers' addresses that get the game's mail: those who joined,
/// and the named ones that confirmed.
pub fn mailed(conn: &Connection, game_id: i64) -> Result<Vec<String>, StoreError> {
    let mut to: Vec<String> = store::seats::observers_of_game(conn, game_id)?
        .into_iter()
        .map(|o| o.address)
        .collect();
    for address in store::seats::named_observers_of_game(conn, game_id)? {
        let twice = to.iter().any(|a| a.eq_ignore_ascii_case(&address));
        if !twice && store::throttle::address_confirmed(conn, &address)? {
            to.push(address);
        }
    }
    Ok(to)
}

/// What naming an observer did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Named {
    /// Added; it is mailed from now on.
    Added,
    /// Added; it must confirm first.
    AddedUnconfirmed,
    /// It observed the game already.
    Already,
}

/// SET OBSERVER <address>: the Master names `address` an observer of `game`.
pub fn name(conn: &Connection, game: &Game, address: &str, now: i64) -> Result<Named, StoreError> {
    let joined = store::seats::observer_by_address(conn, game.id, address)?.is_some();
    if joined || !store::seats::add_named_observer(conn, game.id, address, now)? {
        return Ok(Named::Already);
    }
    Ok(if store::throttle::address_confirmed(conn, address)? {
        Named::Added
    } else {
        Named::AddedUnconfirmed
    })
}

/// SET NO OBSERVER <address>, or UNOBSERVE from it: the address no
/// longer observes `game`, however it came to; whether it did.
pub fn remove(conn: &Connection, game: &Game, address: &str) -> Result<bool, StoreError> {
    let joined = store::seats::remove_observer(conn, game.id, address)?;
    let named = store::seats::remove_named_observer(conn, game.id, address)?;
    Ok(joined || named)
}

/// Everyone who observes a game, either way (confirmed or not): read
/// once for a mail to many.
pub struct Observing(Vec<String>);

impl Observing {
    pub fn of(conn: &Connection, game_id: i64) -> Result<Observing, StoreError> {
        let mut all: Vec<String> = store::seats::observers_of_game(conn, game_id)?
            .into_iter()
            .map(|o| o.address)
            .collect();
        all.extend(store::seats::named_observers_of_game(conn, game_id)?);
        Ok(Observing(all))
    }

    /// Whether `address` observes the game (addresses compared as the
    /// tables compare them: ASCII case ignored).
    pub fn includes(&self, address: &str) -> bool {
        self.0.iter().any(|a| a.eq_ignore_ascii_case(address))
    }
}

/// How many follow the game, and how many of those named by the Master
/// have not yet confirmed (LIST says so; never who).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    pub following: usize,
    pub waiting: usize,
}

pub fn count(conn: &Connection, game_id: i64) -> Result<Count, StoreError> {
    let mailed = mailed(conn, game_id)?;
    let waiting = store::seats::named_observers_of_game(conn, game_id)?
        .into_iter()
        .filter(|named| !mailed.iter().any(|a| a.eq_ignore_ascii_case(named)))
        .count();
    Ok(Count {
        following: mailed.len(),
        waiting,
    })
}
