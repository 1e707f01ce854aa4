//! Black-box tests of the mail front end: real RFC 5322 mails fed to the
//! real `judge handle` binary against a real SQLite file in a temporary
//! folder; the replies read back from the outbound queue as the players
//! would read them, and the stored game through `judge export`.

mod common;

use common::*;
use serde_json::Value;

const MASTER: &str = "master@example.org";

/// The seven players, each with the preference list they send (distinct
/// first choices, so the draw is known; the last gives none and gets what
/// is left).
const PLAYERS: [(&str, &str, &str); 7] = [
    ("al@example.net", "AGT", "A"),
    ("bo@example.net", "E", "E"),
    ("cy@example.net", "FEG", "F"),
    ("di@example.net", "G", "G"),
    ("ed@example.net", "I", "I"),
    ("fa@example.net", "R", "R"),
    ("gu@example.net", "", "T"),
];

fn addr_of(initial: &str) -> &'static str {
    PLAYERS.iter().find(|p| p.2 == initial).unwrap().0
}

fn password_of(initial: &str) -> String {
    format!("pw-{}", &addr_of(initial)[..2])
}

/// Every address that hears about the whole game.
fn everyone() -> Vec<&'static str> {
    let mut v: Vec<&str> = PLAYERS.iter().map(|p| p.0).collect();
    v.push(MASTER);
    v
}

/// The mail the sender got back (the first queued: the reply). Every
/// reply is marked as one, so that robots do not answer it, and threads.
fn reply(mails: &[Sent]) -> &Sent {
    let r = mails.first().expect("a reply");
    assert_eq!(
        r.auto_submitted.as_deref(),
        Some("auto-replied"),
        "{}",
        r.raw
    );
    assert!(r.in_reply_to.is_some(), "{}", r.raw);
    assert_eq!(r.references.last(), r.in_reply_to.as_ref(), "{}", r.raw);
    assert_eq!(r.recipients.len(), 1);
    r
}

/// A game `name` created by MASTER and joined by the seven players: the
/// game has started, S1901M is the current phase.
fn started_game(j: &mut TestJudge, name: &str) {
    let r = j.mail(MASTER, &format!("CREATE ?{name} mpass"));
    assert!(!reply(&r).subject.contains("[Error Flag]"), "{}", dump(&r));
    for (addr, pref, _) in PLAYERS {
        let body = if pref.is_empty() {
            format!("SIGNON ?{name} pw-{}", &addr[..2])
        } else {
            format!("SIGNON ?{name} pw-{}\nSET PREFERENCE {pref}", &addr[..2])
        };
        let r = j.mail(addr, &body);
        assert!(!reply(&r).subject.contains("[Error Flag]"), "{}", dump(&r));
    }
}

/// Orders (or other lines) for one power, signed on.
fn orders(j: &mut TestJudge, game: &str, initial: &str, lines: &str) -> Vec<Sent> {
    let body = format!("SIGNON {initial}{game} {}\n{lines}", password_of(initial));
    j.mail(addr_of(initial), &body)
}

fn master(j: &mut TestJudge, game: &str, lines: &str) -> Vec<Sent> {
    j.mail(MASTER, &format!("SIGNON M{game} mpass\n{lines}"))
}

/// The phase named `phase` of an export.
fn phase<'a>(export: &'a Value, name: &str) -> &'a Value {
    export["phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["phase"] == name)
        .unwrap_or_else(|| panic!("no phase {name} in {export:#}"))
}

fn phase_names(export: &Value) -> Vec<String> {
    export["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["phase"].as_str().unwrap().to_string())
        .collect()
}

/// The results mails of one processing: exactly one to each of `who`.
fn results_to_everyone<'a>(mails: &'a [Sent], subject: &str) -> &'a Sent {
    let results: Vec<&Sent> = mails.iter().filter(|m| m.subject == subject).collect();
    let mut got: Vec<String> = results.iter().flat_map(|m| m.recipients.clone()).collect();
    got.sort();
    let mut want: Vec<String> = everyone().iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(got, want, "{subject} recipients\n{}", dump(mails));
    for m in &results {
        assert_eq!(m.recipients.len(), 1, "one recipient per mail");
        assert_eq!(m.body, results[0].body, "everyone reads the same results");
    }
    results[0]
}

// ---- a whole game ---------------------------------------------------------

