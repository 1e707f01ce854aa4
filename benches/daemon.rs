//! The daemon's three figures (issue 4): a deadline storm, `judge run`
//! idling, and the IMAP round trip.
//!
//! 1. **Storm**: 1,000 active games (seven seats each holding the same
//!    argon2id PHC string, a Master each) all share one deadline. Each game
//!    stands at its own position: played on at random from the standard
//!    start for zero to four movement phases (S1901M to S1903M; see
//!    `common::played_position`), so no two games in a row share a
//!    position and the tick reads and adjudicates each afresh, as on a
//!    real judge. Every unit has a legal order drawn by a seeded generator
//!    (hold, move, support). One clock tick at the
//!    moment it matters is timed the way `daemon::run_clock` does it:
//!    `BEGIN IMMEDIATE`, `game::tick::tick`, every mail it returns queued
//!    (rendered, one row per recipient), `COMMIT`. Two cases:
//!    - `deadline`: every power's orders are complete and one seat per game
//!      has WAIT set (else the games would have gone early); the tick is at
//!      the deadline.
//!    - `grace`: six of the seven powers have complete orders (which one is
//!      missing varies); the tick is at the end of grace: the missing power
//!      goes into civil disorder and the phase is processed.
//!
//!    Before the timed tick the template has had a tick 30 s earlier (the
//!    judge was running: no outage; the reminders or late notices of that
//!    moment are already out). Each run starts from a fresh copy of the
//!    template database. Checked after each run: 1,000 games processed, each
//!    now in its next phase, one results mail queued per recipient.
//!
//!    Also timed, in process: one tick over the same 1,000 games when
//!    nothing is due (deadlines days away): what `judge run` pays every
//!    `tick_seconds` when idle.
//! 2. **Idle**: the real `judge` binary (`judge run`, built by `cargo
//!    bench` with the bench profile) on a judge with 1,000 active games
//!    whose deadlines are three days away, on the embedded Maildir default.
//!    After it settles (start-up: the first tick), /proc/<pid>/status
//!    (VmRSS, VmHWM) and /proc/<pid>/stat (utime + stime) are sampled every
//!    second for the window. Then SIGTERM: it must exit 0.
//! 3. **IMAP**: only when `JUDGE_TEST_IMAP_PORT` and `JUDGE_TEST_SMTP_PORT`
//!    name running servers (`tests/servers/start.sh`); skipped otherwise
//!    with a message. See [`imap`].
//!
//! `cargo bench --bench daemon [storm|idle|imap]...` (no name: all).
//! Environment: `DAEMONBENCH_RUNS` (storm runs, default 5),
//! `DAEMONBENCH_IDLE_SECS` (the idle window, default 60),
//! `DAEMONBENCH_IDLE_RUNS` (default 1), `DAEMONBENCH_DIR` (a folder to work
//! in; default a new one under the temporary folder, removed at the end),
//! `DAEMONBENCH_KEEP=1` to keep it, `DAEMONBENCH_MAPS_NEXT=1` for the
//! results mails' second picture (`[maps] next`).

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use judge::app::Judge;
use judge::config::Config;
use judge::engine::map::{Map, Power};
use judge::engine::position::Position;
use judge::frontend::Outgoing;
use judge::game::orders::order_key;
use judge::game::settings::GameSettings;
use judge::game::tick::{tick, tick_cached, TickCache};
use judge::interchange::PositionJson;
use judge::store::{
    self, games::GameState, games::NewGame, orders::NewOrder, password::PasswordHash,
    seats::NewSeat, seats::SeatStatus, Store,
};

mod common;
use common::{movement_orders, played_position, Rng, OPENINGS};

const GAMES: usize = 1000;
/// Unix time at which the storm's games start.
const T0: i64 = 1_800_000_000;
/// The defaults of `judge.toml`: 72 h to a movement deadline, 24 h grace.
const MOVE_HOURS: i64 = 72;
const GRACE_HOURS: i64 = 24;
const STORM_TARGET_S: f64 = 5.0;
/// How many games' maps the storm draws afterwards, as the sender would.
const MAP_GAMES: usize = 50;
const RSS_TARGET_MB: f64 = 50.0;
const IMAP_TARGET_MS: f64 = 1000.0;

/// How the games of a judge are set up.
struct Plan {
    /// When the games start (deadline MOVE_HOURS later, grace GRACE_HOURS more).
    start: i64,
    /// The powers without orders in game `g`.
    missing: fn(usize) -> Vec<Power>,
    /// Whether game `g` has a seat with WAIT set.
    wait: fn(usize) -> bool,
    /// A clock tick already run at this time (the judge was up then).
    previous_tick: Option<i64>,
}

