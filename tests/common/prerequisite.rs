//! What a test needs from outside the project (a browser, mail servers,
//! Postfix, root): a test that cannot run here says so where the run's
//! output shows it, and fails in CI, where `.ci/run` provides everything
//! (and exports `CI=1`) and a skipped test would pass unseen.

use std::io::Write;

/// True when `CI` is set to anything but empty, `0` or `false`.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// Says that `test`, or a part of it, cannot run for want of `what`
/// (`how`: what provides it). In CI a failure; elsewhere a `SKIPPED` line
/// written straight to the process's stderr, past the test harness, which
/// shows what `eprintln!` writes only for a test that fails.
pub fn missing(test: &str, what: &str, how: &str) {
    assert!(!in_ci(), "{test}: CI is set, but {what}: {how}");
    let _ = writeln!(std::io::stderr(), "{test}: SKIPPED: {what}. {how}");
}

/// True when the tests run as root (who may read any file).
pub fn running_as_root() -> bool {
    let id = std::process::Command::new("id").arg("-u").output();
    id.is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}
