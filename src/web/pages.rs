//! The pages, from the views: each view turned into the plain data its
//! template (`templates/web/`) lays out — strings, numbers, lists — and
//! rendered. Pure (no store, no files), so each is the same text for the
//! same game. The words and the markup are the templates'.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use minijinja::{context, Value};
use serde::Serialize;

use super::chart::{centres_chart, Chart};
use super::templates::{PageTemplates, TemplateError, GAME, INDEX_ROW, PHASE, PLAY, SITE_INDEX};
use super::view::{GameCard, GameView, PhaseView, SettingsView};
use super::WebError;
use crate::draw::{board::Board, svg::size};
use crate::engine::map::{Map, Power};
use crate::engine::phase::{Phase, PhaseKind, Season};
use crate::engine::position::Position;
use crate::game::pictures::PhasePicture;
use crate::report::void_reason;
use crate::store::games::GameState;
use crate::store::web::{IndexRow, PowerCentres, StoredRow};

/// "Spring 1901 Movement".
pub fn phase_words(phase: Phase) -> String {
    format!(
        "{} {} {}",
        phase.season_name(),
        phase.year,
        phase.kind_name()
    )
}

/// A phase as the pages name it: `S1901M`, "Spring 1901 Movement".
#[derive(Serialize)]
pub struct PhaseName {
    pub code: String,
    pub words: String,
}

impl PhaseName {
    pub fn of(phase: Phase) -> PhaseName {
        PhaseName {
            code: phase.to_string(),
            words: phase_words(phase),
        }
    }
}

/// Every map's size (the board's SVG units): the pages give it to their
/// images, so that the browser keeps the room (and the shape) of a map
/// not yet loaded.
#[derive(Serialize, Clone, Copy)]
pub struct MapSize {
    pub width: u32,
    pub height: u32,
}

impl MapSize {
    pub fn of_board() -> MapSize {
        let (width, height) = size(Board::standard());
        MapSize {
            width: width.round() as u32,
            height: height.round() as u32,
        }
    }
}

/// The rows of the list of games as `index_row.html` lays them out, each
/// laid out once per process and change of its facts (kept by the facts'
/// stored text, so an unchanged row is neither read back nor laid out
/// again): the list is written again after every game written, and doing
/// either for a thousand rows each time would cost the web pass more than
/// all the rest. Only this process's memory keeps them; the store keeps
/// the facts.
#[derive(Debug, Default)]
pub struct RowCache(Mutex<HashMap<String, Arc<str>>>);

/// `index.html` at the top: the games' rows (newest activity first), the
/// finished ones in a list of their own.
pub fn site_index(
    templates: &PageTemplates,
    cache: &RowCache,
    judge_name: &str,
    rows: &[StoredRow],
) -> Result<String, WebError> {
    let mut laid_out = cache.0.lock().unwrap_or_else(|e| e.into_inner());
    // Rows of games that changed since stay behind: forgotten when they
    // outnumber the games.
    if laid_out.len() > 2 * rows.len() + 64 {
        laid_out.clear();
    }
    let (mut playing, mut finished) = (Vec::new(), Vec::new());
    for row in rows {
        let html = match laid_out.get(&row.facts) {
            Some(html) => html.clone(),
            None => {
                let html: Arc<str> = render_row(templates, &row.row()?)?.into();
                laid_out.insert(row.facts.clone(), html.clone());
                html
            }
        };
        let html = laid_out_row(&html);
        if row.over {
            finished.push(html);
        } else {
            playing.push(html);
        }
    }
    Ok(index_page(templates, judge_name, playing, finished)?)
}

/// A game's row (`index_row.html`): its facts, and the maps' shape.
pub fn render_row(templates: &PageTemplates, row: &IndexRow) -> Result<String, TemplateError> {
    #[derive(Serialize)]
    struct Row<'a> {
        #[serde(flatten)]
        row: &'a IndexRow,
        map: MapSize,
    }
    let map = MapSize::of_board();
    templates.render(INDEX_ROW, &Row { row, map })
}

/// A row as `index_row.html` laid it out, for `index.html` to print as
/// it is: every value in it was escaped as it was laid out.
pub fn laid_out_row(html: &str) -> Value {
    Value::from_safe_string(html.to_string())
}

/// `index.html` from its rows, laid out.
pub fn index_page(
    templates: &PageTemplates,
    judge_name: &str,
    playing: Vec<Value>,
    finished: Vec<Value>,
) -> Result<String, TemplateError> {
    let page = context! { judge => judge_name, playing, finished };
    templates.render(SITE_INDEX, &page)
}

