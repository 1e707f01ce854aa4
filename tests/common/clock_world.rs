//! A judge as a judgekeeper runs it, for the clock tests: a folder made
//! by `judge init`, mails dropped as files into the Maildir inbox, time
//! driven by `judge run --once --now <t>`, and what the players see read
//! back from the Maildir outbox (and the game from `judge export`).
//!
//! Times are unix seconds; [`t`] counts from Monday 2 November 2026,
//! 00:00 UTC.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

use judge::store::rusqlite::{Connection, OpenFlags};
use serde_json::Value;

use crate::common::{unique, Mail};

/// Monday 2 November 2026, 00:00 UTC.
pub const MONDAY: i64 = 1_793_577_600;

/// `day` days and `hour` hours after [`MONDAY`] (day 0 is that Monday).
pub fn t(day: i64, hour: i64) -> i64 {
    MONDAY + day * 86_400 + hour * 3_600
}

/// As [`t`], with minutes.
pub fn tm(day: i64, hour: i64, minute: i64) -> i64 {
    t(day, hour) + minute * 60
}

pub const HOUR: i64 = 3_600;
pub const MINUTE: i64 = 60;

/// A time as `judge run --now` takes it.
pub fn rfc3339(at: i64) -> String {
    chrono::DateTime::from_timestamp(at, 0)
        .expect("a time")
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// A time as the judge writes it to players: "Thu Nov 05 2026 20:00 UTC".
pub fn shown(at: i64) -> String {
    chrono::DateTime::from_timestamp(at, 0)
        .expect("a time")
        .format("%a %b %d %Y %H:%M UTC")
        .to_string()
}

pub const MASTER: &str = "master@example.org";
pub const MASTER_PW: &str = "mpass";

/// The seven powers by initial, and their players' addresses.
pub const POWERS: [(char, &str); 7] = [
    ('A', "Austria"),
    ('E', "England"),
    ('F', "France"),
    ('G', "Germany"),
    ('I', "Italy"),
    ('R', "Russia"),
    ('T', "Turkey"),
];

/// The player of a power (by initial): `france@players.test`.
pub fn player(p: char) -> String {
    format!("{}@players.test", name(p).to_ascii_lowercase())
}

pub fn name(p: char) -> &'static str {
    POWERS
        .iter()
        .find(|(c, _)| *c == p)
        .map(|(_, n)| *n)
        .expect("a power's initial")
}

pub fn password(p: char) -> String {
    format!("pw-{}", p.to_ascii_lowercase())
}

/// Complete Spring 1901 orders: every unit holds.
pub fn holds(p: char) -> &'static str {
    match p {
        'A' => "A Vie H\nA Bud H\nF Tri H",
        'E' => "F Lon H\nF Edi H\nA Lvp H",
        'F' => "A Par H\nA Mar H\nF Bre H",
        'G' => "A Ber H\nA Mun H\nF Kie H",
        'I' => "A Ven H\nA Rom H\nF Nap H",
        'R' => "A Mos H\nA War H\nF Sev H\nF StP H",
        'T' => "A Con H\nA Smy H\nF Ank H",
        _ => panic!("no power {p}"),
    }
}

/// One mail the judge sent, as its recipient reads it.
#[derive(Clone, Debug)]
pub struct Out {
    /// The `--now` of the pass that sent it.
    pub at: i64,
    pub to: String,
    pub subject: String,
    pub body: String,
}

impl Out {
    pub fn is_to(&self, addr: &str) -> bool {
        self.to.eq_ignore_ascii_case(addr)
    }
}

/// The mails to `addr`.
pub fn to<'a>(mails: &'a [Out], addr: &str) -> Vec<&'a Out> {
    mails.iter().filter(|m| m.is_to(addr)).collect()
}

/// How many mails to `addr` have a subject containing `what`.
pub fn count(mails: &[Out], addr: &str, what: &str) -> usize {
    mails
        .iter()
        .filter(|m| m.is_to(addr) && m.subject.contains(what))
        .count()
}

/// The mails whose subject contains `what`.
pub fn about<'a>(mails: &'a [Out], what: &str) -> Vec<&'a Out> {
    mails.iter().filter(|m| m.subject.contains(what)).collect()
}

/// The one mail to `addr` whose subject contains `what`.
pub fn one<'a>(mails: &'a [Out], addr: &str, what: &str) -> &'a Out {
    let found: Vec<&Out> = mails
        .iter()
        .filter(|m| m.is_to(addr) && m.subject.contains(what))
        .collect();
    assert_eq!(
        found.len(),
        1,
        "expected one mail to {addr} about {what:?}, got {}: {}",
        found.len(),
        listing(mails)
    );
    found[0]
}

/// "to | subject" per mail, for failure messages.
pub fn listing(mails: &[Out]) -> String {
    let mut s = String::new();
    for m in mails {
        s.push_str(&format!("\n  {} {} | {}", shown(m.at), m.to, m.subject));
    }
    s
}

