//! Joining a forming game (SIGNON ?<game>), and the start of the game
//! once seven have joined: powers drawn by lot, preferences first.

use super::sign_on_player;
use crate::engine::map::{Map, Power};
use crate::engine::position::Position;
use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::clock::format_time;
use crate::game::deadline::deadline_for;
use crate::game::process::schedule_for;
use crate::game::start::{assign_blocs, read_preferences};
use crate::game::variant::Variant;
use crate::game::{settings_of, variant_of};
use crate::interchange::PositionJson;
use crate::report::title;
use crate::store::{
    self, games::Game, games::GameState, seats::NewSeat, seats::Seat, seats::SeatStatus, StoreError,
};

pub fn join(
    s: &mut Session<'_>,
    line: &Line,
    game: Game,
    password: &str,
) -> Result<(), StoreError> {
    let sender = s.sender();
    let seats = store::seats::seats_of_game(s.tx, game.id)?;
    if game.state != GameState::Forming {
        return super::takeover::unnamed(s, line, &game);
    }
    if let Some(seat) = seats
        .iter()
        .find(|seat| seat.address.eq_ignore_ascii_case(&sender))
    {
        rejoin(s, line, game, seat.clone(), seats.len(), password);
        return Ok(());
    }
    let needed = settings_of(&game)?.players;
    if seats.len() >= needed {
        s.reply.refuse(
            line,
            format!(
                "Game '{}' already has its {needed} players: there is no seat left to join.",
                game.name
            ),
        );
        // Full but not started: its last player's mail went on to another
        // sign-on (before such games were started at the end of the mail).
        start_if_full(s, &game)?;
        return Ok(());
    }
    let seat = add_player(s, &game, password)?;
    let count = seats.len() + 1;
    // Started at the end of the mail if this filled it, whoever the mail's
    // later lines sign on as.
    s.joined.push(game.id);
    s.reply.ok(
        line,
        format!(
            "You have joined '{}': {count} of {needed} players. Powers are drawn by lot when \
             the last one joins; SET PREFERENCE <initials> (e.g. SET PREFERENCE FEGIART) \
             ranks the powers you want.",
            game.name
        ),
    );
    sign_on_player(s, game, seat, None);
    Ok(())
}

/// SIGNON ?<game> again from an address that has joined: signed on if the
/// password is the one it joined with.
fn rejoin(s: &mut Session<'_>, line: &Line, game: Game, seat: Seat, count: usize, password: &str) {
    if !s.credentials.check(password, &seat.password) {
        s.reply.refuse(
            line,
            "You have already joined that game, with another password.",
        );
        return;
    }
    s.reply.ok(
        line,
        format!(
            "You have already joined '{}'; {} of {} players so far.",
            game.name,
            count,
            variant_of(&game).players()
        ),
    );
    sign_on_player(s, game, seat, None);
}

/// A seat without a power yet for the sender, in a forming game.
fn add_player(s: &mut Session<'_>, game: &Game, password: &str) -> Result<Seat, StoreError> {
    let hash = store::password::hash_password(password)?;
    let id = store::seats::add_seat(
        s.tx,
        &NewSeat {
            game_id: game.id,
            power: None,
            address: &s.sender(),
            password: &hash,
            status: SeatStatus::Forming,
            preferences: None,
        },
        s.now,
    )?;
    Ok(store::seats::seat_by_id(s.tx, id)?.expect("just added"))
}

