//! The map pictures of a game's phases, as stored: what `judge map`,
//! `GET MAP` and the results mails draw. Reads only; the drawing itself is
//! `crate::draw`, which does no IO, so a caller can read here inside a
//! short transaction and draw after it.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rusqlite::Connection;
use serde::Deserialize;

use super::{current, position_of, process::all_orders, variant_of};
use crate::draw::{self, Palette, Scene};
use crate::engine::adjudicate::adjudicate_with;
use crate::engine::map::Map;
use crate::engine::order::Order;
use crate::engine::outcome::Outcome;
use crate::engine::phase::{Phase, PhaseKind};
use crate::engine::position::{Dislodged, Position};
use crate::mail::{
    fill_pictures_instead, has_pictures, picture_body, picture_references, PicturePart, NOT_DRAWN,
};
use crate::say;
use crate::store::{self, games::Game, StoreError};

/// The map pictures: in the results mails, for `GET MAP` and `judge map`
/// (`[maps]` in `judge.toml`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapSettings {
    /// Whether results mails carry the map of the phase (players may still
    /// `SET MAPS OFF` for themselves).
    #[serde(default = "yes")]
    pub enabled: bool,
    /// The PNG's width in pixels (at least 400; the height follows).
    #[serde(default = "default_map_width")]
    pub width: u32,
    /// Also attach the SVG (for zooming without blur).
    #[serde(default)]
    pub svg: bool,
    /// Also the position for the next orders, as a second picture (where
    /// every unit stands after the phase, who owns what). Off by default:
    /// the results picture shows the orders and what became of them, the
    /// mail's text the position after; a second picture nearly doubles
    /// every results mail (README, "Maps", has the figures).
    #[serde(default)]
    pub next: bool,
    /// The powers' colours: "classic" (the board's) or "okabe-ito" (for
    /// colour-blind readers).
    #[serde(default = "default_palette")]
    pub palette: String,
}

impl MapSettings {
    /// The palette `palette` names (the default if it names none: the
    /// configuration is checked when read).
    pub fn palette(&self) -> Palette {
        Palette::from_name(&self.palette).unwrap_or_default()
    }
}

impl Default for MapSettings {
    fn default() -> Self {
        MapSettings {
            enabled: true,
            width: default_map_width(),
            svg: false,
            next: false,
            palette: default_palette(),
        }
    }
}

fn default_palette() -> String {
    Palette::default().name().to_string()
}

fn yes() -> bool {
    true
}

fn default_map_width() -> u32 {
    1200
}

/// Everything one picture shows, owned: made from the store, drawn later.
#[derive(Clone, Debug)]
pub struct PhasePicture {
    pub position: Position,
    pub orders: Vec<(Order, Outcome)>,
    pub retreats: Vec<Dislodged>,
    pub title: String,
    pub palette: Palette,
}

impl PhasePicture {
    /// The picture of an adjudicated phase: its position, its orders with
    /// their results, and (after a movement phase) the units dislodged.
    pub fn results(
        judge_code: &str,
        game: &str,
        position: Position,
        orders: Vec<(Order, Outcome)>,
        retreats: Vec<Dislodged>,
    ) -> PhasePicture {
        let title = title(judge_code, game, position.phase, true);
        PhasePicture {
            position,
            orders,
            retreats,
            title,
            palette: Palette::default(),
        }
    }

    /// The picture of a position waiting for orders.
    pub fn position(judge_code: &str, game: &str, position: Position) -> PhasePicture {
        let title = title(judge_code, game, position.phase, false);
        PhasePicture {
            position,
            orders: Vec::new(),
            retreats: Vec::new(),
            title,
            palette: Palette::default(),
        }
    }

    /// The picture of where a finished game ended: no orders are due.
    pub fn ended(judge_code: &str, game: &str, position: Position) -> PhasePicture {
        PhasePicture {
            title: say!("pictures.ended_title", judge => judge_code, game),
            ..PhasePicture::position(judge_code, game, position)
        }
    }

    /// The same picture in `palette`'s colours.
    pub fn with_palette(self, palette: Palette) -> PhasePicture {
        PhasePicture { palette, ..self }
    }

    pub fn svg(&self) -> String {
        draw::svg(Map::standard(), &self.scene())
    }

    /// The PNG, `width` pixels wide.
    pub fn png(&self, width: u32) -> Result<Vec<u8>, String> {
        draw::png::render_scene(Map::standard(), &self.scene(), width)
    }

