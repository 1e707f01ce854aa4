//! The web archive's two figures (issue 14):
//!
//! 1. **One phase**: a game played through the real code (`store` rows
//!    for the game and its seven seats, every unit of every power given a
//!    random legal order each movement phase — `common::movement_orders`
//!    — retreats and adjustments left to the rules, each phase processed
//!    by `game::process::process` in its own transaction, a broadcast to
//!    everyone every year). After each phase commits, the web pass
//!    (`web::publish_due`, what `judge run` does) is timed: it writes the
//!    new phase's page and map, the page before it again (its link to the
//!    next), the board now (`board.svg`), the game's index and play page,
//!    its feed (every processed phase's orders read and adjudicated again
//!    for their entries) and JSON, and the top index. Median
//!    over the game's phases; goal <= 20 ms. Timed again for five more
//!    phases once the judge holds 1,000 published games (figure 2's), whose
//!    cards the top index lists.
//! 2. **Rebuild**: that game's rows copied inside SQLite under 999 new
//!    names (games, seats, seat history, phases, orders, archive): 1,000
//!    games of 20 processed phases. The real `judge archive --rebuild`
//!    binary (the bench profile) is timed on it; checked: every game's
//!    folder holds a page per phase. Goal <= 60 s.
//!
//! `cargo bench --bench web`. Environment: `WEBBENCH_RUNS` (rebuild runs,
//! default 3), `WEBBENCH_KEEP=1` keeps the folder.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use judge::app::Judge;
use judge::config::Config;
use judge::engine::map::{Map, Power};
use judge::engine::phase::{PhaseKind, Season};
use judge::game::orders::order_key;
use judge::game::process::process;
use judge::game::settings::GameSettings;
use judge::game::{current, position_of};
use judge::interchange::PositionJson;
use judge::store::rusqlite::{params, Connection};
use judge::store::{
    self, games::GameState, games::NewGame, history::HistoryKind, orders::NewOrder,
    password::PasswordHash, seats::NewSeat,
};
use judge::web::{publish_due, Site};

mod common;
use common::{movement_orders, Rng};

const PHASES: i64 = 20;
const GAMES: i64 = 1000;
const T0: i64 = 1_800_000_000;
const ONE_PHASE_TARGET_MS: f64 = 20.0;
const REBUILD_TARGET_S: f64 = 60.0;

