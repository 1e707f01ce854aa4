//! `[web] listen`: the real `judge run` serving its web folder, asked over
//! real HTTP as a browser (or someone less kind) would: the content types
//! and caching headers a reader's browser relies on, the answers to paths
//! that try to leave the folder, no listing of a folder, a missing page,
//! a method other than GET or HEAD — and the mail still handled while the
//! pages are served, or when the server cannot listen at all.
//!
//! The pages here are written by hand: what is checked is the serving,
//! not the pages (`tests/browser.rs` reads the judge's own).

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::web::{get, request, wait_until, write_file, Served};
use common::{Mail, TestJudge};

/// A few pages as the judge lays them out, and a secret beside the folder.
fn pages(j: &TestJudge) -> PathBuf {
    let www = j.dir.join("var/www");
    write_file(
        &www,
        "index.html",
        b"<!DOCTYPE html><title>Games</title><a href=\"g1/index.html\">g1</a>",
    );
    write_file(&www, "style.css", b"body { margin: 0 }");
    write_file(&www, "g1/index.html", b"<!DOCTYPE html><title>g1</title>");
    write_file(
        &www,
        "g1/S1901M.html",
        b"<!DOCTYPE html><title>S1901M</title><img id=\"map\" src=\"S1901M.svg\">",
    );
    write_file(
        &www,
        "g1/S1901M.svg",
        b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
    );
    write_file(&www, "g1/S1901M.png", b"\x89PNG\r\n\x1a\n");
    write_file(
        &www,
        "g1/feed.atom",
        b"<?xml version=\"1.0\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"/>",
    );
    write_file(&www, "g1/game.json", b"{\"name\":\"g1\"}");
    write_file(&j.dir, "var/secret.txt", SECRET.as_bytes());
    www
}

const HTML: &str = "text/html; charset=utf-8";

const SECRET: &str = "NOT-FOR-READERS-7f3a";

#[test]
fn pages_are_served_with_their_types_and_caching_headers() {
    let j = TestJudge::new("web-types");
    let www = pages(&j);
    let served = Served::start(&j);
    for (path, file, content_type, max_age) in [
        ("/", "index.html", HTML, 60),
        ("/index.html", "index.html", HTML, 60),
        ("/g1/", "g1/index.html", HTML, 60),
        ("/g1/S1901M.html", "g1/S1901M.html", HTML, 60),
        ("/g1/S1901M.svg", "g1/S1901M.svg", "image/svg+xml", 86400),
        ("/g1/S1901M.png", "g1/S1901M.png", "image/png", 86400),
        ("/g1/feed.atom", "g1/feed.atom", "application/atom+xml", 60),
        ("/g1/game.json", "g1/game.json", "application/json", 60),
        ("/style.css", "style.css", "text/css; charset=utf-8", 3600),
        ("/g1/S1901M.html?from=feed", "g1/S1901M.html", HTML, 60),
    ] {
        let r = get(&served.addr, path);
        assert_eq!(r.status, 200, "{path}: {r:?}");
        assert_eq!(r.body, std::fs::read(www.join(file)).unwrap(), "{path}");
        assert_eq!(r.header("Content-Type"), Some(content_type), "{path}");
        assert_eq!(
            r.header("Cache-Control"),
            Some(format!("public, max-age={max_age}").as_str()),
            "{path}"
        );
        assert!(r.header("ETag").is_some(), "{path}: {r:?}");
        assert!(r.header("Last-Modified").is_some(), "{path}: {r:?}");
    }
    // A folder asked without its slash: sent to the name with it, so that
    // the page's relative links lead into the folder.
    let r = get(&served.addr, "/g1");
    assert_eq!(r.status, 301);
    assert_eq!(r.header("Location"), Some("/g1/"));

    // HEAD: the same headers, no body.
    let r = request(&served.addr, "HEAD", "/g1/S1901M.svg", &[]);
    assert_eq!(r.status, 200);
    assert_eq!(r.header("Content-Type"), Some("image/svg+xml"));
    let len = std::fs::metadata(www.join("g1/S1901M.svg")).unwrap().len();
    assert_eq!(r.header("Content-Length"), Some(len.to_string().as_str()));
    assert!(r.body.is_empty(), "{r:?}");

    let (status, log) = served.stop();
    assert!(status.success(), "{status}: {log}");
    assert!(log.contains("web server stopped"), "{log}");
}

