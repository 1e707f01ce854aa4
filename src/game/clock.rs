//! Times as the judge writes and reads them, and deadlines from schedules.
//! Time is always passed in (unix seconds): nothing here reads a clock.

use std::str::FromStr;

use chrono::{DateTime, NaiveDateTime, TimeDelta, TimeZone, Utc};
use chrono_tz::Tz;

use super::settings::Schedule;
use crate::say;

/// "Thu Nov 26 2026 20:00 UTC".
pub fn format_time(t: i64) -> String {
    match Utc.timestamp_opt(t, 0).single() {
        Some(dt) => dt.format("%a %b %d %Y %H:%M UTC").to_string(),
        None => format!("@{t}"),
    }
}

/// "Thu Nov 26 2026 20:00 UTC, in 4 minutes": a time to come and how
/// long until it, as of `now` (a time gone is just the time).
pub fn time_and_wait(t: i64, now: i64) -> String {
    if t <= now {
        return format_time(t);
    }
    say!("clock.time_and_wait", time => format_time(t), wait => format_span(t - now))
}

/// `text` with each time written by [`format_time`] followed by the same
/// instant on the clocks of `zone`: "Sun Nov 29 2026 05:35 UTC (06:35
/// Europe/Amsterdam)", the day named too when it differs ("(Sat 23:35
/// America/New_York)"). UTC itself adds nothing.
pub fn beside_utc(text: &str, zone: Tz) -> String {
    const WRITTEN: usize = "Thu Nov 26 2026 20:00".len();
    if zone == chrono_tz::UTC {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 64);
    let mut rest = text;
    while let Some(at) = rest.find(" UTC") {
        let (head, tail) = rest.split_at(at + " UTC".len());
        out.push_str(head);
        rest = tail;
        let Some(start) = at.checked_sub(WRITTEN) else {
            continue;
        };
        let Some(written) = head.get(start..at) else {
            continue;
        };
        let Ok(utc) = NaiveDateTime::parse_from_str(written, "%a %b %d %Y %H:%M") else {
            continue;
        };
        let local = zone.from_utc_datetime(&utc);
        let shown = if local.date_naive() == utc.date() {
            local.format("%H:%M")
        } else {
            local.format("%a %H:%M")
        };
        out.push_str(&format!(" ({shown} {})", zone.name()));
    }
    out.push_str(rest);
    out
}

/// "2 days 20 hours", "3 hours 5 minutes", "under a minute"; "passed" when negative.
pub fn format_span(seconds: i64) -> String {
    if seconds < 0 {
        return "passed".to_string();
    }
    let minutes = seconds / 60;
    let (d, h, m) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    let part = |n: i64, unit: &str| format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
    match (d, h, m) {
        (0, 0, 0) => "under a minute".to_string(),
        (0, 0, m) => part(m, "minute"),
        (0, h, m) => format!("{} {}", part(h, "hour"), part(m, "minute")),
        (d, h, _) => format!("{} {}", part(d, "day"), part(h, "hour")),
    }
}

/// Checks a cron expression, with a message that says what to write: it
/// must read, and some time must match it (`0 0 0 30 2 *` never comes, and
/// a game on it would fall back on its minimum hours without a word).
///
/// The number of fields decides how it is read: five fields are an
/// ordinary crontab line, minute first (day of week 0-7, 0 and 7 Sunday);
/// six or seven are seconds first, with an optional year (day of week 1-7,
/// 1 Sunday). Day names (Mon, Tue, ...) mean the same in both.
pub fn check_cron(expr: &str) -> Result<cron::Schedule, String> {
    let six = seconds_first(expr)?;
    let schedule = cron::Schedule::from_str(&six)
        .map_err(|e| say!("clock.cron_unreadable", expr, error => e.to_string()))?;
    // The crate knows the years 1970 to 2100: from 1970 on covers them all.
    if schedule.after(&DateTime::UNIX_EPOCH).next().is_none() {
        return Err(say!("clock.cron_never", expr));
    }
    Ok(schedule)
}

/// A field of a cron line: what it is called and the numbers it takes.
struct CronField {
    name: FieldName,
    low: u32,
    high: u32,
}

