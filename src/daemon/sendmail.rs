//! Sending through the local mail system's `sendmail` program, which must
//! take the mail within a time limit: a `sendmail` that hangs is killed
//! and the mail tried again later, so the loop never stops on it.

use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::process::Command;

use futures::future::BoxFuture;

use super::mailbox::{Outbox, SendError};
use crate::store::mailbox::Outbound;

pub struct SendmailOutbox {
    command: String,
    timeout: Duration,
}

impl SendmailOutbox {
    pub fn new(command: &str, timeout: Duration) -> SendmailOutbox {
        SendmailOutbox {
            command: command.to_string(),
            timeout,
        }
    }

    pub async fn send(&mut self, mail: &Outbound, envelope_from: &str) -> Result<(), String> {
        let mut child = Command::new(&self.command)
            .arg("-i")
            .arg("-f")
            .arg(envelope_from)
            .arg("--")
            .args(&mail.recipients)
            .stdin(std::process::Stdio::piped())
            // Never left running behind the judge, whatever happens here.
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("starting {}: {e}", self.command))?;
        let mut stdin = child.stdin.take().expect("piped stdin");
        let command = &self.command;
        let delivery = async {
            stdin
                .write_all(&mail.raw)
                .await
                .map_err(|e| format!("writing to {command}: {e}"))?;
            drop(stdin);
            child
                .wait()
                .await
                .map_err(|e| format!("waiting for {command}: {e}"))
        };
        let status = match tokio::time::timeout(self.timeout, delivery).await {
            Ok(status) => status?,
            Err(_) => {
                let _ = child.kill().await;
                return Err(format!(
                    "{command} did not finish within {} s: killed",
                    self.timeout.as_secs()
                ));
            }
        };
        if status.success() {
            Ok(())
        } else {
            Err(format!("{command} exited with {status}"))
        }
    }
}

impl Outbox for SendmailOutbox {
    fn send<'a>(
        &'a mut self,
        mail: &'a Outbound,
        envelope_from: &'a str,
    ) -> BoxFuture<'a, Result<(), SendError>> {
        Box::pin(async move {
            SendmailOutbox::send(self, mail, envelope_from)
                .await
                .map_err(SendError::passing)
        })
    }
}
