//! The adjustment phase: builds in free owned home centres, removals, and
//! the civil-disorder rule for powers that remove too few.

use super::map::{LocSet, Location, Map, Power, Terrain, UnitType};
use super::order::{Order, OrderKind};
use super::outcome::Outcome;
use super::position::{Position, Unit};
use super::rules::Rules;

/// The adjustment phase of `position`: the results of the orders, and the
/// units on the board afterwards.
pub fn resolve(
    map: &Map,
    position: &Position,
    orders: &[Order],
    rules: &Rules,
) -> (Vec<(Order, Outcome)>, Vec<Unit>) {
    let mut units = position.units.clone();
    let mut results = Vec::new();
    for power in Power::ALL {
        let due = position.adjustment_due(power);
        // An inert power builds nothing and removes by the civil-disorder rule.
        let inert = rules.is_inert(power);
        let mine = orders.iter().filter(|o| o.power == power && !inert);
        if inert {
            results.extend(
                orders
                    .iter()
                    .filter(|o| o.power == power)
                    .map(|o| (*o, Outcome::VOID)),
            );
        }
        if due > 0 {
            let mut built = 0;
            for o in mine {
                let ok = built < due
                    && match o.kind {
                        OrderKind::Waive => true,
                        OrderKind::Build => {
                            can_build(map, position, &units, o)
                                && !rules.is_closed(map.province_of(o.location))
                        }
                        _ => false,
                    };
                if ok {
                    built += 1;
                    if o.kind == OrderKind::Build {
                        units.push(Unit {
                            power,
                            kind: o.unit,
                            location: o.location,
                        });
                    }
                    results.push((*o, Outcome::NONE));
                } else {
                    results.push((*o, Outcome::VOID));
                }
            }
        } else if due < 0 {
            let mut removed = 0;
            for o in mine {
                let p = map.province_of(o.location);
                let target = units
                    .iter()
                    .position(|u| u.power == power && map.province_of(u.location) == p);
                let is_removal = matches!(o.kind, OrderKind::Remove | OrderKind::Disband);
                match target {
                    Some(t) if is_removal && removed < -due => {
                        units.remove(t);
                        removed += 1;
                        results.push((*o, Outcome::NONE));
                    }
                    _ => results.push((*o, Outcome::VOID)),
                }
            }
            while removed < -due {
                let victim = civil_disorder_victim(map, position, &units, power)
                    .expect("more removals due than units");
                let unit = units.remove(victim);
                let order = Order::new(power, unit.kind, unit.location, OrderKind::Remove);
                results.push((order, Outcome::DEFAULTED));
                removed += 1;
            }
        } else {
            results.extend(mine.map(|o| (*o, Outcome::VOID)));
        }
    }
    (results, units)
}

/// A build stands in an owned home centre of the builder that is empty,
/// on land the unit can stand on (a fleet needs a coast, and the coast
/// named where there are two).
fn can_build(map: &Map, position: &Position, units: &[Unit], o: &Order) -> bool {
    let p = map.province_of(o.location);
    position.is_home(o.power, p)
        && position.owner(p) == Some(o.power)
        && map.can_stand(o.unit, o.location)
        && !units.iter().any(|u| map.province_of(u.location) == p)
}

/// How many builds a power can really make: those due, limited by its free
/// owned home centres.
pub fn builds_possible(map: &Map, position: &Position, power: Power) -> usize {
    builds_possible_with(map, position, power, &Rules::standard())
}

/// [`builds_possible`] under a variant's rules: an inert power builds
/// nothing. (Closed centres are refused when the build is ordered.)
pub fn builds_possible_with(map: &Map, position: &Position, power: Power, rules: &Rules) -> usize {
    let due = position.adjustment_due(power);
    if due <= 0 || rules.is_inert(power) {
        return 0;
    }
    let free = position.homes[power.index()]
        .iter()
        .filter(|&&p| position.owner(p) == Some(power) && position.unit_in(map, p).is_none())
        .count();
    free.min(due as usize)
}

/// The unit the civil-disorder rule removes: the farthest from any of the
/// power's home centres (armies may count sea spaces, as if convoyed;
/// fleets go by sea), fleets before armies at equal distance, then the
/// first by province name.
pub fn civil_disorder_victim(
    map: &Map,
    position: &Position,
    units: &[Unit],
    power: Power,
) -> Option<usize> {
    let homes = &position.homes[power.index()];
    units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.power == power)
        .max_by(|(_, a), (_, b)| {
            let key = |u: &Unit| (distance_home(map, homes, u), u.kind == UnitType::Fleet);
            key(a).cmp(&key(b)).then_with(|| {
                map.name(map.province_of(b.location))
                    .cmp(map.name(map.province_of(a.location)))
            })
        })
        .map(|(i, _)| i)
}

/// Moves from the unit to the nearest of `homes`.
fn distance_home(map: &Map, homes: &[super::map::Province], unit: &Unit) -> u32 {
    let mut home_locs = LocSet::default();
    for &h in homes {
        home_locs.insert(h.index());
        for c in map.coasts(h) {
            home_locs.insert(c.index());
        }
    }
    let mut seen = LocSet::default();
    let start = match unit.kind {
        UnitType::Army => map.province_of(unit.location).location(),
        UnitType::Fleet => unit.location,
    };
    seen.insert(start.index());
    let mut frontier = vec![start];
    let mut distance = 0;
    while !frontier.is_empty() {
        if frontier.iter().any(|l| home_locs.contains(l.index())) {
            return distance;
        }
        distance += 1;
        let mut next = Vec::new();
        for l in frontier {
            let neighbours = match unit.kind {
                UnitType::Army => {
                    let p = map.province_of(l);
                    LocSet(map.army_neighbours(p).0 | map.fleet_province_neighbours(p).0)
                }
                UnitType::Fleet => map.fleet_neighbours(l),
            };
            for n in neighbours.iter() {
                let loc = Location(n as u8);
                if map.terrain(map.province_of(loc)) != Terrain::Impassable && !seen.contains(n) {
                    seen.insert(n);
                    next.push(loc);
                }
            }
        }
        frontier = next;
    }
    u32::MAX
}
