//! The store: one SQLite file (WAL mode) that holds everything the judge
//! knows — games, seats (the players' accounts), phases with their
//! positions, orders, press, every mail received and every mail to send,
//! and each game's history (everything sent to the whole game).
//!
//! The schema is `schema.sql` at the top of the repository, compiled in and
//! applied by [`Store::open`] at every start-up (it is idempotent), with the
//! version in `PRAGMA user_version` and forward [`MIGRATIONS`] for older
//! files. A file from a newer judge is refused, never touched.
//!
//! The typed functions in the submodules take a `&Connection`; a
//! `&Transaction` derefs to one, so a caller groups several of them into one
//! atomic step with [`Store::transaction`]:
//!
//! ```no_run
//! # fn main() -> judge::store::Result<()> {
//! use judge::store::{self, Store};
//! let mut db = Store::open("/var/lib/judge/judge.db")?;
//! let now = 1_700_000_000;
//! let tx = db.transaction()?;
//! if let Some(id) = store::mailbox::insert_inbound(&tx, "abc@example.org", b"raw mail", Some("a@b.c"), now)? {
//!     // ... act on it, queue the reply ...
//!     store::mailbox::mark_inbound(&tx, id, store::mailbox::InboundStatus::Handled, None, now)?;
//! }
//! tx.commit()?;
//! # Ok(()) }
//! ```
//!
//! Times are `i64` unix seconds passed in by the caller: the store has no
//! clock. All SQL binds its values as parameters; text round-trips verbatim.
//!
//! - `games`: games and their settings, state and master.
//! - `seats`: seats (power, player address, password, status, WAIT, DRAW),
//!   seat history, absences, observers.
//! - `phases`: phases with their position, deadline and results.
//! - `orders`: orders per unit, as written and as understood.
//! - `press`: press messages.
//! - `mailbox`: inbound mail (deduplicated by Message-ID) and the outbound
//!   queue with retry backoff.
//! - `history`: what was sent to the whole game (HISTORY; table `archive`).
//! - `map_opt_outs`: who wants no map pictures (SET MAPS).
//! - `teams`: the addresses that play one power together (SET ADDRESS).
//! - `throttle`: failed sign-ons and locks, replies to strangers.
//! - `web`: what the web archive has published of each game.
//! - `password`: argon2id hashing of passwords.

use std::fmt;
use std::path::{Path, PathBuf};

pub use rusqlite;
use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags, Transaction, TransactionBehavior};

pub mod games;
pub mod history;
pub mod mailbox;
pub mod map_opt_outs;
pub mod orders;
pub mod password;
pub mod phases;
pub mod preorders;
pub mod press;
pub mod seats;
pub mod teams;
pub mod throttle;
pub mod web;
pub mod zones;

/// The schema, applied (idempotently) at every open.
pub const SCHEMA: &str = include_str!("../../schema.sql");

