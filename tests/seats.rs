//! Seats, black-box through mail and the clock (issue 12, items 6, 7, 8
//! and 9): EJECT removes the player and never processes early; a
//! takeover names the power and needs the Master's approval unless the
//! game is open to takeovers; a resigned seat cannot be signed on;
//! absences have a limit, can be cancelled and are told to the Master; a
//! player of several countries comes back with all of them, and changes
//! their password and address for all; a sign-on from another address
//! tells the address of record where it came from.

#[path = "common/clock_world.rs"]
mod clock_world;
mod common;

use clock_world::*;

/// Ticks an hour apart are no outage.
const CALM: (&str, &str, &str) = ("clock", "outage_minutes", "100000");

fn master(w: &mut World, game: &str, lines: &str) -> Vec<Out> {
    w.mail(MASTER, &format!("SIGNON M{game} {MASTER_PW}\n{lines}"))
}

/// The reply to `addr`: the one mail to it that echoes a sign-on.
fn reply_to<'a>(mails: &'a [Out], addr: &str) -> &'a str {
    let found: Vec<&Out> = to(mails, addr)
        .into_iter()
        .filter(|m| m.body.contains("> SIGNON"))
        .collect();
    assert_eq!(found.len(), 1, "one reply to {addr}: {}", listing(mails));
    &found[0].body
}

/// Every power's orders for `game` (Germany's given), then passes until
/// the phase is processed early: the game stands in `next`.
fn play(w: &mut World, game: &str, germany: &str, at: i64, next: &str) {
    for (p, _) in POWERS {
        w.post_orders(game, p, if p == 'G' { germany } else { holds(p) });
    }
    w.run(at);
    w.tick_until(at + HOUR, HOUR);
    assert_eq!(w.current(game).0, next);
}

/// Plays Spring and Fall 1901 with every unit holding, but Germany takes
/// Denmark: the game stands in W1901A, Germany due one build.
fn to_winter(w: &mut World, game: &str) {
    w.now = t(0, 13);
    play(w, game, "F Kie - Den\nA Ber H\nA Mun H", t(0, 13), "F1901M");
    play(w, game, "F Den H\nA Ber H\nA Mun H", t(0, 15), "W1901A");
}

