//! `judge archive [--rebuild] [game]`: writes the web archive from the
//! database — what the pages lack (as `judge run`'s web pass does), or
//! with `--rebuild` every page again, the games spread over a thread per
//! core, each with a read-only connection of its own. Prints what it
//! wrote.

use crate::config::Config;
use crate::store::{self, web::WebState, Store};
use crate::web::{index_or_forget, published_now, remove_game, write_games, Site};

pub struct Options {
    /// Every page again, not only what is missing.
    pub rebuild: bool,
    /// One game only (the top index is written too).
    pub game: Option<String>,
    /// Threads for `--rebuild` (default: one per core).
    pub threads: Option<usize>,
    /// The time recorded as the publishing's.
    pub now: i64,
}

/// What a run wrote, a line each, and what it could not write (the rest
/// was written all the same).
pub struct Written {
    pub lines: Vec<String>,
    pub failures: Vec<String>,
}

/// Writes the archive; an error only when nothing could be done (no
/// database, no such game).
pub fn run(config: &Config, options: &Options) -> Result<Written, String> {
    if !config.database_path().exists() {
        return Err(format!(
            "there is no database {}: nothing to publish",
            config.database_path().display()
        ));
    }
    let mut store = Store::open(config.database_path()).map_err(|e| {
        format!(
            "cannot open the database {}: {e}",
            config.database_path().display()
        )
    })?;
    // The page templates first: a broken one is reported before anything
    // is written.
    let site = Site::of(config).map_err(|e| e.to_string())?;
    // One process writes the archive at a time: wait for a `judge run`'s
    // web pass to finish.
    let _lock = web_lock(config)?;
    let conn = store.conn();
    let mut states = store::web::web_states(conn).map_err(|e| e.to_string())?;
    if let Some(name) = &options.game {
        states.retain(|s| s.name.eq_ignore_ascii_case(name));
        if states.is_empty() {
            return Err(format!("there is no game named '{name}'"));
        }
    }
    let mut lines = Vec::new();
    let mut failures = Vec::new();
    for state in states.iter().filter(|s| s.private) {
        match remove_game(&site, &state.name) {
            Ok(removed) => {
                store::web::forget_web_published(conn, state.game_id).map_err(|e| e.to_string())?;
                if removed {
                    lines.push(format!("removed {}/ (the game is private)", state.name));
                }
            }
            Err(e) => failures.push(format!("game '{}': {e}", state.name)),
        }
    }
    let chosen: Vec<&WebState> = states
        .iter()
        .filter(|s| !s.private && (options.rebuild || s.is_stale()))
        .collect();
    let threads = options
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let written = write_games(
        conn,
        &config.database_path(),
        &site,
        &chosen,
        options.rebuild,
        threads.max(1),
    );
    let (mut games, mut phases) = (0, 0);
    let mut done = Vec::new();
    // One write for every game's record.
    let tx = store.transaction().map_err(|e| e.to_string())?;
    for (state, outcome) in written {
        match outcome {
            Ok(written) => {
                let n = written.phases;
                store::web::set_web_published(
                    &tx,
                    state.game_id,
                    &published_now(state),
                    &written.row,
                    options.now,
                )
                .map_err(|e| e.to_string())?;
                lines.push(format!("wrote {}/ ({n} phase page(s))", state.name));
                (games, phases) = (games + 1, phases + n);
                done.push(state.game_id);
            }
            Err(e) => failures.push(format!("game '{}': {e}", state.name)),
        }
    }
    tx.commit().map_err(|e| e.to_string())?;
    // As in the web pass: on a failure the games written count as not yet
    // published, so the next run (or pass) writes them again.
    match index_or_forget(store.conn(), &site, &done).map_err(|e| e.to_string())? {
        None => lines.push(format!(
            "wrote index.html; {games} game(s), {phases} phase page(s) written now"
        )),
        Some(failure) => failures.push(failure),
    }
    Ok(Written { lines, failures })
}

/// The web pass's lock (`judge.db-web`), waited for; let go when dropped.
fn web_lock(config: &Config) -> Result<std::fs::File, String> {
    let path = config.web_lock_path();
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| format!("cannot open the web lock {}: {e}", path.display()))?;
    file.lock()
        .map_err(|e| format!("cannot take the web lock {}: {e}", path.display()))?;
    Ok(file)
}
