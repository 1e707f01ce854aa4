//! One reading of an order against the position: is it an order the
//! player can give now, and which `Order` is it? Every refusal says why,
//! in a sentence, and carries a `stage` (how far the checks got), so that
//! among the readings of an unclear name the one that got farthest speaks.
//!
//! Stages: 0 the phase, the power, the adjustment count; 1 no unit (or a
//! build's province is no home centre); 2 another power's unit (or a home
//! centre not free); 3 the wrong unit type; 4 and up the rest of the order.

use super::grammar::{Skel, Verb};
use super::message::{a_unit, noun, or_list};
use crate::map::{Coast, Location, Map, Power, Province, Terrain, UnitType};
use crate::order::{Order, OrderKind};
use crate::phase::PhaseKind;
use crate::position::{Dislodged, Occupancy, Position, Unit};

/// One province chosen for a slot, with the coast written after it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Pick {
    pub prov: Province,
    pub coast: Option<Coast>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Problem {
    pub stage: u8,
    pub text: String,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Valid {
    pub order: Order,
    /// Valid only as an army's move by a convoy nobody spelt out, or as a
    /// convoy the fleets on the board cannot make: a reading that gives
    /// way to any plain one (`A Swe - Nor` is Norway, not North Africa by
    /// sea; so is `F Bar C A Stp - Nor` with no fleet beyond the Barents
    /// Sea).
    pub weak: bool,
}

pub(super) type Checked = Result<Valid, Problem>;

fn problem(stage: u8, text: impl Into<String>) -> Problem {
    Problem {
        stage,
        text: text.into(),
    }
}

/// "an Austrian", "a French".
fn with_article(adjective: &str) -> String {
    let an = adjective.starts_with(['A', 'E', 'I', 'O', 'U']);
    format!("{} {adjective}", if an { "an" } else { "a" })
}

fn valid(order: Order) -> Checked {
    Ok(Valid { order, weak: false })
}

const BUILD_PHASE: &str = "Builds are only ordered in the adjustment phase (Winter).";
const REMOVE_PHASE: &str = "Removals are only ordered in the adjustment phase (Winter).";
const WAIVE_PHASE: &str = "Builds are only waived in the adjustment phase (Winter).";
const DISBAND_PHASE: &str = "A unit is disbanded only in the retreat phase, after it is \
                             dislodged, or in the adjustment phase (Winter).";
const RETREAT_PHASE: &str = "Retreats are only ordered in the retreat phase, after a unit \
                             is dislodged.";
const RETREAT_ONLY: &str = "In the retreat phase a dislodged unit can only retreat or disband.";
const ADJUST_ONLY: &str = "In the adjustment phase (Winter) you can only build, remove or waive.";
const LEAD_R: &str = "'R' could mean retreat or remove here: write R and a province after \
                      the unit to retreat it, or D to disband it.";

pub(super) struct Checker<'a> {
    pub map: &'a Map,
    pub pos: &'a Position,
    pub power: Power,
    /// Where `pos`'s units stand.
    pub occupancy: &'a Occupancy,
}

