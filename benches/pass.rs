//! The whole deadline pass as players wait for it: 1,000 games at one
//! deadline with every order in, and ONE `judge run --once --now
//! <deadline>` of a real judge binary, timed from its start to its exit —
//! processing, queueing, drawing the maps, writing the 8,000 results mails
//! to the Maildir outbox, writing the web pages — with the shipped
//! settings (maps and pages on) and with `[maps]` and `[web]` off. Several
//! binaries side by side, taking turns: `benches/against.sh c7b7133 pass`
//! gives it the November build's and this tree's.
//!
//! The state is built once, by mail, with the FIRST binary given (the
//! oldest: every later build migrates its database on opening, so one
//! state serves all): into a Maildir inbox go, for each game, `CREATE
//! ?passNNNN` from its Master and seven `SIGNON ?passNNNN <password>`
//! (the seventh starts the game: powers by lot, S1901M, every seat an
//! argon2id hash), handled by one `judge run --once`; then from each seat's
//! address `SIGNON <initial><game> <password>` and one legal order for each
//! of its units, drawn by a seeded generator (hold, move to a neighbour,
//! support a neighbour's hold: `common::movement_orders`), handled by a
//! second `judge run --once` five minutes before the deadline. So every
//! game stands at the opening (S1901M, the standard position) with its own
//! random orders; the games are not played on first (that would take
//! another 7,000 argon2id checks a phase by mail). Cached in
//! `target/pass/n<games>-seed<seed>-<builder>/` (the builder named by a
//! hash of its binary): a later run starts from there.
//!
//! Each run, for each binary and case: the state copied to a fresh
//! folder with the case's `judge.toml`; not timed, `judge check` (a newer
//! build migrates the database there) and `judge run --once` 30 s before
//! the deadline (a tick as the service makes; the web pages caught up, as
//! they are on a judge that has been running); the outbox emptied. Then
//! timed: `judge run --once --now <deadline>`, its log (`RUST_LOG=info`)
//! read as it comes. The parts are those the judge logs in words:
//! `clock: processed 1000 phases in 1.21 s, queued 8000 mails in 0.40 s,
//! committed in 0.05 s`, `sent 8000 mails in 9.1 s`, `drew 1000 pictures
//! for 8000 mails in 6.2 s`, `web archive: wrote 1000 game(s), ... in
//! 1.3 s`. A build that does not log them (c7b7133) is split where its
//! clock's line arrives: before it (start-up, the tick, the queueing),
//! after it (sending, exit). A build without maps or pages (its
//! configuration refuses `[maps]`) runs the second case only.
//!
//! Then the cold intake (`pass/intake.rs`): the same 9,800 order mails
//! through one `judge run --once` of each binary.
//!
//! Checked each run: the pass exits 0; the outbox holds at least 8 mails
//! per game (seven players and the Master: the results); printed, the
//! outbox's bytes and its largest mail.
//!
//! `cargo bench --bench pass [-- <judge> ...]` (default: this tree's
//! release `judge`); a binary may be given as `label=path`. Environment:
//! `PASSBENCH_GAMES` (1000; 0 skips the pass), `PASSBENCH_INTAKE_GAMES`
//! (100, for the cold intake below; 0 skips it), `PASSBENCH_SEED` (1),
//! `PASSBENCH_RUNS` (3), `PASSBENCH_MAPS` (1; 0 runs the case without
//! maps and pages only), `PASSBENCH_WRAP` (a command the timed `judge
//! run` runs under, see [`timed_command`]),
//! `PASSBENCH_DIR` (where the state and runs live, default
//! `target/pass`).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use judge::engine::map::{Map, Power};
use judge::interchange::PositionJson;
use judge::store::rusqlite::{Connection, OpenFlags};

mod common;
use common::{movement_orders, Rng};
#[path = "pass/intake.rs"]
mod intake;

/// When the games are made (unix seconds); the first deadline is 72 hours on.
const T0: i64 = 1_800_000_000;
/// Mails of the results per game: seven players and the Master.
const RESULTS_PER_GAME: usize = 8;

