//! What a game shows its players and Master (issue 12, items 5 and 8 and
//! the draws): LIST <game>, the replies' subjects, the draw votes. Played
//! by mail against a real judge.

mod common;

use common::*;

const GM: &str = "gm@example.org";
const SEVEN: &str = "AEFGIRT";

fn addr(initial: char) -> String {
    format!("p{}@example.net", initial.to_ascii_lowercase())
}

/// `name` created by GM and joined by seven players, each getting the
/// power of their initial: S1901M is current.
fn full_game(j: &mut TestJudge, name: &str) {
    j.mail(GM, &format!("CREATE ?{name} gmpw"));
    for p in SEVEN.chars() {
        let r = j.mail(
            &addr(p),
            &format!("SIGNON ?{name} pw{p}\nSET PREFERENCE {p}"),
        );
        assert!(!r[0].subject.contains("[Error Flag]"), "{}", dump(&r));
    }
}

/// A mail from power `p` of `game`: the reply.
fn as_power(j: &mut TestJudge, game: &str, p: char, lines: &str) -> Sent {
    let mut r = j.mail(&addr(p), &format!("SIGNON {p}{game} pw{p}\n{lines}"));
    r.remove(0)
}

fn as_master(j: &mut TestJudge, game: &str, lines: &str) -> Vec<Sent> {
    j.mail(GM, &format!("SIGNON M{game} gmpw\n{lines}"))
}

#[test]
fn list_shows_every_setting_and_who_has_ordered() {
    let mut j = TestJudge::new("shows-list");
    full_game(&mut j, "lst");
    as_power(&mut j, "lst", 'F', "A Par - Bur\nA Mar H\nF Bre - Mao");
    let r = j.mail("someone@example.com", "LIST lst");
    let body = &r[0].body;
    for wanted in [
        "Game 'lst': active, variant standard.",
        "Press: white, to the whole game or to chosen powers (partial allowed)",
        "NMR: at the end of grace the orders given are carried out (units without orders \
         hold); a power that gave none is in civil disorder",
        "Movement deadlines:",
        "grace ",
        "Retreat deadlines:",
        "Adjustment deadlines:",
        "End: when one power holds a majority of supply centres",
        "Draw rule: DIAS",
        "Deadline: ",
        "Grace ends: ",
        "France   playing",
    ] {
        assert!(body.contains(wanted), "{wanted:?} missing:\n{body}");
    }
    assert!(!body.contains("has ordered"), "{body}");
    assert!(!body.contains('_'), "a raw value: {body}");

    // The Master sees who has ordered; after PAUSE, no deadline.
    // (One SET a mail: several in one mail are another part of issue 12.)
    for set in ["SET GREY", "SET NONMR", "SET END 1905"] {
        let r = as_master(&mut j, "lst", set);
        assert!(!r[0].subject.contains("[Error Flag]"), "{}", dump(&r));
    }
    let r = as_master(&mut j, "lst", "PAUSE\nLIST lst");
    let body = &r[0].body;
    let list = &body[body.find("> LIST lst").expect(body)..];
    for wanted in [
        "paused by the Master",
        "No deadline while the game is paused.",
        "Press: white and grey",
        "No NMR",
        "End: a short game, ending when 1905 is over (after its Winter builds and removals); the most pieces on the board then wins.",
    ] {
        assert!(list.contains(wanted), "{wanted:?} missing:\n{list}");
    }
    assert!(
        !list.contains("Deadline: ") && !list.contains("Grace ends"),
        "{list}"
    );
    let france = list.find("France").expect(list);
    assert!(
        list[france..]
            .lines()
            .nth(2)
            .unwrap()
            .contains("has ordered"),
        "{list}"
    );
    let germany = list.find("Germany").expect(list);
    assert!(
        list[germany..]
            .lines()
            .nth(2)
            .unwrap()
            .contains("has not ordered"),
        "{list}"
    );
}

/// A mail from power `p` with its own subject: the reply.
fn as_power_titled(j: &mut TestJudge, game: &str, p: char, subject: &str, lines: &str) -> Sent {
    let mail = Mail::new(
        &addr(p),
        subject,
        &format!("SIGNON {p}{game} pw{p}\n{lines}"),
    );
    j.send(&mail).remove(0)
}

#[test]
fn a_reply_to_a_judge_mail_is_titled_by_what_it_answers() {
    let mut j = TestJudge::new("shows-subject");
    full_game(&mut j, "sub");
    as_master(&mut j, "sub", "PROCESS");
    // (the subject written, the mail's lines, the reply's subject)
    let cases = [
        // Orders (one of them wrong) in a reply to the results of S1901M.
        (
            "Re: JDG:sub - S1901M Results",
            "F Lon - Nth\nA Lvp - Mos",
            "[Error Flag] JDG:sub - F1901M Orders",
        ),
        (
            "Re: JDG:sub - S1901M Results",
            "F Lon H",
            "JDG:sub - F1901M Orders",
        ),
        // A reply to a notice, without orders: a reply.
        (
            "Re: JDG:sub - F1901M Reminder",
            "LIST sub",
            "JDG:sub - F1901M Reply",
        ),
        // Orders in a reply to the pre-orders mail, or to any other
        // notice of the judge's, are titled orders too.
        (
            "Re: JDG:sub - F1901M Pre-orders",
            "F Lon H",
            "JDG:sub - F1901M Orders",
        ),
        (
            "Re: JDG:sub - Absence",
            "F Lon H",
            "JDG:sub - F1901M Orders",
        ),
        (
            "Re: JDG:sub - F1901M paused",
            "F Lon H",
            "JDG:sub - F1901M Orders",
        ),
        (
            "Re: JDG:sub - F1901M England needs a player",
            "F Lon H",
            "JDG:sub - F1901M Orders",
        ),
        // The player's own words stay.
        (
            "Re: JDG:sub - F1901M my moves",
            "F Lon H",
            "JDG:sub - F1901M my moves",
        ),
    ];
    for (subject, lines, expected) in cases {
        let r = as_power_titled(&mut j, "sub", 'E', subject, lines);
        assert_eq!(r.subject, expected, "{}", r.body);
    }

    // ROLLBACK says in words how many phases it removed.
    let r = as_master(&mut j, "sub", "ROLLBACK S1901M");
    assert!(
        r[0].body
            .contains("rolled back to the start of S1901M (the one phase after it is removed)"),
        "{}",
        dump(&r)
    );
    assert!(!r[0].body.contains("(s)"), "{}", dump(&r));
    // HISTORY counts its mails in words.
    let r = j.mail("x@example.com", "HISTORY sub");
    assert!(
        r[0].body.contains("The archive of 'sub': 2 mails."),
        "{}",
        r[0].body
    );
}

