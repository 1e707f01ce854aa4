//! One phase drawn as SVG: the board tinted by ownership, the units, the
//! orders as players draw them, a legend and a title. Where everything
//! goes is decided first (`orders::lay_out`: badges, lines, marks, and the
//! names placed clear of them); this writes it.

use std::fmt::Write;

use super::board::{Board, Point};
use super::orders::{self, Kind, Layout, Line, LineKind};
use super::place::{self, add, scale, sub, Label};
use super::style::{self, Palette};
use judge_engine::map::{Location, Map, Power, Province, Terrain, UnitType};
use judge_engine::order::Order;
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
    /// The powers' colours.
    pub palette: Palette,
}

/// The whole picture's size in SVG user units.
pub fn size(board: &Board) -> (f32, f32) {
    (
        board.width(),
        style::TITLE_BAND + board.height() + style::LEGEND_BAND,
    )
}

/// Where everything of `scene` is drawn: the badges, the orders' lines,
/// every mark's box and the province names' places (what the tests check
/// the drawing by).
pub fn layout(map: &Map, scene: &Scene<'_>) -> Layout {
    orders::lay_out(map, scene)
}

/// Draws `scene` as a standalone SVG document.
pub fn render(map: &Map, scene: &Scene<'_>) -> String {
    let board = Board::standard();
    let layout = orders::lay_out(map, scene);
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
    draw_fills(&mut out, map, board, scene);
    draw_lines(&mut out, board);
    draw_centres(&mut out, map, board, scene);
    draw_labels(&mut out, map, &layout.labels);
    draw_phase(&mut out, scene, &layout, true);
    out.close()
}

/// Over the board: the orders and units (closing the board's group),
/// then the title and (`whole`) the legend.
fn draw_phase(out: &mut Svg, scene: &Scene<'_>, layout: &Layout, whole: bool) {
    draw_orders(out, scene.palette, layout);
    out.0.push_str("</g>\n");
    draw_title(out, scene.title);
    if whole {
        draw_legend(
            out,
            Board::standard(),
            Some((scene, layout)),
            true,
            scene.palette,
        );
    }
}

