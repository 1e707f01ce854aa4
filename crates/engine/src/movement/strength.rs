//! The DATC's strengths (attack, hold, defend, prevent) and the move
//! decision built from them.

use super::{bits, Board, Intent};
use crate::map::{Power, Province};

impl Board<'_> {
    /// Whether `i` and `j` move into each other's provinces over land: a
    /// head-to-head battle (a convoyed army passes the other by sea).
    pub(super) fn head_to_head(&self, i: usize) -> Option<usize> {
        let Intent::Move {
            to,
            by_convoy: false,
        } = self.intents[i]
        else {
            return None;
        };
        let j = self.occupant_of(self.map.province_of(to))?;
        match self.intents[j] {
            Intent::Move {
                to: back,
                by_convoy: false,
            } if self.map.province_of(back) == self.at[i] => Some(j),
            _ => None,
        }
    }

    /// Successful supports of unit `i`'s order, not counting those of `except`.
    fn support_count(&mut self, i: usize, except: Option<Power>) -> u32 {
        let mut n = 0;
        for s in bits(self.supporters[i]) {
            if Some(self.units[s].power) != except && self.resolve(s) {
                n += 1;
            }
        }
        n
    }

    pub(super) fn attack_strength(&mut self, i: usize) -> u32 {
        if !self.path(i) {
            return 0;
        }
        let dest = self.move_target(i).expect("attack of a move");
        let Some(j) = self.occupant_of(dest) else {
            return 1 + self.support_count(i, None);
        };
        let leaves = self.is_moving(j) && self.head_to_head(i) != Some(j) && self.resolve(j);
        if leaves {
            1 + self.support_count(i, None)
        } else if self.units[j].power == self.units[i].power {
            // No unit dislodges its own side, nor gets foreign help to.
            0
        } else {
            1 + self.support_count(i, Some(self.units[j].power))
        }
    }

    fn hold_strength(&mut self, p: Province) -> u32 {
        match self.occupant_of(p) {
            None => 0,
            Some(j) if self.is_moving(j) => u32::from(!self.resolve(j)),
            Some(j) => 1 + self.support_count(j, None),
        }
    }

    fn defend_strength(&mut self, j: usize) -> u32 {
        1 + self.support_count(j, None)
    }

    pub(super) fn prevent_strength(&mut self, i: usize) -> u32 {
        if !self.path(i) {
            return 0;
        }
        if let Some(j) = self.head_to_head(i) {
            if self.resolve(j) {
                // Beaten in a head-to-head battle: no claim left.
                return 0;
            }
        }
        1 + self.support_count(i, None)
    }

    /// The move decision: stronger than what holds or defends the
    /// destination, and than everyone else trying to get in.
    pub(super) fn move_succeeds(&mut self, i: usize) -> bool {
        let attack = self.attack_strength(i);
        if attack == 0 {
            return false;
        }
        let dest = self.move_target(i).expect("a move");
        let resistance = match self.head_to_head(i) {
            Some(j) => self.defend_strength(j),
            None => self.hold_strength(dest),
        };
        if attack <= resistance {
            return false;
        }
        let rivals = self.attackers[dest.index()] & !(1u64 << i);
        for k in bits(rivals) {
            if attack <= self.prevent_strength(k) {
                return false;
            }
        }
        true
    }
}