#[test]
fn a_reader_with_the_current_copy_gets_304() {
    let j = TestJudge::new("web-304");
    let www = pages(&j);
    let served = Served::start(&j);
    let first = get(&served.addr, "/g1/S1901M.html");
    let etag = first.header("ETag").unwrap().to_string();
    let modified = first.header("Last-Modified").unwrap().to_string();
    // The phase page, asked with one condition.
    let page_if = |condition: &str| request(&served.addr, "GET", "/g1/S1901M.html", &[condition]);

    let again = page_if(&format!("If-None-Match: {etag}"));
    assert_eq!(again.status, 304, "{again:?}");
    assert!(again.body.is_empty());
    assert_eq!(again.header("ETag"), Some(etag.as_str()));
    let again = page_if(&format!("If-Modified-Since: {modified}"));
    assert_eq!(again.status, 304, "{again:?}");
    let old = page_if("If-Modified-Since: Mon, 01 Jan 2001 00:00:00 GMT");
    assert_eq!(old.status, 200);

    // The page rewritten (the next phase processed): a new ETag, the new
    // page.
    std::thread::sleep(Duration::from_millis(20));
    write_file(
        &www,
        "g1/S1901M.html",
        b"<!DOCTYPE html><title>S1901M, redrawn</title>",
    );
    let changed = page_if(&format!("If-None-Match: {etag}"));
    assert_eq!(changed.status, 200, "{changed:?}");
    assert!(changed.text().contains("redrawn"));
    assert_ne!(changed.header("ETag"), Some(etag.as_str()));
}

#[test]
fn nothing_outside_the_folder_is_ever_served() {
    let j = TestJudge::new("web-outside");
    let www = pages(&j);
    write_file(&www, ".hidden", SECRET.as_bytes());
    // Links: one to a file beside the folder, one to the folder above it,
    // one to /etc; and one that stays inside (which is served).
    let link =
        |target: &Path, name: &str| std::os::unix::fs::symlink(target, www.join(name)).unwrap();
    link(&j.dir.join("var/secret.txt"), "secret.txt");
    link(&j.dir.join("var"), "up");
    link(Path::new("/etc"), "etc");
    link(&www.join("g1"), "latest");
    let served = Served::start(&j);
    // The judge's database is there to be refused.
    assert!(j.db_path().exists());

    for target in [
        "/../judge.db",
        "/%2e%2e/judge.db",
        "/%2E%2E/judge.db",
        "/%2e%2e%2fjudge.db",
        "/..%2fjudge.db",
        "/..%5cjudge.db",
        "/.%2e/judge.db",
        "/g1/../../judge.db",
        "/g1/%2e%2e/%2e%2e/judge.db",
        "/../secret.txt",
        "//etc/passwd",
        "/etc/passwd",
        "/%2fetc%2fpasswd",
        "/../../../../../../etc/passwd",
        "/secret.txt",
        "/up/judge.db",
        "/up/secret.txt",
        "/up/",
        "/.hidden",
        "/judge.db%00.html",
        "/index.html%00",
        "http://localhost/../judge.db",
    ] {
        let r = get(&served.addr, target);
        assert!(
            r.status == 404 || r.status == 400,
            "{target}: {} {:.200?}",
            r.status,
            r.text()
        );
        let text = r.text();
        for secret in [SECRET, "SQLite format 3", "root:"] {
            assert!(!text.contains(secret), "{target} gave away {secret:?}");
        }
    }
    // A link that stays inside the folder is followed.
    let r = get(&served.addr, "/latest/S1901M.html");
    assert_eq!(r.status, 200, "{r:?}");
}

#[test]
fn a_folder_is_never_listed_and_a_missing_page_says_so() {
    let j = TestJudge::new("web-missing");
    let www = pages(&j);
    write_file(
        &www,
        "g2/S1901M.svg",
        b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
    );
    let served = Served::start(&j);

    let r = get(&served.addr, "/g2/");
    assert_eq!(r.status, 404, "{r:?}");
    assert!(!r.text().contains("S1901M"), "a listing: {}", r.text());

    let r = get(&served.addr, "/g1/F1999M.html");
    assert_eq!(r.status, 404);
    assert_eq!(r.header("Content-Type"), Some(HTML));
    assert!(r.text().contains("No such page"), "{}", r.text());
    assert!(r.text().contains("<a href=\"/\">"), "{}", r.text());

    for method in ["POST", "PUT", "DELETE", "OPTIONS"] {
        let r = request(&served.addr, method, "/index.html", &["Content-Length: 0"]);
        assert_eq!(r.status, 405, "{method}: {r:?}");
        assert_eq!(r.header("Allow"), Some("GET, HEAD"), "{method}");
    }
    // Nothing was written by any of it.
    assert!(std::fs::read(www.join("index.html"))
        .unwrap()
        .starts_with(b"<!DOCTYPE html><title>Games"));
}

