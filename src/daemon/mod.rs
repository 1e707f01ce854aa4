//! `judge run`: the long-running service. One loop, in order, forever:
//! take in the waiting mail (each stored before the mailbox lets it go),
//! run the clock, send what is queued; then wait for mail, the next tick,
//! or a signal to stop. `--once` does one pass and exits.
//!
//! Stopping (SIGTERM, SIGINT): the mail or phase in hand is finished —
//! every step is one SQLite transaction — and the loop exits cleanly.

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
use crate::frontend::Judge;
use crate::game::tick::{tick_cached, TickCache};
use crate::store::{self, StoreError};
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
    let mut inbox = Inbox::open(&config)?;
    let mut outbox = Outbox::open(&config)?;
    // Mail a crash left stored but unhandled goes first.
    let pending = judge.handle_pending(now(options.now)).map_err(err)?;
    if !pending.is_empty() {
        log::info!("handled {} mail(s) left over from before", pending.len());
    }
    let tick_every = i64::from(config.clock.tick_seconds.max(1));
    let mut last_tick = i64::MIN / 2;
    // What the clock knows of the quiet games: an idle tick over many games
    // only reads their fingerprints.
    let mut clock_cache = TickCache::new();
    loop {
        let t = now(options.now);
        let handled = take_in(&mut judge, &mut inbox, t, &stop).await?;
        if stop.load(Ordering::SeqCst) {
            // Asked to stop: the mail in hand is done; the clock and the
            // queue are safe in the database for the next start.
            break;
        }
        if handled > 0 || t.saturating_sub(last_tick) >= tick_every {
            run_clock(&mut judge, t, &mut clock_cache)?;
            last_tick = t;
        }
        send_out(&mut judge, &mut outbox, now(options.now), &stop).await?;
        if options.once || stop.load(Ordering::SeqCst) {
            break;
        }
        let until_tick = (last_tick + tick_every - now(options.now)).clamp(1, tick_every);
        let wait = Duration::from_secs(until_tick as u64);
        tokio::select! {
            r = inbox.wait(wait) => r?,
            _ = wait_for(&stop, &stopping) => {}
        }
        if stop.load(Ordering::SeqCst) {
            break;
        }
    }
    log::info!("stopped cleanly");
    Ok(())
}

fn err(e: StoreError) -> String {
    e.to_string()
}

/// Stores and handles every waiting mail; how many.
async fn take_in(
    judge: &mut Judge,
    inbox: &mut Inbox,
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
        match judge.handle(&mail.raw, now).map_err(err) {
            Ok(handled) => log::info!("mail {}: {handled:?}", mail.token),
            Err(e) => {
                // Those before it are stored: let them go, then say why.
                acknowledge(judge, inbox, &mut pending).await?;
                return Err(e);
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
    inbox: &mut Inbox,
    pending: &mut Vec<String>,
) -> Result<(), String> {
    if pending.is_empty() {
        return Ok(());
    }
    judge.store.sync().map_err(err)?;
    for token in pending.drain(..) {
        inbox.ack(&token).await?;
    }
    Ok(())
}

/// Mails handled between two syncs of the store: one fsync for so many,
/// and the mailbox still sees steady progress.
const ACK_BATCH: usize = 32;

/// One clock tick in one transaction.
fn run_clock(judge: &mut Judge, now: i64, cache: &mut TickCache) -> Result<(), String> {
    let code = judge.config.judge.code.clone();
    let clock = judge.config.clock.clone();
    let tx = judge.store.transaction().map_err(err)?;
    let (report, mails) =
        tick_cached(&tx, &clock, &judge.templates, &code, now, cache).map_err(err)?;
    for m in &mails {
        m.queue(&tx, &judge.config, now).map_err(err)?;
    }
    tx.commit().map_err(|e| e.to_string())?;
    if report != Default::default() {
        log::info!("clock: {report:?}");
    }
    Ok(())
}

/// Sends every queued mail that is due; a failure is retried later.
async fn send_out(
    judge: &mut Judge,
    outbox: &mut Outbox,
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
                Err(e) => {
                    let next =
                        store::mark_failed(judge.store.conn(), mail.id, &e, now).map_err(err)?;
                    log::warn!(
                        "sending {} failed ({e}); next try at {next}",
                        mail.message_id
                    );
                    // The server is probably down: try the rest later too.
                    return Ok(());
                }
            }
        }
    }
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
