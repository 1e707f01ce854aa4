//! CONFIRM <token>, and asking for it: an address named by someone else
//! (SET ADDRESS, a takeover's approval) gets one mail saying who named it
//! and why, at most one a day, and nothing else from the judge until it
//! answers with the token (or signs on from itself). So the judge is never
//! made to mail a stranger on another's word. `game::confirm` keeps the
//! requests.

use crate::frontend::script::Line;
use crate::frontend::session::{random_token, Session};
use crate::game::confirm::{self as confirming, Confirmed};
use crate::game::process::join_names;
use crate::game::teams::Joined;
use crate::game::StoreError;
use crate::report::title;
use crate::say;

/// Whether a confirmation mail went out now (false: one did today).
pub struct Asked {
    pub mailed: bool,
}

/// What an address is asked to confirm for.
pub struct Naming<'a> {
    /// Who named it: for a seat, the seat's address of record then (the
    /// change is made only if the seat still has it).
    pub by: &'a str,
    /// Why, in words: "as the address of France in 'g1'".
    pub why: String,
    /// The seat whose address it becomes on confirmation.
    pub seat_id: Option<i64>,
    pub game_id: Option<i64>,
    /// The mail's subject, when it is more than a request (a takeover's
    /// approval); else "Confirm this address".
    pub subject: Option<String>,
    /// What the address may do besides CONFIRM (a takeover: sign on).
    pub or_else: Option<String>,
}

/// Asks `address` to confirm it wants the judge's mail.
pub fn ask(s: &mut Session<'_>, address: &str, naming: Naming<'_>) -> Result<Asked, StoreError> {
    let Naming {
        by: named_by,
        why,
        seat_id,
        game_id,
        subject,
        or_else,
    } = naming;
    let request = confirming::request(s.tx, address, named_by, seat_id, &random_token(), s.now)?;
    if request.mail_now {
        let body = say!("confirm.request", named_by, address, why, or_else,
                        token => request.token);
        let subject =
            subject.unwrap_or_else(|| format!("{}: {}", s.code(), title::CONFIRM_ADDRESS));
        s.send(vec![address.to_string()], subject, body + "\n", game_id);
    }
    Ok(Asked {
        mailed: request.mail_now,
    })
}

/// CONFIRM <token>: the address the token went to gets the judge's mail
/// from now on, and joins the teams that listed it.
pub fn confirm(s: &mut Session<'_>, line: &Line, token: &str) -> Result<(), StoreError> {
    match confirming::confirm(s.tx, token, s.now)? {
        Confirmed::Unknown => s.reply.refuse(line, say!("confirm.unknown_token")),
        Confirmed::Address { address } => {
            s.reply.ok(line, say!("confirm.address", address));
        }
        Confirmed::Teams { address, joined } => joined_teams(s, line, &address, joined)?,
        Confirmed::Seat {
            address,
            old,
            power,
            game,
        } => {
            s.reply.also_to.push(old.clone());
            s.reply.also_to.push(address.clone());
            s.reply.ok(
                line,
                say!("confirm.seat_address", address, old, power, game),
            );
        }
    }
    Ok(())
}

/// The answer to a CONFIRM that made `address` a member of teams: each
/// team hears who joined it.
fn joined_teams(
    s: &mut Session<'_>,
    line: &Line,
    address: &str,
    joined: Vec<Joined>,
) -> Result<(), StoreError> {
    let mut said = Vec::new();
    for team in joined {
        let game = crate::game::game_by_id(s.tx, team.game_id)?.map(|g| g.name);
        let names: Vec<&str> = team.powers.iter().map(|p| p.name()).collect();
        let others: Vec<&str> = team
            .team
            .iter()
            .map(String::as_str)
            .filter(|a| !a.eq_ignore_ascii_case(address))
            .collect();
        let game = game.unwrap_or_default();
        let powers = join_names(&names);
        said.push(match &team.replaced {
            // One address for another, as before teams.
            Some(old) if others.is_empty() => {
                say!("confirm.seat_address", address, old, power => powers, game)
            }
            _ => say!("confirm.team", address, powers, game, others => join_names(&others)),
        });
        s.reply.also_to.extend(team.replaced);
        s.reply.also_to.extend(team.team);
    }
    s.reply.ok(line, said.join("\n"));
    Ok(())
}
