//! The fast path for orders already in the short form of the JSON
//! interface ([`Order::short`]): `A PAR - BUR`, `A LON - BEL VIA CONVOY`,
//! `A PAR H`, `A WAL S A LVP - YOR`, `F NTH S A YOR`,
//! `F NTH C A LON - BEL`, `A BUR R GAS`, `A BUR DISBAND`,
//! `BUILD F STP/NC`, `REMOVE A MUN`, `WAIVE` (words in any ASCII case,
//! separated by spaces; the unit letters written; three-letter
//! abbreviations, as on the standard map).
//!
//! Such a text has one reading in the full grammar that can be valid, with
//! one province in every slot: each abbreviation is an exact spelling of
//! one province, and joined to the words after it spells no name that
//! could give another valid reading (see [`NameIndex::plain_abbr`]; and
//! no spelling starts with `BUILD`, `REMOVE` or `WAIVE`). So
//! the order is the verdict of the same [`Checker`] on that reading (a
//! test compares the two ways on thousands of texts). This module
//! reads the words directly, without the lexer, the grammar or the name
//! matching, and asks the checker. Anything else — another spelling, an
//! unknown word, a reading the checker refuses — is left to the full
//! parser (`None`), which then gives the very same result or message.

use std::cell::Cell;

use super::check::{Checker, Pick};
use super::grammar::{Skel, Verb};
use super::names::NameIndex;
use crate::map::{Coast, Map, UnitType};
use crate::order::Order;

/// The longest text tried here; canonical orders are shorter.
const MAX_BYTES: usize = 64;

/// The order `text` gives when it is in the short form and valid; `None`
/// when the full parser must read it.
pub(super) fn read(checker: &Checker<'_>, names: &NameIndex, text: &str) -> Option<Order> {
    if text.len() > MAX_BYTES || !text.is_ascii() {
        return None;
    }
    let skel = skel(checker.map, names, text)?;
    let order = checker.check(&skel).ok().map(|v| v.order);
    give_back(skel);
    order
}

thread_local! {
    /// A route's vector, kept from one order to the next.
    static ROUTE: Cell<Vec<Pick>> = const { Cell::new(Vec::new()) };
}

/// A route of one place, in the kept vector if there is one.
fn route(to: Pick) -> Vec<Pick> {
    let mut v = ROUTE.take();
    v.clear();
    v.push(to);
    v
}

/// Keeps the reading's route vector for the next order.
fn give_back(skel: Skel<Pick>) {
    if let Verb::Move { route, .. } | Verb::Support { route, .. } | Verb::Convoy { route, .. } =
        skel.verb
    {
        if route.capacity() > 0 {
            ROUTE.set(route);
        }
    }
}

/// The reading of a short-form text, or `None` for anything else.
fn skel(map: &Map, names: &NameIndex, text: &str) -> Option<Skel<Pick>> {
    exact(map, names, text.as_bytes()).or_else(|| by_words(map, names, text))
}

/// [`skel`], word by word.
fn by_words(map: &Map, names: &NameIndex, text: &str) -> Option<Skel<Pick>> {
    let mut w = Words {
        text: text.as_bytes(),
        at: 0,
    };
    let first = w.next()?;
    if let Some(kind) = unit(first) {
        return with_unit(map, names, kind, w);
    }
    if !names.plain_verbs() {
        return None;
    }
    let verb = if first.eq_ignore_ascii_case(b"WAIVE") {
        return w.end().then_some(Skel {
            prefix: None,
            unit: None,
            at: None,
            verb: Verb::Waive,
        });
    } else if first.eq_ignore_ascii_case(b"BUILD") {
        Verb::Build
    } else if first.eq_ignore_ascii_case(b"REMOVE") {
        Verb::Remove
    } else {
        return None;
    };
    let kind = unit(w.next()?)?;
    let at = place(map, names, w.next()?)?;
    w.end().then_some(Skel {
        prefix: None,
        unit: Some(kind),
        at: Some(at),
        verb,
    })
}

