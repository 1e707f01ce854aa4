//! A power left without a player (ejected, resigned, or abandoned at the
//! end of grace): taken over by a newcomer who names it, SIGNON
//! <initial><game> <password>, once the Master has approved the
//! newcomer's address (SET TAKEOVER <power> <address>) or opened the game
//! to takeovers (SET TAKEOVER ON).

use super::{master_game, sign_on_player};
use crate::engine::map::Power;
use crate::frontend::script::Line;
use crate::frontend::session::Session;
use crate::game::clock::format_time;
use crate::game::deadline::refresh_deadline;
use crate::game::settings::GameSettings;
use crate::game::{power_of, settings_of};
use crate::report::title;
use crate::store::{self, games::Game, seats::Seat, seats::SeatStatus, StoreError};

/// Whether the seat has nobody: its player was ejected or resigned. The
/// old password opens nothing; only a newcomer signs on to it.
pub fn vacant(seat: &Seat) -> bool {
    seat.power.is_some()
        && (seat.address == store::seats::VACANT || seat.status == SeatStatus::Resigned)
}

/// Whether a newcomer may take the seat over: it has nobody, or its
/// player left it (abandoned at the end of grace).
fn waiting(seat: &Seat) -> bool {
    vacant(seat) || (seat.power.is_some() && seat.status == SeatStatus::Abandoned)
}

/// The power `address` plays in `game`, if any: a player takes over no
/// second power.
fn plays_in(
    conn: &rusqlite::Connection,
    game: &Game,
    address: &str,
) -> Result<Option<Power>, StoreError> {
    Ok(store::seats::seats_of_game(conn, game.id)?
        .iter()
        .filter(|seat| seat.address.eq_ignore_ascii_case(address) && !vacant(seat))
        .filter(|seat| seat.status != SeatStatus::Eliminated)
        .find_map(power_of))
}

/// Whether the game lets `address` take over `power`.
pub fn approved(settings: &GameSettings, power: Power, address: &str) -> bool {
    settings.takeovers
        || settings
            .approved
            .get(power.upper())
            .is_some_and(|a| a.eq_ignore_ascii_case(address))
}

/// How a newcomer takes `power` over, in one sentence.
pub fn how_to(
    conn: &rusqlite::Connection,
    game: &Game,
    power: Power,
) -> Result<String, StoreError> {
    let settings = settings_of(&reload(conn, game)?)?;
    let sign_on = format!("SIGNON {}{} <password>", power.initial(), game.name);
    Ok(if settings.takeovers {
        format!("Anyone may take {} over with {sign_on}.", power.name())
    } else {
        format!(
            "A new player takes {} over with {sign_on}, once the Master has approved \
             their address (SET TAKEOVER {} <address>).",
            power.name(),
            power.name()
        )
    })
}

/// SIGNON ?<game> in a game that has started: the newcomer must name the
/// power.
pub fn unnamed(s: &mut Session<'_>, line: &Line, game: &Game) -> Result<(), StoreError> {
    let open: Vec<Power> = store::seats::seats_of_game(s.tx, game.id)?
        .iter()
        .filter(|seat| waiting(seat))
        .filter_map(power_of)
        .collect();
    let Some(&first) = open.first() else {
        s.reply.refuse(
            line,
            format!(
                "Game '{}' has started and no power in it is waiting for a player.",
                game.name
            ),
        );
        return Ok(());
    };
    let names: Vec<&str> = open.iter().map(|p| p.name()).collect();
    s.reply.refuse(
        line,
        format!(
            "Game '{}' has started: name the power you take over with its initial, \
             e.g. SIGNON {}{} <password>. Waiting for a player: {}.",
            game.name,
            first.initial(),
            game.name,
            names.join(", ")
        ),
    );
    Ok(())
}

