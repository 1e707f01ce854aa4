//! SET commands: a player's own (WAIT, PASSWORD, ADDRESS, ABSENCE, DRAW,
//! PREFERENCE) and the Master's (deadlines, schedules, NMR, press).

use super::settings_change::{announce, save_settings, Change};
use super::{join, master_game};
use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::clock::{check_cron, check_zone, format_time};
use crate::game::schedule::schedule_words;
use crate::game::settings::{GameSettings, ObserverPress, PhaseStart, Schedule};
use crate::game::{current, settings_of};
use crate::mail::Address;
use crate::store::{self, games::Game, games::GameState, StoreError};

const PLAYER_SETTINGS: &str =
    "WAIT, NOWAIT, PASSWORD, ADDRESS, ABSENCE, DRAW, NODRAW, CONCEDE, NOCONCEDE, PREFERENCE, MAPS, ZONE";
const MASTER_SETTINGS: &str = "DEADLINE, GRACE, START, MOVE, RETREAT, ADJUST, NMR, NONMR, \
                               WHITE, GREY, WHITE/GREY, NO PRESS, PARTIAL, NO PARTIAL, OBSERVER, END, DIAS, NODIAS, \
                               TAKEOVER, ABSENCE LIMIT, PRIVATE, PUBLIC";

pub fn set(s: &mut Session<'_>, line: &Line, what: &str, rest: &str) -> Result<(), StoreError> {
    match what {
        "PREFERENCE" | "PREFERENCES" => join::set_preference(s, line, rest),
        "WAIT" | "NOWAIT" => player_wait(s, line, what == "WAIT"),
        "PASSWORD" => player_password(s, line, rest),
        "ADDRESS" => player_address(s, line, rest),
        "ABSENCE" | "NOABSENCE" => super::absence::absence(s, line, what, rest),
        "TAKEOVER" | "TAKEOVERS" => super::takeover::set_takeover(s, line, rest),
        "DRAW" | "NODRAW" => super::draw_votes::player_draw(s, line, what == "DRAW", rest),
        "DIAS" | "NODIAS" => super::draw_votes::master_dias(s, line, what == "DIAS"),
        "CONCEDE" | "NOCONCEDE" => player_concede(s, line, what == "CONCEDE", rest),
        "MAPS" | "MAP" => player_maps(s, line, rest),
        "ZONE" | "NOZONE" => super::zone::set_zone(s, line, rest, what == "NOZONE"),
        "DEADLINE" | "GRACE" | "START" => master_time(s, line, what, rest),
        "MOVE" | "MOVEMENT" | "RETREAT" | "RETREATS" | "ADJUST" | "ADJUSTMENT" | "BUILD" => {
            master_schedule(s, line, what, rest)
        }
        "NMR" | "NONMR" | "WHITE" | "GREY" | "GRAY" | "NOPRESS" | "PARTIAL" | "NOPARTIAL"
        | "OBSERVER" | "END" | "PRIVATE" | "PUBLIC" => master_flag(s, line, what, rest),
        _ => unknown(s, line, what, rest),
    }
}

/// njudge's SET forms, read as the judge's setting they mean or answered
/// with what the judge does; any other word is no setting.
fn unknown(s: &mut Session<'_>, line: &Line, what: &str, rest: &str) -> Result<(), StoreError> {
    use super::njudge_set::{read, NjudgeSet};
    match read(what, rest) {
        Some(NjudgeSet::Setting(word)) => return master_flag(s, line, word, rest),
        Some(NjudgeSet::Alias { what, rest }) => return set(s, line, what, &rest),
        Some(NjudgeSet::Answer(said)) => s.reply.ok(line, said),
        Some(NjudgeSet::Refuse(why)) => s.reply.refuse(line, why),
        None => s.reply.refuse(
            line,
            format!(
                "SET {what} is not a setting. Players: {PLAYER_SETTINGS}. Masters: {MASTER_SETTINGS}."
            ),
        ),
    }
    Ok(())
}

