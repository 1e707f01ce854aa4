//! A schedule in words, as a player or Master reads it in LIST, in the
//! reply to SET MOVE and in the start mail: the days and times in the
//! schedule's zone, the same times in UTC beside them (with the next
//! daylight-saving change, when one comes), and the line the Master wrote.
//! A line too complex for a sentence is shown with the next times it gives.

use chrono::{Offset, TimeZone};
use chrono_tz::Tz;

use super::clock::{check_cron, format_time, next_in_zone, seconds_first};
use super::length::length_words;
use super::process::join_names;
use super::settings::{GameSettings, Schedule};
use crate::say;

/// `Mondays and Thursdays at 20:00 Europe/Amsterdam (19:00 UTC), at least
/// 48 hours after the phase starts; grace 24 hours (schedule '0 20 * *
/// Mon,Thu' ZONE Europe/Amsterdam)`, as of `now`.
pub fn schedule_words(s: &Schedule, now: i64) -> String {
    // njudge's MIN, when set: how long a phase is held back.
    let held = match s.least_seconds {
        0 => String::new(),
        least => say!("schedule.held_back", least => length_words(least)),
    };
    let min = length_words(s.next_seconds);
    // Empty for no grace: the words say "no grace", not "grace 0 hours".
    let grace = match s.grace_seconds {
        0 => String::new(),
        seconds => length_words(seconds),
    };
    let Some(line) = &s.cron else {
        return say!("schedule.without_line", min, held, grace);
    };
    let zone = s
        .zone
        .as_deref()
        .and_then(|z| z.parse::<chrono_tz::Tz>().ok())
        .unwrap_or(chrono_tz::UTC);
    let when = match Shape::read(line) {
        Some(shape) => shape.words(zone, now),
        None => next_times(line, zone, now),
    };
    say!("schedule.with_line", when, min, held, grace, line, zone => &s.zone)
}

/// The one time of day a schedule's deadlines fall at (hour, minute, and
/// the schedule's zone), if it has a cron line with one: what njudge calls
/// the game's clock, and gives a date written without a time.
pub fn time_of_day(s: &Schedule) -> Option<(u32, u32, Option<Tz>)> {
    let shape = Shape::read(s.cron.as_deref()?)?;
    let zone = s.zone.as_deref().and_then(|z| z.parse::<Tz>().ok());
    match shape.hours[..] {
        [hour] => Some((hour, shape.minute, zone)),
        _ => None,
    }
}

/// The three kinds of phase's schedules, one line each, as LIST and the
/// start mail show them.
pub fn schedule_lines(settings: &GameSettings, now: i64) -> [String; 3] {
    [
        ("Movement", &settings.movement),
        ("Retreat", &settings.retreat),
        ("Adjustment", &settings.adjustment),
    ]
    .map(|(kind, s)| say!("schedule.line", kind, words => schedule_words(s, now)))
}

/// A schedule line of a shape said in words: one minute of a few hours,
/// on chosen weekdays or days of the month, in chosen months.
#[derive(Debug, PartialEq, Eq)]
struct Shape {
    minute: u32,
    hours: Vec<u32>,
    days: OnDays,
    /// 1-12; empty: every month.
    months: Vec<u32>,
}

#[derive(Debug, PartialEq, Eq)]
enum OnDays {
    Every,
    /// 0 Monday .. 6 Sunday.
    Weekdays(Vec<u32>),
    MonthDays(Vec<u32>),
}

/// More hours than this a day, and the line is shown with its next times.
const MOST_HOURS: usize = 4;

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

