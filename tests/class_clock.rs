//! The class game's clock (issue 22), black-box: turns in minutes, a
//! phase never shorter than its MIN, one reminder in a five-minute turn,
//! `judge run` processing a phase at its deadline to the second, and the
//! end at the bell (SET END <date and time>) with the standings, as the
//! end mail and TERMINATE give them. A judge made by `judge init`, mail
//! through its Maildirs, time driven by `judge run --once --now <t>`.

#[path = "common/clock_world.rs"]
mod clock_world;
mod common;

use clock_world::*;

/// The reply to the Master's last mail.
fn master_reply(mails: &[Out]) -> String {
    one(mails, MASTER, "").body.clone()
}

/// Asserts `text` contains `said`.
#[track_caller]
fn says(text: &str, said: &str) {
    assert!(text.contains(said), "wanted {said:?} in:\n{text}");
}

/// The results mail of `phase` to `addr` among `mails`.
fn results_of<'a>(mails: &'a [Out], addr: &str, phase: &str) -> &'a Out {
    one(mails, addr, &format!("{phase} Results"))
}

/// Spring and Fall 1901 with France taking Spain and Portugal (and, with
/// `germany`, Germany taking Denmark and Holland), everyone else holding;
/// each phase's orders are posted a minute after it starts, and the clock
/// ticks every minute until `until`. Returns every mail sent.
fn play_1901(w: &mut World, game: &str, germany: bool, until: i64) -> Vec<Out> {
    let start = w.now;
    let mut spring: Vec<(char, &str)> = POWERS.iter().map(|&(p, _)| (p, holds(p))).collect();
    let mut fall = spring.clone();
    spring[2].1 = "F Bre-MAO\nA Mar-Spa\nA Par-Gas";
    fall[2].1 = "F MAO-Por\nA Spa H\nA Gas H";
    if germany {
        spring[3].1 = "F Kie-Den\nA Mun-Ruh\nA Ber-Kie";
        fall[3].1 = "A Ruh-Hol\nF Den H\nA Kie H";
    }
    let mut mails = w.tick_until(start + MINUTE, MINUTE);
    for (p, lines) in &spring {
        w.post_orders(game, *p, lines);
    }
    mails.extend(w.tick_until(start + 6 * MINUTE, MINUTE));
    for (p, lines) in &fall {
        w.post_orders(game, *p, lines);
    }
    mails.extend(w.tick_until(until, MINUTE));
    mails
}

// 1. Turns in minutes ------------------------------------------------------

#[test]
fn five_minute_turns_end_five_minutes_after_they_start() {
    let mut w = World::new("minutes", &[]);
    w.now = tm(0, 12, 0);
    let mails = w.mail(
        MASTER,
        &format!(
            "CREATE ?mins {MASTER_PW}\nSET MOVE NEXT 5 MINUTES GRACE 0\n\
             SET RETREAT NEXT 2 MINUTES GRACE 0\nSET ADJUST NEXT 2 MINUTES GRACE 0"
        ),
    );
    let reply = master_reply(&mails);
    says(
        &reply,
        "Movement deadlines: 5 minutes after the phase starts; no grace.",
    );
    says(
        &reply,
        "Retreat deadlines: 2 minutes after the phase starts; no grace.",
    );
    says(
        &reply,
        "Adjustment deadlines: 2 minutes after the phase starts; no grace.",
    );
    let mails = w.join_all("mins");
    let start = one(&mails, &player('F'), "Game starts");
    says(
        &start.body,
        "The deadline for orders is Mon Nov 02 2026 12:05 UTC.",
    );
    assert_eq!(w.current("mins"), ("S1901M".into(), tm(0, 12, 5)));

    // LIST shows the deadline with its minutes and how long until it.
    w.now = tm(0, 12, 1);
    let list = master_reply(&w.mail(MASTER, "LIST mins"));
    says(&list, "Deadline: Mon Nov 02 2026 12:05 UTC, in 4 minutes.");

    // Nobody orders: at 12:05 the phase is processed (grace 0), not before.
    let mails = w.tick_until(tm(0, 12, 4), MINUTE);
    assert!(about(&mails, "Results").is_empty(), "{}", listing(&mails));
    let mails = w.tick_until(tm(0, 12, 5), MINUTE);
    let results = results_of(&mails, &player('F'), "S1901M");
    says(
        &results.body,
        ":: Deadline: F1901M Mon Nov 02 2026 12:10 UTC",
    );
    assert_eq!(w.current("mins"), ("F1901M".into(), tm(0, 12, 10)));
}

