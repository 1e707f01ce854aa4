//! IMAP in: `[inbox] kind = "imap"`.
//!
//! The unseen mail of `folder` is read with `BODY.PEEK[]`, which leaves it
//! unseen; only once the judge has stored a mail is it flagged `\Seen` (and
//! moved to `processed`, if set). A connection lost in between leaves the
//! mail unseen: it is read again after reconnecting, and the store knows
//! its Message-ID, so it is not handled twice.
//!
//! A mail over `[mail] max_bytes` is fetched only up to it and a margin
//! (`BODY.PEEK[]<0.N>`, beside its `RFC822.SIZE`) and stored cut short
//! with the same note as the other kinds: memory stays bounded. A handled
//! mail with passwords in it is not kept as it came: a copy with the
//! passwords overwritten (as the store keeps it) is appended, `\Seen`, to
//! `processed` (or to the folder read, without one) and the original
//! deleted.
//!
//! Waiting uses IDLE where the server offers it (the server says at once
//! when mail arrives), polling every `poll_seconds` otherwise. Any
//! connection error is logged and the connection made again after 1 s,
//! 2 s, 4 s ... up to 60 s between tries; the daemon never stops for it.

use std::collections::{HashMap, HashSet};
use std::fmt::Debug;
use std::time::Duration;

use async_imap::extensions::idle::IdleResponse;
use async_imap::imap_proto::{Response, Status};
use async_imap::{Client, Session};
use futures::TryStreamExt;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::time::{timeout, Instant};

use futures::future::BoxFuture;

use super::mailbox::{InMail, Inbox};
use super::net::{self, IO_TIMEOUT};
use crate::config::{ImapSettings, Tls};
use crate::mail::limit::{cut_with_note, kept_bytes};

/// Any byte stream async-imap can run on: plain TCP or TLS.
pub trait Stream: AsyncRead + AsyncWrite + Unpin + Send + Debug {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send + Debug> Stream for T {}
pub type Conn = Box<dyn Stream>;

/// The mails taken in one fetch, at most (`judge run --once` takes all
/// the waiting mail, short of a flood).
const BATCH: usize = 1000;
/// A server drops an IDLE after 30 minutes: renew it before.
const MAX_IDLE: Duration = Duration::from_secs(25 * 60);
const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// A logged-in session with its folder selected.
pub struct Connected {
    pub session: Session<Conn>,
    /// The server offers IDLE.
    pub idle: bool,
    /// The server offers MOVE.
    pub moves: bool,
    /// The server offers UIDPLUS (UID EXPUNGE).
    pub uidplus: bool,
    /// The folder's UIDVALIDITY: UIDs from another value mean nothing.
    pub validity: u32,
}

/// One step of a connection, for messages: where it failed.
fn step<E: std::fmt::Display>(what: &str) -> impl Fn(E) -> String + '_ {
    move |e| format!("{what}: {}", tidy(&e.to_string()))
}

/// async-imap's `no response: code: None, info: Some("[AUTHENTICATIONFAILED]
/// Authentication failed.")` as `the server said NO: [AUTHENTICATIONFAILED]
/// Authentication failed.`
fn tidy(message: &str) -> String {
    let said = if message.starts_with("no response") {
        "NO"
    } else if message.starts_with("bad response") {
        "BAD"
    } else {
        return message.to_string();
    };
    match message.split_once("info: Some(\"") {
        Some((_, rest)) => {
            let text = rest.strip_suffix("\")").unwrap_or(rest);
            format!("the server said {said}: {}", text.replace("\\\"", "\""))
        }
        None => message.to_string(),
    }
}

/// Runs one exchange with the server within [`IO_TIMEOUT`].
async fn timed<T, E: std::fmt::Display>(
    what: &str,
    fut: impl std::future::Future<Output = Result<T, E>>,
) -> Result<T, String> {
    match timeout(IO_TIMEOUT, fut).await {
        Err(_) => Err(format!("{what}: no answer in {IO_TIMEOUT:?}")),
        Ok(r) => r.map_err(step(what)),
    }
}

