//! Where a phase's units and orders go, before anything is written: each
//! unit's badge, each order's line (cut at the badges, bent when short,
//! curved through its convoying fleets), every mark's box, and the names
//! placed clear of them. `svg` writes what this decides; the tests read
//! the same boxes ([`layout`](super::svg::layout)).

use super::board::{Board, Point};
use super::place::{self, add, badge, clip, point_along, polyline_length, scale, sub, Label, Rect};
use super::svg::Scene;
use judge_engine::map::{Location, Map, Province, UnitType};
use judge_engine::order::{Order, OrderKind};
use judge_engine::outcome::Outcome;
use judge_engine::phase::PhaseKind;
use judge_engine::position::Unit;

/// The kinds of mark a map shows, each with its own look, in the
/// legend's order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Move,
    Support,
    Convoy,
    Hold,
    Failed,
    Dislodged,
    RetreatOption,
    Retreat,
    Build,
    Removal,
    Waive,
}

impl Kind {
    /// Its name in the legend.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Move => "move",
            Kind::Support => "support",
            Kind::Convoy => "convoy",
            Kind::Hold => "hold",
            Kind::Failed => "failed",
            Kind::Dislodged => "dislodged",
            Kind::RetreatOption => "may retreat",
            Kind::Retreat => "retreat",
            Kind::Build => "build",
            Kind::Removal => "removal",
            Kind::Waive => "waived build",
        }
    }
}

/// One mark's box: what it is (`unit`, `head`, `cross`, `frame`, `dot`,
/// `sign`, `centre`, or `line`: a piece of an order's line) and where.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub what: &'static str,
    pub rect: Rect,
}

/// A unit's badge as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Badge {
    pub unit: Unit,
    pub at: Point,
    pub dislodged: bool,
}

/// What an order's line is, for how it is drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LineKind {
    Move,
    Retreat,
    Support,
    RetreatOption,
}

/// One line drawn for an order (or a retreat option): the polyline as
/// drawn, from the edge of its unit's badge to where it ends.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The order in short form (`A LVP - YOR`), or `A BUR may retreat to PAR`.
    pub what: String,
    pub kind: LineKind,
    pub failed: bool,
    /// A move curved through its convoying fleets (drawn under the units,
    /// so that the fleets show on it).
    pub convoyed: bool,
    pub points: Vec<Point>,
}

/// A picture's geometry: badges, lines, marks, names and the legend's
/// kinds. Every box a reader's eye must tell apart is in `marks` (the
/// badges too) or `labels`.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    pub badges: Vec<Badge>,
    pub lines: Vec<Line>,
    /// Holds and convoys (frames round a badge), supports' end dots,
    /// crosses, builds' and removals' signs, arrowheads, badges and the
    /// supply centres' markers.
    pub marks: Vec<Mark>,
    /// Frames round badges: (centre, dotted: a convoy rather than a hold,
    /// failed).
    pub frames: Vec<(Point, bool, bool)>,
    /// Support ends: (point, failed).
    pub dots: Vec<(Point, bool)>,
    pub crosses: Vec<Point>,
    /// Build (`true`) and removal signs at a badge's corner.
    pub signs: Vec<(Point, bool)>,
    pub labels: Vec<Label>,
    /// The kinds drawn, once each, in the legend's order.
    pub kinds: Vec<Kind>,
    /// Builds waived, per power index (shown in the legend's counts).
    pub waived: [u8; 7],
}

/// Shorter than this, a move is bent so that it is seen.
pub const MIN_LINE: f32 = 12.0;
const ARROW_HEAD: f32 = 6.0;
/// Half the size of a failure's cross.
pub const CROSS: f32 = 3.4;
/// A hold's or convoy's frame: this much outside the badge.
pub const FRAME: f32 = 2.6;
pub const DOT: f32 = 1.9;
/// The build and removal signs: a disc at the badge's top-right corner.
pub const SIGN: f32 = 3.4;

