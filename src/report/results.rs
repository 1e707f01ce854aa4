//! The results mail: an adjudicated phase turned into the plain data the
//! `results.txt` template lays out.

use minijinja::{context, Value};

use super::reasons::void_reason;
use super::{ReportError, Templates, RESULTS};
use crate::engine::adjudicate::{adjudicate, Adjudication};
use crate::engine::adjustment::builds_possible;
use crate::engine::map::{Map, Power};
use crate::engine::order::{Order, OrderKind};
use crate::engine::outcome::Outcome;
use crate::engine::phase::{Phase, PhaseKind, Season};
use crate::engine::position::{Dislodged, Position, Unit};

/// One adjudicated phase, and what the caller knows that the engine does
/// not: the names, the next deadline, whether the game is over.
///
/// The board is the standard map (the only variant there is).
pub struct ResultsContext<'a> {
    /// The judge's code: `JDG`.
    pub judge_code: &'a str,
    pub game: &'a str,
    /// "Standard".
    pub variant: &'a str,
    /// The phase adjudicated.
    pub phase: Phase,
    pub adjudication: &'a Adjudication,
    /// The position adjudicated.
    pub before: &'a Position,
    /// The deadline of the next phase, already written out:
    /// "Thu Nov 26 2026 20:00 UTC". None when there is none to announce.
    pub next_deadline: Option<String>,
    /// When the game ended with this phase: the sentence that says so,
    /// "France has won with 18 supply centres." or "The game was declared
    /// a draw between ...". A winner found by the adjudication ends the
    /// game too (the template then words it).
    pub game_over: Option<String>,
    /// The powers in civil disorder in the phase adjudicated: their units
    /// held (or were removed, or disbanded) by the rules, not by orders.
    pub in_disorder: &'a [Power],
    /// Every power that builds nothing under the game's rules in the phase
    /// adjudicated: those in civil disorder, and those out of a game for
    /// fewer players.
    pub inert: &'a [Power],
    /// The address of this phase's page in the web archive, when the
    /// judge's archive has a public address and the game is published.
    pub pages: Option<String>,
}

/// The variables of `results.txt` (listed at the top of the template).
pub(super) fn variables(cx: &ResultsContext) -> Value {
    let map = Map::standard();
    let adj = cx.adjudication;
    let next = &adj.next;
    let winner = adj.winner.map(|p| {
        context! {
            power => p.name(),
            adjective => p.adjective(),
            centres => next.centre_count(p),
        }
    });
    let over = cx.game_over.is_some() || adj.winner.is_some();
    // Centres change hands on the way out of the Fall (after its retreats,
    // if it has any); the block is shown then, and whenever they changed.
    let ownership_due = (cx.phase.season == Season::Fall && next.phase.season != Season::Fall)
        || cx.before.owners != next.owners;
    context! {
        judge => cx.judge_code,
        game => cx.game,
        variant => cx.variant,
        phase => phase_value(cx.phase),
        next => phase_value(next.phase),
        deadline => cx.next_deadline.clone(),
        over => over,
        game_over => cx.game_over.clone(),
        winner => winner,
        orders => order_groups(map, cx, &adj.orders),
        dislodged => dislodged(map, cx.phase, next),
        destroyed => destroyed(map, cx.in_disorder, &adj.destroyed),
        show_ownership => ownership_due,
        ownership => ownership(map, next),
        unowned => unowned(map, next),
        adjustments => adjustments(map, next, cx.inert),
        in_disorder => cx.in_disorder.iter().map(|p| p.name()).collect::<Vec<_>>(),
        units => units(map, next),
        pages => cx.pages.clone(),
    }
}

/// `{code, season, year, kind, name}`: `S1901M`, `Spring`, 1901,
/// `movement` / `retreat` / `adjustment`, `Movement` / `Retreats` /
/// `Adjustments`.
fn phase_value(phase: Phase) -> Value {
    let kind = match phase.kind {
        PhaseKind::Movement => "movement",
        PhaseKind::Retreat => "retreat",
        PhaseKind::Adjustment => "adjustment",
    };
    context! {
        code => phase.to_string(),
        season => phase.season_name(),
        year => phase.year,
        kind => kind,
        name => phase.kind_name(),
    }
}

