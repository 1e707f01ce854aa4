//! PRESS [TO <initials>] [GREY|WHITE] ... ENDPRESS and BROADCAST ... ENDPRESS.
//! The block is read and checked against what the game allows here;
//! `game::press` routes, stores and mails it.

use crate::engine::map::Power;
use crate::frontend::script::{Line, PressEnd};
use crate::frontend::session::{Session, Signed};
use crate::game::press::{self as sending, Press, PressSender, Recipient as To, Sent};
use crate::game::settings::{GameSettings, ObserverPress};
use crate::game::{settings_of, StoreError};
use crate::say;

/// Who `signed` sends press as; `None` for a player without a power yet.
fn sender_of(signed: &Signed) -> Option<PressSender> {
    match signed {
        Signed::Player { power: Some(p), .. } => Some(PressSender::Power(*p)),
        Signed::Player { power: None, .. } => None,
        Signed::Master { .. } => Some(PressSender::Master),
        Signed::Observer { .. } => Some(PressSender::Observer),
    }
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
        s.reply.refuse(line, say!("press.needs_sign_on"));
        return Ok(());
    };
    if let Some(why) = unsent(body, to.is_none() && !broadcast) {
        s.reply.refuse(line, why);
        return Ok(());
    }
    let game = signed.game().clone();
    let settings = settings_of(&game)?;
    let Some(sender) = sender_of(&signed) else {
        s.reply.refuse(line, say!("press.no_power_yet"));
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
    let (text, masked) = without_secrets(body, &s.secrets);
    let from_address = s.sender();
    let press = Press {
        from: sender,
        from_address: &from_address,
        to: &recipients,
        broadcast,
        grey,
        text: &text,
        inbound_id: Some(s.inbound_id),
    };
    let Sent {
        mail,
        to_text,
        broadcast,
    } = sending::send(s.tx, s.code(), &game, &press, s.now)?;
    s.send_all(vec![mail]);
    s.reply
        .ok(line, say!("press.sent", broadcast, to => to_text, grey));
    if let Some(note) = unclosed_note(end) {
        s.reply.add_to_last(&note);
    }
    if masked > 0 {
        s.reply
            .add_to_last(&say!("press.password_masked", times => masked));
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
        PressEnd::MailEnd => Some(say!("press.no_endpress")),
        PressEnd::Before(at) => Some(say!("press.ended_before", line => at)),
    }
}

/// Why a press block sends nothing: PRESS names no recipients (njudge
/// sends nothing then), or the message says nothing. A message ended by
/// the end of the mail (or SIGNOFF), or before a line holding a password,
/// is sent, as njudge does.
fn unsent(body: &[String], no_recipients: bool) -> Option<String> {
    if no_recipients {
        Some(say!("press.no_recipients"))
    } else if body.iter().all(|l| l.trim().is_empty()) {
        Some(say!("press.empty"))
    } else {
        None
    }
}

/// Why the game's settings forbid this press, if they do. Press to or from
/// the Master is always allowed; no recipients means everyone.
fn refusal(
    settings: &GameSettings,
    sender: &PressSender,
    recipients: &[To],
    grey: bool,
) -> Option<String> {
    let to_everyone = recipients.is_empty();
    let only_master = !to_everyone && recipients.iter().all(|r| *r == To::Master);
    if *sender == PressSender::Master || only_master {
        return None;
    }
    let observer = *sender == PressSender::Observer;
    let key = match settings.observers {
        ObserverPress::No if observer => "press.observers_none",
        ObserverPress::White if observer && grey => "press.observers_white",
        _ if !settings.press_allowed() => "press.no_press",
        _ if grey && !settings.grey => "press.no_grey",
        _ if !grey && !settings.white => "press.no_white",
        _ if !to_everyone && !settings.partial => "press.no_partial",
        _ => return None,
    };
    Some(crate::report::words::say(key, minijinja::Value::UNDEFINED))
}

/// Press to `ALL BUT <initials>` never lists its sender among the
/// recipients; other lists are as written.
fn leave_out_sender(mut recipients: Vec<To>, to: Option<&str>, sender: &PressSender) -> Vec<To> {
    if to.is_some_and(|t| t.starts_with("ALL BUT")) {
        recipients.retain(|r| r.code() != sender.code());
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
        return Err(say!("press.all_but_usage"));
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
                    return Err(say!("press.observers_not_recipients", list))
                }
                None => return Err(say!("press.not_an_initial", letter => c.to_string(), list)),
            }
        };
        if !out.contains(&to) {
            out.push(to);
        }
    }
    if out.is_empty() {
        return Err(say!("press.to_usage"));
    }
    Ok(out)
}
