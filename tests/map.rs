//! The standard board: counts, borders and spellings, checked against the
//! facts of the 1982 rulebook map.

use judge::engine::map::*;

// The tables themselves, compiled a second time into this test so that the
// raw rows can be checked (a pair listed twice, which the bitsets of `Map`
// would silently merge). `map_data.rs` refers to `super::map`, which the
// `use` below provides; its `pub(super)` consts are visible in this file.
use judge::engine::map;
#[path = "../crates/engine/src/map_data.rs"]
mod map_data;

mod tables {
    use super::map_data::{ARMY_BORDERS, FLEET_BORDERS, PROVINCES};
    use judge::engine::map::Map;

    #[test]
    fn raw_tables_have_no_duplicates() {
        use std::collections::HashSet;
        assert_eq!(PROVINCES.len(), 76);
        assert_eq!(ARMY_BORDERS.len(), 111);
        assert_eq!(FLEET_BORDERS.len(), 141);
        let mut abbrs = HashSet::new();
        for row in PROVINCES {
            assert!(abbrs.insert(row.abbr), "{} twice", row.abbr);
        }
        for (name, table) in [("army", ARMY_BORDERS), ("fleet", FLEET_BORDERS)] {
            let mut seen = HashSet::new();
            for &(a, b) in table {
                assert_ne!(a, b);
                let key = if a < b { (a, b) } else { (b, a) };
                assert!(seen.insert(key), "{name} border {a}-{b} listed twice");
            }
        }
        for &(a, b) in ARMY_BORDERS {
            assert!(!a.contains('/') && !b.contains('/'), "{a}-{b}");
        }
        for &(a, b) in FLEET_BORDERS {
            for x in [a, b] {
                assert!(
                    !["SPA", "STP", "BUL"].contains(&x),
                    "bare {x} in a fleet border"
                );
            }
        }
        // Building again from the same tables gives the same board.
        let again = Map::build(PROVINCES, ARMY_BORDERS, FLEET_BORDERS);
        assert_eq!(again.location_count(), super::board().location_count());
    }
}

fn board() -> &'static Map {
    Map::standard()
}

fn prov(abbr: &str) -> Province {
    board()
        .province_by_abbr(abbr)
        .unwrap_or_else(|| panic!("no province {abbr}"))
}

fn loc(text: &str) -> Location {
    board()
        .location_by_abbr(text)
        .unwrap_or_else(|| panic!("no location {text}"))
}

fn army(a: &str, b: &str) -> bool {
    board().army_adjacent(prov(a), prov(b))
}

fn fleet(a: &str, b: &str) -> bool {
    board().fleet_adjacent(loc(a), loc(b))
}

fn count_terrain(t: Terrain) -> usize {
    board()
        .provinces()
        .filter(|&p| board().terrain(p) == t)
        .count()
}

#[test]
fn province_counts() {
    let m = board();
    assert_eq!(m.province_count(), 76, "75 provinces plus Switzerland");
    assert_eq!(
        m.provinces()
            .filter(|&p| m.terrain(p) != Terrain::Impassable)
            .count(),
        75
    );
    assert_eq!(count_terrain(Terrain::Land), 14);
    assert_eq!(count_terrain(Terrain::Coast), 42);
    assert_eq!(count_terrain(Terrain::Sea), 19);
    assert_eq!(count_terrain(Terrain::Impassable), 1);
    assert_eq!(m.terrain(prov("SWI")), Terrain::Impassable);
    // 76 provinces plus two coasts each for SPA, STP and BUL.
    assert_eq!(m.location_count(), 82);
}

#[test]
fn terrain_of_some_provinces() {
    let m = board();
    for p in [
        "BOH", "BUD", "BUR", "GAL", "MOS", "MUN", "PAR", "RUH", "SER", "SIL", "TYR", "UKR", "VIE",
        "WAR",
    ] {
        assert_eq!(m.terrain(prov(p)), Terrain::Land, "{p}");
    }
    for p in [
        "ADR", "AEG", "BAL", "BAR", "BLA", "BOT", "EAS", "ENG", "HEL", "ION", "IRI", "LYO", "MAO",
        "NAO", "NTH", "NWG", "SKA", "TYS", "WES",
    ] {
        assert_eq!(m.terrain(prov(p)), Terrain::Sea, "{p}");
    }
    for p in [
        "KIE", "CON", "DEN", "SPA", "STP", "BUL", "NAF", "TUN", "SYR", "ARM", "LVN", "PIE", "APU",
    ] {
        assert_eq!(m.terrain(prov(p)), Terrain::Coast, "{p}");
    }
}

