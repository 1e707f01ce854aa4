//! Draws: SET DRAW [<powers>] and SET NODRAW for players; SET DIAS and
//! SET NODIAS for the Master (a draw of all survivors, or of the powers
//! the votes name). A vote counts for the phase it is given in.

use super::master_game;
use super::settings_change::{announce, save_settings, Change};
use crate::engine::map::Power;
use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::draw_ballot;
use crate::game::draw_votes::{in_order, Vote};
use crate::game::{self, current, settings_of, Game, GameSettings, Seat, StoreError};
use crate::say;

/// SET DRAW [<powers>] (`draw`) or SET NODRAW.
pub fn player_draw(
    s: &mut Session<'_>,
    line: &Line,
    draw: bool,
    rest: &str,
) -> Result<(), StoreError> {
    let Some((game, seat)) = player(s, line) else {
        return Ok(());
    };
    if !draw {
        draw_ballot::cast(s.tx, &seat, None)?;
        s.reply.ok(line, say!("draw.withdrawn"));
        return Ok(());
    }
    let vote = match read_vote(s, &game, rest)? {
        Ok(vote) => vote,
        Err(why) => {
            s.reply.refuse(line, why);
            return Ok(());
        }
    };
    draw_ballot::cast(s.tx, &seat, Some(&vote))?;
    let powers = match &vote {
        Vote::All => None,
        Vote::Powers(powers) => Some(names(powers)),
    };
    s.reply.ok(line, say!("draw.recorded", powers));
    Ok(())
}

/// The vote `rest` asks for, or why it cannot be given.
fn read_vote(s: &Session<'_>, game: &Game, rest: &str) -> Result<Result<Vote, String>, StoreError> {
    if rest.trim().is_empty() {
        return Ok(Ok(Vote::All));
    }
    let settings: GameSettings = settings_of(game)?;
    if !settings.nodias {
        return Ok(Err(say!("draw.dias_names_none", game => &game.name)));
    }
    let Some(powers) = parse_powers(rest) else {
        return Ok(Err(say!("draw.not_powers", text => rest.trim())));
    };
    if powers.len() < 2 {
        return Ok(Err(say!("draw.too_few", powers => names(&powers))));
    }
    let survivors = current(s.tx, game.id)?
        .map(|c| c.position.survivors())
        .unwrap_or_default();
    let gone: Vec<Power> = powers
        .iter()
        .copied()
        .filter(|p| !survivors.contains(p))
        .collect();
    if !gone.is_empty() {
        let several = gone.len() > 1;
        return Ok(Err(say!("draw.gone", powers => names(&gone), several)));
    }
    Ok(Ok(Vote::Powers(powers)))
}

/// "EFR", "E F R", "England, France, Russia": the powers, in order.
fn parse_powers(text: &str) -> Option<Vec<Power>> {
    let words: Vec<&str> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let mut powers = Vec::new();
    for word in words {
        match Power::parse(word) {
            Some(p) => powers.push(p),
            None if word.chars().all(|c| c.is_ascii_alphabetic()) => {
                for c in word.chars() {
                    powers.push(Power::from_initial(c)?);
                }
            }
            None => return None,
        }
    }
    (!powers.is_empty()).then(|| in_order(powers))
}

fn names(powers: &[Power]) -> String {
    let names: Vec<&str> = powers.iter().map(|p| p.name()).collect();
    crate::game::process::join_names(&names)
}

fn player(s: &mut Session<'_>, line: &Line) -> Option<(Game, Seat)> {
    if let Some(Signed::Player { game, seat, .. }) = &s.signed {
        return Some((game.clone(), seat.clone()));
    }
    s.reply.refuse(line, say!("draw.needs_player_sign_on"));
    None
}

/// SET DIAS (`dias`) or SET NODIAS, for the Master.
pub fn master_dias(s: &mut Session<'_>, line: &Line, dias: bool) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    let game = game::game_by_id(s.tx, game.id)?.unwrap_or(game);
    let mut settings: GameSettings = settings_of(&game)?;
    settings.nodias = !dias;
    save_settings(s, &game, &settings)?;
    let said = if dias {
        say!("draw.dias")
    } else {
        say!("draw.nodias")
    };
    s.reply.ok(line, said.clone());
    announce(s, &game, Change::Setting, said)
}
