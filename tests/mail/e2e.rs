//! End-to-end tests of the mail service through real Maildir and outbox
//! folders: signups, challenges, whole games played by mail (with
//! passwords, and by replying to board mails with just the turn), and every
//! error path, each checked to change nothing in the store.

use pbem_testkit::{ALICE, BOB, Harness, Sent, to};

const MALLORY: &str = "mallory@example.net";

/// Alice (White) and Bob on a new board 101 of `variant`; returns the two
/// `New ...` board mails (Alice's, Bob's).
fn new_board(h: &mut Harness, variant: &str) -> (Sent, Sent) {
    let (alice, bob) = h.alice_and_bob_on(variant);
    for mail in [&alice, &bob] {
        assert!(
            mail.subject.starts_with("New ") && mail.subject.ends_with(" Board 101 alice"),
            "{}",
            mail.subject
        );
    }
    (alice, bob)
}

/// Checks one board mail: subject, summary, board, threading, headers.
fn check_board_mail(mail: &Sent, variant: &str, headline: &str, reader_is_black: bool) {
    let subject = mail.subject.strip_prefix("New ").unwrap_or(&mail.subject);
    assert_eq!(
        subject,
        format!("{variant} Board 101 {headline}"),
        "{}",
        mail.body
    );
    assert!(
        mail.body
            .starts_with(&format!("Summary of {variant} Board 101\n")),
        "{}",
        mail.body
    );
    assert_eq!(mail.auto_submitted.as_deref(), Some("auto-replied"));
    assert!(
        mail.references.iter().all(|r| !r.starts_with("board-")),
        "threaded by real Message-IDs: {:?}",
        mail.references
    );
    let files = if reader_is_black {
        "      h   g   f   e   d   c   b   a"
    } else {
        "      a   b   c   d   e   f   g   h"
    };
    assert!(
        mail.body.contains(files),
        "board from the reader's side:\n{}",
        mail.body
    );
    let token = mail.reply_to.as_deref().expect("a reply token");
    assert!(
        token.starts_with("pbem+101.") && token.ends_with("@localhost"),
        "{token}"
    );
}

/// Plays a record turn by turn with `move` commands; checks every reply.
fn play_by_password(h: &mut Harness, variant: &str, record: &str) -> Vec<Sent> {
    let turns = pbem::rules::notation::parse_record(record)
        .expect("a readable record")
        .turns;
    let mut last = Vec::new();
    for (index, turn) in turns.iter().enumerate() {
        let (mover, address, next) = if index % 2 == 0 {
            ("alice", ALICE, "bob")
        } else {
            ("bob", BOB, "alice")
        };
        let id = h.message_id();
        let body = format!("move 101 {mover} {mover}-pw {}#{}", turn.text, index + 1);
        let mails = h.send_with_id(address, "pbem@localhost", "my turn", &body, &id);
        assert_eq!(
            mails.len(),
            2,
            "turn {} {}: {mails:#?}",
            index + 1,
            turn.text
        );
        let own = to(&mails, address);
        assert_eq!(
            own.in_reply_to.as_deref(),
            Some(id.trim_matches(['<', '>'])),
            "threaded to the mail it answers"
        );
        let game_over = own.body.contains("Result: ");
        if !game_over {
            check_board_mail(to(&mails, ALICE), variant, next, false);
            check_board_mail(to(&mails, BOB), variant, next, true);
            assert!(own.body.contains("Legal turns: "), "{}", own.body);
        }
        last = mails;
    }
    last
}

const CHESS2_EXAMPLE_4: &str =
    include_str!("../../crates/pbem-rules/tests/fixtures/chess2/example-4.txt");

