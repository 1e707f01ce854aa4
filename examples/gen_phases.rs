//! Writes movement phases of random plausible games as JSON Lines, in the
//! input format of `judge adjudicate`:
//!
//! ```text
//! {"phase":"F1903M","units":{"FRANCE":["A PAR","F STP/SC"]},"centers":{...},"orders":{"FRANCE":["A PAR - BUR",...]}}
//! ```
//!
//! `cargo run --release --example gen_phases -- [N] [SEED] > phases.jsonl`
//! (N movement phases, default 5000; SEED default 1; same seed, same file).
//!
//! Each game starts from the standard position; every movement phase each
//! unit holds, moves to a neighbour, supports a neighbour's hold or move,
//! or (fleets at sea) convoys an adjacent army over one or two fleets. Our
//! engine adjudicates to move on; retreats go to a random allowed place,
//! builds fill free home centres, removals are left to civil disorder. A
//! game ends after a win or at the end of 1930, and the next begins. Only
//! borders the `diplomacy` crate's map also has are used, so the file is
//! fair to both engines.

use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};

use judge::engine::adjudicate::adjudicate;
use judge::engine::map::{Location, Map, Power, Province, Terrain, UnitType};
use judge::engine::order::{Order, OrderKind};
use judge::engine::phase::PhaseKind;
use judge::engine::position::{Position, Unit};
use serde::Serialize;

#[path = "../benches/positions.rs"]
mod positions;
use positions::peer_has_border;

/// xorshift64*: small, seeded, good enough for plausible games.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        // Avoid the all-zero state; spread small seeds.
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0).
    fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }

    /// True with probability `percent`/100.
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            None
        } else {
            Some(items[self.below(items.len())])
        }
    }
}

#[derive(Serialize)]
struct Line {
    phase: String,
    units: BTreeMap<&'static str, Vec<String>>,
    centers: BTreeMap<&'static str, Vec<&'static str>>,
    orders: BTreeMap<&'static str, Vec<String>>,
}

/// Where a unit can move in one step, by borders both maps have.
fn moves_from(map: &Map, u: &Unit) -> Vec<Location> {
    let here = map.province_of(u.location);
    let candidates: Vec<Location> = match u.kind {
        UnitType::Army => map
            .army_neighbours(here)
            .iter()
            .map(|p| Location(p as u8))
            .collect(),
        UnitType::Fleet => map
            .fleet_neighbours(u.location)
            .iter()
            .map(|l| Location(l as u8))
            .collect(),
    };
    candidates
        .into_iter()
        .filter(|&l| {
            let p = map.province_of(l);
            map.terrain(p) != Terrain::Impassable
                && map.can_stand(u.kind, l)
                && peer_has_border(map, here, p)
        })
        .collect()
}

/// Whether a unit can support into province `p` by a border both maps have.
fn can_support_into(map: &Map, u: &Unit, p: Province) -> bool {
    let here = map.province_of(u.location);
    here != p && map.reaches(u.kind, u.location, p) && peer_has_border(map, here, p)
}

fn is_sea(map: &Map, p: Province) -> bool {
    map.terrain(p) == Terrain::Sea
}

