//! The map pictures' cost per phase: the SVG of a busy movement phase
//! (34 units, every kind of order, three units dislodged), and the PNG of
//! it at 1,200 pixels wide (parse, rasterise with the embedded fonts,
//! encode), both ways: the whole SVG rasterised (`png::render`), and the
//! way the judge draws its mails, over the board's borders and labels
//! rasterised once per width (`png::render_scene`). The scene is
//! `tests/draw/movement.json`, the golden test's. Then a finished game's
//! animated summary (issue 25): the 40 positions of a game of random play
//! as one APNG, its time and bytes.
//!
//! `cargo bench --bench draw` (see `benches/README.md`).

use std::hint::black_box;
use std::time::Instant;

use criterion::Criterion;
use judge::draw::{self, Scene};
use judge::engine::map::Map;

#[path = "common/busy_phase.rs"]
mod busy_phase;
use busy_phase::{busy_phase, scene};
mod common;

fn main() {
    let map = Map::standard();
    let (position, adjudication) = busy_phase(map);
    let scene = scene(&position, &adjudication);
    let svg = draw::svg(map, &scene);
    let png = draw::png::render(&svg, 1200).expect("PNG");
    println!(
        "scene: {} orders; SVG {} bytes; PNG at 1200 px {} bytes",
        adjudication.orders.len(),
        svg.len(),
        png.len()
    );

    criterion_groups(map, &scene);
    // Medians of plain timings too, split into the steps of a PNG.
    raster_steps(map, &scene, &svg);
    png_both_ways(map, &scene);
    encodings(&svg);
    summary_of_a_long_game(map);
}

/// Criterion's groups: the SVG, and the PNG both ways.
fn criterion_groups(map: &Map, scene: &Scene) {
    let mut c = Criterion::default().configure_from_args();
    c.bench_function("draw/svg", |b| {
        b.iter(|| black_box(draw::svg(map, black_box(scene))))
    });
    let mut group = c.benchmark_group("draw/png");
    group.sample_size(20);
    group.bench_function("1200px", |b| {
        b.iter(|| black_box(draw::png::render(&draw::svg(map, scene), 1200).unwrap()))
    });
    group.bench_function("1200px-cached-board", |b| {
        b.iter(|| black_box(draw::png::render_scene(map, scene, 1200).unwrap()))
    });
    group.finish();
    c.final_summary();
}

