//! The player-facing order parser: the orders players mail, in all their
//! spellings, read against the position into the engine's `Order`s — or
//! refused with a sentence saying why, and the nearest valid order when
//! there is exactly one. Pure: text in, orders or errors out.
//!
//! - `lexer`: words and signs.
//! - `names`: province names (exact, prefix, misspelt).
//! - `vocab`: the other words of orders.
//! - `grammar`: the shapes of orders, with each province slot still open.
//! - `check`: one reading against the position and the phase.
//! - `message`: `OrderError` and the English of the messages.
//! - `short`: the short form of the JSON interface (`A PAR - BUR`), read
//!   directly (a fast path; anything else goes through the above).
//!
//! What players may write (any case, dots and hyphens as they like):
//!
//! - places: abbreviations, full names, the map's aliases (`St. P.`,
//!   `Norw. Sea`, `Mid-Atlantic`, `nat`, `gol`, `ech`), prefixes (`Pari`,
//!   `North Atl`) and misspellings (`Marsailles`); coasts as `/nc`, `(nc)`,
//!   `nc`, `north coast`, `(north)`, `.nc`, `/n`, `-nc`, `n.c.`;
//! - the unit type, optional (`A`, `F`, `Army`, `Fleet`), taken from the board;
//! - `-`, `->`, `=>`, `m`, `move(s) (to)`, `to`; `H`, `hold(s)`, `stand(s)`;
//!   `S`, `support(s)`; `C`, `convoy(s)`, `T`, `transport(s)`; a nationality
//!   before a supported or convoyed unit (`S Russian A War - Pru`);
//! - convoy routes (`A Lon-Nth-Bel`), `via convoy`, `by convoy`, `via c`;
//! - retreats: `A Bur - Gas`, `A Bur R Gas`, `R A Bur Gas`, `A Bur retreats to
//!   Gas`, `A Bur disband`, `D A Bur`;
//! - adjustments: `Build A Par`, `B F StP/nc`, `Build Par` (inland: an army),
//!   `Remove A Mun`, `Disband A Mun`, `R A Mun`, `Waive`, `W`;
//! - a power's name first, if it is the player's: `France: A Par - Bur`,
//!   `F: A Par - Bur`; several orders on a line, split by `,` or `;`.
//!
//! The rulebook's rule decides between readings: an order that admits two
//! meanings is not followed; a badly written order that can have only one
//! meaning is. So a slot whose words name several provinces (`Nor`: North
//! Africa, North Atlantic Ocean, North Sea, Norwegian Sea, Norway; or a
//! misspelling) is resolved when exactly one of its provinces makes a valid
//! order, and refused, naming them, otherwise. A fleet's coast is filled
//! in only when it can reach just one. An army's move to a province it does
//! not border is accepted when some convoy could carry it (the adjudicator
//! decides), but such a reading gives way to one by land; so does a convoy
//! order the fleets on the board cannot complete (`F Bar C A Stp - Nor` is
//! Norway, not North Africa), and a reading that splits one name in two
//! (`F Iri S F Mid-Atl` is no support of a move from `Mid` to `Atl`: a
//! hyphen inside a name is part of it).

mod check;
mod grammar;
mod lexer;
mod message;
mod names;
mod short;
mod vocab;

use std::borrow::Cow;

pub use message::OrderError;

use check::{Checked, Checker, Pick, Problem};
use grammar::{Place, Skel, Syntax, Verb};
use lexer::{Kind, Tok};
use message::{friendly, or_list};
use names::{How, NameIndex};

use super::map::{Map, Power, Province};
use super::order::Order;
use super::phase::{Phase, PhaseKind};
use super::position::{Occupancy, Position};

/// Longer lines are refused whole.
const MAX_LINE_BYTES: usize = 10_000;
/// Orders read from one line; the rest are refused with one error.
const MAX_ORDERS_PER_LINE: usize = 100;
/// Longer orders are refused.
const MAX_ORDER_BYTES: usize = 300;
const MAX_TOKENS: usize = 48;
/// Readings (choices of a province for every unclear slot) checked per order.
const MAX_READINGS: usize = 400;

