//! The web server beside slow and idle clients, as a reader waits: the
//! real `judge run` serving its folder, a page asked for 21 times alone,
//! then 21 times beside 500 connections that never finish their headers
//! and 140 that say nothing (from other loopback addresses, renewed as the
//! server drops them, as an attacker would). Medians and the worst, in
//! milliseconds.
//!
//! `cargo bench --bench web_slow_clients`

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let dir = std::env::temp_dir().join(format!("judge-bench-slow-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let judge = env!("CARGO_BIN_EXE_judge");
    let init = Command::new(judge).arg("init").arg(&dir).output().unwrap();
    assert!(init.status.success());
    let config = dir.join("judge.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    let text = text.replace("listen = \"127.0.0.1:8080\"", "listen = \"127.0.0.1:0\"");
    std::fs::write(&config, text).unwrap();
    std::fs::create_dir_all(dir.join("var/www")).unwrap();
    std::fs::write(
        dir.join("var/www/index.html"),
        "<!doctype html><title>games</title><p>the games".repeat(50),
    )
    .unwrap();
    let log = dir.join("run.log");
    let mut child = Command::new(judge)
        .arg("--config")
        .arg(&config)
        .arg("run")
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&log).unwrap())
        .stderr(std::fs::File::create(dir.join("run.err")).unwrap())
        .spawn()
        .unwrap();
    let addr = wait_for_address(&dir);

    let alone = time_gets(addr, 21);
    let attackers = std::thread::spawn(move || hold_slow_clients(addr, Duration::from_secs(20)));
    std::thread::sleep(Duration::from_secs(2));
    let beside = time_gets(addr, 21);
    let opened = attackers.join().unwrap();
    let _ = child.kill();
    let _ = child.wait();
    report("alone", &alone);
    report(&format!("beside 640 slow/idle ({opened} opened)"), &beside);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The address `judge run` says it serves at.
fn wait_for_address(dir: &std::path::Path) -> SocketAddr {
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(dir.join("run.err")).unwrap_or_default()
            + &std::fs::read_to_string(dir.join("run.log")).unwrap_or_default();
        if let Some(rest) = text.split("at http://").nth(1) {
            let addr = rest.split('/').next().unwrap().trim();
            return addr.parse().unwrap();
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no address: {text}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `n` GETs of the index, one after another, each on a new connection:
/// milliseconds each, from connecting to the last byte.
fn time_gets(addr: SocketAddr, n: usize) -> Vec<f64> {
    (0..n)
        .map(|_| {
            let start = Instant::now();
            let mut s = TcpStream::connect(addr).unwrap();
            s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
            s.write_all(b"GET /index.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .unwrap();
            let mut answer = Vec::new();
            s.read_to_end(&mut answer).unwrap();
            assert!(answer.starts_with(b"HTTP/1.1 200"));
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect()
}

/// Keeps 500 clients that never finish their headers (from 20 loopback
/// addresses) and 140 idle ones (from 7 more) open for `how_long`,
/// reopening any the server drops; how many connections were opened.
fn hold_slow_clients(addr: SocketAddr, how_long: Duration) -> usize {
    let mut opened = 0;
    let mut held: Vec<Option<TcpStream>> = (0..640).map(|_| None).collect();
    let start = Instant::now();
    while start.elapsed() < how_long {
        for (k, slot) in held.iter_mut().enumerate() {
            let dropped = match slot {
                Some(s) => {
                    s.set_nonblocking(true).unwrap();
                    let mut b = [0; 1];
                    let gone = matches!(s.read(&mut b), Ok(0));
                    gone || (k < 500 && s.write_all(b"X").is_err())
                }
                None => true,
            };
            if dropped {
                let from = if k < 500 {
                    [127, 0, 1, 2 + (k % 20) as u8]
                } else {
                    [127, 0, 2, 2 + (k % 7) as u8]
                };
                let sent: &[u8] = if k < 500 {
                    b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: "
                } else {
                    b""
                };
                *slot = connect_from(from, addr, sent);
                opened += usize::from(slot.is_some());
            }
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    opened
}

fn connect_from(from: [u8; 4], addr: SocketAddr, sent: &[u8]) -> Option<TcpStream> {
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).ok()?;
    socket.bind(&SocketAddr::from((from, 0)).into()).ok()?;
    socket.connect(&addr.into()).ok()?;
    let mut s: TcpStream = socket.into();
    s.write_all(sent).ok()?;
    Some(s)
}

fn report(what: &str, ms: &[f64]) {
    let mut v = ms.to_vec();
    v.sort_by(f64::total_cmp);
    println!(
        "GET /index.html {what}: median {:.2} ms, worst {:.2} ms ({} requests)",
        v[v.len() / 2],
        v[v.len() - 1],
        v.len()
    );
}
