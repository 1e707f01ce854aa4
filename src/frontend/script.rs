//! A mail's text as a script of commands, one per line, in the classic
//! judges' language. Reading is separate from doing: this file only says
//! what each line asks for.

use crate::say;

/// Who a `SIGNON` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignOnAs {
    /// `SIGNON ?game`: join a forming game.
    Join,
    /// `SIGNON Fgame`: a power, by its initial (or, for a newcomer, the
    /// power taken over).
    Power(char),
    /// `SIGNON Mgame`: the game's Master.
    Master,
    /// `SIGNON Ogame`: an observer.
    Observer,
}

/// Where a press message ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PressEnd {
    /// At its ENDPRESS line.
    EndPress,
    /// No ENDPRESS: at the end of the mail (or SIGNOFF).
    MailEnd,
    /// No ENDPRESS: before a line that holds a password (a sign-on, SET
    /// PASSWORD, ...), which is read as usual; the line, masked.
    Before(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Help,
    Get(String),
    /// GET MAP [game] [phase]: the picture of a phase (or the current
    /// position) of the signed-on game, or of the game named.
    GetMap {
        game: Option<String>,
        phase: Option<String>,
    },
    List(Option<String>),
    History {
        game: String,
        from: Option<String>,
        to: Option<String>,
    },
    Summary(String),
    Version,
    /// CONFIRM <token>: the address the token was sent to wants mail.
    Confirm {
        token: String,
    },
    Create {
        game: String,
        password: String,
        variant: Option<String>,
    },
    SignOn {
        who: SignOnAs,
        game: String,
        password: String,
    },
    Observe {
        game: String,
        password: String,
    },
    /// `UNOBSERVE <game>`: stop observing; no password (a forged OBSERVE
    /// may have set one the address's owner does not know).
    Unobserve {
        game: String,
    },
    /// `SET <what> <rest>`: the words after SET, upper-cased keyword first.
    Set {
        what: String,
        rest: String,
    },
    Press {
        to: Option<String>,
        grey: Option<bool>,
        body: Vec<String>,
        end: PressEnd,
    },
    /// `BROADCAST [GREY|WHITE]`: press to the whole game.
    Broadcast {
        grey: Option<bool>,
        body: Vec<String>,
        end: PressEnd,
    },
    /// An njudge form with lines it held back: `PHASE` (orders given
    /// ahead, stored for a later phase, or read as usual when it names the
    /// current one), or one this judge does not offer (`IF`/`ELSE`/`ENDIF`,
    /// `POSTAL PRESS`, ...), whose lines are never applied.
    NotOffered {
        form: Njudge,
        held: Vec<String>,
    },
    Resign,
    Clear,
    Process(Option<String>),
    Predict,
    Pause,
    Resume,
    Terminate,
    Rollback(Option<String>),
    Eject(String),
    Become(String),
    Start,
    /// A line that is no command: orders, if someone is signed on as a power.
    Other(String),
    /// A command word with the wrong arguments: what it should look like.
    Malformed {
        usage: String,
    },
}

/// The njudge forms the judge recognises: `PHASE`, and those it does not
/// offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Njudge {
    /// `PHASE <phase>`: the orders under it (and `CLEAR`) are for a later
    /// phase.
    Phase,
    /// `IF <condition>` (or `ELSE`): conditional orders, up to `ENDIF`.
    Conditional,
    /// `ENDIF` with no `IF` open.
    EndIf,
    /// `POSTAL PRESS`: press published with the next results.
    PostalPress,
    /// `WHOIS <address>`: who plays behind an address.
    Whois,
    /// `REGISTER`, its lines up to `END`: njudge's registration.
    Register,
    /// `SEND` with no file, or too many words: njudge's other word for GET.
    Send,
    /// `DIARY [RECORD]` and its text up to ENDPRESS, or `DIARY LIST|READ|
    /// DELETE`: njudge's private diary.
    Diary,
    /// `SET COMMENT BEGIN` and the rest of the mail: njudge's long comment.
    LongComment,
    /// `I AM ALSO <address>` (`IAMALSO`): njudge's second address.
    AmAlso,
    /// `INFO PLAYER <address>`, `GET DEDICATION`: njudge's player records.
    PlayerRecord,
    /// `FORCE BEGIN`: start a game short of players.
    ForceBegin,
    /// `UNSTART`: back to before the powers were assigned.
    Unstart,
    /// `PROMOTE <address>`: an observer made a second Master.
    Promote,
    /// `BECOME MASTER`: a sole player made the Master.
    BecomeMaster,
    /// `MAP <game>`: njudge's PostScript map.
    Map,
    /// `LIST FULL`: every game with its players.
    ListFull,
    /// `PRESS ... FAKE ...`: press that names other recipients than its
    /// true ones; its text, never sent.
    FakePress,
}

