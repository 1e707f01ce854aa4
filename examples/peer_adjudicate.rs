//! The peer's side of `judge adjudicate`: reads the same JSON Lines on
//! stdin (`{"phase": ..., "units": {...}, "orders": {...}}`, as written by
//! `gen_phases`) and adjudicates each movement phase with the `diplomacy`
//! crate (`positions::peer_rules`), writing one JSON line per input line:
//!
//! ```text
//! {"phase":"F1903M","results":{"A PAR - BUR":"succeeds",...},
//!  "units":{"FRANCE":["A BUR",...]},"dislodged":{"FRANCE":{"A BEL":["PIC"]}},"errors":[]}
//! ```
//!
//! `results`: each order (as written in the input; holds generated for
//! unordered units in the peer's own spelling) and whether it succeeded;
//! `units`: the units left on the board; `dislodged`: dislodged units and
//! their available retreats. A line that cannot be read gives
//! `{"error": ...}`. Exit status 1 if any line failed.
//!
//! `cargo run --release --example peer_adjudicate < phases.jsonl`
//!
//! With `--compare`, each line is also adjudicated by our engine and every
//! difference (an order's success, the units left, the dislodged units and
//! their retreats) is reported on stderr, with a summary; for checking, not
//! for timing.

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufWriter, Write};

use diplomacy::judge::MappedMainOrder;
use diplomacy::{ShortName, UnitPosition, UnitPositions};
use serde::{Deserialize, Serialize};

#[path = "../benches/positions.rs"]
mod positions;
use positions::{
    ours_succeeds, parse_short, parse_unit, peer_rules, peer_states, power_by_upper,
    PeerPhaseBuilder,
};

#[derive(Deserialize)]
struct Input {
    phase: String,
    #[serde(default)]
    units: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    orders: BTreeMap<String, Vec<String>>,
}

#[derive(Serialize, PartialEq)]
struct Output {
    phase: String,
    results: BTreeMap<String, &'static str>,
    units: BTreeMap<String, Vec<String>>,
    dislodged: BTreeMap<String, BTreeMap<String, Vec<String>>>,
    errors: Vec<String>,
}

/// `stp(sc)` → `STP/SC`.
fn our_region(region: &str) -> String {
    match region.split_once('(') {
        Some((p, c)) => format!(
            "{}/{}",
            p.to_ascii_uppercase(),
            c.trim_end_matches(')').to_ascii_uppercase()
        ),
        None => region.to_ascii_uppercase(),
    }
}

fn unit_text(pos: &UnitPosition<'_, &diplomacy::geo::RegionKey>) -> String {
    format!(
        "{} {}",
        pos.unit.unit_type().short_name(),
        our_region(&pos.region.short_name())
    )
}

fn order_unit_text(o: &MappedMainOrder) -> String {
    format!(
        "{} {}",
        o.unit_type.short_name(),
        our_region(&o.region.short_name())
    )
}

fn adjudicate_line(line: &str) -> Result<Output, String> {
    let input: Input = serde_json::from_str(line).map_err(|e| e.to_string())?;
    if !input.phase.ends_with('M') {
        return Err(format!("{}: only movement phases", input.phase));
    }
    let mut builder = PeerPhaseBuilder::default();
    for (power, units) in &input.units {
        for u in units {
            builder.unit(power, u)?;
        }
    }
    for (power, orders) in &input.orders {
        for o in orders {
            builder.order(power, o);
        }
    }
    let phase = builder.finish();
    let map = diplomacy::geo::standard_map();
    let submission = phase.adjudicate(map, phase.orders.clone());
    let outcome = submission.adjudicate(peer_rules());
    let states = peer_states(&outcome);

    let mut results = BTreeMap::new();
    for (order, (_, text)) in phase.orders.iter().zip(&phase.texts) {
        let ok = states.get(order).copied().unwrap_or(false);
        results.insert(text.clone(), if ok { "succeeds" } else { "fails" });
    }
    for order in submission.generated_orders() {
        let ok = states.get(order).copied().unwrap_or(false);
        results.insert(order.to_string(), if ok { "succeeds" } else { "fails" });
    }

    let start = outcome.to_retreat_start();
    let mut units: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for pos in start.unit_positions() {
        units
            .entry(pos.nation().to_string())
            .or_default()
            .push(unit_text(&pos));
    }
    for list in units.values_mut() {
        list.sort();
    }
    let mut dislodged: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for order in start.dislodged().keys() {
        let position = UnitPosition::from(*order);
        let available = start
            .retreat_destinations()
            .iter()
            .find(|(p, _)| p.region == position.region && p.nation() == position.nation())
            .map(|(_, d)| {
                d.available()
                    .iter()
                    .map(|r| our_region(&r.short_name()))
                    .collect()
            })
            .unwrap_or_default();
        dislodged
            .entry(order.nation.to_string())
            .or_default()
            .insert(order_unit_text(order), available);
    }
    let errors = phase
        .errors
        .iter()
        .map(|(power, text, e)| format!("{power}: {text}: {e}"))
        .collect();
    Ok(Output {
        phase: input.phase,
        results,
        units,
        dislodged,
        errors,
    })
}

