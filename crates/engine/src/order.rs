//! Orders as the engine understands them, and their two written forms: the
//! short one of the JSON interface (`A PAR - BUR`) and the long one of the
//! mails (`Army Paris -> Burgundy.`).

use super::map::{Location, Map, Power, Province, UnitType};

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
        let u = self.unit.letter();
        let at = map.loc_abbr(self.location);
        let p = |p: Province| map.abbr(p);
        match self.kind {
            OrderKind::Hold => format!("{u} {at} H"),
            OrderKind::Move { to, via_convoy } => {
                let via = if via_convoy { " VIA CONVOY" } else { "" };
                format!("{u} {at} - {}{via}", map.loc_abbr(to))
            }
            OrderKind::Support {
                unit,
                from,
                to: None,
            } => {
                format!("{u} {at} S {} {}", unit.letter(), p(from))
            }
            OrderKind::Support {
                unit,
                from,
                to: Some(to),
            } => format!(
                "{u} {at} S {} {} - {}",
                unit.letter(),
                p(from),
                map.loc_abbr(to)
            ),
            OrderKind::Convoy { from, to } => format!("{u} {at} C A {} - {}", p(from), p(to)),
            OrderKind::Retreat { to } => format!("{u} {at} R {}", map.loc_abbr(to)),
            OrderKind::Disband => format!("{u} {at} DISBAND"),
            OrderKind::Build => format!("BUILD {u} {at}"),
            OrderKind::Remove => format!("REMOVE {u} {at}"),
            OrderKind::Waive => "WAIVE".to_string(),
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
