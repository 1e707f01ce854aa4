//! One phase drawn as SVG: the board tinted by ownership, the units, the
//! orders as players draw them, a legend and a title.

use std::fmt::Write;

use super::board::{Board, Point};
use super::style;
use judge_engine::map::{Location, Map, Power, Province, Terrain, UnitType};
use judge_engine::order::{Order, OrderKind};
use judge_engine::outcome::Outcome;
use judge_engine::phase::PhaseKind;
use judge_engine::position::{Dislodged, Position, Unit};

/// What one picture shows.
pub struct Scene<'a> {
    /// The position at the start of the phase: units where they stood
    /// when the orders were written; in a retreat phase, its dislodged
    /// units and their options.
    pub position: &'a Position,
    /// The phase's orders with their results; empty for a picture of the
    /// position alone (the board for the next orders).
    pub orders: &'a [(Order, Outcome)],
    /// After a movement phase: the units it dislodged and where each may
    /// retreat (the next position's `dislodged`). Empty otherwise.
    pub retreats: &'a [Dislodged],
    /// The title line: the game, the phase, the judge.
    pub title: &'a str,
}

/// The whole picture's size in SVG user units.
pub fn size(board: &Board) -> (f32, f32) {
    (
        board.width(),
        style::TITLE_BAND + board.height() + style::LEGEND_BAND,
    )
}

/// Draws `scene` as a standalone SVG document.
pub fn render(map: &Map, scene: &Scene<'_>) -> String {
    let board = Board::standard();
    let mut out = Svg::document(board);
    let (width, height) = size(board);
    let _ = writeln!(
        out.0,
        r#"<rect width="{}" height="{}" fill="{}"/>"#,
        n(width),
        n(height),
        style::PAPER
    );
    out.open_board();
    draw_fills(&mut out, map, board, scene.position);
    draw_lines(&mut out, board);
    draw_centres(&mut out, map, board, scene.position);
    draw_labels(&mut out, map, board);
    draw_phase(&mut out, map, board, scene, true);
    out.close()
}

/// Over the board: the orders and units (closing the board's group),
/// then the title and the legend (with its `fixed` part, or only the
/// counts).
fn draw_phase(out: &mut Svg, map: &Map, board: &Board, scene: &Scene<'_>, fixed: bool) {
    let marks = Marks::of(map, board, scene);
    draw_orders(out, map, board, scene, &marks);
    out.0.push_str("</g>\n");
    draw_title(out, scene.title);
    draw_legend(out, board, Some(scene.position), fixed);
}

/// The picture in layers, for a raster that draws the board's unchanging
/// parts once per size (`png::render_scene`): stacked, [`board_index`]
/// coloured by [`province_fills`], then [`board_lines`], then
/// [`scene_marks`] give the picture [`render`] draws, but that the
/// supply-centre rings lie over the labels rather than under them.
pub mod layers {
    use super::*;

    /// In `board_index`, the islands (land in no province) and the
    /// waters (sea in none) take these "province numbers"; what no shape
    /// covers (the paper) stays transparent.
    pub const ISLANDS: u8 = 254;
    pub const WATERS: u8 = 253;

    /// Every province filled, without anti-aliasing, in the colour
    /// `rgb(i, 0, 0)`, `i` its index: rasterised, each pixel's red says
    /// which province's colour it takes.
    pub fn board_index(map: &Map) -> String {
        let board = Board::standard();
        let mut out = Svg::document(board);
        out.open_board();
        let o = &mut out.0;
        o.push_str(r#"<g stroke="none" fill-rule="evenodd" shape-rendering="crispEdges">"#);
        for p in map.provinces() {
            let _ = write!(
                o,
                r#"<path fill="rgb({},0,0)" d="{}"/>"#,
                p.index(),
                board.shape(p).path
            );
        }
        let _ = write!(
            o,
            r#"<path fill="rgb({ISLANDS},0,0)" d="{}"/><path fill="rgb({WATERS},0,0)" d="{}"/>"#,
            board.islands(),
            board.waters()
        );
        o.push_str("</g></g>\n");
        out.close()
    }

    /// Each province's fill colour in `position`, by province index.
    pub fn province_fills(map: &Map, position: &Position) -> Vec<&'static str> {
        map.provinces().map(|p| fill_of(map, position, p)).collect()
    }

