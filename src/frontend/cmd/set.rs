//! SET commands: a player's own (WAIT, PASSWORD, ADDRESS, ABSENCE, DRAW,
//! PREFERENCE) and the Master's (deadlines, schedules, NMR, press).

use super::settings_change::{announce, save_settings, Change};
use super::{join, master_game};
use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::clock::{check_cron, check_zone, format_time, time_and_wait};
use crate::game::deadline_change::{self, Moved, Refused};
use crate::game::length::{length_words, read_length};
use crate::game::player_settings;
use crate::game::schedule::schedule_words;
use crate::game::settings::{GameSettings, ObserverPress, Schedule};
use crate::game::{self, current, settings_of, Game, GameState, Seat, StoreError};
use crate::say;

pub fn set(s: &mut Session<'_>, line: &Line, what: &str, rest: &str) -> Result<(), StoreError> {
    match what {
        "PREFERENCE" | "PREFERENCES" => join::set_preference(s, line, rest),
        "WAIT" | "NOWAIT" => player_wait(s, line, what == "WAIT"),
        "PASSWORD" => player_password(s, line, rest),
        "ADDRESS" => super::team::set_address(s, line, rest),
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
        "OBSERVER" if super::observers::is_address(rest) => super::observers::name(s, line, rest),
        "NOOBSERVER" => super::observers::unname(s, line, rest),
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
        Some(NjudgeSet::Answer(said)) => s.reply.ok(line, entry(said)),
        Some(NjudgeSet::Refuse(why)) => s.reply.refuse(line, entry(why)),
        None => s.reply.refuse(line, say!("set.not_a_setting", what)),
    }
    Ok(())
}

/// The words of the entry `key` (`area.name`), which takes no variables.
fn entry(key: &str) -> String {
    crate::report::words::say(key, minijinja::Value::UNDEFINED)
}

/// The signed-on player's game and seat, or a refusal.
fn player(s: &mut Session<'_>, line: &Line) -> Option<(Game, Seat)> {
    match &s.signed {
        Some(Signed::Player { game, seat, .. }) => Some((game.clone(), seat.clone())),
        _ => {
            s.reply.refuse(line, say!("set.needs_player_sign_on"));
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
            s.reply.refuse(line, say!("set.maps_usage"));
            return Ok(());
        }
    };
    let Some((game, seat)) = player(s, line) else {
        return Ok(());
    };
    let address = super::own_address(s, &seat)?;
    player_settings::set_wants_maps(s.tx, &game, &address, on)?;
    s.reply.ok(line, say!("set.maps", on));
    Ok(())
}

fn player_wait(s: &mut Session<'_>, line: &Line, wait: bool) -> Result<(), StoreError> {
    let Some((_, seat)) = player(s, line) else {
        return Ok(());
    };
    player_settings::set_wait(s.tx, &seat, wait)?;
    s.reply.ok(line, say!("set.wait", on => wait));
    Ok(())
}

fn player_password(s: &mut Session<'_>, line: &Line, new: &str) -> Result<(), StoreError> {
    let Some((_, seat)) = player(s, line) else {
        return Ok(());
    };
    if new.split_whitespace().count() != 1 || new.len() < 4 {
        s.reply.refuse(line, say!("set.password_usage"));
        return Ok(());
    }
    player_settings::set_password(s.tx, &seat, new)?;
    s.reply.ok(line, say!("set.password_changed"));
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
        player_settings::concede(s.tx, &seat, None)?;
        s.reply.ok(line, say!("set.concession_withdrawn"));
        return Ok(());
    }
    let Some(power) = crate::engine::map::Power::parse(text) else {
        s.reply.refuse(line, say!("set.concede_usage"));
        return Ok(());
    };
    player_settings::concede(s.tx, &seat, Some(power))?;
    s.reply
        .ok(line, say!("set.conceded", power => power.name()));
    Ok(())
}

