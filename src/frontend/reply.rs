//! The answer to one mail, built up line by line as the commands run:
//! what each offending line was and why, what each command did, then the
//! order sets and deadlines.

use super::script::Line;
use crate::say;

/// The reply stops growing at about this size: further answers are left
/// out with a note (a mail of a few kilobytes must not make megabytes).
pub const MAX_REPLY_BYTES: usize = 1 << 20;

#[derive(Debug, Default)]
pub struct Reply {
    blocks: Vec<String>,
    /// The size of the blocks so far, and how many were left out.
    size: usize,
    left_out: usize,
    /// Something was refused: the subject gets `[Error Flag]`.
    pub error: bool,
    /// The game and phase the reply is about, for the subject.
    pub game: Option<String>,
    pub phase: Option<String>,
    /// Further addresses the reply goes to (a seat's address of record
    /// when the sign-on came from elsewhere).
    pub also_to: Vec<String>,
}

/// Where a reply stood before a command, to take the command's answer
/// back when the command is undone.
#[derive(Debug, Clone, Copy)]
pub struct ReplyMark {
    blocks: usize,
    size: usize,
    left_out: usize,
    error: bool,
}

impl Reply {
    pub fn mark(&self) -> ReplyMark {
        ReplyMark {
            blocks: self.blocks.len(),
            size: self.size,
            left_out: self.left_out,
            error: self.error,
        }
    }

    /// Back to `mark`: what was said since is gone.
    pub fn rewind(&mut self, mark: ReplyMark) {
        self.blocks.truncate(mark.blocks);
        self.size = mark.size;
        self.left_out = mark.left_out;
        self.error = mark.error;
    }

    /// A command that worked: the line, then what it did.
    pub fn ok(&mut self, line: &Line, what: impl Into<String>) {
        self.push(format!("> {}\n{}", line.echo(), what.into()));
    }

    /// A line refused: echoed, with the reason.
    pub fn refuse(&mut self, line: &Line, why: impl Into<String>) {
        self.error = true;
        self.push(format!("> {}\n*** {}", line.echo(), why.into()));
    }

    /// Adds an answer, unless the reply has grown too big already.
    fn push(&mut self, block: String) {
        if self.size + block.len() > MAX_REPLY_BYTES {
            self.left_out += 1;
            self.error = true;
            return;
        }
        self.size += block.len();
        self.blocks.push(block);
    }

    /// A refusal about no particular line.
    pub fn refuse_text(&mut self, why: impl Into<String>) {
        self.error = true;
        self.blocks.push(format!("*** {}", why.into()));
    }

    /// A sentence added to the last block (after its reason).
    pub fn add_to_last(&mut self, text: &str) {
        if let Some(last) = self.blocks.last_mut() {
            last.push(' ');
            last.push_str(text);
        }
    }

    /// Free text (an order set, a listing).
    pub fn text(&mut self, text: impl Into<String>) {
        self.blocks.push(text.into());
    }

    pub fn body(&self, footer: &str) -> String {
        let mut body = self.blocks.join("\n\n");
        if self.left_out > 0 {
            body.push_str("\n\n");
            body.push_str(&say!("reply.too_big", kib => MAX_REPLY_BYTES / 1024,
                                left_out => self.left_out));
        }
        body.push_str("\n\n");
        body.push_str(footer);
        body.push('\n');
        body
    }
}
