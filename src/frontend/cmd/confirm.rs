//! CONFIRM <token>, and asking for it: an address named by someone else
//! (SET ADDRESS, a takeover's approval) gets one mail saying who named it
//! and why, at most one a day, and nothing else from the judge until it
//! answers with the token (or signs on from itself). So the judge is never
//! made to mail a stranger on another's word.

use crate::frontend::script::Line;
use crate::frontend::session::{random_token, Session};
use crate::report::title;
use crate::store::{self, StoreError};

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
    let request = store::throttle::request_confirmation(
        s.tx,
        address,
        named_by,
        seat_id,
        &random_token(),
        s.now,
    )?;
    if request.mail_now {
        let or_else = or_else.map(|o| format!("{o}, or ")).unwrap_or_default();
        let body = format!(
            "{named_by} gave this address ({address}) to the Diplomacy judge {why}.\n\n\
             The judge sends this address nothing else until it says it wants the judge's \
             mail: {or_else}reply to this mail with this one line:\n\n    CONFIRM {}\n\n\
             If you did not expect this mail, ignore it: you will hear nothing more. (The \
             judge asks an address at most once a day.)\n",
            request.token
        );
        let subject =
            subject.unwrap_or_else(|| format!("{}: {}", s.code(), title::CONFIRM_ADDRESS));
        s.send(vec![address.to_string()], subject, body, game_id);
    }
    Ok(Asked {
        mailed: request.mail_now,
    })
}

/// CONFIRM <token>: the address the token went to gets the judge's mail
/// from now on, and becomes the address of the seat it was named for.
pub fn confirm(s: &mut Session<'_>, line: &Line, token: &str) -> Result<(), StoreError> {
    let Some(confirmed) = store::throttle::confirm_token(s.tx, token, s.now)? else {
        s.reply.refuse(
            line,
            "No confirmation waits for that token: it was used already, or is mistyped. \
             Copy the CONFIRM line from the judge's mail as it stands.",
        );
        return Ok(());
    };
    let address = confirmed.address;
    let seat = match confirmed.seat_id {
        Some(id) => store::seats::seat_by_id(s.tx, id)?,
        None => None,
    };
    // Only while the seat is still held by the player who named it.
    let named_by = confirmed.named_by;
    let still_theirs = |seat: &store::seats::Seat| {
        seat.power.is_some() && seat.address.eq_ignore_ascii_case(&named_by)
    };
    let Some(seat) = seat.filter(still_theirs) else {
        s.reply.ok(
            line,
            format!("Confirmed: {address} now gets the judge's mail."),
        );
        return Ok(());
    };
    store::seats::set_player_address(s.tx, seat.id, &address)?;
    // SET ZONE is kept by address: the new one sees deadlines as before.
    store::zones::carry_zone(s.tx, &seat.address, &address)?;
    let game = store::games::game_by_id(s.tx, seat.game_id)?;
    let game_name = game.map(|g| g.name).unwrap_or_default();
    let power = crate::game::power_of(&seat).map_or("", |p| p.name());
    s.reply.also_to.push(seat.address.clone());
    s.reply.also_to.push(address.clone());
    s.reply.ok(
        line,
        format!(
            "Confirmed: {address} is now the address of record of {power} in '{game_name}' \
             (it was {}).",
            seat.address
        ),
    );
    Ok(())
}
