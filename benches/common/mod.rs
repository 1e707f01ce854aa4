//! What the mail and daemon benchmarks share: legal opening orders and a
//! seeded random number generator. (Each bench uses part of it.)
#![allow(dead_code)]

use judge::engine::map::Power;

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
