//! What the pages show, read from the store: only what every player may
//! see once a phase is processed. The current phase's orders are never
//! read; press is what went to the whole game (the archive's broadcasts,
//! grey ones already without their sender); addresses are never read into
//! a view (the judge shows no one's address).

use crate::game::Db as Connection;

use crate::engine::map::{Map, Power};
use crate::engine::phase::{Phase, PhaseKind};
use crate::engine::position::Position;
use crate::game::pictures::{picture_of_phase, PhasePicture};
use crate::game::schedule::schedule_words;
use crate::game::summary::final_row;
use crate::game::{position_of, settings_of, GameSettings};
use crate::store::{
    self, games::Game, games::GameState, history::HistoryKind, phases::PhaseRecord, StoreError,
};

/// A game as the list of games shows it.
pub struct GameCard {
    pub name: String,
    pub variant: String,
    pub state: GameState,
    /// The phase now being played (or the last one played).
    pub current: Option<Phase>,
    /// The last thing that happened: a phase started or processed, a
    /// mail to the whole game, the start, the end.
    pub activity: i64,
    /// How the game ended, in words.
    pub result: Option<String>,
    /// The powers that are played, with their centres now.
    pub centres: Vec<(Power, usize)>,
    /// The latest phase's deadline as stored (shown while the game is
    /// played; kept whatever the state, so that the published row can be
    /// compared with the store's).
    pub deadline: Option<i64>,
    /// The board now (`board.svg`): its position and what tells one
    /// version of it from another (the phase and when it started, so a
    /// reader's browser never keeps an older board); none before the start.
    pub board: Option<Board>,
}

/// The position the next orders are written for (or where a finished game
/// ended): units, owners, nothing ordered.
pub struct Board {
    pub position: Position,
    /// `S1902M-1800003600`: the phase and when it started.
    pub version: String,
}

/// A game as its own page shows it.
pub struct GameView {
    pub card: GameCard,
    pub settings: SettingsView,
    /// Per power that has been played: when each of its players held it.
    pub powers: Vec<PowerView>,
    /// The processed phases, in order.
    pub phases: Vec<PhaseLine>,
    /// The centres of each power (in `Power::ALL` order) at the start and
    /// after each year, labelled "start", "1901", ..., "end".
    pub years: Vec<(String, [usize; 7])>,
    pub press: Vec<PressItem>,
}

/// The settings a reader may want to know. Not the takeover approvals:
/// they name addresses.
#[derive(serde::Serialize)]
pub struct SettingsView {
    pub white: bool,
    pub grey: bool,
    pub partial: bool,
    pub nmr: bool,
    pub nodias: bool,
    /// The deadlines as LIST says them: days and times in the game's
    /// zone, UTC beside.
    pub movement: String,
    pub retreat: String,
    pub adjustment: String,
    pub end_year: Option<u16>,
}

pub struct PowerView {
    pub power: Power,
    /// (from phase, to phase or None: still playing), one per player.
    pub tenures: Vec<(String, Option<String>)>,
}

/// A processed phase in the game's list.
#[derive(Clone)]
pub struct PhaseLine {
    pub phase: Phase,
    pub processed_at: i64,
}

/// A message that went to the whole game.
pub struct PressItem {
    pub id: i64,
    pub phase: Option<String>,
    pub subject: String,
    pub body: String,
    pub sent_at: i64,
}

/// One processed phase as its page shows it.
pub struct PhaseView {
    pub game: String,
    pub processed_at: i64,
    /// What its map shows: the position the orders were given in
    /// (`position`, its phase the page's), the orders with their results
    /// (as the results mail lists them), after a movement phase the units
    /// that must retreat (`retreats`), and where to.
    pub picture: PhasePicture,
    /// The position the phase led to (ownership, units, adjustments due).
    pub after: Option<Position>,
    /// The results mail as the whole game got it: the classic text, with
    /// what the page does not say (civil disorder, builds waived).
    pub results_mail: Option<String>,
}

/// The game's phases: every stored row but a finished game's final
/// position (no phase played).
pub fn played_rows(game: &Game, records: &[PhaseRecord]) -> usize {
    final_row(game, records).unwrap_or(records.len())
}

fn card_of(
    conn: &Connection,
    game: &Game,
    records: &[PhaseRecord],
) -> Result<GameCard, StoreError> {
    let played = played_rows(game, records);
    let mut activity = game.created_at.max(game.ended_at.unwrap_or(0));
    for record in records {
        activity = activity
            .max(record.started_at)
            .max(record.processed_at.unwrap_or(0));
    }
    activity = activity.max(store::history::last_history_at(conn, game.id)?.unwrap_or(0));
    let now = records.last().map(position_of).transpose()?;
    let mut centres = Vec::new();
    for seat in store::seats::seats_of_game(conn, game.id)? {
        if let Some(power) = crate::game::power_of(&seat) {
            centres.push((power, now.as_ref().map_or(0, |p| p.centre_count(power))));
        }
    }
    centres.sort_by_key(|(p, _)| *p);
    Ok(GameCard {
        name: game.name.clone(),
        variant: game.variant.clone(),
        state: game.state,
        current: records[..played].last().map(phase_of).transpose()?,
        activity,
        result: result_of(game),
        centres,
        deadline: records.last().and_then(|r| r.deadline),
        board: match (records.last(), now) {
            (Some(record), Some(position)) => Some(Board {
                position,
                version: format!("{}-{}", record.phase, record.started_at),
            }),
            _ => None,
        },
    })
}