impl Shape {
    /// The shape of `line` (any form `check_cron` takes), or None when it
    /// is not one said in words.
    fn read(line: &str) -> Option<Shape> {
        let six = seconds_first(line).ok()?;
        let f: Vec<&str> = six.split_whitespace().collect();
        if f.len() == 7 && !any(f[6]) || expand(f[0], 0, 59, &[])? != [0] {
            return None;
        }
        let minute = match expand(f[1], 0, 59, &[])?[..] {
            [m] => m,
            _ => return None,
        };
        let hours = expand(f[2], 0, 23, &[])?;
        if hours.len() > MOST_HOURS {
            return None;
        }
        let days = match (any(f[3]), any(f[5])) {
            (true, true) => OnDays::Every,
            (false, true) => OnDays::MonthDays(expand(f[3], 1, 31, &[])?),
            // Seconds first, the weekdays run 1-7 from Sunday.
            (true, false) => {
                let names = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];
                let mut days: Vec<u32> = expand(f[5], 1, 7, &names)?
                    .into_iter()
                    .map(|d| (d + 5) % 7)
                    .collect();
                days.sort_unstable();
                days.dedup();
                if days.len() == 7 {
                    OnDays::Every
                } else {
                    OnDays::Weekdays(days)
                }
            }
            // Both a day of the month and a weekday: said by its times.
            (false, false) => return None,
        };
        let months = if any(f[4]) {
            Vec::new()
        } else {
            let names: Vec<String> = MONTHS.iter().map(|m| m[..3].to_uppercase()).collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            expand(f[4], 1, 12, &names)?
        };
        Some(Shape {
            minute,
            hours,
            days,
            months,
        })
    }

    /// `Mondays and Thursdays at 20:00 Europe/Amsterdam (19:00 UTC)`.
    fn words(&self, zone: Tz, now: i64) -> String {
        let months = join(
            &self
                .months
                .iter()
                .map(|&m| MONTHS[m as usize - 1])
                .collect::<Vec<_>>(),
        );
        let days = match &self.days {
            OnDays::Every => say!("schedule.every_day", months),
            OnDays::Weekdays(days) => {
                say!("schedule.weekdays", days => weekday_words(days), months)
            }
            OnDays::MonthDays(days) => {
                let days = join(&days.iter().map(|&d| ordinal(d)).collect::<Vec<_>>());
                say!("schedule.month_days", days, months)
            }
        };
        let local: Vec<i32> = self
            .hours
            .iter()
            .map(|&h| (h * 60 + self.minute) as i32)
            .collect();
        let times = join(&local.iter().map(|&m| clock(m)).collect::<Vec<_>>());
        if zone == chrono_tz::UTC {
            return say!("schedule.at_utc", days, times);
        }
        say!("schedule.at_zone", days, times, zone => zone.name(),
            utc => utc_beside(&local, zone, now))
    }
}

/// Whether a field is any value.
fn any(field: &str) -> bool {
    field == "*" || field == "?"
}

/// The values of a cron field (`*`, `5`, `1-5`, `*/15`, `3/2`, names,
/// lists of these), sorted, or None when it does not read. A name is
/// `names[i]`, meaning `low + i`.
fn expand(field: &str, low: u32, high: u32, names: &[&str]) -> Option<Vec<u32>> {
    let value = |v: &str| -> Option<u32> {
        let upper = v.to_ascii_uppercase();
        match names.iter().position(|n| *n == upper) {
            Some(i) => Some(low + i as u32),
            None => v.parse().ok(),
        }
    };
    let mut out = Vec::new();
    for item in field.split(',') {
        let (range, step) = match item.split_once('/') {
            Some((r, s)) => (r, Some(s.parse::<usize>().ok().filter(|&s| s > 0)?)),
            None => (item, None),
        };
        let (a, b) = match range.split_once('-') {
            _ if any(range) => (low, high),
            Some((a, b)) => (value(a)?, value(b)?),
            // `3/2`: from 3 to the end, every second one.
            None if step.is_some() => (value(range)?, high),
            None => (value(range)?, value(range)?),
        };
        let step = step.unwrap_or(1);
        if a < low || b > high || a > b {
            return None;
        }
        out.extend((a..=b).step_by(step));
    }
    out.sort_unstable();
    out.dedup();
    Some(out)
}

/// `Mondays to Fridays`, `Mondays and Thursdays` (0 Monday .. 6 Sunday,
/// sorted).
fn weekday_words(days: &[u32]) -> String {
    let plural = |d: u32| format!("{}s", WEEKDAYS[d as usize]);
    let (first, last) = (days[0], days[days.len() - 1]);
    if days.len() >= 3 && last - first + 1 == days.len() as u32 {
        return format!("{} to {}", plural(first), plural(last));
    }
    join(&days.iter().map(|&d| plural(d)).collect::<Vec<_>>())
}

