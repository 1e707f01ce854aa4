//! SET OBSERVER <address> and SET NO OBSERVER <address>: the Master names
//! an address that follows the game (a class's list) or takes one away.
//! A named address has no password; one new to the judge is asked to
//! confirm first and gets nothing else until it does (`confirm`).

use super::confirm::{ask, Naming};
use super::master_game;
use crate::frontend::script::Line;
use crate::frontend::session::Session;
use crate::game::observers::{self, Named};
use crate::game::StoreError;
use crate::mail::Address;
use crate::say;

/// Whether SET OBSERVER's words are an address (not ANY, NO or WHITE).
pub fn is_address(rest: &str) -> bool {
    rest.contains('@')
}

/// SET OBSERVER <address>.
pub fn name(s: &mut Session<'_>, line: &Line, text: &str) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    let Ok(address) = Address::parse(text.trim()) else {
        s.reply
            .refuse(line, say!("set.not_an_address", text => text.trim()));
        return Ok(());
    };
    let address = address.addr_spec();
    let said = match observers::name(s.tx, &game, &address, s.now)? {
        Named::Already => say!("set.observer_already", address, game => &game.name),
        Named::Added => say!("set.observer_named", address, game => &game.name),
        Named::AddedUnconfirmed => {
            let by = s.sender();
            let naming = Naming {
                by: &by,
                why: say!("set.observer_why", game => &game.name),
                seat_id: None,
                // Not the game's mail yet: no line on how to stop observing.
                game_id: None,
                subject: None,
                or_else: None,
            };
            let asked = ask(s, &address, naming)?;
            say!("set.observer_unconfirmed", address, game => &game.name, mailed => asked.mailed)
        }
    };
    s.reply.ok(line, said);
    Ok(())
}

/// SET NO OBSERVER <address>: whether it joined with OBSERVE or was named.
pub fn unname(s: &mut Session<'_>, line: &Line, text: &str) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    let Ok(address) = Address::parse(text.trim()) else {
        s.reply.refuse(line, say!("set.no_observer_usage"));
        return Ok(());
    };
    let address = address.addr_spec();
    if observers::remove(s.tx, &game, &address)? {
        s.reply.ok(
            line,
            say!("set.observer_removed", address, game => &game.name),
        );
    } else {
        s.reply.refuse(
            line,
            say!("set.observer_not_there", address, game => &game.name),
        );
    }
    Ok(())
}
