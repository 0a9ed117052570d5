//! Everyday mails (issue 37) through the real Maildir, SQLite file and
//! outbox: several challenges in one mail each answered, days written as
//! players write them (`extend 2 days`, `vacation 5d`), and numbers of
//! days that cannot be used refused without a change.

use pbem_testkit::{ALICE, BOB, Harness, Sent, address, flat, games_in, to};

const CAROL: &str = "carol@example.org";

/// The text of the one mail to `address` in `mails`, its lines joined.
fn body_to(mails: &[Sent], address: &str) -> String {
    flat(&to(mails, address).body)
}

#[test]
fn challenges_differing_in_one_option_each_make_a_board_and_a_repeat_is_answered_as_one() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("carol", CAROL);
    let mails = h.send(
        ALICE,
        "three games",
        "challenge alice alice-pw carol --white --time=3\n\
         challenge alice alice-pw carol --white --time=5\n\
         challenge alice alice-pw carol --white --time=3\n\
         challenge alice alice-pw carol --white --time=7",
    );
    assert_eq!(h.count("SELECT COUNT(*) FROM boards"), 3);
    let answer = body_to(&mails, ALICE);
    for line in [
        "1. challenge alice ******** carol --white --time=3: done.",
        "2. challenge alice ******** carol --white --time=5: done.",
        "3. challenge alice ******** carol --white --time=3: refused: this challenge repeats an earlier line of this mail (board 101): it makes no second board",
        "4. challenge alice ******** carol --white --time=7: done.",
    ] {
        assert!(answer.contains(line), "{line}\n{answer}");
    }
    for board in ["101", "102", "103"] {
        assert!(
            answer.contains(&format!("Board {board}")),
            "{board}: {answer}"
        );
    }
    // Carol is told of each board once.
    let carol: Vec<_> = mails.iter().filter(|m| m.to == CAROL).collect();
    assert_eq!(carol.len(), 3, "{mails:#?}");
}

/// Sends `text` as a reply to the latest board mail `address` received.
fn reply_to_board_mail(h: &mut Harness, address: &str, text: &str) -> Vec<Sent> {
    let last = h
        .all_mails()
        .into_iter()
        .rev()
        .find(|mail| mail.to == address && mail.reply_to.is_some())
        .expect("a board mail");
    h.reply(&last, address, text)
}

#[test]
fn extend_and_vacation_read_days_as_players_write_them() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    h.send(
        ALICE,
        "new",
        "challenge alice alice-pw bob --white --time=10",
    );
    h.bob_accepts();
    h.send(ALICE, "m", "move 101 alice alice-pw e4");
    for (written, gives) in [("extend 2 days", "2 days"), ("extend 1d", "1 day")] {
        let mails = reply_to_board_mail(&mut h, ALICE, written);
        let answer = body_to(&mails, ALICE);
        assert!(
            answer.contains(&format!("alice gave bob {gives} more on the clock")),
            "{written}: {answer}"
        );
    }
    let mails = reply_to_board_mail(&mut h, BOB, "vacation 5 days");
    assert!(
        body_to(&mails, BOB).contains("bob is on vacation for 5 days"),
        "{}",
        body_to(&mails, BOB)
    );
    let mails = h.send(ALICE, "away", "vacation alice alice-pw 3d");
    assert!(
        body_to(&mails, ALICE).contains("alice is on vacation for 3 days"),
        "{}",
        body_to(&mails, ALICE)
    );
    // Numbers that cannot be used are refused, and nothing changes.
    let before = h.game_state();
    for (written, says) in [
        ("extend 0 days", "0 days give nothing"),
        ("extend -2 days", "\"-2\" is negative"),
        ("extend 4294967296", "days is far too many"),
        ("vacation 0d", "0 days give nothing"),
        ("vacation -5 days", "\"-5\" is negative"),
        ("vacation 99999999999 days", "days is far too many"),
    ] {
        let mails = reply_to_board_mail(&mut h, BOB, written);
        let answer = body_to(&mails, BOB);
        assert!(answer.contains(says), "{written}: {answer}");
        assert_eq!(h.game_state(), before, "{written}");
    }
}

