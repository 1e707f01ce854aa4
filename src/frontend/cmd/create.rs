//! CREATE ?<game> <password> [variant]: a new forming game, its Master
//! the sender.

use argon2::password_hash::rand_core::{OsRng, RngCore};

use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::variant::{Variant, VARIANTS};
use crate::game::GameSettings;
use crate::store::{self, games::NewGame, StoreError};

/// Game names: letters, digits, `-` and `_`, at most 20.
pub fn valid_game_name(name: &str) -> bool {
    (1..=20).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

pub fn create(
    s: &mut Session<'_>,
    line: &Line,
    name: &str,
    password: &str,
    variant: Option<&str>,
) -> Result<(), StoreError> {
    if !valid_game_name(name) {
        s.reply.refuse(
            line,
            format!("'{name}' cannot be a game's name: use up to 20 letters, digits, - or _."),
        );
        return Ok(());
    }
    let Some(variant) = Variant::by_name(variant.unwrap_or("standard")) else {
        let names: Vec<&str> = VARIANTS.iter().map(|v| v.name).collect();
        s.reply.refuse(
            line,
            format!(
                "This judge does not run the variant '{}'. Variants: {}. GET rules describes them.",
                variant.unwrap_or(""),
                names.join(", ")
            ),
        );
        return Ok(());
    };
    if store::games::game_by_name(s.tx, name)?.is_some() {
        s.reply.refuse(
            line,
            format!("A game named '{name}' already exists: choose another name."),
        );
        return Ok(());
    }
    let hash = store::password::hash_password(password)?;
    let mut settings = GameSettings::new(&s.config.games);
    settings.players = variant.players();
    let settings = serde_json::to_string(&settings)?;
    let sender = s.sender();
    let mut seed = [0u8; 8];
    OsRng.fill_bytes(&mut seed);
    let id = store::games::create_game(
        s.tx,
        &NewGame {
            name,
            variant: variant.name,
            settings: &settings,
            master_address: Some(&sender),
            master_password: Some(&hash),
            seed: i64::from_le_bytes(seed) & i64::MAX,
        },
        s.now,
    )?;
    let game = store::games::game_by_id(s.tx, id)?.expect("just created");
    s.reply.game = Some(game.name.clone());
    s.reply.ok(
        line,
        format!(
            "Game '{name}' ({}: {}) is created and taking players; you are its Master.\n\
             Players join with: SIGNON ?{name} <password of their choice>\n\
             You sign on with:  SIGNON M{name} <your password>\n\
             It starts when {} players have joined.",
            variant.name,
            variant.description,
            variant.players()
        ),
    );
    s.signed = Some(Signed::Master { game });
    Ok(())
}
