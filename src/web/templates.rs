//! The pages' templates: the files of `templates/web/` beside
//! `judge.toml`, each missing one replaced by the built-in copy of this
//! repository's `templates/web/`, compiled once when the judge (or `judge
//! archive`) starts and tried on a sample game then (`sample.rs`), so that
//! a mistake in an edited page is reported with its file and line at the
//! start, never halfway through a web pass.
//!
//! Every value a page prints is escaped (minijinja's auto-escape, for
//! `.html`, `.svg` and `.atom` templates, with [`super::html::write_escaped`] as
//! the escaper: it also blanks the control and bidi characters a player's
//! press could hold). The Rust side hands the templates plain data
//! (`pages.rs`); nothing it hands them is marked safe but the rows of the
//! list of games, which are the output of `index_row.html` (see
//! `pages::RowCache`). Besides minijinja's
//! filters there are `date` (Unix seconds as `2026-11-26 20:00 UTC`),
//! `rfc3339` (as `2026-11-26T20:00:00Z`, for the feed) and `as_text`
//! (markup made by the template escaped once more, for the feed's HTML
//! content: `{% filter as_text %}<p>...</p>{% endfilter %}`).

use std::fmt;
use std::path::{Path, PathBuf};

use minijinja::{AutoEscape, Environment, Output, State, Value};
use serde::Serialize;

use super::html::{date, rfc3339, write_escaped};

/// The list of games at the top of the archive.
pub const SITE_INDEX: &str = "index.html";
/// A game's row in the list of games.
pub const INDEX_ROW: &str = "index_row.html";
/// A game's own page.
pub const GAME: &str = "game.html";
/// A processed phase's page.
pub const PHASE: &str = "phase.html";
/// A game's maps one after another.
pub const PLAY: &str = "play.html";
/// A game's Atom feed.
pub const FEED: &str = "feed.atom";
/// The style sheet: copied as it is, not a template.
pub const STYLE: &str = "style.css";

/// The templates, with their built-in text. `base.html` is the frame the
/// pages extend; `chart.svg` the centres chart the game's page includes.
const BUILTIN: &[(&str, &str)] = &[
    ("base.html", include_str!("../../templates/web/base.html")),
    (SITE_INDEX, include_str!("../../templates/web/index.html")),
    (
        INDEX_ROW,
        include_str!("../../templates/web/index_row.html"),
    ),
    (GAME, include_str!("../../templates/web/game.html")),
    ("chart.svg", include_str!("../../templates/web/chart.svg")),
    (PHASE, include_str!("../../templates/web/phase.html")),
    (PLAY, include_str!("../../templates/web/play.html")),
    (FEED, include_str!("../../templates/web/feed.atom")),
];

const BUILTIN_STYLE: &str = include_str!("../../templates/web/style.css");

/// The escaping the pages get: HTML's (and XML's), by the judge's own
/// escaper.
const MARKUP: AutoEscape = AutoEscape::Custom(std::borrow::Cow::Borrowed("markup"));

/// A page template that could not be read, compiled or rendered.
#[derive(Debug)]
pub enum TemplateError {
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A template does not compile, or failed while rendering (an unknown
    /// variable, a filter given the wrong values).
    Template {
        /// The file, or "built-in web/game.html".
        origin: String,
        source: minijinja::Error,
    },
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TemplateError::Read { path, source } => {
                write!(f, "cannot read the template {}: {source}", path.display())
            }
            // minijinja's message names the kind, the detail and the
            // line: "undefined value (in game.html:12)".
            TemplateError::Template { origin, source } => write!(f, "template {origin}: {source}"),
        }
    }
}

impl std::error::Error for TemplateError {}

/// The compiled page templates and the style sheet.
pub struct PageTemplates {
    env: Environment<'static>,
    /// Per template name: where its text came from, for error messages.
    origins: Vec<(&'static str, String)>,
    style: String,
}

impl fmt::Debug for PageTemplates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PageTemplates")
            .field("origins", &self.origins)
            .finish()
    }
}

