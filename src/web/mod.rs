//! The web archive: every game as static pages under `[web] path`, written
//! by the judge as it plays (the daemon's web pass, after each phase's
//! transaction has committed) and by `judge archive`.
//!
//! - `index.html` (the games, newest activity first; the finished apart)
//!   and `style.css` at the top;
//! - per game, in a folder of its name: `index.html` (the board now with
//!   its phase, deadline and centres; the phases, each with its map small;
//!   centres year by year with a chart, press to everyone, the animated
//!   summary once the game has ended, settings, players), `board.svg`
//!   (the map of the position the next orders are written for: units and
//!   owners, never an order), `<PHASE>.html` and
//!   `<PHASE>.svg` per processed phase (the map with orders and results;
//!   the orders, retreats, centres), `play.html` (every map in turn),
//!   `feed.atom` (an entry per phase with its orders and map), and
//!   `game.json` (what `judge export` prints, but for the orders of the
//!   phase not yet processed: secret until then), and once the game has
//!   ended `summary.png` (every phase's position in turn, an animated
//!   PNG: the end mail's attachment).
//!
//! Only what every player may see after a phase is shown (`view` reads
//! nothing else): never the current phase's orders, press that did not go
//! to everyone, anyone's address, a grey message's sender. A game whose
//! Master `SET PRIVATE` is not published, and its folder is removed.
//!
//! `view` reads the store, `pages`, `feed` and `chart` turn views into
//! the plain data the templates of `templates/web/` lay out
//! (`templates`: loaded and checked once, at the start), `files` writes
//! the text whole or not at all; this file says what is written when.

mod chart;
mod feed;
mod files;
mod html;
mod pages;
mod sample;
mod spread;
mod templates;
mod view;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::game::Db as Connection;

use crate::config::Config;
use crate::game::export::{game_json, Orders};
use crate::game::pictures::PhasePicture;
use crate::store::{self, games::Game, web::IndexRow, web::Published, web::WebState, StoreError};
pub use feed::Publisher;
pub use files::FileError;
pub use spread::write_games;
pub use templates::{PageTemplates, TemplateError};

/// The map of a game's position now, in its folder.
const BOARD: &str = "board.svg";

/// The phases a game's feed carries, the latest: a feed reader keeps the
/// entries it has already read, and each entry's orders are read and
/// adjudicated again at every phase, which must not grow with the game.
const FEED_PHASES: usize = 20;

/// Where the archive is written, whose it is, and the templates its pages
/// are written with.
#[derive(Clone, Debug)]
pub struct Site {
    pub dir: PathBuf,
    pub name: String,
    pub address: String,
    pub code: String,
    /// `[web] url`, ending in `/`: the feed's base address.
    pub url: Option<String>,
    /// Compiled once (`Site::of`), shared by every page and thread.
    pub templates: Arc<PageTemplates>,
    /// The rows of the list of games, as laid out so far.
    rows: Arc<pages::RowCache>,
}

impl Site {
    /// The site `config` describes, its page templates read from
    /// `templates/web/` beside it (or built in): an error names a broken
    /// template's file and line.
    pub fn of(config: &Config) -> Result<Site, TemplateError> {
        Ok(Site {
            dir: config.web_path(),
            name: config.judge.name.clone(),
            address: config.judge.address.clone(),
            code: config.judge.code.clone(),
            url: config.web.public_url(),
            templates: Arc::new(page_templates(config)?),
            rows: Arc::default(),
        })
    }

    fn publisher(&self) -> Publisher<'_> {
        Publisher {
            name: &self.name,
            address: &self.address,
            code: &self.code,
            url: self.url.as_deref(),
        }
    }

    /// A game's folder. Game names are letters, digits, `-` and `_`; any
    /// other name (an older database?) is refused rather than followed.
    fn game_dir(&self, name: &str) -> Result<PathBuf, WebError> {
        let safe = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !safe {
            return Err(WebError::Name(name.to_string()));
        }
        Ok(self.dir.join(name))
    }
}