#[test]
fn a_whole_game_by_mail() {
    let mut j = TestJudge::new("game");
    let g = "war";

    // CREATE: the sender is the Master.
    j.now = at(0);
    let r = j.mail(MASTER, "CREATE ?war mpass");
    assert_eq!(r.len(), 1);
    assert!(reply(&r).is_to(MASTER));
    assert!(
        reply(&r).body.contains("you are its Master"),
        "{}",
        dump(&r)
    );
    assert!(
        !reply(&r).body.contains("mpass"),
        "the password is never echoed"
    );

    // Seven sign-ons, some with preferences; the seventh starts the game.
    j.now = at(1);
    let mut last = Vec::new();
    for (i, (addr, pref, _)) in PLAYERS.iter().enumerate() {
        let body = if pref.is_empty() {
            format!("SIGNON ?war pw-{}", &addr[..2])
        } else {
            format!("SIGNON ?war pw-{}\nSET PREFERENCE {pref}", &addr[..2])
        };
        let r = j.mail(addr, &body);
        let rep = reply(&r);
        assert!(rep.is_to(addr));
        assert!(
            rep.body.contains(&format!("{} of 7 players", i + 1)),
            "{}",
            dump(&r)
        );
        assert!(!rep.body.contains("pw-"), "the password is never echoed");
        if i < 6 {
            assert_eq!(r.len(), 1, "{}", dump(&r));
        }
        last = r;
    }
    // The start: each player told their power (preferences honoured), the
    // Master told the roster.
    for (addr, _, initial) in PLAYERS {
        let power = power_name(initial);
        let start = one_to(&last[1..], addr);
        assert_eq!(
            start.subject,
            format!("JDG:war - S1901M Game starts: you are {power}")
        );
        assert!(start.body.contains(&format!("You play {power}.")));
        assert!(start.body.contains(&format!("SIGNON {initial}war")));
        assert!(start
            .body
            .contains("The deadline for orders is Thu Nov 05 2026 13:00 UTC"));
        assert!(start.body.contains("Army Paris"), "the starting position");
    }
    let roster = one_to(&last[1..], MASTER);
    assert_eq!(roster.subject, "JDG:war - S1901M Game starts");
    for (addr, _, _) in PLAYERS {
        assert!(roster.body.contains(addr), "{}", roster.body);
    }
    let export = j.export(g);
    assert_eq!(export["state"], "active");
    assert_eq!(phase_names(&export), ["S1901M"]);
    assert_eq!(export["players"]["FRANCE"]["status"], "active");

    // ---- S1901M: orders, typos, corrections, CLEAR, press ----------------
    j.now = at(2);
    let r = orders(&mut j, g, "A", "A Vie-Gal\nA Bud-Ser\nF Tri-Alb");
    assert_eq!(reply(&r).subject, "JDG:war - S1901M orders");
    assert!(reply(&r).has_line("Status: complete."), "{}", dump(&r));
    orders(&mut j, g, "E", "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor");
    orders(&mut j, g, "G", "A Mun-Ruh\nA Ber-Mun\nF Kie-Den");
    orders(
        &mut j,
        g,
        "R",
        "A War-Gal\nA Mos-Ukr\nF Sev-Bla\nF Stp/sc-Bot",
    );

    // France: a misspelt province read right, an impossible move refused
    // (the earlier order for the unit stands), a missing unit named.
    let r = orders(
        &mut j,
        g,
        "F",
        "A Prais - Burgundy\nA Par - Mos\nF Bre - Mid\nA Mar H",
    );
    let rep = reply(&r);
    assert_eq!(r.len(), 1);
    assert_eq!(rep.subject, "[Error Flag] JDG:war - S1901M orders");
    assert!(rep.has_line("> A Par - Mos"), "{}", rep.body);
    assert!(
        rep.has_line("*** A Par - Mos: Paris is not adjacent to Moscow."),
        "{}",
        rep.body
    );
    assert!(rep.has_line("Army Paris -> Burgundy."), "{}", rep.body);
    assert!(rep.has_line("Fleet Brest -> Mid-Atlantic Ocean."));
    assert!(rep.has_line("Army Marseilles HOLD."));
    assert!(rep.has_line("Status: complete."));
    assert!(rep.has_line("Deadline: Thu Nov 05 2026 13:00 UTC (2 days 23 hours from now)."));
    assert!(rep.body.contains("Grace ends: Fri Nov 06 2026 13:00 UTC"));
    // A later mail: the later order for Marseilles replaces the earlier.
    let r = orders(&mut j, g, "F", "A Mar - Spa");
    let rep = reply(&r);
    assert_eq!(rep.subject, "JDG:war - S1901M orders");
    assert!(rep.has_line("Army Marseilles -> Spain."), "{}", rep.body);
    assert!(!rep.has_line("Army Marseilles HOLD."), "{}", rep.body);
    assert!(rep.has_line("Army Paris -> Burgundy."), "{}", rep.body);
    // Press to England only: England gets it, nobody else.
    let r = orders(
        &mut j,
        g,
        "F",
        "PRESS TO E\nShall we split the Channel?\n  -- Paris\nENDPRESS",
    );
    assert_eq!(r.len(), 2, "{}", dump(&r));
    assert!(
        reply(&r).body.contains("Press sent to England."),
        "{}",
        dump(&r)
    );
    let press = one_to(&r, addr_of("E"));
    assert_eq!(press.subject, "JDG:war - S1901M Press from France");
    assert!(press.body.contains("Message from France to England:"));
    assert!(press.has_line("Shall we split the Channel?"));
    assert!(press.body.contains("  -- Paris"), "press keeps its lines");

    // Italy: orders, CLEAR, new orders; a second order for Venice replaces
    // the first within one mail.
    let r = orders(
        &mut j,
        g,
        "I",
        "A Ven - Tyr\nA Rom - Apu\nCLEAR\nA Ven - Pie\nA Ven H\nF Nap - Ion",
    );
    let rep = reply(&r);
    // CLEAR says what it cleared; the order set after it lacks those.
    assert!(
        rep.body.contains(
            "Your 2 order(s) for S1901M are cleared:\n    Army Rome -> Apulia.\n    \
             Army Venice -> Tyrolia.\n"
        ),
        "{}",
        rep.body
    );
    assert!(rep.has_line("Army Venice HOLD."), "{}", rep.body);
    assert!(rep.has_line("Fleet Naples -> Ionian Sea."));
    let set = rep
        .body
        .split("Orders for Italy")
        .nth(1)
        .unwrap_or_default();
    assert!(!set.contains("Tyrolia"), "{}", rep.body);
    assert!(!rep.body.contains("Piedmont"), "{}", rep.body);
    assert!(
        rep.has_line("Status: orders missing for 1: Army Rome."),
        "{}",
        rep.body
    );
    orders(&mut j, g, "I", "A Rom - Apu");

    // Turkey: orders and a broadcast, which everyone else receives.
    let r = orders(
        &mut j,
        g,
        "T",
        "F Ank-Bla\nA Con-Bul\nA Smy-Con\nBROADCAST\nPeace in our time.\nENDPRESS",
    );
    assert!(
        reply(&r).body.contains("Broadcast sent to everyone."),
        "{}",
        dump(&r)
    );
    let others: Vec<&str> = everyone()
        .into_iter()
        .filter(|a| *a != addr_of("T"))
        .collect();
    for a in &others {
        let b = one_to(&r[1..], a);
        assert_eq!(b.subject, "JDG:war - S1901M Broadcast from Turkey");
        assert!(b.has_line("Peace in our time."));
    }
    assert_eq!(r.len(), 1 + others.len());

    // The Master: PREDICT (to the Master only), then PROCESS.
    j.now = at(3);
    let r = master(&mut j, g, "PREDICT");
    assert_eq!(r.len(), 1, "{}", dump(&r));
    assert!(reply(&r).is_to(MASTER));
    assert!(reply(&r).body.contains("nothing is stored"));
    assert!(reply(&r).has_line("Austria: Army Vienna -> Galicia.  (*bounce*)"));
    assert_eq!(
        phase_names(&j.export(g)),
        ["S1901M"],
        "PREDICT stores nothing"
    );

    let r = master(&mut j, g, "PROCESS S1901M");
    assert!(reply(&r).body.contains("S1901M processed"), "{}", dump(&r));
    let res = results_to_everyone(&r, "JDG:war - S1901M Results");
    assert!(
        res.has_line(":: Judge: JDG  Game: war  Variant: Standard"),
        "{}",
        res.body
    );
    assert!(
        res.body
            .lines()
            .any(|l| l.starts_with(":: Deadline: F1901M ")),
        "{}",
        res.body
    );
    assert!(res.has_line("Movement results for Spring of 1901."));
    assert!(
        res.has_line("Austria: Army Vienna -> Galicia.  (*bounce*)"),
        "{}",
        res.body
    );
    assert!(
        res.has_line("Russia:  Army Warsaw -> Galicia.  (*bounce*)"),
        "{}",
        res.body
    );
    assert!(
        res.has_line("Turkey:  Fleet Ankara -> Black Sea.  (*bounce*)"),
        "{}",
        res.body
    );
    assert!(
        res.has_line("France:  Army Paris -> Burgundy."),
        "{}",
        res.body
    );
    assert!(
        res.has_line("England: Fleet London -> North Sea."),
        "{}",
        res.body
    );
    assert!(res
        .body
        .contains("The next phase of 'war' will be Movement for Fall of 1901."));

    // A PROCESS naming another phase is ignored.
    let r = master(&mut j, g, "PROCESS S1901M");
    assert!(
        reply(&r)
            .body
            .contains("Ignored: the current phase is F1901M"),
        "{}",
        dump(&r)
    );
    assert_eq!(r.len(), 1);

    // ---- F1901M: a master's SET DEADLINE, a dislodgement ------------------
    j.now = at(4);
    let r = master(&mut j, g, "SET DEADLINE 2026-11-20 20:00");
    assert!(
        reply(&r)
            .body
            .contains("The deadline for F1901M is now Fri Nov 20 2026 20:00 UTC"),
        "{}",
        dump(&r)
    );
    for a in everyone() {
        let m = one_to(&r[1..], a);
        assert_eq!(m.subject, "JDG:war - F1901M Deadline changed");
    }
    let r = orders(&mut j, g, "G", "A Ruh-Bur\nA Mun S A Ruh-Bur\nF Den H");
    assert!(
        reply(&r).has_line("Deadline: Fri Nov 20 2026 20:00 UTC (18 days 4 hours from now)."),
        "{}",
        dump(&r)
    );
    orders(&mut j, g, "F", "A Bur H\nA Spa H\nF Mao-Por");
    j.now = at(5);
    let r = master(&mut j, g, "PROCESS");
    let res = results_to_everyone(&r, "JDG:war - F1901M Results");
    assert!(
        res.has_line("Germany: Army Ruhr -> Burgundy."),
        "{}",
        res.body
    );
    assert!(
        res.has_line("France:  Army Burgundy HOLD.  (*dislodged*)"),
        "{}",
        res.body
    );
    assert!(
        res.has_line("The following units were dislodged:"),
        "{}",
        res.body
    );
    assert!(
        res.body
            .contains("The French Army in Burgundy can retreat to"),
        "{}",
        res.body
    );
    assert!(res
        .body
        .contains("The next phase of 'war' will be Retreats for Fall of 1901."));

    // ---- F1901R: the retreat ------------------------------------------------
    j.now = at(6);
    let r = orders(&mut j, g, "F", "A Bur - Pic");
    assert!(
        reply(&r).has_line("Army Burgundy -> Picardy."),
        "{}",
        dump(&r)
    );
    assert!(
        reply(&r).subject.contains("F1901R"),
        "{}",
        reply(&r).subject
    );
    // A power with nothing to retreat is told so.
    let r = orders(&mut j, g, "E", "");
    assert!(
        reply(&r).has_line("Status: England has nothing to order this phase."),
        "{}",
        dump(&r)
    );
    let r = master(&mut j, g, "PROCESS");
    let res = results_to_everyone(&r, "JDG:war - F1901R Results");
    assert!(
        res.has_line("France:  Army Burgundy -> Picardy."),
        "{}",
        res.body
    );
    assert!(res.has_line("Ownership of supply centres:"), "{}", res.body);
    assert!(
        res.body.contains("Adjustments for Winter of 1901"),
        "{}",
        res.body
    );

    // ---- W1901A: builds ------------------------------------------------------
    j.now = at(7);
    let r = orders(&mut j, g, "F", "Build A Par\nBuild F Bre");
    assert!(reply(&r).has_line("Build army Paris."), "{}", dump(&r));
    assert!(reply(&r).has_line("Build fleet Brest."), "{}", dump(&r));
    assert!(reply(&r).has_line("Status: complete."), "{}", dump(&r));
    let r = orders(&mut j, g, "G", "Build A Berlin");
    assert!(reply(&r).has_line("Build army Berlin."), "{}", dump(&r));
    let r = master(&mut j, g, "PROCESS");
    let res = results_to_everyone(&r, "JDG:war - W1901A Results");
    assert!(res.body.contains("Build army Paris."), "{}", res.body);
    assert!(res.body.contains("Build army Berlin."), "{}", res.body);

    // ---- S1902M: processed, rolled back, ordered again ---------------------
    j.now = at(8);
    orders(&mut j, g, "G", "A Bur - Par\nA Mun H\nA Ber H\nF Den H");
    let r = master(&mut j, g, "PROCESS");
    let res = results_to_everyone(&r, "JDG:war - S1902M Results");
    assert!(
        res.has_line("Germany: Army Burgundy -> Paris.  (*bounce*)"),
        "{}",
        res.body
    );
    assert_eq!(phase_names(&j.export(g)).last().unwrap(), "F1902M");

    j.now = at(9);
    let r = master(&mut j, g, "ROLLBACK");
    assert!(
        reply(&r)
            .body
            .contains("rolled back to the start of S1902M (the one phase after it is removed)"),
        "{}",
        dump(&r)
    );
    for a in everyone() {
        let m = one_to(&r[1..], a);
        assert_eq!(m.subject, "JDG:war - S1902M Rollback");
    }
    let export = j.export(g);
    assert_eq!(phase_names(&export).last().unwrap(), "S1902M");
    assert_eq!(phase(&export, "S1902M")["results"], Value::Null);
    assert_eq!(phase(&export, "S1902M")["orders"], serde_json::json!({}));
    // New orders, and this time Germany walks into Marseilles.
    let r = orders(&mut j, g, "G", "A Bur - Mar");
    assert!(
        reply(&r).has_line("Army Burgundy -> Marseilles."),
        "{}",
        dump(&r)
    );
    let r = master(&mut j, g, "PROCESS");
    let res = results_to_everyone(&r, "JDG:war - S1902M Results");
    assert!(
        res.has_line("Germany: Army Burgundy -> Marseilles."),
        "{}",
        res.body
    );
    assert!(!res.body.contains("Paris.  (*bounce*)"), "{}", res.body);

    // ---- F1902M: Germany keeps Marseilles; W1902A: a build and a removal ---
    j.now = at(10);
    let r = master(&mut j, g, "PROCESS");
    let res = results_to_everyone(&r, "JDG:war - F1902M Results");
    assert!(
        res.body.contains("Adjustments for Winter of 1902"),
        "{}",
        res.body
    );
    j.now = at(11);
    let r = orders(&mut j, g, "F", "Remove A Pic");
    assert!(reply(&r).has_line("Remove army Picardy."), "{}", dump(&r));
    orders(&mut j, g, "G", "Build F Kie");
    let r = master(&mut j, g, "PROCESS");
    let res = results_to_everyone(&r, "JDG:war - W1902A Results");
    assert!(res.body.contains("Remove army Picardy."), "{}", res.body);
    assert!(res.body.contains("Build fleet Kiel."), "{}", res.body);

    // ---- the stored game ------------------------------------------------------
    let export = j.export(g);
    assert_eq!(export["game"], "war");
    assert_eq!(
        phase_names(&export),
        ["S1901M", "F1901M", "F1901R", "W1901A", "S1902M", "F1902M", "W1902A", "S1903M"]
    );
    let s1901 = phase(&export, "S1901M");
    assert_eq!(
        s1901["orders"]["FRANCE"],
        serde_json::json!(["F BRE - MAO", "A MAR - SPA", "A PAR - BUR"])
    );
    assert_eq!(s1901["results"]["A VIE - GAL"], "bounce", "{s1901:#}");
    assert_eq!(s1901["results"]["A PAR - BUR"], "ok", "{s1901:#}");
    let f1901 = phase(&export, "F1901M");
    assert_eq!(
        f1901["deadline"], 1_795_204_800,
        "Fri Nov 20 2026 20:00 UTC"
    );
    assert_eq!(
        phase(&export, "F1901R")["retreats"]["FRANCE"]["A BUR"],
        serde_json::json!(["BEL", "GAS", "MAR", "PAR", "PIC"])
    );
    assert_eq!(
        phase(&export, "F1901R")["orders"]["FRANCE"],
        serde_json::json!(["A BUR R PIC"])
    );
    let w1901 = phase(&export, "W1901A");
    assert_eq!(
        w1901["orders"]["FRANCE"].as_array().unwrap().len(),
        2,
        "{w1901:#}"
    );
    assert_eq!(
        w1901["orders"]["GERMANY"].as_array().unwrap().len(),
        1,
        "{w1901:#}"
    );
    let s1902 = phase(&export, "S1902M");
    assert_eq!(
        s1902["orders"]["GERMANY"],
        serde_json::json!(["A BUR - MAR"])
    );
    let s1903 = phase(&export, "S1903M");
    assert_eq!(s1903["results"], Value::Null, "the current phase");
    assert_eq!(
        s1903["units"]["GERMANY"].as_array().unwrap().len(),
        5,
        "{s1903:#}"
    );
    assert_eq!(
        s1903["centers"]["GERMANY"].as_array().unwrap().len(),
        5,
        "{s1903:#}"
    );

    // HISTORY: results and broadcasts, never partial press.
    let r = j.mail("someone@example.com", "HISTORY war");
    let h = reply(&r);
    assert!(
        h.body.contains("=== JDG:war - S1901M Results"),
        "{}",
        h.body
    );
    assert!(
        h.body.contains("=== JDG:war - W1902A Results"),
        "{}",
        h.body
    );
    assert!(h.body.contains("Peace in our time."), "{}", h.body);
    assert!(
        !h.body.contains("Shall we split the Channel?"),
        "{}",
        h.body
    );
    assert!(
        h.body.contains("Rolled back to S1902M") || h.body.contains("rolled back"),
        "{}",
        h.body
    );
    // SUMMARY: who played what, centres by year.
    let r = j.mail("someone@example.com", "SUMMARY war");
    let s = reply(&r);
    // Addresses stay private: the summary names periods, not players.
    assert!(
        s.body.contains("France   S1901M-now (1 player)"),
        "{}",
        s.body
    );
    assert!(!s.body.contains("cy@example.net"), "{}", s.body);
    assert!(
        s.body.contains("Supply centres at the start of each year"),
        "{}",
        s.body
    );
    assert!(
        s.body.lines().any(|l| l.trim_start().starts_with("1903")),
        "{}",
        s.body
    );
}

