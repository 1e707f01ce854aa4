//! The judge, the application's root: its configuration, its store, and
//! what it remembers between mails. `judge run` and `judge handle` open
//! one; the front end borrows its parts for each mail.

use crate::config::Config;
use crate::frontend::{
    Arrived, CredentialCache, Handled, MailDesk, SignOnsToVerify, Stored, VerifiedSignOns,
};
use crate::report::Templates;
use crate::store::{Store, StoreError};

/// The judge: configuration, store, and what it remembers between mails.
pub struct Judge {
    pub config: Config,
    pub store: Store,
    pub credentials: CredentialCache,
    pub templates: Templates,
}

/// Whether the database is there, and if not, whether it may be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Database {
    Present,
    /// Missing on a fresh judge (never started, no mail taken): `judge
    /// run` makes it.
    Fresh,
    /// Missing on a judge that has run before (why we know): an unmounted
    /// volume or a lost file. Making a new empty one would take mail in
    /// against the wrong store, so nothing makes it but `judge init`.
    Lost(String),
}

/// The file beside `judge.toml` that says the database was made once:
/// a missing database is then lost, never fresh.
pub fn created_marker(config: &Config) -> std::path::PathBuf {
    config.resolve(std::path::Path::new(".judge-database-created"))
}

/// What [`Database`] the configuration's database is in.
pub fn database_state(config: &Config) -> Database {
    let db = config.database_path();
    if db.exists() {
        return Database::Present;
    }
    let marker = created_marker(config);
    if marker.exists() {
        return Database::Lost(format!(
            "this judge made it before ({} says so)",
            marker.display()
        ));
    }
    let taken = config
        .maildir_inbox()
        .and_then(|inbox| std::fs::read_dir(inbox.join("cur")).ok())
        .is_some_and(|mut entries| entries.next().is_some());
    if taken {
        return Database::Lost("the inbox's cur/ holds mail this judge has taken".to_string());
    }
    Database::Fresh
}

/// Why a missing database is not made, and what to do.
fn lost_database(config: &Config, why: &str) -> String {
    format!(
        "the database {} is missing, and {why}: is its volume mounted? \
         Nothing was done. To start a new, empty judge here on purpose, run `judge init {}`.",
        config.database_path().display(),
        config.base.display()
    )
}

/// Records that the database was made (best effort: a read-only folder
/// only loses the protection, and says so in the log).
pub fn mark_created(config: &Config) {
    let marker = created_marker(config);
    let text = format!(
        "The judge made its database {} here. While this file exists, `judge run` and \
         `judge handle` never make a new empty one in its place.\n",
        config.database_path().display()
    );
    if let Err(e) = std::fs::write(&marker, text) {
        log::warn!("could not write {}: {e}", marker.display());
    }
}

impl Judge {
    /// Opens the judge on its existing database; never makes one (a
    /// missing database is an error: `judge handle` then exits 75 and the
    /// mail system keeps the mail).
    pub fn open(config: Config) -> Result<Judge, String> {
        match database_state(&config) {
            Database::Present => Judge::open_store(config),
            Database::Fresh => Err(format!(
                "the database {} does not exist yet: `judge run` or `judge init` makes it",
                config.database_path().display()
            )),
            Database::Lost(why) => Err(lost_database(&config, &why)),
        }
    }

    /// Opens the judge, making the database when the judge is fresh
    /// (`judge run`'s first start); a lost one is refused.
    pub fn open_or_create(config: Config) -> Result<Judge, String> {
        match database_state(&config) {
            Database::Present => Judge::open_store(config),
            Database::Fresh => {
                let judge = Judge::open_store(config)?;
                log::info!(
                    "made a new database {}",
                    judge.config.database_path().display()
                );
                mark_created(&judge.config);
                Ok(judge)
            }
            Database::Lost(why) => Err(lost_database(&config, &why)),
        }
    }

    fn open_store(config: Config) -> Result<Judge, String> {
        let store = Store::open(config.database_path()).map_err(|e| {
            format!(
                "cannot open the database {}: {e}",
                config.database_path().display()
            )
        })?;
        let dir = config.resolve(std::path::Path::new("templates"));
        let words = crate::report::words::Words::from_dir(&dir).map_err(|e| e.to_string())?;
        crate::report::words::install(std::sync::Arc::new(words));
        let templates = Templates::from_dir(dir)
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

    /// Reads one raw mail: [`MailDesk::read`].
    pub fn read(&mut self, raw: &[u8]) -> Arrived {
        self.desk().read(raw)
    }

    /// The sign-ons to verify ahead: [`MailDesk::sign_ons_to_verify`].
    pub fn sign_ons_to_verify(&mut self, mails: &[Arrived]) -> Result<SignOnsToVerify, StoreError> {
        self.desk().sign_ons_to_verify(mails)
    }

    /// Remembers sign-ons verified ahead; how many.
    pub fn remember_sign_ons(&mut self, verified: VerifiedSignOns) -> usize {
        self.credentials.remember(verified)
    }

    /// Stores and handles a mail read already: [`MailDesk::handle_arrived`].
    pub fn handle_arrived(&mut self, arrived: Arrived, now: i64) -> Result<Handled, StoreError> {
        self.desk().handle_arrived(arrived, now)
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
