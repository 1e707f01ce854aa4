//! One mail's commands, run in order inside the caller's transaction.
//! A `SIGNON` decides who the following lines speak for; each command
//! lives in `cmd/`.

use argon2::password_hash::rand_core::{OsRng, RngCore};
use std::time::{Duration, UNIX_EPOCH};

use super::cmd;
use super::credentials::CredentialCache;
use super::reply::Reply;
use super::script::{mask_passwords, password_words, read_script, Command, Line};
use crate::config::Config;
use crate::engine::map::Power;
use crate::game::intake::{self, Tx};
use crate::game::observers::Observing;
use crate::game::{lookup, Game, Seat, StoreError};
use crate::mail::{new_message_id, Address, Incoming, Letter, PicturePart, Renderer};
use crate::report::{title, Templates};
use crate::say;

/// Who the lines after a sign-on speak for.
// One per mail: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum Signed {
    /// A power of a running game (or a forming game's player).
    Player {
        game: Game,
        seat: Seat,
        power: Option<Power>,
    },
    Master {
        game: Game,
    },
    Observer {
        game: Game,
    },
}

impl Signed {
    /// Who this is, for [`Session::spoke_for`]: a seat's player, or a
    /// game's Master or observer.
    fn speaker(&self) -> (char, i64) {
        match self {
            Signed::Player { seat, .. } => ('P', seat.id),
            Signed::Master { game } => ('M', game.id),
            Signed::Observer { game } => ('O', game.id),
        }
    }

    pub fn game(&self) -> &Game {
        match self {
            Signed::Player { game, .. } | Signed::Master { game } | Signed::Observer { game } => {
                game
            }
        }
    }
}

/// A mail to send, before rendering.
#[derive(Debug, Clone)]
pub struct Outgoing {
    pub to: Vec<String>,
    pub subject: String,
    pub body: String,
    pub game_id: Option<i64>,
    /// The Message-ID this answers (for In-Reply-To/References).
    pub answers: Option<(String, Vec<String>)>,
    /// The results of this phase of `game_id`: the map of it is attached
    /// (as `[maps]` says, unless the recipient SET MAPS OFF), drawn when
    /// the mail is sent.
    pub results_of: Option<String>,
    /// Pictures asked for (GET MAP), attached to every copy.
    pub pictures: Vec<PicturePart>,
    /// The notice that the Master ended `game_id` (TERMINATE): the game's
    /// animated summary is attached, as to the results that end a game
    /// (as `[maps]` says, unless the recipient SET MAPS OFF).
    pub ends_game: bool,
}

impl Outgoing {
    /// Renders and queues the mail: one queued message per recipient, so
    /// that no player sees another's address.
    pub fn queue(&self, tx: &Tx<'_>, config: &Config, now: i64) -> Result<(), StoreError> {
        let from = Address::parse(&config.judge.address)
            .map_err(|e| StoreError::Setup(format!("judge address: {e}")))?
            .with_name(&config.judge.name);
        let (pictures, opted_out) = self.pictures(tx, config)?;
        // Observers are told in every mail of the game how to stop: anyone
        // can make an address an observer.
        let game = match self.game_id {
            Some(id) => crate::game::game_by_id(tx, id)?,
            None => None,
        };
        let readers = Readers::of(tx, game.as_ref())?;
        let mut renderer = Renderer::default();
        let (in_reply_to, references) = self.threading();
        let mut seen = Vec::new();
        for to in &self.to {
            let Ok(addr) = Address::parse(to) else {
                continue;
            };
            let key = addr.addr_spec().to_ascii_lowercase();
            if seen.contains(&key) {
                continue;
            }
            let letter = Letter {
                from: from.clone(),
                to: vec![addr.clone()],
                subject: self.subject.clone(),
                body: self.body_for(tx, &readers, &addr)?,
                in_reply_to: in_reply_to.clone(),
                references: references.clone(),
                auto_replied: self.answers.is_some(),
                message_id: new_message_id(&random_token(), from.domain()),
                date: UNIX_EPOCH + Duration::from_secs(u64::try_from(now).unwrap_or(0)),
                pictures: if opted_out.contains(&key) {
                    Vec::new()
                } else {
                    pictures.clone()
                },
            };
            self.queue_letter(tx, &letter, renderer.render(&letter), now)?;
            seen.push(key);
        }
        Ok(())
    }

