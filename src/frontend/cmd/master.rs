//! The Master's commands: PROCESS, PREDICT, PAUSE, RESUME, TERMINATE,
//! ROLLBACK, EJECT, BECOME, START.

use super::master_game;
use crate::engine::map::Power;
use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::clock::format_time;
use crate::game::deadline::{deadline_for, refresh_deadline};
use crate::game::preorders::enter_preorders;
use crate::game::process::{process as process_phase, schedule_for};
use crate::game::{announce, current, settings_of};
use crate::report::title;
use crate::store::{
    self, games::Game, games::GameState, seats::Seat, seats::SeatStatus, StoreError,
};

pub fn process(s: &mut Session<'_>, line: &Line, phase: Option<&str>) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    let game = store::games::game_by_id(s.tx, game.id)?.expect("game");
    if game.state != GameState::Active {
        s.reply.refuse(
            line,
            format!(
                "'{}' is {}: there is nothing to process.",
                game.name,
                game.state.as_str()
            ),
        );
        return Ok(());
    }
    let Some(cur) = current(s.tx, game.id)? else {
        s.reply.refuse(line, "The game has not started.");
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
            s.reply.ok(
                line,
                format!(
                    "Ignored: the current phase is {}, not {named}.",
                    cur.record.phase
                ),
            );
            return Ok(());
        }
    }
    let done = process_phase(s.tx, s.templates, s.code(), &game, s.now, true)?;
    let after = match (&done.next, &done.ended) {
        (_, Some(end)) => format!(" {end}"),
        (Some(next), None) => format!(" The next phase is {next}."),
        _ => String::new(),
    };
    s.reply.ok(
        line,
        format!(
            "{} processed; the results are mailed to everyone.{after}",
            done.phase
        ),
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
    for notice in done.notices {
        s.send(notice.to, notice.subject, notice.body, Some(game.id));
    }
    Ok(())
}

pub fn predict(s: &mut Session<'_>, line: &Line) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    if current(s.tx, game.id)?.is_none() || game.state.is_over() {
        s.reply.refuse(line, "There is no phase to predict.");
        return Ok(());
    }
    let done = process_phase(s.tx, s.templates, s.code(), &game, s.now, false)?;
    s.reply.ok(
        line,
        format!(
            "What {} would give with the orders as they stand (nothing is stored, only you see this):\n\n{}",
            done.phase,
            done.body.trim_end()
        ),
    );
    Ok(())
}

pub fn pause(s: &mut Session<'_>, line: &Line, pause: bool) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    let game = store::games::game_by_id(s.tx, game.id)?.expect("game");
    let (from, to, word) = if pause {
        (GameState::Active, GameState::Paused, title::PAUSED)
    } else {
        (GameState::Paused, GameState::Active, title::RESUMED)
    };
    if game.state != from {
        s.reply.refuse(
            line,
            format!(
                "'{}' is {}, so it cannot be {word}.",
                game.name,
                game.state.as_str()
            ),
        );
        return Ok(());
    }
    store::games::set_game_state(s.tx, game.id, to, s.now)?;
    let mut text = format!("Game '{}' is {word}.", game.name);
    if !pause {
        // A fresh deadline: the pause may have eaten the old one.
        if let Some((phase, deadline)) = refresh_deadline(s.tx, &game, s.now)? {
            text.push_str(&format!(
                " The deadline for {phase} is {}.",
                format_time(deadline)
            ));
        }
    }
    notify_all(s, &game, word, &text)?;
    s.reply.ok(line, text);
    Ok(())
}

pub fn terminate(s: &mut Session<'_>, line: &Line) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    let game = store::games::game_by_id(s.tx, game.id)?.expect("game");
    if game.state.is_over() {
        s.reply
            .refuse(line, format!("'{}' is already over.", game.name));
        return Ok(());
    }
    let result = "Terminated by the Master.";
    store::games::end_game(
        s.tx,
        game.id,
        GameState::Terminated,
        &serde_json::json!({ "summary": result }).to_string(),
        s.now,
    )?;
    if let Some(cur) = current(s.tx, game.id)? {
        store::seats::close_seat_history(s.tx, game.id, &cur.record.phase)?;
    }
    // As when processing ends the game: its pre-orders are dropped, and
    // their players told.
    let notices = enter_preorders(s.tx, s.code(), &game, true, s.now)?;
    let text = format!("Game '{}' has been terminated by its Master.", game.name);
    notify_all(s, &game, title::GAME_TERMINATED, &text)?;
    for notice in notices {
        s.send(notice.to, notice.subject, notice.body, Some(game.id));
    }
    s.reply.ok(line, text);
    Ok(())
}