/// The signed-on player's game and seat, or a refusal.
fn player(
    s: &mut Session<'_>,
    line: &Line,
) -> Option<(crate::store::games::Game, crate::store::seats::Seat)> {
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
    store::map_opt_outs::set_wants_maps(s.tx, game.id, &seat.address, on)?;
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
    store::seats::set_seat_wait(s.tx, seat.id, wait)?;
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
    let hash = store::password::hash_password(new)?;
    store::seats::set_player_password(s.tx, seat.id, &hash)?;
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
    // SET ADDRESS alone (njudge): the address this mail came from.
    let sender = s.mail.reply_address().map(|a| a.addr_spec());
    let text = match sender {
        Some(sender) if text.trim().is_empty() => sender,
        _ => text.to_string(),
    };
    let Ok(addr) = Address::parse(text.trim()) else {
        s.reply
            .refuse(line, format!("'{}' is not a mail address.", text.trim()));
        return Ok(());
    };
    let new = addr.addr_spec();
    if new.eq_ignore_ascii_case(&seat.address) {
        s.reply
            .ok(line, format!("Your address of record is {new} already."));
        return Ok(());
    }
    // The address this mail came from was confirmed by the sign-on; any
    // other must say it wants the judge's mail first.
    let from_it = new.eq_ignore_ascii_case(&s.sender());
    if !from_it && !store::throttle::address_confirmed(s.tx, &new)? {
        let game = s.signed.as_ref().map(|g| g.game().clone());
        let (game_id, game_name) = game.map_or((None, String::new()), |g| (Some(g.id), g.name));
        let power = crate::game::power_of(&seat).map_or("", |p| p.name());
        let asked = super::confirm::ask(
            s,
            &new,
            super::confirm::Naming {
                by: &seat.address,
                why: format!("as the address of {power} in the game '{game_name}'"),
                seat_id: Some(seat.id),
                game_id,
                subject: None,
                or_else: None,
            },
        )?;
        let sent = if asked.mailed {
            "The judge has mailed it a line CONFIRM <token> to send back"
        } else {
            "It was asked today already, and must answer that mail (a line CONFIRM <token>)"
        };
        s.reply.ok(
            line,
            format!(
                "{new} is new to this judge. {sent}; until it does, your address of record \
                 stays {} and {new} gets nothing else.",
                seat.address
            ),
        );
        return Ok(());
    }
    store::seats::set_player_address(s.tx, seat.id, &new)?;
    // SET ZONE is kept by address: the new one sees deadlines as before.
    store::zones::carry_zone(s.tx, &seat.address, &new)?;
    // Both the old and the new address hear of the change.
    s.reply.also_to.push(seat.address.clone());
    s.reply.also_to.push(new.clone());
    s.reply
        .ok(line, format!("Your address of record is now {new}."));
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
        store::seats::set_seat_concession(s.tx, seat.id, None)?;
        s.reply.ok(line, "Your concession is withdrawn.");
        return Ok(());
    }
    let Some(power) = crate::engine::map::Power::parse(text) else {
        s.reply
            .refuse(line, "Write SET CONCEDE <power>, e.g. SET CONCEDE France.");
        return Ok(());
    };
    store::seats::set_seat_concession(s.tx, seat.id, Some(power.upper()))?;
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
    let Some(game) = master_now(s, line)? else {
        return Ok(());
    };
    let Some(cur) = current(s.tx, game.id)? else {
        s.reply
            .refuse(line, format!("'{}' has not started yet.", game.name));
        return Ok(());
    };
    let mut settings = settings_of(&game)?;
    let schedule = crate::game::process::schedule_for(&settings, cur.position.phase.kind).clone();
    let zone = super::when::writer_zone(s)?;
    let untimed = game_time_of_day(&schedule);
    let toward = super::when::Toward::Future;
    let Some(t) = super::when::read_date_at(text, s.now, zone, toward, untimed) else {
        s.reply.refuse(
            line,
            format!(
                "Write SET {what} <date>, like 2026-11-24 20:00, Nov 24 20:00, Nov 24, 2026 \
                 or Thu 20:00 (UTC, or your zone if you SET ZONE; without a time, the \
                 game's time of day)."
            ),
        );
        return Ok(());
    };
    if what == "START" {
        return master_start(s, line, (&game, &cur, &mut settings), &schedule, t);
    }
    let phase = cur.record.phase.clone();
    let times = match what {
        "GRACE" => grace_end(s.now, cur.record.deadline, t),
        _ => {
            let floor = deadline_floor(&settings, &cur, schedule.min_hours);
            earliest_deadline(s.now, floor, t)
                .map(|d| (d, d + i64::from(schedule.grace_hours) * 3600))
        }
    };
    let (deadline, grace) = match times {
        Ok(times) => times,
        Err(why) => {
            s.reply.refuse(line, why);
            return Ok(());
        }
    };
    store::phases::set_deadline(s.tx, game.id, &phase, Some(deadline), Some(grace))?;
    let said = format!(
        "The deadline for {phase} is now {}; grace until {}.",
        format_time(deadline),
        format_time(grace)
    );
    s.reply.ok(line, said.clone());
    announce(s, &game, Change::Deadline, said)
}

