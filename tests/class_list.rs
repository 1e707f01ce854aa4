//! A class's list address and a teacher's overview, by mail through the
//! real binary: the Master names an observer address (SET OBSERVER
//! <address>), which confirms before it gets anything, then gets what goes
//! to the whole game (the start, results, press to everyone, the end) and
//! never press to some powers nor anyone's orders; SET NO OBSERVER takes
//! it away; LIST counts observers. LIST MINE gives a Master's games a line
//! each, and who has not ordered only where the password was given.

mod common;

use common::*;

const MASTER: &str = "teacher@school.example";
const LIST: &str = "class-7b@lists.school.example";

/// The seven players and the power each asks for first (distinct, so the
/// draw is known).
const PLAYERS: [(&str, &str); 7] = [
    ("al@school.example", "A"),
    ("bo@school.example", "E"),
    ("cy@school.example", "F"),
    ("di@school.example", "G"),
    ("ed@school.example", "I"),
    ("fa@school.example", "R"),
    ("gu@school.example", "T"),
];

fn addr_of(initial: &str) -> &'static str {
    PLAYERS.iter().find(|p| p.1 == initial).unwrap().0
}

/// The mail the sender got back (the first queued).
fn reply(mails: &[Sent]) -> &Sent {
    mails.first().expect("a reply")
}

fn create(j: &mut TestJudge, game: &str, password: &str) {
    let r = j.mail(MASTER, &format!("CREATE ?{game} {password}"));
    assert!(reply(&r).body.contains("created"), "{}", dump(&r));
}

/// The seven players join `game`; the mails of the last join (the start).
fn fill(j: &mut TestJudge, game: &str) -> Vec<Sent> {
    let mut last = Vec::new();
    for (addr, initial) in PLAYERS {
        last = j.mail(
            addr,
            &format!("SIGNON ?{game} pw-{initial}\nSET PREFERENCE {initial}"),
        );
    }
    last
}

fn master(j: &mut TestJudge, game: &str, password: &str, lines: &str) -> Vec<Sent> {
    j.mail(MASTER, &format!("SIGNON M{game} {password}\n{lines}"))
}

fn orders(j: &mut TestJudge, game: &str, initial: &str, lines: &str) -> Vec<Sent> {
    let body = format!("SIGNON {initial}{game} pw-{initial}\n{lines}");
    j.mail(addr_of(initial), &body)
}

/// The token of the CONFIRM line in `mail`.
fn token_in(mail: &Sent) -> String {
    mail.body
        .lines()
        .find_map(|l| l.trim().strip_prefix("CONFIRM "))
        .unwrap_or_else(|| panic!("no CONFIRM line: {}", mail.body))
        .trim()
        .to_string()
}

/// The line of LIST <game> that counts the observers.
fn observers_line(j: &mut TestJudge, game: &str) -> String {
    let r = j.mail("anyone@example.com", &format!("LIST {game}"));
    reply(&r)
        .body
        .lines()
        .find(|l| l.contains("observer") && l.contains("follow"))
        .unwrap_or_else(|| panic!("no observers line: {}", reply(&r).body))
        .to_string()
}

