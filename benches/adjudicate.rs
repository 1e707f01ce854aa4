//! Our movement-phase adjudication against the `diplomacy` crate's, on the
//! same two positions, in one run:
//!
//! - `opening`: Spring 1901, the 22 units of the standard start, 22 orders.
//! - `midgame`: a busy Fall 1905, all 34 units on the board (supports, cut
//!   supports, a convoy, a three-unit rotation, bounces, dislodgements).
//!
//! Timed for ours: `adjudicate::adjudicate` (orders checked, resolved,
//! results tagged, the next position built, empty phases skipped). For the
//! peer: `Submission::new` (its order check, holds for unordered units) and
//! `Submission::adjudicate` (`positions::peer_rules`; every order resolved and
//! explained); a third line adds `Outcome::to_retreat_start` (dislodged
//! units, retreat options, units left on the board: its next position).
//! Orders are parsed beforehand on both sides; the peer's `Vec` of orders,
//! which its API takes by value, is cloned outside the timing.
//!
//! Before timing, both engines must agree on which orders succeed, and ours
//! must give the expected results. After criterion's groups, medians of
//! batches timed with `Instant` and the ratios peer/ours are printed.
//!
//! `cargo bench --bench adjudicate` (see `benches/README.md`).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion};
use diplomacy::judge::{MappedMainOrder, Submission};
use judge::engine::adjudicate::{adjudicate, Adjudication};
use judge::engine::map::Map;
use judge::engine::order::Order;
use judge::engine::outcome::Outcome;
use judge::engine::phase::Phase;
use judge::engine::position::Position;

mod positions;
use positions::{ours_succeeds, peer_rules, Case, PeerPhase};

/// A case ready to time on both sides.
struct Prepared {
    name: &'static str,
    position: Position,
    orders: Vec<Order>,
    peer: PeerPhase,
}

fn prepare(map: &Map, case: &Case) -> Prepared {
    let (position, orders) = case.ours(map);
    let peer = case.peer();
    assert!(
        peer.errors.is_empty(),
        "{}: orders the peer could not read: {:?}",
        case.name,
        peer.errors
    );
    assert_eq!(peer.orders.len(), orders.len());
    assert_eq!(orders.len(), case.order_count());
    Prepared {
        name: case.name,
        position,
        orders,
        peer,
    }
}

/// Our result for `order` in an adjudication's results.
fn our_outcome(results: &[(Order, Outcome)], order: &Order) -> Outcome {
    results
        .iter()
        .find(|(o, _)| o == order)
        .map(|&(_, r)| r)
        .unwrap_or_else(|| panic!("no result for {order:?}"))
}

/// Both engines must agree, order by order, on success; returns ours.
fn check_agreement(map: &Map, p: &Prepared) -> Vec<(String, Outcome)> {
    let adj = adjudicate(map, &p.position, &p.orders);
    let peer = p.peer.successes();
    let mut ours = Vec::new();
    let mut disagreements = Vec::new();
    for (i, order) in p.orders.iter().enumerate() {
        let outcome = our_outcome(&adj.orders, order);
        let text = order.short(map);
        if ours_succeeds(outcome) != peer[i] {
            disagreements.push(format!(
                "{text}: ours {:?} ({}), peer {}",
                ours_succeeds(outcome),
                outcome.summary(),
                if peer[i] { "succeeds" } else { "fails" }
            ));
        }
        ours.push((text, outcome));
    }
    assert!(
        disagreements.is_empty(),
        "{}: the engines disagree:\n  {}",
        p.name,
        disagreements.join("\n  ")
    );
    ours
}

/// Our results must be exactly these: `failing` lists the orders that fail
/// with their tags; every other order succeeds with no tag.
fn expect(ours: &[(String, Outcome)], failing: &[(&str, Outcome)]) {
    for (text, outcome) in ours {
        let want = failing
            .iter()
            .find(|(t, _)| t == text)
            .map_or(Outcome::NONE, |&(_, o)| o);
        assert_eq!(
            *outcome,
            want,
            "{text}: got {:?}, expected {:?}",
            outcome.summary(),
            want.summary()
        );
    }
    for (t, _) in failing {
        assert!(ours.iter().any(|(text, _)| text == t), "no order {t:?}");
    }
}

