//! The fast path of `judge adjudicate`: a plain input line read in place
//! and its output written as bytes directly.
//!
//! Why: most lines fed to `judge adjudicate` are plain (the keys of
//! [`PhaseInput`], strings without escapes), and reading them into owned
//! maps and serialising a [`PhaseOutput`] costs more than adjudicating
//! the phase. What it must equal: for every line [`PhaseLine::read`]
//! accepts, [`write_phase`] writes exactly the bytes `serde_json` writes
//! for [`run_phase`]'s output on the same line (or returns the same
//! error); every other line is refused, and the caller reads it through
//! serde. The tests below check both, on the DATC and on random lines.

use crate::engine::adjudicate::{adjudicate, Adjudication};
use crate::engine::map::{Location, Map, Power, Province, UnitType};
use crate::engine::order::{Order, OrderKind};
use crate::engine::outcome::Outcome;
use crate::engine::phase::{Phase, PhaseKind, Season};
use crate::engine::position::{Position, Unit};

use super::{position_from, read_orders, unit_text, PowerEntries};
#[cfg(doc)]
use super::{run_phase, PhaseInput, PhaseOutput, PositionJson};

/// A line of `judge adjudicate` input read in place: the keys of
/// [`PhaseInput`], every string borrowed from the line. [`PhaseLine::read`]
/// takes only plain lines (JSON with these keys, each at most once, strings
/// without escapes, no nulls); it refuses anything else, which the caller
/// then reads as a [`PhaseInput`], for the same position or the error to
/// report.
#[derive(Debug)]
pub struct PhaseLine<'a> {
    phase: &'a str,
    units: Lists<'a>,
    centers: Option<Lists<'a>>,
    homes: Option<Lists<'a>>,
    /// Per power: its dislodged units' retreat options.
    retreats: Vec<(&'a str, Lists<'a>)>,
    orders: Lists<'a>,
    /// Every list's strings, one after the other.
    items: Vec<&'a str>,
}

/// A JSON object of lists of strings, as a `BTreeMap` holds it: per key in
/// order (the last of equal keys), the range of its list in `items`.
#[derive(Debug, Default)]
struct Lists<'a>(Vec<(&'a str, usize, usize)>);