/// Where a judgekeeper's page templates are: `templates/web/` beside
/// `judge.toml`.
pub fn templates_dir(config: &Config) -> PathBuf {
    config.resolve(Path::new("templates")).join("web")
}

/// The page templates `config` names (`templates_dir`, or built in),
/// compiled and tried on a sample game: an error names the broken
/// template's file and line.
pub fn page_templates(config: &Config) -> Result<PageTemplates, TemplateError> {
    let templates = PageTemplates::from_dir(&templates_dir(config))?;
    sample::try_every_page(&templates)?;
    Ok(templates)
}

#[derive(Debug)]
pub enum WebError {
    Store(StoreError),
    File(FileError),
    /// A page its template could not render.
    Template(TemplateError),
    /// A game whose name cannot be a folder's.
    Name(String),
    /// A picture that could not be drawn: why.
    Drawing(String),
}

impl std::fmt::Display for WebError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WebError::Store(e) => write!(f, "reading the store: {e}"),
            WebError::File(e) => write!(f, "writing {e}"),
            WebError::Template(e) => write!(f, "{e}"),
            WebError::Name(n) => write!(f, "the game {n:?} has no name fit for a folder"),
            WebError::Drawing(e) => write!(f, "drawing the summary: {e}"),
        }
    }
}

impl std::error::Error for WebError {}

impl From<StoreError> for WebError {
    fn from(e: StoreError) -> Self {
        WebError::Store(e)
    }
}

impl From<TemplateError> for WebError {
    fn from(e: TemplateError) -> Self {
        WebError::Template(e)
    }
}

impl From<FileError> for WebError {
    fn from(e: FileError) -> Self {
        WebError::File(e)
    }
}

/// What writing one game did.
pub struct GameWritten {
    /// Its row in the list of games.
    pub row: IndexRow,
    /// Phase pages (each with its map) written.
    pub phases: usize,
}

/// Writes the game's pages: its phase pages from the `from`-th processed
/// phase on (the one before it again too, for its link to the next), its
/// index with the board now, the play page, feed and JSON. `from` 0
/// writes every phase page and removes pages of phases the game no longer
/// has.
pub fn write_game(
    conn: &Connection,
    site: &Site,
    game: &Game,
    from: usize,
) -> Result<GameWritten, WebError> {
    let dir = site.game_dir(&game.name)?;
    files::ensure_dir(&dir)?;
    let records = store::phases::phases_of_game(conn, game.id)?;
    let played = view::played_rows(game, &records);
    let processed: Vec<usize> = (0..played).filter(|&i| records[i].is_processed()).collect();
    let phase_code = |k: usize| records[processed[k]].phase.as_str();
    let first = from.saturating_sub(1);
    let mut written = 0;
    let mut entries = Vec::new();
    let in_feed = |k: usize| k + FEED_PHASES >= processed.len();
    for k in 0..processed.len() {
        if k < first {
            if !in_feed(k) {
                continue;
            }
            // Not written again, but the feed lists its orders.
            let record = &records[processed[k]];
            if let Some((at, picture)) = view::phase_picture(conn, &site.code, game, record)? {
                entries.push(feed::PhaseEntry::of(&picture, at));
            }
            continue;
        }
        let Some(phase) = view::phase_view(conn, &site.code, game, &records, processed[k])? else {
            continue;
        };
        let prev = k.checked_sub(1).and_then(|j| phase_code(j).parse().ok());
        let next = processed
            .get(k + 1)
            .and_then(|&i| records[i].phase.parse().ok());
        let code = phase.picture.position.phase.to_string();
        let svg = phase.picture.svg();
        files::write_atomic(&dir.join(format!("{code}.svg")), svg.as_bytes())?;
        let html = pages::phase_page(&site.templates, &phase, prev, next)?;
        files::write_atomic(&dir.join(format!("{code}.html")), html.as_bytes())?;
        if in_feed(k) {
            entries.push(feed::PhaseEntry::of(&phase.picture, phase.processed_at));
        }
        written += 1;
    }
    if from == 0 {
        let keep = |stem: &str| (0..processed.len()).any(|k| phase_code(k) == stem);
        files::remove_stale_phases(&dir, &keep)?;
    }
    let view = view::game_view(conn, game)?;
    write_board(site, &dir, game, &view)?;
    let animation = write_summary(conn, site, game, &dir)?;
    let index = pages::game_index(&site.templates, &view, animation)?;
    files::write_atomic(&dir.join("index.html"), index.as_bytes())?;
    let play = pages::play_page(&site.templates, &view)?;
    files::write_atomic(&dir.join("play.html"), play.as_bytes())?;
    let feed = feed::game_feed(&site.templates, &site.publisher(), &view, entries)?;
    files::write_atomic(&dir.join("feed.atom"), feed.as_bytes())?;
    let json = serde_json::to_string_pretty(&game_json(conn, game, Orders::Processed)?)
        .map_err(StoreError::from)?;
    files::write_atomic(&dir.join("game.json"), format!("{json}\n").as_bytes())?;
    Ok(GameWritten {
        row: pages::index_row(&view.card),
        phases: written,
    })
}

