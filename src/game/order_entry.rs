//! One order entered for a power, the same way whether it came by mail or
//! was given ahead (a pre-order entered when its phase begins): how a line
//! reads for a player's countries, why a valid order would not be carried
//! out, and storing it in place of the power's earlier order for the unit.

use rusqlite::Connection;

use super::orders::{beyond_due, not_carried_out, order_key, read_stored};
use super::{variant_of, Current};
use crate::engine::map::{Map, Power};
use crate::engine::order::{Order, OrderKind};
use crate::engine::parse::{OrderError, Understood};
use crate::engine::phase::PhaseKind;
use crate::engine::position::Position;
use crate::store::{self, games::Game, orders::NewOrder, seats::SeatStatus, StoreError};

/// Complaints that only say an order is not for one of a player's
/// countries: with several, another country's complaint tells more
/// ("There is already a unit in Moscow." rather than Italy's "Moscow is
/// not one of your home supply centres.").
const NOT_THIS_COUNTRY: [&str; 6] = [
    "; you are ",
    "not one of your home supply centres",
    "You have no builds to make",
    "You have no builds to waive",
    "You have no units to remove",
    "You have neither builds nor removals due",
];

/// How the `k`th order of a line reads: for the first of the player's
/// countries it fits, or the most telling complaint — not "that unit is
/// someone else's" when the player has several countries.
pub fn reading(
    powers: &[Power],
    readings: &[Vec<Result<Understood, OrderError>>],
    k: usize,
) -> Result<(Power, Understood), String> {
    let fits = powers
        .iter()
        .zip(readings)
        .find_map(|(&p, r)| r[k].as_ref().ok().map(|u| (p, *u)));
    if let Some(fits) = fits {
        return Ok(fits);
    }
    let errors: Vec<String> = readings
        .iter()
        .filter_map(|r| r[k].as_ref().err().map(|e| e.to_string()))
        .collect();
    let best = errors
        .iter()
        .find(|e| powers.len() == 1 || !NOT_THIS_COUNTRY.iter().any(|f| e.contains(f)))
        .unwrap_or(&errors[0]);
    Err(best.clone())
}

/// Why a valid order will not be carried out as things stand: the power
/// is in civil disorder or out of the game, the order goes into a closed
/// province, or (given the orders `owner` already has) it is a build or
/// removal beyond those due.
pub fn refusal(
    conn: &Connection,
    game: &Game,
    cur: &Current,
    owner: Power,
    order: &Order,
) -> Result<Option<String>, StoreError> {
    let map = Map::standard();
    let disorder = store::seats::seat_by_power(conn, game.id, owner.upper())?
        .is_some_and(|seat| seat.status == SeatStatus::CivilDisorder);
    let in_disorder: Vec<Power> = disorder.then_some(owner).into_iter().collect();
    let rules = variant_of(game).rules_at(map, cur.position.phase, &in_disorder);
    if let Some(why) = not_carried_out(map, &rules, order, disorder) {
        return Ok(Some(why));
    }
    if cur.position.phase.kind != PhaseKind::Adjustment {
        return Ok(None);
    }
    let stored = power_orders(conn, game.id, &cur.record.phase, &cur.position, owner)?;
    Ok(beyond_due(map, &cur.position, owner, &stored, order))
}

/// One power's current orders in a phase, as stored (read against the
/// phase's position).
pub fn power_orders(
    conn: &Connection,
    game_id: i64,
    phase: &str,
    position: &Position,
    power: Power,
) -> Result<Vec<Order>, StoreError> {
    let texts: Vec<String> = store::orders::orders_of_power(conn, game_id, phase, power.upper())?
        .into_iter()
        .map(|r| r.understood)
        .collect();
    Ok(read_stored(Map::standard(), position, power, &texts))
}

/// Where an order came from: its text as written and the mail it came in
/// (none for a pre-order entered by the judge).
pub struct Written<'a> {
    pub text: &'a str,
    pub inbound_id: Option<i64>,
}

/// Stores an order for `owner` in the current phase, in place of its
/// earlier order for the same unit (waives are counted: each is an order
/// of its own).
pub fn store_order(
    conn: &Connection,
    game_id: i64,
    cur: &Current,
    owner: Power,
    order: &Order,
    written: Written<'_>,
    now: i64,
) -> Result<(), StoreError> {
    let map = Map::standard();
    let waives = if order.kind == OrderKind::Waive {
        store::orders::orders_of_power(conn, game_id, &cur.record.phase, owner.upper())?
            .iter()
            .filter(|r| r.unit.starts_with("WAIVE"))
            .count()
    } else {
        0
    };
    let key = order_key(map, order, waives);
    store::orders::set_order(
        conn,
        &NewOrder {
            game_id,
            phase: &cur.record.phase,
            power: owner.upper(),
            unit: &key,
            written: written.text,
            understood: &order.short(map),
            inbound_id: written.inbound_id,
        },
        now,
    )
}
