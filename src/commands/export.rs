//! `judge export <game>`: the game as JSON (`game::export`), every phase
//! from the start to the current one.

use serde_json::Value;

use crate::config::Config;
use crate::game::export::{game_json, Orders};
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
    let game = store::games::game_by_name(conn, name)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("there is no game named '{name}'"))?;
    game_json(conn, &game, Orders::All).map_err(|e| e.to_string())
}
