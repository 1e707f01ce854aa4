//! The gamesmaster's game of issue 12, "Done when": a Master creates a game
//! and sets it up in ONE mail, seven players join and play by mail from
//! Spring 1901 to the end of a short game, and the mistakes of the issue
//! are made on purpose along the way (a deadline in the past, an unknown
//! SET, SET END after the start, a takeover without approval, an absence
//! beyond the limit, a player missing a deadline, too many builds, EJECT
//! in Winter, BECOME a power in civil disorder and order it, a resigned
//! player signing on).
//!
//! The core: nothing the judge confirms turns out false. Every order a
//! reply confirms is in that phase's results as given (never *void*);
//! every setting a reply confirms shows in LIST and acts; every refusal
//! changed nothing. The failures read as a Master would complain.
//!
//! Played through a real judge folder: `judge init`, the Maildir inbox
//! and outbox, the SQLite file, the real binary run by the clock
//! (`judge run --once --now`).

#[path = "common/clock_world.rs"]
mod clock_world;
mod common;

use clock_world::*;

const G: &str = "onemail";
const NEWCOMER: &str = "newcomer@players.test";

/// Ticks an hour apart are no outage.
const CALM: (&str, &str, &str) = ("clock", "outage_minutes", "100000");

fn master(w: &mut World, lines: &str) -> Vec<Out> {
    w.mail(MASTER, &format!("SIGNON M{G} {MASTER_PW}\n{lines}"))
}

/// The reply to `addr` in `mails`: the one mail to it echoing a sign-on
/// or a CREATE.
fn reply<'a>(mails: &'a [Out], addr: &str) -> &'a Out {
    let found: Vec<&Out> = to(mails, addr)
        .into_iter()
        .filter(|m| m.body.contains("> SIGNON") || m.body.contains("> CREATE"))
        .collect();
    assert_eq!(found.len(), 1, "one reply to {addr}: {}", listing(mails));
    found[0]
}

/// What the reply said to `line`: the lines after its echo, up to the
/// next echo.
fn answer<'a>(reply: &'a Out, line: &str) -> &'a str {
    let echo = format!("> {line}\n");
    let at = reply
        .body
        .find(&echo)
        .unwrap_or_else(|| panic!("the reply echoes {line:?}:\n{}", reply.body));
    let rest = &reply.body[at + echo.len()..];
    let end = rest.find("\n> ").map_or(rest.len(), |e| e + 1);
    rest[..end].trim()
}

/// The reply confirmed `line` (answered without "***").
fn confirmed(reply: &Out, line: &str) -> String {
    let said = answer(reply, line);
    assert!(
        !said.starts_with("***"),
        "I sent {line:?} and the judge refused it: {said}"
    );
    said.to_string()
}

/// The reply refused `line` ("***"), naming `why`.
fn refused(reply: &Out, line: &str, why: &str) {
    let said = answer(reply, line);
    assert!(
        said.starts_with("***") && said.contains(why),
        "I sent {line:?}: the judge should have refused it saying {why:?}, but said: {said}"
    );
}

/// LIST <game>, as one of the players reads it.
fn list(w: &mut World) -> String {
    let r = w.mail("onlooker@players.test", &format!("LIST {G}"));
    r[0].body.clone()
}

fn has(text: &str, wanted: &str, complaint: &str) {
    assert!(
        text.contains(wanted),
        "{complaint}: {wanted:?} missing in:\n{text}"
    );
}

/// Every power's orders of one phase as the last reply confirmed them:
/// (phase, power, order lines).
fn confirmed_orders(mails: &[Out]) -> Vec<(String, String, Vec<String>)> {
    let mut out: Vec<(String, String, Vec<String>)> = Vec::new();
    for m in mails {
        let mut lines = m.body.lines().peekable();
        while let Some(l) = lines.next() {
            let Some(rest) = l.strip_prefix("Orders for ") else {
                continue;
            };
            let power = rest.split(' ').next().unwrap().to_string();
            let phase = rest.rsplit('(').next().unwrap().trim_end_matches("):");
            let mut given = Vec::new();
            while let Some(o) = lines.next_if(|o| o.starts_with("  ")) {
                given.push(o.trim().to_string());
            }
            let complete = lines.find(|s| !s.is_empty()) == Some("Status: complete.");
            out.retain(|(ph, p, _)| !(ph == phase && *p == power));
            if complete {
                out.push((phase.to_string(), power, given));
            }
        }
    }
    out
}

/// The results mail of `phase` the Master got.
fn results<'a>(mails: &'a [Out], phase: &str) -> &'a Out {
    one(mails, MASTER, &format!("{phase} Results"))
}

