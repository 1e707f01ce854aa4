//! Province names as players write them.
//!
//! A phrase of words names a province in one of two ways:
//! - literally: it is a spelling the map knows (abbreviation, full name,
//!   alias), compared without case, spaces, dots or hyphens (`St. P.`,
//!   `Mid-Atlantic`), or such a spelling with a kind word (`Nwg Sea`,
//!   `Bla Sea`: a sea's abbreviation and "Sea");
//! - otherwise: each of its words begins a word of one of the province's
//!   spellings, in order (`Norw. Sea`, `W. Med.`, `Gulf of L.`, `Tyr Sea`,
//!   `Ion`), or, failing every such reading, it is a near miss of one
//!   (`Marsailles`, `Constantinopel`, by Damerau-Levenshtein distance).
//!
//! A kind word (`Sea`, `Ocean`, `Gulf`, `of`, `Channel`, `Bight`) narrows
//! the phrase to seas, and to those whose own name has that word (or no
//! kind word at all: `Skagerrak Sea`). A word never names a province none
//! of whose words it begins. Which reading an order follows is decided
//! against the position (`mod.rs`): the literal one when it makes a legal
//! order, else the one other reading that does.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

use crate::map::{Map, Province, Terrain};

/// How a written name matched.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(super) enum How {
    /// A spelling of the map.
    #[default]
    Exact,
    /// The start of one or more spellings.
    Prefix,
    /// A near miss of one or more spellings.
    Fuzzy,
}

/// Words that say what kind of water a province is.
const KIND_WORDS: [&str; 6] = ["sea", "ocean", "gulf", "of", "channel", "bight"];

/// Whether `w` (normalised) is a kind word: `Sea`, `Ocean`, `Gulf`, `of`,
/// `Channel`, `Bight`.
pub(super) fn is_kind_word(w: &str) -> bool {
    matches!(w, "sea" | "ocean" | "gulf" | "of" | "channel" | "bight")
}

/// A lone word must be this long to be read as the start of a name (`Ion`,
/// `Nor`): a letter or two alone names nothing (`A Par - B`).
const MIN_LONE_PREFIX: usize = 3;

/// What a phrase may name: its literal readings and, apart from those, the
/// other readings of its words, each list in the map's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Named {
    pub literal: Vec<Province>,
    pub other: Vec<Province>,
    /// How `other` matched (`Prefix` or `Fuzzy`); `Exact` when it is empty.
    pub how: How,
}

/// Names longer than this are not compared letter by letter.
const MAX_FUZZY_CHARS: usize = 40;

/// The map's spellings, normalised.
#[derive(Clone)]
pub(super) struct NameIndex {
    exact: HashMap<String, Vec<Province>>,
    /// (spelling, its length in chars, province), sorted.
    all: Vec<(String, usize, Province)>,
    /// Per province: whether its abbreviation, written alone before the
    /// words that follow a province in the short form of orders, can only
    /// be read as that province (see `short`).
    plain: Vec<bool>,
    /// Whether no spelling starts with `build`, `remove` or `waive`: then
    /// a short-form order starting so can be no name (see `short`).
    plain_verbs: bool,
    /// Every spelling by its words, joined by spaces (`n africa`): a phrase
    /// of several words is a literal spelling only word for word (`Nor A`
    /// is not `nora`, North Africa, run together).
    exact_words: HashMap<String, Vec<Province>>,
    /// Per province: every spelling of more than two letters as its words
    /// (`["mid", "atlantic", "ocean"]`).
    worded: Vec<Vec<Vec<String>>>,
    /// Every word of those spellings, sorted, with the provinces whose
    /// spellings have it (bits by province id): which provinces a written
    /// word may begin a word of, by binary search, before any spelling is
    /// matched word by word.
    word_provinces: Vec<(String, u128)>,
    /// Per province: a sea, and one whose full name has a kind word.
    sea: Vec<bool>,
    kind_named: Vec<bool>,
    /// Per province: the kind words its spellings have (bits by the
    /// place in `KIND_WORDS`).
    kinds_had: Vec<u8>,
}

