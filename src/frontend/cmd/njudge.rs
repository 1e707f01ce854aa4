//! njudge forms the judge recognises but does not offer: refused as a
//! whole, naming the judge's own form, so that nothing under them is
//! read as something else (orders for the current phase, above all).

use crate::frontend::script::{Line, Njudge};
use crate::frontend::session::Session;

/// Refuses `line` and everything it held back.
pub fn not_offered(s: &mut Session<'_>, line: &Line, form: Njudge, held: &[String]) {
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
    };
    s.reply.refuse(line, why);
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