#[test]
fn supply_centres() {
    let m = board();
    let mut scs: Vec<&str> = m.supply_centres().map(|p| m.abbr(p)).collect();
    scs.sort();
    assert_eq!(scs.len(), 34);
    let neutral: Vec<&str> = scs
        .iter()
        .copied()
        .filter(|&a| m.home_of(prov(a)).is_none())
        .collect();
    assert_eq!(
        neutral,
        ["BEL", "BUL", "DEN", "GRE", "HOL", "NWY", "POR", "RUM", "SER", "SPA", "SWE", "TUN"]
    );
    // Every home centre is a supply centre.
    for p in m.provinces() {
        if m.home_of(p).is_some() {
            assert!(m.is_supply_centre(p), "{}", m.abbr(p));
        }
    }
}

#[test]
fn home_centres() {
    let m = board();
    let expected: [(Power, &[&str]); 7] = [
        (Power::Austria, &["BUD", "TRI", "VIE"]),
        (Power::England, &["EDI", "LON", "LVP"]),
        (Power::France, &["BRE", "MAR", "PAR"]),
        (Power::Germany, &["BER", "KIE", "MUN"]),
        (Power::Italy, &["NAP", "ROM", "VEN"]),
        (Power::Russia, &["MOS", "SEV", "STP", "WAR"]),
        (Power::Turkey, &["ANK", "CON", "SMY"]),
    ];
    let mut total = 0;
    for (power, homes) in expected {
        let mut got: Vec<&str> = m.homes(power).map(|p| m.abbr(p)).collect();
        got.sort();
        assert_eq!(got, homes, "{power}");
        total += got.len();
    }
    assert_eq!(total, 22);
    assert_eq!(
        m.provinces().filter(|&p| m.home_of(p).is_some()).count(),
        22
    );
}

#[test]
fn two_coast_provinces() {
    let m = board();
    let mut with_coasts: Vec<(&str, Vec<Coast>)> = m
        .provinces()
        .filter(|&p| !m.coasts(p).is_empty())
        .map(|p| {
            let coasts = m
                .coasts(p)
                .iter()
                .map(|&l| m.coast_of(l).unwrap())
                .collect();
            (m.abbr(p), coasts)
        })
        .collect();
    with_coasts.sort();
    assert_eq!(
        with_coasts,
        vec![
            ("BUL", vec![Coast::East, Coast::South]),
            ("SPA", vec![Coast::North, Coast::South]),
            ("STP", vec![Coast::North, Coast::South]),
        ]
    );
    for l in m.locations() {
        if let Some(c) = m.coast_of(l) {
            let p = m.province_of(l);
            assert_eq!(m.coast_location(p, c), Some(l));
        }
    }
    assert_eq!(m.loc_name(loc("STP/NC")), "St Petersburg (north coast)");
    assert_eq!(m.loc_name(loc("BUL/EC")), "Bulgaria (east coast)");
    assert_eq!(m.loc_abbr(loc("spa/sc")), "SPA/SC");
    assert_eq!(m.location_by_abbr("SPA/EC"), None);
    assert_eq!(m.location_by_abbr("ROM/NC"), None);
}

#[test]
fn every_location_found_by_abbr() {
    let m = board();
    for l in m.locations() {
        let text = m.loc_abbr(l);
        assert_eq!(m.location_by_abbr(&text), Some(l), "{text}");
        assert_eq!(
            m.location_by_abbr(&text.to_ascii_lowercase()),
            Some(l),
            "{text}"
        );
    }
    for p in m.provinces() {
        assert_eq!(m.abbr(p).len(), 3);
        assert_eq!(m.abbr(p), m.abbr(p).to_ascii_uppercase());
        assert_eq!(m.province_by_abbr(m.abbr(p)), Some(p));
        assert_eq!(m.province_by_name(m.name(p)), Some(p));
    }
}

