//! A picture as PNG: the SVG rasterised by resvg, its text set in the
//! embedded Go fonts so that the picture is the same on every machine.

use std::sync::{Arc, Mutex, OnceLock};

use judge_engine::map::Map;
use resvg::{tiny_skia, usvg};

use crate::orders::Kind;
use crate::place::{self, Rect};
use crate::style::Palette;
use crate::svg::layers::{self, ISLANDS, WATERS};
use crate::svg::Scene;

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
    let tree = parse(svg)?;
    let (zoom, height) = scale(&tree, width);
    let mut pixmap = tiny_skia::Pixmap::new(width, height)
        .ok_or_else(|| format!("no picture of {width}x{height} pixels"))?;
    draw_over(&tree, zoom, &mut pixmap);
    Ok(pixmap)
}

fn parse(svg: &str) -> Result<usvg::Tree, String> {
    usvg::Tree::from_str(svg, options()).map_err(|e| format!("the SVG: {e}"))
}

/// The zoom from SVG units to `width` pixels, and the height it gives.
fn scale(tree: &usvg::Tree, width: u32) -> (f32, u32) {
    let size = tree.size();
    let zoom = width as f32 / size.width();
    (zoom, (size.height() * zoom).ceil() as u32)
}

fn draw_over(tree: &usvg::Tree, zoom: f32, pixmap: &mut tiny_skia::Pixmap) {
    resvg::render(
        tree,
        tiny_skia::Transform::from_scale(zoom, zoom),
        &mut pixmap.as_mut(),
    );
}

/// `svg` as a PNG file `width` pixels wide (its powers' colours, if not
/// the default palette's, to the nearest of the file's 256).
pub fn render(svg: &str, width: u32) -> Result<Vec<u8>, String> {
    encode(&rasterize(svg, width)?, Encoding::default())
}

/// `scene` as a PNG file `width` pixels wide: the picture `svg::render`
/// draws, made from the board's unchanging parts rasterised once per
/// width (see [`rasterize_scene`]).
pub fn render_scene(map: &Map, scene: &Scene<'_>, width: u32) -> Result<Vec<u8>, String> {
    let how = Encoding {
        palette: scene.palette,
        ..Encoding::default()
    };
    let pixmap = rasterize_scene(map, scene, width)?;
    let png = encode(&pixmap, how);
    SPARE_PIXELS.set(pixmap.take());
    png
}