/// The results mail of `phase` as Austria gets it.
fn results<'a>(mails: &'a [Sent], game: &str, phase: &str) -> &'a Sent {
    let subject = format!("JDG:{game} - {phase} Results");
    mails
        .iter()
        .find(|m| m.subject == subject && m.is_to(&addr('A')))
        .unwrap_or_else(|| panic!("no {subject}:\n{}", dump(mails)))
}

/// S1901M processed without a draw; Turkey votes `vote` (the reply
/// `says` so); F1901M processed: its results, on one line.
fn no_draw_until_turkey_votes(j: &mut TestJudge, game: &str, vote: &str, says: &str) -> String {
    let r = as_master(j, game, "PROCESS");
    let spring = &results(&r, game, "S1901M").body;
    assert!(!spring.contains("declared a draw"), "{spring}");
    let r = as_power(j, game, 'T', vote);
    assert!(r.body.contains(says), "{}", r.body);
    let r = as_master(j, game, "PROCESS");
    results(&r, game, "F1901M").body.replace('\n', " ")
}

#[test]
fn draw_votes_stand_until_withdrawn() {
    let mut j = TestJudge::new("shows-dias");
    full_game(&mut j, "dias");
    for p in SEVEN.chars() {
        as_power(&mut j, "dias", p, "SET DRAW");
    }
    let r = as_power(&mut j, "dias", 'T', "SET NODRAW");
    assert!(
        r.body.contains("Your draw vote is withdrawn."),
        "{}",
        r.body
    );
    // A DIAS game: naming powers is refused, with the form to write.
    let r = as_power(&mut j, "dias", 'E', "SET DRAW EFR");
    assert!(r.subject.starts_with("[Error Flag]"), "{}", r.subject);
    assert!(
        r.body.contains("draws by DIAS") && r.body.contains("Write SET DRAW."),
        "{}",
        r.body
    );
    // Only Turkey votes again: the six other votes stood.
    let body = no_draw_until_turkey_votes(
        &mut j,
        "dias",
        "SET DRAW",
        "It stands until you withdraw it",
    );
    assert!(
        body.contains(
            "declared a draw between Austria, England, France, Germany, Italy, Russia and Turkey."
        ),
        "{body}"
    );
}

#[test]
fn a_draw_of_named_powers_when_the_master_sets_nodias() {
    let mut j = TestJudge::new("shows-nodias");
    full_game(&mut j, "named");
    let r = as_master(&mut j, "named", "SET NODIAS");
    assert!(
        r[0].body.contains("Draws name their powers"),
        "{}",
        dump(&r)
    );
    let list = j.mail("x@example.com", "LIST named").remove(0).body;
    let rule = "Draw rule: a draw of the powers the votes name";
    assert!(list.contains(rule), "{list}");
    let r = as_power(&mut j, "named", 'A', "SET DRAW E, Xanadu");
    assert!(r.body.contains("is not a list of powers"), "{}", r.body);
    let r = as_power(&mut j, "named", 'A', "SET DRAW F");
    assert!(r.body.contains("write SET CONCEDE France"), "{}", r.body);
    for (p, vote) in [
        ('A', "SET DRAW EFR"),
        ('E', "SET DRAW England France Russia"),
        ('F', "SET DRAW R F E"),
        ('G', "SET DRAW EFR"),
        ('I', "SET DRAW EFR"),
        ('R', "SET DRAW EFR"),
        ('T', "SET DRAW EF"),
    ] {
        let r = as_power(&mut j, "named", p, vote);
        assert!(!r.subject.contains("[Error Flag]"), "{}", r.body);
    }
    // Turkey's vote names another set: no draw, until it votes again.
    let body = no_draw_until_turkey_votes(
        &mut j,
        "named",
        "SET DRAW EFR",
        "a draw between England, France and Russia",
    );
    assert!(
        body.contains("declared a draw between England, France and Russia."),
        "{body}"
    );
    assert_eq!(j.export("named")["state"], "finished");
}

/// `LIST FULL` is njudge's list of every game with its players, answered
/// with the judge's forms; but a game that is really named "full" is
/// listed, as LIST <game> lists any other.
#[test]
fn list_full_lists_a_game_named_full() {
    let mut j = TestJudge::new("list-full");
    let r = j.mail("someone@example.net", "LIST FULL");
    assert!(
        r[0].body.contains("LIST FULL is not offered"),
        "{}",
        dump(&r)
    );
    j.mail(GM, "CREATE ?full gmpw");
    let r = j.mail("someone@example.net", "LIST FULL");
    assert!(r[0].body.contains("Game 'full': forming"), "{}", dump(&r));
}
