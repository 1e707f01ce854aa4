//! What happened to each order: the result tags of the results mail.

use std::fmt;

/// A set of result tags, as the classic judges print them:
/// `(*bounce*)`, `(*cut*)`, `(*dislodged*)`, `(*bounce, dislodged*)`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Outcome(u16);

impl Outcome {
    /// A move that did not happen because another unit was as strong.
    pub const BOUNCE: Outcome = Outcome(1);
    /// A support that was cut (or whose unit was dislodged).
    pub const CUT: Outcome = Outcome(1 << 1);
    /// The unit was dislodged.
    pub const DISLODGED: Outcome = Outcome(1 << 2);
    /// An order that could not be carried out as written (illegal, or
    /// supporting or convoying something that was not ordered).
    pub const VOID: Outcome = Outcome(1 << 3);
    /// A convoyed army whose convoy did not carry it.
    pub const NO_CONVOY: Outcome = Outcome(1 << 4);
    /// A retreating unit that was disbanded (by order, by a clash, or unordered).
    pub const DISBANDED: Outcome = Outcome(1 << 5);
    /// A dislodged unit with nowhere to retreat, removed at once.
    pub const DESTROYED: Outcome = Outcome(1 << 6);
    /// The unit had no order and held (or, for retreats, disbanded;
    /// for removals, was chosen by the civil-disorder rule).
    pub const DEFAULTED: Outcome = Outcome(1 << 7);
    /// A convoy or support of a convoy lost to a paradox (Szykman rule).
    pub const PARADOX: Outcome = Outcome(1 << 8);

    pub const NONE: Outcome = Outcome(0);

    const NAMES: [(Outcome, &'static str); 9] = [
        (Outcome::BOUNCE, "bounce"),
        (Outcome::CUT, "cut"),
        (Outcome::VOID, "void"),
        (Outcome::NO_CONVOY, "no convoy"),
        (Outcome::PARADOX, "paradox"),
        (Outcome::DISLODGED, "dislodged"),
        (Outcome::DISBANDED, "disbanded"),
        (Outcome::DESTROYED, "destroyed"),
        (Outcome::DEFAULTED, "no order"),
    ];

    pub fn contains(self, other: Outcome) -> bool {
        self.0 & other.0 == other.0 && other.0 != 0
    }

    pub fn insert(&mut self, other: Outcome) {
        self.0 |= other.0;
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The tags in the classic order, lower-case: `["bounce", "dislodged"]`.
    pub fn tags(self) -> impl Iterator<Item = &'static str> {
        Outcome::NAMES
            .into_iter()
            .filter(move |&(o, _)| self.contains(o))
            .map(|(_, n)| n)
    }

    /// The tags of a [`summary`](Outcome::summary) read back; `None` for an
    /// unknown tag.
    pub fn from_summary(text: &str) -> Option<Outcome> {
        let mut outcome = Outcome::NONE;
        if text == "ok" {
            return Some(outcome);
        }
        for tag in text.split(", ") {
            let (o, _) = Outcome::NAMES.into_iter().find(|&(_, n)| n == tag)?;
            outcome.insert(o);
        }
        Some(outcome)
    }

    /// "bounce, dislodged"; "ok" when nothing went wrong.
    pub fn summary(self) -> String {
        if self.is_empty() {
            "ok".to_string()
        } else {
            self.tags().collect::<Vec<_>>().join(", ")
        }
    }
}

impl std::ops::BitOr for Outcome {
    type Output = Outcome;
    fn bitor(self, rhs: Outcome) -> Outcome {
        Outcome(self.0 | rhs.0)
    }
}

/// `(*bounce, dislodged*)`, or nothing when the order simply succeeded.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return Ok(());
        }
        write!(f, "(*{}*)", self.tags().collect::<Vec<_>>().join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_reads_back() {
        for o in [
            Outcome::NONE,
            Outcome::BOUNCE,
            Outcome::BOUNCE | Outcome::DISLODGED,
            Outcome::CUT | Outcome::PARADOX | Outcome::DEFAULTED,
        ] {
            assert_eq!(Outcome::from_summary(&o.summary()), Some(o));
        }
        assert_eq!(Outcome::from_summary("bounced"), None);
    }
}
