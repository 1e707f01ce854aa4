//! The `judge` subcommands, one file each.

pub mod adjudicate;
pub mod export;
pub mod handle;
