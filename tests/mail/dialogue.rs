//! The mail dialogue (issue 11, and from issue 10 "one answer per mail"
//! and "comments need a token or password"), through the real Maildir
//! inbox and `.eml` outbox: what a reply means, what is never passed on,
//! stale replies, one answer per mail, threading and the texts.

use pbem_testkit::{ALICE, BOB, Harness, Sent, to};

const MALLORY: &str = "mallory@example.net";

/// A reply that must be refused: one error mail to the sender, carrying
/// a reply token, nothing changed and nothing to anyone else.
fn refused_reply(h: &mut Harness, mail: &Sent, from: &str, text: &str, reason: &str) -> Sent {
    let before = h.game_state();
    let mails = h.reply(mail, from, text);
    assert_eq!(h.game_state(), before, "{text:?} changed nothing");
    assert_eq!(
        mails.len(),
        1,
        "{text:?}: one error to the sender: {mails:#?}"
    );
    let error = mails[0].clone();
    assert_eq!(error.to, from);
    assert!(error.subject.ends_with("Error"), "{}", error.subject);
    assert!(
        error.body.contains(reason),
        "{reason:?} in:\n{}",
        error.body
    );
    assert!(
        error
            .reply_to
            .as_deref()
            .is_some_and(|r| r.starts_with("pbem+101.")),
        "an error mail invites a reply, so it carries the token: {error:#?}"
    );
    error
}

#[test]
fn item_1_a_turn_pbem_does_not_understand_is_refused_and_never_forwarded() {
    let mut h = Harness::new();
    let (alice, _) = h.alice_and_bob_on("chess");
    let played = h.reply(&alice, ALICE, "e4");
    let bob = to(&played, BOB).clone();
    // Lenient notation reads `kxd7` as the king's capture, which is refused
    // as illegal; a near miss is refused as not understood.
    refused_reply(&mut h, &bob, BOB, "kxd7", "no king can reach d7");
    for text in ["Qxdd7", "e5 Nf6", "e5 Nf6\nGood luck"] {
        refused_reply(&mut h, &bob, BOB, text, "nothing was passed on");
    }
    // `e5, Nf6.` is either understood (lenient notation) or refused; it
    // never reaches Alice as a comment.
    let mails = h.reply(&bob, BOB, "e5, Nf6.");
    assert!(
        mails.iter().all(|m| !m.body.contains("bob: e5")),
        "{mails:#?}"
    );
}

#[test]
fn item_2_an_error_mail_carries_the_token_and_a_reply_to_it_plays() {
    let mut h = Harness::new();
    let (alice, _) = h.alice_and_bob_on("chess");
    let error = refused_reply(&mut h, &alice, ALICE, "e5", "no pawn can reach e5");
    let mails = h.reply(&error, ALICE, "e4");
    assert_eq!(mails.len(), 2, "{mails:#?}");
    assert!(
        to(&mails, BOB).body.contains("1.e4"),
        "{}",
        to(&mails, BOB).body
    );
    assert!(!to(&mails, BOB).body.contains("Comments:"));
}

#[test]
fn item_3_a_mistyped_command_is_never_forwarded_and_its_password_is_blanked() {
    let mut h = Harness::new();
    let (alice, _) = h.alice_and_bob_on("chess");
    let played = h.reply(&alice, ALICE, "e4");
    let bob = to(&played, BOB).clone();
    let error = refused_reply(
        &mut h,
        &bob,
        BOB,
        "mvoe 101 bob hunter2 Kxc6",
        "nothing was passed on",
    );
    assert!(
        error.body.contains("mvoe 101 bob ********"),
        "{}",
        error.body
    );
    // The same by plain mail, without a token.
    let mails = h.send(BOB, "move", "mvoe 101 bob hunter2 Kxc6");
    assert_eq!(mails.len(), 1, "{mails:#?}");
    assert!(!h.outbox_text().contains("hunter2"), "{}", h.outbox_text());
}