#[test]
fn a_whole_chess2_game_by_password_commands_ends_in_a_draw_by_agreement() {
    let mut h = Harness::new();
    let (alice, bob) = new_board(&mut h, "chess2");
    check_board_mail(&alice, "Chess2", "alice", false);
    check_board_mail(&bob, "Chess2", "alice", true);
    assert!(
        alice
            .body
            .contains("It is alice's turn: move 1, White to move (turn #1):\nWhite's first turn: a single move."),
        "{}",
        alice.body
    );

    let record = CHESS2_EXAMPLE_4.replace("½ – ½", "");
    let last = play_by_password(&mut h, "Chess2", &record);
    assert!(
        to(&last, ALICE).body.contains("31.exf5"),
        "{}",
        to(&last, ALICE).body
    );

    let offer = h.send(BOB, "draw?", "draw 101 bob bob-pw");
    assert_eq!(offer.len(), 2);
    assert!(
        to(&offer, ALICE).body.contains("bob offers a draw"),
        "{}",
        to(&offer, ALICE).body
    );
    let accepted = h.send(ALICE, "ok", "accept 101 alice alice-pw");
    assert_eq!(accepted.len(), 2);
    for mail in &accepted {
        assert_eq!(mail.subject, "Chess2 Board 101 1/2-1/2");
        assert!(
            mail.body.contains("Result: 1/2-1/2 (draw by agreement)."),
            "{}",
            mail.body
        );
    }
    let refused = h.send(BOB, "more", "move 101 bob bob-pw Kb5");
    assert!(
        refused[0].subject.ends_with("Error") && refused[0].body.contains("finished"),
        "{:#?}",
        refused
    );
}

#[test]
fn a_chess2_game_by_replies_holding_only_the_turn_ends_in_checkmate() {
    let mut h = Harness::new();
    let (mut alice_mail, mut bob_mail) = new_board(&mut h, "chess2");
    let turns = [
        (ALICE, "e4"),
        (BOB, "a6,h6"),
        (ALICE, "Bc4,Qh5"),
        (BOB, "a5,b6"),
        (ALICE, "Qxf7#"),
    ];
    let mut mails = Vec::new();
    for (player, turn) in turns {
        let board_mail = if player == ALICE {
            &alice_mail
        } else {
            &bob_mail
        };
        mails = h.reply(&board_mail.clone(), player, turn);
        assert_eq!(mails.len(), 2, "{turn}: {mails:#?}");
        alice_mail = to(&mails, ALICE).clone();
        bob_mail = to(&mails, BOB).clone();
    }
    for mail in &mails {
        assert_eq!(mail.subject, "Chess2 Board 101 1-0");
        assert!(
            mail.body.contains("Result: 1-0 (checkmate)."),
            "{}",
            mail.body
        );
        assert!(
            mail.body.contains("1.e4 a6,h6 2.Bc4,Qh5 a5,b6 3.Qxf7#"),
            "{}",
            mail.body
        );
    }
}

#[test]
fn a_marseillais_game_and_an_extramove_game_reach_checkmate() {
    for (variant, name, record) in [
        ("marseillais", "Marseillais", "1.e4,Qh5 a6,a5 2.Bc4,Qxf7#"),
        ("extramove", "Extramove", "1.e4 a6 2.Bc4,Qh5 a5 3.Qxf7#"),
    ] {
        let mut h = Harness::new();
        new_board(&mut h, variant);
        let last = play_by_password(&mut h, name, record);
        for mail in &last {
            assert_eq!(
                mail.subject,
                format!("{name} Board 101 1-0"),
                "{}",
                mail.body
            );
            assert!(
                mail.body.contains("Result: 1-0 (checkmate)."),
                "{}",
                mail.body
            );
        }
    }
}

