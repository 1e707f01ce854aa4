//! Pre-orders (njudge's `PHASE`) entered when their phase begins: each
//! stored line is read against the new position as if it were mailed
//! then; the valid orders become the power's orders, and the player is
//! told which were entered and which not, and why. Pre-orders for a phase
//! that was skipped (no retreats, no adjustments due) or never comes (the
//! game ended) are dropped, and the player is told so. All of it runs in
//! the transaction that stores the new phase, and deletes what it used:
//! a pre-order is entered once or not at all.

use std::collections::BTreeMap;

use rusqlite::Connection;

use super::order_entry::{power_orders, reading, refusal, store_order, Written};
use super::orders::order_status;
use super::{bloc_powers, current, power_of, GameMail};
use crate::engine::map::{Map, Power};
use crate::engine::parse::parse_orders_understood;
use crate::engine::phase::{Phase, PhaseKind, Season};
use crate::report::{game_subject, title};
use crate::say;
use crate::store::{self, games::Game, preorders::PreOrder, seats::SeatStatus, StoreError};

/// "Fall 1901 Retreats (F1901R)".
pub fn phase_words(phase: Phase) -> String {
    format!(
        "{} {} {} ({phase})",
        phase.season_name(),
        phase.year,
        phase.kind_name()
    )
}

/// A phase as njudge players write it: `F1901M`, `Fall 1901 Movement`,
/// `Spring 1901` (movement), `Winter 1901` (adjustments), `F 1901 R`, the
/// year first (`1902 spring`); as in njudge, the first letter of the
/// season and of the kind is what counts (`Sp 1902 Mov`), and a season
/// the standard game has not (`Summer`) names no phase.
pub fn named_phase(words: &[&str]) -> Option<Phase> {
    if let Ok(p) = words.concat().parse::<Phase>() {
        return Some(p);
    }
    let lower: Vec<String> = match words {
        // `W1901`, `f1901`: the short form without its kind letter, one
        // meaning only (Winter is adjustments, the others movement first).
        [word] => short_form(word)?,
        _ => words.iter().map(|w| w.to_ascii_lowercase()).collect(),
    };
    let year_first = lower.first().is_some_and(|w| w.parse::<u16>().is_ok());
    let (season, year, kind) = match &lower[..] {
        [year, season] if year_first => (season, year, None),
        [year, season, kind] if year_first => (season, year, Some(kind)),
        [season, year] => (season, year, None),
        [season, year, kind] => (season, year, Some(kind)),
        _ => return None,
    };
    let letter = |w: &str| w.chars().next().filter(char::is_ascii_alphabetic);
    let season = match letter(season)? {
        _ if season.starts_with("su") => return None,
        's' => Season::Spring,
        'f' | 'a' => Season::Fall,
        'w' => Season::Winter,
        _ => return None,
    };
    let year: u16 = year.parse().ok()?;
    let kind = match (kind.map(|k| letter(k)), season) {
        (None, Season::Winter) => PhaseKind::Adjustment,
        (None, _) => PhaseKind::Movement,
        (Some(Some('m')), _) => PhaseKind::Movement,
        (Some(Some('r')), _) => PhaseKind::Retreat,
        (Some(Some('a' | 'b')), _) => PhaseKind::Adjustment,
        _ => return None,
    };
    let phase = Phase::new(season, year, kind);
    // Only the phases a game has: Winter is adjustments, the others not.
    let text = format!("{phase}");
    text.parse::<Phase>().ok()
}

/// `W1901` as the words `w 1901`, `F1901R` as `f 1901 r`.
fn short_form(word: &str) -> Option<Vec<String>> {
    let word = word.to_ascii_lowercase();
    let (season, rest) = word.split_at_checked(1)?;
    let (year, kind) = rest.split_at_checked(4)?;
    if !year.bytes().all(|b| b.is_ascii_digit()) || kind.len() > 1 {
        return None;
    }
    let mut words = vec![season.to_string(), year.to_string()];
    words.extend((!kind.is_empty()).then(|| kind.to_string()));
    Some(words)
}