/// The time of day a date without one means in SET DEADLINE, GRACE and
/// START, as njudge gives it: the schedule's time of day (a cron line at
/// one time a day, in its zone), else njudge's 23:30.
fn game_time_of_day(schedule: &Schedule) -> super::when::DayTime {
    let at = |h, m| chrono::NaiveTime::from_hms_opt(h, m, 0).unwrap_or_default();
    match crate::game::schedule::time_of_day(schedule) {
        Some((h, m, zone)) => super::when::DayTime::At(at(h, m), zone),
        None => super::when::DayTime::At(at(23, 30), None),
    }
}

/// SET START <t> (njudge): the current phase is not processed before `t`,
/// not even early; the deadline moves to `t` only if it is sooner.
fn master_start(
    s: &mut Session<'_>,
    line: &Line,
    (game, cur, settings): (&Game, &crate::game::Current, &mut GameSettings),
    schedule: &Schedule,
    t: i64,
) -> Result<(), StoreError> {
    let phase = cur.record.phase.clone();
    if t <= s.now {
        s.reply.refuse(
            line,
            format!(
                "SET START holds {phase} back until a time to come; {} has passed. Nothing \
                 was changed.",
                format_time(t)
            ),
        );
        return Ok(());
    }
    settings.start = Some(PhaseStart {
        phase: phase.clone(),
        at: t,
    });
    save_settings(s, game, settings)?;
    let deadline = cur.record.deadline.unwrap_or(t);
    let grace = cur.record.grace_until.unwrap_or(deadline);
    let held = format!(
        "{phase} is not processed before {}, not even when every order is in.",
        format_time(t)
    );
    let moved = t > deadline;
    let said = if moved {
        let grace = grace.max(t + i64::from(schedule.grace_hours) * 3600);
        store::phases::set_deadline(s.tx, game.id, &phase, Some(t), Some(grace))?;
        format!(
            "{held} The deadline moves to it: {}; grace until {}.",
            format_time(t),
            format_time(grace)
        )
    } else {
        format!(
            "{held} The deadline stays {}; grace until {}.",
            format_time(deadline),
            format_time(grace)
        )
    };
    s.reply.ok(line, said.clone());
    let change = if moved {
        Change::Deadline
    } else {
        Change::Setting
    };
    announce(s, game, change, said)
}

/// A time as SET DEADLINE reads it: `2026-11-24 20:00`.
fn written(t: i64) -> String {
    chrono::DateTime::from_timestamp(t, 0)
        .map(|d| d.format("%Y-%m-%d %H:%M").to_string())
        .unwrap_or_default()
}

/// The first whole minute at or after `t`.
fn minute_up(t: i64) -> i64 {
    t + (60 - t.rem_euclid(60)) % 60
}

/// How soon a deadline may be, and why: the schedule's MIN hours after
/// the phase started, or (later) when SET START or njudge's MIN hold the
/// phase back.
fn deadline_floor(
    settings: &GameSettings,
    cur: &crate::game::Current,
    min_hours: u32,
) -> (i64, String) {
    let by_schedule = cur.record.started_at + i64::from(min_hours) * 3600;
    let hold = crate::game::deadline::earliest_processing(settings, cur);
    if hold > by_schedule {
        let phase = &cur.record.phase;
        return (
            hold,
            format!("{phase} is not processed before {}", format_time(hold)),
        );
    }
    (
        by_schedule,
        format!("the game's minimum is {min_hours} hours after the phase started"),
    )
}

/// A new deadline `t`, or why not: it must be in the future and not
/// before the `floor` (with its reason).
fn earliest_deadline(now: i64, (floor, reason): (i64, String), t: i64) -> Result<i64, String> {
    let earliest = minute_up((now + 1).max(floor));
    if t >= earliest {
        return Ok(t);
    }
    let why = if t <= now {
        "that time has passed".to_string()
    } else {
        reason
    };
    Err(format!(
        "The deadline cannot be {}: {why}. The earliest allowed is {}: write SET DEADLINE {} \
         or later.",
        format_time(t),
        format_time(earliest),
        written(earliest)
    ))
}

