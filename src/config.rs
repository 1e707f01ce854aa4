//! `judge.toml`: the judge's configuration. Relative paths in it are
//! relative to the file, so a copied `judge.toml` with its folder is an
//! independent judge.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::game::maps::MapSettings;
use crate::game::settings::{ClockSettings, Defaults};

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub judge: JudgeSection,
    #[serde(default)]
    pub store: StoreSection,
    #[serde(default)]
    pub mail: MailSection,
    #[serde(default)]
    pub games: Defaults,
    #[serde(default)]
    pub clock: ClockSettings,
    #[serde(default)]
    pub maps: MapSettings,
    #[serde(default)]
    pub web: WebSection,
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

/// `[web]`: the archive of every game as web pages, written by the judge.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebSection {
    /// Whether `judge run` writes the pages as games are played.
    #[serde(default = "default_web_enabled")]
    pub enabled: bool,
    /// The folder of the pages.
    #[serde(default = "default_web_path")]
    pub path: PathBuf,
    /// Where `judge run` serves the folder (`127.0.0.1:8080`); absent or
    /// empty: not served (another web server may serve the folder).
    #[serde(default)]
    pub listen: Option<String>,
    /// The archive's public address (`https://dip.example.org/games/`):
    /// the results mails link to each phase's page. Absent: no links.
    #[serde(default)]
    pub url: Option<String>,
}

impl Default for WebSection {
    fn default() -> Self {
        WebSection {
            enabled: default_web_enabled(),
            path: default_web_path(),
            listen: None,
            url: None,
        }
    }
}

fn default_web_enabled() -> bool {
    true
}

fn default_web_path() -> PathBuf {
    PathBuf::from("var/www")
}

impl WebSection {
    /// `[web] url` as the mails give it, ending in `/`; none when the
    /// pages are not written.
    pub fn public_url(&self) -> Option<String> {
        let url = self
            .url
            .as_deref()
            .map(str::trim)
            .filter(|u| !u.is_empty())?;
        if !self.enabled {
            return None;
        }
        Some(if url.ends_with('/') {
            url.to_string()
        } else {
            format!("{url}/")
        })
    }

    /// The address to serve at, if any: checked when the file is read.
    pub fn listen_address(&self) -> Option<std::net::SocketAddr> {
        self.listen.as_deref().and_then(|a| a.trim().parse().ok())
    }
}

/// `[web] url`: empty, or an http(s) address that every mail may carry as
/// a link (never `javascript:` or a text that breaks out of a link).
fn check_url(url: &Option<String>) -> Result<(), String> {
    let Some(url) = url.as_deref().map(str::trim).filter(|u| !u.is_empty()) else {
        return Ok(());
    };
    let lower = url.to_ascii_lowercase();
    let scheme = lower.starts_with("http://") || lower.starts_with("https://");
    let host = url.split("://").nth(1).unwrap_or("");
    let clean = !url
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '\'' | '<' | '>' | '`'));
    if scheme && clean && !host.is_empty() && !host.starts_with('/') {
        return Ok(());
    }
    Err(format!(
        "[web] url = {url:?}: give the archive's public address, starting with http:// or \
         https://, such as \"https://diplomacy.example.org/games/\""
    ))
}

/// `[web] listen`: empty, or an address and port.
fn check_listen(listen: &Option<String>) -> Result<(), String> {
    match listen.as_deref().map(str::trim) {
        None | Some("") => Ok(()),
        Some(a) => match a.parse::<std::net::SocketAddr>() {
            Ok(_) => Ok(()),
            Err(_) => Err(format!(
                "[web] listen = {a:?}: give an IP address and a port, such as \"127.0.0.1:8080\" \
                 (or \"\" for no server)"
            )),
        },
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
        let mut config: Config = toml::from_str(text).map_err(|e| e.to_string())?;
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
        if crate::draw::Palette::from_name(&config.maps.palette).is_none() {
            return Err(format!(
                "[maps] palette = {:?}: give \"classic\" (the board's colours) or \"okabe-ito\" (for colour-blind readers)",
                config.maps.palette
            ));
        }
        check_listen(&config.web.listen)?;
        check_url(&config.web.url)?;
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
        if let Some(zone) = &mut config.games.timezone {
            let tz = crate::game::clock::check_zone(zone)
                .map_err(|e| format!("[games] timezone: {e}"))?;
            *zone = tz.name().to_string();
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

    /// The inbox's Maildir folder, when the inbox is a Maildir.
    pub fn maildir_inbox(&self) -> Option<PathBuf> {
        let table = self.inbox.as_ref();
        let kind = table
            .and_then(|t| t.get("kind"))
            .and_then(|v| v.as_str())
            .unwrap_or("maildir");
        let path = table
            .and_then(|t| t.get("path"))
            .and_then(|v| v.as_str())
            .unwrap_or("var/inbox");
        (kind == "maildir").then(|| self.resolve(Path::new(path)))
    }

    pub fn database_path(&self) -> PathBuf {
        self.resolve(&self.store.path)
    }

    /// The web archive's folder.
    pub fn web_path(&self) -> PathBuf {
        self.resolve(&self.web.path)
    }

    /// The web pass's lock: `judge.db` -> `judge.db-web`, beside the
    /// database (and its `-sending`). One process writes the archive at a
    /// time, so an older index is never renamed over a newer one.
    pub fn web_lock_path(&self) -> PathBuf {
        let mut name = self.database_path().into_os_string();
        name.push("-web");
        PathBuf::from(name)
    }
}