impl<'a> PhaseLine<'a> {
    /// The line, if it is a plain one (see [`PhaseLine`]).
    pub fn read(line: &'a str) -> Option<PhaseLine<'a>> {
        let mut r = Reader {
            src: line,
            at: 0,
            items: Vec::with_capacity(160),
        };
        let mut phase = None;
        let mut units = None;
        let mut centers = None;
        let mut homes = None;
        let mut retreats = None;
        let mut orders = None;
        fn once<T>(slot: &mut Option<T>, value: T) -> Option<()> {
            match slot {
                Some(_) => None,
                None => {
                    *slot = Some(value);
                    Some(())
                }
            }
        }
        r.ws();
        r.expect(b'{')?;
        r.ws();
        if !r.eat(b'}') {
            loop {
                let key = r.string()?;
                r.ws();
                r.expect(b':')?;
                r.ws();
                match key {
                    "phase" => once(&mut phase, r.string()?)?,
                    "units" => once(&mut units, r.lists()?)?,
                    "centers" => once(&mut centers, r.lists()?)?,
                    "homes" => once(&mut homes, r.lists()?)?,
                    "orders" => once(&mut orders, r.lists()?)?,
                    "retreats" => {
                        let mut powers = Vec::new();
                        r.members(|r| {
                            let power = r.string()?;
                            r.ws();
                            r.expect(b':')?;
                            r.ws();
                            powers.push((power, r.lists()?));
                            Some(())
                        })?;
                        once(&mut retreats, last_of_keys(powers))?
                    }
                    _ => return None,
                }
                r.ws();
                if r.eat(b',') {
                    r.ws();
                    continue;
                }
                r.expect(b'}')?;
                break;
            }
        }
        r.ws();
        if r.at != line.len() {
            return None;
        }
        Some(PhaseLine {
            phase: phase?,
            units: units.unwrap_or_default(),
            centers,
            homes,
            retreats: retreats.unwrap_or_default(),
            orders: orders.unwrap_or_default(),
            items: r.items,
        })
    }

    fn lists(&self, l: &Lists<'a>) -> Vec<(&'a str, &[&'a str])> {
        l.0.iter()
            .map(|&(k, a, b)| (k, &self.items[a..b]))
            .collect()
    }
}

/// Entries sorted by key (stably), of equal keys only the last: the order
/// and the choice of a `BTreeMap` filled from them.
fn last_of_keys<T>(mut entries: Vec<(&str, T)>) -> Vec<(&str, T)> {
    if entries.windows(2).all(|w| w[0].0 < w[1].0) {
        // Already in order, no key twice (the usual case).
        return entries;
    }
    entries.sort_by(|a, b| a.0.cmp(b.0));
    let mut out: Vec<(&str, T)> = Vec::with_capacity(entries.len());
    for e in entries {
        match out.last_mut() {
            Some(last) if last.0 == e.0 => *last = e,
            _ => out.push(e),
        }
    }
    out
}

/// The bytes that end a plain string: the quote, the backslash (an
/// escape) and the control characters (not allowed in JSON strings).
const STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 0x20 {
        t[c] = true;
        c += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// Where the first byte of `STOP` in `s` is: eight bytes at a time while
/// there are eight, then one at a time.
#[inline]
fn stop(s: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // The high bit of each byte that is zero (exact for the first such
    // byte, which is all that is used).
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let mut i = 0;
    while let Some(chunk) = s.get(i..i + 8) {
        let v = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        // Quote, backslash, or below 0x20 (a byte under 0x20 has no bit
        // above 0x1f, so `v & 0xe0..` has a zero byte there).
        let hits = zero(v ^ (ONES * u64::from(b'"')))
            | zero(v ^ (ONES * u64::from(b'\\')))
            | zero(v & (ONES * 0xe0));
        if hits != 0 {
            return Some(i + (hits.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    s[i..]
        .iter()
        .position(|&c| STOP[usize::from(c)])
        .map(|n| i + n)
}

/// A strict reader of the JSON of plain lines.
struct Reader<'a> {
    src: &'a str,
    at: usize,
    items: Vec<&'a str>,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.src.as_bytes().get(self.at).copied()
    }

    /// JSON white space.
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        let yes = self.peek() == Some(c);
        if yes {
            self.at += 1;
        }
        yes
    }

    fn expect(&mut self, c: u8) -> Option<()> {
        self.eat(c).then_some(())
    }

    /// A string without escapes or control characters.
    #[inline]
    fn string(&mut self) -> Option<&'a str> {
        let b = self.src.as_bytes();
        if b.get(self.at) != Some(&b'"') {
            return None;
        }
        let start = self.at + 1;
        let n = stop(b.get(start..)?)?;
        let end = start + n;
        if b[end] != b'"' {
            return None;
        }
        self.at = end + 1;
        // Both ends are next to an ASCII quote: character boundaries.
        self.src.get(start..end)
    }

    /// `{}` or `{member, ...}`, each member read by `member`.
    fn members(&mut self, mut member: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.expect(b'{')?;
        self.ws();
        if self.eat(b'}') {
            return Some(());
        }
        loop {
            member(self)?;
            self.ws();
            if self.eat(b',') {
                self.ws();
                continue;
            }
            return self.expect(b'}');
        }
    }

    /// An object of arrays of strings.
    fn lists(&mut self) -> Option<Lists<'a>> {
        let mut entries = Vec::with_capacity(8);
        self.members(|r| {
            let key = r.string()?;
            r.ws();
            r.expect(b':')?;
            r.ws();
            r.expect(b'[')?;
            r.ws();
            let start = r.items.len();
            if !r.eat(b']') {
                loop {
                    let item = r.string()?;
                    r.items.push(item);
                    r.ws();
                    if r.eat(b',') {
                        r.ws();
                        continue;
                    }
                    r.expect(b']')?;
                    break;
                }
            }
            entries.push((key, (start, r.items.len())));
            Some(())
        })?;
        Some(Lists(
            last_of_keys(entries)
                .into_iter()
                .map(|(k, (a, b))| (k, a, b))
                .collect(),
        ))
    }
}

/// [`run_phase`] on a line read in place ([`PhaseLine::read`]), writing the
/// output line (without the line break) to `out`: the same bytes as
/// `serde_json::to_writer` of [`run_phase`]'s [`PhaseOutput`] for the
/// same line. On `Err` nothing is written. ([`ReadPhase::read`],
/// [`ReadPhase::adjudicate`] and [`ReadPhase::write`] one after the other.)
pub fn write_phase(map: &Map, input: &PhaseLine<'_>, out: &mut Vec<u8>) -> Result<(), String> {
    let read = ReadPhase::read(map, input)?;
    let adjudication = read.adjudicate(map);
    read.write(map, &adjudication, out);
    Ok(())
}

/// A plain line's position and orders, read and checked, ready to be
/// adjudicated.
pub struct ReadPhase {
    position: Position,
    orders: Vec<Order>,
    /// Orders that could not be read, with the reason.
    errors: Vec<String>,
}

impl ReadPhase {
    /// The position and the orders of the line; `Err` for a position that
    /// cannot be read (the message of [`run_phase`]).
    pub fn read<'a>(map: &Map, input: &PhaseLine<'a>) -> Result<ReadPhase, String> {
        // The maps' entries with their lists, one map after the other.
        let size = |l: Option<&Lists<'a>>| l.map_or(0, |l| l.0.len());
        let mut parts: Vec<(&str, &[&str])> = Vec::with_capacity(
            size(Some(&input.units))
                + size(input.centers.as_ref())
                + size(input.homes.as_ref())
                + size(Some(&input.orders)),
        );
        let mut add = |l: &Lists<'a>| {
            let start = parts.len();
            parts.extend(l.0.iter().map(|&(k, a, b)| (k, &input.items[a..b])));
            start..parts.len()
        };
        let units = add(&input.units);
        let centers = input.centers.as_ref().map(&mut add);
        let homes = input.homes.as_ref().map(&mut add);
        let orders = add(&input.orders);
        let retreats: Vec<PowerEntries<'_, &str>> = input
            .retreats
            .iter()
            .map(|(power, units)| (*power, input.lists(units)))
            .collect();
        let position = position_from(
            map,
            input.phase,
            &parts[units],
            centers.map(|r| &parts[r]),
            homes.map(|r| &parts[r]),
            &retreats,
        )?;
        let (orders, errors) = read_orders(map, &position, &parts[orders])?;
        Ok(ReadPhase {
            position,
            orders,
            errors,
        })
    }

