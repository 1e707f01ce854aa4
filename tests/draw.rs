//! Pictures of phases: golden SVGs for a movement phase with every kind of
//! order, the retreats after it, a Winter and the opening position; and
//! the PNG, decoded and sampled where the position says what must be seen.
//!
//! `JUDGE_BLESS=1 cargo test --test draw` writes the golden files anew
//! (look at them before committing: `judge map` or a browser shows them).

use std::collections::HashMap;
use std::path::PathBuf;

use judge::draw::orders::{self, Kind, LineKind};
use judge::draw::{self, board::Board, place, style, Palette, Scene};
use judge::engine::adjudicate::adjudicate;
use judge::engine::map::Map;
use judge::engine::order::Order;
use judge::engine::order::OrderKind;
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

/// The sample game's 1901, every phase played from the opening position
/// with the orders of `sample_1901.json`: Spring, Fall (a convoy, a unit
/// dislodged in Burgundy), the retreat, the Winter (builds, one waived).
fn sample_1901() -> Vec<Played> {
    let all: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(data("sample_1901.json")).unwrap()).unwrap();
    let mut position = Position::standard_start(Map::standard());
    let mut played = Vec::new();
    for phase in ["S1901M", "F1901M", "F1901R", "W1901A"] {
        assert_eq!(position.phase.to_string(), phase);
        let mut json = serde_json::to_value(judge::interchange::PositionJson::from_position(
            Map::standard(),
            &position,
        ))
        .unwrap();
        json["orders"] = all[phase].clone();
        let (at, orders) = read(&json.to_string());
        let p = play(at, &orders);
        position = p.next.clone();
        played.push(p);
    }
    played
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
        palette: Palette::default(),
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
            palette: Palette::default(),
        },
    );
    golden("opening.svg", &svg);
}

/// The geometry as drawn, checked as a player's eye would: no mark (a
/// badge, an arrowhead, a cross, a frame, a sign, a dot, a supply
/// centre's marker) lies over a province's name, no two names overlap,
/// and every order's line shows at least `MIN_SEEN_PX` pixels outside the
/// badges at 1,200 pixels wide.
fn every_order_and_name_is_seen(played: &Played, what: &str) {
    const MIN_SEEN_PX: f32 = 16.0;
    let map = Map::standard();
    let layout = draw::svg::layout(map, &scene(played, what));
    for label in &layout.labels {
        for mark in &layout.marks {
            assert!(
                !mark.rect.overlaps(&label.rect),
                "{what}: a {} at {:?} covers {} at {:?}",
                mark.what,
                mark.rect,
                label.text,
                label.rect
            );
        }
        for other in &layout.labels {
            assert!(
                other.province == label.province || !other.rect.overlaps(&label.rect),
                "{what}: {} and {} overlap",
                label.text,
                other.text
            );
        }
    }
    let badges: Vec<_> = layout.badges.iter().map(|b| place::badge(b.at)).collect();
    let zoom = WIDTH as f32 / Board::standard().width();
    for line in &layout.lines {
        let seen = place::length_outside(&line.points, &badges) * zoom;
        assert!(
            seen >= MIN_SEEN_PX,
            "{what}: {} shows {seen:.1} px",
            line.what
        );
    }
    // Every move, retreat and support has its line.
    let with_lines = played
        .orders
        .iter()
        .filter(|(o, _)| {
            matches!(
                o.kind,
                OrderKind::Move { .. } | OrderKind::Retreat { .. } | OrderKind::Support { .. }
            )
        })
        .count();
    let drawn = layout
        .lines
        .iter()
        .filter(|l| l.kind != LineKind::RetreatOption)
        .count();
    assert_eq!(drawn, with_lines, "{what}: a line per order");
}

