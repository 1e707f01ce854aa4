//! The class game of the rules' class notes, whole, by mail through the
//! real binary (issue 22): the teacher sets five-minute moves, two-minute
//! retreats and adjustments, the bell by centres and the class's list in
//! one mail; seven teams of three join, each with `SET ADDRESS a, b, c`
//! in its joining mail; every phase a different member of each team
//! orders; the clock ticks every minute. Every member gets every results
//! mail and sees the replies to the teammates' orders; the list gets every
//! results mail and press to everyone, never private press; the game ends
//! at the bell with the most centres named the winner, and nothing is
//! processed after it.

#[path = "common/clock_world.rs"]
mod clock_world;
mod common;

use clock_world::*;

const GAME: &str = "class7b";
const TEACHER: &str = "teacher@school.test";
const LIST: &str = "class-7b@lists.school.test";

/// The team playing power `p`: three students.
fn team(p: char) -> [String; 3] {
    let power = name(p).to_ascii_lowercase();
    [0, 1, 2].map(|k| format!("{power}{k}@school.test"))
}

/// The token of the one CONFIRM request to `addr` among `mails`.
fn token_for(mails: &[Out], addr: &str) -> String {
    let asked: Vec<&Out> = to(mails, addr)
        .into_iter()
        .filter(|m| m.body.contains("CONFIRM "))
        .collect();
    assert_eq!(asked.len(), 1, "one request to {addr}: {}", listing(mails));
    asked[0]
        .body
        .lines()
        .find_map(|l| l.trim().strip_prefix("CONFIRM "))
        .expect("a CONFIRM line")
        .trim()
        .to_string()
}

