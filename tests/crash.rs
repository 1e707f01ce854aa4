//! Crash tests of `judge run`, black-box with the real binary on the
//! embedded Maildir default (`judge init`).
//!
//! A seeded generator plays ~10 games by mail: the games are created, seven
//! players sign on to each, every power orders every phase (some correct
//! their orders in a later mail) and the Master processes each phase with
//! `PROCESS`. The orders are drawn from the real position (the generator
//! adjudicates with the engine as the judge will), so every order is valid
//! and the final order set of every power is known. The 1,000 mails,
//! interleaved between the games, go into `var/inbox/new/` a few at a time
//! while `judge run` is killed with SIGKILL and restarted, again and again:
//! half the lives end after a random few to few thousand milliseconds, the
//! other half at a kill point aimed at a dangerous window — a mail stored
//! but not handled, handled but not yet let go by the inbox, written to the
//! outbox but not marked sent — where the test holds the database's write
//! lock so that the judge stops inside the window until the kill. Each
//! window must be hit at least 10 times (kills counted only for mails of
//! the life they end). After the last, clean run (stopped by SIGTERM, exit
//! 0), the state is checked against the generator and against a reference
//! judge that handled the same mails without a crash:
//!
//! - every inbound mail stored once and handled; the inbox's `new/` empty;
//! - every order stored once, each power's set the last given;
//! - every phase processed once: the sequence contiguous, results present,
//!   positions, orders and results identical to the reference;
//! - every queued mail sent, the same mails as the reference queued; the
//!   outbox holding each at least once, a second copy only as a
//!   byte-identical resend, one per kill that fell between handing a mail
//!   over and marking it sent.
//!
//! Also: SIGTERM while mail is being handled (exit 0 promptly, nothing
//! half-written; a later run, stopped by SIGINT, finishes the work), and
//! the mail server down for a simulated hour, driven by `judge run --once
//! --now`: an SMTP server (in the test) that refuses connections, and a
//! `sendmail` that fails. The mail waits in the queue, the attempts and
//! errors recorded, and goes out once the server is back: nothing lost,
//! nothing twice.
//!
//! `CRASH_SEED=<n>` replays a run with another seed.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use judge::engine::adjudicate::adjudicate;
use judge::engine::adjustment::builds_possible;
use judge::engine::map::{Location, Map, Power, UnitType};
use judge::engine::order::{Order, OrderKind};
use judge::engine::parse::parse_order;
use judge::engine::phase::PhaseKind;
use judge::engine::position::Position;
use judge::game::orders::order_key;
use judge::interchange::PositionJson;
use judge::store::rusqlite::config::DbConfig;
use judge::store::rusqlite::{Connection, OpenFlags};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_judge");

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