    /// The pictures to attach, and the addresses (lower-cased) of those
    /// who SET MAPS OFF: a results mail carries the map of its phase.
    fn pictures(
        &self,
        tx: &Tx<'_>,
        config: &Config,
    ) -> Result<(Vec<PicturePart>, Vec<String>), StoreError> {
        let archive = config.web.public_url();
        let archive = archive.as_deref();
        Ok(match (self.game_id, &self.results_of) {
            (Some(game_id), Some(phase)) => (
                crate::game::pictures::results_parts(tx, game_id, phase, &config.maps, archive)?,
                lookup::maps_opted_out(tx, game_id)?,
            ),
            (Some(game_id), None) if self.ends_game => (
                crate::game::pictures::summary_parts(tx, game_id, &config.maps, archive)?,
                lookup::maps_opted_out(tx, game_id)?,
            ),
            _ => (self.pictures.clone(), Vec::new()),
        })
    }

    /// In-Reply-To and References, for a mail that answers one.
    fn threading(&self) -> (Option<String>, Vec<String>) {
        match &self.answers {
            // A mail without a Message-ID: nothing to refer to.
            Some((id, refs)) if id.is_empty() => (None, last_references(refs.clone())),
            Some((id, refs)) => {
                let mut r = refs.clone();
                r.push(id.clone());
                (Some(id.clone()), last_references(r))
            }
            None => (None, Vec::new()),
        }
    }

    /// The text for `to`: an observer of the game is told how to stop; times
    /// are shown in `to`'s zone beside UTC.
    fn body_for(&self, tx: &Tx<'_>, readers: &Readers, to: &Address) -> Result<String, StoreError> {
        let address = to.addr_spec();
        let body = match &readers.game {
            Some((name, observing)) if observing.includes(&address) => {
                with_unobserve_line(&self.body, name)
            }
            _ => self.body.clone(),
        };
        Ok(
            match crate::game::zones::zone_for(tx, readers.zone, &address)? {
                Some(zone) => crate::game::clock::beside_utc(&body, zone),
                None => body,
            },
        )
    }

    fn queue_letter(
        &self,
        tx: &Tx<'_>,
        letter: &Letter,
        raw: Vec<u8>,
        now: i64,
    ) -> Result<(), StoreError> {
        let recipient = letter.to[0].addr_spec();
        intake::queue(
            tx,
            &intake::Queued {
                message_id: &letter.message_id,
                game_id: self.game_id,
                recipient: &recipient,
                subject: &self.subject,
                raw: &raw,
            },
            now,
        )
    }
}

/// What a mail's text depends on besides its recipient, read once for a
/// mail to many: the game's name and who observes it, and the zone of its
/// schedules.
struct Readers {
    game: Option<(String, Observing)>,
    zone: Option<chrono_tz::Tz>,
}

impl Readers {
    fn of(tx: &Tx<'_>, game: Option<&Game>) -> Result<Readers, StoreError> {
        Ok(Readers {
            game: match game {
                Some(game) => Some((game.name.clone(), Observing::of(tx, game.id)?)),
                None => None,
            },
            zone: game.and_then(crate::game::zones::game_zone),
        })
    }
}

/// A token no one can guess (Message-IDs, confirmations).
pub fn random_token() -> String {
    let mut bytes = [0u8; 12];
    OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The state of one mail's run.
pub struct Session<'a> {
    pub tx: &'a Tx<'a>,
    pub config: &'a Config,
    pub templates: &'a Templates,
    pub credentials: &'a mut CredentialCache,
    pub now: i64,
    pub inbound_id: i64,
    pub mail: &'a Incoming,
    pub reply: Reply,
    pub signed: Option<Signed>,
    /// The games whose Master signed on in this mail, with the password:
    /// LIST MINE says who has not ordered in those only.
    pub mastered: Vec<i64>,
    /// Mails other than the reply (press, notices, results).
    pub outgoing: Vec<Outgoing>,
    /// Pictures for the reply (GET MAP).
    pub reply_pictures: Vec<PicturePart>,
    /// Whether orders were given, so the reply ends with the order set.
    pub orders_touched: bool,
    /// The signed-on power's game and phase while order lines follow one
    /// another (read once, not per line); dropped at any other command.
    pub ordering: Option<cmd::orders::Ordering>,
    /// Order lines read, refused, and not read (over the limit).
    pub order_lines: usize,
    pub order_errors: usize,
    pub skipped_order_lines: usize,
    /// The forming games a player joined in this mail: each is started at
    /// the end of the mail if it is full.
    pub joined: Vec<i64>,
    /// The passwords this mail's lines gave (sign-ons, SET PASSWORD): its
    /// press never carries them.
    pub secrets: Vec<String>,
    /// No reply is sent: a sender locked out of a sign-on, already told
    /// so today, is not answered again (the guesser gets no mail stream).
    pub silent: bool,
    /// Whom the mail's lines spoke for, each once (`Signed::speaker`): a
    /// reply about orders goes to a team only when the whole mail spoke
    /// for its power alone.
    spoke_for: Vec<(char, i64)>,
}

