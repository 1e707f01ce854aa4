//! `[web] listen`: `judge run` serves the archive's folder (`[web] path`)
//! over HTTP, read-only, on the daemon's own runtime beside the mail.
//!
//! GET and HEAD only. A path names a file inside the folder or nothing:
//! it is percent-decoded once, refused if malformed, if it holds a NUL, a
//! backslash or an encoded slash; every segment must be a plain name (no
//! `.`, `..` or other dot-name), and the file found, links resolved, must
//! still lie inside the folder. A folder serves its `index.html` (after a
//! redirect to the name with a slash, so that its relative links work) or
//! nothing: never a listing. Files are read on the blocking pool.
//!
//! Why hyper (with hyper-util's tokio glue) and not axum with
//! tower-http's `ServeDir`: it adds 7 crates to the build against their
//! 19, and the checks above (a link leading outside the folder above all)
//! would be ours anyway; what is left is a short function from a path to
//! a file.
//!
//! Pages are not worth the judge: a server that cannot listen (the port
//! taken, say) is logged as an error and the judge goes on without it.

use std::convert::Infallible;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;

/// Connections served at once; more wait to be accepted. Tasks are
/// cheap: the bound is the file descriptors (`judge run` raises its limit).
const MAX_CONNECTIONS: usize = 2048;

/// Connections one client address may hold at once; more are closed as
/// they come, so that one client (slow, idle or hostile) cannot take the
/// room every other reader needs.
const MAX_PER_CLIENT: usize = 32;

/// A client that has not sent a request's headers by then is dropped
/// (hyper's timer; slow headers, or a keep-alive connection left idle).
const HEADER_TIMEOUT: Duration = Duration::from_secs(5);

/// A connection is asked to close after this long (finishing the request
/// in hand); one that has not closed a little later is dropped.
const CONNECTION_LIFETIME: Duration = Duration::from_secs(30);
const CLOSING_GRACE: Duration = Duration::from_secs(10);

/// The connections each client address holds.
#[derive(Default)]
struct Clients(std::sync::Mutex<std::collections::HashMap<IpAddr, usize>>);

/// One client's place, given back when its connection ends.
struct ClientPlace {
    clients: Arc<Clients>,
    ip: IpAddr,
}

impl Clients {
    /// A place for a connection from `ip`, unless it holds its share.
    fn enter(self: &Arc<Self>, ip: IpAddr) -> Option<ClientPlace> {
        let mut held = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let count = held.entry(ip).or_insert(0);
        if *count >= MAX_PER_CLIENT {
            return None;
        }
        *count += 1;
        Some(ClientPlace {
            clients: self.clone(),
            ip,
        })
    }
}

impl Drop for ClientPlace {
    fn drop(&mut self) {
        let mut held = self.clients.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = held.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.ip);
            }
        }
    }
}

/// Listens at `addr` and serves `root` until `stop` completes; the task
/// that serves, to wait for once `stop` is set. A failure to listen is
/// logged and nothing else happens: the judge goes on.
pub async fn start(
    addr: SocketAddr,
    root: PathBuf,
    stop: impl Future<Output = ()> + Send + 'static,
) -> Option<JoinHandle<()>> {
    let listener = match TcpListener::bind(addr).await {
        Ok(listener) => listener,
        Err(e) => {
            let hint = if e.kind() == std::io::ErrorKind::AddrInUse {
                "another program listens there; stop it or change [web] listen in judge.toml"
            } else {
                "check [web] listen in judge.toml"
            };
            log::error!(
                "cannot serve the web pages at {addr}: {e} ({hint}); \
                 the judge goes on without its web server"
            );
            return None;
        }
    };
    let url = listener
        .local_addr()
        .map_or_else(|_| addr.to_string(), |a| a.to_string());
    log::info!(
        "serving the web pages of {} at http://{url}/",
        root.display()
    );
    Some(tokio::spawn(serve(listener, Arc::new(root), stop)))
}

/// Accepts connections until `stop` completes; each is served by a task
/// of its own, within the limits above.
async fn serve(listener: TcpListener, root: Arc<PathBuf>, stop: impl Future<Output = ()>) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let clients = Arc::new(Clients::default());
    tokio::pin!(stop);
    loop {
        // Waiting for a free slot still heeds `stop`.
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => return,
            },
            _ = &mut stop => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors, say: wait, do not spin.
                    log::warn!("web server: accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = &mut stop => break,
        };
        let Some(place) = clients.enter(peer.ip()) else {
            log::debug!("web server: {peer} holds {MAX_PER_CLIENT} connections; closed");
            drop(stream);
            continue;
        };
        let root = root.clone();
        tokio::spawn(async move {
            serve_connection(stream, peer, root).await;
            drop((slot, place));
        });
    }
    log::info!("web server stopped");
}

