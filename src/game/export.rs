//! A game as JSON, every phase from the start to the current one,
//! positions and orders in `judge adjudicate`'s spelling; a finished
//! game's final position apart, as `final_position`. What `judge export`
//! prints and the web archive publishes as `game.json`.

use rusqlite::Connection;
use serde_json::{json, Value};

use super::power_of;
use super::summary::final_row;
use crate::say;
use crate::store::{self, games::Game, phases::PhaseRecord, StoreError};

/// Whose orders the JSON carries.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Orders {
    /// Every phase's, the current one's too: `judge export`, for the
    /// judgekeeper.
    All,
    /// Only the processed phases': what any reader may see (the web
    /// archive); the current phase has `"orders": {}` until processed.
    Processed,
}

/// The game's JSON. Reads only.
pub fn game_json(conn: &Connection, game: &Game, which: Orders) -> Result<Value, StoreError> {
    let mut players = serde_json::Map::new();
    for seat in store::seats::seats_of_game(conn, game.id)? {
        if let Some(p) = power_of(&seat) {
            players.insert(
                p.upper().to_string(),
                json!({ "status": seat.status.as_str() }),
            );
        }
    }
    let mut phases = Vec::new();
    let records = store::phases::phases_of_game(conn, game.id)?;
    // A finished game's final position is no phase played: shown apart.
    let last = final_row(game, &records);
    let mut final_position = Value::Null;
    for (i, record) in records.into_iter().enumerate() {
        if Some(i) == last {
            final_position = serde_json::from_str(&record.position)?;
            continue;
        }
        let secret = which == Orders::Processed && !record.is_processed();
        phases.push(phase_json(conn, game, &record, secret)?);
    }
    Ok(json!({
        "game": game.name,
        "variant": game.variant,
        "state": game.state.as_str(),
        "players": players,
        "phases": phases,
        "final_position": final_position,
    }))
}

/// One phase: its position, with the orders stored for it (none if they
/// are `secret`), its results (null until processed) and its deadline.
fn phase_json(
    conn: &Connection,
    game: &Game,
    record: &PhaseRecord,
    secret: bool,
) -> Result<Value, StoreError> {
    let mut phase: Value = serde_json::from_str(&record.position)?;
    let mut orders = serde_json::Map::new();
    let stored = if secret {
        Vec::new()
    } else {
        store::orders::orders_of_phase(conn, game.id, &record.phase)?
    };
    for o in stored {
        if let Value::Array(list) = orders
            .entry(o.power.clone())
            .or_insert_with(|| Value::Array(Vec::new()))
        {
            list.push(Value::String(o.understood));
        }
    }
    let results: Value = match record.results.as_deref() {
        Some(text) => serde_json::from_str(text)?,
        None => Value::Null,
    };
    let Value::Object(obj) = &mut phase else {
        return Err(StoreError::Setup(say!(
            "export.position_not_an_object",
            phase => &record.phase
        )));
    };
    obj.insert("orders".into(), Value::Object(orders));
    obj.insert("results".into(), results);
    obj.insert("deadline".into(), json!(record.deadline));
    Ok(phase)
}