/// Reads the server's greeting: it must be `* OK` (or PREAUTH).
async fn greeting<T: Stream>(client: &mut Client<T>, addr: &str) -> Result<(), String> {
    let what = format!("reading the greeting of {addr}");
    match timed(&what, client.read_response()).await? {
        None => Err(format!("{what}: the server closed the connection")),
        Some(r) => match r.parsed() {
            Response::Data {
                status: Status::Ok | Status::PreAuth,
                ..
            } => Ok(()),
            other => Err(format!("{what}: it said {other:?}")),
        },
    }
}

/// Connects, upgrades to TLS as configured, logs in, and selects the
/// folder. Each error names the step that failed.
pub async fn connect(s: &ImapSettings) -> Result<Connected, String> {
    let addr = s.server.addr();
    let tcp = net::tcp(&s.server).await?;
    let client: Client<Conn> = match s.server.tls {
        Tls::None => {
            let mut c = Client::new(Box::new(tcp) as Conn);
            greeting(&mut c, &addr).await?;
            c
        }
        Tls::Tls => {
            let tls = net::tls(tcp, &s.server.host).await?;
            let mut c = Client::new(Box::new(tls) as Conn);
            greeting(&mut c, &addr).await?;
            c
        }
        Tls::StartTls => {
            let mut c = Client::new(tcp);
            greeting(&mut c, &addr).await?;
            timed(
                &format!("STARTTLS at {addr}"),
                c.run_command_and_check_ok("STARTTLS", None),
            )
            .await?;
            let tls = net::tls(c.into_inner(), &s.server.host).await?;
            Client::new(Box::new(tls) as Conn)
        }
    };
    let login = format!("logging in to {addr} as {:?}", s.user);
    let mut session = match timeout(IO_TIMEOUT, client.login(&s.user, &s.password)).await {
        Err(_) => return Err(format!("{login}: no answer in {IO_TIMEOUT:?}")),
        Ok(Err((e, _))) => return Err(format!("{login}: {}", tidy(&e.to_string()))),
        Ok(Ok(session)) => session,
    };
    let caps = timed(
        &format!("asking {addr} for its capabilities"),
        session.capabilities(),
    )
    .await?;
    let idle = caps.has_str("IDLE");
    let moves = caps.has_str("MOVE");
    let uidplus = caps.has_str("UIDPLUS");
    let mailbox = timed(
        &format!("selecting the folder {:?} at {addr}", s.folder),
        session.select(&s.folder),
    )
    .await?;
    Ok(Connected {
        session,
        idle,
        moves,
        uidplus,
        validity: mailbox.uid_validity.unwrap_or(0),
    })
}

/// The inbox: one connection, made again whenever it breaks.
pub struct ImapInbox {
    settings: ImapSettings,
    conn: Option<Connected>,
    /// Connection failures in a row.
    failures: u32,
    /// No new connection before this.
    retry_at: Option<Instant>,
    /// Unseen mails the server would not give (gone meanwhile): not "new".
    unreadable: HashSet<u32>,
    /// `[mail] max_bytes`: a bigger mail is fetched only up to it and a
    /// margin.
    max_bytes: usize,
    /// By token, of the mails fetched last: the copy to keep once the mail
    /// is stored, its passwords overwritten (only mails that had any).
    redacted: HashMap<String, Vec<u8>>,
}

impl ImapInbox {
    pub fn open(settings: ImapSettings, max_bytes: usize) -> ImapInbox {
        ImapInbox {
            settings,
            conn: None,
            failures: 0,
            retry_at: None,
            unreadable: HashSet::new(),
            max_bytes,
            redacted: HashMap::new(),
        }
    }

    /// The connection broke (or could not be made): drop it, and wait
    /// longer before each new try.
    fn fail(&mut self, what: &str) {
        self.conn = None;
        self.failures = self.failures.saturating_add(1);
        let delay = Duration::from_secs(1u64 << (self.failures - 1).min(6)).min(MAX_BACKOFF);
        self.retry_at = Some(Instant::now() + delay);
        log::warn!(
            "{}: {what}; connecting again in {}s",
            self.settings.describe(),
            delay.as_secs()
        );
    }

