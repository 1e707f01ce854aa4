//! Why an order came to nothing: the words after a `(*void*)` in the
//! results mail, so that no order is voided without a word.

use crate::engine::map::{Map, Power};
use crate::engine::order::{Order, OrderKind};
use crate::engine::outcome::Outcome;
use crate::engine::phase::PhaseKind;
use crate::engine::position::Position;

/// The reason for a void `order`, read from the position it was given in
/// (`before`) and the powers in civil disorder, or for any other tag on
/// the line of a power in civil disorder; None when there is nothing to
/// explain.
pub fn void_reason(
    map: &Map,
    before: &Position,
    in_disorder: &[Power],
    order: &Order,
    outcome: Outcome,
) -> Option<String> {
    let power = order.power;
    let disorder = in_disorder.contains(&power);
    if !outcome.contains(Outcome::VOID) {
        // A unit held, was destroyed or removed by the rules: say why.
        return (disorder && !outcome.is_empty()).then(|| format!("{power} is in civil disorder"));
    }
    if disorder {
        return Some(format!(
            "{power} is in civil disorder: its orders are not carried out"
        ));
    }
    let reason = match before.phase.kind {
        PhaseKind::Adjustment => adjustment_reason(map, before, order),
        PhaseKind::Retreat => retreat_reason(map, before, order),
        PhaseKind::Movement => movement_reason(map, before, order),
    };
    Some(reason.to_string())
}

fn adjustment_reason(map: &Map, before: &Position, order: &Order) -> &'static str {
    let due = before.adjustment_due(order.power);
    let p = map.province_of(order.location);
    match order.kind {
        OrderKind::Build | OrderKind::Waive if due <= 0 => "no builds were due",
        OrderKind::Build
            if !before.is_home(order.power, p)
                || before.owner(p) != Some(order.power)
                || before.unit_in(map, p).is_some() =>
        {
            "no build is possible there"
        }
        OrderKind::Build | OrderKind::Waive => "more builds than were due",
        OrderKind::Remove | OrderKind::Disband if due >= 0 => "no removals were due",
        OrderKind::Remove | OrderKind::Disband
            if before
                .unit_in(map, p)
                .is_none_or(|u| u.power != order.power) =>
        {
            "no such unit to remove"
        }
        OrderKind::Remove | OrderKind::Disband => "more removals than were due",
        _ => "only builds, removals and waives count in the adjustment phase",
    }
}

fn retreat_reason(map: &Map, before: &Position, order: &Order) -> &'static str {
    let p = map.province_of(order.location);
    let dislodged = before
        .dislodged
        .iter()
        .any(|d| map.province_of(d.unit.location) == p && d.unit.power == order.power);
    if dislodged {
        "the unit cannot retreat there"
    } else {
        "no dislodged unit of the power's there"
    }
}

fn movement_reason(map: &Map, before: &Position, order: &Order) -> &'static str {
    let p = map.province_of(order.location);
    if before
        .unit_in(map, p)
        .is_none_or(|u| u.power != order.power)
    {
        return "no unit of the power's there";
    }
    match order.kind {
        OrderKind::Support { .. } => "the unit supported was not ordered so, or cannot be reached",
        OrderKind::Convoy { .. } => "the army convoyed was not ordered so",
        OrderKind::Move { .. } => "the move is impossible (no such route, or a closed province)",
        _ => "the order cannot be carried out",
    }
}
