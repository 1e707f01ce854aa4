//! `judge adjudicate` as a whole process: JSON Lines in, one line out per
//! line, in order. The DATC v2.4 cases (movement, retreat with the data's
//! retreat options, adjustment) go through the player-facing order parser
//! and the JSON layer, and must end where the DATC says.

use std::collections::BTreeSet;
use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

fn run_judge(input: &str) -> (Vec<Value>, bool) {
    let (out, ok) = run_adjudicate(&[], input);
    let lines = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("every output line is JSON"))
        .collect();
    (lines, ok)
}

/// Runs `judge adjudicate` with more arguments on `input`: its standard
/// output and whether it succeeded.
fn run_adjudicate(args: &[&str], input: impl AsRef<[u8]>) -> (String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_judge"))
        .arg("adjudicate")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start judge");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.as_ref().to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().expect("judge runs");
    writer.join().unwrap().unwrap();
    (String::from_utf8(out.stdout).unwrap(), out.status.success())
}

/// "POWER: unit" for every unit of a per-power map of lists or objects.
fn unit_set(v: &Value) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    if let Some(powers) = v.as_object() {
        for (power, units) in powers {
            match units {
                Value::Array(list) => {
                    for u in list {
                        set.insert(format!("{power}: {}", u.as_str().unwrap()));
                    }
                }
                Value::Object(map) => {
                    for u in map.keys() {
                        set.insert(format!("{power}: {u}"));
                    }
                }
                _ => panic!("unexpected {units}"),
            }
        }
    }
    set
}

/// How a retreat case's orders and disbands came out against the data's
/// `expect.orders` and `expect.disbanded`: one line per disagreement. An
/// order expected to fail may also be refused by the order reader (named
/// in `errors`); one expected to succeed must be reported "ok".
fn retreat_mismatches(case: &Value, out: &Value) -> Vec<String> {
    let mut bad = Vec::new();
    let errors: Vec<&str> = out["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    for (power, orders) in case["expect"]["orders"].as_object().unwrap() {
        for (order, expected) in orders.as_object().unwrap() {
            let result = out["results"][order.as_str()].as_str();
            let refused = errors
                .iter()
                .any(|e| e.starts_with(&format!("{power}: {order}: ")));
            let holds = match expected.as_str().unwrap() {
                "succeeds" => result == Some("ok"),
                "fails" => result.is_some_and(|r| r != "ok") || (result.is_none() && refused),
                other => panic!("bad expectation {other}"),
            };
            if !holds {
                bad.push(format!(
                    "{power} {order}: expected {expected}, got {result:?} (refused: {refused})"
                ));
            }
        }
    }
    // Results name no power; a unit's province names it on its own.
    let disbanded: BTreeSet<String> = out["results"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, r)| r.as_str().unwrap().contains("disbanded"))
        .map(|(o, _)| o.split(' ').take(2).collect::<Vec<_>>().join(" "))
        .collect();
    let expected: BTreeSet<String> = unit_set(&case["expect"]["disbanded"])
        .into_iter()
        .map(|u| u.split_once(": ").unwrap().1.to_string())
        .collect();
    if disbanded != expected {
        bad.push(format!("disbanded {disbanded:?}, expected {expected:?}"));
    }
    bad
}