#[test]
fn full_names() {
    let m = board();
    for (abbr, name) in [
        ("STP", "St Petersburg"),
        ("NAO", "North Atlantic Ocean"),
        ("MAO", "Mid-Atlantic Ocean"),
        ("LYO", "Gulf of Lyon"),
        ("ENG", "English Channel"),
        ("HEL", "Heligoland Bight"),
        ("TYS", "Tyrrhenian Sea"),
        ("NWG", "Norwegian Sea"),
        ("EAS", "Eastern Mediterranean"),
        ("WES", "Western Mediterranean"),
        ("BOT", "Gulf of Bothnia"),
        ("CON", "Constantinople"),
        ("MAR", "Marseilles"),
        ("TYR", "Tyrolia"),
        ("RUM", "Rumania"),
        ("SWI", "Switzerland"),
    ] {
        assert_eq!(m.name(prov(abbr)), name);
    }
}

#[test]
fn fleet_borders_join_fleet_locations() {
    let m = board();
    for a in m.locations() {
        let n = m.fleet_neighbours(a);
        if n.0 != 0 {
            assert!(m.can_stand(UnitType::Fleet, a), "{}", m.loc_abbr(a));
        }
        for b in n.iter() {
            let b = Location(b as u8);
            assert!(
                m.can_stand(UnitType::Fleet, b),
                "{} - {}",
                m.loc_abbr(a),
                m.loc_abbr(b)
            );
            assert_ne!(a, b);
        }
    }
    // And every location a fleet can stand on has somewhere to go.
    for l in m.locations() {
        if m.can_stand(UnitType::Fleet, l) {
            assert_ne!(m.fleet_neighbours(l).0, 0, "{}", m.loc_abbr(l));
        }
    }
}

#[test]
fn army_borders_join_army_provinces() {
    let m = board();
    for a in m.provinces() {
        let n = m.army_neighbours(a);
        let standable = m.can_stand(UnitType::Army, a.location());
        assert_eq!(n.0 != 0, standable, "{}", m.abbr(a));
        for b in n.iter() {
            let b = Province(b as u8);
            assert!(
                m.can_stand(UnitType::Army, b.location()),
                "{} - {}",
                m.abbr(a),
                m.abbr(b)
            );
            assert_ne!(a, b);
        }
    }
}

#[test]
fn can_stand() {
    let m = board();
    use UnitType::*;
    assert!(m.can_stand(Army, loc("PAR")));
    assert!(!m.can_stand(Fleet, loc("PAR")));
    assert!(m.can_stand(Army, loc("BRE")));
    assert!(m.can_stand(Fleet, loc("BRE")));
    assert!(!m.can_stand(Army, loc("NTH")));
    assert!(m.can_stand(Fleet, loc("NTH")));
    assert!(m.can_stand(Army, loc("SPA")));
    assert!(!m.can_stand(Fleet, loc("SPA")));
    assert!(!m.can_stand(Army, loc("SPA/NC")));
    assert!(m.can_stand(Fleet, loc("SPA/NC")));
    assert!(!m.can_stand(Army, loc("SWI")));
    assert!(!m.can_stand(Fleet, loc("SWI")));
}

#[test]
fn symmetric() {
    let m = board();
    for a in m.provinces() {
        for b in m.provinces() {
            assert_eq!(m.army_adjacent(a, b), m.army_adjacent(b, a));
            assert_eq!(
                m.fleet_adjacent_provinces(a, b),
                m.fleet_adjacent_provinces(b, a)
            );
        }
    }
    for a in m.locations() {
        for b in m.locations() {
            assert_eq!(m.fleet_adjacent(a, b), m.fleet_adjacent(b, a));
        }
    }
}

#[test]
fn switzerland_is_cut_off() {
    let m = board();
    let swi = prov("SWI");
    assert_eq!(m.army_neighbours(swi).0, 0);
    assert_eq!(m.fleet_neighbours(swi.location()).0, 0);
    for p in m.provinces() {
        assert!(!m.army_adjacent(p, swi), "{}", m.abbr(p));
        assert!(!m.fleet_adjacent_provinces(p, swi), "{}", m.abbr(p));
    }
    for l in m.locations() {
        assert!(!m.fleet_adjacent(l, swi.location()));
    }
}

