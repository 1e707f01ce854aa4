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

/// The zone `address` reads a mail in: their own (SET ZONE), else
/// `game_zone` (the zone of the game's schedules, see [`game_zone`]: read
/// once for a mail to many), else none (UTC only).
pub fn zone_for(
    conn: &Connection,
    game_zone: Option<Tz>,
    address: &str,
) -> Result<Option<Tz>, StoreError> {
    match store::zones::zone_of(conn, address)? {
        Some(own) => Ok(own.parse::<Tz>().ok()),
        None => Ok(game_zone),
    }
}

/// The zone of `game`'s schedules, if they name one.
pub fn game_zone(game: &Game) -> Option<Tz> {
    let settings = settings_of(game).ok()?;
    let zone = [&settings.movement, &settings.retreat, &settings.adjustment]
        .into_iter()
        .find_map(|s| s.zone.as_deref())
        .and_then(|z| z.parse::<Tz>().ok());
    zone
}
