//! Maildir in and out: the embedded default, needing no server.
//!
//! In: every file in `new/` is a mail; once the judge has stored it, it
//! moves to `cur/` (flagged seen). A crash in between leaves it in `new/`;
//! read again, it is recognised as the same mail and not handled twice.
//! Anything else in `new/` — a directory, a FIFO (never opened: it would
//! wait for a writer forever), a socket, a file that cannot be read —
//! moves to `quarantine/` beside `new/`, with a log line, and the judge
//! goes on.
//! Out: every sent mail is one file delivered into the outbox's `new/`:
//! written under a unique name in `tmp/`, synced, renamed into `new/`.
//! A batch of mails about to be sent is written and synced into `tmp/`
//! together, on several threads: the file system joins their syncs into
//! a few disk flushes (one sync per mail, one after another, made a
//! deadline's 8,000 mails wait on 8,000 flushes). Each is still renamed
//! into `new/` only when it is sent, so a crash delivers none of the
//! batch but those sent.
//!
//! All with `std::fs`: the Maildir layout is three folders and a naming
//! rule (<https://cr.yp.to/proto/maildir.html>).

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures::future::BoxFuture;

use super::mailbox::{InMail, Inbox, Outbox, SendError};
use crate::mail::limit::read_bounded;
use crate::store::mailbox::Outbound;

pub struct MaildirInbox {
    root: PathBuf,
    /// Entries of `new/` that could not even be moved to quarantine:
    /// skipped from now on, so that they are not tried again every pass.
    stuck: HashSet<OsString>,
    /// `[mail] max_bytes`: a bigger mail is read only up to it and a margin.
    max_bytes: usize,
}

impl MaildirInbox {
    pub fn open(path: PathBuf, max_bytes: usize) -> Result<MaildirInbox, String> {
        create_dirs(&path).map_err(|e| format!("inbox Maildir {}: {e}", path.display()))?;
        Ok(MaildirInbox {
            root: path,
            stuck: HashSet::new(),
            max_bytes,
        })
    }

    /// The folder bad entries of `new/` move to.
    pub fn quarantine_dir(&self) -> PathBuf {
        self.root.join("quarantine")
    }

    /// The names in `new/` to look at, oldest first (Maildir names begin
    /// with the delivery time); dot files are not mail, by convention.
    fn names(&self) -> Result<Vec<OsString>, String> {
        let new = self.root.join("new");
        let listing = fs::read_dir(&new).map_err(|e| format!("listing {}: {e}", new.display()))?;
        let mut names: Vec<OsString> = listing
            .filter_map(|e| e.ok())
            .map(|e| e.file_name())
            .filter(|n| !n.as_encoded_bytes().starts_with(b"."))
            .filter(|n| !self.stuck.contains(n))
            .collect();
        names.sort();
        Ok(names)
    }

    pub fn fetch(&mut self) -> Result<Vec<InMail>, String> {
        let new = self.root.join("new");
        let mut out = Vec::new();
        for name in self.names()? {
            let Some(token) = name.to_str().map(str::to_string) else {
                self.quarantine(&name, "a name that is not UTF-8");
                continue;
            };
            match read_entry(&new.join(&name), self.max_bytes) {
                Ok(Some(raw)) => out.push(InMail { raw, token }),
                // Moved away meanwhile (another reader): skip it.
                Ok(None) => {}
                Err(why) => self.quarantine(&name, &why),
            }
        }
        Ok(out)
    }

    /// Moves a bad entry of `new/` to `quarantine/` (under a name not yet
    /// taken there), with a log line.
    fn quarantine(&mut self, name: &OsString, why: &str) {
        let from = self.root.join("new").join(name);
        let dir = self.quarantine_dir();
        let mut to = dir.join(name);
        for n in 1.. {
            if fs::symlink_metadata(&to).is_err() {
                break;
            }
            let mut numbered = name.clone();
            numbered.push(format!(".{n}"));
            to = dir.join(numbered);
        }
        match fs::create_dir_all(&dir).and_then(|_| fs::rename(&from, &to)) {
            Ok(()) => log::error!(
                "inbox: {} is {why}, not a mail: moved to {}",
                from.display(),
                to.display()
            ),
            Err(e) => {
                log::error!(
                    "inbox: {} is {why}, not a mail, and cannot be moved to {} ({e}): \
                     skipped until the judge restarts; remove it",
                    from.display(),
                    dir.display()
                );
                self.stuck.insert(name.clone());
            }
        }
    }

