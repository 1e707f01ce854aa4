//! The mails the judge sends to the whole game, rendered from templates the
//! judgekeeper can edit. No IO but reading the template folder, no clock:
//! dates come in already written.
//!
//! - [`Templates`]: the template set — the files of a folder (`templates/`
//!   beside `judge.toml`), each missing one replaced by the built-in copy of
//!   this repository's `templates/`.
//! - [`render_results`]: the body of the results mail of one phase, from a
//!   [`ResultsContext`]; [`render_subject`] its subject line.
//!
//! The Rust side hands the templates plain data (strings, lists of strings,
//! counts); all the wording and the layout are in the templates. The
//! variables each template receives are listed at its top.
//!
//! Templates are [minijinja](https://docs.rs/minijinja) (Jinja2) with
//! `trim_blocks` and `lstrip_blocks` on, so a line holding only a block tag
//! (`{% if %}`, `{% for %}`) leaves nothing in the output; undefined
//! variables are errors, so a misspelt name fails loudly instead of printing
//! nothing. Besides minijinja's built-in filters there is
//! `wrap(width, indent)`: fill a line to `width` columns, breaking at spaces
//! and indenting the continuation lines by `indent` spaces.

mod reasons;
mod results;
pub mod words;
mod wrap;

use std::fmt;
use std::path::{Path, PathBuf};

use minijinja::syntax::SyntaxConfig;
use minijinja::{Environment, UndefinedBehavior, Value};

use crate::engine::phase::Phase;

pub use reasons::void_reason;
pub use results::ResultsContext;
pub use wrap::wrap_filter;

/// The templates this module knows, with their built-in text.
const BUILTIN: &[(&str, &str)] = &[(RESULTS, include_str!("../../templates/results.txt"))];

/// The results mail body.
pub const RESULTS: &str = "results.txt";

/// A template that could not be read, compiled or rendered.
#[derive(Debug)]
pub enum ReportError {
    /// A template file exists but could not be read.
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A template does not compile, or failed while rendering (an unknown
    /// variable, a filter given the wrong values).
    Template {
        /// The file, or "built-in results.txt".
        origin: String,
        source: minijinja::Error,
    },
    /// No template of that name exists.
    Unknown(String),
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::Read { path, source } => {
                write!(f, "cannot read the template {}: {source}", path.display())
            }
            ReportError::Template { origin, source } => {
                // minijinja's message names the kind, the detail and the
                // line: "undefined value (in results.txt:12)".
                write!(f, "template {origin}: {source}")
            }
            ReportError::Unknown(name) => write!(f, "there is no template named {name:?}"),
        }
    }
}

impl std::error::Error for ReportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReportError::Read { source, .. } => Some(source),
            ReportError::Template { source, .. } => Some(source),
            ReportError::Unknown(_) => None,
        }
    }
}

/// The set of templates the judge renders its mails with.
pub struct Templates {
    env: Environment<'static>,
    /// Per template name: where its text came from, for error messages.
    origins: Vec<(&'static str, String)>,
    /// The web archive's public address (`[web] url`, ending in `/`), for
    /// the links the mails give: part of what the mail texts know of the
    /// judge, like its code.
    archive_url: Option<String>,
}

impl fmt::Debug for Templates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Templates")
            .field("origins", &self.origins)
            .finish()
    }
}

impl Templates {
    /// The templates built into the judge (copies of the repository's
    /// `templates/`).
    pub fn builtin() -> Templates {
        let mut t = Templates::empty();
        for &(name, text) in BUILTIN {
            t.add(name, text.to_string(), format!("built-in {name}"))
                .expect("the built-in templates compile");
        }
        t
    }

    /// The templates of `dir`: each file there (`results.txt`, ...) replaces
    /// the built-in template of that name; a missing file, or a missing
    /// folder, leaves the built-in one. Every template is compiled and
    /// tried on a sample phase now, so that a mistake in an edited file is
    /// reported when the judge starts, not when results are due.
    pub fn from_dir(dir: impl AsRef<Path>) -> Result<Templates, ReportError> {
        let dir = dir.as_ref();
        let mut t = Templates::empty();
        for &(name, builtin) in BUILTIN {
            let path = dir.join(name);
            match std::fs::read_to_string(&path) {
                Ok(text) => t.add(name, text, path.display().to_string())?,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    t.add(name, builtin.to_string(), format!("built-in {name}"))?
                }
                Err(source) => return Err(ReportError::Read { path, source }),
            }
        }
        results::try_sample(&t)?;
        Ok(t)
    }

    /// The mails link to the web archive at `url` (ending in `/`).
    pub fn with_archive_url(mut self, url: Option<String>) -> Templates {
        self.archive_url = url;
        self
    }

    /// The web archive's public address, if the mails link to it.
    pub fn archive_url(&self) -> Option<&str> {
        self.archive_url.as_deref()
    }

    /// Where the template `name` came from: its file, or "built-in NAME".
    pub fn origin(&self, name: &str) -> Option<&str> {
        self.origins
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, o)| o.as_str())
    }

    /// Renders the template `name` with the variables of `context` (a map).
    pub fn render(&self, name: &str, context: Value) -> Result<String, ReportError> {
        let origin = self
            .origin(name)
            .ok_or_else(|| ReportError::Unknown(name.to_string()))?;
        let fail = |source| ReportError::Template {
            origin: origin.to_string(),
            source,
        };
        let template = self.env.get_template(name).map_err(fail)?;
        template.render(context).map_err(fail)
    }

    fn empty() -> Templates {
        let env = environment(true);
        Templates {
            env,
            origins: Vec::new(),
            archive_url: None,
        }
    }

    fn add(&mut self, name: &'static str, text: String, origin: String) -> Result<(), ReportError> {
        self.env
            .add_template_owned(name, text)
            .map_err(|source| ReportError::Template {
                origin: origin.clone(),
                source,
            })?;
        self.origins.retain(|(n, _)| *n != name);
        self.origins.push((name, origin));
        Ok(())
    }
}

