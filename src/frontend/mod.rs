//! The mail front end: one inbound mail in, stored state and queued
//! replies out. It works with the judge's parts lent as a [`MailDesk`];
//! the judge itself (`crate::app::Judge`) stands above.
//!
//! The order of work keeps the promise "nothing lost, nothing twice", with
//! many processes at once (a mail system may run a `judge handle` per mail
//! beside `judge run`):
//! - the raw mail is stored first, in its own write transaction (a second
//!   delivery of the same mail is recognised there and dropped);
//! - then each stored mail is handled in a write transaction of its own
//!   that first claims it (`new` → taken, or nothing to do if another
//!   process has), runs its commands, queues every mail they produce and
//!   records what became of it. Mail is handled strictly in the order it
//!   was stored, by whichever process gets the write lock first.
//! - A crash between the two leaves the mail stored and unhandled, for the
//!   next process or pass. A panic or a lasting error while handling one
//!   mail is rolled back and the mail marked failed (never retried by
//!   itself); its sender and the judgekeeper are told. A passing error (a
//!   busy or full disk) leaves it `new`, to be tried again.

mod ahead;
mod cmd;
pub mod credentials;
pub mod redact;
mod reply;
pub mod script;
mod session;

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::config::Config;
use crate::fault::panic_message;
use crate::game::intake::{self, Store, Tx};
use crate::game::StoreError;
use crate::mail::{read_mail, Incoming, MailError};
use crate::report::Templates;
use crate::say;

pub use credentials::{CredentialCache, SignOnsToVerify, VerifiedSignOns};
pub use session::Outgoing;

/// What became of one mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Handled {
    /// The same mail was already stored: handled before, or about to be.
    Duplicate,
    /// Stored, never answered (a robot's mail, a loop, unreadable); why.
    Dropped(String),
    /// Answered: to whom, and how many mails were queued (the reply and
    /// what the commands sent to others).
    Answered { from: String, mails: usize },
    /// Stored, and handled by another process meanwhile.
    HandledElsewhere,
    /// Stored; handling it failed and was rolled back (why): marked
    /// failed, its sender and the judgekeeper told.
    Failed(String),
    /// Stored; not handled for now because of a passing error (why): the
    /// next `judge run` pass or `judge handle` does it.
    Deferred(String),
}

/// For the log: what became of the mail, in words.
impl std::fmt::Display for Handled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Handled::Duplicate => write!(f, "a second delivery of a stored mail: ignored"),
            Handled::Dropped(why) => write!(f, "dropped: {why}"),
            Handled::Answered { from, mails: 0 } => {
                write!(f, "mail from {from} handled, no mail sent")
            }
            Handled::Answered { from, mails } => {
                let plural = if *mails == 1 { "" } else { "s" };
                write!(f, "mail from {from} answered with {mails} mail{plural}")
            }
            Handled::HandledElsewhere => write!(f, "handled by another process"),
            Handled::Failed(why) => write!(f, "failed, rolled back: {why}"),
            Handled::Deferred(why) => write!(f, "left for later: {why}"),
        }
    }
}

/// A mail read (its bytes as they are stored, and its reading: None when
/// unreadable), not yet stored.
pub struct Arrived {
    raw: Vec<u8>,
    mail: Option<Incoming>,
}

/// A mail just stored, not yet handled.
// One per mail: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
pub enum Stored {
    /// The same mail was stored before.
    Duplicate,
    New {
        id: i64,
        /// The mail as read (None: unreadable), so that it is not read twice.
        mail: Option<Incoming>,
    },
}

/// What handling mail works with: the judge's parts, borrowed from
/// [`crate::app::Judge`], which hands one out per call.
pub struct MailDesk<'a> {
    pub config: &'a Config,
    pub store: &'a mut Store,
    pub credentials: &'a mut CredentialCache,
    pub templates: &'a Templates,
}