impl Njudge {
    /// Whether the orders after this line belong to it (and are held back).
    fn holds_orders(self) -> bool {
        matches!(self, Njudge::Phase | Njudge::Conditional)
    }
}

/// One command and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number in the mail's text.
    pub number: usize,
    /// The line as written (for a press block, its first line).
    pub text: String,
    pub command: Command,
}

impl Line {
    /// The line as it may be echoed back: every word that may be a
    /// password masked, whether the command was understood or not
    /// (`SIGNON Fg1 my secret phrase` is malformed, and still masked).
    pub fn echo(&self) -> String {
        mask_passwords(&self.text)
    }
}

/// Masks what follows the words that name a password's place: anything
/// after `SIGNON <id>`, `CREATE ?<game>`, `OBSERVE <game>` (or `WATCH`), `REGISTER`
/// and `SET PASSWORD`.
pub fn mask_passwords(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some(kept) = password_place(&words) else {
        return text.to_string();
    };
    if words.len() <= kept {
        return words.join(" ");
    }
    format!("{} ****", words[..kept].join(" "))
}

/// The words of `text` where a password may stand: those
/// [`mask_passwords`] masks.
pub fn password_words(text: &str) -> Vec<&str> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match password_place(&words) {
        Some(kept) if kept < words.len() => words[kept..].to_vec(),
        _ => Vec::new(),
    }
}

/// How many words of a line come before where a password may stand; None
/// when no password stands in it.
fn password_place(words: &[&str]) -> Option<usize> {
    let first = |n: usize| words.get(n).map(|w| w.to_ascii_uppercase());
    match first(0).as_deref() {
        Some("SIGNON" | "CREATE" | "OBSERVE" | "WATCH" | "UNOBSERVE") => Some(2),
        Some("SIGN") if first(1).as_deref() == Some("ON") => Some(3),
        Some("SET") if first(1).as_deref() == Some("PASSWORD") => Some(2),
        Some("REGISTER" | "CONFIRM") => Some(1),
        _ => None,
    }
}

/// Reads the mail's lines into commands. Blank lines between commands are
/// skipped; inside press they are kept. The orders under an njudge
/// `PHASE` or `IF` are held back in that line's command (up to `ENDIF`,
/// the next sign-on or the end of the mail), never read as orders.
pub fn read_script(lines: &[String]) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    // The line (in `out`) whose block of orders is open.
    let mut open: Option<usize> = None;
    let mut i = 0;
    while i < lines.len() {
        let text = lines[i].trim();
        let number = i + 1;
        i += 1;
        if text.is_empty() {
            continue;
        }
        let (command, next) = read_line(lines, i, text);
        i = next;
        if let Some(b) = open {
            match held_back(&mut out[b], &command, text) {
                Held::Kept => continue,
                Held::Closed => {
                    open = None;
                    continue;
                }
                Held::Closes => open = None,
                Held::Passes => {}
            }
        }
        if matches!(&command, Command::NotOffered { form, .. } if form.holds_orders()) {
            open = Some(out.len());
        }
        if let Some(settings) = several_settings(text) {
            // njudge's SET GREY, PARTIAL: one line, several settings.
            for one in settings {
                let args: Vec<&str> = one.split_whitespace().skip(1).collect();
                out.push(Line {
                    number,
                    command: set(&args),
                    text: one,
                });
            }
            continue;
        }
        out.push(Line {
            number,
            text: text.to_string(),
            command,
        });
    }
    out
}

