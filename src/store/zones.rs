//! SET ZONE: the time zone an address sees deadlines in, beside UTC.

use rusqlite::{params, Connection, OptionalExtension};

use super::Result;

/// Records `address`'s time zone (an IANA name), or clears it (`None`).
pub fn set_zone(conn: &Connection, address: &str, zone: Option<&str>) -> Result<()> {
    match zone {
        Some(zone) => conn.execute(
            "INSERT INTO player_zones (address, zone) VALUES (?1, ?2) \
             ON CONFLICT (address) DO UPDATE SET zone = excluded.zone",
            params![address, zone],
        )?,
        None => conn.execute("DELETE FROM player_zones WHERE address = ?1", [address])?,
    };
    Ok(())
}

/// A player's address of record changes from `old` to `new` (SET
/// ADDRESS): `new` takes `old`'s zone unless it has one of its own. `old`
/// keeps its zone: the address may still play, master or observe other
/// games.
pub fn carry_zone(conn: &Connection, old: &str, new: &str) -> Result<()> {
    conn.execute(
        "INSERT INTO player_zones (address, zone) \
         SELECT ?2, zone FROM player_zones WHERE address = ?1 \
         ON CONFLICT (address) DO NOTHING",
        params![old, new],
    )?;
    Ok(())
}

/// The time zone `address` set, if any.
pub fn zone_of(conn: &Connection, address: &str) -> Result<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT zone FROM player_zones WHERE address = ?1")?
        .query_row([address], |r| r.get(0))
        .optional()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn zone_set_changed_and_cleared() {
        let store = Store::open_in_memory().unwrap();
        let conn = store.conn();
        set_zone(conn, "Al@Example.net", Some("Europe/Amsterdam")).unwrap();
        set_zone(conn, "al@example.net", Some("Asia/Tokyo")).unwrap();
        assert_eq!(
            zone_of(conn, "AL@example.NET").unwrap().as_deref(),
            Some("Asia/Tokyo")
        );
        set_zone(conn, "al@example.net", None).unwrap();
        assert_eq!(zone_of(conn, "al@example.net").unwrap(), None);
    }

    #[test]
    fn a_new_address_takes_the_old_ones_zone_unless_it_has_its_own() {
        let store = Store::open_in_memory().unwrap();
        let conn = store.conn();
        set_zone(conn, "al@example.net", Some("Europe/Amsterdam")).unwrap();
        carry_zone(conn, "al@example.net", "al@new.example").unwrap();
        assert_eq!(
            zone_of(conn, "al@new.example").unwrap().as_deref(),
            Some("Europe/Amsterdam")
        );
        set_zone(conn, "bo@example.net", Some("Asia/Tokyo")).unwrap();
        carry_zone(conn, "al@example.net", "bo@example.net").unwrap();
        assert_eq!(
            zone_of(conn, "bo@example.net").unwrap().as_deref(),
            Some("Asia/Tokyo")
        );
        carry_zone(conn, "nobody@example.net", "cy@example.net").unwrap();
        assert_eq!(zone_of(conn, "cy@example.net").unwrap(), None);
    }
}
