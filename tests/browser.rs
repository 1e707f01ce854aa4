//! The archive as a reader sees it: a game played by mail with the real
//! judge, its pages served by the real `judge run`, read in headless
//! Chromium driven over the DevTools protocol — from the index to the
//! game, to a phase (its map loaded, its orders there), the arrow keys to
//! the next phase and back, up to the game again; the play page stepping
//! through the maps (and listing them all without script); and every kind
//! of page (the index, a game, a movement, a retreat and an adjustment
//! phase, the play page) measured at a phone's 390 px and a desktop's
//! 1,280 px: no sideways scrolling, the map shown and as wide as the page
//! lets it be.
//!
//! The screenshots are kept in `target/tmp/browser/` (Cargo's
//! `CARGO_TARGET_TMPDIR`): `<page>-<width>.png` for each page measured
//! (the whole page, top to bottom),
//! `S1901M.png` and `S1901M-phone.png` from the walk.
//!
//! Chromium is found through `JUDGE_TEST_CHROMIUM` (`.ci/run` installs
//! Debian's `chromium` and sets it). Without it the test says SKIPPED and
//! passes, except in CI (`CI` set), where it fails. By hand:
//!
//!     JUDGE_TEST_CHROMIUM=/usr/bin/chromium cargo test --test browser

mod common;

use std::io::Write;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

use common::web::{get, wait_until, Served};
use common::TestJudge;

/// Chromium's program, or `None` (and a SKIPPED line) without it; in CI
/// a missing browser is a failure, not a skip.
fn chromium(test: &str) -> Option<PathBuf> {
    let path = std::env::var_os("JUDGE_TEST_CHROMIUM").filter(|p| !p.is_empty());
    if path.is_none() {
        common::prerequisite::missing(
            test,
            "JUDGE_TEST_CHROMIUM is not set",
            "Install chromium and set it to its path to run this test (.ci/run does)",
        );
    }
    path.map(PathBuf::from)
}

/// Headless Chromium and one page of it, driven over the DevTools
/// protocol's websocket.
struct Browser {
    child: Child,
    profile: PathBuf,
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
}

impl Browser {
    /// Starts `program` with a fresh profile and a debugging port the
    /// system picks (written to `DevToolsActivePort` in the profile), and
    /// connects to its first page.
    fn start(program: &Path, profile: PathBuf) -> Browser {
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).unwrap();
        let child = Command::new(program)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--remote-debugging-port=0",
                "--window-size=1280,900",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts");
        let port = wait_for_port(&profile.join("DevToolsActivePort"));
        let pages: Value =
            serde_json::from_slice(&get(&format!("127.0.0.1:{port}"), "/json/list").body)
                .expect("the DevTools list of pages");
        let url = pages
            .as_array()
            .and_then(|all| all.iter().find(|p| p["type"] == "page"))
            .and_then(|p| p["webSocketDebuggerUrl"].as_str())
            .unwrap_or_else(|| panic!("no page in {pages:#}"))
            .to_string();
        let (socket, _) = tungstenite::connect(url.as_str()).expect("the page's websocket");
        Browser {
            child,
            profile,
            socket,
            next_id: 1,
        }
    }

    /// Calls `method`; its result (a protocol error fails the test).
    fn call(&mut self, method: &str, params: Value) -> Value {
        let answer = self.answer(method, params);
        assert!(answer.get("error").is_none(), "{method}: {answer}");
        answer["result"].clone()
    }

    /// Calls `method`; the whole answer, a result or an error.
    fn answer(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let text = json!({"id": id, "method": method, "params": params}).to_string();
        self.socket.send(Message::text(text)).unwrap();
        loop {
            let Message::Text(text) = self.socket.read().unwrap() else {
                continue;
            };
            let answer: Value = serde_json::from_str(text.as_str()).unwrap();
            if answer["id"] == id {
                return answer;
            }
            // Otherwise an event.
        }
    }

    /// The value of the JavaScript `expression` in the page.
    fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true}),
        );
        assert!(r.get("exceptionDetails").is_none(), "{expression}: {r}");
        r["result"]["value"].clone()
    }

    /// Waits (15 s at most) until `expression` is true in the page. While
    /// a page is being left or loaded, asking may fail (the page went
    /// away, an element is not there yet): that is "not yet".
    fn wait_for(&mut self, expression: &str) {
        let params = json!({"expression": format!("!!({expression})"), "returnByValue": true});
        wait_until(&format!("`{expression}` in the page"), 15, || {
            let answer = self.answer("Runtime.evaluate", params.clone());
            (answer["result"]["result"]["value"] == json!(true)).then_some(())
        });
    }

    /// The page's address, once its document has loaded.
    fn loaded(&mut self) -> String {
        self.wait_for("document.readyState === 'complete'");
        self.eval("location.href").as_str().unwrap().to_string()
    }

    fn open(&mut self, url: &str) -> String {
        self.call("Page.navigate", json!({"url": url}));
        self.wait_for(&format!("location.href === {}", json!(url)));
        self.loaded()
    }

    /// Clicks, with the mouse, the middle of the element `element` (a
    /// JavaScript expression) and waits for the page it leads to.
    fn click(&mut self, element: &str) -> String {
        let before = self.loaded();
        let at = self.eval(&format!(
            "(() => {{ const e = {element}; if (!e) return null; \
             e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); \
             return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        assert!(at.is_array(), "nothing to click: {element} on {before}");
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": at[0], "y": at[1], "button": "left", "clickCount": 1}),
            );
        }
        self.wait_for(&format!("location.href !== {}", json!(before)));
        self.loaded()
    }

    /// Presses and lets go of `key` (`ArrowRight`), as a keyboard does,
    /// and waits for the page it leads to.
    fn press(&mut self, key: &str, code: u32) -> String {
        let before = self.loaded();
        for kind in ["keyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code}),
            );
        }
        self.wait_for(&format!("location.href !== {}", json!(before)));
        self.loaded()
    }

    /// A PNG of what the page shows, written to `path`.
    fn screenshot(&mut self, path: &Path) -> Vec<u8> {
        let r = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let png = base64_decode(r["data"].as_str().unwrap());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, &png).unwrap();
        png
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// The port Chromium writes on the first line of `DevToolsActivePort`.
fn wait_for_port(file: &Path) -> u16 {
    wait_until(&format!("chromium to write {}", file.display()), 30, || {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        text.lines().next().and_then(|l| l.trim().parse().ok())
    })
}

