//! njudge's SET forms that are not the judge's own words: read as the
//! judge's setting they mean, or answered with what the judge does and
//! its own form. Nothing here changes a game by itself. The answers are
//! entries of `templates/words/njudge_set.txt`.

use crate::say;

/// What an njudge SET form comes to.
pub enum NjudgeSet {
    /// The judge's own one-word setting it means (`NOPRESS`, `WHITE/GREY`).
    Setting(&'static str),
    /// The judge's own `SET <what> <rest>` it means (`SET HOLIDAY <dates>`
    /// is `SET ABSENCE <dates>`).
    Alias { what: &'static str, rest: String },
    /// Already so on this judge: the reply says what the judge does (the
    /// words' entry, `njudge_set.<name>`).
    Answer(&'static str),
    /// Not offered: why, and the judge's form; nothing was changed (the
    /// words' entry).
    Refuse(&'static str),
}

/// The njudge form `SET <what> <rest>`, if it is one.
pub fn read(what: &str, rest: &str) -> Option<NjudgeSet> {
    alias(what, rest)
        .or_else(|| press_form(what, rest))
        .or_else(|| rule_option(&words_of(what, rest)))
        .or_else(|| not_kept(&words_of(what, rest)))
        .or_else(|| not_kept(what))
}

/// njudge's rule options (set before a game starts, in its variants):
/// what this judge plays instead. Where it already plays as the option
/// says, the reply says so; nothing is changed either way.
fn rule_option(key: &str) -> Option<NjudgeSet> {
    // SET NOT VARIANT <option>: an optional rule removed.
    if key.starts_with("NOTVARIANT") {
        return Some(NjudgeSet::Refuse("njudge_set.no_optional_rules"));
    }
    let centres = |word: &str| {
        ["CENTRE", "CENTRES", "CENTER", "CENTERS"]
            .iter()
            .any(|c| key == format!("{word}{c}"))
    };
    let set = if centres("HOME") {
        NjudgeSet::Answer("njudge_set.home_centres")
    } else if centres("ANY") || centres("ONE") {
        NjudgeSet::Refuse("njudge_set.other_centres")
    } else {
        match key {
            "STRICTCONVOY" => NjudgeSet::Answer("njudge_set.strict_convoy"),
            "NOSTRICTCONVOY" => NjudgeSet::Refuse("njudge_set.no_strict_convoy"),
            "NOAUTODISBAND" => NjudgeSet::Answer("njudge_set.no_auto_disband"),
            "AUTODISBAND" => NjudgeSet::Refuse("njudge_set.auto_disband"),
            _ => return None,
        }
    };
    Some(set)
}

/// `what` and the words of `rest`, upper-cased and run together: njudge
/// writes `SET LATE PRESS`, `SET LATEPRESS` and `SET NO LATE PRESS` alike.
fn words_of(what: &str, rest: &str) -> String {
    let mut key = what.to_string();
    key.extend(rest.split_whitespace().map(|w| w.to_ascii_uppercase()));
    key
}

/// njudge's other words for the judge's own settings.
fn alias(what: &str, rest: &str) -> Option<NjudgeSet> {
    let to = |what: &'static str| {
        Some(NjudgeSet::Alias {
            what,
            rest: rest.to_string(),
        })
    };
    match what {
        "CD" => Some(NjudgeSet::Setting("NMR")),
        "NOCD" => Some(NjudgeSet::Setting("NONMR")),
        "NOWHITE" => Some(NjudgeSet::Setting("NOWHITE")),
        "NOGREY" | "NOGRAY" => Some(NjudgeSet::Setting("WHITE")),
        "HOLIDAY" | "HOLIDAYS" | "VACATION" | "VACATIONS" => to("ABSENCE"),
        "NOHOLIDAY" | "NOHOLIDAYS" | "NOVACATION" | "NOVACATIONS" => to("NOABSENCE"),
        "MOVES" => to("MOVE"),
        // njudge's short form before 1.4.0.
        "CONC" => to("CONCEDE"),
        "NOCONC" => to("NOCONCEDE"),
        "BUILDS" | "ADJUSTMENTS" => to("ADJUST"),
        "APPROVAL" => Some(NjudgeSet::Alias {
            what: "TAKEOVER",
            rest: "OFF".to_string(),
        }),
        "NOAPPROVAL" => Some(NjudgeSet::Alias {
            what: "TAKEOVER",
            rest: "ON".to_string(),
        }),
        "MAX" | "MAXABSENCE" => {
            let days = rest.split_whitespace().last().unwrap_or("");
            Some(NjudgeSet::Alias {
                what: "ABSENCE",
                rest: format!("LIMIT {days}"),
            })
        }
        _ => None,
    }
}

/// njudge's press settings that are not the judge's words.
fn press_form(what: &str, rest: &str) -> Option<NjudgeSet> {
    let set = match what {
        "WHITE/GREY" | "GREY/WHITE" | "WHITE/GRAY" | "GRAY/WHITE" => {
            NjudgeSet::Setting("WHITE/GREY")
        }
        "PRESS" => press(rest),
        "NOFAKE" => NjudgeSet::Answer("njudge_set.no_fake"),
        "FAKE" => NjudgeSet::Refuse("njudge_set.fake"),
        "NONE" => NjudgeSet::Setting("NOPRESS"),
        "NOLIST" | "UNLIST" => NjudgeSet::Refuse("njudge_set.no_list"),
        "LIST" => NjudgeSet::Answer("njudge_set.list"),
        "VARIANT" => NjudgeSet::Refuse("njudge_set.variant"),
        _ => return None,
    };
    Some(set)
}

/// njudge's settings for what this judge does not keep: answered with what
/// it does instead; nothing is changed.
fn not_kept(key: &str) -> Option<NjudgeSet> {
    // SET NOT APPROVED <powers>: njudge's refusal of a newcomer.
    if key.starts_with("NOTAPPROVE") {
        return Some(NjudgeSet::Refuse(not_kept_rules("APPROVE")));
    }
    not_kept_press(key)
        .or_else(|| not_kept_game(key))
        .map(NjudgeSet::Refuse)
}

fn not_kept_press(key: &str) -> Option<&'static str> {
    let why = match key {
        "ALLPRESS" | "NORMALPRESS" | "WATCHALLPRESS" | "NOWATCHALLPRESS" => "njudge_set.all_press",
        "BROADCAST" | "NOBROADCAST" | "BROADCASTPRESS" | "NOBROADCASTPRESS" | "NORMALBROADCAST"
        | "NONORMALBROADCAST" => "njudge_set.broadcast",
        "POSTALPRESS" | "NOPOSTALPRESS" => "njudge_set.postal_press",
        "LATEPRESS" | "NOLATEPRESS" | "GRACEPRESS" | "NOGRACEPRESS" | "MUSTORDER"
        | "NOMUSTORDER" | "MINORPRESS" | "NOMINORPRESS" | "BLANKPRESS" | "NOBLANKPRESS"
        | "TOUCHPRESS" | "NOTOUCHPRESS" => "njudge_set.press_limits",
        _ => return None,
    };
    Some(why)
}

fn not_kept_game(key: &str) -> Option<&'static str> {
    let why = match key {
        "ACCESS" | "LEVEL" | "DEDICATION" | "ONTIMERAT" | "RESRAT" | "RATED" | "UNRATED"
        | "ALLOW" | "DENY" => "njudge_set.ratings",
        "BN" | "BNC" | "EP" | "MN" | "MNC" | "COMMENT" => "njudge_set.comment",
        "MODERATE" | "MODERATED" | "UNMODERATE" | "UNMODERATED" | "RESUME" | "NORESUME" => {
            "njudge_set.moderated"
        }
        "MANUALPROCESS" | "NOMANUALPROCESS" | "AUTOPROCESS" | "NOAUTOPROCESS" | "AUTOPROC"
        | "NOAUTOPROC" | "MANUALSTART" | "NOMANUALSTART" | "AUTOSTART" | "NOAUTOSTART" => {
            "njudge_set.processing"
        }
        "STRICTGRACE" | "NOSTRICTGRACE" | "STRICTWAIT" | "NOSTRICTWAIT" | "LATECOUNT"
        | "NOLATECOUNT" => "njudge_set.grace",
        "QUIET" | "NOQUIET" | "SHOW" | "NOSHOW" | "REVEAL" | "NOREVEAL" | "SECRET" | "NOSECRET" => {
            "njudge_set.quiet"
        }
        "CENTERS" | "CENTRES" | "PLAYERS" | "POWERS" | "PRFBOTH" | "PRFLIST" | "PRFRAND"
        | "PROXY" | "NOPROXY" | "CONCESSIONS" | "NOCONCESSIONS" | "APPROVE" | "APPROVED"
        | "NOTAPPROVED" => not_kept_rules(key),
        _ => return None,
    };
    Some(why)
}

fn not_kept_rules(key: &str) -> &'static str {
    match key {
        "CENTERS" | "CENTRES" => "njudge_set.centres",
        "PLAYERS" | "POWERS" => "njudge_set.players",
        "PRFBOTH" | "PRFLIST" | "PRFRAND" => "njudge_set.preference_rules",
        "PROXY" | "NOPROXY" => "njudge_set.proxy",
        "CONCESSIONS" | "NOCONCESSIONS" => "njudge_set.concessions",
        _ => "njudge_set.approval",
    }
}

