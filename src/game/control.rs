//! The Master's hold on a game's course: PAUSE, RESUME, TERMINATE. The
//! front end authorises and words the replies; this is what happens, and
//! the notice the whole game gets.

use rusqlite::Connection;

use super::clock::format_time;
use super::deadline::refresh_deadline;
use super::preorders::enter_preorders;
use super::standings::{players, standings, table, verdict};
use super::{announce, current, settings_of, Game, GameMail, GameState, StoreError};
use crate::report::{game_subject, title};
use crate::say;
use crate::store;

/// What became of a PAUSE, RESUME or TERMINATE.
#[derive(Debug)]
pub enum Controlled {
    /// Done: `notice` is what everyone was told (the Master's reply too).
    Done {
        notice: String,
        mails: Vec<GameMail>,
    },
    /// The game is in no state for it (`state`, as stored).
    Refused { state: GameState },
}

/// PAUSE (`pause`) or RESUME: an active game stops its clock, a paused one
/// starts it again with a fresh deadline (the pause may have eaten the
/// old one).
pub fn pause_or_resume(
    conn: &Connection,
    code: &str,
    game: &Game,
    pause: bool,
    now: i64,
) -> Result<Controlled, StoreError> {
    let (from, to, word) = if pause {
        (GameState::Active, GameState::Paused, title::PAUSED)
    } else {
        (GameState::Paused, GameState::Active, title::RESUMED)
    };
    if game.state != from {
        return Ok(Controlled::Refused { state: game.state });
    }
    store::games::set_game_state(conn, game.id, to, now)?;
    let deadline = if pause {
        None
    } else {
        refresh_deadline(conn, game, now)?
    };
    let notice = say!("master.paused_or_resumed", game => &game.name, word,
        phase => deadline.as_ref().map(|d| d.0.clone()),
        deadline => deadline.map(|d| format_time(d.1)));
    let mails = vec![notice_to_all(conn, code, game, word, &notice, now)?];
    Ok(Controlled::Done { notice, mails })
}

/// TERMINATE: the game ends without a result; its pre-orders are dropped
/// and their players told, as when processing ends a game. The first of
/// the mails is the notice to everyone (the one to carry the game's
/// animated summary).
pub fn terminate(
    conn: &Connection,
    code: &str,
    game: &Game,
    now: i64,
) -> Result<Controlled, StoreError> {
    if game.state.is_over() {
        return Ok(Controlled::Refused { state: game.state });
    }
    let summary = say!("master.terminated_summary");
    store::games::end_game(
        conn,
        game.id,
        GameState::Terminated,
        &serde_json::json!({ "summary": summary }).to_string(),
        now,
    )?;
    if let Some(cur) = current(conn, game.id)? {
        store::seats::close_seat_history(conn, game.id, &cur.record.phase)?;
    }
    let dropped = enter_preorders(conn, code, game, true, now)?;
    let notice = say!("master.terminated", game => &game.name,
                      standings => standings_now(conn, game)?);
    let mut end = notice_to_all(conn, code, game, title::GAME_TERMINATED, &notice, now)?;
    end.ends_game = true;
    let mut mails = vec![end];
    mails.extend(dropped);
    Ok(Controlled::Done { notice, mails })
}

/// Who leads and every player's centres and pieces, by the game's
/// measure (SET END ... BY), as the game stands; None before it started.
fn standings_now(conn: &Connection, game: &Game) -> Result<Option<String>, StoreError> {
    let Some(cur) = current(conn, game.id)? else {
        return Ok(None);
    };
    let by = settings_of(game)?.win_by;
    let seats = store::seats::seats_of_game(conn, game.id)?;
    let rows = standings(&cur.position, &players(&seats), by);
    if rows.is_empty() {
        return Ok(None);
    }
    Ok(Some(format!(
        "{}.\n\n{}",
        verdict(&rows, by, true),
        table(&rows, by)
    )))
}

/// A notice to the whole game about `what` (the subject's last words),
/// archived as given; its mail ends with a newline.
pub fn notice_to_all(
    conn: &Connection,
    code: &str,
    game: &Game,
    what: &str,
    text: &str,
    now: i64,
) -> Result<GameMail, StoreError> {
    let phase = current(conn, game.id)?.map(|c| c.record.phase);
    let subject = game_subject(code, &game.name, phase.as_deref(), what);
    let mut mail = announce(conn, game, phase.as_deref(), subject, text.to_string(), now)?;
    mail.body.push('\n');
    Ok(mail)
}
