//! Rules questions answered through the whole mail service (real Maildir,
//! SQLite file and outbox): how a move the text left open was read is told
//! to both players under the board.

mod support;

use support::{Harness, to};

const ALICE: &str = "alice@example.org";
const BOB: &str = "bob@example.org";

/// "Where `Kb5-c4` could be the plain move or an en passant capture, say
/// which was played": after `2.Qd1-g4-g3` the knight on f6 may step to g4
/// or take the queen there en passant; `Ng4` is the plain move, and the
/// board mails say so.
#[test]
fn a_move_onto_a_passed_square_is_explained_under_the_board() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    let mails = h.send(
        ALICE,
        "new game",
        "doublestep challenge alice alice-pw bob --white",
    );
    assert_eq!(mails.len(), 2, "{mails:#?}");
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
        let words = mail.body.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(words.contains(&format!("pbem: {note}")), "{}", mail.body);
    }
}
