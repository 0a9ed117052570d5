//! Safety II, one definition per command (issue 24): the command table is
//! what the parser, the password blanking, the reply reader and `help`
//! go by, and no line of a mail, well formed or mistaken, is ever quoted
//! back with its password. Through the real Maildir and outbox.

mod support;

use support::{ALICE, BOB, Harness, Sent};

/// Every word of every mail in the outbox.
fn outbox_text(h: &Harness) -> String {
    h.all_mails()
        .iter()
        .map(|m| format!("{}\n{}\n", m.subject, m.body))
        .collect()
}

fn assert_never_quoted(h: &Harness, mails: &[Sent], password: &str) {
    assert!(!mails.is_empty(), "the mail is answered");
    let text = outbox_text(h);
    assert!(
        !text.contains(password),
        "the password {password} is quoted back:\n{text}"
    );
}

#[test]
fn a_malformed_tournament_entry_is_answered_without_its_password() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    let mails = h.send(ALICE, "entry", "tournament enter spring alice alice-pw now");
    assert_never_quoted(&h, &mails, "alice-pw");
    // The answer still says what was wrong and how the command goes.
    let body = &mails[0].body;
    assert!(body.contains("tournament enter"), "{body}");
    assert!(body.contains("unexpected words"), "{body}");
}

#[test]
fn a_malformed_subscription_is_answered_without_its_password() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    h.signup("ann", "ann@example.org");
    let mails = h.send("ann@example.org", "follow", "subscribe 101 ann ann-pw now");
    assert_never_quoted(&h, &mails, "ann-pw");
    assert!(mails[0].body.contains("subscribe 101"), "{}", mails[0].body);
}

#[test]
fn a_refused_command_in_the_subject_of_a_reply_is_quoted_without_its_password() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    // An illegal move in the Subject, behind the `Re:` of a mail client.
    let mails = h.send(ALICE, "Re: move 101 alice alice-pw e5", "");
    assert_never_quoted(&h, &mails, "alice-pw");
    assert!(
        mails[0].body.contains("move 101 alice ******** e5"),
        "{}",
        mails[0].body
    );
}

#[test]
fn a_well_formed_line_whose_login_fails_may_have_its_words_out_of_place() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    // Userid and password swapped: it parses, with the password where the
    // userid goes, and the login fails.
    let mails = h.send(ALICE, "move", "move 101 alice-pw alice e4");
    assert_never_quoted(&h, &mails, "alice-pw");
    // A word missing before the password: the password stands in the
    // userid's place.
    let mails = h.send(ALICE, "chat", "chat 101 alice-pw hello there");
    assert_never_quoted(&h, &mails, "alice-pw");
}

#[test]
fn a_right_login_keeps_the_line_readable() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    let mails = h.send(
        ALICE,
        "two",
        "move 101 alice alice-pw e4\nmove 101 alice alice-pw d4\nmy alice-pw is safe",
    );
    assert_never_quoted(&h, &mails, "alice-pw");
    let answer = support::to(&mails, ALICE);
    assert!(
        answer
            .body
            .contains("2. move 101 alice ******** d4: refused: it is not your turn"),
        "{}",
        answer.body
    );
}

#[test]
fn a_mistaken_line_s_error_never_repeats_the_password() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    // The value is the password, the preference the userid: the parser's
    // complaint would quote it.
    for line in [
        "set alice board alice-pw compact",
        "set board alice-pw",
        "tournament adjudicate spring alice alice-pw x 1-0 lost",
        "password alice alice-pw",
        "challenge alice-pw bob --white",
        "resign 101 alice-pw",
        "tournament create alice alice-pw 9lives chess",
    ] {
        let mails = h.send(ALICE, "x", line);
        assert_never_quoted(&h, &mails, "alice-pw");
    }
}
#[test]
fn help_names_every_command_word_of_the_table() {
    let mut h = Harness::new();
    let mails = h.send(BOB, "help", "help");
    let body = &mails[0].body;
    for word in pbem::command::Word::ALL {
        for spelling in word.definition().words {
            assert!(
                body.split(|c: char| !c.is_ascii_alphanumeric())
                    .any(|w| w == *spelling),
                "help does not name {spelling}:\n{body}"
            );
        }
    }
}