fn power_name(initial: &str) -> &'static str {
    match initial {
        "A" => "Austria",
        "E" => "England",
        "F" => "France",
        "G" => "Germany",
        "I" => "Italy",
        "R" => "Russia",
        _ => "Turkey",
    }
}

// ---- mail formats ------------------------------------------------------------

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/mail/game/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Feeds a fixture; returns what it queued.
fn feed(j: &mut TestJudge, name: &str) -> Vec<Sent> {
    j.handle_raw(&fixture(name));
    j.take()
}

/// Checks the threading and robot headers of a reply to `answered`.
fn check_reply_headers(reply: &Sent, answered: &str) {
    assert_eq!(
        reply.auto_submitted.as_deref(),
        Some("auto-replied"),
        "{}",
        reply.raw
    );
    assert!(
        reply.message_id.ends_with("@localhost>"),
        "{}",
        reply.message_id
    );
    assert_eq!(
        reply.in_reply_to.as_deref(),
        Some(answered),
        "{}",
        reply.raw
    );
    assert!(
        reply.references.iter().any(|r| r == answered),
        "{}",
        reply.raw
    );
    assert!(
        reply
            .raw
            .contains("From: Diplomacy Judge <judge@localhost>"),
        "{}",
        reply.raw
    );
}

#[test]
fn mail_formats_through_judge_handle() {
    let mut j = TestJudge::new("formats");
    started_game(&mut j, "fmt");
    j.take();
    let cy = "cy@example.net";

    // multipart/alternative: the text/plain part is read, not the HTML.
    let r = feed(&mut j, "alternative.eml");
    assert_eq!(r.len(), 1, "{}", dump(&r));
    let rep = reply(&r);
    assert!(rep.is_to(cy));
    assert_eq!(rep.subject, "JDG:fmt - S1901M my orders");
    check_reply_headers(rep, "<alt-1@mail.example.net>");
    assert!(rep.has_line("Army Paris -> Burgundy."), "{}", rep.body);
    assert!(
        rep.has_line("Fleet Brest -> Mid-Atlantic Ocean."),
        "{}",
        rep.body
    );
    assert_eq!(
        stored_orders(&j, "fmt", "FRANCE"),
        ["F BRE - MAO", "A PAR - BUR"]
    );

    // quoted-printable: soft line breaks and =3D decoded; RFC 2047 subject.
    let r = feed(&mut j, "quoted_printable.eml");
    let rep = reply(&r);
    assert_eq!(
        rep.subject, "JDG:fmt - S1901M ordres pour l\u{2019}automne",
        "{}",
        rep.raw
    );
    assert!(!rep.subject.contains("[Error Flag]"), "{}", rep.body);
    assert!(rep.has_line("Army Marseilles -> Spain."), "{}", rep.body);
    assert!(rep.has_line("Army Paris HOLD."), "{}", rep.body);
    assert!(rep.has_line("Status: complete."), "{}", rep.body);
    check_reply_headers(rep, "<qp-1@mail.example.net>");

    // base64.
    let r = feed(&mut j, "base64.eml");
    let rep = reply(&r);
    assert!(rep.has_line("Army Paris -> Gascony."), "{}", rep.body);
    assert!(rep.has_line("Army Marseilles -> Burgundy."), "{}", rep.body);
    assert!(!rep.subject.contains("[Error Flag]"), "{}", rep.body);

    // ISO-8859-1: the press reaches England with its accents intact.
    let r = feed(&mut j, "latin1.eml");
    assert_eq!(r.len(), 2, "{}", dump(&r));
    let rep = reply(&r);
    assert_eq!(rep.subject, "JDG:fmt - S1901M Grüße");
    assert!(rep.has_line("Army Paris -> Burgundy."), "{}", rep.body);
    let press = one_to(&r, "bo@example.net");
    assert!(
        press.has_line("Grüße aus Paris, à bientôt. Ça va?"),
        "{}",
        press.body
    );
    let stored: String = j
        .db()
        .query_row("SELECT body FROM press ORDER BY id DESC LIMIT 1", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(stored, "Grüße aus Paris, à bientôt. Ça va?");

    // HTML only: converted to text; the blockquote is a quote, not orders.
    let r = feed(&mut j, "html_only.eml");
    let rep = reply(&r);
    assert!(!rep.subject.contains("[Error Flag]"), "{}", rep.body);
    assert!(rep.has_line("Army Paris -> Burgundy."), "{}", rep.body);
    assert!(rep.has_line("Army Marseilles -> Burgundy."), "{}", rep.body);
    assert!(
        !rep.body.contains("Piedmont") && !rep.body.contains("Gascony"),
        "{}",
        rep.body
    );

    // A reply quoting an earlier mail: the quoted lines are not orders.
    let before = j.query_i64("SELECT count(*) FROM orders");
    let r = feed(&mut j, "reply_quoting.eml");
    let rep = reply(&r);
    assert!(!rep.subject.contains("[Error Flag]"), "{}", rep.body);
    // The subject does not grow with every round of replies.
    assert_eq!(rep.subject, "JDG:fmt - S1901M orders");
    assert!(rep.has_line("Army Marseilles -> Spain."), "{}", rep.body);
    assert!(rep.has_line("Army Paris -> Burgundy."), "{}", rep.body);
    assert!(!rep.body.contains("Picardy") && !rep.body.contains("English Channel"));
    // The thread goes on: References carries the earlier ids and this one.
    assert_eq!(
        rep.references,
        ["<earlier-ack@localhost>", "<quote-1@mail.example.net>"]
    );
    assert_eq!(j.query_i64("SELECT count(*) FROM orders"), before);

    // A signature block: its order-like lines are ignored.
    let r = feed(&mut j, "signature.eml");
    let rep = reply(&r);
    assert!(!rep.subject.contains("[Error Flag]"), "{}", rep.body);
    assert!(!rep.body.contains("Picardy") && !rep.body.contains("Piedmont"));
    assert_eq!(
        stored_orders(&j, "fmt", "FRANCE"),
        ["F BRE - MAO", "A MAR - SPA", "A PAR - BUR"]
    );

    // An autoresponder and a bounce: silence, stored and dropped.
    let queued = j.query_i64("SELECT count(*) FROM outbound");
    assert!(feed(&mut j, "autoresponder.eml").is_empty());
    let (status, note) = j.inbound_status("<vacation-1@mail.example.net>");
    assert_eq!(status, "dropped");
    assert!(note.unwrap().contains("Auto-Submitted"));
    assert!(feed(&mut j, "bounce.eml").is_empty());
    assert_eq!(j.inbound_status("<bounce-1@mx.example.net>").0, "dropped");
    assert_eq!(j.query_i64("SELECT count(*) FROM outbound"), queued);
    assert_eq!(
        stored_orders(&j, "fmt", "FRANCE"),
        ["F BRE - MAO", "A MAR - SPA", "A PAR - BUR"],
        "the vacation reply's quoted orders were not taken"
    );

    // Reply-To is honoured: the answer goes there, not to From.
    let r = feed(&mut j, "reply_to.eml");
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].recipients, ["cy.home@example.net"]);
    assert!(r[0].body.contains("judge "), "{}", r[0].body);
    check_reply_headers(&r[0], "<replyto-1@work.example.com>");

    // The same Message-ID twice is handled once.
    let before = j.query_i64("SELECT count(*) FROM inbound");
    let run = j.handle_raw(&fixture("alternative.eml"));
    assert!(
        run.stderr
            .contains("judge handle: a second delivery of a stored mail: ignored"),
        "{}",
        run.stderr
    );
    assert!(j.take().is_empty());
    assert_eq!(j.query_i64("SELECT count(*) FROM inbound"), before);
    // A mail without a Message-ID is answered (no In-Reply-To: there is
    // nothing to refer to), and a second copy of it is recognised.
    let no_id = "From: cy@example.net\r\nTo: judge@localhost\r\nSubject: no id\r\n\
                 Date: Mon, 2 Nov 2026 15:00:00 +0000\r\n\r\nVERSION\r\n";
    j.handle_raw(no_id.as_bytes());
    let r = j.take();
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].auto_submitted.as_deref(), Some("auto-replied"));
    assert_eq!(r[0].in_reply_to, None, "{}", r[0].raw);
    assert!(r[0].references.is_empty(), "{}", r[0].raw);
    j.handle_raw(no_id.as_bytes());
    assert!(j.take().is_empty());
    // Even when another route changed the headers around it.
    let mut again = b"Received: from relay2.example.net\r\n".to_vec();
    again.extend(fixture("base64.eml"));
    j.handle_raw(&again);
    assert!(j.take().is_empty());
}

