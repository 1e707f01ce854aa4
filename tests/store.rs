//! The store against real SQLite files in a temporary directory: schema and
//! versions, mail deduplication, the outbound queue, orders, transactions,
//! hostile text, and passwords.

mod common;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use judge::store::rusqlite::{self, Connection};
use judge::store::{
    self, games::*, history::*, mailbox::*, orders::*, password::*, phases::*, press::*, seats::*,
    throttle::*, *,
};
use serde_json::json;

const T0: i64 = 1_700_000_000;

/// A directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(test: &str) -> TempDir {
        TempDir::new_in(&std::env::temp_dir(), test)
    }

    fn new_in(base: &Path, test: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir = base.join(format!(
            "judge-store-{}-{test}-{nanos}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn db(&self) -> PathBuf {
        self.0.join("judge.db")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One hash for the tests that only need some valid hash (hashing is slow
/// by design).
fn some_hash() -> &'static PasswordHash {
    static HASH: OnceLock<PasswordHash> = OnceLock::new();
    HASH.get_or_init(|| hash_password("not the point here").unwrap())
}

fn new_game<'a>(name: &'a str) -> NewGame<'a> {
    NewGame {
        name,
        variant: "standard",
        settings: "{}",
        master_address: None,
        master_password: None,
        seed: 7,
    }
}

fn position(phase: &str) -> serde_json::Value {
    json!({ "phase": phase, "units": { "FRANCE": ["A PAR", "A MAR", "F BRE"] } })
}

/// A game with its first phase S1901M, active.
fn game_with_phase(conn: &Connection, name: &str) -> i64 {
    let id = create_game(conn, &new_game(name), T0).unwrap();
    insert_phase(
        conn,
        id,
        "S1901M",
        &position("S1901M"),
        Some(T0 + 3600),
        None,
        T0,
    )
    .unwrap();
    set_game_state(conn, id, GameState::Active, T0).unwrap();
    id
}

fn table_names(conn: &Connection) -> Vec<String> {
    let mut stmt = conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
}

// What the tests read that the app itself never reads back -----------------

/// The ids a query selects, in its order.
fn selected_ids(conn: &Connection, sql: &str, params: impl rusqlite::Params) -> Vec<i64> {
    let mut stmt = conn.prepare(sql).unwrap();
    stmt.query_map(params, |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
}

/// Every stored mail still to handle, oldest first (the app takes them one
/// at a time, with `oldest_unhandled`).
fn unhandled_inbound(conn: &Connection) -> Vec<Inbound> {
    let ids = selected_ids(
        conn,
        "SELECT id FROM inbound WHERE status = 'new' ORDER BY id",
        [],
    );
    ids.iter()
        .map(|&id| inbound_by_id(conn, id).unwrap().unwrap())
        .collect()
}

/// The stored mails under this Message-ID, oldest first.
fn inbound_with_message_id(conn: &Connection, message_id: &str) -> Vec<Inbound> {
    let ids = selected_ids(
        conn,
        "SELECT id FROM inbound WHERE message_id = ?1 ORDER BY id",
        [normalize_message_id(message_id)],
    );
    ids.iter()
        .map(|&id| inbound_by_id(conn, id).unwrap().unwrap())
        .collect()
}

/// Where a queued mail stands.
struct OutboundState {
    attempts: i64,
    last_error: Option<String>,
    next_attempt_at: i64,
    sent_at: Option<i64>,
    abandoned_at: Option<i64>,
}

fn outbound_state(conn: &Connection, id: i64) -> OutboundState {
    conn.query_row(
        "SELECT attempts, last_error, next_attempt_at, sent_at, abandoned_at \
         FROM outbound WHERE id = ?1",
        [id],
        |r| {
            Ok(OutboundState {
                attempts: r.get(0)?,
                last_error: r.get(1)?,
                next_attempt_at: r.get(2)?,
                sent_at: r.get(3)?,
                abandoned_at: r.get(4)?,
            })
        },
    )
    .unwrap()
}

/// A press message as stored.
struct StoredPress {
    from: String,
    to: Vec<String>,
    grey: bool,
    broadcast: bool,
    subject: Option<String>,
    body: String,
}

/// The game's press, oldest first.
fn press_of_game(conn: &Connection, game: i64) -> Vec<StoredPress> {
    let mut stmt = conn
        .prepare(
            "SELECT from_power, to_powers, grey, broadcast, subject, body FROM press \
             WHERE game_id = ?1 ORDER BY sent_at, id",
        )
        .unwrap();
    stmt.query_map([game], |r| {
        Ok(StoredPress {
            from: r.get(0)?,
            to: serde_json::from_str(&r.get::<_, String>(1)?).unwrap(),
            grey: r.get(2)?,
            broadcast: r.get(3)?,
            subject: r.get(4)?,
            body: r.get(5)?,
        })
    })
    .unwrap()
    .collect::<rusqlite::Result<_>>()
    .unwrap()
}

const TABLES: [&str; 11] = [
    "absences",
    "archive",
    "games",
    "inbound",
    "observers",
    "orders",
    "outbound",
    "phases",
    "press",
    "seat_history",
    "seats",
];

// Schema and versions -----------------------------------------------------

#[test]
fn schema_applies_twice_and_records_version() {
    let dir = TempDir::new("schema");
    let path = dir.0.join("nested").join("deeper").join("judge.db");
    {
        let store = Store::open(&path).unwrap();
        assert_eq!(store.path(), Some(path.as_path()));
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        assert_eq!(SCHEMA_VERSION, 1 + MIGRATIONS.len() as i64);
        let conn = store.conn();
        create_game(conn, &new_game("keep"), T0).unwrap();
        let mode: String = conn
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        let fk: i64 = conn
            .pragma_query_value(None, "foreign_keys", |r| r.get(0))
            .unwrap();
        assert_eq!(fk, 1);
        let busy: i64 = conn
            .pragma_query_value(None, "busy_timeout", |r| r.get(0))
            .unwrap();
        assert_eq!(busy, 60_000, "parallel deliveries wait, not fail");
        let app: i64 = conn
            .pragma_query_value(None, "application_id", |r| r.get(0))
            .unwrap();
        assert_eq!(app, APPLICATION_ID);
        for t in TABLES {
            assert!(table_names(conn).iter().any(|n| n == t), "{t}");
        }
        // The schema text itself is idempotent.
        conn.execute_batch(SCHEMA).unwrap();
        conn.execute_batch(SCHEMA).unwrap();
    }
    // Opening again applies it again: nothing lost, same version.
    for _ in 0..2 {
        let store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        let games = list_games(store.conn()).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].name, "keep");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "the database is private: {mode:o}");
    }
}

/// Issue 10: opening the store took the write lock even for `judge
/// export`, so it failed ("database is locked") beside busy deliveries. A
/// file at the current version is only read.
#[test]
fn opening_a_current_store_takes_no_write_lock() {
    let dir = TempDir::new("no-lock");
    drop(Store::open(dir.db()).unwrap());
    let mut holder = Store::open(dir.db()).unwrap();
    let tx = holder.transaction().unwrap();
    create_game(&tx, &new_game("held"), T0).unwrap();
    let started = std::time::Instant::now();
    let store = Store::open(dir.db()).unwrap();
    let read_only = Store::open_read_only(dir.db()).unwrap();
    assert!(
        started.elapsed() < std::time::Duration::from_secs(2),
        "opening waited {:?} for the writer",
        started.elapsed()
    );
    assert!(list_games(store.conn()).unwrap().is_empty());
    assert!(list_games(read_only.conn()).unwrap().is_empty());
    tx.commit().unwrap();
    assert_eq!(list_games(read_only.conn()).unwrap().len(), 1);
}

#[test]
fn a_read_only_store_needs_a_judge_file_at_this_version() {
    let dir = TempDir::new("read-only");
    assert!(
        Store::open_read_only(dir.db()).is_err(),
        "no file: not made"
    );
    assert!(!dir.db().exists());
    drop(Store::open(dir.db()).unwrap());
    {
        let conn = Connection::open(dir.db()).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION - 1)
            .unwrap();
    }
    let old = Store::open_read_only(dir.db()).unwrap_err().to_string();
    assert!(old.contains("older"), "{old}");
}