#[test]
fn lengths_take_minutes_hours_and_days_and_a_bare_number_is_hours() {
    let mut w = World::new("forms", &[]);
    w.now = tm(0, 12, 0);
    let mails = w.mail(
        MASTER,
        &format!(
            "CREATE ?forms {MASTER_PW}\nSET MOVE NEXT 5m GRACE 2h\nSET RETREAT NEXT 1d GRACE 30 MIN\n\
             SET ADJUST NEXT 12 GRACE 1 DAY"
        ),
    );
    let reply = master_reply(&mails);
    says(
        &reply,
        "Movement deadlines: 5 minutes after the phase starts; grace 2 hours.",
    );
    says(
        &reply,
        "Retreat deadlines: 24 hours after the phase starts; grace 30 minutes.",
    );
    says(
        &reply,
        "Adjustment deadlines: 12 hours after the phase starts; grace 24 hours.",
    );
    // MIN after a number is minutes unless a number follows: then it is
    // njudge's MIN, the least time before the phase is processed.
    let reply = master_reply(&w.mail(
        MASTER,
        &format!("SIGNON Mforms {MASTER_PW}\nSET MOVE MIN 5 MIN\nSET MOVE NEXT 2 MIN 1"),
    ));
    says(
        &reply,
        "Movement deadlines: 5 minutes after the phase starts, never processed before 5 \
         minutes after the phase starts; grace 2 hours.",
    );
    says(
        &reply,
        "Movement deadlines: 2 hours after the phase starts, never processed before 1 hour \
         after the phase starts; grace 2 hours.",
    );
    // MIN as a unit is no njudge MIN: no note of what that does.
    let reply = master_reply(&w.mail(
        MASTER,
        &format!("SIGNON Mforms {MASTER_PW}\nSET RETREAT NEXT 3 MIN GRACE 0"),
    ));
    says(
        &reply,
        "Retreat deadlines: 3 minutes after the phase starts; no grace.",
    );
    assert!(!reply.contains("njudge's MIN"), "{reply}");
    // A length that does not read is named, and nothing changes.
    let reply = master_reply(&w.mail(
        MASTER,
        &format!("SIGNON Mforms {MASTER_PW}\nSET MOVE NEXT 5 fortnights\nSET MOVE NEXT 90d"),
    ));
    says(
        &reply,
        "SET MOVE NEXT takes a length, not '5 fortnights': hours (12), or minutes, hours or \
         days with their unit (5 MINUTES, 5m, 2h, 1d), up to 60 days. Nothing was changed.",
    );
    says(&reply, "SET MOVE NEXT takes a length, not '90d'");
    let list = master_reply(&w.mail(MASTER, "LIST forms"));
    says(
        &list,
        "Movement deadlines: 2 hours after the phase starts, never processed before 1 hour",
    );
}

