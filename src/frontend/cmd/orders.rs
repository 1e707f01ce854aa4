//! Order lines, CLEAR, and the end of every order mail: the power's whole
//! current order set, its status, and the time left.

use super::join;
use crate::engine::map::{Map, Power};
use crate::engine::order::{Order, OrderKind};
use crate::engine::parse::{parse_orders_understood, OrderError, Understood};
use crate::engine::phase::PhaseKind;
use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::clock::{format_span, format_time};
use crate::game::orders::{
    beyond_due, completeness, not_carried_out, order_key, read_stored, Completeness,
};
use crate::game::process::power_orders;
use crate::game::{current, variant_of, Current};
use crate::store::{self, Game, GameState, NewOrder, SeatStatus, StoreError};

/// At most this many order lines are read from one mail (a whole board
/// holds 34 units): a mail of thousands of lines gets a short answer, fast.
pub const MAX_ORDER_LINES: usize = 500;

/// At most this many refused order lines are echoed one by one.
pub const MAX_ECHOED_ERRORS: usize = 50;

/// The signed-on power, its game and current phase: read once for a run of
/// order lines (the session drops it when another command comes).
pub struct Ordering {
    game: Game,
    power: Power,
    cur: Current,
}

/// Refuses an order line, echoing it while fewer than
/// [`MAX_ECHOED_ERRORS`] have been; later ones are only counted.
fn refuse_order(s: &mut Session<'_>, line: &Line, why: impl Into<String>) {
    if s.order_errors < MAX_ECHOED_ERRORS {
        s.reply.refuse(line, why);
    } else {
        s.reply.error = true;
    }
    s.order_errors += 1;
}

/// The signed-on power, its game, and the current phase — or why orders
/// cannot be given.
fn ordering_power(s: &Session<'_>) -> Result<Result<Ordering, String>, StoreError> {
    let (game, power) = match &s.signed {
        Some(Signed::Player {
            game,
            power: Some(p),
            ..
        }) => (game.clone(), *p),
        Some(Signed::Player { power: None, .. }) => {
            return Ok(Err(
                "Orders can be given once the game has started and you have a power.".into(),
            ));
        }
        Some(_) => {
            return Ok(Err(
                "Not understood: Masters and observers give no orders. \
                           Mail HELP for the commands."
                    .into(),
            ));
        }
        None => {
            return Ok(Err(
                "Not understood, and you are not signed on: orders follow \
                           SIGNON <initial><game> <password>. Mail HELP for the commands."
                    .into(),
            ));
        }
    };
    let game = store::game_by_id(s.tx, game.id)?.expect("signed-on game");
    if game.state != GameState::Active && game.state != GameState::Paused {
        return Ok(Err(format!(
            "Game '{}' is not running: no orders are taken.",
            game.name
        )));
    }
    let Some(cur) = current(s.tx, game.id)? else {
        return Ok(Err("The game has no phase to order for.".into()));
    };
    Ok(Ok(Ordering { game, power, cur }))
}

pub fn order_line(s: &mut Session<'_>, line: &Line, text: &str) -> Result<(), StoreError> {
    if s.order_lines >= MAX_ORDER_LINES {
        s.skipped_order_lines += 1;
        return Ok(());
    }
    s.order_lines += 1;
    let ordering = match s.ordering.take() {
        Some(o) => o,
        None => match ordering_power(s)? {
            Ok(o) => o,
            Err(why) => {
                refuse_order(s, line, why);
                return Ok(());
            }
        },
    };
    let result = store_orders(s, line, text, &ordering);
    s.ordering = Some(ordering);
    result
}

/// The countries the signed-on player orders for: all of its bloc's (one
/// in the standard game).
fn played_powers(s: &Session<'_>, power: Power) -> Result<Vec<Power>, StoreError> {
    match &s.signed {
        Some(Signed::Player { seat, .. }) => crate::game::bloc_powers(s.tx, seat),
        _ => Ok(vec![power]),
    }
}

/// Reads one line of orders and stores each order in it.
fn store_orders(
    s: &mut Session<'_>,
    line: &Line,
    text: &str,
    ordering: &Ordering,
) -> Result<(), StoreError> {
    let Ordering { game, power, cur } = ordering;
    let map = Map::standard();
    s.orders_touched = true;
    // A player of several countries orders for all of them: each order
    // goes to the country it reads for.
    let powers = played_powers(s, *power)?;
    let readings: Vec<Vec<_>> = powers
        .iter()
        .map(|&p| parse_orders_understood(map, &cur.position, p, text))
        .collect();
    let mut problems = Vec::new();
    let mut read_as = Vec::new();
    for k in 0..readings[0].len() {
        let (owner, understood) = match reading(&powers, &readings, k) {
            Ok(fits) => fits,
            Err(why) => {
                problems.push(why);
                continue;
            }
        };
        if let Some(why) = refusal(s, game, cur, owner, &understood.order)? {
            problems.push(why);
            continue;
        }
        if understood.reinterpreted {
            read_as.push(understood.order.long(map));
        }
        store_order(s, game, cur, owner, &understood.order, text)?;
    }
    answer_orders(s, line, problems, read_as);
    Ok(())
}

