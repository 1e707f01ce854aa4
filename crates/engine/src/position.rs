//! A position: the phase, the units on the board, who owns which supply
//! centre, and (in a retreat phase) the dislodged units and where each may go.

use std::sync::Arc;

use super::map::{HomeCentres, Location, Map, Power, Province, UnitType};
use super::phase::Phase;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    pub power: Power,
    pub kind: UnitType,
    pub location: Location,
}

/// A unit dislodged in the movement phase before a retreat phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dislodged {
    pub unit: Unit,
    /// Where it may retreat (already excluding the attacker's origin,
    /// occupied provinces and provinces left empty by a standoff).
    pub retreats: Vec<Location>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub phase: Phase,
    pub units: Vec<Unit>,
    /// Supply-centre owner per province id (None for neutral centres and
    /// for provinces that are not centres).
    pub owners: Vec<Option<Power>>,
    /// Home centres per power (indexed by `Power::index`): where it may
    /// build. Shared between positions (`Arc::make_mut` to change them).
    pub homes: Arc<HomeCentres>,
    /// Only in retreat phases.
    pub dislodged: Vec<Dislodged>,
}

/// Which unit stands in each province of a position: for many lookups in
/// one position (reading a power's orders), where [`Position::unit_in`]
/// would search the units every time.
#[derive(Clone, Debug)]
pub struct Occupancy {
    /// Per province: the index of its unit in `units`, plus one; 0: none.
    /// (A map has at most 128 locations, so at most 128 provinces.)
    unit_of: [u8; 128],
    /// More units than a `u8` counts: search them instead.
    search: bool,
}

impl Occupancy {
    pub fn of(map: &Map, pos: &Position) -> Occupancy {
        let mut unit_of = [0u8; 128];
        let search = pos.units.len() >= u8::MAX as usize;
        if !search {
            // In reverse: where a province held two units, the first
            // counts, as for `unit_in`.
            for (i, u) in pos.units.iter().enumerate().rev() {
                unit_of[map.province_of(u.location).index()] = i as u8 + 1;
            }
        }
        Occupancy { unit_of, search }
    }

    /// [`Position::unit_in`] for the position this table was made of.
    pub fn unit_in<'p>(&self, map: &Map, pos: &'p Position, p: Province) -> Option<&'p Unit> {
        if self.search {
            return pos.unit_in(map, p);
        }
        match self.unit_of.get(p.index()) {
            Some(&i) if i > 0 => pos.units.get(i as usize - 1),
            _ => None,
        }
    }
}

impl Position {
    /// An empty board at `phase` with the standard home centres and no owners.
    pub fn empty(map: &Map, phase: Phase) -> Position {
        Position {
            phase,
            units: Vec::new(),
            owners: vec![None; map.province_count()],
            homes: map.home_table(),
            dislodged: Vec::new(),
        }
    }

    /// Spring 1901: 22 units, each power owning its home centres.
    pub fn standard_start(map: &Map) -> Position {
        let mut pos = Position::empty(map, Phase::START);
        const START: [(Power, &str); 22] = [
            (Power::Austria, "A BUD"),
            (Power::Austria, "F TRI"),
            (Power::Austria, "A VIE"),
            (Power::England, "F EDI"),
            (Power::England, "F LON"),
            (Power::England, "A LVP"),
            (Power::France, "F BRE"),
            (Power::France, "A MAR"),
            (Power::France, "A PAR"),
            (Power::Germany, "F KIE"),
            (Power::Germany, "A BER"),
            (Power::Germany, "A MUN"),
            (Power::Italy, "F NAP"),
            (Power::Italy, "A ROM"),
            (Power::Italy, "A VEN"),
            (Power::Russia, "A MOS"),
            (Power::Russia, "F SEV"),
            (Power::Russia, "F STP/SC"),
            (Power::Russia, "A WAR"),
            (Power::Turkey, "F ANK"),
            (Power::Turkey, "A CON"),
            (Power::Turkey, "A SMY"),
        ];
        for (power, text) in START {
            let kind = if text.starts_with('A') {
                UnitType::Army
            } else {
                UnitType::Fleet
            };
            let location = map.location_by_abbr(&text[2..]).expect("start location");
            pos.units.push(Unit {
                power,
                kind,
                location,
            });
        }
        for power in Power::ALL {
            for &p in &pos.homes[power.index()] {
                pos.owners[p.index()] = Some(power);
            }
        }
        pos
    }

    pub fn unit_in(&self, map: &Map, p: Province) -> Option<&Unit> {
        if map.coasts(p).is_empty() {
            // One location: the province's own (the same test, cheaper).
            let l = p.location();
            return self.units.iter().find(|u| u.location == l);
        }
        self.units.iter().find(|u| map.province_of(u.location) == p)
    }

    pub fn dislodged_in(&self, map: &Map, p: Province) -> Option<&Dislodged> {
        self.dislodged
            .iter()
            .find(|d| map.province_of(d.unit.location) == p)
    }

    pub fn owner(&self, p: Province) -> Option<Power> {
        self.owners[p.index()]
    }

    pub fn centre_count(&self, power: Power) -> usize {
        self.owners.iter().filter(|&&o| o == Some(power)).count()
    }

    pub fn unit_count(&self, power: Power) -> usize {
        self.units.iter().filter(|u| u.power == power).count()
    }

    pub fn is_home(&self, power: Power, p: Province) -> bool {
        self.homes[power.index()].contains(&p)
    }

    /// Builds (positive) or removals (negative) due in an adjustment phase.
    pub fn adjustment_due(&self, power: Power) -> i32 {
        self.centre_count(power) as i32 - self.unit_count(power) as i32
    }

    /// Powers still in the game: owning a centre or having a unit.
    pub fn survivors(&self) -> Vec<Power> {
        Power::ALL
            .into_iter()
            .filter(|&p| self.centre_count(p) > 0 || self.unit_count(p) > 0)
            .collect()
    }
}