/// `board.svg`: the map of the position the next orders are written for
/// (where a finished game ended), nothing ordered on it; none before the
/// start.
fn write_board(
    site: &Site,
    dir: &Path,
    game: &Game,
    view: &view::GameView,
) -> Result<(), WebError> {
    let Some(board) = &view.card.board else {
        return Ok(());
    };
    let position = board.position.clone();
    let picture = if view.card.state.is_over() {
        PhasePicture::ended(&site.code, &game.name, position)
    } else {
        PhasePicture::position(&site.code, &game.name, position)
    };
    files::write_atomic(&dir.join(BOARD), picture.svg().as_bytes())?;
    Ok(())
}

/// A game that has ended gets its animated summary beside its pages
/// (`summary.png`), drawn once: the positions of an ended game do not
/// change, and a summary costs a second or so, too much to draw again at
/// every rebuild (delete the file to have it drawn anew). Its address
/// from the game's page, if the game has one.
fn write_summary(
    conn: &Connection,
    site: &Site,
    game: &Game,
    dir: &Path,
) -> Result<Option<&'static str>, WebError> {
    use crate::game::pictures::{summary_pictures, summary_png, SUMMARY_FILE};
    if !game.state.is_over() {
        return Ok(None);
    }
    let path = dir.join(SUMMARY_FILE);
    if path.exists() {
        return Ok(Some(SUMMARY_FILE));
    }
    let pictures = summary_pictures(conn, &site.code, game, crate::draw::Palette::default())?;
    // One position is no game to watch (one ended before its first phase).
    if pictures.len() < 2 {
        return Ok(None);
    }
    let png = summary_png(&pictures).map_err(WebError::Drawing)?;
    files::write_atomic(&path, &png)?;
    Ok(Some(SUMMARY_FILE))
}

/// Writes the top `index.html` (the rows of every published game, as the
/// store keeps them) and `style.css`.
fn write_site_index(conn: &Connection, site: &Site) -> Result<(), WebError> {
    let rows = store::web::index_rows(conn)?;
    files::ensure_dir(&site.dir)?;
    let style = site.templates.style();
    files::write_atomic(&site.dir.join("style.css"), style.as_bytes())?;
    let index = pages::site_index(&site.templates, &site.rows, &site.name, &rows)?;
    files::write_atomic(&site.dir.join("index.html"), index.as_bytes())?;
    Ok(())
}

/// Removes a game's folder (a private game); false if there was none.
pub fn remove_game(site: &Site, name: &str) -> Result<bool, WebError> {
    Ok(files::remove_dir(&site.game_dir(name)?)?)
}