#[test]
fn item_4_board_commands_in_a_reply_need_no_board_number_or_password() {
    let mut h = Harness::new();
    let (alice, _) = h.alice_and_bob_on("chess");
    let played = h.reply(&alice, ALICE, "e4");
    let bob = to(&played, BOB).clone();
    let offered = h.reply(&bob, BOB, "draw\nShall we call it a day?");
    assert_eq!(offered.len(), 2, "{offered:#?}");
    let alice_now = to(&offered, ALICE).clone();
    assert!(
        alice_now.body.contains("bob offers a draw"),
        "{}",
        alice_now.body
    );
    assert!(
        alice_now.body.contains("bob: Shall we call it a day?"),
        "{}",
        alice_now.body
    );
    let rejected = h.reply(&alice_now, ALICE, "reject");
    let bob_now = to(&rejected, BOB).clone();
    assert!(
        bob_now
            .body
            .contains("alice rejected the draw offer of bob."),
        "item 11, what happened:\n{}",
        bob_now.body
    );
    let undo = h.reply(&bob_now, BOB, "undo");
    assert!(
        to(&undo, ALICE).body.contains("bob asks to take back"),
        "{undo:#?}"
    );
    let accepted = h.reply(to(&undo, ALICE), ALICE, "Accept.");
    let bob_now = to(&accepted, BOB).clone();
    assert!(
        bob_now
            .body
            .contains("alice accepted the request to take back the last turn of bob."),
        "{}",
        bob_now.body
    );
    let resigned = h.reply(to(&accepted, ALICE), ALICE, "resign");
    assert!(
        to(&resigned, BOB).body.contains("alice resigned"),
        "{resigned:#?}"
    );
    // show and pgn answer the sender only.
    let shown = h.reply(&bob_now, BOB, "pgn");
    assert_eq!(shown.len(), 1);
    assert!(
        shown[0].body.contains("[Result \"0-1\"]"),
        "{}",
        shown[0].body
    );
}

#[test]
fn item_4_decline_by_reply() {
    let mut h = Harness::new();
    let (_, bob) = h.alice_and_bob_on("chess");
    let declined = h.reply(&bob, BOB, "decline");
    assert!(
        to(&declined, ALICE).body.contains("declined by bob"),
        "{declined:#?}"
    );
}

#[test]
fn item_5_a_reply_to_an_older_board_mail_is_refused() {
    let mut h = Harness::new();
    let (alice_first, _) = h.alice_and_bob_on("chess");
    let played = h.reply(&alice_first, ALICE, "e4");
    let played = h.reply(to(&played, BOB), BOB, "e5");
    assert_eq!(played.len(), 2);
    // Alice answers her first mail (turn #1) again, now at turn #3.
    refused_reply(
        &mut h,
        &alice_first,
        ALICE,
        "Nf3",
        "answers the board mail of board 101 at turn #1, but the board has",
    );
    refused_reply(&mut h, &alice_first, ALICE, "draw", "moved on to turn #3;");
    // Her newest mail works.
    let mails = h.reply(to(&played, ALICE), ALICE, "Nf3");
    assert_eq!(mails.len(), 2, "{mails:#?}");
}

#[test]
fn item_6_a_refused_mail_stores_nothing_not_even_its_comment() {
    let mut h = Harness::new();
    let (alice, _) = h.alice_and_bob_on("chess");
    // Comments reach a challenged player only once they accepted.
    h.bob_accepts();
    let error = refused_reply(
        &mut h,
        &alice,
        ALICE,
        "e5\nGood luck!",
        "no pawn can reach e5",
    );
    let mails = h.reply(&error, ALICE, "e4\nGood luck!");
    let bob = to(&mails, BOB);
    assert_eq!(
        bob.body.matches("alice: Good luck!").count(),
        1,
        "{}",
        bob.body
    );
}

