//! `judge map <game> [phase]`: the map of a phase (with its orders and
//! results) or of the current position, as PNG or SVG. Reads the store
//! read-only: it can run beside `judge run`.

use std::path::Path;

use crate::config::Config;
use crate::game::pictures::picture_of_phase;
use crate::store;

/// The picture's format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    Png,
    Svg,
}

impl Format {
    /// PNG unless asked for SVG, or the output file's name ends in `.svg`.
    pub fn choose(svg: bool, png: bool, output: Option<&Path>) -> Format {
        let named_svg = output
            .and_then(Path::extension)
            .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
        if svg || (named_svg && !png) {
            Format::Svg
        } else {
            Format::Png
        }
    }
}

/// The picture's bytes.
pub fn run(
    config: &Config,
    game: &str,
    phase: Option<&str>,
    format: Format,
) -> Result<Vec<u8>, String> {
    let path = config.database_path();
    let store = store::Store::open_read_only(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let conn = store.conn();
    let err = |e: store::StoreError| e.to_string();
    let record = store::games::game_by_name(conn, game)
        .map_err(err)?
        .ok_or_else(|| format!("there is no game named '{game}'"))?;
    if record.state == crate::game::GameState::Forming {
        return Err(format!(
            "game '{game}' has not started: there is no board to draw until its players have joined"
        ));
    }
    let picture = picture_of_phase(conn, &config.judge.code, &record, phase)
        .map_err(err)?
        .with_palette(config.maps.palette());
    match format {
        Format::Svg => Ok(picture.svg().into_bytes()),
        Format::Png => picture.png(config.maps.width),
    }
}
