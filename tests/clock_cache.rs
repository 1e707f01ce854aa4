//! The clock's cache (`game::tick::tick_cached`, what `judge run` uses)
//! decides exactly as a full tick (`game::tick::tick`, what `judge run
//! --once` uses): two copies of the same judge are driven through a
//! simulated week, half-hourly, with the same things happening to both —
//! orders complete and partial, WAIT set and cleared, a Master moving a
//! deadline, games paused and resumed, abandoned powers taken over, an
//! outage — and every tick must report and mail the same on both; each
//! step also ticks twice more with nothing happening in between (the
//! cache's shortcut when nothing at all was written).

use judge::engine::map::{Map, Power};
use judge::engine::parse::parse_order;
use judge::engine::phase::PhaseKind;
use judge::engine::position::Position;
use judge::game::orders::order_key;
use judge::game::settings::ClockSettings;
use judge::game::settings::GameSettings;
use judge::game::tick::{tick, tick_cached, TickCache, TickReport};
use judge::game::GameMail;
use judge::interchange::PositionJson;
use judge::report::Templates;
use judge::store::{
    self, games::GameState, games::NewGame, orders::NewOrder, password::PasswordHash,
    seats::NewSeat, seats::SeatStatus, Store,
};

const T0: i64 = 1_800_000_000;
const GAMES: usize = 10;
const STEP: i64 = 1800;
const STEPS: i64 = 7 * 48;
/// After this step the judge is down for 30 hours.
const OUTAGE_AFTER: i64 = 70;

fn clock() -> ClockSettings {
    ClockSettings {
        late_repeat_hours: 6,
        ..ClockSettings::default()
    }
}

fn make_store(hash: &PasswordHash) -> Store {
    let mut db = Store::open_in_memory().unwrap();
    let map = Map::standard();
    let start = Position::standard_start(map);
    let tx = db.transaction().unwrap();
    for k in 0..GAMES {
        let mut settings = GameSettings::new(&Default::default());
        settings.nmr = k % 3 != 0;
        settings.show_late = k % 2 == 0;
        // Phases shorter than the reminder time: the reminder is due at
        // the tick after the processing that started the phase.
        if k % 2 == 1 {
            settings.movement.next_seconds = 12 * 3600;
        }
        let settings = serde_json::to_string(&settings).unwrap();
        let name = format!("g{k}");
        let master = format!("gm.{name}@example.org");
        let id = store::games::create_game(
            &tx,
            &NewGame {
                name: &name,
                variant: "standard",
                settings: &settings,
                master_address: Some(&master),
                master_password: Some(hash),
                seed: k as i64,
            },
            T0,
        )
        .unwrap();
        for power in Power::ALL {
            let address = format!("{}.{name}@example.org", power.name().to_lowercase());
            let seat = store::seats::add_seat(
                &tx,
                &NewSeat {
                    game_id: id,
                    power: None,
                    address: &address,
                    password: hash,
                    status: SeatStatus::Forming,
                    preferences: None,
                },
                T0,
            )
            .unwrap();
            store::seats::assign_power(&tx, seat, power.upper(), "S1901M").unwrap();
        }
        let deadline = T0 + 24 * 3600 + k as i64 * 5 * 3600;
        store::phases::insert_phase(
            &tx,
            id,
            "S1901M",
            &PositionJson::from_position(map, &start),
            Some(deadline),
            Some(deadline + 24 * 3600),
            T0,
        )
        .unwrap();
        store::games::set_game_state(&tx, id, GameState::Active, T0).unwrap();
    }
    tx.commit().unwrap();
    db
}

