//! The rulebook's games for fewer players, at the engine level: countries
//! out of the game, Italy's closed land in the two-player game, the coin
//! toss, the 24-unit victory, and per-country counting when one player
//! holds several countries.

use judge::engine::adjudicate::adjudicate_with;
use judge::engine::map::{Map, Power};
use judge::engine::outcome::Outcome;
use judge::engine::parse::parse_order;
use judge::engine::phase::Phase;
use judge::engine::position::{Position, Unit};
use judge::game::variant::Variant;

fn map() -> &'static Map {
    Map::standard()
}

fn position(phase: &str, units: &[(Power, &str)]) -> Position {
    let map = map();
    let mut pos = Position::empty(map, phase.parse::<Phase>().unwrap());
    for &(power, text) in units {
        let kind = if text.starts_with('A') {
            judge::engine::map::UnitType::Army
        } else {
            judge::engine::map::UnitType::Fleet
        };
        pos.units.push(Unit {
            power,
            kind,
            location: map.location_by_abbr(&text[2..]).unwrap(),
        });
    }
    for power in Power::ALL {
        for &p in &pos.homes[power.index()] {
            pos.owners[p.index()] = Some(power);
        }
    }
    pos
}

fn orders(pos: &Position, list: &[(Power, &str)]) -> Vec<judge::engine::order::Order> {
    list.iter()
        .map(|&(p, t)| parse_order(map(), pos, p, t).unwrap_or_else(|e| panic!("{t}: {e}")))
        .collect()
}

fn has_unit(pos: &Position, power: Power, text: &str) -> bool {
    let loc = map().location_by_abbr(&text[2..]).unwrap();
    pos.units
        .iter()
        .any(|u| u.power == power && u.location == loc)
}

fn six() -> Variant {
    Variant::by_name("six").unwrap()
}

fn two() -> Variant {
    Variant::by_name("two").unwrap()
}

#[test]
fn six_players_italian_units_ignore_orders_and_hold() {
    let pos = position("S1901M", &[(Power::Italy, "A VEN")]);
    let rules = six().rules_at(map(), pos.phase, &[]);
    let given = orders(&pos, &[(Power::Italy, "A Ven - Pie")]);
    let result = adjudicate_with(map(), &pos, &given, &rules);
    assert!(
        has_unit(&result.next, Power::Italy, "A VEN"),
        "the Italian army stays put"
    );
}

#[test]
fn six_players_italian_units_do_not_support_each_other_and_are_disbanded_when_dislodged() {
    let pos = position(
        "S1901M",
        &[
            (Power::Italy, "A VEN"),
            (Power::Italy, "A ROM"),
            (Power::Austria, "A TRI"),
            (Power::Austria, "A TYR"),
        ],
    );
    let rules = six().rules_at(map(), pos.phase, &[]);
    let given = orders(
        &pos,
        &[
            (Power::Italy, "A Rom S A Ven"),
            (Power::Austria, "A Tri - Ven"),
            (Power::Austria, "A Tyr S A Tri - Ven"),
        ],
    );
    let result = adjudicate_with(map(), &pos, &given, &rules);
    assert!(
        has_unit(&result.next, Power::Austria, "A VEN"),
        "two beat one: no Italian support"
    );
    assert!(
        result.next.dislodged.is_empty(),
        "no retreat for an Italian unit"
    );
    assert_eq!(result.destroyed.len(), 1);
    assert_eq!(result.destroyed[0].power, Power::Italy);
    // The same attack in the standard game meets the Rome support.
    let standard = adjudicate_with(
        map(),
        &pos,
        &given,
        &Variant::by_name("standard")
            .unwrap()
            .rules_at(map(), pos.phase, &[]),
    );
    assert!(has_unit(&standard.next, Power::Italy, "A VEN"));
}

#[test]
fn six_players_anyone_may_support_an_italian_unit_to_hold() {
    let pos = position(
        "S1901M",
        &[
            (Power::Italy, "A VEN"),
            (Power::France, "A PIE"),
            (Power::Austria, "A TRI"),
            (Power::Austria, "A TYR"),
        ],
    );
    let rules = six().rules_at(map(), pos.phase, &[]);
    let given = orders(
        &pos,
        &[
            (Power::France, "A Pie S A Ven"),
            (Power::Austria, "A Tri - Ven"),
        ],
    );
    let result = adjudicate_with(map(), &pos, &given, &rules);
    assert!(has_unit(&result.next, Power::Italy, "A VEN"));
    assert!(
        has_unit(&result.next, Power::Austria, "A TRI"),
        "the attack bounced"
    );
}

#[test]
fn six_players_italy_never_builds() {
    let mut pos = position("W1901A", &[(Power::Italy, "A VEN")]);
    let tun = map().province_by_abbr("TUN").unwrap();
    pos.owners[tun.index()] = Some(Power::Italy);
    let rules = six().rules_at(map(), pos.phase, &[]);
    let given = orders(&pos, &[(Power::Italy, "Build A Rom")]);
    let result = adjudicate_with(map(), &pos, &given, &rules);
    assert!(!has_unit(&result.next, Power::Italy, "A ROM"));
    assert!(result.orders.iter().any(|(_, o)| o.contains(Outcome::VOID)));
}