    fn scene(&self) -> Scene<'_> {
        Scene {
            position: &self.position,
            orders: &self.orders,
            retreats: &self.retreats,
            title: &self.title,
            palette: self.palette,
        }
    }
}

/// The title drawn on a picture (words `pictures.title`): the judge, the
/// game, the phase, and whether it shows results or the orders due.
pub fn title(judge_code: &str, game: &str, phase: Phase, results: bool) -> String {
    say!("pictures.title", judge => judge_code, game, season => phase.season_name(),
         year => phase.year, kind => kind_word(phase), results)
}

/// The phase's kind as a word before "orders" or "results": "movement",
/// "retreat", "adjustment".
pub fn kind_word(phase: Phase) -> &'static str {
    match phase.kind {
        PhaseKind::Movement => "movement",
        PhaseKind::Retreat => "retreat",
        PhaseKind::Adjustment => "adjustment",
    }
}

/// The picture of `phase` of `game` (absent: the current position). A
/// processed phase is drawn with its orders and the results stored for
/// them; the orders are adjudicated again only to know what each did
/// where the stored results do not say.
pub fn picture_of_phase(
    conn: &Connection,
    judge_code: &str,
    game: &Game,
    phase: Option<&str>,
) -> Result<PhasePicture, StoreError> {
    let map = Map::standard();
    let record = match phase {
        None => {
            let cur = current(conn, game.id)?
                .ok_or_else(|| StoreError::NotFound(format!("a phase of {}", game.name)))?;
            cur.record
        }
        Some(name) => store::phases::phase_by_name(conn, game.id, &name.to_ascii_uppercase())?
            .ok_or_else(|| StoreError::NotFound(format!("phase {name} of {}", game.name)))?,
    };
    let position = position_of(&record)?;
    if !record.is_processed() {
        return Ok(PhasePicture::position(judge_code, &game.name, position));
    }
    let orders = all_orders(conn, game, &record.phase, &position)?;
    let rules = variant_of(game).rules_at(map, position.phase, &[]);
    let adjudication = adjudicate_with(map, &position, &orders, &rules);
    let stored: BTreeMap<String, String> = record.results_as()?.unwrap_or_default();
    let orders = adjudication
        .orders
        .into_iter()
        .map(|(order, outcome)| {
            let outcome = stored
                .get(&order.short(map))
                .and_then(|s| Outcome::from_summary(s))
                .unwrap_or(outcome);
            (order, outcome)
        })
        .collect();
    Ok(PhasePicture::results(
        judge_code,
        &game.name,
        position,
        orders,
        adjudication.next.dislodged,
    ))
}

/// The picture parts of a results mail, as `[maps]` says: the map of
/// `phase` of the game as PNG (and SVG), drawn when the mail is sent.
/// The results of the phase that ended the game carry its animated
/// summary too ([`summary_parts`]; `archive` is `[web] url`, where the
/// pages are if it is too large to mail).
pub fn results_parts(
    conn: &Connection,
    game_id: i64,
    phase: &str,
    maps: &MapSettings,
    archive: Option<&str>,
) -> Result<Vec<PicturePart>, StoreError> {
    if !maps.enabled {
        return Ok(Vec::new());
    }
    let mut parts = phase_results_parts(conn, game_id, phase, maps)?;
    if ended_by(conn, game_id, phase)? {
        parts.extend(summary_parts(conn, game_id, maps, archive)?);
    }
    Ok(parts)
}

/// Whether the processing of `phase` ended the game: it is finished,
/// and `phase` the last played (before the row of where it ended).
fn ended_by(conn: &Connection, game_id: i64, phase: &str) -> Result<bool, StoreError> {
    let Some(game) = store::games::game_by_id(conn, game_id)? else {
        return Ok(false);
    };
    let records = store::phases::phases_of_game(conn, game_id)?;
    Ok(super::summary::final_row(&game, &records)
        .is_some_and(|last| records[last - 1].phase == phase))
}

