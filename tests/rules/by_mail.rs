//! Rules questions answered through the whole mail service (real Maildir,
//! SQLite file and outbox): how a move the text left open was read is told
//! to both players under the board; lenient notation is played; notation
//! errors say what they refuse once.

use pbem_testkit::{ALICE, BOB, Harness, flat, to};

/// "Where `Kb5-c4` could be the plain move or an en passant capture, say
/// which was played": after `2.Qd1-g4-g3` the knight on f6 may step to g4
/// or take the queen there en passant; `Ng4` is the plain move, and the
/// board mails say so.
#[test]
fn a_move_onto_a_passed_square_is_explained_under_the_board() {
    let mut h = Harness::new();
    h.alice_and_bob_on("doublestep");
    for (address, who, turn) in [
        (ALICE, "alice", "e4"),
        (BOB, "bob", "Nf6"),
        (ALICE, "alice", "Qd1-g4-g3"),
        (BOB, "bob", "Ng4"),
    ] {
        let mails = h.send(
            address,
            "my turn",
            &format!("move 101 {who} {who}-pw {turn}"),
        );
        assert_eq!(mails.len(), 2, "{turn}: {mails:#?}");
    }
    let note = "Ng4 was played as the plain move Ng4; the en passant capture is written Nxg4";
    let mails = h.new_mails();
    assert!(mails.is_empty(), "{mails:#?}");
    let all = h.all_mails();
    let last_two = &all[all.len() - 2..];
    for address in [ALICE, BOB] {
        let mail = to(last_two, address);
        // Comments are wrapped: compare the words.
        let words = flat(&mail.body);
        assert!(words.contains(&format!("pbem: {note}")), "{}", mail.body);
    }
}

/// Issue 11 item 10: `e5, Nf6.` and `nc6` are played; an unreadable turn
/// is refused with its text quoted once and a hint of the right form.
#[test]
fn lenient_notation_by_mail_and_errors_said_once() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess2");
    let mails = h.send(ALICE, "my turn", "move 101 alice alice-pw nf3");
    assert_eq!(mails.len(), 2, "{mails:#?}");
    assert!(
        to(&mails, BOB).body.contains("1.Nf3"),
        "{}",
        to(&mails, BOB).body
    );
    let mails = h.send(BOB, "my turn", "move 101 bob bob-pw c5, nc6.");
    assert_eq!(mails.len(), 2, "{mails:#?}");
    assert!(
        to(&mails, ALICE).body.contains("1.Nf3 c5,Nc6"),
        "{}",
        to(&mails, ALICE).body
    );
    let before = h.game_state();
    let mails = h.send(ALICE, "my turn", "move 101 alice alice-pw e4,nc3x");
    assert_eq!(h.game_state(), before, "a refused turn changes nothing");
    assert_eq!(mails.len(), 1, "{mails:#?}");
    let body = &mails[0].body;
    let expected = "\"nc3x\" in \"e4,nc3x\" is not a move: write a move in SAN like Nc6 or exd5";
    assert!(body.contains(expected), "{body}");
    assert!(!body.contains("\"e4,nc3x\": "), "{body}");
}