/// An order read, and whether it was read otherwise than written: the
/// literal reading of a name made no valid order, or its words name
/// several provinces, and the one that makes a valid order was taken
/// (`F Tyr C A Spa - Nap` for the fleet in the Tyrrhenian Sea). The
/// acknowledgement says so.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Understood {
    pub order: Order,
    pub reinterpreted: bool,
}

impl Understood {
    fn plain(order: Order) -> Understood {
        Understood {
            order,
            reinterpreted: false,
        }
    }
}

/// Reads one line of orders for `power`: several orders may be separated
/// by `,` or `;` (or line breaks). Empty pieces are skipped; every other
/// piece gives one result, in order.
pub fn parse_orders(
    map: &Map,
    position: &Position,
    power: Power,
    line: &str,
) -> Vec<Result<Order, OrderError>> {
    let mut out = Vec::new();
    parse_orders_each(map, position, power, line, |r| out.push(r));
    out
}

/// [`parse_orders`], saying of each order whether it was read otherwise
/// than written.
pub fn parse_orders_understood(
    map: &Map,
    position: &Position,
    power: Power,
    line: &str,
) -> Vec<Result<Understood, OrderError>> {
    let mut out = Vec::new();
    OrderReader::new(map, position).read_line_understood(power, line, |r| out.push(r));
    out
}

/// [`parse_orders`], each result handed to `each` in turn.
pub fn parse_orders_each(
    map: &Map,
    position: &Position,
    power: Power,
    line: &str,
    each: impl FnMut(Result<Order, OrderError>),
) {
    OrderReader::new(map, position).read_line(power, line, each)
}

/// Reads one order for `power` in `position` (whose phase decides what
/// the order may be).
pub fn parse_order(
    map: &Map,
    position: &Position,
    power: Power,
    text: &str,
) -> Result<Order, OrderError> {
    OrderReader::new(map, position).read(power, text)
}

/// Checks a line of orders for a phase whose position is not known yet
/// (orders given ahead: njudge's `PHASE`) as far as it can be checked
/// without one: each piece has an order's shape and names provinces of
/// the map. One result a piece, as [`parse_orders`] gives; whether the
/// units stand there and can do it waits for the position.
pub fn check_words(map: &Map, phase: Phase, line: &str) -> Vec<Result<(), OrderError>> {
    let pos = Position::empty(map, phase);
    let reader = OrderReader::new(map, &pos);
    // The power is no matter to the words.
    let cx = reader.context(Power::ALL[0]);
    line.split([',', ';', '\n', '\r'])
        .filter(|piece| piece.chars().any(char::is_alphanumeric))
        .take(MAX_ORDERS_PER_LINE)
        .map(|piece| cx.shapes(piece, false).map(|_| ()))
        .collect()
}

/// Reads orders against one position, for any power: what every order
/// needs of the position (where each unit stands) is made once.
pub struct OrderReader<'a> {
    map: &'a Map,
    pos: &'a Position,
    names: Cow<'static, NameIndex>,
    occupancy: Occupancy,
}

