//! Reading inbound mail (`judge::mail::read_mail`) against real-looking
//! mails in `tests/mail/`, and rendering outbound mail
//! (`judge::mail::render`) round trip.

use std::time::{Duration, Instant};

use judge::mail::{
    command_lines, new_message_id, read_mail, render, Address, AutoReason, Incoming, Letter,
    MailError,
};
use proptest::prelude::*;

const CAP: usize = 1 << 20;

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/mail/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn read(name: &str) -> Incoming {
    read_mail(&fixture(name), CAP).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn addr(s: &str) -> Address {
    Address::parse(s).unwrap()
}

/// The display name and address exactly as read.
fn shown(a: Option<&Address>) -> Option<(Option<String>, String)> {
    a.map(|a| (a.name().map(str::to_string), a.to_string()))
}

fn named(name: &str, address: &str) -> Option<(Option<String>, String)> {
    Some((Some(name.to_string()), address.to_string()))
}

// ---- the fixtures ----------------------------------------------------

#[test]
fn plain_text_lf_and_crlf_read_alike() {
    let lf = read("plain_lf.eml");
    let crlf = read("plain_crlf.eml");
    assert_eq!(
        lf.lines,
        [
            "SIGNON Fmygame secret",
            "A Par - Bur",
            "F Bre - MAO",
            "A Mar S A Par - Bur"
        ]
    );
    assert_eq!(
        lf.message_id,
        "<5f0c9a7e-1b2d-4c3e-9f41-7a2b8c6d0e11@example.net>"
    );
    assert!(!lf.synthetic_id);
    // The domain is lower-cased, the local part and name kept.
    assert_eq!(
        shown(lf.from.as_ref()),
        named("Anna Meier", "anna.meier@example.net")
    );
    assert_eq!(lf.reply_to, None);
    assert_eq!(lf.return_path.as_deref(), Some("<anna.meier@example.net>"));
    assert_eq!(lf.subject, "orders");
    // Mon, 3 Nov 2026 19:12:37 +0100
    assert_eq!(lf.date, Some(1_793_729_557));
    assert_eq!(lf.auto, None);
    assert!(!lf.oversized);
    assert!(lf.references.is_empty());

    assert_eq!(
        crlf.size,
        lf.size + 21,
        "one CR more on each of the 21 lines"
    );
    let same = Incoming {
        size: lf.size,
        ..crlf
    };
    assert_eq!(same, lf);
}

#[test]
fn multipart_alternative_takes_the_text_part() {
    let m = read("alternative.eml");
    assert_eq!(
        m.lines,
        [
            "SIGNON Imygame pizza",
            "A Ven H",
            "F Nap - ION",
            "A Rom - Apu"
        ]
    );
    assert_eq!(
        shown(m.from.as_ref()),
        named("Marco Rossi", "marco.rossi@gmail.com")
    );
    assert_eq!(m.subject, "Re: orders S1901M");
    assert_eq!(
        m.message_id,
        "<CAH3kQpX7vB0mWq=5nR2uT8sYd_fV1Lw9eJc4ZaGxO6iKbUo2hA@mail.gmail.com>"
    );
    assert_eq!(m.auto, None);
}

#[test]
fn quoted_printable_soft_breaks_and_escapes() {
    let m = read("quoted_printable.eml");
    assert_eq!(
        m.lines,
        [
            "SIGNON Fmygame secret",
            "PRESS TO ALL",
            "Mes chers collègues, la France propose une paix durable à toute l'Europe: \
             Burgundy = neutral, et pas de flotte dans la Manche.",
            "Vive la république!",
            "ENDPRESS",
        ]
    );
    // RFC 2047 in From and Subject.
    assert_eq!(
        shown(m.from.as_ref()),
        named("François Dupont", "francois@example.fr")
    );
    assert_eq!(m.subject, "Presse à tous");
}

#[test]
fn base64_body() {
    let m = read("base64.eml");
    assert_eq!(
        m.lines,
        [
            "SIGNON Gmygame kaiser",
            "A Mun - Ruh",
            "A Ber - Kie",
            "F Kie - Den",
            "PRESS TO E",
            "Grüße aus München!",
            "ENDPRESS",
        ]
    );
}

#[test]
fn iso_8859_1_body_and_headers() {
    let raw = fixture("latin1.eml");
    assert!(
        raw.contains(&0xFC),
        "the fixture really is Latin-1 (ü = 0xFC)"
    );
    let m = read_mail(&raw, CAP).unwrap();
    assert_eq!(
        m.lines,
        [
            "SIGNON Amygame edelweiss",
            "PRESS TO ALL",
            "Grüezi from Zürich: the café is open, Österreich pays.",
            "ENDPRESS",
        ]
    );
    assert_eq!(
        shown(m.from.as_ref()),
        named("Jürg Müller", "juerg@example.ch")
    );
    assert_eq!(m.subject, "Presse aus Zürich");
}

#[test]
fn windows_1252_quoted_printable() {
    let m = read("windows1252.eml");
    assert_eq!(
        m.lines,
        [
            "SIGNON Emygame tea",
            "PRESS TO ALL",
            "“Peace in our time” costs €100.",
            "ENDPRESS"
        ]
    );
    assert_eq!(
        shown(m.from.as_ref()),
        named("Smith, John", "john.smith@example.co.uk")
    );
}

#[test]
fn html_only_becomes_text() {
    let m = read("html_only.eml");
    assert_eq!(
        m.lines,
        [
            "SIGNON Rmygame vodka",
            "A Mos -> Ukr",
            "F Sev S A Mos -> Ukr",
            "A War H",
            "PRESS TO T",
            "Black Sea & Armenia stay empty, agreed?",
            "ENDPRESS",
        ]
    );
}

#[test]
fn reply_quoting_the_judge_keeps_only_the_new_text() {
    let m = read("reply_quoting.eml");
    assert_eq!(
        m.lines,
        ["SIGNON Emygame tea", "F Lon - Nth", "F Edi - Nwg"]
    );
    assert_eq!(
        m.references,
        [
            "<S1901M.mygame@judge.example.org>",
            "<ack-17.mygame@judge.example.org>"
        ]
    );
    assert_eq!(m.subject, "Re: EX:mygame - F1901M Results");
    assert_eq!(m.date, Some(1_793_739_764));
}

#[test]
fn outlook_reply_over_the_unquoted_original() {
    let m = read("outlook_reply.eml");
    assert_eq!(
        m.lines,
        ["SIGNON Emygame tea", "F Lon - Nth", "", "Regards, John"]
    );
    assert_eq!(m.references, ["<S1901M.mygame@judge.example.org>"]);
}

#[test]
fn signature_is_dropped() {
    let m = read("signature.eml");
    assert_eq!(
        m.lines,
        ["SIGNON Tmygame kebab", "F Ank - Bla", "A Con - Bul"]
    );
}

#[test]
fn signoff_ends_the_commands() {
    let m = read("signoff.eml");
    assert_eq!(m.lines, ["SIGNON Amygame edelweiss", "A Vie - Gal"]);
}

#[test]
fn attachment_is_not_text() {
    let m = read("mixed_attachment.eml");
    assert_eq!(
        m.lines,
        [
            "SIGNON Fmygame secret",
            "PRESS TO G",
            "My map is attached.",
            "ENDPRESS"
        ]
    );
}

#[test]
fn reply_to_wins_over_from() {
    let m = read("reply_to.eml");
    assert_eq!(
        shown(m.from.as_ref()),
        named("Anna Meier (via Work)", "noreply@gateway.example.com")
    );
    assert_eq!(
        shown(m.reply_to.as_ref()),
        named("Anna Meier", "Anna.Meier@example.net")
    );
    assert_eq!(m.reply_address(), m.reply_to.as_ref());
    // Equality ignores case and the display name.
    assert_eq!(m.reply_address(), Some(&addr("anna.meier@EXAMPLE.net")));
    assert_eq!(m.lines, ["LIST mygame"]);
    assert_eq!(m.auto, None);

    let plain = read("plain_lf.eml");
    assert_eq!(plain.reply_address(), plain.from.as_ref());
}

#[test]
fn missing_message_id_is_made_up_and_stable() {
    let first = read("no_message_id.eml");
    assert!(first.synthetic_id);
    assert!(first.message_id.starts_with('<'));
    assert!(first.message_id.ends_with("@judge.invalid>"));
    assert_eq!(first.message_id.len(), "<@judge.invalid>".len() + 32);
    assert_eq!(
        shown(first.from.as_ref()),
        Some((None, "oldscript@example.edu".into()))
    );
    assert_eq!(first.lines, ["HISTORY mygame"]);

    // The same mail again, by another route (CRLF, a Received and a
    // Return-Path added): recognised as the same.
    let again = read("no_message_id_again.eml");
    assert_eq!(again.message_id, first.message_id);

    // Another mail is another id.
    let raw = String::from_utf8(fixture("no_message_id.eml")).unwrap();
    let other = read_mail(raw.replace("HISTORY", "SUMMARY").as_bytes(), CAP).unwrap();
    assert_ne!(other.message_id, first.message_id);
}

#[test]
fn autoresponder_auto_submitted() {
    let m = read("autoreply.eml");
    assert_eq!(
        m.auto,
        Some(AutoReason::AutoSubmitted("auto-replied".into()))
    );
    assert_eq!(m.auto.unwrap().to_string(), "Auto-Submitted: auto-replied");
}

#[test]
fn vacation_without_auto_submitted() {
    let m = read("vacation.eml");
    assert_eq!(
        m.auto,
        Some(AutoReason::AutoReplyHeader("X-Autoreply".into()))
    );
    // The old `addr (Name)` form.
    assert_eq!(
        shown(m.from.as_ref()),
        named("Bob Jones", "bob@example.com")
    );

    // With only Precedence: bulk it is still a robot.
    let raw = String::from_utf8(fixture("vacation.eml")).unwrap();
    let only_precedence = raw.replace("X-Autoreply: yes\n", "");
    let m = read_mail(only_precedence.as_bytes(), CAP).unwrap();
    assert_eq!(m.auto, Some(AutoReason::Precedence("bulk".into())));
}

#[test]
fn bounce_from_mailer_daemon() {
    let m = read("bounce.eml");
    assert_eq!(m.auto, Some(AutoReason::DeliveryReport));
    assert_eq!(m.return_path.as_deref(), Some("<>"));
    assert_eq!(
        shown(m.from.as_ref()),
        named("Mail Delivery System", "MAILER-DAEMON@mx.example.org")
    );
    // The original message's headers (a text/rfc822-headers part) are not
    // in the text.
    assert!(m.lines.iter().all(|l| !l.contains("Subject:")));

    // Each of its signs alone is enough.
    let raw = String::from_utf8(fixture("bounce.eml")).unwrap();
    let not_report = raw.replace("multipart/report", "multipart/mixed");
    let m = read_mail(not_report.as_bytes(), CAP).unwrap();
    assert_eq!(m.auto, Some(AutoReason::NullReturnPath));
    let not_null = not_report.replace("Return-Path: <>", "Return-Path: <x@mx.example.org>");
    let m = read_mail(not_null.as_bytes(), CAP).unwrap();
    assert_eq!(
        m.auto,
        Some(AutoReason::DaemonSender(
            "MAILER-DAEMON@mx.example.org".into()
        ))
    );
}

// ---- each robot sign alone -------------------------------------------

fn mail_with(extra_headers: &str) -> Incoming {
    let raw = format!(
        "From: Someone <someone@example.com>\r\nTo: judge@example.org\r\n\
         Subject: hi\r\nMessage-ID: <x@example.com>\r\n{extra_headers}\r\nLIST\r\n"
    );
    read_mail(raw.as_bytes(), CAP).unwrap()
}

#[test]
fn every_robot_sign() {
    use AutoReason::*;
    let cases: &[(&str, Option<AutoReason>)] = &[
        ("", None),
        ("Auto-Submitted: no\r\n", None),
        (
            "Auto-Submitted: auto-generated\r\n",
            Some(AutoSubmitted("auto-generated".into())),
        ),
        (
            "auto-submitted: Auto-Notified\r\n",
            Some(AutoSubmitted("auto-notified".into())),
        ),
        ("Precedence: bulk\r\n", Some(Precedence("bulk".into()))),
        ("Precedence: JUNK\r\n", Some(Precedence("junk".into()))),
        ("Precedence: list\r\n", Some(Precedence("list".into()))),
        ("Precedence: first-class\r\n", None),
        (
            "X-Autoreply: yes\r\n",
            Some(AutoReplyHeader("X-Autoreply".into())),
        ),
        (
            "X-Autorespond: on vacation\r\n",
            Some(AutoReplyHeader("X-Autorespond".into())),
        ),
        (
            "List-Id: Diplomacy players <dip.lists.example.com>\r\n",
            Some(MailingList("List-Id".into())),
        ),
        (
            "List-Unsubscribe: <mailto:leave@lists.example.com>\r\n",
            Some(MailingList("List-Unsubscribe".into())),
        ),
        ("Return-Path: <>\r\n", Some(NullReturnPath)),
        ("Return-Path: < >\r\n", Some(NullReturnPath)),
        ("Return-Path: <someone@example.com>\r\n", None),
        (
            "Return-Path: <Postmaster@example.com>\r\n",
            Some(DaemonSender("Postmaster@example.com".into())),
        ),
        (
            "Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n",
            Some(DeliveryReport),
        ),
    ];
    for (headers, want) in cases {
        assert_eq!(&mail_with(headers).auto, want, "{headers:?}");
    }
    // A daemon in From, any case, with or without a domain.
    for from in [
        "mailer-daemon@example.com",
        "<POSTMASTER@example.com>",
        "MAILER-DAEMON",
    ] {
        let raw = format!("From: {from}\r\nSubject: x\r\n\r\nbody\r\n");
        let m = read_mail(raw.as_bytes(), CAP).unwrap();
        assert!(
            matches!(m.auto, Some(DaemonSender(_))),
            "{from}: {:?}",
            m.auto
        );
    }
}

// ---- size cap and hostile bytes --------------------------------------

fn big_mail(content_type: &str, extra: &str, body_bytes: usize) -> Vec<u8> {
    let mut raw = format!(
        "From: Big Sender <big@example.com>\r\nTo: judge@example.org\r\n\
         Subject: a very big mail\r\nMessage-ID: <big@example.com>\r\n{extra}\
         Content-Type: {content_type}\r\n\r\n"
    )
    .into_bytes();
    let line = b"A Par - Bur and then a lot more text to fill up the mail body with\r\n";
    while raw.len() < body_bytes {
        raw.extend_from_slice(line);
    }
    raw
}

#[test]
fn oversized_mail_reads_headers_only_and_fast() {
    let raw = big_mail("text/plain", "", 10 << 20);
    let start = Instant::now();
    let m = read_mail(&raw, CAP).unwrap();
    let took = start.elapsed();
    assert!(m.oversized);
    assert!(m.lines.is_empty());
    assert_eq!(m.auto, None);
    assert_eq!(m.size, raw.len());
    assert_eq!(m.subject, "a very big mail");
    assert_eq!(m.message_id, "<big@example.com>");
    assert_eq!(m.reply_address(), Some(&addr("big@example.com")));
    assert!(took < Duration::from_secs(2), "took {took:?}");

    // A big bounce is still a bounce.
    let bounce = big_mail(
        "multipart/report; boundary=zz",
        "Return-Path: <>\r\n",
        10 << 20,
    );
    let m = read_mail(&bounce, CAP).unwrap();
    assert!(m.oversized);
    assert_eq!(m.auto, Some(AutoReason::DeliveryReport));

    // Without a Message-ID the made-up one is quick too.
    let no_id = String::from_utf8(raw)
        .unwrap()
        .replace("Message-ID: <big@example.com>\r\n", "");
    let start = Instant::now();
    let m = read_mail(no_id.as_bytes(), CAP).unwrap();
    assert!(m.synthetic_id);
    assert!(start.elapsed() < Duration::from_secs(2));

    // At the cap exactly it is read.
    let raw = big_mail("text/plain", "", 2000);
    let m = read_mail(&raw, raw.len()).unwrap();
    assert!(!m.oversized);
    assert_eq!(
        m.lines[0],
        "A Par - Bur and then a lot more text to fill up the mail body with"
    );
    assert!(read_mail(&raw, raw.len() - 1).unwrap().oversized);
}

#[test]
fn hostile_bytes() {
    assert_eq!(read_mail(b"", CAP), Err(MailError::Empty));
    assert_eq!(read_mail(b"\0\0\0\0", CAP), Err(MailError::NoHeaders));
    assert_eq!(
        read_mail(b"just some text\nwith no headers\n", CAP),
        Err(MailError::NoHeaders)
    );

    // Invalid UTF-8 and NULs in headers and body.
    let raw = b"From: \xff\xfe <a@b.example>\r\nSubject: caf\xe9 \0x\r\nMessage-ID: <\xc3(@x>\r\n\r\nA Par\0 - Bur\r\n\xff\r\n";
    let m = read_mail(raw, CAP).unwrap();
    assert_eq!(m.lines[0], "A Par - Bur");
    assert!(!m.subject.contains('\0'));

    // Truncated MIME: an unclosed multipart and broken base64.
    let truncated = b"From: a@b.example\r\nContent-Type: multipart/alternative; boundary=\"q\"\r\n\r\n--q\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\nU0lHTk9OIEZteWdh";
    let m = read_mail(truncated, CAP).unwrap();
    assert_eq!(m.from, Some(addr("a@b.example")));

    // Deep nesting.
    let mut deep = String::from("From: a@b.example\r\n");
    for i in 0..200 {
        deep.push_str(&format!(
            "Content-Type: multipart/mixed; boundary=\"b{i}\"\r\n\r\n--b{i}\r\n"
        ));
    }
    deep.push_str("Content-Type: text/plain\r\n\r\nA Par - Bur\r\n");
    read_mail(deep.as_bytes(), CAP).unwrap();

    // A header block that never ends.
    let endless = format!("From: a@b.example\r\n{}", "X-Junk: y\r\n".repeat(300_000));
    let start = Instant::now();
    read_mail(endless.as_bytes(), CAP).unwrap();
    assert!(start.elapsed() < Duration::from_secs(2));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_bytes_never_panic(raw in proptest::collection::vec(any::<u8>(), 0..2000)) {
        let _ = read_mail(&raw, 1000);
        let _ = read_mail(&raw, CAP);
    }

    #[test]
    fn mail_shaped_bytes_never_panic(
        headers in proptest::collection::vec(
            prop_oneof![
                Just("From: a@b.example".to_string()),
                Just("Content-Type: multipart/mixed; boundary=\"b\"".to_string()),
                Just("Content-Type: multipart/report; boundary=b".to_string()),
                Just("Content-Type: text/html; charset=iso-8859-1".to_string()),
                Just("Content-Transfer-Encoding: base64".to_string()),
                Just("Content-Transfer-Encoding: quoted-printable".to_string()),
                Just("Subject: =?utf-8?b?w6k=?= =?iso-8859-1?q?=E9?=".to_string()),
                Just("Return-Path: <>".to_string()),
                "[ -~]{0,40}",
            ],
            0..8,
        ),
        body in proptest::collection::vec(
            prop_oneof![
                Just(b"--b\r\n".to_vec()),
                Just(b"--b--\r\n".to_vec()),
                Just(b"\r\n".to_vec()),
                Just(b"<div>&amp;<br><blockquote>".to_vec()),
                Just(b"=C3=\r\n".to_vec()),
                Just(b"> quoted\r\nOn x wrote:\r\n-- \r\n".to_vec()),
                proptest::collection::vec(any::<u8>(), 0..30),
            ],
            0..20,
        ),
    ) {
        let mut raw = headers.join("\r\n").into_bytes();
        raw.extend_from_slice(b"\r\n\r\n");
        for piece in body {
            raw.extend_from_slice(&piece);
        }
        let _ = read_mail(&raw, CAP);
        let _ = read_mail(&raw, raw.len() / 2);
    }

    #[test]
    fn html_to_text_never_panics(html in "[<>/!a-z &#;x0-9\"'=\n-]{0,400}") {
        let text = judge::mail::html_to_text(&html);
        prop_assert!(!text.contains('\r'));
    }

    #[test]
    fn command_lines_are_clean(text in "[ -~\\n\\r\\t>é]{0,300}") {
        let lines = command_lines(&text);
        for l in &lines {
            prop_assert!(!l.contains(['\r', '\n']));
            prop_assert_eq!(l.trim_end(), l.as_str());
            prop_assert!(!l.trim_start().starts_with('>'));
        }
        prop_assert!(lines.first().is_none_or(|l| !l.is_empty()));
        prop_assert!(lines.last().is_none_or(|l| !l.is_empty()));
    }
}

// ---- outbound ----------------------------------------------------------

fn outgoing() -> Letter {
    Letter {
        from: addr("Judge EX <judge@example.org>"),
        to: vec![addr("\"Smith, John\" <john.smith@example.co.uk>"), addr("anna.meier@example.net")],
        subject: "EX:mygame - S1901M Re: orders".into(),
        body: "Orders received for France:\n\nArmy Paris -> Burgundy.\nFleet Brest -> Mid-Atlantic Ocean.\n".into(),
        in_reply_to: Some("<5f0c9a7e@example.net>".into()),
        references: vec!["<S1901M.mygame@judge.example.org>".into(), "<5f0c9a7e@example.net>".into()],
        auto_replied: true,
        message_id: new_message_id("ack-18.mygame", "judge.example.org"),
        date: std::time::UNIX_EPOCH + Duration::from_secs(1_793_736_000),
        pictures: Vec::new(),
    }
}

fn headers_of(raw: &[u8]) -> String {
    let text = String::from_utf8(raw.to_vec()).unwrap();
    text.split("\r\n\r\n").next().unwrap().to_string()
}

#[test]
fn new_message_id_form() {
    assert_eq!(
        new_message_id("abc.1", "judge.example.org"),
        "<abc.1@judge.example.org>"
    );
    assert_eq!(new_message_id(" <a b> ", "x.org"), "<ab@x.org>");
}

#[test]
fn rendered_mail_is_well_formed() {
    let raw = render(&outgoing());
    // CRLF everywhere, never a bare LF or CR.
    for (i, &b) in raw.iter().enumerate() {
        if b == b'\n' {
            assert_eq!(raw[i - 1], b'\r', "bare LF at {i}");
        }
        if b == b'\r' {
            assert_eq!(raw.get(i + 1), Some(&b'\n'), "bare CR at {i}");
        }
    }
    assert!(raw.ends_with(b"\r\n"));
    let headers = headers_of(&raw);
    assert_eq!(
        headers,
        "Date: Tue, 03 Nov 2026 20:00:00 +0000\r\n\
         From: Judge EX <judge@example.org>\r\n\
         To: \"Smith, John\" <john.smith@example.co.uk>, anna.meier@example.net\r\n\
         Subject: EX:mygame - S1901M Re: orders\r\n\
         Message-ID: <ack-18.mygame@judge.example.org>\r\n\
         In-Reply-To: <5f0c9a7e@example.net>\r\n\
         References: <S1901M.mygame@judge.example.org> <5f0c9a7e@example.net>\r\n\
         Auto-Submitted: auto-replied\r\n\
         MIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\
         Content-Transfer-Encoding: 7bit"
    );
    let body = &raw[headers.len() + 4..];
    assert_eq!(
        body,
        b"Orders received for France:\r\n\r\nArmy Paris -> Burgundy.\r\nFleet Brest -> Mid-Atlantic Ocean.\r\n"
    );
}

#[test]
fn round_trip_ascii() {
    let out = outgoing();
    let back = read_mail(&render(&out), CAP).unwrap();
    assert_eq!(back.subject, out.subject);
    assert_eq!(back.message_id, out.message_id);
    assert_eq!(back.references, out.references);
    assert_eq!(
        shown(back.from.as_ref()),
        named("Judge EX", "judge@example.org")
    );
    assert_eq!(
        back.lines,
        [
            "Orders received for France:",
            "",
            "Army Paris -> Burgundy.",
            "Fleet Brest -> Mid-Atlantic Ocean."
        ]
    );
    assert_eq!(back.date, Some(1_793_736_000));
    // Our own acknowledgements are robots' mail to other robots.
    assert_eq!(
        back.auto,
        Some(AutoReason::AutoSubmitted("auto-replied".into()))
    );

    let results = Letter {
        auto_replied: false,
        in_reply_to: None,
        references: vec![],
        ..out
    };
    let back = read_mail(&render(&results), CAP).unwrap();
    assert_eq!(back.auto, None);
    assert!(back.references.is_empty());
}

#[test]
fn round_trip_non_ascii_and_long() {
    let long_line = format!("Press: {}", "la paix est éternelle, ".repeat(60));
    let out = Letter {
        from: addr("Judge <judge@example.org>").with_name("Le Juge « EX »"),
        to: vec![addr("juerg@example.ch").with_name("Jürg Müller")],
        subject: "EX:mygame - Presse aus Zürich: « très » important, ça va? Ünïcödé all the way to the fold and beyond it"
            .into(),
        body: format!("Grüezi from Zürich =3D café\r\nFrom here on\n{long_line}\ntrailing space \n"),
        references: (0..12).map(|i| format!("<{i}.mygame@judge.example.org>")).collect(),
        ..outgoing()
    };
    let raw = render(&out);
    let headers = headers_of(&raw);
    assert!(headers.is_ascii());
    for line in headers.split("\r\n") {
        assert!(line.len() <= 78, "long header line: {line:?}");
    }
    assert!(headers.contains("Content-Transfer-Encoding: quoted-printable"));
    for line in String::from_utf8(raw.clone()).unwrap().split("\r\n") {
        assert!(line.len() <= 78, "long line: {line:?}");
    }
    let back = read_mail(&raw, CAP).unwrap();
    assert_eq!(back.subject, out.subject);
    assert_eq!(
        shown(back.from.as_ref()),
        named("Le Juge « EX »", "judge@example.org")
    );
    assert_eq!(back.message_id, out.message_id);
    // References, then In-Reply-To (already among them).
    assert_eq!(back.references.len(), 13);
    assert_eq!(back.references[..12], out.references[..]);
    assert_eq!(back.references[12], "<5f0c9a7e@example.net>");
    assert_eq!(
        back.lines,
        [
            "Grüezi from Zürich =3D café".to_string(),
            "From here on".into(),
            long_line.trim_end().to_string(),
            "trailing space".into(),
        ]
    );
}

#[test]
fn round_trip_odd_subjects() {
    for subject in [
        "",
        "  leading and  double  spaces ",
        "=?utf-8?q?not_an_encoded_word?=",
        "tab\there",
        &"x".repeat(1200),
        &"word ".repeat(60),
        "line\r\nbreak injected",
    ] {
        let out = Letter {
            subject: subject.to_string(),
            ..outgoing()
        };
        let raw = render(&out);
        let headers = headers_of(&raw);
        // No header injection: the only lines are ours.
        assert!(!headers.contains("\r\nbreak"), "{headers}");
        let back = read_mail(&raw, CAP).unwrap();
        let want: String = subject.replace(['\r', '\n', '\t'], " ");
        assert_eq!(back.subject, want.trim(), "{subject:?}");
    }
}

#[test]
fn address_forms() {
    let a = addr("\"Doe, John\" <John.Doe@Example.ORG>");
    assert_eq!(a.name(), Some("Doe, John"));
    assert_eq!(a.to_string(), "John.Doe@example.org");
    assert_eq!(a.local(), "John.Doe");
    assert_eq!(a.domain(), "example.org");
    assert_eq!(a, addr("john.doe@example.org"));
    assert!("no-at-sign".parse::<Address>().is_err());
    assert!("two words@example.org".parse::<Address>().is_err());
    assert!("a@-bad-.example".parse::<Address>().is_err());
    assert!("Name <a@b.example".parse::<Address>().is_err());
    assert!("".parse::<Address>().is_err());
}

#[test]
fn hostile_html_stays_linear() {
    let mut html = String::from("<html><body>");
    for _ in 0..20_000 {
        html.push_str("<blockquote><style>x</style>");
    }
    for _ in 0..50_000 {
        html.push_str("<br>a");
    }
    html.push_str(&"<STYLE>never closed ".repeat(10));
    let raw = format!("From: a@b.example\r\nContent-Type: text/html\r\n\r\n{html}");
    let start = Instant::now();
    let m = read_mail(raw.as_bytes(), 8 << 20).unwrap();
    assert!(m.lines.is_empty(), "all of it is quoted");
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "took {:?}",
        start.elapsed()
    );
    let text = judge::mail::html_to_text(&html);
    assert!(text.len() < 20 * 50_000, "{}", text.len());
}