impl MailDesk<'_> {
    /// Stores one raw mail and handles it (after any older stored mail).
    /// An error means the mail was not stored; once stored, what went
    /// wrong is in the [`Handled`].
    pub fn handle(&mut self, raw: &[u8], now: i64) -> Result<Handled, StoreError> {
        let arrived = self.read(raw);
        self.handle_arrived(arrived, now)
    }

    /// [`MailDesk::handle`] for a mail read already.
    pub fn handle_arrived(&mut self, arrived: Arrived, now: i64) -> Result<Handled, StoreError> {
        let stored = self.store_arrived(arrived, now)?;
        Ok(self.handle_stored(stored, now))
    }

    /// Reads one raw mail, as it will be stored: once, for everything
    /// that looks at it before it is handled.
    pub fn read(&self, raw: &[u8]) -> Arrived {
        let max_bytes = self.config.mail.max_bytes;
        // Over the limit and its margin (a mailbox that gave it whole): cut
        // short with a note, so that the database does not grow by it.
        let raw = crate::mail::limit::bounded(raw, max_bytes).into_owned();
        // A mail that makes the reader panic is stored as unreadable, never
        // refused: refused, the mail system would offer it again forever.
        let mail = catch_unwind(|| read_mail(&raw, max_bytes).ok()).unwrap_or_else(|_| {
            log::error!(
                "reading a mail of {} bytes panicked: kept as unreadable",
                raw.len()
            );
            None
        });
        Arrived { raw, mail }
    }

    /// The sign-ons in `mails` (about to be handled, in order) that their
    /// handling would check and that are not verified yet: to verify on
    /// every core, apart from the store (while the mails before them are
    /// handled), and remember those that match
    /// ([`CredentialCache::remember`]); nothing else changes.
    pub fn sign_ons_to_verify(&mut self, mails: &[Arrived]) -> Result<SignOnsToVerify, StoreError> {
        let read: Vec<&Incoming> = mails.iter().filter_map(|m| m.mail.as_ref()).collect();
        let sign_ons = ahead::sign_ons(self.store, self.config, &read)?;
        Ok(self.credentials.unknown(sign_ons))
    }

    /// Stores one raw mail (one write transaction), unless the same mail
    /// is stored already.
    pub fn store_mail(&mut self, raw: &[u8], now: i64) -> Result<Stored, StoreError> {
        let arrived = self.read(raw);
        self.store_arrived(arrived, now)
    }

    /// [`MailDesk::store_mail`] for a mail read already.
    fn store_arrived(&mut self, arrived: Arrived, now: i64) -> Result<Stored, StoreError> {
        let Arrived { raw, mail } = arrived;
        let message_id = match &mail {
            Some(m) => m.message_id.clone(),
            None => format!("<unreadable-{:016x}@judge.invalid>", fnv1a(&raw)),
        };
        let sender = mail
            .as_ref()
            .and_then(|m| m.from.as_ref())
            .map(|a| a.addr_spec());
        let tx = self.store.transaction()?;
        let id = intake::store_inbound(&tx, &message_id, &raw, sender.as_deref(), now)?;
        tx.commit()?;
        Ok(match id {
            Some(id) => Stored::New { id, mail },
            None => Stored::Duplicate,
        })
    }

    /// Handles a mail just stored, after every older one still waiting
    /// (each claimed first, so none is handled twice): what became of it.
    pub fn handle_stored(&mut self, stored: Stored, now: i64) -> Handled {
        let Stored::New { id, mail } = stored else {
            return Handled::Duplicate;
        };
        let mut own = Some((id, mail));
        loop {
            match self.handle_next(id, &mut own, now) {
                // Nothing left up to it: another process handled it.
                Ok(None) => return Handled::HandledElsewhere,
                Ok(Some((handled, outcome))) if handled == id => return outcome,
                Ok(Some((older, outcome))) => {
                    log::info!("mail #{older}, stored earlier: {outcome}");
                }
                Err(e) => {
                    log::warn!("mail #{id} left for later: {e}");
                    return Handled::Deferred(e.to_string());
                }
            }
        }
    }

    /// Handles the oldest stored mail not yet handled, if there is one
    /// (mail that another process stored, or that a crash or a passing
    /// error left): its id and what became of it. An error is a passing
    /// one.
    pub fn handle_one_pending(&mut self, now: i64) -> Result<Option<(i64, Handled)>, StoreError> {
        // A read first: no write lock taken (and none waited for) when
        // there is nothing to do, as on most passes of `judge run`.
        if intake::oldest_unhandled(self.store.conn(), i64::MAX)?.is_none() {
            return Ok(None);
        }
        self.handle_next(i64::MAX, &mut None, now)
    }

    /// Claims and handles the oldest stored mail not yet handled with an id
    /// of at most `up_to`, in one write transaction: its id and what became
    /// of it, or None when there is none. `own` is a mail already read (its
    /// id and reading), used instead of reading the stored copy again. An
    /// error is a passing one: the mail stays `new`.
    fn handle_next(
        &mut self,
        up_to: i64,
        own: &mut Option<(i64, Option<Incoming>)>,
        now: i64,
    ) -> Result<Option<(i64, Handled)>, StoreError> {
        let tx = self.store.transaction()?;
        let Some(id) = intake::oldest_unhandled(&tx, up_to)? else {
            return Ok(None);
        };
        // Under the write lock nobody else can have it; the claim says so
        // in the one statement that would notice otherwise.
        if !intake::claim(&tx, id, now)? {
            return Ok(Some((id, Handled::HandledElsewhere)));
        }
        let mail = match own.take_if(|(own_id, _)| *own_id == id) {
            Some((_, mail)) => mail,
            None => {
                let raw = intake::raw_inbound(&tx, id)?;
                let max_bytes = self.config.mail.max_bytes;
                catch_unwind(|| read_mail(&raw, max_bytes).ok()).unwrap_or(None)
            }
        };
        let acted = catch_unwind(AssertUnwindSafe(|| {
            act_on(
                &tx,
                self.config,
                self.templates,
                self.credentials,
                id,
                mail.as_ref(),
                now,
            )
        }));
        let why = match acted {
            Ok(Ok(handled)) => {
                tx.commit()?;
                return Ok(Some((id, handled)));
            }
            Ok(Err(e)) if e.is_passing() => return Err(e),
            Ok(Err(e)) => format!("error: {e}"),
            Err(panic) => format!("panic: {}", panic_message(panic.as_ref())),
        };
        // Everything the mail did is undone.
        drop(tx);
        log::error!("mail #{id} could not be handled ({why}): marked failed");
        self.record_failure(id, mail.as_ref(), &why, now)?;
        Ok(Some((id, Handled::Failed(why))))
    }

    /// Marks a mail failed, and tells its sender and the judgekeeper, in
    /// one transaction.
    fn record_failure(
        &mut self,
        id: i64,
        mail: Option<&Incoming>,
        why: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let tx = self.store.transaction()?;
        if !intake::mark_failed(&tx, id, why, now)? {
            return Ok(());
        }
        let code = &self.config.judge.code;
        if let Some(mail) = mail.filter(|m| why_drop(m, self.config).is_none()) {
            let to = mail.reply_address().map(|a| a.addr_spec());
            let subject = match mail.subject.trim() {
                "" => format!("{code}: Reply"),
                s => format!("{code}: {s}"),
            };
            let body = say!("session.failed_mail") + "\n";
            let reply = Outgoing {
                to: to.into_iter().collect(),
                subject,
                body,
                game_id: None,
                answers: Some(session::answers(mail)),
                results_of: None,
                pictures: Vec::new(),
                ends_game: false,
            };
            reply.queue(&tx, self.config, now)?;
        }
        let (message_id, from) = match mail {
            Some(m) => (
                m.message_id.clone(),
                m.from.as_ref().map(|a| a.addr_spec()).unwrap_or_default(),
            ),
            None => (String::new(), String::new()),
        };
        tell_keeper(
            &tx,
            self.config,
            "a mail could not be handled",
            say!("session.failed_mail_keeper", id, message_id, from, why) + "\n",
            now,
        )?;
        tx.commit()?;
        Ok(())
    }
}