/// A game's row in the list of games: the facts it shows, kept in the
/// store so that the list is made again without reading every game.
pub fn index_row(card: &GameCard) -> IndexRow {
    IndexRow {
        name: card.name.clone(),
        variant: card.variant.clone(),
        state: card.state.as_str().to_string(),
        phase: card.current.map(|p| p.to_string()),
        phase_words: card.current.map(phase_words),
        year: card.current.map(|p| p.year),
        deadline: card.deadline,
        board: card.board.as_ref().map(|b| b.version.clone()),
        centres: card
            .centres
            .iter()
            .map(|&(power, centres)| PowerCentres {
                power: power.name().to_string(),
                centres,
            })
            .collect(),
        result: card.result.clone(),
        activity: card.activity,
        over: card.state.is_over(),
    }
}

/// `<game>/index.html`: settings, who played, the phases, the centres
/// year by year (table and chart), the press to everyone.
#[derive(Serialize)]
struct GamePage<'a> {
    game: GameFacts<'a>,
    /// The board now, or none before the start.
    board: Option<BoardNow<'a>>,
    map: MapSize,
    settings: &'a SettingsView,
    powers: Vec<PowerPlayers>,
    phases: Vec<PhaseLine>,
    /// Every power's name, for the heads of the centres table.
    all_powers: Vec<&'static str>,
    years: Vec<YearCentres<'a>>,
    /// None with fewer than two rows of centres: nothing to draw.
    chart: Option<Chart>,
    press: Vec<Press<'a>>,
    /// The game's animated summary, beside the page (a relative
    /// address), once the game has ended and it is written.
    animation: Option<&'a str>,
}

#[derive(Serialize)]
struct GameFacts<'a> {
    name: &'a str,
    variant: &'a str,
    state: &'static str,
    phase: Option<PhaseName>,
    result: Option<&'a str>,
}

/// The position the next orders are written for: `board.svg?<version>`.
#[derive(Serialize)]
struct BoardNow<'a> {
    version: &'a str,
    /// Whether the game is over: the board is where it ended.
    over: bool,
    /// The deadline of the phase now played (none when the game is not
    /// being played: forming, paused, over).
    deadline: Option<i64>,
    /// The powers played and their centres now.
    centres: Vec<PowerCount>,
}

#[derive(Serialize)]
struct PowerCount {
    power: &'static str,
    centres: usize,
}

/// A power and each of its players' time with it, in turn.
#[derive(Serialize)]
struct PowerPlayers {
    power: &'static str,
    tenures: Vec<Tenure>,
}

/// From the phase a player took the power on to the phase they left it
/// (None: still playing).
#[derive(Serialize)]
struct Tenure {
    from: String,
    to: Option<String>,
}

#[derive(Serialize)]
struct PhaseLine {
    #[serde(flatten)]
    name: PhaseName,
    processed_at: i64,
}

#[derive(Serialize)]
struct YearCentres<'a> {
    /// "start", "1901", ..., "end".
    label: &'a str,
    /// Per power, in `all_powers`' order.
    centres: [usize; 7],
}

#[derive(Serialize)]
struct Press<'a> {
    id: i64,
    subject: &'a str,
    body: &'a str,
    phase: Option<&'a str>,
    sent_at: i64,
}

pub fn game_index(
    templates: &PageTemplates,
    view: &GameView,
    animation: Option<&str>,
) -> Result<String, TemplateError> {
    let card = &view.card;
    let page = GamePage {
        game: game_facts(card),
        board: card.board.as_ref().map(|board| BoardNow {
            version: &board.version,
            over: card.state.is_over(),
            deadline: card.deadline.filter(|_| card.state == GameState::Active),
            centres: card
                .centres
                .iter()
                .map(|&(power, centres)| PowerCount {
                    power: power.name(),
                    centres,
                })
                .collect(),
        }),
        map: MapSize::of_board(),
        settings: &view.settings,
        powers: view
            .powers
            .iter()
            .map(|p| PowerPlayers {
                power: p.power.name(),
                tenures: p
                    .tenures
                    .iter()
                    .map(|(from, to)| Tenure {
                        from: from.clone(),
                        to: to.clone(),
                    })
                    .collect(),
            })
            .collect(),
        phases: view
            .phases
            .iter()
            .map(|line| PhaseLine {
                name: PhaseName::of(line.phase),
                processed_at: line.processed_at,
            })
            .collect(),
        all_powers: Power::ALL.iter().map(|p| p.name()).collect(),
        years: view
            .years
            .iter()
            .map(|(label, centres)| YearCentres {
                label,
                centres: *centres,
            })
            .collect(),
        chart: centres_chart(&view.years),
        press: view
            .press
            .iter()
            .map(|item| Press {
                id: item.id,
                subject: &item.subject,
                body: &item.body,
                phase: item.phase.as_deref(),
                sent_at: item.sent_at,
            })
            .collect(),
        animation,
    };
    templates.render(GAME, &page)
}

