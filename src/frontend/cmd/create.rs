//! CREATE ?<game> <password> [variant]: a new forming game, its Master
//! the sender (`game::create` makes it).

use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::create::{self as creating, valid_game_name, Created};
use crate::game::variant::{Variant, VARIANTS};
use crate::game::{GameSettings, StoreError};
use crate::say;

pub fn create(
    s: &mut Session<'_>,
    line: &Line,
    name: &str,
    password: &str,
    variant: Option<&str>,
) -> Result<(), StoreError> {
    if !valid_game_name(name) {
        s.reply.refuse(line, say!("create.bad_name", name));
        return Ok(());
    }
    let Some(variant) = Variant::by_name(variant.unwrap_or("standard")) else {
        let names: Vec<&str> = VARIANTS.iter().map(|v| v.name).collect();
        s.reply.refuse(
            line,
            say!("create.unknown_variant", variant => variant.unwrap_or(""),
                 variants => names.join(", ")),
        );
        return Ok(());
    };
    let settings = GameSettings::new(&s.config.games);
    let sender = s.sender();
    let created = creating::create(s.tx, name, &variant, settings, (&sender, password), s.now)?;
    let Created::Game(game) = created else {
        s.reply.refuse(line, say!("create.name_taken", name));
        return Ok(());
    };
    s.reply.game = Some(game.name.clone());
    s.reply.ok(
        line,
        say!("create.created", name, variant => variant.name,
             description => variant.description, players => variant.players()),
    );
    s.mastered.push(game.id);
    s.signed = Some(Signed::Master { game });
    Ok(())
}
