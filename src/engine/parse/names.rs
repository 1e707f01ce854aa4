//! Province names as players write them: every spelling the map knows
//! (abbreviation, full name, aliases), compared without case, spaces, dots
//! or hyphens; then prefixes (`Nor`, `Sev`, `North Atl`) and misspellings
//! (`Marsailles`, `Constantinopel`) by Damerau-Levenshtein distance.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

use crate::engine::map::{Map, Province};

/// How a written name matched.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum How {
    /// A spelling of the map.
    Exact,
    /// The start of one or more spellings.
    Prefix,
    /// A near miss of one or more spellings.
    Fuzzy,
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
        let mut exact: HashMap<String, Vec<Province>> = HashMap::new();
        let mut all = Vec::new();
        for (s, p) in map.spellings() {
            let k = norm(s);
            if k.is_empty() {
                continue;
            }
            let e = exact.entry(k.clone()).or_default();
            if !e.contains(&p) {
                e.push(p);
            }
            let n = k.chars().count();
            all.push((k, n, p));
        }
        all.sort();
        all.dedup();
        let abbrs: Vec<String> = map.provinces().map(|p| norm(map.abbr(p))).collect();
        let plain = map
            .provinces()
            .map(|p| {
                let abbr = norm(map.abbr(p));
                let alone = exact.get(&abbr).is_some_and(|c| c[..] == [p]);
                // No spelling of several words is the abbreviation and the
                // words that may follow it in a short form (`Nth S A Lon`
                // is never one name).
                let joined = exact.keys().any(|k| {
                    k.len() > abbr.len()
                        && k.starts_with(&abbr)
                        && short_tail(&k[abbr.len()..], &abbrs)
                });
                alone && !joined && abbr.len() == map.abbr(p).len()
            })
            .collect();
        let plain_verbs = !exact.keys().any(|k| {
            ["build", "remove", "waive"]
                .iter()
                .any(|v| k.starts_with(v))
        });
        NameIndex {
            exact,
            all,
            plain,
            plain_verbs,
        }
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

    /// The provinces `key` (normalised) spells exactly.
    pub(super) fn exact(&self, key: &str) -> Option<&[Province]> {
        self.exact.get(key).map(Vec::as_slice)
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
        assert_eq!(ix.exact("stp"), Some(&[p("STP")][..]));
        assert_eq!(ix.exact("midatlantic"), Some(&[p("MAO")][..]));
        let (how, c) = ix.loose("nor").unwrap();
        assert_eq!(how, How::Prefix);
        assert_eq!(c.len(), 5);
        assert_eq!(ix.loose("marsailles"), Some((How::Fuzzy, vec![p("MAR")])));
        assert_eq!(ix.loose("xq"), None);
        assert!(similar(map, p("LVP"), p("LVN")));
        assert!(!similar(map, p("LON"), p("MOS")));
    }
}