fn main() {
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let want = |name: &str| wanted.is_empty() || wanted.iter().any(|w| w == name);
    let runs = env_usize("DAEMONBENCH_RUNS", 5).max(1);
    let (root, made_root) = match std::env::var_os("DAEMONBENCH_DIR") {
        Some(dir) => (PathBuf::from(dir), false),
        None => (
            std::env::temp_dir().join(format!("judge-daemonbench-{}", std::process::id())),
            true,
        ),
    };
    let keep = std::env::var_os("DAEMONBENCH_KEEP").is_some_and(|v| v != "0");
    std::fs::create_dir_all(&root).expect("create the bench folder");
    println!("daemon bench: {GAMES} games; working in {}", root.display());
    println!(
        "machine: {} cores ({})",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu_model()
    );
    let hash = store::password::hash_password("storm-password").expect("argon2id");

    let mut summary = Vec::new();
    if want("storm") {
        summary.extend(storm(&root, &hash, runs));
    }
    if want("idle") {
        summary.extend(idle(&root, &hash));
    }
    if want("imap") {
        summary.extend(imap::bench(&root, &hash));
    }

    println!();
    println!(
        "{:<44} {:>12} {:>12}  verdict",
        "figure", "median", "target"
    );
    for (name, value, target, ok) in &summary {
        println!(
            "{name:<44} {value:>12} {target:>12}  {}",
            if *ok { "ok" } else { "MISSED" }
        );
    }
    if made_root && !keep {
        let _ = std::fs::remove_dir_all(&root);
    }
}

type Figure = (String, String, String, bool);

// --- 1. The deadline storm ------------------------------------------------

fn storm(root: &Path, hash: &PasswordHash, runs: usize) -> Vec<Figure> {
    let deadline = T0 + MOVE_HOURS * 3600;
    let grace = deadline + GRACE_HOURS * 3600;
    // The third field: whether `[maps]` is on (results mails name their
    // map, drawn when sent).
    let cases: [(&str, Plan, bool, i64); 3] = [
        (
            "deadline",
            Plan {
                start: T0,
                missing: |_| Vec::new(),
                wait: |_| true,
                previous_tick: Some(deadline - 30),
            },
            true,
            deadline,
        ),
        (
            "deadline-maps-off",
            Plan {
                start: T0,
                missing: |_| Vec::new(),
                wait: |_| true,
                previous_tick: Some(deadline - 30),
            },
            false,
            deadline,
        ),
        (
            "grace",
            Plan {
                start: T0,
                missing: |g| vec![Power::ALL[g % 7]],
                wait: |_| false,
                previous_tick: Some(grace - 30),
            },
            true,
            grace,
        ),
    ];
    let mut figures = Vec::new();
    for (name, plan, maps, moment) in cases {
        let case = StormCase { name, maps, moment };
        figures.push(case.bench(root, hash, &plan, runs));
    }
    figures.extend(idle_tick(root, hash));
    figures
}

/// One case of the storm: which, whether `[maps]` is on, the tick's moment.
struct StormCase {
    name: &'static str,
    maps: bool,
    moment: i64,
}

/// One storm run's times, in seconds: the whole, the tick, the queueing,
/// the commit.
#[derive(Default)]
struct StormTimes {
    totals: Vec<f64>,
    ticks: Vec<f64>,
    queues: Vec<f64>,
    commits: Vec<f64>,
}

impl StormCase {
    /// The template made, then `runs` runs each from a fresh copy of it;
    /// each run printed, then the medians.
    fn bench(&self, root: &Path, hash: &PasswordHash, plan: &Plan, runs: usize) -> Figure {
        let (name, moment) = (self.name, self.moment);
        println!();
        println!(
            "== storm/{name}: {GAMES} games, one tick at {} ==",
            iso(moment)
        );
        let template = root.join(format!("storm-{name}"));
        let t = Instant::now();
        make_judge(&template, hash, plan);
        println!("set-up: {:.1} s", t.elapsed().as_secs_f64());

        let mut times = StormTimes::default();
        for run in 0..runs {
            let dir = root.join(format!("storm-{name}-run"));
            let _ = std::fs::remove_dir_all(&dir);
            copy_dir(&template, &dir);
            self.run(&dir, run, &mut times);
            let _ = std::fs::remove_dir_all(&dir);
        }
        let totals = &times.totals;
        let m = median(totals.clone());
        println!(
            "storm/{name}: median {m:.3} s over {runs} runs (min {:.3}, max {:.3}); \
             tick {:.3} s, queueing {:.3} s, commit {:.3} s",
            min(totals),
            max(totals),
            median(times.ticks),
            median(times.queues),
            median(times.commits)
        );
        (
            format!("storm/{name}: 1,000 processed + queued"),
            format!("{m:.3} s"),
            format!("<= {STORM_TARGET_S} s"),
            m <= STORM_TARGET_S,
        )
    }