/// An order counts as failed when it did not do what it said: a move that
/// did not arrive, a cut support, a void order, a retreat that bounced.
pub fn failed(order: &Order, outcome: Outcome) -> bool {
    const FAILURES: [Outcome; 6] = [
        Outcome::BOUNCE,
        Outcome::CUT,
        Outcome::VOID,
        Outcome::NO_CONVOY,
        Outcome::PARADOX,
        Outcome::DISBANDED,
    ];
    match order.kind {
        OrderKind::Disband | OrderKind::Remove | OrderKind::Waive => false,
        OrderKind::Hold => outcome.contains(Outcome::DISLODGED),
        _ => FAILURES.iter().any(|&o| outcome.contains(o)),
    }
}

/// Where the units are drawn: those standing at their place, those
/// dislodged beside it (clear of every other badge).
struct Places {
    /// Per location id: where the unit standing there is drawn.
    standing: Vec<Option<Point>>,
    /// Per location id: where the unit dislodged from there is drawn.
    dislodged: Vec<Option<Point>>,
}

/// The whole geometry of `scene`.
pub fn lay_out(map: &Map, scene: &Scene<'_>) -> Layout {
    let board = Board::standard();
    let mut layout = Layout::default();
    let places = place_units(map, board, scene, &mut layout);
    let geo = Geo {
        map,
        board,
        scene,
        places: &places,
    };
    let moves = draw_moves(&geo, &mut layout);
    for (order, outcome) in scene.orders {
        draw_other(&geo, &mut layout, &moves, order, *outcome);
    }
    draw_retreat_options(&geo, &mut layout);
    mark_boxes(map, board, &mut layout);
    let boxes: Vec<Rect> = layout.marks.iter().map(|m| m.rect).collect();
    layout.labels = place::place_labels(map, &boxes);
    layout.kinds.sort();
    layout.kinds.dedup();
    layout
}

fn is_retreat_phase(scene: &Scene<'_>) -> bool {
    scene.position.phase.kind == PhaseKind::Retreat
}

/// Badges: standing units, units built this Winter, then the dislodged
/// (beside their place, clear of the rest).
fn place_units(map: &Map, board: &Board, scene: &Scene<'_>, layout: &mut Layout) -> Places {
    let n = map.location_count();
    let mut places = Places {
        standing: vec![None; n],
        dislodged: vec![None; n],
    };
    let mut dislodged_now = vec![false; n];
    if scene.position.phase.kind == PhaseKind::Movement {
        for (order, outcome) in scene.orders {
            if outcome.contains(Outcome::DISLODGED) {
                dislodged_now[order.location.index()] = true;
            }
        }
    }
    let mut standing: Vec<Unit> = Vec::new();
    let mut leaving: Vec<Unit> = scene.position.dislodged.iter().map(|d| d.unit).collect();
    for u in &scene.position.units {
        if dislodged_now[u.location.index()] {
            leaving.push(*u);
        } else {
            standing.push(*u);
        }
    }
    if scene.position.phase.kind == PhaseKind::Adjustment {
        for (order, outcome) in scene.orders {
            if order.kind == OrderKind::Build && !failed(order, *outcome) {
                standing.push(Unit {
                    power: order.power,
                    kind: order.unit,
                    location: order.location,
                });
            }
        }
    }
    let mut taken: Vec<Rect> = Vec::new();
    for u in standing {
        let at = board.unit_point(u.location);
        places.standing[u.location.index()] = Some(at);
        taken.push(badge(at));
        layout.badges.push(Badge {
            unit: u,
            at,
            dislodged: false,
        });
    }
    // Every place's own badge stays free: the unit that dislodged one
    // stands there.
    for u in &leaving {
        taken.push(badge(board.unit_point(u.location)));
    }
    for u in leaving {
        let l = u.location;
        let at = place::dislodged_place(
            map,
            map.province_of(l),
            board.unit_point(l),
            board.dislodged_point(l),
            &taken,
        );
        places.dislodged[l.index()] = Some(at);
        taken.push(badge(at));
        layout.badges.push(Badge {
            unit: u,
            at,
            dislodged: true,
        });
        layout.kinds.push(Kind::Dislodged);
    }
    places
}

