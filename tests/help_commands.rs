//! The help texts are true: every command form the help files show
//! (read from `templates/help/*.txt`) is understood by the judge, and
//! what the help says LIST <game> shows, LIST <game> shows.

mod common;

use common::*;
use judge::frontend::script::{read_script, Command};

/// The judge's commands: a help line whose first word is one of these
/// (and whose other words are a form, not prose) shows a command form.
const KEYWORDS: [&str; 27] = [
    "HELP",
    "GET",
    "LIST",
    "HISTORY",
    "SUMMARY",
    "VERSION",
    "CREATE",
    "SIGNON",
    "OBSERVE",
    "UNOBSERVE",
    "SET",
    "CLEAR",
    "PHASE",
    "PRESS",
    "BROADCAST",
    "RESIGN",
    "PROCESS",
    "PREDICT",
    "PAUSE",
    "RESUME",
    "TERMINATE",
    "ROLLBACK",
    "EJECT",
    "BECOME",
    "START",
    "SIGNOFF",
    "ENDPRESS",
];

const GM: &str = "gm@example.org";

fn help_files() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/templates/help");
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// A word of a form (not of prose): a keyword-like upper-case word, a
/// placeholder, an optional part or a choice.
fn form_word(word: &str) -> bool {
    let upper = word
        .chars()
        .all(|c| c.is_ascii_uppercase() || "?|".contains(c));
    upper || word.contains(['<', '[', ']', '|'])
}

/// The command forms of one help text, as written (`SET END <year>`).
fn forms_of(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        if indent > 4 {
            continue;
        }
        let form = line
            .trim()
            .split("  ")
            .next()
            .unwrap()
            .trim_end_matches('.');
        let words: Vec<&str> = form.split_whitespace().collect();
        let Some(first) = words.first() else { continue };
        if !KEYWORDS.contains(first) {
            continue;
        }
        // GET <file>'s files are named in lower case.
        let get_file = *first == "GET" && words.len() == 2;
        if get_file || words[1..].iter().all(|w| form_word(w)) {
            for alt in form.split(" | ") {
                out.push(alt.trim().to_string());
            }
        }
    }
    out
}

/// Every way to write `form`: each optional part left out or put in,
/// each choice taken.
fn expand(form: &str) -> Vec<String> {
    if let Some(open) = form.find('[') {
        let close = open + form[open..].find(']').expect("a closed [");
        let (head, inner, tail) = (&form[..open], &form[open + 1..close], &form[close + 1..]);
        let mut out = expand(&format!("{head}{tail}"));
        for alt in inner.split('|') {
            out.extend(expand(&format!("{head}{alt}{tail}")));
        }
        return out;
    }
    match form.split_whitespace().find(|w| w.contains('|')) {
        Some(choice) => choice
            .split('|')
            .flat_map(|alt| expand(&form.replacen(choice, alt, 1)))
            .collect(),
        None => vec![form.split_whitespace().collect::<Vec<_>>().join(" ")],
    }
}

/// Who may give a command: the game's Master, one of its players, or
/// anyone.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Role {
    Anyone,
    Player,
    Master,
}

fn role_of(form: &str) -> Role {
    let words: Vec<&str> = form.split_whitespace().collect();
    let player_set = [
        "WAIT", "NOWAIT", "MAPS", "PASSWORD", "ADDRESS", "ABSENCE", "DRAW", "NODRAW", "CONCEDE",
    ];
    match words[0] {
        "CLEAR" | "PHASE" | "PRESS" | "BROADCAST" | "RESIGN" => Role::Player,
        "SET" if player_set.contains(&words[1]) => Role::Player,
        "SET" if words[1] == "PREFERENCE" => Role::Anyone,
        "SET" | "PROCESS" | "PREDICT" | "PAUSE" | "RESUME" | "TERMINATE" | "ROLLBACK" | "EJECT"
        | "BECOME" | "START" => Role::Master,
        _ => Role::Anyone,
    }
}

/// `form` with its placeholders filled in, as mailed in game `game`.
fn filled(form: &str, game: &str, n: usize) -> String {
    let mut text = form
        .replace("CREATE ?<game>", &format!("CREATE ?new{n}"))
        .replace("SIGNON ?<game>", "SIGNON ?forming")
        .replace("<game>", game)
        .replace("<password>", "pass-word")
        .replace("<variant>", "five")
        .replace("<file>", "syntax")
        .replace("<phase>", "S1901M")
        .replace("FROM <date>", "FROM 2026-01-01")
        .replace("TO <date>", "TO 2026-12-31")
        .replace("<date>", "2026-12-24 20:00")
        .replace("<cron>", "0 0 20 * * Mon,Thu")
        .replace("<hours>", "24")
        .replace("<year>", "1907")
        .replace("<powers>", "EF")
        .replace("<power>", "Turkey")
        .replace("<initials>", "EF")
        .replace("<new>", "pass-F")
        // (The same address: a player's mails keep coming from it.)
        .replace("<address>", "f@example.net");
    if text.starts_with("PRESS") || text.starts_with("BROADCAST") {
        text.push_str("\nA word from France.\nENDPRESS");
    }
    text
}