fn seed() -> u64 {
    std::env::var("CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x00C0_FFEE)
}

// The scenario: the mails and what they must lead to ------------------------

/// What a mail does, as far as the checks care.
#[derive(Clone, Debug)]
enum Effect {
    /// Creating the game, signing on: no orders, no phase.
    Setup,
    /// Orders for a phase, by unit key: the short form.
    Orders {
        phase: String,
        power: Power,
        orders: Vec<(String, String)>,
    },
    /// The Master's PROCESS of a phase.
    Process,
}

#[derive(Clone, Debug)]
struct GenMail {
    from: String,
    subject: String,
    body: String,
    effect: Effect,
}

/// One mail as delivered: its file name in `new/`, bytes and Message-ID.
#[derive(Clone, Debug)]
struct Delivery {
    file: String,
    raw: Vec<u8>,
    /// Without the angle brackets, as the store keeps it.
    message_id: String,
    /// A second copy of an earlier mail (same Message-ID, same bytes).
    duplicate: bool,
}

/// What the mails of one game lead to.
#[derive(Clone, Debug, Default)]
struct ExpectedGame {
    name: String,
    /// The phases stored: every processed one and the current one.
    phases: Vec<(String, Value)>,
    /// (phase, power) -> unit key -> (understood, Message-ID of the mail).
    orders: BTreeMap<(String, String), BTreeMap<String, (String, String)>>,
    /// How many order mails and corrections the game got.
    order_mails: usize,
    corrections: usize,
}

#[derive(Clone, Debug)]
struct Scenario {
    mails: Vec<Delivery>,
    games: Vec<ExpectedGame>,
}

impl Scenario {
    fn distinct_ids(&self) -> BTreeSet<String> {
        self.mails.iter().map(|m| m.message_id.clone()).collect()
    }
}

fn player_address(game: &str, power: Power) -> String {
    format!(
        "{}.{game}@players.example",
        power.name().to_ascii_lowercase()
    )
}

fn master_address(game: &str) -> String {
    format!("gm.{game}@masters.example")
}

/// One game's mails in the order they are sent, from its creation through
/// `phases` processed phases (the orders drawn from the real position).
fn generate_game(rng: &mut Rng, name: &str, phases: usize) -> (Vec<GenMail>, Vec<Position>) {
    let map = Map::standard();
    let master = master_address(name);
    let mpw = format!("gm-{name}-pw");
    let pw = |p: Power| format!("pw-{}-{name}", p.initial().to_ascii_lowercase());
    let mut mails = vec![GenMail {
        from: master.clone(),
        subject: format!("new game {name}"),
        body: format!("CREATE ?{name} {mpw}\n"),
        effect: Effect::Setup,
    }];
    let mut joiners = Power::ALL.to_vec();
    rng.shuffle(&mut joiners);
    for p in joiners {
        mails.push(GenMail {
            from: player_address(name, p),
            subject: "joining".to_string(),
            body: format!("SIGNON ?{name} {}\nSET PREFERENCE {}\n", pw(p), p.initial()),
            effect: Effect::Setup,
        });
    }
    let mut pos = Position::standard_start(map);
    let mut positions = vec![pos.clone()];
    for _ in 0..phases {
        let phase = pos.phase.to_string();
        // Each power with something to do: a first mail with all its
        // orders, and perhaps a correction later.
        let mut firsts = Vec::new();
        let mut corrections = Vec::new();
        let mut finals: BTreeMap<Power, BTreeMap<String, Order>> = BTreeMap::new();
        let mut powers = Power::ALL.to_vec();
        rng.shuffle(&mut powers);
        for power in powers {
            let orders = draw_orders(rng, map, &pos, power);
            if orders.is_empty() {
                continue;
            }
            let (lines, orders) = written(rng, map, &pos, power, &orders);
            let set = finals.entry(power).or_default();
            for o in &orders {
                set.insert(order_key(map, o, 0), *o);
            }
            firsts.push(order_mail(name, power, &pw(power), &phase, &lines, &orders));
            if pos.phase.kind == PhaseKind::Movement && rng.chance(0.35) {
                // A change of mind about one or two units.
                let mut mine = orders.clone();
                rng.shuffle(&mut mine);
                let n = 1 + rng.below(2.min(mine.len()));
                let changed: Vec<Order> = mine[..n]
                    .iter()
                    .map(|o| other_order(rng, map, &pos, o))
                    .collect();
                let (lines, changed) = written(rng, map, &pos, power, &changed);
                corrections.push((
                    power,
                    changed.clone(),
                    order_mail(name, power, &pw(power), &phase, &lines, &changed),
                ));
            }
        }
        // The corrections come after the first mails (in a random order
        // among the rest): the later mail wins.
        let mut all = firsts;
        for (power, changed, mail) in corrections {
            let set = finals.entry(power).or_default();
            for o in &changed {
                set.insert(order_key(map, o, 0), *o);
            }
            all.push(mail);
        }
        mails.extend(all);
        mails.push(GenMail {
            from: master.clone(),
            subject: format!("process {phase}"),
            body: format!("SIGNON M{name} {mpw}\nPROCESS\n"),
            effect: Effect::Process,
        });
        // As the judge will: every power's orders by unit key.
        let orders: Vec<Order> = Power::ALL
            .iter()
            .filter_map(|p| finals.get(p))
            .flat_map(|set| set.values().copied())
            .collect();
        pos = adjudicate(map, &pos, &orders).next;
        positions.push(pos.clone());
    }
    (mails, positions)
}

fn order_mail(
    name: &str,
    power: Power,
    password: &str,
    phase: &str,
    lines: &[String],
    orders: &[Order],
) -> GenMail {
    let map = Map::standard();
    GenMail {
        from: player_address(name, power),
        subject: format!("{phase} orders"),
        body: format!(
            "SIGNON {}{name} {password}\n{}\n",
            power.initial(),
            lines.join("\n")
        ),
        effect: Effect::Orders {
            phase: phase.to_string(),
            power,
            orders: orders
                .iter()
                .map(|o| (order_key(map, o, 0), o.short(map)))
                .collect(),
        },
    }
}

/// The orders as a player writes them (long or short form, some in lower
/// case), each read back through the judge's own parser: what the judge
/// will understand. Returns the lines and the orders as understood.
fn written(
    rng: &mut Rng,
    map: &Map,
    pos: &Position,
    power: Power,
    orders: &[Order],
) -> (Vec<String>, Vec<Order>) {
    let mut lines = Vec::new();
    let mut understood = Vec::new();
    for o in orders {
        let mut text = if rng.chance(0.6) {
            o.long(map)
        } else {
            o.short(map)
        };
        if rng.chance(0.2) {
            text = text.to_lowercase();
        }
        let read = parse_order(map, pos, power, &text)
            .unwrap_or_else(|e| panic!("the generator wrote {text:?}, which does not read: {e}"));
        assert_eq!(
            order_key(map, &read, 0),
            order_key(map, o, 0),
            "{text:?} read as another unit's order"
        );
        lines.push(text);
        understood.push(read);
    }
    (lines, understood)
}

fn loc_of(i: usize) -> Location {
    Location(i as u8)
}

/// Where a unit may move in one step.
fn moves(map: &Map, kind: UnitType, at: Location) -> Vec<Location> {
    match kind {
        UnitType::Army => map
            .army_neighbours(map.province_of(at))
            .iter()
            .map(loc_of)
            .collect(),
        UnitType::Fleet => map.fleet_neighbours(at).iter().map(loc_of).collect(),
    }
}

fn hold(o: &judge::engine::position::Unit) -> Order {
    Order::new(o.power, o.kind, o.location, OrderKind::Hold)
}

/// A complete, valid order set for `power` in `pos`; empty when it has
/// nothing to do.
fn draw_orders(rng: &mut Rng, map: &Map, pos: &Position, power: Power) -> Vec<Order> {
    match pos.phase.kind {
        PhaseKind::Movement => {
            let mine: Vec<_> = pos.units.iter().filter(|u| u.power == power).collect();
            let mut orders: Vec<Option<Order>> = vec![None; mine.len()];
            // Moves and holds first; then supports for them.
            for (i, u) in mine.iter().enumerate() {
                let r = rng.below(100);
                if r < 20 {
                    orders[i] = Some(hold(u));
                } else if r < 75 {
                    let to = *rng.pick(&moves(map, u.kind, u.location));
                    orders[i] = Some(Order::new(
                        power,
                        u.kind,
                        u.location,
                        OrderKind::Move {
                            to,
                            via_convoy: false,
                        },
                    ));
                }
            }
            for i in 0..mine.len() {
                if orders[i].is_some() {
                    continue;
                }
                let u = mine[i];
                let mut options = Vec::new();
                for (j, v) in mine.iter().enumerate() {
                    if j == i {
                        continue;
                    }
                    if let Some(Order {
                        kind: OrderKind::Move { to, .. },
                        ..
                    }) = orders[j]
                    {
                        let target = map.province_of(to);
                        if target != map.province_of(u.location)
                            && map.reaches(u.kind, u.location, target)
                        {
                            options.push(OrderKind::Support {
                                unit: v.kind,
                                from: map.province_of(v.location),
                                to: Some(target.location()),
                            });
                        }
                    }
                }
                for v in &pos.units {
                    let p = map.province_of(v.location);
                    if p != map.province_of(u.location) && map.reaches(u.kind, u.location, p) {
                        options.push(OrderKind::Support {
                            unit: v.kind,
                            from: p,
                            to: None,
                        });
                    }
                }
                orders[i] = Some(if options.is_empty() {
                    hold(u)
                } else {
                    Order::new(power, u.kind, u.location, *rng.pick(&options))
                });
            }
            orders.into_iter().map(|o| o.expect("ordered")).collect()
        }
        PhaseKind::Retreat => pos
            .dislodged
            .iter()
            .filter(|d| d.unit.power == power)
            .map(|d| {
                let kind = if !d.retreats.is_empty() && rng.chance(0.75) {
                    OrderKind::Retreat {
                        to: *rng.pick(&d.retreats),
                    }
                } else {
                    OrderKind::Disband
                };
                Order::new(power, d.unit.kind, d.unit.location, kind)
            })
            .collect(),
        PhaseKind::Adjustment => {
            let due = pos.adjustment_due(power);
            if due > 0 {
                let n = builds_possible(map, pos, power);
                let mut free: Vec<_> = pos.homes[power.index()]
                    .iter()
                    .copied()
                    .filter(|&p| pos.owner(p) == Some(power) && pos.unit_in(map, p).is_none())
                    .collect();
                rng.shuffle(&mut free);
                free.truncate(n);
                free.into_iter()
                    .map(|p| {
                        let at = p.location();
                        let kind = if map.can_stand(UnitType::Fleet, at) && rng.chance(0.4) {
                            UnitType::Fleet
                        } else {
                            UnitType::Army
                        };
                        Order::new(power, kind, at, OrderKind::Build)
                    })
                    .collect()
            } else if due < 0 {
                let mut mine: Vec<_> = pos.units.iter().filter(|u| u.power == power).collect();
                rng.shuffle(&mut mine);
                mine.truncate((-due) as usize);
                mine.into_iter()
                    .map(|u| Order::new(power, u.kind, u.location, OrderKind::Remove))
                    .collect()
            } else {
                Vec::new()
            }
        }
    }
}

/// Another order for the same unit (a movement phase): a hold, or a move
/// elsewhere.
fn other_order(rng: &mut Rng, map: &Map, pos: &Position, o: &Order) -> Order {
    let unit = pos
        .units
        .iter()
        .find(|u| u.location == o.location)
        .expect("the unit ordered");
    let mut options: Vec<Order> = moves(map, unit.kind, unit.location)
        .into_iter()
        .map(|to| {
            Order::new(
                o.power,
                unit.kind,
                unit.location,
                OrderKind::Move {
                    to,
                    via_convoy: false,
                },
            )
        })
        .collect();
    options.push(hold(unit));
    options.retain(|c| c != o);
    *rng.pick(&options)
}

fn raw_mail(from: &str, subject: &str, message_id: &str, body: &str) -> Vec<u8> {
    let body = body.replace('\n', "\r\n");
    format!(
        "From: {from}\r\nTo: Diplomacy Judge <judge@localhost>\r\nSubject: {subject}\r\n\
         Message-ID: <{message_id}>\r\nDate: Mon, 2 Nov 2026 12:00:00 +0000\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}"
    )
    .into_bytes()
}

/// `games` games' mails interleaved at random, cut to `total` mails, of
/// which `duplicates` are second deliveries of earlier ones.
fn scenario(seed: u64, games: usize, total: usize, duplicates: usize) -> Scenario {
    let mut rng = Rng::new(seed);
    let map = Map::standard();
    let mut lists = Vec::new();
    let mut positions = Vec::new();
    let names: Vec<String> = (0..games).map(|g| format!("crash{g}")).collect();
    for name in &names {
        let (mails, pos) = generate_game(&mut rng, name, 14);
        lists.push(mails);
        positions.push(pos);
    }
    let available: usize = lists.iter().map(Vec::len).sum();
    assert!(
        available >= total,
        "generate more phases: {available} mails"
    );
    // A random interleaving that keeps each game's own order.
    let mut next = vec![0usize; games];
    let mut order: Vec<(usize, usize)> = Vec::new();
    while order.len() < total - duplicates {
        let remaining: Vec<usize> = (0..games).filter(|&g| next[g] < lists[g].len()).collect();
        let weights: usize = remaining.iter().map(|&g| lists[g].len() - next[g]).sum();
        let mut r = rng.below(weights);
        let g = *remaining
            .iter()
            .find(|&&g| {
                let w = lists[g].len() - next[g];
                if r < w {
                    true
                } else {
                    r -= w;
                    false
                }
            })
            .expect("a game");
        order.push((g, next[g]));
        next[g] += 1;
    }
    let mut mails: Vec<Delivery> = Vec::new();
    let mut expected: Vec<ExpectedGame> = names
        .iter()
        .map(|n| ExpectedGame {
            name: n.clone(),
            ..Default::default()
        })
        .collect();
    let mut processed = vec![0usize; games];
    for (n, &(g, i)) in order.iter().enumerate() {
        let m = &lists[g][i];
        let message_id = format!("m{n:04}.{seed:x}@players.example");
        match &m.effect {
            Effect::Setup => {}
            Effect::Orders {
                phase,
                power,
                orders,
            } => {
                let e = &mut expected[g];
                let set = e
                    .orders
                    .entry((phase.clone(), power.upper().to_string()))
                    .or_default();
                if set.is_empty() {
                    e.order_mails += 1;
                } else {
                    e.corrections += 1;
                }
                for (key, short) in orders {
                    set.insert(key.clone(), (short.clone(), message_id.clone()));
                }
            }
            Effect::Process => processed[g] += 1,
        }
        mails.push(Delivery {
            file: String::new(),
            raw: raw_mail(&m.from, &m.subject, &message_id, &m.body),
            message_id,
            duplicate: false,
        });
    }
    // Second deliveries of some mails, somewhere after the first.
    for _ in 0..duplicates {
        let i = rng.below(mails.len());
        let mut copy = mails[i].clone();
        copy.duplicate = true;
        let at = i + 1 + rng.below(mails.len() - i);
        mails.insert(at, copy);
    }
    for (n, m) in mails.iter_mut().enumerate() {
        // Maildir names sort in delivery order.
        m.file = format!("{n:06}.M{n}P0.crashtest");
    }
    for (g, e) in expected.iter_mut().enumerate() {
        // The game starts with its eighth mail (the creation, seven sign-ons).
        if order.iter().filter(|(h, _)| *h == g).count() >= 8 {
            e.phases = positions[g][..=processed[g]]
                .iter()
                .map(|p| {
                    (
                        p.phase.to_string(),
                        serde_json::to_value(PositionJson::from_position(map, p)).unwrap(),
                    )
                })
                .collect();
        }
    }
    Scenario {
        mails,
        games: expected,
    }
}

// A judge in a temporary folder -------------------------------------------

struct TestDir {
    dir: PathBuf,
    keep: bool,
}

impl TestDir {
    /// `judge init <dir>`, then the clock made quick and never processing
    /// by itself while the test runs (the Master's PROCESS does it).
    fn init(name: &str) -> TestDir {
        let dir = std::env::temp_dir().join(format!("judge-crash-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let out = Command::new(BIN).arg("init").arg(&dir).output().unwrap();
        assert!(
            out.status.success(),
            "judge init: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let t = TestDir { dir, keep: false };
        t.edit_config(|c| {
            set_key(c, "tick_seconds", "1");
            set_key(c, "early_minutes", "100000");
            // A reminder goes out at whichever tick finds orders missing:
            // a matter of timing, which the comparisons leave out.
            set_key(c, "reminder_hours", "0");
            // No pictures: a results mail then goes out byte for byte as
            // queued (a picture is drawn when the mail is sent, which the
            // comparisons here do not model), and an unoptimised build
            // spends no seconds drawing while a test waits on a signal.
            set_key(c, "enabled", "false");
        });
        t
    }

    fn config(&self) -> PathBuf {
        self.dir.join("judge.toml")
    }

    fn edit_config(&self, f: impl FnOnce(&mut String)) {
        let mut text = fs::read_to_string(self.config()).unwrap();
        f(&mut text);
        fs::write(self.config(), text).unwrap();
    }

    fn inbox(&self, sub: &str) -> PathBuf {
        self.dir.join("var/inbox").join(sub)
    }

    fn outbox(&self, sub: &str) -> PathBuf {
        self.dir.join("var/outbox").join(sub)
    }

    fn log(&self) -> PathBuf {
        self.dir.join("run.log")
    }

    /// Delivers a mail the Maildir way: written into `tmp/`, renamed into
    /// `new/`.
    fn deliver(&self, m: &Delivery) {
        let tmp = self.inbox("tmp").join(&m.file);
        let mut f = fs::File::create(&tmp).unwrap();
        f.write_all(&m.raw).unwrap();
        fs::rename(&tmp, self.inbox("new").join(&m.file)).unwrap();
    }

    fn command(&self) -> Command {
        let mut c = Command::new(BIN);
        c.arg("--config").arg(self.config());
        c
    }

    /// `judge run` in the background, its log appended to `run.log`.
    fn spawn_run(&self) -> Child {
        let log = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.log())
            .unwrap();
        self.command()
            .arg("run")
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(log))
            .spawn()
            .expect("judge run starts")
    }

    /// `judge run --once [--now t]`, which must succeed.
    fn run_once(&self, now: Option<&str>) {
        let mut c = self.command();
        c.arg("run").arg("--once").env("RUST_LOG", "warn");
        if let Some(t) = now {
            c.arg("--now").arg(t);
        }
        let out = c.output().unwrap();
        assert!(
            out.status.success(),
            "judge run --once: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn db(&self) -> Connection {
        Connection::open_with_flags(
            self.dir.join("var/judge.db"),
            OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .unwrap()
    }

    fn count(&self, sql: &str) -> i64 {
        self.db().query_row(sql, [], |r| r.get(0)).unwrap()
    }

    fn files(dir: &Path) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        v.sort();
        v
    }

    /// All delivered mail taken in and handled, and nothing left to send.
    fn settled(&self) -> bool {
        if !Self::files(&self.inbox("new")).is_empty() {
            return false;
        }
        let db = self.db();
        let q = |sql: &str| -> i64 { db.query_row(sql, [], |r| r.get(0)).unwrap() };
        q("SELECT count(*) FROM inbound WHERE status = 'new'") == 0
            && q("SELECT count(*) FROM outbound WHERE sent_at IS NULL AND abandoned_at IS NULL")
                == 0
    }

    /// Starts `judge run`, waits until everything is done, stops it with
    /// `signal`; it must exit 0.
    fn run_to_completion(&self, signal: &str) {
        let mut child = self.spawn_run();
        let start = Instant::now();
        // Long enough for the signal handlers to be in place.
        std::thread::sleep(Duration::from_millis(300));
        while !self.settled() {
            assert!(
                start.elapsed() < Duration::from_secs(600),
                "judge run did not finish the work in 10 minutes"
            );
            if let Some(status) = child.try_wait().unwrap() {
                panic!(
                    "judge run stopped by itself ({status}); see {}",
                    self.log().display()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let (status, took) = stop(&mut child, signal);
        assert_eq!(
            status.code(),
            Some(0),
            "judge run after {signal}: {status}; see {}",
            self.log().display()
        );
        assert!(took < Duration::from_secs(5), "{signal} took {took:?}");
    }

    fn export(&self, game: &str) -> Value {
        let out = self.command().arg("export").arg(game).output().unwrap();
        assert!(
            out.status.success(),
            "judge export: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }
}

impl Drop for TestDir {
    fn drop(&mut self) {
        if std::thread::panicking() || self.keep {
            eprintln!("kept {} to look at", self.dir.display());
        } else {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

/// Sets `key = value` on the line that has the key (the shipped
/// `judge.toml` has every key).
fn set_key(config: &mut String, key: &str, value: &str) {
    let mut found = false;
    let lines: Vec<String> = config
        .lines()
        .map(|l| {
            if l.trim_start().starts_with(&format!("{key} "))
                || l.trim_start().starts_with(&format!("{key}="))
            {
                found = true;
                format!("{key} = {value}")
            } else {
                l.to_string()
            }
        })
        .collect();
    assert!(found, "judge.toml has no {key}");
    *config = lines.join("\n") + "\n";
}

/// Sends `signal` (TERM, INT) and waits for the exit; how long it took.
fn stop(child: &mut Child, signal: &str) -> (ExitStatus, Duration) {
    let start = Instant::now();
    let ok = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(ok.success(), "kill -{signal}");
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return (status, start.elapsed());
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "judge run ignored {signal} for 30 s"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The same mails handled by a judge that never crashes: `judge run
/// --once` with everything delivered.
fn reference(name: &str, s: &Scenario) -> TestDir {
    let r = TestDir::init(name);
    for m in &s.mails {
        r.deliver(m);
    }
    let start = Instant::now();
    r.run_once(None);
    assert!(r.settled(), "the reference run left work undone");
    eprintln!(
        "{name}: {} mails handled without a crash in {:.1} s",
        s.mails.len(),
        start.elapsed().as_secs_f64()
    );
    r
}

// Reading the outcome -----------------------------------------------------

/// The Message-ID header of a raw mail, without angle brackets.
fn header_message_id(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    for line in text.lines() {
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("message-id") {
                return bare(value);
            }
        }
    }
    panic!("a mail without a Message-ID: {text}");
}

fn bare(id: &str) -> String {
    id.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_string()
}

#[derive(Debug)]
struct OutRow {
    message_id: String,
    recipients: String,
    subject: String,
    raw: Vec<u8>,
    sent: bool,
    attempts: i64,
    last_error: Option<String>,
}

fn outbound(d: &TestDir) -> Vec<OutRow> {
    let db = d.db();
    let mut stmt = db
        .prepare(
            "SELECT message_id, recipients, subject, raw, sent_at IS NOT NULL, attempts, \
             last_error FROM outbound ORDER BY id",
        )
        .unwrap();
    let rows = stmt
        .query_map([], |r| {
            Ok(OutRow {
                message_id: bare(&r.get::<_, String>(0)?),
                recipients: r.get(1)?,
                subject: r.get(2)?,
                raw: r.get(3)?,
                sent: r.get(4)?,
                attempts: r.get(5)?,
                last_error: r.get(6)?,
            })
        })
        .unwrap();
    rows.collect::<Result<_, _>>().unwrap()
}

/// (game, phase, power, unit) -> (written, understood, Message-ID of the
/// mail that gave it).
type OrderTable = BTreeMap<(String, String, String, String), (String, String, String)>;

fn orders_table(d: &TestDir) -> OrderTable {
    let db = d.db();
    let mut stmt = db
        .prepare(
            "SELECT g.name, o.phase, o.power, o.unit, o.written, o.understood, i.message_id \
             FROM orders o JOIN games g ON g.id = o.game_id \
             LEFT JOIN inbound i ON i.id = o.inbound_id",
        )
        .unwrap();
    let mut out = BTreeMap::new();
    let rows = stmt
        .query_map([], |r| {
            Ok((
                (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?),
                (
                    r.get(4)?,
                    r.get(5)?,
                    r.get::<_, Option<String>>(6)?.unwrap_or_default(),
                ),
            ))
        })
        .unwrap();
    for row in rows {
        let (k, v) = row.unwrap();
        assert!(out.insert(k.clone(), v).is_none(), "order {k:?} twice");
    }
    out
}

/// Per game: (phase, seq, position, results, processed) in seq order.
type PhaseRow = (String, i64, String, Option<String>, bool);

fn phases_table(d: &TestDir) -> BTreeMap<String, Vec<PhaseRow>> {
    let db = d.db();
    let mut stmt = db
        .prepare(
            "SELECT g.name, p.phase, p.seq, p.position, p.results, p.processed_at IS NOT NULL \
             FROM phases p JOIN games g ON g.id = p.game_id ORDER BY g.name, p.seq",
        )
        .unwrap();
    let mut out: BTreeMap<String, Vec<PhaseRow>> = BTreeMap::new();
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                (r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?),
            ))
        })
        .unwrap();
    for row in rows {
        let (game, p) = row.unwrap();
        out.entry(game).or_default().push(p);
    }
    out
}

/// Removes what depends on the wall clock: deadlines.
fn timeless(mut export: Value) -> Value {
    if let Some(phases) = export.get_mut("phases").and_then(Value::as_array_mut) {
        for p in phases {
            p.as_object_mut().unwrap().remove("deadline");
        }
    }
    export
}

/// The outbox's `new/`: Message-ID -> the copies' bytes.
fn outbox_copies(d: &TestDir) -> HashMap<String, Vec<Vec<u8>>> {
    let mut out: HashMap<String, Vec<Vec<u8>>> = HashMap::new();
    for f in TestDir::files(&d.outbox("new")) {
        let raw = fs::read(&f).unwrap();
        out.entry(header_message_id(&raw)).or_default().push(raw);
    }
    out
}

/// Two maps must be equal; the message lists only the differing keys
/// (the first ten).
fn same_map<K: Ord + std::fmt::Debug, V: PartialEq + std::fmt::Debug>(
    a: &BTreeMap<K, V>,
    b: &BTreeMap<K, V>,
    what: &str,
) {
    let keys: BTreeSet<&K> = a.keys().chain(b.keys()).collect();
    let diff: Vec<String> = keys
        .into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| format!("{k:?}:\n  {:?}\n  {:?}", a.get(k), b.get(k)))
        .collect();
    assert!(
        diff.is_empty(),
        "{what} differ in {} key(s):\n{}",
        diff.len(),
        diff.iter().take(10).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Two multisets must be equal; the message lists only the differences.
fn same_counts<K: Ord + std::fmt::Debug>(
    a: &BTreeMap<K, usize>,
    b: &BTreeMap<K, usize>,
    what: &str,
) {
    let keys: BTreeSet<&K> = a.keys().chain(b.keys()).collect();
    let diff: Vec<String> = keys
        .into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| format!("{k:?}: {:?} vs {:?}", a.get(k), b.get(k)))
        .collect();
    assert!(diff.is_empty(), "{what} differ:\n{}", diff.join("\n"));
}

/// What the checks found, for the report.
#[derive(Debug, Default)]
struct Findings {
    outbound: usize,
    resent: usize,
    phases_processed: usize,
    orders: usize,
}

/// Every invariant of a finished run `d` (killed `kills` times) against
/// the scenario and the reference `r`.
fn check(d: &TestDir, r: &TestDir, s: &Scenario, kills: usize) -> Findings {
    let mut found = Findings::default();

    // Inbound: every mail stored once, all handled; the inbox emptied.
    let ids = s.distinct_ids();
    let stored: BTreeMap<String, String> = {
        let db = d.db();
        let mut stmt = db
            .prepare("SELECT message_id, status FROM inbound")
            .unwrap();
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
        rows.collect::<Result<_, _>>().unwrap()
    };
    assert_eq!(
        d.count("SELECT count(*) FROM inbound") as usize,
        ids.len(),
        "one inbound row per Message-ID"
    );
    assert_eq!(
        stored.keys().cloned().collect::<BTreeSet<_>>(),
        ids,
        "the stored Message-IDs are the mails'"
    );
    for (id, status) in &stored {
        assert!(
            status == "handled" || status == "dropped",
            "{id} is {status}"
        );
    }
    let reference_status: BTreeMap<String, String> = {
        let db = r.db();
        let mut stmt = db
            .prepare("SELECT message_id, status FROM inbound")
            .unwrap();
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
        rows.collect::<Result<_, _>>().unwrap()
    };
    same_map(
        &stored,
        &reference_status,
        "inbound statuses here and in the reference",
    );
    assert!(
        TestDir::files(&d.inbox("new")).is_empty(),
        "inbox new/ empty"
    );
    assert_eq!(
        TestDir::files(&d.inbox("cur")).len(),
        s.mails.len(),
        "every delivered file moved to cur/ once"
    );

    // Orders: stored once each (the table has one row per unit), every
    // power's set the last given, as in the reference.
    let orders = orders_table(d);
    let mut expected: OrderTable = BTreeMap::new();
    for g in &s.games {
        for ((phase, power), set) in &g.orders {
            for (unit, (understood, message_id)) in set {
                expected.insert(
                    (g.name.clone(), phase.clone(), power.clone(), unit.clone()),
                    (String::new(), understood.clone(), message_id.clone()),
                );
            }
        }
    }
    let without_written = |t: &OrderTable| -> BTreeMap<_, _> {
        t.iter()
            .map(|(k, (_, u, m))| (k.clone(), (u.clone(), m.clone())))
            .collect()
    };
    same_map(
        &without_written(&orders),
        &without_written(&expected),
        "orders stored (understood, from which mail) and the last given",
    );
    same_map(
        &orders,
        &orders_table(r),
        "orders here and in the reference",
    );
    found.orders = orders.len();

    // Phases: processed once each, contiguous, results present, positions
    // as the generator and the reference have them.
    let phases = phases_table(d);
    same_map(
        &phases,
        &phases_table(r),
        "phases here and in the reference",
    );
    for g in &s.games {
        let rows = phases.get(&g.name).cloned().unwrap_or_default();
        assert_eq!(
            rows.iter().map(|p| p.0.clone()).collect::<Vec<_>>(),
            g.phases.iter().map(|p| p.0.clone()).collect::<Vec<_>>(),
            "{}: the phases",
            g.name
        );
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row.1, i as i64 + 1, "{}: seq contiguous", g.name);
            let last = i + 1 == rows.len();
            assert_eq!(row.4, !last, "{}: {} processed", g.name, row.0);
            assert_eq!(row.3.is_some(), !last, "{}: {} results", g.name, row.0);
            let position: Value = serde_json::from_str(&row.2).unwrap();
            assert_eq!(
                position, g.phases[i].1,
                "{}: the position of {}",
                g.name, row.0
            );
        }
        found.phases_processed += rows.len().saturating_sub(1);
        // One results mail archived per processed phase.
        let archived = d.count(&format!(
            "SELECT count(*) FROM archive a JOIN games g ON g.id = a.game_id \
             WHERE g.name = '{}' AND a.kind = 'results'",
            g.name
        ));
        assert_eq!(
            archived as usize,
            rows.len().saturating_sub(1),
            "{}: archive",
            g.name
        );
        if !rows.is_empty() {
            assert_eq!(
                timeless(d.export(&g.name)),
                timeless(r.export(&g.name)),
                "{}: the game as in the reference",
                g.name
            );
        }
    }

    // Outbound: every queued mail sent; the same mails as the reference.
    let out = outbound(d);
    assert!(
        out.iter().all(|m| m.sent),
        "unsent: {:?}",
        out.iter()
            .filter(|m| !m.sent)
            .map(|m| &m.message_id)
            .collect::<Vec<_>>()
    );
    let summary = |rows: &[OutRow]| -> BTreeMap<(String, String), usize> {
        let mut m = BTreeMap::new();
        for r in rows {
            *m.entry((r.recipients.clone(), r.subject.clone()))
                .or_default() += 1;
        }
        m
    };
    same_counts(
        &summary(&out),
        &summary(&outbound(r)),
        "mails queued (recipient, subject) here and in the reference",
    );
    let refused: Vec<&str> = out
        .iter()
        .filter(|m| m.subject.contains("[Error Flag]"))
        .map(|m| m.subject.as_str())
        .collect();
    assert!(
        refused.is_empty(),
        "the judge refused some lines: {refused:?}"
    );
    found.outbound = out.len();

    // The outbox: each queued mail at least once; a second copy only as a
    // byte-identical resend, at most one per kill.
    let mut copies = outbox_copies(d);
    for m in &out {
        let Some(c) = copies.remove(&m.message_id) else {
            panic!("{} was marked sent but is not in the outbox", m.message_id);
        };
        for copy in &c {
            assert_eq!(
                without_pictures(copy),
                without_pictures(&m.raw),
                "{}: the copy differs from the queued mail",
                m.message_id
            );
        }
        found.resent += c.len() - 1;
    }
    assert!(
        copies.is_empty(),
        "the outbox holds mails never queued: {:?}",
        copies.keys().collect::<Vec<_>>()
    );
    assert!(
        found.resent <= kills,
        "{} resent copies after {kills} kills",
        found.resent
    );
    found
}

// The tests ---------------------------------------------------------------

#[test]
fn kill_9_at_random_moments() {
    let seed = seed();
    let s = scenario(seed, 10, 1000, 6);
    let started = Instant::now();
    // The reference is built alongside.
    let reference = {
        let s = s.clone();
        std::thread::spawn(move || reference("kill9-reference", &s))
    };
    let d = TestDir::init("kill9");
    let mut rng = Rng::new(seed ^ 0x5EED);
    let mut delivered = 0;
    let mut kills = 0usize;
    let mut stats = KillStats::default();
    // Lives aimed at each window (stored, handled, sent) and how many of
    // them landed in it.
    let mut aimed_lives = [0usize; 3];
    let mut aimed_hits = [0usize; 3];
    const MIN_KILLS: usize = 50;
    const MAX_KILLS: usize = 600;
    // Kills wanted in each dangerous window; the loop goes on (up to
    // MAX_KILLS) until it has them.
    const MIN_IN_WINDOW: usize = 10;
    loop {
        // A few to a few hundred milliseconds; now and then a longer life
        // (every start checks the senders' passwords again, argon2id, so
        // short lives alone would take long to get through the mail).
        let delay = if rng.chance(0.35) {
            rng.range(400, 2000)
        } else {
            rng.range(3, 400)
        };
        // Mail keeps arriving, about as much as the judge can take in this
        // life, so that lives also get through to the clock and the
        // sending. Never while the judge lists the folder, so that the
        // order of handling is the delivery order, as in the reference.
        let waiting = TestDir::files(&d.inbox("new")).len();
        let want = 1 + delay as usize / 70 + rng.below(4);
        if delivered < s.mails.len() && waiting < want {
            let n = want - waiting;
            for m in s.mails.iter().skip(delivered).take(n) {
                d.deliver(m);
            }
            delivered = (delivered + n).min(s.mails.len());
        }
        let before = d.life_start();
        // Most lives end at a random moment. The others end at a kill
        // point (`KillPoint`): just after the judge has stored a mail,
        // handled one, written one to the outbox, or written to the
        // database's log — the moments next to the narrow windows that
        // random kills seldom find. Taken in turn, so that every run
        // aims at each window as often.
        let point = KILL_POINTS[kills % KILL_POINTS.len()];
        // Which time in this life the judge reaches the point: aimed lives
        // get through some mail too.
        let times = match point {
            KillPoint::Stored | KillPoint::Handled => 1 + rng.below(3),
            _ => 1 + rng.below(5),
        };
        let changed = |p: &Path| fs::metadata(p).and_then(|m| m.modified()).ok();
        let mut child = d.spawn_run();
        let until = Instant::now() + Duration::from_millis(delay.max(1500));
        // Holds the database's write lock until the kill: the judge, at
        // its next write, waits for it where it stands.
        let mut lock = None;
        match point {
            KillPoint::Random => std::thread::sleep(Duration::from_millis(delay)),
            KillPoint::Stored => {
                // The `times`-th mail of the life stored and not handled.
                let db = d.db();
                let from = before.last_inbound + times as i64;
                let mut log = LogWatch::new(&d);
                let stored = || log.wrote() && d.stored_unhandled_since(&db, from - 1) > 0;
                if wait_until(until, stored) {
                    // Its handling has not begun (it would hold the lock):
                    // now it cannot.
                    lock = d.write_lock(Duration::ZERO);
                }
            }
            KillPoint::Handled => {
                let db = d.db();
                let mut log = LogWatch::new(&d);
                wait_until(until, || {
                    log.wrote() && d.handled(&db) >= before.handled.len() + times
                });
            }
            KillPoint::Sent => {
                // The life's first batch of mail staged in the outbox's
                // tmp/ (beside files a kill left there: those wait for
                // the Maildir's 36 hours): the judge writes no database
                // while it stages, so the lock is free then, and marking
                // the batch's first mail sent waits for the kill.
                // (Between two mails of a batch the lock is free for
                // microseconds only.) Then, the staging's syncs done,
                // that mail handed over into new/, where the judge stops.
                let tmp = d.outbox("tmp");
                let left: BTreeSet<PathBuf> = TestDir::files(&tmp).into_iter().collect();
                let staged = wait_until(until, || {
                    TestDir::files(&tmp).iter().any(|f| !left.contains(f))
                });
                if staged {
                    lock = d.write_lock(Duration::from_millis(50));
                    let outbox = d.outbox("new");
                    let written = changed(&outbox);
                    let moment = Instant::now() + Duration::from_millis(1000);
                    wait_until(moment, || changed(&outbox) != written);
                }
            }
            KillPoint::LogWritten => {
                let wal = d.dir.join("var/judge.db-wal");
                let mut last = changed(&wal);
                let mut seen = 0;
                wait_until(until, || {
                    let now = changed(&wal);
                    if now != last {
                        last = now;
                        seen += 1;
                    }
                    seen == times
                });
            }
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!(
                "judge run stopped by itself ({status}); see {}",
                d.log().display()
            );
        }
        child.kill().unwrap();
        child.wait().unwrap();
        // Rolled back: the test never writes.
        drop(lock);
        kills += 1;
        let landed = stats.record(&d, &before);
        let aimed = match point {
            KillPoint::Stored => Some((0, landed.stored)),
            KillPoint::Handled => Some((1, landed.handled)),
            KillPoint::Sent => Some((2, landed.sent)),
            _ => None,
        };
        if let Some((k, hit)) = aimed {
            aimed_lives[k] += 1;
            aimed_hits[k] += usize::from(hit);
        }
        let done = delivered == s.mails.len() && d.settled();
        let windows_hit = stats
            .stored_unhandled
            .min(stats.stored_not_acked)
            .min(stats.sent_unmarked);
        if (done && kills >= MIN_KILLS && windows_hit >= MIN_IN_WINDOW) || kills >= MAX_KILLS {
            break;
        }
    }
    let kill_phase = started.elapsed();
    let left = d.progress();
    let corrections: usize = s.games.iter().map(|g| g.corrections).sum();
    eprintln!(
        "kill -9: seed {seed:#x}, {} mails ({} duplicates, {corrections} order corrections); \
         {kills} kills in {:.1} s, {} of them mid-work: {} between storing a mail and \
         handling it ({} of them a PROCESS), {} after handling a mail but before the \
         inbox let it go, {} between writing a mail out and marking it sent (each \
         counting the mails of the life the kill ended); lives aimed at them landed \
         {}/{}, {}/{} and {}/{}; at the last kill {}/{} mails handled, {} mails sent",
        s.mails.len(),
        s.mails.iter().filter(|m| m.duplicate).count(),
        kill_phase.as_secs_f64(),
        stats.with_work,
        stats.stored_unhandled,
        stats.in_process,
        stats.stored_not_acked,
        stats.sent_unmarked,
        aimed_hits[0],
        aimed_lives[0],
        aimed_hits[1],
        aimed_lives[1],
        aimed_hits[2],
        aimed_lives[2],
        left.1,
        s.distinct_ids().len(),
        left.3,
    );
    for m in s.mails.iter().skip(delivered) {
        d.deliver(m);
    }
    // The last run, stopped cleanly.
    d.run_to_completion("TERM");
    let r = reference.join().expect("the reference run");
    let found = check(&d, &r, &s, kills);
    eprintln!(
        "kill -9: afterwards {} phases processed once each, {} orders, {} mails sent, \
         {} resent (same Message-ID, same bytes); {:.1} s in all",
        found.phases_processed,
        found.orders,
        found.outbound,
        found.resent,
        started.elapsed().as_secs_f64()
    );
    assert!(kills >= MIN_KILLS, "only {kills} kills");
    assert!(
        stats.with_work >= MIN_KILLS,
        "only {} kills landed while there was work",
        stats.with_work
    );
    assert!(found.phases_processed >= 50, "too few phases processed");
    // The kills that matter landed in every window, again and again.
    for (window, landed) in [
        (
            "between storing a mail and handling it",
            stats.stored_unhandled,
        ),
        (
            "after handling a mail, before the inbox let it go",
            stats.stored_not_acked,
        ),
        (
            "between writing a mail out and marking it sent",
            stats.sent_unmarked,
        ),
    ] {
        assert!(
            landed >= MIN_IN_WINDOW,
            "only {landed} kills landed {window} (at least {MIN_IN_WINDOW} wanted)"
        );
    }
    // Exactly the kills that fell between handing a mail over and marking
    // it sent left a copy to send again.
    assert_eq!(
        found.resent, stats.sent_unmarked,
        "resent copies vs kills between sending and marking sent"
    );
}

/// What a life of `judge run` in `kill_9_at_random_moments` waits for
/// before it is killed.
#[derive(Clone, Copy, Debug)]
enum KillPoint {
    /// A random time.
    Random,
    /// A mail stored in this life and not yet handled. The test then takes
    /// the database's write lock, so the mail's handling (one transaction)
    /// cannot begin before the kill.
    Stored,
    /// A mail handled in this life: it stays in the inbox's new/ until the
    /// store is synced for its batch.
    Handled,
    /// The life's first batch of mail staged in the outbox's tmp/. The
    /// test then takes the write lock, so marking the batch's first mail
    /// sent, once it is handed over into new/, waits for the kill.
    Sent,
    /// The database's log written to (the first to fifth time in the
    /// life): anywhere between two steps.
    LogWritten,
}

/// The lives in turn: half at random moments, half aimed at a window
/// (twice as often at the narrowest, between sending and marking sent).
const KILL_POINTS: [KillPoint; 10] = [
    KillPoint::Random,
    KillPoint::Stored,
    KillPoint::Random,
    KillPoint::Sent,
    KillPoint::Random,
    KillPoint::Handled,
    KillPoint::Random,
    KillPoint::LogWritten,
    KillPoint::Random,
    KillPoint::Sent,
];

/// Tells when the database's log was written to: a cheap look (its
/// modification time) before a query, so that polling the database does
/// not take the CPU the judge needs.
struct LogWatch {
    wal: PathBuf,
    last: Option<std::time::SystemTime>,
}

impl LogWatch {
    fn new(d: &TestDir) -> LogWatch {
        let wal = d.dir.join("var/judge.db-wal");
        // None at first: the first look always queries.
        LogWatch { wal, last: None }
    }

    /// Whether the log changed since the last call.
    fn wrote(&mut self) -> bool {
        let now = fs::metadata(&self.wal).and_then(|m| m.modified()).ok();
        let changed = now.is_none() || now != self.last;
        self.last = now;
        changed
    }
}

/// Polls `seen` until it holds (true) or `until` passes (false).
fn wait_until(until: Instant, mut seen: impl FnMut() -> bool) -> bool {
    loop {
        if seen() {
            return true;
        }
        if Instant::now() >= until {
            return false;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// The state before a life of `judge run`.
struct LifeStart {
    progress: (i64, i64, i64, i64, i64),
    /// The last inbound row stored (0 for none).
    last_inbound: i64,
    /// The Message-IDs handled.
    handled: BTreeSet<String>,
}

/// Where the kills fell, as seen from outside after each: a kill counts in
/// a window only for mails of the life it ended (a mail left in a window by
/// an earlier kill and not touched since does not count again).
#[derive(Debug, Default)]
struct KillStats {
    /// The judge had done something in the life the kill ended.
    with_work: usize,
    /// A mail stored in the life but not yet handled (its transaction cut
    /// off, or not begun).
    stored_unhandled: usize,
    /// ... and that mail was the Master's PROCESS.
    in_process: usize,
    /// A mail written to the outbox but not yet marked sent.
    sent_unmarked: usize,
    /// A mail handled in the life but still in the inbox's new/ (not yet
    /// let go).
    stored_not_acked: usize,
    /// Outbox files beyond the sent rows, after the previous kill.
    extra_files: i64,
}

/// The windows one kill landed in.
#[derive(Debug, Default)]
struct Landed {
    stored: bool,
    handled: bool,
    sent: bool,
}

impl KillStats {
    /// Counts the kill that ended the life begun at `before`; says in
    /// which windows it landed.
    fn record(&mut self, d: &TestDir, before: &LifeStart) -> Landed {
        let mut landed = Landed::default();
        let after = d.progress();
        if after != before.progress {
            self.with_work += 1;
        }
        let db = d.db();
        let unhandled: Vec<Vec<u8>> = {
            let mut stmt = db
                .prepare("SELECT raw FROM inbound WHERE status = 'new' AND id > ?1")
                .unwrap();
            let rows = stmt.query_map([before.last_inbound], |r| r.get(0)).unwrap();
            rows.collect::<Result<_, _>>().unwrap()
        };
        if !unhandled.is_empty() {
            self.stored_unhandled += 1;
            landed.stored = true;
            if unhandled
                .iter()
                .any(|raw| String::from_utf8_lossy(raw).contains("PROCESS"))
            {
                self.in_process += 1;
            }
        }
        let handled_now = d.handled_ids(&db);
        let stored_in_new = TestDir::files(&d.inbox("new")).iter().any(|f| {
            let id = header_message_id(&fs::read(f).unwrap());
            handled_now.contains(&id) && !before.handled.contains(&id)
        });
        if stored_in_new {
            self.stored_not_acked += 1;
            landed.handled = true;
        }
        let files = TestDir::files(&d.outbox("new")).len() as i64;
        let extra = files - after.3;
        if extra > self.extra_files {
            self.sent_unmarked += 1;
            landed.sent = true;
        }
        // The resend of the next life brings files and rows level again
        // (one extra copy for good).
        self.extra_files = extra;
        landed
    }
}

impl TestDir {
    /// A number that changes whenever the judge does something: stored
    /// mails, handled mails, queued mails, sent mails, phases.
    fn progress(&self) -> (i64, i64, i64, i64, i64) {
        let db = self.db();
        let q = |sql: &str| -> i64 { db.query_row(sql, [], |r| r.get(0)).unwrap() };
        (
            q("SELECT count(*) FROM inbound"),
            q("SELECT count(*) FROM inbound WHERE status <> 'new'"),
            q("SELECT count(*) FROM outbound"),
            q("SELECT count(*) FROM outbound WHERE sent_at IS NOT NULL"),
            q("SELECT count(*) FROM phases"),
        )
    }

    fn life_start(&self) -> LifeStart {
        let db = self.db();
        LifeStart {
            progress: self.progress(),
            last_inbound: db
                .query_row("SELECT coalesce(max(id), 0) FROM inbound", [], |r| r.get(0))
                .unwrap(),
            handled: self.handled_ids(&db),
        }
    }

    fn handled_ids(&self, db: &Connection) -> BTreeSet<String> {
        let mut stmt = db
            .prepare("SELECT message_id FROM inbound WHERE status <> 'new'")
            .unwrap();
        let rows = stmt.query_map([], |r| r.get(0)).unwrap();
        rows.collect::<Result<_, _>>().unwrap()
    }

    /// How many mails are handled.
    fn handled(&self, db: &Connection) -> usize {
        db.query_row(
            "SELECT count(*) FROM inbound WHERE status <> 'new'",
            [],
            |r| r.get::<_, i64>(0),
        )
        .unwrap() as usize
    }

    /// How many mails stored after the row `last` are not handled.
    fn stored_unhandled_since(&self, db: &Connection, last: i64) -> usize {
        db.query_row(
            "SELECT count(*) FROM inbound WHERE status = 'new' AND id > ?1",
            [last],
            |r| r.get::<_, i64>(0),
        )
        .unwrap() as usize
    }

    /// The database's write lock (`BEGIN IMMEDIATE`), waiting at most
    /// `patience` for it; held until the connection is dropped, which
    /// rolls back (nothing is written). None if the judge held it.
    fn write_lock(&self, patience: Duration) -> Option<Connection> {
        let conn = Connection::open(self.dir.join("var/judge.db")).unwrap();
        // Closed after the kill, it would be the last connection and
        // checkpoint the log: the next life must find the log as the
        // killed judge left it.
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)
            .unwrap();
        conn.busy_timeout(patience).unwrap();
        conn.execute_batch("BEGIN IMMEDIATE").ok()?;
        Some(conn)
    }
}

#[test]
fn sigterm_while_handling_mail() {
    let seed = seed() ^ 0x7E5;
    let s = scenario(seed, 3, 300, 3);
    let reference = {
        let s = s.clone();
        std::thread::spawn(move || reference("sigterm-reference", &s))
    };
    let d = TestDir::init("sigterm");
    for m in &s.mails {
        d.deliver(m);
    }
    let mut child = d.spawn_run();
    // Wait until mail is being handled.
    let start = Instant::now();
    while TestDir::files(&d.inbox("cur")).len() < 40 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no mail handled"
        );
        assert!(child.try_wait().unwrap().is_none(), "judge run stopped");
        std::thread::sleep(Duration::from_millis(5));
    }
    let (status, took) = stop(&mut child, "TERM");
    assert_eq!(
        status.code(),
        Some(0),
        "exit status after SIGTERM: {status}"
    );
    assert!(took < Duration::from_secs(5), "SIGTERM took {took:?}");

    // Nothing half-written: every stored mail handled, and it is exactly
    // the mails moved to cur/; the rest untouched in new/.
    assert_eq!(
        d.count("SELECT count(*) FROM inbound WHERE status = 'new'"),
        0
    );
    let stored: BTreeSet<String> = {
        let db = d.db();
        let mut stmt = db.prepare("SELECT message_id FROM inbound").unwrap();
        let rows = stmt.query_map([], |r| r.get(0)).unwrap();
        rows.collect::<Result<_, _>>().unwrap()
    };
    let ids_in = |sub: &str| -> Vec<(String, String)> {
        TestDir::files(&d.inbox(sub))
            .iter()
            .map(|f| {
                let name = f.file_name().unwrap().to_string_lossy().into_owned();
                (name, header_message_id(&fs::read(f).unwrap()))
            })
            .collect()
    };
    let cur = ids_in("cur");
    let new = ids_in("new");
    assert!(
        !new.is_empty(),
        "the judge finished before the signal: no test"
    );
    assert_eq!(
        cur.iter()
            .map(|(_, id)| id.clone())
            .collect::<BTreeSet<_>>(),
        stored,
        "the stored mails are the ones taken from new/"
    );
    let duplicates: BTreeSet<String> = s
        .mails
        .iter()
        .filter(|m| m.duplicate)
        .map(|m| m.file.clone())
        .collect();
    for (file, id) in &new {
        assert!(
            !stored.contains(id) || duplicates.contains(file),
            "{file} is still in new/ but stored"
        );
    }
    // Sent is sent: a sent mail is in the outbox once, an unsent one not.
    let copies = outbox_copies(&d);
    for m in outbound(&d) {
        let n = copies.get(&m.message_id).map_or(0, Vec::len);
        assert_eq!(n, usize::from(m.sent), "{} in the outbox", m.message_id);
    }
    let handled_at_stop = stored.len();

    // A later run does the rest; SIGINT stops it as cleanly.
    d.run_to_completion("INT");
    let r = reference.join().expect("the reference run");
    let found = check(&d, &r, &s, 0);
    eprintln!(
        "SIGTERM after {handled_at_stop} of {} mails, exit 0 in {took:?}; \
         then {} phases processed, {} mails sent, {} resent",
        s.distinct_ids().len(),
        found.phases_processed,
        found.outbound,
        found.resent
    );
}

// The mail server down for a simulated hour -------------------------------

/// A mail server the test can take down and bring back, and read.
trait FakeServer {
    fn set_up(&mut self, up: bool);
    /// Every mail accepted: the bytes and the envelope recipients.
    fn received(&self) -> Vec<(Vec<u8>, Vec<String>)>;
}

/// The mails a fake server accepted: bytes and envelope recipients.
type Accepted = std::sync::Arc<std::sync::Mutex<Vec<(Vec<u8>, Vec<String>)>>>;

/// An SMTP server on 127.0.0.1: while down nothing listens on its port
/// (connection refused); while up it accepts every mail.
struct SmtpServer {
    port: u16,
    got: Accepted,
    running: Option<(
        std::sync::Arc<std::sync::atomic::AtomicBool>,
        std::thread::JoinHandle<()>,
    )>,
}

impl SmtpServer {
    fn new() -> SmtpServer {
        let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = free.local_addr().unwrap().port();
        drop(free);
        SmtpServer {
            port,
            got: Default::default(),
            running: None,
        }
    }
}

impl FakeServer for SmtpServer {
    fn set_up(&mut self, up: bool) {
        use std::sync::atomic::{AtomicBool, Ordering};
        if let Some((stop, thread)) = self.running.take() {
            stop.store(true, Ordering::SeqCst);
            thread.join().unwrap();
        }
        if !up {
            return;
        }
        let listener = std::net::TcpListener::bind(("127.0.0.1", self.port)).unwrap();
        listener.set_nonblocking(true).unwrap();
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let got = self.got.clone();
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            while !flag.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        stream.set_nonblocking(false).unwrap();
                        stream
                            .set_read_timeout(Some(Duration::from_secs(20)))
                            .unwrap();
                        if let Err(e) = smtp_session(stream, &got) {
                            eprintln!("fake SMTP server: {e}");
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        std::thread::sleep(Duration::from_millis(5))
                    }
                    Err(e) => panic!("fake SMTP server: {e}"),
                }
            }
        });
        self.running = Some((stop, thread));
    }

    fn received(&self) -> Vec<(Vec<u8>, Vec<String>)> {
        self.got.lock().unwrap().clone()
    }
}

/// One SMTP conversation: EHLO, MAIL, RCPT..., DATA, QUIT.
fn smtp_session(
    stream: std::net::TcpStream,
    got: &std::sync::Mutex<Vec<(Vec<u8>, Vec<String>)>>,
) -> std::io::Result<()> {
    use std::io::BufRead;
    let mut reader = std::io::BufReader::new(stream.try_clone()?);
    let mut w = stream;
    w.write_all(b"220 fake.example ESMTP\r\n")?;
    let mut rcpts = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let upper = line.to_ascii_uppercase();
        if upper.starts_with("EHLO") || upper.starts_with("HELO") {
            w.write_all(b"250 fake.example\r\n")?;
        } else if upper.starts_with("MAIL FROM:") {
            rcpts.clear();
            w.write_all(b"250 2.1.0 ok\r\n")?;
        } else if upper.starts_with("RCPT TO:") {
            rcpts.push(bare(&line["RCPT TO:".len()..]));
            w.write_all(b"250 2.1.5 ok\r\n")?;
        } else if upper.starts_with("DATA") {
            w.write_all(b"354 go ahead\r\n")?;
            let mut data = Vec::new();
            loop {
                let mut l = Vec::new();
                if reader.read_until(b'\n', &mut l)? == 0 {
                    return Ok(());
                }
                if l == b".\r\n" {
                    break;
                }
                if l.starts_with(b"..") {
                    l.remove(0);
                }
                data.extend(l);
            }
            got.lock().unwrap().push((data, rcpts.clone()));
            w.write_all(b"250 2.0.0 queued\r\n")?;
        } else if upper.starts_with("QUIT") {
            w.write_all(b"221 bye\r\n")?;
            return Ok(());
        } else {
            w.write_all(b"250 ok\r\n")?;
        }
    }
}