/// The median of 31 timings of `f`, in ms.
fn time(f: &mut dyn FnMut()) -> f64 {
    let mut v: Vec<f64> = (0..31)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    median(&mut v)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// The SVG and its rasterising timed, and where rasterising goes: the
/// same picture without its text, the province fills alone, the phase's
/// marks alone.
fn raster_steps(map: &Map, scene: &Scene, svg: &str) {
    let svg_ms = time(&mut || {
        black_box(draw::svg(map, scene));
    });
    let raster_ms = time(&mut || {
        black_box(draw::png::rasterize(svg, 1200).unwrap());
    });
    let marks = draw::svg::layers::scene_marks(map, scene, &draw::svg::layout(map, scene));
    for (name, text) in [
        ("without text", &without_text(svg)),
        ("province fills only", &fills_only(svg)),
        ("the phase's marks only (over the cached board)", &marks),
    ] {
        let ms = time(&mut || {
            black_box(draw::png::rasterize(text, 1200).unwrap());
        });
        println!("  rasterise {name}: {ms:.1} ms");
    }
    println!("medians of 31: svg {svg_ms:.3} ms; png at 1200 px: rasterise {raster_ms:.1} ms");
}

/// The SVG without its `<text>` elements.
fn without_text(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(at) = rest.find("<text") {
        out.push_str(&rest[..at]);
        let end = rest[at..]
            .find("</text>")
            .map_or(rest.len(), |e| at + e + 7);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The SVG's head and its province fills alone.
fn fills_only(svg: &str) -> String {
    let start = svg.find("<g stroke=\"none\"").unwrap();
    let end = start + svg[start..].find("</g>").unwrap() + 4;
    let head = &svg[..svg.find("<g transform").unwrap()];
    format!(
        "{head}<g transform=\"translate(0 22)\">{}</g></svg>",
        &svg[start..end]
    )
}

/// The whole PNG both ways, taking turns so that a change of load hits
/// both alike.
fn png_both_ways(map: &Map, scene: &Scene) {
    let (mut whole, mut cached) = (Vec::new(), Vec::new());
    for _ in 0..31 {
        let t = Instant::now();
        black_box(draw::png::render(&draw::svg(map, scene), 1200).unwrap());
        whole.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        black_box(draw::png::render_scene(map, scene, 1200).unwrap());
        cached.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let (whole, cached) = (median(&mut whole), median(&mut cached));
    println!(
        "PNG per phase at 1200 px, SVG to file (medians of 31, taking turns): whole SVG rasterised {whole:.1} ms; over the cached board {cached:.1} ms ({:.1}x); goal <= 30 ms",
        whole / cached
    );
}

/// The rasterised picture encoded with several settings: time and size.
fn encodings(svg: &str) {
    use png::{DeflateCompression as Deflate, Filter};
    let pixmap = &draw::png::rasterize(svg, 1200).unwrap();
    for (name, indexed, compression, filter) in [
        (
            "indexed, fast, up",
            true,
            Deflate::FdeflateUltraFast,
            Filter::Up,
        ),
        (
            "indexed, fast, paeth (the judge's until issue 23)",
            true,
            Deflate::FdeflateUltraFast,
            Filter::Paeth,
        ),
        (
            "indexed, fast, adaptive",
            true,
            Deflate::FdeflateUltraFast,
            Filter::Adaptive,
        ),
        ("indexed, zlib 1, up", true, Deflate::Level(1), Filter::Up),
        (
            "indexed, zlib 1, paeth",
            true,
            Deflate::Level(1),
            Filter::Paeth,
        ),
        ("indexed, zlib 2, up", true, Deflate::Level(2), Filter::Up),
        (
            "indexed, zlib 2, paeth",
            true,
            Deflate::Level(2),
            Filter::Paeth,
        ),
        ("indexed, zlib 3, up", true, Deflate::Level(3), Filter::Up),
        ("indexed, zlib 4, up", true, Deflate::Level(4), Filter::Up),
        ("indexed, zlib 6, up", true, Deflate::Level(6), Filter::Up),
        (
            "indexed, zlib 6, paeth",
            true,
            Deflate::Level(6),
            Filter::Paeth,
        ),
        (
            "rgb, fast, up",
            false,
            Deflate::FdeflateUltraFast,
            Filter::Up,
        ),
        (
            "rgb, zlib 6, adaptive",
            false,
            Deflate::Level(6),
            Filter::Adaptive,
        ),
    ] {
        let how = draw::png::Encoding {
            indexed,
            compression,
            filter,
            ..Default::default()
        };
        let size = draw::png::encode(pixmap, how).unwrap().len();
        let ms = time(&mut || {
            black_box(draw::png::encode(pixmap, how).unwrap());
        });
        println!("  encode {name}: {ms:.1} ms, {} KB", size / 1024);
    }
}

/// The animated summary of a game of 40 phases (issue 25): its time
/// (median of 5) and bytes at the judge's width and packing, then at
/// other widths and packings for the choice.
fn summary_of_a_long_game(map: &Map) {
    use draw::animation::{animate_packed, Packing, Timing};
    use judge::game::pictures::SUMMARY_WIDTH;
    use png::{DeflateCompression as Deflate, Filter};
    let positions = common::played_game(map, 40, &mut common::Rng(25));
    let titles: Vec<String> = positions
        .iter()
        .map(|p| format!("Judge BNCH, game summary: {}", p.phase))
        .collect();
    let scenes: Vec<Scene> = positions
        .iter()
        .zip(&titles)
        .map(|(position, title)| Scene {
            position,
            orders: &[],
            retreats: &[],
            title,
            palette: draw::Palette::default(),
        })
        .collect();
    let packings = [
        ("zlib 6, no filter (the judge's)", Packing::default()),
        (
            "zlib 9, no filter",
            Packing {
                compression: Deflate::Level(9),
                filter: Filter::NoFilter,
            },
        ),
        (
            "zlib 6, paeth",
            Packing {
                compression: Deflate::Level(6),
                filter: Filter::Paeth,
            },
        ),
        (
            "fast, paeth",
            Packing {
                compression: Deflate::FdeflateUltraFast,
                filter: Filter::Paeth,
            },
        ),
    ];
    for width in [SUMMARY_WIDTH, 600, 700] {
        for (name, packing) in packings {
            let mut bytes = 0;
            let mut times: Vec<f64> = (0..5)
                .map(|_| {
                    let t = Instant::now();
                    let apng = animate_packed(map, &scenes, width, Timing::default(), packing);
                    bytes = black_box(apng.unwrap()).len();
                    t.elapsed().as_secs_f64() * 1e3
                })
                .collect();
            println!(
                "summary of {} phases at {width} px, {name}: {:.0} ms (median of 5), {} KB",
                scenes.len(),
                median(&mut times),
                bytes / 1000
            );
        }
        if width == SUMMARY_WIDTH {
            let still = draw::png::render_scene(map, &scenes[39], width)
                .unwrap()
                .len();
            println!("  one picture alone at {width} px: {} KB", still / 1000);
        }
    }
}
