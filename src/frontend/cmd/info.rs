//! Commands for anyone: HELP, GET, VERSION, LIST, HISTORY, SUMMARY.

use super::{find_visible_game, listing, visible};
use crate::engine::map::{Map, Power};
use crate::engine::position::Position;
use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::clock::{format_time, time_and_wait};
use crate::game::{current, lookup, power_of, settings_of, GameState, Seat, StoreError};
use crate::report::words::say as say_entry;
use crate::say;

/// The help file `name`, as loaded when the judge started.
fn help_file(_s: &Session<'_>, name: &str) -> Option<String> {
    crate::report::words::current()
        .help(name)
        .map(str::to_string)
}

pub fn help(s: &mut Session<'_>, line: &Line) {
    let text = help_file(s, "help").unwrap_or_default();
    s.reply.ok(line, text.trim_end());
}

/// njudge's files that are one of this judge's under another name: its
/// name there, the file here, and the words of what the file here covers.
const NJUDGE_FILES: [(&str, &str, &str); 5] = [
    ("index", "help", "info.covers_index"),
    ("guide", "info", "info.covers_guide"),
    ("absence", "deadlines", "info.covers_absence"),
    ("draws", "rules", "info.covers_draws"),
    ("house.rules", "rules", "info.covers_house_rules"),
];

/// njudge's files this judge has no file for: what it offers instead.
fn njudge_file_answer(name: &str) -> Option<String> {
    let names: Vec<&str> = crate::report::words::current().help_names();
    let text = match name {
        "flist" => say!("info.flist", names => names.join(", ")),
        "form" => say!("info.form"),
        "history" => say!("info.history_file"),
        "package" => say!("info.package"),
        _ => return None,
    };
    Some(text)
}

pub fn get(s: &mut Session<'_>, line: &Line, name: &str) {
    if let Some(&(_, file, covers)) = NJUDGE_FILES.iter().find(|(n, _, _)| *n == name) {
        let text = help_file(s, file).unwrap_or_default();
        let covers = say_entry(covers, minijinja::Value::UNDEFINED);
        let said = say!("info.njudge_file", name, file, covers, text => text.trim_end());
        s.reply.ok(line, said);
        return;
    }
    match help_file(s, name) {
        Some(text) => s.reply.ok(line, text.trim_end()),
        None if name == "package" => s
            .reply
            .refuse(line, njudge_file_answer(name).unwrap_or_default()),
        None => match njudge_file_answer(name) {
            Some(text) => s.reply.ok(line, text),
            None => {
                let names: Vec<&str> = crate::report::words::current().help_names();
                s.reply
                    .refuse(line, say!("info.no_file", name, names => names.join(", ")));
            }
        },
    }
}

pub fn version(s: &mut Session<'_>, line: &Line) {
    s.reply.ok(
        line,
        say!("info.version", version => env!("CARGO_PKG_VERSION")),
    );
}

pub fn list(s: &mut Session<'_>, line: &Line, game: Option<&str>) -> Result<(), StoreError> {
    // LIST MINE: a Master's games, unless a game is called that.
    if let Some(word) = game.filter(|g| g.eq_ignore_ascii_case(super::overview::MINE)) {
        if lookup::game_by_name(s.tx, word)?.is_none() {
            return super::overview::list_mine(s, line);
        }
    }
    // After a sign-on, LIST is that game's (as njudge does).
    let signed = s.signed.as_ref().map(|g| g.game().name.clone());
    match game.map(str::to_string).or(signed) {
        Some(name) => list_game(s, line, &name),
        None => list_games(s, line),
    }
}

/// The game a command names, or without a name the signed-on game; None
/// (and a refusal) when there is neither.
fn named_or_signed(s: &mut Session<'_>, line: &Line, name: &str, usage: &str) -> Option<String> {
    if !name.is_empty() {
        return Some(name.to_string());
    }
    let signed = s.signed.as_ref().map(|g| g.game().name.clone());
    if signed.is_none() {
        s.reply.refuse(line, say!("info.write_it_as", usage));
    }
    signed
}

