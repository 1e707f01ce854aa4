//! The clock, black-box, across simulated weeks: a judge made by
//! `judge init`, players' mails dropped into its Maildir inbox, time
//! driven by `judge run --once --now <t>`, and what the players see read
//! from its Maildir outbox — deadlines from cron schedules, reminders,
//! late notices, grace with civil disorder (NMR) or a wait for a
//! replacement (NoNMR), early processing and WAIT, absences, and the
//! judge's own outages.

#[path = "common/clock_world.rs"]
mod clock_world;
mod common;

use clock_world::*;

/// Ticks an hour apart are no outage (the default counts 60 minutes as
/// one): tests not about outages allow a day between ticks.
const CALM: (&str, &str, &str) = ("clock", "outage_minutes", "1440");

/// Everyone in a game: the seven players and the Master.
fn everyone() -> Vec<String> {
    let mut all: Vec<String> = POWERS.iter().map(|(p, _)| player(*p)).collect();
    all.push(MASTER.to_string());
    all
}

/// The results mails of `phase` among `mails`, by recipient.
fn results<'a>(mails: &'a [Out], phase: &str) -> Vec<&'a Out> {
    mails
        .iter()
        .filter(|m| m.subject.contains(phase) && m.subject.contains("Results"))
        .collect()
}

/// Asserts the results of `phase` went to everyone, once, at `at`;
/// returns the body.
fn results_to_all(mails: &[Out], phase: &str, at: i64) -> String {
    let found = results(mails, phase);
    for addr in everyone() {
        let mine: Vec<&&Out> = found.iter().filter(|m| m.is_to(&addr)).collect();
        assert_eq!(
            mine.len(),
            1,
            "one {phase} results mail to {addr}: {}",
            listing(mails)
        );
        assert_eq!(
            shown(mine[0].at),
            shown(at),
            "{phase} processed at the expected time"
        );
    }
    assert_eq!(found.len(), everyone().len(), "{}", listing(mails));
    found[0].body.clone()
}

// 1. Deadlines from a schedule -------------------------------------------

#[test]
fn deadlines_come_from_the_cron_schedule() {
    let mut w = World::new("cron", &[CALM]);
    w.now = t(0, 12); // Monday 12:00

    // A plain crontab line has 5 fields, minute first: read as such (1 is
    // Monday, 4 Thursday); the six-field form, seconds first, as before.
    let mails = w.mail(
        MASTER,
        &format!("CREATE ?cron {MASTER_PW}\nSET MOVE 0 20 * * 1,4 MIN 24"),
    );
    let reply = &to(&mails, MASTER)[0].body;
    assert!(
        reply.contains(
            "Mondays and Thursdays at 20:00 UTC, at least 24 hours after the phase starts; \
             grace 24 hours (schedule '0 20 * * 1,4')"
        ),
        "{reply}"
    );
    let mails = w.mail(
        MASTER,
        &format!("SIGNON Mcron {MASTER_PW}\nSET MOVE 0 0 20 * * Mon,Thu MIN 24"),
    );
    let reply = &to(&mails, MASTER)[0].body;
    assert!(
        reply.contains(
            "Mondays and Thursdays at 20:00 UTC, at least 24 hours after the phase starts; \
             grace 24 hours (schedule '0 0 20 * * Mon,Thu')"
        ),
        "{reply}"
    );

    // Started Monday 12:00: the first Monday or Thursday 20:00 at least a
    // day later is Thursday.
    let mails = w.join_all("cron");
    let thursday = t(3, 20);
    assert_eq!(shown(thursday), "Thu Nov 05 2026 20:00 UTC");
    let start = one(&mails, &player('F'), "Game starts");
    assert!(
        start
            .body
            .contains("The deadline for orders is Thu Nov 05 2026 20:00 UTC."),
        "{}",
        start.body
    );
    assert_eq!(w.current("cron"), ("S1901M".to_string(), thursday));

    // Everyone's orders in on Wednesday 20:00: processed early, at the
    // 21:00 tick. Fall starts then; Thursday 20:00 is under a day away,
    // so its deadline is Monday 20:00.
    w.tick_until(t(2, 19), HOUR);
    for (p, _) in POWERS {
        w.post_orders("cron", p, holds(p));
    }
    let mails = w.run(t(2, 20));
    assert!(results(&mails, "S1901M").is_empty());
    let mails = w.tick_until(t(2, 21), HOUR);
    let body = results_to_all(&mails, "S1901M", t(2, 21));
    let monday = t(7, 20);
    assert!(
        body.contains(":: Deadline: F1901M Mon Nov 09 2026 20:00 UTC"),
        "{body}"
    );
    assert_eq!(w.current("cron"), ("F1901M".to_string(), monday));

    // Fall orders in on Sunday 19:50, processed at 20:00: Spring 1902
    // starts exactly a day before Monday 20:00, which still counts.
    let mails = w.tick_until(t(6, 19), HOUR);
    assert!(results(&mails, "F1901M").is_empty(), "{}", listing(&mails));
    for (p, _) in POWERS {
        w.post_orders("cron", p, holds(p));
    }
    w.run(tm(6, 19, 50));
    let mails = w.run(t(6, 20));
    let body = results_to_all(&mails, "F1901M", t(6, 20));
    assert!(
        body.contains(":: Deadline: S1902M Mon Nov 09 2026 20:00 UTC"),
        "{body}"
    );
    assert_eq!(w.current("cron"), ("S1902M".to_string(), monday));

    // An absence over Monday moves the deadline to the next schedule
    // time after it: Thursday 20:00.
    let mails = w.mail_at(
        t(6, 21),
        &player('I'),
        &format!(
            "SIGNON Icron {}\nSET ABSENCE 2026-11-09 TO 2026-11-10 12:00",
            password('I')
        ),
    );
    let reply = &one(&mails, &player('I'), "").body;
    assert!(
        reply.contains("it is now Thu Nov 12 2026 20:00 UTC."),
        "{reply}"
    );
    assert_eq!(w.current("cron"), ("S1902M".to_string(), t(10, 20)));
}

