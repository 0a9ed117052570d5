//! Thematic starts through the server: a chess game started after a named
//! opening's moves and played by mail to mate, the opening in the board
//! mails and the PGN (with its moves from the usual start); bad openings
//! refused without a board; and the `openings` list.

use pbem_testkit::{ALICE, BOB, Harness, flat, to};

/// `kings-pawn-game` is the table's first row of that name, B00 (1.e4):
/// Black moves first, and his first turn accepts the challenge. White
/// then mates in the scholar's way.
#[test]
fn a_thematic_game_is_played_by_mail_to_mate() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    let mails = h.send(
        ALICE,
        "new game",
        "chess challenge alice alice-pw bob --white --opening=kings-pawn-game",
    );
    assert_eq!(mails.len(), 2, "{mails:#?}");
    for mail in &mails {
        assert!(
            mail.body.contains("Opening: B00 King's Pawn Game (1.e4)."),
            "{}",
            mail.body
        );
    }
    // The opening's moves were played: White may not move now.
    let early = h.send(ALICE, "turn", "move 101 alice alice-pw d4");
    assert!(
        flat(&early[0].body).contains("it is not your turn on board 101"),
        "{}",
        early[0].body
    );
    // Nor can the opening's move be taken back: it is no turn of the board.
    let undo = h.send(ALICE, "undo", "undo 101 alice alice-pw");
    assert!(
        flat(&undo[0].body).contains("board 101 has no turn to take back"),
        "{}",
        undo[0].body
    );
    let turns = [
        (BOB, "bob", "e5"),
        (ALICE, "alice", "Bc4"),
        (BOB, "bob", "Nc6"),
        (ALICE, "alice", "Qh5"),
        (BOB, "bob", "Nf6"),
    ];
    for (address, who, turn) in turns {
        let mails = h.send(address, "turn", &format!("move 101 {who} {who}-pw {turn}"));
        assert_eq!(mails.len(), 2, "{turn}: {mails:#?}");
    }
    // The twin: a turn played on the board may be asked back.
    let undo = h.send(ALICE, "undo", "undo 101 alice alice-pw");
    assert!(
        !flat(&undo[0].body).contains("has no turn to take back"),
        "{}",
        undo[0].body
    );
    // The board's history is its own turns: the opening is no turn of it.
    let history = h.send(BOB, "history", "history 101");
    assert!(!history[0].body.contains("1.e4"), "{}", history[0].body);
    assert!(history[0].body.contains("e5"), "{}", history[0].body);
    let mails = h.send(ALICE, "turn", "move 101 alice alice-pw Qxf7");
    let body = &to(&mails, BOB).body;
    assert!(body.contains("4.Qxf7#"), "{body}");
    assert!(body.contains("1-0"), "{body}");
    let pgn = h.send(BOB, "pgn", "pgn 101");
    let text = &pgn[0].body;
    assert!(text.contains("[ECO \"B00\"]"), "{text}");
    assert!(text.contains("[Opening \"King's Pawn Game\"]"), "{text}");
    assert!(!text.contains("[FEN"), "{text}");
    assert!(
        text.contains("1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7# 1-0"),
        "{text}"
    );
}

/// An unknown code, an unknown or ambiguous name, an opening on a
/// double-move variant and an opening with a Chess960 array are refused,
/// and no board is made.
#[test]
fn bad_openings_are_refused_and_change_nothing() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    for (line, expected) in [
        (
            "chess challenge alice alice-pw bob --opening=F00",
            "--opening=f00: no opening has that code or name",
        ),
        (
            "chess challenge alice alice-pw bob --opening=no-such-opening",
            "--opening=no-such-opening: no opening has that code or name",
        ),
        (
            "chess challenge alice alice-pw bob --opening=english",
            "--opening=english: several openings match: ",
        ),
        (
            "chess2 challenge alice alice-pw bob --opening=B90",
            "--opening starts a game of chess after an opening's moves; chess2 cannot play them",
        ),
        (
            "chess960 challenge alice alice-pw bob --opening=B90",
            "chess960 cannot play them",
        ),
        (
            "chess challenge alice alice-pw bob --opening=B90 --position=3",
            "--opening and --position are two different starts",
        ),
    ] {
        let mails = h.send(ALICE, "new", line);
        assert_eq!(mails.len(), 1, "{line}: {mails:#?}");
        let body = flat(&mails[0].body);
        assert!(body.contains(expected), "{line}: {}", mails[0].body);
        assert_eq!(h.count("SELECT COUNT(*) FROM boards"), 0, "{line}");
    }
    // The ambiguous name lists its matches with their codes.
    let mails = h.send(
        ALICE,
        "new",
        "chess challenge alice alice-pw bob --opening=english",
    );
    let body = flat(&mails[0].body);
    assert!(body.contains("A10 English Opening;"), "{body}");
    assert!(body.contains("more"), "{body}");
    // The entitled twin: a known code makes the board, its opening kept.
    h.send(
        ALICE,
        "new",
        "chess challenge alice alice-pw bob --opening=b90",
    );
    assert_eq!(
        h.count("SELECT COUNT(*) FROM boards WHERE opening LIKE 'B90\tSicilian Defense: Najdorf Variation\t%'"),
        1
    );
}

/// `openings` lists at most 50 matches and says how many more there are;
/// a code lists its rows.
#[test]
fn openings_lists_at_most_50_lines() {
    let mut h = Harness::new();
    let mails = h.send(ALICE, "list", "openings sicilian");
    assert_eq!(mails.len(), 1, "{mails:#?}");
    let body = &mails[0].body;
    let listed = body
        .lines()
        .filter(|line| line.starts_with("  ") && line.contains("Sicilian"))
        .count();
    assert_eq!(listed, 50, "{body}");
    assert!(body.contains("...and "), "{body}");
    assert!(body.contains(" more; give more words"), "{body}");
    let mails = h.send(ALICE, "list", "openings B90");
    let body = &mails[0].body;
    assert!(
        body.contains("\n  B90 Sicilian Defense: Najdorf Variation\n  B90 Sicilian Defense: Najdorf Variation, Adams Attack\n"),
        "{body}"
    );
    assert!(!body.contains("...and "), "{body}");
    let mails = h.send(ALICE, "list", "openings nothing-like-this");
    assert!(
        mails[0]
            .body
            .contains("No opening has the code or a name matching"),
        "{}",
        mails[0].body
    );
}
