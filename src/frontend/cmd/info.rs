//! Commands for anyone: HELP, GET, VERSION, LIST, HISTORY, SUMMARY.

use super::{find_visible_game, listing, visible};
use crate::engine::map::{Map, Power};
use crate::engine::position::Position;
use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::clock::format_time;
use crate::game::{current, power_of, settings_of};
use crate::store::{self, games::GameState, StoreError};

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
/// name there, the file here, and what the file here covers.
const NJUDGE_FILES: [(&str, &str, &str); 5] = [
    ("index", "help", "every command"),
    ("guide", "info", "what this judge is and how to begin"),
    (
        "absence",
        "deadlines",
        "absences (SET ABSENCE), with deadlines",
    ),
    ("draws", "rules", "draws and concessions, with the rules"),
    ("house.rules", "rules", "the rules this judge plays by"),
];

/// njudge's files this judge has no file for: what it offers instead.
fn njudge_file_answer(name: &str) -> Option<String> {
    let names: Vec<&str> = crate::report::words::current().help_names();
    let text = match name {
        "flist" => format!(
            "The files of this judge, each with GET <file>: {}. njudge's index, guide, \
             absence, draws and house.rules are read as help, info, deadlines, rules and \
             rules.",
            names.join(", ")
        ),
        "form" => "No registration is needed on this judge, so there is no form: join a \
                   forming game with SIGNON ?<game> <password> (LIST shows the games)."
            .to_string(),
        "history" => "HISTORY <game> [FROM <date>] [TO <date>] mails a game's archive: \
                      dates like 2026-11-24, Nov 24, Nov 24, 2026 or Thu, the last gone; \
                      FROM a day is from its start, TO a day to its end (GET deadlines)."
            .to_string(),
        "package" => "njudge's package file is not kept on this judge: HELP lists every \
                      command, GET info says what this judge is, VERSION which version it \
                      runs."
            .to_string(),
        _ => return None,
    };
    Some(text)
}

pub fn get(s: &mut Session<'_>, line: &Line, name: &str) {
    if let Some(&(_, file, covers)) = NJUDGE_FILES.iter().find(|(n, _, _)| *n == name) {
        let text = help_file(s, file).unwrap_or_default();
        let said = format!(
            "njudge's '{name}' is GET {file} on this judge ({covers}):\n\n{}",
            text.trim_end()
        );
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
                s.reply.refuse(
                    line,
                    format!(
                        "There is no file '{name}'. The files are: {}.",
                        names.join(", ")
                    ),
                );
            }
        },
    }
}

pub fn version(s: &mut Session<'_>, line: &Line) {
    s.reply.ok(
        line,
        format!(
            "judge {} — the 1982 rules, adjudicated to the DATC.",
            env!("CARGO_PKG_VERSION")
        ),
    );
}

pub fn list(s: &mut Session<'_>, line: &Line, game: Option<&str>) -> Result<(), StoreError> {
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
        s.reply.refuse(
            line,
            format!("Write it as: {usage} (or sign on to the game first)."),
        );
    }
    signed
}

