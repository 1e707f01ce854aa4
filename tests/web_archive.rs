//! The web archive (issues 14 and 25) as a reader finds it: a game played
//! by real mail through a real judge folder, `judge run --once` writing
//! the pages, then the files read back: the board now first on the game's
//! page and on the list of games, one page and one map per processed
//! phase (the map linked full size), a play page with every map, the
//! results text, the links between phases, an Atom feed that parses with
//! an entry per phase (its orders and map) and per press to everyone, and
//! `game.json` agreeing with `judge export`.

mod common;
#[path = "web/played.rs"]
mod played;

use common::*;
use played::*;

/// The results mail among `mails` (each player's copy says the same).
fn results_mail(mails: &[Sent]) -> &Sent {
    with_subject(mails, "Results")
        .first()
        .copied()
        .unwrap_or_else(|| panic!("no results mail: {}", dump(mails)))
}

/// The files of the game's folder, sorted.
fn files_of(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_game_played_by_mail_is_published_a_page_per_processed_phase() {
    let mut j = TestJudge::new("web-archive");
    let mut g = Played::start(&mut j, "webgame");
    g.power(
        'E',
        "BROADCAST\nGreetings from London & <the fleet>.\nENDPRESS",
    );
    g.play_first_year();
    g.run_once();

    assert_eq!(
        files_of(&g.folder()),
        [
            "F1901M.html",
            "F1901M.svg",
            "S1901M.html",
            "S1901M.svg",
            "W1901A.html",
            "W1901A.svg",
            "board.svg",
            "feed.atom",
            "game.json",
            "index.html",
            "play.html"
        ]
    );
    let top = std::fs::read_to_string(g.judge.dir.join("var/www/index.html")).unwrap();
    assert!(
        top.contains("<a href=\"webgame/index.html\">webgame</a>"),
        "{top}"
    );
    // The list of games shows each game's board small, its phase and
    // deadline.
    let deadline = g.judge.export("webgame")["phases"][3]["deadline"]
        .as_i64()
        .expect("S1902M's deadline");
    let due = chrono::DateTime::from_timestamp(deadline, 0)
        .unwrap()
        .format("%Y-%m-%d %H:%M UTC")
        .to_string();
    assert!(
        top.contains("<img src=\"webgame/board.svg?S1902M-"),
        "{top}"
    );
    assert!(
        top.contains(&format!("<p>Spring 1902 Movement, orders due {due}</p>")),
        "{top}"
    );
    assert!(g.judge.dir.join("var/www/style.css").exists());

    let index = g.page("index.html");
    // The board first: the first map of the game's page is the position
    // the S1902M orders are written for, as `judge map` draws it (no order
    // on it), with the phase and its deadline; the phases, each with its
    // map small, before the settings and the players.
    let first_img = index.find("<img").expect("a map on the game's page");
    assert!(
        index[first_img..].starts_with("<img id=\"map\" class=\"map fit\" src=\"board.svg?S1902M-"),
        "{index}"
    );
    assert!(
        index.contains(&format!(
            "<strong>Spring 1902 Movement (S1902M)</strong>: orders due {due}."
        )),
        "{index}"
    );
    assert!(
        index.contains("<li>France <strong>4</strong></li>"),
        "{index}"
    );
    let now = g.judge.run(&["map", "webgame", "--svg"], b"");
    assert!(now.ok, "{}", now.stderr);
    assert_eq!(g.page("board.svg"), now.stdout);
    assert!(now.stdout.contains("Spring 1902, movement orders due"));
    let at = |what: &str| {
        index
            .find(what)
            .unwrap_or_else(|| panic!("{what}: {index}"))
    };
    assert!(first_img < at("<section id=\"phases\">"));
    assert!(at("<section id=\"phases\">") < at("<section id=\"settings\">"));
    assert!(at("<section id=\"settings\">") < at("<section id=\"players\">"));
    assert!(
        index.contains("<a href=\"S1901M.html\"><img src=\"S1901M.svg\" loading=\"lazy\""),
        "{index}"
    );
    // Every map in turn on the play page, the board now last.
    let play = g.page("play.html");
    let maps: Vec<&str> = play
        .split("<img class=\"map\" src=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap())
        .collect();
    assert_eq!(maps.len(), 4, "{play}");
    assert_eq!(maps[..3], ["S1901M.svg", "F1901M.svg", "W1901A.svg"]);
    assert!(maps[3].starts_with("board.svg?S1902M-"), "{play}");
    assert!(
        index.contains(
            "<tr><th>Movement deadline</th><td>72 hours after the phase starts; grace 24 hours</td></tr>"
        ),
        "the schedule as LIST says it: {index}"
    );
    for phase in ["S1901M", "F1901M", "W1901A"] {
        assert!(
            index.contains(&format!(
                "<a href=\"{phase}.html\"><img src=\"{phase}.svg\" loading=\"lazy\""
            )),
            "{index}"
        );
        let page = g.page(&format!("{phase}.html"));
        // The map, linked to itself full size.
        assert!(
            page.contains(&format!(
                "<a href=\"{phase}.svg\"><img id=\"map\" src=\"{phase}.svg\""
            )),
            "{page}"
        );
        let svg = g.page(&format!("{phase}.svg"));
        assert!(
            svg.starts_with("<svg") || svg.starts_with("<?xml"),
            "{phase}.svg"
        );
        assert!(page.contains("<section id=\"orders\""), "{page}");
        assert!(
            page.contains("<a rel=\"up\" href=\"index.html\">"),
            "{page}"
        );
    }
    // The press to everyone, escaped; the centre counts year by year.
    assert!(
        index.contains("Greetings from London &amp; &lt;the fleet&gt;."),
        "{index}"
    );
    assert!(index.contains("<td>1901</td>"), "{index}");
    assert!(index.contains("<svg class=\"chart\""), "{index}");

    let spring = g.page("S1901M.html");
    assert!(
        spring.contains("<li>Army Marseilles -&gt; Spain.</li>"),
        "{spring}"
    );
    assert!(
        spring.contains(
            "<li>Army Munich -&gt; Burgundy.  <span class=\"tags\">(*bounce*)</span></li>"
        ),
        "{spring}"
    );
    assert!(!spring.contains("rel=\"prev\""), "{spring}");
    assert!(
        spring.contains("<a rel=\"next\" href=\"F1901M.html\">"),
        "{spring}"
    );
    let fall = g.page("F1901M.html");
    assert!(
        fall.contains("<a rel=\"prev\" href=\"S1901M.html\">"),
        "{fall}"
    );
    assert!(
        fall.contains(
            "<td>France</td><td class=\"n\">4</td><td class=\"n\">3</td><td>builds 1</td>"
        ),
        "{fall}"
    );
    let winter = g.page("W1901A.html");
    assert!(
        winter.contains("<li>Build army Marseilles.</li>"),
        "{winter}"
    );
    assert!(!winter.contains("rel=\"next\""), "{winter}");

    // The feed: well-formed, an entry per phase and one for the press.
    let feed = g.page("feed.atom");
    let doc = roxmltree::Document::parse(&feed).expect("the feed is XML");
    let entries: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name(("http://www.w3.org/2005/Atom", "entry")))
        .collect();
    assert_eq!(entries.len(), 4, "{feed}");
    for phase in ["S1901M", "F1901M", "W1901A"] {
        assert!(feed.contains(&format!("href=\"{phase}.html\"")), "{feed}");
    }
    // Each phase's entry: its orders with their results and its map, as
    // HTML (what a feed reader shows).
    let content = |phase: &str| -> String {
        let entry = entries
            .iter()
            .find(|e| {
                e.children()
                    .any(|c| c.has_tag_name("title") && c.text().unwrap_or("").starts_with(phase))
            })
            .unwrap_or_else(|| panic!("no entry for {phase}: {feed}"));
        let content = entry
            .children()
            .find(|c| c.has_tag_name("content"))
            .unwrap_or_else(|| panic!("no content for {phase}: {feed}"));
        assert_eq!(content.attribute("type"), Some("html"));
        content.text().unwrap_or("").to_string()
    };
    let spring = content("S1901M");
    assert!(spring.contains("<img src=\"S1901M.svg\""), "{spring}");
    assert!(
        spring.contains("<li>Army Munich -&gt; Burgundy. (*bounce*)</li>"),
        "{spring}"
    );
    assert!(spring.contains("<h3>France</h3>"), "{spring}");
    assert!(
        content("W1901A").contains("<li>Build army Marseilles.</li>"),
        "{feed}"
    );

    // game.json is what `judge export` prints (no orders for S1902M yet).
    let export = g.judge.run(&["export", "webgame"], b"");
    assert_eq!(g.page("game.json"), export.stdout);
}

#[test]
fn a_phase_processed_by_another_process_is_published_on_the_next_pass() {
    let mut j = TestJudge::new("web-later");
    let mut g = Played::start(&mut j, "later");
    g.power('F', "A Par - Bur");
    g.master("PROCESS S1901M");
    g.run_once();
    assert!(!g.page("S1901M.html").contains("rel=\"next\""));
    assert!(!g.folder().join("F1901M.html").exists());

    // The Master processes F1901M by mail (`judge handle`, another
    // process); the next pass publishes it and links S1901M to it.
    g.master("PROCESS F1901M");
    let run = g.run_once();
    assert!(
        run.stderr
            .contains("web archive: game 'later' written (2 phase page(s))"),
        "{}",
        run.stderr
    );
    assert!(g
        .page("S1901M.html")
        .contains("<a rel=\"next\" href=\"F1901M.html\">"));
    assert!(g
        .page("F1901M.html")
        .contains("<a rel=\"prev\" href=\"S1901M.html\">"));

    // Nothing new: nothing written.
    let run = g.run_once();
    assert!(!run.stderr.contains("web archive: game"), "{}", run.stderr);

    // Press only: the game's index again, no phase page nor map.
    g.power('E', "BROADCAST\nA word from London.\nENDPRESS");
    let run = g.run_once();
    assert!(
        run.stderr
            .contains("web archive: game 'later' written (0 phase page(s))"),
        "{}",
        run.stderr
    );
    assert!(g.page("index.html").contains("A word from London."));
}

#[test]
fn a_pass_leaves_the_archive_to_another_writer_and_the_next_catches_up() {
    let mut j = TestJudge::new("web-locked");
    let mut g = Played::start(&mut j, "locked");
    g.power('F', "A Par - Bur");
    g.master("PROCESS S1901M");

    // Another process (`judge archive`, a second `judge run`) is writing
    // the archive: this pass writes and records nothing.
    let mut name = g.judge.db_path().into_os_string();
    name.push("-web");
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(std::path::PathBuf::from(name))
        .unwrap();
    lock.lock().unwrap();
    let run = g.run_once();
    assert!(!run.stderr.contains("web archive: game"), "{}", run.stderr);
    assert!(!g.folder().exists());

    // Let go: the next pass writes what the skipped one did not.
    drop(lock);
    let run = g.run_once();
    assert!(
        run.stderr
            .contains("web archive: game 'locked' written (1 phase page(s))"),
        "{}",
        run.stderr
    );
    assert!(g.page("S1901M.html").contains("Army Paris -&gt; Burgundy."));
}

#[test]
fn a_failing_write_holds_up_no_phase_and_is_tried_again() {
    let mut j = TestJudge::new("web-failing");
    let www = j.dir.join("var/www");
    std::fs::create_dir_all(j.dir.join("var")).unwrap();
    // A file where the folder should be: nothing can be written under it.
    std::fs::write(&www, "not a folder").unwrap();
    let mut g = Played::start(&mut j, "stuck");
    g.power('F', "A Par - Bur");
    // A week on: the clock processes S1901M at its deadline (NMR).
    g.judge.now = at(24 * 7);
    let run = g.run_once();
    assert!(run.stderr.contains("web archive:"), "{}", run.stderr);
    let mails = g.judge.take();
    assert!(
        !with_subject(&mails, "S1901M Results").is_empty(),
        "{}",
        dump(&mails)
    );
    assert!(g.judge.export("stuck")["phases"][0]["results"].is_object());

    // `judge check` names the folder it cannot write.
    let check = g.judge.run(&["check"], b"");
    assert!(!check.ok);
    assert!(
        check
            .stdout
            .lines()
            .any(|l| l.starts_with("error: ") && l.contains("var/www")),
        "{}",
        check.stdout
    );

    // Mended: the next pass writes what the failed one could not.
    std::fs::remove_file(&www).unwrap();
    g.run_once();
    assert!(g.page("S1901M.html").contains("Army Paris -&gt; Burgundy."));
    assert!(www.join("index.html").exists());
    let check = g.judge.run(&["check"], b"");
    assert!(check.stdout.contains("ok: [web]"), "{}", check.stdout);
}

#[test]
fn judge_archive_rebuilds_every_page_from_the_database() {
    let mut j = TestJudge::new("web-rebuild");
    let mut g = Played::start(&mut j, "rebuilt");
    g.play_first_year();
    let run = g.judge.run(&["archive"], b"");
    assert!(run.ok, "{}", run.stderr);
    assert!(
        run.stdout.contains("wrote rebuilt/ (3 phase page(s))"),
        "{}",
        run.stdout
    );
    // Up to date: nothing to write but the index.
    let run = g.judge.run(&["archive"], b"");
    assert!(!run.stdout.contains("wrote rebuilt/"), "{}", run.stdout);

    std::fs::remove_file(g.folder().join("F1901M.svg")).unwrap();
    std::fs::write(g.folder().join("S1899M.html"), "left over").unwrap();
    let run = g.judge.run(&["archive", "--rebuild", "rebuilt"], b"");
    assert!(run.ok, "{}", run.stderr);
    assert!(
        run.stdout.contains("wrote rebuilt/ (3 phase page(s))"),
        "{}",
        run.stdout
    );
    assert!(g.folder().join("F1901M.svg").exists());
    assert!(!g.folder().join("S1899M.html").exists());

    let run = g.judge.run(&["archive", "nosuchgame"], b"");
    assert!(!run.ok);
    assert!(
        run.stderr.contains("there is no game named 'nosuchgame'"),
        "{}",
        run.stderr
    );
}

#[test]
fn judge_archive_writes_the_games_again_when_the_index_failed() {
    let mut j = TestJudge::new("web-archive-index");
    let mut g = Played::start(&mut j, "unlisted");
    g.master("PROCESS S1901M");
    // A folder where the top index should be: it cannot be written.
    let index = g.judge.dir.join("var/www/index.html");
    std::fs::create_dir_all(index.join("blocked")).unwrap();
    let run = g.judge.run(&["archive"], b"");
    assert!(
        run.stdout.contains("wrote unlisted/ (1 phase page(s))"),
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("the index:"), "{}", run.stderr);

    // Mended: the game is written again, not taken as published.
    std::fs::remove_dir_all(&index).unwrap();
    let run = g.judge.run(&["archive"], b"");
    assert!(run.ok, "{}", run.stderr);
    assert!(
        run.stdout.contains("wrote unlisted/ (1 phase page(s))"),
        "{}",
        run.stdout
    );
    let top = std::fs::read_to_string(&index).unwrap();
    assert!(top.contains("unlisted/index.html"), "{top}");
}

#[test]
fn a_rollback_takes_the_undone_phases_off_the_archive() {
    let mut j = TestJudge::new("web-rollback");
    let mut g = Played::start(&mut j, "undone");
    g.play_first_year();
    g.run_once();
    assert!(g.folder().join("W1901A.html").exists());

    // Back to the start of F1901M, then played otherwise: France moves to
    // Gascony. The pages show the new F1901M; W1901A, current again and
    // not processed, has no page.
    g.master("ROLLBACK F1901M");
    g.power('F', "A Par - Gas");
    g.master("PROCESS F1901M");
    g.run_once();
    let fall = g.page("F1901M.html");
    assert!(fall.contains("Army Paris -&gt; Gascony."), "{fall}");
    assert!(!fall.contains("rel=\"next\""), "{fall}");
    assert!(!g.folder().join("W1901A.html").exists());
    assert!(!g.folder().join("W1901A.svg").exists());
    assert!(!g.page("index.html").contains("W1901A.html"));
    assert!(!g.page("index.html").contains("W1901A.svg"));
}

#[test]
fn the_index_lists_the_newest_first_and_the_finished_apart() {
    let mut j = TestJudge::new("web-index");
    Played::start(&mut j, "older").master("PROCESS S1901M");
    j.now = at(2);
    let mut ended = Played::start(&mut j, "ended");
    ended.master("TERMINATE");
    j.now = at(4);
    Played::start(&mut j, "newer").master("PROCESS S1901M");
    let run = j.run(&["run", "--once", "--now", &at(5)], b"");
    assert!(run.ok, "{}", run.stderr);

    let top = std::fs::read_to_string(j.dir.join("var/www/index.html")).unwrap();
    let (playing, finished) = top.split_once("<section id=\"finished\">").unwrap();
    let newer = playing.find(">newer</a>").expect("newer is in play");
    let older = playing.find(">older</a>").expect("older is in play");
    assert!(newer < older, "newest activity first: {playing}");
    assert!(!playing.contains(">ended</a>"), "{playing}");
    assert!(
        finished.contains("<a href=\"ended/index.html\">ended</a>"),
        "{finished}"
    );
    assert!(
        finished.contains("<span class=\"state\">terminated</span>"),
        "{finished}"
    );
    assert!(
        finished.contains("<p class=\"result\">Terminated by the Master.</p>"),
        "{finished}"
    );
    // An ended game shows no deadline; one in play does.
    assert!(!finished.contains("orders due"), "{finished}");
    assert!(playing.contains("orders due"), "{playing}");
}

/// A void order's page line says why, as the results mail does: no order
/// voided without a word, on the web either.
#[test]
fn a_void_order_on_a_phase_page_carries_its_reason() {
    let mut j = TestJudge::new("web-void");
    let mut g = Played::start(&mut j, "voidgame");
    g.power('G', "A Mun - Bur");
    g.power('I', "A Ven S A Mun - Tyr");
    let mails = g.master("PROCESS S1901M");
    let results = results_mail(&mails);
    let reason = "(the unit supported was not ordered so, or cannot be reached)";
    assert!(results.body.contains(reason), "{}", results.body);
    g.run_once();
    let page = g.page("S1901M.html");
    let line = page
        .lines()
        .find(|l| l.contains("Army Venice SUPPORT"))
        .unwrap_or_else(|| panic!("no line of Venice's support:\n{page}"));
    assert!(line.contains("(*void*)"), "{line}");
    assert!(line.contains(reason), "{line}");
    // The results mail itself, folded away below, as the players got it.
    let folded = page
        .split("<section id=\"results-mail\">")
        .nth(1)
        .unwrap_or_else(|| panic!("no results mail on the page:\n{page}"));
    let italy: Vec<&str> = results
        .body
        .lines()
        .filter(|l| l.starts_with("Italy:"))
        .collect();
    assert!(!italy.is_empty(), "{}", results.body);
    for text in italy {
        let text = text
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        assert!(folded.contains(&text), "{text:?} not in:\n{folded}");
    }
}

/// With `[web] url` set, each results mail ends with the address of its
/// phase's page, which the web pass then writes; a private game's mails
/// give none (it has no pages).
#[test]
fn results_mails_link_to_the_phase_page_when_the_archive_has_an_address() {
    let mut j = TestJudge::new("web-url");
    j.set_config("web", "url", "\"https://dip.example.org/games\"");
    let mut g = Played::start(&mut j, "linked");
    let mails = g.master("PROCESS S1901M");
    let results = results_mail(&mails);
    assert!(
        results.body.contains(
            "This phase on the web, with its map: https://dip.example.org/games/linked/S1901M.html"
        ),
        "{}",
        results.body
    );
    g.run_once();
    assert!(g.folder().join("S1901M.html").is_file());
    // The start mails and LIST say where the game's pages are.
    let told = g.judge.query_i64(
        "SELECT count(*) FROM outbound WHERE CAST(raw AS TEXT) LIKE \
         '%The game''s pages, a map of every phase: https://dip.example.org/games/linked/%'",
    );
    assert!(told >= 7, "{told} mails named the game's pages");
    let list = g.power('F', "LIST");
    assert!(
        list[0].body.contains(
            "The game's pages, a map of every phase: https://dip.example.org/games/linked/"
        ),
        "{}",
        list[0].body
    );

    g.master("SET PRIVATE");
    let list = g.power('F', "LIST");
    assert!(
        !list[0].body.contains("The game's pages"),
        "{}",
        list[0].body
    );
    let mails = g.master("PROCESS F1901M");
    let results = results_mail(&mails);
    assert!(!results.body.contains("on the web"), "{}", results.body);
}

/// A judgekeeper changes a page by a template in `templates/web/` beside
/// `judge.toml`, without a rebuild; a broken one is named, file and line,
/// by `judge check`, and `judge archive` and `judge run` refuse to start
/// with it rather than write half an archive.
#[test]
fn a_judgekeeper_changes_the_pages_by_their_templates() {
    let mut j = TestJudge::new("web-templates");
    let mut g = Played::start(&mut j, "edited");
    g.master("PROCESS S1901M");
    let dir = g.judge.dir.join("templates/web");
    std::fs::create_dir_all(&dir).unwrap();
    let phase = include_str!("../templates/web/phase.html");
    let reworded = phase.replace("Orders and results", "What was ordered");
    assert_ne!(reworded, phase);
    std::fs::write(dir.join("phase.html"), reworded).unwrap();
    let run = g.judge.run(&["archive", "--rebuild"], b"");
    assert!(run.ok, "{}", run.stderr);
    let page = g.page("S1901M.html");
    assert!(page.contains("<h2>What was ordered</h2>"), "{page}");
    // The other pages are the built-in ones.
    assert!(g.page("index.html").contains("<h2>Press to everyone</h2>"));

    // A misspelt variable on line 3 of the game's page.
    std::fs::write(
        dir.join("game.html"),
        "{% extends \"base.html\" %}\n{% block body %}\n<h1>{{ game.nmae }}</h1>\n{% endblock %}\n",
    )
    .unwrap();
    let broken = dir.join("game.html").display().to_string();
    let check = g.judge.run(&["check"], b"");
    assert!(!check.ok);
    let line = check
        .stdout
        .lines()
        .find(|l| l.starts_with("error: ") && l.contains(&broken))
        .unwrap_or_else(|| panic!("no error names {broken}:\n{}", check.stdout));
    assert!(line.contains("game.html:3"), "{line}");
    let archive = g.judge.run(&["archive", "--rebuild"], b"");
    assert!(!archive.ok);
    assert!(archive.stderr.contains("game.html:3"), "{}", archive.stderr);
    let run = g
        .judge
        .run(&["run", "--once", "--now", &g.judge.now.clone()], b"");
    assert!(!run.ok);
    assert!(run.stderr.contains("game.html:3"), "{}", run.stderr);
    // The pages written before stay as they were.
    assert_eq!(g.page("S1901M.html"), page);

    std::fs::remove_file(dir.join("game.html")).unwrap();
    let check = g.judge.run(&["check"], b"");
    assert!(
        check.stdout.contains("ok: the page templates"),
        "{}",
        check.stdout
    );
}

/// The deadline on the pages follows the store's, even when it moves
/// without a word to the whole game (an absence pushes it).
#[test]
fn a_moved_deadline_is_published_again() {
    let mut j = TestJudge::new("web-deadline");
    let mut g = Played::start(&mut j, "moved");
    g.run_once();
    let due = |g: &Played<'_>| {
        let at = g.judge.export("moved")["phases"][0]["deadline"]
            .as_i64()
            .expect("S1901M's deadline");
        chrono::DateTime::from_timestamp(at, 0)
            .unwrap()
            .format("%Y-%m-%d %H:%M UTC")
            .to_string()
    };
    let before = due(&g);
    let top = || std::fs::read_to_string(g.judge.dir.join("var/www/index.html")).unwrap();
    assert!(top().contains(&format!("orders due {before}")), "{}", top());
    g.power('F', "SET ABSENCE 2026-11-04 TO 2026-11-08");
    let after = due(&g);
    assert_ne!(before, after, "the absence moved the deadline");
    let run = g.run_once();
    assert!(
        run.stderr
            .contains("web archive: game 'moved' written (0 phase page(s))"),
        "{}",
        run.stderr
    );
    let top = std::fs::read_to_string(g.judge.dir.join("var/www/index.html")).unwrap();
    assert!(top.contains(&format!("orders due {after}")), "{top}");
    assert!(
        g.page("index.html")
            .contains(&format!("orders due {after}.")),
        "{}",
        g.page("index.html")
    );
}

