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