/// Runs one claimed mail's commands inside `tx`, queues what they produce
/// and records what became of the mail.
fn act_on(
    tx: &Tx<'_>,
    config: &Config,
    templates: &Templates,
    credentials: &mut CredentialCache,
    id: i64,
    mail: Option<&Incoming>,
    now: i64,
) -> Result<Handled, StoreError> {
    let handled = match mail {
        None => Handled::Dropped(why_unreadable(&intake::raw_inbound(tx, id)?, config)),
        Some(mail) => match why_drop(mail, config) {
            Some(why) => Handled::Dropped(why),
            None => {
                let mails = session::run(tx, config, templates, credentials, id, mail, now)?;
                let mut count = 0;
                for m in &mails {
                    if m.answers.is_some() && !may_answer(tx, mail, id, now)? {
                        continue;
                    }
                    m.queue(tx, config, now)?;
                    count += 1;
                }
                crate::fault::maybe_panic("mail", &mail.subject);
                let from = mail.reply_address().map(|a| a.addr_spec());
                Handled::Answered {
                    from: from.unwrap_or_default(),
                    mails: count,
                }
            }
        },
    };
    // What GET info promises: no password kept as typed, here either (a
    // second write of the row, only for a mail that held one).
    if let Some(mail) = mail {
        let raw = intake::raw_inbound(tx, id)?;
        if let Some(redacted) = redact::kept_copy(&raw, mail) {
            intake::keep_redacted(tx, id, &redacted)?;
        }
    }
    // The claim recorded `handled` already; only a dropped mail changes it
    // (one write of the row, with its raw mail, per mail).
    if let Handled::Dropped(why) = &handled {
        intake::mark_dropped(tx, id, why, now)?;
    }
    Ok(handled)
}