    /// One run in `dir`: the tick at the moment timed, checked, printed.
    fn run(&self, dir: &Path, run: usize, times: &mut StormTimes) {
        let moment = self.moment;
        let mut config = Config::load(&dir.join("judge.toml")).expect("judge.toml");
        config.maps.enabled = self.maps;
        // The second picture, for comparing with the judge before issue 23.
        if std::env::var_os("DAEMONBENCH_MAPS_NEXT").is_some() {
            config.maps.next = true;
        }
        let mut judge = Judge::open_or_create(config).expect("open the judge");
        let before_out = count(&judge, "SELECT count(*) FROM outbound");

        let code = judge.config.judge.code.clone();
        let clock = judge.config.clock.clone();
        // The daemon's cache, as the tick 30 s before left it (that
        // tick's work is in the template: this one finds nothing).
        let mut cache = TickCache::new();
        let tx = judge.store.transaction().expect("begin");
        let (report, mails) = tick_cached(
            &tx,
            &clock,
            &judge.templates,
            &code,
            moment - 30,
            &mut cache,
        )
        .expect("tick");
        tx.commit().expect("commit");
        assert!(mails.is_empty() && report == Default::default());
        assert_eq!(cache.len(), GAMES, "every game quiet 30 s before");

        // The tick at the moment, as `daemon::run_clock` does it.
        let started = Instant::now();
        let tx = judge.store.transaction().expect("begin");
        let (report, mails) =
            tick_cached(&tx, &clock, &judge.templates, &code, moment, &mut cache).expect("tick");
        let ticked = started.elapsed();
        for m in &mails {
            Outgoing::from(m)
                .queue(&tx, &judge.config, moment)
                .expect("queue");
        }
        let queued = started.elapsed();
        tx.commit().expect("commit");
        let total = started.elapsed();

        assert_eq!(report.processed.len(), GAMES, "games processed by the tick");
        let out = self.check(&judge, before_out);
        // After the commit, as the sender does it (no write lock): the
        // maps of the first games' results mails drawn in, timed.
        if self.maps && run == 0 {
            draw_maps(&judge, moment);
        }
        drop(judge);

        println!(
            "run {}: {:.3} s  (tick {:.3} s, queueing {} mails to {out} recipients {:.3} s, commit {:.3} s)",
            run + 1,
            total.as_secs_f64(),
            ticked.as_secs_f64(),
            mails.len(),
            (queued - ticked).as_secs_f64(),
            (total - queued).as_secs_f64(),
        );
        times.totals.push(total.as_secs_f64());
        times.ticks.push(ticked.as_secs_f64());
        times.queues.push((queued - ticked).as_secs_f64());
        times.commits.push((total - queued).as_secs_f64());
    }

    /// Checks the store after the tick: every game processed and in its
    /// next phase, one results mail per recipient (naming its map when
    /// maps are on). Returns the number of mails queued since `before_out`.
    fn check(&self, judge: &Judge, before_out: i64) -> i64 {
        let moment = self.moment;
        let processed = count(
            judge,
            &format!("SELECT count(*) FROM phases WHERE processed_at = {moment}"),
        );
        assert_eq!(processed, GAMES as i64, "phases marked processed");
        let next = count(
            judge,
            &format!("SELECT count(*) FROM phases WHERE started_at = {moment}"),
        );
        assert_eq!(next, GAMES as i64, "games now in their next phase");
        let results = count(
            judge,
            &format!("SELECT count(*) FROM outbound WHERE created_at = {moment}"),
        );
        // Seven players and the Master per game.
        assert_eq!(results, 8 * GAMES as i64, "results mails queued");
        let out = count(judge, "SELECT count(*) FROM outbound") - before_out;
        let named = count(
            judge,
            &format!(
                "SELECT count(*) FROM outbound WHERE created_at = {moment} \
                 AND instr(CAST(raw AS TEXT), 'X-Judge-Picture: results') > 0"
            ),
        );
        let want = if self.maps { 8 * GAMES as i64 } else { 0 };
        assert_eq!(named, want, "maps named");
        out
    }
}

/// The maps of the first MAP_GAMES games' results mails drawn in, as the
/// sender does it (`daemon::send_out`): a batch of due mail at a time, the
/// batch's pictures drawn first on every core, each once, then each mail
/// filled; timed and printed, with the mails' sizes.
fn draw_maps(judge: &Judge, moment: i64) {
    let raws: Vec<Vec<u8>> =
        store::mailbox::due_mail(judge.store.conn(), moment, None, 8 * MAP_GAMES)
            .expect("due mail")
            .into_iter()
            .filter(|m| m.created_at == moment)
            .map(|m| m.raw)
            .collect();
    let (code, maps) = (&judge.config.judge.code, &judge.config.maps);
    let mut maker = judge::game::pictures::PictureMaker::default();
    let t = Instant::now();
    let (mut bytes, mut largest) = (0, 0);
    for batch in raws.chunks(SEND_BATCH) {
        let conn = judge.store.conn();
        maker.prepare(conn, code, maps, batch.iter().map(|r| &r[..]));
        for raw in batch {
            let sent = maker.fill(conn, code, maps, raw).len();
            bytes += sent;
            largest = largest.max(sent);
        }
    }
    let took = t.elapsed().as_secs_f64();
    println!(
        "sending side: {} results mails of {MAP_GAMES} games drawn in {took:.2} s \
         ({:.1} ms per game, {} pictures drawn, {} KB per mail, the largest {} KB, \
         on {} cores): {:.1} s for all {GAMES} games",
        raws.len(),
        took * 1e3 / MAP_GAMES as f64,
        maker.drawn(),
        bytes / raws.len().max(1) / 1024,
        largest / 1024,
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        took * GAMES as f64 / MAP_GAMES as f64
    );
}

/// Due mails the sender reads and draws for at a time (as
/// `daemon::SEND_BATCH`).
const SEND_BATCH: usize = 100;

