//! The standard board, built once from the plain tables in `map_data.rs`.
//!
//! Provinces and locations are small integer ids so that the adjudicator can
//! keep its per-province state in flat arrays and its adjacency in bitsets.
//! A *location* is where a unit stands: a province, or one coast of a
//! two-coast province (Spain, St Petersburg, Bulgaria). Location ids
//! `0..province_count()` are the provinces themselves; the coasts follow.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

use super::map_data;

/// The seven great powers, in the order of their initials.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Power {
    Austria,
    England,
    France,
    Germany,
    Italy,
    Russia,
    Turkey,
}

impl Power {
    pub const ALL: [Power; 7] = [
        Power::Austria,
        Power::England,
        Power::France,
        Power::Germany,
        Power::Italy,
        Power::Russia,
        Power::Turkey,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    /// "Austria", "England", ...
    pub fn name(self) -> &'static str {
        [
            "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
        ][self.index()]
    }

    /// The upper-case spelling of the JSON interface: "AUSTRIA", ...
    pub fn upper(self) -> &'static str {
        [
            "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
        ][self.index()]
    }

    /// "Austrian", "English", ... as in "the English Army in London".
    pub fn adjective(self) -> &'static str {
        [
            "Austrian", "English", "French", "German", "Italian", "Russian", "Turkish",
        ][self.index()]
    }

    /// The sign-on initial: A E F G I R T.
    pub fn initial(self) -> char {
        self.name().as_bytes()[0] as char
    }

    pub fn from_initial(c: char) -> Option<Power> {
        let c = c.to_ascii_uppercase();
        Power::ALL.into_iter().find(|p| p.initial() == c)
    }

    /// Accepts the name, the adjective, or the initial, in any case.
    pub fn parse(word: &str) -> Option<Power> {
        let w = word.trim();
        if w.len() == 1 {
            return Power::from_initial(w.chars().next()?);
        }
        Power::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(w) || p.adjective().eq_ignore_ascii_case(w))
    }
}

