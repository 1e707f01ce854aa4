//! The Master's SET DEADLINE, SET GRACE and SET START for the current
//! phase: what may be set (never in the past, never before the phase may
//! be processed) and the phase's new times. The front end reads the date
//! and words the outcome.

use rusqlite::Connection;

use super::deadline::earliest_processing;
use super::settings::{GameSettings, PhaseStart, Schedule};
use super::{Current, Game, StoreError};
use crate::store;

/// A deadline or end of grace the Master may not set, with the earliest
/// they may.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// SET DEADLINE to a time past.
    DeadlinePassed { at: i64, earliest: i64 },
    /// SET DEADLINE before SET START or njudge's MIN let `phase` be
    /// processed (`until`).
    DeadlineHeld {
        at: i64,
        earliest: i64,
        phase: String,
        until: i64,
    },
    /// SET DEADLINE sooner than the schedule's MIN (`seconds`) after the
    /// phase started.
    DeadlineUnderMinimum {
        at: i64,
        earliest: i64,
        seconds: u32,
    },
    /// SET GRACE before the deadline or in the past.
    GraceTooSoon { at: i64, earliest: i64 },
    /// SET START to a time past.
    StartPassed { phase: String, at: i64 },
}

/// The current phase's new times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    pub phase: String,
    pub deadline: i64,
    pub grace: i64,
}

/// SET DEADLINE `at` (the end of grace follows it by the schedule's grace
/// hours).
pub fn set_deadline(
    conn: &Connection,
    game: &Game,
    (cur, settings, schedule): (&Current, &GameSettings, &Schedule),
    at: i64,
    now: i64,
) -> Result<Result<Moved, Refused>, StoreError> {
    let earliest = earliest_deadline(settings, cur, schedule.next_seconds, now);
    if at < earliest {
        return Ok(Err(deadline_refused(
            cur, settings, schedule, at, earliest, now,
        )));
    }
    let grace = at + schedule.grace();
    Ok(Ok(store_times(conn, game, cur, at, grace)?))
}

/// SET GRACE `at`: the deadline stays, grace ends at `at`.
pub fn set_grace(
    conn: &Connection,
    game: &Game,
    cur: &Current,
    at: i64,
    now: i64,
) -> Result<Result<Moved, Refused>, StoreError> {
    let deadline = cur.record.deadline.unwrap_or(at);
    if at < deadline || at <= now {
        let earliest = minute_up(deadline.max(now + 1));
        return Ok(Err(Refused::GraceTooSoon { at, earliest }));
    }
    Ok(Ok(store_times(conn, game, cur, deadline, at)?))
}

/// What SET START did: the phase is held back until `until`; the
/// deadline moved to it (`moved`) or stays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    pub until: i64,
    pub times: Moved,
    pub moved: bool,
}

/// SET START `at` (njudge): the current phase is not processed before
/// `at`, not even early (written into `settings`, which the caller
/// saves); the deadline moves to `at` only if it is sooner.
pub fn hold_until(
    conn: &Connection,
    game: &Game,
    (cur, settings, schedule): (&Current, &mut GameSettings, &Schedule),
    at: i64,
    now: i64,
) -> Result<Result<Held, Refused>, StoreError> {
    let phase = cur.record.phase.clone();
    if at <= now {
        return Ok(Err(Refused::StartPassed { phase, at }));
    }
    settings.start = Some(PhaseStart {
        phase: phase.clone(),
        at,
    });
    let deadline = cur.record.deadline.unwrap_or(at);
    let grace = cur.record.grace_until.unwrap_or(deadline);
    let moved = at > deadline;
    let times = if moved {
        let grace = grace.max(at + schedule.grace());
        store_times(conn, game, cur, at, grace)?
    } else {
        Moved {
            phase,
            deadline,
            grace,
        }
    };
    Ok(Ok(Held {
        until: at,
        times,
        moved,
    }))
}

fn store_times(
    conn: &Connection,
    game: &Game,
    cur: &Current,
    deadline: i64,
    grace: i64,
) -> Result<Moved, StoreError> {
    let phase = cur.record.phase.clone();
    store::phases::set_deadline(conn, game.id, &phase, Some(deadline), Some(grace))?;
    Ok(Moved {
        phase,
        deadline,
        grace,
    })
}

/// How soon the deadline may be: the first whole minute to come, not
/// before the schedule's MIN after the phase started, nor before
/// SET START or njudge's MIN let it be processed.
fn earliest_deadline(settings: &GameSettings, cur: &Current, next_seconds: u32, now: i64) -> i64 {
    let by_schedule = cur.record.started_at + i64::from(next_seconds);
    let floor = by_schedule.max(earliest_processing(settings, cur));
    minute_up((now + 1).max(floor))
}

/// Why a deadline `at` before `earliest` is refused.
fn deadline_refused(
    cur: &Current,
    settings: &GameSettings,
    schedule: &Schedule,
    at: i64,
    earliest: i64,
    now: i64,
) -> Refused {
    let by_schedule = cur.record.started_at + i64::from(schedule.next_seconds);
    let hold = earliest_processing(settings, cur);
    if at <= now {
        Refused::DeadlinePassed { at, earliest }
    } else if hold > by_schedule {
        Refused::DeadlineHeld {
            at,
            earliest,
            phase: cur.record.phase.clone(),
            until: hold,
        }
    } else {
        Refused::DeadlineUnderMinimum {
            at,
            earliest,
            seconds: schedule.next_seconds,
        }
    }
}

/// The first whole minute at or after `t`.
fn minute_up(t: i64) -> i64 {
    t + (60 - t.rem_euclid(60)) % 60
}