/// Forward migrations: `MIGRATIONS[i]` takes a database from version `i + 1`
/// to version `i + 2`. Version 1 is the initial `schema.sql`. To change the
/// schema: edit `schema.sql` (what a new database gets) and append the SQL
/// that brings an existing database to the same shape here. They run in the
/// same transaction as the schema with foreign keys off, as SQLite's "12
/// steps" for a table rebuild ask (dropping the old table would otherwise
/// fire the ON DELETE actions of the tables that refer to it); every
/// foreign key is checked before the commit. Indexes of a rebuilt table
/// are dropped with it and made again by `schema.sql`.
pub const MIGRATIONS: &[&str] = &[
    // 1 -> 2: the clock's once-per-phase notices.
    "ALTER TABLE phases ADD COLUMN reminded_at INTEGER; \
     ALTER TABLE phases ADD COLUMN late_notice_at INTEGER;",
    // 2 -> 3: games for fewer players (one player, several powers) and
    // concessions.
    "ALTER TABLE seats ADD COLUMN bloc INTEGER REFERENCES seats (id) ON DELETE SET NULL; \
     ALTER TABLE seats ADD COLUMN concede_to TEXT;",
    // 3 -> 4: a Message-ID is no longer unique by itself (a duplicate is the
    // same Message-ID, sender and body); the body's digest; mail and games
    // whose handling failed.
    "CREATE TABLE inbound_v4 ( \
         id          INTEGER PRIMARY KEY, \
         message_id  TEXT    NOT NULL CHECK (message_id <> ''), \
         body_digest TEXT, \
         received_at INTEGER NOT NULL, \
         raw         BLOB    NOT NULL, \
         sender      TEXT, \
         status      TEXT    NOT NULL DEFAULT 'new' \
                     CHECK (status IN ('new', 'handled', 'dropped', 'failed')), \
         note        TEXT, \
         handled_at  INTEGER); \
     INSERT INTO inbound_v4 (id, message_id, received_at, raw, sender, status, note, handled_at) \
         SELECT id, message_id, received_at, raw, sender, status, note, handled_at FROM inbound; \
     DROP TABLE inbound; \
     ALTER TABLE inbound_v4 RENAME TO inbound; \
     ALTER TABLE games ADD COLUMN failed_at INTEGER; \
     ALTER TABLE games ADD COLUMN failure TEXT;",
    // 4 -> 5: sign-on failures and locks, replies to strangers (new tables
    // only: `schema.sql` makes them; listed here so the version moves).
    "CREATE TABLE IF NOT EXISTS sign_on_failures ( \
         target    TEXT    NOT NULL, \
         failed_at INTEGER NOT NULL); \
     CREATE TABLE IF NOT EXISTS sign_on_locks ( \
         target       TEXT    PRIMARY KEY, \
         locked_until INTEGER NOT NULL); \
     CREATE TABLE IF NOT EXISTS stranger_replies ( \
         address TEXT    NOT NULL COLLATE NOCASE, \
         sent_at INTEGER NOT NULL);",
    // 5 -> 6: the time zone each address sees deadlines in (SET ZONE).
    "CREATE TABLE IF NOT EXISTS player_zones ( \
         address TEXT PRIMARY KEY COLLATE NOCASE, \
         zone    TEXT NOT NULL);",
    // 6 -> 7: orders given ahead for a later phase (njudge's PHASE).
    "CREATE TABLE IF NOT EXISTS preorders ( \
         id         INTEGER PRIMARY KEY, \
         game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE, \
         power      TEXT    NOT NULL CHECK (power <> '' AND power = upper(power)), \
         phase      TEXT    NOT NULL, \
         line_no    INTEGER NOT NULL, \
         text       TEXT    NOT NULL, \
         created_at INTEGER NOT NULL); \
     CREATE INDEX IF NOT EXISTS preorders_by_game ON preorders (game_id, phase, power);",
    // 7 -> 8: what the web archive has published of each game (a new
    // table only).
    "CREATE TABLE IF NOT EXISTS web_published ( \
         game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE, \
         phases     INTEGER NOT NULL, \
         archive_id INTEGER NOT NULL, \
         state      TEXT    NOT NULL, \
         row_html   TEXT    NOT NULL, \
         activity   INTEGER NOT NULL, \
         over       INTEGER NOT NULL CHECK (over IN (0, 1)), \
         updated_at INTEGER NOT NULL);",
    // 8 -> 9: sign-on failures and locks per sender (a guesser locks out
    // only itself), the owners' once-a-day notices, the mails each
    // sender's mails caused, and addresses asked to confirm (new tables:
    // `schema.sql` makes them). The old rows are
    // an hour's worth of counts: dropped, `schema.sql` makes the tables.
    "DROP INDEX IF EXISTS sign_on_failures_by_target; \
     DROP TABLE IF EXISTS sign_on_failures; \
     DROP TABLE IF EXISTS sign_on_locks;",
    // 9 -> 10: the web archive keeps the facts of a game's row in the
    // list of games, not the row as HTML. The old rows cannot be turned
    // into facts here: dropped (`schema.sql` makes the table again), so
    // every game counts as not yet published and the next web pass, or
    // `judge archive`, writes it again whole.
    "DROP TABLE IF EXISTS web_published;",
    // 10 -> 11: teams, several addresses playing one power (a new table
    // only: `schema.sql` makes it; listed here so the version moves).
    "CREATE TABLE IF NOT EXISTS seat_addresses ( \
         seat_id      INTEGER NOT NULL REFERENCES seats (id) ON DELETE CASCADE, \
         address      TEXT    NOT NULL COLLATE NOCASE CHECK (address <> ''), \
         position     INTEGER NOT NULL, \
         confirmed_at INTEGER, \
         PRIMARY KEY (seat_id, address)); \
     CREATE INDEX IF NOT EXISTS seat_addresses_by_address ON seat_addresses (address);",
    // 11 -> 12: observers the Master names (SET OBSERVER <address>), with
    // no password: a class's list.
    "CREATE TABLE IF NOT EXISTS named_observers ( \
         id       INTEGER PRIMARY KEY, \
         game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE, \
         address  TEXT    NOT NULL COLLATE NOCASE, \
         added_at INTEGER NOT NULL, \
         UNIQUE (game_id, address));",
];