/// SET PREFERENCE <initials>, for a player of a forming game.
pub fn set_preference(s: &mut Session<'_>, line: &Line, text: &str) -> Result<(), StoreError> {
    let Some(Signed::Player { game, seat, .. }) = s.signed.clone() else {
        s.reply
            .refuse(line, "SET PREFERENCE follows SIGNON ?<game> <password>.");
        return Ok(());
    };
    if game.state != GameState::Forming {
        s.reply
            .refuse(line, "The powers are already assigned in this game.");
        return Ok(());
    }
    let (flat, drew) = match super::preference::read(text, s.now ^ seat.id) {
        Ok(super::preference::Wish::List(flat, drew)) => (flat, drew),
        Ok(super::preference::Wish::Lot) => {
            store::seats::set_seat_preferences(s.tx, seat.id, None)?;
            s.reply.ok(line, "No preference: you get a power by lot.");
            return Ok(());
        }
        Err(e) => {
            s.reply.refuse(line, e);
            return Ok(());
        }
    };
    match read_preferences(&flat) {
        Ok(list) if !list.is_empty() => {
            let initials: String = list.iter().map(|p| p.initial()).collect();
            store::seats::set_seat_preferences(s.tx, seat.id, Some(&initials))?;
            let names: Vec<&str> = list.iter().map(|p| p.name()).collect();
            let drawn = if drew {
                " (the powers you bracketed as equal in an order drawn by lot)"
            } else {
                ""
            };
            s.reply.ok(
                line,
                format!("Your preference: {}{drawn}.", names.join(", ")),
            );
        }
        Ok(_) => s.reply.refuse(
            line,
            "Give the initials of the powers you want, best first: SET PREFERENCE FEGIART.",
        ),
        Err(e) => s
            .reply
            .refuse(line, e.replace(&format!("'{flat}'"), &format!("'{text}'"))),
    }
    Ok(())
}

/// Starts a forming game that has its players: called once the mail's
/// commands have run, so preferences given after the sign-on count. The
/// variant's blocs (one country each in the standard game) are drawn by
/// lot; a player with several countries gets a seat per country, all
/// sharing the player's address and password.
pub fn start_if_full(s: &mut Session<'_>, game: &Game) -> Result<(), StoreError> {
    let game = store::games::game_by_id(s.tx, game.id)?.expect("game");
    if game.state != GameState::Forming {
        return Ok(());
    }
    let settings = settings_of(&game)?;
    let variant = variant_of(&game);
    let seats = store::seats::seats_of_game(s.tx, game.id)?;
    // Exactly full: the lot gives each player one of the variant's blocs.
    if seats.len() != settings.players {
        return Ok(());
    }
    let map = Map::standard();
    let position = variant.start(map);
    let phase = position.phase.to_string();
    let blocs = draw_lots(s, &game, &variant, &seats, &phase)?;
    let schedule = schedule_for(&settings, position.phase.kind);
    let (deadline, grace) = deadline_for(s.tx, game.id, schedule, s.now)?;
    store::phases::insert_phase(
        s.tx,
        game.id,
        &phase,
        &PositionJson::from_position(map, &position),
        Some(deadline),
        Some(grace),
        s.now,
    )?;
    store::games::set_game_state(s.tx, game.id, GameState::Active, s.now)?;
    let start = Start {
        game: &game,
        variant: &variant,
        position: &position,
        deadline,
        schedules: start_rules(s, &game.name, &settings),
    };
    let mut roster = Vec::new();
    for (seat, &b) in seats.iter().zip(&blocs) {
        let names = start.tell_player(s, seat, variant.blocs[b]);
        roster.push(format!("{names:<24} {}", seat.address));
    }
    start.tell_master(s, &roster);
    Ok(())
}

/// What the start mail says of the game's schedules and end: the lines
/// of LIST.
fn start_rules(s: &Session<'_>, game: &str, settings: &crate::game::GameSettings) -> String {
    let mut lines = crate::game::schedule::schedule_lines(settings, s.now).to_vec();
    lines.push(super::listing::end_line(settings));
    lines.extend(super::listing::pages_line(
        s.config.web.public_url(),
        game,
        settings,
    ));
    lines.join("\n")
}