/// `1st`, `2nd`, `3rd`, `11th`, `22nd`.
fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// `a`, `a and b`, `a, b and c`.
fn join<S: AsRef<str>>(items: &[S]) -> String {
    join_names(&items.iter().map(AsRef::as_ref).collect::<Vec<_>>())
}

/// Minutes of the day as `20:05`.
fn clock(minutes: i32) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// The local times (minutes of the day) in UTC as of `now`, and from the
/// zone's next change of offset, if one comes within the year: `18:00
/// UTC; from Sun Oct 25 2026, 19:00 UTC`.
fn utc_beside(local: &[i32], zone: Tz, now: i64) -> String {
    let now_offset = offset_at(zone, now);
    let shown = utc_times(local, now_offset);
    match next_change(zone, now) {
        Some(change) => {
            let day = zone
                .timestamp_opt(change, 0)
                .single()
                .map(|t| t.format("%a %b %d %Y").to_string())
                .unwrap_or_else(|| format_time(change));
            let then = utc_times(local, offset_at(zone, change));
            say!("schedule.utc_then", now => shown, day, then)
        }
        None => shown,
    }
}

/// `07:00 and 19:00 UTC`, `23:30 UTC the day before and 11:00 UTC`.
fn utc_times(local: &[i32], offset_minutes: i32) -> String {
    let utc: Vec<i32> = local.iter().map(|&m| m - offset_minutes).collect();
    let day = |m: i32| m.div_euclid(24 * 60);
    if utc.iter().all(|&m| day(m) == 0) {
        let times: Vec<String> = utc.iter().map(|&m| clock(m)).collect();
        return format!("{} UTC", join(&times));
    }
    let shown: Vec<String> = utc
        .iter()
        .map(|&m| {
            let when = match day(m) {
                0 => "",
                d if d < 0 => " the day before",
                _ => " the day after",
            };
            format!("{} UTC{when}", clock(m.rem_euclid(24 * 60)))
        })
        .collect();
    join(&shown)
}

/// The zone's offset from UTC at `t`, in minutes.
fn offset_at(zone: Tz, t: i64) -> i32 {
    zone.timestamp_opt(t, 0)
        .single()
        .map_or(0, |local| local.offset().fix().local_minus_utc() / 60)
}

/// The first instant after `now`, within about a year, at which the
/// zone's offset from UTC changes (daylight saving), to the minute.
fn next_change(zone: Tz, now: i64) -> Option<i64> {
    const DAY: i64 = 24 * 3600;
    let offset = offset_at(zone, now);
    let after = (1..=400)
        .map(|d| now + d * DAY)
        .find(|&t| offset_at(zone, t) != offset)?;
    let (mut same, mut changed) = (after - DAY, after);
    while changed - same > 60 {
        let middle = same + (changed - same) / 2;
        if offset_at(zone, middle) == offset {
            same = middle;
        } else {
            changed = middle;
        }
    }
    // Changes fall on whole minutes: the first minute of the new offset.
    Some(changed - changed.rem_euclid(60))
}

/// A line too complex for words: `on its schedule line, next Mon Nov 02
/// 2026 09:00 Europe/Amsterdam (08:00 UTC), ...`.
fn next_times(line: &str, zone: Tz, now: i64) -> String {
    let Ok(parsed) = check_cron(line) else {
        return say!("schedule.no_times");
    };
    let mut times = Vec::new();
    let mut from = now;
    while times.len() < 3 {
        let Some(t) = next_in_zone(&parsed, zone, from) else {
            break;
        };
        times.push(in_zone(t, zone));
        from = t + 1;
    }
    say!("schedule.next_times", times => times.join(", "))
}

