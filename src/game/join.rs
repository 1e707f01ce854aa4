//! Joining a forming game (SIGNON ?<game>), preferences (SET
//! PREFERENCE), and the start of the game once its players have joined:
//! powers drawn by lot, preferences first. The front end reads the mail
//! and words the replies; this is what happens.

use rusqlite::Connection;

use super::clock::format_time;
use super::deadline::deadline_for;
use super::process::{describe_position, join_names, schedule_for};
use super::start::{assign_blocs, read_preferences};
use super::variant::Variant;
use super::{settings_of, variant_of, Game, GameMail, GameSettings, GameState, Seat, SeatStatus};
use crate::engine::map::{Map, Power};
use crate::engine::position::Position;
use crate::interchange::PositionJson;
use crate::report::{game_subject, title};
use crate::say;
use crate::store::{self, seats::NewSeat, StoreError};

/// What a SIGNON ?<game> came to.
#[derive(Debug)]
pub enum Joining {
    /// The game is no longer forming: a newcomer takes a power over.
    Started,
    /// The address has joined already, with `seat`; `count` have joined.
    Rejoining { seat: Seat, count: usize },
    /// The game has its `needed` players.
    Full { needed: usize },
    /// A seat without a power yet: `count` of `needed` have joined.
    Joined {
        seat: Seat,
        count: usize,
        needed: usize,
    },
}

/// `address` joins `game` with `password`, if it is forming and has room.
pub fn join(
    conn: &Connection,
    game: &Game,
    (address, password): (&str, &str),
    now: i64,
) -> Result<Joining, StoreError> {
    let seats = store::seats::seats_of_game(conn, game.id)?;
    if game.state != GameState::Forming {
        return Ok(Joining::Started);
    }
    // A team's member joins its team's seat (its password checked then).
    let listed = super::teams::seat_listing(conn, game.id, address)?;
    if let Some(seat) = seats
        .iter()
        .find(|seat| seat.address.eq_ignore_ascii_case(address))
        .or(listed.as_ref())
    {
        return Ok(Joining::Rejoining {
            seat: seat.clone(),
            count: seats.len(),
        });
    }
    let needed = settings_of(game)?.players;
    if seats.len() >= needed {
        return Ok(Joining::Full { needed });
    }
    let hash = store::password::hash_password(password)?;
    let id = store::seats::add_seat(
        conn,
        &NewSeat {
            game_id: game.id,
            power: None,
            address,
            password: &hash,
            status: SeatStatus::Forming,
            preferences: None,
        },
        now,
    )?;
    let seat = store::seats::seat_by_id(conn, id)?
        .ok_or_else(|| StoreError::NotFound(format!("seat #{id}, just added")))?;
    Ok(Joining::Joined {
        seat,
        count: seats.len() + 1,
        needed,
    })
}

/// SET PREFERENCE: the powers `seat`'s player wants, best first (None:
/// any, by lot).
pub fn set_preference(
    conn: &Connection,
    seat: &Seat,
    powers: Option<&[Power]>,
) -> Result<(), StoreError> {
    let initials: Option<String> = powers.map(|list| list.iter().map(|p| p.initial()).collect());
    store::seats::set_seat_preferences(conn, seat.id, initials.as_deref())
}

/// A game just started: the mails to its players (each to go with the
/// opening map) and to its Master.
#[derive(Debug)]
pub struct Started {
    pub phase: String,
    pub to_players: Vec<GameMail>,
    pub to_master: Option<GameMail>,
    /// To the observers, if any (with the opening map too).
    pub to_observers: Option<GameMail>,
}

/// Starts the forming game `game_id` if it has exactly its players: the
/// variant's blocs (one country each in the standard game) are drawn by
/// lot, preferences first; a player with several countries gets a seat
/// per country, all sharing the player's address and password. `rules`
/// words the game's schedules and end for the start mails.
pub fn start_if_full(
    conn: &Connection,
    code: &str,
    game_id: i64,
    rules: &dyn Fn(&Game, &GameSettings) -> String,
    now: i64,
) -> Result<Option<Started>, StoreError> {
    let Some(game) = store::games::game_by_id(conn, game_id)? else {
        return Ok(None);
    };
    if game.state != GameState::Forming {
        return Ok(None);
    }
    let settings = settings_of(&game)?;
    let variant = variant_of(&game);
    let seats = store::seats::seats_of_game(conn, game.id)?;
    // Exactly full: the lot gives each player one of the variant's blocs.
    if seats.len() != settings.players {
        return Ok(None);
    }
    let map = Map::standard();
    let position = variant.start(map);
    let phase = position.phase.to_string();
    let blocs = draw_lots(conn, &game, &variant, &seats, &phase, now)?;
    let schedule = schedule_for(&settings, position.phase.kind);
    let (deadline, grace) = deadline_for(conn, game.id, schedule, now)?;
    store::phases::insert_phase(
        conn,
        game.id,
        &phase,
        &PositionJson::from_position(map, &position),
        Some(deadline),
        Some(grace),
        now,
    )?;
    store::games::set_game_state(conn, game.id, GameState::Active, now)?;
    let start = Start {
        code,
        game: &game,
        variant: &variant,
        position: &position,
        deadline,
        schedules: rules(&game, &settings),
    };
    let mut roster = Vec::new();
    let mut to_players = Vec::new();
    for (seat, &b) in seats.iter().zip(&blocs) {
        let team = super::teams::addresses(conn, seat)?;
        let (names, mail) = start.player_mail(&team, variant.blocs[b]);
        roster.push(format!("{names:<24} {}", team.join(", ")));
        to_players.push(mail);
    }
    let observers = super::observers::mailed(conn, game.id)?;
    Ok(Some(Started {
        to_master: start.master_mail(&roster),
        to_observers: start.observer_mail(observers),
        to_players,
        phase,
    }))
}