pub fn rollback(s: &mut Session<'_>, line: &Line, phase: Option<&str>) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    let game = store::games::game_by_id(s.tx, game.id)?.expect("game");
    let phases = store::phases::phases_of_game(s.tx, game.id)?;
    let names: Vec<&str> = phases.iter().map(|r| r.phase.as_str()).collect();
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
    let phase = phase.as_deref();
    let target = match phase {
        Some(p) => phases.iter().find(|r| r.phase.eq_ignore_ascii_case(p)),
        // Without a phase: back to the start of the last processed one.
        None => phases.iter().rev().find(|r| r.is_processed()),
    };
    let Some(target) = target.cloned() else {
        s.reply.refuse(
            line,
            match phase {
                Some(p) => format!("'{}' has no phase {p}.", game.name),
                None => "There is no processed phase to roll back.".to_string(),
            },
        );
        return Ok(());
    };
    let removed = store::phases::rollback_to(s.tx, game.id, &target.phase)?;
    // Pre-orders were written for the game as it went on from a position
    // now undone: every one is dropped, and the notice says so.
    let dropped = store::preorders::delete_preorders_of_game(s.tx, game.id)?;
    if game.state.is_over() {
        store::games::set_game_state(s.tx, game.id, GameState::Active, s.now)?;
    }
    let settings = settings_of(&game)?;
    let position = crate::game::position_of(&target)?;
    // Powers eliminated in the phases undone are back in the game.
    for seat in store::seats::seats_of_game(s.tx, game.id)? {
        if seat.status != SeatStatus::Eliminated {
            continue;
        }
        if let Some(p) = crate::game::power_of(&seat) {
            if position.unit_count(p) > 0 || position.centre_count(p) > 0 {
                store::seats::set_seat_status(s.tx, seat.id, SeatStatus::Active)?;
            }
        }
    }
    let schedule = schedule_for(&settings, position.phase.kind);
    let (deadline, grace) = deadline_for(s.tx, game.id, schedule, s.now)?;
    store::phases::set_deadline(s.tx, game.id, &target.phase, Some(deadline), Some(grace))?;
    let mut text = format!(
        "Game '{}' is rolled back to the start of {} ({}); \
         orders for it must be given again. The deadline is {}.",
        game.name,
        target.phase,
        match removed {
            0 => "no later phase to remove".to_string(),
            1 => "the one phase after it is removed".to_string(),
            n => format!("the {n} phases after it are removed"),
        },
        format_time(deadline)
    );
    if dropped > 0 {
        text.push_str(&format!(
            " The {dropped} pre-order line(s) given for later phases are dropped: send \
             them again with PHASE if they still stand."
        ));
    }
    // Archived and sent to everyone (once: `notify_all` archives it).
    notify_all(s, &game, title::ROLLBACK, &text)?;
    s.reply.ok(line, text);
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
        s.reply.refuse(
            line,
            format!("'{text}' is not a power: name it (France, or Fra) or give its initial (F)."),
        );
    }
    p
}

