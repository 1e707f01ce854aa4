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
//! the board). `cached-fast` is `cached` encoded as the judge did before
//! issue 23 (fdeflate's fast mode, the Paeth filter), for comparing
//! encoders.

use judge::draw;
use judge::engine::map::Map;

#[path = "../benches/common/busy_phase.rs"]
mod busy_phase;
use busy_phase::{busy_phase, scene};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(way), Some(n)) = (args.get(1), args.get(2).and_then(|n| n.parse::<u32>().ok()))
    else {
        eprintln!("usage: png_instructions whole|cached|cached-fast N");
        std::process::exit(2);
    };
    let map = Map::standard();
    let (position, adjudication) = busy_phase(map);
    let scene = scene(&position, &adjudication);
    for _ in 0..n {
        let png = match way.as_str() {
            "whole" => draw::png::render(&draw::svg(map, &scene), 1200),
            "cached-fast" => draw::png::rasterize_scene(map, &scene, 1200).and_then(|pixmap| {
                let how = draw::png::Encoding {
                    compression: png::DeflateCompression::FdeflateUltraFast,
                    filter: png::Filter::Paeth,
                    ..Default::default()
                };
                draw::png::encode(&pixmap, how)
            }),
            _ => draw::png::render_scene(map, &scene, 1200),
        };
        std::hint::black_box(png.expect("drawn"));
    }
}
