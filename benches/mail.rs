//! Order mails handled end to end the way `judge run` takes them from its
//! Maildir inbox — read from `new/`, parsed, authenticated, validated,
//! stored, the reply queued; after every 32 mails the store synced
//! (`Store::sync`, one fsync) and those mails moved to `cur/` — against a
//! real SQLite file on disk: 10,000 mails from 100 started games (700
//! seats, about 14 mails each, the last set standing). And the pipe mode:
//! one `judge handle` process per mail, for a sample.
//!
//! Set-up (once, not timed): a copy of `judge.toml` (and `templates/`) in a
//! temporary folder with its database there; 100 games made by mail, as
//! players make them (`CREATE ?game`, then seven `SIGNON ?game <password>`,
//! the seventh starting the game: powers by lot, S1901M, argon2id hashes);
//! then each game played on at random through the judge's own processing
//! (`game::process`) for zero to four movement phases, so that the games
//! stand at different positions (S1901M to S1903M), as on a real judge,
//! and no two mails in a row find their game's position in the position
//! cache. That database is the template every run starts from.
//!
//! The mails: real RFC 5322 messages from each seat's address, `SIGNON
//! <initial><game> <password>` then one order line per unit of the power in
//! its game's position — a hold, a move or a support, written in assorted
//! styles, about one line in eight misspelt (a typo the parser still reads
//! the one way) — about one mail in 25 with an extra line ordering another
//! power's unit (an error in the reply), some with a signature. Spread over
//! the games in a shuffled order; unique Message-IDs.
//!
//! Each run: a fresh copy of the template database and a fresh `Judge`
//! (a new process-level credential cache), then
//!
//! - cold: 10,000 mails delivered into the Maildir inbox's `new/` (not
//!   timed), then timed: fetched (`daemon::mailbox::Inbox`, as `daemon::configured` opens it), handled, and
//!   synced and acknowledged in batches of 32 as `daemon::take_in` does;
//!   every seat's first sign-on pays its argon2id check;
//! - warm: another 10,000 distinct mails (new Message-IDs, other orders) on
//!   the same `Judge`, whose cache knows every seat;
//! - pipe: `MAILBENCH_PIPE` more mails (default 200), each handed to its
//!   own `judge handle` process (the real binary, as `.forward` or procmail
//!   runs it): a new process, the store opened, the sign-on's argon2id
//!   check (no cache outlives a process), the mail handled, the store
//!   synced.
//!
//! After each pass it checks: every mail answered with exactly one queued
//! reply, `[Error Flag]` on exactly the mails with a bad line, every mail
//! moved to `cur/` (cold and warm), and the stored orders of every seat
//! that mailed equal to the last set it sent.
//!
//! Printed: medians over the runs of mails/s (wall clock; without the time
//! the thread waited for a CPU, from `/proc/thread-self/schedstat`; per
//! CPU-second) and of the p50/p99 latency per mail, where the fsyncs and
//! the acknowledgement went, and the time of one argon2id verification on
//! this machine.
//!
//! `cargo bench --bench mail` (see `benches/README.md`). Environment:
//! `MAILBENCH_RUNS` (default 3); `MAILBENCH_PIPE` (mails per pipe pass,
//! default 200; 0 to skip it); `MAILBENCH_DIR`, a folder to work in, kept,
//! whose set-up a later run reuses (the default is a new folder under the
//! system's temporary folder, removed at the end); `MAILBENCH_KEEP=1` to
//! keep the runs' databases too.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use judge::app::Judge;
use judge::config::Config;
use judge::daemon::configured;
use judge::daemon::mailbox::Inbox;
use judge::engine::map::{Map, Power};
use judge::engine::order::{Order, OrderKind};
use judge::engine::parse::parse_order;
use judge::engine::phase::PhaseKind;
use judge::engine::position::Position;
use judge::frontend::Handled;
use judge::game::orders::order_key;
use judge::store::{self, orders::NewOrder};

mod common;
use common::{movement_orders, neighbours, support_hold, Rng};

const GAMES: usize = 100;
const MAILS: usize = 10_000;
/// Unix time of the set-up (games start then; deadlines are 72 h later).
const T0: i64 = 1_800_000_000;
/// Mails handled between two syncs and acknowledgements, as
/// `daemon::take_in` does (its `ACK_BATCH`).
const ACK_BATCH: usize = 32;
/// What the template's `complete` file says: a template made by an older
/// bench (every game at S1901M) is made again.
const TEMPLATE_VERSION: &str = "set-up done: games played on\n";

/// One seat of a started game.
struct SeatInfo {
    game_id: i64,
    /// Its index among the games (`bench{g:03}`).
    g: usize,
    game: String,
    /// The game's current (movement) phase.
    phase: String,
    power: Power,
    address: String,
    password: String,
}

/// One unit's possible orders: (short form, ways to write it, misspelt ways).
struct UnitOrders {
    options: Vec<(String, Vec<String>, Vec<String>)>,
}

/// A generated mail and what it should do.
struct MailCase {
    raw: Vec<u8>,
    seat: usize,
    /// The short forms it orders (one per unit).
    orders: Vec<String>,
    /// It has a refused line: the reply carries `[Error Flag]`.
    error: bool,
}

