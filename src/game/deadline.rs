//! A phase's deadline: its schedule, pushed past any player's absence
//! that it would fall inside.

use rusqlite::Connection;

use super::clock::deadline_after;
use super::settings::{schedule_for, GameSettings, Schedule};
use super::{current, settings_of};
use crate::store::{self, games::Game, StoreError};

/// The deadline and end of grace for a phase of game `game_id` starting
/// at `start`.
pub fn deadline_for(
    conn: &Connection,
    game_id: i64,
    schedule: &Schedule,
    start: i64,
) -> Result<(i64, i64), StoreError> {
    let absences = store::seats::absences_of_game(conn, game_id, start)?;
    let mut deadline = deadline_after(schedule, start);
    // Each push moves the deadline later, so this ends.
    while let Some(a) = absences
        .iter()
        .find(|a| a.starts <= deadline && deadline < a.ends)
    {
        let after = Schedule {
            next_seconds: 0,
            least_seconds: 0,
            ..schedule.clone()
        };
        deadline = deadline_after(&after, a.ends).max(a.ends);
    }
    Ok((deadline, deadline + schedule.grace()))
}

/// A phase's deadline and end of grace, neither after the game's bell
/// (SET END <date and time>): the clock ends the game then, and the
/// players see that deadline.
pub fn before_the_bell(settings: &GameSettings, (deadline, grace): (i64, i64)) -> (i64, i64) {
    match settings.end_at {
        Some(bell) => (deadline.min(bell), grace.min(bell)),
        None => (deadline, grace),
    }
}

/// The earliest time the current phase may be processed, early or not:
/// its schedule's njudge MIN after it started (a MIN set during the
/// phase holds it back no later than its deadline), and the Master's SET
/// START for it.
pub fn earliest_processing(settings: &GameSettings, cur: &super::Current) -> i64 {
    let (record, kind) = (&cur.record, cur.position.phase.kind);
    let least_seconds = i64::from(schedule_for(settings, kind).least_seconds);
    let mut least = record.started_at + least_seconds;
    if let Some(deadline) = record.deadline {
        least = least.min(deadline);
    }
    match &settings.start {
        Some(start) if start.phase == record.phase => least.max(start.at),
        _ => least,
    }
}

/// Gives the game's current phase a fresh deadline counted from `now`
/// (never earlier than the one it has) and its grace after it: for a game
/// that resumes, or a newcomer. The phase and its new deadline; None when
/// the game has no phase yet.
pub fn refresh_deadline(
    conn: &Connection,
    game: &Game,
    now: i64,
) -> Result<Option<(String, i64)>, StoreError> {
    let Some(cur) = current(conn, game.id)? else {
        return Ok(None);
    };
    let settings = settings_of(game)?;
    let schedule = schedule_for(&settings, cur.position.phase.kind);
    let (fresh, _) = deadline_for(conn, game.id, schedule, now)?;
    let deadline = fresh.max(cur.record.deadline.unwrap_or(0));
    let grace = deadline + schedule.grace();
    store::phases::set_deadline(
        conn,
        game.id,
        &cur.record.phase,
        Some(deadline),
        Some(grace),
    )?;
    Ok(Some((cur.record.phase, deadline)))
}

/// Pushes the current deadline of a game past an absence that now covers
/// it (a deadline is never moved earlier). Returns the new deadline if it
/// moved.
pub fn push_for_absences(
    conn: &Connection,
    game_id: i64,
    schedule: &Schedule,
    phase: &str,
    deadline: i64,
) -> Result<Option<i64>, StoreError> {
    let absences = store::seats::absences_of_game(conn, game_id, deadline)?;
    if !absences
        .iter()
        .any(|a| a.starts <= deadline && deadline < a.ends)
    {
        return Ok(None);
    }
    let (new, _) = deadline_for(
        conn,
        game_id,
        &Schedule {
            next_seconds: 0,
            least_seconds: 0,
            ..schedule.clone()
        },
        deadline,
    )?;
    let new = new.max(deadline);
    store::phases::set_deadline(
        conn,
        game_id,
        phase,
        Some(new),
        Some(new + schedule.grace()),
    )?;
    Ok(Some(new))
}
