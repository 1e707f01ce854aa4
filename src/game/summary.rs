//! A game's summary: who played which power when, and the supply centres
//! of each power year by year. Mailed on SUMMARY and at the game's end.
//! Addresses are not shown: players see no one else's address.

use rusqlite::Connection;

use super::position_of;
use crate::engine::map::Power;
use crate::engine::phase::{PhaseKind, Season};
use crate::say;
use crate::store::{self, games::Game, games::GameState, phases::PhaseRecord, StoreError};

/// The index in `records` (a game's phases in order) of the row holding
/// the position a finished game ended in: stored after the last phase
/// played, never played itself. None while the game goes on.
pub fn final_row(game: &Game, records: &[PhaseRecord]) -> Option<usize> {
    let last = records.len().checked_sub(1)?;
    let r = &records[last];
    (game.state == GameState::Finished
        && r.deadline.is_none()
        && r.results.as_deref().is_some_and(|t| t.trim() == "{}")
        && last > 0)
        .then_some(last)
}

/// The table's rows: the centres at the start of each year, and where
/// the game ended ("end").
fn centre_rows(conn: &Connection, game: &Game, out: &mut Vec<String>) -> Result<(), StoreError> {
    let records = store::phases::phases_of_game(conn, game.id)?;
    let last = final_row(game, &records);
    for (i, record) in records.iter().enumerate() {
        let position = position_of(record)?;
        let p = position.phase;
        // The position the game ended in is no phase played: "end".
        let label = if Some(i) == last {
            "end".to_string()
        } else {
            p.year.to_string()
        };
        if Some(i) == last || (p.season == Season::Spring && p.kind == PhaseKind::Movement) {
            out.push(format!(
                "  {:<6}{}",
                label,
                Power::ALL
                    .iter()
                    .map(|&pw| format!("{:>4}", position.centre_count(pw)))
                    .collect::<String>()
            ));
        }
    }
    Ok(())
}

pub fn summary_text(conn: &Connection, game: &Game) -> Result<String, StoreError> {
    let mut out = vec![
        say!("summary.heading", game => &game.name, variant => &game.variant,
             state => game.state.as_str()),
        String::new(),
        say!("summary.who_played"),
    ];
    let tenures = store::seats::seat_history(conn, game.id)?;
    if tenures.is_empty() {
        out.push(say!("summary.no_powers_assigned"));
    }
    for power in Power::ALL {
        let periods: Vec<String> = tenures
            .iter()
            .filter(|t| t.power == power.upper())
            .map(|t| {
                format!(
                    "{}-{}",
                    t.from_phase,
                    t.to_phase.as_deref().unwrap_or("now")
                )
            })
            .collect();
        if periods.is_empty() {
            continue;
        }
        let players = periods.len();
        out.push(format!(
            "  {:<8} {} {}",
            power.name(),
            periods.join(", "),
            say!("summary.players", count => players)
        ));
    }
    out.push(String::new());
    out.push(say!("summary.centres_heading"));
    out.push(format!(
        "  {:<6}{}",
        "year",
        Power::ALL
            .iter()
            .map(|p| format!("{:>4}", p.initial()))
            .collect::<String>()
    ));
    centre_rows(conn, game, &mut out)?;
    if let Some(result) = &game.result {
        // Stored as JSON: {"summary": "..."}.
        let summary = serde_json::from_str::<serde_json::Value>(result)
            .ok()
            .and_then(|v| v["summary"].as_str().map(str::to_string))
            .unwrap_or_else(|| result.clone());
        out.push(String::new());
        out.push(say!("summary.result", summary));
    }
    Ok(out.join("\n"))
}
