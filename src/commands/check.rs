//! `judge check`: reads a configuration and says exactly what is wrong
//! with it — a bad schedule, a path that cannot be written, a mail server
//! that does not answer.

use std::path::Path;
use std::time::Duration;

use crate::app::Database;
use crate::config::{Config, InboxSettings, OutboxSettings, ServerSettings};
use crate::daemon::{imap, smtp};
use crate::store::Store;
use crate::web;

/// Checks everything; returns the findings (all "ok" lines, or problems).
pub fn run(config_path: &Path) -> (Vec<String>, bool) {
    let mut lines = Vec::new();
    let mut ok = true;
    let config = match Config::read(config_path) {
        Ok(c) => {
            lines.push(format!("ok: {} reads", config_path.display()));
            c
        }
        Err(problems) => {
            let lines = problems.iter().map(|p| format!("error: {p}")).collect();
            return (lines, false);
        }
    };
    let mut check = |result: Result<String, String>| match result {
        Ok(line) => lines.push(format!("ok: {line}")),
        Err(e) => {
            ok = false;
            lines.push(format!("error: {e}"));
        }
    };
    let db = config.database_path();
    check(match crate::app::database_state(&config) {
        Database::Present => Store::open(&db)
            .map(|_| format!("database {} opens and is writable", db.display()))
            .map_err(|e| format!("database {}: {e}", db.display())),
        Database::Fresh => Ok(format!(
            "database {} does not exist yet: this is a fresh judge, and the first \
             `judge run` makes it",
            db.display()
        )),
        Database::Lost(why) => Err(format!(
            "database {} is missing, and {why}: `judge run` and `judge handle` refuse to \
             make a new empty one (is its volume mounted?)",
            db.display()
        )),
    });
    for result in mailbox_checks(&config) {
        check(result);
    }
    for result in template_checks(&config) {
        check(result);
    }
    if config.web.enabled {
        let www = config.web_path();
        check(writable_dir(&www).map(|_| format!("[web] {} is writable", www.display())));
    }
    // Whether or not the judge publishes: `judge archive` uses them too.
    let pages = web::templates_dir(&config);
    check(
        web::page_templates(&config)
            .map(|_| {
                format!(
                    "the page templates ({}, or built in) render",
                    pages.display()
                )
            })
            .map_err(|e| e.to_string()),
    );
    if let Err(e) = crate::daemon::configured::inbox(&config) {
        check(Err(e));
    }
    if let Err(e) = crate::daemon::configured::outbox(&config) {
        check(Err(e));
    }
    (lines, ok)
}

/// The templates beside the configuration (or the built-in ones): every
/// one compiles, and every words entry renders with sample values of the
/// variables its header names.
fn template_checks(config: &Config) -> Vec<Result<String, String>> {
    use crate::report::{words::Words, Templates};
    let dir = config.resolve(Path::new("templates"));
    let mut results = vec![Templates::from_dir(&dir)
        .map(|_| format!("the results template in {} compiles", dir.display()))
        .map_err(|e| e.to_string())];
    match Words::from_dir(&dir) {
        Ok(words) => {
            let problems = words.try_all();
            if problems.is_empty() {
                results.push(Ok(format!(
                    "the judge's words in {} compile and render",
                    dir.display()
                )));
            }
            results.extend(problems.into_iter().map(Err));
        }
        Err(e) => results.push(Err(e.to_string())),
    }
    results
}

/// `[inbox]` and `[outbox]`: a Maildir can be written; a server answers
/// and takes the login (a settings problem was found when reading).
fn mailbox_checks(config: &Config) -> Vec<Result<String, String>> {
    let maildir = |name: &str, path: &Path| {
        let root = config.resolve(path);
        writable_dir(&root).map(|_| format!("[{name}] Maildir {} is writable", root.display()))
    };
    let mut found = Vec::new();
    match &config.inbox {
        InboxSettings::Maildir { path } => found.push(maildir("inbox", path)),
        InboxSettings::Imap(s) => found.extend(server("inbox", "imap", &s.server, imap::check(s))),
        InboxSettings::Pipe => found.push(Ok("[inbox] kind pipe".to_string())),
    }
    match &config.outbox {
        OutboxSettings::Maildir { path } => found.push(maildir("outbox", path)),
        OutboxSettings::Smtp(s) => {
            found.extend(server("outbox", "smtp", &s.server, smtp::check(s)))
        }
        OutboxSettings::Sendmail { .. } => found.push(Ok("[outbox] kind sendmail".to_string())),
    }
    found
}

/// The server's port answers; then `speak` talks to it as the daemon
/// would: IMAP login and folder, SMTP EHLO (with STARTTLS and AUTH as
/// configured).
fn server(
    name: &str,
    kind: &str,
    server: &ServerSettings,
    speak: impl std::future::Future<Output = Result<String, String>>,
) -> Vec<Result<String, String>> {
    let (host, port) = (server.host.as_str(), server.port);
    let reached = reachable(host, port)
        .map(|_| format!("[{name}] {kind} server {host}:{port} answers"))
        .map_err(|e| format!("[{name}] {kind} server: {e}"));
    if reached.is_err() {
        return vec![reached];
    }
    let spoken = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("starting the runtime: {e}"))
        .and_then(|runtime| runtime.block_on(speak));
    vec![reached, spoken]
}

fn writable_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let probe = dir.join(".judge-check");
    std::fs::write(&probe, b"").map_err(|e| format!("{} is not writable: {e}", dir.display()))?;
    let _ = std::fs::remove_file(probe);
    Ok(())
}

fn reachable(host: &str, port: u16) -> Result<(), String> {
    use std::net::ToSocketAddrs;
    let addrs: Vec<_> = (host, port)
        .to_socket_addrs()
        .map_err(|e| format!("{host}:{port}: {e}"))?
        .collect();
    for a in &addrs {
        if std::net::TcpStream::connect_timeout(a, Duration::from_secs(3)).is_ok() {
            return Ok(());
        }
    }
    Err(format!(
        "{host}:{port} does not answer (is the server running?)"
    ))
}