/// Sends a mail that must be refused: exactly one error mail to the sender,
/// containing `reason`, and no change to the games.
fn refused(h: &mut Harness, from: &str, to_address: &str, body: &str, reason: &str) -> Sent {
    let before = h.game_state();
    let id = h.message_id();
    let mails = h.send_with_id(from, to_address, "turn", body, &id);
    assert_eq!(h.game_state(), before, "a refused command changes nothing");
    assert_eq!(
        mails.len(),
        1,
        "one error mail to the sender only: {mails:#?}"
    );
    let error = &mails[0];
    assert_eq!(error.to, from);
    assert!(error.subject.ends_with("Error"), "{}", error.subject);
    assert!(
        error.body.contains(reason),
        "expected {reason:?} in:\n{}",
        error.body
    );
    assert!(
        !error.body.contains("-pw "),
        "passwords are blanked:\n{}",
        error.body
    );
    error.clone()
}

#[test]
fn refused_commands_change_nothing_and_say_why() {
    let mut h = Harness::new();
    let (alice_mail, _) = new_board(&mut h, "chess2");
    let server = "pbem@localhost";

    let illegal = refused(
        &mut h,
        ALICE,
        server,
        "move 101 alice alice-pw e5",
        "no pawn can reach e5",
    );
    assert_eq!(illegal.subject, "Chess2 Board 101 Error");
    assert!(
        illegal.body.contains("> move 101 alice ******** e5"),
        "{}",
        illegal.body
    );
    assert!(
        illegal.body.contains("  8 |*R*|"),
        "the board is shown again:\n{}",
        illegal.body
    );

    refused(
        &mut h,
        BOB,
        server,
        "move 101 bob bob-pw e5",
        "not your turn",
    );
    refused(
        &mut h,
        ALICE,
        server,
        "move 101 alice wrong-pw e4",
        "wrong userid or password for \"alice\"",
    );
    // A userid that did not log in, and is not the sender's own, may be a
    // password written out of place: it is blanked.
    let unknown = refused(
        &mut h,
        ALICE,
        server,
        "move 101 nobody secret e4",
        "wrong userid or password for \"********\"",
    );
    assert!(!unknown.body.contains("secret"), "{}", unknown.body);
    refused(
        &mut h,
        ALICE,
        server,
        "move 999 alice alice-pw e4",
        "there is no board 999",
    );
    refused(
        &mut h,
        ALICE,
        server,
        "marseillais move 101 alice alice-pw e4",
        "board 101 plays Chess2, not Marseillais",
    );
    refused(
        &mut h,
        ALICE,
        server,
        "move 101 alice alice-pw e4#7",
        "turn #1 is being played",
    );
    refused(
        &mut h,
        ALICE,
        server,
        "move 101 alice alice-pw e4,d4",
        "White's first turn is a single move",
    );

    // Alice's reply token, used from Bob's address and from a stranger's.
    let token = alice_mail.reply_to.clone().expect("token");
    refused(&mut h, BOB, &token, "e4", "not an address of alice");
    refused(&mut h, MALLORY, &token, "e4", "not an address of alice");
    // A token that was never given out.
    let forged = token.replace("101.", "102.");
    refused(&mut h, ALICE, &forged, "e4", "not one pbem gave out");

    // After a real move, the old turn number is stale.
    assert_eq!(h.send(ALICE, "t", "move 101 alice alice-pw e4#1").len(), 2);
    refused(
        &mut h,
        ALICE,
        server,
        "move 101 alice alice-pw d4#1",
        "this mail is for turn #1, but turn #2 is being played",
    );
    refused(
        &mut h,
        BOB,
        server,
        "move 101 bob bob-pw Nf6,Ng4",
        "2nd move Ng4: the knight on f6 already moved this turn",
    );
}

#[test]
fn a_duplicate_message_id_has_no_second_effect_and_no_second_reply() {
    let mut h = Harness::new();
    new_board(&mut h, "chess");
    let first = h.send_with_id(
        ALICE,
        "pbem@localhost",
        "t",
        "move 101 alice alice-pw e4",
        "<same@example.org>",
    );
    assert_eq!(first.len(), 2);
    let before = h.game_state();
    let again = h.send_with_id(
        ALICE,
        "pbem@localhost",
        "t",
        "move 101 alice alice-pw e4",
        "<same@example.org>",
    );
    assert!(again.is_empty(), "{again:#?}");
    assert_eq!(h.game_state(), before);
}

