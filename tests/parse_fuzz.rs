//! Property tests of the order parser: it never panics, whatever it is
//! fed (random text, soups of real order words, random positions and
//! phases); what it accepts is an order the power may give in that phase,
//! reads back from its written forms, and can be adjudicated; what it
//! suggests reads as a valid order.

use judge::engine::adjudicate::adjudicate;
use judge::engine::map::{Location, Map, Power, Province, Terrain, UnitType};
use judge::engine::order::{Order, OrderKind};
use judge::engine::parse::{parse_order, parse_orders};
use judge::engine::phase::{Phase, PhaseKind, Season};
use judge::engine::position::{Dislodged, Position, Unit};
use proptest::prelude::*;

fn map() -> &'static Map {
    Map::standard()
}

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

fn random_power(r: &mut Rng) -> Power {
    Power::ALL[r.below(7)]
}

/// Where a unit of this type may stand in province `p`.
fn stand(r: &mut Rng, kind: UnitType, p: Province) -> Location {
    let coasts = map().coasts(p);
    if kind == UnitType::Fleet && !coasts.is_empty() {
        coasts[r.below(coasts.len())]
    } else {
        p.location()
    }
}

/// A legal position: at most one unit a province, each where its type may
/// stand; random owners; in a retreat phase, dislodged units (where an
/// attacker now stands) with retreats to free neighbours.
fn random_position(seed: u64) -> Position {
    let map = map();
    let mut r = Rng(seed);
    let year = 1901 + r.below(10) as u16;
    let season = if r.percent(50) {
        Season::Spring
    } else {
        Season::Fall
    };
    let phase = match r.below(3) {
        0 => Phase::new(season, year, PhaseKind::Movement),
        1 => Phase::new(season, year, PhaseKind::Retreat),
        _ => Phase::new(Season::Winter, year, PhaseKind::Adjustment),
    };
    let mut pos = Position::empty(map, phase);
    let mut free: Vec<Province> = map
        .provinces()
        .filter(|&p| map.terrain(p) != Terrain::Impassable)
        .collect();
    for i in (1..free.len()).rev() {
        free.swap(i, r.below(i + 1));
    }
    let n = r.below(35);
    for &p in free.iter().take(n) {
        let kind = match map.terrain(p) {
            Terrain::Land => UnitType::Army,
            Terrain::Sea => UnitType::Fleet,
            _ if r.percent(50) => UnitType::Army,
            _ => UnitType::Fleet,
        };
        let location = stand(&mut r, kind, p);
        pos.units.push(Unit {
            power: random_power(&mut r),
            kind,
            location,
        });
    }
    let centres: Vec<Province> = map.supply_centres().collect();
    for c in centres {
        if r.percent(75) {
            pos.owners[c.index()] = Some(random_power(&mut r));
        }
    }
    if phase.kind == PhaseKind::Retreat && !pos.units.is_empty() {
        for _ in 0..r.below(4) {
            let attacker = *r.pick(&pos.units);
            let p = map.province_of(attacker.location);
            if pos.dislodged_in(map, p).is_some() {
                continue;
            }
            let kind = match map.terrain(p) {
                Terrain::Land => UnitType::Army,
                Terrain::Sea => UnitType::Fleet,
                _ if r.percent(50) => UnitType::Army,
                _ => UnitType::Fleet,
            };
            let location = stand(&mut r, kind, p);
            let neighbours: Vec<Location> = match kind {
                UnitType::Army => map
                    .army_neighbours(p)
                    .iter()
                    .map(|i| Location(i as u8))
                    .collect(),
                UnitType::Fleet => map
                    .fleet_neighbours(location)
                    .iter()
                    .map(|i| Location(i as u8))
                    .collect(),
            };
            let retreats = neighbours
                .into_iter()
                .filter(|&l| {
                    let q = map.province_of(l);
                    map.terrain(q) != Terrain::Impassable
                        && pos.unit_in(map, q).is_none()
                        && r.percent(80)
                })
                .collect();
            let mut power = random_power(&mut r);
            if power == attacker.power {
                power = Power::ALL[(power.index() + 1) % 7];
            }
            pos.dislodged.push(Dislodged {
                unit: Unit {
                    power,
                    kind,
                    location,
                },
                retreats,
            });
        }
    }
    pos
}

