//! Exactly once with many processes at once (issue 10), as a mail system
//! runs the judge: one `judge handle` process per delivered mail, many in
//! parallel (16 and 48 lanes), beside a running `judge run` — all on one
//! judge folder with a pipe inbox and a Maildir outbox.
//!
//! Each run sets up games by mail, starts the daemon, then lets the lanes
//! deliver order mails (each power's in one lane, one after another, so
//! that its last is known), broadcasts and the Masters' `PROCESS` mails,
//! shuffled among the lanes, some delivered twice (as mail systems do).
//! A lane whose `judge handle` exits 75 offers the mail again, as a mail
//! system would. Then, once the daemon has sent everything, it is stopped
//! with SIGTERM and the store is checked:
//!
//! - every exit status 0 or 75; no mail left unhandled or failed;
//! - nothing acted on twice: one press entry per broadcast mail, one phase
//!   processed per `PROCESS` mail (each answered "processed" once);
//! - each power's last order mail is the one its orders come from;
//! - every mail answered exactly once, every queued mail sent exactly once
//!   (the outbox holds one file per queued mail).
//!
//! Before the fix, 16 lanes gave 201 press entries for 160 broadcasts and
//! 14 phases for 12 `PROCESS` mails, and left some powers holding an older
//! mail's orders. `PARALLEL_RUNS=<n>` repeats each lane count n times;
//! the figures are printed.
//!
//! Also: in pipe mode the daemon sends a reply within a second of its
//! mail's arrival, and picks up stored mail that no `judge handle`
//! finished. And once through a real mail system: a private Postfix
//! instance (Debian's package, started by the test as root with its own
//! configuration, queue and log in a temporary folder, SMTP on 127.0.0.1)
//! whose pipe transport runs `judge handle` 16 at once; for two seconds
//! the judge's configuration cannot be read, so deliveries exit 75 and
//! Postfix must offer them again. Without Postfix (or root) it says
//! SKIPPED, except with `CI` set, where it fails.

mod common;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

use common::*;

const BIN: &str = env!("CARGO_BIN_EXE_judge");

/// The tests here load both cores: one at a time.
static HEAVY: Mutex<()> = Mutex::new(());

use common::rng::Rng;

// The judge folder and its daemon ---------------------------------------------

/// A judge whose mail comes through `judge handle` (pipe inbox), on the
/// real clock like the daemon beside it.
fn pipe_judge(name: &str) -> TestJudge {
    let mut j = TestJudge::new(name);
    j.set_section("inbox", "kind = \"pipe\"");
    j.now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    j
}

struct Daemon {
    child: Child,
    log: PathBuf,
}

impl Daemon {
    fn start(j: &TestJudge) -> Daemon {
        Daemon::start_as(j, None)
    }

    /// The daemon, run as the user of that uid (and its group) if given.
    fn start_as(j: &TestJudge, uid: Option<u32>) -> Daemon {
        let log = j.dir.join(format!("run-{}.log", unique()));
        let mut command = match uid {
            None => Command::new(BIN),
            Some(uid) => {
                let mut c = Command::new("setpriv");
                c.arg(format!("--reuid={uid}"))
                    .arg(format!("--regid={uid}"))
                    .arg("--clear-groups")
                    .arg(BIN);
                c
            }
        };
        let child = command
            .arg("--config")
            .arg(j.config())
            .arg("run")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            // A file, not a pipe nobody reads: the daemon must never block
            // on its log.
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        Daemon { child, log }
    }

