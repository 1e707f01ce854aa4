//! `judge.toml` as written: its sections and keys with where they stand,
//! so that every problem names its section, key and line.

use std::borrow::Cow;
use std::ops::Range;

use serde::de::DeserializeOwned;
use toml::de::{DeTable, DeValue, ValueDeserializer};
use toml::Spanned;

/// One thing wrong with the file: the line it is on (none: the file as a
/// whole) and what is wrong, starting with `[section] key`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub line: Option<usize>,
    pub text: String,
}

/// The parsed file, every key and value with its place in the text.
pub struct Document<'t> {
    text: &'t str,
    root: DeTable<'t>,
}

impl<'t> Document<'t> {
    /// The file read as TOML; a syntax error is the one problem.
    pub fn parse(text: &'t str) -> Result<Document<'t>, Problem> {
        let root = DeTable::parse(text).map_err(|e| Problem {
            line: e.span().map(|s| line_of(text, s.start)),
            text: e.message().to_string(),
        })?;
        Ok(Document {
            text,
            root: root.into_inner(),
        })
    }

    /// `[name]`, whether the file has it or not.
    pub fn section(&self, name: &'static str) -> Section<'_> {
        let found = self.root.iter().find(|(k, _)| k.get_ref() == name);
        Section {
            name,
            text: self.text,
            value: found.map(|(_, v)| v),
        }
    }

    /// A problem for each top-level name that is not one of the sections
    /// `known`: a section the judge does not have, a key outside any
    /// section, or a key named like a section.
    pub fn unknown_sections(&self, known: &[&str]) -> Vec<Problem> {
        let list = known
            .iter()
            .map(|s| format!("[{s}]"))
            .collect::<Vec<_>>()
            .join(", ");
        self.root
            .iter()
            .filter(|(k, v)| !known.contains(&k.get_ref().as_ref()) || !v.get_ref().is_table())
            .map(|(k, v)| Problem {
                line: Some(line_of(self.text, k.span().start)),
                text: if v.get_ref().is_table() {
                    format!("[{}]: unknown section (the file knows {list})", k.get_ref())
                } else if known.contains(&k.get_ref().as_ref()) {
                    format!(
                        "{0}: a key, where the file needs the section [{0}]",
                        k.get_ref()
                    )
                } else {
                    format!(
                        "{}: a key outside any section (each belongs under one of {list})",
                        k.get_ref()
                    )
                },
            })
            .collect()
    }
}

/// A key and its value, each with its place.
type Entry<'a> = (&'a Spanned<Cow<'a, str>>, &'a Spanned<DeValue<'a>>);

/// One section of the file (absent: no keys).
pub struct Section<'a> {
    pub name: &'static str,
    text: &'a str,
    value: Option<&'a Spanned<DeValue<'a>>>,
}

impl<'a> Section<'a> {
    fn table(&self) -> Option<&'a DeTable<'a>> {
        self.value.and_then(|v| v.get_ref().as_table())
    }

    /// The keys as written, in the file's order.
    pub fn keys(&self) -> Vec<&'a str> {
        let mut keys: Vec<_> = self
            .table()
            .into_iter()
            .flatten()
            .map(|(k, _)| (k.span().start, k.get_ref().as_ref()))
            .collect();
        keys.sort();
        keys.into_iter().map(|(_, k)| k).collect()
    }

