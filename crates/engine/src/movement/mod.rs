//! The movement phase: orders are checked and reduced to what each unit
//! really does (`intent`), the decisions are resolved by Kruijswijk's
//! guess-and-check algorithm (`resolver`) over the DATC's strengths
//! (`strength`, `support`, `convoy`), and the outcome becomes results and
//! the dislodged units' retreat options.

mod convoy;
mod intent;
mod resolver;
mod strength;
mod support;

use super::map::{LocSet, Location, Map, Province, UnitType};
use super::order::{Order, OrderKind};
use super::outcome::Outcome;
use super::position::{Dislodged, Unit};
use super::rules::Rules;

pub(crate) use intent::Intent;

/// Unit indices fit in a `u64` bitset: a board has at most 34 units.
pub(crate) const MAX_UNITS: usize = 64;
/// A map has at most 128 locations (`LocSet`), so at most 128 provinces.
pub(crate) const MAX_PROVINCES: usize = 128;
const NOBODY: u8 = u8::MAX;

/// The movement phase being resolved: one entry per unit in every per-unit
/// array (the first `units.len()` entries; the rest stay as made), one per
/// province in the per-province ones. Fixed arrays: no allocation.
pub(crate) struct Board<'a> {
    map: &'a Map,
    rules: &'a Rules,
    units: &'a [Unit],
    /// Province of each unit.
    at: [Province; MAX_UNITS],
    /// The order each unit carries out, after checking.
    intents: [Intent; MAX_UNITS],
    /// Unit index standing in each province, or NOBODY.
    occupant: [u8; MAX_PROVINCES],
    /// Per province: the units moving into it (bitset of unit indices).
    attackers: [u64; MAX_PROVINCES],
    /// Per unit: the units whose support matches its order.
    supporters: [u64; MAX_UNITS],
    /// Per army moving by convoy: the fleets ordered to convoy it.
    convoyers: [u64; MAX_UNITS],
    /// Armies whose convoy was broken by the Szykman rule.
    paradox: u64,
    // Kruijswijk's resolver state.
    state: [State; MAX_UNITS],
    resolution: [bool; MAX_UNITS],
    /// Tentative decisions, in the order they became tentative.
    dependencies: Vec<u8>,
    /// Per guessing decision: the call depth of the guess it rests on.
    anchor: [usize; MAX_UNITS],
    /// The current call depth of `resolve`.
    depth: usize,
    /// The lowest anchor read since the current decision began.
    lowest_anchor_read: usize,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum State {
    Unresolved,
    Guessing,
    Resolved,
}

/// The result of a movement phase.
pub struct MovementResult {
    /// One entry per unit, in the order of the position's units: the order
    /// it carried out (Hold when it had none) and what became of it.
    pub orders: Vec<(Order, Outcome)>,
    /// Units left on the board, moved where they moved.
    pub units: Vec<Unit>,
    /// Dislodged units with somewhere to go.
    pub dislodged: Vec<Dislodged>,
    /// Dislodged units with nowhere to go, removed at once.
    pub destroyed: Vec<Unit>,
}

/// Resolves a movement phase. `orders` holds at most one order per unit
/// (the caller keeps the last one given); orders for units that are not
/// there, or not the ordering power's, are void.
pub fn resolve(map: &Map, units: &[Unit], orders: &[Order]) -> MovementResult {
    resolve_with(map, units, orders, &Rules::standard())
}

/// [`resolve`] under a variant's or situation's [`Rules`]: inert powers'
/// orders are ignored (their units hold) and their dislodged units are
/// disbanded; closed provinces cannot be entered.
pub fn resolve_with(map: &Map, units: &[Unit], orders: &[Order], rules: &Rules) -> MovementResult {
    let mut board = Board::new(map, units, orders, rules);
    for i in 0..units.len() {
        board.resolve(i);
    }
    board.outcome(orders)
}

impl<'a> Board<'a> {
    fn occupant_of(&self, p: Province) -> Option<usize> {
        match self.occupant[p.index()] {
            NOBODY => None,
            i => Some(i as usize),
        }
    }

    fn move_target(&self, i: usize) -> Option<Province> {
        match self.intents[i] {
            Intent::Move { to, .. } => Some(self.map.province_of(to)),
            _ => None,
        }
    }

