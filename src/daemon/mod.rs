//! `judge run`: the long-running service. One loop, in order, forever:
//! take in the waiting mail (each stored before the mailbox lets it go),
//! run the clock, send what is queued; then wait for mail, the next tick,
//! or a signal to stop. `--once` does one pass and exits.
//!
//! Stopping (SIGTERM, SIGINT): the mail or phase in hand is finished —
//! every step is one SQLite transaction — and the loop exits cleanly.

pub mod configured;
pub mod imap;
pub mod mailbox;
mod maildir;
pub mod net;
mod sendmail;
pub mod smtp;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;

use crate::config::Config;
use crate::frontend::{tell_keeper, Judge};
use crate::game::tick::{tick_cached, TickCache};
use crate::store::{self, Outbound, StoreError};
use mailbox::{Inbox, Outbox};

pub struct RunOptions {
    /// One pass, then exit.
    pub once: bool,
    /// Act at this time (unix seconds) instead of the clock's.
    pub now: Option<i64>,
}

/// The time: the system clock, or a fixed time given on the command line.
fn now(fixed: Option<i64>) -> i64 {
    fixed.unwrap_or_else(|| chrono::Utc::now().timestamp())
}

pub async fn run(config: Config, options: RunOptions) -> Result<(), String> {
    // Watched from the start: a signal during start-up stops cleanly too.
    let stop = Arc::new(AtomicBool::new(false));
    let stopping = Arc::new(Notify::new());
    if !options.once {
        watch_signals(stop.clone(), stopping.clone())?;
    }
    let mut judge = Judge::open(config.clone())?;
    let mut inbox = configured::inbox(&config)?;
    let mut outbox = configured::outbox(&config)?;
    let tick_every = i64::from(config.clock.tick_seconds.max(1));
    let mut last_tick = i64::MIN / 2;
    // What the clock knows of the quiet games: an idle tick over many games
    // only reads their fingerprints.
    let mut clock_cache = TickCache::new();
    // A pass goes on past an error (logged) so that one failing part does
    // not stop the others; `--once` reports the first at the end.
    let mut first_error: Option<String> = None;
    let mut failed = |what: &str, e: String| {
        log::error!("{what}: {e}");
        first_error.get_or_insert(format!("{what}: {e}"));
    };
    loop {
        let t = now(options.now);
        // Anything another process commits from here on wakes the wait
        // below at once.
        let seen = judge.store.data_version().unwrap_or(0);
        let handled = match take_in(&mut judge, inbox.as_mut(), t, &stop).await {
            Ok(n) => n,
            Err(e) => {
                failed("taking in mail", e);
                0
            }
        };
        if stop.load(Ordering::SeqCst) {
            // Asked to stop: the mail in hand is done; the clock and the
            // queue are safe in the database for the next start.
            break;
        }
        // Mail stored but not handled: by `judge handle` processes that
        // left it (another held the lock), or by a crash or passing error.
        let mut handled_here = 0;
        while !stop.load(Ordering::SeqCst) {
            match judge.handle_one_pending(t) {
                Ok(Some((id, outcome))) => {
                    log::info!("stored mail #{id}: {outcome:?}");
                    handled_here += 1;
                }
                Ok(None) => break,
                Err(e) => {
                    failed("handling stored mail", e.to_string());
                    break;
                }
            }
        }
        if stop.load(Ordering::SeqCst) {
            break;
        }
        // A clock set back ticks at once (the tick says so in the log)
        // instead of waiting for the time it had reached.
        if handled + handled_here > 0 || t < last_tick || t.saturating_sub(last_tick) >= tick_every
        {
            if let Err(e) = run_clock(&mut judge, t, &mut clock_cache) {
                failed("the clock", e);
            }
            last_tick = t;
        }
        if let Err(e) = send_out(&mut judge, outbox.as_mut(), now(options.now), &stop).await {
            failed("sending mail", e);
        }
        if options.once || stop.load(Ordering::SeqCst) {
            break;
        }
        let until_tick = (last_tick + tick_every - now(options.now)).clamp(1, tick_every);
        let wait = Duration::from_secs(until_tick as u64);
        tokio::select! {
            r = wait_for_work(inbox.as_mut(), &judge.store, seen, wait) => {
                if let Err(e) = r {
                    failed("waiting for mail", e);
                    // Whatever broke, do not spin on it.
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
            _ = wait_for(&stop, &stopping) => {}
        }
        if stop.load(Ordering::SeqCst) {
            break;
        }
    }
    log::info!("stopped cleanly");
    match first_error {
        Some(e) if options.once => Err(e),
        _ => Ok(()),
    }
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
    store: &store::Store,
    seen: i64,
    timeout: Duration,
) -> Result<(), String> {
    if !inbox.wait_is_cancel_safe() {
        return inbox.wait(timeout).await;
    }
    let store_changed = async {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if store.data_version().is_ok_and(|v| v != seen) {
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

/// Stores and handles every waiting mail; how many. A mail that cannot be
/// stored stays in the inbox for the next pass.
async fn take_in(
    judge: &mut Judge,
    inbox: &mut dyn Inbox,
    now: i64,
    stop: &AtomicBool,
) -> Result<usize, String> {
    let mails = inbox.fetch().await?;
    // Handled, stored, not yet acknowledged.
    let mut pending = Vec::new();
    let mut n = 0;
    for mail in mails {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        match judge.handle(&mail.raw, now) {
            Ok(handled) => log::info!("mail {}: {handled:?}", mail.token),
            Err(e) => {
                // Those before it are stored: let them go, then say why.
                // The rest wait for the next pass (the same error, most
                // likely, would meet them now).
                acknowledge(judge, inbox, &mut pending).await?;
                return Err(format!("storing mail {}: {e}", mail.token));
            }
        }
        pending.push(mail.token);
        n += 1;
        if pending.len() == ACK_BATCH {
            acknowledge(judge, inbox, &mut pending).await?;
        }
    }
    acknowledge(judge, inbox, &mut pending).await?;
    Ok(n)
}

/// Lets the mailbox drop the mails in `pending`, which the store holds:
/// only once the store is durable (one sync for them all) may they go.
async fn acknowledge(
    judge: &Judge,
    inbox: &mut dyn Inbox,
    pending: &mut Vec<String>,
) -> Result<(), String> {
    if pending.is_empty() {
        return Ok(());
    }
    judge.store.sync().map_err(err)?;
    for token in pending.drain(..) {
        inbox.acknowledge(&token).await?;
    }
    Ok(())
}

/// Mails handled between two syncs of the store: one fsync for so many,
/// and the mailbox still sees steady progress.
const ACK_BATCH: usize = 32;

/// One clock tick in one transaction. A game that fails is rolled back
/// and marked failed inside the tick; the judgekeeper hears of it here.
fn run_clock(judge: &mut Judge, now: i64, cache: &mut TickCache) -> Result<(), String> {
    let code = judge.config.judge.code.clone();
    let clock = judge.config.clock.clone();
    let tx = judge.store.transaction().map_err(err)?;
    let (report, mails) =
        tick_cached(&tx, &clock, &judge.templates, &code, now, cache).map_err(err)?;
    for m in &mails {
        m.queue(&tx, &judge.config, now).map_err(err)?;
    }
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
        log::info!("clock: {report:?}");
    }
    Ok(())
}

/// Sends every queued mail that is due. A passing failure is retried
/// later (with the rest of the queue: the server is probably down); a
/// permanent refusal of one mail is given up at once, logged, and the
/// judgekeeper told.
async fn send_out(
    judge: &mut Judge,
    outbox: &mut dyn Outbox,
    now: i64,
    stop: &AtomicBool,
) -> Result<(), String> {
    let from = judge.config.judge.address.clone();
    let mut pictures = crate::game::maps::PictureMaker::default();
    loop {
        let due = store::due_mail(judge.store.conn(), now, 100).map_err(err)?;
        if due.is_empty() {
            return Ok(());
        }
        for mut mail in due {
            if stop.load(Ordering::SeqCst) {
                return Ok(());
            }
            // Maps are drawn now, outside any transaction.
            if crate::mail::has_pictures(&mail.raw) {
                mail.raw = pictures.fill(judge.store.conn(), &judge.config, &mail.raw);
            }
            match outbox.send(&mail, &from).await {
                Ok(()) => store::mark_sent(judge.store.conn(), mail.id, now).map_err(err)?,
                Err(e) if e.permanent => give_up(judge, &mail, &e.text, now).map_err(err)?,
                Err(e) => {
                    let next = store::mark_failed(judge.store.conn(), mail.id, &e.text, now)
                        .map_err(err)?;
                    log::warn!(
                        "sending {} failed ({}); next try at {next}",
                        mail.message_id,
                        e.text
                    );
                    // The server is probably down: try the rest later too.
                    return Ok(());
                }
            }
        }
    }
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
    store::abandon_mail(&tx, mail.id, why, now)?;
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

/// Sets `stop` on SIGTERM or SIGINT. The signals are watched on a thread
/// of their own, with its own small runtime: the loop's work (handling a
/// mail, processing a phase) runs on the main runtime without yielding, so
/// a task there would only see the signal after the whole batch of waiting
/// mail — not after the mail in hand.
fn watch_signals(stop: Arc<AtomicBool>, stopping: Arc<Notify>) -> Result<(), String> {
    use tokio::signal::unix::{signal, SignalKind};
    let (ready, installed) = std::sync::mpsc::channel::<Result<(), String>>();
    std::thread::Builder::new()
        .name("signals".to_string())
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(r) => r,
                Err(e) => {
                    let _ = ready.send(Err(format!("starting the signal watcher: {e}")));
                    return;
                }
            };
            runtime.block_on(async move {
                let signals = signal(SignalKind::terminate())
                    .and_then(|term| Ok((term, signal(SignalKind::interrupt())?)));
                let (mut term, mut int) = match signals {
                    Ok(s) => s,
                    Err(e) => {
                        let _ = ready.send(Err(e.to_string()));
                        return;
                    }
                };
                let _ = ready.send(Ok(()));
                tokio::select! {
                    _ = term.recv() => {}
                    _ = int.recv() => {}
                }
                log::info!("asked to stop: finishing the work in hand");
                stop.store(true, Ordering::SeqCst);
                // Wakes the loop's wait (or leaves a permit for its next one).
                stopping.notify_one();
            });
        })
        .map_err(|e| format!("starting the signal watcher: {e}"))?;
    installed
        .recv()
        .map_err(|_| "the signal watcher stopped".to_string())?
}

/// Returns once `stop` is set: woken by the signal watcher, no polling.
async fn wait_for(stop: &AtomicBool, stopping: &Notify) {
    while !stop.load(Ordering::SeqCst) {
        stopping.notified().await;
    }
}
