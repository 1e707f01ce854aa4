//! Sending through the local mail system's `sendmail` program.

use tokio::io::AsyncWriteExt;
use tokio::process::Command;

use crate::store::Outbound;

pub struct SendmailOutbox {
    command: String,
}

impl SendmailOutbox {
    pub fn new(command: &str) -> SendmailOutbox {
        SendmailOutbox {
            command: command.to_string(),
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
            .spawn()
            .map_err(|e| format!("starting {}: {e}", self.command))?;
        let mut stdin = child.stdin.take().expect("piped stdin");
        stdin
            .write_all(&mail.raw)
            .await
            .map_err(|e| format!("writing to {}: {e}", self.command))?;
        drop(stdin);
        let status = child
            .wait()
            .await
            .map_err(|e| format!("waiting for {}: {e}", self.command))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("{} exited with {status}", self.command))
        }
    }
}
