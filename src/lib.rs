//! `judge`: a play-by-email Diplomacy judge.
//!
//! The map of the modules:
//! - [`engine`]: the rules of the 1982 rulebook — the map, orders as text,
//!   movement/retreat/adjustment adjudication. Its own crate
//!   (`crates/engine`, `judge-engine`), depending on nothing: no IO, no
//!   clock, no database.
//! - [`draw`]: the board drawn, SVG and PNG (`crates/draw`, `judge-draw`):
//!   pure, depending on the engine only.
//! - [`interchange`]: the JSON form of positions, orders and results.
//! - [`app`]: the judge itself — configuration, store, credentials,
//!   templates — as `judge run` and `judge handle` open it.
//! - [`commands`]: the `judge` subcommands, one file each.
//! - [`config`]: reads `judge.toml`.
//! - [`daemon`]: `judge run` — mailboxes in and out, the clock.
//! - [`frontend`]: one mail in — its commands run against the store — and
//!   the replies queued.
//! - [`game`]: games between the front end and the store: settings,
//!   deadlines, order sets, starting, processing a phase.
//! - [`store`]: the SQLite store — games, seats, phases, orders, press, mail in
//!   and out, archive — and argon2id password hashing.
//! - [`mail`]: one inbound mail read into values, one outbound mail rendered.
//! - [`report`]: the mails to the whole game (results), from editable templates.
//! - [`web`]: the web archive: every game as static pages, written as it
//!   is played and by `judge archive`.
//! - [`fault`]: panics injected on purpose by tests (debug builds only).

pub mod app;
pub mod commands;
pub mod config;
pub mod daemon;
pub mod fault;
pub mod frontend;
pub mod game;
pub mod interchange;
pub mod mail;
pub mod report;
pub mod store;
pub mod web;

/// The board drawn (`crates/draw`), pure like the engine.
pub use judge_draw as draw;
/// The rules engine, its own crate (`crates/engine`): the app reaches it
/// as `crate::engine`.
pub use judge_engine as engine;
