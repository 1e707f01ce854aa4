//! What a mailbox is to the service: an [`Inbox`] mail comes from, an
//! [`Outbox`] mail goes to. Each kind (Maildir, IMAP, SMTP, sendmail) is
//! one file implementing these; [`super::configured`] picks the kinds that
//! `judge.toml` names. The kinds know these traits only, not who calls
//! them or how they are chosen.

use std::time::Duration;

use futures::future::BoxFuture;

use crate::store::mailbox::Outbound;

/// One inbound mail and how to tell the mailbox it is safely stored.
pub struct InMail {
    pub raw: Vec<u8>,
    pub token: String,
}

/// Where mail comes from. A mail is given out by [`Inbox::fetch`] until it
/// is acknowledged: the service acknowledges only what the store durably
/// holds, so a crash in between gives the same mail again.
pub trait Inbox: Send {
    /// The mails waiting now, oldest first.
    fn fetch(&mut self) -> BoxFuture<'_, Result<Vec<InMail>, String>>;

    /// The mail (its [`InMail::token`]) is stored in the database: the
    /// mailbox may let it go.
    fn acknowledge<'a>(&'a mut self, token: &'a str) -> BoxFuture<'a, Result<(), String>>;

    /// The mail of `token` in words, for the log: where it is.
    fn locate(&self, token: &str) -> String {
        format!("mail {token}")
    }

    /// Waits until mail may have arrived, or `timeout` passes.
    fn wait(&mut self, timeout: Duration) -> BoxFuture<'_, Result<(), String>>;

    /// Whether [`Inbox::wait`] may be dropped half-way without harm (an
    /// IMAP IDLE may not: the connection would be lost).
    fn wait_is_cancel_safe(&self) -> bool {
        true
    }
}

/// Where mail goes.
pub trait Outbox: Send {
    /// The mails about to be sent, one [`Outbox::send`] each, in this
    /// order. A mailbox that can do the slow part of each ahead, all
    /// together, does it here (the Maildir writes and syncs the batch's
    /// files into `tmp/` at once, one disk flush shared by many): what it
    /// could not, `send` does whole. Nothing is delivered until `send`.
    fn stage<'a>(&'a mut self, _mails: &'a [Outbound]) -> BoxFuture<'a, ()> {
        Box::pin(async {})
    }

    /// Hands one queued mail to the mail system.
    fn send<'a>(
        &'a mut self,
        mail: &'a Outbound,
        envelope_from: &'a str,
    ) -> BoxFuture<'a, Result<(), SendError>>;
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
