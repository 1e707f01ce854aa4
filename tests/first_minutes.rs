//! A newcomer's first minutes, as the README tells them: a fresh `judge
//! init` folder, the shipped example mail dropped into its inbox, one
//! `judge run --once`; what the log says (where mail is read, where
//! replies go, what became of each mail, in words); a file that is not a
//! mail dropped with a warning that says why; `judge map` refusing to
//! write a PNG to a terminal.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::prerequisite;

/// A fresh judge made by `judge init`, as the README's reader has one.
struct Fresh {
    dir: PathBuf,
}

impl Fresh {
    fn new(name: &str) -> Fresh {
        let dir = std::env::temp_dir().join(format!(
            "judge-first-{}-{name}-{}",
            std::process::id(),
            common::unique()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let init = Command::new(env!("CARGO_BIN_EXE_judge"))
            .arg("init")
            .arg(&dir)
            .output()
            .unwrap();
        assert!(init.status.success(), "judge init: {init:?}");
        Fresh { dir }
    }

    fn inbox(&self) -> PathBuf {
        self.dir.join("var/inbox/new")
    }

    fn outbox(&self) -> PathBuf {
        self.dir.join("var/outbox/new")
    }

    /// `judge run --once` from the folder, as the README runs it: its log.
    fn run_once(&self) -> String {
        let run = Command::new(env!("CARGO_BIN_EXE_judge"))
            .args(["run", "--once"])
            .current_dir(&self.dir)
            .env("RUST_LOG", "info")
            .output()
            .unwrap();
        let log = String::from_utf8_lossy(&run.stderr).into_owned();
        assert!(run.status.success(), "{log}");
        log
    }

    /// The mail files in the outbox.
    fn sent(&self) -> Vec<String> {
        std::fs::read_dir(self.outbox())
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
            .collect()
    }
}

impl Drop for Fresh {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// A mail's text part, quoted-printable undone (soft breaks joined).
fn text_of(mail: &str) -> String {
    let parsed = mail_parser::MessageParser::default()
        .parse(mail.as_bytes())
        .unwrap();
    parsed.body_text(0).unwrap().replace("\r\n", "\n")
}

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/first-game.eml")
}

#[test]
fn the_example_mail_dropped_into_a_fresh_inbox_is_answered() {
    let fresh = Fresh::new("example");
    std::fs::copy(example(), fresh.inbox().join("first-game.eml")).unwrap();
    let log = fresh.run_once();
    for said in [
        "mail is read from the Maildir folder ./var/inbox/new",
        "replies go to the Maildir folder ./var/outbox/new",
        "the games are kept in ./var/judge.db",
        "./var/inbox/new/first-game.eml: mail from teacher@example.org answered with 1 mail",
    ] {
        assert!(log.contains(said), "{said:?} not in the log:\n{log}");
    }
    assert!(!log.contains("Answered("), "{log}");
    let sent = fresh.sent();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(sent[0].contains("To: teacher@example.org"), "{}", sent[0]);
    let text = text_of(&sent[0]);
    assert!(
        text.contains("Game 'mygame' (standard")
            && text.contains("you are its Master")
            && text.contains("Game 'mygame': forming, variant standard."),
        "{text}"
    );
    // The README shows the same mail.
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    for line in std::fs::read_to_string(example()).unwrap().lines() {
        let shown = format!("    {line}");
        assert!(
            readme.lines().any(|l| l.trim_end() == shown.trim_end()),
            "the README does not show {line:?}"
        );
    }
}

#[test]
fn a_file_that_is_no_mail_is_dropped_with_a_warning_saying_why() {
    let fresh = Fresh::new("dropped");
    std::fs::write(fresh.inbox().join("notes.txt"), "CREATE ?mygame secret\n").unwrap();
    std::fs::write(
        fresh.inbox().join("no-from"),
        "Subject: orders\nMessage-ID: <x1@example.org>\n\nLIST\n",
    )
    .unwrap();
    let log = fresh.run_once();
    let line = |name: &str| {
        log.lines()
            .find(|l| l.contains(&format!("./var/inbox/new/{name}: dropped:")))
            .unwrap_or_else(|| panic!("no line for {name}:\n{log}"))
            .to_string()
    };
    let notes = line("notes.txt");
    assert!(
        notes.contains("WARN")
            && notes.contains("no mail headers: a mail file starts with header lines (From:"),
        "{notes}"
    );
    let no_from = line("no-from");
    assert!(
        no_from.contains("WARN") && no_from.contains("no From: address to answer"),
        "{no_from}"
    );
    assert!(fresh.sent().is_empty());
}

#[test]
fn judge_map_refuses_to_write_a_png_to_a_terminal() {
    let fresh = Fresh::new("tty");
    std::fs::copy(example(), fresh.inbox().join("first-game.eml")).unwrap();
    fresh.run_once();
    let judge = env!("CARGO_BIN_EXE_judge");
    // Redirected, the game not yet started: said so, nothing written.
    let run = Command::new(judge)
        .args(["map", "mygame"])
        .current_dir(&fresh.dir)
        .output()
        .unwrap();
    assert!(!run.status.success());
    assert!(run.stdout.is_empty());
    assert!(
        String::from_utf8_lossy(&run.stderr).contains("game 'mygame' has not started"),
        "{run:?}"
    );
    // On a terminal (a pseudo-terminal made by script(1)).
    let script = Command::new("script")
        .args(["-qec", &format!("{judge} map mygame"), "/dev/null"])
        .current_dir(&fresh.dir)
        .stdin(std::process::Stdio::null())
        .output();
    let Some(run) = script.ok().filter(|r| r.status.code().is_some()) else {
        prerequisite::missing(
            "judge_map_refuses_to_write_a_png_to_a_terminal",
            "script(1) is not installed",
            "install util-linux",
        );
        return;
    };
    let said = String::from_utf8_lossy(&run.stdout);
    assert!(
        said.contains(
            "a PNG is not written to a terminal: redirect it (judge map mygame > mygame.png), \
             name a file (-o mygame.png), or ask for --svg"
        ),
        "{said}"
    );
    assert!(!said.contains("PNG\r\n\u{1a}"), "{said}");
    assert_eq!(run.status.code(), Some(1), "{said}");
}