#[test]
fn datc_cases_through_the_json_interface() {
    let cases: Vec<Value> = include_str!("datc/v2.4.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let input: String = cases.iter().map(|c| format!("{c}\n")).collect();
    let (outputs, ok) = run_judge(&input);
    assert!(ok, "every DATC line is a possible position");
    assert_eq!(outputs.len(), cases.len(), "one line out per line in");
    let mut failures = Vec::new();
    let mut retreat_cases = 0;
    for (case, out) in cases.iter().zip(&outputs) {
        let name = case["name"].as_str().unwrap();
        assert_eq!(out["phase"], case["phase"], "{name}: output in input order");
        let units = unit_set(&out["next"]["units"]);
        let expected = unit_set(&case["expect"]["units"]);
        let dislodged = unit_set(&out["next"]["retreats"]);
        let expected_dislodged = unit_set(&case["expect"]["dislodged"]);
        if units != expected || dislodged != expected_dislodged {
            failures.push(format!(
                "{name}: units {units:?} (expected {expected:?}), retreating {dislodged:?} \
                 (expected {expected_dislodged:?}); errors {}",
                out["errors"]
            ));
        }
        if case["phase"].as_str().unwrap().ends_with('R') {
            retreat_cases += 1;
            for m in retreat_mismatches(case, out) {
                failures.push(format!("{name}: {m}"));
            }
        }
    }
    assert_eq!(retreat_cases, 17, "the retreat cases of v2.4.jsonl");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn results_and_errors_are_reported_per_order() {
    let line = r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"]},
        "orders": {"FRANCE": ["A Par - Bur", "A Mar S A Par - Bur"], "GERMANY": ["Army Munich -> Burgundy", "F Kie - Hol"]}}"#;
    let (out, ok) = run_judge(&format!("{}\n", line.replace('\n', " ")));
    assert!(ok);
    let out = &out[0];
    assert_eq!(out["results"]["A PAR - BUR"], "ok");
    assert_eq!(out["results"]["A MUN - BUR"], "bounce");
    assert_eq!(out["next"]["phase"], "F1901M");
    assert_eq!(
        unit_set(&out["next"]["units"]),
        BTreeSet::from([
            "FRANCE: A BUR".to_string(),
            "FRANCE: A MAR".to_string(),
            "GERMANY: A MUN".to_string()
        ])
    );
    let errors = out["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0]
        .as_str()
        .unwrap()
        .starts_with("GERMANY: F Kie - Hol"));
}

#[test]
fn fall_moves_change_ownership_and_skip_empty_phases() {
    let line = r#"{"phase": "F1901M", "units": {"ENGLAND": ["F NTH", "A YOR"], "FRANCE": ["A BEL"]}, "centers": {"ENGLAND": ["LON", "EDI"]}, "orders": {"ENGLAND": ["A YOR - HOL VIA CONVOY", "F NTH C A YOR - HOL"]}}"#;
    let (out, ok) = run_judge(&format!("{line}\n"));
    assert!(ok);
    let next = &out[0]["next"];
    assert_eq!(
        next["centers"]["ENGLAND"],
        serde_json::json!(["EDI", "HOL", "LON"])
    );
    // England: 3 centres, 2 units, a free home centre (LON): it builds.
    assert_eq!(next["phase"], "W1901A");
    assert_eq!(out[0]["results"]["A YOR - HOL VIA CONVOY"], "ok");
}

#[test]
fn bad_lines_get_an_error_line_and_a_failing_exit() {
    let input = "not json\n{\"phase\": \"S1901M\", \"units\": {\"FRANCE\": [\"F PAR\"]}}\n{\"phase\": \"X1901M\"}\n{\"phase\": \"S1901M\", \"units\": {\"FRANCE\": [\"A PAR\"], \"GERMANY\": [\"A PAR\"]}}\n{\"phase\": \"S1901M\"}\n";
    let (out, ok) = run_judge(input);
    assert!(!ok, "exit status is non-zero");
    assert_eq!(out.len(), 5);
    assert_eq!(out[0]["line"], 1);
    assert!(out[0]["error"].as_str().unwrap().starts_with("bad JSON"));
    assert_eq!(out[1]["error"], "\"F PAR\": a fleet cannot stand in Paris");
    assert!(out[2]["error"].as_str().unwrap().contains("is not a phase"));
    assert_eq!(out[3]["error"], "two units in PAR");
    assert_eq!(out[4]["phase"], "S1901M", "an empty board is a position");
}

#[test]
fn many_threads_answer_as_one_does_line_for_line() {
    // Every DATC position, with bad lines and blank lines among them,
    // several times over: enough lines for many batches.
    let mut input = String::new();
    let mut bad_lines = Vec::new();
    let mut n = 0;
    for round in 0..6 {
        for file in [
            include_str!("datc/v2.4.jsonl"),
            include_str!("datc/v3.jsonl"),
        ] {
            for (i, line) in file.lines().enumerate() {
                input.push_str(line);
                input.push('\n');
                n += 1;
                if i % 50 == round {
                    input.push_str(
                        "{\"phase\": \"S1901M\", \"units\": {\"FRANCE\": [\"F PAR\"]}}\n\n",
                    );
                    bad_lines.push(n + 1);
                    n += 2;
                }
            }
        }
    }
    let (one, one_ok) = run_adjudicate(&["--threads", "1"], &input);
    let (four, four_ok) = run_adjudicate(&["--threads", "4"], &input);
    assert!(!one_ok && !four_ok, "bad lines make both fail");
    assert_eq!(
        one.lines().count(),
        n - bad_lines.len(),
        "blank lines get no answer"
    );
    assert!(one == four, "the same bytes with four threads as with one");
    let error_lines: Vec<usize> = one
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter_map(|v| v["line"].as_u64().map(|n| n as usize))
        .collect();
    assert_eq!(error_lines, bad_lines, "errors name their input lines");
}

/// `judge adjudicate --threads N`, its standard streams piped.
fn spawn_adjudicate(threads: &str) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(["adjudicate", "--threads", threads])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start judge")
}