/// The rest of an order that starts with the unit type `kind`.
fn with_unit(map: &Map, names: &NameIndex, kind: UnitType, mut w: Words<'_>) -> Option<Skel<Pick>> {
    let at = place(map, names, w.next()?)?;
    let verb = match w.next()? {
        [b'H' | b'h'] => Verb::Hold,
        b"-" => {
            let to = place(map, names, w.next()?)?;
            let via = match w.next() {
                None => false,
                Some(v) if v.eq_ignore_ascii_case(b"VIA") => {
                    if !w.next()?.eq_ignore_ascii_case(b"CONVOY") {
                        return None;
                    }
                    true
                }
                Some(_) => return None,
            };
            Verb::Move {
                route: route(to),
                via,
            }
        }
        [b'R' | b'r'] => Verb::Retreat {
            to: place(map, names, w.next()?)?,
        },
        [b'S' | b's'] => {
            let t = unit(w.next()?)?;
            let from = place(map, names, w.next()?)?;
            let route = match w.next() {
                None => Vec::new(),
                Some(b"-") => route(place(map, names, w.next()?)?),
                Some(_) => return None,
            };
            Verb::Support {
                nat: None,
                unit: Some(t),
                from,
                route,
            }
        }
        [b'C' | b'c'] => {
            let t = unit(w.next()?)?;
            let from = place(map, names, w.next()?)?;
            if w.next()? != b"-" {
                return None;
            }
            let to = place(map, names, w.next()?)?;
            Verb::Convoy {
                nat: None,
                unit: Some(t),
                from,
                route: route(to),
            }
        }
        v if v.eq_ignore_ascii_case(b"DISBAND") => Verb::Disband,
        _ => return None,
    };
    w.end().then_some(Skel {
        prefix: None,
        unit: Some(kind),
        at: Some(at),
        verb,
    })
}

/// The short form of a unit's order exactly as the engine writes it (upper
/// case, one space between words: `A PAR - BUR`, `F STP/SC H`), read by
/// position; the same reading as word by word. `None` for anything else
/// (which the words then read, or not).
fn exact(map: &Map, names: &NameIndex, b: &[u8]) -> Option<Skel<Pick>> {
    let (kind, at, mut i) = exact_unit(map, names, b, 0)?;
    // The verb, then what follows it; `i` is where the next word starts.
    let word = |i: &mut usize, w: &[u8]| -> bool {
        let end = *i + w.len();
        let yes = b.get(*i..end) == Some(w) && matches!(b.get(end), None | Some(b' '));
        if yes {
            *i = end + 1;
        }
        yes
    };
    let verb = if word(&mut i, b"H") {
        Verb::Hold
    } else if word(&mut i, b"-") {
        let (to, next) = exact_place(map, names, b, i)?;
        i = next;
        let via = word(&mut i, b"VIA");
        if via && !word(&mut i, b"CONVOY") {
            return None;
        }
        Verb::Move {
            route: route(to),
            via,
        }
    } else if word(&mut i, b"S") {
        let (t, from, next) = exact_unit(map, names, b, i)?;
        i = next;
        let route = if word(&mut i, b"-") {
            let (to, next) = exact_place(map, names, b, i)?;
            i = next;
            route(to)
        } else {
            Vec::new()
        };
        Verb::Support {
            nat: None,
            unit: Some(t),
            from,
            route,
        }
    } else if word(&mut i, b"C") {
        let (t, from, next) = exact_unit(map, names, b, i)?;
        i = next;
        if !word(&mut i, b"-") {
            return None;
        }
        let (to, next) = exact_place(map, names, b, i)?;
        i = next;
        Verb::Convoy {
            nat: None,
            unit: Some(t),
            from,
            route: route(to),
        }
    } else if word(&mut i, b"R") {
        let (to, next) = exact_place(map, names, b, i)?;
        i = next;
        Verb::Retreat { to }
    } else if word(&mut i, b"DISBAND") {
        Verb::Disband
    } else {
        return None;
    };
    // Every byte read, the last word not followed by a space.
    (i == b.len() + 1).then_some(Skel {
        prefix: None,
        unit: Some(kind),
        at: Some(at),
        verb,
    })
}

