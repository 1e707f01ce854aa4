//! Processing a phase: adjudicate the stored orders, store the outcome
//! and the next phase, and queue the results to everyone — all inside the
//! caller's transaction, so a phase is processed once or not at all.

use rusqlite::Connection;

use super::clock::format_time;
use super::draw_votes;
// The commands and the clock name it here too.
pub use super::order_entry::power_orders;
// The commands name it here too.
pub use super::join_names;
pub use super::settings::schedule_for;
use super::settings::GameSettings;
use super::standings::{players, standings, table, verdict};
use super::variant::Variant;
use super::{current, everyone, power_of, settings_of, variant_of, Current};
use crate::engine::adjudicate::{adjudicate_with, Adjudication};
use crate::engine::map::{Map, Power};
use crate::engine::order::Order;
use crate::engine::phase::{Phase, Season};
use crate::engine::position::Position;
use crate::interchange::PositionJson;
use crate::report::{render_results, render_subject, ResultsContext, Templates};
use crate::say;
use crate::store::{
    self, games::Game, games::GameState, history::HistoryKind, seats::Seat, seats::SeatStatus,
    StoreError,
};

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
    /// To each player who had pre-orders for the phase now begun (or for
    /// one skipped): what was entered, what not, and why. Sent after the
    /// results.
    pub notices: Vec<super::GameMail>,
}

/// Every power's current orders in the game's current phase.
pub fn all_orders(
    conn: &Connection,
    game: &Game,
    phase: &str,
    position: &Position,
) -> Result<Vec<Order>, StoreError> {
    let mut out = Vec::new();
    for power in Power::ALL {
        out.extend(power_orders(conn, game.id, phase, position, power)?);
    }
    Ok(out)
}

/// A phase adjudicated, not yet stored: what the steps of [`process`] share.
struct Adjudicated {
    cur: Current,
    variant: Variant,
    seats: Vec<Seat>,
    adjudication: Adjudication,
    /// The powers in civil disorder in the phase adjudicated.
    in_disorder: Vec<Power>,
    /// The powers that build nothing under the rules of the phase
    /// adjudicated (in civil disorder, or out of the game).
    inert: Vec<Power>,
    /// The two-player game's coin toss, when it falls now: the side Italy
    /// joins.
    toss: Option<usize>,
    /// Why the game ended, when it did.
    ended: Option<String>,
    /// A game stopped before anyone won (SET END): every player's centres
    /// and pieces.
    standings: Option<String>,
    /// The next phase's deadline and end of grace, when the game goes on.
    deadline: Option<i64>,
    grace: Option<i64>,
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
    let done = adjudicate_current(conn, game, now)?;
    let next = &done.adjudication.next;
    let mut processed = Processed {
        phase: done.cur.record.phase.clone(),
        next: done.ended.is_none().then(|| next.phase.to_string()),
        ended: done.ended.clone(),
        subject: render_subject(code, &game.name, done.cur.position.phase),
        body: results_body(templates, code, game, &done)?,
        recipients: everyone(conn, game)?,
        notices: Vec::new(),
    };
    if commit {
        store_outcome(conn, game, &done, &mut processed, now)?;
        // In the same transaction as the new phase: entered once or not
        // at all.
        let ended = done.ended.is_some();
        processed.notices = super::preorders::enter_preorders(conn, code, game, ended, now)?;
    }
    Ok(processed)
}

/// Adjudicates the game's current phase with its variant's rules, and
/// decides what follows: the coin toss, the end of the game, the next
/// deadline.
fn adjudicate_current(conn: &Connection, game: &Game, now: i64) -> Result<Adjudicated, StoreError> {
    let map = Map::standard();
    let settings = settings_of(game)?;
    let Some(cur) = current(conn, game.id)? else {
        return Err(StoreError::NotFound(format!("a phase of {}", game.name)));
    };
    let variant = variant_of(game);
    let seats = store::seats::seats_of_game(conn, game.id)?;
    // Countries in civil disorder hold, give no support and build nothing.
    let in_disorder: Vec<Power> = seats
        .iter()
        .filter(|s| s.status == SeatStatus::CivilDisorder)
        .filter_map(power_of)
        .collect();
    let rules = variant.rules_at(map, cur.position.phase, &in_disorder);
    let orders = all_orders(conn, game, &cur.record.phase, &cur.position)?;
    let adjudication = adjudicate_with(map, &cur.position, &orders, &rules);
    let inert = Power::ALL
        .into_iter()
        .filter(|&p| rules.is_inert(p))
        .collect();
    let next = &adjudication.next;
    // Two-player game: the coin toss before the first winter's adjustments.
    let italy_seated = seats.iter().any(|s| power_of(s) == Some(Power::Italy));
    let first_winter_reached =
        next.phase.year > variant.start_year || next.phase.season == Season::Winter;
    let toss = (variant.neutral_italy && !italy_seated && first_winter_reached)
        .then(|| variant.coin_toss(game.seed));
    let ending = end_of_game(
        game,
        &settings,
        (&cur.record.phase, now),
        &adjudication,
        &seats,
    );
    let (ended, standings) = ending.map_or((None, None), |(e, s)| (Some(e), s));
    let (deadline, grace) = if ended.is_some() {
        (None, None)
    } else {
        let schedule = schedule_for(&settings, next.phase.kind);
        let times = super::deadline::deadline_for(conn, game.id, schedule, now)?;
        let (d, g) = super::deadline::before_the_bell(&settings, times);
        (Some(d), Some(g))
    };
    Ok(Adjudicated {
        cur,
        variant,
        seats,
        adjudication,
        in_disorder,
        inert,
        toss,
        ended,
        standings,
        deadline,
        grace,
    })
}

