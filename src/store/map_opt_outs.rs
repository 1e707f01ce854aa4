//! SET MAPS: who wants no map in their results mails.

use rusqlite::{params, Connection};

use super::Result;

/// Records `address`'s choice for the game: maps (`on`) or none.
pub fn set_wants_maps(conn: &Connection, game_id: i64, address: &str, on: bool) -> Result<()> {
    if on {
        conn.prepare_cached("DELETE FROM map_optouts WHERE game_id = ?1 AND address = ?2")?
            .execute(params![game_id, address])?;
    } else {
        conn.prepare_cached(
            "INSERT OR IGNORE INTO map_optouts (game_id, address) VALUES (?1, ?2)",
        )?
        .execute(params![game_id, address])?;
    }
    Ok(())
}

/// The addresses (lower case) that asked for no maps in the game.
pub fn opted_out(conn: &Connection, game_id: i64) -> Result<Vec<String>> {
    let mut stmt =
        conn.prepare_cached("SELECT lower(address) FROM map_optouts WHERE game_id = ?1")?;
    let rows = stmt.query_map([game_id], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn maps_off_and_on_again() {
        let store = Store::open_in_memory().unwrap();
        let conn = store.conn();
        conn.execute(
            "INSERT INTO games (id, name, created_at) VALUES (1, 'g', 0)",
            [],
        )
        .unwrap();
        let game = 1;
        set_wants_maps(conn, game, "Al@Example.net", false).unwrap();
        set_wants_maps(conn, game, "al@example.net", false).unwrap();
        assert_eq!(opted_out(conn, game).unwrap(), ["al@example.net"]);
        set_wants_maps(conn, game, "AL@example.NET", true).unwrap();
        assert!(opted_out(conn, game).unwrap().is_empty());
    }
}
