//! Every way a player may write every province, tried on the whole map
//! (generated, not hand-picked): the order reads as that province, or,
//! only where the spelling really is shared by provinces that would all
//! make a legal order, is refused naming each of them. Never as another
//! province.
//!
//! The spellings of a province: its abbreviation, full name and the map's
//! other names (`Nrg`, `Eng Ch`, `St. P.`); and, for its full name and
//! every alias of several words, each word cut to any prefix (at least
//! three letters for a name of one word), with or without a full stop
//! after it, the kind words (`Sea`, `Ocean`, `Gulf`, `of`, `Channel`,
//! `Bight`) written, cut or left out; all in lower, upper and title case.
//!
//! What a spelling may name is worked out here from those rules alone
//! (`Spelling::names`), and what is legal from the map's adjacencies: the
//! expectation does not come from the parser.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use judge::engine::map::{Coast, Location, Map, Power, Province, Terrain, UnitType};
use judge::engine::order::{Order, OrderKind};
use judge::engine::parse::parse_order;
use judge::engine::phase::Phase;
use judge::engine::position::{Position, Unit};

const KIND_WORDS: [&str; 6] = ["sea", "ocean", "gulf", "of", "channel", "bight"];

fn map() -> &'static Map {
    Map::standard()
}

fn norm(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(norm)
        .collect()
}

fn is_kind(w: &str) -> bool {
    KIND_WORDS.contains(&w)
}

/// Every spelling of `p` the map lists: abbreviation, name, aliases.
fn listed(p: Province) -> Vec<String> {
    let m = map();
    let mut v = vec![m.abbr(p).to_string(), m.name(p).to_string()];
    v.extend(m.aliases(p).iter().map(|a| a.to_string()));
    v
}

/// A listed spelling, normalised and as its words.
type Listed = (String, Vec<String>);

/// Per province: each listed spelling, normalised and as its words (made
/// once: the checks below ask for them millions of times).
fn table() -> &'static [Vec<Listed>] {
    static TABLE: OnceLock<Vec<Vec<Listed>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        map()
            .provinces()
            .map(|p| listed(p).iter().map(|s| (norm(s), words(s))).collect())
            .collect()
    })
}

/// The spellings generated for `p`, as written.
fn spellings_of(p: Province) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for s in listed(p) {
        for case in cases(&s) {
            out.insert(case);
        }
    }
    // Word prefixes of the name and of every alias of several words.
    let mut sources: Vec<Vec<String>> = vec![words(map().name(p))];
    for a in map().aliases(p) {
        let w = words(a);
        if w.len() > 1 {
            sources.push(w);
        }
    }
    for ws in sources {
        let mut phrases: Vec<Vec<String>> = vec![Vec::new()];
        for w in &ws {
            let mut next = Vec::new();
            for ph in &phrases {
                if is_kind(w) {
                    next.push(ph.clone());
                }
                for n in 1..=w.len() {
                    let mut longer = ph.clone();
                    longer.push(w[..n].to_string());
                    next.push(longer);
                }
            }
            phrases = next;
        }
        for ph in phrases {
            let content = ph.iter().filter(|w| !is_kind(w)).count();
            if content == 0 || (ph.len() == 1 && ph[0].len() < 3) {
                continue;
            }
            for dot in [false, true] {
                let sep = if dot { ". " } else { " " };
                let mut text = ph.join(sep);
                if dot {
                    text.push('.');
                }
                for case in cases(&text) {
                    out.insert(case);
                }
            }
        }
    }
    out
}

fn cases(s: &str) -> [String; 3] {
    let title: String = s
        .split(' ')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    [s.to_lowercase(), s.to_uppercase(), title]
}

/// What a spelling may name, by the rules alone.
struct Spelling {
    words: Vec<String>,
}

impl Spelling {
    fn new(text: &str) -> Spelling {
        Spelling { words: words(text) }
    }

    fn kinds(&self) -> Vec<&str> {
        self.words
            .iter()
            .map(String::as_str)
            .filter(|w| is_kind(w))
            .collect()
    }

    /// Kind words fit a sea whose name has them all, or has none.
    fn kinds_fit(&self, q: Province, kinds: &[&str]) -> bool {
        // The full name is the second spelling listed.
        let spellings = &table()[q.index()];
        map().terrain(q) == Terrain::Sea
            && (!spellings[1].1.iter().any(|w| is_kind(w))
                || kinds
                    .iter()
                    .all(|k| spellings.iter().any(|(_, ws)| ws.iter().any(|w| w == k))))
    }