struct Geo<'a> {
    map: &'a Map,
    board: &'a Board,
    scene: &'a Scene<'a>,
    places: &'a Places,
}

impl Geo<'_> {
    /// Where the unit that gave `order` is drawn.
    fn from(&self, order: &Order) -> Point {
        let l = order.location.index();
        self.places.dislodged[l]
            .filter(|_| is_retreat_phase(self.scene) || self.places.standing[l].is_none())
            .or(self.places.standing[l])
            .unwrap_or_else(|| self.board.unit_point(order.location))
    }

    /// Where the unit in province `p` is drawn (its place's point when it
    /// has none).
    fn unit_in(&self, p: Province) -> Point {
        for &l in self.map.coasts(p).iter().chain([p.location()].iter()) {
            if let Some(at) = self.places.standing[l.index()] {
                return at;
            }
            if let Some(at) = self.places.dislodged[l.index()] {
                return at;
            }
        }
        self.board.unit_point(p.location())
    }

    /// A badge stands at `p`: a line to it ends at its edge.
    fn target(&self, l: Location) -> Point {
        self.board.unit_point(l)
    }
}

/// A line from the badge at `a` to the badge (or point) at `b`: straight,
/// or through `via` (a convoy's fleets) as a smooth curve; bent when what
/// is left of it outside the badges is shorter than [`MIN_LINE`]. `end`
/// says whether it stops at a badge round `b`.
fn visible_line(a: Point, b: Point, via: &[Point], end: bool) -> Vec<Point> {
    let start_box = badge(a).grown(place::AIR);
    let end_box = badge(b).grown(place::AIR);
    let end_box = end.then_some(&end_box);
    let straight = if via.is_empty() {
        vec![a, b]
    } else {
        let mut through = vec![a];
        through.extend_from_slice(via);
        through.push(b);
        place::smooth_through(&through, 10)
    };
    let line = clip(&straight, Some(&start_box), end_box);
    if polyline_length(&line) >= MIN_LINE {
        return line;
    }
    // Too short: bow it out sideways (to the left of its way) until it is
    // long enough to be seen.
    let d = place::unit_vector(a, b);
    let side = (d.1, -d.0);
    let middle = scale(add(a, b), 0.5);
    let mut bent = line;
    for k in [10.0, 14.0, 18.0, 23.0, 28.0, 34.0] {
        let control = add(middle, scale(side, k * 2.0));
        bent = clip(
            &place::quadratic(a, control, b, 16),
            Some(&start_box),
            end_box,
        );
        if polyline_length(&bent) >= MIN_LINE {
            break;
        }
    }
    bent
}

/// The middle of a drawn line, by its length.
fn middle(points: &[Point]) -> Point {
    point_along(points, polyline_length(points) / 2.0)
}

/// Moves and retreats, first (supports end on them): by the province the
/// moving unit leaves, its line.
fn draw_moves(geo: &Geo<'_>, layout: &mut Layout) -> Vec<(Province, Vec<Point>)> {
    let mut moves = Vec::new();
    for (order, outcome) in geo.scene.orders {
        let (to, kind) = match order.kind {
            OrderKind::Move { to, .. } => (to, LineKind::Move),
            OrderKind::Retreat { to } => (to, LineKind::Retreat),
            _ => continue,
        };
        let failed = failed(order, *outcome);
        let via = convoying_fleets(geo, order, to);
        let points = visible_line(geo.from(order), geo.target(to), &via, true);
        if failed {
            let at = point_along(&points, polyline_length(&points) - ARROW_HEAD - 4.0);
            layout.crosses.push(at);
            layout.kinds.push(Kind::Failed);
        }
        layout.kinds.push(if kind == LineKind::Move {
            Kind::Move
        } else {
            Kind::Retreat
        });
        moves.push((geo.map.province_of(order.location), points.clone()));
        layout.lines.push(Line {
            what: order.short(geo.map),
            kind,
            failed,
            convoyed: !via.is_empty(),
            points,
        });
    }
    moves
}

