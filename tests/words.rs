//! The judge's words as a judgekeeper changes them: an entry of
//! `templates/words/<area>.txt` beside judge.toml replaces the built-in one
//! a help file likewise, with no rebuild; `judge check`
//! names a broken entry with its file and line.

mod common;

use common::TestJudge;

fn templates_dir(j: &TestJudge) -> std::path::PathBuf {
    j.config().parent().unwrap().join("templates")
}

fn write(j: &TestJudge, relative: &str, text: &str) -> std::path::PathBuf {
    let path = templates_dir(j).join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn an_edited_entry_and_help_file_change_the_replies_and_the_others_stay() {
    let mut j = TestJudge::new("words-edit");
    write(
        &j,
        "words/absence.txt",
        "## needs_player_sign_on\nFirst sign on, please ({{ 'SIGNON' }} <power><game> <password>).\n",
    );
    write(&j, "help/help.txt", "Our judge's own help.\n");

    let replies = j.mail("stranger@example.org", "SET ABSENCE 2026-12-24\nHELP");
    let reply = &replies[0].body;
    assert!(
        reply.contains("First sign on, please (SIGNON <power><game> <password>)."),
        "{reply}"
    );
    assert!(reply.contains("Our judge's own help."), "{reply}");
}

#[test]
fn judge_check_names_a_broken_entry_and_an_unknown_variable_with_their_lines() {
    let j = TestJudge::new("words-broken");
    let path = write(
        &j,
        "words/absence.txt",
        "{# notes #}\n## usage\nfine\n## limit_set: days\nUp to {{ dayz }} days.\n",
    );
    let check = j.run(&["check"], b"");
    assert!(!check.ok, "judge check passed:\n{}", check.stdout);
    let file = path.display().to_string();
    assert!(
        check
            .stdout
            .contains(&format!("{file} line 5 (entry absence.limit_set)")),
        "{}",
        check.stdout
    );

    write(&j, "words/absence.txt", "## usage\nfine\n{% if %}\n");
    let check = j.run(&["check"], b"");
    assert!(!check.ok);
    assert!(
        check
            .stdout
            .contains(&format!("{file} line 3 (entry absence.usage)")),
        "{}",
        check.stdout
    );
    // The judge refuses to start on it, with the same words.
    let run = j.run(&["run", "--once"], b"");
    assert!(!run.ok);
    assert!(
        run.stderr.contains(&format!("{file} line 3")),
        "{}",
        run.stderr
    );
}

#[test]
fn judge_check_renders_every_built_in_entry_with_the_variables_it_names() {
    let j = TestJudge::new("words-builtin");
    let check = j.run(&["check"], b"");
    assert!(check.ok, "judge check failed:\n{}", check.stdout);
    assert!(
        check.stdout.contains("compile and render"),
        "{}",
        check.stdout
    );
}

/// The most string literals of eight words or more that `src/game` and
/// `src/frontend` may hold outside their test modules: sentences belong in
/// `templates/words/`. Lowered as the rest of the prose moves there.
const LONG_LITERALS_CEILING: usize = 20;

/// The string literals of `source` as the lead's counting script finds
/// them (its pattern `"((?:[^"\\]|\\.)*)"`): a quote opens, an escape
/// takes the next character (not a line end), a quote closes; where no
/// closing quote follows, the search goes on from the next character.
/// Comments are not skipped, as the script does not skip them.
fn string_literals(source: &str) -> Vec<String> {
    let chars: Vec<char> = source.chars().collect();
    let mut found = Vec::new();
    let mut start = 0;
    while start < chars.len() {
        if chars[start] != '"' {
            start += 1;
            continue;
        }
        let mut i = start + 1;
        let closed = loop {
            match chars.get(i) {
                None => break None,
                Some('"') => break Some(i),
                Some('\\') if chars.get(i + 1).is_some_and(|&c| c != '\n') => i += 2,
                Some('\\') => break None,
                Some(_) => i += 1,
            }
        };
        match closed {
            Some(end) => {
                found.push(chars[start + 1..end].iter().collect());
                start = end + 1;
            }
            None => start += 1,
        }
    }
    found
}

fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_game_and_the_front_end_keep_their_sentences_in_the_words_files() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src/game"), &mut files);
    rust_files(&root.join("src/frontend"), &mut files);
    let mut per_file: Vec<(usize, String)> = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).unwrap();
        let code = match source.find("#[cfg(test)]") {
            Some(at) => &source[..at],
            None => &source,
        };
        let long = string_literals(code)
            .iter()
            .filter(|s| s.split_whitespace().count() >= 8)
            .count();
        if long > 0 {
            let shown = file.strip_prefix(root).unwrap_or(file).display();
            per_file.push((long, shown.to_string()));
        }
    }
    let total: usize = per_file.iter().map(|(n, _)| n).sum();
    per_file.sort_by(|a, b| b.cmp(a));
    assert!(
        total <= LONG_LITERALS_CEILING,
        "{total} string literals of 8 words or more in src/game and src/frontend, \
         over the {LONG_LITERALS_CEILING} allowed: put the sentences in templates/words/ \
         and say them with say!. By file:\n{}",
        per_file
            .iter()
            .map(|(n, f)| format!("{n:5} {f}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The most string literals in `src/` that may hold an HTML tag: the pages'
/// markup belongs in `templates/web/`, rendered with auto-escape.
const HTML_LITERALS_CEILING: usize = 5;

/// Whether `text` holds an HTML tag (`<p>`, `</td>`, `<a href=...>`): a
/// tag name the pages use, after `<` or `</`, then `>`, a space or `/`.
fn holds_a_tag(text: &str) -> bool {
    const TAGS: [&str; 47] = [
        "p",
        "a",
        "td",
        "tr",
        "th",
        "table",
        "div",
        "span",
        "li",
        "ul",
        "ol",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "html",
        "head",
        "body",
        "img",
        "br",
        "svg",
        "pre",
        "code",
        "em",
        "strong",
        "section",
        "nav",
        "link",
        "meta",
        "title",
        "script",
        "style",
        "small",
        "figure",
        "figcaption",
        "thead",
        "tbody",
        "button",
        "main",
        "header",
        "footer",
        "article",
        "caption",
        "details",
        "summary",
    ];
    text.match_indices('<').any(|(at, _)| {
        let rest = text[at + 1..].strip_prefix('/').unwrap_or(&text[at + 1..]);
        TAGS.iter().any(|tag| {
            rest.strip_prefix(tag)
                .and_then(|after| after.chars().next())
                .is_some_and(|c| c == '>' || c == ' ' || c == '/')
        })
    })
}

#[test]
fn the_pages_keep_their_markup_in_the_web_templates() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let mut found = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).unwrap();
        let code = match source.find("#[cfg(test)]") {
            Some(at) => &source[..at],
            None => &source,
        };
        for literal in string_literals(code).iter().filter(|s| holds_a_tag(s)) {
            let shown = file.strip_prefix(root).unwrap_or(file).display();
            found.push(format!("{shown}: {literal}"));
        }
    }
    assert!(
        found.len() <= HTML_LITERALS_CEILING,
        "{} string literals in src/ hold an HTML tag, over the {HTML_LITERALS_CEILING} \
         allowed: put the markup in templates/web/:\n{}",
        found.len(),
        found.join("\n")
    );
    assert!(holds_a_tag("<td class=\"n\">") && !holds_a_tag("SIGNON <power><game>"));
}