/// The unit written at `b[i..]` (`A PAR`, `F STP/NC`): its type, its
/// place, and where the next word starts.
fn exact_unit(map: &Map, names: &NameIndex, b: &[u8], i: usize) -> Option<(UnitType, Pick, usize)> {
    let kind = unit_letter(*b.get(i)?)?;
    if b.get(i + 1) != Some(&b' ') {
        return None;
    }
    let (at, next) = exact_place(map, names, b, i + 2)?;
    Some((kind, at, next))
}

/// `A` or `F`, upper case.
fn unit_letter(c: u8) -> Option<UnitType> {
    match c {
        b'A' => Some(UnitType::Army),
        b'F' => Some(UnitType::Fleet),
        _ => None,
    }
}

/// The place written at `b[i..]` (`PAR`, `STP/NC`) as [`place`] reads it,
/// and where the next word starts (one past the space after it).
fn exact_place(map: &Map, names: &NameIndex, b: &[u8], i: usize) -> Option<(Pick, usize)> {
    let len = match b.get(i + 3) {
        None | Some(b' ') => 3,
        Some(b'/') => 6,
        Some(_) => return None,
    };
    let end = i + len;
    if !matches!(b.get(end), None | Some(b' ')) {
        return None;
    }
    Some((place(map, names, b.get(i..end)?)?, end + 1))
}

/// The words of a text, split at spaces. (Other white space stays in the
/// words, which then are no words of the short form.)
struct Words<'a> {
    text: &'a [u8],
    at: usize,
}

impl<'a> Words<'a> {
    fn next(&mut self) -> Option<&'a [u8]> {
        let b = self.text;
        while b.get(self.at) == Some(&b' ') {
            self.at += 1;
        }
        let start = self.at;
        while self.at < b.len() && b[self.at] != b' ' {
            self.at += 1;
        }
        (self.at > start).then(|| &b[start..self.at])
    }

    /// Whether no word is left.
    fn end(&mut self) -> bool {
        self.next().is_none()
    }
}

fn unit(word: &[u8]) -> Option<UnitType> {
    match word {
        [b'A' | b'a'] => Some(UnitType::Army),
        [b'F' | b'f'] => Some(UnitType::Fleet),
        _ => None,
    }
}

/// `PAR`, `STP/NC`: an abbreviation of three letters (the standard map's)
/// that names one province, and a coast.
fn place(map: &Map, names: &NameIndex, word: &[u8]) -> Option<Pick> {
    let (abbr, coast) = match *word {
        [_, _, _] => (word, None),
        [_, _, _, b'/', c, b'C' | b'c'] => (
            &word[..3],
            Some(match c {
                b'N' | b'n' => Coast::North,
                b'S' | b's' => Coast::South,
                b'E' | b'e' => Coast::East,
                _ => return None,
            }),
        ),
        _ => return None,
    };
    let prov = map.province_by_abbr3(abbr)?;
    names.plain_abbr(prov).then_some(Pick { prov, coast })
}

#[cfg(test)]
mod tests {
    use super::super::{parse_order, OrderReader, Understood};
    use super::*;
    use crate::map::Power;
    use crate::phase::{Phase, PhaseKind, Season};
    use crate::position::{Dislodged, Position, Unit};

    /// Every province's abbreviation is plain on the standard map, and so
    /// are the words that start adjustment orders.
    #[test]
    fn standard_abbreviations_are_plain() {
        let map = Map::standard();
        let names = NameIndex::of(map);
        for p in map.provinces() {
            assert!(names.plain_abbr(p), "{}", map.abbr(p));
        }
        assert!(names.plain_verbs());
    }

