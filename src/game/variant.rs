//! The rulebook's games: the standard seven-player game and its
//! alternatives for two to six players.
//!
//! A variant says how many players there are, which countries each one
//! plays (drawn by lot), which countries are out of the game, the first
//! year, and how the game is won. Supply centres, builds and removals are
//! always counted per country, however many a player holds.

use crate::engine::map::{Map, Power, Province};
use crate::engine::phase::{Phase, PhaseKind, Season};
use crate::engine::position::Position;
use crate::engine::rules::Rules;

use Power::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variant {
    /// The word given to CREATE.
    pub name: &'static str,
    pub description: &'static str,
    /// The countries each player plays; one entry per player.
    pub blocs: &'static [&'static [Power]],
    /// Countries out of the game: their units hold, defend themselves,
    /// give no support, are disbanded when dislodged, and never build.
    pub out: &'static [Power],
    pub start_year: u16,
    /// Two-player game: Italy is neutral, its territory closed, until a
    /// coin toss before the first winter gives it to one side.
    pub neutral_italy: bool,
    /// Victory by units on the board (two-player game); otherwise by
    /// supply centres.
    pub victory_units: Option<usize>,
}

/// Italy's homeland, closed in the two-player game until the coin toss.
pub const ITALIAN_TERRITORY: [&str; 6] = ["VEN", "PIE", "TUS", "ROM", "APU", "NAP"];

pub const STANDARD: Variant = Variant {
    name: "standard",
    description: "the standard game for seven players",
    blocs: &[
        &[Austria],
        &[England],
        &[France],
        &[Germany],
        &[Italy],
        &[Russia],
        &[Turkey],
    ],
    out: &[],
    start_year: 1901,
    neutral_italy: false,
    victory_units: None,
};

pub const VARIANTS: [Variant; 7] = [
    STANDARD,
    Variant {
        name: "six",
        description: "six players; Italy is out of the game",
        blocs: &[
            &[Austria],
            &[England],
            &[France],
            &[Germany],
            &[Russia],
            &[Turkey],
        ],
        out: &[Italy],
        ..STANDARD
    },
    Variant {
        name: "five",
        description: "five players; Italy and Germany are out of the game",
        blocs: &[&[Austria], &[England], &[France], &[Russia], &[Turkey]],
        out: &[Italy, Germany],
        ..STANDARD
    },
    Variant {
        name: "four",
        description: "four players: England; Austria/France; Germany/Turkey; Italy/Russia",
        blocs: &[
            &[England],
            &[Austria, France],
            &[Germany, Turkey],
            &[Italy, Russia],
        ],
        ..STANDARD
    },
    Variant {
        name: "three-a",
        description: "three players: Russia; England/France/Germany; Austria/Italy/Turkey",
        blocs: &[
            &[Russia],
            &[England, France, Germany],
            &[Austria, Italy, Turkey],
        ],
        ..STANDARD
    },
    Variant {
        name: "three-b",
        description: "three players: England/Germany/Austria; Russia/Italy; France/Turkey",
        blocs: &[
            &[England, Germany, Austria],
            &[Russia, Italy],
            &[France, Turkey],
        ],
        ..STANDARD
    },
    Variant {
        name: "two",
        description: "two players (1914): England/France/Russia against Austria/Germany/Turkey; \
                      Italy neutral until a coin toss before the first winter; 24 units win",
        blocs: &[&[England, France, Russia], &[Austria, Germany, Turkey]],
        out: &[Italy],
        start_year: 1914,
        neutral_italy: true,
        victory_units: Some(24),
    },
];

impl Variant {
    pub fn by_name(name: &str) -> Option<Variant> {
        VARIANTS
            .into_iter()
            .find(|v| v.name.eq_ignore_ascii_case(name))
    }

    pub fn players(&self) -> usize {
        self.blocs.len()
    }

    /// The starting position: the standard one, in the variant's first
    /// year. (Out countries keep their units: they hold and defend.)
    /// In the two-player game neutral Italy has no units; it owns its
    /// centres, which its new side builds in after the coin toss.
    pub fn start(&self, map: &Map) -> Position {
        let mut position = Position::standard_start(map);
        position.phase = Phase::new(Season::Spring, self.start_year, PhaseKind::Movement);
        if self.neutral_italy {
            position.units.retain(|u| u.power != Italy);
        }
        position
    }

    /// Whether Italy is still neutral at `phase` (two-player game): before
    /// the first winter's adjustments.
    pub fn italy_neutral_at(&self, phase: Phase) -> bool {
        self.neutral_italy
            && (phase.year < self.start_year
                || (phase.year == self.start_year && phase.season != Season::Winter))
    }

    /// The adjudicator's rules at `phase`: countries out of the game and
    /// countries in civil disorder are inert; Italy's land is closed while
    /// it is neutral. (Neutral Italy stops being inert from the Fall of
    /// the first year, when the coin toss gives it a side, so that its
    /// builds that winter are counted.)
    pub fn rules_at(&self, map: &Map, phase: Phase, in_disorder: &[Power]) -> Rules {
        let mut rules = Rules::standard();
        for &p in self.out {
            let joined = self.neutral_italy && p == Italy && self.italy_has_joined(phase);
            if !joined {
                rules.set_inert(p);
            }
        }
        for &p in in_disorder {
            rules.set_inert(p);
        }
        if self.italy_neutral_at(phase) {
            rules.close(map, &ITALIAN_TERRITORY);
        }
        rules
    }

    /// Two-player game: whether the coin toss has given Italy a side by
    /// `phase` (it is tossed as the first Fall is processed).
    pub fn italy_has_joined(&self, phase: Phase) -> bool {
        self.neutral_italy
            && (phase.year > self.start_year
                || (phase.year == self.start_year && phase.season != Season::Spring))
    }

    /// The coin toss of the two-player game: which bloc (index) Italy
    /// joins, drawn reproducibly from the game's seed.
    pub fn coin_toss(&self, seed: i64) -> usize {
        let mut lot = super::start::Lot::new(seed ^ 0x1915);
        (lot.next_u64() % 2) as usize
    }

    /// The player (bloc index) who has won in `position`, if any: in the
    /// two-player game by 24 units on the board; otherwise by 18 supply
    /// centres held by one player's countries together.
    pub fn winner(&self, position: &Position, blocs: &[Vec<Power>]) -> Option<usize> {
        blocs.iter().position(|powers| match self.victory_units {
            Some(n) => {
                powers
                    .iter()
                    .map(|&p| position.unit_count(p))
                    .sum::<usize>()
                    >= n
            }
            None => {
                powers
                    .iter()
                    .map(|&p| position.centre_count(p))
                    .sum::<usize>()
                    >= crate::engine::adjudicate::VICTORY_CENTRES
            }
        })
    }
}

/// Provinces by abbreviation (for tests and callers naming provinces).
pub fn provinces(map: &Map, abbrs: &[&str]) -> Vec<Province> {
    abbrs
        .iter()
        .filter_map(|a| map.province_by_abbr(a))
        .collect()
}