/// Whether `rest`, after a province's abbreviation, joins it to the words
/// that follow it in a short-form order into a name that could make
/// another complete and valid reading: `{abbr} S A {abbr} - ...` and
/// `{abbr} C A {abbr} - ...` read as a move from a province so spelt,
/// `... - {abbr} VIA CONVOY` as a move to one. (Other joins leave words no
/// order continues with, or only a unit with no order, which is never
/// valid.)
fn short_tail(rest: &str, abbrs: &[String]) -> bool {
    rest == "viaconvoy"
        || ["sa", "sf", "ca", "cf"].iter().any(|lead| {
            rest.strip_prefix(lead)
                .is_some_and(|x| abbrs.iter().any(|a| a == x))
        })
}

/// A spelling's words, normalised: "Mid-Atlantic Ocean" → mid, atlantic, ocean.
fn words_of(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(norm)
        .collect()
}

/// Normalised spellings, each to its provinces.
type Spellings = HashMap<String, Vec<Province>>;

/// Adds `p` to the provinces of `key`, once.
fn add_once(index: &mut Spellings, key: String, p: Province) {
    let e = index.entry(key).or_default();
    if !e.contains(&p) {
        e.push(p);
    }
}

/// The map's spellings, normalised: each to its provinces, and all of
/// them as (spelling, its length in chars, province), sorted.
fn spellings(map: &Map) -> (Spellings, Vec<(String, usize, Province)>) {
    let mut exact = Spellings::new();
    let mut all = Vec::new();
    for (s, p) in map.spellings() {
        let k = norm(s);
        if k.is_empty() {
            continue;
        }
        add_once(&mut exact, k.clone(), p);
        let n = k.chars().count();
        all.push((k, n, p));
    }
    all.sort();
    all.dedup();
    (exact, all)
}

/// Per province: whether its abbreviation alone can only be read as it,
/// in the short form of orders (see `NameIndex::plain`).
fn plain_abbreviations(map: &Map, exact: &Spellings) -> Vec<bool> {
    let abbrs: Vec<String> = map.provinces().map(|p| norm(map.abbr(p))).collect();
    map.provinces()
        .map(|p| {
            let abbr = norm(map.abbr(p));
            let alone = exact.get(&abbr).is_some_and(|c| c[..] == [p]);
            // No spelling of several words is the abbreviation and the
            // words that may follow it in a short form (`Nth S A Lon`
            // is never one name).
            let joined = exact.keys().any(|k| {
                k.len() > abbr.len() && k.starts_with(&abbr) && short_tail(&k[abbr.len()..], &abbrs)
            });
            alone && !joined && abbr.len() == map.abbr(p).len()
        })
        .collect()
}

/// Per province: every spelling of more than two letters as its words,
/// sorted.
fn worded_spellings(map: &Map) -> Vec<Vec<Vec<String>>> {
    let mut worded: Vec<Vec<Vec<String>>> = vec![Vec::new(); map.province_count()];
    for (s, p) in map.spellings() {
        let ws = words_of(s);
        if norm(s).len() > 2 && !worded[p.index()].contains(&ws) {
            worded[p.index()].push(ws);
        }
    }
    for spellings in &mut worded {
        spellings.sort();
    }
    worded
}

/// Every word of the spellings, sorted, with the provinces (bits by id)
/// whose spellings have it.
fn word_provinces(worded: &[Vec<Vec<String>>]) -> Vec<(String, u128)> {
    let mut word_provinces: Vec<(String, u128)> = Vec::new();
    for (p, spellings) in worded.iter().enumerate() {
        for w in spellings.iter().flatten() {
            word_provinces.push((w.clone(), 1u128 << p));
        }
    }
    word_provinces.sort();
    word_provinces.dedup_by(|later, first| {
        let same = later.0 == first.0;
        if same {
            first.1 |= later.1;
        }
        same
    });
    word_provinces
}