#[test]
fn automatic_mail_and_bounces_get_no_reply_at_all() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    let before = h.game_state();
    for raw in [
        "From: alice@example.org\r\nAuto-Submitted: auto-replied\r\nSubject: Out of office\r\nMessage-ID: <a1@x>\r\n\r\nI am away.\r\n",
        "From: MAILER-DAEMON@example.org\r\nSubject: Undelivered Mail\r\nMessage-ID: <a2@x>\r\n\r\nmove 101 alice alice-pw e4\r\n",
        "Return-Path: <>\r\nFrom: alice@example.org\r\nSubject: bounce\r\nMessage-ID: <a3@x>\r\n\r\nhelp\r\n",
        "From: list@example.org\r\nPrecedence: bulk\r\nSubject: news\r\nMessage-ID: <a4@x>\r\n\r\nhelp\r\n",
        "From: pbem@localhost\r\nSubject: Chess Board 101 alice\r\nMessage-ID: <a5@x>\r\n\r\nhelp\r\n",
    ] {
        assert!(
            h.deliver_raw(raw.as_bytes()).is_empty(),
            "no reply to:\n{raw}"
        );
    }
    assert_eq!(h.game_state(), before);
}

#[test]
fn garbage_and_binary_mail_cause_no_panic() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    let binary: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
    assert!(h.deliver_raw(&binary).is_empty(), "no sender, no reply");
    let mut with_sender =
        b"From: alice@example.org\r\nSubject: \xff\xfe\r\nMessage-ID: <g1@x>\r\n\r\n".to_vec();
    with_sender.extend_from_slice(&binary);
    let replies = h.deliver_raw(&with_sender);
    assert_eq!(replies.len(), 1, "{replies:#?}");
    assert!(
        replies[0].body.contains("no command"),
        "{}",
        replies[0].body
    );
    let nonsense = h.send(
        ALICE,
        "hello",
        "move\nmove 101\nchallenge\nsignup x\n\u{0}\u{7}",
    );
    assert!(
        nonsense.iter().all(|m| m.subject.ends_with("Error")),
        "{nonsense:#?}"
    );
}

#[test]
fn a_mail_over_the_size_limit_gets_one_short_error() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    let before = h.game_state();
    let body = format!("signup carol carol-pw\n{}", "x".repeat(300 * 1024));
    let replies = h.send(ALICE, "big", &body);
    assert_eq!(replies.len(), 1);
    assert!(
        replies[0]
            .body
            .contains("reads mails of up to 262144 bytes"),
        "{}",
        replies[0].body
    );
    assert!(replies[0].body.len() < 1000, "short, without the quote");
    assert_eq!(h.game_state(), before);
}

#[test]
fn a_sender_over_the_rate_limit_gets_one_short_error_then_silence() {
    let mut h = Harness::with_config(|config| config.service.mails_per_sender_per_hour = 3);
    for _ in 0..3 {
        assert_eq!(h.send(ALICE, "hi", "help").len(), 1);
    }
    let fourth = h.send(ALICE, "hi", "help");
    assert_eq!(fourth.len(), 1);
    assert!(
        fourth[0].body.contains("more than 3 mails within an hour"),
        "{}",
        fourth[0].body
    );
    assert!(h.send(ALICE, "hi", "help").is_empty());
}

