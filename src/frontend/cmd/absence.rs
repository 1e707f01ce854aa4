//! SET ABSENCE: a player's announced absences (deadlines falling inside
//! one are pushed after it), within the game's limit; SET NOABSENCE (or
//! SET ABSENCE CANCEL) cancels them; SET ABSENCE LIMIT <days>, for the
//! Master, changes the limit. The Master hears of every absence.

use super::master_game;
use super::settings_change::{announce, save_settings, Change};
use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::clock::format_time;
use crate::game::{current, settings_of};
use crate::report::title;
use crate::store::{self, games::Game, seats::Seat, StoreError};

const DAY: i64 = 86_400;

pub fn absence(s: &mut Session<'_>, line: &Line, what: &str, rest: &str) -> Result<(), StoreError> {
    let first = rest
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase();
    if matches!(s.signed, Some(Signed::Master { .. })) {
        return limit(s, line, rest);
    }
    let Some((game, seat)) = player(s, line) else {
        return Ok(());
    };
    let game = store::games::game_by_id(s.tx, game.id)?.unwrap_or(game);
    if what == "NOABSENCE" && !rest.trim().is_empty() {
        return cancel_one(s, line, &game, &seat, rest);
    }
    if what == "NOABSENCE" || matches!(first.as_str(), "CANCEL" | "NONE" | "OFF") {
        return cancel(s, line, &game, &seat);
    }
    set(s, line, &game, &seat, rest)
}

/// The signed-on player's game and seat, or a refusal.
fn player(s: &mut Session<'_>, line: &Line) -> Option<(Game, Seat)> {
    match &s.signed {
        Some(Signed::Player { game, seat, .. }) => Some((game.clone(), seat.clone())),
        _ => {
            s.reply.refuse(
                line,
                "SET ABSENCE needs a sign-on as a player first: SIGNON <initial><game> <password>.",
            );
            None
        }
    }
}

/// SET ABSENCE LIMIT <days>, by the Master.
fn limit(s: &mut Session<'_>, line: &Line, rest: &str) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    let words: Vec<&str> = rest.split_whitespace().collect();
    let days = match words.as_slice() {
        [word, days] if word.eq_ignore_ascii_case("LIMIT") => days.parse::<u32>().ok(),
        _ => None,
    };
    let Some(days) = days.filter(|&d| d <= 365) else {
        s.reply.refuse(
            line,
            "Write SET ABSENCE LIMIT <days> (0 to 365): the most days of absence a player \
             may have announced and not yet over. Players announce theirs with \
             SET ABSENCE <date> TO <date>.",
        );
        return Ok(());
    };
    let game = store::games::game_by_id(s.tx, game.id)?.unwrap_or(game);
    let mut settings = settings_of(&game)?;
    settings.absence_days = days;
    save_settings(s, &game, &settings)?;
    let said = format!("Players may now announce up to {days} days of absence (SET ABSENCE).");
    s.reply.ok(line, said.clone());
    announce(s, &game, Change::Setting, said)
}

/// Seconds of the seat's absences not yet over at `now`.
fn announced(s: &Session<'_>, seat: &Seat) -> Result<i64, StoreError> {
    Ok(store::seats::absences_of_game(s.tx, seat.game_id, s.now)?
        .iter()
        .filter(|a| a.seat_id == seat.id)
        .map(|a| a.ends - a.starts.max(s.now))
        .sum())
}

fn set(
    s: &mut Session<'_>,
    line: &Line,
    game: &Game,
    seat: &Seat,
    text: &str,
) -> Result<(), StoreError> {
    let upper = text.to_ascii_uppercase();
    let (start, end) = match upper.find(" TO ") {
        Some(k) => (&text[..k], Some(&text[k + 4..])),
        None => (text, None),
    };
    let zone = super::when::writer_zone(s)?;
    use super::when::{read_date_at, DayTime, Toward};
    let read = |t: &str, untimed| read_date_at(t, s.now, zone, Toward::Future, untimed);
    let starts = read(start, DayTime::Start);
    // The last day of an absence (or its one day) runs to its end.
    let ends = read(end.unwrap_or(start), DayTime::End);
    let (a, b) = match (starts, ends) {
        (Some(a), Some(b)) if b > a && b > s.now => (a, b),
        _ => {
            s.reply.refuse(
                line,
                "Write SET ABSENCE <date> [TO <date>], dates like 2026-12-24, 2026-12-24 \
                 18:00, Dec 24 or Thu, the end after the start and not past. SET NOABSENCE cancels your \
                 absences.",
            );
            return Ok(());
        }
    };
    let limit = i64::from(settings_of(game)?.absence_days);
    let before = announced(s, seat)?;
    let total = before + (b - a.max(s.now));
    if total > limit * DAY {
        s.reply.refuse(
            line,
            format!(
                "Absences in '{}' are limited to {limit} days announced and not yet over, \
                 together; with this one yours would be {}. Announce a shorter \
                 absence, or cancel the others first (SET NOABSENCE).",
                game.name,
                days_in_words(total)
            ),
        );
        return Ok(());
    }
    store::seats::add_absence(s.tx, seat.id, a, b)?;
    push_deadline(s, game, seat)?;
    let said = format!("from {} to {}", format_time(a), format_time(b));
    let told = tell_master(s, game, seat, &format!("has announced an absence {said}"));
    s.reply.ok(
        line,
        format!("Absence noted {said}: deadlines falling inside it will be pushed after it.{told}"),
    );
    Ok(())
}

