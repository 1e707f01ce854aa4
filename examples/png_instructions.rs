//! Draws the bench's busy movement phase (`tests/draw/movement.json`) as
//! PNG `N` times one way, for counting instructions, which the load of a
//! shared machine does not change:
//!
//! ```sh
//! cargo build --release --example png_instructions
//! for way in whole cached; do for n in 1 11; do
//!   valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/png_instructions $way $n 2>&1 | grep refs
//! done; done
//! ```
//!
//! (11 runs less 1 run) / 10 is one picture's count: `whole` is the whole
//! SVG rasterised (`png::render`), `cached` the judge's way over the
//! board rasterised once (`png::render_scene`; the first picture pays for
//! the board).

use judge::draw::{self, Scene};
use judge::engine::adjudicate::adjudicate;
use judge::engine::map::Map;
use judge::interchange::{read_phase, PhaseInput};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(way), Some(n)) = (args.get(1), args.get(2).and_then(|n| n.parse::<u32>().ok()))
    else {
        eprintln!("usage: png_instructions whole|cached N");
        std::process::exit(2);
    };
    let map = Map::standard();
    let json = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/draw/movement.json"),
    )
    .expect("the scene");
    let input: PhaseInput = serde_json::from_str(&json).expect("JSON");
    let (position, orders, _) = read_phase(map, &input).expect("position");
    let adjudication = adjudicate(map, &position, &orders);
    let scene = Scene {
        position: &position,
        orders: &adjudication.orders,
        retreats: &adjudication.next.dislodged,
        title: "Judge JDG, game demo: Fall 1905, movement results",
    };
    for _ in 0..n {
        let png = match way.as_str() {
            "whole" => draw::png::render(&draw::svg(map, &scene), 1200),
            _ => draw::png::render_scene(map, &scene, 1200),
        };
        std::hint::black_box(png.expect("drawn"));
    }
}