    pub fn adjudicate(&self, map: &Map) -> Adjudication {
        adjudicate(map, &self.position, &self.orders)
    }

    /// The output line of the phase (without the line break).
    pub fn write(&self, map: &Map, adjudication: &Adjudication, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"phase\":");
        write_phase_name(out, self.position.phase);
        out.extend_from_slice(b",\"next\":");
        write_position(map, &adjudication.next, out);
        out.extend_from_slice(b",\"results\":{");
        write_results(map, &adjudication.orders, out);
        out.extend_from_slice(b"},\"errors\":[");
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            write_str(out, e);
        }
        out.push(b']');
        if let Some(w) = adjudication.winner {
            out.extend_from_slice(b",\"winner\":");
            write_str(out, w.upper());
        }
        out.push(b'}');
    }
}

/// `"S1901M"`: the phase's name as a JSON string (nothing to escape).
fn write_phase_name(out: &mut Vec<u8>, phase: Phase) {
    // As `Phase`'s `Display`: season, year, kind.
    let season = match phase.season {
        Season::Spring => b'S',
        Season::Fall => b'F',
        Season::Winter => b'W',
    };
    let kind = match phase.kind {
        PhaseKind::Movement => b'M',
        PhaseKind::Retreat => b'R',
        PhaseKind::Adjustment => b'A',
    };
    out.push(b'"');
    out.push(season);
    let mut digits = [0u8; 5];
    let mut n = phase.year;
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
    out.push(kind);
    out.push(b'"');
}

/// A JSON string, escaped as serde_json escapes it.
fn write_str(out: &mut Vec<u8>, s: &str) {
    if s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        serde_json::to_writer(&mut *out, s).expect("writing to a Vec");
    } else {
        out.push(b'"');
        push_short(out, s.as_bytes());
        out.push(b'"');
    }
}

/// `"STP/NC"` (no quotes): [`Map::loc_abbr`].
fn write_loc(map: &Map, l: Location, out: &mut Vec<u8>) {
    push_short(out, map.loc_abbr_str(l).as_bytes());
}

/// `out.extend_from_slice(s)`, with the usual lengths of abbreviations
/// ("PAR", "STP/NC") copied without a call.
#[inline]
fn push_short(out: &mut Vec<u8>, s: &[u8]) {
    match *s {
        [a, b, c] => out.extend_from_slice(&[a, b, c]),
        [a, b, c, d, e, f] => out.extend_from_slice(&[a, b, c, d, e, f]),
        _ => out.extend_from_slice(s),
    }
}

/// [`Order::short`], written to `out`.
fn write_short(map: &Map, o: &Order, out: &mut Vec<u8>) {
    let unit = |out: &mut Vec<u8>, k: UnitType| out.push(k.letter() as u8);
    let prov = |out: &mut Vec<u8>, p: Province| out.extend_from_slice(map.abbr(p).as_bytes());
    let head = |out: &mut Vec<u8>| {
        unit(out, o.unit);
        out.push(b' ');
        write_loc(map, o.location, out);
    };
    match o.kind {
        OrderKind::Hold => {
            head(out);
            out.extend_from_slice(b" H");
        }
        OrderKind::Move { to, via_convoy } => {
            head(out);
            out.extend_from_slice(b" - ");
            write_loc(map, to, out);
            if via_convoy {
                out.extend_from_slice(b" VIA CONVOY");
            }
        }
        OrderKind::Support { unit: k, from, to } => {
            head(out);
            out.extend_from_slice(b" S ");
            unit(out, k);
            out.push(b' ');
            prov(out, from);
            if let Some(to) = to {
                out.extend_from_slice(b" - ");
                write_loc(map, to, out);
            }
        }
        OrderKind::Convoy { from, to } => {
            head(out);
            out.extend_from_slice(b" C A ");
            prov(out, from);
            out.extend_from_slice(b" - ");
            prov(out, to);
        }
        OrderKind::Retreat { to } => {
            head(out);
            out.extend_from_slice(b" R ");
            write_loc(map, to, out);
        }
        OrderKind::Disband => {
            head(out);
            out.extend_from_slice(b" DISBAND");
        }
        OrderKind::Build => {
            out.extend_from_slice(b"BUILD ");
            head(out);
        }
        OrderKind::Remove => {
            out.extend_from_slice(b"REMOVE ");
            head(out);
        }
        OrderKind::Waive => out.extend_from_slice(b"WAIVE"),
    }
}

