//! Black-box tests of the mail front end: real RFC 5322 mails fed to the
//! real `judge handle` binary against a real SQLite file in a temporary
//! folder; the replies read back from the outbound queue as the players
//! would read them, and the stored game through `judge export`.

mod common;

use common::*;

const MASTER: &str = "master@example.org";

fn dump(mails: &[Sent]) {
    for m in mails {
        eprintln!("=== to {:?} | {}\n{}", m.recipients, m.subject, m.body);
    }
}

#[test]
fn explore_game() {
    let mut j = TestJudge::new("explore");
    let r = j.mail(MASTER, "CREATE ?war mpass");
    dump(&r);
    let players = [
        ("al@example.net", "AGT"),
        ("bo@example.net", "E"),
        ("cy@example.net", "FEG"),
        ("di@example.net", "G"),
        ("ed@example.net", "I"),
        ("fa@example.net", "R"),
        ("gu@example.net", ""),
    ];
    for (addr, pref) in players {
        let body = if pref.is_empty() {
            "SIGNON ?war pw-gu".to_string()
        } else {
            format!("SIGNON ?war pw-{}\nSET PREFERENCE {pref}", &addr[..2])
        };
        let r = j.mail(addr, &body);
        dump(&r);
    }
    let r = j.mail(
        "cy@example.net",
        "SIGNON Fwar pw-cy\nA Prais - Bur\nA Par - Mos\nF Bre - Mid\nA Mar H\nA Mar - Spa\n",
    );
    dump(&r);
    let r = j.mail(MASTER, "SIGNON Mwar mpass\nPREDICT\nPROCESS\n");
    dump(&r);
    panic!("explore");
}
