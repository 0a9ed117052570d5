//! Masking comes from the definition (issue 35): an answer blanks the
//! passwords of the mail and nothing else. A reply form holds none; a
//! mistaken line loses only the words where its command takes a password,
//! never a turn, a number, an option or a name pbem knows. Each test
//! reproduces a finding by mail, through the real Maildir and outbox, and
//! checks both that the player's words show and that the password given
//! does not.

use pbem_testkit::{ALICE, Harness, Sent, address, to};

/// Every word of every mail in the outbox.
fn outbox_text(h: &Harness) -> String {
    h.all_mails()
        .iter()
        .map(|m| format!("{}\n{}\n", m.subject, m.body))
        .collect()
}

fn assert_never_quoted(h: &Harness, password: &str) {
    let text = outbox_text(h);
    assert!(
        !text.contains(password),
        "the password {password} is quoted back:\n{text}"
    );
}

fn assert_shows(mail: &Sent, text: &str) {
    assert!(mail.body.contains(text), "{text:?} not in:\n{}", mail.body);
}

/// The finding: a reply `if d6 Nc4 Nxe4 Qe2` (no password in it) was
/// answered `the line "d6 ******** ******** ********" is ambiguous`.
#[test]
fn a_conditional_line_in_a_reply_is_quoted_whole() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    for (from, line) in [
        (ALICE, "move 101 alice alice-pw e4"),
        ("bob@example.org", "move 101 bob bob-pw e5"),
        (ALICE, "move 101 alice alice-pw Nf3"),
        ("bob@example.org", "move 101 bob bob-pw Nf6"),
        (ALICE, "move 101 alice alice-pw Nxe5"),
    ] {
        h.send(from, "turn", line);
    }
    let board_mail = h
        .all_mails()
        .into_iter()
        .rfind(|m| m.to == ALICE && m.reply_to.is_some())
        .expect("a board mail to Alice");
    // The first line, written in full, gives the password; the second,
    // a reply form, answers d6 otherwise: ambiguous.
    let mails = h.reply(
        &board_mail,
        ALICE,
        "if 101 alice alice-pw d6 Nf3\nif d6 Nc4 Nxe4 Qe2",
    );
    let answer = to(&mails, ALICE);
    assert_shows(
        answer,
        "2. if d6 Nc4 Nxe4 Qe2: refused: the line \"d6 Nc4 Nxe4 Qe2\" is ambiguous",
    );
    assert_shows(answer, "> if d6 Nc4 Nxe4 Qe2\n");
    assert_shows(answer, "1. if 101 alice ******** d6 Nf3: done.");
    assert_shows(answer, "> if 101 alice ******** d6 Nf3\n");
    assert_never_quoted(&h, "alice-pw");
}

/// The finding: a mistyped `--time 3` was answered `******** needs a
/// control`.
#[test]
fn a_mistyped_option_is_named_in_the_answer() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", "bob@example.org");
    let mails = h.send(ALICE, "game", "challenge alice alice-pw bob --time 3");
    let answer = to(&mails, ALICE);
    assert_shows(answer, "challenge: --time needs a control: write D");
    assert_shows(answer, "> challenge alice ******** bob --time 3\n");
    assert_never_quoted(&h, "alice-pw");
}

/// The finding: a quoted mail blanked the opponent, the event's name and
/// the options.
#[test]
fn a_quoted_mail_shows_the_opponent_the_event_and_the_options() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", "bob@example.org");
    h.signup("td", &address("td"));
    h.send(
        &address("td"),
        "event",
        "tournament create td td-pw spring chess",
    );
    let mails = h.send(
        ALICE,
        "spring and a game",
        "tournament entre spring alice alice-pw\nchallenge alice alice-pw bob --white --time=30+1/45 --remind",
    );
    let answer = to(&mails, ALICE);
    assert_shows(answer, "> tournament entre spring alice ********\n");
    assert_shows(
        answer,
        "> challenge alice ******** bob --white --time=30+1/45 --remind\n",
    );
    assert_shows(answer, "refused: challenge: --remind needs a value");
    assert_never_quoted(&h, "alice-pw");
}
