//! `judge`: a play-by-email Diplomacy judge.
//!
//! The map of the modules:
//! - [`engine`]: the rules of the 1982 rulebook — the map, orders as text,
//!   movement/retreat/adjustment adjudication. Pure: no IO, no clock, no
//!   database.
//! - [`interchange`]: the JSON form of positions, orders and results.
//! - [`commands`]: the `judge` subcommands, one file each.
//! - [`store`]: the SQLite store — games, seats, phases, orders, press, mail in
//!   and out, archive — and argon2id password hashing.
//! - [`mail`]: one inbound mail read into values, one outbound mail rendered.

pub mod commands;
pub mod engine;
pub mod interchange;
pub mod mail;
pub mod store;
