//! The Master's commands: PROCESS, PREDICT, PAUSE, RESUME, TERMINATE,
//! ROLLBACK, EJECT, BECOME, START. What happens to the game is `game::`
//! (process, control, rollback, eject); here they are read and answered.

use super::master_game;
use crate::engine::map::Power;
use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::control::{self, Controlled};
use crate::game::eject::{self as ejection, Ejected};
use crate::game::process::process as process_phase;
use crate::game::rollback::{self, RolledBack};
use crate::game::StoreError;
use crate::game::{self, current, lookup, settings_of, Game, GameState, Seat, SeatStatus};
use crate::report::title;
use crate::say;

/// The game as stored now (earlier lines of the mail may have changed it).
fn fresh(s: &Session<'_>, game: Game) -> Result<Game, StoreError> {
    Ok(game::game_by_id(s.tx, game.id)?.unwrap_or(game))
}

pub fn process(s: &mut Session<'_>, line: &Line, phase: Option<&str>) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    let game = fresh(s, game)?;
    if game.state != GameState::Active {
        let state = game.state.as_str();
        s.reply
            .refuse(line, say!("master.not_active", game => &game.name, state));
        return Ok(());
    }
    let Some(cur) = current(s.tx, game.id)? else {
        s.reply.refuse(line, say!("master.not_started"));
        return Ok(());
    };
    let phase = match phase.map(super::njudge::process_phase).transpose() {
        Ok(phase) => phase,
        Err(why) => {
            s.reply.refuse(line, why);
            return Ok(());
        }
    };
    if let Some(named) = phase {
        if !named.eq_ignore_ascii_case(&cur.record.phase) {
            let current = cur.record.phase;
            s.reply
                .ok(line, say!("master.process_ignored", current, named));
            return Ok(());
        }
    }
    let done = process_phase(s.tx, s.templates, s.code(), &game, s.now, true)?;
    s.reply.ok(
        line,
        say!("master.processed", phase => &done.phase, next => &done.next, ended => &done.ended),
    );
    s.send_results(
        done.recipients,
        done.subject,
        done.body,
        game.id,
        &done.phase,
    );
    // PROCESS is no different from the clock: the pre-orders for the phase
    // that now begins were entered with it, and their players are told.
    s.send_all(done.notices);
    Ok(())
}

pub fn predict(s: &mut Session<'_>, line: &Line) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    if current(s.tx, game.id)?.is_none() || game.state.is_over() {
        s.reply.refuse(line, say!("master.nothing_to_predict"));
        return Ok(());
    }
    let done = process_phase(s.tx, s.templates, s.code(), &game, s.now, false)?;
    s.reply.ok(
        line,
        say!("master.predicted", phase => &done.phase, results => done.body.trim_end()),
    );
    Ok(())
}

pub fn pause(s: &mut Session<'_>, line: &Line, pause: bool) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    let game = fresh(s, game)?;
    match control::pause_or_resume(s.tx, s.code(), &game, pause, s.now)? {
        Controlled::Refused { state } => {
            let word = if pause { title::PAUSED } else { title::RESUMED };
            s.reply.refuse(
                line,
                say!("master.cannot_pause", game => &game.name, state => state.as_str(), word),
            );
        }
        Controlled::Done { notice, mails } => {
            s.send_all(mails);
            s.reply.ok(line, notice);
        }
    }
    Ok(())
}

pub fn terminate(s: &mut Session<'_>, line: &Line) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    let game = fresh(s, game)?;
    match control::terminate(s.tx, s.code(), &game, s.now)? {
        Controlled::Refused { .. } => {
            s.reply
                .refuse(line, say!("master.already_over", game => &game.name));
        }
        Controlled::Done { notice, mails } => {
            s.send_all(mails);
            s.reply.ok(line, notice);
        }
    }
    Ok(())
}

pub fn rollback(s: &mut Session<'_>, line: &Line, phase: Option<&str>) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    let game = fresh(s, game)?;
    let names = rollback::phase_names(s.tx, &game)?;
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let phase = match phase
        .map(|p| super::njudge::rollback_phase(p, &names))
        .transpose()
    {
        Ok(phase) => phase,
        Err(why) => {
            s.reply.refuse(line, why);
            return Ok(());
        }
    };
    match rollback::roll_back(s.tx, s.code(), &game, phase.as_deref(), s.now)? {
        RolledBack::NoSuchPhase { phase } => {
            s.reply.refuse(
                line,
                say!("master.no_such_phase", game => &game.name, phase),
            );
        }
        RolledBack::NothingProcessed => s.reply.refuse(line, say!("master.nothing_processed")),
        RolledBack::Done { notice, mails } => {
            s.send_all(mails);
            s.reply.ok(line, notice);
        }
    }
    Ok(())
}

