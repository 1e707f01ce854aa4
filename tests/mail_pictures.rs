//! The pictures of a deadline's results mails as `judge run` sends them
//! (issue 23): each drawn once per game however many mails carry it, the
//! same bytes in every recipient's mail, and a results mail small enough
//! to send a thousand games' worth at one deadline. The real binary, a
//! real store, the Maildir outbox.

mod common;
use common::*;
use std::collections::BTreeSet;

use mail_parser::MimeHeaders;
use resvg::tiny_skia::Pixmap;

const MASTER: &str = "master@example.org";
const PLAYERS: [&str; 7] = [
    "al@example.net",
    "bo@example.net",
    "cy@example.net",
    "di@example.net",
    "ed@example.net",
    "fa@example.net",
    "gu@example.net",
];

/// The largest results mail, its picture in: a thousand games' eight
/// mails each then make at most 2 GB at one deadline.
const MAIL_LIMIT: usize = 250 * 1000;

/// Each power's usual opening; Galicia and the Black Sea bounce.
const OPENINGS: [(&str, &str); 7] = [
    ("AUSTRIA", "A Vie - Gal\nA Bud - Ser\nF Tri - Alb"),
    ("ENGLAND", "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor"),
    ("FRANCE", "A Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao"),
    ("GERMANY", "A Ber - Kie\nA Mun - Ruh\nF Kie - Den"),
    ("ITALY", "A Ven - Tyr\nA Rom - Ven\nF Nap - Ion"),
    (
        "RUSSIA",
        "A Mos - Ukr\nA War - Gal\nF Sev - Bla\nF Stp/sc - Bot",
    ),
    ("TURKEY", "A Con - Bul\nA Smy - Con\nF Ank - Bla"),
];

/// Game `name` on `j`, started, every power's opening orders in, Spring
/// 1901 processed by the Master: its results mails queued.
fn play_spring(j: &mut TestJudge, name: &str) {
    j.mail(MASTER, &format!("CREATE ?{name} mpass"));
    for addr in PLAYERS {
        j.mail(addr, &format!("SIGNON ?{name} pw-{}", &addr[..2]));
    }
    for (power, orders) in OPENINGS {
        let addr: String = j
            .db()
            .query_row(
                "SELECT s.address FROM seats s JOIN games g ON g.id = s.game_id \
                 WHERE g.name = ?1 AND s.power = ?2",
                [name, power],
                |r| r.get(0),
            )
            .unwrap();
        let r = j.mail(
            &addr,
            &format!("SIGNON {}{name} pw-{}\n{orders}", &power[..1], &addr[..2]),
        );
        assert!(!r[0].body.contains("rror"), "{}", r[0].body);
    }
    let r = j.mail(MASTER, &format!("SIGNON M{name} mpass\nPROCESS S1901M"));
    assert!(r.iter().any(|m| m.subject.contains("S1901M")), "processed");
}

/// The queued, unsent mails that name pictures: how many, and the
/// pictures they name between them.
fn queued_pictures(j: &TestJudge) -> (usize, BTreeSet<String>) {
    let conn = j.db();
    let mut stmt = conn
        .prepare("SELECT raw FROM outbound WHERE sent_at IS NULL")
        .unwrap();
    let raws: Vec<Vec<u8>> = stmt
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut mails = 0;
    let mut pictures = BTreeSet::new();
    for raw in raws {
        let text = String::from_utf8_lossy(&raw);
        let named: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("X-Judge-Picture: "))
            .collect();
        if !named.is_empty() {
            mails += 1;
            pictures.extend(named.into_iter().map(str::to_string));
        }
    }
    (mails, pictures)
}

/// Every mail in the Maildir outbox, raw.
fn outbox(j: &TestJudge) -> Vec<Vec<u8>> {
    std::fs::read_dir(j.dir.join("var/outbox/new"))
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect()
}

