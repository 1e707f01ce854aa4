//! The floor under `judge adjudicate` as a whole process: the same JSON
//! Lines read and written again, with no adjudication at all, to compare
//! `benches/process.sh`'s timings with (see `benches/README.md`, section 2).
//!
//! ```sh
//! cargo build --release --example json_floor
//! target/release/examples/json_floor copy  < phases.jsonl > /dev/null  # lines in, lines out
//! target/release/examples/json_floor value < phases.jsonl > /dev/null  # serde_json::Value
//! target/release/examples/json_floor typed < phases.jsonl > /dev/null  # PhaseInput, serde derive
//! ```
//!
//! - `copy`: each line read and written back (the I/O alone).
//! - `value`: each line parsed into a `serde_json::Value` and written again.
//! - `typed` (the default): each line read as `judge adjudicate` reads an
//!   unusual line (`interchange::PhaseInput`, serde derive), and its
//!   position and orders written again with serde: about the work of the
//!   JSON layer of a serde-based `judge adjudicate`, without the engine.

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufWriter, Write};

use judge::interchange::{PhaseInput, PositionJson};
use serde::Serialize;

#[derive(Serialize)]
struct Echo<'a> {
    position: &'a PositionJson,
    orders: &'a BTreeMap<String, Vec<String>>,
}

fn main() -> io::Result<()> {
    let mode = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "typed".to_string());
    let stdin = io::stdin().lock();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut failures = 0;
    for line in stdin.lines() {
        let line = line?;
        match mode.as_str() {
            "copy" => out.write_all(line.as_bytes())?,
            "value" => match serde_json::from_str::<serde_json::Value>(&line) {
                Ok(v) => serde_json::to_writer(&mut out, &v)?,
                Err(_) => failures += 1,
            },
            "typed" => match serde_json::from_str::<PhaseInput>(&line) {
                Ok(input) => serde_json::to_writer(
                    &mut out,
                    &Echo {
                        position: &input.position,
                        orders: &input.orders,
                    },
                )?,
                Err(_) => failures += 1,
            },
            other => {
                eprintln!("json_floor: unknown mode {other:?} (copy, value or typed)");
                std::process::exit(2);
            }
        }
        out.write_all(b"\n")?;
    }
    out.flush()?;
    if failures > 0 {
        eprintln!("json_floor: {failures} line(s) could not be read");
    }
    Ok(())
}