#[test]
fn judge_toml_games_take_lengths_in_minutes() {
    let mut w = World::new(
        "toml",
        &[
            ("games", "move_hours", "\"5 minutes\""),
            ("games", "retreat_hours", "\"2m\""),
            ("games", "adjust_hours", "0.5"),
            ("games", "grace_hours", "0"),
        ],
    );
    w.now = tm(0, 9, 0);
    let list = master_reply(&w.mail(MASTER, &format!("CREATE ?toml {MASTER_PW}\nLIST toml")));
    says(
        &list,
        "Movement deadlines: 5 minutes after the phase starts; no grace.",
    );
    says(
        &list,
        "Retreat deadlines: 2 minutes after the phase starts; no grace.",
    );
    says(
        &list,
        "Adjustment deadlines: 30 minutes after the phase starts; no grace.",
    );
    w.join_all("toml");
    assert_eq!(w.current("toml"), ("S1901M".into(), tm(0, 9, 5)));

    // A length that does not read is named with its line by judge check.
    let config = std::fs::read_to_string(w.config()).unwrap();
    let bad = config.replace(
        "move_hours = \"5 minutes\"",
        "move_hours = \"5 fortnights\"",
    );
    std::fs::write(w.config(), bad).unwrap();
    let out = w.judge(&["check"]);
    let said =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{said}");
    says(&said, "move_hours");
    says(
        &said,
        "\"5 minutes\", \"5m\", \"2 hours\", \"2h\", \"1 day\", \"1d\"",
    );
}

// 2. No phase shorter than its MIN -------------------------------------------

#[test]
fn a_five_minute_cron_line_never_gives_a_phase_shorter_than_its_min() {
    let mut w = World::new("cron5", &[]);
    w.now = tm(0, 12, 0);
    // The schedule: every five minutes; the Winter's MIN 0.
    w.start_game(
        "cron5",
        "SET MOVE */5 * * * * MIN 5 MINUTES GRACE 0\n\
         SET RETREAT */5 * * * * MIN 0 GRACE 0\nSET ADJUST */5 * * * * MIN 0 GRACE 0",
    );
    assert_eq!(w.current("cron5"), ("S1901M".into(), tm(0, 12, 5)));
    play_1901(&mut w, "cron5", false, tm(0, 12, 10));
    // Fall ended on a schedule time (12:10): the Winter does not end the
    // moment it starts, but at the next one.
    assert_eq!(w.current("cron5"), ("W1901A".into(), tm(0, 12, 15)));
    let mails = w.tick_until(tm(0, 12, 12), MINUTE);
    assert!(about(&mails, "Results").is_empty(), "{}", listing(&mails));
    w.post_orders("cron5", 'F', "Build A Par\nBuild A Mar");
    let mails = w.tick_until(tm(0, 12, 15), MINUTE);
    let results = results_of(&mails, &player('F'), "W1901A");
    assert_eq!(results.at, tm(0, 12, 15));
    assert_eq!(
        w.units("cron5", "S1902M", "FRANCE"),
        ["A GAS", "A MAR", "A PAR", "A SPA", "F POR"],
        "the builds were carried out"
    );
    // Spring 1902 starts 12:15, a schedule time: its MIN of five minutes
    // makes it end at 12:20, never sooner.
    assert_eq!(w.current("cron5"), ("S1902M".into(), tm(0, 12, 20)));
    // Every phase lasted at least a minute.
    let phases = w.phases("cron5");
    let starts: Vec<i64> = [tm(0, 12, 0), tm(0, 12, 5), tm(0, 12, 10), tm(0, 12, 15)].into();
    for ((phase, deadline), start) in phases.iter().zip(starts) {
        assert!(deadline.unwrap() >= start + MINUTE, "{phase} from {start}");
    }
}

// 3. Reminders in a short phase ------------------------------------------------

#[test]
fn a_five_minute_turn_gets_one_reminder_in_its_last_minute() {
    let mut w = World::new("remind5", &[]);
    w.now = tm(0, 12, 0);
    w.start_game("remind5", "SET MOVE NEXT 5 MINUTES GRACE 0");
    w.orders("remind5", 'E', holds('E'));
    // The clock every half minute: one reminder each to the six powers
    // without orders, at 12:04, and no other notice before the deadline.
    let mails = w.tick_until(tm(0, 12, 5) - 30, 30);
    let reminders = about(&mails, "Reminder");
    assert_eq!(reminders.len(), 6, "{}", listing(&mails));
    for m in &reminders {
        assert_eq!(m.at, tm(0, 12, 4), "{}", listing(&mails));
    }
    assert!(to(&mails, &player('E')).is_empty(), "{}", listing(&mails));
    assert_eq!(mails.len(), 6, "{}", listing(&mails));
    let mails = w.tick_until(tm(0, 12, 5), 30);
    assert!(about(&mails, "Reminder").is_empty(), "{}", listing(&mails));
    results_of(&mails, &player('E'), "S1901M");
}