/// Standard base64 (the screenshot's encoding) decoded.
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// A PNG's size and how many different colours it shows.
fn png_facts(bytes: &[u8]) -> (u32, u32, usize) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut pixels).unwrap();
    let step = frame.color_type.samples();
    let colours: std::collections::HashSet<&[u8]> =
        pixels[..frame.buffer_size()].chunks(step).collect();
    (frame.width, frame.height, colours.len())
}

// ---- the game -----------------------------------------------------------------

const MASTER: &str = "master@example.org";
const GAME: &str = "tour";

/// The players' addresses, each wanting one power (all different, so the
/// draw gives each the power it asks for).
const POWERS: [char; 7] = ['A', 'E', 'F', 'G', 'I', 'R', 'T'];

fn player(power: char) -> String {
    format!("{}@example.net", power.to_ascii_lowercase())
}

/// `lines` from `power`, signed on.
fn send(j: &mut TestJudge, power: char, lines: &str) {
    let pw = format!("pw-{power}");
    j.mail(
        &player(power),
        &format!("SIGNON {power}{GAME} {pw}\n{lines}"),
    );
}

/// Four phases played by mail: S1901M, F1901M, F1901R (Italy dislodges
/// Austria's fleet in Trieste), W1901A, each processed by the Master.
fn play(j: &mut TestJudge) {
    j.mail(MASTER, &format!("CREATE ?{GAME} mpass"));
    for p in POWERS {
        j.mail(
            &player(p),
            &format!("SIGNON ?{GAME} pw-{p}\nSET PREFERENCE {p}"),
        );
    }
    let process = |j: &mut TestJudge| j.mail(MASTER, &format!("SIGNON M{GAME} mpass\nPROCESS"));
    send(j, 'F', "A Par-Bur\nA Mar-Spa\nF Bre-Mao");
    send(j, 'G', "A Mun-Ruh\nA Ber-Kie\nF Kie-Den");
    send(j, 'I', "A Ven-Tyr\nA Rom-Ven");
    process(j);
    send(j, 'F', "A Bur-Bel\nA Spa H\nF Mao-Por");
    send(j, 'I', "A Tyr-Tri\nA Ven S A Tyr-Tri");
    process(j);
    send(j, 'A', "F Tri-Adr");
    process(j);
    send(j, 'F', "Build A Par\nBuild F Bre");
    process(j);
    let export = j.export(GAME);
    let phases: Vec<&Value> = export["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["phase"])
        .collect();
    assert_eq!(
        phases,
        ["S1901M", "F1901M", "F1901R", "W1901A", "S1902M"],
        "{export:#}"
    );
}

/// The game's pages in `var/www`, written by `judge archive` from the
/// database, as `judge run` writes them after each phase.
fn archive(j: &TestJudge) {
    let run = j.run(&["archive"], b"");
    assert!(run.ok, "judge archive failed: {}", run.stderr);
    assert!(
        j.dir.join(format!("var/www/{GAME}/S1901M.html")).is_file(),
        "judge archive wrote no S1901M page: {}",
        run.stdout
    );
}

/// Whether the text of `#orders` holds France's first order, in any of the
/// judge's spellings of it.
const ORDER_SHOWN: &str = "['A PAR - BUR', 'A Par - Bur', 'Army Paris -> Burgundy']\
    .some(o => document.querySelector('#orders').innerText.replace(/\\s+/g, ' ').includes(o))";

#[test]
fn a_reader_steps_through_a_game_in_a_browser() {
    let test = "a_reader_steps_through_a_game_in_a_browser";
    let Some(program) = chromium(test) else {
        return;
    };
    let mut j = TestJudge::new("browser");
    play(&mut j);
    archive(&j);
    let served = Served::start(&j);
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    let mut b = Browser::start(&program, j.dir.join("chromium-profile"));

    let home = b.open(&served.url("/"));
    assert_eq!(home, served.url("/"));
    let game = b.click(&format!(
        "[...document.querySelectorAll('a')].find(a => a.textContent.trim() === '{GAME}')"
    ));
    assert_eq!(game, served.url(&format!("/{GAME}/index.html")));
    let s1901 =
        b.click("[...document.querySelectorAll('a')].find(a => a.textContent.includes('S1901M'))");
    assert_eq!(s1901, served.url(&format!("/{GAME}/S1901M.html")));
    b.wait_for("document.querySelector('img#map').complete && document.querySelector('img#map').naturalWidth > 0");
    b.wait_for(ORDER_SHOWN);
    let png = b.screenshot(&shots.join("S1901M.png"));
    let (width, height, colours) = png_facts(&png);
    assert!(width >= 1000 && height >= 600, "{width}x{height}");
    assert!(
        colours > 50,
        "a screenshot of {colours} colours: nothing drawn?"
    );

    let f1901 = b.press("ArrowRight", 39);
    assert_eq!(f1901, served.url(&format!("/{GAME}/F1901M.html")));
    b.wait_for("document.querySelector('img#map').naturalWidth > 0");
    let back = b.press("ArrowLeft", 37);
    assert_eq!(back, s1901);
    let up = b.click("document.querySelector('a[rel=up]')");
    assert_eq!(up, game);

    // A phone: the page fits its width.
    b.call(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": true}),
    );
    b.open(&s1901);
    b.wait_for("document.querySelector('img#map').naturalWidth > 0");
    let wide = b.eval("document.documentElement.scrollWidth");
    assert!(
        wide.as_i64().unwrap() <= 390,
        "the page is {wide} px wide on a 390 px phone"
    );
    let png = b.screenshot(&shots.join("S1901M-phone.png"));
    let (width, _, colours) = png_facts(&png);
    assert_eq!(width, 780, "390 px at two pixels each");
    assert!(colours > 50, "{colours} colours");
    let _ = writeln!(
        std::io::stderr(),
        "{test}: screenshots in {}",
        shots.display()
    );
}

/// What a page shows at the width set: whether it scrolls sideways, and
/// its map (`map`, a JavaScript expression for the image): loaded, and
/// how wide.
struct Measured {
    scroll_width: i64,
    map_width: f64,
}

impl Browser {
    /// A PNG of the whole page, top to bottom, at the window's width,
    /// written to `path`.
    fn screenshot_page(&mut self, path: &Path) -> Vec<u8> {
        let size = self.eval("[window.innerWidth, document.documentElement.scrollHeight]");
        let clip = json!({"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1});
        let r = self.call(
            "Page.captureScreenshot",
            json!({"format": "png", "clip": clip, "captureBeyondViewport": true}),
        );
        let png = base64_decode(r["data"].as_str().unwrap());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, &png).unwrap();
        png
    }

    /// Sets the window to `width` by `height` (a phone's when `mobile`).
    fn window(&mut self, width: u32, height: u32, mobile: bool) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
        );
    }

    /// Opens `url`, waits for the image `map` to be loaded, and measures.
    fn measure(&mut self, url: &str, map: &str) -> Measured {
        self.open(url);
        self.wait_for(&format!(
            "(() => {{ const m = {map}; return m && m.complete && m.naturalWidth > 0; }})()"
        ));
        Measured {
            scroll_width: self
                .eval("document.documentElement.scrollWidth")
                .as_i64()
                .unwrap(),
            map_width: self
                .eval(&format!("{map}.getBoundingClientRect().width"))
                .as_f64()
                .unwrap(),
        }
    }
}