#[test]
fn judge_toml_schedules_and_their_check() {
    // The judge's default schedule for new games, from judge.toml: six
    // fields, seconds first, or an ordinary crontab line, minute first.
    for (name, cron) in [
        ("cronconf", "\"0 0 20 * * Mon,Thu\""),
        ("cronfive", "\"0 20 * * Mon,Thu\""),
    ] {
        let mut w = World::new(
            name,
            &[
                CALM,
                ("games", "move_cron", cron),
                ("games", "move_hours", "48"),
            ],
        );
        let check = w.judge(&["check"]);
        assert!(
            check.status.success(),
            "{}",
            String::from_utf8_lossy(&check.stdout)
        );
        // Started Tuesday 10:00: Thursday 20:00 is at least 48 hours later.
        w.now = t(1, 10);
        w.start_game(name, "");
        assert_eq!(w.current(name), ("S1901M".to_string(), t(3, 20)));
        // Started Tuesday 21:00: Thursday 20:00 is too soon; Monday 20:00.
        let second = format!("{name}2");
        w.now = t(1, 21);
        w.start_game(&second, "");
        assert_eq!(w.current(&second), ("S1901M".to_string(), t(7, 20)));
    }

    // A field out of range: `judge check` names it, and the judge does
    // not start.
    let bad = World::new("cronbad", &[("games", "move_cron", "\"0 0 25 * * Mon\"")]);
    let check = bad.judge(&["check"]);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    assert!(!check.status.success(), "{said}");
    assert!(
        said.contains("move_cron") && said.contains("the hour field runs from 0 to 23, not 25"),
        "{said}"
    );
    let run = bad.judge(&["run", "--once", "--now", &rfc3339(t(0, 0))]);
    assert!(!run.status.success());
}

#[test]
fn a_schedule_time_in_a_daylight_saving_gap_falls_on_the_first_instant_after_it() {
    // On Sunday 29 March 2026 Amsterdam's clocks go from 02:00 straight
    // to 03:00: 02:30 does not exist that day. Such a time means the
    // first instant after the gap, 03:00 local (01:00 UTC), not the next
    // 02:30 that exists (a week or a year later).
    let mut w = World::new("dstgap", &[CALM]);
    w.now = t(-221, 0); // Thursday 26 March 2026, 00:00 UTC
    assert_eq!(shown(w.now), "Thu Mar 26 2026 00:00 UTC");
    w.start_game(
        "weekly",
        "SET MOVE 0 30 2 * * Sun MIN 24 ZONE Europe/Amsterdam",
    );
    assert_eq!(shown(w.current("weekly").1), "Sun Mar 29 2026 01:00 UTC");
    w.start_game(
        "yearly",
        "SET MOVE 0 30 2 29 3 * MIN 24 ZONE Europe/Amsterdam",
    );
    assert_eq!(shown(w.current("yearly").1), "Sun Mar 29 2026 01:00 UTC");
}

#[test]
fn an_impossible_schedule_is_refused_where_it_is_set() {
    // 30 February never comes: a game with this schedule would fall back
    // on its minimum hours without anyone being told why.
    let never = "0 0 0 30 2 *";
    let bad = World::new(
        "cronnever",
        &[("games", "move_cron", &format!("\"{never}\""))],
    );
    let check = bad.judge(&["check"]);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    assert!(!check.status.success(), "{said}");
    assert!(
        said.contains("move_cron") && said.contains(&format!("'{never}' never comes")),
        "{said}"
    );

    let mut w = World::new("setnever", &[CALM]);
    w.now = t(0, 12);
    let mails = w.mail(
        MASTER,
        &format!("CREATE ?never {MASTER_PW}\nSET MOVE {never} MIN 24"),
    );
    let reply = &to(&mails, MASTER)[0];
    assert!(
        reply.body.contains(&format!("'{never}' never comes"))
            && reply.subject.contains("[Error Flag]"),
        "{} | {}",
        reply.subject,
        reply.body
    );
    // The game keeps its schedule: three days (the default) after it
    // starts, not whatever an impossible schedule falls back on.
    w.join_all("never");
    assert_eq!(w.current("never"), ("S1901M".to_string(), t(3, 12)));
}