/// Orders for a movement phase.
fn movement_orders(map: &Map, pos: &Position, rng: &mut Rng) -> Vec<Order> {
    let units = &pos.units;
    let n = units.len();
    let at: Vec<Province> = units.iter().map(|u| map.province_of(u.location)).collect();
    let mut orders: Vec<Option<Order>> = vec![None; n];

    // Convoys first: a fleet at sea, an army on an adjacent coast, one or
    // two fleets, a coastal destination the army could not walk to.
    for f in 0..n {
        if orders[f].is_some()
            || units[f].kind != UnitType::Fleet
            || !is_sea(map, at[f])
            || !rng.chance(12)
        {
            continue;
        }
        let armies: Vec<usize> = (0..n)
            .filter(|&a| {
                units[a].kind == UnitType::Army
                    && orders[a].is_none()
                    && map.fleet_adjacent_provinces(at[f], at[a])
                    && peer_has_border(map, at[f], at[a])
            })
            .collect();
        let Some(a) = rng.pick(&armies) else { continue };
        let mut chain = vec![f];
        if rng.chance(40) {
            let seconds: Vec<usize> = (0..n)
                .filter(|&g| {
                    g != f
                        && orders[g].is_none()
                        && units[g].kind == UnitType::Fleet
                        && is_sea(map, at[g])
                        && map.fleet_adjacent_provinces(at[f], at[g])
                        && peer_has_border(map, at[f], at[g])
                })
                .collect();
            if let Some(g) = rng.pick(&seconds) {
                chain.push(g);
            }
        }
        let last = *chain.last().unwrap();
        let dests: Vec<Province> = map
            .fleet_province_neighbours(at[last])
            .iter()
            .map(|p| Province(p as u8))
            .filter(|&p| {
                map.terrain(p) == Terrain::Coast
                    && p != at[a]
                    && !map.army_adjacent(at[a], p)
                    && peer_has_border(map, at[last], p)
            })
            .collect();
        let Some(dest) = rng.pick(&dests) else {
            continue;
        };
        for &c in &chain {
            orders[c] = Some(Order::new(
                units[c].power,
                UnitType::Fleet,
                units[c].location,
                OrderKind::Convoy {
                    from: at[a],
                    to: dest,
                },
            ));
        }
        orders[a] = Some(Order::new(
            units[a].power,
            UnitType::Army,
            units[a].location,
            OrderKind::Move {
                to: dest.location(),
                via_convoy: rng.chance(20),
            },
        ));
    }

    // Then holds and moves; some units are kept back to support.
    let mut supporters = Vec::new();
    for i in 0..n {
        if orders[i].is_some() {
            continue;
        }
        let u = units[i];
        let roll = rng.below(100);
        let kind = if roll < 15 {
            OrderKind::Hold
        } else if roll < 70 {
            match rng.pick(&moves_from(map, &u)) {
                Some(to) => OrderKind::Move {
                    to,
                    via_convoy: false,
                },
                None => OrderKind::Hold,
            }
        } else {
            supporters.push(i);
            OrderKind::Hold
        };
        orders[i] = Some(Order::new(u.power, u.kind, u.location, kind));
    }

    // Supports of neighbours' orders as they stand, own units preferred.
    for &i in &supporters {
        let u = units[i];
        let mut own = Vec::new();
        let mut others = Vec::new();
        for j in 0..n {
            if j == i {
                continue;
            }
            let Some(o) = orders[j] else { continue };
            let target = match o.kind {
                OrderKind::Move { to, .. } => map.province_of(to),
                _ => at[j],
            };
            if target == at[i] || !can_support_into(map, &u, target) {
                continue;
            }
            if units[j].power == u.power {
                own.push(j);
            } else {
                others.push(j);
            }
        }
        let j = if !own.is_empty() && (others.is_empty() || rng.chance(75)) {
            rng.pick(&own)
        } else {
            rng.pick(&others)
        };
        let Some(j) = j else { continue };
        let o = orders[j].unwrap();
        let to = match o.kind {
            // Written as players do, without the coast.
            OrderKind::Move { to, .. } => Some(map.province_of(to).location()),
            _ => None,
        };
        orders[i] = Some(Order::new(
            u.power,
            u.kind,
            u.location,
            OrderKind::Support {
                unit: units[j].kind,
                from: at[j],
                to,
            },
        ));
    }

    let mut out: Vec<Order> = orders.into_iter().flatten().collect();
    // Now and then a unit is left without orders (it holds by default).
    if !out.is_empty() && rng.chance(10) {
        out.remove(rng.below(out.len()));
    }
    out
}

