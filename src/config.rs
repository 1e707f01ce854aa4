//! `judge.toml`: the judge's configuration. Relative paths in it are
//! relative to the file, so a copied `judge.toml` with its folder is an
//! independent judge.

mod mailboxes;
mod source;

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::game::pictures::MapSettings;
use crate::game::settings::{ClockSettings, Defaults};
pub use mailboxes::{
    ImapSettings, InboxSettings, OutboxSettings, ServerSettings, SmtpSettings, Tls,
};
pub use source::Problem;
use source::{Document, Problems, Section};

/// The judge's configuration, every section read and checked.
#[derive(Debug, Clone)]
pub struct Config {
    pub judge: JudgeSection,
    pub store: StoreSection,
    pub mail: MailSection,
    pub games: Defaults,
    pub clock: ClockSettings,
    pub maps: MapSettings,
    pub web: WebSection,
    pub inbox: InboxSettings,
    pub outbox: OutboxSettings,
    /// The folder the file lives in: the base of relative paths.
    pub base: PathBuf,
}

/// The sections of the file.
const SECTIONS: [&str; 9] = [
    "judge", "store", "mail", "games", "clock", "maps", "web", "inbox", "outbox",
];

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
fn check_url(web: &Section, url: &Option<String>) -> Option<Problem> {
    let url = url.as_deref().map(str::trim).filter(|u| !u.is_empty())?;
    let lower = url.to_ascii_lowercase();
    let scheme = lower.starts_with("http://") || lower.starts_with("https://");
    let host = url.split("://").nth(1).unwrap_or("");
    let clean = !url
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '\'' | '<' | '>' | '`'));
    if scheme && clean && !host.is_empty() && !host.starts_with('/') {
        return None;
    }
    Some(web.bad_value(
        "url",
        "give the archive's public address, starting with http:// or https://, such as \
         \"https://diplomacy.example.org/games/\"",
    ))
}

/// `[web] listen`: empty, or an address and port.
fn check_listen(web: &Section, listen: &Option<String>) -> Option<Problem> {
    match listen.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(a) if a.parse::<std::net::SocketAddr>().is_ok() => None,
        Some(_) => Some(web.bad_value(
            "listen",
            "give an IP address and a port, such as \"127.0.0.1:8080\" (or \"\" for no server)",
        )),
    }
}

/// `[judge]`: a code fit for subjects, mail addresses.
fn check_judge(section: &Section, judge: &JudgeSection) -> Vec<Problem> {
    let mut problems = Vec::new();
    let code = &judge.code;
    if code.is_empty() || !code.chars().all(|c| c.is_ascii_alphanumeric()) {
        problems.push(section.bad_value(
            "code",
            "use letters and digits only (it starts every subject)",
        ));
    }
    if crate::mail::Address::parse(&judge.address).is_err() {
        problems.push(section.bad_value("address", "not a mail address"));
    }
    if let Some(keeper) = &judge.keeper {
        if crate::mail::Address::parse(keeper).is_err() {
            problems.push(section.bad_value("keeper", "not a mail address"));
        }
    }
    problems
}

/// `[games]`: the time zone (made its canonical name) and the schedules.
fn check_games(section: &Section, games: &mut Defaults) -> Vec<Problem> {
    let mut problems = Vec::new();
    if let Some(zone) = &mut games.timezone {
        match crate::game::clock::check_zone(zone) {
            Ok(tz) => *zone = tz.name().to_string(),
            Err(e) => problems.push(section.at_key("timezone", &e)),
        }
    }
    for (key, expr) in [
        ("move_cron", &games.move_cron),
        ("retreat_cron", &games.retreat_cron),
        ("adjust_cron", &games.adjust_cron),
    ] {
        if let Some(Err(e)) = expr.as_deref().map(crate::game::clock::check_cron) {
            problems.push(section.at_key(key, &e));
        }
    }
    problems
}