#[test]
fn the_class_list_confirms_then_gets_what_goes_to_the_whole_game() {
    let mut j = TestJudge::new("classlist");
    create(&mut j, "c7b", "mpass");

    // Named while the game forms: one mail to the list, saying what it is
    // and how to confirm; the Master is told it must confirm.
    let r = master(&mut j, "c7b", "mpass", &format!("SET OBSERVER {LIST}"));
    let said = reply(&r);
    assert!(
        said.body.contains(&format!("{LIST} is new to this judge"))
            && said.body.contains("once it does, it observes 'c7b'"),
        "{}",
        said.body
    );
    let request = one_to(&r, LIST);
    assert!(
        request
            .body
            .contains(&format!("{MASTER} gave this address ({LIST})"))
            && request.body.contains("to observe the game 'c7b'")
            && request.body.contains("mailing list"),
        "{}",
        request.body
    );
    let token = token_in(request);
    assert_eq!(
        observers_line(&mut j, "c7b"),
        "No observers follow the game (1 more named by the Master, not yet confirmed)."
    );

    // Not confirmed: the Master's press to everyone does not reach it.
    let r = master(
        &mut j,
        "c7b",
        "mpass",
        "BROADCAST\nWelcome, class.\nENDPRESS",
    );
    assert!(to(&r, LIST).is_empty(), "{}", dump(&r));

    let r = j.mail(LIST, &format!("CONFIRM {token}"));
    assert!(
        reply(&r)
            .body
            .contains(&format!("Confirmed: {LIST} now gets the judge's mail.")),
        "{}",
        dump(&r)
    );
    assert_eq!(
        observers_line(&mut j, "c7b"),
        "One observer follows the game."
    );

    // The start: the list is told, with the board and the deadline, never
    // the players' addresses.
    let r = fill(&mut j, "c7b");
    let start = one_to(&r, LIST);
    assert_eq!(start.subject, "JDG:c7b - S1901M Game starts");
    assert!(
        start.body.contains("You observe it") && start.body.contains("The deadline for S1901M"),
        "{}",
        start.body
    );
    assert!(start.has_line("You observe 'c7b': mail UNOBSERVE c7b to stop."));
    for (addr, _) in PLAYERS {
        assert!(!start.body.contains(addr), "{}", start.body);
    }

    // Orders: only their writer hears of them before the results.
    let r = orders(&mut j, "c7b", "F", "A Par - Bur\nA Mar H\nF Bre - MAO");
    assert!(to(&r, LIST).is_empty(), "{}", dump(&r));
    // Press to one power never reaches it; press to everyone does.
    let r = orders(
        &mut j,
        "c7b",
        "F",
        "PRESS TO E\nThe Channel is yours.\nENDPRESS",
    );
    assert!(to(&r, LIST).is_empty(), "{}", dump(&r));
    let r = orders(&mut j, "c7b", "F", "BROADCAST\nVive la paix.\nENDPRESS");
    let press = one_to(&r, LIST);
    assert!(press.body.contains("Vive la paix."), "{}", press.body);
    assert!(!press.body.contains("The Channel is yours"));

    // The results, and the end of the game.
    let r = master(&mut j, "c7b", "mpass", "PROCESS");
    let results = one_to(&r, LIST);
    assert_eq!(results.subject, "JDG:c7b - S1901M Results");
    assert!(
        results.has_line("France:  Army Paris -> Burgundy."),
        "{}",
        results.body
    );
    let r = master(&mut j, "c7b", "mpass", "TERMINATE");
    assert_eq!(one_to(&r, LIST).subject, "JDG:c7b - F1901M Game terminated");
}

#[test]
fn a_list_named_in_a_running_game_gets_nothing_until_it_confirms_and_can_be_removed() {
    let mut j = TestJudge::new("classlate");
    create(&mut j, "late", "mpass");
    fill(&mut j, "late");
    let r = master(&mut j, "late", "mpass", &format!("SET OBSERVER {LIST}"));
    let token = token_in(one_to(&r, LIST));
    // Named again the same day: no second request.
    let r = master(&mut j, "late", "mpass", &format!("SET OBSERVER {LIST}"));
    assert!(to(&r, LIST).is_empty(), "{}", dump(&r));

    let r = master(&mut j, "late", "mpass", "PROCESS");
    assert!(!with_subject(&r, "Results").is_empty(), "{}", dump(&r));
    assert!(to(&r, LIST).is_empty(), "unconfirmed: {}", dump(&r));

    j.mail(LIST, &format!("CONFIRM {token}"));
    let r = master(&mut j, "late", "mpass", "PROCESS");
    assert_eq!(one_to(&r, LIST).subject, "JDG:late - F1901M Results");

    // Named by a password observer's address too: it already observes.
    let r = j.mail("parent@home.example", "OBSERVE late seepw");
    assert!(
        reply(&r).body.contains("You now observe 'late'"),
        "{}",
        dump(&r)
    );
    let r = master(&mut j, "late", "mpass", "SET OBSERVER parent@home.example");
    assert!(
        reply(&r)
            .body
            .contains("parent@home.example observes 'late' already."),
        "{}",
        dump(&r)
    );
    assert_eq!(
        observers_line(&mut j, "late"),
        "2 observers follow the game."
    );

    // SET NO OBSERVER takes either kind away; the list hears no more.
    let r = master(
        &mut j,
        "late",
        "mpass",
        &format!("SET NO OBSERVER {LIST}\nSET NO OBSERVER parent@home.example"),
    );
    let body = &reply(&r).body;
    assert!(
        body.contains(&format!("{LIST} no longer observes 'late'."))
            && body.contains("parent@home.example no longer observes 'late'."),
        "{body}"
    );
    let r = master(&mut j, "late", "mpass", "BROADCAST\nAll quiet.\nENDPRESS");
    assert!(to(&r, LIST).is_empty(), "{}", dump(&r));
    assert!(to(&r, "parent@home.example").is_empty(), "{}", dump(&r));
    assert_eq!(
        observers_line(&mut j, "late"),
        "No observers follow the game."
    );
    let r = master(&mut j, "late", "mpass", &format!("SET NO OBSERVER {LIST}"));
    assert!(
        reply(&r)
            .body
            .contains(&format!("{LIST} does not observe 'late'.")),
        "{}",
        dump(&r)
    );
}