/// The idle tick: the same games, nothing due; 21 full ticks, then 21
/// with the daemon's cache.
fn idle_tick(root: &Path, hash: &PasswordHash) -> Vec<Figure> {
    println!();
    println!("== idle tick: {GAMES} games, deadlines 3 days away, nothing due ==");
    let template = root.join("idle-tick");
    make_judge(&template, hash, &idle_plan(T0));
    let config = Config::load(&template.join("judge.toml")).expect("judge.toml");
    let mut judge = Judge::open_or_create(config).expect("open the judge");
    let mut cache = TickCache::new();
    let mut figures = Vec::new();
    for (round, cached) in [false, true].into_iter().enumerate() {
        let times = idle_ticks(&mut judge, round as i64, cached.then_some(&mut cache));
        // The first cached tick fills the cache: the median is of the rest.
        let kind = if cached {
            "cached (judge run)"
        } else {
            "full (judge run --once)"
        };
        let tick_seconds = judge.config.clock.tick_seconds;
        let m = median(times.clone());
        println!(
            "idle tick, {kind}: median {m:.2} ms of 21 (min {:.2}, max {:.2}); \
             every {} s that is {:.3}% of a core",
            min(&times),
            max(&times),
            tick_seconds,
            m / 1000.0 / f64::from(tick_seconds.max(1)) * 100.0
        );
        figures.push((
            format!("idle tick over 1,000 games, {kind}"),
            format!("{m:.2} ms"),
            "-".to_string(),
            true,
        ));
    }
    drop(judge);
    let _ = std::fs::remove_dir_all(&template);
    figures
}

/// 21 ticks with nothing due (with the cache if given), 30 s apart from
/// where `round` left time; each in ms.
fn idle_ticks(judge: &mut Judge, round: i64, mut cache: Option<&mut TickCache>) -> Vec<f64> {
    let code = judge.config.judge.code.clone();
    let clock = judge.config.clock.clone();
    let mut times = Vec::new();
    for i in 0..21 {
        // Time goes on, 30 s a tick.
        let now = T0 + 3600 + 30 * (i + 21 * round);
        let started = Instant::now();
        let tx = judge.store.transaction().expect("begin");
        let (report, mails) = match cache.as_deref_mut() {
            Some(cache) => tick_cached(&tx, &clock, &judge.templates, &code, now, cache),
            None => tick(&tx, &clock, &judge.templates, &code, now),
        }
        .expect("tick");
        tx.commit().expect("commit");
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        assert!(
            mails.is_empty() && report == Default::default(),
            "nothing due"
        );
        if let Some(cache) = cache.as_deref() {
            if i > 0 {
                assert_eq!(cache.skipped(), GAMES, "every game skipped");
            }
        }
    }
    times
}

/// Deadlines three days after `start`; in three games of four, two or three
/// powers have no orders yet; in the fourth everyone has, and one seat has
/// WAIT set (else the game would have gone early).
fn idle_plan(start: i64) -> Plan {
    Plan {
        start,
        missing: |g| {
            if g % 4 == 0 {
                Vec::new()
            } else {
                let mut m = vec![Power::ALL[g % 7], Power::ALL[(g + 3) % 7]];
                if g % 3 == 0 {
                    m.push(Power::ALL[(g + 5) % 7]);
                }
                m
            }
        },
        wait: |g| g % 4 == 0,
        previous_tick: None,
    }
}

/// A judge folder (`judge.toml`, `templates/`, `var/`) holding GAMES
/// active games made through the store API.
fn make_judge(dir: &Path, hash: &PasswordHash, plan: &Plan) {
    let _ = std::fs::remove_dir_all(dir);
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(dir).expect("create the judge folder");
    std::fs::copy(manifest.join("judge.toml"), dir.join("judge.toml")).expect("copy judge.toml");
    copy_dir(&manifest.join("templates"), &dir.join("templates"));
    let config = Config::load(&dir.join("judge.toml")).expect("judge.toml");
    let mut db = Store::open(config.database_path()).expect("open the store");
    let settings = serde_json::to_string(&GameSettings::new(&config.games)).expect("settings");
    let mut rng = Rng(0x5EED_0FD1_9A01_u64);
    let mut phases = std::collections::BTreeMap::new();

    let tx = db.transaction().expect("begin");
    for g in 0..GAMES {
        let phase = add_game(&tx, g, hash, plan, &settings, &mut rng);
        *phases.entry(phase).or_insert(0) += 1;
    }
    tx.commit().expect("commit");
    drop(db);
    let spread: Vec<String> = phases.iter().map(|(p, n)| format!("{n} in {p}")).collect();
    println!("games: {}", spread.join(", "));

    if let Some(at) = plan.previous_tick {
        previous_tick(config, at);
    }
}

/// Game `g`: created, its seven seats taken, its position (zero to four
/// movement phases played: S1901M to S1903M) its current phase, active,
/// every power's orders set but those of the plan's missing powers.
/// Returns the phase.
fn add_game(
    tx: &store::rusqlite::Connection,
    g: usize,
    hash: &PasswordHash,
    plan: &Plan,
    settings: &str,
    rng: &mut Rng,
) -> String {
    let map = Map::standard();
    let deadline = plan.start + MOVE_HOURS * 3600;
    let grace = deadline + GRACE_HOURS * 3600;
    let name = format!("storm{g:04}");
    let master = format!("gm.{name}@masters.example");
    let game_id = store::games::create_game(
        tx,
        &NewGame {
            name: &name,
            variant: "standard",
            settings,
            master_address: Some(&master),
            master_password: Some(hash),
            seed: g as i64,
        },
        plan.start - 3600,
    )
    .expect("create game");
    let missing = (plan.missing)(g);
    let position = played_position(map, g % 5, rng);
    let phase = position.phase.to_string();
    for (i, power) in Power::ALL.into_iter().enumerate() {
        let address = format!("{}.{name}@players.example", power.name().to_lowercase());
        let seat = store::seats::add_seat(
            tx,
            &NewSeat {
                game_id,
                power: None,
                address: &address,
                password: hash,
                status: SeatStatus::Forming,
                preferences: None,
            },
            plan.start - 3600,
        )
        .expect("add seat");
        store::seats::assign_power(tx, seat, power.upper(), &phase).expect("assign power");
        if i == g % 7 && (plan.wait)(g) {
            store::seats::set_seat_wait(tx, seat, true).expect("wait");
        }
    }
    store::phases::insert_phase(
        tx,
        game_id,
        &phase,
        &PositionJson::from_position(map, &position),
        Some(deadline),
        Some(grace),
        plan.start,
    )
    .expect("insert phase");
    store::games::set_game_state(tx, game_id, GameState::Active, plan.start).expect("activate");
    for power in Power::ALL {
        if !missing.contains(&power) {
            let first = plan.start + 3600 + (g * 34 + power.index() * 5) as i64;
            add_orders(tx, game_id, &position, power, first, rng);
        }
    }
    phase
}

