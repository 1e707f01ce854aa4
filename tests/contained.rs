//! Failures that must stay contained (issue 10): one bad mail, game, inbox
//! entry or mail server must never stop the judge, bounce a mail, or make
//! another player's mail vanish. Each test reproduces a failure seen
//! before it was mended, against the real binary:
//!
//! - the eighth joiner of a forming game that already has its seven
//!   players (the seventh joiner's mail went on to another sign-on) made
//!   the lot panic;
//! - a stranger who sent first under a player's next Message-ID made the
//!   player's orders vanish as a "duplicate";
//! - a panic while handling a mail left it stored as new, replayed (and
//!   panicking) before every later mail; a panic or error in one game
//!   stopped the clock for all. Nothing in the judge panics on purpose any
//!   more, so these use a fault injected through `JUDGE_TEST_PANIC`,
//!   honoured only by the tests' builds (the `fault-injection` feature,
//!   `src/fault.rs`);
//! - a directory or a FIFO in the inbox's `new/` stopped (or hung)
//!   `judge run`;
//! - a hung `sendmail` stopped the loop; a permanent SMTP refusal was
//!   retried every hour forever;
//! - `judge export` took the write lock, and failed beside busy
//!   deliveries;
//! - a mail that could not be stored made `judge handle` exit 1, which a
//!   mail system takes for "bounce it".

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::*;

const MASTER: &str = "master@example.org";
const KEEPER: &str = "keeper@example.org";
const POWERS: [char; 7] = ['A', 'E', 'F', 'G', 'I', 'R', 'T'];
/// The user the judge runs as where a test needs one that may not read
/// every file (the tests may run as root).
const NOBODY: u32 = 65534;

fn player(game: &str, initial: char) -> String {
    format!("{}.{game}@players.example", initial.to_ascii_lowercase())
}

fn password(initial: char) -> String {
    format!("pw-{initial}")
}

/// Creates `game` and lets seven players join it, each asking for a
/// different power (so each gets the one asked for): it starts.
fn started_game(j: &mut TestJudge, game: &str) {
    j.mail(MASTER, &format!("CREATE ?{game} mpass"));
    for p in POWERS {
        let body = format!("SIGNON ?{game} {}\nSET PREFERENCE {p}", password(p));
        j.mail(&player(game, p), &body);
    }
    assert_eq!(j.export(game)["state"], "active");
}

