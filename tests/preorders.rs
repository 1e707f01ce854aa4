//! njudge's `PHASE`: orders given ahead for a later phase, played by mail
//! against the real judge. They are stored when mailed, entered when their
//! phase begins (each checked against the position then, the player told
//! which were entered and why not), dropped when their phase is skipped,
//! added to by a later block, never given for another power, and entered
//! exactly once however many processes run the clock.

mod common;

use common::*;

const MASTER: &str = "gm@example.org";
/// The seven players, by the initial each asks for (distinct, so each
/// gets it).
const POWERS: &str = "AEFGIRT";

fn address(p: char) -> String {
    format!("{}@example.net", p.to_ascii_lowercase())
}

fn password(p: char) -> String {
    format!("secret-{p}")
}

/// A judge without map pictures (nothing here looks at them).
fn judge(name: &str) -> TestJudge {
    let j = TestJudge::new(name);
    j.set_config("maps", "enabled", "false");
    j
}

/// A game in S1901M, each power played by the player who asked for it.
fn start(j: &mut TestJudge, game: &str) {
    j.mail(MASTER, &format!("CREATE ?{game} mpass"));
    for p in POWERS.chars() {
        let body = format!("SIGNON ?{game} {}\nSET PREFERENCE {p}", password(p));
        j.mail(&address(p), &body);
    }
    assert_eq!(j.export(game)["state"], "active");
}

/// A mail from the player of `p`, signed on, with `lines` after; the
/// reply to it.
fn as_power(j: &mut TestJudge, game: &str, p: char, lines: &str) -> Sent {
    let body = format!("SIGNON {p}{game} {}\n{lines}", password(p));
    let mails = j.mail(&address(p), &body);
    one_to(&mails, &address(p)).clone()
}

/// The Master processes the current phase; the mails it caused.
fn process(j: &mut TestJudge, game: &str) -> Vec<Sent> {
    j.mail(MASTER, &format!("SIGNON M{game} mpass\nPROCESS"))
}

/// The pre-order notice to the player of `p` among `mails`.
fn notice_to(mails: &[Sent], p: char) -> &Sent {
    let notices: Vec<Sent> = with_subject(mails, "Pre-orders")
        .into_iter()
        .cloned()
        .collect();
    let found: Vec<&Sent> = mails
        .iter()
        .filter(|m| m.subject.contains("Pre-orders") && m.is_to(&address(p)))
        .collect();
    assert_eq!(found.len(), 1, "{}", dump(&notices));
    found[0]
}

fn current_phase(j: &TestJudge, game: &str) -> String {
    let export = j.export(game);
    let last = export["phases"].as_array().unwrap().last().unwrap().clone();
    last["phase"].as_str().unwrap().to_string()
}

fn preorders_stored(j: &TestJudge) -> i64 {
    j.query_i64("SELECT count(*) FROM preorders")
}

/// Austria takes Venice in the fall: the Italian army there must retreat
/// (to Piedmont, Tuscany or Apulia).
fn venice_falls(j: &mut TestJudge, game: &str) {
    as_power(j, game, 'A', "A Vie - Tyr");
    process(j, game);
    as_power(j, game, 'A', "F Tri - Ven\nA Tyr S F Tri - Ven");
}

#[test]
fn retreat_pre_orders_become_orders_when_the_retreats_come_and_bad_ones_say_why() {
    let mut j = judge("retreats");
    start(&mut j, "ret");
    let reply = as_power(
        &mut j,
        "ret",
        'I',
        "PHASE Fall 1901 Retreat\nA Ven - Tus\nA Rom - Apu",
    );
    assert!(
        reply
            .body
            .contains("Stored for Fall 1901 Retreats (F1901R) for Italy:"),
        "{}",
        reply.body
    );
    assert!(reply
        .body
        .contains("They are entered when that phase begins, if it does"));
    assert!(!reply.subject.contains("[Error Flag]"), "{}", reply.subject);
    // Nothing is confirmed beyond that: no order for now.
    assert!(
        !reply.body.contains("Army Venice -> Tuscany."),
        "{}",
        reply.body
    );
    venice_falls(&mut j, "ret");
    let mails = process(&mut j, "ret");
    assert_eq!(current_phase(&j, "ret"), "F1901R");
    let notice = notice_to(&mails, 'I');
    assert!(notice.subject.contains("F1901R"), "{}", notice.subject);
    assert!(
        notice.has_line("Entered: Army Venice -> Tuscany."),
        "{}",
        notice.body
    );
    assert!(
        notice.body.contains("> A Rom - Apu\n*** Not entered:"),
        "{}",
        notice.body
    );
    assert!(notice.has_line("Status: complete."), "{}", notice.body);
    assert_eq!(stored_orders(&j, "ret", "ITALY"), ["A VEN R TUS"]);
    assert_eq!(preorders_stored(&j), 0);
    // The results show the retreat as given.
    let mails = process(&mut j, "ret");
    let results = with_subject(&mails, "F1901R Results");
    assert!(!results.is_empty(), "{}", dump(&mails));
    let retreat = |l: &str| l.starts_with("Italy:") && l.ends_with(" Army Venice -> Tuscany.");
    assert!(results[0].body.lines().any(retreat), "{}", results[0].body);
}

