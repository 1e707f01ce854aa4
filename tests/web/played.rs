//! A game of seven played by real mail for the web archive's tests:
//! each player gets the power of their initial; the Master processes the
//! phases. The pages are read back from the judge's folder.

use std::path::PathBuf;

use crate::common::*;

pub const GM: &str = "gm-web@example.org";
pub const GM_PASSWORD: &str = "gm-secret-pw";
pub const SEVEN: &str = "AEFGIRT";

pub fn address(initial: char) -> String {
    format!("player-{}@example.net", initial.to_ascii_lowercase())
}

pub fn password(initial: char) -> String {
    format!("pw-secret-{initial}")
}

/// A game on one judge, played by mail.
pub struct Played<'j> {
    pub judge: &'j mut TestJudge,
    pub name: String,
}

impl<'j> Played<'j> {
    /// `name` created by GM and joined by the seven: S1901M is current.
    pub fn start(judge: &'j mut TestJudge, name: &str) -> Played<'j> {
        let r = judge.mail(GM, &format!("CREATE ?{name} {GM_PASSWORD}"));
        assert!(!r[0].subject.contains("[Error Flag]"), "{}", dump(&r));
        for p in SEVEN.chars() {
            let body = format!("SIGNON ?{name} {}\nSET PREFERENCE {p}", password(p));
            let r = judge.mail(&address(p), &body);
            assert!(!r[0].subject.contains("[Error Flag]"), "{}", dump(&r));
        }
        Played {
            judge,
            name: name.to_string(),
        }
    }

    /// A mail from power `p` (signed on) with `lines`; its reply must
    /// carry no error.
    pub fn power(&mut self, p: char, lines: &str) -> Vec<Sent> {
        let body = format!("SIGNON {p}{} {}\n{lines}", self.name, password(p));
        let r = self.judge.mail(&address(p), &body);
        assert!(!r[0].subject.contains("[Error Flag]"), "{}", dump(&r));
        r
    }

    /// A mail from the Master (signed on) with `lines`.
    pub fn master(&mut self, lines: &str) -> Vec<Sent> {
        let body = format!("SIGNON M{} {GM_PASSWORD}\n{lines}", self.name);
        let r = self.judge.mail(GM, &body);
        assert!(!r[0].subject.contains("[Error Flag]"), "{}", dump(&r));
        r
    }

    /// The game's folder in the web archive.
    pub fn folder(&self) -> PathBuf {
        self.judge.dir.join("var/www").join(&self.name)
    }

    /// A file of the game's folder, as text.
    pub fn page(&self, file: &str) -> String {
        let path = self.folder().join(file);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// Plays S1901M (France to Spain, Germany and France bouncing in
    /// Burgundy), F1901M (holds: France takes Spain) and W1901A (France
    /// builds an army in Marseilles): S1902M is current.
    pub fn play_first_year(&mut self) {
        self.power('F', "A Mar - Spa\nA Par - Bur");
        self.power('G', "A Mun - Bur");
        self.master("PROCESS S1901M");
        self.master("PROCESS F1901M");
        self.power('F', "BUILD A Mar");
        self.master("PROCESS W1901A");
    }

    /// `judge run --once` at the judge's clock; it must succeed.
    pub fn run_once(&self) -> Run {
        let run = self
            .judge
            .run(&["run", "--once", "--now", &self.judge.now.clone()], b"");
        assert!(run.ok, "judge run --once failed: {}", run.stderr);
        run
    }
}