/// A sign-on by a newcomer to a seat waiting for a player; None when the
/// sign-on is not a takeover (the seat's own player, or nobody approved)
/// and the password decides.
pub fn try_take_over(
    s: &mut Session<'_>,
    line: &Line,
    game: &Game,
    seat: &Seat,
    password: &str,
) -> Result<Option<()>, StoreError> {
    let Some(power) = power_of(seat).filter(|_| waiting(seat)) else {
        return Ok(None);
    };
    // The seat's own player, back with their password, is no newcomer.
    if !vacant(seat) && s.credentials.check(password, &seat.password) {
        return Ok(None);
    }
    let sender = s.sender();
    let settings = settings_of(&reload(s.tx, game)?)?;
    if approved(&settings, power, &sender) && !seat.address.eq_ignore_ascii_case(&sender) {
        if let Some(own) = plays_in(s.tx, game, &sender)? {
            s.reply.refuse(
                line,
                format!(
                    "You already play {} in '{}': a player takes over no second power.",
                    own.name(),
                    game.name
                ),
            );
            return Ok(Some(()));
        }
        take_over(s, line, game.clone(), seat, password)?;
        return Ok(Some(()));
    }
    if !vacant(seat) {
        return Ok(None);
    }
    // Nobody's password opens a vacant seat, not even the old one.
    s.reply.refuse(
        line,
        format!(
            "{} in '{}' has no player, and the Master has not approved {sender} to take \
             it over: ask the Master to SET TAKEOVER {} {sender}.",
            power.name(),
            game.name,
            power.name()
        ),
    );
    Ok(Some(()))
}

/// The newcomer takes the seat over: their address and password, a fresh
/// deadline, the others told.
fn take_over(
    s: &mut Session<'_>,
    line: &Line,
    game: Game,
    open: &Seat,
    password: &str,
) -> Result<(), StoreError> {
    let hash = store::password::hash_password(password)?;
    let sender = s.sender();
    let phase = s.reply.phase.clone().unwrap_or_default();
    let power = power_of(open).expect("an assigned seat");
    store::seats::replace_player(s.tx, open.id, &sender, &hash, &phase)?;
    // The approval is used up.
    let fresh = reload(s.tx, &game)?;
    let mut settings = settings_of(&fresh)?;
    if settings.approved.remove(power.upper()).is_some() {
        store::games::set_game_settings(s.tx, game.id, &serde_json::to_string(&settings)?)?;
    }
    // A fresh deadline for the newcomer.
    refresh_deadline(s.tx, &game, s.now)?;
    let seat = store::seats::seat_by_id(s.tx, open.id)?.expect("seat");
    // The others hear of the newcomer and of the deadline.
    if let Some(cur) = crate::game::current(s.tx, game.id)? {
        let mut to = crate::game::everyone(s.tx, &game)?;
        to.retain(|a| !a.eq_ignore_ascii_case(&sender));
        let subject = s.subject(
            &game.name,
            Some(&cur.record.phase),
            &format!("{} {}", title::NEW_PLAYER_FOR, power.name()),
        );
        let deadline = cur.record.deadline.map(format_time).unwrap_or_default();
        s.send(
            to,
            subject,
            format!(
                "{} in '{}' has a new player. The deadline for {} is {deadline}.\n",
                power.name(),
                game.name,
                cur.record.phase
            ),
            Some(game.id),
        );
    }
    s.reply.ok(
        line,
        format!(
            "You now play {} in '{}'. Sign on from now on with SIGNON {}{} <password>.",
            power.name(),
            game.name,
            power.initial(),
            game.name
        ),
    );
    sign_on_player(s, game, seat, Some(power));
    Ok(())
}

/// SET TAKEOVER ON|OFF (anyone may take over a power waiting for a
/// player, or only those approved), SET TAKEOVER <power> <address> (that
/// address may take it over), SET TAKEOVER <power> OFF (no longer).
pub fn set_takeover(s: &mut Session<'_>, line: &Line, rest: &str) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    let game = reload(s.tx, &game)?;
    let mut settings = settings_of(&game)?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let said = match words.as_slice() {
        [on] if on.eq_ignore_ascii_case("ON") => {
            settings.takeovers = true;
            "Open to takeovers: anyone may take over a power waiting for a player, \
             naming it (SIGNON <initial><game> <password>)."
                .to_string()
        }
        [off] if off.eq_ignore_ascii_case("OFF") => {
            settings.takeovers = false;
            "Closed to takeovers: only an address you approve (SET TAKEOVER <power> \
             <address>) may take over a power."
                .to_string()
        }
        [power, who] => match (Power::parse(power), who.to_ascii_uppercase().as_str()) {
            (Some(power), "OFF") => {
                settings.approved.remove(power.upper());
                format!("Nobody is approved to take {} over.", power.name())
            }
            (Some(power), _) => return approve(s, line, &game, settings, power, who),
            (None, _) => return refuse_takeover(s, line),
        },
        _ => return refuse_takeover(s, line),
    };
    store::games::set_game_settings(s.tx, game.id, &serde_json::to_string(&settings)?)?;
    s.reply.ok(line, said);
    Ok(())
}