/// The words that begin a setting after SET (the judge's and njudge's):
/// after a comma, one begins another setting of the same line.
const SETTING_WORDS: [&str; 44] = [
    "WAIT",
    "NOWAIT",
    "ABSENCE",
    "NOABSENCE",
    "HOLIDAY",
    "VACATION",
    "DRAW",
    "NODRAW",
    "CONCEDE",
    "NOCONCEDE",
    "MAPS",
    "ZONE",
    "DEADLINE",
    "GRACE",
    "START",
    "MOVE",
    "MOVES",
    "RETREAT",
    "ADJUST",
    "BUILDS",
    "NMR",
    "NONMR",
    "CD",
    "NOCD",
    "WHITE",
    "GREY",
    "GRAY",
    "WHITE/GREY",
    "GREY/WHITE",
    "PRESS",
    "NOPRESS",
    "PARTIAL",
    "NOPARTIAL",
    "OBSERVER",
    "DIAS",
    "NODIAS",
    "TAKEOVER",
    "PRIVATE",
    "PUBLIC",
    "FAKE",
    "NOFAKE",
    "NO",
    "STRICT",
    "AUTO",
];

/// `SET GREY, PARTIAL FAKES BROADCAST` as its settings (`SET GREY`, `SET
/// PARTIAL FAKES BROADCAST`), when a comma is followed by a setting's
/// word; None for one setting (a comma inside a date or a list of powers
/// stays in it; a password or address is never split).
fn several_settings(text: &str) -> Option<Vec<String>> {
    let (keyword, rest) = text.split_once(char::is_whitespace)?;
    let first = rest.split_whitespace().next()?.to_ascii_uppercase();
    if !keyword.eq_ignore_ascii_case("SET") || ["PASSWORD", "ADDRESS"].contains(&first.as_str()) {
        return None;
    }
    let mut settings: Vec<String> = Vec::new();
    for piece in rest.split(',') {
        let word = piece.split_whitespace().next().map(str::to_ascii_uppercase);
        let starts = word.is_some_and(|w| SETTING_WORDS.contains(&w.as_str()));
        match settings.last_mut() {
            Some(last) if !starts => {
                last.push(',');
                last.push_str(piece);
            }
            _ => settings.push(piece.trim().to_string()),
        }
    }
    (settings.len() > 1).then(|| {
        settings
            .iter()
            .map(|p| format!("SET {}", p.trim()))
            .collect()
    })
}

/// What a line does to an open `PHASE` or `IF` block.
enum Held {
    /// Held back in the block (orders, or `ELSE` within `IF`).
    Kept,
    /// `ENDIF`: the block ends with it.
    Closed,
    /// A sign-on or another block: the block ends before it.
    Closes,
    /// Another command: run as usual, the block stays open.
    Passes,
}

fn held_back(block: &mut Line, command: &Command, text: &str) -> Held {
    let Command::NotOffered { form, held } = &mut block.command else {
        return Held::Closes;
    };
    match command {
        Command::Other(_) => {
            held.push(text.to_string());
            Held::Kept
        }
        Command::NotOffered {
            form: Njudge::EndIf,
            ..
        } if *form == Njudge::Conditional => Held::Closed,
        Command::NotOffered {
            form: Njudge::Conditional,
            ..
        } if *form == Njudge::Conditional && is_else(text) => {
            held.push(text.to_string());
            Held::Kept
        }
        // CLEAR under PHASE clears that phase's pre-orders, not this one's
        // orders.
        Command::Clear if *form == Njudge::Phase => {
            held.push(text.to_string());
            Held::Kept
        }
        Command::SignOn { .. } | Command::Observe { .. } | Command::NotOffered { .. } => {
            Held::Closes
        }
        _ => Held::Passes,
    }
}

