//! A picture as PNG: the SVG rasterised by resvg, its text set in the
//! embedded Go fonts so that the picture is the same on every machine.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

static GO_REGULAR: &[u8] = include_bytes!("../assets/fonts/Go-Regular.ttf");
static GO_BOLD: &[u8] = include_bytes!("../assets/fonts/Go-Bold.ttf");

/// The parser's options with the embedded fonts, made once.
fn options() -> &'static usvg::Options<'static> {
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut fonts = usvg::fontdb::Database::new();
        fonts.load_font_data(GO_REGULAR.to_vec());
        fonts.load_font_data(GO_BOLD.to_vec());
        fonts.set_sans_serif_family("Go");
        usvg::Options {
            font_family: "Go".to_string(),
            fontdb: Arc::new(fonts),
            ..usvg::Options::default()
        }
    })
}

/// Rasterises `svg` at `width` pixels wide (the height keeps the ratio).
pub fn rasterize(svg: &str, width: u32) -> Result<tiny_skia::Pixmap, String> {
    let tree = usvg::Tree::from_str(svg, options()).map_err(|e| format!("the SVG: {e}"))?;
    let size = tree.size();
    let zoom = width as f32 / size.width();
    let height = (size.height() * zoom).ceil() as u32;
    let mut pixmap = tiny_skia::Pixmap::new(width, height)
        .ok_or_else(|| format!("no picture of {width}x{height} pixels"))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(zoom, zoom),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// `svg` as a PNG file `width` pixels wide.
pub fn render(svg: &str, width: u32) -> Result<Vec<u8>, String> {
    encode(&rasterize(svg, width)?, Encoding::default())
}

/// How a picture is written as PNG.
#[derive(Copy, Clone, Debug)]
pub struct Encoding {
    /// 256 colours: the style's own exactly, the rest (the anti-aliased
    /// edges) to the nearest of a 6x6x6 cube. A third of the bytes to
    /// compress and a far smaller file; the flat colours are untouched.
    pub indexed: bool,
    pub compression: ::png::Compression,
    pub filter: ::png::Filter,
}

impl Default for Encoding {
    /// Indexed, with fdeflate's fast mode and each row's best filter: the
    /// map's large flat areas compress well at a fraction of zlib's time
    /// (`benches/README.md` has the choices measured).
    fn default() -> Self {
        Encoding {
            indexed: true,
            compression: ::png::Compression::Fast,
            filter: ::png::Filter::Adaptive,
        }
    }
}

/// Every colour the style uses, exactly: they get their own palette
/// entries.
fn style_colours() -> Vec<[u8; 3]> {
    use super::style::*;
    let mut hexes: Vec<&str> = vec![
        SEA,
        LAND,
        IMPASSABLE,
        COASTLINE,
        LAND_BORDER,
        SEA_BORDER,
        LABEL,
        SEA_LABEL,
        ORDER,
        FAILED,
        MARK,
        NEUTRAL_CENTRE,
        PAPER,
        "#333333",
        "#000000",
    ];
    hexes.extend(POWER);
    hexes.extend(TINT);
    hexes.extend(LIGHT_TINT);
    let mut colours: Vec<[u8; 3]> = Vec::new();
    for hex in hexes {
        let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap_or(0);
        let c = [(v >> 16) as u8, (v >> 8) as u8, v as u8];
        if !colours.contains(&c) {
            colours.push(c);
        }
    }
    colours
}

/// The palette (the style's colours, then the cube) and each pixel's index.
fn to_indexed(pixmap: &tiny_skia::Pixmap) -> (Vec<u8>, Vec<u8>) {
    let exact = style_colours();
    let cube_at = exact.len();
    assert!(
        cube_at + 216 <= 256,
        "too many style colours for one palette"
    );
    let mut palette: Vec<u8> = exact.iter().flatten().copied().collect();
    for r in 0..6u8 {
        for g in 0..6u8 {
            for b in 0..6u8 {
                palette.extend([r * 51, g * 51, b * 51]);
            }
        }
    }
    let level = |v: u8| (u16::from(v) * 5 + 127) / 255;
    let index_of = |c: [u8; 3]| -> u8 {
        match exact.iter().position(|&e| e == c) {
            Some(i) => i as u8,
            None => (cube_at as u16 + level(c[0]) * 36 + level(c[1]) * 6 + level(c[2])) as u8,
        }
    };
    let mut indices = Vec::with_capacity(pixmap.pixels().len());
    // Long runs of one colour, and few colours in all: a run costs one
    // comparison, a colour seen before one probe of a small table.
    let mut seen = vec![(u32::MAX, 0u8); 4096];
    let mut last = (u32::MAX, 0u8);
    for p in pixmap.pixels() {
        let c = if p.alpha() == 255 {
            [p.red(), p.green(), p.blue()]
        } else {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue()]
        };
        let key = u32::from(c[0]) << 16 | u32::from(c[1]) << 8 | u32::from(c[2]);
        if key != last.0 {
            let slot = (key.wrapping_mul(2_654_435_761) >> 20) as usize;
            if seen[slot].0 != key {
                seen[slot] = (key, index_of(c));
            }
            last = seen[slot];
        }
        indices.push(last.1);
    }
    (palette, indices)
}

/// The picture as PNG (the map is opaque: no alpha to keep).
pub fn encode(pixmap: &tiny_skia::Pixmap, how: Encoding) -> Result<Vec<u8>, String> {
    let err = |e: ::png::EncodingError| format!("encoding the PNG: {e}");
    let mut out = Vec::with_capacity(256 * 1024);
    let mut encoder = ::png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_compression(how.compression);
    encoder.set_filter(how.filter);
    let data = if how.indexed {
        let (palette, indices) = to_indexed(pixmap);
        encoder.set_color(::png::ColorType::Indexed);
        encoder.set_palette(palette);
        indices
    } else {
        encoder.set_color(::png::ColorType::Rgb);
        pixmap
            .pixels()
            .iter()
            .flat_map(|p| {
                let c = p.demultiply();
                [c.red(), c.green(), c.blue()]
            })
            .collect()
    };
    let mut writer = encoder.write_header().map_err(err)?;
    writer.write_image_data(&data).map_err(err)?;
    writer.finish().map_err(err)?;
    Ok(out)
}