/// The map of `phase` (and of the position it leads to, if `[maps] next`).
fn phase_results_parts(
    conn: &Connection,
    game_id: i64,
    phase: &str,
    maps: &MapSettings,
) -> Result<Vec<PicturePart>, StoreError> {
    let game = store::games::game_by_id(conn, game_id)?;
    // A game that has ended has no next orders (its last phase stays
    // stored unplayed).
    let ended = game.as_ref().is_some_and(|g| g.ended_at.is_some());
    let name = game.map_or_else(|| game_id.to_string(), |g| g.name);
    let mut parts = picture_parts(
        maps,
        "results",
        game_id,
        &name,
        phase,
        &say!("pictures.shows_results"),
    );
    if maps.next && !ended {
        // The phase the results lead to.
        let phases = store::phases::phases_of_game(conn, game_id)?;
        let after = phases
            .iter()
            .position(|p| p.phase == phase)
            .and_then(|i| phases.get(i + 1));
        if let Some(next) = after {
            parts.extend(picture_parts(
                maps,
                "position",
                game_id,
                &name,
                &next.phase,
                &say!("pictures.shows_next", kind => due_word(&next.phase)),
            ));
        }
    }
    Ok(parts)
}

/// The PNG of a picture (and its SVG, if `[maps] svg`): `kind` is
/// `results` (a phase with its orders drawn) or `position` (the position
/// at a phase's start, for its orders).
fn picture_parts(
    maps: &MapSettings,
    kind: &str,
    game_id: i64,
    game: &str,
    phase: &str,
    shows: &str,
) -> Vec<PicturePart> {
    let mut parts = vec![PicturePart {
        reference: format!("{kind} {game_id} {phase} png"),
        content_type: "image/png",
        filename: format!("{game}-{phase}.png"),
        shows: shows.to_string(),
    }];
    if maps.svg {
        parts.push(PicturePart {
            reference: format!("{kind} {game_id} {phase} svg"),
            content_type: "image/svg+xml",
            filename: format!("{game}-{phase}.svg"),
            shows: say!("pictures.as_svg", shows),
        });
    }
    parts
}

/// The picture parts of a game's start mail, as `[maps]` says: the
/// opening position (`phase`, the first), drawn when the mail is sent.
pub fn opening_parts(
    maps: &MapSettings,
    game_id: i64,
    game: &str,
    phase: &str,
) -> Vec<PicturePart> {
    if !maps.enabled {
        return Vec::new();
    }
    picture_parts(
        maps,
        "position",
        game_id,
        game,
        phase,
        &say!("pictures.shows_opening", kind => due_word(phase)),
    )
}

/// The animated summary's width in pixels. On 40 phases of random play
/// (`benches/draw.rs`) 600 px made 205 KB, 700 px 249 KB, 800 px 294 KB:
/// 800 keeps the board's names readable (at 600 they are about 6 px), and
/// a game of 100 phases under 1 MB.
pub const SUMMARY_WIDTH: u32 = 800;

/// The largest animated summary an end mail carries, in bytes of PNG (a
/// third more as base64): about 200 phases at [`SUMMARY_WIDTH`], a game
/// of some 50 years. Above it the mail goes without it and says where it
/// is on the web: a 2 MB mail is as much as a player's mailbox should be
/// asked to take unasked.
pub const SUMMARY_MAIL_CAP: usize = 1_500_000;

/// The summary's file in a game's folder of the web archive.
pub const SUMMARY_FILE: &str = "summary.png";

/// The part of the mail that tells of a game's end carrying its animated
/// summary (`<game>-summary.png`, drawn when the mail is sent): none if
/// `[maps]` is off or no phase was played. `archive` (`[web] url`) says
/// where it is published, for a mail it is too large for.
pub fn summary_parts(
    conn: &Connection,
    game_id: i64,
    maps: &MapSettings,
    archive: Option<&str>,
) -> Result<Vec<PicturePart>, StoreError> {
    let Some(game) = store::games::game_by_id(conn, game_id)? else {
        return Ok(Vec::new());
    };
    let records = store::phases::phases_of_game(conn, game_id)?;
    let Some(last) = records.last().filter(|_| maps.enabled && records.len() > 1) else {
        return Ok(Vec::new());
    };
    let mut reference = format!("summary {game_id} {} png", last.phase);
    if let Some(address) = summary_address(&game, archive)? {
        reference = format!("{reference} {address}");
    }
    Ok(vec![PicturePart {
        reference,
        content_type: "image/png",
        filename: format!("{}-summary.png", game.name),
        shows: say!("pictures.shows_summary", phases => records.len()),
    }])
}

/// Where the web archive publishes the game's summary (`archive` is
/// `[web] url`): nowhere without one, or for a private game.
fn summary_address(game: &Game, archive: Option<&str>) -> Result<Option<String>, StoreError> {
    let Some(url) = archive else {
        return Ok(None);
    };
    if super::settings_of(game)?.private {
        return Ok(None);
    }
    Ok(Some(format!("{url}{}/{SUMMARY_FILE}", game.name)))
}

