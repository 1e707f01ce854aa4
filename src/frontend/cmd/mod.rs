//! The commands of the mail language, by concept.

pub mod absence;
pub mod confirm;
pub mod create;
pub mod draw_votes;
mod end;
pub mod info;
pub mod join;
pub mod listing;
pub mod master;
pub mod njudge;
pub mod njudge_set;
pub mod observers;
pub mod orders;
pub mod overview;
pub mod preference;
pub mod preorders;
pub mod press;
pub mod set;
mod settings_change;
pub mod signon;
pub mod takeover;
pub mod team;
pub mod when;
pub mod zone;

use super::script::Line;
use super::session::{Session, Signed};
use crate::engine::map::Power;
use crate::game::{lookup, Game, Seat, StoreError};
use crate::say;

/// The lines that follow speak for this seat's player (`power` is `None`
/// until a forming game starts).
pub fn sign_on_player(s: &mut Session<'_>, game: Game, seat: Seat, power: Option<Power>) {
    s.signed = Some(Signed::Player { game, seat, power });
}

/// The address a signed-on player's own settings (SET ZONE, SET MAPS)
/// are kept for: the sender's, when it is one of the addresses playing
/// the power (a team's member has its own); else the address of record.
pub fn own_address(s: &Session<'_>, seat: &Seat) -> Result<String, StoreError> {
    let sender = s.sender();
    Ok(if crate::game::teams::plays(s.tx, seat, &sender)? {
        sender
    } else {
        seat.address.clone()
    })
}

/// The game a command names, or a refusal saying there is none.
pub fn find_game(s: &mut Session<'_>, line: &Line, name: &str) -> Result<Option<Game>, StoreError> {
    let game = lookup::game_by_name(s.tx, name)?;
    if game.is_none() {
        s.reply.refuse(line, say!("common.no_such_game", name));
    }
    Ok(game)
}

/// A game to tell about: as [`find_game`], but a private game is as if it
/// did not exist to anyone but its players, observers and Master (its
/// state is given to them only).
pub fn find_visible_game(
    s: &mut Session<'_>,
    line: &Line,
    name: &str,
) -> Result<Option<Game>, StoreError> {
    let game = lookup::game_by_name(s.tx, name)?;
    match game {
        Some(game) if visible(s, &game)? => Ok(Some(game)),
        _ => {
            s.reply.refuse(line, say!("common.no_such_game", name));
            Ok(None)
        }
    }
}

/// Whether the sender may see `game`'s state: any game that is not
/// private; a private one only by its players, observers and Master (by
/// address, or signed on to it in this mail).
pub fn visible(s: &Session<'_>, game: &Game) -> Result<bool, StoreError> {
    if !crate::game::settings_of(game)?.private {
        return Ok(true);
    }
    if s.signed.as_ref().is_some_and(|g| g.game().id == game.id) {
        return Ok(true);
    }
    let sender = s.sender();
    let is = |a: &str| a.eq_ignore_ascii_case(&sender);
    if game.master_address.as_deref().is_some_and(is)
        || lookup::observer_by_address(s.tx, game.id, &sender)?.is_some()
    {
        return Ok(true);
    }
    for seat in lookup::seats_of_game(s.tx, game.id)? {
        if crate::game::teams::plays(s.tx, &seat, &sender)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The Master's game, or a refusal.
pub fn master_game(s: &mut Session<'_>, line: &Line) -> Option<Game> {
    match &s.signed {
        Some(Signed::Master { game }) => Some(game.clone()),
        _ => {
            s.reply.refuse(line, say!("common.master_only"));
            None
        }
    }
}
