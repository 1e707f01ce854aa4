//! njudge's SET forms that are not the judge's own words: read as the
//! judge's setting they mean, or answered with what the judge does and
//! its own form. Nothing here changes a game by itself.

/// What an njudge SET form comes to.
pub enum NjudgeSet {
    /// The judge's own one-word setting it means (`NOPRESS`, `WHITE/GREY`).
    Setting(&'static str),
    /// The judge's own `SET <what> <rest>` it means (`SET HOLIDAY <dates>`
    /// is `SET ABSENCE <dates>`).
    Alias { what: &'static str, rest: String },
    /// Already so on this judge: the reply says what the judge does.
    Answer(&'static str),
    /// Not offered: why, and the judge's form; nothing was changed.
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
        return Some(NjudgeSet::Refuse(
            "This judge's variants have no optional rules to remove: each is played as \
             the rulebook says, chosen at CREATE. Nothing was changed.",
        ));
    }
    let centres = |word: &str| {
        ["CENTRE", "CENTRES", "CENTER", "CENTERS"]
            .iter()
            .any(|c| key == format!("{word}{c}"))
    };
    let set = if centres("HOME") {
        NjudgeSet::Answer(
            "Builds are made only in the power's own home centres on this judge, as the \
             rulebook says: already so.",
        )
    } else if centres("ANY") || centres("ONE") {
        NjudgeSet::Refuse(
            "Builds are made only in the power's own home centres on this judge, as the \
             rulebook says: building in other centres is not offered. Nothing was changed.",
        )
    } else {
        match key {
            "STRICTCONVOY" => NjudgeSet::Answer(
                "Convoy orders are always checked against the map here: one that cannot \
                 succeed (an army inland, no chain of seas, a fleet on a coast) is refused \
                 with the reason when it is given. Already so.",
            ),
            "NOSTRICTCONVOY" => NjudgeSet::Refuse(
                "Convoy orders are always checked against the map here, and one that \
                 cannot succeed is refused with the reason: that cannot be turned off. \
                 Nothing was changed.",
            ),
            "NOAUTODISBAND" => NjudgeSet::Answer(
                "A dislodged unit may retreat on this judge, as the rulebook says: \
                 already so.",
            ),
            "AUTODISBAND" => NjudgeSet::Refuse(
                "A dislodged unit may retreat on this judge, as the rulebook says: \
                 disbanding it at once is not offered. Nothing was changed.",
            ),
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
        "NOFAKE" => NjudgeSet::Answer(
            "No fake press: this judge never sends fake press, so press always shows \
             its true sender (or none, when it is sent GREY).",
        ),
        "FAKE" => NjudgeSet::Refuse(
            "Fake press (press that names another sender) is not offered by this judge: \
             nothing was changed. Press shows its true sender, or none when sent GREY \
             (SET GREY allows grey press).",
        ),
        "NONE" => NjudgeSet::Setting("NOPRESS"),
        "NOLIST" | "UNLIST" => NjudgeSet::Refuse(
            "Games cannot be hidden from LIST or closed to newcomers on this judge: LIST \
             shows every game, and a forming game is open to SIGNON ?<game> <password>. \
             SET PRIVATE keeps a game out of the web archive. Nothing was changed.",
        ),
        "LIST" => NjudgeSet::Answer(
            "Every game on this judge is listed: LIST shows it, and anyone may join \
             it while it forms (SIGNON ?<game> <password>). SET PUBLIC and SET PRIVATE \
             put it in the web archive or keep it out.",
        ),
        "VARIANT" => NjudgeSet::Refuse(
            "The variant is chosen when the game is created (CREATE ?<game> <password> \
             <variant>) and cannot be changed afterwards: nothing was changed.",
        ),
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
        "ALLPRESS" | "NORMALPRESS" | "WATCHALLPRESS" | "NOWATCHALLPRESS" => {
            "Press between players is never copied to the Master or observers on this \
             judge: SET ALL PRESS, SET NORMAL PRESS and SET WATCH ALL PRESS are not \
             offered. Nothing was changed."
        }
        "BROADCAST" | "NOBROADCAST" | "BROADCASTPRESS" | "NOBROADCASTPRESS" | "NORMALBROADCAST"
        | "NONORMALBROADCAST" => {
            "Everyone in a game gets its broadcasts on this judge: SET [NO] BROADCAST is \
             not offered (an observer who wants none writes UNOBSERVE <game>). Nothing \
             was changed."
        }
        "POSTALPRESS" | "NOPOSTALPRESS" => {
            "Postal press is not offered by this judge: press is sent at once with \
             BROADCAST or PRESS TO <initials>. Nothing was changed."
        }
        "LATEPRESS" | "NOLATEPRESS" | "GRACEPRESS" | "NOGRACEPRESS" | "MUSTORDER"
        | "NOMUSTORDER" | "MINORPRESS" | "NOMINORPRESS" | "BLANKPRESS" | "NOBLANKPRESS"
        | "TOUCHPRESS" | "NOTOUCHPRESS" => {
            "This judge does not limit press by orders, lateness or phase: the press \
             settings are SET WHITE, SET GREY, SET WHITE/GREY, SET NO PRESS, SET PARTIAL \
             and SET NO PARTIAL. Nothing was changed."
        }
        _ => return None,
    };
    Some(why)
}

fn not_kept_game(key: &str) -> Option<&'static str> {
    let why = match key {
        "ACCESS" | "LEVEL" | "DEDICATION" | "ONTIMERAT" | "RESRAT" | "RATED" | "UNRATED"
        | "ALLOW" | "DENY" => {
            "This judge keeps no player ratings, levels or sites, and every game is open \
             to anyone while it forms: nothing was changed."
        }
        "BN" | "BNC" | "EP" | "MN" | "MNC" | "COMMENT" => {
            "This judge keeps no comment or game numbers for a game: nothing was changed. \
             LIST <game> shows the game's settings."
        }
        "MODERATE" | "MODERATED" | "UNMODERATE" | "UNMODERATED" | "RESUME" | "NORESUME" => {
            "Every game on this judge has its Master, who alone sets the game and \
             resumes it: nothing was changed."
        }
        "MANUALPROCESS" | "NOMANUALPROCESS" | "AUTOPROCESS" | "NOAUTOPROCESS" | "AUTOPROC"
        | "NOAUTOPROC" | "MANUALSTART" | "NOMANUALSTART" | "AUTOSTART" | "NOAUTOSTART" => {
            "This judge starts a game when it is full and processes a phase when every \
             order is in or at the deadline; the Master may PROCESS a phase sooner or \
             PAUSE the game. Nothing was changed."
        }
        "STRICTGRACE" | "NOSTRICTGRACE" | "STRICTWAIT" | "NOSTRICTWAIT" | "LATECOUNT"
        | "NOLATECOUNT" => {
            "The grace period here always ends its hours after the deadline, and any \
             player may SET WAIT: nothing was changed. SET MOVE ... GRACE <hours> sets the \
             grace."
        }
        "QUIET" | "NOQUIET" | "SHOW" | "NOSHOW" | "REVEAL" | "NOREVEAL" | "SECRET" | "NOSECRET" => {
            "This judge always announces takeovers and setting changes, and never shows \
             who plays a power: nothing was changed."
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
        "CENTERS" | "CENTRES" => {
            "A game is won with 18 supply centres, as the rulebook says: SET CENTERS is \
             not offered. SET END <year> makes a short game. Nothing was changed."
        }
        "PLAYERS" | "POWERS" => {
            "The number of players comes with the variant, chosen at CREATE (the \
             rulebook's games for two to six players are variants): nothing was changed."
        }
        "PRFBOTH" | "PRFLIST" | "PRFRAND" => {
            "Powers are always given by the players' preference lists and then by lot; a \
             player who wants a power by lot writes SET PREFERENCE *. Nothing was changed."
        }
        "PROXY" | "NOPROXY" => {
            "Proxy orders are not offered by this judge: each power orders its own \
             units. Nothing was changed."
        }
        "CONCESSIONS" | "NOCONCESSIONS" => {
            "Concessions are always allowed on this judge (SET CONCEDE <power>): nothing \
             was changed."
        }
        _ => {
            "Takeovers are approved with SET TAKEOVER <power> <address> (SET TAKEOVER ON: \
             anyone may take over). Nothing was changed."
        }
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
        _ => NjudgeSet::Refuse(
            "SET PRESS takes NONE, WHITE, GREY or WHITE/GREY (the judge's own forms: \
             SET NO PRESS, SET WHITE, SET GREY, SET WHITE/GREY): nothing was changed.",
        ),
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

/// MIN without a cron line is njudge's, not the judge's: the reply says
/// what it does.
pub fn min_note(njudge: bool, upper: &[String]) -> &'static str {
    if njudge && upper.iter().any(|w| w == "MIN") {
        " (njudge's MIN: no phase is processed before those hours have passed since \
         it started, not even when every order is in; the deadline is never sooner. \
         It holds the current phase back too, up to its deadline. NEXT <hours> sets the \
         time to the deadline.)"
    } else {
        ""
    }
}

/// njudge's deadline words in `SET MOVE|RETREAT|ADJUST` that the judge
/// has no word for (CLOCK, DELAY, DAYS): what the judge writes instead.
fn schedule_refusal(what: &str, rest: &str) -> Option<String> {
    let upper: Vec<String> = rest
        .split_whitespace()
        .map(|w| w.to_ascii_uppercase())
        .collect();
    let njudge = upper
        .iter()
        .find(|w| ["CLOCK", "DELAY", "DAYS"].contains(&w.as_str()))?;
    Some(format!(
        "njudge's {} is not a word of this judge's schedules: a schedule here is a cron \
         line of the days and times deadlines may fall on, as in SET {what} 0 12 * * \
         Mon,Thu MIN 48 GRACE 24 (deadlines at noon on Mondays and Thursdays, at least \
         48 hours after the phase starts, grace 24 hours). Nothing was changed.",
        njudge.to_ascii_uppercase()
    ))
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
