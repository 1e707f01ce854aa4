//! A power left without a player (ejected, resigned, or abandoned at the
//! end of grace) and taken over by a newcomer the Master approved (SET
//! TAKEOVER <power> <address>), or anyone when the game is open to
//! takeovers (SET TAKEOVER ON). The front end reads the sign-on and words
//! the replies; this is what happens.

use rusqlite::Connection;

use super::clock::format_time;
use super::deadline::refresh_deadline;
use super::settings::{self, GameSettings};
use super::{current, everyone, power_of, settings_of, Game, GameMail, Seat, SeatStatus};
use crate::engine::map::Power;
use crate::report::{game_subject, title};
use crate::say;
use crate::store::{self, StoreError};

/// Whether the seat has nobody: its player was ejected or resigned. The
/// old password opens nothing; only a newcomer signs on to it.
pub fn vacant(seat: &Seat) -> bool {
    seat.power.is_some()
        && (seat.address == store::seats::VACANT || seat.status == SeatStatus::Resigned)
}

/// Whether a newcomer may take the seat over: it has nobody, or its
/// player left it (abandoned at the end of grace).
pub fn waiting(seat: &Seat) -> bool {
    vacant(seat) || (seat.power.is_some() && seat.status == SeatStatus::Abandoned)
}

/// The powers of `game` waiting for a player.
pub fn waiting_powers(conn: &Connection, game: &Game) -> Result<Vec<Power>, StoreError> {
    Ok(store::seats::seats_of_game(conn, game.id)?
        .iter()
        .filter(|seat| waiting(seat))
        .filter_map(power_of)
        .collect())
}

/// The power `address` plays in `game`, if any: a player takes over no
/// second power.
pub fn plays_in(
    conn: &Connection,
    game: &Game,
    address: &str,
) -> Result<Option<Power>, StoreError> {
    Ok(store::seats::seats_of_game(conn, game.id)?
        .iter()
        .filter(|seat| seat.address.eq_ignore_ascii_case(address) && !vacant(seat))
        .filter(|seat| seat.status != SeatStatus::Eliminated)
        .find_map(power_of))
}

/// Whether the game lets `address` take over `power`.
pub fn approved(settings: &GameSettings, power: Power, address: &str) -> bool {
    settings.takeovers
        || settings
            .approved
            .get(power.upper())
            .is_some_and(|a| a.eq_ignore_ascii_case(address))
}

/// The sign-on that takes `power` of `game` over.
pub fn sign_on_line(power: Power, game: &str) -> String {
    format!("SIGNON {}{game} <password>", power.initial())
}

/// How a newcomer takes `power` over, in one sentence.
pub fn how_to(conn: &Connection, game: &Game, power: Power) -> Result<String, StoreError> {
    let settings = settings_of(&reload(conn, game)?)?;
    Ok(
        say!("takeover.how_to", power => power.name(), open => settings.takeovers,
            sign_on => sign_on_line(power, &game.name)),
    )
}

/// Whether `address` may take `seat` (of `power`) over now.
#[derive(Debug, PartialEq, Eq)]
pub enum Eligibility {
    /// Approved (or the game is open), and playing nothing else in it.
    Approved,
    /// Approved, but already playing this power of the game.
    PlaysAlready(Power),
    /// Not approved, or the seat's own address.
    NotApproved,
}

/// Whether `address` may take `seat`, waiting for a player, over.
pub fn eligibility(
    conn: &Connection,
    game: &Game,
    seat: &Seat,
    power: Power,
    address: &str,
) -> Result<Eligibility, StoreError> {
    let settings = settings_of(&reload(conn, game)?)?;
    if !approved(&settings, power, address) || seat.address.eq_ignore_ascii_case(address) {
        return Ok(Eligibility::NotApproved);
    }
    Ok(match plays_in(conn, game, address)? {
        Some(own) => Eligibility::PlaysAlready(own),
        None => Eligibility::Approved,
    })
}

/// A seat taken over: the seat as it is now, and the others' notice.
#[derive(Debug)]
pub struct TakenOver {
    pub seat: Seat,
    pub power: Power,
    pub mails: Vec<GameMail>,
}

