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
use crate::game::preorders::{named_phase, phase_words};
use crate::store::{self, StoreError};

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
        let why = format!(
            "'{}' names no phase: write PHASE F1901R, PHASE Fall 1901 Retreat, \
             PHASE Winter 1901 or PHASE Spring 1902 Movement.",
            words.join(" ")
        );
        refuse(s, line, why, held);
        return Ok(());
    };
    let now = ordering.cur.position.phase;
    if named == now {
        s.reply.ok(
            line,
            format!("{now} is the current phase: the orders under PHASE are read as usual."),
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
        return Some(format!(
            "{named} has passed: '{}' is at {now}. Orders for {now} need no PHASE line.",
            phase_words(named)
        ));
    }
    (named.year > now.year + MAX_YEARS_AHEAD).then(|| {
        format!(
            "{named} is more than {MAX_YEARS_AHEAD} years ahead of {now}: orders can be \
             given ahead for up to {MAX_YEARS_AHEAD} years."
        )
    })
}

/// Refuses the `PHASE` line and says that nothing under it was stored.
fn refuse(s: &mut Session<'_>, line: &Line, why: impl Into<String>, held: &[String]) {
    let mut why = why.into();
    if held.is_empty() {
        why.push_str(" No order followed PHASE.");
    } else {
        why.push_str(&format!(
            " None of the {} line(s) under it was stored or applied:",
            held.len()
        ));
        // Quoted as refused orders are: the first MAX_ECHOED_ERRORS, the
        // rest counted, so a huge block cannot make a huge reply.
        for l in held.iter().take(MAX_ECHOED_ERRORS) {
            why.push_str(&format!("\n    {l}"));
        }
        if held.len() > MAX_ECHOED_ERRORS {
            why.push_str(&format!(
                "\n    ... and {} more line(s).",
                held.len() - MAX_ECHOED_ERRORS
            ));
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
        let why = format!("{} Not stored for {phase}.", problems.join("\n*** "));
        refuse_order(s, &bad, why);
    }
    let (game, power) = (&ordering.game, ordering.power);
    if kept.is_empty() && clear.is_none() {
        let why = if held.is_empty() {
            "no order followed PHASE"
        } else {
            "no line under PHASE was kept"
        };
        let text = format!(
            "Nothing stored for {phase}: {why}, so what was stored before for {} for it, \
             if anything, stands.",
            power.name()
        );
        s.reply.ok(line, text);
        return Ok(());
    }
    let key = phase.to_string();
    let before = if clear.is_some() {
        store::preorders::replace_preorders(s.tx, game.id, power.upper(), &key, &[], s.now)?
    } else {
        0
    };
    let kept_before =
        store::preorders::add_preorders(s.tx, game.id, power.upper(), &key, &kept, s.now)?;
    let text = stored_text(phase, power.name(), &kept, (before, kept_before));
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
fn stored_text(
    phase: Phase,
    power: &str,
    lines: &[String],
    (cleared, kept): (usize, usize),
) -> String {
    let cleared_text = match cleared {
        0 => format!("Pre-orders for {phase} cleared: none is stored for {power}."),
        n => format!(
            "Pre-orders for {phase} cleared: the {n} line(s) stored before for {power} are \
             removed."
        ),
    };
    if lines.is_empty() {
        return cleared_text;
    }
    let (first, added) = match (cleared, kept) {
        (0, 0) => (String::new(), String::new()),
        (0, n) => (
            String::new(),
            format!("They are added after the {n} line(s) stored before for {phase}. "),
        ),
        _ => (format!("{cleared_text}\n"), String::new()),
    };
    let shown: Vec<String> = lines.iter().map(|l| format!("\n    {l}")).collect();
    format!(
        "{first}Stored for {} for {power}:{}\n{added}They are entered when that phase \
         begins, if it does; each is checked against the position then, and you are mailed \
         which were entered.",
        phase_words(phase),
        shown.concat()
    )
}