thread_local! {
    /// A picture's pixels and palette indices, kept for the next picture
    /// drawn on the thread: a fresh 6 MB a picture costs the kernel a
    /// page fault (and a page cleared) every 4 KB.
    static SPARE_PIXELS: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    static SPARE_INDICES: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// An empty buffer for `bytes`: the thread's spare one if it has one.
fn spare(which: &'static std::thread::LocalKey<std::cell::Cell<Vec<u8>>>, bytes: usize) -> Vec<u8> {
    let mut buffer = which.take();
    buffer.clear();
    buffer.reserve(bytes);
    buffer
}

/// The board at one width, rasterised once: which province colours each
/// pixel, the borders, coastlines and the legend's fixed part on a
/// transparent ground, and each province's name where the board puts it.
/// Most of a picture's rasterising is these (the strokes and the text);
/// a phase then costs a colour per pixel, one composition, the names it
/// leaves in place copied, and its own marks.
struct BoardRaster {
    width: u32,
    palette: Palette,
    /// The pixels in order, as runs of one province: each run's length
    /// and its province index, [`ISLANDS`], [`WATERS`], or 255 for the
    /// paper. A row crosses a few dozen borders: each run is filled with
    /// one colour at the speed of a copy.
    province_runs: Vec<(u32, u8)>,
    lines: tiny_skia::Pixmap,
    /// The runs of pixels (first, past the last) that a line covers at
    /// all: the only ones that need blending.
    line_runs: Vec<(u32, u32)>,
    /// Per province: its name's pixels where the board puts it.
    labels: Vec<Patch>,
}

/// A small piece of a picture: `width` pixels a row, premultiplied RGBA,
/// its top left corner at (`x`, `y`).
struct Patch {
    x: u32,
    y: u32,
    width: u32,
    data: Vec<u8>,
}

const PAPER_INDEX: u8 = 255;

fn board_raster(map: &Map, width: u32, palette: Palette) -> Result<Arc<BoardRaster>, String> {
    // A judge draws at one or two widths (`[maps] width`, `judge map`)
    // in one palette: a short list, kept for the life of the process.
    static CACHE: Mutex<Vec<Arc<BoardRaster>>> = Mutex::new(Vec::new());
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(made) = cache
        .iter()
        .find(|b| b.width == width && b.palette == palette)
    {
        return Ok(made.clone());
    }
    let index = rasterize(&layers::board_index(map), width)?;
    // Without anti-aliasing every pixel is covered or not: red is the
    // province's number where covered.
    let province_at = index.pixels().iter().map(|p| {
        if p.alpha() == 255 {
            p.red()
        } else {
            PAPER_INDEX
        }
    });
    let lines = rasterize(&layers::board_lines(palette), width)?;
    let made = Arc::new(BoardRaster {
        width,
        palette,
        province_runs: runs_of(province_at),
        line_runs: covered_runs(&lines),
        lines,
        labels: label_patches(map, width)?,
    });
    cache.push(made.clone());
    Ok(made)
}

/// `values` as runs of equal values: each run's length and value.
fn runs_of(values: impl Iterator<Item = u8>) -> Vec<(u32, u8)> {
    let mut runs: Vec<(u32, u8)> = Vec::new();
    for v in values {
        match runs.last_mut() {
            Some((len, last)) if *last == v => *len += 1,
            _ => runs.push((1, v)),
        }
    }
    runs
}

/// The runs of `pixmap`'s pixels that are not transparent: (first, past
/// the last).
fn covered_runs(pixmap: &tiny_skia::Pixmap) -> Vec<(u32, u32)> {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for (i, p) in pixmap.pixels().iter().enumerate() {
        if p.alpha() == 0 {
            continue;
        }
        let i = i as u32;
        match runs.last_mut() {
            Some((_, end)) if *end == i => *end += 1,
            _ => runs.push((i, i + 1)),
        }
    }
    runs
}

/// Every province's name where the board puts it, cut from one raster of
/// them all: the pixels of its box and a margin for anti-aliasing.
fn label_patches(map: &Map, width: u32) -> Result<Vec<Patch>, String> {
    let all = rasterize(&layers::board_labels(map), width)?;
    let zoom = width as f32 / crate::board::Board::standard().width();
    let patches = map
        .provinces()
        .map(|p| {
            let r = pixel_box(&place::board_label(map, p).rect, zoom, &all);
            cut(&all, &r)
        })
        .collect();
    Ok(patches)
}

/// A box of the board (its units) in whole pixels of `pixmap`, with a
/// margin of two pixels, inside the picture.
fn pixel_box(r: &Rect, zoom: f32, pixmap: &tiny_skia::Pixmap) -> Rect {
    let top = crate::style::TITLE_BAND;
    Rect {
        x0: (r.x0 * zoom - 2.0).floor().max(0.0),
        y0: ((r.y0 + top) * zoom - 2.0).floor().max(0.0),
        x1: (r.x1 * zoom + 2.0).ceil().min(pixmap.width() as f32),
        y1: ((r.y1 + top) * zoom + 2.0)
            .ceil()
            .min(pixmap.height() as f32),
    }
}

/// `patch` laid over `pixmap` ("source over", premultiplied), moved by
/// (`dx`, `dy`) pixels; what falls outside the picture is left out.
fn lay_over(pixmap: &mut tiny_skia::Pixmap, patch: &Patch, dx: i64, dy: i64) {
    let (width, height) = (i64::from(pixmap.width()), i64::from(pixmap.height()));
    let stride = pixmap.width() as usize * 4;
    let row_bytes = patch.width as usize * 4;
    let x = i64::from(patch.x) + dx;
    // The patch's columns inside the picture.
    let first = (-x).clamp(0, i64::from(patch.width)) as usize;
    let end = (width - x).clamp(0, i64::from(patch.width)) as usize;
    if first >= end {
        return;
    }
    let data = pixmap.data_mut();
    for (i, row) in patch.data.chunks_exact(row_bytes).enumerate() {
        let y = i64::from(patch.y) + dy + i as i64;
        if y < 0 || y >= height {
            continue;
        }
        let at = y as usize * stride + (x + first as i64) as usize * 4;
        let row = &row[first * 4..end * 4];
        for (pixel, top) in data[at..at + row.len()]
            .chunks_exact_mut(4)
            .zip(row.chunks_exact(4))
        {
            let cover = u16::from(top[3]);
            if cover == 0 {
                continue;
            }
            for k in 0..4 {
                let under = u16::from(pixel[k]) * (255 - cover) / 255;
                pixel[k] = (u16::from(top[k]) + under).min(255) as u8;
            }
        }
    }
}

/// The picture of `scene` at `width` pixels: each pixel given its
/// province's colour in this position, the board's lines laid over, then
/// the phase's own marks (centres, orders, units, title, legend) drawn.
pub fn rasterize_scene(
    map: &Map,
    scene: &Scene<'_>,
    width: u32,
) -> Result<tiny_skia::Pixmap, String> {
    let board = board_raster(map, width, scene.palette)?;
    let layout = crate::svg::layout(map, scene);
    let mut colour_of = [rgba(super::style::PAPER); 256];
    for (i, fill) in layers::province_fills(map, scene).into_iter().enumerate() {
        colour_of[i] = rgba(fill);
    }
    colour_of[usize::from(ISLANDS)] = rgba(super::style::LAND);
    colour_of[usize::from(WATERS)] = rgba(super::style::SEA);
    let (below, above) = layers::scene_marks_around_units(map, scene, &layout);
    let (below, above) = (parse(&below)?, parse(&above)?);
    let (zoom, height) = scale(&below, width);
    let size = tiny_skia::IntSize::from_wh(width, height)
        .ok_or_else(|| format!("no picture of {width}x{height} pixels"))?;
    let mut pixmap = tiny_skia::Pixmap::from_vec(paint_board(&board, &colour_of), size)
        .ok_or_else(|| format!("no picture of {width}x{height} pixels"))?;
    // The names, each where the placement pass put it (a moved one to
    // the nearest whole pixel), and the key.
    let board_labels = map.provinces().map(|p| place::board_label(map, p));
    let units = width as f32 / crate::board::Board::standard().width();
    for ((label, home), patch) in layout.labels.iter().zip(board_labels).zip(&board.labels) {
        let shift = |d: f32| (d * units).round() as i64;
        let (dx, dy) = (shift(label.at.0 - home.at.0), shift(label.at.1 - home.at.1));
        lay_over(&mut pixmap, patch, dx, dy);
    }
    lay_over(&mut pixmap, &*key_patch(&layout.kinds, width)?, 0, 0);
    for power in judge_engine::map::Power::ALL {
        let waived = layout.waived[power.index()];
        let text = crate::svg::counts_text(power, scene.position, waived);
        lay_over(
            &mut pixmap,
            &*counts_patch(power, &text, waived, width)?,
            0,
            0,
        );
    }
    draw_over(&below, zoom, &mut pixmap);
    for badge in &layout.badges {
        lay_badge(&mut pixmap, badge, scene.palette, width)?;
    }
    draw_over(&above, zoom, &mut pixmap);
    Ok(pixmap)
}

/// A quarter of a pixel: badges are laid this near where they belong.
const BADGE_STEPS: f32 = 4.0;

/// Lays `badge` over `pixmap` where the board puts it (to the nearest
/// quarter pixel): its picture drawn once per kind of unit, power, palette,
/// width and quarter pixel, then copied. A phase's badges are a fifth of
/// its marks' rasterising, the same few dozen on every map.
fn lay_badge(
    pixmap: &mut tiny_skia::Pixmap,
    badge: &crate::orders::Badge,
    palette: Palette,
    width: u32,
) -> Result<(), String> {
    let units = width as f32 / crate::board::Board::standard().width();
    let at = |v: f32| {
        let steps = (v * units * BADGE_STEPS).round();
        let whole = (steps / BADGE_STEPS).floor();
        (whole as i64, (steps - whole * BADGE_STEPS) as u8)
    };
    let (x, fx) = at(badge.at.0);
    let (y, fy) = at(badge.at.1 + crate::style::TITLE_BAND);
    let sprite = badge_patch(badge, palette, width, (fx, fy))?;
    let margin = i64::from(badge_margin(units));
    lay_over(pixmap, &sprite, x - margin, y - margin);
    Ok(())
}

/// Pixels from a badge's sprite's corner to its centre: half the badge
/// and room for its outline and anti-aliasing.
fn badge_margin(units: f32) -> u32 {
    (crate::style::UNIT_HALF_WIDTH.max(crate::style::UNIT_HALF_HEIGHT) * units).ceil() as u32 + 3
}

/// The sprite of `badge`'s kind, its centre `quarters` quarter pixels
/// past its corner plus the margin.
fn badge_patch(
    badge: &crate::orders::Badge,
    palette: Palette,
    width: u32,
    quarters: (u8, u8),
) -> Result<Arc<Patch>, String> {
    use judge_engine::map::{Power, UnitType};
    type Sprite = (u32, Palette, Power, UnitType, bool, (u8, u8));
    type Sprites = Vec<(Sprite, Arc<Patch>)>;
    static CACHE: Mutex<Sprites> = Mutex::new(Vec::new());
    let key: Sprite = (
        width,
        palette,
        badge.unit.power,
        badge.unit.kind,
        badge.dislodged,
        quarters,
    );
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, made)) = cache.iter().find(|(k, _)| *k == key) {
        return Ok(made.clone());
    }
    let units = width as f32 / crate::board::Board::standard().width();
    let margin = badge_margin(units) as f32;
    let centre = |q: u8| (margin + f32::from(q) / BADGE_STEPS) / units;
    let svg = layers::badge(
        palette,
        &badge.unit,
        (centre(quarters.0), centre(quarters.1)),
        badge.dislodged,
    );
    let side = 2.0 * margin / units;
    let region = Rect {
        x0: 0.0,
        y0: 0.0,
        x1: side,
        y1: side,
    };
    let made = Arc::new(rasterize_region(&svg, width, &region)?);
    // 7 powers, 2 kinds, dislodged or not, 16 quarter pixels: 448 a width.
    if cache.len() >= 1024 {
        cache.remove(0);
    }
    cache.push((key, made.clone()));
    Ok(made)
}

