//! `judge adjudicate`: JSON Lines in, one JSON line out per line, same order.
//! A line that cannot be read (bad JSON, an impossible position) gets an
//! `{"line": N, "error": "..."}` line and makes the exit status non-zero.

use std::io::{BufRead, Write};

use crate::engine::map::Map;
use crate::interchange::{run_phase, write_phase, PhaseInput, PhaseLine};

/// Returns how many lines were in error.
pub fn run(mut input: impl BufRead, mut output: impl Write) -> std::io::Result<usize> {
    let map = Map::standard();
    let mut failures = 0;
    let mut line = String::new();
    let mut out: Vec<u8> = Vec::new();
    let mut n = 0;
    loop {
        // As `BufRead::lines`: the line without its `\n` or `\r\n`.
        line.clear();
        if input.read_line(&mut line)? == 0 {
            break;
        }
        if line.ends_with('\n') {
            line.pop();
            if line.ends_with('\r') {
                line.pop();
            }
        }
        n += 1;
        if line.trim().is_empty() {
            continue;
        }
        out.clear();
        // The usual line is read in place and its answer written directly;
        // anything unusual goes the general way, which gives the same
        // answer or the error message.
        let result = match PhaseLine::read(&line) {
            Some(input) => write_phase(map, &input, &mut out),
            None => serde_json::from_str::<PhaseInput>(&line)
                .map_err(|e| format!("bad JSON: {e}"))
                .and_then(|input| run_phase(map, &input))
                .map(|phase| serde_json::to_writer(&mut out, &phase).expect("writing to a Vec")),
        };
        if let Err(error) = result {
            failures += 1;
            out.clear();
            let err = serde_json::json!({ "line": n, "error": error });
            serde_json::to_writer(&mut out, &err)?;
        }
        out.push(b'\n');
        output.write_all(&out)?;
    }
    output.flush()?;
    Ok(failures)
}