/// Whether a reply to this (handled) mail may be sent: always to an
/// address that has signed on with a password; to any other, a few an
/// hour at most, since its From may be forged to mail-bomb a third party
/// (the mail is handled all the same).
fn may_answer(tx: &Tx<'_>, mail: &Incoming, id: i64, now: i64) -> Result<bool, StoreError> {
    let Some(address) = mail.reply_address().map(|a| a.addr_spec()) else {
        return Ok(true);
    };
    if intake::may_reply_to(tx, &address, now)? {
        return Ok(true);
    }
    log::warn!(
        "mail #{id}: not answered: {address} has had {} replies this hour and never signed on",
        intake::STRANGER_REPLIES_PER_HOUR
    );
    Ok(false)
}

/// Why the stored bytes are not a mail: said to the judgekeeper (log and
/// the stored note), who may have written the file by hand.
fn why_unreadable(raw: &[u8], config: &Config) -> String {
    let read = catch_unwind(|| read_mail(raw, config.mail.max_bytes).err());
    match read {
        Ok(Some(MailError::Empty)) => say!("session.dropped_empty"),
        Ok(Some(MailError::NoHeaders)) => say!("session.dropped_no_headers"),
        Ok(None) | Err(_) => say!("session.dropped_unreadable"),
    }
}

/// Why a mail must not be answered, if it must not.
fn why_drop(mail: &Incoming, config: &Config) -> Option<String> {
    if let Some(reason) = &mail.auto {
        Some(format!("machine-generated: {reason}"))
    } else if mail.reply_address().is_none() {
        Some(say!("session.dropped_no_from"))
    } else if mail
        .reply_address()
        .is_some_and(|a| a.addr_spec().eq_ignore_ascii_case(&config.judge.address))
    {
        Some("from the judge itself".to_string())
    } else {
        None
    }
}

/// Queues a note to the judgekeeper (`[judge] keeper`), if one is set.
pub fn tell_keeper(
    tx: &Tx<'_>,
    config: &Config,
    what: &str,
    body: String,
    now: i64,
) -> Result<(), StoreError> {
    let Some(keeper) = &config.judge.keeper else {
        return Ok(());
    };
    let note = Outgoing {
        to: vec![keeper.clone()],
        subject: format!("{}: judgekeeper: {what}", config.judge.code),
        body,
        game_id: None,
        answers: None,
        results_of: None,
        pictures: Vec::new(),
        ends_game: false,
    };
    note.queue(tx, config, now)
}

impl From<&crate::game::GameMail> for Outgoing {
    fn from(mail: &crate::game::GameMail) -> Outgoing {
        Outgoing {
            to: mail.to.clone(),
            subject: mail.subject.clone(),
            body: mail.body.clone(),
            game_id: Some(mail.game_id),
            answers: None,
            results_of: mail.results_of.clone(),
            pictures: Vec::new(),
            ends_game: mail.ends_game,
        }
    }
}

/// A stable 64-bit hash, for naming unreadable mails.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}
