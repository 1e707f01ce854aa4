//! What the network mailboxes (IMAP in, SMTP out) share: reading their
//! `host`, `port`, `tls`, `user`, `password` keys, and TLS by rustls.

use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;
use tokio_rustls::rustls::pki_types::ServerName;
use tokio_rustls::rustls::{ClientConfig, RootCertStore};
use tokio_rustls::TlsConnector;

/// How long connecting, or any one exchange with a server, may take.
pub const IO_TIMEOUT: Duration = Duration::from_secs(60);

/// `tls = "none" | "starttls" | "tls"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tls {
    /// Plain text (a server on this machine).
    None,
    /// Plain, then upgraded by STARTTLS before logging in.
    StartTls,
    /// TLS from the first byte (IMAPS 993, SMTPS 465).
    Tls,
}

impl Tls {
    pub fn name(self) -> &'static str {
        match self {
            Tls::None => "none",
            Tls::StartTls => "starttls",
            Tls::Tls => "tls",
        }
    }
}

/// The keys of one `[inbox]` or `[outbox]` section of a network kind.
#[derive(Debug, Clone)]
pub struct ServerSettings {
    pub host: String,
    pub port: u16,
    pub tls: Tls,
    pub user: Option<String>,
    pub password: Option<String>,
}

impl ServerSettings {
    /// `host:port`, for messages.
    pub fn addr(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }
}

/// Reads a section: `allowed` are its keys besides `kind`; `default_port`
/// gives the port for each TLS mode when `port` is absent.
pub fn settings(
    table: Option<&toml::Table>,
    section: &str,
    allowed: &[&str],
    default_port: fn(Tls) -> u16,
) -> Result<ServerSettings, String> {
    let empty = toml::Table::new();
    let table = table.unwrap_or(&empty);
    for name in table.keys() {
        if name != "kind" && !allowed.contains(&name.as_str()) {
            return Err(format!(
                "[{section}] {name}: unknown key (this kind knows {})",
                allowed.join(", ")
            ));
        }
    }
    let host = string(table, section, "host")?
        .ok_or_else(|| format!("[{section}] host is missing: the mail server's name"))?;
    let tls = match string(table, section, "tls")?.as_deref() {
        None | Some("tls") => Tls::Tls,
        Some("starttls") => Tls::StartTls,
        Some("none") => Tls::None,
        Some(other) => {
            return Err(format!(
                "[{section}] tls = \"{other}\": write \"none\", \"starttls\" or \"tls\""
            ))
        }
    };
    let port = match table.get("port") {
        None => default_port(tls),
        Some(toml::Value::Integer(p)) => u16::try_from(*p)
            .ok()
            .filter(|p| *p != 0)
            .ok_or_else(|| format!("[{section}] port = {p}: not a port (1-65535)"))?,
        Some(v) => return Err(format!("[{section}] port = {}: write a number", show(v))),
    };
    Ok(ServerSettings {
        host,
        port,
        tls,
        user: string(table, section, "user")?,
        password: string(table, section, "password")?,
    })
}

/// A string key.
pub fn string(table: &toml::Table, section: &str, name: &str) -> Result<Option<String>, String> {
    match table.get(name) {
        None => Ok(None),
        Some(toml::Value::String(s)) => Ok(Some(s.clone())),
        Some(v) => Err(format!(
            "[{section}] {name} = {}: write a string in quotes",
            show(v)
        )),
    }
}

/// A whole-number key.
pub fn number(table: &toml::Table, section: &str, name: &str) -> Result<Option<u64>, String> {
    match table.get(name) {
        None => Ok(None),
        Some(toml::Value::Integer(n)) if *n >= 0 => Ok(Some(*n as u64)),
        Some(v) => Err(format!(
            "[{section}] {name} = {}: write a whole number",
            show(v)
        )),
    }
}

/// A value as it was written, near enough, for messages.
fn show(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => format!("{s:?}"),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Datetime(d) => d.to_string(),
        toml::Value::Array(_) => "[...]".to_string(),
        toml::Value::Table(_) => "{...}".to_string(),
    }
}

/// The TCP connection to `host:port`, within [`IO_TIMEOUT`].
pub async fn tcp(settings: &ServerSettings) -> Result<TcpStream, String> {
    let addr = settings.addr();
    match tokio::time::timeout(
        IO_TIMEOUT,
        TcpStream::connect((settings.host.as_str(), settings.port)),
    )
    .await
    {
        Err(_) => Err(format!("connecting to {addr}: no answer in {IO_TIMEOUT:?}")),
        Ok(Err(e)) => Err(format!("connecting to {addr}: {e}")),
        Ok(Ok(s)) => {
            let _ = s.set_nodelay(true);
            Ok(s)
        }
    }
}

/// The rustls client set-up: the ring provider, the webpki roots.
fn client_config() -> Result<Arc<ClientConfig>, String> {
    let mut roots = RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    let config = ClientConfig::builder_with_provider(Arc::new(
        tokio_rustls::rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(|e| format!("setting up TLS: {e}"))?
    .with_root_certificates(roots)
    .with_no_client_auth();
    Ok(Arc::new(config))
}

/// TLS over an open connection, checking the certificate names `host`.
pub async fn tls(tcp: TcpStream, host: &str) -> Result<TlsStream<TcpStream>, String> {
    let name = ServerName::try_from(host.to_string())
        .map_err(|e| format!("{host:?} cannot be checked against a certificate: {e}"))?;
    let connector = TlsConnector::from(client_config()?);
    match tokio::time::timeout(IO_TIMEOUT, connector.connect(name, tcp)).await {
        Err(_) => Err(format!(
            "TLS handshake with {host}: no answer in {IO_TIMEOUT:?}"
        )),
        Ok(Err(e)) => Err(format!("TLS handshake with {host}: {e}")),
        Ok(Ok(s)) => Ok(s),
    }
}