/// Words of orders, to be thrown together.
fn vocabulary() -> Vec<String> {
    let mut v: Vec<String> = map().spellings().map(|(s, _)| s.to_string()).collect();
    v.sort();
    for w in [
        "-",
        "->",
        "=>",
        "—",
        "m",
        "move",
        "moves to",
        "to",
        "H",
        "hold",
        "holds",
        "stand",
        "S",
        "support",
        "supports",
        "C",
        "convoy",
        "convoys",
        "T",
        "transport",
        "via convoy",
        "by convoy",
        "via",
        "R",
        "retreat",
        "retreats to",
        "D",
        "disband",
        "Build",
        "B",
        "build",
        "Remove",
        "remove",
        "Waive",
        "W",
        "waived",
        "A",
        "F",
        "Army",
        "Fleet",
        "a",
        "f",
        "/nc",
        "/sc",
        "/ec",
        "(nc)",
        "(sc)",
        "north coast",
        "south",
        "/n",
        ".sc",
        "-nc",
        "nc",
        "n.c.",
        ",",
        ";",
        ".",
        ":",
        "(",
        ")",
        "/",
        "!",
        "?",
        "France:",
        "F:",
        "R:",
        "Russian",
        "English",
        "Germany:",
        "Turkish",
        "Italy",
        "Nor",
        "Gulf",
        "Mid",
        "North",
        "Burgandy",
        "Marsailles",
        "Constantinopel",
        "St. P.",
        "St",
        "P",
        "the",
        "of",
        "é",
        "巴黎",
        "\u{0}",
        "\t",
        "1901",
    ] {
        v.push(w.to_string());
    }
    v
}

/// A spelling of province `p` a player might use.
fn spelling(r: &mut Rng, p: Province) -> String {
    let map = map();
    match r.below(5) {
        0 => map.name(p).to_string(),
        1 => map.abbr(p).to_ascii_lowercase(),
        2 if !map.aliases(p).is_empty() => r.pick(map.aliases(p)).to_string(),
        _ => {
            let a = map.abbr(p);
            format!("{}{}", &a[..1], a[1..].to_ascii_lowercase())
        }
    }
}

/// A neighbour of `p` (any kind of border), or any province.
fn near(r: &mut Rng, p: Province) -> Province {
    let map = map();
    let n: Vec<usize> = map
        .army_neighbours(p)
        .iter()
        .chain(map.fleet_province_neighbours(p).iter())
        .collect();
    if n.is_empty() || r.percent(15) {
        Province(r.below(map.province_count()) as u8)
    } else {
        Province(*r.pick(&n) as u8)
    }
}

