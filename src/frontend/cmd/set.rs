//! SET commands: a player's own (WAIT, PASSWORD, ADDRESS, ABSENCE, DRAW,
//! PREFERENCE) and the Master's (deadlines, schedules, NMR, press).

use super::{join, master_game};
use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::clock::{check_cron, check_zone, format_time, parse_time};
use crate::game::settings::{GameSettings, ObserverPress, Schedule};
use crate::game::{current, settings_of};
use crate::mail::Address;
use crate::store::{self, StoreError};

const PLAYER_SETTINGS: &str =
    "WAIT, NOWAIT, PASSWORD, ADDRESS, ABSENCE, DRAW, NODRAW, CONCEDE, NOCONCEDE, PREFERENCE, MAPS";
const MASTER_SETTINGS: &str = "DEADLINE, GRACE, START, MOVE, RETREAT, ADJUST, NMR, NONMR, \
                               WHITE, GREY, NO PRESS, PARTIAL, NO PARTIAL, OBSERVER, END, TAKEOVER, ABSENCE LIMIT";

pub fn set(s: &mut Session<'_>, line: &Line, what: &str, rest: &str) -> Result<(), StoreError> {
    match what {
        "PREFERENCE" | "PREFERENCES" => join::set_preference(s, line, rest),
        "WAIT" | "NOWAIT" => player_wait(s, line, what == "WAIT"),
        "PASSWORD" => player_password(s, line, rest),
        "ADDRESS" => player_address(s, line, rest),
        "ABSENCE" | "NOABSENCE" => super::absence::absence(s, line, what, rest),
        "TAKEOVER" | "TAKEOVERS" => super::takeover::set_takeover(s, line, rest),
        "DRAW" | "NODRAW" => player_draw(s, line, what == "DRAW"),
        "CONCEDE" | "NOCONCEDE" => player_concede(s, line, what == "CONCEDE", rest),
        "MAPS" | "MAP" => player_maps(s, line, rest),
        "DEADLINE" | "GRACE" | "START" => master_time(s, line, what, rest),
        "MOVE" | "MOVEMENT" | "RETREAT" | "RETREATS" | "ADJUST" | "ADJUSTMENT" | "BUILD" => {
            master_schedule(s, line, what, rest)
        }
        "NMR" | "NONMR" | "WHITE" | "GREY" | "GRAY" | "NOPRESS" | "PARTIAL" | "NOPARTIAL"
        | "OBSERVER" | "END" => master_flag(s, line, what, rest),
        _ => {
            s.reply.refuse(
                line,
                format!(
                    "SET {what} is not a setting. Players: {PLAYER_SETTINGS}. Masters: {MASTER_SETTINGS}."
                ),
            );
            Ok(())
        }
    }
}

/// The signed-on player's game and seat, or a refusal.
fn player(s: &mut Session<'_>, line: &Line) -> Option<(crate::store::Game, crate::store::Seat)> {
    match &s.signed {
        Some(Signed::Player { game, seat, .. }) => Some((game.clone(), seat.clone())),
        _ => {
            s.reply.refuse(line, "That setting needs a sign-on as a player first: SIGNON <initial><game> <password>.");
            None
        }
    }
}

/// SET MAPS ON|OFF: the map of each phase in this player's results mails,
/// or not.
fn player_maps(s: &mut Session<'_>, line: &Line, rest: &str) -> Result<(), StoreError> {
    let on = match rest.trim().to_ascii_uppercase().as_str() {
        "ON" => true,
        "OFF" => false,
        _ => {
            s.reply.refuse(
                line,
                "Write SET MAPS OFF (results without the map) or SET MAPS ON.",
            );
            return Ok(());
        }
    };
    let Some((game, seat)) = player(s, line) else {
        return Ok(());
    };
    store::set_maps(s.tx, game.id, &seat.address, on)?;
    s.reply.ok(
        line,
        if on {
            "Your results mails will carry the map of each phase."
        } else {
            "Your results mails will carry no map (GET MAP still sends one)."
        },
    );
    Ok(())
}

