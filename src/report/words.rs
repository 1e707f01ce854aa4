//! The judge's words: every reply line, notice and mail text other than the
//! results mail, as minijinja templates in `templates/words/<area>.txt`,
//! which a judgekeeper edits without a rebuild (as njudge's text files).
//!
//! A words file is a list of entries, each beginning with a header line
//! `## <name>` (optionally `## <name>: <variable> <variable> ...`, the
//! variables the entry is given) and running to the next header; the lines
//! before the first header are the file's own notes. An entry's text is a
//! template (same syntax as the results mail: `trim_blocks`,
//! `lstrip_blocks`, undefined variables are errors) with its trailing blank
//! lines dropped; the caller adds the mail's last newline. The code names an
//! entry `<area>.<name>`: [`say!`](crate::say) `("absence.noted", said)`.
//!
//! The built-in files are compiled in; a file of the same name in the
//! judgekeeper's folder replaces the built-in entries it holds, entry by
//! entry, so an edited file that lacks a newer entry still has it. Every
//! entry is compiled when the judge starts ([`Words::from_dir`]), so a
//! broken one is named with its file and line then (and by `judge check`,
//! which also renders each with sample values of the variables its header
//! names). Should an edited entry still fail while rendering, the built-in
//! one is used and the failure logged: a player always gets an answer.
//!
//! The help files (`templates/help/*.txt`) are plain text, not templates;
//! they are read here once, at start, with the same override rule.
//!
//! The judge's words are one set per process: the judge installs the set
//! it loaded ([`install`]) and [`say`] reads it (the built-in set until
//! then), so the words reach every layer that speaks without being handed
//! down through every call.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use minijinja::{Environment, Value};

use super::ReportError;

/// The words files built in: area name and text.
const BUILTIN_WORDS: &[(&str, &str)] = &[
    ("absence", include_str!("../../templates/words/absence.txt")),
    ("clock", include_str!("../../templates/words/clock.txt")),
    ("common", include_str!("../../templates/words/common.txt")),
    ("session", include_str!("../../templates/words/session.txt")),
    ("join", include_str!("../../templates/words/join.txt")),
    ("sign_on", include_str!("../../templates/words/sign_on.txt")),
    (
        "takeover",
        include_str!("../../templates/words/takeover.txt"),
    ),
    ("confirm", include_str!("../../templates/words/confirm.txt")),
    ("create", include_str!("../../templates/words/create.txt")),
    ("zone", include_str!("../../templates/words/zone.txt")),
    ("export", include_str!("../../templates/words/export.txt")),
    ("orders", include_str!("../../templates/words/orders.txt")),
    (
        "pictures",
        include_str!("../../templates/words/pictures.txt"),
    ),
    (
        "preorders",
        include_str!("../../templates/words/preorders.txt"),
    ),
    ("process", include_str!("../../templates/words/process.txt")),
    ("redact", include_str!("../../templates/words/redact.txt")),
    ("reply", include_str!("../../templates/words/reply.txt")),
    ("script", include_str!("../../templates/words/script.txt")),
    ("start", include_str!("../../templates/words/start.txt")),
    ("summary", include_str!("../../templates/words/summary.txt")),
    ("draw", include_str!("../../templates/words/draw.txt")),
    ("info", include_str!("../../templates/words/info.txt")),
    ("master", include_str!("../../templates/words/master.txt")),
    ("njudge", include_str!("../../templates/words/njudge.txt")),
    (
        "njudge_set",
        include_str!("../../templates/words/njudge_set.txt"),
    ),
    ("orders", include_str!("../../templates/words/orders.txt")),
    (
        "preorders",
        include_str!("../../templates/words/preorders.txt"),
    ),
    ("press", include_str!("../../templates/words/press.txt")),
    (
        "schedule",
        include_str!("../../templates/words/schedule.txt"),
    ),
    ("set", include_str!("../../templates/words/set.txt")),
];

/// The help files built in: HELP's name and text.
const BUILTIN_HELP: &[(&str, &str)] = &[
    ("help", include_str!("../../templates/help/help.txt")),
    ("info", include_str!("../../templates/help/info.txt")),
    ("syntax", include_str!("../../templates/help/syntax.txt")),
    (
        "deadlines",
        include_str!("../../templates/help/deadlines.txt"),
    ),
    ("press", include_str!("../../templates/help/press.txt")),
    ("master", include_str!("../../templates/help/master.txt")),
    ("rules", include_str!("../../templates/help/rules.txt")),
    ("map", include_str!("../../templates/help/map.txt")),
];

/// The origin of the built-in entries begins so.
const BUILT_IN: &str = "built-in ";

