//! A power left without a player (ejected, resigned, or abandoned at the
//! end of grace): taken over by a newcomer who names it, SIGNON
//! <initial><game> <password>, once the Master has approved the
//! newcomer's address (SET TAKEOVER <power> <address>) or opened the game
//! to takeovers (SET TAKEOVER ON). What happens is `game::takeover`; here
//! the sign-on is read and the replies said.

use super::{master_game, sign_on_player};
use crate::engine::map::Power;
use crate::frontend::script::Line;
use crate::frontend::session::Session;
use crate::game::takeover::{
    self as takeovers, sign_on_line, waiting, Approval, Eligibility, Policy,
};
use crate::game::{power_of, Game, Seat, StoreError};
use crate::report::title;
use crate::say;

pub use crate::game::takeover::vacant;

/// SIGNON ?<game> in a game that has started: the newcomer must name the
/// power.
pub fn unnamed(s: &mut Session<'_>, line: &Line, game: &Game) -> Result<(), StoreError> {
    let open = takeovers::waiting_powers(s.tx, game)?;
    let Some(&first) = open.first() else {
        s.reply
            .refuse(line, say!("takeover.none_waiting", game => &game.name));
        return Ok(());
    };
    let names: Vec<&str> = open.iter().map(|p| p.name()).collect();
    s.reply.refuse(
        line,
        say!("takeover.name_the_power", game => &game.name, initial => first.initial(),
             waiting => names.join(", ")),
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
    match takeovers::eligibility(s.tx, game, seat, power, &sender)? {
        Eligibility::PlaysAlready(own) => {
            s.reply.refuse(
                line,
                say!("takeover.you_play_already", own => own.name(), game => &game.name),
            );
        }
        Eligibility::Approved => take_over(s, line, game.clone(), seat, password)?,
        // Nobody's password opens a vacant seat, not even the old one.
        Eligibility::NotApproved if vacant(seat) => s.reply.refuse(
            line,
            say!("takeover.not_approved", power => power.name(), game => &game.name, sender),
        ),
        Eligibility::NotApproved => return Ok(None),
    }
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
    let sender = s.sender();
    let phase = s.reply.phase.clone().unwrap_or_default();
    let taken = takeovers::take_over(
        s.tx,
        s.code(),
        &game,
        open,
        (&sender, password),
        &phase,
        s.now,
    )?;
    s.send_all(taken.mails);
    let power = taken.power;
    s.reply.ok(
        line,
        say!("takeover.taken_over", power => power.name(), initial => power.initial(),
             game => &game.name),
    );
    sign_on_player(s, game, taken.seat, Some(power));
    Ok(())
}

/// SET TAKEOVER ON|OFF (anyone may take over a power waiting for a
/// player, or only those approved), SET TAKEOVER <power> <address> (that
/// address may take it over), SET TAKEOVER <power> OFF (no longer).
pub fn set_takeover(s: &mut Session<'_>, line: &Line, rest: &str) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    let words: Vec<&str> = rest.split_whitespace().collect();
    let (policy, said) = match words.as_slice() {
        [on] if on.eq_ignore_ascii_case("ON") => (Policy::Open, say!("takeover.opened")),
        [off] if off.eq_ignore_ascii_case("OFF") => (Policy::Closed, say!("takeover.closed")),
        [power, who] => match (Power::parse(power), who.to_ascii_uppercase().as_str()) {
            (Some(power), "OFF") => (
                Policy::Withdraw(power),
                say!("takeover.withdrawn", power => power.name()),
            ),
            (Some(power), _) => return approve(s, line, &game, power, who),
            (None, _) => return refuse_takeover(s, line),
        },
        _ => return refuse_takeover(s, line),
    };
    takeovers::set_policy(s.tx, &game, policy)?;
    s.reply.ok(line, said);
    Ok(())
}

fn refuse_takeover(s: &mut Session<'_>, line: &Line) -> Result<(), StoreError> {
    s.reply.refuse(line, say!("takeover.usage"));
    Ok(())
}

/// SET TAKEOVER <power> <address>: the address is approved, and told how
/// to sign on.
fn approve(
    s: &mut Session<'_>,
    line: &Line,
    game: &Game,
    power: Power,
    who: &str,
) -> Result<(), StoreError> {
    let Ok(address) = crate::mail::Address::parse(who) else {
        s.reply.refuse(line, say!("takeover.not_an_address", who));
        return Ok(());
    };
    let address = address.addr_spec();
    match takeovers::approve(s.tx, game, power, &address)? {
        Approval::NotWaiting => {
            s.reply.refuse(
                line,
                say!("takeover.not_waiting", power => power.name(), game => &game.name),
            );
            return Ok(());
        }
        Approval::PlaysAlready(own) => {
            s.reply.refuse(
                line,
                say!("takeover.plays_already", address => &address, own => own.name(),
                     game => &game.name),
            );
            return Ok(());
        }
        Approval::Approved => {}
    }
    let told = tell_approved(s, game, power, &address)?;
    let sign_on = sign_on_line(power, &game.name);
    s.reply.ok(
        line,
        say!("takeover.approved", address, power => power.name(), sign_on, told),
    );
    Ok(())
}

/// The approved address hears how to sign on: by mail if it is known to
/// the judge, else only why it was named, once a day (signing on from it,
/// or CONFIRM, is its answer). Whether it was mailed now.
fn tell_approved(
    s: &mut Session<'_>,
    game: &Game,
    power: Power,
    address: &str,
) -> Result<bool, StoreError> {
    let sign_on = sign_on_line(power, &game.name);
    let what = format!("{} {}", title::YOU_MAY_TAKE_OVER, power.name());
    let subject = s.subject(&game.name, None, &what);
    let approved = say!("takeover.approved_mail", game => &game.name, power => power.name(),
                        sign_on => &sign_on);
    if crate::game::confirm::address_confirmed(s.tx, address)? {
        s.send(
            vec![address.to_string()],
            subject,
            format!("{approved}\n"),
            Some(game.id),
        );
        return Ok(true);
    }
    let by = game.master_address.clone().unwrap_or_else(|| s.sender());
    let asked = super::confirm::ask(
        s,
        address,
        super::confirm::Naming {
            by: &by,
            why: say!("takeover.approved_why", game => &game.name, power => power.name(),
                      approved),
            seat_id: None,
            game_id: Some(game.id),
            subject: Some(subject),
            or_else: Some(say!("takeover.or_sign_on", sign_on)),
        },
    )?;
    Ok(asked.mailed)
}