impl<'a> Checker<'a> {
    fn unit_in(&self, p: Province) -> Option<&'a Unit> {
        self.occupancy.unit_in(self.map, self.pos, p)
    }

    fn name(&self, p: Province) -> &'static str {
        self.map.name(p)
    }

    fn terrain(&self, p: Province) -> Terrain {
        self.map.terrain(p)
    }

    /// The order this reading means, or why it cannot be followed.
    pub(super) fn check(&self, s: &Skel<Pick>) -> Checked {
        use PhaseKind::*;
        if let Some(p) = s.prefix {
            if p != self.power {
                return Err(problem(
                    0,
                    format!(
                        "That is an order for {p}, but you are signed on as {}.",
                        self.power
                    ),
                ));
            }
        }
        let kind = self.pos.phase.kind;
        let at = s.at.as_ref();
        match (&s.verb, at, kind) {
            (Verb::Waive, _, Adjustment) => self.waive(),
            (Verb::Waive, _, _) => Err(problem(0, WAIVE_PHASE)),
            (Verb::Build, Some(at), Adjustment) => self.build(s.unit, at),
            (Verb::Build, _, _) => Err(problem(0, BUILD_PHASE)),
            (Verb::Remove | Verb::Disband | Verb::LeadR { to: None }, Some(at), Adjustment) => {
                self.remove(s.unit, at)
            }
            (Verb::Remove, _, Movement) | (Verb::LeadR { to: None }, _, Movement) => {
                Err(problem(0, REMOVE_PHASE))
            }
            (Verb::Disband, _, Movement) => Err(problem(0, DISBAND_PHASE)),
            (Verb::Remove | Verb::Disband, Some(at), Retreat) => self.disband(s.unit, at),
            (Verb::LeadR { to: None }, _, Retreat) => Err(problem(0, LEAD_R)),
            (Verb::Retreat { to } | Verb::LeadR { to: Some(to) }, Some(at), Retreat) => {
                self.retreat(s.unit, at, to)
            }
            (Verb::Move { route, via }, Some(at), Retreat) => match &route[..] {
                [to] if !via => self.retreat(s.unit, at, to),
                _ => Err(problem(0, "A retreat is a single step, never by convoy.")),
            },
            (Verb::Retreat { .. } | Verb::LeadR { .. }, _, _) => Err(problem(0, RETREAT_PHASE)),
            (Verb::Missing, Some(at), Adjustment) => self.bare_adjustment(s.unit, at),
            (Verb::Missing, _, _) => Err(problem(0, missing(kind))),
            (Verb::Hold | Verb::Support { .. } | Verb::Convoy { .. }, _, Retreat) => {
                Err(problem(0, RETREAT_ONLY))
            }
            (
                Verb::Hold | Verb::Move { .. } | Verb::Support { .. } | Verb::Convoy { .. },
                _,
                Adjustment,
            ) => Err(problem(0, ADJUST_ONLY)),
            (_, Some(at), Movement) => {
                let unit = self.own_unit(at, s.unit)?;
                match &s.verb {
                    Verb::Move { route, via } => self.move_to(unit, route, *via),
                    Verb::Support {
                        nat,
                        unit: t,
                        from,
                        route,
                    } => self.support(unit, *nat, *t, from, route),
                    Verb::Convoy {
                        nat,
                        unit: t,
                        from,
                        route,
                    } => self.convoy(unit, *nat, *t, from, route),
                    Verb::Hold => valid(Order::new(
                        self.power,
                        unit.kind,
                        unit.location,
                        OrderKind::Hold,
                    )),
                    _ => Err(problem(0, "This order cannot be read.")),
                }
            }
            (_, None, _) => Err(problem(0, "The order does not say which unit.")),
        }
    }

    /// The player's own unit in `at`, of the type written, if any.
    fn own_unit(&self, at: &Pick, given: Option<UnitType>) -> Result<Unit, Problem> {
        let p = at.prov;
        let Some(u) = self.unit_in(p) else {
            return Err(problem(1, format!("There is no unit in {}.", self.name(p))));
        };
        self.check_own(u, p, "")?;
        self.check_type(u, p, given, 3)?;
        Ok(*u)
    }

    /// That `u` (in `p`, `described` as in "dislodged ") is the player's.
    fn check_own(&self, u: &Unit, p: Province, described: &str) -> Result<(), Problem> {
        if u.power == self.power {
            return Ok(());
        }
        Err(problem(
            2,
            format!(
                "The {described}{} in {} is {}; you are {}.",
                noun(u.kind),
                self.name(p),
                u.power.adjective(),
                self.power
            ),
        ))
    }

    /// That `u` (in `p`) is of the type written, if one is.
    fn check_type(
        &self,
        u: &Unit,
        p: Province,
        given: Option<UnitType>,
        stage: u8,
    ) -> Result<(), Problem> {
        match given {
            Some(g) if g != u.kind => Err(problem(
                stage,
                format!(
                    "There is {} in {}, not {}.",
                    a_unit(u.kind),
                    self.name(p),
                    a_unit(g)
                ),
            )),
            _ => Ok(()),
        }
    }

    // --- Movement ---------------------------------------------------------

    fn move_to(&self, unit: Unit, route: &[Pick], via: bool) -> Checked {
        let map = self.map;
        let from = map.province_of(unit.location);
        let Some((dest, seas)) = route.split_last() else {
            return Err(problem(4, "The move does not say where to."));
        };
        let to = dest.prov;
        let by_sea = via || !seas.is_empty();
        let order = |to: Location, via_convoy| {
            Order::new(
                self.power,
                unit.kind,
                unit.location,
                OrderKind::Move { to, via_convoy },
            )
        };
        if unit.kind == UnitType::Fleet && by_sea {
            return Err(problem(
                4,
                "Only armies are convoyed; a fleet moves one province at a time.",
            ));
        }
        if to == from {
            return Err(problem(
                4,
                "A unit cannot move to the province it is already in.",
            ));
        }
        match (self.terrain(to), unit.kind) {
            (Terrain::Impassable, _) => {
                return Err(problem(4, format!("{} is impassable.", self.name(to))))
            }
            (Terrain::Sea, UnitType::Army) => {
                return Err(problem(
                    4,
                    format!("{} is a sea; an army cannot move there.", self.name(to)),
                ))
            }
            (Terrain::Land, UnitType::Fleet) => {
                return Err(problem(
                    4,
                    format!("{} is inland; a fleet cannot move there.", self.name(to)),
                ))
            }
            _ => {}
        }
        if unit.kind == UnitType::Fleet {
            let target = self.fleet_target(unit.location, dest)?;
            return valid(order(target, false));
        }
        if !seas.is_empty() {
            self.check_route(from, seas, to)?;
            return valid(order(to.location(), true));
        }
        if via {
            self.check_convoyable(from, to)?;
            return valid(order(to.location(), true));
        }
        if map.army_adjacent(from, to) {
            return valid(order(to.location(), false));
        }
        let coastal = self.terrain(from) == Terrain::Coast && self.terrain(to) == Terrain::Coast;
        if coastal && self.sea_route_exists(from, to) {
            return Ok(Valid {
                order: order(to.location(), false),
                weak: true,
            });
        }
        let why = if coastal {
            format!(
                "{} is not adjacent to {}, and no chain of seas links them.",
                self.name(from),
                self.name(to)
            )
        } else {
            format!("{} is not adjacent to {}.", self.name(from), self.name(to))
        };
        Err(problem(5, why))
    }

    /// Where a fleet at `from` lands in the province `dest` names: its
    /// coast as written, or the one coast it can reach.
    fn fleet_target(&self, from: Location, dest: &Pick) -> Result<Location, Problem> {
        let map = self.map;
        let to = dest.prov;
        let not_adjacent = |l: Location| {
            problem(
                5,
                format!(
                    "{} is not adjacent to {}.",
                    map.loc_name(from),
                    map.loc_name(l)
                ),
            )
        };
        if map.coasts(to).is_empty() {
            let l = to.location();
            return if map.fleet_adjacent(from, l) {
                Ok(l)
            } else {
                Err(not_adjacent(l))
            };
        }
        match dest.coast {
            Some(c) => match map.coast_location(to, c) {
                None => Err(problem(
                    4,
                    format!("{} has no {}.", self.name(to), c.name()),
                )),
                Some(l) if map.fleet_adjacent(from, l) => Ok(l),
                Some(l) => Err(not_adjacent(l)),
            },
            None => match map.fleet_targets_in(from, to)[..] {
                [l] => Ok(l),
                [] => Err(not_adjacent(to.location())),
                ref several => Err(problem(
                    5,
                    format!(
                        "{} has two coasts that fleet can reach ({}): say which.",
                        self.name(to),
                        self.coast_names(several).join(", ")
                    ),
                )),
            },
        }
    }

    fn coast_names(&self, locs: &[Location]) -> Vec<&'static str> {
        locs.iter()
            .filter_map(|&l| self.map.coast_of(l))
            .map(Coast::name)
            .collect()
    }

    /// Whether some convoy could carry an army from `from` to `to` (both
    /// coastal, linked by seas).
    fn sea_route_exists(&self, from: Province, to: Province) -> bool {
        self.map.convoy_seas(from, to).0 != 0
    }

    /// Whether some convoy could carry an army from `from` to `to`.
    fn check_convoyable(&self, from: Province, to: Province) -> Result<(), Problem> {
        if self.terrain(from) != Terrain::Coast {
            return Err(problem(
                5,
                format!(
                    "{} is inland, so no fleet can convoy an army from there.",
                    self.name(from)
                ),
            ));
        }
        if self.terrain(to) != Terrain::Coast {
            return Err(problem(
                5,
                format!(
                    "{} is inland, so no fleet can convoy an army there.",
                    self.name(to)
                ),
            ));
        }
        if !self.sea_route_exists(from, to) {
            return Err(problem(
                5,
                format!(
                    "No chain of seas links {} to {}, so no convoy can carry an army there.",
                    self.name(from),
                    self.name(to)
                ),
            ));
        }
        Ok(())
    }

    /// A convoy route spelt out: seas only, each bordering the next.
    fn check_route(&self, from: Province, seas: &[Pick], to: Province) -> Result<(), Problem> {
        self.check_convoyable(from, to)?;
        for s in seas {
            if self.terrain(s.prov) != Terrain::Sea {
                return Err(problem(
                    5,
                    format!(
                        "{} is not a sea, so a convoy route cannot pass through it.",
                        self.name(s.prov)
                    ),
                ));
            }
        }
        let mut prev = from;
        for next in seas.iter().map(|s| s.prov).chain(std::iter::once(to)) {
            if !self.map.fleet_adjacent_provinces(prev, next) {
                return Err(problem(
                    6,
                    format!(
                        "The convoy route breaks: {} does not border {}.",
                        self.name(prev),
                        self.name(next)
                    ),
                ));
            }
            prev = next;
        }
        Ok(())
    }

    /// Whether `unit` could move to `to` at all, and whether only by a
    /// convoy (the test for the move a support names).
    fn could_move(&self, unit: &Unit, to: Province) -> Option<bool> {
        let map = self.map;
        let from = map.province_of(unit.location);
        match (unit.kind, self.terrain(to)) {
            (_, Terrain::Impassable) | (UnitType::Army, Terrain::Sea) => None,
            (UnitType::Fleet, Terrain::Land) => None,
            (UnitType::Fleet, _) => map
                .fleet_reaches_province(unit.location, to)
                .then_some(false),
            (UnitType::Army, _) if map.army_adjacent(from, to) => Some(false),
            (UnitType::Army, t) => (t == Terrain::Coast
                && self.terrain(from) == Terrain::Coast
                && self.sea_route_exists(from, to))
            .then_some(true),
        }
    }

    /// The unit in `from` that a support or convoy names.
    fn other_unit(
        &self,
        from: &Pick,
        nat: Option<Power>,
        given: Option<UnitType>,
        what: &str,
    ) -> Result<Unit, Problem> {
        let p = from.prov;
        let Some(t) = self.unit_in(p) else {
            return Err(problem(
                4,
                format!("There is no unit in {} to {what}.", self.name(p)),
            ));
        };
        if let Some(n) = nat {
            if n != t.power {
                return Err(problem(
                    4,
                    format!(
                        "There is {} {} in {}, not {} one.",
                        with_article(t.power.adjective()),
                        noun(t.kind),
                        self.name(p),
                        with_article(n.adjective())
                    ),
                ));
            }
        }
        self.check_type(t, p, given, 4)?;
        Ok(*t)
    }

    fn support(
        &self,
        unit: Unit,
        nat: Option<Power>,
        given: Option<UnitType>,
        from: &Pick,
        route: &[Pick],
    ) -> Checked {
        let map = self.map;
        let at = map.province_of(unit.location);
        let t = self.other_unit(from, nat, given, "support")?;
        let from = from.prov;
        if from == at {
            return Err(problem(4, "A unit cannot support itself."));
        }
        let order = |to| {
            Order::new(
                self.power,
                unit.kind,
                unit.location,
                OrderKind::Support {
                    unit: t.kind,
                    from,
                    to,
                },
            )
        };
        let Some(dest) = route.last() else {
            self.check_support_reach(unit, from, "the unit there", 5)?;
            return valid(order(None));
        };
        let to = dest.prov;
        if to == from {
            return Err(problem(
                5,
                "A unit cannot move to the province it is already in.",
            ));
        }
        if to == at {
            return Err(problem(
                5,
                "A unit cannot support a move into its own province.",
            ));
        }
        let Some(weak) = self.could_move(&t, to) else {
            return Err(problem(
                5,
                format!(
                    "The {} in {} cannot reach {}.",
                    noun(t.kind),
                    self.name(from),
                    self.name(to)
                ),
            ));
        };
        self.check_support_reach(unit, to, "a move there", 6)?;
        Ok(Valid {
            order: order(Some(self.supported_target(&t, dest)?)),
            weak,
        })
    }

    /// That the supporting `unit` reaches `p`, where it supports `what`
    /// ("the unit there", "a move there").
    fn check_support_reach(
        &self,
        unit: Unit,
        p: Province,
        what: &str,
        stage: u8,
    ) -> Result<(), Problem> {
        if self.map.reaches(unit.kind, unit.location, p) {
            return Ok(());
        }
        Err(problem(
            stage,
            format!(
                "The {} in {} cannot reach {}, so it cannot support {what}.",
                noun(unit.kind),
                self.name(self.map.province_of(unit.location)),
                self.name(p)
            ),
        ))
    }

    /// Where the supported unit `t` moves to `dest`: a coast named for a
    /// fleet's move is the coast the support is for.
    fn supported_target(&self, t: &Unit, dest: &Pick) -> Result<Location, Problem> {
        let map = self.map;
        let to = dest.prov;
        let from = map.province_of(t.location);
        match dest.coast {
            Some(c) if t.kind == UnitType::Fleet && !map.coasts(to).is_empty() => {
                match map.coast_location(to, c) {
                    Some(l) if map.fleet_adjacent(t.location, l) => Ok(l),
                    Some(l) => Err(problem(
                        5,
                        format!(
                            "The fleet in {} cannot reach {}.",
                            self.name(from),
                            map.loc_name(l)
                        ),
                    )),
                    None => Err(problem(
                        5,
                        format!("{} has no {}.", self.name(to), c.name()),
                    )),
                }
            }
            _ => Ok(to.location()),
        }
    }

    fn convoy(
        &self,
        unit: Unit,
        nat: Option<Power>,
        given: Option<UnitType>,
        from: &Pick,
        route: &[Pick],
    ) -> Checked {
        let at = self.map.province_of(unit.location);
        if unit.kind != UnitType::Fleet {
            return Err(problem(4, "An army cannot convoy; only fleets at sea can."));
        }
        if self.terrain(at) != Terrain::Sea {
            return Err(problem(
                4,
                format!(
                    "{} is not a sea: a fleet on a coast cannot convoy.",
                    self.name(at)
                ),
            ));
        }
        let a = self.other_unit(from, nat, given, "convoy")?;
        let from = from.prov;
        if a.kind != UnitType::Army {
            return Err(problem(
                4,
                format!(
                    "Only armies are convoyed, and there is a fleet in {}.",
                    self.name(from)
                ),
            ));
        }
        let Some(dest) = route.last() else {
            return Err(problem(
                5,
                format!(
                    "The convoy order does not say where the army in {} goes.",
                    self.name(from)
                ),
            ));
        };
        let to = dest.prov;
        if to == from {
            return Err(problem(
                5,
                "A unit cannot move to the province it is already in.",
            ));
        }
        if self.terrain(to) == Terrain::Sea {
            return Err(problem(
                5,
                format!(
                    "{} is a sea; an army cannot be convoyed there.",
                    self.name(to)
                ),
            ));
        }
        self.check_convoyable(from, to)?;
        if !self.map.convoy_seas(from, to).contains(at.index()) {
            return Err(problem(
                6,
                format!(
                    "The fleet in {} cannot be part of a convoy from {} to {}.",
                    self.name(at),
                    self.name(from),
                    self.name(to)
                ),
            ));
        }
        let order = Order::new(
            self.power,
            unit.kind,
            unit.location,
            OrderKind::Convoy { from, to },
        );
        Ok(Valid {
            order,
            weak: !self.fleets_link(at, from, to),
        })
    }

    /// Whether the seas that hold a fleet on the board, with `at`, link
    /// `from` to `to` through `at`: whether this convoy could be made
    /// this turn.
    fn fleets_link(&self, at: Province, from: Province, to: Province) -> bool {
        let map = self.map;
        let fleeted = |q: Province| {
            q == at
                || self.terrain(q) == Terrain::Sea
                    && self.unit_in(q).is_some_and(|u| u.kind == UnitType::Fleet)
        };
        // The fleeted seas joined to `at`, one step at a time.
        let mut joined = vec![at];
        let mut next = 0;
        while let Some(&q) = joined.get(next) {
            next += 1;
            for r in map.provinces() {
                if !joined.contains(&r) && fleeted(r) && map.fleet_adjacent_provinces(q, r) {
                    joined.push(r);
                }
            }
        }
        let touches = |p: Province| joined.iter().any(|&q| map.fleet_adjacent_provinces(q, p));
        touches(from) && touches(to)
    }

    // --- Retreats ---------------------------------------------------------

    fn dislodged(&self, at: &Pick, given: Option<UnitType>) -> Result<&Dislodged, Problem> {
        let p = at.prov;
        let Some(d) = self.pos.dislodged_in(self.map, p) else {
            return Err(problem(
                1,
                match self.unit_in(p) {
                    Some(u) => format!(
                        "The {} in {} was not dislodged; only dislodged units retreat or \
                         disband now.",
                        noun(u.kind),
                        self.name(p)
                    ),
                    None => format!("There is no dislodged unit in {}.", self.name(p)),
                },
            ));
        };
        let u = d.unit;
        self.check_own(&u, p, "dislodged ")?;
        match given {
            Some(g) if g != u.kind => Err(problem(
                3,
                format!(
                    "The dislodged unit in {} is {}, not {}.",
                    self.name(p),
                    a_unit(u.kind),
                    a_unit(g)
                ),
            )),
            _ => Ok(d),
        }
    }

    fn retreat(&self, given: Option<UnitType>, at: &Pick, to: &Pick) -> Checked {
        let map = self.map;
        let d = self.dislodged(at, given)?;
        let u = d.unit;
        let fits: Vec<Location> = d
            .retreats
            .iter()
            .copied()
            .filter(|&l| map.province_of(l) == to.prov)
            .collect();
        let coast = if u.kind == UnitType::Fleet && !map.coasts(to.prov).is_empty() {
            to.coast
        } else {
            None
        };
        let chosen = match coast {
            Some(c) => fits.iter().copied().find(|&l| map.coast_of(l) == Some(c)),
            None if fits.len() == 1 => Some(fits[0]),
            None if fits.len() > 1 => {
                return Err(problem(
                    4,
                    format!(
                        "{} has two coasts that fleet can retreat to ({}): say which.",
                        self.name(to.prov),
                        self.coast_names(&fits).join(", ")
                    ),
                ))
            }
            None => None,
        };
        let Some(l) = chosen else {
            let target = match coast.and_then(|c| map.coast_location(to.prov, c)) {
                Some(l) => map.loc_name(l),
                None => self.name(to.prov).to_string(),
            };
            let options: Vec<String> = d.retreats.iter().map(|&l| map.loc_name(l)).collect();
            let choice = if options.is_empty() {
                "It has nowhere to go and can only disband.".to_string()
            } else {
                format!("It can retreat to {}, or disband.", or_list(&options))
            };
            return Err(problem(
                4,
                format!(
                    "The {} in {} cannot retreat to {target}. {choice}",
                    noun(u.kind),
                    self.name(at.prov)
                ),
            ));
        };
        valid(Order::new(
            self.power,
            u.kind,
            u.location,
            OrderKind::Retreat { to: l },
        ))
    }

    fn disband(&self, given: Option<UnitType>, at: &Pick) -> Checked {
        let u = self.dislodged(at, given)?.unit;
        valid(Order::new(
            self.power,
            u.kind,
            u.location,
            OrderKind::Disband,
        ))
    }

    // --- Adjustments ------------------------------------------------------

    fn counts(&self) -> String {
        let c = self.pos.centre_count(self.power);
        let u = self.pos.unit_count(self.power);
        let s = |n: usize| if n == 1 { "" } else { "s" };
        format!(
            "you own {c} supply centre{} and have {u} unit{}",
            s(c),
            s(u)
        )
    }

    fn waive(&self) -> Checked {
        if self.pos.adjustment_due(self.power) <= 0 {
            return Err(problem(
                0,
                format!("You have no builds to waive: {}.", self.counts()),
            ));
        }
        valid(Order::waive(self.power))
    }

    fn build(&self, given: Option<UnitType>, at: &Pick) -> Checked {
        let p = at.prov;
        if self.pos.adjustment_due(self.power) <= 0 {
            return Err(problem(
                0,
                format!("You have no builds to make: {}.", self.counts()),
            ));
        }
        self.check_build_site(p)?;
        let kind = match (given, self.terrain(p)) {
            (Some(k), _) => k,
            (None, Terrain::Land) => UnitType::Army,
            (None, _) => {
                return Err(problem(
                    3,
                    format!(
                        "Say which unit to build in {}: an army or a fleet.",
                        self.name(p)
                    ),
                ))
            }
        };
        let location = match kind {
            UnitType::Army => p.location(),
            UnitType::Fleet => self.fleet_build_location(at)?,
        };
        valid(Order::new(self.power, kind, location, OrderKind::Build))
    }

    /// That `p` is a home centre of the player's, owned by it, and empty.
    fn check_build_site(&self, p: Province) -> Result<(), Problem> {
        if !self.pos.is_home(self.power, p) {
            return Err(problem(
                1,
                format!("{} is not one of your home supply centres.", self.name(p)),
            ));
        }
        match self.pos.owner(p) {
            Some(o) if o == self.power => {}
            Some(o) => {
                return Err(problem(
                    2,
                    format!(
                        "{} belongs to {o} now; you can only build in home centres you own.",
                        self.name(p)
                    ),
                ))
            }
            None => {
                return Err(problem(
                    2,
                    format!(
                        "You do not own {} now; you can only build in home centres you own.",
                        self.name(p)
                    ),
                ))
            }
        }
        if self.unit_in(p).is_some() {
            return Err(problem(
                2,
                format!("There is already a unit in {}.", self.name(p)),
            ));
        }
        Ok(())
    }

    /// Where in `at` a fleet is built: a coastal province, on the coast
    /// named if it has two.
    fn fleet_build_location(&self, at: &Pick) -> Result<Location, Problem> {
        let map = self.map;
        let p = at.prov;
        if self.terrain(p) != Terrain::Coast {
            return Err(problem(
                3,
                format!("{} is inland; a fleet cannot be built there.", self.name(p)),
            ));
        }
        let coasts = map.coasts(p);
        if coasts.is_empty() {
            return Ok(p.location());
        }
        match at.coast {
            Some(c) => match map.coast_location(p, c) {
                Some(l) => Ok(l),
                None => Err(problem(3, format!("{} has no {}.", self.name(p), c.name()))),
            },
            None => Err(problem(
                3,
                format!(
                    "{} has two coasts ({}): say which.",
                    self.name(p),
                    self.coast_names(coasts).join(", ")
                ),
            )),
        }
    }

    /// A unit written without Build or Remove in the adjustment phase
    /// (`A Ber`, as njudge reads it): a build when builds are due, a
    /// removal when removals are.
    fn bare_adjustment(&self, given: Option<UnitType>, at: &Pick) -> Checked {
        match self.pos.adjustment_due(self.power) {
            due if due > 0 => self.build(given, at),
            due if due < 0 => self.remove(given, at),
            _ => Err(problem(
                0,
                format!(
                    "You have neither builds nor removals due ({}): there is nothing to order.",
                    self.counts()
                ),
            )),
        }
    }

    fn remove(&self, given: Option<UnitType>, at: &Pick) -> Checked {
        if self.pos.adjustment_due(self.power) >= 0 {
            return Err(problem(
                0,
                format!("You have no units to remove: {}.", self.counts()),
            ));
        }
        let u = self.own_unit(at, given)?;
        valid(Order::new(
            self.power,
            u.kind,
            u.location,
            OrderKind::Remove,
        ))
    }
}

/// A unit named and no order given.
fn missing(kind: PhaseKind) -> &'static str {
    match kind {
        PhaseKind::Movement => {
            "It names a unit but gives no order: add H to hold, - and a province to move, \
             S to support or C to convoy."
        }
        PhaseKind::Retreat => {
            "It names a unit but gives no order: add R and a province to retreat, or D \
             to disband."
        }
        PhaseKind::Adjustment => {
            "It names a unit but gives no order: write Build, Remove or Waive before it."
        }
    }
}
