//! The clock: what is due at a moment, for every running game — early
//! processing, reminders, late notices, processing at the deadline or at
//! the end of grace (civil disorder in NMR games; in NoNMR games the late
//! power is abandoned and the game waits), and deadlines pushed after an
//! outage. Runs inside the caller's transaction; time is passed in.
//!
//! A tick looks at every active game, which with a thousand games costs a
//! few hundred milliseconds of reading and parsing. `judge run` ticks at
//! least every `tick_seconds`, and at the first moment the cache knows
//! something to be due ([`TickCache::next_due`]), so it keeps a
//! [`TickCache`]: for each game that had
//! nothing due, the moment before which nothing can be due (the reminder
//! time, the deadline, the end of grace, the next late notice, the early
//! processing time after the last order) and a fingerprint of everything
//! the clock read ([`store::phases::clock_fingerprints`]). A later tick skips the
//! game while the fingerprint is unchanged and that moment has not come;
//! when nothing at all was written since the last tick
//! ([`store::phases::change_counter`]) and no game's moment has come, it skips
//! even the fingerprints.

use std::collections::HashMap;

use rusqlite::Connection;

use super::clock::format_time;
use super::deadline::earliest_processing;
use super::orders::{completeness, in_disorder, without_orders, Completeness};
use super::process::{join_names, power_orders, process};
use super::settings::{schedule_for, ClockSettings, GameSettings};
use super::{announce, current, everyone, power_of, settings_of, Current, GameMail};
use crate::engine::map::{Map, Power};
use crate::report::{game_subject, title, Templates};
use crate::say;
use crate::store::{
    self, games::Game, games::GameState, seats::Seat, seats::SeatStatus, StoreError,
};

const LAST_TICK: &str = "last_tick";

/// What one tick did, for the log.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct TickReport {
    pub processed: Vec<String>,
    pub reminders: usize,
    pub late_notices: usize,
    pub abandoned: Vec<String>,
    pub pushed_after_outage: Vec<String>,
    /// Games whose work failed (an error or a panic), rolled back and
    /// marked failed: name, why, and whether it is news (not failed before).
    pub failed: Vec<(String, String, bool)>,
    /// Games marked failed that the clock processed again without fault.
    pub recovered: Vec<String>,
}

/// For the log, in words: "processed g1 S1901M; 2 reminders sent".
impl std::fmt::Display for TickReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // "game:phase" (or "game:power") as kept, shown "game phase".
        let named = |list: &[String]| list.join(", ").replace(':', " ");
        let mut parts = Vec::new();
        if !self.processed.is_empty() {
            parts.push(format!("processed {}", named(&self.processed)));
        }
        if self.reminders > 0 {
            parts.push(format!("{} reminder(s) sent", self.reminders));
        }
        if self.late_notices > 0 {
            parts.push(format!("{} late notice(s) sent", self.late_notices));
        }
        if !self.abandoned.is_empty() {
            parts.push(format!("abandoned {}", named(&self.abandoned)));
        }
        if !self.pushed_after_outage.is_empty() {
            let games = named(&self.pushed_after_outage);
            parts.push(format!("deadlines moved after an outage: {games}"));
        }
        for (game, why, _) in &self.failed {
            parts.push(format!("game {game} failed: {why}"));
        }
        if !self.recovered.is_empty() {
            parts.push(format!("recovered {}", self.recovered.join(", ")));
        }
        f.write_str(&parts.join("; "))
    }
}

/// What earlier ticks concluded, per game: (fingerprint, quiet until).
/// One cache belongs to one connection and one `[clock]` section.
#[derive(Debug, Default)]
pub struct TickCache {
    quiet: HashMap<i64, (u64, i64)>,
    skipped: usize,
    /// The database's change counter when the last tick ended.
    written: Option<(i64, u64)>,
    /// When the last tick acted on a game (processed it, reminded its
    /// players): what the game has due next is known only once a tick
    /// looks at it again.
    acted_at: Option<i64>,
}