pub fn game_view(conn: &Connection, game: &Game) -> Result<GameView, StoreError> {
    let records = store::phases::phases_of_game(conn, game.id)?;
    let played = played_rows(game, &records);
    let phases = records[..played]
        .iter()
        .filter_map(|r| r.processed_at.map(|at| (r, at)))
        .map(|(r, at)| {
            Ok(PhaseLine {
                phase: phase_of(r)?,
                processed_at: at,
            })
        })
        .collect::<Result<_, StoreError>>()?;
    Ok(GameView {
        card: card_of(conn, game, &records)?,
        // Schedules in words as of the latest phase's start (the page is
        // written again with each phase): not the clock, so a rebuild
        // writes the same page.
        settings: settings_view(
            &settings_of(game)?,
            records.last().map_or(game.created_at, |r| r.started_at),
        ),
        powers: tenures(conn, game)?,
        phases,
        years: years(&records, played)?,
        press: public_press(conn, game.id)?,
    })
}

fn phase_of(record: &PhaseRecord) -> Result<Phase, StoreError> {
    record
        .phase
        .parse()
        .map_err(|e| StoreError::Setup(format!("stored phase {:?}: {e}", record.phase)))
}

/// The result stored when the game ended: `{"summary": "..."}`.
fn result_of(game: &Game) -> Option<String> {
    let text = game.result.as_deref()?;
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    value["summary"].as_str().map(str::to_string)
}

fn settings_view(s: &GameSettings, as_of: i64) -> SettingsView {
    let schedule = |s: &crate::game::settings::Schedule| schedule_words(s, as_of);
    SettingsView {
        white: s.white,
        grey: s.grey,
        partial: s.partial,
        nmr: s.nmr,
        nodias: s.nodias,
        movement: schedule(&s.movement),
        retreat: schedule(&s.retreat),
        adjustment: schedule(&s.adjustment),
        end_year: s.end_year,
    }
}

/// The powers that have had a player, and when each player held it.
fn tenures(conn: &Connection, game: &Game) -> Result<Vec<PowerView>, StoreError> {
    let history = store::seats::seat_history(conn, game.id)?;
    Ok(Power::ALL
        .into_iter()
        .filter_map(|power| {
            let tenures: Vec<(String, Option<String>)> = history
                .iter()
                .filter(|t| t.power == power.upper())
                .map(|t| (t.from_phase.clone(), t.to_phase.clone()))
                .collect();
            (!tenures.is_empty()).then_some(PowerView { power, tenures })
        })
        .collect())
}

/// The centre counts at the start, after each year, and at the end.
fn years(records: &[PhaseRecord], played: usize) -> Result<Vec<(String, [usize; 7])>, StoreError> {
    let counts = |p: &Position| Power::ALL.map(|power| p.centre_count(power));
    let mut rows = Vec::new();
    let mut year: Option<u16> = None;
    for (i, record) in records.iter().enumerate() {
        let position = position_of(record)?;
        let label = match year {
            _ if i == played => "end".to_string(),
            None => "start".to_string(),
            Some(y) if y < position.phase.year => y.to_string(),
            Some(_) => continue,
        };
        year = Some(position.phase.year);
        rows.push((label, counts(&position)));
    }
    Ok(rows)
}

/// What went to the whole game as press: the archive's broadcasts.
pub fn public_press(conn: &Connection, game_id: i64) -> Result<Vec<PressItem>, StoreError> {
    Ok(store::history::history_of_game(conn, game_id)?
        .into_iter()
        .filter(|e| e.kind == HistoryKind::Broadcast)
        .map(|e| PressItem {
            id: e.id,
            phase: e.phase,
            subject: e.subject,
            body: e.body,
            sent_at: e.created_at,
        })
        .collect())
}

/// The page of the processed phase `record` (index `i` of `records`).
/// None when it is not processed: its orders are secret until then.
pub fn phase_view(
    conn: &Connection,
    judge_code: &str,
    game: &Game,
    records: &[PhaseRecord],
    i: usize,
) -> Result<Option<PhaseView>, StoreError> {
    let record = &records[i];
    let Some((processed_at, picture)) = phase_picture(conn, judge_code, game, record)? else {
        return Ok(None);
    };
    let after = records.get(i + 1).map(position_of).transpose()?;
    let results_mail = store::history::results_mail_of_phase(conn, game.id, &record.phase)?;
    Ok(Some(PhaseView {
        results_mail: results_mail.map(|m| m.body),
        game: game.name.clone(),
        processed_at,
        picture,
        after,
    }))
}

/// The map of the processed phase `record`, with when it was processed;
/// its orders as the results mail lists them: by power, then by the
/// unit's province; adjustments in the order given. None when it is not
/// processed: its orders are secret until then.
pub fn phase_picture(
    conn: &Connection,
    judge_code: &str,
    game: &Game,
    record: &PhaseRecord,
) -> Result<Option<(i64, PhasePicture)>, StoreError> {
    let Some(processed_at) = record.processed_at else {
        return Ok(None);
    };
    let mut picture = picture_of_phase(conn, judge_code, game, Some(&record.phase))?;
    let map = Map::standard();
    if picture.position.phase.kind != PhaseKind::Adjustment {
        picture
            .orders
            .sort_by_key(|(o, _)| (o.power, map.name(map.province_of(o.location))));
    } else {
        picture.orders.sort_by_key(|(o, _)| o.power);
    }
    Ok(Some((processed_at, picture)))
}