fn game_facts(card: &GameCard) -> GameFacts<'_> {
    GameFacts {
        name: &card.name,
        variant: &card.variant,
        state: card.state.as_str(),
        phase: card.current.map(PhaseName::of),
        result: card.result.as_deref(),
    }
}

/// `<game>/play.html`: every phase's map in turn, then the board now.
#[derive(Serialize)]
struct PlayPage<'a> {
    game: GameFacts<'a>,
    phases: Vec<PhaseName>,
    /// The board now's version (`board.svg?<version>`), or none.
    board: Option<&'a str>,
    map: MapSize,
}

pub fn play_page(templates: &PageTemplates, view: &GameView) -> Result<String, TemplateError> {
    let page = PlayPage {
        game: game_facts(&view.card),
        phases: view.phases.iter().map(|l| PhaseName::of(l.phase)).collect(),
        board: view.card.board.as_ref().map(|b| b.version.as_str()),
        map: MapSize::of_board(),
    };
    templates.render(PLAY, &page)
}

/// `<game>/<PHASE>.html`: the map, the orders with their results, the
/// retreats, the centres after; links to the neighbouring phases.
#[derive(Serialize)]
struct PhasePage<'a> {
    game: &'a str,
    phase: PhaseName,
    processed_at: i64,
    prev: Option<String>,
    next: Option<String>,
    map: MapSize,
    /// The powers that gave orders, each with its orders.
    orders: Vec<PowerOrders>,
    /// After a movement phase: the units that must retreat.
    dislodged: Vec<DislodgedUnit>,
    ownership: Option<Ownership>,
    /// The results mail as the players got it.
    results_mail: Option<&'a str>,
}

/// A power's orders in a phase, with what came of each.
#[derive(Serialize)]
pub struct PowerOrders {
    power: &'static str,
    orders: Vec<OrderLine>,
}

#[derive(Serialize)]
struct OrderLine {
    /// "Army Munich -> Burgundy."
    text: String,
    /// What came of it: "bounce", "void", ...; none when it succeeded.
    tags: Vec<&'static str>,
    /// Why a void order was void, as the results mail says it.
    reason: Option<String>,
}

#[derive(Serialize)]
struct DislodgedUnit {
    adjective: &'static str,
    kind: &'static str,
    location: String,
    /// Where it may retreat (none: it is destroyed).
    retreats: Vec<String>,
}

/// Who owns which centres after the phase.
#[derive(Serialize)]
struct Ownership {
    /// When the counts are taken, for the words above them: "spring"
    /// (centres change hands only as a Fall ends), "before_retreats" (a
    /// Fall's movement with its retreats to come: the centres change hands
    /// after them), "after_fall" (the Fall is over: they changed hands),
    /// "after_adjustments" (the winter's builds and removals made).
    stage: &'static str,
    /// The phase the centres change hands after ("F1901R"), with
    /// "before_retreats".
    retreats: Option<String>,
    /// Some centre changed hands.
    changed: bool,
    /// The next phase is the adjustments: the builds and removals due.
    adjusting: bool,
    powers: Vec<PowerOwnership>,
}

#[derive(Serialize)]
struct PowerOwnership {
    power: &'static str,
    centres: usize,
    units: usize,
    /// Builds due (negative: removals); 0 when not adjusting.
    due: i32,
    /// The names of its centres, sorted.
    owned: Vec<&'static str>,
}

pub fn phase_page(
    templates: &PageTemplates,
    view: &PhaseView,
    prev: Option<Phase>,
    next: Option<Phase>,
) -> Result<String, TemplateError> {
    let map = Map::standard();
    let before = &view.picture.position;
    let page = PhasePage {
        game: &view.game,
        phase: PhaseName::of(before.phase),
        processed_at: view.processed_at,
        prev: prev.map(|p| p.to_string()),
        next: next.map(|p| p.to_string()),
        map: MapSize::of_board(),
        orders: orders_by_power(map, &view.picture),
        dislodged: dislodged(map, view),
        ownership: view
            .after
            .as_ref()
            .map(|after| ownership(map, before, after)),
        results_mail: view.results_mail.as_deref().map(str::trim_end),
    };
    templates.render(PHASE, &page)
}

/// The orders of the phase `picture` shows, per power that gave any,
/// each with what came of it.
pub fn orders_by_power(map: &Map, picture: &PhasePicture) -> Vec<PowerOrders> {
    Power::ALL
        .into_iter()
        .filter_map(|power| {
            let lines: Vec<OrderLine> = picture
                .orders
                .iter()
                .filter(|(o, _)| o.power == power)
                .map(|(order, outcome)| OrderLine {
                    text: order.long(map),
                    tags: outcome.tags().collect(),
                    // As the results mail: no order voided without a
                    // word. Who was in civil disorder then is not kept
                    // per phase, so only the reasons the position gives.
                    reason: void_reason(map, &picture.position, &[], order, *outcome),
                })
                .collect();
            (!lines.is_empty()).then_some(PowerOrders {
                power: power.name(),
                orders: lines,
            })
        })
        .collect()
}