fn master_time(s: &mut Session<'_>, line: &Line, what: &str, text: &str) -> Result<(), StoreError> {
    let Some(game) = master_now(s, line)? else {
        return Ok(());
    };
    let Some(cur) = current(s.tx, game.id)? else {
        s.reply
            .refuse(line, say!("set.not_started", game => &game.name));
        return Ok(());
    };
    let mut settings = settings_of(&game)?;
    let schedule = crate::game::process::schedule_for(&settings, cur.position.phase.kind).clone();
    let zone = super::when::writer_zone(s)?;
    let untimed = game_time_of_day(&schedule);
    let toward = super::when::Toward::Future;
    let Some(t) = super::when::read_date_at(text, s.now, zone, toward, untimed) else {
        s.reply.refuse(line, say!("set.date_usage", what));
        return Ok(());
    };
    if what == "START" {
        return master_start(s, line, (&game, &cur, &mut settings), &schedule, t);
    }
    let moved = match what {
        "GRACE" => deadline_change::set_grace(s.tx, &game, &cur, t, s.now)?,
        _ => deadline_change::set_deadline(s.tx, &game, (&cur, &settings, &schedule), t, s.now)?,
    };
    let Moved {
        phase,
        deadline,
        grace,
    } = match moved {
        Ok(moved) => moved,
        Err(why) => {
            s.reply.refuse(line, refusal(&why));
            return Ok(());
        }
    };
    let said = say!("set.deadline_now", phase, deadline => time_and_wait(deadline, s.now),
        grace => format_time(grace));
    s.reply.ok(line, said.clone());
    announce(s, &game, Change::Deadline, said)
}

/// Why a deadline, an end of grace or a SET START is refused.
fn refusal(why: &Refused) -> String {
    let (at, earliest) = match *why {
        Refused::StartPassed { ref phase, at } => {
            return say!("set.start_passed", phase, at => format_time(at));
        }
        Refused::GraceTooSoon { at, earliest } => {
            return say!("set.grace_refused", at => format_time(at),
                earliest => format_time(earliest), written => written(earliest));
        }
        Refused::DeadlinePassed { at, earliest }
        | Refused::DeadlineHeld { at, earliest, .. }
        | Refused::DeadlineUnderMinimum { at, earliest, .. } => (at, earliest),
    };
    let reason = match why {
        Refused::DeadlineHeld { phase, until, .. } => {
            say!("set.held_back", phase, until => format_time(*until))
        }
        Refused::DeadlineUnderMinimum { seconds, .. } => {
            say!("set.under_minimum", least => length_words(*seconds))
        }
        _ => say!("set.passed"),
    };
    say!("set.deadline_refused", at => format_time(at), why => reason,
        earliest => format_time(earliest), written => written(earliest))
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
    let held = match deadline_change::hold_until(s.tx, game, (cur, settings, schedule), t, s.now)? {
        Ok(held) => held,
        Err(why) => {
            s.reply.refuse(line, refusal(&why));
            return Ok(());
        }
    };
    save_settings(s, game, settings)?;
    let said = say!("set.held", phase => &held.times.phase, until => format_time(held.until),
        moved => held.moved, deadline => format_time(held.times.deadline),
        grace => format_time(held.times.grace));
    s.reply.ok(line, said.clone());
    let change = if held.moved {
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

/// SET MOVE|RETREAT|ADJUST <cron> [MIN <length>] [GRACE <length>], and
/// njudge's SET MOVE [NEXT <length>] [MIN <length>] [GRACE <length>]; a
/// length is hours, or minutes, hours or days with their unit
/// (`game::length`).
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
    let min_given = match schedule_options(schedule, what, &words[cut..], njudge) {
        Ok(min_given) => min_given,
        Err(why) => {
            s.reply.refuse(line, why);
            return Ok(());
        }
    };
    let text = schedule_words(schedule, s.now);
    save_settings(s, &game, &settings)?;
    let said = say!("set.schedule_set", kind => schedule_kind(what), schedule => text);
    let note = super::njudge_set::min_note(njudge && min_given);
    s.reply.ok(line, format!("{said}{note}"));
    announce(s, &game, Change::Setting, said)
}

/// The words after a schedule's cron line.
const OPTIONS: [&str; 4] = ["MIN", "NEXT", "GRACE", "ZONE"];

/// A schedule's MIN, NEXT, GRACE and ZONE words (`words`, after its cron
/// line); `njudge`: MIN is njudge's least time before processing. Whether
/// MIN was one of them (not a unit: `NEXT 5 MIN`).
fn schedule_options(
    schedule: &mut Schedule,
    what: &str,
    words: &[&str],
    njudge: bool,
) -> Result<bool, String> {
    let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
    // The option and the first word of the length last read: a word after
    // it that is no option was meant as its unit.
    let mut last: Option<(&str, usize)> = None;
    let mut min_given = false;
    let mut k = 0;
    while k < words.len() {
        if upper[k] == "ZONE" {
            match words.get(k + 1).map(|z| check_zone(z)) {
                Some(Ok(zone)) => schedule.zone = Some(zone.name().to_string()),
                Some(Err(e)) => return Err(e.to_string()),
                None => return Err(say!("set.zone_usage", what)),
            }
            k += 2;
            last = None;
            continue;
        }
        let option = upper[k].as_str();
        if !OPTIONS.contains(&option) {
            return Err(match last {
                Some((option, from)) => length_refused(what, option, &[&words[from..=k].join(" ")]),
                None => say!("set.schedule_usage", what),
            });
        }
        let Some((value, used)) = read_length(&words[k + 1..]) else {
            return Err(length_refused(what, option, &words[k + 1..]));
        };
        last = Some((option, k + 1));
        min_given |= option == "MIN";
        match option {
            "MIN" if njudge => schedule.least_seconds = value,
            "MIN" | "NEXT" => schedule.next_seconds = value,
            _ => schedule.grace_seconds = value,
        }
        k += 1 + used;
    }
    Ok(min_given)
}

/// Why the words after NEXT, MIN or GRACE are no length: what was
/// written, and the forms that are.
fn length_refused(what: &str, option: &str, after: &[&str]) -> String {
    let written = after.first().copied().unwrap_or_default();
    let longest = crate::game::length::LONGEST / (24 * 3600);
    say!("set.length_refused", what, option, written, longest)
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
    /// The words (`set.<name>`) the reply says of it.
    said: &'static str,
}

/// The Master's settings of one word.
const SWITCHES: &[Switch] = &[
    Switch {
        word: "NMR",
        change: |g| g.nmr = true,
        said: "set.nmr",
    },
    Switch {
        word: "NONMR",
        change: |g| g.nmr = false,
        said: "set.nonmr",
    },
    Switch {
        word: "WHITE",
        change: |g| {
            g.white = true;
            g.grey = false;
        },
        said: "set.white",
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
        said: "set.grey_only",
    },
    Switch {
        word: "WHITE/GREY",
        change: |g| {
            g.white = true;
            g.grey = true;
        },
        said: "set.white_and_grey",
    },
    Switch {
        word: "NOPRESS",
        change: |g| {
            g.white = false;
            g.grey = false;
        },
        said: "set.nopress",
    },
    Switch {
        word: "PARTIAL",
        change: |g| g.partial = true,
        said: "set.partial",
    },
    Switch {
        word: "NOPARTIAL",
        change: |g| g.partial = false,
        said: "set.nopartial",
    },
    Switch {
        word: "PRIVATE",
        change: |g| g.private = true,
        said: "set.private",
    },
    Switch {
        word: "PUBLIC",
        change: |g| g.private = false,
        said: "set.public",
    },
];

/// What SET GREY comes to, by the settings it leaves: grey press beside
/// white, or (after SET NOPRESS or SET NO WHITE) grey press only.
fn grey_said(settings: &GameSettings) -> &'static str {
    if settings.white {
        "set.grey_beside_white"
    } else {
        "set.grey_only"
    }
}

