//! A picture as PNG: the SVG rasterised by resvg, its text set in the
//! embedded Go fonts so that the picture is the same on every machine.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

static GO_REGULAR: &[u8] = include_bytes!("../../assets/fonts/Go-Regular.ttf");
static GO_BOLD: &[u8] = include_bytes!("../../assets/fonts/Go-Bold.ttf");

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
    rasterize(svg, width)?
        .encode_png()
        .map_err(|e| format!("encoding the PNG: {e}"))
}
