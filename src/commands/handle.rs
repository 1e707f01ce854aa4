//! `judge handle < message.eml`: one mail through the whole front end, its
//! replies queued — for `.forward`, procmail and mail systems' pipe
//! transports, which may run many at once beside `judge run`.
//!
//! What the exit status tells the mail system: 0 once the mail is stored
//! durably, whatever became of it then (handled here, by another process,
//! or left for the next `judge run` pass); [`EX_TEMPFAIL`] (75) when it
//! could not be stored — then nothing of it was done, and the mail system
//! keeps it and offers it again later. Never anything else: to a mail
//! system other statuses mean "bounce it to the sender".

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use crate::app::Judge;
use crate::config::Config;
use crate::fault::panic_message;
use crate::frontend::Handled;
use crate::mail::limit::read_bounded;

/// sysexits.h: a temporary failure; the mail system retries.
pub const EX_TEMPFAIL: u8 = 75;

/// Stores the mail on stdin and handles it. `Err`: it was not stored (say
/// why, exit [`EX_TEMPFAIL`]).
pub fn run(config: &Path, now: Option<&str>) -> Result<Handled, String> {
    let config = Config::load(config)?;
    // A mail over the limit is kept only up to it (and a margin): a huge
    // one costs neither memory nor database.
    let (raw, _size) = read_bounded(std::io::stdin().lock(), config.mail.max_bytes)
        .map_err(|e| format!("reading the mail from stdin: {e}"))?;
    let now = crate::commands::parse_now(now)?;
    let mut judge = Judge::open(config)?;
    let stored = catch_unwind(AssertUnwindSafe(|| judge.store_mail(&raw, now)))
        .map_err(|panic| format!("storing the mail: panic: {}", panic_message(panic.as_ref())))?
        .map_err(|e| format!("storing the mail: {e}"))?;
    // The mail system drops its copy when this exits 0: the store must
    // hold the mail for good first.
    judge
        .store
        .sync()
        .map_err(|e| format!("making the stored mail durable: {e}"))?;
    // Stored: whatever happens now, the mail is safe (a failure here is
    // contained per mail inside, and anything left is handled later).
    let handled = catch_unwind(AssertUnwindSafe(|| judge.handle_stored(stored, now)))
        .unwrap_or_else(|panic| Handled::Deferred(panic_message(panic.as_ref())));
    if let Err(e) = judge.store.sync() {
        log::warn!("syncing the store after handling: {e}");
    }
    Ok(handled)
}