fn player_wait(s: &mut Session<'_>, line: &Line, wait: bool) -> Result<(), StoreError> {
    let Some((_, seat)) = player(s, line) else {
        return Ok(());
    };
    store::set_seat_wait(s.tx, seat.id, wait)?;
    s.reply.ok(
        line,
        if wait {
            "WAIT set: the phase will not be processed before the deadline."
        } else {
            "WAIT cleared: the phase may be processed early once all orders are in."
        },
    );
    Ok(())
}

fn player_password(s: &mut Session<'_>, line: &Line, new: &str) -> Result<(), StoreError> {
    let Some((_, seat)) = player(s, line) else {
        return Ok(());
    };
    if new.split_whitespace().count() != 1 || new.len() < 4 {
        s.reply.refuse(
            line,
            "Write SET PASSWORD <new password>: one word of at least 4 characters.",
        );
        return Ok(());
    }
    let hash = store::hash_password(new)?;
    store::set_player_password(s.tx, seat.id, &hash)?;
    s.reply.ok(
        line,
        "Your password is changed. Use the new one from your next mail on.",
    );
    Ok(())
}

fn player_address(s: &mut Session<'_>, line: &Line, text: &str) -> Result<(), StoreError> {
    let Some((_, seat)) = player(s, line) else {
        return Ok(());
    };
    let Ok(addr) = Address::parse(text.trim()) else {
        s.reply
            .refuse(line, format!("'{}' is not a mail address.", text.trim()));
        return Ok(());
    };
    let new = addr.addr_spec();
    store::set_player_address(s.tx, seat.id, &new)?;
    // Both the old and the new address hear of the change.
    s.reply.also_to.push(seat.address.clone());
    s.reply.also_to.push(new.clone());
    s.reply
        .ok(line, format!("Your address of record is now {new}."));
    Ok(())
}

fn player_draw(s: &mut Session<'_>, line: &Line, draw: bool) -> Result<(), StoreError> {
    let Some((game, seat)) = player(s, line) else {
        return Ok(());
    };
    let phase = current(s.tx, game.id)?.map(|c| c.record.phase);
    let Some(phase) = phase.filter(|_| draw) else {
        store::set_seat_draw(s.tx, seat.id, None)?;
        s.reply.ok(line, "Your draw vote is withdrawn.");
        return Ok(());
    };
    store::set_seat_draw(s.tx, seat.id, Some(&phase))?;
    s.reply.ok(
        line,
        format!(
            "Your vote for a draw in {phase} is recorded (secret until it passes). The game \
             ends in a draw if every surviving power votes for one in the same phase."
        ),
    );
    Ok(())
}

/// SET CONCEDE <power>: the game ends, won by that power, when every
/// other surviving player concedes to it in the same phase.
fn player_concede(
    s: &mut Session<'_>,
    line: &Line,
    concede: bool,
    text: &str,
) -> Result<(), StoreError> {
    let Some((_, seat)) = player(s, line) else {
        return Ok(());
    };
    if !concede {
        store::set_seat_concession(s.tx, seat.id, None)?;
        s.reply.ok(line, "Your concession is withdrawn.");
        return Ok(());
    }
    let Some(power) = crate::engine::map::Power::parse(text) else {
        s.reply
            .refuse(line, "Write SET CONCEDE <power>, e.g. SET CONCEDE France.");
        return Ok(());
    };
    store::set_seat_concession(s.tx, seat.id, Some(power.upper()))?;
    s.reply.ok(
        line,
        format!(
            "You concede the game to {}. It ends when every other surviving player concedes \
             to {} in the same phase; concessions clear when a phase is processed.",
            power.name(),
            power.name()
        ),
    );
    Ok(())
}

