//! Games: name (unique, case-insensitive), variant, state, settings (JSON),
//! master, seed, and how the game ended.

use rusqlite::{params, Connection, OptionalExtension, Row};

use super::password::PasswordHash;
use super::{expect_one, text_enum, unique_as_duplicate, Result};

text_enum! {
    /// Where a game is in its life.
    GameState {
        /// Taking players; no power assigned yet.
        Forming = "forming",
        Active = "active",
        /// Stopped by the master; deadlines do not run.
        Paused = "paused",
        /// Ended by a win or a draw.
        Finished = "finished",
        /// Ended otherwise (by the master).
        Terminated = "terminated",
    }
}

impl GameState {
    /// Finished or terminated.
    pub fn is_over(self) -> bool {
        matches!(self, GameState::Finished | GameState::Terminated)
    }
}

/// What it takes to create a game.
#[derive(Clone, Debug)]
pub struct NewGame<'a> {
    pub name: &'a str,
    pub variant: &'a str,
    /// JSON text (press mode, NMR, deadline schedule, ...).
    pub settings: &'a str,
    pub master_address: Option<&'a str>,
    pub master_password: Option<&'a PasswordHash>,
    pub seed: i64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub id: i64,
    pub name: String,
    pub variant: String,
    pub state: GameState,
    /// JSON text.
    pub settings: String,
    pub master_address: Option<String>,
    pub master_password: Option<PasswordHash>,
    pub seed: i64,
    pub created_at: i64,
    pub ended_at: Option<i64>,
    /// JSON text, once the game is over.
    pub result: Option<String>,
}

impl Game {
    /// The settings parsed into the caller's type.
    pub fn settings_as<T: serde::de::DeserializeOwned>(&self) -> Result<T> {
        Ok(serde_json::from_str(&self.settings)?)
    }
}

const COLUMNS: &str = "id, name, variant, state, settings, master_address, master_password_hash, \
                       seed, created_at, ended_at, result";

fn from_row(r: &Row<'_>) -> rusqlite::Result<Game> {
    Ok(Game {
        id: r.get(0)?,
        name: r.get(1)?,
        variant: r.get(2)?,
        state: r.get(3)?,
        settings: r.get(4)?,
        master_address: r.get(5)?,
        master_password: r.get(6)?,
        seed: r.get(7)?,
        created_at: r.get(8)?,
        ended_at: r.get(9)?,
        result: r.get(10)?,
    })
}

/// Creates a game in state `forming`; its id. [`StoreError::Duplicate`]
/// when the name is taken (names compare case-insensitively).
///
/// [`StoreError::Duplicate`]: super::StoreError::Duplicate
pub fn create_game(conn: &Connection, game: &NewGame<'_>, now: i64) -> Result<i64> {
    conn.execute(
        "INSERT INTO games (name, variant, state, settings, master_address, \
                            master_password_hash, seed, created_at) \
         VALUES (?1, ?2, 'forming', ?3, ?4, ?5, ?6, ?7)",
        params![
            game.name,
            game.variant,
            game.settings,
            game.master_address,
            game.master_password,
            game.seed,
            now
        ],
    )
    .map_err(|e| unique_as_duplicate(e, || format!("game {:?}", game.name)))?;
    Ok(conn.last_insert_rowid())
}

/// The game called `name` (any case).
pub fn game_by_name(conn: &Connection, name: &str) -> Result<Option<Game>> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM games WHERE name = ?1"))?
        .query_row([name], from_row)
        .optional()?)
}

pub fn game_by_id(conn: &Connection, id: i64) -> Result<Option<Game>> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM games WHERE id = ?1"))?
        .query_row([id], from_row)
        .optional()?)
}

/// All games, by name.
pub fn list_games(conn: &Connection) -> Result<Vec<Game>> {
    let mut stmt =
        conn.prepare_cached(&format!("SELECT {COLUMNS} FROM games ORDER BY name, id"))?;
    let rows = stmt.query_map([], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The games in `state`, by name.
pub fn games_in_state(conn: &Connection, state: GameState) -> Result<Vec<Game>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM games WHERE state = ?1 ORDER BY name, id"
    ))?;
    let rows = stmt.query_map([state], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Moves the game to `state`. Entering finished or terminated sets
/// `ended_at` to `now` (once); leaving them clears it.
pub fn set_game_state(conn: &Connection, game_id: i64, state: GameState, now: i64) -> Result<()> {
    let n = conn.execute(
        "UPDATE games SET state = ?2, \
             ended_at = CASE WHEN ?3 THEN coalesce(ended_at, ?4) ELSE NULL END \
         WHERE id = ?1",
        params![game_id, state, state.is_over(), now],
    )?;
    expect_one(n, || format!("game #{game_id}"))
}

/// Ends the game: state (finished or terminated), `ended_at` and the result
/// (JSON text: winner, draw members, centre counts...).
pub fn end_game(
    conn: &Connection,
    game_id: i64,
    state: GameState,
    result: &str,
    now: i64,
) -> Result<()> {
    debug_assert!(state.is_over());
    let n = conn.execute(
        "UPDATE games SET state = ?2, ended_at = ?3, result = ?4 WHERE id = ?1",
        params![game_id, state, now, result],
    )?;
    expect_one(n, || format!("game #{game_id}"))
}

/// Replaces the settings (JSON text).
pub fn set_game_settings(conn: &Connection, game_id: i64, settings: &str) -> Result<()> {
    let n = conn.execute(
        "UPDATE games SET settings = ?2 WHERE id = ?1",
        params![game_id, settings],
    )?;
    expect_one(n, || format!("game #{game_id}"))
}

/// Marks the game failed at `now`: the clock could not process it (why).
/// The clock leaves it alone for [`GAME_RETRY`] seconds, then tries again.
/// True when it was not marked before (the judgekeeper is told only then).
pub fn mark_game_failed(conn: &Connection, game_id: i64, why: &str, now: i64) -> Result<bool> {
    let before: Option<Option<i64>> = conn
        .query_row(
            "SELECT failed_at FROM games WHERE id = ?1",
            [game_id],
            |r| r.get(0),
        )
        .optional()?;
    let Some(before) = before else {
        return Err(super::StoreError::NotFound(format!("game #{game_id}")));
    };
    conn.execute(
        "UPDATE games SET failed_at = ?3, failure = ?2 WHERE id = ?1",
        params![game_id, why, now],
    )?;
    Ok(before.is_none())
}

/// Seconds the clock leaves a failed game alone before trying it again.
pub const GAME_RETRY: i64 = 3600;

/// The games marked failed: id to when they last failed.
pub fn failed_games(conn: &Connection) -> Result<std::collections::HashMap<i64, i64>> {
    let mut stmt =
        conn.prepare_cached("SELECT id, failed_at FROM games WHERE failed_at IS NOT NULL")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The game was processed again after failing: the mark goes.
pub fn clear_game_failure(conn: &Connection, game_id: i64) -> Result<()> {
    conn.execute(
        "UPDATE games SET failed_at = NULL, failure = NULL WHERE id = ?1",
        [game_id],
    )?;
    Ok(())
}
