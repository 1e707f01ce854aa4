//! Shared by `benches/adjudicate.rs` and the examples `peer_adjudicate` and
//! `gen_phases`: the two benchmark positions, a reader for the short order
//! form of the JSON interface (`A PAR - BUR`), and the translation of a
//! phase into the `diplomacy` crate's terms.
//!
//! Cargo also finds this file as a bench target of its own (`positions`,
//! no benchmarks in it); that is harmless.
#![allow(dead_code)]

use std::collections::HashMap;

use diplomacy::geo::RegionKey;
use diplomacy::judge::{MappedMainOrder, OrderState, Outcome as PeerOutcome, Rulebook, Submission};
use diplomacy::UnitPosition;
use judge::engine::map::{Map, Power, Province, UnitType};
use judge::engine::order::{Order, OrderKind};
use judge::engine::outcome::Outcome;
use judge::engine::phase::Phase;
use judge::engine::position::{Position, Unit};

/// Borders our map has and the `diplomacy` 0.2.0 map lacks, as province
/// pairs (for any unit type and any coast). Generated phases never use them.
pub const PEER_MISSING_BORDERS: [(&str, &str); 10] = [
    ("GAL", "UKR"),
    ("LVN", "WAR"),
    ("NWY", "STP"),
    ("BOT", "FIN"),
    ("BOT", "LVN"),
    ("BOT", "STP"),
    ("BOT", "SWE"),
    ("CON", "SMY"),
    ("MAO", "SPA"),
    ("TUS", "TYS"),
];

/// Whether a border between these provinces exists on the peer's map too
/// (as far as we know: see [`PEER_MISSING_BORDERS`]).
pub fn peer_has_border(map: &Map, a: Province, b: Province) -> bool {
    let (a, b) = (map.abbr(a), map.abbr(b));
    !PEER_MISSING_BORDERS
        .iter()
        .any(|&(x, y)| (x == a && y == b) || (x == b && y == a))
}

// ---------------------------------------------------------------------
// The short order form, read into our orders (outside any timing).
// ---------------------------------------------------------------------

fn unit_type(word: &str) -> Result<UnitType, String> {
    match word {
        "A" | "a" => Ok(UnitType::Army),
        "F" | "f" => Ok(UnitType::Fleet),
        _ => Err(format!("{word:?} is not a unit type")),
    }
}

fn province(map: &Map, word: &str) -> Result<Province, String> {
    map.province_by_abbr(word)
        .ok_or_else(|| format!("unknown province {word:?}"))
}

/// Reads `A PAR - BUR`, `A PAR - BUR VIA CONVOY`, `A PAR H`,
/// `F NTH C A LON - BEL`, `A WAL S A LON - BEL`, `F NTH S F ENG`.
pub fn parse_short(map: &Map, power: Power, text: &str) -> Result<Order, String> {
    let w: Vec<&str> = text.split_whitespace().collect();
    let bad = || format!("cannot read order {text:?}");
    if w.len() < 3 {
        return Err(bad());
    }
    let unit = unit_type(w[0])?;
    let location = map
        .location_by_abbr(w[1])
        .ok_or_else(|| format!("unknown location {:?}", w[1]))?;
    let kind = match &w[2..] {
        ["H"] => OrderKind::Hold,
        ["-", to] | ["-", to, "VIA", "CONVOY"] => OrderKind::Move {
            to: map
                .location_by_abbr(to)
                .ok_or_else(|| format!("unknown location {to:?}"))?,
            via_convoy: w.len() == 6,
        },
        ["S", u, from] => OrderKind::Support {
            unit: unit_type(u)?,
            from: province(map, from)?,
            to: None,
        },
        ["S", u, from, "-", to] => OrderKind::Support {
            unit: unit_type(u)?,
            from: province(map, from)?,
            to: Some(
                map.location_by_abbr(to)
                    .ok_or_else(|| format!("unknown location {to:?}"))?,
            ),
        },
        ["C", "A", from, "-", to] => OrderKind::Convoy {
            from: province(map, from)?,
            to: province(map, to)?,
        },
        _ => return Err(bad()),
    };
    Ok(Order::new(power, unit, location, kind))
}

