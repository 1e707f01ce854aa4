//! Rasterises SVG files as the judge does (resvg, the embedded fonts):
//! `cargo run --release --example svg_to_png -- IN.svg OUT.png [WIDTH]`.
//! For looking at the golden pictures in `tests/draw/`.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: svg_to_png IN.svg OUT.png [WIDTH]");
        std::process::exit(2);
    }
    let width = args.get(3).map_or(1200, |w| w.parse().expect("a width"));
    let svg = std::fs::read_to_string(&args[1]).expect("reading the SVG");
    let png = judge::draw::png::render(&svg, width).expect("rendering");
    std::fs::write(&args[2], png).expect("writing the PNG");
}
