//! Pictures of the board: a phase drawn as SVG, and as PNG.
//!
//! Pure, like the engine it draws: positions, orders and results in, a
//! picture out; no IO, no clock. It depends on `judge_engine` only.
//!
//! - `board` / `board_data`: the standard board as a drawing — every
//!   province a closed shape, the points where units stand — generated
//!   by `tools/map_convert.py` (see NOTICE for where the geometry comes
//!   from).
//! - `style`: the colours (two palettes: the board's classic colours and
//!   Okabe-Ito, for colour-blind readers) and sizes.
//! - `orders` and `place`: where a phase's badges, orders' lines and
//!   marks go, and the label placement pass that keeps every province's
//!   name clear of them.
//! - `svg`: one phase drawn: tints, units, orders, legend, title.
//! - `png`: the SVG rasterised by resvg with the embedded Go fonts.
//! - `animation`: a whole game's pictures in turn, as one animated PNG.

pub mod animation;
pub mod board;
mod board_data;
pub mod orders;
pub mod place;
pub mod png;
pub mod style;
pub mod svg;

pub use style::Palette;
pub use svg::{render as svg, Scene};
