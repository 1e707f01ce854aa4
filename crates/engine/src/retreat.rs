//! The retreat phase: each dislodged unit retreats where it may, or is
//! disbanded; two retreats into one province both disband.

use super::map::{Map, Province};
use super::order::{Order, OrderKind};
use super::outcome::Outcome;
use super::position::{Position, Unit};

/// The retreat phase of `position`: the results of the orders, and the
/// units on the board afterwards.
pub fn resolve(
    map: &Map,
    position: &Position,
    orders: &[Order],
) -> (Vec<(Order, Outcome)>, Vec<Unit>) {
    let mut units = position.units.clone();
    let mut results = Vec::new();
    // Per dislodged unit: the order it carries out and where it would go.
    let mut chosen: Vec<Option<(Order, Option<Province>)>> = vec![None; position.dislodged.len()];
    for o in orders {
        let p = map.province_of(o.location);
        let Some(d) = position
            .dislodged
            .iter()
            .position(|d| map.province_of(d.unit.location) == p && d.unit.power == o.power)
        else {
            results.push((*o, Outcome::VOID));
            continue;
        };
        let retreat_to = match o.kind {
            OrderKind::Retreat { to } | OrderKind::Move { to, .. } => {
                retreat_target(map, &position.dislodged[d].retreats, to)
                    .map(|l| Some(map.province_of(l)))
            }
            OrderKind::Disband | OrderKind::Remove => Some(None),
            _ => None,
        };
        match retreat_to {
            // A later order for the unit replaces an earlier one.
            Some(target) => chosen[d] = Some((*o, target)),
            None => results.push((*o, Outcome::VOID | Outcome::DISBANDED)),
        }
    }
    for (d, dis) in position.dislodged.iter().enumerate() {
        match chosen[d] {
            None => {
                let hold = Order::new(
                    dis.unit.power,
                    dis.unit.kind,
                    dis.unit.location,
                    OrderKind::Disband,
                );
                results.push((hold, Outcome::DEFAULTED | Outcome::DISBANDED));
            }
            Some((o, None)) => results.push((o, Outcome::DISBANDED)),
            Some((o, Some(target))) => {
                let clash = chosen
                    .iter()
                    .enumerate()
                    .any(|(e, c)| e != d && matches!(c, Some((_, Some(t))) if *t == target));
                if clash {
                    results.push((o, Outcome::BOUNCE | Outcome::DISBANDED));
                } else {
                    let to = match o.kind {
                        OrderKind::Retreat { to } | OrderKind::Move { to, .. } => {
                            retreat_target(map, &dis.retreats, to).expect("checked above")
                        }
                        _ => unreachable!("a retreat order"),
                    };
                    units.push(Unit {
                        location: to,
                        ..dis.unit
                    });
                    results.push((o, Outcome::NONE));
                }
            }
        }
    }
    (results, units)
}

/// The allowed location a retreat to `to` means: the exact location, or,
/// for a province given without its coast, its one allowed coast.
fn retreat_target(
    map: &Map,
    allowed: &[super::map::Location],
    to: super::map::Location,
) -> Option<super::map::Location> {
    if allowed.contains(&to) {
        return Some(to);
    }
    if map.coast_of(to).is_some() {
        return None;
    }
    let p = map.province_of(to);
    let mut fits = allowed.iter().copied().filter(|&l| map.province_of(l) == p);
    match (fits.next(), fits.next()) {
        (Some(l), None) => Some(l),
        _ => None,
    }
}
