//! Dates as players and Masters write them, njudge's forms included:
//! `Jan 15`, `15 Jan`, `Jan 15, 2027`, `Thu`, `Thursday 18:00`, `15`
//! (the day), `Jan` (its last day), `Jan 15 2027 18:00`, beside the
//! judge's own `2026-11-24 20:00`. A date without a year, or a weekday,
//! is the next one to come (the last one gone, for HISTORY); a date
//! without a time is what the command makes of it ([`DayTime`]); a time
//! without `UTC` is read in the writer's own zone (SET ZONE), else in UTC.

use chrono::{
    DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Weekday,
};
use chrono_tz::Tz;

use crate::frontend::session::{Session, Signed};
use crate::game::StoreError;

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
        Some(Signed::Player { seat, .. }) => super::own_address(s, seat)?,
        Some(Signed::Master { game }) => game.master_address.clone().unwrap_or_else(|| s.sender()),
        _ => s.sender(),
    };
    crate::game::zones::zone_for(s.tx, None, &address)
}

/// What a date written without a time of day stands for.
#[derive(Clone, Copy)]
pub enum DayTime {
    /// The day's first minute (00:00): a start of something.
    Start,
    /// The day's end (the midnight after it): an absence's last day, the
    /// end of a HISTORY.
    End,
    /// A time of day on the clocks of a zone (none: the writer's), as
    /// njudge gives an undated deadline the game's time of day.
    At(NaiveTime, Option<Tz>),
}

/// `text` as a time, `now` deciding the year or week it falls in; a date
/// without a time is its first minute.
pub fn read_date(text: &str, now: i64, zone: Option<Tz>, toward: Toward) -> Option<i64> {
    read_date_at(text, now, zone, toward, DayTime::Start)
}

