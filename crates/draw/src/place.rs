//! The geometry of a picture: boxes, lines as polylines cut at the units'
//! badges, and where things go so that nothing covers a province's name
//! (the label placement pass) and no dislodged unit covers another.

use std::sync::OnceLock;

use super::board::{Board, Point};
use super::style;
use judge_engine::map::{Map, Province};

/// A box in board units (y down).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rect {
    pub x0: f32,
    pub y0: f32,
    pub x1: f32,
    pub y1: f32,
}

impl Rect {
    /// The box of half-width `hw` and half-height `hh` around `c`.
    pub fn around(c: Point, hw: f32, hh: f32) -> Rect {
        Rect {
            x0: c.0 - hw,
            y0: c.1 - hh,
            x1: c.0 + hw,
            y1: c.1 + hh,
        }
    }

    /// The smallest box holding every point.
    pub fn holding(points: &[Point]) -> Rect {
        let mut r = Rect {
            x0: f32::INFINITY,
            y0: f32::INFINITY,
            x1: f32::NEG_INFINITY,
            y1: f32::NEG_INFINITY,
        };
        for &(x, y) in points {
            r.x0 = r.x0.min(x);
            r.y0 = r.y0.min(y);
            r.x1 = r.x1.max(x);
            r.y1 = r.y1.max(y);
        }
        r
    }

    /// Whether the two boxes share any area (touching edges do not).
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    pub fn contains(&self, p: Point) -> bool {
        p.0 > self.x0 && p.0 < self.x1 && p.1 > self.y0 && p.1 < self.y1
    }

    pub fn grown(&self, by: f32) -> Rect {
        Rect {
            x0: self.x0 - by,
            y0: self.y0 - by,
            x1: self.x1 + by,
            y1: self.y1 + by,
        }
    }