    fn is_moving(&self, i: usize) -> bool {
        matches!(self.intents[i], Intent::Move { .. })
    }

    /// Whether unit `i` ends the phase dislodged (assumes everything resolved).
    fn dislodger(&mut self, i: usize) -> Option<usize> {
        if self.is_moving(i) && self.resolve(i) {
            return None;
        }
        let p = self.at[i];
        bits(self.attackers[p.index()]).find(|&k| self.resolve(k))
    }

    fn outcome(&mut self, orders: &[Order]) -> MovementResult {
        let dislodged_by = self.dislodgers();
        let mut result_orders = self.result_orders(orders, &dislodged_by);
        let mut result = self.board_after(&dislodged_by);
        for (o, outcome) in result_orders.iter_mut() {
            if let Some(d) = result.destroyed.iter().find(|d| d.location == o.location) {
                if d.power == o.power && !matches!(o.kind, OrderKind::Build | OrderKind::Waive) {
                    outcome.insert(Outcome::DESTROYED);
                }
            }
        }
        result.orders = result_orders;
        result
    }

    /// Per unit: who dislodged it (NOBODY: nobody). Only a unit that was
    /// attacked can be.
    fn dislodgers(&mut self) -> [u8; MAX_UNITS] {
        let mut dislodged_by = [NOBODY; MAX_UNITS];
        for (i, slot) in dislodged_by[..self.units.len()].iter_mut().enumerate() {
            if self.attackers[self.at[i].index()] != 0 {
                if let Some(k) = self.dislodger(i) {
                    *slot = k as u8;
                }
            }
        }
        dislodged_by
    }

    /// The order each unit was given (void ones included), else a hold,
    /// with its outcome; void orders that name no unit of the power
    /// (another power's unit, an empty province) after them.
    fn result_orders(
        &mut self,
        orders: &[Order],
        dislodged_by: &[u8; MAX_UNITS],
    ) -> Vec<(Order, Outcome)> {
        let n = self.units.len();
        let mut result_orders = Vec::with_capacity(n);
        let mut given: [Option<Order>; MAX_UNITS] = [None; MAX_UNITS];
        let mut unmatched = Vec::new();
        for o in orders {
            match self.unit_index_for(o) {
                Some(i) => given[i] = Some(*o),
                None => unmatched.push((*o, Outcome::VOID)),
            }
        }
        for i in 0..n {
            let unit = self.units[i];
            let (order, mut outcome) = match given[i] {
                Some(o) => (o, Outcome::NONE),
                None => (
                    Order::new(unit.power, unit.kind, unit.location, OrderKind::Hold),
                    Outcome::DEFAULTED,
                ),
            };
            outcome.insert(self.tags(i, &order));
            if dislodged_by[i] != NOBODY {
                outcome.insert(Outcome::DISLODGED);
            }
            result_orders.push((order, outcome));
        }
        result_orders.append(&mut unmatched);
        result_orders
    }

    /// The units after the moves: those left on the board where they
    /// moved, the dislodged with their retreats, and those with none,
    /// destroyed (`orders` left empty).
    fn board_after(&mut self, dislodged_by: &[u8; MAX_UNITS]) -> MovementResult {
        let n = self.units.len();
        let mut result = MovementResult {
            orders: Vec::new(),
            units: Vec::with_capacity(n),
            dislodged: Vec::new(),
            destroyed: Vec::new(),
        };
        let contested = self.contested();
        let mut occupied = LocSet::default();
        for (j, &by) in dislodged_by[..n].iter().enumerate() {
            if by == NOBODY {
                occupied.insert(self.final_province(j).index());
            }
        }
        for (i, &by) in dislodged_by[..n].iter().enumerate() {
            let unit = self.units[i];
            if by == NOBODY {
                let location = match self.intents[i] {
                    Intent::Move { to, .. } if self.resolution[i] => to,
                    _ => unit.location,
                };
                result.units.push(Unit { location, ..unit });
                continue;
            }
            let options = self.retreats_of(unit, usize::from(by), contested, occupied);
            if options.is_empty() {
                result.destroyed.push(unit);
            } else {
                result.dislodged.push(Dislodged {
                    unit,
                    retreats: options,
                });
            }
        }
        result
    }