/// A Fall's centres change hands when it ends: after its retreats, if it
/// has any. The movement's page says so rather than call the counts
/// before the change "after the phase"; the retreats' page shows them
/// changed.
#[test]
fn a_fall_with_retreats_says_when_the_centres_change_hands() {
    let mut j = TestJudge::new("web-fall");
    let mut g = Played::start(&mut j, "fall");
    g.power('F', "A Par - Bur\nA Mar - Spa");
    g.power('G', "A Mun - Ruh\nA Ber - Mun");
    g.master("PROCESS S1901M");
    g.power('G', "A Ruh - Bur\nA Mun S A Ruh - Bur");
    g.power('F', "A Bur H\nA Spa H");
    g.master("PROCESS F1901M");
    g.master("PROCESS F1901R");
    g.run_once();

    let fall = g.page("F1901M.html");
    let centres = fall
        .split("<section id=\"ownership\">")
        .nth(1)
        .unwrap_or_else(|| panic!("no centres on the page:\n{fall}"));
    assert!(
        centres.contains("<h2>Supply centres before the retreats</h2>"),
        "{centres}"
    );
    assert!(
        centres.contains(
            "Centres change hands when the Fall ends, after its retreats: \
             <a href=\"F1901R.html\">F1901R</a>"
        ),
        "{centres}"
    );
    // Spain is not France's yet.
    assert!(
        centres.contains("<tr><td>France</td><td class=\"n\">3</td>"),
        "{centres}"
    );
    let retreats = g.page("F1901R.html");
    assert!(
        retreats.contains("<h2>Supply centres after the Fall (changed)</h2>"),
        "{retreats}"
    );
    assert!(
        retreats.contains("<tr><td>France</td><td class=\"n\">4</td>"),
        "{retreats}"
    );
    let spring = g.page("S1901M.html");
    assert!(
        spring.contains("Unchanged: centres change hands only when a Fall ends."),
        "{spring}"
    );
}