/// The S1901M results mails of `game` as sent: (recipient, raw).
fn results_of(mails: &[Vec<u8>], game: &str) -> Vec<(String, Vec<u8>)> {
    mails
        .iter()
        .filter_map(|raw| {
            let message = mail_parser::MessageParser::default().parse(raw).unwrap();
            let subject = message.subject().unwrap_or("");
            if !(subject.contains(&format!("{game} ")) && subject.contains("S1901M Results")) {
                return None;
            }
            let to = message.to().unwrap().first().unwrap().address().unwrap();
            Some((to.to_string(), raw.clone()))
        })
        .collect()
}

/// A deadline's results as players get them, with the shipped
/// `judge.toml`: each mail carries one picture, the orders and their
/// results, under 250 KB; all eight carry the same bytes; and the
/// sending pass draws each picture once, however many mails carry it.
#[test]
fn a_games_results_mails_share_one_small_picture_drawn_once() {
    let mut j = TestJudge::new("sharedmap");
    play_spring(&mut j, "shared");
    play_spring(&mut j, "twin");
    let (mails, pictures) = queued_pictures(&j);
    // The start mails' opening map and the results map, of each game.
    assert_eq!(pictures.len(), 4, "{pictures:?}");
    let run = j.run(&["run", "--once", "--now", &at(1)], b"");
    assert!(run.ok, "{}", run.stderr);
    let drew = format!("drew 4 pictures for {mails} mails");
    assert!(run.stderr.contains(&drew), "{drew}?\n{}", run.stderr);

    let sent = outbox(&j);
    for game in ["shared", "twin"] {
        let results = results_of(&sent, game);
        assert_eq!(results.len(), 8, "seven players and the Master");
        let mut first_png: Option<Vec<u8>> = None;
        for (to, raw) in &results {
            assert!(
                raw.len() <= MAIL_LIMIT,
                "{game}'s results mail to {to}: {} bytes",
                raw.len()
            );
            let message = mail_parser::MessageParser::default().parse(raw).unwrap();
            let text = message.body_text(0).unwrap().replace("\r\n", "\n");
            assert!(
                text.trim_end().ends_with(&format!(
                    "Attached:\n  {game}-S1901M.png: the orders and results"
                )),
                "{text}"
            );
            assert!(message.attachment(1).is_none(), "one picture");
            let png = message.attachment(0).expect("the map").contents().to_vec();
            match &first_png {
                None => {
                    let pixmap = Pixmap::decode_png(&png).expect("a PNG");
                    assert_eq!(pixmap.width(), 1200);
                    first_png = Some(png);
                }
                Some(first) => assert!(*first == png, "{game}: {to}'s picture differs"),
            }
        }
    }
    // The two games' pictures are their own.
    let one = results_of(&sent, "shared");
    let other = results_of(&sent, "twin");
    let picture = |raw: &[u8]| {
        let message = mail_parser::MessageParser::default().parse(raw).unwrap();
        message.attachment(0).unwrap().contents().to_vec()
    };
    assert!(picture(&one[0].1) != picture(&other[0].1));
}

