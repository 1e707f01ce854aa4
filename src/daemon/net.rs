//! What the network mailboxes (IMAP in, SMTP out) share: the connection
//! to their server (`config::ServerSettings`), and TLS by rustls.

use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;
use tokio_rustls::rustls::pki_types::ServerName;
use tokio_rustls::rustls::{ClientConfig, RootCertStore};
use tokio_rustls::TlsConnector;

use crate::config::ServerSettings;

/// How long connecting, or any one exchange with a server, may take.
pub const IO_TIMEOUT: Duration = Duration::from_secs(60);

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