// ---- security ------------------------------------------------------------------

/// What France has stored in the current phase, and how many orders there
/// are at all.
fn order_count(j: &TestJudge) -> i64 {
    j.query_i64("SELECT count(*) FROM orders")
}

#[test]
fn sign_on_failures_do_nothing() {
    let mut j = TestJudge::new("signon");
    started_game(&mut j, "sec");
    j.take();
    let cy = "cy@example.net";

    // A wrong password: the reply says only that the sign-on failed; the
    // lines after it (an order, a new password, press) are not done.
    let r = j.mail(
        cy,
        "SIGNON Fsec wrong\nA Par - Pic\nSET PASSWORD hacked\nPRESS TO E\nhi\nENDPRESS\nHELP",
    );
    assert_eq!(r.len(), 1, "{}", dump(&r));
    let rep = reply(&r);
    assert!(rep.is_to(cy));
    assert_eq!(rep.subject, "[Error Flag] JDG:sec - S1901M orders");
    let shown: Vec<&str> = rep
        .body
        .lines()
        .take_while(|l| *l != "-- ")
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(
        shown,
        [
            "> SIGNON Fsec ****",
            "*** Sign-on failed: no such power in that game, or a wrong password. \
             Nothing after this line was done."
        ],
        "{}",
        rep.body
    );
    assert_eq!(order_count(&j), 0);
    assert_eq!(j.query_i64("SELECT count(*) FROM press"), 0);
    // The password was not changed: the right one still works.
    let r = j.mail(cy, "SIGNON Fsec pw-cy\nA Par - Bur");
    assert!(
        reply(&r).has_line("Army Paris -> Burgundy."),
        "{}",
        dump(&r)
    );
    assert_eq!(order_count(&j), 1);

    // Another power's initial with my password: the same failure.
    let r = j.mail(cy, "SIGNON Esec pw-cy\nF Lon - Eng");
    assert_eq!(r.len(), 1);
    assert!(reply(&r)
        .body
        .contains("Sign-on failed: no such power in that game, or a wrong password."));
    assert!(!reply(&r).body.contains("English Channel"));
    assert_eq!(order_count(&j), 1);
    // A power that does not exist, and a game that does not: the same
    // silence after the line.
    let r = j.mail(cy, "SIGNON Xsec pw-cy\nA Par - Pic");
    assert!(
        reply(&r).body.contains("Nothing after this line was done."),
        "{}",
        dump(&r)
    );
    let r = j.mail(cy, "SIGNON Fnosuchgame pw-cy\nA Par - Pic");
    assert!(
        reply(&r)
            .body
            .contains("There is no game named 'nosuchgame'"),
        "{}",
        dump(&r)
    );
    assert!(
        reply(&r).body.contains("Nothing after this line was done."),
        "{}",
        dump(&r)
    );
    assert!(!reply(&r).body.contains("> A Par - Pic"), "{}", dump(&r));

    // A forged From with no password: nothing is done, and the answer goes
    // to the address of record (the forger never sees it).
    let r = j.mail(cy, "A Par - Pic\nF Bre - Eng\nCLEAR");
    assert_eq!(r.len(), 1);
    assert!(reply(&r).is_to(cy));
    assert!(reply(&r).subject.starts_with("[Error Flag]"));
    assert!(
        reply(&r).body.contains("you are not signed on"),
        "{}",
        dump(&r)
    );
    let export = j.export("sec");
    assert_eq!(
        phase(&export, "S1901M")["orders"]["FRANCE"],
        serde_json::json!(["A PAR - BUR"])
    );

    // The right password from another address: it works, and the reply
    // goes to both the sender and the address of record.
    let r = j.mail("cyril@elsewhere.example", "SIGNON Fsec pw-cy\nA Mar - Spa");
    assert_eq!(r.len(), 2, "{}", dump(&r));
    let here = one_to(&r, "cyril@elsewhere.example");
    let home = one_to(&r, cy);
    assert_eq!(here.body, home.body);
    assert!(here.has_line("Army Marseilles -> Spain."));
    // (A guessed password from a stranger reaches only the stranger: it
    // fails before any seat is named.)
    let r = j.mail("eve@example.com", "SIGNON Fsec guess\nA Par - Pic");
    assert_eq!(r.len(), 1);
    assert!(reply(&r).is_to("eve@example.com"));
}

