//! Games for fewer players played through the mail front end: a
//! four-player game (one sign-on orders two countries; each country is
//! counted and shown separately) and the two-player game of 1914 (Italy
//! closed, the coin toss, Italy joining a side).

#[path = "common/clock_world.rs"]
mod clock_world;
mod common;

use clock_world::*;

fn world(name: &str) -> World {
    World::master_paced(name)
}

/// The Master creates a game of `variant`; the players (by initial) join,
/// each asking for a country of the bloc they should get.
fn start(w: &mut World, game: &str, variant: &str, players: &[char]) -> Vec<Out> {
    w.post(MASTER, &format!("CREATE ?{game} {MASTER_PW} {variant}"));
    for &p in players {
        w.post(
            &player(p),
            &format!("SIGNON ?{game} {}\nSET PREFERENCE {p}", password(p)),
        );
    }
    w.run(w.now)
}

/// The text with its line breaks and runs of spaces folded: results
/// mails wrap long sentences.
fn flat(body: &str) -> String {
    body.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether a results line for `power` ("France:") reads `text`.
fn has_line(body: &str, power: &str, text: &str) -> bool {
    body.lines()
        .any(|l| l.starts_with(power) && l[power.len()..].trim_start().starts_with(text))
}

fn process(w: &mut World, game: &str) -> Vec<Out> {
    w.mail(MASTER, &format!("SIGNON M{game} {MASTER_PW}\nPROCESS"))
}

#[test]
fn four_players_one_sign_on_orders_two_countries() {
    let mut w = world("four");
    let mails = start(&mut w, "quad", "four", &['E', 'A', 'G', 'I']);
    one(&mails, &player('E'), "Game starts: you are England");
    let af = one(
        &mails,
        &player('A'),
        "Game starts: you are Austria and France",
    );
    assert!(af.body.contains("SIGNON Aquad"), "{}", af.body);
    assert!(af.body.contains("SIGNON Fquad"), "{}", af.body);
    one(
        &mails,
        &player('G'),
        "Game starts: you are Germany and Turkey",
    );
    one(
        &mails,
        &player('I'),
        "Game starts: you are Italy and Russia",
    );

    // Austria's player orders France's units too, on one sign-on.
    let reply = w.orders(
        "quad",
        'A',
        "A Vie - Gal\nA Bud - Ser\nF Tri H\nA Par - Bur\nA Mar - Spa\nF Bre - Mao",
    );
    let ack = one(&reply, &player('A'), "S1901M");
    assert!(!ack.subject.contains("Error"), "{}", ack.body);
    assert!(ack.body.contains("Orders for Austria"), "{}", ack.body);
    assert!(ack.body.contains("Orders for France"), "{}", ack.body);
    assert!(ack.body.contains("Army Paris -> Burgundy."), "{}", ack.body);
    assert!(ack.body.contains("Army Vienna -> Galicia."), "{}", ack.body);

    // Signing on with France's initial works as well, with the same password.
    let again = w.mail(
        &player('A'),
        &format!("SIGNON Fquad {}\nA Mar - Gas", password('A')),
    );
    let ack = one(&again, &player('A'), "S1901M");
    assert!(
        ack.body.contains("Army Marseilles -> Gascony."),
        "{}",
        ack.body
    );

    let results = process(&mut w, "quad");
    let r = one(&results, &player('E'), "S1901M Results");
    assert!(r.body.contains("Variant: Four"), "{}", r.body);
    assert!(
        has_line(&r.body, "France:", "Army Paris -> Burgundy."),
        "{}",
        r.body
    );
    assert!(
        has_line(&r.body, "Austria:", "Army Budapest -> Serbia."),
        "{}",
        r.body
    );

    // Fall: Austria takes Serbia, France Spain; then each country is
    // counted on its own in the winter.
    w.orders(
        "quad",
        'A',
        "A Ser H\nA Gal H\nF Tri H\nA Bur H\nA Gas - Spa\nF Mao H",
    );
    let results = process(&mut w, "quad");
    let r = one(&results, &player('I'), "F1901M Results");
    assert!(r.body.contains("Austria:"), "{}", r.body);
    let export = w.export("quad");
    let last = export["phases"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["phase"], "W1901A", "{last}");
    let centers = &last["centers"];
    assert!(centers["AUSTRIA"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c == "SER"));
    assert!(centers["FRANCE"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c == "SPA"));

    // Builds for both countries from one sign-on; both show in the reply.
    let reply = w.orders("quad", 'A', "Build A Vie\nBuild A Par");
    let ack = one(&reply, &player('A'), "W1901A");
    assert!(ack.body.contains("Build army Vienna."), "{}", ack.body);
    assert!(ack.body.contains("Build army Paris."), "{}", ack.body);
    process(&mut w, "quad");
    let export = w.export("quad");
    let last = export["phases"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["phase"], "S1902M");
    assert!(last["units"]["AUSTRIA"]
        .as_array()
        .unwrap()
        .iter()
        .any(|u| u == "A VIE"));
    assert!(last["units"]["FRANCE"]
        .as_array()
        .unwrap()
        .iter()
        .any(|u| u == "A PAR"));
}

#[test]
fn two_players_italy_closed_then_the_coin_toss() {
    let mut w = world("two");
    let mails = start(&mut w, "duel", "two", &['E', 'A']);
    let ally = one(
        &mails,
        &player('E'),
        "Game starts: you are England, France and Russia",
    );
    assert!(ally.body.contains("Spring 1914"), "{}", ally.body);
    one(
        &mails,
        &player('A'),
        "Game starts: you are Austria, Germany and Turkey",
    );
    let export = w.export("duel");
    let first = &export["phases"][0];
    assert_eq!(first["phase"], "S1914M");
    assert!(
        first["units"].get("ITALY").is_none(),
        "neutral Italy has no units"
    );

    // Into Italy is impossible in 1914: refused in the reply, so the
    // units hold.
    w.orders("duel", 'A', "A Vie - Tyr\nF Tri - Ven");
    let results = process(&mut w, "duel");
    let r = one(&results, &player('A'), "S1914M Results");
    assert!(
        has_line(&r.body, "Austria:", "Fleet Trieste HOLD.  (*no order*)"),
        "{}",
        r.body
    );
    let reply = w.orders("duel", 'A', "A Tyr - Ven");
    assert!(
        flat(&reply[0].body).contains("Venice is closed: Italy is neutral"),
        "{}",
        reply[0].body
    );
    let results = process(&mut w, "duel");
    let r = one(&results, &player('E'), "F1914M Results");
    assert!(
        has_line(&r.body, "Austria:", "Army Tyrolia HOLD.  (*no order*)"),
        "{}",
        r.body
    );
    // The coin is tossed before the first winter; the result is announced.
    assert!(
        r.body.contains("The coin is tossed: Italy joins"),
        "{}",
        r.body
    );
    let export = w.export("duel");
    let players = &export["players"];
    assert!(
        players.get("ITALY").is_some(),
        "Italy has a player now: {players}"
    );
    let winter = export["phases"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(winter["phase"], "W1914A");
    // Italy's new side builds Italian units in its homeland.
    let side = if r.body.contains("Italy joins England") {
        'E'
    } else {
        'A'
    };
    let reply = w.orders("duel", side, "Build A Rom\nBuild F Nap\nBuild A Ven");
    let ack = one(&reply, &player(side), "W1914A");
    assert!(ack.body.contains("Orders for Italy"), "{}", ack.body);
    assert!(ack.body.contains("Build army Rome."), "{}", ack.body);
    process(&mut w, "duel");
    let export = w.export("duel");
    let spring = export["phases"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(spring["phase"], "S1915M");
    assert_eq!(
        spring["units"]["ITALY"].as_array().unwrap().len(),
        3,
        "{spring}"
    );
}

fn seven(name: &str, master_lines: &str) -> World {
    let mut w = world(name);
    w.start_game(name, master_lines);
    w
}

fn process_as_master(w: &mut World, game: &str) -> Vec<Out> {
    process(w, game)
}

#[test]
fn a_draw_when_every_survivor_votes_for_it_and_none_when_one_withdraws() {
    let mut w = seven("drawn", "");
    for (p, _) in POWERS {
        w.orders("drawn", p, "SET DRAW");
    }
    // One vote withdrawn: no draw.
    w.orders("drawn", 'T', "SET NODRAW");
    let results = process_as_master(&mut w, "drawn");
    assert!(!one(&results, &player('T'), "S1901M Results")
        .body
        .contains("declared a draw"));
    // All seven vote (again) in F1901M: a draw. (That votes stand
    // without being given again is tests/game_shows.rs's
    // draw_votes_stand_until_withdrawn.)
    for (p, _) in POWERS {
        w.orders("drawn", p, "SET DRAW");
    }
    let results = process_as_master(&mut w, "drawn");
    let r = one(&results, &player('F'), "F1901M Results");
    assert!(flat(&r.body).contains("The game was declared a draw between Austria, England, France, Germany, Italy, Russia and Turkey."), "{}", r.body);
    assert_eq!(w.export("drawn")["state"], "finished");
}

#[test]
fn a_concession_when_every_other_survivor_concedes_to_one_power() {
    let mut w = seven("conceded", "");
    for (p, _) in POWERS {
        if p != 'F' {
            w.orders("conceded", p, "SET CONCEDE France");
        }
    }
    let results = process_as_master(&mut w, "conceded");
    let r = one(&results, &player('F'), "S1901M Results");
    assert!(
        flat(&r.body).contains("The other players have conceded the game to France."),
        "{}",
        r.body
    );
    assert_eq!(w.export("conceded")["state"], "finished");
}

#[test]
fn a_short_game_ends_after_its_last_year_naming_the_leader() {
    let mut w = seven("short", "SET END 1901");
    // Russia takes Sweden in the Fall: 5 centres, the most.
    w.orders("short", 'R', "A War H\nA Mos H\nF Sev H\nF StP/sc - Bot");
    process_as_master(&mut w, "short");
    w.orders("short", 'R', "F Bot - Swe");
    let results = process_as_master(&mut w, "short");
    let r = one(&results, &player('E'), "F1901M Results");
    // Russia has 5 centres and 4 units: the winter's build comes first.
    assert!(!r.body.contains("short game ended"), "{}", r.body);
    w.orders("short", 'R', "Build A StP");
    let results = process_as_master(&mut w, "short");
    let r = one(&results, &player('E'), "W1901A Results");
    assert!(
        flat(&r.body)
            .contains("The short game ended after 1901: Russia wins, with 5 pieces on the board."),
        "{}",
        r.body
    );
    assert_eq!(w.export("short")["state"], "finished");
}