    /// A movement, a retreat and an adjustment position.
    fn positions(map: &Map) -> Vec<Position> {
        let start = Position::standard_start(map);
        let loc = |t: &str| map.location_by_abbr(t).unwrap();
        let mut retreat = start.clone();
        retreat.phase = Phase {
            kind: PhaseKind::Retreat,
            ..start.phase
        };
        retreat.units.retain(|u| u.location != loc("MAR"));
        retreat.dislodged.push(Dislodged {
            unit: Unit {
                power: Power::France,
                kind: UnitType::Fleet,
                location: loc("MAO"),
            },
            retreats: vec![loc("SPA/NC"), loc("SPA/SC"), loc("POR"), loc("IRI")],
        });
        retreat.dislodged.push(Dislodged {
            unit: Unit {
                power: Power::Germany,
                kind: UnitType::Army,
                location: loc("BUR"),
            },
            retreats: vec![loc("GAS"), loc("PIC"), loc("MAR")],
        });
        let mut adjust = start.clone();
        adjust.phase = Phase {
            kind: PhaseKind::Adjustment,
            season: Season::Winter,
            ..start.phase
        };
        adjust
            .units
            .retain(|u| !(u.power == Power::Russia && u.kind == UnitType::Fleet));
        adjust.units.retain(|u| u.location != loc("PAR"));
        adjust.units.push(Unit {
            power: Power::England,
            kind: UnitType::Army,
            location: loc("NWY"),
        });
        vec![start, retreat, adjust]
    }

    /// The fast path, when it answers, answers as the full parser does.
    fn agree(map: &Map, pos: &Position, power: Power, text: &str) -> bool {
        let reader = OrderReader::new(map, pos);
        let cx = reader.context(power);
        // Read by position, it is read as word by word.
        if let Some(skel) = exact(map, cx.names, text.as_bytes()) {
            assert_eq!(Some(skel), by_words(map, cx.names, text), "{text:?}");
        }
        let Some(fast) = read(&cx.checker(), cx.names, text) else {
            return false;
        };
        let full = cx.parse_full(text, true);
        // The short form is read literally: never reinterpreted.
        assert_eq!(
            Ok(Understood::plain(fast)),
            full,
            "{text:?} in {} for {power}",
            pos.phase
        );
        true
    }

    /// Short forms of many orders, valid and not, for every unit.
    #[test]
    fn agrees_with_the_full_parser() {
        let map = Map::standard();
        let abbrs: Vec<String> = map.locations().map(|l| map.loc_abbr(l)).collect();
        let some = [
            "PAR", "BUR", "SPA/NC", "STP/SC", "NTH", "LON", "BEL", "GAS", "SWI",
        ];
        let mut hits = 0;
        let mut exact_reads = 0;
        for pos in positions(map) {
            for u in pos
                .units
                .iter()
                .chain(pos.dislodged.iter().map(|d| &d.unit))
            {
                let at = map.loc_abbr(u.location);
                let k = u.kind.letter();
                let mut texts = vec![
                    format!("{k} {at} H"),
                    format!("{k} {at} DISBAND"),
                    format!("BUILD {k} {at}"),
                    format!("REMOVE {k} {at}"),
                    format!("A {at} H"),
                    format!("F {at} H"),
                ];
                for to in &abbrs {
                    texts.push(format!("{k} {at} - {to}"));
                    texts.push(format!("{k} {at} R {to}"));
                }
                for to in some {
                    texts.push(format!("{k} {at} - {to} VIA CONVOY"));
                }
                for v in &pos.units {
                    let from = map.loc_abbr(v.location);
                    let t = v.kind.letter();
                    texts.push(format!("{k} {at} S {t} {from}"));
                    for to in some.iter().chain(&[at.as_str()]) {
                        texts.push(format!("{k} {at} S {t} {from} - {to}"));
                        texts.push(format!("{k} {at} C {t} {from} - {to}"));
                    }
                }
                for t in &texts {
                    for power in [u.power, Power::Austria] {
                        hits += usize::from(agree(map, &pos, power, t));
                    }
                    exact_reads += usize::from(
                        exact(map, NameIndex::of(map).as_ref(), t.as_bytes()).is_some(),
                    );
                }
            }
            for power in Power::ALL {
                for p in map.provinces() {
                    for k in ["A", "F"] {
                        let at = map.abbr(p);
                        agree(map, &pos, power, &format!("BUILD {k} {at}"));
                        for &l in map.coasts(p) {
                            agree(map, &pos, power, &format!("BUILD {k} {}", map.loc_abbr(l)));
                        }
                    }
                }
                agree(map, &pos, power, "WAIVE");
            }
        }
        assert!(hits > 500, "{hits}");
        assert!(exact_reads > 5000, "{exact_reads}");
    }

