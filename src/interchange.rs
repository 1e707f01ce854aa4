//! The JSON form of positions, orders and results, shared by `judge
//! adjudicate` (JSON Lines in and out) and `judge export`.
//!
//! Powers are upper-case English names (`FRANCE`), locations upper-case
//! standard abbreviations with coasts as `/NC /SC /EC` (`STP/SC`), units
//! `A PAR` / `F STP/SC`, orders in the short form of [`Order::short`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::adjudicate::{adjudicate, Adjudication};
use crate::engine::map::{Location, Map, Power, Province, UnitType};
use crate::engine::order::Order;
use crate::engine::parse::parse_orders;
use crate::engine::phase::{Phase, PhaseKind};
use crate::engine::position::{Dislodged, Position, Unit};

/// Per power: unit texts.
pub type UnitsJson = BTreeMap<String, Vec<String>>;
/// Per power: dislodged unit text to its retreat options.
pub type RetreatsJson = BTreeMap<String, BTreeMap<String, Vec<String>>>;

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
pub struct PositionJson {
    pub phase: String,
    #[serde(default)]
    pub units: UnitsJson,
    /// Absent: every power owns its home centres.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub centers: Option<UnitsJson>,
    /// Absent: the standard home centres.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub homes: Option<UnitsJson>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub retreats: RetreatsJson,
}

/// One line of `judge adjudicate` input: a position and the orders.
#[derive(Debug, Clone, Deserialize)]
pub struct PhaseInput {
    #[serde(flatten)]
    pub position: PositionJson,
    #[serde(default)]
    pub orders: BTreeMap<String, Vec<String>>,
}

/// One line of `judge adjudicate` output.
#[derive(Debug, Clone, Serialize)]
pub struct PhaseOutput {
    pub phase: String,
    pub next: PositionJson,
    /// Order (short form) to its result: "ok", "bounce", "cut, dislodged", ...
    pub results: BTreeMap<String, String>,
    /// Orders that could not be read, with the reason.
    pub errors: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
}