impl TickCache {
    pub fn new() -> TickCache {
        TickCache::default()
    }

    /// How many games the last tick found quiet.
    pub fn len(&self) -> usize {
        self.quiet.len()
    }

    pub fn is_empty(&self) -> bool {
        self.quiet.is_empty()
    }

    /// The first moment a quiet game has something due (a deadline, the
    /// end of grace, a reminder, a bell), if any: `judge run` wakes then,
    /// not a whole tick later. After a tick that acted on a game, the
    /// second after it: the next tick learns what that game has due.
    pub fn next_due(&self) -> Option<i64> {
        let quiet = self
            .quiet
            .values()
            .map(|&(_, until)| until)
            .filter(|&until| until != i64::MAX);
        quiet.chain(self.acted_at.map(|t| t + 1)).min()
    }

    /// How many games the last tick skipped on the cache's word.
    pub fn skipped(&self) -> usize {
        self.skipped
    }

    /// Whether nothing can be due (no outage seen): nothing was written
    /// since the last tick (which wrote nothing but its time: every active
    /// game was quiet), and no game's moment has come. Then every game is
    /// skipped.
    fn nothing_due(&mut self, conn: &Connection, now: i64) -> Result<bool, StoreError> {
        let unchanged =
            self.written.is_some() && self.written == Some(store::phases::change_counter(conn)?);
        if unchanged && self.quiet.values().all(|&(_, until)| now < until) {
            self.skipped = self.quiet.len();
            return Ok(true);
        }
        Ok(false)
    }

    /// The game's (fingerprint, quiet until), if an earlier tick found it
    /// quiet, it has not changed since (`fingerprint`) and its moment has
    /// not come.
    fn still_quiet(&self, game_id: i64, fingerprint: u64, now: i64) -> Option<(u64, i64)> {
        let &(known, until) = self.quiet.get(&game_id)?;
        (known == fingerprint && now < until).then_some((fingerprint, until))
    }

    /// Keeps what this tick found: the quiet games, and (when every game
    /// looked at was quiet) the change counter for the fast path.
    fn remember(
        &mut self,
        conn: &Connection,
        quiet: HashMap<i64, (u64, i64)>,
        skipped: usize,
        (looked_at, now): (usize, i64),
    ) -> Result<(), StoreError> {
        self.skipped = skipped;
        self.acted_at = (quiet.len() < looked_at).then_some(now);
        self.written = if quiet.len() == looked_at {
            Some(store::phases::change_counter(conn)?)
        } else {
            None
        };
        self.quiet = quiet;
        Ok(())
    }
}

/// Everything due at `now`, looking at every active game. Returns the
/// mails to queue.
pub fn tick(
    conn: &Connection,
    clock: &ClockSettings,
    templates: &Templates,
    code: &str,
    now: i64,
) -> Result<(TickReport, Vec<GameMail>), StoreError> {
    tick_with(conn, clock, templates, code, now, None)
}

/// The same as [`tick`], skipping the games that `cache` knows to have
/// nothing due yet and that have not changed since; what it finds quiet
/// goes into `cache` for the next tick. After an outage every game is
/// looked at.
pub fn tick_cached(
    conn: &Connection,
    clock: &ClockSettings,
    templates: &Templates,
    code: &str,
    now: i64,
    cache: &mut TickCache,
) -> Result<(TickReport, Vec<GameMail>), StoreError> {
    tick_with(conn, clock, templates, code, now, Some(cache))
}