// 4. The daemon at the deadline, to the second ------------------------------------

#[test]
fn judge_run_processes_a_phase_within_seconds_of_its_deadline() {
    // The clock's regular tick is ten minutes away: only waking at the
    // deadline processes the phase in time.
    let mut w = World::new("daemon", &[("clock", "tick_seconds", "600")]);
    let now = chrono::Utc::now().timestamp();
    w.now = now;
    w.start_game("daemon", "SET MOVE NEXT 20 SECONDS GRACE 0");
    let (_, deadline) = w.current("daemon");
    assert_eq!(deadline, now + 20);
    let mut daemon = std::process::Command::new(env!("CARGO_BIN_EXE_judge"))
        .arg("--config")
        .arg(w.config())
        .arg("run")
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(w.dir.join("daemon.log")).unwrap())
        .spawn()
        .expect("judge run starts");
    let outbox = w.dir.join("var/outbox/new");
    // When the judge processed it, as it recorded (not when this test
    // happened to look).
    let processed = |w: &World| -> Option<i64> {
        w.db()
            .query_row(
                "SELECT processed_at FROM phases WHERE phase = 'S1901M'",
                [],
                |r| r.get(0),
            )
            .ok()
            .flatten()
    };
    let mut processed_at = None;
    while processed_at.is_none() && chrono::Utc::now().timestamp() < deadline + 30 {
        std::thread::sleep(std::time::Duration::from_millis(250));
        processed_at = processed(&w);
    }
    daemon.kill().expect("the daemon stops");
    daemon.wait().unwrap();
    let log = std::fs::read_to_string(w.dir.join("daemon.log")).unwrap_or_default();
    let processed_at = processed_at.unwrap_or_else(|| panic!("S1901M processed; the log:\n{log}"));
    assert!(
        processed_at <= deadline + 2,
        "processed {} seconds after its deadline",
        processed_at - deadline
    );
    assert!(processed_at >= deadline, "not before its deadline");
    let sent = std::fs::read_dir(outbox).unwrap().count();
    assert!(sent > 0, "the results went out");
}

// 5. The end at the bell -------------------------------------------------------

#[test]
fn set_end_at_a_time_by_centres_ends_the_game_then_with_the_standings() {
    let mut w = World::new("bell", &[]);
    w.now = tm(0, 12, 0);
    let mails = w.mail(
        MASTER,
        &format!(
            "CREATE ?bell {MASTER_PW}\nSET MOVE NEXT 5 MINUTES GRACE 0\n\
             SET RETREAT NEXT 2 MINUTES GRACE 0\nSET ADJUST NEXT 2 MINUTES GRACE 0\n\
             SET END 2026-11-02 12:11 BY CENTRES"
        ),
    );
    says(
        &master_reply(&mails),
        "The game ends at Mon Nov 02 2026 12:11 UTC, in 11 minutes (read in UTC; SET ZONE \
         reads your times in your own zone): the phase in progress then is processed at that \
         moment, as at its deadline, and the most supply centres wins.",
    );
    w.join_all("bell");
    let list = master_reply(&w.mail(MASTER, "LIST bell"));
    says(
        &list,
        "End: at Mon Nov 02 2026 12:11 UTC, the phase in progress then processed at that \
         moment; the most supply centres then wins.",
    );

    // Spring and Fall at their deadlines; the Winter begins at 12:10, and
    // its deadline is the bell, not two minutes on.
    let mails = play_1901(&mut w, "bell", false, tm(0, 12, 10));
    let fall = results_of(&mails, &player('F'), "F1901M");
    says(&fall.body, ":: Deadline: W1901A Mon Nov 02 2026 12:11 UTC");
    assert_eq!(w.current("bell"), ("W1901A".into(), tm(0, 12, 11)));

    // The bell: the Winter is processed and the game ends; everyone hears
    // the standings, France first with five centres (Russia has the most
    // pieces, which this game does not count).
    let mails = w.run(tm(0, 12, 11));
    for addr in POWERS
        .iter()
        .map(|(p, _)| player(*p))
        .chain([MASTER.into()])
    {
        let end = results_of(&mails, &addr, "W1901A");
        says(
            &end.body,
            "The game ended at the time set, Mon Nov 02 2026 12:11 UTC: France wins, with 5 \
             supply centres.",
        );
        says(&end.body, "Standings (the most supply centres wins):");
        says(&end.body, "  France:  5 supply centres, 3 pieces");
        says(&end.body, "  Russia:  4 supply centres, 4 pieces");
        says(&end.body, "  Austria: 3 supply centres, 3 pieces");
    }
    assert_eq!(w.export("bell")["state"], "finished");
    // Nothing is processed after the bell.
    let mails = w.tick_until(tm(0, 12, 30), MINUTE);
    assert!(mails.is_empty(), "{}", listing(&mails));
}