/// A unit from `"A PAR"` / `"F STP/SC"`.
pub fn parse_unit(map: &Map, power: Power, text: &str) -> Result<Unit, String> {
    let (kind, at) = text
        .split_once(' ')
        .ok_or_else(|| format!("{text:?} is not a unit"))?;
    Ok(Unit {
        power,
        kind: unit_type(kind)?,
        location: map
            .location_by_abbr(at.trim())
            .ok_or_else(|| format!("unknown location {at:?}"))?,
    })
}

pub fn power_by_upper(name: &str) -> Result<Power, String> {
    Power::ALL
        .into_iter()
        .find(|p| p.upper().eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown power {name:?}"))
}

// ---------------------------------------------------------------------
// The two benchmark positions.
// ---------------------------------------------------------------------

/// A position with its orders, per power, in the short form.
pub struct Case {
    pub name: &'static str,
    pub phase: &'static str,
    /// Per power: (unit, order).
    pub units_orders: Vec<(Power, Vec<(&'static str, &'static str)>)>,
}

/// Spring 1901: the 22 units of the standard start, each with a common
/// opening order (two bounces: Galicia and the Black Sea). St Petersburg's
/// fleet goes to Finland rather than the Gulf of Bothnia, a border the
/// peer's map lacks.
pub fn opening() -> Case {
    use Power::*;
    Case {
        name: "opening",
        phase: "S1901M",
        units_orders: vec![
            (
                Austria,
                vec![
                    ("A BUD", "A BUD - SER"),
                    ("F TRI", "F TRI - ALB"),
                    ("A VIE", "A VIE - GAL"),
                ],
            ),
            (
                England,
                vec![
                    ("F EDI", "F EDI - NWG"),
                    ("F LON", "F LON - NTH"),
                    ("A LVP", "A LVP - YOR"),
                ],
            ),
            (
                France,
                vec![
                    ("F BRE", "F BRE - MAO"),
                    ("A MAR", "A MAR - SPA"),
                    ("A PAR", "A PAR - BUR"),
                ],
            ),
            (
                Germany,
                vec![
                    ("F KIE", "F KIE - DEN"),
                    ("A BER", "A BER - KIE"),
                    ("A MUN", "A MUN - RUH"),
                ],
            ),
            (
                Italy,
                vec![
                    ("F NAP", "F NAP - ION"),
                    ("A ROM", "A ROM - APU"),
                    ("A VEN", "A VEN H"),
                ],
            ),
            (
                Russia,
                vec![
                    ("A MOS", "A MOS - UKR"),
                    ("F SEV", "F SEV - BLA"),
                    ("F STP/SC", "F STP/SC - FIN"),
                    ("A WAR", "A WAR - GAL"),
                ],
            ),
            (
                Turkey,
                vec![
                    ("F ANK", "F ANK - BLA"),
                    ("A CON", "A CON - BUL"),
                    ("A SMY", "A SMY - ARM"),
                ],
            ),
        ],
    }
}

/// A busy Fall 1905: all 34 units on the board.
///
/// - West: England convoys A LON to Belgium through the North Sea, with
///   the English Channel's support (2 against 1): the French army in
///   Belgium is dislodged; A YOR follows into London. A BUR's support of
///   Belgium is cut by A MUN, which (supported by A RUH) dislodges it; A
///   MAR's support of Burgundy is cut by A PIE, which bounces off
///   Marseilles. A KIE follows into Munich.
/// - Austria rotates A VIE → BOH → GAL → VIE (three units, no help).
/// - Rumania: A UKR (supported by A SEV) and A BUD bounce: A SEV's
///   support is cut by A ARM, which, supported by F BLA, dislodges it.
/// - Elsewhere: moves into empty provinces, a few more supports.
pub fn midgame() -> Case {
    use Power::*;
    Case {
        name: "midgame",
        phase: "F1905M",
        units_orders: vec![
            (
                England,
                vec![
                    ("A LON", "A LON - BEL"),
                    ("F NTH", "F NTH C A LON - BEL"),
                    ("F ENG", "F ENG S A LON - BEL"),
                    ("A YOR", "A YOR - LON"),
                    ("F NWG", "F NWG S F NTH"),
                ],
            ),
            (
                France,
                vec![
                    ("A BEL", "A BEL H"),
                    ("A BUR", "A BUR S A BEL"),
                    ("A MAR", "A MAR S A BUR"),
                    ("A PAR", "A PAR - GAS"),
                    ("F MAO", "F MAO - IRI"),
                    ("F BRE", "F BRE S A PAR - GAS"),
                ],
            ),
            (
                Germany,
                vec![
                    ("A MUN", "A MUN - BUR"),
                    ("A RUH", "A RUH S A MUN - BUR"),
                    ("A KIE", "A KIE - MUN"),
                    ("F DEN", "F DEN - SKA"),
                    ("F HOL", "F HOL H"),
                ],
            ),
            (
                Italy,
                vec![
                    ("A PIE", "A PIE - MAR"),
                    ("F LYO", "F LYO - SPA/SC"),
                    ("F ION", "F ION - TUN"),
                    ("A VEN", "A VEN - TYR"),
                ],
            ),
            (
                Austria,
                vec![
                    ("A VIE", "A VIE - BOH"),
                    ("A BOH", "A BOH - GAL"),
                    ("A GAL", "A GAL - VIE"),
                    ("A BUD", "A BUD - RUM"),
                    ("F TRI", "F TRI H"),
                ],
            ),
            (
                Russia,
                vec![
                    ("A UKR", "A UKR - RUM"),
                    ("A SEV", "A SEV S A UKR - RUM"),
                    ("A WAR", "A WAR - SIL"),
                    ("A MOS", "A MOS - LVN"),
                    ("F STP/NC", "F STP/NC - BAR"),
                ],
            ),
            (
                Turkey,
                vec![
                    ("A ARM", "A ARM - SEV"),
                    ("F BLA", "F BLA S A ARM - SEV"),
                    ("A CON", "A CON - BUL"),
                    ("F AEG", "F AEG S A CON - BUL"),
                ],
            ),
        ],
    }
}

impl Case {
    pub fn order_count(&self) -> usize {
        self.units_orders.iter().map(|(_, v)| v.len()).sum()
    }

    /// Our position (centres: home centres, plus every other centre to
    /// the power standing in it) and our orders.
    pub fn ours(&self, map: &Map) -> (Position, Vec<Order>) {
        let phase: Phase = self.phase.parse().expect("phase");
        let mut pos = Position::empty(map, phase);
        let mut orders = Vec::new();
        for (power, list) in &self.units_orders {
            for (unit, order) in list {
                pos.units.push(parse_unit(map, *power, unit).expect("unit"));
                orders.push(parse_short(map, *power, order).expect("order"));
            }
        }
        for power in Power::ALL {
            for &p in &pos.homes[power.index()] {
                pos.owners[p.index()] = Some(power);
            }
        }
        for u in &pos.units {
            let p = map.province_of(u.location);
            if map.is_supply_centre(p) && pos.owners[p.index()].is_none() {
                pos.owners[p.index()] = Some(u.power);
            }
        }
        (pos, orders)
    }

    /// The same phase in the peer's terms.
    pub fn peer(&self) -> PeerPhase {
        let mut b = PeerPhaseBuilder::default();
        for (power, list) in &self.units_orders {
            for (unit, _) in list {
                b.unit(power.upper(), unit).expect("unit");
            }
        }
        for (power, list) in &self.units_orders {
            for (_, order) in list {
                b.order(power.upper(), order);
            }
        }
        b.finish()
    }
}

// ---------------------------------------------------------------------
// The peer: the `diplomacy` crate.
// ---------------------------------------------------------------------

/// `STP/SC` → `stp(sc)`, `PAR` → `par`.
pub fn peer_region(abbr: &str) -> String {
    match abbr.split_once('/') {
        Some((p, c)) => format!("{}({})", p.to_ascii_lowercase(), c.to_ascii_lowercase()),
        None => abbr.to_ascii_lowercase(),
    }
}

fn province_part(abbr: &str) -> &str {
    abbr.split('/').next().unwrap_or(abbr)
}

/// A phase ready for the peer: starting units and parsed orders, with the
/// short text each order came from.
pub struct PeerPhase {
    pub start: Vec<UnitPosition<'static, RegionKey>>,
    pub orders: Vec<MappedMainOrder>,
    /// For each of `orders`: the power and the short text it came from.
    pub texts: Vec<(String, String)>,
    /// Orders the translation could not read: (power, text, reason).
    pub errors: Vec<(String, String, String)>,
}

/// Builds a [`PeerPhase`]: first all units, then the orders.
///
/// The peer matches a support to the supported order region by region
/// (coast included) while our short form names provinces; so supports are
/// written with the region of the unit standing in the province and, for a
/// supported move, the exact destination that unit was ordered to.
#[derive(Default)]
pub struct PeerPhaseBuilder {
    start: Vec<UnitPosition<'static, RegionKey>>,
    /// Province (upper-case) to the peer region of the unit in it.
    region_of: HashMap<String, String>,
    /// Raw orders: (power, text).
    raw: Vec<(String, String)>,
    errors: Vec<(String, String, String)>,
}

impl PeerPhaseBuilder {
    /// `power` as in the JSON (`FRANCE`), `unit` as `A PAR` / `F STP/SC`.
    pub fn unit(&mut self, power: &str, unit: &str) -> Result<(), String> {
        let (kind, at) = unit
            .split_once(' ')
            .ok_or_else(|| format!("{unit:?} is not a unit"))?;
        let at = at.trim();
        let region = peer_region(at);
        let text = format!("{power}: {kind} {region}");
        let pos: UnitPosition<'static, RegionKey> =
            text.parse().map_err(|e| format!("{text:?}: {e}"))?;
        self.start.push(pos);
        self.region_of
            .insert(province_part(at).to_ascii_uppercase(), region);
        Ok(())
    }

    pub fn order(&mut self, power: &str, text: &str) {
        self.raw.push((power.to_string(), text.to_string()));
    }

    fn region(&self, abbr: &str) -> String {
        match self.region_of.get(&abbr.to_ascii_uppercase()) {
            Some(r) if !abbr.contains('/') => r.clone(),
            _ => peer_region(abbr),
        }
    }

    pub fn finish(mut self) -> PeerPhase {
        // Where each province's unit was ordered to go (`BUL/EC`).
        let mut dest_of: HashMap<String, String> = HashMap::new();
        for (_, text) in &self.raw {
            let w: Vec<&str> = text.split_whitespace().collect();
            if w.len() >= 4 && w[2] == "-" {
                dest_of.insert(province_part(w[1]).to_ascii_uppercase(), w[3].to_string());
            }
        }
        let mut orders = Vec::with_capacity(self.raw.len());
        let mut texts = Vec::with_capacity(self.raw.len());
        let raw = std::mem::take(&mut self.raw);
        for (power, text) in raw {
            match self.translate(&power, &text, &dest_of) {
                Ok(o) => {
                    orders.push(o);
                    texts.push((power, text));
                }
                Err(e) => self.errors.push((power, text, e)),
            }
        }
        PeerPhase {
            start: self.start,
            orders,
            texts,
            errors: self.errors,
        }
    }

    fn translate(
        &self,
        power: &str,
        text: &str,
        dest_of: &HashMap<String, String>,
    ) -> Result<MappedMainOrder, String> {
        let w: Vec<&str> = text.split_whitespace().collect();
        if w.len() < 3 {
            return Err("too short".into());
        }
        let command = match &w[2..] {
            ["H"] => "hold".to_string(),
            ["-", to] => format!("-> {}", peer_region(to)),
            ["-", to, "VIA", "CONVOY"] => format!("-> {} via convoy", peer_region(to)),
            ["S", u, from] => format!("supports {u} {}", self.region(from)),
            ["S", u, from, "-", to] => {
                let to = match dest_of.get(&from.to_ascii_uppercase()) {
                    Some(d) if province_part(d).eq_ignore_ascii_case(province_part(to)) => {
                        peer_region(d)
                    }
                    _ => peer_region(to),
                };
                format!("supports {u} {} -> {to}", self.region(from))
            }
            ["C", "A", from, "-", to] => {
                format!("convoys A {} -> {}", peer_region(from), peer_region(to))
            }
            _ => return Err("not an order of the short form".into()),
        };
        let peer_text = format!("{power}: {} {} {command}", w[0], peer_region(w[1]));
        peer_text.parse().map_err(|e| format!("{peer_text:?}: {e}"))
    }
}

/// The peer's rulebook. Its 1982 edition applies the 1982 convoy-intent
/// rule (a convoy is used only when asked for, "via convoy", or when one
/// of the army's own fleets convoys it) even when the army could not walk
/// there, so a French army in Spain convoyed to Tuscany by an Italian fleet
/// stays home; ours (and the rulebook) uses the convoy then. The 1971
/// edition (always use a convoy route when there is one) agrees with ours
/// whenever every convoyed army is ordered to a province it is not
/// adjacent to, as in the benchmark positions and in `gen_phases`'
/// files; the two editions differ in nothing else a movement phase uses.
pub fn peer_rules() -> Rulebook {
    Rulebook::edition_1971()
}

impl PeerPhase {
    /// The peer's main-phase adjudication: its submission (order check,
    /// holds for unordered units). Takes the orders by value, as the
    /// peer's `Submission` does.
    pub fn adjudicate<'a>(
        &self,
        map: &'a diplomacy::geo::Map,
        orders: Vec<MappedMainOrder>,
    ) -> Submission<'a> {
        Submission::new(map, &self.start, orders)
    }

    /// Whether each of `self.orders` succeeded, according to the peer.
    pub fn successes(&self) -> Vec<bool> {
        let map = diplomacy::geo::standard_map();
        let submission = self.adjudicate(map, self.orders.clone());
        let outcome = submission.adjudicate(peer_rules());
        let states = peer_states(&outcome);
        self.orders
            .iter()
            .map(|o| states.get(o).copied().unwrap_or(false))
            .collect()
    }
}

/// Per order of the submission: whether the peer says it succeeded.
pub fn peer_states<'a>(
    outcome: &'a PeerOutcome<'a, Rulebook>,
) -> HashMap<&'a MappedMainOrder, bool> {
    outcome
        .all_orders_with_outcomes()
        .map(|(o, r)| (o, OrderState::from(r) == OrderState::Succeeds))
        .collect()
}

/// Whether our engine counts an order as having succeeded: a move that
/// moved, a support not cut, a hold or convoy not dislodged.
pub fn ours_succeeds(outcome: Outcome) -> bool {
    [
        Outcome::BOUNCE,
        Outcome::CUT,
        Outcome::VOID,
        Outcome::NO_CONVOY,
        Outcome::PARADOX,
        Outcome::DISLODGED,
        Outcome::DESTROYED,
    ]
    .into_iter()
    .all(|f| !outcome.contains(f))
}