/// One connection, for at most [`CONNECTION_LIFETIME`] and its grace.
async fn serve_connection(stream: tokio::net::TcpStream, peer: SocketAddr, root: Arc<PathBuf>) {
    let service = service_fn(move |request| {
        let root = root.clone();
        async move { Ok::<_, Infallible>(respond(request, root).await) }
    });
    let connection = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .serve_connection(TokioIo::new(stream), service);
    tokio::pin!(connection);
    let served = tokio::select! {
        served = connection.as_mut() => served,
        _ = tokio::time::sleep(CONNECTION_LIFETIME) => {
            connection.as_mut().graceful_shutdown();
            match tokio::time::timeout(CLOSING_GRACE, connection.as_mut()).await {
                Ok(served) => served,
                Err(_) => return,
            }
        }
    };
    if let Err(e) = served {
        log::debug!("web server: connection from {peer}: {e}");
    }
}

/// The answer to one request.
async fn respond(request: Request<Incoming>, root: Arc<PathBuf>) -> Response<Full<Bytes>> {
    let head = match *request.method() {
        Method::GET => false,
        Method::HEAD => true,
        _ => {
            let mut r = page(StatusCode::METHOD_NOT_ALLOWED, "Only GET and HEAD here");
            r.headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
            return r;
        }
    };
    let path = request.uri().path().to_string();
    let asked = request.headers().clone();
    let found = tokio::task::spawn_blocking(move || find(&root, &path))
        .await
        .unwrap_or(Found::Missing);
    let response = match found {
        Found::File(file) => file_response(file, &asked),
        Found::Folder(location) => redirect(&location),
        Found::Missing => page(StatusCode::NOT_FOUND, "No such page"),
        Found::Refused => page(StatusCode::BAD_REQUEST, "Not a page's address"),
    };
    if head {
        let (parts, _) = response.into_parts();
        return Response::from_parts(parts, Full::new(Bytes::new()));
    }
    response
}

/// What a request's path leads to.
#[derive(Debug, PartialEq)]
enum Found {
    File(File),
    /// A folder asked for without the final slash: its address with it.
    Folder(String),
    Missing,
    /// Not a path this server could ever serve (bad encoding, a NUL, an
    /// encoded slash).
    Refused,
}

/// A file to send, read whole (pages, maps and feeds are small).
#[derive(Debug, PartialEq)]
struct File {
    bytes: Vec<u8>,
    extension: String,
    modified: SystemTime,
}

/// The file `path` (as the request gave it, still encoded) names inside
/// `root`.
fn find(root: &Path, path: &str) -> Found {
    let Some(segments) = segments(path) else {
        return Found::Refused;
    };
    if segments.iter().any(|s| s.starts_with('.')) {
        return Found::Missing;
    }
    // Made canonical at each request: the folder may be made, moved or
    // linked elsewhere while the judge runs.
    let Ok(root) = root.canonicalize() else {
        return Found::Missing;
    };
    let asked = segments.iter().fold(root.clone(), |p, s| p.join(s));
    let Some((mut target, meta)) = inside(&root, &asked) else {
        return Found::Missing;
    };
    if meta.is_dir() {
        if !path.ends_with('/') {
            return Found::Folder(folder_address(&segments));
        }
        match inside(&root, &target.join("index.html")) {
            Some((index, meta)) if meta.is_file() => target = index,
            _ => return Found::Missing,
        }
    } else if !meta.is_file() {
        return Found::Missing;
    }
    match read_whole(&target) {
        Ok((bytes, meta)) => Found::File(File {
            bytes,
            extension: target
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase())
                .unwrap_or_default(),
            modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
        }),
        Err(_) => Found::Missing,
    }
}

/// The file's bytes and metadata from one open handle: a page renamed
/// over meanwhile gives the old body with the old date (and ETag), or the
/// new with the new, never a mix.
fn read_whole(path: &Path) -> std::io::Result<(Vec<u8>, std::fs::Metadata)> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.read_to_end(&mut bytes)?;
    Ok((bytes, meta))
}

/// `path` with its links resolved, and what it is, if it exists and lies
/// inside `root` (canonical).
fn inside(root: &Path, path: &Path) -> Option<(PathBuf, std::fs::Metadata)> {
    let real = path.canonicalize().ok()?;
    if !real.starts_with(root) {
        log::debug!("web server: {} leads outside the folder", path.display());
        return None;
    }
    let meta = std::fs::metadata(&real).ok()?;
    Some((real, meta))
}

/// The path's segments, percent-decoded; `None` if the path is not one
/// this server could serve: not absolute, malformed escapes, not UTF-8, a
/// NUL, a backslash, or an encoded slash (which would make one segment
/// two). Empty segments (`//`) are dropped.
fn segments(path: &str) -> Option<Vec<String>> {
    if !path.starts_with('/') {
        return None;
    }
    let mut out = Vec::new();
    for raw in path.split('/').filter(|s| !s.is_empty()) {
        let decoded = String::from_utf8(percent_decode(raw)?).ok()?;
        if decoded.contains(['/', '\\', '\0']) {
            return None;
        }
        out.push(decoded);
    }
    Some(out)
}

/// `%XX` escapes decoded; `None` if one is malformed.
fn percent_decode(s: &str) -> Option<Vec<u8>> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(out)
}

