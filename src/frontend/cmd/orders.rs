//! Order lines, CLEAR, and the end of every order mail: the power's whole
//! current order set, its status, and the time left.

use super::join;
use crate::engine::map::{Map, Power};
use crate::engine::parse::parse_orders_understood;
use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::clear_orders::{self, Cleared};
use crate::game::clock::{format_span, format_time};
use crate::game::order_entry::{power_orders, reading, refusal, store_order, Written};
use crate::game::orders::order_status;
use crate::game::{self, current, lookup, Current, Game, GameState, SeatStatus, StoreError};
use crate::say;

/// At most this many order lines are read from one mail (a whole board
/// holds 34 units): a mail of thousands of lines gets a short answer, fast.
pub const MAX_ORDER_LINES: usize = 500;

/// At most this many refused order lines are echoed one by one.
pub const MAX_ECHOED_ERRORS: usize = 50;

/// The signed-on power, its game and current phase: read once for a run of
/// order lines (the session drops it when another command comes).
pub struct Ordering {
    pub game: Game,
    pub power: Power,
    pub cur: Current,
}

/// Refuses an order line, echoing it while fewer than
/// [`MAX_ECHOED_ERRORS`] have been; later ones are only counted.
pub(super) fn refuse_order(s: &mut Session<'_>, line: &Line, why: impl Into<String>) {
    if s.order_errors < MAX_ECHOED_ERRORS {
        s.reply.refuse(line, why);
    } else {
        s.reply.error = true;
    }
    s.order_errors += 1;
}

/// The signed-on power, its game, and the current phase — or why orders
/// cannot be given.
pub fn ordering_power(s: &Session<'_>) -> Result<Result<Ordering, String>, StoreError> {
    let (game, power) = match &s.signed {
        Some(Signed::Player {
            game,
            power: Some(p),
            ..
        }) => (game.clone(), *p),
        Some(Signed::Player { power: None, .. }) => {
            return Ok(Err(say!("orders.no_power_yet")));
        }
        Some(_) => {
            return Ok(Err(say!("orders.not_a_player")));
        }
        None => {
            return Ok(Err(say!("orders.not_signed_on")));
        }
    };
    let game = game::game_by_id(s.tx, game.id)?.unwrap_or(game);
    if game.state != GameState::Active && game.state != GameState::Paused {
        return Ok(Err(say!("orders.not_running", game => &game.name)));
    }
    let Some(cur) = current(s.tx, game.id)? else {
        return Ok(Err(say!("orders.no_phase")));
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
        if let Some(why) = refusal(s.tx, game, cur, owner, &understood.order)? {
            problems.push(why);
            continue;
        }
        if understood.reinterpreted {
            read_as.push(understood.order.long(map));
        }
        let written = Written {
            text,
            inbound_id: Some(s.inbound_id),
        };
        store_order(s.tx, game.id, cur, owner, &understood.order, written, s.now)?;
    }
    answer_orders(s, line, problems, read_as);
    Ok(())
}

/// The answer to an order line: its refused orders, and how orders that
/// were read another way than written will be carried out (said once they
/// are stored).
fn answer_orders(s: &mut Session<'_>, line: &Line, problems: Vec<String>, read_as: Vec<String>) {
    let read_as =
        (!read_as.is_empty()).then(|| say!("orders.read_as", orders => read_as.join(" ")));
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
    let Cleared {
        orders,
        preorders_stay,
    } = clear_orders::clear(s.tx, &game, &cur, &powers)?;
    s.orders_touched = true;
    let listed: String = orders.iter().map(|o| format!("\n    {o}")).collect();
    let said = say!("orders.cleared", phase => &cur.record.phase, count => orders.len(),
        listed, preorders_stay);
    s.reply.ok(line, said);
    Ok(())
}

/// After the last command: start a game that filled up, and close the
/// reply of a signed-on power with its order set and status.
pub fn finish(s: &mut Session<'_>) -> Result<(), StoreError> {
    if s.order_errors > MAX_ECHOED_ERRORS {
        let more = s.order_errors - MAX_ECHOED_ERRORS;
        s.reply
            .refuse_text(say!("orders.more_refused", more, shown => MAX_ECHOED_ERRORS));
    }
    if s.skipped_order_lines > 0 {
        let skipped = s.skipped_order_lines;
        s.reply
            .refuse_text(say!("orders.lines_skipped", read => MAX_ORDER_LINES, skipped));
    }
    for game_id in std::mem::take(&mut s.joined) {
        if let Some(game) = game::game_by_id(s.tx, game_id)? {
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
        seat,
        power: Some(power),
    } = signed
    else {
        return Ok(());
    };
    let seat_id = seat.id;
    let game = game::game_by_id(s.tx, game.id)?.unwrap_or(game);
    if game.state.is_over() {
        return Ok(());
    }
    let Some(cur) = current(s.tx, game.id)? else {
        return Ok(());
    };
    let powers = played_powers(s, power)?;
    for &p in &powers {
        let text = order_set_text(s, &game, p, &cur)?;
        s.reply.text(text);
    }
    if let Some(text) = crate::game::preorders::listing(s.tx, game.id, &powers)? {
        s.reply.text(text);
    }
    s.reply.phase = Some(cur.record.phase.clone());
    copy_to_team(s, seat_id)
}

/// A team's members see every change to their power's orders: the reply
/// to a mail that gave or cleared orders goes to every address of the
/// team, when the whole mail spoke for that power alone (a mail that
/// also spoke for another power or as a Master is the sender's own).
fn copy_to_team(s: &mut Session<'_>, seat_id: i64) -> Result<(), StoreError> {
    if !s.orders_touched || !s.spoke_only_for(seat_id) {
        return Ok(());
    }
    if let Some(seat) = lookup::seat_by_id(s.tx, seat_id)? {
        let team = crate::game::teams::addresses(s.tx, &seat)?;
        s.reply.also_to.extend(team);
    }
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
    let orders = power_orders(s.tx, game.id, &cur.record.phase, &cur.position, power)?;
    let p = cur.position.phase;
    let mut out = vec![
        say!("orders.set_heading", power => power.name(), game => &game.name,
        kind => p.kind_name(), season => p.season_name(), year => p.year,
        phase => &cur.record.phase),
    ];
    if orders.is_empty() {
        out.push(say!("orders.none"));
    }
    for o in &orders {
        out.push(format!("  {}", o.long(map)));
    }
    out.push(String::new());
    let seat = lookup::seat_by_power(s.tx, game.id, power.upper())?;
    let in_disorder = seat
        .as_ref()
        .is_some_and(|seat| seat.status == SeatStatus::CivilDisorder);
    out.push(order_status(
        map,
        &cur.position,
        power,
        &orders,
        in_disorder,
    ));
    if seat.is_some_and(|seat| seat.wait) {
        out.push(say!("orders.wait_set"));
    }
    if game.state == GameState::Paused {
        out.push(say!("orders.paused"));
    } else if let Some(d) = cur.record.deadline {
        let (deadline, left) = (format_time(d), format_span(d - s.now));
        out.push(say!("orders.deadline", deadline, left));
        if let Some(g) = cur.record.grace_beyond_deadline() {
            let (grace, left) = (format_time(g), format_span(g - s.now));
            out.push(say!("orders.grace", grace, left));
        }
    }
    Ok(out.join("\n"))
}