/// `Mon Nov 02 2026 09:00 Europe/Amsterdam (08:00 UTC)`; in UTC, as
/// `format_time` writes it.
fn in_zone(t: i64, zone: Tz) -> String {
    let (Some(local), Some(utc)) = (
        zone.timestamp_opt(t, 0).single(),
        chrono::Utc.timestamp_opt(t, 0).single(),
    ) else {
        return format_time(t);
    };
    if zone == chrono_tz::UTC {
        return format_time(t);
    }
    let utc_shown = if utc.date_naive() == local.date_naive() {
        utc.format("%H:%M")
    } else {
        utc.format("%a %H:%M")
    };
    format!(
        "{} {} ({utc_shown} UTC)",
        local.format("%a %b %d %Y %H:%M"),
        zone.name()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str, zone: Option<&str>, now: i64) -> String {
        let s = Schedule {
            cron: Some(line.to_string()),
            next_seconds: 48 * 3600,
            least_seconds: 0,
            grace_seconds: 24 * 3600,
            zone: zone.map(str::to_string),
        };
        schedule_words(&s, now)
    }

    // Monday 2 November 2026, 00:00 UTC: Amsterdam on winter time (UTC+1)
    // until Sunday 28 March 2027.
    const NOVEMBER: i64 = 1_793_577_600;

    #[test]
    fn common_shapes_are_said_in_words() {
        for (line, said) in [
            ("0 20 * * Mon,Thu", "Mondays and Thursdays at 20:00 UTC"),
            ("0 0 20 * * Mon,Thu", "Mondays and Thursdays at 20:00 UTC"),
            ("30 8 * * 1-5", "Mondays to Fridays at 08:30 UTC"),
            ("0 20 * * *", "every day at 20:00 UTC"),
            ("0 20 * * 0-7", "every day at 20:00 UTC"),
            (
                "0 8,20 * * Sat,Sun",
                "Saturdays and Sundays at 08:00 and 20:00 UTC",
            ),
            (
                "0 12 1,15 * *",
                "on the 1st and 15th of each month at 12:00 UTC",
            ),
            (
                "0 12 2 1,7 *",
                "on the 2nd of January and July at 12:00 UTC",
            ),
            ("0 0 18 * * 2-6", "Mondays to Fridays at 18:00 UTC"),
            (
                "0 */6 * * Fri",
                "Fridays at 00:00, 06:00, 12:00 and 18:00 UTC",
            ),
        ] {
            let w = words(line, None, NOVEMBER);
            assert!(w.starts_with(said), "{line}: {w}");
            assert!(w.contains(&format!("(schedule '{line}')")), "{w}");
        }
    }

    #[test]
    fn a_zone_gives_utc_beside_and_its_next_change() {
        let w = words("0 20 * * Mon,Thu", Some("Europe/Amsterdam"), NOVEMBER);
        assert_eq!(
            w,
            "Mondays and Thursdays at 20:00 Europe/Amsterdam (19:00 UTC; from Sun Mar 28 2027, \
             18:00 UTC), at least 48 hours after the phase starts; grace 24 hours \
             (schedule '0 20 * * Mon,Thu' ZONE Europe/Amsterdam)"
        );
        let w = words("30 0 * * *", Some("Asia/Tokyo"), NOVEMBER);
        assert!(
            w.starts_with("every day at 00:30 Asia/Tokyo (15:30 UTC the day before),"),
            "{w}"
        );
    }

    #[test]
    fn complex_lines_show_their_next_times() {
        let w = words("*/15 9 * * Mon", Some("Europe/Amsterdam"), NOVEMBER);
        assert!(
            w.starts_with(
                "on its schedule line, next Mon Nov 02 2026 09:00 Europe/Amsterdam (08:00 UTC), \
                 Mon Nov 02 2026 09:15 Europe/Amsterdam (08:15 UTC), \
                 Mon Nov 02 2026 09:30 Europe/Amsterdam (08:30 UTC),"
            ),
            "{w}"
        );
        let w = words("0 20 13 * Fri", None, NOVEMBER);
        assert!(
            w.starts_with("on its schedule line, next Fri Nov 13 2026 20:00 UTC,"),
            "{w}"
        );
    }
}
