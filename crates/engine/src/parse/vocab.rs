//! The words of orders, other than province names.

use crate::map::{Coast, Power, UnitType};

pub(super) fn unit(w: &str) -> Option<UnitType> {
    match w {
        "a" | "army" | "armee" | "arm" => Some(UnitType::Army),
        "f" | "fleet" | "flt" | "fl" => Some(UnitType::Fleet),
        _ => None,
    }
}

pub(super) fn is_hold(w: &str) -> bool {
    matches!(
        w,
        "h" | "hold" | "holds" | "hld" | "stand" | "stands" | "standing"
    )
}

/// Words that may stand for the move arrow (`A Par moves to Bur`).
pub(super) fn is_move(w: &str) -> bool {
    matches!(
        w,
        "m" | "mv" | "move" | "moves" | "moving" | "to" | "into" | "attack" | "attacks"
    )
}

pub(super) fn is_support(w: &str) -> bool {
    matches!(
        w,
        "s" | "sup" | "supp" | "support" | "supports" | "supporting"
    )
}

pub(super) fn is_convoy(w: &str) -> bool {
    matches!(
        w,
        "c" | "con"
            | "conv"
            | "convoy"
            | "convoys"
            | "convoying"
            | "t"
            | "transport"
            | "transports"
            | "transporting"
            | "ff"
            | "ferry"
            | "ferries"
            | "ferrying"
    )
}

/// `via` / `by`, as in `via convoy`, `by c`.
pub(super) fn is_via(w: &str) -> bool {
    matches!(w, "via" | "by")
}

/// What may follow `via` / `by`.
pub(super) fn is_via_object(w: &str) -> bool {
    matches!(
        w,
        "convoy" | "convoys" | "c" | "sea" | "fleet" | "fleets" | "boat" | "ship"
    )
}

pub(super) fn is_retreat(w: &str) -> bool {
    matches!(w, "r" | "ret" | "retreat" | "retreats" | "retreating")
}

pub(super) fn is_disband(w: &str) -> bool {
    matches!(w, "d" | "disband" | "disbands" | "disbanded" | "disbanding")
}

pub(super) fn is_remove(w: &str) -> bool {
    matches!(w, "rem" | "remove" | "removes" | "removal")
}

pub(super) fn is_build(w: &str) -> bool {
    matches!(w, "b" | "build" | "builds")
}

pub(super) fn is_waive(w: &str) -> bool {
    matches!(w, "w" | "waive" | "waives" | "waived" | "waiver")
}

/// A power's name or adjective, any case ("russia", "russian"); never an
/// initial, which would clash with the unit letters and verbs.
pub(super) fn nationality(w: &str) -> Option<Power> {
    if w.chars().count() < 2 {
        return None;
    }
    // The rulebook's abbreviations (`Turk. A Bul`), without the full stop.
    let short = match w {
        "aust" | "aus" => Some(Power::Austria),
        "eng" => Some(Power::England),
        "fr" | "fre" | "fra" => Some(Power::France),
        "ger" => Some(Power::Germany),
        "it" | "ital" | "ita" => Some(Power::Italy),
        "russ" | "rus" => Some(Power::Russia),
        "turk" | "tur" => Some(Power::Turkey),
        _ => None,
    };
    short.or_else(|| match w {
        "austria" | "austrian" => Some(Power::Austria),
        "england" | "english" => Some(Power::England),
        "france" | "french" => Some(Power::France),
        "germany" | "german" => Some(Power::Germany),
        "italy" | "italian" => Some(Power::Italy),
        "russia" | "russian" => Some(Power::Russia),
        "turkey" | "turkish" => Some(Power::Turkey),
        // Words are lower-cased already; any other spelling of a power.
        _ if w.bytes().any(|b| b.is_ascii_uppercase()) => Power::parse(w),
        _ => None,
    })
}

/// Words that never belong to a province name written loosely (a prefix or
/// a misspelling): `A Piccardy S ...` must not read `Piccardy S` as a name.
pub(super) fn is_keyword(w: &str) -> bool {
    unit(w).is_some()
        || is_hold(w)
        || is_move(w)
        || is_support(w)
        || is_convoy(w)
        || is_via(w)
        || is_retreat(w)
        || is_disband(w)
        || is_remove(w)
        || is_build(w)
        || is_waive(w)
        || nationality(w).is_some()
        || matches!(w, "nc" | "sc" | "ec" | "coast")
}

/// The coast a word names, and whether the word is only a letter (`n`),
/// which counts as a coast only after `/`, `(` or `.`.
pub(super) fn coast(w: &str) -> Option<(Coast, bool)> {
    let c = match w {
        "nc" | "ncs" | "north" | "northern" => (Coast::North, false),
        "sc" | "scs" | "south" | "southern" => (Coast::South, false),
        "ec" | "ecs" | "east" => (Coast::East, false),
        "n" => (Coast::North, true),
        "s" => (Coast::South, true),
        "e" => (Coast::East, true),
        _ => return None,
    };
    Some(c)
}

/// Whether the coast word already says "coast" (`nc`), so that it may
/// follow a dash (`Spa-nc`) without being taken for a province.
pub(super) fn is_full_coast(w: &str) -> bool {
    matches!(w, "nc" | "ncs" | "sc" | "scs" | "ec" | "ecs")
}