#[test]
fn a_conditional_line_fits_a_turn_reaching_its_position_by_another_order() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess2");
    h.send(
        ALICE,
        "lines",
        "move 101 alice alice-pw e4\nif 101 alice alice-pw e5,Nc6 Nf3,Nc3",
    );
    // Bob plays the two moves of the line the other way round: the same
    // position, so the line answers.
    let mails = h.send(BOB, "turn", "move 101 bob bob-pw Nc6,e5");
    let alice = body_to(&mails, ALICE);
    assert!(
        alice.contains("Played from your conditional moves: 2.Nf3,Nc3"),
        "{alice}"
    );
    assert!(
        body_to(&mails, BOB).contains("2.Nf3,Nc3"),
        "{}",
        body_to(&mails, BOB)
    );
    // A turn reaching another position still drops the line.
    let mut h = Harness::new();
    h.alice_and_bob_on("chess2");
    h.send(
        ALICE,
        "lines",
        "move 101 alice alice-pw e4\nif 101 alice alice-pw e5,Nc6 Nf3,Nc3",
    );
    let mails = h.send(BOB, "turn", "move 101 bob bob-pw Nf6,e5");
    let alice = body_to(&mails, ALICE);
    assert!(
        alice.contains("which begins none of your conditional lines"),
        "{alice}"
    );
}

#[test]
fn a_turn_after_the_time_ran_out_ends_the_game_on_time_and_is_not_played() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    h.send(
        ALICE,
        "new",
        "challenge alice alice-pw bob --white --time=3",
    );
    h.bob_accepts();
    h.send(ALICE, "m", "move 101 alice alice-pw e4");
    // Bob's time runs out; his turn comes before the sweep.
    h.now += time::Duration::days(5);
    let mails = h.send(BOB, "late", "move 101 bob bob-pw e5");
    let bob = body_to(&mails, BOB);
    assert!(
        bob.contains("Your turn e5 was not played: the game was lost on time (lost on time: bob's time ran out at"),
        "{bob}"
    );
    assert!(!bob.contains("1.e4 e5"), "{bob}");
    let alice = body_to(&mails, ALICE);
    assert!(alice.contains("1-0"), "{alice}");
    assert!(
        alice.contains("lost on time: bob's time ran out"),
        "{alice}"
    );
    assert!(!alice.contains("not played"), "{alice}");
    assert_eq!(h.count("SELECT COUNT(*) FROM turns"), 1);
    assert_eq!(
        h.count("SELECT COUNT(*) FROM boards WHERE result = '1-0'"),
        1
    );
    // The sweep finds nothing more to do.
    let at = h.now + time::Duration::minutes(5);
    assert!(h.sweep(at).is_empty());
    // In time, the twin turn is played.
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    h.send(
        ALICE,
        "new",
        "challenge alice alice-pw bob --white --time=3",
    );
    h.bob_accepts();
    h.send(ALICE, "m", "move 101 alice alice-pw e4");
    h.now += time::Duration::days(2);
    let mails = h.send(BOB, "in time", "move 101 bob bob-pw e5");
    assert!(
        body_to(&mails, BOB).contains("1.e4 e5"),
        "{}",
        body_to(&mails, BOB)
    );
    assert_eq!(h.count("SELECT COUNT(*) FROM turns"), 2);
}

/// Every mail `address` received, decoded, lines joined.
fn all_to(h: &Harness, address: &str) -> Vec<String> {
    h.all_mails()
        .into_iter()
        .filter(|mail| mail.to == address)
        .map(|mail| flat(&mail.body))
        .collect()
}

/// The challenger's comment under the first turn waits for the
/// acceptance (the challenged player reads nothing but the challenge and
/// that turn until then), the challenger is told so, and it comes with the
/// first board mail after the acceptance: by `accept`, and by the first
/// turn.
#[test]
fn a_comment_under_the_first_turn_reaches_the_opponent_after_acceptance() {
    for accepting in ["accept 101 bob bob-pw", "move 101 bob bob-pw e5"] {
        let mut h = Harness::new();
        let (alice_new, _) = h.alice_and_bob_on("chess");
        let mails = h.reply(&alice_new, ALICE, "e4\nGood luck, Bob!");
        let alice = body_to(&mails, ALICE);
        assert!(
            alice.contains(
                "Your comment reaches bob with the first board mail after bob accepts the challenge."
            ),
            "{alice}"
        );
        for text in all_to(&h, BOB) {
            assert!(!text.contains("Good luck"), "before accepting: {text}");
        }
        let mails = h.send(BOB, "ok", accepting);
        let bob = body_to(&mails, BOB);
        assert!(
            bob.contains("Comments: alice: Good luck, Bob!"),
            "{accepting}: {bob}"
        );
        // Then it goes the way of every comment: not under a later turn.
        if accepting.starts_with("accept") {
            h.send(BOB, "m", "move 101 bob bob-pw e5");
        }
        let mails = h.send(ALICE, "m", "move 101 alice alice-pw Nf3");
        assert!(!body_to(&mails, BOB).contains("Good luck"), "{accepting}");
    }
}