/// The judge's template syntax, one for every kind of template (the
/// results mail, the words, the pages): `trim_blocks` and `lstrip_blocks`,
/// undefined variables are errors, and the `wrap` filter. A whole-file
/// template keeps its last newline; a words entry has none.
pub fn environment(keep_trailing_newline: bool) -> Environment<'static> {
    let mut env = Environment::new();
    env.set_syntax(
        SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .keep_trailing_newline(keep_trailing_newline)
            .build()
            .expect("the default delimiters"),
    );
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.add_filter("wrap", wrap::wrap_filter);
    env
}

/// The body of the results mail of one phase.
pub fn render_results(templates: &Templates, cx: &ResultsContext) -> Result<String, ReportError> {
    templates.render(RESULTS, results::variables(cx))
}

/// The subject of the results mail: `JDG:mygame - S1901M Results`.
pub fn render_subject(code: &str, game: &str, phase: Phase) -> String {
    game_subject(code, game, Some(&phase.to_string()), title::RESULTS)
}

/// The titles the judge gives its mails (the `what` of [`game_subject`]),
/// used by those that send them and by the front end, which tells a
/// reply to one of them from a subject of the player's own words. A new
/// title belongs here, and in [`title::BEGINNINGS`], [`title::WHOLE`] or
/// [`title::ENDINGS`].
pub mod title {
    pub const RESULTS: &str = "Results";
    /// A reply that touched orders (a player's own title is kept).
    pub const ORDERS: &str = "Orders";
    pub const REPLY: &str = "Reply";
    pub const REMINDER: &str = "Reminder";
    pub const LATE: &str = "[You are late!]";
    pub const LATE_POWERS: &str = "Late powers";
    pub const WAITING_FOR_REPLACEMENT: &str = "Waiting for a replacement";
    pub const DEADLINE_CHANGED: &str = "Deadline changed";
    pub const DEADLINE_MOVED_AFTER_OUTAGE: &str = "Deadline moved after an outage";
    /// "Game starts", or to a player "Game starts: you are <powers>".
    pub const GAME_STARTS: &str = "Game starts";
    pub const GAME_TERMINATED: &str = "Game terminated";
    pub const ROLLBACK: &str = "Rollback";
    /// Followed by the power: "New player for England".
    pub const NEW_PLAYER_FOR: &str = "New player for";
    /// Followed by the sender: "Press from England".
    pub const PRESS_FROM: &str = "Press from";
    pub const BROADCAST_FROM: &str = "Broadcast from";
    pub const SIGN_ONS_LOCKED: &str = "Sign-ons locked";
    pub const REMOVED: &str = "You have been removed";
    pub const SETTINGS_CHANGED: &str = "Settings changed";
    pub const ABSENCE: &str = "Absence";
    pub const PRE_ORDERS: &str = "Pre-orders";
    /// Followed by the power: "You may take over England".
    pub const YOU_MAY_TAKE_OVER: &str = "You may take over";
    /// Followed by the power: "The Master acts for England" (BECOME).
    pub const MASTER_ACTS_FOR: &str = "The Master acts for";
    /// PAUSE, RESUME: the whole title.
    pub const PAUSED: &str = "paused";
    pub const RESUMED: &str = "resumed";
    /// After the powers: "England resigned".
    pub const RESIGNED: &str = "resigned";
    /// After the powers: "England needs a player", "Russia and Italy
    /// need a player".
    pub const NEEDS_A_PLAYER: &str = "needs a player";
    pub const NEED_A_PLAYER: &str = "need a player";
    /// To an address named by someone else, before anything else.
    pub const CONFIRM_ADDRESS: &str = "Confirm this address";

    /// The titles that begin a subject's title.
    pub const BEGINNINGS: [&str; 22] = [
        RESULTS,
        REPLY,
        REMINDER,
        LATE,
        LATE_POWERS,
        WAITING_FOR_REPLACEMENT,
        DEADLINE_CHANGED,
        DEADLINE_MOVED_AFTER_OUTAGE,
        GAME_STARTS,
        GAME_TERMINATED,
        ROLLBACK,
        NEW_PLAYER_FOR,
        PRESS_FROM,
        BROADCAST_FROM,
        SIGN_ONS_LOCKED,
        REMOVED,
        SETTINGS_CHANGED,
        ABSENCE,
        PRE_ORDERS,
        YOU_MAY_TAKE_OVER,
        CONFIRM_ADDRESS,
        MASTER_ACTS_FOR,
    ];
    /// The titles that are the whole title.
    pub const WHOLE: [&str; 2] = [PAUSED, RESUMED];
    /// The titles that end a title after powers' names.
    pub const ENDINGS: [&str; 3] = [RESIGNED, NEEDS_A_PLAYER, NEED_A_PLAYER];
}

/// The subject of a mail about a game: `JDG:mygame - S1901M <what>`, or
/// without a phase `JDG:mygame - <what>`.
pub fn game_subject(code: &str, game: &str, phase: Option<&str>, what: &str) -> String {
    match phase {
        Some(phase) => format!("{code}:{game} - {phase} {what}"),
        None => format!("{code}:{game} - {what}"),
    }
}