#[test]
fn winter_build_pre_orders_are_entered_and_the_player_sees_them_until_then() {
    let mut j = judge("builds");
    start(&mut j, "bld");
    as_power(&mut j, "bld", 'G', "F Kie - Den");
    let reply = as_power(&mut j, "bld", 'G', "PHASE Winter 1901\nBuild A Kie");
    assert!(reply
        .body
        .contains("Stored for Winter 1901 Adjustments (W1901A) for Germany:"));
    // The order reply and LIST show them while they wait.
    assert!(
        reply.body.contains("Pre-orders stored for later phases (entered when each begins):\n  Winter 1901 Adjustments (W1901A):\n    Build A Kie"),
        "{}",
        reply.body
    );
    let listed = as_power(&mut j, "bld", 'G', "LIST bld");
    assert!(listed.body.contains("    Build A Kie"), "{}", listed.body);
    let other = as_power(&mut j, "bld", 'F', "LIST bld");
    assert!(!other.body.contains("Build A Kie"), "{}", other.body);
    process(&mut j, "bld");
    as_power(&mut j, "bld", 'G', "F Den H");
    let mails = process(&mut j, "bld");
    assert_eq!(current_phase(&j, "bld"), "W1901A");
    let notice = notice_to(&mails, 'G');
    assert!(
        notice.has_line("Entered: Build army Kiel."),
        "{}",
        notice.body
    );
    assert_eq!(stored_orders(&j, "bld", "GERMANY"), ["BUILD A KIE"]);
    let reply = as_power(&mut j, "bld", 'G', "LIST bld");
    assert!(!reply.body.contains("Pre-orders stored"), "{}", reply.body);
}

#[test]
fn pre_orders_for_a_skipped_phase_are_dropped_with_a_notice() {
    let mut j = judge("skipped");
    start(&mut j, "skp");
    as_power(
        &mut j,
        "skp",
        'F',
        "PHASE Spring 1901 Retreats\nA Par - Bur",
    );
    as_power(&mut j, "skp", 'F', "PHASE F1901M\nA Par - Pic");
    assert_eq!(preorders_stored(&j), 2);
    let mails = process(&mut j, "skp");
    // No unit was dislodged: straight to F1901M.
    assert_eq!(current_phase(&j, "skp"), "F1901M");
    let notice = notice_to(&mails, 'F');
    assert!(
        notice.body.contains(
            "Your pre-orders for France for Spring 1901 Retreats (S1901R) were dropped, none \
             entered: that phase was skipped, as no unit had to retreat."
        ),
        "{}",
        notice.body
    );
    assert!(
        notice.has_line("Entered: Army Paris -> Picardy."),
        "{}",
        notice.body
    );
    assert_eq!(stored_orders(&j, "skp", "FRANCE"), ["A PAR - PIC"]);
    assert_eq!(preorders_stored(&j), 0);
    // Only France had pre-orders: nobody else is told anything.
    assert_eq!(
        with_subject(&mails, "Pre-orders").len(),
        1,
        "{}",
        dump(&mails)
    );
}

/// njudge: a second block for a phase adds to the first (a later order
/// for a unit replacing the earlier one when they are entered); CLEAR in
/// a block clears what was stored before.
#[test]
fn a_later_block_adds_to_the_earlier_one_and_clear_in_it_replaces_them() {
    let mut j = judge("replace");
    start(&mut j, "rep");
    as_power(&mut j, "rep", 'F', "PHASE F1901M\nA Par - Bur\nA Mar - Spa");
    let reply = as_power(&mut j, "rep", 'F', "PHASE fall 1901\nA Par - Pic");
    assert!(
        reply
            .body
            .contains("They are added after the 2 line(s) stored before for F1901M."),
        "{}",
        reply.body
    );
    let mails = process(&mut j, "rep");
    let notice = notice_to(&mails, 'F');
    assert!(
        notice.has_line("Entered: Army Paris -> Picardy."),
        "{}",
        notice.body
    );
    let mut orders = stored_orders(&j, "rep", "FRANCE");
    orders.sort();
    assert_eq!(orders, ["A MAR - SPA", "A PAR - PIC"]);

    // CLEAR in a block: only the lines after it stay.
    as_power(&mut j, "rep", 'F', "PHASE S1902M\nA Pic - Bel\nA Spa - Por");
    let reply = as_power(&mut j, "rep", 'F', "PHASE S1902M\nCLEAR\nA Pic - Bur");
    assert!(
        reply.body.contains(
            "Pre-orders for S1902M cleared: the 2 line(s) stored before for France are removed."
        ),
        "{}",
        reply.body
    );
    assert_eq!(preorders_stored(&j), 1);
}

