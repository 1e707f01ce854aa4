//! Seats (a power and the player holding it: the account), who held which
//! power when, absences, and observers.

use rusqlite::{params, Connection, OptionalExtension, Row};

use super::password::PasswordHash;
use super::{expect_one, text_enum, unique_as_duplicate, Result};

text_enum! {
    /// A seat's standing.
    SeatStatus {
        /// Joined a forming game; no power yet.
        Forming = "forming",
        Active = "active",
        /// Past the deadline without complete orders.
        Late = "late",
        /// The player left or vanished (NoNMR: the game waits for a
        /// replacement).
        Abandoned = "abandoned",
        /// Nobody plays it; its units hold (NMR after grace).
        CivilDisorder = "civil_disorder",
        Resigned = "resigned",
        /// No units and no centres left.
        Eliminated = "eliminated",
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Seat {
    pub id: i64,
    pub game_id: i64,
    /// Upper-case power name; None until the game starts.
    pub power: Option<String>,
    pub address: String,
    pub password: PasswordHash,
    pub status: SeatStatus,
    pub preferences: Option<String>,
    /// SET WAIT.
    pub wait: bool,
    /// SET DRAW: the vote as `game::draw_votes` keeps it ("ALL", or "POWERS"
    /// and the powers' names); cleared when the phase is processed.
    pub draw_vote: Option<String>,
    pub joined_at: i64,
    /// The first seat of the player's bloc in a game for fewer players.
    pub bloc: Option<i64>,
    /// SET CONCEDE: the power conceded to.
    pub concede_to: Option<String>,
}

/// What it takes to add a seat.
#[derive(Clone, Debug)]
pub struct NewSeat<'a> {
    pub game_id: i64,
    pub power: Option<&'a str>,
    pub address: &'a str,
    pub password: &'a PasswordHash,
    pub status: SeatStatus,
    pub preferences: Option<&'a str>,
}

const COLUMNS: &str = "id, game_id, power, address, password_hash, status, preferences, wait, \
                       draw_vote, joined_at, bloc, concede_to";

fn from_row(r: &Row<'_>) -> rusqlite::Result<Seat> {
    Ok(Seat {
        id: r.get(0)?,
        game_id: r.get(1)?,
        power: r.get(2)?,
        address: r.get(3)?,
        password: r.get(4)?,
        status: r.get(5)?,
        preferences: r.get(6)?,
        wait: r.get(7)?,
        draw_vote: r.get(8)?,
        joined_at: r.get(9)?,
        bloc: r.get(10)?,
        concede_to: r.get(11)?,
    })
}

/// Adds a seat; its id. [`StoreError::Duplicate`] if the power is taken.
///
/// [`StoreError::Duplicate`]: super::StoreError::Duplicate
pub fn add_seat(conn: &Connection, seat: &NewSeat<'_>, now: i64) -> Result<i64> {
    conn.prepare_cached(
        "INSERT INTO seats \
         (game_id, power, address, password_hash, status, preferences, joined_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        seat.game_id,
        seat.power,
        seat.address,
        seat.password,
        seat.status,
        seat.preferences,
        now
    ])
    .map_err(|e| unique_as_duplicate(e, || format!("power {:?}", seat.power)))?;
    Ok(conn.last_insert_rowid())
}

pub fn seat_by_id(conn: &Connection, seat_id: i64) -> Result<Option<Seat>> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM seats WHERE id = ?1"))?
        .query_row([seat_id], from_row)
        .optional()?)
}

/// The seat of `power` (upper case) in the game.
pub fn seat_by_power(conn: &Connection, game_id: i64, power: &str) -> Result<Option<Seat>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM seats WHERE game_id = ?1 AND power = ?2"
        ))?
        .query_row(params![game_id, power], from_row)
        .optional()?)
}