fn dislodged(map: &Map, view: &PhaseView) -> Vec<DislodgedUnit> {
    if view.picture.position.phase.kind != PhaseKind::Movement {
        return Vec::new();
    }
    view.picture
        .retreats
        .iter()
        .map(|d| DislodgedUnit {
            adjective: d.unit.power.adjective(),
            kind: d.unit.kind.name(),
            location: map.loc_name(d.unit.location),
            retreats: d.retreats.iter().map(|&l| map.loc_name(l)).collect(),
        })
        .collect()
}

/// Who owns which centres after the phase, with the units and the builds
/// or removals due when the next phase is the adjustments.
fn ownership(map: &Map, before: &Position, after: &Position) -> Ownership {
    let adjusting = after.phase.kind == PhaseKind::Adjustment;
    let powers = Power::ALL
        .into_iter()
        .filter_map(|power| {
            let centres = after.centre_count(power);
            let units = after.unit_count(power);
            if centres == 0 && units == 0 {
                return None;
            }
            let mut owned: Vec<&'static str> = map
                .supply_centres()
                .filter(|&p| after.owner(p) == Some(power))
                .map(|p| map.name(p))
                .collect();
            owned.sort_unstable();
            Some(PowerOwnership {
                power: power.name(),
                centres,
                units,
                due: if adjusting {
                    after.adjustment_due(power)
                } else {
                    0
                },
                owned,
            })
        })
        .collect();
    let (stage, retreats) = match (before.phase.season, after.phase.kind) {
        (Season::Winter, _) => ("after_adjustments", None),
        (Season::Fall, PhaseKind::Retreat) => ("before_retreats", Some(after.phase.to_string())),
        (Season::Fall, _) => ("after_fall", None),
        (Season::Spring, _) => ("spring", None),
    };
    Ownership {
        stage,
        retreats,
        changed: before.owners != after.owners,
        adjusting,
        powers,
    }
}

#[cfg(test)]
mod tests {
    use super::super::sample;
    use super::*;

    #[test]
    fn the_built_in_templates_render_the_sample_game() {
        sample::try_every_page(&PageTemplates::builtin()).unwrap();
    }

    #[test]
    fn a_powers_players_are_named_by_turn_and_phases() {
        let page = game_index(&PageTemplates::builtin(), &sample::game(true), None).unwrap();
        assert!(
            page.contains(
                "<tr><td>England</td><td>first player, S1901M to F1901M; \
                 replacement 1, F1901M to S1902M; replacement 2, from S1902M</td></tr>"
            ),
            "{page}"
        );
        assert!(
            page.contains(
                "<tr><td>France</td><td>first player, S1901M to F1901M; \
                 replacement, from F1901M</td></tr>"
            ),
            "{page}"
        );
    }

    #[test]
    fn what_players_wrote_is_escaped_everywhere() {
        let templates = PageTemplates::builtin();
        let mut view = sample::game(true);
        view.card.name = "<b>'x'</b>".to_string();
        view.press[0].body = "\u{202E}<script>".to_string();
        let page = game_index(&templates, &view, None).unwrap();
        assert!(
            !page.contains("<b>") && !page.contains("<script>"),
            "{page}"
        );
        assert!(
            page.contains("<h1>&lt;b&gt;&#39;x&#39;&lt;/b&gt;</h1>"),
            "{page}"
        );
        assert!(page.contains("\u{FFFD}&lt;script&gt;</pre>"), "{page}");
    }

    #[test]
    fn the_list_of_games_is_the_same_laid_out_again_and_escaped() {
        let templates = PageTemplates::builtin();
        let mut card = sample::game(true).card;
        card.name = "<b>bold</b>".to_string();
        let rows = [index_row(&card), index_row(&sample::game(false).card)]
            .map(|row| StoredRow::of(&row).unwrap());
        let cache = RowCache::default();
        let first = site_index(&templates, &cache, "J", &rows).unwrap();
        assert!(!first.contains("<b>"), "{first}");
        assert!(first.contains(">&lt;b&gt;bold&lt;/b&gt;</a>"), "{first}");
        assert_eq!(site_index(&templates, &cache, "J", &rows).unwrap(), first);
        let fresh = site_index(&templates, &RowCache::default(), "J", &rows).unwrap();
        assert_eq!(fresh, first);
    }
}