/// The orders grouped by power, powers in alphabetical order. In movement
/// and retreat phases a power's orders are sorted by the unit's province;
/// adjustment orders stay in the order given (later builds beyond those due
/// are the void ones), and each build left unused shows as a waive with no
/// order, as removals chosen by the civil-disorder rule do.
fn order_groups(map: &Map, cx: &ResultsContext, orders: &[(Order, Outcome)]) -> Vec<Value> {
    let (before, in_disorder) = (cx.before, cx.in_disorder);
    let mut sorted: Vec<&(Order, Outcome)> = orders.iter().collect();
    let unused = unused_builds(map, before, orders, cx.inert);
    if before.phase.kind == PhaseKind::Adjustment {
        sorted.extend(unused.iter());
        sorted.sort_by_key(|(o, _)| o.power);
    } else {
        sorted.sort_by_key(|(o, _)| (o.power, map.name(map.province_of(o.location))));
    }
    Power::ALL
        .into_iter()
        .filter_map(|power| {
            let lines: Vec<Value> = sorted
                .iter()
                .filter(|(o, _)| o.power == power)
                .map(|(o, outcome)| {
                    context! {
                        text => o.long(map),
                        tags => outcome.tags().collect::<Vec<_>>(),
                        unit => o.unit.name(),
                        location => map.loc_name(o.location),
                        hold => o.kind == OrderKind::Hold,
                        reason => void_reason(map, before, in_disorder, o, *outcome),
                    }
                })
                .collect();
            (!lines.is_empty()).then(|| {
                context! {
                    power => power.name(),
                    adjective => power.adjective(),
                    orders => lines,
                }
            })
        })
        .collect()
}

/// In an adjustment phase: a waive with no order for each build a power
/// could have made and did not order.
fn unused_builds(
    map: &Map,
    before: &Position,
    orders: &[(Order, Outcome)],
    inert: &[Power],
) -> Vec<(Order, Outcome)> {
    if before.phase.kind != PhaseKind::Adjustment {
        return Vec::new();
    }
    let mut out = Vec::new();
    for power in Power::ALL.into_iter().filter(|p| !inert.contains(p)) {
        let used = orders
            .iter()
            .filter(|(o, outcome)| {
                o.power == power
                    && matches!(o.kind, OrderKind::Build | OrderKind::Waive)
                    && !outcome.contains(Outcome::VOID)
            })
            .count();
        for _ in used..builds_possible(map, before, power) {
            out.push((Order::waive(power), Outcome::DEFAULTED));
        }
    }
    out
}

/// Dislodged units destroyed: `.disorder` when they did not retreat
/// because their power is in civil disorder (they may have had somewhere
/// to go).
fn destroyed(map: &Map, in_disorder: &[Power], units: &[Unit]) -> Vec<Value> {
    units
        .iter()
        .map(|u| {
            let base = unit_value(map, u);
            context! { disorder => in_disorder.contains(&u.power), ..base }
        })
        .collect()
}

fn unit_value(map: &Map, u: &Unit) -> Value {
    context! {
        power => u.power.name(),
        adjective => u.power.adjective(),
        unit => u.kind.name(),
        location => map.loc_name(u.location),
    }
}

/// After a movement phase: the units that must retreat, with where each
/// may go (`retreats`: "Tuscany", "Spain (north coast)").
fn dislodged(map: &Map, phase: Phase, next: &Position) -> Vec<Value> {
    if phase.kind != PhaseKind::Movement || next.phase.kind != PhaseKind::Retreat {
        return Vec::new();
    }
    let mut units: Vec<_> = next.dislodged.iter().collect();
    units.sort_by_key(|d| (d.unit.power, map.name(map.province_of(d.unit.location))));
    units
        .into_iter()
        .map(|d| {
            let base = unit_value(map, &d.unit);
            let retreats: Vec<String> = d.retreats.iter().map(|&l| map.loc_name(l)).collect();
            context! { retreats => retreats, ..base }
        })
        .collect()
}

