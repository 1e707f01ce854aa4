//! Teams, black-box through mail (issue 22, item 1): a power played from
//! several addresses. A team joins as one seat with `SET ADDRESS a, b, c`
//! in its joining mail; each new address confirms before it gets
//! anything but the request; then every member gets the power's mail
//! (start, replies to orders, press, results, late notices), any member
//! orders or clears, and no member is locked out by its own mistyped
//! passwords; strangers cannot add addresses; at most ten; LIST counts
//! the addresses and never shows them; the Master replaces a team's
//! list; a class game's press to everyone stays within one mail's
//! budget.

#[path = "common/clock_world.rs"]
mod clock_world;
mod common;

use clock_world::*;

/// Ticks an hour apart are no outage.
const CALM: (&str, &str, &str) = ("clock", "outage_minutes", "100000");

const ANN: &str = "ann@class.test";
const BOB: &str = "bob@class.test";
const CY: &str = "cy@class.test";
const TEAM_PW: &str = "team-france";

/// The mails to `addr` whose body contains `text`.
fn saying<'a>(mails: &'a [Out], addr: &str, text: &str) -> Vec<&'a Out> {
    to(mails, addr)
        .into_iter()
        .filter(|m| m.body.contains(text))
        .collect()
}

/// The judge's one answer to a mail from `addr` (the tests' mails are
/// titled "orders", and so are the answers).
fn answer_to<'a>(mails: &'a [Out], addr: &str) -> &'a Out {
    one(mails, addr, "orders")
}

/// The token of the one confirmation request to `addr` among `mails`.
fn token_for(mails: &[Out], addr: &str) -> String {
    let request = one(mails, addr, "Confirm this address");
    request
        .body
        .lines()
        .find_map(|l| l.trim().strip_prefix("CONFIRM "))
        .unwrap_or_else(|| panic!("a CONFIRM line: {}", request.body))
        .to_string()
}

/// A game `game` of six players and France's team of three (Ann, Bob,
/// Cy), which joins in one mail from Ann: it starts at once; Bob and Cy
/// are asked to confirm and get nothing else. Returns the mails of that
/// pass.
fn team_joins(w: &mut World, game: &str) -> Vec<Out> {
    w.post(MASTER, &format!("CREATE ?{game} {MASTER_PW}"));
    for (p, _) in POWERS.iter().filter(|(p, _)| *p != 'F') {
        w.post(
            &player(*p),
            &format!("SIGNON ?{game} {}\nSET PREFERENCE {p}", password(*p)),
        );
    }
    w.post(
        ANN,
        &format!("SIGNON ?{game} {TEAM_PW}\nSET PREFERENCE F\nSET ADDRESS {ANN}, {BOB} {CY}"),
    );
    w.run(w.now)
}

/// A sign-on to France from `from` with `password`, and nothing else.
fn france_with(w: &mut World, game: &str, from: &str, password: &str) -> Vec<Out> {
    w.mail(from, &format!("SIGNON F{game} {password}"))
}

/// Plays France's orders from `from`, signed on with the team's password.
fn france(w: &mut World, game: &str, from: &str, lines: &str) -> Vec<Out> {
    w.mail(from, &format!("SIGNON F{game} {TEAM_PW}\n{lines}"))
}