#[test]
fn item_7_show_numbers_turns_as_board_mails_do_and_shows_no_later_comments() {
    let mut h = Harness::new();
    let (alice, _) = h.alice_and_bob_on("chess");
    let played = h.reply(&alice, ALICE, "e4\nfirst");
    h.reply(to(&played, BOB), BOB, "e5\nsecond");
    let shown = h.send(MALLORY, "s", "show 101#2");
    assert_eq!(shown.len(), 1);
    let body = &shown[0].body;
    assert!(body.contains("(turn #2)"), "{body}");
    assert!(body.contains("1.e4"), "{body}");
    assert!(!body.contains("1.e4 e5"), "{body}");
    assert!(!body.contains("second"), "a later comment: {body}");
    let refused = h.send(MALLORY, "s", "show 101#0");
    assert!(
        refused[0].body.contains("is at turn #3;"),
        "{}",
        refused[0].body
    );
}

#[test]
fn item_8_a_subject_naming_the_body_command_is_no_second_command() {
    let mut h = Harness::new();
    let mails = h.send("carol@example.org", "signup", "signup carol carol-pw");
    assert_eq!(mails.len(), 1, "{mails:#?}");
    // The sender named its own address: its answer is the confirmation mail.
    assert!(mails[0].subject.starts_with("confirm "), "{mails:#?}");
    // A turn in the Subject of a reply.
    let (alice, _) = h.alice_and_bob_on("chess");
    let id = h.message_id();
    let raw = format!(
        "From: {ALICE}\r\nTo: {}\r\nSubject: e4\r\nMessage-ID: {id}\r\nIn-Reply-To: <{}>\r\n\r\n",
        alice.reply_to.as_deref().expect("token"),
        alice.message_id
    );
    let mails = h.deliver_raw(raw.as_bytes());
    assert_eq!(mails.len(), 2, "{mails:#?}");
    assert!(to(&mails, BOB).body.contains("1.e4"));
}

#[test]
fn item_9_quoted_text_and_signatures_are_never_comments() {
    let mut h = Harness::new();
    let (alice, _) = h.alice_and_bob_on("chess");
    let mails = h.reply(&alice, ALICE, "e4\n\nSent from my iPhone");
    assert!(
        !to(&mails, BOB).body.contains("Comments:"),
        "{}",
        to(&mails, BOB).body
    );
}

#[test]
fn issue_10_item_9_a_forged_from_alone_posts_no_comment() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    let before = h.game_state();
    // Mallory forges Alice's From and names the board in the Subject.
    let mails = h.send(
        ALICE,
        "Chess Board 101 alice",
        "Bob, I resign soon. Sincerely, Alice",
    );
    assert_eq!(h.game_state(), before, "no comment stored");
    assert_eq!(mails.len(), 1, "{mails:#?}");
    assert_eq!(mails[0].to, ALICE, "the answer goes to the From only");
    assert!(
        mails[0].body.contains("found no command"),
        "{}",
        mails[0].body
    );
}

#[test]
fn comment_alone_is_chat_when_it_is_not_your_turn_and_refused_when_it_is() {
    let mut h = Harness::new();
    let (alice, bob) = h.alice_and_bob_on("chess");
    let chat = h.reply(&bob, BOB, "Have a nice game!");
    assert_eq!(chat.len(), 1, "to Alice only: {chat:#?}");
    assert!(to(&chat, ALICE).body.contains("bob: Have a nice game!"));
    refused_reply(
        &mut h,
        &alice,
        ALICE,
        "Thanks, you too!",
        "it is your turn on board 101",
    );
}

#[test]
fn item_11_a_turn_says_that_it_let_an_offer_lapse() {
    let mut h = Harness::new();
    let (alice, _) = h.alice_and_bob_on("chess");
    // Offers reach a challenged player only once they accepted.
    h.bob_accepts();
    let played = h.reply(&alice, ALICE, "e4");
    let offered = h.reply(to(&played, ALICE), ALICE, "draw");
    let answered = h.reply(to(&offered, BOB), BOB, "e5");
    assert!(
        to(&answered, ALICE)
            .body
            .contains("bob played on: the draw offer lapsed."),
        "{}",
        to(&answered, ALICE).body
    );
    // "Draw?" from the player offered a draw accepts it.
    let offered = h.reply(to(&answered, ALICE), ALICE, "Nf3\ndraw");
    let agreed = h.reply(to(&offered, BOB), BOB, "Draw?");
    assert!(
        to(&agreed, ALICE).body.contains("Result: 1/2-1/2"),
        "{agreed:#?}"
    );
}

