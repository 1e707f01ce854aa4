//! A power's current order set: stored as the short form the engine
//! writes, read back through the same parser, and judged complete or not.

use crate::engine::adjustment::builds_possible;
use crate::engine::map::{Map, Power};
use crate::engine::order::{Order, OrderKind};
use crate::engine::parse::parse_order;
use crate::engine::phase::PhaseKind;
use crate::engine::position::Position;
use crate::engine::rules::Rules;
use crate::say;

/// The key a stored order replaces by: the unit's province for unit
/// orders, the place for builds, a numbered slot for waives.
pub fn order_key(map: &Map, order: &Order, waives_so_far: usize) -> String {
    match order.kind {
        OrderKind::Build => format!("BUILD {}", map.abbr(map.province_of(order.location))),
        OrderKind::Waive => format!("WAIVE {}", waives_so_far + 1),
        _ => map.abbr(map.province_of(order.location)).to_string(),
    }
}

/// Reads stored short forms back into orders (those that no longer read,
/// e.g. after a rollback changed the position, are dropped).
pub fn read_stored(
    map: &Map,
    position: &Position,
    power: Power,
    understood: &[String],
) -> Vec<Order> {
    understood
        .iter()
        .filter_map(|text| parse_order(map, position, power, text).ok())
        .collect()
}

/// How complete a power's orders are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completeness {
    /// Nothing to order this phase.
    NothingToOrder,
    Complete,
    /// Unit descriptions ("Army Munich") still without orders, or
    /// "2 builds" / "1 removal" still to give.
    Missing(Vec<String>),
}

pub fn completeness(
    map: &Map,
    position: &Position,
    power: Power,
    orders: &[Order],
) -> Completeness {
    let has_order_for = |p| orders.iter().any(|o| map.province_of(o.location) == p);
    let describe =
        |kind: crate::engine::map::UnitType, loc| format!("{} {}", kind.name(), map.loc_name(loc));
    match position.phase.kind {
        PhaseKind::Movement => {
            let mine: Vec<_> = position.units.iter().filter(|u| u.power == power).collect();
            if mine.is_empty() {
                return Completeness::NothingToOrder;
            }
            let missing: Vec<String> = mine
                .iter()
                .filter(|u| !has_order_for(map.province_of(u.location)))
                .map(|u| describe(u.kind, u.location))
                .collect();
            if missing.is_empty() {
                Completeness::Complete
            } else {
                Completeness::Missing(missing)
            }
        }
        PhaseKind::Retreat => {
            let mine: Vec<_> = position
                .dislodged
                .iter()
                .filter(|d| d.unit.power == power)
                .collect();
            if mine.is_empty() {
                return Completeness::NothingToOrder;
            }
            let missing: Vec<String> = mine
                .iter()
                .filter(|d| !has_order_for(map.province_of(d.unit.location)))
                .map(|d| describe(d.unit.kind, d.unit.location))
                .collect();
            if missing.is_empty() {
                Completeness::Complete
            } else {
                Completeness::Missing(missing)
            }
        }
        PhaseKind::Adjustment => {
            let due = position.adjustment_due(power);
            let (needed, given, word) = if due > 0 {
                let n = builds_possible(map, position, power);
                let given = orders
                    .iter()
                    .filter(|o| matches!(o.kind, OrderKind::Build | OrderKind::Waive))
                    .count();
                (n, given, "build")
            } else if due < 0 {
                let given = orders
                    .iter()
                    .filter(|o| matches!(o.kind, OrderKind::Remove | OrderKind::Disband))
                    .count();
                ((-due) as usize, given, "removal")
            } else {
                (0, 0, "")
            };
            if needed == 0 {
                Completeness::NothingToOrder
            } else if given >= needed {
                Completeness::Complete
            } else {
                let left = needed - given;
                Completeness::Missing(vec![format!(
                    "{left} {word}{}",
                    if left == 1 { "" } else { "s" }
                )])
            }
        }
    }
}

/// "Status: complete." and the like, as an order set ends; when orders
/// are missing, a second line says what becomes of them.
fn status_line(power: Power, position: &Position, done: &Completeness) -> String {
    match done {
        Completeness::NothingToOrder => {
            say!("orders.status_nothing_to_order", power => power.name())
        }
        Completeness::Complete => say!("orders.status_complete"),
        Completeness::Missing(list) => say!("orders.status_missing",
            count => list.len(), list => list.join(", "),
            without => without_orders(position, power)),
    }
}

