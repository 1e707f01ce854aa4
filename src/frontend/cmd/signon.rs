//! SIGNON, OBSERVE and RESIGN: who the following lines speak for. What is
//! kept of them (the guard on passwords, observers, resignations) is
//! `game::sign_on`; here the sign-on is read and the replies said.

use super::{find_game, join, sign_on_player};
use crate::engine::map::Power;
use crate::frontend::script::{Line, SignOnAs};
use crate::frontend::session::{Session, Signed};
use crate::game::lookup;
use crate::game::sign_on::{self as sign_ons, Checked, Guarded, PasswordHash, Resigned};
use crate::game::{current, teams, Game, GameState, StoreError};
use crate::report::title;
use crate::say;

/// A password to check, and whose it is.
struct Guard<'a> {
    /// What failures are counted against.
    guarded: Guarded,
    /// In words, for the owner's notice: "your seat in 'g1'".
    what: String,
    /// The owner's addresses (a team's every one; none for a Master
    /// without an address), told once when a lock begins.
    owners: Vec<String>,
    /// What the owner can do about a guessed password, by role.
    advice: String,
    hash: &'a PasswordHash,
}

/// Checks a password, unless repeated failures from this sender have
/// locked its tries for what it opens: whether it matched. The owner's
/// addresses (every one of a team's) are never locked out (their tries
/// are bounded by the mail's own limit on sign-ons). On a refusal the reply says only that the sign-on
/// failed; a locked-out sender is told once a day, then not answered at
/// all, and the owner hears of it once a day.
fn check_guarded(
    s: &mut Session<'_>,
    line: &Line,
    game: &Game,
    guard: Guard<'_>,
    password: &str,
) -> Result<bool, StoreError> {
    let sender = s.sender();
    let is_owner = guard
        .owners
        .iter()
        .any(|owner| owner.eq_ignore_ascii_case(&sender));
    let credentials = &mut *s.credentials;
    let matches = || credentials.check(password, guard.hash);
    match sign_ons::check(s.tx, guard.guarded, &sender, is_owner, matches, s.now)? {
        Checked::Passed => return Ok(true),
        Checked::Locked { told_today } => {
            s.reply.refuse(line, say!("sign_on.locked"));
            s.silent |= told_today;
        }
        Checked::Failed { tell_owner, .. } => {
            s.reply.refuse(line, say!("sign_on.failed"));
            if let (true, Some(owner)) = (tell_owner, guard.owners.first()) {
                let body = say!("sign_on.owner_notice", failures => sign_ons::FAILURES_TO_LOCK,
                                what => guard.what, sender, owner, advice => guard.advice);
                let subject = s.subject(&game.name, None, title::SIGN_ONS_LOCKED);
                s.send(guard.owners.clone(), subject, body + "\n", Some(game.id));
            }
        }
    }
    Ok(false)
}

/// Signs off whoever the earlier lines spoke for, and finds the game a
/// sign-on names: the reply speaks of it from now on.
fn sign_on_game(s: &mut Session<'_>, line: &Line, name: &str) -> Result<Option<Game>, StoreError> {
    s.signed = None;
    let game = find_game(s, line, name)?;
    if let Some(game) = &game {
        s.reply.game = Some(game.name.clone());
    }
    Ok(game)
}

pub fn sign_on(
    s: &mut Session<'_>,
    line: &Line,
    who: &SignOnAs,
    name: &str,
    password: &str,
) -> Result<(), StoreError> {
    let Some(game) = sign_on_game(s, line, name)? else {
        return Ok(());
    };
    s.reply.phase = current(s.tx, game.id)?.map(|c| c.record.phase);
    match who {
        SignOnAs::Join => join::join(s, line, game, password),
        SignOnAs::Master => sign_on_master(s, line, game, password),
        SignOnAs::Observer => observe(s, line, name, password),
        SignOnAs::Power(initial) => sign_on_power(s, line, game, *initial, password),
    }
}

/// SIGNON M<game>: the Master's password, and a copy of the reply to the
/// Master's address of record when the mail came from elsewhere.
fn sign_on_master(
    s: &mut Session<'_>,
    line: &Line,
    game: Game,
    password: &str,
) -> Result<(), StoreError> {
    let Some(hash) = &game.master_password else {
        s.reply.refuse(line, say!("sign_on.failed"));
        return Ok(());
    };
    let guard = Guard {
        guarded: Guarded::Master(game.id),
        what: say!("sign_on.the_master", game => &game.name),
        owners: game.master_address.iter().cloned().collect(),
        advice: say!("sign_on.master_advice"),
        hash,
    };
    if !check_guarded(s, line, &game, guard, password)? {
        return Ok(());
    }
    s.reply
        .ok(line, say!("sign_on.master_signed_on", game => &game.name));
    if let Some(master) = &game.master_address {
        copy_to_record(
            s,
            std::slice::from_ref(master),
            &say!("sign_on.master_advice"),
        );
    }
    s.mastered.push(game.id);
    s.signed = Some(Signed::Master { game });
    Ok(())
}