fn master_time(s: &mut Session<'_>, line: &Line, what: &str, text: &str) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    let Some(t) = parse_time(text) else {
        s.reply.refuse(
            line,
            format!("Write SET {what} <date>, like 2026-11-24 20:00 (UTC)."),
        );
        return Ok(());
    };
    let Some(cur) = current(s.tx, game.id)? else {
        s.reply
            .refuse(line, format!("'{}' has not started yet.", game.name));
        return Ok(());
    };
    let phase = cur.record.phase.clone();
    let (deadline, grace) = match what {
        "GRACE" => {
            let d = cur.record.deadline.unwrap_or(t);
            if t < d {
                s.reply
                    .refuse(line, "The end of grace cannot come before the deadline.");
                return Ok(());
            }
            (d, t)
        }
        "START" => {
            // The phase counts as started at `t`: its deadline follows
            // from the schedule again.
            let settings = settings_of(&game)?;
            let schedule = crate::game::process::schedule_for(&settings, cur.position.phase.kind);
            crate::game::deadline::deadline_for(s.tx, game.id, schedule, t)?
        }
        _ => {
            let settings = settings_of(&game)?;
            let schedule = crate::game::process::schedule_for(&settings, cur.position.phase.kind);
            (t, t + i64::from(schedule.grace_hours) * 3600)
        }
    };
    store::set_deadline(s.tx, game.id, &phase, Some(deadline), Some(grace))?;
    s.reply.ok(
        line,
        format!(
            "The deadline for {phase} is now {}; grace until {}.",
            format_time(deadline),
            format_time(grace)
        ),
    );
    let subject = s.subject(&game.name, Some(&phase), "Deadline changed");
    let to = crate::game::everyone(s.tx, &game)?;
    let body = format!(
        "The Master of '{}' has set the deadline for {phase} to {}.\n",
        game.name,
        format_time(deadline)
    );
    s.send(to, subject, body, Some(game.id));
    Ok(())
}

/// SET MOVE|RETREAT|ADJUST <cron> [MIN <hours>] [GRACE <hours>].
fn master_schedule(
    s: &mut Session<'_>,
    line: &Line,
    what: &str,
    text: &str,
) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
    let cut = upper
        .iter()
        .position(|w| w == "MIN" || w == "GRACE" || w == "ZONE")
        .unwrap_or(words.len());
    let expr = words[..cut].join(" ");
    let mut settings = settings_of(&game)?;
    let schedule: &mut Schedule = match what {
        "MOVE" | "MOVEMENT" => &mut settings.movement,
        "RETREAT" | "RETREATS" => &mut settings.retreat,
        _ => &mut settings.adjustment,
    };
    if !expr.is_empty() {
        if let Err(e) = check_cron(&expr) {
            s.reply.refuse(line, e);
            return Ok(());
        }
        schedule.cron = Some(expr);
    }
    let mut k = cut;
    while k < words.len() {
        if upper[k] == "ZONE" {
            match words.get(k + 1).map(|z| check_zone(z)) {
                Some(Ok(_)) => schedule.zone = Some(words[k + 1].to_string()),
                Some(Err(e)) => {
                    s.reply.refuse(line, e);
                    return Ok(());
                }
                None => {
                    s.reply.refuse(
                        line,
                        format!("Write SET {what} <schedule> ZONE <time zone>, e.g. ZONE Europe/Amsterdam."),
                    );
                    return Ok(());
                }
            }
            k += 2;
            continue;
        }
        let value = words
            .get(k + 1)
            .and_then(|v| v.parse::<u32>().ok())
            .filter(|v| *v <= 24 * 60);
        let Some(value) = value else {
            s.reply.refuse(
                line,
                format!(
                    "Write SET {what} <schedule> [MIN <hours>] [GRACE <hours>] [ZONE <time zone>]."
                ),
            );
            return Ok(());
        };
        if upper[k] == "MIN" {
            schedule.min_hours = value;
        } else {
            schedule.grace_hours = value;
        }
        k += 2;
    }
    let text = schedule_text(schedule);
    store::set_game_settings(s.tx, game.id, &serde_json::to_string(&settings)?)?;
    s.reply.ok(
        line,
        format!("{what} deadlines: {text}. They apply from the next phase on."),
    );
    Ok(())
}