/// The results object's members: order (short form) to outcome, sorted by
/// the order's text, the last result of a text kept (as a `BTreeMap`
/// collected from them keeps it).
fn write_results(map: &Map, results: &[(Order, Outcome)], out: &mut Vec<u8>) {
    let mut texts: Vec<u8> = Vec::with_capacity(results.len() * 24);
    // (the text's first 8 bytes, big-endian: they order as the texts do;
    // where the text starts; where it ends; the outcome)
    let mut spans: Vec<(u64, u32, u32, Outcome)> = Vec::with_capacity(results.len());
    for (o, outcome) in results {
        let start = texts.len();
        write_short(map, o, &mut texts);
        // (Every short form has 8 bytes but `WAIVE`.)
        let key = match texts.get(start..start + 8) {
            Some(head) => u64::from_be_bytes(head.try_into().expect("8 bytes")),
            None => {
                let mut key = [0u8; 8];
                for (k, &b) in key.iter_mut().zip(&texts[start..]) {
                    *k = b;
                }
                u64::from_be_bytes(key)
            }
        };
        spans.push((key, start as u32, texts.len() as u32, *outcome));
    }
    let text = |&(_, a, b, _): &(u64, u32, u32, Outcome)| &texts[a as usize..b as usize];
    // By text, equal texts in the order given (they start in that order).
    spans.sort_unstable_by(|x, y| {
        x.0.cmp(&y.0)
            .then_with(|| text(x).cmp(text(y)))
            .then(x.1.cmp(&y.1))
    });
    let mut first = true;
    for (i, span) in spans.iter().enumerate() {
        if spans
            .get(i + 1)
            .is_some_and(|next| text(next) == text(span))
        {
            continue;
        }
        if !first {
            out.push(b',');
        }
        first = false;
        // Letters, digits, spaces, '-' and '/': nothing to escape.
        out.push(b'"');
        out.extend_from_slice(text(span));
        out.extend_from_slice(b"\":");
        let outcome = span.3;
        if outcome.is_empty() {
            out.extend_from_slice(b"\"ok\"");
        } else {
            out.push(b'"');
            for (k, tag) in outcome.tags().enumerate() {
                if k > 0 {
                    out.extend_from_slice(b", ");
                }
                out.extend_from_slice(tag.as_bytes());
            }
            out.push(b'"');
        }
    }
}

/// `"POWER":[...]` members for the powers (in order) with something in
/// their list; `item` writes one entry of a power's list, or none.
fn write_groups<T>(
    out: &mut Vec<u8>,
    items: &[T],
    power_of: impl Fn(&T) -> Power,
    mut item: impl FnMut(&mut Vec<u8>, &T),
) {
    let mut first = true;
    for power in Power::ALL {
        let mut any = false;
        for x in items.iter().filter(|x| power_of(x) == power) {
            if !any {
                if !first {
                    out.push(b',');
                }
                first = false;
                write_str(out, power.upper());
                out.extend_from_slice(b":[");
            } else {
                out.push(b',');
            }
            any = true;
            item(out, x);
        }
        if any {
            out.push(b']');
        }
    }
}

/// [`write_groups`] for items given per power as bitsets of their indices
/// (written in index order).
fn write_bitset_groups(
    out: &mut Vec<u8>,
    of: [u128; 7],
    mut item: impl FnMut(&mut Vec<u8>, usize),
) {
    let mut first = true;
    for power in Power::ALL {
        let mut set = of[power.index()];
        if set == 0 {
            continue;
        }
        if !first {
            out.push(b',');
        }
        first = false;
        out.push(b'"');
        out.extend_from_slice(power.upper().as_bytes());
        out.extend_from_slice(b"\":[");
        let mut sep = false;
        while set != 0 {
            if sep {
                out.push(b',');
            }
            sep = true;
            item(out, set.trailing_zeros() as usize);
            set &= set - 1;
        }
        out.push(b']');
    }
}