/// The pictures of a game's animated summary: every phase's position in
/// turn, from the opening to where the game ended (the last row: the
/// final position of a finished game, the phase a terminated one stopped
/// in).
pub fn summary_pictures(
    conn: &Connection,
    judge_code: &str,
    game: &Game,
    palette: Palette,
) -> Result<Vec<PhasePicture>, StoreError> {
    let records = store::phases::phases_of_game(conn, game.id)?;
    let last = records.len().saturating_sub(1);
    records
        .iter()
        .enumerate()
        .map(|(i, record)| {
            let position = position_of(record)?;
            let phase = position.phase;
            let title = say!("pictures.summary_title", judge => judge_code, game => &game.name,
                season => phase.season_name(), year => phase.year, kind => kind_word(phase),
                last => i == last);
            Ok(PhasePicture {
                position,
                orders: Vec::new(),
                retreats: Vec::new(),
                title,
                palette,
            })
        })
        .collect()
}

/// `pictures` in turn as one animated PNG, [`SUMMARY_WIDTH`] wide.
pub fn summary_png(pictures: &[PhasePicture]) -> Result<Vec<u8>, String> {
    let scenes: Vec<Scene<'_>> = pictures.iter().map(PhasePicture::scene).collect();
    draw::animation::animate(
        Map::standard(),
        &scenes,
        SUMMARY_WIDTH,
        draw::animation::Timing::default(),
    )
}

/// "movement", "retreat" or "adjustment" for a phase's name (`F1901R`).
fn due_word(phase: &str) -> &'static str {
    match phase.as_bytes().last() {
        Some(b'R') => "retreat",
        Some(b'A' | b'B') => "adjustment",
        _ => "movement",
    }
}

/// Draws the pictures queued mails ask for, just before they are sent
/// (outside any transaction: reading only), each once for all the mails
/// that carry it: a game's eight results mails name the same picture.
///
/// The sender hands it each batch of due mails first ([`Self::prepare`]):
/// the pictures the batch names that are not drawn yet are read from the
/// store one after another, then drawn and encoded (PNG, then base64) on
/// every core at once, and the mails are filled from them
/// ([`Self::fill`]). Only the pictures the batch names are kept: memory is
/// bounded by a batch, and a game's mails that straddle two batches still
/// share one drawing. The same reference draws the same bytes, so a mail
/// sent again after a crash is the same mail.
#[derive(Default)]
pub struct PictureMaker {
    /// Each kept picture by its reference: its part's body as the mail
    /// carries it, or the text sent in its place.
    bodies: HashMap<String, Result<Arc<[u8]>, Arc<str>>>,
    /// Pictures drawn, and mails filled, since made.
    drawn: usize,
    filled: usize,
}

/// Pictures read from the store, to be drawn without it: a sender draws
/// the next batch's while it sends the last.
pub struct PicturesToDraw {
    read: Vec<(String, Result<Drawing, String>)>,
    width: u32,
}

impl PicturesToDraw {
    /// Each picture drawn and encoded, on every core.
    pub fn draw(self) -> DrawnPictures {
        DrawnPictures(draw_on_every_core(self.read, self.width))
    }
}

/// Pictures drawn and encoded, for [`PictureMaker::keep_drawn`].
pub struct DrawnPictures(Vec<(String, Result<Vec<u8>, Unsent>)>);

/// The most pictures kept when mails are filled without [`PictureMaker::prepare`].
const KEEP_UNPREPARED: usize = 64;