fn is_else(text: &str) -> bool {
    text.split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("ELSE"))
}

/// The command a line starts (`i` is the index after it), and the index
/// of the line after it: press takes the lines of its message.
fn read_line(lines: &[String], i: usize, text: &str) -> (Command, usize) {
    let words: Vec<&str> = text.split_whitespace().collect();
    let keyword = words[0].to_ascii_uppercase();
    let second = words.get(1).map(|w| w.to_ascii_uppercase());
    match (keyword.as_str(), second.as_deref()) {
        ("PRESS" | "BROADCAST", _) => {
            let (body, end, next) = press_body(lines, i);
            let command = if keyword == "BROADCAST" {
                broadcast_header(&words[1..], body, end)
            } else {
                press_header(&words[1..], body, end, press_usage)
            };
            (command, next)
        }
        ("REGISTER", _) => {
            let (held, _, next) = block_body(lines, i, ends_register);
            let form = Njudge::Register;
            (Command::NotOffered { form, held }, next)
        }
        ("POSTAL", Some("PRESS")) => {
            let (held, _, next) = press_body(lines, i);
            let form = Njudge::PostalPress;
            (Command::NotOffered { form, held }, next)
        }
        ("SIGN", Some("ON")) => (read_command("SIGNON", &words[2..], text), i),
        _ => read_njudge_block(lines, i, &words)
            .unwrap_or_else(|| (read_command(&keyword, &words[1..], text), i)),
    }
}

/// njudge's forms of more than one word, and those that take the lines
/// after them (a diary's text, a long comment), so that none of it is read
/// as orders or commands.
fn read_njudge_block(lines: &[String], i: usize, words: &[&str]) -> Option<(Command, usize)> {
    let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
    let upper: Vec<&str> = upper.iter().map(String::as_str).collect();
    let form = match upper[..] {
        ["DIARY"] | ["DIARY", "RECORD", ..] => {
            let (held, _, after) = press_body(lines, i);
            return Some((not_offered(Njudge::Diary, held), after));
        }
        ["DIARY", ..] => Njudge::Diary,
        ["SET", "COMMENT", "BEGIN"] => {
            // The comment runs to SIGNOFF, where the mail's text already ends.
            let held = lines[i..]
                .iter()
                .map(|l| l.trim_end().to_string())
                .collect();
            return Some((not_offered(Njudge::LongComment, held), lines.len()));
        }
        ["POSTALPRESS"] => {
            let (held, _, after) = press_body(lines, i);
            return Some((not_offered(Njudge::PostalPress, held), after));
        }
        ["I", "AM", "ALSO", ..] | ["IAMALSO", ..] => Njudge::AmAlso,
        ["INFO", "PLAYER", ..] | ["INFOPLAYER", ..] | ["GET", "DEDICATION"] => Njudge::PlayerRecord,
        ["FORCE", "BEGIN"] => Njudge::ForceBegin,
        ["BECOME", "MASTER"] => Njudge::BecomeMaster,
        ["LIST", "FULL"] => Njudge::ListFull,
        ["WHO", ..] | ["WHOIS", ..] => Njudge::Whois,
        _ => return None,
    };
    Some((not_offered(form, Vec::new()), i))
}

fn not_offered(form: Njudge, held: Vec<String>) -> Command {
    Command::NotOffered { form, held }
}

/// The lines of a press body from `start` up to ENDPRESS (which is
/// consumed). Returns the body, where it ended, and the index after it.
/// Without ENDPRESS the body runs to the end of the mail (njudge's rule),
/// but never over a line that holds a password (the words
/// [`password_words`] finds, as the stored mail's redaction does): the
/// body ends before it, and it is read as usual.
fn press_body(lines: &[String], start: usize) -> (Vec<String>, PressEnd, usize) {
    let (body, closed, next) = block_body(lines, start, ends_press);
    if closed {
        return (body, PressEnd::EndPress, next);
    }
    let secret = (start..lines.len()).find(|&k| !password_words(&lines[k]).is_empty());
    match secret {
        None => (body, PressEnd::MailEnd, next),
        Some(k) => {
            let (body, _, _) = block_body(&lines[..k], start, ends_press);
            (body, PressEnd::Before(mask_passwords(lines[k].trim())), k)
        }
    }
}

