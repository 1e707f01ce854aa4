//! `judge map` on a game played by mail, and `judge adjudicate` asked for
//! the SVG of its result: the real binary, a real store.

mod common;
use common::*;
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

/// A game `name` whose Spring 1901 was processed with France's opening
/// orders: (the judge, France's address).
fn played_game(name: &str) -> (TestJudge, &'static str) {
    played_game_with(name, "")
}

/// [`played_game`], France sending `extra` lines with its orders.
fn played_game_with(name: &str, extra: &str) -> (TestJudge, &'static str) {
    played_game_configured(name, extra, &[])
}

/// [`played_game_with`] on a judge whose `judge.toml` has `settings`
/// (section, key, TOML value).
fn played_game_configured(
    name: &str,
    extra: &str,
    settings: &[(&str, &str, &str)],
) -> (TestJudge, &'static str) {
    let mut j = TestJudge::new(name);
    for (section, key, value) in settings {
        j.set_config(section, key, value);
    }
    j.mail(MASTER, &format!("CREATE ?{name} mpass"));
    for addr in PLAYERS {
        j.mail(addr, &format!("SIGNON ?{name} pw-{}", &addr[..2]));
    }
    // Who is France: the lot decided; find the seat.
    let france: String = j
        .db()
        .query_row(
            "SELECT address FROM seats WHERE power = 'FRANCE'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let france = PLAYERS.into_iter().find(|a| *a == france).unwrap();
    let r = j.mail(
        france,
        &format!(
            "SIGNON F{name} pw-{}\nA Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao\n{extra}",
            &france[..2]
        ),
    );
    assert!(!r.is_empty());
    let r = j.mail(MASTER, &format!("SIGNON M{name} mpass\nPROCESS S1901M"));
    assert!(r.iter().any(|m| m.subject.contains("S1901M")), "processed");
    (j, france)
}

#[test]
fn judge_map_draws_a_processed_phase_and_the_current_position() {
    let (j, _) = played_game("pic");
    // The processed phase, as SVG: its orders drawn, its title.
    let run = j.run(&["map", "pic", "S1901M", "--svg"], b"");
    assert!(run.ok, "{}", run.stderr);
    assert!(run.stdout.starts_with("<svg"), "{:.200}", run.stdout);
    assert!(run
        .stdout
        .contains("game pic: Spring 1901, movement results"));
    // Three French orders drawn: two arrows and a support, dashed, ending
    // in its dot (the holds of the other units are not drawn).
    // (and the key's sample of a support).
    assert_eq!(
        run.stdout.matches("stroke-dasharray=\"3.2 1.6\"").count(),
        2
    );
    assert!(run.stdout.contains(">support</text>"));
    // The current position, as PNG into a file, [maps] width wide.
    let out = j.dir.join("now.png");
    let run = j.run(&["map", "pic", "-o", out.to_str().unwrap()], b"");
    assert!(run.ok, "{}", run.stderr);
    let pixmap = Pixmap::decode_png(&std::fs::read(&out).unwrap()).expect("a PNG");
    assert_eq!(pixmap.width(), 1200);
    // An .svg name gives SVG.
    let out = j.dir.join("now.svg");
    let run = j.run(&["map", "pic", "F1901M", "-o", out.to_str().unwrap()], b"");
    assert!(run.ok, "{}", run.stderr);
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(
        svg.contains("Fall 1901, movement orders due"),
        "{:.300}",
        svg
    );
    // Errors say what is wrong.
    let run = j.run(&["map", "nosuch"], b"");
    assert!(!run.ok);
    assert!(
        run.stderr.contains("no game named 'nosuch'"),
        "{}",
        run.stderr
    );
    let run = j.run(&["map", "pic", "S1950M"], b"");
    assert!(!run.ok);
}

#[test]
fn adjudicate_answers_with_the_svg_when_asked() {
    let j = TestJudge::new("adjsvg");
    let line = r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"]}, "orders": {"FRANCE": ["A Par - Bur", "A Mar S A Par - Bur"], "GERMANY": ["A Mun - Bur"]}, "svg": true}
{"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "orders": {"FRANCE": ["A Par - Bur"]}}
"#;
    let run = j.run(&["adjudicate", "--threads", "1"], line.as_bytes());
    assert!(run.ok, "{}", run.stderr);
    let lines: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let svg = lines[0]["svg"].as_str().expect("an svg");
    assert!(svg.starts_with("<svg") && svg.contains("Spring 1901, movement results"));
    assert_eq!(lines[0]["results"]["A MUN - BUR"], "bounce");
    // Without the key, no picture (and the answer as before).
    assert!(lines[1].get("svg").is_none());
}

/// A results mail as sent: its text first and whole, then the map as a
/// PNG that decodes, 1,200 pixels wide, with the units where the position
/// says (the French army that moved to Burgundy, in France's colour);
/// with `[maps] next`, the position for the next orders after it.
#[test]
fn the_results_mail_carries_the_map() {
    let (mut j, france) = played_game_configured("mailmap", "", &[("maps", "next", "true")]);
    let queued = j.take();
    let _ = queued;
    // The queued mail names its picture; `judge run --once` sends it drawn.
    let results_queued: i64 = j.query_i64(
        "SELECT count(*) FROM outbound WHERE subject LIKE '%S1901M Results%' \
         AND instr(CAST(raw AS TEXT), 'X-Judge-Picture: results') > 0",
    );
    assert_eq!(results_queued, 8, "seven players and the Master");
    let run = j.run(&["run", "--once", "--now", &at(1)], b"");
    assert!(run.ok, "{}", run.stderr);
    let outbox = j.dir.join("var/outbox/new");
    let mut found = 0;
    for entry in std::fs::read_dir(&outbox).unwrap() {
        let raw = std::fs::read(entry.unwrap().path()).unwrap();
        let message = mail_parser::MessageParser::default().parse(&raw).unwrap();
        if !message.subject().unwrap_or("").contains("S1901M Results") {
            continue;
        }
        found += 1;
        let to = message
            .to()
            .unwrap()
            .first()
            .unwrap()
            .address()
            .unwrap()
            .to_string();
        let text = message
            .body_text(0)
            .expect("the text first")
            .replace("\r\n", "\n");
        assert!(
            text.contains("Movement results for Spring of 1901"),
            "{text}"
        );
        // The text names each picture and what it shows.
        assert!(
            text.contains(
                "Attached pictures:\n  mailmap-S1901M.png: the orders and results\n  \
                 mailmap-F1901M.png: the position for the movement orders due"
            ),
            "{text}"
        );
        let attachment = message.attachment(0).expect("the map");
        use mail_parser::MimeHeaders;
        assert_eq!(attachment.content_type().unwrap().ctype(), "image");
        assert_eq!(attachment.attachment_name(), Some("mailmap-S1901M.png"));
        if to == france || found == 1 {
            let pixmap = Pixmap::decode_png(attachment.contents()).expect("a PNG");
            assert_eq!(pixmap.width(), 1200);
            // A PAR - BUR succeeded: the drawing shows the army in Paris
            // (where it stood when ordered), France's colour on its badge.
            assert_eq!(badge_colour(&pixmap, "PAR"), [0x5F, 0xB4, 0xE6]);
            // The second picture: the position for the next orders, the
            // army now in Burgundy and Paris empty.
            let next = message.attachment(1).expect("the next position");
            assert_eq!(next.attachment_name(), Some("mailmap-F1901M.png"));
            let pixmap = Pixmap::decode_png(next.contents()).expect("a PNG");
            assert_eq!(badge_colour(&pixmap, "BUR"), [0x5F, 0xB4, 0xE6]);
            assert_ne!(badge_colour(&pixmap, "PAR"), [0x5F, 0xB4, 0xE6]);
        }
    }
    assert_eq!(found, 8);
}

/// The colour where a unit's badge would be in `province`.
fn badge_colour(pixmap: &Pixmap, province: &str) -> [u8; 3] {
    let board = judge::draw::board::Board::standard();
    let map = judge::engine::map::Map::standard();
    let (x, y) = board.unit_point(map.location_by_abbr(province).unwrap());
    let zoom = pixmap.width() as f32 / board.width();
    let c = pixmap
        .pixel(
            ((x + 7.0) * zoom) as u32,
            ((y + 4.2 + judge::draw::style::TITLE_BAND) * zoom) as u32,
        )
        .unwrap();
    [c.red(), c.green(), c.blue()]
}

/// The queued mails' raw text to `to` whose subject has `what`.
fn queued_to(j: &TestJudge, to: &str, what: &str) -> Vec<String> {
    let conn = j.db();
    let mut stmt = conn
        .prepare("SELECT recipients, subject, raw FROM outbound ORDER BY id")
        .unwrap();
    let rows: Vec<(String, String, Vec<u8>)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    rows.into_iter()
        .filter(|(r, s, _)| r.contains(to) && s.contains(what))
        .map(|(_, _, raw)| String::from_utf8_lossy(&raw).into_owned())
        .collect()
}

/// Every player's start mail carries the opening position's map, and
/// its text says so; sent, the picture decodes.
#[test]
fn the_start_mail_carries_the_opening_map() {
    let (mut j, _) = played_game("startmap");
    let starts = queued_to(&j, "al@example.net", "Game starts");
    assert_eq!(starts.len(), 1);
    assert!(
        starts[0].contains("X-Judge-Picture: position"),
        "{}",
        starts[0]
    );
    assert!(
        starts[0]
            .contains("startmap-S1901M.png: the opening position, for the movement orders due"),
        "{}",
        starts[0]
    );
    let _ = j.take();
    let run = j.run(&["run", "--once", "--now", &at(1)], b"");
    assert!(run.ok, "{}", run.stderr);
    let mut pictures = 0;
    for entry in std::fs::read_dir(j.dir.join("var/outbox/new")).unwrap() {
        let raw = std::fs::read(entry.unwrap().path()).unwrap();
        let message = mail_parser::MessageParser::default().parse(&raw).unwrap();
        let to = message.to().unwrap().first().unwrap().address().unwrap();
        if !message.subject().unwrap_or("").contains("Game starts") || to == MASTER {
            continue;
        }
        let picture = message.attachment(0).expect("the opening map");
        let pixmap = Pixmap::decode_png(picture.contents()).expect("a PNG");
        // France's army stands in Paris, in the classic palette's light blue.
        assert_eq!(badge_colour(&pixmap, "PAR"), [0x5F, 0xB4, 0xE6]);
        pictures += 1;
    }
    assert_eq!(pictures, 7, "one per player");
}

/// `[maps] palette` chooses the powers' colours; a name the judge does
/// not know is refused with the two it knows.
#[test]
fn the_palette_is_the_judgekeepers_choice() {
    let (j, _) = played_game("palette");
    j.set_config("maps", "palette", "\"okabe-ito\"");
    let out = j.dir.join("okabe.png");
    let run = j.run(&["map", "palette", "-o", out.to_str().unwrap()], b"");
    assert!(run.ok, "{}", run.stderr);
    let pixmap = Pixmap::decode_png(&std::fs::read(&out).unwrap()).expect("a PNG");
    // France's army, now in Burgundy, in Okabe-Ito's sky blue.
    assert_eq!(badge_colour(&pixmap, "BUR"), [0x56, 0xB4, 0xE9]);
    j.set_config("maps", "palette", "\"rainbow\"");
    let run = j.run(&["map", "palette"], b"");
    assert!(!run.ok);
    assert!(
        run.stderr.contains(
            "[maps] palette = \"rainbow\": give \"classic\" (the board's colours) or \"okabe-ito\" (for colour-blind readers)"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn set_maps_off_leaves_the_map_out_of_that_players_results() {
    let (mut j, france) = played_game_with("nomap", "SET MAPS OFF");
    let mine = queued_to(&j, france, "S1901M Results");
    assert_eq!(mine.len(), 1);
    assert!(!mine[0].contains("X-Judge-Picture"), "{}", mine[0]);
    assert!(mine[0].contains("Movement results for Spring of 1901"));
    let other = PLAYERS.into_iter().find(|a| *a != france).unwrap();
    let theirs = queued_to(&j, other, "S1901M Results");
    assert!(theirs[0].contains("X-Judge-Picture: results"));
    // A word other than ON or OFF is refused with the usage.
    let r = j.mail(
        france,
        &format!("SIGNON Fnomap pw-{}\nSET MAPS SOMETIMES", &france[..2]),
    );
    assert!(r[0].body.contains("Write SET MAPS OFF"), "{}", r[0].body);
}

#[test]
fn get_map_answers_with_a_picture() {
    let (mut j, france) = played_game("getmap");
    // Signed on: the current position.
    let r = j.mail(
        france,
        &format!("SIGNON Fgetmap pw-{}\nGET MAP", &france[..2]),
    );
    assert!(
        r[0].body
            .contains("The map of getmap, F1901M, is attached."),
        "{}",
        r[0].body
    );
    let replies = queued_to(&j, france, "");
    assert!(replies.last().unwrap().contains("X-Judge-Picture: phase"));
    // By anyone, a past phase of a game named.
    let r = j.mail("someone@example.com", "GET MAP getmap S1901M");
    assert!(
        r[0].body
            .contains("The map of getmap, S1901M, is attached."),
        "{}",
        r[0].body
    );
    let r = j.mail("someone@example.com", "GET MAP getmap S1950M");
    assert!(
        r[0].body.contains("'getmap' has no phase S1950M."),
        "{}",
        r[0].body
    );
    // Not signed on, no game named: the map help page, as before.
    let r = j.mail("someone@example.com", "GET map");
    assert!(!r[0].body.contains("is attached"), "{}", r[0].body);
    // Sent, the picture is there and decodes.
    let run = j.run(&["run", "--once", "--now", &at(1)], b"");
    assert!(run.ok, "{}", run.stderr);
    let mut pictures = 0;
    for entry in std::fs::read_dir(j.dir.join("var/outbox/new")).unwrap() {
        let raw = std::fs::read(entry.unwrap().path()).unwrap();
        let message = mail_parser::MessageParser::default().parse(&raw).unwrap();
        if message.to().unwrap().first().unwrap().address() != Some("someone@example.com") {
            continue;
        }
        if let Some(a) = message.attachment(0) {
            Pixmap::decode_png(a.contents()).expect("a PNG");
            pictures += 1;
        }
    }
    assert_eq!(pictures, 1, "one GET MAP of a phase that exists");
}