/// Draws the powers by lot, preferences first, and gives each player the
/// seats of its bloc: which of the variant's blocs each seat got.
fn draw_lots(
    s: &mut Session<'_>,
    game: &Game,
    variant: &Variant,
    seats: &[Seat],
    phase: &str,
) -> Result<Vec<usize>, StoreError> {
    let preferences: Vec<Vec<Power>> = seats
        .iter()
        .map(|seat| read_preferences(seat.preferences.as_deref().unwrap_or("")).unwrap_or_default())
        .collect();
    let blocs = assign_blocs(&preferences, variant.blocs, game.seed);
    for (seat, &b) in seats.iter().zip(&blocs) {
        let powers = variant.blocs[b];
        store::seats::assign_power(s.tx, seat.id, powers[0].upper(), phase)?;
        store::seats::set_seat_status(s.tx, seat.id, SeatStatus::Active)?;
        if powers.len() > 1 {
            store::seats::set_seat_bloc(s.tx, seat.id, Some(seat.id))?;
            for &other in &powers[1..] {
                add_bloc_seat(s, seat, other, phase)?;
            }
        }
    }
    Ok(blocs)
}

/// A game just started: what its players and Master are told.
struct Start<'a> {
    game: &'a Game,
    variant: &'a Variant,
    position: &'a Position,
    deadline: i64,
    /// The game's schedules in words and how it ends, one line each.
    schedules: String,
}

impl Start<'_> {
    /// Tells a player the powers it plays, how to sign on, the board and
    /// the deadline: the powers' names, for the Master's roster.
    fn tell_player(&self, s: &mut Session<'_>, seat: &Seat, powers: &[Power]) -> String {
        let Start {
            game,
            variant,
            position,
            deadline,
            schedules,
        } = self;
        let phase = position.phase.to_string();
        let board = crate::game::process::describe_position(Map::standard(), position);
        let names: Vec<&str> = powers.iter().map(|p| p.name()).collect();
        let names = crate::game::process::join_names(&names);
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
        let body = format!(
            "Game '{name}' ({variant}) has started. You play {names}.\n\n\
             Sign on with:  {sign_on}\n\
             then your orders, one per line{all}. Mail GET syntax for how to write them.\n\n\
             {board}\n\n\
             The first phase is {first} ({phase}).\n\
             The deadline for orders is {deadline}.\n\n\
             {schedules}\n",
            name = game.name,
            variant = variant.name,
            sign_on = sign_on.join("\n           or  "),
            all = if powers.len() > 1 {
                " (one sign-on orders all your countries)"
            } else {
                ""
            },
            deadline = format_time(*deadline),
        );
        let subject = s.subject(
            &game.name,
            Some(&phase),
            &format!("{}: you are {names}", title::GAME_STARTS),
        );
        s.send(vec![seat.address.clone()], subject, body, Some(game.id));
        // The opening position's map goes with it.
        let pictures =
            crate::game::pictures::opening_parts(&s.config.maps, game.id, &game.name, &phase);
        if let Some(mail) = s.outgoing.last_mut() {
            mail.pictures = pictures;
        }
        names
    }

    /// Tells the Master, if the game has one, who plays what.
    fn tell_master(&self, s: &mut Session<'_>, roster: &[String]) {
        let Some(master) = self.game.master_address.clone() else {
            return;
        };
        let phase = self.position.phase.to_string();
        let subject = s.subject(&self.game.name, Some(&phase), title::GAME_STARTS);
        let body = format!(
            "Game '{}' ({}) has started. The players:\n\n{}\n\nThe deadline for {phase} is {}.\n\n{}\n",
            self.game.name,
            self.variant.name,
            roster.join("\n"),
            format_time(self.deadline),
            self.schedules
        );
        s.send(vec![master], subject, body, Some(self.game.id));
    }
}

/// Another country for the player of `first`: a seat with the same
/// address and password, in the same bloc.
fn add_bloc_seat(
    s: &mut Session<'_>,
    first: &Seat,
    power: Power,
    phase: &str,
) -> Result<(), StoreError> {
    crate::game::add_bloc_seat(s.tx, first, power, phase, s.now)
}