/// Version 3 -> 4 rebuilds the inbound table (its Message-ID no longer
/// unique, status 'failed'): with foreign keys off meanwhile, so the orders
/// and press that point at a stored mail keep pointing at it.
#[test]
fn migration_to_version_4_keeps_what_points_at_stored_mail() {
    let dir = TempDir::new("v3");
    let (mail, order) = {
        let mut store = Store::open(dir.db()).unwrap();
        let tx = store.transaction().unwrap();
        let game = game_with_phase(&tx, "old");
        let mail = insert_inbound(&tx, "<m@x>", b"\r\n\r\nA PAR H", Some("p@x"), T0)
            .unwrap()
            .unwrap();
        set_order(
            &tx,
            &NewOrder {
                game_id: game,
                phase: "S1901M",
                power: "FRANCE",
                unit: "PAR",
                written: "A Par H",
                understood: "A PAR H",
                inbound_id: Some(mail),
            },
            T0,
        )
        .unwrap();
        tx.commit().unwrap();
        (mail, game)
    };
    // The file as version 3 left it: inbound with a unique Message-ID and
    // no 'failed', games without the failure columns.
    {
        let conn = Connection::open(dir.db()).unwrap();
        conn.execute_batch(
            "PRAGMA foreign_keys = OFF;
             BEGIN;
             CREATE TABLE inbound_v3 (
                 id          INTEGER PRIMARY KEY,
                 message_id  TEXT    NOT NULL UNIQUE CHECK (message_id <> ''),
                 received_at INTEGER NOT NULL,
                 raw         BLOB    NOT NULL,
                 sender      TEXT,
                 status      TEXT    NOT NULL DEFAULT 'new'
                             CHECK (status IN ('new', 'handled', 'dropped')),
                 note        TEXT,
                 handled_at  INTEGER);
             INSERT INTO inbound_v3 SELECT id, message_id, received_at, raw, sender, status,
                 note, handled_at FROM inbound;
             DROP TABLE inbound;
             ALTER TABLE inbound_v3 RENAME TO inbound;
             ALTER TABLE games DROP COLUMN failed_at;
             ALTER TABLE games DROP COLUMN failure;
             PRAGMA user_version = 3;
             COMMIT;",
        )
        .unwrap();
    }
    let store = Store::open(dir.db()).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    let conn = store.conn();
    let pointing: Option<i64> = conn
        .query_row(
            "SELECT inbound_id FROM orders WHERE game_id = ?1",
            [order],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(pointing, Some(mail), "the order still knows its mail");
    let stored = inbound_by_id(conn, mail).unwrap().unwrap();
    assert_eq!(stored.body_digest, None, "not known for older mail");
    // It is still recognised when delivered again (its digest computed),
    // and can now fail.
    assert_eq!(
        insert_inbound(conn, "<m@x>", b"\r\n\r\nA PAR H", Some("p@x"), T0 + 1).unwrap(),
        None
    );
    assert!(fail_inbound(conn, mail, "why", T0).is_ok());
    assert!(mark_game_failed(conn, order, "why", T0).unwrap());
    let fk: i64 = conn
        .pragma_query_value(None, "foreign_keys", |r| r.get(0))
        .unwrap();
    assert_eq!(fk, 1, "foreign keys on again after the migration");
}

#[test]
fn migration_to_version_6_adds_the_players_zones() {
    let dir = TempDir::new("v6");
    drop(Store::open(dir.db()).unwrap());
    {
        // The file as version 5 left it: no zones.
        let conn = Connection::open(dir.db()).unwrap();
        conn.execute_batch("DROP TABLE player_zones; PRAGMA user_version = 5;")
            .unwrap();
    }
    let store = Store::open(dir.db()).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    let conn = store.conn();
    store::zones::set_zone(conn, "a@b.example", Some("Europe/Amsterdam")).unwrap();
    assert_eq!(
        store::zones::zone_of(conn, "A@B.example")
            .unwrap()
            .as_deref(),
        Some("Europe/Amsterdam")
    );
}

#[test]
fn migration_to_version_5_adds_the_throttle_tables() {
    let dir = TempDir::new("v5");
    drop(Store::open(dir.db()).unwrap());
    {
        // The file as version 4 left it: no sign-on or stranger counts.
        let conn = Connection::open(dir.db()).unwrap();
        conn.execute_batch(
            "DROP TABLE sign_on_failures; DROP TABLE sign_on_locks; \
             DROP TABLE stranger_replies; PRAGMA user_version = 4;",
        )
        .unwrap();
    }
    let store = Store::open(dir.db()).unwrap();
    // Version 5 and the migrations after it.
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    let conn = store.conn();
    let failure =
        judge::store::throttle::record_sign_on_failure(conn, "seat:1", "x@y.example", 100).unwrap();
    assert!(!failure.locked);
    assert!(judge::store::throttle::take_stranger_reply(conn, "a@b.example", 100).unwrap());
    for table in ["sign_on_failures", "sign_on_locks", "stranger_replies"] {
        let n: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_schema WHERE name = ?1",
                [table],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(n, 1, "{table}");
    }
}

#[test]
fn migration_to_version_9_counts_sign_on_failures_per_sender() {
    let dir = TempDir::new("v9");
    drop(Store::open(dir.db()).unwrap());
    {
        // The file as version 8 left it: failures and locks per target.
        let conn = Connection::open(dir.db()).unwrap();
        conn.execute_batch(
            "DROP TABLE sign_on_failures; DROP TABLE sign_on_locks; \
             DROP TABLE sign_on_notices; \
             CREATE TABLE sign_on_failures (target TEXT NOT NULL, failed_at INTEGER NOT NULL); \
             CREATE INDEX sign_on_failures_by_target ON sign_on_failures (target, failed_at); \
             CREATE TABLE sign_on_locks (target TEXT PRIMARY KEY, locked_until INTEGER NOT NULL); \
             INSERT INTO sign_on_locks VALUES ('seat:1', 99999); \
             PRAGMA user_version = 8;",
        )
        .unwrap();
    }
    let store = Store::open(dir.db()).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    let conn = store.conn();
    // The old lock on the whole seat is gone; five failures from one
    // sender lock that sender only, and the owner is told once.
    assert!(
        judge::store::throttle::sign_on_lock(conn, "seat:1", "a@x.example", 100)
            .unwrap()
            .is_none()
    );
    for k in 0..5 {
        let failure =
            judge::store::throttle::record_sign_on_failure(conn, "seat:1", "a@x.example", 100 + k)
                .unwrap();
        assert_eq!(failure.locked, k == 4);
        assert_eq!(failure.tell_owner, k == 4);
    }
    assert!(
        judge::store::throttle::sign_on_lock(conn, "seat:1", "A@X.example", 110)
            .unwrap()
            .is_some()
    );
    assert!(
        judge::store::throttle::sign_on_lock(conn, "seat:1", "b@x.example", 110)
            .unwrap()
            .is_none()
    );
    for k in 0..5 {
        let failure =
            judge::store::throttle::record_sign_on_failure(conn, "seat:1", "b@x.example", 200 + k)
                .unwrap();
        assert_eq!(failure.locked, k == 4);
        assert!(!failure.tell_owner, "told once a day");
    }
}

/// Version 10 keeps the facts of a game's row in the web archive's list,
/// not its HTML: the rows of version 9 go, so the next web pass writes
/// every game again (and records its facts).
#[test]
fn migration_to_version_10_republishes_the_web_archive() {
    let dir = TempDir::new("v10");
    let id = {
        let store = Store::open(dir.db()).unwrap();
        game_with_phase(store.conn(), "shown")
    };
    {
        // The file as version 9 left it: the game published, its row HTML.
        let conn = Connection::open(dir.db()).unwrap();
        conn.execute_batch(&format!(
            "DROP TABLE web_published; \
             CREATE TABLE web_published ( \
                 game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE, \
                 phases INTEGER NOT NULL, archive_id INTEGER NOT NULL, \
                 state TEXT NOT NULL, row_html TEXT NOT NULL, \
                 activity INTEGER NOT NULL, \
                 over INTEGER NOT NULL CHECK (over IN (0, 1)), \
                 updated_at INTEGER NOT NULL); \
             INSERT INTO web_published VALUES \
                 ({id}, 1, 0, 'active', '<tr><td>shown</td></tr>', {T0}, 0, {T0}); \
             PRAGMA user_version = 9;"
        ))
        .unwrap();
    }
    let store = Store::open(dir.db()).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    let conn = store.conn();
    let states = store::web::web_states(conn).unwrap();
    assert_eq!(states.len(), 1);
    assert!(states[0].published.is_none(), "{states:?}");
    assert!(states[0].is_stale());
    assert!(store::web::index_rows(conn).unwrap().is_empty());
}

#[test]
fn newer_version_is_refused_and_left_alone() {
    let dir = TempDir::new("newer");
    drop(Store::open(dir.db()).unwrap());
    let newer = SCHEMA_VERSION + 1;
    {
        let conn = Connection::open(dir.db()).unwrap();
        conn.pragma_update(None, "user_version", newer).unwrap();
    }
    let err = Store::open(dir.db()).unwrap_err();
    match &err {
        StoreError::NewerSchema { found, supported } => {
            assert_eq!((*found, *supported), (newer, SCHEMA_VERSION));
        }
        other => panic!("{other:?}"),
    }
    let message = err.to_string();
    assert!(message.contains(&newer.to_string()), "{message}");
    assert!(message.contains("newer"), "{message}");
    let conn = Connection::open(dir.db()).unwrap();
    let v: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(v, newer, "the refused file is not touched");
}

#[test]
fn foreign_sqlite_file_is_refused() {
    let dir = TempDir::new("foreign");
    {
        let conn = Connection::open(dir.db()).unwrap();
        conn.execute_batch("CREATE TABLE recipes (name TEXT);")
            .unwrap();
    }
    assert!(matches!(
        Store::open(dir.db()),
        Err(StoreError::NotAJudgeDatabase(_))
    ));
    {
        let conn = Connection::open(dir.db()).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
    }
    assert!(matches!(
        Store::open(dir.db()),
        Err(StoreError::NotAJudgeDatabase(_))
    ));
}

// Mail in -----------------------------------------------------------------

#[test]
fn the_same_mail_is_stored_once() {
    let dir = TempDir::new("dedup");
    let mut db = Store::open(dir.db()).unwrap();
    let raw = b"From: a@example.org\r\nMessage-ID: <x1@example.org>\r\n\r\nSIGNON Fgame pw\r\n";
    let tx = db.transaction().unwrap();
    let first = insert_inbound(&tx, "<x1@example.org>", raw, Some("a@example.org"), T0).unwrap();
    let id = first.expect("first delivery stored");
    tx.commit().unwrap();
    // The same mail delivered again (with or without brackets, later, with
    // a header a mail system added on the way): ignored.
    assert_eq!(
        insert_inbound(
            db.conn(),
            "<x1@example.org>",
            raw,
            Some("a@example.org"),
            T0 + 5
        )
        .unwrap(),
        None
    );
    let mut redelivered = b"Delivered-To: judge@localhost\r\n".to_vec();
    redelivered.extend_from_slice(raw);
    assert_eq!(
        insert_inbound(
            db.conn(),
            " x1@example.org ",
            &redelivered,
            Some("a@example.org"),
            T0 + 6
        )
        .unwrap(),
        None
    );
    // Message-IDs are case-sensitive: a different one is a different mail.
    assert!(insert_inbound(
        db.conn(),
        "X1@example.org",
        raw,
        Some("a@example.org"),
        T0 + 7
    )
    .unwrap()
    .is_some());
    let new = unhandled_inbound(db.conn());
    assert_eq!(new.len(), 2);
    assert_eq!(new[0].id, id);
    assert_eq!(new[0].message_id, "x1@example.org");
    assert_eq!(new[0].raw, raw.to_vec());
    assert_eq!(new[0].sender.as_deref(), Some("a@example.org"));
    assert_eq!(new[0].status, InboundStatus::New);
    assert_eq!(
        new[0].body_digest.as_deref(),
        Some(body_digest(raw).as_str())
    );

    mark_inbound(db.conn(), id, InboundStatus::Handled, None, T0 + 10).unwrap();
    mark_inbound(
        db.conn(),
        new[1].id,
        InboundStatus::Dropped,
        Some("auto-reply"),
        T0 + 11,
    )
    .unwrap();
    assert!(unhandled_inbound(db.conn()).is_empty());
    let handled = inbound_with_message_id(db.conn(), "<x1@example.org>");
    assert_eq!(handled.len(), 1);
    assert_eq!(handled[0].status, InboundStatus::Handled);
    assert_eq!(handled[0].handled_at, Some(T0 + 10));
    let dropped = inbound_by_id(db.conn(), new[1].id).unwrap().unwrap();
    assert_eq!(dropped.note.as_deref(), Some("auto-reply"));
    // Still a duplicate after handling.
    assert_eq!(
        insert_inbound(
            db.conn(),
            "x1@example.org",
            raw,
            Some("a@example.org"),
            T0 + 99
        )
        .unwrap(),
        None
    );
    assert!(matches!(
        mark_inbound(db.conn(), 9999, InboundStatus::Handled, None, T0),
        Err(StoreError::NotFound(_))
    ));
}

/// Issue 10: a Message-ID alone made a mail a duplicate, so a stranger who
/// sent first under a player's next Message-ID made the player's orders
/// vanish. The same Message-ID from another sender, or with another body,
/// is another mail, with an id of its own.
#[test]
fn the_same_message_id_from_another_sender_or_with_another_body_is_another_mail() {
    let dir = TempDir::new("stranger-id");
    let mut db = Store::open(dir.db()).unwrap();
    let player = b"From: p@example.org\r\nMessage-ID: <n1@example.org>\r\n\r\nA PAR - BUR\r\n";
    let stranger = b"From: s@example.net\r\nMessage-ID: <n1@example.org>\r\n\r\nHELP\r\n";
    let tx = db.transaction().unwrap();
    let first = insert_inbound(&tx, "<n1@example.org>", stranger, Some("s@example.net"), T0)
        .unwrap()
        .expect("stored");
    // The same body from another sender, another body from the same one.
    let second = insert_inbound(
        &tx,
        "<n1@example.org>",
        player,
        Some("p@example.org"),
        T0 + 1,
    )
    .unwrap()
    .expect("another sender: another mail");
    let third = insert_inbound(
        &tx,
        "<n1@example.org>",
        stranger,
        Some("p@example.org"),
        T0 + 2,
    )
    .unwrap()
    .expect("another body: another mail");
    tx.commit().unwrap();
    assert!(first < second && second < third);
    // Each is recognised when delivered again.
    let tx = db.transaction().unwrap();
    for (raw, sender) in [
        (&stranger[..], "s@example.net"),
        (&player[..], "p@example.org"),
        (&stranger[..], "p@example.org"),
    ] {
        assert_eq!(
            insert_inbound(&tx, "n1@example.org", raw, Some(sender), T0 + 3).unwrap(),
            None
        );
    }
    tx.commit().unwrap();
    let stored = inbound_with_message_id(db.conn(), "n1@example.org");
    assert_eq!(
        stored.iter().map(|m| m.id).collect::<Vec<_>>(),
        [first, second, third]
    );
}

/// Mail is claimed by the transaction that handles it: once, oldest first.
#[test]
fn stored_mail_is_claimed_once_oldest_first() {
    let dir = TempDir::new("claim");
    let mut db = Store::open(dir.db()).unwrap();
    let tx = db.transaction().unwrap();
    let a = insert_inbound(&tx, "a@x", b"\r\n\r\na", None, T0)
        .unwrap()
        .unwrap();
    let b = insert_inbound(&tx, "b@x", b"\r\n\r\nb", None, T0)
        .unwrap()
        .unwrap();
    tx.commit().unwrap();
    assert_eq!(oldest_unhandled(db.conn(), i64::MAX).unwrap(), Some(a));
    assert_eq!(oldest_unhandled(db.conn(), a - 1).unwrap(), None);
    let tx = db.transaction().unwrap();
    assert!(claim_inbound(&tx, a, T0 + 1).unwrap());
    assert!(!claim_inbound(&tx, a, T0 + 1).unwrap(), "claimed twice");
    tx.commit().unwrap();
    assert_eq!(oldest_unhandled(db.conn(), i64::MAX).unwrap(), Some(b));
    // A failed mail is not handled again, and not failed twice.
    assert!(fail_inbound(db.conn(), b, "panic: boom", T0 + 2).unwrap());
    assert!(!fail_inbound(db.conn(), b, "panic: boom", T0 + 3).unwrap());
    assert!(!claim_inbound(db.conn(), b, T0 + 3).unwrap());
    let failed = inbound_by_id(db.conn(), b).unwrap().unwrap();
    assert_eq!(failed.status, InboundStatus::Failed);
    assert_eq!(failed.note.as_deref(), Some("panic: boom"));
    assert_eq!(oldest_unhandled(db.conn(), i64::MAX).unwrap(), None);
}

// Mail out ----------------------------------------------------------------

#[test]
fn retry_delay_doubles_from_a_minute_to_an_hour() {
    let delays: Vec<i64> = (1..=9).map(retry_delay).collect();
    assert_eq!(delays, [60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]);
    assert_eq!(retry_delay(0), 60);
    assert_eq!(retry_delay(64), 3600);
    assert_eq!(retry_delay(i64::MAX), 3600);
}

#[test]
fn outbound_queue_due_sent_failed_with_backoff() {
    let dir = TempDir::new("outbound");
    let mut db = Store::open(dir.db()).unwrap();
    let game = create_game(db.conn(), &new_game("queue"), T0).unwrap();
    let tx = db.transaction().unwrap();
    let a = queue_mail(
        &tx,
        &NewMail {
            message_id: "a@judge",
            game_id: Some(game),
            recipients: &["one@example.org", "two@example.org"],
            subject: "DPJ:queue - S1901M Results",
            raw: b"Subject: x\r\n\r\nbody\r\n",
        },
        T0,
    )
    .unwrap();
    let b = queue_mail(
        &tx,
        &NewMail {
            message_id: "b@judge",
            game_id: None,
            recipients: &["three@example.org"],
            subject: "reply",
            raw: b"raw b",
        },
        T0 + 1,
    )
    .unwrap();
    tx.commit().unwrap();
    assert!(matches!(
        queue_mail(
            db.conn(),
            &NewMail {
                message_id: "a@judge",
                game_id: None,
                recipients: &[],
                subject: "",
                raw: b"",
            },
            T0
        ),
        Err(StoreError::Duplicate(_))
    ));

    assert!(due_mail(db.conn(), T0 - 1, None, 10).unwrap().is_empty());
    let due = due_mail(db.conn(), T0 + 1, None, 10).unwrap();
    assert_eq!(due.iter().map(|m| m.id).collect::<Vec<_>>(), [a, b]);
    assert_eq!(due[0].recipients, ["one@example.org", "two@example.org"]);
    assert_eq!(due[0].raw, b"Subject: x\r\n\r\nbody\r\n".to_vec());
    assert_eq!(due[0].game_id, Some(game));
    assert_eq!(due_mail(db.conn(), T0 + 1, None, 1).unwrap().len(), 1);
    assert_eq!(due_mail(db.conn(), i64::MAX, None, 10).unwrap().len(), 2);
    // Read on from a place: the first read, the rest, then nothing.
    let first = due_mail(db.conn(), T0 + 1, None, 1).unwrap();
    let rest = due_mail(db.conn(), T0 + 1, Some(first[0].place()), 10).unwrap();
    assert_eq!(rest.iter().map(|m| m.id).collect::<Vec<_>>(), [b]);
    assert!(due_mail(db.conn(), T0 + 1, Some(rest[0].place()), 10)
        .unwrap()
        .is_empty());

    // a goes out.
    mark_sent(db.conn(), a, T0 + 2).unwrap();
    assert!(matches!(
        mark_sent(db.conn(), a, T0 + 3),
        Err(StoreError::NotFound(_))
    ));
    let sent = outbound_state(db.conn(), a);
    assert_eq!((sent.sent_at, sent.attempts), (Some(T0 + 2), 1));

    // b fails, again and again: 1 min, 2 min, 4 min ... at most an hour.
    let mut now = T0 + 2;
    let mut expected_delays = vec![60, 120, 240, 480, 960, 1920, 3600, 3600];
    expected_delays.reverse();
    for attempt in 1..=8 {
        let due = due_mail(db.conn(), now, None, 10).unwrap();
        assert_eq!(
            due.iter().map(|m| m.id).collect::<Vec<_>>(),
            [b],
            "attempt {attempt}"
        );
        let next = mark_failed(db.conn(), b, &format!("451 try later ({attempt})"), now).unwrap();
        assert_eq!(next - now, expected_delays.pop().unwrap());
        assert!(due_mail(db.conn(), next - 1, None, 10).unwrap().is_empty());
        let row = outbound_state(db.conn(), b);
        assert_eq!(row.attempts, attempt);
        assert_eq!(row.next_attempt_at, next);
        assert_eq!(row.last_error, Some(format!("451 try later ({attempt})")));
        now = next;
    }
    mark_sent(db.conn(), b, now).unwrap();
    assert!(due_mail(db.conn(), i64::MAX, None, 10).unwrap().is_empty());
    assert!(matches!(
        mark_failed(db.conn(), b, "late", now),
        Err(StoreError::NotFound(_))
    ));

    // A permanent failure is given up.
    let c = queue_mail(
        db.conn(),
        &NewMail {
            message_id: "c@judge",
            game_id: None,
            recipients: &["nobody@invalid"],
            subject: "s",
            raw: b"r",
        },
        now,
    )
    .unwrap();
    abandon_mail(db.conn(), c, "550 no such user", now + 1).unwrap();
    assert!(due_mail(db.conn(), i64::MAX, None, 10).unwrap().is_empty());
    let gone = outbound_state(db.conn(), c);
    assert_eq!(gone.abandoned_at, Some(now + 1));
    assert_eq!(gone.sent_at, None);
    assert_eq!(gone.attempts, 1, "the refused attempt counts");
}

// Games, seats, phases, orders ---------------------------------------------

#[test]
fn later_order_for_the_same_unit_replaces_the_earlier() {
    let dir = TempDir::new("orders");
    let db = Store::open(dir.db()).unwrap();
    let conn = db.conn();
    let game = game_with_phase(conn, "orders");
    let order = |unit: &'static str, written: &'static str, understood: &'static str| NewOrder {
        game_id: game,
        phase: "S1901M",
        power: "FRANCE",
        unit,
        written,
        understood,
        inbound_id: None,
    };
    set_order(conn, &order("PAR", "a par-bur", "A PAR - BUR"), T0 + 1).unwrap();
    set_order(conn, &order("MAR", "mar h", "A MAR H"), T0 + 2).unwrap();
    set_order(
        conn,
        &order("PAR", "Paris to Picardy", "A PAR - PIC"),
        T0 + 3,
    )
    .unwrap();
    let orders = orders_of_power(conn, game, "S1901M", "FRANCE").unwrap();
    let got: Vec<_> = orders
        .iter()
        .map(|o| {
            (
                o.unit.as_str(),
                o.written.as_str(),
                o.understood.as_str(),
                o.received_at,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("MAR", "mar h", "A MAR H", T0 + 2),
            ("PAR", "Paris to Picardy", "A PAR - PIC", T0 + 3)
        ]
    );
    // Another power's orders are its own.
    set_order(
        conn,
        &NewOrder {
            power: "GERMANY",
            ..order("MUN", "mun-bur", "A MUN - BUR")
        },
        T0 + 4,
    )
    .unwrap();
    assert_eq!(orders_of_phase(conn, game, "S1901M").unwrap().len(), 3);
    assert_eq!(clear_orders(conn, game, "S1901M", "FRANCE").unwrap(), 2);
    assert!(orders_of_power(conn, game, "S1901M", "FRANCE")
        .unwrap()
        .is_empty());
    assert_eq!(
        orders_of_power(conn, game, "S1901M", "GERMANY")
            .unwrap()
            .len(),
        1
    );
    // No orders for a phase that does not exist (foreign key), nor for a
    // lower-case power (CHECK).
    assert!(set_order(
        conn,
        &NewOrder {
            phase: "F1901M",
            ..order("PAR", "x", "x")
        },
        T0
    )
    .is_err());
    assert!(set_order(
        conn,
        &NewOrder {
            power: "france",
            ..order("PAR", "x", "x")
        },
        T0
    )
    .is_err());
}

#[test]
fn games_seats_phases_press_archive() {
    let dir = TempDir::new("games");
    let mut db = Store::open(dir.db()).unwrap();
    let hash = some_hash();
    let tx = db.transaction().unwrap();
    let settings = r#"{"press":"white","nmr":false,"deadline":{"movement":"24h"}}"#;
    let game = create_game(
        &tx,
        &NewGame {
            name: "Cafe",
            variant: "standard",
            settings,
            master_address: Some("gm@example.org"),
            master_password: Some(hash),
            seed: -42,
        },
        T0,
    )
    .unwrap();
    tx.commit().unwrap();
    let conn = db.conn();
    assert!(matches!(
        create_game(conn, &new_game("CAFE"), T0),
        Err(StoreError::Duplicate(_))
    ));
    let g = game_by_name(conn, "cafe").unwrap().unwrap();
    assert_eq!(
        (g.id, g.name.as_str(), g.state),
        (game, "Cafe", GameState::Forming)
    );
    assert_eq!(g.seed, -42);
    assert_eq!(g.master_password.as_ref(), Some(hash));
    let parsed: serde_json::Value = g.settings_as().unwrap();
    assert_eq!(parsed["press"], "white");
    assert!(game_by_name(conn, "nope").unwrap().is_none());
    assert!(set_game_settings(conn, game, "not json").is_err());
    set_game_settings(conn, game, r#"{"press":"grey"}"#).unwrap();

    // Seats: seven players join, get powers when the game starts.
    let powers = [
        "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
    ];
    let mut seats = Vec::new();
    for (i, _) in powers.iter().enumerate() {
        let address = format!("Player{i}@Example.org");
        seats.push(
            add_seat(
                conn,
                &NewSeat {
                    game_id: game,
                    power: None,
                    address: &address,
                    password: hash,
                    status: SeatStatus::Forming,
                    preferences: Some("FEG"),
                },
                T0 + i as i64,
            )
            .unwrap(),
        );
    }
    insert_phase(
        conn,
        game,
        "S1901M",
        &position("S1901M"),
        Some(T0 + 86400),
        Some(T0 + 90000),
        T0,
    )
    .unwrap();
    for (seat, power) in seats.iter().zip(powers) {
        assign_power(conn, *seat, power, "S1901M").unwrap();
    }
    assert!(matches!(
        assign_power(conn, seats[0], "ENGLAND", "S1901M"),
        Err(StoreError::Duplicate(_))
    ));
    set_game_state(conn, game, GameState::Active, T0).unwrap();
    let france = seat_by_power(conn, game, "FRANCE").unwrap().unwrap();
    assert_eq!(france.status, SeatStatus::Active);
    assert_eq!(france.address, "Player2@Example.org");
    assert_eq!(seats_of_game(conn, game).unwrap().len(), 7);

    set_seat_wait(conn, france.id, true).unwrap();
    set_seat_draw(conn, france.id, Some("S1901M")).unwrap();
    set_seat_status(conn, france.id, SeatStatus::Late).unwrap();
    let f = seat_by_id(conn, france.id).unwrap().unwrap();
    assert!(f.wait);
    assert_eq!(f.draw_vote.as_deref(), Some("S1901M"));
    assert_eq!(f.status, SeatStatus::Late);
    assert_eq!(clear_waits(conn, game).unwrap(), 1);
    set_seat_draw(conn, france.id, None).unwrap();
    assert!(matches!(
        set_seat_status(conn, 9999, SeatStatus::Active),
        Err(StoreError::NotFound(_))
    ));

    // Phases: the current one is the latest; deadlines; processing.
    let current = current_phase(conn, game).unwrap().unwrap();
    assert_eq!((current.phase.as_str(), current.seq), ("S1901M", 1));
    assert_eq!(
        current.position_as::<serde_json::Value>().unwrap(),
        position("S1901M")
    );
    assert!(matches!(
        insert_phase(conn, game, "S1901M", &position("S1901M"), None, None, T0),
        Err(StoreError::Duplicate(_))
    ));
    set_deadline(conn, game, "S1901M", Some(T0 + 100), None).unwrap();
    let results = json!({ "A PAR - BUR": "bounce" });
    mark_processed(conn, game, "S1901M", &results, T0 + 200).unwrap();
    assert!(matches!(
        mark_processed(conn, game, "S1901M", &results, T0 + 201),
        Err(StoreError::NotFound(_))
    ));
    assert!(set_deadline(conn, game, "S1901M", None, None).is_err());
    insert_phase(
        conn,
        game,
        "F1901M",
        &position("F1901M"),
        Some(T0 + 999),
        None,
        T0 + 200,
    )
    .unwrap();
    let current = current_phase(conn, game).unwrap().unwrap();
    assert_eq!((current.phase.as_str(), current.seq), ("F1901M", 2));
    let s = phase_by_name(conn, game, "S1901M").unwrap().unwrap();
    assert_eq!(s.processed_at, Some(T0 + 200));
    assert_eq!(s.results_as::<serde_json::Value>().unwrap(), Some(results));
    assert_eq!(phases_of_game(conn, game).unwrap().len(), 2);

    // A replacement player: the history shows both.
    let new_hash = hash_password("replacement").unwrap();
    replace_player(conn, france.id, "new@example.org", &new_hash, "F1901M").unwrap();
    let f = seat_by_id(conn, france.id).unwrap().unwrap();
    assert_eq!(f.address, "new@example.org");
    assert!(f.password.verify("replacement"));
    let history: Vec<_> = seat_history(conn, game)
        .unwrap()
        .into_iter()
        .filter(|t| t.power == "FRANCE")
        .collect();
    assert_eq!(
        history,
        [
            SeatTenure {
                power: "FRANCE".into(),
                address: "Player2@Example.org".into(),
                from_phase: "S1901M".into(),
                to_phase: Some("F1901M".into())
            },
            SeatTenure {
                power: "FRANCE".into(),
                address: "new@example.org".into(),
                from_phase: "F1901M".into(),
                to_phase: None
            }
        ]
    );

    // Absences and observers.
    add_absence(conn, france.id, T0 + 1000, T0 + 2000).unwrap();
    assert!(add_absence(conn, france.id, T0 + 2000, T0 + 1000).is_err());
    assert_eq!(absences_of_game(conn, game, T0).unwrap().len(), 1);
    assert!(absences_of_game(conn, game, T0 + 2000).unwrap().is_empty());
    assert!(add_observer(conn, game, "Watcher@example.org", hash, T0)
        .unwrap()
        .is_some());
    assert!(add_observer(conn, game, "watcher@EXAMPLE.org", hash, T0)
        .unwrap()
        .is_none());
    assert_eq!(observers_of_game(conn, game).unwrap().len(), 1);
    assert!(observer_by_address(conn, game, "WATCHER@example.org")
        .unwrap()
        .is_some());
    assert!(remove_observer(conn, game, "watcher@example.org").unwrap());

    // Press.
    insert_press(
        conn,
        &NewPress {
            game_id: game,
            phase: Some("F1901M"),
            from: "FRANCE",
            to: &["ENGLAND", "GERMANY"],
            grey: true,
            broadcast: false,
            subject: None,
            body: "Shall we?",
            inbound_id: None,
        },
        T0 + 300,
    )
    .unwrap();
    let press = press_of_game(conn, game);
    assert_eq!(press[0].to, ["ENGLAND", "GERMANY"]);
    assert!(press[0].grey && !press[0].broadcast);

    // Archive between dates: [from, to).
    for (i, kind) in HistoryKind::ALL.iter().enumerate() {
        append_history(
            conn,
            game,
            Some("S1901M"),
            *kind,
            "subject",
            "body",
            T0 + i as i64 * 10,
        )
        .unwrap();
    }
    assert_eq!(history_of_game(conn, game).unwrap().len(), 4);
    let some = history_between(conn, game, T0 + 10, T0 + 30).unwrap();
    assert_eq!(
        some.iter().map(|e| e.kind).collect::<Vec<_>>(),
        [HistoryKind::Broadcast, HistoryKind::Notice]
    );

    // The end.
    end_game(
        conn,
        game,
        GameState::Finished,
        r#"{"draw":["FRANCE","ENGLAND"]}"#,
        T0 + 999,
    )
    .unwrap();
    close_seat_history(conn, game, "F1901M").unwrap();
    let g = game_by_id(conn, game).unwrap().unwrap();
    assert_eq!((g.state, g.ended_at), (GameState::Finished, Some(T0 + 999)));
    assert_eq!(games_in_state(conn, GameState::Finished).unwrap().len(), 1);
    assert!(games_in_state(conn, GameState::Active).unwrap().is_empty());
    assert!(seat_history(conn, game)
        .unwrap()
        .iter()
        .all(|t| t.to_phase.is_some()));
}

// Transactions ------------------------------------------------------------

/// Does a bit of everything in `tx`.
fn write_everything(tx: &Connection, name: &str) {
    // The judge's own bookkeeping (the clock's last tick) counts too.
    judge::store::phases::meta_set(tx, &format!("note-{name}"), "0").unwrap();
    let game = game_with_phase(tx, name);
    let seat = add_seat(
        tx,
        &NewSeat {
            game_id: game,
            power: None,
            address: "a@example.org",
            password: some_hash(),
            status: SeatStatus::Forming,
            preferences: None,
        },
        T0,
    )
    .unwrap();
    assign_power(tx, seat, "FRANCE", "S1901M").unwrap();
    let team = judge::store::teams::Member {
        address: "team@example.org".to_string(),
        confirmed: true,
    };
    judge::store::teams::set_members(tx, &[seat], &[team], T0).unwrap();
    add_absence(tx, seat, T0, T0 + 1).unwrap();
    add_observer(tx, game, "o@example.org", some_hash(), T0).unwrap();
    store::seats::add_named_observer(tx, game, "list@example.org", T0).unwrap();
    let inbound = insert_inbound(tx, &format!("{name}@in"), b"raw", None, T0).unwrap();
    set_order(
        tx,
        &NewOrder {
            game_id: game,
            phase: "S1901M",
            power: "FRANCE",
            unit: "PAR",
            written: "A PAR H",
            understood: "A PAR H",
            inbound_id: inbound,
        },
        T0,
    )
    .unwrap();
    insert_press(
        tx,
        &NewPress {
            game_id: game,
            phase: None,
            from: "M",
            to: &[],
            grey: false,
            broadcast: true,
            subject: Some("hello"),
            body: "hello",
            inbound_id: inbound,
        },
        T0,
    )
    .unwrap();
    queue_mail(
        tx,
        &NewMail {
            message_id: &format!("{name}@out"),
            game_id: Some(game),
            recipients: &["a@example.org"],
            subject: "s",
            raw: b"r",
        },
        T0,
    )
    .unwrap();
    append_history(tx, game, None, HistoryKind::Notice, "s", "b", T0).unwrap();
    // Five failures lock a seat (and are cleared); one more is counted.
    for _ in 0..5 {
        record_sign_on_failure(tx, &format!("seat:{name}"), "g@example.org", T0).unwrap();
    }
    record_sign_on_failure(tx, &format!("master:{name}"), "g@example.org", T0).unwrap();
    take_stranger_reply(tx, "stranger@example.org", T0).unwrap();
    judge::store::throttle::record_mails_caused(tx, "g@example.org", 7, T0).unwrap();
    let token = format!("token-{name}");
    judge::store::throttle::request_confirmation(
        tx,
        &format!("{name}@new.example"),
        "g@example.org",
        Some(seat),
        &token,
        T0,
    )
    .unwrap();
    store::map_opt_outs::set_wants_maps(tx, game, "a@example.org", false).unwrap();
    store::zones::set_zone(tx, &format!("{name}@example.org"), Some("Asia/Tokyo")).unwrap();
    let ahead = [(3, "A Par - Bur".to_string())];
    store::preorders::replace_preorders(tx, game, "FRANCE", "F1901M", &ahead, T0).unwrap();
    let published = store::web::Published {
        phases: 0,
        archive_id: 0,
        state: GameState::Forming,
        deadline: None,
    };
    let row = store::web::IndexRow {
        name: name.to_string(),
        variant: "standard".to_string(),
        state: "forming".to_string(),
        phase: None,
        phase_words: None,
        year: None,
        deadline: None,
        board: None,
        centres: Vec::new(),
        result: None,
        activity: T0,
        over: false,
    };
    store::web::set_web_published(tx, game, &published, &row, T0).unwrap();
}

fn row_counts(conn: &Connection) -> Vec<(String, i64)> {
    table_names(conn)
        .into_iter()
        .map(|t| {
            let n = conn
                .query_row(&format!("SELECT count(*) FROM \"{t}\""), [], |r| r.get(0))
                .unwrap();
            (t, n)
        })
        .collect()
}

#[test]
fn a_rolled_back_transaction_leaves_nothing() {
    let dir = TempDir::new("rollback");
    {
        let mut db = Store::open(dir.db()).unwrap();
        // Dropped without commit.
        {
            let tx = db.transaction().unwrap();
            write_everything(&tx, "dropped");
        }
        // Rolled back explicitly.
        let tx = db.transaction().unwrap();
        write_everything(&tx, "rolledback");
        tx.rollback().unwrap();
        // A failure half-way, then the caller's `?` drops the transaction.
        let mut attempt = || -> store::Result<()> {
            let tx = db.transaction()?;
            create_game(&tx, &new_game("halfway"), T0)?;
            create_game(&tx, &new_game("HALFWAY"), T0)?; // duplicate: fails
            tx.commit()?;
            Ok(())
        };
        assert!(matches!(attempt(), Err(StoreError::Duplicate(_))));
    }
    // Nothing reached the file.
    let db = Store::open(dir.db()).unwrap();
    let counts = row_counts(db.conn());
    assert!(counts.iter().all(|(_, n)| *n == 0), "{counts:?}");
    // The same work committed is all there.
    let mut db = db;
    let tx = db.transaction().unwrap();
    write_everything(&tx, "committed");
    tx.commit().unwrap();
    drop(db);
    let db = Store::open(dir.db()).unwrap();
    let counts = row_counts(db.conn());
    assert!(counts.iter().all(|(_, n)| *n >= 1), "{counts:?}");
}

#[test]
fn readers_see_only_committed_state() {
    let dir = TempDir::new("wal");
    let mut writer = Store::open(dir.db()).unwrap();
    let reader = Store::open(dir.db()).unwrap();
    let tx = writer.transaction().unwrap();
    create_game(&tx, &new_game("pending"), T0).unwrap();
    // WAL: the reader is not blocked and does not see the uncommitted game.
    assert!(list_games(reader.conn()).unwrap().is_empty());
    tx.commit().unwrap();
    assert_eq!(list_games(reader.conn()).unwrap().len(), 1);
}

// Hostile text ------------------------------------------------------------

const NASTY: &[&str] = &[
    "'; DROP TABLE games; --",
    "Robert'); DROP TABLE seats;--",
    "\" OR \"1\"=\"1",
    "' OR '1'='1",
    "`backticks` and \\backslashes\\ and ?1 :name @x $y",
    "100% _like_ [glob]*?",
    "nul\0inside\0",
    "line\nbreak\r\ncrlf\ttab",
    "üñíçødé 🎲 \u{202e}rtl",
    "  leading and trailing  ",
    "*/ /* -- ;",
];

#[test]
fn sql_metacharacters_round_trip_verbatim() {
    let dir = TempDir::new("nasty");
    let mut db = Store::open(dir.db()).unwrap();
    let hash = some_hash();
    let tx = db.transaction().unwrap();
    for (i, s) in NASTY.iter().copied().enumerate() {
        let t = i as i64;
        let name = format!("{i}{s}");
        let settings = json!({ "press": s }).to_string();
        let game = create_game(
            &tx,
            &NewGame {
                name: &name,
                variant: s,
                settings: &settings,
                master_address: Some(s),
                master_password: Some(hash),
                seed: t,
            },
            T0,
        )
        .unwrap();
        let g = game_by_name(&tx, &name).unwrap().expect(s);
        assert_eq!(g.id, game);
        assert_eq!(g.name, name);
        assert_eq!(g.variant, s);
        assert_eq!(g.settings, settings);
        assert_eq!(g.master_address.as_deref(), Some(s));
        end_game(
            &tx,
            game,
            GameState::Terminated,
            &json!({ "why": s }).to_string(),
            T0,
        )
        .unwrap();
        set_game_state(&tx, game, GameState::Active, T0).unwrap();
        let g = game_by_id(&tx, game).unwrap().unwrap();
        assert_eq!(g.result, Some(json!({ "why": s }).to_string()));

        // Phase names, positions and results.
        let phase = format!("S1901{s}");
        let pos = json!({ "phase": s, "units": { s: [s] } });
        insert_phase(&tx, game, &phase, &pos, None, None, T0).unwrap();
        let p = current_phase(&tx, game).unwrap().unwrap();
        assert_eq!(p.phase, phase);
        assert_eq!(p.position_as::<serde_json::Value>().unwrap(), pos);
        assert_eq!(phase_by_name(&tx, game, &phase).unwrap().unwrap().id, p.id);

        // Seats.
        let power = s.to_uppercase();
        let seat = add_seat(
            &tx,
            &NewSeat {
                game_id: game,
                power: None,
                address: s,
                password: hash,
                status: SeatStatus::Forming,
                preferences: Some(s),
            },
            T0,
        )
        .unwrap();
        assign_power(&tx, seat, &power, &phase).unwrap();
        set_seat_draw(&tx, seat, Some(s)).unwrap();
        let seat_row = seat_by_power(&tx, game, &power).unwrap().expect(s);
        assert_eq!(seat_row.id, seat);
        assert_eq!(seat_row.power.as_deref(), Some(power.as_str()));
        assert_eq!(seat_row.address, s);
        assert_eq!(seat_row.preferences.as_deref(), Some(s));
        assert_eq!(seat_row.draw_vote.as_deref(), Some(s));
        set_player_address(&tx, seat, &format!("{s}{s}")).unwrap();
        assert_eq!(
            seat_by_id(&tx, seat).unwrap().unwrap().address,
            format!("{s}{s}")
        );
        replace_player(&tx, seat, s, hash, &format!("F1901{s}")).unwrap();
        let history = seat_history(&tx, game).unwrap();
        assert_eq!(history[0].address, s);
        assert_eq!(history[0].to_phase, Some(format!("F1901{s}")));
        add_observer(&tx, game, s, hash, T0).unwrap().expect(s);
        assert_eq!(
            observer_by_address(&tx, game, s).unwrap().expect(s).address,
            s
        );

        // Orders.
        let mail = insert_inbound(&tx, &format!("m{i}{s}m"), s.as_bytes(), Some(s), T0)
            .unwrap()
            .expect(s);
        set_order(
            &tx,
            &NewOrder {
                game_id: game,
                phase: &phase,
                power: &power,
                unit: s,
                written: s,
                understood: s,
                inbound_id: Some(mail),
            },
            T0,
        )
        .unwrap();
        let o = &orders_of_power(&tx, game, &phase, &power).unwrap()[0];
        assert_eq!(
            (o.unit.as_str(), o.written.as_str(), o.understood.as_str()),
            (s, s, s)
        );

        // Press.
        insert_press(
            &tx,
            &NewPress {
                game_id: game,
                phase: Some(&phase),
                from: s,
                to: &[s, "FRANCE"],
                grey: false,
                broadcast: false,
                subject: Some(s),
                body: s,
                inbound_id: Some(mail),
            },
            T0,
        )
        .unwrap();
        let p = &press_of_game(&tx, game)[0];
        assert_eq!(p.from, s);
        assert_eq!(p.to, [s, "FRANCE"]);
        assert_eq!((p.subject.as_deref(), p.body.as_str()), (Some(s), s));

        // Inbound.
        mark_inbound(&tx, mail, InboundStatus::Dropped, Some(s), T0).unwrap();
        let m = inbound_by_id(&tx, mail).unwrap().unwrap();
        assert_eq!(m.message_id, format!("m{i}{s}m"));
        assert_eq!(m.raw, s.as_bytes());
        assert_eq!(m.sender.as_deref(), Some(s));
        assert_eq!(m.note.as_deref(), Some(s));

        // Outbound.
        let out_id = format!("o{i}{s}");
        let raw = format!("Subject: {s}\r\n\r\n{s}\r\n");
        let out = queue_mail(
            &tx,
            &NewMail {
                message_id: &out_id,
                game_id: Some(game),
                recipients: &[s, "x@example.org"],
                subject: s,
                raw: raw.as_bytes(),
            },
            T0,
        )
        .unwrap();
        mark_failed(&tx, out, s, T0).unwrap();
        let m = due_mail(&tx, i64::MAX, None, usize::MAX)
            .unwrap()
            .into_iter()
            .find(|m| m.id == out)
            .unwrap();
        assert_eq!(m.message_id, out_id);
        assert_eq!(m.recipients, [s, "x@example.org"]);
        assert_eq!(m.subject, s);
        assert_eq!(m.raw, raw.as_bytes());
        assert_eq!(m.last_error.as_deref(), Some(s));

        // Archive.
        append_history(
            &tx,
            game,
            Some(&phase),
            HistoryKind::Broadcast,
            s,
            s,
            T0 + t,
        )
        .unwrap();
        let a = &history_of_game(&tx, game).unwrap()[0];
        assert_eq!(
            (a.phase.as_deref(), a.subject.as_str(), a.body.as_str()),
            (Some(phase.as_str()), s, s)
        );
    }
    tx.commit().unwrap();
    drop(db);

    // Every table is still there, every row too, after a reopen.
    let db = Store::open(dir.db()).unwrap();
    for t in TABLES {
        assert!(
            table_names(db.conn()).iter().any(|n| n == t),
            "{t} dropped!"
        );
    }
    assert_eq!(list_games(db.conn()).unwrap().len(), NASTY.len());
    for (i, s) in NASTY.iter().enumerate() {
        let g = game_by_name(db.conn(), &format!("{i}{s}"))
            .unwrap()
            .expect(s);
        assert_eq!(g.variant, *s);
    }
    // A bare metacharacter name is just a name (not found, no error).
    assert!(game_by_name(db.conn(), "' OR 1=1 --").unwrap().is_none());
}

// Passwords ---------------------------------------------------------------

#[test]
fn passwords_are_argon2id_with_owasp_parameters() {
    let plain = "correct horse battery staple";
    let h1 = hash_password(plain).unwrap();
    let h2 = hash_password(plain).unwrap();
    let parts: Vec<&str> = h1.as_str().split('$').collect();
    // "", "argon2id", "v=19", "m=19456,t=2,p=1", salt, hash
    assert_eq!(parts.len(), 6, "{}", h1.as_str());
    assert_eq!(parts[1], "argon2id");
    assert_eq!(parts[2], "v=19");
    let params: Vec<(&str, u32)> = parts[3]
        .split(',')
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap();
            (k, v.parse().unwrap())
        })
        .collect();
    assert_eq!(
        params,
        [("m", ARGON2_M_KIB), ("t", ARGON2_T), ("p", ARGON2_P)]
    );
    const { assert!(ARGON2_M_KIB >= 19_456 && ARGON2_T >= 2 && ARGON2_P == 1) };
    assert!(parts[4].len() >= 22, "salt of at least 16 bytes");
    assert!(parts[5].len() >= 43, "hash of at least 32 bytes");
    assert_ne!(h1, h2, "a fresh salt each time");
    assert!(!h1.as_str().contains(plain));

    assert!(h1.verify(plain));
    assert!(verify_password(plain, h2.as_str()));
    assert!(!h1.verify("correct horse battery stapl"));
    assert!(!h1.verify("Correct horse battery staple"));
    assert!(!h1.verify(""));
    assert!(!verify_password(plain, "garbage"));
    assert!(!verify_password(plain, plain));
    assert!(!verify_password(plain, ""));
    assert!(
        !format!("{h1:?}").contains(parts[5]),
        "Debug hides the hash"
    );

    // A PHC string parses back; anything else is refused.
    assert_eq!(PasswordHash::parse(h1.as_str()).unwrap(), h1);
    assert!(PasswordHash::parse(plain).is_err());
    assert!(PasswordHash::parse("$argon2id$").is_err());

    // Weaker or other algorithms: not accepted as ours.
    use argon2::password_hash::{PasswordHasher, SaltString};
    let salt = SaltString::encode_b64(b"0123456789abcdef").unwrap();
    let weak = argon2::Argon2::new(
        argon2::Algorithm::Argon2id,
        argon2::Version::V0x13,
        argon2::Params::new(8192, 1, 1, None).unwrap(),
    )
    .hash_password(plain.as_bytes(), &salt)
    .unwrap()
    .to_string();
    let weak = PasswordHash::parse(&weak).unwrap();
    assert!(weak.verify(plain), "old hashes still verify");
    let argon2i = argon2::Argon2::new(
        argon2::Algorithm::Argon2i,
        argon2::Version::V0x13,
        argon2::Params::new(19456, 2, 1, None).unwrap(),
    )
    .hash_password(plain.as_bytes(), &salt)
    .unwrap()
    .to_string();
    assert!(PasswordHash::parse(&argon2i).is_err());
    assert!(!verify_password(plain, &argon2i));
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn files_containing(dir: &Path, needle: &[u8]) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && contains(&std::fs::read(p).unwrap(), needle))
        .collect()
}

