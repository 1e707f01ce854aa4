//! The grammar of orders: tokens in, every complete reading of their shape
//! out (`Skel<Place>`), each province slot still holding all the provinces
//! its words may name. Which of them is meant is decided later, against the
//! position (`check`).
//!
//! ```text
//! order   := [power ":"] body
//! body    := build [unit] place | waive | remove [unit] place | disband [unit] place
//!          | "r" [unit] place [[move] place] | retreat [unit] place [move] place
//!          | [unit] place tail
//! tail    := ε | hold | move route [via] | retreat [move] place | disband | remove
//!          | support [nation] [unit] place [hold | move route [via]]
//!          | convoy+ [nation] [unit] place [move route]
//! route   := place (move place)*
//! place   := ["the"] name [coast]
//! coast   := ["/" | "(" | tight "-"] (nc | north [coast] | n ...)
//! ```
//!
//! Parsing explores every alternative (how many words a name takes, whether
//! a coast follows, a nationality or not), bounded by a step budget, and
//! remembers the farthest token at which it failed and what it wanted there,
//! for the error message.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use super::lexer::{Kind, Tok};
use super::names::{How, NameIndex};
use super::vocab;
use crate::map::{Coast, Map, Power, Province, UnitType};

/// What the parser wanted where it failed (bits).
pub(super) const PROVINCE: u8 = 1;
pub(super) const VERB: u8 = 2;
pub(super) const END: u8 = 4;

const MAX_PARSES: usize = 16;
const BUDGET: u32 = 4000;
/// The longest name, in words ("Mid Atlantic Ocean", "Gulf of Lyons").
const MAX_NAME_WORDS: usize = 5;

/// A province slot as written: the provinces it may name, its literal
/// readings first (see `names`), and the coast written after it.
#[derive(Clone, Debug)]
pub(super) struct Place {
    /// The byte range of the name in the order's text (without the coast).
    pub start: usize,
    pub end: usize,
    /// Shared: a slot's places are cloned into every reading of its order.
    pub cands: Rc<[Province]>,
    /// How many of `cands`, from the first, are literal readings.
    pub literal: usize,
    /// How the others matched.
    pub how: How,
    pub coast: Option<Coast>,
}

impl Place {
    /// The readings tried first: the literal ones, if there are any.
    pub(super) fn preferred(&self) -> &[Province] {
        match self.literal {
            0 => &self.cands,
            n => &self.cands[..n],
        }
    }
}

