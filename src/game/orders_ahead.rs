//! njudge's `PHASE <phase>`: orders given ahead for a later phase, stored
//! as written after the power's earlier blocks for it (`CLEAR` in the
//! block clears those first); `game::preorders` enters them when the
//! phase begins.

use rusqlite::Connection;

use super::{Game, StoreError};
use crate::engine::map::Power;
use crate::engine::phase::Phase;
use crate::store;

/// What became of the lines stored before for the phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stored {
    /// Lines the block's CLEAR removed.
    pub cleared: usize,
    /// Lines kept, before the new ones.
    pub kept: usize,
}

/// Stores `lines` for `power` in `phase`, after clearing what was stored
/// before when the block said CLEAR.
pub fn store_ahead(
    conn: &Connection,
    game: &Game,
    (power, phase): (Power, Phase),
    lines: &[String],
    clear: bool,
    now: i64,
) -> Result<Stored, StoreError> {
    let key = phase.to_string();
    let cleared = if clear {
        store::preorders::replace_preorders(conn, game.id, power.upper(), &key, &[], now)?
    } else {
        0
    };
    let kept = store::preorders::add_preorders(conn, game.id, power.upper(), &key, lines, now)?;
    Ok(Stored { cleared, kept })
}