/// Draws the powers by lot, preferences first, and gives each player the
/// seats of its bloc: which of the variant's blocs each seat got.
fn draw_lots(
    conn: &Connection,
    game: &Game,
    variant: &Variant,
    seats: &[Seat],
    phase: &str,
    now: i64,
) -> Result<Vec<usize>, StoreError> {
    let preferences: Vec<Vec<Power>> = seats
        .iter()
        .map(|seat| read_preferences(seat.preferences.as_deref().unwrap_or("")).unwrap_or_default())
        .collect();
    let blocs = assign_blocs(&preferences, variant.blocs, game.seed);
    for (seat, &b) in seats.iter().zip(&blocs) {
        let powers = variant.blocs[b];
        store::seats::assign_power(conn, seat.id, powers[0].upper(), phase)?;
        store::seats::set_seat_status(conn, seat.id, SeatStatus::Active)?;
        if powers.len() > 1 {
            store::seats::set_seat_bloc(conn, seat.id, Some(seat.id))?;
            for &other in &powers[1..] {
                super::add_bloc_seat(conn, seat, other, phase, now)?;
            }
        }
    }
    Ok(blocs)
}

/// A game just started: what its players and Master are told.
struct Start<'a> {
    code: &'a str,
    game: &'a Game,
    variant: &'a Variant,
    position: &'a Position,
    deadline: i64,
    /// The game's schedules in words and how it ends, one line each.
    schedules: String,
}

impl Start<'_> {
    /// The mail that tells a player (every address of a team, `team`)
    /// the powers it plays, how to sign on, the board and the deadline;
    /// and the powers' names, for the Master's roster.
    fn player_mail(&self, team: &[String], powers: &[Power]) -> (String, GameMail) {
        let Start { game, position, .. } = self;
        let phase = position.phase.to_string();
        let names: Vec<&str> = powers.iter().map(|p| p.name()).collect();
        let names = join_names(&names);
        let sign_on: Vec<String> = powers
            .iter()
            .map(|p| format!("SIGNON {}{} <your password>", p.initial(), game.name))
            .collect();
        let first = format!(
            "{} {} {}",
            position.phase.season_name(),
            position.phase.year,
            position.phase.kind_name().to_lowercase()
        );
        let body = say!("join.started_player",
            game => &game.name,
            variant => self.variant.name,
            names => &names,
            sign_on => sign_on.join("\n           or  "),
            several => powers.len() > 1,
            board => describe_position(Map::standard(), position),
            first,
            phase => &phase,
            deadline => format_time(self.deadline),
            schedules => &self.schedules,
        ) + "\n";
        let what = format!("{}: you are {names}", title::GAME_STARTS);
        let mail = GameMail {
            to: team.to_vec(),
            subject: game_subject(self.code, &game.name, Some(&phase), &what),
            body,
            game_id: game.id,
            results_of: None,
            ends_game: false,
        };
        (names, mail)
    }

    /// The mail that tells the observers, if any, that the game began:
    /// the board and the deadline (never the players' addresses).
    fn observer_mail(&self, to: Vec<String>) -> Option<GameMail> {
        if to.is_empty() {
            return None;
        }
        let phase = self.position.phase.to_string();
        let body = say!("join.started_observer",
            game => &self.game.name,
            variant => self.variant.name,
            board => describe_position(Map::standard(), self.position),
            phase => &phase,
            deadline => format_time(self.deadline),
            schedules => &self.schedules,
        ) + "\n";
        Some(GameMail {
            to,
            subject: game_subject(self.code, &self.game.name, Some(&phase), title::GAME_STARTS),
            body,
            game_id: self.game.id,
            results_of: None,
            ends_game: false,
        })
    }

    /// The mail that tells the Master, if the game has one, who plays what.
    fn master_mail(&self, roster: &[String]) -> Option<GameMail> {
        let master = self.game.master_address.clone()?;
        let phase = self.position.phase.to_string();
        let body = say!("join.started_master",
            game => &self.game.name,
            variant => self.variant.name,
            roster => roster.join("\n"),
            phase => &phase,
            deadline => format_time(self.deadline),
            schedules => &self.schedules,
        ) + "\n";
        Some(GameMail {
            to: vec![master],
            subject: game_subject(self.code, &self.game.name, Some(&phase), title::GAME_STARTS),
            body,
            game_id: self.game.id,
            results_of: None,
            ends_game: false,
        })
    }
}