fn parse_power(name: &str) -> Result<Power, String> {
    Power::ALL
        .into_iter()
        .find(|p| p.upper().eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown power {name:?}"))
}

fn parse_location(map: &Map, text: &str) -> Result<Location, String> {
    map.location_by_abbr(text.trim())
        .ok_or_else(|| format!("unknown location {text:?}"))
}

fn parse_province(map: &Map, text: &str) -> Result<Province, String> {
    let l = parse_location(map, text)?;
    if map.coast_of(l).is_some() {
        return Err(format!(
            "{text:?}: a supply centre is a province, not a coast"
        ));
    }
    Ok(map.province_of(l))
}

/// "A PAR", "F STP/SC".
fn parse_unit(map: &Map, power: Power, text: &str) -> Result<Unit, String> {
    let t = text.trim();
    let (kind, rest) = match t.split_once(' ') {
        Some(("A", rest)) | Some(("a", rest)) => (UnitType::Army, rest),
        Some(("F", rest)) | Some(("f", rest)) => (UnitType::Fleet, rest),
        _ => {
            return Err(format!(
                "{text:?} is not a unit: write it like \"A PAR\" or \"F STP/SC\""
            ))
        }
    };
    let location = parse_location(map, rest)?;
    if !map.can_stand(kind, location) {
        return Err(format!(
            "{text:?}: {} cannot stand in {}",
            if kind == UnitType::Army {
                "an army"
            } else {
                "a fleet"
            },
            map.loc_name(location)
        ));
    }
    Ok(Unit {
        power,
        kind,
        location,
    })
}

pub fn unit_text(map: &Map, u: &Unit) -> String {
    format!("{} {}", u.kind.letter(), map.loc_abbr(u.location))
}

impl PositionJson {
    /// Checks and converts to an engine position.
    pub fn to_position(&self, map: &Map) -> Result<Position, String> {
        let phase: Phase = self.phase.parse().map_err(|e| format!("{e}"))?;
        let mut pos = Position::empty(map, phase);
        let mut taken = vec![false; map.province_count()];
        for (power, list) in &self.units {
            let power = parse_power(power)?;
            for text in list {
                let unit = parse_unit(map, power, text)?;
                let p = map.province_of(unit.location);
                if std::mem::replace(&mut taken[p.index()], true) {
                    return Err(format!("two units in {}", map.abbr(p)));
                }
                pos.units.push(unit);
            }
        }
        if pos.units.len() > map.supply_centres().count() {
            return Err(format!(
                "{} units: more than the board's supply centres",
                pos.units.len()
            ));
        }
        if let Some(homes) = &self.homes {
            pos.homes = Default::default();
            for (power, list) in homes {
                let power = parse_power(power)?;
                for text in list {
                    let p = parse_province(map, text)?;
                    pos.homes[power.index()].push(p);
                }
            }
        }
        match &self.centers {
            Some(centers) => {
                for (power, list) in centers {
                    let power = parse_power(power)?;
                    for text in list {
                        let p = parse_province(map, text)?;
                        if !map.is_supply_centre(p) {
                            return Err(format!("{text:?} is not a supply centre"));
                        }
                        if let Some(other) = pos.owners[p.index()].replace(power) {
                            return Err(format!(
                                "{text:?} is owned by both {} and {}",
                                other.upper(),
                                power.upper()
                            ));
                        }
                    }
                }
            }
            None => {
                for power in Power::ALL {
                    for &p in &pos.homes[power.index()] {
                        pos.owners[p.index()] = Some(power);
                    }
                }
            }
        }
        if !self.retreats.is_empty() && phase.kind != PhaseKind::Retreat {
            return Err(format!(
                "retreats given in {phase}, which is not a retreat phase"
            ));
        }
        for (power, units) in &self.retreats {
            let power = parse_power(power)?;
            for (text, options) in units {
                let unit = parse_unit(map, power, text)?;
                let retreats = options
                    .iter()
                    .map(|o| parse_location(map, o))
                    .collect::<Result<Vec<_>, _>>()?;
                pos.dislodged.push(Dislodged { unit, retreats });
            }
        }
        Ok(pos)
    }

    pub fn from_position(map: &Map, pos: &Position) -> PositionJson {
        let mut units = UnitsJson::new();
        for u in &pos.units {
            units
                .entry(u.power.upper().to_string())
                .or_default()
                .push(unit_text(map, u));
        }
        let mut centers = UnitsJson::new();
        for p in map.provinces() {
            if let Some(owner) = pos.owner(p) {
                centers
                    .entry(owner.upper().to_string())
                    .or_default()
                    .push(map.abbr(p).to_string());
            }
        }
        let mut retreats = RetreatsJson::new();
        for d in &pos.dislodged {
            retreats
                .entry(d.unit.power.upper().to_string())
                .or_default()
                .insert(
                    unit_text(map, &d.unit),
                    d.retreats.iter().map(|&l| map.loc_abbr(l)).collect(),
                );
        }
        let standard = Position::empty(map, pos.phase).homes;
        PositionJson {
            phase: pos.phase.to_string(),
            units,
            centers: Some(centers),
            homes: (pos.homes != standard).then(|| {
                let mut homes = UnitsJson::new();
                for power in Power::ALL {
                    let list: Vec<String> = pos.homes[power.index()]
                        .iter()
                        .map(|&p| map.abbr(p).to_string())
                        .collect();
                    if !list.is_empty() {
                        homes.insert(power.upper().to_string(), list);
                    }
                }
                homes
            }),
            retreats,
        }
    }
}

/// Runs one input line's phase. `Err` for a position that cannot be read;
/// orders that cannot be read go into the output's `errors`.
pub fn run_phase(map: &Map, input: &PhaseInput) -> Result<PhaseOutput, String> {
    let position = input.position.to_position(map)?;
    let mut orders: Vec<Order> = Vec::new();
    let mut errors = Vec::new();
    for (power_name, texts) in &input.orders {
        let power = parse_power(power_name)?;
        for text in texts {
            for parsed in parse_orders(map, &position, power, text) {
                match parsed {
                    Ok(o) => orders.push(o),
                    Err(e) => errors.push(format!("{}: {e}", power.upper())),
                }
            }
        }
    }
    let Adjudication {
        orders: results,
        next,
        winner,
        ..
    } = adjudicate(map, &position, &orders);
    Ok(PhaseOutput {
        phase: position.phase.to_string(),
        next: PositionJson::from_position(map, &next),
        results: results
            .iter()
            .map(|(o, outcome)| (o.short(map), outcome.summary()))
            .collect(),
        errors,
        winner: winner.map(|p| p.upper().to_string()),
    })
}
