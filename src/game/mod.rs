//! Games as the judge runs them, between the mail front end and the
//! store: settings, deadlines, order sets, starting and processing.

pub mod absence;
pub mod clear_orders;
pub mod clock;
pub mod confirm;
pub mod control;
pub mod create;
pub mod deadline;
pub mod deadline_change;
pub mod draw_ballot;
pub mod draw_votes;
pub mod eject;
pub mod export;
pub mod intake;
pub mod join;
pub mod length;
pub mod lookup;
pub mod observers;
pub mod order_entry;
pub mod orders;
pub mod orders_ahead;
pub mod overview;
pub mod pictures;
pub mod player_settings;
pub mod preorders;
pub mod press;
pub mod process;
pub mod rollback;
pub mod schedule;
pub mod settings;
pub mod sign_on;
pub mod standings;
pub mod start;
pub mod summary;
pub mod takeover;
pub mod teams;
pub mod tick;
pub mod variant;
pub mod zones;

use rusqlite::Connection;

use crate::engine::map::{Map, Power};
use crate::engine::position::Position;
use crate::interchange::PositionJson;
use crate::store::{self, phases::PhaseRecord};

/// The store's records and error as the layers above see them: they call
/// the game, never the store (`tests/layers.rs`).
pub use crate::store::games::{Game, GameState};
pub use crate::store::seats::{Seat, SeatStatus};
pub use crate::store::StoreError;
/// A connection to the store as the layers above hold it (the web pass
/// reads through one): they pass it to functions of `game/` and `store`,
/// and name no database type of their own.
pub type Db = rusqlite::Connection;
pub use settings::GameSettings;

/// A mail to a game's people, as the game layer decides it: the front end
/// renders and queues it (`frontend::Outgoing` from this).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameMail {
    pub to: Vec<String>,
    pub subject: String,
    pub body: String,
    pub game_id: i64,
    /// The results of this phase: its map goes with the mail.
    pub results_of: Option<String>,
    /// The notice that the game ended other than by a phase's results
    /// (TERMINATE): the game's animated summary goes with it, as with the
    /// results that end a game.
    pub ends_game: bool,
}

/// Archives a notice to the whole game and returns the mail that tells
/// everyone (players, Master, observers) of it.
pub fn announce(
    conn: &Connection,
    game: &Game,
    phase: Option<&str>,
    subject: String,
    text: String,
    now: i64,
) -> Result<GameMail, StoreError> {
    store::history::append_history(
        conn,
        game.id,
        phase,
        store::history::HistoryKind::Notice,
        &subject,
        &text,
        now,
    )?;
    Ok(GameMail {
        to: everyone(conn, game)?,
        subject,
        body: text,
        game_id: game.id,
        results_of: None,
        ends_game: false,
    })
}

/// The game with this id, as stored now.
pub fn game_by_id(conn: &Connection, id: i64) -> Result<Option<Game>, StoreError> {
    store::games::game_by_id(conn, id)
}

/// A game's current phase and its position.
pub struct Current {
    pub record: PhaseRecord,
    pub position: Position,
}

/// The current (latest) phase of a game, if it has started.
pub fn current(conn: &Connection, game_id: i64) -> Result<Option<Current>, StoreError> {
    let Some(record) = store::phases::current_phase(conn, game_id)? else {
        return Ok(None);
    };
    let position = position_of(&record)?;
    Ok(Some(Current { record, position }))
}

/// The engine position stored with a phase.
pub fn position_of(record: &PhaseRecord) -> Result<Position, StoreError> {
    thread_local! {
        /// The last position read, by its JSON text: one mail asks for
        /// its game's position once per command and once for the reply.
        static LAST: std::cell::RefCell<Option<(String, Position)>> =
            const { std::cell::RefCell::new(None) };
    }
    let known = LAST.with(|last| match &*last.borrow() {
        Some((json, position)) if *json == record.position => Some(position.clone()),
        _ => None,
    });
    if let Some(position) = known {
        return Ok(position);
    }
    let json: PositionJson = record.position_as()?;
    let position = json
        .to_position(Map::standard())
        .map_err(|e| StoreError::Setup(format!("stored position of {}: {e}", record.phase)))?;
    LAST.with(|last| *last.borrow_mut() = Some((record.position.clone(), position.clone())));
    Ok(position)
}

/// The game's variant (the standard game if the name is unknown).
pub fn variant_of(game: &Game) -> variant::Variant {
    variant::Variant::by_name(&game.variant).unwrap_or(variant::STANDARD)
}

/// The countries a seat's player plays: the seat's own, and in games for
/// fewer players the other seats of its bloc.
pub fn bloc_powers(conn: &Connection, seat: &Seat) -> Result<Vec<Power>, StoreError> {
    let Some(own) = power_of(seat) else {
        return Ok(Vec::new());
    };
    let mut powers = vec![own];
    if let Some(bloc) = seat.bloc {
        for other in store::seats::seats_of_game(conn, seat.game_id)? {
            if other.bloc == Some(bloc) && other.id != seat.id {
                powers.extend(power_of(&other));
            }
        }
    }
    Ok(powers)
}

pub fn settings_of(game: &Game) -> Result<GameSettings, StoreError> {
    game.settings_as()
}

pub fn power_of(seat: &Seat) -> Option<Power> {
    seat.power
        .as_deref()
        .and_then(|p| Power::ALL.into_iter().find(|q| q.upper() == p))
}

/// Seats that still play (not resigned, not eliminated).
pub fn playing(seat: &Seat) -> bool {
    !matches!(
        seat.status,
        SeatStatus::Resigned | SeatStatus::Eliminated | SeatStatus::Forming
    ) && seat.power.is_some()
}

/// Everyone who gets mail sent to the whole game: the players (every
/// address of a team), the Master and the observers (those the Master
/// named once they confirmed).
pub fn everyone(conn: &Connection, game: &Game) -> Result<Vec<String>, StoreError> {
    let mut to: Vec<String> = Vec::new();
    for seat in store::seats::seats_of_game(conn, game.id)? {
        if seat.status != SeatStatus::Resigned {
            to.extend(teams::addresses(conn, &seat)?);
        }
    }
    to.extend(game.master_address.clone());
    to.extend(observers::mailed(conn, game.id)?);
    Ok(to)
}

/// Gives the player of `first` another country: a seat with the same
/// address and password, in the same bloc (games for fewer players; the
/// two-player game's coin toss).
pub fn add_bloc_seat(
    conn: &Connection,
    first: &Seat,
    power: Power,
    phase: &str,
    now: i64,
) -> Result<(), StoreError> {
    let id = store::seats::add_seat(
        conn,
        &store::seats::NewSeat {
            game_id: first.game_id,
            power: None,
            address: &first.address,
            password: &first.password,
            status: SeatStatus::Active,
            preferences: None,
        },
        now,
    )?;
    store::seats::assign_power(conn, id, power.upper(), phase)?;
    store::teams::copy_members(conn, first.id, id)?;
    let bloc = first.bloc.unwrap_or(first.id);
    store::seats::set_seat_bloc(conn, id, Some(bloc))?;
    if first.bloc.is_none() {
        store::seats::set_seat_bloc(conn, first.id, Some(bloc))?;
    }
    Ok(())
}

/// "A", "A and B", "A, B and C".
pub fn join_names(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
