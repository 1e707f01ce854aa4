//! The answer to one mail, built up line by line as the commands run:
//! what each offending line was and why, what each command did, then the
//! order sets and deadlines.

use super::script::Line;

#[derive(Debug, Default)]
pub struct Reply {
    blocks: Vec<String>,
    /// Something was refused: the subject gets `[Error Flag]`.
    pub error: bool,
    /// The game and phase the reply is about, for the subject.
    pub game: Option<String>,
    pub phase: Option<String>,
    /// Further addresses the reply goes to (a seat's address of record
    /// when the sign-on came from elsewhere).
    pub also_to: Vec<String>,
}

impl Reply {
    /// A command that worked: the line, then what it did.
    pub fn ok(&mut self, line: &Line, what: impl Into<String>) {
        self.blocks
            .push(format!("> {}\n{}", line.echo(), what.into()));
    }

    /// A line refused: echoed, with the reason.
    pub fn refuse(&mut self, line: &Line, why: impl Into<String>) {
        self.error = true;
        self.blocks
            .push(format!("> {}\n*** {}", line.echo(), why.into()));
    }

    /// A refusal about no particular line.
    pub fn refuse_text(&mut self, why: impl Into<String>) {
        self.error = true;
        self.blocks.push(format!("*** {}", why.into()));
    }

    /// Free text (an order set, a listing).
    pub fn text(&mut self, text: impl Into<String>) {
        self.blocks.push(text.into());
    }

    pub fn body(&self, footer: &str) -> String {
        let mut body = self.blocks.join("\n\n");
        body.push_str("\n\n");
        body.push_str(footer);
        body.push('\n');
        body
    }
}