// 2. Reminders -----------------------------------------------------------

#[test]
fn one_reminder_before_the_deadline_to_incomplete_powers() {
    let mut w = World::new("remind", &[CALM]);
    w.now = t(0, 12);
    w.start_game("remind", "");
    let deadline = t(3, 12); // 72 hours
    assert_eq!(w.current("remind"), ("S1901M".to_string(), deadline));

    // England and France complete; Austria and Germany in part.
    w.now = t(0, 14);
    w.post_orders("remind", 'E', holds('E'));
    w.post_orders("remind", 'F', holds('F'));
    w.post_orders("remind", 'A', "A Vie H\nA Bud H");
    w.post_orders("remind", 'G', "A Ber H");
    w.run(t(0, 14));

    // Nothing until 24 hours before the deadline.
    let mails = w.tick_until(t(2, 11), HOUR);
    assert!(mails.is_empty(), "{}", listing(&mails));
    let mails = w.run(t(2, 12));
    assert_eq!(mails.len(), 5, "{}", listing(&mails));
    for p in ['A', 'G', 'I', 'R', 'T'] {
        let m = one(&mails, &player(p), "Reminder");
        assert_eq!(m.subject, "JDG:remind - S1901M Reminder");
        assert!(
            m.body
                .contains("the deadline for S1901M in 'remind' is Thu Nov 05 2026 12:00 UTC"),
            "{}",
            m.body
        );
        assert!(m.body.contains(&format!("missing for {}", name(p))));
    }
    let austria = &one(&mails, &player('A'), "Reminder").body;
    assert!(austria.contains(": Fleet Trieste."), "{austria}");
    let germany = &one(&mails, &player('G'), "Reminder").body;
    assert!(
        germany.contains("Army Munich")
            && germany.contains("Fleet Kiel")
            && !germany.contains("Berlin"),
        "{germany}"
    );
    assert!(to(&mails, &player('E')).is_empty());
    assert!(to(&mails, &player('F')).is_empty());
    assert!(to(&mails, MASTER).is_empty());

    // Once per phase: none again before the deadline, whatever happens.
    w.orders("remind", 'I', holds('I'));
    w.orders("remind", 'G', "A Mun H");
    let mails = w.tick_until(deadline - HOUR, HOUR);
    assert!(about(&mails, "Reminder").is_empty(), "{}", listing(&mails));
    let mails = w.tick_until(deadline + 12 * HOUR, HOUR);
    assert!(about(&mails, "Reminder").is_empty(), "{}", listing(&mails));
    // Those that were late at the deadline got late notices instead.
    assert!(!about(&mails, "[You are late!]").is_empty());
}

// 3. Late notices --------------------------------------------------------

#[test]
fn late_notices_at_the_deadline_and_daily() {
    let mut w = World::new("late", &[CALM, ("games", "grace_hours", "72")]);
    w.now = t(0, 12);
    w.start_game("late", "");
    let deadline = t(3, 12);
    let grace = t(6, 12);
    assert_eq!(w.current("late"), ("S1901M".to_string(), deadline));

    w.now = t(0, 13);
    for p in ['E', 'F', 'G', 'I', 'R'] {
        w.post_orders("late", p, holds(p));
    }
    w.run(t(0, 13));
    let mails = w.tick_until(deadline - HOUR, HOUR);
    assert!(
        about(&mails, "[You are late!]").is_empty(),
        "{}",
        listing(&mails)
    );
    assert!(
        about(&mails, "Late powers").is_empty(),
        "{}",
        listing(&mails)
    );
    assert_eq!(w.status("late", 'A'), "active");

    // At the deadline: Austria and Turkey are told they are late; the
    // others and the Master are told who is.
    let mails = w.run(deadline);
    for p in ['A', 'T'] {
        let m = one(&mails, &player(p), "[You are late!]");
        assert_eq!(m.subject, "JDG:late - S1901M [You are late!]");
        assert!(
            m.body.contains(&format!(
                "The deadline for S1901M in 'late' has passed and your orders for {} are",
                name(p)
            )) && m.body.contains("Grace ends Sun Nov 08 2026 12:00 UTC")
                && m.body.contains("civil disorder"),
            "{}",
            m.body
        );
        assert_eq!(count(&mails, &player(p), "Late powers"), 0);
        assert_eq!(w.status("late", p), "late");
    }
    for addr in ['E', 'F', 'G', 'I', 'R']
        .iter()
        .map(|p| player(*p))
        .chain([MASTER.to_string()])
    {
        let m = one(&mails, &addr, "Late powers");
        assert!(
            m.body
                .contains("the judge is waiting for Austria and Turkey"),
            "{}",
            m.body
        );
        assert_eq!(count(&mails, &addr, "[You are late!]"), 0);
    }
    assert_eq!(mails.len(), 8, "{}", listing(&mails));
    assert_eq!(w.status("late", 'E'), "active");

    // Daily while late: nothing more until a day later.
    let mails = w.tick_until(deadline + 23 * HOUR, HOUR);
    assert!(mails.is_empty(), "{}", listing(&mails));
    let mails = w.run(deadline + 24 * HOUR);
    assert_eq!(about(&mails, "[You are late!]").len(), 2);
    assert_eq!(about(&mails, "Late powers").len(), 6);

    // Austria's orders come in; Turkey alone is late the day after.
    let mails = w.mail_at(
        deadline + 27 * HOUR,
        &player('A'),
        &format!("SIGNON Alate {}\n{}", password('A'), holds('A')),
    );
    let reply = &one(&mails, &player('A'), "").body;
    assert!(reply.contains("Status: complete."), "{reply}");
    let mails = w.tick_until(deadline + 48 * HOUR, HOUR);
    assert_eq!(
        about(&mails, "[You are late!]").len(),
        1,
        "{}",
        listing(&mails)
    );
    one(&mails, &player('T'), "[You are late!]");
    let m = one(&mails, &player('A'), "Late powers");
    assert!(
        m.body.contains("the judge is waiting for Turkey."),
        "{}",
        m.body
    );
    assert_eq!(about(&mails, "Late powers").len(), 7);
    assert_eq!(w.status("late", 'T'), "late");

    // Nothing is processed before grace ends; then it is, once.
    let mails = w.tick_until(grace - HOUR, HOUR);
    assert!(mails.is_empty(), "{}", listing(&mails));
    let mails = w.run(grace);
    results_to_all(&mails, "S1901M", grace);
    let late_to_turkey = about(&w.sent, "[You are late!]")
        .into_iter()
        .filter(|m| m.is_to(&player('T')))
        .count();
    assert_eq!(late_to_turkey, 3, "three days late, three notices");
}

