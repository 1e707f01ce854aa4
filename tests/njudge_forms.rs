//! njudge's forms, as veterans type them, played by mail against a real
//! judge: each case of `tests/njudge/forms.txt` (the form as typed, the
//! game it is sent to, what the player must see and what must happen)
//! is one mail, and nothing happens but what the case says: the sender's
//! orders are exactly those listed, and mail goes to exactly those named.

mod common;

use common::*;

const MASTER: &str = "master@example.org";

/// The seven players: address, first choice (distinct, so the draw is
/// known), initial.
const PLAYERS: [(&str, &str); 7] = [
    ("al@example.net", "A"),
    ("bo@example.net", "E"),
    ("cy@example.net", "F"),
    ("di@example.net", "G"),
    ("ed@example.net", "I"),
    ("fa@example.net", "R"),
    ("gu@example.net", "T"),
];

fn addr_of(initial: &str) -> &'static str {
    if initial == "M" {
        return MASTER;
    }
    PLAYERS.iter().find(|p| p.1 == initial).unwrap().0
}

fn initial_of(addr: &str) -> &'static str {
    if addr == MASTER {
        return "M";
    }
    PLAYERS.iter().find(|p| p.0 == addr).unwrap().1
}

fn password_of(initial: &str) -> String {
    if initial == "M" {
        return "mpass".to_string();
    }
    format!("pw-{initial}")
}

/// A game `name` created by MASTER and joined by the seven players: the
/// game has started, S1901M is the current phase.
fn started_game(j: &mut TestJudge, name: &str) {
    j.mail(MASTER, &format!("CREATE ?{name} mpass"));
    for (addr, initial) in PLAYERS {
        let body = format!(
            "SIGNON ?{name} {}\nSET PREFERENCE {initial}",
            password_of(initial)
        );
        let r = j.mail(addr, &body);
        assert!(!r[0].subject.contains("[Error Flag]"), "{}", dump(&r));
    }
}

fn orders(j: &mut TestJudge, game: &str, initial: &str, lines: &str) -> Vec<Sent> {
    let body = format!("SIGNON {initial}{game} {}\n{lines}", password_of(initial));
    let r = j.mail(addr_of(initial), &body);
    assert!(!r[0].subject.contains("[Error Flag]"), "{}", dump(&r));
    r
}

fn process(j: &mut TestJudge, game: &str) {
    j.mail(MASTER, &format!("SIGNON M{game} mpass\nPROCESS"));
}

/// A started game `name` played through two movement phases (Germany's
/// and France's orders for each) to the phase `want`.
fn game_played_to(j: &mut TestJudge, name: &str, turns: [[&str; 2]; 2], want: &str) {
    started_game(j, name);
    for [german, french] in turns {
        orders(j, name, "G", german);
        orders(j, name, "F", french);
        process(j, name);
    }
    let export = j.export(name);
    let phases = export["phases"].as_array().unwrap();
    let last = phases.last().unwrap()["phase"].as_str().unwrap();
    assert_eq!(last, want, "{export:#}");
}

/// A game in W1901A where Germany is due two builds (it took Denmark and
/// Marseilles, and Kiel and Munich are empty) and France one removal.
fn winter_game(j: &mut TestJudge, name: &str) {
    let spring = [
        "F Kie - Den\nA Mun - Bur\nA Ber H",
        "A Mar - Gas\nA Par H\nF Bre H",
    ];
    let fall = ["F Den H\nA Bur - Mar\nA Ber H", "A Gas H\nA Par H\nF Bre H"];
    game_played_to(j, name, [spring, fall], "W1901A");
}

/// A game in F1901R where France's army in Burgundy, dislodged by
/// Germany's, must retreat (Paris and Picardy are open to it).
fn retreat_game(j: &mut TestJudge, name: &str) {
    let spring = [
        "A Mun - Ruh\nA Ber - Mun\nF Kie - Den",
        "A Par - Bur\nA Mar H\nF Bre H",
    ];
    let fall = [
        "A Mun - Bur\nA Ruh S A Mun - Bur\nF Den H",
        "A Bur H\nA Mar H\nF Bre H",
    ];
    game_played_to(j, name, [spring, fall], "F1901R");
}

/// One case of the table.
#[derive(Default, Debug)]
struct Case {
    title: String,
    context: String,
    from: String,
    before: Vec<String>,
    mail: Vec<String>,
    reply_has: Vec<String>,
    reply_lacks: Vec<String>,
    orders: Option<Vec<String>>,
    sent: Option<Vec<String>>,
}

fn cases(table: &str) -> Vec<Case> {
    let mut out: Vec<Case> = Vec::new();
    for line in table.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(title) = line.strip_prefix("== ") {
            out.push(Case {
                title: title.to_string(),
                ..Case::default()
            });
            continue;
        }
        let case = out.last_mut().expect("a case opens with '== '");
        if let Some(text) = line.strip_prefix('|') {
            case.mail
                .push(text.strip_prefix(' ').unwrap_or(text).to_string());
            continue;
        }
        let (key, value) = line.split_once(':').expect("key: value");
        let value = value.trim().to_string();
        let list = |v: &str| -> Vec<String> {
            v.split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect()
        };
        match key {
            "context" => case.context = value,
            "from" => case.from = value,
            "before" => case.before.push(value),
            "reply has" => case.reply_has.push(value),
            "reply lacks" => case.reply_lacks.push(value),
            "orders" => case.orders = Some(list(&value)),
            "sent" if value == "none" => case.sent = Some(Vec::new()),
            "sent" => case.sent = Some(value.split_whitespace().map(String::from).collect()),
            _ => panic!("unknown key {key:?} in {line:?}"),
        }
    }
    out
}