/// A judge binary under test.
pub struct Binary {
    pub label: String,
    pub path: PathBuf,
}

/// One timed pass: the case, the wall time, the parts found in the log.
struct Pass {
    binary: usize,
    maps_and_pages: bool,
    wall: f64,
    parts: Parts,
    outbox_mails: usize,
    outbox_bytes: u64,
    largest_mail: u64,
}

/// The parts of a pass, in seconds, as far as the judge's log tells them.
#[derive(Default, Clone)]
struct Parts {
    process: Option<f64>,
    queue: Option<f64>,
    commit: Option<f64>,
    send: Option<f64>,
    draw: Option<f64>,
    pages: Option<f64>,
    /// For builds that do not time their parts: from the start to the
    /// clock's line, and from it to the exit.
    until_clock: Option<f64>,
    after_clock: Option<f64>,
}

fn main() {
    let games = env_usize("PASSBENCH_GAMES", 1000);
    let seed = env_usize("PASSBENCH_SEED", 1) as u64;
    let runs = env_usize("PASSBENCH_RUNS", 3).max(1);
    let root = std::env::var_os("PASSBENCH_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("target/pass"),
        PathBuf::from,
    );
    let binaries = binaries();
    println!(
        "pass bench: {games} games, seed {seed}, {runs} run(s); {} cores; load {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load_average()
    );
    for b in &binaries {
        println!("  {}: {}", b.label, b.path.display());
    }
    if games > 0 {
        whole_pass(&root, &binaries, games, seed, runs);
    }
    let intake_games = env_usize("PASSBENCH_INTAKE_GAMES", 100);
    if intake_games > 0 {
        intake::bench(&root, &binaries, intake_games, seed, runs);
    }
    let _ = std::fs::remove_dir_all(root.join(SET_ASIDE));
}

/// Where each run's folder goes when it is done, deleted at the end of the
/// bench: ext4 allocates a new file's inode by skipping the inodes freed
/// in the last minutes, so 8,000 mail files deleted just before a timed
/// pass cost its 8,000 new ones a second or more of kernel time (0.16 s
/// with nothing freed), and only the runs that followed a deletion paid.
const SET_ASIDE: &str = "set-aside";

