//! The judge's words as a judgekeeper changes them: an entry of
//! `templates/words/<area>.txt` beside judge.toml replaces the built-in one
//! a help file likewise, with no rebuild; `judge check`
//! names a broken entry with its file and line.

mod common;

use common::TestJudge;

fn templates_dir(j: &TestJudge) -> std::path::PathBuf {
    j.config().parent().unwrap().join("templates")
}

fn write(j: &TestJudge, relative: &str, text: &str) -> std::path::PathBuf {
    let path = templates_dir(j).join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn an_edited_entry_and_help_file_change_the_replies_and_the_others_stay() {
    let mut j = TestJudge::new("words-edit");
    write(
        &j,
        "words/absence.txt",
        "## needs_player_sign_on\nFirst sign on, please ({{ 'SIGNON' }} <power><game> <password>).\n",
    );
    write(&j, "help/help.txt", "Our judge's own help.\n");

    let replies = j.mail("stranger@example.org", "SET ABSENCE 2026-12-24\nHELP");
    let reply = &replies[0].body;
    assert!(
        reply.contains("First sign on, please (SIGNON <power><game> <password>)."),
        "{reply}"
    );
    assert!(reply.contains("Our judge's own help."), "{reply}");
}

#[test]
fn judge_check_names_a_broken_entry_and_an_unknown_variable_with_their_lines() {
    let j = TestJudge::new("words-broken");
    let path = write(
        &j,
        "words/absence.txt",
        "{# notes #}\n## usage\nfine\n## limit_set: days\nUp to {{ dayz }} days.\n",
    );
    let check = j.run(&["check"], b"");
    assert!(!check.ok, "judge check passed:\n{}", check.stdout);
    let file = path.display().to_string();
    assert!(
        check
            .stdout
            .contains(&format!("{file} line 5 (entry absence.limit_set)")),
        "{}",
        check.stdout
    );

    write(&j, "words/absence.txt", "## usage\nfine\n{% if %}\n");
    let check = j.run(&["check"], b"");
    assert!(!check.ok);
    assert!(
        check
            .stdout
            .contains(&format!("{file} line 3 (entry absence.usage)")),
        "{}",
        check.stdout
    );
    // The judge refuses to start on it, with the same words.
    let run = j.run(&["run", "--once"], b"");
    assert!(!run.ok);
    assert!(
        run.stderr.contains(&format!("{file} line 3")),
        "{}",
        run.stderr
    );
}
