//! The order parser (`judge::engine::parse`): every accepted spelling of
//! every kind of order, the rulebook's rule on unclear orders (followed
//! when only one meaning fits, refused otherwise), coasts, and the exact
//! message of each refusal.

use judge::engine::map::{Map, Power, UnitType};
use judge::engine::order::{Order, OrderKind};
use judge::engine::parse::{parse_order, parse_orders, OrderError};
use judge::engine::phase::Phase;
use judge::engine::position::{Dislodged, Position, Unit};

use Power::*;

fn map() -> &'static Map {
    Map::standard()
}

fn start() -> Position {
    Position::standard_start(map())
}

fn unit(power: Power, text: &str) -> Unit {
    let kind = match &text[..1] {
        "A" => UnitType::Army,
        "F" => UnitType::Fleet,
        _ => panic!("bad unit {text}"),
    };
    Unit {
        power,
        kind,
        location: map()
            .location_by_abbr(&text[2..])
            .unwrap_or_else(|| panic!("bad location {text}")),
    }
}

/// A board at `phase` with these units, no centres owned.
fn board(phase: &str, units: &[(Power, &str)]) -> Position {
    let phase: Phase = phase.parse().unwrap();
    let mut pos = Position::empty(map(), phase);
    pos.units = units.iter().map(|&(p, t)| unit(p, t)).collect();
    pos
}

fn own(pos: &mut Position, power: Power, provinces: &[&str]) {
    for a in provinces {
        let p = map().province_by_abbr(a).unwrap();
        pos.owners[p.index()] = Some(power);
    }
}

fn dislodge(pos: &mut Position, power: Power, text: &str, retreats: &[&str]) {
    pos.dislodged.push(Dislodged {
        unit: unit(power, text),
        retreats: retreats
            .iter()
            .map(|l| map().location_by_abbr(l).unwrap())
            .collect(),
    });
}

fn read(pos: &Position, power: Power, text: &str) -> Result<Order, OrderError> {
    parse_order(map(), pos, power, text)
}

/// The order's short form, or a panic with the refusal.
fn ok(pos: &Position, power: Power, text: &str) -> String {
    match read(pos, power, text) {
        Ok(o) => o.short(map()),
        Err(e) => panic!("{text:?} refused: {e}"),
    }
}

/// The refusal's whole message, or a panic with the order read.
fn err(pos: &Position, power: Power, text: &str) -> String {
    match read(pos, power, text) {
        Ok(o) => panic!("{text:?} read as {}", o.short(map())),
        Err(e) => e.to_string(),
    }
}