#[test]
fn sql_metacharacters_round_trip() {
    let mut j = TestJudge::new("sql");
    let tables =
        |j: &TestJudge| j.query_i64("SELECT count(*) FROM sqlite_schema WHERE type = 'table'");
    // Game names with quotes are refused as names, nothing more.
    let r = j.mail(MASTER, "CREATE ?x'--; pw");
    assert!(
        reply(&r).body.contains("cannot be a game's name"),
        "{}",
        dump(&r)
    );
    let n_tables = tables(&j);
    let r = j.mail(MASTER, "CREATE ?'; DROP TABLE games; -- pw");
    assert!(
        reply(&r).subject.starts_with("[Error Flag]"),
        "{}",
        dump(&r)
    );
    let r = j.mail(MASTER, "LIST x'OR'1'='1");
    assert!(
        reply(&r)
            .body
            .contains("There is no game named 'x'OR'1'='1'"),
        "{}",
        dump(&r)
    );
    let r = j.mail(MASTER, "SIGNON Fx'OR'1'='1 '--\nA Par - Bur");
    assert!(
        reply(&r).body.contains("There is no game named"),
        "{}",
        dump(&r)
    );

    // A Master whose address, subject and password are full of SQL.
    let master = "x'or'1'='1@example.org";
    let master_pw = "'OR'1'='1\";--";
    let r = j.send(&Mail::new(
        &format!("\"Robert'); DROP TABLE games;--\" <{master}>"),
        "Robert'); DROP TABLE seats;--",
        &format!("CREATE ?sql {master_pw}"),
    ));
    let rep = reply(&r);
    assert_eq!(rep.recipients, [master]);
    assert_eq!(rep.subject, "JDG:sql - Robert'); DROP TABLE seats;--");
    assert!(!rep.body.contains(master_pw), "the password is not echoed");

    // Seven players, odd addresses and odd one-word passwords.
    let players: [(&str, &str, char); 7] = [
        ("o'brien@example.net", "'OR'1'='1", 'A'),
        (
            "robert'--drop_table_seats@example.net",
            "\";DROP/**/TABLE/**/seats;--",
            'E',
        ),
        ("a%'--@example.net", "x');DELETE/**/FROM/**/orders;--", 'F'),
        ("back`tick@example.net", "%_%\\'\\\"", 'G'),
        (
            "semi@example.net",
            "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2g",
            'I',
        ),
        ("dash--dash@example.net", "';--", 'R'),
        ("plain@example.net", "NULL", 'T'),
    ];
    let mut last = Vec::new();
    for (addr, pw, initial) in players {
        last = j.mail(addr, &format!("SIGNON ?sql {pw}\nSET PREFERENCE {initial}"));
        assert!(
            !reply(&last).subject.starts_with("[Error Flag]"),
            "{}",
            dump(&last)
        );
        assert!(!reply(&last).body.contains(pw), "{}", dump(&last));
    }
    assert_eq!(
        with_subject(&last, "Game starts").len(),
        8,
        "{}",
        dump(&last)
    );
    let stored: Vec<String> = {
        let db = j.db();
        let mut st = db.prepare("SELECT address FROM seats ORDER BY id").unwrap();
        let rows = st.query_map([], |r| r.get(0)).unwrap();
        rows.collect::<Result<_, _>>().unwrap()
    };
    assert_eq!(stored, players.map(|p| p.0.to_string()));
    // Passwords are hashed, even one that looks like a hash.
    let looks_like_hash =
        j.query_i64("SELECT count(*) FROM seats WHERE password_hash LIKE '%c2FsdHNhbHQ%'");
    assert_eq!(looks_like_hash, 0);

    // Each signs on with the odd password and orders; press with SQL in it.
    for (addr, pw, initial) in players {
        let r = j.mail(addr, &format!("SIGNON {initial}sql {pw}\n"));
        assert!(
            reply(&r).body.contains(&format!(
                "Signed on as {} in 'sql'.",
                power_name(&initial.to_string())
            )),
            "{addr}: {}",
            dump(&r)
        );
    }
    let press = "Robert'); DROP TABLE games;--\n\"Quotes\" and 'apostrophes' and \\ backslashes; 100% _wild_ -- really";
    let r = j.mail(
        "a%'--@example.net",
        &format!(
            "SIGNON Fsql x');DELETE/**/FROM/**/orders;--\nA Par - Bur\nPRESS TO E\n{press}\nENDPRESS\nBROADCAST\n{press}\nENDPRESS"
        ),
    );
    let rep = reply(&r);
    assert!(rep.has_line("Army Paris -> Burgundy."), "{}", rep.body);
    let to_england = with_subject(&r, "Press from France");
    assert_eq!(to_england.len(), 1);
    assert_eq!(to_england[0].recipients, [players[1].0]);
    assert!(to_england[0].body.contains(press), "{}", to_england[0].body);
    let bodies: Vec<String> = {
        let db = j.db();
        let mut st = db.prepare("SELECT body FROM press ORDER BY id").unwrap();
        let rows = st.query_map([], |r| r.get(0)).unwrap();
        rows.collect::<Result<_, _>>().unwrap()
    };
    assert_eq!(bodies, [press, press]);
    // A new address of record with quotes in it.
    // (Sent from the new address: one the judge never heard from would be
    // asked to confirm first.)
    let r = j.mail(
        "o'neil'--@example.net",
        "SIGNON Asql 'OR'1'='1\nSET ADDRESS o'neil'--@example.net",
    );
    assert!(
        reply(&r)
            .body
            .contains("Your address of record is now o'neil'--@example.net"),
        "{}",
        dump(&r)
    );
    assert_eq!(
        j.query_i64("SELECT count(*) FROM seats WHERE address = 'o''neil''--@example.net'"),
        1
    );

    // Everything is still there.
    assert_eq!(tables(&j), n_tables);
    assert_eq!(j.query_i64("SELECT count(*) FROM games"), 1);
    assert_eq!(j.query_i64("SELECT count(*) FROM seats"), 7);
    let export = j.export("sql");
    assert_eq!(
        phase(&export, "S1901M")["orders"]["FRANCE"],
        serde_json::json!(["A PAR - BUR"])
    );
    let r = j.mail("someone@example.com", "HISTORY sql");
    assert!(reply(&r).body.contains(press), "{}", dump(&r));
    // The Master still signs on with the quoted password.
    let r = j.mail(master, &format!("SIGNON Msql {master_pw}\nPROCESS"));
    assert!(reply(&r).body.contains("S1901M processed"), "{}", dump(&r));
}

#[test]
fn oversized_and_overlong_mails() {
    let mut j = TestJudge::new("big");
    started_game(&mut j, "big");
    j.take();
    let cy = "cy@example.net";

    // A 10 MB mail: a short refusal, nothing else.
    let mut body = String::from("SIGNON Fbig pw-cy\nA Par - Bur\n");
    while body.len() < 10 * 1024 * 1024 {
        body.push_str("A Mar - Spa and a great deal more text to make it big enough\n");
    }
    let mail = Mail::new(cy, "huge", &body);
    let r = j.send(&mail);
    assert_eq!(r.len(), 1, "{}", dump(&r));
    let rep = reply(&r);
    assert!(rep.is_to(cy));
    assert!(rep.subject.starts_with("[Error Flag]"), "{}", rep.subject);
    assert!(
        rep.body.contains("over this judge's limit of 262144 bytes"),
        "{}",
        rep.body
    );
    assert!(rep.body.len() < 500, "{}", rep.body);
    check_reply_headers(rep, &mail.message_id);
    assert_eq!(order_count(&j), 0);
    assert_eq!(j.inbound_status(&mail.message_id).0, "handled");

    // 10,000 lines of orders: a clear reply, fast, the orders read.
    let mut body = String::from("SIGNON Fbig pw-cy\n");
    for k in 0..10_000 {
        body.push_str(["A Par - Bur\n", "A Mar - Spa\n", "F Bre - Mao\n"][k % 3]);
    }
    let run = j.handle_raw(Mail::new(cy, "many", &body).raw().as_bytes());
    let r = j.take();
    eprintln!("10,000 order lines: {:?}", run.elapsed);
    assert!(run.elapsed.as_secs() < 10, "{:?}", run.elapsed);
    assert_eq!(r.len(), 1);
    let rep = reply(&r);
    assert!(rep.has_line("Status: complete."), "{}", rep.body);
    assert!(
        rep.body.contains(
            "Only the first 500 order lines of a mail are read: the other 9500 were not."
        ),
        "{}",
        rep.body
    );
    assert!(rep.body.len() < 2_000, "{}", rep.body);
    assert_eq!(order_count(&j), 3);

    // 10,000 wrong lines: the first refusals shown, the rest counted.
    let body = format!("SIGNON Fbig pw-cy\n{}", "A Par - Mos\n".repeat(10_000));
    let run = j.handle_raw(Mail::new(cy, "wrong", &body).raw().as_bytes());
    eprintln!("10,000 wrong lines: {:?}", run.elapsed);
    assert!(run.elapsed.as_secs() < 10, "{:?}", run.elapsed);
    let r = j.take();
    let rep = reply(&r);
    assert_eq!(
        rep.body
            .matches("*** A Par - Mos: Paris is not adjacent to Moscow.")
            .count(),
        50
    );
    assert!(
        rep.body.contains("450 more order lines were refused"),
        "{}",
        rep.body
    );
    assert!(rep.body.len() < 20_000, "{}", rep.body.len());
    assert!(
        rep.has_line("Army Paris -> Burgundy."),
        "the earlier orders stand"
    );

    // The same without a sign-on.
    let body = "A Par - Pic\n".repeat(10_000);
    let run = j.handle_raw(Mail::new(cy, "forged", &body).raw().as_bytes());
    assert!(run.elapsed.as_secs() < 10, "{:?}", run.elapsed);
    let r = j.take();
    assert!(reply(&r).body.len() < 20_000);
    assert_eq!(order_count(&j), 3);
}

#[test]
fn amplification_is_bounded() {
    let mut j = TestJudge::new("amplify");
    // 10,000 HELP lines: answered once, the rest named, a small reply.
    let body = "HELP\n".repeat(10_000);
    let r = j.mail("victim@example.com", &body);
    assert_eq!(r.len(), 1);
    let rep = reply(&r);
    assert!(rep.body.len() < 100_000, "{} bytes", rep.body.len());
    assert_eq!(rep.body.matches("(Answered above.)").count(), 999);
    assert!(rep.body.contains("Only the first 1000 commands of a mail are read: this line and the 8999 after it were not."), "{}", &rep.body[rep.body.len() - 400..]);
    // A mail of CREATEs makes at most ten games (each hashes a password).
    let body: String = (0..200).map(|k| format!("CREATE ?g{k} pw\n")).collect();
    let run = j.handle_raw(Mail::new(MASTER, "games", &body).raw().as_bytes());
    assert!(run.elapsed.as_secs() < 20, "{:?}", run.elapsed);
    let r = j.take();
    assert!(
        reply(&r)
            .body
            .contains("At most 10 sign-ons, CREATEs and password changes are read from one mail."),
        "{}",
        dump(&r)
    );
    assert_eq!(j.query_i64("SELECT count(*) FROM games"), 10);
}