// 4. Grace and civil disorder (NMR) ----------------------------------------

#[test]
fn nmr_civil_disorder_at_the_end_of_grace_and_a_return() {
    let mut w = World::new("nmr", &[CALM]);
    w.now = t(0, 12);
    w.start_game("nmr", "");
    let deadline = t(3, 12);
    let grace = t(4, 12);

    // Germany never orders. France moves into Burgundy.
    w.now = t(0, 13);
    for p in ['A', 'E', 'I', 'R', 'T'] {
        w.post_orders("nmr", p, holds(p));
    }
    w.post_orders("nmr", 'F', "A Par - Bur\nA Mar H\nF Bre H");
    w.run(t(0, 13));

    let mails = w.tick_until(grace - HOUR, HOUR);
    assert!(results(&mails, "S1901M").is_empty(), "{}", listing(&mails));
    assert_eq!(about(&mails, "[You are late!]").len(), 1);
    assert!(
        mails.iter().all(|m| m.at >= t(2, 12)),
        "{}",
        listing(&mails)
    );
    assert_eq!(w.status("nmr", 'G'), "late");
    assert!(w.current("nmr").1 == deadline);

    // The end of grace: processed, Germany in civil disorder, its units
    // where they were.
    let mails = w.run(grace);
    let body = results_to_all(&mails, "S1901M", grace);
    assert!(body.contains("Army Paris -> Burgundy."), "{body}");
    assert_eq!(w.status("nmr", 'G'), "civil_disorder");
    assert_eq!(w.status("nmr", 'F'), "active");
    assert_eq!(
        w.units("nmr", "F1901M", "GERMANY"),
        ["A BER", "A MUN", "F KIE"]
    );
    let fall_deadline = w.current("nmr").1;
    assert_eq!(fall_deadline, grace + 72 * HOUR);

    // In civil disorder Germany is not waited for, and its units hold:
    // Burgundy -> Munich bounces.
    w.now = t(5, 10);
    for p in ['A', 'E', 'I', 'R', 'T'] {
        w.post_orders("nmr", p, holds(p));
    }
    w.post_orders("nmr", 'F', "A Bur - Mun\nA Mar H\nF Bre H");
    w.run(t(5, 10));
    let mails = w.tick_until(t(5, 11), HOUR);
    let body = results_to_all(&mails, "F1901M", t(5, 11));
    assert!(
        body.contains("Army Burgundy -> Munich.  (*bounce*)"),
        "{body}"
    );
    assert_eq!(
        w.units("nmr", "S1902M", "GERMANY"),
        ["A BER", "A MUN", "F KIE"]
    );

    // Germany's player comes back: active again, and waited for.
    let mails = w.mail_at(
        t(5, 14),
        &player('G'),
        &format!("SIGNON Gnmr {}", password('G')),
    );
    let reply = &to(&mails, &player('G'))[0].body;
    assert!(
        reply.contains("Welcome back: your power is in play again."),
        "{reply}"
    );
    assert_eq!(w.status("nmr", 'G'), "active");
    w.now = t(5, 15);
    for p in ['A', 'E', 'I', 'R', 'T'] {
        w.post_orders("nmr", p, holds(p));
    }
    w.post_orders("nmr", 'F', "A Bur H\nA Mar H\nF Bre H");
    w.run(t(5, 15));
    let mails = w.tick_until(t(6, 12), HOUR);
    assert!(results(&mails, "S1902M").is_empty(), "{}", listing(&mails));
    w.orders("nmr", 'G', "A Mun - Tyr\nA Ber H\nF Kie H");
    let mails = w.tick_until(t(6, 13), HOUR);
    let body = results_to_all(&mails, "S1902M", t(6, 13));
    assert!(body.contains("Army Munich -> Tyrolia."), "{body}");
    assert!(!body.contains("Army Munich -> Tyrolia.  (*"), "{body}");
}

