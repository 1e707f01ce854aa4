//! SET ZONE: the time zone a player or Master sees deadlines in, beside
//! UTC (`game::zones` keeps it).

use crate::frontend::script::Line;
use crate::frontend::session::{Session, Signed};
use crate::game::clock::read_zone;
use crate::game::{zones, StoreError};
use crate::say;

/// SET ZONE <zone> (`clear`: SET NOZONE).
pub fn set_zone(
    s: &mut Session<'_>,
    line: &Line,
    rest: &str,
    clear: bool,
) -> Result<(), StoreError> {
    let address = match &s.signed {
        Some(Signed::Player { seat, .. }) => super::own_address(s, seat)?,
        Some(Signed::Master { game }) => game.master_address.clone().unwrap_or_else(|| s.sender()),
        _ => {
            s.reply.refuse(line, say!("zone.needs_sign_on"));
            return Ok(());
        }
    };
    let name = rest.trim();
    let zone = match (clear, name) {
        (true, "") => None,
        (false, "") => return refuse(s, line, say!("zone.none_named")),
        (true, _) => return refuse(s, line, say!("zone.nozone_takes_nothing")),
        (false, name) => match read_zone(name) {
            Some(chrono_tz::UTC) => None,
            Some(zone) => Some(zone),
            None => return refuse(s, line, say!("zone.unknown", name)),
        },
    };
    zones::set_zone(s.tx, &address, zone)?;
    let zone = zone.map(|z| z.name());
    s.reply.ok(line, say!("zone.shown", zone));
    Ok(())
}

fn refuse(s: &mut Session<'_>, line: &Line, why: String) -> Result<(), StoreError> {
    s.reply.refuse(line, say!("zone.refused", why));
    Ok(())
}