/// Words in one case and one space, to compare an order as confirmed
/// with the results' line.
fn plain(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Every confirmed order is in its phase's results, as given, and not
/// void: how many were checked.
fn every_confirmed_order_happened(mails: &[Out]) -> usize {
    let confirmed = confirmed_orders(mails);
    let checked = confirmed.iter().map(|(_, _, o)| o.len()).sum();
    for (phase, power, orders) in confirmed {
        let body = &results(mails, &phase).body;
        let lines: Vec<String> = body
            .lines()
            .filter(|l| l.starts_with(&format!("{power}:")))
            .map(plain)
            .collect();
        for order in orders {
            let given = plain(&order);
            let line = lines.iter().find(|l| l.contains(&given));
            let Some(line) = line else {
                panic!(
                    "the reply confirmed {power}'s order {order:?} for {phase}, \
                     but the results do not show it:\n{body}"
                );
            };
            assert!(
                !line.contains("*void*"),
                "the reply confirmed {power}'s order {order:?} for {phase} (Status: complete), \
                 but the results show it void: {line}"
            );
        }
    }
    checked
}

#[test]
fn a_game_set_up_in_one_mail_gives_no_confirmation_that_turns_out_false() {
    let mut w = World::new("gm-one-mail", &[CALM]);
    set_up_in_one_mail(&mut w);
    spring_1901(&mut w);
    fall_1901(&mut w);
    winter_1901(&mut w);
    spring_1902(&mut w);
    to_the_end(&mut w);
    // Spring 1901: 22 units; Fall: all but Italy's 3; Winter: 2 builds.
    let checked = every_confirmed_order_happened(&w.sent);
    assert_eq!(
        checked,
        22 + 19 + 2,
        "the confirmed orders found in the replies"
    );
}

/// Monday 2 November 2026, 12:00 UTC: the Master's one mail, then the
/// seven players join.
fn set_up_in_one_mail(w: &mut World) {
    w.now = t(0, 12);
    let setup = [
        "SET NONMR",
        "SET GREY",
        "SET MOVE 0 20 * * Mon,Thu MIN 48 GRACE 24",
        "SET END 1903",
        "SET DEADLINE 2026-11-06 20:00",
        "SET FLAVOUR STRAWBERRY",
    ];
    let r = w.mail(
        MASTER,
        &format!("CREATE ?{G} {MASTER_PW}\n{}", setup.join("\n")),
    );
    let r = reply(&r, MASTER);
    for line in &setup[..4] {
        confirmed(r, line);
    }
    refused(r, "SET DEADLINE 2026-11-06 20:00", "has not started");
    refused(r, "SET FLAVOUR STRAWBERRY", "not a setting");

    let before = list(w);
    for (wanted, set) in [
        (
            "No NMR: a power without orders at the end of grace is abandoned",
            "SET NONMR",
        ),
        ("Press: white and grey", "SET GREY"),
        (
            "Movement deadlines: Mondays and Thursdays at 20:00 UTC, at least 48 hours after \
             the phase starts; grace 24 hours",
            "SET MOVE",
        ),
        ("End: a short game", "SET END 1903"),
        ("1903", "SET END 1903"),
    ] {
        has(
            &before,
            wanted,
            &format!("LIST does not show what {set} confirmed"),
        );
    }

    // Started Monday 12:00: 48 hours on is Wednesday 12:00; the first
    // Monday or Thursday 20:00 after it is Thursday 5 November.
    let start = w.join_all(G);
    let thursday = t(3, 20);
    assert_eq!(
        w.current(G),
        ("S1901M".to_string(), thursday),
        "the schedule confirmed (Mondays and Thursdays at 20:00, at least 48 hours on) \
         does not give the first deadline"
    );
    for (p, _) in POWERS {
        let mail = one(&start, &player(p), "Game starts");
        has(
            &mail.body,
            &format!("The deadline for orders is {}.", shown(thursday)),
            "the start mail's deadline",
        );
        has(
            &mail.body,
            "Mondays and Thursdays at 20:00 UTC",
            "the start mail's schedule",
        );
        has(
            &mail.body,
            "End: a short game, ending when 1903 is over (after its Winter builds and removals); the most pieces on the board then wins.",
            "SET END 1903 was confirmed, but the start mail does not say the game is short",
        );
    }
}

/// The Master's mistakes and a valid deadline; Turkey misses the deadline
/// (no NMR: the game waits); a newcomer tries to take Turkey over without
/// approval, then with it.
fn spring_1901(w: &mut World) {
    let later = t(3, 22);
    let lines = "SET DEADLINE 2026-11-01 20:00\nSET END 1902\nSET DEADLINE 2026-11-05 22:00";
    let r = master(w, lines);
    let rep = reply(&r, MASTER);
    refused(rep, "SET DEADLINE 2026-11-01 20:00", "that time has passed");
    confirmed(rep, "SET END 1902");
    let said = confirmed(rep, "SET DEADLINE 2026-11-05 22:00");
    has(&said, &shown(later), "the reply to SET DEADLINE");
    assert_eq!(
        w.current(G).1,
        later,
        "the reply said the deadline is now {}, but the game's deadline is not",
        shown(later)
    );
    for (p, _) in POWERS {
        let notice = one(&r, &player(p), "changed");
        has(
            &notice.body,
            "1902",
            "SET END after the start is not told to the players",
        );
    }
    has(
        &list(w),
        "1902",
        "LIST does not show the SET END 1902 confirmed",
    );

    // Every power but Turkey orders; Italy sends grey press; France asks
    // for an absence beyond the limit.
    for (p, _) in POWERS.iter().filter(|(p, _)| *p != 'T') {
        let orders = match p {
            'G' => "F Kie - Den\nA Mun - Ruh\nA Ber - Pru",
            'I' => "A Ven H\nA Rom H\nF Nap - Ion\nBROADCAST GREY\nWho am I?\nENDPRESS",
            _ => holds(*p),
        };
        let r = w.orders(G, *p, orders);
        if *p == 'I' {
            confirmed(reply(&r, &player('I')), "BROADCAST GREY");
            let press = one(&r, &player('E'), "Broadcast");
            has(
                &press.body,
                "Who am I?",
                "the grey press confirmed did not arrive",
            );
            assert!(
                !press.body.contains("Italy") && !press.subject.contains("Italy"),
                "the grey press confirmed names its sender: {}",
                press.body
            );
        }
    }
    let r = w.orders(G, 'F', "SET ABSENCE 2026-11-10 TO 2026-12-20");
    refused(
        reply(&r, &player('F')),
        "SET ABSENCE 2026-11-10 TO 2026-12-20",
        "14",
    );
    assert_eq!(
        w.current(G).1,
        later,
        "a refused absence moved the deadline"
    );

    // The deadline the Master set is the one kept: nobody is late before.
    let r = w.tick_until(t(3, 21), HOUR);
    assert!(
        about(&r, "late").is_empty(),
        "late before the deadline: {}",
        listing(&r)
    );
    // No NMR: at the end of grace the game waits, nothing is processed.
    let r = w.tick_until(later + 25 * HOUR, HOUR);
    assert!(
        about(&r, "Results").is_empty(),
        "SET NONMR was confirmed, but Spring 1901 was processed without Turkey: {}",
        listing(&r)
    );
    one(&r, MASTER, "Waiting for a replacement");
    assert_eq!(w.status(G, 'T'), "abandoned");
    take_over_turkey(w);
}

/// A newcomer without approval is refused and changes nothing; approved,
/// they take Turkey over and the phase goes on.
fn take_over_turkey(w: &mut World) {
    let body = format!("SIGNON T{G} fresh-pw\nA Con H\nA Smy H\nF Ank H");
    let r = w.mail(NEWCOMER, &body);
    has(
        &reply(&r, NEWCOMER).body,
        "***",
        "a takeover without approval",
    );
    assert_eq!(
        w.status(G, 'T'),
        "abandoned",
        "a refused takeover changed Turkey"
    );
    let r = master(w, &format!("SET TAKEOVER Turkey {NEWCOMER}"));
    one(&r, NEWCOMER, "You may take over Turkey");
    let r = w.mail(NEWCOMER, &body);
    has(
        &reply(&r, NEWCOMER).body,
        "You now play Turkey",
        "the approved newcomer",
    );
    let r = w.tick_until(w.now + 2 * HOUR, HOUR);
    results(&r, "S1901M");
    assert_eq!(w.current(G).0, "F1901M");
    // The Master turns NMR back on; the grey press allowed in the same
    // setup stays allowed.
    let r = master(w, "SET NMR");
    confirmed(reply(&r, MASTER), "SET NMR");
    let r = w.orders(G, 'E', "BROADCAST GREY\nStill anonymous?\nENDPRESS");
    confirmed(reply(&r, &player('E')), "BROADCAST GREY");
    let shown_list = list(w);
    has(
        &shown_list,
        "Press: white and grey",
        "SET NMR undid SET GREY",
    );
    has(
        &shown_list,
        "NMR: at the end of grace the orders given are carried out (units without orders \
         hold); a power that gave none is in civil disorder",
        "LIST after SET NMR",
    );
}

/// Germany takes Holland; Italy misses the deadline: NMR puts it in civil
/// disorder and the phase is processed at the end of grace.
fn fall_1901(w: &mut World) {
    for (p, _) in POWERS.iter().filter(|(p, _)| *p != 'I') {
        let orders = match p {
            'G' => "F Den H\nA Ruh - Hol\nA Pru H",
            _ => holds(*p),
        };
        if *p == 'T' {
            w.mail(NEWCOMER, &format!("SIGNON T{G} fresh-pw\n{orders}"));
        } else {
            w.orders(G, *p, orders);
        }
    }
    let (_, deadline) = w.current(G);
    let r = w.tick_until(deadline + 25 * HOUR, HOUR);
    let res = results(&r, "F1901M");
    has(&res.body, "Italy", "the results");
    has(
        &res.body,
        "civil disorder",
        "Italy missed the Fall: the results must say it is in civil disorder",
    );
    assert_eq!(w.current(G).0, "W1901A");
}

/// Germany is due two builds and sends three; the Master ejects Russia:
/// nothing is processed early and the old password signs on to nothing.
fn winter_1901(w: &mut World) {
    let r = w.orders(G, 'G', "Build A Ber\nBuild F Kie\nBuild A Mun");
    let rep = reply(&r, &player('G'));
    refused(rep, "Build A Mun", "2");
    let (_, deadline) = w.current(G);
    let r = master(w, "EJECT Russia");
    confirmed(reply(&r, MASTER), "EJECT Russia");
    assert!(
        about(&r, "Results").is_empty(),
        "EJECT processed the Winter at once: {}",
        listing(&r)
    );
    let r = w.orders(G, 'R', "WAIT");
    has(
        &reply(&r, &player('R')).body,
        "***",
        "the ejected player's old password",
    );
    assert!(!reply(&r, &player('R')).body.contains("Welcome back"));
    let r = w.tick_until(deadline - HOUR, HOUR);
    assert!(
        about(&r, "Results").is_empty(),
        "processed before the deadline: {}",
        listing(&r)
    );
    let r = w.tick_until(deadline + 26 * HOUR, HOUR);
    let res = results(&r, "W1901A");
    assert!(
        to(&r, &player('R')).is_empty(),
        "the ejected Russian player still gets the game's mail: {}",
        listing(&r)
    );
    has(&res.body, "Germany", "the Winter results");
}

/// The Master acts for Italy, in civil disorder: refused with the reason,
/// nothing confirmed; Austria resigns and cannot sign on again.
fn spring_1902(w: &mut World) {
    assert_eq!(w.current(G).0, "S1902M", "after the Winter");
    let r = master(w, "BECOME Italy\nF Ion - Tun");
    let rep = reply(&r, MASTER);
    confirmed(rep, "BECOME Italy");
    refused(rep, "F Ion - Tun", "Italy is in civil disorder");
    assert!(
        !rep.body.contains("Status: complete"),
        "the orders of Italy, in civil disorder, were confirmed: {}",
        rep.body
    );
    has(
        &rep.body,
        "Status: Italy is in civil disorder: no orders are taken for it until a player takes it over",
        "the status of a power in civil disorder",
    );
    let r = w.orders(G, 'A', "RESIGN");
    confirmed(reply(&r, &player('A')), "RESIGN");
    one(&r, MASTER, "Austria resigned");
    let r = w.orders(G, 'A', "A Vie - Gal");
    let rep = reply(&r, &player('A'));
    has(
        &rep.body,
        "Nothing after this line was done",
        "a resigned player signing on",
    );
    assert!(
        !rep.body.contains("Status: complete"),
        "a resigned player's orders were confirmed: {}",
        rep.body
    );
}

/// Nobody orders any more: NMR processes each phase at the end of grace,
/// and the short game (SET END 1902, confirmed after the start) ends
/// after 1902, Germany winning with the most pieces.
fn to_the_end(w: &mut World) {
    while w.export(G)["state"].as_str() != Some("finished") {
        let (phase, deadline) = w.current(G);
        assert!(phase.ends_with("1902M"), "the game went on into {phase}");
        w.tick_until(deadline + 25 * HOUR, HOUR);
        assert!(
            w.current(G).0 != phase || w.export(G)["state"].as_str() == Some("finished"),
            "SET NMR was confirmed, but {phase} was not processed at the end of grace"
        );
    }
    let last = results(&w.sent, "F1902M");
    has(
        &last.body,
        "Germany wins, with 5 pieces on the board",
        "the end of the short game",
    );
    has(
        &last.body,
        "In civil disorder: England, France, Germany, Italy, Turkey.",
        "the NMR",
    );
    let phases: Vec<String> = w.phases(G).into_iter().map(|(p, _)| p).collect();
    assert_eq!(
        phases.last().map(String::as_str),
        Some("F1902M"),
        "{phases:?}"
    );
    has(&list(w), "finished", "LIST after the end");
}