fn list_games(s: &mut Session<'_>, line: &Line) -> Result<(), StoreError> {
    let mut rows = Vec::new();
    for game in lookup::all_games(s.tx)? {
        if game.state.is_over() || !visible(s, &game)? {
            continue;
        }
        let seats = lookup::seats_of_game(s.tx, game.id)?;
        let mut addresses = 0;
        for seat in &seats {
            addresses += crate::game::teams::addresses(s.tx, seat)?.len();
        }
        let seats = seats.len();
        let phase = current(s.tx, game.id)?
            .map(|c| c.record.phase)
            .unwrap_or_else(|| "-".to_string());
        // A game of teams says how many addresses play (never which).
        let teams = if addresses > seats {
            format!(" {}", say!("info.team_count", count => addresses))
        } else {
            String::new()
        };
        rows.push(format!(
            "{:<16} {:<9} {:<9} {:<7} {} player{}{teams}",
            game.name,
            game.state.as_str(),
            game.variant,
            phase,
            seats,
            if seats == 1 { "" } else { "s" }
        ));
    }
    let text = if rows.is_empty() {
        say!("info.no_games")
    } else {
        format!(
            "{:<16} {:<9} {:<9} {:<7} players\n{}",
            "game",
            "state",
            "variant",
            "phase",
            rows.join("\n")
        )
    };
    s.reply.ok(line, text);
    Ok(())
}

fn list_game(s: &mut Session<'_>, line: &Line, name: &str) -> Result<(), StoreError> {
    let Some(game) = find_visible_game(s, line, name)? else {
        return Ok(());
    };
    let state = listing::state_words(game.state);
    let mut out = vec![say!("info.game_line", game => &game.name, state, variant => &game.variant)];
    let seats = lookup::seats_of_game(s.tx, game.id)?;
    let cur = current(s.tx, game.id)?;
    if game.state == GameState::Forming {
        let players = crate::game::variant_of(&game).players();
        out.push(say!("info.joined", seats => seats.len(), players));
    }
    let settings = settings_of(&game)?;
    out.extend(listing::settings_lines(&settings, s.now));
    out.extend(listing::pages_line(
        s.config.web.public_url(),
        &game.name,
        &settings,
    ));
    let observers = crate::game::observers::count(s.tx, game.id)?;
    out.push(say!("info.observers", following => observers.following,
                  waiting => observers.waiting));
    if let Some(cur) = &cur {
        out.push(say!("info.phase", phase => &cur.record.phase));
        match cur.record.deadline {
            _ if game.state == GameState::Paused => out.push(say!("info.paused_no_deadline")),
            Some(d) => out.push(say!("info.deadline", deadline => time_and_wait(d, s.now))),
            None => {}
        }
        let grace = cur.record.grace_beyond_deadline();
        if let (Some(g), false) = (grace, game.state == GameState::Paused) {
            out.push(say!("info.grace", grace => format_time(g)));
        }
        let master = matches!(&s.signed, Some(Signed::Master { game: g }) if g.id == game.id);
        let ordered = if master {
            Some(lookup::powers_ordered(s.tx, game.id, &cur.record.phase)?)
        } else {
            None
        };
        out.push(String::new());
        for power in Power::ALL {
            let mut lines = power_lines(&seats, &cur.position, power, ordered.as_deref());
            lines.push_str(&team_line(s, &seats, power)?);
            out.push(lines);
        }
    }
    out.extend(own_preorders(s, game.id)?);
    s.reply.ok(line, out.join("\n"));
    Ok(())
}

/// How many addresses play a power, when a team does (never the
/// addresses themselves): a line under the power's in LIST.
fn team_line(s: &Session<'_>, seats: &[Seat], power: Power) -> Result<String, StoreError> {
    let Some(seat) = seats.iter().find(|seat| power_of(seat) == Some(power)) else {
        return Ok(String::new());
    };
    let count = crate::game::teams::addresses(s.tx, seat)?.len();
    Ok(if count > 1 {
        format!("\n{:26}{}", "", say!("info.team_line", count))
    } else {
        String::new()
    })
}

/// The signed-on player's pre-orders in the game listed, with a blank
/// line before them; nothing for anyone else.
fn own_preorders(s: &Session<'_>, game_id: i64) -> Result<Vec<String>, StoreError> {
    let Some(Signed::Player { game, seat, .. }) = &s.signed else {
        return Ok(Vec::new());
    };
    if game.id != game_id {
        return Ok(Vec::new());
    }
    let powers = crate::game::bloc_powers(s.tx, seat)?;
    let listed = crate::game::preorders::listing(s.tx, game_id, &powers)?;
    Ok(listed.map(|t| vec![String::new(), t]).unwrap_or_default())
}