    /// SIGTERM, then its exit status (within 30 s) and log.
    fn stop(mut self) -> (ExitStatus, String) {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return (status, std::fs::read_to_string(&self.log).unwrap());
            }
            if started.elapsed() > Duration::from_secs(30) {
                let _ = self.child.kill();
                panic!(
                    "judge run did not stop on SIGTERM:\n{}",
                    std::fs::read_to_string(&self.log).unwrap()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        // Never left running after a failed test.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `judge handle` with one mail: its exit status (None: a signal).
fn handle(config: &Path, raw: &[u8]) -> Option<i32> {
    use std::io::Write;
    let mut child = Command::new(BIN)
        .arg("--config")
        .arg(config)
        .arg("handle")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(raw);
    drop(stdin);
    child.wait().unwrap().code()
}

fn files_in(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.count())
}

/// Waits until `done` holds (true) or `limit` passes (false).
fn wait_until(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let started = Instant::now();
    while started.elapsed() < limit {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    done()
}

// The games and their mails ------------------------------------------------------

const MASTER_PASSWORD: &str = "mpass";

/// Each power: its initial, name, units at the start (in the order the
/// order lines give them), and two moves of its first unit.
const POWERS: [(char, &str, &[&str], [&str; 2]); 7] = [
    (
        'A',
        "AUSTRIA",
        &["A VIE", "A BUD", "F TRI"],
        ["A VIE - GAL", "A VIE - BOH"],
    ),
    (
        'E',
        "ENGLAND",
        &["A LVP", "F LON", "F EDI"],
        ["A LVP - YOR", "A LVP - WAL"],
    ),
    (
        'F',
        "FRANCE",
        &["A PAR", "A MAR", "F BRE"],
        ["A PAR - BUR", "A PAR - PIC"],
    ),
    (
        'G',
        "GERMANY",
        &["A MUN", "A BER", "F KIE"],
        ["A MUN - RUH", "A MUN - BUR"],
    ),
    (
        'I',
        "ITALY",
        &["A VEN", "A ROM", "F NAP"],
        ["A VEN - PIE", "A VEN - TYR"],
    ),
    (
        'R',
        "RUSSIA",
        &["A WAR", "A MOS", "F SEV", "F STP/SC"],
        ["A WAR - GAL", "A WAR - UKR"],
    ),
    (
        'T',
        "TURKEY",
        &["A SMY", "A CON", "F ANK"],
        ["A SMY - ARM", "A SMY - SYR"],
    ),
];

fn player(game: &str, initial: char) -> String {
    format!("{}.{game}@players.example", initial.to_ascii_lowercase())
}

fn master(game: &str) -> String {
    format!("master.{game}@masters.example")
}

/// Order lines for every unit of a power: all hold (variant 0), or the
/// first unit moves one of two ways.
fn order_lines(power: usize, variant: usize) -> String {
    let (_, _, units, moves) = POWERS[power];
    units
        .iter()
        .enumerate()
        .map(|(k, u)| match (k, variant) {
            (0, 1) => moves[0].to_string(),
            (0, 2) => moves[1].to_string(),
            _ => format!("{u} H"),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[derive(Clone, Debug, PartialEq)]
enum Kind {
    /// Orders of a power in a game without PROCESS: the `seq`-th of its
    /// mails (the last must stand).
    Orders {
        game: String,
        power: usize,
        seq: usize,
    },
    /// Orders in a game the Master processes meanwhile.
    OrdersAnyPhase,
    Broadcast,
    Process,
}

#[derive(Clone, Debug)]
struct Planned {
    from: String,
    message_id: String,
    raw: Vec<u8>,
    kind: Kind,
}

fn planned(from: &str, body: &str, kind: Kind) -> Planned {
    let mail = Mail::new(from, "parallel", body);
    Planned {
        from: from.to_string(),
        message_id: mail
            .message_id
            .trim_matches(|c| c == '<' || c == '>')
            .to_string(),
        raw: mail.raw().into_bytes(),
        kind,
    }
}

/// What one run delivers: per lane, the indices of `mails` in order (a
/// mail may be delivered twice, in two lanes).
struct Plan {
    mails: Vec<Planned>,
    lanes: Vec<Vec<usize>>,
    /// Games without PROCESS, and with.
    order_games: Vec<String>,
    process_games: Vec<String>,
}

/// Order mails per power in an order game (delivered one after another).
const ORDER_MAILS: usize = 4;
/// Broadcasts per power.
const BROADCASTS: usize = 2;
/// PROCESS mails per processed game.
const PROCESSES: usize = 6;

fn plan(run: &str, lanes: usize, games: usize, rng: &mut Rng) -> Plan {
    let order_games: Vec<String> = (0..games / 2).map(|g| format!("{run}o{g}")).collect();
    let process_games: Vec<String> = (0..games - games / 2)
        .map(|g| format!("{run}p{g}"))
        .collect();
    let mut mails = Vec::new();
    // Sequences that must keep their order (one power's order mails), and
    // mails that may go anywhere.
    let mut chains: Vec<Vec<usize>> = Vec::new();
    let mut loose: Vec<usize> = Vec::new();
    fn push(mails: &mut Vec<Planned>, p: Planned) -> usize {
        mails.push(p);
        mails.len() - 1
    }
    for game in order_games.iter().chain(&process_games) {
        let processed = process_games.contains(game);
        for (power, (initial, ..)) in POWERS.iter().enumerate() {
            let sign_on = format!("SIGNON {initial}{game} pw-{initial}");
            let mut chain = Vec::new();
            for seq in 0..ORDER_MAILS {
                let (body, kind) = if processed {
                    (
                        format!("{sign_on}\n{}", order_lines(power, 0)),
                        Kind::OrdersAnyPhase,
                    )
                } else {
                    let kind = Kind::Orders {
                        game: game.clone(),
                        power,
                        seq,
                    };
                    (
                        format!("{sign_on}\n{}", order_lines(power, rng.below(3))),
                        kind,
                    )
                };
                let i = push(&mut mails, planned(&player(game, *initial), &body, kind));
                if processed {
                    loose.push(i);
                } else {
                    chain.push(i);
                }
            }
            if !chain.is_empty() {
                chains.push(chain);
            }
            for b in 0..BROADCASTS {
                let body = format!("{sign_on}\nBROADCAST\nNews {b} from {initial}.\nENDPRESS");
                loose.push(push(
                    &mut mails,
                    planned(&player(game, *initial), &body, Kind::Broadcast),
                ));
            }
        }
        if processed {
            for _ in 0..PROCESSES {
                let body = format!("SIGNON M{game} {MASTER_PASSWORD}\nPROCESS");
                loose.push(push(
                    &mut mails,
                    planned(&master(game), &body, Kind::Process),
                ));
            }
        }
    }
    // Some mails are delivered twice (a mail system's retry, a second MX).
    let mut deliveries = loose.clone();
    for &i in &loose {
        if rng.below(10) == 0 {
            deliveries.push(i);
        }
    }
    rng.shuffle(&mut deliveries);
    rng.shuffle(&mut chains);
    let mut lane_chains: Vec<Vec<Vec<usize>>> = vec![Vec::new(); lanes];
    for (k, chain) in chains.into_iter().enumerate() {
        lane_chains[k % lanes].push(chain);
    }
    let mut lane_loose: Vec<Vec<usize>> = vec![Vec::new(); lanes];
    for (k, i) in deliveries.into_iter().enumerate() {
        lane_loose[k % lanes].push(i);
    }
    // Each lane: its chains' mails in order, merged at random with its
    // loose mails.
    let lanes = lane_chains
        .into_iter()
        .zip(lane_loose)
        .map(|(chains, loose)| {
            let mut queues: Vec<std::collections::VecDeque<usize>> = chains
                .into_iter()
                .map(Into::into)
                .chain(loose.into_iter().map(|i| vec![i].into()))
                .collect();
            let mut lane = Vec::new();
            while !queues.is_empty() {
                let q = rng.below(queues.len());
                lane.push(queues[q].pop_front().unwrap());
                if queues[q].is_empty() {
                    queues.swap_remove(q);
                }
            }
            lane
        })
        .collect();
    Plan {
        mails,
        lanes,
        order_games,
        process_games,
    }
}

/// Creates each game and lets its seven players join (each gets the power
/// asked for), one mail after another.
fn set_up(j: &mut TestJudge, games: &[String]) {
    for game in games {
        j.mail(&master(game), &format!("CREATE ?{game} {MASTER_PASSWORD}"));
        for (initial, ..) in POWERS {
            j.mail(
                &player(game, initial),
                &format!("SIGNON ?{game} pw-{initial}\nSET PREFERENCE {initial}"),
            );
        }
        assert_eq!(j.export(game)["state"], "active", "{game} started");
    }
}

/// What one run came to.
#[derive(Debug, Default)]
struct Figures {
    lanes: usize,
    mails: usize,
    deliveries: usize,
    /// Deliveries answered 75 (and offered again).
    tempfails: usize,
    /// Exit statuses other than 0 and 75.
    bad_statuses: usize,
    /// Broadcast mails and press entries.
    broadcasts: usize,
    press: usize,
    /// PROCESS mails, those answered "processed", and phases processed.
    processes: usize,
    processed_replies: usize,
    phases_processed: usize,
    /// Mails answered more than once, and not at all.
    answered_twice: usize,
    unanswered: usize,
    /// Powers whose orders are not their last mail's.
    stale: usize,
    /// Stored mail still new, or failed.
    unhandled: usize,
    failed: usize,
    /// Queued mails, sent, and files in the outbox.
    queued: usize,
    sent: usize,
    outbox_files: usize,
    /// Slowest `judge handle`; from the last delivery to an empty queue.
    slowest_handle: Duration,
    drained_after: Duration,
    elapsed: Duration,
}

impl Figures {
    fn acted_twice(&self) -> usize {
        self.press.saturating_sub(self.broadcasts)
            + self.phases_processed.saturating_sub(self.processes)
            + self.answered_twice
    }

    fn line(&self) -> String {
        format!(
            "{} lanes: {} mails in {} deliveries ({} answered 75, {} other statuses); \
             acted twice {} (press {}/{} broadcasts, phases {}/{} PROCESS, {} answered \
             \"processed\", {} answered twice, {} unanswered); stale order sets {}; \
             unhandled {}, failed {}; queued {}, sent {}, outbox files {};{} queue empty \
             {:.2} s after the last delivery; run {:.1} s",
            self.lanes,
            self.mails,
            self.deliveries,
            self.tempfails,
            self.bad_statuses,
            self.acted_twice(),
            self.press,
            self.broadcasts,
            self.phases_processed,
            self.processes,
            self.processed_replies,
            self.answered_twice,
            self.unanswered,
            self.stale,
            self.unhandled,
            self.failed,
            self.queued,
            self.sent,
            self.outbox_files,
            if self.slowest_handle.is_zero() {
                String::new()
            } else {
                format!(
                    " slowest judge handle {:.2} s;",
                    self.slowest_handle.as_secs_f64()
                )
            },
            self.drained_after.as_secs_f64(),
            self.elapsed.as_secs_f64(),
        )
    }

    fn assert_clean(&self) {
        let line = self.line();
        assert_eq!(self.bad_statuses, 0, "{line}");
        assert_eq!(self.unhandled + self.failed, 0, "{line}");
        assert_eq!(self.press, self.broadcasts, "{line}");
        assert_eq!(self.phases_processed, self.processes, "{line}");
        assert_eq!(self.processed_replies, self.processes, "{line}");
        assert_eq!(self.answered_twice + self.unanswered, 0, "{line}");
        assert_eq!(self.stale, 0, "{line}");
        assert_eq!(self.sent, self.queued, "{line}");
        assert_eq!(self.outbox_files, self.queued, "{line}");
    }
}

/// The Message-ID a queued mail answers (its In-Reply-To), bare.
fn in_reply_to(raw: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(raw);
    let head = text.split("\r\n\r\n").next().unwrap_or("");
    head.lines()
        .find_map(|l| l.strip_prefix("In-Reply-To:"))
        .map(|v| v.trim().trim_matches(|c| c == '<' || c == '>').to_string())
}

fn one_run(run: usize, lanes: usize, games: usize) -> Figures {
    let started = Instant::now();
    let name = format!("r{run}l{lanes}");
    let mut j = pipe_judge(&name);
    let mut rng = Rng(0x5EED_0000 + (run * 1000 + lanes) as u64);
    let plan = plan(&name, lanes, games, &mut rng);
    let all_games: Vec<String> = plan
        .order_games
        .iter()
        .chain(&plan.process_games)
        .cloned()
        .collect();
    set_up(&mut j, &all_games);
    let setup_queued = j.query_i64("SELECT count(*) FROM outbound") as usize;
    let daemon = Daemon::start(&j);

    // The lanes, all at once.
    let config = j.config();
    let mails = Arc::new(plan.mails.clone());
    let barrier = Arc::new(Barrier::new(plan.lanes.len()));
    let results: Vec<Vec<(Option<i32>, Duration)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = plan
            .lanes
            .iter()
            .map(|lane| {
                let (config, mails, barrier) = (&config, mails.clone(), barrier.clone());
                scope.spawn(move || {
                    barrier.wait();
                    let mut statuses = Vec::new();
                    for &i in lane {
                        // As a mail system: a 75 is offered again later.
                        for _ in 0..50 {
                            let t = Instant::now();
                            let code = handle(config, &mails[i].raw);
                            statuses.push((code, t.elapsed()));
                            if code != Some(75) {
                                break;
                            }
                            std::thread::sleep(Duration::from_millis(200));
                        }
                    }
                    statuses
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let delivered = Instant::now();
    let db = j.db();
    let count =
        |sql: &str| -> usize { db.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap() as usize };
    let drained = wait_until(Duration::from_secs(60), || {
        count("SELECT count(*) FROM inbound WHERE status = 'new'") == 0
            && count("SELECT count(*) FROM outbound WHERE sent_at IS NULL AND abandoned_at IS NULL")
                == 0
    });
    let drained_after = delivered.elapsed();
    let (status, log) = daemon.stop();
    assert!(drained, "the daemon did not finish the work:\n{log}");
    assert!(status.success(), "judge run: {status}\n{log}");

    let mut f = Figures {
        lanes,
        mails: plan.mails.len(),
        deliveries: plan.lanes.iter().map(Vec::len).sum(),
        drained_after,
        ..Figures::default()
    };
    for (code, took) in results.iter().flatten() {
        match code {
            Some(0) => {}
            Some(75) => f.tempfails += 1,
            _ => f.bad_statuses += 1,
        }
        f.slowest_handle = f.slowest_handle.max(*took);
    }
    check_store(&j, &plan, LastOrders::LastSent, setup_queued, &mut f);
    f.elapsed = started.elapsed();
    f
}

/// Which order mail of a power must stand.
#[derive(Clone, Copy, PartialEq)]
enum LastOrders {
    /// The one sent last (each sent after the one before was stored).
    LastSent,
    /// The one stored last.
    LastStored,
}

/// The checks on the store and the outbox once everything is done; the
/// figures go into `f`.
fn check_store(j: &TestJudge, plan: &Plan, rule: LastOrders, setup_queued: usize, f: &mut Figures) {
    let db = j.db();
    let count =
        |sql: &str| -> usize { db.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap() as usize };
    f.unhandled = count("SELECT count(*) FROM inbound WHERE status = 'new'");
    f.failed = count("SELECT count(*) FROM inbound WHERE status = 'failed'");

    // Answers: each mail's reply, once.
    let mut answers: HashMap<String, Vec<String>> = HashMap::new();
    {
        let mut stmt = db.prepare("SELECT raw FROM outbound").unwrap();
        let raws = stmt
            .query_map([], |r| r.get::<_, Vec<u8>>(0))
            .unwrap()
            .map(Result::unwrap);
        for raw in raws {
            if let Some(id) = in_reply_to(&raw) {
                answers
                    .entry(id)
                    .or_default()
                    .push(String::from_utf8_lossy(&raw).into_owned());
            }
        }
    }
    for m in plan.mails.iter() {
        let got = answers.get(&m.message_id).map_or(0, Vec::len);
        match got {
            0 => f.unanswered += 1,
            1 => {}
            _ => f.answered_twice += 1,
        }
        match m.kind {
            Kind::Broadcast => f.broadcasts += 1,
            Kind::Process => {
                f.processes += 1;
                f.processed_replies += answers
                    .get(&m.message_id)
                    .into_iter()
                    .flatten()
                    .filter(|r| r.contains("processed; the results"))
                    .count();
            }
            _ => {}
        }
    }
    f.press = count("SELECT count(*) FROM press");
    f.phases_processed = plan
        .process_games
        .iter()
        .map(|g| {
            db.query_row(
                "SELECT count(*) FROM phases JOIN games ON games.id = phases.game_id \
                 WHERE games.name = ?1 AND phases.processed_at IS NOT NULL",
                [g],
                |r| r.get::<_, i64>(0),
            )
            .unwrap() as usize
        })
        .sum();

    // Each power's orders come from its last order mail: the last sent
    // (when each was sent once the one before was stored) or the last
    // stored (when a mail system chose the order).
    let stored_id = |mail: &Planned| -> i64 {
        db.query_row(
            "SELECT id FROM inbound WHERE message_id = ?1",
            [&mail.message_id],
            |r| r.get(0),
        )
        .unwrap()
    };
    let mut last: BTreeMap<(String, usize), i64> = BTreeMap::new();
    let mut last_seq: BTreeMap<(String, usize), usize> = BTreeMap::new();
    for m in &plan.mails {
        if let Kind::Orders { game, power, seq } = &m.kind {
            let key = (game.clone(), *power);
            let id = stored_id(m);
            let later = match rule {
                LastOrders::LastSent => last_seq.get(&key).is_none_or(|s| seq > s),
                LastOrders::LastStored => last.get(&key).is_none_or(|&i| id > i),
            };
            if later {
                last.insert(key.clone(), id);
                last_seq.insert(key, *seq);
            }
        }
    }
    for ((game, power), mail_id) in &last {
        let (_, name, units, _) = POWERS[*power];
        let mail_id = *mail_id;
        let mut stmt = db
            .prepare(
                "SELECT orders.inbound_id FROM orders JOIN games ON games.id = orders.game_id \
                 WHERE games.name = ?1 AND orders.phase = 'S1901M' AND orders.power = ?2",
            )
            .unwrap();
        let from: Vec<Option<i64>> = stmt
            .query_map([game.as_str(), name], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        if from.len() != units.len() || from.iter().any(|&i| i != Some(mail_id)) {
            f.stale += 1;
        }
    }
    f.queued = count("SELECT count(*) FROM outbound") - setup_queued;
    f.sent = count("SELECT count(*) FROM outbound WHERE sent_at IS NOT NULL") - setup_queued;
    f.outbox_files = files_in(&j.dir.join("var/outbox/new")) - setup_queued;
}

fn runs() -> usize {
    std::env::var("PARALLEL_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

fn lanes_beside_the_daemon(lanes: usize, games: usize) {
    let _heavy = HEAVY.lock().unwrap_or_else(|e| e.into_inner());
    let mut all = Vec::new();
    for run in 0..runs() {
        let f = one_run(run, lanes, games);
        eprintln!("run {run}: {}", f.line());
        all.push(f);
    }
    for f in &all {
        f.assert_clean();
    }
}

#[test]
fn sixteen_lanes_of_judge_handle_beside_judge_run() {
    lanes_beside_the_daemon(16, 2);
}

#[test]
fn forty_eight_lanes_of_judge_handle_beside_judge_run() {
    lanes_beside_the_daemon(48, 4);
}

// Pipe mode's daemon: quick replies, stored mail picked up -------------------

/// Issue 10: in pipe mode, replies waited for the next clock tick (28 s
/// measured).
#[test]
fn pipe_mode_sends_a_reply_within_a_second() {
    let _heavy = HEAVY.lock().unwrap_or_else(|e| e.into_inner());
    let j = pipe_judge("latency");
    // The database first, so that the daemon starts on it.
    j.handle_raw(
        Mail::new("first@players.example", "v", "VERSION")
            .raw()
            .as_bytes(),
    );
    let daemon = Daemon::start(&j);
    let outbox = j.dir.join("var/outbox/new");
    assert!(wait_until(Duration::from_secs(20), || files_in(&outbox) == 1));
    let mut waits = Vec::new();
    for n in 0..5 {
        let mail = Mail::new(&format!("p{n}@players.example"), "help", "HELP");
        let code = handle(&j.config(), mail.raw().as_bytes());
        assert_eq!(code, Some(0));
        let handled = Instant::now();
        assert!(
            wait_until(Duration::from_secs(20), || files_in(&outbox) == n + 2),
            "no reply"
        );
        waits.push(handled.elapsed());
    }
    let (status, log) = daemon.stop();
    assert!(status.success(), "{log}");
    waits.sort();
    eprintln!("reply after judge handle exits: {waits:?}");
    assert!(
        waits[waits.len() / 2] < Duration::from_secs(1),
        "median {:?}",
        waits[waits.len() / 2]
    );
    assert!(waits[waits.len() - 1] < Duration::from_secs(3), "{waits:?}");
}

/// Issue 10: stored mail that no process handled (its `judge handle` was
/// killed, or met a lock) waited in pipe mode until the daemon restarted.
#[test]
fn pipe_mode_picks_up_stored_mail_nobody_handled() {
    let _heavy = HEAVY.lock().unwrap_or_else(|e| e.into_inner());
    let mut j = pipe_judge("leftover");
    j.handle_raw(
        Mail::new("first@players.example", "v", "VERSION")
            .raw()
            .as_bytes(),
    );
    j.take();
    let daemon = Daemon::start(&j);
    let outbox = j.dir.join("var/outbox/new");
    assert!(wait_until(Duration::from_secs(20), || files_in(&outbox) == 1));
    // Stored as `judge handle` stores it, then left.
    let sender = "left@players.example";
    let mail = Mail::new(sender, "help", "HELP");
    {
        let mut store = judge::store::Store::open(j.db_path()).unwrap();
        let tx = store.transaction().unwrap();
        judge::store::mailbox::insert_inbound(
            &tx,
            &mail.message_id,
            mail.raw().as_bytes(),
            Some(sender),
            0,
        )
        .unwrap()
        .unwrap();
        tx.commit().unwrap();
    }
    let stored = Instant::now();
    assert!(
        wait_until(Duration::from_secs(20), || files_in(&outbox) == 2),
        "the stored mail was not answered"
    );
    let took = stored.elapsed();
    let (status, log) = daemon.stop();
    assert!(status.success(), "{log}");
    assert!(took < Duration::from_secs(3), "answered after {took:?}");
    assert_eq!(j.inbound_status(&mail.message_id).0, "handled");
    let r = j.take();
    assert_eq!(to(&r, sender).len(), 1);
}

// Through a real mail system: a private Postfix instance -----------------------

/// The user Postfix's pipe transport runs `judge handle` as (it refuses
/// root): nobody, and so does everything else that opens the store.
const NOBODY: u32 = 65534;

/// Why the Postfix test cannot run here, if it cannot.
fn postfix_missing() -> Option<&'static str> {
    if !Path::new("/usr/sbin/postfix").exists()
        || !Path::new("/usr/lib/postfix/sbin/master").exists()
    {
        return Some("Postfix is not installed");
    }
    if !common::prerequisite::running_as_root() {
        return Some("a Postfix instance needs root to start");
    }
    None
}

/// A Postfix instance of the test's own: its configuration, queue and log
/// in a temporary folder, SMTP on 127.0.0.1:`port` only, mail for
/// `judge.test` piped to `judge handle` (as nobody), at most `maxproc`
/// deliveries at once, deferred mail retried every second, anything else
/// discarded.
struct Postfix {
    dir: PathBuf,
    port: u16,
}

impl Postfix {
    fn start(judge: &TestJudge, maxproc: usize) -> Postfix {
        let dir =
            std::env::temp_dir().join(format!("judge-postfix-{}-{}", std::process::id(), unique()));
        for sub in ["etc", "queue", "data"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let port = {
            let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            probe.local_addr().unwrap().port()
        };
        let d = dir.display();
        std::fs::write(
            dir.join("etc/main.cf"),
            format!(
                "compatibility_level = 3.6\n\
                 queue_directory = {d}/queue\n\
                 data_directory = {d}/data\n\
                 command_directory = /usr/sbin\n\
                 daemon_directory = /usr/lib/postfix/sbin\n\
                 meta_directory = /etc/postfix\n\
                 shlib_directory = /usr/lib/postfix\n\
                 mail_owner = postfix\n\
                 setgid_group = postdrop\n\
                 maillog_file = {d}/maillog\n\
                 maillog_file_prefixes = {d}\n\
                 inet_interfaces = 127.0.0.1\n\
                 inet_protocols = ipv4\n\
                 myhostname = mx.judge.test\n\
                 mydomain = judge.test\n\
                 myorigin = judge.test\n\
                 mydestination =\n\
                 mynetworks = 127.0.0.0/8\n\
                 relay_domains = judge.test\n\
                 transport_maps = inline:{{judge.test=judgepipe:}}\n\
                 default_transport = discard:no mail leaves this test\n\
                 smtpd_recipient_restrictions = permit_mynetworks, reject\n\
                 judgepipe_destination_recipient_limit = 1\n\
                 judgepipe_destination_concurrency_limit = {maxproc}\n\
                 judgepipe_initial_destination_concurrency = {maxproc}\n\
                 queue_run_delay = 1s\n\
                 minimal_backoff_time = 1s\n\
                 maximal_backoff_time = 2s\n\
                 alias_maps =\n\
                 alias_database =\n\
                 smtputf8_enable = no\n"
            ),
        )
        .unwrap();
        let services = [
            "pickup unix n - n 60 1 pickup",
            "cleanup unix n - n - 0 cleanup",
            "qmgr unix n - n 300 1 qmgr",
            "rewrite unix - - n - - trivial-rewrite",
            "bounce unix - - n - 0 bounce",
            "defer unix - - n - 0 bounce",
            "trace unix - - n - 0 bounce",
            "verify unix - - n - 1 verify",
            "flush unix n - n 1000? 0 flush",
            "proxymap unix - - n - - proxymap",
            "showq unix n - n - - showq",
            "error unix - - n - - error",
            "retry unix - - n - - error",
            "discard unix - - n - - discard",
            "anvil unix - - n - 1 anvil",
            "scache unix - - n - 1 scache",
            "postlog unix-dgram n - n - 1 postlogd",
        ];
        std::fs::write(
            dir.join("etc/master.cf"),
            format!(
                "127.0.0.1:{port} inet n - n - - smtpd\n{}\n\
                 judgepipe unix - n n - {maxproc} pipe\n  \
                 flags=R user=nobody argv={BIN} --config {} handle\n",
                services.join("\n"),
                judge.config().display()
            ),
        )
        .unwrap();
        // Postfix checks who owns what.
        run_ok(Command::new("chown").arg("postfix").arg(dir.join("data")));
        run_ok(Command::new("chmod").arg("755").arg(&dir));
        run_ok(
            Command::new("postfix")
                .arg("-c")
                .arg(dir.join("etc"))
                .arg("start"),
        );
        let postfix = Postfix { dir, port };
        assert!(
            wait_until(Duration::from_secs(20), || {
                std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
            }),
            "Postfix does not listen on {port}:\n{}",
            postfix.log()
        );
        postfix
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("maillog")).unwrap_or_default()
    }

    /// Whether no mail waits in any queue.
    fn queue_empty(&self) -> bool {
        fn files(dir: &Path) -> usize {
            std::fs::read_dir(dir).map_or(0, |d| {
                d.flatten()
                    .map(|e| {
                        let path = e.path();
                        if path.is_dir() {
                            files(&path)
                        } else {
                            1
                        }
                    })
                    .sum()
            })
        }
        ["maildrop", "incoming", "active", "deferred", "hold"]
            .iter()
            .all(|q| files(&self.dir.join("queue").join(q)) == 0)
    }

    /// Hands `mails` to Postfix over one SMTP session, for judge@judge.test.
    fn submit(&self, mails: &[&Planned]) {
        use std::io::{BufRead, BufReader, Write};
        let stream = std::net::TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut out = stream;
        let expect = |reader: &mut BufReader<std::net::TcpStream>, code: &str| loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            assert!(line.starts_with(code), "Postfix said {line:?}, not {code}");
            if line.as_bytes().get(3) != Some(&b'-') {
                return;
            }
        };
        expect(&mut reader, "220");
        out.write_all(b"EHLO test.example\r\n").unwrap();
        expect(&mut reader, "250");
        for mail in mails {
            out.write_all(format!("MAIL FROM:<{}>\r\n", mail.from).as_bytes())
                .unwrap();
            expect(&mut reader, "250");
            out.write_all(b"RCPT TO:<judge@judge.test>\r\n").unwrap();
            expect(&mut reader, "250");
            out.write_all(b"DATA\r\n").unwrap();
            expect(&mut reader, "354");
            for line in String::from_utf8_lossy(&mail.raw).split_inclusive("\r\n") {
                if line.starts_with('.') {
                    out.write_all(b".").unwrap();
                }
                out.write_all(line.as_bytes()).unwrap();
            }
            out.write_all(b".\r\n").unwrap();
            expect(&mut reader, "250");
        }
        out.write_all(b"QUIT\r\n").unwrap();
        expect(&mut reader, "221");
    }
}

impl Drop for Postfix {
    fn drop(&mut self) {
        let master = std::fs::read_to_string(self.dir.join("queue/pid/master.pid"))
            .ok()
            .map(|pid| PathBuf::from(format!("/proc/{}", pid.trim())));
        let _ = Command::new("postfix")
            .arg("-c")
            .arg(self.dir.join("etc"))
            .arg("stop")
            .status();
        if let Some(master) = master {
            wait_until(Duration::from_secs(20), || !master.exists());
        }
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

fn run_ok(command: &mut Command) {
    let status = command.status().unwrap();
    assert!(status.success(), "{command:?}: {status}");
}

/// Issue 10, item 8: the same mails as the 16-lane run, through a real
/// mail system whose pipe transport runs `judge handle` 16 at once beside
/// `judge run`. Postfix chooses the order, so each power's orders must come
/// from its last stored mail. Postfix must have bounced nothing, and every
/// delivery it deferred (a 75) must have been delivered in the end.
#[test]
fn postfix_pipes_to_judge_handle_16_at_once() {
    if let Some(why) = postfix_missing() {
        common::prerequisite::missing(
            "postfix_pipes_to_judge_handle_16_at_once",
            why,
            "tests/servers/start.sh installs it; the test needs root (.ci/run has both)",
        );
        return;
    }
    let _heavy = HEAVY.lock().unwrap_or_else(|e| e.into_inner());
    let started = Instant::now();
    let mut j = pipe_judge("postfix");
    let mut rng = Rng(0x9057_F1C5);
    let plan = plan("pf", 16, 2, &mut rng);
    let games: Vec<String> = plan
        .order_games
        .iter()
        .chain(&plan.process_games)
        .cloned()
        .collect();
    set_up(&mut j, &games);
    let setup_queued = j.query_i64("SELECT count(*) FROM outbound") as usize;
    // Everything that opens the store runs as the pipe transport's user.
    run_ok(
        Command::new("chown")
            .arg("-R")
            .arg(format!("{NOBODY}:{NOBODY}"))
            .arg(&j.dir),
    );
    let daemon = Daemon::start_as(&j, Some(NOBODY));
    let postfix = Postfix::start(&j, 16);
    // Every delivery of the plan, handed over by 8 SMTP clients at once.
    let mut deliveries: Vec<&Planned> = plan
        .lanes
        .iter()
        .flatten()
        .map(|&i| &plan.mails[i])
        .collect();
    rng.shuffle(&mut deliveries);
    std::thread::scope(|scope| {
        for part in deliveries.chunks(deliveries.len().div_ceil(8)) {
            let postfix = &postfix;
            scope.spawn(move || postfix.submit(part));
        }
        // For two seconds meanwhile the configuration cannot be read: the
        // deliveries then cannot store their mail and exit 75, and Postfix
        // must offer each again.
        let config = j.config();
        scope.spawn(move || {
            let away = config.with_extension("toml.away");
            std::thread::sleep(Duration::from_millis(500));
            std::fs::rename(&config, &away).unwrap();
            std::thread::sleep(Duration::from_secs(2));
            std::fs::rename(&away, &config).unwrap();
        });
    });
    let submitted = Instant::now();
    let db = j.db();
    let count =
        |sql: &str| -> usize { db.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap() as usize };
    let drained = wait_until(Duration::from_secs(90), || {
        postfix.queue_empty()
            && count("SELECT count(*) FROM inbound WHERE status = 'new'") == 0
            && count("SELECT count(*) FROM outbound WHERE sent_at IS NULL AND abandoned_at IS NULL")
                == 0
    });
    let drained_after = submitted.elapsed();
    let log = postfix.log();
    assert!(
        drained,
        "the mail was not all delivered and answered:\n{log}"
    );
    let (status, daemon_log) = daemon.stop();
    assert!(status.success(), "judge run: {status}\n{daemon_log}");

    let judgepipe = |status: &str| {
        log.lines()
            .filter(|l| l.contains("relay=judgepipe") && l.contains(status))
            .count()
    };
    let (delivered, deferred) = (judgepipe("status=sent"), judgepipe("status=deferred"));
    let bounced = log.lines().filter(|l| l.contains("status=bounced")).count();
    let mut f = Figures {
        lanes: 16,
        mails: plan.mails.len(),
        deliveries: deliveries.len(),
        tempfails: deferred,
        bad_statuses: bounced,
        drained_after,
        ..Figures::default()
    };
    check_store(&j, &plan, LastOrders::LastStored, setup_queued, &mut f);
    f.elapsed = started.elapsed();
    eprintln!(
        "Postfix, maxproc 16: {}; Postfix delivered {delivered}, deferred {deferred}, \
         bounced {bounced}",
        f.line()
    );
    assert_eq!(bounced, 0, "Postfix bounced mail:\n{log}");
    assert!(deferred > 0, "no delivery met the unreadable configuration");
    assert_eq!(
        delivered,
        deliveries.len(),
        "each delivery made once, in the end"
    );
    f.assert_clean();
}