#[test]
fn a_team_joins_as_one_seat_and_plays_together() {
    let mut w = World::new("team", &[CALM]);
    w.now = t(0, 12);
    let mails = team_joins(&mut w, "cls");

    // Ann's reply names the team and who must confirm; the game starts
    // with Ann as France; Bob and Cy get the request and nothing else.
    let reply = saying(&mails, ANN, "> SET ADDRESS");
    assert_eq!(reply.len(), 1, "{}", listing(&mails));
    assert!(
        reply[0]
            .body
            .contains(&format!("New to this judge: {BOB} and {CY}.")),
        "{}",
        reply[0].body
    );
    one(&mails, ANN, "Game starts: you are France");
    for member in [BOB, CY] {
        assert_eq!(to(&mails, member).len(), 1, "{}", listing(&mails));
        let request = one(&mails, member, "Confirm this address");
        assert!(
            request
                .body
                .contains("one of the addresses of a player in the game 'cls'"),
            "{}",
            request.body
        );
    }
    let (bob_token, cy_token) = (token_for(&mails, BOB), token_for(&mails, CY));

    // Bob confirms: he joins France, and Ann hears of it.
    let mails = w.mail(BOB, &format!("CONFIRM {bob_token}"));
    for addr in [BOB, ANN] {
        let told = saying(&mails, addr, "> CONFIRM");
        assert_eq!(told.len(), 1, "{}", listing(&mails));
        assert!(
            told[0].body.contains(&format!(
                "Confirmed: {BOB} now plays France in 'cls' with {ANN}"
            )),
            "{}",
            told[0].body
        );
    }
    assert!(to(&mails, CY).is_empty(), "{}", listing(&mails));

    // Bob orders: Ann sees the orders too; Cy, not yet confirmed, does not.
    let mails = france(&mut w, "cls", BOB, "A Par - Bur\nA Mar H\nF Bre H");
    for addr in [ANN, BOB] {
        let reply = answer_to(&mails, addr);
        assert!(
            reply.body.contains("Army Paris -> Burgundy."),
            "{}",
            reply.body
        );
    }
    assert!(to(&mails, CY).is_empty(), "{}", listing(&mails));

    // Cy confirms, then clears: Ann and Bob see it.
    let mails = w.mail(CY, &format!("CONFIRM {cy_token}"));
    assert_eq!(saying(&mails, BOB, "now plays France").len(), 1);
    let mails = france(&mut w, "cls", CY, "CLEAR");
    for addr in [ANN, BOB, CY] {
        let reply = answer_to(&mails, addr);
        assert!(
            reply
                .body
                .contains("Your 3 order(s) for S1901M are cleared:"),
            "{}",
            reply.body
        );
        assert!(reply.body.contains("(S1901M):\n  (none)"), "{}", reply.body);
    }

    // Press to France reaches every member, and nobody else of France.
    let mails = w.orders("cls", 'E', "PRESS TO F\nWho is in your team?\nENDPRESS");
    for addr in [ANN, BOB, CY] {
        let press = saying(&mails, addr, "Who is in your team?");
        assert_eq!(press.len(), 1, "{}", listing(&mails));
    }

    // Press a member sends for France reaches England and the rest of
    // the team (what the team said is no secret within it), never its
    // sender, and nobody else.
    let mails = france(
        &mut w,
        "cls",
        BOB,
        "PRESS TO E\nThe Channel stays empty.\nENDPRESS",
    );
    for addr in [ANN, CY, player('E').as_str()] {
        let press = saying(&mails, addr, "The Channel stays empty.");
        assert_eq!(press.len(), 1, "{addr}: {}", listing(&mails));
    }
    assert!(saying(&mails, BOB, "The Channel stays empty.").is_empty());
    assert!(saying(&mails, &player('G'), "The Channel stays empty.").is_empty());

    // Every power orders (France from Cy): the results reach all three.
    for (p, _) in POWERS.iter().filter(|(p, _)| *p != 'F') {
        w.post_orders("cls", *p, holds(*p));
    }
    w.post(
        CY,
        &format!("SIGNON Fcls {TEAM_PW}\nA Par - Bur\nA Mar H\nF Bre H"),
    );
    let mut mails = w.run(t(0, 13));
    mails.extend(w.tick_until(t(0, 14), HOUR));
    for addr in [ANN, BOB, CY] {
        let results = one(&mails, addr, "S1901M Results");
        assert!(results.body.contains("Burgundy"), "{}", results.body);
    }
    assert_eq!(w.current("cls").0, "F1901M");

    // France gives no orders for Fall: past the deadline, the late
    // notice reaches every member, and the others' notice none of them.
    for (p, _) in POWERS.iter().filter(|(p, _)| *p != 'F') {
        w.post_orders("cls", *p, holds(*p));
    }
    w.run(t(0, 15));
    let (_, deadline) = w.current("cls");
    let mails = w.run(deadline + MINUTE);
    for addr in [ANN, BOB, CY] {
        let late = one(&mails, addr, "[You are late!]");
        assert!(late.body.contains("France"), "{}", late.body);
        assert_eq!(count(&mails, addr, "Late powers"), 0, "{}", listing(&mails));
    }
    one(&mails, &player('E'), "Late powers");
}