/// `text` as a time, `now` deciding the year or week it falls in, and
/// `untimed` the time of a date written without one.
pub fn read_date_at(
    text: &str,
    now: i64,
    zone: Option<Tz>,
    toward: Toward,
    untimed: DayTime,
) -> Option<i64> {
    let t = text.trim();
    if let Ok(dt) = DateTime::parse_from_rfc3339(t) {
        return Some(dt.timestamp());
    }
    let written = Written::read(t)?;
    let zone = match untimed {
        _ if written.utc => None,
        DayTime::At(_, Some(z)) if written.time.is_none() => Some(z),
        _ => zone,
    };
    let wanted = Wanted {
        time: written.time,
        untimed,
        now: local(now, zone)?,
        toward,
    };
    let naive = written.resolve(&wanted)?;
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

/// The parts of a date as written, in any order as njudge takes them:
/// `2026-11-24`, a weekday, a month, a day, a year, a time (`18:00`),
/// `UTC`; commas and a final dot ignored (`Jan 15, 2026`, `Thu 15 Jan.`).
#[derive(Default)]
struct Written {
    ymd: Option<NaiveDate>,
    weekday: Option<Weekday>,
    month: Option<u32>,
    day: Option<u32>,
    year: Option<i32>,
    time: Option<NaiveTime>,
    /// Written with `UTC` (or `Z`): read in UTC whatever the writer's zone.
    utc: bool,
}

impl Written {
    fn read(text: &str) -> Option<Written> {
        let mut w = Written::default();
        let words = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|x| !x.is_empty());
        for word in words {
            w.take(word.trim_end_matches('.'))?;
        }
        let dated = w.month.is_some() || w.day.is_some() || w.year.is_some();
        let some = dated || w.ymd.is_some() || w.weekday.is_some() || w.time.is_some();
        let clash = w.ymd.is_some() && dated;
        (some && !clash).then_some(w)
    }

    /// One word into its place; None when it is no part of a date, or a
    /// part written twice.
    fn take(&mut self, word: &str) -> Option<()> {
        fn set<T>(slot: &mut Option<T>, value: T) -> Option<()> {
            slot.is_none().then(|| *slot = Some(value))
        }
        let upper = word.to_ascii_uppercase();
        if upper == "UTC" || upper == "Z" {
            self.utc = true;
            return Some(());
        }
        let (date_part, time_part) = match word.split_once(['T', 't']) {
            Some((d, t)) if d.len() == 10 => (d, Some(t.trim_end_matches(['Z', 'z']))),
            _ => (word, None),
        };
        if let Ok(d) = NaiveDate::parse_from_str(date_part, "%Y-%m-%d") {
            set(&mut self.ymd, d)?;
            return match time_part {
                Some(t) => set(&mut self.time, clock(t)?),
                None => Some(()),
            };
        }
        if let Some(t) = clock(word) {
            return set(&mut self.time, t);
        }
        if word.chars().all(|c| c.is_ascii_digit()) {
            let n: u32 = word.parse().ok()?;
            return match word.len() {
                4 => set(&mut self.year, n as i32),
                1 | 2 if (1..=31).contains(&n) => set(&mut self.day, n),
                _ => None,
            };
        }
        if let Some(m) = month(word) {
            return set(&mut self.month, m);
        }
        set(&mut self.weekday, weekday(word)?)
    }

    /// The date and time meant, as of `wanted.now`.
    fn resolve(&self, wanted: &Wanted) -> Option<NaiveDateTime> {
        if let Some(d) = self.ymd {
            return Some(wanted.at(d));
        }
        let today = wanted.now.date();
        match (self.year, self.month, self.day) {
            (Some(y), Some(m), Some(d)) => NaiveDate::from_ymd_opt(y, m, d).map(|d| wanted.at(d)),
            (None, Some(m), Some(d)) => {
                let years = [today.year() - 1, today.year(), today.year() + 1];
                wanted.pick(
                    years
                        .iter()
                        .filter_map(|&y| NaiveDate::from_ymd_opt(y, m, d)),
                )
            }
            // A month without a day: its last day (njudge).
            (year, Some(m), None) => {
                let years = match year {
                    Some(y) => vec![y],
                    None => vec![today.year() - 1, today.year(), today.year() + 1],
                };
                wanted.pick(years.into_iter().filter_map(|y| last_day(y, m)))
            }
            // A day without a month: the next (or last) date with it.
            (None, None, Some(d)) => {
                let months = (-2..=2).filter_map(|k| month_from(today, k));
                wanted.pick(months.filter_map(|(y, m)| NaiveDate::from_ymd_opt(y, m, d)))
            }
            (None, None, None) => match self.weekday {
                Some(day) => next_weekday(day, wanted),
                // A time alone: today (njudge).
                None => Some(wanted.at(today)),
            },
            _ => None,
        }
    }
}

/// The last day of month `m` of year `y`.
fn last_day(y: i32, m: u32) -> Option<NaiveDate> {
    let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
    NaiveDate::from_ymd_opt(ny, nm, 1)?.pred_opt()
}

/// The year and month `k` months from `date`'s.
fn month_from(date: NaiveDate, k: i32) -> Option<(i32, u32)> {
    let index = date.year() * 12 + date.month0() as i32 + k;
    Some((
        index.div_euclid(12),
        u32::try_from(index.rem_euclid(12)).ok()? + 1,
    ))
}

fn clock(word: &str) -> Option<NaiveTime> {
    NaiveTime::parse_from_str(word, "%H:%M")
        .or_else(|_| NaiveTime::parse_from_str(word, "%H:%M:%S"))
        .ok()
}

fn weekday(word: &str) -> Option<Weekday> {
    word.parse().ok()
}

/// `Jan`, `January`: the month's number.
fn month(word: &str) -> Option<u32> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let word = word.to_ascii_lowercase();
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

/// The time a date is wanted at, and which date is meant.
#[derive(Clone, Copy)]
struct Wanted {
    /// The time written, if any.
    time: Option<NaiveTime>,
    untimed: DayTime,
    now: NaiveDateTime,
    toward: Toward,
}

impl Wanted {
    /// The moment `date` stands for.
    fn at(&self, date: NaiveDate) -> NaiveDateTime {
        match (self.time, self.untimed) {
            (Some(t), _) | (None, DayTime::At(t, _)) => date.and_time(t),
            (None, DayTime::Start) => date.and_time(NaiveTime::MIN),
            (None, DayTime::End) => (date + Duration::days(1)).and_time(NaiveTime::MIN),
        }
    }