impl<'a> OrderReader<'a> {
    pub fn new(map: &'a Map, pos: &'a Position) -> OrderReader<'a> {
        OrderReader {
            map,
            pos,
            names: NameIndex::of(map),
            occupancy: Occupancy::of(map, pos),
        }
    }

    /// [`parse_order`].
    pub fn read(&self, power: Power, text: &str) -> Result<Order, OrderError> {
        self.context(power).parse(text, true).map(|u| u.order)
    }

    /// [`parse_orders_each`].
    pub fn read_line(
        &self,
        power: Power,
        line: &str,
        mut each: impl FnMut(Result<Order, OrderError>),
    ) {
        self.read_line_understood(power, line, |r| each(r.map(|u| u.order)))
    }

    /// [`OrderReader::read_line`], saying of each order whether it was
    /// read otherwise than written.
    pub fn read_line_understood(
        &self,
        power: Power,
        line: &str,
        mut each: impl FnMut(Result<Understood, OrderError>),
    ) {
        if line.len() > MAX_LINE_BYTES {
            each(Err(OrderError::new(
                line,
                format!(
                    "This line is too long to read ({} characters); write one order per line, \
                     or a few separated by commas.",
                    line.chars().count()
                ),
            )));
            return;
        }
        let cx = self.context(power);
        // One order in the short form: the only piece, read directly.
        if !line
            .bytes()
            .any(|b| matches!(b, b',' | b';' | b'\n' | b'\r'))
        {
            if let Some(order) = short::read(&cx.checker(), cx.names, line) {
                each(Ok(Understood::plain(order)));
                return;
            }
        }
        let mut count = 0;
        for piece in line.split([',', ';', '\n', '\r']) {
            if !piece.chars().any(char::is_alphanumeric) {
                continue;
            }
            if count == MAX_ORDERS_PER_LINE {
                each(Err(OrderError::new(
                    piece,
                    format!(
                        "Too many orders on one line: only the first {MAX_ORDERS_PER_LINE} were read."
                    ),
                )));
                break;
            }
            count += 1;
            each(cx.parse(piece, true));
        }
    }

    fn context(&self, power: Power) -> Context<'_> {
        Context {
            map: self.map,
            pos: self.pos,
            power,
            names: &self.names,
            occupancy: &self.occupancy,
        }
    }
}

/// One reading of an order: which parse, the province chosen for each
/// slot, and the verdict.
struct Reading {
    parse: usize,
    /// Its parse splits one name in two (`grammar::Syntax::splits`).
    splits: bool,
    picks: Vec<Pick>,
    result: Checked,
}

/// Reading orders for one power.
struct Context<'a> {
    map: &'a Map,
    pos: &'a Position,
    power: Power,
    names: &'a NameIndex,
    occupancy: &'a Occupancy,
}