/// The kind words a province's spellings have (bits by the place in
/// `KIND_WORDS`).
fn kind_word_bits(spellings: &[Vec<String>]) -> u8 {
    let mut bits = 0u8;
    for w in spellings.iter().flatten() {
        if let Some(i) = KIND_WORDS.iter().position(|k| k == w) {
            bits |= 1 << i;
        }
    }
    bits
}

/// Lower case, letters and digits only: "St. P." → "stp".
pub(super) fn norm(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

static STANDARD: OnceLock<NameIndex> = OnceLock::new();

impl NameIndex {
    /// The index of `map`: built once for the standard map.
    pub(super) fn of(map: &Map) -> Cow<'static, NameIndex> {
        if std::ptr::eq(map, Map::standard()) {
            Cow::Borrowed(STANDARD.get_or_init(|| NameIndex::new(map)))
        } else {
            Cow::Owned(NameIndex::new(map))
        }
    }

    pub(super) fn new(map: &Map) -> NameIndex {
        let (exact, all) = spellings(map);
        let worded = worded_spellings(map);
        let word_provinces = word_provinces(&worded);
        let kinds_had = map
            .provinces()
            .map(|p| kind_word_bits(&worded[p.index()]))
            .collect();
        let mut exact_words = Spellings::new();
        for (s, p) in map.spellings() {
            add_once(&mut exact_words, words_of(s).join(" "), p);
        }
        NameIndex {
            plain: plain_abbreviations(map, &exact),
            plain_verbs: !exact.keys().any(|k| {
                ["build", "remove", "waive"]
                    .iter()
                    .any(|v| k.starts_with(v))
            }),
            exact,
            all,
            exact_words,
            worded,
            word_provinces,
            sea: map
                .provinces()
                .map(|p| map.terrain(p) == Terrain::Sea)
                .collect(),
            kind_named: map
                .provinces()
                .map(|p| words_of(map.name(p)).iter().any(|w| is_kind_word(w)))
                .collect(),
            kinds_had,
        }
    }

    /// The provinces some spelling of which has a word that `w` begins.
    fn begun_by(&self, w: &str) -> u128 {
        let from = self.word_provinces.partition_point(|(x, _)| x.as_str() < w);
        self.word_provinces[from..]
            .iter()
            .take_while(|(x, _)| x.starts_with(w))
            .fold(0, |bits, (_, b)| bits | b)
    }

    /// What the phrase `words` (normalised, as written) may name; `None`
    /// when nothing. Near misses are tried only when `fuzzy` allows and
    /// nothing else fits.
    pub(super) fn named(&self, words: &[&str], fuzzy: bool) -> Option<Named> {
        let (kinds, content): (Vec<&str>, Vec<&str>) =
            words.iter().copied().partition(|w| is_kind_word(w));
        // Only provinces every written word (but a kind word standing
        // apart) begins a word of can be named, literally or not: most
        // phrases are ruled out here, by binary search.
        let maybe = content
            .iter()
            .fold(u128::MAX, |bits, w| bits & self.begun_by(w));
        if maybe == 0 || content.is_empty() {
            // Kind words alone may still be an alias (`Channel`); other
            // phrases ruled out spell nothing either.
            let literal = match content.is_empty() {
                true => self.literally(words).to_vec(),
                false => Vec::new(),
            };
            return match (literal.is_empty(), fuzzy) {
                (false, _) => Some(Named {
                    literal,
                    ..Named::default()
                }),
                (true, true) => self.near_miss(words, &kinds),
                (true, false) => None,
            };
        }
        let joined = words.concat();
        let mut literal: Vec<Province> = self.literally(words).to_vec();
        if !kinds.is_empty() {
            for &p in self.literally(&content) {
                if self.kind_fits(p, &kinds) && !literal.contains(&p) {
                    literal.push(p);
                }
            }
        }
        let mut other: Vec<Province> = Vec::new();
        let lone_short = words.len() == 1 && joined.chars().count() < MIN_LONE_PREFIX;
        if !lone_short {
            let mut bits = maybe;
            while bits != 0 {
                let p = Province(bits.trailing_zeros() as u8);
                bits &= bits - 1;
                if !literal.contains(&p)
                    && self.worded[p.index()]
                        .iter()
                        .any(|spelling| self.begins(words, spelling, p))
                {
                    other.push(p);
                }
            }
        }
        if literal.is_empty() && other.is_empty() {
            return if fuzzy {
                self.near_miss(words, &kinds)
            } else {
                None
            };
        }
        let how = if other.is_empty() {
            How::Exact
        } else {
            How::Prefix
        };
        other.sort();
        literal.sort();
        Some(Named {
            literal,
            other,
            how,
        })
    }

    /// A phrase that names nothing read as a misspelling (`Marsailles`,
    /// `Norweigan Sea`), within what its kind words allow.
    fn near_miss(&self, words: &[&str], kinds: &[&str]) -> Option<Named> {
        let (how, mut other) = self.loose(&words.concat())?;
        other.retain(|&p| kinds.is_empty() || self.kind_fits(p, kinds));
        other.sort();
        (!other.is_empty()).then_some(Named {
            literal: Vec::new(),
            other,
            how,
        })
    }

    /// The provinces the phrase spells exactly: one word as it is, written
    /// together (`StP`, `midatlantic`); several word for word (`St. P.`).
    fn literally(&self, words: &[&str]) -> &[Province] {
        let found = match words {
            [one] => self.exact.get(*one),
            _ => self.exact_words.get(&words.join(" ")),
        };
        found.map_or(&[], Vec::as_slice)
    }

    /// Whether the kind words of a phrase fit province `p`: a sea whose
    /// name has each of them, or has none (`Skagerrak Sea`).
    fn kind_fits(&self, p: Province, kinds: &[&str]) -> bool {
        let had = self.kinds_had[p.index()];
        self.sea[p.index()]
            && (!self.kind_named[p.index()]
                || kinds.iter().all(|k| {
                    KIND_WORDS
                        .iter()
                        .position(|x| x == k)
                        .is_some_and(|i| had >> i & 1 == 1)
                }))
    }

    /// Whether each word of `words` begins a word of `spelling`, in order
    /// (a kind word may instead stand apart, where it fits the province),
    /// with at least one word other than a kind word.
    fn begins(&self, words: &[&str], spelling: &[String], p: Province) -> bool {
        fn fit(
            words: &[&str],
            spelling: &[String],
            apart: &dyn Fn(&str) -> bool,
            used: bool,
        ) -> bool {
            let Some((w, rest)) = words.split_first() else {
                return used;
            };
            let content = !is_kind_word(w);
            (0..spelling.len()).any(|k| {
                spelling[k].starts_with(w) && fit(rest, &spelling[k + 1..], apart, used || content)
            }) || (!content && apart(w) && fit(rest, spelling, apart, used))
        }
        let apart = |w: &str| self.kind_fits(p, &[w]);
        fit(words, spelling, &apart, false)
    }

    /// Whether a short-form order may start with `BUILD`, `REMOVE` or
    /// `WAIVE` (no spelling starts so).
    pub(super) fn plain_verbs(&self) -> bool {
        self.plain_verbs
    }

    /// Whether the abbreviation of `p` (in any case), alone or followed
    /// by the words of a short-form order, names `p` and only it, exactly.
    pub(super) fn plain_abbr(&self, p: Province) -> bool {
        self.plain.get(p.index()).copied().unwrap_or(false)
    }

    /// The provinces `key` (normalised) may mean when it is no exact
    /// spelling: those it is a prefix of (three letters at least), else the
    /// nearest by edit distance (one edit for four to six letters, two from
    /// seven; only against spellings of four letters or more, so that a
    /// three-letter typo never turns into another abbreviation).
    pub(super) fn loose(&self, key: &str) -> Option<(How, Vec<Province>)> {
        let n = key.chars().count();
        if n >= 3 {
            let mut c: Vec<Province> = Vec::new();
            for (s, len, p) in &self.all {
                if *len > n && s.starts_with(key) && !c.contains(p) {
                    c.push(*p);
                }
            }
            if !c.is_empty() {
                return Some((How::Prefix, c));
            }
        }
        let limit = match n {
            0..=3 => return None,
            4..=6 => 1,
            _ if n > MAX_FUZZY_CHARS => return None,
            _ => 2,
        };
        let mut best = limit + 1;
        let mut c: Vec<Province> = Vec::new();
        for (s, len, p) in &self.all {
            if *len < 4 || len.abs_diff(n) > limit {
                continue;
            }
            let d = distance(key, s);
            if d < best {
                best = d;
                c.clear();
                c.push(*p);
            } else if d == best && !c.contains(p) {
                c.push(*p);
            }
        }
        (!c.is_empty()).then_some((How::Fuzzy, c))
    }
}

