//! A whole game as one animated PNG (APNG): every phase's picture in
//! turn, small enough to mail.
//!
//! Each picture is drawn as [`crate::png::render_scene`] draws it and put
//! in the same 256 colours (the style's own, then a cube: the palette
//! depends on the powers' palette only, so one `PLTE` serves every
//! frame). The first frame is the whole picture; each later one only the
//! box of pixels that changed since the one before, and inside that box
//! the pixels that did not change are one transparent colour laid "over"
//! the frame before: units move and provinces change hands all over the
//! board, so the box is most of it, but runs of the transparent colour
//! cost next to nothing compressed.
//!
//! The file's default image, what a viewer that does not animate shows
//! (a mail reader, a chat preview), is the last picture: how the game
//! ended, the one still worth showing. It is stored apart from the
//! animation (APNG's "default image not part of the animation"), at the
//! cost of the last picture's bytes twice.

use judge_engine::map::Map;

use crate::png::{rasterize_scene, to_indexed};
use crate::svg::Scene;

/// How long each picture is shown, in milliseconds; the last longer,
/// before the animation starts again.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Timing {
    pub each: u16,
    pub last: u16,
}

impl Default for Timing {
    /// A second a phase: long enough to see which units moved; four on the
    /// end, to read the final position before the game starts over.
    fn default() -> Self {
        Timing {
            each: 1000,
            last: 4000,
        }
    }
}

/// How the frames are compressed (the bench compares them).
#[derive(Copy, Clone, Debug)]
pub struct Packing {
    pub compression: ::png::DeflateCompression,
    pub filter: ::png::Filter,
}

impl Default for Packing {
    /// zlib's level 6 and no filter. A summary is drawn once per game,
    /// not at every deadline, so the smaller file wins over the faster
    /// encoding. On 40 phases of random play at 800 pixels
    /// (`benches/draw.rs`): 294 KB; with Paeth 357 KB and slower; zlib 9
    /// 265 KB for half as much time again; fdeflate's fast mode 527 KB
    /// with Paeth, and without a filter it cannot shrink the runs and
    /// stores them (13 MB). A filter only blurs an indexed picture's runs.
    fn default() -> Self {
        Packing {
            compression: ::png::DeflateCompression::Level(6),
            filter: ::png::Filter::NoFilter,
        }
    }
}

