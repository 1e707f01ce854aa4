//! Phases: `S1901M`, `S1901R`, `F1901M`, `F1901R`, `W1901A`, `S1902M`, ...

use std::fmt;
use std::str::FromStr;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Season {
    Spring,
    Fall,
    Winter,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PhaseKind {
    Movement,
    Retreat,
    Adjustment,
}

/// A phase of the game. Ordered in time.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Phase {
    pub year: u16,
    pub season: Season,
    pub kind: PhaseKind,
}

impl Phase {
    pub const fn new(season: Season, year: u16, kind: PhaseKind) -> Phase {
        Phase { year, season, kind }
    }

    /// Spring 1901, movement: where the standard game starts.
    pub const START: Phase = Phase::new(Season::Spring, 1901, PhaseKind::Movement);

    /// The phase that follows in the full sequence, before any skipping of
    /// empty retreat or adjustment phases (the adjudicator does that).
    pub fn successor(self) -> Phase {
        use PhaseKind::*;
        use Season::*;
        match (self.season, self.kind) {
            (Spring, Movement) => Phase::new(Spring, self.year, Retreat),
            (Spring, _) => Phase::new(Fall, self.year, Movement),
            (Fall, Movement) => Phase::new(Fall, self.year, Retreat),
            (Fall, _) => Phase::new(Winter, self.year, Adjustment),
            (Winter, _) => Phase::new(Spring, self.year + 1, Movement),
        }
    }

    /// "Movement results for Spring of 1901" style words.
    pub fn season_name(self) -> &'static str {
        match self.season {
            Season::Spring => "Spring",
            Season::Fall => "Fall",
            Season::Winter => "Winter",
        }
    }

    pub fn kind_name(self) -> &'static str {
        match self.kind {
            PhaseKind::Movement => "Movement",
            PhaseKind::Retreat => "Retreats",
            PhaseKind::Adjustment => "Adjustments",
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self.season {
            Season::Spring => 'S',
            Season::Fall => 'F',
            Season::Winter => 'W',
        };
        let k = match self.kind {
            PhaseKind::Movement => 'M',
            PhaseKind::Retreat => 'R',
            PhaseKind::Adjustment => 'A',
        };
        write!(f, "{s}{}{k}", self.year)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadPhase(pub String);

impl fmt::Display for BadPhase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a phase: write it like S1901M, F1901R or W1901A",
            self.0
        )
    }
}

impl std::error::Error for BadPhase {}

impl FromStr for Phase {
    type Err = BadPhase;

    fn from_str(text: &str) -> Result<Phase, BadPhase> {
        let bad = || BadPhase(text.to_string());
        let t = text.trim().to_ascii_uppercase();
        let b = t.as_bytes();
        if b.len() < 3 || !b[1..b.len() - 1].iter().all(u8::is_ascii_digit) {
            return Err(bad());
        }
        let season = match b[0] {
            b'S' => Season::Spring,
            b'F' => Season::Fall,
            b'W' => Season::Winter,
            _ => return Err(bad()),
        };
        let kind = match b[b.len() - 1] {
            b'M' => PhaseKind::Movement,
            b'R' => PhaseKind::Retreat,
            b'A' | b'B' => PhaseKind::Adjustment,
            _ => return Err(bad()),
        };
        let year: u16 = t[1..t.len() - 1].parse().map_err(|_| bad())?;
        let valid = matches!(
            (season, kind),
            (
                Season::Spring | Season::Fall,
                PhaseKind::Movement | PhaseKind::Retreat
            ) | (Season::Winter, PhaseKind::Adjustment)
        );
        if !valid {
            return Err(bad());
        }
        Ok(Phase::new(season, year, kind))
    }
}