/// Complaints that only say an order is not for one of a player's
/// countries: with several, another country's complaint tells more
/// ("There is already a unit in Moscow." rather than Italy's "Moscow is
/// not one of your home supply centres.").
const NOT_THIS_COUNTRY: [&str; 6] = [
    "; you are ",
    "is not one of your home supply centres",
    "You have no builds to make",
    "You have no builds to waive",
    "You have no units to remove",
    "You have neither builds nor removals due",
];

/// How the `k`th order of a line reads: for the first of the player's
/// countries it fits, or the most telling complaint — not "that unit is
/// someone else's" when the player has several countries.
fn reading(
    powers: &[Power],
    readings: &[Vec<Result<Understood, OrderError>>],
    k: usize,
) -> Result<(Power, Understood), String> {
    let fits = powers
        .iter()
        .zip(readings)
        .find_map(|(&p, r)| r[k].as_ref().ok().map(|u| (p, *u)));
    if let Some(fits) = fits {
        return Ok(fits);
    }
    let errors: Vec<String> = readings
        .iter()
        .filter_map(|r| r[k].as_ref().err().map(|e| e.to_string()))
        .collect();
    let best = errors
        .iter()
        .find(|e| powers.len() == 1 || !NOT_THIS_COUNTRY.iter().any(|f| e.contains(f)))
        .unwrap_or(&errors[0]);
    Err(best.clone())
}

/// Why a valid order will not be carried out as things stand: the power
/// is in civil disorder or out of the game, the order goes into a closed
/// province, or (given the orders `owner` already has) it is a build or
/// removal beyond those due.
fn refusal(
    s: &Session<'_>,
    game: &Game,
    cur: &Current,
    owner: Power,
    order: &Order,
) -> Result<Option<String>, StoreError> {
    let map = Map::standard();
    let disorder = store::seat_by_power(s.tx, game.id, owner.upper())?
        .is_some_and(|seat| seat.status == SeatStatus::CivilDisorder);
    let in_disorder: Vec<Power> = disorder.then_some(owner).into_iter().collect();
    let rules = variant_of(game).rules_at(map, cur.position.phase, &in_disorder);
    if let Some(why) = not_carried_out(map, &rules, order, disorder) {
        return Ok(Some(why));
    }
    if cur.position.phase.kind != PhaseKind::Adjustment {
        return Ok(None);
    }
    let stored = power_orders(s.tx, game.id, &cur.record.phase, &cur.position, owner)?;
    Ok(beyond_due(map, &cur.position, owner, &stored, order))
}

/// Stores an order for `owner`, in place of its earlier order for the
/// same unit (waives are counted: each is an order of its own).
fn store_order(
    s: &mut Session<'_>,
    game: &Game,
    cur: &Current,
    owner: Power,
    order: &Order,
    text: &str,
) -> Result<(), StoreError> {
    let map = Map::standard();
    let waives = if order.kind == OrderKind::Waive {
        store::orders_of_power(s.tx, game.id, &cur.record.phase, owner.upper())?
            .iter()
            .filter(|r| r.unit.starts_with("WAIVE"))
            .count()
    } else {
        0
    };
    let key = order_key(map, order, waives);
    store::set_order(
        s.tx,
        &NewOrder {
            game_id: game.id,
            phase: &cur.record.phase,
            power: owner.upper(),
            unit: &key,
            written: text,
            understood: &order.short(map),
            inbound_id: Some(s.inbound_id),
        },
        s.now,
    )
}

/// The answer to an order line: its refused orders, and how orders that
/// were read another way than written will be carried out (said once they
/// are stored).
fn answer_orders(s: &mut Session<'_>, line: &Line, problems: Vec<String>, read_as: Vec<String>) {
    let read_as = (!read_as.is_empty()).then(|| format!("Read as: {}", read_as.join(" ")));
    match (problems.is_empty(), read_as) {
        (false, read_as) => {
            let mut why = problems.join("\n*** ");
            if let Some(r) = read_as {
                why.push('\n');
                why.push_str(&r);
            }
            refuse_order(s, line, why);
        }
        (true, Some(r)) => s.reply.ok(line, r),
        (true, None) => {}
    }
}