/// Every unit of `power` ordered (`common::movement_orders`), the `k`th
/// order at `first + k`.
fn add_orders(
    tx: &store::rusqlite::Connection,
    game_id: i64,
    position: &Position,
    power: Power,
    first: i64,
    rng: &mut Rng,
) {
    let map = Map::standard();
    let phase = position.phase.to_string();
    for (unit, order) in movement_orders(map, position, power, rng)
        .into_iter()
        .enumerate()
    {
        let short = order.short(map);
        store::orders::set_order(
            tx,
            &NewOrder {
                game_id,
                phase: &phase,
                power: power.upper(),
                unit: &order_key(map, &order, 0),
                written: &short,
                understood: &short,
                inbound_id: None,
            },
            first + unit as i64,
        )
        .expect("set order");
    }
}

/// A clock tick at `at` on the judge folder just made, its mails queued
/// (the judge was up then); nothing may be processed yet.
fn previous_tick(config: Config, at: i64) {
    let mut judge = Judge::open_or_create(config).expect("open the judge");
    let code = judge.config.judge.code.clone();
    let clock = judge.config.clock.clone();
    let tx = judge.store.transaction().expect("begin");
    let (report, mails) = tick(&tx, &clock, &judge.templates, &code, at).expect("tick");
    for m in &mails {
        Outgoing::from(m)
            .queue(&tx, &judge.config, at)
            .expect("queue");
    }
    tx.commit().expect("commit");
    assert!(
        report.processed.is_empty(),
        "nothing processed before the moment"
    );
    println!(
        "previous tick at {}: {} reminders, {} late notices",
        iso(at),
        report.reminders,
        report.late_notices
    );
}

fn count(judge: &Judge, sql: &str) -> i64 {
    judge
        .store
        .conn()
        .query_row(sql, [], |r| r.get(0))
        .expect("count")
}

// --- 2. `judge run` idle --------------------------------------------------

fn idle(root: &Path, hash: &PasswordHash) -> Vec<Figure> {
    let window = env_usize("DAEMONBENCH_IDLE_SECS", 60).max(5) as u64;
    let idle_runs = env_usize("DAEMONBENCH_IDLE_RUNS", 1).max(1);
    println!();
    println!(
        "== idle: `judge run`, {GAMES} active games, deadlines 3 days away, {window} s window =="
    );
    let dir = root.join("idle");
    let now = chrono::Utc::now().timestamp();
    make_judge(&dir, hash, &idle_plan(now));
    let config = Config::load(&dir.join("judge.toml")).expect("judge.toml");
    let db_size = std::fs::metadata(config.database_path()).map_or(0, |m| m.len());
    println!(
        "database: {:.1} MB; tick_seconds = {}",
        db_size as f64 / 1e6,
        config.clock.tick_seconds
    );
    let hz = clock_ticks_per_second();
    let mut rss_maxes = Vec::new();
    let mut hwms = Vec::new();
    let mut cpus = Vec::new();
    for run in 0..idle_runs {
        let r = idle_run(&dir, run, window, hz);
        rss_maxes.push(r.rss_max as f64 / 1024.0);
        hwms.push(r.hwm as f64 / 1024.0);
        cpus.push(r.cpu_pct);
    }
    let rss = median(rss_maxes);
    let cpu = median(cpus);
    println!(
        "idle: RSS max {rss:.1} MB (VmHWM {:.1} MB), CPU {cpu:.3}% (median of {idle_runs})",
        median(hwms)
    );
    let _ = std::fs::remove_dir_all(&dir);
    vec![
        (
            "idle: RSS max (1,000 games)".to_string(),
            format!("{rss:.1} MB"),
            format!("< {RSS_TARGET_MB} MB"),
            rss < RSS_TARGET_MB,
        ),
        (
            format!("idle: CPU over {window} s"),
            format!("{cpu:.3}%"),
            "~0%".to_string(),
            cpu < 1.0,
        ),
    ]
}

/// `judge run` on the judge folder `dir`, its log (RUST_LOG=info) to `log`.
fn spawn_judge_run(dir: &Path, log: std::fs::File) -> Child {
    Command::new(env!("CARGO_BIN_EXE_judge"))
        .arg("--config")
        .arg(dir.join("judge.toml"))
        .arg("run")
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("start judge run")
}

