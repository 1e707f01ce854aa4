//! From a decoded mail body to the lines a player meant as commands.

/// Words that end an attribution line ("On …, X wrote:") in the languages
/// players' mail clients are most often set to.
const WROTE: &[&str] = &[
    "wrote",
    "writes",
    "schrieb",
    "a écrit",
    "escribió",
    "ha scritto",
    "schreef",
    "skrev",
    "napisał",
    "escreveu",
    "kirjoitti",
];

/// How attribution lines begin ("On", "Am", "Le", "El", "Il giorno", "Op",
/// "Em", "Den").
const ON: &[&str] = &["On ", "Am ", "Le ", "El ", "Il ", "Op ", "Em ", "Den "];

/// Mobile clients' one-line signatures, dropped when they are the last line.
const MOBILE_SIGNATURES: &[&str] = &[
    "Sent from my ",
    "Sent from Mail for Windows",
    "Sent from Outlook",
    "Get Outlook for ",
    "Sent with Proton Mail",
];

/// Splits a decoded body into command lines.
///
/// - Lines end at LF, CRLF or CR; trailing white space is trimmed.
/// - Lines quoted from earlier mail (starting with `>` after optional
///   spaces) are dropped, with the attribution line before them
///   ("On <date>, <someone> wrote:", also wrapped over two lines, and the
///   same in a few other languages, or "<someone> wrote:").
/// - Everything from one of these lines on is dropped, the line included:
///   `SIGNOFF` or `SIGN OFF` (any case), a signature separator `-- ` (or `--`),
///   `-----Original Message-----`, Outlook's quoted header block (a line of
///   underscores, or a `From:` line, followed by `Sent:`/`Date:`), and an
///   "On … wrote:" attribution that is followed by unquoted text (clients
///   that paste the old mail without `>`).
/// - A last line like "Sent from my iPhone" is dropped.
/// - Blank lines are kept (press needs them), except at the start and end,
///   and where removing a quote would leave two blank lines in a row.
pub fn command_lines(text: &str) -> Vec<String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let text = text
        .replace("\r\n", "\n")
        .replace(['\r'], "\n")
        .replace('\0', "");
    let raw: Vec<&str> = text.split('\n').collect();

    let mut out: Vec<String> = Vec::new();
    let mut removed = false;
    let mut i = 0;
    while i < raw.len() {
        let line = raw[i].trim_end();
        if ends_here(&raw, i) {
            break;
        }
        if is_quoted(line) {
            removed = true;
            i += 1;
            continue;
        }
        if let Some(attr) = attribution(&raw, i) {
            if attr.with_previous && out.last().map(String::as_str) == Some(raw[i - 1].trim_end()) {
                out.pop();
            }
            if !attr.quote_follows {
                // The old mail follows unquoted: none of it is meant.
                break;
            }
            removed = true;
            i += 1;
            continue;
        }
        if line.is_empty() {
            if removed && out.last().is_none_or(|l| l.is_empty()) {
                i += 1;
                continue;
            }
        } else {
            removed = false;
        }
        out.push(line.to_string());
        i += 1;
    }

    // A mobile client's one-line signature at the very end.
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    if out.last().is_some_and(|l| {
        MOBILE_SIGNATURES
            .iter()
            .any(|s| l.trim_start().starts_with(s))
    }) {
        out.pop();
    }

    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    let first = out.iter().position(|l| !l.is_empty()).unwrap_or(out.len());
    out.drain(..first);
    out
}

fn is_quoted(line: &str) -> bool {
    line.trim_start().starts_with('>')
}

/// The next non-blank line after `i`, if any.
fn next_non_blank<'a>(raw: &[&'a str], i: usize) -> Option<&'a str> {
    raw[i + 1..]
        .iter()
        .map(|l| l.trim())
        .find(|l| !l.is_empty())
}