/// On the standard board two coastal provinces along one coastline always
/// share a land border as well, and every coastal province touches a sea.
#[test]
fn coasts_are_consistent() {
    let m = board();
    for a in m.locations() {
        let pa = m.province_of(a);
        for b in m.fleet_neighbours(a).iter() {
            let pb = m.province_of(Location(b as u8));
            if m.terrain(pa) == Terrain::Coast && m.terrain(pb) == Terrain::Coast {
                assert!(m.army_adjacent(pa, pb), "{} - {}", m.abbr(pa), m.abbr(pb));
            }
        }
    }
    for p in m.provinces() {
        if m.terrain(p) == Terrain::Coast {
            assert!(
                m.provinces()
                    .any(|s| m.terrain(s) == Terrain::Sea && m.fleet_adjacent_provinces(p, s)),
                "{}",
                m.abbr(p)
            );
        }
        if m.terrain(p) == Terrain::Land {
            assert!(!m.provinces().any(|q| m.fleet_adjacent_provinces(p, q)));
        }
    }
}

/// Checked pair by pair against the rulebook board and three public map
/// tables (njudge, DPjudge, godip), which agree with each other: 111 army
/// pairs and 141 fleet pairs (coasts counted as separate locations). The
/// crates.io `diplomacy` 0.2.0 map has 108 and 133: it lacks GAL-UKR, LVN-WAR,
/// NWY-STP for armies and BOT-FIN, BOT-LVN, BOT-STP/SC, BOT-SWE, CON-SMY,
/// MAO-SPA/SC, NWY-STP/NC, TUS-TYS for fleets.
#[test]
fn border_counts() {
    let m = board();
    let army_pairs = m
        .provinces()
        .flat_map(|a| m.provinces().map(move |b| (a, b)))
        .filter(|&(a, b)| a < b && m.army_adjacent(a, b))
        .count();
    let fleet_pairs = m
        .locations()
        .flat_map(|a| m.locations().map(move |b| (a, b)))
        .filter(|&(a, b)| a < b && m.fleet_adjacent(a, b))
        .count();
    assert_eq!(army_pairs, 111);
    assert_eq!(fleet_pairs, 141);
    // Neighbour counts of a few provinces.
    assert_eq!(m.army_neighbours(prov("BUR")).iter().count(), 7);
    assert_eq!(m.army_neighbours(prov("MUN")).iter().count(), 7);
    assert_eq!(m.army_neighbours(prov("GAL")).iter().count(), 7);
    assert_eq!(m.fleet_neighbours(loc("NTH")).iter().count(), 11);
    assert_eq!(m.fleet_neighbours(loc("MAO")).iter().count(), 10);
    assert_eq!(m.fleet_neighbours(loc("ION")).iter().count(), 9);
    assert_eq!(m.fleet_neighbours(loc("BAL")).iter().count(), 7);
    assert_eq!(m.fleet_neighbours(loc("STP/NC")).iter().count(), 2);
}

