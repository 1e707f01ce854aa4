//! Where mail comes from and goes to, as configured in `[inbox]` and
//! `[outbox]` of `judge.toml`. Each kind is one file; this one reads the
//! configuration and dispatches.

use std::path::PathBuf;
use std::time::Duration;

use super::imap::ImapInbox;
use super::maildir::{MaildirInbox, MaildirOutbox};
use super::sendmail::SendmailOutbox;
use super::smtp::SmtpOutbox;
use crate::config::Config;
use crate::store::Outbound;

/// One inbound mail and how to tell the mailbox it is safely stored.
pub struct InMail {
    pub raw: Vec<u8>,
    pub token: String,
}

pub enum Inbox {
    Maildir(MaildirInbox),
    Imap(Box<ImapInbox>),
    /// Mail arrives through `judge handle` (a pipe from the mail system):
    /// `judge run` only keeps the clock and the outbox.
    Pipe,
}

pub enum Outbox {
    Maildir(MaildirOutbox),
    Sendmail(SendmailOutbox),
    Smtp(Box<SmtpOutbox>),
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
pub fn key<'a>(
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

impl Inbox {
    pub fn open(config: &Config) -> Result<Inbox, String> {
        let table = config.inbox.as_ref();
        match kind(table, "inbox", "maildir")?.as_str() {
            "maildir" => Ok(Inbox::Maildir(MaildirInbox::open(
                path(config, table, "inbox", "var/inbox")?,
                config.mail.max_bytes,
            )?)),
            "imap" => Ok(Inbox::Imap(Box::new(ImapInbox::open(table)?))),
            "pipe" => Ok(Inbox::Pipe),
            other => Err(format!(
                "[inbox] kind = \"{other}\": this judge reads \"maildir\", \"imap\" or \"pipe\""
            )),
        }
    }

    /// The mails waiting now, oldest first.
    pub async fn fetch(&mut self) -> Result<Vec<InMail>, String> {
        match self {
            Inbox::Maildir(m) => m.fetch(),
            Inbox::Imap(i) => i.fetch().await,
            Inbox::Pipe => Ok(Vec::new()),
        }
    }

    /// The mail is stored in the database: the mailbox may let it go.
    pub async fn ack(&mut self, token: &str) -> Result<(), String> {
        match self {
            Inbox::Maildir(m) => m.ack(token),
            Inbox::Imap(i) => i.ack(token).await,
            Inbox::Pipe => Ok(()),
        }
    }

    /// Whether [`Inbox::wait`] may be dropped half-way without harm (an
    /// IMAP IDLE may not: the connection would be lost).
    pub fn wait_is_cancel_safe(&self) -> bool {
        !matches!(self, Inbox::Imap(_))
    }

    /// Waits until mail may have arrived, or `timeout` passes.
    pub async fn wait(&mut self, timeout: Duration) -> Result<(), String> {
        match self {
            Inbox::Maildir(m) => {
                m.wait(timeout).await;
                Ok(())
            }
            Inbox::Imap(i) => i.wait(timeout).await,
            Inbox::Pipe => {
                tokio::time::sleep(timeout).await;
                Ok(())
            }
        }
    }
}

impl Outbox {
    pub fn open(config: &Config) -> Result<Outbox, String> {
        let table = config.outbox.as_ref();
        match kind(table, "outbox", "maildir")?.as_str() {
            "maildir" => Ok(Outbox::Maildir(MaildirOutbox::open(path(
                config,
                table,
                "outbox",
                "var/outbox",
            )?)?)),
            "sendmail" => {
                let timeout = match table.and_then(|t| t.get("timeout_seconds")) {
                    None => super::sendmail::DEFAULT_TIMEOUT,
                    Some(toml::Value::Integer(s)) if *s > 0 => Duration::from_secs(*s as u64),
                    Some(v) => {
                        return Err(format!(
                            "[outbox] timeout_seconds = {v:?}: write a whole number of seconds above 0"
                        ))
                    }
                };
                Ok(Outbox::Sendmail(SendmailOutbox::new(
                    key(table, "outbox", "command")?.unwrap_or("/usr/sbin/sendmail"),
                    timeout,
                )))
            }
            "smtp" => Ok(Outbox::Smtp(Box::new(SmtpOutbox::open(table)?))),
            other => Err(format!(
                "[outbox] kind = \"{other}\": this judge sends by \"maildir\", \"smtp\" or \"sendmail\""
            )),
        }
    }

    /// Hands one queued mail to the mail system.
    pub async fn send(&mut self, mail: &Outbound, envelope_from: &str) -> Result<(), SendError> {
        match self {
            Outbox::Maildir(m) => m.send(mail).map_err(SendError::passing),
            Outbox::Sendmail(s) => s
                .send(mail, envelope_from)
                .await
                .map_err(SendError::passing),
            Outbox::Smtp(s) => s.send(mail, envelope_from).await,
        }
    }
}

/// Why a mail could not be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendError {
    pub text: String,
    /// The server refused this mail for good (an SMTP 5xx about the mail
    /// or its recipients): sending it again cannot help.
    pub permanent: bool,
}

impl SendError {
    /// A failure that may pass: the mail is tried again later.
    pub fn passing(text: String) -> SendError {
        SendError {
            text,
            permanent: false,
        }
    }

    pub fn permanent(text: String) -> SendError {
        SendError {
            text,
            permanent: true,
        }
    }
}
