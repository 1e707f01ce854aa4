//! `judge adjudicate`: JSON Lines in, one JSON line out per line, same order.
//! A line that cannot be read (bad JSON, an impossible position) gets an
//! `{"line": N, "error": "..."}` line and makes the exit status non-zero.
//!
//! Lines are independent, so with more than one thread they are read in
//! batches, adjudicated by a pool of workers and written back in input
//! order by a writer. A batch goes out as soon as the reader would have
//! to wait for more input, so a line typed at a terminal is answered at
//! once; the number of batches in flight is bounded, so a huge file is
//! not read ahead into memory.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex};

use crate::engine::map::Map;
use crate::interchange::{run_phase, write_phase, PhaseInput, PhaseLine};

/// The most lines in one batch handed to a worker.
/// (At most 64: a `u64` marks the lines that are not UTF-8.)
const BATCH_LINES: usize = 64;

/// How many threads to use by default: one per core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Adjudicates every line of `input` onto `output` with `threads` workers
/// (1: all in the calling thread). Returns how many lines were in error.
pub fn run<R: Read>(
    input: &mut BufReader<R>,
    output: &mut (impl Write + Send),
    threads: usize,
) -> std::io::Result<usize> {
    if threads <= 1 {
        return run_serial(input, output);
    }
    run_parallel(input, output, threads)
}

/// One thread: read a line, answer it, and so on.
fn run_serial(input: &mut impl BufRead, output: &mut impl Write) -> std::io::Result<usize> {
    let mut answerer = Answerer::default();
    let mut line = String::new();
    let mut n = 0;
    loop {
        match read_line(input, &mut line)? {
            Line::End => break,
            Line::Text => answerer.answer(n + 1, &line),
            Line::NotUtf8 => answerer.not_utf8(n + 1),
        }
        n += 1;
        output.write_all(&answerer.out)?;
        answerer.out.clear();
    }
    output.flush()?;
    Ok(answerer.failures)
}

/// Answers lines into `out`, counting the lines in error.
#[derive(Default)]
struct Answerer {
    out: Vec<u8>,
    failures: usize,
}

impl Answerer {
    /// Appends the answer to line number `n` (nothing for a blank line).
    fn answer(&mut self, n: usize, line: &str) {
        if line.trim().is_empty() {
            return;
        }
        let map = Map::standard();
        let start = self.out.len();
        // The usual line is read in place and its answer written directly;
        // anything unusual goes the general way, which gives the same
        // answer or the error message.
        let result = match PhaseLine::read(line) {
            Some(input) => write_phase(map, &input, &mut self.out),
            None => serde_json::from_str::<PhaseInput>(line)
                .map_err(|e| format!("bad JSON: {e}"))
                .and_then(|input| run_phase(map, &input))
                .map(|phase| {
                    serde_json::to_writer(&mut self.out, &phase).expect("writing to a Vec")
                }),
        };
        if let Err(error) = result {
            self.failures += 1;
            self.out.truncate(start);
            let err = serde_json::json!({ "line": n, "error": error });
            serde_json::to_writer(&mut self.out, &err).expect("writing to a Vec");
        }
        self.out.push(b'\n');
    }

    /// Appends the error line for line number `n`, which is not UTF-8.
    fn not_utf8(&mut self, n: usize) {
        self.failures += 1;
        let err = serde_json::json!({ "line": n, "error": "not UTF-8 text" });
        serde_json::to_writer(&mut self.out, &err).expect("writing to a Vec");
        self.out.push(b'\n');
    }
}

/// What [`read_line`] found.
enum Line {
    /// The end of the input.
    End,
    /// A line, in `line`.
    Text,
    /// A line that is not UTF-8 (`line` is left empty).
    NotUtf8,
}

/// Reads the next line into `line` without its `\n` or `\r\n` (as
/// `BufRead::lines`).
fn read_line(input: &mut impl BufRead, line: &mut String) -> std::io::Result<Line> {
    let mut bytes = std::mem::take(line).into_bytes();
    bytes.clear();
    if input.read_until(b'\n', &mut bytes)? == 0 {
        return Ok(Line::End);
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
    }
    match String::from_utf8(bytes) {
        Ok(text) => {
            *line = text;
            Ok(Line::Text)
        }
        Err(e) => {
            let mut bytes = e.into_bytes();
            bytes.clear();
            *line = String::from_utf8(bytes).expect("empty");
            Ok(Line::NotUtf8)
        }
    }
}

/// Lines read together: the number of the first, and the lines.
struct Batch {
    seq: u64,
    first_line: usize,
    lines: Vec<String>,
    /// The lines that are not UTF-8 (bit `i`: `lines[i]`).
    not_utf8: u64,
}

/// A batch's answers.
struct Answers {
    seq: u64,
    out: Vec<u8>,
    failures: usize,
}

