//! The Master's SET commands by mail, black-box: several SETs in one mail
//! each act on the game as the ones before left it; deadlines that have
//! passed (or come before the game's minimum) are refused with the
//! earliest allowed; the players hear of the changes in one notice per
//! mail; schedules as ordinary crontab lines.

mod common;

use common::*;
use judge::game::settings::Schedule;
use serde_json::{json, Value};

const MASTER: &str = "master@example.org";

fn player(k: usize) -> String {
    format!("p{k}@example.net")
}

/// A game `name` created by MASTER and joined by seven players: S1901M
/// is current, started at `at(0)`.
fn started_game(j: &mut TestJudge, name: &str) {
    j.mail(MASTER, &format!("CREATE ?{name} mpass"));
    for k in 0..7 {
        j.mail(&player(k), &format!("SIGNON ?{name} pw-{k}"));
    }
    let phase: String = j
        .db()
        .query_row(
            "SELECT phase FROM phases p JOIN games g ON g.id = p.game_id WHERE g.name = ?1",
            [name],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(phase, "S1901M");
}

fn master(j: &mut TestJudge, game: &str, lines: &str) -> Vec<Sent> {
    j.mail(MASTER, &format!("SIGNON M{game} mpass\n{lines}"))
}

/// The game's stored settings, with the current phase's deadline and end
/// of grace as `deadline` and `grace`.
fn state(j: &TestJudge, game: &str) -> Value {
    let conn = j.db();
    let settings: String = conn
        .query_row("SELECT settings FROM games WHERE name = ?1", [game], |r| {
            r.get(0)
        })
        .unwrap();
    let (deadline, grace): (i64, i64) = conn
        .query_row(
            "SELECT deadline, grace_until FROM phases p JOIN games g ON g.id = p.game_id \
             WHERE g.name = ?1 ORDER BY seq DESC LIMIT 1",
            [game],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let mut v: Value = serde_json::from_str(&settings).unwrap();
    v["deadline"] = json!(deadline);
    v["grace"] = json!(grace);
    v
}

/// `2026-11-24 20:00` for a unix time.
fn written(t: i64) -> String {
    chrono::DateTime::from_timestamp(t, 0)
        .unwrap()
        .format("%Y-%m-%d %H:%M")
        .to_string()
}

/// Fri Nov 20 2026 00:00 UTC.
const NOV_20: i64 = 1_795_132_800;

type Kind = (&'static str, fn(&mut Value, usize) -> String);

/// The Master's SETs that change a stored setting: given the game as it
/// stands and a number `k` (to vary the values), the line that changes
/// it, and the change made to `state` as expected.
const KINDS: [Kind; 11] = [
    ("nmr", |v, _| {
        let on = v["nmr"].as_bool().unwrap();
        v["nmr"] = json!(!on);
        if on { "SET NONMR" } else { "SET NMR" }.to_string()
    }),
    ("press", |v, _| {
        let (white, grey) = (v["white"] == json!(true), v["grey"] == json!(true));
        let (line, white, grey) = match (white, grey) {
            (_, true) => ("SET NOPRESS", false, false),
            (true, false) => ("SET GREY", true, true),
            (false, false) => ("SET WHITE", true, false),
        };
        v["white"] = json!(white);
        v["grey"] = json!(grey);
        line.to_string()
    }),
    ("partial", |v, _| {
        let on = v["partial"].as_bool().unwrap();
        v["partial"] = json!(!on);
        if on { "SET NOPARTIAL" } else { "SET PARTIAL" }.to_string()
    }),
    ("observer", |v, _| {
        let next = match v["observers"].as_str().unwrap() {
            "any" => "no",
            "no" => "white",
            _ => "any",
        };
        v["observers"] = json!(next);
        format!("SET OBSERVER {}", next.to_uppercase())
    }),
    ("end", |v, k| {
        let mut year = 1910 + k as u64 % 80;
        if v["end_year"] == json!(year) {
            year += 1;
        }
        v["end_year"] = json!(year);
        format!("SET END {year}")
    }),
    ("move", |v, k| {
        let cron = format!("0 {} {} * * Mon,Thu", k % 60, 10 + k / 60);
        v["movement"]["cron"] = json!(cron);
        v["movement"]["next_seconds"] = json!((k % 40 + 1) * 3600);
        format!("SET MOVE {cron} MIN {}", k % 40 + 1)
    }),
    ("retreat", |v, k| {
        let cron = format!("0 {} {} * * *", k % 60, 10 + k / 60);
        v["retreat"]["cron"] = json!(cron);
        v["retreat"]["grace_seconds"] = json!((k % 30 + 1) * 3600);
        format!("SET RETREAT {cron} GRACE {}", k % 30 + 1)
    }),
    ("adjust", |v, k| {
        // An ordinary crontab line, minute first.
        let cron = format!("{} {} * * Mon-Fri", k % 60, 10 + k / 60);
        v["adjustment"]["cron"] = json!(cron);
        format!("SET ADJUST {cron}")
    }),
    ("deadline", |v, k| {
        let t = NOV_20 + k as i64 * 3600;
        let grace = v["movement"]["grace_seconds"].as_i64().unwrap();
        v["deadline"] = json!(t);
        v["grace"] = json!(t + grace);
        format!("SET DEADLINE {}", written(t))
    }),
    ("start", |v, k| {
        // njudge's START: the phase is not processed before it; the
        // deadline moves to it only if it is sooner (grace after it).
        let t = NOV_20 + k as i64 * 3600;
        v["start"] = json!({ "phase": "S1901M", "at": t });
        if t > v["deadline"].as_i64().unwrap() {
            let schedule: Schedule = serde_json::from_value(v["movement"].clone()).unwrap();
            let grace = t + i64::from(schedule.grace_seconds);
            v["deadline"] = json!(t);
            v["grace"] = json!(grace.max(v["grace"].as_i64().unwrap()));
        }
        format!("SET START {}", written(t))
    }),
    ("grace", |v, k| {
        let t = v["deadline"].as_i64().unwrap() + (k as i64 % 20 + 1) * 3600;
        v["grace"] = json!(t);
        format!("SET GRACE {}", written(t))
    }),
];

#[test]
fn every_pair_of_master_sets_in_one_mail_both_stick() {
    let mut j = TestJudge::new("setpairs");
    started_game(&mut j, "pairs");
    let mut want = state(&j, "pairs");
    let mut k = 0;
    for (a, first) in KINDS {
        for (b, second) in KINDS {
            if a == b {
                continue;
            }
            k += 1;
            // Each mail tells the game's eight addresses: the judge sends
            // at most 300 mails an hour on one address's word, so the
            // Master's mails are spread over the hours, 30 an hour.
            j.now = at(k as i64 / 30);
            let lines = format!("{}\n{}", first(&mut want, k), second(&mut want, k));
            let r = master(&mut j, "pairs", &lines);
            let reply = &r[0];
            assert!(
                !reply.subject.contains("[Error Flag]"),
                "{lines}\n{}",
                dump(&r)
            );
            assert_eq!(
                state(&j, "pairs"),
                want,
                "{a} then {b}:\n{lines}\n{}",
                dump(&r)
            );
        }
    }
}

#[test]
fn the_examples_of_the_issue_all_stick() {
    let mut j = TestJudge::new("setissue");
    started_game(&mut j, "iss");
    master(
        &mut j,
        "iss",
        "SET NONMR\nSET GREY\nSET DEADLINE 2026-11-20 20:00\n\
         SET MOVE 0 0 20 * * Mon,Thu MIN 48 GRACE 24",
    );
    let s = state(&j, "iss");
    assert_eq!(s["nmr"], json!(false), "{s:#}");
    assert_eq!(s["grey"], json!(true), "{s:#}");
    assert_eq!(s["movement"]["cron"], json!("0 0 20 * * Mon,Thu"), "{s:#}");
    assert_eq!(s["deadline"], json!(NOV_20 + 20 * 3600), "{s:#}");
    // Grey press is allowed at once, in the same mail as the SET.
    let r = master(&mut j, "iss", "SET NOPRESS\nSET GREY\nSET NMR");
    assert!(!r[0].subject.contains("[Error Flag]"), "{}", dump(&r));
    let s = state(&j, "iss");
    assert_eq!(
        (s["grey"].clone(), s["nmr"].clone()),
        (json!(true), json!(true))
    );
    // SET WHITE then SET NMR: grey is off.
    master(&mut j, "iss", "SET WHITE\nSET NONMR");
    let s = state(&j, "iss");
    assert_eq!(
        (s["white"].clone(), s["grey"].clone(), s["nmr"].clone()),
        (json!(true), json!(false), json!(false))
    );
}

#[test]
fn a_deadline_that_has_passed_or_comes_too_soon_is_refused_with_the_earliest_allowed() {
    let mut j = TestJudge::new("setpast");
    started_game(&mut j, "past");
    let before = state(&j, "past");
    // Now is Mon Nov 02 2026 12:00; S1901M started then, 72 hours at least.
    j.now = at(100); // Fri Nov 06 16:00
    let r = master(&mut j, "past", "SET DEADLINE 2026-11-01 12:00");
    let body = &r[0].body;
    assert!(
        body.contains("The deadline cannot be Sun Nov 01 2026 12:00 UTC: that time has passed.")
            && body.contains("The earliest allowed is Fri Nov 06 2026 16:01 UTC: write SET DEADLINE 2026-11-06 16:01 or later."),
        "{}",
        dump(&r)
    );
    assert!(r[0].subject.contains("[Error Flag]"));
    assert_eq!(r.len(), 1, "nobody is told of a change: {}", dump(&r));
    assert_eq!(state(&j, "past"), before);
    // Closer than the game's minimum (72 hours after the phase started).
    j.now = at(1);
    let r = master(&mut j, "past", "SET DEADLINE 2026-11-04 12:00");
    assert!(
        r[0].body.contains("the game's minimum is 72 hours after the phase started. The earliest allowed is Thu Nov 05 2026 12:00 UTC: write SET DEADLINE 2026-11-05 12:00 or later."),
        "{}",
        dump(&r)
    );
    assert_eq!(state(&j, "past"), before);
    // The end of grace in the past; a start that has passed.
    j.now = at(200);
    let r = master(
        &mut j,
        "past",
        "SET GRACE 2026-11-06 12:00\nSET START 2026-11-01 12:00",
    );
    assert!(
        r[0].body
            .contains("The end of grace cannot be Fri Nov 06 2026 12:00 UTC")
            && r[0].body.contains(
                "SET START holds S1901M back until a time to come; Sun Nov 01 2026 12:00 UTC \
                 has passed. Nothing was changed."
            ),
        "{}",
        dump(&r)
    );
    assert_eq!(state(&j, "past"), before);
    // The earliest allowed is allowed.
    let r = master(&mut j, "past", "SET DEADLINE 2026-11-10 20:01");
    assert!(!r[0].subject.contains("[Error Flag]"), "{}", dump(&r));
    assert_eq!(
        state(&j, "past")["deadline"],
        json!(NOV_20 - 9 * 86_400 - 4 * 3600 + 60)
    );
}

#[test]
fn the_players_hear_of_a_mails_changes_in_one_notice() {
    let mut j = TestJudge::new("setnotice");
    started_game(&mut j, "note");
    let r = master(
        &mut j,
        "note",
        "SET NONMR\nSET GREY\nSET DEADLINE 2026-11-20 20:00\n\
         SET MOVE 0 20 * * Mon,Thu MIN 48 GRACE 24\nSET END 1905\n\
         SET NODIAS\nSET ABSENCE LIMIT 30",
    );
    let mut everyone: Vec<String> = (0..7).map(player).collect();
    everyone.push(MASTER.to_string());
    for a in &everyone {
        let notices: Vec<&Sent> = r[1..].iter().filter(|m| m.is_to(a)).collect();
        assert_eq!(notices.len(), 1, "{a}: {}", dump(&r));
        assert_eq!(notices[0].subject, "JDG:note - S1901M Settings changed");
        let body = &notices[0].body;
        for said in [
            "The Master of 'note' changed the game:",
            "NoNMR: the game waits for a replacement",
            "Grey press is allowed",
            "The deadline for S1901M is now Fri Nov 20 2026 20:00 UTC",
            "Movement deadlines: Mondays and Thursdays at 20:00 UTC, at least 48 hours after the \
             phase starts; grace 24 hours (schedule '0 20 * * Mon,Thu')",
            "Short game: 1905 is the last year played; the game ends when 1905 is over, \
             after its Fall moves and its Winter builds and removals.",
            "Draws name their powers",
            "Players may now announce up to 30 days of absence",
        ] {
            assert!(body.contains(said), "{said}\n{body}");
        }
        assert!(!body.contains("Fall adjustments"), "{body}");
    }
    // A year already past is refused, and nobody is told.
    j.now = at(1);
    master(&mut j, "note", "PROCESS");
    master(&mut j, "note", "PROCESS");
    let r = master(&mut j, "note", "SET END 1902");
    assert_eq!(
        one_to(&r[1..], &player(3)).subject,
        "JDG:note - S1902M Settings changed"
    );
    let r = master(&mut j, "note", "SET END 1901");
    assert!(
        r[0].body
            .contains("The game is already in S1902M: write SET END 1902 or later."),
        "{}",
        dump(&r)
    );
    assert_eq!(r.len(), 1, "{}", dump(&r));
    // A deadline alone: "Deadline changed", as before.
    let r = master(&mut j, "note", "SET DEADLINE 2026-11-21 20:00");
    assert_eq!(
        one_to(&r[1..], &player(3)).subject,
        "JDG:note - S1902M Deadline changed"
    );
}

#[test]
fn schedules_take_an_ordinary_crontab_line_and_name_a_wrong_field() {
    let mut j = TestJudge::new("setcron");
    started_game(&mut j, "cron");
    for (line, said) in [
        (
            "SET MOVE 0 20 * * 1,4 MIN 24",
            "Movement deadlines: Mondays and Thursdays at 20:00 UTC, at least 24 hours after the \
             phase starts; grace 24 hours (schedule '0 20 * * 1,4')",
        ),
        (
            "SET RETREAT 0 0 25 * * Mon",
            "'0 0 25 * * Mon': the hour field runs from 0 to 23, not 25",
        ),
        (
            "SET BUILD 0 20 * * 8",
            "the day of the week (0 and 7 are Sunday) field runs from 0 to 7, not 8",
        ),
    ] {
        let r = master(&mut j, "cron", line);
        assert!(r[0].body.contains(said), "{}", dump(&r));
    }
}

/// SET NMR once the grace is over: the clock's next pass processes the
/// phase at once, so the reply says so before it happens (and says
/// nothing of it while the deadline is still ahead).
#[test]
fn set_nmr_after_the_grace_says_the_phase_is_processed_next() {
    let mut j = TestJudge::new("nmr-overdue");
    j.set_config("maps", "enabled", "false");
    started_game(&mut j, "late");
    let mails = master(&mut j, "late", "SET NONMR");
    let reply = reply_of(&mails);
    assert!(!reply.body.contains("are over"), "{}", reply.body);
    let mails = master(&mut j, "late", "SET NMR");
    assert!(!reply_of(&mails).body.contains("are over"));
    master(&mut j, "late", "SET NONMR");

    // The game started at `at(0)`; its deadline and grace are over five
    // days later.
    let after_grace = at(24 * 5);
    let mail = Mail::new(MASTER, "nmr", "SIGNON Mlate mpass\nSET NMR");
    let mails = j.send_at(&mail, &after_grace);
    let said = "NMR: at the end of grace the orders given are carried out; a power that \
                gave none goes into civil disorder. The deadline and grace of S1901M are \
                over: it is processed at the judge's next pass with the orders given, each \
                power that gave none in civil disorder.";
    let reply = reply_of(&mails);
    assert!(reply.body.contains(said), "{}", reply.body);
    let notice = one_to(&mails, &player(0));
    assert!(notice.body.contains(said), "{}", notice.body);

    let run = j.run(&["run", "--once", "--now", &after_grace], b"");
    assert!(run.ok, "{}", run.stderr);
    let phase: String = j
        .db()
        .query_row(
            "SELECT phase FROM phases p JOIN games g ON g.id = p.game_id \
             WHERE g.name = 'late' ORDER BY seq DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(phase, "F1901M", "the reply said S1901M is processed next");
}

/// SET GREY says what it comes to: beside white press, grey is allowed
/// too; after SET NOPRESS it leaves grey press only (white refused), and
/// says so. SET NO WHITE is njudge's grey only.
#[test]
fn set_grey_and_set_no_white_say_what_press_is_left() {
    let mut j = TestJudge::new("setgrey");
    j.set_config("maps", "enabled", "false");
    started_game(&mut j, "grey");
    let press = |j: &TestJudge| {
        let s = state(j, "grey");
        (s["white"].clone(), s["grey"].clone())
    };
    let grey_only = "Press is grey only: it must be sent GREY (anonymously), white press \
                     is refused (SET WHITE/GREY allows both).";

    let r = master(&mut j, "grey", "SET WHITE\nSET GREY");
    let body = &reply_of(&r).body;
    assert!(
        body.contains("white press stays allowed too") && !body.contains(grey_only),
        "{body}"
    );
    assert_eq!(press(&j), (json!(true), json!(true)));

    let r = master(&mut j, "grey", "SET NOPRESS\nSET GREY");
    let body = &reply_of(&r).body;
    assert!(body.contains(grey_only), "{body}");
    assert!(!body.contains("stays allowed"), "{body}");
    assert_eq!(press(&j), (json!(false), json!(true)));

    let r = master(&mut j, "grey", "SET WHITE/GREY\nSET NO WHITE");
    let body = &reply_of(&r).body;
    assert!(body.contains(grey_only), "{body}");
    assert_eq!(press(&j), (json!(false), json!(true)));
}

/// The reply to the Master's mail (the Master may get the players'
/// notice too).
fn reply_of(mails: &[Sent]) -> &Sent {
    let replies: Vec<&Sent> = to(mails, MASTER)
        .into_iter()
        .filter(|m| m.body.contains("> SIGNON"))
        .collect();
    assert_eq!(replies.len(), 1, "{}", dump(mails));
    replies[0]
}
