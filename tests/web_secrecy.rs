//! Nothing secret in the web archive (issue 14, item 3): a game full of
//! press that did not go to everyone, grey press, orders for the phase not
//! yet processed, passwords and addresses is published, and every byte of
//! every file of the folder is searched for each secret. A game its Master
//! makes private has no folder, and leaves the index.

mod common;
#[path = "web/played.rs"]
mod played;

use std::path::Path;

use common::*;
use played::*;

/// Every file under `dir`, with its bytes.
fn every_file(dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            every_file(&path, out);
        } else {
            out.push((path.display().to_string(), std::fs::read(&path).unwrap()));
        }
    }
}

fn contains(hay: &[u8], needle: &str) -> bool {
    hay.windows(needle.len()).any(|w| w == needle.as_bytes())
}

/// The secrets: each must be found in no file, as written, lower-cased or
/// HTML-escaped.
fn assert_nowhere(www: &Path, secrets: &[String]) {
    let mut files = Vec::new();
    every_file(www, &mut files);
    assert!(files.len() > 5, "the archive was written: {files:?}");
    for (name, bytes) in &files {
        for secret in secrets {
            let escaped = secret
                .replace('&', "&amp;")
                .replace('>', "&gt;")
                .replace('<', "&lt;");
            for form in [secret.clone(), secret.to_lowercase(), escaped] {
                assert!(!contains(bytes, &form), "{name} shows the secret {form:?}");
            }
        }
    }
}

#[test]
fn the_archive_holds_nothing_a_player_could_not_see() {
    let mut j = TestJudge::new("web-secrecy");
    let mut g = Played::start(&mut j, "secrets");
    g.master("SET WHITE/GREY");
    g.power('F', "PRESS TO G\nSECRET-PARTIAL-FG\nENDPRESS");
    g.power('F', "PRESS TO M\nSECRET-TO-MASTER\nENDPRESS");
    g.power('E', "PRESS TO ALL BUT E\nSECRET-ALL-BUT-ENGLAND\nENDPRESS");
    g.power('R', "PRESS TO T GREY\nSECRET-GREY-PARTIAL\nENDPRESS");
    g.master("PRESS TO F\nSECRET-FROM-THE-MASTER\nENDPRESS");
    g.power('I', "BROADCAST GREY\nPUBLIC-GREY-BODY\nENDPRESS");
    g.play_first_year();
    // Orders for S1902M, the phase not yet processed.
    g.power('F', "A Spa - Por");
    g.power('R', "F Sev - Bla");
    g.power('T', "PRESS TO A\nSECRET-IN-THE-CURRENT-PHASE\nENDPRESS");
    g.run_once();
    let run = g.judge.run(&["archive", "--rebuild"], b"");
    assert!(run.ok, "{}", run.stderr);

    let www = g.judge.dir.join("var/www");
    let mut secrets: Vec<String> = [
        "SECRET-PARTIAL-FG",
        "SECRET-TO-MASTER",
        "SECRET-ALL-BUT-ENGLAND",
        "SECRET-GREY-PARTIAL",
        "SECRET-FROM-THE-MASTER",
        "SECRET-IN-THE-CURRENT-PHASE",
        "Army Spain -> Portugal",
        "A SPA - POR",
        "Fleet Sevastopol -> Black Sea",
        "F SEV - BLA",
        "example.net",
        "example.org",
        GM_PASSWORD,
    ]
    .map(String::from)
    .to_vec();
    for p in SEVEN.chars() {
        secrets.push(password(p));
        secrets.push(address(p));
    }
    assert_nowhere(&www, &secrets);
    // The board now is S1902M's position with no order drawn on it (the
    // orders given for it are drawn as lines, not words): as `judge map`
    // draws the phase not yet processed.
    let board = g.judge.run(&["map", "secrets", "--svg"], b"");
    assert!(board.ok, "{}", board.stderr);
    assert!(board.stdout.contains("Spring 1902, movement orders due"));
    assert_eq!(g.page("board.svg"), board.stdout);

    // The grey broadcast is there, without its sender.
    let index = g.page("index.html");
    let article = index
        .split("<article")
        .map(|a| a.split("</article>").next().unwrap_or(a))
        .find(|a| a.contains("PUBLIC-GREY-BODY"))
        .expect("the grey broadcast is published");
    assert!(!article.to_lowercase().contains("ital"), "{article}");
    assert!(article.contains("Anonymous"), "{article}");
    // And the game.json has no orders for S1902M.
    let json: serde_json::Value = serde_json::from_str(&g.page("game.json")).unwrap();
    let last = json["phases"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["phase"], "S1902M");
    assert_eq!(last["orders"], serde_json::json!({}));
}

#[test]
fn a_private_game_is_never_published_and_a_published_one_is_withdrawn() {
    let mut j = TestJudge::new("web-private");
    let mut hidden = Played::start(&mut j, "hidden");
    hidden.master("SET PRIVATE");
    hidden.power('F', "A Par - Bur");
    hidden.master("PROCESS S1901M");
    let r = hidden.master("LIST hidden");
    assert!(
        r[0].body
            .contains("Private: not published in the web archive"),
        "{}",
        dump(&r)
    );
    hidden.run_once();
    let www = j.dir.join("var/www");
    assert!(!www.join("hidden").exists());
    let top = std::fs::read_to_string(www.join("index.html")).unwrap();
    assert!(!top.contains("hidden"), "{top}");

    // Published, then made private: its folder goes at the next pass.
    let mut shown = Played::start(&mut j, "shown");
    shown.master("PROCESS S1901M");
    shown.run_once();
    assert!(shown.folder().join("S1901M.html").exists());
    shown.master("SET PRIVATE");
    let run = shown.run_once();
    assert!(
        run.stderr.contains("game 'shown' is private"),
        "{}",
        run.stderr
    );
    assert!(!shown.folder().exists());
    let top = std::fs::read_to_string(www.join("index.html")).unwrap();
    assert!(!top.contains("shown"), "{top}");

    // Public again: published again.
    shown.master("SET PUBLIC");
    shown.run_once();
    assert!(shown.folder().join("S1901M.html").exists());
}