/// Our engine on the same line, in the same terms as [`Output`].
fn ours_line(line: &str) -> Result<Output, String> {
    use judge::engine::adjudicate::adjudicate;
    use judge::engine::map::Map;
    use judge::engine::order::OrderKind;
    use judge::engine::position::Position;

    let map = Map::standard();
    let input: Input = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let phase = input.phase.parse().map_err(|e| format!("{e}"))?;
    let mut pos = Position::empty(map, phase);
    for (power, units) in &input.units {
        let power = power_by_upper(power)?;
        for u in units {
            pos.units.push(parse_unit(map, power, u)?);
        }
    }
    let mut orders = Vec::new();
    let mut errors = Vec::new();
    for (power, list) in &input.orders {
        let p = power_by_upper(power)?;
        for text in list {
            match parse_short(map, p, text) {
                Ok(o) => orders.push(o),
                Err(e) => errors.push(format!("{power}: {text}: {e}")),
            }
        }
    }
    let adj = adjudicate(map, &pos, &orders);
    let mut results = BTreeMap::new();
    for (o, outcome) in &adj.orders {
        let text = if outcome.contains(judge::engine::outcome::Outcome::DEFAULTED)
            && o.kind == OrderKind::Hold
        {
            // The peer's spelling of the holds it generates.
            format!(
                "{}: {} {} holds",
                o.power.upper(),
                o.unit.letter(),
                positions::peer_region(&map.loc_abbr(o.location))
            )
        } else {
            o.short(map)
        };
        results.insert(
            text,
            if ours_succeeds(*outcome) {
                "succeeds"
            } else {
                "fails"
            },
        );
    }
    let mut units: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for u in &adj.next.units {
        units
            .entry(u.power.upper().to_string())
            .or_default()
            .push(format!("{} {}", u.kind.letter(), map.loc_abbr(u.location)));
    }
    for list in units.values_mut() {
        list.sort();
    }
    let mut dislodged: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for d in adj
        .next
        .dislodged
        .iter()
        .map(|d| (d.unit, d.retreats.clone()))
        .chain(adj.destroyed.iter().map(|u| (*u, Vec::new())))
    {
        let (u, retreats) = d;
        let mut r: Vec<String> = retreats.iter().map(|&l| map.loc_abbr(l)).collect();
        r.sort();
        dislodged
            .entry(u.power.upper().to_string())
            .or_default()
            .insert(
                format!("{} {}", u.kind.letter(), map.loc_abbr(u.location)),
                r,
            );
    }
    Ok(Output {
        phase: input.phase,
        results,
        units,
        dislodged,
        errors,
    })
}

/// Differences between the peer's output and ours, by kind.
#[derive(Default)]
struct Tally {
    lines: usize,
    orders: usize,
    by_kind: BTreeMap<&'static str, usize>,
}

fn order_kind(text: &str) -> &'static str {
    let w: Vec<&str> = text.split_whitespace().collect();
    match w.get(2).copied() {
        Some("-") if text.contains("VIA CONVOY") => "move (via convoy)",
        Some("-") => "move",
        Some("S") => "support",
        Some("C") => "convoy",
        _ => "hold",
    }
}

fn compare(n: usize, line: &str, peer: &Output, tally: &mut Tally) {
    let ours = match ours_line(line) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("line {n}: ours failed: {e}");
            return;
        }
    };
    tally.lines += 1;
    let mut differs = false;
    for (text, p) in &peer.results {
        tally.orders += 1;
        let o = ours.results.get(text).copied().unwrap_or("missing");
        if o != *p {
            differs = true;
            *tally.by_kind.entry(order_kind(text)).or_default() += 1;
            eprintln!("line {n} {}: {text}: peer {p}, ours {o}", peer.phase);
        }
    }
    if ours.units != peer.units {
        differs = true;
        *tally.by_kind.entry("units left").or_default() += 1;
        eprintln!("line {n} {}: units left differ", peer.phase);
    }
    let mut peer_dislodged = peer.dislodged.clone();
    for m in peer_dislodged.values_mut() {
        for r in m.values_mut() {
            r.sort();
        }
    }
    if ours.dislodged != peer_dislodged {
        differs = true;
        *tally.by_kind.entry("dislodged/retreats").or_default() += 1;
        eprintln!(
            "line {n} {}: dislodged differ: peer {:?}, ours {:?}",
            peer.phase, peer_dislodged, ours.dislodged
        );
    }
    if differs {
        *tally.by_kind.entry("lines with a difference").or_default() += 1;
    }
}

fn main() -> io::Result<()> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let check = std::env::args().any(|a| a == "--compare");
    let mut tally = Tally::default();
    let mut failed = 0usize;
    for (n, line) in stdin.lock().lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        match adjudicate_line(&line) {
            Ok(output) => {
                if check {
                    compare(n + 1, &line, &output, &mut tally);
                }
                serde_json::to_writer(&mut out, &output)?
            }
            Err(e) => {
                failed += 1;
                serde_json::to_writer(&mut out, &serde_json::json!({ "error": e }))?;
            }
        }
        out.write_all(b"\n")?;
    }
    out.flush()?;
    if check {
        eprintln!(
            "compare: {} lines, {} orders; differences: {:?}",
            tally.lines, tally.orders, tally.by_kind
        );
    }
    if failed > 0 {
        eprintln!("peer_adjudicate: {failed} line(s) could not be adjudicated");
        std::process::exit(1);
    }
    Ok(())
}