#[test]
fn only_the_master_names_observers_and_the_press_setting_still_reads() {
    let mut j = TestJudge::new("classonly");
    create(&mut j, "only", "mpass");
    fill(&mut j, "only");
    let r = orders(&mut j, "only", "E", &format!("SET OBSERVER {LIST}"));
    assert!(
        reply(&r).body.contains("Master"),
        "a player may not: {}",
        dump(&r)
    );
    assert!(to(&r, LIST).is_empty());
    let r = master(&mut j, "only", "mpass", "SET OBSERVER class@@lists");
    assert!(
        reply(&r)
            .body
            .contains("'class@@lists' is not a mail address."),
        "{}",
        dump(&r)
    );
    let r = master(&mut j, "only", "mpass", "SET NO OBSERVER");
    assert!(
        reply(&r).body.contains("Write SET NO OBSERVER <address>"),
        "{}",
        dump(&r)
    );
    let r = master(&mut j, "only", "mpass", "SET OBSERVER WHITE");
    assert!(
        reply(&r).body.contains("Observers' press: white."),
        "{}",
        dump(&r)
    );
}

#[test]
fn list_mine_gives_the_masters_games_and_who_has_not_ordered_where_signed_on() {
    let mut j = TestJudge::new("mine");
    create(&mut j, "groupa", "apass");
    create(&mut j, "groupb", "bpass");
    create(&mut j, "groupc", "cpass");
    fill(&mut j, "groupa");
    fill(&mut j, "groupb");
    j.mail(addr_of("A"), "SIGNON ?groupc pw-A");
    orders(&mut j, "groupa", "F", "A Par H\nA Mar H\nF Bre H");
    orders(&mut j, "groupa", "E", "A Lvp H\nF Lon H\nF Edi H");

    // By the From address alone: public facts only.
    let r = j.mail(MASTER, "LIST MINE");
    let body = &reply(&r).body;
    let row = |name: &str| {
        body.lines()
            .find(|l| l.starts_with(&format!("{name}:")))
            .unwrap_or_else(|| panic!("no line for {name}: {body}"))
            .to_string()
    };
    assert!(
        row("groupa").starts_with("groupa: S1901M, deadline ")
            && row("groupa").contains(
                "; centres Austria 3, England 3, France 3, Germany 3, Italy 3, Russia 4, Turkey 3;"
            )
            && row("groupa").ends_with("orders: sign on to see."),
        "{body}"
    );
    assert_eq!(
        row("groupc"),
        "groupc: forming, 1 of 7 players have joined."
    );
    assert!(body.contains("SIGNON M<game> <password>"), "{body}");
    assert!(!body.contains("not yet ordered"), "{body}");

    // Signed on to two games with their passwords: who has not ordered there.
    let r = j.mail(
        MASTER,
        "SIGNON Mgroupa apass\nSIGNON Mgroupb bpass\nLIST MINE",
    );
    let body = &reply(&r).body;
    let line_a = body.lines().find(|l| l.starts_with("groupa:")).unwrap();
    assert!(
        line_a.ends_with("not yet ordered: Austria, Germany, Italy, Russia and Turkey."),
        "{body}"
    );
    let line_b = body.lines().find(|l| l.starts_with("groupb:")).unwrap();
    assert!(
        line_b.contains("not yet ordered: Austria, England, France"),
        "{body}"
    );
    assert!(!body.contains("sign on to see"), "{body}");

    // Anyone else: no games of theirs.
    let r = j.mail("pupil@school.example", "LIST MINE");
    assert!(
        reply(&r)
            .body
            .contains("You run no game that is forming or running from this address."),
        "{}",
        dump(&r)
    );
}