/// The pre-orders stored for `powers` (a player's countries), by phase:
/// "Pre-orders stored for later phases:" and the lines; None when there
/// are none.
pub fn listing(
    conn: &Connection,
    game_id: i64,
    powers: &[Power],
) -> Result<Option<String>, StoreError> {
    let mine: Vec<PreOrder> = store::preorders::preorders_of_game(conn, game_id)?
        .into_iter()
        .filter(|p| powers.iter().any(|q| q.upper() == p.power))
        .collect();
    if mine.is_empty() {
        return Ok(None);
    }
    let mut out = vec![say!("preorders.listing_heading")];
    for (phase, lines) in by_phase(mine) {
        out.push(format!("  {}:", phase_words(phase)));
        out.extend(lines.iter().map(|l| format!("    {l}")));
    }
    Ok(Some(out.join("\n")))
}

/// Enters the pre-orders for the game's current phase (just stored) and
/// drops those for phases before it, which were skipped; with `ended`,
/// drops them all. Returns a notice to each player who had any.
pub fn enter_preorders(
    conn: &Connection,
    code: &str,
    game: &Game,
    ended: bool,
    now: i64,
) -> Result<Vec<GameMail>, StoreError> {
    let stored = store::preorders::preorders_of_game(conn, game.id)?;
    if stored.is_empty() {
        return Ok(Vec::new());
    }
    let cur = current(conn, game.id)?;
    let now_phase = cur.as_ref().map(|c| c.position.phase);
    // By power, the pre-orders due now or dropped; later ones stay.
    let mut by_power: BTreeMap<String, Vec<PreOrder>> = BTreeMap::new();
    for pre in stored {
        let Ok(phase) = pre.phase.parse::<Phase>() else {
            continue;
        };
        if ended || now_phase.is_none_or(|n| phase <= n) {
            by_power.entry(pre.power.clone()).or_default().push(pre);
        }
    }
    let mut mails = Vec::new();
    for (power_name, pres) in by_power {
        let mut phases: Vec<&str> = pres.iter().map(|p| p.phase.as_str()).collect();
        phases.dedup();
        for phase in phases {
            store::preorders::delete_preorders(conn, game.id, &power_name, phase)?;
        }
        let Some(seat) = store::seats::seat_by_power(conn, game.id, &power_name)? else {
            continue;
        };
        let Some(power) = power_of(&seat) else {
            continue;
        };
        let mut blocks = Vec::new();
        let (due, dropped): (Vec<PreOrder>, Vec<PreOrder>) = pres
            .into_iter()
            .partition(|p| !ended && Some(p.phase.as_str()) == cur_name(&cur));
        for (phase, lines) in by_phase(dropped) {
            blocks.push(dropped_text(power, &phase, &lines, ended));
        }
        if let (Some(cur), false) = (&cur, due.is_empty()) {
            let powers = bloc_powers(conn, &seat)?;
            blocks.push(enter_due(conn, game, cur, &powers, &due, now)?);
        }
        if seat.address == store::seats::VACANT || !super::playing(&seat) {
            continue;
        }
        mails.push(GameMail {
            to: super::teams::addresses(conn, &seat)?,
            subject: game_subject(code, &game.name, cur_name(&cur), title::PRE_ORDERS),
            body: format!("{}\n", blocks.join("\n\n")),
            game_id: game.id,
            results_of: None,
            ends_game: false,
        });
    }
    Ok(mails)
}

fn cur_name(cur: &Option<super::Current>) -> Option<&str> {
    cur.as_ref().map(|c| c.record.phase.as_str())
}

/// The pre-orders grouped by their phase, in order.
fn by_phase(pres: Vec<PreOrder>) -> BTreeMap<Phase, Vec<String>> {
    let mut out: BTreeMap<Phase, Vec<String>> = BTreeMap::new();
    for pre in pres {
        if let Ok(phase) = pre.phase.parse::<Phase>() {
            out.entry(phase).or_default().push(pre.text);
        }
    }
    out
}

/// Why the pre-orders for `phase` were dropped (words
/// `preorders.dropped`), and the lines.
fn dropped_text(power: Power, phase: &Phase, lines: &[String], ended: bool) -> String {
    let why = match (ended, phase.kind) {
        (true, _) => say!("preorders.dropped_game_over"),
        (false, PhaseKind::Retreat) => say!("preorders.dropped_no_retreats"),
        (false, PhaseKind::Adjustment) => say!("preorders.dropped_no_adjustments"),
        (false, PhaseKind::Movement) => say!("preorders.dropped_never_came"),
    };
    let mut out = vec![say!("preorders.dropped", power => power.name(),
                            phase => phase_words(*phase), why)];
    out.extend(lines.iter().map(|l| format!("  {l}")));
    out.join("\n")
}