#[test]
fn mime_encodings_and_html_only_mail_are_read() {
    let mut h = Harness::new();
    let html = "From: carol@example.org\r\nSubject: hi\r\nMessage-ID: <h1@x>\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body><p>signup carol carol-pw</p></body></html>\r\n";
    assert_eq!(
        h.deliver_raw(html.as_bytes())[0].subject.get(..8),
        Some("confirm "),
        "carol's confirmation"
    );
    // "signup dave dave-pw" in base64, inside multipart/alternative.
    let base64 = "From: dave@example.org\r\nSubject: hi\r\nMessage-ID: <h2@x>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\nc2lnbnVwIGRhdmUgZGF2ZS1wdw==\r\n--b\r\nContent-Type: text/html\r\n\r\n<p>ignored</p>\r\n--b--\r\n";
    assert_eq!(
        h.deliver_raw(base64.as_bytes())[0].subject.get(..8),
        Some("confirm "),
        "dave's confirmation"
    );
    let latin1 = "From: erin@example.org\r\nSubject: =?iso-8859-1?q?Gr=FC=DFe?=\r\nMessage-ID: <h3@x>\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nsignup erin erin-pw\r\nGr=FC=DFe!\r\n";
    assert_eq!(
        h.deliver_raw(latin1.as_bytes())[0].subject.get(..8),
        Some("confirm "),
        "erin's confirmation"
    );
}

#[test]
fn several_commands_in_one_mail_get_one_answer() {
    let mut h = Harness::new();
    new_board(&mut h, "chess");
    let mails = h.send(
        ALICE,
        "commands",
        "move 101 alice alice-pw e4\nhistory 101\nhelp variants",
    );
    let subjects: Vec<&str> = mails.iter().map(|m| m.subject.as_str()).collect();
    assert_eq!(subjects, ["Chess Board 101 bob", "Chess Board 101 bob"]);
    let answer = to(&mails, ALICE);
    for result in [
        "1. move 101 alice ******** e4: done.",
        "2. history 101: done.",
        "3. help variants: done.",
        "1.e4            ",
        "chess2  ",
    ] {
        assert!(
            answer.body.contains(result),
            "{result:?} in:\n{}",
            answer.body
        );
    }
}

#[test]
fn a_comment_goes_under_the_board_of_the_other_player() {
    let mut h = Harness::new();
    let (alice_mail, _) = new_board(&mut h, "chess");
    // Comments reach a challenged player only once they accepted.
    h.bob_accepts();
    let mails = h.reply(&alice_mail, ALICE, "e4\nGood luck, Bob!");
    let bob = to(&mails, BOB);
    assert!(bob.subject.ends_with(" **"), "{}", bob.subject);
    assert!(bob.body.contains("alice: Good luck, Bob!"), "{}", bob.body);
}

#[test]
fn show_pgn_subscribe_and_chat() {
    let mut h = Harness::new();
    new_board(&mut h, "chess2");
    // A challenge nobody accepted is its players' only (issue 35).
    h.bob_accepts();
    h.send(ALICE, "t", "move 101 alice alice-pw e4");
    let shown = h.send(MALLORY, "hello", "show 101#1 compact");
    assert_eq!(shown.len(), 1);
    assert!(shown[0].body.contains("8 rnbqkbnr"), "{}", shown[0].body);
    let pgn = h.send(MALLORY, "hello", "pgn 101");
    assert!(
        pgn[0].body.contains("[Variant \"Chess2\"]") && pgn[0].body.contains("1.e4 *"),
        "{}",
        pgn[0].body
    );
    h.signup("mallory", MALLORY);
    assert_eq!(
        h.send(MALLORY, "s", "subscribe 101 mallory mallory-pw")
            .len(),
        1
    );
    let next = h.send(BOB, "t", "move 101 bob bob-pw e5,Nc6");
    assert_eq!(next.len(), 3, "players and the observer: {next:#?}");
    assert!(
        to(&next, MALLORY).reply_to.is_none(),
        "observers get no reply token"
    );
    let chat = h.send(BOB, "c", "chat 101 bob bob-pw Nice opening");
    assert_eq!(chat.len(), 2);
    assert!(to(&chat, ALICE).body.contains("bob: Nice opening"));
    assert!(to(&chat, MALLORY).body.contains("bob: Nice opening"));
}