/// The board's pixels: each its province's colour (`colour_of` its
/// index), the board's lines laid over (premultiplied "source over").
/// Written run by run, each byte once: most pixels are a province's
/// colour, copied; only those a line covers are blended.
fn paint_board(board: &BoardRaster, colour_of: &[[u8; 4]; 256]) -> Vec<u8> {
    let pixels: usize = board.province_runs.iter().map(|&(n, _)| n as usize).sum();
    let mut data = spare(&SPARE_PIXELS, pixels * 4);
    // 64 pixels of one colour, copied into the picture a slice at a time.
    let mut same = [0u8; 4 * 64];
    for &(len, at) in &board.province_runs {
        let fill = colour_of[usize::from(at)];
        for pixel in same.chunks_exact_mut(4) {
            pixel.copy_from_slice(&fill);
        }
        let mut left = len as usize * 4;
        while left > 0 {
            let n = left.min(same.len());
            data.extend_from_slice(&same[..n]);
            left -= n;
        }
    }
    let lines = board.lines.data();
    for &(first, end) in &board.line_runs {
        let bytes = first as usize * 4..end as usize * 4;
        for (pixel, line) in data[bytes.clone()]
            .chunks_exact_mut(4)
            .zip(lines[bytes].chunks_exact(4))
        {
            let cover = u16::from(line[3]);
            for k in 0..4 {
                let under = u16::from(pixel[k]) * (255 - cover) / 255;
                pixel[k] = (u16::from(line[k]) + under).min(255) as u8;
            }
        }
    }
    data
}

