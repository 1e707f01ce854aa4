//! PRESS [TO <initials>] [GREY|WHITE] ... ENDPRESS and BROADCAST ... ENDPRESS.

use crate::engine::map::Power;
use crate::frontend::script::{Line, PressEnd};
use crate::frontend::session::{Session, Signed};
use crate::game::settings::{GameSettings, ObserverPress};
use crate::game::{current, power_of, settings_of};
use crate::report::title;
use crate::store::{self, games::Game, history::HistoryKind, press::NewPress, StoreError};

/// One recipient of press: a power, or the Master.
#[derive(Clone, Copy, PartialEq, Eq)]
enum To {
    Power(Power),
    Master,
}

impl To {
    /// How the recipient is stored: the power's code, or `M`.
    fn code(self) -> String {
        match self {
            To::Master => "M".to_string(),
            To::Power(p) => p.upper().to_string(),
        }
    }
}

/// Who sends press, as a signed-on line speaks for them.
struct Sender {
    /// In the message, unless it is grey: "France", "the Master".
    label: String,
    /// As stored: the power's code, `M` for the Master, `O` for an observer.
    code: String,
    is_master: bool,
    is_observer: bool,
}

impl Sender {
    /// Who `signed` sends as; `None` for a player without a power yet.
    fn of(signed: &Signed) -> Option<Sender> {
        let (label, code) = match signed {
            Signed::Player { power: Some(p), .. } => (p.name(), p.upper()),
            Signed::Player { power: None, .. } => return None,
            Signed::Master { .. } => ("the Master", "M"),
            Signed::Observer { .. } => ("an observer", "O"),
        };
        Some(Sender {
            label: label.to_string(),
            code: code.to_string(),
            is_master: matches!(signed, Signed::Master { .. }),
            is_observer: matches!(signed, Signed::Observer { .. }),
        })
    }
}

/// The message as it goes out and is stored.
struct Message {
    /// "Press" or "Broadcast".
    what: &'static str,
    /// Anonymous: the sender's power is not named.
    grey: bool,
    /// The game's current phase, if it has one.
    phase: Option<String>,
    /// Who the recipients are, in words: "France, the Master", "everyone".
    to_text: String,
    subject: String,
    /// The lines between the PRESS line and ENDPRESS.
    text: String,
    /// The text with its "Message from ... to ..." heading.
    mail_body: String,
}

pub fn press(
    s: &mut Session<'_>,
    line: &Line,
    to: Option<&str>,
    grey: Option<bool>,
    body: &[String],
    end: &PressEnd,
    broadcast: bool,
) -> Result<(), StoreError> {
    let Some(signed) = s.signed.clone() else {
        s.reply.refuse(
            line,
            "Press needs a sign-on first: SIGNON <initial><game> <password>.",
        );
        return Ok(());
    };
    if let Some(why) = unsent(body, to.is_none() && !broadcast) {
        s.reply.refuse(line, why);
        return Ok(());
    }
    let game = signed.game().clone();
    let settings = settings_of(&game)?;
    let Some(sender) = Sender::of(&signed) else {
        s.reply.refuse(
            line,
            "Press starts once the game has started and you have a power.",
        );
        return Ok(());
    };
    let recipients = match to.filter(|_| !broadcast).map(read_recipients) {
        None => Vec::new(),
        Some(Ok(r)) => leave_out_sender(r, to, &sender),
        Some(Err(e)) => {
            s.reply.refuse(line, e);
            return Ok(());
        }
    };
    let grey = grey.unwrap_or(false);
    if let Some(why) = refusal(&settings, &sender, &recipients, grey) {
        s.reply.refuse(line, why);
        return Ok(());
    }
    let phase = current(s.tx, game.id)?.map(|c| c.record.phase);
    let (addresses, names) = destinations(s, &game, &recipients)?;
    let shown_from = if grey { "Anonymous" } else { &sender.label };
    let (what, from) = if broadcast || recipients.is_empty() {
        ("Broadcast", title::BROADCAST_FROM)
    } else {
        ("Press", title::PRESS_FROM)
    };
    let to_text = names.join(", ");
    let (text, masked) = without_secrets(body, &s.secrets);
    let subject = s.subject(
        &game.name,
        phase.as_deref(),
        &format!("{from} {shown_from}"),
    );
    let mail_body = format!("Message from {shown_from} to {to_text}:\n\n{text}\n");
    let message = Message {
        what,
        grey,
        phase,
        to_text,
        subject,
        text,
        mail_body,
    };
    record(s, &game, &sender, &recipients, &message)?;
    deliver(s, line, &game, addresses, message);
    if let Some(note) = unclosed_note(end) {
        s.reply.add_to_last(&note);
    }
    if masked > 0 {
        s.reply.add_to_last(&format!(
            "Your password stood in the message ({masked} time{}): it was replaced by **** \
             before the message went out.",
            if masked == 1 { "" } else { "s" }
        ));
    }
    Ok(())
}