/// The game's seats: by power, then (unassigned) by joining order.
pub fn seats_of_game(conn: &Connection, game_id: i64) -> Result<Vec<Seat>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM seats WHERE game_id = ?1 ORDER BY power IS NULL, power, id"
    ))?;
    let rows = stmt.query_map([game_id], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

fn update(conn: &Connection, seat_id: i64, sql: &str, value: &dyn rusqlite::ToSql) -> Result<()> {
    let n = conn.prepare_cached(sql)?.execute(params![seat_id, value])?;
    expect_one(n, || format!("seat #{seat_id}"))
}

/// Gives a forming seat its power at the start of the game, makes it active
/// and opens its history from `phase`.
pub fn assign_power(conn: &Connection, seat_id: i64, power: &str, phase: &str) -> Result<()> {
    let n = conn
        .prepare_cached("UPDATE seats SET power = ?2, status = 'active' WHERE id = ?1")?
        .execute(params![seat_id, power])
        .map_err(|e| unique_as_duplicate(e, || format!("power {power:?}")))?;
    expect_one(n, || format!("seat #{seat_id}"))?;
    conn.prepare_cached(
        "INSERT INTO seat_history (game_id, power, address, from_phase) \
         SELECT game_id, power, address, ?2 FROM seats WHERE id = ?1",
    )?
    .execute(params![seat_id, phase])?;
    Ok(())
}

/// A new player takes over the seat from `phase`: new address and password,
/// active, WAIT and DRAW cleared, the old player's team gone; the seat history closes the previous
/// player's time at `phase` and opens the new one's.
pub fn replace_player(
    conn: &Connection,
    seat_id: i64,
    address: &str,
    password: &PasswordHash,
    phase: &str,
) -> Result<()> {
    close_tenure(conn, seat_id, phase)?;
    let n = conn
        .prepare_cached(
            "UPDATE seats SET address = ?2, password_hash = ?3, status = 'active', wait = 0, \
                          draw_vote = NULL \
         WHERE id = ?1",
        )?
        .execute(params![seat_id, address, password])?;
    expect_one(n, || format!("seat #{seat_id}"))?;
    drop_team(conn, seat_id)?;
    conn.prepare_cached(
        "INSERT INTO seat_history (game_id, power, address, from_phase) \
         SELECT game_id, power, address, ?2 FROM seats WHERE id = ?1 AND power IS NOT NULL",
    )?
    .execute(params![seat_id, phase])?;
    Ok(())
}

/// The seat's team (`teams`) goes with its player: a newcomer or nobody
/// plays it from now on.
fn drop_team(conn: &Connection, seat_id: i64) -> Result<()> {
    conn.prepare_cached("DELETE FROM seat_addresses WHERE seat_id = ?1")?
        .execute([seat_id])?;
    Ok(())
}

/// Closes the seat's current player's time at `phase`.
fn close_tenure(conn: &Connection, seat_id: i64, phase: &str) -> Result<()> {
    conn.prepare_cached(
        "UPDATE seat_history SET to_phase = ?2 \
         WHERE to_phase IS NULL AND (game_id, power) = \
               (SELECT game_id, power FROM seats WHERE id = ?1)",
    )?
    .execute(params![seat_id, phase])?;
    Ok(())
}

/// Closes the open history rows of the game at `phase` (its last phase).
pub fn close_seat_history(conn: &Connection, game_id: i64, phase: &str) -> Result<()> {
    conn.prepare_cached(
        "UPDATE seat_history SET to_phase = ?2 WHERE game_id = ?1 AND to_phase IS NULL",
    )?
    .execute(params![game_id, phase])?;
    Ok(())
}

pub fn set_seat_status(conn: &Connection, seat_id: i64, status: SeatStatus) -> Result<()> {
    update(
        conn,
        seat_id,
        "UPDATE seats SET status = ?2 WHERE id = ?1",
        &status,
    )
}

pub fn set_seat_preferences(
    conn: &Connection,
    seat_id: i64,
    preferences: Option<&str>,
) -> Result<()> {
    update(
        conn,
        seat_id,
        "UPDATE seats SET preferences = ?2 WHERE id = ?1",
        &preferences,
    )
}

/// SET WAIT / SET NOWAIT.
pub fn set_seat_wait(conn: &Connection, seat_id: i64, wait: bool) -> Result<()> {
    update(
        conn,
        seat_id,
        "UPDATE seats SET wait = ?2 WHERE id = ?1",
        &wait,
    )
}

/// SET DRAW (`vote` as `game::draw_votes::encode` writes it: "ALL" or
/// "POWERS A B ...") or, with `vote` None, SET NODRAW. (The `draw_powers`
/// column is no longer used: the powers of a draw are in the vote.)
pub fn set_seat_draw(conn: &Connection, seat_id: i64, vote: Option<&str>) -> Result<()> {
    update(
        conn,
        seat_id,
        "UPDATE seats SET draw_vote = ?2 WHERE id = ?1",
        &vote,
    )
}

/// Clears every WAIT of the game (after a phase is processed).
pub fn clear_waits(conn: &Connection, game_id: i64) -> Result<usize> {
    Ok(conn
        .prepare_cached("UPDATE seats SET wait = 0 WHERE game_id = ?1 AND wait = 1")?
        .execute([game_id])?)
}

/// One player's time at one power.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatTenure {
    pub power: String,
    pub address: String,
    pub from_phase: String,
    /// None: still playing.
    pub to_phase: Option<String>,
}

