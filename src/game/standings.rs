//! The standings of a game stopped before anyone won: at its short game's
//! last year, at its bell (SET END <date and time>), or by the Master's
//! TERMINATE. Each player's centres and pieces, and who leads by the
//! game's measure (pieces on the board, rulebook III, or supply centres,
//! SET END ... BY CENTRES), ties named as ties.

use std::cmp::Reverse;

use super::power_of;
use super::settings::WinBy;
use crate::engine::map::Power;
use crate::engine::position::Position;
use crate::say;
use crate::store::seats::Seat;

/// The players, as the countries each holds (a bloc in games for fewer
/// players; one country each otherwise).
pub fn players(seats: &[Seat]) -> Vec<Vec<Power>> {
    let mut blocs: Vec<Vec<Power>> = Vec::new();
    let mut keys: Vec<i64> = Vec::new();
    for seat in seats.iter().filter(|s| s.power.is_some()) {
        let key = seat.bloc.unwrap_or(seat.id);
        let power = power_of(seat).expect("an assigned seat");
        match keys.iter().position(|&k| k == key) {
            Some(i) => blocs[i].push(power),
            None => {
                keys.push(key);
                blocs.push(vec![power]);
            }
        }
    }
    blocs
}

/// One player's line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    pub powers: Vec<Power>,
    pub centres: usize,
    pub pieces: usize,
}

impl Standing {
    /// What the game's measure counts of this player.
    fn count(&self, by: WinBy) -> usize {
        match by {
            WinBy::Pieces => self.pieces,
            WinBy::Centres => self.centres,
        }
    }

    /// "France"; "the player of Italy and Russia".
    fn name(&self) -> String {
        let names: Vec<&str> = self.powers.iter().map(|p| p.name()).collect();
        match names.len() {
            1 => names[0].to_string(),
            _ => say!("process.player_of", powers => super::join_names(&names)),
        }
    }
}

/// Every player's centres and pieces in `position`, the leaders first by
/// the measure `by` (then by the other, then in the powers' order).
pub fn standings(position: &Position, blocs: &[Vec<Power>], by: WinBy) -> Vec<Standing> {
    let mut rows: Vec<Standing> = blocs
        .iter()
        .map(|bloc| Standing {
            powers: bloc.clone(),
            centres: bloc.iter().map(|&p| position.centre_count(p)).sum(),
            pieces: bloc.iter().map(|&p| position.unit_count(p)).sum(),
        })
        .collect();
    let other = match by {
        WinBy::Pieces => WinBy::Centres,
        WinBy::Centres => WinBy::Pieces,
    };
    rows.sort_by_key(|r| (Reverse(r.count(by)), Reverse(r.count(other))));
    rows
}

/// Who leads by `by` among the players still in the game: "France wins,
/// with 9 supply centres"; "England and France tie with 7 supply centres
/// each, and share the win"; a game terminated (`lead`) names who leads.
pub fn verdict(rows: &[Standing], by: WinBy, lead: bool) -> String {
    let alive = || rows.iter().filter(|r| r.pieces > 0 || r.centres > 0);
    let best = alive().map(|r| r.count(by)).max().unwrap_or(0);
    let leaders: Vec<String> = alive()
        .filter(|r| r.count(by) == best)
        .map(Standing::name)
        .collect();
    let names: Vec<&str> = leaders.iter().map(String::as_str).collect();
    say!("process.verdict", leaders => super::join_names(&names),
         tie => leaders.len() > 1, best, centres => by == WinBy::Centres, lead)
}

/// The table: a heading, then a line per player, the leaders first.
pub fn table(rows: &[Standing], by: WinBy) -> String {
    let mut out = vec![say!("process.standings_heading", centres => by == WinBy::Centres)];
    let width = rows.iter().map(|r| r.name().len()).max().unwrap_or(0) + 1;
    for r in rows {
        let name = format!("{:<width$}", format!("{}:", r.name()));
        out.push(say!("process.standings_row", name, centres => r.centres,
                      pieces => r.pieces));
    }
    out.join("\n")
}