#[test]
fn item_12_every_board_mail_references_the_first_board_mail() {
    let mut h = Harness::new();
    let (alice, bob) = h.alice_and_bob_on("chess");
    let played = h.reply(&alice, ALICE, "e4\nhello");
    let chat = h.send(BOB, "c", "chat 101 bob bob-pw hi there");
    // Alice hears of Bob's vacation once he has accepted her challenge.
    h.bob_accepts();
    let vacation = h.send(BOB, "v", "vacation bob bob-pw 3");
    let to_alice: Vec<Sent> = vacation.iter().filter(|m| m.to == ALICE).cloned().collect();
    assert_eq!(to_alice.len(), 1, "{vacation:#?}");
    assert_eq!(to_alice[0].subject, "Chess Board 101 vacation");
    for mail in played.iter().chain(&chat).chain(&to_alice) {
        let root = if mail.to == ALICE { &alice } else { &bob };
        assert_eq!(mail.references.first(), Some(&root.message_id), "{mail:#?}");
        assert!(
            mail.references.iter().all(|r| !r.starts_with("board-")),
            "{mail:#?}"
        );
    }
    let alice_now = to(&played, ALICE);
    assert!(alice_now.references.contains(&h_last_id(&played, ALICE)));
    // The opponent's mail answers his previous board mail.
    let bob_now = to(&played, BOB);
    assert_eq!(
        bob_now.in_reply_to.as_deref(),
        Some(bob.message_id.as_str())
    );
}

fn h_last_id(mails: &[Sent], address: &str) -> String {
    to(mails, address)
        .in_reply_to
        .clone()
        .expect("the answer names the mail it answers")
}

#[test]
fn item_13_and_issue_10_item_3_one_answer_per_mail() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    // Chat reaches a challenged player only once they accepted.
    h.bob_accepts();
    let mails = h.send(
        ALICE,
        "commands",
        "move 101 alice alice-pw e4\nhistory 101\nhelp variants\nshow 101\npgn 101\nchat 101 alice alice-pw hi\nmove 101 alice alice-pw d4",
    );
    assert_eq!(
        mails.len(),
        2,
        "one answer and one board mail to Bob: {mails:#?}"
    );
    let answer = to(&mails, ALICE);
    assert!(
        answer.body.contains("pbem read 7 commands"),
        "{}",
        answer.body
    );
    assert!(
        answer
            .body
            .contains("7. move 101 alice ******** d4: refused: it is not your turn"),
        "{}",
        answer.body
    );
    assert_eq!(
        answer.body.matches("Summary of Chess Board 101").count(),
        2,
        "the board mail and show: {}",
        answer.body
    );
    assert!(
        to(&mails, BOB).body.contains("alice: hi"),
        "{}",
        to(&mails, BOB).body
    );
    // 52,000 `help` lines from a forged From: one short answer.
    let flood = "help\n".repeat(52_000);
    let mails = h.send("victim@example.com", "x", &flood);
    assert_eq!(mails.len(), 1);
    assert!(
        mails[0].body.contains("were not read"),
        "{}",
        &mails[0].body[..500]
    );
    assert!(mails[0].body.len() < 200_000, "{}", mails[0].body.len());
}

#[test]
fn item_14_cosmetics() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    let mails = h.send(
        ALICE,
        "new",
        "chess challenge alice alice-pw bob --white --nag=1 --forfeit=3",
    );
    let alice = to(&mails, ALICE).clone();
    assert!(
        alice.body.contains("a reminder after 1 day without a move"),
        "{}",
        alice.body
    );
    let played = h.reply(&alice, ALICE, "e4");
    let history = h.send(ALICE, "h", "history 101");
    assert!(
        !history[0].body.contains('.') || !history[0].body.contains(":00."),
        "{}",
        history[0].body
    );
    assert!(history[0].body.contains(" UTC"), "{}", history[0].body);
    let resigned = h.reply(to(&played, BOB), BOB, "resign");
    assert!(
        !to(&resigned, ALICE).body.contains("Deadlines:"),
        "{}",
        to(&resigned, ALICE).body
    );
}