/// The lines from `start` up to the one `ends` (consumed), as
/// [`press_body`].
fn block_body(
    lines: &[String],
    start: usize,
    ends: fn(&str) -> bool,
) -> (Vec<String>, bool, usize) {
    let mut body = Vec::new();
    for (k, line) in lines.iter().enumerate().skip(start) {
        if ends(line) {
            trim_blank_ends(&mut body);
            return (body, true, k + 1);
        }
        body.push(line.trim_end().to_string());
    }
    trim_blank_ends(&mut body);
    (body, false, lines.len())
}

/// `ENDPRESS`, and njudge's `ENDBROADCAST`, `END PRESS`, `END BROADCAST`.
fn ends_press(line: &str) -> bool {
    let words: Vec<String> = line
        .split_whitespace()
        .map(|w| w.to_ascii_uppercase())
        .collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    matches!(
        words[..],
        ["ENDPRESS" | "ENDBROADCAST"] | ["END", "PRESS" | "BROADCAST"]
    )
}

/// `END` (or `ENDREGISTER`) closes njudge's REGISTER block.
fn ends_register(line: &str) -> bool {
    let word = line.trim().to_ascii_uppercase();
    word == "END" || word == "ENDREGISTER"
}

fn trim_blank_ends(body: &mut Vec<String>) {
    while body.last().is_some_and(|l| l.trim().is_empty()) {
        body.pop();
    }
    let lead = body.iter().take_while(|l| l.trim().is_empty()).count();
    body.drain(..lead);
}

fn press_usage() -> String {
    say!("script.usage_press")
}

fn broadcast_usage() -> String {
    say!("script.usage_broadcast")
}

/// `BROADCAST [GREY|WHITE]` to the whole game; `BROADCAST TO <initials>`
/// (njudge) is press to those powers only.
fn broadcast_header(words: &[&str], body: Vec<String>, end: PressEnd) -> Command {
    match press_header(words, body, end, broadcast_usage) {
        Command::Press {
            to: None,
            grey,
            body,
            end,
        } => Command::Broadcast { grey, body, end },
        other => other,
    }
}

/// `PRESS [TO <initials>] [GREY|WHITE]`, in either order.
fn press_header(
    words: &[&str],
    body: Vec<String>,
    end: PressEnd,
    usage: fn() -> String,
) -> Command {
    let mut to = None;
    let mut grey = None;
    let mut k = 0;
    while k < words.len() {
        match words[k].to_ascii_uppercase().as_str() {
            "TO" if k + 1 < words.len() => {
                let (list, used) = press_list(&words[k + 1..]);
                to = Some(list);
                k += used;
            }
            "GREY" | "GRAY" | "ANONYMOUS" | "ANONYMOUSLY" => grey = Some(true),
            "WHITE" | "UNANONYMOUS" | "UNANONYMOUSLY" => grey = Some(false),
            // njudge's fake press: never sent here, its text not read.
            "FAKE" => return not_offered(Njudge::FakePress, body),
            // Not faked: press as usual here.
            "NOFAKE"
                if words
                    .get(k + 1)
                    .is_some_and(|w| w.eq_ignore_ascii_case("BROADCAST")) =>
            {
                k += 1
            }
            "NOFAKE" => {}
            // njudge's +EG (to E and G) and -EG (to all but E and G).
            word if word.len() > 1 && (word.starts_with('+') || word.starts_with('-')) => {
                to = Some(press_list(&[word]).0);
            }
            _ => return Command::Malformed { usage: usage() },
        }
        k += 1;
    }
    Command::Press {
        to,
        grey,
        body,
        end,
    }
}