fn schedule_text(s: &Schedule) -> String {
    match &s.cron {
        Some(c) if s.zone.is_some() => format!(
            "'{c}' in {}, at least {} hours after the phase starts, grace {} hours",
            s.zone.as_deref().unwrap_or("UTC"),
            s.min_hours,
            s.grace_hours
        ),
        Some(c) => format!(
            "'{c}', at least {} hours after the phase starts, grace {} hours",
            s.min_hours, s.grace_hours
        ),
        None => format!(
            "{} hours after the phase starts, grace {} hours",
            s.min_hours, s.grace_hours
        ),
    }
}

/// A setting of the Master's in one word (SET NMR, SET NOPRESS, ...).
struct Switch {
    word: &'static str,
    change: fn(&mut GameSettings),
    /// What the reply says of it.
    said: &'static str,
}

/// The Master's settings of one word.
const SWITCHES: &[Switch] = &[
    Switch {
        word: "NMR",
        change: |g| g.nmr = true,
        said: "NMR: a power without orders at the end of grace goes into civil disorder.",
    },
    Switch {
        word: "NONMR",
        change: |g| g.nmr = false,
        said: "NoNMR: the game waits for a replacement when a power misses its orders.",
    },
    Switch {
        word: "WHITE",
        change: |g| {
            g.white = true;
            g.grey = false;
        },
        said: "Press is white: signed with the sender's power.",
    },
    Switch {
        word: "GREY",
        change: |g| g.grey = true,
        said: "Grey press is allowed: press may be sent anonymously.",
    },
    Switch {
        word: "NOPRESS",
        change: |g| {
            g.white = false;
            g.grey = false;
        },
        said: "No press: only press to and from the Master.",
    },
    Switch {
        word: "PARTIAL",
        change: |g| g.partial = true,
        said: "Partial press allowed: press may go to some powers only.",
    },
    Switch {
        word: "NOPARTIAL",
        change: |g| g.partial = false,
        said: "No partial press: press goes to everyone (BROADCAST).",
    },
];

fn master_flag(s: &mut Session<'_>, line: &Line, what: &str, rest: &str) -> Result<(), StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(());
    };
    let mut settings: GameSettings = settings_of(&game)?;
    let what = if what == "GRAY" { "GREY" } else { what };
    let said = match SWITCHES.iter().find(|switch| switch.word == what) {
        Some(switch) => {
            (switch.change)(&mut settings);
            Ok(switch.said.to_string())
        }
        None if what == "OBSERVER" => observer_press(&mut settings, rest),
        // END <year>
        None => end_year(&mut settings, rest),
    };
    let said = match said {
        Ok(said) => said,
        Err(why) => {
            s.reply.refuse(line, why);
            return Ok(());
        }
    };
    store::set_game_settings(s.tx, game.id, &serde_json::to_string(&settings)?)?;
    s.reply.ok(line, said);
    Ok(())
}

/// SET OBSERVER ANY|NO|WHITE: what observers may send.
fn observer_press(settings: &mut GameSettings, rest: &str) -> Result<String, &'static str> {
    settings.observers = match rest.trim().to_ascii_uppercase().as_str() {
        "ANY" => ObserverPress::Any,
        "NO" | "NONE" => ObserverPress::No,
        "WHITE" => ObserverPress::White,
        _ => return Err("Write SET OBSERVER ANY, SET OBSERVER NO or SET OBSERVER WHITE."),
    };
    Ok(format!(
        "Observers' press: {}.",
        rest.trim().to_ascii_lowercase()
    ))
}

/// SET END <year>: a short game, ending after that year's adjustments.
fn end_year(settings: &mut GameSettings, rest: &str) -> Result<String, &'static str> {
    let year = rest
        .trim()
        .parse::<u16>()
        .ok()
        .filter(|y| (1901..=2100).contains(y));
    let Some(year) = year else {
        return Err(
            "Write SET END <year>, e.g. SET END 1907: the game ends after that year's adjustments.",
        );
    };
    settings.end_year = Some(year);
    Ok(format!(
        "Short game: it ends after the Winter of {year}; the power with the most centres is named."
    ))
}
