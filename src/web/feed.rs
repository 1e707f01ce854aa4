//! `<game>/feed.atom`: an Atom 1.0 feed of the game, one entry per
//! processed phase (its orders with their results and its map, linking to
//! its page) and per message to everyone, laid out by
//! `templates/web/feed.atom`. Pure; every text escaped by the template, so
//! the feed is well-formed XML whatever the players wrote (a phase's
//! content is HTML, escaped once more as Atom's `type="html"` asks).

use serde::Serialize;

use super::pages::{orders_by_power, PhaseName, PowerOrders};
use super::templates::{PageTemplates, TemplateError, FEED};
use super::view::GameView;
use crate::engine::map::Map;
use crate::game::pictures::PhasePicture;

/// Who the feed says it is from: the judge's name and address, and its
/// code (part of every id, with the address, so ids differ between
/// judges).
pub struct Publisher<'a> {
    pub name: &'a str,
    pub address: &'a str,
    pub code: &'a str,
    /// `[web] url` (ending in `/`), for the feed's base address: feed
    /// readers then find the pages and maps its entries link to.
    pub url: Option<&'a str>,
}

/// A processed phase as its entry shows it.
pub struct PhaseEntry {
    pub phase: PhaseName,
    pub processed_at: i64,
    pub orders: Vec<PowerOrders>,
}

impl PhaseEntry {
    pub fn of(picture: &PhasePicture, processed_at: i64) -> PhaseEntry {
        PhaseEntry {
            phase: PhaseName::of(picture.position.phase),
            processed_at,
            orders: orders_by_power(Map::standard(), picture),
        }
    }
}

/// A stable, unique id: `tag:<address>,2000:<code>/<game>/<what>`.
fn tag(by: &Publisher<'_>, game: &str, what: &str) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "@.-_".contains(c) {
                    c
                } else {
                    '-'
                }
            })
            .collect()
    };
    format!(
        "tag:{},2000:{}/{}/{what}",
        clean(by.address),
        clean(by.code),
        clean(game)
    )
}

/// The feed as `feed.atom` lays it out.
#[derive(Serialize)]
struct Feed<'a> {
    judge: &'a str,
    game: &'a str,
    /// The game's folder's address, or none.
    base: Option<String>,
    id: String,
    /// The newest entry's time (the game's activity when none).
    updated: i64,
    /// Newest first.
    entries: Vec<Entry<'a>>,
}

/// A processed phase (`phase`) or a message to everyone (`press`).
#[derive(Serialize)]
struct Entry<'a> {
    id: String,
    at: i64,
    phase: Option<PhaseName>,
    /// A phase's orders, per power that gave any.
    orders: Vec<PowerOrders>,
    press: Option<PressEntry<'a>>,
}

#[derive(Serialize)]
struct PressEntry<'a> {
    id: i64,
    subject: &'a str,
    body: &'a str,
}

/// The feed of the game `view` with its processed phases `phases`.
pub fn game_feed(
    templates: &PageTemplates,
    by: &Publisher<'_>,
    view: &GameView,
    phases: Vec<PhaseEntry>,
) -> Result<String, TemplateError> {
    let card = &view.card;
    let mut entries: Vec<Entry<'_>> = Vec::new();
    for line in phases {
        entries.push(Entry {
            id: tag(by, &card.name, &line.phase.code),
            at: line.processed_at,
            phase: Some(line.phase),
            orders: line.orders,
            press: None,
        });
    }
    for item in &view.press {
        entries.push(Entry {
            id: tag(by, &card.name, &format!("press-{}", item.id)),
            at: item.sent_at,
            phase: None,
            orders: Vec::new(),
            press: Some(PressEntry {
                id: item.id,
                subject: &item.subject,
                body: &item.body,
            }),
        });
    }
    entries.sort_by_key(|e| std::cmp::Reverse(e.at));
    let feed = Feed {
        judge: by.name,
        game: &card.name,
        base: by.url.map(|url| format!("{url}{}/", card.name)),
        id: tag(by, &card.name, "feed"),
        updated: entries.first().map_or(card.activity, |e| e.at),
        entries,
    };
    templates.render(FEED, &feed)
}