#[test]
fn decline_undo_queue_and_resign() {
    let mut h = Harness::new();
    new_board(&mut h, "chess");
    h.send(ALICE, "t", "move 101 alice alice-pw e4");
    // Alice queues her answer to Bob's expected e5.
    let queued = h.send(ALICE, "q", "queue 101 alice alice-pw Nf3");
    assert_eq!(queued[0].subject, "Chess Board 101 queued");
    let after = h.send(BOB, "t", "move 101 bob bob-pw e5");
    assert!(
        to(&after, BOB).body.contains("1.e4 e5 2.Nf3"),
        "the queued turn was played:\n{}",
        to(&after, BOB).body
    );
    // Bob asks to undo; Alice accepts: Nf3 is taken back.
    h.send(BOB, "u", "undo 101 bob bob-pw");
    let undone = h.send(ALICE, "a", "accept 101 alice alice-pw");
    assert!(
        to(&undone, BOB).body.contains("1.e4 e5\n"),
        "{}",
        to(&undone, BOB).body
    );
    // Bob cannot decline any more: he has moved.
    refused(
        &mut h,
        BOB,
        "pbem@localhost",
        "decline 101 bob bob-pw",
        "resign instead",
    );
    let resigned = h.send(BOB, "r", "resign 101 bob bob-pw");
    assert!(
        to(&resigned, ALICE)
            .subject
            .starts_with("Chess Board 101 1-0"),
        "{}",
        to(&resigned, ALICE).subject
    );
    assert!(
        to(&resigned, ALICE).body.contains("bob resigned"),
        "{}",
        to(&resigned, ALICE).body
    );
}

#[test]
fn signup_refuses_a_registered_address_and_a_taken_userid() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    refused(
        &mut h,
        MALLORY,
        "pbem@localhost",
        "signup mallory mallory-pw alice@example.org",
        "already registered",
    );
    refused(
        &mut h,
        MALLORY,
        "pbem@localhost",
        "signup alice other-pw",
        "is taken",
    );
}

#[test]
fn a_mail_may_log_in_with_at_most_eight_passwords() {
    let mut h = Harness::new();
    new_board(&mut h, "chess");
    // Chat reaches a challenged player only once they accepted.
    h.bob_accepts();
    let before = h.game_state();
    // Thousands of guesses in one mail would cost minutes of Argon2.
    let guesses: Vec<String> = (0..40)
        .map(|n| format!("draw 101 alice guess-{n}"))
        .collect();
    let mails = h.send(ALICE, "guesses", &guesses.join("\n"));
    assert_eq!(h.game_state(), before, "nothing changed");
    assert_eq!(mails.len(), 1, "one answer: {mails:#?}");
    let body = &mails[0].body;
    let wrong = body
        .matches("refused: wrong userid or password for \"alice\"")
        .count();
    let paused = body
        .matches("refused: too many wrong passwords for \"alice\"")
        .count();
    let over = body
        .matches("a mail may log in with at most 8 different userid and password pairs")
        .count();
    // Only the first 16 commands of a mail are read: eight logins (five
    // wrong, then paused), and eight more pairs refused unchecked.
    assert_eq!((wrong, paused, over), (5, 3, 8), "{body}");
    assert!(
        body.contains("held 24 more commands than the 16 pbem reads"),
        "{body}"
    );
    // Password logins pause after the failures; a day later they work.
    h.now += time::Duration::days(1);

    // Many commands under one password are one login.
    let mut commands = vec!["move 101 alice alice-pw e4".to_string()];
    commands.extend((0..12).map(|n| format!("chat 101 alice alice-pw note {n}")));
    let mails = h.send(ALICE, "commands", &commands.join("\n"));
    assert!(
        !mails.is_empty() && mails.iter().all(|m| !m.subject.ends_with("Error")),
        "{mails:#?}"
    );
    assert_ne!(h.game_state(), before, "the move was played");
}