/// `SET PRESS NONE | WHITE | GREY | WHITE/GREY`.
fn press(rest: &str) -> NjudgeSet {
    match rest.trim().to_ascii_uppercase().as_str() {
        "NONE" | "NO" | "OFF" => NjudgeSet::Setting("NOPRESS"),
        "WHITE" => NjudgeSet::Setting("WHITE"),
        "GREY" | "GRAY" => NjudgeSet::Setting("GREY"),
        "WHITE/GREY" | "GREY/WHITE" | "WHITE/GRAY" | "GRAY/WHITE" | "ANY" => {
            NjudgeSet::Setting("WHITE/GREY")
        }
        _ => NjudgeSet::Refuse("njudge_set.press_usage"),
    }
}

/// The words of `SET MOVE|RETREAT|ADJUST <rest>` as the judge reads them
/// (njudge's NEXT and decimal hours made its own), or why they cannot be.
pub fn njudge_schedule(what: &str, rest: &str) -> Result<String, String> {
    match schedule_refusal(what, rest) {
        Some(why) => Err(why),
        None => Ok(whole_hours(rest)),
    }
}

/// MIN without a cron line (`njudge_min`) is njudge's, not the judge's:
/// the reply says what it does.
pub fn min_note(njudge_min: bool) -> String {
    if njudge_min {
        format!(" {}", say!("njudge_set.min_note"))
    } else {
        String::new()
    }
}

