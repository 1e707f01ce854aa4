//! `<game>/feed.atom`: an Atom 1.0 feed of the game, one entry per
//! processed phase (linking to its page) and per message to everyone.
//! Pure; every text escaped, so the feed is well-formed XML whatever the
//! players wrote.

use std::fmt::Write;

use super::html::{escape, rfc3339};
use super::pages::phase_words;
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

pub fn game_feed(by: &Publisher<'_>, view: &GameView) -> String {
    let card = &view.card;
    let mut entries: Vec<(i64, String)> = Vec::new();
    for line in &view.phases {
        let code = line.phase.to_string();
        let words = phase_words(line.phase);
        entries.push((
            line.processed_at,
            format!(
                "<entry>\n<title>{code}: {words} results</title>\n<id>{}</id>\n\
                 <updated>{}</updated>\n<link rel=\"alternate\" type=\"text/html\" href=\"{code}.html\"/>\n\
                 <summary>The orders and results of {words}, with the map.</summary>\n</entry>\n",
                escape(&tag(by, &card.name, &code)),
                rfc3339(line.processed_at),
            ),
        ));
    }
    for item in &view.press {
        entries.push((
            item.sent_at,
            format!(
                "<entry>\n<title>{}</title>\n<id>{}</id>\n<updated>{}</updated>\n\
                 <link rel=\"alternate\" type=\"text/html\" href=\"index.html#press-{}\"/>\n\
                 <content type=\"text\">{}</content>\n</entry>\n",
                escape(&item.subject),
                escape(&tag(by, &card.name, &format!("press-{}", item.id))),
                rfc3339(item.sent_at),
                item.id,
                escape(&item.body),
            ),
        ));
    }
    entries.sort_by_key(|e| std::cmp::Reverse(e.0));
    let updated = entries.first().map_or(card.activity, |e| e.0);
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
    let _ = write!(
        out,
        "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<title>{}: {}</title>\n<id>{}</id>\n\
         <updated>{}</updated>\n<author><name>{}</name></author>\n\
         <link rel=\"self\" href=\"feed.atom\"/>\n<link rel=\"alternate\" type=\"text/html\" href=\"index.html\"/>\n",
        escape(by.name),
        escape(&card.name),
        escape(&tag(by, &card.name, "feed")),
        rfc3339(updated),
        escape(by.name),
    );
    for (_, entry) in entries {
        out.push_str(&entry);
    }
    out.push_str("</feed>\n");
    out
}