/// What an order says, once its slots are filled (`P` is a `Place` or a
/// chosen province).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Verb<P> {
    /// A unit and no order: `A Par`.
    Missing,
    Hold,
    /// `route` ends at the destination; seas before it when spelt out.
    Move {
        route: Vec<P>,
        via: bool,
    },
    Support {
        nat: Option<Power>,
        unit: Option<UnitType>,
        from: P,
        /// Empty for a support to hold.
        route: Vec<P>,
    },
    Convoy {
        nat: Option<Power>,
        unit: Option<UnitType>,
        from: P,
        route: Vec<P>,
    },
    Retreat {
        to: P,
    },
    Disband,
    Remove,
    Build,
    Waive,
    /// A leading `R`: remove (adjustments) or retreat (retreats).
    LeadR {
        to: Option<P>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Skel<P> {
    /// `France:` before the order.
    pub prefix: Option<Power>,
    /// The ordered unit's type, when written.
    pub unit: Option<UnitType>,
    /// The ordered unit's province (the build's, for a build).
    pub at: Option<P>,
    pub verb: Verb<P>,
}

impl<P> Skel<P> {
    /// The province slots in a fixed order: `at`, then the verb's.
    pub(super) fn places(&self) -> Vec<&P> {
        let mut v: Vec<&P> = self.at.iter().collect();
        match &self.verb {
            Verb::Move { route, .. } => v.extend(route),
            Verb::Support { from, route, .. } | Verb::Convoy { from, route, .. } => {
                v.push(from);
                v.extend(route);
            }
            Verb::Retreat { to } | Verb::LeadR { to: Some(to) } => v.push(to),
            _ => {}
        }
        v
    }

    /// The same order with every slot passed through `f`, in the order of
    /// `places`.
    pub(super) fn map<Q>(&self, f: &mut impl FnMut(&P) -> Q) -> Skel<Q> {
        let at = self.at.as_ref().map(&mut *f);
        let verb = match &self.verb {
            Verb::Missing => Verb::Missing,
            Verb::Hold => Verb::Hold,
            Verb::Move { route, via } => Verb::Move {
                route: route.iter().map(&mut *f).collect(),
                via: *via,
            },
            Verb::Support {
                nat,
                unit,
                from,
                route,
            } => Verb::Support {
                nat: *nat,
                unit: *unit,
                from: f(from),
                route: route.iter().map(&mut *f).collect(),
            },
            Verb::Convoy {
                nat,
                unit,
                from,
                route,
            } => Verb::Convoy {
                nat: *nat,
                unit: *unit,
                from: f(from),
                route: route.iter().map(&mut *f).collect(),
            },
            Verb::Retreat { to } => Verb::Retreat { to: f(to) },
            Verb::Disband => Verb::Disband,
            Verb::Remove => Verb::Remove,
            Verb::Build => Verb::Build,
            Verb::Waive => Verb::Waive,
            Verb::LeadR { to } => Verb::LeadR {
                to: to.as_ref().map(&mut *f),
            },
        };
        Skel {
            prefix: self.prefix,
            unit: self.unit,
            at,
            verb,
        }
    }

    /// The same order with the unit types left out (for suggestions: the
    /// types are then taken from the position).
    pub(super) fn without_unit_types(mut self) -> Skel<P> {
        self.unit = None;
        if let Verb::Support { unit, .. } | Verb::Convoy { unit, .. } = &mut self.verb {
            *unit = None;
        }
        self
    }
}

/// The readings of an order's shape, or where the parser got stuck.
pub(super) struct Syntax {
    pub parses: Vec<Skel<Place>>,
    /// Per parse: whether it splits one name in two (`splits_a_name`).
    pub splits: Vec<bool>,
    /// The farthest token reached without a reading, and what was wanted
    /// there (`PROVINCE | VERB | END`).
    pub far: usize,
    pub expect: u8,
    /// The step budget ran out (a pathological order).
    pub exhausted: bool,
}

pub(super) fn parse(toks: &[Tok], names: &NameIndex, map: &Map) -> Syntax {
    let p = Parser {
        t: toks,
        names,
        map,
        budget: Cell::new(BUDGET),
        far: Cell::new(0),
        expect: Cell::new(0),
        cache: RefCell::new(HashMap::new()),
    };
    let parses = p.order();
    let splits = match parses.len() {
        0 | 1 => vec![false; parses.len()],
        _ => parses.iter().map(|s| p.splits_a_name(s)).collect(),
    };
    Syntax {
        parses,
        splits,
        far: p.far.get(),
        expect: p.expect.get(),
        exhausted: p.budget.get() == 0,
    }
}

/// A name starting at some token: the token after it, the byte where it
/// ends, its readings (the literal ones first), how many are literal, and
/// how the other ones matched.
type NameMatch = (usize, usize, Rc<[Province]>, usize, How);
type Alts<T> = Vec<(usize, T)>;
type Supported = (Option<Power>, Option<UnitType>, Place);

struct Parser<'a> {
    t: &'a [Tok],
    names: &'a NameIndex,
    map: &'a Map,
    budget: Cell<u32>,
    far: Cell<usize>,
    expect: Cell<u8>,
    cache: RefCell<HashMap<usize, Vec<NameMatch>>>,
}