impl fmt::Display for Power {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnitType {
    Army,
    Fleet,
}

impl UnitType {
    pub fn letter(self) -> char {
        match self {
            UnitType::Army => 'A',
            UnitType::Fleet => 'F',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            UnitType::Army => "Army",
            UnitType::Fleet => "Fleet",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Terrain {
    /// Armies only.
    Land,
    /// Armies, and fleets along the coast.
    Coast,
    /// Fleets only.
    Sea,
    /// Switzerland: nobody enters.
    Impassable,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Coast {
    North,
    South,
    East,
}

impl Coast {
    /// "NC", "SC", "EC".
    pub fn abbr(self) -> &'static str {
        match self {
            Coast::North => "NC",
            Coast::South => "SC",
            Coast::East => "EC",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Coast::North => "north coast",
            Coast::South => "south coast",
            Coast::East => "east coast",
        }
    }
}

/// One row of the province table in `map_data.rs`.
pub struct ProvinceRow {
    /// The standard upper-case abbreviation: "STP".
    pub abbr: &'static str,
    /// The full name as the results mail writes it: "St Petersburg".
    pub name: &'static str,
    pub terrain: Terrain,
    pub supply_centre: bool,
    /// The power for which this is a home supply centre.
    pub home: Option<Power>,
    /// The separate coasts of a two-coast province; empty otherwise.
    pub coasts: &'static [Coast],
    /// Other spellings players write, lower-case: "nat", "st. p.", "north atlantic".
    pub aliases: &'static [&'static str],
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Province(pub u8);

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location(pub u8);

impl Province {
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The location of the province as a whole (no coast).
    pub fn location(self) -> Location {
        Location(self.0)
    }
}

impl Location {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A set of locations (or provinces), as a 128-bit bitset.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct LocSet(pub u128);

impl LocSet {
    pub fn contains(self, i: usize) -> bool {
        self.0 >> i & 1 == 1
    }
    pub fn insert(&mut self, i: usize) {
        self.0 |= 1 << i;
    }
    pub fn iter(self) -> impl Iterator<Item = usize> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(i)
        })
    }
}

/// Per power (by [`Power::index`]): home supply centres.
pub type HomeCentres = [Vec<Province>; 7];

pub struct Map {
    provinces: Vec<&'static ProvinceRow>,
    /// For every location id: its province and coast.
    loc_province: Vec<Province>,
    loc_coast: Vec<Option<Coast>>,
    /// For every province: the location ids of its coasts (empty for one-coast provinces).
    coast_locs: Vec<Vec<Location>>,
    /// Per province: the provinces an army can move to.
    army_adj: Vec<LocSet>,
    /// Per location: the locations a fleet can move to.
    fleet_adj: Vec<LocSet>,
    /// Per province: the provinces some fleet location of it borders (for
    /// supports, which name a province, not a coast).
    fleet_adj_province: Vec<LocSet>,
    /// Per province: the seas a convoy could use starting from it (the
    /// seas bordering it and every sea linked to those by other seas).
    sea_reach: Vec<LocSet>,
    /// Lower-case spellings (abbreviation, name, aliases) to provinces.
    names: HashMap<String, Province>,
    /// The abbreviations in upper case, sorted, each with its province (the
    /// first in id order when two differ only in case): binary search.
    by_abbr: Vec<(&'static str, Province)>,
    /// The same for the abbreviations of three ASCII letters, indexed by
    /// the letters (upper case, base 26): province id + 1, or 0.
    by_abbr3: Vec<u8>,
    /// Per power: its home supply centres, in id order (shared with every
    /// position that has the standard ones: no copy per position).
    home_centres: Arc<HomeCentres>,
    /// Per location: [`Map::loc_abbr`].
    loc_abbrs: Vec<String>,
}

static STANDARD: OnceLock<Map> = OnceLock::new();

/// Three ASCII letters, any case, as a number below 26³.
#[inline]
fn abbr3_index(a: &[u8]) -> Option<usize> {
    let [x, y, z] = *a else {
        return None;
    };
    // A letter's place in the alphabet (clearing 0x20 upper-cases an ASCII
    // letter; no other byte lands on one), else 26 or more.
    let n = |c: u8| usize::from((c & !0x20).wrapping_sub(b'A'));
    let (x, y, z) = (n(x), n(y), n(z));
    (x < 26 && y < 26 && z < 26).then_some((x * 26 + y) * 26 + z)
}

/// `a` and `b` compared byte by byte in ASCII upper case.
fn upper_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    a.bytes()
        .map(|c| c.to_ascii_uppercase())
        .cmp(b.bytes().map(|c| c.to_ascii_uppercase()))
}

impl Map {
    /// The standard board of the 1982 rulebook.
    pub fn standard() -> &'static Map {
        STANDARD.get_or_init(|| {
            Map::build(
                map_data::PROVINCES,
                map_data::ARMY_BORDERS,
                map_data::FLEET_BORDERS,
            )
        })
    }

