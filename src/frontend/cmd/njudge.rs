//! njudge forms the judge recognises but does not offer: refused as a
//! whole, naming the judge's own form, so that nothing under them is
//! read as something else (orders for the current phase, above all).
//! `PHASE` (orders given ahead) is offered: `preorders` takes it.

use crate::frontend::script::{Line, Njudge};
use crate::frontend::session::Session;
use crate::game::preorders::named_phase;
use crate::game::{lookup, StoreError};
use crate::say;

/// The phase `PROCESS <phase>` names: `F1901M`, or in words as njudge
/// takes it, `fall 1901 retreat`; several words that name no phase are
/// refused.
pub fn process_phase(text: &str) -> Result<String, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match named_phase(&words) {
        Some(phase) => Ok(phase.to_string()),
        None if words.len() <= 1 => Ok(text.to_string()),
        None => Err(say!("njudge.not_a_process_phase", text)),
    }
}

/// The phase `ROLLBACK <phase>` names, in words too; njudge's turn
/// number is refused, naming the judge's form and the game's phases.
pub fn rollback_phase(text: &str, phases: &[&str]) -> Result<String, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if let Some(phase) = named_phase(&words) {
        return Ok(phase.to_string());
    }
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_digit()) {
        return Err(say!("njudge.rollback_turn_number", phases => phases.join(", ")));
    }
    Ok(text.to_string())
}

/// `PHASE <phase>`: orders given ahead (`preorders`). Any other form is
/// refused with everything it held back, naming the judge's own form.
pub fn not_offered(
    s: &mut Session<'_>,
    line: &Line,
    form: Njudge,
    held: &[String],
) -> Result<(), StoreError> {
    let why = match form {
        Njudge::Phase => return super::preorders::phase_block(s, line, held),
        // A game that is really called "full" is listed, as LIST <game>.
        Njudge::ListFull if lookup::game_by_name(s.tx, "full")?.is_some() => {
            return super::info::list(s, line, Some("full"))
        }
        Njudge::Conditional => {
            say!("njudge.conditional", not_applied => not_applied(held, "IF"))
        }
        Njudge::EndIf => say!("njudge.endif"),
        Njudge::PostalPress => say!("njudge.postal_press"),
        Njudge::Whois | Njudge::Register | Njudge::Send => other_form(form, held),
        _ => master_form(form).unwrap_or_else(|| player_form(form, held)),
    };
    s.reply.refuse(line, why);
    Ok(())
}

/// WHOIS, REGISTER and SEND: what the judge does instead.
fn other_form(form: Njudge, held: &[String]) -> String {
    match form {
        Njudge::Whois => say!("njudge.whois"),
        Njudge::Register => say!("njudge.register", lines => held.len()),
        _ => say!("njudge.send"),
    }
}

/// njudge's Master forms: what the judge does instead.
fn master_form(form: Njudge) -> Option<String> {
    Some(match form {
        Njudge::ForceBegin => say!("njudge.force_begin"),
        Njudge::Unstart => say!("njudge.unstart"),
        Njudge::Promote => say!("njudge.promote"),
        Njudge::BecomeMaster => say!("njudge.become_master"),
        Njudge::LongComment => say!("njudge.long_comment"),
        _ => return None,
    })
}

/// njudge's player forms: what the judge does instead.
fn player_form(form: Njudge, held: &[String]) -> String {
    match form {
        Njudge::Diary => say!("njudge.diary", lines => held.len()),
        Njudge::AmAlso => say!("njudge.am_also"),
        Njudge::PlayerRecord => say!("njudge.player_record"),
        Njudge::Map => say!("njudge.map"),
        Njudge::ListFull => say!("njudge.list_full"),
        _ => say!("njudge.fake_press", lines => held.len()),
    }
}

/// `None of the 2 line(s) under PHASE was applied ...` and the lines.
fn not_applied(held: &[String], under: &str) -> String {
    if held.is_empty() {
        return say!("njudge.nothing_under", under);
    }
    let listed: Vec<String> = held.iter().map(|l| format!("\n    {l}")).collect();
    say!("njudge.none_applied", count => held.len(), under, listed => listed.concat())
}
