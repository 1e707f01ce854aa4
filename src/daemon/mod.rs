//! `judge run`: the long-running service, one async task on one runtime.
//! Each pass, in order: take in the waiting mail (each stored before the
//! mailbox lets it go), handle mail other processes stored, run the clock,
//! send what is queued, bring the web archive up to date (`publish.rs`);
//! then wait for mail, another process's commit, the next tick, or the
//! shutdown signal. `--once` does one pass and exits.
//!
//! Why this shape: the mailboxes are async (IMAP by async-imap, SMTP by
//! lettre's tokio transport, sendmail a tokio child), the store is
//! blocking (SQLite). So the service is async, and every piece of store
//! work — handling one mail, one clock tick — runs on `spawn_blocking`
//! ([`Work::blocking`]), one SQLite transaction each. That keeps the
//! runtime's thread free while it runs, so the signal task on the same
//! runtime sees SIGTERM/SIGINT at once and sets the [`Shutdown`] signal
//! passed down to every step, which looks at it between mails and between
//! phases: the mail or phase in hand is finished, the rest stays safe in
//! the database or the mailbox for the next start. Only recording a
//! sending, mostly one UPDATE, runs in place ([`Work::in_place`]): the hop
//! to the blocking pool and back cost more than the UPDATE, and a
//! deadline sends thousands.
//! The parts of a pass run one after another, not as tasks of their own:
//! the order is what makes the guarantees plain to see — a mail is acted
//! on and its replies sent in the same pass (`--once` does all of it), the
//! clock ticks after the mail it may depend on, and only one connection
//! writes to the store from this process.

pub mod configured;
pub mod imap;
pub mod mailbox;
mod maildir;
pub mod net;
mod publish;
mod sendmail;
pub mod smtp;
mod web_server;

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::watch;

use crate::app::Judge;
use crate::config::Config;
use crate::frontend::{tell_keeper, Arrived, Handled, Outgoing, SignOnsToVerify, VerifiedSignOns};
use crate::game::pictures::PictureMaker;
use crate::game::tick::{tick_cached, TickCache};
use crate::store::{
    self,
    mailbox::{Outbound, QueuePlace},
    StoreError,
};
use crate::web::Site;
use mailbox::{Inbox, Outbox, SendError};

pub struct RunOptions {
    /// One pass, then exit.
    pub once: bool,
    /// Act at this time (unix seconds) instead of the clock's.
    pub now: Option<i64>,
}

pub async fn run(config: Config, options: RunOptions) -> Result<(), String> {
    // Watched from the start: a signal during start-up stops cleanly too.
    let shutdown = if options.once {
        Shutdown::never()
    } else {
        Shutdown::on_signals()?
    };
    // The page templates, checked first: a broken one stops the
    // start before anything is opened.
    let site = match config.web.enabled {
        true => Some(Site::of(&config).map_err(|e| e.to_string())?),
        false => None,
    };
    let judge = {
        let config = config.clone();
        tokio::task::spawn_blocking(move || Judge::open_or_create(config))
            .await
            .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))?
    };
    let mut web = None;
    if let (false, Some(addr)) = (options.once, config.web.listen_address()) {
        let mut stop = shutdown.clone();
        web = web_server::start(addr, config.web_path(), async move { stop.set().await }).await;
    }
    let (watched, replies) = configured::describe(&config);
    log::info!("mail is read from {watched}");
    log::info!("replies go to {replies}");
    log::info!("the games are kept in {}", config.database_path().display());
    let tick_every = i64::from(config.clock.tick_seconds.max(1));
    let mut service = Service {
        work: Work::new(judge, site),
        inbox: configured::inbox(&config)?,
        outbox: configured::outbox(&config)?,
        shutdown,
        fixed_now: options.now,
        tick_every,
        last_tick: i64::MIN / 2,
        next_due: None,
        first_error: None,
    };
    loop {
        let seen = service.pass().await;
        if options.once || service.shutdown.is_set() {
            break;
        }
        service.wait(seen).await;
        if service.shutdown.is_set() {
            break;
        }
    }
    if let Some(server) = web {
        // The signal is set: it stops taking connections at once.
        let _ = server.await;
    }
    log::info!("stopped cleanly");
    match service.first_error {
        Some(e) if options.once => Err(e),
        _ => Ok(()),
    }
}