/// The message with every word that is one of the mail's own passwords
/// (a quoted sign-on, a SET PASSWORD) masked, and how many were: the
/// judge never sends or publishes a password.
fn without_secrets(body: &[String], secrets: &[String]) -> (String, usize) {
    let mut masked = 0;
    let lines: Vec<String> = body
        .iter()
        .map(|line| {
            let mut out = line.clone();
            for secret in secrets.iter().filter(|w| !w.is_empty()) {
                let found = out.matches(secret.as_str()).count();
                if found > 0 {
                    masked += found;
                    out = out.replace(secret.as_str(), "****");
                }
            }
            out
        })
        .collect();
    (lines.join("\n"), masked)
}

/// What the reply adds when the message had no ENDPRESS: where it was
/// taken to end.
fn unclosed_note(end: &PressEnd) -> Option<String> {
    match end {
        PressEnd::EndPress => None,
        PressEnd::MailEnd => Some(
            "(No ENDPRESS line: the message was taken to run to the end of the mail, \
             or to SIGNOFF.)"
                .to_string(),
        ),
        PressEnd::Before(at) => Some(format!(
            "(No ENDPRESS line: the message was taken to end before the line \"{at}\", \
             which holds a password and was read as a command, as were the lines after it.)"
        )),
    }
}

/// Why a press block sends nothing: PRESS names no recipients (njudge
/// sends nothing then), or the message says nothing. A message ended by
/// the end of the mail (or SIGNOFF), or before a line holding a password,
/// is sent, as njudge does.
fn unsent(body: &[String], no_recipients: bool) -> Option<&'static str> {
    if no_recipients {
        Some(
            "PRESS without TO names no recipients: nothing was sent. Write PRESS TO \
             <initials> (PRESS TO FG for France and Germany, M for the Master), or \
             BROADCAST for the whole game; then the message, then ENDPRESS.",
        )
    } else if body.iter().all(|l| l.trim().is_empty()) {
        Some("The press is empty: nothing was sent.")
    } else {
        None
    }
}

/// Why the game's settings forbid this press, if they do. Press to or from
/// the Master is always allowed; no recipients means everyone.
fn refusal(
    settings: &GameSettings,
    sender: &Sender,
    recipients: &[To],
    grey: bool,
) -> Option<&'static str> {
    let to_everyone = recipients.is_empty();
    let only_master = !to_everyone && recipients.iter().all(|r| *r == To::Master);
    if sender.is_master || only_master {
        return None;
    }
    let observers = if sender.is_observer {
        match settings.observers {
            ObserverPress::No => {
                Some("Observers may not send press in this game (only to the Master).")
            }
            ObserverPress::White if grey => {
                Some("Observers may send only white press in this game.")
            }
            _ => None,
        }
    } else {
        None
    };
    observers.or(if !settings.press_allowed() {
        Some("This is a no-press game: press may only go to the Master (PRESS TO M).")
    } else if grey && !settings.grey {
        Some("Grey (anonymous) press is not allowed in this game.")
    } else if !grey && !settings.white {
        Some("White press is not allowed in this game: send it GREY.")
    } else if !to_everyone && !settings.partial {
        Some("Partial press is not allowed in this game: use BROADCAST.")
    } else {
        None
    })
}

/// The addresses press goes to (never back to its sender), and the
/// recipients in words.
fn destinations(
    s: &Session<'_>,
    game: &Game,
    recipients: &[To],
) -> Result<(Vec<String>, Vec<String>), StoreError> {
    let mut addresses = Vec::new();
    let mut names = Vec::new();
    if recipients.is_empty() {
        addresses = crate::game::everyone(s.tx, game)?;
        names.push("everyone".to_string());
    }
    let seats = store::seats::seats_of_game(s.tx, game.id)?;
    for r in recipients {
        match r {
            To::Master => {
                addresses.extend(game.master_address.clone());
                names.push("the Master".to_string());
            }
            To::Power(p) => {
                if let Some(seat) = seats.iter().find(|seat| power_of(seat) == Some(*p)) {
                    addresses.push(seat.address.clone());
                }
                names.push(p.name().to_string());
            }
        }
    }
    let sender_address = s.sender();
    addresses.retain(|a| !a.eq_ignore_ascii_case(&sender_address));
    Ok((addresses, names))
}

