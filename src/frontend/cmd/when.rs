//! Dates as players and Masters write them, njudge's forms included:
//! `Jan 15`, `15 Jan`, `Thu`, `Thursday 18:00`, `15 Jan 2027`,
//! `Jan 15 2027 18:00`, beside the judge's own `2026-11-24 20:00`. A date
//! without a year, or a weekday, is the next one to come (the last one
//! gone, for HISTORY); a time without `UTC` is read in the writer's own
//! zone (SET ZONE), else in UTC.

use chrono::{
    DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Weekday,
};
use chrono_tz::Tz;

use crate::frontend::session::{Session, Signed};
use crate::game::clock::parse_time;
use crate::store::StoreError;

/// Which of the dates a yearless date or a weekday may name is meant.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Toward {
    /// The next to come (deadlines, absences).
    Future,
    /// The last gone (HISTORY).
    Past,
}

/// The zone the signed-on writer reads and writes times in: their own
/// (SET ZONE), else none (UTC).
pub fn writer_zone(s: &Session<'_>) -> Result<Option<Tz>, StoreError> {
    let address = match &s.signed {
        Some(Signed::Player { seat, .. }) => seat.address.clone(),
        Some(Signed::Master { game }) => game.master_address.clone().unwrap_or_else(|| s.sender()),
        _ => s.sender(),
    };
    super::zone::zone_for(s.tx, None, &address)
}

/// `text` as a time, `now` deciding the year or week it falls in.
pub fn read_date(text: &str, now: i64, zone: Option<Tz>, toward: Toward) -> Option<i64> {
    let t = text.trim();
    if let Ok(dt) = DateTime::parse_from_rfc3339(t) {
        return Some(dt.timestamp());
    }
    let upper = t.to_ascii_uppercase();
    let zone = if upper.ends_with("UTC") || upper.ends_with('Z') {
        None
    } else {
        zone
    };
    let now_local = local(now, zone)?;
    let naive = match parse_time(t) {
        Some(u) => DateTime::from_timestamp(u, 0)?.naive_utc(),
        None => njudge_date(t, now_local, toward)?,
    };
    match zone {
        None => Some(naive.and_utc().timestamp()),
        Some(z) => z
            .from_local_datetime(&naive)
            .earliest()
            .map(|d| d.timestamp()),
    }
}

/// `now` on the clocks of `zone` (UTC without one).
fn local(now: i64, zone: Option<Tz>) -> Option<NaiveDateTime> {
    let utc = DateTime::from_timestamp(now, 0)?;
    Some(match zone {
        None => utc.naive_utc(),
        Some(z) => utc.with_timezone(&z).naive_local(),
    })
}

/// njudge's forms without a year: `Jan 15`, `15 Jan`, `Thu`, each with an
/// optional time (`18:00`), a weekday before a month and day ignored.
fn njudge_date(text: &str, now: NaiveDateTime, toward: Toward) -> Option<NaiveDateTime> {
    let mut words: Vec<&str> = text.split_whitespace().collect();
    let time = match words.last().and_then(|w| clock(w)) {
        Some(time) => {
            words.pop();
            time
        }
        None => NaiveTime::MIN,
    };
    let wanted = Wanted { time, now, toward };
    if words.len() == 3 && weekday(words[0]).is_some() {
        words.remove(0);
    }
    match words[..] {
        [day] => next_weekday(weekday(day)?, &wanted),
        [a, b] => {
            let (month, day) = match (month(a), month(b)) {
                (Some(m), None) => (m, b.parse().ok()?),
                (None, Some(m)) => (m, a.parse().ok()?),
                _ => return None,
            };
            next_date(month, day, &wanted)
        }
        _ => None,
    }
}

fn clock(word: &str) -> Option<NaiveTime> {
    NaiveTime::parse_from_str(word, "%H:%M")
        .or_else(|_| NaiveTime::parse_from_str(word, "%H:%M:%S"))
        .ok()
}

fn weekday(word: &str) -> Option<Weekday> {
    word.trim_end_matches(',').parse().ok()
}

