//! A sample game every page template is tried on when the templates are
//! loaded: every branch a page has (a game with and without phases, press
//! and players; a phase with orders of every kind of line, retreats and
//! adjustments, and one with none), so that a mistake in an edited
//! template is reported at the start, not by the first web pass.

use super::feed::{game_feed, PhaseEntry, Publisher};
use super::pages::{
    game_index, index_page, index_row, laid_out_row, phase_page, play_page, render_row,
};
use super::templates::{PageTemplates, TemplateError};
use super::view::{
    Board, GameCard, GameView, PhaseLine, PhaseView, PowerView, PressItem, SettingsView,
};
use crate::engine::adjudicate::adjudicate;
use crate::engine::map::{Map, Power};
use crate::engine::outcome::Outcome;
use crate::engine::phase::{Phase, PhaseKind, Season};
use crate::engine::position::{Dislodged, Position};
use crate::game::pictures::PhasePicture;
use crate::store::games::GameState;

const AT: i64 = 1_800_000_000;

/// Renders every page of the sample game; the first failure.
pub fn try_every_page(templates: &PageTemplates) -> Result<(), TemplateError> {
    let by = Publisher {
        name: "Sample Judge",
        address: "judge@example.org",
        code: "JDG",
        url: Some("https://example.org/games/"),
    };
    let (played, forming) = (game(true), game(false));
    let row = |card| -> Result<_, TemplateError> {
        Ok(laid_out_row(&render_row(templates, &index_row(card))?))
    };
    index_page(
        templates,
        by.name,
        vec![row(&played.card)?],
        vec![row(&forming.card)?],
    )?;
    index_page(templates, by.name, Vec::new(), Vec::new())?;
    let (full, empty) = (phase(true), phase(false));
    // The same game while it is played: the board with its deadline.
    let mut playing = game(true);
    playing.card.state = GameState::Active;
    game_index(templates, &played, Some("summary.png"))?;
    for view in [&played, &playing, &forming] {
        game_index(templates, view, None)?;
        play_page(templates, view)?;
        let entries = [&full, &empty]
            .into_iter()
            .filter(|_| !view.phases.is_empty())
            .map(|p| PhaseEntry::of(&p.picture, p.processed_at))
            .collect();
        game_feed(templates, &by, view, entries)?;
    }
    phase_page(
        templates,
        &full,
        Some(Phase::START),
        Some(full.picture.position.phase),
    )?;
    phase_page(templates, &empty, None, None)?;
    Ok(())
}

/// A game in play (or ended), or one still forming.
pub(super) fn game(played: bool) -> GameView {
    let fall = Phase::new(Season::Fall, 1901, PhaseKind::Movement);
    let tenure = |from: &str, to: Option<&str>| (from.to_string(), to.map(str::to_string));
    let schedule = "72 hours after the phase starts; grace 24 hours".to_string();
    GameView {
        card: GameCard {
            name: "sample".to_string(),
            variant: "Standard".to_string(),
            state: if played {
                GameState::Finished
            } else {
                GameState::Forming
            },
            current: played.then_some(fall),
            activity: AT,
            result: played.then(|| "The game was declared a draw.".to_string()),
            centres: vec![(Power::England, 4), (Power::France, 5)],
            deadline: played.then_some(AT + 3600),
            board: played.then(|| Board {
                position: Position::standard_start(Map::standard()),
                version: format!("S1902M-{AT}"),
            }),
        },
        settings: SettingsView {
            white: played,
            grey: !played,
            partial: played,
            nmr: played,
            nodias: played,
            movement: schedule.clone(),
            retreat: schedule.clone(),
            adjustment: schedule,
            end_year: played.then_some(1910),
        },
        powers: if played {
            vec![
                PowerView {
                    power: Power::England,
                    tenures: vec![
                        tenure("S1901M", Some("F1901M")),
                        tenure("F1901M", Some("S1902M")),
                        tenure("S1902M", None),
                    ],
                },
                PowerView {
                    power: Power::France,
                    tenures: vec![tenure("S1901M", Some("F1901M")), tenure("F1901M", None)],
                },
            ]
        } else {
            Vec::new()
        },
        phases: [Phase::START, fall]
            .into_iter()
            .filter(|_| played)
            .map(|phase| PhaseLine {
                phase,
                processed_at: AT,
            })
            .collect(),
        years: ["start", "1901", "end"]
            .into_iter()
            .filter(|_| played)
            .map(|label| (label.to_string(), [3; 7]))
            .collect(),
        press: [None, Some("S1901M".to_string())]
            .into_iter()
            .filter(|_| played)
            .enumerate()
            .map(|(id, phase)| PressItem {
                id: id as i64,
                phase,
                subject: "Greetings".to_string(),
                body: "From London & <the fleet>.".to_string(),
                sent_at: AT,
            })
            .collect(),
    }
}

/// A movement phase with a line of every kind, or with nothing.
pub(super) fn phase(full: bool) -> PhaseView {
    let map = Map::standard();
    let before = Position::standard_start(map);
    let mut orders = adjudicate(map, &before, &[]).orders;
    let mut after = before.clone();
    after.phase = Phase::new(Season::Winter, 1901, PhaseKind::Adjustment);
    let mut dislodged = Vec::new();
    if full {
        orders[0].1 = Outcome::BOUNCE | Outcome::DISLODGED;
        orders[1].1 = Outcome::VOID;
        let unit = before.units[0];
        let places = [before.units[1].location, before.units[2].location];
        for n in 0..=places.len() {
            dislodged.push(Dislodged {
                unit,
                retreats: places[..n].to_vec(),
            });
        }
        after.units.remove(0);
        if let Some(centre) = map.supply_centres().find(|&p| before.owner(p).is_none()) {
            after.owners[centre.index()] = Some(unit.power);
        }
    } else {
        orders.clear();
    }
    PhaseView {
        game: "sample".to_string(),
        processed_at: AT,
        picture: PhasePicture::results("JDG", "sample", before, orders, dislodged),
        after: full.then_some(after),
        results_mail: full.then(|| "The results, as mailed.\n".to_string()),
    }
}
