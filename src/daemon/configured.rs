//! The mailboxes `judge.toml` names, as `config` read them: the one place
//! a kind is opened. Everything else sees an [`Inbox`] or an [`Outbox`].

use std::time::Duration;

use futures::future::BoxFuture;

use super::imap::ImapInbox;
use super::mailbox::{InMail, Inbox, Outbox};
use super::maildir::{MaildirInbox, MaildirOutbox};
use super::sendmail::SendmailOutbox;
use super::smtp::SmtpOutbox;
use crate::config::{Config, InboxSettings, OutboxSettings};

/// The inbox of `[inbox]`.
pub fn inbox(config: &Config) -> Result<Box<dyn Inbox>, String> {
    let max_bytes = config.mail.max_bytes;
    Ok(match &config.inbox {
        InboxSettings::Maildir { path } => {
            Box::new(MaildirInbox::open(config.resolve(path), max_bytes)?)
        }
        InboxSettings::Imap(settings) => Box::new(ImapInbox::open(settings.clone(), max_bytes)),
        InboxSettings::Pipe => Box::new(Pipe),
    })
}

/// The outbox of `[outbox]`.
pub fn outbox(config: &Config) -> Result<Box<dyn Outbox>, String> {
    Ok(match &config.outbox {
        OutboxSettings::Maildir { path } => Box::new(MaildirOutbox::open(config.resolve(path))?),
        OutboxSettings::Smtp(settings) => Box::new(SmtpOutbox::open(settings.clone())?),
        OutboxSettings::Sendmail { command, timeout } => {
            Box::new(SendmailOutbox::new(command, *timeout))
        }
    })
}

/// Where `[inbox]` takes mail from and where `[outbox]` puts it, in
/// words, for the log at start: a newcomer sees where to drop a mail and
/// where its reply appears.
pub fn describe(config: &Config) -> (String, String) {
    let inbox = match &config.inbox {
        InboxSettings::Maildir { path } => {
            let new = config.resolve(path).join("new");
            format!(
                "the Maildir folder {} (a mail file put there is read)",
                new.display()
            )
        }
        InboxSettings::Imap(settings) => {
            format!("{}, folder {}", settings.describe(), settings.folder)
        }
        InboxSettings::Pipe => "judge handle only ([inbox] kind = \"pipe\")".to_string(),
    };
    let outbox = match &config.outbox {
        OutboxSettings::Maildir { path } => {
            let new = config.resolve(path).join("new");
            format!("the Maildir folder {} (a file per mail)", new.display())
        }
        OutboxSettings::Smtp(settings) => settings.describe(),
        OutboxSettings::Sendmail { command, .. } => format!("the program {command}"),
    };
    (inbox, outbox)
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