/// `serde_json::to_writer` of [`PositionJson::from_position`], without
/// building it.
fn write_position(map: &Map, pos: &Position, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"phase\":");
    write_phase_name(out, pos.phase);
    out.extend_from_slice(b",\"units\":{");
    write_units(map, pos, out);
    out.extend_from_slice(b"},\"centers\":{");
    write_centers(map, pos, out);
    out.push(b'}');
    let standard = Power::ALL
        .into_iter()
        .all(|p| pos.homes[p.index()] == map.home_centres(p));
    if !standard {
        out.extend_from_slice(b",\"homes\":{");
        write_homes(map, pos, out);
        out.push(b'}');
    }
    if !pos.dislodged.is_empty() {
        out.extend_from_slice(b",\"retreats\":{");
        write_retreats(map, pos, out);
        out.push(b'}');
    }
    out.push(b'}');
}

/// The members of `units`: per power, its units' texts.
fn write_units(map: &Map, pos: &Position, out: &mut Vec<u8>) {
    let unit = |out: &mut Vec<u8>, u: &Unit| {
        out.push(b'"');
        out.push(u.kind.letter() as u8);
        out.push(b' ');
        write_loc(map, u.location, out);
        out.push(b'"');
    };
    if pos.units.len() <= 64 {
        // Per power, the indices of its units as a bitset.
        let mut of = [0u64; 7];
        for (i, u) in pos.units.iter().enumerate() {
            of[u.power.index()] |= 1 << i;
        }
        write_bitset_groups(out, of.map(u128::from), |out, i| unit(out, &pos.units[i]));
    } else {
        write_groups(out, &pos.units, |u| u.power, unit);
    }
}

/// The members of `centers`: per power, the supply centres it owns.
fn write_centers(map: &Map, pos: &Position, out: &mut Vec<u8>) {
    if map.province_count() <= 128 {
        let mut of = [0u128; 7];
        for p in map.provinces() {
            if let Some(o) = pos.owner(p) {
                of[o.index()] |= 1 << p.index();
            }
        }
        write_bitset_groups(out, of, |out, i| {
            write_str(out, map.abbr(Province(i as u8)))
        });
    } else {
        let owned: Vec<(Power, Province)> = map
            .provinces()
            .filter_map(|p| pos.owner(p).map(|o| (o, p)))
            .collect();
        write_groups(out, &owned, |x| x.0, |out, x| write_str(out, map.abbr(x.1)));
    }
}

/// The members of `homes`: per power, its home centres.
fn write_homes(map: &Map, pos: &Position, out: &mut Vec<u8>) {
    let homes: Vec<(Power, Province)> = Power::ALL
        .into_iter()
        .flat_map(|p| pos.homes[p.index()].iter().map(move |&h| (p, h)))
        .collect();
    write_groups(out, &homes, |x| x.0, |out, x| write_str(out, map.abbr(x.1)));
}

/// The members of `retreats`: per power, its dislodged units' texts to
/// their retreat options, sorted by the text, of equal texts the last
/// kept (as `BTreeMap`s filled from them).
fn write_retreats(map: &Map, pos: &Position, out: &mut Vec<u8>) {
    let mut first = true;
    for power in Power::ALL {
        let mut units: Vec<(String, &[Location])> = pos
            .dislodged
            .iter()
            .filter(|d| d.unit.power == power)
            .map(|d| (unit_text(map, &d.unit), &d.retreats[..]))
            .collect();
        if units.is_empty() {
            continue;
        }
        units.sort_by(|a, b| a.0.cmp(&b.0));
        if !first {
            out.push(b',');
        }
        first = false;
        write_str(out, power.upper());
        out.extend_from_slice(b":{");
        write_retreat_options(map, &units, out);
        out.push(b'}');
    }
}

/// One power's `retreats` members, from its units sorted by text: the
/// last of equal texts written.
fn write_retreat_options(map: &Map, units: &[(String, &[Location])], out: &mut Vec<u8>) {
    let mut first = true;
    for (i, (text, options)) in units.iter().enumerate() {
        if units.get(i + 1).is_some_and(|next| next.0 == *text) {
            continue;
        }
        if !first {
            out.push(b',');
        }
        first = false;
        write_str(out, text);
        out.extend_from_slice(b":[");
        for (k, &l) in options.iter().enumerate() {
            if k > 0 {
                out.push(b',');
            }
            out.push(b'"');
            write_loc(map, l, out);
            out.push(b'"');
        }
        out.push(b']');
    }
}

#[cfg(test)]
mod tests {
    use super::super::{run_phase, PhaseInput};
    use super::*;

    /// The general way of a line: serde, [`run_phase`], serde again.
    fn general(map: &Map, line: &str) -> Result<Vec<u8>, String> {
        let input: PhaseInput = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let out = run_phase(map, &input)?;
        Ok(serde_json::to_vec(&out).unwrap())
    }