fn sanity(map: &Map, opening: &Prepared, midgame: &Prepared) {
    let ours = check_agreement(map, opening);
    expect(
        &ours,
        &[
            ("A VIE - GAL", Outcome::BOUNCE),
            ("A WAR - GAL", Outcome::BOUNCE),
            ("F SEV - BLA", Outcome::BOUNCE),
            ("F ANK - BLA", Outcome::BOUNCE),
        ],
    );
    let next = adjudicate(map, &opening.position, &opening.orders).next;
    assert_eq!(next.phase, "F1901M".parse::<Phase>().unwrap());
    assert_eq!(next.units.len(), 22);

    let ours = check_agreement(map, midgame);
    expect(
        &ours,
        &[
            ("A BEL H", Outcome::DISLODGED),
            ("A BUR S A BEL", Outcome::CUT | Outcome::DISLODGED),
            ("A MAR S A BUR", Outcome::CUT),
            ("A PIE - MAR", Outcome::BOUNCE),
            ("A UKR - RUM", Outcome::BOUNCE),
            ("A BUD - RUM", Outcome::BOUNCE),
            ("A SEV S A UKR - RUM", Outcome::CUT | Outcome::DISLODGED),
        ],
    );
    let adj = adjudicate(map, &midgame.position, &midgame.orders);
    assert_eq!(adj.next.phase, "F1905R".parse::<Phase>().unwrap());
    let mut dislodged: Vec<String> = adj
        .next
        .dislodged
        .iter()
        .map(|d| format!("{} {}", d.unit.kind.letter(), map.loc_abbr(d.unit.location)))
        .collect();
    dislodged.sort();
    assert_eq!(dislodged, ["A BEL", "A BUR", "A SEV"]);
    assert_eq!(adj.next.units.len(), 31);
    let at = |abbr: &str| {
        let p = map.province_by_abbr(abbr).unwrap();
        adj.next
            .unit_in(map, p)
            .map(|u| format!("{} {}", u.power.upper(), u.kind.letter()))
    };
    // The convoy landed, the rotation turned, the followers followed.
    assert_eq!(at("BEL").as_deref(), Some("ENGLAND A"));
    assert_eq!(at("LON").as_deref(), Some("ENGLAND A"));
    assert_eq!(at("BUR").as_deref(), Some("GERMANY A"));
    assert_eq!(at("MUN").as_deref(), Some("GERMANY A"));
    assert_eq!(at("SEV").as_deref(), Some("TURKEY A"));
    for p in ["VIE", "BOH", "GAL"] {
        assert_eq!(at(p).as_deref(), Some("AUSTRIA A"), "{p}");
    }
    assert_eq!(at("RUM"), None);
    assert_eq!(at("YOR"), None);
}

/// Our phase: what is timed. (Not inlined, so that a profiler sees it.)
#[inline(never)]
fn ours_main(map: &Map, position: &Position, orders: &[Order]) -> Adjudication {
    adjudicate(map, position, orders)
}

/// The peer's main phase: its submission (order check) and adjudication.
#[inline(never)]
fn peer_main(pmap: &diplomacy::geo::Map, peer: &PeerPhase, orders: Vec<MappedMainOrder>) -> usize {
    let submission = Submission::new(pmap, &peer.start, orders);
    let outcome = submission.adjudicate(peer_rules());
    black_box(&outcome);
    outcome.all_orders().count()
}

/// The same, then the peer's retreat-phase start (its next position).
#[inline(never)]
fn peer_with_next(
    pmap: &diplomacy::geo::Map,
    peer: &PeerPhase,
    orders: Vec<MappedMainOrder>,
) -> usize {
    let submission = Submission::new(pmap, &peer.start, orders);
    let outcome = submission.adjudicate(peer_rules());
    let start = outcome.to_retreat_start();
    black_box(&start);
    start.dislodged().len()
}

fn criterion_groups(c: &mut Criterion, map: &'static Map, cases: &[Prepared]) {
    let pmap = diplomacy::geo::standard_map();
    for p in cases {
        let mut group = c.benchmark_group(p.name);
        group.bench_function("ours", |b| {
            b.iter(|| ours_main(map, black_box(&p.position), black_box(&p.orders)))
        });
        group.bench_function("peer", |b| {
            b.iter_batched(
                || p.peer.orders.clone(),
                |orders| peer_main(pmap, &p.peer, orders),
                BatchSize::SmallInput,
            )
        });
        group.bench_function("peer_with_next", |b| {
            b.iter_batched(
                || p.peer.orders.clone(),
                |orders| peer_with_next(pmap, &p.peer, orders),
                BatchSize::SmallInput,
            )
        });
        group.finish();
    }
}

