//! Helpers for the black-box tests that drive the real `judge` binary:
//! a judge in a temporary folder (its own `judge.toml` and SQLite file),
//! mails written as RFC 5322 text, and the replies read back from the
//! outbound queue as a user would see them.

#![allow(dead_code)]

pub mod prerequisite;
pub mod rng;
pub mod web;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use judge::store::rusqlite::{params, Connection, OpenFlags};
use serde_json::Value;

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A fresh number, unique in this test process.
pub fn unique() -> usize {
    COUNTER.fetch_add(1, Ordering::SeqCst)
}

/// `2026-11-02T12:00:00Z` plus `hours`: the clock the tests pass in.
pub fn at(hours: i64) -> String {
    let base = chrono::DateTime::parse_from_rfc3339("2026-11-02T12:00:00Z").unwrap();
    (base + chrono::Duration::hours(hours))
        .with_timezone(&chrono::Utc)
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// One judge: a folder with a copy of the repository's `judge.toml`; the
/// database is created by the first `judge handle`. The folder goes when
/// the value is dropped (unless the test failed, to look at).
pub struct TestJudge {
    pub dir: PathBuf,
    /// The highest outbound id already returned by [`TestJudge::take`].
    seen: i64,
    /// The clock for the next mail, unless given.
    pub now: String,
}

/// What `judge handle` printed and how it ended.
#[derive(Debug)]
pub struct Run {
    pub ok: bool,
    /// The exit status (None: killed by a signal).
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: std::time::Duration,
}

impl TestJudge {
    pub fn new(name: &str) -> TestJudge {
        let dir = std::env::temp_dir().join(format!(
            "judge-mailgame-{}-{}-{}",
            std::process::id(),
            name,
            unique()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let toml = Path::new(env!("CARGO_MANIFEST_DIR")).join("judge.toml");
        std::fs::copy(&toml, dir.join("judge.toml")).unwrap();
        // The database, as a judgekeeper makes it: `judge handle` never does.
        let init = Command::new(env!("CARGO_BIN_EXE_judge"))
            .arg("init")
            .arg(&dir)
            .output()
            .expect("judge init runs");
        assert!(init.status.success(), "judge init: {init:?}");
        TestJudge {
            dir,
            seen: 0,
            now: at(0),
        }
    }

    /// Sets `key = value` (TOML) in `[section]` of this judge's
    /// `judge.toml`, replacing the key if it is there.
    pub fn set_config(&self, section: &str, key: &str, value: &str) {
        let text = std::fs::read_to_string(self.config()).unwrap();
        let mut out = Vec::new();
        let mut in_section = false;
        let mut done = false;
        for line in text.lines() {
            let trimmed = line.trim();
            if trimmed.starts_with('[') {
                if in_section && !done {
                    out.push(format!("{key} = {value}"));
                    done = true;
                }
                in_section = trimmed == format!("[{section}]");
            } else if in_section
                && trimmed
                    .split_once('=')
                    .is_some_and(|(k, _)| k.trim() == key)
            {
                out.push(format!("{key} = {value}"));
                done = true;
                continue;
            }
            out.push(line.to_string());
        }
        if !done {
            if !in_section {
                out.push(format!("[{section}]"));
            }
            out.push(format!("{key} = {value}"));
        }
        std::fs::write(self.config(), out.join("\n") + "\n").unwrap();
    }

    /// Replaces the whole `[section]` of this judge's `judge.toml` with
    /// `body` (TOML lines).
    pub fn set_section(&self, section: &str, body: &str) {
        let text = std::fs::read_to_string(self.config()).unwrap();
        let mut out = Vec::new();
        let mut skipping = false;
        for line in text.lines() {
            let trimmed = line.trim();
            if trimmed.starts_with('[') {
                skipping = trimmed == format!("[{section}]");
                if skipping {
                    continue;
                }
            }
            if !skipping {
                out.push(line.to_string());
            }
        }
        out.push(format!("[{section}]"));
        out.push(body.trim().to_string());
        std::fs::write(self.config(), out.join("\n") + "\n").unwrap();
    }

    pub fn config(&self) -> PathBuf {
        self.dir.join("judge.toml")
    }

    pub fn db_path(&self) -> PathBuf {
        self.dir.join("var/judge.db")
    }

    /// Runs `judge --config <dir>/judge.toml <args>` with `stdin`.
    pub fn run(&self, args: &[&str], stdin: &[u8]) -> Run {
        self.run_env(args, stdin, &[])
    }

    /// [`TestJudge::run`] with variables added to the environment.
    pub fn run_env(&self, args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Run {
        let start = std::time::Instant::now();
        let mut child = Command::new(env!("CARGO_BIN_EXE_judge"))
            .envs(env.iter().copied())
            .arg("--config")
            .arg(self.config())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the judge binary runs");
        let mut input = child.stdin.take().unwrap();
        let data = stdin.to_vec();
        // Written from a thread: a big mail must not deadlock on full pipes.
        let writer = std::thread::spawn(move || {
            let _ = input.write_all(&data);
        });
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap();
        Run {
            ok: out.status.success(),
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            elapsed: start.elapsed(),
        }
    }

    /// `judge handle --now <now>` with one raw mail; it must succeed.
    pub fn handle_raw_at(&self, raw: &[u8], now: &str) -> Run {
        let run = self.run(&["handle", "--now", now], raw);
        assert!(run.ok, "judge handle failed: {}", run.stderr);
        run
    }

    pub fn handle_raw(&self, raw: &[u8]) -> Run {
        self.handle_raw_at(raw, &self.now.clone())
    }

    /// Handles the mail and returns the mails it queued.
    pub fn send(&mut self, mail: &Mail) -> Vec<Sent> {
        self.handle_raw(mail.raw().as_bytes());
        self.take()
    }

    /// Handles the mail at `now` and returns the mails it queued.
    pub fn send_at(&mut self, mail: &Mail, now: &str) -> Vec<Sent> {
        self.handle_raw_at(mail.raw().as_bytes(), now);
        self.take()
    }

    /// The mail of `from` with `body` and a fresh Message-ID.
    pub fn mail(&mut self, from: &str, body: &str) -> Vec<Sent> {
        self.send(&Mail::new(from, "orders", body))
    }

    /// A read-only connection to the database.
    pub fn db(&self) -> Connection {
        Connection::open_with_flags(self.db_path(), OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap()
    }

    /// The mails queued since the last call, in order.
    pub fn take(&mut self) -> Vec<Sent> {
        let conn = self.db();
        let mut stmt = conn
            .prepare("SELECT id, recipients, subject, raw FROM outbound WHERE id > ?1 ORDER BY id")
            .unwrap();
        let rows: Vec<(i64, String, String, Vec<u8>)> = stmt
            .query_map(params![self.seen], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let mut out = Vec::new();
        for (id, recipients, subject, raw) in rows {
            self.seen = self.seen.max(id);
            let recipients: Vec<String> = serde_json::from_str(&recipients).unwrap();
            out.push(Sent::read(id, recipients, &subject, raw));
        }
        out
    }

    /// `judge export <game>` as JSON.
    pub fn export(&self, game: &str) -> Value {
        let run = self.run(&["export", game], b"");
        assert!(run.ok, "judge export failed: {}", run.stderr);
        serde_json::from_str(&run.stdout).unwrap()
    }

    /// One value from the database.
    pub fn query_i64(&self, sql: &str) -> i64 {
        self.db().query_row(sql, [], |r| r.get(0)).unwrap()
    }

    /// The status and note of the inbound mail with this Message-ID.
    pub fn inbound_status(&self, message_id: &str) -> (String, Option<String>) {
        let id = message_id.trim_start_matches('<').trim_end_matches('>');
        self.db()
            .query_row(
                "SELECT status, note FROM inbound WHERE message_id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap()
    }
}

impl Drop for TestJudge {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// One queued mail, as its recipient reads it.
#[derive(Clone, Debug)]
pub struct Sent {
    pub id: i64,
    /// The envelope recipients (one per mail).
    pub recipients: Vec<String>,
    pub to: String,
    pub subject: String,
    /// The whole decoded text.
    pub body: String,
    pub message_id: String,
    pub in_reply_to: Option<String>,
    pub references: Vec<String>,
    pub auto_submitted: Option<String>,
    pub raw: String,
}

impl Sent {
    fn read(id: i64, recipients: Vec<String>, stored_subject: &str, raw: Vec<u8>) -> Sent {
        let incoming = judge::mail::read_mail(&raw, usize::MAX).expect("a readable mail");
        let message = mail_parser::MessageParser::default()
            .parse(&raw)
            .expect("a parseable mail");
        let body = message
            .body_text(0)
            .map(|b| b.replace("\r\n", "\n"))
            .unwrap_or_default();
        let header = |name: &str| message.header_raw(name).map(|v| v.trim().to_string());
        assert_eq!(incoming.subject, stored_subject, "stored subject = header");
        Sent {
            id,
            to: header("To").unwrap_or_default(),
            recipients,
            subject: incoming.subject,
            body,
            message_id: incoming.message_id,
            in_reply_to: header("In-Reply-To"),
            references: header("References")
                .map(|r| r.split_whitespace().map(str::to_string).collect())
                .unwrap_or_default(),
            auto_submitted: header("Auto-Submitted"),
            raw: String::from_utf8_lossy(&raw).into_owned(),
        }
    }

    /// Whether the body has a line equal to `line` (trimmed).
    pub fn has_line(&self, line: &str) -> bool {
        self.body.lines().any(|l| l.trim() == line.trim())
    }

    pub fn is_to(&self, addr: &str) -> bool {
        self.recipients.iter().any(|r| r.eq_ignore_ascii_case(addr))
    }
}

/// Every mail of `mails`, its recipients, subject and body, for a
/// failure's message.
pub fn dump(mails: &[Sent]) -> String {
    mails
        .iter()
        .map(|m| format!("=== to {:?} | {}\n{}", m.recipients, m.subject, m.body))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The stored orders of `power` (`FRANCE`) in the current phase of
/// `game`, in short form.
pub fn stored_orders(j: &TestJudge, game: &str, power: &str) -> Vec<String> {
    let export = j.export(game);
    let last = export["phases"].as_array().unwrap().last().unwrap().clone();
    last["orders"][power]
        .as_array()
        .map(|a| a.iter().map(|v| v.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

impl TestJudge {
    /// The inbound mail as the store keeps it (`message_id` with or
    /// without its angle brackets).
    pub fn stored_raw(&self, message_id: &str) -> Vec<u8> {
        self.db()
            .query_row(
                "SELECT raw FROM inbound WHERE message_id = ?1",
                [message_id.trim_matches(['<', '>'])],
                |row| row.get(0),
            )
            .unwrap()
    }
}

/// A mail to send to the judge.
#[derive(Clone, Debug)]
pub struct Mail {
    pub from: String,
    pub subject: String,
    pub body: String,
    pub message_id: String,
    /// Extra header lines, written as is (`Name: value`).
    pub headers: Vec<String>,
}

impl Mail {
    pub fn new(from: &str, subject: &str, body: &str) -> Mail {
        Mail {
            from: from.to_string(),
            subject: subject.to_string(),
            body: body.to_string(),
            message_id: format!("<t{}-{}@players.example>", std::process::id(), unique()),
            headers: Vec::new(),
        }
    }

    pub fn header(mut self, line: &str) -> Mail {
        self.headers.push(line.to_string());
        self
    }

    pub fn id(mut self, message_id: &str) -> Mail {
        self.message_id = message_id.to_string();
        self
    }

    /// The RFC 5322 text (CRLF), a plain-text body.
    pub fn raw(&self) -> String {
        let mut h = vec![
            format!("From: {}", self.from),
            "To: Diplomacy Judge <judge@localhost>".to_string(),
            format!("Subject: {}", self.subject),
            format!("Message-ID: {}", self.message_id),
            "Date: Mon, 2 Nov 2026 12:00:00 +0000".to_string(),
        ];
        h.extend(self.headers.iter().cloned());
        if !self
            .headers
            .iter()
            .any(|l| l.to_ascii_lowercase().starts_with("content-type"))
        {
            h.push("MIME-Version: 1.0".to_string());
            h.push("Content-Type: text/plain; charset=utf-8".to_string());
        }
        let body = self.body.replace("\r\n", "\n").replace('\n', "\r\n");
        format!("{}\r\n\r\n{}\r\n", h.join("\r\n"), body)
    }
}

/// The mails addressed to `addr`.
pub fn to<'a>(mails: &'a [Sent], addr: &str) -> Vec<&'a Sent> {
    mails.iter().filter(|m| m.is_to(addr)).collect()
}

/// The one mail addressed to `addr`, or a panic listing what there is.
pub fn one_to<'a>(mails: &'a [Sent], addr: &str) -> &'a Sent {
    let found = to(mails, addr);
    assert_eq!(
        found.len(),
        1,
        "expected one mail to {addr}, got {}: {:#?}",
        found.len(),
        mails
            .iter()
            .map(|m| (&m.recipients, &m.subject))
            .collect::<Vec<_>>()
    );
    found[0]
}

/// The one mail whose subject contains `what`.
pub fn with_subject<'a>(mails: &'a [Sent], what: &str) -> Vec<&'a Sent> {
    mails.iter().filter(|m| m.subject.contains(what)).collect()
}
