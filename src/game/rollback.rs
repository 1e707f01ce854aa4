//! ROLLBACK: the Master takes a game back to the start of one of its
//! phases. The later phases are removed, every pre-order is dropped (it
//! was written for a course now undone), powers eliminated since are back
//! and the phase gets a fresh deadline; the whole game is told.

use rusqlite::Connection;

use super::clock::format_time;
use super::control::notice_to_all;
use super::deadline::deadline_for;
use super::process::schedule_for;
use super::{position_of, power_of, settings_of, Game, GameMail, GameState, SeatStatus};
use crate::report::title;
use crate::say;
use crate::store::{self, StoreError};

/// What became of a ROLLBACK.
#[derive(Debug)]
pub enum RolledBack {
    /// Done: `notice` is what everyone was told (the Master's reply too).
    Done {
        notice: String,
        mails: Vec<GameMail>,
    },
    /// The game has no phase of that name.
    NoSuchPhase { phase: String },
    /// No phase given, and none has been processed yet.
    NothingProcessed,
}

/// The names of the game's phases, first to last.
pub fn phase_names(conn: &Connection, game: &Game) -> Result<Vec<String>, StoreError> {
    Ok(store::phases::phases_of_game(conn, game.id)?
        .into_iter()
        .map(|r| r.phase)
        .collect())
}

/// Rolls `game` back to the start of `phase`, or without one to the start
/// of its last processed phase.
pub fn roll_back(
    conn: &Connection,
    code: &str,
    game: &Game,
    phase: Option<&str>,
    now: i64,
) -> Result<RolledBack, StoreError> {
    let phases = store::phases::phases_of_game(conn, game.id)?;
    let target = match phase {
        Some(p) => phases.iter().find(|r| r.phase.eq_ignore_ascii_case(p)),
        None => phases.iter().rev().find(|r| r.is_processed()),
    };
    let Some(target) = target.cloned() else {
        return Ok(match phase {
            Some(p) => RolledBack::NoSuchPhase {
                phase: p.to_string(),
            },
            None => RolledBack::NothingProcessed,
        });
    };
    let removed = store::phases::rollback_to(conn, game.id, &target.phase)?;
    let dropped = store::preorders::delete_preorders_of_game(conn, game.id)?;
    if game.state.is_over() {
        store::games::set_game_state(conn, game.id, GameState::Active, now)?;
    }
    let position = position_of(&target)?;
    // Powers eliminated in the phases undone are back in the game.
    for seat in store::seats::seats_of_game(conn, game.id)? {
        if seat.status != SeatStatus::Eliminated {
            continue;
        }
        if let Some(p) = power_of(&seat) {
            if position.unit_count(p) > 0 || position.centre_count(p) > 0 {
                store::seats::set_seat_status(conn, seat.id, SeatStatus::Active)?;
            }
        }
    }
    let settings = settings_of(game)?;
    let schedule = schedule_for(&settings, position.phase.kind);
    let (deadline, grace) = deadline_for(conn, game.id, schedule, now)?;
    store::phases::set_deadline(conn, game.id, &target.phase, Some(deadline), Some(grace))?;
    let notice = say!("master.rolled_back", game => &game.name, phase => &target.phase,
        removed, deadline => format_time(deadline), dropped);
    let mails = vec![notice_to_all(
        conn,
        code,
        game,
        title::ROLLBACK,
        &notice,
        now,
    )?];
    Ok(RolledBack::Done { notice, mails })
}