fn main() {
    let runs: usize = std::env::var("MAILBENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
        .max(1);
    let (root, made_root) = match std::env::var_os("MAILBENCH_DIR") {
        Some(dir) => (PathBuf::from(dir), false),
        None => (
            std::env::temp_dir().join(format!("judge-mailbench-{}", std::process::id())),
            true,
        ),
    };
    let keep = std::env::var_os("MAILBENCH_KEEP").is_some_and(|v| v != "0");
    print_start(runs, &root);

    // --- the template: 100 started games, made by mail --------------------
    let template = root.join("template");
    let seats = template_seats(&template);

    // --- the mails --------------------------------------------------------
    let positions = read_positions(&template);
    let mails = Mails::new(&seats, &positions);

    // --- argon2id on this machine ----------------------------------------
    let kdf = time_argon2(&template, &seats);
    println!(
        "argon2id verification ({}): median of 15: {:.1} ms wall, {:.1} ms CPU",
        kdf.params, kdf.wall_ms, kdf.cpu_ms
    );

    // --- the runs ---------------------------------------------------------
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime for the inbox");
    let mut stats = RunStats::default();
    for run in 0..runs {
        let dir = root.join(format!("run{run}"));
        let _ = std::fs::remove_dir_all(&dir);
        copy_dir(&template, &dir);
        stats.run(run, &dir, &mails, &seats, &runtime);
        if !keep {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }

    // --- the table --------------------------------------------------------
    stats.print_table(runs, mails.pipe.len(), positions.len());
    print_notes(&kdf, seats.len());

    if made_root && !keep {
        let _ = std::fs::remove_dir_all(&root);
    }
}

/// The bench's first lines: what it does, where, on what.
fn print_start(runs: usize, root: &Path) {
    println!(
        "mail bench: {MAILS} order mails, {GAMES} games, {} seats, {runs} run(s), {} CPU(s)",
        GAMES * 7,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    println!("working in {}", root.display());
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!(
            "load average at the start: {}",
            load.split(' ').take(3).collect::<Vec<_>>().join(" ")
        );
    }
}

/// The template's seats: those of an earlier run's template in the same
/// folder, else of 100 games made and started by mail there now.
fn template_seats(template: &Path) -> Vec<SeatInfo> {
    if let Some(seats) = reuse_template(template) {
        println!("set-up: reusing the games in {}", template.display());
        return seats;
    }
    let _ = std::fs::remove_dir_all(template);
    make_judge_dir(&PathBuf::from(env!("CARGO_MANIFEST_DIR")), template);
    let started = Instant::now();
    let seats = set_up_games(template);
    println!(
        "set-up: {GAMES} games created and started by {} mails in {:.1} s \
         (800 argon2id hashes)",
        GAMES * 8,
        started.elapsed().as_secs_f64()
    );
    seats
}

/// The mails of the three passes.
struct Mails {
    cold: Vec<MailCase>,
    warm: Vec<MailCase>,
    pipe: Vec<MailCase>,
}

impl Mails {
    /// The mails for the games' positions; prints where the games stand
    /// and what the mails are like.
    fn new(seats: &[SeatInfo], positions: &[Position]) -> Mails {
        let mut phases: std::collections::BTreeMap<String, usize> = Default::default();
        for pos in positions {
            *phases.entry(pos.phase.to_string()).or_default() += 1;
        }
        let spread: Vec<String> = phases.iter().map(|(p, n)| format!("{n} in {p}")).collect();
        println!("games: {}", spread.join(", "));
        let units = unit_orders(positions);
        let pipe_mails: usize = std::env::var("MAILBENCH_PIPE")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(200);
        let mails = Mails {
            cold: make_mails(seats, positions, &units, 1, "cold", MAILS),
            warm: make_mails(seats, positions, &units, 2, "warm", MAILS),
            pipe: make_mails(seats, positions, &units, 3, "pipe", pipe_mails),
        };
        let cold = &mails.cold;
        let per_seat = {
            let mut counts = vec![0usize; seats.len()];
            for m in cold {
                counts[m.seat] += 1;
            }
            (*counts.iter().min().unwrap(), *counts.iter().max().unwrap())
        };
        let avg_bytes = cold.iter().map(|m| m.raw.len()).sum::<usize>() / cold.len();
        println!(
            "mails: {} per pass, {}-{} per seat, {} bytes on average, {} with a refused line",
            cold.len(),
            per_seat.0,
            per_seat.1,
            avg_bytes,
            cold.iter().filter(|m| m.error).count()
        );
        mails
    }
}

/// Each pass's figures, one per run.
#[derive(Default)]
struct RunStats {
    cold: Vec<PassStats>,
    warm: Vec<PassStats>,
    pipe: Vec<PassStats>,
}

impl RunStats {
    /// One run in `dir`, a fresh copy of the template: a fresh `Judge`,
    /// the cold and warm passes on it, then the pipe pass; each printed.
    fn run(
        &mut self,
        run: usize,
        dir: &Path,
        mails: &Mails,
        seats: &[SeatInfo],
        runtime: &tokio::runtime::Runtime,
    ) {
        let config = Config::load(&dir.join("judge.toml")).expect("judge.toml");
        let mut inbox = configured::inbox(&config).expect("the inbox Maildir");
        let inbox_dir = config.resolve(Path::new("var/inbox"));
        let mut judge = Judge::open_or_create(config).expect("open the judge");
        let mut intake = MailIntake {
            judge: &mut judge,
            inbox: inbox.as_mut(),
            inbox_dir: &inbox_dir,
            runtime,
        };

        let c = intake.pass(&mails.cold, seats, T0 + 600);
        c.print(run, "cold");
        let w = intake.pass(&mails.warm, seats, T0 + 600 + 2 * MAILS as i64);
        w.print(run, "warm");
        self.cold.push(c);
        self.warm.push(w);
        drop(judge);
        if !mails.pipe.is_empty() {
            let p = pipe_pass(dir, &mails.pipe, seats, T0 + 600 + 4 * MAILS as i64);
            p.print(run, "pipe");
            self.pipe.push(p);
        }
    }

    /// The table of the passes' medians, and where the cold and warm
    /// passes' time went.
    fn print_table(&self, runs: usize, pipe_mails: usize, positions: usize) {
        println!();
        println!(
            "Order mails end to end (Maildir new/ -> Judge::handle: parse, authenticate, validate, \
             store, queue the reply; a sync and cur/ per {ACK_BATCH})"
        );
        println!(
            "{MAILS} mails per pass ({} in the pipe pass), {GAMES} games at {} positions, {} seats; \
             medians of {runs} run(s); SQLite file on disk",
            pipe_mails,
            positions,
            GAMES * 7
        );
        println!();
        println!(
            "| {:<24} | {:>8} | {:>8} | {:>8} | {:>13} | {:>11} | {:>7} | {:>7} | {:>13} |",
            "pass",
            "mails/s",
            "min",
            "max",
            "w/o CPU waits",
            "mails/CPU-s",
            "p50 ms",
            "p99 ms",
            "target"
        );
        println!(
            "|{:-<26}|{:->10}|{:->10}|{:->10}|{:->15}|{:->13}|{:->9}|{:->9}|{:->15}|",
            "", "", "", "", "", "", "", "", ""
        );
        for (name, stats, target) in [
            ("cold (argon2id included)", &self.cold, 500.0),
            ("warm (seats verified)", &self.warm, 2000.0),
            ("pipe (process per mail)", &self.pipe, 0.0),
        ] {
            if !stats.is_empty() {
                print_row(name, stats, target);
            }
        }
        for (name, stats) in [("cold", &self.cold), ("warm", &self.warm)] {
            println!(
                "{name}: of the {:.2} s a pass took (median), fetching new/ {:.3} s, {} fsyncs \
                 (Store::sync) {:.3} s in all, moving the mails to cur/ {:.3} s",
                median(stats.iter().map(|s| s.total.as_secs_f64()).collect()),
                median(stats.iter().map(|s| s.fetch.as_secs_f64()).collect()),
                stats[0].syncs,
                median(stats.iter().map(|s| s.sync.as_secs_f64()).collect()),
                median(stats.iter().map(|s| s.ack.as_secs_f64()).collect()),
            );
        }
    }
}

/// One pass's row of the table: medians over the runs, and the target.
fn print_row(name: &str, stats: &[PassStats], target: f64) {
    let rate = median(stats.iter().map(|s| s.rate).collect());
    let min = stats.iter().map(|s| s.rate).fold(f64::INFINITY, f64::min);
    let max = stats.iter().map(|s| s.rate).fold(0.0, f64::max);
    let cpu_rate = median(stats.iter().map(|s| s.cpu_rate).collect());
    let unwaited = median(stats.iter().map(|s| s.unwaited_rate).collect());
    let p50 = median(stats.iter().map(|s| ms(s.p50)).collect());
    let p99 = median(stats.iter().map(|s| ms(s.p99)).collect());
    let (target, verdict) = if target == 0.0 {
        ("-".to_string(), "")
    } else if rate >= target {
        (format!(">={target:.0}"), "met")
    } else {
        (format!(">={target:.0}"), "MISSED")
    };
    println!(
        "| {:<24} | {:>8.0} | {:>8.0} | {:>8.0} | {:>13.0} | {:>11.0} | {:>7.3} | {:>7.3} | {:>6} {:<6} |",
        name, rate, min, max, unwaited, cpu_rate, p50, p99, target, verdict
    );
}

/// What the table's figures mean, and the argon2id cost of a cold pass.
fn print_notes(kdf: &Kdf, seats: usize) {
    println!();
    println!(
        "argon2id verification ({}): {:.1} ms ({:.1} ms CPU); a cold pass pays it once per seat: \
         {} x {:.1} ms = {:.1} s",
        kdf.params,
        kdf.wall_ms,
        kdf.cpu_ms,
        seats,
        kdf.wall_ms,
        seats as f64 * kdf.wall_ms / 1000.0
    );
    println!(
        "w/o CPU waits: mails over (wall time - time the thread was runnable but waiting for a \
         CPU, from /proc/thread-self/schedstat): what an idle machine would give, disk waits kept"
    );
    println!(
        "mails/CPU-s: mails per second of CPU time of the handling thread (pipe: of the \
         judge handle processes, user + system)"
    );
    println!(
        "p50/p99: one Judge::handle (cold, warm); one judge handle process, start to exit (pipe)"
    );
    println!(
        "checked after every pass: one reply queued per mail, [Error Flag] exactly on the mails \
         with a bad line, every mail moved to cur/ (cold, warm), every seat's stored orders = \
         the last set it sent"
    );
}

/// CPU time of the calling thread and its time spent runnable but waiting
/// for a CPU (Linux: `/proc/thread-self/schedstat`); zeros where it cannot
/// be read.
fn thread_sched() -> (Duration, Duration) {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    let mut fields = text
        .split_whitespace()
        .map(|f| Duration::from_nanos(f.parse().unwrap_or(0)));
    (
        fields.next().unwrap_or_default(),
        fields.next().unwrap_or_default(),
    )
}

fn thread_cpu() -> Duration {
    thread_sched().0
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// `judge.toml` and `templates/` copied into `dir`: an independent judge
/// whose database is `dir/var/judge.db`.
fn make_judge_dir(manifest: &Path, dir: &Path) {
    std::fs::create_dir_all(dir).expect("create the bench folder");
    std::fs::copy(manifest.join("judge.toml"), dir.join("judge.toml")).expect("copy judge.toml");
    copy_dir(&manifest.join("templates"), &dir.join("templates"));
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create folder");
    for entry in std::fs::read_dir(from).expect("read folder") {
        let entry = entry.expect("folder entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy file");
        }
    }
}

/// An RFC 5322 mail from `from` to the judge.
fn mail(
    from_name: &str,
    from: &str,
    subject: &str,
    message_id: &str,
    date: i64,
    body: &str,
) -> Vec<u8> {
    let date = chrono::DateTime::from_timestamp(date, 0)
        .expect("date")
        .to_rfc2822();
    let mut raw = format!(
        "Return-Path: <{from}>\r\n\
         Received: from mx.players.example (mx.players.example [192.0.2.25])\r\n\
         \tby judge.localhost with ESMTPS id {id}; {date}\r\n\
         From: {from_name} <{from}>\r\n\
         To: Diplomacy Judge <judge@localhost>\r\n\
         Subject: {subject}\r\n\
         Date: {date}\r\n\
         Message-ID: <{message_id}>\r\n\
         MIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8; format=flowed\r\n\
         Content-Transfer-Encoding: 7bit\r\n\
         User-Agent: Mozilla/5.0 Thunderbird/128.3.0\r\n\
         \r\n",
        id = &message_id[..message_id.find('@').unwrap_or(0).min(16)],
    );
    for line in body.lines() {
        raw.push_str(line);
        raw.push_str("\r\n");
    }
    raw.into_bytes()
}

/// Creates and starts the games by mail; the seats as the lot placed them.
fn set_up_games(dir: &Path) -> Vec<SeatInfo> {
    let config = Config::load(&dir.join("judge.toml")).expect("judge.toml");
    let mut judge = Judge::open_or_create(config).expect("open the judge");
    let mut now = T0 - 10 * GAMES as i64;
    let mut n = 0;
    let mut send =
        |judge: &mut Judge, name: &str, from: &str, subject: &str, body: &str, now: i64| {
            n += 1;
            let raw = mail(
                name,
                from,
                subject,
                &format!("setup-{n:05}@players.example"),
                now,
                body,
            );
            match judge.handle(&raw, now).expect("handle") {
                Handled::Answered { .. } => {}
                other => panic!("set-up mail {n} not answered: {other:?}"),
            }
        };
    for g in 0..GAMES {
        let game = format!("bench{g:03}");
        let master = format!("gm.{game}@masters.example");
        send(
            &mut judge,
            "Game Master",
            &master,
            "new game",
            &format!("CREATE ?{game} gm-{g}-secret standard\n"),
            now,
        );
        for k in 0..7 {
            let address = format!("player{k}.{game}@players.example");
            send(
                &mut judge,
                &format!("Player {k}"),
                &address,
                "join",
                &format!("SIGNON ?{game} {}\n", seat_password(g, k)),
                now,
            );
        }
        now += 10;
    }
    play_on(&mut judge, now);
    let seats = read_seats(judge.store.conn());
    drop(judge);
    std::fs::write(dir.join("complete"), TEMPLATE_VERSION).expect("mark the template");
    seats
}

/// Plays each game on at random for zero to four movement phases, through
/// the judge's own processing (as the Master's PROCESS would): every power
/// orders every unit (`common::movement_orders`); nobody orders retreats
/// or adjustments (dislodged units disband, nobody builds, removals as in
/// civil disorder).
fn play_on(judge: &mut Judge, now: i64) {
    let map = Map::standard();
    let mut rng = Rng(0x0F1A_7ED0_5EED_0001);
    let code = judge.config.judge.code.clone();
    let Judge {
        store, templates, ..
    } = judge;
    for g in 0..GAMES {
        let tx = store.transaction().expect("begin");
        let game = store::games::game_by_name(&tx, &format!("bench{g:03}"))
            .expect("read")
            .expect("the game");
        let mut played = 0;
        loop {
            let cur = judge::game::current(&tx, game.id)
                .expect("read")
                .expect("a phase");
            if cur.position.phase.kind == PhaseKind::Movement {
                if played == g % 5 {
                    break;
                }
                played += 1;
                for power in Power::ALL {
                    for order in movement_orders(map, &cur.position, power, &mut rng) {
                        let short = order.short(map);
                        store::orders::set_order(
                            &tx,
                            &NewOrder {
                                game_id: game.id,
                                phase: &cur.record.phase,
                                power: power.upper(),
                                unit: &order_key(map, &order, 0),
                                written: &short,
                                understood: &short,
                                inbound_id: None,
                            },
                            now,
                        )
                        .expect("set order");
                    }
                }
            }
            judge::game::process::process(&tx, templates, &code, &game, now, true)
                .expect("process");
        }
        tx.commit().expect("commit");
    }
}

/// Each game's current position, by game index.
fn read_positions(dir: &Path) -> Vec<Position> {
    let db = Config::load(&dir.join("judge.toml"))
        .expect("judge.toml")
        .database_path();
    let conn = store::rusqlite::Connection::open(db).expect("the template database");
    (0..GAMES)
        .map(|g| {
            let game = store::games::game_by_name(&conn, &format!("bench{g:03}"))
                .unwrap()
                .expect("game created");
            judge::game::current(&conn, game.id)
                .unwrap()
                .expect("a phase")
                .position
        })
        .collect()
}

/// The password player `k` of game `g` chose.
fn seat_password(g: usize, k: usize) -> String {
    let words = ["fish", "moon", "tulip", "rook", "amber", "vole", "kite"];
    format!("pw{g}x{k}{}", words[k])
}

/// The template of an earlier run in the same `MAILBENCH_DIR`, if complete.
fn reuse_template(dir: &Path) -> Option<Vec<SeatInfo>> {
    if std::fs::read_to_string(dir.join("complete")).ok()? != TEMPLATE_VERSION {
        return None;
    }
    let db = Config::load(&dir.join("judge.toml")).ok()?.database_path();
    let conn = store::rusqlite::Connection::open(db).ok()?;
    Some(read_seats(&conn))
}

/// Every seat of the started games, checked: S1901M, an argon2id hash.
fn read_seats(conn: &store::rusqlite::Connection) -> Vec<SeatInfo> {
    let mut seats = Vec::new();
    for g in 0..GAMES {
        let name = format!("bench{g:03}");
        let game = store::games::game_by_name(conn, &name)
            .unwrap()
            .expect("game created");
        assert_eq!(
            game.state,
            store::games::GameState::Active,
            "{name} started"
        );
        let phase = store::phases::current_phase(conn, game.id)
            .unwrap()
            .expect("a phase");
        assert!(phase.phase.ends_with('M'), "{name} in a movement phase");
        for seat in store::seats::seats_of_game(conn, game.id).unwrap() {
            assert!(seat.password.as_str().starts_with("$argon2id$"));
            let power = judge::game::power_of(&seat).expect("a power");
            let k: usize = seat
                .address
                .strip_prefix("player")
                .and_then(|r| r.split('.').next())
                .and_then(|k| k.parse().ok())
                .expect("a bench player's address");
            seats.push(SeatInfo {
                game_id: game.id,
                g,
                game: name.clone(),
                phase: phase.phase.clone(),
                power,
                password: seat_password(g, k),
                address: seat.address,
            });
        }
    }
    assert_eq!(seats.len(), GAMES * 7);
    seats
}

/// For each game and power, each unit's possible orders in the game's
/// position — a hold, up to three moves, up to two supports of a
/// neighbour's hold — with their written forms, each checked to read as
/// intended.
fn unit_orders(positions: &[Position]) -> Vec<HashMap<Power, Vec<UnitOrders>>> {
    let map = Map::standard();
    let mut rng = Rng(0x005e_ed0f_0dde_5500);
    let mut games = Vec::new();
    for pos in positions {
        let mut by_power: HashMap<Power, Vec<UnitOrders>> = HashMap::new();
        for unit in &pos.units {
            let mut orders = vec![Order::new(
                unit.power,
                unit.kind,
                unit.location,
                OrderKind::Hold,
            )];
            let mut to = neighbours(map, unit);
            rng.shuffle(&mut to);
            for &to in to.iter().take(3) {
                orders.push(Order::new(
                    unit.power,
                    unit.kind,
                    unit.location,
                    OrderKind::Move {
                        to,
                        via_convoy: false,
                    },
                ));
            }
            let mut supports: Vec<Order> = pos
                .units
                .iter()
                .filter_map(|other| support_hold(map, unit, other))
                .collect();
            rng.shuffle(&mut supports);
            orders.extend(supports.into_iter().take(2));
            let options = orders
                .iter()
                .map(|o| written_forms(map, pos, o, &mut rng))
                .collect();
            by_power
                .entry(unit.power)
                .or_default()
                .push(UnitOrders { options });
        }
        games.push(by_power);
    }
    games
}

/// An order's short form, the ways to write it that read as it, and
/// misspelt ways that still do.
fn written_forms(
    map: &Map,
    pos: &Position,
    order: &Order,
    rng: &mut Rng,
) -> (String, Vec<String>, Vec<String>) {
    let canonical = order.short(map);
    let reads_as_meant = |text: &str| {
        parse_order(map, pos, order.power, text)
            .map(|o| o.short(map))
            .is_ok_and(|s| s == canonical)
    };
    assert!(reads_as_meant(&canonical), "{canonical}");
    let long = order.long(map);
    let title = title_abbrs(&canonical);
    let candidates = [
        canonical.clone(),
        canonical.to_lowercase(),
        long.clone(),
        long.trim_end_matches('.').to_string(),
        title.clone(),
        title.replace(" - ", "-"),
        title.replace(" - ", " -> "),
        long.replace(" -> ", " to ")
            .trim_end_matches('.')
            .to_string(),
    ];
    let mut ways = Vec::new();
    for c in candidates {
        if reads_as_meant(&c) && !ways.contains(&c) {
            ways.push(c);
        }
    }
    let mut typos = Vec::new();
    for way in [&long, &long.trim_end_matches('.').to_string()] {
        for _ in 0..12 {
            let t = misspell(way, rng);
            if t != *way && !typos.contains(&t) && reads_as_meant(&t) {
                typos.push(t);
            }
        }
    }
    (canonical, ways, typos)
}

/// `A PAR - BUR` -> `A Par - Bur`.
fn title_abbrs(short: &str) -> String {
    short
        .split(' ')
        .map(|w| {
            if w.len() >= 3 && w.chars().all(|c| c.is_ascii_uppercase() || c == '/') {
                let mut s = w[..1].to_string();
                s.push_str(&w[1..].to_lowercase());
                s
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One typo in a province name of at least 6 letters: two letters swapped,
/// one doubled or one dropped.
fn misspell(text: &str, rng: &mut Rng) -> String {
    let words: Vec<&str> = text.split(' ').collect();
    let long: Vec<usize> = (0..words.len())
        .filter(|&i| i > 1 && words[i].chars().filter(char::is_ascii_alphabetic).count() >= 6)
        .collect();
    if long.is_empty() {
        return text.to_string();
    }
    let i = long[rng.below(long.len())];
    let mut w: Vec<char> = words[i].chars().collect();
    let at = 1 + rng.below(w.len().saturating_sub(3).max(1));
    match rng.below(3) {
        0 => w.swap(at, at + 1),
        1 => w.insert(at, w[at]),
        _ => {
            w.remove(at);
        }
    }
    let w: String = w.into_iter().collect();
    let mut out: Vec<String> = words.iter().map(|s| s.to_string()).collect();
    out[i] = w;
    out.join(" ")
}

/// `count` mails, spread evenly over the seats, in a shuffled order.
fn make_mails(
    seats: &[SeatInfo],
    positions: &[Position],
    units: &[HashMap<Power, Vec<UnitOrders>>],
    seed: u64,
    tag: &str,
    count: usize,
) -> Vec<MailCase> {
    let foreign = foreign_lines(positions);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ seed.wrapping_mul(0x1000_0001));
    let mut slots: Vec<usize> = (0..MAILS).map(|i| i % seats.len()).collect();
    rng.shuffle(&mut slots);
    slots.truncate(count);
    let mut sent = vec![0usize; seats.len()];
    let mut out = Vec::with_capacity(MAILS);
    for (i, &s) in slots.iter().enumerate() {
        let seat = &seats[s];
        sent[s] += 1;
        let (body, orders, error) = order_body(seat, units, &foreign, &mut rng);
        let subject = SUBJECTS[rng.below(SUBJECTS.len())];
        let message_id = format!(
            "{tag}.{i:05}.{:08x}.{}@{}",
            rng.next() as u32,
            sent[s],
            "players.example"
        );
        let raw = mail(
            &format!("{} player", seat.power.adjective()),
            &seat.address,
            subject,
            &message_id,
            T0 + i as i64,
            &body,
        );
        out.push(MailCase {
            raw,
            seat: s,
            orders,
            error,
        });
    }
    out
}

/// The mails' subjects.
const SUBJECTS: [&str; 6] = [
    "orders",
    "my orders",
    "Re: orders",
    "moves",
    "",
    "spring 1901",
];

/// The signatures some mails end with.
const SIGNATURES: [&str; 3] = [
    "-- \nSent from my phone",
    "-- \nBest,\nPat",
    "SIGNOFF\nthanks!",
];

/// For each game and power, a line ordering another power's unit (the
/// first such line the parser refuses).
fn foreign_lines(positions: &[Position]) -> Vec<HashMap<Power, String>> {
    let map = Map::standard();
    positions
        .iter()
        .map(|pos| {
            Power::ALL
                .into_iter()
                .map(|power| {
                    let line = pos
                        .units
                        .iter()
                        .filter(|u| u.power != power)
                        .map(|u| {
                            Order::new(u.power, u.kind, u.location, OrderKind::Hold).short(map)
                        })
                        .find(|text| parse_order(map, pos, power, text).is_err())
                        .expect("another power's unit");
                    (power, line)
                })
                .collect()
        })
        .collect()
}

/// A seat's mail body: the sign-on, one line per unit (now and then
/// misspelt), maybe a refused line, maybe a signature; with the short
/// forms it orders and whether it has the refused line.
fn order_body(
    seat: &SeatInfo,
    units: &[HashMap<Power, Vec<UnitOrders>>],
    foreign: &[HashMap<Power, String>],
    rng: &mut Rng,
) -> (String, Vec<String>, bool) {
    let mut body = format!(
        "SIGNON {}{} {}\n",
        seat.power.initial(),
        seat.game,
        seat.password
    );
    let mut orders = Vec::new();
    let mut lines = Vec::new();
    let no_units = Vec::new();
    for unit in units[seat.g].get(&seat.power).unwrap_or(&no_units) {
        let (short, ways, typos) = &unit.options[rng.below(unit.options.len())];
        let line = if !typos.is_empty() && rng.chance(8) {
            &typos[rng.below(typos.len())]
        } else {
            &ways[rng.below(ways.len())]
        };
        orders.push(short.clone());
        lines.push(line.clone());
    }
    // A line ordering another power's unit: refused, changes nothing.
    let error = rng.chance(25);
    if error {
        let at = rng.below(lines.len() + 1);
        lines.insert(at, foreign[seat.g][&seat.power].clone());
    }
    for line in &lines {
        body.push_str(line);
        body.push('\n');
    }
    if rng.chance(5) {
        body.push('\n');
        body.push_str(SIGNATURES[rng.below(SIGNATURES.len())]);
        body.push('\n');
    }
    (body, orders, error)
}

struct Kdf {
    params: String,
    wall_ms: f64,
    cpu_ms: f64,
}

/// The median time of an argon2id verification of a real seat's hash.
fn time_argon2(dir: &Path, seats: &[SeatInfo]) -> Kdf {
    let db = Config::load(&dir.join("judge.toml"))
        .unwrap()
        .database_path();
    let conn = store::rusqlite::Connection::open(db).unwrap();
    let seat = &seats[0];
    let hash = store::seats::seat_by_power(&conn, seat.game_id, seat.power.upper())
        .unwrap()
        .unwrap()
        .password;
    let params = hash.as_str().split('$').nth(3).unwrap_or("?").to_string();
    let mut wall = Vec::new();
    let mut cpu = Vec::new();
    for _ in 0..15 {
        let (t, c) = (Instant::now(), thread_cpu());
        assert!(hash.verify(&seat.password));
        wall.push(ms(t.elapsed()));
        cpu.push(ms(thread_cpu() - c));
    }
    assert!(!hash.verify("not the password"));
    Kdf {
        params,
        wall_ms: median(wall),
        cpu_ms: median(cpu),
    }
}

struct PassStats {
    rate: f64,
    cpu_rate: f64,
    /// Mails per second of the wall time less the time spent waiting for
    /// a CPU (what an idle machine would give).
    unwaited_rate: f64,
    total: Duration,
    cpu: Duration,
    waited: Duration,
    p50: Duration,
    p99: Duration,
    /// Reading `new/` (`Inbox::fetch`).
    fetch: Duration,
    /// The fsyncs (`Store::sync`), one per batch, and their time.
    syncs: usize,
    sync: Duration,
    /// Moving the mails to `cur/` (`Inbox::acknowledge`).
    ack: Duration,
}

/// What `judge run` takes mail with: the judge and its Maildir inbox.
struct MailIntake<'a> {
    judge: &'a mut Judge,
    inbox: &'a mut dyn Inbox,
    inbox_dir: &'a Path,
    runtime: &'a tokio::runtime::Runtime,
}

impl MailIntake<'_> {
    /// Delivers the mails into `new/` (not timed), then, timed, takes them
    /// in as `daemon::take_in` does: fetched, each handled, and after every
    /// `ACK_BATCH` the store synced and those mails moved to `cur/`. Then
    /// checks the replies, the inbox and the stored orders.
    fn pass(&mut self, mails: &[MailCase], seats: &[SeatInfo], now0: i64) -> PassStats {
        let out_before: i64 = self
            .judge
            .store
            .conn()
            .query_row("SELECT coalesce(max(id), 0) FROM outbound", [], |r| {
                r.get(0)
            })
            .unwrap();
        deliver(self.inbox_dir, mails, now0);
        let mut latencies = Vec::with_capacity(mails.len());
        let (mut sync, mut ack, mut syncs) = (Duration::ZERO, Duration::ZERO, 0);
        let started = Instant::now();
        let (cpu_started, waited_started) = thread_sched();
        let fetched = self.runtime.block_on(self.inbox.fetch()).expect("fetch");
        let fetch = started.elapsed();
        assert_eq!(fetched.len(), mails.len(), "every mail fetched");
        let mut pending = Vec::with_capacity(ACK_BATCH);
        for (i, mail) in fetched.into_iter().enumerate() {
            let t = Instant::now();
            let handled = self
                .judge
                .handle(&mail.raw, now0 + i as i64)
                .expect("handle");
            latencies.push(t.elapsed());
            if !matches!(handled, Handled::Answered { mails: 1, .. }) {
                panic!("mail {i}: {handled:?}");
            }
            pending.push(mail.token);
            if pending.len() == ACK_BATCH || i + 1 == mails.len() {
                let t = Instant::now();
                self.judge.store.sync().expect("sync");
                syncs += 1;
                sync += t.elapsed();
                let t = Instant::now();
                for token in pending.drain(..) {
                    self.runtime
                        .block_on(self.inbox.acknowledge(&token))
                        .expect("ack");
                }
                ack += t.elapsed();
            }
        }
        let total = started.elapsed();
        let (cpu, waited) = thread_sched();
        let (cpu, waited) = (cpu - cpu_started, waited - waited_started);

        let files = |sub: &str| std::fs::read_dir(self.inbox_dir.join(sub)).unwrap().count();
        assert_eq!(files("new"), 0, "new/ emptied");
        check(self.judge.store.conn(), mails, seats, out_before, true);

        latencies.sort();
        PassStats {
            rate: mails.len() as f64 / total.as_secs_f64(),
            cpu_rate: mails.len() as f64 / cpu.as_secs_f64().max(1e-9),
            unwaited_rate: mails.len() as f64
                / total.saturating_sub(waited).as_secs_f64().max(1e-9),
            total,
            cpu,
            waited,
            p50: percentile(&latencies, 0.50),
            p99: percentile(&latencies, 0.99),
            fetch,
            syncs,
            sync,
            ack,
        }
    }
}

/// The mails as files in the Maildir's `new/`, named so that they sort in
/// order (the inbox reads the oldest name first) and, as Maildir names
/// are, unique (`now0` differs between passes): a name already in `cur/`
/// would make each acknowledgement replace a file, ten times slower.
fn deliver(inbox_dir: &Path, mails: &[MailCase], now0: i64) {
    for (i, m) in mails.iter().enumerate() {
        let name = format!("{}.M{i}P{}.mailbench", now0 + i as i64, std::process::id());
        let tmp = inbox_dir.join("tmp").join(&name);
        std::fs::write(&tmp, &m.raw).expect("write a mail");
        std::fs::rename(&tmp, inbox_dir.join("new").join(&name)).expect("deliver a mail");
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// Each mail handed to its own `judge handle` process, as a mail system's
/// pipe does, one after the other; then the same checks.
fn pipe_pass(dir: &Path, mails: &[MailCase], seats: &[SeatInfo], now0: i64) -> PassStats {
    let config = Config::load(&dir.join("judge.toml")).expect("judge.toml");
    let conn = store::rusqlite::Connection::open(config.database_path()).expect("the database");
    let out_before: i64 = conn
        .query_row("SELECT coalesce(max(id), 0) FROM outbound", [], |r| {
            r.get(0)
        })
        .unwrap();
    let mut latencies = Vec::with_capacity(mails.len());
    let children_cpu = || {
        // SAFETY: getrusage fills the struct it is given.
        let mut usage: RUsage = unsafe { std::mem::zeroed() };
        unsafe { getrusage(RUSAGE_CHILDREN, &mut usage) };
        usage.cpu()
    };
    let cpu_started = children_cpu();
    let started = Instant::now();
    for (i, m) in mails.iter().enumerate() {
        let now = chrono::DateTime::from_timestamp(now0 + i as i64, 0)
            .expect("a time")
            .to_rfc3339();
        let t = Instant::now();
        let mut child = Command::new(env!("CARGO_BIN_EXE_judge"))
            .arg("--config")
            .arg(dir.join("judge.toml"))
            .arg("handle")
            .arg("--now")
            .arg(&now)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start judge handle");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(&m.raw)
            .expect("write the mail");
        let out = child.wait_with_output().expect("judge handle");
        latencies.push(t.elapsed());
        assert!(
            out.status.success(),
            "judge handle, mail {i}: {}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let total = started.elapsed();
    let cpu = children_cpu() - cpu_started;
    check(&conn, mails, seats, out_before, false);
    latencies.sort();
    PassStats {
        rate: mails.len() as f64 / total.as_secs_f64(),
        cpu_rate: mails.len() as f64 / cpu.as_secs_f64().max(1e-9),
        // The processes' waits for a CPU are not measured: the wall rate.
        unwaited_rate: mails.len() as f64 / total.as_secs_f64(),
        total,
        cpu,
        waited: Duration::ZERO,
        p50: percentile(&latencies, 0.50),
        p99: percentile(&latencies, 0.99),
        fetch: Duration::ZERO,
        syncs: mails.len(),
        sync: Duration::ZERO,
        ack: Duration::ZERO,
    }
}

/// `struct rusage` of <sys/resource.h> (Linux, 64-bit): the times, then
/// fourteen longs the bench does not read.
#[repr(C)]
struct RUsage {
    user: TimeVal,
    system: TimeVal,
    rest: [std::ffi::c_long; 14],
}

#[repr(C)]
struct TimeVal {
    seconds: std::ffi::c_long,
    microseconds: std::ffi::c_long,
}

impl RUsage {
    fn cpu(&self) -> Duration {
        let d = |t: &TimeVal| {
            Duration::from_secs(t.seconds as u64) + Duration::from_micros(t.microseconds as u64)
        };
        d(&self.user) + d(&self.system)
    }
}

const RUSAGE_CHILDREN: std::ffi::c_int = -1;

extern "C" {
    fn getrusage(who: std::ffi::c_int, usage: *mut RUsage) -> std::ffi::c_int;
}

/// One reply per mail, flagged exactly when a line was refused; the last
/// set standing for every seat that mailed (`all_seats`: every seat did).
fn check(
    conn: &store::rusqlite::Connection,
    mails: &[MailCase],
    seats: &[SeatInfo],
    out_before: i64,
    all_seats: bool,
) {
    let (replies, flagged): (i64, i64) = conn
        .query_row(
            "SELECT count(*), coalesce(sum(subject LIKE '[Error Flag]%'), 0) FROM outbound WHERE id > ?1",
            [out_before],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(replies as usize, mails.len(), "one reply per mail");
    let errors = mails.iter().filter(|m| m.error).count();
    assert_eq!(
        flagged as usize, errors,
        "[Error Flag] on the mails with a bad line"
    );
    let mut last: Vec<Option<&MailCase>> = vec![None; seats.len()];
    for m in mails {
        last[m.seat] = Some(m);
    }
    for (s, seat) in seats.iter().enumerate() {
        let Some(last) = last[s] else {
            assert!(!all_seats, "every seat mailed");
            continue;
        };
        let mut want = last.orders.clone();
        want.sort();
        let mut got: Vec<String> =
            store::orders::orders_of_power(conn, seat.game_id, &seat.phase, seat.power.upper())
                .unwrap()
                .into_iter()
                .map(|r| r.understood)
                .collect();
        got.sort();
        assert_eq!(got, want, "{} of {}", seat.power.name(), seat.game);
    }
}

impl PassStats {
    fn print(&self, run: usize, name: &str) {
        println!(
            "run {}: {name} {:>6.0} mails/s  ({:>6.0} without CPU waits, {:>6.0} per CPU-s)  \
             p50 {:.3} ms  p99 {:.3} ms  ({:.2} s: {:.2} s CPU, {:.2} s waiting for a CPU)",
            run + 1,
            self.rate,
            self.unwaited_rate,
            self.cpu_rate,
            ms(self.p50),
            ms(self.p99),
            self.total.as_secs_f64(),
            self.cpu.as_secs_f64(),
            self.waited.as_secs_f64()
        );
        if self.fetch > Duration::ZERO {
            println!(
                "       fetching new/ {:.3} s, {} fsyncs {:.3} s, moving to cur/ {:.3} s",
                self.fetch.as_secs_f64(),
                self.syncs,
                self.sync.as_secs_f64(),
                self.ack.as_secs_f64()
            );
        }
    }
}
