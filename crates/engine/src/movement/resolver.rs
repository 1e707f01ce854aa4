//! Kruijswijk's algorithm: resolve each decision on demand; when a
//! decision depends on itself, try both answers; if only one is
//! consistent take it; if both or neither are, the cycle is a paradox and
//! the backup rule decides: circular movement succeeds, a convoy paradox
//! is broken by the Szykman rule (the convoyed armies in it do not move
//! and cut nothing).
//!
//! A decision resting on a guess stays tentative until the owner of that
//! guess settles it. Every guess carries the call depth at which it was
//! made (its anchor); every read of a guess or a tentative result records
//! the lowest anchor read, so a decision knows exactly whether it rests
//! on its own guess (it leads a cycle), on an outer one (it stays
//! tentative), or on none (it is settled). Counting only new entries of
//! a dependency list, as the textbook version does, misses a second read
//! of a guess already listed.

use super::{bits, Board, Intent, State};

impl Board<'_> {
    /// The resolution of unit `i`'s decision: for a move, whether it
    /// succeeds; for a support, whether it is given; for anything else,
    /// whether the unit stays (is not dislodged).
    pub(crate) fn resolve(&mut self, i: usize) -> bool {
        match self.state[i] {
            State::Resolved => return self.resolution[i],
            State::Guessing => {
                // Reading a guess (or a result that rests on one): whoever
                // reads it depends on the guess made at depth `anchor[i]`.
                self.lowest_anchor_read = self.lowest_anchor_read.min(self.anchor[i]);
                return self.resolution[i];
            }
            State::Unresolved => {}
        }
        let depth = self.depth;
        let old_count = self.dependencies.len();
        let outer_lowest = std::mem::replace(&mut self.lowest_anchor_read, usize::MAX);
        self.depth += 1;

        let (result, rests_on) = self.decide(i, depth, old_count);

        self.depth -= 1;
        self.lowest_anchor_read = outer_lowest.min(rests_on);
        result
    }

    /// Resolves `i` at call depth `depth`. Returns the resolution and the
    /// depth of the outer guess it rests on (`usize::MAX` for none).
    fn decide(&mut self, i: usize, depth: usize, old_count: usize) -> (bool, usize) {
        self.guess(i, depth, false);
        let first = self.adjudicate(i);
        let lowest = self.lowest_anchor_read;
        if lowest == usize::MAX {
            // Read no guess: settled.
            self.settle(i, first);
            return (first, usize::MAX);
        }
        if lowest < depth {
            // Rests on a guess made further up: stay tentative; that
            // guess's owner settles the whole cycle.
            self.tentative(i, first, lowest);
            return (first, lowest);
        }
        // Rests on its own guess: `i` leads a cycle. Try the other guess.
        self.forget_from(old_count);
        self.lowest_anchor_read = usize::MAX;
        self.guess(i, depth, true);
        let second = self.adjudicate(i);
        let lowest = self.lowest_anchor_read;
        if lowest < depth {
            self.tentative(i, second, lowest);
            return (second, lowest);
        }
        if first == second {
            // Only one answer is consistent.
            self.forget_from(old_count);
            self.settle(i, first);
            return (first, usize::MAX);
        }
        // Both answers, or neither, are consistent: a paradox.
        let mut cycle: Vec<usize> = self.dependencies[old_count..]
            .iter()
            .map(|&d| d as usize)
            .collect();
        cycle.push(i);
        self.forget_from(old_count);
        self.state[i] = State::Unresolved;
        self.backup_rule(&cycle);
        self.lowest_anchor_read = usize::MAX;
        let result = self.resolve(i);
        (result, self.lowest_anchor_read)
    }

    fn guess(&mut self, i: usize, depth: usize, value: bool) {
        self.state[i] = State::Guessing;
        self.anchor[i] = depth;
        self.resolution[i] = value;
    }

    fn settle(&mut self, i: usize, value: bool) {
        self.state[i] = State::Resolved;
        self.resolution[i] = value;
    }

    /// Keeps `i`'s result as a guess resting on the one made at `anchor`,
    /// listed so that it is forgotten when that guess is revised.
    fn tentative(&mut self, i: usize, value: bool, anchor: usize) {
        self.state[i] = State::Guessing;
        self.anchor[i] = anchor;
        self.resolution[i] = value;
        self.dependencies.push(i as u8);
    }

    /// Sets the decisions guessed since `old_count` back to unresolved.
    fn forget_from(&mut self, old_count: usize) {
        for &d in &self.dependencies[old_count..] {
            self.state[d as usize] = State::Unresolved;
        }
        self.dependencies.truncate(old_count);
    }

    fn backup_rule(&mut self, cycle: &[usize]) {
        let convoyed: u64 = cycle
            .iter()
            .filter_map(|&u| match self.intents[u] {
                Intent::Convoy { army } => Some(1u64 << army),
                _ => None,
            })
            .fold(0, |a, b| a | b);
        if convoyed != 0 {
            // Szykman: the armies convoyed through the paradox stay home.
            self.paradox |= convoyed;
        } else {
            // Circular movement: every move in the ring succeeds.
            for &u in cycle {
                if matches!(self.intents[u], Intent::Move { .. }) {
                    self.settle(u, true);
                }
            }
        }
    }

    /// Decides unit `i` from the current resolutions (and guesses).
    fn adjudicate(&mut self, i: usize) -> bool {
        match self.intents[i] {
            Intent::Move { .. } => self.move_succeeds(i),
            Intent::Support { .. } => self.support_given(i),
            Intent::Hold | Intent::Convoy { .. } => !self.attacked_successfully(i),
        }
    }

    /// Whether some move into unit `i`'s province succeeds.
    fn attacked_successfully(&mut self, i: usize) -> bool {
        let attackers = self.attackers[self.at[i].index()];
        bits(attackers).any(|k| self.resolve(k))
    }
}