/// A power's counts in the legend at `width` pixels, rasterised once per
/// text and width (the counts of a judge's games repeat).
fn counts_patch(
    power: judge_engine::map::Power,
    text: &str,
    waived: u8,
    width: u32,
) -> Result<Arc<Patch>, String> {
    type Counts = Vec<(u32, judge_engine::map::Power, String, Arc<Patch>)>;
    static CACHE: Mutex<Counts> = Mutex::new(Vec::new());
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((.., made)) = cache
        .iter()
        .find(|(w, p, t, _)| *w == width && *p == power && t == text)
    {
        return Ok(made.clone());
    }
    let (svg, column) = layers::counts(power, text, waived);
    let made = Arc::new(rasterize_region(&svg, width, &column)?);
    // Counts from 0 to 34 of centres and units, per power: a few hundred.
    if cache.len() >= 512 {
        cache.remove(0);
    }
    cache.push((width, power, text.to_string(), made.clone()));
    Ok(made)
}

/// The part of `svg` at `width` pixels wide that `region` (SVG units)
/// covers, in whole pixels: rasterised alone, into a pixmap of its size.
fn rasterize_region(svg: &str, width: u32, region: &Rect) -> Result<Patch, String> {
    let tree = parse(svg)?;
    let (zoom, height) = scale(&tree, width);
    // The region is in the board's units; the tree's size is twice them.
    let units = width as f32 / crate::board::Board::standard().width();
    let r = Rect {
        x0: (region.x0 * units).floor().max(0.0),
        y0: (region.y0 * units).floor().max(0.0),
        x1: (region.x1 * units).ceil().min(width as f32),
        y1: (region.y1 * units).ceil().min(height as f32),
    };
    let (w, h) = ((r.x1 - r.x0) as u32, (r.y1 - r.y0) as u32);
    let mut pixmap = tiny_skia::Pixmap::new(w.max(1), h.max(1))
        .ok_or_else(|| format!("no picture of {w}x{h} pixels"))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_row(zoom, 0.0, 0.0, zoom, -r.x0, -r.y0),
        &mut pixmap.as_mut(),
    );
    Ok(Patch {
        x: r.x0 as u32,
        y: r.y0 as u32,
        width: pixmap.width(),
        data: pixmap.take(),
    })
}