    /// The borders, coastlines and labels, and the fixed part of the
    /// legend (badges, names, the key), on a transparent ground.
    pub fn board_lines(map: &Map) -> String {
        let board = Board::standard();
        let mut out = Svg::document(board);
        out.open_board();
        draw_lines(&mut out, board);
        draw_labels(&mut out, map, board);
        out.0.push_str("</g>\n");
        draw_legend(&mut out, board, None, true);
        out.close()
    }

    /// What changes from phase to phase over the board's lines: the
    /// supply centres' rings, the orders, the units, the title and the
    /// legend's counts, on a transparent ground.
    pub fn scene_marks(map: &Map, scene: &Scene<'_>) -> String {
        let board = Board::standard();
        let mut out = Svg::document(board);
        out.open_board();
        draw_centres(&mut out, map, board, scene.position);
        draw_phase(&mut out, map, board, scene, false);
        out.close()
    }
}

/// The SVG text being written.
struct Svg(String);

impl Svg {
    /// The document's opening tag: `viewBox` in the board's units, and a
    /// default size of twice that.
    fn document(board: &Board) -> Svg {
        let mut out = Svg(String::with_capacity(96 * 1024));
        let (width, height) = size(board);
        let _ = writeln!(
            out.0,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" width="{}" height="{}" font-family="Go, sans-serif">"#,
            n(width),
            n(height),
            n(width * 2.0),
            n(height * 2.0)
        );
        out
    }

    /// The board's group, below the title band.
    fn open_board(&mut self) {
        let _ = writeln!(
            self.0,
            r#"<g transform="translate(0 {})">"#,
            n(style::TITLE_BAND)
        );
    }

    fn close(mut self) -> String {
        self.0.push_str("</svg>\n");
        self.0
    }
}

/// A number as SVG writes it: at most two decimals, no trailing zeros.
fn n(v: f32) -> String {
    let r = (v * 100.0).round() / 100.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        let s = format!("{r:.2}");
        s.trim_end_matches('0').to_string()
    }
}

fn pt(p: Point) -> String {
    format!("{} {}", n(p.0), n(p.1))
}

fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            c => s.push(c),
        }
    }
    s
}

/// The province fill: the owner's tint for a supply centre, a light tint
/// of the occupier's colour for other land, the sea colour for seas.
fn fill_of(map: &Map, position: &Position, p: Province) -> &'static str {
    match map.terrain(p) {
        Terrain::Sea => return style::SEA,
        Terrain::Impassable => return style::IMPASSABLE,
        _ => {}
    }
    if map.is_supply_centre(p) {
        return match position.owner(p) {
            Some(owner) => style::tint(owner),
            None => style::LAND,
        };
    }
    match position.unit_in(map, p) {
        Some(u) => style::light_tint(u.power),
        None => style::LAND,
    }
}

