//! `[inbox]` and `[outbox]`: which kind of mailbox, and its settings, read
//! once here with their defaults. The daemon opens what they name and
//! does the IO; nothing else reads these sections.

use std::path::PathBuf;
use std::time::Duration;

use super::source::{Problem, Problems, Section};

/// Where mail comes in (`[inbox] kind`, default "maildir").
#[derive(Debug, Clone)]
pub enum InboxSettings {
    /// A Maildir folder (`path`, relative to the file).
    Maildir {
        path: PathBuf,
    },
    Imap(ImapSettings),
    /// Mail arrives through `judge handle`, piped from the mail system.
    Pipe,
}

/// Where mail goes out (`[outbox] kind`, default "maildir").
#[derive(Debug, Clone)]
pub enum OutboxSettings {
    /// One file per mail in the Maildir's `new/` (`path`, relative to the
    /// file).
    Maildir {
        path: PathBuf,
    },
    Smtp(SmtpSettings),
    /// The local mail system's program, killed after `timeout`.
    Sendmail {
        command: String,
        timeout: Duration,
    },
}

/// `tls = "none" | "starttls" | "tls"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tls {
    /// Plain text (a server on this machine).
    None,
    /// Plain, then upgraded by STARTTLS before logging in.
    StartTls,
    /// TLS from the first byte (IMAPS 993, SMTPS 465).
    Tls,
}

impl Tls {
    pub fn name(self) -> &'static str {
        match self {
            Tls::None => "none",
            Tls::StartTls => "starttls",
            Tls::Tls => "tls",
        }
    }
}

/// What the network kinds share: `host`, `port`, `tls`, `user`,
/// `password`.
#[derive(Debug, Clone)]
pub struct ServerSettings {
    pub host: String,
    pub port: u16,
    pub tls: Tls,
    pub user: Option<String>,
    pub password: Option<String>,
}

impl ServerSettings {
    /// `host:port`, for messages.
    pub fn addr(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }
}

/// `[inbox] kind = "imap"`.
#[derive(Debug, Clone)]
pub struct ImapSettings {
    pub server: ServerSettings,
    pub user: String,
    pub password: String,
    /// The folder read (default INBOX).
    pub folder: String,
    /// Where handled mail goes; none: it stays, flagged `\Seen`.
    pub processed: Option<String>,
    /// Without IDLE, look for mail this often.
    pub poll: Duration,
}

impl ImapSettings {
    pub fn describe(&self) -> String {
        format!("IMAP {}@{}", self.user, self.server.addr())
    }
}

/// `[outbox] kind = "smtp"`.
#[derive(Debug, Clone)]
pub struct SmtpSettings {
    pub server: ServerSettings,
}

impl SmtpSettings {
    pub fn describe(&self) -> String {
        format!(
            "SMTP {} (tls = {})",
            self.server.addr(),
            self.server.tls.name()
        )
    }
}

// The one set of defaults of `[inbox]` and `[outbox]`.
const DEFAULT_INBOX: &str = "var/inbox";
const DEFAULT_OUTBOX: &str = "var/outbox";
const DEFAULT_SENDMAIL: &str = "/usr/sbin/sendmail";
/// How long `sendmail` may take over one mail, unless `[outbox]
/// timeout_seconds` says otherwise.
const DEFAULT_SENDMAIL_TIMEOUT: u64 = 60;
const DEFAULT_FOLDER: &str = "INBOX";
const DEFAULT_POLL_SECONDS: u64 = 60;

const SERVER_KEYS: [&str; 6] = ["kind", "host", "port", "tls", "user", "password"];
const IMAP_KEYS: [&str; 3] = ["folder", "processed", "poll_seconds"];

impl InboxSettings {
    pub(super) fn read(section: &Section) -> Result<InboxSettings, Vec<Problem>> {
        match kind(section)?.as_str() {
            "maildir" => {
                let path = maildir_path(section, "a Maildir inbox", DEFAULT_INBOX)?;
                Ok(InboxSettings::Maildir { path })
            }
            "imap" => read_imap(section).map(InboxSettings::Imap),
            "pipe" => match section.unknown_keys(&["kind"], "a pipe inbox") {
                p if p.is_empty() => Ok(InboxSettings::Pipe),
                p => Err(p),
            },
            _ => Err(vec![section.bad_value(
                "kind",
                "this judge reads \"maildir\", \"imap\" or \"pipe\"",
            )]),
        }
    }
}

impl OutboxSettings {
    pub(super) fn read(section: &Section) -> Result<OutboxSettings, Vec<Problem>> {
        match kind(section)?.as_str() {
            "maildir" => {
                let path = maildir_path(section, "a Maildir outbox", DEFAULT_OUTBOX)?;
                Ok(OutboxSettings::Maildir { path })
            }
            "smtp" => read_smtp(section).map(OutboxSettings::Smtp),
            "sendmail" => read_sendmail(section),
            _ => Err(vec![section.bad_value(
                "kind",
                "this judge sends by \"maildir\", \"smtp\" or \"sendmail\"",
            )]),
        }
    }
}