    pub fn ack(&mut self, token: &str) -> Result<(), String> {
        // A name already carrying Maildir flags keeps its base.
        let base = token.split(":2,").next().unwrap_or(token);
        let kept = self.root.join("cur").join(format!("{base}:2,S"));
        fs::rename(self.root.join("new").join(token), &kept)
            .map_err(|e| format!("moving {token} to cur/: {e}"))?;
        // The store is synced and the mail handled: the copy kept in cur/
        // must not hold its passwords either.
        if let Err(e) = self.redact_kept_copy(&kept, base) {
            log::warn!("inbox: passwords left in {}: {e}", kept.display());
        }
        Ok(())
    }

    /// Overwrites the password words of the mail at `path` (in `cur/`),
    /// through a new file in `tmp/` renamed over it.
    fn redact_kept_copy(&self, path: &Path, base: &str) -> std::io::Result<()> {
        let (raw, _size) = read_bounded(fs::File::open(path)?, self.max_bytes)?;
        let Ok(mail) = crate::mail::read_mail(&raw, self.max_bytes) else {
            return Ok(());
        };
        let Some(redacted) = crate::frontend::redact::kept_copy(&raw, &mail) else {
            return Ok(());
        };
        let tmp = self.root.join("tmp").join(format!("{base}.redacted"));
        fs::write(&tmp, redacted)?;
        fs::rename(&tmp, path)
    }

    /// Polls `new/` every quarter second until something is there.
    pub async fn wait(&mut self, timeout: Duration) {
        let step = Duration::from_millis(250);
        let deadline = tokio::time::Instant::now() + timeout;
        while tokio::time::Instant::now() < deadline {
            if self.names().is_ok_and(|n| !n.is_empty()) {
                return;
            }
            tokio::time::sleep(step.min(deadline - tokio::time::Instant::now())).await;
        }
    }
}

/// The mail in the file at `path`; None when it is gone; why not, when it
/// is not a regular file or cannot be read. The kind is looked at before
/// anything is opened.
/// A mail over `max_bytes` is read only up to it and a margin, cut short
/// with a note.
fn read_entry(path: &Path, max_bytes: usize) -> Result<Option<Vec<u8>>, String> {
    let gone = |e: &std::io::Error| e.kind() == std::io::ErrorKind::NotFound;
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if gone(&e) => return Ok(None),
        Err(e) => return Err(format!("a file that cannot be looked at ({e})")),
    };
    let meta = if meta.file_type().is_symlink() {
        fs::metadata(path).map_err(|e| format!("a link to nothing readable ({e})"))?
    } else {
        meta
    };
    if !meta.is_file() {
        return Err(kind_of(&meta.file_type()).to_string());
    }
    match fs::File::open(path).and_then(|f| read_bounded(f, max_bytes)) {
        Ok((raw, _size)) => Ok(Some(raw)),
        Err(e) if gone(&e) => Ok(None),
        Err(e) => Err(format!("a file that cannot be read ({e})")),
    }
}

/// What a directory entry that is not a regular file is, in words.
fn kind_of(kind: &fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_block_device() || kind.is_char_device() {
        "a device"
    } else {
        "not a regular file"
    }
}

/// `new/`, `cur/` and `tmp/` under `root`, made if missing.
fn create_dirs(root: &Path) -> std::io::Result<()> {
    for sub in ["new", "cur", "tmp"] {
        fs::create_dir_all(root.join(sub))?;
    }
    Ok(())
}

pub struct MaildirOutbox {
    root: PathBuf,
    /// This host's name as Maildir file names carry it.
    host: String,
    /// Mails of the batch written and synced into `tmp/`, by their queue
    /// id: the file's name there, renamed into `new/` when sent.
    staged: HashMap<i64, String>,
}