/// The fleets that convoy an army's move to `to`, in the order the army
/// passes them (each the nearest of the rest to the last).
fn convoying_fleets(geo: &Geo<'_>, order: &Order, to: Location) -> Vec<Point> {
    if order.unit != UnitType::Army {
        return Vec::new();
    }
    let (from, to) = (geo.map.province_of(order.location), geo.map.province_of(to));
    let mut fleets: Vec<Point> = geo
        .scene
        .orders
        .iter()
        .filter(|(o, _)| o.kind == OrderKind::Convoy { from, to })
        .map(|(o, _)| geo.from(o))
        .collect();
    let mut path = Vec::with_capacity(fleets.len());
    let mut last = geo.from(order);
    while !fleets.is_empty() {
        let (i, _) = fleets
            .iter()
            .enumerate()
            .min_by(|a, b| {
                place::length(sub(*a.1, last)).total_cmp(&place::length(sub(*b.1, last)))
            })
            .expect("a fleet");
        last = fleets.remove(i);
        path.push(last);
    }
    path
}

/// Every order but moves and retreats.
fn draw_other(
    geo: &Geo<'_>,
    layout: &mut Layout,
    moves: &[(Province, Vec<Point>)],
    order: &Order,
    outcome: Outcome,
) {
    let failed = failed(order, outcome);
    if failed {
        layout.kinds.push(Kind::Failed);
    }
    match order.kind {
        // A hold fails only by dislodgement, which the unit's dashed
        // badge beside its province shows alone; a unit without orders
        // holds unmarked.
        OrderKind::Hold if !outcome.contains(Outcome::DEFAULTED) && !failed => {
            layout.frames.push((geo.from(order), false, false));
            layout.kinds.push(Kind::Hold);
        }
        OrderKind::Support { from, to, .. } => {
            draw_support(geo, layout, moves, order, from, to, failed)
        }
        OrderKind::Convoy { .. } => {
            let at = geo.from(order);
            layout.frames.push((at, true, failed));
            layout.kinds.push(Kind::Convoy);
            if failed {
                layout.crosses.push(add(at, (style_hw() + FRAME, 0.0)));
            }
        }
        OrderKind::Build if !failed => {
            layout
                .signs
                .push((geo.board.unit_point(order.location), true));
            layout.kinds.push(Kind::Build);
        }
        OrderKind::Remove | OrderKind::Disband => {
            layout.signs.push((geo.from(order), false));
            layout.kinds.push(Kind::Removal);
        }
        OrderKind::Waive => {
            layout.waived[order.power.index()] += 1;
            layout.kinds.push(Kind::Waive);
        }
        _ => {}
    }
}

fn style_hw() -> f32 {
    super::style::UNIT_HALF_WIDTH
}

/// A support: a dashed line from the supporter to the supported unit's
/// badge (to hold) or to the middle of the supported move's line (its
/// move drawn, or the move it would make), ending in a dot.
fn draw_support(
    geo: &Geo<'_>,
    layout: &mut Layout,
    moves: &[(Province, Vec<Point>)],
    order: &Order,
    from: Province,
    to: Option<Location>,
    failed: bool,
) {
    let s = geo.from(order);
    let u = geo.unit_in(from);
    let points = match to {
        None => visible_line(s, u, &[], true),
        Some(to) => {
            let drawn = moves.iter().find(|(p, line)| {
                *p == from
                    && line
                        .last()
                        .is_some_and(|&e| badge(geo.target(to)).grown(4.0).contains(e))
            });
            let end = match drawn {
                Some((_, line)) => middle(line),
                None => middle(&visible_line(u, geo.target(to), &[], true)),
            };
            visible_line(s, end, &[], false)
        }
    };
    let end = *points.last().expect("a line has points");
    layout.dots.push((end, failed));
    if failed {
        layout.crosses.push(middle(&points));
    }
    layout.kinds.push(Kind::Support);
    layout.lines.push(Line {
        what: order.short(geo.map),
        kind: LineKind::Support,
        failed,
        convoyed: false,
        points,
    });
}