/// The recipients after `TO`, and how many words they take: `FG`, `ALL`,
/// or njudge's `ALL BUT <initials>` (kept as one list, `ALL BUT EG`).
fn press_list(words: &[&str]) -> (String, usize) {
    let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
    match upper.as_slice() {
        [all, but, list, ..] if all == "ALL" && but == "BUT" => (format!("ALL BUT {list}"), 3),
        [all, but] if all == "ALL" && but == "BUT" => ("ALL BUT".to_string(), 2),
        [list, ..] => match (list.strip_prefix('+'), list.strip_prefix('-')) {
            (Some(to), _) => (to.to_string(), 1),
            (_, Some(but)) => (format!("ALL BUT {but}"), 1),
            _ => (list.clone(), 1),
        },
        [] => (String::new(), 0),
    }
}

/// A command line by its keyword and the number of its words; a line no
/// command reads is taken as orders.
fn read_command(keyword: &str, args: &[&str], text: &str) -> Command {
    read_query(keyword, args)
        .or_else(|| read_player(keyword, args))
        .or_else(|| read_master(keyword, args))
        .unwrap_or_else(|| Command::Other(text.to_string()))
}

/// The commands that only ask: HELP, GET, LIST, HISTORY, SUMMARY, VERSION.
fn read_query(keyword: &str, args: &[&str]) -> Option<Command> {
    let arg = |k: usize| args.get(k).map(|s| s.to_string());
    let command = match (keyword, args.len()) {
        ("HELP", _) => Command::Help,
        ("GET", 1) if args[0].eq_ignore_ascii_case("map") => Command::GetMap {
            game: None,
            phase: None,
        },
        ("GET", 2 | 3) if args[0].eq_ignore_ascii_case("map") => Command::GetMap {
            game: arg(1),
            phase: arg(2),
        },
        ("GET", 1) => Command::Get(args[0].to_ascii_lowercase()),
        ("GET", _) => Command::Malformed {
            usage: say!("script.usage_get"),
        },
        ("LIST", 0) => Command::List(None),
        ("LIST", 1) => Command::List(arg(0)),
        ("LIST", _) => Command::Malformed {
            usage: say!("script.usage_list"),
        },
        // Without a game: the signed-on game's, as njudge does.
        ("HISTORY", _) => history(args),
        ("SUMMARY", 0) => Command::Summary(String::new()),
        ("SUMMARY", 1) => Command::Summary(args[0].to_string()),
        ("SUMMARY", _) => Command::Malformed {
            usage: say!("script.usage_summary"),
        },
        ("VERSION", _) => Command::Version,
        ("CONFIRM", 1) => Command::Confirm {
            token: args[0].to_ascii_lowercase(),
        },
        ("CONFIRM", _) => Command::Malformed {
            usage: say!("script.usage_confirm"),
        },
        // njudge's other word for GET.
        ("SEND", 1) => Command::Get(args[0].to_ascii_lowercase()),
        ("SEND", 2) if args[0].eq_ignore_ascii_case("ME") => {
            Command::Get(args[1].to_ascii_lowercase())
        }
        ("MAP", _) => not_offered(Njudge::Map, Vec::new()),
        _ => return None,
    };
    Some(command)
}

