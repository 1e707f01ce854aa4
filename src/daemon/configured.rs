//! The mailboxes `judge.toml` names, in `[inbox]` and `[outbox]`: the one
//! place a kind is chosen. Everything else sees an [`Inbox`] or an
//! [`Outbox`].

use std::path::PathBuf;
use std::time::Duration;

use futures::future::BoxFuture;

use super::imap::ImapInbox;
use super::mailbox::{InMail, Inbox, Outbox};
use super::maildir::{MaildirInbox, MaildirOutbox};
use super::sendmail::{self, SendmailOutbox};
use super::smtp::SmtpOutbox;
use crate::config::Config;

/// The inbox of `[inbox] kind`.
pub fn inbox(config: &Config) -> Result<Box<dyn Inbox>, String> {
    let table = config.inbox.as_ref();
    match kind(table, "inbox", "maildir")?.as_str() {
        "maildir" => Ok(Box::new(MaildirInbox::open(
            path(config, table, "inbox", "var/inbox")?,
            config.mail.max_bytes,
        )?)),
        "imap" => Ok(Box::new(ImapInbox::open(table, config.mail.max_bytes)?)),
        "pipe" => Ok(Box::new(Pipe)),
        other => Err(format!(
            "[inbox] kind = \"{other}\": this judge reads \"maildir\", \"imap\" or \"pipe\""
        )),
    }
}

/// The outbox of `[outbox] kind`.
pub fn outbox(config: &Config) -> Result<Box<dyn Outbox>, String> {
    let table = config.outbox.as_ref();
    match kind(table, "outbox", "maildir")?.as_str() {
        "maildir" => Ok(Box::new(MaildirOutbox::open(path(
            config,
            table,
            "outbox",
            "var/outbox",
        )?)?)),
        "sendmail" => Ok(Box::new(SendmailOutbox::new(
            key(table, "outbox", "command")?.unwrap_or("/usr/sbin/sendmail"),
            sendmail_timeout(table)?,
        ))),
        "smtp" => Ok(Box::new(SmtpOutbox::open(table)?)),
        other => Err(format!(
            "[outbox] kind = \"{other}\": this judge sends by \"maildir\", \"smtp\" or \"sendmail\""
        )),
    }
}

/// `[inbox] kind = "pipe"`: mail arrives through `judge handle` (a pipe
/// from the mail system); `judge run` only keeps the clock and the outbox.
struct Pipe;

impl Inbox for Pipe {
    fn fetch(&mut self) -> BoxFuture<'_, Result<Vec<InMail>, String>> {
        Box::pin(async { Ok(Vec::new()) })
    }

    fn acknowledge<'a>(&'a mut self, _token: &'a str) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async { Ok(()) })
    }

    fn wait(&mut self, timeout: Duration) -> BoxFuture<'_, Result<(), String>> {
        Box::pin(async move {
            tokio::time::sleep(timeout).await;
            Ok(())
        })
    }
}

fn sendmail_timeout(table: Option<&toml::Table>) -> Result<Duration, String> {
    match table.and_then(|t| t.get("timeout_seconds")) {
        None => Ok(sendmail::DEFAULT_TIMEOUT),
        Some(toml::Value::Integer(s)) if *s > 0 => Ok(Duration::from_secs(*s as u64)),
        Some(v) => Err(format!(
            "[outbox] timeout_seconds = {v:?}: write a whole number of seconds above 0"
        )),
    }
}

fn kind(table: Option<&toml::Table>, section: &str, default: &str) -> Result<String, String> {
    match table.and_then(|t| t.get("kind")) {
        None => Ok(default.to_string()),
        Some(toml::Value::String(k)) => Ok(k.clone()),
        Some(v) => Err(format!(
            "[{section}] kind = {v:?}: write a string such as \"maildir\""
        )),
    }
}

/// A string key of a section.
fn key<'a>(
    table: Option<&'a toml::Table>,
    section: &str,
    name: &str,
) -> Result<Option<&'a str>, String> {
    match table.and_then(|t| t.get(name)) {
        None => Ok(None),
        Some(toml::Value::String(s)) => Ok(Some(s)),
        Some(v) => Err(format!("[{section}] {name} = {v:?}: write a string")),
    }
}

fn path(
    config: &Config,
    table: Option<&toml::Table>,
    section: &str,
    default: &str,
) -> Result<PathBuf, String> {
    let p = key(table, section, "path")?.unwrap_or(default);
    Ok(config.resolve(std::path::Path::new(p)))
}