/// The retreat options of units dislodged (in the movement results, or
/// waiting in a retreat phase with no orders drawn yet).
fn draw_retreat_options(geo: &Geo<'_>, layout: &mut Layout) {
    let scene = geo.scene;
    let options = if is_retreat_phase(scene) {
        if scene.orders.is_empty() {
            &scene.position.dislodged[..]
        } else {
            &[]
        }
    } else {
        scene.retreats
    };
    for d in options {
        let l = d.unit.location;
        let from = geo.places.dislodged[l.index()].unwrap_or_else(|| geo.board.dislodged_point(l));
        for &to in &d.retreats {
            let points = visible_line(from, geo.target(to), &[], true);
            layout.lines.push(Line {
                what: format!(
                    "{} {} may retreat to {}",
                    d.unit.kind.letter(),
                    geo.map.loc_abbr(l),
                    geo.map.loc_abbr(to)
                ),
                kind: LineKind::RetreatOption,
                failed: false,
                convoyed: false,
                points,
            });
            layout.kinds.push(Kind::RetreatOption);
        }
    }
}

/// The boxes of everything drawn that a name must not lie under.
fn mark_boxes(map: &Map, board: &Board, layout: &mut Layout) {
    let mut marks = Vec::new();
    for b in &layout.badges {
        marks.push(Mark {
            what: "unit",
            rect: badge(b.at),
        });
    }
    for line in &layout.lines {
        let n = line.points.len();
        if n < 2 {
            continue;
        }
        // The line itself, as small boxes along it: a name is not
        // struck through.
        let long = polyline_length(&line.points);
        let mut along = 0.0;
        while along <= long {
            marks.push(Mark {
                what: "line",
                rect: Rect::around(point_along(&line.points, along), 1.2, 1.2),
            });
            along += 2.0;
        }
        if line.kind == LineKind::Support {
            continue;
        }
        let tip = line.points[n - 1];
        let back = point_along(&line.points, polyline_length(&line.points) - ARROW_HEAD);
        let d = place::unit_vector(back, tip);
        let side = scale((-d.1, d.0), ARROW_HEAD * 0.5);
        marks.push(Mark {
            what: "head",
            rect: Rect::holding(&[tip, add(back, side), sub(back, side)]),
        });
    }
    for &(c, _, _) in &layout.frames {
        marks.push(Mark {
            what: "frame",
            rect: badge(c).grown(FRAME + 0.7),
        });
    }
    for &(c, _) in &layout.dots {
        marks.push(Mark {
            what: "dot",
            rect: Rect::around(c, DOT, DOT),
        });
    }
    for &c in &layout.crosses {
        marks.push(Mark {
            what: "cross",
            rect: Rect::around(c, CROSS + 0.9, CROSS + 0.9),
        });
    }
    for &(c, _) in &layout.signs {
        marks.push(Mark {
            what: "sign",
            rect: Rect::around(sign_centre(c), SIGN + 0.5, SIGN + 0.5),
        });
    }
    for p in map.supply_centres() {
        if let Some(c) = board.shape(p).centre {
            marks.push(Mark {
                what: "centre",
                rect: Rect::around(c, 3.0, 3.0),
            });
        }
    }
    layout.marks = marks;
}

/// Where a build's or removal's sign stands for the badge at `c`.
pub fn sign_centre(c: Point) -> Point {
    add(
        c,
        (
            super::style::UNIT_HALF_WIDTH,
            -super::style::UNIT_HALF_HEIGHT,
        ),
    )
}