/// What became of a mail (`what`: where it was), in a line of the log; a
/// mail dropped unanswered is a warning: someone may have meant it.
fn log_handled(what: &str, handled: &Handled) {
    match handled {
        Handled::Dropped(_) | Handled::Failed(_) => log::warn!("{what}: {handled}"),
        _ => log::info!("{what}: {handled}"),
    }
}

/// The signal to stop, passed down to every step: set once, by SIGTERM or
/// SIGINT, watched by a task on the service's own runtime.
#[derive(Clone)]
struct Shutdown(watch::Receiver<bool>);

impl Shutdown {
    /// Installs the handlers now (a signal from here on is not lost) and
    /// spawns the task that sets the signal.
    fn on_signals() -> Result<Shutdown, String> {
        use tokio::signal::unix::{signal, SignalKind};
        let listen = |kind| signal(kind).map_err(|e| format!("watching for signals: {e}"));
        let mut term = listen(SignalKind::terminate())?;
        let mut int = listen(SignalKind::interrupt())?;
        let (set, watched) = watch::channel(false);
        tokio::spawn(async move {
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
            log::info!("asked to stop: finishing the work in hand");
            let _ = set.send(true);
        });
        Ok(Shutdown(watched))
    }

    /// For `--once`: no handlers, a signal ends the process as usual.
    fn never() -> Shutdown {
        Shutdown(watch::channel(false).1)
    }

    fn is_set(&self) -> bool {
        *self.0.borrow()
    }

