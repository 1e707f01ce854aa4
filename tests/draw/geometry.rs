//! Reading the drawing's shapes back, for the tests: SVG paths as rings,
//! even-odd insideness, distance to an edge.
#![allow(dead_code)]

use judge::draw::board::Point;

/// A shape as rings of points, read from the drawing's SVG path (`M`, `L`
/// and `Z` with absolute coordinates, as `tools/map_convert.py` writes).
pub fn rings(path: &str) -> Vec<Vec<Point>> {
    let mut rings = Vec::new();
    let mut ring: Vec<Point> = Vec::new();
    let mut rest = path;
    while let Some(c) = rest.chars().next() {
        rest = &rest[1..];
        match c {
            'M' | 'L' => {
                if c == 'M' && !ring.is_empty() {
                    rings.push(std::mem::take(&mut ring));
                }
                let end = rest.find(['M', 'L', 'Z']).unwrap_or(rest.len());
                let mut nums = rest[..end].split(' ').map(|n| n.parse::<f32>().unwrap());
                ring.push((nums.next().unwrap(), nums.next().unwrap()));
                assert!(nums.next().is_none(), "one point per command: {path}");
                rest = &rest[end..];
            }
            'Z' => rings.push(std::mem::take(&mut ring)),
            other => panic!("unexpected {other:?} in a path"),
        }
    }
    assert!(ring.is_empty(), "a ring left open: {path}");
    rings
}

/// Even-odd: inside an odd number of rings.
pub fn inside(p: Point, rings: &[Vec<Point>]) -> bool {
    let mut result = false;
    for ring in rings {
        for i in 0..ring.len() {
            let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
            if (a.1 > p.1) != (b.1 > p.1) && p.0 < a.0 + (p.1 - a.1) * (b.0 - a.0) / (b.1 - a.1) {
                result = !result;
            }
        }
    }
    result
}

/// The distance from `p` to the nearest edge of `rings`.
pub fn distance(p: Point, rings: &[Vec<Point>]) -> f32 {
    let mut best = f32::INFINITY;
    for ring in rings {
        for i in 0..ring.len() {
            let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = dx * dx + dy * dy;
            let t = if len == 0.0 {
                0.0
            } else {
                (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len).clamp(0.0, 1.0)
            };
            let (x, y) = (a.0 + t * dx, a.1 + t * dy);
            best = best.min(((p.0 - x).powi(2) + (p.1 - y).powi(2)).sqrt());
        }
    }
    best
}
