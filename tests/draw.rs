//! Pictures of phases: golden SVGs for a movement phase with every kind of
//! order, the retreats after it, a Winter and the opening position; and
//! the PNG, decoded and sampled where the position says what must be seen.
//!
//! `JUDGE_BLESS=1 cargo test --test draw` writes the golden files anew
//! (look at them before committing: `judge map` or a browser shows them).

use std::collections::HashMap;
use std::path::PathBuf;

use judge::draw::{self, board::Board, style, Scene};
use judge::engine::adjudicate::adjudicate;
use judge::engine::map::Map;
use judge::engine::order::Order;
use judge::engine::outcome::Outcome;
use judge::engine::phase::PhaseKind;
use judge::engine::position::{Dislodged, Position};
use judge::interchange::{read_phase, PhaseInput};
use resvg::tiny_skia::Pixmap;

#[path = "draw/geometry.rs"]
mod geometry;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/draw")
        .join(name)
}

/// A phase of the test data: the position, its orders with their results,
/// and the position after it.
struct Played {
    position: Position,
    orders: Vec<(Order, Outcome)>,
    next: Position,
}

fn play(position: Position, orders: &[Order]) -> Played {
    let adjudication = adjudicate(Map::standard(), &position, orders);
    Played {
        position,
        orders: adjudication.orders,
        next: adjudication.next,
    }
}

fn read(json: &str) -> (Position, Vec<Order>) {
    let input: PhaseInput = serde_json::from_str(json).expect("test JSON");
    let (position, orders, errors) = read_phase(Map::standard(), &input).expect("position");
    assert!(errors.is_empty(), "{errors:?}");
    (position, orders)
}

fn movement() -> Played {
    let (position, orders) = read(&std::fs::read_to_string(data("movement.json")).unwrap());
    play(position, &orders)
}

/// The retreats after `movement`: one retreat, one disband, one unordered.
fn retreats() -> Played {
    let moved = movement();
    assert_eq!(moved.next.phase.kind, PhaseKind::Retreat);
    let orders = std::fs::read_to_string(data("retreat_orders.json")).unwrap();
    let mut json: serde_json::Value = serde_json::to_value(
        judge::interchange::PositionJson::from_position(Map::standard(), &moved.next),
    )
    .unwrap();
    json["orders"] = serde_json::from_str(&orders).unwrap();
    let (position, orders) = read(&json.to_string());
    play(position, &orders)
}

fn winter() -> Played {
    let (position, orders) = read(&std::fs::read_to_string(data("winter.json")).unwrap());
    play(position, &orders)
}

fn scene<'a>(played: &'a Played, title: &'a str) -> Scene<'a> {
    let retreats: &[Dislodged] = if played.position.phase.kind == PhaseKind::Movement {
        &played.next.dislodged
    } else {
        &[]
    };
    Scene {
        position: &played.position,
        orders: &played.orders,
        retreats,
        title,
    }
}

fn picture(played: &Played, title: &str) -> String {
    draw::svg(Map::standard(), &scene(played, title))
}

/// Compares with the golden file, or writes it under `JUDGE_BLESS=1`.
fn golden(name: &str, svg: &str) {
    let path = data(name);
    if std::env::var_os("JUDGE_BLESS").is_some() {
        std::fs::write(&path, svg).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (JUDGE_BLESS=1 writes it)", path.display()));
    if want != svg {
        let line = want
            .lines()
            .zip(svg.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "{name} differs from line {}: JUDGE_BLESS=1 to accept\nwant: {:.300}\ngot:  {:.300}",
            line + 1,
            want.lines().nth(line).unwrap_or(""),
            svg.lines().nth(line).unwrap_or("")
        );
    }
}

#[test]
fn golden_movement_with_every_kind_of_order() {
    let played = movement();
    // The scene has what it is meant to show.
    let tags: Vec<String> = played.orders.iter().map(|(_, o)| o.summary()).collect();
    for tag in ["bounce", "cut", "dislodged", "void"] {
        assert!(tags.iter().any(|t| t.contains(tag)), "no {tag} in {tags:?}");
    }
    golden(
        "movement.svg",
        &picture(&played, "Game demo, Fall 1905 movement results"),
    );
}

#[test]
fn golden_retreats() {
    let played = retreats();
    assert!(played.orders.len() >= 3);
    golden(
        "retreat.svg",
        &picture(&played, "Game demo, Fall 1905 retreat results"),
    );
}

#[test]
fn golden_winter() {
    let played = winter();
    golden(
        "winter.svg",
        &picture(&played, "Game demo, Winter 1905 adjustment results"),
    );
}

#[test]
fn golden_opening_position() {
    let map = Map::standard();
    let position = Position::standard_start(map);
    let svg = draw::svg(
        map,
        &Scene {
            position: &position,
            orders: &[],
            retreats: &[],
            title: "Game demo, Spring 1901: orders due",
        },
    );
    golden("opening.svg", &svg);
}

/// The SVG is well-formed enough: the title escaped, every group closed,
/// a badge for every unit.
#[test]
fn the_svg_is_well_formed() {
    let played = movement();
    let svg = picture(&played, "A <title> & \"quotes\"");
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.contains("A &lt;title&gt; &amp; &quot;quotes&quot;"));
    assert_eq!(svg.matches("<g").count(), svg.matches("</g>").count());
    // 34 units on the board, 7 in the legend, 1 in the key.
    assert_eq!(svg.matches("<rect x=\"-7\"").count(), 34 + 7 + 1);
}

const WIDTH: u32 = 1200;