pub fn clear(s: &mut Session<'_>, line: &Line) -> Result<(), StoreError> {
    let Ordering { game, power, cur } = match ordering_power(s)? {
        Ok(o) => o,
        Err(why) => {
            s.reply.refuse(line, why);
            return Ok(());
        }
    };
    let powers = played_powers(s, power)?;
    let mut n = 0;
    for p in powers {
        n += store::clear_orders(s.tx, game.id, &cur.record.phase, p.upper())?;
    }
    s.orders_touched = true;
    s.reply.ok(line, format!("{n} order(s) cleared."));
    Ok(())
}

/// After the last command: start a game that filled up, and close the
/// reply of a signed-on power with its order set and status.
pub fn finish(s: &mut Session<'_>) -> Result<(), StoreError> {
    if s.order_errors > MAX_ECHOED_ERRORS {
        s.reply.refuse_text(format!(
            "{} more order lines were refused; only the first {MAX_ECHOED_ERRORS} \
             refusals are shown.",
            s.order_errors - MAX_ECHOED_ERRORS
        ));
    }
    if s.skipped_order_lines > 0 {
        s.reply.refuse_text(format!(
            "Only the first {MAX_ORDER_LINES} order lines of a mail are read: the other {} \
             were not. Send one order per unit.",
            s.skipped_order_lines
        ));
    }
    for game_id in std::mem::take(&mut s.joined) {
        if let Some(game) = store::game_by_id(s.tx, game_id)? {
            join::start_if_full(s, &game)?;
        }
    }
    let Some(signed) = s.signed.clone() else {
        return Ok(());
    };
    if let Signed::Player {
        game, power: None, ..
    } = &signed
    {
        join::start_if_full(s, game)?;
        return Ok(());
    }
    let Signed::Player {
        game,
        power: Some(power),
        ..
    } = signed
    else {
        return Ok(());
    };
    let game = store::game_by_id(s.tx, game.id)?.expect("game");
    if game.state.is_over() {
        return Ok(());
    }
    let Some(cur) = current(s.tx, game.id)? else {
        return Ok(());
    };
    let powers = played_powers(s, power)?;
    for p in powers {
        let text = order_set_text(s, &game, p, &cur)?;
        s.reply.text(text);
    }
    s.reply.phase = Some(cur.record.phase.clone());
    Ok(())
}

/// "Orders for France in S1901M:" and the rest of the summary block.
pub fn order_set_text(
    s: &Session<'_>,
    game: &Game,
    power: Power,
    cur: &Current,
) -> Result<String, StoreError> {
    let map = Map::standard();
    let texts: Vec<String> =
        store::orders_of_power(s.tx, game.id, &cur.record.phase, power.upper())?
            .into_iter()
            .map(|r| r.understood)
            .collect();
    let orders = read_stored(map, &cur.position, power, &texts);
    let p = cur.position.phase;
    let mut out = vec![format!(
        "Orders for {} in '{}', {} of {} {} ({}):",
        power.name(),
        game.name,
        p.kind_name(),
        p.season_name(),
        p.year,
        cur.record.phase
    )];
    if orders.is_empty() {
        out.push("  (none)".to_string());
    }
    for o in &orders {
        out.push(format!("  {}", o.long(map)));
    }
    out.push(String::new());
    let status = match completeness(map, &cur.position, power, &orders) {
        Completeness::NothingToOrder => {
            format!("Status: {} has nothing to order this phase.", power.name())
        }
        Completeness::Complete => "Status: complete.".to_string(),
        Completeness::Missing(list) => format!(
            "Status: orders missing for {}: {}.",
            list.len(),
            list.join(", ")
        ),
    };
    out.push(status);
    let seat = store::seat_by_power(s.tx, game.id, power.upper())?;
    if seat.is_some_and(|seat| seat.wait) {
        out.push("WAIT is set: the phase will not be processed before the deadline.".to_string());
    }
    if game.state == GameState::Paused {
        out.push("The game is paused: the deadline will be set again when it resumes.".to_string());
    } else if let Some(d) = cur.record.deadline {
        out.push(format!(
            "Deadline: {} ({} from now).",
            format_time(d),
            format_span(d - s.now)
        ));
        if let Some(g) = cur.record.grace_until {
            out.push(format!(
                "Grace ends: {} ({} from now).",
                format_time(g),
                format_span(g - s.now)
            ));
        }
    }
    Ok(out.join("\n"))
}
