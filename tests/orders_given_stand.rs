//! What a power gave is what happens at the deadline (rules VIII.1 and
//! XIV.3): black-box, by mail and the clock, in an NMR game played to the
//! end of grace phase after phase. A power that ordered some of its units
//! has those orders carried out and its other units hold; its partial
//! retreats, builds and removals are made and the rest disbanded, waived
//! or chosen by the civil-disorder rule; only a power that sent nothing
//! for the phase is in civil disorder, and one that orders again plays on.

#[path = "common/clock_world.rs"]
mod clock_world;
mod common;

use clock_world::*;

/// Ticks a day apart are no outage.
const CALM: (&str, &str, &str) = ("clock", "outage_minutes", "1440");

/// Grace after every deadline, as the shipped judge.toml sets it.
const GRACE: i64 = 24 * HOUR;

/// Ticks every six hours from now to the end of the current phase's
/// grace; returns what was sent.
fn to_end_of_grace(w: &mut World, game: &str) -> Vec<Out> {
    let (_, deadline) = w.current(game);
    w.tick_until(deadline + GRACE, 6 * HOUR)
}

/// The results mail of `phase` among `mails` (France's copy).
fn results(mails: &[Out], phase: &str) -> String {
    let found: Vec<&Out> = mails
        .iter()
        .filter(|m| {
            m.subject.contains(phase) && m.subject.contains("Results") && m.is_to(&player('F'))
        })
        .collect();
    assert_eq!(found.len(), 1, "{phase} results: {}", listing(mails));
    found[0].body.clone()
}