    pub fn centre(&self) -> Point {
        ((self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0)
    }
}

/// A unit's badge drawn at `c`.
pub fn badge(c: Point) -> Rect {
    Rect::around(c, style::UNIT_HALF_WIDTH, style::UNIT_HALF_HEIGHT)
}

/// How far lines stay from the badges they start at or point to.
pub const AIR: f32 = 1.5;

pub fn sub(a: Point, b: Point) -> Point {
    (a.0 - b.0, a.1 - b.1)
}

pub fn add(a: Point, b: Point) -> Point {
    (a.0 + b.0, a.1 + b.1)
}

pub fn scale(a: Point, k: f32) -> Point {
    (a.0 * k, a.1 * k)
}

pub fn length(a: Point) -> f32 {
    (a.0 * a.0 + a.1 * a.1).sqrt()
}

pub fn unit_vector(from: Point, to: Point) -> Point {
    let d = sub(to, from);
    let l = length(d);
    if l == 0.0 {
        (1.0, 0.0)
    } else {
        scale(d, 1.0 / l)
    }
}

/// The length of a polyline.
pub fn polyline_length(points: &[Point]) -> f32 {
    points.windows(2).map(|w| length(sub(w[1], w[0]))).sum()
}

/// The point `at` along a polyline (clamped to its ends).
pub fn point_along(points: &[Point], at: f32) -> Point {
    let mut left = at.max(0.0);
    for w in points.windows(2) {
        let l = length(sub(w[1], w[0]));
        if left <= l && l > 0.0 {
            return add(w[0], scale(sub(w[1], w[0]), left / l));
        }
        left -= l;
    }
    *points.last().expect("a polyline has points")
}

/// A quadratic Bézier curve from `a` through control `c` to `b`, as a
/// polyline of `steps` segments.
pub fn quadratic(a: Point, c: Point, b: Point, steps: usize) -> Vec<Point> {
    (0..=steps)
        .map(|i| {
            let t = i as f32 / steps as f32;
            let u = 1.0 - t;
            add(add(scale(a, u * u), scale(c, 2.0 * u * t)), scale(b, t * t))
        })
        .collect()
}

/// A smooth curve through every point of `through` (Catmull-Rom), as a
/// polyline of `steps` segments between each two of them.
pub fn smooth_through(through: &[Point], steps: usize) -> Vec<Point> {
    let n = through.len();
    let at = |i: isize| through[i.clamp(0, n as isize - 1) as usize];
    let mut out = vec![through[0]];
    for i in 0..n as isize - 1 {
        let (p0, p1, p2, p3) = (at(i - 1), at(i), at(i + 1), at(i + 2));
        for s in 1..=steps {
            let t = s as f32 / steps as f32;
            let (t2, t3) = (t * t, t * t * t);
            let coord = |a: f32, b: f32, c: f32, d: f32| {
                0.5 * (2.0 * b
                    + (c - a) * t
                    + (2.0 * a - 5.0 * b + 4.0 * c - d) * t2
                    + (3.0 * b - a - 3.0 * c + d) * t3)
            };
            out.push((coord(p0.0, p1.0, p2.0, p3.0), coord(p0.1, p1.1, p2.1, p3.1)));
        }
    }
    out
}

/// The polyline from where it first leaves `start` (if given) to where it
/// last enters `end` (if given): a line cut at the badges it joins.
pub fn clip(points: &[Point], start: Option<&Rect>, end: Option<&Rect>) -> Vec<Point> {
    let mut out = points.to_vec();
    if let Some(r) = start {
        out = clip_front(&out, r);
    }
    if let Some(r) = end {
        out.reverse();
        out = clip_front(&out, r);
        out.reverse();
    }
    out
}

/// The polyline from the last point where it leaves `r`.
fn clip_front(points: &[Point], r: &Rect) -> Vec<Point> {
    let Some(last_inside) = points.iter().rposition(|&p| r.contains(p)) else {
        return points.to_vec();
    };
    if last_inside + 1 >= points.len() {
        // All inside: nothing of the line is seen; keep its last point.
        return vec![points[points.len() - 1]; 2];
    }
    let (a, b) = (points[last_inside], points[last_inside + 1]);
    // Bisect the segment for the box's edge.
    let (mut lo, mut hi) = (0.0f32, 1.0f32);
    for _ in 0..12 {
        let mid = (lo + hi) / 2.0;
        if r.contains(add(a, scale(sub(b, a), mid))) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let mut out = vec![add(a, scale(sub(b, a), hi))];
    out.extend_from_slice(&points[last_inside + 1..]);
    out
}

/// The length of a polyline outside every box of `icons`.
pub fn length_outside(points: &[Point], icons: &[Rect]) -> f32 {
    let mut total = 0.0;
    for w in points.windows(2) {
        let l = length(sub(w[1], w[0]));
        let steps = (l / 0.5).ceil().max(1.0) as usize;
        for s in 0..steps {
            let mid = add(
                w[0],
                scale(sub(w[1], w[0]), (s as f32 + 0.5) / steps as f32),
            );
            if !icons.iter().any(|r| r.contains(mid)) {
                total += l / steps as f32;
            }
        }
    }
    total
}

/// Each province's shape as rings of points, read once from the board's
/// paths (`M`, `L` and `Z` with absolute coordinates).
fn province_rings(map: &Map) -> &'static Vec<Vec<Vec<Point>>> {
    static RINGS: OnceLock<Vec<Vec<Vec<Point>>>> = OnceLock::new();
    RINGS.get_or_init(|| {
        let board = Board::standard();
        map.provinces()
            .map(|p| rings_of(board.shape(p).path))
            .collect()
    })
}

fn rings_of(path: &str) -> Vec<Vec<Point>> {
    let mut rings = Vec::new();
    let mut ring = Vec::new();
    for part in path.split_inclusive(['M', 'L', 'Z']) {
        let command_at = part.len() - 1;
        let numbers = part[..command_at].trim();
        if !numbers.is_empty() {
            let mut v = numbers.split(' ').filter_map(|s| s.parse::<f32>().ok());
            if let (Some(x), Some(y)) = (v.next(), v.next()) {
                ring.push((x, y));
            }
        }
        if part.ends_with('Z') || part.ends_with('M') {
            if ring.len() >= 3 {
                rings.push(std::mem::take(&mut ring));
            }
            ring.clear();
        }
    }
    rings
}

/// Whether `p` lies in province `province`'s shape (even-odd).
pub fn in_province(map: &Map, province: Province, p: Point) -> bool {
    let mut inside = false;
    for ring in &province_rings(map)[province.index()] {
        for i in 0..ring.len() {
            let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
            if (a.1 > p.1) != (b.1 > p.1) && p.0 < a.0 + (p.1 - a.1) * (b.0 - a.0) / (b.1 - a.1) {
                inside = !inside;
            }
        }
    }
    inside
}

/// A province's name as drawn: where its text stands (the middle of its
/// baseline) and the box its letters fill.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub province: Province,
    pub text: &'static str,
    pub at: Point,
    pub rect: Rect,
    /// Moved from the board's place for it, clear of the phase's marks.
    pub moved: bool,
}

