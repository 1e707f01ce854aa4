//! SIGNON, OBSERVE and RESIGN: who the following lines speak for.

use super::{find_game, join, sign_on_player};
use crate::engine::map::Power;
use crate::frontend::script::{Line, SignOnAs};
use crate::frontend::session::{Session, Signed};
use crate::game::current;
use crate::report::title;
use crate::store::{
    self, games::Game, games::GameState, seats::Seat, seats::SeatStatus, StoreError,
};

/// What a failed sign-on says: never which part was wrong.
const FAILED: &str = "Sign-on failed: no such power in that game, or a wrong password.";

/// What a locked-out sender is told, once a day: its tries are not even
/// checked. Only its own tries are locked; the owner's never are.
const LOCKED: &str = "Sign-on failed: after repeated failed sign-ons from your address, \
                      sign-ons from it to this are refused unchecked for an hour.";

/// What a player can do when someone may be guessing their password.
const PLAYER_ADVICE: &str = "choose a long one (SET PASSWORD)";

/// What a player can do when someone else signed on as them.
const PLAYER_ELSEWHERE: &str = "change your password (SET PASSWORD)";

/// What a Master can do, in either case: SET PASSWORD is a player's only.
const MASTER_ADVICE: &str = "tell the judgekeeper, as a Master's password cannot be \
                             changed by mail";

/// What an observer can do: their password is the one OBSERVE gave.
const OBSERVER_ADVICE: &str = "choose a long one (UNOBSERVE <game>, then OBSERVE <game> \
                               <new password>)";

/// A password to check, and whose it is.
struct Guarded<'a> {
    /// What failures are counted against (`seat:<id>`, ...).
    target: String,
    /// In words, for the owner's notice: "your seat in 'g1'".
    what: String,
    /// The address of record, told once when a lock begins.
    owner: Option<&'a str>,
    /// What the owner can do about a guessed password, by role.
    advice: &'static str,
    hash: &'a store::password::PasswordHash,
}

/// Checks a password, unless repeated failures from this sender have
/// locked its tries for what it opens: whether it matched. The address of
/// record is never locked out (its tries are bounded by the mail's own
/// limit on sign-ons). On a refusal the reply says only that the sign-on
/// failed; a locked-out sender is told once a day, then not answered at
/// all, and the owner hears of it once a day.
fn check_guarded(
    s: &mut Session<'_>,
    line: &Line,
    game: &Game,
    guarded: Guarded<'_>,
    password: &str,
) -> Result<bool, StoreError> {
    let sender = s.sender();
    let is_owner = guarded
        .owner
        .is_some_and(|owner| owner.eq_ignore_ascii_case(&sender));
    if !is_owner {
        if let Some(lock) = store::throttle::sign_on_lock(s.tx, &guarded.target, &sender, s.now)? {
            s.reply.refuse(line, LOCKED);
            if lock.told_today {
                s.silent = true;
            } else {
                store::throttle::sign_on_lock_told(s.tx, &guarded.target, &sender, s.now)?;
            }
            return Ok(false);
        }
    }
    if s.credentials.check(password, guarded.hash) {
        // Signing on from an address confirms it wants the judge's mail.
        store::throttle::mark_address_confirmed(s.tx, &sender, s.now)?;
        return Ok(true);
    }
    s.reply.refuse(line, FAILED);
    let failure = store::throttle::record_sign_on_failure(s.tx, &guarded.target, &sender, s.now)?;
    if failure.locked {
        log::warn!(
            "{} failed sign-ons to {} from {sender}: its tries locked for an hour",
            store::throttle::SIGN_ON_FAILURES_TO_LOCK,
            guarded.target
        );
    }
    if let (true, Some(owner)) = (failure.tell_owner, guarded.owner) {
        let body = format!(
            "There were {} failed sign-ons to {} within an hour from {sender}. That \
             address's further tries are refused unchecked for an hour; yours, from {owner}, are \
             never refused. If these were not yours, someone may be guessing your \
             password: {}. (You hear of this at most once a day.)\n",
            store::throttle::SIGN_ON_FAILURES_TO_LOCK,
            guarded.what,
            guarded.advice,
        );
        let subject = s.subject(&game.name, None, title::SIGN_ONS_LOCKED);
        s.send(vec![owner.to_string()], subject, body, Some(game.id));
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
        s.reply.refuse(line, FAILED);
        return Ok(());
    };
    let guarded = Guarded {
        target: format!("master:{}", game.id),
        what: format!("the Master of '{}'", game.name),
        owner: game.master_address.as_deref(),
        advice: MASTER_ADVICE,
        hash,
    };
    if !check_guarded(s, line, &game, guarded, password)? {
        return Ok(());
    }
    s.reply
        .ok(line, format!("Signed on as the Master of '{}'.", game.name));
    if let Some(master) = &game.master_address {
        copy_to_record(s, master, MASTER_ADVICE);
    }
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
        s.reply.refuse(
            line,
            format!(
                "'{initial}' is not a power's initial: A E F G I R T, M for the Master, \
                 O for an observer, ? to join."
            ),
        );
        return Ok(());
    };
    let Some(seat) = store::seats::seat_by_power(s.tx, game.id, power.upper())? else {
        s.reply.refuse(line, FAILED);
        return Ok(());
    };
    if !game.state.is_over()
        && super::takeover::try_take_over(s, line, &game, &seat, password)?.is_some()
    {
        return Ok(());
    }
    let guarded = Guarded {
        target: format!("seat:{}", seat.id),
        what: format!("your seat ({}) in '{}'", power.name(), game.name),
        owner: Some(&seat.address),
        advice: PLAYER_ADVICE,
        hash: &seat.password,
    };
    if !check_guarded(s, line, &game, guarded, password)? {
        return Ok(());
    }
    if game.state.is_over() {
        s.reply.refuse(
            line,
            format!("Game '{}' is over; nothing more can be ordered.", game.name),
        );
        return Ok(());
    }
    let note = back_in_play(s, &seat)?;
    let paused = if game.state == GameState::Paused {
        " The game is paused by its Master."
    } else {
        ""
    };
    let bloc = crate::game::bloc_powers(s.tx, &seat)?;
    let names: Vec<&str> = bloc.iter().map(|p| p.name()).collect();
    s.reply.ok(
        line,
        format!(
            "Signed on as {} in '{}'.{note}{paused}",
            crate::game::process::join_names(&names),
            game.name
        ),
    );
    copy_to_record(s, &seat.address, PLAYER_ELSEWHERE);
    sign_on_player(s, game, seat, Some(power));
    Ok(())
}

