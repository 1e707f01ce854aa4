//! Schedules in words (issue 12, item 8): the reply to SET MOVE, the
//! settings-change notice, the start mail and LIST name the days and times
//! of a schedule in the game's zone, with UTC beside them across a
//! daylight-saving change, and the line the Master wrote; a line too
//! complex for words is shown with its next times. Played by mail against
//! a real judge.

mod common;

use common::*;

const GM: &str = "gm@example.org";
const SEVEN: &str = "AEFGIRT";

fn addr(initial: char) -> String {
    format!("p{}@example.net", initial.to_ascii_lowercase())
}

fn as_master(j: &mut TestJudge, game: &str, lines: &str) -> Vec<Sent> {
    j.mail(GM, &format!("SIGNON M{game} gmpw\n{lines}"))
}

/// Seven players join `game`, each asking for the power of their initial:
/// the mails of the last join (the start mails among them).
fn seven_join(j: &mut TestJudge, game: &str) -> Vec<Sent> {
    let mut last = Vec::new();
    for p in SEVEN.chars() {
        last = j.mail(
            &addr(p),
            &format!("SIGNON ?{game} pw{p}\nSET PREFERENCE {p}"),
        );
        assert!(!last[0].subject.contains("[Error Flag]"), "{}", dump(&last));
    }
    last
}

fn says(mail: &Sent, text: &str) {
    assert!(
        mail.body.contains(text),
        "to {}, '{}': expected\n  {text}\nin:\n{}",
        mail.to,
        mail.subject,
        mail.body
    );
}

/// Amsterdam's clocks went back on Sunday 25 October 2026 (UTC+2 to
/// UTC+1): a schedule set the week before says both UTC times, the first
/// deadline after the change is at the later UTC time, and LIST after the
/// change names the next one (Sunday 28 March 2027).
#[test]
fn a_schedule_in_amsterdam_is_said_in_words_across_the_change_of_clocks() {
    let mut j = TestJudge::new("schedule-dst");
    j.now = "2026-10-20T12:00:00Z".to_string();
    let r = j.mail(
        GM,
        "CREATE ?dst gmpw\nSET MOVE 0 20 * * Mon,Thu MIN 96 GRACE 24 ZONE Europe/Amsterdam",
    );
    let before_change = "Movement deadlines: Mondays and Thursdays at 20:00 Europe/Amsterdam \
         (18:00 UTC; from Sun Oct 25 2026, 19:00 UTC), at least 96 hours after the phase \
         starts; grace 24 hours (schedule '0 20 * * Mon,Thu' ZONE Europe/Amsterdam)";
    says(&r[0], before_change);

    // Started Tuesday 20 October 12:00 UTC: at least 96 hours on is
    // Saturday; the next Monday 20:00 in Amsterdam is after the change.
    let r = seven_join(&mut j, "dst");
    for p in SEVEN.chars() {
        let start = one_to(&r[1..], &addr(p));
        assert!(start.subject.contains("Game starts"), "{}", dump(&r));
        says(
            start,
            "The deadline for orders is Mon Oct 26 2026 19:00 UTC (20:00 Europe/Amsterdam).",
        );
        says(start, before_change);
        says(
            start,
            "Retreat deadlines: 24 hours after the phase starts; grace 24 hours.",
        );
    }
    let to_master = one_to(&r[1..], GM);
    says(to_master, before_change);

    // After the change, a player's LIST gives the winter time and the
    // next change.
    j.now = "2026-10-26T12:05:00Z".to_string();
    let r = j.mail(&addr('F'), "SIGNON Fdst pwF\nLIST dst");
    says(
        &r[0],
        "Movement deadlines: Mondays and Thursdays at 20:00 Europe/Amsterdam (19:00 UTC; \
         from Sun Mar 28 2027, 18:00 UTC), at least 96 hours",
    );

    // Several hours a day: the notice every player gets says them all.
    let r = as_master(
        &mut j,
        "dst",
        "SET RETREAT 0 9,21 * * * MIN 12 GRACE 6 ZONE Europe/Amsterdam",
    );
    let retreat = "Retreat deadlines: every day at 09:00 and 21:00 Europe/Amsterdam \
                   (08:00 and 20:00 UTC; from Sun Mar 28 2027, 07:00 and 19:00 UTC), at least \
                   12 hours after the phase starts; grace 6 hours (schedule '0 9,21 * * *' \
                   ZONE Europe/Amsterdam)";
    says(&r[0], retreat);
    for p in SEVEN.chars() {
        let notice = one_to(&r[1..], &addr(p));
        assert!(notice.subject.ends_with("Settings changed"), "{}", dump(&r));
        says(notice, retreat);
    }

    // Too many times a day for words: the next three, in the zone.
    let r = as_master(
        &mut j,
        "dst",
        "SET ADJUST */20 9-17 * * Mon-Fri ZONE Europe/Amsterdam",
    );
    says(
        &r[0],
        "Adjustment deadlines: on its schedule line, next Mon Oct 26 2026 13:20 \
         Europe/Amsterdam (12:20 UTC), Mon Oct 26 2026 13:40 Europe/Amsterdam (12:40 UTC), \
         Mon Oct 26 2026 14:00 Europe/Amsterdam (13:00 UTC), at least 24 hours after the \
         phase starts; grace 24 hours (schedule '*/20 9-17 * * Mon-Fri' ZONE Europe/Amsterdam)",
    );
    let r = j.mail(&addr('E'), "SIGNON Edst pwE\nLIST dst");
    says(&r[0], retreat);
    says(
        &r[0],
        "Adjustment deadlines: on its schedule line, next Mon Oct 26 2026 13:20",
    );
}

/// Without a zone the times are UTC's, and a player with a zone of their
/// own sees the next times of a complex line beside UTC in theirs.
#[test]
fn a_utc_schedule_is_said_in_utc_and_days_of_the_month_by_number() {
    let mut j = TestJudge::new("schedule-utc");
    j.now = at(0);
    let r = j.mail(
        GM,
        "CREATE ?utc gmpw\nSET MOVE 30 18 1,15 * * MIN 24\nSET RETREAT 0 6 * * 1-5\n\
         SET ADJUST 0 12 13 * Fri",
    );
    says(
        &r[0],
        "Movement deadlines: on the 1st and 15th of each month at 18:30 UTC, at least 24 \
         hours after the phase starts; grace 24 hours (schedule '30 18 1,15 * *').",
    );
    says(
        &r[0],
        "Retreat deadlines: Mondays to Fridays at 06:00 UTC, at least",
    );
    says(
        &r[0],
        "Adjustment deadlines: on its schedule line, next Fri Nov 13 2026 12:00 UTC, \
         Fri Aug 13 2027 12:00 UTC, Fri Oct 13 2028 12:00 UTC,",
    );
    seven_join(&mut j, "utc");
    let r = j.mail(
        &addr('G'),
        "SIGNON Gutc pwG\nSET ZONE America/New_York\nLIST utc",
    );
    says(
        &r[0],
        "Adjustment deadlines: on its schedule line, next Fri Nov 13 2026 12:00 UTC \
         (07:00 America/New_York), Fri Aug 13 2027 12:00 UTC (08:00 America/New_York)",
    );
    says(&r[0], "on the 1st and 15th of each month at 18:30 UTC");
}