/// The picture in layers, for a raster that draws the board's unchanging
/// parts once per size (`png::render_scene`): stacked, [`board_index`]
/// coloured by [`province_fills`], then [`board_lines`], then the names
/// of [`board_labels`] (each where the placement pass put it), then
/// [`key`] and [`scene_marks`] give the picture [`render`] draws, but
/// that the supply-centre rings lie over the labels rather than under
/// them and a moved name stands on whole pixels.
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

    /// Each province's fill colour in `scene`, by province index.
    pub fn province_fills(map: &Map, scene: &Scene<'_>) -> Vec<&'static str> {
        map.provinces()
            .map(|p| fill_of(map, scene.position, scene.palette, p))
            .collect()
    }

    /// The borders and coastlines, and the fixed part of the legend (in
    /// `palette`: badges, names), on a transparent ground.
    pub fn board_lines(palette: Palette) -> String {
        let board = Board::standard();
        let mut out = Svg::document(board);
        out.open_board();
        draw_lines(&mut out, board);
        out.0.push_str("</g>\n");
        draw_legend(&mut out, board, None, true, palette);
        out.close()
    }

    /// Every province's name where the board puts it, on a transparent
    /// ground (a phase draws those it moves itself: [`scene_marks`]).
    pub fn board_labels(map: &Map) -> String {
        let board = Board::standard();
        let labels: Vec<Label> = map
            .provinces()
            .map(|p| place::board_label(map, p))
            .collect();
        let mut out = Svg::document(board);
        out.open_board();
        draw_labels(&mut out, map, &labels);
        out.0.push_str("</g>\n");
        out.close()
    }

    /// What changes from phase to phase over the board's lines and names
    /// (the names the phase moves are the board's names laid elsewhere),
    /// but the legend: the supply centres' rings, the orders, the units
    /// and the title, on a transparent ground.
    pub fn scene_marks(map: &Map, scene: &Scene<'_>, layout: &Layout) -> String {
        let board = Board::standard();
        let mut out = Svg::document(board);
        out.open_board();
        draw_centres(&mut out, map, board, scene);
        draw_phase(&mut out, scene, layout, false);
        out.close()
    }

    /// [`scene_marks`] in two, what lies under the units and what over
    /// them (the title with it), for a raster that lays each unit's
    /// badge, drawn once per kind (see [`badge`]), between the two.
    pub fn scene_marks_around_units(
        map: &Map,
        scene: &Scene<'_>,
        layout: &Layout,
    ) -> (String, String) {
        let board = Board::standard();
        let (under, over) = order_lines(layout);
        let mut below = Svg::document(board);
        below.open_board();
        draw_centres(&mut below, map, board, scene);
        let _ = writeln!(below.0, "<g>{under}</g>\n</g>");
        let mut above = Svg::document(board);
        above.open_board();
        draw_over_units(&mut above.0, layout, &over);
        above.0.push_str("</g>\n");
        draw_title(&mut above, scene.title);
        (below.close(), above.close())
    }

    /// One unit's badge alone, its centre at `at` in the document (not
    /// the board: no title band above it), on a transparent ground.
    pub fn badge(palette: Palette, unit: &Unit, at: Point, dislodged: bool) -> String {
        let mut out = Svg::document(Board::standard());
        unit_badge(&mut out.0, palette, unit, at, dislodged);
        out.close()
    }

    /// The legend's key to `kinds` alone, on a transparent ground: a
    /// judge's phases draw few sets of kinds, each rasterised once.
    pub fn key(kinds: &[Kind]) -> String {
        let board = Board::standard();
        let mut out = Svg::document(board);
        let _ = write!(
            out.0,
            r#"<g transform="translate(0 {})" font-size="7" fill="{}">"#,
            n(style::TITLE_BAND + board.height()),
            style::LABEL
        );
        draw_key(&mut out.0, kinds);
        out.0.push_str("</g>\n");
        out.close()
    }

    /// Where the key's row starts, below the legend's top (SVG units).
    pub const KEY_TOP: f32 = KEY_ROW - 10.0;

    /// One power's counts (`counts_text`) in its column of the legend
    /// alone, on a transparent ground; and the box of it (SVG units).
    pub fn counts(power: Power, counts: &str, waived: u8) -> (String, place::Rect) {
        let board = Board::standard();
        let mut out = Svg::document(board);
        let top = style::TITLE_BAND + board.height();
        let _ = write!(
            out.0,
            r#"<g transform="translate(0 {})" font-size="7" fill="{}">"#,
            n(top),
            style::LABEL
        );
        let x = column_x(board, power);
        draw_power_counts(&mut out.0, x, counts, waived);
        out.0.push_str("</g>\n");
        let column = place::Rect {
            x0: x - 2.0,
            y0: top + 16.5,
            x1: (x + board.width() / 7.0 - 2.0).min(board.width()),
            y1: top + KEY_TOP,
        };
        (out.close(), column)
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
/// In hundredths as an integer: formatting a float with two decimals
/// was 5% of an archive rebuild's CPU in a profile (2% with integers; a
/// map has thousands of numbers).
fn n(v: f32) -> String {
    let hundredths = (v * 100.0).round() as i64;
    let sign = if hundredths < 0 { "-" } else { "" };
    let (whole, frac) = (hundredths.abs() / 100, hundredths.abs() % 100);
    match frac {
        0 => format!("{sign}{whole}"),
        f if f % 10 == 0 => format!("{sign}{whole}.{}", f / 10),
        f => format!("{sign}{whole}.{f:02}"),
    }
}

fn pt(p: Point) -> String {
    format!("{} {}", n(p.0), n(p.1))
}

/// A polyline as path data.
fn path_data(points: &[Point]) -> String {
    let mut d = String::with_capacity(points.len() * 14);
    for (i, &p) in points.iter().enumerate() {
        d.push(if i == 0 { 'M' } else { 'L' });
        d.push_str(&pt(p));
    }
    d
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
fn fill_of(map: &Map, position: &Position, palette: Palette, p: Province) -> &'static str {
    let colours = palette.colours();
    match map.terrain(p) {
        Terrain::Sea => return style::SEA,
        Terrain::Impassable => return style::IMPASSABLE,
        _ => {}
    }
    if map.is_supply_centre(p) {
        return match position.owner(p) {
            Some(owner) => colours.tint[owner.index()],
            None => style::LAND,
        };
    }
    match position.unit_in(map, p) {
        Some(u) => colours.light_tint[u.power.index()],
        None => style::LAND,
    }
}

/// The provinces filled (`fill_of`), then the islands and waters.
fn draw_fills(out: &mut Svg, map: &Map, board: &Board, scene: &Scene<'_>) {
    let o = &mut out.0;
    o.push_str(r#"<g stroke="none" fill-rule="evenodd">"#);
    o.push('\n');
    for p in map.provinces() {
        let _ = writeln!(
            o,
            r#"<path fill="{}" d="{}"/>"#,
            fill_of(map, scene.position, scene.palette, p),
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
fn draw_centres(out: &mut Svg, map: &Map, board: &Board, scene: &Scene<'_>) {
    let o = &mut out.0;
    let colours = scene.palette.colours();
    o.push_str(r##"<g stroke="#333333" stroke-width="0.7">"##);
    for p in map.supply_centres() {
        if let Some(c) = board.shape(p).centre {
            let fill = scene
                .position
                .owner(p)
                .map_or(style::NEUTRAL_CENTRE, |o| colours.power[o.index()]);
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

/// Labels: the standard abbreviations where the placement pass put them.
fn draw_labels(out: &mut Svg, map: &Map, labels: &[Label]) {
    let o = &mut out.0;
    let _ = write!(
        o,
        r#"<g font-size="{}" font-weight="bold" text-anchor="middle" fill="{}">"#,
        n(place::LABEL_SIZE),
        style::LABEL
    );
    for label in labels {
        let colour = if map.terrain(label.province) == Terrain::Sea {
            format!(r#" fill="{}""#, style::SEA_LABEL)
        } else {
            String::new()
        };
        let _ = write!(
            o,
            r#"<text x="{}" y="{}"{colour}>{}</text>"#,
            n(label.at.0),
            n(label.at.1),
            label.text
        );
    }
    o.push_str("</g>\n");
}

/// The orders' drawing in layers, one over the other: supports, convoyed
/// moves and retreat options under the units; frames and signs round
/// them; moves and retreats over them; failure crosses over everything.
fn draw_orders(out: &mut Svg, palette: Palette, layout: &Layout) {
    let (under, over) = order_lines(layout);
    let o = &mut out.0;
    let _ = writeln!(o, "<g>{under}</g>");
    draw_units(o, palette, layout);
    draw_over_units(o, layout, &over);
}

/// The orders' marks drawn under the units (supports, convoys and
/// convoyed moves, supports' end dots), and the moves and retreats drawn
/// over them.
fn order_lines(layout: &Layout) -> (String, String) {
    let (mut under, mut over) = (String::new(), String::new());
    for line in &layout.lines {
        let into = match line.kind {
            LineKind::Move | LineKind::Retreat if !line.convoyed => &mut over,
            _ => &mut under,
        };
        draw_line(into, line);
    }
    for &(c, failed) in &layout.dots {
        let colour = if failed { style::FAILED } else { style::ORDER };
        let _ = write!(
            under,
            r#"<circle cx="{}" cy="{}" r="{}" fill="{colour}"/>"#,
            n(c.0),
            n(c.1),
            n(orders::DOT)
        );
    }
    (under, over)
}

/// What lies over the units: frames, builds' and removals' signs, the
/// moves and retreats (`over`), crosses.
fn draw_over_units(o: &mut String, layout: &Layout, over: &str) {
    o.push_str("<g>");
    for &(c, dotted, failed) in &layout.frames {
        frame(o, c, dotted, failed);
    }
    for &(c, build) in &layout.signs {
        sign(o, orders::sign_centre(c), build);
    }
    let _ = writeln!(o, "</g>\n<g>{over}</g>");
    o.push_str("<g>");
    for &c in &layout.crosses {
        cross(o, c);
    }
    o.push_str("</g>\n");
}

/// The points of a line but its last `by` units (where its head is).
fn cut_end(points: &[Point], by: f32) -> Vec<Point> {
    let keep = (place::polyline_length(points) - by).max(0.0);
    let mut out = vec![points[0]];
    let mut walked = 0.0;
    for w in points.windows(2) {
        let l = place::length(sub(w[1], w[0]));
        if walked + l >= keep {
            out.push(place::point_along(points, keep));
            return out;
        }
        walked += l;
        out.push(w[1]);
    }
    out
}

/// The direction a line arrives in at its end.
fn arrival(points: &[Point]) -> (Point, Point) {
    let tip = points[points.len() - 1];
    let back = place::point_along(points, place::polyline_length(points) - 6.0);
    (back, tip)
}

fn draw_line(o: &mut String, line: &Line) {
    let colour = match (line.kind, line.failed) {
        (_, true) => style::FAILED,
        (LineKind::Retreat, _) => style::RETREAT,
        (LineKind::RetreatOption, _) => style::OPTION,
        _ => style::ORDER,
    };
    match line.kind {
        LineKind::Move | LineKind::Retreat => {
            let shaft = path_data(&cut_end(&line.points, 4.5));
            let dash = if line.failed {
                r#" stroke-dasharray="3 2""#
            } else {
                ""
            };
            let _ = write!(
                o,
                r#"<path d="{shaft}" fill="none" stroke="{}" stroke-width="3.4" stroke-opacity="0.7"/><path d="{shaft}" fill="none" stroke="{colour}" stroke-width="1.7"{dash}/>"#,
                style::PAPER,
            );
            let (back, tip) = arrival(&line.points);
            arrow_head(o, back, tip, colour, 6.0);
            if line.kind == LineKind::Retreat {
                let second =
                    place::point_along(&line.points, place::polyline_length(&line.points) - 4.0);
                arrow_head(o, back, second, colour, 6.0);
            }
        }
        LineKind::Support => {
            let _ = write!(
                o,
                r#"<path d="{}" fill="none" stroke="{colour}" stroke-width="1.2" stroke-dasharray="3.2 1.6"/>"#,
                path_data(&line.points)
            );
        }
        LineKind::RetreatOption => {
            let _ = write!(
                o,
                r#"<path d="{}" fill="none" stroke="{colour}" stroke-width="0.9" stroke-dasharray="4 1.8"/>"#,
                path_data(&line.points)
            );
            let (back, tip) = arrival(&line.points);
            open_head(o, back, tip, colour);
        }
    }
}

/// A filled arrowhead of `size` with its tip at `tip`, pointing away from
/// `from`.
fn arrow_head(out: &mut String, from: Point, tip: Point, colour: &str, size: f32) {
    let d = place::unit_vector(from, tip);
    let back = sub(tip, scale(d, size));
    let side = scale((-d.1, d.0), size * 0.5);
    let _ = write!(
        out,
        r#"<path d="M{}L{}L{}Z" fill="{colour}"/>"#,
        pt(tip),
        pt(add(back, side)),
        pt(sub(back, side))
    );
}

/// An open arrowhead (a chevron): where a unit may retreat.
fn open_head(out: &mut String, from: Point, tip: Point, colour: &str) {
    let d = place::unit_vector(from, tip);
    let back = sub(tip, scale(d, 4.5));
    let side = scale((-d.1, d.0), 2.6);
    let _ = write!(
        out,
        r#"<path d="M{}L{}L{}" fill="none" stroke="{colour}" stroke-width="1" stroke-linejoin="round"/>"#,
        pt(add(back, side)),
        pt(tip),
        pt(sub(back, side))
    );
}

/// A hold's frame round a badge (solid), or a convoy's (dots).
fn frame(o: &mut String, c: Point, dotted: bool, failed: bool) {
    let colour = if failed { style::FAILED } else { style::ORDER };
    let (hw, hh) = (
        style::UNIT_HALF_WIDTH + orders::FRAME,
        style::UNIT_HALF_HEIGHT + orders::FRAME,
    );
    let look = if dotted {
        r#"stroke-width="1.8" stroke-linecap="round" stroke-dasharray="0.1 2.5""#
    } else {
        r#"stroke-width="1.3""#
    };
    let _ = write!(
        o,
        r#"<rect x="{}" y="{}" width="{}" height="{}" rx="4" fill="none" stroke="{colour}" {look}/>"#,
        n(c.0 - hw),
        n(c.1 - hh),
        n(2.0 * hw),
        n(2.0 * hh)
    );
}

/// A build's sign (a black disc with a white plus) or a removal's (a red
/// disc with a white minus), at a badge's corner: the unit's kind stays
/// in sight.
fn sign(o: &mut String, c: Point, build: bool) {
    let (fill, bar) = if build {
        (
            style::ORDER,
            format!(
                "M{}h4.4M{}v4.4",
                pt(add(c, (-2.2, 0.0))),
                pt(add(c, (0.0, -2.2)))
            ),
        )
    } else {
        (style::MARK, format!("M{}h4.4", pt(add(c, (-2.2, 0.0)))))
    };
    let _ = write!(
        o,
        r#"<circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{}" stroke-width="0.8"/><path d="{bar}" stroke="{}" stroke-width="1.3"/>"#,
        n(c.0),
        n(c.1),
        n(orders::SIGN),
        style::PAPER,
        style::PAPER
    );
}

/// The mark of a failed order: a cross.
fn cross(out: &mut String, c: Point) {
    let (x, y) = c;
    let r = orders::CROSS;
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
        r#"<path d="{d}" stroke="{}" stroke-width="3.6" stroke-linecap="round"/><path d="{d}" stroke="{}" stroke-width="1.7" stroke-linecap="round"/>"#,
        style::PAPER,
        style::MARK
    );
}

/// The icon of a unit kind inside its badge, centred on (0, 0), before
/// [`style::ICON_SCALE`].
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

fn unit_badge(o: &mut String, palette: Palette, unit: &Unit, at: Point, dislodged: bool) {
    let colours = palette.colours();
    let stroke = if dislodged {
        r#" stroke-width="1.2" stroke-dasharray="2 1.2""#
    } else {
        r#" stroke-width="0.8""#
    };
    let _ = write!(
        o,
        r#"<g transform="translate({} {})"><rect x="{}" y="{}" width="{}" height="{}" rx="2" fill="{}" stroke="{}"{stroke}/><path transform="scale({})" d="{}" fill="{}"/></g>"#,
        n(at.0),
        n(at.1),
        n(-style::UNIT_HALF_WIDTH),
        n(-style::UNIT_HALF_HEIGHT),
        n(2.0 * style::UNIT_HALF_WIDTH),
        n(2.0 * style::UNIT_HALF_HEIGHT),
        colours.power[unit.power.index()],
        style::OUTLINE,
        n(style::ICON_SCALE),
        icon(unit.kind),
        colours.on_power[unit.power.index()]
    );
}

fn draw_units(o: &mut String, palette: Palette, layout: &Layout) {
    o.push_str("<g>");
    for b in &layout.badges {
        unit_badge(o, palette, &b.unit, b.at, b.dislodged);
    }
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

/// The legend, or part of it. Per power: its badge and name (`names`),
/// and from the scene its centres and units (and, in a Winter, the
/// builds or removals due and builds waived); then, from the scene, a
/// key to the marks it draws. The layered picture draws the names once
/// per size and palette, and each power's counts and each key once per
/// size and text ([`layers::counts`], [`layers::key`]).
fn draw_legend(
    out: &mut Svg,
    board: &Board,
    scene: Option<(&Scene<'_>, &Layout)>,
    names: bool,
    palette: Palette,
) {
    let top = style::TITLE_BAND + board.height();
    let o = &mut out.0;
    let _ = write!(
        o,
        r#"<g transform="translate(0 {})" font-size="7" fill="{}">"#,
        n(top),
        style::LABEL
    );
    for power in Power::ALL {
        let x = column_x(board, power);
        if names {
            draw_power_name(o, palette, power, x);
        }
        if let Some((scene, layout)) = scene {
            let waived = layout.waived[power.index()];
            draw_power_counts(o, x, &counts_text(power, scene.position, waived), waived);
        }
    }
    if let Some((_, layout)) = scene {
        draw_key(o, &layout.kinds);
    }
    o.push_str("</g>\n");
}

/// The left edge of `power`'s column in the legend.
fn column_x(board: &Board, power: Power) -> f32 {
    6.0 + board.width() / 7.0 * power.index() as f32
}

/// A power's badge and name, in its column at `x`.
fn draw_power_name(o: &mut String, palette: Palette, power: Power, x: f32) {
    let unit = Unit {
        power,
        kind: UnitType::Army,
        location: Location(0),
    };
    unit_badge(o, palette, &unit, (x + 8.5, 10.0), false);
    let _ = write!(
        o,
        r#"<text x="{}" y="12.5" font-weight="bold">{}</text>"#,
        n(x + 20.0),
        power.name()
    );
}

/// A power's centres and units (and the adjustments due, and builds
/// waived) in `position`.
pub fn counts_text(power: Power, position: &Position, waived: u8) -> String {
    let units = position.unit_count(power);
    let centres = position.centre_count(power);
    let mut counts = format!("{centres} SC, {units} units");
    if position.phase.kind == PhaseKind::Adjustment {
        let due = position.adjustment_due(power);
        if due != 0 {
            let _ = write!(counts, ", {due:+}");
        }
        if waived > 0 {
            let _ = write!(counts, " ({waived} waived)");
        }
    }
    counts
}

/// A power's counts under its name, in its column at `x`, with the
/// waived builds' mark if any.
fn draw_power_counts(o: &mut String, x: f32, counts: &str, waived: u8) {
    if waived > 0 {
        waive_sign(o, (x + 8.5, 21.5));
    }
    // A column holds about 24 characters at size 6: a longer text (a
    // Winter's "5 SC, 3 units, +2 (1 waived)") is set smaller to fit it,
    // never into the next power's column.
    let length = counts.chars().count().max(1) as f32;
    let size = (6.0 * COUNTS_FIT / length).min(6.0);
    let _ = write!(
        o,
        r#"<text x="{}" y="23" font-size="{}">{counts}</text>"#,
        n(x + 20.0),
        n(size)
    );
}

/// The characters of a power's counts that fit its column at size 6.
const COUNTS_FIT: f32 = 24.0;

/// A build waived: a hollow, dashed disc with a grey plus.
fn waive_sign(o: &mut String, c: Point) {
    let _ = write!(
        o,
        r#"<circle cx="{}" cy="{}" r="{}" fill="{}" stroke="{}" stroke-width="0.9" stroke-dasharray="1.4 1"/><path d="M{}h4.4M{}v4.4" stroke="{}" stroke-width="1.2"/>"#,
        n(c.0),
        n(c.1),
        n(orders::SIGN),
        style::PAPER,
        style::FAILED,
        pt(add(c, (-2.2, 0.0))),
        pt(add(c, (0.0, -2.2))),
        style::FAILED
    );
}

/// The key's row in the legend (SVG units below the legend's top).
const KEY_ROW: f32 = 40.0;

/// A badge without a power (white, no icon), for the key's samples.
fn plain_badge(o: &mut String, c: Point, dislodged: bool) {
    let dash = if dislodged {
        r#" stroke-width="1.2" stroke-dasharray="2 1.2""#
    } else {
        r#" stroke-width="0.8""#
    };
    let _ = write!(
        o,
        r#"<rect x="{}" y="{}" width="{}" height="{}" rx="2" fill="{}" stroke="{}"{dash}/>"#,
        n(c.0 - style::UNIT_HALF_WIDTH),
        n(c.1 - style::UNIT_HALF_HEIGHT),
        n(2.0 * style::UNIT_HALF_WIDTH),
        n(2.0 * style::UNIT_HALF_HEIGHT),
        style::PAPER,
        style::OUTLINE
    );
}

/// One sample of `kind` with its left edge at `x` on the key's row `y`;
/// returns its width.
fn key_sample(o: &mut String, kind: Kind, x: f32, y: f32) -> f32 {
    let line = |kind, failed, points: Vec<Point>| Line {
        what: String::new(),
        kind,
        failed,
        convoyed: false,
        points,
    };
    let across = vec![(x, y), (x + 18.0, y)];
    let badge_at = (x + style::UNIT_HALF_WIDTH + orders::FRAME, y);
    match kind {
        Kind::Move => draw_line(o, &line(LineKind::Move, false, across)),
        Kind::Retreat => draw_line(o, &line(LineKind::Retreat, false, across)),
        Kind::RetreatOption => draw_line(o, &line(LineKind::RetreatOption, false, across)),
        Kind::Support => {
            draw_line(o, &line(LineKind::Support, false, across));
            let _ = write!(
                o,
                r#"<circle cx="{}" cy="{y}" r="{}" fill="{}"/>"#,
                n(x + 18.0),
                n(orders::DOT),
                style::ORDER
            );
        }
        Kind::Failed => {
            draw_line(o, &line(LineKind::Move, true, across));
            cross(o, (x + 9.0, y));
        }
        Kind::Hold | Kind::Convoy => {
            plain_badge(o, badge_at, false);
            frame(o, badge_at, kind == Kind::Convoy, false);
            return 2.0 * (style::UNIT_HALF_WIDTH + orders::FRAME);
        }
        Kind::Dislodged => plain_badge(o, badge_at, true),
        Kind::Build | Kind::Removal => {
            plain_badge(o, badge_at, false);
            sign(o, orders::sign_centre(badge_at), kind == Kind::Build);
        }
        Kind::Waive => {
            waive_sign(o, (x + orders::SIGN, y));
            return 2.0 * orders::SIGN;
        }
    }
    if matches!(kind, Kind::Dislodged | Kind::Build | Kind::Removal) {
        2.0 * (style::UNIT_HALF_WIDTH + orders::FRAME)
    } else {
        18.0
    }
}

/// The key: one sample of each kind of mark drawn, with its name, and the
/// supply centres' marker.
fn draw_key(o: &mut String, kinds: &[Kind]) {
    let y = KEY_ROW;
    let mut x = 6.0;
    let label = |o: &mut String, x: &mut f32, text: &str| {
        let _ = write!(
            o,
            r#"<text x="{}" y="{}" font-size="6">{text}</text>"#,
            n(*x),
            n(y + 2.0)
        );
        *x += 8.0 + text.len() as f32 * 3.3;
    };
    for &kind in kinds {
        x += key_sample(o, kind, x, y) + 4.0;
        label(o, &mut x, kind.name());
    }
    let _ = write!(
        o,
        r##"<circle cx="{}" cy="{}" r="2.6" fill="{}" stroke="#333333" stroke-width="0.7"/>"##,
        n(x + 3.0),
        n(y),
        style::NEUTRAL_CENTRE
    );
    x += 9.0;
    label(o, &mut x, "supply centre");
}

#[cfg(test)]
mod tests {
    use super::n;

    /// As the numbers were written before (a float with two decimals,
    /// trailing zeros trimmed): the maps stay byte for byte the same.
    fn by_float(v: f32) -> String {
        let r = (v * 100.0).round() / 100.0;
        if r == r.trunc() {
            format!("{}", r as i64)
        } else {
            format!("{r:.2}").trim_end_matches('0').to_string()
        }
    }

    #[test]
    fn numbers_are_written_with_at_most_two_decimals() {
        assert_eq!(n(12.0), "12");
        assert_eq!(n(12.5), "12.5");
        assert_eq!(n(12.345), "12.35");
        assert_eq!(n(-0.5), "-0.5");
        assert_eq!(n(-0.001), "0");
        assert_eq!(n(1199.07), "1199.07");
        let mut v = -50.0f32;
        while v < 1300.0 {
            assert_eq!(n(v), by_float(v), "{v}");
            v += 0.0137;
        }
    }
}