#[test]
fn strangers_and_long_lists_add_no_address() {
    let mut w = World::new("team-refusals", &[CALM]);
    w.now = t(0, 12);
    team_joins(&mut w, "ref");

    // A stranger without the password: the sign-on fails and the rest
    // of the mail is not read; the address named gets nothing.
    let victim = "victim@elsewhere.test";
    let mails = w.mail(
        "stranger@elsewhere.test",
        &format!("SIGNON Fref guess\nSET ADDRESS {ANN}, {victim}"),
    );
    assert!(to(&mails, victim).is_empty(), "{}", listing(&mails));
    let mails = w.mail(
        "stranger@elsewhere.test",
        &format!("SET ADDRESS {ANN}, {victim}"),
    );
    assert!(to(&mails, victim).is_empty(), "{}", listing(&mails));
    let reply = answer_to(&mails, "stranger@elsewhere.test");
    assert!(
        reply
            .body
            .contains("That setting needs a sign-on as a player first"),
        "{}",
        reply.body
    );

    // Eleven addresses: refused, naming the limit; none is mailed.
    let eleven: Vec<String> = (1..=11).map(|k| format!("m{k}@class.test")).collect();
    let mails = france(
        &mut w,
        "ref",
        ANN,
        &format!("SET ADDRESS {}", eleven.join(", ")),
    );
    let reply = answer_to(&mails, ANN);
    assert!(
        reply
            .body
            .contains("*** A power is played from at most 10 addresses; this line gives 11."),
        "{}",
        reply.body
    );
    for m in &eleven {
        assert!(to(&mails, m).is_empty(), "{}", listing(&mails));
    }

    // A word that is no address is named.
    let mails = france(&mut w, "ref", ANN, &format!("SET ADDRESS {ANN}, bob"));
    let reply = answer_to(&mails, ANN);
    assert!(
        reply.body.contains("*** 'bob' is not a mail address."),
        "{}",
        reply.body
    );

    // LIST: France is played by one address still (Bob and Cy never
    // confirmed), and no address is shown.
    let mails = w.mail("someone@elsewhere.test", "LIST ref");
    let list = answer_to(&mails, "someone@elsewhere.test");
    assert!(!list.body.contains("played by a team"), "{}", list.body);
    assert!(!list.body.contains(ANN), "{}", list.body);
}

#[test]
fn list_counts_a_teams_addresses_and_the_master_replaces_them() {
    let mut w = World::new("team-list", &[CALM]);
    w.now = t(0, 12);
    let mails = team_joins(&mut w, "lst");
    let tokens = [token_for(&mails, BOB), token_for(&mails, CY)];
    for (member, token) in [BOB, CY].iter().zip(&tokens) {
        w.post(member, &format!("CONFIRM {token}"));
    }
    w.run(w.now);

    // LIST shows how many addresses play France, never which.
    let mails = w.mail("someone@elsewhere.test", "LIST lst\nLIST");
    let list = answer_to(&mails, "someone@elsewhere.test");
    assert!(
        list.body.contains("played by a team: 3 addresses"),
        "{}",
        list.body
    );
    assert!(
        list.body.contains("7 players (9 addresses)"),
        "{}",
        list.body
    );
    for addr in [ANN, BOB, CY] {
        assert!(!list.body.contains(addr), "{}", list.body);
    }

    // Bob mistypes the password again and again: a member of the team,
    // like the address of record, is never locked out of its seat.
    for _ in 0..6 {
        france_with(&mut w, "lst", BOB, "wrong-password");
    }
    let mails = france(&mut w, "lst", BOB, "A Par H");
    let signed = answer_to(&mails, BOB);
    assert!(
        signed.body.contains("Signed on as France"),
        "{}",
        signed.body
    );

    // The Master gives France's list without Bob and Cy, with Dee (new):
    // all three old members hear of it; Dee is asked to confirm.
    let dee = "dee@class.test";
    let mails = w.mail(
        MASTER,
        &format!("SIGNON Mlst {MASTER_PW}\nSET ADDRESS France {ANN}, {dee}"),
    );
    let reply = answer_to(&mails, MASTER);
    assert!(
        reply.body.contains(&format!(
            "France is now played from {ANN}. New to this judge: {dee}."
        )) && reply
            .body
            .contains(&format!("No longer played from: {BOB} and {CY}.")),
        "{}",
        reply.body
    );
    for addr in [ANN, BOB, CY] {
        assert_eq!(saying(&mails, addr, "> SET ADDRESS France").len(), 1);
    }
    let dee_token = token_for(&mails, dee);
    assert_eq!(to(&mails, dee).len(), 1, "{}", listing(&mails));

    // Press to France now reaches Ann alone; after Dee confirms, Dee too.
    let mails = w.orders("lst", 'E', "PRESS TO F\nFirst note\nENDPRESS");
    assert_eq!(saying(&mails, ANN, "First note").len(), 1);
    for addr in [BOB, CY, dee] {
        assert!(
            saying(&mails, addr, "First note").is_empty(),
            "{}",
            listing(&mails)
        );
    }
    w.mail(dee, &format!("CONFIRM {dee_token}"));
    let mails = w.orders("lst", 'E', "PRESS TO F\nSecond note\nENDPRESS");
    for addr in [ANN, dee] {
        assert_eq!(
            saying(&mails, addr, "Second note").len(),
            1,
            "{}",
            listing(&mails)
        );
    }
    for addr in [BOB, CY] {
        assert!(
            saying(&mails, addr, "Second note").is_empty(),
            "{}",
            listing(&mails)
        );
    }

    // Bob, no longer of the team, is locked out by his failures of the
    // hour as anyone would be; later, with the password, he is told
    // where his sign-on came from (the team gets a copy).
    let mails = france(&mut w, "lst", BOB, "A Par H");
    let locked = answer_to(&mails, BOB);
    assert!(
        !locked.body.contains("Signed on as France"),
        "{}",
        locked.body
    );
    let at = w.now + 2 * HOUR;
    let mails = w.mail_at(at, BOB, &format!("SIGNON Flst {TEAM_PW}\nA Par H"));
    let copy = saying(&mails, dee, "This sign-on came from bob@class.test");
    assert_eq!(copy.len(), 1, "{}", listing(&mails));
}