fn main() {
    let root = std::env::temp_dir().join(format!("judge-webbench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).expect("the bench folder");
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(manifest.join("judge.toml"), root.join("judge.toml")).expect("judge.toml");
    println!(
        "web bench in {}; {} cores",
        root.display(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let config = Config::load(&root.join("judge.toml")).expect("judge.toml");
    // A fresh folder: the database is made here, as `judge init` would.
    let mut judge = Judge::open_or_create(config.clone()).expect("the judge");
    let site = Site::of(&config).expect("the page templates");
    let mut play = Play::new(&mut judge);
    let alone: Vec<f64> = (0..PHASES).map(|_| play.step(&mut judge, &site)).collect();
    report_pass("one phase's pages, a judge of 1 game", &alone);
    copy_game(judge.store.conn(), "web0000");
    let runs = std::env::var("WEBBENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3usize)
        .max(1);
    let rebuilds: Vec<f64> = (0..runs).map(|_| rebuild(&root)).collect();
    println!(
        "judge archive --rebuild, {GAMES} games of {PHASES} phases: median {:.1} s of {runs} (each: {}); goal <= {REBUILD_TARGET_S} s",
        median(rebuilds.clone()),
        rebuilds.iter().map(|s| format!("{s:.1}")).collect::<Vec<_>>().join(", ")
    );
    // The same pass among 1,000 published games: the top index lists them
    // all.
    let among: Vec<f64> = (0..5).map(|_| play.step(&mut judge, &site)).collect();
    report_pass("one phase's pages, a judge of 1,000 games", &among);
    if std::env::var_os("WEBBENCH_KEEP").is_none_or(|v| v == "0") {
        let _ = std::fs::remove_dir_all(&root);
    }
}

/// The game being played: `web0000`, its random orders, its clock.
struct Play {
    game_id: i64,
    rng: Rng,
    now: i64,
}

impl Play {
    fn new(judge: &mut Judge) -> Play {
        let hash = store::password::hash_password("bench-password").expect("argon2id");
        Play {
            game_id: new_game(judge, &hash),
            rng: Rng(0x00C0_FFEE_5EED),
            now: T0,
        }
    }

    /// Processes the current phase (random orders, a broadcast each
    /// spring), then times the web pass: milliseconds.
    fn step(&mut self, judge: &mut Judge, site: &Site) -> f64 {
        self.now += 3600;
        let (now, game_id) = (self.now, self.game_id);
        let code = judge.config.judge.code.clone();
        let tx = judge.store.transaction().expect("begin");
        let game = store::games::game_by_id(&tx, game_id)
            .expect("read")
            .expect("the game");
        assert_eq!(game.state, GameState::Active, "the game goes on");
        let cur = current(&tx, game_id).expect("read").expect("a phase");
        let phase = cur.position.phase;
        if phase.kind == PhaseKind::Movement {
            order_everyone(&tx, game_id, &cur.record.phase, &mut self.rng, now);
        }
        if phase.kind == PhaseKind::Movement && phase.season == Season::Spring {
            let body = format!(
                "Message from France to everyone:\n\n{} & <more>.",
                phase.year
            );
            let kind = HistoryKind::Broadcast;
            store::history::append_history(
                &tx,
                game_id,
                Some(&cur.record.phase),
                kind,
                "Press",
                &body,
                now,
            )
            .expect("press");
        }
        process(&tx, &judge.templates, &code, &game, now, true).expect("process");
        tx.commit().expect("commit");
        let start = Instant::now();
        let report = publish_due(judge.store.conn(), &judge.config.database_path(), site, now)
            .expect("the web pass");
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        assert!(report.failures.is_empty(), "{:?}", report.failures);
        assert_eq!(report.written.len(), 1, "one game written");
        ms
    }
}

/// `web0000`: seven seats, each power assigned, S1901M begun, active.
fn new_game(judge: &mut Judge, hash: &PasswordHash) -> i64 {
    let map = Map::standard();
    let settings = serde_json::to_string(&GameSettings::new(&judge.config.games)).expect("json");
    let tx = judge.store.transaction().expect("begin");
    let game = NewGame {
        name: "web0000",
        variant: "standard",
        settings: &settings,
        master_address: Some("gm@bench.example"),
        master_password: Some(hash),
        seed: 1,
    };
    let id = store::games::create_game(&tx, &game, T0).expect("create");
    for power in Power::ALL {
        let address = format!("{}@bench.example", power.upper().to_lowercase());
        let seat = NewSeat {
            game_id: id,
            power: None,
            address: &address,
            password: hash,
            status: store::seats::SeatStatus::Forming,
            preferences: None,
        };
        let seat = store::seats::add_seat(&tx, &seat, T0).expect("seat");
        store::seats::assign_power(&tx, seat, power.upper(), "S1901M").expect("power");
    }
    let start = judge::engine::position::Position::standard_start(map);
    let json = PositionJson::from_position(map, &start);
    store::phases::insert_phase(&tx, id, "S1901M", &json, Some(T0 + 3600), None, T0)
        .expect("phase");
    store::games::set_game_state(&tx, id, GameState::Active, T0).expect("active");
    tx.commit().expect("commit");
    id
}

/// A random legal order for every unit on the board.
fn order_everyone(tx: &Connection, game_id: i64, phase: &str, rng: &mut Rng, now: i64) {
    let map = Map::standard();
    let record = store::phases::phase_by_name(tx, game_id, phase)
        .expect("read")
        .expect("phase");
    let position = position_of(&record).expect("position");
    for power in Power::ALL {
        for order in movement_orders(map, &position, power, rng) {
            let text = order.short(map);
            let new = NewOrder {
                game_id,
                phase,
                power: power.upper(),
                unit: &order_key(map, &order, 0),
                written: &text,
                understood: &text,
                inbound_id: None,
            };
            store::orders::set_order(tx, &new, now).expect("order");
        }
    }
}

/// Copies the game `name` GAMES - 1 times (`web0001`, ...), every row
/// that makes its pages, inside SQLite.
fn copy_game(conn: &Connection, name: &str) {
    let start = Instant::now();
    let source: i64 = conn
        .query_row("SELECT id FROM games WHERE name = ?1", [name], |r| r.get(0))
        .expect("the game");
    let copies = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)";
    let statements = [
        "INSERT INTO games (id, name, variant, state, settings, master_address, \
         master_password_hash, seed, created_at) \
         SELECT 1000000 + i, printf('web%04d', i), variant, state, settings, master_address, \
         master_password_hash, seed, created_at FROM games, n WHERE id = ?1",
        "INSERT INTO seats (game_id, power, address, password_hash, status, joined_at) \
         SELECT 1000000 + i, power, address, password_hash, status, joined_at \
         FROM seats, n WHERE game_id = ?1",
        "INSERT INTO seat_history (game_id, power, address, from_phase, to_phase) \
         SELECT 1000000 + i, power, address, from_phase, to_phase FROM seat_history, n \
         WHERE game_id = ?1",
        "INSERT INTO phases (game_id, phase, seq, position, deadline, grace_until, started_at, \
         processed_at, results) \
         SELECT 1000000 + i, phase, seq, position, deadline, grace_until, started_at, \
         processed_at, results FROM phases, n WHERE game_id = ?1",
        "INSERT INTO orders (game_id, phase, power, unit, written, understood, received_at) \
         SELECT 1000000 + i, phase, power, unit, written, understood, received_at \
         FROM orders, n WHERE game_id = ?1",
        "INSERT INTO archive (game_id, phase, kind, subject, body, created_at) \
         SELECT 1000000 + i, phase, kind, subject, body, created_at FROM archive, n \
         WHERE game_id = ?1",
    ];
    conn.execute_batch("BEGIN").expect("begin");
    for sql in statements {
        conn.execute(&format!("{copies} {sql}"), params![source, GAMES - 1])
            .expect("copy");
    }
    conn.execute_batch("COMMIT").expect("commit");
    println!(
        "copied {name} {} times in {:.1} s",
        GAMES - 1,
        start.elapsed().as_secs_f64()
    );
}

/// One `judge archive --rebuild`: seconds; checks every game's pages.
fn rebuild(root: &Path) -> f64 {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_judge"))
        .arg("--config")
        .arg(root.join("judge.toml"))
        .args(["archive", "--rebuild"])
        .output()
        .expect("judge archive runs");
    let seconds = start.elapsed().as_secs_f64();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let www = root.join("var/www");
    for i in [0, 1, GAMES / 2, GAMES - 1] {
        let dir = www.join(format!("web{i:04}"));
        let pages = std::fs::read_dir(&dir)
            .expect("the game's folder")
            .filter(|e| {
                // A map per phase; board.svg is the position now.
                e.as_ref().is_ok_and(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    name.ends_with(".svg") && name != "board.svg"
                })
            })
            .count();
        assert_eq!(pages as i64, PHASES, "{}", dir.display());
    }
    let games = std::fs::read_dir(&www)
        .expect("www")
        .filter(|e| e.as_ref().is_ok_and(|e| e.path().is_dir()))
        .count();
    assert_eq!(games as i64, GAMES);
    println!("  rebuild: {seconds:.1} s");
    seconds
}

fn report_pass(what: &str, times: &[f64]) {
    println!(
        "{what} (the web pass after each of {} phases): median {:.2} ms, max {:.2} ms; goal <= {ONE_PHASE_TARGET_MS} ms",
        times.len(),
        median(times.to_vec()),
        times.iter().copied().fold(0.0, f64::max)
    );
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}
