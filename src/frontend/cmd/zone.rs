//! SET ZONE: the time zone a player or Master sees deadlines in, beside
//! UTC; and the zone each recipient's mail is written for.

use chrono_tz::Tz;
use rusqlite::Connection;

use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::clock::read_zone;
use crate::game::settings_of;
use crate::store::{self, games::Game, StoreError};

const FORM: &str = "Write SET ZONE <IANA time zone>, e.g. SET ZONE Europe/Amsterdam \
                    (SET ZONE UTC or SET NOZONE: UTC only).";

/// SET ZONE <zone> (`clear`: SET NOZONE).
pub fn set_zone(
    s: &mut Session<'_>,
    line: &Line,
    rest: &str,
    clear: bool,
) -> Result<(), StoreError> {
    let address = match &s.signed {
        Some(Signed::Player { seat, .. }) => seat.address.clone(),
        Some(Signed::Master { game }) => game.master_address.clone().unwrap_or_else(|| s.sender()),
        _ => {
            s.reply.refuse(
                line,
                "SET ZONE needs a sign-on first: SIGNON <initial><game> <password>, then SET ZONE Europe/Amsterdam.",
            );
            return Ok(());
        }
    };
    let name = rest.trim();
    let zone = match (clear, name) {
        (true, "") => None,
        (false, "") => return refuse(s, line, "SET ZONE names no time zone."),
        (true, _) => return refuse(s, line, "SET NOZONE takes nothing after it."),
        (false, name) => match read_zone(name) {
            Some(chrono_tz::UTC) => None,
            Some(zone) => Some(zone),
            None => {
                return refuse(s, line, &format!("'{name}' is not an IANA time zone."));
            }
        },
    };
    store::zones::set_zone(s.tx, &address, zone.map(|z| z.name()))?;
    let said = match zone {
        Some(z) => format!(
            "Deadlines in your mails are shown in UTC and, beside it, in {}.",
            z.name()
        ),
        None => "Deadlines in your mails are shown in UTC.".to_string(),
    };
    s.reply.ok(line, said);
    Ok(())
}

fn refuse(s: &mut Session<'_>, line: &Line, why: &str) -> Result<(), StoreError> {
    s.reply.refuse(line, format!("{why} {FORM}"));
    Ok(())
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
