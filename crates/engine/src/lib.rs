//! The rules engine: a pure library. No IO, no clock, no database: positions
//! and order texts in, positions and results out.
//!
//! - `map` / `map_data`: the board as tables.
//! - `phase`, `position`, `order`, `outcome`: the values the engine trades in.
//! - `movement`: the movement-phase adjudicator (Kruijswijk's algorithm).
//! - `retreat`, `adjustment`: the other two kinds of phase.
//! - `rules`: what a variant or civil disorder changes (inert powers,
//!   closed provinces).
//! - `adjudicate`: one phase in, the next position out.
//! - `parse`: the orders players write, read against a position.

pub mod adjudicate;
pub mod adjustment;
pub mod map;
mod map_data;
pub mod movement;
pub mod order;
pub mod outcome;
pub mod parse;
pub mod phase;
pub mod position;
pub mod retreat;
pub mod rules;
