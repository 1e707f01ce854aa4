//! Faults injected on purpose, for the tests that prove a panic is
//! contained (a mail marked failed, a game marked failed, everything else
//! going on). Only with the `fault-injection` feature, which the tests'
//! builds turn on (Cargo.toml says how): the judge you build or install
//! compiles this to nothing.
//!
//! `JUDGE_TEST_PANIC=mail:<subject>` panics while handling a mail with
//! that subject (after its commands have written to the store);
//! `JUDGE_TEST_PANIC=game:<name>` panics while the clock processes that
//! game (after the game's work for the tick is done, before it is kept).

/// Panics if the environment asks for a fault at this `place` for `name`.
pub fn maybe_panic(place: &str, name: &str) {
    #[cfg(feature = "fault-injection")]
    if let Ok(wanted) = std::env::var("JUDGE_TEST_PANIC") {
        if wanted.split_once(':') == Some((place, name)) {
            panic!("JUDGE_TEST_PANIC: a fault injected in {place} {name:?}");
        }
    }
    #[cfg(not(feature = "fault-injection"))]
    let _ = (place, name);
}

/// The text of a caught panic.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_string())
}