/// The pixels of `pixmap` in the whole-pixel box `r`.
fn cut(pixmap: &tiny_skia::Pixmap, r: &Rect) -> Patch {
    let mut data = Vec::with_capacity(((r.x1 - r.x0) * (r.y1 - r.y0) * 4.0) as usize);
    for y in r.y0 as u32..r.y1 as u32 {
        let row = (y * pixmap.width()) as usize * 4;
        data.extend_from_slice(&pixmap.data()[row + r.x0 as usize * 4..row + r.x1 as usize * 4]);
    }
    Patch {
        x: r.x0 as u32,
        y: r.y0 as u32,
        width: (r.x1 - r.x0) as u32,
        data,
    }
}

/// The legend's key to `kinds` at `width` pixels: the rows of the key's
/// band, rasterised once per set of kinds and width.
fn key_patch(kinds: &[Kind], width: u32) -> Result<Arc<Patch>, String> {
    type Keys = Vec<(u32, Vec<Kind>, Arc<Patch>)>;
    static CACHE: Mutex<Keys> = Mutex::new(Vec::new());
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, _, made)) = cache.iter().find(|(w, k, _)| *w == width && k == kinds) {
        return Ok(made.clone());
    }
    let board = crate::board::Board::standard();
    let band = Rect {
        x0: 0.0,
        y0: crate::style::TITLE_BAND + board.height() + layers::KEY_TOP,
        x1: board.width(),
        y1: crate::svg::size(board).1,
    };
    let made = Arc::new(rasterize_region(&layers::key(kinds), width, &band)?);
    // A judge's phases draw a handful of sets of kinds.
    if cache.len() >= 64 {
        cache.remove(0);
    }
    cache.push((width, kinds.to_vec(), made.clone()));
    Ok(made)
}