/// Retreats: somewhere allowed, or disband when there is nowhere.
fn retreat_orders(pos: &Position, rng: &mut Rng) -> Vec<Order> {
    pos.dislodged
        .iter()
        .map(|d| {
            let kind = match rng.pick(&d.retreats) {
                Some(to) if rng.chance(90) => OrderKind::Retreat { to },
                _ => OrderKind::Disband,
            };
            Order::new(d.unit.power, d.unit.kind, d.unit.location, kind)
        })
        .collect()
}

/// Builds in free owned home centres; removals left to civil disorder.
fn adjustment_orders(map: &Map, pos: &Position, rng: &mut Rng) -> Vec<Order> {
    let mut orders = Vec::new();
    for power in Power::ALL {
        let due = pos.adjustment_due(power);
        if due <= 0 {
            continue;
        }
        let mut free: Vec<Province> = pos.homes[power.index()]
            .iter()
            .copied()
            .filter(|&p| pos.owner(p) == Some(power) && pos.unit_in(map, p).is_none())
            .collect();
        for _ in 0..due {
            if free.is_empty() {
                break;
            }
            let p = free.remove(rng.below(free.len()));
            let fleet_spots: Vec<Location> = if map.coasts(p).is_empty() {
                vec![p.location()]
            } else {
                map.coasts(p).to_vec()
            };
            let fleet_ok = map.terrain(p) == Terrain::Coast;
            let (kind, location) = if fleet_ok && rng.chance(40) {
                (UnitType::Fleet, rng.pick(&fleet_spots).unwrap())
            } else {
                (UnitType::Army, p.location())
            };
            orders.push(Order::new(power, kind, location, OrderKind::Build));
        }
    }
    orders
}

fn line(map: &Map, pos: &Position, orders: &[Order]) -> Line {
    let mut units: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    for u in &pos.units {
        units.entry(u.power.upper()).or_default().push(format!(
            "{} {}",
            u.kind.letter(),
            map.loc_abbr(u.location)
        ));
    }
    let mut centers: BTreeMap<&'static str, Vec<&'static str>> = BTreeMap::new();
    for p in map.supply_centres() {
        if let Some(owner) = pos.owner(p) {
            centers.entry(owner.upper()).or_default().push(map.abbr(p));
        }
    }
    let mut by_power: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    for o in orders {
        by_power
            .entry(o.power.upper())
            .or_default()
            .push(o.short(map));
    }
    Line {
        phase: pos.phase.to_string(),
        units,
        centers,
        orders: by_power,
    }
}

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: gen_phases [N] [SEED]";
    let count: usize = match args.first() {
        Some(a) => a.parse().unwrap_or_else(|_| panic!("{usage}")),
        None => 5000,
    };
    let seed: u64 = match args.get(1) {
        Some(a) => a.parse().unwrap_or_else(|_| panic!("{usage}")),
        None => 1,
    };
    let map = Map::standard();
    let mut rng = Rng::new(seed);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut written = 0;
    let mut games = 0;
    while written < count {
        games += 1;
        let mut pos = Position::standard_start(map);
        while written < count && pos.phase.year <= 1930 {
            let orders = match pos.phase.kind {
                PhaseKind::Movement => {
                    let orders = movement_orders(map, &pos, &mut rng);
                    serde_json::to_writer(&mut out, &line(map, &pos, &orders))?;
                    out.write_all(b"\n")?;
                    written += 1;
                    orders
                }
                PhaseKind::Retreat => retreat_orders(&pos, &mut rng),
                PhaseKind::Adjustment => adjustment_orders(map, &pos, &mut rng),
            };
            let adj = adjudicate(map, &pos, &orders);
            if adj.winner.is_some() {
                break;
            }
            pos = adj.next;
        }
    }
    out.flush()?;
    eprintln!("gen_phases: {written} movement phases from {games} games (seed {seed})");
    Ok(())
}
