//! Orders as the engine understands them, and their two written forms: the
//! short one of the JSON interface (`A PAR - BUR`) and the long one of the
//! mails (`Army Paris -> Burgundy.`).

use std::fmt;

use super::map::{Location, Map, Power, Province, UnitType};

/// The words of a terse form of an order ([`Order::terse`]) that differ
/// between the short form and the parser's suggestions.
pub(crate) struct TerseWords {
    /// After a move's destination, when it asks for a convoy.
    pub via_convoy: &'static str,
    pub disband: &'static str,
    pub build: &'static str,
    pub remove: &'static str,
    pub waive: &'static str,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OrderKind {
    Hold,
    /// `via_convoy`: the player asked for the sea route ("via convoy", or a
    /// route spelled out).
    Move {
        to: Location,
        via_convoy: bool,
    },
    /// Support of the unit in `from`: to hold when `to` is None, else to
    /// move into `to`. A support needs no coast; one that names a coast
    /// supports only a move to that coast.
    Support {
        unit: UnitType,
        from: Province,
        to: Option<Location>,
    },
    /// Convoy of the army in `from` to `to`.
    Convoy {
        from: Province,
        to: Province,
    },
    Retreat {
        to: Location,
    },
    Disband,
    /// Build a unit of the order's type at the order's location.
    Build,
    Remove,
    /// Decline a build. The order's unit and location mean nothing.
    Waive,
}

/// An order for one unit (or, for `Build`/`Waive`, for one power).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Order {
    pub power: Power,
    pub unit: UnitType,
    pub location: Location,
    pub kind: OrderKind,
}

impl Order {
    pub fn new(power: Power, unit: UnitType, location: Location, kind: OrderKind) -> Order {
        Order {
            power,
            unit,
            location,
            kind,
        }
    }

    pub fn waive(power: Power) -> Order {
        Order::new(power, UnitType::Army, Location(0), OrderKind::Waive)
    }

    /// The short form of the JSON interface: `A PAR - BUR`,
    /// `F NTH C A LON - BEL`, `A LON - BEL VIA CONVOY`, `BUILD F STP/NC`,
    /// `REMOVE A MUN`, `WAIVE`, `A BUR R GAS`, `A BUR DISBAND`.
    pub fn short(&self, map: &Map) -> String {
        self.terse(
            &TerseWords {
                via_convoy: " VIA CONVOY",
                disband: "DISBAND",
                build: "BUILD",
                remove: "REMOVE",
                waive: "WAIVE",
            },
            |l| map.loc_abbr(l),
            |p| map.abbr(p),
        )
    }

    /// A terse form (unit letters, `-`, `S`, `C`, `R`): the short form, or
    /// the form the parser suggests; `words` for the rest, `place` and
    /// `province` to name the map.
    pub(crate) fn terse<L: fmt::Display, P: fmt::Display>(
        &self,
        words: &TerseWords,
        place: impl Fn(Location) -> L,
        province: impl Fn(Province) -> P,
    ) -> String {
        let u = self.unit.letter();
        let at = place(self.location);
        let p = province;
        match self.kind {
            OrderKind::Hold => format!("{u} {at} H"),
            OrderKind::Move { to, via_convoy } => {
                let via = if via_convoy { words.via_convoy } else { "" };
                format!("{u} {at} - {}{via}", place(to))
            }
            OrderKind::Support {
                unit,
                from,
                to: None,
            } => format!("{u} {at} S {} {}", unit.letter(), p(from)),
            OrderKind::Support {
                unit,
                from,
                to: Some(to),
            } => format!("{u} {at} S {} {} - {}", unit.letter(), p(from), place(to)),
            OrderKind::Convoy { from, to } => format!("{u} {at} C A {} - {}", p(from), p(to)),
            OrderKind::Retreat { to } => format!("{u} {at} R {}", place(to)),
            OrderKind::Disband => format!("{u} {at} {}", words.disband),
            OrderKind::Build => format!("{} {u} {at}", words.build),
            OrderKind::Remove => format!("{} {u} {at}", words.remove),
            OrderKind::Waive => words.waive.to_string(),
        }
    }

    /// The long form of the mails: `Army Paris -> Burgundy.`,
    /// `Fleet North Sea CONVOY Army London -> Belgium.`
    pub fn long(&self, map: &Map) -> String {
        let u = self.unit.name();
        let at = map.loc_name(self.location);
        let p = |p: Province| map.name(p);
        match self.kind {
            OrderKind::Hold => format!("{u} {at} HOLD."),
            OrderKind::Move { to, via_convoy } => {
                let via = if via_convoy { " via Convoy" } else { "" };
                format!("{u} {at} -> {}{via}.", map.loc_name(to))
            }
            OrderKind::Support {
                unit,
                from,
                to: None,
            } => {
                format!("{u} {at} SUPPORT {} {}.", unit.name(), p(from))
            }
            OrderKind::Support {
                unit,
                from,
                to: Some(to),
            } => format!(
                "{u} {at} SUPPORT {} {} -> {}.",
                unit.name(),
                p(from),
                map.loc_name(to)
            ),
            OrderKind::Convoy { from, to } => {
                format!("{u} {at} CONVOY Army {} -> {}.", p(from), p(to))
            }
            OrderKind::Retreat { to } => format!("{u} {at} -> {}.", map.loc_name(to)),
            OrderKind::Disband => format!("{u} {at} DISBAND."),
            OrderKind::Build => format!("Build {} {at}.", u.to_ascii_lowercase()),
            OrderKind::Remove => format!("Remove {} {at}.", u.to_ascii_lowercase()),
            OrderKind::Waive => "Build waived.".to_string(),
        }
    }
}