/// The Master's game, the power `text` names and its seat; refused (and
/// None) when any is missing.
fn master_seat(
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
    let Some(seat) = store::seats::seat_by_power(s.tx, game.id, power.upper())? else {
        s.reply.refuse(
            line,
            format!("Nobody plays {} in '{}'.", power.name(), game.name),
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
    if super::takeover::vacant(&seat)
        || game.state.is_over()
        || seat.status == SeatStatus::Eliminated
    {
        s.reply.refuse(
            line,
            format!(
                "{} in '{}' has no player to eject.",
                power.name(),
                game.name
            ),
        );
        return Ok(());
    }
    let (powers, names) = super::takeover::vacate_player(s, &game, &seat, SeatStatus::Abandoned)?;
    let subject = s.subject(&game.name, None, title::REMOVED);
    s.send(
        vec![seat.address.clone()],
        subject,
        format!(
            "The Master of '{}' has removed you from {names}. Your password no longer \
             signs on to it, and you will get no more of the game's mail.\n",
            game.name,
        ),
        Some(game.id),
    );
    let mut how = Vec::new();
    for &p in &powers {
        how.push(super::takeover::how_to(s.tx, &game, p)?);
    }
    let (wait, need) = if powers.len() > 1 {
        ("they wait", title::NEED_A_PLAYER)
    } else {
        ("it waits", title::NEEDS_A_PLAYER)
    };
    // NoNMR: the game waits for the new player, past the deadline too.
    let when = if settings_of(&game)?.nmr {
        "The phase is not processed before its deadline."
    } else {
        "The phase is not processed until a new player has taken over, past its \
         deadline if need be."
    };
    let text = format!(
        "The Master of '{}' has removed the player of {names}: {wait} for a new player. \
         {} {when}",
        game.name,
        how.join(" ")
    );
    notify_all(s, &game, &format!("{names} {need}"), &text)?;
    s.reply.ok(line, text);
    Ok(())
}

pub fn become_power(s: &mut Session<'_>, line: &Line, text: &str) -> Result<(), StoreError> {
    let Some((game, power, seat)) = master_seat(s, line, text)? else {
        return Ok(());
    };
    // The power's player hears of it, as in njudge.
    let nobody = super::takeover::vacant(&seat)
        || seat.status == SeatStatus::Eliminated
        || game.master_address.as_deref() == Some(seat.address.as_str());
    let told = if nobody {
        String::new()
    } else {
        let subject = s.subject(
            &game.name,
            None,
            &format!("{} {}", title::MASTER_ACTS_FOR, power.name()),
        );
        let text = format!(
            "The Master of '{}' has signed on as {} (BECOME) and may give its orders; \
             an order the Master gives replaces yours for that unit, as a later order of \
             yours would. Your own sign-on works as before.\n",
            game.name,
            power.name()
        );
        s.send(vec![seat.address.clone()], subject, text, Some(game.id));
        format!(" {}'s player has been told.", power.name())
    };
    s.reply.ok(
        line,
        format!("You now act for {} in '{}'.{told}", power.name(), game.name),
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
    let game = store::games::game_by_id(s.tx, game.id)?.expect("game");
    if game.state != GameState::Forming {
        s.reply
            .refuse(line, format!("'{}' has already started.", game.name));
        return Ok(());
    }
    let seats = store::seats::seats_of_game(s.tx, game.id)?.len();
    let settings = settings_of(&game)?;
    if seats < settings.players {
        s.reply.refuse(
            line,
            format!(
                "'{}' has {seats} of the {} players its variant needs; it starts when they have joined.",
                game.name, settings.players
            ),
        );
        return Ok(());
    }
    if seats > settings.players {
        s.reply.refuse(
            line,
            format!(
                "'{}' has {seats} players, more than the {} its variant takes: it cannot start.",
                game.name, settings.players
            ),
        );
        return Ok(());
    }
    super::join::start_if_full(s, &game)?;
    s.reply.ok(line, format!("Game '{}' starts.", game.name));
    Ok(())
}

/// A notice to the whole game, archived.
fn notify_all(s: &mut Session<'_>, game: &Game, what: &str, text: &str) -> Result<(), StoreError> {
    let phase = current(s.tx, game.id)?.map(|c| c.record.phase);
    let subject = s.subject(&game.name, phase.as_deref(), what);
    let mail = announce(
        s.tx,
        game,
        phase.as_deref(),
        subject,
        text.to_string(),
        s.now,
    )?;
    // The archive keeps the text as given; the mail ends it with a newline.
    s.send(mail.to, mail.subject, format!("{text}\n"), Some(game.id));
    Ok(())
}