#[test]
fn eject_removes_the_player_and_waits_for_an_approved_newcomer() {
    let mut w = World::new("eject", &[CALM]);
    w.now = t(0, 12);
    w.start_game("ej", "");
    to_winter(&mut w, "ej");
    let deadline = w.current("ej").1;

    // EJECT in Winter: the player is told, everyone else hears Germany
    // needs a player, and nothing is processed.
    let mails = w.mail_at(
        t(0, 17),
        MASTER,
        &format!("SIGNON Mej {MASTER_PW}\nEJECT Germany"),
    );
    let reply = reply_to(&mails, MASTER);
    assert!(reply.contains("it waits for a new player"), "{reply}");
    assert!(
        reply.contains("The phase is not processed before its deadline."),
        "{reply}"
    );
    let removed = one(&mails, &player('G'), "You have been removed");
    assert!(
        removed.body.contains("no longer signs on"),
        "{}",
        removed.body
    );
    for (p, _) in POWERS.iter().filter(|(p, _)| *p != 'G') {
        let m = one(&mails, &player(*p), "Germany needs a player");
        assert!(m.body.contains("SIGNON Gej <password>"), "{}", m.body);
    }
    assert_eq!(count(&mails, &player('G'), "needs a player"), 0);
    assert!(
        about(&mails, "W1901A Results").is_empty(),
        "{}",
        listing(&mails)
    );
    let mails = w.tick_until(t(0, 20), HOUR);
    assert!(about(&mails, "Results").is_empty(), "{}", listing(&mails));
    assert_eq!(w.current("ej").0, "W1901A");
    assert_eq!(w.status("ej", 'G'), "abandoned");

    // The old password signs on to nothing.
    let mails = w.mail_at(
        t(0, 21),
        &player('G'),
        &format!("SIGNON Gej {}\nBuild A Kie", password('G')),
    );
    let reply = reply_to(&mails, &player('G'));
    assert!(!reply.contains("Welcome back"), "{reply}");
    assert!(
        reply.contains("*** Germany in 'ej' has no player"),
        "{reply}"
    );
    assert_eq!(w.status("ej", 'G'), "abandoned");

    // A newcomer names the power, and needs the Master's approval.
    let newcomer = "newcomer@players.test";
    let mails = w.mail_at(t(0, 22), newcomer, "SIGNON ?ej fresh-pw");
    let reply = reply_to(&mails, newcomer);
    assert!(
        reply.contains("name the power you take over")
            && reply.contains("Waiting for a player: Germany."),
        "{reply}"
    );
    let mails = w.mail_at(t(0, 22), newcomer, "SIGNON Gej fresh-pw");
    let reply = reply_to(&mails, newcomer);
    assert!(
        reply.contains("the Master has not approved newcomer@players.test"),
        "{reply}"
    );
    let mails = master(&mut w, "ej", &format!("SET TAKEOVER Germany {newcomer}"));
    one(&mails, newcomer, "You may take over Germany");
    let mails = w.mail_at(t(0, 23), newcomer, "SIGNON Gej fresh-pw\nBuild A Kie");
    let reply = reply_to(&mails, newcomer);
    assert!(reply.contains("You now play Germany in 'ej'."), "{reply}");
    assert_eq!(w.status("ej", 'G'), "active");

    // The results go to the newcomer, never to the ejected player.
    let mails = w.tick_until(deadline.max(t(1, 1)), HOUR);
    let results = about(&mails, "W1901A Results");
    assert!(!results.is_empty(), "{}", listing(&mails));
    assert!(results.iter().any(|m| m.is_to(newcomer)));
    assert!(!results.iter().any(|m| m.is_to(&player('G'))));
}

#[test]
fn a_resigned_seat_cannot_be_signed_on_and_open_games_take_anyone() {
    let mut w = World::new("resign", &[CALM]);
    w.now = t(0, 12);
    w.start_game("rs", "");
    // Nobody is approved for a power that has its player.
    let mails = master(&mut w, "rs", "SET TAKEOVER Turkey early@players.test");
    let reply = reply_to(&mails, MASTER);
    assert!(
        reply.contains("*** Turkey in 'rs' is not waiting for a player"),
        "{reply}"
    );
    assert_eq!(count(&mails, "early@players.test", "You may take over"), 0);

    let mails = w.orders("rs", 'T', "RESIGN");
    assert!(reply_to(&mails, &player('T')).contains("You have resigned Turkey"));
    let mails = w.orders("rs", 'T', "A Con H");
    let reply = reply_to(&mails, &player('T'));
    assert!(
        reply.contains("*** Turkey in 'rs' has no player"),
        "{reply}"
    );
    assert_eq!(w.status("rs", 'T'), "resigned");

    // A player of the game is no newcomer: not approved, nor let take a
    // second power when the game is open to takeovers.
    let england = player('E');
    let mails = master(&mut w, "rs", &format!("SET TAKEOVER Turkey {england}"));
    let reply = reply_to(&mails, MASTER);
    assert!(
        reply.contains(&format!(
            "*** {england} already plays England in 'rs': a player takes over no second power."
        )),
        "{reply}"
    );
    assert_eq!(count(&mails, &england, "You may take over"), 0);

    // Open to takeovers: anyone may take it, naming it.
    master(&mut w, "rs", "SET TAKEOVER ON");
    let mails = w.mail(&england, "SIGNON Trs second-pass");
    let reply = reply_to(&mails, &england);
    assert!(
        reply
            .contains("*** You already play England in 'rs': a player takes over no second power."),
        "{reply}"
    );
    assert_eq!(w.status("rs", 'T'), "resigned");
    let newcomer = "anyone@players.test";
    let mails = w.mail(newcomer, "SIGNON Trs new-pass");
    let reply = reply_to(&mails, newcomer);
    assert!(reply.contains("You now play Turkey in 'rs'."), "{reply}");
    assert_eq!(w.status("rs", 'T'), "active");
}

