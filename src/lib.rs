//! `judge`: a play-by-email Diplomacy judge.
//!
//! The map of the modules:
//! - [`engine`]: the rules of the 1982 rulebook — the map, orders as text,
//!   movement/retreat/adjustment adjudication. Pure: no IO, no clock, no
//!   database.
//! - [`interchange`]: the JSON form of positions, orders and results.
//! - [`commands`]: the `judge` subcommands, one file each.

pub mod engine;
// pub mod commands;  (enabled once engine::parse lands)
// pub mod interchange;
