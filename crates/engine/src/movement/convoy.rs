//! Convoy routes: which fleets could carry an army (when orders are
//! checked), and whether a route survives (while resolving).

use super::{bits, Board, Intent};
use crate::map::{LocSet, Province};

impl Board<'_> {
    /// The fleets among `fleets` that lie on some chain of fleets leading
    /// from `from` to `to`, whatever becomes of them.
    pub(super) fn fleets_on_routes(&self, from: Province, to: Province, fleets: u64) -> u64 {
        if fleets == 0 {
            return 0;
        }
        let forward = self.reachable_fleets(from, fleets);
        let backward = self.reachable_fleets(to, fleets);
        forward & backward
    }

    /// The fleets among `fleets` reachable from province `start` by a chain
    /// of adjacent fleets.
    fn reachable_fleets(&self, start: Province, fleets: u64) -> u64 {
        let mut reached = LocSet::default();
        reached.insert(start.index());
        let mut found = 0u64;
        loop {
            let before = found;
            for f in bits(fleets & !found) {
                if self.touches(self.at[f], reached) {
                    found |= 1 << f;
                    reached.insert(self.at[f].index());
                }
            }
            if found == before {
                return found;
            }
        }
    }

    fn touches(&self, p: Province, reached: LocSet) -> bool {
        self.map.fleet_province_neighbours(p).0 & reached.0 != 0
    }

    /// Whether unit `i` can get to its destination: always for a move over
    /// land, and for a convoyed army when a chain of undislodged convoying
    /// fleets still links its origin to its destination.
    pub(super) fn path(&mut self, i: usize) -> bool {
        let Intent::Move { to, by_convoy } = self.intents[i] else {
            return false;
        };
        if !by_convoy {
            return true;
        }
        if self.paradox >> i & 1 == 1 {
            return false;
        }
        let dest = self.map.province_of(to);
        let mut reached = LocSet::default();
        reached.insert(self.at[i].index());
        let mut remaining = self.convoyers[i];
        loop {
            let mut progressed = false;
            for f in bits(remaining) {
                let fp = self.at[f];
                if !self.touches(fp, reached) {
                    continue;
                }
                remaining &= !(1 << f);
                if self.resolve(f) {
                    if self.map.fleet_adjacent_provinces(fp, dest) {
                        return true;
                    }
                    reached.insert(fp.index());
                    progressed = true;
                }
            }
            if !progressed {
                return false;
            }
        }
    }
}