/// A power's seat, centres and units; for the Master, whether it has
/// ordered this phase.
fn power_lines(
    seats: &[Seat],
    position: &Position,
    power: Power,
    ordered: Option<&[String]>,
) -> String {
    let map = Map::standard();
    let status = seats
        .iter()
        .find(|seat| power_of(seat) == Some(power))
        .map(|seat| listing::seat_words(seat.status))
        .unwrap_or("vacant");
    let units: Vec<String> = position
        .units
        .iter()
        .filter(|u| u.power == power)
        .map(|u| format!("{} {}", u.kind.letter(), map.loc_abbr(u.location)))
        .collect();
    let centres: Vec<&str> = map
        .supply_centres()
        .filter(|&p| position.owner(p) == Some(power))
        .map(|p| map.abbr(p))
        .collect();
    let mut text = format!(
        "{:<8} {:<15} {:>2} centres: {}\n{:<8} {:<15} {:>2} units:   {}",
        power.name(),
        status,
        centres.len(),
        centres.join(" "),
        "",
        "",
        units.len(),
        units.join(", ")
    );
    if let Some(ordered) = ordered {
        let has = ordered.iter().any(|p| p == power.upper());
        let word = if has {
            "has ordered"
        } else {
            "has not ordered"
        };
        text.push_str(&format!("\n{:26}{word} this phase", ""));
    }
    text
}

pub fn history(
    s: &mut Session<'_>,
    line: &Line,
    name: &str,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<(), StoreError> {
    let Some(name) = named_or_signed(s, line, name, "HISTORY <game> [FROM <date>] [TO <date>]")
    else {
        return Ok(());
    };
    let Some(game) = find_visible_game(s, line, &name)? else {
        return Ok(());
    };
    let zone = super::when::writer_zone(s)?;
    use super::when::{read_date_at, DayTime, Toward};
    // FROM a day is from its start, TO a day to its end.
    let bound = |text: Option<&str>, default: i64, untimed| -> Result<i64, String> {
        match text {
            None => Ok(default),
            Some(t) => read_date_at(t, s.now, zone, Toward::Past, untimed)
                .ok_or_else(|| say!("info.not_a_date", text => t)),
        }
    };
    let bounds = (
        bound(from, i64::MIN, DayTime::Start),
        bound(to, i64::MAX, DayTime::End),
    );
    let (from, to) = match bounds {
        (Ok(f), Ok(t)) => (f, t),
        (Err(e), _) | (_, Err(e)) => {
            s.reply.refuse(line, e);
            return Ok(());
        }
    };
    let entries = lookup::history_between(s.tx, game.id, from, to)?;
    if entries.is_empty() {
        s.reply
            .ok(line, say!("info.archive_empty", game => &game.name));
        return Ok(());
    }
    let mut text = say!("info.archive", game => &game.name, mails => entries.len());
    for e in entries {
        text.push_str(&format!(
            "\n\n=== {} ({})\n\n{}",
            e.subject,
            format_time(e.created_at),
            e.body.trim_end()
        ));
    }
    s.reply.ok(line, text);
    Ok(())
}

pub fn summary(s: &mut Session<'_>, line: &Line, name: &str) -> Result<(), StoreError> {
    let Some(name) = named_or_signed(s, line, name, "SUMMARY <game>") else {
        return Ok(());
    };
    let Some(game) = find_visible_game(s, line, &name)? else {
        return Ok(());
    };
    let text = crate::game::summary::summary_text(s.tx, &game)?;
    s.reply.ok(line, text);
    Ok(())
}

/// GET MAP [game] [phase]: the map of a phase of the game (with its orders
/// and results once processed) or of its current position, attached to
/// the reply. Without a game and without a sign-on: the map help page.
pub fn get_map(
    s: &mut Session<'_>,
    line: &Line,
    game: Option<&str>,
    phase: Option<&str>,
) -> Result<(), StoreError> {
    let game = match (game, &s.signed) {
        (Some(name), _) => lookup::game_by_name(s.tx, name)?,
        (None, Some(signed)) => Some(signed.game().clone()),
        (None, None) => {
            get(s, line, "map");
            return Ok(());
        }
    };
    let game = match game {
        Some(game) if visible(s, &game)? => Some(game),
        _ => None,
    };
    let Some(game) = game else {
        s.reply.refuse(line, say!("info.no_such_game_map"));
        return Ok(());
    };
    let Some(found) = lookup::phase_named(s.tx, game.id, phase)? else {
        let what = match phase {
            Some(p) => say!("info.no_such_phase", game => &game.name, phase => p),
            None => say!("info.not_started", game => &game.name),
        };
        s.reply.refuse(line, what);
        return Ok(());
    };
    let (id, name, phase) = (game.id, game.name, found);
    s.reply.ok(
        line,
        say!("info.map_attached", game => &name, phase => &phase),
    );
    s.reply_pictures.push(crate::mail::PicturePart {
        reference: format!("phase {id} {phase} png"),
        content_type: "image/png",
        filename: format!("{name}-{phase}.png"),
        shows: format!("the map of {phase}"),
    });
    Ok(())
}
