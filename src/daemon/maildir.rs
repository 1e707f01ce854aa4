//! Maildir in and out: the embedded default, needing no server.
//!
//! In: every file in `new/` is a mail; once the judge has stored it, it
//! moves to `cur/` (flagged seen). A crash in between leaves it in `new/`;
//! read again, its Message-ID is recognised and it is not handled twice.
//! Out: every sent mail is one file delivered into the outbox's `new/`.

use std::path::PathBuf;
use std::time::Duration;

use maildir::Maildir;

use super::mailbox::InMail;
use crate::store::Outbound;

pub struct MaildirInbox {
    dir: Maildir,
}

impl MaildirInbox {
    pub fn open(path: PathBuf) -> Result<MaildirInbox, String> {
        let dir = Maildir::from(path.clone());
        dir.create_dirs()
            .map_err(|e| format!("inbox Maildir {}: {e}", path.display()))?;
        Ok(MaildirInbox { dir })
    }

    pub fn fetch(&mut self) -> Result<Vec<InMail>, String> {
        let mut entries: Vec<(String, PathBuf)> = self
            .dir
            .list_new()
            .filter_map(|e| e.ok())
            .map(|e| (e.id().to_string(), e.path().clone()))
            .collect();
        // Maildir names begin with the delivery time: oldest first.
        entries.sort();
        let mut out = Vec::with_capacity(entries.len());
        for (id, path) in entries {
            match std::fs::read(&path) {
                Ok(raw) => out.push(InMail { raw, token: id }),
                // Moved away meanwhile (another reader): skip it.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(format!("reading {}: {e}", path.display())),
            }
        }
        Ok(out)
    }

    pub fn ack(&mut self, id: &str) -> Result<(), String> {
        self.dir
            .move_new_to_cur_with_flags(id, "S")
            .map_err(|e| format!("moving {id} to cur/: {e}"))
    }

    /// Polls `new/` every quarter second until something is there.
    pub async fn wait(&mut self, timeout: Duration) {
        let step = Duration::from_millis(250);
        let deadline = tokio::time::Instant::now() + timeout;
        while tokio::time::Instant::now() < deadline {
            if self.dir.count_new() > 0 {
                return;
            }
            tokio::time::sleep(step.min(deadline - tokio::time::Instant::now())).await;
        }
    }
}

pub struct MaildirOutbox {
    dir: Maildir,
}

impl MaildirOutbox {
    pub fn open(path: PathBuf) -> Result<MaildirOutbox, String> {
        let dir = Maildir::from(path.clone());
        dir.create_dirs()
            .map_err(|e| format!("outbox Maildir {}: {e}", path.display()))?;
        clean_tmp(&path);
        Ok(MaildirOutbox { dir })
    }

    pub fn send(&mut self, mail: &Outbound) -> Result<(), String> {
        self.dir
            .store_new(&mail.raw)
            .map(|_| ())
            .map_err(|e| format!("writing to the outbox Maildir: {e}"))
    }
}

/// Removes files left in `tmp/` by a write that was cut short (a crash)
/// more than 36 hours ago, as the Maildir convention asks. Best effort.
fn clean_tmp(root: &std::path::Path) {
    let Ok(entries) = std::fs::read_dir(root.join("tmp")) else {
        return;
    };
    let limit = Duration::from_secs(36 * 3600);
    for entry in entries.flatten() {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > limit);
        if old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