    /// Where `unit`, dislodged by unit `k`, may retreat: not to a
    /// `contested` or `occupied` province, nor a closed one.
    fn retreats_of(
        &self,
        unit: Unit,
        k: usize,
        contested: LocSet,
        occupied: LocSet,
    ) -> Vec<Location> {
        // Inert powers' units do not retreat; closed provinces take no one.
        if self.rules.is_inert(unit.power) {
            return Vec::new();
        }
        // An army convoyed in leaves its origin open behind it.
        let attacker_from = match self.intents[k] {
            Intent::Move {
                by_convoy: true, ..
            } => None,
            _ => Some(self.at[k]),
        };
        let barred = LocSet(contested.0 | self.rules.closed.0);
        retreat_options(self.map, unit, attacker_from, occupied, barred)
    }

    fn final_province(&self, i: usize) -> Province {
        match self.intents[i] {
            Intent::Move { to, .. } if self.resolution[i] => self.map.province_of(to),
            _ => self.at[i],
        }
    }

    /// Provinces left empty by a standoff: some unit with a real claim on
    /// it (prevent strength above zero) failed to get in, and nobody did.
    fn contested(&mut self) -> LocSet {
        let mut set = LocSet::default();
        for i in 0..self.units.len() {
            if let Some(to) = self.move_target(i) {
                if !self.resolution[i] && self.prevent_strength(i) > 0 {
                    let taken = bits(self.attackers[to.index()]).any(|k| self.resolution[k]);
                    if !taken {
                        set.insert(to.index());
                    }
                }
            }
        }
        set
    }

    /// The unit index an order is for: the ordering power's unit in the
    /// order's province.
    fn unit_index_for(&self, o: &Order) -> Option<usize> {
        let i = self.occupant_of(self.map.province_of(o.location))?;
        (self.units[i].power == o.power).then_some(i)
    }

    /// The result tags of unit `i`'s order, dislodgement aside.
    fn tags(&mut self, i: usize, order: &Order) -> Outcome {
        match (self.intents[i], order.kind) {
            (Intent::Hold, OrderKind::Hold) => Outcome::NONE,
            (Intent::Hold, _) => Outcome::VOID,
            (Intent::Move { by_convoy, .. }, _) => {
                if self.resolution[i] {
                    Outcome::NONE
                } else if by_convoy && !self.path(i) {
                    Outcome::NO_CONVOY
                } else {
                    Outcome::BOUNCE
                }
            }
            (Intent::Support { .. }, _) => {
                if self.resolution[i] {
                    Outcome::NONE
                } else {
                    Outcome::CUT
                }
            }
            (Intent::Convoy { army }, _) => {
                if self.paradox >> army & 1 == 1 {
                    Outcome::PARADOX
                } else {
                    Outcome::NONE
                }
            }
        }
    }
}

/// Where a dislodged unit may retreat: a place it could move to (no
/// convoy), not the attacker's origin (`None` when the attacker came by
/// convoy), not occupied, not left empty by a standoff. Shared with
/// callers that build retreat phases from outside.
pub fn retreat_options(
    map: &Map,
    unit: Unit,
    attacker_from: Option<Province>,
    occupied: LocSet,
    contested: LocSet,
) -> Vec<Location> {
    let from = unit.location;
    let candidates = match unit.kind {
        UnitType::Army => map.army_neighbours(map.province_of(from)),
        UnitType::Fleet => map.fleet_neighbours(from),
    };
    let mut out: Vec<Location> = bits128(candidates)
        .map(|l| Location(l as u8))
        .filter(|&l| {
            let p = map.province_of(l);
            Some(p) != attacker_from
                && !occupied.contains(p.index())
                && !contested.contains(p.index())
        })
        .collect();
    // In the order of the locations' abbreviations ("SPA", "SPA/NC", ...).
    out.sort_by(|&a, &b| map.cmp_loc_abbr(a, b));
    out
}

/// The indices set in a unit bitset.
pub(crate) fn bits(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let i = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(i)
    })
}

fn bits128(set: LocSet) -> impl Iterator<Item = usize> {
    set.iter()
}