    /// The fast way: [`PhaseLine::read`] and [`write_phase`].
    fn fast(map: &Map, line: &str) -> Option<Result<Vec<u8>, String>> {
        let input = PhaseLine::read(line)?;
        let mut out = Vec::new();
        Some(write_phase(map, &input, &mut out).map(|()| out))
    }

    /// Every order a unit of `units` might be given in the phase `phase`:
    /// a few plain ones, in the short form and not.
    fn orders_for(phase: &str, units: &serde_json::Value) -> serde_json::Value {
        let mut orders = serde_json::Map::new();
        if let Some(units) = units.as_object() {
            for (power, list) in units {
                let mut texts = Vec::new();
                for (i, u) in list.as_array().unwrap().iter().enumerate() {
                    let u = u.as_str().unwrap();
                    let text = match (phase.as_bytes().last(), i % 4) {
                        (Some(b'M'), 0) => format!("{u} H"),
                        (Some(b'M'), 1) => format!("{u} - BUR"),
                        (Some(b'M'), 2) => format!("{} {} S A PAR", &u[..1], &u[2..]),
                        (Some(b'A'), 0) => format!("REMOVE {u}"),
                        (Some(b'A'), _) => "BUILD A PAR".to_string(),
                        _ => format!("{}, {u} hold", u.to_lowercase()),
                    };
                    texts.push(serde_json::Value::from(text));
                }
                orders.insert(power.clone(), texts.into());
            }
        }
        orders.into()
    }

    /// On the DATC positions and the positions after them (retreats and
    /// adjustments among them), written plainly and with white space, the
    /// fast way gives the bytes of the general way.
    #[test]
    fn fast_lines_are_written_as_serde_writes_them() {
        let map = Map::standard();
        let mut lines = Vec::new();
        for file in [
            include_str!("../../tests/datc/v2.4.jsonl"),
            include_str!("../../tests/datc/v3.jsonl"),
        ] {
            for line in file.lines() {
                let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
                let o = v.as_object_mut().unwrap();
                o.retain(|k, _| {
                    ["phase", "units", "centers", "homes", "retreats", "orders"]
                        .contains(&k.as_str())
                });
                lines.push(v.to_string());
                lines.push(serde_json::to_string_pretty(&v).unwrap().replace('\n', " "));
            }
        }
        let mut next_lines = Vec::new();
        let mut fast_count = 0;
        for line in &lines {
            let want = general(map, line);
            let Some(got) = fast(map, line) else {
                continue;
            };
            fast_count += 1;
            assert_eq!(
                got.as_ref()
                    .map(|b| String::from_utf8_lossy(b).into_owned()),
                want.as_ref()
                    .map(|b| String::from_utf8_lossy(b).into_owned()),
                "{line}"
            );
            if let Ok(out) = want {
                let out: serde_json::Value = serde_json::from_slice(&out).unwrap();
                let mut next = out["next"].clone();
                let phase = next["phase"].as_str().unwrap().to_string();
                next["orders"] = orders_for(&phase, &next["units"]);
                next_lines.push(next.to_string());
            }
        }
        assert!(fast_count >= 300, "{fast_count}");
        for line in &next_lines {
            let got = fast(map, line).expect("a plain line");
            assert_eq!(got, general(map, line), "{line}");
        }
    }

    #[test]
    fn short_forms_and_phase_names_as_written_by_the_engine() {
        let map = Map::standard();
        let pos = Position::standard_start(map);
        for u in &pos.units {
            for to in map.locations() {
                for kind in [
                    OrderKind::Hold,
                    OrderKind::Move {
                        to,
                        via_convoy: to.0 % 2 == 0,
                    },
                    OrderKind::Support {
                        unit: UnitType::Fleet,
                        from: map.province_of(to),
                        to: Some(to),
                    },
                    OrderKind::Support {
                        unit: UnitType::Army,
                        from: map.province_of(to),
                        to: None,
                    },
                    OrderKind::Convoy {
                        from: map.province_of(u.location),
                        to: map.province_of(to),
                    },
                    OrderKind::Retreat { to },
                    OrderKind::Disband,
                    OrderKind::Build,
                    OrderKind::Remove,
                    OrderKind::Waive,
                ] {
                    let o = Order::new(u.power, u.kind, u.location, kind);
                    let mut out = Vec::new();
                    write_short(map, &o, &mut out);
                    assert_eq!(String::from_utf8(out).unwrap(), o.short(map));
                }
            }
        }
        for text in ["S1901M", "F1901R", "W1901A", "S0M", "F65535M", "W2000A"] {
            let phase: Phase = text.parse().unwrap();
            let mut out = Vec::new();
            write_phase_name(&mut out, phase);
            assert_eq!(out, serde_json::to_vec(&phase.to_string()).unwrap());
        }
    }

    /// The random numbers a line of the property test below is built
    /// from (drawn by proptest, so that it can shrink them), read in turn,
    /// round and round; and whether this line may have faults in its
    /// position (a quarter of them do).
    struct Draws {
        values: Vec<u64>,
        at: usize,
        faulty: bool,
    }

