-- The judge's store: one SQLite file (WAL mode) that holds everything.
--
-- This file is the one definition of the schema. `Store::open` applies it at
-- every start-up inside one transaction, so every statement here must be
-- idempotent (IF NOT EXISTS). The schema version is `PRAGMA user_version`
-- (see `SCHEMA_VERSION` in src/store/mod.rs); a change to this file that an
-- existing database cannot pick up by IF NOT EXISTS alone (a new column, a
-- changed CHECK) also needs a forward migration in `MIGRATIONS`, and then
-- the version goes up by one.
--
-- Conventions:
-- - Times are INTEGER unix seconds (UTC). The caller passes the time in: the
--   store has no clock of its own.
-- - Powers are upper-case English names ('FRANCE'); phases are written
--   'S1901M', 'F1901R', 'W1901A'.
-- - JSON columns are checked with json_valid(); their shape belongs to the
--   code that writes them (positions are `interchange::PositionJson`).
-- - Passwords are only ever stored as argon2id PHC strings; the CHECKs
--   below refuse anything else, so a plain password cannot slip in.
-- - Text is stored verbatim: the store never interprets it, and every query
--   binds its values as parameters.

-- Games -------------------------------------------------------------------

CREATE TABLE IF NOT EXISTS games (
    id                   INTEGER PRIMARY KEY,
    name                 TEXT    NOT NULL UNIQUE COLLATE NOCASE CHECK (name <> ''),
    variant              TEXT    NOT NULL DEFAULT 'standard',
    state                TEXT    NOT NULL DEFAULT 'forming'
                         CHECK (state IN ('forming', 'active', 'paused', 'finished', 'terminated')),
    -- Press mode, NMR rule, deadline schedule, ...: JSON, owned by the caller.
    settings             TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
    master_address       TEXT,
    master_password_hash TEXT
                         CHECK (master_password_hash IS NULL
                                OR substr(master_password_hash, 1, 10) = '$argon2id$'),
    -- For anything the game decides by chance (power assignment): replayable.
    seed                 INTEGER NOT NULL DEFAULT 0,
    created_at           INTEGER NOT NULL,
    ended_at             INTEGER,
    -- How it ended, JSON ({"winner": "FRANCE"}, {"draw": [...]}), once ended.
    result               TEXT    CHECK (result IS NULL OR json_valid(result)),
    -- Set when the clock could not process the game (an error or a panic,
    -- rolled back): the clock leaves it alone for an hour, then tries again
    -- (and clears both once that works).
    failed_at            INTEGER,
    failure              TEXT
);

-- Seats: one per power (before the start: one per player who joined, power
-- NULL). The seat is the account: the player's address and password.
CREATE TABLE IF NOT EXISTS seats (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    power         TEXT    CHECK (power IS NULL OR (power <> '' AND power = upper(power))),
    address       TEXT    NOT NULL,
    password_hash TEXT    NOT NULL CHECK (substr(password_hash, 1, 10) = '$argon2id$'),
    status        TEXT    NOT NULL DEFAULT 'forming'
                  CHECK (status IN ('forming', 'active', 'late', 'abandoned',
                                    'civil_disorder', 'resigned', 'eliminated')),
    -- Power preference list as given at sign-up.
    preferences   TEXT,
    -- SET WAIT: no early processing for this power.
    wait          INTEGER NOT NULL DEFAULT 0 CHECK (wait IN (0, 1)),
    -- SET DRAW: the vote, standing until withdrawn (NULL: no vote): "ALL"
    -- (all survivors) or "POWERS" and the powers' names ("POWERS ENGLAND
    -- FRANCE"); older databases may hold the name of the phase it was
    -- given in (a vote for that phase only). draw_powers is no longer
    -- used (the powers are in draw_vote); it stays for older databases.
    draw_vote     TEXT,
    draw_powers   TEXT    CHECK (draw_powers IS NULL OR json_valid(draw_powers)),
    joined_at     INTEGER NOT NULL,
    -- Games for fewer players: the seats one player holds share the first
    -- one's id here (NULL: a seat of its own).
    bloc          INTEGER REFERENCES seats (id) ON DELETE SET NULL,
    -- SET CONCEDE: the power conceded to, in the phase of draw_vote's kind
    -- (cleared each phase).
    concede_to    TEXT,
    UNIQUE (game_id, power)
);
CREATE INDEX IF NOT EXISTS seats_by_address ON seats (address COLLATE NOCASE);

