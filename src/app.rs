//! The judge, the application's root: its configuration, its store, and
//! what it remembers between mails. `judge run` and `judge handle` open
//! one; the front end borrows its parts for each mail.

use crate::config::Config;
use crate::frontend::{CredentialCache, Handled, MailDesk, Stored};
use crate::report::Templates;
use crate::store::{Store, StoreError};

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
            .map_err(|e| e.to_string())?
            .with_archive_url(config.web.public_url());
        Ok(Judge {
            config,
            store,
            credentials: CredentialCache::new(),
            templates,
        })
    }

    /// The parts the front end works with, lent for one call.
    fn desk(&mut self) -> MailDesk<'_> {
        MailDesk {
            config: &self.config,
            store: &mut self.store,
            credentials: &mut self.credentials,
            templates: &self.templates,
        }
    }

    /// Stores one raw mail and handles it: [`MailDesk::handle`].
    pub fn handle(&mut self, raw: &[u8], now: i64) -> Result<Handled, StoreError> {
        self.desk().handle(raw, now)
    }

    /// Stores one raw mail: [`MailDesk::store_mail`].
    pub fn store_mail(&mut self, raw: &[u8], now: i64) -> Result<Stored, StoreError> {
        self.desk().store_mail(raw, now)
    }

    /// Handles a mail just stored: [`MailDesk::handle_stored`].
    pub fn handle_stored(&mut self, stored: Stored, now: i64) -> Handled {
        self.desk().handle_stored(stored, now)
    }

    /// Handles the oldest mail left unhandled: [`MailDesk::handle_one_pending`].
    pub fn handle_one_pending(&mut self, now: i64) -> Result<Option<(i64, Handled)>, StoreError> {
        self.desk().handle_one_pending(now)
    }
}
