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

/// The phase processed by the Master: its results, on one line.
fn processed(j: &mut TestJudge, game: &str, phase: &str) -> String {
    let r = as_master(j, game, "PROCESS");
    results(&r, game, phase).body.replace('\n', " ")
}

/// Each power's vote, mailed; none refused.
fn votes(j: &mut TestJudge, game: &str, votes: &[(char, &str)]) {
    for &(p, vote) in votes {
        let r = as_power(j, game, p, vote);
        assert!(!r.subject.contains("[Error Flag]"), "{}", r.body);
    }
}

/// A draw vote counts for the phase it is given in (njudge's `draws`):
/// the votes are cleared when the phase is processed.
#[test]
fn draw_votes_count_for_one_phase() {
    let mut j = TestJudge::new("shows-dias");
    full_game(&mut j, "dias");
    let all: Vec<(char, &str)> = SEVEN.chars().map(|p| (p, "SET DRAW")).collect();
    votes(&mut j, "dias", &all);
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
    let spring = processed(&mut j, "dias", "S1901M");
    assert!(!spring.contains("declared a draw"), "{spring}");
    // Turkey votes in the next phase: the six other votes were cleared.
    let r = as_power(&mut j, "dias", 'T', "SET DRAW");
    assert!(
        r.body.contains("It counts for this phase") && r.body.contains("votes are cleared"),
        "{}",
        r.body
    );
    let fall = processed(&mut j, "dias", "F1901M");
    assert!(!fall.contains("declared a draw"), "{fall}");
    // Everyone votes in one phase: the draw passes.
    votes(&mut j, "dias", &all);
    let next = j.export("dias")["phases"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()["phase"]
        .as_str()
        .unwrap()
        .to_string();
    let body = processed(&mut j, "dias", &next);
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
    // njudge's third example, with four more survivors who leave
    // themselves out: France accepts a draw without itself, so Austria
    // and England draw although England would have had France.
    let draw = [
        ('A', "SET DRAW AE"),
        ('E', "SET DRAW Austria England France"),
        ('F', "SET DRAW A, E"),
        ('G', "SET DRAW AEF"),
        ('I', "SET DRAW AEF"),
        ('R', "SET DRAW AEF"),
    ];
    votes(&mut j, "named", &draw);
    // Turkey has not voted: no draw, and the votes are cleared.
    let spring = processed(&mut j, "named", "S1901M");
    assert!(!spring.contains("declared a draw"), "{spring}");
    votes(&mut j, "named", &[('T', "SET DRAW AEF")]);
    let fall = processed(&mut j, "named", "F1901M");
    assert!(!fall.contains("declared a draw"), "{fall}");
    // All in one phase: Turkey's list leaves Turkey out, so it approves
    // Austria and England too.
    votes(&mut j, "named", &draw);
    let r = as_power(&mut j, "named", 'T', "SET DRAW AEF");
    assert!(
        r.body
            .contains("It approves any part of the list that includes you"),
        "{}",
        r.body
    );
    let next = j.export("named")["phases"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()["phase"]
        .as_str()
        .unwrap()
        .to_string();
    let body = processed(&mut j, "named", &next);
    assert!(
        body.contains("declared a draw between Austria and England."),
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