/// The deadline and a new end of grace `t`, or why not: not before the
/// deadline, not in the past.
fn grace_end(now: i64, deadline: Option<i64>, t: i64) -> Result<(i64, i64), String> {
    let d = deadline.unwrap_or(t);
    let earliest = minute_up(d.max(now + 1));
    if t >= d && t > now {
        return Ok((d, t));
    }
    Err(format!(
        "The end of grace cannot be {}: it must come after the deadline and not in the past. \
         The earliest allowed is {}: write SET GRACE {} or later.",
        format_time(t),
        format_time(earliest),
        written(earliest)
    ))
}

/// SET MOVE|RETREAT|ADJUST <cron> [MIN <hours>] [GRACE <hours>], and
/// njudge's SET MOVE [NEXT <hours>] [MIN <hours>] [GRACE <hours>].
fn master_schedule(
    s: &mut Session<'_>,
    line: &Line,
    what: &str,
    text: &str,
) -> Result<(), StoreError> {
    let Some(game) = master_now(s, line)? else {
        return Ok(());
    };
    let text = match super::njudge_set::njudge_schedule(what, text) {
        Ok(text) => text,
        Err(why) => {
            s.reply.refuse(line, why);
            return Ok(());
        }
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
    let cut = upper
        .iter()
        .position(|w| OPTIONS.contains(&w.as_str()))
        .unwrap_or(words.len());
    let expr = words[..cut].join(" ");
    // Without a cron line, MIN is njudge's: the least time before a phase
    // is processed. After one, it is the judge's: the least time to the
    // deadline.
    let njudge = expr.is_empty();
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
    if let Err(why) = schedule_options(schedule, what, &words[cut..], njudge) {
        s.reply.refuse(line, why);
        return Ok(());
    }
    let text = schedule_words(schedule, s.now);
    save_settings(s, &game, &settings)?;
    let said = format!(
        "{} deadlines: {text}. They apply from the next phase on.",
        schedule_kind(what)
    );
    let note = super::njudge_set::min_note(njudge, &upper);
    s.reply.ok(line, format!("{said}{note}"));
    announce(s, &game, Change::Setting, said)
}

/// The words after a schedule's cron line.
const OPTIONS: [&str; 4] = ["MIN", "NEXT", "GRACE", "ZONE"];

/// A schedule's MIN, NEXT, GRACE and ZONE words (`words`, after its cron
/// line); `njudge`: MIN is njudge's least time before processing.
fn schedule_options(
    schedule: &mut Schedule,
    what: &str,
    words: &[&str],
    njudge: bool,
) -> Result<(), String> {
    let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
    let mut k = 0;
    while k < words.len() {
        if upper[k] == "ZONE" {
            match words.get(k + 1).map(|z| check_zone(z)) {
                Some(Ok(zone)) => schedule.zone = Some(zone.name().to_string()),
                Some(Err(e)) => return Err(e.to_string()),
                None => {
                    return Err(format!(
                        "Write SET {what} <schedule> ZONE <time zone>, e.g. ZONE Europe/Amsterdam."
                    ))
                }
            }
            k += 2;
            continue;
        }
        let value = words
            .get(k + 1)
            .and_then(|v| v.parse::<u32>().ok())
            .filter(|v| *v <= 24 * 60);
        let (Some(value), true) = (value, OPTIONS.contains(&upper[k].as_str())) else {
            return Err(format!(
                "Write SET {what} <schedule> [MIN <hours>] [GRACE <hours>] [ZONE <time zone>], \
                 or njudge's SET {what} [NEXT <hours>] [MIN <hours>] [GRACE <hours>]."
            ));
        };
        match upper[k].as_str() {
            "MIN" if njudge => schedule.least_hours = value,
            "MIN" | "NEXT" => schedule.min_hours = value,
            _ => schedule.grace_hours = value,
        }
        k += 2;
    }
    Ok(())
}

fn schedule_kind(what: &str) -> &'static str {
    match what {
        "MOVE" | "MOVEMENT" => "Movement",
        "RETREAT" | "RETREATS" => "Retreat",
        _ => "Adjustment",
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
        said: "NMR: at the end of grace the orders given are carried out; a power that gave \
               none goes into civil disorder.",
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
        // What it comes to depends on white press: see `grey_said`.
        said: "",
    },
    Switch {
        word: "NOWHITE",
        change: |g| {
            g.white = false;
            g.grey = true;
        },
        said: GREY_ONLY,
    },
    Switch {
        word: "WHITE/GREY",
        change: |g| {
            g.white = true;
            g.grey = true;
        },
        said: "White and grey press are allowed: press is signed with the sender's power \
               unless it is sent GREY.",
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
    Switch {
        word: "PRIVATE",
        change: |g| g.private = true,
        said: "Private: the game is not published in the judge's web archive \
               (pages already written are removed).",
    },
    Switch {
        word: "PUBLIC",
        change: |g| g.private = false,
        said: "Public: the game's processed phases and press to everyone are published \
               in the judge's web archive.",
    },
];

/// What SET GREY comes to, by the settings it leaves: grey press beside
/// white, or (after SET NOPRESS or SET NO WHITE) grey press only.
fn grey_said(settings: &GameSettings) -> &'static str {
    if settings.white {
        "Grey press is allowed: press may be sent anonymously (GREY); white press \
         stays allowed too (SET WHITE is white only, SET NO WHITE grey only)."
    } else {
        GREY_ONLY
    }
}

