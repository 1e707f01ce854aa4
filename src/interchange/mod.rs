//! The JSON form of positions, orders and results, shared by `judge
//! adjudicate` (JSON Lines in and out) and `judge export`.
//!
//! Powers are upper-case English names (`FRANCE`), locations upper-case
//! standard abbreviations with coasts as `/NC /SC /EC` (`STP/SC`), units
//! `A PAR` / `F STP/SC`, orders in the short form of [`Order::short`].
//!
//! This module is the serde path: [`PhaseInput`] in, [`run_phase`],
//! [`PhaseOutput`] out. `plain_line` is the fast path for plain `judge
//! adjudicate` lines ([`PhaseLine`], [`write_phase`]), bound to write the
//! same bytes.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::engine::adjudicate::{adjudicate, Adjudication};
use crate::engine::map::{HomeCentres, LocSet, Location, Map, Power, Province, UnitType};
use crate::engine::order::Order;
use crate::engine::parse::OrderReader;
use crate::engine::phase::{Phase, PhaseKind};
use crate::engine::position::{Dislodged, Position, Unit};

mod plain_line;

pub use plain_line::{write_phase, PhaseLine, ReadPhase};

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
    /// Asks for the map of the phase with its orders and results, as SVG,
    /// in the output's `svg`.
    #[serde(default)]
    pub svg: bool,
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
    /// The map of the phase, when the input asked for it (`"svg": true`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
}

