//! One phase in, the next position out: runs the phase's adjudicator, then
//! moves the calendar on, updating centre ownership after Fall and skipping
//! the retreat and adjustment phases in which nobody has anything to do.

use super::adjustment;
use super::map::{Map, Power};
use super::movement;
use super::order::Order;
use super::outcome::Outcome;
use super::phase::{PhaseKind, Season};
use super::position::{Position, Unit};
use super::retreat;
use super::rules::Rules;

/// Centres needed to win the standard game.
pub const VICTORY_CENTRES: usize = 18;

pub struct Adjudication {
    /// Every order with its result: all units' orders in a movement phase
    /// (a hold for those with none), then orders that named no unit.
    pub orders: Vec<(Order, Outcome)>,
    /// The position at the start of the next phase that needs orders.
    pub next: Position,
    /// Units dislodged in a movement phase that had nowhere to go.
    pub destroyed: Vec<Unit>,
    /// A power with at least 18 centres after a Fall phase.
    pub winner: Option<Power>,
}

/// Adjudicates `position`'s phase with `orders` (at most one per unit is
/// used: the last).
pub fn adjudicate(map: &Map, position: &Position, orders: &[Order]) -> Adjudication {
    adjudicate_with(map, position, orders, &Rules::standard())
}

/// [`adjudicate`] under a variant's or situation's [`Rules`].
pub fn adjudicate_with(
    map: &Map,
    position: &Position,
    orders: &[Order],
    rules: &Rules,
) -> Adjudication {
    // Units and dislodged units are filled in below; nothing to copy.
    let mut next = Position {
        phase: position.phase.successor(),
        units: Vec::new(),
        owners: position.owners.clone(),
        homes: position.homes.clone(),
        dislodged: Vec::new(),
    };
    let mut destroyed = Vec::new();
    let results = match position.phase.kind {
        PhaseKind::Movement => {
            let m = movement::resolve_with(map, &position.units, orders, rules);
            next.units = m.units;
            next.dislodged = m.dislodged;
            destroyed = m.destroyed;
            m.orders
        }
        PhaseKind::Retreat => {
            let (results, units) = retreat::resolve(map, position, orders);
            next.units = units;
            results
        }
        PhaseKind::Adjustment => {
            let (results, units) = adjustment::resolve(map, position, orders, rules);
            next.units = units;
            results
        }
    };
    let winner = advance(map, &mut next, rules);
    Adjudication {
        orders: results,
        next,
        destroyed,
        winner,
    }
}

/// Brings `next` (whose phase is the plain successor) to the first phase
/// in which somebody has something to do, updating ownership on the way
/// out of Fall. Returns the winner, if ownership made one.
fn advance(map: &Map, next: &mut Position, rules: &Rules) -> Option<Power> {
    let mut winner = None;
    loop {
        match next.phase.kind {
            PhaseKind::Retreat if next.dislodged.is_empty() => {}
            PhaseKind::Adjustment => {
                // Entering the winter from the Fall: ownership changes now.
                if next.phase.season == Season::Winter {
                    update_ownership(map, next);
                    winner = Power::ALL
                        .into_iter()
                        .find(|&p| next.centre_count(p) >= VICTORY_CENTRES);
                }
                if has_adjustments(map, next, rules) {
                    return winner;
                }
            }
            _ => return winner,
        }
        next.phase = next.phase.successor();
    }
}

fn has_adjustments(map: &Map, position: &Position, rules: &Rules) -> bool {
    Power::ALL.into_iter().any(|p| {
        position.adjustment_due(p) < 0
            || adjustment::builds_possible_with(map, position, p, rules) > 0
    })
}

/// After Fall: every centre with a unit in it belongs to that unit's power.
pub fn update_ownership(map: &Map, position: &mut Position) {
    for u in &position.units {
        let p = map.province_of(u.location);
        if map.is_supply_centre(p) {
            position.owners[p.index()] = Some(u.power);
        }
    }
}