/// Per power with units after the phase, alphabetically: `.power`, and
/// `.units` ["Army Budapest", "Fleet Trieste"] sorted by province — the
/// position the next orders are written from.
fn units(map: &Map, position: &Position) -> Vec<Value> {
    Power::ALL
        .into_iter()
        .filter_map(|power| {
            let mut mine: Vec<&Unit> = position.units.iter().filter(|u| u.power == power).collect();
            mine.sort_by_key(|u| map.name(map.province_of(u.location)));
            let names: Vec<String> = mine
                .iter()
                .map(|u| format!("{} {}", u.kind.name(), map.loc_name(u.location)))
                .collect();
            (!names.is_empty()).then(|| {
                context! {
                    power => power.name(),
                    adjective => power.adjective(),
                    units => names,
                }
            })
        })
        .collect()
}

/// Each power owning centres, with their names in alphabetical order.
fn ownership(map: &Map, position: &Position) -> Vec<Value> {
    Power::ALL
        .into_iter()
        .filter_map(|power| {
            let names = centre_names(map, position, Some(power));
            (!names.is_empty()).then(|| {
                context! {
                    power => power.name(),
                    adjective => power.adjective(),
                    centres => names,
                }
            })
        })
        .collect()
}

fn unowned(map: &Map, position: &Position) -> Vec<&'static str> {
    centre_names(map, position, None)
}

fn centre_names(map: &Map, position: &Position, owner: Option<Power>) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = map
        .supply_centres()
        .filter(|&p| position.owner(p) == owner)
        .map(|p| map.name(p))
        .collect();
    names.sort_unstable();
    names
}

/// Per power still in the game: centres, units, and the builds (`due` > 0)
/// or removals (`due` < 0) they make due; `count` is `due` without its
/// sign, `possible` the builds there is room for in free home centres.
fn adjustments(map: &Map, position: &Position, inert: &[Power]) -> Vec<Value> {
    position
        .survivors()
        .into_iter()
        .map(|power| {
            let due = position.adjustment_due(power);
            // A power that builds nothing is due no builds.
            let due = if inert.contains(&power) {
                due.min(0)
            } else {
                due
            };
            context! {
                power => power.name(),
                adjective => power.adjective(),
                centres => position.centre_count(power),
                units => position.unit_count(power),
                due => due,
                count => due.unsigned_abs(),
                possible => if due > 0 { builds_possible(map, position, power) } else { 0 },
            }
        })
        .collect()
}

/// Renders the results template on sample Fall turns that reach every
/// branch of the built-in template (a bounce, a retreat, a destroyed unit,
/// ownership, the next phase; a winner; a game declared over), so that a
/// broken edited template is found when the templates are loaded.
pub(super) fn try_sample(templates: &Templates) -> Result<(), ReportError> {
    let map = Map::standard();
    let mut before = Position::standard_start(map);
    before.phase = Phase::new(Season::Fall, 1901, PhaseKind::Movement);
    let mut adjudication = adjudicate(map, &before, &[]);
    // Not a real adjudication: every kind of line at once.
    adjudication.orders[0].1 = Outcome::BOUNCE | Outcome::DISLODGED;
    let fallen = before.units[0];
    let victim = before.units[1];
    adjudication.next.phase = Phase::new(Season::Fall, 1901, PhaseKind::Retreat);
    adjudication.next.dislodged = vec![Dislodged {
        unit: fallen,
        retreats: vec![fallen.location, victim.location],
    }];
    adjudication.destroyed = vec![victim];
    if let Some(centre) = map.supply_centres().find(|&p| before.owner(p).is_none()) {
        adjudication.next.owners[centre.index()] = Some(fallen.power);
    }
    let deadline = || Some("Thu Nov 26 2026 20:00 UTC".to_string());
    let draw = || Some("The game was declared a draw.".to_string());
    for (deadline, game_over, winner) in [
        (deadline(), None, None),
        (deadline(), None, Some(fallen.power)),
        (None, draw(), None),
    ] {
        adjudication.winner = winner;
        let cx = ResultsContext {
            judge_code: "JDG",
            game: "sample",
            variant: "Standard",
            phase: before.phase,
            adjudication: &adjudication,
            before: &before,
            next_deadline: deadline,
            game_over,
            in_disorder: &[Power::Italy],
            inert: &[Power::Italy],
            pages: Some("https://diplomacy.example.org/sample/F1901M.html".to_string()),
        };
        templates.render(RESULTS, variables(&cx))?;
    }
    Ok(())
}