#[test]
fn absences_are_limited_cancellable_and_told_to_the_master() {
    let mut w = World::new("absence", &[CALM]);
    w.now = t(0, 12);
    w.start_game("ab", "");
    // 2026-11-02 is day 0: twenty-one days (the last runs to its end) are
    // over the default fourteen.
    let mails = w.orders("ab", 'F', "SET ABSENCE 2026-11-10 TO 2026-11-30");
    let reply = reply_to(&mails, &player('F'));
    assert!(reply.contains("limited to 14 days"), "{reply}");
    assert!(reply.contains("yours would be 21 days."), "{reply}");
    assert_eq!(count(&mails, MASTER, "Absence"), 0);

    let mails = w.orders("ab", 'F', "SET ABSENCE 2026-11-10 TO 2026-11-13");
    let reply = reply_to(&mails, &player('F'));
    assert!(reply.contains("Absence noted"), "{reply}");
    let told = one(&mails, MASTER, "Absence");
    assert!(
        told.body
            .contains("The player of France in 'ab' has announced an absence"),
        "{}",
        told.body
    );

    // njudge's SET NOABSENCE <date>: only the absence holding the date.
    w.orders("ab", 'F', "SET ABSENCE 2026-11-20 TO 2026-11-21");
    let mails = w.orders("ab", 'F', "SET NOABSENCE 2026-11-20 12:00");
    let reply = reply_to(&mails, &player('F'));
    assert!(
        reply.contains(
            "Your absence from Fri Nov 20 2026 00:00 UTC to Sun Nov 22 2026 00:00 UTC is cancelled"
        ),
        "{reply}"
    );
    let left: i64 = w
        .db()
        .query_row("SELECT count(*) FROM absences", [], |r| r.get(0))
        .unwrap();
    assert_eq!(left, 1, "the absence of Nov 10-13 stays");

    let mails = w.orders("ab", 'F', "SET NOABSENCE");
    let reply = reply_to(&mails, &player('F'));
    assert!(reply.contains("Your absences are cancelled"), "{reply}");
    let told = one(&mails, MASTER, "Absence");
    assert!(told.body.contains("has cancelled"), "{}", told.body);
    let left: i64 = w
        .db()
        .query_row("SELECT count(*) FROM absences", [], |r| r.get(0))
        .unwrap();
    assert_eq!(left, 0);

    // The Master may allow more.
    let mails = master(&mut w, "ab", "SET ABSENCE LIMIT 30");
    assert!(reply_to(&mails, MASTER).contains("up to 30 days"));
    let mails = w.orders("ab", 'F', "SET ABSENCE 2026-11-10 TO 2026-11-30");
    assert!(reply_to(&mails, &player('F')).contains("Absence noted"));
}

/// A four-player game: who got Italy and Russia signs on as Italy.
fn four(w: &mut World, game: &str) {
    w.post(MASTER, &format!("CREATE ?{game} {MASTER_PW} four"));
    for p in ['E', 'A', 'G', 'I'] {
        w.post(
            &player(p),
            &format!("SIGNON ?{game} {}\nSET PREFERENCE {p}", password(p)),
        );
    }
    let mails = w.run(w.now);
    one(
        &mails,
        &player('I'),
        "Game starts: you are Italy and Russia",
    );
}