fn starts_with_ci(s: &str, prefix: &str) -> bool {
    s.len() >= prefix.len()
        && s.is_char_boundary(prefix.len())
        && s[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// Whether line `i` starts the part of the mail that is not meant as
/// commands: SIGNOFF, a signature, or a pasted earlier message.
fn ends_here(raw: &[&str], i: usize) -> bool {
    let line = raw[i].trim_end();
    let s = line.trim();
    if is_sign_off(s) || line == "--" {
        return true;
    }
    if s.starts_with("----") && s.to_lowercase().contains("original message") {
        return true;
    }
    // Outlook: a line of underscores, then the old mail's From: line.
    if s.len() >= 10 && s.chars().all(|c| c == '_') {
        return next_non_blank(raw, i).is_some_and(|n| {
            starts_with_ci(n, "From:")
                || starts_with_ci(n, "Von:")
                || starts_with_ci(n, "De :")
                || starts_with_ci(n, "De:")
        });
    }
    // Outlook without the underscores: From: / Sent: (or Date:) lines.
    if starts_with_ci(s, "From:") || starts_with_ci(s, "Von:") {
        if let Some(next) = raw.get(i + 1).map(|l| l.trim()) {
            return starts_with_ci(next, "Sent:")
                || starts_with_ci(next, "Gesendet:")
                || starts_with_ci(next, "Date:");
        }
    }
    false
}

/// `SIGNOFF`, or `SIGN OFF` in two words (njudge), in any case.
fn is_sign_off(s: &str) -> bool {
    let words: Vec<&str> = s.split_whitespace().collect();
    match words[..] {
        [one] => one.eq_ignore_ascii_case("signoff"),
        [sign, off] => sign.eq_ignore_ascii_case("sign") && off.eq_ignore_ascii_case("off"),
        _ => false,
    }
}

/// "… wrote:", or "… schrieb Name <addr>:" (the German order).
fn ends_with_wrote(s: &str) -> bool {
    let Some(head) = s.strip_suffix(':') else {
        return false;
    };
    let lower = head.trim_end().to_lowercase();
    WROTE.iter().any(|verb| {
        lower.rfind(verb).is_some_and(|at| {
            let after = lower[at + verb.len()..].trim();
            let word_start = at == 0 || !lower[..at].ends_with(|c: char| c.is_alphanumeric());
            word_start && (after.is_empty() || (after.ends_with('>') && after.len() <= 120))
        })
    })
}

struct Attribution {
    /// The line before is the first half of a wrapped attribution.
    with_previous: bool,
    /// Quoted lines (or nothing) follow: drop just the attribution.
    quote_follows: bool,
}

/// Whether line `i` is an attribution line ("On …, X wrote:").
fn attribution(raw: &[&str], i: usize) -> Option<Attribution> {
    let s = raw[i].trim();
    if !ends_with_wrote(s) {
        return None;
    }
    let quote_follows = next_non_blank(raw, i).is_none_or(is_quoted);
    let starts_on = |l: &str| ON.iter().any(|on| l.starts_with(on));
    if starts_on(s) {
        return Some(Attribution {
            with_previous: false,
            quote_follows,
        });
    }
    // Wrapped over two lines: "On Mon, … Judge <judge@example.org>" / "wrote:".
    let previous = i.checked_sub(1).map(|p| raw[p].trim()).unwrap_or("");
    if starts_on(previous) && !previous.is_empty() {
        return Some(Attribution {
            with_previous: true,
            quote_follows,
        });
    }
    // "Someone wrote:" alone counts only when a quote follows it.
    if quote_follows && s.len() <= 200 {
        return Some(Attribution {
            with_previous: false,
            quote_follows,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::command_lines;

    fn lines(s: &str) -> Vec<String> {
        command_lines(s)
    }

    #[test]
    fn cuts() {
        assert_eq!(lines("\n\nA Par-Bur\r\n\r\nSIGNOFF\r\njunk"), ["A Par-Bur"]);
        assert_eq!(lines("A Par-Pic\nSign  Off\nA Par H"), ["A Par-Pic"]);
        assert_eq!(lines("a\n-- \nsig"), ["a"]);
        assert_eq!(lines("a\n--\nsig"), ["a"]);
        assert_eq!(lines("a\n---x\nb"), ["a", "---x", "b"]);
        assert_eq!(lines("a\n\n-----Original Message-----\nFrom: x"), ["a"]);
        assert_eq!(
            lines("a\n________________________________\nFrom: Judge\nSent: now"),
            ["a"]
        );
        assert_eq!(lines("a\nFrom: Judge <j@x.org>\nSent: Monday\nb"), ["a"]);
        assert_eq!(
            lines("From: me, to all: hello"),
            ["From: me, to all: hello"]
        );
        assert_eq!(lines("a\n\nSent from my iPhone\n"), ["a"]);
    }

    #[test]
    fn quotes() {
        assert_eq!(
            lines("a\n\nOn Mon, X wrote:\n> q\n>\n> r\n\nb\n> s\n\nc"),
            ["a", "", "b", "", "c"]
        );
        assert_eq!(
            lines("a\nOn Mon, 3 Nov 2026 at 20:00, Judge <\njudge@example.org> wrote:\n\n> q"),
            ["a"]
        );
        assert_eq!(lines("a\nOn Mon, 3 Nov 2026 Judge\nwrote:\n> q"), ["a"]);
        assert_eq!(lines("a\nJudge wrote:\n> q\nb"), ["a", "b"]);
        assert_eq!(lines("Italy wrote:\nHello"), ["Italy wrote:", "Hello"]);
        assert_eq!(lines("a\n\nOn Mon, X wrote:\nold text, unquoted"), ["a"]);
        assert_eq!(lines("a\nAm Montag schrieb Judge <j@x.org>:\n> q"), ["a"]);
        assert_eq!(lines("Le lun. 3 nov. 2026, Judge a écrit :\n> q\nb"), ["b"]);
    }
}