    impl Draws {
        fn new(values: Vec<u64>) -> Draws {
            let mut r = Draws {
                values,
                at: 0,
                faulty: false,
            };
            r.faulty = r.chance(25);
            r
        }

        /// Now and then, in a line that may have faults.
        fn fault(&mut self) -> bool {
            self.faulty && self.chance(8)
        }

        /// The next number; each round through the values differs.
        fn next(&mut self) -> u64 {
            let n = self.values.len();
            let round = (self.at / n) as u64;
            let v = self.values[self.at % n];
            self.at += 1;
            v ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }

        fn chance(&mut self, percent: u64) -> bool {
            self.next() % 100 < percent
        }

        fn pick<T: Copy>(&mut self, items: &[T]) -> T {
            items[self.below(items.len())]
        }

        fn power(&mut self) -> Power {
            self.pick(&Power::ALL)
        }

        /// A location where a unit of this kind may stand (with a fault,
        /// anywhere).
        fn location(&mut self, map: &Map, kind: UnitType) -> Location {
            let fault = self.fault();
            let places: Vec<Location> = map
                .locations()
                .filter(|&l| fault || map.can_stand(kind, l))
                .collect();
            self.pick(&places)
        }

        /// A power's name as a key: upper case, now and then as a name,
        /// with a fault unknown.
        fn power_key(&mut self, power: Power) -> String {
            if self.fault() {
                "ITALIA".to_string()
            } else if self.chance(5) {
                power.name().to_string()
            } else {
                power.upper().to_string()
            }
        }
    }

    /// Pushes `text` onto the list of `key` in the object `of`.
    fn push(of: &mut serde_json::Value, key: String, text: String) {
        let list = of
            .as_object_mut()
            .unwrap()
            .entry(key)
            .or_insert_with(|| serde_json::json!([]));
        list.as_array_mut().unwrap().push(text.into());
    }

    fn unit_type(r: &mut Draws) -> UnitType {
        if r.chance(50) {
            UnitType::Army
        } else {
            UnitType::Fleet
        }
    }

    /// Random units: mostly one a province, now and then two, or where
    /// they cannot stand, or spelled loosely.
    fn random_units(r: &mut Draws, map: &Map) -> (serde_json::Value, Vec<Unit>) {
        let mut json = serde_json::json!({});
        let mut units: Vec<Unit> = Vec::new();
        for _ in 0..r.below(30) {
            let kind = unit_type(r);
            let location = r.location(map, kind);
            let p = map.province_of(location);
            if units.iter().any(|u| map.province_of(u.location) == p) && !r.fault() {
                continue;
            }
            let power = r.power();
            let text = format!("{} {}", kind.letter(), map.loc_abbr(location));
            let text = if r.fault() {
                format!("X {}", map.loc_abbr(location))
            } else if r.chance(3) {
                format!(" {} ", text.to_lowercase())
            } else {
                text
            };
            push(&mut json, r.power_key(power), text);
            units.push(Unit {
                power,
                kind,
                location,
            });
        }
        (json, units)
    }

    /// Random lists of provinces per power (centres or homes): mostly
    /// supply centres, now and then not, or a coast.
    fn random_provinces(r: &mut Draws, map: &Map) -> serde_json::Value {
        let mut centres: Vec<Province> = map.supply_centres().collect();
        let mut taken = 0;
        let mut json = serde_json::json!({});
        for _ in 0..r.below(centres.len()) {
            let text = if r.fault() {
                let any = Province(r.below(map.province_count()) as u8);
                r.pick(&[map.abbr(any), "STP/NC"]).to_string()
            } else {
                // Each centre at most once.
                let left = centres.len() - taken;
                let k = taken + r.below(left);
                centres.swap(taken, k);
                taken += 1;
                map.abbr(centres[taken - 1]).to_string()
            };
            let power = r.power();
            let key = r.power_key(power);
            push(&mut json, key, text);
        }
        json
    }

    /// Random dislodged units with random retreat options.
    fn random_retreats(r: &mut Draws, map: &Map) -> serde_json::Value {
        let mut json = serde_json::json!({});
        for _ in 0..r.below(4) {
            let kind = unit_type(r);
            let unit = format!("{} {}", kind.letter(), map.loc_abbr(r.location(map, kind)));
            let options: Vec<String> = (0..r.below(4))
                .map(|_| map.loc_abbr(r.location(map, kind)))
                .collect();
            let power = r.power();
            let key = r.power_key(power);
            let of = json
                .as_object_mut()
                .unwrap()
                .entry(key)
                .or_insert_with(|| serde_json::json!({}));
            of[unit] = options.into();
        }
        json
    }

