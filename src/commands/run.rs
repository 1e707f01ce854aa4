//! `judge run`: the daemon ([`crate::daemon`]) on its runtime.

use crate::config::Config;
use crate::daemon::{self, RunOptions};

/// Runs the daemon until it is asked to stop (or, `once`, for one pass);
/// `now` (RFC 3339) fixes the time it acts at.
pub fn run(config: Config, once: bool, now: Option<&str>) -> Result<(), String> {
    let now = match now {
        Some(t) => Some(super::parse_now(Some(t))?),
        None => None,
    };
    // One thread runs the service; store work goes to the blocking pool.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("starting the runtime: {e}"))?;
    runtime.block_on(daemon::run(config, RunOptions { once, now }))
}