-- Teams: the addresses that play one power together (SET ADDRESS a, b,
-- c), in the order given; the seat's address of record is one of them.
-- An address gets the power's mail once confirmed_at is set (it was
-- confirmed when listed, sent its CONFIRM, or signed on); before, it gets
-- only the one request to confirm. No rows: the address of record alone.
-- A takeover or a vacated seat empties the list.
CREATE TABLE IF NOT EXISTS seat_addresses (
    seat_id      INTEGER NOT NULL REFERENCES seats (id) ON DELETE CASCADE,
    address      TEXT    NOT NULL COLLATE NOCASE CHECK (address <> ''),
    position     INTEGER NOT NULL,
    confirmed_at INTEGER,
    PRIMARY KEY (seat_id, address)
);
CREATE INDEX IF NOT EXISTS seat_addresses_by_address ON seat_addresses (address);

-- SET MAPS OFF: the players of a game who want no map in their results
-- mails (a new table, so existing databases pick it up without migration).
CREATE TABLE IF NOT EXISTS map_optouts (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    address TEXT    NOT NULL COLLATE NOCASE,
    PRIMARY KEY (game_id, address)
);

-- Who held which power when, for SUMMARY. to_phase NULL: still playing.
CREATE TABLE IF NOT EXISTS seat_history (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    power      TEXT    NOT NULL,
    address    TEXT    NOT NULL,
    from_phase TEXT    NOT NULL,
    to_phase   TEXT
);
CREATE INDEX IF NOT EXISTS seat_history_by_game ON seat_history (game_id, power);

-- Announced absences (vacations): no deadline should fall inside one.
CREATE TABLE IF NOT EXISTS absences (
    id      INTEGER PRIMARY KEY,
    seat_id INTEGER NOT NULL REFERENCES seats (id) ON DELETE CASCADE,
    starts  INTEGER NOT NULL,
    ends    INTEGER NOT NULL,
    CHECK (ends > starts)
);
CREATE INDEX IF NOT EXISTS absences_by_seat ON absences (seat_id);

CREATE TABLE IF NOT EXISTS observers (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    address       TEXT    NOT NULL COLLATE NOCASE,
    password_hash TEXT    NOT NULL CHECK (substr(password_hash, 1, 10) = '$argon2id$'),
    joined_at     INTEGER NOT NULL,
    UNIQUE (game_id, address)
);

-- Addresses the Master made observers (SET OBSERVER <address>), such as a
-- class's mailing list: no password. Mailed only once the address has
-- confirmed it wants the judge's mail (address_confirmations).
CREATE TABLE IF NOT EXISTS named_observers (
    id       INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    address  TEXT    NOT NULL COLLATE NOCASE,
    added_at INTEGER NOT NULL,
    UNIQUE (game_id, address)
);

-- Phases ------------------------------------------------------------------

-- One row per phase played or being played; the current phase is the one
-- with the highest seq.
CREATE TABLE IF NOT EXISTS phases (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    phase        TEXT    NOT NULL CHECK (phase <> ''),
    seq          INTEGER NOT NULL CHECK (seq >= 1),
    -- The position at the start of the phase (interchange::PositionJson).
    position     TEXT    NOT NULL CHECK (json_valid(position)),
    deadline     INTEGER,
    grace_until  INTEGER,
    started_at   INTEGER NOT NULL,
    processed_at INTEGER,
    -- What the adjudication said (orders and their results), JSON.
    results      TEXT    CHECK (results IS NULL OR json_valid(results)),
    -- When the reminder before the deadline went out (once per phase).
    reminded_at  INTEGER,
    -- When the last late notice went out (repeated daily while late).
    late_notice_at INTEGER,
    UNIQUE (game_id, phase),
    UNIQUE (game_id, seq)
);
CREATE INDEX IF NOT EXISTS phases_unprocessed ON phases (deadline) WHERE processed_at IS NULL;

