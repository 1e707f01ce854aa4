//! The standard board as a drawing: the generated tables of
//! `board_data.rs` looked up by the engine's province and location ids.

use std::sync::OnceLock;

use super::board_data;
use judge_engine::map::{Location, Map, Province};

/// A point in the board's SVG user units (y down).
pub type Point = (f32, f32);

/// One province as drawn.
pub struct ProvinceShape {
    /// The engine's abbreviation: "STP".
    pub abbr: &'static str,
    /// Where its unit stands (a fleet on a two-coast province stands at its
    /// coast's point instead).
    pub unit: Point,
    /// Where a dislodged unit stands, beside the unit that took its place.
    pub dislodged: Point,
    /// Where its name is written.
    pub label: Point,
    /// Its supply-centre marker, if it is a supply centre.
    pub centre: Option<Point>,
    /// Its shape: one SVG path of closed rings, filled even-odd (holes are
    /// the islands and lakes inside it).
    pub path: &'static str,
}

/// The points of one coast of a two-coast province.
pub struct LocationPoints {
    /// "STP/NC".
    pub location: &'static str,
    pub unit: Point,
    pub dislodged: Point,
}

/// The drawing indexed like the engine's map.
pub struct Board {
    shapes: Vec<&'static ProvinceShape>,
    /// Per location id: (unit point, dislodged-unit point).
    points: Vec<(Point, Point)>,
}

impl Board {
    /// The standard board, built once.
    pub fn standard() -> &'static Board {
        static BOARD: OnceLock<Board> = OnceLock::new();
        BOARD.get_or_init(|| Board::build(Map::standard()))
    }

    fn build(map: &Map) -> Board {
        let shapes: Vec<&'static ProvinceShape> = map
            .provinces()
            .map(|p| {
                let abbr = map.abbr(p);
                board_data::PROVINCES
                    .iter()
                    .find(|s| s.abbr == abbr)
                    .unwrap_or_else(|| panic!("the drawing has no shape for {abbr}"))
            })
            .collect();
        let points = map
            .locations()
            .map(|l| {
                let p = map.province_of(l);
                if map.coast_of(l).is_none() {
                    let s = shapes[p.index()];
                    return (s.unit, s.dislodged);
                }
                let name = map.loc_abbr(l);
                let c = board_data::COASTS
                    .iter()
                    .find(|c| c.location == name)
                    .unwrap_or_else(|| panic!("the drawing has no point for {name}"));
                (c.unit, c.dislodged)
            })
            .collect();
        Board { shapes, points }
    }

    pub fn width(&self) -> f32 {
        board_data::WIDTH
    }

    pub fn height(&self) -> f32 {
        board_data::HEIGHT
    }

    pub fn shape(&self, p: Province) -> &'static ProvinceShape {
        self.shapes[p.index()]
    }

    /// Where a unit at `l` stands.
    pub fn unit_point(&self, l: Location) -> Point {
        self.points[l.index()].0
    }

    /// Where a dislodged unit from `l` stands.
    pub fn dislodged_point(&self, l: Location) -> Point {
        self.points[l.index()].1
    }

    /// Every province shape of the drawing, as generated.
    pub fn all_shapes() -> &'static [ProvinceShape] {
        board_data::PROVINCES
    }

    /// Every coast's points, as generated.
    pub fn all_coasts() -> &'static [LocationPoints] {
        board_data::COASTS
    }

    /// Land that is no province (Ireland, Sardinia, Sicily, ...): one path.
    pub fn islands(&self) -> &'static str {
        board_data::ISLANDS
    }

    /// Water inside the land (lakes, the Sea of Marmara): one path.
    pub fn waters(&self) -> &'static str {
        board_data::WATERS
    }

    /// Coastlines, land borders and sea borders: open paths to stroke.
    pub fn coastline(&self) -> &'static str {
        board_data::COASTLINE
    }

    pub fn land_borders(&self) -> &'static str {
        board_data::LAND_BORDERS
    }

    pub fn sea_borders(&self) -> &'static str {
        board_data::SEA_BORDERS
    }
}