#[test]
fn a_game_nobody_plays_keeps_to_its_deadlines() {
    let mut w = World::new("deserted", &[CALM]);
    w.now = t(0, 12);
    w.start_game("deserted", "");
    // Nobody ever orders: Spring is processed at the end of grace, every
    // power in civil disorder.
    let mails = w.tick_until(t(4, 12), HOUR);
    results_to_all(&mails, "S1901M", t(4, 12));
    for (p, _) in POWERS {
        assert_eq!(w.status("deserted", p), "civil_disorder");
    }
    // With nobody to wait for, Fall waits for its deadline (no grace),
    // not for "everyone's orders", which are vacuously in.
    let fall_deadline = t(7, 12);
    assert_eq!(w.current("deserted"), ("F1901M".to_string(), fall_deadline));
    let mails = w.tick_until(fall_deadline - HOUR, HOUR);
    assert!(mails.is_empty(), "{}", listing(&mails));
    let mails = w.run(fall_deadline);
    results_to_all(&mails, "F1901M", fall_deadline);
}

// 5. NoNMR: the game waits for a replacement ------------------------------

#[test]
fn nonmr_abandons_the_late_power_and_waits_for_a_replacement() {
    let mut w = World::new("nonmr", &[CALM]);
    w.now = t(0, 12);
    w.start_game("nonmr", "SET NONMR");
    let deadline = t(3, 12);
    let grace = t(4, 12);

    w.now = t(0, 13);
    for p in ['A', 'E', 'F', 'G', 'I', 'R'] {
        w.post_orders("nonmr", p, holds(p));
    }
    w.run(t(0, 13));
    let mails = w.tick_until(deadline, HOUR);
    let late = one(&mails, &player('T'), "[You are late!]");
    assert!(
        late.body
            .contains("the game waits for a replacement for your power"),
        "{}",
        late.body
    );

    // The end of grace: Turkey is abandoned; everyone hears the game waits.
    w.tick_until(grace - HOUR, HOUR);
    let mails = w.run(grace);
    assert!(results(&mails, "S1901M").is_empty(), "{}", listing(&mails));
    for addr in everyone() {
        let m = one(&mails, &addr, "Waiting for a replacement");
        assert!(
            m.body
                .contains("Grace for S1901M in 'nonmr' has ended without orders from Turkey.")
                && m.body.contains("SIGNON <initial>nonmr <password>")
                && m.body.contains("SET TAKEOVER <power> <address>"),
            "{}",
            m.body
        );
    }
    assert_eq!(w.status("nonmr", 'T'), "abandoned");

    // Days later: still waiting, nothing processed, nobody pestered.
    let mails = w.tick_until(t(7, 12), 2 * HOUR);
    assert!(mails.is_empty(), "{}", listing(&mails));
    assert_eq!(w.phases("nonmr").len(), 1);
    assert_eq!(w.current("nonmr"), ("S1901M".to_string(), deadline));

    // A newcomer must name the power, and be approved by the Master.
    let newcomer = "newcomer@players.test";
    let mails = w.mail_at(t(7, 13), newcomer, "SIGNON ?nonmr fresh-pw");
    let reply = &one(&mails, newcomer, "").body;
    assert!(
        reply.contains("name the power you take over")
            && reply.contains("Waiting for a player: Turkey."),
        "{reply}"
    );
    let mails = w.mail_at(t(7, 13), newcomer, "SIGNON Tnonmr fresh-pw");
    let reply = &one(&mails, newcomer, "").body;
    assert!(reply.contains("Sign-on failed"), "{reply}");
    assert_eq!(w.status("nonmr", 'T'), "abandoned");
    let mails = w.mail_at(
        t(7, 13),
        MASTER,
        &format!("SIGNON Mnonmr {MASTER_PW}\nSET TAKEOVER Turkey {newcomer}"),
    );
    let told = one(&mails, newcomer, "You may take over Turkey");
    assert!(
        told.body.contains("SIGNON Tnonmr <password>"),
        "{}",
        told.body
    );

    // The approved replacement takes Turkey over, with a fresh deadline.
    let mails = w.mail_at(t(7, 14), newcomer, "SIGNON Tnonmr fresh-pw");
    let reply = &one(&mails, newcomer, "").body;
    assert!(reply.contains("You now play Turkey in 'nonmr'."), "{reply}");
    let fresh = t(7, 14) + 72 * HOUR;
    assert!(
        reply.contains(&format!("Deadline: {}", shown(fresh))),
        "{reply}"
    );
    assert_eq!(w.current("nonmr"), ("S1901M".to_string(), fresh));
    assert_eq!(w.status("nonmr", 'T'), "active");

    // The newcomer's orders complete the phase: processed early, and the
    // results go to the newcomer, not the old address.
    let mails = w.mail_at(
        t(7, 15),
        newcomer,
        &format!("SIGNON Tnonmr fresh-pw\n{}", holds('T')),
    );
    assert!(one(&mails, newcomer, "").body.contains("Status: complete."));
    let mails = w.tick_until(t(7, 16), HOUR);
    let found = results(&mails, "S1901M");
    assert_eq!(found.len(), 8, "{}", listing(&mails));
    assert!(found.iter().any(|m| m.is_to(newcomer)));
    assert!(!found.iter().any(|m| m.is_to(&player('T'))));
    assert_eq!(w.current("nonmr").0, "F1901M");
}