/// `address` takes `open` over with `password` in `phase`: a fresh
/// deadline, the approval used up, everyone else told.
pub fn take_over(
    conn: &Connection,
    code: &str,
    game: &Game,
    open: &Seat,
    (address, password): (&str, &str),
    phase: &str,
    now: i64,
) -> Result<TakenOver, StoreError> {
    let power = power_of(open).ok_or_else(|| StoreError::NotFound("the seat's power".into()))?;
    let hash = store::password::hash_password(password)?;
    store::seats::replace_player(conn, open.id, address, &hash, phase)?;
    let mut settings = settings_of(&reload(conn, game)?)?;
    if settings.approved.remove(power.upper()).is_some() {
        settings::save(conn, game.id, &settings)?;
    }
    refresh_deadline(conn, game, now)?;
    let seat = store::seats::seat_by_id(conn, open.id)?
        .ok_or_else(|| StoreError::NotFound(format!("seat #{}", open.id)))?;
    let mut mails = Vec::new();
    if let Some(cur) = current(conn, game.id)? {
        let mut to = everyone(conn, game)?;
        to.retain(|a| !a.eq_ignore_ascii_case(address));
        let what = format!("{} {}", title::NEW_PLAYER_FOR, power.name());
        let deadline = cur.record.deadline.map(format_time).unwrap_or_default();
        mails.push(GameMail {
            to,
            subject: game_subject(code, &game.name, Some(&cur.record.phase), &what),
            body: say!("takeover.new_player_notice", power => power.name(), game => &game.name,
                       phase => &cur.record.phase, deadline)
                + "\n",
            game_id: game.id,
            results_of: None,
            ends_game: false,
        });
    }
    Ok(TakenOver { seat, power, mails })
}

/// What SET TAKEOVER changes of who may take over.
#[derive(Debug, Clone, Copy)]
pub enum Policy {
    /// Anyone may take over a power waiting for a player (ON).
    Open,
    /// Only approved addresses (OFF).
    Closed,
    /// Nobody is approved for this power any more.
    Withdraw(Power),
}

/// SET TAKEOVER ON, OFF, or <power> OFF.
pub fn set_policy(conn: &Connection, game: &Game, policy: Policy) -> Result<(), StoreError> {
    let mut settings = settings_of(&reload(conn, game)?)?;
    match policy {
        Policy::Open => settings.takeovers = true,
        Policy::Closed => settings.takeovers = false,
        Policy::Withdraw(power) => {
            settings.approved.remove(power.upper());
        }
    }
    settings::save(conn, game.id, &settings)?;
    Ok(())
}

/// What became of an approval.
#[derive(Debug, PartialEq, Eq)]
pub enum Approval {
    /// Stored: the address may take the power over.
    Approved,
    /// The power has a player.
    NotWaiting,
    /// The address plays this power of the game already.
    PlaysAlready(Power),
}

/// SET TAKEOVER <power> <address>: `address` may take `power` over.
pub fn approve(
    conn: &Connection,
    game: &Game,
    power: Power,
    address: &str,
) -> Result<Approval, StoreError> {
    let seat = store::seats::seat_by_power(conn, game.id, power.upper())?;
    if !seat.as_ref().is_some_and(waiting) {
        return Ok(Approval::NotWaiting);
    }
    if let Some(own) = plays_in(conn, game, address)? {
        return Ok(Approval::PlaysAlready(own));
    }
    let mut settings = settings_of(&reload(conn, game)?)?;
    settings
        .approved
        .insert(power.upper().to_string(), address.to_string());
    settings::save(conn, game.id, &settings)?;
    Ok(Approval::Approved)
}

/// The player of `seat` leaves every country they play (EJECT, RESIGN):
/// nobody's password opens them now, and no mail goes to the player.
/// Their pre-orders go too: they were that player's plans, and a new
/// player (or civil disorder) must not carry them out. The countries, and
/// their names in words.
pub fn vacate_player(
    conn: &Connection,
    game: &Game,
    seat: &Seat,
    status: SeatStatus,
) -> Result<(Vec<Power>, String), StoreError> {
    let phase = current(conn, game.id)?
        .map(|c| c.record.phase)
        .unwrap_or_default();
    let powers = super::bloc_powers(conn, seat)?;
    let names: Vec<&str> = powers.iter().map(|p| p.name()).collect();
    let names = super::process::join_names(&names);
    for id in store::seats::player_seat_ids(conn, seat.id)? {
        store::seats::vacate_seat(conn, id, &phase, status)?;
    }
    for p in &powers {
        store::preorders::delete_preorders_of_power(conn, game.id, p.upper())?;
    }
    Ok((powers, names))
}

/// The game as it stands now (earlier lines of the mail may have changed it).
fn reload(conn: &Connection, game: &Game) -> Result<Game, StoreError> {
    Ok(store::games::game_by_id(conn, game.id)?.unwrap_or_else(|| game.clone()))
}