/// A judge in a folder of its own, driven through its Maildirs.
pub struct World {
    pub dir: PathBuf,
    /// The time of the last pass.
    pub now: i64,
    /// Every mail sent so far, in the order read.
    pub sent: Vec<Out>,
    seq: usize,
}

impl World {
    /// `judge init` in a fresh folder, then `settings` written into its
    /// `judge.toml`: (section, key, TOML value), e.g.
    /// `("clock", "outage_minutes", "600")`.
    pub fn new(name: &str, settings: &[(&str, &str, &str)]) -> World {
        let dir = std::env::temp_dir().join(format!(
            "judge-clock-{}-{name}-{}",
            std::process::id(),
            unique()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let out = Command::new(env!("CARGO_BIN_EXE_judge"))
            .arg("init")
            .arg(&dir)
            .output()
            .expect("judge init runs");
        assert!(
            out.status.success(),
            "judge init failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let config = dir.join("judge.toml");
        let mut text = std::fs::read_to_string(&config).unwrap();
        for (section, key, value) in settings {
            text = set_key(&text, section, key, value);
        }
        std::fs::write(&config, text).unwrap();
        for sub in ["var/inbox/new", "var/outbox/new", "var/outbox/cur"] {
            assert!(dir.join(sub).is_dir(), "judge init made {sub}");
        }
        World {
            dir,
            now: t(0, 0),
            sent: Vec::new(),
            seq: 0,
        }
    }

    /// A judge whose clock leaves the games to their Master: no outage
    /// catch-up and no early processing for days.
    pub fn master_paced(name: &str) -> World {
        World::new(
            name,
            &[
                ("clock", "outage_minutes", "100000"),
                ("clock", "early_minutes", "100000"),
            ],
        )
    }

    pub fn config(&self) -> PathBuf {
        self.dir.join("judge.toml")
    }

    /// Runs `judge --config <dir>/judge.toml <args>`.
    pub fn judge(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_judge"))
            .arg("--config")
            .arg(self.config())
            .args(args)
            .env("RUST_LOG", "warn")
            .output()
            .expect("the judge binary runs")
    }

    /// Delivers a mail into the inbox (`new/`), to be read by the next
    /// pass; mails are read in the order posted.
    pub fn post(&mut self, from: &str, body: &str) {
        let raw = Mail::new(from, "orders", body).raw();
        self.seq += 1;
        let name = format!("{:08}.clocktest.{}", self.seq, unique());
        let tmp = self.dir.join("var/inbox/tmp").join(&name);
        std::fs::write(&tmp, raw).unwrap();
        std::fs::rename(&tmp, self.dir.join("var/inbox/new").join(&name)).unwrap();
    }

    /// One pass, `judge run --once --now <at>`: the waiting mail, the
    /// clock, the queue. Returns the mails it sent.
    pub fn run(&mut self, at: i64) -> Vec<Out> {
        assert!(at >= self.now, "time runs forward");
        self.run_logged(at).0
    }

    /// One pass at `at`, which may be before the last pass (a clock set
    /// back). Returns the mails it sent and what it logged (warnings and
    /// worse).
    pub fn run_logged(&mut self, at: i64) -> (Vec<Out>, String) {
        self.now = at;
        let out = self.judge(&["run", "--once", "--now", &rfc3339(at)]);
        assert!(
            out.status.success(),
            "judge run --once --now {} failed: {}",
            rfc3339(at),
            String::from_utf8_lossy(&out.stderr)
        );
        let left = std::fs::read_dir(self.dir.join("var/inbox/new"))
            .unwrap()
            .count();
        assert_eq!(left, 0, "every waiting mail is taken in");
        let mails = self.collect(at);
        self.sent.extend(mails.iter().cloned());
        (mails, String::from_utf8_lossy(&out.stderr).into_owned())
    }

    /// Posts a mail and runs a pass at the current time.
    pub fn mail(&mut self, from: &str, body: &str) -> Vec<Out> {
        self.post(from, body);
        self.run(self.now)
    }

    /// Posts a mail and runs a pass at `at`.
    pub fn mail_at(&mut self, at: i64, from: &str, body: &str) -> Vec<Out> {
        self.post(from, body);
        self.run(at)
    }

    /// A pass every `step` seconds after the current time, up to and
    /// including `end`. Returns every mail sent meanwhile.
    pub fn tick_until(&mut self, end: i64, step: i64) -> Vec<Out> {
        let mut all = Vec::new();
        let mut at = self.now;
        while at < end {
            at = (at + step).min(end);
            all.extend(self.run(at));
        }
        all
    }

    /// A power's orders (or other lines) for `game`, signed on.
    pub fn orders(&mut self, game: &str, p: char, lines: &str) -> Vec<Out> {
        let body = format!("SIGNON {p}{game} {}\n{lines}", password(p));
        self.mail(&player(p), &body)
    }

    /// Posts a power's lines without running a pass.
    pub fn post_orders(&mut self, game: &str, p: char, lines: &str) {
        let body = format!("SIGNON {p}{game} {}\n{lines}", password(p));
        self.post(&player(p), &body);
    }

    /// A new game at the current time: the Master creates it (the
    /// `master` lines follow CREATE, signed on as the Master), the seven
    /// players join, each asking for their own power, and it starts.
    pub fn start_game(&mut self, game: &str, master: &str) -> Vec<Out> {
        self.post(MASTER, &format!("CREATE ?{game} {MASTER_PW}\n{master}"));
        self.join_all(game)
    }

    /// The seven players join a created game, each asking for their own
    /// power, and it starts at the current time.
    pub fn join_all(&mut self, game: &str) -> Vec<Out> {
        for (p, _) in POWERS {
            self.post(
                &player(p),
                &format!("SIGNON ?{game} {}\nSET PREFERENCE {p}", password(p)),
            );
        }
        let mails = self.run(self.now);
        for (p, power) in POWERS {
            one(&mails, &player(p), &format!("Game starts: you are {power}"));
        }
        one(&mails, MASTER, "Game starts");
        mails
    }

    /// `judge export <game>`.
    pub fn export(&self, game: &str) -> Value {
        let out = self.judge(&["export", game]);
        assert!(
            out.status.success(),
            "judge export failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }

    /// A power's units in a phase's position (`"A PAR"`, ...), sorted;
    /// none when it has none.
    pub fn units(&self, game: &str, phase: &str, power: &str) -> Vec<String> {
        let export = self.export(game);
        let p = export["phases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["phase"] == phase)
            .unwrap_or_else(|| panic!("phase {phase} in {export:#}"));
        let mut units: Vec<String> = p["units"][power]
            .as_array()
            .map(|a| a.iter().map(|u| u.as_str().unwrap().to_string()).collect())
            .unwrap_or_default();
        units.sort();
        units
    }

    /// The status of a power's seat ("active", "late", ...).
    pub fn status(&self, game: &str, p: char) -> String {
        let power = name(p).to_ascii_uppercase();
        self.export(game)["players"][&power]["status"]
            .as_str()
            .expect("a status")
            .to_string()
    }

    /// The phases of the game so far ("S1901M", ...), with their deadlines.
    pub fn phases(&self, game: &str) -> Vec<(String, Option<i64>)> {
        self.export(game)["phases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["phase"].as_str().unwrap().to_string(),
                    p["deadline"].as_i64(),
                )
            })
            .collect()
    }

    /// The current phase and its deadline.
    pub fn current(&self, game: &str) -> (String, i64) {
        let (phase, deadline) = self.phases(game).pop().expect("a phase");
        (phase, deadline.expect("a deadline"))
    }

    /// A read-only connection to the database.
    pub fn db(&self) -> Connection {
        Connection::open_with_flags(
            self.dir.join("var/judge.db"),
            OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .unwrap()
    }

    /// The new files in the outbox: read, then moved to `cur/`.
    fn collect(&mut self, at: i64) -> Vec<Out> {
        let new = self.dir.join("var/outbox/new");
        let mut names: Vec<PathBuf> = std::fs::read_dir(&new)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        let mut out = Vec::new();
        for path in names {
            let raw = std::fs::read(&path).unwrap();
            out.push(read_out(&raw, at));
            let file = path.file_name().unwrap().to_string_lossy().into_owned();
            std::fs::rename(&path, self.dir.join("var/outbox/cur").join(file + ":2,S")).unwrap();
        }
        out
    }
}

impl Drop for World {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// One outbox file as its recipient reads it.
fn read_out(raw: &[u8], at: i64) -> Out {
    let mail = judge::mail::read_mail(raw, usize::MAX).expect("a readable mail");
    let parsed = mail_parser::MessageParser::default()
        .parse(raw)
        .expect("a parseable mail");
    let to = parsed
        .to()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .expect("a To address")
        .to_string();
    assert!(
        mail.from
            .as_ref()
            .is_some_and(|a| a.addr_spec() == "judge@localhost"),
        "From is the judge"
    );
    // Sent at the injected time, not the machine's.
    assert_eq!(mail.date, Some(at), "Date of {:?}", mail.subject);
    Out {
        at,
        to,
        subject: mail.subject,
        body: parsed
            .body_text(0)
            .map(|b| b.replace("\r\n", "\n"))
            .unwrap_or_default(),
    }
}

/// Sets `key = value` in `[section]` of a TOML text: replaces the line
/// (commented out or not) or adds one under the section's header.
fn set_key(text: &str, section: &str, key: &str, value: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let header = format!("[{section}]");
    let start = lines
        .iter()
        .position(|l| l.trim() == header)
        .unwrap_or_else(|| {
            lines.push(header.clone());
            lines.len() - 1
        });
    let end = lines[start + 1..]
        .iter()
        .position(|l| l.trim_start().starts_with('['))
        .map_or(lines.len(), |k| start + 1 + k);
    let is_key = |l: &str| {
        let l = l.trim_start().trim_start_matches('#').trim_start();
        l.strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with('='))
    };
    let line = format!("{key} = {value}");
    match (start + 1..end).find(|&k| is_key(&lines[k])) {
        Some(k) => lines[k] = line,
        None => lines.insert(start + 1, line),
    }
    lines.join("\n") + "\n"
}