-- Orders: the last one given for each unit counts, so (game, phase, power,
-- unit) is unique and a later order replaces the earlier one.
CREATE TABLE IF NOT EXISTS orders (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL,
    phase       TEXT    NOT NULL,
    power       TEXT    NOT NULL CHECK (power <> '' AND power = upper(power)),
    -- Which unit or slot: the location key ('PAR', 'STP') or an
    -- adjustment slot ('BUILD:1', 'REMOVE:1').
    unit        TEXT    NOT NULL CHECK (unit <> ''),
    -- As the player wrote it, and as the judge understood it (short form).
    written     TEXT    NOT NULL,
    understood  TEXT    NOT NULL,
    received_at INTEGER NOT NULL,
    inbound_id  INTEGER REFERENCES inbound (id) ON DELETE SET NULL,
    FOREIGN KEY (game_id, phase) REFERENCES phases (game_id, phase) ON DELETE CASCADE,
    UNIQUE (game_id, phase, power, unit)
);

-- Press -------------------------------------------------------------------

CREATE TABLE IF NOT EXISTS press (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    -- NULL before the game has a phase.
    phase      TEXT,
    -- A power, 'M' (the master) or 'O' (an observer).
    from_power TEXT    NOT NULL CHECK (from_power <> ''),
    -- JSON array of powers; empty for a broadcast.
    to_powers  TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(to_powers)),
    grey       INTEGER NOT NULL DEFAULT 0 CHECK (grey IN (0, 1)),
    broadcast  INTEGER NOT NULL DEFAULT 0 CHECK (broadcast IN (0, 1)),
    subject    TEXT,
    body       TEXT    NOT NULL,
    sent_at    INTEGER NOT NULL,
    inbound_id INTEGER REFERENCES inbound (id) ON DELETE SET NULL
);
CREATE INDEX IF NOT EXISTS press_by_game ON press (game_id, sent_at);

-- Mail --------------------------------------------------------------------