/// `kind`, "maildir" when absent.
fn kind(section: &Section) -> Result<String, Vec<Problem>> {
    match section.string("kind") {
        Ok(kind) => Ok(kind.unwrap_or_else(|| "maildir".to_string())),
        Err(_) => Err(vec![
            section.bad_value("kind", "write a string such as \"maildir\"")
        ]),
    }
}

fn maildir_path(section: &Section, who: &str, default: &str) -> Result<PathBuf, Vec<Problem>> {
    let mut problems = Problems::default();
    problems.add(section.unknown_keys(&["kind", "path"], who));
    let path = problems.take(section.string("path"));
    let path = path.map(|p| PathBuf::from(p.unwrap_or_else(|| default.to_string())));
    problems.finish(path)
}

fn read_sendmail(section: &Section) -> Result<OutboxSettings, Vec<Problem>> {
    let mut problems = Problems::default();
    problems
        .add(section.unknown_keys(&["kind", "command", "timeout_seconds"], "a sendmail outbox"));
    let command = problems.take(section.string("command"));
    let seconds = problems.take(section.number("timeout_seconds", 1, 24 * 3600));
    let settings = command
        .zip(seconds)
        .map(|(command, seconds)| OutboxSettings::Sendmail {
            command: command.unwrap_or_else(|| DEFAULT_SENDMAIL.to_string()),
            timeout: Duration::from_secs(seconds.map_or(DEFAULT_SENDMAIL_TIMEOUT, |s| s as u64)),
        });
    problems.finish(settings)
}

/// The server keys of a network kind; `default_port` gives the port for
/// each TLS mode when `port` is absent.
fn read_server(
    section: &Section,
    problems: &mut Problems,
    default_port: fn(Tls) -> u16,
) -> Option<ServerSettings> {
    let host = match problems.take(section.string("host")) {
        Some(None) => {
            problems.add([section.missing("host", "the mail server's name")]);
            None
        }
        host => host.flatten(),
    };
    let tls = match problems.take(section.string("tls")) {
        None => None,
        Some(None) => Some(Tls::Tls),
        Some(Some(name)) => match name.as_str() {
            "tls" => Some(Tls::Tls),
            "starttls" => Some(Tls::StartTls),
            "none" => Some(Tls::None),
            _ => problems.take(Err(
                section.bad_value("tls", "write \"none\", \"starttls\" or \"tls\"")
            )),
        },
    };
    let port = problems.take(section.number("port", 1, i64::from(u16::MAX)));
    let user = problems.take(section.string("user"));
    let password = problems.take(section.string("password"));
    let (host, tls, port, user, password) = (host?, tls?, port?, user?, password?);
    Some(ServerSettings {
        host,
        port: port.map_or_else(|| default_port(tls), |p| p as u16),
        tls,
        user,
        password,
    })
}

fn read_imap(section: &Section) -> Result<ImapSettings, Vec<Problem>> {
    let mut problems = Problems::default();
    let known: Vec<&str> = SERVER_KEYS.iter().chain(&IMAP_KEYS).copied().collect();
    problems.add(section.unknown_keys(&known, "an IMAP inbox"));
    let server = read_server(section, &mut problems, |tls| {
        if tls == Tls::Tls {
            993
        } else {
            143
        }
    });
    for (key, what) in [
        ("user", "the IMAP login name"),
        ("password", "the IMAP password"),
    ] {
        if section.value(key).is_none() {
            problems.add([section.missing(key, what)]);
        }
    }
    let user = server.as_ref().and_then(|s| s.user.clone());
    let password = server.as_ref().and_then(|s| s.password.clone());
    let folder = problems
        .take(section.string("folder"))
        .map(|f| f.unwrap_or_else(|| DEFAULT_FOLDER.to_string()));
    let processed = problems
        .take(section.string("processed"))
        .map(|p| p.filter(|p| !p.is_empty()));
    if let (Some(folder), Some(Some(processed))) = (&folder, &processed) {
        if folder == processed {
            problems.add([section.bad_value(
                "processed",
                "that is the folder read: choose another, or leave it out",
            )]);
        }
    }
    let poll = problems.take(section.number("poll_seconds", 1, 24 * 3600));
    let settings = (|| {
        Some(ImapSettings {
            server: server?,
            user: user?,
            password: password?,
            folder: folder?,
            processed: processed?,
            poll: Duration::from_secs(poll?.map_or(DEFAULT_POLL_SECONDS, |s| s as u64)),
        })
    })();
    problems.finish(settings)
}

/// SMTP logs in with both or sends without.
const TOGETHER: &str = "user and password go together: give both or neither";

fn read_smtp(section: &Section) -> Result<SmtpSettings, Vec<Problem>> {
    let mut problems = Problems::default();
    problems.add(section.unknown_keys(&SERVER_KEYS, "an SMTP outbox"));
    let server = read_server(section, &mut problems, |tls| match tls {
        Tls::Tls => 465,
        Tls::StartTls => 587,
        Tls::None => 25,
    });
    match (section.value("user"), section.value("password")) {
        (Some(_), None) => problems.add([section.missing("password", TOGETHER)]),
        (None, Some(_)) => problems.add([section.missing("user", TOGETHER)]),
        _ => {}
    }
    problems.finish(server.map(|server| SmtpSettings { server }))
}