impl Parser<'_> {
    fn spend(&self) -> bool {
        let b = self.budget.get();
        if b == 0 {
            return false;
        }
        self.budget.set(b - 1);
        true
    }

    fn fail(&self, i: usize, what: u8) {
        if i > self.far.get() {
            self.far.set(i);
            self.expect.set(what);
        } else if i == self.far.get() {
            self.expect.set(self.expect.get() | what);
        }
    }

    fn word(&self, i: usize) -> Option<&str> {
        self.t
            .get(i)
            .filter(|t| t.kind == Kind::Word)
            .map(|t| t.norm.as_str())
    }

    fn is(&self, i: usize, kind: Kind) -> bool {
        self.t.get(i).is_some_and(|t| t.kind == kind)
    }

    fn order(&self) -> Vec<Skel<Place>> {
        let n = self.t.len();
        let mut out = Vec::new();
        for (i, prefix) in self.prefix() {
            for (j, mut s) in self.body(i) {
                if j == n {
                    s.prefix = prefix;
                    out.push(s);
                    if out.len() >= MAX_PARSES {
                        return out;
                    }
                } else {
                    self.fail(j, END);
                }
            }
        }
        out
    }

    /// `France:`, `F:`, `French` before the order.
    fn prefix(&self) -> Alts<Option<Power>> {
        let mut v = vec![(0, None)];
        if let Some(p) = self.word(0).and_then(Power::parse) {
            if self.is(1, Kind::Colon) {
                v = vec![(2, Some(p))];
            } else if vocab::nationality(self.word(0).unwrap_or_default()).is_some() {
                v.push((1, Some(p)));
            }
        }
        v
    }

    fn body(&self, i: usize) -> Alts<Skel<Place>> {
        let mut out = Vec::new();
        if !self.spend() {
            return out;
        }
        let sk = |unit, at, verb| Skel {
            prefix: None,
            unit,
            at,
            verb,
        };
        if let Some(w) = self.word(i) {
            if vocab::is_build(w) {
                if self.word(i + 1).is_some_and(vocab::is_waive) {
                    out.push((i + 2, sk(None, None, Verb::Waive)));
                }
                for (j, unit) in self.unit_opt(i + 1) {
                    for (k, p) in self.place(j) {
                        out.push((k, sk(unit, Some(p), Verb::Build)));
                    }
                }
            }
            if vocab::is_waive(w) {
                let j = if self.word(i + 1).is_some_and(vocab::is_build) {
                    i + 2
                } else {
                    i + 1
                };
                out.push((j, sk(None, None, Verb::Waive)));
            }
            if vocab::is_remove(w) || vocab::is_disband(w) {
                let verb = if vocab::is_remove(w) {
                    Verb::Remove
                } else {
                    Verb::Disband
                };
                for (j, unit) in self.unit_opt(i + 1) {
                    for (k, p) in self.place(j) {
                        out.push((k, sk(unit, Some(p), verb.clone())));
                    }
                }
            }
            if vocab::is_retreat(w) {
                let lead_r = w == "r";
                for (j, unit) in self.unit_opt(i + 1) {
                    for (k, at) in self.place(j) {
                        if lead_r {
                            out.push((k, sk(unit, Some(at.clone()), Verb::LeadR { to: None })));
                        }
                        let m = self.move_op(k).unwrap_or(k);
                        for (e, to) in self.place(m) {
                            let verb = if lead_r {
                                Verb::LeadR { to: Some(to) }
                            } else {
                                Verb::Retreat { to }
                            };
                            out.push((e, sk(unit, Some(at.clone()), verb)));
                        }
                    }
                }
            }
        }
        for (j, unit) in self.unit_opt(i) {
            for (k, at) in self.place(j) {
                for (m, verb) in self.tail(k) {
                    out.push((m, sk(unit, Some(at.clone()), verb)));
                }
            }
        }
        out
    }

    /// What follows the ordered unit.
    fn tail(&self, i: usize) -> Alts<Verb<Place>> {
        let mut out = Vec::new();
        if !self.spend() {
            return out;
        }
        if i == self.t.len() {
            return vec![(i, Verb::Missing)];
        }
        if let Some(w) = self.word(i) {
            if vocab::is_hold(w) {
                out.push((i + 1, Verb::Hold));
            }
            if vocab::is_disband(w) {
                out.push((i + 1, Verb::Disband));
            }
            if vocab::is_remove(w) {
                out.push((i + 1, Verb::Remove));
            }
            if vocab::is_retreat(w) {
                let j = self.move_op(i + 1).unwrap_or(i + 1);
                for (k, to) in self.place(j) {
                    out.push((k, Verb::Retreat { to }));
                }
            }
            if vocab::is_support(w) {
                for (k, (nat, unit, from)) in self.supported(i + 1) {
                    let support = |route| Verb::Support {
                        nat,
                        unit,
                        from: from.clone(),
                        route,
                    };
                    if self.word(k).is_some_and(vocab::is_hold) {
                        out.push((k + 1, support(Vec::new())));
                    }
                    out.push((k, support(Vec::new())));
                    for (e, route) in self.route_after(k) {
                        let (e, _) = self.via(e);
                        out.push((e, support(route)));
                    }
                }
            }
            if vocab::is_convoy(w) {
                let mut j = i + 1;
                while self.word(j).is_some_and(vocab::is_convoy) {
                    j += 1;
                }
                for (k, (nat, unit, from)) in self.supported(j) {
                    let convoy = |route| Verb::Convoy {
                        nat,
                        unit,
                        from: from.clone(),
                        route,
                    };
                    out.push((k, convoy(Vec::new())));
                    for (e, route) in self.route_after(k) {
                        out.push((e, convoy(route)));
                    }
                }
            }
        }
        for (k, route) in self.route_after(i) {
            let (e, via) = self.via(k);
            out.push((e, Verb::Move { route, via }));
        }
        if out.is_empty() {
            self.fail(i, VERB);
        }
        out
    }

    /// The route of a move after a unit: after a move arrow or word, or
    /// with none (`A Bul Rum`, `S A Bul Rum`), where a province follows.
    fn route_after(&self, i: usize) -> Alts<Vec<Place>> {
        match self.move_op(i) {
            Some(_) => self.move_ops(i).flat_map(|m| self.route(m)).collect(),
            None if self.word(i).is_some() => {
                // Nothing is wanted here if no province follows either.
                let (far, expect) = (self.far.get(), self.expect.get());
                let routes = self.route(i);
                if routes.is_empty() {
                    self.far.set(far);
                    self.expect.set(expect);
                }
                routes
            }
            None => Vec::new(),
        }
    }

    /// The unit a support or convoy is for: `[nation] [unit] place`.
    fn supported(&self, i: usize) -> Alts<Supported> {
        let mut nats = vec![(i, None)];
        if let Some(p) = self.word(i).and_then(vocab::nationality) {
            nats.insert(0, (i + 1, Some(p)));
        }
        let mut out = Vec::new();
        for (j, nat) in nats {
            for (k, unit) in self.unit_opt(j) {
                for (m, from) in self.place(k) {
                    out.push((m, (nat, unit, from)));
                }
            }
        }
        out
    }

    /// One place, then more after each move arrow: `Lon - Nth - Bel`.
    fn route(&self, i: usize) -> Alts<Vec<Place>> {
        let mut out = Vec::new();
        if !self.spend() {
            return out;
        }
        for (k, p) in self.place(i) {
            if self.move_op(k).is_none() {
                out.push((k, vec![p]));
                continue;
            }
            for m in self.move_ops(k) {
                for (e, rest) in self.route(m) {
                    let mut r = Vec::with_capacity(rest.len() + 1);
                    r.push(p.clone());
                    r.extend(rest);
                    out.push((e, r));
                }
            }
        }
        out
    }

    /// `via convoy`, `by c`, `(via convoy)`, `via`.
    fn via(&self, i: usize) -> (usize, bool) {
        let j = if self.is(i, Kind::Open) { i + 1 } else { i };
        if self.word(j).is_some_and(vocab::is_via) {
            if self.word(j + 1).is_some_and(vocab::is_via_object) {
                return (j + 2, true);
            }
            return (j + 1, true);
        }
        (i, false)
    }

    /// One or more arrows or move words (`-`, `moves to`).
    fn move_op(&self, i: usize) -> Option<usize> {
        let mut j = i;
        while self.is(j, Kind::Dash) || self.word(j).is_some_and(vocab::is_move) {
            j += 1;
        }
        (j > i).then_some(j)
    }

    /// Where a run of arrows and move words starting at `i` may end, the
    /// longest first: a move word may also begin a name (`- M. A. O.`).
    fn move_ops(&self, i: usize) -> impl Iterator<Item = usize> + use<'_> {
        let end = self.move_op(i).unwrap_or(i);
        (i + 1..=end)
            .rev()
            .filter(move |&j| j == end || self.word(j).is_some())
    }

    /// The unit type written at `i`, if any. A unit word followed by
    /// another word, or a tight hyphen and a word, may also begin a name
    /// (`A. Sea`, `A-Sea`: Adriatic or Aegean; `Arm`: Armenia).
    fn unit_opt(&self, i: usize) -> impl Iterator<Item = (usize, Option<UnitType>)> {
        let hyphen = self.is(i + 1, Kind::Dash) && self.t[i + 1].tight;
        let name_follows = self.word(i + 1).is_some() || hyphen && self.word(i + 2).is_some();
        let (first, also) = match self.word(i).and_then(vocab::unit) {
            Some(u) if !self.is(i + 1, Kind::Colon) => {
                ((i + 1, Some(u)), name_follows.then_some((i, None)))
            }
            _ => ((i, None), None),
        };
        std::iter::once(first).chain(also)
    }

    fn place(&self, i: usize) -> Alts<Place> {
        let mut out = Vec::new();
        if !self.spend() {
            return out;
        }
        let mut starts = vec![i];
        if self.word(i) == Some("the") {
            starts.push(i + 1);
        }
        for s in starts {
            for (j, end, cands, literal, how) in self.names_at(s) {
                let base = Place {
                    start: self.t[s].start,
                    end,
                    literal,
                    cands,
                    how,
                    coast: None,
                };
                if let Some((k, c)) = self.coast(j) {
                    out.push((
                        k,
                        Place {
                            coast: Some(c),
                            ..base.clone()
                        },
                    ));
                }
                out.push((j, base));
            }
        }
        if out.is_empty() {
            self.fail(i, PROVINCE);
        }
        out
    }

    /// The names that start at token `i`: every phrase of one to five
    /// words (longest first; words may be joined by a tight hyphen,
    /// `Mid-Atlantic`) that names something (`NameIndex::named`). Near
    /// misses only for phrases without order words or hyphens, longer than
    /// any phrase that names something: `Piccardy S` is no name, and
    /// `Mid Atl` is not `Mid` followed by nonsense.
    fn names_at(&self, i: usize) -> Vec<NameMatch> {
        if let Some(v) = self.cache.borrow().get(&i) {
            return v.clone();
        }
        // (next token, end byte, crosses a hyphen, holds an order word);
        // the phrase's words are the first as many of `words`.
        let mut phrases: Vec<(usize, usize, bool, bool)> = Vec::new();
        let mut words: Vec<&str> = Vec::new();
        let (mut k, mut dash, mut kw) = (i, false, false);
        while let Some(w) = self.word(k) {
            words.push(w);
            // A power's adjective may open a name (`English Ch`), but is
            // no name alone (`S Russian A ...` is not Prussia).
            kw |= vocab::is_keyword(w) && vocab::nationality(w).is_none();
            let lone_nation = phrases.is_empty() && vocab::nationality(w).is_some();
            phrases.push((k + 1, self.t[k].end, dash, kw || lone_nation));
            k += 1;
            if phrases.len() == MAX_NAME_WORDS {
                break;
            }
            if self.is(k, Kind::Dash) && self.t[k].tight && self.word(k + 1).is_some() {
                dash = true;
                k += 1;
            }
        }
        let mut out: Vec<NameMatch> = Vec::new();
        for (n, (next, end, dash, kw)) in phrases.iter().enumerate().rev() {
            let fuzzy = !dash && !kw && out.is_empty();
            if let Some(named) = self.names.named(&words[..=n], fuzzy) {
                let literal = named.literal.len();
                let cands = [self.sorted(named.literal), self.sorted(named.other)].concat();
                out.push((*next, *end, cands.into(), literal, named.how));
            }
        }
        self.cache.borrow_mut().insert(i, out.clone());
        out
    }

    /// Whether a parse reads one name as two places side by side, with
    /// nothing or a tight hyphen between them, whose words together name a
    /// province (`Mid-Atl` read as Mid - Atl, `North Atl. Ocean` as North -
    /// Atl. Ocean). Near misses do not count: `Par Bur` is two names.
    fn splits_a_name(&self, skel: &Skel<Place>) -> bool {
        skel.places().windows(2).any(|pair| {
            let (a, b) = (pair[0], pair[1]);
            let Some(first) = self.t.iter().position(|t| t.start == a.start) else {
                return false;
            };
            let gap: Vec<&Tok> = self
                .t
                .iter()
                .filter(|t| t.start >= a.end && t.end <= b.start)
                .collect();
            let joined = match gap[..] {
                [] => true,
                [dash] => dash.kind == Kind::Dash && dash.tight,
                _ => false,
            };
            joined
                && self
                    .names_at(first)
                    .iter()
                    .any(|(_, end, _, literal, how)| {
                        *end == b.end && (*literal > 0 || *how != How::Fuzzy)
                    })
        })
    }

    /// Provinces in the order of their names.
    fn sorted(&self, mut c: Vec<Province>) -> Vec<Province> {
        c.sort_by_key(|&p| self.map.name(p));
        c
    }

    /// A coast after a name: `/nc`, `(nc)`, `nc`, `/north coast`,
    /// `north coast`, `(north)`, `.nc`, `/n`, `-nc`, `n.c.`.
    fn coast(&self, i: usize) -> Option<(usize, Coast)> {
        let t = self.t.get(i)?;
        let (mut k, intro, dash) = match t.kind {
            Kind::Slash | Kind::Open => (i + 1, true, false),
            Kind::Dash if t.tight => (i + 1, true, true),
            _ => (i, false, false),
        };
        let w = self.word(k)?;
        let intro = intro || self.t[k].after_dot;
        let (c, letter) = vocab::coast(w)?;
        let mut full = vocab::is_full_coast(w);
        // `n.c.`: a letter, then `c` right after a full stop.
        let dotted_c = self.word(k + 1) == Some("c") && self.t[k + 1].after_dot;
        if letter && !intro && !dotted_c {
            return None;
        }
        k += 1;
        match self.word(k) {
            Some("coast" | "cst") => {
                k += 1;
                full = true;
            }
            Some("c") if letter && self.t[k].after_dot => {
                k += 1;
                full = true;
            }
            _ => {}
        }
        if dash && !full {
            return None;
        }
        Some((k, c))
    }
}
