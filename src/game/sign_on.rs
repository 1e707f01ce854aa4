//! Sign-ons (SIGNON, OBSERVE), leaving (UNOBSERVE, RESIGN), and the guard
//! on passwords against guessing: 5 failed sign-ons from one address to
//! one seat, Master or observer within an hour lock that address's tries
//! for an hour (never the owner's: the address of record, or any of a
//! team's). The front end holds the verified-password cache and words the
//! replies; this is what is kept.

use rusqlite::Connection;

use super::{current, Game, GameMail, Seat};
use crate::engine::map::Power;
use crate::report::{game_subject, title};
use crate::say;
use crate::store::{self, StoreError};

/// A stored password (argon2id), checked by the front end's cache.
pub use crate::store::password::PasswordHash;

/// Failed sign-ons within an hour that lock a sender's tries.
pub const FAILURES_TO_LOCK: i64 = store::throttle::SIGN_ON_FAILURES_TO_LOCK;

/// What a password opens, as failures are counted against it.
#[derive(Debug, Clone, Copy)]
pub enum Guarded {
    /// A seat, by id.
    Seat(i64),
    /// The Master of a game, by the game's id.
    Master(i64),
    /// An observer's place, by its id.
    Observer(i64),
}

impl Guarded {
    /// The name failures are counted under (and logged).
    pub fn target(self) -> String {
        match self {
            Guarded::Seat(id) => format!("seat:{id}"),
            Guarded::Master(id) => format!("master:{id}"),
            Guarded::Observer(id) => format!("observer:{id}"),
        }
    }
}

/// What a guarded password check came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checked {
    /// It matched (the sender's address is confirmed by it).
    Passed,
    /// The sender's tries are locked, unchecked; `told_today`: it was
    /// told so today already (and is not answered again).
    Locked { told_today: bool },
    /// It did not match; `locked_now`: this failure locked the sender's
    /// tries; `tell_owner`: the owner is to hear of it (once a day).
    Failed { locked_now: bool, tell_owner: bool },
}

/// Checks a password for `guarded` from `sender`, unless repeated
/// failures from that sender have locked its tries (the owner, `is_owner`,
/// is never locked: its tries are bounded by the mail's own limit on
/// sign-ons). `matches` checks the password against a hash.
pub fn check(
    conn: &Connection,
    guarded: Guarded,
    sender: &str,
    is_owner: bool,
    matches: impl FnOnce() -> bool,
    now: i64,
) -> Result<Checked, StoreError> {
    let target = guarded.target();
    if !is_owner {
        if let Some(lock) = store::throttle::sign_on_lock(conn, &target, sender, now)? {
            if !lock.told_today {
                store::throttle::sign_on_lock_told(conn, &target, sender, now)?;
            }
            return Ok(Checked::Locked {
                told_today: lock.told_today,
            });
        }
    }
    if matches() {
        signed_on_from(conn, sender, now)?;
        return Ok(Checked::Passed);
    }
    let failure = store::throttle::record_sign_on_failure(conn, &target, sender, now)?;
    if failure.locked {
        log::warn!(
            "{FAILURES_TO_LOCK} failed sign-ons to {target} from {sender}: its tries locked for an hour"
        );
    }
    Ok(Checked::Failed {
        locked_now: failure.locked,
        tell_owner: failure.tell_owner,
    })
}

/// A password matched from `address`: signing on from an address
/// confirms it wants the judge's mail, and it joins every team waiting
/// for it.
pub fn signed_on_from(conn: &Connection, address: &str, now: i64) -> Result<(), StoreError> {
    store::throttle::mark_address_confirmed(conn, address, now)?;
    super::teams::member_confirmed(conn, address, now)?;
    Ok(())
}

/// Every country of a player left, in disorder or late is active again
/// once the player signs on: how many were not (late only not counted).
pub fn bring_back(conn: &Connection, seat: &Seat) -> Result<usize, StoreError> {
    store::seats::bring_player_back(conn, seat.id)
}

/// OBSERVE for the first time: `address` observes `game`, `password`
/// its own from now on.
pub fn add_observer(
    conn: &Connection,
    game: &Game,
    address: &str,
    password: &str,
    now: i64,
) -> Result<(), StoreError> {
    let hash = store::password::hash_password(password)?;
    store::seats::add_observer(conn, game.id, address, &hash, now)?;
    Ok(())
}

/// UNOBSERVE: whether `address` observed `game`, having joined or been
/// named by the Master (and now does not).
pub fn unobserve(conn: &Connection, game: &Game, address: &str) -> Result<bool, StoreError> {
    super::observers::remove(conn, game, address)
}

/// What a resignation did.
#[derive(Debug)]
pub enum Resigned {
    /// A forming game's player left it before it started.
    LeftForming,
    /// The player's countries wait for a new player (their names in
    /// words); the whole game is told.
    Vacated { names: String, mails: Vec<GameMail> },
}

/// RESIGN by the player of `seat`.
pub fn resign(
    conn: &Connection,
    code: &str,
    game: &Game,
    seat: &Seat,
    now: i64,
) -> Result<Resigned, StoreError> {
    if game.state == super::GameState::Forming {
        store::seats::remove_seat(conn, seat.id)?;
        return Ok(Resigned::LeftForming);
    }
    let (powers, names) =
        super::takeover::vacate_player(conn, game, seat, super::SeatStatus::Resigned)?;
    let names = if names.is_empty() {
        say!("sign_on.your_power")
    } else {
        names
    };
    let mail = tell_game_of_resignation(conn, code, game, &powers, &names, now)?;
    Ok(Resigned::Vacated {
        names,
        mails: vec![mail],
    })
}

/// The whole game hears of a resignation (njudge), archived: who waits
/// for a new player, and how one takes over.
fn tell_game_of_resignation(
    conn: &Connection,
    code: &str,
    game: &Game,
    powers: &[Power],
    names: &str,
    now: i64,
) -> Result<GameMail, StoreError> {
    let mut how = Vec::new();
    for &p in powers {
        how.push(super::takeover::how_to(conn, game, p)?);
    }
    let text = say!("sign_on.resigned_notice", names, game => &game.name,
                    many => powers.len() > 1, how => how.join(" "));
    let phase = current(conn, game.id)?.map(|c| c.record.phase);
    let what = format!("{names} {}", title::RESIGNED);
    let subject = game_subject(code, &game.name, None, &what);
    let mut mail = super::announce(conn, game, phase.as_deref(), subject, text, now)?;
    mail.body.push('\n');
    Ok(mail)
}