/// njudge's deadline words in `SET MOVE|RETREAT|ADJUST` that the judge
/// has no word for (CLOCK, DELAY, DAYS): what the judge writes instead.
fn schedule_refusal(what: &str, rest: &str) -> Option<String> {
    let upper: Vec<String> = rest
        .split_whitespace()
        .map(|w| w.to_ascii_uppercase())
        .collect();
    // DAYS after a number is the unit of a length (`NEXT 2 DAYS`).
    let after_number = |k: usize| k > 0 && crate::game::length::is_number(&upper[k - 1]);
    let njudge = upper.iter().enumerate().find_map(|(k, w)| {
        let word = ["CLOCK", "DELAY", "DAYS"].contains(&w.as_str());
        (word && !(w == "DAYS" && after_number(k))).then_some(w)
    })?;
    let word = njudge.to_ascii_uppercase();
    Some(say!("njudge_set.not_a_schedule_word", word, what))
}

/// njudge writes hours with decimals (`MIN 12.00`, `GRACE 48.0`): whole
/// hours read as the judge's whole numbers; other words stay as they are.
fn whole_hours(rest: &str) -> String {
    let words: Vec<String> = rest
        .split_whitespace()
        .map(|w| match w.split_once('.') {
            Some((hours, zeros))
                if !hours.is_empty()
                    && hours.chars().all(|c| c.is_ascii_digit())
                    && zeros.chars().all(|c| c == '0') =>
            {
                hours.to_string()
            }
            _ => w.to_string(),
        })
        .collect();
    words.join(" ")
}