/// What happens at step `s` (the same on both copies).
fn happen(db: &mut Store, s: i64, now: i64, hash: &PasswordHash) {
    let map = Map::standard();
    let tx = db.transaction().unwrap();
    for k in 0..GAMES as i64 {
        let game = store::games::game_by_name(&tx, &format!("g{k}"))
            .unwrap()
            .unwrap();
        // Paused and resumed.
        if k % 7 == 3 && s % 60 == 20 && game.state == GameState::Active {
            store::games::set_game_state(&tx, game.id, GameState::Paused, now).unwrap();
        }
        if k % 7 == 3 && s % 60 == 30 && game.state == GameState::Paused {
            store::games::set_game_state(&tx, game.id, GameState::Active, now).unwrap();
        }
        let Some(cur) = judge::game::current(&tx, game.id).unwrap() else {
            continue;
        };
        if cur.record.processed_at.is_some() {
            continue;
        }
        let phase = cur.record.phase.clone();
        // The Master moves the deadline three hours on.
        if k % 6 == 2 && s % 50 == 10 {
            let (d, g) = (
                cur.record.deadline.unwrap(),
                cur.record.grace_until.unwrap(),
            );
            store::phases::set_deadline(
                &tx,
                game.id,
                &phase,
                Some(d + 3 * 3600),
                Some(g + 3 * 3600),
            )
            .unwrap();
        }
        let seats = store::seats::seats_of_game(&tx, game.id).unwrap();
        for (i, seat) in seats.iter().enumerate() {
            let i = i as i64;
            // WAIT set, later cleared.
            if k % 4 == 1 && i == 0 && s % 40 == 5 {
                store::seats::set_seat_wait(&tx, seat.id, true).unwrap();
            }
            if k % 4 == 1 && i == 0 && s % 40 == 25 {
                store::seats::set_seat_wait(&tx, seat.id, false).unwrap();
            }
            // An abandoned power is taken over.
            if seat.status == SeatStatus::Abandoned && (s + k) % 17 == 0 {
                store::seats::replace_player(&tx, seat.id, &seat.address, hash, &phase).unwrap();
            }
            if !matches!(seat.status, SeatStatus::Active | SeatStatus::Late) {
                continue;
            }
            if cur.position.phase.kind != PhaseKind::Movement || (k + i) % 5 == 0 {
                continue;
            }
            let power = judge::game::power_of(seat).unwrap();
            let full = (s + 3 * k + 7 * i) % 29 == 0;
            let partial = (s + k + i) % 31 == 0;
            if !full && !partial {
                continue;
            }
            let units: Vec<_> = cur
                .position
                .units
                .iter()
                .filter(|u| u.power == power)
                .collect();
            let take = if full { units.len() } else { 1 };
            for u in units.into_iter().take(take) {
                let kind = match u.kind {
                    judge::engine::map::UnitType::Army => "A",
                    judge::engine::map::UnitType::Fleet => "F",
                };
                let text = format!("{kind} {} H", map.abbr(map.province_of(u.location)));
                let order = parse_order(map, &cur.position, power, &text).unwrap();
                store::orders::set_order(
                    &tx,
                    &NewOrder {
                        game_id: game.id,
                        phase: &phase,
                        power: power.upper(),
                        unit: &order_key(map, &order, 0),
                        written: &text,
                        understood: &order.short(map),
                        inbound_id: None,
                    },
                    now,
                )
                .unwrap();
            }
        }
    }
    tx.commit().unwrap();
}

type Seen = (TickReport, Vec<(Vec<String>, String, String, Option<i64>)>);

fn seen((report, mails): (TickReport, Vec<GameMail>)) -> Seen {
    (
        report,
        mails
            .into_iter()
            .map(|m| (m.to, m.subject, m.body, Some(m.game_id)))
            .collect(),
    )
}

#[test]
fn cached_ticks_decide_as_full_ticks() {
    let hash = store::password::hash_password("pw").unwrap();
    let templates = Templates::builtin();
    let clock = clock();
    let mut full = make_store(&hash);
    let mut cached = make_store(&hash);
    let mut cache = TickCache::new();
    let mut skipped = 0;
    let mut total = TickReport::default();
    for s in 0..STEPS {
        let mut now = T0 + s * STEP;
        if s > OUTAGE_AFTER {
            now += 30 * 3600;
        }
        happen(&mut full, s, now, &hash);
        happen(&mut cached, s, now, &hash);

        // A tick after what happened, then two a minute apart with
        // nothing happening in between.
        for now in [now, now + 60, now + 120] {
            let tx = full.transaction().unwrap();
            let a = seen(tick(&tx, &clock, &templates, "JDG", now).unwrap());
            tx.commit().unwrap();
            let tx = cached.transaction().unwrap();
            let b = seen(tick_cached(&tx, &clock, &templates, "JDG", now, &mut cache).unwrap());
            tx.commit().unwrap();
            assert_eq!(a, b, "step {s} at {now}");
            skipped += cache.skipped();
            total.processed.extend(a.0.processed);
            total.reminders += a.0.reminders;
            total.late_notices += a.0.late_notices;
            total.abandoned.extend(a.0.abandoned);
            total.pushed_after_outage.extend(a.0.pushed_after_outage);
        }
    }
    // Not vacuous: the week had every kind of event, and most looks at a
    // game were skipped.
    assert!(total.processed.len() > 20, "{total:?}");
    assert!(total.reminders > 10 && total.late_notices > 10, "{total:?}");
    assert!(!total.abandoned.is_empty(), "{total:?}");
    assert!(!total.pushed_after_outage.is_empty(), "{total:?}");
    assert!(
        skipped > (3 * STEPS as usize * GAMES) / 2,
        "only {skipped} game looks skipped"
    );
    // And the two judges end the same.
    for k in 0..GAMES {
        let phases = |db: &Store| {
            let g = store::games::game_by_name(db.conn(), &format!("g{k}"))
                .unwrap()
                .unwrap();
            store::phases::phases_of_game(db.conn(), g.id)
                .unwrap()
                .into_iter()
                .map(|p| {
                    (
                        p.phase,
                        p.deadline,
                        p.processed_at,
                        p.reminded_at,
                        p.late_notice_at,
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(phases(&full), phases(&cached), "game g{k}");
    }
}