    /// A spelling of `q` itself, or one with kind words added.
    fn literal(&self, q: Province) -> bool {
        let joined = self.words.concat();
        let content: String = self
            .words
            .iter()
            .filter(|w| !is_kind(w))
            .map(String::as_str)
            .collect();
        let kinds = self.kinds();
        // Word for word: `Nor Sea` is not `norsea` run together.
        let same = |n: &str, ws: &[String]| {
            ws == self.words.as_slice() || (self.words.len() == 1 && n == joined)
        };
        table()[q.index()].iter().any(|(n, ws)| {
            same(n, ws)
                || (!kinds.is_empty()
                    && !content.is_empty()
                    && *n == content
                    && self.kinds_fit(q, &kinds))
        })
    }

    /// Each word begins a word of a spelling of `q`, in order (a kind
    /// word may stand apart where it fits).
    fn begins(&self, q: Province) -> bool {
        let content = self.words.iter().filter(|w| !is_kind(w)).count();
        if content == 0 || (self.words.len() == 1 && self.words[0].len() < 3) {
            return false;
        }
        table()[q.index()]
            .iter()
            .filter(|(n, _)| n.len() > 2)
            .any(|(_, ws)| self.fits(&self.words, ws, q))
    }

    fn fits(&self, ws: &[String], name: &[String], q: Province) -> bool {
        let Some((w, rest)) = ws.split_first() else {
            return true;
        };
        (0..name.len())
            .any(|k| name[k].starts_with(w.as_str()) && self.fits(rest, &name[k + 1..], q))
            || (is_kind(w) && self.kinds_fit(q, &[w.as_str()]) && self.fits(rest, name, q))
    }

    /// The provinces among `legal` the spelling should be read as: the
    /// literal ones if any is legal, else those its words begin.
    fn names(&self, legal: &[Province]) -> Vec<Province> {
        let lit: Vec<Province> = legal.iter().copied().filter(|&q| self.literal(q)).collect();
        if !lit.is_empty() {
            return lit;
        }
        legal.iter().copied().filter(|&q| self.begins(q)).collect()
    }
}

fn unit(power: Power, kind: UnitType, location: Location) -> Unit {
    Unit {
        power,
        kind,
        location,
    }
}

fn spring(units: Vec<Unit>) -> Position {
    let phase: Phase = "S1901M".parse().unwrap();
    let mut pos = Position::empty(map(), phase);
    pos.units = units;
    pos
}

/// A unit that can move into `p` (at `to`): its type and where it stands.
fn neighbour(to: Location) -> Option<(UnitType, Location)> {
    let m = map();
    let p = m.province_of(to);
    let kind = match m.terrain(p) {
        Terrain::Land => UnitType::Army,
        Terrain::Impassable => return None,
        _ => UnitType::Fleet,
    };
    m.locations()
        .filter(|&l| m.can_stand(kind, l) && m.province_of(l) != p)
        .find(|&l| m.adjacent(kind, l, to))
        .map(|l| (kind, l))
}

/// The provinces a unit of `kind` at `from` may move to.
fn moves(kind: UnitType, from: Location) -> Vec<Province> {
    let m = map();
    m.provinces()
        .filter(|&q| m.province_of(from) != q && m.reaches(kind, from, q))
        .collect()
}

#[derive(Default)]
struct Tally {
    tried: usize,
    read_as_named: usize,
    refused_as_shared: usize,
    literally_another: usize,
    failures: Vec<String>,
}

impl Tally {
    /// Checks one order text whose slot under test should name one of
    /// `expected` (the province meant first): read as it when alone, or
    /// refused naming each of them.
    fn check(
        &mut self,
        pos: &Position,
        text: &str,
        meant: Province,
        expected: &[Province],
        read: impl Fn(&Order) -> Option<Province>,
    ) {
        self.tried += 1;
        let m = map();
        let got = parse_order(m, pos, Power::England, text);
        match (expected, got) {
            ([only], Ok(o)) if read(&o) == Some(*only) => {
                if *only == meant {
                    self.read_as_named += 1;
                } else {
                    self.literally_another += 1;
                }
            }
            ([_, _, ..], Err(e)) if expected.iter().all(|&q| e.to_string().contains(m.name(q))) => {
                self.refused_as_shared += 1;
            }
            (_, got) => {
                let names: Vec<&str> = expected.iter().map(|&q| m.name(q)).collect();
                let got = match got {
                    Ok(o) => format!("read as {}", o.short(m)),
                    Err(e) => format!("refused: {e}"),
                };
                self.failures
                    .push(format!("{text:?}: expected {names:?}, {got}"));
            }
        }
    }
}