/// The orders of `power` in the current phase of an export, short form.
fn stored_orders(j: &TestJudge, game: &str, power: &str) -> Vec<String> {
    let export = j.export(game);
    let phases = export["phases"].as_array().unwrap();
    phases.last().unwrap()["orders"][power]
        .as_array()
        .map(|a| a.iter().map(|o| o.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

fn with_keeper(j: &TestJudge) {
    j.set_config("judge", "keeper", &format!("\"{KEEPER}\""));
}

// ---- the over-full join ---------------------------------------------------

#[test]
fn the_eighth_joiner_of_a_full_game_gets_a_reply() {
    let mut j = TestJudge::new("overfull");
    j.mail(MASTER, "CREATE ?full mpass");
    j.mail("other.master@example.org", "CREATE ?other mpass");
    for p in &POWERS[..6] {
        j.mail(
            &player("full", *p),
            &format!("SIGNON ?full {}", password(*p)),
        );
    }
    // The seventh joiner's mail goes on to another sign-on: the game it
    // filled starts all the same, at the end of the mail.
    let seventh = player("full", 'T');
    let seventh_mails = j.mail(&seventh, "SIGNON ?full pw-T\nSIGNON ?other pw-T");
    // The eighth joiner made the lot panic: exit 101, the mail replayed.
    let eighth = "eighth@players.example";
    let mail = Mail::new(eighth, "join", "SIGNON ?full pw-8");
    let run = j.run(&["handle", "--now", &j.now.clone()], mail.raw().as_bytes());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        seventh_mails
            .iter()
            .any(|m| m.subject.contains("Game starts")),
        "the full game starts: {:#?}",
        seventh_mails.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    let r = j.take();
    let reply = one_to(&r, eighth);
    assert!(reply.subject.contains("[Error Flag]"), "{}", reply.body);
    assert!(
        reply.body.contains("has started") || reply.body.contains("no seat left"),
        "{}",
        reply.body
    );
    assert_eq!(j.inbound_status(&mail.message_id).0, "handled");
    let export = j.export("full");
    assert_eq!(export["state"], "active");
    assert_eq!(export["players"].as_object().unwrap().len(), 7);
}

// ---- duplicates and strangers ----------------------------------------------

#[test]
fn a_stranger_using_a_players_message_id_does_not_make_the_orders_vanish() {
    let mut j = TestJudge::new("stranger");
    started_game(&mut j, "sg");
    let next_id = "<next-1@players.example>";
    let stranger = "stranger@elsewhere.example";
    let r = j.send(&Mail::new(stranger, "hello", "HELP").id(next_id));
    one_to(&r, stranger);
    let france = player("sg", 'F');
    let orders = Mail::new(
        &france,
        "orders",
        "SIGNON Fsg pw-F\nA PAR - BUR\nA MAR H\nF BRE - MAO",
    )
    .id(next_id);
    let r = j.send(&orders);
    let reply = one_to(&r, &france);
    assert!(!reply.subject.contains("[Error Flag]"), "{}", reply.body);
    assert_eq!(
        stored_orders(&j, "sg", "FRANCE"),
        ["F BRE - MAO", "A MAR H", "A PAR - BUR"]
    );
    // Each is still recognised when it comes again: answered once.
    j.handle_raw(orders.raw().as_bytes());
    j.handle_raw(
        Mail::new(stranger, "hello", "HELP")
            .id(next_id)
            .raw()
            .as_bytes(),
    );
    assert!(j.take().is_empty());
    assert_eq!(
        j.query_i64("SELECT count(*) FROM inbound WHERE message_id = 'next-1@players.example'"),
        2
    );
}

// ---- a panic while handling one mail ---------------------------------------

#[test]
fn a_panic_while_handling_a_mail_is_contained() {
    let mut j = TestJudge::new("mailpanic");
    with_keeper(&j);
    started_game(&mut j, "mp");
    let france = player("mp", 'F');
    let fault = [("JUDGE_TEST_PANIC", "mail:boom")];
    let boom = Mail::new(&france, "boom", "SIGNON Fmp pw-F\nA PAR - BUR");
    let run = j.run_env(
        &["handle", "--now", &j.now.clone()],
        boom.raw().as_bytes(),
        &fault,
    );
    assert_eq!(
        run.code,
        Some(0),
        "stored, so not to be bounced: {}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("judge handle: failed, rolled back: panic"),
        "{}",
        run.stderr
    );
    let (status, note) = j.inbound_status(&boom.message_id);
    assert_eq!(status, "failed");
    assert!(note.unwrap_or_default().contains("JUDGE_TEST_PANIC"));
    // Everything the mail did is undone...
    assert!(stored_orders(&j, "mp", "FRANCE").is_empty());
    // ...its sender and the judgekeeper are told.
    let r = j.take();
    assert_eq!(r.len(), 2, "{r:#?}");
    assert!(one_to(&r, &france).body.contains("could not be handled"));
    let note = one_to(&r, KEEPER);
    assert!(note.subject.contains("judgekeeper"), "{}", note.subject);
    assert!(note.body.contains("JUDGE_TEST_PANIC"), "{}", note.body);
    // The next mail is handled as usual (the fault still armed), and the
    // failed one is not tried again.
    let orders = Mail::new(&france, "orders", "SIGNON Fmp pw-F\nA PAR - BUR");
    let run = j.run_env(
        &["handle", "--now", &j.now.clone()],
        orders.raw().as_bytes(),
        &fault,
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(stored_orders(&j, "mp", "FRANCE"), ["A PAR - BUR"]);
    let r = j.take();
    assert_eq!(r.len(), 1, "{r:#?}");
    assert_eq!(j.inbound_status(&boom.message_id).0, "failed");
}

// ---- a panic while the clock processes one game -----------------------------

#[test]
fn a_panic_in_one_game_leaves_the_clock_running_for_the_others() {
    let mut j = TestJudge::new("gamepanic");
    with_keeper(&j);
    started_game(&mut j, "g1");
    started_game(&mut j, "g2");
    j.take();
    // A day before the deadline: a reminder to each power of both games.
    let when = at(49);
    let run = j.run_env(
        &["run", "--once", "--now", &when],
        b"",
        &[("JUDGE_TEST_PANIC", "game:g1")],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stderr.contains("marked failed"), "{}", run.stderr);
    let reminders = |game: &str| {
        j.query_i64(&format!(
            "SELECT count(*) FROM outbound WHERE subject LIKE '%:{game} - S1901M Reminder'"
        ))
    };
    assert_eq!(reminders("g1"), 0, "the failed game's work is undone");
    assert_eq!(reminders("g2"), 7, "the other game goes on");
    assert_eq!(
        j.query_i64("SELECT count(*) FROM games WHERE name = 'g1' AND failure LIKE 'panic:%'"),
        1
    );
    assert_eq!(
        j.query_i64(
            "SELECT count(*) FROM outbound WHERE subject LIKE '%judgekeeper: game ''g1''%'"
        ),
        1
    );
    // Marked failed, the game is left alone for an hour...
    let run = j.run_env(
        &["run", "--once", "--now", &when],
        b"",
        &[("JUDGE_TEST_PANIC", "game:g1")],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    // ...then tried again; once that works the mark goes.
    let run = j.run(&["run", "--once", "--now", &at(50)], b"");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stderr.contains("processed again"), "{}", run.stderr);
    assert_eq!(reminders("g1"), 7);
    assert_eq!(
        j.query_i64("SELECT count(*) FROM outbound WHERE subject LIKE '%judgekeeper%'"),
        1,
        "the judgekeeper is told once"
    );
    assert_eq!(
        j.query_i64("SELECT count(*) FROM games WHERE failed_at IS NOT NULL"),
        0
    );
}

// ---- bad entries in the inbox ----------------------------------------------

/// Runs `judge run --once`, killing it (and failing) if it hangs.
fn run_once_within(j: &TestJudge, limit: Duration) -> (Option<i32>, String) {
    run_once_within_as(j, limit, None)
}

/// `run_once_within`, as the user of that uid (and its group) if given.
fn run_once_within_as(j: &TestJudge, limit: Duration, uid: Option<u32>) -> (Option<i32>, String) {
    let log = j.dir.join("run.log");
    let mut command = match uid {
        None => Command::new(env!("CARGO_BIN_EXE_judge")),
        Some(uid) => {
            let mut c = Command::new("setpriv");
            c.arg(format!("--reuid={uid}"))
                .arg(format!("--regid={uid}"))
                .arg("--clear-groups")
                .arg(env!("CARGO_BIN_EXE_judge"));
            c
        }
    };
    let mut child = command
        .arg("--config")
        .arg(j.config())
        .args(["run", "--once"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return (status.code(), std::fs::read_to_string(&log).unwrap());
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "judge run --once hung for {limit:?}:\n{}",
                std::fs::read_to_string(&log).unwrap()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_directory_or_a_fifo_in_the_inbox_is_quarantined() {
    let mut j = TestJudge::new("quarantine");
    let inbox = j.dir.join("var/inbox");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(inbox.join(sub)).unwrap();
    }
    let new = inbox.join("new");
    std::fs::create_dir(new.join("1000.dir")).unwrap();
    let made = Command::new("mkfifo")
        .arg(new.join("1001.fifo"))
        .status()
        .unwrap();
    assert!(made.success(), "mkfifo");
    let writer = "writer@players.example";
    std::fs::write(
        new.join("1002.mail"),
        Mail::new(writer, "help", "HELP").raw(),
    )
    .unwrap();
    // A file nobody may read. Root may read any file, so where the tests
    // run as root the judge runs as nobody, its folder handed over.
    let unreadable = new.join("1003.locked");
    std::fs::write(&unreadable, Mail::new(writer, "x", "VERSION").raw()).unwrap();
    set_mode(&unreadable, 0o000);
    let uid = common::prerequisite::running_as_root().then_some(NOBODY);
    if let Some(uid) = uid {
        let owner = format!("{uid}:{uid}");
        let given = Command::new("chown")
            .args(["-R", &owner])
            .arg(&j.dir)
            .status();
        assert!(given.unwrap().success(), "chown -R {owner}");
    }

    let (code, log) = run_once_within_as(&j, Duration::from_secs(60), uid);
    assert_eq!(code, Some(0), "{log}");
    let quarantine = inbox.join("quarantine");
    assert!(quarantine.join("1000.dir").is_dir(), "{log}");
    assert!(quarantine.join("1001.fifo").exists(), "{log}");
    assert!(log.contains("a FIFO"), "{log}");
    assert!(log.contains("a directory"), "{log}");
    assert!(quarantine.join("1003.locked").exists(), "{log}");
    assert_eq!(std::fs::read_dir(&new).unwrap().count(), 0, "new/ is empty");
    assert!(inbox.join("cur/1002.mail:2,S").exists());
    let r = j.take();
    assert_eq!(to(&r, writer).len(), 1, "the good mail is answered");
}

#[test]
fn a_huge_mail_in_the_inbox_is_read_only_up_to_the_limit() {
    let mut j = TestJudge::new("hugeinbox");
    let inbox = j.dir.join("var/inbox");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(inbox.join(sub)).unwrap();
    }
    let writer = "writer@players.example";
    let mail = Mail::new(writer, "huge", &"HELP\n".repeat(4 * 1024 * 1024));
    let raw = mail.raw();
    std::fs::write(inbox.join("new/1000.mail"), &raw).unwrap();

    let (code, log) = run_once_within(&j, Duration::from_secs(60));
    assert_eq!(code, Some(0), "{log}");
    let stored: Vec<u8> = j.stored_raw(&mail.message_id);
    assert!(stored.len() < 400 * 1024, "{}", stored.len());
    let r = j.take();
    let reply = one_to(&r, writer);
    assert!(
        reply
            .body
            .contains(&format!("Your mail is {} bytes", raw.len())),
        "{}",
        reply.body
    );
}

#[test]
fn the_inbox_copy_of_a_handled_mail_keeps_no_password() {
    let mut j = TestJudge::new("inboxcopy");
    let inbox = j.dir.join("var/inbox");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(inbox.join(sub)).unwrap();
    }
    let writer = "writer@players.example";
    let mail = Mail::new(writer, "create", "CREATE ?kept kept-secret-pw");
    std::fs::write(inbox.join("new/1000.mail"), mail.raw()).unwrap();

    let (code, log) = run_once_within(&j, Duration::from_secs(60));
    assert_eq!(code, Some(0), "{log}");
    let kept = std::fs::read_to_string(inbox.join("cur/1000.mail:2,S")).unwrap();
    assert!(!kept.contains("kept-secret-pw"), "{kept}");
    assert!(kept.contains(&mail.message_id), "{kept}");
    let r = j.take();
    assert!(
        one_to(&r, writer).body.contains("kept"),
        "{}",
        one_to(&r, writer).body
    );
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

// ---- mail out ---------------------------------------------------------------

#[test]
fn a_hung_sendmail_is_killed_and_the_mail_tried_again_later() {
    let mut j = TestJudge::new("sendmail");
    let script = j.dir.join("hung-sendmail");
    std::fs::write(&script, "#!/bin/sh\nexec sleep 300\n").unwrap();
    set_mode(&script, 0o755);
    j.set_section(
        "outbox",
        &format!(
            "kind = \"sendmail\"\ncommand = \"{}\"\ntimeout_seconds = 1",
            script.display()
        ),
    );
    j.mail("someone@players.example", "HELP");
    let started = Instant::now();
    let (code, log) = run_once_within(&j, Duration::from_secs(30));
    assert_eq!(code, Some(0), "{log}");
    assert!(started.elapsed() < Duration::from_secs(20), "{log}");
    let (attempts, error): (i64, String) = j
        .db()
        .query_row(
            "SELECT attempts, last_error FROM outbound WHERE sent_at IS NULL",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(attempts, 1);
    assert!(error.contains("did not finish within 1 s"), "{error}");
}

/// A fake SMTP server on 127.0.0.1 that refuses one recipient for good
/// (550) and takes every other mail; what it took, by recipient.
fn refusing_smtp_server(refused: &'static str) -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let taken = Arc::new(Mutex::new(Vec::new()));
    let record = taken.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let record = record.clone();
            std::thread::spawn(move || {
                let _ = smtp_session(stream, refused, &record);
            });
        }
    });
    (port, taken)
}

fn smtp_session(
    stream: TcpStream,
    refused: &str,
    taken: &Mutex<Vec<String>>,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut out = stream;
    out.write_all(b"220 fake ESMTP\r\n")?;
    let mut to = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let command = line.to_ascii_uppercase();
        if command.starts_with("RCPT TO:") {
            if line.contains(refused) {
                out.write_all(b"550 5.1.1 no such user here\r\n")?;
            } else {
                to.push(line[8..].trim().to_string());
                out.write_all(b"250 2.1.5 ok\r\n")?;
            }
        } else if command.starts_with("DATA") {
            out.write_all(b"354 go on\r\n")?;
            loop {
                let mut data = String::new();
                if reader.read_line(&mut data)? == 0 {
                    return Ok(());
                }
                if data == ".\r\n" {
                    break;
                }
            }
            taken.lock().unwrap().append(&mut to);
            out.write_all(b"250 2.0.0 queued\r\n")?;
        } else if command.starts_with("QUIT") {
            out.write_all(b"221 bye\r\n")?;
            return Ok(());
        } else {
            out.write_all(b"250 fake\r\n")?;
        }
    }
}

#[test]
fn a_permanent_smtp_refusal_is_given_up_after_one_try() {
    let mut j = TestJudge::new("smtp550");
    with_keeper(&j);
    let nobody = "nobody@players.example";
    let (port, taken) = refusing_smtp_server(nobody);
    j.set_section(
        "outbox",
        &format!("kind = \"smtp\"\nhost = \"127.0.0.1\"\nport = {port}\ntls = \"none\""),
    );
    j.mail(nobody, "HELP");
    j.mail("somebody@players.example", "HELP");
    let run = j.run(&["run", "--once"], b"");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stderr.contains("given up"), "{}", run.stderr);
    let (abandoned, attempts, error): (Option<i64>, i64, String) = j
        .db()
        .query_row(
            "SELECT abandoned_at, attempts, last_error FROM outbound \
             WHERE recipients LIKE '%nobody@%'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert!(abandoned.is_some(), "given up, not retried: {error}");
    assert_eq!(attempts, 1, "one try");
    assert!(error.contains("550"), "{error}");
    // The other mail went out, and so did the note to the judgekeeper.
    let taken = taken.lock().unwrap().clone();
    assert!(taken.iter().any(|t| t.contains("somebody@")), "{taken:?}");
    assert!(taken.iter().any(|t| t.contains(KEEPER)), "{taken:?}");
    assert_eq!(
        j.query_i64("SELECT count(*) FROM outbound WHERE sent_at IS NULL AND abandoned_at IS NULL"),
        0
    );
    // An hour later nothing is tried again.
    let run = j.run(&["run", "--once", "--now", &at(2)], b"");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(!run.stderr.contains("nobody@"), "{}", run.stderr);
}

// ---- the store: read-only export, exit statuses ------------------------------

#[test]
fn export_needs_no_write_lock_and_reads_a_read_only_file() {
    let mut j = TestJudge::new("readonly");
    started_game(&mut j, "ro");
    let expected = j.export("ro");
    // Beside a process holding the write lock (a delivery in progress).
    {
        let writer = judge::store::rusqlite::Connection::open(j.db_path()).unwrap();
        writer.execute_batch("BEGIN IMMEDIATE").unwrap();
        let started = Instant::now();
        let run = j.run(&["export", "ro"], b"");
        assert!(run.ok, "{}", run.stderr);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        writer.execute_batch("ROLLBACK").unwrap();
    }
    // A copy nobody may write (the judge's own file, read by another
    // account; a backup).
    let copy = TestJudge::new("readonly-copy");
    std::fs::create_dir_all(copy.dir.join("var")).unwrap();
    let file = copy.db_path();
    std::fs::copy(j.db_path(), &file).unwrap();
    set_mode(&file, 0o444);
    let before = std::fs::read(&file).unwrap();
    let run = copy.run(&["export", "ro"], b"");
    assert!(run.ok, "{}", run.stderr);
    let got: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(got, expected);
    assert_eq!(std::fs::read(&file).unwrap(), before, "not a byte written");
    set_mode(&file, 0o644);
}

#[test]
fn a_mail_that_cannot_be_stored_is_left_to_the_mail_system() {
    let j = TestJudge::new("exit75");
    // The database cannot be opened: a folder stands where it should be.
    std::fs::remove_file(j.db_path()).unwrap();
    std::fs::create_dir_all(j.db_path()).unwrap();
    let mail = Mail::new("p@players.example", "help", "HELP");
    let run = j.run(&["handle"], mail.raw().as_bytes());
    assert_eq!(run.code, Some(75), "EX_TEMPFAIL: {}", run.stderr);
    assert!(run.stderr.contains("not stored"), "{}", run.stderr);
    // A configuration that cannot be read: the same.
    let run = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(["--config", "/nonexistent/judge.toml", "handle"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(75));
}
