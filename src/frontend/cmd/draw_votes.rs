//! Draws: SET DRAW [<powers>] and SET NODRAW for players; SET DIAS and
//! SET NODIAS for the Master (a draw of all survivors, or of the powers
//! the votes name). A vote counts for the phase it is given in.

use super::master_game;
use super::settings_change::{announce, save_settings, Change};
use crate::engine::map::Power;
use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::draw_votes::{encode, in_order, Vote};
use crate::game::{current, settings_of, GameSettings};
use crate::store::{self, games::Game, seats::Seat, StoreError};

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
        store::seats::set_seat_draw(s.tx, seat.id, None)?;
        s.reply.ok(line, "Your draw vote is withdrawn.");
        return Ok(());
    }
    let vote = match read_vote(s, &game, rest)? {
        Ok(vote) => vote,
        Err(why) => {
            s.reply.refuse(line, why);
            return Ok(());
        }
    };
    store::seats::set_seat_draw(s.tx, seat.id, Some(&encode(&vote)))?;
    let what = match &vote {
        Vote::All => "a draw including all survivors".to_string(),
        Vote::Powers(powers) => format!("a draw between {}", names(powers)),
    };
    let parts = match &vote {
        Vote::Powers(_) => {
            " It approves any part of the list that includes you (any part at all, with \
             or without you, if you left yourself out); of the draws every survivor \
             approves, the largest passes."
        }
        Vote::All => "",
    };
    s.reply.ok(
        line,
        format!(
            "Your vote for {what} is recorded (secret until it passes). It counts for \
             this phase: if every surviving power approves the draw when the phase is \
             processed, the game ends in it; then the votes are cleared, as in njudge \
             (vote again in the next phase). SET NODRAW withdraws it.{parts}"
        ),
    );
    Ok(())
}

/// The vote `rest` asks for, or why it cannot be given.
fn read_vote(s: &Session<'_>, game: &Game, rest: &str) -> Result<Result<Vote, String>, StoreError> {
    if rest.trim().is_empty() {
        return Ok(Ok(Vote::All));
    }
    let settings: GameSettings = settings_of(game)?;
    if !settings.nodias {
        return Ok(Err(format!(
            "'{}' draws by DIAS: a draw includes all survivors, so no powers are named. \
             Write SET DRAW. (The Master can allow draws of named powers with SET NODIAS.)",
            game.name
        )));
    }
    let Some(powers) = parse_powers(rest) else {
        return Ok(Err(format!(
            "'{}' is not a list of powers. Write SET DRAW <powers>, e.g. SET DRAW EFR or \
             SET DRAW England France Russia.",
            rest.trim()
        )));
    };
    if powers.len() < 2 {
        return Ok(Err(format!(
            "A draw needs two powers or more: to give the game to {} write SET CONCEDE {}.",
            names(&powers),
            names(&powers)
        )));
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
        return Ok(Err(format!(
            "{} no longer in the game: a draw can include only surviving powers.",
            match gone.len() {
                1 => format!("{} is", names(&gone)),
                _ => format!("{} are", names(&gone)),
            }
        )));
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
    s.reply.refuse(
        line,
        "SET DRAW needs a sign-on as a player first: SIGNON <initial><game> <password>.",
    );
    None
}

/// SET DIAS (`dias`) or SET NODIAS, for the Master.
pub fn master_dias(s: &mut Session<'_>, line: &Line, dias: bool) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    let game = store::games::game_by_id(s.tx, game.id)?.unwrap_or(game);
    let mut settings: GameSettings = settings_of(&game)?;
    settings.nodias = !dias;
    save_settings(s, &game, &settings)?;
    let said = if dias {
        "Draws are DIAS: a draw includes all survivors (SET DRAW)."
    } else {
        "Draws name their powers: a draw passes when every survivor votes for the same \
         powers (SET DRAW <powers>; SET DRAW alone: all survivors)."
    };
    s.reply.ok(line, said);
    announce(s, &game, Change::Setting, said.to_string())
}