/// A `sendmail` program that fails (exit 1) while a flag file exists and
/// otherwise writes each mail and its arguments into a folder.
struct SendmailScript {
    down: PathBuf,
    spool: PathBuf,
    script: PathBuf,
}

impl SendmailScript {
    fn new(dir: &Path) -> SendmailScript {
        let s = SendmailScript {
            down: dir.join("server-down"),
            spool: dir.join("spool"),
            script: dir.join("fake-sendmail"),
        };
        fs::create_dir_all(&s.spool).unwrap();
        fs::write(
            &s.script,
            format!(
                "#!/bin/sh\n\
                 # A mail server that is down while {down} exists.\n\
                 if [ -e '{down}' ]; then cat >/dev/null; echo 'connection refused' >&2; exit 1; fi\n\
                 f='{spool}'/$(date +%s%N).$$\n\
                 printf '%s\\n' \"$@\" > \"$f.args\"\n\
                 cat > \"$f.tmp\" && mv \"$f.tmp\" \"$f.eml\"\n",
                down = s.down.display(),
                spool = s.spool.display()
            ),
        )
        .unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&s.script, fs::Permissions::from_mode(0o755)).unwrap();
        }
        s
    }
}

impl FakeServer for SendmailScript {
    fn set_up(&mut self, up: bool) {
        if up {
            let _ = fs::remove_file(&self.down);
        } else {
            fs::write(&self.down, "").unwrap();
        }
    }

