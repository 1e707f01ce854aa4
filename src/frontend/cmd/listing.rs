//! What `LIST <game>` says of a game's settings and seats, in words: what
//! a player checks before joining or playing.

use crate::game::clock::format_time;
use crate::game::schedule::schedule_lines;
use crate::game::settings::{GameSettings, ObserverPress, WinBy};
use crate::game::{GameState, SeatStatus};
use crate::say;

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
    let centres = set.win_by == WinBy::Centres;
    match (set.end_at, set.end_year) {
        (Some(at), _) => say!("info.end_at", at => format_time(at), centres),
        (None, Some(year)) => say!("info.end_short", year, centres),
        (None, None) => say!("info.end_majority"),
    }
}

/// The settings, one line each (schedules as of `now`).
pub fn settings_lines(set: &GameSettings, now: i64) -> Vec<String> {
    let mut kinds = Vec::new();
    if set.white {
        kinds.push("white");
    }
    if set.grey {
        kinds.push("grey");
    }
    let observers = match set.observers {
        ObserverPress::Any => "any",
        ObserverPress::No => "no",
        ObserverPress::White => "white",
    };
    let mut lines = vec![
        say!("info.press_line", kinds => kinds.join(" and "), partial => set.partial, observers),
        say!("info.nmr_line", nmr => set.nmr),
        say!("info.late_line", named => set.show_late),
    ];
    lines.extend(schedule_lines(set, now));
    lines.extend([
        end_line(set),
        say!("info.draw_line", dias => !set.nodias),
        say!("info.publicity_line", private => set.private),
    ]);
    lines
}

/// Where the game's pages are on the web: with `[web] url` set and the
/// game public.
pub fn pages_line(archive_url: Option<String>, game: &str, set: &GameSettings) -> Option<String> {
    let url = archive_url.filter(|_| !set.private)?;
    Some(say!("info.pages_line", url, game))
}