impl PictureMaker {
    /// Draws, on every core, each picture `raws` name that is not drawn
    /// yet, and forgets those none of them names.
    pub fn prepare<'a>(
        &mut self,
        conn: &Connection,
        judge_code: &str,
        maps: &MapSettings,
        raws: impl IntoIterator<Item = &'a [u8]>,
    ) {
        let to_draw = self.read_missing(conn, judge_code, maps, raws);
        self.keep_drawn(to_draw.draw());
    }

    /// Reads from the store each picture `raws` name that is not drawn
    /// yet, to be drawn without it ([`PicturesToDraw::draw`]), and
    /// forgets those none of them names.
    pub fn read_missing<'a>(
        &mut self,
        conn: &Connection,
        judge_code: &str,
        maps: &MapSettings,
        raws: impl IntoIterator<Item = &'a [u8]>,
    ) -> PicturesToDraw {
        let named: BTreeSet<String> = raws.into_iter().flat_map(picture_references).collect();
        self.bodies.retain(|reference, _| named.contains(reference));
        let read = named
            .into_iter()
            .filter(|reference| !self.bodies.contains_key(reference))
            .map(|reference| {
                let drawing = read_reference(conn, judge_code, maps, &reference);
                (reference, drawing)
            })
            .collect();
        PicturesToDraw {
            read,
            width: maps.width,
        }
    }

    /// Keeps the pictures drawn, for [`Self::fill`].
    pub fn keep_drawn(&mut self, drawn: DrawnPictures) {
        for (reference, body) in drawn.0 {
            self.keep(reference, body);
        }
    }

    /// `raw` with its pictures drawn in (unchanged if it asks for none):
    /// from those [`Self::prepare`] drew, or drawn now.
    pub fn fill(
        &mut self,
        conn: &Connection,
        judge_code: &str,
        maps: &MapSettings,
        raw: &[u8],
    ) -> Vec<u8> {
        let references = picture_references(raw);
        if self.bodies.len() + references.len() > KEEP_UNPREPARED {
            self.bodies.retain(|kept, _| references.contains(kept));
        }
        for reference in references {
            if !self.bodies.contains_key(&reference) {
                let drawing = read_reference(conn, judge_code, maps, &reference);
                let body = draw_body(&drawing, maps.width);
                self.keep(reference, body);
            }
        }
        if has_pictures(raw) {
            self.filled += 1;
        }
        fill_pictures_instead(raw, |reference| match self.bodies.get(reference) {
            Some(kept) => kept.clone(),
            None => Err(Arc::from(NOT_DRAWN)),
        })
    }

    /// Pictures drawn since made (each once, however many mails carry it).
    pub fn drawn(&self) -> usize {
        self.drawn
    }

    /// Mails filled with pictures since made.
    pub fn filled(&self) -> usize {
        self.filled
    }

    fn keep(&mut self, reference: String, body: Result<Vec<u8>, Unsent>) {
        self.drawn += 1;
        let body = match body {
            Ok(body) => Ok(Arc::from(body)),
            Err(Unsent::TooLarge(note)) => {
                log::info!("{reference}: {note}");
                Err(Arc::from(note))
            }
            Err(Unsent::Failed(e)) => {
                let said = say!("pictures.not_drawn", reference => format!("{reference:?}"),
                                error => e);
                log::warn!("{said}");
                Err(Arc::from(NOT_DRAWN))
            }
        };
        self.bodies.insert(reference, body);
    }
}

/// A picture read from the store, drawn without it.
enum Drawing {
    /// A phase's picture, as PNG or SVG.
    Phase { picture: PhasePicture, svg: bool },
    /// A game's animated summary, and its address on the web (if it has
    /// one), for the mail it is too large for.
    Summary {
        pictures: Vec<PhasePicture>,
        address: Option<String>,
    },
}

impl Drawing {
    /// The picture's file: a phase's `width` pixels wide (the summary has
    /// its own width).
    fn draw(&self, width: u32) -> Result<Vec<u8>, String> {
        match self {
            Drawing::Phase { picture, svg: true } => Ok(picture.svg().into_bytes()),
            Drawing::Phase { picture, .. } => picture.png(width),
            Drawing::Summary { pictures, .. } => summary_png(pictures),
        }
    }
}

/// Why a picture's part holds a line of text instead of the picture.
enum Unsent {
    /// It could not be drawn (the judgekeeper's log says why).
    Failed(String),
    /// A summary too large to mail: what the mail says instead.
    TooLarge(String),
}

/// The part's body (base64) of the picture `drawing` reads, `width`
/// pixels wide; a panic while drawing is the one picture's error.
fn draw_body(drawing: &Result<Drawing, String>, width: u32) -> Result<Vec<u8>, Unsent> {
    let drawing = drawing.as_ref().map_err(|e| Unsent::Failed(e.clone()))?;
    let drawn = std::panic::catch_unwind(AssertUnwindSafe(|| drawing.draw(width)))
        .unwrap_or_else(|_| Err("the drawing panicked".to_string()))
        .map_err(Unsent::Failed)?;
    let drawn = match drawing {
        Drawing::Summary { address, .. } => mailable(drawn, SUMMARY_MAIL_CAP, address.as_deref())?,
        Drawing::Phase { .. } => drawn,
    };
    Ok(picture_body(drawn))
}

/// A summary of `drawn.len()` bytes, if at most `cap`; else the words
/// saying so, and where it is on the web.
fn mailable(drawn: Vec<u8>, cap: usize, address: Option<&str>) -> Result<Vec<u8>, Unsent> {
    if drawn.len() <= cap {
        return Ok(drawn);
    }
    Err(Unsent::TooLarge(say!("pictures.summary_too_large",
        size => drawn.len().div_ceil(1000), address)))
}