/// The commands that create, join, sign on, set and leave: CREATE, SIGNON,
/// OBSERVE, UNOBSERVE, SET, RESIGN, and CLEAR (of orders).
fn read_player(keyword: &str, args: &[&str]) -> Option<Command> {
    let arg = |k: usize| args.get(k).map(|s| s.to_string());
    let command = match (keyword, args.len()) {
        ("CREATE", 2 | 3) if args[0].starts_with('?') && args[0].len() > 1 => Command::Create {
            game: args[0][1..].to_string(),
            password: args[1].to_string(),
            variant: arg(2).map(|v| v.to_ascii_lowercase()),
        },
        ("CREATE", _) => Command::Malformed {
            usage: say!("script.usage_create"),
        },
        ("SIGNON", 2) => sign_on(args[0], args[1]),
        ("SIGNON", _) => Command::Malformed {
            usage: say!("script.usage_signon"),
        },
        // WATCH is njudge's other word for OBSERVE.
        ("OBSERVE" | "WATCH", 2) => Command::Observe {
            game: args[0].to_string(),
            password: args[1].to_string(),
        },
        ("OBSERVE", _) => Command::Malformed {
            usage: say!("script.usage_observe"),
        },
        ("UNOBSERVE", 1) => Command::Unobserve {
            game: args[0].to_string(),
        },
        ("UNOBSERVE", _) => Command::Malformed {
            usage: say!("script.usage_unobserve"),
        },
        ("SET", n) if n >= 1 => set(args),
        ("SET", _) => Command::Malformed {
            usage: say!("script.usage_set"),
        },
        ("RESIGN" | "WITHDRAW", 0) => Command::Resign,
        // njudge's Master resigns a power with RESIGN <power>: EJECT here.
        ("RESIGN", 1) => Command::Eject(args[0].to_string()),
        ("CLEAR", 0) => Command::Clear,
        _ => return None,
    };
    Some(command)
}

/// The Master's commands, a stray ENDPRESS, and the njudge forms the
/// judge does not offer.
fn read_master(keyword: &str, args: &[&str]) -> Option<Command> {
    let command = match (keyword, args.len()) {
        ("PROCESS", 0) => Command::Process(None),
        // A phase in words too: PROCESS fall 1901 retreat.
        ("PROCESS", _) => Command::Process(Some(args.join(" "))),
        ("PREDICT", 0) => Command::Predict,
        ("PAUSE", 0) => Command::Pause,
        ("RESUME", 0) => Command::Resume,
        ("TERMINATE", 0) => Command::Terminate,
        ("ROLLBACK", 0) => Command::Rollback(None),
        ("ROLLBACK", _) => Command::Rollback(Some(args.join(" "))),
        // njudge's EJECT <address> (an observer): powers only here.
        ("EJECT", 1) if args[0].contains('@') => Command::Malformed {
            usage: say!("script.usage_eject_address"),
        },
        ("EJECT", 1) => Command::Eject(args[0].to_string()),
        ("EJECT", _) => Command::Malformed {
            usage: say!("script.usage_eject"),
        },
        ("BECOME", 1) => Command::Become(args[0].to_string()),
        ("BECOME", _) => Command::Malformed {
            usage: say!("script.usage_become"),
        },
        ("START", 0) => Command::Start,
        ("UNSTART", 0) => not_offered(Njudge::Unstart, Vec::new()),
        ("PROMOTE", _) => not_offered(Njudge::Promote, Vec::new()),
        ("ENDPRESS" | "ENDBROADCAST", 0) => Command::Malformed {
            usage: say!("script.no_press_open"),
        },
        ("END", 1) if ["PRESS", "BROADCAST"].contains(&args[0].to_ascii_uppercase().as_str()) => {
            Command::Malformed {
                usage: say!("script.no_press_open"),
            }
        }
        _ => return read_njudge(keyword, args),
    };
    Some(command)
}

/// `PHASE <phase>`, `IF <condition>`, `ELSE`, `ENDIF`: njudge's forms for
/// pre-orders and conditional orders.
fn read_njudge(keyword: &str, args: &[&str]) -> Option<Command> {
    let form = match (keyword, args.len()) {
        ("PHASE", _) => Njudge::Phase,
        ("IF", _) => Njudge::Conditional,
        ("ELSE", _) => Njudge::Conditional,
        ("ENDIF", 0) => Njudge::EndIf,
        ("SEND", _) => Njudge::Send,
        _ => return None,
    };
    Some(Command::NotOffered {
        form,
        held: Vec::new(),
    })
}

