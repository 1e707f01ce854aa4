//! The rules engine: a pure library. No IO, no clock, no database: positions
//! and order texts in, positions and results out.

pub mod map;
mod map_data;
