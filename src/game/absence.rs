//! Absences (SET ABSENCE): a player's announced absences, within the
//! game's limit; a deadline falling inside one is pushed after it. The
//! front end reads the dates and words the replies; this is what happens.

use rusqlite::Connection;

use super::clock::format_time;
use super::{current, everyone, power_of, settings_of, GameMail};
use crate::report::{game_subject, title};
use crate::say;
use crate::store::{self, games::Game, seats::Seat, StoreError};

const DAY: i64 = 86_400;

/// What became of an announced absence.
#[derive(Debug)]
pub enum Announced {
    /// Stored; the deadline moved to `pushed` if the absence covered it.
    Noted {
        pushed: Option<PushedDeadline>,
        mails: Vec<GameMail>,
    },
    /// Refused: together with the seat's other absences not yet over it
    /// would come to `would_be` seconds, over the game's `limit_days`.
    OverLimit { limit_days: u32, would_be: i64 },
}

/// The current deadline, moved past an absence.
#[derive(Debug)]
pub struct PushedDeadline {
    pub phase: String,
    pub deadline: i64,
}

/// SET ABSENCE <from> TO <to> for `seat` at `now`.
pub fn announce(
    conn: &Connection,
    code: &str,
    game: &Game,
    seat: &Seat,
    (from, to): (i64, i64),
    now: i64,
) -> Result<Announced, StoreError> {
    let limit_days = settings_of(game)?.absence_days;
    let would_be = announced_seconds(conn, seat, now)? + (to - from.max(now));
    if would_be > i64::from(limit_days) * DAY {
        return Ok(Announced::OverLimit {
            limit_days,
            would_be,
        });
    }
    store::seats::add_absence(conn, seat.id, from, to)?;
    let mut mails = Vec::new();
    let pushed = push_deadline(conn, code, game, seat, &mut mails)?;
    let span = span_words(from, to);
    mails.extend(master_told(
        code,
        game,
        seat,
        &say!("absence.master_announced", span),
    )?);
    Ok(Announced::Noted { pushed, mails })
}

/// SET NOABSENCE: the seat's absences to come are cancelled, one under
/// way ends now. How many there were, and the Master's mail.
pub fn cancel_all(
    conn: &Connection,
    code: &str,
    game: &Game,
    seat: &Seat,
    now: i64,
) -> Result<(usize, Vec<GameMail>), StoreError> {
    let n = store::seats::cancel_absences(conn, seat.id, now)?;
    if n == 0 {
        return Ok((0, Vec::new()));
    }
    let mails = master_told(code, game, seat, &say!("absence.master_cancelled_all"))?;
    Ok((n, mails.into_iter().collect()))
}

/// SET NOABSENCE <date>: the absences that include `at` are cancelled.
/// Their spans ("from ... to ..."), and the Master's mail.
pub fn cancel_at(
    conn: &Connection,
    code: &str,
    game: &Game,
    seat: &Seat,
    at: i64,
    now: i64,
) -> Result<(Vec<String>, Vec<GameMail>), StoreError> {
    let gone = store::seats::cancel_absences_at(conn, seat.id, at, now)?;
    if gone.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let spans: Vec<String> = gone.iter().map(|&(a, b)| span_words(a, b)).collect();
    let span = spans.join(", and ");
    let mails = master_told(code, game, seat, &say!("absence.master_cancelled", span))?;
    Ok((spans, mails.into_iter().collect()))
}

/// "from <time> to <time>".
pub fn span_words(from: i64, to: i64) -> String {
    say!("absence.span", from => format_time(from), to => format_time(to))
}

/// Seconds of the seat's absences not yet over at `now`.
fn announced_seconds(conn: &Connection, seat: &Seat, now: i64) -> Result<i64, StoreError> {
    Ok(store::seats::absences_of_game(conn, seat.game_id, now)?
        .iter()
        .filter(|a| a.seat_id == seat.id)
        .map(|a| a.ends - a.starts.max(now))
        .sum())
}

/// A current deadline inside the seat's absences moves past them;
/// everyone else hears of it.
fn push_deadline(
    conn: &Connection,
    code: &str,
    game: &Game,
    seat: &Seat,
    mails: &mut Vec<GameMail>,
) -> Result<Option<PushedDeadline>, StoreError> {
    let Some(cur) = current(conn, game.id)?.filter(|c| c.record.processed_at.is_none()) else {
        return Ok(None);
    };
    let Some(deadline) = cur.record.deadline else {
        return Ok(None);
    };
    let settings = settings_of(game)?;
    let schedule = super::process::schedule_for(&settings, cur.position.phase.kind);
    let phase = cur.record.phase;
    let Some(new) = super::deadline::push_for_absences(conn, game.id, schedule, &phase, deadline)?
    else {
        return Ok(None);
    };
    let mut to = everyone(conn, game)?;
    to.retain(|a| !a.eq_ignore_ascii_case(&seat.address));
    mails.push(GameMail {
        to,
        subject: game_subject(code, &game.name, Some(&phase), title::DEADLINE_CHANGED),
        body: say!("absence.deadline_pushed_notice", phase => &phase, game => &game.name, deadline => format_time(new))
            + "\n",
        game_id: game.id,
        results_of: None,
        ends_game: false,
    });
    Ok(Some(PushedDeadline {
        phase,
        deadline: new,
    }))
}

/// The Master, if the game has one, hears of a player's absence.
fn master_told(
    code: &str,
    game: &Game,
    seat: &Seat,
    what: &str,
) -> Result<Option<GameMail>, StoreError> {
    let Some(master) = game.master_address.clone() else {
        return Ok(None);
    };
    let power = power_of(seat).map(|p| p.name());
    Ok(Some(GameMail {
        to: vec![master],
        subject: game_subject(code, &game.name, None, title::ABSENCE),
        body: say!("absence.master_notice", power, game => &game.name, what) + "\n",
        game_id: game.id,
        results_of: None,
        ends_game: false,
    }))
}

/// A length of time in days as a reader writes it: "40 days", "1 day",
/// "2.5 days" (never "40.0 days").
pub fn days_in_words(seconds: i64) -> String {
    let tenths = (seconds * 10 + DAY / 2) / DAY;
    let number = if tenths % 10 == 0 {
        (tenths / 10).to_string()
    } else {
        format!("{}.{}", tenths / 10, tenths % 10)
    };
    let unit = if tenths == 10 { "day" } else { "days" };
    format!("{number} {unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_written_without_a_needless_decimal() {
        assert_eq!(days_in_words(40 * DAY), "40 days");
        assert_eq!(days_in_words(DAY), "1 day");
        assert_eq!(days_in_words(5 * DAY / 2), "2.5 days");
    }
}