    fn entry(&self, key: &str) -> Option<Entry<'a>> {
        self.table()?.iter().find(|(k, _)| k.get_ref() == key)
    }

    pub fn value(&self, key: &str) -> Option<&'a DeValue<'a>> {
        self.entry(key).map(|(_, v)| v.get_ref())
    }

    /// The line of `[name]` (none: the section is absent).
    fn header_line(&self) -> Option<usize> {
        self.value.map(|v| line_of(self.text, v.span().start))
    }

    /// `[section] key = <as written>: what`, at the key's line.
    pub fn bad_value(&self, key: &str, what: &str) -> Problem {
        match self.entry(key) {
            Some((k, v)) => Problem {
                line: Some(line_of(self.text, k.span().start)),
                text: format!("[{}] {key} = {}: {what}", self.name, &self.text[v.span()]),
            },
            None => self.at_key(key, what),
        }
    }

    /// `[section] key: what`, at the key's line (or the section's, when
    /// the key is absent).
    pub fn at_key(&self, key: &str, what: &str) -> Problem {
        Problem {
            line: self
                .entry(key)
                .map(|(k, _)| line_of(self.text, k.span().start))
                .or_else(|| self.header_line()),
            text: format!("[{}] {key}: {what}", self.name),
        }
    }

    /// `[section] key is missing: what`, at the section's line.
    pub fn missing(&self, key: &str, what: &str) -> Problem {
        Problem {
            line: self.header_line(),
            text: format!("[{}] {key} is missing: {what}", self.name),
        }
    }

    /// A problem for each key not in `known`; `who` says whose keys they
    /// are ("an IMAP inbox").
    pub fn unknown_keys(&self, known: &[&str], who: &str) -> Vec<Problem> {
        self.keys()
            .into_iter()
            .filter(|k| !known.contains(k))
            .map(|k| {
                self.at_key(
                    k,
                    &format!("unknown key ({who} knows {})", known.join(", ")),
                )
            })
            .collect()
    }

    /// The section read onto a type by serde (absent: from no keys), its
    /// error said in the file's terms.
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T, Problem> {
        let value = match self.value {
            Some(v) => v.clone(),
            None => Spanned::new(0..0, DeValue::Table(DeTable::new())),
        };
        T::deserialize(ValueDeserializer::from(value)).map_err(|e| self.explain(&e))
    }

    /// A serde error at the key it points to.
    fn explain(&self, e: &toml::de::Error) -> Problem {
        let message = e.message();
        if let Some(field) = quoted(message, "unknown field `") {
            let known = message
                .split_once("expected")
                .map(|(_, list)| list.replace(['`'], "").replace("one of ", ""))
                .unwrap_or_default();
            let known = known.trim();
            return self.at_key(&field, &format!("unknown key (the section knows {known})"));
        }
        if let Some(field) = quoted(message, "missing field `") {
            return self.missing(&field, "the file must give it");
        }
        let key = e.span().and_then(|span| self.key_at(&span));
        match key {
            Some(key) => self.bad_value(&key, &plain_words(message)),
            None => Problem {
                line: e
                    .span()
                    .map(|s| line_of(self.text, s.start))
                    .or(self.header_line()),
                text: format!("[{}]: {message}", self.name),
            },
        }
    }

    /// The key whose name or value holds `span`.
    fn key_at(&self, span: &Range<usize>) -> Option<String> {
        self.table()?
            .iter()
            .find(|(k, v)| {
                let within =
                    |r: Range<usize>| r.start <= span.start && span.start < r.end.max(r.start + 1);
                within(k.span()) || within(v.span())
            })
            .map(|(k, _)| k.get_ref().to_string())
    }

    /// A string key: absent, or a string.
    pub fn string(&self, key: &str) -> Result<Option<String>, Problem> {
        match self.value(key) {
            None => Ok(None),
            Some(DeValue::String(s)) => Ok(Some(s.to_string())),
            Some(_) => Err(self.bad_value(key, "write a string in quotes")),
        }
    }

    /// A whole-number key: absent, or a number from `min` to `max`.
    pub fn number(&self, key: &str, min: i64, max: i64) -> Result<Option<i64>, Problem> {
        let Some(value) = self.value(key) else {
            return Ok(None);
        };
        let n = match value {
            DeValue::Integer(i) => i64::from_str_radix(i.as_str(), i.radix()).ok(),
            _ => None,
        };
        match n {
            Some(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => Err(self.bad_value(key, &format!("write a whole number from {min} to {max}"))),
        }
    }
}

/// The name between `` ` `` after `prefix`.
fn quoted(message: &str, prefix: &str) -> Option<String> {
    let rest = message.strip_prefix(prefix)?;
    Some(rest[..rest.find('`')?].to_string())
}

/// serde's "invalid type: string \"x\", expected u32" as what to write.
fn plain_words(message: &str) -> String {
    let Some((_, expected)) = message.rsplit_once(", expected ") else {
        return message.to_string();
    };
    let max = match expected {
        "u8" => Some(u64::from(u8::MAX)),
        "u16" => Some(u64::from(u16::MAX)),
        "u32" => Some(u64::from(u32::MAX)),
        "u64" | "usize" => Some(u64::MAX),
        _ => None,
    };
    if let Some(max) = max {
        // A number out of range, or not a number at all.
        return if message.starts_with("invalid value: integer") {
            format!("write a whole number from 0 to {max}")
        } else {
            "write a whole number".to_string()
        };
    }
    match expected {
        "a boolean" => "write true or false".to_string(),
        "a string" => "write a string in quotes".to_string(),
        "i8" | "i16" | "i32" | "i64" | "isize" => "write a whole number".to_string(),
        "f32" | "f64" => "write a number".to_string(),
        other => format!("expected {other}"),
    }
}

/// The line (from 1) that byte `offset` of `text` is on.
pub fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The problems found so far while reading a section, so that one pass
/// reports them all.
#[derive(Debug, Default)]
pub struct Problems(pub Vec<Problem>);

impl Problems {
    /// The value, or none with its problem kept.
    pub fn take<T>(&mut self, read: Result<T, Problem>) -> Option<T> {
        read.map_err(|p| self.0.push(p)).ok()
    }

    /// The value, or none with its problems kept.
    pub fn take_all<T>(&mut self, read: Result<T, Vec<Problem>>) -> Option<T> {
        read.map_err(|p| self.0.extend(p)).ok()
    }

    pub fn add(&mut self, problems: impl IntoIterator<Item = Problem>) {
        self.0.extend(problems);
    }

    /// `value` when nothing was wrong.
    pub fn finish<T>(self, value: Option<T>) -> Result<T, Vec<Problem>> {
        match value {
            Some(v) if self.0.is_empty() => Ok(v),
            _ => Err(self.0),
        }
    }
}
