//! The orders of `tests/parse/rulebook.txt`: the spellings the rulebook
//! and its players use, each with what the judge must read (or refuse).

use judge::engine::map::{Map, Power, UnitType};
use judge::engine::parse::parse_orders_understood;
use judge::engine::phase::Phase;
use judge::engine::position::{Position, Unit};

const CASES: &str = include_str!("parse/rulebook.txt");

fn power(name: &str) -> Power {
    Power::parse(name.trim()).unwrap_or_else(|| panic!("no power {name:?}"))
}

/// `England: F NTH, A LON; Turkey: A BUL` on a board at `phase`.
fn board(units: &str, phase: &str) -> Position {
    let map = Map::standard();
    let phase: Phase = phase.trim().parse().expect("a phase");
    let mut pos = Position::empty(map, phase);
    for group in units.split(';') {
        let (owner, list) = group.split_once(':').expect("Power: units");
        for u in list.split(',') {
            let (kind, at) = u.trim().split_once(' ').expect("A LOC");
            pos.units.push(Unit {
                power: power(owner),
                kind: if kind == "A" {
                    UnitType::Army
                } else {
                    UnitType::Fleet
                },
                location: map
                    .location_by_abbr(at)
                    .unwrap_or_else(|| panic!("no {at}")),
            });
        }
    }
    pos
}

#[test]
fn rulebook_orders() {
    let map = Map::standard();
    let mut failures = Vec::new();
    let mut count = 0;
    for line in CASES
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split(" | ").collect();
        let [units, phase, who, text, expected] = f[..] else {
            panic!("bad case line: {line}");
        };
        count += 1;
        let pos = board(units, phase);
        let got = parse_orders_understood(map, &pos, power(who), text);
        let got = match &got[..] {
            [Ok(u)] if u.reinterpreted => format!("read as {}", u.order.short(map)),
            [Ok(u)] => u.order.short(map),
            [Err(e)] => format!("refused: {e}"),
            _ => format!("{} results", got.len()),
        };
        let fits = match expected.strip_prefix("refused: ") {
            Some(words) => {
                got.starts_with("refused: ")
                    && words
                        .split(", ")
                        .all(|w| got.contains(w.trim_end_matches('.')))
            }
            None => got == expected,
        };
        if !fits {
            failures.push(format!("{text:?}\n   want {expected}\n   got  {got}"));
        }
    }
    assert!(count > 50, "only {count} cases read");
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
