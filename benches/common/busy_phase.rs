//! The busy movement phase the map benchmarks draw: the golden test's
//! `tests/draw/movement.json` (34 units, every kind of order, three units
//! dislodged), adjudicated. Shared by `benches/draw.rs` and
//! `examples/png_instructions.rs` (included by path).

use judge::draw::Scene;
use judge::engine::adjudicate::{adjudicate, Adjudication};
use judge::engine::map::Map;
use judge::engine::position::Position;
use judge::interchange::{read_phase, PhaseInput};

/// The title the benchmarks draw.
pub const TITLE: &str = "Judge JDG, game demo: Fall 1905, movement results";

/// The position before the phase and the phase adjudicated.
pub fn busy_phase(map: &Map) -> (Position, Adjudication) {
    let json = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/draw/movement.json"),
    )
    .expect("the scene");
    let input: PhaseInput = serde_json::from_str(&json).expect("JSON");
    let (position, orders, errors) = read_phase(map, &input).expect("position");
    assert!(errors.is_empty(), "{errors:?}");
    let adjudication = adjudicate(map, &position, &orders);
    (position, adjudication)
}

/// The picture of the phase: its orders with their results, the
/// dislodged units with their retreats.
pub fn scene<'a>(position: &'a Position, adjudication: &'a Adjudication) -> Scene<'a> {
    Scene {
        position,
        orders: &adjudication.orders,
        retreats: &adjudication.next.dislodged,
        title: TITLE,
        palette: judge::draw::Palette::default(),
    }
}