/// Where to start writing a game's phase pages again, given what was
/// published of it: from the phase then being played on (the
/// `from`-th processed phase, for `write_game`), none when no phase was
/// processed since (press only), or all of them after a change of state
/// or a notice (a rollback among them).
pub fn first_to_write(state: &WebState) -> usize {
    match &state.published {
        Some(p) if p.state == state.state && p.phases <= state.phases && !state.renewed => {
            let from = if p.phases == state.phases {
                p.phases
            } else {
                p.phases - 1
            };
            usize::try_from(from).unwrap_or(0)
        }
        _ => 0,
    }
}

/// What the store holds of the game now, to record once it is written.
pub fn published_now(state: &WebState) -> Published {
    Published {
        phases: state.phases,
        archive_id: state.archive_id,
        state: state.state,
        deadline: state.deadline,
    }
}

/// What a web pass did.
#[derive(Default)]
pub struct PassReport {
    /// Games written, with the phase pages each got.
    pub written: Vec<(String, usize)>,
    /// Private games whose folder was removed.
    pub removed: Vec<String>,
    /// What could not be written (tried again next pass).
    pub failures: Vec<String>,
}

/// The web pass: writes whatever the pages lack of the store (phases
/// processed, press, a game's new state, by this process or another),
/// removes private games, and the top index when anything changed. The
/// games are written on every core, each thread reading `database` on a
/// connection of its own. Reads outside any transaction of the store's
/// writers; what it could not write stays unrecorded, so the next pass
/// tries again.
pub fn publish_due(
    conn: &Connection,
    database: &Path,
    site: &Site,
    now: i64,
) -> Result<PassReport, WebError> {
    let states = store::web::web_states(conn)?;
    let mut report = PassReport::default();
    for state in states.iter().filter(|s| s.private) {
        withdraw(conn, site, state, &mut report)?;
    }
    let stale: Vec<&WebState> = states
        .iter()
        .filter(|s| !s.private && s.is_stale())
        .collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut done = Vec::new();
    for (state, outcome) in write_games(conn, database, site, &stale, false, cores) {
        match outcome {
            Ok(w) => {
                store::web::set_web_published(
                    conn,
                    state.game_id,
                    &published_now(state),
                    &w.row,
                    now,
                )?;
                report.written.push((state.name.clone(), w.phases));
                done.push(state.game_id);
            }
            Err(e) => report.failures.push(format!("game '{}': {e}", state.name)),
        }
    }
    let index_missing = !site.dir.join("index.html").exists();
    if report.written.is_empty() && report.removed.is_empty() && !index_missing {
        return Ok(report);
    }
    if let Some(failure) = index_or_forget(conn, site, &done)? {
        report.failures.push(failure);
    }
    Ok(report)
}

/// Writes the top index after the games `written` (by their ids) were
/// written and recorded; if it fails, they count as not yet published,
/// so the next pass (or `judge archive`) writes them again. What failed,
/// if anything.
pub fn index_or_forget(
    conn: &Connection,
    site: &Site,
    written: &[i64],
) -> Result<Option<String>, WebError> {
    match write_site_index(conn, site) {
        Ok(()) => Ok(None),
        Err(e) => {
            for &id in written {
                store::web::forget_web_published(conn, id)?;
            }
            Ok(Some(format!("the index: {e}")))
        }
    }
}

fn withdraw(
    conn: &Connection,
    site: &Site,
    state: &WebState,
    report: &mut PassReport,
) -> Result<(), WebError> {
    let there = site.game_dir(&state.name).is_ok_and(|d| d.exists());
    if state.published.is_none() && !there {
        return Ok(());
    }
    match remove_game(site, &state.name) {
        Ok(_) => {
            store::web::forget_web_published(conn, state.game_id)?;
            report.removed.push(state.name.clone());
        }
        Err(e) => report.failures.push(format!("game '{}': {e}", state.name)),
    }
    Ok(())
}
