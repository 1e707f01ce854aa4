//! What the mail and daemon benchmarks share: legal opening orders, a
//! seeded random number generator, and games played on at random so that
//! the benches meet varied positions, as a judge does, not one position a
//! thousand times (which the position cache would read once). (Each bench
//! uses part of it.)
#![allow(dead_code)]

use judge::engine::adjudicate::adjudicate;
use judge::engine::map::{Location, Map, Power, UnitType};
use judge::engine::order::{Order, OrderKind};
use judge::engine::phase::PhaseKind;
use judge::engine::position::{Position, Unit};

/// Legal opening orders per unit, as the engine's short form.
pub const OPENINGS: &[(Power, &[&str])] = &[
    (
        Power::Austria,
        &["A VIE - GAL", "A VIE - TRI", "A VIE - BOH"],
    ),
    (
        Power::Austria,
        &["A BUD - SER", "A BUD - RUM", "A BUD - GAL"],
    ),
    (Power::Austria, &["F TRI - ALB", "F TRI - VEN", "F TRI H"]),
    (Power::England, &["F LON - NTH", "F LON - ENG"]),
    (Power::England, &["F EDI - NWG", "F EDI - NTH"]),
    (
        Power::England,
        &["A LVP - YOR", "A LVP - EDI", "A LVP - WAL"],
    ),
    (
        Power::France,
        &["A PAR - BUR", "A PAR - PIC", "A PAR - GAS"],
    ),
    (
        Power::France,
        &["A MAR - SPA", "A MAR S A PAR - BUR", "A MAR - BUR"],
    ),
    (
        Power::France,
        &["F BRE - MAO", "F BRE - ENG", "F BRE - PIC"],
    ),
    (
        Power::Germany,
        &["A BER - KIE", "A BER - PRU", "A BER - SIL"],
    ),
    (
        Power::Germany,
        &["A MUN - RUH", "A MUN - BUR", "A MUN - TYR"],
    ),
    (
        Power::Germany,
        &["F KIE - DEN", "F KIE - HOL", "F KIE - BAL"],
    ),
    (Power::Italy, &["A ROM - APU", "A ROM - VEN", "A ROM - TUS"]),
    (Power::Italy, &["A VEN - TYR", "A VEN - PIE", "A VEN H"]),
    (Power::Italy, &["F NAP - ION", "F NAP - TYS"]),
    (
        Power::Russia,
        &["A MOS - UKR", "A MOS - SEV", "A MOS - STP"],
    ),
    (
        Power::Russia,
        &["A WAR - GAL", "A WAR - UKR", "A WAR - SIL"],
    ),
    (Power::Russia, &["F SEV - BLA", "F SEV - RUM"]),
    (Power::Russia, &["F STP/SC - BOT", "F STP/SC - FIN"]),
    (Power::Turkey, &["A CON - BUL", "A CON H"]),
    (Power::Turkey, &["A SMY - ARM", "A SMY - CON"]),
    (Power::Turkey, &["F ANK - BLA", "F ANK - CON"]),
];

/// xorshift64*: the same seed gives the same numbers.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// Where a unit can be ordered to in one step.
pub fn neighbours(map: &Map, unit: &Unit) -> Vec<Location> {
    let set = match unit.kind {
        UnitType::Army => map.army_neighbours(map.province_of(unit.location)),
        UnitType::Fleet => map.fleet_neighbours(unit.location),
    };
    set.iter().map(|i| Location(i as u8)).collect()
}

/// `unit` supporting `other` to hold, if it can reach `other`'s province.
pub fn support_hold(map: &Map, unit: &Unit, other: &Unit) -> Option<Order> {
    let p = map.province_of(other.location);
    (p != map.province_of(unit.location) && map.reaches(unit.kind, unit.location, p)).then(|| {
        Order::new(
            unit.power,
            unit.kind,
            unit.location,
            OrderKind::Support {
                unit: other.kind,
                from: p,
                to: None,
            },
        )
    })
}

/// One legal order for each of `power`'s units in a movement phase: a
/// hold (one in five), a move to a neighbour (about half), or a support of
/// a neighbouring unit's hold (where there is one; else a move).
pub fn movement_orders(map: &Map, pos: &Position, power: Power, rng: &mut Rng) -> Vec<Order> {
    let mut orders = Vec::new();
    for unit in pos.units.iter().filter(|u| u.power == power) {
        let roll = rng.below(10);
        let supports: Vec<Order> = pos
            .units
            .iter()
            .filter_map(|other| support_hold(map, unit, other))
            .collect();
        let order = if roll < 2 {
            Order::new(power, unit.kind, unit.location, OrderKind::Hold)
        } else if roll < 7 || supports.is_empty() {
            let to = neighbours(map, unit);
            Order::new(
                power,
                unit.kind,
                unit.location,
                OrderKind::Move {
                    to: to[rng.below(to.len())],
                    via_convoy: false,
                },
            )
        } else {
            supports[rng.below(supports.len())]
        };
        orders.push(order);
    }
    orders
}

/// The position after `movement_phases` movement phases of random play
/// from the standard start (every power ordering each unit as
/// [`movement_orders`] does; dislodged units disbanded, no builds, removals
/// as in civil disorder, as when nobody orders a retreat or adjustment):
/// again the position of a movement phase.
pub fn played_position(map: &Map, movement_phases: usize, rng: &mut Rng) -> Position {
    let mut pos = Position::standard_start(map);
    let mut played = 0;
    loop {
        if pos.phase.kind == PhaseKind::Movement {
            if played == movement_phases {
                return pos;
            }
            played += 1;
            let orders: Vec<Order> = Power::ALL
                .into_iter()
                .flat_map(|p| movement_orders(map, &pos, p, rng))
                .collect();
            pos = adjudicate(map, &pos, &orders).next;
        } else {
            pos = adjudicate(map, &pos, &[]).next;
        }
    }
}

/// Every position of a game of `phases` phases from the standard start,
/// in turn: movement as [`movement_orders`] orders it, dislodged units
/// disbanded, and each power building armies in its free home centres as
/// far as its centres allow (removals as in civil disorder): a game's
/// course, to draw its animated summary.
pub fn played_game(map: &Map, phases: usize, rng: &mut Rng) -> Vec<Position> {
    let mut positions = vec![Position::standard_start(map)];
    while positions.len() < phases {
        let pos = positions.last().expect("the start");
        let orders: Vec<Order> = match pos.phase.kind {
            PhaseKind::Movement => Power::ALL
                .into_iter()
                .flat_map(|p| movement_orders(map, pos, p, rng))
                .collect(),
            PhaseKind::Adjustment => Power::ALL
                .into_iter()
                .flat_map(|p| builds(map, pos, p))
                .collect(),
            PhaseKind::Retreat => Vec::new(),
        };
        let next = adjudicate(map, pos, &orders).next;
        positions.push(next);
    }
    positions
}

/// An army built in each of `power`'s free home centres it still owns,
/// as many as its centres allow.
fn builds(map: &Map, pos: &Position, power: Power) -> Vec<Order> {
    let due = usize::try_from(pos.adjustment_due(power)).unwrap_or(0);
    map.home_centres(power)
        .iter()
        .filter(|&&home| pos.owner(home) == Some(power) && pos.unit_in(map, home).is_none())
        .take(due)
        .map(|home| Order::new(power, UnitType::Army, home.location(), OrderKind::Build))
        .collect()
}