/// The version this build writes and understands.
pub const SCHEMA_VERSION: i64 = 1 + MIGRATIONS.len() as i64;

/// `PRAGMA application_id` of a judge database ("DPJG"), so that some other
/// SQLite file is not taken for one.
pub const APPLICATION_ID: i64 = 0x4450_4A47;

/// How long a connection waits for another process's lock before giving up.
/// Generous: a mail system may run dozens of `judge handle` at once, each
/// holding the write lock for one mail (tens of milliseconds, a password
/// check included); they must queue up, not fail.
pub const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

#[derive(Debug)]
pub enum StoreError {
    Sqlite(rusqlite::Error),
    Io(std::io::Error),
    Json(serde_json::Error),
    /// The file was written by a newer judge: upgrade the program.
    NewerSchema {
        found: i64,
        supported: i64,
    },
    /// The file is an SQLite database, but not a judge's.
    NotAJudgeDatabase(String),
    /// A row that had to exist does not (what was looked for).
    NotFound(String),
    /// A uniqueness rule was broken (what was duplicated).
    Duplicate(String),
    /// Hashing a password failed.
    Password(String),
    /// Opening or migrating the database went wrong.
    Setup(String),
}

impl StoreError {
    /// Whether an error may pass by itself (the database busy, the disk full
    /// or failing, memory short): the work is left to be tried again, not
    /// marked failed.
    pub fn is_passing(&self) -> bool {
        use rusqlite::ErrorCode::*;
        match self {
            StoreError::Io(_) => true,
            StoreError::Sqlite(e) => matches!(
                e.sqlite_error_code(),
                Some(
                    DatabaseBusy
                        | DatabaseLocked
                        | SystemIoFailure
                        | DiskFull
                        | CannotOpen
                        | ReadOnly
                        | OutOfMemory
                        | FileLockingProtocolFailed
                )
            ),
            _ => false,
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Sqlite(e) => write!(f, "database: {e}"),
            StoreError::Io(e) => write!(f, "database file: {e}"),
            StoreError::Json(e) => write!(f, "stored JSON: {e}"),
            StoreError::NewerSchema { found, supported } => write!(
                f,
                "the database has schema version {found}, newer than the {supported} \
                 this judge understands: it was written by a newer judge; \
                 run that version (the file is left untouched)"
            ),
            StoreError::NotAJudgeDatabase(why) => write!(f, "not a judge database: {why}"),
            StoreError::NotFound(what) => write!(f, "not found: {what}"),
            StoreError::Duplicate(what) => write!(f, "already exists: {what}"),
            StoreError::Password(e) => write!(f, "password hashing: {e}"),
            StoreError::Setup(e) => write!(f, "database set-up: {e}"),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StoreError::Sqlite(e) => Some(e),
            StoreError::Io(e) => Some(e),
            StoreError::Json(e) => Some(e),
            _ => None,
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Sqlite(e)
    }
}

impl From<std::io::Error> for StoreError {
    fn from(e: std::io::Error) -> Self {
        StoreError::Io(e)
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(e: serde_json::Error) -> Self {
        StoreError::Json(e)
    }
}

/// Whether `e` is a UNIQUE (or PRIMARY KEY) constraint failure.
pub(crate) fn is_unique_violation(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error(),
        Some(err) if err.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
            || err.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
    )
}

/// Maps a UNIQUE failure to [`StoreError::Duplicate`] naming `what`.
pub(crate) fn unique_as_duplicate(e: rusqlite::Error, what: impl FnOnce() -> String) -> StoreError {
    if is_unique_violation(&e) {
        StoreError::Duplicate(what())
    } else {
        StoreError::Sqlite(e)
    }
}

/// An UPDATE or DELETE that must hit exactly one row.
pub(crate) fn expect_one(changed: usize, what: impl FnOnce() -> String) -> Result<()> {
    if changed == 0 {
        Err(StoreError::NotFound(what()))
    } else {
        Ok(())
    }
}

/// Columns holding one of a fixed set of words (a CHECK ... IN (...)).
macro_rules! text_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vmeta])* $variant),+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The word stored in the database.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> std::result::Result<Self, String> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => Err(format!("{s:?} is not a {}", stringify!($name))),
                }
            }
        }

        impl rusqlite::types::ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
                Ok(self.as_str().into())
            }
        }

        impl rusqlite::types::FromSql for $name {
            fn column_result(
                value: rusqlite::types::ValueRef<'_>,
            ) -> rusqlite::types::FromSqlResult<Self> {
                let s = value.as_str()?;
                s.parse()
                    .map_err(|e: String| rusqlite::types::FromSqlError::Other(e.into()))
            }
        }
    };
}
pub(crate) use text_enum;