#[test]
fn a_tie_at_the_bell_is_named_as_a_tie() {
    let mut w = World::new("tie", &[]);
    w.now = tm(0, 12, 0);
    w.start_game(
        "tie",
        "SET MOVE NEXT 5 MINUTES GRACE 0\nSET ADJUST NEXT 2 MINUTES GRACE 0\n\
         SET END 2026-11-02 12:11 BY CENTRES",
    );
    let mut mails = play_1901(&mut w, "tie", true, tm(0, 12, 10));
    mails.extend(w.run(tm(0, 12, 11)));
    let end = results_of(&mails, &player('E'), "W1901A");
    says(
        &end.body,
        "The game ended at the time set, Mon Nov 02 2026 12:11 UTC: France and Germany tie \
         with 5 supply centres each, and share the win.",
    );
    says(&end.body, "  Germany: 5 supply centres, 3 pieces");
}

#[test]
fn a_time_past_or_unreadable_is_refused_and_a_year_keeps_the_short_game() {
    let mut w = World::new("endforms", &[]);
    w.now = tm(0, 12, 0);
    let reply = master_reply(&w.mail(
        MASTER,
        &format!(
            "CREATE ?endf {MASTER_PW}\nSET END 2026-11-01 12:00\nSET END soon\n\
             SET END 1905 BY CENTRES"
        ),
    ));
    says(
        &reply,
        "SET END names a time to come; Sun Nov 01 2026 12:00 UTC has passed. Nothing was \
         changed.",
    );
    says(&reply, "Write SET END <year> (SET END 1907");
    says(
        &reply,
        "Short game: 1905 is the last year played; the game ends when 1905 is over, after its \
         Fall moves and its Winter builds and removals. The most supply centres then wins.",
    );
}

#[test]
fn terminate_gives_the_standings() {
    let mut w = World::new("term", &[]);
    w.now = tm(0, 12, 0);
    w.start_game(
        "term",
        "SET MOVE NEXT 5 MINUTES GRACE 0\nSET ADJUST NEXT 2 MINUTES GRACE 0",
    );
    play_1901(&mut w, "term", false, tm(0, 12, 10));
    let mails = w.mail(MASTER, &format!("SIGNON Mterm {MASTER_PW}\nTERMINATE"));
    let notice = one(&mails, &player('T'), "Game terminated");
    // By pieces, the game's measure unless SET END says otherwise.
    says(
        &notice.body,
        "Game 'term' has been terminated by its Master. As it stands, Russia leads, with 4 \
         pieces on the board.",
    );
    says(
        &notice.body,
        "Standings (the most pieces on the board wins):",
    );
    says(&notice.body, "  France:  5 supply centres, 3 pieces");
    let reply: Vec<&Out> = to(&mails, MASTER)
        .into_iter()
        .filter(|m| !m.subject.contains("Game terminated"))
        .collect();
    says(&reply[0].body, "Russia leads, with 4 pieces on the board.");
}