#[test]
fn no_mark_covers_a_name_and_every_order_is_seen() {
    every_order_and_name_is_seen(&movement(), "the busy movement phase");
    every_order_and_name_is_seen(&retreats(), "its retreats");
    every_order_and_name_is_seen(&winter(), "a Winter with builds and a removal");
    for played in sample_1901() {
        let what = format!("the sample game's {}", played.position.phase);
        every_order_and_name_is_seen(&played, &what);
    }
}

/// A short move (Liverpool to York, whose units stand 17 units apart) is
/// bent so that it is seen; a convoyed army's move runs through the
/// convoying fleet, whose frame is dotted; the dislodged army stands
/// beside Burgundy, clear of the army that took its place.
#[test]
fn short_moves_convoys_and_dislodged_units_are_drawn_apart() {
    let map = Map::standard();
    let board = Board::standard();
    let sample = sample_1901();
    let spring = draw::svg::layout(map, &scene(&sample[0], "S1901M"));
    let lvp_yor = spring
        .lines
        .iter()
        .find(|l| l.what == "A LVP - YOR")
        .unwrap();
    assert!(place::polyline_length(&lvp_yor.points) >= orders::MIN_LINE);
    assert!(lvp_yor.points.len() > 2, "bent: {:?}", lvp_yor.points);
    let fall = draw::svg::layout(map, &scene(&sample[1], "F1901M"));
    let yor_nwy = fall.lines.iter().find(|l| l.what == "A YOR - NWY").unwrap();
    assert!(yor_nwy.convoyed);
    let nth = board.unit_point(map.location_by_abbr("NTH").unwrap());
    let closest = yor_nwy
        .points
        .iter()
        .map(|&p| place::length(place::sub(p, nth)))
        .fold(f32::INFINITY, f32::min);
    assert!(closest < 1.0, "the curve passes {closest} from the fleet");
    assert!(fall.frames.iter().any(|&(c, dotted, _)| c == nth && dotted));
    assert!(fall.kinds.contains(&Kind::Convoy) && fall.kinds.contains(&Kind::Dislodged));
    let retreat = draw::svg::layout(map, &scene(&sample[2], "F1901R"));
    let bur = board.unit_point(map.location_by_abbr("BUR").unwrap());
    let standing = retreat
        .badges
        .iter()
        .find(|b| b.at == bur && !b.dislodged)
        .unwrap();
    let beside = retreat.badges.iter().find(|b| b.dislodged).unwrap();
    assert_eq!(standing.unit.power.name(), "Germany");
    assert!(!place::badge(standing.at).overlaps(&place::badge(beside.at)));
}

/// The legend's key names every kind of mark the picture draws, and only
/// those: the Winter's builds and the one waived, no moves.
#[test]
fn the_key_names_only_the_marks_drawn() {
    let winter = &sample_1901()[3];
    let svg = picture(winter, "W1901A");
    for name in ["build", "waived build", "supply centre"] {
        assert!(svg.contains(&format!(">{name}</text>")), "no {name}");
    }
    for name in [
        "move",
        "support",
        "convoy",
        "retreat",
        "dislodged",
        "removal",
    ] {
        assert!(
            !svg.contains(&format!(">{name}</text>")),
            "{name} in the key"
        );
    }
    assert!(svg.contains("1 waived"), "Austria's waived build");
    let svg = picture(&movement(), "F1905M");
    for name in [
        "move",
        "support",
        "convoy",
        "hold",
        "failed",
        "dislodged",
        "may retreat",
    ] {
        assert!(svg.contains(&format!(">{name}</text>")), "no {name}");
    }
}