// 6. Early processing and WAIT ------------------------------------------

#[test]
fn early_processing_and_wait() {
    let mut w = World::new("early", &[CALM]);
    w.now = t(0, 12);
    w.start_game("early", "");
    assert_eq!(w.current("early").1, t(3, 12));

    // Everyone's orders by Tuesday 10:00: processed ten minutes later,
    // days before the deadline.
    w.tick_until(t(1, 9), HOUR);
    for (p, _) in POWERS {
        w.post_orders("early", p, holds(p));
    }
    let mails = w.run(t(1, 10));
    assert!(results(&mails, "S1901M").is_empty());
    let mails = w.run(tm(1, 10, 5));
    assert!(mails.is_empty(), "{}", listing(&mails));
    let mails = w.run(tm(1, 10, 10));
    results_to_all(&mails, "S1901M", tm(1, 10, 10));
    let fall_deadline = tm(4, 10, 10);
    assert_eq!(w.current("early"), ("F1901M".to_string(), fall_deadline));

    // France sets WAIT: with everything in, the phase still waits for
    // its deadline.
    let mails = w.mail_at(
        t(1, 11),
        &player('F'),
        &format!("SIGNON Fearly {}\nSET WAIT\n{}", password('F'), holds('F')),
    );
    let reply = &one(&mails, &player('F'), "").body;
    assert!(
        reply.contains("WAIT is set: the phase will not be processed before the deadline."),
        "{reply}"
    );
    for p in ['A', 'E', 'G', 'I', 'R', 'T'] {
        w.post_orders("early", p, holds(p));
    }
    w.run(t(2, 10));
    let mails = w.tick_until(t(4, 10), HOUR);
    assert!(mails.is_empty(), "{}", listing(&mails));
    let mails = w.run(fall_deadline);
    results_to_all(&mails, "F1901M", fall_deadline);

    // WAIT is cleared by the processing.
    let waits: i64 = w
        .db()
        .query_row("SELECT count(*) FROM seats WHERE wait", [], |r| r.get(0))
        .unwrap();
    assert_eq!(waits, 0);
    let mails = w.mail_at(
        t(4, 11),
        &player('F'),
        &format!("SIGNON Fearly {}\n{}", password('F'), holds('F')),
    );
    let reply = &one(&mails, &player('F'), "").body;
    assert!(reply.contains("Orders for France in 'early'"), "{reply}");
    assert!(reply.contains("Status: complete."), "{reply}");
    assert!(!reply.contains("WAIT is set"), "{reply}");

    // A changed order starts the delay again.
    for p in ['A', 'E', 'G', 'I', 'R', 'T'] {
        w.post_orders("early", p, holds(p));
    }
    w.run(tm(4, 11, 2));
    w.mail_at(
        tm(4, 11, 6),
        &player('E'),
        &format!("SIGNON Eearly {}\nA Lvp - Yor", password('E')),
    );
    let mails = w.run(tm(4, 11, 12));
    assert!(results(&mails, "S1902M").is_empty(), "{}", listing(&mails));
    let mails = w.run(tm(4, 11, 16));
    let body = results_to_all(&mails, "S1902M", tm(4, 11, 16));
    assert!(body.contains("Army Liverpool -> Yorkshire."), "{body}");
}

/// njudge's MIN (SET MOVE MIN <hours> without a cron line) and SET START
/// hold a phase back: it is not processed before them, not even early
/// when every order is in; MIN leaves the deadline's hours as they were.
#[test]
fn njudge_min_and_start_hold_a_phase_back() {
    let mut w = World::new("hold", &[CALM]);
    w.now = t(0, 12);
    w.start_game("hold", "SET MOVE MIN 30 GRACE 24");
    // The deadline keeps its 72 hours: MIN does not cut it to 30.
    assert_eq!(w.current("hold").1, t(3, 12));

    // Every order in on Monday 13:00: not processed early before 30 hours
    // have passed (Tuesday 18:00).
    for (p, _) in POWERS {
        w.post_orders("hold", p, holds(p));
    }
    w.run(t(0, 13));
    let mails = w.tick_until(t(1, 17), HOUR);
    assert!(results(&mails, "S1901M").is_empty(), "{}", listing(&mails));
    let mails = w.run(t(1, 18));
    results_to_all(&mails, "S1901M", t(1, 18));
    assert_eq!(w.current("hold"), ("F1901M".to_string(), t(4, 18)));

    // SET START before the deadline: the deadline stays, and the phase
    // waits for the START though every order is in long before.
    let mails = w.mail_at(
        t(1, 19),
        MASTER,
        &format!("SIGNON Mhold {MASTER_PW}\nSET START 2026-11-05 12:00"),
    );
    let reply = &one(&mails, MASTER, "orders").body;
    assert!(
        reply.contains(
            "F1901M is not processed before Thu Nov 05 2026 12:00 UTC, not even when every \
             order is in. The deadline stays Fri Nov 06 2026 18:00 UTC"
        ),
        "{reply}"
    );
    one(&mails, &player('F'), "Settings changed");
    for (p, _) in POWERS {
        w.post_orders("hold", p, holds(p));
    }
    w.run(t(1, 20));
    let mails = w.tick_until(t(3, 11), HOUR);
    assert!(results(&mails, "F1901M").is_empty(), "{}", listing(&mails));
    let mails = w.run(t(3, 12));
    results_to_all(&mails, "F1901M", t(3, 12));
}