impl Session<'_> {
    /// Whether every line of the mail so far spoke for the player of
    /// `seat_id` (no other power, no Master, no observer).
    pub fn spoke_only_for(&self, seat_id: i64) -> bool {
        self.spoke_for == [('P', seat_id)]
    }

    /// The sender's address for replies.
    pub fn sender(&self) -> String {
        self.mail
            .reply_address()
            .map(|a| a.addr_spec())
            .unwrap_or_default()
    }

    pub fn code(&self) -> &str {
        &self.config.judge.code
    }

    /// Queues a mail to be sent with this mail's results.
    pub fn send(&mut self, to: Vec<String>, subject: String, body: String, game_id: Option<i64>) {
        self.outgoing.push(Outgoing {
            to,
            subject,
            body,
            game_id,
            answers: None,
            results_of: None,
            pictures: Vec::new(),
            ends_game: false,
        });
    }

    /// Queues the mails the game layer decided on.
    pub fn send_all(&mut self, mails: Vec<crate::game::GameMail>) {
        self.outgoing.extend(mails.iter().map(Outgoing::from));
    }

    /// Queues the results of `phase` to be sent with this mail's: with
    /// the map of the phase attached.
    pub fn send_results(
        &mut self,
        to: Vec<String>,
        subject: String,
        body: String,
        game_id: i64,
        phase: &str,
    ) {
        self.send(to, subject, body, Some(game_id));
        if let Some(last) = self.outgoing.last_mut() {
            last.results_of = Some(phase.to_string());
        }
    }

    /// `JDG:game - S1901M <what>`.
    pub fn subject(&self, game: &str, phase: Option<&str>, what: &str) -> String {
        crate::report::game_subject(self.code(), game, phase, what)
    }

    pub fn footer(&self) -> String {
        say!("common.footer", name => &self.config.judge.name, code => &self.config.judge.code)
    }
}

/// What a reply to `mail` answers: its Message-ID (none for a made-up id,
/// which is ours alone) and its References.
pub fn answers(mail: &Incoming) -> (String, Vec<String>) {
    let id = if mail.synthetic_id {
        String::new()
    } else {
        mail.message_id.clone()
    };
    (id, mail.references.clone())
}

/// Runs a mail's commands; returns every mail to queue, the reply first.
pub fn run(
    tx: &Tx<'_>,
    config: &Config,
    templates: &Templates,
    credentials: &mut CredentialCache,
    inbound_id: i64,
    mail: &Incoming,
    now: i64,
) -> Result<Vec<Outgoing>, StoreError> {
    let mut s = Session {
        tx,
        config,
        templates,
        credentials,
        now,
        inbound_id,
        mail,
        reply: Reply::default(),
        signed: None,
        mastered: Vec::new(),
        outgoing: Vec::new(),
        reply_pictures: Vec::new(),
        orders_touched: false,
        ordering: None,
        order_lines: 0,
        order_errors: 0,
        skipped_order_lines: 0,
        joined: Vec::new(),
        silent: false,
        secrets: Vec::new(),
        spoke_for: Vec::new(),
    };
    if mail.oversized {
        s.reply
            .refuse_text(say!("session.oversized", size => mail.size,
                                 limit => config.mail.max_bytes));
    } else {
        let lines = read_script(&mail.lines);
        if lines.is_empty() {
            s.reply.refuse_text(say!("session.no_commands"));
        }
        run_lines(&mut s, &lines)?;
        cmd::orders::finish(&mut s)?;
    }
    let subject = reply_subject(&s);
    let body = s.reply.body(&s.footer());
    let mut to = vec![s.sender()];
    to.extend(s.reply.also_to.iter().cloned());
    let game_id = s.signed.as_ref().map(|g| g.game().id);
    intake::record_mails_caused(tx, &s.sender(), mails_caused(tx, &s.outgoing)?, now)?;
    let mut out = Vec::new();
    if !s.silent {
        out.push(Outgoing {
            to,
            subject,
            body,
            game_id,
            answers: Some(answers(mail)),
            results_of: None,
            pictures: std::mem::take(&mut s.reply_pictures),
            ends_game: false,
        });
    }
    out.append(&mut s.outgoing);
    Ok(out)
}

