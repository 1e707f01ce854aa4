//! The `judge` subcommands, one file each.

pub mod adjudicate;
