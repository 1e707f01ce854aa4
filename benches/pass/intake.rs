//! The cold intake, the same mails for every binary: `games` games (100
//! by default) made and started by mail by the first binary (cached in
//! `target/pass/intake-n<games>-<builder>/`); then, for each binary in
//! turn, a fresh copy (migrated by `judge check`), 14 order mails per seat
//! delivered into its Maildir inbox (9,800 for 100 games: `SIGNON
//! <initial><game> <password>` and one random legal order per unit, the
//! last set standing, shuffled over the seats, seeded), and one `judge run
//! --once` timed, as the service takes them: each mail stored, handled,
//! its reply queued, the store synced and the mails moved to `cur/` every
//! 32; every seat's first sign-on pays its argon2id check (a new process:
//! no seat verified). The intake is timed to the log line of the last mail
//! answered (both builds log one per mail); the rest of the pass sends the
//! replies. Maps and pages off.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::time::Instant;

use judge::engine::map::Map;

use super::{
    file_fingerprint, fresh_copy, make_games, median, password, player, read_deadline, read_seats,
    start_run, tail, Binary, Rng,
};
use crate::common::movement_orders;

/// Order mails per seat, as in the measure (9,800 from 700 seats).
const MAILS_PER_SEAT: usize = 14;

pub fn bench(root: &Path, binaries: &[Binary], games: usize, seed: u64, runs: usize) {
    let state = joined_state(root, &binaries[0], games);
    let deadline = read_deadline(&state);
    let mails = order_mails(&state, games, seed);
    println!();
    println!(
        "intake: {} order mails from {} seats of {games} games, one `judge run --once` each",
        mails.len(),
        games * 7
    );
    let mut rates: Vec<Vec<f64>> = vec![Vec::new(); binaries.len()];
    for run in 1..=runs {
        for (b, binary) in binaries.iter().enumerate() {
            let (intake, wall) = timed_intake(root, &state, binary, &mails, deadline - 300);
            let rate = mails.len() as f64 / intake;
            println!(
                "run {run}: {}: intake {intake:.2} s ({rate:.0} mails/s); the pass {wall:.2} s",
                binary.label
            );
            rates[b].push(rate);
        }
    }
    for (b, binary) in binaries.iter().enumerate() {
        let each: Vec<String> = rates[b].iter().map(|r| format!("{r:.0}")).collect();
        let m = median(rates[b].clone()).unwrap_or(0.0);
        println!(
            "intake/{}: median {m:.0} mails/s ({})",
            binary.label,
            each.join(", ")
        );
    }
}

/// The games made and started, every seat's power drawn: reused when
/// complete.
fn joined_state(root: &Path, builder: &Binary, games: usize) -> PathBuf {
    let dir = root.join(format!(
        "intake-n{games}-{}",
        file_fingerprint(&builder.path)
    ));
    if dir.join("complete").exists() {
        return dir;
    }
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the intake state folder");
    make_games(&builder.path, &dir, games);
    std::fs::write(dir.join("complete"), "joined\n").expect("mark complete");
    dir
}

/// (from, body) of every order mail, in delivery order.
fn order_mails(state: &Path, games: usize, seed: u64) -> Vec<(String, String)> {
    let map = Map::standard();
    let seats = read_seats(state, games);
    let mut rng = Rng(0x1A7A_4E00_0000_0001 ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut order: Vec<usize> = (0..seats.len())
        .flat_map(|i| std::iter::repeat_n(i, MAILS_PER_SEAT))
        .collect();
    rng.shuffle(&mut order);
    order
        .into_iter()
        .map(|i| {
            let seat = &seats[i];
            let orders: Vec<String> = movement_orders(map, &seat.position, seat.power, &mut rng)
                .iter()
                .map(|o| o.short(map))
                .collect();
            let initial = seat.power.upper().chars().next().expect("a name");
            let body = format!(
                "SIGNON {initial}{} {}\n{}",
                seat.game,
                password(seat.g, seat.k),
                orders.join("\n")
            );
            (player(seat.g, seat.k), body)
        })
        .collect()
}

/// One binary's intake of `mails` on a fresh copy of `state`: the time to
/// the last mail answered, and the whole pass's.
fn timed_intake(
    root: &Path,
    state: &Path,
    binary: &Binary,
    mails: &[(String, String)],
    at: i64,
) -> (f64, f64) {
    let (dir, mut inbox) = fresh_copy(root, "intake-run", state, binary, false);
    for (from, body) in mails {
        inbox.deliver(from, "orders", body);
    }
    let started = Instant::now();
    let (mut child, stderr) = start_run(&binary.path, "intake", &dir, at);
    let mut last_answer = 0.0;
    let mut answered = 0;
    let mut log = String::new();
    for line in BufReader::new(stderr).lines() {
        let line = line.expect("a log line");
        if line.to_ascii_lowercase().contains("answered") {
            last_answer = started.elapsed().as_secs_f64();
            answered += 1;
        } else {
            log.push_str(&line);
            log.push('\n');
        }
    }
    let status = child.wait().expect("wait for judge run");
    let wall = started.elapsed().as_secs_f64();
    assert!(status.success(), "the intake failed:\n{}", tail(&log));
    assert_eq!(
        answered,
        mails.len(),
        "every mail answered:\n{}",
        tail(&log)
    );
    super::set_aside(root, &dir);
    (last_answer, wall)
}