impl<'a> Context<'a> {
    fn checker(&self) -> Checker<'a> {
        Checker {
            map: self.map,
            pos: self.pos,
            power: self.power,
            occupancy: self.occupancy,
        }
    }

    fn parse(&self, text: &str, suggest: bool) -> Result<Understood, OrderError> {
        // The short form of the JSON interface, read directly.
        if let Some(order) = short::read(&self.checker(), self.names, text) {
            return Ok(Understood::plain(order));
        }
        self.parse_full(text, suggest)
    }

    /// The full grammar: every reading of the text, checked.
    fn parse_full(&self, text: &str, suggest: bool) -> Result<Understood, OrderError> {
        let syntax = self.shapes(text, suggest)?;
        self.choose(text, &syntax, suggest)
    }

    /// The shapes the text can have as an order, each province slot still
    /// open; refused when it has none (too long, no order's shape, a word
    /// that names no province where one should stand).
    fn shapes(&self, text: &str, suggest: bool) -> Result<Syntax, OrderError> {
        if text.len() > MAX_ORDER_BYTES {
            return Err(OrderError::new(
                text,
                format!(
                    "This is too long to be an order ({} characters).",
                    text.chars().count()
                ),
            ));
        }
        let toks = lexer::lex(text);
        if toks.is_empty() {
            return Err(OrderError::new(text, "There is no order here."));
        }
        if toks.len() > MAX_TOKENS {
            return Err(OrderError::new(
                text,
                format!("This is too long to be an order ({} words).", toks.len()),
            ));
        }
        let syntax = grammar::parse(&toks, self.names, self.map);
        if syntax.parses.is_empty() {
            return Err(self.syntax_error(text, &toks, &syntax, suggest));
        }
        Ok(syntax)
    }

    /// Checks every reading of every parse; one meaning is followed.
    /// Readings are tried in rounds, the next only when no reading of
    /// the one before makes a valid order: those with every name read
    /// literally; those with each name read literally where it can be
    /// (`Nor` has no literal reading, so all of its provinces are tried);
    /// every reading. An order from the second round chosen among several
    /// provinces, or from the third, is marked as read otherwise than
    /// written.
    fn choose(&self, text: &str, syntax: &Syntax, suggest: bool) -> Result<Understood, OrderError> {
        let mut budget = MAX_READINGS;
        let parses = &syntax.parses[..];
        let readings = |slot: fn(&Place) -> &[Province], budget: &mut usize| {
            self.readings(text, syntax, slot, budget)
        };
        let literal = readings(|p| &p.cands[..p.literal], &mut budget);
        if let Some(v) = self.verdict(text, parses, &literal) {
            return v;
        }
        let preferred = readings(Place::preferred, &mut budget);
        if let Some(v) = self.verdict(text, parses, &preferred) {
            return v;
        }
        let others = parses.iter().any(|skel| {
            skel.places()
                .iter()
                .any(|p| p.preferred().len() < p.cands.len())
        });
        if !others {
            return Err(self.refusal(text, parses, &preferred, suggest));
        }
        let all = readings(|p| &p.cands, &mut budget);
        if let Some(v) = self.verdict(text, parses, &all) {
            return v.map(|u| Understood {
                reinterpreted: true,
                ..u
            });
        }
        // Nothing fits: the literal reading's reason, unless another
        // reading got farther.
        let farthest = |rs: &[Reading]| rs.iter().map(stage).max().unwrap_or(0);
        let pool = if farthest(&all) > farthest(&preferred) {
            &all
        } else {
            &preferred
        };
        Err(self.refusal(text, parses, pool, suggest))
    }

    /// Every reading of every parse, with each slot's provinces from
    /// `slot`, checked (within `budget` readings).
    fn readings(
        &self,
        text: &str,
        syntax: &Syntax,
        slot: impl Fn(&Place) -> &[Province],
        budget: &mut usize,
    ) -> Vec<Reading> {
        let checker = self.checker();
        let mut readings: Vec<Reading> = Vec::new();
        for (pi, skel) in syntax.parses.iter().enumerate() {
            let places = skel.places();
            let splits = syntax.splits[pi];
            let refuse = |readings: &mut Vec<Reading>, text: String| {
                readings.push(Reading {
                    parse: pi,
                    splits,
                    picks: Vec::new(),
                    result: Err(Problem { stage: 0, text }),
                })
            };
            // A misspelling as near to two provinces is never guessed.
            if let Some(tie) = places
                .iter()
                .find(|p| p.how == How::Fuzzy && p.literal == 0 && p.cands.len() > 1)
            {
                refuse(&mut readings, self.could_be(text, tie, &tie.cands));
                continue;
            }
            let sizes: Vec<usize> = places.iter().map(|p| slot(p).len()).collect();
            let total = sizes
                .iter()
                .try_fold(1usize, |acc, &n| acc.checked_mul(n))
                .unwrap_or(usize::MAX);
            if total > *budget {
                refuse(
                    &mut readings,
                    "Too many of its names are unclear to read it: write the provinces' \
                     abbreviations."
                        .to_string(),
                );
                continue;
            }
            *budget -= total;
            for mut index in 0..total {
                let picks: Vec<Pick> = places
                    .iter()
                    .map(|p| {
                        let cands = slot(p);
                        let n = cands.len();
                        let pick = Pick {
                            prov: cands[index % n],
                            coast: p.coast,
                        };
                        index /= n;
                        pick
                    })
                    .collect();
                let result = checker.check(&with_picks(skel, &picks));
                readings.push(Reading {
                    parse: pi,
                    splits,
                    picks,
                    result,
                });
            }
        }
        readings
    }

    /// The order these readings give when some are valid: the one order,
    /// or the ambiguity; `None` when none is valid. Readings that keep
    /// every name whole come before those that split one in two, and
    /// plain ones before weak ones (an unasked convoy, a convoy the
    /// fleets on the board cannot make): those are no second meaning. An
    /// order chosen among several provinces its words may name is marked
    /// reinterpreted.
    fn verdict(
        &self,
        text: &str,
        parses: &[Skel<Place>],
        readings: &[Reading],
    ) -> Option<Result<Understood, OrderError>> {
        let rank = |r: &Reading| (r.splits, r.result.as_ref().map(|v| v.weak).ok());
        let valid = readings.iter().filter(|r| r.result.is_ok());
        let best = valid.clone().map(rank).min()?;
        let pool: Vec<&Reading> = valid.filter(|r| rank(r) == best).collect();
        let mut orders: Vec<Order> = Vec::new();
        for r in &pool {
            if let Ok(v) = &r.result {
                if !orders.contains(&v.order) {
                    orders.push(v.order);
                }
            }
        }
        match orders.len() {
            0 => None,
            1 => {
                // Other provinces the same words name were ruled out.
                let places_tried = readings
                    .iter()
                    .filter(|r| r.parse == pool[0].parse)
                    .map(|r| &r.picks)
                    .collect::<Vec<_>>();
                let chosen = &pool[0].picks;
                let reinterpreted = places_tried
                    .iter()
                    .any(|picks| picks.iter().zip(chosen).any(|(a, b)| a.prov != b.prov));
                Some(Ok(Understood {
                    order: orders[0],
                    reinterpreted,
                }))
            }
            _ => Some(Err(OrderError::new(
                text,
                self.ambiguity(text, parses, &pool, &orders),
            ))),
        }
    }

    /// Several meanings: name the unclear slot's fitting provinces, or
    /// else the readings.
    fn ambiguity(
        &self,
        text: &str,
        parses: &[Skel<Place>],
        pool: &[&Reading],
        orders: &[Order],
    ) -> String {
        let first = pool[0].parse;
        if pool.iter().all(|r| r.parse == first) {
            let places = parses[first].places();
            for (i, place) in places.iter().enumerate() {
                let mut provs: Vec<Province> = Vec::new();
                for r in pool {
                    if !provs.contains(&r.picks[i].prov) {
                        provs.push(r.picks[i].prov);
                    }
                }
                if provs.len() > 1 {
                    provs.sort_by_key(|&p| self.map.name(p));
                    return self.could_be(text, place, &provs);
                }
            }
        }
        let texts: Vec<String> = orders
            .iter()
            .take(3)
            .map(|o| format!("'{}'", friendly(self.map, o)))
            .collect();
        format!("It can be read as {}: say which.", or_list(&texts))
    }

    /// `'Nor' could be North Sea or Norway.`
    fn could_be(&self, text: &str, place: &Place, provs: &[Province]) -> String {
        let names: Vec<&str> = provs.iter().map(|&p| self.map.name(p)).collect();
        format!(
            "'{}' could be {}.",
            text.get(place.start..place.end).unwrap_or_default(),
            or_list(&names)
        )
    }

    /// No meaning: the reason of the reading that got farthest, when the
    /// farthest agree; else the unclear slot's provinces.
    fn refusal(
        &self,
        text: &str,
        parses: &[Skel<Place>],
        readings: &[Reading],
        suggest: bool,
    ) -> OrderError {
        let best = readings.iter().map(stage).max().unwrap_or(0);
        let Some(first) = readings.iter().find(|r| stage(r) == best) else {
            return OrderError::new(text, "This order cannot be read.");
        };
        let top: Vec<&Reading> = readings
            .iter()
            .filter(|r| r.parse == first.parse && stage(r) == best)
            .collect();
        let message = |r: &Reading| {
            r.result
                .as_ref()
                .err()
                .map(|p| p.text.clone())
                .unwrap_or_default()
        };
        let problem = message(first);
        if top.iter().all(|r| message(r) == problem) {
            let mut e = OrderError::new(text, problem);
            if suggest && !first.picks.is_empty() {
                let skel = with_picks(&parses[first.parse], &first.picks);
                e.suggestion = self.suggestion(&skel, best);
            }
            return e;
        }
        let places = parses[first.parse].places();
        match places.iter().find(|p| p.cands.len() > 1) {
            Some(p) => OrderError::new(text, self.could_be(text, p, &p.cands)),
            None => OrderError::new(text, problem),
        }
    }

    /// The one valid order a small edit of this failed reading gives: the
    /// unit types taken from the board, one province swapped for a
    /// like-spelt one nearby, another coast, origin and destination swapped
    /// (when there is no unit at the origin), or a move to where the unit
    /// stands read as a hold.
    ///
    /// The unit's own province is swapped only when the failure was about
    /// it (`stage` 1 or 2: no unit of the player's there, or no home
    /// centre to build in).
    fn suggestion(&self, skel: &Skel<Pick>, stage: u8) -> Option<String> {
        let map = self.map;
        let unit_found = match skel.verb {
            Verb::Build => stage != 1,
            _ => !(1..=2).contains(&stage),
        };
        let mut alts: Vec<Skel<Pick>> = vec![skel.clone().without_unit_types()];
        alts.extend(place_edits(map, skel, unit_found));
        let towards = move_edits(map, skel, stage, &mut alts);
        self.only_valid(&alts)
            .or_else(|| self.only_valid(&towards))
            .map(|o| friendly(map, &o))
    }

    /// The one order these readings give, if they give exactly one. Only
    /// plain readings count: a move that needs a convoy nobody asked for
    /// is no likely meaning.
    fn only_valid(&self, alts: &[Skel<Pick>]) -> Option<Order> {
        let checker = self.checker();
        let mut found: Vec<Order> = Vec::new();
        for alt in alts {
            if let Ok(v) = checker.check(alt) {
                if !v.weak && !found.contains(&v.order) {
                    found.push(v.order);
                }
            }
        }
        match found[..] {
            [o] => Some(o),
            _ => None,
        }
    }

    fn syntax_error(&self, text: &str, toks: &[Tok], syn: &Syntax, suggest: bool) -> OrderError {
        if syn.exhausted {
            return OrderError::new(
                text,
                "This order is too tangled to read: write it more simply.",
            );
        }
        let far = syn.far.min(toks.len());
        let wants = |bit| syn.expect & bit != 0;
        let slice = |t: &Tok| text.get(t.start..t.end).unwrap_or_default();
        let Some(t) = toks.get(far) else {
            let last = toks.last().map(slice).unwrap_or_default();
            let problem = if wants(grammar::PROVINCE) {
                format!("A province should follow '{last}'.")
            } else {
                "The order stops short.".to_string()
            };
            return OrderError::new(text, problem);
        };
        let before = text.get(..t.start).unwrap_or_default().trim_end();
        let prev = far
            .checked_sub(1)
            .map(|i| slice(&toks[i]))
            .unwrap_or_default();
        let here = slice(t);
        let rest = message::shown(text.get(t.start..).unwrap_or_default());
        let kind = self.pos.phase.kind;
        let problem = if far == 0 && t.kind != Kind::Word {
            format!("An order cannot start with '{here}'.")
        } else if wants(grammar::PROVINCE) && t.kind == Kind::Word && !vocab::is_keyword(&t.norm) {
            format!("'{here}' is not a province.")
        } else if wants(grammar::PROVINCE) && far > 0 {
            format!("A province should follow '{prev}', not '{here}'.")
        } else if wants(grammar::PROVINCE) {
            format!("An order cannot start with '{here}': start with the unit, as in A Par - Bur.")
        } else if wants(grammar::VERB) {
            match kind {
                PhaseKind::Movement => format!(
                    "'{here}' is not an order: after '{before}' write H, - and a province, S or C."
                ),
                PhaseKind::Retreat => format!(
                    "'{here}' is not an order: after '{before}' write R and a province, or D."
                ),
                PhaseKind::Adjustment => format!(
                    "'{here}' is not an order: in the adjustment phase write Build, Remove or Waive."
                ),
            }
        } else {
            format!("'{rest}' makes no sense after '{before}'.")
        };
        let mut e = OrderError::new(text, problem);
        // `A Par Bur`: the arrow left out.
        if suggest && wants(grammar::VERB) && t.kind == Kind::Word && kind != PhaseKind::Adjustment
        {
            let fixed = format!("{}- {}", &text[..t.start], &text[t.start..]);
            if let Ok(u) = self.parse(&fixed, false) {
                e.suggestion = Some(friendly(self.map, &u.order));
            }
        }
        e
    }
}