// 7. Absences ------------------------------------------------------------

#[test]
fn absences_push_deadlines_which_never_move_earlier() {
    let mut w = World::new("absent", &[CALM]);
    w.now = t(0, 12);
    w.start_game("absent", "");
    let deadline = t(3, 12);
    assert_eq!(w.current("absent").1, deadline);

    // Italy is away from Thursday 00:00 to Saturday 12:00: the deadline
    // moves to the end of the absence.
    let pushed = t(5, 12);
    let mails = w.mail_at(
        t(1, 12),
        &player('I'),
        &format!(
            "SIGNON Iabsent {}\nSET ABSENCE 2026-11-05 00:00 TO 2026-11-07 12:00",
            password('I')
        ),
    );
    let reply = &one(&mails, &player('I'), "").body;
    assert!(
        reply.contains(
            "The deadline for S1901M falls in your absence: it is now Sat Nov 07 2026 12:00 UTC."
        ),
        "{reply}"
    );
    assert_eq!(w.current("absent"), ("S1901M".to_string(), pushed));

    // The others see the new deadline.
    for p in ['A', 'E', 'F', 'G', 'T'] {
        w.post_orders("absent", p, holds(p));
    }
    let mails = w.run(t(1, 13));
    let reply = &one(&mails, &player('E'), "").body;
    assert!(
        reply.contains("Deadline: Sat Nov 07 2026 12:00 UTC"),
        "{reply}"
    );

    // An absence that does not cover the deadline changes nothing; nor
    // does a shorter schedule, which applies from the next phase on.
    w.mail_at(
        t(1, 14),
        &player('R'),
        &format!(
            "SIGNON Rabsent {}\nSET ABSENCE 2026-11-03 18:00 TO 2026-11-06 12:00",
            password('R')
        ),
    );
    w.mail_at(
        t(1, 15),
        MASTER,
        &format!("SIGNON Mabsent {MASTER_PW}\nSET MOVE NEXT 60"),
    );
    assert_eq!(w.current("absent").1, pushed);

    // Nothing at the old deadline; the reminder a day before the new one.
    let mails = w.tick_until(deadline + 3 * HOUR, HOUR);
    assert!(mails.is_empty(), "{}", listing(&mails));
    let mails = w.tick_until(pushed - 24 * HOUR, HOUR);
    assert_eq!(about(&mails, "Reminder").len(), 2, "{}", listing(&mails));
    one(&mails, &player('I'), "Reminder");
    one(&mails, &player('R'), "Reminder");
    // The absence ends; the deadline stays.
    let mails = w.tick_until(pushed - HOUR, HOUR);
    assert!(mails.is_empty(), "{}", listing(&mails));
    assert_eq!(w.current("absent").1, pushed);

    // Italy plans another absence, in the next phase.
    w.mail_at(
        pushed - HOUR,
        &player('I'),
        &format!(
            "SIGNON Iabsent {}\nSET ABSENCE 2026-11-09 00:00 TO 2026-11-12 00:00",
            password('I')
        ),
    );
    assert_eq!(w.current("absent").1, pushed);
    let mails = w.run(pushed);
    assert_eq!(
        about(&mails, "[You are late!]").len(),
        2,
        "{}",
        listing(&mails)
    );

    // Processed at the end of grace (NMR). The Fall deadline, 60 hours
    // on (Wednesday 11 November 00:00), falls in Italy's second absence:
    // it is the absence's end.
    let mails = w.tick_until(pushed + 24 * HOUR, HOUR);
    let body = results_to_all(&mails, "S1901M", pushed + 24 * HOUR);
    assert!(
        body.contains(":: Deadline: F1901M Thu Nov 12 2026 00:00 UTC"),
        "{body}"
    );
    assert_eq!(w.current("absent"), ("F1901M".to_string(), t(10, 0)));
}

// 8. The judge's own outage --------------------------------------------

