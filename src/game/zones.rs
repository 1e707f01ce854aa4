//! Time zones (SET ZONE): the zone an address sees deadlines in beside
//! UTC, kept by address; and the zone each recipient's mail is written for.

use chrono_tz::Tz;
use rusqlite::Connection;

use super::{settings_of, Game};
use crate::store::{self, StoreError};

/// SET ZONE <zone> for `address` (`None`: UTC only).
pub fn set_zone(conn: &Connection, address: &str, zone: Option<Tz>) -> Result<(), StoreError> {
    store::zones::set_zone(conn, address, zone.map(|z| z.name()))
}

/// The zone `address` reads a mail of `game` in: their own (SET ZONE),
/// else the zone of the game's schedules, else none (UTC only).
pub fn zone_for(
    conn: &Connection,
    game: Option<&Game>,
    address: &str,
) -> Result<Option<Tz>, StoreError> {
    if let Some(own) = store::zones::zone_of(conn, address)? {
        return Ok(own.parse::<Tz>().ok());
    }
    let Some(game) = game else {
        return Ok(None);
    };
    let Ok(settings) = settings_of(game) else {
        return Ok(None);
    };
    let zone = [&settings.movement, &settings.retreat, &settings.adjustment]
        .into_iter()
        .find_map(|s| s.zone.as_deref())
        .and_then(|z| z.parse::<Tz>().ok());
    Ok(zone)
}
