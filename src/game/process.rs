//! Processing a phase: adjudicate the stored orders, store the outcome
//! and the next phase, and queue the results to everyone — all inside the
//! caller's transaction, so a phase is processed once or not at all.

use rusqlite::Connection;

use super::clock::format_time;
use super::orders::read_stored;
// The commands name it here too.
pub use super::settings::schedule_for;
use super::settings::GameSettings;
use super::{current, everyone, power_of, settings_of, variant_of};
use crate::engine::adjudicate::{adjudicate_with, Adjudication};
use crate::engine::map::{Map, Power};
use crate::engine::order::Order;
use crate::engine::phase::Season;
use crate::engine::position::Position;
use crate::interchange::PositionJson;
use crate::report::{render_results, render_subject, ResultsContext, Templates};
use crate::store::{self, ArchiveKind, Game, GameState, SeatStatus, StoreError};

/// What a processing did, for the caller's reply and the mails to send.
pub struct Processed {
    pub phase: String,
    /// The next phase, when the game goes on.
    pub next: Option<String>,
    /// Why the game ended, when it did.
    pub ended: Option<String>,
    pub subject: String,
    pub body: String,
    /// Who the results go to.
    pub recipients: Vec<String>,
}

/// Every power's current orders in the game's current phase.
pub fn all_orders(
    conn: &Connection,
    game: &Game,
    phase: &str,
    position: &Position,
) -> Result<Vec<Order>, StoreError> {
    let map = Map::standard();
    let mut out = Vec::new();
    for power in Power::ALL {
        let texts: Vec<String> = store::orders_of_power(conn, game.id, phase, power.upper())?
            .into_iter()
            .map(|r| r.understood)
            .collect();
        out.extend(read_stored(map, position, power, &texts));
    }
    Ok(out)
}

