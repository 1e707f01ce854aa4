//! The mail front end: one inbound mail in, stored state and queued
//! replies out.
//!
//! The order of work keeps the promise "nothing lost, nothing twice":
//! the raw mail is stored first, in its own transaction, under its
//! Message-ID (a second copy is recognised and dropped); then one
//! transaction runs its commands, queues every mail they produce and
//! marks the inbound mail handled. A crash between the two leaves the
//! mail stored and unhandled, to be handled on the next start.

mod cmd;
pub mod credentials;
mod reply;
pub mod script;
mod session;

use crate::config::Config;
use crate::mail::{read_mail, Incoming};
use crate::report::Templates;
use crate::store::{self, InboundStatus, Store, StoreError};

pub use credentials::CredentialCache;
pub use session::Outgoing;

/// What became of one mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Handled {
    /// Its Message-ID was already stored: handled before.
    Duplicate,
    /// Stored, never answered (a robot's mail, a loop, unreadable); why.
    Dropped(String),
    /// Answered: how many mails were queued.
    Answered(usize),
}

/// The judge: configuration, store, and what it remembers between mails.
pub struct Judge {
    pub config: Config,
    pub store: Store,
    pub credentials: CredentialCache,
    pub templates: Templates,
}

impl Judge {
    pub fn open(config: Config) -> Result<Judge, String> {
        let store = Store::open(config.database_path()).map_err(|e| {
            format!(
                "cannot open the database {}: {e}",
                config.database_path().display()
            )
        })?;
        let templates = Templates::from_dir(config.resolve(std::path::Path::new("templates")))
            .map_err(|e| e.to_string())?;
        Ok(Judge {
            config,
            store,
            credentials: CredentialCache::new(),
            templates,
        })
    }

    /// Stores one raw mail and handles it.
    pub fn handle(&mut self, raw: &[u8], now: i64) -> Result<Handled, StoreError> {
        let incoming = read_mail(raw, self.config.mail.max_bytes).ok();
        let message_id = match &incoming {
            Some(m) => m.message_id.clone(),
            None => format!("<unreadable-{:016x}@judge.invalid>", fnv1a(raw)),
        };
        let sender = incoming
            .as_ref()
            .and_then(|m| m.from.as_ref())
            .map(|a| a.addr_spec());
        let Some(id) =
            store::insert_inbound(self.store.conn(), &message_id, raw, sender.as_deref(), now)?
        else {
            return Ok(Handled::Duplicate);
        };
        self.process(id, incoming, now)
    }

    /// Handles every stored mail not yet handled (after a crash).
    pub fn handle_pending(&mut self, now: i64) -> Result<Vec<Handled>, StoreError> {
        let pending = store::unhandled_inbound(self.store.conn())?;
        let mut out = Vec::new();
        for inbound in pending {
            let incoming = read_mail(&inbound.raw, self.config.mail.max_bytes).ok();
            out.push(self.process(inbound.id, incoming, now)?);
        }
        Ok(out)
    }

    fn process(
        &mut self,
        id: i64,
        incoming: Option<Incoming>,
        now: i64,
    ) -> Result<Handled, StoreError> {
        let tx = self.store.transaction()?;
        let handled = match incoming {
            None => Handled::Dropped("not a readable mail".to_string()),
            Some(mail) => {
                let why_drop = if let Some(reason) = &mail.auto {
                    Some(format!("machine-generated: {reason}"))
                } else if mail.reply_address().is_none() {
                    Some("no address to answer".to_string())
                } else if mail.reply_address().is_some_and(|a| {
                    a.addr_spec()
                        .eq_ignore_ascii_case(&self.config.judge.address)
                }) {
                    Some("from the judge itself".to_string())
                } else {
                    None
                };
                match why_drop {
                    Some(why) => Handled::Dropped(why),
                    None => {
                        let mails = session::run(
                            &tx,
                            &self.config,
                            &self.templates,
                            &mut self.credentials,
                            id,
                            &mail,
                            now,
                        )?;
                        let count = mails.len();
                        for m in &mails {
                            m.queue(&tx, &self.config, now)?;
                        }
                        Handled::Answered(count)
                    }
                }
            }
        };
        let (status, note) = match &handled {
            Handled::Dropped(why) => (InboundStatus::Dropped, Some(why.as_str())),
            _ => (InboundStatus::Handled, None),
        };
        store::mark_inbound(&tx, id, status, note, now)?;
        tx.commit()?;
        Ok(handled)
    }
}

/// A stable 64-bit hash, for naming unreadable mails.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}