/// What a cron field is called: a short name, or the words entry naming
/// a day-of-the-week field (which says which day 1 is).
#[derive(Clone, Copy)]
enum FieldName {
    Plain(&'static str),
    Words(&'static str),
}

impl CronField {
    fn name(&self) -> String {
        match self.name {
            FieldName::Plain(name) => name.to_string(),
            FieldName::Words(key) => crate::report::words::say(key, minijinja::Value::UNDEFINED),
        }
    }
}

const fn field(name: &'static str, low: u32, high: u32) -> CronField {
    CronField {
        name: FieldName::Plain(name),
        low,
        high,
    }
}

const fn weekday_field(words_key: &'static str, low: u32, high: u32) -> CronField {
    CronField {
        name: FieldName::Words(words_key),
        low,
        high,
    }
}

const MINUTE: CronField = field("minute", 0, 59);
const HOUR: CronField = field("hour", 0, 23);
const DAY: CronField = field("day of the month", 1, 31);
const MONTH: CronField = field("month", 1, 12);

/// The fields of a seconds-first line (the year optional).
const SECONDS_FIRST: [CronField; 7] = [
    field("second", 0, 59),
    MINUTE,
    HOUR,
    DAY,
    MONTH,
    weekday_field("clock.field_weekday_seconds_first", 1, 7),
    field("year", 1970, 2100),
];

/// The fields of an ordinary crontab line, minute first.
const CRONTAB: [CronField; 5] = [
    MINUTE,
    HOUR,
    DAY,
    MONTH,
    weekday_field("clock.field_weekday_crontab", 0, 7),
];

/// The line in the six- or seven-field form the cron crate reads, each
/// number checked against its field's range first.
pub fn seconds_first(expr: &str) -> Result<String, String> {
    let words: Vec<&str> = expr.split_whitespace().collect();
    let fields: &[CronField] = match words.len() {
        5 => &CRONTAB,
        6 | 7 => &SECONDS_FIRST[..words.len()],
        count => return Err(say!("clock.cron_field_count", expr, count)),
    };
    for (word, f) in words.iter().zip(fields) {
        check_field(expr, word, f)?;
    }
    if words.len() != 5 {
        return Ok(words.join(" "));
    }
    let weekday = crontab_weekdays(words[4]);
    Ok(format!(
        "0 {} {} {} {} {weekday}",
        words[0], words[1], words[2], words[3]
    ))
}

/// Checks the numbers of one field (`*`, `5`, `1-5`, `*/15`, `Mon-Fri`,
/// lists of these); names are left to the cron crate.
fn check_field(expr: &str, word: &str, f: &CronField) -> Result<(), String> {
    for item in word.split(',') {
        let (range, step) = match item.split_once('/') {
            Some((r, s)) => (r, Some(s)),
            None => (item, None),
        };
        if let Some(step) = step {
            if !matches!(step.parse::<u32>(), Ok(n) if n > 0) {
                return Err(say!("clock.cron_step", expr, step, field => f.name()));
            }
        }
        for value in range.split('-') {
            let Ok(n) = value.parse::<u32>() else {
                continue;
            };
            if n < f.low || n > f.high {
                return Err(say!("clock.cron_range", expr, field => f.name(),
                                low => f.low, high => f.high, value => n));
            }
        }
    }
    Ok(())
}

/// A crontab line's day-of-week field (0-7, 0 and 7 Sunday) with day
/// names, which the cron crate reads the same (its numbers are 1-7 from
/// Sunday). Ranges and steps of numbers become lists of names.
fn crontab_weekdays(word: &str) -> String {
    const DAYS: [&str; 8] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    let mut out: Vec<String> = Vec::new();
    for item in word.split(',') {
        let (range, step) = match item.split_once('/') {
            Some((r, s)) => (r, s.parse::<usize>().unwrap_or(1).max(1)),
            None => (item, 1),
        };
        let bounds = match range.split_once('-') {
            _ if range == "*" || range == "?" => Some((0, 6)),
            Some((a, b)) => a.parse::<usize>().ok().zip(b.parse::<usize>().ok()),
            None => range.parse::<usize>().ok().map(|a| (a, a)),
        };
        match bounds {
            // A lone `*` stays: every day.
            Some(_) if item == "*" || item == "?" => out.push(item.to_string()),
            Some((a, b)) if a <= b && b < DAYS.len() => {
                out.extend((a..=b).step_by(step).map(|d| DAYS[d].to_string()))
            }
            // Names, or names and numbers mixed: numbers to names.
            _ => {
                let named: Vec<&str> = range
                    .split('-')
                    .map(|v| {
                        v.parse::<usize>()
                            .ok()
                            .and_then(|d| DAYS.get(d))
                            .map_or(v, |d| d)
                    })
                    .collect();
                let step = item.split_once('/').map(|(_, s)| format!("/{s}"));
                out.push(format!("{}{}", named.join("-"), step.unwrap_or_default()));
            }
        }
    }
    out.dedup();
    out.join(",")
}

/// An IANA time zone name as a person writes it, in any case
/// ("europe/amsterdam"). A name the judge stored (`Tz::name`) is read with
/// `parse::<Tz>()`.
pub fn read_zone(name: &str) -> Option<chrono_tz::Tz> {
    chrono_tz::TZ_VARIANTS
        .iter()
        .copied()
        .find(|z| z.name().eq_ignore_ascii_case(name))
}

/// Checks an IANA time zone name a person wrote ([`read_zone`]).
pub fn check_zone(name: &str) -> Result<chrono_tz::Tz, String> {
    read_zone(name).ok_or_else(|| say!("clock.not_a_zone", name))
}

/// The deadline of a phase starting at `start`: the first schedule time
/// (read in the schedule's time zone) at least `next_seconds` after the
/// start, or just `next_seconds` after it. Never sooner than njudge's MIN
/// (`least_seconds`), and never at the start itself: a schedule time that
/// falls on it (a cron line every five minutes, the phase begun on one of
/// its times) does not count, so no phase lasts less than
/// [`SHORTEST_PHASE`].
pub fn deadline_after(schedule: &Schedule, start: i64) -> i64 {
    let least = schedule.next_seconds.max(schedule.least_seconds);
    let earliest = start + i64::from(least);
    let Some(expr) = &schedule.cron else {
        return earliest;
    };
    let Ok(parsed) = check_cron(expr) else {
        return earliest;
    };
    let zone = schedule
        .zone
        .as_deref()
        .and_then(|z| z.parse::<chrono_tz::Tz>().ok())
        .unwrap_or(chrono_tz::UTC);
    let from = earliest.max(start + SHORTEST_PHASE);
    next_in_zone(&parsed, zone, from).unwrap_or(from)
}

/// The least a phase on a schedule line lasts, whatever its MIN: a
/// minute, so that a phase never ends the moment it begins.
pub const SHORTEST_PHASE: i64 = 60;

/// The first instant at or after `earliest` that `schedule` names on the
/// clocks of `zone`. A local time that does not exist that day (it falls
/// in a daylight-saving gap) names the first instant after the gap; one
/// that exists twice (clocks set back) names the first of the two.
///
/// The cron crate, given a zone, skips local times that do not exist: a
/// weekly 02:30 on the night the clocks go from 02:00 to 03:00 would come
/// a week late. So the schedule runs over wall-clock times with no zone
/// (as if they were UTC), and each is then placed in the zone here.
pub fn next_in_zone(schedule: &cron::Schedule, zone: Tz, earliest: i64) -> Option<i64> {
    // Placing wall-clock times in the zone never goes backwards, so a time
    // that reaches `earliest` comes after the wall-clock time of the
    // instant before it (strictly: the search below is exclusive).
    let before = zone.timestamp_opt(earliest - 1, 0).single()?.naive_local();
    // Times before `earliest` are skipped: at most the length of the hour
    // repeated when clocks are set back. The bound only guards the loop.
    schedule
        .after(&Utc.from_utc_datetime(&before))
        .take(MAX_SKIPPED)
        .filter_map(|wall| first_instant_at(zone, wall.naive_utc()))
        .find(|&t| t >= earliest)
}

/// Schedule times looked at by [`next_in_zone`] before it gives up: more
/// than a schedule firing every second passes in a repeated hour.
const MAX_SKIPPED: usize = 100_000;

/// The first instant whose wall-clock time in `zone` is `wall`, or, when
/// no instant is (a daylight-saving gap), the first instant after the gap.
fn first_instant_at(zone: Tz, wall: NaiveDateTime) -> Option<i64> {
    let exists = |w: NaiveDateTime| zone.from_local_datetime(&w).earliest();
    if let Some(t) = exists(wall) {
        return Some(t.timestamp());
    }
    // In a gap: find a wall-clock time past it (gaps last an hour, at
    // most a day), then the first one that exists by halving.
    let mut step = TimeDelta::minutes(30);
    let mut past = wall + step;
    while exists(past).is_none() {
        if step > TimeDelta::days(2) {
            return None;
        }
        step = step * 2;
        past = wall + step;
    }
    let mut missing = wall;
    while past - missing > TimeDelta::seconds(1) {
        let middle = missing + (past - missing) / 2;
        if exists(middle).is_some() {
            past = middle;
        } else {
            missing = middle;
        }
    }
    exists(past).map(|t| t.timestamp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schedule(cron: &str, zone: Option<&str>) -> Schedule {
        Schedule {
            cron: Some(cron.to_string()),
            next_seconds: 24 * 3600,
            least_seconds: 0,
            grace_seconds: 24 * 3600,
            zone: zone.map(str::to_string),
        }
    }

    #[test]
    fn schedules_are_read_in_their_time_zone() {
        // Monday 2 November 2026, 00:00 UTC; Amsterdam is UTC+1 in November.
        let monday = 1_793_577_600;
        let utc = deadline_after(&schedule("0 0 20 * * Mon,Thu", None), monday);
        assert_eq!(format_time(utc), "Thu Nov 05 2026 20:00 UTC");
        assert_eq!(
            beside_utc(
                "Deadline: Thu Nov 05 2026 20:00 UTC.",
                chrono_tz::Europe::Amsterdam
            ),
            "Deadline: Thu Nov 05 2026 20:00 UTC (21:00 Europe/Amsterdam)."
        );
        assert_eq!(
            beside_utc(
                "Thu Nov 05 2026 02:00 UTC; UTC",
                chrono_tz::America::New_York
            ),
            "Thu Nov 05 2026 02:00 UTC (Wed 21:00 America/New_York); UTC"
        );
        let ams = deadline_after(
            &schedule("0 0 20 * * Mon,Thu", Some("Europe/Amsterdam")),
            monday,
        );
        assert_eq!(format_time(ams), "Thu Nov 05 2026 19:00 UTC");
        // In July Amsterdam is UTC+2.
        let july = 1_783_296_000; // Monday 6 July 2026, 00:00 UTC
        let summer = deadline_after(
            &schedule("0 0 20 * * Mon,Thu", Some("Europe/Amsterdam")),
            july,
        );
        assert_eq!(format_time(summer), "Thu Jul 09 2026 18:00 UTC");
        assert!(check_zone("Mars/Olympus").is_err());
        assert_eq!(
            check_zone("europe/AMSTERDAM"),
            Ok(chrono_tz::Europe::Amsterdam)
        );
    }

    #[test]
    fn a_time_in_a_daylight_saving_gap_is_the_first_instant_after_it() {
        // Amsterdam's clocks went from 02:00 to 03:00 on Sunday 29 March
        // 2026: 02:30 did not exist that day; 03:00 local is 01:00 UTC.
        let thursday = 1_774_483_200; // Thursday 26 March 2026, 00:00 UTC
        let ams = Some("Europe/Amsterdam");
        let weekly = deadline_after(&schedule("0 30 2 * * Sun", ams), thursday);
        assert_eq!(format_time(weekly), "Sun Mar 29 2026 01:00 UTC");
        let yearly = deadline_after(&schedule("0 30 2 29 3 *", ams), thursday);
        assert_eq!(format_time(yearly), "Sun Mar 29 2026 01:00 UTC");
        // The week after, 02:30 exists again (00:30 UTC in summer time).
        let next = deadline_after(&schedule("0 30 2 * * Sun", ams), weekly);
        assert_eq!(format_time(next), "Sun Apr 05 2026 00:30 UTC");
        // A deadline may fall exactly at the end of the gap (a phase
        // lasts at least a minute).
        let mut exact = schedule("0 30 2 * * Sun", ams);
        exact.next_seconds = 0;
        let end_of_gap = 1_774_746_000; // 29 March 2026, 01:00 UTC
        assert_eq!(deadline_after(&exact, end_of_gap - 60), end_of_gap);
        assert_eq!(
            format_time(deadline_after(&exact, end_of_gap + 1)),
            "Sun Apr 05 2026 00:30 UTC"
        );
    }

    #[test]
    fn a_time_repeated_when_clocks_go_back_counts_once_the_first_time() {
        // On Sunday 25 October 2026 Amsterdam's 02:00-03:00 came twice:
        // 00:00-01:00 UTC (summer time), then 01:00-02:00 UTC.
        let thursday = 1_792_627_200; // Thursday 22 October 2026, 00:00 UTC
        let ams = Some("Europe/Amsterdam");
        let first = deadline_after(&schedule("0 30 2 * * Sun", ams), thursday);
        assert_eq!(format_time(first), "Sun Oct 25 2026 00:30 UTC");
        // From within the second 02:00-03:00 the next 02:30 is a week on.
        let mut exact = schedule("0 30 2 * * Sun", ams);
        exact.next_seconds = 0;
        let second_hour = 1_792_890_000 + 600; // 25 October 2026, 01:10 UTC
        assert_eq!(
            format_time(deadline_after(&exact, second_hour)),
            "Sun Nov 01 2026 01:30 UTC"
        );
    }

    #[test]
    fn no_phase_ends_as_it_starts_nor_before_its_min() {
        // Every five minutes, a phase begun on one of its times: the next.
        let mut every_five = schedule("*/5 * * * *", None);
        every_five.next_seconds = 0;
        let monday = 1_793_577_600;
        assert_eq!(deadline_after(&every_five, monday), monday + 300);
        assert_eq!(deadline_after(&every_five, monday + 270), monday + 600);
        // MIN five minutes: a whole five minutes at least.
        every_five.next_seconds = 300;
        assert_eq!(deadline_after(&every_five, monday + 1), monday + 600);
        // njudge's MIN holds the deadline back too.
        every_five.next_seconds = 0;
        every_five.least_seconds = 420;
        assert_eq!(deadline_after(&every_five, monday), monday + 600);
    }

    #[test]
    fn five_fields_are_a_crontab_line_minute_first() {
        assert_eq!(
            seconds_first("0 20 * * Mon,Thu").unwrap(),
            "0 0 20 * * Mon,Thu"
        );
        assert_eq!(
            seconds_first("30 8 * * 1-5").unwrap(),
            "0 30 8 * * Mon,Tue,Wed,Thu,Fri"
        );
        assert_eq!(seconds_first("0 20 * * 0,7").unwrap(), "0 0 20 * * Sun");
        assert_eq!(seconds_first("0 20 * * *").unwrap(), "0 0 20 * * *");
        assert_eq!(
            seconds_first("0 20 * * */2").unwrap(),
            "0 0 20 * * Sun,Tue,Thu,Sat"
        );
        assert_eq!(seconds_first("0 0 20 * * 2").unwrap(), "0 0 20 * * 2");
        for ok in [
            "0 20 * * 0-7",
            "0 20 * * 1-5/2",
            "0 20 * * mon-5",
            "0 20 1 * *",
        ] {
            assert!(check_cron(ok).is_ok(), "{ok}");
        }
        // 1 is Monday in a crontab line: Monday 2 November 2026.
        let monday = 1_793_577_600;
        let s = schedule("0 20 * * 1", None);
        assert_eq!(
            format_time(deadline_after(&s, monday)),
            "Mon Nov 09 2026 20:00 UTC"
        );
    }

    #[test]
    fn an_impossible_field_is_named_with_its_range() {
        for (expr, said) in [
            ("0 0 25 * * Mon", "the hour field runs from 0 to 23, not 25"),
            (
                "61 20 * * Mon",
                "the minute field runs from 0 to 59, not 61",
            ),
            ("0 20 * 13 *", "the month field runs from 1 to 12, not 13"),
            (
                "0 20 * * 8",
                "week (0 and 7 are Sunday) field runs from 0 to 7",
            ),
        ] {
            let e = check_cron(expr).unwrap_err();
            assert!(e.contains(said), "{e}");
        }
        assert!(check_cron("0 0 20 * *").is_ok());
        assert!(check_cron("20 * *").unwrap_err().contains("has 3 field(s)"));
    }

    #[test]
    fn a_schedule_that_never_comes_is_refused() {
        for never in ["0 0 0 30 2 *", "0 0 12 31 4,6,9,11 *", "0 0 0 31 2 Mon"] {
            let e = check_cron(never).unwrap_err();
            assert!(e.contains(&format!("'{never}' never comes")), "{e}");
        }
        // Rare is not never: 29 February on a Monday comes in 2044.
        assert!(check_cron("0 0 0 29 2 Mon").is_ok());
    }
}