/// The labels' font size, and the box of three capitals at that size in
/// the Go Bold font (measured: 3.9 units a capital, cap height 4.4).
pub const LABEL_SIZE: f32 = 6.0;
const LETTER_WIDTH: f32 = 4.1;
const CAP_HEIGHT: f32 = 4.6;

/// The box of `text` written with its baseline's middle at `at`.
pub fn label_rect(text: &str, at: Point) -> Rect {
    let half = text.len() as f32 * LETTER_WIDTH / 2.0;
    Rect {
        x0: at.0 - half,
        y0: at.1 - CAP_HEIGHT,
        x1: at.0 + half,
        y1: at.1 + 0.6,
    }
}

/// Where each province's name goes at first: below its unit, as players
/// expect to read it (the board's label point).
pub fn board_label(map: &Map, p: Province) -> Label {
    let shape = Board::standard().shape(p);
    let at = (shape.label.0, shape.label.1 + LABEL_SIZE);
    Label {
        province: p,
        text: map.abbr(p),
        at,
        rect: label_rect(map.abbr(p), at),
        moved: false,
    }
}

/// Where a name may move, tried in turn (board units from its place):
/// a little lower, then beside and above its unit, then further out.
const LABEL_MOVES: [Point; 24] = [
    (0.0, 3.0),
    (0.0, -19.0),
    (-18.0, -8.0),
    (18.0, -8.0),
    (-14.0, 0.0),
    (14.0, 0.0),
    (0.0, 7.0),
    (-18.0, -14.0),
    (18.0, -14.0),
    (-12.0, 5.0),
    (12.0, 5.0),
    (0.0, 11.0),
    (0.0, -24.0),
    (-24.0, -8.0),
    (24.0, -8.0),
    (-20.0, 5.0),
    (20.0, 5.0),
    (0.0, 15.0),
    (-26.0, 0.0),
    (26.0, 0.0),
    (-10.0, 12.0),
    (10.0, 12.0),
    (0.0, -30.0),
    (0.0, 20.0),
];

/// The boxes already taken on the board (the phase's marks, the names
/// placed so far), filed in a grid of square cells so that asking whether
/// a box is clear looks only at the boxes near it, not at every one: a
/// busy phase has hundreds of marks and seventy-five names to place.
struct Taken {
    cells: Vec<Vec<Rect>>,
    columns: usize,
    rows: usize,
}

impl Taken {
    /// A cell's side in board units: a few names wide.
    const CELL: f32 = 64.0;

    fn new(width: f32, height: f32) -> Taken {
        let columns = (width / Self::CELL).ceil().max(1.0) as usize;
        let rows = (height / Self::CELL).ceil().max(1.0) as usize;
        Taken {
            cells: vec![Vec::new(); columns * rows],
            columns,
            rows,
        }
    }

    /// The range of columns and rows `r` touches, clamped to the grid (a
    /// box off the board files under the edge cells, so it is still found).
    fn span(&self, r: &Rect) -> (usize, usize, usize, usize) {
        let column = |x: f32| ((x / Self::CELL).floor().max(0.0) as usize).min(self.columns - 1);
        let row = |y: f32| ((y / Self::CELL).floor().max(0.0) as usize).min(self.rows - 1);
        (column(r.x0), column(r.x1), row(r.y0), row(r.y1))
    }

    fn add(&mut self, r: Rect) {
        let (c0, c1, r0, r1) = self.span(&r);
        for y in r0..=r1 {
            for x in c0..=c1 {
                self.cells[y * self.columns + x].push(r);
            }
        }
    }

