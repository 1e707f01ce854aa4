//! What `LIST <game>` says of a game's settings and seats, in words: what
//! a player checks before joining or playing.

use crate::game::schedule::schedule_lines;
use crate::game::settings::{GameSettings, ObserverPress};
use crate::store::{games::GameState, seats::SeatStatus};

/// A seat's standing in words (never the stored `civil_disorder`).
pub fn seat_words(status: SeatStatus) -> &'static str {
    match status {
        SeatStatus::Forming => "joined",
        SeatStatus::Active => "playing",
        SeatStatus::Late => "late",
        SeatStatus::Abandoned => "abandoned",
        SeatStatus::CivilDisorder => "civil disorder",
        SeatStatus::Resigned => "resigned",
        SeatStatus::Eliminated => "eliminated",
    }
}

/// The game's state in words.
pub fn state_words(state: GameState) -> &'static str {
    match state {
        GameState::Forming => "forming",
        GameState::Active => "active",
        GameState::Paused => "paused by the Master",
        GameState::Finished => "finished",
        GameState::Terminated => "ended by the Master",
    }
}

/// How the game ends, in a line.
pub fn end_line(set: &GameSettings) -> String {
    match set.end_year {
        Some(year) => format!(
            "End: a short game, ending when {year} is over (after its Winter builds and \
             removals); the most pieces on the board then wins."
        ),
        None => "End: when one power holds a majority of supply centres, or by a draw.".to_string(),
    }
}

/// The settings, one line each (schedules as of `now`).
pub fn settings_lines(set: &GameSettings, now: i64) -> Vec<String> {
    let mut press = Vec::new();
    if set.white {
        press.push("white");
    }
    if set.grey {
        press.push("grey");
    }
    let press = if press.is_empty() {
        "none".to_string()
    } else {
        let to = if set.partial {
            "to the whole game or to chosen powers (partial allowed)"
        } else {
            "to the whole game only (no partial press)"
        };
        format!("{}, {to}", press.join(" and "))
    };
    let observers = match set.observers {
        ObserverPress::Any => "observers may send press",
        ObserverPress::No => "observers may not send press",
        ObserverPress::White => "observers may send white press only",
    };
    let nmr = if set.nmr {
        "NMR: at the end of grace the orders given are carried out (units without orders \
         hold); a power that gave none is in civil disorder"
    } else {
        "No NMR: a power without orders at the end of grace is abandoned and the game waits \
         for a replacement"
    };
    let end = end_line(set);
    let draw = if set.nodias {
        "Draw rule: a draw of the powers the votes name (SET DRAW <powers>); every surviving \
         power must vote for the same set."
    } else {
        "Draw rule: DIAS — a draw includes all survivors; every surviving power must vote \
         SET DRAW."
    };
    let mut lines = vec![
        format!("Press: {press}; {observers}; fake press is not offered."),
        format!("{nmr}."),
        format!(
            "Late powers are {} to the others.",
            if set.show_late { "named" } else { "not named" }
        ),
    ];
    lines.extend(schedule_lines(set, now));
    lines.extend([end, draw.to_string(), publicity(set)]);
    lines
}

/// Where the game's pages are on the web: with `[web] url` set and the
/// game public.
pub fn pages_line(archive_url: Option<String>, game: &str, set: &GameSettings) -> Option<String> {
    let url = archive_url.filter(|_| !set.private)?;
    Some(format!(
        "The game's pages, a map of every phase: {url}{game}/"
    ))
}

/// Whether the game is in the web archive.
fn publicity(set: &GameSettings) -> String {
    if set.private {
        "Private: not published in the web archive (SET PUBLIC publishes it).".to_string()
    } else {
        "Public: the processed phases are published in the web archive.".to_string()
    }
}