#[test]
fn every_kind_of_page_fits_a_phone_and_a_desktop() {
    let test = "every_kind_of_page_fits_a_phone_and_a_desktop";
    let Some(program) = chromium(test) else {
        return;
    };
    let mut j = TestJudge::new("browser-widths");
    play(&mut j);
    archive(&j);
    let served = Served::start(&j);
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    let mut b = Browser::start(&program, j.dir.join("chromium-profile"));
    // Each page, and its map: the index's first card's, the game's board,
    // a phase's map, the play page's first.
    let pages = [
        (
            "index",
            "/".to_string(),
            "document.querySelector('li.game img')",
        ),
        (
            "game",
            format!("/{GAME}/index.html"),
            "document.querySelector('img#map')",
        ),
        (
            "movement",
            format!("/{GAME}/F1901M.html"),
            "document.querySelector('img#map')",
        ),
        (
            "retreat",
            format!("/{GAME}/F1901R.html"),
            "document.querySelector('img#map')",
        ),
        (
            "adjustment",
            format!("/{GAME}/W1901A.html"),
            "document.querySelector('img#map')",
        ),
        (
            "play",
            format!("/{GAME}/play.html#S1901M"),
            "document.querySelector('#frames li:not([hidden]) img')",
        ),
    ];
    for (width, height, mobile) in [(390, 844, true), (1280, 900, false)] {
        b.window(width, height, mobile);
        for (name, path, map) in &pages {
            let m = b.measure(&served.url(path), map);
            let png = b.screenshot_page(&shots.join(format!("{name}-{width}.png")));
            assert!(
                m.scroll_width <= i64::from(width),
                "{name} is {} px wide in a {width} px window",
                m.scroll_width
            );
            assert!(m.map_width > 0.0, "{name}: no map shown at {width} px");
            let (shot_width, _, colours) = png_facts(&png);
            assert_eq!(shot_width, width, "{name}");
            assert!(colours > 50, "{name} at {width}: {colours} colours");
            // A phase's map, and the game's board on a phone, take the
            // page's width (less its margins).
            let wide = matches!(*name, "movement" | "retreat" | "adjustment")
                || (*name == "game" && width == 390);
            if wide {
                assert!(
                    m.map_width >= f64::from(width) * 0.9,
                    "{name}: a map {} px wide in a {width} px window",
                    m.map_width
                );
            }
        }
    }
    let _ = writeln!(
        std::io::stderr(),
        "{test}: screenshots in {}",
        shots.display()
    );
}