/// Threads writing a batch's files at once: the syncs wait on the disk,
/// not on a core, and the more wait together the fewer flushes serve them.
const STAGING_THREADS: usize = 8;

impl MaildirOutbox {
    pub fn open(path: PathBuf) -> Result<MaildirOutbox, String> {
        create_dirs(&path).map_err(|e| format!("outbox Maildir {}: {e}", path.display()))?;
        clean_tmp(&path);
        Ok(MaildirOutbox {
            root: path,
            host: maildir_host(),
            staged: HashMap::new(),
        })
    }

    pub fn send(&mut self, mail: &Outbound) -> Result<(), String> {
        let delivered = match self.staged.remove(&mail.id) {
            Some(name) => self.move_to_new(&name),
            None => self.deliver(&mail.raw),
        };
        delivered.map_err(|e| format!("writing to the outbox Maildir: {e}"))
    }

    /// Writes and syncs each of `mails` into `tmp/`, several at once;
    /// files staged before and not sent are removed (that batch was cut
    /// short: its mails come again). A mail that cannot be staged is
    /// written whole when sent, which reports the error.
    pub fn stage(&mut self, mails: &[Outbound]) {
        for (_, name) in self.staged.drain() {
            let _ = fs::remove_file(self.root.join("tmp").join(name));
        }
        // Named and created in the queue's order, written and synced on
        // several threads.
        let files: Vec<(i64, String, fs::File, &[u8])> = mails
            .iter()
            .filter_map(|mail| {
                let (name, file) = self.create_in_tmp().ok()?;
                Some((mail.id, name, file, &mail.raw[..]))
            })
            .collect();
        let tmp = self.root.join("tmp");
        let next = AtomicU64::new(0);
        let staged: Vec<(i64, String)> = std::thread::scope(|scope| {
            let worker = || {
                let mut mine = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed) as usize;
                    let Some((id, name, file, raw)) = files.get(i) else {
                        return mine;
                    };
                    let mut file = file;
                    match file.write_all(raw).and_then(|()| file.sync_all()) {
                        Ok(()) => mine.push((*id, name.clone())),
                        Err(_) => drop(fs::remove_file(tmp.join(name))),
                    }
                }
            };
            let workers: Vec<_> = (0..STAGING_THREADS.min(files.len()))
                .map(|_| scope.spawn(worker))
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().unwrap_or_default())
                .collect()
        });
        self.staged.extend(staged);
    }

    /// Writes `raw` to a new file in `tmp/`, syncs it, and renames it into
    /// `new/`: a reader of `new/` never sees half a mail, and a delivered
    /// mail survives a crash.
    fn deliver(&self, raw: &[u8]) -> std::io::Result<()> {
        let name = self.write_in_tmp(raw)?;
        self.move_to_new(&name)
    }

    /// `raw` in a new file in `tmp/`, synced: its name.
    fn write_in_tmp(&self, raw: &[u8]) -> std::io::Result<String> {
        let (name, mut file) = self.create_in_tmp()?;
        if let Err(e) = file.write_all(raw).and_then(|()| file.sync_all()) {
            let _ = fs::remove_file(self.root.join("tmp").join(&name));
            return Err(e);
        }
        Ok(name)
    }

    /// The synced file `name` of `tmp/` renamed into `new/`: delivered.
    fn move_to_new(&self, name: &str) -> std::io::Result<()> {
        let tmp = self.root.join("tmp").join(name);
        let renamed = fs::rename(&tmp, self.root.join("new").join(name));
        if renamed.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        renamed
    }

    /// A file in `tmp/` under a name not taken: `time.M<micros>P<pid>Q<n>.host`,
    /// the counter making names unique within this process.
    fn create_in_tmp(&self) -> std::io::Result<(String, fs::File)> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        loop {
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default();
            let name = format!(
                "{}.M{}P{}Q{}.{}",
                now.as_secs(),
                now.subsec_micros(),
                std::process::id(),
                COUNTER.fetch_add(1, Ordering::Relaxed),
                self.host
            );
            let path = self.root.join("tmp").join(&name);
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(file) => return Ok((name, file)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
    }
}