fn tick_with(
    conn: &Connection,
    clock: &ClockSettings,
    templates: &Templates,
    code: &str,
    now: i64,
    mut cache: Option<&mut TickCache>,
) -> Result<(TickReport, Vec<GameMail>), StoreError> {
    let mut report = TickReport::default();
    let mut mails = Vec::new();
    let last = store::phases::meta_get(conn, LAST_TICK)?.and_then(|v| v.parse::<i64>().ok());
    let outage = last.filter(|&l| now - l >= i64::from(clock.outage_minutes) * 60);
    if let Some(cache) = cache.as_deref_mut() {
        if outage.is_none() && cache.nothing_due(conn, now)? {
            set_last_tick(conn, now, last)?;
            cache.written = Some(store::phases::change_counter(conn)?);
            return Ok((report, mails));
        }
    }
    let fingerprints = match cache {
        Some(_) => store::phases::clock_fingerprints(conn)?,
        None => HashMap::new(),
    };
    let mut quiet = HashMap::new();
    let mut skipped = 0;
    // A game marked failed is left alone for a while, then tried again.
    let failed = store::games::failed_games(conn)?;
    let mut games = store::games::games_in_state(conn, GameState::Active)?;
    games.retain(|g| {
        failed
            .get(&g.id)
            .is_none_or(|&at| now >= at + store::games::GAME_RETRY)
    });
    let looked_at = games.len();
    for game in games {
        let fingerprint = fingerprints.get(&game.id).copied();
        let known = cache.as_deref().filter(|_| outage.is_none());
        if let Some(still) = known.and_then(|c| c.still_quiet(game.id, fingerprint?, now)) {
            quiet.insert(game.id, still);
            skipped += 1;
            continue;
        }
        // Some(t): nothing was due, and with the game as it is nothing
        // will be before t; nothing was written.
        let Some(until) = tick_contained(
            conn,
            now,
            &game,
            &mut report,
            &mut mails,
            |report, mails| {
                tick_game(
                    conn, clock, templates, code, &game, now, outage, report, mails,
                )
            },
        )?
        else {
            continue;
        };
        if failed.contains_key(&game.id) {
            store::games::clear_game_failure(conn, game.id)?;
            report.recovered.push(game.name.clone());
        }
        if let (Some(until), Some(fp)) = (until, fingerprint) {
            quiet.insert(game.id, (fp, until));
        }
    }
    set_last_tick(conn, now, last)?;
    if let Some(cache) = cache {
        cache.remember(conn, quiet, skipped, (looked_at, now))?;
    }
    Ok((report, mails))
}

/// Runs one game's work for the tick as a unit: in a savepoint, with a
/// panic caught. If it fails (an error or a panic), everything it wrote,
/// reported and queued is undone, the game is marked failed (the reason
/// goes into `report.failed`), and None is returned; the tick goes on
/// with the other games. A passing error (see
/// [`StoreError::is_passing`]), or one the rollback itself meets,
/// ends the tick: the caller's transaction is rolled back whole.
fn tick_contained<T>(
    conn: &Connection,
    now: i64,
    game: &Game,
    report: &mut TickReport,
    mails: &mut Vec<GameMail>,
    work: impl FnOnce(&mut TickReport, &mut Vec<GameMail>) -> Result<T, StoreError>,
) -> Result<Option<T>, StoreError> {
    use std::panic::{catch_unwind, AssertUnwindSafe};
    let report_before = report.clone();
    let mails_before = mails.len();
    store::savepoint(conn, "tick_game")?;
    let done = catch_unwind(AssertUnwindSafe(|| {
        let value = work(report, mails)?;
        crate::fault::maybe_panic("game", &game.name);
        Ok::<T, StoreError>(value)
    }));
    let why = match done {
        Ok(Ok(value)) => {
            store::release_savepoint(conn, "tick_game")?;
            return Ok(Some(value));
        }
        // A busy or failing disk is no fault of the game: the tick ends,
        // to be tried again.
        Ok(Err(e)) if e.is_passing() => return Err(e),
        Ok(Err(e)) => format!("error: {e}"),
        Err(panic) => format!("panic: {}", crate::fault::panic_message(panic.as_ref())),
    };
    store::undo_savepoint(conn, "tick_game")?;
    *report = report_before;
    mails.truncate(mails_before);
    let news = store::games::mark_game_failed(conn, game.id, &why, now)?;
    report.failed.push((game.name.clone(), why, news));
    Ok(None)
}