    /// Whether `date` is on the side of `now` wanted: its moment still to
    /// come, or (for HISTORY) its day begun.
    fn fits(&self, date: NaiveDate) -> bool {
        match self.toward {
            Toward::Future => self.at(date) > self.now,
            Toward::Past => date.and_time(self.time.unwrap_or(NaiveTime::MIN)) <= self.now,
        }
    }

    /// Of dates in order, the first to come (or the last gone).
    fn pick(&self, dates: impl DoubleEndedIterator<Item = NaiveDate>) -> Option<NaiveDateTime> {
        let found = match self.toward {
            Toward::Future => dates.into_iter().find(|d| self.fits(*d)),
            Toward::Past => dates.into_iter().rev().find(|d| self.fits(*d)),
        };
        found.map(|d| self.at(d))
    }
}

/// The weekday `day`: the next to come after `now`, or the last begun.
fn next_weekday(day: Weekday, wanted: &Wanted) -> Option<NaiveDateTime> {
    let today = wanted.now.date();
    let ahead = (day.num_days_from_monday() + 7 - today.weekday().num_days_from_monday()) % 7;
    let first = today + Duration::days(i64::from(ahead));
    let dates = (-2..=1).map(|w| first + Duration::days(7 * w));
    wanted.pick(dates)
}

#[cfg(test)]
mod tests {
    use super::{read_date, read_date_at, DayTime, Toward};

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
        for text in ["Foo 15", "Ju 15", "next week", "2026", "Jan 15 Feb"] {
            assert_eq!(utc(text, f), None, "{text}");
        }
    }

    #[test]
    fn njudge_dates_with_commas_years_and_lone_parts() {
        let f = Toward::Future;
        let cases = [
            ("Jan 15, 2027", "Fri Jan 15 2027 00:00 UTC"),
            ("15 Jan 2027", "Fri Jan 15 2027 00:00 UTC"),
            (
                "Friday, January 15, 2027 18:00",
                "Fri Jan 15 2027 18:00 UTC",
            ),
            ("Jun 23:30 15", "Tue Jun 15 2027 23:30 UTC"),
            ("15", "Sun Nov 15 2026 00:00 UTC"),
            ("1", "Tue Dec 01 2026 00:00 UTC"),
            ("Feb", "Sun Feb 28 2027 00:00 UTC"),
            ("2026-11-24", "Tue Nov 24 2026 00:00 UTC"),
            ("2026-11-24T20:00", "Tue Nov 24 2026 20:00 UTC"),
        ];
        for (text, want) in cases {
            assert_eq!(utc(text, f).as_deref(), Some(want), "{text}");
        }
    }

    #[test]
    fn a_date_without_a_time_is_what_the_command_makes_of_it() {
        let read = |text: &str, toward, untimed| {
            read_date_at(text, NOW, None, toward, untimed).map(crate::game::clock::format_time)
        };
        let (f, p) = (Toward::Future, Toward::Past);
        // An absence's last day runs to its end; the same day, begun, is
        // still to come.
        assert_eq!(
            read("Nov 2", f, DayTime::End).as_deref(),
            Some("Tue Nov 03 2026 00:00 UTC")
        );
        assert_eq!(
            read("Nov 2", p, DayTime::End).as_deref(),
            Some("Tue Nov 03 2026 00:00 UTC")
        );
        let evening = chrono::NaiveTime::from_hms_opt(20, 0, 0).unwrap();
        let amsterdam: chrono_tz::Tz = "Europe/Amsterdam".parse().unwrap();
        assert_eq!(
            read("Jan 15, 2027", f, DayTime::At(evening, Some(amsterdam))).as_deref(),
            Some("Fri Jan 15 2027 19:00 UTC")
        );
        // A time written wins over the game's.
        assert_eq!(
            read("Jan 15 2027 18:00", f, DayTime::At(evening, None)).as_deref(),
            Some("Fri Jan 15 2027 18:00 UTC")
        );
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