#[test]
fn plain_passwords_never_reach_the_file() {
    let dir = TempDir::new("plain");
    let seat_plain = "Plain-Seat-Pw-7Qx9!";
    let master_plain = "Plain-Master-Pw-3Kv2!";
    let observer_plain = "Plain-Observer-Pw-8Zr1!";
    let seat_hash = hash_password(seat_plain).unwrap();
    let master_hash = hash_password(master_plain).unwrap();
    let observer_hash = hash_password(observer_plain).unwrap();
    {
        let mut db = Store::open(dir.db()).unwrap();
        let tx = db.transaction().unwrap();
        let game = create_game(
            &tx,
            &NewGame {
                master_address: Some("gm@example.org"),
                master_password: Some(&master_hash),
                ..new_game("secret")
            },
            T0,
        )
        .unwrap();
        let seat = add_seat(
            &tx,
            &NewSeat {
                game_id: game,
                power: Some("ITALY"),
                address: "it@example.org",
                password: &seat_hash,
                status: SeatStatus::Active,
                preferences: None,
            },
            T0,
        )
        .unwrap();
        add_observer(&tx, game, "obs@example.org", &observer_hash, T0).unwrap();
        let new_seat_hash = hash_password(seat_plain).unwrap();
        set_player_password(&tx, seat, &new_seat_hash).unwrap();
        // The database itself refuses a plain password, whatever the code.
        for sql in [
            "UPDATE seats SET password_hash = 'Plain-Seat-Pw-7Qx9!'",
            "UPDATE games SET master_password_hash = 'Plain-Master-Pw-3Kv2!'",
            "UPDATE observers SET password_hash = 'Plain-Observer-Pw-8Zr1!'",
        ] {
            assert!(tx.execute(sql, []).is_err(), "{sql}");
        }
        tx.commit().unwrap();
        let seat_row = seat_by_id(db.conn(), seat).unwrap().unwrap();
        assert!(seat_row.password.verify(seat_plain));
        assert!(!seat_row.password.verify(master_plain));
        let g = game_by_id(db.conn(), game).unwrap().unwrap();
        assert!(g.master_password.unwrap().verify(master_plain));
        // While open: the WAL holds the latest pages.
        for plain in [seat_plain, master_plain, observer_plain] {
            assert!(
                files_containing(&dir.0, plain.as_bytes()).is_empty(),
                "{plain}"
            );
        }
        assert!(!files_containing(&dir.0, new_seat_hash.as_str().as_bytes()).is_empty());
    }
    // After closing (checkpointed into the main file).
    for plain in [seat_plain, master_plain, observer_plain] {
        assert!(
            files_containing(&dir.0, plain.as_bytes()).is_empty(),
            "{plain}"
        );
    }
    let db_bytes = std::fs::read(dir.db()).unwrap();
    assert!(
        contains(&db_bytes, master_hash.as_str().as_bytes()),
        "the search works"
    );
    assert!(contains(&db_bytes, b"it@example.org"));
}