/// SIGNON <initial><game>: the seat's password, then the power is back in
/// play if it had been left.
fn sign_on_power(
    s: &mut Session<'_>,
    line: &Line,
    game: Game,
    initial: char,
    password: &str,
) -> Result<(), StoreError> {
    let Some(power) = Power::from_initial(initial) else {
        s.reply
            .refuse(line, say!("sign_on.not_an_initial", initial));
        return Ok(());
    };
    let Some(seat) = lookup::seat_by_power(s.tx, game.id, power.upper())? else {
        s.reply.refuse(line, say!("sign_on.failed"));
        return Ok(());
    };
    if !game.state.is_over()
        && super::takeover::try_take_over(s, line, &game, &seat, password)?.is_some()
    {
        return Ok(());
    }
    let guard = Guard {
        guarded: Guarded::Seat(seat.id),
        what: say!("sign_on.your_seat", power => power.name(), game => &game.name),
        owners: teams::addresses(s.tx, &seat)?,
        advice: say!("sign_on.player_advice"),
        hash: &seat.password,
    };
    if !check_guarded(s, line, &game, guard, password)? {
        return Ok(());
    }
    if game.state.is_over() {
        s.reply
            .refuse(line, say!("sign_on.game_over", game => &game.name));
        return Ok(());
    }
    let back = sign_ons::bring_back(s.tx, &seat)?;
    let paused = game.state == GameState::Paused;
    let bloc = crate::game::bloc_powers(s.tx, &seat)?;
    let names: Vec<&str> = bloc.iter().map(|p| p.name()).collect();
    let names = crate::game::process::join_names(&names);
    s.reply.ok(
        line,
        say!("sign_on.player_signed_on", names, game => &game.name, back, paused),
    );
    // A team member waiting for its CONFIRM joined the team by signing on.
    let team = teams::addresses(s.tx, &seat)?;
    copy_to_record(s, &team, &say!("sign_on.player_elsewhere"));
    sign_on_player(s, game, seat, Some(power));
    Ok(())
}

/// A sign-on from another address than the owner's (`owners`: the
/// address of record first, then a team's others): a copy of the reply
/// goes to each, saying where the sign-on came from and what to do if it
/// was not its owner (`advice`, by role).
fn copy_to_record(s: &mut Session<'_>, owners: &[String], advice: &str) {
    let sender = s.sender();
    if owners.iter().any(|o| o.eq_ignore_ascii_case(&sender)) {
        return;
    }
    let Some(record) = owners.first() else {
        return;
    };
    s.reply
        .text(say!("sign_on.from_elsewhere", sender, record, advice, team => owners.len() > 1));
    s.reply.also_to.extend(owners.iter().cloned());
}

/// OBSERVE <game> <password>, and SIGNON O<game> <password>: the first
/// time, the password becomes the observer's; afterwards it must match.
pub fn observe(
    s: &mut Session<'_>,
    line: &Line,
    name: &str,
    password: &str,
) -> Result<(), StoreError> {
    let Some(game) = sign_on_game(s, line, name)? else {
        return Ok(());
    };
    let sender = s.sender();
    match lookup::observer_by_address(s.tx, game.id, &sender)? {
        Some(obs) => {
            let guard = Guard {
                guarded: Guarded::Observer(obs.id),
                what: say!("sign_on.your_observing", game => &game.name),
                owners: vec![obs.address.clone()],
                advice: say!("sign_on.observer_advice"),
                hash: &obs.password,
            };
            if !check_guarded(s, line, &game, guard, password)? {
                return Ok(());
            }
            s.reply
                .ok(line, say!("sign_on.observer_signed_on", game => &game.name));
        }
        None => {
            sign_ons::add_observer(s.tx, &game, &sender, password, s.now)?;
            s.reply
                .ok(line, say!("sign_on.now_observing", game => &game.name));
        }
    }
    s.signed = Some(Signed::Observer { game });
    Ok(())
}

/// UNOBSERVE <game>: the sending address stops observing. No password: an
/// address can be made an observer by anyone (OBSERVE with a forged From),
/// so its owner must be able to leave without knowing one.
pub fn unobserve(s: &mut Session<'_>, line: &Line, name: &str) -> Result<(), StoreError> {
    let Some(game) = find_game(s, line, name)? else {
        return Ok(());
    };
    s.reply.game = Some(game.name.clone());
    if let Some(Signed::Observer { game: observed }) = &s.signed {
        if observed.id == game.id {
            s.signed = None;
        }
    }
    if sign_ons::unobserve(s.tx, &game, &s.sender())? {
        s.reply
            .ok(line, say!("sign_on.unobserved", game => &game.name));
    } else {
        s.reply
            .refuse(line, say!("sign_on.not_observing", game => &game.name));
    }
    Ok(())
}

pub fn resign(s: &mut Session<'_>, line: &Line) -> Result<(), StoreError> {
    let Some(Signed::Player { game, seat, .. }) = s.signed.clone() else {
        s.reply.refuse(line, say!("sign_on.resign_needs_player"));
        return Ok(());
    };
    match sign_ons::resign(s.tx, s.code(), &game, &seat, s.now)? {
        Resigned::LeftForming => s
            .reply
            .ok(line, say!("sign_on.left_forming", game => &game.name)),
        Resigned::Vacated { names, mails } => {
            s.reply
                .ok(line, say!("sign_on.resigned", names, game => &game.name));
            s.send_all(mails);
        }
    }
    s.signed = None;
    Ok(())
}