/// `/a/b/` from the segments, each percent-encoded but for the unreserved
/// characters: never `//` at the start (which a browser reads as another
/// host).
fn folder_address(segments: &[String]) -> String {
    let mut out = String::from("/");
    for s in segments {
        for b in s.bytes() {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                out.push(char::from(b));
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
        out.push('/');
    }
    out
}

/// The content type and how long a reader may keep the file without
/// asking again: pages and feeds change as the game goes on, a phase's
/// pictures hardly ever.
fn kind_of(extension: &str) -> (&'static str, &'static str) {
    const SHORT: &str = "public, max-age=60";
    const HOUR: &str = "public, max-age=3600";
    const DAY: &str = "public, max-age=86400";
    match extension {
        "html" | "htm" => ("text/html; charset=utf-8", SHORT),
        "atom" => ("application/atom+xml", SHORT),
        "json" => ("application/json", SHORT),
        "txt" => ("text/plain; charset=utf-8", SHORT),
        "xml" => ("application/xml", SHORT),
        "css" => ("text/css; charset=utf-8", HOUR),
        "js" => ("text/javascript; charset=utf-8", HOUR),
        "svg" => ("image/svg+xml", DAY),
        "png" => ("image/png", DAY),
        "ico" => ("image/x-icon", DAY),
        _ => ("application/octet-stream", SHORT),
    }
}

/// The file, or 304 when the reader's copy is still the file.
fn file_response(file: File, asked: &HeaderMap) -> Response<Full<Bytes>> {
    let (content_type, cache) = kind_of(&file.extension);
    let since_epoch = file
        .modified
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    let etag = format!("\"{:x}-{:x}\"", file.bytes.len(), since_epoch.as_nanos());
    let last_modified = httpdate::fmt_http_date(file.modified);
    let status = if still_fresh(asked, &etag, since_epoch.as_secs()) {
        StatusCode::NOT_MODIFIED
    } else {
        StatusCode::OK
    };
    let body = if status == StatusCode::OK {
        Bytes::from(file.bytes)
    } else {
        Bytes::new()
    };
    let mut builder = Response::builder()
        .status(status)
        .header(header::ETAG, etag)
        .header(header::LAST_MODIFIED, last_modified)
        .header(header::CACHE_CONTROL, cache)
        .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    if status == StatusCode::OK {
        builder = builder
            .header(header::CONTENT_TYPE, content_type)
            .header(header::CONTENT_LENGTH, body.len());
    }
    builder
        .body(Full::new(body))
        .unwrap_or_else(|_| page(StatusCode::INTERNAL_SERVER_ERROR, "Cannot send this"))
}

/// Whether the reader's copy is current: `If-None-Match` names the ETag
/// (or `*`), or, without it, `If-Modified-Since` is no older than the file
/// (to the second).
fn still_fresh(asked: &HeaderMap, etag: &str, modified_secs: u64) -> bool {
    if let Some(tags) = asked.get(header::IF_NONE_MATCH) {
        let tags = tags.to_str().unwrap_or("");
        return tags
            .split(',')
            .map(|t| t.trim().trim_start_matches("W/"))
            .any(|t| t == "*" || t == etag);
    }
    asked
        .get(header::IF_MODIFIED_SINCE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| httpdate::parse_http_date(v).ok())
        .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
        .is_some_and(|t| t.as_secs() >= modified_secs)
}

/// 301 to `location` (a folder's address with its slash).
fn redirect(location: &str) -> Response<Full<Bytes>> {
    let mut r = page(StatusCode::MOVED_PERMANENTLY, "Moved");
    if let Ok(value) = HeaderValue::from_str(location) {
        r.headers_mut().insert(header::LOCATION, value);
    }
    r
}

/// A small HTML page saying `what`, with `status`.
fn page(status: StatusCode, what: &str) -> Response<Full<Bytes>> {
    let body = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{what}</title></head>\n<body><h1>{what}</h1>\n\
         <p><a href=\"/\">The games</a></p></body></html>\n"
    );
    let mut r = Response::new(Full::new(Bytes::from(body)));
    *r.status_mut() = status;
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_decoded_once_and_refused_when_they_could_name_two_segments() {
        assert_eq!(
            segments("/a/b.html"),
            Some(vec!["a".into(), "b.html".into()])
        );
        assert_eq!(
            segments("//etc/passwd"),
            Some(vec!["etc".into(), "passwd".into()])
        );
        assert_eq!(segments("/%2e%2e/x"), Some(vec!["..".into(), "x".into()]));
        assert_eq!(segments("/%2e%2e%2fjudge.db"), None);
        assert_eq!(segments("/a%5Cb"), None);
        assert_eq!(segments("/a%00"), None);
        assert_eq!(segments("/a%zz"), None);
        assert_eq!(segments("/a%2"), None);
        assert_eq!(segments("/%ff"), None);
        assert_eq!(segments("relative"), None);
    }

    #[test]
    fn a_folder_address_never_starts_with_two_slashes() {
        assert_eq!(folder_address(&["g 1".into()]), "/g%201/");
        assert_eq!(folder_address(&[]), "/");
    }
}