/// Orders a player might write for `power`'s units in `pos`: mostly
/// sensible, some not.
fn orders_for(r: &mut Rng, pos: &Position, power: Power) -> Vec<String> {
    let map = map();
    let mut out = Vec::new();
    let letter = |u: &Unit| if u.kind == UnitType::Army { "A" } else { "F" };
    let mine: Vec<Unit> = pos
        .units
        .iter()
        .filter(|u| u.power == power)
        .copied()
        .collect();
    match pos.phase.kind {
        PhaseKind::Movement => {
            for u in &mine {
                let at = map.province_of(u.location);
                let here = spelling(r, at);
                let to = near(r, at);
                let there = spelling(r, to);
                let other = near(r, to);
                let text = match r.below(7) {
                    0 => format!("{} {here} H", letter(u)),
                    1 | 2 => format!("{} {here} - {there}", letter(u)),
                    3 => format!("{here} - {there} via convoy"),
                    4 => {
                        let x = spelling(r, other);
                        format!("{} {here} S {x} - {there}", letter(u))
                    }
                    5 => {
                        let x = spelling(r, other);
                        format!("{} {here} S {x}", letter(u))
                    }
                    _ => {
                        let x = spelling(r, other);
                        format!("{} {here} C A {x} - {there}", letter(u))
                    }
                };
                out.push(text);
            }
        }
        PhaseKind::Retreat => {
            for d in pos.dislodged.iter().filter(|d| d.unit.power == power) {
                let at = map.province_of(d.unit.location);
                let here = spelling(r, at);
                let text = if !d.retreats.is_empty() && r.percent(70) {
                    let l = *r.pick(&d.retreats);
                    let mut there = spelling(r, map.province_of(l));
                    if let Some(c) = map.coast_of(l) {
                        there = format!("{there}/{}", c.abbr());
                    }
                    format!("{} {here} R {there}", letter(&d.unit))
                } else if r.percent(50) {
                    let to = near(r, at);
                    format!("{here} - {}", spelling(r, to))
                } else {
                    format!("{} {here} disband", letter(&d.unit))
                };
                out.push(text);
            }
        }
        PhaseKind::Adjustment => {
            let due = pos.adjustment_due(power);
            for _ in 0..due.unsigned_abs().min(4) {
                let text = if due > 0 {
                    let homes = &pos.homes[power.index()];
                    if homes.is_empty() || r.percent(10) {
                        "Waive".to_string()
                    } else {
                        let h = *r.pick(homes);
                        let t = if r.percent(50) { "A" } else { "F" };
                        let coast = match map.coasts(h) {
                            [] => String::new(),
                            cs => format!("/{}", map.coast_of(*r.pick(cs)).unwrap().abbr()),
                        };
                        format!("Build {t} {}{coast}", spelling(r, h))
                    }
                } else if mine.is_empty() {
                    "Remove A Par".to_string()
                } else {
                    let u = r.pick(&mine);
                    format!(
                        "Remove {} {}",
                        letter(u),
                        spelling(r, map.province_of(u.location))
                    )
                };
                out.push(text);
            }
        }
    }
    out
}

/// What every accepted order must be: the power's, of the phase, for a
/// unit it has (or a build it may make), and the same when read back from
/// its short and long forms.
fn check_accepted(pos: &Position, power: Power, text: &str, o: &Order) {
    let map = map();
    assert_eq!(o.power, power, "{text:?}");
    let at = map.province_of(o.location);
    match (pos.phase.kind, o.kind) {
        (
            PhaseKind::Movement,
            OrderKind::Hold
            | OrderKind::Move { .. }
            | OrderKind::Support { .. }
            | OrderKind::Convoy { .. },
        ) => {
            let u = pos.unit_in(map, at).expect("a unit");
            assert_eq!(
                (u.power, u.kind, u.location),
                (power, o.unit, o.location),
                "{text:?}"
            );
        }
        (PhaseKind::Retreat, OrderKind::Retreat { to }) => {
            let d = pos.dislodged_in(map, at).expect("a dislodged unit");
            assert_eq!(d.unit.power, power, "{text:?}");
            assert!(d.retreats.contains(&to), "{text:?}");
        }
        (PhaseKind::Retreat, OrderKind::Disband) => {
            assert_eq!(
                pos.dislodged_in(map, at).expect("dislodged").unit.power,
                power
            );
        }
        (PhaseKind::Adjustment, OrderKind::Build) => {
            assert!(pos.adjustment_due(power) > 0, "{text:?}");
            assert!(
                pos.is_home(power, at) && pos.owner(at) == Some(power),
                "{text:?}"
            );
            assert!(pos.unit_in(map, at).is_none(), "{text:?}");
            assert!(map.can_stand(o.unit, o.location), "{text:?}");
        }
        (PhaseKind::Adjustment, OrderKind::Remove) => {
            assert!(pos.adjustment_due(power) < 0, "{text:?}");
            let u = pos.unit_in(map, at).expect("a unit");
            assert_eq!((u.power, u.kind), (power, o.unit), "{text:?}");
        }
        (PhaseKind::Adjustment, OrderKind::Waive) => assert!(pos.adjustment_due(power) > 0),
        (kind, k) => panic!("{text:?}: {k:?} accepted in a {kind:?} phase"),
    }
    for form in [o.short(map), o.long(map)] {
        match parse_order(map, pos, power, &form) {
            Ok(again) => assert_eq!(&again, o, "{text:?} read back from {form:?}"),
            Err(e) => panic!("{text:?} read as {form:?}, which is refused: {e}"),
        }
    }
}

