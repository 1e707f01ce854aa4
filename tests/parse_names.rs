//! Every way a player may write every province, tried on the whole map
//! (generated, not hand-picked), in every shape of order that names it: a
//! move there, a supported move, a convoy, a hold, a supported hold. The
//! order reads as that province, or, only where the spelling really is
//! shared by provinces that would all make a legal order, is refused
//! naming each of them. Never as another province, and never refused when
//! one reading is legal (the rulebook, VIII.4: "A badly written order,
//! which nevertheless can have only one meaning, must be followed").
//!
//! The spellings of a province: its abbreviation, full name and the map's
//! other names (`Nrg`, `Eng Ch`, `St. P.`); and, for its full name and
//! every alias of several words, each word cut to any prefix (at least
//! three letters for a name of one word), the words apart, each with a
//! full stop, or joined by hyphens (`Mid-Atl.`), the kind words (`Sea`,
//! `Ocean`, `Gulf`, `of`, `Channel`, `Bight`) written, cut or left out;
//! all in lower, upper and title case.
//!
//! What a spelling may name is worked out here from those rules alone
//! (`Spelling::names`), and what is legal from the map's adjacencies: the
//! expectation does not come from the parser. Where a spelling's last
//! words could name a province on their own (`Atl.` in `Mid-Atl.`), the
//! supported hold is given from where that reading would be legal too, so
//! a reading that splits one name in two is tried; a convoy's fleet is
//! alone at sea, so a destination only more fleets could reach is tried
//! against one it reaches (`F Bar C A Stp - Nor`).

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
            // `North Atl`, `North. Atl.`, `Mid-Atl`, `Mid-Atl.`.
            for (sep, end) in [(" ", ""), (". ", "."), ("-", ""), ("-", ".")] {
                if sep == "-" && ph.len() < 2 {
                    continue;
                }
                let text = format!("{}{end}", ph.join(sep));
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

    /// Among destinations some plain and some weak (reached only by a
    /// convoy the fleets on the board cannot make): the literal reading
    /// first, then plain ones before weak ones.
    fn names_tiered(&self, plain: &[Province], weak: &[Province]) -> Vec<Province> {
        let literal = |set: &[Province]| -> Vec<Province> {
            set.iter().copied().filter(|&q| self.literal(q)).collect()
        };
        [literal(plain), literal(weak), self.names(plain)]
            .into_iter()
            .find(|v| !v.is_empty())
            .unwrap_or_else(|| self.names(weak))
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
    /// Refused, although the spelling names one province that makes a
    /// legal order: against the rulebook (VIII.4).
    one_meaning_refused: Vec<String>,
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
            ([only], Err(e)) => self.one_meaning_refused.push(format!(
                "{text:?}: only {} is legal, refused: {e}",
                m.name(*only)
            )),
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

    /// Prints the counts, and fails on any order refused with one legal
    /// reading or misread.
    fn report(&self, shapes: &str, per_province: &[(String, usize)]) {
        let counts: Vec<String> = per_province
            .iter()
            .map(|(a, n)| format!("{a} {n}"))
            .collect();
        let spellings: usize = per_province.iter().map(|(_, n)| n).sum();
        println!(
            "spellings: {spellings} over {} provinces; orders tried ({shapes}): {}; read as the \
             province meant: {}; read as the province the spelling literally names: {}; refused \
             as shared, naming every candidate: {}; refused with one legal reading: {}; \
             misread: {}\nspellings per province: {}",
            per_province.len(),
            self.tried,
            self.read_as_named,
            self.literally_another,
            self.refused_as_shared,
            self.one_meaning_refused.len(),
            self.failures.len(),
            counts.join(", ")
        );
        let listed = |v: &[String]| v.iter().take(60).cloned().collect::<Vec<_>>().join("\n");
        assert!(
            self.one_meaning_refused.is_empty(),
            "{} of {} orders refused although one reading is legal:\n{}",
            self.one_meaning_refused.len(),
            self.tried,
            listed(&self.one_meaning_refused)
        );
        assert!(
            self.failures.is_empty(),
            "{} of {} orders misread:\n{}",
            self.failures.len(),
            self.tried,
            listed(&self.failures)
        );
    }
}

/// One spelling of province `p`, and a unit (`kind` at `from`) that can
/// move there: the orders each shape makes of it.
struct Case {
    p: Province,
    kind: UnitType,
    from: Location,
    text: String,
    spelling: Spelling,
}

impl Case {
    fn unit_letter(&self) -> char {
        self.kind.letter()
    }

    fn origin_abbr(&self) -> &'static str {
        map().loc_abbr_str(self.from)
    }

    /// Where a unit of this kind stands in `q`: its first coast, if it
    /// has two.
    fn standing(&self, q: Province) -> Location {
        map().coasts(q).first().copied().unwrap_or(q.location())
    }

    /// The move there.
    fn move_there(&self, tally: &mut Tally) {
        let m = map();
        let pos = spring(vec![unit(Power::England, self.kind, self.from)]);
        let expected = self.spelling.names(&moves(self.kind, self.from));
        let text = format!(
            "{} {} - {}",
            self.unit_letter(),
            self.origin_abbr(),
            self.text
        );
        tally.check(&pos, &text, self.p, &expected, |o| match o.kind {
            OrderKind::Move { to, .. } => Some(m.province_of(to)),
            _ => None,
        });
    }

    /// Support of another unit's move there.
    fn support_move(&self, tally: &mut Tally) {
        let m = map();
        let (p, kind, from) = (self.p, self.kind, self.from);
        let Some(at) = m
            .locations()
            .filter(|&l| {
                m.can_stand(kind, l)
                    && m.province_of(l) != p
                    && m.province_of(l) != m.province_of(from)
            })
            .find(|&l| m.adjacent(kind, l, p.location()))
        else {
            return;
        };
        let pos = spring(vec![
            unit(Power::England, kind, from),
            unit(Power::France, kind, at),
        ]);
        let legal = moves(kind, from);
        let both: Vec<Province> = moves(kind, at)
            .into_iter()
            .filter(|q| legal.contains(q))
            .collect();
        let expected = self.spelling.names(&both);
        let u = self.unit_letter();
        let text = format!(
            "{u} {} S {u} {} - {}",
            self.origin_abbr(),
            m.loc_abbr(at),
            self.text
        );
        tally.check(&pos, &text, p, &expected, |o| match o.kind {
            OrderKind::Support { to: Some(to), .. } => Some(m.province_of(to)),
            _ => None,
        });
    }

    /// The unit standing there, holding, among the player's units in
    /// every other province the spelling may name.
    fn hold(&self, tally: &mut Tally) {
        let m = map();
        let mut units = vec![unit(Power::England, self.kind, self.standing(self.p))];
        let mut standing = vec![self.p];
        for q in m.provinces() {
            if q != self.p && (self.spelling.literal(q) || self.spelling.begins(q)) {
                let k = match m.terrain(q) {
                    Terrain::Land => UnitType::Army,
                    Terrain::Impassable => continue,
                    _ => UnitType::Fleet,
                };
                units.push(unit(Power::England, k, self.standing(q)));
                standing.push(q);
            }
        }
        let pos = spring(units);
        let expected = self.spelling.names(&standing);
        let held = |o: &Order| (o.kind == OrderKind::Hold).then(|| m.province_of(o.location));
        tally.check(&pos, &format!("{} H", self.text), self.p, &expected, held);
    }

    /// Support of another power's unit holding there (`F Iri S F
    /// Mid-Atl.`): the one unit the spelling may name.
    fn support_hold(&self, tally: &mut Tally) {
        let m = map();
        let (p, kind) = (self.p, self.kind);
        let at = self.split_supporter().unwrap_or(self.from);
        let pos = spring(vec![
            unit(Power::England, kind, at),
            unit(Power::France, kind, self.standing(p)),
        ]);
        let expected = self.spelling.names(&[p]);
        let u = self.unit_letter();
        let text = format!("{u} {} S {u} {}", m.loc_abbr_str(at), self.text);
        tally.check(&pos, &text, p, &expected, |o| match o.kind {
            OrderKind::Support { from, to: None, .. } => Some(from),
            _ => None,
        });
    }

    /// A place next to `p` from which a unit could also support the move
    /// from `p` to a province the spelling's last words may name on their
    /// own (`Atl.` in `Mid-Atl.`: from the Irish Sea, the North Atlantic):
    /// where the spelling read as two names makes a legal order too.
    fn split_supporter(&self) -> Option<Location> {
        let m = map();
        let (p, kind) = (self.p, self.kind);
        let next: Vec<Province> = m
            .provinces()
            .filter(|&q| q != p && m.reaches(kind, self.standing(p), q))
            .collect();
        let onward: Vec<Province> = (1..self.spelling.words.len())
            .map(|k| Spelling {
                words: self.spelling.words[k..].to_vec(),
            })
            .flat_map(|tail| {
                next.iter()
                    .copied()
                    .filter(|&q| tail.literal(q) || tail.begins(q))
                    .collect::<Vec<_>>()
            })
            .collect();
        m.locations().find(|&l| {
            m.can_stand(kind, l)
                && m.province_of(l) != p
                && m.reaches(kind, l, p)
                && onward
                    .iter()
                    .any(|&q| q != m.province_of(l) && m.reaches(kind, l, q))
        })
    }

    /// A fleet's convoy of another power's army there, the fleet alone
    /// on the seas: destinations it borders are plain, those that would
    /// need more fleets are not a second meaning (`F Bar C A Stp - Nor.`).
    fn convoy_there(&self, tally: &mut Tally) {
        let m = map();
        let p = self.p;
        let coast = |q: Province| m.terrain(q) == Terrain::Coast;
        let sea = m
            .provinces()
            .find(|&q| m.terrain(q) == Terrain::Sea && m.fleet_adjacent_provinces(q, p));
        let (true, Some(sea)) = (coast(p), sea) else {
            return;
        };
        let Some(origin) = m
            .provinces()
            .find(|&q| q != p && coast(q) && m.fleet_adjacent_provinces(sea, q))
        else {
            return;
        };
        let landings = m.provinces().filter(|&q| q != origin && coast(q));
        let (plain, weak): (Vec<Province>, Vec<Province>) = landings
            .filter(|&q| m.convoy_seas(origin, q).contains(sea.index()))
            .partition(|&q| m.fleet_adjacent_provinces(sea, q));
        let pos = spring(vec![
            unit(Power::England, UnitType::Fleet, sea.location()),
            unit(Power::France, UnitType::Army, origin.location()),
        ]);
        let expected = self.spelling.names_tiered(&plain, &weak);
        let text = format!("F {} C A {} - {}", m.abbr(sea), m.abbr(origin), self.text);
        tally.check(&pos, &text, p, &expected, |o| match o.kind {
            OrderKind::Convoy { to, .. } => Some(to),
            _ => None,
        });
    }
}