    /// Builds a map from tables. Panics on an inconsistent table: the tables
    /// are compiled in, and the map tests build them.
    pub fn build(
        rows: &'static [ProvinceRow],
        army_borders: &[(&str, &str)],
        fleet_borders: &[(&str, &str)],
    ) -> Map {
        let mut provinces: Vec<&'static ProvinceRow> = rows.iter().collect();
        provinces.sort_by_key(|r| r.abbr);
        let n = provinces.len();
        let mut loc_province: Vec<Province> = (0..n).map(|i| Province(i as u8)).collect();
        let mut loc_coast: Vec<Option<Coast>> = vec![None; n];
        let mut coast_locs = vec![Vec::new(); n];
        for (i, row) in provinces.iter().enumerate() {
            for &c in row.coasts {
                coast_locs[i].push(Location(loc_province.len() as u8));
                loc_province.push(Province(i as u8));
                loc_coast.push(Some(c));
            }
        }
        assert!(loc_province.len() <= 128, "too many locations for LocSet");
        let mut map = Map {
            provinces,
            army_adj: vec![LocSet::default(); n],
            fleet_adj: vec![LocSet::default(); loc_province.len()],
            fleet_adj_province: vec![LocSet::default(); n],
            loc_province,
            loc_coast,
            coast_locs,
            sea_reach: Vec::new(),
            names: HashMap::new(),
            by_abbr: Vec::new(),
            by_abbr3: vec![0; 26 * 26 * 26],
            home_centres: Default::default(),
            loc_abbrs: Vec::new(),
        };
        let mut home_centres = HomeCentres::default();
        map.loc_abbrs = map.locations().map(|l| map.loc_abbr(l)).collect();
        for (i, row) in map.provinces.iter().enumerate() {
            if let Some(power) = row.home {
                home_centres[power.index()].push(Province(i as u8));
            }
        }
        map.home_centres = Arc::new(home_centres);
        let mut by_abbr: Vec<(&'static str, Province)> = map
            .provinces
            .iter()
            .enumerate()
            .map(|(i, r)| (r.abbr, Province(i as u8)))
            .collect();
        by_abbr.sort_by(|a, b| upper_cmp(a.0, b.0).then(a.1.cmp(&b.1)));
        by_abbr.dedup_by(|later, first| upper_cmp(later.0, first.0).is_eq());
        for &(a, p) in &by_abbr {
            if let Some(i) = abbr3_index(a.as_bytes()) {
                map.by_abbr3[i] = p.0 + 1;
            }
        }
        map.by_abbr = by_abbr;
        map.index_names();
        map.add_borders(army_borders, fleet_borders);
        map.sea_reach = map.provinces().map(|p| map.seas_linked_to(p)).collect();
        map
    }

    /// Every province's spellings (abbreviation, name, aliases) in
    /// `names`, lower case; panics on a spelling of two provinces.
    fn index_names(&mut self) {
        for (i, row) in self.provinces.iter().enumerate() {
            let p = Province(i as u8);
            let mut spellings = vec![row.abbr.to_ascii_lowercase(), row.name.to_ascii_lowercase()];
            spellings.extend(row.aliases.iter().map(|a| a.to_ascii_lowercase()));
            for s in spellings {
                if let Some(old) = self.names.insert(s.clone(), p) {
                    assert_eq!(old, p, "spelling {s:?} names two provinces");
                }
            }
        }
    }

    /// The adjacencies of the border tables, both ways.
    fn add_borders(&mut self, army_borders: &[(&str, &str)], fleet_borders: &[(&str, &str)]) {
        for &(a, b) in army_borders {
            let (a, b) = (self.must_province(a), self.must_province(b));
            self.army_adj[a.index()].insert(b.index());
            self.army_adj[b.index()].insert(a.index());
        }
        for &(a, b) in fleet_borders {
            let (a, b) = (self.must_location(a), self.must_location(b));
            self.fleet_adj[a.index()].insert(b.index());
            self.fleet_adj[b.index()].insert(a.index());
            let (pa, pb) = (self.province_of(a), self.province_of(b));
            self.fleet_adj_province[pa.index()].insert(pb.index());
            self.fleet_adj_province[pb.index()].insert(pa.index());
        }
    }

    fn seas_linked_to(&self, p: Province) -> LocSet {
        let is_sea = |q: usize| self.terrain(Province(q as u8)) == Terrain::Sea;
        let mut reach = LocSet::default();
        let mut frontier: Vec<usize> = self.fleet_adj_province[p.index()]
            .iter()
            .filter(|&q| is_sea(q))
            .collect();
        while let Some(q) = frontier.pop() {
            if reach.contains(q) {
                continue;
            }
            reach.insert(q);
            frontier.extend(self.fleet_adj_province[q].iter().filter(|&r| is_sea(r)));
        }
        reach
    }

    /// The seas through which a convoy from `from` to `to` could pass:
    /// those linked by seas to both. Empty when no convoy is conceivable.
    pub fn convoy_seas(&self, from: Province, to: Province) -> LocSet {
        if self.terrain(from) != Terrain::Coast || self.terrain(to) != Terrain::Coast {
            return LocSet::default();
        }
        LocSet(self.sea_reach[from.index()].0 & self.sea_reach[to.index()].0)
    }

    fn must_province(&self, abbr: &str) -> Province {
        self.province_by_abbr(abbr)
            .unwrap_or_else(|| panic!("unknown province {abbr:?} in map table"))
    }

    fn must_location(&self, text: &str) -> Location {
        self.location_by_abbr(text)
            .unwrap_or_else(|| panic!("unknown location {text:?} in map table"))
    }

    pub fn province_count(&self) -> usize {
        self.provinces.len()
    }

    pub fn location_count(&self) -> usize {
        self.loc_province.len()
    }

    pub fn provinces(&self) -> impl Iterator<Item = Province> + '_ {
        (0..self.provinces.len()).map(|i| Province(i as u8))
    }

    pub fn locations(&self) -> impl Iterator<Item = Location> + '_ {
        (0..self.loc_province.len()).map(|i| Location(i as u8))
    }

