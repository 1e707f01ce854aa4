//! What `LIST <game>` says of a game's settings and seats, in words: what
//! a player checks before joining or playing.

use crate::game::settings::{GameSettings, ObserverPress, Schedule};
use crate::store::{GameState, SeatStatus};

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

/// The settings, one line each.
pub fn settings_lines(set: &GameSettings) -> Vec<String> {
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
        "NMR: a power without orders at the end of grace is in civil disorder (its units hold)"
    } else {
        "No NMR: a power without orders at the end of grace is abandoned and the game waits \
         for a replacement"
    };
    let end = match set.end_year {
        Some(year) => format!("End: a short game, ending after the Fall of {year}."),
        None => "End: when one power holds a majority of supply centres, or by a draw.".to_string(),
    };
    let draw = if set.nodias {
        "Draw rule: a draw of the powers the votes name (SET DRAW <powers>); every surviving \
         power must vote for the same set."
    } else {
        "Draw rule: DIAS — a draw includes all survivors; every surviving power must vote \
         SET DRAW."
    };
    vec![
        format!("Press: {press}; {observers}; fake press is not offered."),
        format!("{nmr}."),
        format!(
            "Late powers are {} to the others.",
            if set.show_late { "named" } else { "not named" }
        ),
        format!("Movement deadlines: {}.", schedule_words(&set.movement)),
        format!("Retreat deadlines: {}.", schedule_words(&set.retreat)),
        format!("Adjustment deadlines: {}.", schedule_words(&set.adjustment)),
        end,
        draw.to_string(),
        if set.private {
            "Private: not published in the web archive (SET PUBLIC publishes it).".to_string()
        } else {
            "Public: the processed phases are published in the web archive.".to_string()
        },
    ]
}

fn schedule_words(s: &Schedule) -> String {
    let zone = s.zone.as_deref().unwrap_or("UTC");
    let when = match &s.cron {
        Some(cron) => format!(
            "on the schedule '{cron}' ({zone}), at least {} hours after the phase begins",
            s.min_hours
        ),
        None => format!("{} hours after the phase begins", s.min_hours),
    };
    format!("{when}; grace {} hours", s.grace_hours)
}
