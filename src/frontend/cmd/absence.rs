//! SET ABSENCE: a player's announced absences (deadlines falling inside
//! one are pushed after it), within the game's limit; SET NOABSENCE (or
//! SET ABSENCE CANCEL) cancels them; SET ABSENCE LIMIT <days>, for the
//! Master, changes the limit. The Master hears of every absence. What
//! happens is `game::absence`; here the dates are read and the replies said.

use super::master_game;
use super::settings_change::{announce, save_settings, Change};
use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::absence::{self as absences, days_in_words, Announced};
use crate::game::clock::format_time;
use crate::game::{self, settings_of, Game, Seat, StoreError};
use crate::say;

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
    let game = game::game_by_id(s.tx, game.id)?.unwrap_or(game);
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
            s.reply.refuse(line, say!("absence.needs_player_sign_on"));
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
        s.reply.refuse(line, say!("absence.limit_usage"));
        return Ok(());
    };
    let game = game::game_by_id(s.tx, game.id)?.unwrap_or(game);
    let mut settings = settings_of(&game)?;
    settings.absence_days = days;
    save_settings(s, &game, &settings)?;
    let said = say!("absence.limit_set", days);
    s.reply.ok(line, said.clone());
    announce(s, &game, Change::Setting, said)
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
    let span = match (starts, ends) {
        (Some(a), Some(b)) if b > a && b > s.now => (a, b),
        _ => {
            s.reply.refuse(line, say!("absence.usage"));
            return Ok(());
        }
    };
    match absences::announce(s.tx, s.code(), game, seat, span, s.now)? {
        Announced::OverLimit {
            limit_days,
            would_be,
        } => s.reply.refuse(
            line,
            say!("absence.over_limit", game => &game.name, limit_days,
                 would_be => days_in_words(would_be)),
        ),
        Announced::Noted { pushed, mails } => {
            let span = absences::span_words(span.0, span.1);
            let master_told = game.master_address.is_some();
            s.reply.ok(line, say!("absence.noted", span, master_told));
            if let Some(p) = pushed {
                let deadline = format_time(p.deadline);
                s.reply
                    .text(say!("absence.deadline_pushed", phase => p.phase, deadline));
            }
            s.send_all(mails);
        }
    }
    Ok(())
}

/// SET NOABSENCE: the player's absences to come are cancelled, one under
/// way ends now.
fn cancel(s: &mut Session<'_>, line: &Line, game: &Game, seat: &Seat) -> Result<(), StoreError> {
    let (n, mails) = absences::cancel_all(s.tx, s.code(), game, seat, s.now)?;
    if n == 0 {
        s.reply.refuse(line, say!("absence.nothing_to_cancel"));
        return Ok(());
    }
    let master_told = game.master_address.is_some();
    s.reply.ok(line, say!("absence.cancelled_all", master_told));
    s.send_all(mails);
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
        s.reply.refuse(line, say!("absence.cancel_one_usage"));
        return Ok(());
    };
    let (spans, mails) = absences::cancel_at(s.tx, s.code(), game, seat, t, s.now)?;
    if spans.is_empty() {
        s.reply
            .refuse(line, say!("absence.none_includes", date => format_time(t)));
        return Ok(());
    }
    let master_told = game.master_address.is_some();
    let span = spans.join(", and ");
    s.reply
        .ok(line, say!("absence.cancelled_one", span, master_told));
    s.send_all(mails);
    Ok(())
}