const GREY_ONLY: &str = "Press is grey only: it must be sent GREY (anonymously), white \
                         press is refused (SET WHITE/GREY allows both).";

fn master_flag(s: &mut Session<'_>, line: &Line, what: &str, rest: &str) -> Result<(), StoreError> {
    let Some(game) = master_now(s, line)? else {
        return Ok(());
    };
    let mut settings: GameSettings = settings_of(&game)?;
    let what = if what == "GRAY" { "GREY" } else { what };
    let said = match SWITCHES.iter().find(|switch| switch.word == what) {
        Some(switch) => {
            (switch.change)(&mut settings);
            Ok(match what {
                "GREY" => grey_said(&settings),
                _ => switch.said,
            }
            .to_string())
        }
        None if what == "OBSERVER" => observer_press(&mut settings, rest).map_err(String::from),
        // END <year>
        None => {
            let now = current(s.tx, game.id)?.map(|c| (c.position.phase.year, c.record.phase));
            end_year(&mut settings, rest, now)
        }
    };
    let said = match said {
        Ok(said) => said,
        Err(why) => {
            s.reply.refuse(line, why);
            return Ok(());
        }
    };
    save_settings(s, &game, &settings)?;
    let overdue = match what {
        "NMR" => overdue_note(s, &game)?,
        _ => String::new(),
    };
    s.reply.ok(line, format!("{said}{overdue}"));
    announce(s, &game, Change::Setting, format!("{said}{overdue}"))
}

/// SET NMR when the phase's grace is already over: the next pass of the
/// clock processes it at once, so the Master is told before it happens,
/// not after.
fn overdue_note(s: &mut Session<'_>, game: &Game) -> Result<String, StoreError> {
    if game.state != GameState::Active {
        return Ok(String::new());
    }
    let Some(current) = current(s.tx, game.id)? else {
        return Ok(String::new());
    };
    let end = current.record.grace_until.or(current.record.deadline);
    Ok(match end {
        Some(end) if end <= s.now => format!(
            " The deadline and grace of {} are over: it is processed at the judge's next \
             pass with the orders given, each power that gave none in civil disorder.",
            current.record.phase
        ),
        _ => String::new(),
    })
}

/// The Master's game as it stands now: after the commands before this
/// one in the same mail (the sign-on's copy may be older).
fn master_now(s: &mut Session<'_>, line: &Line) -> Result<Option<Game>, StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(None);
    };
    Ok(Some(
        store::games::game_by_id(s.tx, game.id)?.unwrap_or(game),
    ))
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

/// SET END <year>: a short game, ending when that year is over; not a
/// year before the current phase's (`now`: its year and name).
fn end_year(
    settings: &mut GameSettings,
    rest: &str,
    now: Option<(u16, String)>,
) -> Result<String, String> {
    let year = rest
        .trim()
        .parse::<u16>()
        .ok()
        .filter(|y| (1901..=2100).contains(y));
    let Some(year) = year else {
        return Err(
            "Write SET END <year>, e.g. SET END 1907: the game ends when 1907 is over.".into(),
        );
    };
    if let Some((current, phase)) = now.filter(|(current, _)| year < *current) {
        return Err(format!(
            "The game is already in {phase}: write SET END {current} or later."
        ));
    }
    settings.end_year = Some(year);
    Ok(format!(
        "Short game: {year} is the last year played; the game ends when {year} is over, \
         after its Fall moves and its Winter builds and removals."
    ))
}
