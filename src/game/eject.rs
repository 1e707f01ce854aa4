//! EJECT: the Master removes a player from every country they play. The
//! player gets no more mail and their password opens nothing; the game
//! hears that the countries wait for a new player, and how one takes them
//! over; nothing is processed early for it.

use rusqlite::Connection;

use super::control::notice_to_all;
use super::process::join_names;
use super::{bloc_powers, current, settings_of, Game, GameMail, Seat, SeatStatus};
use crate::engine::map::Power;
use crate::report::{game_subject, title};
use crate::say;
use crate::store::{self, StoreError};

/// What became of an EJECT.
#[derive(Debug)]
pub enum Ejected {
    /// Done: `notice` is what everyone was told (the Master's reply too).
    Done {
        notice: String,
        mails: Vec<GameMail>,
    },
    /// The seat has nobody to eject (vacant, eliminated, or the game over).
    NoPlayer,
}

/// Whether the seat has nobody: its player was ejected or resigned. The
/// old password opens nothing; only a newcomer signs on to it.
pub fn vacant(seat: &Seat) -> bool {
    seat.power.is_some()
        && (seat.address == store::seats::VACANT || seat.status == SeatStatus::Resigned)
}

/// EJECT of the player of `seat`.
pub fn eject(
    conn: &Connection,
    code: &str,
    game: &Game,
    seat: &Seat,
    now: i64,
) -> Result<Ejected, StoreError> {
    if vacant(seat) || game.state.is_over() || seat.status == SeatStatus::Eliminated {
        return Ok(Ejected::NoPlayer);
    }
    let (powers, names) = vacate_player(conn, game, seat, SeatStatus::Abandoned)?;
    let mut mails = vec![GameMail {
        to: vec![seat.address.clone()],
        subject: game_subject(code, &game.name, None, title::REMOVED),
        body: say!("master.ejected_player", game => &game.name, names => &names) + "\n",
        game_id: game.id,
        results_of: None,
    }];
    let mut how = Vec::new();
    for &p in &powers {
        how.push(how_to_take_over(conn, game, p)?);
    }
    let need = if powers.len() > 1 {
        title::NEED_A_PLAYER
    } else {
        title::NEEDS_A_PLAYER
    };
    let notice = say!("master.ejected", game => &game.name, names => &names,
        several => powers.len() > 1, how => how.join(" "),
        nmr => settings_of(game)?.nmr);
    let what = format!("{names} {need}");
    mails.push(notice_to_all(conn, code, game, &what, &notice, now)?);
    Ok(Ejected::Done { notice, mails })
}

/// Takes the player of `seat` out of every country they play (their
/// bloc), leaving each seat with `status`; their pre-orders are dropped.
/// The countries, and their names in a phrase.
pub fn vacate_player(
    conn: &Connection,
    game: &Game,
    seat: &Seat,
    status: SeatStatus,
) -> Result<(Vec<Power>, String), StoreError> {
    let phase = current(conn, game.id)?
        .map(|c| c.record.phase)
        .unwrap_or_default();
    let powers = bloc_powers(conn, seat)?;
    let names: Vec<&str> = powers.iter().map(|p| p.name()).collect();
    let names = join_names(&names);
    for id in store::seats::player_seat_ids(conn, seat.id)? {
        store::seats::vacate_seat(conn, id, &phase, status)?;
    }
    for p in &powers {
        store::preorders::delete_preorders_of_power(conn, game.id, p.upper())?;
    }
    Ok((powers, names))
}

/// How a newcomer takes `power` over, in one sentence.
pub fn how_to_take_over(
    conn: &Connection,
    game: &Game,
    power: Power,
) -> Result<String, StoreError> {
    let game = store::games::game_by_id(conn, game.id)?.unwrap_or_else(|| game.clone());
    let settings = settings_of(&game)?;
    Ok(
        say!("master.how_to_take_over", anyone => settings.takeovers,
        power => power.name(), initial => power.initial().to_string(), game => &game.name),
    )
}
