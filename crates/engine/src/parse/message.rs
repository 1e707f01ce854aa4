//! The error a player reads, and the small pieces of English it is made of.

use std::fmt;

use crate::map::{Location, Map, Province, UnitType};
use crate::order::{Order, TerseWords};

/// An order that cannot be followed: what was written, what was wrong with
/// it, and the nearest valid order, when there is exactly one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderError {
    /// The order as written (trimmed, without a final full stop; cut short
    /// when very long).
    pub text: String,
    /// What was wrong: one or two sentences.
    pub problem: String,
    /// The nearest valid reading, as an order the player can paste.
    pub suggestion: Option<String>,
}

impl OrderError {
    pub(super) fn new(text: &str, problem: impl Into<String>) -> OrderError {
        OrderError {
            text: shown(text),
            problem: problem.into(),
            suggestion: None,
        }
    }
}

/// `Pic - Lon: Picardy is not adjacent to London. Did you mean Lon - Eng?`
impl fmt::Display for OrderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.text.is_empty() {
            f.write_str(&self.problem)?;
        } else {
            write!(f, "{}: {}", self.text, self.problem)?;
        }
        if let Some(s) = &self.suggestion {
            write!(f, " Did you mean {s}?")?;
        }
        Ok(())
    }
}

impl std::error::Error for OrderError {}

/// Longest order text quoted back, in chars.
const MAX_SHOWN: usize = 60;

/// The order as quoted back: trimmed, no final full stops, at most
/// `MAX_SHOWN` chars, control characters shown as spaces.
pub(super) fn shown(text: &str) -> String {
    let t = text.trim_matches(|c: char| c.is_whitespace() || c.is_control() || c == '.');
    let mut out: String = t
        .chars()
        .take(MAX_SHOWN)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if t.chars().nth(MAX_SHOWN).is_some() {
        out.push_str("...");
    }
    out
}

/// "A", "A or B", "A, B or C".
pub(super) fn or_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [init @ .., last] => {
            let init: Vec<&str> = init.iter().map(AsRef::as_ref).collect();
            format!("{} or {}", init.join(", "), last.as_ref())
        }
    }
}

/// "army", "fleet".
pub(super) fn noun(u: UnitType) -> &'static str {
    match u {
        UnitType::Army => "army",
        UnitType::Fleet => "fleet",
    }
}

/// "an army", "a fleet".
pub(super) fn a_unit(u: UnitType) -> &'static str {
    match u {
        UnitType::Army => "an army",
        UnitType::Fleet => "a fleet",
    }
}

/// "Stp", "Spa/nc": how suggestions write places.
pub(super) fn place_text(map: &Map, l: Location) -> String {
    let p = map.province_of(l);
    let mut s = province_text(map, p);
    if let Some(c) = map.coast_of(l) {
        s.push('/');
        s.push_str(&c.abbr().to_ascii_lowercase());
    }
    s
}

pub(super) fn province_text(map: &Map, p: Province) -> String {
    let a = map.abbr(p);
    let mut s = a[..1].to_string();
    s.push_str(&a[1..].to_ascii_lowercase());
    s
}

/// An order as a player would write it, and as this parser reads it back:
/// `A Par - Bur`, `F Nth C A Lon - Bel`, `Build F Stp/nc`.
pub(super) fn friendly(map: &Map, o: &Order) -> String {
    o.terse(
        &TerseWords {
            via_convoy: " via convoy",
            disband: "disband",
            build: "Build",
            remove: "Remove",
            waive: "Waive",
        },
        |l| place_text(map, l),
        |p| province_text(map, p),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_quotes() {
        assert_eq!(or_list::<&str>(&[]), "");
        assert_eq!(or_list(&["a"]), "a");
        assert_eq!(or_list(&["a", "b"]), "a or b");
        assert_eq!(or_list(&["a", "b", "c"]), "a, b or c");
        assert_eq!(shown("  A Par - Bur.  "), "A Par - Bur");
        assert_eq!(shown(&"x".repeat(100)).chars().count(), MAX_SHOWN + 3);
    }
}
