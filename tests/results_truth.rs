//! Nothing confirmed that will not happen, and results mails that say what
//! happened and why (issue 12): a game driven through the judge's Maildirs
//! by its Master and players.

#[path = "common/clock_world.rs"]
mod clock_world;
mod common;

use clock_world::*;

fn world(name: &str) -> World {
    World::master_paced(name)
}

/// The Master processes the current phase; the results mail the Master got.
fn process(w: &mut World, game: &str) -> Out {
    let mails = w.mail(MASTER, &format!("SIGNON M{game} {MASTER_PW}\nPROCESS"));
    one(&mails, MASTER, "Results").clone()
}

/// The reply to a power's mail.
fn reply_to(mails: &[Out], p: char) -> &Out {
    to(mails, &player(p))
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("a reply to {p}: {}", listing(mails)))
}

/// A game in which England takes Norway and Belgium in 1901: in W1901A it
/// is due 2 builds, with three free home centres.
fn england_due_two(w: &mut World, game: &str) {
    w.start_game(game, "");
    w.orders(game, 'E', "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor");
    process(w, game);
    w.orders(game, 'E', "F Nth-Bel\nF Nwg-Nwy\nA Yor H");
    let res = process(w, game);
    assert!(
        res.body.contains("Adjustments for Winter of 1901"),
        "{}",
        res.body
    );
}

#[test]
fn moves_into_neutral_italy_are_refused_at_once() {
    let mut w = world("neutral");
    let g = "duel";
    create(&mut w, g, "two", &['E', 'A'], "");
    let r = w.orders(g, 'A', "A Vie - Tyr\nF Tri - Ven\nA Bud S F Tri - Ven");
    let rep = reply_to(&r, 'A');
    assert!(rep.subject.contains("[Error Flag]"), "{}", rep.subject);
    assert!(
        rep.body
            .contains("Venice is closed: Italy is neutral until the coin toss"),
        "{}",
        rep.body
    );
    assert!(
        rep.body.contains("  Army Vienna -> Tyrolia."),
        "{}",
        rep.body
    );
    assert!(
        !rep.body.contains("  Fleet Trieste -> Venice."),
        "{}",
        rep.body
    );
    let res = process(&mut w, g);
    assert!(!res.body.contains("*void*"), "{}", res.body);
}

#[test]
fn builds_beyond_those_due_are_refused_at_once() {
    let mut w = world("builds");
    let g = "builds";
    england_due_two(&mut w, g);
    let r = w.orders(g, 'E', "Build A Lvp\nBuild F Lon\nBuild F Edi");
    let rep = reply_to(&r, 'E');
    assert!(
        rep.body
            .contains("England is due 2 builds: the third, Build fleet Edinburgh, is refused."),
        "{}",
        rep.body
    );
    assert!(rep.subject.contains("[Error Flag]"), "{}", rep.subject);
    assert!(
        !rep.body.contains("  Build fleet Edinburgh."),
        "{}",
        rep.body
    );
    assert!(rep.body.contains("Status: complete."), "{}", rep.body);
    // A build in the same place replaces, and is not refused.
    let r = w.orders(g, 'E', "Build F Lvp");
    let rep = reply_to(&r, 'E');
    assert!(!rep.subject.contains("[Error Flag]"), "{}", rep.body);
    assert!(
        rep.body.contains("  Build fleet Liverpool."),
        "{}",
        rep.body
    );
    let res = process(&mut w, g);
    assert!(!res.body.contains("*void*"), "{}", res.body);
    assert!(res.body.contains("Build fleet Liverpool."), "{}", res.body);
    assert!(res.body.contains("Build fleet London."), "{}", res.body);
}

#[test]
fn results_list_every_unit_and_spell_centres_one_way() {
    let mut w = world("units");
    let g = "units";
    england_due_two(&mut w, g);
    let res = w
        .sent
        .iter()
        .rev()
        .find(|m| m.is_to(MASTER) && m.subject.contains("F1901M Results"));
    let body = &res.expect("the F1901M results").body;
    let has = |line: &str| body.lines().any(|l| l.trim_end() == line);
    assert!(
        has("Units on the board for Winter of 1901 (Adjustments):"),
        "{body}"
    );
    assert!(
        has("England (3):  Fleet Belgium, Fleet Norway, Army Yorkshire."),
        "{body}"
    );
    assert!(
        has("Russia (4):   Army Moscow, Fleet Sevastopol, Fleet St Petersburg (south"),
        "{body}"
    );
    assert!(has("Ownership of supply centres:"), "{body}");
    assert!(
        has("England:   5 Supply centres,  3 Units:  Builds   2 units."),
        "{body}"
    );
    assert!(!body.contains("center"), "one spelling: {body}");
}