/// What one idle run measured: memory in kB, CPU in % of a core.
struct IdleRun {
    rss_max: u64,
    hwm: u64,
    cpu_pct: f64,
}

/// The window's samples: (CPU ticks, VmRSS) each second, and the figures
/// at its ends.
struct IdleWindow {
    wall: f64,
    cpu0: u64,
    cpu1: u64,
    rss_end: u64,
    hwm: u64,
    samples: Vec<(u64, u64)>,
}

/// One `judge run`: started, let settle, sampled for `window` seconds,
/// stopped by SIGTERM; printed.
fn idle_run(dir: &Path, run: usize, window: u64, hz: f64) -> IdleRun {
    let log = std::fs::File::create(dir.join(format!("judge-run-{run}.log"))).expect("log");
    let started = Instant::now();
    let mut child = spawn_judge_run(dir, log);
    let pid = child.id();

    // Start-up: until the CPU time stops moving for two seconds.
    let mut last = cpu_ticks(pid);
    let mut still = 0;
    let mut rss_max = rss_kb(pid).0;
    while still < 2 && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_secs(1));
        assert_running(&mut child);
        let now = cpu_ticks(pid);
        still = if now == last { still + 1 } else { 0 };
        last = now;
        rss_max = rss_max.max(rss_kb(pid).0);
    }
    let startup_cpu = last as f64 / hz;
    let settled = started.elapsed();

    let w = sample_window(&mut child, window, &mut rss_max);
    let cpu_pct = (w.cpu1 - w.cpu0) as f64 / hz / w.wall * 100.0;
    let stop = sigterm(&mut child);

    println!(
        "run {}: start-up {:.1} s ({startup_cpu:.2} s CPU); window {:.0} s: CPU {:.2} s = {cpu_pct:.3}% of a core; \
         RSS max {:.1} MB (VmHWM {:.1} MB), at the end {:.1} MB; stopped {:.2} s after SIGTERM, exit 0",
        run + 1,
        settled.as_secs_f64(),
        w.wall,
        (w.cpu1 - w.cpu0) as f64 / hz,
        rss_max as f64 / 1024.0,
        w.hwm as f64 / 1024.0,
        w.rss_end as f64 / 1024.0,
        stop.elapsed().as_secs_f64()
    );
    // Where the CPU went: ticks per 10 s slice.
    let slices: Vec<String> = w
        .samples
        .chunks(10)
        .scan(w.cpu0, |prev, chunk| {
            let end = chunk.last().map_or(*prev, |c| c.0);
            let d = end - *prev;
            *prev = end;
            Some(format!("{:.0}", d as f64 / hz * 1000.0))
        })
        .collect();
    println!("  CPU ms per 10 s slice: {}", slices.join(" "));
    IdleRun {
        rss_max,
        hwm: w.hwm,
        cpu_pct,
    }
}

/// The window: CPU ticks and VmRSS sampled every second for `window`
/// seconds; `rss_max` raised to the highest VmRSS seen.
fn sample_window(child: &mut Child, window: u64, rss_max: &mut u64) -> IdleWindow {
    let pid = child.id();
    let t0 = Instant::now();
    let cpu0 = cpu_ticks(pid);
    let mut samples = Vec::new();
    for s in 1..=window {
        let next = t0 + Duration::from_secs(s);
        std::thread::sleep(next.saturating_duration_since(Instant::now()));
        assert_running(child);
        let (rss, _) = rss_kb(pid);
        *rss_max = (*rss_max).max(rss);
        samples.push((cpu_ticks(pid), rss));
    }
    let wall = t0.elapsed().as_secs_f64();
    let cpu1 = cpu_ticks(pid);
    let (rss_end, hwm) = rss_kb(pid);
    IdleWindow {
        wall,
        cpu0,
        cpu1,
        rss_end,
        hwm,
        samples,
    }
}