    /// A random order for `unit`: any kind, any places, valid or not.
    fn random_order(r: &mut Draws, map: &Map, unit: &Unit) -> Order {
        let to = r.location(map, unit.kind);
        let other = map.province_of(r.location(map, UnitType::Army));
        let kind = match r.below(10) {
            0 => OrderKind::Hold,
            1 | 2 => OrderKind::Move {
                to,
                via_convoy: r.chance(10),
            },
            3 => OrderKind::Support {
                unit: unit_type(r),
                from: other,
                to: r.chance(60).then_some(to),
            },
            4 => OrderKind::Convoy {
                from: other,
                to: map.province_of(to),
            },
            5 => OrderKind::Retreat { to },
            6 => OrderKind::Disband,
            7 => OrderKind::Build,
            8 => OrderKind::Remove,
            _ => OrderKind::Waive,
        };
        Order::new(unit.power, unit.kind, unit.location, kind)
    }

    /// Random orders for the units (and a few others): in the short form,
    /// the long form, or not orders at all.
    fn random_orders(r: &mut Draws, map: &Map, units: &[Unit]) -> serde_json::Value {
        let mut json = serde_json::json!({});
        let mut givers: Vec<Unit> = units.to_vec();
        for _ in 0..r.below(4) {
            let kind = unit_type(r);
            givers.push(Unit {
                power: r.power(),
                kind,
                location: r.location(map, kind),
            });
        }
        for unit in &givers {
            let order = random_order(r, map, unit);
            let text = match r.below(20) {
                0..=9 => order.short(map),
                10..=16 => order.long(map),
                17 => "A PAR -".to_string(),
                18 => "hold everything, s'il vous plaît".to_string(),
                _ => String::new(),
            };
            push(&mut json, r.power_key(unit.power), text);
        }
        json
    }

    /// A random input line as a JSON value: a phase, a position (legal or
    /// not) and orders for it.
    fn random_line(draws: Vec<u64>) -> serde_json::Value {
        let map = Map::standard();
        let r = &mut Draws::new(draws);
        let phase = if r.fault() {
            "X1901M"
        } else {
            r.pick(&[
                "S1901M", "F1901M", "F1901R", "S1903R", "W1901A", "W1907A", "F1950M",
            ])
        };
        let (units, list) = random_units(r, map);
        let mut line = serde_json::json!({ "phase": phase, "units": units });
        if r.chance(70) {
            line["centers"] = random_provinces(r, map);
        }
        if r.chance(15) {
            line["homes"] = random_provinces(r, map);
        }
        if phase.ends_with('R') || r.fault() {
            line["retreats"] = random_retreats(r, map);
        }
        if r.chance(90) {
            line["orders"] = random_orders(r, map, &list);
        }
        line
    }

    /// The line written compactly or with white space.
    fn text_of(line: &serde_json::Value, pretty: bool) -> String {
        if pretty {
            serde_json::to_string_pretty(line)
                .unwrap()
                .replace('\n', "\r\n\t")
        } else {
            line.to_string()
        }
    }

    /// The same line in forms the fast path must refuse (an escape, a null,
    /// a key it does not know), which serde reads as the line itself.
    fn refused_forms(line: &serde_json::Value) -> Vec<String> {
        let phase = line["phase"].as_str().unwrap();
        let escaped = format!("\"\\u{:04x}{}\"", phase.as_bytes()[0], &phase[1..]);
        let mut forms = vec![line
            .to_string()
            .replacen(&format!("\"{phase}\""), &escaped, 1)];
        let mut with_svg = line.clone();
        with_svg["svg"] = false.into();
        forms.push(with_svg.to_string());
        if line.get("homes").is_none() {
            let mut with_null = line.clone();
            with_null["homes"] = serde_json::Value::Null;
            forms.push(with_null.to_string());
        }
        forms
    }

    fn show(r: Result<Vec<u8>, String>) -> Result<String, String> {
        r.map(|b| String::from_utf8_lossy(&b).into_owned())
    }

    proptest::proptest! {
        /// For random positions and orders, the fast path reads every plain
        /// line and writes the bytes (or the error) of the serde path; it
        /// refuses the lines it must, which serde reads as the same line.
        #[test]
        fn fast_path_writes_the_bytes_of_the_serde_path(
            draws in proptest::collection::vec(proptest::num::u64::ANY, 1..400),
            pretty: bool,
        ) {
            let map = Map::standard();
            let line = random_line(draws);
            let text = text_of(&line, pretty);
            let want = general(map, &text);
            let got = fast(map, &text).expect("a plain line is read in place");
            proptest::prop_assert_eq!(show(got), show(want.clone()), "{}", text);
            for form in refused_forms(&line) {
                proptest::prop_assert!(fast(map, &form).is_none(), "{}", form);
                proptest::prop_assert_eq!(show(general(map, &form)), show(want.clone()), "{}", form);
            }
        }
    }
}