-- Every mail received, raw, before anything is done with it. A mail is
-- stored once: a second delivery (the same Message-ID from the same sender
-- with the same body) is recognised and not stored again. The same
-- Message-ID with another sender or body is another mail (a stranger cannot
-- make a player's mail vanish by sending first under its Message-ID): the
-- row's id is the internal key.
CREATE TABLE IF NOT EXISTS inbound (
    id          INTEGER PRIMARY KEY,
    message_id  TEXT    NOT NULL CHECK (message_id <> ''),
    -- BLAKE2s of the body (the bytes after the header), hex; NULL for mail
    -- stored before schema version 4 (computed from raw when compared).
    body_digest TEXT,
    received_at INTEGER NOT NULL,
    raw         BLOB    NOT NULL,
    sender      TEXT,
    -- new: stored, not yet acted on; handled / dropped: done; failed:
    -- handling it went wrong (note says why), never retried by itself.
    status      TEXT    NOT NULL DEFAULT 'new'
                CHECK (status IN ('new', 'handled', 'dropped', 'failed')),
    note        TEXT,
    handled_at  INTEGER
);
CREATE INDEX IF NOT EXISTS inbound_by_message_id ON inbound (message_id);
-- The mail still to handle, oldest first (handled strictly in this order).
CREATE INDEX IF NOT EXISTS inbound_new ON inbound (id) WHERE status = 'new';

-- Rendered mails waiting to be sent, and those sent. A failed attempt sets
-- last_error and next_attempt_at; abandoned_at is set when sending is given up.
CREATE TABLE IF NOT EXISTS outbound (
    id              INTEGER PRIMARY KEY,
    message_id      TEXT    NOT NULL UNIQUE CHECK (message_id <> ''),
    game_id         INTEGER REFERENCES games (id) ON DELETE SET NULL,
    -- JSON array of envelope recipients.
    recipients      TEXT    NOT NULL CHECK (json_valid(recipients)),
    subject         TEXT    NOT NULL,
    -- The full RFC 5322 message, headers and body, as it will be sent.
    raw             BLOB    NOT NULL,
    created_at      INTEGER NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error      TEXT,
    next_attempt_at INTEGER NOT NULL,
    sent_at         INTEGER,
    abandoned_at    INTEGER
);
CREATE INDEX IF NOT EXISTS outbound_unsent ON outbound (next_attempt_at)
    WHERE sent_at IS NULL AND abandoned_at IS NULL;

-- Everything sent to the whole game (results, broadcasts, notices,
-- summaries; never partial press), for HISTORY.
CREATE TABLE IF NOT EXISTS archive (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    phase      TEXT,
    kind       TEXT    NOT NULL CHECK (kind IN ('results', 'broadcast', 'notice', 'summary')),
    subject    TEXT    NOT NULL,
    body       TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS archive_by_game ON archive (game_id, created_at);
-- A game's newest entry in one seek (the web pass asks it of every game).
CREATE INDEX IF NOT EXISTS archive_last_by_game ON archive (game_id, id);

-- Against password guessing: failed sign-ons per thing whose password was
-- tried ('seat:<id>', 'master:<game id>', 'observer:<id>'); five within an
-- hour lock it (refused unchecked) for an hour. Rows older than an hour
-- are removed as new ones come.
CREATE TABLE IF NOT EXISTS sign_on_failures (
    target    TEXT    NOT NULL,
    sender    TEXT    NOT NULL COLLATE NOCASE,
    failed_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sign_on_failures_by_sender ON sign_on_failures (target, sender, failed_at);
-- A lock is on one sender's tries for one target: a guesser never locks
-- out the owner. Kept a day after it ends (the guesser is answered once).
CREATE TABLE IF NOT EXISTS sign_on_locks (
    target       TEXT    NOT NULL,
    sender       TEXT    NOT NULL COLLATE NOCASE,
    locked_until INTEGER NOT NULL,
    told_at      INTEGER,
    PRIMARY KEY (target, sender)
);
-- How many mails each address's mails caused in the last hour (results of
-- phases not counted): one sender cannot make the judge a mail cannon.
CREATE TABLE IF NOT EXISTS mails_caused (
    sender    TEXT    NOT NULL COLLATE NOCASE,
    caused_at INTEGER NOT NULL,
    mails     INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS mails_caused_by_sender ON mails_caused (sender, caused_at);
-- Addresses named by someone else (SET ADDRESS, a takeover's approval):
-- asked once a day at most to confirm (CONFIRM <token>) before they get
-- any other mail. `seat_id`: the seat whose address becomes this one on
-- confirmation. An address that signed on from itself is confirmed too.
CREATE TABLE IF NOT EXISTS address_confirmations (
    address      TEXT    PRIMARY KEY COLLATE NOCASE,
    token        TEXT    NOT NULL UNIQUE,
    named_by     TEXT    NOT NULL,
    seat_id      INTEGER REFERENCES seats (id) ON DELETE SET NULL,
    requested_at INTEGER NOT NULL,
    confirmed_at INTEGER
);
-- When each target's owner was last told of guessing (once a day).
CREATE TABLE IF NOT EXISTS sign_on_notices (
    target      TEXT    PRIMARY KEY,
    notified_at INTEGER NOT NULL
);

-- Against mail bombing through forged senders: the replies of the last hour
-- to addresses that never signed on with a password, counted for a limit.
CREATE TABLE IF NOT EXISTS stranger_replies (
    address TEXT    NOT NULL COLLATE NOCASE,
    sent_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS stranger_replies_by_address ON stranger_replies (address, sent_at);

-- SET ZONE: the time zone an address sees deadlines in, beside UTC.
CREATE TABLE IF NOT EXISTS player_zones (
    address TEXT PRIMARY KEY COLLATE NOCASE,
    zone    TEXT NOT NULL
);

-- njudge's PHASE: orders given ahead for a later phase of a game, as the
-- player wrote them, one row a line; entered (checked against the position
-- then) and deleted when that phase begins, in the same transaction.
CREATE TABLE IF NOT EXISTS preorders (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    power      TEXT    NOT NULL CHECK (power <> '' AND power = upper(power)),
    phase      TEXT    NOT NULL,
    line_no    INTEGER NOT NULL,
    text       TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS preorders_by_game ON preorders (game_id, phase, power);

-- The judge's own bookkeeping (e.g. the last clock tick, to notice an
-- outage).
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- The web archive: what of each game its pages show (its count of phases,
-- the newest archive entry, the state), so that only what changed is
-- written again, whichever process changed it; and the facts of the
-- game's row in the list of games (JSON: name, variant, state, phase,
-- centres, result ...), so that the list is made again without reading
-- every game.
CREATE TABLE IF NOT EXISTS web_published (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    phases     INTEGER NOT NULL,
    archive_id INTEGER NOT NULL,
    state      TEXT    NOT NULL,
    row_facts  TEXT    NOT NULL,
    activity   INTEGER NOT NULL,
    over       INTEGER NOT NULL CHECK (over IN (0, 1)),
    updated_at INTEGER NOT NULL
);
