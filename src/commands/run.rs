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
    if !once {
        raise_open_files_limit();
    }
    // One thread runs the service; store work goes to the blocking pool.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("starting the runtime: {e}"))?;
    runtime.block_on(daemon::run(config, RunOptions { once, now }))
}

/// The web server holds a file descriptor per connection: the soft limit
/// (often 1,024) is raised to the hard one, up to 65,536, so that many
/// slow clients do not starve the database and the mailbox of theirs.
fn raise_open_files_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read or write the struct given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return;
        }
        let wanted = limit.rlim_max.min(65_536);
        if limit.rlim_cur < wanted {
            limit.rlim_cur = wanted;
            if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                log::warn!("could not raise the limit on open files to {wanted}");
            }
        }
    }
}