#[test]
fn press_rules_and_no_reply_loops() {
    let mut j = TestJudge::new("press");
    started_game(&mut j, "np");
    j.take();
    // The Master makes it a no-press game.
    let r = master(&mut j, "np", "SET NO PRESS");
    assert!(reply(&r).body.contains("No press"), "{}", dump(&r));
    let r = orders(
        &mut j,
        "np",
        "F",
        "PRESS TO E\nLet us talk.\nENDPRESS\nBROADCAST\nHello all.\nENDPRESS\nPRESS TO M\nA question for the Master.\nENDPRESS",
    );
    let rep = reply(&r);
    assert!(rep.subject.starts_with("[Error Flag]"));
    assert_eq!(
        rep.body
            .matches("This is a no-press game: press may only go to the Master (PRESS TO M).")
            .count(),
        2,
        "{}",
        rep.body
    );
    assert!(
        rep.body.contains("Press sent to the Master."),
        "{}",
        rep.body
    );
    assert_eq!(r.len(), 2, "only the Master's press goes out: {}", dump(&r));
    let to_master = one_to(&r, MASTER);
    assert!(to_master.has_line("A question for the Master."));
    assert!(to(&r, addr_of("E")).is_empty());
    assert_eq!(j.query_i64("SELECT count(*) FROM press"), 1);
    // The Master may still broadcast.
    let r = master(&mut j, "np", "BROADCAST\nThe deadline stands.\nENDPRESS");
    assert_eq!(
        with_subject(&r, "Broadcast from the Master").len(),
        7,
        "{}",
        dump(&r)
    );

    // The judge's own mails fed back to it are dropped: its replies
    // (Auto-Submitted) and its mails to the game (from its own address).
    let queued = j.query_i64("SELECT count(*) FROM outbound");
    let own_reply = reply(&r).raw.clone();
    j.handle_raw(own_reply.as_bytes());
    let broadcast = r[1].raw.clone();
    j.handle_raw(broadcast.as_bytes());
    assert!(j.take().is_empty());
    assert_eq!(j.query_i64("SELECT count(*) FROM outbound"), queued);
    assert_eq!(j.inbound_status(&reply(&r).message_id).0, "dropped");
    let (status, note) = j.inbound_status(&r[1].message_id);
    assert_eq!(status, "dropped");
    assert!(note.unwrap().contains("judge itself"));
    // A player's vacation program answering the broadcast: dropped too.
    let vacation = Mail::new(
        addr_of("E"),
        &format!("Auto: {}", r[1].subject),
        "I am away. SIGNON Enp pw-bo\nF Lon - Eng",
    )
    .header("Auto-Submitted: auto-replied")
    .header(&format!("In-Reply-To: {}", r[1].message_id));
    assert!(j.send(&vacation).is_empty());
    assert_eq!(order_count(&j), 0);

    // The end: TERMINATE tells everyone; nothing is ordered after it.
    let r = master(&mut j, "np", "TERMINATE");
    assert!(
        reply(&r).body.contains("has been terminated"),
        "{}",
        dump(&r)
    );
    for a in everyone() {
        assert_eq!(
            one_to(&r[1..], a).subject,
            "JDG:np - S1901M Game terminated"
        );
    }
    let r = orders(&mut j, "np", "F", "A Par - Bur");
    assert!(reply(&r).body.contains("Game 'np' is over"), "{}", dump(&r));
    assert_eq!(order_count(&j), 0);
    assert_eq!(j.export("np")["state"], "terminated");
    let r = j.mail("someone@example.com", "LIST");
    assert!(!reply(&r).body.contains("np "), "{}", dump(&r));
    let r = j.mail("someone@example.com", "SUMMARY np");
    assert!(
        reply(&r).has_line("Result: Terminated by the Master."),
        "{}",
        dump(&r)
    );
}

#[test]
fn information_commands() {
    let mut j = TestJudge::new("info");
    // A fresh address each time: a stranger gets only a few replies an hour.
    let anyone = || format!("curious{}@example.com", unique());
    let r = j.mail(&anyone(), "LIST");
    assert!(
        reply(&r).body.contains("No games are forming or running."),
        "{}",
        dump(&r)
    );
    started_game(&mut j, "alpha");
    j.mail(MASTER, "CREATE ?beta bpass");
    j.mail("al@example.net", "SIGNON ?beta pw-x");
    j.take();

    // HELP and every help file.
    let r = j.mail(&anyone(), "HELP");
    let rep = reply(&r);
    assert_eq!(rep.subject, "JDG: orders");
    assert!(!rep.subject.contains("[Error Flag]"));
    assert!(rep.body.contains("HELP"), "{}", rep.body);
    assert!(rep.body.contains("SIGNON"), "{}", rep.body);
    check_reply_headers(rep, &rep.in_reply_to.clone().unwrap());
    for file in [
        "info",
        "syntax",
        "deadlines",
        "press",
        "master",
        "rules",
        "map",
    ] {
        let r = j.mail(&anyone(), &format!("GET {file}"));
        let rep = reply(&r);
        assert!(
            !rep.subject.contains("[Error Flag]"),
            "GET {file}: {}",
            rep.body
        );
        assert!(rep.body.len() > 500, "GET {file}: {}", rep.body);
        assert!(
            rep.body.contains(&file.to_ascii_uppercase()),
            "GET {file}: {}",
            rep.body
        );
    }
    let r = j.mail(&anyone(), "GET secrets");
    assert!(reply(&r).subject.starts_with("[Error Flag]"));
    assert!(reply(&r)
        .body
        .contains("There is no file 'secrets'. The files are:"));
    let r = j.mail(&anyone(), "GET ../../judge.toml");
    assert!(reply(&r).subject.starts_with("[Error Flag]"));
    assert!(!reply(&r).body.contains("[store]"));

    // VERSION.
    let r = j.mail(&anyone(), "version");
    assert!(
        reply(&r)
            .body
            .contains(&format!("judge {}", env!("CARGO_PKG_VERSION"))),
        "{}",
        dump(&r)
    );

    // LIST: both games, their state, phase and players.
    let r = j.mail(&anyone(), "LIST");
    let rep = reply(&r);
    let alpha = rep
        .body
        .lines()
        .find(|l| l.starts_with("alpha"))
        .expect(&rep.body);
    assert!(
        alpha.contains("active") && alpha.contains("S1901M") && alpha.contains("7 players"),
        "{alpha}"
    );
    let beta = rep
        .body
        .lines()
        .find(|l| l.starts_with("beta"))
        .expect(&rep.body);
    assert!(
        beta.contains("forming") && beta.contains("1 player"),
        "{beta}"
    );
    // LIST <game>: the powers, their units and centres, the deadline.
    let r = j.mail(&anyone(), "LIST alpha");
    let rep = reply(&r);
    assert!(rep.body.contains("Game 'alpha': active"), "{}", rep.body);
    assert!(rep.body.contains("Phase S1901M."), "{}", rep.body);
    assert!(
        rep.body
            .contains("Deadline: Thu Nov 05 2026 12:00 UTC, in "),
        "{}",
        rep.body
    );
    assert!(
        rep.body
            .lines()
            .any(|l| l.starts_with("France") && l.contains("3 centres: BRE MAR PAR")),
        "{}",
        rep.body
    );
    assert!(
        !rep.body.contains("cy@example.net"),
        "addresses are not listed"
    );
    let r = j.mail(&anyone(), "LIST beta");
    assert!(
        reply(&r).body.contains("1 of 7 players have joined."),
        "{}",
        dump(&r)
    );
    let r = j.mail(&anyone(), "LIST gamma");
    assert!(
        reply(&r).body.contains("There is no game named 'gamma'"),
        "{}",
        dump(&r)
    );

    // HISTORY: empty, then with a result; the date bounds.
    let r = j.mail(&anyone(), "HISTORY alpha");
    assert!(
        reply(&r).body.contains("Nothing in the archive of 'alpha'"),
        "{}",
        dump(&r)
    );
    master(&mut j, "alpha", "PROCESS");
    let r = j.mail(&anyone(), "HISTORY alpha");
    let rep = reply(&r);
    assert!(
        rep.body.contains("The archive of 'alpha': 1 mail."),
        "{}",
        rep.body
    );
    assert!(
        rep.body.contains("=== JDG:alpha - S1901M Results"),
        "{}",
        rep.body
    );
    assert!(
        rep.body.contains(":: Judge: JDG  Game: alpha"),
        "{}",
        rep.body
    );
    let r = j.mail(&anyone(), "HISTORY alpha FROM 2026-12-01");
    assert!(
        reply(&r).body.contains("Nothing in the archive"),
        "{}",
        dump(&r)
    );
    let r = j.mail(&anyone(), "HISTORY alpha FROM 2026-11-01 TO 2026-11-30");
    assert!(reply(&r).body.contains("1 mail."), "{}", dump(&r));
    let r = j.mail(&anyone(), "HISTORY alpha FROM yesterday");
    assert!(
        reply(&r).subject.starts_with("[Error Flag]"),
        "{}",
        dump(&r)
    );

    // SUMMARY: who plays what, centres by year.
    let r = j.mail(&anyone(), "SUMMARY alpha");
    let rep = reply(&r);
    assert!(
        rep.body.contains("Summary of 'alpha' (standard, active)."),
        "{}",
        rep.body
    );
    assert!(
        rep.body.contains("Austria  S1901M-now (1 player)"),
        "{}",
        rep.body
    );
    assert!(
        !rep.body.contains("al@example.net"),
        "addresses stay private"
    );
    assert!(
        rep.body
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>()
                == ["1901", "3", "3", "3", "3", "3", "4", "3"]),
        "{}",
        rep.body
    );
    let r = j.mail(&anyone(), "SUMMARY beta");
    assert!(
        reply(&r).body.contains("(no powers assigned yet)"),
        "{}",
        dump(&r)
    );

    // Several in one mail, each answered in turn; a malformed one explained.
    let r = j.mail(&anyone(), "VERSION\nLIST\nGET\nSUMMARY");
    let rep = reply(&r);
    assert!(
        rep.body.contains("> GET\n*** Write it as: GET <file>"),
        "{}",
        rep.body
    );
    assert!(
        rep.body
            .contains("> SUMMARY\n*** Write it as: SUMMARY <game>"),
        "{}",
        rep.body
    );
    assert!(rep.body.find("> VERSION").unwrap() < rep.body.find("> LIST").unwrap());
}

