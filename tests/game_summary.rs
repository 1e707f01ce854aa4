//! A finished game's animated summary (issue 25): every phase's position
//! in turn as one animated PNG, attached to the mail that tells of the
//! game's end (the results that end it, or the Master's TERMINATE) and
//! published beside the game's pages. A game played by real mail, `judge
//! run --once` sending the queue through the Maildir outbox and writing
//! the pages; the attachment read back as a player gets it and decoded.

mod common;
#[path = "web/played.rs"]
mod played;

use common::*;
use played::*;

use mail_parser::MimeHeaders;
use std::io::Cursor;

/// The most bytes of PNG an end mail carries (`SUMMARY_MAIL_CAP`).
const SUMMARY_CAP: usize = 1_500_000;

/// Every mail in the Maildir outbox, parsed.
fn outbox(j: &TestJudge) -> Vec<mail_parser::Message<'static>> {
    std::fs::read_dir(j.dir.join("var/outbox/new"))
        .unwrap()
        .map(|e| {
            let raw = std::fs::read(e.unwrap().path()).unwrap();
            mail_parser::MessageParser::default()
                .parse(&raw)
                .unwrap()
                .into_owned()
        })
        .collect()
}

/// The mails sent whose subject holds `what`, with their recipient.
fn sent_with<'m>(
    mails: &'m [mail_parser::Message<'static>],
    what: &str,
) -> Vec<(String, &'m mail_parser::Message<'static>)> {
    mails
        .iter()
        .filter(|m| m.subject().unwrap_or("").contains(what))
        .map(|m| {
            let to = m.to().unwrap().first().unwrap().address().unwrap();
            (to.to_string(), m)
        })
        .collect()
}

/// The attachment named `name`, if the mail has it.
fn attachment(message: &mail_parser::Message<'static>, name: &str) -> Option<Vec<u8>> {
    message
        .attachments()
        .find(|a| a.attachment_name() == Some(name))
        .map(|a| a.contents().to_vec())
}

/// What an APNG says of itself: its size, its frames and plays, whether
/// its default image stands apart from the animation, each frame's delay
/// (ms).
#[derive(Debug)]
struct Animation {
    width: u32,
    frames: u32,
    plays: u32,
    default_apart: bool,
    delays_ms: Vec<u32>,
}