/// Enters one player's pre-orders for the current phase, line by line as
/// mailed orders are (for the first of the player's `powers` each order
/// fits), and says what was entered and what not, and why.
fn enter_due(
    conn: &Connection,
    game: &Game,
    cur: &super::Current,
    powers: &[Power],
    due: &[PreOrder],
    now: i64,
) -> Result<String, StoreError> {
    let map = Map::standard();
    let mut out = vec![say!("preorders.begun", phase => phase_words(cur.position.phase))];
    for pre in due {
        let readings: Vec<Vec<_>> = powers
            .iter()
            .map(|&p| parse_orders_understood(map, &cur.position, p, &pre.text))
            .collect();
        for k in 0..readings[0].len() {
            let entered = match reading(powers, &readings, k) {
                Ok((owner, understood)) => {
                    match refusal(conn, game, cur, owner, &understood.order)? {
                        Some(why) => Err(why),
                        None => {
                            let written = Written {
                                text: &pre.text,
                                inbound_id: None,
                            };
                            store_order(
                                conn,
                                game.id,
                                cur,
                                owner,
                                &understood.order,
                                written,
                                now,
                            )?;
                            Ok(understood.order.long(map))
                        }
                    }
                }
                Err(why) => Err(why),
            };
            out.push(match entered {
                Ok(order) => say!("preorders.entered", line => &pre.text, order),
                Err(why) => say!("preorders.not_entered", line => &pre.text, why),
            });
        }
    }
    for &power in powers {
        out.push(order_set(conn, game, cur, power)?);
    }
    Ok(out.join("\n"))
}

/// The power's orders now, and their status (as the order set a reply
/// ends with says it).
fn order_set(
    conn: &Connection,
    game: &Game,
    cur: &super::Current,
    power: Power,
) -> Result<String, StoreError> {
    let map = Map::standard();
    let orders = power_orders(conn, game.id, &cur.record.phase, &cur.position, power)?;
    let heading = say!("preorders.orders_heading", power => power.name(),
                       phase => &cur.record.phase);
    let mut out = vec![format!("\n{heading}")];
    if orders.is_empty() {
        out.push(say!("preorders.no_orders"));
    }
    out.extend(orders.iter().map(|o| format!("  {}", o.long(map))));
    let in_disorder = store::seats::seat_by_power(conn, game.id, power.upper())?
        .is_some_and(|seat| seat.status == SeatStatus::CivilDisorder);
    out.push(order_status(
        map,
        &cur.position,
        power,
        &orders,
        in_disorder,
    ));
    Ok(out.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::named_phase;

    fn named(text: &str) -> Option<String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        named_phase(&words).map(|p| p.to_string())
    }

    #[test]
    fn phases_as_njudge_players_write_them() {
        assert_eq!(named("F1901M").as_deref(), Some("F1901M"));
        assert_eq!(named("f 1901 r").as_deref(), Some("F1901R"));
        assert_eq!(named("Fall 1901 Movement").as_deref(), Some("F1901M"));
        assert_eq!(named("Spring 1902").as_deref(), Some("S1902M"));
        assert_eq!(named("Autumn 1901 Retreats").as_deref(), Some("F1901R"));
        assert_eq!(named("Winter 1901").as_deref(), Some("W1901A"));
        assert_eq!(named("Winter 1901 Builds").as_deref(), Some("W1901A"));
        assert_eq!(named("Winter 1901 Movement"), None);
        assert_eq!(named("Spring 1901 Adjustments"), None);
        assert_eq!(named("next"), None);
        assert_eq!(named("1902 spring").as_deref(), Some("S1902M"));
        assert_eq!(named("1901 Fall Retreat").as_deref(), Some("F1901R"));
        assert_eq!(named("Sp 1902 Mov").as_deref(), Some("S1902M"));
        assert_eq!(named("Winter 1901 Build").as_deref(), Some("W1901A"));
        assert_eq!(named("Summer 1902 Movement"), None);
        assert_eq!(named("Spring 1902 Xmas"), None);
        assert_eq!(named("1902"), None);
        assert_eq!(named("W1901").as_deref(), Some("W1901A"));
        assert_eq!(named("f1901").as_deref(), Some("F1901M"));
        assert_eq!(named("S1902").as_deref(), Some("S1902M"));
        assert_eq!(named("W1901M"), None);
        assert_eq!(named("X1901"), None);
    }
}