#[test]
fn players_habits() {
    let mut j = TestJudge::new("habits");
    started_game(&mut j, "hab");
    j.take();
    let cy = "cy@example.net";

    // Lower case, several orders on a line, SIGNOFF ending the mail.
    let r = j.mail(
        cy,
        "signon fhab pw-cy\na par-bur, a mar-spa; f bre-mao\nset wait\nsignoff\nA Par - Pic",
    );
    let rep = reply(&r);
    assert!(!rep.subject.contains("[Error Flag]"), "{}", rep.body);
    assert!(rep.has_line("Army Paris -> Burgundy."), "{}", rep.body);
    assert!(rep.has_line("Army Marseilles -> Spain."), "{}", rep.body);
    assert!(
        rep.has_line("Fleet Brest -> Mid-Atlantic Ocean."),
        "{}",
        rep.body
    );
    assert!(rep.has_line("Status: complete."), "{}", rep.body);
    assert!(
        rep.has_line("WAIT is set: the phase will not be processed before the deadline."),
        "{}",
        rep.body
    );
    assert!(!rep.body.contains("Picardy"));

    // Passwords are case-sensitive; SET PASSWORD changes it.
    let r = j.mail(cy, "SIGNON Fhab PW-CY\nA Par H");
    assert!(reply(&r).body.contains("Sign-on failed"), "{}", dump(&r));
    let r = j.mail(cy, "SIGNON Fhab pw-cy\nSET PASSWORD n3w-secret");
    assert!(
        reply(&r).body.contains("Your password is changed."),
        "{}",
        dump(&r)
    );
    assert!(!reply(&r).body.contains("n3w-secret"), "{}", dump(&r));
    let r = j.mail(cy, "SIGNON Fhab pw-cy\nA Par H");
    assert!(reply(&r).body.contains("Sign-on failed"), "{}", dump(&r));
    let r = j.mail(cy, "SIGNON Fhab n3w-secret\nA Par H");
    assert!(reply(&r).has_line("Army Paris HOLD."), "{}", dump(&r));

    // Joining a running game; a player giving Master commands; a wrong
    // Master password.
    let r = j.mail("late@example.net", "SIGNON ?hab latepw");
    assert!(
        reply(&r)
            .body
            .contains("has started and no power in it is waiting for a player"),
        "{}",
        dump(&r)
    );
    let r = orders(&mut j, "hab", "E", "PROCESS\nSET DEADLINE 2026-12-01 12:00");
    assert_eq!(
        reply(&r)
            .body
            .matches("Only the game's Master may do that")
            .count(),
        2,
        "{}",
        dump(&r)
    );
    let r = j.mail(MASTER, "SIGNON Mhab wrong\nPROCESS");
    assert!(reply(&r).body.contains("Sign-on failed"), "{}", dump(&r));
    assert!(!reply(&r).body.contains("processed"), "{}", dump(&r));
    assert_eq!(phase_names(&j.export("hab")), ["S1901M"]);

    // An observer receives the results too; the Master's PROCESS.
    let r = j.mail("watcher@example.org", "OBSERVE hab watchpw");
    assert!(
        reply(&r).body.contains("You now observe 'hab'"),
        "{}",
        dump(&r)
    );
    let r = master(&mut j, "hab", "PROCESS");
    let results = with_subject(&r, "JDG:hab - S1901M Results");
    assert_eq!(results.len(), 9, "seven players, the Master, the observer");
    assert_eq!(to(&r, "watcher@example.org").len(), 1);
    assert!(
        results[0].has_line("France:  Army Paris HOLD."),
        "{}",
        results[0].body
    );
}

/// Orders as the rulebook writes them, by mail: the one meaning followed
/// and said ("Read as"), two meanings refused naming both, no arrow.
#[test]
fn orders_read_as_the_rulebook_writes_them() {
    let mut j = TestJudge::new("rulebook");
    started_game(&mut j, "rb");
    j.take();
    let r = orders(&mut j, "rb", "I", "F Nap - Tyr\nA Ven - Tyr\nA Rom Apu");
    let rep = reply(&r);
    assert!(!rep.subject.contains("[Error Flag]"), "{}", rep.body);
    assert!(
        rep.body
            .contains("> F Nap - Tyr\nRead as: Fleet Naples -> Tyrrhenian Sea."),
        "{}",
        rep.body
    );
    assert!(
        rep.has_line("Fleet Naples -> Tyrrhenian Sea."),
        "{}",
        rep.body
    );
    assert!(rep.has_line("Army Venice -> Tyrolia."), "{}", rep.body);
    assert!(rep.has_line("Army Rome -> Apulia."), "{}", rep.body);
    assert!(!rep.body.contains("> A Ven - Tyr"), "{}", rep.body);
    let mut italy = stored_orders(&j, "rb", "ITALY");
    italy.sort();
    assert_eq!(italy, ["A ROM - APU", "A VEN - TYR", "F NAP - TYS"]);

    let r = orders(&mut j, "rb", "E", "F Edi - Nor Sea\nF Lon - N. Sea");
    let rep = reply(&r);
    assert!(rep.subject.contains("[Error Flag]"), "{}", rep.body);
    assert!(
        rep.body.contains(
            "> F Edi - Nor Sea\n*** F Edi - Nor Sea: 'Nor Sea' could be North Sea or Norwegian Sea."
        ),
        "{}",
        rep.body
    );
    assert!(
        rep.body
            .contains("> F Lon - N. Sea\nRead as: Fleet London -> North Sea."),
        "{}",
        rep.body
    );
    assert_eq!(stored_orders(&j, "rb", "ENGLAND"), ["F LON - NTH"]);
}

/// No reply shows a password, whether its command was understood or not:
/// passwords of several words, malformed sign-ons, CREATE with a variant,
/// SET PASSWORD with spaces.
#[test]
fn replies_never_show_a_password() {
    let mut j = TestJudge::new("echoes");
    started_game(&mut j, "ec");
    j.take();
    let secret_lines = [
        "SIGNON Fec my hidden phrase",
        "SIGN ON Fec hidden",
        "CREATE ?eg2 hidden standard",
        "CREATE ?eg3 hidden words here",
        "OBSERVE ec hidden words",
    ];
    for line in secret_lines {
        let r = j.mail("stranger@example.net", line);
        assert!(!dump(&r).contains("hidden"), "{line}: {}", dump(&r));
    }
    let r = orders(&mut j, "ec", "F", "SET PASSWORD two hidden words");
    assert!(!dump(&r).contains("hidden"), "{}", dump(&r));
    assert!(
        reply(&r).body.contains("> SET PASSWORD ****"),
        "{}",
        dump(&r)
    );
}

/// A BROADCAST without ENDPRESS runs to the end of the mail, but not over
/// a line holding a password: the players' copies stop before `SET
/// PASSWORD`, which is read as a command (the password changes), and the
/// reply says where the message was taken to end.
#[test]
fn unclosed_press_stops_before_a_password_line() {
    let mut j = TestJudge::new("unclosed");
    started_game(&mut j, "uc");
    j.take();
    let r = orders(
        &mut j,
        "uc",
        "F",
        "BROADCAST\nPeace in our time.\nSET PASSWORD n3w-secret\nA Par - Bur",
    );
    let rep = reply(&r);
    assert!(
        rep.body.contains("Broadcast sent to everyone."),
        "{}",
        dump(&r)
    );
    assert!(
        rep.body.contains(
            "(No ENDPRESS line: the message was taken to end before the line \
             \"SET PASSWORD ****\", which holds a password and was read as a command, \
             as were the lines after it.)"
        ),
        "{}",
        rep.body
    );
    assert!(
        rep.body.contains("Your password is changed."),
        "{}",
        rep.body
    );
    assert!(rep.has_line("Army Paris -> Burgundy."), "{}", rep.body);
    assert!(!dump(&r).contains("n3w-secret"), "{}", dump(&r));
    let others: Vec<&str> = everyone()
        .into_iter()
        .filter(|a| *a != addr_of("F"))
        .collect();
    for a in &others {
        let b = one_to(&r[1..], a);
        assert!(b.has_line("Peace in our time."), "{}", b.body);
        assert!(!b.body.contains("PASSWORD"), "{}", b.body);
        assert!(!b.body.contains("Par"), "{}", b.body);
    }
    assert_eq!(r.len(), 1 + others.len());
    let r = j.mail(addr_of("F"), "SIGNON Fuc n3w-secret\nA Par H");
    assert!(reply(&r).has_line("Army Paris HOLD."), "{}", dump(&r));
}

/// The peak memory (KiB) of `judge handle` fed `header` and then `filler`
/// until at least `size` bytes (it must exit 0): the bytes written, and the
/// memory (None when GNU time is not there to measure it).
fn handle_streamed(
    j: &TestJudge,
    header: &[u8],
    filler: &[u8],
    size: usize,
) -> (usize, Option<u64>) {
    let time = std::path::Path::new("/usr/bin/time");
    let judge = env!("CARGO_BIN_EXE_judge");
    let config = j.config();
    let mut command = if time.exists() {
        let mut c = std::process::Command::new(time);
        c.args(["-f", "peak-kib %M", judge]);
        c
    } else {
        std::process::Command::new(judge)
    };
    let mut child = command
        .arg("--config")
        .arg(&config)
        .args(["handle", "--now", &j.now])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let (header, filler) = (header.to_vec(), filler.to_vec());
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        input.write_all(&header)?;
        let mut written = header.len();
        while written < size {
            input.write_all(&filler)?;
            written += filler.len();
        }
        Ok::<_, std::io::Error>(written)
    });
    let out = child.wait_with_output().unwrap();
    let written = writer.join().unwrap().expect("the whole mail was taken");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let peak = stderr
        .lines()
        .find_map(|l| l.strip_prefix("peak-kib "))
        .map(|kib| kib.trim().parse().unwrap());
    (written, peak)
}