/// The host name, with `/` and `:` written `\057` and `\072` as the
/// Maildir convention asks (they would break the name apart).
fn maildir_host() -> String {
    let host = hostname::get()
        .ok()
        .and_then(|h| h.into_string().ok())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".to_string());
    host.replace('/', "\\057").replace(':', "\\072")
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

impl Inbox for MaildirInbox {
    fn fetch(&mut self) -> BoxFuture<'_, Result<Vec<InMail>, String>> {
        Box::pin(async move { MaildirInbox::fetch(self) })
    }

    fn acknowledge<'a>(&'a mut self, token: &'a str) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move { self.ack(token) })
    }

    fn locate(&self, token: &str) -> String {
        self.root.join("new").join(token).display().to_string()
    }

    fn wait(&mut self, timeout: Duration) -> BoxFuture<'_, Result<(), String>> {
        Box::pin(async move {
            MaildirInbox::wait(self, timeout).await;
            Ok(())
        })
    }
}

impl Drop for MaildirOutbox {
    /// Staged mails not sent (asked to stop mid-batch) leave no files.
    fn drop(&mut self) {
        for (_, name) in self.staged.drain() {
            let _ = fs::remove_file(self.root.join("tmp").join(name));
        }
    }
}

impl Outbox for MaildirOutbox {
    fn stage<'a>(&'a mut self, mails: &'a [Outbound]) -> BoxFuture<'a, ()> {
        Box::pin(async move { MaildirOutbox::stage(self, mails) })
    }

    fn send<'a>(
        &'a mut self,
        mail: &'a Outbound,
        _: &'a str,
    ) -> BoxFuture<'a, Result<(), SendError>> {
        Box::pin(async move { MaildirOutbox::send(self, mail).map_err(SendError::passing) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queued(id: i64, text: &str) -> Outbound {
        Outbound {
            id,
            message_id: format!("<{id}@judge.test>"),
            game_id: None,
            recipients: vec!["player@example.net".to_string()],
            subject: text.to_string(),
            raw: format!("Subject: {text}\r\n\r\n{text}\r\n").into_bytes(),
            created_at: 0,
            attempts: 0,
            last_error: None,
            next_attempt_at: 0,
            sent_at: None,
            abandoned_at: None,
        }
    }

    fn contents(dir: &Path) -> Vec<String> {
        let mut all: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| fs::read_to_string(e.unwrap().path()).unwrap())
            .collect();
        all.sort();
        all
    }

    #[test]
    fn a_staged_batch_is_delivered_mail_by_mail_and_what_was_not_sent_leaves_no_file() {
        let root = std::env::temp_dir().join(format!("judge-stage-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let mut outbox = MaildirOutbox::open(root.clone()).unwrap();
        let batch: Vec<Outbound> = (1..=20)
            .map(|i| queued(i, &format!("mail {i:02}")))
            .collect();
        outbox.stage(&batch);
        assert!(
            contents(&root.join("new")).is_empty(),
            "nothing delivered yet"
        );
        assert_eq!(contents(&root.join("tmp")).len(), 20);
        for mail in &batch[..3] {
            outbox.send(mail).unwrap();
        }
        // A mail not staged is written whole.
        outbox.send(&queued(99, "mail 99")).unwrap();
        let delivered = contents(&root.join("new"));
        assert_eq!(delivered.len(), 4);
        for (i, text) in [1, 2, 3, 99].into_iter().zip(&delivered) {
            assert_eq!(
                *text,
                format!("Subject: mail {i:02}\r\n\r\nmail {i:02}\r\n")
            );
        }
        // The next batch replaces the rest of this one; stopping removes it.
        outbox.stage(&batch[10..12]);
        assert_eq!(contents(&root.join("tmp")).len(), 2);
        drop(outbox);
        assert!(contents(&root.join("tmp")).is_empty());
        assert_eq!(contents(&root.join("new")).len(), 4);
        fs::remove_dir_all(&root).unwrap();
    }
}
