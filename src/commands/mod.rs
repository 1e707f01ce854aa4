//! The `judge` subcommands, one file each.

pub mod adjudicate;
pub mod archive;
pub mod check;
pub mod export;
pub mod handle;
pub mod init;
pub mod map;
pub mod run;

/// `--now` (RFC 3339) as unix seconds; the clock when absent.
pub fn parse_now(now: Option<&str>) -> Result<i64, String> {
    match now {
        None => Ok(chrono::Utc::now().timestamp()),
        Some(t) => chrono::DateTime::parse_from_rfc3339(t)
            .map(|d| d.timestamp())
            .map_err(|e| format!("--now {t:?} is not an RFC 3339 time: {e}")),
    }
}