impl PageTemplates {
    /// The templates of `dir` (`templates/web/`), compiled: each file
    /// there replaces the built-in one of its name; a missing file, or
    /// folder, leaves the built-in one. (`web::page_templates` also tries
    /// them on a sample game.)
    pub fn from_dir(dir: &Path) -> Result<PageTemplates, TemplateError> {
        PageTemplates::load(Some(dir))
    }

    /// The built-in templates only.
    #[cfg(test)]
    pub fn builtin() -> PageTemplates {
        PageTemplates::load(None).expect("the built-in page templates compile")
    }

    fn load(dir: Option<&Path>) -> Result<PageTemplates, TemplateError> {
        let read = |name: &str| -> Result<Option<(String, String)>, TemplateError> {
            let Some(dir) = dir else { return Ok(None) };
            let path = dir.join(name);
            match std::fs::read_to_string(&path) {
                Ok(text) => Ok(Some((text, path.display().to_string()))),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(source) => Err(TemplateError::Read { path, source }),
            }
        };
        let mut t = PageTemplates::empty();
        for &(name, builtin) in BUILTIN {
            let (text, origin) = read(name)?
                .unwrap_or_else(|| (builtin.to_string(), format!("built-in web/{name}")));
            t.add(name, text, origin)?;
        }
        t.style = read(STYLE)?.map_or_else(|| BUILTIN_STYLE.to_string(), |(text, _)| text);
        Ok(t)
    }

    /// The style sheet, `style.css` at the top of the archive.
    pub fn style(&self) -> &str {
        &self.style
    }

    /// Renders the template `name` from `data`.
    pub fn render(&self, name: &str, data: &impl Serialize) -> Result<String, TemplateError> {
        let origin = self
            .origins
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(name, |(_, o)| o.as_str());
        let fail = |source| TemplateError::Template {
            origin: origin.to_string(),
            source,
        };
        let template = self.env.get_template(name).map_err(fail)?;
        template
            .render(Value::from(minijinja::value::Serde(data)))
            .map_err(fail)
    }

    fn empty() -> PageTemplates {
        let mut env = crate::report::environment(true);
        env.set_auto_escape_callback(|name| match name.rsplit_once('.').map(|(_, ext)| ext) {
            Some("html" | "svg" | "atom") => MARKUP,
            _ => AutoEscape::None,
        });
        env.set_formatter(format_value);
        env.add_filter("date", date);
        env.add_filter("rfc3339", rfc3339);
        env.add_filter("as_text", as_text);
        PageTemplates {
            env,
            origins: Vec::new(),
            style: String::new(),
        }
    }

    fn add(
        &mut self,
        name: &'static str,
        text: String,
        origin: String,
    ) -> Result<(), TemplateError> {
        self.env
            .add_template_owned(name, text)
            .map_err(|source| TemplateError::Template {
                origin: origin.clone(),
                source,
            })?;
        self.origins.push((name, origin));
        Ok(())
    }
}

/// The markup `value` (a block of the template, already escaped where it
/// holds values) escaped as text: what an Atom `type="html"` element
/// holds. minijinja's `escape` would leave it as it is (a block's output
/// counts as safe).
fn as_text(value: &Value) -> Result<Value, minijinja::Error> {
    let mut out = String::new();
    let text = value
        .as_str()
        .map_or_else(|| value.to_string(), str::to_string);
    write_escaped(&mut out, &text).map_err(minijinja::Error::from)?;
    Ok(Value::from_safe_string(out))
}

/// Prints a value into a page: escaped, unless minijinja made it (a
/// macro's output, already escaped as it was made).
fn format_value(
    out: &mut Output,
    state: &mut State,
    value: &Value,
) -> Result<(), minijinja::Error> {
    if state.auto_escape() != &MARKUP || value.is_safe() {
        return minijinja::escape_formatter(out, state, value);
    }
    match value.as_str() {
        Some(s) => write_escaped(out, s),
        None => write_escaped(out, &value.to_string()),
    }
    .map_err(minijinja::Error::from)
}