/// Damerau-Levenshtein distance (optimal string alignment: insertions,
/// deletions, substitutions and swaps of two neighbours), over chars.
pub(super) fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let m = b.len();
    // Three rows of the table: two back, one back, this one.
    let mut back2 = vec![0usize; m + 1];
    let mut back1: Vec<usize> = (0..=m).collect();
    let mut row = vec![0usize; m + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (back1[j] + 1).min(row[j - 1] + 1).min(back1[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(back2[j - 2] + 1);
            }
            row[j] = v;
        }
        std::mem::swap(&mut back2, &mut back1);
        std::mem::swap(&mut back1, &mut row);
    }
    back1[m]
}

/// Whether two provinces are spelt alike: abbreviations one edit apart
/// (Lvp/Lvn, Pic/Pie) or names two edits apart. What a suggestion may
/// swap one for the other on.
pub(super) fn similar(map: &Map, a: Province, b: Province) -> bool {
    if a == b {
        return false;
    }
    let abbr = |p| map.abbr(p).to_ascii_lowercase();
    let name = |p| norm(map.name(p));
    distance(&abbr(a), &abbr(b)) <= 1 || distance(&name(a), &name(b)) <= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance() {
        assert_eq!(distance("constantinopel", "constantinople"), 1);
        assert_eq!(distance("marsailles", "marseilles"), 1);
        assert_eq!(distance("piccardy", "picardy"), 1);
        assert_eq!(distance("spian", "spain"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
    }

    #[test]
    fn loose_names() {
        let map = Map::standard();
        let ix = NameIndex::new(map);
        let p = |a| map.province_by_abbr(a).unwrap();
        let literal = |words: &[&str]| ix.named(words, false).map(|n| n.literal);
        assert_eq!(literal(&["stp"]), Some(vec![p("STP")]));
        assert_eq!(literal(&["midatlantic"]), Some(vec![p("MAO")]));
        assert_eq!(literal(&["st", "p"]), Some(vec![p("STP")]));
        assert_eq!(literal(&["nwg", "sea"]), Some(vec![p("NWG")]));
        // Run together it would be an alias of North Africa; word for
        // word it begins North Africa and North Atlantic Ocean.
        let nor_a = ix.named(&["nor", "a"], false).unwrap();
        assert!(nor_a.literal.is_empty());
        assert_eq!(nor_a.other, vec![p("NAF"), p("NAO")]);
        // A kind word narrows to seas, and to those that have it.
        let tyr_sea = ix.named(&["tyr", "sea"], false).unwrap();
        assert_eq!((tyr_sea.literal, tyr_sea.other), (vec![], vec![p("TYS")]));
        assert_eq!(ix.named(&["north", "sea"], false).unwrap().other, vec![]);
        let (how, c) = ix.loose("nor").unwrap();
        assert_eq!(how, How::Prefix);
        assert_eq!(c.len(), 5);
        assert_eq!(ix.loose("marsailles"), Some((How::Fuzzy, vec![p("MAR")])));
        assert_eq!(ix.loose("xq"), None);
        assert!(similar(map, p("LVP"), p("LVN")));
        assert!(!similar(map, p("LON"), p("MOS")));
    }
}
