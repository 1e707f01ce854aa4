//! Teams: the addresses that play one power together (SET ADDRESS a, b,
//! c), table `seat_addresses`. The seat's address of record
//! (`seats.address`) is one of them; the others get the power's mail once
//! confirmed. A seat without rows is played from its address of record
//! alone.

use rusqlite::{params, Connection};

use super::Result;

/// One address of a team's list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub address: String,
    /// Whether it gets the power's mail (else it waits for its CONFIRM).
    pub confirmed: bool,
}

/// The seat's list, in the order given.
pub fn members(conn: &Connection, seat_id: i64) -> Result<Vec<Member>> {
    let mut stmt = conn.prepare_cached(
        "SELECT address, confirmed_at IS NOT NULL FROM seat_addresses \
         WHERE seat_id = ?1 ORDER BY position",
    )?;
    let rows = stmt.query_map([seat_id], |r| {
        Ok(Member {
            address: r.get(0)?,
            confirmed: r.get(1)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Replaces the list of each seat of `seat_ids` (the seats one player
/// holds) with `members`, in order; a confirmed one is confirmed `now`.
pub fn set_members(
    conn: &Connection,
    seat_ids: &[i64],
    members: &[Member],
    now: i64,
) -> Result<()> {
    for &seat_id in seat_ids {
        conn.prepare_cached("DELETE FROM seat_addresses WHERE seat_id = ?1")?
            .execute([seat_id])?;
        for (position, m) in members.iter().enumerate() {
            conn.prepare_cached(
                "INSERT INTO seat_addresses (seat_id, address, position, confirmed_at) \
                 VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![
                seat_id,
                m.address,
                position as i64,
                m.confirmed.then_some(now)
            ])?;
        }
    }
    Ok(())
}

/// Copies the list of `from` to `to` (a seat added to a player's bloc).
pub fn copy_members(conn: &Connection, from: i64, to: i64) -> Result<()> {
    conn.prepare_cached(
        "INSERT OR REPLACE INTO seat_addresses (seat_id, address, position, confirmed_at) \
         SELECT ?2, address, position, confirmed_at FROM seat_addresses WHERE seat_id = ?1",
    )?
    .execute(params![from, to])?;
    Ok(())
}

/// `address` confirmed it wants the judge's mail: it joins every list
/// that waited for it. The seats whose lists it joined.
pub fn confirm_member(conn: &Connection, address: &str, now: i64) -> Result<Vec<i64>> {
    let mut stmt = conn.prepare_cached(
        "UPDATE seat_addresses SET confirmed_at = ?2 \
         WHERE address = ?1 AND confirmed_at IS NULL RETURNING seat_id",
    )?;
    let rows = stmt.query_map(params![address, now], |r| r.get(0))?;
    let mut seats: Vec<i64> = rows.collect::<rusqlite::Result<_>>()?;
    seats.sort_unstable();
    Ok(seats)
}

/// The confirmed members of the game's teams (lists of more than one
/// address), each with its team: the first seat of the player's bloc.
pub fn teams_of_game(conn: &Connection, game_id: i64) -> Result<Vec<(i64, String)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT coalesce(s.bloc, s.id), a.address FROM seat_addresses a \
         JOIN seats s ON s.id = a.seat_id \
         WHERE s.game_id = ?1 AND a.confirmed_at IS NOT NULL \
           AND (SELECT count(*) FROM seat_addresses b WHERE b.seat_id = a.seat_id) > 1",
    )?;
    let rows = stmt.query_map([game_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The game's seats whose list names `address` (confirmed or not).
pub fn seats_listing(conn: &Connection, game_id: i64, address: &str) -> Result<Vec<i64>> {
    let mut stmt = conn.prepare_cached(
        "SELECT a.seat_id FROM seat_addresses a JOIN seats s ON s.id = a.seat_id \
         WHERE s.game_id = ?1 AND a.address = ?2 ORDER BY a.seat_id",
    )?;
    let rows = stmt.query_map(params![game_id, address], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