#[test]
fn a_bad_phase_line_is_refused_quoting_it_and_nothing_is_stored() {
    let mut j = judge("badphase");
    start(&mut j, "bad");
    let reply = as_power(&mut j, "bad", 'E', "PHASE after lunch\nF Lon - Nth");
    assert!(reply.subject.contains("[Error Flag]"), "{}", reply.subject);
    assert!(
        reply
            .body
            .contains("> PHASE after lunch\n*** 'after lunch' names no phase"),
        "{}",
        reply.body
    );
    assert!(reply
        .body
        .contains("None of the 1 line(s) under it was stored or applied:"));
    assert_eq!(preorders_stored(&j), 0);
    assert!(stored_orders(&j, "bad", "ENGLAND").is_empty());

    // A huge block under a bad PHASE line is quoted in part, as refused
    // orders are.
    let block = "F Lon - Nth\n".repeat(300);
    let reply = as_power(&mut j, "bad", 'E', &format!("PHASE after lunch\n{block}"));
    assert!(reply.body.contains("None of the 300 line(s) under it"));
    assert!(
        reply.body.contains("... and 250 more line(s)."),
        "{}",
        reply.body
    );
    assert!(
        reply.body.matches("    F Lon - Nth").count() == 50,
        "{}",
        reply.body
    );
}

#[test]
fn pre_orders_are_only_ever_for_the_power_signed_on() {
    let mut j = judge("otherpower");
    start(&mut j, "oth");
    // A wrong password: nothing after the sign-on is done.
    let body = "SIGNON Goth not-the-password\nPHASE F1901M\nA Mun - Ruh";
    let mails = j.mail(&address('F'), body);
    assert!(
        mails[0].subject.contains("[Error Flag]"),
        "{}",
        dump(&mails)
    );
    assert_eq!(preorders_stored(&j), 0);
    // France's own sign-on: a German unit's order is stored as France's
    // words, and never carried out for Germany.
    as_power(&mut j, "oth", 'F', "PHASE F1901M\nA Mun - Ruh");
    as_power(&mut j, "oth", 'G', "A Mun H");
    let mails = process(&mut j, "oth");
    let notice = notice_to(&mails, 'F');
    assert!(
        notice.body.contains("> A Mun - Ruh\n*** Not entered:"),
        "{}",
        notice.body
    );
    assert!(stored_orders(&j, "oth", "GERMANY").is_empty());
    assert!(stored_orders(&j, "oth", "FRANCE").is_empty());
    assert!(with_subject(&mails, "Pre-orders")
        .iter()
        .all(|m| !m.is_to(&address('G'))));
}

#[test]
fn rollback_and_eject_drop_pre_orders() {
    let mut j = judge("dropped");
    start(&mut j, "drp");
    as_power(&mut j, "drp", 'F', "PHASE W1901A\nBuild A Par");
    as_power(&mut j, "drp", 'E', "PHASE F1901M\nF Lon - Nth");
    let mails = j.mail(MASTER, "SIGNON Mdrp mpass\nEJECT France");
    assert!(
        !mails[0].subject.contains("[Error Flag]"),
        "{}",
        dump(&mails)
    );
    assert_eq!(
        j.query_i64("SELECT count(*) FROM preorders WHERE power = 'FRANCE'"),
        0
    );
    assert_eq!(preorders_stored(&j), 1);
    process(&mut j, "drp");
    as_power(&mut j, "drp", 'E', "PHASE W1901A\nBuild F Lon");
    let mails = j.mail(MASTER, "SIGNON Mdrp mpass\nROLLBACK S1901M");
    let notice = with_subject(&mails, "Rollback");
    assert!(!notice.is_empty(), "{}", dump(&mails));
    assert!(
        notice[0]
            .body
            .contains("The 1 pre-order line(s) given for later phases are dropped"),
        "{}",
        notice[0].body
    );
    assert_eq!(preorders_stored(&j), 0);
}

