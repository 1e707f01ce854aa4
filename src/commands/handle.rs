//! `judge handle < message.eml`: one mail through the whole front end, its
//! replies queued — for `.forward` and procmail set-ups.

use std::io::Read;

use crate::config::Config;
use crate::frontend::{Handled, Judge};

pub fn run(config: Config, now: i64) -> Result<Handled, String> {
    let mut raw = Vec::new();
    std::io::stdin()
        .read_to_end(&mut raw)
        .map_err(|e| format!("reading the mail from stdin: {e}"))?;
    let mut judge = Judge::open(config)?;
    // Anything a crash left unhandled goes first, in order.
    judge.handle_pending(now).map_err(|e| e.to_string())?;
    let handled = judge.handle(&raw, now).map_err(|e| e.to_string())?;
    // The mail system drops its copy when this exits well: the store must
    // hold the mail for good first.
    judge.store.sync().map_err(|e| e.to_string())?;
    Ok(handled)
}
