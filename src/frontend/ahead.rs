//! A batch of mails' sign-ons, found before the mails are handled, so
//! that their passwords can be verified together on every core
//! (`CredentialCache::unknown`, then `remember`) instead of one after another as
//! each mail is handled. Only what a match would let the mail do later
//! is looked for: a sign-on by a power's own address (any of a team's),
//! by the Master's address, or by an observer. Those are never locked
//! out, so verifying them ahead costs nothing the mail's own handling
//! would not; anyone else's sign-on is checked only in order, where its
//! failures are counted.

use super::script::{read_script, Command, Line, SignOnAs};
use super::session::MAX_PASSWORD_COMMANDS;
use crate::config::Config;
use crate::engine::map::Power;
use crate::game::intake::Store;
use crate::game::sign_on::PasswordHash;
use crate::game::{lookup, teams, StoreError};
use crate::mail::Incoming;

/// A sign-on as written: who, in which game, with what password.
struct Written<'a> {
    who: &'a SignOnAs,
    game: &'a str,
    password: &'a str,
}

/// Each sign-on of `mails` (read, not yet stored) that a match would
/// serve, with the stored hash its password is to match.
pub fn sign_ons(
    store: &Store,
    config: &Config,
    mails: &[&Incoming],
) -> Result<Vec<(PasswordHash, String)>, StoreError> {
    let mut found = Vec::new();
    for mail in mails {
        if mail.oversized || super::why_drop(mail, config).is_some() {
            continue;
        }
        let lines = read_script(&mail.lines);
        // As many as the mail's handling would check, at most.
        for written in lines.iter().filter_map(written).take(MAX_PASSWORD_COMMANDS) {
            if let Some(hash) = hash_to_match(store, mail, &written)? {
                found.push((hash, written.password.to_string()));
            }
        }
    }
    Ok(found)
}

/// The sign-on a line writes, if it writes one.
fn written(line: &Line) -> Option<Written<'_>> {
    match &line.command {
        Command::SignOn {
            who,
            game,
            password,
        } => Some(Written {
            who,
            game,
            password,
        }),
        Command::Observe { game, password } => Some(Written {
            who: &SignOnAs::Observer,
            game,
            password,
        }),
        _ => None,
    }
}

/// The hash a sign-on's password is to match, when its sender owns what
/// it signs on to.
fn hash_to_match(
    store: &Store,
    mail: &Incoming,
    written: &Written<'_>,
) -> Result<Option<PasswordHash>, StoreError> {
    let conn = store.conn();
    let Some(game) = lookup::game_by_name(conn, written.game)? else {
        return Ok(None);
    };
    let sender = mail
        .reply_address()
        .map(|a| a.addr_spec())
        .unwrap_or_default();
    let owns = |owners: &[String]| owners.iter().any(|o| o.eq_ignore_ascii_case(&sender));
    Ok(match written.who {
        SignOnAs::Join => None,
        SignOnAs::Master => game
            .master_password
            .filter(|_| owns(game.master_address.as_slice())),
        SignOnAs::Observer => {
            lookup::observer_by_address(conn, game.id, &sender)?.map(|obs| obs.password)
        }
        SignOnAs::Power(initial) => {
            let Some(power) = Power::from_initial(*initial) else {
                return Ok(None);
            };
            match lookup::seat_by_power(conn, game.id, power.upper())? {
                Some(seat) if owns(&teams::addresses(conn, &seat)?) => Some(seat.password),
                _ => None,
            }
        }
    })
}