/// An accepted `undo` takes the undone turn's comment with it, for good:
/// not in the board mails after it, not when the game reaches that turn
/// again, not in the result mail; `history` and `pgn` never hold comments.
#[test]
fn an_undone_turns_comment_is_gone_with_the_turn() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    h.bob_accepts();
    h.send(ALICE, "m", "move 101 alice alice-pw e4");
    h.send(BOB, "m", "move 101 bob bob-pw e5");
    let mails = h.send(ALICE, "m", "move 101 alice alice-pw Nf3\nA sharp one.");
    // The twin: before the undo, bob reads it.
    assert!(body_to(&mails, BOB).contains("alice: A sharp one."));
    h.send(ALICE, "u", "undo 101 alice alice-pw");
    let undone = h.send(BOB, "ok", "accept 101 bob bob-pw");
    let again = h.send(ALICE, "m", "move 101 alice alice-pw d4");
    assert!(body_to(&again, BOB).contains("2.d4"), "{again:#?}");
    let asked: Vec<Sent> = ["history 101", "pgn 101"]
        .iter()
        .flat_map(|asked| h.send(BOB, "ask", asked))
        .collect();
    let ended = h.send(BOB, "r", "resign 101 bob bob-pw");
    assert!(body_to(&ended, BOB).contains("Result: 1-0"));
    for mail in undone.iter().chain(&again).chain(&asked).chain(&ended) {
        assert!(
            !mail.body.contains("A sharp one"),
            "the undone comment came back:\n{}",
            mail.body
        );
    }
    assert_eq!(
        h.count("SELECT COUNT(*) FROM comments WHERE text LIKE '%sharp%'"),
        0
    );
}

/// `tournament show` lists an event's games through the reader policy, as
/// every list of games does. No event game can be private or a waiting
/// challenge by mail (an event's games are public), and a delayed game
/// shows no more here than "in progress" until it ends; so the store is
/// made to hold a private event game, to show that the list is the
/// reader's: a stranger's `tournament show` leaves it out, its player's
/// lists it.
#[test]
fn tournament_show_lists_the_games_the_reader_may_see() {
    let mut h = Harness::new();
    h.signup("td", &address("td"));
    for player in ["ann", "cy", "dee"] {
        h.signup(player, &address(player));
    }
    h.send(&address("td"), "e", "tournament create td td-pw cup chess");
    for player in ["ann", "cy", "dee"] {
        h.send(
            &address(player),
            "e",
            &format!("tournament enter cup {player} {player}-pw"),
        );
    }
    let started = h.send(&address("td"), "s", "tournament start cup td td-pw");
    let game = games_in(&to(&started, &address("td")).body)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("a pairing: {started:#?}"));
    let listed = format!("board {}", game.board);
    let stranger = "someone@elsewhere.example";
    let shown = h.send(stranger, "q", "tournament show cup");
    assert!(body_to(&shown, stranger).contains(&listed), "{shown:#?}");
    h.database()
        .execute(
            "UPDATE boards SET private = 1 WHERE number = ?1",
            [game.board],
        )
        .expect("the board made private");
    let shown = h.send(stranger, "q", "tournament show cup");
    let text = body_to(&shown, stranger);
    assert!(!text.contains(&listed), "{text}");
    let white = address(&game.white);
    let shown = h.send(
        &white,
        "q",
        &format!("tournament show cup {} {}-pw", game.white, game.white),
    );
    assert!(body_to(&shown, &white).contains(&listed), "{shown:#?}");
}
