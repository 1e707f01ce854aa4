//! Times as the judge writes and reads them, and deadlines from schedules.
//! Time is always passed in (unix seconds): nothing here reads a clock.

use std::str::FromStr;

use chrono::{DateTime, NaiveDate, NaiveDateTime, TimeZone, Utc};

use super::settings::Schedule;

/// "Thu Nov 26 2026 20:00 UTC".
pub fn format_time(t: i64) -> String {
    match Utc.timestamp_opt(t, 0).single() {
        Some(dt) => dt.format("%a %b %d %Y %H:%M UTC").to_string(),
        None => format!("@{t}"),
    }
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

/// Reads a date a Master or player writes: `2026-11-24 20:00`,
/// `2026-11-24T20:00:00Z`, `2026-11-24`, `Nov 24 2026 20:00`,
/// `Tue Nov 24 2026 20:00` (times in UTC).
pub fn parse_time(text: &str) -> Option<i64> {
    let t = text.trim().trim_end_matches("UTC").trim();
    if let Ok(dt) = DateTime::parse_from_rfc3339(t) {
        return Some(dt.timestamp());
    }
    for format in [
        "%Y-%m-%d %H:%M",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%dT%H:%M:%S",
        "%b %d %Y %H:%M",
        "%a %b %d %Y %H:%M",
        "%d %b %Y %H:%M",
    ] {
        if let Ok(dt) = NaiveDateTime::parse_from_str(t, format) {
            return Some(dt.and_utc().timestamp());
        }
    }
    for format in ["%Y-%m-%d", "%b %d %Y", "%d %b %Y"] {
        if let Ok(d) = NaiveDate::parse_from_str(t, format) {
            return Some(d.and_hms_opt(0, 0, 0)?.and_utc().timestamp());
        }
    }
    None
}

/// Checks a cron expression, with a message that says what to write.
pub fn check_cron(expr: &str) -> Result<cron::Schedule, String> {
    let fields = expr.split_whitespace().count();
    if fields == 5 {
        return Err(format!(
            "'{expr}' has 5 fields; schedules need 6 or 7, seconds first: \
             e.g. '0 0 20 * * Mon,Thu' for 20:00 on Mondays and Thursdays"
        ));
    }
    cron::Schedule::from_str(expr).map_err(|e| {
        format!("'{expr}' is not a schedule ({e}); write e.g. '0 0 20 * * Mon,Thu' (sec min hour day month weekday)")
    })
}

/// Checks an IANA time zone name.
pub fn check_zone(name: &str) -> Result<chrono_tz::Tz, String> {
    name.parse::<chrono_tz::Tz>().map_err(|_| {
        format!("'{name}' is not a time zone: write an IANA name such as Europe/Amsterdam or America/New_York")
    })
}

/// The deadline of a phase starting at `start`: the first schedule time
/// (read in the schedule's time zone) at least `min_hours` after the
/// start, or just `min_hours` after it.
pub fn deadline_after(schedule: &Schedule, start: i64) -> i64 {
    let earliest = start + i64::from(schedule.min_hours) * 3600;
    let Some(expr) = &schedule.cron else {
        return earliest;
    };
    let Ok(parsed) = check_cron(expr) else {
        return earliest;
    };
    let zone = schedule
        .zone
        .as_deref()
        .and_then(|z| check_zone(z).ok())
        .unwrap_or(chrono_tz::UTC);
    let Some(from) = zone.timestamp_opt(earliest - 1, 0).single() else {
        return earliest;
    };
    parsed
        .after(&from)
        .next()
        .map(|t| t.timestamp())
        .unwrap_or(earliest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schedule(cron: &str, zone: Option<&str>) -> Schedule {
        Schedule {
            cron: Some(cron.to_string()),
            min_hours: 24,
            grace_hours: 24,
            zone: zone.map(str::to_string),
        }
    }

    #[test]
    fn schedules_are_read_in_their_time_zone() {
        // Monday 2 November 2026, 00:00 UTC; Amsterdam is UTC+1 in November.
        let monday = 1_793_577_600;
        let utc = deadline_after(&schedule("0 0 20 * * Mon,Thu", None), monday);
        assert_eq!(format_time(utc), "Thu Nov 05 2026 20:00 UTC");
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
    }
}