    /// Returns once the signal is set (never, if it cannot be).
    async fn set(&mut self) {
        if self.0.wait_for(|stop| *stop).await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// What the blocking store work needs: the judge (its store connection),
/// what the clock knows of the quiet games, kept between passes (an idle
/// tick over many games only reads their fingerprints), and the pictures
/// drawn in this pass's sending.
struct StoreSide {
    judge: Judge,
    /// Where the web pass writes, with the page templates compiled at
    /// the start; None when `[web] enabled` is off.
    site: Option<Site>,
    clock_cache: TickCache,
    pictures: PictureMaker,
}

/// The store side, lent to one blocking task at a time.
#[derive(Clone)]
struct Work(Arc<Mutex<StoreSide>>);

impl Work {
    fn new(judge: Judge, site: Option<Site>) -> Work {
        Work(Arc::new(Mutex::new(StoreSide {
            judge,
            site,
            clock_cache: TickCache::new(),
            pictures: PictureMaker::default(),
        })))
    }

    /// Runs `job` on the blocking pool, off the runtime's thread. The
    /// service awaits each job before the next, so the lock is never
    /// contended; a panic in the job goes on in the caller, as if it had
    /// run here.
    async fn blocking<T: Send + 'static>(
        &self,
        job: impl FnOnce(&mut StoreSide) -> T + Send + 'static,
    ) -> T {
        let side = self.0.clone();
        tokio::task::spawn_blocking(move || {
            job(&mut side.lock().unwrap_or_else(PoisonError::into_inner))
        })
        .await
        .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
    }

    /// Runs `job` here, on the runtime's thread: for store work as short
    /// as one UPDATE, which must not wait for a thread of the blocking
    /// pool to wake (and the runtime's thread to wake again after it).
    fn in_place<T>(&self, job: impl FnOnce(&mut StoreSide) -> T) -> T {
        job(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// The store's data version: one cheap pragma, read in place.
    fn data_version(&self) -> Option<i64> {
        let side = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        side.judge.store.data_version().ok()
    }
}

/// The service: the store side, the mailboxes, the clock's state.
struct Service {
    work: Work,
    inbox: Box<dyn Inbox>,
    outbox: Box<dyn Outbox>,
    shutdown: Shutdown,
    /// `--now`: act at this time instead of the clock's.
    fixed_now: Option<i64>,
    tick_every: i64,
    last_tick: i64,
    /// The first moment the last tick knew something to be due: the next
    /// tick comes then if that is sooner than `tick_every` after the last.
    next_due: Option<i64>,
    /// A pass goes on past an error (logged) so that one failing part does
    /// not stop the others; `--once` reports the first at the end.
    first_error: Option<String>,
}

impl Service {
    /// The time: the system clock, or a fixed time given on the command line.
    fn now(&self) -> i64 {
        self.fixed_now
            .unwrap_or_else(|| chrono::Utc::now().timestamp())
    }

    fn failed(&mut self, what: &str, e: String) {
        log::error!("{what}: {e}");
        self.first_error.get_or_insert(format!("{what}: {e}"));
    }

    /// One pass; the store's data version before it, for [`Service::wait`].
    async fn pass(&mut self) -> i64 {
        let t = self.now();
        // Anything another process commits from here on wakes the wait
        // after the pass at once.
        let seen = self.work.data_version().unwrap_or(0);
        let handled = match self.take_in(t).await {
            Ok(n) => n,
            Err(e) => {
                self.failed("taking in mail", e);
                0
            }
        };
        // Asked to stop: the mail in hand is done; the clock and the queue
        // are safe in the database for the next start.
        if self.shutdown.is_set() {
            return seen;
        }
        let handled_here = self.handle_stored(t).await;
        if self.shutdown.is_set() {
            return seen;
        }
        self.tick_if_due(t, handled + handled_here > 0).await;
        let t = self.now();
        if let Err(e) = self.send_out(t).await {
            self.failed("sending mail", e);
        }
        // Last: the pages never hold up a phase or a mail. A failure is
        // logged and tried again next pass, not counted against `--once`.
        self.work
            .blocking(move |side| {
                if let Some(site) = &side.site {
                    publish::publish(&side.judge, site, t);
                }
            })
            .await;
        seen
    }

    /// Waits for work (see [`wait_for_work`]), the next tick, or the
    /// shutdown signal.
    async fn wait(&mut self, seen: i64) {
        let next_tick = self.next_tick();
        let until_tick = (next_tick - self.now()).clamp(1, self.tick_every);
        let wait = Duration::from_secs(until_tick as u64);
        let mut shutdown = self.shutdown.clone();
        let r = tokio::select! {
            r = wait_for_work(self.inbox.as_mut(), &self.work, seen, wait) => r,
            _ = shutdown.set() => Ok(()),
        };
        if let Err(e) = r {
            self.failed("waiting for mail", e);
            // Whatever broke, do not spin on it.
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }

    /// Stores and handles every waiting mail; how many. A mail that cannot
    /// be stored stays in the inbox for the next pass.
    ///
    /// A batch at a time, its sign-ons verified ahead: each seat's first
    /// argon2id check of the process is the intake's costliest step, and
    /// the mails are handled in order on one core. So the first batch's
    /// are verified on every core before it is handled, and each next
    /// batch's while the batch before is handled. Only what matches is
    /// remembered (each mail still checks its own in order, where a
    /// failure is counted and answered).
    async fn take_in(&mut self, now: i64) -> Result<usize, String> {
        let mails = self.inbox.fetch().await?;
        let (tokens, raws): (Vec<String>, Vec<Vec<u8>>) =
            mails.into_iter().map(|m| (m.token, m.raw)).unzip();
        let mut raws = raws.into_iter();
        let mut intake = Intake::default();
        let (mut batch, to_verify) = self
            .read_batch(raws.by_ref().take(CHECK_AHEAD).collect())
            .await;
        let first = batch.len();
        let verified = apart(move || to_verify.verify()).await;
        self.remember_verified(verified, first).await;
        while !batch.is_empty() {
            let (next, to_verify) = self
                .read_batch(raws.by_ref().take(CHECK_AHEAD).collect())
                .await;
            let verifying = apart(move || to_verify.verify());
            let handled = self.handle_batch(batch, &tokens, &mut intake, now).await;
            let verified = verifying.await;
            let count = next.len();
            self.remember_verified(verified, count).await;
            if !handled? {
                break;
            }
            batch = next;
        }
        self.acknowledge(&mut intake.pending).await?;
        Ok(intake.handled)
    }

    /// Stores and handles `batch`, the mails of `tokens` from the
    /// `intake.handled`-th on; whether to go on (not when asked to stop).
    async fn handle_batch(
        &mut self,
        batch: Vec<Arrived>,
        tokens: &[String],
        intake: &mut Intake,
        now: i64,
    ) -> Result<bool, String> {
        for arrived in batch {
            if self.shutdown.is_set() {
                return Ok(false);
            }
            let token = &tokens[intake.handled];
            let handled = self
                .work
                .blocking(move |side| side.judge.handle_arrived(arrived, now))
                .await;
            match handled {
                Ok(handled) => log_handled(&self.inbox.locate(token), &handled),
                Err(e) => {
                    // Those before it are stored: let them go, then say
                    // why. The rest wait for the next pass (the same
                    // error, most likely, would meet them now).
                    self.acknowledge(&mut intake.pending).await?;
                    return Err(format!("storing mail {token}: {e}"));
                }
            }
            intake.pending.push(token.clone());
            intake.handled += 1;
            if intake.pending.len() == ACK_BATCH {
                self.acknowledge(&mut intake.pending).await?;
            }
        }
        Ok(true)
    }

    /// Reads a batch of mails about to be handled, and finds the
    /// sign-ons among them to verify ahead (none if that fails: each is
    /// then checked as its mail is handled).
    async fn read_batch(&mut self, raws: Vec<Vec<u8>>) -> (Vec<Arrived>, SignOnsToVerify) {
        let (arrived, to_verify) = self
            .work
            .blocking(move |side| {
                let arrived: Vec<Arrived> = raws.iter().map(|raw| side.judge.read(raw)).collect();
                let to_verify = side.judge.sign_ons_to_verify(&arrived);
                (arrived, to_verify)
            })
            .await;
        let to_verify = to_verify.unwrap_or_else(|e| {
            log::warn!("verifying sign-ons ahead: {e} (each is checked as its mail is handled)");
            SignOnsToVerify::default()
        });
        (arrived, to_verify)
    }

    /// Remembers the sign-ons verified ahead for the next `mails` mails.
    async fn remember_verified(&mut self, verified: VerifiedSignOns, mails: usize) {
        let n = self
            .work
            .blocking(move |side| side.judge.remember_sign_ons(verified))
            .await;
        if n > 0 {
            log::info!("{n} sign-on(s) verified ahead for the next {mails} mail(s)");
        }
    }

    /// Lets the mailbox drop the mails in `pending`, which the store holds:
    /// only once the store is durable (one sync for them all) may they go.
    async fn acknowledge(&mut self, pending: &mut Vec<String>) -> Result<(), String> {
        if pending.is_empty() {
            return Ok(());
        }
        self.work
            .blocking(|side| side.judge.store.sync())
            .await
            .map_err(err)?;
        for token in pending.drain(..) {
            self.inbox.acknowledge(&token).await?;
        }
        Ok(())
    }

    /// Handles the mail stored but not handled: by `judge handle` processes
    /// that left it (another held the lock), or by a crash or passing
    /// error. How many.
    async fn handle_stored(&mut self, now: i64) -> usize {
        let mut handled = 0;
        while !self.shutdown.is_set() {
            let next = self
                .work
                .blocking(move |side| side.judge.handle_one_pending(now))
                .await;
            match next {
                Ok(Some((id, outcome))) => {
                    log_handled(&format!("stored mail #{id}"), &outcome);
                    handled += 1;
                }
                Ok(None) => break,
                Err(e) => {
                    self.failed("handling stored mail", e.to_string());
                    break;
                }
            }
        }
        handled
    }

    /// Runs the clock if a tick is due, or mail was handled (it may have
    /// made something due). A clock set back ticks at once (the tick says
    /// so in the log) instead of waiting for the time it had reached.
    async fn tick_if_due(&mut self, now: i64, mail_handled: bool) {
        let due = now < self.last_tick || now >= self.next_tick();
        if !(mail_handled || due) {
            return;
        }
        let ticked = self
            .work
            .blocking(move |side| run_clock(&mut side.judge, now, &mut side.clock_cache))
            .await;
        self.next_due = match ticked {
            Ok(next_due) => next_due,
            Err(e) => {
                self.failed("the clock", e);
                None
            }
        };
        self.last_tick = now;
    }

    /// When the next tick is due: `tick_every` after the last, or sooner
    /// when a deadline (or a reminder, the end of grace, a bell) comes
    /// first, so a phase is processed within a second of its deadline.
    fn next_tick(&self) -> i64 {
        let every = self.last_tick.saturating_add(self.tick_every);
        self.next_due.map_or(every, |due| due.min(every))
    }

    /// Sends every queued mail that is due. A passing failure is retried
    /// later (with the rest of the queue: the server is probably down); a
    /// permanent refusal of one mail is given up at once, logged, and the
    /// judgekeeper told.
    async fn send_out(&mut self, now: i64) -> Result<(), String> {
        // Held until the queue is empty: no other process sends meanwhile.
        let Some(_sending) = self.sending_lock().await? else {
            return Ok(());
        };
        let from = self
            .work
            .blocking(|side| {
                side.pictures = PictureMaker::default();
                side.judge.config.judge.address.clone()
            })
            .await;
        let started = Instant::now();
        let mut tally = SendTally::default();
        let sent = self.send_queue(now, &from, &mut tally).await;
        let (drawn, filled) = self
            .work
            .blocking(|side| (side.pictures.drawn(), side.pictures.filled()))
            .await;
        // The deadline pass's sending, timed (benches/pass.rs reads it).
        if tally.sent > 0 {
            log::info!(
                "sent {} in {}",
                counted(tally.sent, "mail"),
                seconds(started.elapsed())
            );
        }
        if filled > 0 {
            log::info!(
                "drew {} for {} in {}",
                counted(drawn, "picture"),
                counted(filled, "mail"),
                seconds(tally.drawing)
            );
        }
        sent
    }

    /// Sends the queue, a batch of due mail at a time, each batch's
    /// pictures drawn while the batch before it is sent: the batch and
    /// the pictures it names that are not drawn yet are read from the
    /// store; the pictures drawn on every core, each once, off the store
    /// (the drawing waits on the cores, the sending on the disk or the
    /// server); meanwhile the batch before is staged by the outbox (the
    /// Maildir writes and syncs it at once) and each of its mails handed
    /// over and marked sent, one after another; then the batch's mails
    /// are filled from the pictures, and are the next to send.
    async fn send_queue(
        &mut self,
        now: i64,
        from: &str,
        tally: &mut SendTally,
    ) -> Result<(), String> {
        // Where the reading is: the batch read is not yet marked sent.
        let mut after: Option<QueuePlace> = None;
        let mut ready: Vec<Outbound> = Vec::new();
        loop {
            let (due, to_draw) = self
                .work
                .blocking(move |side| {
                    let due =
                        store::mailbox::due_mail(side.judge.store.conn(), now, after, SEND_BATCH)?;
                    let judge = &side.judge;
                    let to_draw = side.pictures.read_missing(
                        judge.store.conn(),
                        &judge.config.judge.code,
                        &judge.config.maps,
                        due.iter().map(|mail| &mail.raw[..]),
                    );
                    Ok((due, to_draw))
                })
                .await
                .map_err(err)?;
            if due.is_empty() {
                if !self
                    .send_batch(std::mem::take(&mut ready), now, from, tally)
                    .await?
                {
                    return Ok(());
                }
                // Once more from the start: a mail queued meanwhile may
                // sort before the place reached (it was not read).
                match after.take() {
                    Some(_) => continue,
                    None => return Ok(()),
                }
            }
            after = due.last().map(Outbound::place);
            let drawing = apart(move || {
                let started = Instant::now();
                (to_draw.draw(), started.elapsed())
            });
            let go_on = self
                .send_batch(std::mem::take(&mut ready), now, from, tally)
                .await?;
            let (drawn, took) = drawing.await;
            tally.drawing += took;
            if !go_on {
                return Ok(());
            }
            ready = self
                .work
                .blocking(move |side| {
                    side.pictures.keep_drawn(drawn);
                    due.into_iter()
                        .map(|mail| draw_pictures(side, mail))
                        .collect()
                })
                .await;
        }
    }

    /// Stages `batch` (the batch's slow part at once: the Maildir's
    /// syncs), then hands over each mail and marks it sent; whether to go
    /// on (not when asked to stop, nor after a passing failure).
    async fn send_batch(
        &mut self,
        batch: Vec<Outbound>,
        now: i64,
        from: &str,
        tally: &mut SendTally,
    ) -> Result<bool, String> {
        if batch.is_empty() {
            return Ok(true);
        }
        self.outbox.stage(&batch).await;
        for mail in batch {
            if self.shutdown.is_set() {
                return Ok(false);
            }
            let sent = self.outbox.send(&mail, from).await;
            tally.sent += usize::from(sent.is_ok());
            let go_on = self
                .work
                .in_place(|side| record_sending(&mut side.judge, &mail, sent, now))
                .map_err(err)?;
            if !go_on {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// What a sending pass did: mails handed over, and the time spent
/// drawing their pictures (alongside the sending).
#[derive(Default)]
struct SendTally {
    sent: usize,
    drawing: Duration,
}

/// Due mails read and sent at a time: their pictures are drawn together
/// (a deadline's games' eight mails each: a dozen games' pictures, a few
/// MB, in parallel).
const SEND_BATCH: usize = 100;

/// "1.23 s": a part of a pass, for the log.
fn seconds(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

/// "1 picture", "2 pictures".
fn counted(n: usize, thing: &str) -> String {
    match n {
        1 => format!("1 {thing}"),
        n => format!("{n} {thing}s"),
    }
}

impl Service {
    /// The sending lock: an OS lock on a file beside the database, taken by
    /// whichever process sends the queue (two `judge run`, or a `--once`
    /// from cron beside the service). The queue is read only while it is
    /// held and each mail is marked sent before it is let go, so no two
    /// processes ever send the same mail; the OS lets it go when its
    /// holder dies, even by `kill -9`. Waits while another process sends
    /// (it empties the queue, so there is little left after it); `None`
    /// if asked to stop meanwhile.
    async fn sending_lock(&self) -> Result<Option<std::fs::File>, String> {
        let path = self
            .work
            .blocking(|side| sending_lock_path(&side.judge.config.database_path()))
            .await;
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| format!("cannot open the sending lock {}: {e}", path.display()))?;
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(Some(file)),
                Err(std::fs::TryLockError::WouldBlock) => {}
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(format!(
                        "cannot take the sending lock {}: {e}",
                        path.display()
                    ))
                }
            }
            if self.shutdown.is_set() {
                return Ok(None);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// `judge.db` -> `judge.db-sending`, beside SQLite's own `-wal` and `-shm`.
fn sending_lock_path(database: &std::path::Path) -> std::path::PathBuf {
    let mut name = database.as_os_str().to_owned();
    name.push("-sending");
    std::path::PathBuf::from(name)
}

/// `mail` with the pictures it names drawn in.
fn draw_pictures(side: &mut StoreSide, mut mail: Outbound) -> Outbound {
    if crate::mail::has_pictures(&mail.raw) {
        let judge = &side.judge;
        mail.raw = side.pictures.fill(
            judge.store.conn(),
            &judge.config.judge.code,
            &judge.config.maps,
            &mail.raw,
        );
    }
    mail
}

/// Records how sending `mail` went; whether to go on with the queue (not
/// after a passing failure: the server is probably down, the rest waits
/// too).
fn record_sending(
    judge: &mut Judge,
    mail: &Outbound,
    sent: Result<(), SendError>,
    now: i64,
) -> Result<bool, StoreError> {
    match sent {
        Ok(()) => store::mailbox::mark_sent(judge.store.conn(), mail.id, now)?,
        Err(e) if e.permanent => give_up(judge, mail, &e.text, now)?,
        Err(e) => {
            let next = store::mailbox::mark_failed(judge.store.conn(), mail.id, &e.text, now)?;
            log::warn!(
                "sending {} failed ({}); next try at {next}",
                mail.message_id,
                e.text
            );
            return Ok(false);
        }
    }
    Ok(true)
}

fn err(e: StoreError) -> String {
    e.to_string()
}

/// How often the store is looked at for work other processes committed
/// (`judge handle` storing mail and queueing replies): replies go out
/// within this of their mail's arrival.
const STORE_POLL: Duration = Duration::from_millis(250);

/// Waits until mail may have arrived in the inbox, another process
/// committed to the store (`seen` is the store's data version before the
/// pass), or `timeout` passes. The store is read once per [`STORE_POLL`]:
/// one cheap pragma.
async fn wait_for_work(
    inbox: &mut dyn Inbox,
    work: &Work,
    seen: i64,
    timeout: Duration,
) -> Result<(), String> {
    if !inbox.wait_is_cancel_safe() {
        return inbox.wait(timeout).await;
    }
    let store_changed = async {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if work.data_version().is_some_and(|v| v != seen) {
                return;
            }
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if left.is_zero() {
                return;
            }
            tokio::time::sleep(STORE_POLL.min(left)).await;
        }
    };
    tokio::select! {
        r = inbox.wait(timeout) => r,
        _ = store_changed => Ok(()),
    }
}

/// Mails handled between two syncs of the store: one fsync for so many,
/// and the mailbox still sees steady progress.
const ACK_BATCH: usize = 32;

/// Runs `job` on the blocking pool, off the store (it holds no lock), so
/// that the service goes on meanwhile: the sign-ons of the next batch
/// verified while this one is handled, the next batch's pictures drawn
/// while this one is sent. Started at once, not when awaited; a panic in
/// the job goes on in the caller.
fn apart<T: Send + 'static>(
    job: impl FnOnce() -> T + Send + 'static,
) -> impl std::future::Future<Output = T> {
    let running = tokio::task::spawn_blocking(job);
    async move {
        running
            .await
            .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
    }
}

/// What the intake has done so far: mails handled, and those stored but
/// not yet let go from the inbox.
#[derive(Default)]
struct Intake {
    handled: usize,
    pending: Vec<String>,
}

/// Mails whose sign-ons are verified together, ahead of their handling:
/// enough for both cores to share the checks evenly, few enough that the
/// first of them is answered soon (at most one argon2id check a mail).
const CHECK_AHEAD: usize = 256;

/// One clock tick in one transaction. A game that fails is rolled back
/// and marked failed inside the tick; the judgekeeper hears of it here.
/// Returns the first moment the tick knows something to be due.
fn run_clock(judge: &mut Judge, now: i64, cache: &mut TickCache) -> Result<Option<i64>, String> {
    let code = judge.config.judge.code.clone();
    let clock = judge.config.clock.clone();
    let started = Instant::now();
    let tx = judge.store.transaction().map_err(err)?;
    let (report, mails) =
        tick_cached(&tx, &clock, &judge.templates, &code, now, cache).map_err(err)?;
    let ticked = started.elapsed();
    let mut recipients = 0;
    for m in &mails {
        let outgoing = Outgoing::from(m);
        recipients += outgoing.to.len();
        outgoing.queue(&tx, &judge.config, now).map_err(err)?;
    }
    let queued = started.elapsed() - ticked;
    for game in &report.recovered {
        log::info!("game '{game}', marked failed, was processed again: the mark is gone");
    }
    for (game, why, news) in &report.failed {
        log::error!(
            "the clock could not process game '{game}' ({why}): marked failed, \
             tried again in an hour"
        );
        if !news {
            continue;
        }
        tell_keeper(
            &tx,
            &judge.config,
            &format!("game '{game}' could not be processed"),
            format!(
                "The clock could not process game '{game}':\n\n    {why}\n\n\
                 What it did for the game was undone. The clock tries the game again\n\
                 every hour (this note comes once, not at every try) and clears the mark\n\
                 once that works; every other game goes on. The mark is in the games\n\
                 table (failed_at, failure).\n"
            ),
            now,
        )
        .map_err(err)?;
    }
    tx.commit().map_err(|e| e.to_string())?;
    if report != Default::default() {
        log::info!("clock: {report}");
    }
    if !report.processed.is_empty() {
        // The deadline pass's first part, timed (benches/pass.rs reads it).
        log::info!(
            "clock: processed {} in {}, queued {} in {}, committed in {}",
            counted(report.processed.len(), "phase"),
            seconds(ticked),
            counted(recipients, "mail"),
            seconds(queued),
            seconds(started.elapsed() - ticked - queued)
        );
    }
    Ok(cache.next_due())
}

/// The mail was refused for good: abandoned, and the judgekeeper told
/// (unless the mail was to the judgekeeper: no note about a note).
fn give_up(judge: &mut Judge, mail: &Outbound, why: &str, now: i64) -> Result<(), StoreError> {
    log::error!(
        "sending {} to {} refused for good ({why}): given up",
        mail.message_id,
        mail.recipients.join(", ")
    );
    let to_keeper = judge.config.judge.keeper.as_deref().is_some_and(|k| {
        let k = crate::mail::Address::parse(k).map_or(k.to_string(), |a| a.addr_spec());
        mail.recipients.iter().any(|r| r.eq_ignore_ascii_case(&k))
    });
    let tx = judge.store.transaction()?;
    store::mailbox::abandon_mail(&tx, mail.id, why, now)?;
    if !to_keeper {
        tell_keeper(
            &tx,
            &judge.config,
            "a mail was refused",
            format!(
                "The mail server refused a mail for good, so it was given up after one try:\n\n\
                 To: {}\nSubject: {}\nMessage-ID: {}\n\n    {why}\n",
                mail.recipients.join(", "),
                mail.subject,
                mail.message_id
            ),
            now,
        )?;
    }
    tx.commit()?;
    Ok(())
}
