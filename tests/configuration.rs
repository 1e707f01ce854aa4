//! `judge.toml` as a judgekeeper meets it: `judge check` names every
//! unknown key and bad value with its section, key and line; `judge run`
//! and `judge handle` refuse the same file with the same words; and the
//! mailboxes have one set of defaults, whichever command reads them.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{at, unique, Mail, TestJudge};

/// The line (from 1) of `judge.toml` that starts with `start`; the file
/// must have exactly one.
fn line_of(j: &TestJudge, start: &str) -> usize {
    let text = std::fs::read_to_string(j.config()).unwrap();
    let found: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with(start))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(found.len(), 1, "{start:?} in judge.toml: {found:?}");
    found[0]
}

/// What `judge check` said about a judge.toml it refused.
fn refused_by_check(j: &TestJudge) -> String {
    let check = j.run(&["check"], b"");
    assert!(!check.ok, "judge check passed:\n{}", check.stdout);
    check.stdout
}

#[test]
fn judge_check_names_an_unknown_key_and_a_bad_value_with_their_lines() {
    let j = TestJudge::new("cfg-lines");
    // A key of IMAP left in a Maildir inbox, and a width in words.
    j.set_section(
        "inbox",
        "kind = \"maildir\"\npath = \"var/inbox\"\nfolder = \"INBOX\"",
    );
    j.set_config("maps", "width", "\"wide\"");
    j.set_config("clock", "tick", "5");
    let folder = line_of(&j, "folder =");
    let width = line_of(&j, "width =");
    let tick = line_of(&j, "tick =");
    let file = j.config().display().to_string();

    let said = refused_by_check(&j);
    let mut expected = [
        (
            width,
            "[maps] width = \"wide\": write a whole number".to_string(),
        ),
        (
            tick,
            "[clock] tick: unknown key (the section knows reminder_hours, early_minutes, \
             late_repeat_hours, outage_minutes, outage_margin_hours, tick_seconds)"
                .to_string(),
        ),
        (
            folder,
            "[inbox] folder: unknown key (a Maildir inbox knows kind, path)".to_string(),
        ),
    ]
    .map(|(line, text)| (line, format!("{file}, line {line}: {text}")));
    // All of them at once, in the order of their lines.
    expected.sort();
    let lines: Vec<String> = expected
        .iter()
        .map(|(_, l)| format!("error: {l}"))
        .collect();
    assert_eq!(said.lines().collect::<Vec<_>>(), lines, "{said}");

    // `judge run` will not start on it, saying the same; `judge handle`
    // leaves the mail to the mail system (75), saying why.
    let run = j.run(&["run", "--once", "--now", &at(0)], b"");
    assert!(!run.ok);
    for (_, line) in &expected {
        assert!(run.stderr.contains(line), "{line}\n{}", run.stderr);
    }
    let raw = Mail::new("someone@players.example", "help", "HELP").raw();
    let handle = j.run(&["handle"], raw.as_bytes());
    assert_eq!(handle.code, Some(75), "{}", handle.stderr);
    assert!(
        handle
            .stderr
            .contains(&format!("line {folder}: [inbox] folder: unknown key")),
        "{}",
        handle.stderr
    );
}

#[test]
fn judge_check_names_every_bad_setting_of_an_imap_inbox() {
    let j = TestJudge::new("cfg-imap");
    j.set_section(
        "inbox",
        "kind = \"imap\"\nhost = \"mail.example.org\"\nport = 0\ntls = \"ssl\"\n\
         password = \"secret\"\nprocessed = \"INBOX\"\npoll = 60",
    );
    let header = line_of(&j, "[inbox]");
    let port = line_of(&j, "port =");
    let tls = line_of(&j, "tls =");
    let processed = line_of(&j, "processed =");
    let poll = line_of(&j, "poll =");
    let said = refused_by_check(&j);
    for expected in [
        format!("line {header}: [inbox] user is missing: the IMAP login name"),
        format!("line {port}: [inbox] port = 0: write a whole number from 1 to 65535"),
        format!("line {tls}: [inbox] tls = \"ssl\": write \"none\", \"starttls\" or \"tls\""),
        format!(
            "line {processed}: [inbox] processed = \"INBOX\": that is the folder read: \
             choose another, or leave it out"
        ),
        format!(
            "line {poll}: [inbox] poll: unknown key (an IMAP inbox knows kind, host, port, \
             tls, user, password, folder, processed, poll_seconds)"
        ),
    ] {
        assert!(said.contains(&expected), "{expected}\n{said}");
    }
    // Nothing else: no connection was tried to a server so described.
    assert_eq!(said.lines().count(), 5, "{said}");
}