#[test]
fn a_deadline_pass_sends_the_results_before_it_writes_the_pages_and_times_each_part() {
    let mut j = TestJudge::new("web-after-mail");
    let g = Played::start(&mut j, "mailfirst");
    // Past the deadline and grace: the clock processes S1901M (civil
    // disorder), the sender mails the results with their map, then the
    // web pass writes the phase's page.
    let run = g
        .judge
        .run(&["run", "--once", "--now", &at(24 * 4 + 1)], b"");
    assert!(run.ok, "{}", run.stderr);
    let log = &run.stderr;
    let line = |start: &str| {
        log.lines()
            .position(|l| l.contains(start))
            .unwrap_or_else(|| panic!("no line with {start:?} in the log:\n{log}"))
    };
    let clock = line("clock: processed 1 phase in ");
    let sent = line("] sent ");
    // The start mails' opening map and the results' map.
    let drawn = line("] drew 2 pictures for 15 mails in ");
    let pages = line("web archive: wrote 1 game(s), 1 phase page(s), in ");
    assert!(clock < sent && drawn < pages && sent < pages, "{log}");
    let clock_line = log.lines().nth(clock).unwrap();
    assert!(
        clock_line.contains(", queued 8 mails in ") && clock_line.contains(" s, committed in "),
        "{clock_line}"
    );
    // The results are in the outbox before the page is written: the
    // page is younger than every results mail.
    let page_written = std::fs::metadata(g.folder().join("S1901M.html"))
        .and_then(|m| m.modified())
        .unwrap();
    let outbox = g.judge.dir.join("var/outbox/new");
    let mut results = 0;
    for entry in std::fs::read_dir(&outbox).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        if text.contains("S1901M Results") {
            results += 1;
            let mailed = std::fs::metadata(&path).unwrap().modified().unwrap();
            assert!(mailed <= page_written, "{} after the page", path.display());
        }
    }
    assert_eq!(results, 8, "seven players and the Master");
}
