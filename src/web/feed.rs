//! `<game>/feed.atom`: an Atom 1.0 feed of the game, one entry per
//! processed phase (linking to its page) and per message to everyone,
//! laid out by `templates/web/feed.atom`. Pure; every text escaped by the
//! template, so the feed is well-formed XML whatever the players wrote.

use serde::Serialize;

use super::pages::PhaseName;
use super::templates::{PageTemplates, TemplateError, FEED};
use super::view::GameView;

/// Who the feed says it is from: the judge's name and address, and its
/// code (part of every id, with the address, so ids differ between
/// judges).
pub struct Publisher<'a> {
    pub name: &'a str,
    pub address: &'a str,
    pub code: &'a str,
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
    press: Option<PressEntry<'a>>,
}

#[derive(Serialize)]
struct PressEntry<'a> {
    id: i64,
    subject: &'a str,
    body: &'a str,
}

pub fn game_feed(
    templates: &PageTemplates,
    by: &Publisher<'_>,
    view: &GameView,
) -> Result<String, TemplateError> {
    let card = &view.card;
    let mut entries: Vec<Entry<'_>> = Vec::new();
    for line in &view.phases {
        let phase = PhaseName::of(line.phase);
        entries.push(Entry {
            id: tag(by, &card.name, &phase.code),
            at: line.processed_at,
            phase: Some(phase),
            press: None,
        });
    }
    for item in &view.press {
        entries.push(Entry {
            id: tag(by, &card.name, &format!("press-{}", item.id)),
            at: item.sent_at,
            phase: None,
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
        id: tag(by, &card.name, "feed"),
        updated: entries.first().map_or(card.activity, |e| e.at),
        entries,
    };
    templates.render(FEED, &feed)
}
