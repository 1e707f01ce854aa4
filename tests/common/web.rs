//! `judge run` serving its web folder (`[web] listen`), for the tests of
//! the server and of the pages in a browser: started on a port the system
//! picks (the judge's log says which), asked over plain HTTP/1.1 written
//! by hand, so that a path reaches the server exactly as written (a client
//! library would tidy `/../` away before sending it).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use super::TestJudge;

/// `judge run` in the background; killed if the test fails.
pub struct Served {
    child: Option<Child>,
    log: PathBuf,
    /// Where the pages are served: `127.0.0.1:<port>`.
    pub addr: String,
}

impl Served {
    /// `judge run` on `j`'s folder, serving its web folder at a free port
    /// of 127.0.0.1; returns once the judge says where.
    pub fn start(j: &TestJudge) -> Served {
        j.set_config("web", "listen", "\"127.0.0.1:0\"");
        let mut served = Served::spawn(j);
        let line = served.wait_for_log("serving the web pages of");
        let url = line
            .split("at http://")
            .nth(1)
            .unwrap_or_else(|| panic!("no URL in: {line}"));
        served.addr = url.trim().trim_end_matches('/').to_string();
        served
    }

    /// `judge run` on `j`'s folder as its `judge.toml` is; returns at once.
    pub fn spawn(j: &TestJudge) -> Served {
        let log = j.dir.join("run.log");
        let file = std::fs::File::create(&log).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_judge"))
            .arg("--config")
            .arg(j.config())
            .arg("run")
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(file.try_clone().unwrap())
            .stderr(file)
            .spawn()
            .expect("judge run starts");
        Served {
            child: Some(child),
            log,
            addr: String::new(),
        }
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The first line of the log holding `what`, waited for (20 s at most).
    pub fn wait_for_log(&mut self, what: &str) -> String {
        let start = Instant::now();
        loop {
            if let Some(line) = self.log().lines().find(|l| l.contains(what)) {
                return line.to_string();
            }
            if let Some(status) = self.child.as_mut().unwrap().try_wait().unwrap() {
                panic!(
                    "judge run ended ({status}) before saying {what:?}:\n{}",
                    self.log()
                );
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "judge run did not say {what:?} within 20 s:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// `http://127.0.0.1:<port>` and `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// SIGTERM; the exit status and the log.
    pub fn stop(mut self) -> (ExitStatus, String) {
        let mut child = self.child.take().unwrap();
        let killed = Command::new("kill")
            .arg("-TERM")
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(killed.success(), "kill -TERM");
        let start = Instant::now();
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                return (status, self.log());
            }
            if start.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                panic!("judge run did not stop within 30 s of SIGTERM");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// One HTTP answer.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    /// The value of header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// `method target` to the server at `addr`, with `headers` (`Name:
/// value`), written byte for byte as given; the answer, the connection
/// closed after it.
pub fn request(addr: &str, method: &str, target: &str, headers: &[&str]) -> Reply {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut text = format!("{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for h in headers {
        text.push_str(h);
        text.push_str("\r\n");
    }
    text.push_str("\r\n");
    stream.write_all(text.as_bytes()).unwrap();
    // Read up to the end of the body the headers announce (not to the
    // end of the stream: not every server closes as asked).
    let mut raw = Vec::new();
    let mut buf = [0; 8192];
    loop {
        if let Some(reply) = complete_reply(&raw, method == "HEAD") {
            return reply;
        }
        let n = stream.read(&mut buf).unwrap();
        if n == 0 {
            return read_reply(&raw);
        }
        raw.extend_from_slice(&buf[..n]);
    }
}

/// The reply in `raw`, once all of it is there.
fn complete_reply(raw: &[u8], head: bool) -> Option<Reply> {
    raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let reply = read_reply(raw);
    let bodyless = head || reply.status == 304 || reply.status == 204;
    let length = match reply.header("Content-Length") {
        _ if bodyless => 0,
        Some(n) => n.parse().unwrap(),
        None => return None,
    };
    (reply.body.len() >= length).then_some(reply)
}

/// GET `path`.
pub fn get(addr: &str, path: &str) -> Reply {
    request(addr, "GET", path, &[])
}

fn read_reply(raw: &[u8]) -> Reply {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no end of headers in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap();
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not a status line: {status_line}"));
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    Reply {
        status,
        headers,
        body: raw[split + 4..].to_vec(),
    }
}

/// What `check` finds, asked every 50 ms until it finds something; the
/// test fails after `seconds`, saying it waited for `what`.
pub fn wait_until<T>(what: &str, seconds: u64, mut check: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(found) = check() {
            return found;
        }
        assert!(
            start.elapsed() < Duration::from_secs(seconds),
            "waited {seconds} s for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Writes `bytes` to `root/rel`, making its folders.
pub fn write_file(root: &Path, rel: &str, bytes: &[u8]) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}
