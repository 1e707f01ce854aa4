//! The web pass of `judge run`: after the clock and the sending, the web
//! archive catches up with the store (`web::publish_due`) — phases
//! processed in this process or another (`judge handle`, a Master's
//! PROCESS), press to everyone, a game made private. It runs outside every
//! write transaction, after the phases it shows were committed; what it
//! cannot write is logged and tried again next pass, and never holds up a
//! phase or a mail. One process writes the archive at a time (an OS lock
//! on `judge.db-web`): while another holds it, the pass is skipped and
//! nothing recorded, so the next pass catches up.

use crate::app::Judge;
use crate::web::{publish_due, Site};

/// One web pass onto `site` (there is one when `[web] enabled`, its
/// templates loaded when the daemon started); logs what it did and what
/// failed.
pub fn publish(judge: &Judge, site: &Site, now: i64) {
    let path = judge.config.web_lock_path();
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path);
    let _lock = match lock.map(|file| (file.try_lock(), file)) {
        Ok((Ok(()), file)) => file,
        Ok((Err(std::fs::TryLockError::WouldBlock), _)) => {
            log::debug!("web archive: another process is writing it; next pass");
            return;
        }
        Ok((Err(std::fs::TryLockError::Error(e)), _)) | Err(e) => {
            log::error!(
                "web archive: cannot take the lock {}: {e}; tried again next pass",
                path.display()
            );
            return;
        }
    };
    let started = std::time::Instant::now();
    match publish_due(judge.store.conn(), &judge.config.database_path(), site, now) {
        Ok(report) => {
            let took = started.elapsed().as_secs_f64();
            for (game, phases) in &report.written {
                log::info!("web archive: game '{game}' written ({phases} phase page(s))");
            }
            for game in &report.removed {
                log::info!("web archive: game '{game}' is private, its pages are removed");
            }
            for failure in &report.failures {
                log::error!("web archive: {failure}; tried again next pass");
            }
            if !report.written.is_empty() {
                // The deadline pass's last part, timed (benches/pass.rs reads it).
                let pages: usize = report.written.iter().map(|(_, pages)| pages).sum();
                let games = report.written.len();
                log::info!(
                    "web archive: wrote {games} game(s), {pages} phase page(s), in {took:.2} s"
                );
            }
        }
        Err(e) => log::error!("web archive: {e}; tried again next pass"),
    }
}
