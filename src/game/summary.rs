//! A game's summary: who played which power when, and the supply centres
//! of each power year by year. Mailed on SUMMARY and at the game's end.
//! Addresses are not shown: players see no one else's address.

use rusqlite::Connection;

use super::position_of;
use crate::engine::map::Power;
use crate::engine::phase::{PhaseKind, Season};
use crate::store::{self, Game, StoreError};

pub fn summary_text(conn: &Connection, game: &Game) -> Result<String, StoreError> {
    let mut out = vec![
        format!(
            "Summary of '{}' ({}, {}).",
            game.name,
            game.variant,
            game.state.as_str()
        ),
        String::new(),
        "Who played which power:".to_string(),
    ];
    let tenures = store::seat_history(conn, game.id)?;
    if tenures.is_empty() {
        out.push("  (no powers assigned yet)".to_string());
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
            "  {:<8} {} ({} player{})",
            power.name(),
            periods.join(", "),
            players,
            if players == 1 { "" } else { "s" }
        ));
    }
    out.push(String::new());
    out.push("Supply centres at the start of each year:".to_string());
    out.push(format!(
        "  {:<6}{}",
        "year",
        Power::ALL
            .iter()
            .map(|p| format!("{:>4}", p.initial()))
            .collect::<String>()
    ));
    for record in store::phases_of_game(conn, game.id)? {
        let position = position_of(&record)?;
        let p = position.phase;
        if p.season == Season::Spring && p.kind == PhaseKind::Movement {
            out.push(format!(
                "  {:<6}{}",
                p.year,
                Power::ALL
                    .iter()
                    .map(|&pw| format!("{:>4}", position.centre_count(pw)))
                    .collect::<String>()
            ));
        }
    }
    if let Some(result) = &game.result {
        // Stored as JSON: {"summary": "..."}.
        let summary = serde_json::from_str::<serde_json::Value>(result)
            .ok()
            .and_then(|v| v["summary"].as_str().map(str::to_string))
            .unwrap_or_else(|| result.clone());
        out.push(String::new());
        out.push(format!("Result: {summary}"));
    }
    Ok(out.join("\n"))
}
