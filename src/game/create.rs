//! CREATE: a new forming game, its Master the creator, taking players.

use argon2::password_hash::rand_core::{OsRng, RngCore};
use rusqlite::Connection;

use super::variant::Variant;
use super::{Game, GameSettings};
use crate::store::{self, games::NewGame, StoreError};

/// Game names: letters, digits, `-` and `_`, at most 20.
pub fn valid_game_name(name: &str) -> bool {
    (1..=20).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// What became of a CREATE.
#[derive(Debug)]
pub enum Created {
    /// The game, forming, with `master` as its Master.
    Game(Game),
    /// A game of that name exists.
    NameTaken,
}

/// A game, whose players are the variant's; what else it plays by is
/// `settings` (the judge's defaults); a seed for its lots drawn now.
pub fn create(
    conn: &Connection,
    name: &str,
    variant: &Variant,
    mut settings: GameSettings,
    (master, password): (&str, &str),
    now: i64,
) -> Result<Created, StoreError> {
    if store::games::game_by_name(conn, name)?.is_some() {
        return Ok(Created::NameTaken);
    }
    let hash = store::password::hash_password(password)?;
    settings.players = variant.players();
    let settings = serde_json::to_string(&settings)?;
    let mut seed = [0u8; 8];
    OsRng.fill_bytes(&mut seed);
    let id = store::games::create_game(
        conn,
        &NewGame {
            name,
            variant: variant.name,
            settings: &settings,
            master_address: Some(master),
            master_password: Some(&hash),
            seed: i64::from_le_bytes(seed) & i64::MAX,
        },
        now,
    )?;
    let game = store::games::game_by_id(conn, id)?
        .ok_or_else(|| StoreError::NotFound(format!("game #{id}, just created")))?;
    Ok(Created::Game(game))
}