/// The power an initial names, as the export names it.
fn power_of(initial: &str) -> &'static str {
    match initial {
        "A" => "AUSTRIA",
        "E" => "ENGLAND",
        "F" => "FRANCE",
        "G" => "GERMANY",
        "I" => "ITALY",
        "R" => "RUSSIA",
        _ => "TURKEY",
    }
}

/// What went wrong with one case, if anything.
fn run_case(j: &mut TestJudge, game: &str, case: &Case) -> Vec<String> {
    let from = case.from.as_str();
    let pw = password_of(from);
    if from != "M" && game != "forming" {
        let mut reset = vec!["CLEAR".to_string()];
        reset.extend(case.before.iter().cloned());
        orders(j, game, from, &reset.join("\n"));
    }
    let body = case
        .mail
        .iter()
        .map(|l| l.replace("{game}", game).replace("{pw}", &pw))
        .collect::<Vec<_>>()
        .join("\n");
    let r = j.mail(addr_of(from), &body);
    let mut wrong = Vec::new();
    // The subject and the body, as the player reads them.
    let reply = format!("{}\n{}", r[0].subject, r[0].body);
    for want in &case.reply_has {
        if !reply.contains(want.as_str()) {
            wrong.push(format!("the reply lacks {want:?}"));
        }
    }
    for unwanted in &case.reply_lacks {
        if reply.contains(unwanted.as_str()) {
            wrong.push(format!("the reply has {unwanted:?}"));
        }
    }
    if let Some(want) = &case.sent {
        let mut got: Vec<String> = r[1..]
            .iter()
            .flat_map(|m| m.recipients.iter().map(|a| initial_of(a).to_string()))
            .collect();
        got.sort();
        let mut want = want.clone();
        if want == ["everyone"] {
            want = PLAYERS.iter().map(|p| p.1.to_string()).collect();
            want.push("M".to_string());
            want.retain(|i| i != from);
        }
        want.sort();
        if got != want {
            wrong.push(format!("mail went to {got:?}, not {want:?}"));
        }
    }
    if let Some(want) = &case.orders {
        let mut want = want.clone();
        want.sort();
        let mut got = stored_orders(j, game, power_of(from));
        got.sort();
        if got != want {
            wrong.push(format!("the orders are {got:?}, not {want:?}"));
        }
    }
    if !wrong.is_empty() {
        wrong.push(format!(
            "--- the mail:\n{body}\n--- what the judge sent:\n{}",
            dump(&r)
        ));
    }
    wrong
}

#[test]
fn njudge_forms_do_what_njudge_does_or_are_refused_clearly() {
    let table = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/njudge/forms.txt"),
    )
    .unwrap();
    let cases = cases(&table);
    assert!(cases.len() >= 20, "{} cases", cases.len());
    let mut j = TestJudge::new("njudge");
    j.now = at(0);
    started_game(&mut j, "spring");
    winter_game(&mut j, "winter");
    retreat_game(&mut j, "retreat");
    // A game still forming: France has joined it.
    j.mail(MASTER, "CREATE ?forming mpass");
    j.mail(
        addr_of("F"),
        &format!("SIGNON ?forming {}", password_of("F")),
    );
    let mut failures = Vec::new();
    for case in &cases {
        let game = match case.context.as_str() {
            "spring" => "spring",
            "winter" => "winter",
            "retreat" => "retreat",
            "forming" => "forming",
            other => panic!("unknown context {other:?} in {:?}", case.title),
        };
        let wrong = run_case(&mut j, game, case);
        if !wrong.is_empty() {
            failures.push(format!("== {}\n{}", case.title, wrong.join("\n")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

/// One row of `tests/njudge/survey.md`: the form, its status and the case
/// that proves it.
struct SurveyRow {
    form: String,
    status: String,
    case: String,
}

fn survey_rows(survey: &str) -> Vec<SurveyRow> {
    let unquote = |cell: &str| cell.trim().trim_matches('`').to_string();
    survey
        .lines()
        .filter(|line| line.starts_with("| `"))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
            assert_eq!(cells.len(), 4, "a row of four cells: {line:?}");
            SurveyRow {
                form: unquote(cells[0]),
                status: unquote(cells[2]),
                case: unquote(cells[3]),
            }
        })
        .collect()
}

/// The survey of njudge's forms is true to the table of cases: every row
/// `same` or `answered` names a case that exists, the summary counts the
/// rows, at least 130 are understood or answered, and none is misread.
#[test]
fn the_survey_of_njudge_forms_counts_true() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/njudge");
    let survey = std::fs::read_to_string(dir.join("survey.md")).unwrap();
    let table = std::fs::read_to_string(dir.join("forms.txt")).unwrap();
    let titles: Vec<String> = cases(&table).into_iter().map(|c| c.title).collect();
    let rows = survey_rows(&survey);
    let count = |status: &str| rows.iter().filter(|r| r.status == status).count();
    for row in &rows {
        assert!(
            ["same", "answered", "unknown", "misread"].contains(&row.status.as_str()),
            "{:?}: status {:?}",
            row.form,
            row.status
        );
        if row.status == "unknown" {
            continue;
        }
        assert!(
            titles.contains(&row.case),
            "{:?} names no case: {:?}",
            row.form,
            row.case
        );
    }
    let summary = format!(
        "Summary: {} forms: {} same, {} answered, {} unknown, {} misread.",
        rows.len(),
        count("same"),
        count("answered"),
        count("unknown"),
        count("misread")
    );
    assert!(
        survey.contains(&summary),
        "the summary should read: {summary}"
    );
    assert!(count("same") + count("answered") >= 130, "{summary}");
    assert_eq!(count("misread"), 0, "{summary}");
}