#[test]
fn borders_that_exist() {
    for (a, b) in [
        ("ROM", "VEN"),
        ("BUR", "PAR"),
        ("SWE", "DEN"),
        ("DEN", "KIE"),
        ("KIE", "BER"),
        ("KIE", "HOL"),
        ("KIE", "MUN"),
        ("KIE", "RUH"),
        ("CON", "BUL"),
        ("CON", "ANK"),
        ("CON", "SMY"),
        ("LVP", "EDI"),
        ("YOR", "LVP"),
        ("WAL", "YOR"),
        ("NWY", "STP"),
        ("NWY", "FIN"),
        ("NWY", "SWE"),
        ("GAL", "UKR"),
        ("LVN", "WAR"),
        ("ARM", "SYR"),
        ("ARM", "SMY"),
        ("ANK", "SMY"),
        ("APU", "ROM"),
        ("TUS", "VEN"),
        ("PIE", "VEN"),
        ("PIE", "TYR"),
        ("SPA", "POR"),
        ("SPA", "MAR"),
        ("SPA", "GAS"),
        ("STP", "MOS"),
        ("STP", "LVN"),
        ("BUL", "GRE"),
        ("BUL", "RUM"),
        ("NAF", "TUN"),
        ("SER", "ALB"),
        ("BOH", "GAL"),
        ("SEV", "ARM"),
        ("SEV", "UKR"),
        ("BEL", "RUH"),
        ("TRI", "TYR"),
    ] {
        assert!(army(a, b), "army {a}-{b}");
        assert!(army(b, a), "army {b}-{a}");
    }
    for (a, b) in [
        ("BAL", "DEN"),
        ("KIE", "BAL"),
        ("KIE", "HEL"),
        ("KIE", "HOL"),
        ("KIE", "DEN"),
        ("KIE", "BER"),
        ("CON", "BLA"),
        ("CON", "AEG"),
        ("CON", "BUL/EC"),
        ("CON", "BUL/SC"),
        ("CON", "ANK"),
        ("CON", "SMY"),
        ("DEN", "SWE"),
        ("DEN", "SKA"),
        ("DEN", "NTH"),
        ("DEN", "HEL"),
        ("NAF", "TUN"),
        ("NAF", "MAO"),
        ("NAF", "WES"),
        ("TUN", "TYS"),
        ("TUN", "ION"),
        ("TUN", "WES"),
        ("LON", "WAL"),
        ("LON", "YOR"),
        ("ROM", "TUS"),
        ("APU", "VEN"),
        ("MAR", "SPA/SC"),
        ("GAS", "SPA/NC"),
        ("POR", "SPA/NC"),
        ("POR", "SPA/SC"),
        ("MAO", "SPA/NC"),
        ("MAO", "SPA/SC"),
        ("LYO", "SPA/SC"),
        ("WES", "SPA/SC"),
        ("STP/NC", "BAR"),
        ("STP/NC", "NWY"),
        ("STP/SC", "BOT"),
        ("STP/SC", "FIN"),
        ("STP/SC", "LVN"),
        ("BUL/EC", "BLA"),
        ("BUL/EC", "RUM"),
        ("BUL/SC", "AEG"),
        ("BUL/SC", "GRE"),
        ("NAO", "NWG"),
        ("NAO", "MAO"),
        ("NAO", "CLY"),
        ("NAO", "LVP"),
        ("IRI", "NAO"),
        ("ENG", "IRI"),
        ("ENG", "BEL"),
        ("NTH", "NWG"),
        ("NTH", "HEL"),
        ("BOT", "BAL"),
        ("BOT", "SWE"),
        ("TUS", "TYS"),
        ("EDI", "NWG"),
        ("ADR", "ION"),
        ("EAS", "AEG"),
        ("SYR", "EAS"),
        ("ARM", "BLA"),
        ("SEV", "RUM"),
        ("ALB", "GRE"),
        ("TRI", "ALB"),
        ("PIE", "LYO"),
        ("BAR", "NWG"),
    ] {
        assert!(fleet(a, b), "fleet {a}-{b}");
        assert!(fleet(b, a), "fleet {b}-{a}");
    }
}

#[test]
fn borders_that_do_not_exist() {
    for (a, b) in [
        ("DEN", "BER"),
        ("DEN", "NWY"),
        ("SWE", "KIE"),
        ("ROM", "PIE"),
        ("LON", "EDI"),
        ("LON", "LVP"),
        ("CLY", "YOR"),
        ("BRE", "MAR"),
        ("PAR", "BEL"),
        ("BUL", "ALB"),
        ("SER", "CON"),
        ("ANK", "SYR"),
        ("ARM", "CON"),
        ("BUD", "BOH"),
        ("MUN", "VIE"),
        ("NAF", "SPA"),
        ("TUN", "NAP"),
        ("FIN", "LVN"),
        ("SWE", "STP"),
        ("HOL", "MUN"),
        ("SIL", "VIE"),
        ("MOS", "RUM"),
        ("TYR", "SWI"),
        ("MAR", "SWI"),
        ("PIE", "SWI"),
        ("BUR", "SWI"),
        ("MUN", "SWI"),
    ] {
        assert!(!army(a, b), "army {a}-{b}");
        assert!(!army(b, a), "army {b}-{a}");
    }
    // Armies never move by sea without a convoy.
    for (a, b) in [
        ("LON", "ENG"),
        ("BRE", "MAO"),
        ("KIE", "BAL"),
        ("CON", "BLA"),
    ] {
        assert!(!army(a, b), "army {a}-{b}");
    }
    for (a, b) in [
        ("ROM", "VEN"),
        ("ROM", "APU"),
        ("TUS", "VEN"),
        ("PIE", "VEN"),
        ("SPA/NC", "MAR"),
        ("SPA/NC", "LYO"),
        ("SPA/NC", "WES"),
        ("SPA/SC", "GAS"),
        ("SPA/NC", "SPA/SC"),
        ("BAL", "SKA"),
        ("BAL", "NTH"),
        ("BAL", "HEL"),
        ("NTH", "KIE"),
        ("SKA", "KIE"),
        ("DEN", "BER"),
        ("LVP", "EDI"),
        ("YOR", "LVP"),
        ("WAL", "YOR"),
        ("NWY", "FIN"),
        ("STP/NC", "BOT"),
        ("STP/NC", "FIN"),
        ("STP/SC", "BAR"),
        ("STP/SC", "NWY"),
        ("BUL/EC", "AEG"),
        ("BUL/EC", "GRE"),
        ("BUL/SC", "BLA"),
        ("BUL/SC", "RUM"),
        ("ARM", "SMY"),
        ("ARM", "SYR"),
        ("ANK", "SMY"),
        ("ENG", "NAO"),
        ("MAO", "LYO"),
        ("NAF", "ION"),
        ("NAF", "TYS"),
        ("AEG", "BLA"),
        ("EAS", "TYS"),
        ("IRI", "NWG"),
        ("CLY", "NTH"),
    ] {
        assert!(!fleet(a, b), "fleet {a}-{b}");
        assert!(!fleet(b, a), "fleet {b}-{a}");
    }
    // Fleets never cross land, and the bare two-coast provinces are not
    // fleet locations.
    for (a, b) in [
        ("BRE", "PAR"),
        ("MAR", "BUR"),
        ("NTH", "SPA"),
        ("MAO", "SPA"),
        ("BAR", "STP"),
        ("BLA", "BUL"),
    ] {
        assert!(!fleet(a, b), "fleet {a}-{b}");
    }
}