/// Who held which power, from when to when: by power, in order.
pub fn seat_history(conn: &Connection, game_id: i64) -> Result<Vec<SeatTenure>> {
    let mut stmt = conn.prepare_cached(
        "SELECT power, address, from_phase, to_phase FROM seat_history \
         WHERE game_id = ?1 ORDER BY power, id",
    )?;
    let rows = stmt.query_map([game_id], |r| {
        Ok(SeatTenure {
            power: r.get(0)?,
            address: r.get(1)?,
            from_phase: r.get(2)?,
            to_phase: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

// Absences --------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Absence {
    pub id: i64,
    pub seat_id: i64,
    pub starts: i64,
    pub ends: i64,
}

/// Records that the seat's player is away from `starts` to `ends`.
pub fn add_absence(conn: &Connection, seat_id: i64, starts: i64, ends: i64) -> Result<i64> {
    conn.prepare_cached("INSERT INTO absences (seat_id, starts, ends) VALUES (?1, ?2, ?3)")?
        .execute(params![seat_id, starts, ends])?;
    Ok(conn.last_insert_rowid())
}

/// The absences of the game's seats that have not ended by `now`, by start.
pub fn absences_of_game(conn: &Connection, game_id: i64, now: i64) -> Result<Vec<Absence>> {
    let mut stmt = conn.prepare_cached(
        "SELECT a.id, a.seat_id, a.starts, a.ends FROM absences a \
         JOIN seats s ON s.id = a.seat_id \
         WHERE s.game_id = ?1 AND a.ends > ?2 ORDER BY a.starts, a.id",
    )?;
    let rows = stmt.query_map(params![game_id, now], |r| {
        Ok(Absence {
            id: r.get(0)?,
            seat_id: r.get(1)?,
            starts: r.get(2)?,
            ends: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Cancels the seat's absences not over by `now`: those to come go, one
/// under way ends now. How many.
pub fn cancel_absences(conn: &Connection, seat_id: i64, now: i64) -> Result<usize> {
    let gone = conn
        .prepare_cached("DELETE FROM absences WHERE seat_id = ?1 AND starts >= ?2")?
        .execute(params![seat_id, now])?;
    let cut = conn
        .prepare_cached(
            "UPDATE absences SET ends = ?2 WHERE seat_id = ?1 AND starts < ?2 AND ends > ?2",
        )?
        .execute(params![seat_id, now])?;
    Ok(gone + cut)
}

/// Cancels the seat's absences that include `t` (njudge's `SET NOABSENCE
/// <date>`): one not begun by `now` goes, one under way ends at `now`.
/// Returns the cancelled absences as they were announced.
pub fn cancel_absences_at(
    conn: &Connection,
    seat_id: i64,
    t: i64,
    now: i64,
) -> Result<Vec<(i64, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT starts, ends FROM absences WHERE seat_id = ?1 AND starts <= ?2 AND ends > ?2 \
         AND ends > ?3 ORDER BY starts",
    )?;
    let covering: Vec<(i64, i64)> = stmt
        .query_map(params![seat_id, t, now], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    conn.prepare_cached(
        "DELETE FROM absences WHERE seat_id = ?1 AND starts <= ?2 AND ends > ?2 \
         AND starts >= ?3",
    )?
    .execute(params![seat_id, t, now])?;
    conn.prepare_cached(
        "UPDATE absences SET ends = ?3 WHERE seat_id = ?1 AND starts <= ?2 AND ends > ?2 \
         AND starts < ?3 AND ends > ?3",
    )?
    .execute(params![seat_id, t, now])?;
    Ok(covering)
}

// Observers -------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
pub struct Observer {
    pub id: i64,
    pub game_id: i64,
    pub address: String,
    pub password: PasswordHash,
    pub joined_at: i64,
}

/// Adds an observer; None if that address (any case) already observes.
pub fn add_observer(
    conn: &Connection,
    game_id: i64,
    address: &str,
    password: &PasswordHash,
    now: i64,
) -> Result<Option<i64>> {
    let n = conn
        .prepare_cached(
            "INSERT INTO observers (game_id, address, password_hash, joined_at) \
         VALUES (?1, ?2, ?3, ?4) ON CONFLICT (game_id, address) DO NOTHING",
        )?
        .execute(params![game_id, address, password, now])?;
    Ok((n == 1).then(|| conn.last_insert_rowid()))
}

/// Removes the observer; whether there was one.
pub fn remove_observer(conn: &Connection, game_id: i64, address: &str) -> Result<bool> {
    let n = conn
        .prepare_cached("DELETE FROM observers WHERE game_id = ?1 AND address = ?2")?
        .execute(params![game_id, address])?;
    Ok(n > 0)
}

/// The game's observers, in joining order.
pub fn observers_of_game(conn: &Connection, game_id: i64) -> Result<Vec<Observer>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, game_id, address, password_hash, joined_at FROM observers \
         WHERE game_id = ?1 ORDER BY id",
    )?;
    let rows = stmt.query_map([game_id], |r| {
        Ok(Observer {
            id: r.get(0)?,
            game_id: r.get(1)?,
            address: r.get(2)?,
            password: r.get(3)?,
            joined_at: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

pub fn observer_by_address(
    conn: &Connection,
    game_id: i64,
    address: &str,
) -> Result<Option<Observer>> {
    Ok(conn
        .prepare_cached(
            "SELECT id, game_id, address, password_hash, joined_at FROM observers \
             WHERE game_id = ?1 AND address = ?2",
        )?
        .query_row(params![game_id, address], |r| {
            Ok(Observer {
                id: r.get(0)?,
                game_id: r.get(1)?,
                address: r.get(2)?,
                password: r.get(3)?,
                joined_at: r.get(4)?,
            })
        })
        .optional()?)
}

/// Names `address` an observer of the game (SET OBSERVER <address>);
/// false if it already is one.
pub fn add_named_observer(
    conn: &Connection,
    game_id: i64,
    address: &str,
    now: i64,
) -> Result<bool> {
    let n = conn
        .prepare_cached(
            "INSERT INTO named_observers (game_id, address, added_at) VALUES (?1, ?2, ?3) \
         ON CONFLICT (game_id, address) DO NOTHING",
        )?
        .execute(params![game_id, address, now])?;
    Ok(n == 1)
}

/// Removes the named observer; whether there was one.
pub fn remove_named_observer(conn: &Connection, game_id: i64, address: &str) -> Result<bool> {
    let n = conn
        .prepare_cached("DELETE FROM named_observers WHERE game_id = ?1 AND address = ?2")?
        .execute(params![game_id, address])?;
    Ok(n > 0)
}

/// The addresses the Master named observers of the game, in naming order.
pub fn named_observers_of_game(conn: &Connection, game_id: i64) -> Result<Vec<String>> {
    let mut stmt =
        conn.prepare_cached("SELECT address FROM named_observers WHERE game_id = ?1 ORDER BY id")?;
    let rows = stmt.query_map([game_id], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Removes a seat of a forming game (its player left before the start).
pub fn remove_seat(conn: &Connection, seat_id: i64) -> Result<()> {
    let n = conn
        .prepare_cached("DELETE FROM seats WHERE id = ?1")?
        .execute(params![seat_id])?;
    expect_one(n, || format!("seat {seat_id}"))
}

/// Joins a seat to a bloc: the seats one player holds.
pub fn set_seat_bloc(conn: &Connection, seat_id: i64, bloc: Option<i64>) -> Result<()> {
    update(
        conn,
        seat_id,
        "UPDATE seats SET bloc = ?2 WHERE id = ?1",
        &bloc,
    )
}

/// SET CONCEDE <power> (None: withdrawn).
pub fn set_seat_concession(conn: &Connection, seat_id: i64, to: Option<&str>) -> Result<()> {
    update(
        conn,
        seat_id,
        "UPDATE seats SET concede_to = ?2 WHERE id = ?1",
        &to,
    )
}

/// Clears every concession of a game (after each processing).
/// Clears every draw vote of a game: a vote counts for one phase (njudge).
pub fn clear_draw_votes(conn: &Connection, game_id: i64) -> Result<usize> {
    Ok(conn
        .prepare_cached("UPDATE seats SET draw_vote = NULL WHERE game_id = ?1")?
        .execute(params![game_id])?)
}

pub fn clear_concessions(conn: &Connection, game_id: i64) -> Result<usize> {
    Ok(conn
        .prepare_cached("UPDATE seats SET concede_to = NULL WHERE game_id = ?1")?
        .execute(params![game_id])?)
}

// A player's seats -------------------------------------------------------

/// The seat and, in games for fewer players, every other seat of its bloc:
/// all the countries its player plays. A bloc is one game's, so the game's
/// seats are searched by the (game_id, power) index: without that term the
/// OR made SQLite read every seat of the judge at each sign-on.
const PLAYER_SEATS: &str = "game_id = (SELECT game_id FROM seats WHERE id = ?1) \
     AND (id = ?1 OR (bloc IS NOT NULL AND bloc = (SELECT bloc FROM seats WHERE id = ?1)))";

/// The ids of every seat the player of `seat_id` holds (the seat first).
pub fn player_seat_ids(conn: &Connection, seat_id: i64) -> Result<Vec<i64>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT id FROM seats WHERE {PLAYER_SEATS} ORDER BY id <> ?1, id"
    ))?;
    let rows = stmt.query_map([seat_id], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// SET PASSWORD: the new password for every country of the player.
pub fn set_player_password(conn: &Connection, seat_id: i64, password: &PasswordHash) -> Result<()> {
    conn.prepare_cached(&format!(
        "UPDATE seats SET password_hash = ?2 WHERE {PLAYER_SEATS}"
    ))?
    .execute(params![seat_id, password])?;
    Ok(())
}

/// SET ADDRESS: the new address for every country of the player.
pub fn set_player_address(conn: &Connection, seat_id: i64, address: &str) -> Result<()> {
    conn.prepare_cached(&format!(
        "UPDATE seats SET address = ?2 WHERE {PLAYER_SEATS}"
    ))?
    .execute(params![seat_id, address])?;
    Ok(())
}

/// The player of `seat_id` signs on again: every country of theirs that
/// was late, abandoned or in civil disorder is active again. How many
/// came back from abandonment or civil disorder.
pub fn bring_player_back(conn: &Connection, seat_id: i64) -> Result<usize> {
    let back = conn
        .prepare_cached(&format!(
            "SELECT count(*) FROM seats WHERE ({PLAYER_SEATS}) \
             AND status IN ('abandoned', 'civil_disorder')"
        ))?
        .query_row([seat_id], |r| r.get::<_, i64>(0))?;
    conn.prepare_cached(&format!(
        "UPDATE seats SET status = 'active' WHERE ({PLAYER_SEATS}) \
             AND status IN ('abandoned', 'civil_disorder', 'late')"
    ))?
    .execute([seat_id])?;
    Ok(back as usize)
}

/// The address of a seat nobody holds: never mailed, never signed on.
pub const VACANT: &str = "";

/// The player leaves the seat for good (ejected, resigned) from `phase`:
/// the seat has no address (no more mail; the old password opens
/// nothing), its team goes, its history closes, its WAIT, draw vote and concession go,
/// it leaves its bloc, and it takes `status`.
pub fn vacate_seat(conn: &Connection, seat_id: i64, phase: &str, status: SeatStatus) -> Result<()> {
    close_tenure(conn, seat_id, phase)?;
    let n = conn
        .prepare_cached(
            "UPDATE seats SET address = ?2, status = ?3, wait = 0, draw_vote = NULL, \
                          concede_to = NULL, bloc = NULL \
         WHERE id = ?1",
        )?
        .execute(params![seat_id, VACANT, status])?;
    expect_one(n, || format!("seat #{seat_id}"))?;
    drop_team(conn, seat_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_players_seats_are_its_bloc_in_its_game_found_without_reading_every_seat() {
        let store = crate::store::Store::open_in_memory().unwrap();
        let conn = store.conn();
        let hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA";
        conn.execute_batch(&format!(
            "INSERT INTO games (id, name, created_at) VALUES (1, 'a', 0), (2, 'b', 0); \
             INSERT INTO seats (id, game_id, power, address, password_hash, joined_at, bloc) \
             VALUES (1, 1, 'FRANCE', 'p@x', '{hash}', 0, 1), (2, 1, 'ITALY', 'p@x', '{hash}', 0, 1), \
                    (3, 1, 'RUSSIA', 'r@x', '{hash}', 0, NULL), (4, 2, 'FRANCE', 'q@x', '{hash}', 0, NULL);"
        ))
        .unwrap();
        assert_eq!(player_seat_ids(conn, 2).unwrap(), [2, 1]);
        assert_eq!(player_seat_ids(conn, 3).unwrap(), [3]);
        assert_eq!(player_seat_ids(conn, 4).unwrap(), [4]);
        let plan: Vec<String> = conn
            .prepare(&format!(
                "EXPLAIN QUERY PLAN SELECT id FROM seats WHERE {PLAYER_SEATS}"
            ))
            .unwrap()
            .query_map([1], |r| r.get::<_, String>(3))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert!(
            plan.iter().all(|step| !step.starts_with("SCAN seats")),
            "{plan:?}"
        );
    }
}