#[test]
fn a_line_holding_the_password_of_the_mail_is_never_forwarded() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    let mails = h.send(
        ALICE,
        "my turn",
        "move 101 alice alice-pw e4\nBob, my password alice-pw is a secret",
    );
    assert_eq!(mails.len(), 2, "{mails:#?}");
    assert!(
        !to(&mails, BOB).body.contains("alice-pw"),
        "{}",
        to(&mails, BOB).body
    );
    assert!(!to(&mails, BOB).body.contains("Comments:"));
    let answer = to(&mails, ALICE);
    assert!(
        answer.body.contains("Your comment was not passed on"),
        "{}",
        answer.body
    );
    assert!(!answer.body.contains("alice-pw"), "{}", answer.body);
}

#[test]
fn a_shown_board_carries_the_reply_token_of_its_player() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    let shown = h.send(ALICE, "s", "show 101");
    let token = shown[0].reply_to.as_deref().expect("a token");
    assert!(token.starts_with("pbem+101."), "{token}");
    let mails = h.reply(&shown[0], ALICE, "e4");
    assert_eq!(mails.len(), 2, "{mails:#?}");
}

#[test]
fn hostile_reply_bodies_get_one_answer_quickly() {
    let mut h = Harness::new();
    let (alice, _) = h.alice_and_bob_on("chess");
    let markers = format!("e4\n{}", "> > > > >\n".repeat(10_000));
    let mails = h.reply(&alice, ALICE, &markers);
    assert_eq!(mails.len(), 2, "the turn is played: {mails:#?}");
    let html = format!(
        "From: {ALICE}\r\nTo: {}\r\nSubject: Re\r\nMessage-ID: <deep@x>\r\nContent-Type: text/html\r\n\r\n{}Nf3{}",
        to(&mails, ALICE).reply_to.as_deref().expect("token"),
        "<div><blockquote>".repeat(6_000),
        "</blockquote></div>".repeat(6_000)
    );
    let mails = h.deliver_raw(html.as_bytes());
    assert_eq!(mails.len(), 1, "{mails:#?}");
    assert!(
        mails[0].body.contains("found no command"),
        "all of it is a quote: {}",
        mails[0].body
    );
}

#[test]
fn item_4_queue_and_show_by_reply() {
    let mut h = Harness::new();
    let (alice, _) = h.alice_and_bob_on("chess");
    let played = h.reply(&alice, ALICE, "e4");
    let alice_now = to(&played, ALICE).clone();
    let queued = h.reply(&alice_now, ALICE, "queue Nf3");
    assert_eq!(queued.len(), 1, "{queued:#?}");
    assert_eq!(queued[0].subject, "Chess Board 101 queued");
    let shown = h.reply(&alice_now, ALICE, "show");
    assert_eq!(shown.len(), 1, "{shown:#?}");
    assert!(
        shown[0]
            .body
            .contains("It is bob's turn: move 1, Black to move (turn #2)"),
        "{}",
        shown[0].body
    );
    let answered = h.reply(to(&played, BOB), BOB, "e5");
    assert!(
        to(&answered, BOB).body.contains("1.e4 e5 2.Nf3"),
        "{}",
        to(&answered, BOB).body
    );
}

#[test]
fn a_reply_with_a_line_of_a_megabyte_gets_one_answer() {
    let mut h = Harness::with_config(|config| config.service.max_mail_bytes = 4 << 20);
    let (alice, _) = h.alice_and_bob_on("chess");
    let line = "x".repeat(1 << 20);
    let mails = h.reply(&alice, ALICE, &format!("e4\n{line}"));
    assert_eq!(mails.len(), 2, "the turn is played, the line is a comment");
    let bob = to(&mails, BOB);
    assert!(
        bob.body.len() < 10_000,
        "a comment keeps its first 4,000 characters"
    );
}