#[test]
fn judge_check_names_a_bad_outbox_and_an_unknown_section() {
    let j = TestJudge::new("cfg-outbox");
    j.set_section(
        "outbox",
        "kind = \"sendmail\"\ncommand = \"/usr/sbin/sendmail\"\ntimeout_seconds = -1",
    );
    j.set_section("inbx", "kind = \"pipe\"");
    let timeout = line_of(&j, "timeout_seconds =");
    let section = line_of(&j, "[inbx]");
    let said = refused_by_check(&j);
    for expected in [
        format!(
            "line {timeout}: [outbox] timeout_seconds = -1: write a whole number from 1 to 86400"
        ),
        format!("line {section}: [inbx]: unknown section (the file knows [judge], [store]"),
    ] {
        assert!(said.contains(&expected), "{expected}\n{said}");
    }
}

/// A folder holding `toml` as its judge.toml, and `judge` run there.
struct Folder {
    dir: PathBuf,
}

impl Folder {
    fn new(name: &str, toml: &str) -> Folder {
        let dir = std::env::temp_dir().join(format!(
            "judge-config-{}-{name}-{}",
            std::process::id(),
            unique()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("judge.toml"), toml).unwrap();
        Folder { dir }
    }

    fn judge(&self, args: &[&str]) -> (bool, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_judge"))
            .arg("--config")
            .arg(self.dir.join("judge.toml"))
            .args(args)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.success(), said)
    }

    fn files(dir: &Path) -> Vec<PathBuf> {
        std::fs::read_dir(dir)
            .map(|d| d.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default()
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

#[test]
fn maildirs_without_a_path_are_the_same_folders_to_every_command() {
    // The shipped file with the mailboxes' paths left out: var/inbox and
    // var/outbox, for `judge init`, `judge check` and `judge run` alike.
    let shipped = include_str!("../judge.toml");
    let toml = shipped
        .replace("path = \"var/inbox\"\n", "")
        .replace("path = \"var/outbox\"\n", "");
    assert!(!toml.contains("var/inbox") && !toml.contains("var/outbox"));
    let f = Folder::new("defaults", &toml);
    let (ok, said) = f.judge(&["init", f.dir.to_str().unwrap()]);
    assert!(ok, "{said}");
    for made in ["var/inbox", "var/outbox"] {
        assert!(
            said.contains(&format!("made the Maildir {}", f.dir.join(made).display())),
            "{said}"
        );
        for sub in ["new", "cur", "tmp"] {
            assert!(f.dir.join(made).join(sub).is_dir(), "{made}/{sub}: {said}");
        }
    }

    let (ok, said) = f.judge(&["check"]);
    assert!(ok, "{said}");
    for (name, folder) in [("inbox", "var/inbox"), ("outbox", "var/outbox")] {
        let line = format!(
            "ok: [{name}] Maildir {} is writable",
            f.dir.join(folder).display()
        );
        assert!(said.lines().any(|l| l == line), "{line}\n{said}");
    }

    // A mail left in var/inbox/new is answered into var/outbox/new.
    let raw = Mail::new("someone@players.example", "help", "HELP").raw();
    std::fs::write(f.dir.join("var/inbox/new/1.judge-test"), raw).unwrap();
    let (ok, said) = f.judge(&["run", "--once", "--now", &at(0)]);
    assert!(ok, "{said}");
    let sent = Folder::files(&f.dir.join("var/outbox/new"));
    assert_eq!(sent.len(), 1, "{sent:?}\n{said}");
    let reply = std::fs::read_to_string(&sent[0]).unwrap();
    assert!(reply.contains("To: someone@players.example"), "{reply}");
}