/// The judge's database.
pub struct Store {
    conn: Connection,
    path: Option<PathBuf>,
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish()
    }
}

/// Statements kept prepared per connection: every statement of the
/// store's functions is prepared once and kept (`prepare_cached`), so that a
/// deadline pass or an archive rebuild, which run the same few dozen
/// statements thousands of times, parse each once. Above the number of
/// distinct statements the store has, so none is ever pushed out.
const STATEMENT_CACHE: usize = 256;

/// Keeps every statement the store prepares, and its plan, on every
/// connection (read-write and read-only alike): the statement cache above,
/// and SQLite's query planner stability guarantee (QPSG). Without QPSG,
/// SQLite plans a statement such as `col = ?1 ORDER BY ...` against the
/// values bound to it, and so parses and plans it again at every execution
/// with new values: before the read-only connections had it, a fifth of an
/// archive rebuild went to planning `orders_of_power` again and again. The
/// judge's statements are lookups by key, whose best plan does not depend
/// on the values.
fn keep_plans(conn: &Connection) -> Result<()> {
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
    Ok(())
}

impl Store {
    /// Opens (creating if need be) the database at `path` and its parent
    /// directory; sets WAL mode, foreign keys, the busy timeout and
    /// `synchronous=NORMAL` (see `configure`); applies the schema and any
    /// migrations in one transaction. A file already at this version is
    /// only read: opening takes no write lock then, so it never waits for
    /// (or holds up) another process's work.
    /// Refuses a file written by a newer judge, or a foreign SQLite file.
    pub fn open(path: impl AsRef<Path>) -> Result<Store> {
        let path = path.as_ref();
        if let Some(parent) = path.parent() {
            if !parent.as_os_str().is_empty() {
                std::fs::create_dir_all(parent)?;
            }
        }
        create_private(path)?;
        let conn = Connection::open(path)?;
        let mode: String =
            conn.pragma_update_and_check(None, "journal_mode", "wal", |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Setup(format!(
                "could not switch {} to WAL mode (got {mode})",
                path.display()
            )));
        }
        let mut store = Store {
            conn,
            path: Some(path.to_path_buf()),
        };
        store.configure()?;
        Ok(store)
    }

    /// Opens an existing database for reading only (`judge export`): it
    /// creates nothing, writes nothing, and works on a file the judge may
    /// not write. The file must be at this judge's schema version.
    pub fn open_read_only(path: impl AsRef<Path>) -> Result<Store> {
        let path = path.as_ref();
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        keep_plans(&conn)?;
        let found = schema_version(&conn)?;
        let app_id: i64 = conn.pragma_query_value(None, "application_id", |r| r.get(0))?;
        if found == 0 || app_id != APPLICATION_ID {
            return Err(StoreError::NotAJudgeDatabase(format!(
                "{} has schema version {found} and application id {app_id:#x}",
                path.display()
            )));
        }
        if found > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema {
                found,
                supported: SCHEMA_VERSION,
            });
        }
        if found < SCHEMA_VERSION {
            return Err(StoreError::Setup(format!(
                "{} has schema version {found}, older than this judge's {SCHEMA_VERSION}: \
                 it is brought forward by the first `judge run` or `judge handle`",
                path.display()
            )));
        }
        Ok(Store {
            conn,
            path: Some(path.to_path_buf()),
        })
    }

    /// A private database in memory: for unit tests only (no WAL, gone on drop).
    pub fn open_in_memory() -> Result<Store> {
        let mut store = Store {
            conn: Connection::open_in_memory()?,
            path: None,
        };
        store.configure()?;
        Ok(store)
    }

    fn configure(&mut self) -> Result<()> {
        self.conn.busy_timeout(BUSY_TIMEOUT)?;
        self.conn.pragma_update(None, "foreign_keys", true)?;
        // WAL with synchronous=NORMAL: a commit appends to the WAL without
        // an fsync; the WAL is synced at each checkpoint. Every committed
        // transaction survives a crash of the process (kill -9, a panic, the
        // OOM killer): its pages are in the OS's cache. Only an OS crash or
        // a power cut can lose the last transactions before the next
        // checkpoint, and it never corrupts the file; so before a mailbox
        // is told that mail may go, `sync` makes the log durable, once per
        // batch of mail. FULL would fsync at every commit: 1-10 ms on
        // ordinary disks, two commits per mail, capping the judge near a
        // hundred mails a second where the target is thousands
        // (benches/mail.rs).
        self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        // A deadline's tick for 1,000 games writes ~36 MB of pages in one
        // transaction: with SQLite's default 2 MB cache it spilled them to
        // the log mid-way (and wrote many twice), and the statement
        // journals it keeps for rollback spilled to a file in /var/tmp.
        // The cache grows only as pages are used, up to 64 MiB.
        self.conn.pragma_update(None, "cache_size", -65536)?;
        self.conn.pragma_update(None, "temp_store", "MEMORY")?;
        keep_plans(&self.conn)?;
        apply_schema(&mut self.conn, SCHEMA, MIGRATIONS)
    }

    /// The file, or None in memory.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The write-ahead log SQLite keeps beside the file (`<file>-wal`);
    /// None in memory.
    pub fn wal_path(&self) -> Option<PathBuf> {
        let mut wal = self.path.clone()?.into_os_string();
        wal.push("-wal");
        Some(wal.into())
    }

    /// Makes every committed transaction durable, power cuts included: one
    /// fsync of the write-ahead log, where commits go (see `configure`;
    /// the database file itself is synced by every checkpoint). Called
    /// before a mailbox is told a mail may go, once per batch of mail.
    pub fn sync(&self) -> Result<()> {
        let Some(wal) = self.wal_path() else {
            return Ok(());
        };
        match std::fs::File::open(&wal) {
            Ok(file) => Ok(file.sync_data()?),
            // No log: nothing committed since the last checkpoint emptied it.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    /// SQLite's `data_version`: it changes whenever another connection
    /// (another process) commits to the file, and not for this one's own
    /// commits. One cheap pragma: `judge run` polls it to notice mail that
    /// `judge handle` stored and the replies it queued.
    pub fn data_version(&self) -> Result<i64> {
        Ok(self
            .conn
            .pragma_query_value(None, "data_version", |r| r.get(0))?)
    }

    /// The connection, for reads and single statements.
    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    /// Begins a write transaction. It takes the write lock at once
    /// (`BEGIN IMMEDIATE`), so two processes never deadlock upgrading a
    /// read lock; it rolls back when dropped without `commit()`.
    pub fn transaction(&mut self) -> Result<Transaction<'_>> {
        Ok(self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?)
    }

    /// The schema version recorded in the file.
    pub fn schema_version(&self) -> Result<i64> {
        schema_version(&self.conn)
    }
}

