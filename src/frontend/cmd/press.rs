//! PRESS [TO <initials>] [GREY|WHITE] ... ENDPRESS and BROADCAST ... ENDPRESS.

use crate::engine::map::Power;
use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::settings::ObserverPress;
use crate::game::{current, power_of, settings_of};
use crate::store::{self, ArchiveKind, NewPress, StoreError};

/// One recipient of press: a power, or the Master.
#[derive(Clone, Copy, PartialEq, Eq)]
enum To {
    Power(Power),
    Master,
}

pub fn press(
    s: &mut Session<'_>,
    line: &Line,
    to: Option<&str>,
    grey: Option<bool>,
    body: &[String],
    closed: bool,
    broadcast: bool,
) -> Result<(), StoreError> {
    let Some(signed) = s.signed.clone() else {
        s.reply.refuse(
            line,
            "Press needs a sign-on first: SIGNON <initial><game> <password>.",
        );
        return Ok(());
    };
    if !closed {
        s.reply.refuse(
            line,
            "The press has no ENDPRESS line: nothing was sent. End the message with ENDPRESS.",
        );
        return Ok(());
    }
    if body.iter().all(|l| l.trim().is_empty()) {
        s.reply
            .refuse(line, "The press is empty: nothing was sent.");
        return Ok(());
    }
    let game = signed.game().clone();
    let settings = settings_of(&game)?;
    let (from_label, from_power, is_master) = match &signed {
        Signed::Player { power: Some(p), .. } => (p.name().to_string(), Some(*p), false),
        Signed::Player { power: None, .. } => {
            s.reply.refuse(
                line,
                "Press starts once the game has started and you have a power.",
            );
            return Ok(());
        }
        Signed::Master { .. } => ("the Master".to_string(), None, true),
        Signed::Observer { .. } => ("an observer".to_string(), None, false),
    };
    // Who it goes to.
    let recipients: Vec<To> = if broadcast {
        Vec::new()
    } else {
        match to {
            None => Vec::new(),
            Some(list) => match read_recipients(list) {
                Ok(r) => r,
                Err(e) => {
                    s.reply.refuse(line, e);
                    return Ok(());
                }
            },
        }
    };
    let to_everyone = recipients.is_empty();
    let only_master = !to_everyone && recipients.iter().all(|r| *r == To::Master);
    let grey = grey.unwrap_or(false);
    // What the game allows; press to or from the Master is always allowed.
    if !is_master && !only_master {
        let refusal = if matches!(signed, Signed::Observer { .. }) {
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
        }
        .or(if !settings.press_allowed() {
            Some("This is a no-press game: press may only go to the Master (PRESS TO M).")
        } else if grey && !settings.grey {
            Some("Grey (anonymous) press is not allowed in this game.")
        } else if !grey && !settings.white {
            Some("White press is not allowed in this game: send it GREY.")
        } else if !to_everyone && !settings.partial {
            Some("Partial press is not allowed in this game: use BROADCAST, or PRESS without TO.")
        } else {
            None
        });
        if let Some(why) = refusal {
            s.reply.refuse(line, why);
            return Ok(());
        }
    }
    let phase = current(s.tx, game.id)?.map(|c| c.record.phase);
    let seats = store::seats_of_game(s.tx, game.id)?;
    let mut addresses = Vec::new();
    let mut names = Vec::new();
    if to_everyone {
        addresses = crate::game::everyone(s.tx, &game)?;
        names.push("everyone".to_string());
    } else {
        for r in &recipients {
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
    }
    let sender_address = s.sender();
    addresses.retain(|a| !a.eq_ignore_ascii_case(&sender_address));
    let shown_from = if grey {
        "Anonymous".to_string()
    } else {
        from_label.clone()
    };
    let to_text = names.join(", ");
    let text = body.join("\n");
    let mail_body = format!("Message from {shown_from} to {to_text}:\n\n{text}\n");
    let what = if broadcast || to_everyone {
        "Broadcast"
    } else {
        "Press"
    };
    let subject = s.subject(
        &game.name,
        phase.as_deref(),
        &format!("{what} from {shown_from}"),
    );
    let from_code = match (&signed, from_power) {
        (_, Some(p)) => p.upper().to_string(),
        (Signed::Master { .. }, _) => "M".to_string(),
        _ => "O".to_string(),
    };
    let to_codes: Vec<String> = if to_everyone {
        vec!["ALL".to_string()]
    } else {
        recipients
            .iter()
            .map(|r| match r {
                To::Master => "M".to_string(),
                To::Power(p) => p.upper().to_string(),
            })
            .collect()
    };
    let to_refs: Vec<&str> = to_codes.iter().map(String::as_str).collect();
    store::insert_press(
        s.tx,
        &NewPress {
            game_id: game.id,
            phase: phase.as_deref(),
            from: &from_code,
            to: &to_refs,
            grey,
            broadcast: to_everyone,
            subject: Some(&subject),
            body: &text,
            inbound_id: Some(s.inbound_id),
        },
        s.now,
    )?;
    if to_everyone {
        // Whatever goes to the whole game is archived; partial press never.
        store::append_archive(
            s.tx,
            game.id,
            phase.as_deref(),
            ArchiveKind::Broadcast,
            &subject,
            &mail_body,
            s.now,
        )?;
    }
    s.send(addresses, subject, mail_body, Some(game.id));
    s.reply.ok(
        line,
        format!(
            "{what} sent to {to_text}{}.",
            if grey {
                " (grey: your power is not named)"
            } else {
                ""
            }
        ),
    );
    Ok(())
}

/// `FGR`, `F,G`, `M`: the powers (or Master) press goes to.
fn read_recipients(list: &str) -> Result<Vec<To>, String> {
    let mut out = Vec::new();
    for c in list.chars().filter(|c| c.is_alphanumeric()) {
        let to = if c.eq_ignore_ascii_case(&'M') {
            To::Master
        } else {
            match Power::from_initial(c) {
                Some(p) => To::Power(p),
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