/// The provinces filled (`fill_of`), then the islands and waters.
fn draw_fills(out: &mut Svg, map: &Map, board: &Board, position: &Position) {
    let o = &mut out.0;
    o.push_str(r#"<g stroke="none" fill-rule="evenodd">"#);
    o.push('\n');
    for p in map.provinces() {
        let _ = writeln!(
            o,
            r#"<path fill="{}" d="{}"/>"#,
            fill_of(map, position, p),
            board.shape(p).path
        );
    }
    let _ = writeln!(
        o,
        r#"<path fill="{}" d="{}"/>"#,
        style::LAND,
        board.islands()
    );
    let _ = writeln!(o, r#"<path fill="{}" d="{}"/>"#, style::SEA, board.waters());
    o.push_str("</g>\n");
}

/// Sea borders, land borders and the coastline.
fn draw_lines(out: &mut Svg, board: &Board) {
    let _ = writeln!(
        out.0,
        r#"<g fill="none" stroke-linejoin="round"><path stroke="{}" stroke-width="0.6" d="{}"/><path stroke="{}" stroke-width="0.6" d="{}"/><path stroke="{}" stroke-width="0.9" d="{}"/></g>"#,
        style::SEA_BORDER,
        board.sea_borders(),
        style::LAND_BORDER,
        board.land_borders(),
        style::COASTLINE,
        board.coastline()
    );
}

/// Supply centres: a ring in the owner's colour (white when neutral).
fn draw_centres(out: &mut Svg, map: &Map, board: &Board, position: &Position) {
    let o = &mut out.0;
    o.push_str(r##"<g stroke="#333333" stroke-width="0.7">"##);
    for p in map.supply_centres() {
        if let Some(c) = board.shape(p).centre {
            let fill = position
                .owner(p)
                .map_or(style::NEUTRAL_CENTRE, style::power);
            let _ = write!(
                o,
                r#"<circle cx="{}" cy="{}" r="2.6" fill="{fill}"/>"#,
                n(c.0),
                n(c.1)
            );
        }
    }
    o.push_str("</g>\n");
}

/// Labels: the standard abbreviations.
fn draw_labels(out: &mut Svg, map: &Map, board: &Board) {
    let o = &mut out.0;
    let _ = write!(
        o,
        r#"<g font-size="6" font-weight="bold" text-anchor="middle" fill="{}">"#,
        style::LABEL
    );
    for p in map.provinces() {
        let s = board.shape(p);
        let colour = if map.terrain(p) == Terrain::Sea {
            format!(r#" fill="{}""#, style::SEA_LABEL)
        } else {
            String::new()
        };
        let _ = write!(
            o,
            r#"<text x="{}" y="{}"{colour}>{}</text>"#,
            n(s.label.0),
            n(s.label.1 + 6.0),
            s.abbr
        );
    }
    o.push_str("</g>\n");
}

/// What the orders do to how the units are drawn.
struct Marks {
    /// Units (by location id) dislodged in the movement phase drawn.
    dislodged: Vec<bool>,
}

impl Marks {
    fn of(map: &Map, _board: &Board, scene: &Scene<'_>) -> Marks {
        let mut dislodged = vec![false; map.location_count()];
        if scene.position.phase.kind == PhaseKind::Movement {
            for (order, outcome) in scene.orders {
                if outcome.contains(Outcome::DISLODGED) {
                    dislodged[order.location.index()] = true;
                }
            }
        }
        Marks { dislodged }
    }
}

/// An order counts as failed when it did not do what it said: a move that
/// did not arrive, a cut support, a void order, a retreat that bounced.
fn failed(order: &Order, outcome: Outcome) -> bool {
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

fn sub(a: Point, b: Point) -> Point {
    (a.0 - b.0, a.1 - b.1)
}

fn add(a: Point, b: Point) -> Point {
    (a.0 + b.0, a.1 + b.1)
}

fn scale(a: Point, k: f32) -> Point {
    (a.0 * k, a.1 * k)
}

fn length(a: Point) -> f32 {
    (a.0 * a.0 + a.1 * a.1).sqrt()
}

fn unit_vector(from: Point, to: Point) -> Point {
    let d = sub(to, from);
    let l = length(d);
    if l == 0.0 {
        (1.0, 0.0)
    } else {
        scale(d, 1.0 / l)
    }
}

/// Moves `from` towards `to` by `by` (or to the middle, if they are closer).
fn toward(from: Point, to: Point, by: f32) -> Point {
    let by = by.min(length(sub(to, from)) / 2.0);
    add(from, scale(unit_vector(from, to), by))
}

/// Moves `from` towards `to` until it leaves the badge of a unit standing
/// at `from` (plus a little air), or to the middle if they are closer.
fn off_badge(from: Point, to: Point) -> Point {
    let d = unit_vector(from, to);
    let along = |half: f32, c: f32| {
        if c == 0.0 {
            f32::INFINITY
        } else {
            half / c.abs()
        }
    };
    let out = along(style::UNIT_HALF_WIDTH, d.0).min(along(style::UNIT_HALF_HEIGHT, d.1));
    toward(from, to, out + 1.2)
}

/// Where the orders' lines start and end: units drawn beside their
/// province when dislodged.
struct Geometry<'a> {
    map: &'a Map,
    board: &'a Board,
    position: &'a Position,
    marks: &'a Marks,
}

impl Geometry<'_> {
    /// Where the unit that gave `order` is drawn.
    fn from(&self, order: &Order) -> Point {
        let l = order.location;
        let retreating = self.position.phase.kind == PhaseKind::Retreat;
        if retreating || self.marks.dislodged[l.index()] {
            self.board.dislodged_point(l)
        } else {
            self.board.unit_point(l)
        }
    }

    /// Where the unit in province `p` is drawn (beside the province when
    /// dislodged; the province's point when it has none).
    fn unit_in(&self, p: Province) -> Point {
        match self.position.unit_in(self.map, p) {
            Some(u) if self.marks.dislodged[u.location.index()] => {
                self.board.dislodged_point(u.location)
            }
            Some(u) => self.board.unit_point(u.location),
            None => self.board.unit_point(p.location()),
        }
    }

    fn at(&self, l: Location) -> Point {
        self.board.unit_point(l)
    }
}

/// The orders' drawing, in layers drawn one over the other.
#[derive(Default)]
struct Layers {
    /// Supports, convoys: under the units.
    lines: String,
    /// Moves and retreats: over the units.
    arrows: String,
    /// Failure marks: over everything.
    crosses: String,
    /// Holds, builds: around units.
    rings: String,
}

fn draw_orders(out: &mut Svg, map: &Map, board: &Board, scene: &Scene<'_>, marks: &Marks) {
    let geo = Geometry {
        map,
        board,
        position: scene.position,
        marks,
    };
    let mut layers = Layers::default();
    for (order, outcome) in scene.orders {
        draw_order(&mut layers, &geo, order, *outcome);
    }
    draw_retreat_options(&mut layers.lines, board, scene);
    let o = &mut out.0;
    let _ = writeln!(o, "<g>{}</g>", layers.lines);
    draw_units(o, map, board, scene, marks);
    let _ = writeln!(o, "<g>{}</g>", layers.rings);
    let _ = writeln!(o, "<g>{}</g>", layers.arrows);
    let _ = writeln!(o, "<g>{}</g>", layers.crosses);
}

/// One order with its result, into its layers.
fn draw_order(layers: &mut Layers, geo: &Geometry<'_>, order: &Order, outcome: Outcome) {
    let failed = failed(order, outcome);
    let colour = if failed { style::FAILED } else { style::ORDER };
    match order.kind {
        OrderKind::Hold => {
            if !outcome.contains(Outcome::DEFAULTED) {
                let c = geo.from(order);
                let _ = write!(
                    layers.rings,
                    r#"<circle cx="{}" cy="{}" r="9" fill="none" stroke="{colour}" stroke-width="1.2"/>"#,
                    n(c.0),
                    n(c.1)
                );
            }
            // A hold fails only by dislodgement, which the unit's
            // dashed badge beside its province already shows.
        }
        OrderKind::Move { to, .. } => draw_move(layers, geo, order, to, colour, failed, false),
        OrderKind::Retreat { to } => draw_move(layers, geo, order, to, colour, failed, true),
        OrderKind::Support { from, to, .. } => {
            let middle = draw_support(layers, geo, order, from, to, colour);
            // A cut or void support: the mark on its line.
            if failed {
                cross(&mut layers.crosses, middle);
            }
        }
        OrderKind::Convoy { from, to } => {
            draw_convoy(&mut layers.lines, geo, order, from, to, colour);
            if failed {
                cross(&mut layers.crosses, geo.from(order));
            }
        }
        OrderKind::Build => {
            let c = geo.at(order.location);
            let _ = write!(
                layers.rings,
                r#"<circle cx="{}" cy="{}" r="10" fill="none" stroke="{}" stroke-width="1.4" stroke-dasharray="2 1.4"/>"#,
                n(c.0),
                n(c.1),
                style::ORDER
            );
        }
        OrderKind::Remove | OrderKind::Disband => {
            cross(&mut layers.crosses, geo.from(order));
        }
        OrderKind::Waive => {}
    }
}

/// A move (or, `retreat`, a retreat) to `to`: an arrow, and where it
/// stopped when it failed (short of the target, clear of the unit
/// standing there).
fn draw_move(
    layers: &mut Layers,
    geo: &Geometry<'_>,
    order: &Order,
    to: Location,
    colour: &str,
    failed: bool,
    retreat: bool,
) {
    let (a, b) = (geo.from(order), geo.at(to));
    let (start, end) = (off_badge(a, b), off_badge(b, a));
    arrow(&mut layers.arrows, start, end, colour, failed, retreat);
    if failed {
        cross(&mut layers.crosses, toward(end, start, 4.5));
    }
}

/// A support of the unit in `from` (to hold, or to move to `to`); returns
/// the middle of its line, where a failure is marked.
fn draw_support(
    layers: &mut Layers,
    geo: &Geometry<'_>,
    order: &Order,
    from: Province,
    to: Option<Location>,
    colour: &str,
) -> Point {
    let s = geo.from(order);
    let u = geo.unit_in(from);
    match to {
        None => {
            // To hold: a dashed line to a ring round the unit.
            let end = toward(u, s, 9.0);
            let _ = write!(
                layers.rings,
                r#"<circle cx="{}" cy="{}" r="9" fill="none" stroke="{colour}" stroke-width="1" stroke-dasharray="2.5 1.5"/>"#,
                n(u.0),
                n(u.1)
            );
            let start = off_badge(s, end);
            let _ = write!(
                layers.lines,
                r#"<path d="M{}L{}" fill="none" stroke="{colour}" stroke-width="1.1" stroke-dasharray="3 1.6"/>"#,
                pt(start),
                pt(end)
            );
            scale(add(start, end), 0.5)
        }
        Some(to) => {
            // To move: a dashed line from the supporter bending
            // through the supported move to its target.
            let t = geo.at(to);
            let mid = scale(add(u, t), 0.5);
            let end = off_badge(t, u);
            let start = off_badge(s, mid);
            let _ = write!(
                layers.lines,
                r#"<path d="M{}Q{} {}" fill="none" stroke="{colour}" stroke-width="1.1" stroke-dasharray="3 1.6"/><circle cx="{}" cy="{}" r="1.6" fill="{colour}"/>"#,
                pt(start),
                pt(mid),
                pt(end),
                n(end.0),
                n(end.1)
            );
            // The curve's own middle.
            add(scale(add(start, end), 0.25), scale(mid, 0.5))
        }
    }
}

/// A convoy: a dotted path from the army in `from` through the fleet to
/// the army's destination `to` (a quadratic through the fleet).
fn draw_convoy(
    lines: &mut String,
    geo: &Geometry<'_>,
    order: &Order,
    from: Province,
    to: Province,
    colour: &str,
) {
    let f = geo.from(order);
    let a = geo.unit_in(from);
    let t = geo.at(to.location());
    let control = sub(scale(f, 2.0), scale(add(a, t), 0.5));
    let start = off_badge(a, control);
    let end = off_badge(t, control);
    let _ = write!(
        lines,
        r#"<path d="M{}Q{} {}" fill="none" stroke="{colour}" stroke-width="1.6" stroke-linecap="round" stroke-dasharray="0.1 2.6"/>"#,
        pt(start),
        pt(control),
        pt(end)
    );
}

/// The retreat options of units dislodged (in the movement results, or
/// waiting in a retreat phase with no orders drawn yet): thin arrows.
fn draw_retreat_options(lines: &mut String, board: &Board, scene: &Scene<'_>) {
    let options: &[Dislodged] = if scene.position.phase.kind == PhaseKind::Retreat {
        if scene.orders.is_empty() {
            &scene.position.dislodged
        } else {
            &[]
        }
    } else {
        scene.retreats
    };
    for d in options {
        let from = board.dislodged_point(d.unit.location);
        for &to in &d.retreats {
            let t = board.unit_point(to);
            let (start, end) = (off_badge(from, t), off_badge(t, from));
            let _ = write!(
                lines,
                r#"<path d="M{}L{}" fill="none" stroke="{}" stroke-width="0.8" stroke-dasharray="1 1.2"/>"#,
                pt(start),
                pt(end),
                style::ORDER
            );
            arrow_head(lines, start, end, style::ORDER, 3.0);
        }
    }
}

/// A move (or, `double`, a retreat: two heads) from `a` to `b`; failed
/// ones dashed.
fn arrow(out: &mut String, a: Point, b: Point, colour: &str, failed: bool, double: bool) {
    let dash = if failed {
        r#" stroke-dasharray="3 2""#
    } else {
        ""
    };
    let shaft_end = toward(b, a, 3.0);
    let _ = write!(
        out,
        r#"<path d="M{}L{}" fill="none" stroke="{}" stroke-width="3" stroke-opacity="0.7"/><path d="M{}L{}" fill="none" stroke="{colour}" stroke-width="1.6"{dash}/>"#,
        pt(a),
        pt(shaft_end),
        style::PAPER,
        pt(a),
        pt(shaft_end)
    );
    arrow_head(out, a, b, colour, 5.0);
    if double {
        arrow_head(out, a, toward(b, a, 3.5), colour, 5.0);
    }
}

/// An arrowhead of `size` with its tip at `tip`, pointing away from `from`.
fn arrow_head(out: &mut String, from: Point, tip: Point, colour: &str, size: f32) {
    let d = unit_vector(from, tip);
    let back = sub(tip, scale(d, size));
    let side = scale((-d.1, d.0), size * 0.45);
    let _ = write!(
        out,
        r#"<path d="M{}L{}L{}Z" fill="{colour}"/>"#,
        pt(tip),
        pt(add(back, side)),
        pt(sub(back, side))
    );
}

/// The mark of a failed order (or a removed unit): a cross.
fn cross(out: &mut String, c: Point) {
    let (x, y) = c;
    let r = 3.2;
    let d = format!(
        "M{} {}L{} {}M{} {}L{} {}",
        n(x - r),
        n(y - r),
        n(x + r),
        n(y + r),
        n(x - r),
        n(y + r),
        n(x + r),
        n(y - r)
    );
    let _ = write!(
        out,
        r#"<path d="{d}" stroke="{}" stroke-width="3.4" stroke-linecap="round"/><path d="{d}" stroke="{}" stroke-width="1.6" stroke-linecap="round"/>"#,
        style::PAPER,
        style::MARK
    );
}

/// The icon of a unit kind inside its badge, centred on (0, 0).
fn icon(kind: UnitType) -> &'static str {
    match kind {
        // A ship: hull, bridge and funnel.
        UnitType::Fleet => {
            "M-5.2 0.4H-2.2V-1.4H-0.7V-3.6H0.7V-1.4H2.2V0.4H5.2L3.6 3H-3.6Z"
        }
        // A cannon: barrel, wheel and trail.
        UnitType::Army => {
            "M-4.4 0.2L3.9 -3.3L4.6 -1.9L-3.6 1.5ZM-3.8 1.4A2.2 2.2 0 1 0 0.6 1.4A2.2 2.2 0 1 0 -3.8 1.4ZM-2 2.2L-5.6 3.6L-5.2 2.4Z"
        }
    }
}

fn unit_badge(o: &mut String, unit: &Unit, at: Point, dislodged: bool) {
    let stroke = if dislodged {
        r##" stroke="#000000" stroke-width="1" stroke-dasharray="1.5 1""##
    } else {
        r##" stroke="#1A1A1A" stroke-width="0.6""##
    };
    let _ = write!(
        o,
        r#"<g transform="translate({} {})"><rect x="{}" y="{}" width="{}" height="{}" rx="2" fill="{}"{stroke}/><path d="{}" fill="{}"/></g>"#,
        n(at.0),
        n(at.1),
        n(-style::UNIT_HALF_WIDTH),
        n(-style::UNIT_HALF_HEIGHT),
        n(2.0 * style::UNIT_HALF_WIDTH),
        n(2.0 * style::UNIT_HALF_HEIGHT),
        style::power(unit.power),
        icon(unit.kind),
        style::on_power(unit.power)
    );
}

fn draw_units(o: &mut String, map: &Map, board: &Board, scene: &Scene<'_>, marks: &Marks) {
    o.push_str("<g>");
    for u in &scene.position.units {
        let l = u.location;
        let dislodged = marks.dislodged[l.index()];
        let at = if dislodged {
            board.dislodged_point(l)
        } else {
            board.unit_point(l)
        };
        unit_badge(o, u, at, dislodged);
    }
    for d in &scene.position.dislodged {
        unit_badge(o, &d.unit, board.dislodged_point(d.unit.location), true);
    }
    // Units built this winter.
    if scene.position.phase.kind == PhaseKind::Adjustment {
        for (order, outcome) in scene.orders {
            if order.kind == OrderKind::Build && !failed(order, *outcome) {
                let unit = Unit {
                    power: order.power,
                    kind: order.unit,
                    location: order.location,
                };
                unit_badge(o, &unit, board.unit_point(order.location), false);
            }
        }
    }
    let _ = map;
    o.push_str("</g>\n");
}

fn draw_title(out: &mut Svg, title: &str) {
    let _ = writeln!(
        out.0,
        r#"<text x="6" y="15" font-size="10" font-weight="bold" fill="{}">{}</text>"#,
        style::LABEL,
        escape(title)
    );
}

/// The legend, or part of it. Per power: its badge and name (`fixed`),
/// its centres and units in `counts_of`'s position (and, in a Winter, the
/// builds or removals due); then (`fixed`) a key to the orders. The
/// layered picture draws the fixed part once per size.
fn draw_legend(out: &mut Svg, board: &Board, counts_of: Option<&Position>, fixed: bool) {
    let top = style::TITLE_BAND + board.height();
    let o = &mut out.0;
    let _ = write!(
        o,
        r#"<g transform="translate(0 {})" font-size="7" fill="{}">"#,
        n(top),
        style::LABEL
    );
    let column = board.width() / 7.0;
    for power in Power::ALL {
        let x = 6.0 + column * power.index() as f32;
        if fixed {
            draw_power_name(o, power, x);
        }
        if let Some(position) = counts_of {
            draw_power_counts(o, power, x, position);
        }
    }
    if fixed {
        draw_key(o);
    }
    o.push_str("</g>\n");
}

/// A power's badge and name, in its column at `x`.
fn draw_power_name(o: &mut String, power: Power, x: f32) {
    let unit = Unit {
        power,
        kind: UnitType::Army,
        location: Location(0),
    };
    unit_badge(o, &unit, (x + 7.0, 10.0), false);
    let _ = write!(
        o,
        r#"<text x="{}" y="12.5" font-weight="bold">{}</text>"#,
        n(x + 17.0),
        power.name()
    );
}

/// A power's centres and units (and the adjustments due), under its name.
fn draw_power_counts(o: &mut String, power: Power, x: f32, position: &Position) {
    let units = position.unit_count(power);
    let centres = position.centre_count(power);
    let mut counts = format!("{centres} SC, {units} units");
    if position.phase.kind == PhaseKind::Adjustment {
        let due = position.adjustment_due(power);
        if due != 0 {
            let _ = write!(counts, ", {due:+}");
        }
    }
    let _ = write!(
        o,
        r#"<text x="{}" y="21" font-size="6">{counts}</text>"#,
        n(x + 17.0)
    );
}

/// The key: one sample of each kind of mark, with its name.
fn draw_key(o: &mut String) {
    let y = 36.0;
    let mut key = String::new();
    let mut x = 6.0;
    let label = |key: &mut String, x: &mut f32, text: &str| {
        let _ = write!(
            key,
            r#"<text x="{}" y="{}" font-size="6">{text}</text>"#,
            n(*x),
            n(y + 2.0)
        );
        *x += 6.0 + text.len() as f32 * 3.4;
    };
    // A straight sample of a line drawn with `stroke` (its attributes).
    let line = |key: &mut String, x: f32, stroke: &str| {
        let _ = write!(
            key,
            r#"<path d="M{} {}H{}" stroke="{}" {stroke}/>"#,
            n(x),
            n(y),
            n(x + 18.0),
            style::ORDER
        );
    };
    arrow(&mut key, (x, y), (x + 18.0, y), style::ORDER, false, false);
    x += 22.0;
    label(&mut key, &mut x, "move");
    line(
        &mut key,
        x,
        r#"stroke-width="1.1" stroke-dasharray="3 1.6""#,
    );
    x += 22.0;
    label(&mut key, &mut x, "support");
    line(
        &mut key,
        x,
        r#"stroke-width="1.6" stroke-linecap="round" stroke-dasharray="0.1 2.6""#,
    );
    x += 22.0;
    label(&mut key, &mut x, "convoy");
    arrow(&mut key, (x, y), (x + 18.0, y), style::FAILED, true, false);
    cross(&mut key, (x + 18.0, y));
    x += 24.0;
    label(&mut key, &mut x, "failed");
    arrow(&mut key, (x, y), (x + 18.0, y), style::ORDER, false, true);
    x += 22.0;
    label(&mut key, &mut x, "retreat");
    let sample = Unit {
        power: Power::Russia,
        kind: UnitType::Fleet,
        location: Location(0),
    };
    unit_badge(&mut key, &sample, (x + 7.0, y), true);
    x += 17.0;
    label(&mut key, &mut x, "dislodged");
    let _ = write!(
        key,
        r#"<circle cx="{}" cy="{}" r="5" fill="none" stroke="{}" stroke-width="1.2" stroke-dasharray="2 1.4"/>"#,
        n(x + 5.0),
        n(y),
        style::ORDER
    );
    x += 13.0;
    label(&mut key, &mut x, "build");
    let _ = write!(
        key,
        r##"<circle cx="{}" cy="{}" r="2.6" fill="{}" stroke="#333333" stroke-width="0.7"/>"##,
        n(x + 3.0),
        n(y),
        style::NEUTRAL_CENTRE
    );
    x += 9.0;
    label(&mut key, &mut x, "supply centre");
    o.push_str(&key);
}