/// Moves a finished run's folder out of the way, not deleted yet (see
/// [`SET_ASIDE`]).
pub fn set_aside(root: &Path, dir: &Path) {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let aside = root.join(SET_ASIDE);
    std::fs::create_dir_all(&aside).expect("the set-aside folder");
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let to = aside.join(format!("{}-{n}", std::process::id()));
    if std::fs::rename(dir, &to).is_err() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// The deadline pass of `games` games, each binary and case in turn.
fn whole_pass(root: &Path, binaries: &[Binary], games: usize, seed: u64, runs: usize) {
    let state = built_state(root, &binaries[0], games, seed);
    let deadline = read_deadline(&state);
    println!("state: {} (deadline {deadline})", state.display());
    let maps_case = env_usize("PASSBENCH_MAPS", 1) != 0;
    let cases: Vec<(usize, bool)> = (0..binaries.len())
        .flat_map(|b| {
            let both = maps_case && has_maps(&binaries[b], root);
            [(b, true), (b, false)]
                .into_iter()
                .filter(move |(_, on)| both || !on)
        })
        .collect();
    let mut passes = Vec::new();
    for run in 1..=runs {
        for &(b, on) in &cases {
            let pass = timed_pass(root, &state, &binaries[b], b, on, deadline, games);
            print_pass(run, &binaries[b].label, &pass);
            passes.push(pass);
        }
    }
    print_summary(binaries, &cases, &passes);
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The binaries named on the command line (cargo's `--bench` left out),
/// or this tree's.
fn binaries() -> Vec<Binary> {
    let named: Vec<Binary> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .map(|a| match a.split_once('=') {
            Some((label, path)) => Binary {
                label: label.to_string(),
                path: PathBuf::from(path),
            },
            None => Binary {
                label: a.clone(),
                path: PathBuf::from(&a),
            },
        })
        .collect();
    if !named.is_empty() {
        return named;
    }
    vec![Binary {
        label: "this tree".to_string(),
        path: PathBuf::from(env!("CARGO_BIN_EXE_judge")),
    }]
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split(' ').take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

// --- The configuration ------------------------------------------------------

/// A `judge.toml` every build since c7b7133 reads; with `[maps]` and
/// `[web]` (on or off) for builds that have them.
pub fn config(maps: Option<bool>) -> String {
    let mut text = String::from(
        "[judge]\ncode = \"JDG\"\naddress = \"judge@localhost\"\nname = \"Diplomacy Judge\"\n\
         [store]\npath = \"var/judge.db\"\n\
         [games]\nmove_hours = 72\nretreat_hours = 24\nadjust_hours = 24\ngrace_hours = 24\n\
         [inbox]\nkind = \"maildir\"\npath = \"var/inbox\"\n\
         [outbox]\nkind = \"maildir\"\npath = \"var/outbox\"\n\
         [clock]\nreminder_hours = 24\nearly_minutes = 10\nlate_repeat_hours = 24\n\
         outage_minutes = 60\noutage_margin_hours = 24\ntick_seconds = 30\n",
    );
    if let Some(on) = maps {
        text.push_str(&format!(
            "[maps]\nenabled = {on}\n[web]\nenabled = {on}\npath = \"var/www\"\n"
        ));
    }
    text
}

/// Whether `binary` has maps and pages: its `judge check` does not
/// refuse `[maps]`.
pub fn has_maps(binary: &Binary, root: &Path) -> bool {
    let dir = root.join("probe");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the probe folder");
    std::fs::write(dir.join("judge.toml"), config(Some(true))).expect("write judge.toml");
    let out = Command::new(&binary.path)
        .arg("--config")
        .arg(dir.join("judge.toml"))
        .arg("check")
        .output()
        .expect("run judge check");
    let said = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    let _ = std::fs::remove_dir_all(&dir);
    out.status.success() || !said.contains("maps")
}

/// `judge --config <dir>/judge.toml <args...>`, its log at info; panics
/// with the log if it fails.
pub fn judge(binary: &Path, dir: &Path, args: &[&str]) -> String {
    let out = Command::new(binary)
        .arg("--config")
        .arg(dir.join("judge.toml"))
        .args(args)
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .output()
        .expect("start the judge");
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "judge {args:?} in {} failed:\n{}",
        dir.display(),
        tail(&log)
    );
    log
}

pub fn tail(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

pub fn rfc3339(t: i64) -> String {
    chrono::DateTime::from_timestamp(t, 0)
        .expect("a time")
        .to_rfc3339()
}

// --- The state, built once by mail --------------------------------------------

/// The folder holding the judge state for `games` and `seed` built by
/// `builder`: reused when complete, else built now.
fn built_state(root: &Path, builder: &Binary, games: usize, seed: u64) -> PathBuf {
    let dir = root.join(format!(
        "n{games}-seed{seed}-{}",
        file_fingerprint(&builder.path)
    ));
    if dir.join("complete").exists() {
        return dir;
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "building the state with {} (once; cached in {})",
        builder.label,
        dir.display()
    );
    let started = Instant::now();
    std::fs::create_dir_all(&dir).expect("the state folder");
    let mut inbox = make_games(&builder.path, &dir, games);
    let deadline = read_deadline(&dir);
    let seats = read_seats(&dir, games);
    let mut rng = Rng(0x9A55_BE4C_0000_0001 ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    for seat in &seats {
        let orders: Vec<String> =
            movement_orders(Map::standard(), &seat.position, seat.power, &mut rng)
                .iter()
                .map(|o| o.short(Map::standard()))
                .collect();
        let initial = seat.power.upper().chars().next().expect("a name");
        let body = format!(
            "SIGNON {initial}{} {}\n{}",
            seat.game,
            password(seat.g, seat.k),
            orders.join("\n")
        );
        inbox.deliver(&player(seat.g, seat.k), "orders", &body);
    }
    // Five minutes before the deadline: not yet due early (ten minutes
    // after the last order), and within the outage margin of the pass.
    let orders_at = deadline - 300;
    judge(
        &builder.path,
        &dir,
        &["run", "--once", "--now", &rfc3339(orders_at)],
    );
    let ordered = count(&dir, "SELECT count(*) FROM orders");
    assert_eq!(ordered as usize, games * 22, "every unit ordered");
    empty_outbox(&dir);
    std::fs::write(dir.join("complete"), format!("{deadline}\n")).expect("mark complete");
    println!("built in {:.0} s", started.elapsed().as_secs_f64());
    dir
}

/// `games` games made and started by mail in `dir` (a new judge
/// folder) by `binary`, at T0: its inbox, for more mail.
pub fn make_games(binary: &Path, dir: &Path, games: usize) -> Inbox {
    std::fs::write(dir.join("judge.toml"), config(None)).expect("write judge.toml");
    let mut inbox = Inbox::new(dir);
    for g in 0..games {
        let game = game_name(g);
        inbox.deliver(
            &master(g),
            "new game",
            &format!("CREATE ?{game} gm{g}pw standard"),
        );
        for k in 0..7 {
            let body = format!("SIGNON ?{game} {}", password(g, k));
            inbox.deliver(&player(g, k), "join", &body);
        }
    }
    judge(binary, dir, &["run", "--once", "--now", &rfc3339(T0)]);
    inbox
}

/// A short name for a binary's contents: a hash of its bytes.
pub fn file_fingerprint(path: &Path) -> String {
    use std::hash::{Hash, Hasher};
    let bytes = std::fs::read(path).expect("read the builder binary");
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.len().hash(&mut h);
    bytes.hash(&mut h);
    format!("{:016x}", h.finish())[..12].to_string()
}

fn game_name(g: usize) -> String {
    format!("pass{g:04}")
}

fn master(g: usize) -> String {
    format!("gm.{}@masters.example", game_name(g))
}

pub fn player(g: usize, k: usize) -> String {
    format!("player{k}.{}@players.example", game_name(g))
}

pub fn password(g: usize, k: usize) -> String {
    format!("pw{g}x{k}seat")
}

/// The Maildir inbox of a judge folder, mails named in delivery order
/// (the judge reads `new/` sorted by name: oldest first).
pub struct Inbox {
    new: PathBuf,
    n: usize,
}

impl Inbox {
    fn new(dir: &Path) -> Inbox {
        for sub in ["new", "cur", "tmp"] {
            std::fs::create_dir_all(dir.join("var/inbox").join(sub)).expect("the inbox");
        }
        Inbox {
            new: dir.join("var/inbox/new"),
            n: 0,
        }
    }

    fn deliver(&mut self, from: &str, subject: &str, body: &str) {
        // Message-IDs unique across every inbox of the process: a judge
        // ignores a second delivery of a stored mail (the intake's state
        // holds the joining mails this process may just have made).
        static DELIVERED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let unique = DELIVERED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.n += 1;
        let id = format!("{:08}.pass{}u{unique}", self.n, std::process::id());
        let mut raw = format!(
            "From: {from}\r\nTo: judge@localhost\r\nSubject: {subject}\r\n\
             Message-ID: <{id}@players.example>\r\nDate: Thu, 1 Jan 2026 00:00:00 +0000\r\n\
             MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        );
        for line in body.lines() {
            raw.push_str(line);
            raw.push_str("\r\n");
        }
        std::fs::write(self.new.join(format!("{id}.host")), raw).expect("deliver");
    }
}

/// A seat of a started game, read from the database.
pub struct Seat {
    pub g: usize,
    pub k: usize,
    pub game: String,
    pub power: Power,
    pub position: judge::engine::position::Position,
}

fn open_database(dir: &Path) -> Connection {
    Connection::open_with_flags(dir.join("var/judge.db"), OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("open the database")
}

/// Every seat of every game with its power and its game's position (SQL
/// on the tables every build since c7b7133 has alike).
pub fn read_seats(dir: &Path, games: usize) -> Vec<Seat> {
    let conn = open_database(dir);
    let mut stmt = conn
        .prepare(
            "SELECT g.name, s.power, s.address, p.position FROM seats s
             JOIN games g ON g.id = s.game_id
             JOIN phases p ON p.game_id = g.id AND p.processed_at IS NULL
             WHERE s.power IS NOT NULL ORDER BY g.name, s.power",
        )
        .expect("prepare");
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
            ))
        })
        .expect("query")
        .map(|r| r.expect("row"));
    let mut seats = Vec::new();
    for (game, power, address, position) in rows {
        let g = game["pass".len()..].parse().expect("a bench game");
        let k = address["player".len()..address.find('.').expect("a dot")]
            .parse()
            .expect("a bench player");
        let json: PositionJson = serde_json::from_str(&position).expect("position JSON");
        seats.push(Seat {
            g,
            k,
            game,
            power: Power::ALL
                .into_iter()
                .find(|p| p.upper() == power)
                .expect("a power"),
            position: json.to_position(Map::standard()).expect("a position"),
        });
    }
    assert_eq!(seats.len(), games * 7, "every game started");
    seats
}

/// The games' common deadline.
pub fn read_deadline(dir: &Path) -> i64 {
    let conn = open_database(dir);
    let (first, last): (i64, i64) = conn
        .query_row(
            "SELECT min(deadline), max(deadline) FROM phases WHERE processed_at IS NULL",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("the deadlines");
    assert_eq!(first, last, "one deadline for every game");
    first
}

fn count(dir: &Path, sql: &str) -> i64 {
    open_database(dir)
        .query_row(sql, [], |r| r.get(0))
        .expect("count")
}

fn empty_outbox(dir: &Path) {
    for sub in ["new", "cur", "tmp"] {
        let d = dir.join("var/outbox").join(sub);
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("the outbox");
    }
}

// --- One timed pass -------------------------------------------------------------

/// `state`'s database copied to a fresh folder `root/name` with a
/// `judge.toml` of maps and pages on or off (as `binary` knows them), its
/// Maildir inbox, and `judge check` run there (a newer binary migrates
/// the database then, untimed): the folder and its inbox.
pub fn fresh_copy(
    root: &Path,
    name: &str,
    state: &Path,
    binary: &Binary,
    maps_and_pages: bool,
) -> (PathBuf, Inbox) {
    let dir = root.join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("var")).expect("the run folder");
    for file in ["judge.db", "judge.db-wal", "judge.db-shm"] {
        let from = state.join("var").join(file);
        if from.exists() {
            std::fs::copy(&from, dir.join("var").join(file)).expect("copy the database");
        }
    }
    let maps = has_maps(binary, root).then_some(maps_and_pages);
    std::fs::write(dir.join("judge.toml"), config(maps)).expect("write judge.toml");
    let inbox = Inbox::new(&dir);
    judge(&binary.path, &dir, &["check"]);
    (dir, inbox)
}

/// The state copied to a fresh folder, caught up untimed, then the one
/// pass at the deadline timed.
fn timed_pass(
    root: &Path,
    state: &Path,
    binary: &Binary,
    index: usize,
    maps_and_pages: bool,
    deadline: i64,
    games: usize,
) -> Pass {
    let (dir, _) = fresh_copy(root, "run", state, binary, maps_and_pages);
    judge(
        &binary.path,
        &dir,
        &["run", "--once", "--now", &rfc3339(deadline - 30)],
    );
    empty_outbox(&dir);
    let (wall, parts) = run_and_read_log(&binary.path, &dir, deadline);
    let (outbox_mails, outbox_bytes, largest_mail) = outbox_size(&dir);
    assert!(
        outbox_mails >= games * RESULTS_PER_GAME,
        "{}: {outbox_mails} mails in the outbox, not the {} results",
        binary.label,
        games * RESULTS_PER_GAME
    );
    set_aside(root, &dir);
    Pass {
        binary: index,
        maps_and_pages,
        wall,
        parts,
        outbox_mails,
        outbox_bytes,
        largest_mail,
    }
}

/// The timed command: `binary`, or, with `PASSBENCH_WRAP` set, that
/// command line (words split on spaces) with `binary` after it, `%w` in
/// it replaced by `what` and a number (e.g. `valgrind --tool=callgrind
/// --callgrind-out-file=/tmp/%w.out` for the instructions of each pass).
pub fn timed_command(binary: &Path, what: &str) -> Command {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let Ok(wrap) = std::env::var("PASSBENCH_WRAP") else {
        return Command::new(binary);
    };
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let words: Vec<String> = wrap
        .split_whitespace()
        .map(|w| w.replace("%w", &format!("{what}-{n}")))
        .collect();
    let mut command = Command::new(&words[0]);
    command.args(&words[1..]).arg(binary);
    command
}

/// Starts `judge run --once --now <at>` in `dir` (timed under `tag` when
/// PASSBENCH_WRAP is set), its log at info level piped: the process and
/// its log to read as it comes.
pub fn start_run(
    binary: &Path,
    tag: &str,
    dir: &Path,
    at: i64,
) -> (std::process::Child, std::process::ChildStderr) {
    let mut child = timed_command(binary, tag)
        .arg("--config")
        .arg(dir.join("judge.toml"))
        .args(["run", "--once", "--now", &rfc3339(at)])
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start judge run");
    let stderr = child.stderr.take().expect("the log");
    (child, stderr)
}

/// Runs `judge run --once --now <at>`, reading its log as it comes;
/// the wall time and the parts.
fn run_and_read_log(binary: &Path, dir: &Path, at: i64) -> (f64, Parts) {
    let started = Instant::now();
    let (mut child, stderr) = start_run(binary, "pass", dir, at);
    let mut parts = Parts::default();
    let mut log = String::new();
    for line in BufReader::new(stderr).lines() {
        let line = line.expect("a log line");
        read_part(&line, started.elapsed().as_secs_f64(), &mut parts);
        log.push_str(&line);
        log.push('\n');
    }
    let status = child.wait().expect("wait for judge run");
    let wall = started.elapsed().as_secs_f64();
    assert!(status.success(), "the pass failed:\n{}", tail(&log));
    if let Some(at) = parts.until_clock {
        parts.after_clock = Some(wall - at);
    }
    (wall, parts)
}

/// What a log line says of the parts (`at`: when it came).
fn read_part(line: &str, at: f64, parts: &mut Parts) {
    // c7b7133 says "clock: TickReport { processed: [...] ... }".
    if line.contains("clock: ") && line.contains("processed") && parts.until_clock.is_none() {
        parts.until_clock = Some(at);
    }
    if let Some(rest) = after(line, "clock: processed ") {
        if rest.contains(" phases in ") || rest.starts_with("1 phase in ") {
            parts.process = seconds_after(rest, " in ");
            parts.queue = rest
                .find("queued ")
                .and_then(|i| seconds_after(&rest[i..], " in "));
            parts.commit = seconds_after(rest, "committed in ");
        }
    }
    if let Some(rest) = after(line, "] sent ") {
        parts.send = seconds_after(rest, " in ");
    }
    if let Some(rest) = after(line, "] drew ") {
        parts.draw = seconds_after(rest, " in ");
    }
    if let Some(rest) = after(line, "web archive: wrote ") {
        parts.pages = seconds_after(rest, " in ");
    }
}

fn after<'a>(line: &'a str, marker: &str) -> Option<&'a str> {
    line.find(marker).map(|i| &line[i + marker.len()..])
}

/// The number of seconds in `text` after the first `marker`: "in 1.23 s".
fn seconds_after(text: &str, marker: &str) -> Option<f64> {
    let rest = after(text, marker)?;
    let number = rest.split(' ').next()?;
    rest[number.len()..]
        .starts_with(" s")
        .then(|| number.parse().ok())
        .flatten()
}

/// The outbox's mails: how many, their bytes, the largest.
fn outbox_size(dir: &Path) -> (usize, u64, u64) {
    let mut n = 0;
    let mut bytes = 0;
    let mut largest = 0;
    for entry in std::fs::read_dir(dir.join("var/outbox/new")).expect("the outbox") {
        let len = entry.expect("an entry").metadata().expect("metadata").len();
        n += 1;
        bytes += len;
        largest = largest.max(len);
    }
    (n, bytes, largest)
}

// --- Printing -------------------------------------------------------------------

fn case_name(maps_and_pages: bool) -> &'static str {
    match maps_and_pages {
        true => "maps+pages",
        false => "no maps/pages",
    }
}

