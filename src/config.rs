//! `judge.toml`: the judge's configuration. Relative paths in it are
//! relative to the file, so a copied `judge.toml` with its folder is an
//! independent judge.

use std::path::{Path, PathBuf};

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub judge: JudgeSection,
    #[serde(default)]
    pub store: StoreSection,
    #[serde(default)]
    pub mail: MailSection,
    #[serde(default)]
    pub games: GamesSection,
    #[serde(default)]
    pub clock: ClockSection,
    #[serde(default)]
    pub maps: MapsSection,
    /// Mailbox sections belong to the daemon; kept as raw tables here so
    /// that the front end can run from the same file.
    #[serde(default)]
    pub inbox: Option<toml::Table>,
    #[serde(default)]
    pub outbox: Option<toml::Table>,
    /// The folder the file lives in: the base of relative paths.
    #[serde(skip)]
    pub base: PathBuf,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgeSection {
    /// The judge's code in subjects: `JDG:mygame - S1901M Results`.
    pub code: String,
    /// The judge's own address: From of every mail it sends.
    pub address: String,
    /// A display name for From.
    #[serde(default = "default_name")]
    pub name: String,
    /// The judgekeeper's address: told by mail when a mail or a game
    /// could not be handled, or a mail could not be sent. Absent: the log
    /// only.
    #[serde(default)]
    pub keeper: Option<String>,
}

fn default_name() -> String {
    "Diplomacy Judge".to_string()
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoreSection {
    #[serde(default = "default_db")]
    pub path: PathBuf,
}

impl Default for StoreSection {
    fn default() -> Self {
        StoreSection { path: default_db() }
    }
}

fn default_db() -> PathBuf {
    PathBuf::from("var/judge.db")
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailSection {
    /// Larger mails get a short refusal.
    #[serde(default = "default_max_bytes")]
    pub max_bytes: usize,
}

impl Default for MailSection {
    fn default() -> Self {
        MailSection {
            max_bytes: default_max_bytes(),
        }
    }
}

fn default_max_bytes() -> usize {
    256 * 1024
}

/// The map pictures: in the results mails, for `GET MAP` and `judge map`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapsSection {
    /// Whether results mails carry the map of the phase (players may still
    /// `SET MAPS OFF` for themselves).
    #[serde(default = "yes")]
    pub enabled: bool,
    /// The PNG's width in pixels (at least 400; the height follows).
    #[serde(default = "default_map_width")]
    pub width: u32,
    /// Also attach the SVG (for zooming without blur).
    #[serde(default)]
    pub svg: bool,
}

impl Default for MapsSection {
    fn default() -> Self {
        MapsSection {
            enabled: true,
            width: default_map_width(),
            svg: false,
        }
    }
}

fn yes() -> bool {
    true
}

fn default_map_width() -> u32 {
    1200
}

/// Defaults for new games (the Master can change each game's own).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GamesSection {
    /// Hours from a movement phase's start to its deadline.
    #[serde(default = "default_move_hours")]
    pub move_hours: u32,
    /// Hours for retreat and adjustment phases.
    #[serde(default = "default_short_hours")]
    pub retreat_hours: u32,
    #[serde(default = "default_short_hours")]
    pub adjust_hours: u32,
    /// Hours of grace after a deadline.
    #[serde(default = "default_grace_hours")]
    pub grace_hours: u32,
    /// Schedules (cron, 6 or 7 fields, seconds first, UTC): the deadline is
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
}

impl Default for GamesSection {
    fn default() -> Self {
        GamesSection {
            move_hours: default_move_hours(),
            retreat_hours: default_short_hours(),
            adjust_hours: default_short_hours(),
            grace_hours: default_grace_hours(),
            move_cron: None,
            retreat_cron: None,
            adjust_cron: None,
            timezone: None,
        }
    }
}

fn default_move_hours() -> u32 {
    72
}
fn default_short_hours() -> u32 {
    24
}
fn default_grace_hours() -> u32 {
    24
}

/// The clock's habits.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClockSection {
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
    /// Seconds between clock ticks in `judge run`.
    pub tick_seconds: u32,
}

impl Default for ClockSection {
    fn default() -> Self {
        ClockSection {
            reminder_hours: 24,
            early_minutes: 10,
            late_repeat_hours: 24,
            outage_minutes: 60,
            outage_margin_hours: 24,
            tick_seconds: 30,
        }
    }
}

impl Config {
    /// Reads and checks a configuration file.
    pub fn load(path: &Path) -> Result<Config, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut config =
            Config::from_toml(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        config.base = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        if config.base.as_os_str().is_empty() {
            config.base = PathBuf::from(".");
        }
        Ok(config)
    }

    pub fn from_toml(text: &str) -> Result<Config, String> {
        let config: Config = toml::from_str(text).map_err(|e| e.to_string())?;
        if config.judge.code.is_empty()
            || !config.judge.code.chars().all(|c| c.is_ascii_alphanumeric())
        {
            return Err(format!(
                "[judge] code = {:?}: use letters and digits only (it starts every subject)",
                config.judge.code
            ));
        }
        if config.maps.width < 400 || config.maps.width > 8000 {
            return Err(format!(
                "[maps] width = {}: give a width from 400 to 8000 pixels",
                config.maps.width
            ));
        }
        if crate::mail::Address::parse(&config.judge.address).is_err() {
            return Err(format!(
                "[judge] address = {:?} is not a mail address",
                config.judge.address
            ));
        }
        if let Some(keeper) = &config.judge.keeper {
            if crate::mail::Address::parse(keeper).is_err() {
                return Err(format!("[judge] keeper = {keeper:?} is not a mail address"));
            }
        }
        if let Some(zone) = &config.games.timezone {
            crate::game::clock::check_zone(zone).map_err(|e| format!("[games] timezone: {e}"))?;
        }
        for (key, expr) in [
            ("move_cron", &config.games.move_cron),
            ("retreat_cron", &config.games.retreat_cron),
            ("adjust_cron", &config.games.adjust_cron),
        ] {
            if let Some(expr) = expr {
                crate::game::clock::check_cron(expr).map_err(|e| format!("[games] {key}: {e}"))?;
            }
        }
        Ok(config)
    }

    /// A path from the file, made absolute against the file's folder.
    pub fn resolve(&self, path: &Path) -> PathBuf {
        if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.base.join(path)
        }
    }

    pub fn database_path(&self) -> PathBuf {
        self.resolve(&self.store.path)
    }
}