/// The sections read by serde, each on its own, so that one pass finds a
/// problem in each.
struct Sections {
    judge: Option<JudgeSection>,
    store: Option<StoreSection>,
    mail: Option<MailSection>,
    games: Option<Defaults>,
    clock: Option<ClockSettings>,
    maps: Option<MapSettings>,
    web: Option<WebSection>,
    inbox: Option<InboxSettings>,
    outbox: Option<OutboxSettings>,
}

impl Sections {
    fn read(doc: &Document, problems: &mut Problems) -> Sections {
        Sections {
            judge: problems.take(doc.section("judge").deserialize()),
            store: problems.take(doc.section("store").deserialize()),
            mail: problems.take(doc.section("mail").deserialize()),
            games: problems.take(doc.section("games").deserialize()),
            clock: problems.take(doc.section("clock").deserialize()),
            maps: problems.take(doc.section("maps").deserialize()),
            web: problems.take(doc.section("web").deserialize()),
            inbox: problems.take_all(InboxSettings::read(&doc.section("inbox"))),
            outbox: problems.take_all(OutboxSettings::read(&doc.section("outbox"))),
        }
    }

    /// The values' own checks, beyond their types.
    fn check(&mut self, doc: &Document, problems: &mut Problems) {
        if let Some(judge) = &self.judge {
            problems.add(check_judge(&doc.section("judge"), judge));
        }
        if let Some(games) = &mut self.games {
            problems.add(check_games(&doc.section("games"), games));
        }
        if let Some(maps) = &self.maps {
            if !(400..=8000).contains(&maps.width) {
                problems.add([doc
                    .section("maps")
                    .bad_value("width", "give a width from 400 to 8000 pixels")]);
            }
            if crate::draw::Palette::from_name(&maps.palette).is_none() {
                problems.add([doc.section("maps").bad_value(
                    "palette",
                    "give \"classic\" (the board's colours) or \"okabe-ito\" (for \
                     colour-blind readers)",
                )]);
            }
        }
        if let Some(web) = &self.web {
            let section = doc.section("web");
            problems.add(check_listen(&section, &web.listen));
            problems.add(check_url(&section, &web.url));
        }
    }

    fn config(self) -> Option<Config> {
        Some(Config {
            judge: self.judge?,
            store: self.store?,
            mail: self.mail?,
            games: self.games?,
            clock: self.clock?,
            maps: self.maps?,
            web: self.web?,
            inbox: self.inbox?,
            outbox: self.outbox?,
            base: PathBuf::from("."),
        })
    }
}

impl Config {
    /// Reads and checks a configuration file; its problems in one text,
    /// a line each.
    pub fn load(path: &Path) -> Result<Config, String> {
        Config::read(path).map_err(|problems| problems.join("\n"))
    }

    /// Reads and checks a configuration file; every problem found, each
    /// naming the file and its line.
    pub fn read(path: &Path) -> Result<Config, Vec<String>> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| vec![format!("cannot read {}: {e}", path.display())])?;
        let mut config = Config::from_toml(&text).map_err(|problems| {
            problems
                .into_iter()
                .map(|p| match p.line {
                    Some(line) => format!("{}, line {line}: {}", path.display(), p.text),
                    None => format!("{}: {}", path.display(), p.text),
                })
                .collect::<Vec<_>>()
        })?;
        config.base = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        if config.base.as_os_str().is_empty() {
            config.base = PathBuf::from(".");
        }
        Ok(config)
    }

    /// The configuration in `text`, or every problem found in it, in the
    /// order of their lines.
    pub fn from_toml(text: &str) -> Result<Config, Vec<Problem>> {
        let doc = Document::parse(text).map_err(|p| vec![p])?;
        let mut problems = Problems::default();
        problems.add(doc.unknown_sections(&SECTIONS));
        let mut sections = Sections::read(&doc, &mut problems);
        sections.check(&doc, &mut problems);
        problems.finish(sections.config()).map_err(|mut found| {
            found.sort_by_key(|p| p.line);
            found
        })
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
        match &self.inbox {
            InboxSettings::Maildir { path } => Some(self.resolve(path)),
            _ => None,
        }
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
