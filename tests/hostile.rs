//! Hostile input, black-box: what a stranger (or bad luck) can do to the
//! judge by mail, and what it must not achieve — locking a player out,
//! turning the judge into a mail cannon, reading a secret, or making the
//! judge take mail against a new empty database.

mod common;

use common::*;

// A database gone (an unmounted volume) ----------------------------------

/// The database and its WAL files, removed as an unmounted volume would.
fn lose_database(j: &TestJudge) {
    for suffix in ["", "-wal", "-shm"] {
        let mut path = j.db_path().into_os_string();
        path.push(suffix);
        let _ = std::fs::remove_file(path);
    }
    assert!(!j.db_path().exists());
}

#[test]
fn with_the_database_gone_handle_exits_75_and_makes_none() {
    let mut j = TestJudge::new("nodb");
    let mails = j.mail("gm@example.org", "CREATE ?lost secret\n");
    assert!(
        !mails.is_empty(),
        "the judge answers while its database is there"
    );
    lose_database(&j);

    let raw = Mail::new(
        "france@example.org",
        "orders",
        "SIGNON Flost pw\nA Par - Bur",
    )
    .raw();
    let run = j.run(&["handle"], raw.as_bytes());
    assert_eq!(run.code, Some(75), "{}", run.stderr);
    assert!(run.stderr.contains("is missing"), "{}", run.stderr);
    assert!(!j.db_path().exists(), "no new database appears");

    // Nor does `judge run`: it refuses to start, and says why.
    let run = j.run(&["run", "--once"], b"");
    assert!(!run.ok, "{}", run.stderr);
    assert!(
        run.stderr.contains("is missing") && run.stderr.contains("judge init"),
        "{}",
        run.stderr
    );
    assert!(!j.db_path().exists(), "no new database appears");

    // `judge check` says which it is.
    let run = j.run(&["check"], b"");
    assert!(!run.ok);
    assert!(
        run.stdout.contains("is missing") && run.stdout.contains("volume mounted"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_fresh_judge_makes_its_database_on_the_first_run_only() {
    // A folder with nothing but the shipped judge.toml: handle waits for
    // the first run (75: the mail system keeps the mail).
    let dir = std::env::temp_dir().join(format!("judge-fresh-{}-{}", std::process::id(), unique()));
    std::fs::create_dir_all(&dir).unwrap();
    let toml = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("judge.toml");
    std::fs::copy(&toml, dir.join("judge.toml")).unwrap();
    let judge = |args: &[&str], stdin: &[u8]| {
        use std::io::Write;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_judge"))
            .arg("--config")
            .arg(dir.join("judge.toml"))
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(stdin).unwrap();
        child.wait_with_output().unwrap()
    };
    let db = dir.join("var/judge.db");
    let check = judge(&["check"], b"");
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(said.contains("fresh judge"), "{said}");
    assert!(!db.exists(), "judge check makes nothing");

    let raw = Mail::new("gm@example.org", "create", "CREATE ?fresh secret").raw();
    let out = judge(&["handle"], raw.as_bytes());
    assert_eq!(out.status.code(), Some(75));
    assert!(!db.exists());

    let out = judge(&["run", "--once"], b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(db.exists(), "the first run makes the database");
    let out = judge(&["handle"], raw.as_bytes());
    assert_eq!(out.status.code(), Some(0));

    // Lost after that, it is not made again.
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(dir.join(format!("var/judge.db{suffix}")));
    }
    let out = judge(&["run", "--once"], b"");
    assert!(!out.status.success());
    assert!(!db.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

// A game to attack -------------------------------------------------------

const MASTER: &str = "gm@example.org";
const POWERS: [(char, &str); 7] = [
    ('A', "austria"),
    ('E', "england"),
    ('F', "france"),
    ('G', "germany"),
    ('I', "italy"),
    ('R', "russia"),
    ('T', "turkey"),
];

fn player(p: char) -> String {
    let name = POWERS.iter().find(|(c, _)| *c == p).unwrap().1;
    format!("{name}@players.example")
}

fn password(p: char) -> String {
    format!("Pw{p}-long-enough")
}

/// A started game `name`, each power with the player it asked for.
fn started_game(j: &mut TestJudge, name: &str) {
    j.mail(MASTER, &format!("CREATE ?{name} mpass-secret"));
    for (p, _) in POWERS {
        j.mail(
            &player(p),
            &format!("SIGNON ?{name} {}\nSET PREFERENCE {p}", password(p)),
        );
    }
    let r = j.mail(MASTER, &format!("SIGNON M{name} mpass-secret\nLIST {name}"));
    assert!(
        r[0].body.contains("S1901M") || r[0].body.contains("Spring 1901"),
        "{}",
        dump(&r)
    );
    j.take();
}

fn orders(j: &mut TestJudge, game: &str, p: char, lines: &str) -> Vec<Sent> {
    let body = format!("SIGNON {p}{game} {}\n{lines}", password(p));
    j.mail(&player(p), &body)
}

// Guessing slows the guesser, never the owner ----------------------------

#[test]
fn twenty_wrong_sign_ons_from_a_stranger_never_lock_out_the_owner() {
    let mut j = TestJudge::new("guess");
    started_game(&mut j, "g1");
    let stranger = "mallory@outside.example";
    let mut replies = 0;
    let mut told = Vec::new();
    for k in 0..20 {
        let r = j.mail(stranger, &format!("SIGNON Fg1 guess{k}\nA Par - Bur"));
        replies += to(&r, stranger).len();
        told.extend(with_subject(&r, "Sign-ons locked").into_iter().cloned());
    }
    // The guesser hears little: a stranger gets a few replies an hour, and
    // nothing once locked out.
    assert!(replies <= 6, "{replies} replies to the guesser");
    // The owner's right password from the address of record: taken.
    let r = orders(&mut j, "g1", 'F', "A Par - Bur");
    let reply = one_to(&r, &player('F'));
    assert!(reply.body.contains("Signed on as France"), "{}", reply.body);
    assert!(
        reply.body.contains("Army Paris -> Burgundy."),
        "{}",
        reply.body
    );
    assert_eq!(stored_orders(&j, "g1", "FRANCE"), ["A PAR - BUR"]);
    // The owner heard of the tries, once, naming the address.
    assert_eq!(told.len(), 1, "{}", dump(&told));
    assert!(told[0].is_to(&player('F')));
    assert!(told[0].body.contains(stranger), "{}", told[0].body);
    // Past the lock the guesser's tries are not even checked: the right
    // password from the guesser's address is refused too.
    let r = j.mail(
        stranger,
        &format!("SIGNON Fg1 {}\nA Par - Pic", password('F')),
    );
    assert!(to(&r, stranger).is_empty(), "{}", dump(&r));
    assert_eq!(stored_orders(&j, "g1", "FRANCE"), ["A PAR - BUR"]);
}

// A batch's sign-ons checked ahead change no answer -----------------------

/// The mails of a batch of sign-ons, in delivery order: right and wrong
/// passwords for one seat, a stranger guessing until locked out and then
/// giving the right one, a password changed in the middle and the old one
/// given after it, a seat's only sign-on wrong, a player from another
/// address, and the Master.
fn sign_on_batch() -> Vec<Mail> {
    let stranger = "mallory@outside.example";
    let f = |pw: &str, rest: &str| (player('F'), format!("SIGNON Fg1 {pw}\n{rest}"));
    let mut mails = vec![
        f(&password('F'), "A Par - Bur"),
        f("Not-the-password", "A Par - Pic"),
    ];
    for k in 0..5 {
        mails.push((
            stranger.to_string(),
            format!("SIGNON Fg1 guess{k}\nA Par - Pic"),
        ));
    }
    mails.extend([
        (
            stranger.to_string(),
            format!("SIGNON Fg1 {}\nA Par - Pic", password('F')),
        ),
        f(&password('F'), "SET PASSWORD Changed-long-enough"),
        f(&password('F'), "A Par - Gas"),
        f("Changed-long-enough", "A Mar - Spa"),
        (
            player('G'),
            format!("SIGNON Gg1 {}\nA Mun - Ruh", password('G')),
        ),
        (
            player('I'),
            "SIGNON Ig1 Wrong-for-italy\nA Ven - Pie".to_string(),
        ),
        (
            "other@players.example".to_string(),
            format!("SIGNON Eg1 {}\nF Lon - Nth", password('E')),
        ),
        (
            MASTER.to_string(),
            "SIGNON Mg1 mpass-secret\nLIST g1".to_string(),
        ),
    ]);
    mails
        .into_iter()
        .map(|(from, body)| Mail::new(&from, "orders", &body))
        .collect()
}

/// What a user sees of mails: to whom, the subject, the text.
fn seen(mails: &[Sent]) -> Vec<(Vec<String>, String, String)> {
    mails
        .iter()
        .map(|m| (m.recipients.clone(), m.subject.clone(), m.body.clone()))
        .collect()
}

#[test]
fn a_batch_of_sign_ons_verified_ahead_is_answered_as_one_mail_at_a_time() {
    let mut one_by_one = TestJudge::new("batch-each");
    started_game(&mut one_by_one, "g1");
    one_by_one.take();
    // The same judge twice: its database copied (same passwords, same
    // powers), one to take the batch in one `judge run`.
    let mut batch = TestJudge::new("batch-all");
    for suffix in ["", "-wal", "-shm"] {
        let name = format!("var/judge.db{suffix}");
        let _ = std::fs::remove_file(batch.dir.join(&name));
        if one_by_one.dir.join(&name).exists() {
            std::fs::copy(one_by_one.dir.join(&name), batch.dir.join(&name)).unwrap();
        }
    }
    batch.take();
    let mails = sign_on_batch();
    let mut each = Vec::new();
    for mail in &mails {
        each.extend(one_by_one.send(mail));
    }
    let inbox = batch.dir.join("var/inbox/new");
    std::fs::create_dir_all(&inbox).unwrap();
    for (k, mail) in mails.iter().enumerate() {
        std::fs::write(inbox.join(format!("{k:04}.batch")), mail.raw()).unwrap();
    }
    let now = batch.now.clone();
    let run = batch.run_env(
        &["run", "--once", "--now", &now],
        b"",
        &[("RUST_LOG", "info")],
    );
    assert!(run.ok, "{}", run.stderr);
    let together = batch.take();
    assert_eq!(seen(&together), seen(&each), "{}", dump(&together));
    // France's right password (given twice), Germany's, and the Master's
    // were verified ahead; the stranger's and the other address's were
    // left to their mails, and the new password did not exist yet.
    assert!(
        run.stderr
            .contains("3 sign-on(s) verified ahead for the next 15 mail(s)"),
        "{}",
        run.stderr
    );
    // What the batch came to, as the mails say it.
    let replies: Vec<&Sent> = to(&each, &player('F'))
        .into_iter()
        .filter(|m| m.in_reply_to.is_some())
        .collect();
    let said = |k: usize| replies[k].body.clone();
    assert!(said(0).contains("Army Paris -> Burgundy."), "{}", said(0));
    assert!(said(1).contains("failed"), "{}", said(1));
    assert!(said(3).contains("failed"), "{}", said(3));
    assert!(said(4).contains("Army Marseilles -> Spain."), "{}", said(4));
    assert_eq!(
        stored_orders(&batch, "g1", "FRANCE"),
        stored_orders(&one_by_one, "g1", "FRANCE")
    );
    assert_eq!(stored_orders(&batch, "g1", "ENGLAND"), ["F LON - NTH"]);
    // The stranger's right password, past the lock, was refused.
    assert_eq!(
        stored_orders(&batch, "g1", "FRANCE"),
        ["A MAR - SPA", "A PAR - BUR"]
    );
}

// One mail, a bounded number of mails out ---------------------------------

#[test]
fn a_thousand_broadcasts_in_one_mail_cause_at_most_fifty_mails() {
    let mut j = TestJudge::new("cannon");
    started_game(&mut j, "c1");
    let mut body = format!("SIGNON Ec1 {}\n", password('E'));
    for k in 0..1000 {
        body.push_str(&format!("BROADCAST\nhello number {k}\nENDPRESS\n"));
    }
    let r = j.mail(&player('E'), &body);
    assert!(r.len() <= 51, "{} mails for one mail", r.len());
    let reply = one_to(&r, &player('E'));
    assert!(
        reply
            .body
            .contains("one mail may make the judge send at most 50"),
        "{}",
        reply.body
    );
    // Whole broadcasts only: seven went out, to the six other powers and
    // the Master each (49).
    let to_france = to(&r, &player('F')).len();
    assert_eq!(to_france, 7, "{}", dump(&r));
    assert_eq!(r.len(), 50, "{}", dump(&r));

    // The next mails of the hour share a cap of 300.
    let mut total = r.len() - 1;
    for _ in 0..8 {
        let r = j.mail(&player('E'), &body);
        total += r.len() - 1;
    }
    assert!(total <= 300, "{total} mails in an hour on England's word");
    let r = j.mail(&player('E'), &body);
    let reply = one_to(&r, &player('E'));
    assert_eq!(r.len(), 1, "{}", dump(&r));
    assert!(
        reply
            .body
            .contains("at most 300 mails an hour on the word of one address"),
        "{}",
        reply.body
    );
}

// Secrets stay secret -----------------------------------------------------

#[test]
fn press_quoting_the_senders_sign_on_sends_no_password() {
    let mut j = TestJudge::new("quoted");
    started_game(&mut j, "q1");
    let secret = password('E');
    let body = format!(
        "SIGNON Eq1 {secret}\nBROADCAST\nFriends, my orders went in like this:\n\
         SIGNON Eq1 {secret}\nF Lon - Nth\nENDPRESS\n"
    );
    let r = j.send(&Mail::new(
        &player('E'),
        &format!("SIGNON Eq1 {secret}"),
        &body,
    ));
    let reply = one_to(&r, &player('E'));
    assert!(
        reply
            .body
            .contains("Your password stood in the message (1 time)"),
        "{}",
        reply.body
    );
    // The reply's Subject does not repeat the password of the Subject.
    assert!(!reply.subject.contains(&secret), "{}", reply.subject);
    // No copy of the press holds it.
    let to_france = one_to(&r, &player('F'));
    assert!(
        to_france.body.contains("SIGNON Eq1 ****"),
        "{}",
        to_france.body
    );
    for m in &r {
        assert!(!m.raw.contains(&secret), "{}", m.raw);
    }
    // Nor the archive a reader may fetch later, by mail or on the web.
    let r = j.mail("reader@outside.example", "HISTORY q1");
    assert!(!r[0].raw.contains(&secret), "{}", r[0].raw);
    assert!(r[0].body.contains("SIGNON Eq1 ****"), "{}", r[0].body);
    let run = j.run(&["archive", "--rebuild"], b"");
    assert!(run.ok, "{}", run.stderr);
    let page = std::fs::read_to_string(j.dir.join("var/www/q1/index.html")).unwrap();
    assert!(page.contains("SIGNON Eq1 ****"), "the press is published");
    for file in ["index.html", "feed.atom", "game.json"] {
        let text = std::fs::read_to_string(j.dir.join("var/www/q1").join(file)).unwrap();
        assert!(!text.contains(&secret), "{file} holds the password");
    }
}

#[test]
fn a_private_games_state_goes_only_to_its_members() {
    let mut j = TestJudge::new("private");
    started_game(&mut j, "p1");
    j.mail(MASTER, "SIGNON Mp1 mpass-secret\nSET PRIVATE");
    let stranger = "nosy@outside.example";
    for ask in ["HISTORY p1", "SUMMARY p1", "LIST p1", "GET MAP p1"] {
        let r = j.mail(stranger, ask);
        let reply = one_to(&r, stranger);
        assert!(
            reply.body.contains("There is no game named 'p1'")
                || reply.body.contains("There is no such game"),
            "{ask}: {}",
            reply.body
        );
        assert!(!reply.body.contains("England"), "{ask}: {}", reply.body);
    }
    let r = j.mail(stranger, "LIST");
    assert!(!one_to(&r, stranger).body.contains("p1"), "{}", dump(&r));
    // Its players, by address, are answered.
    let r = j.mail(&player('F'), "LIST p1");
    assert!(
        one_to(&r, &player('F')).body.contains("Game 'p1'"),
        "{}",
        dump(&r)
    );
    let r = j.mail(&player('F'), "SUMMARY p1");
    assert!(!one_to(&r, &player('F')).body.contains("There is no game"));
}

// The web server holds under slow and idle clients ----------------------

use common::web;

/// A connection to `addr` from the loopback address `from` (127.0.0.x),
/// that has sent `sent` and then says nothing more.
fn connection_from(from: [u8; 4], addr: &str, sent: &[u8]) -> Option<std::net::TcpStream> {
    use std::io::Write;
    let target: std::net::SocketAddr = addr.parse().unwrap();
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).ok()?;
    let source = std::net::SocketAddr::from((from, 0));
    socket.bind(&source.into()).ok()?;
    socket.connect(&target.into()).ok()?;
    let mut stream: std::net::TcpStream = socket.into();
    stream.write_all(sent).ok()?;
    Some(stream)
}

#[test]
fn pages_are_served_beside_500_slow_and_140_idle_connections() {
    let j = TestJudge::new("slowloris");
    let root = j.dir.join("var/www");
    web::write_file(&root, "index.html", b"<!doctype html><title>games</title>");
    let served = web::Served::start(&j);
    let addr = served.addr.clone();
    // 500 clients that never finish their request's headers, from twenty
    // addresses, and 140 that open and say nothing, from seven more.
    let mut held = Vec::new();
    for k in 0..500u32 {
        let from = [127, 0, 1, 2 + (k % 20) as u8];
        held.extend(connection_from(
            from,
            &addr,
            b"GET / HTTP/1.1\r\nHost: x\r\n",
        ));
    }
    for k in 0..140u32 {
        let from = [127, 0, 2, 2 + (k % 7) as u8];
        held.extend(connection_from(from, &addr, b""));
    }
    assert!(held.len() >= 600, "{} connections opened", held.len());
    // A reader beside them is answered (the figure is benches/web.rs's).
    use std::io::{Read, Write};
    let mut reader = std::net::TcpStream::connect(&addr).unwrap();
    reader
        .set_read_timeout(Some(std::time::Duration::from_secs(4)))
        .unwrap();
    reader
        .write_all(b"GET /index.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = Vec::new();
    let read = reader.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer);
    assert!(
        read.is_ok() && answer.starts_with("HTTP/1.1 200") && answer.contains("games"),
        "{read:?} {answer}"
    );
    drop(held);
    served.stop();
}

#[test]
fn bidi_controls_in_press_never_reach_the_pages() {
    let mut j = TestJudge::new("bidi");
    started_game(&mut j, "b1");
    let body = format!(
        "SIGNON Eb1 {}\nBROADCAST\nFrance \u{202E}sevom ylno\u{202C} now \u{2067}x\nENDPRESS\n",
        password('E')
    );
    j.mail(&player('E'), &body);
    let run = j.run(&["archive", "--rebuild"], b"");
    assert!(run.ok, "{}", run.stderr);
    let page = std::fs::read_to_string(j.dir.join("var/www/b1/index.html")).unwrap();
    assert!(page.contains("sevom ylno"), "the press is published");
    for c in ['\u{202E}', '\u{202C}', '\u{2067}'] {
        assert!(!page.contains(c), "{c:?} on the game page");
    }
    assert!(page.contains("<pre dir=\"auto\">"), "press isolated");
    let feed = std::fs::read_to_string(j.dir.join("var/www/b1/feed.atom")).unwrap();
    assert!(!feed.contains('\u{202E}'));
}

#[test]
fn a_web_url_must_be_http() {
    let j = TestJudge::new("jsurl");
    for url in [
        "javascript:alert(1)",
        "http://x\" onmouseover=\"y",
        "ftp://a/b",
    ] {
        j.set_config("web", "url", &format!("{url:?}"));
        let run = j.run(&["check"], b"");
        assert!(!run.ok, "{url} passed judge check");
        assert!(
            format!("{}{}", run.stdout, run.stderr).contains("starting with http:// or https://"),
            "{}{}",
            run.stdout,
            run.stderr
        );
    }
    j.set_config("web", "url", "\"https://diplomacy.example.org/games\"");
    let run = j.run(&["check"], b"");
    assert!(run.ok, "{}{}", run.stdout, run.stderr);
}

// A new address confirms before it gets mail ------------------------------

#[test]
fn an_outside_address_gets_one_confirmation_request_and_nothing_else() {
    let mut j = TestJudge::new("confirm");
    started_game(&mut j, "a1");
    let victim = "victim@outside.example";
    let mut body = format!("SIGNON Fa1 {}\nSET ADDRESS {victim}\n", password('F'));
    for k in 0..1000 {
        body.push_str(&format!("PRESS TO F\nmessage {k}\nENDPRESS\n"));
    }
    let r = j.mail(&player('F'), &body);
    assert!(r.len() <= 51, "{} mails for one mail", r.len());
    let to_victim = to(&r, victim);
    assert_eq!(to_victim.len(), 1, "{}", dump(&r));
    let request = to_victim[0];
    assert!(
        request.subject.contains("Confirm this address"),
        "{}",
        request.subject
    );
    assert!(
        request.body.contains(&player('F')) && request.body.contains("France in the game 'a1'"),
        "{}",
        request.body
    );
    let reply = one_to(&r, &player('F'));
    assert!(
        reply.body.contains("stays france@players.example"),
        "{}",
        reply.body
    );
    // Until it confirms, the game's mail goes to the old address, and the
    // stranger gets no second request that day.
    let r = j.mail(&player('F'), &body);
    assert!(to(&r, victim).is_empty(), "{}", dump(&r));
    let r = j.mail(
        MASTER,
        "SIGNON Ma1 mpass-secret\nBROADCAST\nhello all\nENDPRESS",
    );
    assert!(to(&r, victim).is_empty(), "{}", dump(&r));
    assert_eq!(to(&r, &player('F')).len(), 1, "{}", dump(&r));

    // It confirms: the address of record changes, both are told.
    let token = request
        .body
        .lines()
        .find_map(|l| l.trim().strip_prefix("CONFIRM "))
        .expect("a CONFIRM line")
        .to_string();
    let r = j.mail(victim, &format!("CONFIRM {token}"));
    let reply = one_to(&r, victim);
    assert!(
        reply
            .body
            .contains("is now the address of record of France in 'a1'"),
        "{}",
        reply.body
    );
    assert!(!reply.body.contains(&token), "the token is not echoed");
    assert_eq!(to(&r, &player('F')).len(), 1, "{}", dump(&r));
    let r = j.mail(
        MASTER,
        "SIGNON Ma1 mpass-secret\nBROADCAST\nhello again\nENDPRESS",
    );
    assert_eq!(to(&r, victim).len(), 1, "{}", dump(&r));
    // A token moves a seat once; a made-up one does nothing.
    let r = j.mail(victim, &format!("CONFIRM {token}"));
    assert!(
        one_to(&r, victim)
            .body
            .contains("now gets the judge's mail."),
        "{}",
        dump(&r)
    );
    let r = j.mail(victim, "CONFIRM 0123456789abcdef01234567");
    assert!(
        one_to(&r, victim).body.contains("No confirmation waits"),
        "{}",
        dump(&r)
    );
}
