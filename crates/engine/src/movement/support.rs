//! The support decision: given unless cut or dislodged.

use super::{bits, Board, Intent};

impl Board<'_> {
    /// A support is cut by a move into the supporter's province from a
    /// unit of another power that can get there, except a move from the
    /// province the support is aimed into, which cuts only by dislodging.
    pub(super) fn support_given(&mut self, s: usize) -> bool {
        let Intent::Support { unit } = self.intents[s] else {
            return false;
        };
        let unit = usize::from(unit);
        let aimed_into = self.move_target(unit);
        let power = self.units[s].power;
        let attackers = self.attackers[self.at[s].index()];
        let mut from_target = None;
        for k in bits(attackers) {
            if self.units[k].power == power {
                continue;
            }
            if Some(self.at[k]) == aimed_into {
                from_target = Some(k);
                continue;
            }
            if self.path(k) {
                return false;
            }
        }
        match from_target {
            Some(k) => !self.resolve(k),
            None => true,
        }
    }
}