fn master_flag(s: &mut Session<'_>, line: &Line, what: &str, rest: &str) -> Result<(), StoreError> {
    let Some(game) = master_now(s, line)? else {
        return Ok(());
    };
    let mut settings: GameSettings = settings_of(&game)?;
    let what = if what == "GRAY" { "GREY" } else { what };
    let said = match SWITCHES.iter().find(|switch| switch.word == what) {
        Some(switch) => {
            (switch.change)(&mut settings);
            let key = match what {
                "GREY" => grey_said(&settings),
                _ => switch.said,
            };
            Ok(entry(key))
        }
        None if what == "OBSERVER" => observer_press(&mut settings, rest),
        // END <year> | <date and time> [BY CENTRES|PIECES]
        None => super::end::set_end(s, &game, &mut settings, rest)?,
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
        Some(end) if end <= s.now => {
            format!(" {}", say!("set.overdue", phase => current.record.phase))
        }
        _ => String::new(),
    })
}

/// The Master's game as it stands now: after the commands before this
/// one in the same mail (the sign-on's copy may be older).
fn master_now(s: &mut Session<'_>, line: &Line) -> Result<Option<Game>, StoreError> {
    let Some(game) = master_game(s, line) else {
        return Ok(None);
    };
    Ok(Some(game::game_by_id(s.tx, game.id)?.unwrap_or(game)))
}

/// SET OBSERVER ANY|NO|WHITE: what observers may send (SET OBSERVER
/// <address> is `observers::name`).
fn observer_press(settings: &mut GameSettings, rest: &str) -> Result<String, String> {
    settings.observers = match rest.trim().to_ascii_uppercase().as_str() {
        "ANY" => ObserverPress::Any,
        "NO" | "NONE" => ObserverPress::No,
        "WHITE" => ObserverPress::White,
        _ => return Err(say!("set.observer_usage")),
    };
    Ok(say!("set.observer_press", which => rest.trim().to_ascii_lowercase()))
}