/// Adjudicates the current phase. With `commit` false it is a dry run
/// (PREDICT): nothing is stored, and the text is returned.
pub fn process(
    conn: &Connection,
    templates: &Templates,
    code: &str,
    game: &Game,
    now: i64,
    commit: bool,
) -> Result<Processed, StoreError> {
    let map = Map::standard();
    let settings = settings_of(game)?;
    let Some(cur) = current(conn, game.id)? else {
        return Err(StoreError::NotFound(format!("a phase of {}", game.name)));
    };
    let phase_name = cur.record.phase.clone();
    let variant = variant_of(game);
    let seats = store::seats_of_game(conn, game.id)?;
    // Countries in civil disorder hold, give no support and build nothing.
    let in_disorder: Vec<Power> = seats
        .iter()
        .filter(|s| s.status == SeatStatus::CivilDisorder)
        .filter_map(power_of)
        .collect();
    let rules = variant.rules_at(map, cur.position.phase, &in_disorder);
    let orders = all_orders(conn, game, &phase_name, &cur.position)?;
    let adjudication = adjudicate_with(map, &cur.position, &orders, &rules);
    let next = &adjudication.next;
    // Two-player game: the coin toss before the first winter's adjustments.
    let italy_seated = seats.iter().any(|s| power_of(s) == Some(Power::Italy));
    let first_winter_reached =
        next.phase.year > variant.start_year || next.phase.season == Season::Winter;
    let toss = (variant.neutral_italy && !italy_seated && first_winter_reached)
        .then(|| variant.coin_toss(game.seed));
    let mut notes = Vec::new();
    if let Some(side) = toss {
        let names: Vec<&str> = variant.blocs[side].iter().map(|p| p.name()).collect();
        notes.push(format!(
            "The coin is tossed: Italy joins {} and is played by that side from now on.",
            join_names(&names)
        ));
    }

    let ended = end_of_game(game, &settings, &phase_name, &adjudication, &seats)?;
    let (deadline, grace) = if ended.is_some() {
        (None, None)
    } else {
        let schedule = schedule_for(&settings, next.phase.kind);
        let (d, g) = super::deadline::deadline_for(conn, game.id, schedule, now)?;
        (Some(d), Some(g))
    };
    let body = render_results(
        templates,
        &ResultsContext {
            judge_code: code,
            game: &game.name,
            variant: &variant_title(variant.name),
            phase: cur.position.phase,
            adjudication: &adjudication,
            before: &cur.position,
            next_deadline: deadline.map(format_time),
            game_over: ended.clone(),
        },
    )
    .map_err(|e| StoreError::Setup(format!("results template: {e}")))?;
    let body = if notes.is_empty() {
        body
    } else {
        format!("{}\n\n{body}", notes.join("\n"))
    };
    let subject = render_subject(code, &game.name, cur.position.phase);
    let recipients = everyone(conn, game)?;
    let mut processed = Processed {
        phase: phase_name.clone(),
        next: ended.is_none().then(|| next.phase.to_string()),
        ended: ended.clone(),
        subject,
        body,
        recipients,
    };
    if !commit {
        return Ok(processed);
    }

    let results: std::collections::BTreeMap<String, String> = adjudication
        .orders
        .iter()
        .map(|(o, outcome)| (o.short(map), outcome.summary()))
        .collect();
    store::mark_processed(conn, game.id, &phase_name, &results, now)?;
    store::clear_waits(conn, game.id)?;
    store::clear_draw_votes(conn, game.id)?;
    store::clear_concessions(conn, game.id)?;
    if let Some(side) = toss {
        // Italy goes to the first seat of the winning side's player.
        let first = seats
            .iter()
            .find(|s| power_of(s) == Some(variant.blocs[side][0]))
            .cloned();
        if let Some(first) = first {
            super::add_bloc_seat(conn, &first, Power::Italy, &next.phase.to_string(), now)?;
        }
    }
    match &ended {
        Some(result) => {
            let state = GameState::Finished;
            store::end_game(
                conn,
                game.id,
                state,
                &serde_json::json!({ "summary": result }).to_string(),
                now,
            )?;
            store::insert_phase(
                conn,
                game.id,
                &next.phase.to_string(),
                &PositionJson::from_position(map, next),
                None,
                None,
                now,
            )?;
            store::mark_processed(
                conn,
                game.id,
                &next.phase.to_string(),
                &serde_json::json!({}),
                now,
            )?;
            store::close_seat_history(conn, game.id, &next.phase.to_string())?;
            // The final mail ends with the game's summary.
            let finished = store::game_by_id(conn, game.id)?.expect("the game");
            let summary = super::summary::summary_text(conn, &finished)?;
            processed.body = format!("{}\n\n{summary}\n", processed.body.trim_end());
        }
        None => {
            store::insert_phase(
                conn,
                game.id,
                &next.phase.to_string(),
                &PositionJson::from_position(map, next),
                deadline,
                grace,
                now,
            )?;
        }
    }
    store::append_archive(
        conn,
        game.id,
        Some(&phase_name),
        ArchiveKind::Results,
        &processed.subject,
        &processed.body,
        now,
    )?;
    // Seats: the late are back to active; the powers with nothing left are out.
    for seat in store::seats_of_game(conn, game.id)? {
        let Some(power) = power_of(&seat) else {
            continue;
        };
        if next.unit_count(power) == 0
            && next.centre_count(power) == 0
            && seat.status != SeatStatus::Eliminated
        {
            store::set_seat_status(conn, seat.id, SeatStatus::Eliminated)?;
        } else if seat.status == SeatStatus::Late {
            store::set_seat_status(conn, seat.id, SeatStatus::Active)?;
        }
    }
    Ok(processed)
}

