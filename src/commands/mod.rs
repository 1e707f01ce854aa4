//! The `judge` subcommands, one file each.

pub mod adjudicate;
pub mod check;
pub mod export;
pub mod handle;
pub mod init;
pub mod map;