/// Each of `read` drawn and encoded, as many at once as there are cores
/// (a picture is a few milliseconds of work on one core, and the games'
/// pictures have nothing to share but the board's caches).
fn draw_on_every_core(
    read: Vec<(String, Result<Drawing, String>)>,
    width: u32,
) -> Vec<(String, Result<Vec<u8>, Unsent>)> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = cores.min(read.len());
    if workers <= 1 {
        return read
            .into_iter()
            .map(|(reference, drawing)| {
                let body = draw_body(&drawing, width);
                (reference, body)
            })
            .collect();
    }
    let next = AtomicUsize::new(0);
    let drawn: Vec<(usize, Result<Vec<u8>, Unsent>)> = std::thread::scope(|scope| {
        let worker = || {
            let mut mine = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((_, drawing)) = read.get(i) else {
                    return mine;
                };
                mine.push((i, draw_body(drawing, width)));
            }
        };
        let handles: Vec<_> = (0..workers).map(|_| scope.spawn(worker)).collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    // Each in its place: a worker that died (it cannot panic on a
    // drawing, caught in `draw_body`) leaves its pictures undrawn.
    let mut bodies: Vec<Result<Vec<u8>, Unsent>> = (0..read.len())
        .map(|_| Err(Unsent::Failed("the drawing stopped".to_string())))
        .collect();
    for (i, body) in drawn {
        bodies[i] = body;
    }
    read.into_iter()
        .zip(bodies)
        .map(|((reference, _), body)| (reference, body))
        .collect()
}

/// Reads `results|phase|position <game id> <phase> png|svg` from the
/// store: `results` and `phase` a processed phase with its results, else
/// the position; `position` always the position at the phase's start.
/// `summary <game id> <last phase> png [address]`: every phase's position.
fn read_reference(
    conn: &Connection,
    judge_code: &str,
    maps: &MapSettings,
    reference: &str,
) -> Result<Drawing, String> {
    let words: Vec<&str> = reference.split(' ').collect();
    if let ["summary", id, _, "png", ref address @ ..] = words[..] {
        let game = game_of(conn, id)?;
        let pictures =
            summary_pictures(conn, judge_code, &game, maps.palette()).map_err(|e| e.to_string())?;
        return Ok(Drawing::Summary {
            pictures,
            address: address.first().map(|a| a.to_string()),
        });
    }
    let [kind @ ("results" | "phase" | "position"), id, phase, format] = words[..] else {
        return Err("not a picture reference".to_string());
    };
    let game = game_of(conn, id)?;
    let picture = if kind == "position" {
        // The position at the phase's start, even once it is processed
        // (a mail may be sent after the next processing).
        let record = store::phases::phase_by_name(conn, game.id, phase)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("no phase {phase} of game {id}"))?;
        let position = position_of(&record).map_err(|e| e.to_string())?;
        PhasePicture::position(judge_code, &game.name, position)
    } else {
        picture_of_phase(conn, judge_code, &game, Some(phase)).map_err(|e| e.to_string())?
    }
    .with_palette(maps.palette());
    Ok(Drawing::Phase {
        picture,
        svg: format == "svg",
    })
}

/// The game a reference names by its id.
fn game_of(conn: &Connection, id: &str) -> Result<Game, String> {
    let id: i64 = id.parse().map_err(|_| "not a game id".to_string())?;
    store::games::game_by_id(conn, id)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("no game {id}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_over_the_cap_is_not_mailed_and_the_mail_says_where_it_is() {
        let drawn = vec![0u8; 2_400];
        assert!(matches!(mailable(drawn.clone(), 2_400, None), Ok(d) if d == drawn));
        let address = "https://dip.example.org/games/demo/summary.png";
        let Err(Unsent::TooLarge(note)) = mailable(drawn.clone(), 2_399, Some(address)) else {
            panic!("a summary over the cap is mailed");
        };
        assert_eq!(
            note,
            "The animated summary of the game (3 KB) is too large to mail; it is on the web at \
             https://dip.example.org/games/demo/summary.png."
        );
        let Err(Unsent::TooLarge(note)) = mailable(drawn, 1_000, None) else {
            panic!("a summary over the cap is mailed");
        };
        assert_eq!(
            note,
            "The animated summary of the game (3 KB) is too large to mail."
        );
    }
}