fn list_games(s: &mut Session<'_>, line: &Line) -> Result<(), StoreError> {
    let mut rows = Vec::new();
    for game in store::games::list_games(s.tx)? {
        if game.state.is_over() || !visible(s, &game)? {
            continue;
        }
        let seats = store::seats::seats_of_game(s.tx, game.id)?.len();
        let phase = current(s.tx, game.id)?
            .map(|c| c.record.phase)
            .unwrap_or_else(|| "-".to_string());
        rows.push(format!(
            "{:<16} {:<9} {:<9} {:<7} {} player{}",
            game.name,
            game.state.as_str(),
            game.variant,
            phase,
            seats,
            if seats == 1 { "" } else { "s" }
        ));
    }
    let text = if rows.is_empty() {
        "No games are forming or running. Start one with CREATE ?<game> <password>.".to_string()
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
    let mut out = vec![format!(
        "Game '{}': {}, variant {}.",
        game.name,
        listing::state_words(game.state),
        game.variant
    )];
    let seats = store::seats::seats_of_game(s.tx, game.id)?;
    let cur = current(s.tx, game.id)?;
    if game.state == GameState::Forming {
        out.push(format!(
            "{} of {} players have joined.",
            seats.len(),
            crate::game::variant_of(&game).players()
        ));
    }
    let settings = settings_of(&game)?;
    out.extend(listing::settings_lines(&settings, s.now));
    out.extend(listing::pages_line(
        s.config.web.public_url(),
        &game.name,
        &settings,
    ));
    if let Some(cur) = &cur {
        out.push(format!("Phase {}.", cur.record.phase));
        match cur.record.deadline {
            _ if game.state == GameState::Paused => {
                out.push("No deadline while the game is paused.".to_string())
            }
            Some(d) => out.push(format!("Deadline: {}.", format_time(d))),
            None => {}
        }
        if let (Some(g), false) = (cur.record.grace_until, game.state == GameState::Paused) {
            out.push(format!("Grace ends: {}.", format_time(g)));
        }
        let master = matches!(&s.signed, Some(Signed::Master { game: g }) if g.id == game.id);
        let ordered = if master {
            Some(ordered_powers(s, game.id, &cur.record.phase)?)
        } else {
            None
        };
        out.push(String::new());
        for power in Power::ALL {
            out.push(power_lines(
                &seats,
                &cur.position,
                power,
                ordered.as_deref(),
            ));
        }
    }
    out.extend(own_preorders(s, game.id)?);
    s.reply.ok(line, out.join("\n"));
    Ok(())
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

/// The powers with orders stored for the phase (shown to the Master).
fn ordered_powers(s: &Session<'_>, game_id: i64, phase: &str) -> Result<Vec<String>, StoreError> {
    let mut powers: Vec<String> = store::orders::orders_of_phase(s.tx, game_id, phase)?
        .into_iter()
        .map(|o| o.power)
        .collect();
    powers.dedup();
    Ok(powers)
}

/// A power's seat, centres and units; for the Master, whether it has
/// ordered this phase.
fn power_lines(
    seats: &[store::seats::Seat],
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
            Some(t) => read_date_at(t, s.now, zone, Toward::Past, untimed).ok_or_else(|| {
                format!(
                    "'{t}' is not a date: write it like 2026-11-24, 2026-11-24 20:00, \
                     Nov 24, Nov 24, 2026 or Thu"
                )
            }),
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
    let entries = store::history::history_between(s.tx, game.id, from, to)?;
    if entries.is_empty() {
        s.reply.ok(
            line,
            format!("Nothing in the archive of '{}' for those dates.", game.name),
        );
        return Ok(());
    }
    let mut text = match entries.len() {
        1 => format!("The archive of '{}': 1 mail.", game.name),
        n => format!("The archive of '{}': {n} mails.", game.name),
    };
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
        (Some(name), _) => store::games::game_by_name(s.tx, name)?,
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
        s.reply
            .refuse(line, "There is no such game. Write GET MAP <game> [phase].");
        return Ok(());
    };
    let record = match phase {
        Some(p) => store::phases::phase_by_name(s.tx, game.id, &p.to_ascii_uppercase())?,
        None => store::phases::current_phase(s.tx, game.id)?,
    };
    let Some(record) = record else {
        let what = match phase {
            Some(p) => format!("'{}' has no phase {p}.", game.name),
            None => format!("'{}' has not started.", game.name),
        };
        s.reply.refuse(line, what);
        return Ok(());
    };
    let (id, name, phase) = (game.id, game.name, record.phase);
    s.reply
        .ok(line, format!("The map of {name}, {phase}, is attached."));
    s.reply_pictures.push(crate::mail::PicturePart {
        reference: format!("phase {id} {phase} png"),
        content_type: "image/png",
        filename: format!("{name}-{phase}.png"),
        shows: format!("the map of {phase}"),
    });
    Ok(())
}