fn rgb(hex: &str) -> [u8; 3] {
    let v = u32::from_str_radix(&hex[1..], 16).unwrap();
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

/// The pixel at a point of the board (SVG units).
fn pixel(pixmap: &Pixmap, p: (f32, f32)) -> [u8; 3] {
    let zoom = WIDTH as f32 / Board::standard().width();
    let (x, y) = (p.0 * zoom, (p.1 + style::TITLE_BAND) * zoom);
    let c = pixmap
        .pixel(x as u32, y as u32)
        .expect("inside the picture");
    [c.red(), c.green(), c.blue()]
}

/// The commonest colour of the pixels inside a province's shape.
fn commonest_colour(pixmap: &Pixmap, abbr: &str) -> [u8; 3] {
    let map = Map::standard();
    let shape = geometry::rings(
        Board::standard()
            .shape(map.province_by_abbr(abbr).unwrap())
            .path,
    );
    let zoom = WIDTH as f32 / Board::standard().width();
    let mut counts: HashMap<[u8; 3], usize> = HashMap::new();
    for y in 0..pixmap.height() {
        for x in 0..pixmap.width() {
            let p = (
                (x as f32 + 0.5) / zoom,
                (y as f32 + 0.5) / zoom - style::TITLE_BAND,
            );
            if geometry::inside(p, &shape) {
                let c = pixmap.pixel(x, y).unwrap();
                *counts.entry([c.red(), c.green(), c.blue()]).or_default() += 1;
            }
        }
    }
    counts
        .into_iter()
        .max_by_key(|&(_, n)| n)
        .expect("pixels")
        .0
}

/// The PNG decoded and looked at where the position says what is there.
#[test]
fn the_png_shows_owners_seas_and_units() {
    let played = movement();
    let svg = picture(&played, "Game demo, Fall 1905 movement results");
    let png = draw::png::render(&svg, WIDTH).expect("rendered");
    shows_owners_seas_and_units(&png, &played);
}

/// The same, drawn as the judge draws its mails: over the board's lines
/// rasterised once (`png::render_scene`), twice to use the cache.
#[test]
fn the_png_from_the_cached_board_shows_owners_seas_and_units() {
    let played = movement();
    for _ in 0..2 {
        let png = draw::png::render_scene(Map::standard(), &scene(&played, "Fall 1905"), WIDTH)
            .expect("rendered");
        shows_owners_seas_and_units(&png, &played);
    }
}

/// The picture drawn over the cached board is the picture of the whole
/// SVG but for the edges of the province fills (not anti-aliased; the
/// borders drawn over them) and the centre rings drawn over the labels.
#[test]
fn the_cached_board_gives_the_same_picture() {
    let played = movement();
    let title = "Game demo, Fall 1905 movement results";
    let whole = draw::png::rasterize(&picture(&played, title), WIDTH).unwrap();
    let layered =
        draw::png::rasterize_scene(Map::standard(), &scene(&played, title), WIDTH).unwrap();
    assert_eq!(
        (whole.width(), whole.height()),
        (layered.width(), layered.height())
    );
    let far = whole
        .pixels()
        .iter()
        .zip(layered.pixels())
        .filter(|(a, b)| {
            let d = |x: u8, y: u8| x.abs_diff(y) > 48;
            d(a.red(), b.red()) || d(a.green(), b.green()) || d(a.blue(), b.blue())
        })
        .count();
    let share = far as f64 / whole.pixels().len() as f64;
    eprintln!("{far} pixels differ ({:.3} %)", share * 100.0);
    if let Some(dir) = std::env::var_os("JUDGE_DRAW_OUT") {
        let dir = PathBuf::from(dir);
        whole.save_png(dir.join("whole.png")).unwrap();
        layered.save_png(dir.join("layered.png")).unwrap();
    }
    assert!(
        share < 0.005,
        "{far} pixels differ ({:.3} %)",
        share * 100.0
    );
}

fn shows_owners_seas_and_units(png: &[u8], played: &Played) {
    let map = Map::standard();
    let pixmap = Pixmap::decode_png(png).expect("a PNG");
    assert_eq!(pixmap.width(), WIDTH);
    assert!(pixmap.height() > 1100, "{}", pixmap.height());
    // Paris is French: its shape is France's tint; Smyrna is Turkish.
    assert_eq!(commonest_colour(&pixmap, "PAR"), rgb(style::TINT[2]));
    assert_eq!(commonest_colour(&pixmap, "SMY"), rgb(style::TINT[6]));
    // Neutral Serbia... is Austrian here; Albania, no centre and empty, is land.
    assert_eq!(commonest_colour(&pixmap, "ALB"), rgb(style::LAND));
    // An empty sea has the sea colour.
    assert_eq!(commonest_colour(&pixmap, "BAL"), rgb(style::SEA));
    assert_eq!(commonest_colour(&pixmap, "NAO"), rgb(style::SEA));
    // Every unit not dislodged shows its badge in its power's colour
    // (beside the icon, inside the badge); empty places show none.
    let board = Board::standard();
    let dislodged: Vec<_> = played
        .next
        .dislodged
        .iter()
        .map(|d| d.unit.location)
        .collect();
    for u in &played.position.units {
        let (x, y) = if dislodged.contains(&u.location) {
            board.dislodged_point(u.location)
        } else {
            board.unit_point(u.location)
        };
        assert_eq!(
            pixel(&pixmap, (x + 5.7, y - 2.2)),
            rgb(style::POWER[u.power.index()]),
            "{} {}",
            u.power,
            map.loc_abbr(u.location)
        );
    }
    for abbr in ["ALB", "BAL", "NAO", "FIN"] {
        let (x, y) = board.unit_point(map.province_by_abbr(abbr).unwrap().location());
        let c = pixel(&pixmap, (x + 5.7, y - 2.2));
        assert!(
            !style::POWER.iter().any(|p| rgb(p) == c),
            "a unit in {abbr}?"
        );
    }
}