/// The late notice sent to one power among `mails`, its lines joined
/// (the judge folds long lines).
fn late_notice(mails: &[Out], p: char) -> String {
    let body = &one(mails, &player(p), "late").body;
    body.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The reply to a power's order mail.
fn reply(mails: &[Out], p: char) -> String {
    to(mails, &player(p))[0].body.clone()
}

#[test]
fn partial_orders_are_carried_out_through_movement_retreats_and_builds() {
    let mut w = World::new("given", &[CALM]);
    w.now = t(0, 12);
    w.start_game("given", "");

    // Spring 1901. Italy orders one of its three units; England nothing.
    w.now = t(0, 13);
    let mails = w.orders("given", 'I', "A Ven - Tyr");
    let italy = reply(&mails, 'I');
    assert!(
        italy.contains(
            "Status: orders missing for 2: Fleet Naples, Army Rome.\nA unit without an order holds."
        ),
        "{italy}"
    );
    w.post_orders("given", 'A', "A Vie - Gal\nA Bud H\nF Tri H");
    w.post_orders("given", 'F', "A Par - Bur\nA Mar - Spa\nF Bre - Mao");
    w.post_orders("given", 'G', "A Ber - Sil\nA Mun H\nF Kie H");
    w.post_orders("given", 'R', holds('R'));
    w.post_orders("given", 'T', "A Smy - Arm\nF Ank - Bla\nA Con H");
    w.run(t(0, 14));

    let mails = to_end_of_grace(&mut w, "given");
    // At the deadline each is told what the end of grace will do.
    let to_italy = late_notice(&mails, 'I');
    assert!(
        to_italy.contains("the orders you gave are carried out. A unit without an order holds."),
        "{to_italy}"
    );
    assert!(!to_italy.contains("civil disorder"), "{to_italy}");
    let to_england = late_notice(&mails, 'E');
    assert!(
        to_england.contains("with no order at all from you, England goes into civil disorder"),
        "{to_england}"
    );
    // At the end of grace: Italy's order carried out, its other units
    // held; England, which sent nothing, is in civil disorder.
    let body = results(&mails, "S1901M");
    assert!(
        body.contains("Italy:   Army Venice -> Tyrolia.\n"),
        "{body}"
    );
    assert!(
        body.contains("Italy:   Army Rome HOLD.  (*no order*)\n"),
        "{body}"
    );
    assert!(!body.contains("Italy is in civil disorder"), "{body}");
    assert!(body.contains("In civil disorder: England."), "{body}");
    assert_eq!(w.status("given", 'I'), "active");
    assert_eq!(w.status("given", 'E'), "civil_disorder");
    assert_eq!(
        w.units("given", "F1901M", "ITALY"),
        ["A ROM", "A TYR", "F NAP"]
    );

    // Fall 1901. England comes back and plays on. Russia orders two units
    // of four: its unordered army and fleet hold and are dislodged, with
    // retreats. Italy supports its own unordered fleet: the support stands.
    let mails = w.orders("given", 'E', holds('E'));
    assert!(
        reply(&mails, 'E').contains("Welcome back: your power is in play again."),
        "{}",
        reply(&mails, 'E')
    );
    w.post_orders("given", 'R', "A Mos H\nF StP H");
    w.post_orders("given", 'I', "A Rom S F Nap");
    w.post_orders("given", 'A', "A Gal - War\nA Bud H\nF Tri H");
    w.post_orders("given", 'F', "A Bur H\nA Spa H\nF Mao - Por");
    w.post_orders("given", 'G', "A Sil S A Gal - War\nA Mun H\nF Kie H");
    w.post_orders("given", 'T', "A Arm - Sev\nF Bla S A Arm - Sev\nA Con H");
    let now = w.now + HOUR;
    w.run(now);
    let mails = to_end_of_grace(&mut w, "given");
    let body = results(&mails, "F1901M");
    assert!(
        body.contains("Italy:   Army Rome SUPPORT Fleet Naples.\n"),
        "{body}"
    );
    assert!(body.contains("Russia:  Army Moscow HOLD.\n"), "{body}");
    assert!(!body.contains("In civil disorder"), "{body}");
    assert!(
        body.contains("The Russian Army in Warsaw can retreat to"),
        "{body}"
    );
    assert!(
        body.contains("The Russian Fleet in Sevastopol can retreat to Rumania."),
        "{body}"
    );
    assert_eq!(w.status("given", 'E'), "active");
    assert_eq!(w.status("given", 'R'), "active");

    // Fall 1901 retreats: Russia orders one retreat of two. It is made;
    // the other dislodged unit is disbanded; Russia is not in disorder.
    w.post_orders("given", 'R', "A War - Lvn");
    let now = w.now + HOUR;
    w.run(now);
    let mails = to_end_of_grace(&mut w, "given");
    let to_russia = late_notice(&mails, 'R');
    assert!(
        to_russia.contains(
            "the orders you gave are carried out. A dislodged unit without an order is disbanded."
        ),
        "{to_russia}"
    );
    let body = results(&mails, "F1901R");
    assert!(
        body.contains("Russia:  Army Warsaw -> Livonia.\n"),
        "{body}"
    );
    assert!(!body.contains("In civil disorder"), "{body}");
    assert_eq!(w.status("given", 'R'), "active");
    assert_eq!(
        w.units("given", "W1901A", "RUSSIA"),
        ["A LVN", "A MOS", "F STP/SC"]
    );

    // Winter 1901: France is due two builds and gives one; Russia is due
    // one removal and gives nothing. France's build is made and the other
    // waived; only Russia is in civil disorder, losing a unit by the rule.
    let mails = w.orders("given", 'F', "Build A Par");
    let france = reply(&mails, 'F');
    assert!(
        france.contains("Status: orders missing for 1: 1 build.\nA build not ordered is waived."),
        "{france}"
    );
    w.post_orders("given", 'A', "Build A Vie");
    w.post_orders("given", 'T', "Build A Smy");
    let now = w.now + HOUR;
    w.run(now);
    let mails = to_end_of_grace(&mut w, "given");
    let to_russia = late_notice(&mails, 'R');
    assert!(
        to_russia.contains("Russia goes into civil disorder: it builds nothing"),
        "{to_russia}"
    );
    let body = results(&mails, "W1901A");
    assert!(body.contains("France:  Build army Paris.\n"), "{body}");
    assert!(body.contains("In civil disorder: Russia."), "{body}");
    assert_eq!(w.status("given", 'F'), "active");
    assert_eq!(w.status("given", 'R'), "civil_disorder");
    assert_eq!(
        w.units("given", "S1902M", "FRANCE"),
        ["A BUR", "A PAR", "A SPA", "F POR"]
    );
    assert_eq!(w.units("given", "S1902M", "RUSSIA").len(), 2);
}

#[test]
fn partial_removals_are_made_and_only_the_rest_chosen_by_the_rule() {
    let mut w = World::new("removals", &[CALM]);
    w.now = t(0, 12);
    w.start_game("removals", "");

    // Spring: Germany leaves all three home centres.
    w.now = t(0, 13);
    w.post_orders("removals", 'G', "A Ber - Pru\nA Mun - Boh\nF Kie - Bal");
    w.post_orders("removals", 'R', "A War - Sil\nA Mos H\nF Sev H\nF StP H");
    w.post_orders("removals", 'F', "A Par - Bur\nA Mar H\nF Bre H");
    for p in ['A', 'E', 'I', 'T'] {
        w.post_orders("removals", p, holds(p));
    }
    w.run(t(0, 13));
    let mails = to_end_of_grace(&mut w, "removals");
    results(&mails, "S1901M");

    // Fall: Russia and France walk into Berlin and Munich; Germany orders
    // one unit of three.
    w.post_orders("removals", 'G', "A Pru H");
    w.post_orders("removals", 'R', "A Sil - Ber\nA Mos H\nF Sev H\nF StP H");
    w.post_orders("removals", 'F', "A Bur - Mun\nA Mar H\nF Bre H");
    w.post_orders("removals", 'A', "A Vie H\nA Bud H\nF Tri H");
    for p in ['E', 'I', 'T'] {
        w.post_orders("removals", p, holds(p));
    }
    let now = w.now + HOUR;
    w.run(now);
    let mails = to_end_of_grace(&mut w, "removals");
    let body = results(&mails, "F1901M");
    assert!(!body.contains("In civil disorder"), "{body}");

    // Winter: Germany holds Kiel only and has three units: two removals
    // due. It gives one; the other is chosen by the civil-disorder rule.
    let mails = w.orders("removals", 'G', "Remove A Boh");
    let germany = reply(&mails, 'G');
    assert!(
        germany.contains(
            "Status: orders missing for 1: 1 removal.\nA removal not ordered is made by the \
             civil-disorder rule"
        ),
        "{germany}"
    );
    w.post_orders("removals", 'R', "Build A War");
    w.post_orders("removals", 'F', "Build A Par");
    let now = w.now + HOUR;
    w.run(now);
    let mails = to_end_of_grace(&mut w, "removals");
    let body = results(&mails, "W1901A");
    assert!(body.contains("Germany: Remove army Bohemia.\n"), "{body}");
    assert!(!body.contains("In civil disorder"), "{body}");
    assert_eq!(w.status("removals", 'G'), "active");
    let left = w.units("removals", "S1902M", "GERMANY");
    assert_eq!(left.len(), 1, "{left:?}\n{body}");
    assert!(!left.contains(&"A BOH".to_string()), "{left:?}");
}