/// Median over `batches` batches of the time per call of `routine`, each
/// batch sized to take about `batch_time`; inputs are made outside the
/// timing.
fn median_ns<I, R>(
    batches: usize,
    batch_time: Duration,
    mut setup: impl FnMut() -> I,
    mut routine: impl FnMut(I) -> R,
) -> f64 {
    // Warm up and size the batches.
    let warm = Instant::now();
    let mut calls = 0u64;
    while warm.elapsed() < batch_time * 4 || calls < 3 {
        black_box(routine(setup()));
        calls += 1;
    }
    let per_call = warm.elapsed().as_secs_f64() / calls as f64;
    let size = ((batch_time.as_secs_f64() / per_call) as usize).max(1);
    let mut samples = Vec::with_capacity(batches);
    for _ in 0..batches {
        let inputs: Vec<I> = (0..size).map(|_| setup()).collect();
        let start = Instant::now();
        for input in inputs {
            black_box(routine(black_box(input)));
        }
        samples.push(start.elapsed().as_nanos() as f64 / size as f64);
    }
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Criterion's median estimate for `group/bench`, if it wrote one.
fn criterion_median(group: &str, bench: &str) -> Option<f64> {
    let home = std::env::var_os("CRITERION_HOME")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("CARGO_TARGET_DIR").map(|t| PathBuf::from(t).join("criterion"))
        })
        .unwrap_or_else(|| PathBuf::from("target/criterion"));
    let path = home.join(group).join(bench).join("new/estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json["median"]["point_estimate"].as_f64()
}

fn fmt_ns(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

fn ratio_summary(map: &'static Map, cases: &[Prepared], quick: bool) {
    let pmap = diplomacy::geo::standard_map();
    let (batches, batch_time) = if quick {
        (3, Duration::from_millis(1))
    } else {
        (41, Duration::from_millis(10))
    };
    println!();
    println!(
        "Medians of {batches} batches of ~{} ms each (Instant), per phase:",
        batch_time.as_millis()
    );
    println!(
        "{:<9} {:>11} {:>11} {:>9} {:>15} {:>9}",
        "case", "ours", "peer", "peer/ours", "peer_with_next", "ratio"
    );
    for p in cases {
        let ours = median_ns(
            batches,
            batch_time,
            || (),
            |()| ours_main(map, black_box(&p.position), black_box(&p.orders)),
        );
        let peer = median_ns(
            batches,
            batch_time,
            || p.peer.orders.clone(),
            |orders| peer_main(pmap, &p.peer, orders),
        );
        let next = median_ns(
            batches,
            batch_time,
            || p.peer.orders.clone(),
            |orders| peer_with_next(pmap, &p.peer, orders),
        );
        println!(
            "{:<9} {:>11} {:>11} {:>8.0}x {:>15} {:>8.0}x",
            p.name,
            fmt_ns(ours),
            fmt_ns(peer),
            peer / ours,
            fmt_ns(next),
            next / ours
        );
    }
    if quick {
        return;
    }
    let medians: Vec<_> = cases
        .iter()
        .map(|p| {
            (
                p.name,
                criterion_median(p.name, "ours"),
                criterion_median(p.name, "peer"),
            )
        })
        .collect();
    if medians.iter().all(|(_, o, p)| o.is_some() && p.is_some()) {
        println!("Criterion's median estimates:");
        for (name, ours, peer) in medians {
            let (ours, peer) = (ours.unwrap(), peer.unwrap());
            println!(
                "{name:<9} {:>11} {:>11} {:>8.0}x",
                fmt_ns(ours),
                fmt_ns(peer),
                peer / ours
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--list") {
        Criterion::default().configure_from_args().final_summary();
        return;
    }
    let quick = args.iter().any(|a| a == "--test");
    // `--profile-time N`: criterion only runs the routines (for a profiler).
    let profiling = args.iter().any(|a| a == "--profile-time");
    let map = Map::standard();
    let cases = [
        prepare(map, &positions::opening()),
        prepare(map, &positions::midgame()),
    ];
    sanity(map, &cases[0], &cases[1]);
    println!(
        "sanity: both engines agree on all {} + {} orders; ours gives the expected results",
        cases[0].orders.len(),
        cases[1].orders.len()
    );

    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50)
        .configure_from_args();
    criterion_groups(&mut c, map, &cases);
    c.final_summary();

    if !profiling {
        ratio_summary(map, &cases, quick);
    }
}
