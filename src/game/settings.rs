//! A game's settings, kept as JSON in the store and changed by the
//! Master's SET commands; and the judge-wide settings of games and the
//! clock, which `judge.toml` fills in (config depends on these, never the
//! reverse).

use serde::{Deserialize, Serialize};

use crate::engine::phase::PhaseKind;

/// How a phase's deadline is found: a cron schedule (5 fields, minute
/// first, or 6 or 7, seconds first: see `clock::check_cron`) or, without
/// one, a fixed length of time. Lengths are kept in seconds (a game stored
/// before kept hours: see [`StoredSchedule`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "StoredSchedule")]
pub struct Schedule {
    /// `0 20 * * Mon,Thu` or `0 0 20 * * Mon,Thu`, as the Master wrote it;
    /// None: `next_seconds` after the phase starts.
    pub cron: Option<String>,
    /// The least time from a phase's start to its deadline (without a
    /// cron schedule: the time; njudge's NEXT).
    pub next_seconds: u32,
    /// njudge's MIN: no phase is processed before this long after it
    /// starts, not even early when every order is in (0: no such wait).
    /// The deadline is never earlier either.
    pub least_seconds: u32,
    /// Grace after the deadline.
    pub grace_seconds: u32,
    /// The time zone the cron schedule is read in (IANA name, e.g.
    /// `Europe/Amsterdam`); None: UTC.
    pub zone: Option<String>,
}

/// A schedule as stored: in seconds, or (a game stored before minutes
/// were taken) in hours.
#[derive(Deserialize)]
struct StoredSchedule {
    #[serde(default)]
    cron: Option<String>,
    #[serde(default)]
    zone: Option<String>,
    next_seconds: Option<u32>,
    least_seconds: Option<u32>,
    grace_seconds: Option<u32>,
    min_hours: Option<u32>,
    least_hours: Option<u32>,
    grace_hours: Option<u32>,
}

impl From<StoredSchedule> for Schedule {
    fn from(s: StoredSchedule) -> Schedule {
        let seconds = |new: Option<u32>, hours: Option<u32>| {
            new.or(hours.map(|h| h.saturating_mul(3600))).unwrap_or(0)
        };
        Schedule {
            cron: s.cron,
            next_seconds: seconds(s.next_seconds, s.min_hours),
            least_seconds: seconds(s.least_seconds, s.least_hours),
            grace_seconds: seconds(s.grace_seconds, s.grace_hours),
            zone: s.zone,
        }
    }
}

impl Schedule {
    /// The grace after a deadline, in seconds.
    pub fn grace(&self) -> i64 {
        i64::from(self.grace_seconds)
    }
}

/// How the winner of a game ended by SET END is named: the most pieces
/// on the board (rulebook III, the default) or the most supply centres.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WinBy {
    #[default]
    Pieces,
    Centres,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ObserverPress {
    /// Observers may send press like players.
    Any,
    /// Observers may not send press.
    No,
    /// Observers may send white press only.
    White,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSettings {
    /// Press signed with the sender's power.
    pub white: bool,
    /// Anonymous press.
    pub grey: bool,
    /// Press to some powers only (not just broadcasts).
    pub partial: bool,
    pub observers: ObserverPress,
    /// NMR: civil disorder for missing powers at the end of grace; else
    /// the game waits for a replacement.
    pub nmr: bool,
    /// Late powers are named to the others.
    pub show_late: bool,
    pub movement: Schedule,
    pub retreat: Schedule,
    pub adjustment: Schedule,
    /// Short game: the last year played.
    #[serde(default)]
    pub end_year: Option<u16>,
    /// SET END <date and time>: the game ends then, the phase in progress
    /// processed at that moment.
    #[serde(default)]
    pub end_at: Option<i64>,
    /// How a game ended by SET END names its winner.
    #[serde(default)]
    pub win_by: WinBy,
    /// Players needed before the game starts by itself.
    pub players: usize,
    /// Draws name their powers (SET NODIAS); false: DIAS, a draw includes
    /// all survivors.
    #[serde(default)]
    pub nodias: bool,
    /// SET TAKEOVER ON: anyone may take over a power left without a
    /// player; off, only an address the Master approved.
    #[serde(default)]
    pub takeovers: bool,
    /// Takeovers the Master approved (SET TAKEOVER <power> <address>):
    /// power (upper case) to address.
    #[serde(default)]
    pub approved: std::collections::BTreeMap<String, String>,
    /// The most days of absence a player may have announced and not yet
    /// over (SET ABSENCE), together.
    #[serde(default = "default_absence_days")]
    pub absence_days: u32,
    /// SET PRIVATE: the game is not published in the web archive.
    #[serde(default)]
    pub private: bool,
    /// SET START: the phase named is not processed before this time.
    #[serde(default)]
    pub start: Option<PhaseStart>,
}

/// njudge's SET START: the earliest time a phase may be processed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseStart {
    /// The phase it holds back (`S1901M`); any other phase ignores it.
    pub phase: String,
    pub at: i64,
}

/// The schedule for a phase kind.
pub fn schedule_for(settings: &GameSettings, kind: PhaseKind) -> &Schedule {
    match kind {
        PhaseKind::Movement => &settings.movement,
        PhaseKind::Retreat => &settings.retreat,
        PhaseKind::Adjustment => &settings.adjustment,
    }
}