#[test]
fn a_huge_mail_is_read_only_up_to_the_limit_and_stored_cut_short() {
    let mut j = TestJudge::new("huge");
    started_game(&mut j, "huge");
    j.take();
    let cy = "cy@example.net";
    let db_before = std::fs::metadata(j.db_path()).unwrap().len();
    let mail = Mail::new(cy, "huge", "SIGNON Fhuge pw-cy\nA Par - Bur\n");
    let (size, peak) = handle_streamed(
        &j,
        mail.raw().as_bytes(),
        "A Mar - Spa and a great deal more text to make it big enough\n"
            .repeat(1000)
            .as_bytes(),
        200 * 1024 * 1024,
    );
    eprintln!("peak memory of a 200 MB mail: {peak:?} KiB");
    if let Some(kib) = peak {
        assert!(kib < 64 * 1024, "{kib} KiB");
    }
    let r = j.take();
    assert_eq!(r.len(), 1, "{}", dump(&r));
    let rep = reply(&r);
    assert!(rep.subject.starts_with("[Error Flag]"), "{}", rep.subject);
    assert!(
        rep.body.contains(&format!("Your mail is {} bytes", size)),
        "{}",
        rep.body
    );
    assert!(
        rep.body.contains("over this judge's limit of 262144 bytes"),
        "{}",
        rep.body
    );
    assert_eq!(order_count(&j), 0);
    assert_eq!(j.inbound_status(&mail.message_id).0, "handled");
    let stored: Vec<u8> = j.stored_raw(&mail.message_id);
    // Never read, so its password could not be found: only its header
    // block is kept, with a note.
    assert!(stored.len() < 4 * 1024, "{}", stored.len());
    let stored = String::from_utf8_lossy(&stored);
    let note = format!("header of this mail of {size} bytes: it was over the size limit");
    assert!(stored.contains(&note), "{stored}");
    assert!(!stored.contains("pw-cy"), "{stored}");
    assert!(!stored.contains("A Mar - Spa"), "{stored}");
    let db_after = std::fs::metadata(j.db_path()).unwrap().len();
    assert!(
        db_after < db_before + 4 * 1024 * 1024,
        "{db_before} -> {db_after}"
    );
}

#[test]
fn replies_refer_to_the_last_ten_references_only() {
    let mut j = TestJudge::new("refs");
    // As many as fit in a mail within the size limit.
    let references = (0..8_000)
        .map(|k| format!("<r{k}@players.example>"))
        .collect::<Vec<_>>()
        .join(" ");
    let mail =
        Mail::new("ann@example.com", "help", "HELP").header(&format!("References: {references}"));
    let r = j.send(&mail);
    let rep = reply(&r);
    assert_eq!(rep.references.len(), 10, "{:?}", rep.references);
    assert_eq!(rep.references.last(), Some(&mail.message_id));
    assert!(rep
        .references
        .contains(&"<r7999@players.example>".to_string()));
    let header_len = rep.raw.find("\r\n\r\n").unwrap_or(rep.raw.len());
    assert!(header_len < 4_000, "{header_len}");
}

#[test]
fn an_observer_is_told_how_to_stop_and_stops_without_a_password() {
    let mut j = TestJudge::new("unobserve");
    started_game(&mut j, "uo");
    j.take();
    let watcher = "watcher@example.org";
    // Someone else made this address an observer, with a password its
    // owner does not know.
    let r = j.mail(watcher, "OBSERVE uo forged-pw");
    let stop = "You observe 'uo': mail UNOBSERVE uo to stop.";
    assert!(one_to(&r, watcher).has_line(stop), "{}", dump(&r));
    let r = master(&mut j, "uo", "PROCESS");
    let to_watcher = to(&r, watcher);
    assert_eq!(to_watcher.len(), 1, "{}", dump(&r));
    assert!(to_watcher[0].has_line(stop), "{}", to_watcher[0].body);
    for player in to(&r, addr_of("F")) {
        assert!(!player.body.contains("UNOBSERVE"), "{}", player.body);
    }

    // A stranger cannot remove the observer.
    let r = j.mail("stranger@example.com", "UNOBSERVE uo");
    assert!(
        reply(&r).body.contains("You do not observe 'uo'"),
        "{}",
        dump(&r)
    );
    let r = j.mail(watcher, "UNOBSERVE uo");
    assert!(
        reply(&r).body.contains("You no longer observe 'uo'."),
        "{}",
        dump(&r)
    );
    let r = master(&mut j, "uo", "PROCESS");
    assert!(to(&r, watcher).is_empty(), "{}", dump(&r));
    let r = j.mail("ann@example.com", "HELP");
    assert!(reply(&r).body.contains("UNOBSERVE <game>"), "{}", dump(&r));
}

#[test]
fn five_failed_sign_ons_lock_out_the_guesser_never_the_owner() {
    let mut j = TestJudge::new("lockout");
    started_game(&mut j, "lo");
    j.take();
    let france = addr_of("F");
    // Germany's player guesses France's password (a stranger's replies
    // are few an hour anyway; a player's are not).
    let guesser = addr_of("G");
    let notice = "JDG:lo - Sign-ons locked";
    for k in 0..5 {
        let r = j.mail(guesser, &format!("SIGNON Flo guess-{k}\nA Par - Bur"));
        let rep = one_to(&r, guesser);
        assert!(rep.body.contains("Sign-on failed"), "{}", dump(&r));
        let told = with_subject(&r, notice);
        if k < 4 {
            assert!(told.is_empty(), "{}", dump(&r));
        } else {
            assert_eq!(told.len(), 1, "{}", dump(&r));
            assert!(told[0].is_to(france));
            assert!(told[0].body.contains(guesser), "{}", told[0].body);
        }
    }
    // The guesser is locked out: even the right password is refused,
    // unchecked, and the reply says no more than that, once.
    let right = format!("SIGNON Flo {}\nA Par - Bur", password_of("F"));
    let r = j.mail(guesser, &right);
    let rep = one_to(&r, guesser);
    assert!(
        rep.body.contains("refused unchecked for an hour"),
        "{}",
        rep.body
    );
    assert!(!rep.body.contains("Signed on"), "{}", rep.body);
    assert_eq!(order_count(&j), 0);
    let r = j.mail(guesser, "SIGNON Flo guess-9");
    assert!(r.is_empty(), "no more replies to the guesser: {}", dump(&r));
    // The owner, from the address of record, is never refused; another
    // address of the player's is not locked either.
    let r = orders(&mut j, "lo", "F", "A Par - Bur");
    assert!(reply(&r).body.contains("Signed on"), "{}", dump(&r));
    let elsewhere = "france.at.work@example.com";
    let r = j.mail(elsewhere, &right);
    assert!(
        one_to(&r, elsewhere).body.contains("Signed on"),
        "{}",
        dump(&r)
    );
    // An hour later the guesser may try again.
    j.now = at(1);
    let r = j.mail(guesser, &right);
    assert!(
        one_to(&r, guesser).body.contains("Signed on"),
        "{}",
        dump(&r)
    );
    // The Master's password is guarded the same way; the Master is told
    // what a Master can do (SET PASSWORD is a player's).
    let mut told = Vec::new();
    for _ in 0..6 {
        let r = j.mail("m@example.com", "SIGNON Mlo wrong\nPROCESS");
        told.extend(with_subject(&r, notice).into_iter().cloned());
    }
    assert_eq!(told.len(), 1, "told once");
    assert!(told[0].is_to(MASTER));
    assert!(
        told[0].body.contains(
            "someone may be guessing your password: tell the judgekeeper, as a Master's \
             password cannot be changed by mail."
        ),
        "{}",
        told[0].body
    );
    assert!(!told[0].body.contains("SET PASSWORD"), "{}", told[0].body);
    let r = master(&mut j, "lo", "PREDICT");
    assert!(reply(&r).body.contains("Signed on"), "{}", dump(&r));
}

#[test]
fn an_address_that_never_signed_on_gets_a_few_replies_an_hour() {
    let mut j = TestJudge::new("strangers");
    started_game(&mut j, "st");
    j.take();
    let victim = "victim@example.org";
    let mut ids = Vec::new();
    for k in 0..8 {
        let mail = Mail::new(victim, "help", "HELP");
        ids.push(mail.message_id.clone());
        let r = j.send(&mail);
        assert_eq!(
            to(&r, victim).len(),
            usize::from(k < 5),
            "mail {k}: {}",
            dump(&r)
        );
    }
    // Stored and handled all the same.
    for id in &ids {
        assert_eq!(j.inbound_status(id).0, "handled");
    }
    // A player is answered whatever the count.
    for _ in 0..8 {
        let r = orders(&mut j, "st", "F", "A Par - Bur");
        assert_eq!(to(&r, addr_of("F")).len(), 1, "{}", dump(&r));
    }
    // An hour later the stranger is answered again.
    j.now = at(1);
    let r = j.mail(victim, "HELP");
    assert_eq!(to(&r, victim).len(), 1, "{}", dump(&r));
}

#[test]
fn passwords_are_redacted_from_the_stored_mail_once_handled() {
    let mut j = TestJudge::new("redact");
    let forms = [
        ("CREATE ?rd create-secret", "create-secret"),
        (
            "SIGNON Mrd create-secret\nSET PASSWORD new-master-secret",
            "new-master-secret",
        ),
        ("OBSERVE rd watch-secret", "watch-secret"),
        ("SIGN ON Mrd wrong-guess", "wrong-guess"),
        ("SIGNON Frd not valid at all", "valid"),
    ];
    for (body, secret) in forms {
        let mail = Mail::new("ann@example.com", "pw", body);
        j.send(&mail);
        let stored: Vec<u8> = j.stored_raw(&mail.message_id);
        let stored = String::from_utf8_lossy(&stored);
        assert!(!stored.contains(secret), "{body}: {stored}");
        assert!(stored.contains(&"*".repeat(secret.len())), "{stored}");
    }
    // The passwords still work: only the stored copy was changed.
    let r = j.mail("ann@example.com", "SIGNON Mrd create-secret\nLIST rd");
    assert!(reply(&r).body.contains("Signed on"), "{}", dump(&r));
}