#[test]
fn a_player_of_several_countries_comes_back_and_changes_for_all() {
    let mut w = World::new("bloc", &[CALM]);
    w.now = t(0, 12);
    four(&mut w, "blk");
    // Nobody orders: after grace every country is in civil disorder.
    w.tick_until(t(4, 13), HOUR);
    assert_eq!(w.status("blk", 'I'), "civil_disorder");
    assert_eq!(w.status("blk", 'R'), "civil_disorder");

    // Signing on as Italy brings Russia back too.
    let mails = w.orders("blk", 'I', "");
    let reply = reply_to(&mails, &player('I'));
    assert!(
        reply.contains("Welcome back: your powers are in play again."),
        "{reply}"
    );
    assert_eq!(w.status("blk", 'I'), "active");
    assert_eq!(w.status("blk", 'R'), "active");
    // Russia's orders, given on Italy's sign-on, are carried out.
    let mails = w.orders("blk", 'I', "A Mos - Ukr");
    let reply = reply_to(&mails, &player('I'));
    assert!(!reply.contains("\n*** "), "{reply}");
    let mails = master(&mut w, "blk", "PROCESS");
    let results = &one(&mails, &player('E'), "F1901M Results").body;
    assert!(results.contains("Army Moscow -> Ukraine."), "{results}");
    assert!(
        !results.contains("Army Moscow -> Ukraine.  (*"),
        "{results}"
    );

    // A new password and address, for both countries.
    // (From the new address itself: its sign-on confirms it.)
    let new = "italy-russia@elsewhere.test";
    w.mail(
        new,
        &format!(
            "SIGNON Iblk {}\nSET PASSWORD fresh-pass\nSET ADDRESS {new}",
            password('I')
        ),
    );
    let mails = w.mail(new, "SIGNON Rblk fresh-pass");
    let reply = reply_to(&mails, new);
    assert!(reply.contains("Signed on as Russia and Italy"), "{reply}");
    let at_new: i64 = w
        .db()
        .query_row(
            "SELECT count(*) FROM seats WHERE address = ?1",
            [new],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(at_new, 2);

    // EJECT removes the player from both countries; in a NoNMR game the
    // phase waits for the new player, past the deadline too.
    let mails = master(&mut w, "blk", "SET NONMR\nEJECT Russia");
    let notice = one(&mails, &player('E'), "Russia and Italy need a player");
    assert!(
        notice.body.contains("they wait for a new player"),
        "{}",
        notice.body
    );
    assert!(
        notice.body.contains(
            "The phase is not processed until a new player has taken over, past its \
             deadline if need be."
        ),
        "{}",
        notice.body
    );
    assert_eq!(count(&mails, new, "need a player"), 0);
    assert_eq!(w.status("blk", 'I'), "abandoned");
    assert_eq!(w.status("blk", 'R'), "abandoned");
    let mails = w.mail(new, "SIGNON Iblk fresh-pass");
    assert!(reply_to(&mails, new).contains("*** Italy in 'blk' has no player"));
}

#[test]
fn a_sign_on_from_elsewhere_says_where_it_came_from() {
    let mut w = World::new("elsewhere", &[CALM]);
    w.now = t(0, 12);
    w.start_game("ew", "");
    let other = "someone@elsewhere.test";
    let mails = w.mail(other, &format!("SIGNON Eew {}", password('E')));
    for addr in [other.to_string(), player('E')] {
        let body = reply_to(&mails, &addr);
        assert!(
            body.contains(&format!(
                "This sign-on came from {other}, not from the address of record {}",
                player('E')
            )),
            "{body}"
        );
        assert!(
            body.contains("If it was not you, change your password (SET PASSWORD)."),
            "{body}"
        );
    }
    // The Master cannot SET PASSWORD: the advice says what a Master can do.
    let mails = w.mail(other, &format!("SIGNON Mew {MASTER_PW}"));
    for addr in [other, MASTER] {
        let body = reply_to(&mails, addr);
        assert!(
            body.contains(&format!(
                "This sign-on came from {other}, not from the address of record {MASTER}: \
                 a copy of this reply goes to both. If it was not you, tell the \
                 judgekeeper, as a Master's password cannot be changed by mail."
            )),
            "{body}"
        );
        assert!(!body.contains("SET PASSWORD"), "{body}");
    }
}