/// `SIGNON Fgame pw`, `SIGNON ?game pw`, `SIGNON Mgame pw`, `SIGNON Ogame pw`.
fn sign_on(who_game: &str, password: &str) -> Command {
    let mut chars = who_game.chars();
    let Some(first) = chars.next() else {
        return Command::Malformed {
            usage: say!("script.usage_signon_empty"),
        };
    };
    let game: String = chars.collect();
    if first == '?' && game.is_empty() {
        return Command::Malformed {
            usage: say!("script.usage_join_unnamed"),
        };
    }
    if game.is_empty() {
        return Command::Malformed {
            usage: say!("script.usage_signon_no_game"),
        };
    }
    let who = match first.to_ascii_uppercase() {
        '?' => SignOnAs::Join,
        'M' => SignOnAs::Master,
        'O' => SignOnAs::Observer,
        c => SignOnAs::Power(c),
    };
    Command::SignOn {
        who,
        game,
        password: password.to_string(),
    }
}

fn history_usage() -> String {
    say!("script.usage_history")
}

fn history(args: &[&str]) -> Command {
    let is_word = |w: &&str| {
        ["FROM", "TO", "LINES", "EXCLSTART", "EXCLEND", "BROAD"]
            .contains(&w.to_ascii_uppercase().as_str())
    };
    // No game named: the signed-on game's.
    let (game, mut k) = match args.first() {
        Some(first) if !is_word(first) => (first.to_string(), 1),
        _ => (String::new(), 0),
    };
    let mut from = None;
    let mut to = None;
    let mut current: Option<&mut Option<String>> = None;
    let mut words: Vec<String> = Vec::new();
    let flush = |slot: Option<&mut Option<String>>, words: &mut Vec<String>| {
        if let Some(slot) = slot {
            *slot = Some(words.join(" "));
        }
        words.clear();
    };
    while k < args.len() {
        match args[k].to_ascii_uppercase().as_str() {
            "FROM" => {
                flush(current.take(), &mut words);
                current = Some(&mut from);
            }
            "TO" => {
                flush(current.take(), &mut words);
                current = Some(&mut to);
            }
            "LINES" | "EXCLSTART" | "EXCLEND" | "BROAD" => {
                return Command::Malformed {
                    usage: history_usage(),
                }
            }
            _ if current.is_some() => words.push(args[k].to_string()),
            _ => {
                return Command::Malformed {
                    usage: history_usage(),
                }
            }
        }
        k += 1;
    }
    flush(current.take(), &mut words);
    Command::History { game, from, to }
}

fn set(args: &[&str]) -> Command {
    let mut what = args[0].to_ascii_uppercase();
    let mut rest_from = 1;
    // Two-word settings: NO PRESS, NO PARTIAL.
    if what == "NO" {
        if let Some(next) = args.get(1) {
            what = format!("NO{}", next.to_ascii_uppercase());
            rest_from = 2;
        }
    }
    let mut rest: Vec<&str> = args[rest_from.min(args.len())..].to_vec();
    let upper: Vec<String> = rest.iter().map(|w| w.to_ascii_uppercase()).collect();
    // njudge's SET GRACE PRESS is no grace date, and SET PARTIAL FAKES
    // BROADCAST (or MAY BE FAKED) no SET PARTIAL: both are answered.
    if what == "GRACE" && upper == ["PRESS"] {
        what = "GRACEPRESS".to_string();
        rest.clear();
    }
    if what == "PARTIAL"
        && upper
            .iter()
            .any(|w| ["FAKES", "MAY", "FAKE"].contains(&w.as_str()))
    {
        what = "FAKE".to_string();
    }
    // njudge's press settings take an optional PRESS: SET GREY PRESS,
    // SET NO PARTIAL PRESS, SET OBSERVER WHITE PRESS.
    let press_setting = [
        "WHITE",
        "GREY",
        "GRAY",
        "WHITE/GREY",
        "GREY/WHITE",
        "NOWHITE",
        "NOGREY",
        "PARTIAL",
        "NOPARTIAL",
        "OBSERVER",
    ];
    if press_setting.contains(&what.as_str())
        && rest.last().is_some_and(|w| w.eq_ignore_ascii_case("PRESS"))
    {
        rest.pop();
    }
    Command::Set {
        what,
        rest: rest.join(" "),
    }
}