    /// Whether there is a connection, making one if it is time to try.
    async fn ensure(&mut self) -> bool {
        if self.conn.is_some() {
            return true;
        }
        if self.retry_at.is_some_and(|at| Instant::now() < at) {
            return false;
        }
        match connect(&self.settings).await {
            Ok(c) => {
                if self.failures > 0 {
                    log::info!("{}: connected again", self.settings.describe());
                } else {
                    log::info!(
                        "{}: connected, reading {:?}{}",
                        self.settings.describe(),
                        self.settings.folder,
                        if c.idle { " (IDLE)" } else { " (polling)" }
                    );
                }
                self.failures = 0;
                self.retry_at = None;
                self.unreadable.clear();
                self.conn = Some(c);
                true
            }
            Err(e) => {
                self.fail(&e);
                false
            }
        }
    }

    /// The unseen mails, oldest first (at most [`BATCH`]). A connection
    /// error is logged and yields nothing: the mail is read next time.
    pub async fn fetch(&mut self) -> Result<Vec<InMail>, String> {
        if !self.ensure().await {
            return Ok(Vec::new());
        }
        let conn = self.conn.as_mut().expect("connected");
        self.redacted.clear();
        match fetch_unseen(conn, &mut self.unreadable, self.max_bytes).await {
            Ok(mails) => {
                for mail in &mails {
                    if let Some(copy) = redacted_copy(&mail.raw, self.max_bytes) {
                        self.redacted.insert(mail.token.clone(), copy);
                    }
                }
                Ok(mails)
            }
            Err(e) => {
                self.fail(&e);
                Ok(Vec::new())
            }
        }
    }

    /// The mail is stored: flag it `\Seen` and move it if so configured
    /// (its redacted copy instead of it, if it had passwords).
    /// If the connection breaks, the mail stays unseen and is read again
    /// later; the store recognises it. So a failure here is only logged.
    pub async fn ack(&mut self, token: &str) -> Result<(), String> {
        let Some((validity, uid)) = token
            .split_once(':')
            .and_then(|(v, u)| Some((v.parse::<u32>().ok()?, u.parse::<u32>().ok()?)))
        else {
            return Err(format!("not an IMAP mail token: {token:?}"));
        };
        if !self.ensure().await {
            return Ok(());
        }
        let conn = self.conn.as_mut().expect("connected");
        if conn.validity != validity {
            log::warn!(
                "{}: the folder changed (UIDVALIDITY {validity} -> {}); mail {uid} will be read again",
                self.settings.describe(),
                conn.validity
            );
            return Ok(());
        }
        let keep = Keep {
            folder: &self.settings.folder,
            processed: self.settings.processed.as_deref(),
            redacted: self.redacted.remove(token),
        };
        if let Err(e) = ack_uid(conn, uid, keep).await {
            self.fail(&e);
        }
        Ok(())
    }

    /// Waits until mail may have arrived, or `limit` passes.
    pub async fn wait(&mut self, limit: Duration) -> Result<(), String> {
        let deadline = Instant::now() + limit;
        if !self.ensure().await {
            let until = self.retry_at.map_or(deadline, |at| at.min(deadline));
            tokio::time::sleep_until(until).await;
            return Ok(());
        }
        // Mail that arrived while we were busy: no need to wait.
        let conn = self.conn.as_mut().expect("connected");
        match unseen(conn, &self.unreadable).await {
            Ok(true) => return Ok(()),
            Ok(false) => {}
            Err(e) => {
                self.fail(&e);
                return Ok(());
            }
        }
        if !conn.idle {
            tokio::time::sleep(limit.min(self.settings.poll)).await;
            return Ok(());
        }
        let Connected {
            session,
            idle,
            moves,
            uidplus,
            validity,
        } = self.conn.take().expect("connected");
        match idle_wait(session, limit.min(MAX_IDLE)).await {
            Ok(session) => {
                self.conn = Some(Connected {
                    session,
                    idle,
                    moves,
                    uidplus,
                    validity,
                });
                Ok(())
            }
            Err(e) => {
                self.fail(&e);
                Ok(())
            }
        }
    }
}

