//! A game played through real mail servers on 127.0.0.1: Dovecot (IMAP)
//! and an SMTP server that delivers into one Maildir per user, started by
//! `tests/servers/start.sh` (which `.ci/run` sources). The players send
//! over SMTP; `judge run` reads its mailbox over IMAP and answers over
//! SMTP; the players' mailboxes are read back over IMAP.
//!
//! Without the servers (no `JUDGE_TEST_IMAP_PORT` / `JUDGE_TEST_SMTP_PORT`)
//! these tests say so and pass, except in CI (`CI` set), where they fail.
//! To run them by hand:
//!
//!     source tests/servers/start.sh && cargo test --test real_servers; judge_servers_stop

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use async_imap::{Client, Session};
use futures::TryStreamExt;
use lettre::address::Envelope;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use tokio::net::TcpStream;

/// A fresh number, unique in this test process.
fn unique() -> usize {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    COUNTER.fetch_add(1, Ordering::SeqCst)
}

/// Where the servers listen, from the environment `start.sh` exports.
#[derive(Clone)]
struct Servers {
    imap: u16,
    smtp: u16,
    password: String,
    /// The servers' folder (for `doveadm`), when started by start.sh.
    dir: Option<PathBuf>,
    /// Where the same IMAP server offers no IDLE, MOVE or UIDPLUS.
    plain_host: Option<String>,
}

/// The servers, or `None` (and a message) if they are not running. In CI
/// the tests must not be skipped: a missing server is a failure there.
fn servers(test: &str) -> Option<Servers> {
    let port = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u16>().ok());
    match (port("JUDGE_TEST_IMAP_PORT"), port("JUDGE_TEST_SMTP_PORT")) {
        (Some(imap), Some(smtp)) => Some(Servers {
            imap,
            smtp,
            password: std::env::var("JUDGE_TEST_MAIL_PASSWORD")
                .unwrap_or_else(|_| "secret".to_string()),
            dir: std::env::var_os("JUDGE_TEST_MAIL_DIR").map(PathBuf::from),
            plain_host: std::env::var("JUDGE_TEST_IMAP_PLAIN_HOST").ok(),
        }),
        _ => {
            missing(
                test,
                "no mail servers (JUDGE_TEST_IMAP_PORT, JUDGE_TEST_SMTP_PORT unset)",
            );
            None
        }
    }
}

/// Says that a test, or a part of one, cannot run for want of `what`: a
/// failure in CI (`CI` set), where `.ci/run` starts every server (sourcing
/// `tests/servers/start.sh`); elsewhere a SKIPPED line and the test goes
/// on without it.
fn missing(test: &str, what: &str) {
    common::prerequisite::missing(
        test,
        what,
        "`source tests/servers/start.sh` starts them and sets JUDGE_TEST_* (.ci/run does)",
    );
}

/// One mail as a player reads it.
#[derive(Debug, Clone)]
struct Received {
    subject: String,
    to: String,
    body: String,
}

impl Received {
    fn parse(raw: &[u8]) -> Received {
        let m = mail_parser::MessageParser::default()
            .parse(raw)
            .expect("a parseable mail");
        Received {
            subject: m.subject().unwrap_or_default().to_string(),
            to: m
                .header_raw("To")
                .map(|v| v.trim().to_string())
                .unwrap_or_default(),
            body: m
                .body_text(0)
                .map(|b| b.replace("\r\n", "\n"))
                .unwrap_or_default(),
        }
    }

    fn has_line(&self, line: &str) -> bool {
        self.body.lines().any(|l| l.trim() == line.trim())
    }
}

/// The players' side: sending over SMTP, reading mailboxes over IMAP.
struct Players {
    servers: Servers,
    /// A tag making this test's mailbox names its own.
    tag: String,
    /// Per user: how many mails of the mailbox have been looked at.
    seen: HashMap<String, usize>,
    /// The judge's log, shown when a mail does not come.
    log: PathBuf,
}

impl Players {
    fn address(&self, user: &str) -> String {
        format!("{user}-{}@localhost", self.tag)
    }

    fn login(&self, user: &str) -> String {
        format!("{user}-{}", self.tag)
    }