/// One shape of order tried on a spelling.
type Shape = fn(&Case, &mut Tally);

/// Every spelling of every province, in each of `shapes`; the number of
/// spellings per province.
fn every_spelling(shapes: &[Shape], tally: &mut Tally) -> Vec<(String, usize)> {
    let m = map();
    let mut per_province: Vec<(String, usize)> = Vec::new();
    for p in m.provinces() {
        if m.terrain(p) == Terrain::Impassable {
            continue;
        }
        let spellings = spellings_of(p);
        let Some((kind, from)) = neighbour(p.location()) else {
            continue;
        };
        for text in &spellings {
            let case = Case {
                p,
                kind,
                from,
                text: text.clone(),
                spelling: Spelling::new(text),
            };
            for shape in shapes {
                shape(&case, tally);
            }
        }
        per_province.push((m.abbr(p).to_string(), spellings.len()));
    }
    per_province
}

/// Every spelling of every province where a unit goes: a move there, a
/// supported move, a convoy, and a fleet's move to each coast.
#[test]
fn every_spelling_of_every_province_as_destination() {
    let mut tally = Tally::default();
    let shapes: [Shape; 3] = [Case::move_there, Case::support_move, Case::convoy_there];
    let per_province = every_spelling(&shapes, &mut tally);
    coasts(&mut tally);
    tally.report("moves, supported moves, convoys, coasts", &per_province);
}

/// Every spelling of every province where a unit stands: it holds, or
/// another power's unit there is supported to hold.
#[test]
fn every_spelling_of_every_province_as_standing_unit() {
    let mut tally = Tally::default();
    let shapes: [Shape; 2] = [Case::hold, Case::support_hold];
    let per_province = every_spelling(&shapes, &mut tally);
    tally.report("holds, supported holds", &per_province);
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
