//! njudge forms the judge recognises but does not offer: refused as a
//! whole, naming the judge's own form, so that nothing under them is
//! read as something else (orders for the current phase, above all).
//! `PHASE` (orders given ahead) is offered: `preorders` takes it.

use crate::frontend::script::{Line, Njudge};
use crate::frontend::session::Session;
use crate::game::preorders::named_phase;
use crate::store::{self, StoreError};

/// The phase `PROCESS <phase>` names: `F1901M`, or in words as njudge
/// takes it, `fall 1901 retreat`; several words that name no phase are
/// refused.
pub fn process_phase(text: &str) -> Result<String, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match named_phase(&words) {
        Some(phase) => Ok(phase.to_string()),
        None if words.len() <= 1 => Ok(text.to_string()),
        None => Err(format!(
            "'{text}' is not a phase: write PROCESS alone, or name the current phase, as in \
             PROCESS F1901M or PROCESS Fall 1901 Movement."
        )),
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
        return Err(format!(
            "ROLLBACK takes a phase here, not a turn number: write ROLLBACK S1902M (or \
             ROLLBACK Spring 1902 Movement). This game's phases: {}. Nothing was rolled back.",
            phases.join(", ")
        ));
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
        Njudge::ListFull if store::games::game_by_name(s.tx, "full")?.is_some() => {
            return super::info::list(s, line, Some("full"))
        }
        Njudge::Conditional => format!(
            "Conditional orders (IF, ELSE, ENDIF) are not offered by this judge: write \
             plain orders, one a line; a later order for a unit replaces the earlier \
             one. {}",
            not_applied(held, "IF")
        ),
        Njudge::EndIf => "ENDIF with no IF before it. Conditional orders (IF, ELSE, ENDIF) \
                          are not offered by this judge: write plain orders, one a line."
            .to_string(),
        Njudge::PostalPress => "Postal press (published with the next results) is not \
                                offered by this judge: nothing was sent. Send press at once \
                                with BROADCAST (to the whole game) or PRESS TO <initials>, \
                                the message, then ENDPRESS."
            .to_string(),
        Njudge::Whois | Njudge::Register | Njudge::Send => other_form(form, held),
        _ => master_form(form).unwrap_or_else(|| player_form(form, held)),
    };
    s.reply.refuse(line, why);
    Ok(())
}

/// WHOIS, REGISTER and SEND: what the judge does instead.
fn other_form(form: Njudge, held: &[String]) -> String {
    match form {
        Njudge::Whois => "WHOIS is not offered by this judge: it never shows who plays \
                          behind an address or a power. LIST <game> shows a game's seats."
            .to_string(),
        Njudge::Register => format!(
            "No registration is needed on this judge: join a forming game with SIGNON \
             ?<game> <password> (LIST shows the games). The {} line(s) up to END were \
             not read, and nothing was stored.",
            held.len()
        ),
        _ => "SEND is not a command of this judge: to get a file, write GET <file> \
              (GET info, GET press, ...); to send press, PRESS TO <initials> or BROADCAST."
            .to_string(),
    }
}

/// njudge's Master forms: what the judge does instead.
fn master_form(form: Njudge) -> Option<String> {
    let why = match form {
        Njudge::ForceBegin => {
            "FORCE BEGIN is not offered by this judge: a game starts when it has the \
             players its variant needs (chosen at CREATE; the rulebook's games for two \
             to six players are variants). Nothing was changed."
        }
        Njudge::Unstart => {
            "UNSTART is not offered by this judge: the powers stay assigned. To replace \
             a player, EJECT <power>; a newcomer then takes the power over. Nothing was \
             changed."
        }
        Njudge::Promote => {
            "PROMOTE is not offered by this judge: a game has one Master. Nothing was \
             changed."
        }
        Njudge::BecomeMaster => {
            "BECOME MASTER is not offered by this judge: the Master is whoever created \
             the game (CREATE ?<game> <password>). BECOME <power> is the Master's way \
             to order for a power."
        }
        Njudge::LongComment => {
            "SET COMMENT is not offered by this judge: the rest of the mail was taken \
             as the comment's text and not read. Nothing was changed."
        }
        _ => return None,
    };
    Some(why.to_string())
}

/// njudge's player forms: what the judge does instead.
fn player_form(form: Njudge, held: &[String]) -> String {
    let why = match form {
        Njudge::Diary => format!(
            "DIARY is not offered by this judge: nothing was stored, and the {} line(s) \
             of its text were not read. Keep notes to yourself, or send them to your own \
             power in press.",
            held.len()
        ),
        Njudge::AmAlso => "I AM ALSO is not offered by this judge: there is no registration \
                           of addresses. Once signed on, SET ADDRESS <address> changes where \
                           your game's mail goes."
            .to_string(),
        Njudge::PlayerRecord => "This judge keeps no dedication or player records: INFO \
                                 PLAYER and GET DEDICATION are not offered. SUMMARY <game> \
                                 shows who played each power."
            .to_string(),
        Njudge::Map => "MAP is not a command of this judge: write GET MAP <game> for the \
                        picture of a game's position (GET MAP <game> <phase> for a phase)."
            .to_string(),
        Njudge::ListFull => "LIST FULL is not offered by this judge: LIST shows every game, \
                             and LIST <game> one game in full (its settings, its seats and \
                             the position)."
            .to_string(),
        _ => format!(
            "Fake press (press that names other recipients than its true ones) is not \
             offered by this judge: nothing was sent, and the {} line(s) of its text were \
             not read. Write PRESS TO <initials> [GREY] or BROADCAST [GREY], the message, \
             then ENDPRESS.",
            held.len()
        ),
    };
    why
}

/// "None of the 2 line(s) under PHASE was applied ..." and the lines.
fn not_applied(held: &[String], under: &str) -> String {
    if held.is_empty() {
        return format!("No order followed {under}: your orders are as they were.");
    }
    let lines: Vec<String> = held.iter().map(|l| format!("\n    {l}")).collect();
    format!(
        "None of the {} line(s) under {under} was applied, to this phase or any \
         other; your orders are as they were:{}",
        held.len(),
        lines.concat()
    )
}