fn print_pass(run: usize, label: &str, pass: &Pass) {
    println!(
        "run {run}: {label}, {}: {:.2} s; {}; outbox {} mails, {:.0} MB, largest {:.0} KB",
        case_name(pass.maps_and_pages),
        pass.wall,
        parts_text(&pass.parts),
        pass.outbox_mails,
        pass.outbox_bytes as f64 / 1e6,
        pass.largest_mail as f64 / 1e3
    );
}

fn parts_text(p: &Parts) -> String {
    let named = [
        ("process", p.process),
        ("queue", p.queue),
        ("commit", p.commit),
        ("send", p.send),
        ("of it drawing", p.draw),
        ("pages", p.pages),
    ];
    let said: Vec<String> = named
        .iter()
        .filter_map(|(name, s)| s.map(|s| format!("{name} {s:.2} s")))
        .collect();
    if !said.is_empty() {
        return said.join(", ");
    }
    match (p.until_clock, p.after_clock) {
        (Some(a), Some(b)) => format!("until the clock's line {a:.2} s, after it {b:.2} s"),
        _ => "no parts in the log".to_string(),
    }
}

pub fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

fn print_summary(binaries: &[Binary], cases: &[(usize, bool)], passes: &[Pass]) {
    println!();
    println!("medians (each run's wall time; parts as the judge logs them):");
    let mut medians = Vec::new();
    for &(b, on) in cases {
        let mine: Vec<&Pass> = passes
            .iter()
            .filter(|p| p.binary == b && p.maps_and_pages == on)
            .collect();
        let pick = |f: &dyn Fn(&Parts) -> Option<f64>| {
            median(mine.iter().filter_map(|p| f(&p.parts)).collect())
        };
        let parts = Parts {
            process: pick(&|p| p.process),
            queue: pick(&|p| p.queue),
            commit: pick(&|p| p.commit),
            send: pick(&|p| p.send),
            draw: pick(&|p| p.draw),
            pages: pick(&|p| p.pages),
            until_clock: pick(&|p| p.until_clock),
            after_clock: pick(&|p| p.after_clock),
        };
        let wall = median(mine.iter().map(|p| p.wall).collect()).unwrap_or(0.0);
        let each: Vec<String> = mine.iter().map(|p| format!("{:.2}", p.wall)).collect();
        let bytes = mine.iter().map(|p| p.outbox_bytes).max().unwrap_or(0);
        let largest = mine.iter().map(|p| p.largest_mail).max().unwrap_or(0);
        println!(
            "pass/{}/{}: median {wall:.2} s ({}); {}; outbox {:.0} MB, largest mail {:.0} KB",
            binaries[b].label,
            case_name(on),
            each.join(", "),
            parts_text(&parts),
            bytes as f64 / 1e6,
            largest as f64 / 1e3
        );
        medians.push((b, on, wall));
    }
    let off: Vec<&(usize, bool, f64)> = medians.iter().filter(|m| !m.1).collect();
    if let (Some(first), true) = (off.first(), off.len() > 1) {
        for m in &off[1..] {
            println!(
                "ratio, no maps/pages: {} / {} = {:.2}x",
                binaries[m.0].label,
                binaries[first.0].label,
                m.2 / first.2
            );
        }
    }
}
