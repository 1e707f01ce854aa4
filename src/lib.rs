//! `judge`: a play-by-email Diplomacy judge.
//!
//! - [`engine`]: the rules (map, orders, adjudication). Pure: no IO.

pub mod engine;