/// How far a reading's checks got (see `check`).
fn stage(r: &Reading) -> u8 {
    r.result.as_ref().err().map_or(0, |p| p.stage)
}

fn with_picks(skel: &Skel<Place>, picks: &[Pick]) -> Skel<Pick> {
    let mut it = picks.iter();
    skel.map(&mut |_| *it.next().expect("a pick per slot"))
}

fn replace(skel: &Skel<Pick>, slot: usize, pick: Pick) -> Skel<Pick> {
    let mut i = 0;
    skel.map(&mut |p| {
        let r = if i == slot { pick } else { *p };
        i += 1;
        r
    })
}

/// Whether provinces `a` and `b` are next to each other, by land or sea.
fn near(map: &Map, a: Province, b: Province) -> bool {
    map.army_adjacent(a, b) || map.fleet_adjacent_provinces(a, b)
}

/// The readings of `skel` with one province swapped for a like-spelt one
/// nearby, or another coast of it; the unit's own province only when the
/// unit was not found. A province swapped in elsewhere than for the unit
/// must lie next to the unit or to the province it replaces.
fn place_edits(map: &Map, skel: &Skel<Pick>, unit_found: bool) -> Vec<Skel<Pick>> {
    let mut alts = Vec::new();
    let places: Vec<Pick> = skel.places().into_iter().copied().collect();
    let home = places.first().map(|p| p.prov);
    for (i, cur) in places.iter().enumerate() {
        if i == 0 && unit_found {
            continue;
        }
        for q in map.provinces() {
            let close = i == 0 || near(map, q, cur.prov) || home.is_some_and(|h| near(map, q, h));
            if close && names::similar(map, cur.prov, q) {
                alts.push(replace(
                    skel,
                    i,
                    Pick {
                        prov: q,
                        coast: None,
                    },
                ));
            }
        }
        for &l in map.coasts(cur.prov) {
            let coast = map.coast_of(l);
            if coast != cur.coast {
                alts.push(replace(
                    skel,
                    i,
                    Pick {
                        prov: cur.prov,
                        coast,
                    },
                ));
            }
        }
    }
    alts
}