    /// Sends `body` from `user` to the judge over SMTP.
    async fn send(&self, user: &str, subject: &str, body: &str) {
        let from = self.address(user);
        let judge = self.address("judge");
        let raw = format!(
            "From: {from}\r\nTo: Diplomacy Judge <{judge}>\r\nSubject: {subject}\r\n\
             Message-ID: <t{}-{}@players.example>\r\nDate: {}\r\nMIME-Version: 1.0\r\n\
             Content-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
            std::process::id(),
            unique(),
            chrono::Utc::now().to_rfc2822(),
            body.replace('\n', "\r\n")
        );
        let envelope =
            Envelope::new(Some(from.parse().unwrap()), vec![judge.parse().unwrap()]).unwrap();
        AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous("127.0.0.1")
            .port(self.servers.smtp)
            .build()
            .send_raw(&envelope, raw.as_bytes())
            .await
            .unwrap_or_else(|e| panic!("SMTP to 127.0.0.1:{}: {e}", self.servers.smtp));
    }

    /// `user` logged in over IMAP.
    async fn session(&self, user: &str) -> Session<TcpStream> {
        let tcp = TcpStream::connect(("127.0.0.1", self.servers.imap))
            .await
            .expect("IMAP connects");
        let mut client = Client::new(tcp);
        client.read_response().await.unwrap().expect("a greeting");
        client
            .login(self.login(user), &self.servers.password)
            .await
            .map_err(|(e, _)| e)
            .expect("IMAP login")
    }

    /// Puts `raw` into `user`'s `folder` as it is (unseen), past SMTP and
    /// its size limit.
    async fn append(&self, user: &str, folder: &str, raw: &[u8]) {
        let mut session = self.session(user).await;
        session
            .append(folder, None, None, raw)
            .await
            .expect("IMAP APPEND");
        let _ = session.logout().await;
    }

