//! EJECT: the Master removes a player from every country they play. The
//! player gets no more mail and their password opens nothing; the game
//! hears that the countries wait for a new player, and how one takes them
//! over; nothing is processed early for it.

use rusqlite::Connection;

use super::control::notice_to_all;
use super::takeover::{how_to, vacant, vacate_player};
use super::{settings_of, Game, GameMail, Seat, SeatStatus, StoreError};
use crate::report::{game_subject, title};
use crate::say;

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
    // The team is told before the seat forgets it.
    let team = super::teams::addresses(conn, seat)?;
    let (powers, names) = vacate_player(conn, game, seat, SeatStatus::Abandoned)?;
    let mut mails = vec![GameMail {
        to: team,
        subject: game_subject(code, &game.name, None, title::REMOVED),
        body: say!("master.ejected_player", game => &game.name, names => &names) + "\n",
        game_id: game.id,
        results_of: None,
        ends_game: false,
    }];
    let mut how = Vec::new();
    for &p in &powers {
        how.push(how_to(conn, game, p)?);
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