    fn received(&self) -> Vec<(Vec<u8>, Vec<String>)> {
        TestDir::files(&self.spool)
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "eml"))
            .map(|f| {
                let args = fs::read_to_string(f.with_extension("args")).unwrap();
                // sendmail -i -f <from> -- <recipients>
                let rcpts = args
                    .lines()
                    .skip_while(|a| *a != "--")
                    .skip(1)
                    .map(str::to_string)
                    .collect();
                (fs::read(&f).unwrap(), rcpts)
            })
            .collect()
    }
}

/// Replaces the shipped `[outbox]` (the Maildir) by `section`.
fn set_outbox(d: &TestDir, section: &str) {
    d.edit_config(|c| {
        let old = "[outbox]\nkind = \"maildir\"\npath = \"var/outbox\"";
        assert!(c.contains(old), "judge.toml's [outbox] changed");
        *c = c.replace(old, section);
    });
}

/// The server is down from minute 0 to minute 60 of a simulated day,
/// `judge run --once --now` runs every 5 minutes, and mail arrives at
/// minutes 0 and 30. While down: nothing goes out, nothing is marked sent,
/// the attempts and their errors are recorded. Back: every queued mail goes
/// out once, as queued.
fn server_down_for_an_hour(d: &TestDir, server: &mut dyn FakeServer, s: &Scenario, what: &str) {
    let at = |minutes: i64| {
        let base = chrono::DateTime::parse_from_rfc3339("2026-11-02T12:00:00Z").unwrap();
        (base + chrono::Duration::minutes(minutes))
            .with_timezone(&chrono::Utc)
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
    };
    server.set_up(false);
    let half = s.mails.len() / 2;
    for m in &s.mails[..half] {
        d.deliver(m);
    }
    for minute in (0..60).step_by(5) {
        if minute == 30 {
            for m in &s.mails[half..] {
                d.deliver(m);
            }
        }
        d.run_once(Some(&at(minute)));
    }
    let queued = outbound(d);
    assert!(!queued.is_empty());
    assert!(
        server.received().is_empty(),
        "{what}: nothing goes out while the server is down"
    );
    assert!(
        queued.iter().all(|m| !m.sent),
        "{what}: nothing marked sent"
    );
    let tried: Vec<&OutRow> = queued.iter().filter(|m| m.attempts > 0).collect();
    assert!(
        tried.len() >= 5,
        "{what}: the judge kept trying: {} tried",
        tried.len()
    );
    for m in &tried {
        assert!(
            m.last_error.as_deref().is_some_and(|e| !e.is_empty()),
            "{what}: {} failed without a recorded error",
            m.message_id
        );
    }
    assert!(
        TestDir::files(&d.inbox("new")).is_empty(),
        "{what}: all mail taken in"
    );

    // Back after the hour.
    server.set_up(true);
    let mut minute = 60;
    while !d.settled() {
        assert!(
            minute <= 180,
            "{what}: mail still queued two hours after the server came back"
        );
        d.run_once(Some(&at(minute)));
        if minute == 60 {
            let after = outbound(d);
            assert!(
                after.iter().filter(|m| m.attempts == 0).all(|m| m.sent),
                "{what}: untried mail waits although the server is back"
            );
        }
        minute += 5;
    }
    server.set_up(false);
    let sent = outbound(d);
    assert_eq!(
        sent.len(),
        queued.len(),
        "{what}: no mail lost from the queue"
    );
    let mut by_id: HashMap<String, (Vec<u8>, Vec<String>)> = HashMap::new();
    for (raw, rcpts) in server.received() {
        let id = header_message_id(&raw);
        assert!(
            by_id.insert(id.clone(), (raw, rcpts)).is_none(),
            "{what}: {id} sent twice"
        );
    }
    assert_eq!(
        by_id.len(),
        sent.len(),
        "{what}: every queued mail sent once"
    );
    let trim = |b: &[u8]| -> Vec<u8> {
        let mut v = b.to_vec();
        while v.ends_with(b"\r\n") {
            v.truncate(v.len() - 2);
        }
        v
    };
    for m in &sent {
        assert!(m.sent, "{what}: {} unsent", m.message_id);
        let (raw, rcpts) = by_id.get(&m.message_id).expect("sent");
        assert_eq!(
            trim(&without_pictures(raw)),
            trim(&without_pictures(&m.raw)),
            "{what}: {} sent as queued",
            m.message_id
        );
        let recipients: Vec<String> = serde_json::from_str(&m.recipients).unwrap();
        assert_eq!(rcpts, &recipients, "{what}: {} envelope", m.message_id);
    }
    eprintln!(
        "{what} down 60 min: {} mails queued, {} tried while down ({} attempts), \
         all {} sent once by +{} min",
        queued.len(),
        tried.len(),
        tried.iter().map(|m| m.attempts).sum::<i64>(),
        sent.len(),
        minute - 5
    );
}