#[test]
fn the_play_page_steps_through_the_maps_and_lists_them_without_script() {
    let test = "the_play_page_steps_through_the_maps_and_lists_them_without_script";
    let Some(program) = chromium(test) else {
        return;
    };
    let mut j = TestJudge::new("browser-play");
    play(&mut j);
    archive(&j);
    let served = Served::start(&j);
    let mut b = Browser::start(&program, j.dir.join("chromium-profile"));
    let shown =
        "[...document.querySelectorAll('#frames > li')].filter(f => !f.hidden).map(f => f.id)";

    // From a phase's page, "Play from here": that phase's map alone.
    b.open(&served.url(&format!("/{GAME}/F1901M.html")));
    let play = b
        .click("[...document.querySelectorAll('a')].find(a => a.textContent === 'Play from here')");
    assert_eq!(play, served.url(&format!("/{GAME}/play.html#F1901M")));
    assert_eq!(b.eval(shown), json!(["F1901M"]));
    b.call(
        "Input.dispatchKeyEvent",
        json!({"type": "keyDown", "key": "ArrowRight", "code": "ArrowRight", "windowsVirtualKeyCode": 39}),
    );
    assert_eq!(b.eval(shown), json!(["F1901R"]));
    // Play: every map in turn to the board now, then it stops there.
    b.eval("document.getElementById('play').click()");
    b.wait_for(&format!("JSON.stringify({shown}) === '[\"now\"]'"));
    b.wait_for("document.getElementById('play').textContent === 'Play'");
    b.wait_for("document.querySelector('#now img').naturalWidth > 0");

    // Without script, the page lists them all.
    b.call(
        "Emulation.setScriptExecutionDisabled",
        json!({"value": true}),
    );
    b.open(&served.url(&format!("/{GAME}/play.html")));
    assert_eq!(
        b.eval("[...document.querySelectorAll('#frames > li')].filter(f => f.offsetHeight > 0).map(f => f.id)"),
        json!(["S1901M", "F1901M", "F1901R", "W1901A", "now"])
    );
    assert_eq!(
        b.eval("document.getElementById('controls').offsetHeight"),
        json!(0),
        "no buttons that cannot work"
    );
}