// Durability --------------------------------------------------------------

#[test]
fn sync_makes_the_write_ahead_log_durable() {
    // What `sync` is for: with `synchronous=NORMAL` a commit writes the log
    // without flushing it, so its pages wait, dirty, in the kernel's page
    // cache (up to 30 s by default) before they are written to the disk. A
    // power cut in that time loses them. `sync` must leave none of the
    // log's pages dirty or still being written: the kernel has had the
    // disk take them. A `sync` that did nothing would leave them dirty and
    // fail here. (That the disk keeps what it acknowledged, its own cache
    // included, is the disk's promise; no test short of a power cut proves
    // it.)
    let Some(base) = [
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")),
        std::env::temp_dir(),
    ]
    .into_iter()
    .find(|dir| !in_memory_filesystem(dir)) else {
        common::prerequisite::missing(
            "sync_makes_the_write_ahead_log_durable",
            "only memory file systems to try",
            "The target folder or the temporary one must be on a disk",
        );
        return;
    };
    let dir = TempDir::new_in(&base, "sync");
    let store = Store::open(dir.db()).unwrap();
    // Nothing written yet: no log to sync, and that is no error.
    store.sync().unwrap();
    let wal = store.wal_path().expect("a file store");
    assert_eq!(wal, dir.0.join("judge.db-wal"));
    // The kernel may write pages back on its own at any time: a round
    // proves something only when the commit's pages were still dirty.
    let mut proved = 0;
    for round in 0..20 {
        game_with_phase(store.conn(), &format!("durable{round}"));
        let Some(before) = unwritten_pages(&wal) else {
            common::prerequisite::missing(
                "sync_makes_the_write_ahead_log_durable",
                "this kernel cannot say which pages are dirty",
                "cachestat needs Linux 6.5 or later",
            );
            return;
        };
        store.sync().unwrap();
        let after = unwritten_pages(&wal).expect("cachestat");
        assert_eq!(
            after,
            UnwrittenPages::default(),
            "round {round}: the log's pages left unwritten by sync ({before:?} before it)"
        );
        if before.dirty > 0 {
            proved += 1;
            if proved == 3 {
                break;
            }
        }
    }
    assert_eq!(
        proved, 3,
        "in 20 rounds a commit left the log dirty fewer than 3 times: nothing for sync to do"
    );
    // A second connection (another process would do the same) sees it all.
    let other = Connection::open(dir.db()).unwrap();
    let games: i64 = other
        .query_row(
            "SELECT count(*) FROM games WHERE name LIKE 'durable%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(games >= 3, "{games}");
}

/// A file's pages in the kernel's page cache that are not yet on the disk.
#[derive(Debug, Default, PartialEq, Eq)]
struct UnwrittenPages {
    /// Written by a process, not yet sent to the disk.
    dirty: u64,
    /// Sent to the disk, not yet acknowledged.
    writeback: u64,
}

/// The unwritten pages of the file at `path`, by Linux's `cachestat`
/// (6.5 and later); None where the kernel cannot say.
#[cfg(target_os = "linux")]
fn unwritten_pages(path: &Path) -> Option<UnwrittenPages> {
    use std::ffi::c_long;
    use std::os::fd::AsRawFd;
    // `struct cachestat_range` and `struct cachestat` of <linux/mman.h>.
    #[repr(C)]
    struct Range {
        off: u64,
        len: u64,
    }
    #[repr(C)]
    #[derive(Default)]
    struct Stat {
        cache: u64,
        dirty: u64,
        writeback: u64,
        evicted: u64,
        recently_evicted: u64,
    }
    extern "C" {
        fn syscall(number: c_long, ...) -> c_long;
    }
    // The same number on every architecture (added after the tables were
    // unified).
    const SYS_CACHESTAT: c_long = 451;
    let file = std::fs::File::open(path).ok()?;
    // A length of 0: to the end of the file.
    let range = Range { off: 0, len: 0 };
    let mut stat = Stat::default();
    // SAFETY: the arguments are those of cachestat(2): an open descriptor,
    // a range and a result the kernel fills in, both living across the call.
    let answer = unsafe {
        syscall(
            SYS_CACHESTAT,
            file.as_raw_fd() as c_long,
            &range as *const Range,
            &mut stat as *mut Stat,
            0 as c_long,
        )
    };
    (answer == 0).then_some(UnwrittenPages {
        dirty: stat.dirty,
        writeback: stat.writeback,
    })
}

#[cfg(not(target_os = "linux"))]
fn unwritten_pages(_: &Path) -> Option<UnwrittenPages> {
    None
}

/// Whether `dir` lies on a file system kept in memory (tmpfs, ramfs),
/// where pages stay dirty for good and a flush does nothing: read from
/// the longest mount point containing it in `/proc/self/mounts`.
fn in_memory_filesystem(dir: &Path) -> bool {
    let Ok(dir) = dir.canonicalize() else {
        return false;
    };
    let Ok(mounts) = std::fs::read_to_string("/proc/self/mounts") else {
        return false;
    };
    mounts
        .lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let (_, point, kind) = (fields.next()?, fields.next()?, fields.next()?);
            dir.starts_with(point).then_some((point.len(), kind))
        })
        .max_by_key(|&(len, _)| len)
        .is_some_and(|(_, kind)| matches!(kind, "tmpfs" | "ramfs"))
}
