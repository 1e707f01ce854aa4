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

/// The time zone `address` set, if any.
pub fn zone_of(conn: &Connection, address: &str) -> Result<Option<String>> {
    Ok(conn
        .query_row(
            "SELECT zone FROM player_zones WHERE address = ?1",
            [address],
            |r| r.get(0),
        )
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
}
