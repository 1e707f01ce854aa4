//! LIST MINE: a Master's games at a glance, one line each (a teacher runs
//! one game per group). The games are those whose Master's address is the
//! sender's, and those whose Master signed on in the same mail. The line
//! says only what LIST says to anyone (phase, deadline, centres), and who
//! has not ordered only for the games whose password the mail gave: a
//! From line is easily forged.

use crate::frontend::script::Line;
use crate::frontend::session::Session;
use crate::game::clock::format_time;
use crate::game::overview::overview;
use crate::game::{lookup, process::join_names, Game, GameState, StoreError};
use crate::say;

/// The word after LIST that asks for the overview.
pub const MINE: &str = "MINE";

pub fn list_mine(s: &mut Session<'_>, line: &Line) -> Result<(), StoreError> {
    let sender = s.sender();
    let mut rows = Vec::new();
    for game in lookup::all_games(s.tx)? {
        let by_address = game
            .master_address
            .as_deref()
            .is_some_and(|a| a.eq_ignore_ascii_case(&sender));
        let proven = s.mastered.contains(&game.id);
        if game.state.is_over() || !(by_address || proven) {
            continue;
        }
        rows.push(row(s, &game, proven)?);
    }
    if rows.is_empty() {
        s.reply.ok(line, say!("info.mine_none"));
        return Ok(());
    }
    let hidden = rows.iter().any(|(_, proven)| !proven);
    let mut text = say!("info.mine_heading", hidden);
    for (row, _) in rows {
        text.push('\n');
        text.push_str(&row);
    }
    s.reply.ok(line, text);
    Ok(())
}

/// One game's line, and whether it may say who has not ordered.
fn row(s: &Session<'_>, game: &Game, proven: bool) -> Result<(String, bool), StoreError> {
    let Some(glance) = overview(s.tx, game)? else {
        let seats = lookup::seats_of_game(s.tx, game.id)?.len();
        let players = crate::game::variant_of(game).players();
        let text = say!("info.mine_forming", game => &game.name, seats, players);
        return Ok((text, true));
    };
    let centres: Vec<String> = glance
        .centres
        .iter()
        .map(|(power, held)| format!("{} {held}", power.name()))
        .collect();
    let owing: Vec<&str> = glance.owing.iter().map(|p| p.name()).collect();
    let text = say!("info.mine_game",
        game => &game.name,
        phase => &glance.phase,
        paused => game.state == GameState::Paused,
        deadline => glance.deadline.map(format_time),
        centres => centres.join(", "),
        owing => join_names(&owing),
        proven,
    );
    Ok((text, proven))
}
