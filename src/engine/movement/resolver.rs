//! Kruijswijk's algorithm: resolve each decision on demand; when a
//! decision depends on itself, try both answers; if only one is
//! consistent take it, if both are, take "fails" (nothing moves for
//! nothing); if neither, the cycle is a paradox and the backup rule
//! decides: circular movement succeeds, a convoy paradox is broken by the
//! Szykman rule (the convoyed armies in it do not move and cut nothing).

use super::{bits, Board, Intent, State};

impl Board<'_> {
    /// The resolution of unit `i`'s decision: for a move, whether it
    /// succeeds; for a support, whether it is given; for anything else,
    /// whether the unit stays (is not dislodged).
    pub(crate) fn resolve(&mut self, i: usize) -> bool {
        match self.state[i] {
            State::Resolved => return self.resolution[i],
            State::Guessing => {
                if !self.dependencies.contains(&(i as u8)) {
                    self.dependencies.push(i as u8);
                }
                return self.resolution[i];
            }
            State::Unresolved => {}
        }
        let old_count = self.dependencies.len();
        self.resolution[i] = false;
        self.state[i] = State::Guessing;
        let first = self.adjudicate(i);
        if self.dependencies.len() == old_count {
            // No guess was needed (or, if one was, it was someone else's
            // and has been settled).
            if self.state[i] != State::Resolved {
                self.resolution[i] = first;
                self.state[i] = State::Resolved;
            }
            return first;
        }
        if self.dependencies[old_count] as usize != i {
            // Part of a cycle led by an earlier decision: report the guess
            // up; that decision settles the cycle.
            self.dependencies.push(i as u8);
            self.resolution[i] = first;
            return first;
        }
        // `i` leads a cycle: try the other guess.
        self.forget_from(old_count);
        self.resolution[i] = true;
        self.state[i] = State::Guessing;
        let second = self.adjudicate(i);
        if first == second {
            self.forget_from(old_count);
            self.resolution[i] = first;
            self.state[i] = State::Resolved;
            return first;
        }
        self.backup_rule(old_count);
        self.resolve(i)
    }

    /// Sets the decisions guessed since `old_count` back to unresolved.
    fn forget_from(&mut self, old_count: usize) {
        for &d in &self.dependencies[old_count..] {
            self.state[d as usize] = State::Unresolved;
        }
        self.dependencies.truncate(old_count);
    }

    fn backup_rule(&mut self, old_count: usize) {
        let cycle: Vec<usize> = self.dependencies[old_count..]
            .iter()
            .map(|&d| d as usize)
            .collect();
        let convoyed: u64 = cycle
            .iter()
            .filter_map(|&u| match self.intents[u] {
                Intent::Convoy { army } => Some(1u64 << army),
                _ => None,
            })
            .fold(0, |a, b| a | b);
        self.forget_from(old_count);
        if convoyed != 0 {
            // Szykman: the armies convoyed through the paradox stay home.
            self.paradox |= convoyed;
        } else {
            // Circular movement: every move in the ring succeeds.
            for u in cycle {
                if matches!(self.intents[u], Intent::Move { .. }) {
                    self.resolution[u] = true;
                    self.state[u] = State::Resolved;
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