/// Stores `now` as the last tick, even when it is before the stored one.
/// Keeping the later time would pin it: after one pass with the clock far
/// ahead (`--now` mistyped, a machine booted with a wrong clock) every
/// real tick would look earlier than the last, and no outage would ever
/// be seen again. A clock that went back is told to the judgekeeper and
/// counted from now on.
fn set_last_tick(conn: &Connection, now: i64, last: Option<i64>) -> Result<(), StoreError> {
    if let Some(last) = last.filter(|&l| now < l) {
        let said = say!("clock.clock_went_back", seconds => last - now,
                        last => format_time(last), now => format_time(now));
        log::warn!("{said}");
    }
    store::phases::meta_set(conn, LAST_TICK, &now.to_string())
}

/// The seats whose orders the phase waits for: assigned, still playing,
/// not in civil disorder (a power in civil disorder holds by itself).
fn waited_for(seat: &Seat) -> bool {
    seat.power.is_some() && matches!(seat.status, SeatStatus::Active | SeatStatus::Late)
}

/// A power left without a player (ejected): never processed early, so a
/// replacement has until the deadline.
fn open(seat: &Seat) -> bool {
    seat.power.is_some()
        && seat.status == SeatStatus::Abandoned
        && seat.address == store::seats::VACANT
}

/// Nothing will ever be due (until the game's rows change).
const NEVER: Option<i64> = Some(i64::MAX);

/// A seat still missing orders.
struct Missing {
    seat: Seat,
    power: Power,
    /// The units without orders ("Army Rome"), or "2 builds" and the like.
    list: Vec<String>,
    /// Whether the power gave any order at all for the phase: then it is
    /// not in civil disorder (XIV.3 is for a player who sends none), its
    /// orders are carried out and the rest hold, or are waived.
    gave_some: bool,
}

/// What every step of one game's tick reads (the game, its open phase
/// with its deadline and end of grace, its settings) and writes to (the
/// tick's report and mails).
struct GameTick<'a> {
    conn: &'a Connection,
    clock: &'a ClockSettings,
    templates: &'a Templates,
    code: &'a str,
    game: &'a Game,
    now: i64,
    cur: Current,
    settings: GameSettings,
    deadline: i64,
    grace: i64,
    report: &'a mut TickReport,
    mails: &'a mut Vec<GameMail>,
}

/// What is due for one game at `now`, done. Returns `Some(t)` when nothing
/// was due (and nothing written): as long as the game's rows stay as they
/// are, nothing will be due before `t`. `None` when it acted.
#[allow(clippy::too_many_arguments)]
fn tick_game(
    conn: &Connection,
    clock: &ClockSettings,
    templates: &Templates,
    code: &str,
    game: &Game,
    now: i64,
    outage: Option<i64>,
    report: &mut TickReport,
    mails: &mut Vec<GameMail>,
) -> Result<Option<i64>, StoreError> {
    let Some(cur) = current(conn, game.id)? else {
        return Ok(NEVER);
    };
    if cur.record.processed_at.is_some() {
        return Ok(NEVER);
    }
    let (Some(deadline), Some(grace)) = (cur.record.deadline, cur.record.grace_until) else {
        return Ok(NEVER);
    };
    let mut tick = GameTick {
        conn,
        clock,
        templates,
        code,
        game,
        now,
        cur,
        settings: settings_of(game)?,
        deadline,
        grace,
        report,
        mails,
    };
    if let Some(bell) = tick.settings.end_at {
        if now >= bell {
            tick.at_the_bell()?;
            return Ok(None);
        }
    }
    if let Some(down_since) = outage.filter(|&d| tick.missed_in_outage(d)) {
        tick.push_after_outage(down_since)?;
        return Ok(None);
    }
    let until = tick.due()?;
    // Quiet, the game still wakes at its bell.
    Ok(until.map(|t| tick.settings.end_at.map_or(t, |bell| t.min(bell))))
}