/// `#RRGGBB` as opaque RGBA bytes.
fn rgba(hex: &str) -> [u8; 4] {
    let [r, g, b] = rgb(hex);
    [r, g, b, 255]
}

fn rgb(hex: &str) -> [u8; 3] {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap_or(0);
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

/// How a picture is written as PNG.
#[derive(Copy, Clone, Debug)]
pub struct Encoding {
    /// 256 colours: the style's own exactly, the rest (the anti-aliased
    /// edges) to the nearest of a 6x6x6 cube. A third of the bytes to
    /// compress and a far smaller file; the flat colours are untouched.
    pub indexed: bool,
    pub compression: ::png::DeflateCompression,
    pub filter: ::png::Filter,
    /// Whose colours are kept exactly.
    pub palette: Palette,
}

impl Default for Encoding {
    /// Indexed, fdeflate's fast mode and the Paeth filter: a results
    /// mail carries the picture (base64: a third more) and must stay
    /// under 250 KB, and a picture must cost at most 12 ms at a deadline.
    /// On the bench's busiest phase (34 units and orders) this is 169 KB,
    /// a 240 KB mail, in 3.6 to 4.8 ms; zlib's level 1 with Up makes
    /// 135 KB (a 190 KB mail) but costs twice the instructions (82 -> 171
    /// million a picture) and about 4 ms more, which puts the PNG over
    /// its 12 ms (`benches/README.md` has the choices measured).
    fn default() -> Self {
        Encoding {
            indexed: true,
            compression: ::png::DeflateCompression::FdeflateUltraFast,
            filter: ::png::Filter::Paeth,
            palette: Palette::default(),
        }
    }
}

/// Every colour the style uses, exactly: they get their own palette
/// entries.
fn style_colours(palette: Palette) -> Vec<[u8; 3]> {
    use super::style::*;
    let powers = palette.colours();
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
        RETREAT,
        OPTION,
        OUTLINE,
        MARK,
        NEUTRAL_CENTRE,
        PAPER,
        "#333333",
        "#000000",
    ];
    hexes.extend(powers.power);
    hexes.extend(powers.tint);
    hexes.extend(powers.light_tint);
    let mut colours: Vec<[u8; 3]> = Vec::new();
    for hex in hexes {
        let c = rgb(hex);
        if !colours.contains(&c) {
            colours.push(c);
        }
    }
    colours
}

/// The palette (the style's colours, then the cube) and each pixel's index.
pub(crate) fn to_indexed(pixmap: &tiny_skia::Pixmap, palette: Palette) -> (Vec<u8>, Vec<u8>) {
    let exact = style_colours(palette);
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
    // Long runs of one colour, and few colours in all: a run is found
    // eight pixels at a time, a colour seen before costs one probe of a
    // small table.
    // No premultiplied pixel has colour without alpha: a key none is.
    const NO_PIXEL: u32 = 0x00FF_FFFF;
    let mut seen = vec![(NO_PIXEL, 0u8); 4096];
    let data = pixmap.data();
    let mut indices = spare(&SPARE_INDICES, data.len() / 4);
    let mut at = 0;
    while at < data.len() {
        let key = u32::from_le_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]]);
        let run = 1 + run_of(&data[at + 4..], key);
        let slot = (key.wrapping_mul(2_654_435_761) >> 20) as usize;
        if seen[slot].0 != key {
            let [r, g, b, a] = key.to_le_bytes();
            seen[slot] = (key, index_of(opaque_rgb(&[r, g, b, a])));
        }
        // Most runs are one pixel (the anti-aliased edges).
        if run == 1 {
            indices.push(seen[slot].1);
        } else {
            indices.resize(indices.len() + run, seen[slot].1);
        }
        at += run * 4;
    }
    (palette, indices)
}