    /// Texts near the short form: read fast when the full parser reads
    /// them as the same order, left to it otherwise.
    #[test]
    fn odd_spellings() {
        let map = Map::standard();
        let all = positions(map);
        let fast = [
            "A PAR - BUR",
            "a par - bur",
            "A  PAR   -  BUR ",
            " A PAR H",
            "F BRE - MAO",
            "A PAR S F BRE - PIC",
            "A MAR S A PAR - BUR",
            "A PAR S F BRE",
            "F BRE S A PAR - PIC",
            "A PAR/NC - BUR",
        ];
        for t in fast {
            assert!(agree(map, &all[0], Power::France, t), "{t:?}");
        }
        for t in [
            "F MAO R SPA/NC",
            "F MAO - SPA/SC",
            "A BUR R GAS",
            "a bur r gas",
            "A BUR DISBAND",
        ] {
            let power = if t.contains("BUR") || t.contains("bur") {
                Power::Germany
            } else {
                Power::France
            };
            assert!(agree(map, &all[1], power, t), "{t:?}");
        }
        assert!(agree(map, &all[2], Power::Russia, "BUILD F STP/NC"));
        assert!(agree(map, &all[2], Power::Russia, "BUILD F SEV"));
        assert!(agree(map, &all[2], Power::Russia, "WAIVE"));
        assert!(agree(map, &all[2], Power::England, "REMOVE A NWY"));
        assert!(agree(map, &all[2], Power::England, "A NWY DISBAND"));
        let slow = [
            (0, "A PAR - BUR - GAS"),
            (0, "A PAR-BUR"),
            (0, "PAR - BUR"),
            (0, "A PAR -> BUR"),
            (0, "A PAR - BUR VIA"),
            (0, "A PAR - BUR BY CONVOY"),
            (0, "A PAR - BUR!"),
            (0, "A PAR/XC - BUR"),
            (0, "A PAR/ - BUR"),
            (0, "A PA H"),
            (0, "A PARI H"),
            (0, "A XYZ H"),
            (0, "A PAR S"),
            (0, "A PAR S A"),
            (0, "A PAR S A BUR -"),
            (0, "A PAR -"),
            (0, "A PAR HOLD"),
            (0, "France: A PAR H"),
            (0, "A PAR - BÜR"),
            (1, "F MAO R SPA"),
            (2, "BUILD F STP"),
            (2, "WAIVE A"),
            (2, "BUILD A MOS"),
        ];
        for (i, t) in slow {
            for power in Power::ALL {
                let reader = OrderReader::new(map, &all[i]);
                let cx = reader.context(power);
                assert_eq!(read(&cx.checker(), cx.names, t), None, "{t:?}");
                assert_eq!(
                    parse_order(map, &all[i], power, t),
                    cx.parse_full(t, true).map(|u| u.order),
                    "{t:?}"
                );
            }
        }
    }
}
