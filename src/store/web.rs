//! What of each game the web archive has published, so that the judge's
//! web pass (and `judge archive`) writes only what changed, whichever
//! process changed it: a game's published state is compared with what
//! the store holds now.

use rusqlite::{params, Connection, Row};
use serde::{Deserialize, Serialize};

use super::games::GameState;
use super::Result;

/// A game as the web pass sees it: what it holds now, and what was
/// published of it (None: nothing yet, or it was withdrawn).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebState {
    pub game_id: i64,
    pub name: String,
    pub state: GameState,
    /// `SET PRIVATE`: never published.
    pub private: bool,
    /// Its phases (the one being played counts too).
    pub phases: i64,
    /// Its newest archive entry's id (0: none).
    pub archive_id: i64,
    pub published: Option<Published>,
    /// A notice to the game since it was published (a rollback, a
    /// replacement, a setting): its pages are written again whole.
    pub renewed: bool,
}

/// What was last published of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Published {
    pub phases: i64,
    pub archive_id: i64,
    pub state: GameState,
}

impl WebState {
    /// Whether the published pages are behind the store.
    pub fn is_stale(&self) -> bool {
        self.published.as_ref()
            != Some(&Published {
                phases: self.phases,
                archive_id: self.archive_id,
                state: self.state,
            })
    }
}

fn from_row(r: &Row<'_>) -> rusqlite::Result<WebState> {
    let published = match r.get::<_, Option<i64>>(6)? {
        Some(phases) => Some(Published {
            phases,
            archive_id: r.get(7)?,
            state: r.get(8)?,
        }),
        None => None,
    };
    Ok(WebState {
        game_id: r.get(0)?,
        name: r.get(1)?,
        state: r.get(2)?,
        private: r.get::<_, Option<bool>>(3)?.unwrap_or(false),
        phases: r.get(4)?,
        archive_id: r.get(5)?,
        published,
        renewed: r.get(9)?,
    })
}

/// Every game, by name, with what was published of it.
pub fn web_states(conn: &Connection) -> Result<Vec<WebState>> {
    // A game's phases are numbered 1, 2, ... (`seq`, gone again on a
    // rollback): the highest is their count, one seek in its index. The
    // notice check reads only the entries past the published one.
    let mut stmt = conn.prepare_cached(
        // MATERIALIZED: each game's counts once (flattened, SQLite would
        // read the newest archive entry twice per game).
        "WITH s AS MATERIALIZED ( \
             SELECT g.id AS id, g.name AS name, g.state AS state, \
                    json_extract(g.settings, '$.private') AS private, \
                    (SELECT coalesce(max(p.seq), 0) FROM phases p \
                      WHERE p.game_id = g.id) AS phases, \
                    (SELECT coalesce(max(a.id), 0) FROM archive a \
                      WHERE a.game_id = g.id) AS archive_id \
             FROM games g) \
         SELECT s.id, s.name, s.state, s.private, s.phases, s.archive_id, \
                w.phases, w.archive_id, w.state, \
                CASE WHEN w.archive_id IS NULL OR s.archive_id <= w.archive_id THEN 0 \
                     ELSE EXISTS (SELECT 1 FROM archive a WHERE a.game_id = s.id \
                                  AND a.id > w.archive_id AND a.kind = 'notice') END \
         FROM s LEFT JOIN web_published w ON w.game_id = s.id \
         ORDER BY s.name, s.id",
    )?;
    let rows = stmt.query_map([], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A game's row in the archive's list of games: the facts the row shows,
/// kept (as JSON) so that the list is made again without reading every
/// game. The page templates lay it out.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct IndexRow {
    pub name: String,
    pub variant: String,
    /// As the store words it: "active", "finished", ...
    pub state: String,
    /// The phase now being played (or the last one played): `S1901M`.
    pub phase: Option<String>,
    pub year: Option<u16>,
    /// The powers that are played, with their centres now.
    pub centres: Vec<PowerCentres>,
    /// How the game ended, in words.
    pub result: Option<String>,
    /// When the game last changed: the list is newest first.
    pub activity: i64,
    /// Finished or terminated: listed apart.
    pub over: bool,
}

/// A power ("England") and its count of supply centres.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PowerCentres {
    pub power: String,
    pub centres: usize,
}

/// Records that the game's pages now show `published`, and its row in
/// the list of games.
pub fn set_web_published(
    conn: &Connection,
    game_id: i64,
    published: &Published,
    row: &IndexRow,
    now: i64,
) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO web_published (game_id, phases, archive_id, state, row_facts, activity, \
                                    over, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) \
         ON CONFLICT (game_id) DO UPDATE SET phases = excluded.phases, \
             archive_id = excluded.archive_id, state = excluded.state, \
             row_facts = excluded.row_facts, activity = excluded.activity, \
             over = excluded.over, updated_at = excluded.updated_at",
    )?
    .execute(params![
        game_id,
        published.phases,
        published.archive_id,
        published.state,
        serde_json::to_string(row)?,
        row.activity,
        row.over,
        now
    ])?;
    Ok(())
}

/// A game's row in the list of games as the store keeps it: its facts
/// as JSON text, read back only when the row must be laid out anew (the
/// web pass keeps the rows it laid out, by this text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredRow {
    pub facts: String,
    /// Finished or terminated: listed apart.
    pub over: bool,
}

impl StoredRow {
    pub fn of(row: &IndexRow) -> Result<StoredRow> {
        Ok(StoredRow {
            facts: serde_json::to_string(row)?,
            over: row.over,
        })
    }

    pub fn row(&self) -> Result<IndexRow> {
        Ok(serde_json::from_str(&self.facts)?)
    }
}

/// The rows of every published game, newest activity first.
pub fn index_rows(conn: &Connection) -> Result<Vec<StoredRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT w.row_facts, w.over FROM web_published w \
         JOIN games g ON g.id = w.game_id ORDER BY w.activity DESC, g.name",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(StoredRow {
            facts: r.get(0)?,
            over: r.get(1)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Forgets what was published of the game (its pages were removed).
pub fn forget_web_published(conn: &Connection, game_id: i64) -> Result<()> {
    conn.execute("DELETE FROM web_published WHERE game_id = ?1", [game_id])?;
    Ok(())
}