#[test]
fn supports_reach_provinces_through_coasts() {
    let m = board();
    use UnitType::*;
    assert!(m.reaches(Fleet, loc("MAO"), prov("SPA")));
    assert!(m.reaches(Fleet, loc("MAR"), prov("SPA")));
    assert!(m.reaches(Fleet, loc("GAS"), prov("SPA")));
    assert!(m.reaches(Fleet, loc("SPA/NC"), prov("POR")));
    assert!(!m.reaches(Fleet, loc("SPA/NC"), prov("MAR")));
    assert!(m.reaches(Fleet, loc("BOT"), prov("STP")));
    assert!(m.reaches(Fleet, loc("BLA"), prov("BUL")));
    assert!(!m.reaches(Fleet, loc("ROM"), prov("VEN")));
    assert!(m.reaches(Army, loc("ROM"), prov("VEN")));
    assert!(m.fleet_adjacent_provinces(prov("SPA"), prov("MAR")));
    assert!(m.fleet_adjacent_provinces(prov("BUL"), prov("CON")));
    assert!(!m.fleet_adjacent_provinces(prov("STP"), prov("SKA")));
    assert_eq!(
        m.fleet_targets_in(loc("MAO"), prov("SPA")),
        vec![loc("SPA/NC"), loc("SPA/SC")]
    );
    assert_eq!(
        m.fleet_targets_in(loc("MAR"), prov("SPA")),
        vec![loc("SPA/SC")]
    );
    assert_eq!(
        m.fleet_targets_in(loc("GAS"), prov("SPA")),
        vec![loc("SPA/NC")]
    );
    assert_eq!(
        m.fleet_targets_in(loc("CON"), prov("BUL")),
        vec![loc("BUL/EC"), loc("BUL/SC")]
    );
    assert_eq!(
        m.fleet_targets_in(loc("NWY"), prov("STP")),
        vec![loc("STP/NC")]
    );
    assert_eq!(
        m.fleet_targets_in(loc("NTH"), prov("LON")),
        vec![loc("LON")]
    );
    assert!(m.fleet_targets_in(loc("ROM"), prov("VEN")).is_empty());
}