/// A move's destination, a supported move's destination and a held
/// unit's province, for every spelling of every province.
#[test]
fn every_spelling_of_every_province() {
    let m = map();
    let mut tally = Tally::default();
    let mut per_province: Vec<(String, usize)> = Vec::new();
    for p in m.provinces() {
        if m.terrain(p) == Terrain::Impassable {
            continue;
        }
        let spellings = spellings_of(p);
        let Some((kind, from)) = neighbour(p.location()) else {
            continue;
        };
        let legal = moves(kind, from);
        let u = kind.letter();
        let from_abbr = m.loc_abbr(from);
        // Another unit that can move there too, for the support.
        let second = m
            .locations()
            .filter(|&l| {
                m.can_stand(kind, l)
                    && m.province_of(l) != p
                    && m.province_of(l) != m.province_of(from)
            })
            .find(|&l| m.adjacent(kind, l, p.location()));
        for s in &spellings {
            let spelling = Spelling::new(s);
            let dest = |o: &Order| match o.kind {
                OrderKind::Move { to, .. } => Some(m.province_of(to)),
                _ => None,
            };
            // 1. The move.
            let pos = spring(vec![unit(Power::England, kind, from)]);
            let expected = spelling.names(&legal);
            tally.check(&pos, &format!("{u} {from_abbr} - {s}"), p, &expected, dest);
            // 2. Support of another unit's move there.
            if let Some(at) = second {
                let pos = spring(vec![
                    unit(Power::England, kind, from),
                    unit(Power::France, kind, at),
                ]);
                let both: Vec<Province> = moves(kind, at)
                    .into_iter()
                    .filter(|q| legal.contains(q))
                    .collect();
                let expected = spelling.names(&both);
                let text = format!("{u} {from_abbr} S {u} {} - {s}", m.loc_abbr(at));
                tally.check(&pos, &text, p, &expected, |o| match o.kind {
                    OrderKind::Support { to: Some(to), .. } => Some(m.province_of(to)),
                    _ => None,
                });
            }
            // 3. The unit standing there, holding, among the player's
            // units in every other province the spelling may name.
            let mut units = vec![unit(Power::England, kind, p.location())];
            let mut standing = vec![p];
            for q in m.provinces() {
                if q != p && (spelling.literal(q) || spelling.begins(q)) {
                    let k = match m.terrain(q) {
                        Terrain::Land => UnitType::Army,
                        Terrain::Impassable => continue,
                        _ => UnitType::Fleet,
                    };
                    let l = m.coasts(q).first().copied().unwrap_or(q.location());
                    units.push(unit(Power::England, k, l));
                    standing.push(q);
                }
            }
            let pos = spring(units);
            let expected = spelling.names(&standing);
            let held = |o: &Order| (o.kind == OrderKind::Hold).then(|| m.province_of(o.location));
            tally.check(&pos, &format!("{s} H"), p, &expected, held);
        }
        per_province.push((m.abbr(p).to_string(), spellings.len()));
    }
    coasts(&mut tally);
    let counts: Vec<String> = per_province
        .iter()
        .map(|(a, n)| format!("{a} {n}"))
        .collect();
    let spellings: usize = per_province.iter().map(|(_, n)| n).sum();
    println!(
        "spellings: {spellings} over {} provinces; orders tried (moves, supports, holds, \
         coasts): {}; read as the province meant: {}; read as the province the spelling \
         literally names: {}; refused as shared, naming every candidate: {}; misread: {}\n\
         spellings per province: {}",
        per_province.len(),
        tally.tried,
        tally.read_as_named,
        tally.literally_another,
        tally.refused_as_shared,
        tally.failures.len(),
        counts.join(", ")
    );
    assert!(
        tally.failures.is_empty(),
        "{} of {} orders misread or refused:\n{}",
        tally.failures.len(),
        tally.tried,
        tally
            .failures
            .iter()
            .take(60)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Every coast of the two-coast provinces, in each way a coast is written,
/// after each spelling of the province: a fleet's move there.
fn coasts(tally: &mut Tally) {
    let m = map();
    for p in m.provinces() {
        for &c in m.coasts(p) {
            let Some((kind, from)) = neighbour(c) else {
                continue;
            };
            let coast = m.coast_of(c).expect("a coast");
            let (short, word) = match coast {
                Coast::North => ("nc", "north"),
                Coast::South => ("sc", "south"),
                Coast::East => ("ec", "east"),
            };
            let suffixes = [
                format!("/{short}"),
                format!("({short})"),
                format!(" {short}"),
                format!(" {word} coast"),
                format!("/{word}"),
                format!(" ({word})"),
            ];
            let pos = spring(vec![unit(Power::England, kind, from)]);
            for s in spellings_of(p) {
                for suffix in &suffixes {
                    let text = format!("F {} - {s}{suffix}", m.loc_abbr(from));
                    tally.tried += 1;
                    match parse_order(m, &pos, Power::England, &text) {
                        Ok(o)
                            if o.kind
                                == (OrderKind::Move {
                                    to: c,
                                    via_convoy: false,
                                }) =>
                        {
                            tally.read_as_named += 1
                        }
                        got => tally
                            .failures
                            .push(format!("{text:?}: expected {}, got {got:?}", m.loc_name(c))),
                    }
                }
            }
        }
    }
}