/// The edits of a move that failed: to `alts`, origin and destination
/// swapped when the player's unit is at the destination (`F Eng - Lon`
/// for the fleet in London), and a move to where the unit stands read as
/// a hold; returned, to try when those give nothing, the one step from
/// the destination towards the written origin (`F Pic - Lon`:
/// `F Lon - Eng`).
fn move_edits(
    map: &Map,
    skel: &Skel<Pick>,
    stage: u8,
    alts: &mut Vec<Skel<Pick>>,
) -> Vec<Skel<Pick>> {
    let mut towards: Vec<Skel<Pick>> = Vec::new();
    let (Some(at), Verb::Move { route, via }) = (&skel.at, &skel.verb) else {
        return towards;
    };
    if let ([to], 1) = (&route[..], stage) {
        let moved = |dest: Pick| {
            Skel {
                at: Some(*to),
                verb: Verb::Move {
                    route: vec![dest],
                    via: *via,
                },
                ..skel.clone()
            }
            .without_unit_types()
        };
        alts.push(moved(*at));
        for q in map.provinces() {
            if q != to.prov && near(map, q, at.prov) {
                towards.push(moved(Pick {
                    prov: q,
                    coast: None,
                }));
            }
        }
    }
    if let [to] = route[..] {
        if to.prov == at.prov {
            alts.push(Skel {
                verb: Verb::Hold,
                ..skel.clone()
            });
        }
    }
    towards
}
