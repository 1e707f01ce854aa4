//! `judge export <game>`: the game as JSON, every phase from the start to
//! the current one, positions and orders in `judge adjudicate`'s spelling;
//! a finished game's final position apart, as `final_position`.

use serde_json::{json, Value};

use crate::config::Config;
use crate::game::power_of;
use crate::store::{self, Store};

pub fn run(config: &Config, name: &str) -> Result<Value, String> {
    // Read-only: an export needs no lock and works on a copy the judge may
    // not write (a backup, a file owned by the judge's account).
    let store = Store::open_read_only(config.database_path()).map_err(|e| {
        format!(
            "cannot open the database {}: {e}",
            config.database_path().display()
        )
    })?;
    let conn = store.conn();
    let err = |e: store::StoreError| e.to_string();
    let game = store::game_by_name(conn, name)
        .map_err(err)?
        .ok_or_else(|| format!("there is no game named '{name}'"))?;
    let mut players = serde_json::Map::new();
    for seat in store::seats_of_game(conn, game.id).map_err(err)? {
        if let Some(p) = power_of(&seat) {
            players.insert(
                p.upper().to_string(),
                json!({ "status": seat.status.as_str() }),
            );
        }
    }
    let mut phases = Vec::new();
    let records = store::phases_of_game(conn, game.id).map_err(err)?;
    // A finished game's final position is no phase played: shown apart.
    let last = crate::game::summary::final_row(&game, &records);
    let mut final_position = Value::Null;
    for (i, record) in records.into_iter().enumerate() {
        let mut phase: Value = serde_json::from_str(&record.position).map_err(|e| e.to_string())?;
        if Some(i) == last {
            final_position = phase;
            continue;
        }
        let mut orders = serde_json::Map::new();
        for o in store::orders_of_phase(conn, game.id, &record.phase).map_err(err)? {
            orders
                .entry(o.power.clone())
                .or_insert_with(|| Value::Array(Vec::new()))
                .as_array_mut()
                .expect("array")
                .push(Value::String(o.understood));
        }
        let results: Value = record
            .results
            .as_deref()
            .map(serde_json::from_str)
            .transpose()
            .map_err(|e| e.to_string())?
            .unwrap_or(Value::Null);
        let obj = phase.as_object_mut().expect("a position object");
        obj.insert("orders".into(), Value::Object(orders));
        obj.insert("results".into(), results);
        obj.insert("deadline".into(), json!(record.deadline));
        phases.push(phase);
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