/// A queue longer than the sender's batch of 100 (four games' replies,
/// start and results mails): the sender draws a batch's pictures while
/// it sends the batch before, and every mail goes out once, whole, with
/// its own game's picture, however the games' mails fall into batches.
#[test]
fn a_queue_of_several_batches_goes_out_whole_each_mail_once_with_its_games_picture() {
    let mut j = TestJudge::new("batchmap");
    let games = ["alpha", "bravo", "charlie", "delta"];
    for game in games {
        play_spring(&mut j, game);
    }
    let queued: i64 = j
        .db()
        .query_row(
            "SELECT count(*) FROM outbound WHERE sent_at IS NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(queued > 100, "{queued} mails: more than a batch");
    let run = j.run(&["run", "--once", "--now", &at(1)], b"");
    assert!(run.ok, "{}", run.stderr);
    let said = format!("sent {queued} mails");
    assert!(run.stderr.contains(&said), "{said}?\n{}", run.stderr);

    let sent = outbox(&j);
    assert_eq!(sent.len() as i64, queued, "each mail once");
    let ids: BTreeSet<String> = sent
        .iter()
        .map(|raw| {
            let message = mail_parser::MessageParser::default().parse(raw).unwrap();
            message.message_id().unwrap().to_string()
        })
        .collect();
    assert_eq!(ids.len(), sent.len(), "no mail twice");
    let mut pictures = BTreeSet::new();
    for game in games {
        let results = results_of(&sent, game);
        assert_eq!(results.len(), 8, "{game}: seven players and the Master");
        let own: BTreeSet<Vec<u8>> = results
            .iter()
            .map(|(_, raw)| {
                let message = mail_parser::MessageParser::default().parse(raw).unwrap();
                let picture = message.attachment(0).expect("the map");
                assert_eq!(
                    picture.attachment_name(),
                    Some(&*format!("{game}-S1901M.png"))
                );
                picture.contents().to_vec()
            })
            .collect();
        assert_eq!(own.len(), 1, "{game}: one picture in all eight mails");
        pictures.extend(own);
    }
    assert_eq!(pictures.len(), games.len(), "each game its own picture");
}

/// `[maps] next` adds the position for the next orders as a second
/// picture; a mail with both is still sent whole, each drawn once.
#[test]
fn maps_next_adds_the_next_position_drawn_once_too() {
    let mut j = TestJudge::new("nextmap");
    j.set_config("maps", "next", "true");
    play_spring(&mut j, "ahead");
    let (mails, pictures) = queued_pictures(&j);
    // The opening, the results, the position for the fall.
    assert_eq!(pictures.len(), 3, "{pictures:?}");
    let run = j.run(&["run", "--once", "--now", &at(1)], b"");
    assert!(run.ok, "{}", run.stderr);
    let drew = format!("drew 3 pictures for {mails} mails");
    assert!(run.stderr.contains(&drew), "{drew}?\n{}", run.stderr);
    let results = results_of(&outbox(&j), "ahead");
    assert_eq!(results.len(), 8);
    for (_, raw) in &results {
        let message = mail_parser::MessageParser::default().parse(raw).unwrap();
        let next = message.attachment(1).expect("the next position");
        assert_eq!(next.attachment_name(), Some("ahead-F1901M.png"));
        Pixmap::decode_png(next.contents()).expect("a PNG");
    }
}

/// A mail sent again (the sender died after handing it over, before
/// marking it sent) is the same mail: its pictures, drawn again by
/// another process on every core, are the same bytes. Two copies of one
/// judge send the same queue; each mail comes out byte for byte alike.
#[test]
fn a_mail_sent_again_is_the_same_bytes() {
    let mut j = TestJudge::new("againmap");
    play_spring(&mut j, "again");
    let copy = TestJudgeDir(j.dir.with_file_name(format!(
        "{}-copy",
        j.dir.file_name().unwrap().to_string_lossy()
    )));
    copy_tree(&j.dir, &copy.0);
    let run = j.run(&["run", "--once", "--now", &at(1)], b"");
    assert!(run.ok, "{}", run.stderr);
    let config = copy.0.join("judge.toml");
    let again = std::process::Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(["--config", config.to_str().unwrap()])
        .args(["run", "--once", "--now", &at(1)])
        .output()
        .unwrap();
    assert!(again.status.success(), "{again:?}");
    let by_id = |mails: Vec<Vec<u8>>| -> std::collections::BTreeMap<String, Vec<u8>> {
        mails
            .into_iter()
            .map(|raw| {
                let message = mail_parser::MessageParser::default().parse(&raw).unwrap();
                (message.message_id().unwrap().to_string(), raw)
            })
            .collect()
    };
    let first = by_id(outbox(&j));
    let second = by_id(
        std::fs::read_dir(copy.0.join("var/outbox/new"))
            .unwrap()
            .map(|e| std::fs::read(e.unwrap().path()).unwrap())
            .collect(),
    );
    assert_eq!(
        results_of(&first.values().cloned().collect::<Vec<_>>(), "again").len(),
        8
    );
    assert_eq!(first.len(), second.len());
    for (id, raw) in &first {
        assert!(second.get(id) == Some(raw), "{id} differs when sent again");
    }
}

/// A copied judge folder, removed when the test ends well.
struct TestJudgeDir(std::path::PathBuf);

impl Drop for TestJudgeDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// `from` copied to `to`, folders and files.
fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}