/// Stores the press; whatever goes to the whole game is also archived,
/// partial press never.
fn record(
    s: &mut Session<'_>,
    game: &Game,
    sender: &Sender,
    recipients: &[To],
    message: &Message,
) -> Result<(), StoreError> {
    let phase = message.phase.as_deref();
    let to_everyone = recipients.is_empty();
    let to_codes: Vec<String> = if to_everyone {
        vec!["ALL".to_string()]
    } else {
        recipients.iter().map(|r| r.code()).collect()
    };
    let to_refs: Vec<&str> = to_codes.iter().map(String::as_str).collect();
    let press = NewPress {
        game_id: game.id,
        phase,
        from: &sender.code,
        to: &to_refs,
        grey: message.grey,
        broadcast: to_everyone,
        subject: Some(&message.subject),
        body: &message.text,
        inbound_id: Some(s.inbound_id),
    };
    store::press::insert_press(s.tx, &press, s.now)?;
    if to_everyone {
        store::history::append_history(
            s.tx,
            game.id,
            phase,
            HistoryKind::Broadcast,
            &message.subject,
            &message.mail_body,
            s.now,
        )?;
    }
    Ok(())
}

/// Queues the press for its recipients and tells the sender it went.
fn deliver(
    s: &mut Session<'_>,
    line: &Line,
    game: &Game,
    addresses: Vec<String>,
    message: Message,
) {
    let Message {
        what,
        grey,
        to_text,
        subject,
        mail_body,
        ..
    } = message;
    s.send(addresses, subject, mail_body, Some(game.id));
    let grey_note = if grey {
        " (grey: your power is not named)"
    } else {
        ""
    };
    s.reply
        .ok(line, format!("{what} sent to {to_text}{grey_note}."));
}

/// Press to `ALL BUT <initials>` never lists its sender among the
/// recipients; other lists are as written.
fn leave_out_sender(mut recipients: Vec<To>, to: Option<&str>, sender: &Sender) -> Vec<To> {
    if to.is_some_and(|t| t.starts_with("ALL BUT")) {
        recipients.retain(|r| r.code() != sender.code);
    }
    recipients
}

/// `FGR`, `F,G`, `M`: the powers (or Master) press goes to; `ALL` (no
/// recipients: the whole game) and njudge's `ALL BUT <initials>`.
fn read_recipients(list: &str) -> Result<Vec<To>, String> {
    if list == "ALL" {
        return Ok(Vec::new());
    }
    if let Some(but) = list.strip_prefix("ALL BUT") {
        return all_but(but.trim());
    }
    initials(list)
}

/// Every power but those `left_out` names.
fn all_but(left_out: &str) -> Result<Vec<To>, String> {
    if left_out.is_empty() {
        return Err(
            "PRESS TO ALL BUT needs the initials of the powers left out, e.g. \
                    PRESS TO ALL BUT EG."
                .to_string(),
        );
    }
    let out = initials(left_out)?;
    Ok(Power::ALL
        .into_iter()
        .map(To::Power)
        .filter(|p| !out.contains(p))
        .collect())
}

/// The initials of a list, each once.
fn initials(list: &str) -> Result<Vec<To>, String> {
    let mut out = Vec::new();
    for c in list.chars().filter(|c| c.is_alphanumeric()) {
        let to = if c.eq_ignore_ascii_case(&'M') {
            To::Master
        } else {
            match Power::from_initial(c) {
                Some(p) => To::Power(p),
                // njudge's O (the observers): not a recipient here.
                None if c.eq_ignore_ascii_case(&'O') => {
                    return Err(format!(
                        "'O' in TO {list}: press to the observers alone is not offered by \
                         this judge; BROADCAST reaches them with everyone in the game."
                    ))
                }
                None => {
                    return Err(format!(
                        "'{c}' in TO {list} is not a power's initial (A E F G I R T) or M for the Master."
                    ))
                }
            }
        };
        if !out.contains(&to) {
            out.push(to);
        }
    }
    if out.is_empty() {
        return Err("PRESS TO needs the initials of the recipients, e.g. PRESS TO FG.".to_string());
    }
    Ok(out)
}