/// `JUDGE_DOCS=1 cargo test --test draw docs_pictures` draws the README's
/// pictures into `docs/`: the sample game's 1901 (movement, retreat,
/// Winter) and a busy movement phase in each palette.
#[test]
fn docs_pictures() {
    if std::env::var_os("JUDGE_DOCS").is_none() {
        return;
    }
    let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs");
    let sample = sample_1901();
    for (played, name, title) in [
        (
            &sample[1],
            "sample-F1901M.png",
            "Judge JDG, game sample: Fall 1901, movement results",
        ),
        (
            &sample[2],
            "sample-F1901R.png",
            "Judge JDG, game sample: Fall 1901, retreat results",
        ),
        (
            &sample[3],
            "sample-W1901A.png",
            "Judge JDG, game sample: Winter 1901, adjustment results",
        ),
        (
            &sample[0],
            "sample-S1901M.png",
            "Judge JDG, game sample: Spring 1901, movement results",
        ),
    ] {
        let png = draw::png::render_scene(Map::standard(), &scene(played, title), WIDTH).unwrap();
        std::fs::write(docs.join(name), png).unwrap();
    }
    let busy = movement();
    for palette in Palette::ALL {
        let title = format!(
            "Game demo, Fall 1905, movement results ({} palette)",
            palette.name()
        );
        let scene = Scene {
            palette,
            ..scene(&busy, &title)
        };
        let png = draw::png::render_scene(Map::standard(), &scene, WIDTH).unwrap();
        std::fs::write(docs.join(format!("palette-{}.png", palette.name())), png).unwrap();
    }
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
    // 34 units on the board, 7 in the legend.
    assert_eq!(svg.matches("<rect x=\"-8.5\"").count(), 34 + 7);
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
        share < 0.0025,
        "{far} pixels differ ({:.3} %)",
        share * 100.0
    );
}

/// A point of a badge (from its centre) beside its icon, inside its outline.
const BESIDE_ICON: (f32, f32) = (7.0, 4.2);

fn shows_owners_seas_and_units(png: &[u8], played: &Played) {
    let map = Map::standard();
    let pixmap = Pixmap::decode_png(png).expect("a PNG");
    assert_eq!(pixmap.width(), WIDTH);
    assert!(pixmap.height() > 1100, "{}", pixmap.height());
    // Paris is French: its shape is France's tint; Smyrna is Turkish.
    let colours = Palette::default().colours();
    assert_eq!(commonest_colour(&pixmap, "PAR"), rgb(colours.tint[2]));
    assert_eq!(commonest_colour(&pixmap, "SMY"), rgb(colours.tint[6]));
    // Neutral Serbia... is Austrian here; Albania, no centre and empty, is land.
    assert_eq!(commonest_colour(&pixmap, "ALB"), rgb(style::LAND));
    // An empty sea has the sea colour.
    assert_eq!(commonest_colour(&pixmap, "BAL"), rgb(style::SEA));
    assert_eq!(commonest_colour(&pixmap, "NAO"), rgb(style::SEA));
    // Every unit shows its badge in its power's colour (beside the icon,
    // inside the badge): at its place, or the dislodged beside it, where
    // the layout puts them; empty places show none.
    let board = Board::standard();
    let layout = draw::svg::layout(map, &scene(played, ""));
    let dislodged: Vec<_> = played
        .next
        .dislodged
        .iter()
        .map(|d| d.unit.location)
        .collect();
    for u in &played.position.units {
        let drawn = layout
            .badges
            .iter()
            .find(|b| b.unit == *u)
            .expect("every unit drawn");
        assert_eq!(drawn.dislodged, dislodged.contains(&u.location));
        if !drawn.dislodged {
            assert_eq!(drawn.at, board.unit_point(u.location));
        }
        let (x, y) = drawn.at;
        assert_eq!(
            pixel(&pixmap, (x + BESIDE_ICON.0, y + BESIDE_ICON.1)),
            rgb(colours.power[u.power.index()]),
            "{} {}",
            u.power,
            map.loc_abbr(u.location)
        );
    }
    for abbr in ["ALB", "BAL", "NAO", "FIN"] {
        let (x, y) = board.unit_point(map.province_by_abbr(abbr).unwrap().location());
        let c = pixel(&pixmap, (x + BESIDE_ICON.0, y + BESIDE_ICON.1));
        assert!(
            !colours.power.iter().any(|p| rgb(p) == c),
            "a unit in {abbr}?"
        );
    }
}