/// What power `p` orders in `phase`: France takes Spain and Portugal in
/// 1901 and builds; every other unit holds (its units read from the
/// game's export).
fn orders_for(w: &World, p: char, phase: &str) -> String {
    match (p, phase) {
        ('F', "S1901M") => "F Bre-MAO\nA Mar-Spa\nA Par-Gas".into(),
        ('F', "F1901M") => "F MAO-Por\nA Spa H\nA Gas H".into(),
        ('F', "W1901A") => "Build A Par\nBuild F Bre".into(),
        _ if phase.ends_with('M') => w
            .units(GAME, phase, &name(p).to_ascii_uppercase())
            .iter()
            .map(|unit| format!("{unit} H"))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

#[test]
fn a_class_plays_seven_teams_in_five_minute_turns_until_the_bell() {
    let mut w = World::new("class", &[]);
    let start = tm(0, 9, 0);
    let bell = tm(0, 9, 40);
    w.now = start - 10 * MINUTE;

    // The help shows the set-up the teacher mails.
    let help = w.mail(TEACHER, "GET master");
    let help = &one(&help, TEACHER, "").body;
    for line in [
        "A CLASS GAME",
        "SET MOVE NEXT 5 MINUTES GRACE 0",
        "SET ADJUST NEXT 2 MINUTES GRACE 0",
        "BY CENTRES",
        "SET OBSERVER class-7b@lists.school.example",
        "SET ADDRESS ann@school.example, bob@school.example, cy@school.example",
    ] {
        assert!(help.contains(line), "GET master shows {line:?}: {help}");
    }

    // The teacher's one mail, and the list's confirmation.
    let mails = w.mail(
        TEACHER,
        &format!(
            "CREATE ?{GAME} {MASTER_PW}\n\
             SET MOVE NEXT 5 MINUTES GRACE 0\n\
             SET RETREAT NEXT 2 MINUTES GRACE 0\n\
             SET ADJUST NEXT 2 MINUTES GRACE 0\n\
             SET END 2026-11-02 09:40 BY CENTRES\n\
             SET OBSERVER {LIST}"
        ),
    );
    let token = token_for(&mails, LIST);
    w.mail(LIST, &format!("CONFIRM {token}"));

    // Seven teams join, each in one mail from its first member; the game
    // starts at nine; the other members confirm.
    w.now = start;
    for (p, _) in POWERS {
        let [a, b, c] = team(p);
        w.post(
            &a,
            &format!(
                "SIGNON ?{GAME} {}\nSET PREFERENCE {p}\nSET ADDRESS {a}, {b}, {c}",
                password(p)
            ),
        );
    }
    let mails = w.run(start);
    for (p, power) in POWERS {
        let [a, b, c] = team(p);
        one(&mails, &a, &format!("Game starts: you are {power}"));
        for member in [b, c] {
            let token = token_for(&mails, &member);
            w.mail(&member, &format!("CONFIRM {token}"));
        }
    }
    one(&mails, LIST, "Game starts");
    assert_eq!(
        w.current(GAME),
        ("S1901M".to_string(), start + 5 * MINUTE),
        "the first deadline five minutes after the start"
    );

    // A word from France to England alone, and one to everyone.
    let [france, ..] = team('F');
    w.mail(
        &france,
        &format!(
            "SIGNON F{GAME} {}\nPRESS TO E\nA secret for England.\nENDPRESS\n\
             BROADCAST\nGood luck, everyone.\nENDPRESS",
            password('F')
        ),
    );

    // Each phase, a different member of each team orders, a minute into
    // the phase; the clock ticks every minute until well past the bell.
    let mut played: Vec<String> = Vec::new();
    while w.now < bell + 10 * MINUTE {
        let over = w.export(GAME)["state"] == "finished";
        let (phase, _) = w.phases(GAME).pop().expect("a phase");
        if !over && !played.contains(&phase) {
            let k = played.len() % 3;
            played.push(phase.clone());
            for (p, _) in POWERS {
                let lines = orders_for(&w, p, &phase);
                if lines.is_empty() {
                    continue;
                }
                let members = team(p);
                let body = format!("SIGNON {p}{GAME} {}\n{lines}", password(p));
                let replies = w.mail(&members[k], &body);
                let ordered = one(&replies, &members[k], "orders");
                let power = name(p);
                assert!(
                    ordered
                        .body
                        .contains(&format!("Orders for {power} in '{GAME}'")),
                    "{}",
                    ordered.body
                );
                assert!(
                    !ordered.body.contains("Grace ends"),
                    "no grace is no second time: {}",
                    ordered.body
                );
                for member in &members {
                    let reply = one(&replies, member, "orders");
                    assert_eq!(reply.body, ordered.body, "{member} sees the reply");
                }
            }
        }
        let next = w.now + MINUTE;
        w.run(next);
    }

    // The phases processed: at least six before the bell, none after it
    // (the position the game ended in is closed at the bell, with no
    // deadline: never played).
    let db = w.db();
    let processed: Vec<(String, i64)> = db
        .prepare(
            "SELECT p.phase, p.processed_at FROM phases p JOIN games g ON g.id = p.game_id \
             WHERE g.name = ?1 AND p.processed_at IS NOT NULL AND p.deadline IS NOT NULL \
             ORDER BY p.seq",
        )
        .unwrap()
        .query_map([GAME], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(processed.len() >= 6, "{processed:?}");
    assert!(processed.iter().all(|(_, at)| *at <= bell), "{processed:?}");
    assert_eq!(w.export(GAME)["state"], "finished");

    // Every member and the list got every results mail; the last names
    // France, with the most centres, the winner.
    let sent = w.sent.clone();
    for (phase, _) in &processed {
        let subject = format!("{phase} Results");
        for (p, _) in POWERS {
            for member in team(p) {
                one(&sent, &member, &subject);
            }
        }
        one(&sent, LIST, &subject);
    }
    let (last, _) = processed.last().unwrap();
    for addr in team('E').iter().map(String::as_str).chain([LIST, TEACHER]) {
        let end = one(&sent, addr, &format!("{last} Results"));
        assert!(
            end.body.contains("France wins, with"),
            "the winner named: {}",
            end.body
        );
    }

    // The list heard the broadcast, never the private press; England's
    // three members heard both, and so did France's other two.
    let heard = |addr: &str, what: &str| to(&sent, addr).iter().any(|m| m.body.contains(what));
    assert!(heard(LIST, "Good luck, everyone."));
    assert!(!heard(LIST, "A secret for England."));
    let [_, france1, france2] = team('F');
    for member in team('E').into_iter().chain([france1, france2]) {
        assert!(heard(&member, "A secret for England."), "{member}");
    }
    for member in team('G') {
        assert!(!heard(&member, "A secret for England."), "{member}");
    }
}