/// Delivers `mail` into the judge's Maildir inbox (tmp/, then new/).
fn deliver(j: &TestJudge, name: &str, mail: &Mail) {
    let inbox = j.dir.join("var/inbox");
    for sub in ["tmp", "new", "cur"] {
        std::fs::create_dir_all(inbox.join(sub)).unwrap();
    }
    std::fs::write(inbox.join("tmp").join(name), mail.raw()).unwrap();
    std::fs::rename(inbox.join("tmp").join(name), inbox.join("new").join(name)).unwrap();
}

/// The mails in the judge's Maildir outbox, waited for until there are
/// `n` (20 s at most).
fn wait_for_outbox(j: &TestJudge, n: usize) -> Vec<String> {
    let new = j.dir.join("var/outbox/new");
    wait_until(&format!("{n} mails in the outbox"), 20, || {
        let mails: Vec<String> = std::fs::read_dir(&new)
            .map(|d| {
                d.map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
                    .collect()
            })
            .unwrap_or_default();
        (mails.len() >= n).then_some(mails)
    })
}

#[test]
fn mail_is_handled_while_the_pages_are_served() {
    let j = TestJudge::new("web-mail");
    pages(&j);
    let served = Served::start(&j);
    deliver(
        &j,
        "1.reader",
        &Mail::new("reader@example.org", "help", "HELP"),
    );
    // Readers keep asking meanwhile.
    for _ in 0..20 {
        assert_eq!(get(&served.addr, "/g1/S1901M.svg").status, 200);
    }
    let out = wait_for_outbox(&j, 1);
    assert!(out[0].contains("To: reader@example.org"), "{}", out[0]);
    let (status, log) = served.stop();
    assert!(status.success(), "{status}: {log}");
}

#[test]
fn the_judge_stops_at_once_with_every_connection_slot_held() {
    let j = TestJudge::new("web-full");
    pages(&j);
    let served = Served::start(&j);
    // More idle connections than the server has slots (128): it waits
    // for a slot, and must still hear SIGTERM.
    let idle: Vec<_> = (0..140)
        .map(|_| std::net::TcpStream::connect(&served.addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let start = std::time::Instant::now();
    let (status, log) = served.stop();
    assert!(status.success(), "{status}: {log}");
    assert!(log.contains("web server stopped"), "{log}");
    // Not after the idle connections' 10 s header timeout.
    assert!(start.elapsed() < Duration::from_secs(5), "{log}");
    drop(idle);
}

#[test]
fn a_port_taken_is_logged_and_the_judge_goes_on_without_its_server() {
    let j = TestJudge::new("web-taken");
    pages(&j);
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    j.set_config("web", "listen", &format!("\"127.0.0.1:{port}\""));
    let mut run = Served::spawn(&j);
    let line = run.wait_for_log("cannot serve the web pages");
    assert!(line.contains(&format!("127.0.0.1:{port}")), "{line}");
    assert!(line.contains("another program listens there"), "{line}");
    assert!(line.contains("goes on without"), "{line}");

    deliver(
        &j,
        "1.reader",
        &Mail::new("reader@example.org", "help", "HELP"),
    );
    let out = wait_for_outbox(&j, 1);
    assert!(out[0].contains("To: reader@example.org"), "{}", out[0]);
    let (status, log) = run.stop();
    assert!(status.success(), "{status}: {log}");
    drop(taken);
}

#[test]
fn a_listen_address_that_is_not_one_is_refused_at_start() {
    let j = TestJudge::new("web-bad-listen");
    j.set_config("web", "listen", "\"localhost-8080\"");
    let run = j.run(&["run", "--once"], b"");
    assert!(!run.ok);
    assert!(
        run.stderr.contains("[web] listen = \"localhost-8080\"")
            && run.stderr.contains("127.0.0.1:8080"),
        "{}",
        run.stderr
    );
}