#[test]
fn every_alias_resolves_to_its_province() {
    let m = board();
    for p in m.provinces() {
        for &alias in m.aliases(p) {
            assert_eq!(alias, alias.to_ascii_lowercase(), "{alias}");
            assert_ne!(alias, m.abbr(p).to_ascii_lowercase(), "{alias}");
            assert_ne!(alias, m.name(p).to_ascii_lowercase(), "{alias}");
            assert_eq!(m.province_by_name(alias), Some(p), "{alias}");
            assert_eq!(
                m.province_by_name(&alias.to_ascii_uppercase()),
                Some(p),
                "{alias}"
            );
        }
        assert_eq!(m.province_by_name(m.abbr(p)), Some(p));
        assert_eq!(m.province_by_name(&m.name(p).to_ascii_uppercase()), Some(p));
    }
    for (s, p) in m.spellings() {
        assert_eq!(s, s.to_ascii_lowercase());
        assert_eq!(m.province_by_name(s), Some(p));
    }
}

#[test]
fn well_known_spellings() {
    for (spelling, abbr) in [
        ("nat", "NAO"),
        ("north atlantic", "NAO"),
        ("nrg", "NWG"),
        ("norw. sea", "NWG"),
        ("norwegian", "NWG"),
        ("mid", "MAO"),
        ("mid-atlantic", "MAO"),
        ("mid atlantic", "MAO"),
        ("gol", "LYO"),
        ("gulf of lyon", "LYO"),
        ("gulf of lyons", "LYO"),
        ("lyons", "LYO"),
        ("ech", "ENG"),
        ("english channel", "ENG"),
        ("channel", "ENG"),
        ("the channel", "ENG"),
        ("north sea", "NTH"),
        ("st. p.", "STP"),
        ("st p", "STP"),
        ("st. petersburg", "STP"),
        ("saint petersburg", "STP"),
        ("petersburg", "STP"),
        ("St Petersburg", "STP"),
        ("heligoland", "HEL"),
        ("helgoland", "HEL"),
        ("skagerak", "SKA"),
        ("bothnia", "BOT"),
        ("tyrrhenian", "TYS"),
        ("tyrr", "TYS"),
        ("adriatic", "ADR"),
        ("aegean", "AEG"),
        ("ionian", "ION"),
        ("black", "BLA"),
        ("baltic", "BAL"),
        ("barents", "BAR"),
        ("irish", "IRI"),
        ("western med", "WES"),
        ("eastern med", "EAS"),
        ("constantinople", "CON"),
        ("Norway", "NWY"),
        ("nwy", "NWY"),
        ("north africa", "NAF"),
        ("switzerland", "SWI"),
        ("tyrol", "TYR"),
        ("yorkshire", "YOR"),
    ] {
        assert_eq!(
            board().province_by_name(spelling),
            Some(prov(abbr)),
            "{spelling:?}"
        );
    }
}

#[test]
fn ambiguous_spellings_are_not_names() {
    // "nor" could be Norway, North Sea, Norwegian Sea or North Africa: the
    // order parser handles prefixes; the table must not pick one.
    for s in [
        "nor", "north", "east", "west", "english", "gulf", "sea", "st", "",
    ] {
        assert_eq!(board().province_by_name(s), None, "{s:?}");
    }
}

#[test]
fn power_parse() {
    for (word, power) in [
        ("Austria", Power::Austria),
        ("austrian", Power::Austria),
        ("A", Power::Austria),
        ("ENGLAND", Power::England),
        ("English", Power::England),
        ("e", Power::England),
        ("france", Power::France),
        ("French", Power::France),
        ("F", Power::France),
        ("Germany", Power::Germany),
        ("german", Power::Germany),
        ("g", Power::Germany),
        ("Italy", Power::Italy),
        ("ITALIAN", Power::Italy),
        ("I", Power::Italy),
        ("russia", Power::Russia),
        ("Russian", Power::Russia),
        ("r", Power::Russia),
        ("Turkey", Power::Turkey),
        ("turkish", Power::Turkey),
        ("T", Power::Turkey),
        ("  Germany ", Power::Germany),
    ] {
        assert_eq!(Power::parse(word), Some(power), "{word:?}");
    }
    for word in ["", "X", "Prussia", "austri", "Englan", "turk"] {
        assert_eq!(Power::parse(word), None, "{word:?}");
    }
    for p in Power::ALL {
        assert_eq!(Power::from_initial(p.initial()), Some(p));
        assert_eq!(Power::parse(p.name()), Some(p));
        assert_eq!(Power::parse(p.adjective()), Some(p));
        assert_eq!(Power::parse(p.upper()), Some(p));
    }
    let initials: String = Power::ALL.iter().map(|p| p.initial()).collect();
    assert_eq!(initials, "AEFGIRT");
}
