//! Lengths of time as the Master writes them (SET MOVE ... NEXT, MIN,
//! GRACE) and the judgekeeper in `[games]`: a number with a unit —
//! `5 MINUTES`, `5 MINUTE`, `5m`, `2 HOURS`, `2h`, `1 DAY`, `1d`, `30s` —
//! or a bare number, which is hours as in njudge (`12`, `0.5`, `48.0`).
//! Kept in seconds, and said back in minutes and hours.

use crate::say;

/// The most a length may be: sixty days.
pub const LONGEST: u32 = 60 * 24 * 3600;

/// Seconds in one of a unit word (upper case), if `word` is one.
fn unit(word: &str) -> Option<u32> {
    match word {
        "S" | "SEC" | "SECS" | "SECOND" | "SECONDS" => Some(1),
        "M" | "MIN" | "MINS" | "MINUTE" | "MINUTES" => Some(60),
        "H" | "HR" | "HRS" | "HOUR" | "HOURS" => Some(3600),
        "D" | "DAY" | "DAYS" => Some(24 * 3600),
        _ => None,
    }
}

/// A number, and the unit written onto it (`5m`, `2HOURS`; none: `5`).
fn number_and_unit(word: &str) -> Option<(f64, Option<u32>)> {
    let upper = word.to_ascii_uppercase();
    let split = upper
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(upper.len());
    let (number, suffix) = upper.split_at(split);
    let value: f64 = number.parse().ok().filter(|v: &f64| v.is_finite())?;
    match suffix {
        "" => Some((value, None)),
        suffix => Some((value, Some(unit(suffix)?))),
    }
}

/// Whether `word` is a number (with or without a unit on it).
pub fn is_number(word: &str) -> bool {
    number_and_unit(word).is_some()
}

/// Whether `word` is the unit of a length (`MINUTES`, `h`).
pub fn is_unit(word: &str) -> bool {
    unit(&word.to_ascii_uppercase()).is_some()
}

/// The length at the start of `words`, in seconds, and how many words it
/// took (one or two). A bare number is hours. `MIN` after a number is
/// minutes unless a number follows it: then it is the next option, the
/// least time (`NEXT 5 MIN GRACE 0` is five minutes; `NEXT 5 MIN 2` is
/// five hours and a least time of two). A fraction of a minute is
/// rounded to the nearest second; more than [`LONGEST`] is no length.
pub fn read_length(words: &[&str]) -> Option<(u32, usize)> {
    let (value, attached) = number_and_unit(words.first()?)?;
    let (per, used) = match attached {
        Some(per) => (per, 1),
        None => match words.get(1).map(|w| w.to_ascii_uppercase()) {
            Some(w) if w == "MIN" && words.get(2).is_some_and(|n| is_number(n)) => (3600, 1),
            Some(w) => unit(&w).map_or((3600, 1), |per| (per, 2)),
            None => (3600, 1),
        },
    };
    let seconds = (value * f64::from(per)).round();
    (seconds >= 0.0 && seconds <= f64::from(LONGEST)).then_some((seconds as u32, used))
}

/// A length read whole (`[games]` in `judge.toml`): `"5 minutes"`,
/// `"2h"`, `"1d"`, `"12"` (hours).
pub fn read_whole(text: &str) -> Option<u32> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match read_length(&words)? {
        (seconds, used) if used == words.len() => Some(seconds),
        _ => None,
    }
}

/// `48 hours`, `5 minutes`, `1 hour 30 minutes`, `90 seconds`: whole
/// hours as hours (njudge counts in hours), else minutes, and seconds
/// only when a length has them.
pub fn length_words(seconds: u32) -> String {
    let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let part = |n: u32, unit: &str| say!("clock.length_part", n, unit);
    let mut parts = Vec::new();
    if rest != 0 {
        if seconds >= 60 {
            parts.push(part(seconds / 60, "minute"));
        }
        parts.push(part(rest, "second"));
        return parts.join(" ");
    }
    if hours > 0 || minutes == 0 {
        parts.push(part(hours, "hour"));
    }
    if minutes > 0 {
        parts.push(part(minutes, "minute"));
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Option<(u32, usize)> {
        let words: Vec<&str> = text.split_whitespace().collect();
        read_length(&words)
    }

    #[test]
    fn lengths_in_minutes_hours_and_days() {
        for (text, seconds, used) in [
            ("5 MINUTES", 300, 2),
            ("5 minute", 300, 2),
            ("5m", 300, 1),
            ("5min", 300, 1),
            ("2h", 7200, 1),
            ("2 HOURS", 7200, 1 + 1),
            ("1d", 86_400, 1),
            ("1 DAY", 86_400, 2),
            ("72", 72 * 3600, 1),
            ("48.0", 48 * 3600, 1),
            ("0.5", 1800, 1),
            ("0.0833", 300, 1),
            ("30s", 30, 1),
            ("5 MIN GRACE 0", 300, 2),
            ("5 MIN", 300, 2),
            ("5 MIN 2", 5 * 3600, 1),
            ("0", 0, 1),
        ] {
            assert_eq!(read(text), Some((seconds, used)), "{text}");
        }
        for no in ["", "five", "5x", "-1", "61d", "NEXT 5"] {
            assert_eq!(read(no), None, "{no}");
        }
        assert_eq!(read_whole("5 minutes"), Some(300));
        assert_eq!(read_whole("5 minutes more"), None);
    }

    #[test]
    fn lengths_said_in_hours_and_minutes() {
        for (seconds, said) in [
            (48 * 3600, "48 hours"),
            (3600, "1 hour"),
            (300, "5 minutes"),
            (60, "1 minute"),
            (5400, "1 hour 30 minutes"),
            (0, "0 hours"),
            (90, "1 minute 30 seconds"),
            (30, "30 seconds"),
        ] {
            assert_eq!(length_words(seconds), said);
        }
    }
}