/// How many pixels at the start of `data` (RGBA bytes) are `key`: whole
/// blocks of eight compared as four words each, then one at a time.
fn run_of(data: &[u8], key: u32) -> usize {
    let pair = u64::from(key) * 0x1_0000_0001;
    let mut n = 0;
    for block in data.chunks_exact(32) {
        let word = |i: usize| {
            u64::from_le_bytes([
                block[i],
                block[i + 1],
                block[i + 2],
                block[i + 3],
                block[i + 4],
                block[i + 5],
                block[i + 6],
                block[i + 7],
            ])
        };
        if word(0) != pair || word(8) != pair || word(16) != pair || word(24) != pair {
            break;
        }
        n += 8;
    }
    for pixel in data[n * 4..].chunks_exact(4) {
        if u32::from_le_bytes([pixel[0], pixel[1], pixel[2], pixel[3]]) != key {
            break;
        }
        n += 1;
    }
    n
}

/// A premultiplied pixel's colour (the map is opaque; a pixel that is not
/// has its alpha taken out).
fn opaque_rgb(rgba: &[u8]) -> [u8; 3] {
    match rgba[3] {
        255 => [rgba[0], rgba[1], rgba[2]],
        0 => [0, 0, 0],
        a => {
            let un =
                |v: u8| ((u16::from(v) * 255 + u16::from(a) / 2) / u16::from(a)).min(255) as u8;
            [un(rgba[0]), un(rgba[1]), un(rgba[2])]
        }
    }
}

/// The picture as PNG (the map is opaque: no alpha to keep).
pub fn encode(pixmap: &tiny_skia::Pixmap, how: Encoding) -> Result<Vec<u8>, String> {
    let err = |e: ::png::EncodingError| format!("encoding the PNG: {e}");
    let mut out = Vec::with_capacity(256 * 1024);
    let mut encoder = ::png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_deflate_compression(how.compression);
    encoder.set_filter(how.filter);
    let data = if how.indexed {
        let (palette, indices) = to_indexed(pixmap, how.palette);
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
    if how.indexed {
        SPARE_INDICES.set(data);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A picture of runs of every length from 1 to 40 pixels, of colours
    /// that repeat and colours that do not, some of them the style's.
    fn runs_picture() -> tiny_skia::Pixmap {
        let (width, height) = (97, 41);
        let mut pixmap = tiny_skia::Pixmap::new(width, height).expect("a pixmap");
        let style = style_colours(Palette::default());
        let mut state = 12345u32;
        let mut next = move || {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
            state >> 8
        };
        let pixels = pixmap.pixels_mut();
        let mut at = 0;
        while at < pixels.len() {
            let run = 1 + (next() % 40) as usize;
            let [r, g, b] = match next() % 3 {
                0 => style[next() as usize % style.len()],
                1 => [(next() % 4 * 60) as u8, 200, 17],
                _ => [next() as u8, (next() >> 3) as u8, (next() >> 5) as u8],
            };
            let colour = tiny_skia::PremultipliedColorU8::from_rgba(r, g, b, 255).expect("opaque");
            for pixel in pixels.iter_mut().skip(at).take(run) {
                *pixel = colour;
            }
            at += run;
        }
        pixmap
    }

    #[test]
    fn every_pixel_gets_its_own_colour_or_the_nearest_of_the_cube() {
        let pixmap = runs_picture();
        let style = style_colours(Palette::default());
        let (palette, indices) = to_indexed(&pixmap, Palette::default());
        assert_eq!(indices.len(), pixmap.pixels().len());
        for (pixel, &index) in pixmap.pixels().iter().zip(&indices) {
            let at = usize::from(index) * 3;
            let got = [palette[at], palette[at + 1], palette[at + 2]];
            let colour = [pixel.red(), pixel.green(), pixel.blue()];
            if style.contains(&colour) {
                assert_eq!(got, colour, "a style colour is kept exactly");
            } else {
                let nearest = colour.map(|v| ((u16::from(v) * 5 + 127) / 255 * 51) as u8);
                assert_eq!(got, nearest, "{colour:?} to the cube's nearest");
            }
        }
    }
}