/// `body` with the line that tells an observer of `game` how to stop,
/// before the signature when there is one.
fn with_unobserve_line(body: &str, game: &str) -> String {
    let line = say!("session.observer_stops", game) + "\n";
    match body.rfind("\n-- \n") {
        Some(at) => format!("{}\n{line}{}", &body[..at], &body[at..]),
        None => format!("{body}\n{line}"),
    }
}

/// At most this many ids in a reply's References: the nearest ones are
/// what threads a conversation, and a mail with thousands must not make
/// every answer to it huge.
pub const MAX_REFERENCES: usize = 10;

/// The last [`MAX_REFERENCES`] of `references`.
fn last_references(mut references: Vec<String>) -> Vec<String> {
    let extra = references.len().saturating_sub(MAX_REFERENCES);
    references.drain(..extra);
    references
}

/// At most this many commands other than orders are read from one mail
/// (orders have their own limit).
pub const MAX_COMMANDS: usize = 1000;

/// At most this many commands that hash or check a password (CREATE,
/// SIGNON, OBSERVE, SET PASSWORD) are read from one mail: each costs tens
/// of milliseconds by design.
pub const MAX_PASSWORD_COMMANDS: usize = 10;

/// Runs the mail's commands in order, within the limits above. A failed
/// sign-on ends the mail: what follows was meant for someone the judge
/// could not recognise.
fn run_lines(s: &mut Session<'_>, lines: &[Line]) -> Result<(), StoreError> {
    let mut commands = 0;
    let mut passwords = 0;
    // Information asked for twice in one mail is answered once.
    let mut answered: Vec<String> = Vec::new();
    let mut budget = MailBudget::for_sender(s)?;
    for (k, line) in lines.iter().enumerate() {
        let rest = lines.len() - k - 1;
        let c = &line.command;
        if !matches!(c, Command::Other(_)) {
            commands += 1;
            if commands > MAX_COMMANDS {
                s.reply.refuse_text(say!("session.too_many_commands",
                                         most => MAX_COMMANDS, rest));
                break;
            }
        }
        let password = matches!(c, Command::Create { .. } | Command::SignOn { .. })
            || matches!(c, Command::Observe { .. })
            || matches!(c, Command::Set { what, .. } if what == "PASSWORD");
        if password {
            passwords += 1;
            if passwords > MAX_PASSWORD_COMMANDS {
                s.reply.refuse(
                    line,
                    say!("session.too_many_passwords", most => MAX_PASSWORD_COMMANDS),
                );
                break;
            }
        }
        let info = matches!(
            c,
            Command::Help
                | Command::Get(_)
                | Command::GetMap { .. }
                | Command::List(_)
                | Command::History { .. }
                | Command::Summary(_)
                | Command::Version
        );
        if info {
            let key = line.text.split_whitespace().collect::<Vec<_>>().join(" ");
            let key = key.to_ascii_uppercase();
            if answered.contains(&key) {
                s.reply.ok(line, say!("session.answered_above"));
                continue;
            }
            answered.push(key);
        }
        let given = password_words(&line.text);
        s.secrets.extend(given.iter().map(|w| w.to_string()));
        if !within_mail_budget(s, line, &mut budget, rest)? {
            break;
        }
        let signing_on = matches!(c, Command::SignOn { .. } | Command::Observe { .. });
        if signing_on && s.signed.is_none() {
            if rest > 0 {
                s.reply.add_to_last(&say!("session.nothing_after"));
            }
            break;
        }
    }
    Ok(())
}

/// At most this many mails are caused by one mail (each copy of a press
/// counted once per recipient, and once per team for a team's
/// addresses: `game::teams::copies`); the reply is not counted, nor the
/// results of a phase a Master processes. A team's addresses all
/// confirmed they want the judge's mail, so counting a team once lets a
/// class game of seven teams of three send its press to everyone (7
/// copies and the Master's, not 22) while an address named by a stranger
/// still counts alone, and gets only its one request to confirm.
pub const MAX_MAILS_PER_MAIL: i64 = 50;

/// At most this many mails are caused by one address's mails in an hour.
pub const MAX_MAILS_PER_SENDER_HOUR: i64 = 300;

/// How many more mails the mail may cause, and why that many.
struct MailBudget {
    left: i64,
    limit: String,
}