#[test]
fn two_players_italian_territory_may_not_be_entered_in_1914() {
    let v = two();
    let start = v.start(map());
    assert_eq!(start.phase.to_string(), "S1914M");
    assert!(
        start.units.iter().all(|u| u.power != Power::Italy),
        "neutral Italy has no units"
    );
    let pos = position(
        "S1914M",
        &[
            (Power::Austria, "A TYR"),
            (Power::Austria, "A TRI"),
            (Power::Turkey, "F ION"),
        ],
    );
    let rules = v.rules_at(map(), pos.phase, &[]);
    let given = orders(
        &pos,
        &[
            (Power::Austria, "A Tyr - Ven"),
            (Power::Austria, "A Tri S A Tyr - Ven"),
            (Power::Turkey, "F Ion - Nap"),
        ],
    );
    let result = adjudicate_with(map(), &pos, &given, &rules);
    assert!(has_unit(&result.next, Power::Austria, "A TYR"));
    assert!(has_unit(&result.next, Power::Turkey, "F ION"));
    for (order, outcome) in &result.orders {
        if order.power != Power::Austria || order.short(map()) != "A TRI S A TYR - VEN" {
            continue;
        }
        assert!(
            outcome.contains(Outcome::VOID),
            "support into Italy is void"
        );
    }
    // From the winter of 1914 on, Italy is open.
    let winter = v.rules_at(map(), "W1914A".parse().unwrap(), &[]);
    assert!(!winter.is_closed(map().province_by_abbr("VEN").unwrap()));
    assert!(
        !winter.is_inert(Power::Italy),
        "Italy builds for its new side"
    );
}

#[test]
fn two_players_no_retreat_into_italy() {
    let pos = position(
        "F1914M",
        &[
            (Power::France, "A TYR"),
            (Power::Austria, "A MUN"),
            (Power::Austria, "A BOH"),
            (Power::Austria, "A TRI"),
        ],
    );
    let rules = two().rules_at(map(), pos.phase, &[]);
    let given = orders(
        &pos,
        &[
            (Power::Austria, "A Mun - Tyr"),
            (Power::Austria, "A Boh S A Mun - Tyr"),
        ],
    );
    let result = adjudicate_with(map(), &pos, &given, &rules);
    let d = &result.next.dislodged;
    assert_eq!(d.len(), 1);
    let options: Vec<String> = d[0].retreats.iter().map(|&l| map().loc_abbr(l)).collect();
    // Tyrolia borders Venice and Piedmont too, but Italy is closed.
    assert_eq!(options, ["VIE"]);
}

#[test]
fn two_players_coin_toss_is_reproducible_from_the_seed() {
    let v = two();
    for seed in [1_i64, 42, 1914, 123_456_789] {
        assert_eq!(v.coin_toss(seed), v.coin_toss(seed));
        assert!(v.coin_toss(seed) < 2);
    }
    let sides: std::collections::BTreeSet<usize> = (0..64).map(|s| v.coin_toss(s)).collect();
    assert_eq!(sides.len(), 2, "both sides can win the toss");
}

#[test]
fn two_players_victory_is_24_units_on_the_board() {
    let v = two();
    let blocs: Vec<Vec<Power>> = v.blocs.iter().map(|b| b.to_vec()).collect();
    let mut pos = position("W1916A", &[]);
    let map = map();
    let free: Vec<_> = map
        .provinces()
        .filter(|&p| {
            map.terrain(p) == judge::engine::map::Terrain::Land
                || map.terrain(p) == judge::engine::map::Terrain::Coast
        })
        .collect();
    for (k, p) in free.iter().take(23).enumerate() {
        let power = [Power::England, Power::France, Power::Russia][k % 3];
        pos.units.push(Unit {
            power,
            kind: judge::engine::map::UnitType::Army,
            location: p.location(),
        });
    }
    assert_eq!(v.winner(&pos, &blocs), None, "23 units are not enough");
    pos.units.push(Unit {
        power: Power::Russia,
        kind: judge::engine::map::UnitType::Army,
        location: free[23].location(),
    });
    assert_eq!(v.winner(&pos, &blocs), Some(0));
}