/// What the judge says of a command it does not understand.
const NOT_UNDERSTOOD: [&str; 4] = [
    "Not understood",
    "is not a setting",
    "Write it as:",
    "There is no file",
];

#[test]
fn every_command_form_of_the_help_is_understood() {
    let mut forms: Vec<String> = Vec::new();
    for (file, text) in help_files() {
        let found = forms_of(&text);
        if file == "help.txt" || file == "master.txt" {
            assert!(found.len() > 20, "{file}: only {found:?}");
        }
        for form in found {
            for way in expand(&form) {
                if !forms.contains(&way) && way != "ENDPRESS" && way != "SIGNOFF" {
                    forms.push(way);
                }
            }
        }
    }
    // Every form is read as the command it is (never as orders).
    for form in &forms {
        let text = filled(form, "hlp", 0);
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        let read = read_script(&lines);
        assert!(
            !matches!(
                read[0].command,
                Command::Other(_) | Command::Malformed { .. }
            ),
            "{form:?} ({text:?}) is read as {:?}",
            read[0].command
        );
    }
    // And answered by the judge without "not understood", by whom may
    // give it; what ends a game or a seat last.
    let mut j = TestJudge::new("help-forms");
    j.mail(GM, "CREATE ?hlp gm-pass");
    j.mail(GM, "CREATE ?forming gm-pass");
    for p in "AEFGIRT".chars() {
        let from = format!("{}@example.net", p.to_ascii_lowercase());
        j.mail(&from, &format!("SIGNON ?hlp pass-{p}\nSET PREFERENCE {p}"));
    }
    let last = |f: &String| {
        ["TERMINATE", "RESIGN", "EJECT"]
            .iter()
            .any(|w| f.starts_with(w))
    };
    forms.sort_by_key(|f| last(f));
    for (n, form) in forms.iter().enumerate() {
        let text = filled(form, "hlp", n);
        let (from, body) = match role_of(form) {
            // (A new address each time: strangers get a few replies an hour.)
            Role::Anyone => (format!("someone{n}@example.com"), text.clone()),
            Role::Player => (
                "f@example.net".to_string(),
                format!("SIGNON Fhlp pass-F\n{text}"),
            ),
            Role::Master => (GM.to_string(), format!("SIGNON Mhlp gm-pass\n{text}")),
        };
        let r = j.mail(&from, &body);
        assert!(!r.is_empty(), "{form:?}: no reply");
        for said in NOT_UNDERSTOOD {
            assert!(
                !r[0].body.contains(said),
                "{form:?} as {:?}: {said:?}\n{}",
                role_of(form),
                r[0].body
            );
        }
    }
}

#[test]
fn list_shows_what_the_help_says_it_shows() {
    let help = help_files()
        .into_iter()
        .find(|(f, _)| f == "help.txt")
        .unwrap()
        .1;
    let said: String = help
        .lines()
        .skip_while(|l| !l.starts_with("LIST <game>"))
        .take_while(|l| l.starts_with("LIST <game>") || l.starts_with("      "))
        .map(|l| l.trim_start_matches("LIST <game>").trim())
        .collect::<Vec<_>>()
        .join(" ");
    // Each thing the help names, and how LIST says it.
    let shown = [
        ("press", "Press: "),
        ("NMR", "NMR"),
        ("deadlines", " deadlines: "),
        ("grace", "grace "),
        ("schedules", "Movement deadlines: "),
        ("end year", "End: "),
        ("draw rule", "Draw rule: "),
        ("pause", "paused"),
        ("status", "playing"),
        ("units", "units: "),
        ("centres", "centres: "),
        ("deadline", "Deadline: "),
    ];
    for (thing, _) in shown {
        assert!(
            said.contains(thing),
            "the help no longer names {thing}: {said}"
        );
    }
    let mut j = TestJudge::new("help-list");
    j.mail(GM, "CREATE ?lh gm-pass");
    for p in "AEFGIRT".chars() {
        let from = format!("{}@example.net", p.to_ascii_lowercase());
        j.mail(&from, &format!("SIGNON ?lh pass-{p}\nSET PREFERENCE {p}"));
    }
    let running = j.mail("x@example.com", "LIST lh").remove(0).body;
    let paused = j
        .mail(GM, "SIGNON Mlh gm-pass\nPAUSE\nLIST lh")
        .remove(0)
        .body;
    for (thing, text) in shown {
        let list = if thing == "pause" { &paused } else { &running };
        assert!(
            list.contains(text),
            "LIST shows no {thing} ({text:?}):\n{list}"
        );
    }
}
