//! The board's drawing is data, checked here against the engine's map:
//! every province has exactly one closed shape, every point drawn for it
//! lies inside that shape, every supply centre has its marker, and each
//! coast's fleet stands on the right coast.

use judge::draw::board::{Board, Point};
use judge::engine::map::{Map, Province, Terrain};

#[path = "draw/geometry.rs"]
mod geometry;
use geometry::{distance, inside, rings};

fn shape_of(p: Province) -> Vec<Vec<Point>> {
    rings(Board::standard().shape(p).path)
}

#[test]
fn every_province_has_exactly_one_shape() {
    let map = Map::standard();
    for p in map.provinces() {
        let n = Board::all_shapes()
            .iter()
            .filter(|s| s.abbr == map.abbr(p))
            .count();
        assert_eq!(n, 1, "{} has {n} shapes", map.abbr(p));
    }
    assert_eq!(Board::all_shapes().len(), map.province_count());
    for s in Board::all_shapes() {
        let rings = rings(s.path);
        assert!(!rings.is_empty(), "{}: an empty shape", s.abbr);
        for ring in &rings {
            assert!(
                ring.len() >= 3,
                "{}: a ring of {} points",
                s.abbr,
                ring.len()
            );
        }
    }
}

#[test]
fn every_point_of_a_province_is_inside_its_shape() {
    let map = Map::standard();
    let board = Board::standard();
    for p in map.provinces() {
        let s = board.shape(p);
        let shape = shape_of(p);
        for (what, point) in [
            ("unit", s.unit),
            ("dislodged", s.dislodged),
            ("label", s.label),
        ] {
            assert!(
                inside(point, &shape),
                "{}: {what} point {point:?} outside",
                s.abbr
            );
        }
        // The dislodged unit stands beside the unit, not on it.
        let apart =
            ((s.unit.0 - s.dislodged.0).powi(2) + (s.unit.1 - s.dislodged.1).powi(2)).sqrt();
        assert!(
            apart >= 5.0,
            "{}: dislodged point {apart} from the unit",
            s.abbr
        );
        // No other province claims the unit point.
        for q in map.provinces().filter(|&q| q != p) {
            assert!(
                !inside(s.unit, &shape_of(q)),
                "{}'s unit point is in {}",
                s.abbr,
                map.abbr(q)
            );
        }
    }
}

#[test]
fn a_centre_marker_exactly_where_a_supply_centre_is() {
    let map = Map::standard();
    let board = Board::standard();
    let mut centres = 0;
    for p in map.provinces() {
        let s = board.shape(p);
        assert_eq!(s.centre.is_some(), map.is_supply_centre(p), "{}", s.abbr);
        if let Some(c) = s.centre {
            assert!(inside(c, &shape_of(p)), "{}: centre {c:?} outside", s.abbr);
            centres += 1;
        }
    }
    assert_eq!(centres, 34);
}

#[test]
fn every_location_has_its_points_inside_its_province() {
    let map = Map::standard();
    let board = Board::standard();
    for l in map.locations() {
        let p = map.province_of(l);
        let shape = shape_of(p);
        let name = map.loc_abbr(l);
        assert!(
            inside(board.unit_point(l), &shape),
            "{name}: unit point outside"
        );
        assert!(
            inside(board.dislodged_point(l), &shape),
            "{name}: dislodged point outside"
        );
    }
    assert_eq!(
        Board::all_coasts().len(),
        map.location_count() - map.province_count()
    );
}

/// Each coast's fleet stands on its own coast: the sea whose shape is
/// nearest its point is one that coast borders, and it is nearer the seas
/// only that coast borders than those only the province's other coast
/// borders (St Petersburg's Barents Sea against its Gulf of Bothnia).
#[test]
fn each_coast_point_is_on_the_right_coast() {
    let map = Map::standard();
    let board = Board::standard();
    let seas: Vec<Province> = map
        .provinces()
        .filter(|&p| map.terrain(p) == Terrain::Sea)
        .collect();
    for l in map.locations().filter(|&l| map.coast_of(l).is_some()) {
        let name = map.loc_abbr(l);
        let point = board.unit_point(l);
        let nearest = seas
            .iter()
            .copied()
            .min_by(|&a, &b| {
                distance(point, &shape_of(a)).total_cmp(&distance(point, &shape_of(b)))
            })
            .unwrap();
        assert!(
            map.fleet_adjacent(l, nearest.location()),
            "{name}: the nearest sea, {}, is not on this coast",
            map.abbr(nearest)
        );
        let p = map.province_of(l);
        let borders = |c| {
            seas.iter()
                .copied()
                .filter(move |s| map.fleet_adjacent(c, s.location()))
        };
        let mine: Vec<Province> = borders(l).collect();
        let others: Vec<Province> = map
            .coasts(p)
            .iter()
            .filter(|&&c| c != l)
            .flat_map(|&c| borders(c))
            .filter(|s| !mine.contains(s))
            .collect();
        let only_mine: Vec<&Province> = mine
            .iter()
            .filter(|s| {
                !map.coasts(p)
                    .iter()
                    .any(|&c| c != l && map.fleet_adjacent(c, s.location()))
            })
            .collect();
        for s in &only_mine {
            for o in &others {
                assert!(
                    distance(point, &shape_of(**s)) < distance(point, &shape_of(*o)),
                    "{name}: nearer {} than {}",
                    map.abbr(*o),
                    map.abbr(**s)
                );
            }
        }
    }
}