/// Parses `text` as every power: no panic, accepted orders valid, every
/// suggestion a valid order.
fn exercise(pos: &Position, text: &str) {
    let map = map();
    for power in Power::ALL {
        for r in parse_orders(map, pos, power, text) {
            match r {
                Ok(o) => check_accepted(pos, power, text, &o),
                Err(e) => {
                    assert!(!e.to_string().is_empty());
                    if let Some(s) = &e.suggestion {
                        if let Err(again) = parse_order(map, pos, power, s) {
                            panic!("{text:?}: suggestion {s:?} is refused: {again}");
                        }
                    }
                }
            }
        }
    }
}

fn soup() -> impl Strategy<Value = String> {
    let words = vocabulary();
    let seps = vec![" ", " ", " ", "", "-", "  ", ", "];
    prop::collection::vec(
        (prop::sample::select(words), prop::sample::select(seps)),
        0..10,
    )
    .prop_map(|parts| {
        parts
            .into_iter()
            .map(|(w, s)| format!("{w}{s}"))
            .collect::<String>()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_text_never_panics(seed in any::<u64>(), text in any::<String>()) {
        let pos = random_position(seed);
        exercise(&pos, &text);
    }

    #[test]
    fn printable_noise_never_panics(seed in any::<u64>(), text in "[ -~]{0,120}") {
        let pos = random_position(seed);
        exercise(&pos, &text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn word_soups_never_panic(seed in any::<u64>(), text in soup()) {
        let pos = random_position(seed);
        exercise(&pos, &text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(250))]

    /// Orders players might write, parsed for every power and adjudicated:
    /// the next position has at most one unit a province, each where it may
    /// stand.
    #[test]
    fn parsed_orders_adjudicate(seed in any::<u64>()) {
        let map = map();
        let pos = random_position(seed);
        let mut r = Rng(seed ^ 0xDEAD_BEEF);
        let mut orders = Vec::new();
        for power in Power::ALL {
            let texts = orders_for(&mut r, &pos, power);
            let line = texts.join(", ");
            for (text, result) in texts.iter().zip(parse_orders(map, &pos, power, &line)) {
                match result {
                    Ok(o) => {
                        check_accepted(&pos, power, text, &o);
                        orders.push(o);
                    }
                    Err(e) => {
                        if let Some(s) = &e.suggestion {
                            prop_assert!(parse_order(map, &pos, power, s).is_ok(), "{}", e);
                        }
                    }
                }
            }
        }
        let result = adjudicate(map, &pos, &orders);
        let next = &result.next;
        let mut seen = vec![false; map.province_count()];
        for u in &next.units {
            let p = map.province_of(u.location);
            prop_assert!(!seen[p.index()], "two units in {} after {}", map.name(p), pos.phase);
            seen[p.index()] = true;
            prop_assert!(map.can_stand(u.kind, u.location), "{:?}", u);
        }
        for d in &next.dislodged {
            for &l in &d.retreats {
                prop_assert!(next.unit_in(map, map.province_of(l)).is_none());
            }
        }
        // No unit appears or vanishes unaccounted for.
        let (before, after) = (pos.units.len(), next.units.len());
        match pos.phase.kind {
            PhaseKind::Movement => prop_assert_eq!(
                after + next.dislodged.len() + result.destroyed.len(),
                before
            ),
            PhaseKind::Retreat => {
                prop_assert!(before <= after && after <= before + pos.dislodged.len())
            }
            PhaseKind::Adjustment => {
                for power in Power::ALL {
                    let (had, has) = (pos.unit_count(power), next.unit_count(power));
                    let due = pos.adjustment_due(power);
                    if due < 0 {
                        prop_assert_eq!(has, pos.centre_count(power), "{}", power);
                    } else {
                        prop_assert!(had <= has && has <= had + due as usize, "{}", power);
                    }
                }
            }
        }
    }
}

#[test]
fn random_positions_are_legal() {
    let map = map();
    for seed in 0..200 {
        let pos = random_position(seed);
        let mut seen = vec![false; map.province_count()];
        for u in &pos.units {
            let p = map.province_of(u.location);
            assert!(!seen[p.index()]);
            seen[p.index()] = true;
            assert!(map.can_stand(u.kind, u.location), "{u:?}");
        }
    }
}