#[test]
fn two_clocks_at_once_enter_pre_orders_exactly_once() {
    let mut j = judge("parallel");
    start(&mut j, "par");
    as_power(
        &mut j,
        "par",
        'F',
        "A Par H\nA Mar H\nF Bre H\nPHASE F1901M\nA Par - Bur",
    );
    j.take();
    // Past the deadline and grace: the others go into civil disorder and
    // S1901M is processed, by whichever of the two gets there first.
    let when = at(24 * 4 + 1);
    let runs: Vec<Run> = std::thread::scope(|scope| {
        let clocks: Vec<_> = (0..2)
            .map(|_| scope.spawn(|| j.run(&["run", "--once", "--now", &when], b"")))
            .collect();
        clocks.into_iter().map(|c| c.join().unwrap()).collect()
    });
    // Both also send the queue, one after the other: each mail once.
    for run in &runs {
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
    assert_eq!(
        j.query_i64("SELECT count(*) FROM outbound WHERE sent_at IS NULL"),
        0
    );
    let sent = sent_message_ids(&j);
    let mut once = sent.clone();
    once.sort();
    once.dedup();
    assert_eq!(once.len(), sent.len(), "a mail sent twice: {sent:?}");
    assert_eq!(
        sent.len() as i64,
        j.query_i64("SELECT count(*) FROM outbound")
    );
    assert_eq!(
        runs.iter()
            .filter(|r| r.stderr.contains("clock: processed par S1901M"))
            .count(),
        1,
        "one clock processes S1901M: {runs:#?}"
    );
    assert_eq!(current_phase(&j, "par"), "F1901M");
    assert_eq!(
        j.query_i64("SELECT count(*) FROM outbound WHERE subject LIKE '%F1901M Pre-orders'"),
        1
    );
    assert_eq!(stored_orders(&j, "par", "FRANCE"), ["A PAR - BUR"]);
    assert_eq!(preorders_stored(&j), 0);
}

#[test]
fn pre_orders_for_after_the_end_of_the_game_are_dropped_with_a_notice() {
    let mut j = judge("ended");
    start(&mut j, "end");
    let mails = j.mail(MASTER, "SIGNON Mend mpass\nSET END 1901");
    assert!(
        !mails[0].subject.contains("[Error Flag]"),
        "{}",
        dump(&mails)
    );
    as_power(&mut j, "end", 'F', "PHASE Spring 1902\nA Par - Bur");
    process(&mut j, "end");
    let mails = process(&mut j, "end");
    assert_eq!(j.export("end")["state"], "finished");
    let notice = notice_to(&mails, 'F');
    assert!(
        notice.body.contains(
            "Your pre-orders for France for Spring 1902 Movement (S1902M) were dropped, none \
             entered: the game is over."
        ),
        "{}",
        notice.body
    );
    assert_eq!(preorders_stored(&j), 0);
}

#[test]
fn a_pre_order_not_entered_never_makes_the_phase_go_early() {
    let mut j = judge("early");
    start(&mut j, "ear");
    // Trieste is where the attack comes from: no retreat there.
    as_power(&mut j, "ear", 'I', "PHASE F1901R\nA Ven - Tri");
    venice_falls(&mut j, "ear");
    let mails = process(&mut j, "ear");
    let notice = notice_to(&mails, 'I');
    assert!(
        notice.body.contains("> A Ven - Tri\n*** Not entered:"),
        "{}",
        notice.body
    );
    assert!(
        notice
            .body
            .contains("Status: orders missing for 1: Army Venice."),
        "{}",
        notice.body
    );
    // An hour on, with every other power's orders in: F1901R waits for Italy.
    let run = j.run(&["run", "--once", "--now", &at(1)], b"");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(current_phase(&j, "ear"), "F1901R");
    // Italy's own order, mailed: now it goes early.
    j.now = at(1);
    as_power(&mut j, "ear", 'I', "A Ven - Tus");
    let run = j.run(&["run", "--once", "--now", &at(2)], b"");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(current_phase(&j, "ear"), "W1901A");
}

/// The Message-ID of every mail in the outbox (the shipped Maildir
/// outbox: one file per mail sent), as many times as it was sent.
fn sent_message_ids(j: &TestJudge) -> Vec<String> {
    let mut ids = Vec::new();
    for entry in std::fs::read_dir(j.dir.join("var/outbox/new")).unwrap() {
        let raw = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let id = raw
            .lines()
            .find_map(|l| l.strip_prefix("Message-ID: "))
            .unwrap_or_else(|| panic!("a sent mail without Message-ID:\n{raw}"));
        ids.push(id.to_string());
    }
    ids
}

#[test]
fn a_phase_block_over_the_line_cap_is_cut_as_mailed_orders_are() {
    let mut j = judge("cap");
    start(&mut j, "cap");
    let lines = "A Par - Xyz\n".repeat(600);
    let reply = as_power(&mut j, "cap", 'F', &format!("PHASE F1901M\n{lines}"));
    assert!(reply.subject.contains("[Error Flag]"), "{}", reply.subject);
    assert_eq!(
        reply.body.matches("Not stored for F1901M.").count(),
        50,
        "{}",
        reply.body
    );
    assert!(
        reply
            .body
            .contains("450 more order lines were refused; only the first 50 refusals are shown."),
        "{}",
        reply.body
    );
    assert!(
        reply
            .body
            .contains("Only the first 500 order lines of a mail are read: the other 100 were not."),
        "{}",
        reply.body
    );
}

#[test]
fn clear_under_phase_naming_the_current_phase_clears_the_current_orders() {
    let mut j = judge("clearnow");
    start(&mut j, "cln");
    as_power(&mut j, "cln", 'F', "A Par - Bur\nA Mar - Spa");
    let reply = as_power(&mut j, "cln", 'F', "PHASE S1901M\nCLEAR\nA Par - Pic");
    assert!(!reply.subject.contains("[Error Flag]"), "{}", reply.body);
    assert!(
        reply
            .body
            .contains("Your 2 order(s) for S1901M are cleared:\n    Army Marseilles -> Spain.\n    Army Paris -> Burgundy."),
        "{}",
        reply.body
    );
    assert_eq!(stored_orders(&j, "cln", "FRANCE"), ["A PAR - PIC"]);
    assert_eq!(preorders_stored(&j), 0);
}

#[test]
fn a_block_whose_every_line_is_refused_leaves_the_stored_one_alone() {
    let mut j = judge("allbad");
    start(&mut j, "alb");
    as_power(&mut j, "alb", 'F', "PHASE F1901M\nA Par - Bur");
    let reply = as_power(&mut j, "alb", 'F', "PHASE F1901M\nA Par - Xyz");
    assert!(reply.subject.contains("[Error Flag]"), "{}", reply.subject);
    assert!(
        reply.body.contains(
            "Nothing stored for F1901M: no line under PHASE was kept, so what was stored \
             before for France for it, if anything, stands."
        ),
        "{}",
        reply.body
    );
    assert!(!reply.body.contains("cleared"), "{}", reply.body);
    assert_eq!(preorders_stored(&j), 1);
    // An explicit CLEAR still clears, whatever follows it.
    let reply = as_power(&mut j, "alb", 'F', "PHASE F1901M\nCLEAR\nA Par - Xyz");
    assert!(
        reply
            .body
            .contains("Pre-orders for F1901M cleared: the 1 line(s) stored before"),
        "{}",
        reply.body
    );
    assert_eq!(preorders_stored(&j), 0);
}

#[test]
fn terminate_drops_pre_orders_with_a_notice() {
    let mut j = judge("terminate");
    start(&mut j, "ter");
    as_power(&mut j, "ter", 'F', "PHASE F1901M\nA Par - Bur");
    let mails = j.mail(MASTER, "SIGNON Mter mpass\nTERMINATE");
    assert_eq!(j.export("ter")["state"], "terminated");
    let notice = notice_to(&mails, 'F');
    assert!(
        notice.body.contains(
            "Your pre-orders for France for Fall 1901 Movement (F1901M) were dropped, none \
             entered: the game is over."
        ),
        "{}",
        notice.body
    );
    assert_eq!(preorders_stored(&j), 0);
}

#[test]
fn the_pre_order_notice_of_a_power_in_civil_disorder_says_so() {
    let mut j = judge("disorder");
    start(&mut j, "dis");
    as_power(&mut j, "dis", 'F', "PHASE F1901M\nA Par - Bur");
    j.take();
    // France gave no orders for S1901M: past grace it goes into civil
    // disorder, and its pre-orders cannot be entered.
    let run = j.run(&["run", "--once", "--now", &at(24 * 4 + 1)], b"");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(current_phase(&j, "dis"), "F1901M");
    let mails = j.take();
    let notice = notice_to(&mails, 'F');
    assert!(
        notice.has_line(
            "Status: France is in civil disorder: no orders are taken for it until a player \
             takes it over; the rulebook's orders for civil disorder stand in for its own."
        ),
        "{}",
        notice.body
    );
    assert!(!notice.body.contains("orders missing"), "{}", notice.body);
}