/// SIGTERM: a clean stop, exit 0, within 15 s. Returns when it was sent.
fn sigterm(child: &mut Child) -> Instant {
    let stop = Instant::now();
    let killed = Command::new("kill")
        .arg("-TERM")
        .arg(child.id().to_string())
        .status()
        .expect("kill");
    assert!(killed.success());
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if stop.elapsed() > Duration::from_secs(15) {
            let _ = child.kill();
            panic!("judge run did not stop within 15 s of SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "judge run exited with {status}");
    stop
}

fn assert_running(child: &mut Child) {
    if let Some(status) = child.try_wait().expect("wait") {
        panic!("judge run exited early: {status}");
    }
}

/// utime + stime of a process, in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    // After "pid (comm)": state is field 3, utime 14, stime 15.
    let get = |i: usize| {
        fields
            .get(i - 3)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    get(14) + get(15)
}

/// (VmRSS, VmHWM) in kB.
fn rss_kb(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn clock_ticks_per_second() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100.0)
}

// --- 3. IMAP in, SMTP out ---------------------------------------------------

mod imap {
    //! A mail arriving in the judge's IMAP inbox is answered, and the answer
    //! accepted by the SMTP server, within 1 s.
    //!
    //! Needs the servers of `tests/servers/start.sh` (Dovecot and aiosmtpd
    //! on 127.0.0.1) and what it exports: `JUDGE_TEST_IMAP_PORT`,
    //! `JUDGE_TEST_SMTP_PORT`, `JUDGE_TEST_MAIL_DIR` (each user's Maildir is
    //! `$JUDGE_TEST_MAIL_DIR/mail/<user>/Maildir`; the SMTP server delivers
    //! to the recipient's local part), `JUDGE_TEST_MAIL_PASSWORD`. Skipped,
    //! with a message, without them.
    //!
    //! The judge: the same 1,000 active games as the idle bench, read over
    //! IMAP (`[inbox] kind = "imap"`, IDLE, handled mail moved to
    //! `processed`), sending over SMTP (`[outbox] kind = "smtp"`), the clock
    //! ticking once an hour (a reply within seconds can only come from
    //! IDLE). Each round: one mail (a SIGNON and a full order set of a seat
    //! of the first game, the seven powers in turn) is submitted over SMTP
    //! to the judge's address; the SMTP server delivers it to the judge's
    //! IMAP inbox, where `judge run` sees it (IDLE), stores and handles it
    //! (argon2id check: the first mail of each seat pays it), runs the
    //! clock and sends the reply through the SMTP server, which writes it
    //! into the player's Maildir before it answers 250. Timed from the
    //! server's 250 to the submission to the reply's file in the player's
    //! Maildir (polled every 2 ms). `DAEMONBENCH_IMAP_ROUNDS` rounds
    //! (default 20), 1 s apart.

    use super::*;

    pub fn bench(root: &Path, hash: &PasswordHash) -> Vec<Figure> {
        println!();
        println!("== imap: mail in over IMAP (IDLE), reply out over SMTP ==");
        let Some(servers) = Servers::from_env() else {
            println!(
                "skipped: JUDGE_TEST_IMAP_PORT, JUDGE_TEST_SMTP_PORT and JUDGE_TEST_MAIL_DIR \
                 are not all set (run `source tests/servers/start.sh` first)"
            );
            return Vec::new();
        };
        let rounds = super::env_usize("DAEMONBENCH_IMAP_ROUNDS", 20).max(1);
        let user = format!("judge-bench{}", std::process::id());
        let judge_address = format!("{user}@localhost");

        // A judge with 1,000 active games, deadlines days away.
        let dir = root.join("imap");
        make_judge(&dir, hash, &idle_plan(chrono::Utc::now().timestamp()));
        write_config(&dir, &servers, &user, &judge_address);

        let log_path = dir.join("judge-run.log");
        let log = std::fs::File::create(&log_path).expect("log");
        let mut child = spawn_judge_run(&dir, log);
        wait_for_idle(&mut child, &log_path);
        std::thread::sleep(Duration::from_millis(500));

        let mut latencies = Vec::new();
        let mut rng = Rng(0x1AB5);
        for round in 0..rounds {
            let run = Round {
                servers: &servers,
                judge_address: &judge_address,
                log_path: &log_path,
            };
            latencies.push(run.time(&mut child, round, &mut rng));
            std::thread::sleep(Duration::from_secs(1));
        }
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(child.id().to_string())
            .status();
        let status = child.wait().expect("wait");
        assert!(status.success(), "judge run exited with {status}");
        let m = median(latencies.clone());
        println!(
            "imap: median {m:.0} ms of {rounds} (min {:.0}, max {:.0})",
            min(&latencies),
            max(&latencies)
        );
        let _ = std::fs::remove_dir_all(&dir);
        vec![(
            "imap: mail in -> reply accepted by SMTP".to_string(),
            format!("{m:.0} ms"),
            format!("<= {IMAP_TARGET_MS} ms"),
            m <= IMAP_TARGET_MS,
        )]
    }

    /// The test servers, from what `tests/servers/start.sh` exports.
    struct Servers {
        imap_port: String,
        smtp_port: String,
        mail_dir: String,
        password: String,
    }

    impl Servers {
        /// None unless the IMAP and SMTP ports and the mail folder are set.
        fn from_env() -> Option<Servers> {
            let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
            let (Some(imap_port), Some(smtp_port), Some(mail_dir)) = (
                env("JUDGE_TEST_IMAP_PORT"),
                env("JUDGE_TEST_SMTP_PORT"),
                env("JUDGE_TEST_MAIL_DIR"),
            ) else {
                return None;
            };
            let password = env("JUDGE_TEST_MAIL_PASSWORD").unwrap_or_else(|| "secret".to_string());
            Some(Servers {
                imap_port,
                smtp_port,
                mail_dir,
                password,
            })
        }

        /// The Maildir of the servers' user `local`.
        fn maildir_of(&self, local: &str) -> PathBuf {
            PathBuf::from(&self.mail_dir)
                .join("mail")
                .join(local)
                .join("Maildir")
        }
    }

    /// `dir/judge.toml` rewritten: the judge's address, `[inbox]` over
    /// IMAP as `user`, `[outbox]` over SMTP, the clock once an hour.
    fn write_config(dir: &Path, servers: &Servers, user: &str, judge_address: &str) {
        let toml = std::fs::read_to_string(dir.join("judge.toml")).expect("judge.toml");
        let mut out = String::new();
        let mut skip = false;
        for line in toml.lines() {
            if line.starts_with('[') {
                skip = matches!(line.trim(), "[inbox]" | "[outbox]" | "[clock]");
            }
            if skip {
                continue;
            }
            if line.starts_with("address =") {
                out.push_str(&format!("address = \"{judge_address}\"\n"));
            } else {
                out.push_str(line);
                out.push('\n');
            }
        }
        let Servers {
            imap_port,
            smtp_port,
            password,
            ..
        } = servers;
        out.push_str(&format!(
            "\n[inbox]\nkind = \"imap\"\nhost = \"127.0.0.1\"\nport = {imap_port}\n\
             tls = \"none\"\nuser = \"{user}\"\npassword = \"{password}\"\n\
             processed = \"processed\"\n\
             \n[outbox]\nkind = \"smtp\"\nhost = \"127.0.0.1\"\nport = {smtp_port}\n\
             tls = \"none\"\n\
             \n[clock]\ntick_seconds = 3600\n"
        ));
        std::fs::write(dir.join("judge.toml"), out).expect("write judge.toml");
    }

    /// Waits until `judge run` idles in IDLE on its inbox (its log says so).
    fn wait_for_idle(child: &mut Child, log_path: &Path) {
        let ready = Instant::now();
        loop {
            assert_running(child);
            let text = std::fs::read_to_string(log_path).unwrap_or_default();
            if text.contains("(IDLE)") {
                break;
            }
            if ready.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                panic!("judge run is not in IDLE after 60 s:\n{text}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// What a round needs: the servers, the judge's address, its log.
    struct Round<'a> {
        servers: &'a Servers,
        judge_address: &'a str,
        log_path: &'a Path,
    }

    impl Round<'_> {
        /// Round `round`: a seat's orders submitted over SMTP, timed until
        /// the reply is in the player's Maildir; printed. In ms.
        fn time(&self, child: &mut Child, round: usize, rng: &mut Rng) -> f64 {
            let count = |d: &Path| {
                ["new", "cur"]
                    .iter()
                    .map(|sub| std::fs::read_dir(d.join(sub)).map_or(0, |r| r.count()))
                    .sum::<usize>()
            };
            let judge_address = self.judge_address;
            let power = Power::ALL[round % 7];
            let local = format!("{}.storm0000", power.name().to_lowercase());
            let player = format!("{local}@players.example");
            let maildir = self.servers.maildir_of(&local);
            let mut body = format!("SIGNON {}storm0000 storm-password\n", power.initial());
            // storm0000 is at the standard start (no phase played on).
            for (p, options) in OPENINGS {
                if *p == power {
                    body.push_str(options[rng.below(options.len())]);
                    body.push('\n');
                }
            }
            let before = count(&maildir);
            let raw = format!(
                "From: {player}\r\nTo: {judge_address}\r\nSubject: orders\r\nDate: {}\r\n\
                 Message-ID: <imapbench-{}-{round}@players.example>\r\nMIME-Version: 1.0\r\n\
                 Content-Type: text/plain; charset=utf-8\r\n\r\n{}",
                chrono::Utc::now().to_rfc2822(),
                std::process::id(),
                body.replace('\n', "\r\n")
            );
            smtp_submit(&self.servers.smtp_port, &player, judge_address, &raw);
            let sent = Instant::now();
            while count(&maildir) <= before {
                if sent.elapsed() > Duration::from_secs(30) {
                    let _ = child.kill();
                    panic!(
                        "no reply in {} within 30 s (round {}); the judge's log:\n{}",
                        maildir.display(),
                        round + 1,
                        std::fs::read_to_string(self.log_path).unwrap_or_default()
                    );
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            let ms = sent.elapsed().as_secs_f64() * 1000.0;
            println!("round {:>2} ({}): {ms:.0} ms", round + 1, power.name());
            ms
        }
    }

    /// A plain SMTP submission (no TLS, no auth), on 127.0.0.1.
    fn smtp_submit(port: &str, from: &str, to: &str, raw: &str) {
        let stream = TcpStream::connect(format!("127.0.0.1:{port}")).expect("connect to SMTP");
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .expect("timeout");
        let mut reader = BufReader::new(stream.try_clone().expect("clone"));
        let mut writer = stream;
        let mut say = |send: Option<&str>, code: &str| {
            if let Some(s) = send {
                writer.write_all(s.as_bytes()).expect("SMTP write");
            }
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).expect("SMTP read");
                assert!(
                    line.starts_with(code),
                    "SMTP: expected {code}, got {line:?}"
                );
                if line.as_bytes().get(3) != Some(&b'-') {
                    break;
                }
            }
        };
        say(None, "220");
        say(Some("EHLO bench.localhost\r\n"), "250");
        say(Some(&format!("MAIL FROM:<{from}>\r\n")), "250");
        say(Some(&format!("RCPT TO:<{to}>\r\n")), "250");
        say(Some("DATA\r\n"), "354");
        let mut data = String::new();
        for line in raw.split("\r\n") {
            if line.starts_with('.') {
                data.push('.');
            }
            data.push_str(line);
            data.push_str("\r\n");
        }
        data.push_str(".\r\n");
        say(Some(&data), "250");
        say(Some("QUIT\r\n"), "221");
    }
}

// --- helpers ------------------------------------------------------------------

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|v| v.trim_start_matches([' ', '\t', ':']).to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string())
}

fn iso(t: i64) -> String {
    chrono::DateTime::from_timestamp(t, 0)
        .map(|d| d.to_rfc3339())
        .unwrap_or_default()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn min(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::INFINITY, f64::min)
}

fn max(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::NEG_INFINITY, f64::max)
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