fn run_parallel<R: Read>(
    input: &mut BufReader<R>,
    output: &mut (impl Write + Send),
    threads: usize,
) -> std::io::Result<usize> {
    // Bounded: the reader waits when the workers are behind.
    let (work_tx, work_rx) = mpsc::sync_channel::<Batch>(threads * 2);
    let work_rx = Arc::new(Mutex::new(work_rx));
    let (done_tx, done_rx) = mpsc::channel::<Answers>();
    // Batches' line vectors, handed back by the workers for reuse, and
    // answer buffers, handed back by the writer (fresh ones would cost
    // page faults every batch).
    let (spare_tx, spare_rx) = mpsc::channel::<Vec<String>>();
    let (spare_out_tx, spare_out_rx) = mpsc::channel::<Vec<u8>>();
    let spare_out_rx = Mutex::new(spare_out_rx);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let work_rx = Arc::clone(&work_rx);
            let done_tx = done_tx.clone();
            let spare_tx = spare_tx.clone();
            let spare_out_rx = &spare_out_rx;
            scope.spawn(move || work(&work_rx, &done_tx, &spare_tx, spare_out_rx));
        }
        // Only the workers hold these now: when they are gone, the reader
        // and the writer see it.
        drop(work_rx);
        drop(done_tx);
        drop(spare_tx);
        let writer = scope.spawn(move || write_in_order(done_rx, output, &spare_out_tx));
        let read = read_batches(input, &work_tx, &spare_rx);
        // Closing the work channel ends the workers, then the writer.
        drop(work_tx);
        let written = writer.join().expect("the writer does not panic");
        read?;
        written
    })
}

/// Reads the input into batches for the workers.
fn read_batches<R: Read>(
    input: &mut BufReader<R>,
    work: &SyncSender<Batch>,
    spare: &Receiver<Vec<String>>,
) -> std::io::Result<()> {
    let mut seq = 0;
    let mut n = 0;
    loop {
        let mut lines = spare.try_recv().unwrap_or_default();
        let first_line = n + 1;
        let mut used = 0;
        let mut not_utf8 = 0u64;
        let mut more = true;
        // Fill the batch while lines are at hand; never wait for input
        // with lines unanswered.
        while used < BATCH_LINES {
            if used == lines.len() {
                lines.push(String::new());
            }
            match read_line(input, &mut lines[used])? {
                Line::End => {
                    more = false;
                    break;
                }
                Line::Text => {}
                Line::NotUtf8 => not_utf8 |= 1 << used,
            }
            used += 1;
            n += 1;
            if input.buffer().is_empty() {
                break;
            }
        }
        lines.truncate(used);
        if used > 0 {
            let batch = Batch {
                seq,
                first_line,
                lines,
                not_utf8,
            };
            seq += 1;
            if work.send(batch).is_err() {
                // The workers are gone: the writer failed and says why.
                return Ok(());
            }
        }
        if !more {
            return Ok(());
        }
    }
}

/// A worker: answers batches until the reader is done.
fn work(
    batches: &Mutex<Receiver<Batch>>,
    done: &mpsc::Sender<Answers>,
    spare: &mpsc::Sender<Vec<String>>,
    spare_out: &Mutex<Receiver<Vec<u8>>>,
) {
    loop {
        let batch = match batches.lock().expect("no worker panics").recv() {
            Ok(batch) => batch,
            Err(_) => return,
        };
        let out = spare_out
            .lock()
            .expect("no worker panics")
            .try_recv()
            .unwrap_or_default();
        let mut answerer = Answerer { out, failures: 0 };
        for (i, line) in batch.lines.iter().enumerate() {
            if batch.not_utf8 >> i & 1 == 1 {
                answerer.not_utf8(batch.first_line + i);
            } else {
                answerer.answer(batch.first_line + i, line);
            }
        }
        let _ = spare.send(batch.lines);
        let answers = Answers {
            seq: batch.seq,
            out: answerer.out,
            failures: answerer.failures,
        };
        if done.send(answers).is_err() {
            return;
        }
    }
}

/// Writes the batches' answers in input order; flushes whenever nothing
/// more is ready, so that answers do not wait in the buffer. Returns at
/// the first write error, which stops the workers and the reader too.
fn write_in_order(
    done: Receiver<Answers>,
    output: &mut impl Write,
    spare_out: &mpsc::Sender<Vec<u8>>,
) -> std::io::Result<usize> {
    let mut waiting: BTreeMap<u64, Answers> = BTreeMap::new();
    let mut next = 0;
    let mut failures = 0;
    while let Ok(answers) = done.recv() {
        let mut ready = Some(answers);
        while let Some(answers) = ready {
            waiting.insert(answers.seq, answers);
            while let Some(answers) = waiting.remove(&next) {
                next += 1;
                failures += answers.failures;
                output.write_all(&answers.out)?;
                let mut out = answers.out;
                out.clear();
                let _ = spare_out.send(out);
            }
            ready = done.try_recv().ok();
        }
        output.flush()?;
    }
    Ok(failures)
}