#[test]
fn after_an_outage_missed_deadlines_move_and_everyone_is_told() {
    let mut w = World::new("outage", &[("clock", "outage_minutes", "120")]);
    w.now = t(0, 12);
    w.start_game("down", "");
    let deadline = t(3, 12);
    assert_eq!(w.current("down").1, deadline);
    // A second game whose deadline is well after the outage.
    w.now = t(0, 13);
    w.start_game("later", "SET MOVE NEXT 240");
    let later_deadline = t(0, 13) + 240 * HOUR;
    assert_eq!(w.current("later").1, later_deadline);

    w.now = t(0, 14);
    for p in ['A', 'E', 'F', 'I', 'R', 'T'] {
        w.post_orders("down", p, holds(p));
    }
    w.run(t(0, 14));
    let mails = w.tick_until(t(2, 12), HOUR);
    one(&mails, &player('G'), "Reminder");

    // The judge is down from Wednesday 12:00 to Friday 18:00: past the
    // deadline (Thursday 12:00) and the end of grace (Friday 12:00).
    let restart = t(4, 18);
    let mails = w.run(restart);
    assert!(results(&mails, "S1901M").is_empty(), "{}", listing(&mails));
    assert!(
        about(&mails, "[You are late!]").is_empty(),
        "{}",
        listing(&mails)
    );
    let new_deadline = restart + 24 * HOUR;
    for addr in everyone() {
        let m = one(&mails, &addr, "Deadline moved after an outage");
        assert!(
            m.body.contains(
                "The judge was not running from Wed Nov 04 2026 12:00 UTC to Fri Nov 06 2026 18:00 UTC, past the deadline of S1901M in 'down'."
            ) && m.body.contains(
                "Nothing was processed. The deadline is now Sat Nov 07 2026 18:00 UTC, grace until Sun Nov 08 2026 18:00 UTC."
            ),
            "{}",
            m.body
        );
    }
    assert_eq!(
        mails.len(),
        8,
        "the other game hears nothing: {}",
        listing(&mails)
    );
    assert_eq!(w.current("down"), ("S1901M".to_string(), new_deadline));
    assert_eq!(w.current("later").1, later_deadline);
    assert_eq!(w.status("down", 'G'), "active");

    // From then on the clock runs as usual from the new deadline.
    let mails = w.tick_until(new_deadline - HOUR, HOUR);
    assert!(mails.is_empty(), "{}", listing(&mails));
    let mails = w.run(new_deadline);
    one(&mails, &player('G'), "[You are late!]");
    let mails = w.tick_until(new_deadline + 23 * HOUR, HOUR);
    assert!(mails.is_empty(), "{}", listing(&mails));
    let mails = w.run(new_deadline + 24 * HOUR);
    results_to_all(&mails, "S1901M", new_deadline + 24 * HOUR);
    assert_eq!(w.status("down", 'G'), "civil_disorder");
}

#[test]
fn an_outage_inside_grace_moves_nothing() {
    let mut w = World::new("shortdown", &[("clock", "outage_minutes", "120")]);
    w.now = t(0, 12);
    w.start_game("grace", "");
    let deadline = t(3, 12);
    let grace = t(4, 12);
    w.now = t(0, 13);
    for p in ['A', 'E', 'F', 'I', 'R', 'T'] {
        w.post_orders("grace", p, holds(p));
    }
    w.run(t(0, 13));
    let mails = w.tick_until(deadline, HOUR);
    one(&mails, &player('G'), "[You are late!]");
    // Down for six hours after the deadline, back well before the end of
    // grace: no deadline was missed, so none moves.
    w.tick_until(deadline + 2 * HOUR, HOUR);
    let mails = w.run(deadline + 8 * HOUR);
    assert!(mails.is_empty(), "{}", listing(&mails));
    assert_eq!(w.current("grace").1, deadline);
    let mails = w.tick_until(grace, HOUR);
    results_to_all(&mails, "S1901M", grace);
}

#[test]
fn a_clock_once_far_ahead_does_not_stop_outages_being_seen() {
    let mut w = World::new("ahead", &[("clock", "outage_minutes", "120")]);
    // One pass with the clock a year ahead (a typo in --now, a machine
    // booted with a wrong clock), then the real time again: the judge
    // says the clock went back and carries on from the real time.
    w.run(t(365, 0));
    let (mails, log) = w.run_logged(t(0, 12));
    assert!(mails.is_empty(), "{}", listing(&mails));
    assert!(
        log.contains("WARN") && log.contains("the clock went back"),
        "{log}"
    );
    w.start_game("ahead", "");
    let deadline = t(3, 12);
    assert_eq!(w.current("ahead").1, deadline);
    w.now = t(0, 13);
    for p in ['A', 'E', 'F', 'I', 'R', 'T'] {
        w.post_orders("ahead", p, holds(p));
    }
    w.run(t(0, 13));
    let mails = w.tick_until(t(2, 12), HOUR);
    one(&mails, &player('G'), "Reminder");
    // Down past the deadline and the end of grace: an outage, as ever.
    let restart = t(4, 18);
    let mails = w.run(restart);
    assert!(results(&mails, "S1901M").is_empty(), "{}", listing(&mails));
    one(&mails, &player('G'), "Deadline moved after an outage");
    assert_eq!(
        w.current("ahead"),
        ("S1901M".to_string(), restart + 24 * HOUR)
    );
}
