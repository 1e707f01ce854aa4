//! njudge's `PHASE <phase>`: the orders under it are for a later phase.
//! They are checked now for what can be checked without that phase's
//! position (each line an order's shape, the map's provinces) and stored
//! as written, after the power's earlier blocks for that phase (`CLEAR`
//! in the block clears those first);
//! `game::preorders` enters them when the phase begins. `PHASE` naming
//! the current phase reads the orders under it as usual, as njudge does.

use super::orders::{ordering_power, refuse_order, MAX_ECHOED_ERRORS, MAX_ORDER_LINES};
use crate::engine::map::Map;
use crate::engine::parse::check_words;
use crate::engine::phase::Phase;
use crate::frontend::script::{Command, Line};
use crate::frontend::session::Session;
use crate::game::orders_ahead::{store_ahead, Stored};
use crate::game::preorders::{named_phase, phase_words};
use crate::game::StoreError;
use crate::say;

/// njudge takes orders ahead for up to five years.
const MAX_YEARS_AHEAD: u16 = 5;

/// The block a `PHASE` line opened, with the lines it `held`: read as
/// orders now (the current phase), stored (a later one), or refused with
/// every line it held (no phase, a past one, too far ahead, nobody
/// signed on as a power).
pub fn phase_block(s: &mut Session<'_>, line: &Line, held: &[String]) -> Result<(), StoreError> {
    let ordering = match ordering_power(s)? {
        Ok(o) => o,
        Err(why) => {
            refuse(s, line, why, held);
            return Ok(());
        }
    };
    let words: Vec<&str> = line.text.split_whitespace().skip(1).collect();
    let Some(named) = named_phase(&words) else {
        let why = say!("preorders.names_no_phase", words => words.join(" "));
        refuse(s, line, why, held);
        return Ok(());
    };
    let now = ordering.cur.position.phase;
    if named == now {
        s.reply.ok(
            line,
            say!("preorders.current_phase", phase => now.to_string()),
        );
        return read_held_orders(s, line, held);
    }
    if let Some(why) = not_ahead(named, now) {
        refuse(s, line, why, held);
        return Ok(());
    }
    store_block(s, line, &ordering, named, held)
}

/// Why orders cannot be given ahead for `named` while the game is at
/// `now`: it has passed, or lies too far ahead.
fn not_ahead(named: Phase, now: Phase) -> Option<String> {
    if named < now {
        return Some(say!("preorders.passed", named => named.to_string(),
            at => phase_words(named), now => now.to_string()));
    }
    (named.year > now.year + MAX_YEARS_AHEAD).then(|| {
        say!("preorders.too_far", named => named.to_string(), years => MAX_YEARS_AHEAD,
            now => now.to_string())
    })
}

/// Refuses the `PHASE` line and says that nothing under it was stored.
fn refuse(s: &mut Session<'_>, line: &Line, why: impl Into<String>, held: &[String]) {
    let mut why = why.into();
    if held.is_empty() {
        why.push(' ');
        why.push_str(&say!("preorders.nothing_followed"));
    } else {
        why.push(' ');
        why.push_str(&say!("preorders.none_stored", count => held.len()));
        // Quoted as refused orders are: the first MAX_ECHOED_ERRORS, the
        // rest counted, so a huge block cannot make a huge reply.
        for l in held.iter().take(MAX_ECHOED_ERRORS) {
            why.push_str(&format!("\n    {l}"));
        }
        if held.len() > MAX_ECHOED_ERRORS {
            let more = held.len() - MAX_ECHOED_ERRORS;
            why.push_str("\n    ");
            why.push_str(&say!("preorders.more_lines", more));
        }
    }
    s.reply.refuse(line, why);
}

/// The orders a `PHASE` line held back, read as orders for now; a
/// `CLEAR` among them clears the current orders, as it does outside.
fn read_held_orders(s: &mut Session<'_>, line: &Line, held: &[String]) -> Result<(), StoreError> {
    for text in held {
        let order_line = Line {
            number: line.number,
            text: text.clone(),
            command: Command::Other(text.clone()),
        };
        if is_clear(text) {
            super::orders::clear(s, &order_line)?;
        } else {
            super::orders::order_line(s, &order_line, text)?;
        }
    }
    Ok(())
}

/// Checks the lines of a block for a later phase, refuses those whose
/// words are no order, and adds the others to the power's pre-orders for
/// that phase (njudge: a second block adds to the first). `CLEAR` in the
/// block clears that phase's pre-orders first, and drops the lines before
/// it; a block with nothing kept and no `CLEAR` leaves them as they were.
/// Its lines count against the mail's [`MAX_ORDER_LINES`] as mailed
/// orders do, and its refusals are echoed as theirs are.
fn store_block(
    s: &mut Session<'_>,
    line: &Line,
    ordering: &super::orders::Ordering,
    phase: Phase,
    held: &[String],
) -> Result<(), StoreError> {
    let map = Map::standard();
    let clear = held.iter().rposition(|l| is_clear(l));
    let after_clear = clear.map_or(0, |k| k + 1);
    let mut kept = Vec::new();
    for text in &held[after_clear..] {
        if s.order_lines >= MAX_ORDER_LINES {
            s.skipped_order_lines += 1;
            continue;
        }
        s.order_lines += 1;
        let problems: Vec<String> = check_words(map, phase, text)
            .into_iter()
            .filter_map(|r| r.err().map(|e| e.to_string()))
            .collect();
        if problems.is_empty() {
            kept.push(text.clone());
            continue;
        }
        let bad = Line {
            number: line.number,
            text: text.clone(),
            command: Command::Other(text.clone()),
        };
        let why = say!("preorders.not_stored_for", problems => problems.join("\n*** "),
            phase => phase.to_string());
        refuse_order(s, &bad, why);
    }
    let (game, power) = (&ordering.game, ordering.power);
    if kept.is_empty() && clear.is_none() {
        let text = say!("preorders.nothing_stored", phase => phase.to_string(),
            held => !held.is_empty(), power => power.name());
        s.reply.ok(line, text);
        return Ok(());
    }
    let stored = store_ahead(s.tx, game, (power, phase), &kept, clear.is_some(), s.now)?;
    let text = stored_text(phase, power.name(), &kept, stored);
    s.reply.ok(line, text);
    Ok(())
}

/// `CLEAR` on a line of its own.
fn is_clear(line: &str) -> bool {
    line.trim().eq_ignore_ascii_case("CLEAR")
}

/// What the reply says of a block stored: the lines, what became of those
/// stored before (`cleared` by its CLEAR, or `kept`), and when they are
/// used.
fn stored_text(phase: Phase, power: &str, lines: &[String], stored: Stored) -> String {
    let Stored { cleared, kept } = stored;
    let cleared_text = say!("preorders.cleared", phase => phase.to_string(), power,
        count => cleared);
    if lines.is_empty() {
        return cleared_text;
    }
    let (first, added_after) = match cleared {
        0 => (String::new(), kept),
        _ => (format!("{cleared_text}\n"), 0),
    };
    let listed: String = lines.iter().map(|l| format!("\n    {l}")).collect();
    say!("preorders.stored", first, phase => phase_words(phase), power, listed,
        added_after, phase_code => phase.to_string())
}