    fn is_clear(&self, r: &Rect) -> bool {
        let (c0, c1, r0, r1) = self.span(r);
        (r0..=r1).all(|y| {
            (c0..=c1).all(|x| {
                !self.cells[y * self.columns + x]
                    .iter()
                    .any(|t| t.overlaps(r))
            })
        })
    }
}

/// The label placement pass: every province's name where the board puts
/// it, or, where a mark of the phase covers it, the first place of
/// [`LABEL_MOVES`] inside its province that is clear of every mark and of
/// the names placed before it.
pub fn place_labels(map: &Map, marks: &[Rect]) -> Vec<Label> {
    let board = Board::standard();
    let mut taken = Taken::new(board.width(), board.height());
    for m in marks {
        taken.add(*m);
    }
    let mut placed: Vec<Label> = Vec::with_capacity(map.province_count());
    for p in map.provinces() {
        let mut label = board_label(map, p);
        if !taken.is_clear(&label.rect.grown(0.4)) {
            let home = label.at;
            let try_at = |inside: bool| {
                LABEL_MOVES.iter().find_map(|&d| {
                    let at = add(home, d);
                    let rect = label_rect(label.text, at);
                    ((!inside || in_province(map, p, rect.centre()))
                        && taken.is_clear(&rect.grown(0.4)))
                    .then_some((at, rect))
                })
            };
            // Inside its province if there is room; else just beside it.
            let found = try_at(true).or_else(|| try_at(false));
            if let Some((at, rect)) = found {
                label.at = at;
                label.rect = rect;
                label.moved = true;
            }
        }
        taken.add(label.rect);
        placed.push(label);
    }
    placed
}

/// Where a dislodged unit from a place whose unit stands at `unit` goes:
/// beside it (on the board's side for it, `towards`), clear of every
/// badge in `taken`, preferably inside its own province.
pub fn dislodged_place(
    map: &Map,
    province: Province,
    unit: Point,
    towards: Point,
    taken: &[Rect],
) -> Point {
    let sx = if towards.0 < unit.0 { -1.0 } else { 1.0 };
    let sy = if towards.1 < unit.1 { -1.0 } else { 1.0 };
    let (w, h) = (
        2.0 * style::UNIT_HALF_WIDTH + 2.0,
        2.0 * style::UNIT_HALF_HEIGHT + 2.0,
    );
    let tries = [
        (sx * w, sy * h * 0.6),
        (-sx * w, sy * h * 0.6),
        (sx * w, -sy * h * 0.6),
        (-sx * w, -sy * h * 0.6),
        (sx * w, 0.0),
        (-sx * w, 0.0),
        (0.0, sy * h),
        (0.0, -sy * h),
        (sx * w * 1.5, sy * h),
        (-sx * w * 1.5, sy * h),
        (sx * w * 1.5, -sy * h),
        (-sx * w * 1.5, -sy * h),
    ];
    let free = |c: Point| {
        let r = badge(c).grown(1.0);
        !taken.iter().any(|t| t.overlaps(&r))
    };
    let candidates = tries.iter().map(|&d| add(unit, d));
    candidates
        .clone()
        .find(|&c| free(c) && in_province(map, province, c))
        .or_else(|| candidates.clone().find(|&c| free(c)))
        .unwrap_or_else(|| add(unit, tries[0]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_cut_where_it_leaves_and_enters_the_badges() {
        let line = [(0.0, 0.0), (100.0, 0.0)];
        let cut = clip(
            &line,
            Some(&Rect::around((0.0, 0.0), 10.0, 5.0)),
            Some(&Rect::around((100.0, 0.0), 10.0, 5.0)),
        );
        assert!((cut[0].0 - 10.0).abs() < 0.05, "{cut:?}");
        assert!((cut[cut.len() - 1].0 - 90.0).abs() < 0.05, "{cut:?}");
        assert!((polyline_length(&cut) - 80.0).abs() < 0.1);
        assert!(
            (length_outside(&line, &[Rect::around((50.0, 0.0), 10.0, 5.0)]) - 80.0).abs() < 0.6
        );
    }

    #[test]
    fn the_provinces_shapes_are_read_whole() {
        let map = Map::standard();
        let board = Board::standard();
        for p in map.provinces() {
            assert!(in_province(map, p, board.shape(p).unit), "{}", map.abbr(p));
        }
    }
}