/// Victory, a concession, an agreed draw, or the end of a short game.
fn end_of_game(
    game: &Game,
    settings: &GameSettings,
    phase: &str,
    adjudication: &Adjudication,
    seats: &[crate::store::Seat],
) -> Result<Option<String>, StoreError> {
    let next = &adjudication.next;
    let variant = variant_of(game);
    // The players, as the countries each holds.
    let mut blocs: Vec<Vec<Power>> = Vec::new();
    let mut keys: Vec<i64> = Vec::new();
    for seat in seats.iter().filter(|s| s.power.is_some()) {
        let key = seat.bloc.unwrap_or(seat.id);
        let power = power_of(seat).expect("an assigned seat");
        match keys.iter().position(|&k| k == key) {
            Some(i) => blocs[i].push(power),
            None => {
                keys.push(key);
                blocs.push(vec![power]);
            }
        }
    }
    let names_of = |bloc: &[Power]| -> String {
        let names: Vec<&str> = bloc.iter().map(|p| p.name()).collect();
        join_names(&names)
    };
    if let Some(w) = variant.winner(next, &blocs) {
        let bloc = &blocs[w];
        let what = match variant.victory_units {
            Some(_) => format!(
                "{} units on the board",
                bloc.iter().map(|&p| next.unit_count(p)).sum::<usize>()
            ),
            None => format!(
                "{} supply centres",
                bloc.iter().map(|&p| next.centre_count(p)).sum::<usize>()
            ),
        };
        return Ok(Some(format!(
            "{} {} won the game with {what}.",
            names_of(bloc),
            if bloc.len() == 1 { "has" } else { "have" }
        )));
    }
    let survivors = next.survivors();
    let alive: Vec<&Vec<Power>> = blocs
        .iter()
        .filter(|b| b.iter().any(|p| survivors.contains(p)))
        .collect();
    let seat_of = |p: Power| seats.iter().find(|s| power_of(s) == Some(p));
    // A concession: every other surviving player concedes to one country.
    for winner in &alive {
        let conceded = alive.len() > 1
            && alive.iter().filter(|b| **b != *winner).all(|b| {
                b.iter().any(|&p| {
                    seat_of(p)
                        .and_then(|s| s.concede_to.as_deref())
                        .is_some_and(|to| winner.iter().any(|w| w.upper() == to))
                })
            });
        if conceded {
            return Ok(Some(format!(
                "The other players have conceded the game to {}.",
                names_of(winner)
            )));
        }
    }
    let voted = |p: Power| seat_of(p).is_some_and(|s| s.draw_vote.as_deref() == Some(phase));
    if !alive.is_empty() && alive.iter().all(|b| b.iter().any(|&p| voted(p))) {
        let names: Vec<String> = alive.iter().map(|b| names_of(b)).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        return Ok(Some(format!(
            "The game was declared a draw between {}.",
            join_names(&names)
        )));
    }
    if let Some(end) = settings.end_year {
        if next.phase.season == Season::Spring && next.phase.year > end {
            let best = survivors
                .iter()
                .map(|&p| next.centre_count(p))
                .max()
                .unwrap_or(0);
            let leaders: Vec<&str> = survivors
                .iter()
                .filter(|&&p| next.centre_count(p) == best)
                .map(|p| p.name())
                .collect();
            let verdict = if leaders.len() == 1 {
                format!("{} leads with {best} supply centres", leaders[0])
            } else {
                format!(
                    "{} tie with {best} supply centres each",
                    join_names(&leaders)
                )
            };
            return Ok(Some(format!(
                "The short game ended after {end}: {verdict}."
            )));
        }
    }
    Ok(None)
}

/// "Standard", "Four", "Three-a".
fn variant_title(name: &str) -> String {
    let mut c = name.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// "A", "A and B", "A, B and C".
pub fn join_names(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The board as a list: "France:   Army Marseilles, Army Paris, Fleet Brest."
pub fn describe_position(map: &Map, position: &Position) -> String {
    let mut lines = vec!["The position:".to_string()];
    for power in Power::ALL {
        let units: Vec<String> = position
            .units
            .iter()
            .filter(|u| u.power == power)
            .map(|u| format!("{} {}", u.kind.name(), map.loc_name(u.location)))
            .collect();
        if !units.is_empty() {
            lines.push(format!(
                "{:<9} {}.",
                format!("{}:", power.name()),
                units.join(", ")
            ));
        }
    }
    lines.join("\n")
}