/// The results mail's text: the template, after any note of the coin toss.
fn results_body(
    templates: &Templates,
    code: &str,
    game: &Game,
    done: &Adjudicated,
) -> Result<String, StoreError> {
    let body = render_results(
        templates,
        &ResultsContext {
            judge_code: code,
            game: &game.name,
            variant: &variant_title(done.variant.name),
            phase: done.cur.position.phase,
            adjudication: &done.adjudication,
            before: &done.cur.position,
            next_deadline: done.deadline.map(format_time),
            game_over: done.ended.clone(),
            in_disorder: &done.in_disorder,
            inert: &done.inert,
            pages: phase_page_url(templates, game, done.cur.position.phase)?,
        },
    )
    .map_err(|e| StoreError::Setup(format!("results template: {e}")))?;
    let Some(side) = done.toss else {
        return Ok(body);
    };
    let names: Vec<&str> = done.variant.blocs[side].iter().map(|p| p.name()).collect();
    Ok(say!("process.coin_tossed", side => join_names(&names)) + "\n\n" + &body)
}

/// The address of the phase's page in the web archive, if the archive has
/// a public address and the game is not private (then it has no pages).
fn phase_page_url(
    templates: &Templates,
    game: &Game,
    phase: Phase,
) -> Result<Option<String>, StoreError> {
    let Some(url) = templates.archive_url() else {
        return Ok(None);
    };
    if settings_of(game)?.private {
        return Ok(None);
    }
    Ok(Some(format!("{url}{}/{phase}.html", game.name)))
}

/// Stores a processing: the results, the next phase (or the end of the
/// game, whose summary `processed.body` gains), the archive, the seats.
fn store_outcome(
    conn: &Connection,
    game: &Game,
    done: &Adjudicated,
    processed: &mut Processed,
    now: i64,
) -> Result<(), StoreError> {
    let map = Map::standard();
    let phase_name = &done.cur.record.phase;
    let next = &done.adjudication.next;
    let next_name = next.phase.to_string();
    let results: std::collections::BTreeMap<String, String> = done
        .adjudication
        .orders
        .iter()
        .map(|(o, outcome)| (o.short(map), outcome.summary()))
        .collect();
    store::phases::mark_processed(conn, game.id, phase_name, &results, now)?;
    store::seats::clear_waits(conn, game.id)?;
    // Draw votes and concessions count for one phase (njudge).
    store::seats::clear_draw_votes(conn, game.id)?;
    store::seats::clear_concessions(conn, game.id)?;
    if let Some(side) = done.toss {
        // Italy goes to the first seat of the winning side's player.
        let first = done
            .seats
            .iter()
            .find(|s| power_of(s) == Some(done.variant.blocs[side][0]));
        if let Some(first) = first {
            super::add_bloc_seat(conn, first, Power::Italy, &next_name, now)?;
        }
    }
    match &done.ended {
        Some(result) => {
            finish_game(conn, game, (phase_name, next), result, now)?;
            // The final mail ends with the game's summary.
            let finished = store::games::game_by_id(conn, game.id)?.expect("the game");
            let summary = super::summary::summary_text(conn, &finished)?;
            let standings = match &done.standings {
                Some(table) => format!("\n\n{table}"),
                None => String::new(),
            };
            processed.body = format!("{}{standings}\n\n{summary}\n", processed.body.trim_end());
        }
        None => insert_next_phase(conn, game, next, (done.deadline, done.grace), now)?,
    }
    store::history::append_history(
        conn,
        game.id,
        Some(phase_name),
        HistoryKind::Results,
        &processed.subject,
        &processed.body,
        now,
    )?;
    update_seats(conn, game, next)
}

/// The phase after the one processed, with its deadline and end of grace.
fn insert_next_phase(
    conn: &Connection,
    game: &Game,
    next: &Position,
    (deadline, grace): (Option<i64>, Option<i64>),
    now: i64,
) -> Result<(), StoreError> {
    store::phases::insert_phase(
        conn,
        game.id,
        &next.phase.to_string(),
        &PositionJson::from_position(Map::standard(), next),
        deadline,
        grace,
        now,
    )?;
    Ok(())
}