#[test]
fn results_say_who_is_in_civil_disorder() {
    let mut w = world("disorder");
    let g = "disorder";
    w.start_game(g, "");
    // Germany never orders: at the end of grace it is in civil disorder.
    for p in ['A', 'E', 'F', 'I', 'R', 'T'] {
        w.post_orders(g, p, holds(p));
    }
    let mails = w.tick_until(t(5, 0), 6 * 3600);
    let res = one(&mails, MASTER, "S1901M Results");
    assert_eq!(w.status(g, 'G'), "civil_disorder");
    assert!(
        res.body.lines().any(|l| l
            == "Germany: Army Berlin HOLD.  (*no order*) (Germany is in civil disorder)"),
        "{}",
        res.body
    );
    assert!(
        res.body
            .contains("In civil disorder: Germany. Their units hold without orders"),
        "{}",
        res.body
    );
    // The Master acting for Germany is told at once that its orders will
    // not be carried out, and nothing is stored.
    let r = w.mail(
        MASTER,
        &format!("SIGNON M{g} {MASTER_PW}\nBECOME Germany\nA Mun - Ruh"),
    );
    let rep = one(&r, MASTER, "F1901M");
    assert!(rep.subject.contains("[Error Flag]"), "{}", rep.subject);
    assert!(
        rep.body
            .contains("Germany is in civil disorder: its units hold and it builds nothing"),
        "{}",
        rep.body
    );
    assert!(!rep.body.contains("Status: complete"), "{}", rep.body);
}

/// A player of Italy and Russia builds where a Russian army stands: told
/// the province is occupied, not that it is not a home centre.
#[test]
fn a_build_on_an_occupied_centre_says_so_for_a_player_of_two_countries() {
    let mut w = world("occupied");
    let g = "quad";
    create(&mut w, g, "four", &['E', 'A', 'G', 'I'], "");
    w.orders(g, 'I', "F Sev - Rum");
    process(&mut w, g);
    let res = process(&mut w, g);
    assert!(
        res.body.contains("Adjustments for Winter of 1901"),
        "{}",
        res.body
    );
    let r = w.orders(g, 'I', "Build A Mos");
    let rep = reply_to(&r, 'I');
    assert!(
        rep.body.contains("There is already a unit in Moscow."),
        "{}",
        rep.body
    );
    assert!(!rep.body.contains("not one of your home"), "{}", rep.body);
}

/// A game `game` of `variant` ("four", "two"),
/// created with the Master's `master` lines and joined by `players` (by
/// initial), each asking for their own country.
fn create(w: &mut World, game: &str, variant: &str, players: &[char], master: &str) {
    w.post(
        MASTER,
        &format!("CREATE ?{game} {MASTER_PW} {variant}\n{master}"),
    );
    for &p in players {
        let sign_on = format!("SIGNON ?{game} {}", password(p));
        w.post(&player(p), &format!("{sign_on}\nSET PREFERENCE {p}"));
    }
    w.run(w.now);
}

/// The short game (rulebook III): at the end year the player with the most
/// pieces on the board wins, a player's countries counted together.
#[test]
fn the_short_game_is_won_by_the_player_with_the_most_pieces() {
    let mut w = world("short");
    let g = "short";
    create(&mut w, g, "four", &['E', 'A', 'G', 'I'], "SET END 1901");
    process(&mut w, g);
    // Nobody builds or removes: the Fall ends the game.
    let res = process(&mut w, g);
    let flat = res.body.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "The short game ended after 1901: the player of Italy and Russia wins, \
             with 7 pieces on the board."
        ),
        "{}",
        res.body
    );
    // No phase after the game's end: the summary closes at F1901M and
    // shows the final position as "end", the export lists no S1902M.
    assert!(
        res.body.contains("Italy    S1901M-F1901M (1 player)"),
        "{}",
        res.body
    );
    assert!(!res.body.contains("S1902M"), "{}", res.body);
    assert!(
        res.body.contains("  end      3   3   3   3   3   4   3"),
        "{}",
        res.body
    );
    let export = w.export(g);
    let names: Vec<&str> = export["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["phase"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["S1901M", "F1901M"]);
    assert_eq!(export["final_position"]["phase"], "S1902M");
}