#[test]
fn a_line_is_answered_before_the_next_one_comes() {
    let mut child = spawn_adjudicate("2");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    for phase in ["S1901M", "F1901M"] {
        writeln!(stdin, "{{\"phase\": \"{phase}\", \"units\": {{\"FRANCE\": [\"A PAR\"]}}, \"orders\": {{\"FRANCE\": [\"A PAR - BUR\"]}}}}").unwrap();
        stdin.flush().unwrap();
        // Standard input stays open: the answer must come anyway.
        let answer = rx
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("an answer while the input is still open");
        let answer: Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(answer["phase"], phase);
        assert_eq!(answer["results"]["A PAR - BUR"], "ok");
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_closed_output_stops_every_thread() {
    let mut child = spawn_adjudicate("3");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // Far more answers than a pipe holds; a write fails once judge stops.
        let line = include_str!("datc/v2.4.jsonl").lines().next().unwrap();
        for _ in 0..100_000 {
            if writeln!(stdin, "{line}").is_err() {
                break;
            }
        }
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 100];
    std::io::Read::read_exact(&mut stdout, &mut first).expect("answers come");
    drop(stdout);
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(!status.success(), "a broken pipe is a failure");
            break;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "judge still running after its output was closed"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(err.contains("Broken pipe"), "{err}");
    writer.join().unwrap();
}

#[test]
fn a_line_that_is_not_utf8_gets_an_error_line_and_the_rest_are_answered() {
    let good = "{\"phase\": \"S1901M\", \"units\": {\"FRANCE\": [\"A PAR\"]}, \"orders\": {\"FRANCE\": [\"A PAR - BUR\"]}}\n";
    let mut input = good.as_bytes().to_vec();
    input.extend_from_slice(b"{\"phase\": \"S1901M\", \"units\": {\"FRANCE\": [\"A P\xc9R\"]}}\n");
    input.extend_from_slice(good.as_bytes());
    for threads in ["1", "3"] {
        let (out, ok) = run_adjudicate(&["--threads", threads], &input);
        assert!(!ok, "a bad line makes the exit status non-zero");
        let lines: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert_eq!(lines[0]["results"]["A PAR - BUR"], "ok");
        assert_eq!(lines[1]["line"], 2);
        assert_eq!(lines[1]["error"], "not UTF-8 text");
        assert_eq!(lines[2]["results"]["A PAR - BUR"], "ok");
    }
}