impl Inbox for ImapInbox {
    fn fetch(&mut self) -> BoxFuture<'_, Result<Vec<InMail>, String>> {
        Box::pin(ImapInbox::fetch(self))
    }

    fn acknowledge<'a>(&'a mut self, token: &'a str) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(self.ack(token))
    }

    fn wait(&mut self, timeout: Duration) -> BoxFuture<'_, Result<(), String>> {
        Box::pin(ImapInbox::wait(self, timeout))
    }

    /// An IDLE dropped half-way would lose the connection.
    fn wait_is_cancel_safe(&self) -> bool {
        false
    }
}

/// `UID SEARCH UNSEEN`, sorted, without the unreadable ones.
async fn search_unseen(
    session: &mut Session<Conn>,
    unreadable: &HashSet<u32>,
) -> Result<Vec<u32>, String> {
    let found = timed("searching for unseen mail", session.uid_search("UNSEEN")).await?;
    let mut uids: Vec<u32> = found
        .into_iter()
        .filter(|u| !unreadable.contains(u))
        .collect();
    uids.sort_unstable();
    Ok(uids)
}

async fn unseen(conn: &mut Connected, unreadable: &HashSet<u32>) -> Result<bool, String> {
    Ok(!search_unseen(&mut conn.session, unreadable)
        .await?
        .is_empty())
}

/// The unseen mails, oldest first: each whole when within `max_bytes`
/// and the margin, else its first bytes and a note of its size.
async fn fetch_unseen(
    conn: &mut Connected,
    unreadable: &mut HashSet<u32>,
    max_bytes: usize,
) -> Result<Vec<InMail>, String> {
    let keep = kept_bytes(max_bytes);
    // PEEK: reading must not set \Seen before the judge has the mail. A
    // partial fetch gives a smaller mail whole.
    let query = format!("(UID RFC822.SIZE BODY.PEEK[]<0.{keep}>)");
    let mut uids = search_unseen(&mut conn.session, unreadable).await?;
    uids.truncate(BATCH);
    let mut mails: Vec<(u32, InMail)> = Vec::with_capacity(uids.len());
    // A hundred at a time: command lines stay short.
    for chunk in uids.chunks(100) {
        let set = chunk
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let fetches = timed("fetching unseen mail", async {
            let stream = conn.session.uid_fetch(&set, &query).await?;
            stream.try_collect::<Vec<_>>().await
        })
        .await?;
        for f in &fetches {
            if let (Some(uid), Some(body)) = (f.uid, f.body()) {
                let size = f.size.map_or(body.len() as u64, u64::from);
                if size > keep as u64 {
                    log::info!(
                        "mail {uid} is {size} bytes, over [mail] max_bytes: only its first {keep} fetched"
                    );
                }
                let raw = cut_with_note(body.to_vec(), size, max_bytes);
                let token = format!("{}:{uid}", conn.validity);
                mails.push((uid, InMail { raw, token }));
            }
        }
    }
    // Asked for but not given: expunged by someone else meanwhile.
    let given: HashSet<u32> = mails.iter().map(|(u, _)| *u).collect();
    unreadable.extend(uids.iter().filter(|u| !given.contains(u)));
    mails.sort_by_key(|(uid, _)| *uid);
    mails.dedup_by_key(|(uid, _)| *uid);
    Ok(mails.into_iter().map(|(_, m)| m).collect())
}

/// Where a stored mail is kept, and how.
struct Keep<'a> {
    /// The folder read.
    folder: &'a str,
    /// Where handled mail goes; none: it stays in `folder`.
    processed: Option<&'a str>,
    /// The copy to keep instead of the mail: its passwords overwritten.
    redacted: Option<Vec<u8>>,
}