impl GameTick<'_> {
    /// What the deadline and grace make due now, done (see [`tick_game`]).
    fn due(&mut self) -> Result<Option<i64>, StoreError> {
        let seats = store::seats::seats_of_game(self.conn, self.game.id)?;
        // NoNMR: while a power is abandoned the game waits for a replacement.
        let waiting_for_replacement = !self.settings.nmr
            && seats
                .iter()
                .any(|s| s.power.is_some() && s.status == SeatStatus::Abandoned);
        if waiting_for_replacement {
            return Ok(NEVER);
        }
        let missing = self.missing_orders(&seats)?;
        if missing.is_empty() {
            self.all_in(&seats)
        } else if self.now < self.deadline {
            self.remind(&missing)
        } else if self.now >= self.grace {
            self.end_grace(&missing)?;
            Ok(None)
        } else {
            self.late_notices(&missing)
        }
    }

    fn phase(&self) -> &str {
        &self.cur.record.phase
    }

    /// `JDG:game - S1901M <what>`.
    fn subject(&self, what: &str) -> String {
        game_subject(self.code, &self.game.name, Some(self.phase()), what)
    }

    /// A notice to one seat's player (every address of a team).
    fn to_one(&self, seat: &Seat, what: &str, text: String) -> Result<GameMail, StoreError> {
        Ok(notice(
            super::teams::addresses(self.conn, seat)?,
            self.subject(what),
            text,
            self.game.id,
        ))
    }

    /// Whether the deadline or the end of grace passed while the judge
    /// was down. (One that passed before, while the judge was watching,
    /// was not missed: its late notices went out and grace runs on.)
    fn missed_in_outage(&self, down_since: i64) -> bool {
        let missed = |t: i64| down_since < t && t <= self.now;
        missed(self.deadline) || missed(self.grace)
    }

    /// After an outage, nothing missed is processed in a burst: the
    /// deadline moves on, and everyone is told.
    fn push_after_outage(&mut self, down_since: i64) -> Result<(), StoreError> {
        let (conn, game, now, phase) = (self.conn, self.game, self.now, &self.cur.record.phase);
        let schedule = schedule_for(&self.settings, self.cur.position.phase.kind);
        let new = now + i64::from(self.clock.outage_margin_hours) * 3600;
        let new_grace = new + schedule.grace();
        store::phases::set_deadline(conn, game.id, phase, Some(new), Some(new_grace))?;
        // The notice below tells everyone the new deadline: it stands for
        // this phase's reminder.
        store::phases::set_reminded(conn, self.cur.record.id, now)?;
        let text = say!("clock.outage", down_since => format_time(down_since),
            now => format_time(now), phase, game => &game.name,
            deadline => format_time(new), grace => format_time(new_grace))
            + "\n";
        let subject = self.subject(title::DEADLINE_MOVED_AFTER_OUTAGE);
        self.mails
            .push(announce(conn, game, Some(phase), subject, text, now)?);
        self.report
            .pushed_after_outage
            .push(format!("{}:{phase}", game.name));
        Ok(())
    }

    /// The seats waited for whose orders are incomplete.
    fn missing_orders(&self, seats: &[Seat]) -> Result<Vec<Missing>, StoreError> {
        let map = Map::standard();
        let position = &self.cur.position;
        let mut missing = Vec::new();
        for seat in seats.iter().filter(|s| waited_for(s)) {
            let Some(power) = power_of(seat) else {
                continue;
            };
            let orders = power_orders(self.conn, self.game.id, self.phase(), position, power)?;
            if let Completeness::Missing(list) = completeness(map, position, power, &orders) {
                missing.push(Missing {
                    seat: seat.clone(),
                    power,
                    list,
                    gave_some: !orders.is_empty(),
                });
            }
        }
        Ok(missing)
    }

    /// Every order is in: processed early, or at the deadline.
    fn all_in(&mut self, seats: &[Seat]) -> Result<Option<i64>, StoreError> {
        let anyone_waits = seats.iter().any(|s| waited_for(s) && s.wait);
        let last_order = store::phases::last_order_at(self.conn, self.game.id, self.phase())?
            .unwrap_or(self.cur.record.started_at);
        // Early only for orders somebody gave: a game whose powers are all
        // in civil disorder keeps to its deadlines instead of running away.
        let may_go_early = seats.iter().any(waited_for) && !anyone_waits && !seats.iter().any(open);
        // Never before the phase's SET START or njudge MIN.
        let hold = earliest_processing(&self.settings, &self.cur);
        let early_at = (last_order + i64::from(self.clock.early_minutes) * 60).max(hold);
        if (may_go_early && self.now >= early_at) || self.now >= self.deadline.max(hold) {
            self.process()?;
            return Ok(None);
        }
        if may_go_early {
            return Ok(Some(self.deadline.max(hold).min(early_at)));
        }
        Ok(Some(self.deadline.max(hold)))
    }

    /// Before the deadline: one reminder to those still missing orders.
    fn remind(&mut self, missing: &[Missing]) -> Result<Option<i64>, StoreError> {
        let (record, deadline) = (&self.cur.record, self.deadline);
        let reminds = self.clock.reminder_hours > 0 && record.reminded_at.is_none();
        let remind_from = reminder_time(
            record.started_at,
            deadline,
            i64::from(self.clock.reminder_hours) * 3600,
        );
        if !reminds {
            return Ok(Some(deadline));
        }
        if self.now < remind_from {
            return Ok(Some(deadline.min(remind_from)));
        }
        for m in missing {
            let text = say!("clock.reminder", phase => self.phase(), game => &self.game.name,
                deadline => format_time(deadline), power => m.power.name(),
                missing => m.list.join(", "),
                without => without_orders(&self.cur.position, m.power))
                + "\n";
            self.mails
                .push(self.to_one(&m.seat, title::REMINDER, text)?);
            self.report.reminders += 1;
        }
        store::phases::set_reminded(self.conn, record.id, self.now)?;
        Ok(None)
    }

    /// SET END's moment has come: the phase in progress is processed as
    /// at the end of grace in an NMR game (a power that gave no order at
    /// all is in civil disorder), and the processing ends the game.
    fn at_the_bell(&mut self) -> Result<(), StoreError> {
        let seats = store::seats::seats_of_game(self.conn, self.game.id)?;
        for m in self.missing_orders(&seats)?.iter().filter(|m| !m.gave_some) {
            store::seats::set_seat_status(self.conn, m.seat.id, SeatStatus::CivilDisorder)?;
        }
        self.process()
    }

    /// Past the end of grace. NMR: processed with the orders given (the
    /// units without hold, builds not given are waived); only a power
    /// that gave no order at all is in civil disorder. NoNMR: the late
    /// are abandoned and the game waits, their orders kept.
    fn end_grace(&mut self, missing: &[Missing]) -> Result<(), StoreError> {
        let (conn, game, phase) = (self.conn, self.game, &self.cur.record.phase);
        if self.settings.nmr {
            for m in missing.iter().filter(|m| !m.gave_some) {
                store::seats::set_seat_status(conn, m.seat.id, SeatStatus::CivilDisorder)?;
            }
            return self.process();
        }
        let names: Vec<&str> = missing.iter().map(|m| m.power.name()).collect();
        for m in missing {
            store::seats::set_seat_status(conn, m.seat.id, SeatStatus::Abandoned)?;
        }
        let text = say!("clock.grace_ended_waiting", phase, game => &game.name,
                        powers => join_names(&names))
            + "\n";
        let subject = self.subject(title::WAITING_FOR_REPLACEMENT);
        self.mails
            .push(announce(conn, game, Some(phase), subject, text, self.now)?);
        self.report
            .abandoned
            .extend(names.iter().map(|n| format!("{}:{n}", game.name)));
        Ok(())
    }

    /// Between the deadline and the end of grace: late notices, daily.
    fn late_notices(&mut self, missing: &[Missing]) -> Result<Option<i64>, StoreError> {
        let repeat = i64::from(self.clock.late_repeat_hours.max(1)) * 3600;
        let last_notice = self.cur.record.late_notice_at;
        if last_notice.is_some_and(|t| self.now < t + repeat) {
            let next_notice = last_notice.map_or(self.grace, |t| t + repeat);
            return Ok(Some(self.grace.min(next_notice)));
        }
        for m in missing {
            store::seats::set_seat_status(self.conn, m.seat.id, SeatStatus::Late)?;
            self.mails
                .push(self.to_one(&m.seat, title::LATE, self.late_text(m))?);
            self.report.late_notices += 1;
        }
        self.mails.push(self.others_told_of(missing)?);
        store::phases::set_late_notice(self.conn, self.cur.record.id, self.now)?;
        Ok(None)
    }

    /// The late notice to one late power: what is missing, and what
    /// becomes of it when grace ends.
    fn late_text(&self, m: &Missing) -> String {
        say!("clock.late", phase => self.phase(), game => &self.game.name,
             power => m.power.name(), missing => m.list.join(", "),
             grace => format_time(self.grace), nmr => self.settings.nmr,
             gave_some => m.gave_some,
             without => without_orders(&self.cur.position, m.power),
             disorder => in_disorder(self.cur.position.phase.kind))
            + "\n"
    }

    /// The notice to everyone but the late: who the judge waits for (if
    /// the game shows it).
    fn others_told_of(&self, missing: &[Missing]) -> Result<GameMail, StoreError> {
        let mut late_addresses = Vec::new();
        for m in missing {
            late_addresses.extend(super::teams::addresses(self.conn, &m.seat)?);
        }
        let others: Vec<String> = everyone(self.conn, self.game)?
            .into_iter()
            .filter(|a| !late_addresses.iter().any(|l| l.eq_ignore_ascii_case(a)))
            .collect();
        let powers = self.settings.show_late.then(|| {
            let names: Vec<&str> = missing.iter().map(|m| m.power.name()).collect();
            join_names(&names)
        });
        let text = say!("clock.late_others", phase => self.phase(), game => &self.game.name,
                        powers, grace => format_time(self.grace))
            + "\n";
        Ok(notice(
            others,
            self.subject(title::LATE_POWERS),
            text,
            self.game.id,
        ))
    }

    /// Processes the phase; its results go to everyone.
    fn process(&mut self) -> Result<(), StoreError> {
        let game = self.game;
        let done = process(self.conn, self.templates, self.code, game, self.now, true)?;
        self.report
            .processed
            .push(format!("{}:{}", game.name, done.phase));
        self.mails.push(GameMail {
            results_of: Some(done.phase),
            ..notice(done.recipients, done.subject, done.body, game.id)
        });
        self.mails.extend(done.notices);
        Ok(())
    }
}

/// When a phase from `start` to `deadline` gets its one reminder: `lead`
/// before the deadline, never in the first half of the phase (a short
/// retreat or adjustment phase gets none the moment it starts). A phase
/// shorter than an hour gets it a fifth of its length before the
/// deadline, and at least a minute before: a five-minute turn at its
/// fourth minute.
fn reminder_time(start: i64, deadline: i64, lead: i64) -> i64 {
    let length = deadline - start;
    let lead = if length < 3600 {
        lead.min((length / 5).max(60))
    } else {
        lead
    };
    (deadline - lead).max(start + length / 2)
}

fn notice(to: Vec<String>, subject: String, body: String, game_id: i64) -> GameMail {
    GameMail {
        to,
        subject,
        body,
        game_id,
        results_of: None,
        ends_game: false,
    }
}