/// What becomes of what `power` left unordered, when the phase of
/// `position` is processed without it (rules VIII.1, XI, XIV.4).
pub fn without_orders(position: &Position, power: Power) -> String {
    match position.phase.kind {
        PhaseKind::Movement => say!("orders.without_movement"),
        PhaseKind::Retreat => say!("orders.without_retreat"),
        PhaseKind::Adjustment if position.adjustment_due(power) < 0 => {
            say!("orders.without_removal")
        }
        PhaseKind::Adjustment => say!("orders.without_build"),
    }
}

/// What civil disorder means in a phase of `kind` (XIV.3, XIV.4).
pub fn in_disorder(kind: PhaseKind) -> String {
    match kind {
        PhaseKind::Movement => say!("orders.disorder_movement"),
        PhaseKind::Retreat => say!("orders.disorder_retreat"),
        PhaseKind::Adjustment => say!("orders.disorder_adjustment"),
    }
}

/// The status line that ends a power's order set, wherever it is shown:
/// a power in civil disorder has its orders refused (`game::order_entry::refusal`), so
/// "orders missing" would ask for what cannot be given; any other is told
/// how complete its orders are.
pub fn order_status(
    map: &Map,
    position: &Position,
    power: Power,
    orders: &[Order],
    in_disorder: bool,
) -> String {
    if in_disorder {
        return say!("orders.status_in_disorder", power => power.name());
    }
    let done = completeness(map, position, power, orders);
    status_line(power, position, &done)
}

/// "first", "second", ... for the `n`th (from 1) order of a kind.
fn ordinal(n: usize) -> String {
    const WORDS: [&str; 10] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    WORDS
        .get(n.wrapping_sub(1))
        .map_or_else(|| format!("{n}th"), |w| w.to_string())
}

/// Why an adjustment order goes beyond what the power is due, given the
/// orders it already has (an order for the same place replaces, so is not
/// counted), in the words `orders.beyond_due`. None when it fits.
pub fn beyond_due(
    map: &Map,
    position: &Position,
    power: Power,
    stored: &[Order],
    order: &Order,
) -> Option<String> {
    if position.phase.kind != PhaseKind::Adjustment {
        return None;
    }
    let (limit, what, kind): (usize, String, fn(&Order) -> bool) = if is_build(order) {
        let due = position.adjustment_due(power).max(0) as usize;
        let possible = builds_possible(map, position, power);
        let what = say!("orders.due_builds", power => power.name(), due, possible);
        (possible, what, is_build)
    } else if is_removal(order) {
        let due = (-position.adjustment_due(power)).max(0) as usize;
        let what = say!("orders.due_removals", power => power.name(), due);
        (due, what, is_removal)
    } else {
        return None;
    };
    let replaced = |o: &Order| {
        order.kind != OrderKind::Waive
            && o.kind != OrderKind::Waive
            && map.province_of(o.location) == map.province_of(order.location)
    };
    let given = stored.iter().filter(|o| kind(o) && !replaced(o)).count();
    (given >= limit).then(|| {
        say!("orders.beyond_due", what, nth => ordinal(given + 1),
             order => order.long(map).trim_end_matches('.'), builds => is_build(order))
    })
}

fn is_build(o: &Order) -> bool {
    matches!(o.kind, OrderKind::Build | OrderKind::Waive)
}

fn is_removal(o: &Order) -> bool {
    matches!(o.kind, OrderKind::Remove | OrderKind::Disband)
}

/// Why the adjudicator would void a valid order under the game's `rules`:
/// the power plays no part (`disorder`: because it is in civil disorder),
/// or the order sends a unit into, or helps one into, a closed province
/// (neutral Italy in the two-player game's first year). None when the
/// order stands.
pub fn not_carried_out(map: &Map, rules: &Rules, order: &Order, disorder: bool) -> Option<String> {
    let power = order.power;
    if rules.is_inert(power) {
        let power = power.to_string();
        return Some(if disorder {
            say!("orders.inert_in_disorder", power)
        } else {
            say!("orders.inert", power)
        });
    }
    let into = match order.kind {
        OrderKind::Move { to, .. } | OrderKind::Retreat { to } => Some(map.province_of(to)),
        OrderKind::Support { to: Some(to), .. } => Some(map.province_of(to)),
        OrderKind::Convoy { to, .. } => Some(to),
        OrderKind::Build => Some(map.province_of(order.location)),
        _ => None,
    };
    let closed = into.filter(|&p| rules.is_closed(p))?;
    Some(say!("orders.closed", province => map.name(closed)))
}
