//! SET ZONE (issue 12): each recipient sees deadlines in UTC and, when
//! they set a zone (or the game's schedules have one), in that zone beside
//! it; the machine-readable `:: Deadline:` line keeps its UTC part.

#[path = "common/clock_world.rs"]
mod clock_world;
mod common;

use chrono::TimeZone;
use clock_world::*;

/// The reply to a power's mail.
fn reply_to(mails: &[Out], p: char) -> &Out {
    to(mails, &player(p))
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("a reply to {p}: {}", listing(mails)))
}

/// `at` on the clocks of `zone`, as the judge writes it beside UTC (the
/// day is named when it differs from the UTC day).
fn local(at: i64, zone: chrono_tz::Tz) -> String {
    let utc = chrono::Utc.timestamp_opt(at, 0).unwrap();
    let there = zone.from_utc_datetime(&utc.naive_utc());
    let same_day = there.date_naive() == utc.date_naive();
    let clock = there.format(if same_day { "%H:%M" } else { "%a %H:%M" });
    format!("{clock} {}", zone.name())
}

/// The line of `body` that starts with `start`.
fn line<'a>(body: &'a str, start: &str) -> &'a str {
    body.lines()
        .find(|l| l.trim_start().starts_with(start))
        .unwrap_or_else(|| panic!("a line starting {start:?} in:\n{body}"))
}

#[test]
fn a_player_sees_deadlines_in_their_zone_and_others_in_utc() {
    let mut w = World::master_paced("zone");
    let g = "zoned";
    w.start_game(g, "");
    let (_, deadline) = w.current(g);
    let ams = chrono_tz::Europe::Amsterdam;
    let both = format!("{} ({})", shown(deadline), local(deadline, ams));

    let r = w.orders(
        g,
        'F',
        &format!("SET ZONE europe/amsterdam\n{}", holds('F')),
    );
    let rep = reply_to(&r, 'F');
    assert!(rep.body.contains("in Europe/Amsterdam"), "{}", rep.body);
    assert!(rep.body.contains(&both), "{}", rep.body);

    let r = w.orders(g, 'E', holds('E'));
    let rep = reply_to(&r, 'E');
    assert!(rep.body.contains(&shown(deadline)), "{}", rep.body);
    assert!(!rep.body.contains("Amsterdam"), "{}", rep.body);

    let mails = w.mail(MASTER, &format!("SIGNON M{g} {MASTER_PW}\nPROCESS"));
    let (next, next_deadline) = w.current(g);
    let french = one(&mails, &player('F'), "Results");
    let deadline_line = line(&french.body, ":: Deadline:");
    assert_eq!(
        deadline_line,
        format!(
            ":: Deadline: {next} {} ({})",
            shown(next_deadline),
            local(next_deadline, ams)
        ),
        "{}",
        french.body
    );
    let english = one(&mails, &player('E'), "Results");
    assert_eq!(
        line(&english.body, ":: Deadline:"),
        format!(":: Deadline: {next} {}", shown(next_deadline)),
        "{}",
        english.body
    );
    assert!(!english.body.contains("Amsterdam"), "{}", english.body);

    // Cleared again: UTC only.
    let r = w.orders(g, 'F', "SET NOZONE\nA Par H");
    let rep = reply_to(&r, 'F');
    assert!(!rep.body.contains("Amsterdam"), "{}", rep.body);
}

#[test]
fn an_unknown_zone_is_refused_with_the_form() {
    let mut w = World::master_paced("zone-unknown");
    let g = "zonebad";
    w.start_game(g, "");
    let r = w.orders(g, 'F', "SET ZONE Mars/Olympus");
    let rep = reply_to(&r, 'F');
    assert!(rep.subject.contains("[Error Flag]"), "{}", rep.subject);
    assert!(rep.body.contains("SET ZONE Mars/Olympus"), "{}", rep.body);
    assert!(
        rep.body.contains("'Mars/Olympus' is not an IANA time zone"),
        "{}",
        rep.body
    );
    assert!(
        rep.body.contains("e.g. SET ZONE Europe/Amsterdam"),
        "{}",
        rep.body
    );
}

#[test]
fn the_games_schedule_zone_is_shown_to_those_without_their_own() {
    let mut w = World::master_paced("zone-game");
    let g = "zonegame";
    w.start_game(g, "SET MOVE 0 0 20 * * Mon,Thu ZONE America/New_York");
    let (_, deadline) = w.current(g);
    let ny = chrono_tz::America::New_York;
    let r = w.orders(g, 'E', holds('E'));
    let rep = reply_to(&r, 'E');
    let both = format!("{} ({})", shown(deadline), local(deadline, ny));
    assert!(rep.body.contains(&both), "{}", rep.body);
    // A player's own zone comes first.
    let r = w.orders(g, 'F', &format!("SET ZONE Asia/Tokyo\n{}", holds('F')));
    let rep = reply_to(&r, 'F');
    let tokyo = chrono_tz::Asia::Tokyo;
    let both = format!("{} ({})", shown(deadline), local(deadline, tokyo));
    assert!(rep.body.contains(&both), "{}", rep.body);
    assert!(!rep.body.contains("New_York"), "{}", rep.body);
}

#[test]
fn a_zone_follows_the_player_to_a_new_address() {
    let mut w = World::master_paced("zone-address");
    let g = "zonemove";
    w.start_game(g, "");
    let (_, deadline) = w.current(g);
    let ams = chrono_tz::Europe::Amsterdam;
    let both = format!("{} ({})", shown(deadline), local(deadline, ams));
    w.orders(g, 'F', "SET ZONE Europe/Amsterdam");
    let new = "france.moved@example.com";
    // From the new address itself: its sign-on confirms it.
    w.mail(
        new,
        &format!("SIGNON F{g} {}\nSET ADDRESS {new}", password('F')),
    );

    let body = format!("SIGNON F{g} {}\n{}", password('F'), holds('F'));
    let r = w.mail(new, &body);
    let rep = to(&r, new)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("a reply to {new}: {}", listing(&r)));
    assert!(rep.body.contains(&both), "{}", rep.body);
}

#[test]
fn a_schedule_zone_is_read_in_any_case_as_set_zone_is() {
    let mut w = World::master_paced("zone-case");
    let g = "zonecase";
    let started = w.start_game(g, "SET MOVE 0 0 20 * * Mon,Thu ZONE america/new_york");
    let flagged = about(&started, "[Error Flag]");
    assert!(flagged.is_empty(), "{}", listing(&started));
    let (_, deadline) = w.current(g);
    let ny = chrono_tz::America::New_York;
    let r = w.orders(g, 'E', holds('E'));
    let rep = reply_to(&r, 'E');
    let both = format!("{} ({})", shown(deadline), local(deadline, ny));
    assert!(rep.body.contains(&both), "{}", rep.body);
}