fn parse_power(name: &str) -> Result<Power, String> {
    // The usual spelling first: upper case.
    if let Some(p) = Power::ALL.into_iter().find(|p| p.upper() == name) {
        return Ok(p);
    }
    Power::ALL
        .into_iter()
        .find(|p| p.upper().eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown power {name:?}"))
}

fn parse_location(map: &Map, text: &str) -> Result<Location, String> {
    // No white space to trim in the usual spellings.
    let plain = text.bytes().all(|b| b.is_ascii_alphabetic() || b == b'/');
    map.location_by_abbr(if plain { text } else { text.trim() })
        .ok_or_else(|| format!("unknown location {text:?}"))
}

fn parse_province(map: &Map, text: &str) -> Result<Province, String> {
    // The usual spelling: three letters.
    if let Some(p) = map.province_by_abbr3(text.as_bytes()) {
        return Ok(p);
    }
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
    // The usual spelling, read directly (no white space to trim).
    if let [k @ (b'A' | b'F'), b' ', rest @ ..] = text.as_bytes() {
        let kind = if *k == b'A' {
            UnitType::Army
        } else {
            UnitType::Fleet
        };
        // Anything else (white space to trim, an unknown place) is left
        // to the general reading below, for its message.
        let location = match rest {
            [_, _, _] => map.province_by_abbr3(rest).map(Province::location),
            _ => map.location_by_abbr(&text[2..]),
        };
        if let Some(location) = location {
            if map.can_stand(kind, location) {
                return Ok(Unit {
                    power,
                    kind,
                    location,
                });
            }
        }
    }
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
        let centers = self.centers.as_ref().map(lists);
        let homes = self.homes.as_ref().map(lists);
        let retreats: Vec<PowerEntries<'_, String>> = self
            .retreats
            .iter()
            .map(|(power, units)| (power.as_str(), lists(units)))
            .collect();
        position_from(
            map,
            &self.phase,
            &lists(&self.units),
            centers.as_deref(),
            homes.as_deref(),
            &retreats,
        )
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
    let (position, orders, errors) = read_phase(map, input)?;
    let adjudication = adjudicate(map, &position, &orders);
    let svg = input.svg.then(|| {
        let phase = position.phase;
        let title = format!(
            "{} {}, {} results",
            phase.season_name(),
            phase.year,
            match phase.kind {
                crate::engine::phase::PhaseKind::Movement => "movement",
                crate::engine::phase::PhaseKind::Retreat => "retreat",
                crate::engine::phase::PhaseKind::Adjustment => "adjustment",
            }
        );
        crate::draw::svg(
            map,
            &crate::draw::Scene {
                position: &position,
                orders: &adjudication.orders,
                retreats: &adjudication.next.dislodged,
                title: &title,
                palette: crate::draw::Palette::default(),
            },
        )
    });
    let Adjudication {
        orders: results,
        next,
        winner,
        ..
    } = adjudication;
    Ok(PhaseOutput {
        phase: position.phase.to_string(),
        next: PositionJson::from_position(map, &next),
        results: results
            .iter()
            .map(|(o, outcome)| (o.short(map), outcome.summary()))
            .collect(),
        errors,
        winner: winner.map(|p| p.upper().to_string()),
        svg,
    })
}

/// The position and the orders of an input line, read and checked; the
/// orders that could not be read, with the reason, beside them.
pub fn read_phase(
    map: &Map,
    input: &PhaseInput,
) -> Result<(Position, Vec<Order>, Vec<String>), String> {
    let position = input.position.to_position(map)?;
    let (orders, errors) = read_orders(map, &position, &lists(&input.orders))?;
    Ok((position, orders, errors))
}

/// Reads every power's orders: those read, and those that could not be
/// read, with the reason. `Err` for an unknown power.
fn read_orders<S: AsRef<str>>(
    map: &Map,
    position: &Position,
    texts: &[(&str, &[S])],
) -> Result<(Vec<Order>, Vec<String>), String> {
    let mut orders: Vec<Order> = Vec::with_capacity(position.units.len() + 8);
    let mut errors = Vec::new();
    let reader = OrderReader::new(map, position);
    for &(power_name, texts) in texts {
        let power = parse_power(power_name)?;
        for text in texts {
            reader.read_line(power, text.as_ref(), |parsed| match parsed {
                Ok(o) => orders.push(o),
                Err(e) => errors.push(format!("{}: {e}", power.upper())),
            });
        }
    }
    Ok((orders, errors))
}

/// One entry of a map of lists: the key and its list.
type Entry<'a, S> = (&'a str, &'a [S]);

/// A power's entry in a map of maps of lists (`retreats`): the power and
/// its map's entries.
type PowerEntries<'a, S> = (&'a str, Vec<Entry<'a, S>>);

/// A map of lists as a slice of its entries, in order.
fn lists<S>(map: &BTreeMap<String, Vec<S>>) -> Vec<(&str, &[S])> {
    map.iter().map(|(k, v)| (k.as_str(), &v[..])).collect()
}

/// [`PositionJson::to_position`] on the parts of a position, each map
/// given as its entries in key order (as a `BTreeMap` gives them).
fn position_from<S: AsRef<str>>(
    map: &Map,
    phase: &str,
    units: &[(&str, &[S])],
    centers: Option<&[(&str, &[S])]>,
    homes: Option<&[(&str, &[S])]>,
    retreats: &[PowerEntries<'_, S>],
) -> Result<Position, String> {
    let phase: Phase = phase.parse().map_err(|e| format!("{e}"))?;
    let mut pos = Position::empty(map, phase);
    read_units(map, units, &mut pos)?;
    if let Some(homes) = homes {
        pos.homes = Arc::new(read_homes(map, homes)?);
    }
    match centers {
        Some(centers) => read_centers(map, centers, &mut pos)?,
        None => {
            for power in Power::ALL {
                for &p in &pos.homes[power.index()] {
                    pos.owners[p.index()] = Some(power);
                }
            }
        }
    }
    if !retreats.is_empty() && phase.kind != PhaseKind::Retreat {
        return Err(format!(
            "retreats given in {phase}, which is not a retreat phase"
        ));
    }
    read_retreats(map, retreats, &mut pos)?;
    Ok(pos)
}

/// The units, into `pos`: at most one a province, no more than the
/// board's supply centres.
fn read_units<S: AsRef<str>>(
    map: &Map,
    units: &[(&str, &[S])],
    pos: &mut Position,
) -> Result<(), String> {
    pos.units.reserve(
        units
            .iter()
            .map(|(_, list)| list.len())
            .sum::<usize>()
            .min(64),
    );
    // Provinces with a unit (a map has at most 128 locations).
    let mut taken = LocSet::default();
    for &(power, list) in units {
        let power = parse_power(power)?;
        for text in list {
            let text = text.as_ref();
            let unit = parse_unit(map, power, text)?;
            let p = map.province_of(unit.location);
            if taken.contains(p.index()) {
                return Err(format!("two units in {}", map.abbr(p)));
            }
            taken.insert(p.index());
            pos.units.push(unit);
        }
    }
    if pos.units.len() > map.supply_centres().count() {
        return Err(format!(
            "{} units: more than the board's supply centres",
            pos.units.len()
        ));
    }
    Ok(())
}

/// The home centres given, per power.
fn read_homes<S: AsRef<str>>(map: &Map, homes: &[(&str, &[S])]) -> Result<HomeCentres, String> {
    let mut table = HomeCentres::default();
    for &(power, list) in homes {
        let power = parse_power(power)?;
        for text in list {
            let p = parse_province(map, text.as_ref())?;
            table[power.index()].push(p);
        }
    }
    Ok(table)
}

/// The owners of supply centres, into `pos`: each a supply centre, owned
/// by one power.
fn read_centers<S: AsRef<str>>(
    map: &Map,
    centers: &[(&str, &[S])],
    pos: &mut Position,
) -> Result<(), String> {
    for &(power, list) in centers {
        let power = parse_power(power)?;
        for text in list {
            let text = text.as_ref();
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
    Ok(())
}

/// The dislodged units and their retreat options, into `pos`.
fn read_retreats<S: AsRef<str>>(
    map: &Map,
    retreats: &[PowerEntries<'_, S>],
    pos: &mut Position,
) -> Result<(), String> {
    for (power, units) in retreats {
        let power = parse_power(power)?;
        for &(text, options) in units {
            let unit = parse_unit(map, power, text)?;
            let retreats = options
                .iter()
                .map(|o| parse_location(map, o.as_ref()))
                .collect::<Result<Vec<_>, _>>()?;
            pos.dislodged.push(Dislodged { unit, retreats });
        }
    }
    Ok(())
}
