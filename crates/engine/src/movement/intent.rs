//! From orders to intents: what each unit will really try to do. Orders
//! that cannot be carried out (an impossible move, a support of something
//! not ordered, a convoy from the coast) become holds here, and the tables
//! the resolver reads (occupants, attackers, supporters, convoyers) are
//! filled in.

use super::{Board, State, MAX_PROVINCES, MAX_UNITS, NOBODY};
use crate::map::{Location, Map, Province, Terrain, UnitType};
use crate::order::{Order, OrderKind};
use crate::position::Unit;
use crate::rules::Rules;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Intent {
    Hold,
    Move {
        to: Location,
        by_convoy: bool,
    },
    /// Support of unit `unit` (an index), to hold or to move as it is ordered.
    Support {
        unit: u8,
    },
    /// Convoy of army `army` (an index).
    Convoy {
        army: u8,
    },
}

impl<'a> Board<'a> {
    pub(super) fn new(
        map: &'a Map,
        units: &'a [Unit],
        orders: &[Order],
        rules: &'a Rules,
    ) -> Board<'a> {
        let mut board = Board::empty(map, units, rules);
        let given = board.given_orders(orders);
        board.read_intents(&given[..units.len()]);
        board
    }

    /// The board of `units` with no orders: every unit holds.
    fn empty(map: &'a Map, units: &'a [Unit], rules: &'a Rules) -> Board<'a> {
        assert!(units.len() <= MAX_UNITS, "more units than a board can hold");
        assert!(
            map.province_count() <= MAX_PROVINCES,
            "more provinces than a board can hold"
        );
        let mut occupant = [NOBODY; MAX_PROVINCES];
        let mut at = [Province(0); MAX_UNITS];
        for (i, u) in units.iter().enumerate() {
            at[i] = map.province_of(u.location);
            occupant[at[i].index()] = i as u8;
        }
        Board {
            map,
            rules,
            units,
            at,
            intents: [Intent::Hold; MAX_UNITS],
            occupant,
            attackers: [0; MAX_PROVINCES],
            supporters: [0; MAX_UNITS],
            convoyers: [0; MAX_UNITS],
            paradox: 0,
            state: [State::Unresolved; MAX_UNITS],
            resolution: [false; MAX_UNITS],
            dependencies: Vec::with_capacity(units.len()),
            anchor: [0; MAX_UNITS],
            depth: 0,
            lowest_anchor_read: usize::MAX,
        }
    }

    /// Per unit, the order it follows: the last given for it (an inert
    /// power's units only hold).
    fn given_orders<'o>(&self, orders: &'o [Order]) -> [Option<&'o Order>; MAX_UNITS] {
        let mut given: [Option<&Order>; MAX_UNITS] = [None; MAX_UNITS];
        for o in orders {
            if let Some(i) = self.unit_index_for(o) {
                if !self.rules.is_inert(o.power) {
                    given[i] = Some(o);
                }
            }
        }
        given
    }

    /// The intents of the units from their orders (`given`, per unit),
    /// and the tables of attackers and supporters.
    fn read_intents(&mut self, given: &[Option<&Order>]) {
        // The units by the kind of their order: each step below visits
        // just its units.
        let (mut moves, mut convoys, mut supports) = (0u64, 0u64, 0u64);
        for (i, o) in given.iter().enumerate() {
            match o.map(|o| o.kind) {
                Some(OrderKind::Move { .. }) => moves |= 1 << i,
                Some(OrderKind::Convoy { .. }) => convoys |= 1 << i,
                Some(OrderKind::Support { .. }) => supports |= 1 << i,
                _ => {}
            }
        }
        let order_of = |i: usize| given[i].expect("an ordered unit").kind;
        // Moves first: convoys and supports are checked against them.
        for i in super::bits(moves) {
            if let OrderKind::Move { to, .. } = order_of(i) {
                if let Some(to) = self.move_destination(i, to) {
                    self.intents[i] = Intent::Move {
                        to,
                        by_convoy: false,
                    };
                }
            }
        }
        // Per army: the fleets ordered to convoy it.
        let mut convoys_of = [0u64; MAX_UNITS];
        for i in super::bits(convoys) {
            if let OrderKind::Convoy { from, to } = order_of(i) {
                self.intents[i] = self.check_convoy(i, from, to);
                if let Intent::Convoy { army } = self.intents[i] {
                    convoys_of[usize::from(army)] |= 1 << i;
                }
            }
        }
        // Convoy routes, now that the convoys are known: this may still
        // turn an army's move into a hold.
        for i in super::bits(moves) {
            if let OrderKind::Move { via_convoy, .. } = order_of(i) {
                self.choose_route(i, via_convoy, convoys_of[i]);
            }
        }
        // Supports last, against the moves as they now stand.
        for i in super::bits(supports) {
            if let OrderKind::Support { from, to, .. } = order_of(i) {
                self.intents[i] = self.check_support(i, from, to);
            }
        }
        self.count_attackers_and_supporters(moves | supports);
    }

    /// The attackers of each province and the supporters of each unit,
    /// from the intents of the units `ordered` (bits).
    fn count_attackers_and_supporters(&mut self, ordered: u64) {
        for i in super::bits(ordered) {
            match self.intents[i] {
                Intent::Move { to, .. } => {
                    self.attackers[self.map.province_of(to).index()] |= 1 << i;
                }
                Intent::Support { unit } => self.supporters[usize::from(unit)] |= 1 << i,
                _ => {}
            }
        }
    }

    /// Where a move of unit `i` to `to` goes, if it can go at all: armies
    /// ignore coasts; a fleet's coast is filled in when only one fits, and
    /// the move is impossible when two would.
    fn move_destination(&self, i: usize, to: Location) -> Option<Location> {
        let map = self.map;
        let unit = self.units[i];
        let dest = map.province_of(to);
        if dest == self.at[i]
            || map.terrain(dest) == Terrain::Impassable
            || self.rules.is_closed(dest)
        {
            return None;
        }
        match unit.kind {
            UnitType::Army => {
                if map.terrain(dest) == Terrain::Sea {
                    return None;
                }
                // Adjacent or not, an army may try: a convoy may carry it
                // (checked once convoys are known).
                Some(dest.location())
            }
            UnitType::Fleet => {
                if map.coast_of(to).is_some() || map.coasts(dest).is_empty() {
                    map.fleet_adjacent(unit.location, to).then_some(to)
                } else {
                    match map.fleet_targets_in(unit.location, dest)[..] {
                        [only] => Some(only),
                        _ => None,
                    }
                }
            }
        }
    }

    fn check_support(&self, i: usize, from: Province, to: Option<Location>) -> Intent {
        let map = self.map;
        let Some(j) = self.occupant_of(from) else {
            return Intent::Hold;
        };
        if j == i {
            return Intent::Hold;
        }
        let unit = self.units[i];
        let reach = to.map_or(from, |l| map.province_of(l));
        if !map.reaches(unit.kind, unit.location, reach) || self.rules.is_closed(reach) {
            return Intent::Hold;
        }
        let matches = match (to, self.intents[j]) {
            (None, Intent::Move { .. }) => false,
            (None, _) => true,
            (Some(to), Intent::Move { to: dest, .. }) => {
                // No coast named: any coast of the province will do.
                to == dest
                    || (map.coast_of(to).is_none() && map.province_of(to) == map.province_of(dest))
            }
            (Some(_), _) => false,
        };
        if matches && !self.would_carry(i, j) {
            Intent::Support { unit: j as u8 }
        } else {
            Intent::Hold
        }
    }

    /// Whether fleet `i` stands on every chain of fleets that could carry
    /// army `j` to where it is ordered, a place it cannot reach by land: a
    /// fleet cannot convoy and support at once, so its support of that move
    /// is impossible (DATC 6.D.31).
    fn would_carry(&self, i: usize, j: usize) -> bool {
        let map = self.map;
        let Intent::Move { to, .. } = self.intents[j] else {
            return false;
        };
        let (from, dest) = (self.at[j], map.province_of(to));
        if self.units[j].kind != UnitType::Army || map.army_adjacent(from, dest) {
            return false;
        }
        let fleets_at_sea = (0..self.units.len())
            .filter(|&f| {
                self.units[f].kind == UnitType::Fleet && map.terrain(self.at[f]) == Terrain::Sea
            })
            .fold(0u64, |set, f| set | 1 << f);
        fleets_at_sea & (1 << i) != 0
            && self.fleets_on_routes(from, dest, fleets_at_sea) != 0
            && self.fleets_on_routes(from, dest, fleets_at_sea & !(1 << i)) == 0
    }

    fn check_convoy(&self, i: usize, from: Province, to: Province) -> Intent {
        let map = self.map;
        let unit = self.units[i];
        if unit.kind != UnitType::Fleet || map.terrain(self.at[i]) != Terrain::Sea {
            return Intent::Hold;
        }
        let Some(army) = self.occupant_of(from) else {
            return Intent::Hold;
        };
        if self.units[army].kind != UnitType::Army {
            return Intent::Hold;
        }
        // A fleet that could be on no route from there to there convoys
        // nothing (and shows no intent).
        if !map.convoy_seas(from, to).contains(self.at[i].index()) {
            return Intent::Hold;
        }
        match self.intents[army] {
            Intent::Move { to: dest, .. } if map.province_of(dest) == to => {
                Intent::Convoy { army: army as u8 }
            }
            _ => Intent::Hold,
        }
    }

    /// Decides whether army `i` goes by land or by sea. Not adjacent: by
    /// sea, if some fleet could carry it (else the move is void); it fails
    /// later if no convoy does. Adjacent: by sea only if the
    /// player asked for it ("via convoy") or showed intent by ordering a
    /// fleet of their own to convoy it, and ordered convoys form a route;
    /// otherwise by land.
    /// `fleets`: the fleets ordered to convoy army `i`.
    fn choose_route(&mut self, i: usize, via_convoy: bool, fleets: u64) {
        let Intent::Move { to, .. } = self.intents[i] else {
            return;
        };
        if self.units[i].kind != UnitType::Army {
            return;
        }
        let dest = self.map.province_of(to);
        let on_route = self.fleets_on_routes(self.at[i], dest, fleets);
        let adjacent = self.map.army_adjacent(self.at[i], dest);
        let own_fleet = super::bits(fleets).any(|f| self.units[f].power == self.units[i].power);
        let by_convoy = if adjacent {
            on_route != 0 && (via_convoy || own_fleet)
        } else {
            // Legal only if some fleet stands where a convoy could pass
            // (DATC 6.D.32: with no fleet at all the move is void, and the
            // army may be supported to hold; 6.D.8: with one, the move
            // stands and fails for want of a convoy).
            let seas = self.map.convoy_seas(self.at[i], dest);
            (0..self.units.len())
                .any(|f| self.units[f].kind == UnitType::Fleet && seas.contains(self.at[f].index()))
        };
        self.intents[i] = if by_convoy {
            self.convoyers[i] = on_route;
            Intent::Move { to, by_convoy }
        } else if adjacent {
            Intent::Move { to, by_convoy }
        } else {
            Intent::Hold
        };
        if !by_convoy {
            // Convoys of an army that goes by land, or nowhere, carry nothing.
            for f in super::bits(fleets) {
                self.intents[f] = Intent::Hold;
            }
        }
    }
}