/// The game is over: finished with its result; its last position stored
/// as a row without deadline, closed as processed (the final position, not
/// a phase played: see [`super::summary::final_row`]); the seats' history
/// closed at the last phase played.
fn finish_game(
    conn: &Connection,
    game: &Game,
    (played, last): (&str, &Position),
    result: &str,
    now: i64,
) -> Result<(), StoreError> {
    store::games::end_game(
        conn,
        game.id,
        GameState::Finished,
        &serde_json::json!({ "summary": result }).to_string(),
        now,
    )?;
    insert_next_phase(conn, game, last, (None, None), now)?;
    let last_phase = last.phase.to_string();
    store::phases::mark_processed(conn, game.id, &last_phase, &serde_json::json!({}), now)?;
    store::seats::close_seat_history(conn, game.id, played)
}

/// Seats after a processing: the late are back to active; the powers with
/// nothing left are out.
fn update_seats(conn: &Connection, game: &Game, next: &Position) -> Result<(), StoreError> {
    for seat in store::seats::seats_of_game(conn, game.id)? {
        let Some(power) = power_of(&seat) else {
            continue;
        };
        if next.unit_count(power) == 0
            && next.centre_count(power) == 0
            && seat.status != SeatStatus::Eliminated
        {
            store::seats::set_seat_status(conn, seat.id, SeatStatus::Eliminated)?;
        } else if seat.status == SeatStatus::Late {
            store::seats::set_seat_status(conn, seat.id, SeatStatus::Active)?;
        }
    }
    Ok(())
}

/// Victory, a concession, an agreed draw, or the end of a short game (at
/// its year or its bell, with the standings): why the game ends after
/// `phase`, processed at `now`.
fn end_of_game(
    game: &Game,
    settings: &GameSettings,
    (phase, now): (&str, i64),
    adjudication: &Adjudication,
    seats: &[Seat],
) -> Option<(String, Option<String>)> {
    let won = won_or_drawn(game, settings, phase, adjudication, seats);
    if won.is_some() {
        return won.map(|why| (why, None));
    }
    let next = &adjudication.next;
    let at_bell = settings.end_at.filter(|&bell| now >= bell);
    let after_year = settings
        .end_year
        .filter(|&end| next.phase.season == Season::Spring && next.phase.year > end);
    if at_bell.is_none() && after_year.is_none() {
        return None;
    }
    let rows = standings(next, &players(seats), settings.win_by);
    let verdict = verdict(&rows, settings.win_by, false);
    let why = match (at_bell, after_year) {
        (Some(bell), _) => say!("process.bell_over", at => format_time(bell), verdict),
        (None, end) => say!("process.short_game_over", end, verdict),
    };
    Some((why, Some(table(&rows, settings.win_by))))
}

/// Victory, a concession or an agreed draw.
fn won_or_drawn(
    game: &Game,
    settings: &GameSettings,
    phase: &str,
    adjudication: &Adjudication,
    seats: &[Seat],
) -> Option<String> {
    let next = &adjudication.next;
    let variant = variant_of(game);
    let blocs = players(seats);
    if let Some(w) = variant.winner(next, &blocs) {
        return Some(victory(&variant, next, &blocs[w]));
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
            return Some(say!("process.conceded", winner => bloc_names(winner)));
        }
    }
    let vote_of = |p: Power| {
        let text = seat_of(p)?.draw_vote.as_deref()?;
        draw_votes::decode(text, phase)
    };
    if let Some(drawn) = draw_votes::agreed(&alive, vote_of, !settings.nodias) {
        // A draw of one player is the others' concession (njudge).
        if let Some(winner) = alive
            .iter()
            .find(|b| b.iter().all(|p| drawn.contains(p)))
            .filter(|b| b.len() == drawn.len())
        {
            return Some(say!("process.conceded", winner => bloc_names(winner)));
        }
        let everyone = alive.iter().all(|b| b.iter().all(|p| drawn.contains(p)));
        let names: Vec<String> = if everyone {
            alive.iter().map(|b| bloc_names(b)).collect()
        } else {
            drawn.iter().map(|p| p.name().to_string()).collect()
        };
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        return Some(say!("process.draw_declared", powers => join_names(&names)));
    }
    None
}

/// "France", "England and France".
fn bloc_names(bloc: &[Power]) -> String {
    let names: Vec<&str> = bloc.iter().map(|p| p.name()).collect();
    join_names(&names)
}

/// The victory of `bloc` (words `process.victory`).
fn victory(variant: &Variant, next: &Position, bloc: &[Power]) -> String {
    let units = variant.victory_units.is_some();
    let count: usize = bloc
        .iter()
        .map(|&p| {
            if units {
                next.unit_count(p)
            } else {
                next.centre_count(p)
            }
        })
        .sum();
    say!("process.victory", winners => bloc_names(bloc), one => bloc.len() == 1, count, units)
}

/// "Standard", "Four", "Three-a".
fn variant_title(name: &str) -> String {
    let mut c = name.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
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