    fn row(&self, p: Province) -> &'static ProvinceRow {
        self.provinces[p.index()]
    }

    pub fn abbr(&self, p: Province) -> &'static str {
        self.row(p).abbr
    }

    pub fn name(&self, p: Province) -> &'static str {
        self.row(p).name
    }

    pub fn aliases(&self, p: Province) -> &'static [&'static str] {
        self.row(p).aliases
    }

    pub fn terrain(&self, p: Province) -> Terrain {
        self.row(p).terrain
    }

    pub fn is_supply_centre(&self, p: Province) -> bool {
        self.row(p).supply_centre
    }

    pub fn home_of(&self, p: Province) -> Option<Power> {
        self.row(p).home
    }

    /// The home supply centres of a power, in id order.
    pub fn homes(&self, power: Power) -> impl Iterator<Item = Province> + '_ {
        self.home_centres(power).iter().copied()
    }

    /// The home supply centres of a power, in id order.
    pub fn home_centres(&self, power: Power) -> &[Province] {
        &self.home_centres[power.index()]
    }

    /// Every power's home supply centres (shared: cloning is cheap).
    pub fn home_table(&self) -> Arc<HomeCentres> {
        Arc::clone(&self.home_centres)
    }

    pub fn supply_centres(&self) -> impl Iterator<Item = Province> + '_ {
        self.provinces().filter(|&p| self.is_supply_centre(p))
    }

    /// The coast locations of a two-coast province; empty otherwise.
    pub fn coasts(&self, p: Province) -> &[Location] {
        &self.coast_locs[p.index()]
    }

    pub fn province_of(&self, l: Location) -> Province {
        self.loc_province[l.index()]
    }

    pub fn coast_of(&self, l: Location) -> Option<Coast> {
        self.loc_coast[l.index()]
    }

    /// The location of a province's given coast.
    pub fn coast_location(&self, p: Province, coast: Coast) -> Option<Location> {
        self.coasts(p)
            .iter()
            .copied()
            .find(|&l| self.coast_of(l) == Some(coast))
    }

    /// A province by its standard abbreviation, any case: "stp".
    pub fn province_by_abbr(&self, abbr: &str) -> Option<Province> {
        if let Some(i) = abbr3_index(abbr.as_bytes()) {
            return self.by_index3(i);
        }
        self.by_abbr
            .binary_search_by(|&(a, _)| upper_cmp(a, abbr))
            .ok()
            .map(|i| self.by_abbr[i].1)
    }

    /// [`Map::province_by_abbr`] for three ASCII letters, any case (`None`
    /// for anything else).
    #[inline]
    pub fn province_by_abbr3(&self, abbr: &[u8]) -> Option<Province> {
        self.by_index3(abbr3_index(abbr)?)
    }

    #[inline]
    fn by_index3(&self, i: usize) -> Option<Province> {
        match self.by_abbr3.get(i) {
            Some(&id) if id > 0 => Some(Province(id - 1)),
            _ => None,
        }
    }

    /// A province by any spelling the table knows (abbreviation, full name,
    /// alias), lower-cased by the caller or not.
    pub fn province_by_name(&self, name: &str) -> Option<Province> {
        self.names.get(&name.to_ascii_lowercase()).copied()
    }

    /// Every spelling the table knows, with its province.
    pub fn spellings(&self) -> impl Iterator<Item = (&str, Province)> + '_ {
        self.names.iter().map(|(s, &p)| (s.as_str(), p))
    }

    /// "STP/NC", "PAR": the JSON spelling, also accepted by this function.
    pub fn location_by_abbr(&self, text: &str) -> Option<Location> {
        // The usual spellings: "PAR", "STP/NC".
        match text.as_bytes() {
            [a, b, c] if [a, b, c].iter().all(|x| x.is_ascii_alphabetic()) => {
                return self.province_by_abbr(text).map(Province::location)
            }
            [a, b, c, b'/', _, _] if [a, b, c].iter().all(|x| x.is_ascii_alphabetic()) => {
                let p = self.province_by_abbr(&text[..3])?;
                let coast = [Coast::North, Coast::South, Coast::East]
                    .into_iter()
                    .find(|k| k.abbr().eq_ignore_ascii_case(&text[4..]))?;
                return self.coast_location(p, coast);
            }
            _ => {}
        }
        let (prov, coast) = match text.split_once('/') {
            Some((p, c)) => (p, Some(c)),
            None => (text, None),
        };
        let p = self.province_by_abbr(prov)?;
        match coast {
            None => Some(p.location()),
            Some(c) => {
                let coast = [Coast::North, Coast::South, Coast::East]
                    .into_iter()
                    .find(|k| k.abbr().eq_ignore_ascii_case(c))?;
                self.coast_location(p, coast)
            }
        }
    }

    /// "STP/NC", "PAR".
    pub fn loc_abbr(&self, l: Location) -> String {
        let p = self.province_of(l);
        match self.coast_of(l) {
            Some(c) => format!("{}/{}", self.abbr(p), c.abbr()),
            None => self.abbr(p).to_string(),
        }
    }

    /// [`Map::loc_abbr`] without building it: "STP/NC", "PAR".
    pub fn loc_abbr_str(&self, l: Location) -> &str {
        &self.loc_abbrs[l.index()]
    }

    /// Compares two locations as their [`Map::loc_abbr`] strings compare,
    /// without building them.
    pub fn cmp_loc_abbr(&self, a: Location, b: Location) -> std::cmp::Ordering {
        self.loc_abbr_str(a).cmp(self.loc_abbr_str(b))
    }

    /// "St Petersburg (north coast)", "Paris".
    pub fn loc_name(&self, l: Location) -> String {
        let p = self.province_of(l);
        match self.coast_of(l) {
            Some(c) => format!("{} ({})", self.name(p), c.name()),
            None => self.name(p).to_string(),
        }
    }

    pub fn army_neighbours(&self, p: Province) -> LocSet {
        self.army_adj[p.index()]
    }

    pub fn fleet_neighbours(&self, l: Location) -> LocSet {
        self.fleet_adj[l.index()]
    }

    pub fn army_adjacent(&self, a: Province, b: Province) -> bool {
        self.army_adj[a.index()].contains(b.index())
    }

    pub fn fleet_adjacent(&self, a: Location, b: Location) -> bool {
        self.fleet_adj[a.index()].contains(b.index())
    }

    /// Whether a fleet at `from` borders some coast of province `to`: what a
    /// support or a convoy-less "can this fleet reach that province" asks.
    pub fn fleet_reaches_province(&self, from: Location, to: Province) -> bool {
        let n = &self.fleet_adj[from.index()];
        n.contains(to.index()) || self.coasts(to).iter().any(|c| n.contains(c.index()))
    }

    /// The provinces some fleet location of `p` borders.
    pub fn fleet_province_neighbours(&self, p: Province) -> LocSet {
        self.fleet_adj_province[p.index()]
    }

    /// Whether some fleet location of `a` borders some fleet location of `b`.
    pub fn fleet_adjacent_provinces(&self, a: Province, b: Province) -> bool {
        self.fleet_adj_province[a.index()].contains(b.index())
    }

    /// The locations of province `to` that a fleet at `from` can move to.
    pub fn fleet_targets_in(&self, from: Location, to: Province) -> Vec<Location> {
        let n = self.fleet_adj[from.index()];
        let mut out = Vec::new();
        if n.contains(to.index()) {
            out.push(to.location());
        }
        out.extend(
            self.coasts(to)
                .iter()
                .copied()
                .filter(|c| n.contains(c.index())),
        );
        out
    }

    /// Whether a unit of this type may stand at this location.
    pub fn can_stand(&self, unit: UnitType, l: Location) -> bool {
        let p = self.province_of(l);
        match (unit, self.terrain(p)) {
            (_, Terrain::Impassable) => false,
            (UnitType::Army, t) => t != Terrain::Sea && self.coast_of(l).is_none(),
            (UnitType::Fleet, Terrain::Land) => false,
            (UnitType::Fleet, Terrain::Sea) => true,
            (UnitType::Fleet, Terrain::Coast) => {
                self.coasts(p).is_empty() || self.coast_of(l).is_some()
            }
        }
    }

    /// Whether a unit of this type can move from `from` to `to` in one step.
    pub fn adjacent(&self, unit: UnitType, from: Location, to: Location) -> bool {
        match unit {
            UnitType::Army => self.army_adjacent(self.province_of(from), self.province_of(to)),
            UnitType::Fleet => self.fleet_adjacent(from, to),
        }
    }

    /// Whether a unit at `from` could move into province `to` in one step:
    /// the test for a support (which names a province, never a coast).
    pub fn reaches(&self, unit: UnitType, from: Location, to: Province) -> bool {
        match unit {
            UnitType::Army => self.army_adjacent(self.province_of(from), to),
            UnitType::Fleet => self.fleet_reaches_province(from, to),
        }
    }
}