impl MailBudget {
    fn for_sender(s: &Session<'_>) -> Result<MailBudget, StoreError> {
        let hour = intake::mails_caused_in_the_hour(s.tx, &s.sender(), s.now)?;
        let hour_left = (MAX_MAILS_PER_SENDER_HOUR - hour).max(0);
        Ok(if hour_left < MAX_MAILS_PER_MAIL {
            MailBudget {
                left: hour_left,
                limit: say!("session.sender_limit", most => MAX_MAILS_PER_SENDER_HOUR, hour),
            }
        } else {
            MailBudget {
                left: MAX_MAILS_PER_MAIL,
                limit: say!("session.mail_limit", most => MAX_MAILS_PER_MAIL),
            }
        })
    }
}

/// The mails of `outgoing` that count against the budget (a team's
/// addresses counted once).
fn mails_caused(tx: &Tx<'_>, outgoing: &[Outgoing]) -> Result<i64, StoreError> {
    let mut caused = 0;
    for mail in outgoing.iter().filter(|m| m.results_of.is_none()) {
        caused += crate::game::teams::copies(tx, mail.game_id, &mail.to)?;
    }
    Ok(caused)
}

/// Runs one command under the mail budget: a command that would send more
/// mails than are left is undone whole (its store writes rolled back to a
/// savepoint, its mails and answer dropped) and refused, naming the limit;
/// the rest of the mail is not read. Whether to go on.
fn within_mail_budget(
    s: &mut Session<'_>,
    line: &Line,
    budget: &mut MailBudget,
    rest: usize,
) -> Result<bool, StoreError> {
    let (queued, said, joined) = (s.outgoing.len(), s.reply.mark(), s.joined.len());
    intake::begin_command(s.tx)?;
    dispatch(s, line)?;
    if let Some(speaker) = s.signed.as_ref().map(Signed::speaker) {
        if !s.spoke_for.contains(&speaker) {
            s.spoke_for.push(speaker);
        }
    }
    let caused = mails_caused(s.tx, &s.outgoing[queued..])?;
    if caused <= budget.left {
        intake::keep_command(s.tx)?;
        budget.left -= caused;
        return Ok(true);
    }
    intake::undo_command(s.tx)?;
    s.outgoing.truncate(queued);
    s.reply.rewind(said);
    s.joined.truncate(joined);
    s.reply.refuse(
        line,
        say!("session.over_budget", caused, limit => &budget.limit, left => budget.left, rest),
    );
    Ok(false)
}

fn reply_subject(s: &Session<'_>) -> String {
    // Never a password back in a Subject (the mail's lines may have given
    // it, or the Subject itself may be a sign-on).
    let mut original = mask_passwords(strip_judge_subject(s.mail.subject.trim(), s.code()));
    for secret in s.secrets.iter().filter(|w| !w.is_empty()) {
        original = original.replace(secret.as_str(), "****");
    }
    let original = original.as_str();
    // A reply to one of the judge's own mails (results, a notice, press)
    // is titled by what it answers, not by the mail it replies to.
    let what = if !original.is_empty() && !judge_title(original) {
        original
    } else if s.orders_touched {
        title::ORDERS
    } else {
        title::REPLY
    };
    let flag = if s.reply.error { "[Error Flag] " } else { "" };
    match &s.reply.game {
        Some(game) => format!("{flag}{}", s.subject(game, s.reply.phase.as_deref(), what)),
        None => format!("{flag}{}: {what}", s.code()),
    }
}

/// Whether a subject left with `what` after [`strip_judge_subject`] is
/// one of the judge's own titles, holding no words of the player's.
fn judge_title(what: &str) -> bool {
    let starts = |title: &str| {
        what.get(..title.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(title))
    };
    let ends = |title: &str| {
        what.strip_suffix(title)
            .is_some_and(|head| head.ends_with(' '))
    };
    title::BEGINNINGS.iter().any(|t| starts(t))
        || title::WHOLE.iter().any(|w| what.eq_ignore_ascii_case(w))
        || title::ENDINGS.iter().any(|e| ends(e))
}