fn check_all(pos: &Position, power: Power, cases: &[(&str, &str)]) {
    let mut failures = Vec::new();
    for &(text, want) in cases {
        match read(pos, power, text) {
            Ok(o) if o.short(map()) == want => {}
            Ok(o) => failures.push(format!("{text:?}: got {}, want {want}", o.short(map()))),
            Err(e) => failures.push(format!("{text:?}: refused ({e}), want {want}")),
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

fn check_errors(pos: &Position, power: Power, cases: &[(&str, &str)]) {
    let mut failures = Vec::new();
    for &(text, want) in cases {
        match read(pos, power, text) {
            Ok(o) => failures.push(format!("{text:?}: read as {}", o.short(map()))),
            Err(e) if e.to_string() == want => {}
            Err(e) => failures.push(format!("{text:?}:\n   got  {e}\n   want {want}")),
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------
// Accepted forms
// ---------------------------------------------------------------------------

#[test]
fn moves_and_holds() {
    check_all(
        &start(),
        France,
        &[
            ("A Par-Bur", "A PAR - BUR"),
            ("A Par - Bur.", "A PAR - BUR"),
            ("A PAR - BUR", "A PAR - BUR"),
            ("a par -> bur", "A PAR - BUR"),
            ("A Par => Bur", "A PAR - BUR"),
            ("A Par m Bur", "A PAR - BUR"),
            ("A Par move Bur", "A PAR - BUR"),
            ("A Par moves Bur", "A PAR - BUR"),
            ("A Par moves to Bur", "A PAR - BUR"),
            ("A Par to Bur", "A PAR - BUR"),
            ("A Par — Bur", "A PAR - BUR"),
            ("A Par → Bur", "A PAR - BUR"),
            ("Army Paris moves to Burgundy", "A PAR - BUR"),
            ("army paris -> burgundy.", "A PAR - BUR"),
            ("PARIS-BURGUNDY", "A PAR - BUR"),
            ("Par - Bur", "A PAR - BUR"),
            ("A Paris-Burgundy?", "A PAR - BUR"),
            ("  A   Par  -  Bur  ", "A PAR - BUR"),
            ("A Par H", "A PAR H"),
            ("A Par hold", "A PAR H"),
            ("A Par holds", "A PAR H"),
            ("A Par stand", "A PAR H"),
            ("A Par stands", "A PAR H"),
            ("Par H", "A PAR H"),
            ("F Bre H.", "F BRE H"),
            ("F Bre - Eng", "F BRE - ENG"),
            ("F Bre - ech", "F BRE - ENG"),
            ("F Bre - English Channel", "F BRE - ENG"),
            ("F Bre - the channel", "F BRE - ENG"),
            ("F Bre - English Ch", "F BRE - ENG"),
            ("F Bre - Mid-Atlantic", "F BRE - MAO"),
            ("F Bre - Mid Atlantic Ocean", "F BRE - MAO"),
            ("F Bre - Mid Atl", "F BRE - MAO"),
            ("F Bre - mao", "F BRE - MAO"),
            ("F Bre - mid", "F BRE - MAO"),
            ("Fleet Brest - Picardy", "F BRE - PIC"),
        ],
    );
}

#[test]
fn multi_word_names_inside_orders() {
    let pos = board(
        "S1901M",
        &[
            (Russia, "F STP/SC"),
            (Russia, "A MOS"),
            (France, "F LYO"),
            (England, "F NTH"),
            (England, "A LON"),
            (England, "F NAO"),
            (Turkey, "F EAS"),
        ],
    );
    check_all(
        &pos,
        Russia,
        &[
            (
                "F St Petersburg south coast - Gulf of Bothnia",
                "F STP/SC - BOT",
            ),
            ("F St. P. (sc) - Bot", "F STP/SC - BOT"),
            ("F st.p.-bot", "F STP/SC - BOT"),
            ("Army Moscow - St Petersburg", "A MOS - STP"),
            ("A Moscow - Saint Petersburg", "A MOS - STP"),
            ("A Mos - St. P.", "A MOS - STP"),
            ("A Mos - stp/nc", "A MOS - STP"),
        ],
    );
    check_all(
        &pos,
        France,
        &[
            ("F Gulf of Lyon - Tyrrhenian Sea", "F LYO - TYS"),
            ("F Gulf of Lyons - Tyrrhenian", "F LYO - TYS"),
            ("F gol - wes", "F LYO - WES"),
            ("F Lyo - Western Med", "F LYO - WES"),
        ],
    );
    check_all(
        &pos,
        England,
        &[
            (
                "Fleet North Sea convoys Army London to Belgium",
                "F NTH C A LON - BEL",
            ),
            ("F North Sea - Norw. Sea", "F NTH - NWG"),
            ("F Nth - Norwegian Sea", "F NTH - NWG"),
            ("F nts - nrg", "F NTH - NWG"),
            ("F Nth - Helgoland", "F NTH - HEL"),
            ("F North Atlantic - Norwegian Sea", "F NAO - NWG"),
            ("F nat - nwg", "F NAO - NWG"),
            ("F N. Atlantic - Mid Atlantic", "F NAO - MAO"),
            ("F North Atl - Irish", "F NAO - IRI"),
        ],
    );
    check_all(
        &pos,
        Turkey,
        &[
            ("F Eastern Mediterranean - Ionian Sea", "F EAS - ION"),
            ("F East Med - Aegean", "F EAS - AEG"),
            ("F eme - smy", "F EAS - SMY"),
        ],
    );
}

#[test]
fn supports() {
    let pos = board(
        "S1901M",
        &[
            (Russia, "F STP/SC"),
            (Russia, "A MOS"),
            (Russia, "A WAR"),
            (Russia, "A LVN"),
            (Germany, "A PRU"),
            (England, "F NTH"),
            (England, "A YOR"),
            (England, "F LON"),
            (France, "F MAO"),
            (France, "F WES"),
        ],
    );
    check_all(
        &pos,
        Russia,
        &[
            ("F StP/SC S A Mos - Lvn", "F STP/SC S A MOS - LVN"),
            ("F Stp S A Mos - Lvn", "F STP/SC S A MOS - LVN"),
            ("F Stp supports A Mos - Lvn", "F STP/SC S A MOS - LVN"),
            ("F Stp support Mos - Lvn", "F STP/SC S A MOS - LVN"),
            ("A Lvn S A War - Pru", "A LVN S A WAR - PRU"),
            ("A Lvn S RUSSIAN A War - Pru", "A LVN S A WAR - PRU"),
            ("A Lvn S Russia A War - Pru", "A LVN S A WAR - PRU"),
            ("A Lvn S Russian War - Pru", "A LVN S A WAR - PRU"),
            ("A War S German A Pru", "A WAR S A PRU"),
            ("A War S A Pru H", "A WAR S A PRU"),
            ("A Mos S A War", "A MOS S A WAR"),
            ("A Mos S A War hold", "A MOS S A WAR"),
            ("A Mos S A War holds", "A MOS S A WAR"),
            ("A War S A Mos - Lvn", "A WAR S A MOS - LVN"),
        ],
    );
    check_all(
        &pos,
        England,
        &[
            ("F Nth S A Yor", "F NTH S A YOR"),
            ("F Nth S A Yor H", "F NTH S A YOR"),
            ("F Nth S A Yor hold", "F NTH S A YOR"),
            ("F Nth S F Lon", "F NTH S F LON"),
            ("F Lon S A Yor - Wal", "F LON S A YOR - WAL"),
            ("F Nth S A Yor - Nwy", "F NTH S A YOR - NWY"),
            ("F Nth S A Yor - Nth - Nwy", "F NTH S A YOR - NWY"),
        ],
    );
    // A coast named in a support of a fleet's move is kept; none is added.
    check_all(
        &pos,
        France,
        &[
            ("F Wes S F Mao - Spa/sc", "F WES S F MAO - SPA/SC"),
            ("F Wes S F Mao - Spa", "F WES S F MAO - SPA"),
        ],
    );
}

#[test]
fn convoys() {
    let pos = board(
        "F1901M",
        &[
            (England, "F NTH"),
            (England, "F ENG"),
            (England, "F MAO"),
            (England, "A LON"),
            (France, "A BRE"),
            (England, "F LVP"),
        ],
    );
    check_all(
        &pos,
        England,
        &[
            ("F Nth C A Lon - Bel", "F NTH C A LON - BEL"),
            ("F Nth C ENGLISH A Lon-Bel", "F NTH C A LON - BEL"),
            ("F Nth C English A Lon - Bel", "F NTH C A LON - BEL"),
            ("F Nth convoy A Lon - Bel", "F NTH C A LON - BEL"),
            ("F Nth convoys A Lon to Bel", "F NTH C A LON - BEL"),
            ("F Nth T A Lon - Bel", "F NTH C A LON - BEL"),
            ("F Nth transports A Lon - Bel", "F NTH C A LON - BEL"),
            ("F Nth C T A Lon - Bel", "F NTH C A LON - BEL"),
            ("F Nth C Lon - Bel", "F NTH C A LON - BEL"),
            ("F Nth C A Lon - Nth - Bel", "F NTH C A LON - BEL"),
            ("F Eng C French A Bre - Lon", "F ENG C A BRE - LON"),
            ("F Mao C A Bre - Lon", "F MAO C A BRE - LON"),
            // The army's move, with and without the route.
            ("A Lon - Bel", "A LON - BEL"),
            ("A Lon-Nth-Bel", "A LON - BEL VIA CONVOY"),
            ("A Lon - Nth - Bel", "A LON - BEL VIA CONVOY"),
            ("A Lon-Eng-Mao-Spa", "A LON - SPA VIA CONVOY"),
            (
                "A Lon - Eng - Mid-Atlantic - Spain",
                "A LON - SPA VIA CONVOY",
            ),
            ("A Lon - Bel via convoy", "A LON - BEL VIA CONVOY"),
            ("A Lon - Bel by convoy", "A LON - BEL VIA CONVOY"),
            ("A Lon - Bel via c", "A LON - BEL VIA CONVOY"),
            ("A Lon - Bel (via convoy)", "A LON - BEL VIA CONVOY"),
            ("A Lon - Bel VIA CONVOY", "A LON - BEL VIA CONVOY"),
            ("A Lon - Yor via convoy", "A LON - YOR VIA CONVOY"),
            // Not adjacent, but a convoy is conceivable: the adjudicator decides.
            ("A Lon - Nwy", "A LON - NWY"),
            ("A Lon - Tun", "A LON - TUN"),
        ],
    );
}

#[test]
fn coasts_filled_in_only_when_unique() {
    let pos = board(
        "S1901M",
        &[
            (France, "F GAS"),
            (France, "F MAO"),
            (France, "F MAR"),
            (France, "A POR"),
            (Russia, "F NWY"),
            (Russia, "F BOT"),
            (Russia, "F BLA"),
            (Russia, "F STP/NC"),
        ],
    );
    check_all(
        &pos,
        France,
        &[
            ("F Gas - Spa", "F GAS - SPA/NC"),
            ("F Mar - Spa", "F MAR - SPA/SC"),
            ("F Mao - Spa/nc", "F MAO - SPA/NC"),
            ("F Mao - Spa(nc)", "F MAO - SPA/NC"),
            ("F Mao - Spa (nc)", "F MAO - SPA/NC"),
            ("F Mao - Spa nc", "F MAO - SPA/NC"),
            ("F Mao - Spa/north coast", "F MAO - SPA/NC"),
            ("F Mao - Spa north coast", "F MAO - SPA/NC"),
            ("F Mao - Spa (north)", "F MAO - SPA/NC"),
            ("F Mao - Spa north", "F MAO - SPA/NC"),
            ("F Mao - Spa.nc", "F MAO - SPA/NC"),
            ("F Mao - Spa/n", "F MAO - SPA/NC"),
            ("F Mao - Spa-nc", "F MAO - SPA/NC"),
            ("F Mao - Spa n.c.", "F MAO - SPA/NC"),
            ("F Mao - Spa/NC", "F MAO - SPA/NC"),
            ("F Mao - Spain (South Coast)", "F MAO - SPA/SC"),
            ("F Mao - Spa/s", "F MAO - SPA/SC"),
            ("F Mao - Spa sc", "F MAO - SPA/SC"),
            // A coast for a one-coast province means nothing; an army's is dropped.
            ("F Mao - Gas/nc", "F MAO - GAS"),
            ("A Por - Spa/nc", "A POR - SPA"),
            ("A Por - Spa/sc", "A POR - SPA"),
        ],
    );
    check_all(
        &pos,
        Russia,
        &[
            ("F Nwy - Stp", "F NWY - STP/NC"),
            ("F Bot - Stp", "F BOT - STP/SC"),
            ("F Bla - Bul", "F BLA - BUL/EC"),
            ("F Bla - Bul/ec", "F BLA - BUL/EC"),
            ("F Bla - Bulgaria east coast", "F BLA - BUL/EC"),
            ("F Stp - Bar", "F STP/NC - BAR"),
            ("F Stp/nc - Bar", "F STP/NC - BAR"),
            // The coast written for the unit's own place is not needed (DATC 6.B.10).
            ("F Stp/sc - Bar", "F STP/NC - BAR"),
        ],
    );
    let e = err(&pos, France, "F Mao - Spa");
    assert_eq!(
        e,
        "F Mao - Spa: Spain has two coasts that fleet can reach (north coast, south coast): say which."
    );
}

#[test]
fn the_rulebook_rule_on_unclear_names() {
    // 'Nor' names five provinces: each order takes the one that fits.
    let pos = board(
        "S1901M",
        &[
            (England, "F NTH"),
            (England, "F EDI"),
            (England, "A LVP"),
            (England, "F LON"),
            (Russia, "F NWY"),
            (Russia, "A SWE"),
            (Russia, "F FIN"),
        ],
    );
    // As the unit: the one holding a unit of the power.
    assert_eq!(ok(&pos, England, "F Nor - Ska"), "F NTH - SKA");
    assert_eq!(ok(&pos, England, "Nor H"), "F NTH H");
    assert_eq!(ok(&pos, Russia, "F Nor - Ska"), "F NWY - SKA");
    // As a destination: the one the unit can reach.
    assert_eq!(ok(&pos, England, "F Lon - Nor"), "F LON - NTH");
    assert_eq!(ok(&pos, Russia, "A Swe - Nor"), "A SWE - NWY");
    // In a support: the unit there, and the move it can make.
    assert_eq!(
        ok(&pos, Russia, "F Fin S F Nor - Swe"),
        "F FIN S F NWY - SWE"
    );
    assert_eq!(ok(&pos, Russia, "F Nor S A Swe"), "F NWY S A SWE");
    assert_eq!(
        ok(&pos, England, "F Edi S F Nor - Yor"),
        "F EDI S F NTH - YOR"
    );
    // Two fit: refused, naming the ones that fit.
    check_errors(
        &pos,
        England,
        &[
            (
                "F Edi - Nor",
                "F Edi - Nor: 'Nor' could be North Sea or Norwegian Sea.",
            ),
            (
                "A Lvp - Nor",
                "A Lvp - Nor: 'Nor' could be North Africa or Norway.",
            ),
            // The English fleet's move, or the Russian one's.
            (
                "F Edi S F Nor - Nwg",
                "F Edi S F Nor - Nwg: 'Nor' could be North Sea or Norway.",
            ),
            // The reading that got farthest speaks.
            (
                "A Nor H",
                "A Nor H: There is a fleet in North Sea, not an army. Did you mean F Nth H?",
            ),
        ],
    );
    assert_eq!(
        err(&pos, France, "A Nor - Bur"),
        "A Nor - Bur: 'Nor' could be North Africa, North Atlantic Ocean, North Sea, Norway or Norwegian Sea."
    );
    let two = board("S1901M", &[(England, "F NTH"), (England, "F NWY")]);
    assert_eq!(
        err(&two, England, "F Nor - Ska"),
        "F Nor - Ska: 'Nor' could be North Sea or Norway."
    );
    assert_eq!(ok(&two, England, "F Nor - Stp"), "F NWY - STP/NC");
    assert_eq!(ok(&two, England, "F Nor - Hel"), "F NTH - HEL");
    // Other prefixes.
    let pos = board("S1901M", &[(England, "A LVP"), (Russia, "A WAR")]);
    assert_eq!(ok(&pos, England, "A Liv - Edi"), "A LVP - EDI");
    assert_eq!(ok(&pos, Russia, "A War - Liv"), "A WAR - LVN");
    assert_eq!(ok(&pos, Russia, "A Warsa - Ukra"), "A WAR - UKR");
    assert_eq!(
        err(&start(), France, "F Bre - Gulf"),
        "F Bre - Gulf: 'Gulf' could be Gulf of Bothnia or Gulf of Lyon."
    );
}

/// A hyphen inside a name is part of the name (`Mid-Atl.`); between
/// words that make no name together it is an arrow (`Lon-Wal`), and a
/// spaced one always is.
#[test]
fn a_hyphen_inside_a_name_is_part_of_the_name() {
    let pos = board(
        "S1901M",
        &[(England, "F IRI"), (England, "A LON"), (France, "F MAO")],
    );
    check_all(
        &pos,
        England,
        &[
            // Not a support of the move Mid-Atlantic - North Atlantic.
            ("F Iri S F Mid-Atl.", "F IRI S F MAO"),
            ("F Iri S F Mid-Atl", "F IRI S F MAO"),
            ("F Iri S F mid-atlantic-oc.", "F IRI S F MAO"),
            ("F Iri S F Mid - Atl", "F IRI S F MAO - NAO"),
            ("F Iri-Mid-Atl.", "F IRI - MAO"),
            ("A Lon-Wal", "A LON - WAL"),
        ],
    );
    // Still two meanings when the whole name has two.
    let seas = board(
        "S1901M",
        &[(Italy, "F ION"), (Austria, "F ADR"), (Turkey, "F AEG")],
    );
    assert_eq!(
        err(&seas, Italy, "F Ion S F A-Sea"),
        "F Ion S F A-Sea: 'A-Sea' could be Adriatic Sea or Aegean Sea."
    );
}

/// A reading that splits one name into two provinces is no second
/// meaning: `North Atl. Ocean` is the North Atlantic, not the North
/// Atlantic moving to the Atlantic Ocean (Mid-Atlantic).
#[test]
fn a_name_read_as_two_provinces_is_no_second_meaning() {
    let pos = board("S1901M", &[(England, "F IRI"), (France, "F NAO")]);
    check_all(
        &pos,
        England,
        &[
            ("F Iri S F North Atl. Ocean", "F IRI S F NAO"),
            ("F Iri S F North Atl", "F IRI S F NAO"),
            ("F Iri S F N. Atlantic Ocean", "F IRI S F NAO"),
            // With an arrow, or names that are no name together: a move.
            ("F Iri S F North - Atl. Ocean", "F IRI S F NAO - MAO"),
            (
                "F Iri S F North Atl. Ocean - Mid-Atl.",
                "F IRI S F NAO - MAO",
            ),
            ("F Iri S F Nao Mao", "F IRI S F NAO - MAO"),
        ],
    );
}

/// A convoy the fleets on the board cannot make is no second meaning
/// beside one they can: `Nor.` in `F Bar C A Stp - Nor.` is Norway, as
/// North Africa lies beyond seas with no fleet in them. Written alone it
/// is still a legal order, and with the fleets there both meanings stand.
#[test]
fn a_convoy_the_board_cannot_make_is_no_second_meaning() {
    let pos = board("S1901M", &[(Russia, "F BAR"), (Russia, "A STP")]);
    check_all(
        &pos,
        Russia,
        &[
            ("F Bar C A Stp - Nor.", "F BAR C A STP - NWY"),
            ("F Bar C A Stp - Naf", "F BAR C A STP - NAF"),
            ("A Stp - Nor", "A STP - NWY"),
        ],
    );
    let one_more = board(
        "S1901M",
        &[(Russia, "F BAR"), (Russia, "A STP"), (England, "F NWG")],
    );
    assert_eq!(
        ok(&one_more, Russia, "F Bar C A Stp - Nor."),
        "F BAR C A STP - NWY"
    );
    let chain = board(
        "S1901M",
        &[
            (Russia, "F BAR"),
            (Russia, "A STP"),
            (England, "F NWG"),
            (England, "F NAO"),
            (France, "F MAO"),
        ],
    );
    assert_eq!(
        err(&chain, Russia, "F Bar C A Stp - Nor."),
        "F Bar C A Stp - Nor: 'Nor' could be North Africa or Norway."
    );
}

#[test]
fn misspellings_taken_when_one_province_is_nearest_and_fits() {
    let pos = board(
        "S1901M",
        &[
            (France, "A PAR"),
            (France, "A MAR"),
            (France, "A PIC"),
            (Russia, "A MOS"),
            (Turkey, "F SMY"),
            (Turkey, "A BUL"),
        ],
    );
    check_all(
        &pos,
        France,
        &[
            ("A Par - Burgandy", "A PAR - BUR"),
            ("A Par - Burgundi", "A PAR - BUR"),
            ("A Marsailles - Pie", "A MAR - PIE"),
            ("A Marseille - Piedmnt", "A MAR - PIE"),
            ("A Mar - Spian", "A MAR - SPA"),
            ("A Piccardy - Bel", "A PIC - BEL"),
            ("A Picardie - Belguim", "A PIC - BEL"),
            ("A Pic - Holand", "A PIC - HOL"),
        ],
    );
    assert_eq!(ok(&pos, Russia, "A Mos - Sevastapol"), "A MOS - SEV");
    assert_eq!(ok(&pos, Russia, "A Moskow - Sevastopl"), "A MOS - SEV");
    assert_eq!(ok(&pos, Turkey, "A Bul - Constantinopel"), "A BUL - CON");
    assert_eq!(
        ok(&pos, Turkey, "F Smyrna - Eastern Mediteranean"),
        "F SMY - EAS"
    );
}

#[test]
fn retreats() {
    let mut pos = board(
        "F1901R",
        &[(Germany, "A BUR"), (France, "A PAR"), (England, "F ENG")],
    );
    dislodge(&mut pos, France, "A BUR", &["GAS", "MAR", "PIC"]);
    dislodge(&mut pos, France, "F MAO", &["SPA/NC", "SPA/SC", "POR"]);
    dislodge(&mut pos, Russia, "F BOT", &["STP/SC"]);
    check_all(
        &pos,
        France,
        &[
            ("A Bur-Gas", "A BUR R GAS"),
            ("A Bur - Gas", "A BUR R GAS"),
            ("A Bur R Gas", "A BUR R GAS"),
            ("A Bur retreat Gas", "A BUR R GAS"),
            ("A Bur retreats to Gascony", "A BUR R GAS"),
            ("Bur - Marseilles", "A BUR R MAR"),
            ("R A Bur - Gas", "A BUR R GAS"),
            ("R A Bur Gas", "A BUR R GAS"),
            ("Retreat A Bur to Pic", "A BUR R PIC"),
            ("A Bur disband", "A BUR DISBAND"),
            ("A Bur d", "A BUR DISBAND"),
            ("A Bur disbands", "A BUR DISBAND"),
            ("Disband A Bur", "A BUR DISBAND"),
            ("D A Bur", "A BUR DISBAND"),
            ("Remove A Bur", "A BUR DISBAND"),
            ("F Mao - Spa/nc", "F MAO R SPA/NC"),
            ("F Mao R Spa(sc)", "F MAO R SPA/SC"),
            ("F Mao - Por", "F MAO R POR"),
            ("F Mid-Atlantic retreats to Portugal", "F MAO R POR"),
        ],
    );
    // The only coast it may retreat to is filled in.
    assert_eq!(ok(&pos, Russia, "F Bot - Stp"), "F BOT R STP/SC");
    assert_eq!(ok(&pos, Russia, "F Bot R St Petersburg"), "F BOT R STP/SC");
}

#[test]
fn adjustments() {
    let mut pos = board("W1901A", &[(France, "A BEL"), (Germany, "A KIE")]);
    own(&mut pos, France, &["PAR", "BRE", "MAR", "BEL"]);
    own(&mut pos, Russia, &["STP", "MOS", "SEV"]);
    own(&mut pos, Germany, &[]);
    check_all(
        &pos,
        France,
        &[
            ("Build A Par", "BUILD A PAR"),
            ("build army paris", "BUILD A PAR"),
            ("B A Par", "BUILD A PAR"),
            ("Build Par", "BUILD A PAR"),
            ("Builds A Par.", "BUILD A PAR"),
            ("Build F Bre", "BUILD F BRE"),
            ("B F Brest", "BUILD F BRE"),
            ("Build fleet Marseilles", "BUILD F MAR"),
            ("Waive", "WAIVE"),
            ("W", "WAIVE"),
            ("waive build", "WAIVE"),
            ("build waived", "WAIVE"),
            ("France: Build A Par", "BUILD A PAR"),
            ("F: Build F Bre", "BUILD F BRE"),
        ],
    );
    check_all(
        &pos,
        Russia,
        &[
            ("B F StP/NC", "BUILD F STP/NC"),
            ("Build F Stp/sc", "BUILD F STP/SC"),
            ("build fleet st petersburg north coast", "BUILD F STP/NC"),
            ("Build Fleet St. Petersburg (south coast)", "BUILD F STP/SC"),
            ("Build F St. P. (nc)", "BUILD F STP/NC"),
            ("Build A Stp", "BUILD A STP"),
            ("Build A Stp/nc", "BUILD A STP"),
            ("Build Mos", "BUILD A MOS"),
            ("Build F Sev", "BUILD F SEV"),
        ],
    );
    let mut pos = board(
        "W1901A",
        &[
            (Germany, "A MUN"),
            (Germany, "F KIE"),
            (Germany, "A BER"),
            (Germany, "A HOL"),
        ],
    );
    own(&mut pos, Germany, &["MUN", "KIE"]);
    check_all(
        &pos,
        Germany,
        &[
            ("Remove A Mun", "REMOVE A MUN"),
            ("remove army munich", "REMOVE A MUN"),
            ("Disband A Mun", "REMOVE A MUN"),
            ("D A Mun", "REMOVE A MUN"),
            ("A Mun disband", "REMOVE A MUN"),
            ("A Mun d", "REMOVE A MUN"),
            ("A Mun remove", "REMOVE A MUN"),
            // In the adjustment phase a leading R is a removal.
            ("R A Mun", "REMOVE A MUN"),
            ("R F Kie", "REMOVE F KIE"),
            ("Remove Kie", "REMOVE F KIE"),
            ("Remove A Holland", "REMOVE A HOL"),
        ],
    );
}

/// njudge's habits: `ferry`/`ff` for convoy, and in the adjustment phase a
/// unit without Build or Remove (a build when builds are due, a removal
/// when removals are).
#[test]
fn njudge_convoy_words_and_bare_adjustments() {
    let mut pos = board("S1901M", &[(England, "F NTH"), (England, "A LON")]);
    own(&mut pos, England, &["LON"]);
    check_all(
        &pos,
        England,
        &[
            ("F Nth ferry A Lon - Bel", "F NTH C A LON - BEL"),
            ("F Nth ff A Lon - Bel", "F NTH C A LON - BEL"),
            ("F Nth ferries A Lon-Bel", "F NTH C A LON - BEL"),
        ],
    );
    let mut pos = board("W1901A", &[(France, "A BEL"), (Germany, "A KIE")]);
    own(&mut pos, France, &["PAR", "BRE", "MAR", "BEL"]);
    check_all(
        &pos,
        France,
        &[
            ("A Par", "BUILD A PAR"),
            ("F Bre", "BUILD F BRE"),
            ("Par", "BUILD A PAR"),
        ],
    );
    assert_eq!(
        err(&pos, France, "A Bel"),
        "A Bel: Belgium is not one of your home supply centres."
    );
    let mut pos = board(
        "W1901A",
        &[(Germany, "A MUN"), (Germany, "F KIE"), (Germany, "A BER")],
    );
    own(&mut pos, Germany, &["MUN", "KIE"]);
    check_all(
        &pos,
        Germany,
        &[("A Ber", "REMOVE A BER"), ("F Kie", "REMOVE F KIE")],
    );
    let mut pos = board("W1901A", &[(Germany, "A MUN")]);
    own(&mut pos, Germany, &["MUN"]);
    assert_eq!(
        err(&pos, Germany, "A Mun"),
        "A Mun: You have neither builds nor removals due (you own 1 supply centre and have \
         1 unit): there is nothing to order."
    );
}

#[test]
fn power_names_before_orders() {
    let pos = start();
    check_all(
        &pos,
        France,
        &[
            ("France: A Par - Bur", "A PAR - BUR"),
            ("FRANCE: A Par - Bur", "A PAR - BUR"),
            ("F: A par-bur", "A PAR - BUR"),
            ("f: F Bre - Mao", "F BRE - MAO"),
            ("French: A Par - Bur", "A PAR - BUR"),
            ("French A Par - Bur", "A PAR - BUR"),
            ("France A Par - Bur", "A PAR - BUR"),
        ],
    );
    assert_eq!(
        err(&pos, France, "Germany: A Mun - Bur"),
        "Germany: A Mun - Bur: That is an order for Germany, but you are signed on as France."
    );
    assert_eq!(
        err(&pos, France, "G: A Mun - Bur"),
        "G: A Mun - Bur: That is an order for Germany, but you are signed on as France."
    );
    assert_eq!(
        err(&pos, England, "F: A Par - Bur"),
        "F: A Par - Bur: That is an order for France, but you are signed on as England."
    );
}

#[test]
fn several_orders_on_a_line() {
    let pos = start();
    let got: Vec<String> =
        parse_orders(map(), &pos, France, "A Par-Bur, A Mar - Spa; F Bre - Mao.")
            .into_iter()
            .map(|r| r.unwrap().short(map()))
            .collect();
    assert_eq!(got, ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"]);

    let got: Vec<Result<String, String>> =
        parse_orders(map(), &pos, France, "A Par - Bur ; A Par - Xyz,, F Bre H;")
            .into_iter()
            .map(|r| r.map(|o| o.short(map())).map_err(|e| e.to_string()))
            .collect();
    assert_eq!(
        got,
        [
            Ok("A PAR - BUR".to_string()),
            Err("A Par - Xyz: 'Xyz' is not a province.".to_string()),
            Ok("F BRE H".to_string()),
        ]
    );
    // Orders on separate lines of one text, a power's name before each.
    let got = parse_orders(
        map(),
        &pos,
        France,
        "France: A Par - Bur\nFrance: F Bre - Pic\n",
    );
    assert_eq!(got.len(), 2);
    assert!(got.iter().all(Result::is_ok));
    // Nothing but separators: no orders, no errors.
    assert!(parse_orders(map(), &pos, France, "").is_empty());
    assert!(parse_orders(map(), &pos, France, " ,;, ; .. \n").is_empty());
}

#[test]
fn the_written_forms_of_the_engine_read_back() {
    // Every order's short form (the JSON interface) and long form (the
    // mails) reads back as the same order, in its phase.
    let mut movement = board(
        "S1901M",
        &[
            (England, "F NTH"),
            (England, "A LON"),
            (England, "F EDI"),
            (Russia, "F STP/SC"),
            (Russia, "A MOS"),
            (France, "F MAO"),
            (France, "F WES"),
        ],
    );
    own(&mut movement, England, &["LON"]);
    let orders = [
        (England, "F Nth - Nwg"),
        (England, "F Nth H"),
        (England, "F Nth C A Lon - Bel"),
        (England, "A Lon - Bel via convoy"),
        (England, "A Lon - Bel"),
        (England, "A Lon - Tun"),
        (England, "F Edi S F Nth"),
        (England, "F Edi S F Nth - Nwg"),
        (Russia, "F Stp/sc S A Mos - Lvn"),
        (Russia, "F Stp - Bot"),
        (France, "F Mao - Spa/nc"),
        (France, "F Wes S F Mao - Spa/sc"),
    ];
    let mut retreat = board("F1901R", &[(Germany, "A BUR")]);
    dislodge(&mut retreat, France, "A BUR", &["GAS"]);
    dislodge(&mut retreat, France, "F MAO", &["SPA/NC", "SPA/SC"]);
    let mut adjust = board("W1901A", &[(Germany, "A MUN"), (Germany, "A BER")]);
    own(&mut adjust, Germany, &["MUN"]);
    own(&mut adjust, Russia, &["STP", "MOS"]);
    let cases: Vec<(&Position, Power, &str)> = orders
        .iter()
        .map(|&(p, t)| (&movement, p, t))
        .chain([
            (&retreat, France, "A Bur - Gas"),
            (&retreat, France, "F Mao - Spa/sc"),
            (&retreat, France, "A Bur disband"),
            (&adjust, Germany, "Remove A Mun"),
            (&adjust, Russia, "Build F Stp/nc"),
            (&adjust, Russia, "Build A Mos"),
            (&adjust, Russia, "Waive"),
        ])
        .collect();
    for (pos, power, text) in cases {
        let order = read(pos, power, text).unwrap_or_else(|e| panic!("{e}"));
        for form in [order.short(map()), order.long(map())] {
            let again = read(pos, power, &form).unwrap_or_else(|e| panic!("{form:?}: {e}"));
            assert_eq!(again, order, "{form:?}");
        }
    }
}

#[test]
fn orders_carry_the_unit_and_the_kind() {
    let pos = start();
    let o = read(&pos, France, "Par - Bur").unwrap();
    assert_eq!(o.power, France);
    assert_eq!(o.unit, UnitType::Army);
    assert_eq!(map().loc_abbr(o.location), "PAR");
    assert_eq!(
        o.kind,
        OrderKind::Move {
            to: map().location_by_abbr("BUR").unwrap(),
            via_convoy: false
        }
    );
    let o = read(&pos, Russia, "Stp - Bot").unwrap();
    assert_eq!(o.unit, UnitType::Fleet);
    assert_eq!(map().loc_abbr(o.location), "STP/SC");
    let o = read(&pos, Russia, "Mos S War - Ukr").unwrap();
    assert_eq!(
        o.kind,
        OrderKind::Support {
            unit: UnitType::Army,
            from: map().province_by_abbr("WAR").unwrap(),
            to: Some(map().location_by_abbr("UKR").unwrap()),
        }
    );
}

// ---------------------------------------------------------------------------
// Refusals, with their exact messages
// ---------------------------------------------------------------------------

#[test]
fn refused_movement_orders() {
    check_errors(
        &start(),
        France,
        &[
            // No unit, somebody else's, the wrong type.
            ("A Bur - Par", "A Bur - Par: There is no unit in Burgundy. Did you mean A Par - Bur?"),
            ("A Pic - Bur", "A Pic - Bur: There is no unit in Picardy."),
            ("Burgandi - Par", "Burgandi - Par: There is no unit in Burgundy. Did you mean A Par - Bur?"),
            ("A Ber - Kie", "A Ber - Kie: The army in Berlin is German; you are France."),
            ("F Lon - Eng", "F Lon - Eng: The fleet in London is English; you are France."),
            ("F Par - Bur", "F Par - Bur: There is an army in Paris, not a fleet. Did you mean A Par - Bur?"),
            ("A Bre - Pic", "A Bre - Pic: There is a fleet in Brest, not an army. Did you mean F Bre - Pic?"),
            ("F Mar - Spa", "F Mar - Spa: There is an army in Marseilles, not a fleet. Did you mean A Mar - Spa?"),
            // Where it cannot go.
            ("A Par - Par", "A Par - Par: A unit cannot move to the province it is already in. Did you mean A Par H?"),
            ("A Par - Swi", "A Par - Swi: Switzerland is impassable."),
            ("A Par - Mar", "A Par - Mar: Paris is not adjacent to Marseilles."),
            ("A Par - Pie", "A Par - Pie: Paris is not adjacent to Piedmont. Did you mean A Par - Pic?"),
            ("F Bre - Bur", "F Bre - Bur: Burgundy is inland; a fleet cannot move there."),
            ("A Mar - Lyo", "A Mar - Lyo: Gulf of Lyon is a sea; an army cannot move there."),
            ("A Mar - Gulf of Lyon", "A Mar - Gulf of Lyon: Gulf of Lyon is a sea; an army cannot move there."),
            ("F Bre - Lon", "F Bre - Lon: Brest is not adjacent to London."),
            ("F Bre - Spa", "F Bre - Spa: Brest is not adjacent to Spain."),
            ("F Bre - Spa/ec", "F Bre - Spa/ec: Spain has no east coast."),
            ("F Bre - Irish Sea", "F Bre - Irish Sea: Brest is not adjacent to Irish Sea."),
            ("F Brest - North Atl", "F Brest - North Atl: Brest is not adjacent to North Atlantic Ocean. Did you mean F Bre - Mao?"),
            ("A Mar - Sev", "A Mar - Sev: Marseilles is not adjacent to Sevastopol, and no chain of seas links them."),
            ("A Mar - Nor", "A Mar - Nor: 'Nor' could be North Africa or Norway."),
            // Convoyed moves.
            ("A Par - Bur via convoy", "A Par - Bur via convoy: Paris is inland, so no fleet can convoy an army from there."),
            ("A Mar - Bur via convoy", "A Mar - Bur via convoy: Burgundy is inland, so no fleet can convoy an army there."),
            ("F Bre - Pic via convoy", "F Bre - Pic via convoy: Only armies are convoyed; a fleet moves one province at a time."),
            ("F Bre - Mao - Spa", "F Bre - Mao - Spa: Only armies are convoyed; a fleet moves one province at a time."),
            ("A Par - Bur - Mun", "A Par - Bur - Mun: Paris is inland, so no fleet can convoy an army from there."),
            ("A Mar - Wes - Spa", "A Mar - Wes - Spa: The convoy route breaks: Marseilles does not border Western Mediterranean."),
            ("A Mar - Lyo - Wes", "A Mar - Lyo - Wes: Western Mediterranean is a sea; an army cannot move there."),
            ("A Mar - Spa/nc - Por", "A Mar - Spa/nc - Por: Spain is not a sea, so a convoy route cannot pass through it."),
            // Supports.
            ("A Mar S A Par", "A Mar S A Par: The army in Marseilles cannot reach Paris, so it cannot support the unit there."),
            ("A Par S A Par", "A Par S A Par: A unit cannot support itself."),
            ("A Par S A Bur - Pic", "A Par S A Bur - Pic: There is no unit in Burgundy to support."),
            ("A Par S A Mar - Par", "A Par S A Mar - Par: A unit cannot support a move into its own province."),
            ("A Par S F Bre - Mao", "A Par S F Bre - Mao: The army in Paris cannot reach Mid-Atlantic Ocean, so it cannot support a move there."),
            ("F Bre S A Mar - Spa", "F Bre S A Mar - Spa: The fleet in Brest cannot reach Spain, so it cannot support a move there."),
            ("A Par S A Mar - Mun", "A Par S A Mar - Mun: The army in Marseilles cannot reach Munich."),
            ("A Par S A Mar - Bel", "A Par S A Mar - Bel: The army in Paris cannot reach Belgium, so it cannot support a move there."),
            ("A Par S German A Mar - Bur", "A Par S German A Mar - Bur: There is a French army in Marseilles, not a German one."),
            ("A Par S F Mar - Bur", "A Par S F Mar - Bur: There is an army in Marseilles, not a fleet. Did you mean A Par S A Mar - Bur?"),
            ("A Par S A Mar - Mar", "A Par S A Mar - Mar: A unit cannot move to the province it is already in."),
            // Convoys.
            ("A Par C A Mar - Bur", "A Par C A Mar - Bur: An army cannot convoy; only fleets at sea can."),
            ("F Bre C A Par - Pic", "F Bre C A Par - Pic: Brest is not a sea: a fleet on a coast cannot convoy."),
            // Other phases' orders.
            ("Build A Par", "Build A Par: Builds are only ordered in the adjustment phase (Winter)."),
            ("Remove A Par", "Remove A Par: Removals are only ordered in the adjustment phase (Winter)."),
            ("Waive", "Waive: Builds are only waived in the adjustment phase (Winter)."),
            ("A Par R Bur", "A Par R Bur: Retreats are only ordered in the retreat phase, after a unit is dislodged."),
            (
                "A Par d",
                "A Par d: A unit is disbanded only in the retreat phase, after it is dislodged, or in the adjustment phase (Winter).",
            ),
            // Words out of place.
            (
                "A Par",
                "A Par: It names a unit but gives no order: add H to hold, - and a province to move, S to support or C to convoy.",
            ),
            ("A Par xyz", "A Par xyz: 'xyz' is not an order: after 'A Par' write H, - and a province, S or C."),
            ("A Par -", "A Par -: A province should follow '-'."),
            ("A Par S", "A Par S: A province should follow 'S'."),
            ("A", "A: A province should follow 'A'."),
            ("A Par - Xyz", "A Par - Xyz: 'Xyz' is not a province."),
            ("A Par S A Xyz - Bur", "A Par S A Xyz - Bur: 'Xyz' is not a province."),
            ("hello world", "hello world: 'hello' is not a province."),
            ("- Bur", "- Bur: An order cannot start with '-'."),
            ("S A Mar", "S A Mar: An order cannot start with 'S': start with the unit, as in A Par - Bur."),
            ("A Par H H", "A Par H H: 'H' makes no sense after 'A Par H'."),
            ("A Par - Bur xyz", "A Par - Bur xyz: 'xyz' makes no sense after 'A Par - Bur'."),
            ("A Par - Burgandy S", "A Par - Burgandy S: 'S' makes no sense after 'A Par - Burgandy'."),
            ("A Par / Bur", "A Par / Bur: '/' is not an order: after 'A Par' write H, - and a province, S or C."),
            ("A Pa - Bu", "A Pa - Bu: 'Pa' is not a province."),
        ],
    );
}

#[test]
fn refused_orders_in_other_positions() {
    let pos = board(
        "S1901M",
        &[
            (England, "F NTH"),
            (England, "F EDI"),
            (England, "F LON"),
            (England, "A LVP"),
            (Germany, "F KIE"),
            (Russia, "F SEV"),
            (Russia, "A WAR"),
        ],
    );
    check_errors(
        &pos,
        England,
        &[
            ("F Nth C Lon - Bel", "F Nth C Lon - Bel: Only armies are convoyed, and there is a fleet in London."),
            ("F Nth C A Kie - Hol", "F Nth C A Kie - Hol: There is a fleet in Kiel, not an army."),
            ("F Nth C A Lvp", "F Nth C A Lvp: The convoy order does not say where the army in Liverpool goes."),
            ("F Nth C A Lvp - Nth", "F Nth C A Lvp - Nth: North Sea is a sea; an army cannot be convoyed there."),
            ("F Nth C A Yor - Bel", "F Nth C A Yor - Bel: There is no unit in Yorkshire to convoy."),
            ("F Edi C A Lvp - Nwy", "F Edi C A Lvp - Nwy: Edinburgh is not a sea: a fleet on a coast cannot convoy."),
            ("F Edi S F Lon - Eng", "F Edi S F Lon - Eng: The fleet in Edinburgh cannot reach English Channel, so it cannot support a move there."),
            ("F Nth S F Lon - Pic", "F Nth S F Lon - Pic: The fleet in London cannot reach Picardy."),
            ("A Lvp - Sev", "A Lvp - Sev: Liverpool is not adjacent to Sevastopol, and no chain of seas links them."),
            ("A Lvp - Iri - Nwg - Nwy", "A Lvp - Iri - Nwg - Nwy: The convoy route breaks: Irish Sea does not border Norwegian Sea."),
            ("A Lvp - Wal - Bre", "A Lvp - Wal - Bre: Wales is not a sea, so a convoy route cannot pass through it."),
            ("F Lon - Wal - Lvp", "F Lon - Wal - Lvp: Only armies are convoyed; a fleet moves one province at a time."),
            ("F Nth - North Sea", "F Nth - North Sea: A unit cannot move to the province it is already in. Did you mean F Nth H?"),
            ("F Yor - Lon", "F Yor - Lon: There is no unit in Yorkshire. Did you mean F Lon - Yor?"),
            ("F Eng - Lon", "F Eng - Lon: There is no unit in English Channel. Did you mean F Lon - Eng?"),
            ("F Nwy - Nth", "F Nwy - Nth: There is no unit in Norway. Did you mean F Nth - Nwy?"),
            // No swap, but the one step from London towards Picardy.
            ("Pic - Lon", "Pic - Lon: There is no unit in Picardy. Did you mean F Lon - Eng?"),
            ("F Bel - Lon", "F Bel - Lon: There is no unit in Belgium."),
        ],
    );
    check_errors(
        &pos,
        Russia,
        &[
            ("A War - Lvp", "A War - Lvp: Warsaw is not adjacent to Liverpool. Did you mean A War - Lvn?"),
            ("F Sev - Sevastapol", "F Sev - Sevastapol: A unit cannot move to the province it is already in. Did you mean F Sev H?"),
            ("A War S English A Lvp", "A War S English A Lvp: The army in Warsaw cannot reach Liverpool, so it cannot support the unit there."),
            ("A War S German A Sev", "A War S German A Sev: There is a Russian fleet in Sevastopol, not a German one."),
            ("F Sev C A War - Rum", "F Sev C A War - Rum: Sevastopol is not a sea: a fleet on a coast cannot convoy."),
        ],
    );
    let pos = board(
        "S1901M",
        &[(Russia, "F BLA"), (Russia, "A SEV"), (England, "A LON")],
    );
    check_errors(
        &pos,
        Russia,
        &[(
            "F Bla C A Lon - Bel",
            "F Bla C A Lon - Bel: The fleet in Black Sea cannot be part of a convoy from London to Belgium.",
        )],
    );
    assert_eq!(
        ok(&pos, Russia, "F Bla C A Sev - Ank"),
        "F BLA C A SEV - ANK"
    );
}

#[test]
fn refused_retreats() {
    let mut pos = board(
        "F1901R",
        &[
            (Germany, "A BUR"),
            (France, "A PAR"),
            (England, "F ENG"),
            (Germany, "F KIE"),
        ],
    );
    dislodge(&mut pos, France, "F BRE", &["GAS", "PIC"]);
    dislodge(&mut pos, France, "A BUR", &["GAS", "MAR", "PIC"]);
    dislodge(&mut pos, France, "F MAO", &["SPA/NC", "SPA/SC", "POR"]);
    dislodge(&mut pos, France, "A RUH", &[]);
    dislodge(&mut pos, Germany, "A MUN", &["BOH", "SIL"]);
    check_errors(
        &pos,
        France,
        &[
            (
                "F Bre - Mao",
                "F Bre - Mao: The fleet in Brest cannot retreat to Mid-Atlantic Ocean. It can retreat to Gascony or Picardy, or disband.",
            ),
            (
                "A Bur - Mun",
                "A Bur - Mun: The army in Burgundy cannot retreat to Munich. It can retreat to Gascony, Marseilles or Picardy, or disband.",
            ),
            (
                "A Bur - Par",
                "A Bur - Par: The army in Burgundy cannot retreat to Paris. It can retreat to Gascony, Marseilles or Picardy, or disband. Did you mean A Bur R Mar?",
            ),
            (
                "A Ruh - Bel",
                "A Ruh - Bel: The army in Ruhr cannot retreat to Belgium. It has nowhere to go and can only disband.",
            ),
            (
                "F Mao - Spa",
                "F Mao - Spa: Spain has two coasts that fleet can retreat to (north coast, south coast): say which.",
            ),
            ("A Bre - Gas", "A Bre - Gas: The dislodged unit in Brest is a fleet, not an army. Did you mean F Bre R Gas?"),
            ("A Mun - Boh", "A Mun - Boh: The dislodged army in Munich is German; you are France."),
            ("A Par - Bur", "A Par - Bur: The army in Paris was not dislodged; only dislodged units retreat or disband now."),
            ("A Pic - Bel", "A Pic - Bel: There is no dislodged unit in Picardy."),
            ("F Bre H", "F Bre H: In the retreat phase a dislodged unit can only retreat or disband."),
            ("F Bre S A Bur - Gas", "F Bre S A Bur - Gas: In the retreat phase a dislodged unit can only retreat or disband."),
            ("F Bre - Gas - Spa", "F Bre - Gas - Spa: A retreat is a single step, never by convoy."),
            ("A Bur - Gas via convoy", "A Bur - Gas via convoy: A retreat is a single step, never by convoy."),
            (
                "R F Bre",
                "R F Bre: 'R' could mean retreat or remove here: write R and a province after the unit to retreat it, or D to disband it.",
            ),
            ("F Bre", "F Bre: It names a unit but gives no order: add R and a province to retreat, or D to disband."),
            ("F Bre xyz", "F Bre xyz: 'xyz' is not an order: after 'F Bre' write R and a province, or D."),
            ("Build A Par", "Build A Par: Builds are only ordered in the adjustment phase (Winter)."),
        ],
    );
}

#[test]
fn refused_adjustments() {
    let mut pos = board("W1901A", &[(France, "A BEL"), (France, "A PAR")]);
    own(&mut pos, France, &["PAR", "BRE", "BEL"]);
    own(&mut pos, Germany, &["MAR"]);
    own(&mut pos, Russia, &["STP", "MOS", "SEV"]);
    check_errors(
        &pos,
        France,
        &[
            ("Build A Par", "Build A Par: There is already a unit in Paris."),
            (
                "Build A Mar",
                "Build A Mar: Marseilles belongs to Germany now; you can only build in home centres you own.",
            ),
            ("Build A Bur", "Build A Bur: Burgundy is not one of your home supply centres."),
            ("Build A Bel", "Build A Bel: Belgium is not one of your home supply centres."),
            ("Build A Mun", "Build A Mun: Munich is not one of your home supply centres."),
            ("Build Bre", "Build Bre: Say which unit to build in Brest: an army or a fleet."),
            (
                "Remove A Bel",
                "Remove A Bel: You have no units to remove: you own 3 supply centres and have 2 units.",
            ),
            ("A Par - Bur", "A Par - Bur: In the adjustment phase (Winter) you can only build, remove or waive."),
            ("A Par H", "A Par H: In the adjustment phase (Winter) you can only build, remove or waive."),
            ("A Par R Bur", "A Par R Bur: Retreats are only ordered in the retreat phase, after a unit is dislodged."),
            ("Build", "Build: A province should follow 'Build'."),
            ("Waive A Par", "Waive A Par: 'A Par' makes no sense after 'Waive'."),
            (
                "A Par xyz",
                "A Par xyz: 'xyz' is not an order: in the adjustment phase write Build, Remove or Waive.",
            ),
        ],
    );
    check_errors(
        &pos,
        Russia,
        &[
            ("Build F Stp", "Build F Stp: St Petersburg has two coasts (north coast, south coast): say which."),
            ("Build F Stp/ec", "Build F Stp/ec: St Petersburg has no east coast."),
            ("Build F Mos", "Build F Mos: Moscow is inland; a fleet cannot be built there. Did you mean Build A Mos?"),
            ("Build Stp", "Build Stp: Say which unit to build in St Petersburg: an army or a fleet."),
            (
                "Build A War",
                "Build A War: You do not own Warsaw now; you can only build in home centres you own.",
            ),
            (
                "Remove A Mos",
                "Remove A Mos: You have no units to remove: you own 3 supply centres and have 0 units.",
            ),
        ],
    );
    check_errors(
        &pos,
        Germany,
        &[(
            "Build A Mun",
            "Build A Mun: You do not own Munich now; you can only build in home centres you own.",
        )],
    );
    check_errors(
        &pos,
        Italy,
        &[
            ("Build A Rom", "Build A Rom: You have no builds to make: you own 0 supply centres and have 0 units."),
            ("Waive", "Waive: You have no builds to waive: you own 0 supply centres and have 0 units."),
        ],
    );
    // Too many units: removals only.
    let mut pos = board(
        "W1901A",
        &[(Germany, "A MUN"), (Germany, "A BER"), (France, "A PAR")],
    );
    own(&mut pos, Germany, &["MUN"]);
    check_errors(
        &pos,
        Germany,
        &[
            (
                "Waive",
                "Waive: You have no builds to waive: you own 1 supply centre and have 2 units.",
            ),
            ("Remove A Kie", "Remove A Kie: There is no unit in Kiel."),
            (
                "Remove A Par",
                "Remove A Par: The army in Paris is French; you are Germany.",
            ),
            (
                "Remove F Mun",
                "Remove F Mun: There is an army in Munich, not a fleet. Did you mean Remove A Mun?",
            ),
        ],
    );
}

#[test]
fn error_fields() {
    let e = read(&start(), France, "  A Par - Pie.  ").unwrap_err();
    assert_eq!(e.text, "A Par - Pie");
    assert_eq!(e.problem, "Paris is not adjacent to Piedmont.");
    assert_eq!(e.suggestion.as_deref(), Some("A Par - Pic"));
    let e = read(&start(), France, "").unwrap_err();
    assert_eq!(e.to_string(), "There is no order here.");
}

#[test]
fn odd_input_is_refused_without_panicking() {
    let pos = start();
    let long = "A Par - Bur ".repeat(40);
    let huge = "x".repeat(100_000);
    let many = "A Par H, ".repeat(500);
    let odd = [
        "",
        " ",
        "\0\u{1}\u{7f}",
        "-",
        "->->->",
        ":::",
        "/(/(",
        "Ä Päris - Bürgund",
        "A 巴黎 - Bur",
        "🙂 - 🙂",
        "A Par - Bur\u{202e}",
        "nor nor nor nor nor nor nor nor nor nor nor nor",
        "A Nor S A Nor - Nor - Nor - Nor - Nor - Nor",
        "S S S S S S S S S S S S S S S S S S S",
        "A Par - - - - - - - - - - - - - - Bur",
        "F: F: F: F:",
        "Build Build Build",
        "A St. St. St. St. P. P. P. - Mos",
        long.as_str(),
        huge.as_str(),
    ];
    for text in odd {
        let _ = read(&pos, France, text);
        let _ = parse_orders(map(), &pos, France, text);
    }
    assert_eq!(
        read(&pos, France, &long).unwrap_err().problem,
        "This is too long to be an order (480 characters)."
    );
    let got = parse_orders(map(), &pos, France, &huge);
    assert_eq!(got.len(), 1);
    assert!(got[0]
        .as_ref()
        .unwrap_err()
        .problem
        .starts_with("This line is too long"));
    let got = parse_orders(map(), &pos, France, &many);
    assert_eq!(got.len(), 101);
    assert!(got[100].is_err());
}

/// Orders given ahead (njudge's PHASE) are checked for their words only:
/// an order's shape and the map's provinces, with no unit needed there.
#[test]
fn orders_for_a_later_phase_are_checked_for_their_words_only() {
    use judge::engine::parse::check_words;
    let retreats: Phase = "F1901R".parse().unwrap();
    let ok = |line: &str| check_words(map(), retreats, line);
    assert_eq!(ok("A Par - Bur"), vec![Ok(())]);
    assert_eq!(ok("A Mun R Boh, F Kie disband"), vec![Ok(()), Ok(())]);
    let bad = ok("A Par - Xyzzy");
    assert_eq!(bad.len(), 1);
    let e = bad[0].as_ref().unwrap_err();
    assert!(e.to_string().contains("'Xyzzy' is not a province"), "{e}");
    let winter: Phase = "W1901A".parse().unwrap();
    assert_eq!(check_words(map(), winter, "Build A Mun"), vec![Ok(())]);
    assert!(check_words(map(), winter, "please build")[0].is_err());
}
