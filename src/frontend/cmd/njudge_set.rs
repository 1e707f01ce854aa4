//! njudge's SET forms that are not the judge's own words: read as the
//! judge's setting they mean, or answered with what the judge does and
//! its own form. Nothing here changes a game by itself.

/// What an njudge SET form comes to.
pub enum NjudgeSet {
    /// The judge's own one-word setting it means (`NOPRESS`, `WHITE/GREY`).
    Setting(&'static str),
    /// Already so on this judge: the reply says what the judge does.
    Answer(&'static str),
    /// Not offered: why, and the judge's form; nothing was changed.
    Refuse(&'static str),
}

/// The njudge form `SET <what> <rest>`, if it is one.
pub fn read(what: &str, rest: &str) -> Option<NjudgeSet> {
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
        "NOLIST" => NjudgeSet::Refuse(
            "Games cannot be hidden or closed to newcomers on this judge: LIST shows \
             every game, and a forming game is open to SIGNON ?<game> <password>. \
             Nothing was changed.",
        ),
        "LIST" => NjudgeSet::Answer(
            "Every game on this judge is public: LIST shows it, and anyone may join \
             it while it forms (SIGNON ?<game> <password>).",
        ),
        "VARIANT" => NjudgeSet::Refuse(
            "The variant is chosen when the game is created (CREATE ?<game> <password> \
             <variant>) and cannot be changed afterwards: nothing was changed.",
        ),
        _ => return None,
    };
    Some(set)
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