/// The power a Master names: its name, adjective or initial, or the first
/// three letters or more of its name, as njudge's Masters write them
/// (`Ger`, `Aust`).
fn read_power(text: &str) -> Option<Power> {
    let word = text.trim();
    Power::parse(word).or_else(|| {
        let starts = |p: &Power| {
            p.name()
                .to_ascii_lowercase()
                .starts_with(&word.to_ascii_lowercase())
        };
        (word.len() >= 3).then(|| Power::ALL.into_iter().find(starts))?
    })
}

fn power_named(s: &mut Session<'_>, line: &Line, text: &str) -> Option<Power> {
    let p = read_power(text);
    if p.is_none() {
        s.reply.refuse(line, say!("master.not_a_power", text));
    }
    p
}

/// The Master's game, the power `text` names and its seat; refused (and
/// None) when any is missing.
pub(super) fn master_seat(
    s: &mut Session<'_>,
    line: &Line,
    text: &str,
) -> Result<Option<(Game, Power, Seat)>, StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(None);
    };
    let Some(power) = power_named(s, line, text) else {
        return Ok(None);
    };
    let Some(seat) = lookup::seat_by_power(s.tx, game.id, power.upper())? else {
        s.reply.refuse(
            line,
            say!("master.nobody_plays", power => power.name(), game => &game.name),
        );
        return Ok(None);
    };
    Ok(Some((game, power, seat)))
}

/// EJECT <power>: the player is removed from every country they play
/// (no more mail; the old password opens nothing), the game hears that
/// the power waits for a new player, and nothing is processed early.
pub fn eject(s: &mut Session<'_>, line: &Line, text: &str) -> Result<(), StoreError> {
    let Some((game, power, seat)) = master_seat(s, line, text)? else {
        return Ok(());
    };
    match ejection::eject(s.tx, s.code(), &game, &seat, s.now)? {
        Ejected::NoPlayer => s.reply.refuse(
            line,
            say!("master.no_player_to_eject", power => power.name(), game => &game.name),
        ),
        Ejected::Done { notice, mails } => {
            s.send_all(mails);
            s.reply.ok(line, notice);
        }
    }
    Ok(())
}

pub fn become_power(s: &mut Session<'_>, line: &Line, text: &str) -> Result<(), StoreError> {
    let Some((game, power, seat)) = master_seat(s, line, text)? else {
        return Ok(());
    };
    // The power's player hears of it, as in njudge.
    let told = !(crate::game::takeover::vacant(&seat)
        || seat.status == SeatStatus::Eliminated
        || game.master_address.as_deref() == Some(seat.address.as_str()));
    if told {
        let what = format!("{} {}", title::MASTER_ACTS_FOR, power.name());
        let subject = s.subject(&game.name, None, &what);
        let text = say!("master.become_notice", game => &game.name, power => power.name());
        s.send(
            crate::game::teams::addresses(s.tx, &seat)?,
            subject,
            text + "\n",
            Some(game.id),
        );
    }
    s.reply.ok(
        line,
        say!("master.became", power => power.name(), game => &game.name, told),
    );
    s.signed = Some(Signed::Player {
        game,
        seat,
        power: Some(power),
    });
    Ok(())
}

pub fn start(s: &mut Session<'_>, line: &Line) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    let game = fresh(s, game)?;
    if game.state != GameState::Forming {
        s.reply
            .refuse(line, say!("master.already_started", game => &game.name));
        return Ok(());
    }
    let seats = lookup::seats_of_game(s.tx, game.id)?.len();
    let players = settings_of(&game)?.players;
    if seats != players {
        let entry = if seats < players {
            say!("master.too_few_players", game => &game.name, seats, players)
        } else {
            say!("master.too_many_players", game => &game.name, seats, players)
        };
        s.reply.refuse(line, entry);
        return Ok(());
    }
    super::join::start_if_full(s, &game)?;
    s.reply.ok(line, say!("master.starts", game => &game.name));
    Ok(())
}