fn refuse_takeover(s: &mut Session<'_>, line: &Line) -> Result<(), StoreError> {
    s.reply.refuse(
        line,
        "Write SET TAKEOVER ON (anyone may take over a power waiting for a player), \
         SET TAKEOVER OFF (only those you approve), SET TAKEOVER <power> <address> \
         (approve one), or SET TAKEOVER <power> OFF.",
    );
    Ok(())
}

/// SET TAKEOVER <power> <address>: the address is approved, and told how
/// to sign on.
fn approve(
    s: &mut Session<'_>,
    line: &Line,
    game: &Game,
    mut settings: GameSettings,
    power: Power,
    who: &str,
) -> Result<(), StoreError> {
    let Ok(address) = crate::mail::Address::parse(who) else {
        s.reply
            .refuse(line, format!("'{who}' is not a mail address."));
        return Ok(());
    };
    let address = address.addr_spec();
    let seat = store::seats::seat_by_power(s.tx, game.id, power.upper())?;
    if !seat.as_ref().is_some_and(waiting) {
        s.reply.refuse(
            line,
            format!(
                "{} in '{}' is not waiting for a player: approve a newcomer once it is \
                 (after EJECT {}, a resignation, or the end of grace in a NoNMR game).",
                power.name(),
                game.name,
                power.name()
            ),
        );
        return Ok(());
    }
    if let Some(own) = plays_in(s.tx, game, &address)? {
        s.reply.refuse(
            line,
            format!(
                "{address} already plays {} in '{}': a player takes over no second power.",
                own.name(),
                game.name
            ),
        );
        return Ok(());
    }
    settings
        .approved
        .insert(power.upper().to_string(), address.clone());
    store::games::set_game_settings(s.tx, game.id, &serde_json::to_string(&settings)?)?;
    let sign_on = format!("SIGNON {}{} <password>", power.initial(), game.name);
    let subject = s.subject(
        &game.name,
        None,
        &format!("{} {}", title::YOU_MAY_TAKE_OVER, power.name()),
    );
    let approved = format!(
        "The Master of '{}' has approved you to take over {}. Mail {sign_on}, with a \
         password of your choice, from this address.",
        game.name,
        power.name()
    );
    let told = if store::throttle::address_confirmed(s.tx, &address)? {
        s.send(
            vec![address.clone()],
            subject,
            format!("{approved}\n"),
            Some(game.id),
        );
        "told so by mail"
    } else {
        // A new address hears only why it was named, once a day: signing
        // on from it (or CONFIRM) is its answer.
        let by = game.master_address.clone().unwrap_or_else(|| s.sender());
        let asked = super::confirm::ask(
            s,
            &address,
            super::confirm::Naming {
                by: &by,
                why: format!(
                    "as the Master of '{}', to take over {} there.\n\n{approved}",
                    game.name,
                    power.name()
                ),
                seat_id: None,
                game_id: Some(game.id),
                subject: Some(subject),
                or_else: Some(format!("signing on with {sign_on} says so")),
            },
        )?;
        if asked.mailed {
            "told so by mail"
        } else {
            "it was mailed about this judge today already, and is not mailed again today"
        }
    };
    s.reply.ok(
        line,
        format!(
            "{address} may take {} over with {sign_on} ({told}).",
            power.name()
        ),
    );
    Ok(())
}

/// The player of `seat` leaves every country they play (EJECT, RESIGN):
/// nobody's password opens them now, and no mail goes to the player.
/// Their pre-orders go too: they were that player's plans, and a new
/// player (or civil disorder) must not carry them out. The countries, and
/// their names in words.
pub fn vacate_player(
    s: &mut Session<'_>,
    game: &Game,
    seat: &Seat,
    status: SeatStatus,
) -> Result<(Vec<Power>, String), StoreError> {
    let phase = crate::game::current(s.tx, game.id)?
        .map(|c| c.record.phase)
        .unwrap_or_default();
    let powers = crate::game::bloc_powers(s.tx, seat)?;
    let names: Vec<&str> = powers.iter().map(|p| p.name()).collect();
    let names = crate::game::process::join_names(&names);
    for id in store::seats::player_seat_ids(s.tx, seat.id)? {
        store::seats::vacate_seat(s.tx, id, &phase, status)?;
    }
    for p in &powers {
        store::preorders::delete_preorders_of_power(s.tx, game.id, p.upper())?;
    }
    Ok((powers, names))
}

/// The game as it stands now (earlier lines of the mail may have changed it).
fn reload(conn: &rusqlite::Connection, game: &Game) -> Result<Game, StoreError> {
    Ok(store::games::game_by_id(conn, game.id)?.unwrap_or_else(|| game.clone()))
}
