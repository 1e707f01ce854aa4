//! Joining a forming game (SIGNON ?<game>), SET PREFERENCE, and the start
//! of the game once seven have joined (`game::join` does them; here the
//! mail is read and the replies said).

use super::sign_on_player;
use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::join::{self as joining, Joining};
use crate::game::start::read_preferences;
use crate::game::{variant_of, Game, GameSettings, GameState, Seat, StoreError};
use crate::say;

pub fn join(
    s: &mut Session<'_>,
    line: &Line,
    game: Game,
    password: &str,
) -> Result<(), StoreError> {
    let sender = s.sender();
    match joining::join(s.tx, &game, (&sender, password), s.now)? {
        Joining::Started => super::takeover::unnamed(s, line, &game)?,
        Joining::Rejoining { seat, count } => rejoin(s, line, (game, seat), count, password)?,
        Joining::Full { needed } => {
            s.reply
                .refuse(line, say!("join.full", game => &game.name, needed));
            // Full but not started: its last player's mail went on to another
            // sign-on (before such games were started at the end of the mail).
            start_if_full(s, &game)?;
        }
        Joining::Joined {
            seat,
            count,
            needed,
        } => {
            // Started at the end of the mail if this filled it, whoever the
            // mail's later lines sign on as.
            s.joined.push(game.id);
            s.reply
                .ok(line, say!("join.joined", game => &game.name, count, needed));
            sign_on_player(s, game, seat, None);
        }
    }
    Ok(())
}

/// SIGNON ?<game> again from an address that has joined (itself, or as
/// one of a team): signed on if the password is the seat's.
fn rejoin(
    s: &mut Session<'_>,
    line: &Line,
    (game, seat): (Game, Seat),
    count: usize,
    password: &str,
) -> Result<(), StoreError> {
    if !s.credentials.check(password, &seat.password) {
        s.reply.refuse(line, say!("join.other_password"));
        return Ok(());
    }
    // A team's member waiting for its CONFIRM joins the team so.
    crate::game::sign_on::signed_on_from(s.tx, &s.sender(), s.now)?;
    let players = variant_of(&game).players();
    s.reply.ok(
        line,
        say!("join.joined_already", game => &game.name, count, players),
    );
    sign_on_player(s, game, seat, None);
    Ok(())
}

/// SET PREFERENCE <initials>, for a player of a forming game.
pub fn set_preference(s: &mut Session<'_>, line: &Line, text: &str) -> Result<(), StoreError> {
    let Some(Signed::Player { game, seat, .. }) = s.signed.clone() else {
        s.reply.refuse(line, say!("join.preference_needs_join"));
        return Ok(());
    };
    if game.state != GameState::Forming {
        s.reply.refuse(line, say!("join.powers_assigned"));
        return Ok(());
    }
    let (flat, drew) = match super::preference::read(text, s.now ^ seat.id) {
        Ok(super::preference::Wish::List(flat, drew)) => (flat, drew),
        Ok(super::preference::Wish::Lot) => {
            joining::set_preference(s.tx, &seat, None)?;
            s.reply.ok(line, say!("join.by_lot"));
            return Ok(());
        }
        Err(e) => {
            s.reply.refuse(line, e);
            return Ok(());
        }
    };
    match read_preferences(&flat) {
        Ok(list) if !list.is_empty() => {
            joining::set_preference(s.tx, &seat, Some(&list))?;
            let names: Vec<&str> = list.iter().map(|p| p.name()).collect();
            s.reply.ok(
                line,
                say!("join.preference", powers => names.join(", "), drew),
            );
        }
        Ok(_) => s.reply.refuse(line, say!("join.preference_usage")),
        Err(e) => s
            .reply
            .refuse(line, e.replace(&format!("'{flat}'"), &format!("'{text}'"))),
    }
    Ok(())
}

/// Starts a forming game that has its players: called once the mail's
/// commands have run, so preferences given after the sign-on count. Each
/// player's start mail, and the observers', goes with the opening map.
pub fn start_if_full(s: &mut Session<'_>, game: &Game) -> Result<(), StoreError> {
    let rules = |game: &Game, settings: &GameSettings| start_rules(s, &game.name, settings);
    let Some(started) = joining::start_if_full(s.tx, s.code(), game.id, &rules, s.now)? else {
        return Ok(());
    };
    for mail in started.to_players.iter().chain(&started.to_observers) {
        s.send_all(vec![mail.clone()]);
        let pictures = crate::game::pictures::opening_parts(
            &s.config.maps,
            game.id,
            &game.name,
            &started.phase,
        );
        if let Some(last) = s.outgoing.last_mut() {
            last.pictures = pictures;
        }
    }
    s.send_all(started.to_master.into_iter().collect());
    Ok(())
}

/// What the start mail says of the game's schedules and end: the lines
/// of LIST.
fn start_rules(s: &Session<'_>, game: &str, settings: &GameSettings) -> String {
    let mut lines = crate::game::schedule::schedule_lines(settings, s.now).to_vec();
    lines.push(super::listing::end_line(settings));
    lines.extend(super::listing::pages_line(
        s.config.web.public_url(),
        game,
        settings,
    ));
    lines.join("\n")
}
