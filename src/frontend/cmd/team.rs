//! SET ADDRESS: the addresses a power is played from. One address (the
//! player's new address of record) or a team's list, `SET ADDRESS a@x,
//! b@x, c@x` (commas or spaces, as njudge), by the power's player, or by
//! the Master for any power (`SET ADDRESS <power> a@x, b@x`). The list
//! replaces the team's; an address new to the judge is asked to confirm
//! and gets nothing else until it does (`game::teams` keeps the lists).

use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::process::join_names;
use crate::game::teams::{self, Listed, MOST_ADDRESSES};
use crate::game::{lookup, power_of, Game, Seat, StoreError};
use crate::mail::Address;
use crate::say;

/// SET ADDRESS [<power>] <addresses>.
pub fn set_address(s: &mut Session<'_>, line: &Line, text: &str) -> Result<(), StoreError> {
    let Some((game, seat, list)) = whose(s, line, text)? else {
        return Ok(());
    };
    // SET ADDRESS alone (njudge): the address this mail came from.
    let list = if list.trim().is_empty() {
        s.sender()
    } else {
        list
    };
    let listed = match read_addresses(&list) {
        Ok(listed) => listed,
        Err(why) => {
            s.reply.refuse(line, why);
            return Ok(());
        }
    };
    let before = teams::addresses(s.tx, &seat)?;
    if same_addresses(&before, &listed) {
        let entry = match before.len() {
            1 => say!("set.address_already", address => &before[0]),
            _ => say!("set.addresses_already", addresses => before.join(", ")),
        };
        s.reply.ok(line, entry);
        return Ok(());
    }
    // The address this mail came from was confirmed by the sign-on; any
    // other must say it wants the judge's mail first.
    let sender = s.sender();
    let tx = s.tx;
    let known = |a: &str| -> Result<bool, StoreError> {
        Ok(a.eq_ignore_ascii_case(&sender) || crate::game::confirm::address_confirmed(tx, a)?)
    };
    let done = teams::set_addresses(s.tx, &seat, &listed, known, s.now)?;
    let mailed = ask_to_confirm(s, &game, &seat, &done.waiting, listed.len() > 1)?;
    // Everyone who played the power, and everyone who plays it now,
    // hears of the change.
    s.reply.also_to.extend(done.before.iter().cloned());
    s.reply.also_to.extend(done.team.iter().cloned());
    answer(s, line, (&seat, listed.len()), &done, mailed);
    refresh_signed_seat(s, seat.id)
}

/// The game and seat a SET ADDRESS is for, and the text of its list: the
/// signed-on player's; or, signed on as the Master, the power named first.
fn whose(
    s: &mut Session<'_>,
    line: &Line,
    text: &str,
) -> Result<Option<(Game, Seat, String)>, StoreError> {
    match &s.signed {
        Some(Signed::Player { game, seat, .. }) => {
            Ok(Some((game.clone(), seat.clone(), text.to_string())))
        }
        Some(Signed::Master { .. }) => {
            let (power, list) = text
                .trim()
                .split_once(char::is_whitespace)
                .unwrap_or((text, ""));
            if power.contains('@') {
                s.reply.refuse(line, say!("set.master_address_usage"));
                return Ok(None);
            }
            if list.trim().is_empty() {
                s.reply.refuse(line, say!("set.master_address_usage"));
                return Ok(None);
            }
            let found = super::master::master_seat(s, line, power)?;
            Ok(found.map(|(game, _, seat)| (game, seat, list.to_string())))
        }
        _ => {
            s.reply.refuse(line, say!("set.needs_player_sign_on"));
            Ok(None)
        }
    }
}

/// The addresses of a list (commas and/or spaces between them), each
/// once, in order; or why not: a word that is no address, or more than
/// [`MOST_ADDRESSES`].
fn read_addresses(text: &str) -> Result<Vec<String>, String> {
    let mut listed: Vec<String> = Vec::new();
    // One address written with a name ("Ann Smith <ann@x>") stays whole.
    if let Ok(addr) = Address::parse(text.trim()) {
        return Ok(vec![addr.addr_spec()]);
    }
    for word in text.split(|c: char| c == ',' || c.is_whitespace()) {
        if word.is_empty() {
            continue;
        }
        let Ok(addr) = Address::parse(word) else {
            return Err(say!("set.not_an_address", text => word));
        };
        let address = addr.addr_spec();
        if !listed.iter().any(|a| a.eq_ignore_ascii_case(&address)) {
            listed.push(address);
        }
    }
    if listed.len() > MOST_ADDRESSES {
        return Err(say!("set.too_many_addresses", most => MOST_ADDRESSES, given => listed.len()));
    }
    Ok(listed)
}

/// Whether two lists hold the same addresses (any order, any case).
fn same_addresses(a: &[String], b: &[String]) -> bool {
    let has = |list: &[String], x: &String| list.iter().any(|y| y.eq_ignore_ascii_case(x));
    a.len() == b.len() && a.iter().all(|x| has(b, x))
}

/// Asks each address of `waiting` to confirm: whether every one was
/// mailed now (an address asked today already is not asked again).
fn ask_to_confirm(
    s: &mut Session<'_>,
    game: &Game,
    seat: &Seat,
    waiting: &[String],
    team: bool,
) -> Result<bool, StoreError> {
    let power = power_of(seat).map_or("", |p| p.name());
    let sender = s.sender();
    let mut all_mailed = true;
    for address in waiting {
        let why = if team {
            say!("set.team_why", power, game => &game.name)
        } else {
            say!("set.address_why", power, game => &game.name)
        };
        let asked = super::confirm::ask(
            s,
            address,
            super::confirm::Naming {
                by: &sender,
                why,
                seat_id: Some(seat.id),
                game_id: Some(game.id),
                subject: None,
                or_else: None,
            },
        )?;
        all_mailed &= asked.mailed;
    }
    Ok(all_mailed)
}

/// What SET ADDRESS did, in words: one address as before teams, else the
/// team, who waits for a CONFIRM, and who no longer plays.
fn answer(
    s: &mut Session<'_>,
    line: &Line,
    (seat, listed): (&Seat, usize),
    done: &Listed,
    mailed: bool,
) {
    let Listed {
        team,
        waiting,
        before,
    } = done;
    let record = &team[0];
    let single = listed == 1 && before.len() == 1;
    let entry = match waiting.as_slice() {
        [new] if single => say!("set.address_unconfirmed", new, old => record, mailed),
        [] if single => say!("set.address_now", address => record),
        _ => {
            let left: Vec<&str> = before
                .iter()
                .filter(|a| !team.iter().any(|t| t.eq_ignore_ascii_case(a)))
                .map(String::as_str)
                .collect();
            let waiting: Vec<&str> = waiting.iter().map(String::as_str).collect();
            say!("set.team_now",
                 power => power_of(seat).map_or("", |p| p.name()),
                 team => team.join(", "), count => team.len(),
                 waiting => join_names(&waiting), many => waiting.len() > 1,
                 mailed, left => join_names(&left))
        }
    };
    s.reply.ok(line, entry);
}

/// The signed-on player's seat as stored now (its address of record may
/// have changed).
fn refresh_signed_seat(s: &mut Session<'_>, seat_id: i64) -> Result<(), StoreError> {
    if let Some(Signed::Player { seat, .. }) = &mut s.signed {
        if seat.id == seat_id {
            if let Some(fresh) = lookup::seat_by_id(s.tx, seat_id)? {
                *seat = fresh;
            }
        }
    }
    Ok(())
}