fn read_apng(bytes: &[u8]) -> Animation {
    let decoder = png::Decoder::new(Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a PNG");
    let info = reader.info();
    let control = info.animation_control.expect("acTL: an animated PNG");
    let (width, default_apart) = (info.width, info.frame_control.is_none());
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let mut delays_ms = Vec::new();
    let images = control.num_frames + u32::from(default_apart);
    for i in 0..images {
        reader.next_frame(&mut buf).expect("every frame decodes");
        if i > 0 || !default_apart {
            let fc = reader.info().frame_control.expect("fcTL");
            let den = if fc.delay_den == 0 { 100 } else { fc.delay_den };
            delays_ms.push(u32::from(fc.delay_num) * 1000 / u32::from(den));
        }
    }
    Animation {
        width,
        frames: control.num_frames,
        plays: control.num_plays,
        default_apart,
        delays_ms,
    }
}

/// A summary as a player gets it: `frames` positions, 800 pixels wide,
/// looping, a second a phase and longer on the end, its still image apart
/// from the animation, under the mail's cap.
fn assert_summary(bytes: &[u8], frames: i64) {
    assert!(bytes.len() <= SUMMARY_CAP, "{} bytes", bytes.len());
    let a = read_apng(bytes);
    assert_eq!(i64::from(a.frames), frames, "{a:?}");
    assert_eq!((a.width, a.plays, a.default_apart), (800, 0, true), "{a:?}");
    let (last, each) = a.delays_ms.split_last().unwrap();
    assert!(each.iter().all(|&d| d == 1000), "{a:?}");
    assert_eq!(*last, 4000, "{a:?}");
}

fn phases_of(j: &TestJudge, game: &str) -> i64 {
    j.query_i64(&format!(
        "SELECT count(*) FROM phases p JOIN games g ON g.id = p.game_id WHERE g.name = '{game}'"
    ))
}

/// A short game (SET END 1901) ends with W1901A: its results mail goes to
/// the seven and the Master with the map of the phase and the summary
/// (named in the text), the same bytes in every copy, drawn once; the
/// game's page shows the summary, published beside it.
#[test]
fn the_end_mail_carries_the_whole_game_animated_and_the_page_shows_it() {
    let mut j = TestJudge::new("summary-end");
    j.set_config("web", "url", "\"https://dip.example.org/games\"");
    let mut g = Played::start(&mut j, "ended");
    g.master("SET END 1901");
    g.play_first_year();
    let run = g.run_once();
    let phases = phases_of(g.judge, "ended");
    // S1901M, F1901M, W1901A played, and where the game ended: S1902M.
    assert_eq!(phases, 4);

    let sent = outbox(g.judge);
    let ends = sent_with(&sent, "W1901A Results");
    assert_eq!(ends.len(), 8, "seven players and the Master");
    let mut first: Option<Vec<u8>> = None;
    for (to, mail) in &ends {
        let text = mail.body_text(0).unwrap().replace("\r\n", "\n");
        assert!(
            text.contains(&format!(
                "Attached pictures:\n  ended-W1901A.png: the orders and results\n  \
                 ended-summary.png: the whole game, its {phases} positions in turn \
                 (an animated PNG)"
            )),
            "{to}: {text}"
        );
        let summary = attachment(mail, "ended-summary.png").expect("the summary");
        match &first {
            None => {
                assert_summary(&summary, phases);
                first = Some(summary);
            }
            Some(bytes) => assert!(*bytes == summary, "{to}'s summary differs"),
        }
    }
    // Only the end mail carries it.
    for (to, mail) in sent_with(&sent, "F1901M Results") {
        assert!(attachment(mail, "ended-summary.png").is_none(), "{to}");
    }
    let drawn = run
        .stderr
        .lines()
        .find(|l| l.contains("drew "))
        .unwrap_or_else(|| panic!("no count of pictures drawn: {}", run.stderr));
    // The opening and the three phases' maps, and one summary.
    assert!(drawn.contains("drew 5 pictures"), "{drawn}");

    let published = std::fs::read(g.folder().join("summary.png")).expect("published");
    assert_summary(&published, phases);
    let page = g.page("index.html");
    assert!(page.contains("<img src=\"summary.png\""), "{page}");
    // The board of a finished game is where it ended: no orders are due.
    let board = g.page("board.svg");
    assert!(
        board.contains("game ended: where the game ended"),
        "{board}"
    );
    assert!(!board.contains("orders due"), "{board}");
}

/// TERMINATE's notice carries the summary of the game as far as it went,
/// but not to a player who SET MAPS OFF; the archive publishes it too.
#[test]
fn terminate_sends_the_summary_to_all_but_those_without_maps() {
    let mut j = TestJudge::new("summary-terminate");
    let mut g = Played::start(&mut j, "stopped");
    g.play_first_year();
    g.power('R', "SET MAPS OFF");
    g.master("TERMINATE");
    g.run_once();
    let phases = phases_of(g.judge, "stopped");
    // Three played and S1902M, where the Master stopped it.
    assert_eq!(phases, 4);

    let sent = outbox(g.judge);
    let notices = sent_with(&sent, "Game terminated");
    assert_eq!(
        notices.len(),
        8,
        "{:?}",
        notices.iter().map(|n| &n.0).collect::<Vec<_>>()
    );
    for (to, mail) in &notices {
        let summary = attachment(mail, "stopped-summary.png");
        let text = mail.body_text(0).unwrap().replace("\r\n", "\n");
        if *to == address('R') {
            assert!(summary.is_none(), "maps off, yet: {text}");
            assert!(!text.contains("Attached"), "{text}");
        } else {
            assert_summary(&summary.expect("the summary"), phases);
            assert!(
                text.contains("Attached:\n  stopped-summary.png: the whole game"),
                "{to}: {text}"
            );
        }
    }
    assert_summary(
        &std::fs::read(g.folder().join("summary.png")).unwrap(),
        phases,
    );
    assert!(g.page("index.html").contains("<img src=\"summary.png\""));
}

/// With `[maps] enabled = false` the end mail carries no pictures and
/// names none; the archive still publishes the summary. A game still
/// going has none.
#[test]
fn with_maps_off_the_end_mail_has_no_summary() {
    let mut j = TestJudge::new("summary-nomaps");
    j.set_config("maps", "enabled", "false");
    let mut g = Played::start(&mut j, "plain");
    g.play_first_year();
    g.run_once();
    assert!(
        !g.folder().join("summary.png").exists(),
        "a game in play has a summary"
    );
    assert!(!g.page("index.html").contains("summary.png"));
    g.master("TERMINATE");
    g.run_once();
    let sent = outbox(g.judge);
    let notices = sent_with(&sent, "Game terminated");
    assert_eq!(notices.len(), 8);
    for (to, mail) in notices {
        assert!(mail.attachments().next().is_none(), "{to}");
    }
    assert!(g.folder().join("summary.png").exists());
}