/// `Jan`, `January`: the month's number.
fn month(word: &str) -> Option<u32> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let word = word.trim_end_matches([',', '.']).to_ascii_lowercase();
    if word.len() < 3 {
        return None;
    }
    let k = MONTHS.iter().position(|m| word.starts_with(m))?;
    let full = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    (full[k].starts_with(&word) || word == "sept").then_some(k as u32 + 1)
}

/// The time of day a date is wanted at, and which date is meant.
#[derive(Clone, Copy)]
struct Wanted {
    time: NaiveTime,
    now: NaiveDateTime,
    toward: Toward,
}

/// The weekday `day` at `time`: the next after `now`, or the last before.
fn next_weekday(day: Weekday, wanted: &Wanted) -> Option<NaiveDateTime> {
    let Wanted { time, now, toward } = *wanted;
    let today = now.date();
    let ahead = (day.num_days_from_monday() + 7 - today.weekday().num_days_from_monday()) % 7;
    let mut at = (today + Duration::days(i64::from(ahead))).and_time(time);
    match toward {
        Toward::Future if at <= now => at += Duration::days(7),
        Toward::Past => {
            while at > now {
                at -= Duration::days(7);
            }
        }
        Toward::Future => {}
    }
    Some(at)
}

/// `month`/`day` at `time` in the year that makes it the next after
/// `now` (or the last before).
fn next_date(month: u32, day: u32, wanted: &Wanted) -> Option<NaiveDateTime> {
    let Wanted { time, now, toward } = *wanted;
    let year = now.year();
    let in_year = |y: i32| NaiveDate::from_ymd_opt(y, month, day).map(|d| d.and_time(time));
    let candidates = [in_year(year - 1), in_year(year), in_year(year + 1)];
    match toward {
        Toward::Future => candidates.into_iter().flatten().find(|at| *at > now),
        Toward::Past => candidates.into_iter().flatten().rev().find(|at| *at <= now),
    }
}

#[cfg(test)]
mod tests {
    use super::{read_date, Toward};

    /// Mon 2026-11-02 12:00 UTC.
    const NOW: i64 = 1_793_620_800;

    fn utc(text: &str, toward: Toward) -> Option<String> {
        read_date(text, NOW, None, toward).map(crate::game::clock::format_time)
    }

    #[test]
    fn njudge_dates() {
        let (f, p) = (Toward::Future, Toward::Past);
        let cases = [
            ("Thu", f, "Thu Nov 05 2026 00:00 UTC"),
            ("thursday 18:00", f, "Thu Nov 05 2026 18:00 UTC"),
            ("Mon 11:00", f, "Mon Nov 09 2026 11:00 UTC"),
            ("Jan 15", f, "Fri Jan 15 2027 00:00 UTC"),
            ("15 Jan 18:00", f, "Fri Jan 15 2027 18:00 UTC"),
            ("Nov 20", f, "Fri Nov 20 2026 00:00 UTC"),
            ("15 Jan 2027", f, "Fri Jan 15 2027 00:00 UTC"),
            ("Jan 15 2027 18:00", f, "Fri Jan 15 2027 18:00 UTC"),
            ("Nov 1", p, "Sun Nov 01 2026 00:00 UTC"),
            ("Thu", p, "Thu Oct 29 2026 00:00 UTC"),
            ("Jan 15", p, "Thu Jan 15 2026 00:00 UTC"),
        ];
        for (text, toward, want) in cases {
            assert_eq!(utc(text, toward).as_deref(), Some(want), "{text}");
        }
        for text in ["Foo 15", "Ju 15", "next week"] {
            assert_eq!(utc(text, f), None, "{text}");
        }
    }

    #[test]
    fn a_zone_reads_local_times() {
        let zone: chrono_tz::Tz = "Europe/Amsterdam".parse().unwrap();
        let t = read_date("Thu 18:00", NOW, Some(zone), Toward::Future);
        assert_eq!(
            t.map(crate::game::clock::format_time).as_deref(),
            Some("Thu Nov 05 2026 17:00 UTC")
        );
        let t = read_date("2026-11-05 18:00 UTC", NOW, Some(zone), Toward::Future);
        assert_eq!(
            t.map(crate::game::clock::format_time).as_deref(),
            Some("Thu Nov 05 2026 18:00 UTC")
        );
    }
}