/// `scenes` in turn as an APNG `width` pixels wide, looping for ever, the
/// last scene also its default image.
pub fn animate(
    map: &Map,
    scenes: &[Scene<'_>],
    width: u32,
    timing: Timing,
) -> Result<Vec<u8>, String> {
    animate_packed(map, scenes, width, timing, Packing::default())
}

/// [`animate`], compressed as `packing` says.
pub fn animate_packed(
    map: &Map,
    scenes: &[Scene<'_>],
    width: u32,
    timing: Timing,
    packing: Packing,
) -> Result<Vec<u8>, String> {
    let err = |e: ::png::EncodingError| format!("encoding the animation: {e}");
    let last = scenes.last().ok_or("no picture to animate")?;
    let ending = indexed(map, last, width)?;
    let transparent = transparent_index(&ending.palette)?;
    let frames = u32::try_from(scenes.len()).map_err(|_| "too many pictures")?;
    let mut out = Vec::with_capacity(512 * 1024);
    let mut encoder = ::png::Encoder::new(&mut out, width, ending.height);
    encoder.set_color(::png::ColorType::Indexed);
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_palette(with_transparent(&ending.palette));
    encoder.set_trns(opaque_but(transparent));
    encoder.set_deflate_compression(packing.compression);
    encoder.set_filter(packing.filter);
    encoder.set_animated(frames, 0).map_err(err)?;
    encoder.set_sep_def_img(true).map_err(err)?;
    let mut writer = encoder.write_header().map_err(err)?;
    writer.write_image_data(&ending.indices).map_err(err)?;
    let mut before: Option<Vec<u8>> = None;
    for (i, scene) in scenes.iter().enumerate() {
        let now = if i + 1 == scenes.len() {
            ending.indices.clone()
        } else {
            indexed(map, scene, width)?.indices
        };
        let delay = if i + 1 == scenes.len() {
            timing.last
        } else {
            timing.each
        };
        writer.set_frame_delay(delay, 1000).map_err(err)?;
        let frame = match &before {
            None => Frame::whole(&now, width, ending.height),
            Some(before) => Frame::change(before, &now, width, transparent),
        };
        frame.write(&mut writer).map_err(err)?;
        before = Some(now);
    }
    writer.finish().map_err(err)?;
    Ok(out)
}

/// One picture in the palette's indices.
struct Indexed {
    palette: Vec<u8>,
    indices: Vec<u8>,
    height: u32,
}

fn indexed(map: &Map, scene: &Scene<'_>, width: u32) -> Result<Indexed, String> {
    let pixmap = rasterize_scene(map, scene, width)?;
    let (palette, indices) = to_indexed(&pixmap, scene.palette);
    Ok(Indexed {
        palette,
        indices,
        height: pixmap.height(),
    })
}

/// The index after the palette's colours: no pixel drawn has it.
fn transparent_index(palette: &[u8]) -> Result<u8, String> {
    u8::try_from(palette.len() / 3).map_err(|_| "no room in the palette for transparency".into())
}

fn with_transparent(palette: &[u8]) -> Vec<u8> {
    let mut all = palette.to_vec();
    all.extend([0, 0, 0]);
    all
}

/// `tRNS`: every index opaque up to `transparent`, which is not.
fn opaque_but(transparent: u8) -> Vec<u8> {
    let mut alphas = vec![255u8; usize::from(transparent) + 1];
    alphas[usize::from(transparent)] = 0;
    alphas
}

/// One frame of the animation: a box of the picture and its indices.
struct Frame {
    x: u32,
    y: u32,
    width: u32,
    height: u32,
    indices: Vec<u8>,
    /// Laid over the frame before (its transparent pixels keep what was
    /// there), or replacing it.
    over: bool,
}

impl Frame {
    fn whole(indices: &[u8], width: u32, height: u32) -> Frame {
        Frame {
            x: 0,
            y: 0,
            width,
            height,
            indices: indices.to_vec(),
            over: false,
        }
    }

    /// What turns `before` into `now` (both `width` pixels a row): the box
    /// of what changed, the unchanged pixels in it `transparent`. Two
    /// equal pictures make one transparent pixel (a frame has at least
    /// one).
    fn change(before: &[u8], now: &[u8], width: u32, transparent: u8) -> Frame {
        let row = width as usize;
        let Some((x0, y0, x1, y1)) = changed_box(before, now, row) else {
            return Frame {
                x: 0,
                y: 0,
                width: 1,
                height: 1,
                indices: vec![transparent],
                over: true,
            };
        };
        let mut indices = Vec::with_capacity((x1 - x0) * (y1 - y0));
        for y in y0..y1 {
            let span = y * row + x0..y * row + x1;
            indices.extend(before[span.clone()].iter().zip(&now[span]).map(|(&b, &n)| {
                if b == n {
                    transparent
                } else {
                    n
                }
            }));
        }
        Frame {
            x: x0 as u32,
            y: y0 as u32,
            width: (x1 - x0) as u32,
            height: (y1 - y0) as u32,
            indices,
            over: true,
        }
    }

    fn write<W: std::io::Write>(
        &self,
        writer: &mut ::png::Writer<W>,
    ) -> Result<(), ::png::EncodingError> {
        // The box is checked against the position in force: move it to the
        // corner first, then size it, then place it.
        writer.reset_frame_position()?;
        writer.set_frame_dimension(self.width, self.height)?;
        writer.set_frame_position(self.x, self.y)?;
        writer.set_blend_op(if self.over {
            ::png::BlendOp::Over
        } else {
            ::png::BlendOp::Source
        })?;
        writer.set_dispose_op(::png::DisposeOp::None)?;
        writer.write_image_data(&self.indices)
    }
}

/// The smallest box (x0, y0, past x1, past y1) holding every pixel that
/// differs between `before` and `now`, `row` pixels a row; None if none.
fn changed_box(before: &[u8], now: &[u8], row: usize) -> Option<(usize, usize, usize, usize)> {
    let rows = before.chunks_exact(row).zip(now.chunks_exact(row));
    let mut found: Option<(usize, usize, usize, usize)> = None;
    for (y, (b, n)) in rows.enumerate() {
        // Most rows are the same: one comparison of the slices each.
        if b == n {
            continue;
        }
        let first = b.iter().zip(n).position(|(p, q)| p != q).unwrap_or(0);
        let last = row - b.iter().zip(n).rev().position(|(p, q)| p != q).unwrap_or(0);
        found = Some(match found {
            None => (first, y, last, y + 1),
            Some((x0, y0, x1, _)) => (x0.min(first), y0, x1.max(last), y + 1),
        });
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Palette;
    use judge_engine::adjudicate::adjudicate;
    use judge_engine::map::Power;
    use judge_engine::parse::parse_order;
    use judge_engine::position::Position;
    use std::io::Cursor;

    const WIDTH: u32 = 400;

    /// The opening and the positions after two movement phases in which a
    /// few units moved: a short game's pictures.
    fn short_game(map: &Map) -> Vec<Position> {
        let spring = [
            (Power::France, "A PAR - BUR"),
            (Power::England, "F LON - NTH"),
            (Power::Russia, "A MOS - UKR"),
            (Power::Turkey, "F ANK - BLA"),
        ];
        let fall = [
            (Power::France, "A BUR - BEL"),
            (Power::England, "F NTH - NWY"),
        ];
        let mut positions = vec![Position::standard_start(map)];
        for moves in [&spring[..], &fall[..]] {
            let now = positions.last().expect("the opening");
            let orders: Vec<_> = moves
                .iter()
                .map(|(power, text)| parse_order(map, now, *power, text).expect(text))
                .collect();
            positions.push(adjudicate(map, now, &orders).next);
        }
        positions
    }

    fn scenes<'a>(positions: &'a [Position], titles: &'a [String]) -> Vec<Scene<'a>> {
        positions
            .iter()
            .zip(titles)
            .map(|(position, title)| Scene {
                position,
                orders: &[],
                retreats: &[],
                title,
                palette: Palette::default(),
            })
            .collect()
    }

    /// A decoded frame: where it goes, how, and its indices.
    struct Decoded {
        control: Option<::png::FrameControl>,
        indices: Vec<u8>,
    }

    /// Every image of `apng` in file order (the default image first), and
    /// its animation control.
    fn decode(apng: &[u8]) -> (::png::AnimationControl, Vec<Decoded>, Vec<u8>) {
        let mut decoder = ::png::Decoder::new(Cursor::new(apng));
        decoder.set_transformations(::png::Transformations::IDENTITY);
        let mut reader = decoder.read_info().expect("a PNG");
        let info = reader.info();
        assert_eq!(info.color_type, ::png::ColorType::Indexed);
        let control = info.animation_control.expect("acTL: an animated PNG");
        let trns = info.trns.as_deref().expect("tRNS").to_vec();
        let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
        let mut images = Vec::new();
        for _ in 0..=control.num_frames {
            let out = reader.next_frame(&mut buf).expect("a frame");
            images.push(Decoded {
                control: reader.info().frame_control,
                indices: buf[..out.buffer_size()].to_vec(),
            });
        }
        (control, images, trns)
    }

    #[test]
    fn every_frame_composed_is_its_picture_and_the_default_image_the_last() {
        let map = Map::standard();
        let positions = short_game(map);
        let titles: Vec<String> = positions.iter().map(|p| p.phase.to_string()).collect();
        let scenes = scenes(&positions, &titles);
        let apng = animate(map, &scenes, WIDTH, Timing::default()).expect("animated");
        let pictures: Vec<Vec<u8>> = scenes
            .iter()
            .map(|s| indexed(map, s, WIDTH).expect("drawn").indices)
            .collect();
        let (control, images, trns) = decode(&apng);
        assert_eq!((control.num_frames, control.num_plays), (3, 0));
        let transparent = trns
            .iter()
            .position(|&a| a == 0)
            .expect("a transparent index");
        // The default image stands apart (no fcTL) and is the end.
        assert!(images[0].control.is_none(), "the default image is a frame");
        assert!(
            images[0].indices == pictures[2],
            "the default image is not the last picture"
        );
        let mut canvas = vec![0u8; pictures[0].len()];
        for (k, image) in images[1..].iter().enumerate() {
            let fc = image.control.expect("fcTL before each frame");
            let last = k + 1 == pictures.len();
            assert_eq!(fc.delay_num, if last { 4000 } else { 1000 });
            assert_eq!(fc.delay_den, 1000);
            assert_eq!(fc.dispose_op, ::png::DisposeOp::None);
            if k == 0 {
                assert_eq!((fc.x_offset, fc.y_offset, fc.width), (0, 0, WIDTH));
                assert_eq!(fc.blend_op, ::png::BlendOp::Source);
            } else {
                assert_eq!(fc.blend_op, ::png::BlendOp::Over);
                let whole = pictures[0].len() as u32;
                assert!(
                    fc.width * fc.height < whole,
                    "frame {k} is the whole picture"
                );
            }
            let rows = image.indices.chunks_exact(fc.width as usize);
            for (dy, row) in rows.enumerate() {
                let at = (fc.y_offset as usize + dy) * WIDTH as usize + fc.x_offset as usize;
                for (cell, &i) in canvas[at..at + row.len()].iter_mut().zip(row) {
                    if usize::from(i) != transparent {
                        *cell = i;
                    }
                }
            }
            assert!(
                canvas == pictures[k],
                "frame {k} composed is not its picture"
            );
        }
    }

    #[test]
    fn a_change_is_the_box_of_what_differs_the_rest_transparent() {
        let before = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
        let now = [1, 1, 1, 1, 1, 2, 3, 1, 1, 1, 4, 1];
        // Four pixels a row: (1, 1) to (2, 2) changed.
        let frame = Frame::change(&before, &now, 4, 9);
        assert_eq!((frame.x, frame.y, frame.width, frame.height), (1, 1, 2, 2));
        assert_eq!(frame.indices, vec![2, 3, 9, 4]);
        assert!(frame.over);
        let same = Frame::change(&before, &before, 4, 9);
        assert_eq!((same.width, same.height, same.indices), (1, 1, vec![9]));
    }

    #[test]
    fn the_transparent_index_is_none_the_pictures_use() {
        for palette in Palette::ALL {
            let map = Map::standard();
            let position = Position::standard_start(map);
            let scene = Scene {
                position: &position,
                orders: &[],
                retreats: &[],
                title: "S1901M",
                palette,
            };
            let picture = indexed(map, &scene, WIDTH).expect("drawn");
            let transparent = transparent_index(&picture.palette).expect("room");
            assert!(!picture.indices.contains(&transparent));
        }
    }
}