/// The player's own words in a subject that answers one of ours: without
/// `Re:`/`Fwd:`, `[Error Flag]` and our `CODE:game - S1901M` prefix, so
/// that subjects do not grow with every round.
fn strip_judge_subject<'a>(mut subject: &'a str, code: &str) -> &'a str {
    loop {
        let before = subject;
        for prefix in ["re:", "fwd:", "fw:", "aw:", "[error flag]"] {
            if subject
                .get(..prefix.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
            {
                subject = subject[prefix.len()..].trim_start();
            }
        }
        let ours = format!("{code}:");
        if subject.len() > ours.len()
            && subject
                .get(..ours.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(&ours))
        {
            // "CODE:game - S1901M rest" or "CODE: rest".
            let rest = &subject[ours.len()..];
            subject = match rest.split_once(" - ") {
                Some((_, after)) => {
                    let after = after.trim_start();
                    let phase_len = after.find(' ').unwrap_or(after.len());
                    if after[..phase_len]
                        .parse::<crate::engine::phase::Phase>()
                        .is_ok()
                    {
                        after[phase_len..].trim_start()
                    } else {
                        after
                    }
                }
                None => rest.trim_start(),
            };
        }
        if subject == before {
            return subject;
        }
    }
}

fn dispatch(s: &mut Session<'_>, line: &Line) -> Result<(), StoreError> {
    if !matches!(line.command, Command::Other(_)) {
        // Any other command may change who is signed on or the phase.
        s.ordering = None;
    }
    match &line.command {
        Command::Help => cmd::info::help(s, line),
        Command::Get(file) => cmd::info::get(s, line, file),
        Command::GetMap { game, phase } => {
            cmd::info::get_map(s, line, game.as_deref(), phase.as_deref())?
        }
        Command::Version => cmd::info::version(s, line),
        Command::Confirm { token } => cmd::confirm::confirm(s, line, token)?,
        Command::List(game) => cmd::info::list(s, line, game.as_deref())?,
        Command::History { game, from, to } => {
            cmd::info::history(s, line, game, from.as_deref(), to.as_deref())?
        }
        Command::Summary(game) => cmd::info::summary(s, line, game)?,
        Command::Create {
            game,
            password,
            variant,
        } => cmd::create::create(s, line, game, password, variant.as_deref())?,
        Command::SignOn {
            who,
            game,
            password,
        } => cmd::signon::sign_on(s, line, who, game, password)?,
        Command::Observe { game, password } => cmd::signon::observe(s, line, game, password)?,
        Command::Unobserve { game } => cmd::signon::unobserve(s, line, game)?,
        Command::Set { what, rest } => cmd::set::set(s, line, what, rest)?,
        Command::Press {
            to,
            grey,
            body,
            end,
        } => cmd::press::press(s, line, to.as_deref(), *grey, body, end, false)?,
        Command::Broadcast { grey, body, end } => {
            cmd::press::press(s, line, None, *grey, body, end, true)?
        }
        Command::NotOffered { form, held } => cmd::njudge::not_offered(s, line, *form, held)?,
        Command::Resign => cmd::signon::resign(s, line)?,
        Command::Clear => cmd::orders::clear(s, line)?,
        Command::Process(phase) => cmd::master::process(s, line, phase.as_deref())?,
        Command::Predict => cmd::master::predict(s, line)?,
        Command::Pause => cmd::master::pause(s, line, true)?,
        Command::Resume => cmd::master::pause(s, line, false)?,
        Command::Terminate => cmd::master::terminate(s, line)?,
        Command::Rollback(phase) => cmd::master::rollback(s, line, phase.as_deref())?,
        Command::Eject(power) => cmd::master::eject(s, line, power)?,
        Command::Become(power) => cmd::master::become_power(s, line, power)?,
        Command::Start => cmd::master::start(s, line)?,
        Command::Other(text) => cmd::orders::order_line(s, line, text)?,
        Command::Malformed { usage } => s
            .reply
            .refuse(line, say!("session.write_it_as", usage => usage.as_str())),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::strip_judge_subject;

    #[test]
    fn subjects_do_not_grow_with_every_round() {
        assert_eq!(strip_judge_subject("orders", "JDG"), "orders");
        assert_eq!(
            strip_judge_subject("Re: JDG:g - S1901M orders", "JDG"),
            "orders"
        );
        assert_eq!(
            strip_judge_subject("RE: Re: [Error Flag] JDG:g - F1901M my moves", "JDG"),
            "my moves"
        );
        assert_eq!(strip_judge_subject("Re: JDG: list", "JDG"), "list");
        assert_eq!(strip_judge_subject("Re: JDG:g - S1901M", "JDG"), "");
        assert_eq!(strip_judge_subject("Grüße", "JDG"), "Grüße");
        assert_eq!(strip_judge_subject("Ré: ü", "JDGX"), "Ré: ü");
    }
}