/// A current deadline inside the seat's absences moves past them; the
/// player and everyone else hear of it.
fn push_deadline(s: &mut Session<'_>, game: &Game, seat: &Seat) -> Result<(), StoreError> {
    let Some(cur) = current(s.tx, game.id)?.filter(|c| c.record.processed_at.is_none()) else {
        return Ok(());
    };
    let Some(deadline) = cur.record.deadline else {
        return Ok(());
    };
    let settings = settings_of(game)?;
    let schedule = crate::game::process::schedule_for(&settings, cur.position.phase.kind);
    let Some(new) = crate::game::deadline::push_for_absences(
        s.tx,
        game.id,
        schedule,
        &cur.record.phase,
        deadline,
    )?
    else {
        return Ok(());
    };
    s.reply.text(format!(
        "The deadline for {} falls in your absence: it is now {}.",
        cur.record.phase,
        format_time(new)
    ));
    let mut to = crate::game::everyone(s.tx, game)?;
    to.retain(|a| !a.eq_ignore_ascii_case(&seat.address));
    let subject = s.subject(&game.name, Some(&cur.record.phase), title::DEADLINE_CHANGED);
    s.send(
        to,
        subject,
        format!(
            "A player's absence covers the deadline for {} in '{}': it is now {}.\n",
            cur.record.phase,
            game.name,
            format_time(new)
        ),
        Some(game.id),
    );
    Ok(())
}

/// SET NOABSENCE: the player's absences to come are cancelled, one under
/// way ends now.
fn cancel(s: &mut Session<'_>, line: &Line, game: &Game, seat: &Seat) -> Result<(), StoreError> {
    let n = store::seats::cancel_absences(s.tx, seat.id, s.now)?;
    if n == 0 {
        s.reply.refuse(
            line,
            "You have no absence to cancel. SET ABSENCE <date> TO <date> announces one.",
        );
        return Ok(());
    }
    let told = tell_master(s, game, seat, "has cancelled their absences");
    s.reply.ok(
        line,
        format!("Your absences are cancelled (deadlines already moved stay as they are).{told}"),
    );
    Ok(())
}

/// SET NOABSENCE <date>: as njudge, only the absences that include the
/// date are cancelled.
fn cancel_one(
    s: &mut Session<'_>,
    line: &Line,
    game: &Game,
    seat: &Seat,
    date: &str,
) -> Result<(), StoreError> {
    let zone = super::when::writer_zone(s)?;
    let Some(t) = super::when::read_date(date, s.now, zone, super::when::Toward::Future) else {
        s.reply.refuse(
            line,
            "Write SET NOABSENCE <date> (a date inside the absence to cancel, like \
             2026-12-24, Dec 24 or Thu), or SET NOABSENCE alone to cancel them all.",
        );
        return Ok(());
    };
    let gone = store::seats::cancel_absences_at(s.tx, seat.id, t, s.now)?;
    if gone.is_empty() {
        s.reply.refuse(
            line,
            format!(
                "None of your absences includes {}: nothing was cancelled. SET NOABSENCE \
                 alone cancels them all.",
                format_time(t)
            ),
        );
        return Ok(());
    }
    let said: Vec<String> = gone
        .iter()
        .map(|&(a, b)| format!("from {} to {}", format_time(a), format_time(b)))
        .collect();
    let said = said.join(", and ");
    let told = tell_master(
        s,
        game,
        seat,
        &format!("has cancelled their absence {said}"),
    );
    s.reply.ok(
        line,
        format!(
            "Your absence {said} is cancelled (deadlines already moved stay as they are).{told}"
        ),
    );
    Ok(())
}

/// The Master, if the game has one, hears of a player's absence: what
/// the reply says of it.
fn tell_master(s: &mut Session<'_>, game: &Game, seat: &Seat, what: &str) -> &'static str {
    let Some(master) = game.master_address.clone() else {
        return "";
    };
    let power = seat.power.as_deref().map_or("A player".to_string(), |p| {
        format!(
            "The player of {}",
            crate::game::power_of(seat).map_or(p, |q| q.name())
        )
    });
    let subject = s.subject(&game.name, None, title::ABSENCE);
    s.send(
        vec![master],
        subject,
        format!("{power} in '{}' {what}.\n", game.name),
        Some(game.id),
    );
    " The Master has been told."
}

/// A length of time in days as a reader writes it: "40 days", "1 day",
/// "2.5 days" (never "40.0 days").
fn days_in_words(seconds: i64) -> String {
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
