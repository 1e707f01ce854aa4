//! `judge adjudicate`: JSON Lines in, one JSON line out per line, same order.
//! A line that cannot be read (bad JSON, an impossible position) gets an
//! `{"line": N, "error": "..."}` line and makes the exit status non-zero.

use std::io::{BufRead, Write};

use crate::engine::map::Map;
use crate::interchange::{run_phase, PhaseInput};

/// Returns how many lines were in error.
pub fn run(input: impl BufRead, mut output: impl Write) -> std::io::Result<usize> {
    let map = Map::standard();
    let mut failures = 0;
    for (n, line) in input.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let result = serde_json::from_str::<PhaseInput>(&line)
            .map_err(|e| format!("bad JSON: {e}"))
            .and_then(|input| run_phase(map, &input));
        match result {
            Ok(out) => {
                serde_json::to_writer(&mut output, &out)?;
            }
            Err(error) => {
                failures += 1;
                let err = serde_json::json!({ "line": n + 1, "error": error });
                serde_json::to_writer(&mut output, &err)?;
            }
        }
        output.write_all(b"\n")?;
    }
    output.flush()?;
    Ok(failures)
}