/// Seven teams of three, as a class plays: each captain joins with the
/// list, the members confirm, and one press to everyone reaches all 21
/// and the Master; a mail of three such presses stays within one mail's
/// budget (a team counts once).
#[test]
fn a_class_of_seven_teams_gets_every_press_within_the_budget() {
    let mut w = World::new("team-class", &[CALM]);
    w.now = t(0, 12);
    let member = |p: char, k: usize| format!("{}{k}@class.test", name(p).to_ascii_lowercase());
    w.post(MASTER, &format!("CREATE ?cl7 {MASTER_PW}"));
    for (p, _) in POWERS {
        let list: Vec<String> = (1..=3).map(|k| member(p, k)).collect();
        w.post(
            &member(p, 1),
            &format!(
                "SIGNON ?cl7 {}\nSET PREFERENCE {p}\nSET ADDRESS {}",
                password(p),
                list.join(", ")
            ),
        );
    }
    let mails = w.run(w.now);
    for (p, power) in POWERS {
        one(
            &mails,
            &member(p, 1),
            &format!("Game starts: you are {power}"),
        );
        for k in 2..=3 {
            let token = token_for(&mails, &member(p, k));
            w.post(&member(p, k), &format!("CONFIRM {token}"));
        }
    }
    w.run(w.now);

    let body = format!(
        "SIGNON Ecl7 {}\n{}",
        password('E'),
        (1..=3)
            .map(|k| format!("BROADCAST\nNews {k}\nENDPRESS"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let mails = w.mail(&member('E', 2), &body);
    let reply = answer_to(&mails, &member('E', 2));
    assert!(!reply.body.contains("\n*** "), "{}", reply.body);
    for k in 1..=3 {
        let news = format!("News {k}");
        for (p, _) in POWERS {
            for m in 1..=3 {
                if (p, m) == ('E', 2) {
                    continue;
                }
                let got = saying(&mails, &member(p, m), &news);
                assert_eq!(
                    got.len(),
                    1,
                    "{news} to {}: {}",
                    member(p, m),
                    listing(&mails)
                );
            }
        }
        assert_eq!(saying(&mails, MASTER, &news).len(), 1);
    }
}

/// A member who joins the forming game with the team's password, rather
/// than sending its CONFIRM, joins the team's seat (not a seat of its
/// own) and gets the start mail with the others.
#[test]
fn a_member_joining_with_the_teams_password_joins_its_seat() {
    let mut w = World::new("team-join", &[CALM]);
    w.now = t(0, 12);
    w.post(MASTER, &format!("CREATE ?tj {MASTER_PW}"));
    w.post(
        ANN,
        &format!("SIGNON ?tj {TEAM_PW}\nSET PREFERENCE F\nSET ADDRESS {ANN}, {BOB}"),
    );
    w.run(w.now);
    let mails = w.mail(BOB, &format!("SIGNON ?tj {TEAM_PW}"));
    let joined = answer_to(&mails, BOB);
    assert!(
        joined
            .body
            .contains("You have already joined 'tj'; 1 of 7 players so far."),
        "{}",
        joined.body
    );
    for (p, _) in POWERS.iter().filter(|(p, _)| *p != 'F') {
        w.post(
            &player(*p),
            &format!("SIGNON ?tj {}\nSET PREFERENCE {p}", password(*p)),
        );
    }
    let mails = w.run(w.now);
    for addr in [ANN, BOB] {
        one(&mails, addr, "Game starts: you are France");
    }
}
