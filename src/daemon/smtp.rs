//! SMTP out: `[outbox] kind = "smtp"`. Each queued mail goes out as it
//! was rendered (its Message-ID, Date, From and To untouched), with the
//! envelope From = the judge's address and the envelope To = the mail's
//! recipients. A failure is returned as text: the queue retries later.

use std::time::Duration;

use lettre::address::Envelope;
use lettre::transport::smtp::authentication::Credentials;
use lettre::{Address, AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

use futures::future::BoxFuture;

use super::mailbox::{Outbox, SendError};
use crate::config::{SmtpSettings, Tls};
use crate::store::mailbox::Outbound;

/// The transport of `[outbox]`: one connection per mail.
pub fn transport(settings: &SmtpSettings) -> Result<AsyncSmtpTransport<Tokio1Executor>, String> {
    let s = &settings.server;
    let builder = match s.tls {
        Tls::None => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(s.host.as_str()),
        Tls::StartTls => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&s.host)
            .map_err(|e| format!("[outbox] TLS for {}: {e}", s.host))?,
        Tls::Tls => AsyncSmtpTransport::<Tokio1Executor>::relay(&s.host)
            .map_err(|e| format!("[outbox] TLS for {}: {e}", s.host))?,
    };
    let mut builder = builder.port(s.port).timeout(Some(Duration::from_secs(60)));
    if let (Some(user), Some(password)) = (&s.user, &s.password) {
        builder = builder.credentials(Credentials::new(user.clone(), password.clone()));
    }
    Ok(builder.build())
}

pub struct SmtpOutbox {
    settings: SmtpSettings,
    transport: AsyncSmtpTransport<Tokio1Executor>,
}

impl SmtpOutbox {
    pub fn open(settings: SmtpSettings) -> Result<SmtpOutbox, String> {
        let transport = transport(&settings)?;
        Ok(SmtpOutbox {
            settings,
            transport,
        })
    }

    /// Sends one mail: within [`SEND_TIMEOUT`] in all (lettre also gives
    /// each command 60 s). A refusal of this mail for good (see
    /// [`refuses_the_mail`]) is a permanent error.
    pub async fn send(&mut self, mail: &Outbound, envelope_from: &str) -> Result<(), SendError> {
        let from = envelope_address(envelope_from).map_err(|e| {
            SendError::passing(format!("the judge's address {envelope_from:?}: {e}"))
        })?;
        let to = mail
            .recipients
            .iter()
            .map(|r| {
                // An address no server could take: nothing to retry.
                envelope_address(r)
                    .map_err(|e| SendError::permanent(format!("recipient {r:?}: {e}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let envelope = Envelope::new(Some(from), to)
            .map_err(|e| SendError::permanent(format!("envelope: {e}")))?;
        let what = self.settings.describe();
        match tokio::time::timeout(SEND_TIMEOUT, self.transport.send_raw(&envelope, &mail.raw))
            .await
        {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) if refuses_the_mail(&e) => Err(SendError::permanent(format!("{what}: {e}"))),
            Ok(Err(e)) => Err(SendError::passing(format!("{what}: {e}"))),
            Err(_) => Err(SendError::passing(format!(
                "{what}: no answer within {} s",
                SEND_TIMEOUT.as_secs()
            ))),
        }
    }
}

impl Outbox for SmtpOutbox {
    fn send<'a>(
        &'a mut self,
        mail: &'a Outbound,
        envelope_from: &'a str,
    ) -> BoxFuture<'a, Result<(), SendError>> {
        Box::pin(SmtpOutbox::send(self, mail, envelope_from))
    }
}

/// The most one mail may take to send, connection included.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(120);

/// Whether the server refused this mail for good: a 5xx reply about the
/// mail or its recipients (550 no such user, 553 bad address, 554
/// rejected ...). Not the 5xx that say the judge's own set-up is wrong —
/// authentication (530-539) or commands the server does not take
/// (500-504) — which would refuse every mail alike: those are retried
/// while the judgekeeper mends `[outbox]`.
pub fn refuses_the_mail(e: &lettre::transport::smtp::Error) -> bool {
    let Some(code) = e.status().filter(|_| e.is_permanent()) else {
        return false;
    };
    let code: u16 = code.to_string().parse().unwrap_or(0);
    !(500..=504).contains(&code) && !(530..=539).contains(&code)
}

/// The bare address of `text` (which may carry a display name).
fn envelope_address(text: &str) -> Result<Address, String> {
    let bare = crate::mail::Address::parse(text)
        .map(|a| a.addr_spec())
        .unwrap_or_else(|_| text.trim().to_string());
    bare.parse::<Address>().map_err(|e| e.to_string())
}

/// For `judge check`: connect, EHLO (STARTTLS, AUTH as configured), QUIT.
pub async fn check(settings: &SmtpSettings) -> Result<String, String> {
    let transport = transport(settings)?;
    let what = settings.describe();
    match transport.test_connection().await {
        Ok(true) => Ok(format!(
            "[outbox] {what} answers EHLO{}",
            if settings.server.user.is_some() {
                " and accepts the login"
            } else {
                ""
            }
        )),
        Ok(false) => Err(format!(
            "[outbox] {what}: the server did not answer EHLO properly"
        )),
        Err(e) => Err(format!("[outbox] {what}: {}", smtp_failure(&e))),
    }
}

/// Which step of the SMTP conversation failed, in words.
fn smtp_failure(e: &lettre::transport::smtp::Error) -> String {
    let step = if e.is_tls() {
        "TLS failed"
    } else if e.is_timeout() {
        "no answer in time"
    } else if e.is_permanent() {
        "refused (permanent; wrong user or password?)"
    } else if e.is_transient() {
        "refused for now (transient)"
    } else if e.is_response() {
        "an answer that is not SMTP"
    } else if e.is_client() {
        "the server cannot do what [outbox] asks"
    } else {
        "cannot connect (is the server running?)"
    };
    format!("{step}: {e}")
}
