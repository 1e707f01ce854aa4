//! Press: a message from a player, the Master or an observer to powers of
//! the game, the Master, or everyone. Who it reaches (never its sender),
//! how it is headed and stored, and the mail that carries it; the front
//! end reads the press block and checks what the game allows.

use rusqlite::Connection;

use super::{current, everyone, power_of, Game, GameMail, StoreError};
use crate::engine::map::Power;
use crate::report::{game_subject, title};
use crate::say;
use crate::store::{self, history::HistoryKind, press::NewPress};

/// One recipient of press: a power, or the Master.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recipient {
    Power(Power),
    Master,
}

impl Recipient {
    /// How the recipient is stored: the power's code, or `M`.
    pub fn code(self) -> String {
        match self {
            Recipient::Master => "M".to_string(),
            Recipient::Power(p) => p.upper().to_string(),
        }
    }
}

/// Who sends press.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PressSender {
    Power(Power),
    Master,
    Observer,
}

impl PressSender {
    /// As stored: the power's code, `M` for the Master, `O` for an observer.
    pub fn code(&self) -> String {
        match self {
            PressSender::Power(p) => p.upper().to_string(),
            PressSender::Master => "M".to_string(),
            PressSender::Observer => "O".to_string(),
        }
    }

    /// In the message, unless it is grey: "France", "the Master".
    fn label(&self) -> String {
        match self {
            PressSender::Power(p) => p.name().to_string(),
            PressSender::Master => say!("press.the_master"),
            PressSender::Observer => say!("press.an_observer"),
        }
    }
}

/// A press message to send.
#[derive(Debug, Clone)]
pub struct Press<'a> {
    pub from: PressSender,
    /// The sender's address: the message never goes back to it.
    pub from_address: &'a str,
    /// No recipients: the whole game.
    pub to: &'a [Recipient],
    /// Said BROADCAST (the whole game, whatever `to` holds).
    pub broadcast: bool,
    /// Anonymous: the sender is not named.
    pub grey: bool,
    /// The lines of the message.
    pub text: &'a str,
    /// The mail it came in.
    pub inbound_id: Option<i64>,
}

/// Press sent: the mail that carries it, and its recipients in words
/// ("France, the Master", "everyone").
#[derive(Debug)]
pub struct Sent {
    pub mail: GameMail,
    pub to_text: String,
    pub broadcast: bool,
}

/// Stores `press` (archived when it goes to the whole game, partial press
/// never) and returns the mail to its recipients.
pub fn send(
    conn: &Connection,
    code: &str,
    game: &Game,
    press: &Press<'_>,
    now: i64,
) -> Result<Sent, StoreError> {
    let phase = current(conn, game.id)?.map(|c| c.record.phase);
    let (addresses, names) = destinations(conn, game, press)?;
    let broadcast = press.broadcast || press.to.is_empty();
    let shown_from = if press.grey {
        say!("press.anonymous")
    } else {
        press.from.label()
    };
    let from = if broadcast {
        title::BROADCAST_FROM
    } else {
        title::PRESS_FROM
    };
    let to_text = names.join(", ");
    let subject = game_subject(
        code,
        &game.name,
        phase.as_deref(),
        &format!("{from} {shown_from}"),
    );
    let body =
        say!("press.heading", from => &shown_from, to => &to_text, text => press.text) + "\n";
    record(conn, game, press, phase.as_deref(), (&subject, &body), now)?;
    let mail = GameMail {
        to: addresses,
        subject,
        body,
        game_id: game.id,
        results_of: None,
        ends_game: false,
    };
    Ok(Sent {
        mail,
        to_text,
        broadcast,
    })
}

/// The addresses press goes to (never back to its sender), and the
/// recipients in words.
fn destinations(
    conn: &Connection,
    game: &Game,
    press: &Press<'_>,
) -> Result<(Vec<String>, Vec<String>), StoreError> {
    let mut addresses = Vec::new();
    let mut names = Vec::new();
    if press.to.is_empty() {
        addresses = everyone(conn, game)?;
        names.push(say!("press.everyone"));
    }
    let seats = store::seats::seats_of_game(conn, game.id)?;
    for r in press.to {
        match r {
            Recipient::Master => {
                addresses.extend(game.master_address.clone());
                names.push(say!("press.the_master"));
            }
            Recipient::Power(p) => {
                if let Some(seat) = seats.iter().find(|seat| power_of(seat) == Some(*p)) {
                    addresses.extend(super::teams::addresses(conn, seat)?);
                }
                names.push(p.name().to_string());
            }
        }
    }
    // A team hears what one of its members said for it (a class's team
    // shares its secrets, never with the other teams).
    if let PressSender::Power(from) = press.from {
        if let Some(seat) = seats.iter().find(|seat| power_of(seat) == Some(from)) {
            addresses.extend(super::teams::addresses(conn, seat)?);
        }
    }
    addresses.retain(|a| !a.eq_ignore_ascii_case(press.from_address));
    let mut seen = std::collections::HashSet::new();
    addresses.retain(|a| seen.insert(a.to_ascii_lowercase()));
    Ok((addresses, names))
}

/// Stores the press; whatever goes to the whole game is also archived.
fn record(
    conn: &Connection,
    game: &Game,
    press: &Press<'_>,
    phase: Option<&str>,
    (subject, body): (&str, &str),
    now: i64,
) -> Result<(), StoreError> {
    let to_everyone = press.to.is_empty();
    let to_codes: Vec<String> = if to_everyone {
        vec!["ALL".to_string()]
    } else {
        press.to.iter().map(|r| r.code()).collect()
    };
    let to_refs: Vec<&str> = to_codes.iter().map(String::as_str).collect();
    let from = press.from.code();
    let stored = NewPress {
        game_id: game.id,
        phase,
        from: &from,
        to: &to_refs,
        grey: press.grey,
        broadcast: to_everyone,
        subject: Some(subject),
        body: press.text,
        inbound_id: press.inbound_id,
    };
    store::press::insert_press(conn, &stored, now)?;
    if to_everyone {
        store::history::append_history(
            conn,
            game.id,
            phase,
            HistoryKind::Broadcast,
            subject,
            body,
            now,
        )?;
    }
    Ok(())
}