    /// Every mail of `user`'s `folder`, oldest first (read without setting \Seen).
    async fn folder(&self, user: &str, folder: &str) -> Vec<Received> {
        let mut session = self.session(user).await;
        session.select(folder).await.expect("select");
        let mut uids: Vec<u32> = session
            .uid_search("ALL")
            .await
            .unwrap()
            .into_iter()
            .collect();
        uids.sort_unstable();
        let mut out = Vec::new();
        if !uids.is_empty() {
            let set = uids
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",");
            let fetched: Vec<_> = session
                .uid_fetch(&set, "(UID BODY.PEEK[])")
                .await
                .unwrap()
                .try_collect()
                .await
                .unwrap();
            let mut mails: Vec<(u32, Received)> = fetched
                .iter()
                .map(|f| (f.uid.unwrap(), Received::parse(f.body().unwrap())))
                .collect();
            mails.sort_by_key(|(u, _)| *u);
            out = mails.into_iter().map(|(_, m)| m).collect();
        }
        let _ = session.logout().await;
        out
    }

    /// How many mails of `user`'s `folder` are unseen.
    async fn unseen(&self, user: &str, folder: &str) -> usize {
        let mut session = self.session(user).await;
        session.select(folder).await.unwrap();
        let n = session.uid_search("UNSEEN").await.unwrap().len();
        let _ = session.logout().await;
        n
    }

    /// Waits for the next mail to `user` whose subject contains `what`
    /// (mails before it are passed over) and returns it.
    async fn expect(&mut self, user: &str, what: &str) -> Received {
        let start = Instant::now();
        loop {
            let mails = self.folder(user, "INBOX").await;
            let from = *self.seen.get(user).unwrap_or(&0);
            if let Some(i) = (from..mails.len()).find(|&i| mails[i].subject.contains(what)) {
                self.seen.insert(user.to_string(), i + 1);
                return mails[i].clone();
            }
            if start.elapsed() > Duration::from_secs(60) {
                let log = std::fs::read_to_string(&self.log).unwrap_or_default();
                panic!(
                    "no mail to {user} with {what:?} in 60 s; {user} has:\n{:#?}\nthe judge's log:\n{log}",
                    &mails[from.min(mails.len())..]
                );
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// `judge run` as a child process; killed if the test fails.
struct Daemon {
    child: Option<Child>,
}

impl Daemon {
    fn start(config: &Path, log: &Path) -> Daemon {
        let log = std::fs::File::create(log).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_judge"))
            .arg("--config")
            .arg(config)
            .arg("run")
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("judge run starts");
        Daemon { child: Some(child) }
    }

    /// The most memory the judge has held so far (VmHWM), in KiB.
    fn peak_memory_kib(&self) -> u64 {
        let id = self.child.as_ref().unwrap().id();
        let status = std::fs::read_to_string(format!("/proc/{id}/status")).unwrap();
        let line = status
            .lines()
            .find(|l| l.starts_with("VmHWM:"))
            .expect("VmHWM in /proc/<pid>/status");
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    /// SIGTERM, and a clean exit; the log.
    fn stop_cleanly(self, log: &Path) -> String {
        let status = self.stop();
        let logged = std::fs::read_to_string(log).unwrap();
        assert!(status.success(), "{status}: {logged}");
        logged
    }

    /// SIGTERM; the exit status.
    fn stop(mut self) -> std::process::ExitStatus {
        let mut child = self.child.take().unwrap();
        let status = Command::new("kill")
            .arg("-TERM")
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(status.success(), "kill -TERM");
        let start = Instant::now();
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                return status;
            }
            if start.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                panic!("judge run did not stop within 30 s of SIGTERM");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A judge folder whose `judge.toml` reads IMAP and sends by SMTP.
/// Without IDLE it would look for mail once an hour (`poll_seconds`), and
/// its clock ticks once an hour: a reply within seconds can only come from
/// IDLE.
fn judge_folder(name: &str, s: &Servers, tag: &str, password: &str) -> PathBuf {
    judge_folder_at(name, s, tag, password, "127.0.0.1", 3600)
}

/// The same, reading the IMAP server at `imap_host`, polling every
/// `poll_seconds` where it has no IDLE.
fn judge_folder_at(
    name: &str,
    s: &Servers,
    tag: &str,
    password: &str,
    imap_host: &str,
    poll_seconds: u32,
) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("judge-real-{name}-{tag}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let toml = format!(
        r#"[judge]
code = "JDG"
address = "judge-{tag}@localhost"

[store]
path = "var/judge.db"

[inbox]
kind = "imap"
host = "{imap_host}"
port = {imap}
tls = "none"
user = "judge-{tag}"
password = "{password}"
processed = "processed"
poll_seconds = {poll_seconds}

[outbox]
kind = "smtp"
host = "127.0.0.1"
port = {smtp}
tls = "none"

# A clock tick once an hour: it answers no mail in the meantime.
[clock]
tick_seconds = 3600
"#,
        imap = s.imap,
        smtp = s.smtp,
    );
    std::fs::write(dir.join("judge.toml"), toml).unwrap();
    dir
}

/// A judge folder of its own (see [`judge_folder`]) and its players, for
/// the test `name`.
fn imap_judge(name: &str, s: &Servers) -> (PathBuf, Players) {
    let tag = format!("{}{}x{}", &name[..1], std::process::id(), unique());
    let dir = judge_folder(name, s, &tag, &s.password);
    let players = Players {
        servers: s.clone(),
        tag,
        seen: HashMap::new(),
        log: dir.join("judge.log"),
    };
    (dir, players)
}

/// The seven players: user, preference list, the power they get.
const PLAYERS: [(&str, &str, &str); 7] = [
    ("p1", "AGT", "Austria"),
    ("p2", "E", "England"),
    ("p3", "FEG", "France"),
    ("p4", "G", "Germany"),
    ("p5", "I", "Italy"),
    ("p6", "R", "Russia"),
    ("p7", "", "Turkey"),
];

/// Each power's Spring 1901 orders.
const ORDERS: [(&str, &str); 7] = [
    ("A", "A Vie-Gal\nA Bud-Ser\nF Tri-Alb"),
    ("E", "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor"),
    ("F", "A Par-Bur\nF Bre-Mid\nA Mar-Spa"),
    ("G", "A Mun-Ruh\nA Ber-Kie\nF Kie-Den"),
    ("I", "A Ven H\nA Rom-Apu\nF Nap-Ion"),
    ("R", "A War-Gal\nA Mos-Ukr\nF Sev-Bla\nF Stp/sc-Bot"),
    ("T", "F Ank-Bla\nA Con-Bul\nA Smy-Con"),
];

#[tokio::test]
async fn a_game_through_imap_and_smtp() {
    let Some(s) = servers("a_game_through_imap_and_smtp") else {
        return;
    };
    let tag = format!("g{}x{}", std::process::id(), unique());
    let dir = judge_folder("game", &s, &tag, &s.password);
    let log = dir.join("judge.log");
    let mut p = Players {
        servers: s.clone(),
        tag: tag.clone(),
        seen: HashMap::new(),
        log: log.clone(),
    };
    let daemon = Daemon::start(&dir.join("judge.toml"), &log);
    let mut to_judge = 0;

    // CREATE: the Master's reply.
    p.send("master", "new game", "CREATE ?war mpass").await;
    to_judge += 1;
    let r = p.expect("master", "new game").await;
    assert!(r.body.contains("you are its Master"), "{}", r.body);
    assert!(!r.body.contains("mpass"), "the password is never echoed");

    // Seven sign-ons, each acknowledged; the seventh starts the game.
    for (i, (user, pref, _)) in PLAYERS.iter().enumerate() {
        let body = if pref.is_empty() {
            format!("SIGNON ?war pw-{user}")
        } else {
            format!("SIGNON ?war pw-{user}\nSET PREFERENCE {pref}")
        };
        p.send(user, "join", &body).await;
        to_judge += 1;
        let r = p.expect(user, "join").await;
        assert!(
            r.body.contains(&format!("{} of 7 players", i + 1)),
            "{user}: {}",
            r.body
        );
    }
    for (user, _, power) in PLAYERS {
        let start = p.expect(user, "Game starts").await;
        assert_eq!(
            start.subject,
            format!("JDG:war - S1901M Game starts: you are {power}")
        );
        assert!(start.to.contains(&p.address(user)), "{}", start.to);
    }
    let roster = p.expect("master", "S1901M Game starts").await;
    for (user, _, _) in PLAYERS {
        assert!(roster.body.contains(&p.address(user)), "{}", roster.body);
    }

    // Orders from every power, each acknowledged to its player.
    for ((user, _, _), (initial, orders)) in PLAYERS.iter().zip(ORDERS) {
        let body = format!("SIGNON {initial}war pw-{user}\n{orders}");
        p.send(user, "orders", &body).await;
        to_judge += 1;
        let r = p.expect(user, "S1901M orders").await;
        assert!(r.has_line("Status: complete."), "{user}: {}", r.body);
    }

    // The judge idles in IDLE: a mail now is answered at once, not at the
    // next clock tick or poll (each an hour away).
    tokio::time::sleep(Duration::from_secs(2)).await;
    let asked = Instant::now();
    p.send("master", "predict", "SIGNON Mwar mpass\nPREDICT")
        .await;
    to_judge += 1;
    let r = p.expect("master", "predict").await;
    let waited = asked.elapsed();
    assert!(r.body.contains("nothing is stored"), "{}", r.body);
    assert!(
        waited < Duration::from_secs(10),
        "the reply took {waited:?}: the daemon did not notice the mail by IDLE"
    );
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.contains("(IDLE)"), "{logged}");

    // The connection breaks (the server kicks the judge): it connects
    // again, and a mail sent meanwhile is answered once.
    if s.dir.is_none() {
        missing(
            "a_game_through_imap_and_smtp: the reconnection",
            "JUDGE_TEST_MAIL_DIR is unset (doveadm needs the servers' folder to kick the judge)",
        );
    }
    if let Some(d) = &s.dir {
        let kicked = Command::new("doveadm")
            .arg("-c")
            .arg(d.join("dovecot.conf"))
            .arg("kick")
            .arg(p.login("judge"))
            .output()
            .expect("doveadm runs");
        assert!(kicked.status.success(), "{kicked:?}");
        p.send("p3", "again", "SIGNON Fwar pw-p3\nA Mar-Spa").await;
        to_judge += 1;
        let r = p.expect("p3", "S1901M again").await;
        assert!(r.has_line("Army Marseilles -> Spain."), "{}", r.body);
        let start = Instant::now();
        while !std::fs::read_to_string(&log)
            .unwrap()
            .contains("connected again")
        {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "no reconnection logged: {}",
                std::fs::read_to_string(&log).unwrap()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    // The Master processes: the results reach every player and the Master,
    // each mail addressed to its reader alone.
    p.send("master", "process", "SIGNON Mwar mpass\nPROCESS S1901M")
        .await;
    to_judge += 1;
    let r = p.expect("master", "process").await;
    assert!(r.body.contains("S1901M processed"), "{}", r.body);
    let mut readers: Vec<&str> = PLAYERS.iter().map(|p| p.0).collect();
    readers.push("master");
    let mut first: Option<Received> = None;
    for user in readers {
        let res = p.expect(user, "S1901M Results").await;
        assert_eq!(res.subject, "JDG:war - S1901M Results");
        assert!(res.to.contains(&p.address(user)), "{}", res.to);
        for (other, _, _) in PLAYERS {
            if other != user {
                assert!(!res.to.contains(&p.address(other)), "{}", res.to);
            }
        }
        assert!(
            res.has_line(":: Judge: JDG  Game: war  Variant: Standard"),
            "{}",
            res.body
        );
        assert!(
            res.has_line("Austria: Army Vienna -> Galicia.  (*bounce*)"),
            "{}",
            res.body
        );
        match &first {
            None => first = Some(res),
            Some(f) => assert_eq!(f.body, res.body, "everyone reads the same results"),
        }
    }

    // Stopped by SIGTERM: exit status 0.
    let status = daemon.stop();
    assert!(
        status.success(),
        "judge run exited with {status}: {}",
        std::fs::read_to_string(&log).unwrap()
    );

    // Every mail to the judge was handled once: flagged, moved to
    // `processed`, stored once; every reply sent; none answered twice.
    assert_eq!(p.unseen("judge", "INBOX").await, 0);
    assert!(p.folder("judge", "INBOX").await.is_empty());
    assert_eq!(p.folder("judge", "processed").await.len(), to_judge);
    let db = judge::store::rusqlite::Connection::open(dir.join("var/judge.db")).unwrap();
    let count = |sql: &str| -> i64 { db.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(count("SELECT count(*) FROM inbound"), to_judge as i64);
    assert_eq!(
        count("SELECT count(*) FROM outbound WHERE sent_at IS NULL"),
        0
    );
    let sent = count("SELECT count(*) FROM outbound");
    let mut delivered = 0;
    let mut users: Vec<&str> = PLAYERS.iter().map(|p| p.0).collect();
    users.push("master");
    for user in users {
        delivered += p.folder(user, "INBOX").await.len();
    }
    assert_eq!(delivered as i64, sent, "every queued mail arrived once");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A server without IDLE, MOVE and UIDPLUS: the judge polls, and moves
/// handled mail by COPY, \Deleted and EXPUNGE.
#[tokio::test]
async fn a_server_without_idle_is_polled() {
    let Some(s) = servers("a_server_without_idle_is_polled") else {
        return;
    };
    let Some(host) = s.plain_host.clone() else {
        missing(
            "a_server_without_idle_is_polled",
            "JUDGE_TEST_IMAP_PLAIN_HOST is unset (the address where the server offers no IDLE)",
        );
        return;
    };
    let tag = format!("n{}x{}", std::process::id(), unique());
    let dir = judge_folder_at("poll", &s, &tag, &s.password, &host, 1);
    let log = dir.join("judge.log");
    let mut p = Players {
        servers: s.clone(),
        tag,
        seen: HashMap::new(),
        log: log.clone(),
    };
    let daemon = Daemon::start(&dir.join("judge.toml"), &log);
    p.send("master", "new game", "CREATE ?war mpass").await;
    let r = p.expect("master", "new game").await;
    assert!(r.body.contains("you are its Master"), "{}", r.body);
    // Idle a while (several polls), then one more mail.
    tokio::time::sleep(Duration::from_secs(3)).await;
    p.send("p1", "join", "SIGNON ?war pw-p1").await;
    let r = p.expect("p1", "join").await;
    assert!(r.body.contains("1 of 7 players"), "{}", r.body);
    let status = daemon.stop();
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(status.success(), "{status}: {logged}");
    assert!(logged.contains("(polling)"), "{logged}");
    assert!(!logged.contains("WARN"), "{logged}");
    assert!(p.folder("judge", "INBOX").await.is_empty());
    assert_eq!(p.folder("judge", "processed").await.len(), 2);
    assert_eq!(p.unseen("judge", "processed").await, 0, "moved as seen");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A mail far over `[mail] max_bytes` (it came past SMTP, or the server
/// has no limit) is fetched only up to it and a margin: stored cut short
/// with a note of its size, the reply says how big it was, and the judge
/// never holds the mail in memory.
#[tokio::test]
async fn a_huge_mail_over_imap_is_fetched_only_up_to_the_limit() {
    let Some(s) = servers("a_huge_mail_over_imap_is_fetched_only_up_to_the_limit") else {
        return;
    };
    let (dir, mut p) = imap_judge("huge", &s);
    let log = p.log.clone();
    // 64 MiB: fetched whole, the judge would hold at least that much.
    let raw = format!(
        "From: {}\r\nTo: {}\r\nSubject: huge\r\nMessage-ID: <huge-{}@players.example>\r\n\
         Date: {}\r\nContent-Type: text/plain\r\n\r\n{}",
        p.address("p1"),
        p.address("judge"),
        p.tag,
        chrono::Utc::now().to_rfc2822(),
        "HELP\r\n".repeat(64 * 1024 * 1024 / 6),
    );
    p.append("judge", "INBOX", raw.as_bytes()).await;
    let daemon = Daemon::start(&dir.join("judge.toml"), &log);
    let r = p.expect("p1", "huge").await;
    assert!(
        r.body
            .contains(&format!("Your mail is {} bytes", raw.len())),
        "{}",
        r.body
    );
    let peak = daemon.peak_memory_kib();
    let logged = daemon.stop_cleanly(&log);
    assert!(logged.contains("only its first"), "{logged}");
    assert!(peak < 48 * 1024, "the judge held {peak} KiB: {logged}");
    assert!(p.folder("judge", "INBOX").await.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The copy of a handled mail the IMAP inbox keeps in `processed` has its
/// passwords overwritten, as the store's copy has.
#[tokio::test]
async fn the_processed_copy_of_a_mail_keeps_no_password() {
    let Some(s) = servers("the_processed_copy_of_a_mail_keeps_no_password") else {
        return;
    };
    let (dir, mut p) = imap_judge("redact", &s);
    let log = p.log.clone();
    let daemon = Daemon::start(&dir.join("judge.toml"), &log);
    p.send("master", "new game", "CREATE ?kept kept-secret-pw")
        .await;
    let r = p.expect("master", "new game").await;
    assert!(r.body.contains("you are its Master"), "{}", r.body);
    daemon.stop_cleanly(&log);
    assert!(p.folder("judge", "INBOX").await.is_empty());
    let kept = p.folder("judge", "processed").await;
    assert_eq!(kept.len(), 1, "{kept:#?}");
    assert!(kept[0].body.contains("CREATE ?kept"), "{}", kept[0].body);
    assert!(!kept[0].body.contains("kept-secret-pw"), "{}", kept[0].body);
    assert_eq!(p.unseen("judge", "processed").await, 0, "kept as seen");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_logs_in_and_says_what_failed() {
    let Some(s) = servers("check_logs_in_and_says_what_failed") else {
        return;
    };
    let tag = format!("c{}x{}", std::process::id(), unique());
    let check = |dir: &Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_judge"))
            .arg("--config")
            .arg(dir.join("judge.toml"))
            .arg("check")
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };

    let good = judge_folder("check-good", &s, &tag, &s.password);
    let (ok, out) = check(&good);
    assert!(ok, "{out}");
    assert!(out.contains("ok: [inbox] IMAP judge-"), "{out}");
    assert!(out.contains("logged in, folder \"INBOX\""), "{out}");
    assert!(out.contains("IDLE: mail is seen as it arrives"), "{out}");
    assert!(out.contains("answers EHLO"), "{out}");

    // A wrong password: the port answers, the login is refused, and check
    // says which.
    let bad = judge_folder("check-bad", &s, &tag, "not-the-password");
    let (ok, out) = check(&bad);
    assert!(!ok, "{out}");
    assert!(
        out.contains("ok: [inbox] imap server 127.0.0.1:") && out.contains("answers"),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("error: [inbox] IMAP: logging in to")
                && l.contains("AUTHENTICATIONFAILED")),
        "{out}"
    );

    // STARTTLS where the server has no TLS: the step is named.
    let text = std::fs::read_to_string(good.join("judge.toml")).unwrap();
    std::fs::write(
        good.join("judge.toml"),
        text.replace("tls = \"none\"", "tls = \"starttls\""),
    )
    .unwrap();
    let (ok, out) = check(&good);
    assert!(!ok, "{out}");
    assert!(out.contains("error: [inbox] IMAP: STARTTLS at"), "{out}");
    assert!(out.contains("error: [outbox] SMTP"), "{out}");
    let _ = std::fs::remove_dir_all(&good);
    let _ = std::fs::remove_dir_all(&bad);
}