/// One entry as read from a words file.
#[derive(Debug, Clone)]
struct Entry {
    /// `<area>.<name>`.
    key: String,
    text: String,
    /// The variables its header names (for `judge check`'s trial render).
    variables: Vec<String>,
    /// The file it came from and the line of its first text line.
    origin: String,
    first_line: usize,
}

/// The judge's words: the compiled entries and the help files.
pub struct Words {
    env: Environment<'static>,
    entries: HashMap<String, Entry>,
    /// The built-in set, to fall back on when an edited entry fails.
    builtin: Option<Arc<Words>>,
    help: Vec<(&'static str, String)>,
}

impl std::fmt::Debug for Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Words")
            .field("entries", &self.entries.len())
            .finish()
    }
}

impl Words {
    /// The built-in words (copies of this repository's `templates/`).
    pub fn builtin() -> Words {
        let mut entries = Vec::new();
        for &(area, text) in BUILTIN_WORDS {
            entries.extend(parse(area, text, &format!("{BUILT_IN}words/{area}.txt")));
        }
        let help = BUILTIN_HELP
            .iter()
            .map(|&(n, t)| (n, t.to_string()))
            .collect();
        Words::compile(entries, help, None).expect("the built-in words compile")
    }

    /// The words of `dir` (the `templates/` folder beside judge.toml):
    /// `words/<area>.txt` there replaces the built-in entries it holds,
    /// `help/<name>.txt` the built-in help file. Everything is compiled now.
    pub fn from_dir(dir: &Path) -> Result<Words, ReportError> {
        let builtin = Arc::new(Words::builtin());
        let mut entries: HashMap<String, Entry> = builtin.entries.clone();
        let mut edited = false;
        for &(area, _) in BUILTIN_WORDS {
            let path = dir.join("words").join(format!("{area}.txt"));
            if let Some(text) = read_if_present(&path)? {
                edited = true;
                for entry in parse(area, &text, &path.display().to_string()) {
                    entries.insert(entry.key.clone(), entry);
                }
            }
        }
        let mut help = Vec::new();
        for &(name, text) in BUILTIN_HELP {
            let path = dir.join("help").join(format!("{name}.txt"));
            let text = read_if_present(&path)?.unwrap_or_else(|| text.to_string());
            help.push((name, text));
        }
        if !edited {
            let builtin = Arc::try_unwrap(builtin).unwrap_or_else(|_| Words::builtin());
            return Ok(Words { help, ..builtin });
        }
        Words::compile(entries.into_values(), help, Some(builtin))
    }

    fn compile(
        entries: impl IntoIterator<Item = Entry>,
        help: Vec<(&'static str, String)>,
        builtin: Option<Arc<Words>>,
    ) -> Result<Words, ReportError> {
        let mut env = super::environment(false);
        // Compiled when first said (a `judge handle` process says a few
        // of some 400 entries); an edited entry, the only kind a
        // judgekeeper can break, is compiled now, so a mistake stops the
        // start. The built-in ones are compiled and tried by the tests.
        let map: HashMap<String, Entry> = entries.into_iter().map(|e| (e.key.clone(), e)).collect();
        let sources: HashMap<String, String> = map
            .iter()
            .map(|(key, entry)| (key.clone(), entry.text.clone()))
            .collect();
        env.set_loader(move |name| Ok(sources.get(name).cloned()));
        for entry in map.values().filter(|e| !e.origin.starts_with(BUILT_IN)) {
            env.get_template(&entry.key)
                .map_err(|source| entry_error(entry, source))?;
        }
        Ok(Words {
            env,
            entries: map,
            builtin,
            help,
        })
    }

    /// Renders the entry `key` (`<area>.<name>`) with `context`. An entry
    /// that fails falls back to the built-in one; one that fails there too
    /// (a mistake in the judge) names itself rather than staying silent.
    pub fn say(&self, key: &str, context: Value) -> String {
        match self.render(key, &context) {
            Ok(text) => text,
            Err(e) => {
                log::error!("{e}");
                match &self.builtin {
                    Some(builtin) => builtin.say(key, context),
                    None => format!("[{key}]"),
                }
            }
        }
    }

    fn render(&self, key: &str, context: &Value) -> Result<String, ReportError> {
        let Some(entry) = self.entries.get(key) else {
            return Err(ReportError::Unknown(key.to_string()));
        };
        let template = self
            .env
            .get_template(key)
            .map_err(|source| entry_error(entry, source))?;
        template
            .render(context)
            .map_err(|source| entry_error(entry, source))
    }

    /// The help file `name` (`help`, `info`, ...).
    pub fn help(&self, name: &str) -> Option<&str> {
        self.help
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.as_str())
    }

