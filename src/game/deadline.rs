//! A phase's deadline: its schedule, pushed past any player's absence
//! that it would fall inside.

use rusqlite::Connection;

use super::clock::deadline_after;
use super::settings::Schedule;
use crate::store::{self, StoreError};

/// The deadline and end of grace for a phase of game `game_id` starting
/// at `start`.
pub fn deadline_for(
    conn: &Connection,
    game_id: i64,
    schedule: &Schedule,
    start: i64,
) -> Result<(i64, i64), StoreError> {
    let absences = store::absences_of_game(conn, game_id, start)?;
    let mut deadline = deadline_after(schedule, start);
    // Each push moves the deadline later, so this ends.
    while let Some(a) = absences
        .iter()
        .find(|a| a.starts <= deadline && deadline < a.ends)
    {
        let after = Schedule {
            min_hours: 0,
            ..schedule.clone()
        };
        deadline = deadline_after(&after, a.ends).max(a.ends);
    }
    Ok((deadline, deadline + i64::from(schedule.grace_hours) * 3600))
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
    let absences = store::absences_of_game(conn, game_id, deadline)?;
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
            min_hours: 0,
            ..schedule.clone()
        },
        deadline,
    )?;
    let new = new.max(deadline);
    store::set_deadline(
        conn,
        game_id,
        phase,
        Some(new),
        Some(new + i64::from(schedule.grace_hours) * 3600),
    )?;
    Ok(Some(new))
}
