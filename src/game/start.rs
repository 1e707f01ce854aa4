//! Starting a game: powers drawn by lot, preference lists honoured first.

use crate::engine::map::Power;
use crate::say;

/// A small deterministic generator (xorshift64*): the lot is reproducible
/// from the game's seed.
pub struct Lot(u64);

impl Lot {
    pub fn new(seed: i64) -> Lot {
        Lot((seed as u64) ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A uniform index below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// Reads a preference list: initials in order, e.g. `FEGIART` or `F`.
pub fn read_preferences(text: &str) -> Result<Vec<Power>, String> {
    let mut out = Vec::new();
    for c in text.chars().filter(|c| !c.is_whitespace() && *c != ',') {
        let Some(p) = Power::from_initial(c) else {
            return Err(say!("start.not_an_initial", initial => c.to_string(), list => text));
        };
        if !out.contains(&p) {
            out.push(p);
        }
    }
    Ok(out)
}

/// Assigns the variant's blocs (the countries each player plays) to the
/// players, by lot, honouring preference lists first: in an order drawn
/// by lot, each player gets the first free bloc that holds a country of
/// their list, taken in their order; the rest get the remaining blocs by
/// lot. Returns a bloc index per player.
pub fn assign_blocs(preferences: &[Vec<Power>], blocs: &[&[Power]], seed: i64) -> Vec<usize> {
    let n = preferences.len();
    let mut lot = Lot::new(seed);
    let mut order: Vec<usize> = (0..n).collect();
    lot.shuffle(&mut order);
    let mut free: Vec<usize> = (0..blocs.len()).collect();
    let mut assigned: Vec<Option<usize>> = vec![None; n];
    for &player in &order {
        let wanted = preferences[player]
            .iter()
            .find_map(|p| free.iter().copied().find(|&b| blocs[b].contains(p)));
        if let Some(b) = wanted {
            free.retain(|&f| f != b);
            assigned[player] = Some(b);
        }
    }
    lot.shuffle(&mut free);
    for slot in assigned.iter_mut() {
        if slot.is_none() {
            *slot = free.pop();
        }
    }
    assigned
        .into_iter()
        .map(|b| b.expect("as many players as blocs"))
        .collect()
}
