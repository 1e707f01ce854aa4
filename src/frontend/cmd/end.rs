//! SET END: how a game stops before anyone wins. `SET END <year>` is the
//! rulebook's short game (III); `SET END <date and time>` ends the game
//! at that moment (the class game: "the team with the most centres by the
//! end of class wins"), read in the Master's zone (SET ZONE), else UTC;
//! `BY CENTRES` or `BY PIECES` (the default) after either names how the
//! winner is found; `SET END NONE` plays to a win or a draw.

use super::when::{read_date_at, writer_zone, DayTime, Toward};
use crate::frontend::session::Session;
use crate::game::clock::{format_time, time_and_wait};
use crate::game::settings::{GameSettings, WinBy};
use crate::game::{current, Game, StoreError};
use crate::say;

/// SET END `rest` for `game`, written into `settings` (the caller saves
/// them): what the reply says, or why nothing was changed.
pub fn set_end(
    s: &mut Session<'_>,
    game: &Game,
    settings: &mut GameSettings,
    rest: &str,
) -> Result<Result<String, String>, StoreError> {
    let Some((when, by)) = win_by(rest) else {
        return Ok(Err(say!("set.end_usage")));
    };
    if let Some(by) = by {
        settings.win_by = by;
    }
    let centres = settings.win_by == WinBy::Centres;
    let when = when.trim();
    if when.is_empty() && by.is_some() {
        return Ok(Ok(say!("set.end_win_by", centres)));
    }
    if ["NONE", "OFF", "NO"].contains(&when.to_ascii_uppercase().as_str()) {
        settings.end_year = None;
        settings.end_at = None;
        return Ok(Ok(say!("set.end_none")));
    }
    if let Some(year) = when
        .parse::<u16>()
        .ok()
        .filter(|y| (1901..=2100).contains(y))
    {
        let now = current(s.tx, game.id)?.map(|c| (c.position.phase.year, c.record.phase));
        if let Some((current, phase)) = now.filter(|(current, _)| year < *current) {
            return Ok(Err(say!("set.end_too_early", phase, year => current)));
        }
        settings.end_year = Some(year);
        settings.end_at = None;
        return Ok(Ok(say!("set.short_game", year, centres)));
    }
    let zone = writer_zone(s)?;
    let Some(at) = read_date_at(when, s.now, zone, Toward::Future, DayTime::End) else {
        return Ok(Err(say!("set.end_usage")));
    };
    if at <= s.now {
        return Ok(Err(say!("set.end_passed", at => format_time(at))));
    }
    settings.end_at = Some(at);
    settings.end_year = None;
    let zone = zone.map(|z| z.name().to_string());
    Ok(Ok(
        say!("set.end_at", at => time_and_wait(at, s.now), zone, centres),
    ))
}

/// The words before `BY CENTRES` or `BY PIECES`, and the measure named
/// (none without BY); None when what follows BY is neither.
fn win_by(rest: &str) -> Option<(String, Option<WinBy>)> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let Some(by) = words.iter().position(|w| w.eq_ignore_ascii_case("BY")) else {
        return Some((rest.to_string(), None));
    };
    let named: Vec<String> = words[by + 1..]
        .iter()
        .map(|w| w.to_ascii_uppercase())
        .filter(|w| w != "SUPPLY")
        .collect();
    let measure = match named.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["CENTRES" | "CENTERS" | "CENTRE" | "CENTER" | "SCS" | "SC"] => WinBy::Centres,
        ["PIECES" | "PIECE" | "UNITS" | "UNIT"] => WinBy::Pieces,
        _ => return None,
    };
    Some((words[..by].join(" "), Some(measure)))
}