#[test]
fn smtp_server_down_for_an_hour() {
    let s = scenario(seed() ^ 0xD0E, 1, 30, 0);
    let d = TestDir::init("smtp-down");
    let mut server = SmtpServer::new();
    set_outbox(
        &d,
        &format!(
            "[outbox]\nkind = \"smtp\"\nhost = \"127.0.0.1\"\nport = {}\ntls = \"none\"",
            server.port
        ),
    );
    server_down_for_an_hour(&d, &mut server, &s, "SMTP server");
}

#[test]
fn sendmail_failing_for_an_hour() {
    let s = scenario(seed() ^ 0x5E4D, 1, 30, 0);
    let d = TestDir::init("sendmail-down");
    let mut server = SendmailScript::new(&d.dir);
    set_outbox(
        &d,
        &format!(
            "[outbox]\nkind = \"sendmail\"\ncommand = \"{}\"",
            server.script.display()
        ),
    );
    server_down_for_an_hour(&d, &mut server, &s, "sendmail");
}

/// A mail as queued or as sent, its pictures left out: a queued mail names
/// its map in an empty part (`X-Judge-Picture`), which the sender fills;
/// everything else must go out byte for byte as queued.
fn without_pictures(raw: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(raw);
    let mut out = String::with_capacity(text.len());
    let mut in_picture = false;
    let mut body = false;
    for line in text.split_inclusive("\r\n") {
        if line.starts_with("--=_judge_map_") {
            in_picture = false;
            body = false;
        }
        if in_picture {
            if body {
                continue; // the picture's base64, or nothing yet
            }
            if line == "\r\n" {
                body = true;
            }
        }
        if line.starts_with("X-Judge-Picture: ") {
            in_picture = true;
            continue;
        }
        if line.starts_with("Content-Type: image/") {
            in_picture = true;
        }
        out.push_str(line);
    }
    out.into_bytes()
}
