//! Games written over a thread per core, each thread with a read-only
//! connection of its own: a deadline that processed a thousand games
//! writes a thousand games' pages, each apart from the others (its own
//! folder, its own rows read), and the pass waits for all of them.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::{first_to_write, write_game, GameWritten, Site};
use crate::game::Db as Connection;
use crate::store::{self, web::WebState, Store};

/// What writing one game came to: what it wrote, or why not.
pub type Outcome = Result<GameWritten, String>;

/// Writes each of `chosen`, every page (`rebuild`) or what it lacks, in
/// order on `conn` when one thread is enough, else over `threads`
/// threads reading `database`; each game with its outcome, in `chosen`'s
/// order.
pub fn write_games<'s>(
    conn: &Connection,
    database: &Path,
    site: &Site,
    chosen: &[&'s WebState],
    rebuild: bool,
    threads: usize,
) -> Vec<(&'s WebState, Outcome)> {
    let threads = threads.min(chosen.len());
    if threads <= 1 {
        return chosen
            .iter()
            .map(|&state| (state, one_game(conn, site, state, rebuild)))
            .collect();
    }
    let results: Mutex<Vec<(usize, Outcome)>> = Mutex::new(Vec::with_capacity(chosen.len()));
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let store = Store::open_read_only(database);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(state) = chosen.get(i) else { break };
                    let outcome = match &store {
                        Err(e) => Err(format!("cannot open the database: {e}")),
                        Ok(store) => one_game(store.conn(), site, state, rebuild),
                    };
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((i, outcome));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _)| *i);
    results
        .into_iter()
        .map(|(i, outcome)| (chosen[i], outcome))
        .collect()
}

fn one_game(conn: &Connection, site: &Site, state: &WebState, rebuild: bool) -> Outcome {
    let game = store::games::game_by_id(conn, state.game_id)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("game #{} is gone", state.game_id))?;
    let from = if rebuild { 0 } else { first_to_write(state) };
    write_game(conn, site, &game, from).map_err(|e| e.to_string())
}