/// Creates the file, readable by its owner only, if it does not exist: it
/// holds mail and password hashes. SQLite gives the -wal and -shm files the
/// same permissions.
fn create_private(path: &Path) -> Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// Opens the savepoint `name` inside the caller's transaction: what is
/// written after it can be undone alone ([`undo_savepoint`]) or kept
/// ([`release_savepoint`]); the clock contains one game's work so.
pub fn savepoint(conn: &Connection, name: &str) -> Result<()> {
    Ok(conn.execute_batch(&format!("SAVEPOINT {name}"))?)
}

/// Keeps what was written since the savepoint `name`.
pub fn release_savepoint(conn: &Connection, name: &str) -> Result<()> {
    Ok(conn.execute_batch(&format!("RELEASE {name}"))?)
}

/// Undoes what was written since the savepoint `name`, and closes it.
pub fn undo_savepoint(conn: &Connection, name: &str) -> Result<()> {
    Ok(conn.execute_batch(&format!("ROLLBACK TO {name}; RELEASE {name}"))?)
}

/// `PRAGMA user_version`.
pub fn schema_version(conn: &Connection) -> Result<i64> {
    Ok(conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
}

/// Brings the database to version `1 + migrations.len()`: a fresh file gets
/// `schema`; an older one runs the migrations it lacks, then `schema`
/// (idempotent, so it only adds what is missing); all in one transaction,
/// foreign keys off meanwhile (see [`MIGRATIONS`]). A file already at that
/// version is only read: no transaction, no lock.
pub(crate) fn apply_schema(conn: &mut Connection, schema: &str, migrations: &[&str]) -> Result<()> {
    let supported = 1 + migrations.len() as i64;
    let found = schema_version(conn)?;
    if found > supported {
        return Err(StoreError::NewerSchema { found, supported });
    }
    if found == supported {
        let app_id: i64 = conn.pragma_query_value(None, "application_id", |r| r.get(0))?;
        if app_id != APPLICATION_ID {
            return Err(StoreError::NotAJudgeDatabase(format!(
                "its application id is {app_id:#x}, not {APPLICATION_ID:#x}"
            )));
        }
        return Ok(());
    }
    // Foreign keys can only be switched outside a transaction.
    let enforced: bool = conn.pragma_query_value(None, "foreign_keys", |r| r.get(0))?;
    conn.pragma_update(None, "foreign_keys", false)?;
    let applied = migrate(conn, schema, migrations);
    conn.pragma_update(None, "foreign_keys", enforced)?;
    applied
}

/// The write half of [`apply_schema`], in one transaction.
fn migrate(conn: &mut Connection, schema: &str, migrations: &[&str]) -> Result<()> {
    let supported = 1 + migrations.len() as i64;
    // Another process may have got here first: read the version again
    // under the write lock.
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let found = schema_version(&tx)?;
    if found > supported {
        return Err(StoreError::NewerSchema { found, supported });
    }
    let app_id: i64 = tx.pragma_query_value(None, "application_id", |r| r.get(0))?;
    if found == 0 {
        let tables: i64 = tx.query_row(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%'",
            [],
            |r| r.get(0),
        )?;
        if tables > 0 {
            return Err(StoreError::NotAJudgeDatabase(format!(
                "it has {tables} tables but no schema version"
            )));
        }
    } else {
        if app_id != APPLICATION_ID {
            return Err(StoreError::NotAJudgeDatabase(format!(
                "its application id is {app_id:#x}, not {APPLICATION_ID:#x}"
            )));
        }
        let from = usize::try_from(found - 1).unwrap_or(0);
        if from < migrations.len() {
            for migration in &migrations[from..] {
                tx.execute_batch(migration)?;
            }
        }
    }
    tx.execute_batch(schema)?;
    let broken: i64 = tx.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
        r.get(0)
    })?;
    if broken > 0 {
        return Err(StoreError::Setup(format!(
            "migration from version {found} left {broken} broken foreign keys"
        )));
    }
    tx.pragma_update(None, "application_id", APPLICATION_ID)?;
    tx.pragma_update(None, "user_version", supported)?;
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_is_planned_once_on_either_kind_of_connection() {
        let dir = std::env::temp_dir().join(format!("judge-plans-{}", std::process::id()));
        let path = dir.join("judge.db");
        let writer = Store::open(&path).unwrap();
        // The shape of orders_of_power: equal to a bound value on an
        // index's first column, ordered by its second.
        writer
            .conn()
            .execute_batch(
                "INSERT INTO games (id, name, created_at) VALUES (1, 'a', 0), (2, 'b', 0); \
                 INSERT INTO seat_history (game_id, power, address, from_phase) \
                 VALUES (1, 'FRANCE', 'f@x', 'S1901M'), (2, 'ITALY', 'i@x', 'S1901M');",
            )
            .unwrap();
        let reader = Store::open_read_only(&path).unwrap();
        for store in [&writer, &reader] {
            for game in 1..=3_i64 {
                let mut stmt = store
                    .conn()
                    .prepare_cached(
                        "SELECT address FROM seat_history WHERE game_id = ?1 ORDER BY power",
                    )
                    .unwrap();
                let rows = stmt.query_map([game], |r| r.get::<_, String>(0)).unwrap();
                assert_eq!(rows.count(), usize::from(game < 3));
                let replanned = stmt.get_status(rusqlite::StatementStatus::RePrepare);
                assert_eq!(replanned, 0, "planned again for game {game}");
            }
        }
        drop((writer, reader));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn migrations_run_forward_once() {
        let mut conn = Connection::open_in_memory().unwrap();
        apply_schema(&mut conn, SCHEMA, &[]).unwrap();
        assert_eq!(schema_version(&conn).unwrap(), 1);
        conn.execute("INSERT INTO games (name, created_at) VALUES ('old', 1)", [])
            .unwrap();
        // A later build adds a column in version 2 and a table in version 3.
        let v2 = "ALTER TABLE games ADD COLUMN motto TEXT NOT NULL DEFAULT 'none';";
        let v3 = "CREATE TABLE fans (id INTEGER PRIMARY KEY);";
        let schema = format!("{SCHEMA}\nCREATE TABLE IF NOT EXISTS fans (id INTEGER PRIMARY KEY);");
        apply_schema(&mut conn, &schema, &[v2, v3]).unwrap();
        assert_eq!(schema_version(&conn).unwrap(), 3);
        let motto: String = conn
            .query_row("SELECT motto FROM games WHERE name = 'old'", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(motto, "none");
        // Opening again at version 3 runs nothing twice.
        apply_schema(&mut conn, &schema, &[v2, v3]).unwrap();
        assert_eq!(schema_version(&conn).unwrap(), 3);
        // And the version-1 build refuses it.
        match apply_schema(&mut conn, SCHEMA, &[]) {
            Err(StoreError::NewerSchema {
                found: 3,
                supported: 1,
            }) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn failed_migration_changes_nothing() {
        let mut conn = Connection::open_in_memory().unwrap();
        apply_schema(&mut conn, SCHEMA, &[]).unwrap();
        let bad = "ALTER TABLE games ADD COLUMN x TEXT; SELECT * FROM no_such_table;";
        assert!(apply_schema(&mut conn, SCHEMA, &[bad]).is_err());
        assert_eq!(schema_version(&conn).unwrap(), 1);
        let cols: i64 = conn
            .query_row(
                "SELECT count(*) FROM pragma_table_info('games') WHERE name = 'x'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(cols, 0);
    }

    #[test]
    fn foreign_database_refused() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE something (x);").unwrap();
        assert!(matches!(
            apply_schema(&mut conn, SCHEMA, &[]),
            Err(StoreError::NotAJudgeDatabase(_))
        ));
    }
}