    /// The names of the help files.
    pub fn help_names(&self) -> Vec<&'static str> {
        self.help.iter().map(|(n, _)| *n).collect()
    }

    /// Renders every entry with a sample value for each variable its
    /// header names: the mistakes a compile cannot see (a misspelt
    /// variable, a filter given the wrong arguments), for `judge check`.
    pub fn try_all(&self) -> Vec<String> {
        let mut keys: Vec<&String> = self.entries.keys().collect();
        keys.sort();
        let mut problems = Vec::new();
        for key in keys {
            let entry = &self.entries[key];
            let sample: HashMap<String, Value> = entry
                .variables
                .iter()
                .map(|v| (v.clone(), Value::from("sample")))
                .collect();
            if let Err(e) = self.render(key, &Value::from(sample)) {
                problems.push(e.to_string());
            }
        }
        problems
    }
}

fn read_if_present(path: &Path) -> Result<Option<String>, ReportError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(ReportError::Read {
            path: PathBuf::from(path),
            source,
        }),
    }
}

/// The error of an entry, its line counted in its file.
fn entry_error(entry: &Entry, source: minijinja::Error) -> ReportError {
    let line = source.line().map(|l| l + entry.first_line - 1);
    let origin = match line {
        Some(line) => format!("{} line {line} (entry {})", entry.origin, entry.key),
        None => format!("{} (entry {})", entry.origin, entry.key),
    };
    ReportError::Template { origin, source }
}

/// The entries of one words file.
fn parse(area: &str, text: &str, origin: &str) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if let Some(header) = line.strip_prefix("## ") {
            let (name, variables) = match header.split_once(':') {
                Some((name, vars)) => (name, vars.split_whitespace().map(String::from).collect()),
                None => (header, Vec::new()),
            };
            entries.push(Entry {
                key: format!("{area}.{}", name.trim()),
                text: String::new(),
                variables,
                origin: origin.to_string(),
                first_line: number + 2,
            });
        } else if let Some(entry) = entries.last_mut() {
            entry.text.push_str(line);
            entry.text.push('\n');
        }
    }
    for entry in &mut entries {
        let kept = entry.text.trim_end_matches(['\n', ' ']).len();
        entry.text.truncate(kept);
    }
    entries
}

static INSTALLED: OnceLock<Arc<Words>> = OnceLock::new();

/// Makes `words` the process's words (the first set installed stays).
pub fn install(words: Arc<Words>) {
    let _ = INSTALLED.set(words);
}

/// The process's words: those installed, else the built-in ones.
pub fn current() -> &'static Words {
    INSTALLED.get_or_init(|| Arc::new(Words::builtin()))
}

/// Renders the entry `key` of the process's words with `context`.
pub fn say(key: &str, context: Value) -> String {
    current().say(key, context)
}

/// `say!("area.name", var, other => &expr)`: renders the judge's words
/// `area.name` with those variables (minijinja's `context!` syntax, which
/// takes each value by value: lend a borrowed one with `&`).
#[macro_export]
macro_rules! say {
    ($key:literal) => {
        $crate::report::words::say($key, ::minijinja::Value::UNDEFINED)
    };
    ($key:literal, $($context:tt)+) => {
        $crate::report::words::say($key, ::minijinja::context! { $($context)+ })
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_run_from_header_to_header_with_their_lines_counted() {
        let text = "notes\n## one: name\nHello {{ name }}.\n\n## two\nA\nB\n\n";
        let entries = parse("t", text, "t.txt");
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].key, "t.one");
        assert_eq!(entries[0].text, "Hello {{ name }}.");
        assert_eq!(entries[0].variables, vec!["name"]);
        assert_eq!(entries[0].first_line, 3);
        assert_eq!(entries[1].text, "A\nB");
    }

    #[test]
    fn an_edited_file_replaces_the_entries_it_holds_and_no_others() {
        let dir = std::env::temp_dir().join(format!("words-merge-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("words")).unwrap();
        std::fs::write(dir.join("words/absence.txt"), "## usage\nEdited.\n").unwrap();
        let words = Words::from_dir(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(words.say("absence.usage", Value::UNDEFINED), "Edited.");
        let builtin = Words::builtin().say("absence.nothing_to_cancel", Value::UNDEFINED);
        assert_eq!(
            words.say("absence.nothing_to_cancel", Value::UNDEFINED),
            builtin
        );
        assert!(builtin.starts_with("You have no absence to cancel."));
    }

    #[test]
    fn a_broken_entry_is_named_with_its_file_and_line() {
        let text = "## one\nfine\n## two\nfine\n{% if %}\n";
        let error = Words::compile(parse("t", text, "t.txt"), Vec::new(), None).unwrap_err();
        assert!(error.to_string().contains("t.txt line 5"), "{error}");
    }
}
