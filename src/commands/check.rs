//! `judge check`: reads a configuration and says exactly what is wrong
//! with it — a bad schedule, a path that cannot be written, a mail server
//! that does not answer.

use std::path::Path;
use std::time::Duration;

use crate::app::Database;
use crate::config::Config;
use crate::daemon::imap::{self, ImapSettings};
use crate::daemon::smtp::{self, SmtpSettings};
use crate::store::Store;

/// Checks everything; returns the findings (all "ok" lines, or problems).
pub fn run(config_path: &Path) -> (Vec<String>, bool) {
    let mut lines = Vec::new();
    let mut ok = true;
    let config = match Config::load(config_path) {
        Ok(c) => {
            lines.push(format!("ok: {} reads", config_path.display()));
            c
        }
        Err(e) => return (vec![format!("error: {e}")], false),
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
    for (name, section) in [
        ("inbox", config.inbox.as_ref()),
        ("outbox", config.outbox.as_ref()),
    ] {
        let kind = section
            .and_then(|t| t.get("kind"))
            .and_then(|v| v.as_str())
            .unwrap_or("maildir");
        match kind {
            "maildir" => {
                let p = section
                    .and_then(|t| t.get("path"))
                    .and_then(|v| v.as_str())
                    .unwrap_or("");
                let root = config.resolve(Path::new(p));
                check(
                    writable_dir(&root)
                        .map(|_| format!("[{name}] Maildir {} is writable", root.display())),
                );
            }
            "imap" | "smtp" => {
                let server = if kind == "imap" {
                    ImapSettings::from_table(section).map(|s| s.server)
                } else {
                    SmtpSettings::from_table(section).map(|s| s.server)
                };
                // A settings error is reported below, by opening the mailbox.
                if let Ok(server) = server {
                    let (host, port) = (server.host.as_str(), server.port);
                    let reached = reachable(host, i64::from(port));
                    let answers = reached.is_ok();
                    check(
                        reached
                            .map(|_| format!("[{name}] {kind} server {host}:{port} answers"))
                            .map_err(|e| format!("[{name}] {kind} server: {e}")),
                    );
                    if answers {
                        // Beyond the port: log in (IMAP), EHLO (SMTP).
                        check(speak(kind, section));
                    }
                }
            }
            other => check(Ok(format!("[{name}] kind {other}"))),
        }
    }
    if config.web.enabled {
        let www = config.web_path();
        check(writable_dir(&www).map(|_| format!("[web] {} is writable", www.display())));
    }
    if let Err(e) = crate::daemon::configured::inbox(&config) {
        check(Err(e));
    }
    if let Err(e) = crate::daemon::configured::outbox(&config) {
        check(Err(e));
    }
    (lines, ok)
}

/// Talks to the mail server as the daemon would: IMAP login and folder,
/// SMTP EHLO (with STARTTLS and AUTH as configured).
fn speak(kind: &str, section: Option<&toml::Table>) -> Result<String, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("starting the runtime: {e}"))?;
    runtime.block_on(async {
        if kind == "imap" {
            imap::check(section).await
        } else {
            smtp::check(section).await
        }
    })
}

fn writable_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let probe = dir.join(".judge-check");
    std::fs::write(&probe, b"").map_err(|e| format!("{} is not writable: {e}", dir.display()))?;
    let _ = std::fs::remove_file(probe);
    Ok(())
}

fn reachable(host: &str, port: i64) -> Result<(), String> {
    use std::net::ToSocketAddrs;
    let port = u16::try_from(port).map_err(|_| format!("port {port} is not a port"))?;
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