impl GameSettings {
    /// A new game's settings from the judge's defaults.
    pub fn new(defaults: &Defaults) -> GameSettings {
        let schedule = |seconds, cron: &Option<String>| Schedule {
            cron: cron.clone(),
            next_seconds: seconds,
            least_seconds: 0,
            grace_seconds: defaults.grace,
            zone: defaults.timezone.clone(),
        };
        GameSettings {
            white: true,
            grey: false,
            partial: true,
            observers: ObserverPress::No,
            nmr: true,
            show_late: true,
            movement: schedule(defaults.movement, &defaults.move_cron),
            retreat: schedule(defaults.retreat, &defaults.retreat_cron),
            adjustment: schedule(defaults.adjustment, &defaults.adjust_cron),
            end_year: None,
            end_at: None,
            win_by: WinBy::Pieces,
            players: 7,
            nodias: false,
            takeovers: false,
            approved: Default::default(),
            absence_days: defaults.absence_days,
            private: false,
            start: None,
        }
    }

    pub fn press_allowed(&self) -> bool {
        self.white || self.grey
    }
}

/// Defaults for new games (the Master can change each game's own):
/// `[games]` in `judge.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Defaults {
    /// Seconds from a movement phase's start to its deadline: the key
    /// `move_hours`, a number of hours or a length ("5 minutes", "2h").
    #[serde(
        rename = "move_hours",
        default = "default_move",
        deserialize_with = "hours_or_length"
    )]
    pub movement: u32,
    /// Seconds for retreat and adjustment phases.
    #[serde(
        rename = "retreat_hours",
        default = "default_short",
        deserialize_with = "hours_or_length"
    )]
    pub retreat: u32,
    #[serde(
        rename = "adjust_hours",
        default = "default_short",
        deserialize_with = "hours_or_length"
    )]
    pub adjustment: u32,
    /// Seconds of grace after a deadline.
    #[serde(
        rename = "grace_hours",
        default = "default_short",
        deserialize_with = "hours_or_length"
    )]
    pub grace: u32,
    /// Schedules (cron: 5 fields, minute first, or 6 or 7, seconds first;
    /// in `timezone`): the deadline is
    /// the first schedule time at least the phase's hours after its start.
    #[serde(default)]
    pub move_cron: Option<String>,
    #[serde(default)]
    pub retreat_cron: Option<String>,
    #[serde(default)]
    pub adjust_cron: Option<String>,
    /// The time zone schedules are read in (IANA name); absent: UTC.
    #[serde(default)]
    pub timezone: Option<String>,
    /// The most days of absence a player may have announced and not yet
    /// over, together (each game's Master may change it).
    #[serde(default = "default_absence_days")]
    pub absence_days: u32,
}

impl Default for Defaults {
    fn default() -> Self {
        Defaults {
            movement: default_move(),
            retreat: default_short(),
            adjustment: default_short(),
            grace: default_short(),
            move_cron: None,
            retreat_cron: None,
            adjust_cron: None,
            timezone: None,
            absence_days: default_absence_days(),
        }
    }
}

fn default_move() -> u32 {
    72 * 3600
}
fn default_short() -> u32 {
    24 * 3600
}

/// A length in `[games]`: a number of hours (`72`, `0.5`), or a string
/// with its unit (`"5 minutes"`, `"2h"`, `"1d"`); in seconds.
fn hours_or_length<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Written {
        Hours(f64),
        Length(String),
    }
    let text = match Written::deserialize(d)? {
        Written::Hours(h) => h.to_string(),
        Written::Length(text) => text,
    };
    super::length::read_whole(&text)
        .ok_or_else(|| serde::de::Error::custom(crate::say!("clock.length_usage")))
}
fn default_absence_days() -> u32 {
    14
}

/// The clock's habits: `[clock]` in `judge.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClockSettings {
    /// Hours before a deadline at which powers with incomplete orders get
    /// a reminder (once per phase; 0: none).
    pub reminder_hours: u32,
    /// Minutes after the last order, once every power's orders are
    /// complete and nobody has WAIT set, before the phase is processed early.
    pub early_minutes: u32,
    /// Hours between repeated late notices.
    pub late_repeat_hours: u32,
    /// A gap of at least this many minutes between two clock ticks means
    /// the judge was down.
    pub outage_minutes: u32,
    /// Hours from the restart to which deadlines missed during an outage
    /// are pushed.
    pub outage_margin_hours: u32,
    /// The most seconds between clock ticks in `judge run` (it also
    /// wakes when a deadline, reminder or bell comes).
    pub tick_seconds: u32,
}

impl Default for ClockSettings {
    fn default() -> Self {
        ClockSettings {
            reminder_hours: 24,
            early_minutes: 10,
            late_repeat_hours: 24,
            outage_minutes: 60,
            outage_margin_hours: 24,
            tick_seconds: 30,
        }
    }
}

/// Stores a game's settings; returns them as stored (JSON), for the
/// caller's copy of the game.
pub fn save(
    conn: &rusqlite::Connection,
    game_id: i64,
    settings: &GameSettings,
) -> Result<String, crate::store::StoreError> {
    let text = serde_json::to_string(settings)?;
    crate::store::games::set_game_settings(conn, game_id, &text)?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_schedule_stored_in_hours_reads_in_seconds() {
        let old = r#"{"cron":"0 20 * * Mon,Thu","min_hours":48,"least_hours":12,"grace_hours":24}"#;
        let read: Schedule = serde_json::from_str(old).unwrap();
        assert_eq!(
            (read.next_seconds, read.least_seconds, read.grace_seconds),
            (48 * 3600, 12 * 3600, 24 * 3600)
        );
        // Stored again, in seconds: read back the same.
        let again: Schedule = serde_json::from_str(&serde_json::to_string(&read).unwrap()).unwrap();
        assert_eq!(again, read);
        let stored = serde_json::to_value(&read).unwrap();
        assert_eq!(stored["next_seconds"], 48 * 3600);
        assert!(stored.get("min_hours").is_none());
    }
}