/// A sign-on from another address than the one of record: a copy of the
/// reply goes to the address of record, saying where the sign-on came from
/// and what to do if it was not its owner (`advice`, by role).
fn copy_to_record(s: &mut Session<'_>, record: &str, advice: &str) {
    let sender = s.sender();
    if record.eq_ignore_ascii_case(&sender) {
        return;
    }
    s.reply.also_to.push(record.to_string());
    s.reply.text(format!(
        "This sign-on came from {sender}, not from the address of record {record}: \
         a copy of this reply goes to both. If it was not you, {advice}."
    ));
}

/// Every country of a player left, in disorder or late is active again
/// once the player signs on (with any one of their initials): what the
/// reply says of it (nothing when only late).
fn back_in_play(s: &mut Session<'_>, seat: &Seat) -> Result<&'static str, StoreError> {
    Ok(match store::seats::bring_player_back(s.tx, seat.id)? {
        0 => "",
        1 => " Welcome back: your power is in play again.",
        _ => " Welcome back: your powers are in play again.",
    })
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
    match store::seats::observer_by_address(s.tx, game.id, &sender)? {
        Some(obs) => {
            let guarded = Guarded {
                target: format!("observer:{}", obs.id),
                what: format!("your place as an observer of '{}'", game.name),
                owner: Some(&obs.address),
                advice: OBSERVER_ADVICE,
                hash: &obs.password,
            };
            if !check_guarded(s, line, &game, guarded, password)? {
                return Ok(());
            }
            s.reply.ok(
                line,
                format!("Signed on as an observer of '{}'.", game.name),
            );
        }
        None => {
            let hash = store::password::hash_password(password)?;
            store::seats::add_observer(s.tx, game.id, &sender, &hash, s.now)?;
            s.reply.ok(
                line,
                format!(
                    "You now observe '{}': you will receive its results and broadcasts.",
                    game.name
                ),
            );
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
    if store::seats::remove_observer(s.tx, game.id, &s.sender())? {
        s.reply
            .ok(line, format!("You no longer observe '{}'.", game.name));
    } else {
        s.reply.refuse(
            line,
            format!("You do not observe '{}' (from this address).", game.name),
        );
    }
    Ok(())
}

/// The whole game hears of a resignation (njudge), archived: who waits
/// for a new player, and how one takes over.
fn tell_game_of_resignation(
    s: &mut Session<'_>,
    game: &Game,
    powers: &[Power],
    name: &str,
) -> Result<(), StoreError> {
    let mut how = Vec::new();
    for &p in powers {
        how.push(super::takeover::how_to(s.tx, game, p)?);
    }
    let wait = if powers.len() > 1 {
        "they wait"
    } else {
        "it waits"
    };
    let text = format!(
        "The player of {name} in '{}' has resigned: {wait} for a new player. {}",
        game.name,
        how.join(" ")
    );
    let phase = current(s.tx, game.id)?.map(|c| c.record.phase);
    let subject = s.subject(&game.name, None, &format!("{name} {}", title::RESIGNED));
    let mail = crate::game::announce(s.tx, game, phase.as_deref(), subject, text, s.now)?;
    s.send(
        mail.to,
        mail.subject,
        format!("{}\n", mail.body),
        Some(game.id),
    );
    Ok(())
}

pub fn resign(s: &mut Session<'_>, line: &Line) -> Result<(), StoreError> {
    let Some(Signed::Player { game, seat, .. }) = s.signed.clone() else {
        s.reply
            .refuse(line, "RESIGN needs a sign-on as a player first.");
        return Ok(());
    };
    if game.state == GameState::Forming {
        store::seats::remove_seat(s.tx, seat.id)?;
        s.reply.ok(
            line,
            format!("You have left '{}' before it started.", game.name),
        );
    } else {
        let (powers, names) =
            super::takeover::vacate_player(s, &game, &seat, SeatStatus::Resigned)?;
        let name = if names.is_empty() {
            "your power"
        } else {
            names.as_str()
        };
        s.reply.ok(
            line,
            format!(
                "You have resigned {name} in '{}'. The game has been told.",
                game.name
            ),
        );
        tell_game_of_resignation(s, &game, &powers, name)?;
    }
    s.signed = None;
    Ok(())
}
