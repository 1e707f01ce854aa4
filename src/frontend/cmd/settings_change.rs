//! A change of a game's settings: stored (and the signed-on copy of the
//! game kept up to date), and told to everyone in the game in one notice
//! per mail. Every settings command uses it, so none changes a game
//! without the players hearing of it.

use crate::frontend::session::{Session, Signed};
use crate::game::current;
use crate::game::settings::GameSettings;
use crate::game::{Game, StoreError};
use crate::report::title;
use crate::say;

/// Stores a game's new settings, and keeps the signed-on copy of the game
/// up to date for the commands after this one in the mail.
pub(super) fn save_settings(
    s: &mut Session<'_>,
    game: &Game,
    settings: &GameSettings,
) -> Result<(), StoreError> {
    let text = crate::game::settings::save(s.tx, game.id, settings)?;
    if let Some(
        Signed::Player { game: g, .. } | Signed::Master { game: g } | Signed::Observer { game: g },
    ) = &mut s.signed
    {
        if g.id == game.id {
            g.settings = text;
        }
    }
    Ok(())
}

/// What kind of change a notice to the players tells of.
#[derive(PartialEq)]
pub(super) enum Change {
    Deadline,
    Setting,
}

/// Tells everyone in the game of a change the Master made: one notice per
/// mail, each change a line of it ("Deadline changed" when that is all).
pub(super) fn announce(
    s: &mut Session<'_>,
    game: &Game,
    change: Change,
    said: String,
) -> Result<(), StoreError> {
    let to = crate::game::everyone(s.tx, game)?;
    // Before anyone joined, the Master's reply says it all.
    if to.iter().all(|a| Some(a) == game.master_address.as_ref()) {
        return Ok(());
    }
    let phase = current(s.tx, game.id)?.map(|c| c.record.phase);
    let deadline = s.subject(&game.name, phase.as_deref(), title::DEADLINE_CHANGED);
    let setting = s.subject(&game.name, phase.as_deref(), title::SETTINGS_CHANGED);
    let open = s
        .outgoing
        .iter_mut()
        .find(|m| m.game_id == Some(game.id) && (m.subject == deadline || m.subject == setting));
    match open {
        Some(notice) => {
            notice.body.push_str(&format!("  {said}\n"));
            if change == Change::Setting {
                notice.subject = setting;
            }
        }
        None => {
            let subject = if change == Change::Deadline {
                deadline
            } else {
                setting
            };
            let body = say!("set.notice", game => &game.name, said) + "\n";
            s.send(to, subject, body, Some(game.id));
        }
    }
    Ok(())
}
