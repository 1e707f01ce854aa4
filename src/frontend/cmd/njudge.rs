//! njudge forms the judge recognises but does not offer: refused as a
//! whole, naming the judge's own form, so that nothing under them is
//! read as something else (orders for the current phase, above all).

use crate::engine::phase::{Phase, PhaseKind, Season};
use crate::frontend::script::{Command, Line, Njudge};
use crate::frontend::session::Session;
use crate::store::StoreError;

/// `PHASE <phase>` naming the current phase reads the orders under it as
/// usual (as njudge does); any other form, or a later phase, is refused
/// with everything it held back.
pub fn not_offered(
    s: &mut Session<'_>,
    line: &Line,
    form: Njudge,
    held: &[String],
) -> Result<(), StoreError> {
    if form == Njudge::Phase {
        if let Some(phase) = current_phase_named(s, line)? {
            s.reply.ok(
                line,
                format!("{phase} is the current phase: the orders under PHASE are read as usual."),
            );
            return read_held_orders(s, line, held);
        }
    }
    refuse(s, line, form, held);
    Ok(())
}

/// The orders a `PHASE` line held back, read as orders for now.
fn read_held_orders(s: &mut Session<'_>, line: &Line, held: &[String]) -> Result<(), StoreError> {
    for text in held {
        let order_line = Line {
            number: line.number,
            text: text.clone(),
            command: Command::Other(text.clone()),
        };
        super::orders::order_line(s, &order_line, text)?;
    }
    Ok(())
}

/// The phase a `PHASE` line names, when it is the signed-on game's
/// current phase.
fn current_phase_named(s: &mut Session<'_>, line: &Line) -> Result<Option<Phase>, StoreError> {
    let Some(signed) = &s.signed else {
        return Ok(None);
    };
    let words: Vec<&str> = line.text.split_whitespace().skip(1).collect();
    let Some(named) = named_phase(&words) else {
        return Ok(None);
    };
    let game_id = signed.game().id;
    let current = crate::store::current_phase(s.tx, game_id)?;
    Ok(current
        .and_then(|c| c.phase.parse::<Phase>().ok())
        .filter(|c| *c == named))
}

/// A phase as njudge players write it: `F1901M`, `Fall 1901 Movement`,
/// `Spring 1901` (movement), `Winter 1901` (adjustments), `F 1901 R`.
pub fn named_phase(words: &[&str]) -> Option<Phase> {
    if let Ok(p) = words.concat().parse::<Phase>() {
        return Some(p);
    }
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let (season, year, kind) = match &lower[..] {
        [season, year] => (season, year, None),
        [season, year, kind] => (season, year, Some(kind.as_str())),
        _ => return None,
    };
    let season = match season.as_str() {
        "spring" | "s" => Season::Spring,
        "fall" | "autumn" | "f" => Season::Fall,
        "winter" | "w" => Season::Winter,
        _ => return None,
    };
    let year: u16 = year.parse().ok()?;
    let kind = match (kind, season) {
        (None, Season::Winter) => PhaseKind::Adjustment,
        (None, _) => PhaseKind::Movement,
        (Some("movement" | "moves" | "move" | "m"), _) => PhaseKind::Movement,
        (Some("retreat" | "retreats" | "r"), _) => PhaseKind::Retreat,
        (Some("adjustment" | "adjustments" | "builds" | "build" | "a" | "b"), _) => {
            PhaseKind::Adjustment
        }
        _ => return None,
    };
    let phase = Phase::new(season, year, kind);
    // Only the phases a game has: Winter is adjustments, the others not.
    let text = format!("{phase}");
    text.parse::<Phase>().ok()
}

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

/// Refuses `line` and everything it held back.
fn refuse(s: &mut Session<'_>, line: &Line, form: Njudge, held: &[String]) {
    let why = match form {
        Njudge::Phase => format!(
            "Orders for a later phase (PHASE) are not offered by this judge: it takes \
             orders for the current phase only; send them without PHASE once that phase \
             has begun (its results mail says so). {}",
            not_applied(held, "PHASE")
        ),
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

#[cfg(test)]
mod tests {
    use super::named_phase;

    fn named(text: &str) -> Option<String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        named_phase(&words).map(|p| p.to_string())
    }

    #[test]
    fn phases_as_njudge_players_write_them() {
        assert_eq!(named("F1901M").as_deref(), Some("F1901M"));
        assert_eq!(named("f 1901 r").as_deref(), Some("F1901R"));
        assert_eq!(named("Fall 1901 Movement").as_deref(), Some("F1901M"));
        assert_eq!(named("Spring 1902").as_deref(), Some("S1902M"));
        assert_eq!(named("Autumn 1901 Retreats").as_deref(), Some("F1901R"));
        assert_eq!(named("Winter 1901").as_deref(), Some("W1901A"));
        assert_eq!(named("Winter 1901 Builds").as_deref(), Some("W1901A"));
        assert_eq!(named("Winter 1901 Movement"), None);
        assert_eq!(named("Spring 1901 Adjustments"), None);
        assert_eq!(named("next"), None);
    }
}