#[test]
fn combined_seats_count_centres_builds_and_removals_per_country() {
    // Austria/France are one player in the four-player game: Austria is
    // owed a build while France must remove; neither cancels the other.
    let mut pos = position(
        "W1901A",
        &[
            (Power::Austria, "A BUD"),
            (Power::Austria, "A SER"),
            (Power::France, "A PAR"),
            (Power::France, "A BUR"),
            (Power::France, "A PIC"),
            (Power::France, "A GAS"),
        ],
    );
    let ser = map().province_by_abbr("SER").unwrap();
    pos.owners[ser.index()] = Some(Power::Austria);
    let four = Variant::by_name("four").unwrap();
    assert!(four
        .blocs
        .iter()
        .any(|b| *b == [Power::Austria, Power::France]));
    let rules = four.rules_at(map(), pos.phase, &[]);
    assert_eq!(pos.adjustment_due(Power::Austria), 2);
    assert_eq!(pos.adjustment_due(Power::France), -1);
    let given = orders(
        &pos,
        &[
            (Power::Austria, "Build A Vie"),
            (Power::France, "Remove A Gas"),
        ],
    );
    let result = adjudicate_with(map(), &pos, &given, &rules);
    assert!(has_unit(&result.next, Power::Austria, "A VIE"));
    assert!(!has_unit(&result.next, Power::France, "A GAS"));
    assert_eq!(result.next.unit_count(Power::France), 3);
}

#[test]
fn five_players_italy_and_germany_are_out() {
    let five = Variant::by_name("five").unwrap();
    assert_eq!(five.players(), 5);
    let pos = position(
        "S1901M",
        &[
            (Power::Germany, "A MUN"),
            (Power::Italy, "A VEN"),
            (Power::France, "A BUR"),
        ],
    );
    let rules = five.rules_at(map(), pos.phase, &[]);
    assert!(rules.is_inert(Power::Germany) && rules.is_inert(Power::Italy));
    assert!(!rules.is_inert(Power::France));
    let given = orders(
        &pos,
        &[
            (Power::Germany, "A Mun - Ruh"),
            (Power::Italy, "A Ven - Pie"),
            (Power::France, "A Bur - Bel"),
        ],
    );
    let result = adjudicate_with(map(), &pos, &given, &rules);
    assert!(has_unit(&result.next, Power::Germany, "A MUN"));
    assert!(has_unit(&result.next, Power::Italy, "A VEN"));
    assert!(has_unit(&result.next, Power::France, "A BEL"));
}

#[test]
fn the_players_and_their_countries_in_each_game() {
    let blocs = |name: &str| -> Vec<Vec<Power>> {
        Variant::by_name(name)
            .unwrap()
            .blocs
            .iter()
            .map(|b| b.to_vec())
            .collect()
    };
    use Power::*;
    assert_eq!(
        blocs("four"),
        vec![
            vec![England],
            vec![Austria, France],
            vec![Germany, Turkey],
            vec![Italy, Russia]
        ]
    );
    assert_eq!(
        blocs("three-a"),
        vec![
            vec![Russia],
            vec![England, France, Germany],
            vec![Austria, Italy, Turkey]
        ]
    );
    assert_eq!(
        blocs("three-b"),
        vec![
            vec![England, Germany, Austria],
            vec![Russia, Italy],
            vec![France, Turkey]
        ]
    );
    assert_eq!(
        blocs("two"),
        vec![
            vec![England, France, Russia],
            vec![Austria, Germany, Turkey]
        ]
    );
    // Every country is played by one player, or out of the game.
    for v in judge::game::variant::VARIANTS {
        for p in Power::ALL {
            let held = v.blocs.iter().filter(|b| b.contains(&p)).count();
            let out = v.out.contains(&p) as usize;
            assert_eq!(held + out, 1, "{} in {}", p.name(), v.name);
        }
    }
    // A three-player game: 18 centres held together by one player's
    // countries win.
    let three = Variant::by_name("three-a").unwrap();
    let mut pos = position("W1905A", &[]);
    let centres: Vec<_> = map().supply_centres().collect();
    for (k, c) in centres.iter().take(18).enumerate() {
        pos.owners[c.index()] = Some([England, France, Germany][k % 3]);
    }
    for c in centres.iter().skip(18) {
        pos.owners[c.index()] = Some(Russia);
    }
    assert_eq!(three.winner(&pos, &blocs("three-a")), Some(1));
}

#[test]
fn civil_disorder_countries_hold_and_are_disbanded_when_dislodged() {
    // Rulebook XIV: a country in civil disorder holds, gives no support,
    // is disbanded when dislodged, and builds nothing.
    let standard = Variant::by_name("standard").unwrap();
    let pos = position(
        "F1901M",
        &[
            (Power::Germany, "A MUN"),
            (Power::Germany, "A BER"),
            (Power::France, "A BUR"),
            (Power::France, "A RUH"),
        ],
    );
    let rules = standard.rules_at(map(), pos.phase, &[Power::Germany]);
    let given = orders(
        &pos,
        &[
            (Power::Germany, "A Ber S A Mun"),
            (Power::France, "A Bur - Mun"),
            (Power::France, "A Ruh S A Bur - Mun"),
        ],
    );
    let result = adjudicate_with(map(), &pos, &given, &rules);
    assert!(
        has_unit(&result.next, Power::France, "A MUN"),
        "no German support"
    );
    assert!(
        result.next.dislodged.is_empty(),
        "no retreat in civil disorder"
    );
    assert_eq!(result.destroyed.len(), 1);
}