/// Flags the stored mail `\Seen`, then keeps it as `keep` says: its
/// redacted copy appended (seen) and the mail deleted; or the mail moved
/// to `processed`; or the mail left where it is.
async fn ack_uid(conn: &mut Connected, uid: u32, keep: Keep<'_>) -> Result<(), String> {
    let uid_s = uid.to_string();
    timed(&format!("flagging mail {uid} \\Seen"), async {
        let stream = conn
            .session
            .uid_store(&uid_s, "+FLAGS.SILENT (\\Seen)")
            .await?;
        stream.try_collect::<Vec<_>>().await
    })
    .await?;
    if let Some(copy) = keep.redacted {
        let to = keep.processed.unwrap_or(keep.folder);
        let what = format!("keeping mail {uid} redacted in {to:?}");
        // The copy first: a failure in between leaves both, not neither.
        timed(
            &what,
            conn.session.append(to, Some("(\\Seen)"), None, &copy),
        )
        .await?;
        return delete_uid(conn, uid, &what).await;
    }
    let Some(folder) = keep.processed else {
        return Ok(());
    };
    let what = format!("moving mail {uid} to {folder:?}");
    if conn.moves {
        timed(&what, conn.session.uid_mv(&uid_s, folder)).await
    } else {
        timed(&what, conn.session.uid_copy(&uid_s, folder)).await?;
        delete_uid(conn, uid, &what).await
    }
}

/// Deletes one mail of the folder: `\Deleted`, then UID EXPUNGE where the
/// server has it (only this mail goes), else EXPUNGE.
async fn delete_uid(conn: &mut Connected, uid: u32, what: &str) -> Result<(), String> {
    let session = &mut conn.session;
    let uid_s = uid.to_string();
    timed(what, async {
        let stream = session
            .uid_store(&uid_s, "+FLAGS.SILENT (\\Deleted)")
            .await?;
        stream.try_collect::<Vec<_>>().await
    })
    .await?;
    if conn.uidplus {
        timed(what, async {
            let stream = session.uid_expunge(&uid_s).await?;
            stream.try_collect::<Vec<_>>().await
        })
        .await
        .map(|_| ())
    } else {
        timed(what, async {
            let stream = session.expunge().await?;
            stream.try_collect::<Vec<_>>().await
        })
        .await
        .map(|_| ())
    }
}

/// `raw` with its passwords overwritten, as the store keeps it once the
/// mail is handled; None when it has none.
fn redacted_copy(raw: &[u8], max_bytes: usize) -> Option<Vec<u8>> {
    let mail = crate::mail::read_mail(raw, max_bytes).ok()?;
    crate::frontend::redact::kept_copy(raw, &mail)
}

/// IDLE until the server reports a change or `limit` passes; the session
/// back, ready for commands.
async fn idle_wait(session: Session<Conn>, limit: Duration) -> Result<Session<Conn>, String> {
    let mut handle = session.idle();
    timed("starting IDLE", handle.init()).await?;
    let response = {
        let (fut, stop) = handle.wait_with_timeout(limit);
        tokio::pin!(fut);
        // The crate's own timeout restarts with every keep-alive: bound it.
        match timeout(limit + Duration::from_millis(50), &mut fut).await {
            Ok(r) => r,
            Err(_) => {
                drop(stop);
                fut.await
            }
        }
    };
    let session = timed("ending IDLE", handle.done()).await?;
    match response {
        Ok(IdleResponse::NewData(_) | IdleResponse::Timeout | IdleResponse::ManualInterrupt) => {
            Ok(session)
        }
        Err(e) => Err(format!("waiting in IDLE: {e}")),
    }
}

/// For `judge check`: connect, log in, select the folder, look at the
/// `processed` folder; says which step failed.
pub async fn check(s: &ImapSettings) -> Result<String, String> {
    let mut c = connect(s).await.map_err(|e| format!("[inbox] IMAP: {e}"))?;
    let unseen = search_unseen(&mut c.session, &HashSet::new())
        .await
        .map_err(|e| format!("[inbox] IMAP: {e}"))?
        .len();
    if let Some(p) = &s.processed {
        timed(
            &format!("[inbox] IMAP: the processed folder {p:?}"),
            c.session.status(p, "(MESSAGES)"),
        )
        .await?;
    }
    let _ = timeout(IO_TIMEOUT, c.session.logout()).await;
    Ok(format!(
        "[inbox] {}: logged in, folder {:?} has {unseen} unseen mail(s); {}",
        s.describe(),
        s.folder,
        if c.idle {
            "IDLE: mail is seen as it arrives"
        } else {
            "no IDLE: polling"
        }
    ))
}
